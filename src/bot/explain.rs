//! Why a choice is good, in a player's terms (`hint`): the position after the action
//! compared with the position before, feature by feature (`features.rs`: points, cards,
//! pieces, production by pips, harbors, trails, open sites, slot grids, the variant's named
//! features), worded from the names the variant declares (its zones' titles, its cards and
//! pieces, its `feature_titles`). Nothing here knows a particular game. From the seat's
//! view: the cards it cannot see are dealt again first, and an action with a random outcome
//! is told by how many cards it brings, not which.

use super::determinize::determinize;
use super::features::FeatureSpace;
use super::position_value;
use crate::action::Action;
use crate::engine::{Game, GameError};
use crate::spec::SiteKind;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What an action changes, worded for the seat that takes it.
#[derive(Debug, Clone, Default)]
pub struct Reasons {
    /// The seat's own gains and costs.
    pub gains: Vec<String>,
    /// What it changes for the other seats (what it blocks or takes).
    pub others: Vec<String>,
    /// The seat's win chance by the evaluation, before and after.
    pub chance: Option<(f64, f64)>,
}

/// `+1`, `-2`, `+0.5`: a change as a player reads it.
fn signed(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{:+}", x.round() as i64)
    } else {
        format!("{x:+.2}")
    }
}

/// A value as a player reads it: whole numbers without decimals.
fn plain(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.2}")
    }
}

fn changed(b: f64, a: f64) -> bool {
    (a - b).abs() > 1e-9
}

/// The reasons for `action` by `seat`, on a determinization of its view seeded by `seed`;
/// the game is left as it was. An action the rules refuse there has no reasons.
pub fn explain(game: &mut Game, seat: usize, action: &Action, seed: u64) -> Result<Reasons, GameError> {
    let root = game.snapshot();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let det = root.with_state(determinize(game.spec(), root.state(), seat, &mut rng));
    game.restore(&det);
    let result = compare(game, seat, action);
    game.restore(&root);
    result
}

fn compare(game: &mut Game, seat: usize, action: &Action) -> Result<Reasons, GameError> {
    let space = FeatureSpace::of(game);
    let before = space.extract(game)?;
    let value_before = position_value(game)?;
    if game.perform(seat, action).is_err() {
        return Ok(Reasons::default());
    }
    // Cards drawn at random in a dealt-again position say nothing of the real draw.
    let random = game.log().last().is_some_and(|e| e.drew());
    let after = space.extract(game)?;
    let value_after = position_value(game)?;
    let spec = game.spec().clone();
    let at = |row: &[f64], name: &str| space.index(name).and_then(|i| row.get(i).copied()).unwrap_or(0.0);
    let mut reasons = Reasons::default();
    let players = game.header().players;
    for s in 0..players {
        let (b, a) = (&before.generic[s], &after.generic[s]);
        let own = s == seat;
        let mut words = vec![];
        if own && random {
            words.push("its outcome is drawn at random".to_string());
        }
        let (pb, pa) = (at(b, "points"), at(a, "points"));
        if changed(pb, pa) {
            let n = pa - pb;
            words.push(format!("{} victory point{}", signed(n), if n.abs() == 1.0 { "" } else { "s" }));
        }
        // Pieces on the board, and the pips of the dice their intersections collect, by kind
        // of piece (what a piece of each kind yields is the variant's rule).
        let mut pieces = vec![];
        let mut production = vec![];
        for p in &spec.pieces {
            let (nb, na) = (at(b, &format!("pieces.{}", p.name)), at(a, &format!("pieces.{}", p.name)));
            if own && changed(nb, na) {
                pieces.push(format!("{} {}", signed(na - nb), p.name));
            }
            if p.site != SiteKind::Intersection {
                continue;
            }
            let key = format!("production.{}", p.name);
            let (xb, xa) = (at(b, &key), at(a, &key));
            if !changed(xb, xa) {
                continue;
            }
            let by: Vec<String> = spec
                .cards
                .iter()
                .filter_map(|c| {
                    let k = format!("production.{}.{}", p.name, c.name);
                    let (cb, ca) = (at(b, &k), at(a, &k));
                    changed(cb, ca).then(|| format!("{} {}", c.name, signed(ca - cb)))
                })
                .collect();
            let by = if own && !by.is_empty() { format!(" ({})", by.join(", ")) } else { String::new() };
            production.push(format!("of {}s {}{by}", p.name, signed(xa - xb)));
        }
        if !pieces.is_empty() {
            words.push(format!("on the board {}", pieces.join(", ")));
        }
        if !production.is_empty() {
            words.push(format!("production in pips (chances in 36 a roll) {}", production.join("; ")));
        }
        let mut from_to = |name: &str, title: String, only_own: bool| {
            let (x, y) = (at(b, name), at(a, name));
            if changed(x, y) && (own || !only_own) {
                words.push(format!("{title} {} -> {}", plain(x), plain(y)));
            }
        };
        from_to("production.kinds", "kinds of resource produced".into(), true);
        from_to("harbors", "harbors".into(), true);
        for p in spec.pieces.iter().filter(|p| p.site == SiteKind::Path) {
            from_to(&format!("trail.{}", p.name), format!("longest {} trail", p.name), false);
        }
        from_to("sites.open", "open building sites".into(), false);
        // Cards: which ones for the seat itself when nothing was drawn at random, else how
        // many (what the others hold is counted only, as the table sees it).
        for (z, zone) in spec.zones.iter().enumerate().filter(|(_, z)| z.per_player) {
            let total = format!("{}.total", zone.name);
            let (tb, ta) = (at(b, &total), at(a, &total));
            if own && !random {
                let kinds: Vec<String> = spec
                    .cards
                    .iter()
                    .filter_map(|c| {
                        let k = format!("{}.{}", zone.name, c.name);
                        let (cb, ca) = (at(b, &k), at(a, &k));
                        changed(cb, ca).then(|| format!("{} {}", signed(ca - cb), c.name))
                    })
                    .collect();
                if !kinds.is_empty() {
                    words.push(format!("{} {}", spec.zones[z].title, kinds.join(", ")));
                }
            } else if changed(tb, ta) {
                words.push(format!("{} {} -> {}", spec.zones[z].title, plain(tb), plain(ta)));
            }
        }
        if own && !random {
            for c in &spec.cards {
                for (key, place) in [(format!("slots.{}", c.name), "in play"), (format!("stored.{}", c.name), "stored")]
                {
                    let (x, y) = (at(b, &key), at(a, &key));
                    if changed(x, y) {
                        words.push(format!("{place} {} {}", signed(y - x), c.name));
                    }
                }
            }
        }
        if own {
            // The variant's named features, in the words it declares for them.
            for (name, title) in &spec.feature_titles {
                let get = |f: &super::features::Features| f.named.get(s).and_then(|m| m.get(name)).copied();
                if let (Some(x), Some(y)) = (get(&before), get(&after)) {
                    if changed(x, y) {
                        words.push(format!("{title} {} -> {}", plain(x), plain(y)));
                    }
                }
            }
            reasons.gains = words;
        } else if !words.is_empty() {
            let name = game.state().players.get(s).map(|p| p.color.clone()).unwrap_or_default();
            reasons.others.push(format!("{name}: {}", words.join(", ")));
        }
    }
    reasons.chance = Some((value_before[seat], value_after[seat]));
    Ok(reasons)
}
