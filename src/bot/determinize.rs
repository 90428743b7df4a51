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
    zones: Vec<(Option<usize>, usize)>,
    /// The hidden cards of each kind.
    kinds: Vec<usize>,
    /// The pool: each category's cards one after the other, sorted, then shuffled; a
    /// category's cards start at `start[c]` and `left[c]` of them remain to be dealt (from
    /// the end).
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
        }
        let (cat, ncat) = (&self.cat, self.ncat);
        hidden_zones(spec, st.players.len(), seat, &mut self.zones);
        // The pool per category in a canonical order (by kind), so only its content
        // matters: counted per kind, then laid out category by category. A zone that holds
        // no card is dealt none: it is left out.
        self.kinds.clear();
        self.kinds.resize(cat.len(), 0);
        let kinds = &mut self.kinds;
        self.zones.retain(|&(owner, z)| match st.zone(owner, z) {
            Some(Zone::Counts(c)) => {
                let mut any = false;
                for (k, &n) in c.iter().enumerate().filter(|(_, &n)| n > 0) {
                    kinds[k] += n as usize;
                    any = true;
                }
                any
            }
            Some(Zone::Stack(s)) => {
                s.iter().for_each(|&k| kinds[k as usize] += 1);
                !s.is_empty()
            }
            None => false,
        });
        self.pool.clear();
        self.start.clear();
        self.left.clear();
        for ci in 0..ncat {
            let from = self.pool.len();
            for (k, &n) in self.kinds.iter().enumerate() {
                if n > 0 && cat[k] == ci {
                    self.pool.resize(self.pool.len() + n, k as u16);
                }
            }
            self.pool[from..].shuffle(rng);
            self.start.push(from);
            self.left.push(self.pool.len() - from);
        }
        for i in 0..self.zones.len() {
            let (owner, z) = self.zones[i];
            self.dealt.clear();
            match st.zone(owner, z) {
                Some(Zone::Counts(c)) => {
                    self.per_cat.clear();
                    self.per_cat.resize(ncat, 0);
                    for (k, &n) in c.iter().enumerate().filter(|(_, &n)| n > 0) {
                        self.per_cat[cat[k]] += n as usize;
                    }
                    self.dealt.resize(c.len(), 0);
                    for ci in 0..ncat {
                        for _ in 0..self.per_cat[ci] {
                            let k = pop(&self.pool, &self.start, &mut self.left, ci);
                            if let Some(n) = k.and_then(|k| self.dealt.get_mut(k as usize)) {
                                *n += 1;
                            }
                        }
                    }
                    if c[..] == self.dealt[..] {
                        continue;
                    }
                }
                Some(Zone::Stack(s)) => {
                    for &k in s {
                        let new = pop(&self.pool, &self.start, &mut self.left, cat[k as usize]).unwrap_or(k);
                        self.dealt.push(new);
                    }
                    if s[..] == self.dealt[..] {
                        continue;
                    }
                }
                None => continue,
            }
            // Dealt other cards than it holds: only now is the zone (and its owner) copied.
            if let Some(Zone::Counts(v) | Zone::Stack(v)) = st.zone_mut(owner, z) {
                v.clone_from(&self.dealt);
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
