//! The `g` methods of players and turn: seats, the current player, the phase, the turn,
//! the winner, options, colours and names; and `g:cached`'s probe and the budget spent,
//! which the prelude takes off `g`. Declared once each (`methods.rs`).

use super::api::{rt, seat};
use super::api_fast::{kept_version, note_kept_read};
use super::ctx::part;
use super::methods::methods;
use super::names::NameKind;

methods! {
    /// The number of players.
    fast get "players" (m, c) {
        c.read_constant();
        m.int(c.state.players.len() as i64)
    }
    fast get "current" (m, c) {
        c.read(part::CURRENT);
        m.int(c.state.current as i64 + 1)
    }
    fast set "set_current" (m, c; p: i64) {
        let s = seat(c, p)?;
        m.commit(c)?;
        c.wrote(part::CURRENT);
        c.state.current = s;
        Ok(())
    }
    fast get "phase" (m, c) {
        c.read(part::PHASE);
        m.str(&c.state.phase)
    }
    fast set "set_phase" (m, c; p: &str) {
        m.commit(c)?;
        c.wrote(part::PHASE);
        c.state.phase.clear();
        c.state.phase.push_str(p);
        Ok(())
    }
    fast get "turn" (m, c) {
        c.read(part::TURN);
        m.int(c.state.turn as i64)
    }
    /// `g:cached`'s probe, which the prelude takes off `g` before any variant runs: the
    /// version of what `code` names (0 the whole state, 1 the slot grids, 2 seat `p`'s
    /// grids, 3 the cards on them, 4 nothing); when it equals `at`, true instead, with
    /// `cost` charged. One call where a kept value took two (the version, then the charge).
    fast get "__probe" (m, c; code: i64, p: Option<i64>, at: Option<i64>, cost: Option<i64>) {
        let v = kept_version(c, code, || p)?;
        note_kept_read(c, code, p);
        if at.is_some_and(|a| a as u64 == v) {
            m.charge(u64::try_from(cost.unwrap_or(0)).map_err(|_| rt("a charge is never negative"))?)?;
            return m.bool(true);
        }
        m.int(v as i64)
    }
    /// The budget used by this call into the rules so far, to the unit: `g:cached` charges
    /// a value kept what computing it cost, so that a game and its replay, whatever each
    /// kept, use the same budget.
    fast get "__used" (m, c) {
        c.read_constant();
        let used = m.used();
        m.int(used as i64)
    }
    fast set "set_turn" (m, c; t: u32) {
        m.commit(c)?;
        c.wrote(part::TURN);
        c.state.turn = t;
        Ok(())
    }
    fast get "winner" (m, c) {
        c.read(part::WINNER);
        m.opt_int(c.state.winner.map(|w| w as i64 + 1))
    }
    slow set "declare_winner" (m, c; p: i64) {
        let s = seat(c, p)?;
        m.commit(c)?;
        c.wrote(part::WINNER);
        c.state.winner = Some(s);
        Ok(())
    }
    /// An option by the address of its interned name (`names.rs`), read from the list
    /// kept per options table (`Ctx::option_values`); any other name from the options.
    fast get "option" (m, c; name: &str) {
        c.read_constant();
        let v = match c.names.get(name, NameKind::Option) {
            // SAFETY: `option_value`'s pointer stays good until the next call to it.
            Some(Some(i)) => c.option_value(i).map(|v| unsafe { &*v }),
            _ => c.state.options.get(name),
        };
        match v {
            Some(v) => m.value(v),
            None => Err(rt(format!("no option named '{name}'"))),
        }
    }
    fast get "color" (m, c; p: i64) {
        c.read_constant();
        let s = seat(c, p)?;
        m.str(&c.state.players[s].color)
    }
    slow set "set_color" (m, c; p: i64, color: &str) {
        let s = seat(c, p)?;
        m.commit(c)?;
        c.state.players[s].name = color.into();
        c.state.players[s].color = color.into();
        Ok(())
    }
    slow get "name" (m, c; p: i64) {
        c.read_constant();
        let s = seat(c, p)?;
        m.str(&c.state.players[s].name)
    }
}
