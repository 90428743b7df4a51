//! What the docs say a command prints is what it prints today. Every ```text block of
//! README.md and docs/*.md that starts with `$ catan ...` (continued by a trailing `\`)
//! is run from the repository's root, and its lines must appear in the output in order;
//! a `...` line stands for lines left out, and a block without one must be the whole
//! output. `--out` and `--plot` files go to a scratch folder. A block whose command names
//! a file the repository does not have (`./cheap_roads.lua`, a reader's copy) is an
//! illustration and is not run.
//!
//! The default run checks the blocks that take a second; the long ones (hundreds of games)
//! run with `cargo test --release --test docs_output -- --ignored`,
//! which a change of the sim report or of the bots' play must pass before it lands (and
//! which tells what to paste where it does not).

use std::path::{Path, PathBuf};

mod common;
use common::process::{catan_in, tail};

/// One documented command and what the docs show it printing.
struct Block {
    place: String,
    args: Vec<String>,
    /// What `$ printf '...' | catan ...` feeds the command (escapes `\n` read).
    input: String,
    expected: Vec<String>,
}

impl Block {
    /// Roughly how many games (or checks) the command plays, a search bot's game counting
    /// a hundred random ones.
    fn cost(&self) -> usize {
        // A transcript plays what it is given (its bots, if any, a game at most).
        if self.args.first().is_some_and(|a| a == "play") {
            return 1;
        }
        let value = |flag: &str| self.args.iter().position(|a| a == flag).and_then(|i| self.args.get(i + 1));
        let games: usize = value("--games").and_then(|g| g.parse().ok()).unwrap_or(4);
        let sides = if value("--compare").is_some() { 2 } else { 1 };
        let sweep = value("--sweep").map_or(1, |s| s.split(',').count().max(2));
        let bots = value("--bots").map_or("random", String::as_str);
        let per_game = if bots.split(',').all(|b| b == "random" || b == "greedy") { 1 } else { 100 };
        games * sides * sweep * per_game
    }
}

/// Splits a documented command line as the shell would for these simple commands.
fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

fn blocks_of(path: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(path).unwrap();
    let raw: Vec<&str> = text.lines().collect();
    // A block inside a list item is indented: read each line without the indentation of
    // the fence that opens its block.
    let mut indent = 0;
    let lines: Vec<&str> = raw
        .iter()
        .map(|l| {
            if l.trim_start().starts_with("```") {
                indent = l.len() - l.trim_start().len();
                return l.trim_start();
            }
            let pad = l.len() - l.trim_start().len();
            &l[pad.min(indent)..]
        })
        .collect();
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        let command = |l: &&str| l.starts_with("$ catan ") || (l.starts_with("$ printf '") && l.contains("' | catan "));
        if lines[i].trim_end() == "```text" && lines.get(i + 1).is_some_and(command) {
            let place = format!("{}:{}", path.display(), i + 2);
            let mut command = String::new();
            let mut j = i + 1;
            loop {
                let l = lines[j].trim_start_matches("$ ");
                match l.trim_end().strip_suffix('\\') {
                    Some(part) => {
                        command.push_str(part);
                        command.push(' ');
                        j += 1;
                    }
                    None => {
                        command.push_str(l);
                        break;
                    }
                }
            }
            let mut expected = vec![];
            j += 1;
            while j < lines.len() && lines[j].trim_end() != "```" {
                expected.push(lines[j].trim_end().to_string());
                j += 1;
            }
            // `printf 'roll\ntrace\n' | catan play ...`: a REPL transcript.
            let (input, command) = match command.strip_prefix("printf '").and_then(|r| r.split_once("' | ")) {
                Some((input, rest)) => (input.replace("\\n", "\n"), rest.to_string()),
                None => (String::new(), command),
            };
            let args = words(&command).into_iter().skip(1).collect();
            out.push(Block { place, args, input, expected });
            i = j;
        }
        i += 1;
    }
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn all_blocks() -> Vec<Block> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files.iter().flat_map(|f| blocks_of(f)).collect()
}

/// Whether the block's command names only files the repository has (a stack's files, an
/// options file); `--out` and `--plot` name files it writes.
fn runnable(block: &Block) -> bool {
    let mut writes = false;
    block.args.iter().all(|a| {
        let written = std::mem::replace(&mut writes, a == "--out" || a == "--plot");
        written || !a.starts_with("./") || root().join(a).exists()
    })
}

/// `expected`'s lines in order in `actual`; `...` stands for any lines, and a block
/// without one must be all of it.
fn check(expected: &[String], actual: &str) -> Result<(), String> {
    let actual: Vec<&str> = actual.lines().map(str::trim_end).collect();
    let elided = expected.iter().any(|l| l == "...");
    if !elided {
        return if actual == expected { Ok(()) } else { Err(diff(expected, &actual)) };
    }
    let mut at = 0;
    for want in expected.iter().filter(|l| *l != "...") {
        match actual[at..].iter().position(|l| l == want) {
            Some(k) => at += k + 1,
            None => {
                return Err(format!(
                    "the docs show\n  {want}\nbut the command printed (from where the previous line matched):\n{}",
                    actual[at..].join("\n")
                ))
            }
        }
    }
    Ok(())
}

fn diff(expected: &[String], actual: &[&str]) -> String {
    let first = expected.iter().zip(actual).position(|(e, a)| e != a).unwrap_or(expected.len().min(actual.len()));
    format!(
        "the output differs from line {}:\n  docs:    {:?}\n  printed: {:?}\nwhole output:\n{}",
        first + 1,
        expected.get(first),
        actual.get(first),
        actual.join("\n")
    )
}

fn run_blocks(keep: impl Fn(&Block) -> bool) -> usize {
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("docs-output");
    std::fs::create_dir_all(&scratch).unwrap();
    let mut failures = vec![];
    let mut ran = 0;
    for block in all_blocks().iter().filter(|b| runnable(b) && keep(b)) {
        let mut args = block.args.clone();
        for i in 1..args.len() {
            if args[i - 1] == "--out" || args[i - 1] == "--plot" {
                args[i] = scratch.join(&args[i]).display().to_string();
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // (cargo runs a test from the package's root, where the commands' paths start)
        let run = catan_in(&scratch, &args, &block.input, 3600);
        let printed = format!("{}{}", run.out, run.err);
        ran += 1;
        if let Err(why) = check(&block.expected, &printed) {
            failures.push(format!("{}: `catan {}`:\n{why}\n", block.place, args.join(" ")));
        }
        if run.code.is_none() {
            failures.push(format!("{}: did not finish:\n{}", block.place, tail(&printed)));
        }
    }
    assert!(failures.is_empty(), "{} of {ran} documented outputs differ:\n\n{}", failures.len(), failures.join("\n"));
    ran
}

/// Up to this cost (`Block::cost`) a block runs in every `cargo test`.
const QUICK: usize = 100;

#[test]
fn the_documented_outputs_of_quick_commands_are_what_they_print() {
    let ran = run_blocks(|b| b.cost() <= QUICK);
    assert!(ran >= 1, "no documented command was quick enough to run");
}

#[test]
#[ignore = "hundreds of games: cargo test --release --test docs_output -- --ignored"]
fn the_documented_outputs_of_long_commands_are_what_they_print() {
    run_blocks(|b| b.cost() > QUICK);
}

#[test]
fn a_block_matches_in_order_with_gaps_only_where_it_says_so() {
    let doc = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(check(&doc("a\n...\nc"), "a\nb\nc\n").is_ok());
    assert!(check(&doc("c\n...\na"), "a\nb\nc\n").is_err());
    assert!(check(&doc("a\nc"), "a\nb\nc\n").is_err());
    assert!(check(&doc("a\nb"), "a\nb\n").is_ok());
}

/// Every ```scenario block of the docs passes under `catan test` as written.
#[test]
fn the_documented_scenarios_pass() {
    let mut ran = 0;
    let mut files = vec![root().join("README.md")];
    files.extend(std::fs::read_dir(root().join("docs")).unwrap().map(|e| e.unwrap().path()));
    for f in files.iter().filter(|p| p.extension().is_some_and(|x| x == "md")) {
        let text = std::fs::read_to_string(f).unwrap();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("```scenario\n") {
            let body = &rest[start + "```scenario\n".len()..];
            let end = body.find("```").unwrap();
            let place = f.display().to_string();
            let outcome = catan_engine::scenario::run(&place, &body[..end], None).unwrap_or_else(|e| panic!("{e}"));
            assert!(outcome.passed(), "{place}: {:?}", outcome.failure);
            ran += 1;
            rest = &body[end..];
        }
    }
    assert!(ran >= 1, "no ```scenario block in the docs");
}
