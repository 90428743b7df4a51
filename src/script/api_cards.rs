//! The `g` methods of cards and zones: counts, `holds`, lists, creating, moving, drawing,
//! shuffling and picking cards at random. Declared once each (`methods.rs`).

use super::api::{card, draw, rt, zone_ref, R};
use super::api_fast::{int_arg, str_arg};
use super::ctx::part;
use super::methods::{hand_it_over, methods, Arg};
use crate::state::{Zone, ZoneFull};
use mlua::{ffi, Lua, Table, Value as LV};
use std::ffi::c_int;

/// Whether `n` cards of `kind` fit in `zone` (`Zone::add` would take them).
fn fits(zone: &Zone, kind: usize, n: usize) -> bool {
    match zone {
        Zone::Counts(c) => c.get(kind).is_some_and(|&have| have as usize + n <= Zone::MAX),
        Zone::Stack(s) => s.len() + n <= Zone::MAX,
    }
}

/// The cards of `g:holds(owner, zone, cards)`: a table of counts by card kind.
pub(super) enum CardCounts<'a> {
    Slow(&'a Table),
    Fast(*mut ffi::lua_State, c_int),
}

impl CardCounts<'_> {
    /// Calls `f` with each kind and count, in the table's order, while it answers true.
    /// A kind that is no string or a count that is no integer is an error (the C function
    /// hands it over).
    fn each(&self, mut f: impl FnMut(&str, i64) -> R<bool>) -> R<()> {
        match *self {
            CardCounts::Slow(t) => {
                for pair in t.pairs::<LV, LV>() {
                    let (k, n) = pair?;
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
                    if !f(&k.to_str()?, n)? {
                        break;
                    }
                }
                Ok(())
            }
            // SAFETY: `i` is the table's index on the stack of the C function running.
            CardCounts::Fast(l, i) => unsafe {
                let base = ffi::lua_gettop(l);
                ffi::lua_pushnil(l);
                while ffi::lua_next(l, i) != 0 {
                    if ffi::lua_isinteger(l, -1) == 0 {
                        return Err(hand_it_over());
                    }
                    let n = int_arg(l, -1).ok_or_else(hand_it_over)?;
                    let k = str_arg(l, -2).ok_or_else(hand_it_over)?;
                    ffi::lua_settop(l, -2);
                    if !f(k, n)? {
                        break;
                    }
                }
                ffi::lua_settop(l, base);
                Ok(())
            },
        }
    }
}

impl<'a> Arg<'a> for CardCounts<'a> {
    type Slow = Table;
    fn from_slow(_: &Lua, t: &'a Table) -> R<Self> {
        Ok(CardCounts::Slow(t))
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        (ffi::lua_type(l, i) == ffi::LUA_TTABLE).then_some(CardCounts::Fast(l, i))
    }
}

methods! {
    /// Cards in a zone: of one kind, or all of them.
    fast get "count" (m, c; owner: Option<i64>, zone: &str, kind: Option<&str>) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z));
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        let n = match kind {
            Some(k) => zn.count(card(c, k)?),
            None => zn.total(),
        };
        m.int(n as i64)
    }
    /// Holds the zone at least the cards of `cards` ({ ore = 2, brick = 1 })? Charged a
    /// unit per entry looked at; it stops at the first kind short.
    fast get "holds" (m, c; owner: Option<i64>, zone: &str, cards: CardCounts) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z));
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        let mut looked = 0u64;
        let mut holds = true;
        cards.each(|k, n| {
            looked += 1;
            holds = zn.count(card(c, k)?) as i64 >= n;
            Ok(holds)
        })?;
        m.charge(looked)?;
        m.bool(holds)
    }
    fast get "count_category" (m, c; owner: Option<i64>, zone: &str, cat: &str) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z));
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        let n: usize =
            c.spec.cards.iter().enumerate().filter(|(_, k)| k.category == cat).map(|(i, _)| zn.count(i)).sum();
        m.int(n as i64)
    }
    /// A zone's cards: { kind = count } for counts, the kinds bottom to top for a stack.
    fast get "cards" (m, c; owner: Option<i64>, zone: &str) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z));
        match c.state.zone(o, z).ok_or_else(|| rt("no such zone"))? {
            Zone::Counts(counts) => {
                m.charge(counts.len() as u64)?;
                m.table(0, counts.iter().filter(|&&n| n > 0).count())?;
                for (i, &n) in counts.iter().enumerate() {
                    if n > 0 {
                        m.str(&c.spec.cards[i].name)?;
                        m.int(n as i64)?;
                        m.rawset()?;
                    }
                }
            }
            Zone::Stack(stack) => {
                m.charge(stack.len() as u64)?;
                m.table(stack.len(), 0)?;
                for (i, &k) in stack.iter().enumerate() {
                    m.str(&c.spec.cards[k as usize].name)?;
                    m.seti(i as i64 + 1)?;
                }
            }
        }
        Ok(())
    }
    slow set "create" (m, c; owner: Option<i64>, zone: &str, kind: &str, n: u16) {
        let (o, z) = zone_ref(c, owner, zone)?;
        let k = card(c, kind)?;
        m.charge(n as u64 / 8)?;
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        if !fits(zn, k, n as usize) {
            return Err(rt(ZoneFull.to_string()));
        }
        m.commit(c)?;
        c.wrote(part::zone(z));
        c.state.zone_mut(o, z).ok_or_else(|| rt("no such zone"))?.add(k, n as usize).map_err(|e| rt(e.to_string()))
    }
    /// Moves `n` (1 when nil) cards of `kind` from one zone to another.
    fast set "move" (m, c; fo: Option<i64>, fz: &str, to: Option<i64>, tz: &str, kind: &str, n: Option<u16>) {
        let n = n.unwrap_or(1) as usize;
        let from = zone_ref(c, fo, fz)?;
        let dest = zone_ref(c, to, tz)?;
        let k = card(c, kind)?;
        let source = c.state.zone(from.0, from.1).ok_or_else(|| rt("no such zone"))?;
        let have = source.count(k);
        if let Zone::Stack(s) = source {
            m.charge((s.len() as u64).saturating_mul(n as u64) / 8)?;
        }
        if have < n {
            return Err(rt(format!("'{fz}' holds {have} {kind}, not {n}")));
        }
        let target = c.state.zone(dest.0, dest.1).ok_or_else(|| rt("no such zone"))?;
        // Into the zone they leave, they fit again; elsewhere the destination must take them.
        if from != dest && !fits(target, k, n) {
            return Err(rt(ZoneFull.to_string()));
        }
        m.commit(c)?;
        c.wrote(part::zone(from.1));
        c.wrote(part::zone(dest.1));
        if let Some(zn) = c.state.zone_mut(from.0, from.1) {
            zn.remove(k, n);
        }
        if let Some(zn) = c.state.zone_mut(dest.0, dest.1) {
            let _ = zn.add(k, n); // checked above
        }
        Ok(())
    }
    /// Moves the top card of a stack; its kind, or nil if the stack is empty.
    slow set "draw" (m, c; fo: Option<i64>, fz: &str, to: Option<i64>, tz: &str) {
        let from = zone_ref(c, fo, fz)?;
        let dest = zone_ref(c, to, tz)?;
        c.wrote(part::zone(from.1));
        c.wrote(part::zone(dest.1));
        let top = match c.state.zone_mut(from.0, from.1).ok_or_else(|| rt("no such zone"))? {
            Zone::Stack(s) => s.pop(),
            Zone::Counts(_) => return Err(rt(format!("'{fz}' is not a stack"))),
        };
        let Some(k) = top else { return m.nil() };
        c.state
            .zone_mut(dest.0, dest.1)
            .ok_or_else(|| rt("no such zone"))?
            .add(k as usize, 1)
            .map_err(|e| rt(e.to_string()))?;
        m.str(&c.spec.cards[k as usize].name)
    }
    slow set "shuffle" (m, c; owner: Option<i64>, zone: &str) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.wrote(part::zone(z));
        let mut cards = match c.state.zone_mut(o, z).ok_or_else(|| rt("no such zone"))? {
            Zone::Stack(s) => std::mem::take(s),
            Zone::Counts(_) => return Err(rt(format!("'{zone}' is not a stack"))),
        };
        m.charge(cards.len() as u64)?;
        for i in (1..cards.len()).rev() {
            let j = draw(c, i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        if let Some(Zone::Stack(s)) = c.state.zone_mut(o, z) {
            *s = cards;
        }
        Ok(())
    }
    /// A card picked at random from a zone (each card equally likely), optionally only
    /// among one category; nil if there is none. The card is not moved.
    slow set "random_card" (m, c; owner: Option<i64>, zone: &str, cat: Option<&str>) {
        // Only the random numbers' state changes, which no getter reads.
        c.wrote_nothing();
        let (o, z) = zone_ref(c, owner, zone)?;
        let counts: Vec<usize> = {
            let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
            (0..c.spec.cards.len())
                .map(|k| if cat.is_none_or(|cat| c.spec.cards[k].category == cat) { zn.count(k) } else { 0 })
                .collect()
        };
        let total: usize = counts.iter().sum();
        if total == 0 {
            return m.nil();
        }
        let mut pick = draw(c, total as u32) as usize;
        for (k, n) in counts.iter().enumerate() {
            if pick < *n {
                return m.str(&c.spec.cards[k].name);
            }
            pick -= n;
        }
        m.nil()
    }
}
