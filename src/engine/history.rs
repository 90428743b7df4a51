//! Save, load and undo: a game is its header and its log, and both load and undo replay
//! the log (a fork's undo replays its own actions from the state it was forked at).

use super::{Divergence, Game, GameError, LogEntry, SaveFile, REPLAY_HEADROOM};
use crate::script::MEMORY_CAP;
use crate::state::GameState;

impl Game {
    pub fn save_file(&self) -> SaveFile {
        SaveFile { format: 1, header: self.header.clone(), log: self.log.clone() }
    }

    pub fn save_json(&self) -> String {
        serde_json::to_string_pretty(&self.save_file()).unwrap_or_default()
    }

    /// Replays a saved game. Returns the game as far as the log agrees with the replay,
    /// and the first divergence if there is one.
    pub fn replay(file: &SaveFile) -> Result<(Game, Option<Divergence>), GameError> {
        if file.format != 1 {
            return Err(GameError::Setup(format!(
                "save format {} is not supported (this engine reads 1)",
                file.format
            )));
        }
        let mut game = Game::new(file.header.clone())?;
        // Every logged action fitted in the Lua memory cap once, with no value `g:cached`
        // kept if it needed the room (`perform`); the headroom covers what the engine's
        // own tables may hold more here than they did then.
        game.script().set_memory_cap(MEMORY_CAP + REPLAY_HEADROOM)?;
        let result = game.replay_log(file);
        game.script().set_memory_cap(MEMORY_CAP)?;
        Ok((game, result?))
    }

    fn replay_log(&mut self, file: &SaveFile) -> Result<Option<Divergence>, GameError> {
        let game = self;
        for (i, entry) in file.log.iter().enumerate() {
            let result = if entry.sandbox {
                game.sandbox(entry.seat, &entry.command)
            } else {
                game.act(entry.seat, &entry.command)
            };
            if let Err(e) = result {
                return Ok(Some(Divergence { index: i, command: entry.command.clone(), reason: e.to_string() }));
            }
            let got = &game.log[game.log.len() - 1].draws;
            if !entry.sandbox && got != &entry.draws {
                let reason = format!("random draws differ (logged {:?}, replayed {:?})", entry.draws, got);
                game.undo(1)?;
                return Ok(Some(Divergence { index: i, command: entry.command.clone(), reason }));
            }
        }
        Ok(None)
    }

    pub fn load_json(text: &str) -> Result<(Game, Option<Divergence>), GameError> {
        let file: SaveFile =
            serde_json::from_str(text).map_err(|e| GameError::Setup(format!("not a saved game: {e}")))?;
        Game::replay(&file)
    }

    /// Takes back the last `n` logged actions by replaying the rest.
    pub fn undo(&mut self, n: usize) -> Result<(), GameError> {
        if n > self.log.len() && self.origin.is_some() {
            return Err(GameError::Setup(format!(
                "only {} actions were played on this fork: it cannot be undone past the fork (its dice are not the game's)",
                self.log.len()
            )));
        }
        if n > self.log.len() {
            return Err(GameError::Setup(format!("only {} actions to undo", self.log.len())));
        }
        let keep = self.log.len() - n;
        if let Some(origin) = self.origin.clone() {
            return self.undo_fork(&origin, keep);
        }
        let file = SaveFile { format: 1, header: self.header.clone(), log: self.log[..keep].to_vec() };
        let (game, div) = Game::replay(&file)?;
        if let Some(d) = div {
            return Err(GameError::Setup(format!("undo failed: {d}")));
        }
        *self = game;
        Ok(())
    }

    /// Undo on a fork: its state when forked, then its own logged actions up to `keep`
    /// played again (their messages count against the cap once more: it only tightens).
    fn undo_fork(&mut self, state: &GameState, keep: usize) -> Result<(), GameError> {
        self.script().with_ctx(|c| {
            c.state.clone_from(state);
            c.output().clear();
        });
        self.checkpoint = Some((state.clone(), 0));
        let entries: Vec<LogEntry> = std::mem::take(&mut self.log);
        self.messages.clear();
        self.next.set(None);
        let cap = self.script().set_memory_cap(MEMORY_CAP + REPLAY_HEADROOM)?;
        let mut result = Ok(());
        for entry in &entries[..keep] {
            let done = if entry.sandbox {
                self.sandbox(entry.seat, &entry.command)
            } else {
                self.act(entry.seat, &entry.command)
            };
            if let Err(e) = done {
                result = Err(GameError::Setup(format!("undo failed at '{}': {e}", entry.command)));
                break;
            }
        }
        self.script().set_memory_cap(cap)?;
        result
    }
}
