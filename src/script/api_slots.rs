//! The `g` methods of slot grids (see `crate::slots`): cards placed on positions of a
//! grid, a store per position, neighbour queries and labels; plus `g:move_under`, which
//! puts cards at the bottom of a stack. Rows and columns are 1-based on the Lua side.
//! Declared once each (`methods.rs`).

use super::api::{card, rt, seat, zone_ref, R};
use super::ctx::part;
use super::methods::{methods, Call};
use super::Ctx;
use crate::slots::{find_label, Around};
use crate::state::Zone;

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

fn kind_name(c: &Ctx, k: u16) -> &str {
    &c.spec.cards[k as usize].name
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

/// { row, col, label, card, store, depth } of a position: what `g:slot_neighbors` lists.
fn slot_table(m: &mut impl Call, c: &Ctx, g: usize, row: usize, col: usize) -> R<()> {
    let grid = &c.state.grids[g];
    let slot = grid.get(row, col);
    // One pre-sized table per slot: rules read these in their hottest loops.
    m.table(0, 6)?;
    m.int(row as i64 + 1)?;
    m.setfield(c"row")?;
    m.int(col as i64 + 1)?;
    m.setfield(c"col")?;
    m.str(&grid.label(row, col))?;
    m.setfield(c"label")?;
    if let Some(k) = slot.and_then(|s| s.top()) {
        m.str(kind_name(c, k))?;
        m.setfield(c"card")?;
    }
    m.int(slot.map(|s| s.store as i64).unwrap_or(0))?;
    m.setfield(c"store")?;
    m.int(slot.map(|s| s.cards.len() as i64).unwrap_or(0))?;
    m.setfield(c"depth")
}

methods! {
    // Reading -------------------------------------------------------------------------
    slow get "grid_size" (m, c; owner: Option<i64>, name: &str) {
        c.read(part::GRIDS);
        let gi = grid_ref(c, owner, name)?;
        m.int(c.state.grids[gi].rows as i64)?;
        m.int(c.state.grids[gi].cols as i64)
    }
    /// The card in play at a position (or nil) and the position's store.
    fast get "slot" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64) {
        c.read(part::GRIDS);
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        let grid = &c.state.grids[gi];
        m.opt_str(grid.top(r, k).map(|k| kind_name(c, k)))?;
        m.int(grid.store(r, k) as i64)
    }
    fast get "store" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64) {
        c.read(part::GRIDS);
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        m.int(c.state.grids[gi].store(r, k) as i64)
    }
    slow get "slot_cards" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64) {
        c.read(part::GRIDS);
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        let cards = c.state.grids[gi].get(r, k).map(|s| s.cards.as_slice()).unwrap_or_default();
        m.table(cards.len(), 0)?;
        for (i, &kind) in cards.iter().enumerate() {
            m.str(kind_name(c, kind))?;
            m.seti(i as i64 + 1)?;
        }
        Ok(())
    }
    /// `g:slots` as one flat list: row, col, card in play (or false), store and depth of
    /// each position in turn. The prelude builds the tables `g:slots` hands out from it: a
    /// table made in Lua costs a fraction of one filled field by field from Rust.
    fast get "__slots_flat" (m, c; owner: Option<i64>, name: &str) {
        c.read(part::GRIDS);
        let gi = grid_ref(c, owner, name)?;
        let slots = &c.state.grids[gi].slots;
        m.charge(slots.len() as u64 * 16)?;
        m.table(slots.len() * 5, 0)?;
        let mut i = 0;
        for s in slots {
            m.int(s.row as i64 + 1)?;
            m.seti(i + 1)?;
            m.int(s.col as i64 + 1)?;
            m.seti(i + 2)?;
            match s.top() {
                Some(k) => m.str(kind_name(c, k))?,
                None => m.bool(false)?,
            }
            m.seti(i + 3)?;
            m.int(s.store as i64)?;
            m.seti(i + 4)?;
            m.int(s.cards.len() as i64)?;
            m.seti(i + 5)?;
            i += 5;
        }
        Ok(())
    }
    /// Positions whose card in play is `kind` (any card if nil), in reading order.
    slow get "grid_find" (m, c; owner: Option<i64>, name: &str, kind: Option<&str>) {
        c.read(part::GRIDS);
        let gi = grid_ref(c, owner, name)?;
        let want = match kind {
            Some(k) => Some(card(c, k)? as u16),
            None => None,
        };
        m.table(0, 0)?;
        let mut n = 0;
        for s in &c.state.grids[gi].slots {
            match (s.top(), want) {
                (Some(t), Some(w)) if t == w => {}
                (Some(_), None) => {}
                _ => continue,
            }
            n += 1;
            m.table(0, 0)?;
            m.int(s.row as i64 + 1)?;
            m.setfield(c"row")?;
            m.int(s.col as i64 + 1)?;
            m.setfield(c"col")?;
            m.seti(n)?;
        }
        Ok(())
    }
    /// Cards in play on the grid, of one kind or all.
    fast get "grid_count" (m, c; owner: Option<i64>, name: &str, kind: Option<&str>) {
        c.read(part::GRIDS);
        let gi = grid_ref(c, owner, name)?;
        let slots = &c.state.grids[gi].slots;
        let n = match kind {
            Some(k) => {
                let k = card(c, k)? as u16;
                slots.iter().filter(|s| s.top() == Some(k)).count()
            }
            None => slots.iter().filter(|s| s.top().is_some()).count(),
        };
        m.int(n as i64)
    }
    /// In-bounds positions around one: "orthogonal" (default), "diagonal" or "all".
    slow get "slot_neighbors" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64, how: Option<&str>) {
        c.read(part::GRIDS);
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        let how = how.unwrap_or("orthogonal");
        let around = Around::parse(how)
            .ok_or_else(|| rt(format!("neighbours are 'orthogonal', 'diagonal' or 'all', not '{how}'")))?;
        m.table(0, 0)?;
        for (i, (r2, k2)) in c.state.grids[gi].around(r, k, around).into_iter().enumerate() {
            slot_table(m, c, gi, r2, k2)?;
            m.seti(i as i64 + 1)?;
        }
        Ok(())
    }
    slow get "slot_label" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64) {
        c.read(part::GRIDS);
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        m.str(&c.state.grids[gi].label(r, k))
    }
    /// owner (seat or nil), grid name, row, col of a label; nothing if it names no slot.
    slow get "slot_at" (m, c; label: &str) {
        c.read(part::GRIDS);
        match find_label(&c.state.grids, &label.to_ascii_uppercase()) {
            Some((gi, r, k)) => {
                let grid = &c.state.grids[gi];
                m.opt_int(grid.owner.map(|o| o as i64 + 1))?;
                m.str(&c.spec.grids[grid.spec].name)?;
                m.int(r as i64 + 1)?;
                m.int(k as i64 + 1)
            }
            None => {
                for _ in 0..4 {
                    m.nil()?;
                }
                Ok(())
            }
        }
    }

    // Changing --------------------------------------------------------------------------
    /// Moves one card of `kind` from a zone onto the pile at a position.
    slow set "place_card" (m, c; fo: Option<i64>, fz: &str, owner: Option<i64>, name: &str, row: i64, col: i64, kind: &str) {
        let (zo, z) = zone_ref(c, fo, fz)?;
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        let kind = card(c, kind)?;
        m.commit(c)?;
        c.touch_grids(owner, true);
        c.wrote(part::zone(z, zo));
        take_from_zone(c, zo, z, kind, fz)?;
        c.state.grids[gi].get_mut(r, k).cards.push(kind as u16);
        Ok(())
    }
    /// A new card on the pile at a position (set-up).
    slow set "create_card" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64, kind: &str) {
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        let kind = card(c, kind)?;
        m.commit(c)?;
        c.touch_grids(owner, true);
        c.state.grids[gi].get_mut(r, k).cards.push(kind as u16);
        Ok(())
    }
    /// Moves the top card of a position into a zone (under a stack if `bottom`); returns
    /// its kind. A position left without cards loses its store.
    slow set "take_card" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64, to: Option<i64>, tz: &str, bottom: Option<bool>) {
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        let (zo, z) = zone_ref(c, to, tz)?;
        let label = c.state.grids[gi].label(r, k);
        let top = c.state.grids[gi].top(r, k).ok_or_else(|| rt(format!("there is no card on {label}")))?;
        m.commit(c)?;
        c.touch_grids(owner, true);
        c.wrote(part::zone(z, zo));
        put_in_zone(c, zo, z, top as usize, 1, bottom.unwrap_or(false))?;
        let grid = &mut c.state.grids[gi];
        let s = grid.get_mut(r, k);
        s.cards.pop();
        if s.cards.is_empty() {
            s.store = 0;
        }
        grid.tidy(r, k);
        m.str(kind_name(c, top))
    }
    fast set "set_store" (m, c; owner: Option<i64>, name: &str, row: i64, col: i64, n: i64) {
        let (gi, r, k) = pos(c, owner, name, row, col)?;
        if !(0..=u16::MAX as i64).contains(&n) {
            return Err(rt(format!("a store holds 0 to {}, not {n}", u16::MAX)));
        }
        m.commit(c)?;
        c.touch_grids(owner, false);
        c.state.grids[gi].get_mut(r, k).store = n as u16;
        c.state.grids[gi].tidy(r, k);
        Ok(())
    }
    /// Swaps everything at two positions of one grid (cards and stores).
    slow set "swap_slots" (m, c; owner: Option<i64>, name: &str, r1: i64, c1: i64, r2: i64, c2: i64) {
        let (gi, ra, ka) = pos(c, owner, name, r1, c1)?;
        let (_, rb, kb) = pos(c, owner, name, r2, c2)?;
        m.commit(c)?;
        c.touch_grids(owner, true);
        c.state.grids[gi].swap((ra, ka), (rb, kb));
        Ok(())
    }
    /// Like g:move, but onto the bottom of a stack ("put it under the pile").
    slow set "move_under" (m, c; fo: Option<i64>, fz: &str, to: Option<i64>, tz: &str, kind: &str, n: Option<u16>) {
        let n = n.unwrap_or(1) as usize;
        let (fo, fzi) = zone_ref(c, fo, fz)?;
        let (to, tzi) = zone_ref(c, to, tz)?;
        c.wrote(part::zone(fzi, fo));
        c.wrote(part::zone(tzi, to));
        let k = card(c, kind)?;
        let have = c.state.zone(fo, fzi).map(|z| z.count(k)).unwrap_or(0);
        if have < n {
            return Err(rt(format!("'{fz}' holds {have} {kind}, not {n}")));
        }
        for _ in 0..n {
            take_from_zone(c, fo, fzi, k, fz)?;
        }
        put_in_zone(c, to, tzi, k, n, true)
    }
}
