//! Mixed tables: `catan sim --bots greedy,ext,random,ext --bot-cmd "ext=COMMAND"` seats
//! external programs beside the engine's bots, rotated like any lineup, reported per kind
//! by name, the same for any `--jobs` (each game starts its own processes); the old
//! `--bot-cmd SEATS=COMMAND` keeps its fixed seats without `--bots` and is refused with
//! one, naming the new form.

use serde_json::Value as J;
use std::path::Path;

use crate::common;
use common::process::{catan_in, Run};

/// The example random bot, as a `--bot-cmd` command.
fn random_bot() -> String {
    format!("python3 '{}/examples/bots/random_bot.py'", env!("CARGO_MANIFEST_DIR"))
}

fn catan(args: &[&str], secs: u64) -> Run {
    catan_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args, "", secs)
}

/// A short base game (4 points to win), so that the debug build plays four of them with
/// Python in two seats in a few seconds.
const SHORT: [&str; 4] = ["--option", "victory_points=4", "--seed", "3"];

/// The report without what depends on the machine (time, workers), and the rows file.
fn mixed_run(jobs: &str) -> (J, String) {
    let flag = format!("ext={}", random_bot());
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mixed-{}-jobs{jobs}.csv", std::process::id()));
    let out = out.to_string_lossy().to_string();
    let mut args = vec!["sim", "--games", "4", "--jobs", jobs, "--json", "--out", &out];
    args.extend(SHORT);
    args.extend(["--bots", "greedy,ext,random,ext", "--bot-cmd", &flag]);
    let run = catan(&args, 120);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let mut report: J = serde_json::from_str(&run.out).unwrap_or_else(|e| panic!("{e}: {}", run.out));
    let m = report.as_object_mut().unwrap();
    for timing in ["seconds", "games_per_second", "jobs"] {
        m.remove(timing);
    }
    (report, std::fs::read_to_string(&out).unwrap())
}

#[test]
fn two_programs_and_two_engine_bots_rotate_and_report_alike_on_any_workers() {
    // The two runs at once: each is mostly waiting on Python.
    let ((one, rows_one), (two, rows_two)) = std::thread::scope(|s| {
        let a = s.spawn(|| mixed_run("1"));
        let b = s.spawn(|| mixed_run("2"));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(one["finished"], 4, "every game to its end: {one}");
    assert_eq!(one["failed"], serde_json::json!([]), "{one}");
    assert_eq!(one["lineup"], "greedy, ext, random, ext in seats 1-4 of the first game, rotated one seat each game");
    // Every kind by its name, the program's two seats counted together.
    let bots = one["bots"].as_object().unwrap();
    assert_eq!(bots.keys().collect::<Vec<_>>(), ["ext", "greedy", "random"], "{one}");
    assert_eq!(bots["ext"]["seats"], 2);
    assert_eq!(bots["greedy"]["seats"], 1);
    assert!(bots["ext"]["ci95"].as_array().is_some_and(|c| c.len() == 2), "{one}");
    let wins: u64 = bots.values().map(|b| b["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 4, "{one}");
    // Seats rotated one a game: the rows' bot_1..bot_4 columns.
    let seating: Vec<String> =
        rows_one.lines().skip(1).map(|l| l.split(',').skip(8).take(4).collect::<Vec<_>>().join(",")).collect();
    assert_eq!(
        seating,
        ["greedy,ext,random,ext", "ext,greedy,ext,random", "random,ext,greedy,ext", "ext,random,ext,greedy"],
        "{rows_one}"
    );
    // The same games on two workers: the report and every row.
    assert_eq!(two, one);
    assert_eq!(rows_two, rows_one);
}

#[test]
fn the_seat_form_keeps_its_fixed_seats_alone_and_is_refused_beside_a_lineup() {
    let bot = random_bot();
    let seat_form = format!("1={bot}");
    let mut args = vec!["sim", "--games", "2", "--jobs", "1", "--json", "--option", "victory_points=3"];
    args.extend(["--bot-cmd", &seat_form]);
    let run = catan(&args, 120);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let r: J = serde_json::from_str(&run.out).unwrap();
    assert_eq!(r["lineup"], "external, random, random, random in seats 1-4 of the first game, the seats fixed");
    assert_eq!(r["bots"]["external"]["seats"], 1, "{r}");
    assert_eq!(r["finished"], 2, "{r}");

    // With --bots, a seat number or colour is refused, naming the form that works.
    for flag in [seat_form.clone(), format!("blue={bot}"), bot.clone()] {
        let run = catan(&["sim", "--games", "1", "--bots", "greedy,random,random,random", "--bot-cmd", &flag], 30);
        assert_eq!(run.code, Some(1), "{flag}: {}", run.out);
        assert!(run.err.contains("--bot-cmd \"ext=python3 bot.py\""), "{flag}: {}", run.err);
    }
    // A name in --bots that is neither a bot of ours nor a program, and a program nobody seats.
    let run = catan(&["sim", "--games", "1", "--bots", "greedy,ext,random,ext"], 30);
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("'ext' is not a bot") && run.err.contains("--bot-cmd NAME=COMMAND"), "{}", run.err);
    let run = catan(&["sim", "--games", "1", "--bots", "greedy,ext,random,ext", "--bot-cmd", "mine=python3 x.py"], 30);
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("'mine' is not named in --bots"), "{}", run.err);
    let run = catan(
        &["sim", "--games", "1", "--bots", "greedy,random,random", "--players", "3", "--bot-cmd", "random=x"],
        30,
    );
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("'random' is a bot of ours"), "{}", run.err);
    // Without --bots, a name that is no seat says how to seat it by name.
    let run = catan(&["sim", "--games", "1", "--bot-cmd", "ext=python3 x.py"], 30);
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("'ext' is not a seat") && run.err.contains("--bots mcts,ext"), "{}", run.err);
}

/// `catan play` seats a program by name too: `--bots blue=ext --bot-cmd "ext=COMMAND"`,
/// beside a bot of ours, and the seat form keeps working there.
#[test]
fn play_seats_a_program_by_its_name_beside_our_bots() {
    let named = format!("ext={}", random_bot());
    let run = catan_in(
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        &["play", "--seed", "7", "--bots", "blue=ext,white=random", "--bot-cmd", &named],
        "roll\nend\nshow players\n",
        60,
    );
    assert_eq!(run.code, Some(0), "{}", run.err);
    assert!(run.out.contains("bots: blue (external: python3"), "{}", run.out);
    assert!(run.out.contains("white (random)"), "{}", run.out);
    assert!(run.out.contains("blue (bot)> roll"), "{}", run.out);
    let seat_form = format!("blue={}", random_bot());
    let run = catan_in(
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        &["play", "--seed", "7", "--bots", "none", "--bot-cmd", &seat_form],
        "roll\nend\n",
        60,
    );
    assert_eq!(run.code, Some(0), "{}", run.err);
    assert!(run.out.contains("blue (bot)> roll"), "{}", run.out);
    // A name no seat uses.
    let run = catan(&["play", "--seed", "7", "--bots", "blue=greedy", "--bot-cmd", "ext=python3 x.py"], 30);
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("nor a program --bots seats"), "{}", run.err);
}
