//! Issue 31, "Offers and hints" and "Words and names": REPL transcripts piped through
//! `catan play` (and `catan sim`, `catan serve` where a face words its own errors).

mod common;
use common::process::{catan_in, tail, Run};
use std::path::PathBuf;

/// A folder for `CATAN_HOME` (autosaves) of one test, emptied.
fn home(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("repl-offers")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn catan(name: &str, args: &[&str], input: &str) -> Run {
    catan_in(&home(name), args, input, 60)
}

/// `catan play` seed 7, hot-seat unless `extra` names bots.
fn play(name: &str, extra: &[&str], input: &str) -> Run {
    let mut args = vec!["play", "--seed", "7", "--no-color"];
    if !extra.contains(&"--bots") {
        args.extend(["--bots", "none"]);
    }
    args.extend_from_slice(extra);
    catan(name, &args, input)
}

fn is_prompt(line: &str) -> bool {
    (line.starts_with("[turn ") && line.contains("]> ")) || line.starts_with("game over> ")
}

/// The lines printed after the `n`th (0-based) echo of `command`, up to the next prompt.
fn after<'r>(run: &'r Run, command: &str, n: usize) -> Vec<&'r str> {
    let lines: Vec<&str> = run.out.lines().collect();
    let echoes: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| is_prompt(l) && l.ends_with(&format!("> {command}")))
        .map(|(i, _)| i)
        .collect();
    let Some(&start) = echoes.get(n) else {
        panic!("'{command}' was not echoed {} time(s):\n{}", n + 1, tail(&run.out));
    };
    lines[start + 1..].iter().take_while(|l| !is_prompt(l)).copied().collect()
}

fn ok(run: &Run) {
    assert_eq!(run.code, Some(0), "exit status {:?}\nstderr:\n{}\nstdout:\n{}", run.code, run.err, tail(&run.out));
}

// Offers and hints ----------------------------------------------------------------------

/// Another player's offer waiting on you: a refused command says what the one answering
/// can do, with the offer's terms; the one who offered is told to confirm or cancel;
/// `legal` notes the terms beside `accept` and beside each `confirm` (a counter's too).
#[test]
fn an_offer_waiting_on_you_is_worded_for_the_one_who_answers() {
    let input = "roll\noffer 2 ore for brick\nend\nlegal\ncounter brick for ore\ndecline\ndecline\nend\nlegal\n";
    let run = play("offer-words", &[], input);
    ok(&run);
    let refused = after(&run, "end", 0);
    assert_eq!(
        refused,
        ["error: red offers 2 ore for brick: `accept` (you give brick), `decline`, or `counter <cards> for <cards>`"]
    );
    let legal = after(&run, "legal", 0).join("\n");
    assert!(legal.contains("accept   # you give brick for 2 ore"), "{legal}");
    let refused = after(&run, "end", 1).join("\n");
    assert!(refused.contains("your trade offer is open: `confirm PLAYER`") && refused.contains("`cancel`"), "{refused}");
    let legal = after(&run, "legal", 1).join("\n");
    assert!(legal.contains("confirm blue   # blue: you give ore for brick"), "{legal}");
}
