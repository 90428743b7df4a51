//! The `g` methods of resource production as a variant declares it (`Spec::production` and
//! each piece's `yields`; docs/modding.md, "Production"): `g:produce(number)` counts what
//! each player is owed and pays it under the shortage rule, in one call into the engine.
//! A variant that changes what a building yields (a `production` filter hook) has the
//! prelude count through its hooks (`__producing`, then `__pay_owed`). Declared once each
//! (`methods.rs`).

use super::api::{index, rt, seat, R};
use super::ctx::part;
use super::methods::{methods, Call};
use super::Ctx;
use crate::state::Zone;
use crate::value::Value;
use mlua::Table;

/// The declaration, or the error a variant without one gets.
fn declared(c: &Ctx) -> R<&crate::spec::Production> {
    c.spec.production.as_ref().ok_or_else(|| rt("this game declares no production (`production = { ... }`)"))
}

/// The hex the declaration's blocking marker (the robber) stands on, if any.
fn blocked_hex(c: &Ctx, prod: &crate::spec::Production) -> Option<usize> {
    prod.blocked_by.as_ref().and_then(|m| c.state.markers.get(m)).copied()
}

/// What production at `intersections` reads of the markers: whether the blocking marker
/// stands on a hex around them, not where it stands (nothing, with no blocking marker).
fn read_blocking(
    c: &Ctx,
    t: &crate::board::Topology,
    prod: &crate::spec::Production,
    intersections: impl IntoIterator<Item = usize>,
) {
    if prod.blocked_by.is_some() {
        c.read_markers_on(
            intersections
                .into_iter()
                .flat_map(|n| t.intersections.get(n).into_iter().flat_map(|i| i.hexes.iter().copied())),
        );
    }
}

/// Each (hex, card, piece) that produces on `number`, in hex order and then clockwise
/// around each hex: hexes of that number, not under the blocking marker, whose terrain
/// produces a card; pieces of a player that yield something.
fn each_producing(c: &Ctx, number: u8, mut f: impl FnMut(usize, usize, usize, usize, u32)) -> R<()> {
    let prod = declared(c)?;
    let t = super::api::topo(c)?;
    let blocked = blocked_hex(c, prod);
    for (h, hs) in c.state.hexes.iter().enumerate() {
        if hs.number != Some(number) || Some(h) == blocked {
            continue;
        }
        let Some(card) = c.spec.terrains.get(hs.terrain as usize).and_then(|t| t.produces) else { continue };
        for &corner in &t.hexes[h].corners {
            let Some(pc) = c.state.intersections[corner] else { continue };
            let (Some(seat), Some(kind)) = (pc.seat(), c.spec.pieces.get(pc.kind as usize)) else { continue };
            if kind.yields > 0 {
                f(h, card, pc.kind as usize, seat, kind.yields as u32);
            }
        }
    }
    Ok(())
}

/// What the bank pays of card `k` (in `Ctx::produced`): everyone's due when it holds enough
/// (`Paid::All`), what is left to the one player owed it under the shortage exception
/// (`Paid::Left`), or nothing (`Paid::None`); `Paid::Owed` when nobody is owed any.
#[derive(Clone, Copy, PartialEq)]
enum Paid {
    Owed,
    All,
    Left(usize, u32),
    None,
}

/// `paid` for card `k`, decided once per call for the first cards (`kept`).
fn paid_kept(c: &Ctx, k: usize, exception: bool, kept: &mut [Option<Paid>; 32]) -> Paid {
    match kept.get_mut(k) {
        Some(Some(p)) => *p,
        Some(slot) => *slot.insert(paid(c, k, exception)),
        None => paid(c, k, exception),
    }
}

fn paid(c: &Ctx, k: usize, exception: bool) -> Paid {
    let seats = c.state.players.len();
    let row = &c.produced[k * seats..(k + 1) * seats];
    let need: u32 = row.iter().sum();
    if need == 0 {
        return Paid::Owed;
    }
    let from = c.spec.production.as_ref().map_or(0, |p| p.from);
    let bank = c.state.zone(None, from).map_or(0, |z| z.count(k)) as u32;
    if need <= bank {
        return Paid::All;
    }
    let mut owed = row.iter().enumerate().filter(|(_, &n)| n > 0);
    match (owed.next(), owed.next(), exception) {
        (Some((seat, _)), None, true) => Paid::Left(seat, bank),
        _ => Paid::None,
    }
}

/// Pays what `Ctx::produced` says each seat is owed, under the shortage rule, and answers
/// `paid, short`: `paid[card][seat]`, the cards each seat received (a card the bank paid
/// nobody is absent), and `short[card]`, for each card the bank was short of, the seat
/// that took what was left (the shortage exception) or false (nobody received it).
fn pay<C: Call>(m: &mut C, c: &mut Ctx) -> R<()> {
    let prod = declared(c)?;
    let (from, to) = (prod.from, prod.to);
    let exception =
        prod.shortage_exception.as_ref().is_some_and(|o| matches!(c.state.options.get(o), Some(Value::Bool(true))));
    let seats = c.state.players.len();
    let cards = c.spec.cards.len();
    let mut kept = [None; 32];
    // Everything checked and the answers made (the allocations, which may raise) before
    // anything changes.
    let (mut npaid, mut nshort) = (0, 0);
    for k in 0..cards {
        match paid_kept(c, k, exception, &mut kept) {
            Paid::Owed => continue,
            Paid::All => {
                npaid += 1;
                for (s, &n) in c.produced[k * seats..(k + 1) * seats].iter().enumerate() {
                    let hand = c.state.zone(Some(s), to).ok_or_else(|| rt("no such zone"))?;
                    if n > 0 && hand.count(k) + n as usize > Zone::MAX {
                        return Err(rt(crate::state::ZoneFull.to_string()));
                    }
                }
            }
            Paid::Left(s, left) => {
                nshort += 1;
                let hand = c.state.zone(Some(s), to).ok_or_else(|| rt("no such zone"))?;
                if left > 0 {
                    npaid += 1;
                    if hand.count(k) + left as usize > Zone::MAX {
                        return Err(rt(crate::state::ZoneFull.to_string()));
                    }
                }
            }
            Paid::None => nshort += 1,
        }
    }
    m.charge((cards * seats) as u64)?;
    m.table(0, npaid)?;
    for k in 0..cards {
        let p = paid_kept(c, k, exception, &mut kept);
        let row = &c.produced[k * seats..(k + 1) * seats];
        match p {
            Paid::All => {
                m.str(&c.spec.cards[k].name)?;
                m.table(0, row.iter().filter(|&&n| n > 0).count())?;
                for (s, &n) in row.iter().enumerate() {
                    if n > 0 {
                        m.int(n as i64)?;
                        m.seti(s as i64 + 1)?;
                    }
                }
                m.rawset()?;
            }
            Paid::Left(s, left) if left > 0 => {
                m.str(&c.spec.cards[k].name)?;
                m.table(0, 1)?;
                m.int(left as i64)?;
                m.seti(s as i64 + 1)?;
                m.rawset()?;
            }
            _ => {}
        }
    }
    m.table(0, nshort)?;
    for k in 0..cards {
        match paid_kept(c, k, exception, &mut kept) {
            Paid::Left(s, _) => {
                m.str(&c.spec.cards[k].name)?;
                m.int(s as i64 + 1)?;
                m.rawset()?;
            }
            Paid::None => {
                m.str(&c.spec.cards[k].name)?;
                m.bool(false)?;
                m.rawset()?;
            }
            _ => {}
        }
    }
    m.commit(c)?;
    c.wrote(part::zone(from, None));
    for k in 0..cards {
        match paid_kept(c, k, exception, &mut kept) {
            Paid::All => {
                for s in 0..seats {
                    if c.produced[k * seats + s] > 0 {
                        c.wrote(part::zone(to, Some(s)));
                    }
                }
            }
            Paid::Left(s, left) if left > 0 => c.wrote(part::zone(to, Some(s))),
            _ => {}
        }
    }
    for k in 0..cards {
        match paid_kept(c, k, exception, &mut kept) {
            Paid::All => {
                for s in 0..seats {
                    let n = c.produced[k * seats + s] as usize;
                    if n > 0 {
                        move_cards(&mut c.state, from, s, to, k, n);
                    }
                }
            }
            Paid::Left(s, left) if left > 0 => move_cards(&mut c.state, from, s, to, k, left as usize),
            _ => {}
        }
    }
    Ok(())
}

/// Moves `n` cards of `k` from the game's zone `from` to seat `s`'s zone `to` (checked to fit).
fn move_cards(st: &mut crate::state::GameState, from: usize, s: usize, to: usize, k: usize, n: usize) {
    if let Some(z) = st.zone_mut(None, from) {
        z.remove(k, n);
    }
    if let Some(z) = st.zone_mut(Some(s), to) {
        let _ = z.add(k, n); // checked above
    }
}

/// What intersection `n` expects a roll for each card yielded once, by its hexes: calls
/// `f(card, chances)` for each hex around it whose terrain produces and that the blocking
/// marker does not stand on.
fn expected_at(c: &Ctx, t: &crate::board::Topology, blocked: Option<usize>, n: usize, mut f: impl FnMut(usize, u32)) {
    for &h in &t.intersections[n].hexes {
        if Some(h) == blocked {
            continue;
        }
        let Some(hs) = c.state.hexes.get(h) else { continue };
        let Some(card) = c.spec.terrains.get(hs.terrain as usize).and_then(|t| t.produces) else { continue };
        f(card, crate::board::chances(hs.number));
    }
}

/// Answers `total, by_card` for what `each(f)` expects (`f(card, chances)`): the sum, and
/// a table by card name of the cards expected at all. Summed on the stack (no memory held
/// while answering, as a C function's answers must be); a game of more kinds of card than
/// that sums the rest one kind at a time.
fn push_expected<C: Call>(m: &mut C, c: &Ctx, each: impl Fn(&mut dyn FnMut(usize, u32))) -> R<()> {
    const ON_STACK: usize = 64;
    let cards = c.spec.cards.len();
    let (mut total, mut sums) = (0, [0u32; ON_STACK]);
    each(&mut |card, x| {
        total += x;
        if let Some(n) = sums.get_mut(card) {
            *n += x;
        }
    });
    let of = |k: usize| {
        if let Some(n) = sums.get(k) {
            return *n;
        }
        let mut n = 0;
        each(&mut |card, x| {
            if card == k {
                n += x
            }
        });
        n
    };
    m.charge(cards as u64)?;
    m.int(i64::from(total))?;
    m.table(0, (0..cards).filter(|&k| of(k) > 0).count())?;
    for k in 0..cards {
        let n = of(k);
        if n > 0 {
            m.str(&c.spec.cards[k].name)?;
            m.int(i64::from(n))?;
            m.rawset()?;
        }
    }
    Ok(())
}

methods! {
    /// Production on `number` as the variant declares it: counted and paid by the engine;
    /// answers `paid, short` (see `pay`). Charged a unit a hex and one per card and seat.
    fast set "produce" (m, c; number: u8) {
        let seats = c.state.players.len();
        let cards = c.spec.cards.len();
        m.charge(c.state.hexes.len() as u64)?;
        let mut produced = std::mem::take(&mut c.produced);
        produced.clear();
        produced.resize(cards * seats, 0);
        let counted = each_producing(c, number, |_, card, _, seat, n| produced[card * seats + seat] += n);
        c.produced = produced;
        counted?;
        pay(m, c)
    }
    /// Seat p's expected production a roll, for the bots' evaluations: each of its pieces
    /// on an intersection yields (its declared `yields`) the chances in 36 that the dice
    /// roll the number of each hex around it, the hex under the blocking marker nothing.
    /// Answers the total and a table by card (`{ ore = 5, ... }`, cards expected only).
    fast get "expected_production" (m, c; p: i64) {
        let s = seat(c, p)?;
        let prod = declared(c)?;
        let blocked = blocked_hex(c, prod);
        let t = super::api::topo(c)?;
        c.read(part::intersections_of(Some(s)));
        m.charge(c.state.intersections.len() as u64 / 4)?;
        let yields = |n: usize| {
            let pc = c.state.intersections.get(n).copied().flatten()?;
            let y = c.spec.pieces.get(pc.kind as usize).map_or(0, |k| u32::from(k.yields));
            (pc.seat() == Some(s) && y > 0).then_some(y)
        };
        read_blocking(c, t, prod, (0..c.state.intersections.len()).filter(|&n| yields(n).is_some()));
        push_expected(m, c, |f| {
            for n in 0..c.state.intersections.len() {
                if let Some(y) = yields(n) {
                    expected_at(c, t, blocked, n, |card, x| f(card, y * x));
                }
            }
        })
    }
    /// The same for intersection n, as a piece yielding one would expect there (what a
    /// settlement built there would bring).
    fast get "expected_production_at" (m, c; n: i64) {
        let prod = declared(c)?;
        let blocked = blocked_hex(c, prod);
        let t = super::api::topo(c)?;
        let n = index(n, t.intersections.len(), "intersection")?;
        read_blocking(c, t, prod, [n]);
        push_expected(m, c, |f| expected_at(c, t, blocked, n, &mut *f))
    }
    /// What `produce` counts, for a variant whose `production` filter changes it: each
    /// producing piece as hex, card, piece, owner, yield, flat.
    slow get "__producing" (m, c; number: u8) {
        c.read_all_intersections();
        c.read(part::MARKERS);
        m.charge(c.state.hexes.len() as u64)?;
        let mut n = 0;
        each_producing(c, number, |_, _, _, _, _| n += 1)?;
        m.table(5 * n, 0)?;
        let mut i = 0;
        let mut out: Vec<(usize, usize, usize, usize, u32)> = Vec::with_capacity(n);
        each_producing(c, number, |h, card, kind, seat, y| out.push((h, card, kind, seat, y)))?;
        for (h, card, kind, seat, y) in out {
            m.int(h as i64 + 1)?;
            m.seti(i + 1)?;
            m.str(&c.spec.cards[card].name)?;
            m.seti(i + 2)?;
            m.str(&c.spec.pieces[kind].name)?;
            m.seti(i + 3)?;
            m.int(seat as i64 + 1)?;
            m.seti(i + 4)?;
            m.int(y as i64)?;
            m.seti(i + 5)?;
            i += 5;
        }
        Ok(())
    }
    /// Pays `owed[card][seat]` (what a variant's `production` filter counted) as `produce`
    /// pays what it counts.
    slow set "__pay_owed" (m, c; owed: Table) {
        let seats = c.state.players.len();
        let cards = c.spec.cards.len();
        let mut produced = vec![0u32; cards * seats];
        for pair in owed.pairs::<String, Table>() {
            let (card, per_seat) = pair?;
            let k = c.spec.card(&card).ok_or_else(|| rt(format!("production: '{card}' is not a card of this game")))?;
            for s in 0..seats {
                let n: Option<i64> = per_seat.raw_get(s as i64 + 1)?;
                let n = u32::try_from(n.unwrap_or(0)).map_err(|_| rt("production: a count is never negative"))?;
                produced[k * seats + s] += n;
            }
        }
        c.produced = produced;
        pay(m, c)
    }
}
