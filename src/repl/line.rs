//! The rustyline editor: history in ~/.catan_history, completion of commands, of the
//! legal actions (whole lines) and of board labels, and a grey hint with the first legal
//! action that continues what has been typed.
//!
//! Bounded as every other input (`crate::bounded`): rustyline holds a line while it is
//! typed, so a line past `LINE_CAP` is refused once read (`modes.rs`); the history keeps
//! lines up to `HISTORY_LINE_CAP` only, and a history file past `HISTORY_FILE_CAP` is not
//! read.

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::{CompletionType, Config, Context, Helper, Validator};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// The longest line the history keeps (a command is a few dozen bytes; a pasted blob is
/// not worth recalling).
pub const HISTORY_LINE_CAP: usize = 1 << 10;
/// The largest history file read: a hundred lines (rustyline's default) of
/// `HISTORY_LINE_CAP` each, with room to spare.
pub const HISTORY_FILE_CAP: u64 = 1 << 20;

#[derive(Helper, Validator, Default)]
pub struct CatanHelper {
    /// Legal actions as typed, for whole-line completion and hints.
    pub legal: Vec<String>,
    /// REPL commands.
    pub commands: Vec<String>,
    /// Board labels, for completing an argument.
    pub labels: Vec<String>,
}

impl Completer for CatanHelper {
    type Candidate = Pair;
    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = &line[..pos];
        let mut whole: Vec<Pair> = self
            .legal
            .iter()
            .chain(self.commands.iter())
            .filter(|c| c.starts_with(typed))
            .map(|c| Pair { display: c.clone(), replacement: c.clone() })
            .collect();
        whole.dedup_by(|a, b| a.display == b.display);
        if !whole.is_empty() {
            return Ok((0, whole));
        }
        // Complete the last word as a board label.
        let start = typed.rfind(' ').map(|i| i + 1).unwrap_or(0);
        let word = &typed[start..];
        let labels = self
            .labels
            .iter()
            .filter(|l| l.to_ascii_lowercase().starts_with(&word.to_ascii_lowercase()))
            .map(|l| Pair { display: l.clone(), replacement: l.clone() })
            .collect();
        Ok((start, labels))
    }
}

impl Hinter for CatanHelper {
    type Hint = String;
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if line.is_empty() || pos < line.len() {
            return None;
        }
        self.legal.iter().find(|c| c.starts_with(line) && c.len() > line.len()).map(|c| c[line.len()..].to_string())
    }
}

impl Highlighter for CatanHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
    }
}

pub struct Editor {
    rl: rustyline::Editor<CatanHelper, DefaultHistory>,
    history: Option<PathBuf>,
}

impl Editor {
    pub fn new() -> rustyline::Result<Editor> {
        Editor::with_history(std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".catan_history")))
    }

    /// An editor whose history lives in `history` (read now if it is within
    /// `HISTORY_FILE_CAP`, written by `save_history`).
    pub fn with_history(history: Option<PathBuf>) -> rustyline::Result<Editor> {
        let config = Config::builder().completion_type(CompletionType::List).auto_add_history(false).build();
        let mut rl = rustyline::Editor::with_config(config)?;
        rl.set_helper(Some(CatanHelper::default()));
        if let Some(h) = &history {
            if let Err(why) = load_history(&mut rl, h) {
                eprintln!("note: the command history {} was not read: {why}", h.display());
            }
        }
        Ok(Editor { rl, history })
    }

    pub fn set_candidates(&mut self, legal: Vec<String>, commands: Vec<String>, labels: Vec<String>) {
        if let Some(h) = self.rl.helper_mut() {
            h.legal = legal;
            h.commands = commands;
            h.labels = labels;
        }
    }

    /// Reads a line; None at end of input or Ctrl-D. Only a line within
    /// `HISTORY_LINE_CAP` joins the history.
    pub fn read(&mut self, prompt: &str) -> rustyline::Result<Option<String>> {
        match self.rl.readline(prompt) {
            Ok(l) => {
                if !l.trim().is_empty() && l.len() <= HISTORY_LINE_CAP {
                    let _ = self.rl.add_history_entry(l.as_str());
                }
                Ok(Some(l))
            }
            Err(ReadlineError::Eof) | Err(ReadlineError::Interrupted) => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub fn save_history(&mut self) {
        if let Some(h) = &self.history {
            let _ = self.rl.save_history(h);
        }
    }
}

/// Reads the history file if it is within `HISTORY_FILE_CAP`; a missing one is no error.
fn load_history(rl: &mut rustyline::Editor<CatanHelper, DefaultHistory>, path: &Path) -> Result<(), String> {
    let size = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    if size > HISTORY_FILE_CAP {
        return Err(format!(
            "it holds {} (more than {}); remove it to start a new one",
            crate::bounded::size_text(size as usize),
            crate::bounded::size_text(HISTORY_FILE_CAP as usize)
        ));
    }
    rl.load_history(path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustyline::history::History;

    fn history_file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("catan-history-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Issue 30: the history is read through a cap like every other file.
    #[test]
    fn a_history_file_past_its_cap_is_not_read() {
        let small = history_file("small", "roll\nend\n");
        let editor = Editor::with_history(Some(small.clone())).unwrap();
        assert_eq!(editor.rl.history().len(), 2);
        let big = history_file("big", &"x".repeat(HISTORY_FILE_CAP as usize + 1));
        let editor = Editor::with_history(Some(big.clone())).unwrap();
        assert_eq!(editor.rl.history().len(), 0);
        let _ = (std::fs::remove_file(small), std::fs::remove_file(big));
    }
}
