//! Whole games of `base` played by random bots, with the invariants of `common` checked
//! after every action; the variable and random boards; 3-player games; determinism,
//! save/load, undo, and the promise that every listed legal action is accepted.
//!
//! Timing (test profile, opt-level 2): see `thousand_games_keep_every_invariant`.

use crate::common;

use catan_engine::bot::RandomBot;
use catan_engine::sim;
use catan_engine::{Game, GameState};
use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Plays complete games, checking the invariants after every action, and checks the end:
/// a winner, in their own turn, with at least the points needed. Returns the number of
/// actions played and the wins by seat.
fn play_seeds(players: usize, options: &[(&str, &str)], seeds: &[u64]) -> (usize, Vec<usize>) {
    let need: i64 = options.iter().find(|(k, _)| *k == "victory_points").map(|(_, v)| v.parse().unwrap()).unwrap_or(10);
    let mut actions = 0;
    let mut wins = vec![0usize; players];
    for &seed in seeds {
        let mut end: Option<(GameState, Vec<i64>)> = None;
        let result = sim::play_one(header(players, seed, options, false), |g| {
            check_invariants(g)?;
            if g.winner().is_some() {
                let pts = (0..players).map(|p| g.points(p, true).unwrap()).collect();
                end = Some((g.state().clone(), pts));
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("seed {seed} ({players} players, {options:?}): {e}"));
        let w = result.winner.unwrap_or_else(|| panic!("seed {seed}: no winner after {} actions", result.actions));
        let (st, pts) = end.expect("the callback saw the winning state");
        assert_eq!(st.current, w, "seed {seed}: the winner won in their own turn");
        assert!(pts[w] >= need, "seed {seed}: the winner has {} points", pts[w]);
        wins[w] += 1;
        actions += result.actions;
    }
    (actions, wins)
}

/// `play_seeds` spread over the machine's cores (each thread has its own games).
fn play_checked(players: usize, options: &[(&str, &str)], seeds: std::ops::Range<u64>) -> usize {
    let seeds: Vec<u64> = seeds.collect();
    let threads =
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).clamp(1, 8).min(seeds.len().max(1));
    let results: Vec<(usize, Vec<usize>)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<u64> = seeds.iter().copied().skip(t).step_by(threads).collect();
                sc.spawn(move || play_seeds(players, options, &mine))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut wins = vec![0usize; players];
    let mut actions = 0;
    for (a, w) in results {
        actions += a;
        for (i, n) in w.into_iter().enumerate() {
            wins[i] += n;
        }
    }
    eprintln!("{players} players {options:?}: {} games, wins by seat {wins:?}", seeds.len());
    actions
}

/// Required by the project issue: 1,000 complete 4-player games on the beginner board with
/// every invariant of `common::check_invariants` checked after every action (about 630,000
/// actions). Measured in the test profile (opt-level 2): about 50 s on one core, 25 s
/// spread over two, as `play_checked` does.
#[test]
fn thousand_games_keep_every_invariant() {
    let t = Instant::now();
    let actions = play_checked(4, &[], 0..1000);
    eprintln!("1000 games, {actions} actions, {:.1} s", t.elapsed().as_secs_f64());
}

#[test]
fn variable_board_games_keep_every_invariant() {
    play_checked(4, &[("board", "variable"), ("starting_pieces", "false")], 20_000..20_030);
}

#[test]
fn random_board_games_keep_every_invariant() {
    play_checked(4, &[("board", "random"), ("starting_pieces", "false")], 30_000..30_030);
}

#[test]
fn three_player_games_keep_every_invariant() {
    play_checked(3, &[], 40_000..40_020);
    play_checked(3, &[("board", "variable"), ("starting_pieces", "false")], 41_000..41_020);
    play_checked(3, &[("starting_pieces", "false")], 42_000..42_020);
}

#[test]
fn games_with_options_keep_every_invariant() {
    play_checked(
        4,
        &[
            ("combined_trade_build", "false"),
            ("robber_desert", "false"),
            ("shortage_exception", "false"),
            ("discard_limit", "5"),
            ("victory_points", "12"),
        ],
        50_000..50_020,
    );
}

// Boards --------------------------------------------------------------------------------

/// Number tokens A-R (Almanac: Set-up, Variable, Illustration Q).
const TOKENS: [u8; 18] = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11];

fn terrain(g: &Game, h: usize) -> String {
    g.spec().terrains[g.state().hexes[h].terrain as usize].name.clone()
}

/// The board every variant of the base island shares: 19 hexes with the standard terrain
/// mix, 9 harbors (4 generic, one 2:1 per resource), the robber in the desert, and the
/// desert without a token.
fn check_base_island(g: &Game) {
    let st = g.state();
    let mut terrains: Vec<String> = (0..st.hexes.len()).map(|h| terrain(g, h)).collect();
    terrains.sort();
    let mut want: Vec<String> =
        [("desert", 1), ("fields", 4), ("forest", 4), ("hills", 3), ("mountains", 3), ("pasture", 4)]
            .iter()
            .flat_map(|(t, n)| std::iter::repeat_n(t.to_string(), *n))
            .collect();
    want.sort();
    assert_eq!(terrains, want);
    let desert = (0..st.hexes.len()).find(|&h| terrain(g, h) == "desert").unwrap();
    assert_eq!(st.hexes[desert].number, None, "the desert never gets a token");
    assert_eq!(st.markers["robber"], desert, "the robber starts in the desert");
    let mut tokens: Vec<u8> = st.hexes.iter().filter_map(|h| h.number).collect();
    tokens.sort();
    let mut all = TOKENS.to_vec();
    all.sort();
    assert_eq!(tokens, all, "the 18 standard tokens");
    let mut harbors: Vec<(Option<String>, u8)> = st.harbors.iter().map(|h| (h.resource.clone(), h.ratio)).collect();
    harbors.sort();
    let mut want_h: Vec<(Option<String>, u8)> = vec![(None, 3); 4];
    for r in RESOURCES {
        want_h.push((Some(r.to_string()), 2));
    }
    want_h.sort();
    assert_eq!(harbors, want_h);
    let t = st.topology.as_ref().unwrap();
    for h in st.harbors.iter() {
        assert_eq!(t.paths[h.path].hexes.len(), 1, "harbors lie on the coast");
    }
}

/// Almanac: Set-up, Variable (3) — tokens A-R laid from a corner of the island,
/// counter-clockwise in a spiral toward the centre, skipping the desert.
#[test]
fn variable_board_tokens_follow_the_spiral() {
    let mut starts = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let g = Game::new(header(4, seed, &[("board", "variable"), ("starting_pieces", "false")], false)).unwrap();
        check_base_island(&g);
        let st = g.state();
        let t = st.topology.as_ref().unwrap();
        let corners: Vec<usize> = (0..t.hexes.len()).filter(|&h| t.hexes[h].neighbors.len() == 3).collect();
        assert_eq!(corners.len(), 6);
        let matching: Vec<usize> = corners
            .iter()
            .copied()
            .filter(|&c| {
                let laid: Vec<u8> = t
                    .spiral(c)
                    .into_iter()
                    .filter(|&h| terrain(&g, h) != "desert")
                    .map(|h| st.hexes[h].number.unwrap_or(0))
                    .collect();
                laid == TOKENS
            })
            .collect();
        assert!(!matching.is_empty(), "seed {seed}: the tokens do not follow the spiral from any corner");
        starts.insert(matching[0]);
    }
    assert_eq!(starts.len(), 6, "the spiral starts at every corner over many seeds");
}

/// Almanac: Set-up, Variable, Important — fully random tokens, but no two red numbers
/// (6 and 8) on adjacent hexes.
#[test]
fn random_board_keeps_red_numbers_apart() {
    let mut spiral_like = 0;
    for seed in 0..200 {
        let g = Game::new(header(4, seed, &[("board", "random"), ("starting_pieces", "false")], false)).unwrap();
        check_base_island(&g);
        let st = g.state();
        let t = st.topology.as_ref().unwrap();
        let red = |h: usize| matches!(st.hexes[h].number, Some(6) | Some(8));
        for h in 0..t.hexes.len() {
            if red(h) {
                for &n in &t.hexes[h].neighbors {
                    assert!(!red(n), "seed {seed}: red numbers on H{} and H{}", h + 1, n + 1);
                }
            }
        }
        let desert = (0..st.hexes.len()).find(|&h| terrain(&g, h) == "desert").unwrap();
        let laid: Vec<u8> =
            t.spiral(0).into_iter().filter(|&h| h != desert).map(|h| st.hexes[h].number.unwrap()).collect();
        if laid == TOKENS {
            spiral_like += 1;
        }
    }
    assert!(spiral_like < 5, "random tokens are not laid in the spiral order");
}

/// Starting Set-up for Beginners: the printed board (terrain and numbers) and harbors.
#[test]
fn beginner_board_is_the_printed_one() {
    let g = Game::new(header(4, 7, &[], false)).unwrap();
    check_base_island(&g);
    let st = g.state();
    let printed: [(&str, Option<u8>); 19] = [
        ("mountains", Some(10)),
        ("pasture", Some(2)),
        ("forest", Some(9)),
        ("fields", Some(12)),
        ("hills", Some(6)),
        ("pasture", Some(4)),
        ("hills", Some(10)),
        ("fields", Some(9)),
        ("forest", Some(11)),
        ("desert", None),
        ("forest", Some(3)),
        ("mountains", Some(8)),
        ("forest", Some(8)),
        ("mountains", Some(3)),
        ("fields", Some(4)),
        ("pasture", Some(5)),
        ("hills", Some(5)),
        ("fields", Some(6)),
        ("pasture", Some(11)),
    ];
    for (h, (t, n)) in printed.iter().enumerate() {
        assert_eq!((terrain(&g, h).as_str(), st.hexes[h].number), (*t, *n), "H{}", h + 1);
    }
    // The same board whatever the seed.
    let other = Game::new(header(4, 8, &[], false)).unwrap();
    assert_eq!(other.state().hexes, st.hexes);
    assert_eq!(other.state().harbors, st.harbors);
}

// Determinism, save/load, undo ---------------------------------------------------------------

/// Plays up to `limit` actions with random bots; returns the game.
fn play_random(players: usize, seed: u64, options: &[(&str, &str)], limit: usize) -> Game {
    let mut g = Game::new(header(players, seed, options, false)).unwrap();
    let mut bots: Vec<RandomBot> = (0..players).map(|s| RandomBot::new(seed * 31 + s as u64)).collect();
    for _ in 0..limit {
        if g.winner().is_some() {
            break;
        }
        let s = g.to_act().unwrap();
        let a = bots[s].choose(&g, s).unwrap().expect("a legal action");
        g.perform(s, &a).unwrap();
    }
    g
}

/// Design: one seed per game; same seed and same commands give the same log and state.
#[test]
fn same_seed_and_commands_give_the_same_game() {
    for (seed, opts) in [
        (1u64, vec![]),
        (2, vec![("board", "variable"), ("starting_pieces", "false")]),
        (3, vec![("board", "random"), ("starting_pieces", "false")]),
    ] {
        let g = play_random(4, seed, &opts, 100_000);
        assert!(g.winner().is_some());
        let mut again = Game::new(g.header().clone()).unwrap();
        for e in g.log() {
            again.act(e.seat, &e.command).unwrap();
        }
        assert_eq!(again.log(), g.log(), "seed {seed}: same log, random draws included");
        assert!(*again.state() == *g.state(), "seed {seed}: same state");
        assert_eq!(again.messages(), g.messages());
        // A different seed gives a different game.
        let other = play_random(4, seed + 1000, &opts, 100_000);
        assert_ne!(other.log(), g.log());
    }
    // sim::play_one twice: the same result and the same final state.
    let run = || {
        let mut last = None;
        let r = sim::play_one(header(4, 77, &[], false), |g| {
            last = Some(g.state().clone());
            Ok(())
        })
        .unwrap();
        (r.winner, r.turns, r.actions, last.unwrap())
    };
    let (a, b) = (run(), run());
    assert_eq!((a.0, a.1, a.2), (b.0, b.1, b.2));
    assert!(a.3 == b.3);
}

/// Design: save = header + log; load replays it to the identical state.
#[test]
fn save_and_load_give_the_identical_game() {
    for (seed, limit) in [(5u64, 0usize), (6, 40), (7, 300), (8, 100_000)] {
        let g = play_random(4, seed, &[], limit);
        let json = g.save_json();
        let (loaded, div) = Game::load_json(&json).unwrap();
        assert!(div.is_none(), "seed {seed}: {div:?}");
        assert!(*loaded.state() == *g.state(), "seed {seed}: same state after load");
        assert_eq!(loaded.log(), g.log());
        assert_eq!(loaded.save_json(), json);
    }
    // Sandbox edits are saved and replayed too.
    let mut g = standard();
    sb(&mut g, "give red 3 ore");
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", "robber H1");
    build(&mut g, "red", "road 10-6");
    let (loaded, div) = Game::load_json(&g.save_json()).unwrap();
    assert!(div.is_none());
    assert!(*loaded.state() == *g.state());
    // A tampered log is caught where it stops agreeing.
    let mut file = g.save_file();
    let i = file.log.iter().position(|e| e.command == "roll").unwrap();
    file.log[i].draws = vec![0, 0];
    let (partial, div) = Game::replay(&file).unwrap();
    let div = div.expect("the changed dice are noticed");
    assert_eq!(div.index, i);
    assert_eq!(partial.log().len(), i);
}

/// Design: undo restores the previous state exactly.
#[test]
fn undo_restores_the_previous_state() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for seed in 0..6u64 {
        let mut g = Game::new(header(4, 900 + seed, &[], false)).unwrap();
        let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(seed + s)).collect();
        let mut step = 0;
        while g.winner().is_none() && step < 400 {
            let s = g.to_act().unwrap();
            let a = bots[s].choose(&g, s).unwrap().unwrap();
            if rng.random_range(0..20) == 0 {
                let before = g.state().clone();
                let log = g.log().to_vec();
                g.perform(s, &a).unwrap();
                g.undo(1).unwrap();
                assert!(*g.state() == before, "undo of '{}'", g.action_text(&a));
                assert_eq!(g.log(), &log[..]);
            }
            g.perform(s, &a).unwrap();
            step += 1;
        }
        // Undo several at once goes back as far.
        let n = g.log().len();
        let mut back = Game::new(g.header().clone()).unwrap();
        for e in &g.log()[..n - 5] {
            back.act(e.seat, &e.command).unwrap();
        }
        g.undo(5).unwrap();
        assert!(*g.state() == *back.state());
    }
}

// Legal actions ---------------------------------------------------------------------------------

/// Every action `legal_actions` lists is accepted by `perform`, for every seat, in a few
/// hundred states of random games (trade offers included, which random bots never make
/// on their own). One listed action of each kind is tried per seat and state, then undone.
#[test]
fn every_listed_action_is_accepted() {
    let t = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut states = 0;
    let mut tried = 0;
    let mut kinds = std::collections::BTreeSet::new();
    let boards: [&[(&str, &str)]; 3] = [
        &[],
        &[("board", "variable"), ("starting_pieces", "false")],
        &[("combined_trade_build", "false"), ("starting_pieces", "false")],
    ];
    for seed in 0..12u64 {
        let players = if seed % 4 == 3 { 3 } else { 4 };
        let opts = boards[seed as usize % 3];
        let mut g = Game::new(header(players, 500 + seed, opts, false)).unwrap();
        let mut bots: Vec<RandomBot> = (0..players).map(|s| RandomBot::new(seed * 7 + s as u64)).collect();
        let mut step = 0;
        while g.winner().is_none() && step < 500 {
            let s = g.to_act().unwrap();
            // Now and then the active player offers a trade of one card for another.
            let (_, templates) = g.legal_with_templates(s).unwrap();
            if templates.iter().any(|t| t.starts_with("offer")) && rng.random_range(0..4) == 0 {
                let held: Vec<&str> = RESOURCES.iter().copied().filter(|r| hand(&g, s, r) > 0).collect();
                if !held.is_empty() {
                    let give = held[rng.random_range(0..held.len())];
                    let want = RESOURCES[rng.random_range(0..5)];
                    if want != give {
                        act(&mut g, s, &format!("offer {give} for {want}"));
                        step += 1;
                        continue;
                    }
                }
            }
            if step % 10 == 0 {
                states += 1;
                let before = g.state().clone();
                for seat in 0..players {
                    let listed = g.legal_actions(seat).unwrap();
                    let mut by_kind: std::collections::BTreeMap<String, Vec<_>> = Default::default();
                    for a in listed {
                        by_kind.entry(a.name.clone()).or_default().push(a);
                    }
                    for (name, options) in by_kind {
                        let a = &options[rng.random_range(0..options.len())];
                        let text = g.action_text(a);
                        if let Err(e) = g.perform(seat, a) {
                            panic!(
                                "seed {}: '{text}' is listed for seat {} in phase {} but refused: {e}",
                                500 + seed,
                                seat + 1,
                                before.phase
                            );
                        }
                        g.undo(1).unwrap();
                        assert!(*g.state() == before);
                        tried += 1;
                        kinds.insert(name);
                    }
                }
            }
            let a = bots[s].choose(&g, s).unwrap().expect("a legal action");
            g.perform(s, &a).unwrap();
            step += 1;
        }
    }
    eprintln!("{states} states, {tried} listed actions performed, kinds {kinds:?}, {:.1} s", t.elapsed().as_secs_f64());
    assert!(states >= 300);
    for k in [
        "settlement",
        "road",
        "roll",
        "end",
        "robber",
        "discard",
        "trade",
        "accept",
        "decline",
        "confirm",
        "cancel",
        "buy",
        "city",
    ] {
        assert!(kinds.contains(k), "no state listed '{k}'");
    }
}

/// A listed action is one the bot can take: no seat that must act is ever left without a
/// listed action (play_one fails otherwise), and seats that need not act list nothing that
/// moves the game except in the phases where everyone may answer.
#[test]
fn only_the_seats_that_may_act_list_actions() {
    let mut g = Game::new(header(4, 4242, &[], false)).unwrap();
    let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(s + 99)).collect();
    let mut step = 0;
    while g.winner().is_none() && step < 3000 {
        let s = g.to_act().unwrap();
        let phase = g.state().phase.clone();
        for other in 0..4 {
            let listed = g.legal_actions(other).unwrap();
            if other == s {
                assert!(!listed.is_empty(), "seat {} must act in {phase} but lists nothing", s + 1);
            } else if phase != "discard" {
                assert!(
                    listed.is_empty(),
                    "seat {} lists {:?} in {phase} while seat {} acts",
                    other + 1,
                    listed.iter().map(|a| g.action_text(a)).collect::<Vec<_>>(),
                    s + 1
                );
            }
        }
        let a = bots[s].choose(&g, s).unwrap().unwrap();
        g.perform(s, &a).unwrap();
        step += 1;
    }
}
