//! `trace` and `g:debug`, as a modder uses them in `catan play` (issue 32): which hooks
//! ran for an action, from which file:line, given what and answering what; a line a
//! rule prints for its modder that never enters the game.

use crate::common;
use common::process::{catan_in, tail, Run};
use std::path::PathBuf;

const VARIANT: &str = "tests/variants/debug_lines.lua";

fn home(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("trace-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn play(name: &str, extra: &[&str], input: &str) -> Run {
    let mut args = vec!["play", "--variant", VARIANT, "--seed", "3", "--bots", "none"];
    args.extend_from_slice(extra);
    let run = catan_in(&home(name), &args, input, 60);
    assert_eq!(run.code, Some(0), "{}\n{}", run.err, tail(&run.out));
    run
}

fn line_of(file: &str, marker: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let n = text.lines().position(|l| l.contains(marker)).unwrap();
    format!("{file}:{}", n + 1)
}

#[test]
fn trace_shows_the_hooks_of_the_last_action_in_order_with_their_places() {
    let run = play("last", &[], "roll\ntrace\n");
    let out = &run.out;
    let start = out.find("trace of 'roll' by red:").unwrap_or_else(|| panic!("{out}"));
    let lines: Vec<&str> = out[start..].lines().take_while(|l| !l.ends_with("> ")).collect();
    // `roll` declares its `when` (turn = true): the engine's check is traced at its line.
    let when = lines.iter().position(|l| l.contains("action 'roll' declared(1) -> true")).expect("declared");
    let apply = lines.iter().position(|l| l.contains("action 'roll' apply(1)")).expect("apply");
    let to_act = lines.iter().position(|l| l.contains("filter to_act 'base.to_act' (1) -> 1")).expect("to_act");
    assert!(when < apply && apply < to_act, "{lines:#?}");
    assert!(lines[when].contains("(variants/base/production_and_robber.lua:"), "{}", lines[when]);
    assert!(lines.iter().any(|l| l.starts_with("result: done: red rolls")), "{lines:#?}");
}

#[test]
fn trace_of_an_action_tries_it_on_a_copy_and_shows_who_refused() {
    let run = play("refused", &["--sandbox"], "roll\ngive red 1 brick\ngive red 1 lumber\ntrace road 37-42\nhand\n");
    let out = &run.out;
    assert!(out.contains("trace of 'road 37-42' by red, tried on a copy:"), "{out}");
    // The mod's wrapped `legal` said no, with its reason; the refusal names its place.
    assert!(out.contains("action 'road' legal(1, "), "{out}");
    assert!(out.contains("-> false, \"no roads on the first turn (debug_lines)\""), "{out}");
    assert!(out.contains("result: refused: not allowed: no roads on the first turn (debug_lines)"), "{out}");
    assert!(out.contains(&format!("[debug_lines, {VARIANT}:")), "the refusal names its file: {out}");
    // And the game did not move: red still holds the brick and the lumber.
    let hand = out.split("> hand\n").nth(1).unwrap_or("");
    assert!(hand.contains("brick") && hand.contains("lumber"), "{out}");
}

#[test]
fn trace_json_is_the_same_for_tools() {
    let run = play("json", &[], "roll\ntrace --json\n");
    let start = run.out.find("trace --json\n").unwrap() + "trace --json\n".len();
    let text: String = run.out[start..].lines().take_while(|l| !l.contains("> ")).collect::<Vec<_>>().join("\n");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(v["command"], "roll");
    let entries = v["entries"].as_array().unwrap();
    assert_eq!(entries[0]["kind"], "action");
    assert_eq!(entries[0]["name"], "declared");
    assert!(entries.iter().any(|e| e["point"] == "to_act" && e["out"] == "1"), "{v}");
}

#[test]
fn trace_before_any_action_says_what_to_do() {
    let mut args = vec!["play", "--variant", VARIANT, "--seed", "3", "--bots", "none"];
    args.push("--strict");
    let run = catan_in(&home("none"), &args, "trace\n", 60);
    assert!(run.out.contains("error: no action yet to trace"), "{}", run.out);
    assert_eq!(run.code, Some(2), "--strict: a refused command");
}

/// A modder's line: shown under --debug with its place, in `trace`, and never in the log
/// or the state: the save is the same with and without --debug.
#[test]
fn g_debug_lines_show_under_debug_and_in_trace_and_never_in_the_game() {
    let place = line_of(VARIANT, "DEBUG LINE HERE");
    let dir = home("saves");
    let save = |name: &str| dir.join(format!("{name}.json"));
    let input = |name: &str| format!("roll\ngive red wool grain ore\nbuy\nsave {}\ntrace\n", save(name).display());
    let quiet = play("quiet", &["--sandbox"], &input("quiet"));
    let quiet_save = std::fs::read_to_string(save("quiet")).unwrap();
    assert!(!quiet.out.contains("debug:"), "{}", quiet.out);
    let loud = play("loud", &["--sandbox", "--debug"], &input("loud"));
    assert!(loud.out.contains(&format!("debug: {place}: cost of development for 1 {{")), "{}", loud.out);
    assert!(loud.out.contains("debug  cost of development for 1 {"), "the trace shows it too: {}", loud.out);
    assert!(quiet.out.contains(&format!("({place})")), "the trace shows it without --debug: {}", quiet.out);
    assert_eq!(std::fs::read_to_string(save("loud")).unwrap(), quiet_save);
    assert!(!quiet_save.contains("cost of"), "g:debug reached the save");
}
