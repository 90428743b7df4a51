//! Search's cheap forks: a position put aside (`Game::snapshot`, `Game::snapshot_since`)
//! and put back (`Game::restore`) on the same loaded rules, for bots that try action after
//! action from one position.

use super::{Game, LogEntry};
use crate::script::Message;
use crate::state::GameState;

impl Game {
    /// The position as it stands, to come back to after trying actions on this `Game`.
    pub fn snapshot(&self) -> Snapshot {
        let script = self.script();
        Snapshot {
            state: self.state().clone(),
            log_len: self.log.len(),
            messages_len: self.messages.len(),
            message_bytes: self.message_bytes,
            grid_stamps: None,
            stamps: std::sync::OnceLock::from(script.stamps()),
            since: None,
        }
    }

    /// The position as `snapshot` takes it, carrying the log's entries and the messages
    /// since `base`, a position this line of play passed through: it can be put back after
    /// `base` (or a position after it on another line) is, where a plain snapshot would
    /// find the log cut at `base`. A bot that tried several actions from `base` puts back
    /// the best one's outcome so, instead of performing it again.
    pub fn snapshot_since(&self, base: &Snapshot) -> Snapshot {
        let (log_from, messages_from) = (base.log_len.min(self.log.len()), base.messages_len.min(self.messages.len()));
        Snapshot {
            since: Some(Box::new(Since {
                log: self.log[log_from..].to_vec(),
                messages: self.messages[messages_from..].to_vec(),
            })),
            ..self.snapshot()
        }
    }

    /// Puts back a position taken by `snapshot` of this game (or one made from it by
    /// `Snapshot::with_state`): the state, and the log and messages cut to their length
    /// then (a snapshot taken by `snapshot_since` puts back the entries it carries). The
    /// loaded scripts are reused, and the state put in place shares its parts
    /// with the snapshot's (`state::Shared`), so a fork costs a count per part; the
    /// actions played after it copy the parts they write. The position's stamps come back
    /// with it (`script::Stamps`), so what the rules kept of it (`g:cached`, hooks declared
    /// `when_changed`) is good again: a bot that tries action after action from one
    /// position computes again only what each action changed. A snapshot made by
    /// `with_state` gets its stamps at its first restore.
    pub fn restore(&mut self, snap: &Snapshot) {
        let script = self.script();
        let owner = script.stamps_owner();
        let stamps = snap.stamps.get().filter(|s| s.owner == owner);
        script.with_ctx(|c| {
            c.state = snap.state.clone();
            c.output().clear();
            match stamps {
                Some(s) => c.put_back_stamps(s),
                None => {
                    // What rules keep by a seat's grids is good again for the grids put back.
                    if let Some(g) = &snap.grid_stamps {
                        c.put_back_grid_stamps(g);
                    }
                }
            }
        });
        if stamps.is_none() && snap.stamps.get().is_none() {
            let _ = snap.stamps.set(script.stamps());
        }
        // What a snapshot taken by `snapshot_since` carries starts where its base's log
        // and messages ended.
        let since =
            snap.since.as_deref().map(|s| (s, snap.log_len - s.log.len(), snap.messages_len - s.messages.len()));
        match since {
            // Only after a position of the line it was taken on: the log up to where it
            // starts is that line's.
            Some((since, log_from, messages_from))
                if self.log.len() >= log_from && self.messages.len() >= messages_from =>
            {
                self.log.truncate(log_from);
                self.log.extend_from_slice(&since.log);
                self.messages.truncate(messages_from);
                self.messages.extend_from_slice(&since.messages);
            }
            _ => {
                self.log.truncate(snap.log_len);
                self.messages.truncate(snap.messages_len);
            }
        }
        self.message_bytes = snap.message_bytes;
        // The seat to act belongs to the state put aside, not to the one put back.
        self.next.set(None);
        self.checkpoint = None;
    }
}

/// A saved position of a `Game` for search (`Game::snapshot`, `Game::restore`).
#[derive(Debug, Clone)]
pub struct Snapshot {
    state: GameState,
    log_len: usize,
    messages_len: usize,
    message_bytes: usize,
    /// The slot grids' stamps with which `state` was taken, for a snapshot made by
    /// `with_state` (None: unknown, or `stamps` has them).
    grid_stamps: Option<crate::script::GridStamps>,
    /// Every stamp of the position (`script::Stamps`); a snapshot made by `with_state`
    /// takes them at its first restore.
    stamps: std::sync::OnceLock<crate::script::Stamps>,
    /// The log's entries and the messages from a position before this one
    /// (`Game::snapshot_since`), put back with it.
    since: Option<Box<Since>>,
}

/// What a snapshot taken by `Game::snapshot_since` carries of the log and the messages:
/// their last entries, up to the snapshot's lengths (where they start follows).
#[derive(Debug, Clone)]
struct Since {
    log: Vec<LogEntry>,
    messages: Vec<(usize, Message)>,
}

impl Snapshot {
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The same position with another state, such as a determinization of it. Its
    /// stamps are its own, taken at its first restore; the grids' stamps go with it only
    /// where its slot grids are this one's (a determinization deals hidden cards, and
    /// grids are open).
    pub fn with_state(&self, state: GameState) -> Snapshot {
        let grids = self.stamps.get().map(|s| s.grids().clone()).or_else(|| self.grid_stamps.clone());
        let grid_stamps = grids.filter(|_| state.grids == self.state.grids);
        Snapshot {
            state,
            log_len: self.log_len,
            messages_len: self.messages_len,
            message_bytes: self.message_bytes,
            grid_stamps,
            stamps: std::sync::OnceLock::new(),
            since: self.since.clone(),
        }
    }
}
