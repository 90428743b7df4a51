//! Whole Theme Games of The Era of Gold played by random bots, with the invariants of
//! `rivals_gold::gold_invariants` checked after every action (resources 0-3 per region,
//! the 121 cards conserved across stacks, hands, principalities, the discard pile and the
//! face-up stack, points recomputed equal points reported, the advantage tokens) and the
//! views of `gold_views` every 16 actions (hands and stacks hidden, only the discard pile's
//! top card seen), and the End of the Game: the winner reaches the target
//! during their own turn.
//!
//! Random bots need thousands of actions to reach 12 points (they remove and trade away
//! what they build), so the default suite plays a handful of seeds to 8 points and a few
//! hundred actions of the 12-point game; `cargo test --test all games_rivals_gold:: -- --ignored`
//! plays whole 12-point games.

use crate::rivals_gold;
use crate::rivals_theme;

use catan_engine::bot::RandomBot;
use catan_engine::repl::{run_script, ReplConfig};
use catan_engine::{sim, Game};
use rivals_gold::*;
use rivals_theme::save_load_round_trip;

fn play_to_winner(seed: u64, target: i64) {
    let vp = target.to_string();
    let mut seen = None;
    let result = sim::play_one(gold_header(seed, &[("victory_points", &vp)], false), |g| {
        gold_invariants(g)?;
        if g.log().len().is_multiple_of(16) {
            gold_views(g)?;
        }
        if g.winner().is_some() {
            let cur = g.state().current;
            seen = Some((cur, g.points(cur, true).map_err(|e| e.to_string())?));
        }
        Ok(())
    })
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let w = result.winner.unwrap_or_else(|| panic!("seed {seed}: no winner after {} actions", result.actions));
    let (cur, pts) = seen.expect("the callback saw the end");
    // End of the Game: the player whose turn it is wins with the target or more.
    assert_eq!(cur, w, "seed {seed}: the winner won during their own turn");
    assert!(pts >= target, "seed {seed}: the winner has {pts} points");
}

#[test]
fn theme_games_to_8_points_keep_every_invariant() {
    for seed in 0..2 {
        play_to_winner(seed, 8);
    }
}

/// The 12-point game itself: invariants after each of the first 600 actions of 2 seeds.
#[test]
fn theme_games_at_12_points_keep_every_invariant() {
    for seed in 10..12 {
        let mut g = Game::new(gold_header(seed, &[], false)).unwrap();
        let mut bots = [RandomBot::new(seed), RandomBot::new(seed + 1)];
        for _ in 0..600 {
            if g.winner().is_some() {
                break;
            }
            let s = g.to_act().unwrap();
            let a = bots[s].choose(&g, s).unwrap().expect("an action");
            g.perform(s, &a).unwrap();
            gold_invariants(&g).unwrap_or_else(|e| panic!("seed {seed} after '{}': {e}", g.action_text(&a)));
            if g.log().len().is_multiple_of(16) {
                gold_views(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
        }
    }
}

#[test]
#[ignore = "random bots take thousands of actions to reach 12 points"]
fn whole_theme_games_at_12_points() {
    for seed in 0..3 {
        play_to_winner(seed, 12);
    }
}

/// Listed actions are accepted: every few steps one listed action of each kind is
/// performed and undone; only the seat to act lists anything.
#[test]
fn every_listed_action_is_accepted() {
    for seed in 0..2 {
        let mut g = Game::new(gold_header(seed, &[], false)).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..300 {
            if g.winner().is_some() {
                break;
            }
            let s = g.to_act().unwrap();
            let all = g.legal_actions(s).unwrap();
            assert!(!all.is_empty(), "seed {seed}: nothing to do in phase {}", g.state().phase);
            assert!(g.legal_actions(1 - s).unwrap().is_empty(), "seed {seed}: phase {}", g.state().phase);
            if step % 15 == 0 {
                let mut seen = std::collections::BTreeSet::new();
                for a in &all {
                    if seen.insert(a.name.clone()) {
                        let before = g.state().clone();
                        g.perform(s, a)
                            .unwrap_or_else(|e| panic!("seed {seed}: listed '{}' refused: {e}", g.action_text(a)));
                        g.undo(1).unwrap();
                        assert!(*g.state() == before);
                    }
                }
            }
            let a = bot.choose(&g, s).unwrap().expect("an action");
            g.perform(s, &a).unwrap();
        }
    }
}

#[test]
fn save_load_replays_a_theme_game() {
    save_load_round_trip("rivals_gold", 3);
}

/// `catan play --variant rivals_gold`: the REPL plays the set-up choices, the card text on
/// request and a grouped `legal`.
#[test]
fn repl_plays_the_theme_game_and_shows_card_text() {
    let mut out = Vec::new();
    let config = ReplConfig {
        autosave_dir: Some(std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("autosave")),
        ..ReplConfig::new(gold_header(5, &[], false))
    };
    let script = "help merchant_guild\nshow card gudrun\nhelp nothing_such\nlegal\nlook 1\nlegal select\nshow bank\n";
    run_script(config, &mut script.as_bytes(), &mut out);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("merchant guild (costs 2 brick, grain, 2 wool"), "{text}");
    assert!(text.contains("Merchant Guild: 1 per principality"), "{text}");
    assert!(text.contains("gudrun (action card; with a Pirate Ship"), "{text}");
    assert!(text.contains("select "), "{text}");
    assert!(text.contains("error: no command, action or card 'nothing_such'"), "{text}");
    assert!(text.contains("face-up expansion stack: 2 merchant_guild"), "{text}");
    assert!(text.contains("discard pile: empty"), "{text}");
}

/// A long `legal` listing is grouped by its first two words (one `legal` once printed 316
/// `play merchant_caravan` lines); short groups and short listings stay whole.
#[test]
fn long_legal_listings_are_grouped() {
    use catan_engine::repl::group_legal;
    let mut texts: Vec<String> = vec!["end".into(), "trade 3 ore for wool".into()];
    for i in 0..316 {
        texts.push(format!("play merchant_caravan {i} for {i}"));
    }
    let lines = group_legal(&texts);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[2].starts_with("play merchant_caravan ... (316 ways, e.g. `play merchant_caravan 0 for 0`"),
        "{lines:?}"
    );
    assert!(lines[2].contains("`legal play merchant_caravan` lists them"));
    let short: Vec<String> = (0..5).map(|i| format!("build abbey L{i}")).collect();
    assert_eq!(group_legal(&short), short);
}
