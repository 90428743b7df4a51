//! The `g` object every hook receives: the only door from a script to the game state.
//! Seats, hexes, intersections and paths are 1-based integers on the Lua side.

use super::log_format::format_values;
use super::names::NameKind;
use super::{alloc, caller, charge, Ctx, Message, ScriptError, ScriptErrorKind, VARS_CAP};
use crate::action::Arg;
use crate::board::{self, Topology};
use crate::spec::{ArgType, SiteKind};
use crate::state::{Harbor, HexState, Piece, Zone};
use crate::value::Value;
use mlua::{Lua, Table, Value as LV};
use rand::Rng;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) type R<T> = mlua::Result<T>;

pub(super) fn rt(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

pub(super) fn ctx(lua: &Lua) -> R<mlua::AppDataRefMut<'_, Ctx>> {
    lua.app_data_mut::<Ctx>().ok_or_else(|| rt("no game is running"))
}

pub(super) fn writable(lua: &Lua) -> R<mlua::AppDataRefMut<'_, Ctx>> {
    let mut c = ctx(lua)?;
    if c.read_only {
        return Err(rt("the game may not change while legal actions are listed or points counted"));
    }
    c.touch(); // whatever `g:cached` derived from the state is stale now
    Ok(c)
}

/// `writable` for the methods that put pieces on the board or take them off: the kept
/// piece counts (`Ctx::pieces_on`) are stale after them.
pub(super) fn writable_sites(lua: &Lua) -> R<mlua::AppDataRefMut<'_, Ctx>> {
    let mut c = writable(lua)?;
    c.sites_stamp = c.version;
    Ok(c)
}

/// `writable` for the methods that change a slot grid of `owner` (None: the game's): its
/// stores only, or `cards` too.
pub(super) fn writable_grids(lua: &Lua, owner: Option<i64>, cards: bool) -> R<mlua::AppDataRefMut<'_, Ctx>> {
    let mut c = writable(lua)?;
    c.touch_grids(owner, cards);
    Ok(c)
}

pub(super) fn seat(c: &Ctx, p: i64) -> R<usize> {
    if p >= 1 && (p as usize) <= c.state.players.len() {
        Ok(p as usize - 1)
    } else {
        Err(rt(format!("there is no player {p}")))
    }
}

fn topo(c: &Ctx) -> R<&Arc<Topology>> {
    c.state.topology.as_ref().ok_or_else(|| rt("the board has not been built yet"))
}

fn index(id: i64, len: usize, what: &str) -> R<usize> {
    if id >= 1 && (id as usize) <= len {
        Ok(id as usize - 1)
    } else {
        Err(rt(format!("there is no {what} {id}")))
    }
}

pub(super) fn card(c: &Ctx, name: &str) -> R<usize> {
    let known = c.names.get(name, NameKind::Card);
    known.unwrap_or_else(|| c.spec.card(name)).ok_or_else(|| rt(format!("'{name}' is not a card of this game")))
}

fn zone_index(c: &Ctx, name: &str) -> R<usize> {
    let known = c.names.get(name, NameKind::Zone);
    known.unwrap_or_else(|| c.spec.zone(name)).ok_or_else(|| rt(format!("'{name}' is not a zone of this game")))
}

/// (owner, zone index) from a Lua owner (seat or nil) and a zone name.
pub(super) fn zone_ref(c: &Ctx, owner: Option<i64>, zone: &str) -> R<(Option<usize>, usize)> {
    let z = zone_index(c, zone)?;
    let per_player = c.spec.zones[z].per_player;
    match (owner, per_player) {
        (Some(p), true) => Ok((Some(seat(c, p)?), z)),
        (None, false) => Ok((None, z)),
        (None, true) => Err(rt(format!("zone '{zone}' belongs to a player: name the player"))),
        (Some(_), false) => Err(rt(format!("zone '{zone}' belongs to the game: pass nil as its owner"))),
    }
}

/// A piece's index, by its interned name first (`names.rs`).
pub(super) fn piece_index(c: &Ctx, name: &str) -> Option<usize> {
    c.names.get(name, NameKind::Piece).unwrap_or_else(|| c.spec.piece(name))
}

fn piece_kind(c: &Ctx, name: &str) -> R<usize> {
    piece_index(c, name).ok_or_else(|| rt(format!("'{name}' is not a piece of this game")))
}

fn site_kind(s: &str) -> R<SiteKind> {
    match s {
        "intersection" => Ok(SiteKind::Intersection),
        "path" => Ok(SiteKind::Path),
        _ => Err(rt(format!("a site is 'intersection' or 'path', not '{s}'"))),
    }
}

/// Engine ids are 0-based; scripts see 1-based ones.
fn one_based(ids: &[usize]) -> Vec<usize> {
    ids.iter().map(|n| n + 1).collect()
}

fn draw(c: &mut Ctx, n: u32) -> u32 {
    let v = c.state.rng.random_range(0..n);
    c.draws.push(v);
    v
}

/// One die of `g:roll`: the next forced die if a test set one, else a seeded draw.
pub(super) fn roll_die(c: &mut Ctx) -> u32 {
    if c.state.forced_dice.is_empty() {
        return draw(c, 6) + 1;
    }
    let d = c.state.forced_dice.remove(0) as u32;
    c.draws.push(d - 1);
    d
}

/// `g:longest_trail`: the longest trail of seat `s`'s pieces of kind `k` (paths), broken
/// by other players' pieces; the method and its C function both ask this.
pub(super) fn trail_length(c: &Ctx, t: &Topology, s: usize, k: usize) -> usize {
    let owned: Vec<bool> =
        c.state.paths.iter().map(|pc| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k)).collect();
    let blocked: Vec<bool> =
        c.state.intersections.iter().map(|pc| pc.is_some_and(|pc| pc.owner as usize != s)).collect();
    board::longest_trail(t, &owned, &blocked)
}

/// How deep stored tables may nest; deeper is most likely a table that contains itself.
pub const MAX_DEPTH: usize = 64;
/// The most dice one `g:roll` may roll.
pub const MAX_DICE: u32 = 1000;
/// The most hexes `g:build_board` accepts (the largest published boards have under 100).
pub const MAX_HEXES: usize = 1000;
/// The most named markers a board may carry.
pub const MAX_MARKERS: usize = 256;
/// Work of one `g` method call in instruction units: crossing into Rust and back costs
/// about as much as this many Lua instructions, so a loop of calls meets the budget as
/// soon as a loop of Lua would.
pub(super) const CALL_COST: u64 = 40;

/// A Lua table as plain data, refusing what cannot be stored: functions, keys other than
/// strings and integers, tables nested deeper than `MAX_DEPTH` (a cycle) or larger than
/// `VARS_CAP`.
pub fn from_lua_value(v: &LV) -> R<Option<Value>> {
    let mut size = 0;
    convert(v, 0, &mut size)
}

fn convert(v: &LV, depth: usize, size: &mut usize) -> R<Option<Value>> {
    if depth > MAX_DEPTH {
        return Err(rt(format!(
            "tables nested deeper than {MAX_DEPTH} levels cannot be stored (does a table contain itself?)"
        )));
    }
    *size += 32 + if let LV::String(s) = v { s.as_bytes().len() } else { 0 };
    if *size > VARS_CAP {
        return Err(mlua::Error::external(ScriptError::new(
            ScriptErrorKind::Memory,
            format!("a value of more than {} MiB cannot be stored", VARS_CAP >> 20),
        )));
    }
    Ok(Some(match v {
        LV::Nil => return Ok(None),
        LV::Boolean(b) => Value::Bool(*b),
        LV::Integer(i) => Value::Int(*i),
        LV::Number(n) => Value::Num(*n),
        LV::String(s) => Value::Str(s.to_str()?.to_string()),
        LV::Table(t) => {
            let len = t.raw_len();
            let mut count = 0usize;
            for pair in t.pairs::<LV, LV>() {
                pair?;
                count += 1;
            }
            // `raw_len` is any border of the table ({[2]=x, [3]=y, [4]=z, [6]=w} may give
            // 4): a list needs every key 1..len.
            if count == len && len > 0 && (1..=len).all(|i| t.raw_get::<LV>(i).is_ok_and(|v| !v.is_nil())) {
                let mut list = Vec::with_capacity(len);
                for v in t.sequence_values::<LV>() {
                    list.push(convert(&v?, depth + 1, size)?.unwrap_or(Value::Bool(false)));
                }
                Value::List(list)
            } else {
                let mut map = BTreeMap::new();
                for pair in t.pairs::<LV, LV>() {
                    let (k, v) = pair?;
                    let key = match k {
                        LV::String(s) => s.to_str()?.to_string(),
                        LV::Integer(i) => i.to_string(),
                        other => {
                            return Err(rt(format!(
                                "table keys must be strings or integers, not {}",
                                other.type_name()
                            )))
                        }
                    };
                    *size += key.len();
                    if let Some(v) = convert(&v, depth + 1, size)? {
                        map.insert(key, v);
                    }
                }
                Value::Map(map)
            }
        }
        other => return Err(rt(format!("a {} cannot be stored in the game state", other.type_name()))),
    }))
}

pub fn to_lua_value(lua: &Lua, v: &Value) -> R<LV> {
    Ok(match v {
        Value::Bool(b) => LV::Boolean(*b),
        Value::Int(i) => LV::Integer(*i),
        Value::Num(n) => LV::Number(*n),
        Value::Str(s) => LV::String(lua.create_string(s)?),
        Value::List(l) => {
            let t = lua.create_table_with_capacity(l.len(), 0)?;
            for (i, x) in l.iter().enumerate() {
                t.raw_set(i + 1, to_lua_value(lua, x)?)?;
            }
            LV::Table(t)
        }
        Value::Map(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            for (k, x) in m {
                match int_key(k) {
                    Some(i) => t.raw_set(i, to_lua_value(lua, x)?)?,
                    None => t.raw_set(k.as_str(), to_lua_value(lua, x)?)?,
                }
            }
            LV::Table(t)
        }
    })
}

/// A stored map's key as the integer it was when stored, if it looks like one. Most keys
/// are words: only one that starts like a number is parsed.
pub(super) fn int_key(k: &str) -> Option<i64> {
    let numeric = k.as_bytes().first().is_some_and(|b| b.is_ascii_digit() || *b == b'-' || *b == b'+');
    if numeric {
        k.parse().ok()
    } else {
        None
    }
}

pub fn arg_from_lua(t: ArgType, v: &LV) -> Result<Arg, String> {
    let int = |v: &LV| match v {
        LV::Integer(i) if *i >= 1 => Ok(*i as usize - 1),
        LV::Number(n) if *n >= 1.0 && n.fract() == 0.0 => Ok(*n as usize - 1),
        other => Err(format!("expected a positive id, got {}", other.type_name())),
    };
    let string = |v: &LV| match v {
        LV::String(s) => s.to_str().map(|s| s.to_string()).map_err(|e| e.to_string()),
        other => Err(format!("expected a string, got {}", other.type_name())),
    };
    Ok(match t {
        ArgType::Intersection => Arg::Intersection(int(v)?),
        ArgType::Path => Arg::Path(int(v)?),
        ArgType::Hex => Arg::Hex(int(v)?),
        ArgType::Player => Arg::Player(int(v)?),
        ArgType::Int => match v {
            LV::Integer(i) => Arg::Int(*i),
            other => return Err(format!("expected an integer, got {}", other.type_name())),
        },
        ArgType::Resource => Arg::Resource(string(v)?),
        ArgType::Word => Arg::Word(string(v)?),
        ArgType::Slot => Arg::Slot(string(v)?.to_ascii_uppercase()),
        ArgType::Cards => match v {
            LV::Table(tbl) => {
                let mut cards = vec![];
                for pair in tbl.pairs::<String, i64>() {
                    let (k, n) = pair.map_err(|e| e.to_string())?;
                    if n > 0 {
                        cards.push((k, n as u32));
                    }
                }
                cards.sort();
                Arg::Cards(cards)
            }
            other => return Err(format!("expected a table of cards, got {}", other.type_name())),
        },
    })
}

/// Adds one Rust function to `g`, called as `g:name(...)` (the `g` argument is dropped).
/// Every call is charged `CALL_COST` against the instruction budget, and an error it
/// raises names the file:line of the Lua code that called it.
macro_rules! method {
    ($lua:expr, $g:expr, $name:expr, |$l:ident, $args:tt : $ty:ty| $body:block) => {
        $g.raw_set(
            $name,
            $lua.create_function(|$l: &Lua, (_g, $args): (LV, $ty)| -> R<_> {
                super::charge($l, super::api::CALL_COST)?;
                let result: R<_> = (|| $body)();
                result.map_err(|e| super::api::locate($l, e))
            })?,
        )?;
    };
}
pub(super) use method;

/// Prefixes a runtime error of a `g` method with the caller's file:line.
pub(super) fn locate(lua: &Lua, e: mlua::Error) -> mlua::Error {
    match e {
        mlua::Error::RuntimeError(m) => match caller(lua) {
            Some(at) if super::error::split_location(&m).0.is_none() => mlua::Error::RuntimeError(format!("{at}: {m}")),
            _ => mlua::Error::RuntimeError(m),
        },
        mlua::Error::ExternalError(ref ext) => match ext.downcast_ref::<ScriptError>() {
            Some(se) if se.location.is_none() => {
                mlua::Error::external(ScriptError { location: caller(lua), ..se.clone() })
            }
            _ => e,
        },
        other => other,
    }
}

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

/// A list handed back to Lua, charged by its length: building the table and collecting
/// it later cost more than the Rust work that found it.
fn charged<T>(lua: &Lua, list: Vec<T>) -> R<Vec<T>> {
    charge(lua, list.len() as u64 * 16)?;
    Ok(list)
}

/// A message for the log, charged to the call's host memory.
fn message(lua: &Lua, text: String, to: Option<Vec<usize>>) -> R<Message> {
    alloc(lua, 64 + text.len())?;
    charge(lua, text.len() as u64 / 16)?;
    Ok(Message { text, to })
}

pub(super) fn create(lua: &Lua) -> Result<Table, ScriptError> {
    build(lua).map_err(|e| ScriptError::from_lua(&e))
}

fn build(lua: &Lua) -> R<Table> {
    let g = lua.create_table()?;

    // Players and turn ---------------------------------------------------------------
    method!(lua, g, "players", |l, _a: ()| { Ok(ctx(l)?.state.players.len()) });
    method!(lua, g, "current", |l, _a: ()| { Ok(ctx(l)?.state.current + 1) });
    method!(lua, g, "set_current", |l, p: i64| {
        let mut c = writable(l)?;
        let s = seat(&c, p)?;
        c.state.current = s;
        Ok(())
    });
    method!(lua, g, "phase", |l, _a: ()| { Ok(ctx(l)?.state.phase.clone()) });
    method!(lua, g, "set_phase", |l, p: String| {
        writable(l)?.state.phase = p;
        Ok(())
    });
    method!(lua, g, "turn", |l, _a: ()| { Ok(ctx(l)?.state.turn) });
    // `g:cached`'s probe, which the prelude takes off `g` before any variant runs
    // (answered in api_fast.rs; here for what the fast path hands over):
    // the version of what `code` names (0 the whole state, 1 the slot grids, 2 seat `p`'s
    // grids, 3 the cards on them); when it equals `at`, true instead, with `cost` charged.
    method!(lua, g, "__probe", |l, (code, p, at, cost): (i64, Option<i64>, Option<i64>, Option<i64>)| {
        let v = {
            let c = ctx(l)?;
            let seat_arg = || seat(&c, p.ok_or_else(|| rt("g:cached: this kind of reads needs a seat"))?);
            match code {
                0 => c.version,
                1 => c.grid_version,
                2 => c.grid_stamp(seat_arg()? + 1),
                3 => c.card_stamp(seat_arg()? + 1),
                _ => return Err(rt(format!("no version {code}"))),
            }
        };
        if at.is_some_and(|a| a as u64 == v) {
            super::charge(l, u64::try_from(cost.unwrap_or(0)).map_err(|_| rt("a charge is never negative"))?)?;
            return Ok(mlua::Value::Boolean(true));
        }
        Ok(mlua::Value::Integer(v as i64))
    });
    // Answered in api_fast.rs; here for what the fast path hands over.
    method!(lua, g, "__used", |l, _a: ()| {
        let m = l.app_data_ref::<super::Meter>().ok_or_else(|| rt("no budget"))?;
        Ok(m.used.get())
    });
    method!(lua, g, "set_turn", |l, t: u32| {
        writable(l)?.state.turn = t;
        Ok(())
    });
    method!(lua, g, "winner", |l, _a: ()| { Ok(ctx(l)?.state.winner.map(|w| w + 1)) });
    method!(lua, g, "declare_winner", |l, p: i64| {
        let mut c = writable(l)?;
        let s = seat(&c, p)?;
        c.state.winner = Some(s);
        Ok(())
    });
    method!(lua, g, "option", |l, name: String| {
        let c = ctx(l)?;
        match c.state.options.get(&name) {
            Some(v) => to_lua_value(l, v),
            None => Err(rt(format!("no option named '{name}'"))),
        }
    });
    method!(lua, g, "color", |l, p: i64| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        Ok(c.state.players[s].color.clone())
    });
    method!(lua, g, "set_color", |l, (p, color): (i64, String)| {
        let mut c = writable(l)?;
        let s = seat(&c, p)?;
        c.state.players[s].name = color.clone();
        c.state.players[s].color = color;
        Ok(())
    });
    method!(lua, g, "name", |l, p: i64| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        Ok(c.state.players[s].name.clone())
    });

    // Variables ----------------------------------------------------------------------
    method!(lua, g, "get", |l, (key, field): (String, LV)| {
        let c = ctx(l)?;
        let v = c.state.vars.get(&key);
        match field {
            LV::Nil => load_var(l, v),
            field => load_var(l, entry_lua(v, &field)?),
        }
    });
    method!(lua, g, "set", |l, (key, v): (String, LV)| {
        let value = from_lua_value(&v)?;
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
        let value = from_lua_value(v)?.ok_or_else(|| rt("g:insert: the value to insert is nil"))?;
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
        let value = from_lua_value(&v)?;
        let mut c = writable(l)?;
        let s = seat(&c, p)?;
        store_var(l, &mut c, Some(s), key, value)
    });

    // Cards --------------------------------------------------------------------------
    method!(lua, g, "count", |l, (owner, zone, kind): (Option<i64>, String, Option<String>)| {
        let c = ctx(l)?;
        let (o, z) = zone_ref(&c, owner, &zone)?;
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        Ok(match kind {
            Some(k) => zn.count(card(&c, &k)?),
            None => zn.total(),
        })
    });
    // Holds the zone at least the cards of `cards` ({ ore = 2, brick = 1 })? Charged a unit
    // per entry looked at; it stops at the first kind short, as the fast function does.
    method!(lua, g, "holds", |l, (owner, zone, cards): (Option<i64>, String, Table)| {
        let (o, z) = {
            let c = ctx(l)?;
            let (o, z) = zone_ref(&c, owner, &zone)?;
            c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
            (o, z)
        };
        let mut looked = 0u64;
        let mut holds = true;
        for pair in cards.pairs::<LV, LV>() {
            let (k, n) = pair?;
            looked += 1;
            let LV::String(k) = k else {
                return Err(rt(format!("g:holds: a card kind is a string, not {}", k.type_name())));
            };
            let LV::Integer(n) = n else {
                return Err(rt(format!(
                    "g:holds: the count of '{}' is {}, not an integer",
                    k.to_string_lossy(),
                    n.type_name()
                )));
            };
            let c = ctx(l)?;
            let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
            if (zn.count(card(&c, &k.to_str()?)?) as i64) < n {
                holds = false;
                break;
            }
        }
        charge(l, looked)?;
        Ok(holds)
    });
    method!(lua, g, "count_category", |l, (owner, zone, cat): (Option<i64>, String, String)| {
        let c = ctx(l)?;
        let (o, z) = zone_ref(&c, owner, &zone)?;
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        Ok(c.spec.cards.iter().enumerate().filter(|(_, k)| k.category == cat).map(|(i, _)| zn.count(i)).sum::<usize>())
    });
    method!(lua, g, "cards", |l, (owner, zone): (Option<i64>, String)| {
        let c = ctx(l)?;
        let (o, z) = zone_ref(&c, owner, &zone)?;
        let t = l.create_table()?;
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        charge(
            l,
            match zn {
                Zone::Counts(n) => n.len(),
                Zone::Stack(s) => s.len(),
            } as u64,
        )?;
        match zn {
            Zone::Counts(counts) => {
                for (i, &n) in counts.iter().enumerate() {
                    if n > 0 {
                        t.raw_set(c.spec.cards[i].name.as_str(), n)?;
                    }
                }
            }
            Zone::Stack(s) => {
                for (i, &k) in s.iter().enumerate() {
                    t.raw_set(i + 1, c.spec.cards[k as usize].name.as_str())?;
                }
            }
        }
        Ok(t)
    });
    method!(lua, g, "create", |l, (owner, zone, kind, n): (Option<i64>, String, String, u16)| {
        let mut c = writable(l)?;
        let (o, z) = zone_ref(&c, owner, &zone)?;
        let k = card(&c, &kind)?;
        charge(l, n as u64 / 8)?;
        c.state.zone_mut(o, z).ok_or_else(|| rt("no such zone"))?.add(k, n as usize).map_err(|e| rt(e.to_string()))
    });
    method!(lua, g, "move", |l,
                             (fo, fz, to, tz, kind, n): (
        Option<i64>,
        String,
        Option<i64>,
        String,
        String,
        Option<u16>
    )| {
        let n = n.unwrap_or(1);
        let mut c = writable(l)?;
        let from = zone_ref(&c, fo, &fz)?;
        let dest = zone_ref(&c, to, &tz)?;
        let k = card(&c, &kind)?;
        let source = c.state.zone_mut(from.0, from.1).ok_or_else(|| rt("no such zone"))?;
        let have = source.count(k);
        if let Zone::Stack(s) = source {
            charge(l, (s.len() as u64).saturating_mul(n as u64) / 8)?;
        }
        let source = c.state.zone_mut(from.0, from.1).ok_or_else(|| rt("no such zone"))?;
        if !source.remove(k, n as usize) {
            return Err(rt(format!("'{fz}' holds {have} {kind}, not {n}")));
        }
        c.state
            .zone_mut(dest.0, dest.1)
            .ok_or_else(|| rt("no such zone"))?
            .add(k, n as usize)
            .map_err(|e| rt(e.to_string()))
    });
    // Moves the top card of a stack; returns its kind, or nil if the stack is empty.
    method!(lua, g, "draw", |l, (fo, fz, to, tz): (Option<i64>, String, Option<i64>, String)| {
        let mut c = writable(l)?;
        let from = zone_ref(&c, fo, &fz)?;
        let dest = zone_ref(&c, to, &tz)?;
        let top = match c.state.zone_mut(from.0, from.1).ok_or_else(|| rt("no such zone"))? {
            Zone::Stack(s) => s.pop(),
            Zone::Counts(_) => return Err(rt(format!("'{fz}' is not a stack"))),
        };
        let Some(k) = top else { return Ok(None) };
        c.state
            .zone_mut(dest.0, dest.1)
            .ok_or_else(|| rt("no such zone"))?
            .add(k as usize, 1)
            .map_err(|e| rt(e.to_string()))?;
        Ok(Some(c.spec.cards[k as usize].name.clone()))
    });
    method!(lua, g, "shuffle", |l, (owner, zone): (Option<i64>, String)| {
        let mut c = writable(l)?;
        let (o, z) = zone_ref(&c, owner, &zone)?;
        let mut cards = match c.state.zone_mut(o, z).ok_or_else(|| rt("no such zone"))? {
            Zone::Stack(s) => std::mem::take(s),
            Zone::Counts(_) => return Err(rt(format!("'{zone}' is not a stack"))),
        };
        charge(l, cards.len() as u64)?;
        for i in (1..cards.len()).rev() {
            let j = draw(&mut c, i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        if let Some(Zone::Stack(s)) = c.state.zone_mut(o, z) {
            *s = cards;
        }
        Ok(())
    });
    // A card picked at random from a zone (each card equally likely), optionally only
    // among one category; nil if there is none. The card is not moved.
    method!(lua, g, "random_card", |l, (owner, zone, cat): (Option<i64>, String, Option<String>)| {
        let mut c = writable(l)?;
        let (o, z) = zone_ref(&c, owner, &zone)?;
        let counts: Vec<usize> = {
            let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
            (0..c.spec.cards.len())
                .map(|k| if cat.as_ref().is_none_or(|cat| &c.spec.cards[k].category == cat) { zn.count(k) } else { 0 })
                .collect()
        };
        let total: usize = counts.iter().sum();
        if total == 0 {
            return Ok(None);
        }
        let mut pick = draw(&mut c, total as u32) as usize;
        for (k, n) in counts.iter().enumerate() {
            if pick < *n {
                return Ok(Some(c.spec.cards[k].name.clone()));
            }
            pick -= n;
        }
        Ok(None)
    });

    // Board --------------------------------------------------------------------------
    // A new board replaces the old: its pieces go back to their owners' supplies and its
    // markers are lifted (they stood on hexes that may no longer exist).
    method!(lua, g, "build_board", |l, layout: Table| {
        let list = layout.get::<Table>("hexes")?;
        let n = list.raw_len();
        if n > MAX_HEXES {
            return Err(rt(format!("a board of {n} hexes is larger than the engine allows ({MAX_HEXES})")));
        }
        charge(l, n as u64 * 200)?;
        alloc(l, n * 4096)?;
        let mut c = writable_sites(l)?;
        let mut coords = vec![];
        let mut hexes = vec![];
        for h in list.sequence_values::<Table>() {
            let h = h?;
            coords.push((h.get::<i32>("q")?, h.get::<i32>("r")?));
            let terrain: String = h.get("terrain")?;
            let t = c.spec.terrain(&terrain).ok_or_else(|| rt(format!("'{terrain}' is not a terrain of this game")))?;
            hexes.push(HexState { terrain: t as u8, number: h.get::<Option<u8>>("number")? });
        }
        let topo = Topology::from_axial(&coords).map_err(|e| rt(e.0))?;
        let mut harbors = vec![];
        if let Some(list) = layout.get::<Option<Table>>("harbors")? {
            for hb in list.sequence_values::<Table>() {
                let hb = hb?;
                let hex = index(hb.get("hex")?, topo.hexes.len(), "hex")?;
                let side: String = hb.get("side")?;
                let i = board::SIDES
                    .iter()
                    .position(|s| s.eq_ignore_ascii_case(&side))
                    .ok_or_else(|| rt(format!("'{side}' is not a hex side (NE, E, SE, SW, W, NW)")))?;
                let resource: Option<String> = hb.get("resource")?;
                if let Some(r) = &resource {
                    card(&c, r)?;
                }
                harbors.push(Harbor { path: topo.hexes[hex].sides[i], resource, ratio: hb.get("ratio")? });
            }
        }
        let st = &mut c.state;
        for pc in st.intersections.iter().chain(st.paths.iter()).flatten() {
            if let Some(s) = pc.seat() {
                st.players[s].supply[pc.kind as usize] = st.players[s].supply[pc.kind as usize].saturating_add(1);
            }
        }
        st.markers.clear();
        c.state.intersections = vec![None; topo.intersections.len()];
        c.state.paths = vec![None; topo.paths.len()];
        c.state.hexes = hexes;
        c.state.harbors = Arc::new(harbors);
        c.state.topology = Some(Arc::new(topo));
        Ok(())
    });
    method!(lua, g, "hex_count", |l, _a: ()| { Ok(ctx(l)?.state.hexes.len()) });
    method!(lua, g, "intersection_count", |l, _a: ()| { Ok(ctx(l)?.state.intersections.len()) });
    method!(lua, g, "path_count", |l, _a: ()| { Ok(ctx(l)?.state.paths.len()) });
    method!(lua, g, "hex", |l, h: i64| {
        let c = ctx(l)?;
        let i = index(h, c.state.hexes.len(), "hex")?;
        let hs = &c.state.hexes[i];
        Ok((c.spec.terrains[hs.terrain as usize].name.clone(), hs.number))
    });
    method!(lua, g, "hex_resource", |l, h: i64| {
        let c = ctx(l)?;
        let i = index(h, c.state.hexes.len(), "hex")?;
        Ok(c.spec.terrains[c.state.hexes[i].terrain as usize].produces.map(|k| c.spec.cards[k].name.clone()))
    });
    method!(lua, g, "set_hex", |l, (h, terrain, number): (i64, String, Option<u8>)| {
        let mut c = writable(l)?;
        let i = index(h, c.state.hexes.len(), "hex")?;
        let t = c.spec.terrain(&terrain).ok_or_else(|| rt(format!("'{terrain}' is not a terrain of this game")))?;
        c.state.hexes[i] = HexState { terrain: t as u8, number };
        Ok(())
    });
    method!(lua, g, "hexes_numbered", |l, n: u8| {
        let c = ctx(l)?;
        charge(l, c.state.hexes.len() as u64)?;
        Ok(c.state
            .hexes
            .iter()
            .enumerate()
            .filter(|(_, h)| h.number == Some(n))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>())
    });
    method!(lua, g, "corners", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        Ok(one_based(&t.hexes[i].corners))
    });
    method!(lua, g, "hex_neighbors", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        Ok(one_based(&t.hexes[i].neighbors))
    });
    method!(lua, g, "hexes_at", |l, n: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(n, t.intersections.len(), "intersection")?;
        Ok(one_based(&t.intersections[i].hexes))
    });
    method!(lua, g, "neighbors", |l, n: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(n, t.intersections.len(), "intersection")?;
        Ok(one_based(&t.intersections[i].neighbors))
    });
    method!(lua, g, "paths_at", |l, n: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(n, t.intersections.len(), "intersection")?;
        Ok(one_based(&t.intersections[i].paths))
    });
    method!(lua, g, "ends", |l, p: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(p, t.paths.len(), "path")?;
        let [a, b] = t.paths[i].ends;
        Ok((a + 1, b + 1))
    });
    method!(lua, g, "label", |l, (kind, id): (String, i64)| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        Ok(match kind.as_str() {
            "hex" => t.hexes[index(id, t.hexes.len(), "hex")?].label.clone(),
            "intersection" => t.intersections[index(id, t.intersections.len(), "intersection")?].label.clone(),
            "path" => t.paths[index(id, t.paths.len(), "path")?].label.clone(),
            _ => return Err(rt("label kinds are hex, intersection and path")),
        })
    });
    method!(lua, g, "spiral", |l, start: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(start, t.hexes.len(), "hex")?;
        charge(l, t.hexes.len() as u64 * 4)?;
        charged(l, t.spiral(i).into_iter().map(|h| h + 1).collect::<Vec<_>>())
    });
    method!(lua, g, "marker", |l, name: String| { Ok(ctx(l)?.state.markers.get(&name).map(|h| h + 1)) });
    method!(lua, g, "set_marker", |l, (name, h): (String, Option<i64>)| {
        let mut c = writable(l)?;
        match h {
            Some(h) => {
                let i = index(h, c.state.hexes.len(), "hex")?;
                if c.state.markers.len() >= MAX_MARKERS && !c.state.markers.contains_key(&name) {
                    return Err(rt(format!("a board carries at most {MAX_MARKERS} markers")));
                }
                c.state.markers.insert(name, i);
            }
            None => {
                c.state.markers.remove(&name);
            }
        }
        Ok(())
    });
    method!(lua, g, "harbors", |l, _a: ()| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        charge(l, c.state.harbors.len() as u64 * 8)?;
        let out = l.create_table()?;
        for (i, h) in c.state.harbors.iter().enumerate() {
            let e = l.create_table()?;
            e.raw_set("path", h.path + 1)?;
            let [a, b] = t.paths[h.path].ends;
            e.raw_set("ends", vec![a + 1, b + 1])?;
            e.raw_set("resource", h.resource.clone())?;
            e.raw_set("ratio", h.ratio)?;
            out.raw_set(i + 1, e)?;
        }
        Ok(out)
    });
    // Harbors touching an intersection where the player has a piece.
    method!(lua, g, "harbors_of", |l, p: i64| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let t = topo(&c)?;
        charge(l, c.state.harbors.len() as u64 * 2)?;
        let out = l.create_table()?;
        let mut n = 0;
        for h in c.state.harbors.iter() {
            let [a, b] = t.paths[h.path].ends;
            let mine = |x: usize| c.state.intersections[x].is_some_and(|pc| pc.owner as usize == s);
            if mine(a) || mine(b) {
                let e = l.create_table()?;
                e.raw_set("resource", h.resource.clone())?;
                e.raw_set("ratio", h.ratio)?;
                n += 1;
                out.raw_set(n, e)?;
            }
        }
        Ok(out)
    });

    // Pieces -------------------------------------------------------------------------
    method!(lua, g, "at", |l, (site, id): (String, i64)| {
        let c = ctx(l)?;
        let sk = site_kind(&site)?;
        let sites = c.state.sites(sk);
        let i = index(id, sites.len(), &site)?;
        Ok(match sites[i] {
            Some(pc) => (Some(c.spec.pieces[pc.kind as usize].name.clone()), pc.seat().map(|s| s + 1)),
            None => (None, None),
        })
    });
    method!(lua, g, "supply", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        Ok(c.state.players[s].supply[k])
    });
    // `p` nil: a piece of no player (a blocker), taken from no supply.
    method!(lua, g, "place", |l, (p, kind, id): (Option<i64>, String, i64)| {
        let mut c = writable_sites(l)?;
        let s = match p {
            Some(p) => Some(seat(&c, p)?),
            None => None,
        };
        let k = piece_kind(&c, &kind)?;
        let sk = c.spec.pieces[k].site;
        let len = c.state.sites(sk).len();
        let i = index(id, len, if sk == SiteKind::Path { "path" } else { "intersection" })?;
        if c.state.sites(sk)[i].is_some() {
            return Err(rt(format!(
                "that {} is already taken",
                if sk == SiteKind::Path { "path" } else { "intersection" }
            )));
        }
        if let Some(s) = s {
            if c.state.players[s].supply[k] == 0 {
                return Err(rt(format!("no {kind} left in the supply")));
            }
            c.state.players[s].supply[k] -= 1;
        }
        let piece = Some(Piece { kind: k as u8, owner: s.map_or(Piece::NO_OWNER, |s| s as u8) });
        match sk {
            SiteKind::Intersection => c.state.intersections[i] = piece,
            SiteKind::Path => c.state.paths[i] = piece,
        }
        Ok(())
    });
    // Replaces the piece on a site with another kind of the same owner; the old piece
    // goes back to its owner's supply.
    method!(lua, g, "upgrade", |l, (id, kind): (i64, String)| {
        let mut c = writable_sites(l)?;
        let k = piece_kind(&c, &kind)?;
        let sk = c.spec.pieces[k].site;
        let len = c.state.sites(sk).len();
        let i = index(id, len, "site")?;
        let old = c.state.sites(sk)[i].ok_or_else(|| rt("there is no piece there to upgrade"))?;
        if let Some(s) = old.seat() {
            if c.state.players[s].supply[k] == 0 {
                return Err(rt(format!("no {kind} left in the supply")));
            }
            c.state.players[s].supply[k] -= 1;
            c.state.players[s].supply[old.kind as usize] += 1;
        }
        let piece = Some(Piece { kind: k as u8, owner: old.owner });
        match sk {
            SiteKind::Intersection => c.state.intersections[i] = piece,
            SiteKind::Path => c.state.paths[i] = piece,
        }
        Ok(())
    });
    method!(lua, g, "remove_piece", |l, (site, id): (String, i64)| {
        let mut c = writable_sites(l)?;
        let sk = site_kind(&site)?;
        let len = c.state.sites(sk).len();
        let i = index(id, len, &site)?;
        let slot = match sk {
            SiteKind::Intersection => &mut c.state.intersections[i],
            SiteKind::Path => &mut c.state.paths[i],
        };
        let pc = slot.take().ok_or_else(|| rt("there is no piece there"))?;
        if let Some(s) = pc.seat() {
            c.state.players[s].supply[pc.kind as usize] += 1;
        }
        Ok(())
    });
    method!(lua, g, "pieces_of", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        let sites = c.state.sites(c.spec.pieces[k].site);
        charge(l, sites.len() as u64 / 4)?;
        Ok(sites
            .iter()
            .enumerate()
            .filter(|(_, pc)| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>())
    });
    method!(lua, g, "piece_count", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        let sites = c.state.sites(c.spec.pieces[k].site);
        charge(l, sites.len() as u64 / 4)?;
        Ok(sites.iter().filter(|pc| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k)).count())
    });
    // The pieces on the corners of the hex, clockwise from the top, flat: intersection,
    // kind, owner (false: no player's), ... One call where production asked `corners` and
    // then `at` for each corner.
    method!(lua, g, "corner_pieces", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        let mut out = Vec::new();
        for &n in &t.hexes[i].corners {
            if let Some(pc) = c.state.intersections[n] {
                out.push(mlua::Value::Integer(n as i64 + 1));
                out.push(mlua::Value::String(l.create_string(&c.spec.pieces[pc.kind as usize].name)?));
                out.push(pc.seat().map_or(mlua::Value::Boolean(false), |s| mlua::Value::Integer(s as i64 + 1)));
            }
        }
        Ok(out)
    });
    // Seats with a piece on a corner of the hex, in seat order.
    method!(lua, g, "owners_at", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        let mut seats: Vec<usize> = t.hexes[i]
            .corners
            .iter()
            .filter_map(|&n| c.state.intersections[n].and_then(|pc| pc.seat()).map(|s| s + 1))
            .collect();
        seats.sort_unstable();
        seats.dedup();
        Ok(seats)
    });
    // Empty intersections with no piece closer than `spacing` paths; with `p`, only those
    // touching one of p's path pieces.
    method!(lua, g, "open_intersections", |l, (spacing, p): (u32, Option<i64>)| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let owner = match p {
            Some(p) => Some(seat(&c, p)?),
            None => None,
        };
        charge(l, t.intersections.len() as u64)?;
        let st = &c.state;
        let mut out = vec![];
        for (i, info) in t.intersections.iter().enumerate() {
            if st.intersections[i].is_some() {
                continue;
            }
            if spacing >= 2 && info.neighbors.iter().any(|&n| st.intersections[n].is_some()) {
                continue;
            }
            if let Some(s) = owner {
                if !info.paths.iter().any(|&pp| st.paths[pp].is_some_and(|pc| pc.owner as usize == s)) {
                    continue;
                }
            }
            out.push(i + 1);
        }
        charged(l, out)
    });
    // Empty paths that extend p's network: one end holds p's piece, or one end touches
    // p's path piece and holds no other player's piece.
    method!(lua, g, "open_paths", |l, p: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let s = seat(&c, p)?;
        charge(l, t.paths.len() as u64 * 2)?;
        let st = &c.state;
        let reaches = |n: usize| match st.intersections[n] {
            Some(pc) => pc.owner as usize == s,
            None => t.intersections[n].paths.iter().any(|&pp| st.paths[pp].is_some_and(|pc| pc.owner as usize == s)),
        };
        let open = t
            .paths
            .iter()
            .enumerate()
            .filter(|(i, info)| st.paths[*i].is_none() && (reaches(info.ends[0]) || reaches(info.ends[1])))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>();
        charged(l, open)
    });
    // Longest trail of p's pieces of a kind, broken by other players' intersection pieces.
    method!(lua, g, "longest_trail", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        charge(l, t.paths.len() as u64 * 4)?;
        Ok(trail_length(&c, t, s, k))
    });

    // Randomness ---------------------------------------------------------------------
    method!(lua, g, "roll", |l, n: Option<u32>| {
        let n = n.unwrap_or(2);
        if n > MAX_DICE {
            return Err(rt(format!("g:roll(n) rolls at most {MAX_DICE} dice, not {n}")));
        }
        charge(l, n as u64)?;
        let mut c = writable(l)?;
        Ok((0..n).map(|_| roll_die(&mut c)).collect::<Vec<u32>>())
    });
    method!(lua, g, "random", |l, n: u32| {
        if n == 0 {
            return Err(rt("g:random(n) needs n >= 1"));
        }
        let mut c = writable(l)?;
        Ok(draw(&mut c, n) + 1)
    });
    method!(lua, g, "shuffled", |l, list: Vec<LV>| {
        let mut list = list;
        charge(l, list.len() as u64)?;
        let mut c = writable(l)?;
        for i in (1..list.len()).rev() {
            let j = draw(&mut c, i as u32 + 1) as usize;
            list.swap(i, j);
        }
        Ok(list)
    });

    // Log and events -----------------------------------------------------------------
    method!(lua, g, "log", |l, (text, args): (String, mlua::Variadic<LV>)| {
        let text = if args.is_empty() { text } else { format_values(&text, &args)? };
        let m = message(l, text, None)?;
        writable(l)?.keep_message(m);
        Ok(())
    });
    method!(lua, g, "tell", |l, (seats, text): (Vec<i64>, String)| {
        let to = {
            let c = writable(l)?;
            seats.iter().map(|&p| seat(&c, p)).collect::<R<Vec<_>>>()?
        };
        let m = message(l, text, Some(to))?;
        writable(l)?.keep_message(m);
        Ok(())
    });
    method!(lua, g, "_record", |l, event: String| {
        alloc(l, 32 + event.len())?;
        if let Some(mut c) = l.app_data_mut::<Ctx>() {
            c.events.push(event);
        }
        Ok(())
    });
    super::api_slots::install(lua, &g)?;
    // Last: the getters the rules call most, as C functions over the methods above.
    super::api_fast::install(lua, &g)?;
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table with holes is a map, whatever border `#t` reports; keys 1..n make a list.
    #[test]
    fn only_keys_one_to_n_make_a_list() {
        let lua = Lua::new();
        for code in [
            "return { [2] = 7, [4] = 8 }",
            // Seats 2, 3, 4 and 6 owe cards: Lua puts 2-4 in the array part and reports 4.
            "local t = {} for _, k in ipairs({ 2, 3, 4, 6 }) do t[k] = 1 end return t",
        ] {
            let t: LV = lua.load(code).eval().unwrap();
            assert!(matches!(from_lua_value(&t).unwrap(), Some(Value::Map(_))), "{code}");
        }
        let t: LV = lua.load("return { 4, 5, 6 }").eval().unwrap();
        assert_eq!(from_lua_value(&t).unwrap(), Some(Value::List(vec![Value::Int(4), Value::Int(5), Value::Int(6)])));
    }
}
