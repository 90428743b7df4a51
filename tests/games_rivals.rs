//! Whole games of Rivals for Catan played by random bots, with the invariants of
//! `rivals::check_invariants` checked after every action (cards conserved, storage 0-3,
//! points recomputed equal points reported, the advantage tokens) and the hidden hands and
//! stacks of `rivals::check_views` every 16 actions; determinism, save/load, undo, every
//! listed action accepted, and the REPL.

use crate::rivals;

use catan_engine::bot::RandomBot;
use catan_engine::repl::{run_script, ReplConfig};
use catan_engine::{sim, Game};
use rivals::*;

fn play_seeds(seeds: std::ops::Range<u64>) -> Vec<usize> {
    let mut wins = vec![0; 2];
    for seed in seeds {
        let mut end_points = None;
        let result = sim::play_one(header(seed, &[], false), |g| {
            check_invariants(g)?;
            if g.log().len() % 16 == 0 {
                check_views(g)?;
            }
            if g.winner().is_some() {
                let current = g.state().current;
                end_points = Some((current, [points(g, "red"), points(g, "blue")]));
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let w = result.winner.unwrap_or_else(|| panic!("seed {seed}: no winner after {} actions", result.actions));
        let (current, pts) = end_points.expect("the callback saw the end");
        // The Goal & End of the Game: 7 points at the end of the winner's own turn.
        assert_eq!(current, w, "seed {seed}: the winner won in their own turn");
        assert!(pts[w] >= 7, "seed {seed}: the winner has {} points", pts[w]);
        wins[w] += 1;
    }
    wins
}

#[test]
fn bot_games_keep_every_invariant() {
    let seeds = 0..60u64;
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).clamp(1, 4) as u64;
    let wins: Vec<Vec<usize>> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (lo, hi) = (seeds.start, seeds.end);
                let n = (hi - lo) / threads;
                let range = lo + t * n..if t + 1 == threads { hi } else { lo + (t + 1) * n };
                sc.spawn(move || play_seeds(range))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let total: Vec<usize> = (0..2).map(|s| wins.iter().map(|w| w[s]).sum()).collect();
    eprintln!("60 rivals games: wins by seat {total:?}");
    assert_eq!(total.iter().sum::<usize>(), 60);
}

fn play_random(seed: u64, limit: usize) -> Game {
    let mut g = Game::new(header(seed, &[], false)).unwrap();
    let mut bots = [RandomBot::new(seed), RandomBot::new(seed + 1)];
    for _ in 0..limit {
        if g.winner().is_some() {
            break;
        }
        let s = g.to_act().unwrap();
        let a = bots[s].choose(&g, s).unwrap().expect("an action");
        g.perform(s, &a).unwrap();
    }
    g
}

#[test]
fn same_seed_same_game_and_save_load_replays_it() {
    let a = play_random(7, 300);
    let b = play_random(7, 300);
    assert!(*a.state() == *b.state(), "same seed and bots, same game");
    assert_eq!(a.log(), b.log());
    let (c, div) = Game::load_json(&a.save_json()).unwrap();
    assert!(div.is_none(), "{div:?}");
    assert!(*c.state() == *a.state(), "a loaded game is the saved one");
    assert_eq!(c.save_json(), a.save_json());
}

#[test]
fn undo_restores_the_previous_state() {
    let mut g = play_random(11, 120);
    let before = g.state().clone();
    let s = g.to_act().unwrap();
    let a = g.legal_actions(s).unwrap().into_iter().next().unwrap();
    g.perform(s, &a).unwrap();
    g.undo(1).unwrap();
    assert!(*g.state() == before);
}

/// Listed actions are accepted: every few steps, one listed action of each kind is
/// performed and undone (the bot games check the actions the bots choose).
#[test]
fn every_listed_action_is_accepted() {
    let mut phases = std::collections::BTreeSet::new();
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..3 {
        let mut g = Game::new(header(seed, &[], false)).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..240 {
            if g.winner().is_some() {
                break;
            }
            let s = g.to_act().unwrap();
            phases.insert(g.state().phase.clone());
            let all = g.legal_actions(s).unwrap();
            assert!(!all.is_empty(), "seed {seed}: nothing to do in phase {}", g.state().phase);
            // Only the seat to act lists anything.
            assert!(g.legal_actions(1 - s).unwrap().is_empty(), "seed {seed}: phase {}", g.state().phase);
            if step % 8 == 0 {
                let before = g.state().clone();
                let mut seen = std::collections::BTreeSet::new();
                for a in &all {
                    if !seen.insert(a.name.clone()) {
                        continue;
                    }
                    kinds.insert(a.name.clone());
                    let text = g.action_text(a);
                    g.perform(s, a).unwrap_or_else(|e| panic!("seed {seed}: listed '{text}' refused: {e}"));
                    g.undo(1).unwrap();
                    assert!(*g.state() == before);
                }
            }
            let a = bot.pick(all).unwrap();
            g.perform(s, &a).unwrap();
        }
    }
    for ph in ["roll", "action", "replenish", "exchange"] {
        assert!(phases.contains(ph), "the bots never reached phase {ph}: {phases:?}");
    }
    eprintln!("kinds tried: {kinds:?}");
}

/// The REPL: a human (red) plays against a bot, sees both principalities with labels and
/// stores, their own hand and only the size of the bot's.
#[test]
fn repl_plays_rivals_against_a_bot() {
    let g = game("red");
    let seed = g.header().seed;
    let config = ReplConfig {
        bots: "2=random".into(),
        strict: true,
        autosave_dir: Some(std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("autosave")),
        ..ReplConfig::new(header(seed, &[], false))
    };
    let input = "show board\nshow hand\nshow players\nlegal\nroll\nstate --json\nquit\n";
    let mut out = Vec::new();
    let status = run_script(config, &mut input.as_bytes(), &mut out);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(status, 0, "{text}");
    assert!(text.contains("red's principality (rows 1-5)"), "{text}");
    assert!(text.contains("blue's principality (rows 6-10)"), "{text}");
    assert!(text.contains("forest 2") && text.contains("K2 ●"), "{text}");
    assert!(text.contains("settlement") && text.contains("gold field 1"), "{text}");
    assert!(text.contains("red's cards:\n    hand:"), "{text}");
    assert!(text.contains("red     2 VP  strength 0"), "{text}");
    assert!(text.contains("blue    2 VP") && text.contains("hand 3/3 (bot)"), "{text}");
    assert!(text.contains("red may:\n  roll"), "{text}");
    assert!(text.contains("\"grids\""), "{text}");
}

#[test]
fn sim_finishes_games() {
    let r = sim::run(&["rivals".to_string()], 2, &[], 10, 3, &sim::Lineup::default(), |_| {}).unwrap();
    assert_eq!(r.finished, 10);
}

/// A whole game in the REPL with a bot in each seat, to a winner; the cards a bot puts
/// face down or takes from a searched stack are not shown (`secret_actions`).
#[test]
fn repl_bots_play_to_a_winner_without_showing_secret_cards() {
    let config = ReplConfig {
        bots: "all=random".into(),
        strict: true,
        autosave_dir: Some(std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("autosave")),
        ..ReplConfig::new(header(4, &[], false))
    };
    let mut out = Vec::new();
    let status = run_script(config, &mut "show players\n".as_bytes(), &mut out);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(status, 0, "{text}");
    assert!(text.contains("wins the game with"), "{text}");
    let mut secret = 0;
    for line in text.lines() {
        for cmd in ["exchange", "take", "discard", "pick"] {
            if line.contains(&format!("(bot)> {cmd}")) {
                assert!(line.ends_with(&format!("{cmd} (hidden)")), "{line}");
                secret += 1;
            }
        }
    }
    assert!(secret > 0, "the bots never exchanged a card");
}
