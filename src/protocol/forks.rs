//! Forks over the protocol: a program (`catan serve`) or an external bot in the middle of
//! a decision (`--bot-cmd`) opens copies of the position, acts on them, reads them and
//! drops them, without touching the real game (docs/protocol.md, "Forks").
//!
//! A fork is fair: its random generator is reseeded (its dice and draws are not the
//! game's), and, made for a seat, the cards that seat cannot see are dealt again from
//! what it can know, as the engine's bots do (`bot::determinize`). An external bot's forks
//! are always its own seat's. Forks are kept as positions (`Snapshot`) and played on a
//! scratch copy of the game (its own loaded rules), so the real game's state, log and
//! messages are never written.
//!
//! Limits: at most [`MAX_OPEN_FORKS`] open at once, [`MAX_FORK_ACTIONS`] actions on one
//! fork, and, for a bot, [`MAX_DECISION_ACTIONS`] actions on all its forks in one decision.

use super::ProtocolError;
use super::{legal_json, messages_json, observer, parse_action, parse_seat, seat_or_to_act, status_fields};
use crate::bot::determinize::determinize_view;
use crate::engine::{Game, Observer, Snapshot};
use crate::view::view;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value as J};
use std::collections::BTreeMap;

/// Forks open at once (each holds a copy of the state).
pub const MAX_OPEN_FORKS: usize = 64;
/// Actions on one fork: as many as a whole game of `catan sim` may take.
pub const MAX_FORK_ACTIONS: usize = crate::sim::MAX_ACTIONS;
/// Actions an external bot may take on all its forks within one decision.
pub const MAX_DECISION_ACTIONS: usize = 200_000;

/// The requests that may name a fork (`"fork": ID`); `fork` and `drop` are about forks only.
pub const FORK_COMMANDS: [&str; 6] = ["fork", "drop", "act", "legal", "view", "status"];

/// A fair fork of `game`'s position: its random generator reseeded from `seed`, so its
/// dice and draws are not the game's, dice forced in the sandbox forgotten, and, given a
/// seat, every card that seat cannot see dealt again as the engine's bots do
/// (`determinize`). The one place a fork is made: `Game::fork`, once the engine has it,
/// can take its place.
pub fn fork_position(game: &Game, seat: Option<usize>, seed: u64) -> Snapshot {
    let snap = game.snapshot();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The same fairness as `Game::fork`: without a seat, the zones nobody sees (draw
    // stacks) are dealt again too, or a seatless fork would show the deck's real order.
    let mut state = determinize_view(game.spec(), snap.state(), seat, &mut rng);
    state.forced_dice.clear();
    snap.with_state(state)
}

/// How far forks may go: [`MAX_OPEN_FORKS`], [`MAX_FORK_ACTIONS`],
/// [`MAX_DECISION_ACTIONS`] by default (tests set smaller ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForkLimits {
    pub open: usize,
    pub actions_per_fork: usize,
    pub actions_per_decision: usize,
}

impl Default for ForkLimits {
    fn default() -> Self {
        ForkLimits {
            open: MAX_OPEN_FORKS,
            actions_per_fork: MAX_FORK_ACTIONS,
            actions_per_decision: MAX_DECISION_ACTIONS,
        }
    }
}

/// One open fork.
struct Fork {
    position: Snapshot,
    seed: u64,
    /// The game's actions when the fork was made, plus those taken on it.
    actions: usize,
    /// Actions taken on it (at most [`ForkLimits::actions_per_fork`]).
    taken: usize,
}

/// An external bot's decision: its seat (every fork is that seat's) and what it may still do.
struct Decision {
    seat: usize,
    actions_left: usize,
}

/// The forks of one session (`catan serve`) or of one external bot.
#[derive(Default)]
pub struct Forks {
    open: BTreeMap<u64, Fork>,
    next_id: u64,
    /// Forks made so far, for the seed of one made without a `seed`.
    made: u64,
    /// Where forks are played: a copy of the game on its own loaded rules, made at the first
    /// fork and kept while the rules stay the same.
    scratch: Option<Game>,
    /// The seed the default seeds of forks follow from.
    seed: u64,
    decision: Option<Decision>,
    limits: ForkLimits,
    /// The fork whose position the scratch game holds, if it holds one's as it stands.
    loaded: Option<u64>,
}

fn limit(message: String) -> ProtocolError {
    ProtocolError::new("limit", message)
}

/// SplitMix64: a fork's default seed from the session's and a count, below 2^53 so that
/// a program whose numbers are doubles (JavaScript) reads it exactly.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) >> 11
}

impl Forks {
    pub fn new() -> Forks {
        Forks::default()
    }

    /// Forks within other limits than the default ones.
    pub fn with_limits(limits: ForkLimits) -> Forks {
        Forks { limits, ..Forks::default() }
    }

    /// Whether a request is about forks: `fork`, `drop`, or one that names a `fork`.
    pub fn is_fork_request(cmd: &str, obj: &Map<String, J>) -> bool {
        matches!(cmd, "fork" | "drop") || obj.get("fork").is_some_and(|f| !f.is_null())
    }

    /// Forgets every fork and the scratch game (a `new` or `load`: other rules, maybe).
    pub fn clear(&mut self) {
        *self = Forks::with_limits(self.limits);
    }

    /// How many forks are open.
    pub fn open(&self) -> usize {
        self.open.len()
    }

    /// An external bot's decision begins: forks are `seat`'s, their default seeds follow
    /// from `seed` (the bot's for this game) and `actions` (the game's so far).
    pub fn begin_decision(&mut self, seat: usize, seed: u64, actions: usize) {
        self.open.clear();
        self.made = 0;
        self.seed = mix(seed, actions as u64);
        self.decision = Some(Decision { seat, actions_left: self.limits.actions_per_decision });
    }

    /// The decision is over: its forks are dropped (the scratch game is kept).
    pub fn end_decision(&mut self) {
        self.open.clear();
        self.decision = None;
    }

    /// The scratch game, a copy of `game` on its own rules (made again if `game`'s rules,
    /// players or options changed).
    fn scratch(&mut self, game: &Game) -> Result<&mut Game, ProtocolError> {
        let same = |s: &Game| {
            let (a, b) = (s.header(), game.header());
            a.variants == b.variants && a.players == b.players && a.options == b.options
        };
        if !self.scratch.as_ref().is_some_and(same) {
            self.scratch = Some(game.try_clone().map_err(|e| ProtocolError::new("setup", e.to_string()))?);
            self.loaded = None;
        }
        self.scratch.as_mut().ok_or_else(|| ProtocolError::new("setup", "no copy of the game"))
    }

    /// The scratch game holding fork `id`'s position: put there unless it holds it already
    /// (the last request was about this fork), so a fork played action after action is not
    /// copied back in before each.
    fn load(&mut self, game: &Game, id: u64) -> Result<&mut Game, ProtocolError> {
        self.get(id)?;
        let loaded = self.loaded;
        self.scratch(game)?;
        let (Some(scratch), Some(fork)) = (self.scratch.as_mut(), self.open.get(&id)) else {
            return Err(ProtocolError::new("no_fork", format!("no fork {id}")));
        };
        if loaded != Some(id) {
            scratch.restore(&fork.position);
            self.loaded = Some(id);
        }
        Ok(scratch)
    }

    fn id(obj: &Map<String, J>) -> Result<Option<u64>, ProtocolError> {
        match obj.get("fork") {
            None | Some(J::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| ProtocolError::new("protocol", format!("`fork` is a fork's number, not {v}"))),
        }
    }

    fn get(&self, id: u64) -> Result<&Fork, ProtocolError> {
        self.open.get(&id).ok_or_else(|| {
            let open: Vec<String> = self.open.keys().map(u64::to_string).collect();
            let open = if open.is_empty() { "none".to_string() } else { open.join(", ") };
            ProtocolError::new("no_fork", format!("no fork {id} (open: {open}; `fork` opens one)"))
        })
    }

    /// The status of fork `id`, loaded in the scratch game.
    fn status_of(&self, id: u64) -> Result<Map<String, J>, ProtocolError> {
        match (self.scratch.as_ref(), self.open.get(&id)) {
            (Some(scratch), Some(fork)) => Ok(Forks::status(scratch, id, fork)),
            _ => Err(ProtocolError::new("no_fork", format!("no fork {id}"))),
        }
    }

    /// The status of fork `id` as it stands in the scratch game.
    fn status(scratch: &Game, id: u64, fork: &Fork) -> Map<String, J> {
        let mut m = status_fields(scratch);
        m.insert("fork".into(), json!(id));
        m.insert("seed".into(), json!(fork.seed));
        m.insert("actions".into(), json!(fork.actions));
        m
    }

    /// Answers a request about forks (see [`Forks::is_fork_request`]) on `game`, the real
    /// game, which is only read.
    pub fn handle(&mut self, game: &Game, cmd: &str, obj: &Map<String, J>) -> Result<Map<String, J>, ProtocolError> {
        let all = cmd == "drop" && obj.get("fork").is_some_and(|f| f == "all");
        let id = if all { None } else { Forks::id(obj)? };
        match cmd {
            "fork" => self.fork(game, id, obj),
            "drop" => {
                match id {
                    None if all => self.open.clear(),
                    Some(id) => {
                        self.get(id)?;
                        self.open.remove(&id);
                    }
                    None => {
                        return Err(ProtocolError::new("protocol", "`drop` needs a `fork`: its number, or \"all\""))
                    }
                }
                let mut m = Map::new();
                m.insert("open".into(), json!(self.open.len()));
                Ok(m)
            }
            "act" | "legal" | "view" | "status" => {
                let Some(id) = id else {
                    return Err(ProtocolError::new("protocol", format!("`{cmd}` on a fork needs its `fork` number")));
                };
                self.on_fork(game, id, cmd, obj)
            }
            other => Err(ProtocolError::new(
                "protocol",
                format!("`{other}` is not for forks (a fork takes: {})", FORK_COMMANDS.join(", ")),
            )),
        }
    }

    fn fork(&mut self, game: &Game, from: Option<u64>, obj: &Map<String, J>) -> Result<Map<String, J>, ProtocolError> {
        let most = self.limits.open;
        if self.open.len() >= most {
            return Err(limit(format!("{most} forks are open, the most at once: `drop` one first")));
        }
        let seat = match (obj.get("seat"), &self.decision) {
            (None | Some(J::Null), None) => None,
            (Some(v), None) => Some(parse_seat(game, v)?),
            (None | Some(J::Null), Some(d)) => Some(d.seat),
            (Some(v), Some(d)) => {
                let s = parse_seat(game, v)?;
                if s != d.seat {
                    return Err(ProtocolError::new(
                        "refused",
                        format!("a bot forks from its own seat's view ({}), not seat {}", d.seat + 1, s + 1),
                    ));
                }
                Some(s)
            }
        };
        let seed = match obj.get("seed") {
            // A bot's from its seed (never from the game's, which it must not learn).
            None | Some(J::Null) if self.decision.is_some() => mix(self.seed, self.made),
            None | Some(J::Null) => mix(mix(game.header().seed, game.log().len() as u64), self.made),
            Some(v) => v
                .as_u64()
                .ok_or_else(|| ProtocolError::new("protocol", format!("`seed` is a whole number, not {v}")))?,
        };
        let (position, actions) = match from {
            None => (fork_position(game, seat, seed), game.log().len()),
            Some(f) => {
                let actions = self.get(f)?.actions;
                (fork_position(self.load(game, f)?, seat, seed), actions)
            }
        };
        self.made += 1;
        self.next_id += 1;
        let id = self.next_id;
        self.open.insert(id, Fork { position, seed, actions, taken: 0 });
        self.load(game, id)?;
        self.status_of(id)
    }

    fn on_fork(
        &mut self,
        game: &Game,
        id: u64,
        cmd: &str,
        obj: &Map<String, J>,
    ) -> Result<Map<String, J>, ProtocolError> {
        if cmd == "act" {
            let (fork, limits) = (self.get(id)?, self.limits);
            if fork.taken >= limits.actions_per_fork {
                let most = limits.actions_per_fork;
                return Err(limit(format!("fork {id} has taken {most} actions, the most on one fork")));
            }
            if self.decision.as_ref().is_some_and(|d| d.actions_left == 0) {
                let most = limits.actions_per_decision;
                return Err(limit(format!(
                    "{most} actions on forks in this decision, the most on all forks of one decision: answer with \
                     an action"
                )));
            }
        }
        let bot = self.decision.is_some();
        let scratch = self.load(game, id)?;
        let mut out = Map::new();
        match cmd {
            "legal" => {
                let seat = seat_or_to_act(scratch, obj.get("seat"))?;
                if let J::Object(m) = legal_json(scratch, seat)? {
                    out.extend(m);
                }
                out.insert("fork".into(), json!(id));
            }
            "view" => {
                let obs = observer(scratch, obj.get("seat"))?;
                if bot && obs == Observer::Referee {
                    return Err(ProtocolError::new("refused", "a bot sees a fork as a seat or a spectator does"));
                }
                out.insert("view".into(), view(scratch, obs));
                out.insert("fork".into(), json!(id));
            }
            "status" => {
                let fork = self.open.get(&id).ok_or_else(|| ProtocolError::new("no_fork", "dropped"))?;
                let scratch = self.scratch.as_ref().ok_or_else(|| ProtocolError::new("setup", "no copy"))?;
                out.extend(Forks::status(scratch, id, fork));
            }
            _ => {
                if let Some(w) = scratch.winner() {
                    let color = super::color(scratch, w);
                    return Err(ProtocolError::new("game_over", format!("fork {id} is over: {color} won")));
                }
                let seat = seat_or_to_act(scratch, obj.get("seat"))?;
                let Some(a) = obj.get("action") else {
                    return Err(ProtocolError::new("protocol", "`act` needs an `action`: its text or an object"));
                };
                let action = parse_action(scratch, a)?;
                let outcome = scratch.perform(seat, &action)?;
                let done = scratch.log().last().map(|e| e.command.clone());
                let after = scratch.snapshot();
                let scratch = self.scratch.as_ref().ok_or_else(|| ProtocolError::new("setup", "no copy"))?;
                let fork = self.open.get_mut(&id).ok_or_else(|| ProtocolError::new("no_fork", "dropped"))?;
                fork.position = after;
                fork.taken += 1;
                fork.actions += 1;
                if let Some(d) = &mut self.decision {
                    d.actions_left = d.actions_left.saturating_sub(1);
                }
                out.insert("done".into(), json!(done));
                out.insert("messages".into(), messages_json(&outcome));
                out.extend(Forks::status(scratch, id, fork));
            }
        }
        Ok(out)
    }
}
