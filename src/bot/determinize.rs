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
fn hidden_zones(spec: &Spec, players: usize, seat: Option<usize>) -> Vec<(Option<usize>, usize)> {
    let mut out = vec![];
    for z in 0..spec.zones.len() {
        if spec.zones[z].per_player {
            out.extend((0..players).filter(|&q| !sees(spec, z, Some(q), seat)).map(|q| (Some(q), z)));
        } else if !sees(spec, z, None, seat) {
            out.push((None, z));
        }
    }
    out
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

/// A copy of `state` as `seat` might believe it to be: hidden cards re-dealt, the random
/// generator re-seeded from `rng`.
pub fn determinize(spec: &Spec, state: &GameState, seat: usize, rng: &mut ChaCha8Rng) -> GameState {
    determinize_view(spec, state, Some(seat), rng)
}

/// `determinize` for any observer: a seat, or None for the referee, who keeps every hand
/// and forgets only the order of the cards nobody may see (`Game::fork`).
pub fn determinize_view(spec: &Spec, state: &GameState, seat: Option<usize>, rng: &mut ChaCha8Rng) -> GameState {
    let mut st = state.clone();
    let cat = categories(spec);
    let ncat = cat.iter().copied().max().map_or(0, |m| m + 1);
    let zones = hidden_zones(spec, st.players.len(), seat);
    // The pool per category, in a canonical order so only its content matters.
    let mut pool: Vec<Vec<u16>> = vec![vec![]; ncat];
    for &(owner, z) in &zones {
        if let Some(zone) = st.zone(owner, z) {
            match zone {
                Zone::Counts(c) => {
                    for (k, &n) in c.iter().enumerate() {
                        pool[cat[k]].extend(std::iter::repeat_n(k as u16, n as usize));
                    }
                }
                Zone::Stack(s) => s.iter().for_each(|&k| pool[cat[k as usize]].push(k)),
            }
        }
    }
    for p in &mut pool {
        p.sort_unstable();
        p.shuffle(rng);
    }
    for &(owner, z) in &zones {
        let Some(zone) = st.zone_mut(owner, z) else { continue };
        match zone {
            Zone::Counts(c) => {
                let mut per_cat = vec![0usize; ncat];
                for (k, n) in c.iter_mut().enumerate() {
                    per_cat[cat[k]] += *n as usize;
                    *n = 0;
                }
                for (ci, n) in per_cat.into_iter().enumerate() {
                    for _ in 0..n {
                        if let Some(k) = pool[ci].pop() {
                            c[k as usize] += 1;
                        }
                    }
                }
            }
            Zone::Stack(s) => {
                for k in s.iter_mut() {
                    if let Some(new) = pool[cat[*k as usize]].pop() {
                        *k = new;
                    }
                }
            }
        }
    }
    st.rng = ChaCha8Rng::seed_from_u64(rng.random());
    st
}
