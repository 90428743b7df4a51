//! The `g` object every hook receives: the only door from a script to the game state.
//! Seats, hexes, intersections and paths are 1-based integers on the Lua side.

use super::api_cards::CardCounts;
use super::api_fast::{int_arg, str_arg};
use super::ctx::TrailMemo;
use super::log_format::{format_log_into, format_values, LogArg};
use super::methods::{hand_it_over, methods, Arg as MethodArg};
use super::names::NameKind;
use super::{caller, charge, Ctx, Message, ScriptError, ScriptErrorKind, VARS_CAP};
use crate::action::Arg;
use crate::board::{self, Topology};
use crate::spec::{ArgType, SiteKind};
use crate::value::Value;
use mlua::{ffi, Lua, Table, Value as LV};
use rand::Rng;
use std::collections::BTreeMap;
use std::ffi::c_int;
use std::sync::Arc;

pub(super) type R<T> = mlua::Result<T>;

pub(super) fn rt(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

/// The game's context, for a method's mlua function (`super::CtxHome`).
pub(super) fn ctx(lua: &Lua) -> R<std::cell::RefMut<'_, Ctx>> {
    let home = lua.app_data_ref::<super::CtxHome>().map(|h| h.0).ok_or_else(|| rt("no game is running"))?;
    // SAFETY: the cell is boxed in the `Script` that owns this Lua state and is dropped
    // after it, so it outlives every call a function of this state makes.
    let cell = unsafe { &*home };
    let c = cell.try_borrow_mut().map_err(|_| rt("the game is busy: a method was called from inside another"))?;
    std::cell::RefMut::filter_map(c, Option::as_mut).map_err(|_| rt("no game is running"))
}

pub(super) fn writable(lua: &Lua) -> R<std::cell::RefMut<'_, Ctx>> {
    let mut c = ctx(lua)?;
    if c.read_only {
        return Err(rt("the game may not change while legal actions are listed or points counted"));
    }
    c.touch(); // whatever `g:cached` derived from the state is stale now
    Ok(c)
}

#[inline]
pub(super) fn seat(c: &Ctx, p: i64) -> R<usize> {
    if p >= 1 && (p as usize) <= c.state.players.len() {
        Ok(p as usize - 1)
    } else {
        Err(rt(format!("there is no player {p}")))
    }
}

#[inline]
pub(super) fn topo(c: &Ctx) -> R<&Arc<Topology>> {
    c.state.topology.as_ref().ok_or_else(|| rt("the board has not been built yet"))
}

#[inline]
pub(super) fn index(id: i64, len: usize, what: &str) -> R<usize> {
    if id >= 1 && (id as usize) <= len {
        Ok(id as usize - 1)
    } else {
        Err(rt(format!("there is no {what} {id}")))
    }
}

#[inline]
pub(super) fn card(c: &Ctx, name: &str) -> R<usize> {
    let known = c.names.get(name, NameKind::Card);
    known.unwrap_or_else(|| c.spec.card(name)).ok_or_else(|| rt(format!("'{name}' is not a card of this game")))
}

#[inline]
fn zone_index(c: &Ctx, name: &str) -> R<usize> {
    let known = c.names.get(name, NameKind::Zone);
    known.unwrap_or_else(|| c.spec.zone(name)).ok_or_else(|| rt(format!("'{name}' is not a zone of this game")))
}

/// (owner, zone index) from a Lua owner (seat or nil) and a zone name.
#[inline]
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
#[inline]
pub(super) fn piece_index(c: &Ctx, name: &str) -> Option<usize> {
    c.names.get(name, NameKind::Piece).unwrap_or_else(|| c.spec.piece(name))
}

#[inline]
pub(super) fn piece_kind(c: &Ctx, name: &str) -> R<usize> {
    piece_index(c, name).ok_or_else(|| rt(format!("'{name}' is not a piece of this game")))
}

#[inline]
pub(super) fn site_kind(s: &str) -> R<SiteKind> {
    match s {
        "intersection" => Ok(SiteKind::Intersection),
        "path" => Ok(SiteKind::Path),
        _ => Err(rt(format!("a site is 'intersection' or 'path', not '{s}'"))),
    }
}

pub(super) fn draw(c: &mut Ctx, n: u32) -> u32 {
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
/// by every other piece (another player's or no player's); the method, its C function and
/// the bots' generic features (`Script::trail_length`) all ask this.
/// Kept per seat and kind with what it was found from (`Ctx::trails`): the same paths and
/// blocked intersections give the same trail without the search.
pub(super) fn trail_length(c: &Ctx, t: &Topology, s: usize, k: usize) -> usize {
    let owned: Vec<bool> =
        c.state.paths.iter().map(|pc| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k)).collect();
    let blocked: Vec<bool> =
        c.state.intersections.iter().map(|pc| pc.is_some_and(|pc| pc.owner as usize != s)).collect();
    kept_trail(c, t, s, k, &owned, &blocked)
}

/// The longest trail over the paths `owned` (seat s's pieces of kind k), broken at the
/// intersections `blocked`: the one kept per seat and kind when they are the same (a bot's
/// features ask it at every position it weighs, most often of unchanged roads).
fn kept_trail(c: &Ctx, t: &Topology, s: usize, k: usize, owned: &[bool], blocked: &[bool]) -> usize {
    let Some(topology) = c.state.topology.as_ref().filter(|b| std::ptr::eq(b.as_ref(), t)) else {
        return board::longest_trail(t, owned, blocked);
    };
    let mut kept = c.trails.borrow_mut();
    let at = kept.iter().position(|m| m.seat == s && m.kind == k);
    if let Some(m) = at.map(|i| &kept[i]) {
        if std::sync::Arc::ptr_eq(&m.topology, topology) && m.owned == owned && m.blocked == blocked {
            return m.len;
        }
    }
    // Copied only here: a bot's features ask with buffers they reuse for every seat.
    let len = board::longest_trail(t, owned, blocked);
    let memo = TrailMemo {
        topology: topology.clone(),
        seat: s,
        kind: k,
        owned: owned.to_vec(),
        blocked: blocked.to_vec(),
        len,
    };
    match at {
        Some(i) => kept[i] = memo,
        None => kept.push(memo),
    }
    len
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
/// `VARS_CAP`. Each table walked is checked against the budget: one table may be listed
/// many times, and walking one scans all its slots, emptied ones included.
pub fn from_lua_value(lua: &Lua, v: &LV) -> R<Option<Value>> {
    let mut size = 0;
    convert(lua, v, 0, &mut size)
}

fn convert(lua: &Lua, v: &LV, depth: usize, size: &mut usize) -> R<Option<Value>> {
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
            charge(lua, 0)?; // the scan, as the VM recorded it
                             // `raw_len` is any border of the table ({[2]=x, [3]=y, [4]=z, [6]=w} may give
                             // 4): a list needs every key 1..len.
            if count == len && len > 0 && (1..=len).all(|i| t.raw_get::<LV>(i).is_ok_and(|v| !v.is_nil())) {
                let mut list = Vec::with_capacity(len);
                for v in t.sequence_values::<LV>() {
                    list.push(convert(lua, &v?, depth + 1, size)?.unwrap_or(Value::Bool(false)));
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
                    if let Some(v) = convert(lua, &v, depth + 1, size)? {
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

/// A table of cards (`{ ore = 2, ... }`) as `arg_from_lua` reads it (the counts above
/// 0, sorted), read with the C API in one pass: an mlua pairs iterator makes a
/// protected call per entry, and listing Rivals' exchanges and discards read thousands
/// of them per bot decision. None for anything but text keys and integer counts (the
/// mlua reading then judges it).
fn cards_from_lua(lua: &Lua, tbl: &mlua::Table) -> Option<Vec<(String, u32)>> {
    lua.exec_raw_lua(|raw| unsafe {
        // SAFETY: the stack is put back as it was; `raw_cards` reads without raising.
        let l = raw.state();
        let top = mlua::ffi::lua_gettop(l);
        if mlua::ffi::lua_checkstack(l, 4) == 0 || raw.push(tbl).is_err() {
            mlua::ffi::lua_settop(l, top);
            return None;
        }
        let cards = raw_cards(l, mlua::ffi::lua_absindex(l, -1));
        mlua::ffi::lua_settop(l, top);
        cards
    })
}

/// `cards_from_lua` of the table at stack index `t` (absolute): None for anything but a
/// table of text keys and integer counts.
///
/// # Safety
/// `t` is an absolute index of the stack, with room for 3 more values. The table is not
/// changed while it is walked, and lua_next is given only the keys it answered, so it
/// cannot raise; lua_tolstring on a string and lua_tointegerx allocate nothing. The stack
/// is left as it was.
pub(super) unsafe fn raw_cards(l: *mut mlua::ffi::lua_State, t: std::ffi::c_int) -> Option<Vec<(String, u32)>> {
    if mlua::ffi::lua_type(l, t) != mlua::ffi::LUA_TTABLE {
        return None;
    }
    let mut cards = vec![];
    let mut ok = true;
    mlua::ffi::lua_pushnil(l);
    while mlua::ffi::lua_next(l, t) != 0 {
        let mut isnum = 0;
        let n = mlua::ffi::lua_tointegerx(l, -1, &mut isnum);
        let key = (mlua::ffi::lua_type(l, -2) == mlua::ffi::LUA_TSTRING).then(|| {
            let mut len = 0usize;
            let p = mlua::ffi::lua_tolstring(l, -2, &mut len);
            std::str::from_utf8(std::slice::from_raw_parts(p as *const u8, len)).ok().map(str::to_string)
        });
        match (key.flatten(), mlua::ffi::lua_type(l, -1) == mlua::ffi::LUA_TNUMBER && isnum != 0) {
            // A count past u32 is the mlua reader's to refuse.
            (Some(k), true) if n <= u32::MAX as i64 => {
                if n > 0 {
                    cards.push((k, n as u32));
                }
            }
            _ => ok = false,
        }
        mlua::ffi::lua_settop(l, -2);
        if !ok {
            // The key left by lua_next goes too.
            mlua::ffi::lua_settop(l, -2);
            break;
        }
    }
    ok.then(|| {
        cards.sort();
        cards
    })
}

pub fn arg_from_lua(lua: &Lua, t: ArgType, v: &LV) -> Result<Arg, String> {
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
                if let Some(cards) = cards_from_lua(lua, tbl) {
                    return Ok(Arg::Cards(cards));
                }
                let mut cards = vec![];
                for pair in tbl.pairs::<String, i64>() {
                    let (k, n) = pair.map_err(|e| e.to_string())?;
                    let n = u32::try_from(n.max(0))
                        .map_err(|_| format!("a count of {n} {k} is more cards than the engine counts"))?;
                    if n > 0 {
                        cards.push((k, n));
                    }
                }
                cards.sort();
                Arg::Cards(cards)
            }
            other => return Err(format!("expected a table of cards, got {}", other.type_name())),
        },
    })
}

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

pub(super) fn create(lua: &Lua) -> Result<Table, ScriptError> {
    build(lua).map_err(|e| ScriptError::from_lua(&e))
}

fn build(lua: &Lua) -> R<Table> {
    let g = lua.create_table()?;
    for area in super::methods::AREAS {
        super::methods::install(lua, &g, area)?;
    }
    Ok(g)
}

/// The `g:log` arguments after the format: strings and numbers.
pub(super) enum LogArgs<'a> {
    Slow(&'a [LV]),
    /// `n` arguments on the stack from index `first`, read as the message is written; at
    /// most eight (no Vec: a message is logged about twice an action), more go to the
    /// mlua function.
    Fast(*mut ffi::lua_State, c_int, usize),
}

impl LogArgs<'_> {
    fn is_empty(&self) -> bool {
        match self {
            LogArgs::Slow(args) => args.is_empty(),
            LogArgs::Fast(_, _, n) => *n == 0,
        }
    }

    /// Appends the message `format` makes of the arguments to `out`.
    fn write(&self, c: &Ctx, format: &str, out: &mut String) -> R<()> {
        let name = |place: u16| c.spec.cards.get(place as usize).map_or("?", |k| k.name.as_str());
        match *self {
            LogArgs::Slow(args) => {
                let cards = |t: &Table| {
                    let mut list = vec![];
                    logged_cards(c, CardCounts::Slow(t), |place, n| {
                        list.push((place, n));
                        Ok(())
                    })?;
                    list.sort_unstable_by_key(|&(p, _)| p);
                    Ok(list)
                };
                out.push_str(&format_values(format, args, cards, name)?)
            }
            // SAFETY: the arguments are on the stack of the C function running.
            LogArgs::Fast(l, first, n) => unsafe {
                // The cards tables' (place, count) pairs, read off the stack into one buffer
                // (no Vec while Lua may raise), each table's at `spans[k]`; more kinds than
                // the buffer holds go to the mlua function. Only a message with a table
                // pays for the buffer.
                let mut cards = [(0u16, 0i64); LOGGED_KINDS];
                let mut spans = [(0usize, 0usize); 8];
                if (first..first + n as c_int).any(|k| ffi::lua_type(l, k) == ffi::LUA_TTABLE) {
                    let mut used = 0;
                    for (k, span) in (first..).zip(&mut spans).take(n) {
                        if ffi::lua_type(l, k) == ffi::LUA_TTABLE {
                            let len = fast_cards(c, l, k, &mut cards[used..])?;
                            *span = (used, used + len);
                            used += len;
                        }
                    }
                }
                let mut args = [LogArg::Int(0); 8];
                for (k, (arg, &(from, to))) in (first..).zip(args.iter_mut().zip(&spans)).take(n) {
                    // A string first: one call into Lua for the usual argument.
                    *arg = match str_arg(l, k) {
                        Some(s) => LogArg::Str(s),
                        None => match ffi::lua_type(l, k) {
                            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, k) != 0 => {
                                LogArg::Int(int_arg(l, k).ok_or_else(hand_it_over)?)
                            }
                            ffi::LUA_TNUMBER => LogArg::Num(ffi::lua_tonumberx(l, k, std::ptr::null_mut())),
                            ffi::LUA_TTABLE => LogArg::Cards(&cards[from..to]),
                            _ => return Err(hand_it_over()),
                        },
                    };
                }
                format_log_into(out, format, &args[..n], name).map_err(rt)?
            },
        }
        Ok(())
    }
}

/// The most kinds the cards tables of one `g:log` call by its C function may hold together
/// (more: the mlua function).
const LOGGED_KINDS: usize = 24;

/// A `%c` table's cards, each (place in `Spec::cards`, count) above 0 given to `push` in
/// the table's order. Read as `g:holds` reads its cards (`CardCounts::each`); a count below
/// 0 or a kind that is no card is an error (the C function hands it over).
fn logged_cards(c: &Ctx, counts: CardCounts<'_>, mut push: impl FnMut(u16, i64) -> R<()>) -> R<()> {
    counts.each("g:log: '%c'", |kind, n| {
        if n < 0 {
            return Err(rt(format!("g:log: '%c' needs counts of 0 or more, not {n} for '{kind}'")));
        }
        let place = card(c, kind)?;
        if n > 0 {
            push(place as u16, n)?;
        }
        Ok(true)
    })
}

/// Reads the cards table at stack index `i` into `list`, sorted by the cards' places, and
/// gives how many kinds it holds (counts of 0 left out). Anything out of the ordinary (a key
/// that is no card's name, a count that is no integer of 0 or more, more kinds than `list`
/// holds) hands the call over, for the mlua function to judge.
///
/// # Safety
/// `i` is an index of the stack of the C function running.
unsafe fn fast_cards(c: &Ctx, l: *mut ffi::lua_State, i: c_int, list: &mut [(u16, i64)]) -> R<usize> {
    let mut len = 0;
    logged_cards(c, CardCounts::Fast(l, i), |place, n| {
        *list.get_mut(len).ok_or_else(hand_it_over)? = (place, n);
        len += 1;
        Ok(())
    })?;
    list[..len].sort_unstable_by_key(|&(p, _)| p);
    Ok(len)
}

impl<'a> MethodArg<'a> for LogArgs<'a> {
    type Slow = mlua::Variadic<LV>;
    fn from_slow(_: &Lua, args: &'a mlua::Variadic<LV>) -> R<Self> {
        Ok(LogArgs::Slow(args))
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        let n = (ffi::lua_gettop(l) - i + 1).max(0) as usize;
        (n <= 8).then_some(LogArgs::Fast(l, i, n))
    }
}

methods! {
    // Randomness ---------------------------------------------------------------------
    /// n dice (2 when nil) as a new list, charged a unit a die.
    fast set "roll" (m, c; n: Option<u32>) {
        let n = n.unwrap_or(2);
        if n > MAX_DICE {
            return Err(rt(format!("g:roll(n) rolls at most {MAX_DICE} dice, not {n}")));
        }
        m.charge(n as u64)?;
        // The list is made (the one allocation, which may raise) before anything changes.
        m.table(n as usize, 0)?;
        m.commit(c)?;
        // The random numbers' state (and any dice forced), which no getter reads.
        c.wrote_nothing();
        for i in 1..=n {
            let d = roll_die(c);
            m.int(d as i64)?;
            m.seti(i as i64)?;
        }
        Ok(())
    }
    slow set "random" (m, c; n: u32) {
        if n == 0 {
            return Err(rt("g:random(n) needs n >= 1"));
        }
        m.commit(c)?;
        c.wrote_nothing();
        let v = draw(c, n) + 1;
        m.int(v as i64)
    }
    slow set "shuffled" (m, c; list: Vec<LV>) {
        let mut list = list;
        m.charge(list.len() as u64)?;
        m.commit(c)?;
        c.wrote_nothing();
        for i in (1..list.len()).rev() {
            let j = draw(c, i as u32 + 1) as usize;
            list.swap(i, j);
        }
        let lua = m.lua().ok_or_else(hand_it_over)?;
        let t = lua.create_sequence_from(list)?;
        m.lua_value(LV::Table(t))
    }

    // Log and events -----------------------------------------------------------------
    /// A message for everyone: `g:log(format, ...)` (`log_format.rs`), charged by its
    /// length and held as host memory. A quiet game (`Game::set_quiet`) only measures it,
    /// in a buffer kept for it.
    fast set "log" (m, c; format: &str, args: LogArgs) {
        let mut text = if c.quiet { std::mem::take(&mut c.log_scratch) } else { String::new() };
        text.clear();
        if args.is_empty() {
            text.push_str(format);
        } else {
            args.write(c, format, &mut text)?;
        }
        m.alloc(64 + text.len())?;
        m.charge(text.len() as u64 / 16)?;
        m.commit(c)?;
        c.wrote_nothing(); // the log, which no getter reads
        if c.quiet {
            c.quiet_bytes += text.len();
            c.log_scratch = text;
        } else {
            c.messages.push(Message { text, to: None });
        }
        Ok(())
    }
    /// A message for some seats only.
    slow set "tell" (m, c; seats: Vec<i64>, text: &str) {
        let to = seats.iter().map(|&p| seat(c, p)).collect::<R<Vec<_>>>()?;
        m.alloc(64 + text.len())?;
        m.charge(text.len() as u64 / 16)?;
        m.commit(c)?;
        c.wrote_nothing();
        c.keep_message(Message { text: text.to_string(), to: Some(to) });
        Ok(())
    }
    /// An event recorded for the engine (the prelude's `g:emit` calls it): allowed while
    /// listing too, and not a change of the state.
    fast note "_record" (m, c; event: &str) {
        m.alloc(32 + event.len())?;
        m.commit(c)?;
        // Counted even when a quiet game keeps no event: a run that emitted one is not
        // kept as if it did nothing.
        c.reads.notes += 1;
        c.keep_event(event);
        Ok(())
    }
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
            assert!(matches!(from_lua_value(&lua, &t).unwrap(), Some(Value::Map(_))), "{code}");
        }
        let t: LV = lua.load("return { 4, 5, 6 }").eval().unwrap();
        assert_eq!(
            from_lua_value(&lua, &t).unwrap(),
            Some(Value::List(vec![Value::Int(4), Value::Int(5), Value::Int(6)]))
        );
    }
}
