//! The rustyline editor: history in ~/.catan_history, completion of commands, of the
//! legal actions (whole lines) and of board labels, and a grey hint with the first legal
//! action that continues what has been typed.

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::{CompletionType, Config, Context, Helper, Validator};
use std::borrow::Cow;
use std::path::PathBuf;

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
        let config = Config::builder().completion_type(CompletionType::List).auto_add_history(true).build();
        let mut rl = rustyline::Editor::with_config(config)?;
        rl.set_helper(Some(CatanHelper::default()));
        let history = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".catan_history"));
        if let Some(h) = &history {
            let _ = rl.load_history(h);
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

    /// Reads a line; None at end of input or Ctrl-D.
    pub fn read(&mut self, prompt: &str) -> rustyline::Result<Option<String>> {
        match self.rl.readline(prompt) {
            Ok(l) => Ok(Some(l)),
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
