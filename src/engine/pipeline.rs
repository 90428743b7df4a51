//! The action pipeline of `Game`: an action performed all or nothing (a checkpoint every
//! `CHECKPOINT_EVERY` actions, and the state rebuilt from it when an action fails after
//! changing anything), tried once more without kept values when it ran out of Lua memory;
//! and a random draw performed in the same call into the rules (`play_drawn`).

use super::{Drawn, Game, GameError, LogEntry, Outcome, CHECKPOINT_EVERY, REPLAY_HEADROOM};
use crate::action::Action;
use crate::script::{Played, ScriptError, ScriptErrorKind, GAME_MESSAGES_CAP, MEMORY_CAP};

impl Game {
    /// Runs one action through the pipeline; on any refusal or failure the state is
    /// exactly as before.
    pub fn perform(&mut self, seat: usize, action: &Action) -> Result<Outcome, GameError> {
        match self.perform_once(seat, action) {
            // The Lua heap holds, besides what the rules and this action need, whatever
            // `g:cached` kept for earlier listings, forks and searches, which differ
            // between a game and the replay of its save. So an action that ran out of
            // Lua memory is tried once more with none of it kept: whether it fits depends
            // on the game alone (and a replay, which knows it fitted, has headroom for
            // the engine's own small tables: REPLAY_HEADROOM).
            Err(GameError::Script(e)) if e.kind == ScriptErrorKind::Memory => {
                self.script().forget_kept()?;
                self.perform_once(seat, action)
            }
            other => other,
        }
    }

    fn perform_once(&mut self, seat: usize, action: &Action) -> Result<Outcome, GameError> {
        self.seat_exists(seat)?;
        let version = self.begin_action();
        // An action must leave someone to act: one after which `to_act` fails (a hook
        // answering the wrong type) is refused with that hook's error.
        let result = self.script().perform(seat, action).and_then(|next| self.messages_fit().map(|()| next));
        match result {
            Ok(next) => Ok(self.finish_action(seat, action, next)),
            Err(e) => {
                self.undo_action(version)?;
                Err(GameError::Script(e))
            }
        }
    }

    /// A random draw for `seat` with the numbers in `rnd` and its performance, in one call
    /// into the rules: the same action as `sample_action`, performed as `perform` performs
    /// it (`RandomBot::play`). Anything out of the ordinary (an error, an option the engine
    /// reads only through mlua) puts the state back and takes the two calls, which say what
    /// went wrong as they always have.
    pub fn play_drawn(&mut self, seat: usize, rnd: &[f64]) -> Result<Drawn, GameError> {
        self.seat_exists(seat)?;
        let version = self.begin_action();
        let played = self.script().play(seat, rnd).and_then(|p| match p {
            Played::Done(..) => self.messages_fit().map(|()| p).map_err(|_| ()),
            other => Ok(other),
        });
        match played {
            Ok(Played::More) => return Ok(Drawn::More),
            Ok(Played::Nothing) => return Ok(Drawn::Nothing),
            Ok(Played::Done(action, next)) => {
                let outcome = self.finish_action(seat, &action, next);
                return Ok(Drawn::Played(action, outcome));
            }
            Err(()) => self.undo_action(version)?,
        }
        Ok(match self.sample_action(seat, rnd)? {
            Err(()) => Drawn::More,
            Ok(chosen) => self.perform_chosen(seat, chosen),
        })
    }

    /// What a bot chose for `seat`, performed (`perform`): `Drawn::Nothing` when it had
    /// nothing to choose from.
    pub fn perform_chosen(&mut self, seat: usize, chosen: Option<Action>) -> Drawn {
        match chosen {
            None => Drawn::Nothing,
            Some(action) => match self.perform(seat, &action) {
                Ok(outcome) => Drawn::Played(action, outcome),
                Err(e) => Drawn::Refused(action, e),
            },
        }
    }

    /// What an action starts from: the checkpoint brought up to date, no output left over;
    /// the state's version, to tell whether a failed action changed anything.
    fn begin_action(&mut self) -> Option<u64> {
        let at = self.log.len();
        self.script();
        let rules = self.rules.clone();
        let script = &rules.script;
        match &mut self.checkpoint {
            Some((_, n)) if at >= *n && at - *n < CHECKPOINT_EVERY => {}
            Some((copy, n)) => {
                copy.clone_from(&script.state());
                *n = at;
            }
            None => self.checkpoint = Some((script.state().clone(), at)),
        }
        #[cfg(debug_assertions)]
        {
            let before = self.state().clone();
            self.before = Some(before);
        }
        let version = self.script().version();
        self.script().with_output(|mut c| c.clear());
        version
    }

    /// The history lives in Rust, out of the Lua memory cap's sight: each call is bounded
    /// (HOST_MEMORY_CAP), and so is the whole game.
    fn messages_fit(&self) -> Result<(), ScriptError> {
        let bytes: usize =
            self.script().with_output(|c| c.messages.iter().map(|m| m.text.len()).sum::<usize>() + *c.quiet_bytes);
        if self.message_bytes + bytes > GAME_MESSAGES_CAP {
            return Err(ScriptError::new(
                ScriptErrorKind::Memory,
                format!(
                    "the game's messages would pass {} MiB (a script logging without bound?)",
                    GAME_MESSAGES_CAP >> 20
                ),
            ));
        }
        Ok(())
    }

    /// An action performed: logged, and what it produced taken.
    fn finish_action(&mut self, seat: usize, action: &Action, next: Option<usize>) -> Outcome {
        self.next.set(next);
        let draws = self.script().with_output(|c| std::mem::take(c.draws));
        let command = action.to_text(&self.script().spec, &self.state());
        self.log.push(LogEntry { seat, command, draws, sandbox: false });
        let outcome = self.take_outcome();
        self.record(self.log.len(), outcome.messages.clone());
        outcome
    }

    /// An action that failed: the state put back as it was before (refused before anything
    /// changed, the usual refusal as `when` or `legal` said no, there is nothing to put back).
    fn undo_action(&mut self, version: Option<u64>) -> Result<(), GameError> {
        let rebuilt = if self.script().version() != version { self.rebuild() } else { Ok(()) };
        self.script().with_output(|mut c| c.clear());
        rebuilt
    }

    /// Puts back the state before the action that just failed: the checkpoint, then the
    /// logged actions since, performed again (the rules are deterministic: a saved game
    /// replays so). Their messages were recorded the first time and are dropped.
    fn rebuild(&mut self) -> Result<(), GameError> {
        let Some((copy, from)) = self.checkpoint.take() else {
            return Err(GameError::Setup("no copy of the state to put back".into()));
        };
        self.script().with_ctx(|c| c.state.clone_from(&copy));
        // These actions fitted once: the headroom keeps the engine's own tables (which
        // may have grown since) from refusing them now.
        let cap = self.script().set_memory_cap(MEMORY_CAP + REPLAY_HEADROOM)?;
        let mut result = Ok(());
        for entry in self.log.get(from..).unwrap_or_default() {
            let again = {
                let st = self.state();
                Action::parse(&self.script().spec, &st, &entry.command)
            }
            .map_err(GameError::from)
            .and_then(|a| self.script().perform(entry.seat, &a).map_err(GameError::Script));
            self.script().with_output(|mut c| c.clear());
            if let Err(e) = again {
                result = Err(GameError::Setup(format!(
                    "the state before the failed action could not be rebuilt: '{}' was refused the second time \
                     (do the rules depend on something outside the game state?): {e}",
                    entry.command
                )));
                break;
            }
        }
        self.checkpoint = Some((copy, from));
        self.script().set_memory_cap(cap)?;
        #[cfg(debug_assertions)]
        if result.is_ok() {
            if let Some(before) = &self.before {
                assert!(*self.state() == *before, "the rebuilt state differs from the one before the action");
            }
        }
        result
    }
}
