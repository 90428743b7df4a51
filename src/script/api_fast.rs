//! The `g:` getters the rules call most (`phase`, `count`, `get`, `at`, ... : about nine
//! calls in ten), and the writers they call most (`set`, `log`, `move`, `set_phase`, ...,
//! their bodies in `api_fast_writers.rs`), as raw Lua C functions.
//!
//! An mlua callback costs about 700 machine instructions of glue (protected call, argument
//! and result conversion, a registry reference for `g`) around a few dozen of work; these
//! read the state straight off the Lua stack and push the answer. Each has the method of
//! `api*.rs` as an upvalue and hands the call to it whenever anything is out of the
//! ordinary (a bad argument, a table to build, the budget running out, no game yet), so
//! the errors, their locations and the charges are those of `api*.rs`, written once.
//!
//! A writer checks everything its method would refuse before it changes anything, so it
//! either does all the method does (charges, host memory, the version `g:cached` keys on)
//! or nothing, and hands over.
//!
//! Safety: the functions reach the `Ctx` in the Lua app data through a pointer refreshed
//! whenever a state is installed (`Script::set_state`). They run inside a Lua call, when
//! no Rust borrow of the context is alive (a method of `api*.rs` never calls into Lua while
//! it holds one, and the engine holds none across a call into the rules; if one did, the
//! methods' own borrows would fail).

use super::api::{card, int_key, piece_index, trail_length, zone_ref, CALL_COST, MAX_DEPTH};
use super::api_fast_writers::{
    insert, log, move_cards, record, remove, roll, set, set_current, set_phase, set_store, set_turn,
};
use super::api_slots::{grid_ref, pos};
use super::api_values::{entry, Field};
use super::{Budget, Ctx, HOST_MEMORY_CAP};
use crate::spec::SiteKind;
use crate::state::Zone;
use crate::value::Value;
use mlua::{ffi, Function, Lua, Table};
use std::cell::Cell;
use std::ffi::c_int;
use std::rc::Rc;

/// What the fast getters share, kept in the Lua app data (a stable address for as long
/// as the Lua state lives).
pub(crate) struct FastSlot {
    ctx: Cell<*mut Ctx>,
    budget: Rc<Budget>,
    /// The meter's host memory of this call (`Meter::bytes`).
    bytes: Rc<Cell<usize>>,
}

impl FastSlot {
    pub(crate) fn new(budget: Rc<Budget>, bytes: Rc<Cell<usize>>) -> FastSlot {
        FastSlot { ctx: Cell::new(std::ptr::null_mut()), budget, bytes }
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
    let ctx = lua.app_data_mut::<Ctx>().map_or(std::ptr::null_mut(), |mut c| &mut *c as *mut Ctx);
    if let Some(slot) = lua.app_data_ref::<FastSlot>() {
        slot.ctx.set(ctx);
    }
}

/// A fast getter: pushes its results and returns how many, or None to hand the call to
/// the `api*.rs` method. The stack holds `g` at 1, then the arguments. Work charged beyond
/// the call itself goes in the `u64`, as `api*.rs` charges it.
type Fast = unsafe fn(*mut ffi::lua_State, &Ctx, &mut u64) -> Option<c_int>;

/// The `FastSlot` in the app data, as the address every fast function keeps as its first
/// upvalue (stable for as long as the Lua state lives).
fn slot_of(lua: &Lua) -> Option<*const FastSlot> {
    lua.app_data_ref::<FastSlot>().map(|s| &*s as *const FastSlot)
}

/// A C closure of `f` over `slot` (upvalue 1) and, when given, the `api*.rs` function it
/// hands unusual calls to (upvalue 2, see `hand_over`).
fn c_closure(
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
unsafe fn upvalue_slot<'a>(l: *mut ffi::lua_State) -> &'a FastSlot {
    &*(ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)) as *const FastSlot)
}

/// `upvalue_slot` and the count of arguments (`lua_gettop`), in one call into Lua.
unsafe fn slot_and_top<'a>(l: *mut ffi::lua_State) -> (&'a FastSlot, c_int) {
    let mut top = 0;
    let slot = super::lua_cslot(l, &mut top) as *const FastSlot;
    (&*slot, top)
}

/// Replaces the methods of `g` named in `FAST` by their fast versions.
pub(super) fn install(lua: &Lua, g: &Table) -> mlua::Result<()> {
    let Some(slot) = slot_of(lua) else { return Ok(()) };
    for &(name, tramp) in FAST.iter().chain(FAST_WRITERS) {
        let slow: Function = g.raw_get(name)?;
        g.raw_set(name, c_closure(lua, slot, tramp, Some(slow))?)?;
    }
    Ok(())
}

/// The body every fast getter shares: charge the call as `api*.rs` would, answer, or hand
/// over to the slow method (which charges and raises for itself).
///
/// No `lua_checkstack`: Lua calls a C function with `LUA_MINSTACK` (20) free slots, and a
/// fast function holds at most four values above its arguments at a time (its loops push
/// and store in turn); the recursive walks (`push_value`, `table_value`) check each level.
unsafe fn run(l: *mut ffi::lua_State, f: Fast) -> c_int {
    let (slot, top) = slot_and_top(l);
    let ctx = slot.ctx.get();
    if !ctx.is_null() {
        let mut extra = 0;
        if let Some(n) = f(l, &*ctx, &mut extra) {
            if slot.spend(extra, 0) {
                return n;
            }
        }
        ffi::lua_settop(l, top);
    }
    hand_over(l)
}

/// Calls the `api*.rs` method (upvalue 2) with the arguments on the stack and returns its
/// results. No Rust value with a destructor may be alive in the caller: the method may raise.
unsafe fn hand_over(l: *mut ffi::lua_State) -> c_int {
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
        run(l, cached)
    }
    c_closure(lua, slot, keep, None)
}

/// The version a value `g:cached` keeps is good for, by what it reads (`code`: 0 the whole
/// state, 1 the grids, 2 seat (at 3)'s grids, 3 the cards on them, 4 nothing): what the
/// probe answers and what the C hit compares.
unsafe fn kept_version(l: *mut ffi::lua_State, c: &Ctx, code: i64) -> Option<u64> {
    Some(match code {
        0 => c.version,
        1 => c.grid_version,
        2 => c.grid_stamp(seat_of(c, int_arg(l, 3)?)? + 1),
        3 => c.card_stamp(seat_of(c, int_arg(l, 3)?)? + 1),
        // Nothing of the state: one version for good.
        4 => 1,
        _ => return None,
    })
}

/// `g:cached(fn, arg, reads)` when the value is kept and still good (see `keep_cached_fn`);
/// None otherwise, and the Lua function computes, keeps and charges it. Mirrors its hit:
/// `memo[reads or NONE][fn]` is `{ values, versions, costs }`, each by `arg` (or NONE).
unsafe fn cached(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let code = match ffi::lua_type(l, 4) {
        ffi::LUA_TNIL | ffi::LUA_TNONE => 0,
        ffi::LUA_TSTRING => match str_arg(l, 4)? {
            "grids" => 1,
            "seat_grids" => 2,
            "seat_cards" => 3,
            "constants" => 4,
            _ => return None,
        },
        _ => return None,
    };
    let version = kept_version(l, c, code)?;
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
    Some(1)
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

/// A fast writer: checks everything the `api*.rs` method would refuse before it changes
/// anything, charges through `FastSlot::spend` and returns how many results it pushed, or
/// None (nothing changed, nothing charged) to hand the call to the method.
type FastWrite = unsafe fn(*mut ffi::lua_State, &mut Ctx, &FastSlot) -> Option<c_int>;

/// `run` for the writers: never while legal actions are listed (the method refuses).
unsafe fn run_write(l: *mut ffi::lua_State, f: FastWrite) -> c_int {
    let (slot, top) = slot_and_top(l);
    let ctx = slot.ctx.get();
    if !ctx.is_null() && !(*ctx).read_only {
        if let Some(n) = f(l, &mut *ctx, slot) {
            return n;
        }
        ffi::lua_settop(l, top);
    }
    hand_over(l)
}

/// `LIST`: (name, C function) for each fast function, a C function per name, each calling
/// `runner` (`run` for the getters, `run_write` for the writers) with its body.
macro_rules! c_functions {
    ($list:ident, $runner:ident, { $($name:literal => $f:ident),* $(,)? }) => {
        const $list: &[(&str, ffi::lua_CFunction)] = &[$(($name, {
            unsafe extern "C-unwind" fn t(l: *mut ffi::lua_State) -> c_int { $runner(l, $f) }
            t
        })),*];
    };
}

// The writers rules call most (about seven calls an action in base): an mlua callback
// costs about five times a C function.
c_functions! { FAST_WRITERS, run_write, {
    "set" => set,
    "log" => log,
    "_record" => record,
    "move" => move_cards,
    "set_phase" => set_phase,
    "set_current" => set_current,
    "set_turn" => set_turn,
    "set_store" => set_store,
    "roll" => roll,
    "insert" => insert,
    "remove" => remove,
}}

c_functions! { FAST, run, {
    "phase" => phase,
    "current" => current,
    "players" => players,
    "turn" => turn,
    "winner" => winner,
    "count" => count,
    "holds" => holds,
    "longest_trail" => longest_trail,
    "get" => get,
    "at" => at,
    "hex" => hex,
    "color" => color,
    "option" => option,
    "supply" => supply,
    "marker" => marker,
    "piece_count" => piece_count,
    "hex_resource" => hex_resource,
    "count_category" => count_category,
    "hex_count" => hex_count,
    "cards" => cards,
    "corners" => corners,
    "corner_pieces" => corner_pieces,
    "hex_neighbors" => hex_neighbors,
    "hexes_at" => hexes_at,
    "hexes_numbered" => hexes_numbered,
    "grid_count" => grid_count,
    "harbors_of" => harbors_of,
    "__slots_flat" => slots_flat,
    "slot" => slot,
    "store" => store,
    "__probe" => probe,
    "__used" => used,
}}

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

/// A 1-based id argument as a 0-based index (bounds are the caller's to check).
unsafe fn index_arg(l: *mut ffi::lua_State, i: c_int) -> Option<usize> {
    usize::try_from(int_arg(l, i)?).ok()?.checked_sub(1)
}

pub(super) unsafe fn is_nil(l: *mut ffi::lua_State, i: c_int) -> bool {
    ffi::lua_type(l, i) <= ffi::LUA_TNIL
}

/// A seat index from a 1-based Lua seat, when it names a player.
pub(super) fn seat_of(c: &Ctx, p: i64) -> Option<usize> {
    (p >= 1 && (p as usize) <= c.state.players.len()).then(|| p as usize - 1)
}

/// Through Lua's string cache (the vendored `lua_pushlstringcached`): the names getters
/// push (phases, cards, pieces, terrains, colours) come from the same Rust strings each
/// time, so most pushes find their Lua string by the address without hashing the bytes.
unsafe fn push_str(l: *mut ffi::lua_State, s: &str) {
    super::lua_pushlstringcached(l, s.as_ptr() as *const std::ffi::c_char, s.len());
}

/// A scalar value; None for a list or map (the slow method builds the table).
unsafe fn push_scalar(l: *mut ffi::lua_State, v: &Value) -> Option<()> {
    match v {
        Value::Bool(b) => ffi::lua_pushboolean(l, *b as c_int),
        Value::Int(i) => ffi::lua_pushinteger(l, *i),
        Value::Num(n) => ffi::lua_pushnumber(l, *n),
        Value::Str(s) => push_str(l, s),
        Value::List(_) | Value::Map(_) => return None,
    }
    Some(())
}

// The getters: each the same answer as its method in api*.rs.

unsafe fn phase(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    push_str(l, &c.state.phase);
    Some(1)
}

unsafe fn current(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    ffi::lua_pushinteger(l, c.state.current as i64 + 1);
    Some(1)
}

/// `g:cached`'s probe (`__probe` in api.rs): the version of what it reads, or true with
/// the kept value's cost charged when the version is the one it was kept at. One call
/// where a kept value took two (the version, then the charge).
unsafe fn probe(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let v = kept_version(l, c, int_arg(l, 2)?)?;
    if !is_nil(l, 4) && int_arg(l, 4)? as u64 == v {
        *extra = u64::try_from(int_arg(l, 5)?).ok()?;
        ffi::lua_pushboolean(l, 1);
    } else {
        ffi::lua_pushinteger(l, v as i64);
    }
    Some(1)
}

/// The budget used by this call into the rules so far, to the unit: `g:cached` charges a
/// value kept what computing it cost, so that a game and its replay, whatever each kept,
/// use the same budget.
unsafe fn used(l: *mut ffi::lua_State, _c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let slot = upvalue_slot(l);
    ffi::lua_pushinteger(l, (slot.budget.used.get() + super::lua_pendingcharge(l).max(0) as u64) as i64);
    Some(1)
}

/// `g:holds(owner, zone, cards)`: true when the zone holds at least each count of `cards`.
unsafe fn holds(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    if ffi::lua_type(l, 4) != ffi::LUA_TTABLE {
        return None;
    }
    let (o, z) = zone_ref(c, owner_arg(l, 2)?, str_arg(l, 3)?).ok()?;
    let zone = c.state.zone(o, z)?;
    let mut holds = true;
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, 4) != 0 {
        *extra += 1;
        // A key that is not a string or a count that is not an integer: the method says so.
        if ffi::lua_isinteger(l, -1) == 0 {
            return None;
        }
        let n = int_arg(l, -1)?;
        let k = card(c, str_arg(l, -2)?).ok()?;
        ffi::lua_settop(l, -2);
        if (zone.count(k) as i64) < n {
            holds = false;
            break;
        }
    }
    ffi::lua_settop(l, 4);
    ffi::lua_pushboolean(l, holds as c_int);
    Some(1)
}

/// `g:longest_trail(p, kind)`, charged as its method (four units a path).
unsafe fn longest_trail(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let s = seat_of(c, int_arg(l, 2)?)?;
    let k = piece_index(c, str_arg(l, 3)?)?;
    let t = c.state.topology.as_ref()?;
    *extra = t.paths.len() as u64 * 4;
    ffi::lua_pushinteger(l, trail_length(c, t, s, k) as i64);
    Some(1)
}

unsafe fn players(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    ffi::lua_pushinteger(l, c.state.players.len() as i64);
    Some(1)
}

unsafe fn turn(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    ffi::lua_pushinteger(l, c.state.turn as i64);
    Some(1)
}

unsafe fn winner(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    match c.state.winner {
        Some(w) => ffi::lua_pushinteger(l, w as i64 + 1),
        None => ffi::lua_pushnil(l),
    }
    Some(1)
}

unsafe fn count(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let (o, z) = zone_ref(c, owner_arg(l, 2)?, str_arg(l, 3)?).ok()?;
    let zone = c.state.zone(o, z)?;
    // A card first: one call into Lua for the usual question, two for the zone's total.
    let n = match str_arg(l, 4) {
        Some(name) => zone.count(card(c, name).ok()?),
        None if is_nil(l, 4) => zone.total(),
        None => return None,
    };
    ffi::lua_pushinteger(l, n as i64);
    Some(1)
}

unsafe fn get(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let v = c.state.vars.get(str_arg(l, 2)?);
    // `g:get(key, field)`: one entry of a stored list or map, not the whole of it.
    let v = match ffi::lua_type(l, 3) {
        ffi::LUA_TNIL | ffi::LUA_TNONE => v,
        ffi::LUA_TNUMBER => entry(v, Field::Int(int_arg(l, 3)?)),
        ffi::LUA_TSTRING => entry(v, Field::Str(str_arg(l, 3)?)),
        _ => return None,
    };
    match v {
        None => ffi::lua_pushnil(l),
        Some(v) => {
            push_value(l, v, 0)?;
            *extra = v.size() as u64 / 32; // as `load_var`
        }
    }
    Some(1)
}

/// A stored value as `to_lua_value` makes it (map keys that read as integers become
/// integer keys). Stored values nest at most MAX_DEPTH deep; None past that, or when the
/// stack cannot grow, and the slow method answers.
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
        scalar => push_scalar(l, scalar)?,
    }
    Some(())
}

unsafe fn at(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let kind = match str_arg(l, 2)? {
        "intersection" => SiteKind::Intersection,
        "path" => SiteKind::Path,
        _ => return None,
    };
    let site = c.state.sites(kind).get(index_arg(l, 3)?)?;
    match site {
        Some(pc) => {
            push_str(l, &c.spec.pieces[pc.kind as usize].name);
            match pc.seat() {
                Some(s) => ffi::lua_pushinteger(l, s as i64 + 1),
                None => ffi::lua_pushnil(l),
            }
        }
        None => {
            ffi::lua_pushnil(l);
            ffi::lua_pushnil(l);
        }
    }
    Some(2)
}

unsafe fn hex(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let h = c.state.hexes.get(index_arg(l, 2)?)?;
    push_str(l, &c.spec.terrains[h.terrain as usize].name);
    match h.number {
        Some(n) => ffi::lua_pushinteger(l, n as i64),
        None => ffi::lua_pushnil(l),
    }
    Some(2)
}

unsafe fn color(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    push_str(l, &c.state.players[seat_of(c, int_arg(l, 2)?)?].color);
    Some(1)
}

unsafe fn option(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let name = str_arg(l, 2)?;
    match c.names.get(name, super::names::NameKind::Option) {
        // SAFETY: `option_value`'s pointer stays good until the next call to it.
        Some(Some(i)) => push_scalar(l, &*c.option_value(i)?)?,
        _ => push_scalar(l, c.state.options.get(name)?)?,
    }
    Some(1)
}

unsafe fn supply(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let s = seat_of(c, int_arg(l, 2)?)?;
    let k = piece_index(c, str_arg(l, 3)?)?;
    ffi::lua_pushinteger(l, *c.state.players[s].supply.get(k)? as i64);
    Some(1)
}

unsafe fn marker(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    match c.state.markers.get(str_arg(l, 2)?) {
        Some(h) => ffi::lua_pushinteger(l, *h as i64 + 1),
        None => ffi::lua_pushnil(l),
    }
    Some(1)
}

unsafe fn piece_count(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let s = seat_of(c, int_arg(l, 2)?)?;
    let k = piece_index(c, str_arg(l, 3)?)?;
    let site = c.spec.pieces[k].site;
    let sites = c.state.sites(site);
    *extra = sites.len() as u64 / 4; // as api.rs: the scan grows with the board
    let n = c.pieces_on(site, s, k);
    debug_assert_eq!(
        n,
        sites.iter().filter(|pc| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k)).count(),
        "kept piece counts are stale: a write to the sites did not stamp `sites_stamp`"
    );
    ffi::lua_pushinteger(l, n as i64);
    Some(1)
}

unsafe fn hex_resource(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let h = c.state.hexes.get(index_arg(l, 2)?)?;
    match c.spec.terrains[h.terrain as usize].produces {
        Some(k) => push_str(l, &c.spec.cards[k].name),
        None => ffi::lua_pushnil(l),
    }
    Some(1)
}

unsafe fn count_category(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let (o, z) = zone_ref(c, owner_arg(l, 2)?, str_arg(l, 3)?).ok()?;
    let zone = c.state.zone(o, z)?;
    let cat = str_arg(l, 4)?;
    let n: usize = c.spec.cards.iter().enumerate().filter(|(_, k)| k.category == cat).map(|(i, _)| zone.count(i)).sum();
    ffi::lua_pushinteger(l, n as i64);
    Some(1)
}

unsafe fn hex_count(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    ffi::lua_pushinteger(l, c.state.hexes.len() as i64);
    Some(1)
}

// Getters that build a table. The table is built before the budget is checked; at worst
// one zone or one hex's lists, and `run` then hands the call to the slow method, which
// raises. An allocation failure raises from here, with no Rust value to drop.

/// A list of 1-based ids.
unsafe fn push_ids(l: *mut ffi::lua_State, ids: &[usize]) {
    ffi::lua_createtable(l, ids.len() as c_int, 0);
    for (i, id) in ids.iter().enumerate() {
        ffi::lua_pushinteger(l, *id as i64 + 1);
        ffi::lua_rawseti(l, -2, i as i64 + 1);
    }
}

unsafe fn cards(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let (o, z) = zone_ref(c, owner_arg(l, 2)?, str_arg(l, 3)?).ok()?;
    match c.state.zone(o, z)? {
        Zone::Counts(counts) => {
            *extra = counts.len() as u64;
            ffi::lua_createtable(l, 0, counts.iter().filter(|&&n| n > 0).count() as c_int);
            for (i, &n) in counts.iter().enumerate() {
                if n > 0 {
                    push_str(l, &c.spec.cards[i].name);
                    ffi::lua_pushinteger(l, n as i64);
                    ffi::lua_rawset(l, -3);
                }
            }
        }
        Zone::Stack(stack) => {
            *extra = stack.len() as u64;
            ffi::lua_createtable(l, stack.len() as c_int, 0);
            for (i, &k) in stack.iter().enumerate() {
                push_str(l, &c.spec.cards[k as usize].name);
                ffi::lua_rawseti(l, -2, i as i64 + 1);
            }
        }
    }
    Some(1)
}

unsafe fn corners(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let t = c.state.topology.as_ref()?;
    push_ids(l, &t.hexes.get(index_arg(l, 2)?)?.corners);
    Some(1)
}

/// `g:corner_pieces(h)`: intersection, kind, owner (false: no player's) of each piece on
/// the hex's corners, in one flat list.
unsafe fn corner_pieces(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let t = c.state.topology.as_ref()?;
    let corners = &t.hexes.get(index_arg(l, 2)?)?.corners;
    ffi::lua_createtable(l, 3 * corners.len() as c_int, 0);
    let mut k = 0;
    for &n in corners {
        if let Some(pc) = c.state.intersections.get(n).copied().flatten() {
            ffi::lua_pushinteger(l, n as i64 + 1);
            ffi::lua_rawseti(l, -2, k + 1);
            push_str(l, &c.spec.pieces[pc.kind as usize].name);
            ffi::lua_rawseti(l, -2, k + 2);
            match pc.seat() {
                Some(s) => ffi::lua_pushinteger(l, s as i64 + 1),
                None => ffi::lua_pushboolean(l, 0),
            }
            ffi::lua_rawseti(l, -2, k + 3);
            k += 3;
        }
    }
    Some(1)
}

unsafe fn hex_neighbors(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let t = c.state.topology.as_ref()?;
    push_ids(l, &t.hexes.get(index_arg(l, 2)?)?.neighbors);
    Some(1)
}

unsafe fn hexes_at(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let t = c.state.topology.as_ref()?;
    push_ids(l, &t.intersections.get(index_arg(l, 2)?)?.hexes);
    Some(1)
}

unsafe fn hexes_numbered(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let n = u8::try_from(int_arg(l, 2)?).ok()?;
    // Counted first, so that the list is made at its size (not grown entry by entry).
    let found = c.state.hexes.iter().filter(|h| h.number == Some(n)).count();
    *extra = c.state.hexes.len() as u64; // as api.rs: a scan of the board
    ffi::lua_createtable(l, found as c_int, 0);
    let mut k = 0;
    for (i, h) in c.state.hexes.iter().enumerate() {
        if h.number == Some(n) {
            k += 1;
            ffi::lua_pushinteger(l, i as i64 + 1);
            ffi::lua_rawseti(l, -2, k);
        }
    }
    Some(1)
}

/// The owner argument of zone and grid getters: nil or a seat.
pub(super) unsafe fn owner_arg(l: *mut ffi::lua_State, i: c_int) -> Option<Option<i64>> {
    // A seat first: one call into Lua for the usual owner, two for nil (the game's zones).
    match int_arg(l, i) {
        Some(p) => Some(Some(p)),
        None if is_nil(l, i) => Some(None),
        None => None,
    }
}

/// `g:harbors_of(p)`: { resource = kind or nil, ratio = n } for each harbor p builds on.
unsafe fn harbors_of(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let s = seat_of(c, int_arg(l, 2)?)?;
    let topo = c.state.topology.as_ref()?;
    *extra = c.state.harbors.len() as u64 * 2; // as api.rs
    let mine = |x: usize| c.state.intersections.get(x).copied().flatten().is_some_and(|pc| pc.owner as usize == s);
    ffi::lua_createtable(l, 0, 0);
    let mut n = 0;
    for h in c.state.harbors.iter() {
        let [a, b] = topo.paths.get(h.path)?.ends;
        if mine(a) || mine(b) {
            ffi::lua_createtable(l, 0, 2);
            if let Some(r) = &h.resource {
                push_str(l, r);
                ffi::lua_setfield(l, -2, c"resource".as_ptr());
            }
            ffi::lua_pushinteger(l, h.ratio as i64);
            ffi::lua_setfield(l, -2, c"ratio".as_ptr());
            n += 1;
            ffi::lua_rawseti(l, -2, n);
        }
    }
    Some(1)
}

unsafe fn slots_flat(l: *mut ffi::lua_State, c: &Ctx, extra: &mut u64) -> Option<c_int> {
    let gi = grid_ref(c, owner_arg(l, 2)?, str_arg(l, 3)?).ok()?;
    let slots = &c.state.grids[gi].slots;
    *extra = slots.len() as u64 * 16; // as api_slots.rs
    ffi::lua_createtable(l, (slots.len() * 5) as c_int, 0);
    let mut i = 0;
    let mut put = |push: &dyn Fn()| {
        push();
        i += 1;
        ffi::lua_rawseti(l, -2, i);
    };
    for s in slots {
        put(&|| ffi::lua_pushinteger(l, s.row as i64 + 1));
        put(&|| ffi::lua_pushinteger(l, s.col as i64 + 1));
        put(&|| match s.top() {
            Some(k) => push_str(l, &c.spec.cards[k as usize].name),
            None => ffi::lua_pushboolean(l, 0),
        });
        put(&|| ffi::lua_pushinteger(l, s.store as i64));
        put(&|| ffi::lua_pushinteger(l, s.cards.len() as i64));
    }
    Some(1)
}

/// (grid, row, col) of a position argument list (owner, grid, row, col).
unsafe fn position_args(l: *mut ffi::lua_State, c: &Ctx) -> Option<(usize, usize, usize)> {
    pos(c, owner_arg(l, 2)?, str_arg(l, 3)?, int_arg(l, 4)?, int_arg(l, 5)?).ok()
}

unsafe fn slot(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let (gi, r, k) = position_args(l, c)?;
    let grid = &c.state.grids[gi];
    match grid.top(r, k) {
        Some(card) => push_str(l, &c.spec.cards[card as usize].name),
        None => ffi::lua_pushnil(l),
    }
    ffi::lua_pushinteger(l, grid.store(r, k) as i64);
    Some(2)
}

unsafe fn store(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let (gi, r, k) = position_args(l, c)?;
    ffi::lua_pushinteger(l, c.state.grids[gi].store(r, k) as i64);
    Some(1)
}

/// `g:grid_count(owner, grid, kind)`: cards in play on the grid, of one kind or all.
unsafe fn grid_count(l: *mut ffi::lua_State, c: &Ctx, _extra: &mut u64) -> Option<c_int> {
    let gi = grid_ref(c, owner_arg(l, 2)?, str_arg(l, 3)?).ok()?;
    let slots = &c.state.grids[gi].slots;
    let n = if is_nil(l, 4) {
        slots.iter().filter(|s| s.top().is_some()).count()
    } else {
        let k = card(c, str_arg(l, 4)?).ok()? as u16;
        slots.iter().filter(|s| s.top() == Some(k)).count()
    };
    ffi::lua_pushinteger(l, n as i64);
    Some(1)
}
