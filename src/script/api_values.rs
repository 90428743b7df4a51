//! The `g` methods of stored values (`get`, `set`, `set_entry`, `insert`, `remove`, `pget`,
//! `pset`), declared once each (`methods.rs`), and what they share: what a value costs
//! against `VARS_CAP`, entries of stored lists and maps, a Lua value to store as either way
//! of calling reads it.

use super::api::{from_lua_value, rt, seat, MAX_DEPTH, R};
use super::api_fast::{int_arg, str_arg};
use super::ctx::part;
use super::methods::{methods, Arg, Call};
use super::{caller, Ctx, ScriptError, ScriptErrorKind, VARS_CAP};
use crate::value::Value;
use mlua::{ffi, FromLua, Lua, Value as LV};
use std::collections::BTreeMap;
use std::ffi::c_int;

/// What storing `value` under `key` in `vars` takes, in bytes, and what all stored values
/// (`var_bytes` now, `GameState::var_bytes`) take after it.
pub(super) fn var_bytes_after(
    vars: &BTreeMap<String, Value>,
    var_bytes: usize,
    key: &str,
    value: Option<&Value>,
) -> (usize, usize) {
    let new = value.map_or(0, |v| 32 + key.len() + v.size());
    let old = vars.get(key).map_or(0, |v| 32 + key.len() + v.size());
    (new, var_bytes.saturating_sub(old) + new)
}

/// The length of the stored list `key` for `g:insert` and `g:remove`: 0 when there is none
/// or it is the empty table `g:set` stores (an empty map); None when it holds anything
/// else.
pub(super) fn list_len(vars: &BTreeMap<String, Value>, key: &str) -> Option<usize> {
    match vars.get(key) {
        None => Some(0),
        Some(Value::List(list)) => Some(list.len()),
        Some(Value::Map(m)) if m.is_empty() => Some(0),
        Some(_) => None,
    }
}

/// The bytes `g:insert` adds to the stored values: the entry, and the list itself when
/// the key is new.
pub(super) fn inserted_bytes(vars: &BTreeMap<String, Value>, key: &str, value: &Value) -> usize {
    value.size() + if vars.contains_key(key) { 0 } else { 32 + key.len() + 32 }
}

/// Puts `value` at index `at` of the stored list `key` (made if missing, or in place of
/// the empty table `g:set` stores); `list_len` said the key holds a list or nothing.
pub(super) fn insert_entry(vars: &mut BTreeMap<String, Value>, key: &str, at: usize, value: Value) {
    let entry = match vars.get_mut(key) {
        Some(v) => v,
        None => vars.entry(key.to_owned()).or_insert(Value::List(vec![])),
    };
    if !matches!(entry, Value::List(_)) {
        *entry = Value::List(vec![]);
    }
    if let Value::List(list) = entry {
        list.insert(at, value);
    }
}

/// The entry `g:get(key, field)` reads: a position in a stored list (from 1) or a key of
/// a stored map.
#[derive(Clone, Copy)]
pub(super) enum Field<'a> {
    Int(i64),
    Str(&'a str),
}

/// Entry `field` of the stored `v`; None when there is no such entry or `v` is neither a
/// list nor a map.
pub(super) fn entry<'a>(v: Option<&'a Value>, field: Field<'_>) -> Option<&'a Value> {
    match (v?, field) {
        (Value::List(items), Field::Int(i)) => usize::try_from(i - 1).ok().and_then(|i| items.get(i)),
        (Value::Map(m), Field::Int(i)) => m.get(&i.to_string()),
        (Value::Map(m), Field::Str(s)) => m.get(s),
        _ => None,
    }
}

/// Refuses stored values of `total` bytes past `VARS_CAP`, at the script's line.
fn within_cap(m: &mut impl Call, total: usize) -> R<()> {
    if total > VARS_CAP {
        return Err(mlua::Error::external(ScriptError {
            location: m.lua().and_then(caller),
            ..ScriptError::new(
                ScriptErrorKind::Memory,
                format!("the stored values (g:set, g:pset) would hold {total} bytes, past the cap of {VARS_CAP}"),
            )
        }));
    }
    Ok(())
}

/// Stores `value` under `key` in the game's vars (`seat` None) or a player's, keeping
/// `GameState::var_bytes` and refusing past `VARS_CAP`.
fn store_var(m: &mut impl Call, c: &mut Ctx, seat: Option<usize>, key: &str, value: Option<Value>) -> R<()> {
    let vars = match seat {
        Some(s) => &c.state.players[s].vars,
        None => &c.state.vars,
    };
    let (new, total) = var_bytes_after(vars, c.state.var_bytes, key, value.as_ref());
    m.alloc(new)?;
    m.charge(new as u64 / 32)?;
    within_cap(m, total)?;
    m.commit(c)?;
    c.wrote(part::var(key));
    let vars = match seat {
        Some(s) => &mut c.state.players[s].vars,
        None => &mut c.state.vars,
    };
    match value {
        // A key already stored keeps its `String` (no allocation for it).
        Some(v) => match vars.get_mut(key) {
            Some(slot) => *slot = v,
            None => {
                vars.insert(key.to_owned(), v);
            }
        },
        None => {
            vars.remove(key);
        }
    }
    c.state.var_bytes = total;
    Ok(())
}

/// `g:set_entry(key, field, value)`: entry `field` of the stored table `key` (a missing key
/// starts an empty one), keeping `GameState::var_bytes` and refusing past `VARS_CAP`.
fn set_entry(m: &mut impl Call, c: &mut Ctx, key: &str, field: &SetField, value: Option<Value>) -> R<()> {
    let entry_bytes = value.as_ref().map_or(0, Value::size);
    let (edit, delta, work) =
        plan_edit(c.state.vars.get(key), field, value).map_err(|e| rt(format!("g:set_entry: '{key}' {e}")))?;
    // A new key: its own node and the table's, as `var_bytes_after` counts them.
    let delta = delta + if c.state.vars.contains_key(key) { 0 } else { 32 + key.len() as isize + 32 };
    let total = (c.state.var_bytes as isize + delta).max(0) as usize;
    m.alloc(entry_bytes)?;
    m.charge(entry_bytes as u64 / 32 + work as u64 * ENTRY_WORK)?;
    within_cap(m, total)?;
    m.commit(c)?;
    c.wrote(part::var(key));
    let slot = match c.state.vars.get_mut(key) {
        Some(v) => v,
        None => c.state.vars.entry(key.to_owned()).or_insert(Value::Map(BTreeMap::new())),
    };
    match (edit, slot) {
        (Edit::Replace(i, v), Value::List(items)) => items[i] = v,
        (Edit::Push(v), Value::List(items)) => items.push(v),
        (Edit::Pop, Value::List(items)) => {
            items.pop();
        }
        (Edit::Put(k, v), Value::Map(map)) => {
            map.insert(k, v);
        }
        (Edit::Drop(k), Value::Map(map)) => {
            map.remove(&k);
        }
        (Edit::Whole(v), slot) => *slot = v,
        _ => {}
    }
    c.state.var_bytes = total;
    Ok(())
}

/// A stored value handed to Lua (`g:get`, `g:pget`, `g:remove`), charged by its size.
fn load_var(m: &mut impl Call, v: Option<&Value>) -> R<()> {
    match v {
        Some(v) => {
            m.charge(v.size() as u64 / 32)?;
            m.value(v)
        }
        None => m.nil(),
    }
}

/// The `field` argument of `g:get(key, field)` as mlua gives it: never refused by mlua,
/// judged by `Entry::from_slow`.
pub(super) enum FieldArg {
    Whole,
    Int(i64),
    Str(String),
    /// A float that is no integer, a string that is not UTF-8: no entry.
    Missing,
    Bad(&'static str),
}

impl FromLua for FieldArg {
    fn from_lua(v: LV, _: &Lua) -> R<Self> {
        Ok(match v {
            LV::Nil => FieldArg::Whole,
            LV::Integer(i) => FieldArg::Int(i),
            LV::String(s) => s.to_str().map_or(FieldArg::Missing, |s| FieldArg::Str(s.to_string())),
            // A float with an integer value reads as that integer, as a Lua table's key does.
            LV::Number(n) if n.fract() == 0.0 && n.abs() < 2f64.powi(53) => FieldArg::Int(n as i64),
            LV::Number(_) => FieldArg::Missing,
            other => FieldArg::Bad(other.type_name()),
        })
    }
}

/// What `g:get(key, field)` reads: the whole value, one entry, or nothing.
pub(super) enum Entry<'a> {
    Whole,
    At(Field<'a>),
    Missing,
}

impl<'a> Arg<'a> for Entry<'a> {
    type Slow = FieldArg;
    fn from_slow(_: &Lua, v: &'a FieldArg) -> R<Self> {
        Ok(match v {
            FieldArg::Whole => Entry::Whole,
            FieldArg::Int(i) => Entry::At(Field::Int(*i)),
            FieldArg::Str(s) => Entry::At(Field::Str(s)),
            FieldArg::Missing => Entry::Missing,
            FieldArg::Bad(t) => {
                return Err(rt(format!("g:get: the entry to read is a number or a string, not a {t}")));
            }
        })
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        Some(match ffi::lua_type(l, i) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Entry::Whole,
            ffi::LUA_TNUMBER => Entry::At(Field::Int(int_arg(l, i)?)),
            ffi::LUA_TSTRING => Entry::At(Field::Str(str_arg(l, i)?)),
            _ => return None,
        })
    }
}

/// A Lua value to store (`g:set`, `g:pset`): nil, or plain data (no functions, keys
/// strings or integers, within `MAX_DEPTH` and `VARS_CAP`).
pub(super) struct Stored(Option<Value>);

impl<'a> Arg<'a> for Stored {
    type Slow = LV;
    fn from_slow(lua: &Lua, v: &LV) -> R<Self> {
        from_lua_value(lua, v).map(Stored)
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        value_arg(l, i).map(Stored)
    }
}

/// Where `g:insert(key, pos, value)` puts its entry: a position, or (mlua only) anything
/// else as its error names it.
enum Pos {
    At(i64),
    Other(String),
}

/// `g:insert`'s arguments after the key: `[pos,] value`.
pub(super) struct InsertArgs {
    pos: Option<Pos>,
    value: Value,
}

impl<'a> Arg<'a> for InsertArgs {
    type Slow = mlua::Variadic<LV>;
    fn from_slow(lua: &Lua, rest: &mlua::Variadic<LV>) -> R<Self> {
        let (pos, v) = match rest.len() {
            1 => (None, &rest[0]),
            2 => (Some(&rest[0]), &rest[1]),
            n => return Err(rt(format!("g:insert(key, [pos,] value) takes 2 or 3 arguments, not {}", n + 1))),
        };
        let value = from_lua_value(lua, v)?.ok_or_else(|| rt("g:insert: the value to insert is nil"))?;
        let pos = pos.map(|p| match p {
            LV::Integer(i) => Pos::At(*i),
            // A number as written; anything else by its type (never an address).
            LV::Number(n) => Pos::Other(n.to_string()),
            other => Pos::Other(format!("a {}", other.type_name())),
        });
        Ok(InsertArgs { pos, value })
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        let (pos, at_value) = match ffi::lua_gettop(l) - i {
            0 => (None, i),
            1 => (Some(Pos::At(int_arg(l, i).filter(|_| ffi::lua_isinteger(l, i) != 0)?)), i + 1),
            _ => return None,
        };
        Some(InsertArgs { pos, value: value_arg(l, at_value)?? })
    }
}

/// The entry `g:set_entry(key, field, value)` writes, owned: a map's key is kept as a `String`.
enum SetField {
    Int(i64),
    Str(String),
}

impl SetField {
    /// The key of a stored map: integers as their digits, as a stored table's keys are.
    fn map_key(&self) -> String {
        match self {
            SetField::Int(i) => i.to_string(),
            SetField::Str(s) => s.clone(),
        }
    }
}

impl<'a> Arg<'a> for SetField {
    type Slow = FieldArg;
    fn from_slow(_: &Lua, v: &'a FieldArg) -> R<Self> {
        match v {
            FieldArg::Int(i) => Ok(SetField::Int(*i)),
            FieldArg::Str(s) => Ok(SetField::Str(s.clone())),
            FieldArg::Whole => Err(rt("g:set_entry: the entry to write is nil")),
            FieldArg::Missing => Err(rt("g:set_entry: the entry to write is an integer or a string")),
            FieldArg::Bad(t) => {
                Err(rt(format!("g:set_entry: the entry to write is an integer or a string, not a {t}")))
            }
        }
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        match ffi::lua_type(l, i) {
            ffi::LUA_TNUMBER => Some(SetField::Int(int_arg(l, i)?)),
            ffi::LUA_TSTRING => Some(SetField::Str(str_arg(l, i)?.to_owned())),
            _ => None,
        }
    }
}

/// What `g:set_entry(key, field, value)` does to the stored table, worked out before anything
/// changes: the bytes it adds (or frees) and the edit.
enum Edit {
    /// Entry `.0` (from 0) of a stored list becomes `.1`.
    Replace(usize, Value),
    Push(Value),
    Pop,
    Put(String, Value),
    Drop(String),
    /// The table changes shape (a list with a gap becomes a map, a map keyed 1..n a list).
    Whole(Value),
    Nothing,
}

/// Whether a stored map's keys, with `added` and without `removed`, are exactly 1..n
/// (n > 0): a table `g:set` would store as a list; and how many keys it looked up to find
/// out. Only a map holding the key "1" can be one, which most maps (names for keys, or a
/// tally of sums from 2) answer at once; the walk stops at the first key missing.
fn keyed_as_list(m: &BTreeMap<String, Value>, added: Option<&str>, removed: Option<&str>) -> (bool, usize) {
    let has = |k: &str| added == Some(k) || (removed != Some(k) && m.contains_key(k));
    let n = m.len() + usize::from(added.is_some_and(|k| !m.contains_key(k)))
        - usize::from(removed.is_some_and(|k| m.contains_key(k)));
    if n == 0 || !has("1") {
        return (false, 0);
    }
    let mut looked = 0;
    let all = (1..=n).all(|k| {
        looked += 1;
        has(&k.to_string())
    });
    (all, looked)
}

/// Instruction units charged for each entry `g:set_entry` copies or scans in Rust: turning
/// a long list into a map and back is work by the entries (a key written out and a node of
/// the map each, four times what `table.insert` charges an element it moves), and a script
/// looping on it runs out of its budget within the time a plain loop takes
/// (tests/hostile_scripts/set_entry_flip.lua).
const ENTRY_WORK: u64 = 16;

/// `t[field] = value` on the stored table `old` (none: an empty one), as `g:set` would
/// store the table after it: a list while its keys are 1..n, a map otherwise. Gives the
/// edit, the change in the table's size (`Value::size`) and the entries copied or scanned
/// to find it (charged `ENTRY_WORK` each).
fn plan_edit(old: Option<&Value>, field: &SetField, value: Option<Value>) -> Result<(Edit, isize, usize), String> {
    const NODE: isize = 32;
    let size = |v: &Value| v.size() as isize;
    let empty = Value::Map(BTreeMap::new());
    let old = old.unwrap_or(&empty);
    match old {
        Value::List(items) => {
            let n = items.len();
            let at = match *field {
                SetField::Int(i) if i >= 1 => Some(i as usize),
                _ => None,
            };
            match (at, value) {
                (Some(i), Some(v)) if i <= n => {
                    let d = size(&v) - size(&items[i - 1]);
                    Ok((Edit::Replace(i - 1, v), d, 0))
                }
                (Some(i), Some(v)) if i == n + 1 => {
                    let d = size(&v);
                    Ok((Edit::Push(v), d, 0))
                }
                // The last entry out: an empty table is stored as an empty map.
                (Some(i), None) if i == n && n == 1 => Ok((Edit::Whole(empty.clone()), NODE - size(old), 1)),
                (Some(i), None) if i == n => Ok((Edit::Pop, -size(&items[n - 1]), 0)),
                // Nothing there to take out.
                (Some(i), None) if i > n => Ok((Edit::Nothing, 0, 0)),
                (None, None) => Ok((Edit::Nothing, 0, 0)),
                // A gap, or a key no list has: the table becomes a map.
                (_, value) => {
                    let mut m: BTreeMap<String, Value> =
                        items.iter().enumerate().map(|(k, v)| ((k + 1).to_string(), v.clone())).collect();
                    match value {
                        Some(v) => m.insert(field.map_key(), v),
                        None => m.remove(&field.map_key()),
                    };
                    let new = Value::Map(m);
                    let d = size(&new) - size(old);
                    Ok((Edit::Whole(new), d, n))
                }
            }
        }
        Value::Map(m) => {
            let key = field.map_key();
            let was = m.get(&key);
            // The table as a list, when the edit leaves its keys 1..n.
            let as_list = |value: Option<&Value>| {
                let mut list = Vec::with_capacity(m.len() + 1);
                for k in 1.. {
                    let name = k.to_string();
                    let v = if name == key { value } else { m.get(&name) };
                    match v {
                        Some(v) => list.push(v.clone()),
                        None => break,
                    }
                }
                Value::List(list)
            };
            match value {
                None if was.is_none() => Ok((Edit::Nothing, 0, 0)),
                None => {
                    let (list, scanned) = keyed_as_list(m, None, Some(&key));
                    if list {
                        let new = as_list(None);
                        let d = size(&new) - size(old);
                        return Ok((Edit::Whole(new), d, scanned + m.len()));
                    }
                    let d = -(NODE + key.len() as isize + was.map_or(0, size));
                    Ok((Edit::Drop(key), d, scanned))
                }
                Some(v) => {
                    // A new integer key may make the keys 1..n: then the table is a list.
                    let mut scanned = 0;
                    if was.is_none() && matches!(field, SetField::Int(_)) {
                        let (list, looked) = keyed_as_list(m, Some(&key), None);
                        if list {
                            let new = as_list(Some(&v));
                            let d = size(&new) - size(old);
                            return Ok((Edit::Whole(new), d, looked + m.len() + 1));
                        }
                        scanned = looked;
                    }
                    let d = match was {
                        Some(w) => size(&v) - size(w),
                        None => NODE + key.len() as isize + size(&v),
                    };
                    Ok((Edit::Put(key, v), d, scanned))
                }
            }
        }
        Value::Bool(_) => Err("holds a boolean, not a table".into()),
        Value::Str(_) => Err("holds a string, not a table".into()),
        Value::Int(_) | Value::Num(_) => Err("holds a number, not a table".into()),
    }
}

methods! {
    fast get "get" (m, c; key: &str, field: Entry) {
        c.read_var(key);
        let v = c.state.vars.get(key);
        match field {
            Entry::Whole => load_var(m, v),
            Entry::At(f) => load_var(m, entry(v, f)),
            Entry::Missing => m.nil(),
        }
    }
    fast set "set" (m, c; key: &str, value: Stored) {
        store_var(m, c, None, key, value.0)
    }
    /// One entry of a stored table, written in place (`t[field] = value`), without copying
    /// the table to Lua and back: charged for the entry, and by the entries only when the
    /// table turns from a list into a map or back (`ENTRY_WORK`).
    fast set "set_entry" (m, c; key: &str, field: SetField, value: Stored) {
        set_entry(m, c, key, &field, value.0)
    }
    /// A stored list as a queue or a stack: one entry in or out without copying the list
    /// to Lua and back. Charged for the entry (its size, as g:set charges) and the entries
    /// it moves.
    fast set "insert" (m, c; key: &str, args: InsertArgs) {
        let len = list_len(&c.state.vars, key).ok_or_else(|| rt(format!("g:insert: '{key}' holds no list")))?;
        let at = match args.pos {
            None => len,
            Some(Pos::At(p)) if p >= 1 && p as usize <= len + 1 => p as usize - 1,
            Some(p) => {
                let at = match p {
                    Pos::At(i) => i.to_string(),
                    Pos::Other(text) => text,
                };
                return Err(rt(format!("g:insert: position {at} is out of bounds (1 to {})", len + 1)));
            }
        };
        let added = inserted_bytes(&c.state.vars, key, &args.value);
        let total = c.state.var_bytes + added;
        m.alloc(added)?;
        m.charge(added as u64 / 32 + (len - at) as u64 / 16)?;
        if total > VARS_CAP {
            return Err(rt(format!(
                "the stored values (g:set, g:pset) would hold {total} bytes, past the cap of {VARS_CAP}"
            )));
        }
        m.commit(c)?;
        c.wrote(part::var(key));
        insert_entry(&mut c.state.vars, key, at, args.value);
        c.state.var_bytes = total;
        Ok(())
    }
    /// The entry is handed to Lua before anything changes, so that a value the C function
    /// cannot push leaves the call to the mlua function. From an empty list, nil (and the
    /// C function stamps nothing changed).
    fast set "remove" (m, c; key: &str, pos: Option<i64>) {
        let len = list_len(&c.state.vars, key).ok_or_else(|| rt(format!("g:remove: '{key}' holds no list")))?;
        if len == 0 {
            return m.nil();
        }
        let at = match pos {
            None => len - 1,
            Some(p) if p >= 1 && p as usize <= len => p as usize - 1,
            Some(p) => return Err(rt(format!("g:remove: position {p} is out of bounds (1 to {len})"))),
        };
        let Some(Value::List(list)) = c.state.vars.get(key) else { return m.nil() };
        let size = list[at].size();
        m.charge((len - at) as u64 / 16)?;
        load_var(m, Some(&list[at]))?;
        m.commit(c)?;
        c.wrote(part::var(key));
        if let Some(Value::List(list)) = c.state.vars.get_mut(key) {
            list.remove(at);
        }
        c.state.var_bytes = c.state.var_bytes.saturating_sub(size);
        Ok(())
    }
    slow get "pget" (m, c; p: i64, key: &str) {
        let s = seat(c, p)?;
        c.read_var(key);
        load_var(m, c.state.players[s].vars.get(key))
    }
    slow set "pset" (m, c; p: i64, key: &str, value: Stored) {
        let s = seat(c, p)?;
        store_var(m, c, Some(s), key, value.0)
    }
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
