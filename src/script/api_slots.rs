//! The `g` methods of slot grids (see `crate::slots`): cards placed on positions of a
//! grid, a store per position, neighbour queries and labels; plus `g:move_under`, which
//! puts cards at the bottom of a stack. Rows and columns are 1-based on the Lua side.

use super::api::{card, ctx, method, rt, seat, writable, writable_grids, zone_ref, R};
use super::Ctx;
use crate::slots::{find_label, Around};
use crate::state::Zone;
use mlua::{Lua, Table, Value as LV};

/// Index into `state.grids` of a Lua owner (seat or nil) and grid name.
pub(super) fn grid_ref(c: &Ctx, owner: Option<i64>, name: &str) -> R<usize> {
    let known = c.names.get(name, super::names::NameKind::Grid);
    let gi =
        known.unwrap_or_else(|| c.spec.grid(name)).ok_or_else(|| rt(format!("'{name}' is not a grid of this game")))?;
    let per_player = c.spec.grids[gi].per_player;
    let o = match (owner, per_player) {
        (Some(p), true) => Some(seat(c, p)?),
        (None, false) => None,
        (None, true) => return Err(rt(format!("grid '{name}' belongs to a player: name the player"))),
        (Some(_), false) => return Err(rt(format!("grid '{name}' belongs to the game: pass nil as its owner"))),
    };
    c.state.grid_index(o, gi).ok_or_else(|| rt(format!("grid '{name}' has not been made")))
}

/// (grid index, 0-based row, 0-based col), checking the bounds.
pub(super) fn pos(c: &Ctx, owner: Option<i64>, name: &str, row: i64, col: i64) -> R<(usize, usize, usize)> {
    let g = grid_ref(c, owner, name)?;
    let grid = &c.state.grids[g];
    if row < 1 || col < 1 || !grid.contains(row as usize - 1, col as usize - 1) {
        return Err(rt(format!(
            "there is no position (row {row}, column {col}) in grid '{name}' ({} rows, {} columns)",
            grid.rows, grid.cols
        )));
    }
    Ok((g, row as usize - 1, col as usize - 1))
}

fn kind_name(c: &Ctx, k: u16) -> String {
    c.spec.cards[k as usize].name.clone()
}

/// Takes one card of kind `k` out of a zone (the topmost of that kind from a stack).
fn take_from_zone(c: &mut Ctx, owner: Option<usize>, z: usize, k: usize, zone: &str) -> R<()> {
    if !c.state.zone_mut(owner, z).ok_or_else(|| rt("no such zone"))?.remove(k, 1) {
        return Err(rt(format!("'{zone}' holds no {}", c.spec.cards[k].name)));
    }
    Ok(())
}

/// Puts `n` cards of kind `k` into a zone: on top of a stack, or under it if `bottom`.
fn put_in_zone(c: &mut Ctx, owner: Option<usize>, z: usize, k: usize, n: usize, bottom: bool) -> R<()> {
    match c.state.zone_mut(owner, z).ok_or_else(|| rt("no such zone"))? {
        Zone::Stack(s) if bottom => {
            for _ in 0..n {
                s.insert(0, k as u16);
            }
        }
        zone => zone.add(k, n).map_err(|e| rt(e.to_string()))?,
    }
    Ok(())
}

fn slot_table(lua: &Lua, c: &Ctx, g: usize, row: usize, col: usize) -> R<Table> {
    let grid = &c.state.grids[g];
    let slot = grid.get(row, col);
    let card = match slot.and_then(|s| s.top()) {
        Some(k) => LV::String(lua.create_string(&c.spec.cards[k as usize].name)?),
        None => LV::Nil,
    };
    // One pre-sized table per slot: rules read these in their hottest loops.
    lua.create_table_from([
        ("row", LV::Integer(row as i64 + 1)),
        ("col", LV::Integer(col as i64 + 1)),
        ("label", LV::String(lua.create_string(grid.label(row, col))?)),
        ("card", card),
        ("store", LV::Integer(slot.map(|s| s.store as i64).unwrap_or(0))),
        ("depth", LV::Integer(slot.map(|s| s.cards.len() as i64).unwrap_or(0))),
    ])
}

pub(super) fn install(lua: &Lua, g: &Table) -> R<()> {
    // Reading -------------------------------------------------------------------------
    method!(lua, g, "grid_size", |l, (owner, name): (Option<i64>, String)| {
        let c = ctx(l)?;
        let gi = grid_ref(&c, owner, &name)?;
        Ok((c.state.grids[gi].rows, c.state.grids[gi].cols))
    });
    // The card in play at a position (or nil) and the position's store.
    method!(lua, g, "slot", |l, (owner, name, row, col): (Option<i64>, String, i64, i64)| {
        let c = ctx(l)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        let grid = &c.state.grids[gi];
        Ok((grid.top(r, k).map(|k| kind_name(&c, k)), grid.store(r, k)))
    });
    method!(lua, g, "store", |l, (owner, name, row, col): (Option<i64>, String, i64, i64)| {
        let c = ctx(l)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        Ok(c.state.grids[gi].store(r, k))
    });
    method!(lua, g, "slot_cards", |l, (owner, name, row, col): (Option<i64>, String, i64, i64)| {
        let c = ctx(l)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        let cards = c.state.grids[gi].get(r, k).map(|s| s.cards.clone()).unwrap_or_default();
        Ok(cards.into_iter().map(|k| kind_name(&c, k)).collect::<Vec<_>>())
    });
    // `g:slots` as one flat list: row, col, card in play (or false), store and depth of
    // each position in turn. The prelude builds the tables `g:slots` hands out from it: a
    // table made in Lua costs a fraction of one filled field by field from Rust.
    method!(lua, g, "__slots_flat", |l, (owner, name): (Option<i64>, String)| {
        let c = ctx(l)?;
        let gi = grid_ref(&c, owner, &name)?;
        let slots = &c.state.grids[gi].slots;
        super::charge(l, slots.len() as u64 * 16)?;
        let mut flat = Vec::with_capacity(slots.len() * 5);
        for s in slots {
            flat.push(LV::Integer(s.row as i64 + 1));
            flat.push(LV::Integer(s.col as i64 + 1));
            flat.push(match s.top() {
                Some(k) => LV::String(l.create_string(&c.spec.cards[k as usize].name)?),
                None => LV::Boolean(false),
            });
            flat.push(LV::Integer(s.store as i64));
            flat.push(LV::Integer(s.cards.len() as i64));
        }
        l.create_sequence_from(flat)
    });
    // Positions whose card in play is `kind` (any card if nil), in reading order.
    method!(lua, g, "grid_find", |l, (owner, name, kind): (Option<i64>, String, Option<String>)| {
        let c = ctx(l)?;
        let gi = grid_ref(&c, owner, &name)?;
        let want = match &kind {
            Some(k) => Some(card(&c, k)? as u16),
            None => None,
        };
        let out = l.create_table()?;
        let mut n = 0;
        for s in &c.state.grids[gi].slots {
            match (s.top(), want) {
                (Some(t), Some(w)) if t == w => {}
                (Some(_), None) => {}
                _ => continue,
            }
            n += 1;
            let t = l.create_table()?;
            t.raw_set("row", s.row + 1)?;
            t.raw_set("col", s.col + 1)?;
            out.raw_set(n, t)?;
        }
        Ok(out)
    });
    method!(lua, g, "grid_count", |l, (owner, name, kind): (Option<i64>, String, Option<String>)| {
        let c = ctx(l)?;
        let gi = grid_ref(&c, owner, &name)?;
        let slots = &c.state.grids[gi].slots;
        Ok(match kind {
            Some(k) => {
                let k = card(&c, &k)? as u16;
                slots.iter().filter(|s| s.top() == Some(k)).count()
            }
            None => slots.iter().filter(|s| s.top().is_some()).count(),
        })
    });
    // In-bounds positions around one: "orthogonal" (default), "diagonal" or "all".
    method!(lua, g, "slot_neighbors", |l,
                                       (owner, name, row, col, how): (
        Option<i64>,
        String,
        i64,
        i64,
        Option<String>
    )| {
        let c = ctx(l)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        let how = how.as_deref().unwrap_or("orthogonal");
        let around = Around::parse(how)
            .ok_or_else(|| rt(format!("neighbours are 'orthogonal', 'diagonal' or 'all', not '{how}'")))?;
        let out = l.create_table()?;
        for (i, (r2, k2)) in c.state.grids[gi].around(r, k, around).into_iter().enumerate() {
            out.raw_set(i + 1, slot_table(l, &c, gi, r2, k2)?)?;
        }
        Ok(out)
    });
    method!(lua, g, "slot_label", |l, (owner, name, row, col): (Option<i64>, String, i64, i64)| {
        let c = ctx(l)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        Ok(c.state.grids[gi].label(r, k))
    });
    // owner (seat or nil), grid name, row, col of a label; nothing if it names no slot.
    method!(lua, g, "slot_at", |l, label: String| {
        let c = ctx(l)?;
        Ok(match find_label(&c.state.grids, &label.to_ascii_uppercase()) {
            Some((gi, r, k)) => {
                let grid = &c.state.grids[gi];
                (grid.owner.map(|o| o as i64 + 1), Some(c.spec.grids[grid.spec].name.clone()), Some(r + 1), Some(k + 1))
            }
            None => (None, None, None, None),
        })
    });

    // Changing --------------------------------------------------------------------------
    // Moves one card of `kind` from a zone onto the pile at a position.
    method!(lua, g, "place_card", |l,
                                   (fo, fz, owner, name, row, col, kind): (
        Option<i64>,
        String,
        Option<i64>,
        String,
        i64,
        i64,
        String
    )| {
        let mut c = writable_grids(l, owner, true)?;
        let (zo, z) = zone_ref(&c, fo, &fz)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        let kind = card(&c, &kind)?;
        take_from_zone(&mut c, zo, z, kind, &fz)?;
        c.state.grids[gi].get_mut(r, k).cards.push(kind as u16);
        Ok(())
    });
    // A new card on the pile at a position (set-up).
    method!(lua, g, "create_card", |l, (owner, name, row, col, kind): (Option<i64>, String, i64, i64, String)| {
        let mut c = writable_grids(l, owner, true)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        let kind = card(&c, &kind)?;
        c.state.grids[gi].get_mut(r, k).cards.push(kind as u16);
        Ok(())
    });
    // Moves the top card of a position into a zone (under a stack if `bottom`); returns its
    // kind. A position left without cards loses its store.
    method!(lua, g, "take_card", |l,
                                  (owner, name, row, col, to, tz, bottom): (
        Option<i64>,
        String,
        i64,
        i64,
        Option<i64>,
        String,
        Option<bool>
    )| {
        let mut c = writable_grids(l, owner, true)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        let (zo, z) = zone_ref(&c, to, &tz)?;
        let label = c.state.grids[gi].label(r, k);
        let top = c.state.grids[gi].top(r, k).ok_or_else(|| rt(format!("there is no card on {label}")))?;
        put_in_zone(&mut c, zo, z, top as usize, 1, bottom.unwrap_or(false))?;
        let grid = &mut c.state.grids[gi];
        let s = grid.get_mut(r, k);
        s.cards.pop();
        if s.cards.is_empty() {
            s.store = 0;
        }
        grid.tidy(r, k);
        Ok(kind_name(&c, top))
    });
    method!(lua, g, "set_store", |l, (owner, name, row, col, n): (Option<i64>, String, i64, i64, i64)| {
        let mut c = writable_grids(l, owner, false)?;
        let (gi, r, k) = pos(&c, owner, &name, row, col)?;
        if !(0..=u16::MAX as i64).contains(&n) {
            return Err(rt(format!("a store holds 0 to {}, not {n}", u16::MAX)));
        }
        c.state.grids[gi].get_mut(r, k).store = n as u16;
        c.state.grids[gi].tidy(r, k);
        Ok(())
    });
    // Swaps everything at two positions of one grid (cards and stores).
    method!(lua, g, "swap_slots", |l, (owner, name, r1, c1, r2, c2): (Option<i64>, String, i64, i64, i64, i64)| {
        let mut c = writable_grids(l, owner, true)?;
        let (gi, ra, ka) = pos(&c, owner, &name, r1, c1)?;
        let (_, rb, kb) = pos(&c, owner, &name, r2, c2)?;
        c.state.grids[gi].swap((ra, ka), (rb, kb));
        Ok(())
    });
    // Like g:move, but onto the bottom of a stack ("put it under the pile").
    method!(lua, g, "move_under", |l,
                                   (fo, fz, to, tz, kind, n): (
        Option<i64>,
        String,
        Option<i64>,
        String,
        String,
        Option<u16>
    )| {
        let n = n.unwrap_or(1) as usize;
        let mut c = writable(l)?;
        let (fo, fzi) = zone_ref(&c, fo, &fz)?;
        let (to, tzi) = zone_ref(&c, to, &tz)?;
        let k = card(&c, &kind)?;
        let have = c.state.zone(fo, fzi).map(|z| z.count(k)).unwrap_or(0);
        if have < n {
            return Err(rt(format!("'{fz}' holds {have} {kind}, not {n}")));
        }
        for _ in 0..n {
            take_from_zone(&mut c, fo, fzi, k, &fz)?;
        }
        put_in_zone(&mut c, to, tzi, k, n, true)
    });
    Ok(())
}
