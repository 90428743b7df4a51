//! Whole games of Helpers of Catan played by random bots on every edition it layers on —
//! base+helpers (3 and 4 players), family+helpers, classic+helpers, and the 5-6 player game
//! (both turn structures) — with the invariants below checked after every action; the bots
//! use every helper; every listed action is accepted; only the seat asked may act; same seed,
//! same game; save and load.

use crate::common;

use catan_engine::bot::RandomBot;
use catan_engine::sim;
use catan_engine::spec::SiteKind;
use catan_engine::state::Zone;
use catan_engine::value::Value;
use catan_engine::{Game, GameState};
use common::road_length;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

// Invariants -------------------------------------------------------------------------------

/// What the game started with: cards of each kind (all zones), pieces of each player.
struct Start {
    cards: Vec<usize>,
    pieces: Vec<Vec<usize>>,
}

fn zone_of<'a>(st: &'a GameState, spec: &catan_engine::spec::Spec, owner: Option<usize>, z: usize) -> &'a Zone {
    match owner {
        Some(p) if spec.zones[z].per_player => &st.players[p].zones[z],
        _ => &st.zones[z],
    }
}

fn count(st: &GameState, spec: &catan_engine::spec::Spec, owner: Option<usize>, zone: &str, kind: &str) -> usize {
    let (Some(z), Some(k)) = (spec.zone(zone), spec.card(kind)) else { return 0 };
    match zone_of(st, spec, owner, z) {
        Zone::Counts(c) => c.get(k).copied().unwrap_or(0) as usize,
        Zone::Stack(s) => s.iter().filter(|&&x| x as usize == k).count(),
    }
}

fn card_totals(g: &Game) -> Vec<usize> {
    let spec = g.spec();
    let st = g.state();
    let mut out = vec![0; spec.cards.len()];
    for (z, zs) in spec.zones.iter().enumerate() {
        let owners: Vec<Option<usize>> =
            if zs.per_player { (0..st.players.len()).map(Some).collect() } else { vec![None] };
        for o in owners {
            match zone_of(&st, spec, o, z) {
                Zone::Counts(c) => c.iter().enumerate().for_each(|(k, n)| out[k] += *n as usize),
                Zone::Stack(s) => s.iter().for_each(|&k| out[k as usize] += 1),
            }
        }
    }
    out
}

fn piece_totals(g: &Game) -> Vec<Vec<usize>> {
    let spec = g.spec();
    let st = g.state();
    (0..st.players.len())
        .map(|p| {
            (0..spec.pieces.len())
                .map(|k| {
                    let on_board = st
                        .sites(spec.pieces[k].site)
                        .iter()
                        .filter(|x| x.is_some_and(|x| x.seat() == Some(p) && x.kind as usize == k))
                        .count();
                    on_board + st.players[p].supply[k] as usize
                })
                .collect()
        })
        .collect()
}

fn start(g: &Game) -> Start {
    Start { cards: card_totals(g), pieces: piece_totals(g) }
}

const HELPERS: [&str; 10] =
    ["candamir", "hilde", "jean", "lin", "louis", "marianne", "nassir", "sean", "vincent", "william"];

fn pvar<'a>(st: &'a GameState, p: usize, key: &str) -> Option<&'a Value> {
    st.players[p].vars.get(key)
}

/// Everything that must hold after any action of a game with helpers, on any edition.
fn check(g: &Game, start: &Start) -> Result<(), String> {
    let spec = g.spec().clone();
    // A copy: points and to_act call into the rules, which need the state unborrowed.
    let st = g.state().clone();
    let n = st.players.len();
    let c = |owner: Option<usize>, zone: &str, kind: &str| count(&st, &spec, owner, zone, kind);
    let who = |p: usize| st.players[p].color.clone();
    // No card is made or lost.
    let cards = card_totals(g);
    if cards != start.cards {
        let diff: Vec<String> = (0..cards.len())
            .filter(|&k| cards[k] != start.cards[k])
            .map(|k| format!("{} {} -> {}", spec.cards[k].name, start.cards[k], cards[k]))
            .collect();
        return Err(format!("cards changed: {diff:?}"));
    }
    // The helpers: ten; once everyone has taken one, each player holds exactly one, A or B
    // side, the stack is empty and the rest lie in the display.
    let held: Vec<usize> = (0..n).map(|p| HELPERS.iter().map(|h| c(Some(p), "helper", h)).sum()).collect();
    let display: usize = HELPERS.iter().map(|h| c(None, "helper_display", h)).sum();
    let stack: usize = HELPERS.iter().map(|h| c(None, "helper_stack", h)).sum();
    if held.iter().sum::<usize>() + display + stack != 10 {
        return Err(format!("helpers: held {held:?}, display {display}, stack {stack}"));
    }
    if held.iter().any(|&h| h > 1) {
        return Err(format!("a player holds two helpers: {held:?}"));
    }
    if st.phase != "setup" && (held.iter().any(|&h| h != 1) || stack != 0) {
        return Err(format!("after the set-up: held {held:?}, stack {stack}"));
    }
    for (p, &h) in held.iter().enumerate() {
        if h == 1 && !matches!(pvar(&st, p, "helper_side"), Some(Value::Str(s)) if s == "A" || s == "B") {
            return Err(format!("{}'s helper has side {:?}", who(p), pvar(&st, p, "helper_side")));
        }
    }
    // A decision in phase helpers: only its seat acts; Candamir's cards wait only then.
    let window = st.vars.get("helper_window");
    if (st.phase == "helpers") != window.is_some() {
        return Err(format!("phase {} with helper_window {window:?}", st.phase));
    }
    let mut deciding = None;
    if let Some(Value::Map(w)) = window {
        let seat = w.get("seat").and_then(|v| v.as_int()).ok_or("helper_window has no seat")? as usize - 1;
        deciding = Some((seat, w.get("kind").cloned()));
        let to_act = g.to_act().map_err(|e| e.to_string())?;
        if to_act != seat {
            return Err(format!("{} decides but {} is to act", who(seat), who(to_act)));
        }
    }
    let drawing = spec.zone("helper_draw").unwrap();
    for p in 0..n {
        if zone_of(&st, &spec, Some(p), drawing).total() > 0
            && deciding != Some((p, Some(Value::Str("candamir".into()))))
        {
            return Err(format!("{} holds Candamir's cards outside the choice", who(p)));
        }
    }
    // Pieces: none made or lost; the Distance Rule.
    if piece_totals(g) != start.pieces {
        return Err(format!("pieces changed: {:?} -> {:?}", start.pieces, piece_totals(g)));
    }
    let t = st.topology.as_ref().unwrap();
    for (i, x) in st.intersections.iter().enumerate() {
        if let Some(x) = x {
            if spec.pieces[x.kind as usize].site != SiteKind::Intersection {
                return Err(format!("a road on intersection {}", i + 1));
            }
            if t.intersections[i].neighbors.iter().any(|&m| st.intersections[m].is_some()) {
                return Err(format!("the Distance Rule is broken at intersection {}", i + 1));
            }
        }
    }
    // Longest Road (not checked while Louis's road is up, between taking it and rebuilding).
    let rebuilding = (0..n).any(|p| matches!(pvar(&st, p, "helper_road"), Some(Value::Str(s)) if s == "louis"));
    let lengths: Vec<usize> = (0..n).map(|p| road_length(&st, &spec, p)).collect();
    let lr = st.vars.get("longest_road").and_then(|v| v.as_int()).map(|p| p as usize - 1);
    let best = lengths.iter().copied().max().unwrap_or(0);
    if !rebuilding {
        if let Some(h) = lr {
            if lengths[h] < 5 || lengths[h] != best {
                return Err(format!("{} holds Longest Road; lengths {lengths:?}", who(h)));
            }
        }
        let leaders: Vec<usize> = (0..n).filter(|&p| lengths[p] == best).collect();
        if best >= 5 && leaders.len() == 1 && lr != Some(leaders[0]) {
            return Err(format!("{} alone has the longest road but not the card", who(leaders[0])));
        }
    }
    // Largest Army: nobody has more face-up knights than the holder (Vincent may leave the
    // holder with fewer than 3); without a holder nobody has 3.
    let knights: Vec<usize> =
        (0..n).map(|p| c(Some(p), "played", "knight") + c(Some(p), "played", "soldier")).collect();
    let la = st.vars.get("largest_army").and_then(|v| v.as_int()).map(|p| p as usize - 1);
    let most = knights.iter().copied().max().unwrap_or(0);
    match la {
        Some(h) if knights[h] < most => return Err(format!("{} holds Largest Army; knights {knights:?}", who(h))),
        None if most >= 3 => return Err(format!("nobody holds Largest Army; knights {knights:?}")),
        _ => {}
    }
    // Points of base and family (classic counts its victory cards its own way).
    if spec.card("soldier").is_none() {
        let (settlement, city) = (spec.piece("settlement").unwrap(), spec.piece("city").unwrap());
        for p in 0..n {
            let on = |k: usize| {
                st.intersections
                    .iter()
                    .filter(|x| x.is_some_and(|x| x.seat() == Some(p) && x.kind as usize == k))
                    .count() as i64
            };
            let public = on(settlement) + 2 * on(city) + 2 * (lr == Some(p)) as i64 + 2 * (la == Some(p)) as i64;
            let vp = (c(Some(p), "dev", "victory_point") + c(Some(p), "dev_new", "victory_point")) as i64;
            let hidden = g.points(p, true).map_err(|e| e.to_string())?;
            if hidden != public + vp {
                return Err(format!("{}: points {hidden}, recomputed {}", who(p), public + vp));
            }
        }
    }
    if st.markers.get("robber").is_none_or(|&h| h >= st.hexes.len()) {
        return Err("the robber is off the board".into());
    }
    Ok(())
}

// Games --------------------------------------------------------------------------------------

/// Helper actions by the first word a player types.
const HELPER_WORDS: [&str; 14] = [
    "candamir", "keep", "hilde", "jean", "lin", "louis", "marianne", "nassir", "return", "sean", "skip", "vincent",
    "william", "helper",
];

/// Plays complete seeded games with every invariant checked after every action, and checks
/// the end (a winner, in their own turn, with the points needed). Returns how often each
/// helper action was typed.
fn play(
    variants: &[&str],
    players: usize,
    options: &[(&str, &str)],
    seeds: std::ops::Range<u64>,
) -> BTreeMap<String, usize> {
    let seeds: Vec<u64> = seeds.collect();
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).clamp(1, 8).min(seeds.len());
    let results: Vec<(BTreeMap<String, usize>, Vec<usize>)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<u64> = seeds.iter().copied().skip(t).step_by(threads).collect();
                sc.spawn(move || play_seeds(variants, players, options, &mine))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut wins = vec![0; players];
    for (u, w) in results {
        u.into_iter().for_each(|(k, n)| *used.entry(k).or_default() += n);
        w.into_iter().enumerate().for_each(|(i, n)| wins[i] += n);
    }
    eprintln!(
        "{} {players} players {options:?}: {} games, wins {wins:?}, helper actions {used:?}",
        variants.join("+"),
        seeds.len()
    );
    used
}

/// `play` for some seeds, on one thread: the helper actions typed, the wins by seat.
fn play_seeds(
    variants: &[&str],
    players: usize,
    options: &[(&str, &str)],
    seeds: &[u64],
) -> (BTreeMap<String, usize>, Vec<usize>) {
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut wins = vec![0; players];
    for &seed in seeds {
        let mut first: Option<Start> = None;
        let mut end = None;
        let result = sim::play_one(common::stack_header(variants, players, seed, options), |g| {
            let s = first.get_or_insert_with(|| start(g));
            check(g, s).map_err(|e| {
                let last = g.log().last().map(|e| e.command.clone()).unwrap_or_default();
                format!("after '{last}' (action {}, phase {}): {e}", g.log().len(), g.state().phase)
            })?;
            if let Some(e) = g.log().last() {
                let word = e.command.split_whitespace().next().unwrap_or("");
                if HELPER_WORDS.contains(&word) {
                    let key: Vec<&str> =
                        e.command.split_whitespace().take(if word == "helper" { 2 } else { 1 }).collect();
                    *used.entry(key.join(" ")).or_default() += 1;
                }
            }
            if g.winner().is_some() {
                let current = g.state().current;
                end = Some((current, g.points(current, true).unwrap()));
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{} seed {seed} ({players} players, {options:?}): {e}", variants.join("+")));
        let w = result.winner.unwrap_or_else(|| panic!("seed {seed}: no winner after {} actions", result.actions));
        let (current, points) = end.unwrap();
        assert_eq!(current, w, "seed {seed}: the winner won in their own turn");
        assert!(points >= 10, "seed {seed}: the winner has {points} points");
        wins[w] += 1;
    }
    (used, wins)
}

/// Bots use every helper, and every decision that follows.
fn assert_every_helper_used(used: &BTreeMap<String, usize>) {
    for word in HELPER_WORDS.iter().filter(|w| **w != "helper") {
        assert!(used.get(*word).copied().unwrap_or(0) > 0, "no bot typed '{word} ...': {used:?}");
    }
    assert!(used.contains_key("helper flip") && used.contains_key("helper exchange"), "{used:?}");
}

#[test]
fn base_helpers_games_keep_every_invariant() {
    let used = play(&["base", "helpers"], 4, &[], 0..60);
    assert_every_helper_used(&used);
    play(&["base", "helpers"], 4, &[("starting_pieces", "false")], 100..120);
    play(&["base", "helpers"], 3, &[("board", "variable"), ("starting_pieces", "false")], 200..220);
}

#[test]
fn family_helpers_games_keep_every_invariant() {
    let used = play(&["family", "helpers"], 4, &[], 300..340);
    assert_every_helper_used(&used);
    play(&["family", "helpers"], 4, &[("board", "variable"), ("starting_pieces", "false")], 340..360);
}

#[test]
fn classic_helpers_games_keep_every_invariant() {
    play(&["classic", "helpers"], 4, &[], 400..430);
}

#[test]
fn five_and_six_player_helpers_games_keep_every_invariant() {
    let used = play(&["base", "helpers"], 6, &[], 500..530);
    assert_every_helper_used(&used);
    play(&["base", "helpers"], 5, &[("board", "stand_in")], 530..545);
    play(&["base", "helpers"], 5, &[("turn_structure", "paired")], 545..560);
    play(&["base", "helpers"], 6, &[("turn_structure", "paired")], 560..575);
}

/// A stack of variants, a player count and options.
type Stack = (&'static [&'static str], usize, &'static [(&'static str, &'static str)]);

// Legal actions --------------------------------------------------------------------------------

/// Every action `legal_actions` lists is accepted by `perform`, for every seat, in a few
/// hundred states of random games of each stack. One listed action of each kind is tried per
/// seat and state, then undone.
#[test]
fn every_listed_action_is_accepted() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut kinds = std::collections::BTreeSet::new();
    let stacks: [Stack; 4] = [
        (&["base", "helpers"], 4, &[]),
        (&["family", "helpers"], 4, &[]),
        (&["classic", "helpers"], 3, &[("starting_pieces", "false")]),
        (&["base", "helpers"], 6, &[]),
    ];
    let mut states = 0;
    for seed in 0..12u64 {
        let (variants, players, opts) = stacks[seed as usize % stacks.len()];
        let mut g = Game::new(common::stack_header(variants, players, 700 + seed, opts)).unwrap();
        let mut bots: Vec<RandomBot> = (0..players).map(|s| RandomBot::new(seed * 13 + s as u64)).collect();
        let mut step = 0;
        while g.winner().is_none() && step < 600 {
            let s = g.to_act().unwrap();
            if step % 7 == 0 || g.state().phase == "helpers" {
                states += 1;
                let before = g.state().clone();
                for seat in 0..players {
                    let mut by_kind: BTreeMap<String, Vec<_>> = BTreeMap::new();
                    for a in g.legal_actions(seat).unwrap() {
                        by_kind.entry(a.name.clone()).or_default().push(a);
                    }
                    for (name, options) in by_kind {
                        let a = &options[rng.random_range(0..options.len())];
                        let text = g.action_text(a);
                        if let Err(e) = g.perform(seat, a) {
                            panic!(
                                "{} seed {}: '{text}' is listed for seat {} in phase {} but refused: {e}",
                                variants.join("+"),
                                700 + seed,
                                seat + 1,
                                before.phase
                            );
                        }
                        g.undo(1).unwrap();
                        assert!(*g.state() == before);
                        kinds.insert(name);
                    }
                }
            }
            let a = bots[s].choose(&g, s).unwrap().expect("a legal action");
            g.perform(s, &a).unwrap();
            step += 1;
        }
    }
    eprintln!("{states} states, kinds {kinds:?}");
    for k in ["helper_flip", "helper_exchange", "helper_skip", "marianne", "jean", "nassir", "hilde", "lin"] {
        assert!(kinds.contains(k), "no state listed '{k}'");
    }
}

/// Only the seat asked may act: in phase helpers the one deciding (on anyone's turn), and
/// outside the discards only the seat to act lists anything.
#[test]
fn only_the_seat_asked_lists_actions() {
    for (variants, players, seed) in [(&["base", "helpers"][..], 4, 4242u64), (&["base", "helpers"][..], 6, 4343)] {
        let mut g = Game::new(common::stack_header(variants, players, seed, &[])).unwrap();
        let mut bots: Vec<RandomBot> = (0..players).map(|s| RandomBot::new(s as u64 + 99)).collect();
        let mut asked_off_turn = 0;
        let mut step = 0;
        while g.winner().is_none() && step < 4000 {
            let s = g.to_act().unwrap();
            let phase = g.state().phase.clone();
            if phase == "helpers" && s != g.state().current {
                asked_off_turn += 1;
            }
            for other in 0..players {
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
        assert!(asked_off_turn > 0, "nobody was asked on another player's turn");
    }
}

// Determinism, save and load ----------------------------------------------------------------

/// Same seed and commands, same game; a saved game loads to the identical state.
#[test]
fn replay_and_save_load_give_the_same_game() {
    for (variants, players) in
        [(&["base", "helpers"][..], 4), (&["family", "helpers"][..], 4), (&["base", "helpers"][..], 5)]
    {
        let mut g = Game::new(common::stack_header(variants, players, 77, &[])).unwrap();
        sim::play_game(&mut g, |_| Ok(())).unwrap();
        assert!(g.winner().is_some());
        let mut again = Game::new(g.header().clone()).unwrap();
        for e in g.log() {
            again.act(e.seat, &e.command).unwrap();
        }
        assert_eq!(again.log(), g.log());
        assert!(*again.state() == *g.state());
        let (loaded, div) = Game::load_json(&g.save_json()).unwrap();
        assert!(div.is_none(), "{div:?}");
        assert!(*loaded.state() == *g.state());
    }
}
