//! The `g` methods of cards and zones: counts, `holds`, lists, creating, moving, drawing,
//! shuffling and picking cards at random.

use super::api::{card, ctx, draw, method, rt, writable, zone_ref, R};
use super::charge;
use crate::state::Zone;
use mlua::{Lua, Table, Value as LV};

/// Installs the methods of cards and zones on `g`.
pub(super) fn install(lua: &Lua, g: &Table) -> R<()> {
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
    Ok(())
}
