//! Tuned evaluations: the generic features, weights files keyed to their stack, `catan
//! tune`'s self-play, and bots that play with weights of their own (docs/bots.md).

use crate::common;

use catan_engine::bot::determinize::determinize;
use catan_engine::bot::features::FeatureSpace;
use catan_engine::bot::weights::{stack_hash, Evaluator, Tuned, WeightsFile};
use catan_engine::bot::{Bot, BotKind, BotSpec, Budget};
use catan_engine::sim::{self, Lineup};
use catan_engine::tune::{tune, TuneConfig};
use catan_engine::{Game, Header};
use common::*;
use std::collections::BTreeMap;

fn game(variants: &[&str], players: usize) -> Game {
    Game::new(Header {
        variants: variants.iter().map(|s| s.to_string()).collect(),
        players,
        seed: 3,
        options: vec![],
        sandbox: false,
    })
    .unwrap()
}

fn tuned(stack: &str, weights: &[(&str, f64)]) -> Tuned {
    Tuned {
        stack: stack.into(),
        hash: "0".into(),
        players: 4,
        made: String::new(),
        weights: weights.iter().map(|(k, w)| (k.to_string(), *w)).collect::<BTreeMap<_, _>>(),
    }
}

#[test]
fn features_read_points_production_and_pieces_of_any_board() {
    // The beginner board's fixed starting pieces: every seat has 2 settlements, 2 roads.
    let g = beginner(4, &[]);
    let space = FeatureSpace::of(&g);
    let f = space.extract(&g).unwrap();
    let at = |s: usize, name: &str| f.generic[s][space.index(name).unwrap_or_else(|| panic!("no feature {name}"))];
    for s in 0..4 {
        assert_eq!(at(s, "points"), 2.0);
        assert_eq!(at(s, "pieces.settlement"), 2.0);
        assert_eq!(at(s, "pieces.road"), 2.0);
        assert!(at(s, "production.settlement") > 0.0, "seat {s} produces");
        assert!(at(s, "trail.road") >= 1.0);
    }
    // Production by resource adds up to the total.
    let by_kind: f64 =
        ["brick", "lumber", "wool", "grain", "ore"].iter().map(|r| at(0, &format!("production.settlement.{r}"))).sum();
    assert_eq!(by_kind, at(0, "production.settlement"));
    // Rivals: slot grids instead of a board.
    let r = game(&["rivals"], 2);
    let space = FeatureSpace::of(&r);
    let f = space.extract(&r).unwrap();
    assert!(f.generic[0][space.index("slots.cards").unwrap()] > 0.0);
}

/// The features' longest trail is the rules' (`g:longest_trail`): broken by a piece of no
/// player too, such as the settlements the 5-player game's fixed set-up leaves on the board
/// for the colour nobody plays (Longest Road: another's building breaks a road).
#[test]
fn the_features_longest_trail_is_broken_where_the_rules_break_it() {
    let mut g = Game::new(header(5, 3, &[("board", "stand_in")], true)).unwrap();
    let t = g.state().topology.clone().unwrap();
    let st = g.state();
    let nobodys = (0..t.intersections.len())
        .find(|&n| st.intersections[n].is_some_and(|p| p.seat().is_none()))
        .expect("a settlement of no player");
    // Two free paths meeting at it: one road each side of it.
    let sides: Vec<usize> = t.intersections[nobodys].paths.iter().copied().filter(|&p| st.paths[p].is_none()).collect();
    assert!(sides.len() >= 2, "two free paths beside intersection {nobodys}");
    drop(st);
    let who = color(&g, 0);
    for p in &sides[..2] {
        sb(&mut g, &format!("place road {} {who}", t.paths[*p].label));
    }
    let rules = match g.describe(0).unwrap() {
        catan_engine::value::Value::Map(m) => m["road_length"].as_int().unwrap() as f64,
        other => panic!("describe gave {other:?}"),
    };
    let space = FeatureSpace::of(&g);
    let f = space.extract(&g).unwrap();
    assert_eq!(f.generic[0][space.index("trail.road").unwrap()], rules);
    // Not broken there, the two roads would make a longer trail: the case is a real one.
    let st = g.state();
    let owned: Vec<bool> = st.paths.iter().map(|p| p.is_some_and(|p| p.seat() == Some(0))).collect();
    let others: Vec<bool> =
        st.intersections.iter().map(|p| p.is_some_and(|p| p.seat().is_some_and(|o| o != 0))).collect();
    assert!(catan_engine::board::longest_trail(&t, &owned, &others) as f64 > rules);
}

#[test]
fn features_count_a_card_category_together_in_each_zone() {
    // Classic's five victory point cards are one card to the rules under five names: a
    // feature per zone counts the category (`dev.victory.all`), so a fit can weigh them as
    // one. Checked at every position of a random game, hidden from other seats' view.
    let mut g = game(&["classic"], 4);
    let space = FeatureSpace::of(&g);
    let names = ["market", "library", "university", "governors_house", "chapel"];
    assert!(space.index("dev.resource.all").is_some() && space.index("played.victory.all").is_some());
    // A category of one kind would only repeat the card's own feature.
    let base = game(&["base"], 4);
    assert!(FeatureSpace::of(&base).index("dev.victory.all").is_none(), "base's victory category is one card");
    let mut held = 0;
    each_position(&mut g, 4000, |g| {
        let f = space.extract(g).unwrap();
        for s in 0..4 {
            for zone in ["hand", "dev", "dev_new", "played"] {
                let each: f64 = names.iter().map(|n| f.generic[s][space.index(&format!("{zone}.{n}")).unwrap()]).sum();
                let all = f.generic[s][space.index(&format!("{zone}.victory.all")).unwrap()];
                assert_eq!(all, each, "seat {s}, {zone}, at action {}", g.log().len());
                if zone == "dev" && all > 0.0 {
                    held += 1;
                    let seen = space.generic(g, Some((s + 1) % 4)).unwrap();
                    assert_eq!(seen[s][space.index("dev.victory.all").unwrap()], 0.0, "another seat sees the count");
                }
            }
        }
    });
    assert!(held > 0, "no seat held a victory point card in the game");
}

#[test]
fn a_tuned_evaluation_is_the_weighted_sum_of_the_features() {
    let mut g = beginner(4, &[]);
    let space = FeatureSpace::of(&g);
    let f = space.extract(&g).unwrap();
    let w = 0.5;
    g.set_tuned(Some(tuned("base", &[("production.settlement", w), ("points", 1.0)])));
    let scores = g.bot_scores().unwrap();
    for (s, score) in scores.iter().enumerate() {
        let want = f.generic[s][space.index("points").unwrap()]
            + w * f.generic[s][space.index("production.settlement").unwrap()];
        assert!((score - want).abs() < 1e-9, "seat {s}: {score} != {want}");
    }
    // None: the variant's hand-written evaluation again.
    g.set_tuned(None);
    assert_eq!(g.bot_scores().unwrap(), g.evaluate().unwrap());
}

#[test]
fn generic_features_kept_through_a_search_are_a_fresh_games() {
    // The engine keeps each seat's row of generic features while nothing it reads changes
    // (a bot's search changes a seat or two at each position it weighs, and puts positions
    // back): at every position a search reaches, after each action tried from it and on a
    // deal of the hidden cards, the rows are the ones a game that kept nothing computes.
    // Base on the random board (set-up, robber, harbors), 6 players, and Rivals' grids.
    let headers = [
        (vec!["base"], 4, vec![("board", "random"), ("starting_pieces", "false")]),
        (vec!["base"], 6, vec![]),
        (vec!["rivals_gold"], 2, vec![]),
    ];
    for (variants, players, options) in headers {
        let header = Header {
            variants: variants.iter().map(|s| s.to_string()).collect(),
            players,
            seed: 4,
            options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            sandbox: false,
        };
        let mut g = Game::new(header.clone()).unwrap();
        let mut fresh = Game::new(header).unwrap();
        let space = FeatureSpace::of(&g);
        let mut same = |g: &Game, what: &str| {
            let kept = space.generic(g, None).unwrap();
            fresh.restore(&g.snapshot());
            assert_eq!(kept, space.generic(&fresh, None).unwrap(), "{what}, at action {}", g.log().len());
        };
        let mut bots: Vec<Bot> = (0..players).map(|s| Bot::new(BotKind::Random, s as u64, Budget::default())).collect();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let mut checked = 0;
        for step in 0..300 {
            if g.winner().is_some() {
                break;
            }
            let seat = g.to_act().unwrap();
            let here = g.snapshot();
            same(&g, "the position");
            if step % 3 == 0 {
                for a in g.legal_actions(seat).unwrap().into_iter().take(6) {
                    g.restore(&here);
                    if g.perform(seat, &a).is_ok() {
                        same(&g, "an action tried");
                        checked += 1;
                    }
                }
                let deal = determinize(g.spec(), here.state(), seat, &mut rng);
                g.restore(&here.with_state(deal));
                same(&g, "a deal of the hidden cards");
                g.restore(&here);
                same(&g, "the position put back");
            }
            let Some(a) = bots[seat].choose(&mut g, seat).unwrap() else { break };
            g.perform(seat, &a).unwrap();
        }
        assert!(checked > 100, "{checked} actions tried");
    }
}

/// Plays `g` on with random bots for `actions` actions, asking `at` of every position.
/// At each position of `actions` random ones, the tuned evaluation's score in one call
/// into the rules is the very number the features and `evaluate`, read one by one, give;
/// the positions checked.
fn one_call_agrees_one_by_one(g: &mut Game, eval: &Evaluator, actions: usize) -> usize {
    let mut seen = 0;
    each_position(g, actions, |g| {
        let one_by_one = eval.combine(&eval.space.extract(g).unwrap(), Some(&g.evaluate().unwrap()));
        assert_eq!(eval.scores(g).unwrap(), one_by_one, "at action {}", g.log().len());
        seen += 1;
    });
    seen
}

fn each_position(g: &mut Game, actions: usize, mut at: impl FnMut(&Game)) {
    let mut bots: Vec<Bot> =
        (0..g.header().players).map(|s| Bot::new(BotKind::Random, s as u64, Budget::default())).collect();
    for _ in 0..actions {
        if g.winner().is_some() {
            break;
        }
        at(g);
        let seat = g.to_act().unwrap();
        let Some(a) = bots[seat].choose(g, seat).unwrap() else { break };
        g.perform(seat, &a).unwrap();
    }
}

#[test]
fn a_tuned_evaluation_reads_the_rules_in_one_call_and_sums_as_the_features_do() {
    // Base's shipped weights weigh `evaluate`, the named features and the generic ones:
    // scored in one call into the rules (`Game::terms`), each position's score is the
    // very number the features and `evaluate` read one by one give, to the last bit.
    let mut g = game(&["base"], 4);
    let eval = g.tuned().0.clone().expect("base ships weights");
    assert!(eval.evaluate != 0.0 && !eval.named.is_empty());
    assert!(one_call_agrees_one_by_one(&mut g, &eval, 400) > 300);

    // A named feature a seat's table has only now and then (a name learned late, 0
    // where it is missing), and one that is never weighed.
    let dir = std::env::temp_dir().join(format!("catan-terms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rich.lua");
    std::fs::write(
        &path,
        r#"variant { extends = "base" }
filter("features", "rich.features", function(g, t, p)
  local n = g:count(p, "hand")
  if n > 4 then t.rich = n - 4 end
  t.zero = 0
  return t
end)
"#,
    )
    .unwrap();
    let stack = ["base".to_string(), path.display().to_string()];
    let mut g = game(&stack.iter().map(String::as_str).collect::<Vec<_>>(), 4);
    g.set_tuned(Some(tuned(&stack.join("+"), &[("points", 1.0), ("named.rich", -0.5), ("named.near.city", 0.25)])));
    let eval = g.tuned().0.clone().unwrap();
    let mut rich = 0;
    each_position(&mut g, 400, |g| {
        let f = eval.space.extract(g).unwrap();
        rich += f.named.iter().filter(|m| m.contains_key("rich")).count();
        assert_eq!(eval.scores(g).unwrap(), eval.combine(&f, None));
    });
    assert!(rich > 0, "some seat held more than 4 cards");

    // A stack without an `evaluate` filter whose weights weigh `evaluate`: the term is the
    // points the same call read (`Game::terms` hands them over, not asked twice), as
    // `Game::evaluate` gives them.
    let plain = "tests/variants/no_evaluation.lua";
    let mut g = game(&[plain], 4);
    g.set_tuned(Some(tuned(plain, &[("points", 0.5), ("evaluate", 2.0)])));
    let eval = g.tuned().0.clone().unwrap();
    assert!(!g.has_hook("evaluate") && eval.evaluate == 2.0);
    assert!(one_call_agrees_one_by_one(&mut g, &eval, 200) > 150);

    // A features filter that gives a number no name, or a name no number, is refused as
    // `Game::named_features` refuses it: the same words.
    std::fs::write(
        &path,
        r#"variant { extends = "base" }
filter("features", "rich.features", function(g, t, p)
  t.a, t.b, t.c = 1, "two", {}
  return t
end)
"#,
    )
    .unwrap();
    let mut g = game(&stack.iter().map(String::as_str).collect::<Vec<_>>(), 4);
    g.set_tuned(Some(tuned(&stack.join("+"), &[("named.a", 1.0)])));
    let one_call = g.bot_scores().unwrap_err().to_string();
    assert_eq!(one_call, g.named_features().unwrap_err().to_string());
    assert!(one_call.contains("'b'"), "{one_call}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn weights_files_round_trip_and_pick_their_stack() {
    let mut file = WeightsFile::default();
    file.put(tuned("base", &[("points", 1.0)]));
    file.put(tuned("base+helpers", &[("points", 2.0)]));
    file.put(tuned("base", &[("points", 3.0)])); // replaces the first
    let back = WeightsFile::parse(&file.to_toml()).unwrap();
    assert_eq!(back, file);
    assert_eq!(back.tuned.len(), 2);
    assert_eq!(back.pick("base", 4).unwrap().weights["points"], 3.0);
    assert_eq!(back.pick("base+helpers", 6).unwrap().weights["points"], 2.0);
    assert!(WeightsFile::parse("tuned = 3").is_err());
    // A stack with entries for several player counts: the nearest, a tie to the larger.
    let mut file = WeightsFile::default();
    file.put(Tuned { players: 6, ..tuned("base", &[("points", 6.0)]) });
    file.put(tuned("base", &[("points", 4.0)]));
    let at = |players| file.pick("base", players).unwrap().weights["points"];
    assert_eq!((at(3), at(4), at(5), at(6)), (4.0, 4.0, 6.0, 6.0));
    assert_eq!(file.pick("family", 4).unwrap().weights["points"], 6.0, "another stack's: the first");
}

#[test]
fn re_tuning_into_a_weights_file_keeps_its_comments() {
    // The editions' files say above each entry how it was made and checked; `catan tune`
    // writing into one edits it: the comments stay, the replaced entry keeps its place
    // and its comment gains a note that its figures are the old entry's.
    let dir = std::env::temp_dir().join(format!("catan-weights-comments-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("house.weights.toml");
    let mut file = WeightsFile::default();
    file.put(tuned("base", &[("points", 1.0)]));
    file.put(Tuned { players: 6, ..tuned("base", &[("points", 6.0)]) });
    let text = file.to_toml().replacen("\n[[tuned]]\n", "\n# Four players: won 62 of 200.\n[[tuned]]\n", 1);
    let text = text.replacen(
        "\n[[tuned]]\nstack = \"base\"\nhash = \"0\"\nplayers = 6",
        "\n# Six players.\n[[tuned]]\nstack = \"base\"\nhash = \"0\"\nplayers = 6",
        1,
    );
    assert!(text.contains("# Six players.\n[[tuned]]"), "{text}");
    std::fs::write(&path, &text).unwrap();
    catan_engine::tune::write(&path, &tuned("base", &[("points", 2.0)])).unwrap();
    catan_engine::tune::write(&path, &Tuned { players: 2, ..tuned("base", &[("points", 0.5)]) }).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.starts_with("# Weights of the bots' evaluation"), "{after}");
    let four = after.find("# Four players: won 62 of 200.\n").expect("the replaced entry's comment");
    let note = after.find(catan_engine::tune::REPLACED_NOTE).expect("the note on it");
    let six = after.find("# Six players.\n[[tuned]]").expect("the other entry's comment, untouched");
    assert!(four < note && note < six, "the replaced entry keeps its place: {after}");
    let back = WeightsFile::parse(&after).unwrap_or_else(|e| panic!("{e}\n{after}"));
    let players: Vec<usize> = back.tuned.iter().map(|t| t.players).collect();
    assert_eq!(players, [4, 6, 2]);
    assert_eq!(back.pick("base", 4).unwrap().weights["points"], 2.0);
    assert_eq!(back.pick("base", 6).unwrap().weights["points"], 6.0);
    // Replaced again: one note, not two.
    catan_engine::tune::write(&path, &tuned("base", &[("points", 3.0)])).unwrap();
    let again = std::fs::read_to_string(&path).unwrap();
    assert_eq!(again.matches(catan_engine::tune::REPLACED_NOTE).count(), 1, "{again}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn weights_tuned_on_other_rules_come_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("catan-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mod_path = dir.join("house.lua");
    std::fs::write(&mod_path, "variant { extends = \"base\" }\n").unwrap();
    let stack = format!("base+{}", mod_path.display());
    let g = game(&["base", &mod_path.display().to_string()], 4);
    let hash = stack_hash(g.stack_files());
    // Tuned on this very stack and sources: no warning.
    let mut file = WeightsFile::default();
    file.put(Tuned { hash: hash.clone(), ..tuned(&stack, &[("points", 1.0)]) });
    std::fs::write(dir.join("house.weights.toml"), file.to_toml()).unwrap();
    let g = game(&["base", &mod_path.display().to_string()], 4);
    let (eval, warning) = g.tuned();
    assert!(eval.is_some());
    assert_eq!(warning, &None);
    // The rules changed since: a warning that says what to run.
    std::fs::write(&mod_path, "variant { extends = \"base\" }\n-- changed\n").unwrap();
    let g = game(&["base", &mod_path.display().to_string()], 4);
    let warning = g.tuned().1.clone().unwrap();
    assert!(warning.contains("tuned on other sources") && warning.contains("catan tune --variant"), "{warning}");
    // A weights file for another stack: used, with a warning naming both.
    let mut other = WeightsFile::default();
    other.put(Tuned { hash, ..tuned("base", &[("points", 1.0)]) });
    std::fs::write(dir.join("house.weights.toml"), other.to_toml()).unwrap();
    let g = game(&["base", &mod_path.display().to_string()], 4);
    let warning = g.tuned().1.clone().unwrap();
    assert!(warning.contains("tuned on base and are used for"), "{warning}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_editions_ship_weights_keyed_to_the_sources_they_ship_with() {
    // docs/bots.md, "Tuned evaluations, measured": these editions ship tuned weights. A
    // change to their rules makes them stale (a warning in every game): tune again with
    // the command at the top of their weights file.
    for (edition, players) in [
        ("base", 4),
        ("base", 6),
        ("family", 4),
        ("classic", 4),
        ("rivals", 2),
        ("rivals_gold", 2),
        ("rivals_turmoil", 2),
        ("rivals_progress", 2),
    ] {
        let g = game(&[edition], players);
        let (eval, warning) = g.tuned();
        let eval = eval.as_ref().unwrap_or_else(|| panic!("{edition} ships no weights"));
        assert_eq!(eval.tuned.stack, edition, "{edition} plays another stack's weights");
        // The 5-6 player game has an entry of its own: its weights were tuned in its games.
        assert_eq!(eval.tuned.players, players, "{edition} for {players} plays another player count's weights");
        assert_eq!(warning, &None, "variants/{edition}.weights.toml is stale");
    }
    // A module ships the weights of the stack it is played on (helpers: base+helpers).
    let g = game(&["base", "helpers"], 4);
    let (eval, warning) = g.tuned();
    assert_eq!(eval.as_ref().map(|e| e.tuned.stack.as_str()), Some("base+helpers"));
    assert_eq!(warning, &None, "variants/helpers.weights.toml is stale");
    // A mod without a weights file of its own plays base's, with a warning that it was
    // tuned on other rules.
    let dir = std::env::temp_dir().join(format!("catan-shipped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mod_path = dir.join("house.lua");
    std::fs::write(&mod_path, "variant { extends = \"base\" }\n").unwrap();
    let g = game(&["base", &mod_path.display().to_string()], 4);
    assert!(g.tuned().0.is_some());
    assert!(g.tuned().1.as_ref().is_some_and(|w| w.contains("tuned on base")), "{:?}", g.tuned().1);
    // The same mod loaded alone (it extends base): the same weights and warning, so that
    // `--compare base ./house.lua` is played by the same bots on both sides.
    let alone = game(&[&mod_path.display().to_string()], 4);
    assert_eq!(alone.tuned().0.as_ref().map(|e| &e.tuned), g.tuned().0.as_ref().map(|e| &e.tuned));
    assert!(alone.tuned().1.as_ref().is_some_and(|w| w.contains("tuned on base")), "{:?}", alone.tuned().1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tuning_is_deterministic_for_a_seed_and_learns_that_points_win() {
    let cfg = TuneConfig {
        header: header(4, 11, &[], false),
        games: 6,
        rounds: 2,
        seconds: None,
        jobs: 2,
        from_scratch: true,
        without_evaluate: true,
        teacher: None,
        play_games: 0,
    };
    let a = tune(&cfg, |_, _, _| {}).unwrap();
    let b = tune(&TuneConfig { jobs: 1, ..cfg.clone() }, |_, _, _| {}).unwrap();
    assert_eq!(a.tuned.weights, b.tuned.weights, "the number of workers changed the weights");
    assert_eq!(a.games, 6);
    assert_eq!(a.rounds.len(), 2);
    assert!(a.positions > 0);
    assert!(a.tuned.weights["points"] > 0.0, "{:?}", a.tuned.weights);
    assert!(!a.tuned.weights.contains_key("evaluate"));
    assert!(a.tuned.made.contains("6 games"), "{}", a.tuned.made);
}

#[test]
fn a_search_by_play_follows_the_fit_and_keeps_only_moves_that_won() {
    // docs/bots.md, "Tuned evaluations": `catan tune --play-games`. One match of 48 games
    // (16 seeds, the moved weights in each of 3 seats).
    let cfg = TuneConfig {
        header: header(3, 13, &[], false),
        games: 3,
        rounds: 1,
        seconds: None,
        jobs: 2,
        from_scratch: true,
        without_evaluate: true,
        teacher: None,
        play_games: 48,
    };
    let mut last = (0, 0, 0);
    let a = tune(&cfg, |done, all, round| last = (done, all, round)).unwrap();
    assert_eq!(last, (51, 51, 2), "the progress counts the matches' games too");
    assert_eq!(a.steps.len(), 1);
    let st = &a.steps[0];
    // The declared columns are moved, the variant's named features first.
    assert!(st.feature.starts_with("named."), "{st:?}");
    assert_eq!(st.games, 48);
    assert!(st.wins <= 48 && st.from != st.to);
    let now = a.tuned.weights.get(&st.feature).copied().unwrap_or(0.0);
    assert_eq!(now, if st.kept { st.to } else { st.from }, "{st:?}");
    assert_eq!(st.kept, st.wins as f64 / 48.0 > 1.0 / 3.0 + 0.5 * (2.0f64 / 9.0 / 48.0).sqrt());
    assert!(a.tuned.made.contains("then a search by play, 1 match of 48 games"), "{}", a.tuned.made);
}

#[test]
fn a_teacher_s_choices_are_distilled_into_weights_and_its_labels_are_reported() {
    // greedy as the teacher keeps the test quick; `mcts` is the one docs/bots.md uses.
    let cfg = TuneConfig {
        header: header(4, 12, &[], false),
        games: 4,
        rounds: 1,
        seconds: None,
        jobs: 2,
        // Round 1 plays, and the teacher searches, with base's hand-written evaluation;
        // the weights start from victory points alone.
        from_scratch: false,
        without_evaluate: true,
        teacher: Some(BotKind::Greedy),
        play_games: 0,
    };
    let a = tune(&cfg, |_, _, _| {}).unwrap();
    let b = tune(&TuneConfig { jobs: 1, ..cfg.clone() }, |_, _, _| {}).unwrap();
    assert_eq!(a.tuned.weights, b.tuned.weights, "the number of workers changed the weights");
    for r in &a.rounds {
        assert!(r.choices > 0, "no choice of the teacher was kept");
        assert!((0.0..=1.0).contains(&r.agreement));
    }
    // Base's named features (variants/base/evaluation.lua) are terms of the fit.
    assert!(a.tuned.weights.keys().any(|k| k.starts_with("named.near.")), "{:?}", a.tuned.weights);
    assert!(a.tuned.weights["points"] > 0.0, "{:?}", a.tuned.weights);
    // The fitted weights rank the teacher's choices first more often than victory points
    // alone did, on the same choices.
    assert!(a.agreement > a.rounds[0].agreement + 0.1, "{} {:?}", a.agreement, a.rounds);
}

#[test]
fn bot_specs_name_their_weights() {
    let s = BotSpec::parse("planner@none").unwrap();
    assert_eq!((s.kind, s.weights.as_deref()), (BotKind::Planner, Some("none")));
    assert_eq!(s.name(), "planner@none");
    assert_eq!(BotSpec::parse("greedy").unwrap(), BotKind::Greedy.into());
    assert!(BotSpec::parse("planner@").unwrap_err().contains("after the @"));
    assert!(BotSpec::parse("wizard@none").is_err());
    let g = beginner(4, &[]);
    let e = BotSpec::parse("planner@/no/such/file.toml").unwrap().evaluation(&g).unwrap_err();
    assert!(e.contains("/no/such/file.toml"), "{e}");
}

#[test]
fn a_seat_may_play_with_weights_of_its_own_in_a_simulation() {
    let path = std::env::temp_dir().join(format!("catan-own-weights-{}.toml", std::process::id()));
    let mut file = WeightsFile::default();
    file.put(tuned("base", &[("points", 1.0), ("production.settlement", 0.1)]));
    std::fs::write(&path, file.to_toml()).unwrap();
    let own = format!("planner@{}", path.display());
    let lineup =
        Lineup::from_args(Some(&format!("{own},planner@none,random,random")), "rotate", 3000, Budget::default())
            .unwrap();
    let h = header(4, 5, &[("board", "random"), ("starting_pieces", "false")], false);
    let r = sim::run_jobs(&h.variants, 4, &h.options, 2, 5, &lineup, 2, |_| {}).unwrap();
    assert!(r.failed.is_empty(), "{:?}", r.failed);
    assert!(r.bots.contains_key(&own) && r.bots.contains_key("planner@none"), "{:?}", r.bots.keys());
    assert_eq!(r.rows[0].bots[0], own);
    std::fs::remove_file(&path).ok();
}

#[test]
fn the_planner_plays_whole_games_of_every_edition() {
    for (variants, players) in
        [(vec!["base"], 4), (vec!["family"], 4), (vec!["base", "helpers"], 4), (vec!["base"], 6), (vec!["rivals"], 2)]
    {
        let mut g = game(&variants, players);
        let r = sim::play_capped(&mut g, &vec![BotKind::Planner; players], Budget::default(), 3000, |_| Ok(()));
        let r = r.unwrap_or_else(|e| panic!("{variants:?}: {e}"));
        assert!(r.winner.is_some(), "{variants:?}: no winner in {} actions", r.actions);
    }
    // And it leaves a position as it found it.
    let mut g = beginner(4, &[]);
    let before = g.state().clone();
    let seat = g.to_act().unwrap();
    Bot::new(BotKind::Planner, 1, Budget::default()).choose(&mut g, seat).unwrap();
    assert!(*g.state() == before);
}

/// docs/bots.md, "Tuned evaluations": `catan tune` run where no bar can be drawn (stderr a
/// pipe: a log, CI) says on stderr how far it is, as each round starts and every twentieth
/// of the games, and prints the report and the file it wrote.
#[test]
fn catan_tune_without_a_terminal_says_how_far_it_is() {
    let dir = std::env::temp_dir().join(format!("catan-tune-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("base.weights.toml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_catan"))
        .args(["tune", "--variant", "base", "--games", "4", "--rounds", "2", "--seed", "5", "--jobs", "2", "--out"])
        .arg(&out_file)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("tune: ")).collect();
    assert!(lines.first().is_some_and(|l| l.starts_with("tune: round 1 of 2, 1 of 4 games, ")), "{stderr}");
    assert!(lines.iter().any(|l| l.starts_with("tune: round 2 of 2, 3 of 4 games, ")), "{stderr}");
    assert!(lines.last().is_some_and(|l| l.starts_with("tune: round 2 of 2, 4 of 4 games, ")), "{stderr}");
    assert!(stdout.contains("tuned base for 4 players: 4 games"), "{stdout}");
    assert!(WeightsFile::read(&out_file).is_ok_and(|f| f.pick("base", 4).is_some()), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}
