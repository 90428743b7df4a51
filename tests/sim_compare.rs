//! `catan sim` for designers: a seeded `--compare`, per-game rows (`--out`), the seat
//! balance test, cut-off reasons and the plot.

use catan_engine::sim::{self, chi2_p_value, compare, seat_balance, End, Lineup, SeatOrder};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_catan");

fn run(stack: &[&str], options: &[(&str, &str)], games: usize) -> sim::SimReport {
    let stack: Vec<String> = stack.iter().map(|s| s.to_string()).collect();
    let opts: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    sim::run_jobs(&stack, 4, &opts, games, 11, &Lineup::default(), 2, |_| {}).unwrap()
}

#[test]
fn a_comparison_pairs_games_by_seed_and_reports_intervals() {
    let a = run(&["base"], &[], 6);
    let b = run(&["base"], &[("victory_points", "5")], 6);
    assert_eq!(a.rows.iter().map(|r| r.seed).collect::<Vec<_>>(), (11..17).collect::<Vec<u64>>());
    assert_eq!(a.rows.iter().map(|r| r.seed).collect::<Vec<_>>(), b.rows.iter().map(|r| r.seed).collect::<Vec<_>>());
    let c = compare(a.clone(), b).unwrap();
    assert_eq!(c.paired, 6);
    // Games to 5 points are shorter than games to 10, game by game.
    assert!(c.turns_diff.diff < 0.0 && c.turns_diff.ci95[1] < 0.0 && c.turns_diff.significant, "{:?}", c.turns_diff);
    let rate_sum: f64 = c.seat_diff.iter().map(|d| d.diff).sum();
    assert!(rate_sum.abs() < 1e-9, "every game has one winner on both sides: {rate_sum}");
    for (q, w) in a.seat_rates.iter().zip(&a.wins) {
        assert!((q.rate - *w as f64 / 6.0).abs() < 1e-12 && q.ci95[0] <= q.rate && q.rate <= q.ci95[1]);
    }
    assert!(a.turns_ci95[0] <= a.mean_turns && a.mean_turns <= a.turns_ci95[1]);
    // The same seeds give the same report (timings aside).
    let again = run(&["base"], &[], 6);
    assert_eq!(
        again.rows.iter().map(|r| (r.winner, r.turns)).collect::<Vec<_>>(),
        a.rows.iter().map(|r| (r.winner, r.turns)).collect::<Vec<_>>()
    );
}

#[test]
fn rows_say_why_each_game_ended() {
    let stack = ["tests/variants/no_victory.lua".to_string()];
    let lineup = Lineup { max_actions: 2_000, ..Lineup::default() };
    let r = sim::run_jobs(&stack, 4, &[], 2, 11, &lineup, 2, |_| {}).unwrap();
    assert_eq!(r.finished, 0);
    assert_eq!(r.cut_off.len(), 2);
    assert!(r.rows.iter().all(|g| g.end == End::ActionCap && g.reason.starts_with("no winner after 2000 actions")));
    let text = sim::report_text(&r, 11, false);
    assert!(
        text.contains("cut off without a winner: 2") && text.contains("seed 11: no winner after 2000 actions"),
        "{text}"
    );
    let rows: Vec<(&str, &sim::GameRow)> = r.rows.iter().map(|g| ("", g)).collect();
    let csv = sim::rows_csv(&rows, 4);
    let mut lines = csv.lines();
    let header = lines.next().unwrap_or_default();
    assert!(
        header.starts_with(
            "side,game,seed,winner,points_1,points_2,points_3,points_4,bot_1,bot_2,bot_3,bot_4,turns,actions,end,reason,"
        ) && header.ends_with(",largest_army,longest_road"),
        "then the metrics: {header}"
    );
    assert!(
        lines.next().is_some_and(|l| l.starts_with(",0,11,,") && l.contains(",2000,action_cap,\"no winner")),
        "{csv}"
    );
    let jsonl = sim::rows_jsonl(&rows);
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["end"], "action_cap");
    assert_eq!(first["seed"], 11);
    assert_eq!(first["points"].as_array().map(|p| p.len()), Some(4));
}

#[test]
fn seat_imbalance_is_a_chi_squared_test() {
    // Reference values: chi-squared 7.815 with 3 degrees of freedom is p = 0.05.
    assert!((chi2_p_value(7.815, 3) - 0.05).abs() < 1e-3);
    assert!((chi2_p_value(3.841, 1) - 0.05).abs() < 1e-3);
    assert!((chi2_p_value(30.0, 10) - 0.000857).abs() < 1e-5);
    assert!(!seat_balance(&[25, 25, 25, 25]).imbalanced);
    let b = seat_balance(&[93, 81, 76, 50]);
    assert!(b.imbalanced && b.p_value < 0.01, "{b:?}");
    assert!(!seat_balance(&[30, 26, 24, 20]).imbalanced);
}

#[test]
fn seats_are_rotated_shuffled_or_fixed() {
    use catan_engine::bot::BotKind::{Greedy, Random};
    let kinds = |l: &Lineup, i: usize| l.seats(3, i).iter().filter_map(|b| Some(b.bot()?.kind)).collect::<Vec<_>>();
    let bots = vec![Greedy.into(), Random.into(), Random.into()];
    let l = Lineup { bots, order: SeatOrder::Fixed, ..Lineup::default() };
    assert_eq!(kinds(&l, 5), vec![Greedy, Random, Random]);
    let l = Lineup { order: SeatOrder::Shuffle, ..l };
    let firsts: Vec<usize> = (0..30).map(|i| kinds(&l, i).iter().position(|&k| k == Greedy).unwrap()).collect();
    assert_eq!(firsts, (0..30).map(|i| kinds(&l, i).iter().position(|&k| k == Greedy).unwrap()).collect::<Vec<_>>());
    for seat in 0..3 {
        assert!(firsts.contains(&seat), "shuffled into every seat: {firsts:?}");
    }
}

#[test]
fn the_command_compares_writes_rows_and_plots() {
    let dir = std::env::temp_dir().join(format!("catan_sim_compare_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("rows.csv"), dir.join("plot.svg"));
    let out = Command::new(BIN)
        .args(["sim", "--games", "4", "--seed", "3", "--jobs", "2", "--compare", "base", ":victory_points=6"])
        .args(["--out", csv.to_str().unwrap(), "--plot", svg.to_str().unwrap()])
        .env_remove("CATAN_VARIANTS")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        text.starts_with(
            "A: base\nB: :victory_points=6 (stack base)\n4 games each with 4 players, the same seeds (3..6)"
        ),
        "{text}"
    );
    assert!(text.contains("seat 1 ") && text.contains("turns ") && text.contains("B - A (95% interval)"), "{text}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 9, "a header and 4 games a side: {rows}");
    assert!(rows.lines().nth(5).is_some_and(|l| l.starts_with("B,0,3,")), "{rows}");
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("Win rate by seat") && plot.contains("Game length"), "{plot}");
    // A PNG of the same figure, from a single run.
    let png = dir.join("plot.png");
    let out = Command::new(BIN)
        .args(["sim", "--games", "3", "--seed", "3", "--plot", png.to_str().unwrap()])
        .env_remove("CATAN_VARIANTS")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 1000, "{} bytes", bytes.len());
    assert_eq!(&bytes[16..24], &[0, 0, 3, 0x84, 0, 0, 1, 0x7c], "900 x 380 pixels");
    let bad = Command::new(BIN).args(["sim", "--games", "1", "--compare", "base", ":no_such=1"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("side B (:no_such=1): unknown option 'no_such'"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_bot_kind_fills_every_seat_and_the_report_names_the_bots() {
    use catan_engine::bot::{BotKind, Budget};
    let one = Lineup::from_args(Some("greedy"), "rotate", 100, Budget::default()).unwrap();
    assert!(one.check_players(4).is_ok() && one.check_players(3).is_ok());
    assert!((0..5).all(|i| one.seats(4, i) == vec![sim::Entrant::from(BotKind::Greedy); 4]));
    assert_eq!(one.describe(4), "greedy in every seat");
    assert_eq!(Lineup::default().describe(3), "random in every seat");
    let two = Lineup::from_args(Some("greedy,random"), "rotate", 100, Budget::default()).unwrap();
    let e = two.check_players(4).unwrap_err();
    assert!(e.contains("--bots names 2 bots for 4 players"), "{e}");
    let sim = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(["sim", "--games", "2", "--seed", "5", "--jobs", "2", "--max-actions", "150"])
            .args(args)
            .env_remove("CATAN_VARIANTS")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{args:?}: {text}{}", String::from_utf8_lossy(&out.stderr));
        text
    };
    let text = sim(&["--bots", "greedy"]);
    assert!(text.contains("\n  bots: greedy in every seat\n"), "{text}");
    assert!(!text.contains("per bot"), "one kind plays itself: no wins per kind: {text}");
    let text = sim(&[]);
    assert!(text.contains("\n  bots: random in every seat\n"), "{text}");
    let text = sim(&["--bots", "greedy,random,random,random"]);
    assert!(
        text.contains(
            "bots: greedy, random, random, random in seats 1-4 of the first game, rotated one seat each game"
        ),
        "{text}"
    );
    assert!(text.contains("per bot"), "{text}");
    let text = sim(&["--bots", "greedy", "--compare", "base", ":victory_points=6"]);
    assert!(text.contains("\nbots: greedy in every seat\n"), "{text}");
    let bad = Command::new(BIN).args(["sim", "--games", "1", "--bots", "greedy,random"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--bots names 2 bots for 4 players"));
}

#[test]
fn metrics_reach_rows_reports_and_comparisons() {
    let a = run(&["tests/variants/metrics.lua"], &[], 6);
    let b = run(&["tests/variants/metrics.lua"], &[("victory_points", "5")], 6);
    for r in &a.rows {
        assert_eq!(r.end, End::Won);
        assert_eq!(r.metrics.get("final_turn"), Some(&(r.turns as f64)), "{r:?}");
        // Base's own, and the engine's counts of actions, which add up to the game's actions.
        assert!(r.metrics["longest_road"] >= 1.0 && r.metrics.contains_key("largest_army"), "{r:?}");
        let counted: f64 = r.metrics.iter().filter(|(k, _)| k.starts_with("actions.")).map(|(_, v)| v).sum();
        assert_eq!(counted, r.actions as f64, "{r:?}");
        assert!(r.metrics["actions.roll"] >= 1.0 && r.metrics["actions.end"] >= 1.0);
    }
    let turns: Vec<f64> = a.rows.iter().map(|r| r.turns as f64).collect();
    let m = a.metrics["final_turn"];
    assert_eq!((m.mean, m.ci95, m.games), {
        let (x, ci) = sim::mean_ci95(&turns);
        (x, ci, 6)
    });
    assert!(a.metrics.contains_key("bank_ore") && a.metrics.contains_key("actions.robber"));
    let text = sim::report_text(&a, 11, false);
    assert!(text.contains("  metrics, mean per game (95% interval):\n    bank_ore"), "{text}");
    assert!(text.contains("    final_turn ") && text.contains("    actions.roll "), "{text}");
    // A comparison pairs each metric by seed, as it pairs the turns.
    let c = compare(a.clone(), b).unwrap();
    let d = c.metrics_diff["final_turn"];
    assert_eq!((d.diff, d.ci95), (c.turns_diff.diff, c.turns_diff.ci95));
    assert!(c.metrics_diff.contains_key("longest_road") && c.metrics_diff.contains_key("actions.roll"));
    let text = sim::comparison_text(&c, 11, &[]);
    assert!(text.contains("\nmetrics ") && text.contains("\nfinal_turn "), "{text}");
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["metrics_diff"]["final_turn"]["diff"], d.diff);
    assert_eq!(json["a"]["metrics"]["final_turn"]["mean"], m.mean);
    // Rows: a CSV column per metric, sorted, after the reason; JSON Lines the map.
    let rows: Vec<(&str, &sim::GameRow)> = a.rows.iter().map(|g| ("", g)).collect();
    let csv = sim::rows_csv(&rows, 4);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "reason").unwrap();
    let names = &header[at + 1..];
    assert!(names.windows(2).all(|w| w[0] < w[1]) && names.contains(&"final_turn"), "{header:?}");
    let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "final_turn").unwrap();
    assert_eq!(first[col], a.rows[0].turns.to_string());
    let line = sim::rows_jsonl(&rows);
    let v: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    assert_eq!(v["metrics"]["final_turn"], a.rows[0].turns as f64);
    // A row written before metrics still parses (they default to none).
    let mut old = v.clone();
    old.as_object_mut().unwrap().remove("metrics");
    let parsed: sim::GameRow = serde_json::from_value(old).unwrap();
    assert!(parsed.metrics.is_empty());
}

#[test]
fn a_metric_that_is_not_a_number_is_an_error_naming_the_hook() {
    let r = run(&["tests/variants/bad_metric.lua"], &[], 2);
    assert_eq!(r.failed.len(), 2, "{:?}", r.rows);
    let e = &r.failed[0].error;
    assert!(e.contains("the metrics filter 'bad.metrics' set metric 'road' to a string, not a finite number"), "{e}");
    assert!(e.starts_with("the game's metrics at its end") && e.contains("tests/variants/bad_metric.lua:4"), "{e}");
    assert!(r.rows.iter().all(|g| g.end == End::Error && g.metrics.is_empty()));
}

#[test]
fn a_sweep_takes_a_range_or_a_list_of_values() {
    let (o, v) = sim::parse_sweep("victory_points=6..8").unwrap();
    assert_eq!((o.as_str(), v), ("victory_points", vec!["6".to_string(), "7".into(), "8".into()]));
    let (o, v) = sim::parse_sweep(" board = beginner, random ").unwrap();
    assert_eq!((o.as_str(), v), ("board", vec!["beginner".to_string(), "random".into()]));
    assert_eq!(sim::parse_sweep("discard_limit=-1..-1").unwrap().1, vec!["-1".to_string()]);
    for (bad, says) in [
        ("victory_points", "--sweep takes OPTION=A..B"),
        ("victory_points=8..6", "the range runs upwards, 6..8"),
        ("victory_points=a..3", "'a' is not a whole number"),
        ("victory_points=6,,8", "an empty value"),
        ("victory_points=6,6", "'6' is given twice"),
        ("victory_points=0..5000", "at most 1000 values"),
    ] {
        let e = sim::parse_sweep(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
    let opts = sim::sweep_options(
        &[("board".into(), "random".into()), ("victory_points".into(), "9".into())],
        "victory_points",
        "6",
    );
    assert_eq!(opts, vec![("board".to_string(), "random".to_string()), ("victory_points".into(), "6".into())]);
}

#[test]
fn the_command_sweeps_an_option_on_the_same_seeds() {
    let dir = std::env::temp_dir().join(format!("catan_sim_sweep_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, jsonl, svg) = (dir.join("rows.csv"), dir.join("rows.jsonl"), dir.join("sweep.svg"));
    let sweep = |extra: &[&str]| {
        let out = Command::new(BIN)
            .args(["sim", "--games", "3", "--seed", "2", "--jobs", "2", "--sweep", "victory_points=9..10"])
            .args(extra)
            .env_remove("CATAN_VARIANTS")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
        text
    };
    let text = sweep(&["--out", csv.to_str().unwrap(), "--plot", svg.to_str().unwrap()]);
    assert!(text.starts_with("victory_points over 9, 10: 3 games each of base with 4 players, the same seeds (2..4)\nbots: random in every seat\n"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[2].starts_with("victory_points ") && lines[2].contains("seat 4") && lines[2].ends_with("turns"),
        "{text}"
    );
    assert!(lines[3].starts_with("9 ") && lines[4].starts_with("10 "), "{text}");
    assert!(
        text.contains("metrics, mean per game (95% interval), by victory_points:") && text.contains("\nlongest_road "),
        "{text}"
    );
    // The value 10 is base's default: its games are those of a plain run on the seeds.
    let plain = sim::run_jobs(&["base".to_string()], 4, &[], 3, 2, &Lineup::default(), 1, |_| {}).unwrap();
    let json: serde_json::Value = serde_json::from_str(&sweep(&["--json", "--out", jsonl.to_str().unwrap()])).unwrap();
    assert_eq!(json["option"], "victory_points");
    assert_eq!(json["points"][1]["value"], "10");
    let ten = &json["points"][1]["report"];
    assert_eq!(ten["wins"], serde_json::to_value(&plain.wins).unwrap());
    assert_eq!(ten["mean_turns"], plain.mean_turns);
    assert_eq!(ten["metrics"]["longest_road"]["mean"], plain.metrics["longest_road"].mean);
    assert!(json["points"][0]["report"]["seat_rates"][3]["ci95"].is_array());
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 7, "a header and 3 games a value: {rows}");
    assert!(
        rows.starts_with("sweep,game,seed,winner,") && rows.lines().nth(4).is_some_and(|l| l.starts_with("10,0,2,")),
        "{rows}"
    );
    let last: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&jsonl).unwrap().lines().last().unwrap()).unwrap();
    assert_eq!((last["sweep"].clone(), last["seed"].clone()), (serde_json::json!(10), serde_json::json!(4)));
    assert_eq!(last["turns"], plain.rows[2].turns);
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.starts_with("<svg") && plot.contains("Win rate by seat") && plot.contains("Mean game length"),
        "{plot}"
    );
    assert!(plot.contains(">victory_points<") && plot.contains(">seat 4<"), "{plot}");
    let refused = |args: &[&str], says: &str| {
        let out =
            Command::new(BIN).args(["sim", "--games", "1"]).args(args).env_remove("CATAN_VARIANTS").output().unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.contains(says), "{args:?}: {e}");
    };
    refused(
        &["--sweep", "victory_points=6,8", "--compare", "base", ":board=random"],
        "--sweep and --compare cannot be combined",
    );
    refused(
        &["--sweep", "victory_points=2..4"],
        "--sweep victory_points=2: option 'victory_points' must be between 3 and 30",
    );
    refused(&["--sweep", "no_such=1,2"], "--sweep no_such=1: unknown option 'no_such'");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_lines_rows_hold_each_game_to_replay_and_play_loads_one() {
    let dir = std::env::temp_dir().join(format!("catan_sim_saves_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (jsonl, csv) = (dir.join("rows.jsonl"), dir.join("rows.csv"));
    for out in [&jsonl, &csv] {
        let done = Command::new(BIN)
            .args(["sim", "--games", "2", "--seed", "8", "--compare", "base", ":victory_points=6"])
            .args(["--out", out.to_str().unwrap()])
            .env_remove("CATAN_VARIANTS")
            .output()
            .unwrap();
        assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    }
    assert!(!std::fs::read_to_string(&csv).unwrap().contains("save"), "CSV rows carry no save");
    let text = std::fs::read_to_string(&jsonl).unwrap();
    for line in text.lines() {
        let row: sim::GameRow = serde_json::from_str(line).unwrap();
        let save = row.save.clone().expect("a JSON Lines row keeps its game's save");
        assert_eq!(save.header.seed, row.seed);
        let (game, divergence) = catan_engine::Game::replay(&save).unwrap();
        assert!(divergence.is_none());
        assert_eq!((game.log().len(), game.winner().map(|w| w + 1)), (row.actions, row.winner), "{line}");
    }
    // Side B's game 1 is the one played to 6 points.
    let path = jsonl.to_str().unwrap();
    let save = catan_engine::repl::read_save(&format!("{path}#B:1")).unwrap();
    assert!(save.header.options.contains(&("victory_points".to_string(), "6".to_string())), "{:?}", save.header);
    for (pick, says) in [
        ("1", "holds 2 games numbered 1: pick one with --game"),
        ("C:1", "has no game C:1: pick one of A:0, A:1, B:0, B:1"),
    ] {
        let e = catan_engine::repl::read_save(&format!("{path}#{pick}")).unwrap_err();
        assert!(e.contains(says), "{pick}: {e}");
    }
    let e = catan_engine::repl::read_save(path).unwrap_err();
    assert!(e.contains("holds 4 games"), "{e}");
    // Stepped back through with `undo` in the terminal game.
    let mut play = Command::new(BIN)
        .args(["play", "--load", path, "--game", "B:1", "--bots", "none"])
        .env_remove("CATAN_VARIANTS")
        .env("CATAN_HOME", &dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    play.stdin.take().unwrap().write_all(b"undo\nundo\nshow players\n").unwrap();
    let out = play.wait_with_output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    assert!(shown.contains("wins the game") && shown.matches("undone: ").count() == 2, "{shown}");
    // Rows of a run that does not ask for saves carry none.
    let r = run(&["base"], &[], 1);
    assert!(r.rows[0].save.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
