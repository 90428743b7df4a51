//! `reload` and `catan play --watch` (issue 32): the rules loaded again from disk and the
//! game replayed on them, going on where it was; an action the new rules refuse is named,
//! the game kept up to it and the old one autosaved; rules that no longer load change
//! nothing. The transcripts run in-process: the input edits the mod between commands.

use catan_engine::engine::Header;
use catan_engine::repl::{run_script, ReplConfig};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reload-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A house rule on base whose words on every roll say which version of the file it is;
/// `refuse_roll` makes the new rules refuse the first roll of the game.
fn house_rule(version: &str, refuse_roll: bool) -> String {
    let mut s = format!(
        "variant {{ extends = \"base\", description = \"a house rule being written\" }}\n\
         on(\"rolled\", \"house.words\", function(g) g:log(\"house rule {version}\") end)\n"
    );
    if refuse_roll {
        s.push_str(
            "wrap_action(\"roll\", { legal = function(original) return function(g, p, ...)\n\
             if g:turn() == 1 then return false, \"no roll on the first turn\" end\n\
             return original == nil or original(g, p, ...) end end })\n",
        );
    }
    s
}

/// Input lines; a line `@write TEXT` writes TEXT (with `\n` for newlines) to the mod
/// file before the next line is read, and is not passed on.
struct Editing {
    lines: Vec<String>,
    file: PathBuf,
    buf: Vec<u8>,
}

impl Read for Editing {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.fill_buf()?.len().min(out.len());
        out[..n].copy_from_slice(&self.buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Editing {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.buf.is_empty() && !self.lines.is_empty() {
            let line = self.lines.remove(0);
            match line.strip_prefix("@write ") {
                Some(text) => {
                    // (--watch compares the file's text with what was loaded, not its time)
                    std::fs::write(&self.file, text.replace("\\n", "\n"))?;
                }
                None => self.buf = format!("{line}\n").into_bytes(),
            }
        }
        Ok(&self.buf)
    }
    fn consume(&mut self, n: usize) {
        self.buf.drain(..n);
    }
}

fn play(dir: &Path, watch: bool, lines: &[String]) -> String {
    let file = dir.join("house.lua");
    let header =
        Header { variants: vec![file.display().to_string()], players: 4, seed: 3, options: vec![], sandbox: false };
    let config = ReplConfig { autosave_dir: Some(dir.join("autosave")), watch, ..ReplConfig::new(header) };
    let mut input = Editing { lines: lines.to_vec(), file, buf: vec![] };
    let mut out = Vec::new();
    let status = run_script(config, &mut input, &mut out);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(status, 0, "{text}");
    text
}

fn write(version: &str, refuse: bool) -> String {
    format!("@write {}", house_rule(version, refuse).replace('\n', "\\n"))
}

#[test]
fn reload_replays_the_game_on_the_new_rules_and_goes_on() {
    let dir = scratch("goes_on");
    std::fs::write(dir.join("house.lua"), house_rule("v1", false)).unwrap();
    let lines: Vec<String> =
        vec!["roll".into(), "end".into(), write("v2", false), "reload".into(), "roll".into(), "show log".into()];
    let out = play(&dir, false, &lines);
    assert!(out.contains("house rule v1"), "{out}");
    assert!(out.contains("reloaded 1"), "{out}");
    assert!(out.contains("and replayed the game's 2 actions on them"), "{out}");
    // Blue's roll is the next action, under the new rules.
    let after = out.split("> roll\n").nth(2).unwrap_or("");
    assert!(after.contains("house rule v2"), "{out}");
}

#[test]
fn reload_names_the_action_the_new_rules_refuse_and_keeps_the_game_before_it() {
    let dir = scratch("refused");
    std::fs::write(dir.join("house.lua"), house_rule("v1", false)).unwrap();
    let lines: Vec<String> = vec!["roll".into(), "end".into(), write("v2", true), "reload".into(), "roll".into()];
    let out = play(&dir, false, &lines);
    assert!(
        out.contains("the new rules stop at action 1 of 2, 'roll': not allowed: no roll on the first turn"),
        "{out}"
    );
    assert!(out.contains("the game goes on from the 0 actions before it"), "{out}");
    assert!(out.contains("autosaved the game to"), "the old game is kept: {out}");
    let saved: Vec<_> = std::fs::read_dir(dir.join("autosave")).unwrap().collect();
    assert_eq!(saved.len(), 1, "{out}");
    assert!(out.contains("error: no roll on the first turn"), "the new rules hold: {out}");
}

#[test]
fn rules_that_no_longer_load_change_nothing() {
    let dir = scratch("broken");
    std::fs::write(dir.join("house.lua"), house_rule("v1", false)).unwrap();
    let lines: Vec<String> =
        vec!["roll".into(), "@write variant { extends = \"base\" ".into(), "reload".into(), "end".into()];
    let out = play(&dir, false, &lines);
    assert!(out.contains("error: not reloaded, the game goes on with the rules it had:"), "{out}");
    assert!(out.contains("house.lua:"), "the load error names the file: {out}");
    assert!(out.contains("--- round 1: blue ---"), "the game went on: {out}");
}

#[test]
fn watch_reloads_when_the_file_changes() {
    let dir = scratch("watch");
    std::fs::write(dir.join("house.lua"), house_rule("v1", false)).unwrap();
    let lines: Vec<String> = vec!["roll".into(), "end".into(), write("v2", false), "roll".into()];
    let out = play(&dir, true, &lines);
    assert!(out.contains("a file of the rules changed on disk: reloading"), "{out}");
    assert!(out.split("> roll\n").nth(2).unwrap_or("").contains("house rule v2"), "{out}");
    // Unchanged files reload nothing.
    assert_eq!(out.matches("reloading").count(), 1, "{out}");
}
