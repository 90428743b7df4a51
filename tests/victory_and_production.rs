//! What the engine keeps between actions (docs/api.md, "Log, events and hooks"): a sequence
//! hook declared `when_changed` and a value of `g:cached(fn, arg, "recorded")` are run
//! again only once something they read has changed, with the same games as when they run
//! every time; and production declared as data (docs/modding.md, "Production").

use crate::common;
use catan_engine::bot::RandomBot;
use catan_engine::value::Value;
use catan_engine::Game;

const KEPT: &str = "tests/variants/when_changed.lua";

fn kept_game() -> Game {
    Game::new(common::stack_header(&[KEPT], 2, 1, &[])).expect("the fixture loads")
}

fn act(g: &mut Game, line: &str) {
    g.act(0, line).unwrap_or_else(|e| panic!("{line}: {e}"));
}

fn var(g: &Game, key: &str) -> Option<i64> {
    match g.state().vars.get(key) {
        Some(Value::Int(n)) => Some(*n),
        None => None,
        other => panic!("{key} is {other:?}"),
    }
}

// Hooks declared `when_changed` ------------------------------------------------------------

#[test]
fn a_when_changed_hook_is_skipped_until_something_it_read_changes() {
    let mut g = kept_game();
    act(&mut g, "watch 5");
    assert_eq!(var(&g, "mirror"), Some(5), "it ran after the write it reads");
    // Its run after `watch` wrote `mirror`: that run is not kept, the next one is.
    act(&mut g, "other 1");
    let kept = g.kept_runs();
    act(&mut g, "other 2");
    act(&mut g, "other 3");
    // Two hooks (the other one, which logs nothing yet, is kept as well), two actions.
    assert_eq!(g.kept_runs(), kept + 4, "nothing they read changed: each kept twice");
    act(&mut g, "watch 7");
    assert_eq!(var(&g, "mirror"), Some(7), "what it read changed: it ran");
    assert_eq!(g.kept_runs(), kept + 5, "the other one was kept");
}

#[test]
fn a_when_changed_hook_that_logs_runs_every_time() {
    let mut g = kept_game();
    act(&mut g, "chat");
    for n in 1..4 {
        let out = g.act(0, &format!("other {n}")).expect("other");
        assert!(out.messages.iter().any(|m| m.text == "still here"), "a run that logged is never skipped");
    }
}

#[test]
fn a_value_kept_with_recorded_follows_what_it_read() {
    let mut g = kept_game();
    act(&mut g, "watch 4");
    act(&mut g, "look");
    let computed = g.cached_computations().expect("a count");
    assert_eq!(var(&g, "seen"), Some(8));
    act(&mut g, "other 9");
    act(&mut g, "look");
    assert_eq!(g.cached_computations().expect("a count"), computed, "kept across a write it did not read");
    act(&mut g, "watch 6");
    act(&mut g, "look");
    assert_eq!(var(&g, "seen"), Some(12));
    assert_eq!(g.cached_computations().expect("a count"), computed + 1, "computed again after a write it read");
}

#[test]
fn a_value_kept_with_recorded_that_asked_whether_a_zone_is_empty_follows_only_that() {
    // `g:empty` reads whether the zone holds cards, not which: cards coming and going keep
    // the value while the pile stays as it was (docs/api.md, `g:empty`), where a value that
    // counted them is computed again.
    let mut g = kept_game();
    act(&mut g, "add 3");
    act(&mut g, "gauge");
    assert_eq!((var(&g, "pile_open"), var(&g, "pile_size")), (Some(1), Some(3)));
    let computed = g.cached_computations().expect("a count");
    act(&mut g, "take 1");
    act(&mut g, "add 4");
    act(&mut g, "gauge");
    assert_eq!((var(&g, "pile_open"), var(&g, "pile_size")), (Some(1), Some(6)));
    assert_eq!(g.cached_computations().expect("a count"), computed + 1, "the count alone computed again");
    act(&mut g, "take 6");
    act(&mut g, "gauge");
    assert_eq!((var(&g, "pile_open"), var(&g, "pile_size")), (Some(0), Some(0)));
    assert_eq!(g.cached_computations().expect("a count"), computed + 3, "the pile emptied: both computed again");
    act(&mut g, "add 2");
    act(&mut g, "gauge");
    assert_eq!((var(&g, "pile_open"), var(&g, "pile_size")), (Some(1), Some(2)));
    // Two values are kept a key: the one found while the pile held cards is good again.
    assert_eq!(g.cached_computations().expect("a count"), computed + 4, "the count alone computed again");
}

#[test]
fn when_changed_is_for_sequence_hooks_only() {
    let dir = std::env::temp_dir().join(format!("catan-when-changed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("bad.lua");
    std::fs::write(
        &path,
        "variant { description = 'bad', players = { min = 2, max = 2, default = 2 }, colors = { 'red', 'blue' } }\n\
         filter('to_act', 'bad.to_act', function(g, p) return p end, { when_changed = true })\n",
    )
    .expect("written");
    let err = Game::new(common::stack_header(&[path.to_str().expect("a path")], 2, 1, &[])).err().expect("refused");
    assert!(err.to_string().contains("when_changed is for sequence hooks"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

// The victory check kept, against a fresh one -------------------------------------------------

/// Plays `limit` actions of random bots, and the same actions on a second game whose kept
/// records are all staled before each action (a state put back stales everything): the
/// kept victory check (and Rivals' advantages) must decide as one run afresh does, at every
/// step. (Debug builds also run every kept rule again and compare, in every test game.)
fn kept_and_fresh_agree(variants: &[&str], players: usize, seed: u64, options: &[(&str, &str)], limit: usize) {
    let what = format!("{variants:?} {players} players, seed {seed}, {options:?}");
    let h = common::stack_header(variants, players, seed, options);
    let mut kept = Game::new(h.clone()).expect("loads");
    let mut fresh = Game::new(h).expect("loads");
    let mut bots: Vec<RandomBot> = (0..players).map(|s| RandomBot::new(seed * 13 + s as u64)).collect();
    for step in 0..limit {
        if kept.winner().is_some() {
            break;
        }
        let s = kept.to_act().expect("to_act");
        let a = bots[s].choose(&kept, s).expect("a choice").expect("a legal action");
        let mine = kept.perform(s, &a).unwrap_or_else(|e| panic!("{what}: step {step}: {e}"));
        let snap = fresh.snapshot();
        fresh.restore(&snap);
        let theirs = fresh.perform(s, &a).unwrap_or_else(|e| panic!("{what}: step {step}, fresh: {e}"));
        assert_eq!(mine.messages, theirs.messages, "{what}: step {step} ({})", kept.log()[step].command);
        assert_eq!(kept.winner(), fresh.winner(), "{what}: step {step}");
        assert_eq!(kept.state().vars, fresh.state().vars, "{what}: step {step}");
    }
    assert!(*kept.state() == *fresh.state(), "{what}: the same game");
    assert!(kept.kept_runs() > 0, "{what}: something was kept");
}

#[test]
fn the_kept_victory_check_agrees_with_a_fresh_one_at_every_step() {
    kept_and_fresh_agree(&["base"], 4, 1, &[], 3_000);
    kept_and_fresh_agree(&["base"], 4, 2, &[("board", "random"), ("starting_pieces", "false")], 3_000);
    kept_and_fresh_agree(&["base"], 6, 3, &[], 3_000);
    kept_and_fresh_agree(&["base"], 6, 4, &[("turn_structure", "paired")], 3_000);
    kept_and_fresh_agree(&["base", "helpers"], 4, 5, &[], 3_000);
    kept_and_fresh_agree(&["classic"], 4, 6, &[], 3_000);
}

#[test]
fn the_kept_advantages_and_victory_of_rivals_agree_with_fresh_ones() {
    kept_and_fresh_agree(&["rivals"], 2, 7, &[], 600);
    kept_and_fresh_agree(&["rivals_duel"], 2, 8, &[], 400);
}

// Production declared, counted and paid by the engine -----------------------------------------

fn sandbox_game(variants: &[&str]) -> Game {
    let mut h = common::stack_header(variants, 4, 1, &[]);
    h.sandbox = true;
    Game::new(h).expect("loads")
}

fn sandbox(g: &mut Game, line: &str) {
    g.sandbox(0, line).unwrap_or_else(|e| panic!("sandbox {line}: {e}"));
}

fn hand_total(g: &Game) -> usize {
    let hand = g.spec().zone("hand").expect("a hand");
    let st = g.state();
    (0..st.players.len()).filter_map(|s| st.zone(Some(s), hand)).map(|z| z.total()).sum()
}

/// Every settlement made a city, then one roll of `a + b`: the cards the players received.
fn received_with_cities(variants: &[&str], a: u8, b: u8) -> usize {
    let mut g = sandbox_game(variants);
    let settlement = g.spec().piece("settlement").expect("settlements");
    let mut cities = vec![];
    for (i, pc) in g.state().intersections.iter().enumerate() {
        if let Some(pc) = pc.filter(|pc| pc.kind as usize == settlement) {
            cities.push(format!("place city {} {}", i + 1, g.state().players[pc.owner as usize].color));
        }
    }
    assert!(!cities.is_empty(), "the beginner board's starting settlements");
    for line in &cities {
        sandbox(&mut g, line);
    }
    let before = hand_total(&g);
    sandbox(&mut g, &format!("dice {a} {b}"));
    let s = g.state().current;
    g.act(s, "roll").expect("roll");
    hand_total(&g) - before
}

#[test]
fn a_variant_that_overrides_production_in_lua_is_paid_what_its_hook_says() {
    let filtered = "tests/variants/production_filter.lua";
    let mut produced = 0;
    for (a, b) in [(3, 3), (4, 4), (2, 3), (4, 6), (1, 2)] {
        let declared = received_with_cities(&["base"], a, b);
        let hooked = received_with_cities(&[filtered], a, b);
        assert_eq!(declared % 2, 0, "{a}+{b}: cities yield 2 as base declares");
        assert_eq!(hooked * 2, declared * 3, "{a}+{b}: the hook's cities yield 3");
        produced += declared;
    }
    assert!(produced > 0, "some roll produced");
}

#[test]
fn a_value_kept_with_recorded_while_listing_follows_what_it_read() {
    let mut g = kept_game();
    let peek_listed = |g: &Game| g.legal_actions(0).expect("a listing").iter().any(|a| a.name == "peek");
    assert!(peek_listed(&g), "in phase play");
    act(&mut g, "pause");
    assert!(!peek_listed(&g), "the phase it read changed");
    act(&mut g, "resume");
    assert!(peek_listed(&g));
}

// Expected production (`g:expected_production`, docs/api.md) --------------------------------

const EXPECTED: &str = "tests/variants/expected_production.lua";

/// Each seat's expected production a roll as `g:expected_production` answers it (read out by
/// the fixture's metrics), in chances in 36: [seat] -> (total, { card: count }).
fn expected(g: &Game) -> Vec<(f64, std::collections::BTreeMap<String, f64>)> {
    let m = g.metrics().expect("metrics");
    (1..=g.state().players.len())
        .map(|p| {
            let total = m.get(&format!("total.{p}")).copied().expect("a total per seat");
            let by = m
                .iter()
                .filter_map(|(k, v)| {
                    k.strip_suffix(&format!(".{p}")).filter(|c| *c != "total").map(|c| (c.to_string(), *v))
                })
                .collect();
            (total, by)
        })
        .collect()
}

/// Plays on until the current player may roll: `end` where it is legal, else the first
/// legal action of the seat to act (the steal after the robber).
fn to_the_roll(g: &mut Game) {
    for _ in 0..50 {
        let s = g.to_act().expect("someone acts");
        let acts = g.legal_actions(s).expect("a listing");
        if s == g.state().current && acts.iter().any(|a| a.name == "roll") {
            return;
        }
        let a = acts.iter().find(|a| a.name == "end").or(acts.first()).expect("an action").clone();
        g.perform(s, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
    panic!("never came back to a roll");
}

/// What each seat receives of each card on a roll of `a + b` (played on a copy of the game):
/// [seat] -> { card: count }.
fn received_on(g: &Game, a: u8, b: u8) -> Vec<std::collections::BTreeMap<String, f64>> {
    let mut g = g.try_clone().expect("a copy");
    let hand = g.spec().zone("hand").expect("a hand");
    let count = |g: &Game| -> Vec<Vec<usize>> {
        let st = g.state();
        (0..st.players.len())
            .map(|s| (0..g.spec().cards.len()).map(|k| st.zone(Some(s), hand).map_or(0, |z| z.count(k))).collect())
            .collect()
    };
    let before = count(&g);
    sandbox(&mut g, &format!("dice {a} {b}"));
    let s = g.state().current;
    g.act(s, "roll").expect("roll");
    let after = count(&g);
    let names: Vec<String> = g.spec().cards.iter().map(|c| c.name.clone()).collect();
    before
        .iter()
        .zip(after)
        .map(|(b, a)| {
            (0..names.len()).filter(|&k| a[k] > b[k]).map(|k| (names[k].clone(), (a[k] - b[k]) as f64)).collect()
        })
        .collect()
}

/// What each seat receives on average a roll, in chances in 36: the cards of each roll of
/// two dice (not 7) times the chances of rolling it, as `g:produce` pays them.
fn received_on_average(g: &Game) -> Vec<(f64, std::collections::BTreeMap<String, f64>)> {
    let mut out = vec![(0.0, std::collections::BTreeMap::new()); g.state().players.len()];
    for n in (2u8..=12).filter(|&n| n != 7) {
        let chances = 6.0 - (7.0 - f64::from(n)).abs();
        let (a, b) = if n <= 7 { (1, n - 1) } else { (6, n - 6) };
        for (seat, got) in received_on(g, a, b).into_iter().enumerate() {
            for (card, k) in got {
                out[seat].0 += chances * k;
                *out[seat].1.entry(card).or_insert(0.0) += chances * k;
            }
        }
    }
    out
}

#[test]
fn expected_production_is_what_the_rolls_pay_weighed_by_their_chances() {
    // Production (base rules): each settlement 1 and each city 2 of its hexes' resource on
    // their number, nothing from the hex under the robber.
    let mut g = sandbox_game(&[EXPECTED]);
    let settlement = g.spec().piece("settlement").expect("settlements");
    let first = g.state().intersections.iter().position(|pc| pc.is_some_and(|pc| pc.kind as usize == settlement));
    let first = first.expect("the beginner board's starting settlements");
    let owner = g.state().intersections[first].expect("a piece").owner as usize;
    let color = g.state().players[owner].color.clone();
    sandbox(&mut g, &format!("place city {} {color}", first + 1));
    let before = expected(&g);
    assert!(before[owner].0 > 0.0, "the city's seat expects something");
    assert_eq!(before, received_on_average(&g), "with a city, the robber on the desert");
    // A 7, and the robber moved to the hex that takes most from the others.
    sandbox(&mut g, "dice 3 4");
    let s = g.state().current;
    g.act(s, "roll").expect("roll");
    let s = g.to_act().expect("the roller moves the robber");
    let robber: Vec<_> = g.legal_actions(s).expect("a listing").into_iter().filter(|a| a.name == "robber").collect();
    let total = |g: &Game| expected(g).iter().map(|e| e.0).sum::<f64>();
    let best = robber
        .iter()
        .map(|a| {
            let mut c = g.try_clone().expect("a copy");
            c.perform(s, a).expect("the robber moves");
            (total(&c), a.clone())
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .expect("robber actions");
    assert!(best.0 < total(&g), "some hex the robber may take produces for someone");
    g.perform(s, &best.1).expect("the robber moves");
    to_the_roll(&mut g);
    let blocked = expected(&g);
    assert_eq!(blocked, received_on_average(&g), "the robber's hex pays nothing");
    assert_ne!(blocked, before);
}

// Values kept by the slot grids, across a bot's forks ------------------------------------------

/// A game with nothing kept, at `state` (its own rules, loaded anew).
fn fresh_at(h: &catan_engine::Header, state: &catan_engine::state::GameState) -> Game {
    let mut g = Game::new(h.clone()).expect("loads");
    let snap = g.snapshot().with_state(state.clone());
    g.restore(&snap);
    g
}

/// What the rules answer at a position: every seat's legal actions and the evaluation.
fn answers(g: &Game) -> (Vec<Vec<String>>, Vec<f64>) {
    let seats = g.state().players.len();
    let listed =
        (0..seats).map(|s| g.legal_actions(s).expect("a listing").iter().map(|a| format!("{a:?}")).collect()).collect();
    (listed, g.evaluate().expect("an evaluation"))
}

#[test]
fn values_kept_by_a_seats_grids_survive_a_restore_and_stay_true() {
    // Rivals keeps what it reads of a principality with `g:cached(fn, seat, "seat_cards")`
    // (and "seat_grids"). A bot tries actions and restores the position it started from:
    // the kept values come back with it, and each must still be what the grids say.
    for variant in ["rivals", "rivals_gold"] {
        let h = common::stack_header(&[variant], 2, 5, &[]);
        let mut g = Game::new(h.clone()).expect("loads");
        let (mut bot, mut branch) = (RandomBot::new(3), RandomBot::new(4));
        let mut grids_changed = 0;
        for step in 0..120 {
            if g.winner().is_some() {
                break;
            }
            let root = g.snapshot();
            let mut far = None;
            for _ in 0..3 {
                for _ in 0..4 {
                    let s = g.to_act().expect("to_act");
                    if let Ok(Some(a)) = branch.choose(&g, s) {
                        let _ = g.perform(s, &a);
                    }
                }
                if g.state().grids != root.state().grids {
                    far = Some(g.state().clone());
                }
                g.restore(&root);
            }
            // A snapshot made to hold other grids carries no stamps of these.
            if let Some(far) = far {
                grids_changed += 1;
                g.restore(&root.with_state(far.clone()));
                assert_eq!(answers(&g), answers(&fresh_at(&h, &far)), "{variant} step {step}: other grids");
                g.restore(&root);
            }
            let mut fresh = fresh_at(&h, &g.state());
            assert_eq!(answers(&g), answers(&fresh), "{variant} step {step}: back at the root");
            let s = g.to_act().expect("to_act");
            let a = bot.choose(&g, s).expect("a choice").expect("a legal action");
            let mine = g.perform(s, &a).unwrap_or_else(|e| panic!("{variant} step {step}: {e}"));
            let theirs = fresh.perform(s, &a).unwrap_or_else(|e| panic!("{variant} step {step}, fresh: {e}"));
            assert_eq!(mine.messages, theirs.messages, "{variant} step {step}");
            assert!(*g.state() == *fresh.state(), "{variant} step {step}: the same state");
        }
        assert!(grids_changed > 10, "{variant}: the branches changed the grids ({grids_changed})");
    }
}

#[test]
fn a_seats_terms_stay_kept_while_the_robber_moves_between_hexes_around_none_of_its_buildings() {
    // Expected production (`g:expected_production`, the generic features' production)
    // reads whether the robber stands on a hex around the seat's buildings, not where it
    // stands: a robber moved between two hexes around nobody's buildings (H1 and H4 of the
    // standard position) leaves every seat's terms but the mover's kept.
    use common::{act_as, buy_until, main_phase_of, pass_turn, robber, roll, roll_phase_of, standard};
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "knight", 1);
    pass_turn(&mut g);
    roll_phase_of(&mut g, "red");
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", "robber H1");
    assert_eq!((robber(&g).as_str(), g.state().phase.as_str()), ("H1", "main"));
    let before = g.evaluate().expect("an evaluation");
    let computed = g.terms_computed();
    act_as(&mut g, "red", "play knight");
    act_as(&mut g, "red", "robber H4");
    assert_eq!(robber(&g), "H4");
    let after = g.evaluate().expect("an evaluation");
    let (fresh, _) = Game::load_json(&g.save_json()).expect("the save loads");
    assert_eq!(after, fresh.evaluate().expect("an evaluation"), "kept values served stale");
    assert_ne!(before[0], after[0], "red played a knight");
    assert_eq!(g.terms_computed() - computed, 1, "the other seats' terms were computed again");
}
