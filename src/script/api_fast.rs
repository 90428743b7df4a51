//! The raw Lua C side of the script API: the `FastSlot` every C function reaches the game
//! through, the hand-over to a method's mlua function, reading arguments off the Lua stack
//! and pushing answers (the `g:` methods themselves are declared once in `api*.rs`, both
//! their ways derived by `methods.rs`); and the engine's own C functions: `deny` while
//! legal actions are listed, `g:cached`'s hit, the read-only switch and the fresh budget
//! handed to the prelude alone.
//!
//! Safety: the functions reach the `Ctx` in the Lua app data through a pointer refreshed
//! whenever a state is installed (`Script::set_state`). They run inside a Lua call, when
//! no Rust borrow of the context is alive (a method's mlua function never calls into Lua
//! while it holds one, and the engine holds none across a call into the rules; if one did,
//! the methods' own borrows would fail).

use super::api::{int_key, CALL_COST, MAX_DEPTH};
use super::methods::{run_fast, Call, Kind};
use super::{Budget, Ctx, HOST_MEMORY_CAP};
use crate::value::Value;
use mlua::{ffi, Function, Lua};
use std::cell::Cell;
use std::ffi::c_int;
use std::rc::Rc;

thread_local! {
    /// Whether the `g:` methods of the Lua states made on this thread answer by their C
    /// functions (the default) or hand every call to their mlua functions: a test's switch
    /// (`set_fast_methods`), to compare the two ways.
    static FAST_METHODS: Cell<bool> = const { Cell::new(true) };
}

/// Makes the `g:` methods of the games this thread loads from now on answer by their mlua
/// functions alone (`false`) or by their C functions where they have one (`true`, the
/// default). For tests that compare the two ways (`tests/api_methods.rs`).
#[doc(hidden)]
pub fn set_fast_methods(on: bool) {
    FAST_METHODS.with(|f| f.set(on));
}

/// What the fast getters share, kept in the Lua app data (a stable address for as long
/// as the Lua state lives).
pub(crate) struct FastSlot {
    pub(super) ctx: Cell<*mut Ctx>,
    pub(super) budget: Rc<Budget>,
    /// Every call handed to the mlua functions (`set_fast_methods`).
    pub(super) slow_only: Cell<bool>,
    /// The meter's host memory of this call (`Meter::bytes`).
    bytes: Rc<Cell<usize>>,
    /// What each hook declared `when_changed` read in its last run that wrote nothing, by
    /// the hook's number (`keep_run_fn`): kept for as long as the Lua state lives, good
    /// only while `Ctx::still_good` says so (a state installed stales them all; a position
    /// restored with its stamps makes those kept there good again).
    records: std::cell::RefCell<Vec<Option<super::ctx::Record>>>,
    /// How many times a kept rule was found good (skipped; in debug builds, run again to
    /// be checked): `Game::kept_runs`, for tests.
    pub(super) kept: Cell<u64>,
    /// Counts the uses of records, to find the one used least lately.
    tick: Cell<u64>,
    /// The action a bot's draw took in the call running (`take_drawn_fn`), for
    /// `Script::play` to log.
    pub(super) drawn: std::cell::RefCell<Option<crate::action::Action>>,
}

impl FastSlot {
    pub(crate) fn new(budget: Rc<Budget>, bytes: Rc<Cell<usize>>) -> FastSlot {
        FastSlot {
            ctx: Cell::new(std::ptr::null_mut()),
            budget,
            slow_only: Cell::new(false),
            bytes,
            records: Default::default(),
            kept: Cell::new(0),
            tick: Cell::new(0),
            drawn: Default::default(),
        }
    }

    /// Charges the call and `extra` units, and `bytes` of host memory, if both stay within
    /// their caps; false (nothing charged) otherwise, and the slow method raises.
    pub(super) fn spend(&self, extra: u64, bytes: usize) -> bool {
        let used = self.budget.used.get() + CALL_COST + extra;
        let held = self.bytes.get().saturating_add(bytes);
        if used > self.budget.limit.get() || held > HOST_MEMORY_CAP {
            return false;
        }
        self.budget.used.set(used);
        self.bytes.set(held);
        true
    }
}

/// Points the getters at the context now in the app data (after `set_app_data`).
pub(crate) fn refresh(lua: &Lua) {
    let home = lua.app_data_ref::<super::CtxHome>().map_or(std::ptr::null(), |h| h.0);
    // SAFETY: the cell lives in the `Script` that owns this Lua state (`super::CtxHome`).
    let ctx = match unsafe { home.as_ref() }.map(|cell| cell.borrow_mut()) {
        Some(mut c) => c.as_mut().map_or(std::ptr::null_mut(), |c| c as *mut Ctx),
        None => std::ptr::null_mut(),
    };
    if let Some(slot) = lua.app_data_ref::<FastSlot>() {
        slot.ctx.set(ctx);
        slot.slow_only.set(!FAST_METHODS.with(Cell::get));
    }
}

/// The `FastSlot` in the app data, as the address every fast function keeps as its first
/// upvalue (stable for as long as the Lua state lives).
pub(super) fn slot_of(lua: &Lua) -> Option<*const FastSlot> {
    lua.app_data_ref::<FastSlot>().map(|s| &*s as *const FastSlot)
}

/// A C closure of `f` over `slot` (upvalue 1) and, when given, the mlua function it
/// hands unusual calls to (upvalue 2, see `hand_over`).
pub(super) fn c_closure(
    lua: &Lua,
    slot: *const FastSlot,
    f: ffi::lua_CFunction,
    slow: Option<Function>,
) -> mlua::Result<Function> {
    let push = |l: *mut ffi::lua_State| unsafe { ffi::lua_pushlightuserdata(l, slot as *mut std::ffi::c_void) };
    // SAFETY: pushes a C closure over `slot` (and `slow`, which exec_raw pushed first);
    // `slot` outlives every call (see FastSlot).
    unsafe {
        match slow {
            Some(slow) => lua.exec_raw(slow, |l| {
                push(l);
                ffi::lua_rotate(l, -2, 1);
                ffi::lua_pushcclosure(l, f, 2);
            }),
            None => lua.exec_raw((), |l| {
                push(l);
                ffi::lua_pushcclosure(l, f, 1);
            }),
        }
    }
}

/// The slot a fast function keeps as upvalue 1 (see `c_closure`).
pub(super) unsafe fn upvalue_slot<'a>(l: *mut ffi::lua_State) -> &'a FastSlot {
    &*(ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)) as *const FastSlot)
}

/// `upvalue_slot` and the count of arguments (`lua_gettop`), in one call into Lua.
pub(super) unsafe fn slot_and_top<'a>(l: *mut ffi::lua_State) -> (&'a FastSlot, c_int) {
    let mut top = 0;
    let slot = super::lua_cslot(l, &mut top) as *const FastSlot;
    (&*slot, top)
}

/// Calls the method's mlua function (upvalue 2) with the arguments on the stack and returns its
/// results. No Rust value with a destructor may be alive in the caller: the method may raise.
pub(super) unsafe fn hand_over(l: *mut ffi::lua_State) -> c_int {
    let n = ffi::lua_gettop(l);
    ffi::lua_pushvalue(l, ffi::lua_upvalueindex(2));
    ffi::lua_rotate(l, 1, 1);
    ffi::lua_callk(l, n, ffi::LUA_MULTRET, 0, None);
    ffi::lua_gettop(l)
}

/// The function the prelude's perform calls before it asks who acts next, so that the
/// question runs with the state read-only, as a call of its own would have it (the engine
/// clears the flag after every call). Handed to the prelude alone, as its chunk argument:
/// no variant can reach it.
pub(super) fn read_only_fn(lua: &Lua) -> mlua::Result<Function> {
    let slot = slot_of(lua).ok_or_else(|| mlua::Error::runtime("the engine's fast functions are not set up"))?;
    unsafe extern "C-unwind" fn read_only(l: *mut ffi::lua_State) -> c_int {
        let ctx = upvalue_slot(l).ctx.get();
        if !ctx.is_null() {
            (*ctx).read_only = true;
        }
        0
    }
    c_closure(lua, slot, read_only, None)
}

/// `new_table(nrec)`: a fresh table with room for `nrec` fields, for the prelude alone
/// (as `read_only_fn` is): the table a bot's `features` filter fills is made with room for
/// the names seen so far, where one grown field by field is rebuilt at each power of two.
/// The room comes from the engine (`Script::terms`), never from a script.
pub(super) fn new_table_fn(lua: &Lua) -> mlua::Result<Function> {
    let slot = slot_of(lua).ok_or_else(|| mlua::Error::runtime("the engine's fast functions are not set up"))?;
    unsafe extern "C-unwind" fn new_table(l: *mut ffi::lua_State) -> c_int {
        let nrec = int_arg(l, 1).unwrap_or(0).clamp(0, 1 << 16) as c_int;
        ffi::lua_createtable(l, 0, nrec);
        1
    }
    c_closure(lua, slot, new_table, None)
}

/// `take_drawn(name, option)`: the function the prelude's `engine.play` calls between a
/// bot's draw and its performance (`Script::play`). It reads the option drawn as the
/// action's arguments (`listing::raw_option`), keeps the action for the engine's log, and
/// answers the arguments as `Script::perform` hands them to the prelude's perform; and it
/// turns the call from a listing into an action as `Script::call` starts one (the state
/// writable, a fresh count of host memory; the budget is the perform's `fresh_budget`).
/// An option it cannot read raises, and `Script::play` takes the two calls, whose
/// `action_from_lua` names what is wrong. Handed to the prelude alone, as
/// `read_only_fn` is.
pub(super) fn take_drawn_fn(lua: &Lua) -> mlua::Result<Function> {
    let slot = slot_of(lua).ok_or_else(|| mlua::Error::runtime("the engine's fast functions are not set up"))?;
    unsafe extern "C-unwind" fn take_drawn(l: *mut ffi::lua_State) -> c_int {
        let slot = upvalue_slot(l);
        let ctx = slot.ctx.get();
        // (The action is made, or dropped, before anything may raise: no Rust value with a
        // destructor is alive where Lua may jump out.)
        let taken = (|| {
            if ctx.is_null() || ffi::lua_type(l, 1) != ffi::LUA_TSTRING {
                return None;
            }
            let spec = (*ctx).spec.action(std::str::from_utf8(super::lua_str(l, 1)).ok()?)?;
            let args = super::listing::raw_option(l, spec, 2)?;
            Some(crate::action::Action { name: spec.name.clone(), args })
        })();
        let Some(action) = taken else {
            ffi::lua_pushstring(l, c"the engine reads this option in two calls".as_ptr());
            ffi::lua_error(l)
        };
        let n = action.args.len();
        *slot.drawn.borrow_mut() = Some(action);
        (*ctx).read_only = false;
        (*ctx).listing = false;
        (*ctx).clear_recordings();
        slot.bytes.set(0);
        if ffi::lua_checkstack(l, n as c_int + 3) == 0 {
            ffi::lua_pushstring(l, c"no room on the stack for the action's arguments".as_ptr());
            ffi::lua_error(l)
        }
        // Read through the slot without a borrow held: pushing may raise (out of memory).
        let Some(action) = (*slot.drawn.as_ptr()).as_ref() else { return 0 };
        for arg in &action.args {
            use crate::action::Arg;
            match arg {
                Arg::Intersection(n) | Arg::Path(n) | Arg::Hex(n) | Arg::Player(n) => {
                    ffi::lua_pushinteger(l, *n as ffi::lua_Integer + 1)
                }
                Arg::Int(n) => ffi::lua_pushinteger(l, *n),
                Arg::Resource(s) | Arg::Word(s) | Arg::Slot(s) => push_str(l, s),
                // As `Script::args_to_lua` makes it: a new table, each kind set in order.
                Arg::Cards(cards) => {
                    ffi::lua_createtable(l, 0, 0);
                    for (k, n) in cards {
                        push_str(l, k);
                        ffi::lua_pushinteger(l, *n as ffi::lua_Integer);
                        ffi::lua_rawset(l, -3);
                    }
                }
            }
        }
        n as c_int
    }
    c_closure(lua, slot, take_drawn, None)
}

/// The function the prelude's perform calls between its checks and the action: a fresh
/// instruction budget, as a new call has (`Script::call`), so that the action may spend
/// the same whether its checks ran (typed, replayed) or not (drawn by the engine).
/// Handed to the prelude alone, as `read_only_fn` is, and it works once per call into the
/// rules (`Budget::refill`): were the prelude's perform ever reached again from a rule, it
/// would not start afresh, so the budget stays one per call.
pub(super) fn fresh_budget_fn(lua: &Lua) -> mlua::Result<Function> {
    let slot = slot_of(lua).ok_or_else(|| mlua::Error::runtime("the engine's fast functions are not set up"))?;
    unsafe extern "C-unwind" fn fresh_budget(l: *mut ffi::lua_State) -> c_int {
        let budget = &upvalue_slot(l).budget;
        if budget.refill.replace(false) {
            budget.used.set(0);
            super::lua_resetcharge(l);
        }
        0
    }
    c_closure(lua, slot, fresh_budget, None)
}

/// The function the prelude's `install_cached` calls with its `g:cached` (the Lua
/// function), the table of kept values and its key for "nothing": it answers a C closure
/// that serves a hit itself and hands anything else to the Lua function. A hit charges
/// what the Lua function's hit does: entering it (the size of its code, to the VM's
/// count), the probe it calls (`CALL_COST`) and the value's cost. Handed to the prelude
/// alone, as `read_only_fn` is.
pub(super) fn keep_cached_fn(lua: &Lua) -> mlua::Result<Function> {
    let slot = slot_of(lua).ok_or_else(|| mlua::Error::runtime("the engine's fast functions are not set up"))?;
    unsafe extern "C-unwind" fn keep(l: *mut ffi::lua_State) -> c_int {
        // (slow, memo, none) -> closure over (slot, slow, memo, none, the slow one's entry charge)
        let entry = super::lua_codesize(l, 1);
        ffi::lua_settop(l, 3);
        ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
        ffi::lua_rotate(l, 1, 1);
        ffi::lua_pushinteger(l, entry);
        ffi::lua_pushcclosure(l, cached_tramp, 5);
        1
    }
    unsafe extern "C-unwind" fn cached_tramp(l: *mut ffi::lua_State) -> c_int {
        run_fast(l, Kind::Get, "cached", |c, call| {
            let mut extra = 0;
            cached(l, upvalue_slot(l), c, &mut extra)?;
            // The kept value is on top of what the hit walked through: it alone is the answer.
            call.left(1);
            call.charge(extra).ok()
        })
    }
    c_closure(lua, slot, keep, None)
}

/// The first of the `entries` records from `n` on that is still good: its place, what it
/// read and what it cost; marked used now, so that a new record replaces the other.
fn good_record(slot: &FastSlot, c: &Ctx, n: usize, entries: usize) -> Option<(usize, super::ctx::ReadSet, u64)> {
    let records = slot.records.borrow();
    (0..entries).find_map(|i| {
        let r = records.get(n + i)?.as_ref().filter(|r| c.still_good(r))?;
        let tick = slot.tick.get() + 1;
        slot.tick.set(tick);
        r.used.set(tick);
        Some((i, r.set, r.cost))
    })
}

/// The function the prelude calls a rule it may keep through: a sequence hook declared
/// `when_changed` (`g:run`) and `g:cached(fn, arg, "recorded")`. `keep_run(g, fn, n, arg)`
/// runs `fn(g, arg)` while recording what it reads (`Ctx::read`), unless record `n` (the
/// hook's or the kept value's number) says that its last run wrote nothing (no write, no
/// event) and that nothing it read has changed since: then `fn` does not run, and the call
/// is charged what that run cost, to the unit (the units between the start and the end of
/// the run, the same for the same reads), so that a game spends the same budget whether or
/// not its rules were kept. Answers `true` when kept, else `false` and `fn`'s first result
/// (frozen when kept: `g:cached` hands it out again). Debug builds run every rule anyway
/// and raise if it then wrote, cost anything else or answered otherwise than `kept` (the
/// value the prelude kept), so in every test game a write that did not stamp what it
/// changed (`Ctx::wrote`) or a read left unrecorded fails. Handed to the prelude alone, as
/// `read_only_fn` is. The Lua around it runs the same either way, so it charges the same.
pub(super) fn keep_run_fn(lua: &Lua) -> mlua::Result<Function> {
    let slot = slot_of(lua).ok_or_else(|| mlua::Error::runtime("the engine's fast functions are not set up"))?;
    unsafe extern "C-unwind" fn keep_run(l: *mut ffi::lua_State) -> c_int {
        let slot = upvalue_slot(l);
        // Charged as a call into the engine, kept or not (g:cached's hit in C charges it).
        super::lua_charge(l, CALL_COST as ffi::lua_Integer);
        let n = int_arg(l, 3).and_then(|n| usize::try_from(n).ok());
        // g, fn, n, arg, kept (g:cached: two records, n and n + 1, and their values kept1,
        // kept2): fn, g (and arg, when given: a hook gets g alone) pushed for the call
        let top = ffi::lua_gettop(l);
        let args = if top >= 4 { 2 } else { 1 };
        let pair = top >= 6;
        let base = if pair { 6 } else { 5 };
        ffi::lua_settop(l, base);
        ffi::lua_pushvalue(l, 2);
        ffi::lua_pushvalue(l, 1);
        if args == 2 {
            ffi::lua_pushvalue(l, 4);
        }
        let ctx = slot.ctx.get();
        // (While nothing is set up, and for a rule of no number: run, keep nothing.)
        let (Some(n), false) = (n, ctx.is_null()) else {
            ffi::lua_callk(l, args, 1, 0, None);
            ffi::lua_pushboolean(l, 0);
            ffi::lua_rotate(l, -2, 1);
            return 2;
        };
        let entries = if pair { 2 } else { 1 };
        let good = good_record(slot, &*ctx, n, entries);
        if good.is_some() {
            slot.kept.set(slot.kept.get() + 1);
        }
        if let (Some((i, set, cost)), false) = (good, cfg!(debug_assertions)) {
            (*ctx).read_again(&set);
            // As the VM charges (it may raise when the budget runs out: nothing changed).
            super::lua_charge(l, cost as ffi::lua_Integer);
            push_hit(l, pair, i);
            return 1;
        }
        let (version, notes) = ((*ctx).version, (*ctx).reads.notes);
        let used = |l| slot.budget.used.get() + super::lua_pendingcharge(l).max(0) as u64;
        let start = used(l);
        (*ctx).start_recording();
        ffi::lua_callk(l, args, 1, 0, None);
        let cost = used(l).saturating_sub(start);
        let ctx = slot.ctx.get();
        let set = (*ctx).stop_recording();
        let quiet = (*ctx).version == version && (*ctx).reads.notes == notes;
        let result = base + 1;
        // Stack: g, fn, n, arg, kept (kept1, kept2), result.
        if let Some((i, _, kept_cost)) = good {
            if !quiet || cost != kept_cost || !same_value(l, 5 + i as c_int, result, 0) {
                ffi::lua_pushstring(
                    l,
                    c"a rule kept while nothing it read changed (when_changed, or g:cached's \"recorded\") ran differently though nothing it read had changed: a write that did not stamp what it changed, or a read left unrecorded"
                        .as_ptr(),
                );
                ffi::lua_error(l);
            }
            // Checked: answered as the kept run is (the same value, the same table).
            push_hit(l, pair, i);
            return 1;
        }
        // Kept in place of the record used least lately (g:cached keeps two: a bot's look
        // at action after action from one position keeps that position's value beside the
        // last action's).
        let mut records = slot.records.borrow_mut();
        if records.len() < n + entries {
            records.resize(n + entries, None);
        }
        let at = super::ctx::Record::to_replace(records[n..n + entries].iter().map(Option::as_ref));
        let tick = slot.tick.get() + 1;
        slot.tick.set(tick);
        records[n + at] = quiet.then(|| (*ctx).record(set, cost, tick, false));
        drop(records);
        if quiet && ffi::lua_type(l, result) == ffi::LUA_TTABLE {
            // Frozen as every value g:cached keeps is: it is handed out again.
            super::freeze::lua_freezeall(l, result);
        }
        ffi::lua_pushboolean(l, 0);
        ffi::lua_rotate(l, -2, 1);
        if pair {
            ffi::lua_pushinteger(l, at as ffi::lua_Integer + 1);
            return 3;
        }
        2
    }
    /// A kept run's answer: true, or for g:cached's two records the one that was good (1, 2).
    unsafe fn push_hit(l: *mut ffi::lua_State, pair: bool, i: usize) {
        if pair {
            ffi::lua_pushinteger(l, i as ffi::lua_Integer + 1);
        } else {
            ffi::lua_pushboolean(l, 1);
        }
    }
    /// Whether the values at `a` and `b` are the same (tables field by field, raw).
    unsafe fn same_value(l: *mut ffi::lua_State, a: c_int, b: c_int, depth: usize) -> bool {
        if ffi::lua_type(l, a) != ffi::LUA_TTABLE || ffi::lua_type(l, b) != ffi::LUA_TTABLE {
            return ffi::lua_rawequal(l, a, b) != 0;
        }
        if depth > MAX_DEPTH || ffi::lua_checkstack(l, 4) == 0 {
            return false;
        }
        let (a, b) = (ffi::lua_absindex(l, a), ffi::lua_absindex(l, b));
        for (x, y) in [(a, b), (b, a)] {
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, x) != 0 {
                ffi::lua_pushvalue(l, -2);
                ffi::lua_rawget(l, y);
                let same =
                    if x == a { same_value(l, -2, -1, depth + 1) } else { ffi::lua_type(l, -1) != ffi::LUA_TNIL };
                ffi::lua_settop(l, -3);
                if !same {
                    ffi::lua_settop(l, -2);
                    return false;
                }
            }
        }
        true
    }
    c_closure(lua, slot, keep_run, None)
}

/// The version a value `g:cached` keeps is good for, by what it reads (`code`: 0 the whole
/// state, 1 the grids, 2 seat (at 3)'s grids, 3 the cards on them, 4 nothing): what the
/// probe answers and what the C hit compares.
pub(super) fn kept_version(c: &Ctx, code: i64, seat_arg: impl FnOnce() -> Option<i64>) -> mlua::Result<u64> {
    let seat = |seat: Option<i64>| {
        super::api::seat(c, seat.ok_or_else(|| super::api::rt("g:cached: this kind of reads needs a seat"))?)
    };
    Ok(match code {
        0 => c.version,
        1 => c.grid_version,
        2 => c.grid_stamp(seat(seat_arg())? + 1),
        3 => c.card_stamp(seat(seat_arg())? + 1),
        // Nothing of the state: one version for good.
        4 => 1,
        _ => return Err(super::api::rt(format!("no version {code}"))),
    })
}

/// What a value `g:cached` keeps by `code` (see `kept_version`) read, for a recording
/// under way: a hit or a probe inside `g:cached(fn, arg, "recorded")` or a kept hook.
pub(super) fn note_kept_read(c: &Ctx, code: i64, seat: Option<i64>) {
    use super::ctx::part;
    let owner = || seat.and_then(|s| usize::try_from(s).ok()).unwrap_or(0);
    match code {
        1 => c.read(part::GRIDS),
        2 => c.read(part::grids_of(owner())),
        3 => c.read(part::grid_cards(owner())),
        // Nothing of the state (`constants`).
        4 => c.read_constant(),
        _ => c.read(part::ALL),
    }
}

/// `g:cached(fn, arg, reads)` when the value is kept and still good (see `keep_cached_fn`);
/// None otherwise, and the Lua function computes, keeps and charges it. Mirrors its hit:
/// `memo[reads or NONE][fn]` is `{ values, versions, costs }`, each by `arg` (or NONE).
unsafe fn cached(l: *mut ffi::lua_State, slot: &FastSlot, c: &Ctx, extra: &mut u64) -> Option<()> {
    let code = match ffi::lua_type(l, 4) {
        ffi::LUA_TNIL | ffi::LUA_TNONE => 0,
        ffi::LUA_TSTRING => match str_arg(l, 4)? {
            "grids" => 1,
            "seat_grids" => 2,
            "seat_cards" => 3,
            "constants" => 4,
            // Debug builds compute a kept value again (keep_run): the Lua function does.
            "recorded" if !cfg!(debug_assertions) => 5,
            _ => return None,
        },
        _ => return None,
    };
    // "recorded": good while its record is (keep_run), not by a version.
    let record = if code == 5 { None } else { Some(kept_version(c, code, || int_arg(l, 3)).ok()?) };
    let top = ffi::lua_gettop(l);
    let none = ffi::lua_upvalueindex(4);
    // per = memo[reads or NONE]
    ffi::lua_pushvalue(l, if code == 0 { none } else { 4 });
    if ffi::lua_rawget(l, ffi::lua_upvalueindex(3)) != ffi::LUA_TTABLE {
        return None;
    }
    // m = per[fn]
    ffi::lua_pushvalue(l, 2);
    if ffi::lua_rawget(l, top + 1) != ffi::LUA_TTABLE {
        return None;
    }
    let m = top + 2;
    let key = if ffi::lua_type(l, 3) <= ffi::LUA_TNIL { none } else { 3 };
    let Some(version) = record else {
        // The record's number, then the record, still good; charged as the Lua function's
        // hit is: its entry, keep_run's call and the record's cost.
        if ffi::lua_rawgeti(l, m, 2) != ffi::LUA_TTABLE {
            return None;
        }
        ffi::lua_pushvalue(l, key);
        ffi::lua_rawget(l, -2);
        let n = usize::try_from(int_arg(l, -1)?).ok()?;
        let (i, set, cost) = good_record(slot, c, n, 2)?;
        // The values of the two records: m[1] and m[4].
        if ffi::lua_rawgeti(l, m, if i == 0 { 1 } else { 4 }) != ffi::LUA_TTABLE {
            return None;
        }
        slot.kept.set(slot.kept.get() + 1);
        c.read_again(&set);
        super::lua_charge(l, ffi::lua_tointegerx(l, ffi::lua_upvalueindex(5), std::ptr::null_mut()));
        ffi::lua_pushvalue(l, key);
        ffi::lua_rawget(l, -2);
        // (`run_fast` charges the call itself: keep_run's.)
        *extra = cost;
        return Some(());
    };
    note_kept_read(c, code, int_arg(l, 3));
    // The version the value was kept at, then its cost, then the value.
    if ffi::lua_rawgeti(l, m, 2) != ffi::LUA_TTABLE {
        return None;
    }
    ffi::lua_pushvalue(l, key);
    ffi::lua_rawget(l, -2);
    if int_arg(l, -1)? as u64 != version {
        return None;
    }
    if ffi::lua_rawgeti(l, m, 3) != ffi::LUA_TTABLE {
        return None;
    }
    ffi::lua_pushvalue(l, key);
    ffi::lua_rawget(l, -2);
    let cost = u64::try_from(int_arg(l, -1)?).ok()?;
    if ffi::lua_rawgeti(l, m, 1) != ffi::LUA_TTABLE {
        return None;
    }
    // Entering the Lua function is the VM's charge, made as the VM makes it (it may raise
    // when the budget runs out: nothing has changed).
    super::lua_charge(l, ffi::lua_tointegerx(l, ffi::lua_upvalueindex(5), std::ptr::null_mut()));
    ffi::lua_pushvalue(l, key);
    ffi::lua_rawget(l, -2);
    *extra = cost;
    Some(())
}

/// Replaces the global `deny` (`spec_load.rs`) by a C function that answers false alone
/// while legal actions are listed or drawn: nobody reads the reason then, and finding the
/// rule's position cost more than most rules (a tenth of drawing a bot's action in base).
/// Otherwise it hands the call to the function it replaced.
pub(super) fn install_deny(lua: &Lua) -> mlua::Result<()> {
    let Some(slot) = slot_of(lua) else { return Ok(()) };
    unsafe extern "C-unwind" fn deny(l: *mut ffi::lua_State) -> c_int {
        let ctx = upvalue_slot(l).ctx.get();
        if !ctx.is_null() && (*ctx).listing {
            ffi::lua_pushboolean(l, 0);
            return 1;
        }
        hand_over(l)
    }
    let slow: Function = lua.globals().get("deny")?;
    lua.globals().set("deny", c_closure(lua, slot, deny, Some(slow))?)
}

// Reading arguments: None for anything the slow method should judge.

/// An integer, or a float of an exact integer value (not a string), in one call into Lua.
pub(super) unsafe fn int_arg(l: *mut ffi::lua_State, i: c_int) -> Option<i64> {
    let mut ok = 0;
    let n = super::lua_tointegernum(l, i, &mut ok);
    (ok != 0).then_some(n)
}

pub(super) unsafe fn str_arg<'a>(l: *mut ffi::lua_State, i: c_int) -> Option<&'a str> {
    let mut len = 0usize;
    // A string only (numbers are not converted), in one call into Lua.
    let p = super::lua_tostringonly(l, i, &mut len);
    if p.is_null() {
        return None;
    }
    // The string stays on the stack (and alive) for the whole call.
    let bytes = std::slice::from_raw_parts(p as *const u8, len);
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8. The names rules pass are short and ASCII: checking that
        // costs a fraction of `from_utf8`, which was a tenth of a `g:count` call.
        Some(std::str::from_utf8_unchecked(bytes))
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

pub(super) unsafe fn is_nil(l: *mut ffi::lua_State, i: c_int) -> bool {
    ffi::lua_type(l, i) <= ffi::LUA_TNIL
}

/// Through Lua's string cache (the vendored `lua_pushlstringcached`): the names getters
/// push (phases, cards, pieces, terrains, colours) come from the same Rust strings each
/// time, so most pushes find their Lua string by the address without hashing the bytes.
pub(super) unsafe fn push_str(l: *mut ffi::lua_State, s: &str) {
    super::lua_pushlstringcached(l, s.as_ptr() as *const std::ffi::c_char, s.len());
}

/// A stored value as `to_lua_value` makes it (map keys that read as integers become
/// integer keys). Stored values nest at most MAX_DEPTH deep; None past that, or when the
/// stack cannot grow, and the mlua function answers.
pub(super) unsafe fn push_value(l: *mut ffi::lua_State, v: &Value, depth: usize) -> Option<()> {
    if depth > MAX_DEPTH + 1 || ffi::lua_checkstack(l, 3) == 0 {
        return None;
    }
    match v {
        Value::List(items) => {
            ffi::lua_createtable(l, items.len() as c_int, 0);
            for (i, x) in items.iter().enumerate() {
                push_value(l, x, depth + 1)?;
                ffi::lua_rawseti(l, -2, i as i64 + 1);
            }
        }
        Value::Map(m) => {
            ffi::lua_createtable(l, 0, m.len() as c_int);
            for (k, x) in m {
                match int_key(k) {
                    Some(i) => ffi::lua_pushinteger(l, i),
                    None => push_str(l, k),
                }
                push_value(l, x, depth + 1)?;
                ffi::lua_rawset(l, -3);
            }
        }
        Value::Bool(b) => ffi::lua_pushboolean(l, *b as c_int),
        Value::Int(i) => ffi::lua_pushinteger(l, *i),
        Value::Num(n) => ffi::lua_pushnumber(l, *n),
        Value::Str(s) => push_str(l, s),
    }
    Some(())
}
