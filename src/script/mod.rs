//! The Lua bridge: a sandboxed Lua 5.4 that loads a variant stack, turns its
//! declarations into a `Spec`, and runs its hooks and actions against the `GameState`.
//!
//! The state lives in the Lua app data for the life of the game, so a hook call costs no
//! copy; the engine clones it before an action and puts the clone back if the action
//! fails. Scripts hold no authoritative state: everything they keep goes through `g`.

mod api;
mod api_fast;
mod api_fast_writers;
mod api_slots;
pub mod error;
mod log_format;
mod names;
mod spec_load;

pub use error::{ScriptError, ScriptErrorKind};
pub use spec_load::resolve_options;

use crate::action::{Action, Arg};
use crate::spec::{ArgType, Spec};
use crate::state::GameState;
use crate::value::Value;
use mlua::{Function, HookTriggers, Lua, LuaOptions, StdLib, Table, VmState};
use std::cell::Cell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

/// Instructions one engine call may run before it is stopped as a runaway.
pub const INSTRUCTION_BUDGET: u64 = 50_000_000;
/// Memory the whole Lua state may hold.
pub const MEMORY_CAP: usize = 128 << 20;
/// Memory one engine call may make the Rust side allocate on a script's behalf (messages,
/// stored values, dice, boards): the Lua cap cannot see it.
pub const HOST_MEMORY_CAP: usize = 32 << 20;
/// The text of a whole game's messages (kept in Rust for the log and the REPL).
pub const GAME_MESSAGES_CAP: usize = 64 << 20;
/// What all stored values (`g:set`, `g:pset`) of a game may hold together, in bytes as
/// `Value::size` estimates them.
pub const VARS_CAP: usize = 16 << 20;
const HOOK_EVERY: u32 = 10_000;

/// What the current engine call has spent: instructions (with the work of Rust callbacks
/// and C library functions charged in instruction units) and host memory. Both are reset
/// at the start of every call into the rules.
pub(crate) struct Meter {
    pub used: Rc<Cell<u64>>,
    pub bytes: Rc<Cell<usize>>,
}

/// Charges `units` instructions of work done for the script; past the budget the call is
/// stopped with the file:line of the Lua code that asked for the work.
pub(crate) fn charge(lua: &Lua, units: u64) -> mlua::Result<()> {
    let Some(m) = lua.app_data_ref::<Meter>() else { return Ok(()) };
    let n = m.used.get().saturating_add(units);
    m.used.set(n);
    if n > INSTRUCTION_BUDGET {
        drop(m);
        return Err(mlua::Error::external(over_budget(caller(lua))));
    }
    Ok(())
}

/// Charges `bytes` of host memory allocated for the script in this call.
pub(crate) fn alloc(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    let Some(m) = lua.app_data_ref::<Meter>() else { return Ok(()) };
    let n = m.bytes.get().saturating_add(bytes);
    m.bytes.set(n);
    if n > HOST_MEMORY_CAP {
        drop(m);
        let mut e = ScriptError::new(
            ScriptErrorKind::Memory,
            format!("a script made the engine allocate more than {} MiB in one call", HOST_MEMORY_CAP >> 20),
        );
        e.location = caller(lua);
        return Err(mlua::Error::external(e));
    }
    Ok(())
}

fn over_budget(location: Option<String>) -> ScriptError {
    let mut e = ScriptError::new(
        ScriptErrorKind::Budget,
        format!("a script ran past its budget of {INSTRUCTION_BUDGET} instructions (an endless loop?)"),
    );
    e.location = location;
    e
}

/// "file:line" of the innermost Lua function on the stack (the one that called into Rust).
pub(crate) fn caller(lua: &Lua) -> Option<String> {
    (1..8).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let line = d.current_line()?;
            let src = d.source();
            let file = src.source.as_deref()?.strip_prefix('@')?.to_string();
            Some(format!("{file}:{line}"))
        })
        .flatten()
    })
}

/// The variants shipped with the engine, used when no file of that name is found on disk.
pub const BUILTIN_VARIANTS: &[(&str, &str)] = &[
    ("base", include_str!("../../variants/base.lua")),
    ("family", include_str!("../../variants/family.lua")),
    ("classic", include_str!("../../variants/classic.lua")),
    ("helpers", include_str!("../../variants/helpers.lua")),
    ("friendly_robber", include_str!("../../variants/friendly_robber.lua")),
    ("rivals", include_str!("../../variants/rivals.lua")),
    ("rivals_theme", include_str!("../../variants/rivals_theme.lua")),
    ("rivals_gold", include_str!("../../variants/rivals_gold.lua")),
    ("rivals_turmoil", include_str!("../../variants/rivals_turmoil.lua")),
    ("rivals_progress", include_str!("../../variants/rivals_progress.lua")),
    ("rivals_duel", include_str!("../../variants/rivals_duel.lua")),
];

/// The part files of the shipped variants split over several files (`part "x.lua"`, see
/// `spec_load.rs`), as "variant/file" and source: a variant built in takes its parts from
/// here. `tests/parts.rs` checks that every file under `variants/NAME/` is listed.
pub const BUILTIN_PARTS: &[(&str, &str)] = &[
    ("base/components.lua", include_str!("../../variants/base/components.lua")),
    ("base/small_helpers.lua", include_str!("../../variants/base/small_helpers.lua")),
    ("base/setup.lua", include_str!("../../variants/base/setup.lua")),
    ("base/points.lua", include_str!("../../variants/base/points.lua")),
    ("base/building.lua", include_str!("../../variants/base/building.lua")),
    ("base/production_and_robber.lua", include_str!("../../variants/base/production_and_robber.lua")),
    ("base/development_cards.lua", include_str!("../../variants/base/development_cards.lua")),
    ("base/trade.lua", include_str!("../../variants/base/trade.lua")),
    ("base/end_of_turn.lua", include_str!("../../variants/base/end_of_turn.lua")),
    ("base/5_6_players.lua", include_str!("../../variants/base/5_6_players.lua")),
    ("base/evaluation.lua", include_str!("../../variants/base/evaluation.lua")),
    ("rivals/cards.lua", include_str!("../../variants/rivals/cards.lua")),
    ("rivals/principality.lua", include_str!("../../variants/rivals/principality.lua")),
    ("rivals/advantages.lua", include_str!("../../variants/rivals/advantages.lua")),
    ("rivals/setup.lua", include_str!("../../variants/rivals/setup.lua")),
    ("rivals/dice.lua", include_str!("../../variants/rivals/dice.lua")),
    ("rivals/event_cards.lua", include_str!("../../variants/rivals/event_cards.lua")),
    ("rivals/rolling.lua", include_str!("../../variants/rivals/rolling.lua")),
    ("rivals/building.lua", include_str!("../../variants/rivals/building.lua")),
    ("rivals/action_cards.lua", include_str!("../../variants/rivals/action_cards.lua")),
    ("rivals/trading.lua", include_str!("../../variants/rivals/trading.lua")),
    ("rivals/end_of_turn.lua", include_str!("../../variants/rivals/end_of_turn.lua")),
    ("rivals/editing.lua", include_str!("../../variants/rivals/editing.lua")),
    ("rivals/evaluation.lua", include_str!("../../variants/rivals/evaluation.lua")),
];

/// Where the parts of a loaded variant file are found: the folder named like the file
/// without `.lua` (`variants/rivals.lua` -> `variants/rivals/`), on disk or built in.
#[derive(Debug, Clone)]
pub(crate) enum PartsHome {
    /// `dir` is read; `chunk` is how its files are named in messages.
    Disk { dir: PathBuf, chunk: String },
    /// A built-in variant's name: its parts are in [`BUILTIN_PARTS`].
    Builtin(String),
}

/// A variant file found: its chunk name for messages, its source and its parts' folder.
pub(crate) struct Found {
    pub chunk: String,
    pub source: String,
    pub parts: PartsHome,
}

/// The folder beside a file for its parts: `dir/name.lua` -> `dir/name`.
fn parts_beside(path: &std::path::Path, chunk: &str) -> PartsHome {
    PartsHome::Disk { dir: path.with_extension(""), chunk: chunk.strip_suffix(".lua").unwrap_or(chunk).to_string() }
}

/// Whether `file` may name a part: a relative path inside the variant's folder, folders
/// and a file of letters, digits, `_` and `-`, separated by `/`, ending in `.lua` (so no
/// `..`, no absolute path, no drive or backslash).
pub fn is_part_name(file: &str) -> bool {
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let Some(stem) = file.strip_suffix(".lua") else { return false };
    stem.split('/').all(word)
}

/// Finds part `file` of a variant whose parts live in `home`: (chunk name, source).
pub(crate) fn find_part(home: &PartsHome, file: &str) -> Result<(String, String), String> {
    let folder = match home {
        PartsHome::Disk { chunk, .. } => format!("{chunk}/"),
        PartsHome::Builtin(name) => format!("variants/{name}/"),
    };
    if !is_part_name(file) {
        return Err(format!(
            "part \"{file}\": a part is a file inside the variant's own folder ({folder}), named by a relative \
             path of letters, digits, _ and - ending in .lua, such as \"cards.lua\" or \"sets/gold.lua\" (no \
             '..', no absolute path)"
        ));
    }
    match home {
        PartsHome::Disk { dir, chunk } => {
            let path = dir.join(file);
            // A link inside the folder must not lead out of it.
            let inside = match (dir.canonicalize(), path.canonicalize()) {
                (Ok(d), Ok(p)) => p.starts_with(d),
                _ => true,
            };
            if !inside {
                return Err(format!("part \"{file}\": {} leads outside the variant's folder {folder}", path.display()));
            }
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("part \"{file}\": cannot read {}: {e}", path.display()))?;
            Ok((format!("{chunk}/{file}"), text))
        }
        PartsHome::Builtin(name) => {
            let key = format!("{name}/{file}");
            BUILTIN_PARTS
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, src)| (format!("variants/{key}"), src.to_string()))
                .ok_or_else(|| format!("part \"{file}\": the built-in variant '{name}' has no part {folder}{file}"))
        }
    }
}

/// A message for the game log; `to` limits who may read it (None: everyone).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Message {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to: Option<Vec<usize>>,
}

/// What a script call may touch: the state, and what the call produced.
pub(crate) struct Ctx {
    pub state: GameState,
    pub spec: Arc<Spec>,
    /// Random numbers drawn during the current action, in order.
    pub draws: Vec<u32>,
    pub messages: Vec<Message>,
    pub events: Vec<String>,
    /// Set while the rules are asked something (legal actions, points, whose turn): the
    /// API refuses every change.
    pub read_only: bool,
    /// Set while legal actions are listed or drawn, when nobody reads why an action is
    /// refused: `deny` answers false alone, without its reason or its position.
    pub listing: bool,
    /// Changes with every write the API lets through and every state installed, never to
    /// a number seen before in this Lua state: what `g:cached` keys on. Never shown to
    /// scripts, whose games must not depend on how often a bot forked.
    pub version: u64,
    /// The same, for writes to the slot grids only (`g:cached(fn, arg, "grids")`).
    pub grid_version: u64,
    /// The same per owner of grids (0: the game's, then each seat's), for `g:cached(fn, seat,
    /// "seat_grids")`; an owner missing or below `grid_base` was last changed at `grid_base`.
    pub grid_stamps: Vec<u64>,
    /// The same for the cards alone (not the stores), for `"seat_cards"`.
    pub card_stamps: Vec<u64>,
    pub grid_base: u64,
    /// The spec's names by the address of their Lua strings (`names.rs`).
    pub names: Rc<names::NameIndex>,
    /// `version` when a piece last went on or off the board, or a state was installed:
    /// `piece_counts` is good while this is unchanged.
    pub sites_stamp: u64,
    /// The pieces on the board by site list, seat and kind, kept at `.0 == sites_stamp`:
    /// the victory check asks `g:piece_count` after every action, and a scan of the board
    /// each time was 1.4% of a simulated game.
    pub piece_counts: std::cell::RefCell<(u64, Vec<u32>)>,
    /// Keep no message text (`Game::set_quiet`): each message is only measured, into
    /// `quiet_bytes`, for the game's cap on the text its messages hold.
    pub quiet: bool,
    pub quiet_bytes: usize,
    /// The buffer a quiet `g:log` writes its text into, to measure it.
    pub log_scratch: String,
}

impl Ctx {
    /// Keeps a message of the current call, or, quiet, counts its bytes.
    pub(crate) fn keep_message(&mut self, m: Message) {
        if self.quiet {
            self.quiet_bytes += m.text.len();
        } else {
            self.messages.push(m);
        }
    }

    /// Stamps the state changed (by the engine, or a write of any kind).
    pub(crate) fn touch(&mut self) {
        self.version += 1;
    }

    /// Stamps everything changed (a state installed, the engine at work).
    pub(crate) fn touch_all(&mut self) {
        self.version = self.version.max(self.grid_version) + 1;
        self.grid_version = self.version;
        self.grid_base = self.version;
        self.sites_stamp = self.version;
    }

    /// The pieces of `kind` that `seat` has on the sites of `site`, from the kept counts
    /// (one scan of the board after each change of its pieces).
    pub(crate) fn pieces_on(&self, site: crate::spec::SiteKind, seat: usize, kind: usize) -> usize {
        let (seats, kinds) = (self.state.players.len(), self.spec.pieces.len());
        let mut kept = self.piece_counts.borrow_mut();
        if kept.0 != self.sites_stamp {
            let (stamp, counts) = &mut *kept;
            counts.clear();
            counts.resize(2 * seats * kinds, 0);
            for (list, sites) in [&self.state.intersections, &self.state.paths].into_iter().enumerate() {
                for pc in sites.iter().flatten() {
                    let (o, k) = (pc.owner as usize, pc.kind as usize);
                    if o < seats && k < kinds {
                        counts[(list * seats + o) * kinds + k] += 1;
                    }
                }
            }
            *stamp = self.sites_stamp;
        }
        let list = match site {
            crate::spec::SiteKind::Intersection => 0,
            crate::spec::SiteKind::Path => 1,
        };
        kept.1.get((list * seats + seat) * kinds + kind).map_or(0, |&n| n as usize)
    }

    /// Stamps the grids of `owner` (None: the game's) changed: their stores only, or
    /// `cards` too.
    pub(crate) fn touch_grids(&mut self, owner: Option<i64>, cards: bool) {
        self.version = self.version.max(self.grid_version) + 1;
        self.grid_version = self.version;
        let i = owner.unwrap_or(0).clamp(0, 64) as usize;
        let stamp = |stamps: &mut Vec<u64>, v: u64| {
            if stamps.len() <= i {
                stamps.resize(i + 1, 0);
            }
            stamps[i] = v;
        };
        stamp(&mut self.grid_stamps, self.version);
        if cards {
            stamp(&mut self.card_stamps, self.version);
        }
    }

    /// When the grids of `owner` (0: the game's) last changed.
    pub(crate) fn grid_stamp(&self, owner: usize) -> u64 {
        self.grid_stamps.get(owner).copied().unwrap_or(0).max(self.grid_base)
    }

    /// When the cards on the grids of `owner` last changed (stores aside).
    pub(crate) fn card_stamp(&self, owner: usize) -> u64 {
        self.card_stamps.get(owner).copied().unwrap_or(0).max(self.grid_base)
    }
}

/// Everything of a `Ctx` but the state (`Script::with_output`).
pub(crate) struct Output<'a> {
    pub draws: &'a mut Vec<u32>,
    pub messages: &'a mut Vec<Message>,
    /// The bytes of the messages a quiet game measured instead of keeping.
    pub quiet_bytes: &'a mut usize,
    pub events: &'a mut Vec<String>,
    pub read_only: &'a mut bool,
    pub listing: &'a mut bool,
}

/// A borrow of the state inside the Lua app data.
pub struct StateRef<'a>(mlua::AppDataRef<'a, Ctx>);

impl std::ops::Deref for StateRef<'_> {
    type Target = GameState;
    fn deref(&self) -> &GameState {
        &self.0.state
    }
}

pub struct Script {
    lua: Lua,
    pub spec: Arc<Spec>,
    /// Every variant file of the stack as loaded, (chunk name, source) in load order.
    pub files: Vec<(String, String)>,
    used: Rc<Cell<u64>>,
    g: Table,
    /// The prelude's dispatch functions, looked up once.
    calls: rustc_hash::FxHashMap<&'static str, Function>,
    /// The prelude's `failed_rule`: the hook or action an error was raised in.
    failed_rule: Option<Function>,
    /// The random numbers handed to `sample`, one table refilled for every call, made with
    /// room for `RND_SLOTS` so that filling it never allocates.
    rnd: Table,
    /// The action names as Lua strings, made once each (`perform` passes one per action).
    names: std::cell::RefCell<rustc_hash::FxHashMap<String, mlua::LuaString>>,
    /// The zone, card, piece and grid names by the address of their Lua strings, and
    /// those strings, held so that the addresses stay theirs (`names.rs`).
    name_index: Rc<names::NameIndex>,
    _interned: Vec<mlua::LuaString>,
    /// The action `sample` last drew, for which seat, and the state's version then:
    /// `perform` of that very action on that very state skips the checks the draw made.
    drawn: std::cell::RefCell<Option<(u64, usize, Action)>>,
    /// Checks drawn actions again all the same (`catan check`, debug builds): a listing
    /// that offers what `when` or `legal` refuses is a bug of the variant's.
    recheck_drawn: Cell<bool>,
    /// Messages are measured, not kept (`Game::set_quiet`); copied into every `Ctx`.
    quiet: Cell<bool>,
}

/// The random numbers `sample` takes without growing its table.
const RND_SLOTS: usize = 64;

const DISPATCH: &[&str] = &[
    "setup",
    "perform",
    "legal_actions",
    "sample",
    "to_act",
    "points",
    "describe",
    "card_text",
    "player_text",
    "evaluate",
];

/// Where variants named without a path are looked for, in order, before the built-in
/// copies: every directory of `$CATAN_VARIANTS` (a list like `$PATH`, `:`-separated on
/// Unix), `./variants`, and the `variants/` folder of the source the binary was built from.
pub fn variant_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![];
    if let Some(list) = std::env::var_os("CATAN_VARIANTS") {
        dirs.extend(std::env::split_paths(&list).filter(|d| !d.as_os_str().is_empty()));
    }
    dirs.push(PathBuf::from("variants"));
    dirs.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants"));
    dirs
}

/// The search path as one line, for `catan variants --help` and error messages.
pub const SEARCH_PATH_HELP: &str = "A variant is a stack of names and paths joined by '+': base, base+helpers, \
./mods/house.lua, base+./mods/house.lua. A name ending in .lua is a file, read as given \
(relative to the working directory); a parent it names in `extends` is looked for first beside it. Other names \
are looked up as NAME.lua in each directory of $CATAN_VARIANTS (':'-separated, like \
$PATH), then ./variants, then the variants/ folder of the engine's source, then the copies \
built into the binary.";

/// Whether a stack entry names a file rather than a variant to look up: it ends in `.lua`
/// (any other name is letters, digits, `_` and `-` only).
pub fn is_variant_path(name: &str) -> bool {
    name.ends_with(".lua")
}

/// Finds a variant's source: a path (see [`is_variant_path`]), a file in a variant folder,
/// or a built-in copy. Returns (chunk name for error messages, source).
pub fn find_variant(name: &str) -> Result<(String, String), ScriptError> {
    find_variant_near(name, None)
}

/// Like [`find_variant`], looking first in `near` (the folder of the file that named this
/// variant as its parent), so a mod kept outside `variants/` can bring its own parents.
pub fn find_variant_near(name: &str, near: Option<&std::path::Path>) -> Result<(String, String), ScriptError> {
    locate_variant(name, near, false).map(|f| (f.chunk, f.source))
}

/// [`find_variant_near`], with where the variant's parts are; `built_in`: a name is looked
/// up among the copies built into the binary only.
pub(crate) fn locate_variant(name: &str, near: Option<&std::path::Path>, built_in: bool) -> Result<Found, ScriptError> {
    if is_variant_path(name) {
        let path = name.to_string();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ScriptError::new(ScriptErrorKind::Load, format!("cannot read variant file {path}: {e}")))?;
        return Ok(Found { parts: parts_beside(std::path::Path::new(&path), &path), chunk: path, source: text });
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(ScriptError::new(ScriptErrorKind::Load, format!("'{name}' is not a variant name")));
    }
    if let Some(dir) = near.filter(|d| !built_in && !d.as_os_str().is_empty()) {
        let path = dir.join(format!("{name}.lua"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let chunk = path.to_string_lossy().into_owned();
            return Ok(Found { parts: parts_beside(&path, &chunk), chunk, source: text });
        }
    }
    let from_env = std::env::var_os("CATAN_VARIANTS").map_or(0, |l| std::env::split_paths(&l).count());
    let dirs = if built_in { vec![] } else { variant_dirs() };
    for (i, dir) in dirs.into_iter().enumerate() {
        let path = dir.join(format!("{name}.lua"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            // A mod from $CATAN_VARIANTS keeps its real path in messages; the engine's own
            // folders read as variants/NAME.lua wherever the binary runs.
            let chunk = if i < from_env { path.to_string_lossy().into_owned() } else { format!("variants/{name}.lua") };
            return Ok(Found { parts: parts_beside(&path, &chunk), chunk, source: text });
        }
    }
    BUILTIN_VARIANTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, src)| Found {
            chunk: format!("variants/{n}.lua"),
            source: src.to_string(),
            parts: PartsHome::Builtin(n.to_string()),
        })
        .ok_or_else(|| {
            ScriptError::new(
                ScriptErrorKind::Load,
                format!(
                    "no variant named '{name}' (looked for {name}.lua in {}; `catan variants` lists them, \
                     a path such as ./{name}.lua loads a file)",
                    variant_dirs().iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

/// Names of every variant that can be loaded: built-in and on disk.
pub fn known_variants() -> Vec<String> {
    let mut names: Vec<String> = BUILTIN_VARIANTS.iter().map(|(n, _)| n.to_string()).collect();
    for dir in variant_dirs() {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "lua") {
                    if let Some(stem) = p.file_stem().and_then(|s| s.to_str()) {
                        names.push(stem.to_string());
                    }
                }
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

fn lua_err(e: mlua::Error) -> ScriptError {
    ScriptError::from_lua(&e)
}

impl Script {
    /// Loads a variant stack such as ["base"] or ["base", "helpers"]; each variant's
    /// `extends` parent is loaded first.
    pub fn load(stack: &[String]) -> Result<Script, ScriptError> {
        Script::load_from(stack, false)
    }

    /// Like [`Script::load`], with the variants named (not paths) and their parts taken
    /// from the copies built into the binary only, as a binary run away from its source
    /// and with no `variants/` folder loads them (for tests).
    pub fn load_built_in(stack: &[String]) -> Result<Script, ScriptError> {
        Script::load_from(stack, true)
    }

    fn load_from(stack: &[String], built_in: bool) -> Result<Script, ScriptError> {
        let lua = Lua::new_with(StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8, LuaOptions::default())
            .map_err(lua_err)?;
        let used = Rc::new(Cell::new(0u64));
        let freeze = sandbox(&lua, used.clone())?;
        let read_only = api_fast::read_only_fn(&lua).map_err(lua_err)?;
        let fresh_budget = api_fast::fresh_budget_fn(&lua).map_err(lua_err)?;
        let keep_cached = api_fast::keep_cached_fn(&lua).map_err(lua_err)?;
        let engine: Table = lua
            .load(include_str!("prelude.lua"))
            .set_name("@engine/prelude.lua")
            .call((read_only, fresh_budget, keep_cached))
            .map_err(lua_err)?;
        lua.globals().set("__engine", engine.clone()).map_err(lua_err)?;
        spec_load::install(&lua, built_in)?;
        api_fast::install_deny(&lua).map_err(lua_err)?;
        for name in stack {
            used.set(0);
            spec_load::load_variant(&lua, name)?;
        }
        let (spec, files) = spec_load::finish(&lua, &engine)?;
        let spec = Arc::new(spec);
        let g = api::create(&lua)?;
        engine.get::<Function>("install").and_then(|f| f.call::<()>(g.clone())).map_err(lua_err)?;
        freeze.call::<()>((g.clone(), engine.clone())).map_err(lua_err)?;
        let mut calls = rustc_hash::FxHashMap::default();
        for name in DISPATCH {
            calls.insert(*name, engine.get::<Function>(*name).map_err(lua_err)?);
        }
        let failed_rule = engine.get::<Option<Function>>("failed_rule").map_err(lua_err)?;
        let rnd = lua.create_table_with_capacity(RND_SLOTS + 1, 0).map_err(lua_err)?;
        let mut interned = vec![];
        let mut addresses = std::collections::HashMap::new();
        let all = spec.zones.iter().map(|z| &z.name).chain(spec.cards.iter().map(|c| &c.name));
        for name in all.chain(spec.pieces.iter().map(|p| &p.name)).chain(spec.grids.iter().map(|g| &g.name)) {
            if addresses.contains_key(name.as_str()) {
                continue;
            }
            let s = lua.create_string(name).map_err(lua_err)?;
            addresses.insert(name.as_str(), s.as_bytes().as_ptr() as usize);
            interned.push(s);
        }
        let name_index = Rc::new(names::NameIndex::new(&spec, |n| addresses.get(n).copied()));
        Ok(Script {
            lua,
            spec,
            files,
            used,
            g,
            calls,
            failed_rule,
            rnd,
            names: Default::default(),
            name_index,
            _interned: interned,
            drawn: Default::default(),
            recheck_drawn: Cell::new(cfg!(debug_assertions)),
            quiet: Cell::new(false),
        })
    }

    /// The names of `g`'s methods, sorted, without the engine's internal ones (`_...`):
    /// what `catan check` accepts after `g:` and what the editor stubs must declare.
    pub fn g_methods(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .g
            .pairs::<String, mlua::Value>()
            .flatten()
            .filter(|(k, v)| v.is_function() && !k.starts_with('_'))
            .map(|(k, _)| k)
            .collect();
        names.sort();
        names
    }

    /// The state's version (`Ctx::version`): any change to the state changes it.
    fn version(&self) -> Option<u64> {
        self.lua.app_data_ref::<Ctx>().map(|c| c.version)
    }

    /// Whether `perform` checks an action `sample` drew as it checks any other (see
    /// `recheck_drawn`).
    pub(crate) fn set_recheck_drawn(&self, on: bool) {
        self.recheck_drawn.set(on);
    }

    /// Whether messages are measured only (see `Game::set_quiet`), from the next call on.
    pub(crate) fn set_quiet(&self, on: bool) {
        self.quiet.set(on);
        if let Some(mut c) = self.lua.app_data_mut::<Ctx>() {
            c.quiet = on;
        }
    }

    /// Installs a fresh state (before setup).
    pub(crate) fn set_state(&self, state: GameState) {
        let version = self.lua.app_data_ref::<Ctx>().map_or(0, |c| c.version.max(c.grid_version) + 1);
        self.lua.set_app_data(Ctx {
            version,
            grid_version: version,
            grid_stamps: vec![],
            card_stamps: vec![],
            grid_base: version,
            state,
            spec: self.spec.clone(),
            draws: vec![],
            messages: vec![],
            events: vec![],
            read_only: false,
            listing: false,
            names: self.name_index.clone(),
            sites_stamp: version,
            // Stamped with no version a state can have: counted at the first question.
            piece_counts: std::cell::RefCell::new((u64::MAX, vec![])),
            quiet: self.quiet.get(),
            quiet_bytes: 0,
            log_scratch: String::new(),
        });
        api_fast::refresh(&self.lua);
    }

    pub fn state(&self) -> StateRef<'_> {
        // The context is installed by Game::new before any call; its absence is a bug.
        StateRef(self.lua.app_data_ref::<Ctx>().expect("game state installed"))
    }

    /// The context, the state included: whatever `g:cached` derived from it is dropped.
    pub(crate) fn with_ctx<R>(&self, f: impl FnOnce(&mut Ctx) -> R) -> R {
        let mut c = self.lua.app_data_mut::<Ctx>().expect("game state installed");
        c.touch_all(); // the engine may change the state here
        f(&mut c)
    }

    /// What a call produced and the listing flag, with the state read-only: the engine's
    /// bookkeeping around every call, which keeps what `g:cached` derived.
    pub(crate) fn with_output<R>(&self, f: impl FnOnce(Output<'_>) -> R) -> R {
        let mut c = self.lua.app_data_mut::<Ctx>().expect("game state installed");
        let c = &mut *c;
        f(Output {
            draws: &mut c.draws,
            messages: &mut c.messages,
            quiet_bytes: &mut c.quiet_bytes,
            events: &mut c.events,
            read_only: &mut c.read_only,
            listing: &mut c.listing,
        })
    }

    /// The budget charged so far, to the unit: the units of the last call into the rules
    /// plus what the VM charged since its count hook last ran (which a new call carries).
    #[cfg(test)]
    pub(crate) fn charged(&self) -> (u64, u64) {
        // SAFETY: reads a counter of the Lua state; touches no stack slot.
        let pending =
            unsafe { self.lua.exec_raw::<i64>((), |l| mlua::ffi::lua_pushinteger(l, lua_pendingcharge(l) as i64)) };
        (self.used.get(), pending.unwrap_or(0).max(0) as u64)
    }

    fn call<R: mlua::FromLuaMulti>(&self, func: &str, args: impl mlua::IntoLuaMulti) -> Result<R, ScriptError> {
        // Every call starts with the whole budget: none of it carried over from calls a
        // replay does not make (listings, a bot's thinking), so a game and its replay
        // refuse the same actions.
        self.used.set(0);
        // SAFETY: sets a counter of the Lua state; touches no stack slot and cannot raise,
        // so it needs no protected call.
        self.lua.exec_raw_lua(|raw| unsafe { lua_resetcharge(raw.state()) });
        if let Some(m) = self.lua.app_data_ref::<Meter>() {
            m.bytes.set(0);
        }
        let f = self
            .calls
            .get(func)
            .ok_or_else(|| ScriptError::new(ScriptErrorKind::Runtime, format!("no dispatch function {func}")))?;
        f.call::<R>(args).map_err(|e| {
            let mut se = lua_err(e);
            // The rule (hook or action) that was running when the error was raised.
            if let Some(rule) = &self.failed_rule {
                // A fresh budget: the failed call may have spent it all.
                self.used.set(0);
                if let Ok((name, variant)) = rule.call::<(Option<String>, Option<String>)>(()) {
                    se.rule = se.rule.take().or(name);
                    se.variant = se.variant.take().or(variant);
                }
            }
            if se.kind == ScriptErrorKind::Memory {
                // Free what the failed call left behind, so the next action has room.
                let _ = self.lua.gc_collect();
                let _ = self.lua.gc_collect();
            }
            se
        })
    }

    /// Runs the `setup` sequence.
    pub fn setup(&self) -> Result<(), ScriptError> {
        self.call::<()>("setup", self.g.clone())
    }

    /// Applies an action: Ok(the seat to act next, None once the game is won) if done, Err
    /// if rejected or failed. The caller restores the state on error.
    pub fn perform(&self, seat: usize, action: &Action) -> Result<Option<usize>, ScriptError> {
        let args = self.args_to_lua(action)?;
        let name = self.name_of(&action.name)?;
        // Drawn by `sample` from the rules' own options, for this seat, with nothing
        // changed since: `when` and `legal` said yes to it already.
        let (version, over) =
            self.lua.app_data_ref::<Ctx>().map_or((None, false), |c| (Some(c.version), c.state.winner.is_some()));
        let drawn = self
            .drawn
            .borrow_mut()
            .take()
            .is_some_and(|(v, s, a)| !self.recheck_drawn.get() && s == seat && a == *action && Some(v) == version);
        type Answer = (bool, Option<String>, Option<String>, Option<String>, Option<i64>);
        // `over`: the game is won (the prelude refuses), told rather than asked back.
        let answer = self.call::<Answer>("perform", (self.g.clone(), seat + 1, name, drawn, over, args));
        // The prelude asks who acts next read-only, in the same call.
        self.with_output(|c| *c.read_only = false);
        let (ok, reason, at, variant, next) = answer?;
        if ok {
            return next.map(|s| self.seat_from(s)).transpose();
        }
        Err(ScriptError {
            kind: ScriptErrorKind::Rejected,
            message: reason.unwrap_or_else(|| "not allowed".into()),
            location: at,
            variant,
            rule: None,
        })
    }

    /// An action's name as a Lua string, made once.
    fn name_of(&self, name: &str) -> Result<mlua::LuaString, ScriptError> {
        if let Some(s) = self.names.borrow().get(name) {
            return Ok(s.clone());
        }
        let s = self.lua.create_string(name).map_err(lua_err)?;
        // Only the variant's own actions are kept: a name typed wrong is not.
        if self.spec.action(name).is_some() {
            self.names.borrow_mut().insert(name.to_string(), s.clone());
        }
        Ok(s)
    }

    /// `call` with the state read-only, as the rules are asked something; with `listing`,
    /// also marked as listing legal actions (see `Ctx::listing`). Both flags are off after.
    fn ask<R: mlua::FromLuaMulti>(
        &self,
        listing: bool,
        func: &str,
        args: impl mlua::IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        self.with_output(|c| {
            *c.read_only = true;
            *c.listing = listing;
        });
        let r = self.call::<R>(func, args);
        self.with_output(|c| {
            *c.read_only = false;
            *c.listing = false;
        });
        r
    }

    /// Every action `seat` may take now, and the templates of those that cannot be
    /// listed (such as trade offers).
    pub fn legal_actions(&self, seat: usize) -> Result<(Vec<Action>, Vec<String>), ScriptError> {
        let result = self.ask::<(Table, Table)>(true, "legal_actions", (self.g.clone(), seat + 1));
        let (list, templates) = result?;
        let mut out = Vec::with_capacity(list.raw_len());
        for entry in list.sequence_values::<Table>() {
            let entry = entry.map_err(lua_err)?;
            let name: String = entry.raw_get(1).map_err(lua_err)?;
            let args: mlua::Value = entry.raw_get(2).map_err(lua_err)?;
            out.push(self.action_from_lua(&name, args)?);
        }
        let mut tpl = vec![];
        for name in templates.sequence_values::<String>() {
            let name = name.map_err(lua_err)?;
            if let Some(a) = self.spec.action(&name) {
                tpl.push(a.template());
            }
        }
        Ok((out, tpl))
    }

    /// A random legal action for `seat`, drawn with the numbers in `rnd` (each in [0, 1)):
    /// Ok(Err(())) when more numbers are needed.
    pub fn sample(&self, seat: usize, rnd: &[f64]) -> Result<Result<Option<Action>, ()>, ScriptError> {
        // Filled through the C API: a table per call and a `raw_set` per number were a
        // tenth of a simulated game. `fill` sets the numbers, then nil after the last
        // (whatever a longer call left after it), in the table at stack index `t`.
        let fill = |l: *mut mlua::ffi::lua_State, t: std::ffi::c_int| unsafe {
            for (i, x) in rnd.iter().enumerate() {
                mlua::ffi::lua_pushnumber(l, *x);
                mlua::ffi::lua_rawseti(l, t, i as i64 + 1);
            }
            mlua::ffi::lua_pushnil(l);
            mlua::ffi::lua_rawseti(l, t, rnd.len() as i64 + 1);
        };
        let filled = rnd.len() < RND_SLOTS
            && self.lua.exec_raw_lua(|raw| unsafe {
                // SAFETY: the slots 1..=RND_SLOTS exist (the table was made with them), so
                // setting them allocates nothing and cannot raise: no protected call needed.
                let l = raw.state();
                let top = mlua::ffi::lua_gettop(l);
                if mlua::ffi::lua_checkstack(l, 3) == 0 || raw.push(&self.rnd).is_err() {
                    mlua::ffi::lua_settop(l, top);
                    return false;
                }
                fill(l, mlua::ffi::lua_absindex(l, -1));
                mlua::ffi::lua_settop(l, top);
                true
            });
        if !filled {
            // More numbers than the table has room for: filled in a protected call.
            // SAFETY: the closure sees the table at stack index 1 and leaves the stack empty.
            unsafe {
                self.lua.exec_raw::<()>(&self.rnd, |l| {
                    fill(l, 1);
                    mlua::ffi::lua_settop(l, 0);
                })
            }
            .map_err(lua_err)?;
        }
        let r = self.ask::<(Option<String>, mlua::Value)>(true, "sample", (self.g.clone(), seat + 1, self.rnd.clone()));
        match r? {
            (Some(name), option) => {
                let action = self.action_from_lua(&name, option)?;
                if let Some(version) = self.version() {
                    *self.drawn.borrow_mut() = Some((version, seat, action.clone()));
                }
                Ok(Ok(Some(action)))
            }
            (None, mlua::Value::String(_)) => Ok(Err(())),
            (None, _) => Ok(Ok(None)),
        }
    }

    /// The seat expected to act next.
    pub fn to_act(&self) -> Result<usize, ScriptError> {
        self.seat_from(self.ask::<i64>(false, "to_act", self.g.clone())?)
    }

    /// A 0-based seat from the 1-based one `to_act` answered.
    fn seat_from(&self, seat: i64) -> Result<usize, ScriptError> {
        let n = self.state().players.len() as i64;
        if seat < 1 || seat > n {
            return Err(ScriptError::new(ScriptErrorKind::Runtime, format!("to_act returned seat {seat}, not 1..{n}")));
        }
        Ok(seat as usize - 1)
    }

    /// Victory points of `seat`; `hidden` counts what only the owner knows.
    pub fn points(&self, seat: usize, hidden: bool) -> Result<i64, ScriptError> {
        self.ask::<i64>(false, "points", (self.g.clone(), seat + 1, hidden))
    }

    /// Extra per-player facts a variant shows (knights played, special cards, ...).
    pub fn describe(&self, seat: usize) -> Result<Value, ScriptError> {
        let r = self.ask::<mlua::Value>(false, "describe", (self.g.clone(), seat + 1))?;
        api::from_lua_value(&r).map_err(lua_err).map(|v| v.unwrap_or(Value::Map(Default::default())))
    }

    /// The rules text of one kind of card (the variant's `card_text` filter), if it has one.
    pub fn card_text(&self, kind: &str) -> Result<Option<String>, ScriptError> {
        self.ask::<Option<String>>(false, "card_text", (self.g.clone(), kind.to_string()))
    }

    /// Text for a player at the table, from a variant's filter: `welcome` (seat and action
    /// unused) or `action_note` (what `action` costs `seat` now, say).
    pub fn player_text(&self, point: &str, seat: usize, action: &str) -> Result<Option<String>, ScriptError> {
        self.ask::<Option<String>>(false, "player_text", (self.g.clone(), point, seat + 1, action))
    }

    /// The `evaluate` filter for every seat (victory points without one), for bots.
    pub fn evaluate(&self) -> Result<Vec<f64>, ScriptError> {
        let v = self.ask::<Vec<f64>>(false, "evaluate", self.g.clone())?;
        let n = self.state().players.len();
        if v.len() != n || v.iter().any(|x| !x.is_finite()) {
            return Err(ScriptError::new(
                ScriptErrorKind::Runtime,
                "the evaluate filter must return a finite number for every seat".to_string(),
            ));
        }
        Ok(v)
    }

    /// An action's arguments as the Lua values its hooks take, passed to `perform` as
    /// trailing arguments: no table to make and unpack for each action.
    fn args_to_lua(&self, action: &Action) -> Result<mlua::Variadic<mlua::Value>, ScriptError> {
        let mut out = mlua::Variadic::with_capacity(action.args.len());
        for a in &action.args {
            out.push(match a {
                Arg::Intersection(n) | Arg::Path(n) | Arg::Hex(n) | Arg::Player(n) => {
                    mlua::Value::Integer(*n as i64 + 1)
                }
                Arg::Int(n) => mlua::Value::Integer(*n),
                Arg::Resource(s) | Arg::Word(s) | Arg::Slot(s) => {
                    mlua::Value::String(self.lua.create_string(s).map_err(lua_err)?)
                }
                Arg::Cards(cards) => {
                    let ct = self.lua.create_table().map_err(lua_err)?;
                    for (k, n) in cards {
                        ct.raw_set(k.as_str(), *n).map_err(lua_err)?;
                    }
                    mlua::Value::Table(ct)
                }
            });
        }
        Ok(out)
    }

    fn action_from_lua(&self, name: &str, args: mlua::Value) -> Result<Action, ScriptError> {
        let spec = self.spec.action(name).ok_or_else(|| {
            ScriptError::new(ScriptErrorKind::Runtime, format!("legal actions listed unknown action '{name}'"))
        })?;
        // Most actions a bot draws take no argument (roll, end): nothing to convert.
        if spec.arg_types().next().is_none() {
            return Ok(Action { name: name.to_string(), args: vec![] });
        }
        let types: Vec<ArgType> = spec.arg_types().collect();
        // One argument may be given bare; several come as a list.
        let values: Vec<mlua::Value> = match (&args, types.len()) {
            (_, 0) => vec![],
            (mlua::Value::Table(t), 1) if types[0] != ArgType::Cards => {
                vec![t.raw_get(1).map_err(lua_err)?]
            }
            (_, 1) => vec![args.clone()],
            (mlua::Value::Table(t), n) => (1..=n).map(|i| t.raw_get(i)).collect::<Result<_, _>>().map_err(lua_err)?,
            _ => {
                return Err(ScriptError::new(
                    ScriptErrorKind::Runtime,
                    format!("options of '{name}' must be lists of {} arguments", types.len()),
                ))
            }
        };
        let mut out = Vec::with_capacity(types.len());
        for (t, v) in types.iter().zip(values) {
            out.push(
                api::arg_from_lua(*t, &v)
                    .map_err(|e| ScriptError::new(ScriptErrorKind::Runtime, format!("bad option for '{name}': {e}")))?,
            );
        }
        Ok(Action { name: name.to_string(), args: out })
    }
}

/// Installs the limits and the safe library; returns the function that freezes what the
/// engine hands to scripts, called once loading is done.
fn sandbox(lua: &Lua, used: Rc<Cell<u64>>) -> Result<Function, ScriptError> {
    lua.set_memory_limit(MEMORY_CAP).map_err(lua_err)?;
    let bytes = Rc::new(Cell::new(0));
    lua.set_app_data(Meter { used: used.clone(), bytes: bytes.clone() });
    lua.set_app_data(api_fast::FastSlot::new(used.clone(), bytes));
    // Rules allocate many short-lived tables (argument lists, options): the generational
    // collector handles those much more cheaply than the incremental one.
    lua.gc_set_mode(mlua::state::GcMode::Generational(mlua::state::GcGenParams::default()));
    lua.set_hook(HookTriggers::new().every_nth_instruction(HOOK_EVERY), move |lua, debug| {
        let n = used.get().saturating_add(HOOK_EVERY as u64);
        used.set(n);
        if n > INSTRUCTION_BUDGET {
            let src = debug.source();
            let at = match (src.source.as_deref(), debug.current_line()) {
                (Some(file), Some(line)) => Some(format!("{}:{}", file.trim_start_matches('@'), line)),
                // Charged inside a library function (lua_charge): name the script's line.
                _ => caller(lua),
            };
            return Err(mlua::Error::external(over_budget(at)));
        }
        Ok(VmState::Continue)
    })
    .map_err(lua_err)?;
    lua.load(
        r##"
        -- Refused with the caller's file:line (error level 2).
        local error, setmetatable = error, setmetatable
        for _, lib in ipairs({ "os", "io", "debug", "package" }) do
          local msg = "'" .. lib .. "' is not available to variant scripts (sandbox)"
          _G[lib] = setmetatable({}, { __index = function() error(msg, 2) end })
        end
        for _, f in ipairs({ "load", "loadstring", "dofile", "loadfile", "require", "collectgarbage", "pcall", "xpcall" }) do
          local msg = "'" .. f .. "' is not available to variant scripts (sandbox)"
          _G[f] = function() error(msg, 2) end
        end
    "##,
    )
    .set_name("@engine/sandbox.lua")
    .exec()
    .map_err(lua_err)?;
    let freeze: Function = lua
        .load(
            r##"
        math.random = function() error("math.random is not available: use g:random(n), which is seeded", 2) end
        math.randomseed = math.random
        local type, getmetatable, setmetatable, select = type, getmetatable, setmetatable, select
        local rawnext, raw_rawset, raw_tostring, raw_error = next, rawset, tostring, error
        local sort, concat, mtype = table.sort, table.concat, math.type

        -- tostring never shows an address: what a script can observe is the same in every
        -- run and replay.
        function tostring(v)
          local t = type(v)
          if t == "table" or t == "userdata" then
            local mt = getmetatable(v)
            if type(mt) == "table" and mt.__tostring ~= nil then return raw_tostring(v) end
            if type(mt) == "table" and type(mt.__name) == "string" then return mt.__name end
            return t
          elseif t == "function" or t == "thread" then
            return t
          end
          return raw_tostring(v)
        end
        local tostring = tostring

        -- error(x) with x not a string (a table, nil) would lose the file:line Lua adds to
        -- string messages: turn it into a string first.
        function error(msg, level)
          if type(msg) ~= "string" then
            if msg == nil then msg = "error() was called without a message"
            elseif type(msg) == "number" then msg = tostring(msg)
            else msg = "error() was called with a " .. type(msg) .. " (" .. tostring(msg) .. "), not a message" end
          end
          if mtype(level) ~= "integer" then level = 1 end
          if level > 0 then level = level + 1 end
          raw_error(msg, level)
        end
        local error = error

        -- pairs walks keys in sorted order, so every run of a seed iterates the same way.
        -- Keys with no fixed order (tables, functions) are refused.
        local ordered = { number = true, string = true, boolean = true }
        local function before(a, b)
          local ta, tb = type(a), type(b)
          if ta ~= tb then return ta < tb end
          if ta == "boolean" then return not a and b end
          return a < b
        end
        function pairs(t)
          local mt = getmetatable(t)
          if type(mt) == "table" and mt.__pairs then return mt.__pairs(t) end
          local keys, n, mixed = {}, 0, false
          local first
          for k in rawnext, t do
            local tk = type(k)
            if not ordered[tk] then
              error("pairs: a table with " .. tk .. " keys has no fixed order (use string or number keys)", 2)
            end
            n = n + 1
            keys[n] = k
            if n == 1 then first = tk elseif tk ~= first then mixed = true end
          end
          -- Keys all strings or all numbers (nearly every table) sort by `<` itself, in C;
          -- `before` orders the same way and the rest.
          if n > 1 then
            if mixed or first == "boolean" then sort(keys, before) else sort(keys) end
          end
          local i = 0
          return function()
            i = i + 1
            local k = keys[i]
            if k ~= nil then return k, t[k] end
          end, t, nil
        end
        print = function(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          __debug_print(concat(parts, "\t"))
        end

        -- Freezing: the tables the engine hands to scripts keep their identity and their
        -- contents, and refuse every write (rawset included). The patched VM sends every
        -- write to a frozen table, to a new key or an old one, to `__newindex` (`mark`,
        -- `lua_freeze`); reads stay as fast as any table's, which matters for `g:` and
        -- globals, read a few hundred times an action.
        local mark = ...
        local frozen = setmetatable({}, { __mode = "k" })
        function rawset(t, k, v)
          if frozen[t] then error("this table is frozen (sandbox)", 2) end
          return raw_rawset(t, k, v)
        end
        local function freeze(t, name)
          frozen[t] = true
          local msg = "'" .. name .. "' is frozen: a variant changes the rules through hooks and actions, "
            .. "not by changing what the engine provides"
          setmetatable(t, { __newindex = function() error(msg, 2) end, __metatable = false })
          mark(t)
        end
        -- Called once the variants are loaded and `g` is complete.
        return function(g, engine)
          for _, lib in ipairs({ "string", "table", "math", "utf8" }) do freeze(_G[lib], lib) end
          getmetatable("").__metatable = false
          freeze(g, "g")
          freeze(engine, "__engine")
          freeze(_G, "the global environment")
        end
    "##,
        )
        .set_name("@engine/sandbox.lua")
        .call(mark_frozen(lua).map_err(lua_err)?)
        .map_err(lua_err)?;
    bound_string_library(lua).map_err(lua_err)?;
    Ok(freeze)
}

// What the vendored Lua adds to its C API (`vendor/README.md`).
extern "C-unwind" {
    /// Freezes the table at `idx`: every write to it takes `__newindex` (or fails).
    fn lua_freeze(l: *mut mlua::ffi::lua_State, idx: std::ffi::c_int);
    /// Gives the count hook a fresh countdown (a new call into the rules).
    pub(crate) fn lua_resetcharge(l: *mut mlua::ffi::lua_State);
    /// The units charged since the count hook last ran.
    pub(crate) fn lua_pendingcharge(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
    /// Charges `n` units to the count hook, as the VM charges its instructions.
    pub(crate) fn lua_charge(l: *mut mlua::ffi::lua_State, n: mlua::ffi::lua_Integer);
    /// The units the VM charges on entering the Lua function at `idx` (0 for others).
    pub(crate) fn lua_codesize(l: *mut mlua::ffi::lua_State, idx: std::ffi::c_int) -> mlua::ffi::lua_Integer;
}

/// `mark(t)`: freezes the table `t` (the sandbox's `freeze` sets its metatable first).
fn mark_frozen(lua: &Lua) -> mlua::Result<Function> {
    unsafe extern "C-unwind" fn mark(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
        if mlua::ffi::lua_type(l, 1) == mlua::ffi::LUA_TTABLE {
            lua_freeze(l, 1);
        }
        0
    }
    // SAFETY: `mark` reads one argument and pushes nothing.
    unsafe { lua.create_c_function(mark) }
}

/// Wraps the string functions whose work a count hook cannot see (they run in C): each
/// charges its worst case to the instruction budget before it runs.
fn bound_string_library(lua: &Lua) -> mlua::Result<()> {
    let string: Table = lua.globals().get("string")?;
    for name in ["find", "match", "gmatch", "gsub", "rep", "format"] {
        let original: Function = string.get(name)?;
        let wrapped = lua.create_function(move |lua, mut args: mlua::MultiValue| {
            let len = |i: usize| match args.get(i) {
                Some(mlua::Value::String(s)) => s.as_bytes().len(),
                Some(mlua::Value::Integer(_) | mlua::Value::Number(_)) => 24,
                _ => 0,
            };
            let cost = match name {
                "rep" => {
                    let n = match args.get(1) {
                        Some(mlua::Value::Integer(n)) => (*n).max(0) as u64,
                        Some(mlua::Value::Number(n)) => n.max(0.0) as u64,
                        _ => 0,
                    };
                    let bytes = n.saturating_mul(len(0) as u64 + len(2) as u64);
                    if bytes > MEMORY_CAP as u64 {
                        return Err(located(
                            lua,
                            format!("string.rep: a result of {bytes} bytes is past the memory cap"),
                        ));
                    }
                    // One copy per repetition, then the bytes.
                    n + bytes / 16 + 1
                }
                "format" => format_args_safe(lua, &mut args)?,
                _ => {
                    let pattern = match args.get(1) {
                        Some(mlua::Value::String(p)) => p.as_bytes().to_vec(),
                        _ => vec![],
                    };
                    let plain =
                        args.get(3).is_some_and(|v| !matches!(v, mlua::Value::Nil | mlua::Value::Boolean(false)));
                    // gsub also builds its result, up to a copy of the subject per match.
                    let building = if name == "gsub" { 4 * len(0) as u64 } else { 0 };
                    pattern_cost(len(0), &pattern, plain && name == "find", name == "gmatch").saturating_add(building)
                }
            };
            charge(lua, cost)?;
            original.call::<mlua::MultiValue>(args).map_err(|e| match e {
                mlua::Error::CallbackError { cause, .. } => api::locate(lua, (*cause).clone()),
                other => api::locate(lua, other),
            })
        })?;
        string.set(name, wrapped)?;
    }
    Ok(())
}

fn located(lua: &Lua, msg: String) -> mlua::Error {
    match caller(lua) {
        Some(at) => mlua::Error::runtime(format!("{at}: {msg}")),
        None => mlua::Error::runtime(msg),
    }
}

/// string.format: refuses `%p` (an address) and prints tables and functions with the
/// sandbox's `tostring`; returns the work to charge.
fn format_args_safe(lua: &Lua, args: &mut mlua::MultiValue) -> mlua::Result<u64> {
    if let Some(mlua::Value::String(f)) = args.front() {
        let f = f.as_bytes();
        let mut i = 0;
        while i < f.len() {
            if f[i] == b'%' {
                i += 1;
                while i < f.len() && b"-+ #0123456789.".contains(&f[i]) {
                    i += 1;
                }
                if f.get(i) == Some(&b'p') {
                    return Err(located(
                        lua,
                        "string.format: %p shows an address, which differs from run to run".into(),
                    ));
                }
            }
            i += 1;
        }
    }
    let tostring: Function = lua.globals().get("tostring")?;
    let mut cost = 1u64;
    for v in args.iter_mut() {
        if matches!(
            v,
            mlua::Value::Table(_) | mlua::Value::Function(_) | mlua::Value::Thread(_) | mlua::Value::UserData(_)
        ) {
            *v = tostring.call::<mlua::Value>(v.clone())?;
        }
        if let mlua::Value::String(s) = v {
            cost += s.as_bytes().len() as u64 / 16;
        }
        cost += 1;
    }
    Ok(cost)
}

/// The worst-case number of steps of Lua's backtracking matcher for `pattern` over a
/// subject of `n` bytes. Each single-character item followed by `*`, `+`, `-` or `?` is a
/// choice of where it ends; the ends of q such items are a non-decreasing sequence, so at
/// most C(n+q, q) paths are tried, each scanning the pattern and, at most once per
/// quantifier, `%b` or back-reference, the subject. Unanchored, that is tried from every
/// start. An upper bound, cheap to compute before the C code runs.
fn pattern_cost(n: usize, pattern: &[u8], plain: bool, every_start: bool) -> u64 {
    let nf = n as f64;
    if plain {
        return (nf + nf * pattern.len() as f64 / 16.0) as u64 + 1;
    }
    let anchored = pattern.first() == Some(&b'^');
    let p = if anchored { &pattern[1..] } else { pattern };
    let (mut quantified, mut scans) = (0u32, 0u32);
    let mut i = 0;
    while i < p.len() {
        let single = match p[i] {
            b'(' | b')' | b'$' => {
                i += 1;
                false
            }
            b'%' => match p.get(i + 1) {
                Some(b'b') => {
                    scans += 1;
                    i += 4;
                    false
                }
                Some(b'f') => {
                    i = class_end(p, i + 2);
                    false
                }
                Some(c) if c.is_ascii_digit() => {
                    scans += 1;
                    i += 2;
                    false
                }
                _ => {
                    i += 2;
                    true
                }
            },
            b'[' => {
                i = class_end(p, i);
                true
            }
            _ => {
                i += 1;
                true
            }
        };
        if single && matches!(p.get(i), Some(b'*' | b'+' | b'-' | b'?')) {
            quantified += 1;
            i += 1;
        }
    }
    let mut paths = 1f64;
    for j in 1..=quantified {
        paths *= (nf + j as f64) / j as f64;
    }
    let per_path = p.len() as f64 + (quantified + scans) as f64 * nf + 1.0;
    let starts = if anchored && !every_start { 1.0 } else { nf + 1.0 };
    let cost = paths * per_path * starts;
    if cost >= u64::MAX as f64 {
        u64::MAX
    } else {
        cost as u64
    }
}

/// The index just past a `[set]` starting at `i`, as Lua's `classEnd` reads it.
fn class_end(p: &[u8], mut i: usize) -> usize {
    i += 1;
    if p.get(i) == Some(&b'^') {
        i += 1;
    }
    loop {
        let Some(&c) = p.get(i) else { return p.len() };
        i += 1;
        if c == b'%' {
            i += 1;
        }
        match p.get(i) {
            None => return p.len(),
            Some(b']') => return i + 1,
            _ => {}
        }
    }
}

/// For `catan variants`: the declared description of a file without running a game.
pub fn describe_variant(name: &str) -> Result<Spec, ScriptError> {
    Ok((*Script::load(&[name.to_string()])?.spec).clone())
}
