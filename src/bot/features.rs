//! Generic features of a position, per seat, read by Rust from what any variant declares:
//! victory points, cards by zone and kind, pieces on the board, expected production where
//! the board has numbered hexes, harbors, the longest trail, open building sites by the
//! seat's paths, cards and stores in slot grids; plus the named numbers a variant adds
//! through its `features` filter. Production a marker (a robber) blocks counts for nothing
//! and is no feature of its own: markers go to the leader, so a fit would learn that being
//! blocked is good. A tuned evaluation (`weights.rs`) is a weighted sum of
//! them, and `catan tune` learns the weights. Nothing here knows a particular game: a
//! feature that no position of a variant ever moves gets no weight.

use crate::engine::{Game, GameError};
use crate::spec::SiteKind;
use crate::state::{GameState, Zone};
use std::collections::BTreeMap;

/// The names of the generic features of a variant's spec, fixed once it is loaded, in a
/// stable order (the order of the spec's declarations).
#[derive(Debug, Clone)]
pub struct FeatureSpace {
    pub names: Vec<String>,
    index: BTreeMap<String, usize>,
    /// Where each feature of a kind is, looked up once: `[zone][card]`, `[zone]`,
    /// `[piece]`, `[piece][card]`, `[card]`.
    zone_card: Vec<Vec<Option<usize>>>,
    /// `[zone][card]`: the feature of the card's group in that zone (`dev.victory.all`),
    /// where its category holds more than one kind.
    zone_group: Vec<Vec<Option<usize>>>,
    zone_total: Vec<Option<usize>>,
    piece: Vec<Option<usize>>,
    production: Vec<Option<usize>>,
    production_of: Vec<Vec<Option<usize>>>,
    slot_card: Vec<Option<usize>>,
    stored_card: Vec<Option<usize>>,
    /// The card kinds some terrain produces, found once.
    resources: Vec<usize>,
    /// Where the board's single features are: `production.kinds`, `production.least`,
    /// `harbors`, `harbors.matched`, `sites.open`, `sites.best`, `slots.cards`,
    /// `slots.stored`; and `trail.PIECE` by piece.
    singles: [Option<usize>; 8],
    trail: Vec<Option<usize>>,
}

impl FeatureSpace {
    pub fn of(game: &Game) -> FeatureSpace {
        let spec = game.spec();
        let mut names = vec!["points".to_string()];
        for z in spec.zones.iter().filter(|z| z.per_player) {
            names.push(format!("{}.total", z.name));
            for c in &spec.cards {
                names.push(format!("{}.{}", z.name, c.name));
            }
            for g in groups(spec) {
                names.push(format!("{}.{g}.all", z.name));
            }
        }
        for p in &spec.pieces {
            names.push(format!("pieces.{}", p.name));
        }
        let resources = produced(game);
        for p in spec.pieces.iter().filter(|p| p.site == SiteKind::Intersection) {
            names.push(format!("production.{}", p.name));
            for &r in &resources {
                names.push(format!("production.{}.{}", p.name, spec.cards[r].name));
            }
        }
        if !resources.is_empty() {
            names.push("production.kinds".into());
            names.push("production.least".into());
        }
        names.push("harbors".into());
        names.push("harbors.matched".into());
        for p in spec.pieces.iter().filter(|p| p.site == SiteKind::Path) {
            names.push(format!("trail.{}", p.name));
        }
        names.push("sites.open".into());
        names.push("sites.best".into());
        if !spec.grids.is_empty() {
            names.push("slots.cards".into());
            names.push("slots.stored".into());
            for c in &spec.cards {
                names.push(format!("slots.{}", c.name));
                names.push(format!("stored.{}", c.name));
            }
        }
        let index: BTreeMap<String, usize> = names.iter().enumerate().map(|(i, n)| (n.clone(), i)).collect();
        let at = |n: String| index.get(&n).copied();
        let zone_card = spec
            .zones
            .iter()
            .map(|z| spec.cards.iter().map(|c| at(format!("{}.{}", z.name, c.name))).collect())
            .collect();
        let zone_group = spec
            .zones
            .iter()
            .map(|z| spec.cards.iter().map(|c| at(format!("{}.{}.all", z.name, c.category))).collect())
            .collect();
        let zone_total = spec.zones.iter().map(|z| at(format!("{}.total", z.name))).collect();
        let piece = spec.pieces.iter().map(|p| at(format!("pieces.{}", p.name))).collect();
        let production = spec.pieces.iter().map(|p| at(format!("production.{}", p.name))).collect();
        let production_of = spec
            .pieces
            .iter()
            .map(|p| spec.cards.iter().map(|c| at(format!("production.{}.{}", p.name, c.name))).collect())
            .collect();
        let slot_card = spec.cards.iter().map(|c| at(format!("slots.{}", c.name))).collect();
        let singles = [
            "production.kinds",
            "production.least",
            "harbors",
            "harbors.matched",
            "sites.open",
            "sites.best",
            "slots.cards",
            "slots.stored",
        ]
        .map(|n| at(n.to_string()));
        let trail = spec.pieces.iter().map(|p| at(format!("trail.{}", p.name))).collect();
        let stored_card = spec.cards.iter().map(|c| at(format!("stored.{}", c.name))).collect();
        FeatureSpace {
            names,
            index,
            zone_card,
            zone_group,
            zone_total,
            piece,
            production,
            production_of,
            slot_card,
            stored_card,
            resources,
            singles,
            trail,
        }
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The generic features of every seat (`[seat][feature]`), and the variant's named ones
    /// (the `features` filter) by name.
    pub fn extract(&self, game: &Game) -> Result<Features, GameError> {
        let points = (0..game.header().players)
            .map(|s| Ok(game.points(s, true)? as f64))
            .collect::<Result<Vec<_>, GameError>>()?;
        let generic = self.with_points(game, &points);
        let named = game.named_features()?;
        Ok(Features { generic, named })
    }

    /// The generic features of every seat, the referee's, with each seat's victory points
    /// (hidden ones included) given: what a tuned evaluation reads beside `Script::terms`.
    /// Each seat's row is kept by the engine while nothing it reads changes
    /// (`Ctx::kept_features`): a bot's search changes a seat or two at each position.
    pub fn with_points(&self, game: &Game, points: &[f64]) -> Vec<Vec<f64>> {
        let st = game.state();
        (0..game.header().players)
            .map(|s| {
                let mut row = game.kept_features(s, self.names.len(), |row| self.fill_seat(game, &st, s, row));
                if let Some(&p) = points.get(s) {
                    row[0] = p;
                }
                row
            })
            .collect()
    }

    /// The generic features of every seat as `seat` may know them (None: the referee, who
    /// sees everything): another seat's points without its hidden ones, and its cards in a
    /// zone `seat` cannot look into counted only (each kind's column 0, the zone's total
    /// kept). On a seat's fork (`Game::fork`) the referee's features are that seat's guess.
    /// No call into the rules but the points: what a bot written outside the engine reads
    /// at every leaf (the Python package's `Game.features`).
    pub fn generic(&self, game: &Game, seat: Option<usize>) -> Result<Vec<Vec<f64>>, GameError> {
        let points = (0..game.header().players)
            .map(|s| Ok(game.points(s, seat.is_none_or(|me| me == s))? as f64))
            .collect::<Result<Vec<_>, GameError>>()?;
        let mut generic = self.with_points(game, &points);
        if let Some(me) = seat {
            let spec = game.spec();
            let obs = crate::engine::Observer::Seat(me);
            for (s, row) in generic.iter_mut().enumerate() {
                for (z, zs) in spec.zones.iter().enumerate().filter(|(_, z)| z.per_player) {
                    if !crate::view::can_see(zs.visibility, Some(s), obs) {
                        for i in self.zone_card[z].iter().chain(&self.zone_group[z]).flatten() {
                            row[*i] = 0.0;
                        }
                    }
                }
            }
        }
        Ok(generic)
    }

    /// Seat `s`'s generic features but its points, into `row` (zeros).
    fn fill_seat(&self, game: &Game, st: &GameState, s: usize, row: &mut [f64]) {
        let spec = game.spec();
        let [kinds_at, least_at, harbors_at, matched_at, open_at, best_at, slots_cards, slots_stored] = self.singles;
        if let Some(player) = st.players.get(s) {
            for (z, _) in spec.zones.iter().enumerate().filter(|(_, z)| z.per_player) {
                let Some(zone) = player.zones.get(z) else { continue };
                if let Some(i) = self.zone_total[z] {
                    row[i] = zone.total() as f64;
                }
                let (cards, groups) = (&self.zone_card[z], &self.zone_group[z]);
                let mut add = |k: usize, n: f64| {
                    if let Some(Some(i)) = cards.get(k) {
                        row[*i] += n;
                    }
                    if let Some(Some(i)) = groups.get(k) {
                        row[*i] += n;
                    }
                };
                match &**zone {
                    Zone::Counts(c) => {
                        // Most kinds are held by none: adding their zeros changes nothing.
                        for (k, &n) in c.iter().enumerate().filter(|(_, &n)| n != 0) {
                            add(k, n as f64);
                        }
                    }
                    Zone::Stack(stack) => {
                        for &k in stack {
                            add(k as usize, 1.0);
                        }
                    }
                }
            }
        }
        // Pieces, production and harbors from the board.
        if let Some(topo) = st.topology.as_deref() {
            let markers: Vec<usize> = st.markers.values().copied().collect();
            let blocked = |h: usize| markers.contains(&h);
            let hex_yield = |h: usize| -> Option<(usize, f64)> {
                let hs = st.hexes.get(h)?;
                let r = spec.terrains.get(hs.terrain as usize)?.produces?;
                Some((r, f64::from(crate::board::chances(hs.number))))
            };
            let mut by_resource = vec![0.0; spec.cards.len()];
            for (n, piece) in st.intersections.iter().enumerate() {
                let Some(piece) = piece.filter(|p| p.seat() == Some(s)) else { continue };
                let kind = piece.kind as usize;
                if let Some(Some(i)) = self.piece.get(kind) {
                    row[*i] += 1.0;
                }
                let mut total = 0.0;
                for &h in &topo.intersections[n].hexes {
                    let Some((r, p)) = hex_yield(h) else { continue };
                    if blocked(h) {
                        continue;
                    }
                    total += p;
                    by_resource[r] += p;
                    if let Some(Some(i)) = self.production_of.get(kind).and_then(|v| v.get(r)) {
                        row[*i] += p;
                    }
                }
                if let Some(Some(i)) = self.production.get(kind) {
                    row[*i] += total;
                }
            }
            let resources = &self.resources;
            if !resources.is_empty() {
                let got = resources.iter().map(|&r| by_resource[r]);
                if let Some(i) = kinds_at {
                    row[i] = got.clone().filter(|&x| x > 0.0).count() as f64;
                }
                if let Some(i) = least_at {
                    row[i] = got.fold(f64::INFINITY, f64::min);
                }
            }
            for h in st.harbors.iter() {
                let [a, b] = topo.paths[h.path].ends;
                let owner = [a, b].iter().find_map(|&n| st.intersections[n].and_then(|p| p.seat()));
                if owner != Some(s) {
                    continue;
                }
                if let Some(i) = harbors_at {
                    row[i] += 1.0;
                }
                let matched = h
                    .resource
                    .as_deref()
                    .and_then(|r| spec.cards.iter().position(|c| c.name == r))
                    .map_or(0.0, |r| by_resource[r]);
                if let Some(i) = matched_at {
                    row[i] += matched;
                }
            }
            // The longest trail of each kind of path piece, and open building sites: free
            // intersections with no piece beside them at the end of one of the seat's paths.
            for (k, _) in spec.pieces.iter().enumerate().filter(|(_, p)| p.site == SiteKind::Path) {
                let Some(i) = self.trail.get(k).copied().flatten() else { continue };
                // As the rules' `g:longest_trail` finds it, kept by the engine per seat and
                // kind: most positions a bot weighs changed no one's roads.
                row[i] = game.trail_length(s, k) as f64;
            }
            let free = |n: usize| {
                st.intersections[n].is_none()
                    && topo.intersections[n].neighbors.iter().all(|&m| st.intersections[m].is_none())
            };
            // The seat's path pieces, and the open sites at their ends.
            let mut seen = vec![false; topo.intersections.len()];
            let (mut count, mut top) = (0.0, 0.0f64);
            for (p, piece) in st.paths.iter().enumerate() {
                let Some(piece) = piece.filter(|x| x.seat() == Some(s)) else { continue };
                if let Some(Some(i)) = self.piece.get(piece.kind as usize) {
                    row[*i] += 1.0;
                }
                if open_at.is_some() || best_at.is_some() {
                    for &n in &topo.paths[p].ends {
                        if seen[n] || !free(n) {
                            continue;
                        }
                        seen[n] = true;
                        count += 1.0;
                        let sum: f64 =
                            topo.intersections[n].hexes.iter().filter_map(|&h| hex_yield(h)).map(|(_, p)| p).sum();
                        top = top.max(sum);
                    }
                }
            }
            if let Some(i) = open_at {
                row[i] = count;
            }
            if let Some(i) = best_at {
                row[i] = top;
            }
        }
        // Slot grids: the cards on top of the seat's slots by kind, and what their stores hold.
        for grid in st.grids.iter().filter(|g| g.owner == Some(s)) {
            for slot in &grid.slots {
                let Some(&top) = slot.cards.last() else { continue };
                let stored = slot.store as f64;
                for (i, v) in [
                    (slots_cards, 1.0),
                    (self.slot_card.get(top as usize).copied().flatten(), 1.0),
                    (slots_stored, stored),
                    (self.stored_card.get(top as usize).copied().flatten(), stored),
                ] {
                    if let Some(i) = i {
                        row[i] += v;
                    }
                }
            }
        }
    }
}

/// The card categories that hold more than one kind, in the order of their first card:
/// one feature per zone counts them together (five victory point cards under five names
/// are one card to the rules, and a fit that sees only the names weighs each apart).
fn groups(spec: &crate::spec::Spec) -> Vec<&str> {
    let mut out: Vec<&str> = vec![];
    for c in &spec.cards {
        let cat = c.category.as_str();
        if !cat.is_empty() && !out.contains(&cat) && spec.cards.iter().filter(|d| d.category == cat).count() > 1 {
            out.push(cat);
        }
    }
    out
}

/// The card kinds some terrain of the variant produces, in the spec's order.
fn produced(game: &Game) -> Vec<usize> {
    let mut out: Vec<usize> = game.spec().terrains.iter().filter_map(|t| t.produces).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The features of every seat in one position.
#[derive(Debug, Clone, Default)]
pub struct Features {
    /// `[seat][feature]`, in the order of `FeatureSpace::names`.
    pub generic: Vec<Vec<f64>>,
    /// The variant's named features (its `features` filter), `[seat]` by name.
    pub named: Vec<BTreeMap<String, f64>>,
}
