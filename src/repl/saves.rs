//! Saves and going back: `load`, `undo`, `quit` with the autosave of unsaved progress
//! (`catan play --resume` finds it), the autosave folder, and what `save` and `load` check
//! (a save that would lose actions, one that stopped agreeing with its replay).

use super::{text, Repl, Step};
use crate::bounded;
use crate::engine::{Game, GameError, SaveFile};
use std::path::{Path, PathBuf};

impl Repl<'_> {
    /// Whether the game holds actions that no save or load has kept.
    fn unsaved(&self) -> bool {
        self.game.log() != self.saved.as_slice()
    }

    /// Saves unsaved progress where `catan play --resume` finds it; says where. Err: it
    /// could not be written (said too).
    fn autosave(&mut self) -> Result<(), ()> {
        if !self.unsaved() {
            return Ok(());
        }
        let dir = match self.config.autosave_dir.clone().or_else(autosave_dir) {
            Some(d) => d,
            None => {
                self.error("cannot autosave: no home folder (set CATAN_HOME)");
                return Err(());
            }
        };
        match write_autosave(&dir, &self.game) {
            Ok(path) => {
                self.saved = self.game.log().to_vec();
                self.say(&format!(
                    "autosaved the game to {} ({}); `catan play --resume` continues it",
                    path.display(),
                    text::count(self.game.log().len() as u64, "action")
                ));
                Ok(())
            }
            Err(e) => {
                self.error(&format!("cannot autosave to {}: {e}", dir.display()));
                Err(())
            }
        }
    }

    /// `quit`: autosaves unsaved progress first; if that fails, the first `quit` stays so
    /// the player can save elsewhere, the second leaves.
    pub(super) fn quit(&mut self) -> Step {
        if self.autosave().is_err() && !self.quit_warned {
            self.quit_warned = true;
            self.say("  the game is not saved: `save FILE` somewhere else, or `quit` again to leave without it");
            return Step::Rejected;
        }
        Step::Quit
    }

    pub(super) fn load(&mut self, path: &str) -> Step {
        let (game, div) = match load_game(path) {
            Ok(loaded) => loaded,
            Err(e) => {
                self.error(&format!("cannot load {path}: {e}"));
                return Step::Rejected;
            }
        };
        // The game being replaced is kept if it has unsaved progress.
        if self.autosave().is_err() {
            self.say("  not loaded, so that this game is not lost: `save FILE` it first");
            return Step::Rejected;
        }
        self.game = game;
        self.saved = self.game.log().to_vec();
        self.winner_announced = false;
        self.shown = self.game.messages().len();
        self.last_turn = None;
        self.last_board = None;
        self.is_bot.resize(self.game.header().players, false);
        self.bots.resize_with(self.game.header().players, || None);
        self.rebind_bots();
        self.external.resize_with(self.game.header().players, || None);
        if let Some(d) = div {
            let text = diverged(path, &d, &self.game);
            self.say(&text);
        }
        self.say(&format!("loaded {path} ({})", text::count(self.game.log().len() as u64, "action")));
        Step::Ok
    }

    /// `reload`: loads the variant stack again from disk and replays the game's log on it;
    /// the game goes on where it was. If the new rules refuse or play differently an
    /// action of the log, says which and keeps the game up to it, the old one autosaved
    /// first. If the new rules do not load, says why and keeps the old game and rules.
    pub(super) fn reload(&mut self) -> Step {
        let file = self.game.save_file();
        let (game, div) = match Game::replay(&file) {
            Ok(replayed) => replayed,
            Err(e) => {
                self.error(&format!("not reloaded, the game goes on with the rules it had: {e}"));
                return Step::Rejected;
            }
        };
        let files = game.stack_files().len();
        if let Some(d) = &div {
            // The old game, every action of it, stays where `--resume` and `load` find it.
            self.saved.clear();
            if self.autosave().is_err() {
                self.say("  not reloaded, so that this game is not lost: `save FILE` it first");
                return Step::Rejected;
            }
            self.say(&format!(
                "reloaded {} of the rules; the new rules stop at action {} of {}, '{}': {}; the game goes on from \
                 the {} before it",
                text::count(files as u64, "file"),
                d.index + 1,
                file.log.len(),
                d.command,
                d.reason,
                text::count(game.log().len() as u64, "action")
            ));
        } else {
            self.say(&format!(
                "reloaded {} of the rules and replayed the game's {} on them",
                text::count(files as u64, "file"),
                text::count(game.log().len() as u64, "action")
            ));
        }
        let kept = self.saved.clone();
        self.game = game;
        // What was saved stays saved if the replay kept all of it.
        self.saved = if div.is_none() { kept } else { vec![] };
        self.winner_announced = self.game.winner().is_some();
        self.shown = self.game.messages().len();
        self.last_board = None;
        self.rebind_bots();
        Step::Ok
    }

    /// `--watch`: reloads the rules when a file of the stack changed on disk, before the
    /// next command is taken.
    pub(super) fn reload_if_changed(&mut self) {
        if self.config.watch && self.rules_changed() {
            self.say("a file of the rules changed on disk: reloading");
            self.reload();
        }
    }

    /// Whether a file of the loaded stack differs on disk from what was loaded.
    fn rules_changed(&self) -> bool {
        self.game.stack_files().iter().any(|(chunk, source)| bounded::read_file(chunk).is_ok_and(|now| now != *source))
    }

    /// Undoes back to before the last action of a human seat.
    pub(super) fn undo(&mut self) -> Step {
        let log = self.game.log();
        let Some(pos) = log.iter().rposition(|e| !self.is_bot(e.seat)) else {
            self.error("nothing to undo");
            return Step::Rejected;
        };
        let n = log.len() - pos;
        let what = log[pos].command.clone();
        // The bots' actions after it go too: say whose and how many.
        let mut by_seat: Vec<(usize, u64)> = vec![];
        for e in &log[pos + 1..] {
            match by_seat.iter_mut().find(|(s, _)| *s == e.seat) {
                Some((_, k)) => *k += 1,
                None => by_seat.push((e.seat, 1)),
            }
        }
        let also = if by_seat.is_empty() {
            String::new()
        } else {
            let each: Vec<String> =
                by_seat.iter().map(|&(s, k)| format!("{} {k}", super::seat_name(&self.game, s))).collect();
            format!(", and the {} after it ({})", text::count((n - 1) as u64, "bot action"), each.join(", "))
        };
        match self.game.undo(n) {
            Ok(()) => {
                self.shown = self.game.messages().len();
                self.say(&format!("undone: {what}{also}"));
                Step::Ok
            }
            Err(e) => {
                self.error(&format!("cannot undo: {e}"));
                Step::Rejected
            }
        }
    }
}

/// The warning for a save that stopped agreeing with its replay.
pub(super) fn diverged(path: &str, d: &crate::engine::Divergence, game: &Game) -> String {
    format!(
        "warning: {d} (in {path}); loaded the {} actions before it. `save {path}` will not replace \
         it with fewer actions unless you add --force",
        game.log().len()
    )
}

/// Why saving `game` to `path` would lose actions: the file there is a save whose log is
/// not a beginning of this game's log (it holds actions this game does not).
pub(super) fn would_lose(path: &str, game: &Game) -> Option<String> {
    let text = bounded::read_file(path).ok()?;
    let old: crate::engine::SaveFile = serde_json::from_str(&text).ok()?;
    let log = game.log();
    let kept = old.header == *game.header() && old.log.len() <= log.len() && old.log[..] == log[..old.log.len()];
    (!kept).then(|| format!("{path} holds a game of {} actions that this one does not continue", old.log.len()))
}

pub(super) fn load_game(path: &str) -> Result<(Game, Option<crate::engine::Divergence>), GameError> {
    Game::replay(&read_save(path).map_err(GameError::Setup)?)
}

/// The saved game at `path`: a save file, or one game of `catan sim --out FILE.jsonl`'s
/// rows, picked as `FILE.jsonl#3` (game 3), `FILE.jsonl#B:3` (game 3 of side B of a
/// comparison, or of a sweep's value B); a file of one row needs no pick. Read through
/// the bounded reader: a save up to its cap, rows one line at a time.
pub fn read_save(path: &str) -> Result<SaveFile, String> {
    // A file whose name holds '#' is still read whole.
    let (file, which) = match path.rsplit_once('#') {
        Some((file, which)) if !Path::new(path).exists() => (file, Some(which)),
        _ => (path, None),
    };
    let cannot = |e: bounded::ReadError| format!("cannot read {file}: {e}");
    let mut lines = bounded::file_lines(file).map_err(cannot)?;
    // Rows of a run are objects, one a line, each with its game's index; a save is one
    // object, most often over many lines.
    let first = match lines.by_ref().find(|l| l.as_ref().map_or(true, |l| !l.trim().is_empty())) {
        Some(Ok(line)) => line,
        Some(Err(e)) => return Err(cannot(e)),
        None if which.is_some() => return Err(format!("{file} holds no game")),
        None => return Err(format!("{file} is not a saved game: it is empty")),
    };
    if which.is_none() && !is_row(&first) {
        let text = bounded::read_file(file).map_err(cannot)?;
        return serde_json::from_str::<SaveFile>(&text).map_err(|e| format!("{file} is not a saved game: {e}"));
    }
    let rows = std::iter::once(Ok(first)).chain(lines.map(|l| l.map_err(cannot)));
    crate::sim::save_from_rows(rows, which, file)
}

/// Whether `line` looks like a row of `catan sim --out` JSON Lines rather than (the
/// beginning of) a save file.
fn is_row(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line).is_ok_and(|v| v.get("game").is_some() && v.get("seed").is_some())
}

/// The folder autosaves go to: `$CATAN_HOME/autosave`, else `~/.catan/autosave`.
pub fn autosave_dir() -> Option<PathBuf> {
    let home = std::env::var_os("CATAN_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".catan")))?;
    Some(home.join("autosave"))
}

/// Writes `game` to a new file in `dir` named after its variants and seed (never over a
/// save it does not continue), and returns the path.
fn write_autosave(dir: &Path, game: &Game) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let h = game.header();
    let stem = format!("{}-seed{}", h.variants.join("+").replace(['/', '\\', '.'], "_"), h.seed);
    let mut path = dir.join(format!("{stem}.json"));
    let mut n = 1;
    while path.exists() && would_lose(&path.to_string_lossy(), game).is_some() {
        n += 1;
        path = dir.join(format!("{stem}-{n}.json"));
    }
    std::fs::write(&path, game.save_json())?;
    Ok(path)
}

/// The most recent autosave (`catan play --resume`).
pub fn last_autosave(dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = dir.or_else(autosave_dir).ok_or("no home folder to look for autosaves in (set CATAN_HOME)")?;
    let entries = std::fs::read_dir(&dir).map_err(|_| format!("no autosaved game in {}", dir.display()))?;
    entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
        .ok_or_else(|| format!("no autosaved game in {}", dir.display()))
}
