//! The Lua bridge: a sandboxed Lua 5.4 that loads a variant stack, turns its
//! declarations into a `Spec`, and runs its hooks and actions against the `GameState`.
//!
//! The state lives in the Lua app data for the life of the game, so a hook call costs no
//! copy; the engine clones it before an action and puts the clone back if the action
//! fails. Scripts hold no authoritative state: everything they keep goes through `g`.

mod api;
mod api_board;
mod api_cards;
mod api_fast;
mod api_pieces;
mod api_production;
mod api_slots;
mod api_turn;
mod api_values;
mod ctx;
mod declared;
pub mod error;
mod freeze;
mod listing;
mod log_format;
mod methods;
mod names;
mod sandbox;
mod spec_load;
mod terms;
mod trace;
mod variants;

#[doc(hidden)]
pub use api_fast::set_fast_methods;
pub(crate) use ctx::{Ctx, Output};
pub use ctx::{GridStamps, Message, Stamps};
#[doc(hidden)]
pub use declared::set_declared_checks;
pub use error::{ScriptError, ScriptErrorKind};
#[doc(hidden)]
pub use methods::{fast_method_names, record_fast_answers};
pub(crate) use sandbox::{
    alloc, caller, charge, lua_charge, lua_codesize, lua_cslot, lua_memerrorplace, lua_pendingcharge,
    lua_pushlstringcached, lua_resetcharge, lua_setnumbers, lua_tointegernum, lua_tostringonly, Budget, Meter,
    HOOK_EVERY,
};
pub use sandbox::{GAME_MESSAGES_CAP, HOST_MEMORY_CAP, INSTRUCTION_BUDGET, MEMORY_CAP, VARS_CAP};
pub use spec_load::resolve_options;
pub(crate) use terms::SeatTerms;
use terms::TermNames;
pub use terms::Terms;
pub use trace::{changed_cards, TraceEntry};
pub use variants::{
    describe_variant, find_variant, find_variant_near, is_part_name, is_variant_path, known_variants, variant_dirs,
    BUILTIN_PARTS, BUILTIN_VARIANTS, SEARCH_PATH_HELP,
};
pub(crate) use variants::{find_part, locate_variant, PartsHome};

use crate::action::{Action, Arg};
use crate::spec::Spec;
use crate::state::GameState;
use crate::value::Value;
use mlua::{ffi, Function, Lua, LuaOptions, StdLib, Table};
use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

/// The context of the game the rules act on, owned by the `Script` (boxed: its address is
/// fixed). The engine reads it straight from there: mlua's app data is a hash map by type
/// behind a lock, about 75 machine instructions a look, which the engine made a dozen times
/// an action (2% of a random-bot game). The app data holds its address (`CtxHome`) for the
/// `g:` methods' mlua functions, and `api_fast::FastSlot` for their C functions.
pub(crate) type CtxCell = std::cell::RefCell<Option<Ctx>>;

/// Where the `Script` keeps the context (`CtxCell`), in the app data of its Lua state.
pub(crate) struct CtxHome(pub(crate) *const CtxCell);

/// A borrow of the state inside the context.
pub struct StateRef<'a>(std::cell::Ref<'a, Ctx>);

impl std::ops::Deref for StateRef<'_> {
    type Target = GameState;
    fn deref(&self) -> &GameState {
        &self.0.state
    }
}

/// A listing kept (`Script::listed`): the state's content, the seat, the actions, the
/// templates.
type Listing = (u64, usize, Vec<Action>, Vec<String>);

pub struct Script {
    lua: Lua,
    /// The game's context (`CtxCell`), `None` until a state is installed. Dropped after
    /// `lua`, whose functions hold its address.
    ctx: Box<CtxCell>,
    pub spec: Arc<Spec>,
    /// Every variant file of the stack as loaded, (chunk name, source) in load order.
    pub files: Vec<(String, String)>,
    budget: Rc<Budget>,
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
    /// The actions `legal_actions` last listed, for which seat, and the content of the
    /// state then (`Ctx::content`): `perform` of one of them on that content skips the
    /// checks the listing made, as for a drawn action. A bot lists a position, then puts
    /// it back before each action it tries (`Game::restore` puts its content back).
    /// With the templates it gave: the same listing asked again on that content (a bot
    /// that lists a position it put back) is answered from it.
    listed: std::cell::RefCell<Listing>,
    /// Checks drawn and listed actions again all the same (`catan check`, debug builds): a
    /// listing that offers what `when` or `legal` refuses is a bug of the variant's.
    recheck_drawn: Cell<bool>,
    /// This Lua state's number among every one the process made: the stamps a snapshot
    /// takes (`Stamps`) are put back only in the state that issued them.
    stamps_owner: u64,
    /// Messages are measured, not kept (`Game::set_quiet`); copied into every `Ctx`.
    quiet: Cell<bool>,
    /// The actions the rules cannot list (templates): each one taken is noted in the
    /// state's `unlisted` (most stacks have none or one or two).
    unlisted: Vec<String>,
    /// The declared needs of actions the engine checks itself (`declared.rs`); copied
    /// into every `Ctx`.
    declared: Rc<declared::Declared>,
    /// The names of the named features seen so far (`terms`).
    term_names: std::cell::RefCell<TermNames>,
    /// The positions `terms` was asked of so far, and the seats' terms it computed (the
    /// rest were kept).
    term_positions: Cell<u64>,
    term_computations: Cell<u64>,
}

/// The random numbers `sample` takes without growing its table.
const RND_SLOTS: usize = 64;

/// What `Script::play` did: a draw that needs more numbers, none to draw, or the action
/// drawn, performed, and the seat to act next (if the rules said).
pub(crate) enum Played {
    More,
    Nothing,
    Done(Action, Option<usize>),
}

const DISPATCH: &[&str] = &[
    "setup",
    "perform",
    "legal_actions",
    "sample",
    "play",
    "to_act",
    "points",
    "describe",
    "card_text",
    "unavailable",
    "points_by_source",
    "tallies",
    "player_text",
    "features",
    "seat_terms",
    "has_filter",
    "metrics",
    "cached_computations",
    "forget_kept",
    "trace_start",
    "trace_take",
    "debug_take",
    "options_at",
];

/// The registry name of the prelude's table of entry points (`engine` in prelude.lua).
const ENGINE_KEY: &str = "catan.engine";

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
        let budget = Rc::new(Budget::new());
        let freeze = sandbox::sandbox(&lua, budget.clone())?;
        let ctx: Box<CtxCell> = Box::default();
        lua.set_app_data(CtxHome(&*ctx));
        let read_only = api_fast::read_only_fn(&lua).map_err(lua_err)?;
        let fresh_budget = api_fast::fresh_budget_fn(&lua).map_err(lua_err)?;
        let keep_cached = api_fast::keep_cached_fn(&lua).map_err(lua_err)?;
        let engine: Table = lua
            .load(include_str!("prelude.lua"))
            // `=`: no variant's file can have this name (theirs are `@` and a path), which
            // is how freezing tells the engine's functions from the rules' (freeze.rs).
            .set_name("=engine/prelude.lua")
            // Debug builds check every option a rule's `sample` draws against its listing.
            .call((
                read_only,
                fresh_budget,
                keep_cached,
                cfg!(debug_assertions),
                freeze::freeze_value_fn(&lua).map_err(lua_err)?,
                trace::card_stamp_fn(&lua).map_err(lua_err)?,
                declared::lacking_fn(&lua).map_err(lua_err)?,
                api_fast::keep_run_fn(&lua).map_err(lua_err)?,
                api_fast::new_table_fn(&lua).map_err(lua_err)?,
                api_fast::take_drawn_fn(&lua).map_err(lua_err)?,
            ))
            .map_err(lua_err)?;
        // Out of the scripts' reach (no global names it): the engine's entry points are
        // the engine's to call, one budget per call.
        lua.set_named_registry_value(ENGINE_KEY, engine.clone()).map_err(lua_err)?;
        spec_load::install(&lua, built_in)?;
        api_fast::install_deny(&lua).map_err(lua_err)?;
        for name in stack {
            budget.used.set(0);
            spec_load::load_variant(&lua, name)?;
        }
        let (spec, files) = spec_load::finish(&lua, &engine)?;
        let spec = Arc::new(spec);
        let g = api::create(&lua)?;
        let rules = engine.get::<Function>("install").and_then(|f| f.call::<Table>(g.clone())).map_err(lua_err)?;
        // The declared needs the engine checks itself, marked on the actions before the
        // rules are frozen.
        let (declared, bits) = engine
            .get::<Function>("declared_needs")
            .and_then(|f| f.call::<Table>(()))
            .and_then(|list| declared::Declared::compile(&lua, &spec, &list))
            .map_err(lua_err)?;
        engine.get::<Function>("checked_in_engine").and_then(|f| f.call::<()>(bits)).map_err(lua_err)?;
        freeze.call::<()>((g.clone(), engine.clone())).map_err(lua_err)?;
        // The rules are fixed from here on: their tables frozen, their files' variables
        // sealed (a budget of its own, as each variant's load has).
        budget.used.set(0);
        freeze::freeze_rules(&lua, rules)?;
        let mut calls = rustc_hash::FxHashMap::default();
        for name in DISPATCH {
            calls.insert(*name, engine.get::<Function>(*name).map_err(lua_err)?);
        }
        let failed_rule = engine.get::<Option<Function>>("failed_rule").map_err(lua_err)?;
        let rnd = lua.create_table_with_capacity(RND_SLOTS + 1, 0).map_err(lua_err)?;
        let mut interned = vec![];
        let mut addresses = std::collections::HashMap::new();
        let all = spec.zones.iter().map(|z| &z.name).chain(spec.cards.iter().map(|c| &c.name));
        let all = all.chain(spec.pieces.iter().map(|p| &p.name)).chain(spec.grids.iter().map(|g| &g.name));
        for name in all.chain(spec.options.iter().map(|o| &o.name)) {
            if addresses.contains_key(name.as_str()) {
                continue;
            }
            let s = lua.create_string(name).map_err(lua_err)?;
            addresses.insert(name.as_str(), s.as_bytes().as_ptr() as usize);
            interned.push(s);
        }
        let name_index = Rc::new(names::NameIndex::new(&spec, |n| addresses.get(n).copied()));
        let unlisted = spec.actions.iter().filter(|a| !a.enumerable).map(|a| a.name.clone()).collect();
        Ok(Script {
            lua,
            ctx,
            spec,
            files,
            budget,
            g,
            calls,
            failed_rule,
            rnd,
            names: Default::default(),
            name_index,
            _interned: interned,
            drawn: Default::default(),
            listed: std::cell::RefCell::new((0, usize::MAX, vec![], vec![])),
            recheck_drawn: Cell::new(cfg!(debug_assertions)),
            stamps_owner: {
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
            quiet: Cell::new(false),
            unlisted,
            declared: Rc::new(declared),
            term_names: Default::default(),
            term_positions: Cell::new(0),
            term_computations: Cell::new(0),
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
    pub(crate) fn version(&self) -> Option<u64> {
        self.ctx.borrow().as_ref().map(|c| c.version)
    }

    /// The instructions one call into the rules may run (`INSTRUCTION_BUDGET` by default),
    /// from the next call on: tests prove a bound with a tight budget in a fraction of the
    /// time the full one takes.
    pub fn set_instruction_budget(&self, units: u64) {
        self.budget.limit.set(units);
    }

    /// Whether `perform` checks an action `sample` drew as it checks any other (see
    /// `recheck_drawn`).
    pub(crate) fn set_recheck_drawn(&self, on: bool) {
        self.recheck_drawn.set(on);
    }

    /// Whether messages are measured only (see `Game::set_quiet`), from the next call on.
    pub(crate) fn set_quiet(&self, on: bool) {
        self.quiet.set(on);
        if let Some(c) = self.ctx.borrow_mut().as_mut() {
            c.quiet = on;
        }
    }

    /// How many times a rule the engine keeps (a hook declared `when_changed`, a value of
    /// `g:cached(fn, arg, "recorded")`) was found unchanged since its last run, over this
    /// Lua state's life: skipped (debug builds run it again, to check it).
    pub(crate) fn kept_runs(&self) -> u64 {
        self.lua.app_data_ref::<api_fast::FastSlot>().map_or(0, |s| s.kept.get())
    }

    /// How many seats' terms `terms` computed (not kept) in this Lua state.
    pub(crate) fn terms_computed(&self) -> u64 {
        self.term_computations.get()
    }

    /// Installs a fresh state (before setup).
    pub(crate) fn set_state(&self, state: GameState) {
        let version = self.ctx.borrow().as_ref().map_or(0, |c| c.version.max(c.grid_version) + 1);
        let built_board = self.ctx.borrow_mut().as_mut().and_then(|c| c.built_board.take());
        *self.ctx.borrow_mut() = Some(Ctx {
            version,
            content: version,
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
            declared: self.declared.clone(),
            sites_stamp: version,
            // Stamped with no version a state can have: counted at the first question.
            piece_counts: std::cell::RefCell::new((u64::MAX, vec![])),
            trails: Default::default(),
            feature_rows: Default::default(),
            term_rows: Default::default(),
            option_values: Default::default(),
            quiet: self.quiet.get(),
            quiet_bytes: 0,
            log_scratch: String::new(),
            reads: ctx::Reads::new(version),
            produced: vec![],
            built_board,
        });
        api_fast::refresh(&self.lua);
    }

    pub fn state(&self) -> StateRef<'_> {
        // The context is installed by Game::new before any call; its absence is a bug.
        StateRef(std::cell::Ref::map(self.ctx.borrow(), |c| c.as_ref().expect("game state installed")))
    }

    /// Every stamp as it stands, to put back with the state (`Game::restore`).
    pub(crate) fn stamps(&self) -> ctx::Stamps {
        self.ctx.borrow().as_ref().expect("game state installed").stamps_now(self.stamps_owner)
    }

    /// The longest trail of seat s's path pieces of kind k (`api::trail_length`, which
    /// `g:longest_trail` asks: kept per seat and kind).
    pub(crate) fn trail_length(&self, s: usize, k: usize) -> usize {
        let c = self.ctx.borrow();
        let c = c.as_ref().expect("game state installed");
        match c.state.topology.as_deref() {
            Some(t) => api::trail_length(c, t, s, k),
            None => 0,
        }
    }

    /// Seat `seat`'s row of the bots' generic features, kept while nothing it reads
    /// changes (`Ctx::kept_features`); `fill` computes it into zeros.
    pub(crate) fn kept_features(&self, seat: usize, len: usize, fill: impl FnOnce(&mut [f64])) -> Vec<f64> {
        let c = self.ctx.borrow();
        let c = c.as_ref().expect("game state installed");
        c.kept_features(seat, len, fill)
    }

    /// This Lua state's number: whose stamps a snapshot holds.
    pub(crate) fn stamps_owner(&self) -> u64 {
        self.stamps_owner
    }

    /// The context, the state included: whatever `g:cached` derived from it is dropped.
    pub(crate) fn with_ctx<R>(&self, f: impl FnOnce(&mut Ctx) -> R) -> R {
        let mut c = self.ctx.borrow_mut();
        let c = c.as_mut().expect("game state installed");
        c.touch_all(); // the engine may change the state here
        f(c)
    }

    /// What a call produced and the listing flag, with the state read-only: the engine's
    /// bookkeeping around every call, which keeps what `g:cached` derived.
    pub(crate) fn with_output<R>(&self, f: impl FnOnce(Output<'_>) -> R) -> R {
        let mut c = self.ctx.borrow_mut();
        f(c.as_mut().expect("game state installed").output())
    }

    /// The budget charged so far, to the unit: the units of the last call into the rules
    /// plus what the VM charged since its count hook last ran (which a new call carries).
    #[cfg(test)]
    pub(crate) fn charged(&self) -> (u64, u64) {
        // SAFETY: reads a counter of the Lua state; touches no stack slot.
        let pending =
            unsafe { self.lua.exec_raw::<i64>((), |l| mlua::ffi::lua_pushinteger(l, lua_pendingcharge(l) as i64)) };
        (self.budget.used.get(), pending.unwrap_or(0).max(0) as u64)
    }

    fn call<R: mlua::FromLuaMulti>(&self, func: &str, args: impl mlua::IntoLuaMulti) -> Result<R, ScriptError> {
        self.call_recording::<R>(func, args, false).map(|(r, _)| r)
    }

    /// `call`, and with `record` what the call read (`Ctx::start_recording`): None when it
    /// wrote or noted anything, which a value kept by what it read must not.
    fn call_recording<R: mlua::FromLuaMulti>(
        &self,
        func: &str,
        args: impl mlua::IntoLuaMulti,
        record: bool,
    ) -> Result<(R, Option<ctx::ReadSet>), ScriptError> {
        // Every call starts with the whole budget: none of it carried over from calls a
        // replay does not make (listings, a bot's thinking), so a game and its replay
        // refuse the same actions.
        self.budget.used.set(0);
        // One fresh start for the action within the call (the prelude's perform), and no
        // more: nothing a script reaches can reset the budget again.
        self.budget.refill.set(true);
        // SAFETY: sets a counter of the Lua state; touches no stack slot and cannot raise,
        // so it needs no protected call.
        self.lua.exec_raw_lua(|raw| unsafe { lua_resetcharge(raw.state()) });
        if let Some(m) = self.lua.app_data_ref::<Meter>() {
            m.bytes.set(0);
        }
        let before = self.ctx.borrow().as_ref().map(|c| {
            c.clear_recordings();
            if record {
                c.start_recording();
            }
            (c.version, c.reads.notes)
        });
        let f = self
            .calls
            .get(func)
            .ok_or_else(|| ScriptError::new(ScriptErrorKind::Runtime, format!("no dispatch function {func}")))?;
        let result = f.call::<R>(args);
        let read = match (record, before, self.ctx.borrow().as_ref()) {
            (true, Some(before), Some(c)) => {
                let set = c.stop_recording();
                (before == (c.version, c.reads.notes)).then_some(set)
            }
            _ => None,
        };
        result.map(|r| (r, read)).map_err(|e| {
            let mut se = lua_err(e);
            // The rule (hook or action) that was running when the error was raised.
            if let Some(rule) = &self.failed_rule {
                // A fresh budget: the failed call may have spent it all.
                self.budget.used.set(0);
                if let Ok((name, variant)) = rule.call::<(Option<String>, Option<String>)>(()) {
                    se.rule = se.rule.take().or(name);
                    se.variant = se.variant.take().or(variant);
                }
            }
            if se.kind == ScriptErrorKind::Memory && se.location.is_none() {
                // SAFETY: reads a buffer of the Lua state, always a terminated string.
                let place = self.lua.exec_raw_lua(|raw| unsafe {
                    std::ffi::CStr::from_ptr(lua_memerrorplace(raw.state())).to_string_lossy().into_owned()
                });
                se.location = Some(place).filter(|p| !p.is_empty());
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
            self.ctx.borrow().as_ref().map_or((None, false), |c| (Some(c.version), c.state.winner.is_some()));
        let drawn = self
            .drawn
            .borrow_mut()
            .take()
            .is_some_and(|(v, s, a)| !self.recheck_drawn.get() && s == seat && a == *action && Some(v) == version);
        // Or listed for this seat on this very content: `when` said yes to it, and its
        // option came from the rules' own `options`.
        let drawn = drawn || (!self.recheck_drawn.get() && self.was_listed(seat, action));
        type Answer = (bool, Option<String>, Option<String>, Option<String>, Option<i64>);
        // `over`: the game is won (the prelude refuses), told rather than asked back.
        let answer = self.call::<Answer>("perform", (self.g.clone(), seat + 1, name, drawn, over, args));
        // The prelude asks who acts next read-only, in the same call.
        self.with_output(|c| *c.read_only = false);
        let (ok, reason, at, variant, next) = answer?;
        if ok {
            if self.unlisted.contains(&action.name) {
                // Not for the rules, which never read it: no cached value is dropped.
                if let Some(c) = self.ctx.borrow_mut().as_mut() {
                    let turn = c.state.turn;
                    c.state.unlisted.note(turn, seat, action);
                }
            }
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

    /// The last listing, if it was made for `seat` on the content the state holds now.
    fn listed_now(&self, seat: usize) -> Option<std::cell::Ref<'_, Listing>> {
        let content = self.ctx.borrow().as_ref().map(|c| c.content);
        let listed = self.listed.borrow();
        (Some(listed.0) == content && listed.1 == seat).then_some(listed)
    }

    /// Whether `action` was in the last listing for `seat`, made on the content the state
    /// holds now.
    fn was_listed(&self, seat: usize, action: &Action) -> bool {
        self.listed_now(seat).is_some_and(|l| l.2.contains(action))
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
        self.ask_recording(listing, func, args, false).map(|(r, _)| r)
    }

    /// `ask`, recording what the call read as `call_recording` does.
    fn ask_recording<R: mlua::FromLuaMulti>(
        &self,
        listing: bool,
        func: &str,
        args: impl mlua::IntoLuaMulti,
        record: bool,
    ) -> Result<(R, Option<ctx::ReadSet>), ScriptError> {
        self.with_output(|c| {
            *c.read_only = true;
            *c.listing = listing;
        });
        let r = self.call_recording::<R>(func, args, record);
        self.with_output(|c| {
            *c.read_only = false;
            *c.listing = false;
        });
        r
    }

    /// Every action `seat` may take now, and the templates of those that cannot be
    /// listed (such as trade offers).
    pub fn legal_actions(&self, seat: usize) -> Result<(Vec<Action>, Vec<String>), ScriptError> {
        if !self.recheck_drawn.get() {
            if let Some(listed) = self.listed_now(seat) {
                return Ok((listed.2.clone(), listed.3.clone()));
            }
        }
        let content = self.ctx.borrow().as_ref().map(|c| c.content);
        let result = self.ask::<(Table, Table)>(true, "legal_actions", (self.g.clone(), seat + 1));
        let (list, templates) = result?;
        let out = match self.listing_raw(&list) {
            Some(out) => out,
            None => {
                let mut out = Vec::with_capacity(list.raw_len());
                for entry in list.sequence_values::<Table>() {
                    let entry = entry.map_err(lua_err)?;
                    let name: String = entry.raw_get(1).map_err(lua_err)?;
                    let args: mlua::Value = entry.raw_get(2).map_err(lua_err)?;
                    out.push(self.action_from_lua(name, args).map_err(|e| self.in_options(e, false))?);
                }
                out
            }
        };
        let mut tpl = vec![];
        for name in templates.sequence_values::<String>() {
            let name = name.map_err(lua_err)?;
            if let Some(a) = self.spec.action(&name) {
                tpl.push(a.template());
            }
        }
        // Listing changes nothing: the content is the one it was asked on.
        if let (false, Some(content)) = (self.recheck_drawn.get(), content) {
            // `clone_from` reuses the last listing's buffers: no allocation for most.
            let mut listed = self.listed.borrow_mut();
            listed.0 = content;
            listed.1 = seat;
            listed.2.clone_from(&out);
            listed.3.clone_from(&tpl);
        }
        Ok((out, tpl))
    }

    /// Puts a draw's numbers in the table the prelude's `sample` reads them from.
    fn fill_rnd(&self, rnd: &[f64]) -> Result<(), ScriptError> {
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
                // All at once into the array part (the vendored `lua_setnumbers`: a
                // `lua_rawseti` a number cost more than the rest of the call's glue).
                let t = mlua::ffi::lua_absindex(l, -1);
                if lua_setnumbers(l, t, rnd.as_ptr(), rnd.len() as std::ffi::c_int) == 0 {
                    fill(l, t);
                }
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
        Ok(())
    }

    /// A random legal action for `seat`, drawn with the numbers in `rnd` (each in [0, 1)):
    /// Ok(Err(())) when more numbers are needed.
    pub fn sample(&self, seat: usize, rnd: &[f64]) -> Result<Result<Option<Action>, ()>, ScriptError> {
        self.fill_rnd(rnd)?;
        let r = self.ask::<(Option<String>, mlua::Value)>(true, "sample", (self.g.clone(), seat + 1, self.rnd.clone()));
        match r.map_err(|e| self.not_a_list(e))? {
            (Some(name), option) => {
                let action = self.action_from_lua(name, option).map_err(|e| self.in_options(e, true))?;
                if let Some(version) = self.version() {
                    *self.drawn.borrow_mut() = Some((version, seat, action.clone()));
                }
                Ok(Ok(Some(action)))
            }
            (None, mlua::Value::String(_)) => Ok(Err(())),
            (None, _) => Ok(Ok(None)),
        }
    }

    /// A bot's draw and its performance in one call into the rules (the prelude's
    /// `engine.play`): what `sample` would draw with `rnd`, performed as `perform` performs
    /// an action `sample` drew. Err(()) when anything went otherwise (an error, an option
    /// the engine could not read itself, a refusal): the caller puts the state back and takes
    /// the two calls, which say what went wrong as they always have (`Game::play_drawn`).
    pub(crate) fn play(&self, seat: usize, rnd: &[f64]) -> Result<Played, ()> {
        self.fill_rnd(rnd).map_err(|_| ())?;
        // SAFETY: the slot lives as long as the Lua state (`api_fast::slot_of`); no borrow of
        // the app data is held through the call.
        let slot = unsafe { &*api_fast::slot_of(&self.lua).ok_or(())? };
        slot.drawn.borrow_mut().take();
        let over = self.ctx.borrow().as_ref().is_some_and(|c| c.state.winner.is_some());
        let drawn = !self.recheck_drawn.get();
        type Answer = (mlua::Value, mlua::Value, mlua::Value, mlua::Value, mlua::Value, Option<i64>);
        // A listing's call until `take_drawn` makes it an action's.
        self.with_output(|c| {
            *c.read_only = true;
            *c.listing = true;
        });
        let answer = self.call::<Answer>("play", (self.g.clone(), seat + 1, self.rnd.clone(), drawn, over));
        self.with_output(|c| {
            *c.read_only = false;
            *c.listing = false;
        });
        let taken = slot.drawn.borrow_mut().take();
        match (answer, taken) {
            (Ok((mlua::Value::Nil, mlua::Value::String(_), ..)), None) => Ok(Played::More),
            (Ok((mlua::Value::Nil, mlua::Value::Nil, ..)), None) => Ok(Played::Nothing),
            (Ok((mlua::Value::String(_), mlua::Value::Boolean(true), .., next)), Some(action)) => {
                if self.unlisted.contains(&action.name) {
                    if let Some(c) = self.ctx.borrow_mut().as_mut() {
                        let turn = c.state.turn;
                        c.state.unlisted.note(turn, seat, &action);
                    }
                }
                let next = next.map(|s| self.seat_from(s)).transpose().map_err(|_| ())?;
                Ok(Played::Done(action, next))
            }
            _ => Err(()),
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
        api::from_lua_value(&self.lua, &r).map_err(lua_err).map(|v| v.unwrap_or(Value::Map(Default::default())))
    }

    /// The variant's `points_by_source` filter for a seat (where its points come from),
    /// and its `tallies` (what it counted in the game): the game's end, for the players.
    pub fn end_summary(&self, point: &str, seat: usize) -> Result<Value, ScriptError> {
        let r = match point {
            "points_by_source" => self.ask::<mlua::Value>(false, "points_by_source", (self.g.clone(), seat + 1))?,
            _ => self.ask::<mlua::Value>(false, "tallies", self.g.clone())?,
        };
        api::from_lua_value(&self.lua, &r).map_err(lua_err).map(|v| v.unwrap_or(Value::List(vec![])))
    }

    /// The rules text of one kind of card (the variant's `card_text` filter), if it has one.
    pub fn card_text(&self, kind: &str) -> Result<Option<String>, ScriptError> {
        self.ask::<Option<String>>(false, "card_text", (self.g.clone(), kind.to_string()))
    }

    /// The actions this game can never offer under its players and options (those whose
    /// `available` says false).
    pub fn unavailable_actions(&self) -> Result<Vec<String>, ScriptError> {
        self.ask::<Vec<String>>(false, "unavailable", self.g.clone())
    }

    /// Text for a player at the table, from a variant's filter: `welcome` and `board_legend`
    /// (seat and action unused) or `action_note` (what `action` costs `seat` now, say).
    pub fn player_text(&self, point: &str, seat: usize, action: &str) -> Result<Option<String>, ScriptError> {
        self.ask::<Option<String>>(false, "player_text", (self.g.clone(), point, seat + 1, action))
    }

    /// The actions whose declared needs the engine checks itself, without calling into
    /// the rules (`declared.rs`), in declaration order.
    pub fn checked_in_engine(&self) -> Vec<String> {
        self.declared.names().to_vec()
    }

    /// Whether a hook of the stack fills the filter point `point`.
    pub fn has_filter(&self, point: &str) -> Result<bool, ScriptError> {
        self.ask::<bool>(false, "has_filter", (self.g.clone(), point))
    }

    /// The variant's named features of every seat (its `features` filter), for tuned
    /// evaluations; empty when it declares none.
    pub fn features(&self) -> Result<Vec<std::collections::BTreeMap<String, f64>>, ScriptError> {
        let v = self.ask::<Option<Vec<std::collections::BTreeMap<String, f64>>>>(false, "features", self.g.clone())?;
        let v = v.unwrap_or_default();
        if v.iter().flat_map(|m| m.values()).any(|x| !x.is_finite()) {
            return Err(ScriptError::new(
                ScriptErrorKind::Runtime,
                "the features filter must give finite numbers".to_string(),
            ));
        }
        Ok(v)
    }

    /// `f(l, i)` with table `t` pushed at index `i` of the main Lua stack, put back as it
    /// was afterwards (`f` may push up to four values).
    fn on_stack<T>(&self, t: &Table, f: impl FnOnce(*mut ffi::lua_State, std::ffi::c_int) -> Option<T>) -> Option<T> {
        // SAFETY: checks for room, pushes `t` (a reference mlua holds), and cuts the stack
        // back to where it was whatever `f` left.
        self.lua.exec_raw_lua(|raw| unsafe {
            let l = raw.state();
            if ffi::lua_checkstack(l, 6) == 0 {
                return None;
            }
            let top = ffi::lua_gettop(l);
            let out = match raw.push(t) {
                Ok(()) => f(l, top + 1),
                Err(_) => None,
            };
            ffi::lua_settop(l, top);
            out
        })
    }

    /// What the variant measures of the game now (the `metrics` filter: names and finite
    /// numbers), read-only: `catan sim` asks it once at the end of each game.
    pub fn metrics(&self) -> Result<std::collections::BTreeMap<String, f64>, ScriptError> {
        let m = self.ask::<std::collections::BTreeMap<String, f64>>(false, "metrics", self.g.clone())?;
        if let Some((name, v)) = m.iter().find(|(_, v)| !v.is_finite()) {
            return Err(ScriptError::new(
                ScriptErrorKind::Runtime,
                format!("the metrics filter set metric '{name}' to {v}, not a finite number"),
            ));
        }
        Ok(m)
    }

    /// How many values `g:cached` has computed in this Lua state (its misses, a value
    /// computed again after a change included): for tests and profiling.
    pub fn cached_computations(&self) -> Result<u64, ScriptError> {
        self.call::<u64>("cached_computations", ())
    }

    /// Drops every value `g:cached` kept and collects the garbage, so the Lua heap holds
    /// what the rules and the state need and nothing a listing or a bot's search left:
    /// before an action that ran out of Lua memory is tried once more (`Game::perform`).
    pub fn forget_kept(&self) -> Result<(), ScriptError> {
        self.call::<()>("forget_kept", ())?;
        // Twice: the first cycle may leave objects a finished cycle frees.
        self.lua.gc_collect().map_err(lua_err)?;
        self.lua.gc_collect().map_err(lua_err)
    }

    /// Starts noting every hook and part of an action that runs (`trace`).
    pub fn trace_start(&self) -> Result<(), ScriptError> {
        self.call::<()>("trace_start", ())
    }

    /// What ran since `trace_start`, and how many entries past the cap were dropped;
    /// noting stops.
    pub fn trace_take(&self) -> Result<(Vec<TraceEntry>, u64), ScriptError> {
        let (list, over) = self.call::<(Table, u64)>("trace_take", ())?;
        let entries = list.sequence_values::<Table>().map(|t| t.and_then(|t| TraceEntry::from_lua(&t)));
        Ok((entries.collect::<mlua::Result<_>>().map_err(lua_err)?, over))
    }

    /// The lines rules printed with `g:debug` since the last take (at most 200 a call; the
    /// count of the rest).
    pub fn debug_take(&self) -> Result<(Vec<String>, u64), ScriptError> {
        let (list, over) = self.call::<(Vec<String>, u64)>("debug_take", ())?;
        Ok((list, over))
    }

    /// Sets the Lua memory cap (`MEMORY_CAP`, or a little more while logged actions are
    /// replayed: `Game::replay`); returns the cap it replaces.
    pub fn set_memory_cap(&self, bytes: usize) -> Result<usize, ScriptError> {
        self.lua.set_memory_limit(bytes).map_err(lua_err)
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

    /// A bot's draw that failed in the engine's own Lua while reading an action's options
    /// (`#` of a number, say: the draw does not ask their type, see `options_of` in the
    /// prelude): worded as a listing words it, at the line of `options`.
    fn not_a_list(&self, mut e: ScriptError) -> ScriptError {
        let name = e.rule.as_deref().and_then(|r| r.strip_prefix("action '")?.strip_suffix('\'')).map(String::from);
        let in_engine = e.location.as_deref().is_some_and(|l| l.starts_with("engine/"));
        let what = e.message.strip_prefix("attempt to get length of a ").and_then(|m| m.split(' ').next());
        if let (Some(name), true, Some(what)) = (name, in_engine, what) {
            e.message = format!("the options of action '{name}' returned a {what}, not a list");
            e.location = self
                .call::<(Option<String>, Option<String>)>("options_at", (name.as_str(), false))
                .ok()
                .and_then(|(at, _)| at);
        }
        e
    }
}

/// The bytes of the string at `i` of the stack (it stays there while they are read).
///
/// # Safety
/// The value at `i` is a string.
unsafe fn lua_str<'a>(l: *mut ffi::lua_State, i: std::ffi::c_int) -> &'a [u8] {
    let mut len = 0;
    let p = ffi::lua_tolstring(l, i, &mut len);
    std::slice::from_raw_parts(p.cast::<u8>(), len)
}
