//! Fair play: the position as one seat may know it. Every card that seat cannot see (other
//! players' hands and hidden zones, draw stacks) is dealt again at random from the pool of
//! all such cards, keeping each zone's size and how many cards of each category it holds,
//! and the future dice are re-seeded. Two positions that differ only in what the seat cannot
//! see therefore give the same determinizations for the same random stream.

use crate::spec::{Spec, Visibility};
use crate::state::{GameState, Zone};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::sync::Arc;

/// May `seat` see which cards the zone `z` of `owner` (None: the game) holds? Seat None
/// is the referee forgetting only what no player may see (draw stacks): the future.
fn sees(spec: &Spec, z: usize, owner: Option<usize>, seat: Option<usize>) -> bool {
    match (spec.zones[z].visibility, seat) {
        (Visibility::Public, _) => true,
        (Visibility::Hidden, _) => false,
        // A `top` zone (a discard pile) shows one card: treated as hidden, the seat forgets it.
        (Visibility::Top, Some(_)) => false,
        (Visibility::Count | Visibility::Owner, Some(_)) => owner == seat,
        (Visibility::Top | Visibility::Count | Visibility::Owner, None) => true,
    }
}

/// The zones `seat` cannot see, in a fixed order: game zones, then each player's.
fn hidden_zones(spec: &Spec, players: usize, seat: Option<usize>, out: &mut Vec<(Option<usize>, usize)>) {
    out.clear();
    for z in 0..spec.zones.len() {
        if spec.zones[z].per_player {
            out.extend((0..players).filter(|&q| !sees(spec, z, Some(q), seat)).map(|q| (Some(q), z)));
        } else if !sees(spec, z, None, seat) {
            out.push((None, z));
        }
    }
}

/// Index of a card kind's category (cards of one category are interchangeable here).
fn categories(spec: &Spec) -> Vec<usize> {
    let mut names: Vec<&str> = vec![];
    spec.cards
        .iter()
        .map(|c| match names.iter().position(|n| *n == c.category) {
            Some(i) => i,
            None => {
                names.push(&c.category);
                names.len() - 1
            }
        })
        .collect()
}

/// What a determinization deals with, kept between calls on this thread (a bot deals one
/// for every playout): the categories of the spec it was made for (held, so that the
/// address cannot name another spec), and buffers that stop growing after the first deal.
#[derive(Default)]
struct Dealer {
    spec: Option<Arc<Spec>>,
    /// `categories` of `spec`, and how many there are.
    cat: Vec<usize>,
    ncat: usize,
    /// The zones the observer cannot see, for the observer and number of players in `view`.
    hidden: Vec<(Option<usize>, usize)>,
    view: Option<(Option<usize>, usize)>,
    /// Those of them holding cards in the state being dealt.
    zones: Vec<(Option<usize>, usize)>,
    /// The hidden cards of each kind.
    kinds: Vec<usize>,
    /// The pool: each category's cards one after the other, sorted, then shuffled; a
    /// category's cards start at `start[c]` (`start[ncat]`: the end) and `left[c]` of them
    /// remain to be dealt (from the end).
    pool: Vec<u16>,
    start: Vec<usize>,
    left: Vec<usize>,
    /// A zone's new content, before it is compared with the old.
    dealt: Vec<u16>,
    per_cat: Vec<usize>,
}

thread_local! {
    static DEALER: RefCell<Dealer> = RefCell::default();
}

/// A copy of `state` as `seat` might believe it to be: hidden cards re-dealt, the random
/// generator re-seeded from `rng`.
pub fn determinize(spec: &Arc<Spec>, state: &GameState, seat: usize, rng: &mut ChaCha8Rng) -> GameState {
    determinize_view(spec, state, Some(seat), rng)
}

/// `determinize` for any observer: a seat, or None for the referee, who keeps every hand
/// and forgets only the order of the cards nobody may see (`Game::fork`).
pub fn determinize_view(spec: &Arc<Spec>, state: &GameState, seat: Option<usize>, rng: &mut ChaCha8Rng) -> GameState {
    // The copy shares every part of `state` (`state::Shared`): only a zone dealt other
    // cards than it holds is written, so only those are copied.
    let mut st = state.clone();
    DEALER.with(|d| d.borrow_mut().deal(spec, &mut st, seat, rng));
    st.rng = ChaCha8Rng::seed_from_u64(rng.random());
    st
}

impl Dealer {
    fn deal(&mut self, spec: &Arc<Spec>, st: &mut GameState, seat: Option<usize>, rng: &mut ChaCha8Rng) {
        if !self.spec.as_ref().is_some_and(|s| Arc::ptr_eq(s, spec)) {
            self.cat = categories(spec);
            self.ncat = self.cat.iter().copied().max().map_or(0, |m| m + 1);
            self.spec = Some(spec.clone());
            self.view = None;
        }
        let players = st.players.len();
        if self.view != Some((seat, players)) {
            hidden_zones(spec, players, seat, &mut self.hidden);
            self.view = Some((seat, players));
        }
        let Dealer { cat, ncat, hidden, zones, kinds, pool, start, left, dealt, per_cat, .. } = self;
        let ncat = *ncat;
        // The pool per category in a canonical order (by kind), so only its content
        // matters: counted per kind, then laid out category by category. A zone that holds
        // no card is dealt none: it is left out.
        kinds.clear();
        kinds.resize(cat.len(), 0);
        zones.clear();
        for &(owner, z) in hidden.iter() {
            let held = match st.zone(owner, z) {
                // Most zones of a game with many kinds of card hold none: skipped at once.
                Some(Zone::Counts(c)) if c.iter().any(|&n| n > 0) => {
                    kinds.iter_mut().zip(c).for_each(|(slot, &n)| *slot += n as usize);
                    true
                }
                Some(Zone::Stack(s)) if !s.is_empty() => {
                    s.iter().for_each(|&k| kinds.get_mut(k as usize).into_iter().for_each(|slot| *slot += 1));
                    true
                }
                _ => false,
            };
            if held {
                zones.push((owner, z));
            }
        }
        // Laid out in one pass over the kinds: each category's cards from its start, by kind.
        start.clear();
        start.resize(ncat + 1, 0);
        for (&ci, &n) in cat.iter().zip(kinds.iter()) {
            start[ci + 1] += n;
        }
        for ci in 0..ncat {
            start[ci + 1] += start[ci];
        }
        pool.clear();
        pool.resize(start[ncat], 0);
        left.clear();
        left.resize(ncat, 0);
        for (k, (&ci, &n)) in cat.iter().zip(kinds.iter()).enumerate() {
            let at = start[ci] + left[ci];
            pool[at..at + n].fill(k as u16);
            left[ci] += n;
        }
        for ci in 0..ncat {
            pool[start[ci]..start[ci] + left[ci]].shuffle(rng);
        }
        // Each zone dealt from the end of its categories' cards, as many as it held.
        for &(owner, z) in zones.iter() {
            dealt.clear();
            match st.zone(owner, z) {
                Some(Zone::Counts(c)) => {
                    per_cat.clear();
                    per_cat.resize(ncat, 0);
                    for (&ci, &n) in cat.iter().zip(c) {
                        per_cat[ci] += n as usize;
                    }
                    dealt.resize(c.len(), 0);
                    for ci in 0..ncat {
                        let n = per_cat[ci].min(left[ci]);
                        left[ci] -= n;
                        let from = start[ci] + left[ci];
                        for &k in &pool[from..from + n] {
                            if let Some(slot) = dealt.get_mut(k as usize) {
                                *slot += 1;
                            }
                        }
                    }
                    if c[..] == dealt[..] {
                        continue;
                    }
                }
                Some(Zone::Stack(s)) => {
                    for &k in s {
                        let new = cat.get(k as usize).and_then(|&ci| pop(pool, start, left, ci));
                        dealt.push(new.unwrap_or(k));
                    }
                    if s[..] == dealt[..] {
                        continue;
                    }
                }
                None => continue,
            }
            // Dealt other cards than it holds: only now is the zone (and its owner) copied.
            if let Some(Zone::Counts(v) | Zone::Stack(v)) = st.zone_mut(owner, z) {
                v.clone_from(dealt);
            }
        }
    }
}

/// The next card of category `ci` in the pool, from the end of its cards.
fn pop(pool: &[u16], start: &[usize], left: &mut [usize], ci: usize) -> Option<u16> {
    let n = left.get_mut(ci)?;
    *n = n.checked_sub(1)?;
    pool.get(start[ci] + *n).copied()
}
