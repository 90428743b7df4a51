//! The declared needs of actions (`turn`, `holds`, `supply`, `cost`: docs/modding.md,
//! "What an action needs") checked by the engine itself, for every action of the phase at
//! once: whose turn it is, a card in a zone, a piece left in the supply, a printed price
//! against a zone, read from the state without entering the rules.
//!
//! The prelude hands over, once the rules are loaded, the needs of every action that
//! declares any (`engine.declared_needs`: a `cost` only while the "cost" filter is the
//! declared prices alone, since a variant's own cost hook may change any price). They are
//! compiled here against the game's zones, cards and pieces; each action compiled gets a
//! bit, and listing and a bot's draw ask `declared_lacking(seat, want)` once per call for
//! the bits of the phase's actions. Anything not compiled (a name the game does not have,
//! a zone of the game's, more actions than bits) stays with the prelude's checks in Lua,
//! which call the filter and raise the rules' own errors.

use super::api_fast::{c_closure, slot_of, upvalue_slot};
use crate::spec::Spec;
use crate::state::GameState;
use mlua::{ffi, Function, Lua, Table, Value as LV};
use std::cell::Cell;
use std::ffi::c_int;

/// Bits of a Lua integer the masks use (positive numbers only).
const BITS: usize = 62;

thread_local! {
    /// Whether the games loaded on this thread check declared needs in the engine (the
    /// default) or leave every check to the prelude's Lua: a test's switch
    /// (`set_declared_checks`), to compare the two.
    static IN_ENGINE: Cell<bool> = const { Cell::new(true) };
}

/// Makes the games this thread loads from now on check the declared needs of actions in
/// the prelude's Lua alone (`false`) or in the engine where it can (`true`, the default).
/// For tests that compare the two (`tests/declared_checks.rs`).
#[doc(hidden)]
pub fn set_declared_checks(on: bool) {
    IN_ENGINE.with(|f| f.set(on));
}

/// Whose turn an action needs.
enum Turn {
    Any,
    /// The current player's, in every phase.
    Always,
    /// The current player's in these phases.
    In(Vec<String>),
}

/// A declared price, read from a zone of the actor's.
struct Cost {
    from: usize,
    /// (card kind, count)
    price: Vec<(usize, i64)>,
    /// Phases in which it is free.
    free: Vec<String>,
}

/// One action's declared needs, compiled.
struct Need {
    turn: Turn,
    /// (zone, card kind): at least one held.
    holds: Option<(usize, usize)>,
    /// A piece kind left in the supply.
    supply: Option<usize>,
    cost: Option<Cost>,
}

impl Need {
    fn lacks(&self, state: &GameState, seat: usize) -> bool {
        let phase = state.phase.as_str();
        let off_turn = seat != state.current;
        match &self.turn {
            Turn::Always if off_turn => return true,
            Turn::In(phases) if off_turn && phases.iter().any(|p| p == phase) => return true,
            _ => {}
        }
        let count = |z: usize, card: usize| state.zone(Some(seat), z).map_or(0, |zn| zn.count(card));
        if let Some((z, card)) = self.holds {
            if count(z, card) == 0 {
                return true;
            }
        }
        if let Some(k) = self.supply {
            if state.players.get(seat).and_then(|p| p.supply.get(k)).is_none_or(|&n| n == 0) {
                return true;
            }
        }
        if let Some(cost) = &self.cost {
            if !cost.free.iter().any(|p| p == phase) {
                return cost.price.iter().any(|&(card, n)| (count(cost.from, card) as i64) < n);
            }
        }
        false
    }
}

/// The needs the engine checks, by bit.
#[derive(Default)]
pub(crate) struct Declared {
    needs: Vec<Need>,
    /// The action of each bit.
    names: Vec<String>,
}

impl Declared {
    /// The bits of `want` whose action `seat` lacks now.
    pub(crate) fn lacking(&self, state: &GameState, seat: usize, want: u64) -> u64 {
        let (mut out, mut rest) = (0u64, want);
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.needs.get(i).is_some_and(|n| n.lacks(state, seat)) {
                out |= 1 << i;
            }
        }
        out
    }

    /// The actions whose declared needs the engine checks, in declaration order.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// Compiles what `engine.declared_needs` lists; a table name -> bit of those compiled,
    /// for `engine.checked_in_engine`. With the switch off (`set_declared_checks`), none.
    pub(crate) fn compile(lua: &Lua, spec: &Spec, list: &Table) -> mlua::Result<(Declared, Table)> {
        let mut out = Declared::default();
        let bits = lua.create_table()?;
        if !IN_ENGINE.with(Cell::get) {
            return Ok((out, bits));
        }
        for entry in list.sequence_values::<Table>() {
            if out.needs.len() == BITS {
                break;
            }
            let entry = entry?;
            let name: String = entry.get("name")?;
            if let Some(need) = compile_one(spec, &entry)? {
                bits.raw_set(name.as_str(), 1i64 << out.needs.len())?;
                out.needs.push(need);
                out.names.push(name);
            }
        }
        Ok((out, bits))
    }
}

/// The phases of a set the prelude made (`{ main = true, ... }`), sorted.
fn phases(t: &Table) -> mlua::Result<Vec<String>> {
    let mut out = vec![];
    for pair in t.pairs::<String, LV>() {
        out.push(pair?.0);
    }
    out.sort();
    Ok(out)
}

/// One action's needs, or None when the engine cannot check them all alone.
fn compile_one(spec: &Spec, e: &Table) -> mlua::Result<Option<Need>> {
    let player_zone = |name: Option<String>| name.and_then(|n| spec.zone(&n)).filter(|&z| spec.zones[z].per_player);
    let turn = match e.get::<LV>("turn")? {
        LV::Nil | LV::Boolean(false) => Turn::Any,
        LV::Table(t) => Turn::In(phases(&t)?),
        _ => Turn::Always,
    };
    let holds = match (e.get::<Option<String>>("zone")?, e.get::<Option<String>>("card")?) {
        (None, None) => None,
        (zone, Some(card)) => match (player_zone(zone), spec.card(&card)) {
            (Some(z), Some(k)) => Some((z, k)),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    let supply = match e.get::<Option<String>>("supply")? {
        None => None,
        Some(piece) => match spec.piece(&piece) {
            Some(k) => Some(k),
            None => return Ok(None),
        },
    };
    let cost = match e.get::<Option<Table>>("price")? {
        None => None,
        Some(t) => {
            let Some(from) = player_zone(e.get("from")?) else { return Ok(None) };
            let mut price = vec![];
            for pair in t.pairs::<String, i64>() {
                let (card, n) = pair?;
                let Some(k) = spec.card(&card) else { return Ok(None) };
                price.push((k, n));
            }
            price.sort_unstable();
            let free = match e.get::<Option<Table>>("free")? {
                Some(t) => phases(&t)?,
                None => vec![],
            };
            Some(Cost { from, price, free })
        }
    };
    Ok(Some(Need { turn, holds, supply, cost }))
}

/// `declared_lacking(seat, want)`, the prelude's alone (a chunk argument, as
/// `api_fast::read_only_fn`): the bits of `want` whose action `seat` lacks now, read from
/// the state in the context. Charged as one call into the engine (`CALL_COST`).
pub(super) fn lacking_fn(lua: &Lua) -> mlua::Result<Function> {
    let slot = slot_of(lua).ok_or_else(|| mlua::Error::runtime("the engine's fast functions are not set up"))?;
    unsafe extern "C-unwind" fn lacking(l: *mut ffi::lua_State) -> c_int {
        let slot = upvalue_slot(l);
        let ctx = slot.ctx.get();
        let mut ok = 0;
        let seat = ffi::lua_tointegerx(l, 1, &mut ok);
        let mut ok2 = 0;
        let want = ffi::lua_tointegerx(l, 2, &mut ok2);
        let answer = if ctx.is_null() || ok == 0 || ok2 == 0 || seat < 1 || want < 0 {
            None
        } else {
            let c = &*ctx;
            let seat = seat as usize - 1;
            (seat < c.state.players.len()).then(|| c.declared.lacking(&c.state, seat, want as u64))
        };
        match answer {
            Some(mask) => {
                // Charged as the VM charges its instructions: past the budget, its count
                // hook stops the call at the next check.
                super::lua_charge(l, super::api::CALL_COST as ffi::lua_Integer);
                ffi::lua_pushinteger(l, mask as i64);
                1
            }
            None => {
                ffi::lua_pushstring(l, c"declared_lacking: no such seat, or no game".as_ptr());
                ffi::lua_error(l)
            }
        }
    }
    c_closure(lua, slot, lacking, None)
}
