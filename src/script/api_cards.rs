//! The `g` methods of cards and zones: counts, `holds`, lists, creating, moving, drawing,
//! shuffling and picking cards at random. Declared once each (`methods.rs`).

use super::api::{card, draw, rt, zone_ref, R};
use super::api_fast::{int_arg, str_arg};
use super::ctx::part;
use super::methods::{hand_it_over, methods, Arg, Call};
use super::Ctx;
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

/// A table argument read either way: by mlua (`Slow`), or off the C function's stack at
/// its index (`Fast`), where every read hands over on anything out of the ordinary.
pub(super) enum TableArg<'a> {
    Slow(&'a Table),
    Fast(*mut ffi::lua_State, c_int),
}

/// The cards of `g:holds(owner, zone, cards)`: a table of counts by card kind.
pub(super) type CardCounts<'a> = TableArg<'a>;

impl TableArg<'_> {
    /// Calls `f` with each kind and count, in the table's order, while it answers true.
    /// A kind that is no string or a count that is no integer is an error named for `what`
    /// (the method reading, `g:holds`); the C function hands it over.
    pub(super) fn each(&self, what: &str, mut f: impl FnMut(&str, i64) -> R<bool>) -> R<()> {
        match *self {
            CardCounts::Slow(t) => {
                for pair in t.pairs::<LV, LV>() {
                    let (k, n) = pair?;
                    let LV::String(k) = k else {
                        return Err(rt(format!("{what}: a card kind is a string, not {}", k.type_name())));
                    };
                    let LV::Integer(n) = n else {
                        return Err(rt(format!(
                            "{what}: the count of '{}' is {}, not an integer",
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

/// The ways to pick `n` cards among some kinds, at most `caps[i]` of kind `i`, in one
/// order: the first kind's count from the most down to none, then the next kind's, ... (the
/// order a modder's nested loops list them in). Counted first (`ways`), so that a pick is
/// found by its place without listing the others (`g:selection`, a bot's draw).
struct Picks {
    n: usize,
    caps: Vec<usize>,
    /// `ways[i * (n + 1) + left]`: the ways to pick `left` more among kinds `i..`
    /// (saturating: only a list that could never be built reaches u64::MAX).
    ways: Vec<u64>,
}

impl Picks {
    /// Reads `g:selections`' arguments: a count, the kinds in order (a list of card
    /// names), and the cards to pick within (counts by kind, e.g. a hand) or nil for no
    /// limit. Charged for the counting.
    fn read(m: &mut impl Call, c: &Ctx, what: &str, n: i64, kinds: &Table, within: &LV) -> R<(Picks, Vec<usize>)> {
        let n = usize::try_from(n).map_err(|_| rt(format!("{what}: cannot pick {n} cards")))?;
        let mut ids = vec![];
        for name in kinds.sequence_values::<LV>() {
            let name = name?;
            let LV::String(name) = name else {
                return Err(rt(format!("{what}: a card kind is a string, not {}", name.type_name())));
            };
            let id = card(c, &name.to_str()?)?;
            if ids.contains(&id) {
                return Err(rt(format!("{what}: '{}' is listed twice", name.to_string_lossy())));
            }
            ids.push(id);
        }
        let caps = match within {
            LV::Nil => vec![n; ids.len()],
            LV::Table(t) => {
                let mut caps = vec![];
                for &id in &ids {
                    let name = &c.spec.cards[id].name;
                    let cap = match t.raw_get::<LV>(name.as_str())? {
                        LV::Nil => 0,
                        LV::Integer(k) if k >= 0 => k as usize,
                        v => {
                            return Err(rt(format!("{what}: the count of '{name}' is {}, not a count", v.type_name())))
                        }
                    };
                    caps.push(cap.min(n));
                }
                caps
            }
            v => return Err(rt(format!("{what}: the cards to pick within are a table, not {}", v.type_name()))),
        };
        charge_counting(m, n, &caps)?;
        let mut ways = vec![0u64; (ids.len() + 1) * (n + 1)];
        count_picks(n, &caps, &mut ways);
        Ok((Picks { n, caps, ways }, ids))
    }

    fn count(&self) -> u64 {
        self.ways[self.n]
    }

    /// The pick at 0-based place `skip` (below `count`): how many of each kind.
    fn nth(&self, skip: u64) -> Vec<usize> {
        let mut out = vec![0; self.caps.len()];
        nth_pick(self.n, &self.caps, &self.ways, skip, &mut out);
        out
    }
}

/// What counting the ways to pick `n` among kinds of these caps costs: the same whichever
/// function counts.
fn charge_counting(m: &mut impl Call, n: usize, caps: &[usize]) -> R<()> {
    let work: u64 = caps.iter().map(|&cap| (n as u64 + 1).saturating_mul(cap as u64 + 1)).fold(0, u64::saturating_add);
    m.charge(work)?;
    m.alloc((caps.len() + 1).saturating_mul(n + 1).saturating_mul(8))
}

/// What `g:selection(s)` counts: `ways[i * (n + 1) + left]`, the ways to pick `left` more
/// among kinds `i..`, each at most its cap (`ways` zeroed, `(caps.len() + 1) * (n + 1)` long).
fn count_picks(n: usize, caps: &[usize], ways: &mut [u64]) {
    let w = n + 1;
    ways[caps.len() * w] = 1;
    for i in (0..caps.len()).rev() {
        for left in 0..=n {
            let mut sum = 0u64;
            for j in 0..=caps[i].min(left) {
                sum = sum.saturating_add(ways[(i + 1) * w + left - j]);
            }
            ways[i * w + left] = sum;
        }
    }
}

/// The pick at 0-based place `skip` (below the count) of what `count_picks` counted: how
/// many of each kind, into `out`.
fn nth_pick(n: usize, caps: &[usize], ways: &[u64], mut skip: u64, out: &mut [usize]) {
    let w = n + 1;
    let mut left = n;
    for (i, &cap) in caps.iter().enumerate() {
        for j in (0..=cap.min(left)).rev() {
            let here = ways[(i + 1) * w + left - j];
            if skip < here {
                out[i] = j;
                left -= j;
                break;
            }
            skip -= here;
        }
    }
}

/// At most this many kinds, and cards to pick, in a `g:selection(s)` call its C function
/// answers: the counting lives on its stack (the C function may not own memory while it
/// pushes its answer). More go to the mlua function.
const PICK_KINDS: usize = 8;
const PICK_CARDS: usize = 31;

/// `Picks` read off the stack by the C functions, as `Picks::read` reads them (anything
/// out of the ordinary, an error included, hands the call over to the mlua function,
/// which names it), and charged the same.
struct SmallPicks {
    n: usize,
    kinds: usize,
    ids: [usize; PICK_KINDS],
    caps: [usize; PICK_KINDS],
    ways: [u64; (PICK_KINDS + 1) * (PICK_CARDS + 1)],
}

impl SmallPicks {
    fn read(m: &mut impl Call, c: &Ctx, n: i64, kinds: &TableArg, within: &PickWithin) -> R<SmallPicks> {
        let n = usize::try_from(n).ok().filter(|&n| n <= PICK_CARDS).ok_or_else(hand_it_over)?;
        let len = kinds.len();
        if len > PICK_KINDS {
            return Err(hand_it_over());
        }
        let mut p = SmallPicks {
            n,
            kinds: len,
            ids: [0; PICK_KINDS],
            caps: [0; PICK_KINDS],
            ways: [0; (PICK_KINDS + 1) * (PICK_CARDS + 1)],
        };
        for k in 0..len {
            let (id, cap) = kinds.name_at("g:selection", k + 1, |name| {
                let id = card(c, name)?;
                let cap = match within {
                    PickWithin::Any => n,
                    // (An integer of 0 or more, as the mlua function reads it.)
                    PickWithin::Counts(w) => {
                        usize::try_from(w.count_of_top("g:selection", name)?).map_err(|_| hand_it_over())?.min(n)
                    }
                    PickWithin::Slow(_) => return Err(hand_it_over()),
                };
                Ok((id, cap))
            })?;
            if p.ids[..k].contains(&id) {
                return Err(hand_it_over());
            }
            (p.ids[k], p.caps[k]) = (id, cap);
        }
        charge_counting(m, n, &p.caps[..len])?;
        count_picks(n, &p.caps[..len], &mut p.ways[..(len + 1) * (n + 1)]);
        Ok(p)
    }

    fn count(&self) -> u64 {
        self.ways[self.n]
    }

    /// Pushes the pick at 0-based place `skip` (below `count`).
    fn push(&self, m: &mut impl Call, c: &Ctx, skip: u64) -> R<()> {
        let mut out = [0; PICK_KINDS];
        nth_pick(self.n, &self.caps[..self.kinds], &self.ways, skip, &mut out);
        push_pick(m, c, &self.ids[..self.kinds], &out[..self.kinds])
    }
}

/// The counting of `g:selection(s)`: on the C function's stack (`SmallPicks`), or in the
/// mlua function's vectors (`Picks`, with the kinds' places).
// The large variant stays on the stack, unboxed: the C function owns no memory.
#[allow(clippy::large_enum_variant)]
enum Counted {
    Small(SmallPicks),
    Listed(Picks, Vec<usize>),
}

impl Counted {
    fn read(m: &mut impl Call, c: &Ctx, what: &str, n: i64, kinds: &TableArg, within: &PickWithin) -> R<Counted> {
        match (kinds, within) {
            (TableArg::Slow(t), PickWithin::Slow(w)) => {
                let (picks, ids) = Picks::read(m, c, what, n, t, w)?;
                Ok(Counted::Listed(picks, ids))
            }
            _ => SmallPicks::read(m, c, n, kinds, within).map(Counted::Small),
        }
    }

    fn count(&self) -> u64 {
        match self {
            Counted::Small(p) => p.count(),
            Counted::Listed(p, _) => p.count(),
        }
    }

    /// How many kinds are picked among.
    fn kinds(&self) -> usize {
        match self {
            Counted::Small(p) => p.kinds,
            Counted::Listed(_, ids) => ids.len(),
        }
    }

    /// Pushes the pick at 0-based place `skip` (below `count`).
    fn push(&self, m: &mut impl Call, c: &Ctx, skip: u64) -> R<()> {
        match self {
            Counted::Small(p) => p.push(m, c, skip),
            Counted::Listed(p, ids) => push_pick(m, c, ids, &p.nth(skip)),
        }
    }
}

/// The cards `g:selection(s)` picks within: a table of counts or nil (any number) in the
/// C function; whatever was given, for the mlua function to read as before.
pub(super) enum PickWithin<'a> {
    Counts(TableArg<'a>),
    Any,
    Slow(&'a LV),
}

impl<'a> Arg<'a> for PickWithin<'a> {
    type Slow = LV;
    fn from_slow(_: &Lua, v: &'a LV) -> R<Self> {
        Ok(PickWithin::Slow(v))
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        match ffi::lua_type(l, i) {
            ffi::LUA_TTABLE => Some(PickWithin::Counts(TableArg::Fast(l, i))),
            t if t <= ffi::LUA_TNIL => Some(PickWithin::Any),
            _ => None,
        }
    }
}

/// Pushes one pick as a table of counts (the kinds picked only).
fn push_pick(m: &mut impl Call, c: &Ctx, ids: &[usize], pick: &[usize]) -> R<()> {
    m.table(0, pick.iter().filter(|&&k| k > 0).count())?;
    for (&id, &k) in ids.iter().zip(pick) {
        if k > 0 {
            m.str(&c.spec.cards[id].name)?;
            m.int(k as i64)?;
            m.rawset()?;
        }
    }
    Ok(())
}

impl TableArg<'_> {
    /// The length of its list part (`#t` without metamethods).
    fn len(&self) -> usize {
        match *self {
            TableArg::Slow(t) => t.raw_len(),
            // SAFETY: `i` is the table's index on the stack of the C function running.
            TableArg::Fast(l, i) => unsafe { ffi::lua_rawlen(l, i) },
        }
    }

    /// Calls `f` with the counts of entry `k` (1-based), which must be a table of counts.
    fn counts_at(&self, what: &str, k: usize, f: impl FnMut(&str, i64) -> R<bool>) -> R<()> {
        match *self {
            TableArg::Slow(t) => match t.raw_get::<LV>(k)? {
                LV::Table(e) => CardCounts::Slow(&e).each(what, f),
                v => Err(rt(format!("{what}: entry {k} is {}, not a table of counts", v.type_name()))),
            },
            // SAFETY: as above; the entry is pushed, read and popped.
            TableArg::Fast(l, i) => unsafe {
                if ffi::lua_rawgeti(l, i, k as ffi::lua_Integer) != ffi::LUA_TTABLE {
                    ffi::lua_settop(l, -2);
                    return Err(hand_it_over());
                }
                let top = ffi::lua_gettop(l);
                let read = CardCounts::Fast(l, top).each(what, f);
                ffi::lua_settop(l, top - 1);
                read
            },
        }
    }

    /// Calls `f` with entry `k` (1-based), which must be a string.
    fn name_at<T>(&self, what: &str, k: usize, f: impl FnOnce(&str) -> R<T>) -> R<T> {
        match *self {
            TableArg::Slow(t) => match t.raw_get::<LV>(k)? {
                LV::String(name) => f(&name.to_str()?),
                v => Err(rt(format!("{what}: entry {k} is {}, not a card name", v.type_name()))),
            },
            // SAFETY: as above; the entry stays on the stack while `f` reads it.
            TableArg::Fast(l, i) => unsafe {
                ffi::lua_rawgeti(l, i, k as ffi::lua_Integer);
                let out = match str_arg(l, -1) {
                    Some(name) => f(name),
                    None => Err(hand_it_over()),
                };
                ffi::lua_settop(l, -2);
                out
            },
        }
    }

    /// The count at field `name`: nil is 0, anything else but an integer an error. In the
    /// C function, `name` is the string on top of the stack (as `name_at` hands it to its
    /// closure), which is the key looked up: no string is pushed for it.
    fn count_of_top(&self, what: &str, name: &str) -> R<i64> {
        match *self {
            TableArg::Slow(t) => match t.raw_get::<LV>(name)? {
                LV::Nil => Ok(0),
                LV::Integer(n) => Ok(n),
                v => Err(rt(format!("{what}: the count of '{name}' is {}, not an integer", v.type_name()))),
            },
            // SAFETY: as above; the key is copied, then the value popped.
            TableArg::Fast(l, i) => unsafe {
                ffi::lua_pushvalue(l, -1);
                let t = ffi::lua_rawget(l, i);
                // (An integer, as the mlua function reads it: 2.0 is not a count.)
                let n = match t {
                    ffi::LUA_TNIL => Some(0),
                    _ if ffi::lua_isinteger(l, -1) != 0 => int_arg(l, -1),
                    _ => None,
                };
                ffi::lua_settop(l, -2);
                n.ok_or_else(hand_it_over)
            },
        }
    }
}

impl<'a> Arg<'a> for TableArg<'a> {
    type Slow = Table;
    fn from_slow(_: &Lua, t: &'a Table) -> R<Self> {
        Ok(TableArg::Slow(t))
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        (ffi::lua_type(l, i) == ffi::LUA_TTABLE).then_some(TableArg::Fast(l, i))
    }
}

/// Where a trade's card is taken from: the cards a zone of the game holds (its name: the
/// bank), a table of counts, or anything (nil).
pub(super) enum Within<'a> {
    Zone(&'a str),
    Counts(TableArg<'a>),
    Any,
}

/// (mlua's side: a string, a table or nil.)
pub(super) enum SlowWithin {
    Zone(String),
    Counts(Table),
    Any,
}

impl mlua::FromLua for SlowWithin {
    fn from_lua(v: LV, _: &Lua) -> R<Self> {
        match v {
            LV::String(s) => Ok(SlowWithin::Zone(s.to_str()?.to_string())),
            LV::Table(t) => Ok(SlowWithin::Counts(t)),
            LV::Nil => Ok(SlowWithin::Any),
            v => Err(rt(format!(
                "the cards to take within are a zone's name or a table of counts, not {}",
                v.type_name()
            ))),
        }
    }
}

impl<'a> Arg<'a> for Within<'a> {
    type Slow = SlowWithin;
    fn from_slow(_: &Lua, v: &'a SlowWithin) -> R<Self> {
        Ok(match v {
            SlowWithin::Zone(z) => Within::Zone(z),
            SlowWithin::Counts(t) => Within::Counts(TableArg::Slow(t)),
            SlowWithin::Any => Within::Any,
        })
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        match ffi::lua_type(l, i) {
            ffi::LUA_TTABLE => Some(Within::Counts(TableArg::Fast(l, i))),
            ffi::LUA_TSTRING => str_arg(l, i).map(Within::Zone),
            t if t <= ffi::LUA_TNIL => Some(Within::Any),
            _ => None,
        }
    }
}

/// A card's index, as `Trades` holds it.
fn card16(c: &Ctx, name: &str) -> R<u16> {
    u16::try_from(card(c, name)?).map_err(|_| rt("more card kinds than a trade can name"))
}

/// At most this many groups, cards in a group and kinds taken in one `g:trades` call (its
/// reading holds them on the stack: the C function may not own memory while it pushes).
const TRADE_GROUPS: usize = 16;
const TRADE_GROUP_CARDS: usize = 4;
const TRADE_TAKES: usize = 32;

/// Every trade of one group of cards for one card of another kind (a maritime trade's
/// shape): each group given (`gives`, a list of count tables, in order), with each kind of
/// `takes` in order that is not in the group and that `within` holds (nil: any). Read once,
/// so that a trade is found by its place without listing the others (`g:trade_at`).
struct Trades {
    /// Each group's cards as (card, count), by card; `sizes[g]` of them. (Small: the
    /// whole value is made afresh at each call.)
    groups: [[(u16, u32); TRADE_GROUP_CARDS]; TRADE_GROUPS],
    sizes: [u8; TRADE_GROUPS],
    n_groups: usize,
    /// The kinds that may be taken, `within` applied.
    takes: [u16; TRADE_TAKES],
    n_takes: usize,
}

impl Trades {
    const EMPTY: Trades = Trades {
        groups: [[(0, 0); TRADE_GROUP_CARDS]; TRADE_GROUPS],
        sizes: [0; TRADE_GROUPS],
        n_groups: 0,
        takes: [0; TRADE_TAKES],
        n_takes: 0,
    };

    /// Reads `g:trades`' arguments. Charged a unit per group entry and per kind.
    fn read(
        &mut self,
        m: &mut impl Call,
        c: &Ctx,
        what: &str,
        gives: &TableArg,
        takes: &TableArg,
        within: &Within,
    ) -> R<()> {
        let t = self;
        t.n_groups = gives.len();
        if t.n_groups > TRADE_GROUPS {
            return Err(rt(format!("{what}: {} groups given, more than {TRADE_GROUPS}", t.n_groups)));
        }
        for g in 0..t.n_groups {
            let (group, size) = (&mut t.groups[g], &mut t.sizes[g]);
            gives.counts_at(what, g + 1, |k, n| {
                let n = match u32::try_from(n) {
                    Ok(n) if n >= 1 => n,
                    _ => return Err(rt(format!("{what}: a group gives {n} of '{k}'"))),
                };
                if *size as usize == TRADE_GROUP_CARDS {
                    return Err(rt(format!("{what}: a group of more than {TRADE_GROUP_CARDS} kinds")));
                }
                group[*size as usize] = (card16(c, k)?, n);
                *size += 1;
                Ok(true)
            })?;
            if *size == 0 {
                return Err(rt(format!("{what}: group {} gives nothing", g + 1)));
            }
            group[..*size as usize].sort_unstable();
            m.charge(*size as u64)?;
        }
        let zone = match *within {
            Within::Zone(name) => {
                let (o, z) = zone_ref(c, None, name)?;
                c.read(part::zone(z, o));
                Some(c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?)
            }
            _ => None,
        };
        if t.n_groups == 0 {
            // Nothing to give: no trade, whatever could be taken (the kinds are not read:
            // most draws of a trade find nothing to give).
            return Ok(());
        }
        let listed = takes.len();
        if listed > TRADE_TAKES {
            return Err(rt(format!("{what}: {listed} kinds to take, more than {TRADE_TAKES}")));
        }
        let mut seen = [u16::MAX; TRADE_TAKES];
        for k in 0..listed {
            let (id, held) = takes.name_at(what, k + 1, |name| {
                let id = card16(c, name)?;
                let held = match (within, zone) {
                    (_, Some(zone)) => zone.count(id as usize) > 0,
                    (Within::Counts(w), _) => w.count_of_top(what, name)? > 0,
                    _ => true,
                };
                Ok((id, held))
            })?;
            if seen[..k].contains(&id) {
                return Err(rt(format!("{what}: '{}' is listed twice", c.spec.cards[id as usize].name)));
            }
            seen[k] = id;
            if held {
                t.takes[t.n_takes] = id;
                t.n_takes += 1;
            }
        }
        m.charge(listed as u64)
    }

    /// The kinds group `g` may be traded for.
    fn takes_for(&self, g: usize) -> impl Iterator<Item = u16> + '_ {
        let group = &self.groups[g][..self.sizes[g] as usize];
        self.takes[..self.n_takes].iter().copied().filter(move |t| !group.iter().any(|&(k, _)| k == *t))
    }

    fn count(&self) -> u64 {
        (0..self.n_groups).map(|g| self.takes_for(g).count() as u64).sum()
    }

    /// The trade at 0-based place `skip` (below `count`): the group and the kind taken.
    fn nth(&self, mut skip: u64) -> Option<(usize, u16)> {
        for g in 0..self.n_groups {
            for t in self.takes_for(g) {
                if skip == 0 {
                    return Some((g, t));
                }
                skip -= 1;
            }
        }
        None
    }

    /// Pushes trade (`g`, `take`) as `{ group, { [kind] = 1 } }`.
    fn push(&self, m: &mut impl Call, c: &Ctx, g: usize, take: u16) -> R<()> {
        let group = &self.groups[g][..self.sizes[g] as usize];
        m.table(2, 0)?;
        m.table(0, group.len())?;
        for &(id, n) in group {
            m.str(&c.spec.cards[id as usize].name)?;
            m.int(n as i64)?;
            m.rawset()?;
        }
        m.seti(1)?;
        m.table(0, 1)?;
        m.str(&c.spec.cards[take as usize].name)?;
        m.int(1)?;
        m.rawset()?;
        m.seti(2)
    }
}

/// Lists longer than this are refused by `g:selections` (draw one with `g:selection`).
const MAX_SELECTIONS: u64 = 100_000;

methods! {
    /// Every way to pick `n` cards among `kinds` (a list of card names, in the order they
    /// vary), at most `within`'s count of each (a table of counts, e.g. a hand) or any
    /// number if it is nil: a list of count tables, the first kind's count from the most
    /// down to none, then the next kind's. Charged a unit per card kind of each table.
    fast get "selections" (m, c; n: i64, kinds: TableArg, within: PickWithin) {
        // (Counted on the C function's stack, or by the mlua function past its bounds.)
        let picks = Counted::read(m, c, "g:selections", n, &kinds, &within)?;
        let count = picks.count();
        if count > MAX_SELECTIONS {
            return Err(rt(format!(
                "g:selections: {count} ways to pick {n} cards is more than a list may hold \
                 ({MAX_SELECTIONS}); draw one with g:selection"
            )));
        }
        m.charge(count.saturating_mul(picks.kinds() as u64 + 1))?;
        m.table(count as usize, 0)?;
        for place in 0..count {
            picks.push(m, c, place)?;
            m.seti(place as i64 + 1)?;
        }
        Ok(())
    }
    /// The pick `g:selections(n, kinds, within)` lists at place ⌊r · count⌋ + 1 (`r` in
    /// [0, 1), as an action's `sample` is given), found by counting, without the list; nil
    /// if there is no way to pick `n`.
    fast get "selection" (m, c; n: i64, kinds: TableArg, within: PickWithin, r: f64) {
        if !(0.0..1.0).contains(&r) {
            return Err(rt(format!("g:selection: r is {r}, not in [0, 1)")));
        }
        let picks = Counted::read(m, c, "g:selection", n, &kinds, &within)?;
        let count = picks.count();
        if count == 0 {
            return m.nil();
        }
        // As a variant's Lua would place it: a float product, floored.
        let place = ((r * count as f64).floor() as u64).min(count - 1);
        m.charge(picks.kinds() as u64)?;
        picks.push(m, c, place)
    }
    /// Every trade of one of the groups `gives` (a list of count tables) for one card of
    /// a kind in `takes` (a list of card names) that is not in the group and that `within`
    /// holds (the name of a zone of the game, such as "bank", or a table of counts; nil:
    /// any): a list of `{ group, { [kind] = 1 } }`, the groups in order, each with the
    /// kinds in order. What a maritime trade's `options` lists. Charged a unit per group
    /// entry, per kind and per trade.
    fast get "trades" (m, c; gives: TableArg, takes: TableArg, within: Within) {
        let mut trades = Trades::EMPTY;
        trades.read(m, c, "g:trades", &gives, &takes, &within)?;
        let count = trades.count();
        m.charge(count)?;
        m.table(count as usize, 0)?;
        let mut place = 0;
        for g in 0..trades.n_groups {
            for t in trades.takes_for(g) {
                trades.push(m, c, g, t)?;
                place += 1;
                m.seti(place)?;
            }
        }
        Ok(())
    }
    /// The trade `g:trades(gives, takes, within)` lists at place ⌊r · count⌋ + 1 (`r` in
    /// [0, 1), as an action's `sample` is given), found by counting, without the list; nil
    /// if there is none.
    fast get "trade_at" (m, c; gives: TableArg, takes: TableArg, within: Within, r: f64) {
        if !(0.0..1.0).contains(&r) {
            return Err(rt(format!("g:trade_at: r is {r}, not in [0, 1)")));
        }
        let mut trades = Trades::EMPTY;
        trades.read(m, c, "g:trade_at", &gives, &takes, &within)?;
        let count = trades.count();
        // As a variant's Lua would place it: a float product, floored.
        let place = ((r * count as f64).floor() as u64).min(count.saturating_sub(1));
        match trades.nth(place) {
            Some((g, t)) => trades.push(m, c, g, t),
            None => m.nil(),
        }
    }
    /// Cards in a zone: of one kind, or all of them.
    fast get "count" (m, c; owner: Option<i64>, zone: &str, kind: Option<&str>) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z, o));
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        let n = match kind {
            Some(k) => zn.count(card(c, k)?),
            None => zn.total(),
        };
        m.int(n as i64)
    }
    /// Whether a zone holds no card ("the development card deck is empty"). It reads
    /// that alone: a value kept with it (`g:cached`'s "recorded", a hook declared
    /// `when_changed`) stays good while cards come and go and the zone stays as empty,
    /// or as not empty, as it was.
    fast get "empty" (m, c; owner: Option<i64>, zone: &str) {
        let (o, z) = zone_ref(c, owner, zone)?;
        let empty = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?.total() == 0;
        c.read_empty(z, o, empty);
        m.bool(empty)
    }
    /// Holds the zone at least the cards of `cards` ({ ore = 2, brick = 1 })? Charged a
    /// unit per entry looked at; it stops at the first kind short.
    fast get "holds" (m, c; owner: Option<i64>, zone: &str, cards: CardCounts) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z, o));
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        let mut looked = 0u64;
        let mut holds = true;
        cards.each("g:holds", |k, n| {
            looked += 1;
            holds = zn.count(card(c, k)?) as i64 >= n;
            Ok(holds)
        })?;
        m.charge(looked)?;
        m.bool(holds)
    }
    /// How many cards of `cards` the zone lacks, and how many `cards` asks for in all
    /// (a price: the lacking ones are what a player still needs to pay it). Charged a
    /// unit per entry.
    fast get "lacks" (m, c; owner: Option<i64>, zone: &str, cards: CardCounts) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z, o));
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        let (mut looked, mut lacking, mut asked) = (0u64, 0i64, 0i64);
        cards.each("g:lacks", |k, n| {
            looked += 1;
            let held = zn.count(card(c, k)?) as i64;
            lacking = lacking.saturating_add(n.saturating_sub(held).max(0));
            asked = asked.saturating_add(n);
            Ok(true)
        })?;
        m.charge(looked)?;
        m.int(lacking)?;
        m.int(asked)
    }
    fast get "count_category" (m, c; owner: Option<i64>, zone: &str, cat: &str) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z, o));
        let zn = c.state.zone(o, z).ok_or_else(|| rt("no such zone"))?;
        let n: usize =
            c.spec.cards.iter().enumerate().filter(|(_, k)| k.category == cat).map(|(i, _)| zn.count(i)).sum();
        m.int(n as i64)
    }
    /// A zone's cards: { kind = count } for counts, the kinds bottom to top for a stack.
    fast get "cards" (m, c; owner: Option<i64>, zone: &str) {
        let (o, z) = zone_ref(c, owner, zone)?;
        c.read(part::zone(z, o));
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
        c.wrote(part::zone(z, o));
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
        c.wrote(part::zone(from.1, from.0));
        c.wrote(part::zone(dest.1, dest.0));
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
        c.wrote(part::zone(from.1, from.0));
        c.wrote(part::zone(dest.1, dest.0));
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
        c.wrote(part::zone(z, o));
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
