//! The `g` methods of players and turn: seats, the current player, the phase, the turn,
//! the winner, options, colours and names; and `g:cached`'s probe and the budget spent,
//! which the prelude takes off `g` (answered in `api_fast.rs`).

use super::api::{ctx, method, rt, seat, to_lua_value, writable, R};
use mlua::{Lua, Table, Value as LV};

/// Installs the methods of players and turn on `g`.
pub(super) fn install(lua: &Lua, g: &Table) -> R<()> {
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
        Ok(m.budget.used.get())
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
    Ok(())
}
