//! `Game`: the action pipeline (parse → legal? → apply → events → log), save/load by
//! replay and undo (`history.rs`), and sandbox edits (`sandbox.rs`). Every action is
//! all-or-nothing: the state is cloned before it runs and restored if any rule refuses or
//! any script fails. Clones and fair forks (`try_clone`, `fork`) share the loaded rules and
//! swap their states in.

mod history;
mod pipeline;
mod sandbox;
mod snapshot;

pub use snapshot::Snapshot;

use crate::action::{Action, ParseError};
use crate::script::{Message, Script, ScriptError, ScriptErrorKind};
use crate::spec::Spec;
use crate::state::{GameState, Piece};
use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What a game is made of before its first action: enough to replay it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub variants: Vec<String>,
    pub players: usize,
    pub seed: u64,
    /// Options as given by the user (validated against the variant).
    pub options: Vec<(String, String)>,
    pub sandbox: bool,
}

impl Header {
    /// A header as the command line and the Python package ask for a game: a variant stack
    /// as typed ("base+helpers", split at '+'), the variant's default number of players
    /// unless one is given, and options checked against the variants' declarations.
    pub fn from_args(
        stack: &str,
        players: Option<usize>,
        seed: u64,
        options: Vec<(String, String)>,
        sandbox: bool,
    ) -> Result<Header, String> {
        let variants: Vec<String> = stack.split('+').map(|s| s.trim().to_string()).collect();
        let spec = Script::load(&variants).map_err(|e| e.to_string())?.spec.clone();
        let header = Header { variants, players: players.unwrap_or(spec.default_players), seed, options, sandbox };
        crate::script::resolve_options(&spec, &header.options)?;
        Ok(header)
    }
}

/// Options as `--options-file FILE` (TOML, KEY = VALUE lines) and `--option KEY=VALUE`
/// give them: the file's first, each `KEY=VALUE` replacing the file's value of its key.
pub fn option_args(file: Option<&str>, given: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut out = vec![];
    if let Some(path) = file {
        let text = crate::bounded::read_file(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let table: toml::Table =
            toml::from_str(&text).map_err(|e| format!("{path}: {}", crate::bounded::toml_error(&text, &e)))?;
        for (k, v) in table {
            let v = match v {
                toml::Value::String(s) => s,
                other => other.to_string(),
            };
            out.push((k, v));
        }
    }
    for o in given {
        let (k, v) = o.split_once('=').ok_or_else(|| format!("--option takes KEY=VALUE, not '{o}'"))?;
        out.retain(|(key, _)| key != k.trim());
        out.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(out)
}

/// One logged action: who, what (as typed), and the random numbers it drew.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub seat: usize,
    pub command: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draws: Vec<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sandbox: bool,
}

impl LogEntry {
    /// Its outcome was drawn at random (a roll, a card drawn, a steal): what the bots
    /// average over determinizations instead of trusting one sample.
    pub fn drew(&self) -> bool {
        !self.draws.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    pub format: u32,
    pub header: Header,
    pub log: Vec<LogEntry>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GameError {
    /// The text is not an action of this game.
    Parse(ParseError),
    /// A rule or script refused or failed; the state is unchanged.
    Script(ScriptError),
    /// The game cannot be created or loaded as asked.
    Setup(String),
    /// A sandbox command was used outside sandbox mode, or went wrong.
    Sandbox(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Parse(e) => write!(f, "{e}"),
            GameError::Script(e) if e.kind == ScriptErrorKind::Rejected => {
                write!(f, "not allowed: {e}")
            }
            GameError::Script(e) => write!(f, "script error: {e}"),
            GameError::Setup(e) => write!(f, "{e}"),
            GameError::Sandbox(e) => write!(f, "{e}"),
        }
    }
}
impl std::error::Error for GameError {}

impl From<ScriptError> for GameError {
    fn from(e: ScriptError) -> Self {
        GameError::Script(e)
    }
}
impl From<ParseError> for GameError {
    fn from(e: ParseError) -> Self {
        GameError::Parse(e)
    }
}

/// What an action produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    pub messages: Vec<Message>,
    pub events: Vec<String>,
}

/// What `Game::play_drawn` (and `perform_chosen`) did: asked for more numbers, found
/// nothing to draw, performed the action drawn, or drew one that `perform` refused (the
/// state put back).
#[derive(Debug)]
pub enum Drawn {
    More,
    Nothing,
    Played(Action, Outcome),
    Refused(Action, GameError),
}

/// What `trace` shows of one action: the hooks and parts of the action that ran, in
/// order, and how it ended. Taken on a copy of the game: the game itself is unchanged.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Trace {
    /// The seat (0-based) and the command traced.
    pub seat: usize,
    pub command: String,
    pub entries: Vec<crate::script::TraceEntry>,
    /// Entries past the cap of one traced call (2,000), counted, not kept.
    pub dropped: u64,
    /// The action's messages (private ones with their readers), or why it was refused or
    /// failed (with the rule's place).
    pub result: Result<Vec<Message>, String>,
}

/// Where a loaded log stopped agreeing with the replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    pub index: usize,
    pub command: String,
    pub reason: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the log diverges at action {} ('{}'): {}", self.index + 1, self.command, self.reason)
    }
}

/// Who is looking at the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Observer {
    Seat(usize),
    Spectator,
    Referee,
}

pub struct Game {
    /// The loaded rules, shared by this game's clones and forks (`try_clone`, `fork`):
    /// each holds its own state and puts it in place before it asks the rules anything
    /// (`script()`), so a copy costs a state clone instead of a load of the stack.
    rules: Rc<Rules>,
    /// This game's number among those sharing `rules` (which one's state is in place).
    id: u64,
    /// This game's state while another game sharing `rules` has its own in place.
    parked: Rc<RefCell<Option<GameState>>>,
    /// Set on a fork (`fork`): the state it was made with, before the first action of its
    /// log. Its random generator (and hidden cards) are not the game's, so undo replays
    /// from here, never from the header, and a fork cannot be saved.
    origin: Option<Rc<GameState>>,
    header: Header,
    log: Vec<LogEntry>,
    /// Messages of the whole game with the index of the action that produced them
    /// (setup messages carry index 0, the first action 1).
    messages: Vec<(usize, Message)>,
    /// The bytes of text in `messages`, held under `GAME_MESSAGES_CAP`.
    message_bytes: usize,
    /// Whether `messages` keeps the history (`set_message_history`); the bytes are
    /// counted against the cap either way.
    history: bool,
    /// The seat to act in the current state, once asked: every action checks it anyway
    /// (see `perform`), so the bots' next question costs no call into the rules.
    next: std::cell::Cell<Option<usize>>,
    /// A copy of the state as it stood when the log was this long, taken again once
    /// `CHECKPOINT_EVERY` actions have passed: an action that fails after changing the
    /// state is undone by putting this back and performing the logged actions since
    /// (`rebuild`), where a copy of the whole state before every action cost 4% of a
    /// simulated game. None after the state was put in place any other way (a fork's
    /// restore, a sandbox edit): the next action takes one.
    checkpoint: Option<(GameState, usize)>,
    /// The bots' tuned evaluation of this stack (`bot::weights`), found on first use, and
    /// the warning to give when it was tuned on other rules.
    tuned: std::cell::OnceCell<TunedEval>,
    /// Debug builds keep the state before each action as well, to check every rebuild.
    #[cfg(debug_assertions)]
    before: Option<GameState>,
}

/// A loaded variant stack and which of the games sharing it has its state in place.
struct Rules {
    script: Script,
    /// The id of the game whose state the script holds now.
    occupant: Cell<u64>,
    /// Where that game keeps its state while another one's is in place (gone with it).
    occupant_slot: RefCell<Weak<RefCell<Option<GameState>>>>,
}

/// Ids of games, unique in the process (games on other threads have rules of their own).
static GAME_IDS: AtomicU64 = AtomicU64::new(1);

/// Actions between two copies of the state (`Game::checkpoint`): undoing a failed action
/// performs at most this many again.
const CHECKPOINT_EVERY: usize = 16;
/// What the Lua memory cap is raised by while logged actions are replayed (a load, an
/// undo, the rebuild after a failed action): each fitted once, and the engine's own
/// tables (its references, the string table, call stacks) may hold a little more now.
pub const REPLAY_HEADROOM: usize = 4 << 20;

impl Game {
    pub fn new(header: Header) -> Result<Game, GameError> {
        if header.players >= Piece::NO_OWNER as usize {
            return Err(GameError::Setup(format!(
                "{} players is more than the engine allows ({})",
                header.players,
                Piece::NO_OWNER as usize - 1
            )));
        }
        let script = Script::load(&header.variants)?;
        let spec = script.spec.clone();
        if header.players < spec.min_players || header.players > spec.max_players {
            return Err(GameError::Setup(format!(
                "{} is for {} to {} players, not {}",
                spec.variants.join("+"),
                spec.min_players,
                spec.max_players,
                header.players
            )));
        }
        let options = crate::script::resolve_options(&spec, &header.options).map_err(GameError::Setup)?;
        script.set_state(GameState::new(&spec, header.players, header.seed, options));
        script.setup().map_err(|e| GameError::Setup(format!("setup failed: {e}")))?;
        let mut game = Game {
            rules: Rc::new(Rules { script, occupant: Cell::new(0), occupant_slot: RefCell::new(Weak::new()) }),
            id: 0,
            parked: Default::default(),
            origin: None,
            header,
            log: vec![],
            messages: vec![],
            message_bytes: 0,
            history: true,
            next: Default::default(),
            checkpoint: None,
            tuned: Default::default(),
            #[cfg(debug_assertions)]
            before: None,
        };
        game.id = GAME_IDS.fetch_add(1, Ordering::Relaxed);
        game.rules.occupant.set(game.id);
        *game.rules.occupant_slot.borrow_mut() = Rc::downgrade(&game.parked);
        let outcome = game.take_outcome();
        game.record(0, outcome.messages);
        Ok(game)
    }

    /// The loaded rules with this game's state in place: the state of the game sharing
    /// them that had its own in place is moved to that game's keeping first. Every use of
    /// the rules goes through here.
    fn script(&self) -> &Script {
        let rules = &*self.rules;
        if rules.occupant.get() != self.id {
            // Our state is parked whenever another game is in place (`sibling` parks it,
            // and so does this swap), so the empty state below is never reached.
            let mine = self
                .parked
                .borrow_mut()
                .take()
                .unwrap_or_else(|| GameState::new(&rules.script.spec, 0, 0, Default::default()));
            // As `restore` does: whatever the rules derived from the state is dropped.
            let theirs = rules.script.with_ctx(|c| {
                c.output().clear();
                std::mem::replace(&mut c.state, mine)
            });
            let slot = rules.occupant_slot.replace(Rc::downgrade(&self.parked));
            if let Some(slot) = slot.upgrade() {
                *slot.borrow_mut() = Some(theirs);
            }
            rules.occupant.set(self.id);
        }
        &rules.script
    }

    /// A copy of this game sharing its loaded rules, with `state` as its own, parked, and
    /// this game's log and messages if `history` (else none: a fork's start their own).
    fn sibling(&self, state: GameState, origin: Option<Rc<GameState>>, history: bool) -> Game {
        Game {
            rules: self.rules.clone(),
            id: GAME_IDS.fetch_add(1, Ordering::Relaxed),
            parked: Rc::new(RefCell::new(Some(state))),
            origin,
            header: self.header.clone(),
            log: if history { self.log.clone() } else { vec![] },
            messages: if history { self.messages.clone() } else { vec![] },
            message_bytes: self.message_bytes,
            history: self.history,
            next: Cell::new(self.next.get()),
            checkpoint: None,
            tuned: self.tuned.clone(),
            #[cfg(debug_assertions)]
            before: None,
        }
    }

    /// An independent copy of the game as it stands (state, log, messages): what Python's
    /// `Game.clone()` gives. It shares this game's loaded rules (each of the two puts its
    /// own state in place when it acts or reads), so it costs one state clone, as a
    /// `snapshot` does; the two must not be used from different threads (no `Game` is
    /// `Send`). A clone keeps the random generator: it rolls the game's future dice (see
    /// `fork`).
    pub fn try_clone(&self) -> Result<Game, GameError> {
        let state = self.state().clone();
        Ok(self.sibling(state, self.origin.clone(), true))
    }

    /// A fair copy to look ahead on: its random generator is seeded anew from `seed`, so
    /// its dice and draws are not this game's, and the cards nobody may see (draw stacks)
    /// are dealt again. Given a seat, it is the position as that seat may know it, as the
    /// engine's own bots see it (`bot::determinize`): every card the seat cannot see dealt
    /// again from the pool of such cards, each zone's size and categories kept. It shares
    /// the loaded rules as `try_clone` does. Its save would not replay (its generator is not
    /// the header's): callers ask `is_fork` before saving (the Python package refuses). Its
    /// log and messages hold only what was played on it (its cost does not grow with the
    /// game's length), and it cannot be undone past the fork (`undo` replays from there).
    pub fn fork(&self, seat: Option<usize>, seed: u64) -> Result<Game, GameError> {
        if let Some(s) = seat {
            self.seat_exists(s)?;
        }
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut state = crate::bot::determinize::determinize_view(self.spec(), &self.state(), seat, &mut rng);
        // Dice a sandbox edit forced are the real game's next roll: not the fork's.
        state.forced_dice.clear();
        // Its log starts empty: the game's history would not replay on its generator, and
        // copying it would make a fork's cost grow with the game.
        let origin = Rc::new(state.clone());
        let fork = self.sibling(state, Some(origin), false);
        // Asked again of the fork's own state (hidden cards dealt again could matter).
        fork.next.set(None);
        Ok(fork)
    }

    /// Whether this game is a fork (`fork`) or a clone of one: its dice are its own, so
    /// its log does not replay from its header.
    pub fn is_fork(&self) -> bool {
        self.origin.is_some()
    }

    /// Starts a new game with the same variants, players and options but another seed,
    /// reusing the loaded scripts (the hooks are fixed once loaded). For simulations.
    pub fn restart(&mut self, seed: u64) -> Result<(), GameError> {
        self.header.seed = seed;
        self.origin = None;
        let spec = self.script().spec.clone();
        let options = crate::script::resolve_options(&spec, &self.header.options).map_err(GameError::Setup)?;
        self.script().set_state(GameState::new(&spec, self.header.players, seed, options));
        self.script().setup().map_err(|e| GameError::Setup(format!("setup failed: {e}")))?;
        self.log.clear();
        self.checkpoint = None;
        self.next.set(None);
        self.messages.clear();
        self.message_bytes = 0;
        let outcome = self.take_outcome();
        self.record(0, outcome.messages);
        Ok(())
    }

    pub fn header(&self) -> &Header {
        &self.header
    }
    pub fn spec(&self) -> &Arc<Spec> {
        // The same for every game sharing the rules: no state needs to be put in place.
        &self.rules.script.spec
    }
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }
    pub fn state(&self) -> impl std::ops::Deref<Target = GameState> + '_ {
        self.script().state()
    }
    pub fn winner(&self) -> Option<usize> {
        self.state().winner
    }
    pub fn messages(&self) -> &[(usize, Message)] {
        &self.messages
    }

    /// Adds the messages of action `n` (0: the setup) to the game's history.
    fn record(&mut self, n: usize, msgs: Vec<Message>) {
        self.message_bytes += msgs.iter().map(|m| m.text.len()).sum::<usize>();
        if self.history {
            self.messages.extend(msgs.into_iter().map(|m| (n, m)));
        }
    }

    /// Whether `messages` keeps the game's history of messages (on by default; each
    /// action's `Outcome` has its messages either way, and they count against the game's
    /// cap either way). Off, a copy (`try_clone`) does not copy them: the Python package,
    /// which never reads the history, turns it off so that clones stay cheap in long
    /// games. Turning it off forgets the history kept so far.
    pub fn set_message_history(&mut self, on: bool) {
        self.history = on;
        if !on {
            self.messages = vec![];
        }
    }

    /// What the last call produced; the bytes of a quiet game's messages go to the cap's
    /// count here (its kept ones in `record`).
    fn take_outcome(&mut self) -> Outcome {
        let (outcome, quiet) = self.script().with_output(|c| {
            c.draws.clear();
            let outcome = Outcome { messages: std::mem::take(c.messages), events: std::mem::take(c.events) };
            (outcome, std::mem::take(c.quiet_bytes))
        });
        self.message_bytes += quiet;
        outcome
    }

    /// Keeps no message text from now on (a simulation reads none): every message is
    /// still measured against the game's cap on message text, so a quiet game plays
    /// exactly as the same game with its messages kept, action for action. `messages`
    /// and each `Outcome`'s messages and events stay empty.
    pub fn set_quiet(&mut self, on: bool) {
        self.script().set_quiet(on);
    }

    /// The instructions one call into the rules may run, from the next call on
    /// (`script::INSTRUCTION_BUDGET` unless set): a tighter budget lets a test prove that a
    /// hostile script is stopped without spending the whole of the default one.
    pub fn set_instruction_budget(&mut self, units: u64) {
        self.script().set_instruction_budget(units);
    }

    /// The seat expected to act now.
    pub fn to_act(&self) -> Result<usize, GameError> {
        if let Some(seat) = self.next.get() {
            return Ok(seat);
        }
        let seat = self.script().to_act()?;
        self.next.set(Some(seat));
        Ok(seat)
    }

    /// Parses and performs a typed command for `seat`.
    pub fn act(&mut self, seat: usize, line: &str) -> Result<Outcome, GameError> {
        let action = {
            let st = self.state();
            Action::parse(&self.script().spec, &st, line)?
        };
        self.perform(seat, &action)
    }

    /// A seat given from outside (a save's log, a program) must be one of the game's: 1-based
    /// in the message, which must not overflow for any number a save can hold.
    fn seat_exists(&self, seat: usize) -> Result<(), GameError> {
        if seat >= self.header.players {
            return Err(GameError::Setup(format!("there is no seat {}", seat as u128 + 1)));
        }
        Ok(())
    }

    pub fn legal_actions(&self, seat: usize) -> Result<Vec<Action>, GameError> {
        Ok(self.script().legal_actions(seat)?.0)
    }

    /// Whether `perform` asks `when` and `legal` again of an action `sample_action` just
    /// drew on the same state, or that the last `legal_actions` for that seat listed on
    /// the content the state holds (put back by `restore` included): off by default in
    /// release builds, the draw and the listing asked them; with it off, a listing asked
    /// again for the seat on that content is the last one. `catan check` turns it on, so
    /// that a listing offering what the rules refuse is found.
    pub fn recheck_drawn(&self, on: bool) {
        self.script().set_recheck_drawn(on);
    }

    /// A random legal action for `seat` drawn with the numbers in `rnd` (each in [0, 1)),
    /// uniformly by kind of action, then by option. Ok(Err(())) asks for more numbers.
    pub fn sample_action(&self, seat: usize, rnd: &[f64]) -> Result<Result<Option<Action>, ()>, GameError> {
        Ok(self.script().sample(seat, rnd)?)
    }

    /// Legal actions plus templates of those that cannot be listed (trade offers).
    pub fn legal_with_templates(&self, seat: usize) -> Result<(Vec<Action>, Vec<String>), GameError> {
        Ok(self.script().legal_actions(seat)?)
    }

    pub fn action_text(&self, a: &Action) -> String {
        a.to_text(&self.script().spec, &self.state())
    }

    pub fn points(&self, seat: usize, hidden: bool) -> Result<i64, GameError> {
        Ok(self.script().points(seat, hidden)?)
    }

    pub fn describe(&self, seat: usize) -> Result<Value, GameError> {
        Ok(self.script().describe(seat)?)
    }

    /// Where `seat`'s points come from, as the variant's `points_by_source` filter breaks
    /// them down: (source, points) in its order; empty if the variant does not.
    pub fn points_by_source(&self, seat: usize) -> Result<Vec<(String, i64)>, GameError> {
        let v = self.script().end_summary("points_by_source", seat)?;
        pairs(&v).ok_or_else(|| bad_summary("points_by_source", "a list of { source, points }"))
    }

    /// What the variant counted over the game (its `tallies` filter), each a title and
    /// (label, count) pairs in its order, such as base's dice rolled.
    pub fn tallies(&self) -> Result<Vec<Tally>, GameError> {
        let v = self.script().end_summary("tallies", 0)?;
        let bad = || bad_summary("tallies", "a list of { title, { { label, count }, ... } }");
        let items = match v {
            Value::List(items) => items,
            Value::Map(m) if m.is_empty() => vec![],
            _ => return Err(bad()),
        };
        items
            .iter()
            .map(|item| match item {
                Value::List(t) if t.len() == 2 => match (&t[0], pairs(&t[1])) {
                    (Value::Str(title), Some(counts)) => Ok((title.to_string(), counts)),
                    _ => Err(bad()),
                },
                _ => Err(bad()),
            })
            .collect()
    }

    /// The rules text the variant gives for a kind of card (`help <card>` in the REPL).
    pub fn card_text(&self, kind: &str) -> Result<Option<String>, GameError> {
        Ok(self.script().card_text(kind)?)
    }

    /// The variant's welcome note for the players (its `welcome` filter), if any.
    pub fn welcome_text(&self) -> Result<Option<String>, GameError> {
        Ok(self.script().player_text("welcome", 0, "")?)
    }

    /// The actions this game can never offer under its players and options (the
    /// variant's `available`), which `help` leaves out.
    pub fn unavailable_actions(&self) -> Result<Vec<String>, GameError> {
        Ok(self.script().unavailable_actions()?)
    }

    /// The variant's legend for the board (its `board_legend` filter), if any: what the
    /// marks `show board` draws mean.
    pub fn board_legend(&self) -> Result<Option<String>, GameError> {
        Ok(self.script().player_text("board_legend", 0, "")?)
    }

    /// A note on an action for `seat` (the variant's `action_note` filter), such as what
    /// it costs now after every house rule.
    pub fn action_note(&self, seat: usize, action: &str) -> Result<Option<String>, GameError> {
        Ok(self.script().player_text("action_note", seat, action)?)
    }

    /// Traces `line` for `seat` on a copy of the game: which hooks and parts of the action
    /// ran, from which file:line, what each was given and answered, and how it ended.
    pub fn trace(&self, seat: usize, line: &str) -> Result<Trace, GameError> {
        let mut copy = self.try_clone()?;
        copy.script().trace_start()?;
        let result = copy.act(seat, line);
        let (entries, dropped) = copy.script().trace_take()?;
        let result = match result {
            Ok(outcome) => Ok(outcome.messages),
            Err(e) => Err(e.to_string()),
        };
        Ok(Trace { seat, command: line.to_string(), entries, dropped, result })
    }

    /// Traces the last logged action again, from the state before it (the same draws
    /// come out: the rules are deterministic); None before the first action.
    pub fn trace_last(&self) -> Result<Option<Trace>, GameError> {
        let Some(last) = self.log.last() else { return Ok(None) };
        if last.sandbox {
            return Err(GameError::Setup(format!(
                "the last action, '{}', is a sandbox edit: nothing to trace",
                last.command
            )));
        }
        let mut before = self.try_clone()?;
        before.undo(1)?;
        before.trace(last.seat, &last.command).map(Some)
    }

    /// The lines rules printed with `g:debug` since the last take ("file:line: text"), a
    /// note of how many were dropped past the cap last: for `--debug`. Never in the log.
    pub fn take_debug(&self) -> Result<Vec<String>, GameError> {
        let (mut lines, over) = self.script().debug_take()?;
        if over > 0 {
            lines.push(format!("({over} more g:debug lines in that call were dropped: 200 a call are kept)"));
        }
        Ok(lines)
    }

    /// Options in force, defaults included.
    pub fn options(&self) -> BTreeMap<String, Value> {
        (*self.state().options).clone()
    }

    // Search: what bots read (their positions put aside and back: snapshot.rs) ---------

    /// The longest trail of seat s's path pieces of kind k, as `g:longest_trail` finds it
    /// (broken by every other piece, a player's or not; kept per seat and kind).
    pub(crate) fn trail_length(&self, s: usize, k: usize) -> usize {
        self.script().trail_length(s, k)
    }

    /// Seat `s`'s row of `len` generic features for the bots, kept while nothing it reads
    /// changes; `fill` computes it into zeros (`bot::features`).
    pub(crate) fn kept_features(&self, s: usize, len: usize, fill: impl FnOnce(&mut [f64])) -> Vec<f64> {
        self.script().kept_features(s, len, fill)
    }

    /// The variant's evaluation of the position for every seat (the `evaluate` filter,
    /// or victory points when the variant declares none), read-only.
    pub fn evaluate(&self) -> Result<Vec<f64>, GameError> {
        Ok(self.script().evaluate()?)
    }

    /// Each seat's victory points (hidden ones included), and its `evaluate` and named
    /// features when asked, in one call into the rules: what a tuned evaluation reads.
    pub fn terms(&self, with_evaluate: bool, with_features: bool) -> Result<crate::script::Terms, GameError> {
        Ok(self.script().terms(with_evaluate, with_features)?)
    }

    /// The variant's named features of every seat (its `features` filter), read-only;
    /// empty when the variant declares none.
    pub fn named_features(&self) -> Result<Vec<BTreeMap<String, f64>>, GameError> {
        Ok(self.script().features()?)
    }

    /// The bots' tuned evaluation of this stack (`bot::weights`: the weights file of its
    /// topmost variant that has one), and a warning when it was tuned on other rules.
    pub fn tuned(&self) -> &TunedEval {
        self.tuned.get_or_init(|| {
            let (t, warning) = crate::bot::weights::find(self);
            (t.map(|t| Arc::new(crate::bot::weights::Evaluator::new(self, t))), warning)
        })
    }

    /// Plays this game's bots with these weights (None: the variant's hand-written
    /// `evaluate`, or victory points), whatever its weights file says (`catan tune`).
    pub fn set_tuned(&mut self, tuned: Option<crate::bot::weights::Tuned>) {
        let eval = tuned.map(|t| Arc::new(crate::bot::weights::Evaluator::new(self, t)));
        self.tuned = std::cell::OnceCell::new();
        let _ = self.tuned.set((eval, None));
    }

    /// Puts `eval` in place of the bots' evaluation and returns the one it replaces: a
    /// seat of a simulation that plays with weights of its own swaps them in for its
    /// decisions.
    pub fn swap_tuned(&mut self, eval: TunedEval) -> TunedEval {
        let _ = self.tuned();
        let old = self.tuned.take().unwrap_or((None, None));
        let _ = self.tuned.set(eval);
        old
    }

    /// The bots' score of each seat in victory points' units: the tuned evaluation when
    /// the stack has one, else the variant's `evaluate` filter (victory points without).
    pub fn bot_scores(&self) -> Result<Vec<f64>, GameError> {
        match &self.tuned().0 {
            Some(e) => e.scores(self),
            None => self.evaluate(),
        }
    }

    /// Whether a hook of the stack fills the filter point `point` ("evaluate", say).
    pub fn has_hook(&self, point: &str) -> bool {
        self.script().has_filter(point).unwrap_or(false)
    }

    /// The actions whose declared needs (`turn`, `holds`, `supply`, `cost`) the engine
    /// checks itself when listing and drawing, without calling into the rules; the others
    /// are checked by the prelude in Lua (a price a variant's `cost` hook may change).
    pub fn checked_in_engine(&self) -> Vec<String> {
        self.script().checked_in_engine()
    }

    /// Source texts of the variant stack as loaded (chunk name, source), parts included.
    pub fn stack_files(&self) -> &[(String, String)] {
        &self.script().files
    }

    /// What the variant measures of the game now (the `metrics` filter: name to number),
    /// read-only; `catan sim` asks it at the end of each game.
    pub fn metrics(&self) -> Result<std::collections::BTreeMap<String, f64>, GameError> {
        Ok(self.script().metrics()?)
    }

    /// How many values `g:cached` has computed on this game's loaded rules (each miss,
    /// replays to undo a failed action included): what tests of the cache count, since a
    /// rule cannot keep a count of its own.
    pub fn cached_computations(&self) -> Result<u64, GameError> {
        Ok(self.script().cached_computations()?)
    }

    /// How many times a hook declared `when_changed` or a value kept with `g:cached`'s
    /// "recorded" was found with nothing it read changed since its last run (so skipped;
    /// debug builds run it again to check that it does the same), on this game's loaded
    /// rules: what tests of what the engine keeps count.
    #[doc(hidden)]
    pub fn kept_runs(&self) -> u64 {
        self.script().kept_runs()
    }

    /// How many seats' terms for the bots (`Game::terms`, `Game::evaluate`) were computed
    /// on this game's loaded rules, the rest found kept: what tests of what the engine
    /// keeps count.
    #[doc(hidden)]
    pub fn terms_computed(&self) -> u64 {
        self.script().terms_computed()
    }
}

/// A stack's tuned evaluation, if it has one, and the warning about it, if any.
pub type TunedEval = (Option<Arc<crate::bot::weights::Evaluator>>, Option<String>);

/// What a variant counted over a game (its `tallies` filter): a title and (label, count)
/// pairs.
pub type Tally = (String, Vec<(String, i64)>);

/// A list of { name, number } pairs from a variant's filter; None if it is not one.
fn pairs(v: &Value) -> Option<Vec<(String, i64)>> {
    let items = match v {
        Value::List(items) => items,
        // An empty Lua table.
        Value::Map(m) if m.is_empty() => return Some(vec![]),
        _ => return None,
    };
    items
        .iter()
        .map(|item| match item {
            Value::List(p) if p.len() == 2 => {
                let name = match &p[0] {
                    Value::Str(s) => s.to_string(),
                    Value::Int(n) => n.to_string(),
                    _ => return None,
                };
                p[1].as_int().map(|n| (name, n))
            }
            _ => None,
        })
        .collect()
}

fn bad_summary(point: &str, want: &str) -> GameError {
    GameError::Script(crate::script::ScriptError::new(
        crate::script::ScriptErrorKind::Runtime,
        format!("the {point} filter must return {want}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What performing `line` charges the budget (one call into the rules, `to_act` aside):
    /// its own units plus what the VM charged since the count hook last ran, less what was
    /// pending when it began.
    fn cost_of(g: &mut Game, line: &str) -> u64 {
        let action = Action::parse(&g.script().spec, &g.state(), line).expect("the line parses");
        let (_, pending_before) = g.script().charged();
        g.script().perform(0, &action).unwrap_or_else(|e| panic!("{line}: {e}"));
        let (used, pending) = g.script().charged();
        used + pending - pending_before
    }

    /// DESIGN: the budget is deterministic. `g:cached` hands back a kept value for less
    /// work than computing it, so it charges what computing it cost: an action costs the
    /// same budget whether the cache had the value (a live game that listed actions first)
    /// or not (its replay).
    #[test]
    fn a_value_kept_by_g_cached_costs_the_budget_what_computing_it_did() {
        let header = Header {
            variants: vec!["tests/variants/cached.lua".into()],
            players: 2,
            seed: 1,
            options: vec![],
            sandbox: false,
        };
        for reads in ["seat_grids", "constants"] {
            let mut cold = Game::new(header.clone()).expect("the fixture loads");
            let mut warm = Game::new(header.clone()).expect("the fixture loads");
            let look = format!("look {reads}");
            // Both games write the same variables first; `warm` keeps the value as it does.
            cold.act(0, "note").expect("note");
            warm.act(0, &look).expect("look");
            warm.act(0, "note").expect("note");
            let miss = cost_of(&mut cold, &look);
            let hit = cost_of(&mut warm, &look);
            let computed = |g: &Game| g.cached_computations().expect("a count");
            assert_eq!(computed(&cold), 1, "{reads}: cold computed it");
            assert_eq!(computed(&warm), 1, "{reads}: warm kept it from its first look");
            assert!(miss > 500, "{reads}: the fixture's computation is not trivial: {miss}");
            assert_eq!(hit, miss, "{reads}: a kept value charges what computing it did");
        }
    }
}
