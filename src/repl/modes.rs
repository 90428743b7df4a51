//! How a session runs: script mode, line by line from stdin (a transcript is a test), or
//! `--jsonl` for programs, one JSON object per command (and `legal --json`); interactive
//! mode on a terminal, with rustyline; and a terminal session replayed for tests.

use super::{line, seat_name, Repl, ReplConfig, Step};
use crate::bounded;
use crate::engine::{GameError, LogEntry};
use std::io::{BufRead, Write};

/// The version of the `--jsonl` answers.
const JSONL_FORMAT: u32 = 1;

/// The one `--jsonl` answer of a game that could not start.
pub fn jsonl_failure(error: &str) -> String {
    serde_json::json!({ "format": JSONL_FORMAT, "command": null, "ok": false, "error": error }).to_string()
}

impl Repl<'_> {
    /// Prints JSON for a person, or hands it to the JSON Lines answer whole.
    pub(super) fn say_json(&mut self, v: serde_json::Value) {
        if self.capture.is_some() {
            self.data = Some(v);
        } else {
            let text = serde_json::to_string_pretty(&v).unwrap_or_default();
            self.say(&text);
        }
    }

    /// `legal --json`: the seat, every legal action as typed, the templates that cannot be
    /// listed, and the notes (costs) of the kinds of action.
    pub(super) fn legal_json(&mut self, seat: usize) -> Step {
        let texts = if self.game.winner().is_some() { Ok((vec![], vec![])) } else { self.legal_with_templates(seat) };
        match texts {
            Ok((actions, templates)) => {
                let notes: serde_json::Map<String, serde_json::Value> =
                    self.notes(seat).into_iter().map(|(k, v)| (k, serde_json::Value::from(v))).collect();
                let v = serde_json::json!({
                    "seat": seat_name(&self.game, seat),
                    "game_over": self.game.winner().is_some(),
                    "actions": actions,
                    "templates": templates,
                    "notes": notes,
                });
                let compact = serde_json::to_string(&v).unwrap_or_default();
                if self.capture.is_some() {
                    self.data = Some(v);
                } else {
                    self.say(&compact);
                }
                Step::Ok
            }
            Err(e) => {
                self.error(&format!("cannot list {}'s actions: {e}", seat_name(&self.game, seat)));
                Step::Rejected
            }
        }
    }

    fn legal_with_templates(&self, seat: usize) -> Result<(Vec<String>, Vec<String>), GameError> {
        let (actions, templates) = crate::protocol::legal_actions(&self.game, seat)?;
        Ok((actions.into_iter().map(|(_, text)| text).collect(), templates))
    }
}

/// Script mode: reads commands line by line, echoing each (or, with `jsonl`, answering
/// each with one JSON object). Returns the exit status.
pub fn run_script(config: ReplConfig, input: &mut dyn BufRead, out: &mut dyn Write) -> i32 {
    let strict = config.strict;
    let jsonl = config.jsonl;
    let mut repl = match Repl::new(config, &mut *out) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            if jsonl {
                let _ = writeln!(out, "{}", jsonl_failure(&e.to_string()));
            }
            return 1;
        }
    };
    let mut version = 0u64;
    let mut seen = (0usize, None::<LogEntry>);
    repl.welcome();
    // A bot's error stops the bots, not the session: the game is intact and can be saved.
    let mut bots_failed = repl.run_bots().map_err(|e| repl.error(&format!("a bot failed: {e}"))).is_err();
    if jsonl {
        repl.answer(None, true, &mut version, &mut seen);
    }
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        // A line over the cap is an error like any failed read: the session ends there.
        match bounded::read_line(input, bounded::LINE_CAP, &mut line) {
            Ok(false) => break,
            Ok(true) => number += 1,
            Err(e) => {
                repl.error(&format!("cannot read the input: {e}"));
                if jsonl {
                    repl.answer(None, false, &mut version, &mut seen);
                }
                return 1;
            }
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            repl.error(&format!("input line {number} is not valid UTF-8; ignored"));
            if jsonl {
                repl.answer(None, false, &mut version, &mut seen);
            }
            if strict {
                return 2;
            }
            continue;
        };
        let text = text.trim().to_string();
        if text.is_empty() {
            continue;
        }
        repl.reload_if_changed();
        if !jsonl {
            let prompt = repl.prompt();
            repl.say(&format!("{prompt}{text}"));
        }
        let step = repl.handle(&text);
        if step != Step::Quit {
            if let Err(e) = repl.run_bots() {
                repl.error(&format!("a bot failed: {e}"));
                bots_failed = true;
            }
        }
        if jsonl {
            repl.answer(Some(&text), step != Step::Rejected, &mut version, &mut seen);
        }
        match step {
            Step::Quit => return 0,
            Step::Rejected if strict => return 2,
            _ => {}
        }
    }
    if strict && bots_failed {
        return 2;
    }
    0
}

impl Repl<'_> {
    /// JSON Lines mode: the answer to one command (`command` None: the welcome, or a line
    /// that could not be read) as one object: whether it was done, the error, the lines a
    /// person would have read, the JSON a command printed (`data`), and where the game
    /// stands: `version` grows by one each time the game changed.
    fn answer(&mut self, command: Option<&str>, ok: bool, version: &mut u64, seen: &mut (usize, Option<LogEntry>)) {
        let lines = self.capture.replace(vec![]).unwrap_or_default();
        let data = self.data.take();
        let now = (self.game.log().len(), self.game.log().last().cloned());
        if now != *seen {
            *version += 1;
            *seen = now;
        }
        let error = if ok { None } else { lines.iter().find_map(|l| l.strip_prefix("error: ")).map(str::to_string) };
        let messages: Vec<&str> = lines.iter().map(String::as_str).filter(|l| !l.starts_with("error: ")).collect();
        let mut v = serde_json::json!({
            // The version of this format: a field's meaning changes only with it.
            "format": JSONL_FORMAT,
            "command": command,
            "ok": ok,
            "error": error,
            "messages": messages,
            "version": *version,
            "actions": self.game.log().len(),
            "prompt": self.prompt().trim_end().trim_end_matches('>'),
            "to_act": self.game.to_act().ok().map(|s| seat_name(&self.game, s)),
            "winner": self.game.winner().map(|s| seat_name(&self.game, s)),
        });
        if let Some(d) = data {
            v["data"] = d;
        }
        let _ = writeln!(self.out, "{}", serde_json::to_string(&v).unwrap_or_default());
        let _ = self.out.flush();
    }
}

/// Every label of a slot grid, for completion.
fn grid_labels(g: &crate::slots::SlotGrid) -> Vec<String> {
    (0..g.rows as usize).flat_map(|r| (0..g.cols as usize).map(move |c| g.label(r, c))).collect()
}

/// Interactive mode on a terminal.
pub fn run_interactive(config: ReplConfig) -> i32 {
    let mut stdout = std::io::stdout();
    let mut repl = match Repl::new(config, &mut stdout) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    repl.welcome();
    let mut editor = match line::Editor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return 1;
        }
    };
    loop {
        repl.reload_if_changed();
        // Asked each time: the window may have been resized.
        repl.config.terminal_rows = terminal_rows();
        repl.before_prompt();
        if let Some(to) = repl.pass_to() {
            match editor.read(&format!("  pass the screen to {to}, then press Enter ")) {
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
        repl.status();
        let labels: Vec<String> = {
            let st = repl.game.state();
            match st.topology.as_ref() {
                Some(t) => t.all_labels().map(str::to_string).collect(),
                None => st.grids.iter().flat_map(|g| grid_labels(g)).collect(),
            }
        };
        let words = repl.command_names();
        editor.set_candidates(repl.legal_texts().unwrap_or_default(), words, labels);
        let prompt = repl.prompt();
        let line = match editor.read(&prompt) {
            // rustyline holds what is typed; past the cap every other input has, refused.
            Ok(Some(text)) if text.len() > bounded::LINE_CAP => {
                eprintln!(
                    "error: a line of {} is more than {}: not read",
                    bounded::size_text(text.len()),
                    bounded::size_text(bounded::LINE_CAP)
                );
                continue;
            }
            Ok(Some(text)) => text,
            // End of input (Ctrl-D) leaves like `quit`, keeping unsaved progress.
            Ok(None) => "quit".to_string(),
            Err(e) => {
                eprintln!("error: {e}");
                "quit".to_string()
            }
        };
        if repl.handle(&line) == Step::Quit {
            break;
        }
    }
    editor.save_history();
    0
}

/// The height of the terminal on stdout, in lines: asked of the terminal, else `$LINES`.
fn terminal_rows() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut size = libc::winsize { ws_row: 0, ws_col: 0, ws_xpixel: 0, ws_ypixel: 0 };
        // SAFETY: TIOCGWINSZ writes a `winsize` into the struct it is given, nothing else.
        let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
        if ok && size.ws_row > 0 {
            return Some(usize::from(size.ws_row));
        }
    }
    std::env::var("LINES").ok()?.trim().parse().ok()
}

/// A terminal session played from `input` (what `run_interactive` shows, the status
/// before each prompt included, with each line echoed after its prompt), for tests of
/// what a player at the terminal sees.
pub fn run_as_terminal(config: ReplConfig, input: &mut dyn BufRead, out: &mut dyn Write) -> i32 {
    let mut repl = match Repl::new(config, out) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    repl.welcome();
    let mut lines = bounded::Lines::new(input, bounded::LINE_CAP);
    while let Some(line) = lines.next() {
        let Ok(mut line) = line else { return 1 };
        repl.reload_if_changed();
        repl.before_prompt();
        // The hot-seat pause takes a line of its own (the Enter), echoed after it.
        if let Some(to) = repl.pass_to() {
            repl.say(&format!("  pass the screen to {to}, then press Enter {line}"));
            match lines.next() {
                Some(Ok(next)) => line = next,
                _ => return 0,
            }
        }
        repl.status();
        let prompt = repl.prompt();
        repl.say(&format!("{prompt}{line}"));
        if repl.handle(&line) == Step::Quit {
            return 0;
        }
    }
    0
}
