//! The writers rules call most (`set`, `log`, `move`, `set_phase`, `set_store`, `roll`,
//! `insert`, `remove`, ...) as raw Lua C functions: the other half of `api_fast.rs`, whose
//! `run_write` calls them. Each does all its method in `api*.rs` does (charges, host memory,
//! the version `g:cached` keys on) or nothing at all, and hands the call over.

use super::api::{card, roll_die, zone_ref, MAX_DEPTH, MAX_DICE};
use super::api_fast::{int_arg, is_nil, owner_arg, push_value, seat_of, str_arg, FastSlot};
use super::api_slots::pos;
use super::api_values::{insert_entry, inserted_bytes, list_len, var_bytes_after};
use super::log_format::{format_log_into, LogArg};
use super::{Ctx, Message, VARS_CAP};
use crate::state::Zone;
use crate::value::Value;
use mlua::ffi;
use std::ffi::c_int;

// The writers: each does what its method in api.rs does, or nothing at all.

pub(super) unsafe fn set_phase(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let p = str_arg(l, 2)?;
    if !slot.spend(0, 0) {
        return None;
    }
    c.touch();
    c.state.phase.clear();
    c.state.phase.push_str(p);
    Some(0)
}

pub(super) unsafe fn set_current(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let s = seat_of(c, int_arg(l, 2)?)?;
    if !slot.spend(0, 0) {
        return None;
    }
    c.touch();
    c.state.current = s;
    Some(0)
}

pub(super) unsafe fn set_turn(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let t = u32::try_from(int_arg(l, 2)?).ok()?;
    if !slot.spend(0, 0) {
        return None;
    }
    c.touch();
    c.state.turn = t;
    Some(0)
}

/// `g:log(text)`: a message for everyone, charged as `api::message` charges it.
pub(super) unsafe fn log(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let format = str_arg(l, 2)?;
    let top = ffi::lua_gettop(l);
    // Quiet (`Game::set_quiet`): the text goes into a buffer kept for it, to be measured.
    let mut text = if c.quiet { std::mem::take(&mut c.log_scratch) } else { String::new() };
    text.clear();
    if top <= 2 {
        text.push_str(format);
    } else {
        // `g:log(format, ...)`: anything but strings and numbers, or more than eight
        // arguments, goes to the method. (No Vec: a message is logged about twice an action.)
        let mut args = [LogArg::Int(0); 8];
        let n = (top - 2) as usize;
        for (i, arg) in (3..=top).zip(args.get_mut(..n)?) {
            // A string first: one call into Lua for the usual argument.
            *arg = match str_arg(l, i) {
                Some(s) => LogArg::Str(s),
                None => match ffi::lua_type(l, i) {
                    ffi::LUA_TNUMBER if ffi::lua_isinteger(l, i) != 0 => LogArg::Int(int_arg(l, i)?),
                    ffi::LUA_TNUMBER => LogArg::Num(ffi::lua_tonumberx(l, i, std::ptr::null_mut())),
                    _ => return None,
                },
            };
        }
        format_log_into(&mut text, format, &args[..n]).ok()?;
    }
    if !slot.spend(text.len() as u64 / 16, 64 + text.len()) {
        return None;
    }
    c.touch();
    if c.quiet {
        c.quiet_bytes += text.len();
        c.log_scratch = text;
    } else {
        c.messages.push(Message { text, to: None });
    }
    Some(0)
}

/// `g:_record(event)`, which the prelude's `g:emit` calls: allowed while listing too, as
/// its method is, and not a change of the state.
pub(super) unsafe fn record(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let event = str_arg(l, 2)?;
    if !slot.spend(0, 32 + event.len()) {
        return None;
    }
    c.keep_event(event);
    Some(0)
}

/// The value at `i` as `from_lua_value` converts it: Some(None) for nil; None for what
/// the method must judge (a function, a table it refuses).
unsafe fn value_arg(l: *mut ffi::lua_State, i: c_int) -> Option<Option<Value>> {
    Some(match ffi::lua_type(l, i) {
        ffi::LUA_TNIL | ffi::LUA_TNONE => None,
        ffi::LUA_TBOOLEAN => Some(Value::Bool(ffi::lua_toboolean(l, i) != 0)),
        ffi::LUA_TNUMBER => match int_arg(l, i) {
            Some(n) if ffi::lua_isinteger(l, i) != 0 => Some(Value::Int(n)),
            _ => Some(Value::Num(ffi::lua_tonumberx(l, i, std::ptr::null_mut()))),
        },
        ffi::LUA_TSTRING => Some(Value::Str(str_arg(l, i)?.to_owned())),
        ffi::LUA_TTABLE => Some(table_value(l, i, 0, &mut 32)?),
        _ => return None,
    })
}

/// `g:insert(key, [pos,] value)`, charged as its method: the entry's size, the entries moved.
pub(super) unsafe fn insert(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let key = str_arg(l, 2)?;
    let (pos, at_value) = match ffi::lua_gettop(l) {
        3 => (None, 3),
        4 => (Some(int_arg(l, 3).filter(|_| ffi::lua_isinteger(l, 3) != 0)?), 4),
        _ => return None,
    };
    let value = value_arg(l, at_value)??;
    let len = list_len(&c.state.vars, key)?;
    let at = match pos {
        None => len,
        Some(p) if p >= 1 && p as usize <= len + 1 => p as usize - 1,
        Some(_) => return None,
    };
    let added = inserted_bytes(&c.state.vars, key, &value);
    let total = c.state.var_bytes + added;
    if total > VARS_CAP || !slot.spend(added as u64 / 32 + (len - at) as u64 / 16, added) {
        return None;
    }
    c.touch();
    insert_entry(&mut c.state.vars, key, at, value);
    c.state.var_bytes = total;
    Some(0)
}

/// `g:remove(key, pos?)`: the entry is pushed before anything changes, so that a value the
/// fast path cannot push leaves the call to the method.
pub(super) unsafe fn remove(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let key = str_arg(l, 2)?;
    let len = list_len(&c.state.vars, key)?;
    if len == 0 {
        ffi::lua_pushnil(l);
        return slot.spend(0, 0).then_some(1);
    }
    let at = if is_nil(l, 3) {
        len - 1
    } else {
        match int_arg(l, 3).filter(|_| ffi::lua_isinteger(l, 3) != 0)? {
            p if p >= 1 && p as usize <= len => p as usize - 1,
            _ => return None,
        }
    };
    let Some(Value::List(list)) = c.state.vars.get(key) else { return None };
    let size = list[at].size();
    push_value(l, &list[at], 0)?;
    if !slot.spend((len - at) as u64 / 16 + size as u64 / 32, 0) {
        return None;
    }
    c.touch();
    if let Some(Value::List(list)) = c.state.vars.get_mut(key) {
        list.remove(at);
    }
    c.state.var_bytes = c.state.var_bytes.saturating_sub(size);
    Some(1)
}

/// `g:set(key, value)` for a value that is not a table (the method converts tables).
pub(super) unsafe fn set(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let key = str_arg(l, 2)?;
    let value = value_arg(l, 3)?;
    // As `store_var`: its size, the host memory and the cap on all stored values.
    let (new, total) = var_bytes_after(&c.state.vars, c.state.var_bytes, key, value.as_ref());
    if total > VARS_CAP || !slot.spend(new as u64 / 32, new) {
        return None;
    }
    c.touch();
    match value {
        Some(v) => match c.state.vars.get_mut(key) {
            Some(slot) => *slot = v,
            None => {
                c.state.vars.insert(key.to_owned(), v);
            }
        },
        None => {
            c.state.vars.remove(key);
        }
    }
    c.state.var_bytes = total;
    Some(0)
}

/// `g:roll(n)`: n dice (2 when nil) as a new list, charged one unit a die as the method.
pub(super) unsafe fn roll(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let n = if is_nil(l, 2) { 2 } else { int_arg(l, 2)? };
    if !(0..=MAX_DICE as i64).contains(&n) || !slot.spend(n as u64, 0) {
        return None;
    }
    // The list is made (the one allocation, which may raise) before anything changes.
    ffi::lua_createtable(l, n as c_int, 0);
    c.touch();
    for i in 1..=n {
        ffi::lua_pushinteger(l, roll_die(c) as i64);
        ffi::lua_rawseti(l, -2, i);
    }
    Some(1)
}

/// `g:move(from_owner, from_zone, to_owner, to_zone, kind, n)`.
pub(super) unsafe fn move_cards(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let n = if is_nil(l, 7) { 1 } else { u16::try_from(int_arg(l, 7)?).ok()? } as usize;
    let from = zone_ref(c, owner_arg(l, 2)?, str_arg(l, 3)?).ok()?;
    let dest = zone_ref(c, owner_arg(l, 4)?, str_arg(l, 5)?).ok()?;
    let k = card(c, str_arg(l, 6)?).ok()?;
    let source = c.state.zone(from.0, from.1)?;
    if source.count(k) < n || c.state.zone(dest.0, dest.1).is_none() {
        return None;
    }
    let extra = match source {
        Zone::Stack(s) => (s.len() as u64).saturating_mul(n as u64) / 8,
        Zone::Counts(_) => 0,
    };
    if !slot.spend(extra, 0) {
        return None;
    }
    c.touch();
    c.state.zone_mut(from.0, from.1)?.remove(k, n);
    if c.state.zone_mut(dest.0, dest.1)?.add(k, n).is_err() {
        // The destination is full: put the cards back; the method raises.
        let _ = c.state.zone_mut(from.0, from.1)?.add(k, n);
        return None;
    }
    Some(0)
}

/// A value of the Lua stack as `api::from_lua_value` converts it (the same raw walk: `#`,
/// `next`, no metamethods), None for anything it refuses (the method then raises): a
/// function, a key that is neither string nor integer, too deep or too large. `size`
/// counts as it does, against `VARS_CAP`. A stored table used to cost a few microseconds
/// of mlua calls per level; Rivals stores its queue of dice results on most actions.
unsafe fn lua_value(l: *mut ffi::lua_State, i: c_int, depth: usize, size: &mut usize) -> Option<Option<Value>> {
    if depth > MAX_DEPTH {
        return None;
    }
    *size += 32;
    let v = match ffi::lua_type(l, i) {
        ffi::LUA_TNIL => None,
        ffi::LUA_TBOOLEAN => Some(Value::Bool(ffi::lua_toboolean(l, i) != 0)),
        ffi::LUA_TNUMBER if ffi::lua_isinteger(l, i) != 0 => {
            Some(Value::Int(ffi::lua_tointegerx(l, i, std::ptr::null_mut())))
        }
        ffi::LUA_TNUMBER => Some(Value::Num(ffi::lua_tonumberx(l, i, std::ptr::null_mut()))),
        ffi::LUA_TSTRING => {
            let text = str_arg(l, i)?;
            *size += text.len();
            Some(Value::Str(text.to_owned()))
        }
        ffi::LUA_TTABLE => Some(table_value(l, i, depth, size)?),
        _ => return None,
    };
    (*size <= VARS_CAP).then_some(v)
}

/// The table at stack index `i` (its own 32 bytes already counted in `size`).
unsafe fn table_value(l: *mut ffi::lua_State, i: c_int, depth: usize, size: &mut usize) -> Option<Value> {
    if depth > MAX_DEPTH || *size > VARS_CAP || ffi::lua_checkstack(l, 4) == 0 {
        return None;
    }
    let t = ffi::lua_absindex(l, i);
    let len = ffi::lua_rawlen(l, t);
    let mut count = 0usize;
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, t) != 0 {
        count += 1;
        ffi::lua_settop(l, -2);
    }
    // The walk scanned every slot, emptied ones too, recorded as debt (`luaG_debt`); a
    // table listed many times is walked as often. Once a hook period is owed, the method
    // takes over: it charges the debt at each table (`sandbox::charge`).
    if super::lua_pendingcharge(l) >= super::HOOK_EVERY as c_int {
        return None;
    }
    // A list needs every key 1..len (`#` is any border), as `api::convert` checks.
    let list = count == len
        && len > 0
        && (1..=len).all(|k| {
            let present = ffi::lua_rawgeti(l, t, k as i64) != ffi::LUA_TNIL;
            ffi::lua_settop(l, -2);
            present
        });
    if list {
        let mut out = Vec::with_capacity(len);
        for k in 1..=len {
            ffi::lua_rawgeti(l, t, k as i64);
            let v = lua_value(l, -1, depth + 1, size);
            ffi::lua_settop(l, -2);
            out.push(v?.unwrap_or(Value::Bool(false)));
        }
        return Some(Value::List(out));
    }
    let mut map = std::collections::BTreeMap::new();
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, t) != 0 {
        // Key at -2, value at -1; the key is read without converting it in place.
        let key = match ffi::lua_type(l, -2) {
            ffi::LUA_TSTRING => str_arg(l, -2).map(str::to_owned),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, -2) != 0 => {
                Some(ffi::lua_tointegerx(l, -2, std::ptr::null_mut()).to_string())
            }
            _ => None,
        };
        let Some(key) = key else {
            ffi::lua_settop(l, -3);
            return None;
        };
        *size += key.len();
        let v = lua_value(l, -1, depth + 1, size);
        ffi::lua_settop(l, -2);
        match v {
            Some(Some(v)) => {
                map.insert(key, v);
            }
            Some(None) => {}
            None => {
                ffi::lua_settop(l, -2);
                return None;
            }
        }
    }
    Some(Value::Map(map))
}

/// `g:set_store(owner, grid, row, col, n)`.
pub(super) unsafe fn set_store(l: *mut ffi::lua_State, c: &mut Ctx, slot: &FastSlot) -> Option<c_int> {
    let owner = owner_arg(l, 2)?;
    let (gi, r, k) = pos(c, owner, str_arg(l, 3)?, int_arg(l, 4)?, int_arg(l, 5)?).ok()?;
    let n = u16::try_from(int_arg(l, 6)?).ok()?;
    if !slot.spend(0, 0) {
        return None;
    }
    c.touch();
    c.touch_grids(owner, false);
    c.state.grids[gi].get_mut(r, k).store = n;
    c.state.grids[gi].tidy(r, k);
    Some(0)
}
