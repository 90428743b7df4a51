//! Watching a finished or saved game (`catan web --watch FILE`): the save's log replayed
//! step by step, the spectator's view served at any step. FILE is a save or one game of
//! `catan sim --out FILE.jsonl`'s rows (`FILE.jsonl#N`, read by `repl::read_save` as
//! `catan play --load` reads it).
//!
//! The whole log is replayed once when the file is opened (each step's public messages
//! kept, a position kept every `SNAPSHOT_EVERY` steps); going to a step puts back the
//! nearest kept position at or before it and performs the few logged actions after it, so
//! a slider dragged over a long game answers at once and memory stays a few dozen states.
//! Only what a spectator may see leaves this file: the spectator view, public messages,
//! and secret actions by their first words only (as the REPL shows another seat's).

use crate::engine::{Game, LogEntry, Observer, SaveFile, Snapshot};
use crate::view::view;
use serde::Serialize;
use serde_json::{json, Value as J};

/// Steps between two kept positions: going to a step performs at most this many less one.
pub const SNAPSHOT_EVERY: usize = 32;

/// One logged action as a spectator reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// 1-based, as the protocol numbers seats.
    pub seat: usize,
    pub color: String,
    /// The command as typed, or a secret action's first words and "(hidden)".
    pub command: String,
    /// What the action told the whole table (private messages left out).
    pub messages: Vec<String>,
}

pub struct Replay {
    game: Game,
    log: Vec<LogEntry>,
    steps: Vec<Step>,
    /// What the set-up told the table, before the first step.
    setup: Vec<String>,
    /// `snapshots[i]`: the position after `i * SNAPSHOT_EVERY` steps.
    snapshots: Vec<Snapshot>,
    /// The step shown: the position after this many of the log's actions.
    at: usize,
    /// Where the log stopped agreeing with the rules (the replay ends before it).
    warning: Option<String>,
}

impl Replay {
    /// Reads FILE (a save, or `rows.jsonl#N`) and replays it.
    pub fn open(path: &str) -> Result<Replay, String> {
        Replay::new(crate::repl::read_save(path)?)
    }

    /// Replays `save` once, keeping each step's public messages and a position every
    /// `SNAPSHOT_EVERY` steps; a log that stops agreeing with the rules is watched up to
    /// there, with a warning.
    pub fn new(save: SaveFile) -> Result<Replay, String> {
        if save.format != 1 {
            return Err(format!("save format {} is not supported (this engine reads 1)", save.format));
        }
        let game = Game::new(save.header.clone()).map_err(|e| e.to_string())?;
        let setup = public(game.messages().iter().map(|(_, m)| m));
        let mut replay =
            Replay { snapshots: vec![game.snapshot()], game, log: vec![], steps: vec![], setup, at: 0, warning: None };
        for (i, entry) in save.log.into_iter().enumerate() {
            let messages = match replay.perform(&entry) {
                Ok(messages) => messages,
                Err(reason) => {
                    replay.warning =
                        Some(format!("the log diverges at action {} ('{}'): {reason}", i + 1, entry.command));
                    break;
                }
            };
            replay.steps.push(Step {
                seat: entry.seat + 1,
                color: replay.color(entry.seat),
                command: replay.shown_command(&entry),
                messages,
            });
            replay.log.push(entry);
            replay.at = replay.log.len();
            if replay.at.is_multiple_of(SNAPSHOT_EVERY) {
                replay.snapshots.push(replay.game.snapshot());
            }
        }
        Ok(replay)
    }

    /// Performs one logged action on the game as it stands, checking its random draws
    /// against the log's; answers its public messages.
    fn perform(&mut self, entry: &LogEntry) -> Result<Vec<String>, String> {
        let outcome = if entry.sandbox {
            self.game.sandbox(entry.seat, &entry.command)
        } else {
            self.game.act(entry.seat, &entry.command)
        }
        .map_err(|e| e.to_string())?;
        let got = self.game.log().last().map(|l| l.draws.clone()).unwrap_or_default();
        if !entry.sandbox && got != entry.draws {
            return Err(format!("random draws differ (logged {:?}, replayed {:?})", entry.draws, got));
        }
        Ok(public(outcome.messages.iter()))
    }

    fn color(&self, seat: usize) -> String {
        self.game.state().players.get(seat).map(|p| p.color.to_string()).unwrap_or_else(|| format!("seat {}", seat + 1))
    }

    /// The command as a spectator may read it: a secret action by its first words.
    fn shown_command(&self, entry: &LogEntry) -> String {
        let name = entry.command.split_whitespace().next().unwrap_or_default();
        let spec = self.game.spec();
        match spec.action(name) {
            Some(action) if spec.is_secret(name) => format!("{} (hidden)", action.leading_words()),
            _ => entry.command.clone(),
        }
    }

    /// How many steps the game has (the last shows the position at its end).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The step shown: the position after this many actions (0: after the set-up).
    pub fn at(&self) -> usize {
        self.at
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    pub fn setup_messages(&self) -> &[String] {
        &self.setup
    }

    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Shows the position after `step` actions (at most `len()`).
    pub fn go(&mut self, step: usize) -> Result<(), String> {
        if step > self.len() {
            return Err(format!("the game has {} steps: there is no step {step}", self.len()));
        }
        if step == self.at {
            return Ok(());
        }
        // Forward within the kept position's stretch: no need to go back to it.
        let from = if step > self.at && step / SNAPSHOT_EVERY == self.at / SNAPSHOT_EVERY {
            self.at
        } else {
            let k = step / SNAPSHOT_EVERY;
            self.game.restore(&self.snapshots[k]);
            k * SNAPSHOT_EVERY
        };
        self.at = from;
        for i in from..step {
            let entry = self.log[i].clone();
            self.perform(&entry)
                .map_err(|e| format!("step {} ('{}') replayed differently: {e}", i + 1, entry.command))?;
            self.at = i + 1;
        }
        Ok(())
    }

    /// The spectator's view of the position shown.
    pub fn view(&self) -> J {
        view(&self.game, Observer::Spectator)
    }

    /// The answer to a watching page's request (its WebSocket speaks `catan serve`'s
    /// protocol, and these two requests besides):
    /// - `{"cmd":"watch"}`: the whole game as a spectator reads it: `steps` (each logged
    ///   action: seat, colour, command, public messages), `setup` (the set-up's messages),
    ///   `warning`, then what `step` answers;
    /// - `{"cmd":"step","to":N}`: goes to step N (0 to `total`), answers `at`, `total`
    ///   and `view` (the spectator's view there).
    ///
    /// Anything else is answered with a `protocol` error naming the two.
    pub fn answer(&mut self, request: &J) -> J {
        let id = request.get("id").cloned().unwrap_or(J::Null);
        let fail = |kind: &str, message: String| json!({ "id": id, "ok": false, "error": { "kind": kind, "message": message } });
        match request.get("cmd").and_then(J::as_str) {
            Some("watch") => {
                let mut answer = self.position(&id);
                answer["steps"] = json!(self.steps);
                answer["setup"] = json!(self.setup);
                answer["warning"] = json!(self.warning);
                answer["header"] = json!(self.game.header());
                answer
            }
            Some("step") => {
                let Some(to) = request.get("to").and_then(J::as_u64) else {
                    return fail("protocol", "`step` takes `to`, a step number from 0".into());
                };
                match self.go(usize::try_from(to).unwrap_or(usize::MAX)) {
                    Ok(()) => self.position(&id),
                    Err(e) => fail("setup", e),
                }
            }
            Some(other) => fail(
                "protocol",
                format!("'{other}': a game being watched answers `watch` and `step` only (nobody acts in it)"),
            ),
            None => fail("protocol", "a request needs a `cmd` (`watch` or `step`)".into()),
        }
    }

    fn position(&self, id: &J) -> J {
        json!({ "id": id, "ok": true, "watch": true, "at": self.at, "total": self.len(), "view": self.view() })
    }
}

/// The texts of the messages every seat may read.
fn public<'a>(messages: impl Iterator<Item = &'a crate::script::Message>) -> Vec<String> {
    messages.filter(|m| m.to.is_none()).map(|m| m.text.clone()).collect()
}

/// The table's thread of a watched game (`catan web --watch FILE`, in place of
/// `table::Table`): opens FILE, reports the colours (no human seat) and any warning, then
/// serves. Every page is a spectator: it is pushed one update, marked `watch`, then asks
/// `watch` and `step` (`Replay::answer`); `hello`, `status` and `view` are answered for the
/// step shown. Returns when every socket and the server are gone.
pub(super) fn start(
    path: &str,
    updates: tokio::sync::watch::Sender<std::sync::Arc<super::table::Update>>,
    jobs: std::sync::mpsc::Receiver<super::table::Job>,
    ready: std::sync::mpsc::Sender<super::Ready>,
) {
    let mut replay = match Replay::open(path) {
        Ok(r) => r,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let colors: Vec<String> = replay.game.state().players.iter().map(|p| p.color.to_string()).collect();
    let players = colors.len();
    let warning =
        replay.warning.clone().map(|w| format!("{w} (in {path}); watching the {} actions before it", replay.len()));
    let _ = ready.send(Ok((colors, vec![false; players], warning)));
    // Every role is sent the spectator's payload (a watched game has no seat to play).
    let first = json!({
        "push": "update",
        "role": "spectator",
        "watch": true,
        "seat": null,
        "humans": [],
        "view": replay.view(),
        "legal": null,
        "at": replay.at(),
        "total": replay.len(),
    });
    let first = Some(first.to_string());
    let _ = updates.send(std::sync::Arc::new(super::table::Update {
        version: 1,
        log_length: 0,
        payloads: vec![first; players + 2],
    }));
    while let Ok(job) = jobs.recv() {
        let cmd = job.request.get("cmd").and_then(J::as_str).unwrap_or_default();
        let answer = match cmd {
            "hello" | "version" | "status" | "view" => {
                let id = job.request.get("id").cloned().unwrap_or(J::Null);
                let mut answer = replay.position(&id);
                answer["protocol"] = json!(crate::protocol::PROTOCOL_VERSION);
                answer
            }
            _ => replay.answer(&job.request),
        };
        let _ = job.reply.send(answer);
    }
}
