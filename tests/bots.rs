//! Bots: the evaluation hook and its fallback, forks for search, fair play (a bot decides
//! from its seat's view only), the greedy and MCTS bots' choices, seat rotation and
//! confidence intervals in `catan sim`, and the REPL's `--bots name=kind` and `hint`.
//! Strength is measured by documented `catan sim` commands (docs/bots.md), not here.

use crate::common;

use catan_engine::bot::determinize::determinize;
use catan_engine::bot::{win_chances, Bot, BotKind, Budget, RandomBot};
use catan_engine::sim::{wilson95, Entrant, Lineup};
use catan_engine::state::Zone;
use catan_engine::{Game, Header};
use common::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const FEW: Budget = Budget { playouts: 40, think_ms: None };

fn game_of(variants: &[&str], seed: u64, options: &[(&str, &str)]) -> Game {
    Game::new(Header {
        variants: variants.iter().map(|s| s.to_string()).collect(),
        players: 4,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox: true,
    })
    .unwrap()
}

/// A position some way into a random-bot game where the seat to act has a real choice
/// and two other seats hold different resource cards.
fn midgame() -> (Game, usize) {
    let mut g = game_of(&["base"], 21, &[]);
    let mut bot = RandomBot::new(4);
    for step in 0..2000 {
        let seat = g.to_act().unwrap();
        if step > 150 && g.legal_actions(seat).unwrap().len() >= 3 && swappable(&g, seat).is_some() {
            return (g, seat);
        }
        let a = bot.choose(&g, seat).unwrap().unwrap();
        g.perform(seat, &a).unwrap();
    }
    panic!("no position with a choice and hidden hands");
}

/// Two other seats and a card each holds that the other does not.
fn swappable(g: &Game, seat: usize) -> Option<(usize, usize, &'static str, &'static str)> {
    for a in (0..4).filter(|&q| q != seat) {
        for b in (0..4).filter(|&q| q != seat && q != a) {
            for x in RESOURCES {
                for y in RESOURCES {
                    if x != y && hand(g, a, x) > 0 && hand(g, b, y) > 0 && hand(g, a, y) == 0 {
                        return Some((a, b, x, y));
                    }
                }
            }
        }
    }
    None
}

/// The same position with one card of `a` and one of `b` exchanged: only the hidden
/// contents of two opponents' hands differ.
fn with_hands_swapped(g: &Game, seat: usize) -> catan_engine::GameState {
    let (a, b, x, y) = swappable(g, seat).unwrap();
    let spec = g.spec().clone();
    let (hz, kx, ky) = (spec.zone("hand").unwrap(), spec.card(x).unwrap(), spec.card(y).unwrap());
    let mut st = g.state().clone();
    assert!(st.players[a].zones[hz].remove(kx, 1) && st.players[b].zones[hz].remove(ky, 1));
    st.players[a].zones[hz].add(ky, 1).unwrap();
    st.players[b].zones[hz].add(kx, 1).unwrap();
    st
}

// Evaluation ---------------------------------------------------------------------------------

#[test]
fn base_evaluation_scores_production_and_points() {
    let mut g = beginner(4, &[]);
    let before = g.evaluate().unwrap();
    assert_eq!(before.len(), 4);
    // Every seat has 2 points and production: the evaluation is more than the points.
    for (s, v) in before.iter().enumerate() {
        assert!(*v > g.points(s, true).unwrap() as f64, "seat {s}: {v}");
    }
    // A city is a point and more production: red's evaluation rises by more than 1.
    let site = catan_engine::action::arg_text(
        &catan_engine::Arg::Intersection(
            g.state().intersections.iter().position(|p| p.is_some_and(|p| p.owner == 0)).unwrap(),
        ),
        &g.state(),
    );
    sb(&mut g, &format!("place city {site} red"));
    let after = g.evaluate().unwrap();
    assert!(after[0] > before[0] + 1.0, "{before:?} -> {after:?}");
    assert_eq!(after[1], before[1]);
}

/// docs/api.md, the `evaluate` filter: after `seat` and `scratch` it is handed the seat's
/// victory points, hidden ones included, counted once by the engine; a wrapper of base's
/// evaluation that does not pass them on still gets base's evaluation.
#[test]
fn the_evaluation_is_handed_the_seats_points() {
    let mut g = game_of(&["tests/variants/evaluate_points.lua"], 1, &[]);
    // A victory point card in red's hand of development cards: a hidden point.
    let spec = g.spec().clone();
    let (dev, vp) = (spec.zone("dev").unwrap(), spec.card("victory_point").unwrap());
    let mut st = g.state().clone();
    st.players[0].zones[dev].add(vp, 1).unwrap();
    let snap = g.snapshot().with_state(st);
    g.restore(&snap);
    let v = g.evaluate().unwrap();
    let points: Vec<f64> = (0..4).map(|s| g.points(s, true).unwrap() as f64).collect();
    assert_eq!(v, points);
    assert!(points[0] > g.points(0, false).unwrap() as f64, "red's hidden point counts: {points:?}");
    let plain = game_of(&["base"], 1, &[]).evaluate().unwrap();
    let wrapped = game_of(&["tests/variants/evaluate_old_wrapper.lua"], 1, &[]).evaluate().unwrap();
    assert_eq!(wrapped, plain);
}

#[test]
fn without_an_evaluation_bots_aim_at_victory_points() {
    let g = game_of(&["tests/variants/no_evaluation.lua"], 1, &[]);
    let v = g.evaluate().unwrap();
    for (s, x) in v.iter().enumerate() {
        assert_eq!(*x, g.points(s, true).unwrap() as f64);
    }
}

#[test]
fn an_evaluation_that_returns_no_number_is_a_clear_error() {
    let g = game_of(&["tests/variants/bad_evaluation.lua"], 1, &[]);
    let e = g.evaluate().unwrap_err().to_string();
    assert!(e.contains("evaluate filter returned string, not a number"), "{e}");
    // A bot with a choice to make gets the error, and the game is left as it was.
    let mut g = g;
    sb(&mut g, NEUTRAL_DICE);
    act_as(&mut g, "red", "roll");
    sb(&mut g, "give red 2 brick 2 lumber");
    let before = g.state().clone();
    for kind in [BotKind::Greedy, BotKind::Planner, BotKind::Mcts] {
        let e = Bot::new(kind, 1, FEW).choose(&mut g, 0).unwrap_err().to_string();
        assert!(e.contains("evaluate filter returned string"), "{e}");
        assert!(*g.state() == before);
    }
}

#[test]
fn win_chances_sum_to_one_and_follow_the_evaluation() {
    let w = win_chances(&[5.0, 3.0, 3.0, 2.0]);
    assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert!(w[0] > w[1] && w[1] == w[2] && w[2] > w[3]);
}

// Forks ----------------------------------------------------------------------------------------

#[test]
fn restore_puts_back_the_state_the_log_and_the_messages() {
    let (mut g, seat) = midgame();
    let (state, log, msgs) = (g.state().clone(), g.log().len(), g.messages().len());
    let snap = g.snapshot();
    for a in g.legal_actions(seat).unwrap() {
        let _ = g.perform(seat, &a);
    }
    g.restore(&snap);
    assert!(*g.state() == state);
    assert_eq!((g.log().len(), g.messages().len()), (log, msgs));
    // And the game goes on from there as if nothing had been tried.
    let a = g.legal_actions(seat).unwrap().remove(0);
    g.perform(seat, &a).unwrap();
}

// Fair play ------------------------------------------------------------------------------------

#[test]
fn determinization_keeps_what_the_seat_sees_and_redeals_the_rest() {
    let (g, seat) = midgame();
    let spec = g.spec().clone();
    let st = g.state().clone();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let d = determinize(&spec, &st, seat, &mut rng);
    let hz = spec.zone("hand").unwrap();
    assert_eq!(d.players[seat].zones, st.players[seat].zones, "own cards are known");
    assert_eq!(d.zones[spec.zone("bank").unwrap()], st.zones[spec.zone("bank").unwrap()]);
    assert_eq!(d.intersections, st.intersections);
    for q in 0..4 {
        assert_eq!(d.players[q].zones[hz].total(), st.players[q].zones[hz].total(), "hand sizes are public");
    }
    assert!(d.rng != st.rng, "the future dice are not the real ones");
    // The cards others hold, taken together, are the same cards.
    let pooled = |s: &catan_engine::GameState| {
        let mut n = vec![0usize; spec.cards.len()];
        for q in (0..4).filter(|&q| q != seat) {
            if let Zone::Counts(c) = &*s.players[q].zones[hz] {
                c.iter().enumerate().for_each(|(k, x)| n[k] += *x as usize);
            }
        }
        n
    };
    assert_eq!(pooled(&d), pooled(&st));
    // Positions that differ only in what the seat cannot see give the same determinization.
    let other = with_hands_swapped(&g, seat);
    assert!(other != st);
    let d2 = determinize(&spec, &other, seat, &mut ChaCha8Rng::seed_from_u64(9));
    assert!(d2 == d);
}

#[test]
fn opponents_hidden_cards_do_not_change_a_bots_decision() {
    let (mut g, seat) = midgame();
    let original = g.snapshot();
    let swapped = original.with_state(with_hands_swapped(&g, seat));
    for kind in [BotKind::Greedy, BotKind::Planner, BotKind::Mcts] {
        let mut decisions = vec![];
        for snap in [&original, &swapped] {
            g.restore(snap);
            let before = g.state().clone();
            let d = Bot::new(kind, 17, FEW).choose(&mut g, seat).unwrap().unwrap();
            assert!(*g.state() == before, "{}: the search left the game as it was", kind.name());
            decisions.push(g.action_text(&d));
        }
        assert_eq!(decisions[0], decisions[1], "{} decided from hidden cards", kind.name());
    }
}

// Choices ----------------------------------------------------------------------------------------

#[test]
fn search_bots_take_a_winning_city() {
    for kind in [BotKind::Greedy, BotKind::Planner, BotKind::Mcts] {
        let mut g = beginner(4, &[("victory_points", "3")]);
        sb(&mut g, NEUTRAL_DICE);
        act_as(&mut g, "red", "roll");
        sb(&mut g, "give red 2 grain 3 ore");
        let a = Bot::new(kind, 3, FEW).choose(&mut g, 0).unwrap().unwrap();
        assert_eq!(a.name, "city", "{} chose {}", kind.name(), g.action_text(&a));
        g.perform(0, &a).unwrap();
        assert_eq!(g.winner(), Some(0));
    }
}

/// `choose` (a simulation's call, which skips the reasons and the score before the action
/// they quote) takes the action `decide` explains, decision after decision, its bot's
/// draws following the same course.
#[test]
fn the_planner_chooses_the_action_it_explains() {
    let mut g = game_of(&["base"], 8, &[("board", "random"), ("starting_pieces", "false")]);
    let (mut choosing, mut deciding) = (Bot::new(BotKind::Planner, 7, FEW), Bot::new(BotKind::Planner, 7, FEW));
    let mut explained = 0;
    for _ in 0..120 {
        let seat = g.to_act().unwrap();
        let chosen = choosing.choose(&mut g, seat).unwrap().unwrap();
        let decided = deciding.decide(&mut g, seat).unwrap().unwrap();
        assert_eq!(chosen, decided.action, "{}", decided.why);
        if decided.why.contains("win chance") {
            explained += 1;
        }
        g.perform(seat, &chosen).unwrap();
    }
    assert!(explained > 20, "only {explained} decisions had a choice");
}

#[test]
fn the_same_seed_and_budget_give_the_same_decision() {
    let (mut g, seat) = midgame();
    let a = Bot::new(BotKind::Mcts, 5, FEW).choose(&mut g, seat).unwrap();
    let b = Bot::new(BotKind::Mcts, 5, FEW).choose(&mut g, seat).unwrap();
    assert_eq!(a, b);
}

// catan sim -----------------------------------------------------------------------------------------

#[test]
fn sim_rotates_bots_one_seat_each_game() {
    use BotKind::*;
    let specs = |kinds: &[BotKind]| kinds.iter().map(|&k| Entrant::from(k)).collect::<Vec<_>>();
    let l = Lineup { bots: specs(&[Mcts, Random, Random, Greedy]), budget: FEW, ..Lineup::default() };
    assert_eq!(l.seats(4, 0), specs(&[Mcts, Random, Random, Greedy]));
    assert_eq!(l.seats(4, 1), specs(&[Greedy, Mcts, Random, Random]));
    assert_eq!(l.seats(4, 2), specs(&[Random, Greedy, Mcts, Random]));
    assert_eq!(l.seats(4, 4), l.seats(4, 0));
    // Over 4 games each bot sits once in each seat.
    for s in 0..4 {
        let mut at: Vec<BotKind> = (0..4).filter_map(|i| Some(l.seats(4, i)[s].bot()?.kind)).collect();
        at.sort();
        assert_eq!(at, vec![Random, Random, Greedy, Mcts]);
    }
    assert_eq!(Lineup::default().seats(3, 5), specs(&[Random; 3]));
}

#[test]
fn wilson_interval_brackets_the_rate() {
    let [lo, hi] = wilson95(20, 40);
    assert!(lo < 0.5 && hi > 0.5 && lo > 0.34 && hi < 0.66, "{lo} {hi}");
    assert_eq!(wilson95(0, 10)[0], 0.0);
    assert!(wilson95(10, 10)[0] > 0.69);
    assert_eq!(wilson95(0, 0), [0.0, 1.0]);
}

#[test]
fn sim_reports_wins_per_bot_in_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_catan"))
        .args(["sim", "--games", "2", "--seed", "3", "--bots", "random,random,random,random", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bots"]["random"]["seats"], 4);
    assert_eq!(v["bots"]["random"]["wins"], v["finished"]);
    assert!(v["bots"]["random"]["ci95"][1].as_f64().unwrap() <= 1.0);

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_catan"))
        .args(["sim", "--games", "1", "--bots", "mcts,wizard,random,random"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'wizard' is not a bot (bots: random, greedy, planner, mcts)")
    );
}

// The REPL ----------------------------------------------------------------------------------------------

fn play(args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_catan"))
        .arg("play")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn play_names_a_bot_kind_per_seat() {
    let out = play(
        &["--seed", "7", "--bots", "blue=greedy,white=random,orange=random", "--playouts", "20", "--no-color"],
        "quit\n",
    );
    assert!(out.contains("humans: red; bots: blue (greedy), white (random), orange (random)"), "{out}");
    let out = play(&["--seed", "7", "--bots", "2,3", "--playouts", "20", "--no-color"], "quit\n");
    assert!(out.contains("bots: blue (mcts), white (mcts)"), "a bare seat is the strongest bot: {out}");
}

#[test]
fn hint_says_what_the_strongest_bot_would_do_and_why() {
    let out = play(&["--seed", "7", "--bots", "none", "--playouts", "20", "--no-color"], "roll\nhint\n");
    let hint: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("hint: ")).take(5).collect();
    assert!(hint.iter().any(|l| l.starts_with("  what it does for you: ")), "{out}");
    assert!(hint.iter().any(|l| l.contains("playouts") || l.contains("the only legal action")), "{out}");
}

#[test]
fn every_shipped_variant_evaluates_every_seat() {
    for (variants, players) in [
        (vec!["base"], 4),
        (vec!["family"], 4),
        (vec!["classic"], 3),
        (vec!["base", "helpers"], 4),
        (vec!["base"], 6),
        (vec!["rivals"], 2),
    ] {
        let mut g = Game::new(Header {
            variants: variants.iter().map(|s| s.to_string()).collect(),
            players,
            seed: 2,
            options: vec![],
            sandbox: false,
        })
        .unwrap();
        // Some way into a game, so there is something to weigh.
        let mut bot = RandomBot::new(1);
        for _ in 0..80 {
            let seat = g.to_act().unwrap();
            let a = bot.choose(&g, seat).unwrap().unwrap();
            g.perform(seat, &a).unwrap();
        }
        let v = g.evaluate().unwrap();
        assert_eq!(v.len(), players, "{variants:?}");
        for (s, x) in v.iter().enumerate() {
            let pts = g.points(s, true).unwrap() as f64;
            assert!(x.is_finite() && *x >= pts, "{variants:?} seat {s}: {x} < {pts} points");
        }
        // A search bot decides there too.
        let seat = g.to_act().unwrap();
        assert!(Bot::new(BotKind::Mcts, 1, FEW).choose(&mut g, seat).unwrap().is_some(), "{variants:?}");
    }
}

#[test]
fn bots_propose_offers_the_rules_accept() {
    let mut g = beginner(4, &[]);
    sb(&mut g, NEUTRAL_DICE);
    act_as(&mut g, "red", "roll");
    sb(&mut g, "give red 3 wool");
    let before = g.state().clone();
    let offers = catan_engine::bot::offers::proposals(&mut g, 0, 2).unwrap();
    assert!(*g.state() == before, "proposing tried the offers on a fork only");
    assert!(!offers.is_empty() && offers.len() <= 2, "{offers:?}");
    for o in &offers {
        let text = g.action_text(o);
        assert!(text.starts_with("offer wool for "), "{text}");
        let fork = g.snapshot();
        g.perform(0, o).unwrap();
        g.restore(&fork);
    }
    // Answering an offer, a bot may counter with one of its own (also a template).
    act_as(&mut g, "red", "offer wool for ore");
    let responder = g.to_act().unwrap();
    let counters = catan_engine::bot::offers::proposals(&mut g, responder, 4).unwrap();
    assert!(counters.iter().all(|c| c.name == "counter"), "{counters:?}");
    let answer = Bot::new(BotKind::Mcts, 2, FEW).choose(&mut g, responder).unwrap().unwrap();
    assert!(["accept", "decline", "counter"].contains(&answer.name.as_str()), "{answer:?}");
}

/// The planner weighs an action once its own later steps are done (docs/bots.md, "The
/// simulation bot"): in tests/variants/halfway.lua a trinket is paid for after it is
/// taken, and digging's reward is chosen after it. Halfway, both look free; finished, the
/// trinket costs 3 gold and the dig brings up to 5.
#[test]
fn planner_weighs_an_action_finished_not_halfway() {
    let header = |seed| Header {
        variants: vec!["tests/variants/halfway.lua".into()],
        players: 2,
        seed,
        options: vec![],
        sandbox: false,
    };
    for seed in 1..=3 {
        let mut g = Game::new(header(seed)).unwrap();
        let mut bot = Bot::new(BotKind::Planner, seed, Budget::default());
        let pick = bot.choose(&mut g, 0).unwrap().unwrap();
        assert_eq!(pick.name, "dig", "seed {seed}: digging brings 5 gold once its reward is chosen");
        g.perform(0, &pick).unwrap();
        let reward = bot.choose(&mut g, 0).unwrap().unwrap();
        assert_eq!(reward.name, "take_5");
        g.perform(0, &reward).unwrap();
        // Dug: a trinket (3 gold for nothing, paid afterwards) or the end of the turn.
        let pick = bot.choose(&mut g, 0).unwrap().unwrap();
        assert_eq!(pick.name, "end", "seed {seed}: a trinket only looks free halfway");
    }
}

/// The planner follows an end of turn into the next turn up to its first draw, the roll
/// it hands over (docs/bots.md, "The simulation bot"): in tests/variants/next_turn.lua a
/// tithe is worth it only to a look that sees the roll, hiding gold only to one that sees
/// the next seat's raid after it, and ending the turn plainly to one that stops before
/// the roll.
#[test]
fn planner_follows_the_next_turn_up_to_its_roll() {
    for seed in 1..=3 {
        let mut g = Game::new(Header {
            variants: vec!["tests/variants/next_turn.lua".into()],
            players: 2,
            seed,
            options: vec![],
            sandbox: false,
        })
        .unwrap();
        let mut bot = Bot::new(BotKind::Planner, seed, Budget::default());
        let pick = bot.choose(&mut g, 0).unwrap().unwrap();
        assert_eq!(pick.name, "tithe", "seed {seed}: the roll pays a tithe back threefold");
        // In a follow-up the same: blue rolls and ends its turn, red rolls, and red's raid
        // (after which red acts again) is weighed by the tithe that ends its turn after it.
        g.perform(0, &pick).unwrap();
        for name in ["roll", "end"] {
            let a = g.legal_actions(1).unwrap().into_iter().find(|a| a.name == name).unwrap();
            g.perform(1, &a).unwrap();
        }
        let roll = bot.choose(&mut g, 0).unwrap().unwrap();
        g.perform(0, &roll).unwrap();
        let d = bot.decide(&mut g, 0).unwrap().unwrap();
        assert_eq!(d.action.name, "raid", "seed {seed}: {}", d.why);
        assert!(d.why.contains("'tithe' next"), "seed {seed}: {}", d.why);
    }
}
