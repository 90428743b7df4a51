//! The `g` methods of stored values (`get`, `set`, `insert`, `remove`, `pget`, `pset`),
//! with the rules they share with their C functions (`api_fast.rs`, `api_fast_writers.rs`):
//! what a value costs against `VARS_CAP`, entries of stored lists and maps.

use super::api::{ctx, from_lua_value, method, rt, seat, to_lua_value, writable, R};
use super::{alloc, caller, charge, Ctx, ScriptError, ScriptErrorKind, VARS_CAP};
use crate::value::Value;
use mlua::{Lua, Table, Value as LV};
use std::collections::BTreeMap;

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
/// else. The rule of the methods and of their C functions (`api_fast_writers.rs`).
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

/// Stores `value` under `key` in the game's vars (`seat` None) or a player's, keeping
/// `GameState::var_bytes` and refusing past `VARS_CAP`.
fn store_var(lua: &Lua, c: &mut Ctx, seat: Option<usize>, key: String, value: Option<Value>) -> R<()> {
    let vars = match seat {
        Some(s) => &c.state.players[s].vars,
        None => &c.state.vars,
    };
    let (new, total) = var_bytes_after(vars, c.state.var_bytes, &key, value.as_ref());
    alloc(lua, new)?;
    charge(lua, new as u64 / 32)?;
    if total > VARS_CAP {
        return Err(mlua::Error::external(ScriptError {
            location: caller(lua),
            ..ScriptError::new(
                ScriptErrorKind::Memory,
                format!("the stored values (g:set, g:pset) would hold {total} bytes, past the cap of {VARS_CAP}"),
            )
        }));
    }
    let vars = match seat {
        Some(s) => &mut c.state.players[s].vars,
        None => &mut c.state.vars,
    };
    match value {
        Some(v) => vars.insert(key, v),
        None => vars.remove(&key),
    };
    c.state.var_bytes = total;
    Ok(())
}

/// A value read from the vars as Lua, charged by its size.
fn load_var(lua: &Lua, v: Option<&Value>) -> R<LV> {
    match v {
        Some(v) => {
            charge(lua, v.size() as u64 / 32)?;
            to_lua_value(lua, v)
        }
        None => Ok(LV::Nil),
    }
}

/// The entry `g:get(key, field)` reads: a position in a stored list (from 1) or a key of
/// a stored map.
pub(super) enum Field<'a> {
    Int(i64),
    Str(&'a str),
}

/// Entry `field` of the stored `v`; None when there is no such entry or `v` is neither a
/// list nor a map. The rule of the method and of its C function (`api_fast::get`).
pub(super) fn entry<'a>(v: Option<&'a Value>, field: Field<'_>) -> Option<&'a Value> {
    match (v?, field) {
        (Value::List(items), Field::Int(i)) => usize::try_from(i - 1).ok().and_then(|i| items.get(i)),
        (Value::Map(m), Field::Int(i)) => m.get(&i.to_string()),
        (Value::Map(m), Field::Str(s)) => m.get(s),
        _ => None,
    }
}

/// `g:get(key, field)` with `field` as Lua gave it.
fn entry_lua<'a>(v: Option<&'a Value>, field: &LV) -> R<Option<&'a Value>> {
    Ok(match field {
        LV::Integer(i) => entry(v, Field::Int(*i)),
        LV::String(s) => s.to_str().ok().and_then(|s| entry(v, Field::Str(&s))),
        // A float with an integer value reads as that integer, as a Lua table's key does.
        LV::Number(n) if n.fract() == 0.0 && n.abs() < 2f64.powi(53) => entry(v, Field::Int(*n as i64)),
        LV::Number(_) => None,
        other => {
            return Err(mlua::Error::runtime(format!(
                "g:get: the entry to read is a number or a string, not a {}",
                other.type_name()
            )))
        }
    })
}

/// Installs the methods of stored values on `g`.
pub(super) fn install(lua: &Lua, g: &Table) -> R<()> {
    method!(lua, g, "get", |l, (key, field): (String, LV)| {
        let c = ctx(l)?;
        let v = c.state.vars.get(&key);
        match field {
            LV::Nil => load_var(l, v),
            field => load_var(l, entry_lua(v, &field)?),
        }
    });
    method!(lua, g, "set", |l, (key, v): (String, LV)| {
        let value = from_lua_value(l, &v)?;
        let mut c = writable(l)?;
        store_var(l, &mut c, None, key, value)
    });
    // A stored list as a queue or a stack: one entry in or out without copying the list
    // to Lua and back. Charged for the entry (its size, as g:set charges) and the entries
    // it moves.
    method!(lua, g, "insert", |l, (key, rest): (String, mlua::Variadic<LV>)| {
        let (pos, v) = match rest.len() {
            1 => (None, &rest[0]),
            2 => (Some(&rest[0]), &rest[1]),
            n => return Err(rt(format!("g:insert(key, [pos,] value) takes 2 or 3 arguments, not {}", n + 1))),
        };
        let value = from_lua_value(l, v)?.ok_or_else(|| rt("g:insert: the value to insert is nil"))?;
        let mut c = writable(l)?;
        let len = list_len(&c.state.vars, &key).ok_or_else(|| rt(format!("g:insert: '{key}' holds no list")))?;
        let at = match pos {
            None => len,
            Some(LV::Integer(p)) if *p >= 1 && *p as usize <= len + 1 => *p as usize - 1,
            Some(p) => {
                // A number as written; anything else by its type (never an address).
                let at = match p {
                    LV::Integer(i) => i.to_string(),
                    LV::Number(n) => n.to_string(),
                    other => format!("a {}", other.type_name()),
                };
                return Err(rt(format!("g:insert: position {at} is out of bounds (1 to {})", len + 1)));
            }
        };
        let added = inserted_bytes(&c.state.vars, &key, &value);
        let total = c.state.var_bytes + added;
        alloc(l, added)?;
        charge(l, added as u64 / 32 + (len - at) as u64 / 16)?;
        if total > VARS_CAP {
            return Err(rt(format!(
                "the stored values (g:set, g:pset) would hold {total} bytes, past the cap of {VARS_CAP}"
            )));
        }
        insert_entry(&mut c.state.vars, &key, at, value);
        c.state.var_bytes = total;
        Ok(())
    });
    method!(lua, g, "remove", |l, (key, pos): (String, Option<i64>)| {
        let mut c = writable(l)?;
        let len = list_len(&c.state.vars, &key).ok_or_else(|| rt(format!("g:remove: '{key}' holds no list")))?;
        if len == 0 {
            return Ok(LV::Nil);
        }
        let at = match pos {
            None => len - 1,
            Some(p) if p >= 1 && p as usize <= len => p as usize - 1,
            Some(p) => return Err(rt(format!("g:remove: position {p} is out of bounds (1 to {len})"))),
        };
        charge(l, (len - at) as u64 / 16)?;
        let Some(Value::List(list)) = c.state.vars.get_mut(&key) else { return Ok(LV::Nil) };
        let removed = list.remove(at);
        c.state.var_bytes = c.state.var_bytes.saturating_sub(removed.size());
        drop(c);
        load_var(l, Some(&removed))
    });
    method!(lua, g, "pget", |l, (p, key): (i64, String)| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        load_var(l, c.state.players[s].vars.get(&key))
    });
    method!(lua, g, "pset", |l, (p, key, v): (i64, String, LV)| {
        let value = from_lua_value(l, &v)?;
        let mut c = writable(l)?;
        let s = seat(&c, p)?;
        store_var(l, &mut c, Some(s), key, value)
    });
    Ok(())
}
