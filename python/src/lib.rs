//! `catan_engine._native`: the engine's `Game`, its bots, the action index of the
//! reinforcement-learning environments and the pieces of a sharded `catan sim`, for
//! Python. The Python package (`../catan_engine/`) wraps these in friendlier faces.
//!
//! Threads: a `Game` owns a Lua state, which may not leave the thread that made it (mlua
//! without its `send` feature, the engine's `Rc` counters). So `Game` and `Bot` are
//! `unsendable` pyclasses: pyo3 refuses their use from any other thread. Every call that
//! runs the rules releases the GIL (`nogil`), so games on different threads run at once.

mod index;
mod sweep;
mod tune;
mod view;

use catan_engine::bot::features::FeatureSpace;
use catan_engine::bot::{BotSpec, Budget, RandomBot, SeatBot};
use catan_engine::engine::{option_args, Drawn, SaveFile, Snapshot as CoreSnapshot};
use catan_engine::{Action as CoreAction, Game as CoreGame, GameError, Header, Observer, ScriptErrorKind};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyByteArray, PyDict, PyList, PyString};
use pyo3::IntoPyObjectExt;
use serde_json::Value as J;
use std::cell::OnceCell;
use std::rc::Rc;

#[global_allocator]
static ALLOCATOR: catan_engine::alloc::Allocator = catan_engine::alloc::Allocator;

create_exception!(_native, CatanError, PyException, "Any error of the engine.");
create_exception!(
    _native,
    InvalidAction,
    CatanError,
    "The text is not an action of this game, or a rule refused it; the game is unchanged."
);
create_exception!(
    _native,
    RuleError,
    CatanError,
    "A variant's script failed (with its file:line); the game is unchanged."
);
create_exception!(_native, SetupError, CatanError, "The game cannot be made, loaded or asked as requested.");

/// Runs `f` with the GIL released.
///
/// `allow_threads` asks for `Send` closures so that nothing tied to the GIL escapes; the
/// engine's values are not `Send` only because a Lua state must stay on its thread. The
/// closure runs on this same thread, at once, while the caller holds the pyclass's borrow
/// (so Python cannot reach the same game meanwhile), and the pyclasses are `unsendable`
/// (so no other thread ever reaches them): the Lua state never changes threads. Callers
/// pass only engine values, never Python objects.
fn nogil<R>(py: Python<'_>, f: impl FnOnce() -> R) -> R {
    struct OnThisThread<F>(F);
    // SAFETY: see above: `F` runs, and its result is made, on the thread that made it,
    // with the GIL released.
    unsafe impl<F> Send for OnThisThread<F> {}
    impl<F> OnThisThread<F> {
        fn take(self) -> F {
            self.0
        }
    }
    let f = OnThisThread(f);
    py.allow_threads(move || OnThisThread((f.take())())).take()
}

pub(crate) fn py_err(e: GameError) -> PyErr {
    let text = e.to_string();
    match &e {
        GameError::Parse(p) if p.is_unknown_command() => {
            InvalidAction::new_err(format!("{text} (`Game.legal_text()` lists the actions)"))
        }
        GameError::Parse(_) => InvalidAction::new_err(text),
        GameError::Script(s) if s.kind == ScriptErrorKind::Rejected => InvalidAction::new_err(text),
        GameError::Script(_) => RuleError::new_err(text),
        GameError::Setup(_) | GameError::Sandbox(_) => SetupError::new_err(text),
    }
}

/// JSON as plain Python data (dicts, lists, str, int, float, bool, None).
pub(crate) fn to_py(py: Python<'_>, v: &J) -> PyResult<PyObject> {
    Ok(match v {
        J::Null => py.None(),
        J::Bool(b) => b.into_py_any(py)?,
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_py_any(py)?,
            (_, Some(u)) => u.into_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_py_any(py)?,
        },
        J::String(s) => s.into_py_any(py)?,
        J::Array(xs) => {
            let list = PyList::empty(py);
            for x in xs {
                list.append(to_py(py, x)?)?;
            }
            list.into_any().unbind()
        }
        J::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// Python data as JSON, through Python's own `json` module.
fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<J> {
    let text: String = obj.py().import("json")?.call_method1("dumps", (obj,))?.extract()?;
    serde_json::from_str(&text).map_err(|e| SetupError::new_err(format!("not JSON data: {e}")))
}

/// One action: its name, its arguments (as the engine's JSON: `{"Path": 12}`, board sites
/// by their 0-based index in the view's lists, cards as `[kind, count]` pairs) and the
/// text a player types for it.
#[pyclass(module = "catan_engine._native", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Action {
    pub(crate) inner: CoreAction,
    text: String,
}

impl Action {
    pub(crate) fn new(game: &CoreGame, inner: CoreAction) -> Action {
        let text = game.action_text(&inner);
        Action { inner, text }
    }
}

#[pymethods]
impl Action {
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    /// The arguments as the engine's JSON (see the class's documentation).
    #[getter]
    fn args(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, &serde_json::to_value(&self.inner.args).unwrap_or(J::Null))
    }
    /// The command a player types for this action, such as `road 12-13`.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }
    /// `{"name": ..., "args": [...]}`: what `Game.play` also takes.
    fn to_dict(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, &serde_json::to_value(&self.inner).unwrap_or(J::Null))
    }
    fn __str__(&self) -> &str {
        &self.text
    }
    fn __repr__(&self) -> String {
        format!("Action({:?})", self.text)
    }
}

/// A position of a game, to come back to with `Game.restore` (a state clone: cheap).
#[pyclass(module = "catan_engine._native", frozen)]
pub struct Snapshot {
    inner: CoreSnapshot,
}

/// A seat as Python code names it: its 0-based number, or its colour (`"blue"`) as the
/// protocol and `catan play` take it.
#[derive(FromPyObject)]
pub(crate) enum Seat {
    Number(usize),
    Color(String),
}

/// The 0-based seat `seat` names in `game`.
pub(crate) fn seat_index(game: &CoreGame, seat: &Seat) -> PyResult<usize> {
    let players = game.header().players;
    match seat {
        Seat::Number(s) if *s < players => Ok(*s),
        Seat::Number(s) => Err(SetupError::new_err(format!("there is no seat {s} (seats are 0 to {})", players - 1))),
        Seat::Color(c) => {
            game.state().players.iter().position(|p| p.color.eq_ignore_ascii_case(c.trim())).ok_or_else(|| {
                let colors: Vec<String> = game.state().players.iter().map(|p| p.color.to_string()).collect();
                SetupError::new_err(format!(
                    "'{c}' is not a seat (0 to {}) or a colour ({})",
                    players - 1,
                    colors.join(", ")
                ))
            })
        }
    }
}

fn observer(seat: Option<&Bound<'_, PyAny>>, game: &CoreGame) -> PyResult<Observer> {
    let Some(seat) = seat else { return Ok(Observer::Referee) };
    let players = game.header().players;
    if let Ok(s) = seat.extract::<usize>() {
        return Ok(Observer::Seat(seat_index(game, &Seat::Number(s))?));
    }
    match seat.extract::<String>()?.as_str() {
        "referee" => Ok(Observer::Referee),
        "spectator" => Ok(Observer::Spectator),
        other => seat_index(game, &Seat::Color(other.to_string())).map(Observer::Seat).map_err(|_| {
            SetupError::new_err(format!(
                "an observer is a seat (0 to {}, or its colour), 'spectator' or 'referee', not '{other}'",
                players - 1
            ))
        }),
    }
}

/// Options from a Python dict: booleans as `true`/`false`, everything else as its text.
fn option_pairs(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = vec![];
    if let Some(d) = options {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            let value = if let Ok(b) = v.downcast::<pyo3::types::PyBool>() {
                if b.is_true() { "true" } else { "false" }.to_string()
            } else if let Ok(s) = v.downcast::<PyString>() {
                s.to_string()
            } else {
                v.str()?.to_string()
            };
            out.push((key, value));
        }
    }
    Ok(out)
}

/// Whether `action` is the text of a sandbox edit (`Game.edit`), for `play`'s error.
fn is_sandbox_command(action: &Bound<'_, PyAny>) -> bool {
    action.downcast::<PyString>().is_ok_and(|s| {
        let text = s.to_string();
        matches!(text.split_whitespace().next(), Some("dice" | "give" | "place"))
    })
}

/// Keys the random actions' stream of a game (`random_action`) apart from its bots'.
const RANDOM_STREAM: u64 = 0x5EED_5EA7;

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// A game of any variant stack. Seats are 0-based. Every action is all-or-nothing: an
/// error leaves the game exactly as it was.
#[pyclass(module = "catan_engine._native", unsendable)]
pub struct Game {
    pub(crate) inner: CoreGame,
    /// The random actions' stream (`random_action`, `play_random`), seeded from the
    /// game's seed so that the same seed gives the same game.
    rng: RandomBot,
    /// What is fixed once the rules are loaded, worked out once for a game and shared by
    /// its clones and forks.
    fixed: Rc<Fixed>,
    /// Forks made without a seed so far: the next one's seed is derived from it.
    forks: u64,
}

/// What a game and its copies share: the feature space (`features`) and the Python
/// objects of the board's shape (`view`).
#[derive(Default)]
struct Fixed {
    features: OnceCell<FeatureSpace>,
    shape: std::cell::RefCell<Option<view::Shape>>,
}

/// A well-mixed 64-bit number from `x` (splitmix64's finaliser): the seed of a fork made
/// without one, from the game's seed, its length and the forks made so far.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// numpy's `frombuffer`, looked up once.
static FROMBUFFER: GILOnceCell<PyObject> = GILOnceCell::new();

/// `values` as a writable one-dimensional numpy array of float64.
fn float_array(py: Python<'_>, values: &[f64]) -> PyResult<PyObject> {
    let frombuffer = FROMBUFFER
        .get_or_try_init(py, || -> PyResult<PyObject> { Ok(py.import("numpy")?.getattr("frombuffer")?.unbind()) })?;
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let buffer = PyByteArray::new(py, &bytes);
    frombuffer.call1(py, (buffer, "float64"))
}

/// The messages of an action as Python dicts `{"text": ..., "to": [seats] or None}`.
fn messages_list(py: Python<'_>, messages: Vec<catan_engine::script::Message>) -> PyResult<PyObject> {
    let list = PyList::empty(py);
    for m in messages {
        let d = PyDict::new(py);
        d.set_item("text", m.text)?;
        d.set_item("to", m.to)?;
        list.append(d)?;
    }
    Ok(list.into_any().unbind())
}

impl Game {
    fn wrap(mut inner: CoreGame) -> Game {
        // Python never reads the game's history of messages (`play` returns each action's):
        // without it a clone copies the log only.
        inner.set_message_history(false);
        let seed = inner.header().seed;
        Game { inner, rng: RandomBot::new(seed ^ RANDOM_STREAM), fixed: Default::default(), forks: 0 }
    }

    /// A copy made of this game (a clone or a fork), sharing what is fixed.
    fn copy(&self, inner: CoreGame, stream: u64) -> Game {
        Game { inner, rng: RandomBot::new(stream ^ RANDOM_STREAM), fixed: self.fixed.clone(), forks: 0 }
    }

    fn feature_space(&self) -> &FeatureSpace {
        self.fixed.features.get_or_init(|| FeatureSpace::of(&self.inner))
    }

    /// A save of this game, refused for a fork (its dice are its own: the header's seed
    /// does not replay it).
    fn save_text(&self) -> PyResult<String> {
        if self.inner.is_fork() {
            return Err(SetupError::new_err(
                "a fork cannot be saved: its dice and hidden cards are not the game's, so its log does not replay",
            ));
        }
        Ok(self.inner.save_json())
    }

    pub(crate) fn seat_or_to_act(&self, seat: Option<Seat>) -> PyResult<usize> {
        match seat {
            Some(s) => seat_index(&self.inner, &s),
            None => self.inner.to_act().map_err(py_err),
        }
    }

    /// An action from an `Action`, its text or its dict.
    pub(crate) fn action_of(&self, action: &Bound<'_, PyAny>) -> PyResult<CoreAction> {
        if let Ok(a) = action.downcast::<Action>() {
            return Ok(a.get().inner.clone());
        }
        if let Ok(s) = action.downcast::<PyString>() {
            let st = self.inner.state();
            return CoreAction::parse(self.inner.spec(), &st, &s.to_string()).map_err(|e| py_err(e.into()));
        }
        let v = from_py(action)?;
        serde_json::from_value(v).map_err(|e| {
            InvalidAction::new_err(format!(
                "an action is an Action, its text or a dict like {{\"name\": \"road\", \"args\": [{{\"Path\": 12}}]}}: {e}"
            ))
        })
    }
}

#[pymethods]
impl Game {
    /// A new game: `variant` is a stack as `catan` takes it ("base", "base+helpers",
    /// "./mods/house.lua"), `players` the variant's default if None, `seed` the clock's
    /// if None, `options` a dict such as `{"board": "random", "victory_points": 12}`.
    #[new]
    #[pyo3(signature = (variant = "base", players = None, seed = None, options = None, sandbox = false))]
    fn py_new(
        py: Python<'_>,
        variant: &str,
        players: Option<usize>,
        seed: Option<u64>,
        options: Option<&Bound<'_, PyDict>>,
        sandbox: bool,
    ) -> PyResult<Game> {
        let options = option_pairs(options)?;
        let seed = seed.unwrap_or_else(clock_seed);
        let variant = variant.to_string();
        let made = nogil(py, move || {
            let header = Header::from_args(&variant, players, seed, options, sandbox).map_err(GameError::Setup)?;
            CoreGame::new(header)
        });
        Ok(Game::wrap(made.map_err(py_err)?))
    }

    /// A game from the text of `save()` (or a `catan play` save file's text), replayed.
    /// A log that stops agreeing with the replay raises, unless `strict` is False: then
    /// the game as far as it agrees.
    #[staticmethod]
    #[pyo3(signature = (text, strict = true))]
    fn load(py: Python<'_>, text: &str, strict: bool) -> PyResult<Game> {
        let text = text.to_string();
        let (game, div) = nogil(py, move || CoreGame::load_json(&text)).map_err(py_err)?;
        if let (Some(d), true) = (div, strict) {
            return Err(SetupError::new_err(d.to_string()));
        }
        Ok(Game::wrap(game))
    }

    /// Starts this game anew with another seed (same variants, players and options),
    /// reusing its loaded scripts: cheaper than a new `Game` (what `catan sim` does
    /// between games). The random actions' stream restarts from the new seed.
    fn restart(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let game = &mut self.inner;
        nogil(py, move || game.restart(seed)).map_err(py_err)?;
        self.rng = RandomBot::new(seed ^ RANDOM_STREAM);
        Ok(())
    }

    /// The game as JSON text (header and log): `Game.load` replays it. A fork cannot be
    /// saved.
    fn save(&self) -> PyResult<String> {
        self.save_text()
    }

    /// An independent copy, as cheap as a `snapshot` (it shares this game's loaded rules;
    /// each puts its own state in place when it acts or reads). It keeps the game's random
    /// generator, so it rolls the game's future dice: look ahead on a `fork`.
    fn clone(&self, py: Python<'_>) -> PyResult<Game> {
        let copy = nogil(py, || self.inner.try_clone()).map_err(py_err)?;
        Ok(self.copy(copy, self.inner.header().seed))
    }

    /// A fair copy to look ahead on: its random generator seeded anew (its dice and draws
    /// are not the game's), the cards nobody may see (draw stacks) shuffled again, and,
    /// given a seat, every card that seat cannot see dealt again from their pool (each
    /// zone's size kept), as the engine's own bots see the game. `seed` None: derived from
    /// the game's seed, its length and the forks made so far, so a program run twice makes
    /// the same forks. As cheap as `clone`; it cannot be saved or undone past the fork.
    #[pyo3(signature = (seat = None, seed = None))]
    fn fork(&mut self, seat: Option<Seat>, seed: Option<u64>) -> PyResult<Game> {
        let seat = seat.map(|s| seat_index(&self.inner, &s)).transpose()?;
        let seed = seed.unwrap_or_else(|| {
            self.forks += 1;
            mix(self.inner.header().seed ^ mix(self.inner.log().len() as u64) ^ mix(self.forks.wrapping_neg()))
        });
        let fork = self.inner.fork(seat, seed).map_err(py_err)?;
        Ok(self.copy(fork, seed))
    }

    /// Whether this game is a fork (or a clone of one).
    #[getter]
    fn is_fork(&self) -> bool {
        self.inner.is_fork()
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Game> {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Game> {
        self.clone(py)
    }

    /// Pickled as its save: unpickling replays it (a fork cannot be pickled).
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (String,))> {
        let py = slf.py();
        let load = py.get_type::<Game>().getattr("load")?.unbind();
        Ok((load, (slf.borrow().save_text()?,)))
    }

    /// The legal actions of `seat` (default: the seat to act), as `Action`s. Actions the
    /// rules cannot list (trade offers between players) are not among them; see
    /// `legal_templates`.
    #[pyo3(signature = (seat = None))]
    fn legal(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<Vec<Action>> {
        let seat = self.seat_or_to_act(seat)?;
        let actions = nogil(py, || self.inner.legal_actions(seat)).map_err(py_err)?;
        Ok(actions.into_iter().map(|a| Action::new(&self.inner, a)).collect())
    }

    /// The legal actions of `seat` as the texts a player types.
    #[pyo3(signature = (seat = None))]
    fn legal_text(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<Vec<String>> {
        Ok(self.legal(py, seat)?.into_iter().map(|a| a.text).collect())
    }

    /// Templates of the legal actions the rules cannot list, such as `offer <cards> for <cards>`.
    #[pyo3(signature = (seat = None))]
    fn legal_templates(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<Vec<String>> {
        let seat = self.seat_or_to_act(seat)?;
        Ok(nogil(py, || self.inner.legal_with_templates(seat)).map_err(py_err)?.1)
    }

    /// Performs an action (an `Action`, its text such as `"road 12-13"`, or its dict) for
    /// `seat` (default: the seat to act). Returns the messages it produced, each a dict
    /// `{"text": ..., "to": [seats] or None}`. Raises `InvalidAction` if it is not an
    /// action of this game or a rule refuses it, `RuleError` if a script fails; the game
    /// is then unchanged.
    #[pyo3(signature = (action, seat = None))]
    fn play(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>, seat: Option<Seat>) -> PyResult<PyObject> {
        let action = match self.action_of(action) {
            Err(e) if is_sandbox_command(action) => {
                return Err(InvalidAction::new_err(format!(
                    "{} (a sandbox edit: `Game.edit`, on a game made with sandbox=True)",
                    e.value(py)
                )))
            }
            other => other?,
        };
        let seat = self.seat_or_to_act(seat)?;
        let inner = &mut self.inner;
        let outcome = nogil(py, move || inner.perform(seat, &action)).map_err(py_err)?;
        messages_list(py, outcome.messages)
    }

    /// A sandbox edit, logged like an action: `dice A B` (the next roll), `give PLAYER
    /// CARDS` (from the bank), `place PIECE LABEL PLAYER`. Only on a game made with
    /// `sandbox=True`; a bad edit raises `SetupError` and changes nothing. Returns the
    /// messages, as `play` does. `seat` (default: the seat to act) is who the log names.
    #[pyo3(signature = (command, seat = None))]
    fn edit(&mut self, py: Python<'_>, command: &str, seat: Option<Seat>) -> PyResult<PyObject> {
        if !self.inner.header().sandbox {
            return Err(SetupError::new_err(format!(
                "'{command}' is a sandbox edit: make the game with Game(..., sandbox=True) to edit it"
            )));
        }
        let seat = match seat {
            Some(s) => seat_index(&self.inner, &s)?,
            None => self.inner.to_act().unwrap_or(0),
        };
        let outcome = self.inner.sandbox(seat, command).map_err(py_err)?;
        messages_list(py, outcome.messages)
    }

    /// The text a player types for `action`.
    fn action_text(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.inner.action_text(&self.action_of(action)?))
    }

    /// A legal action of `seat` (default: the seat to act) drawn as the engine's random
    /// bot draws: a kind of action uniformly, then one of its options. None when the seat
    /// has no legal action.
    #[pyo3(signature = (seat = None))]
    fn random_action(&mut self, py: Python<'_>, seat: Option<Seat>) -> PyResult<Option<Action>> {
        let seat = self.seat_or_to_act(seat)?;
        let (game, rng) = (&self.inner, &mut self.rng);
        let a = nogil(py, move || rng.choose(game, seat)).map_err(py_err)?;
        Ok(a.map(|a| Action::new(&self.inner, a)))
    }

    /// Plays up to `n` random actions (default: until the game is won or `max_actions`
    /// were played), all in Rust with the GIL released. Returns how many were played.
    #[pyo3(signature = (n = None, max_actions = 50_000))]
    fn play_random(&mut self, py: Python<'_>, n: Option<usize>, max_actions: usize) -> PyResult<usize> {
        let limit = n.unwrap_or(max_actions);
        let (game, rng) = (&mut self.inner, &mut self.rng);
        let done = nogil(py, move || -> Result<usize, GameError> {
            let mut done = 0;
            while done < limit && game.winner().is_none() {
                let seat = game.to_act()?;
                // The draw and its performance in one call into the rules, as `catan sim`.
                match rng.play(game, seat)? {
                    Drawn::Played(..) => {}
                    Drawn::Refused(_, e) => return Err(e),
                    Drawn::More | Drawn::Nothing => {
                        return Err(GameError::Setup(format!("seat {seat} has no legal action")))
                    }
                }
                done += 1;
            }
            Ok(done)
        });
        done.map_err(py_err)
    }

    /// Plays the game on with bots: `bots` holds one `Bot` (or None) per seat. Stops when
    /// the game is won, when it is the turn of a seat without a bot or of `stop_at`, or
    /// after `max_actions` actions. Returns how many actions were played. The GIL is
    /// released throughout.
    #[pyo3(signature = (bots, stop_at = None, max_actions = 50_000))]
    fn play_bots(
        &mut self,
        py: Python<'_>,
        mut bots: Vec<Option<PyRefMut<'_, Bot>>>,
        stop_at: Option<usize>,
        max_actions: usize,
    ) -> PyResult<usize> {
        let mut bots: Vec<Option<&mut SeatBot>> = bots.iter_mut().map(|b| b.as_mut().map(|b| &mut b.inner)).collect();
        let game = &mut self.inner;
        let result = nogil(py, move || -> Result<usize, GameError> {
            let mut done = 0;
            while done < max_actions && game.winner().is_none() {
                let seat = game.to_act()?;
                if stop_at == Some(seat) {
                    break;
                }
                let Some(Some(bot)) = bots.get_mut(seat) else { break };
                match bot.play(game, seat)? {
                    Drawn::Played(..) => {}
                    Drawn::Refused(_, e) => return Err(e),
                    Drawn::More | Drawn::Nothing => {
                        return Err(GameError::Setup(format!("seat {seat} has no legal action")))
                    }
                }
                done += 1;
            }
            Ok(done)
        });
        result.map_err(py_err)
    }

    /// What `seat` may see, as Python data (the JSON of `catan play`'s `view --json`):
    /// a seat number, "spectator", or "referee"/None for everything.
    #[pyo3(signature = (seat = None))]
    fn view(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<PyObject> {
        let obs = observer(seat, &self.inner)?;
        // The board apart: its shape's Python objects are made once (`view.rs`).
        let v = nogil(py, || catan_engine::view::view_with(&self.inner, obs, false));
        let out = to_py(py, &v)?;
        let topology = self.inner.state().topology.clone();
        if let Some(t) = topology {
            let mut shape = self.fixed.shape.borrow_mut();
            let shape = match shape.take() {
                Some(s) if s.is_of(&t) => shape.insert(s),
                _ => shape.insert(view::Shape::of(py, &t)?),
            };
            let board = shape.board(py, self.inner.spec(), &self.inner.state())?;
            out.bind(py).set_item("board", board)?;
        }
        Ok(out)
    }

    /// The same view as compact JSON text.
    #[pyo3(signature = (seat = None))]
    fn view_json(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let obs = observer(seat, &self.inner)?;
        Ok(nogil(py, || catan_engine::view::view(&self.inner, obs).to_string()))
    }

    /// The position as it stands, for `restore`.
    fn snapshot(&self) -> Snapshot {
        Snapshot { inner: self.inner.snapshot() }
    }

    /// Puts back a position `snapshot` took of this game (the log is cut back too).
    fn restore(&mut self, snapshot: &Snapshot) -> PyResult<()> {
        if snapshot.inner.state().players.len() != self.inner.header().players {
            return Err(SetupError::new_err("this snapshot is of another game"));
        }
        self.inner.restore(&snapshot.inner);
        Ok(())
    }

    /// Takes back the last `n` actions.
    #[pyo3(signature = (n = 1))]
    fn undo(&mut self, py: Python<'_>, n: usize) -> PyResult<()> {
        let game = &mut self.inner;
        nogil(py, move || game.undo(n)).map_err(py_err)
    }

    /// The seat expected to act (None once the game is won).
    #[getter]
    fn to_act(&self) -> PyResult<Option<usize>> {
        if self.inner.winner().is_some() {
            return Ok(None);
        }
        self.inner.to_act().map(Some).map_err(py_err)
    }
    /// The winning seat, None while the game goes on.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.inner.winner()
    }
    #[getter]
    fn over(&self) -> bool {
        self.inner.winner().is_some()
    }
    #[getter]
    fn players(&self) -> usize {
        self.inner.header().players
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.header().seed
    }
    #[getter]
    fn variants(&self) -> Vec<String> {
        self.inner.header().variants.clone()
    }
    /// The options as given (what the save records).
    #[getter]
    fn options(&self) -> Vec<(String, String)> {
        self.inner.header().options.clone()
    }
    #[getter]
    fn turn(&self) -> u32 {
        self.inner.state().turn
    }
    #[getter]
    fn phase(&self) -> String {
        self.inner.state().phase.clone()
    }
    /// The commands played so far, as typed, with their seats.
    #[getter]
    fn log(&self) -> Vec<(usize, String)> {
        self.inner.log().iter().map(|e| (e.seat, e.command.clone())).collect()
    }
    /// The victory points of `seat`, hidden ones included unless `hidden` is False.
    #[pyo3(signature = (seat, hidden = true))]
    fn points(&self, seat: Seat, hidden: bool) -> PyResult<i64> {
        let seat = self.seat_or_to_act(Some(seat))?;
        self.inner.points(seat, hidden).map_err(py_err)
    }
    /// The cards `seat` holds in one of its zones (default "hand"), by kind: what the
    /// referee sees (on a seat's fork, that seat's guess of the others' cards).
    #[pyo3(signature = (seat, zone = "hand"))]
    fn cards(&self, py: Python<'_>, seat: Seat, zone: &str) -> PyResult<PyObject> {
        let seat = seat_index(&self.inner, &seat)?;
        let spec = self.inner.spec();
        let z = spec.zone(zone).filter(|&z| spec.zones[z].per_player).ok_or_else(|| {
            let names: Vec<&str> = spec.zones.iter().filter(|z| z.per_player).map(|z| z.name.as_str()).collect();
            SetupError::new_err(format!("'{zone}' is not a zone of a seat ({})", names.join(", ")))
        })?;
        let st = self.inner.state();
        let d = PyDict::new(py);
        if let Some(zone) = st.players[seat].zones.get(z) {
            for (k, card) in spec.cards.iter().enumerate() {
                let n = zone.count(k);
                if n > 0 {
                    d.set_item(&card.name, n)?;
                }
            }
        }
        Ok(d.into_any().unbind())
    }

    /// The generic features the engine's bots evaluate and tune on (points, cards by zone
    /// and kind, pieces, production by pips, harbors, trails, open sites), one row of
    /// `feature_names()` columns per seat, flattened into a float64 numpy array. Given a
    /// seat: rows from that seat round the table (row 0 the seat itself), another seat's
    /// hidden points left out and its cards in zones the seat cannot look into counted
    /// only (each kind 0, the total kept). None: the referee's rows, seat 0 first.
    #[pyo3(signature = (seat = None))]
    fn features(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<PyObject> {
        let seat = seat.map(|s| seat_index(&self.inner, &s)).transpose()?;
        let rows = self.feature_space().generic(&self.inner, seat).map_err(py_err)?;
        let n = rows.len();
        let first = seat.unwrap_or(0);
        let flat: Vec<f64> = (0..n).flat_map(|i| rows[(first + i) % n].iter().copied()).collect();
        float_array(py, &flat)
    }

    /// The names of `features`' columns of one seat, in order (`points`, `hand.total`,
    /// `hand.brick`, ...): the array holds `players` rows of them.
    fn feature_names(&self) -> Vec<String> {
        self.feature_space().names.clone()
    }

    /// The variant's evaluation of the position for every seat (what the bots score).
    fn evaluate(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        nogil(py, || self.inner.evaluate()).map_err(py_err)
    }
    /// The actions the variant declares: dicts of name, syntax (`road <path>`), help.
    fn syntaxes(&self, py: Python<'_>) -> PyResult<PyObject> {
        let list: Vec<J> = self
            .inner
            .spec()
            .actions
            .iter()
            .filter(|a| !a.debug)
            .map(
                |a| serde_json::json!({"name": a.name, "syntax": a.template(), "help": a.help, "listed": a.enumerable}),
            )
            .collect();
        to_py(py, &J::Array(list))
    }
    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, players={}, seed={}, turn={}, actions={})",
            self.inner.header().variants.join("+"),
            self.inner.header().players,
            self.inner.header().seed,
            self.inner.state().turn,
            self.inner.log().len()
        )
    }
}

/// One of the engine's bots: "random", "greedy", "planner" or "mcts" (the strongest),
/// seeded. `playouts` and `think_ms` bound a search bot's thinking per decision. A kind may
/// name its weights as `catan sim --bots` does: "planner@tuned.toml" (a weights file, read
/// at its first decision for that game's stack) or "planner@none" (the hand-written
/// evaluation, whatever weights the stack ships).
#[pyclass(module = "catan_engine._native", unsendable)]
pub struct Bot {
    inner: SeatBot,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (kind = "mcts", seed = 0, playouts = None, think_ms = None))]
    fn py_new(kind: &str, seed: u64, playouts: Option<usize>, think_ms: Option<u64>) -> PyResult<Bot> {
        let spec = BotSpec::parse(kind).map_err(SetupError::new_err)?;
        let mut budget = Budget::default();
        if let Some(p) = playouts {
            budget.playouts = p;
        }
        budget.think_ms = think_ms;
        Ok(Bot { inner: SeatBot::unbound(&spec, seed, budget) })
    }

    /// As given: "planner", "planner@tuned.toml".
    #[getter]
    fn kind(&self) -> String {
        self.inner.spec.name()
    }

    /// The action this bot takes for `seat` (default: the seat to act), or None if it has
    /// none. The game is left as it was.
    #[pyo3(signature = (game, seat = None))]
    fn choose(&mut self, py: Python<'_>, game: &mut Game, seat: Option<Seat>) -> PyResult<Option<Action>> {
        Ok(self.decide(py, game, seat)?.map(|(a, _)| a))
    }

    /// Like `choose`, with the bot's reason in one line.
    #[pyo3(signature = (game, seat = None))]
    fn decide(&mut self, py: Python<'_>, game: &mut Game, seat: Option<Seat>) -> PyResult<Option<(Action, String)>> {
        let seat = game.seat_or_to_act(seat)?;
        let (bot, core) = (&mut self.inner, &mut game.inner);
        let d = nogil(py, move || bot.decide(core, seat)).map_err(py_err)?;
        Ok(d.map(|d| (Action::new(&game.inner, d.action), d.why)))
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.inner.spec.name())
    }
}

/// The names of the variants found on the search path.
#[pyfunction]
fn known_variants() -> Vec<String> {
    catan_engine::script::known_variants()
}

/// Options as `catan` reads them from `--options-file` and `--option KEY=VALUE`.
#[pyfunction]
#[pyo3(signature = (file = None, given = vec![]))]
fn parse_options(file: Option<&str>, given: Vec<String>) -> PyResult<Vec<(String, String)>> {
    option_args(file, &given).map_err(SetupError::new_err)
}

/// A save file's header as a dict (variants, players, seed, options).
#[pyfunction]
fn save_header(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    let file: SaveFile =
        serde_json::from_str(text).map_err(|e| SetupError::new_err(format!("not a saved game: {e}")))?;
    to_py(py, &serde_json::to_value(&file.header).unwrap_or(J::Null))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CatanError", py.get_type::<CatanError>())?;
    m.add("InvalidAction", py.get_type::<InvalidAction>())?;
    m.add("RuleError", py.get_type::<RuleError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add_class::<Game>()?;
    m.add_class::<Action>()?;
    m.add_class::<Snapshot>()?;
    m.add_class::<Bot>()?;
    m.add_class::<index::ActionIndex>()?;
    m.add_function(wrap_pyfunction!(known_variants, m)?)?;
    m.add_function(wrap_pyfunction!(parse_options, m)?)?;
    m.add_function(wrap_pyfunction!(save_header, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sim_rows, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sim_report, m)?)?;
    m.add_function(wrap_pyfunction!(tune::tune, m)?)?;
    m.add("MAX_ACTIONS", catan_engine::sim::MAX_ACTIONS)?;
    Ok(())
}
