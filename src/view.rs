//! Views: what one observer may see of a game, as JSON. Hidden zones show only their
//! size to those not allowed to see them; the referee sees everything.

use crate::engine::{Game, Observer};
use crate::spec::Visibility;
use crate::state::Zone;
use serde_json::{json, Map, Value as J};

fn zone_json(game: &Game, zone: &Zone, visible: bool) -> J {
    let spec = game.spec();
    if !visible {
        return json!({ "count": zone.total() });
    }
    zone_cards(spec, zone)
}

fn zone_cards(spec: &crate::spec::Spec, zone: &Zone) -> J {
    match zone {
        Zone::Counts(c) => {
            let mut m = Map::new();
            for (i, n) in c.iter().enumerate() {
                if *n > 0 {
                    m.insert(spec.cards[i].name.clone(), json!(n));
                }
            }
            J::Object(m)
        }
        Zone::Stack(s) => J::Array(s.iter().map(|k| json!(spec.cards[*k as usize].name)).collect()),
    }
}

/// A zone as `obs` sees it: whole, its top card and size (`top`), or its size.
fn zone_view(game: &Game, zone: &Zone, vis: Visibility, owner: Option<usize>, obs: Observer) -> J {
    if vis == Visibility::Top && obs != Observer::Referee {
        let top = match zone {
            Zone::Stack(s) => s.last().map(|k| json!(game.spec().cards[*k as usize].name)),
            Zone::Counts(_) => None,
        };
        return json!({ "count": zone.total(), "top": top.unwrap_or(J::Null) });
    }
    zone_json(game, zone, can_see(vis, owner, obs))
}

/// Whether `obs` sees which cards a zone of visibility `vis` owned by `owner` holds.
pub fn can_see(vis: Visibility, owner: Option<usize>, obs: Observer) -> bool {
    match (obs, vis) {
        (Observer::Referee, _) => true,
        (_, Visibility::Public) => true,
        (_, Visibility::Hidden | Visibility::Top) => false,
        (Observer::Seat(s), Visibility::Count | Visibility::Owner) => owner == Some(s),
        (Observer::Spectator, _) => false,
    }
}

/// The game as `obs` may see it.
pub fn view(game: &Game, obs: Observer) -> J {
    view_with(game, obs, true)
}

/// The view, with its `board` null unless `board` (the Python package builds the board
/// itself from the parts that never change, kept once: most of the view's cost).
pub fn view_with(game: &Game, obs: Observer, board: bool) -> J {
    let spec = game.spec().clone();
    let st = game.state().clone();
    let label = |kind: &str, i: usize| -> String {
        st.topology
            .as_ref()
            .and_then(|t| match kind {
                "hex" => t.hexes.get(i).map(|h| h.label.clone()),
                "path" => t.paths.get(i).map(|p| p.label.clone()),
                _ => t.intersections.get(i).map(|n| n.label.clone()),
            })
            .unwrap_or_default()
    };
    let piece = |p: &Option<crate::state::Piece>| -> J {
        match p {
            Some(p) => {
                let owner = p.seat().and_then(|s| st.players.get(s)).map(|pl| pl.color.clone());
                json!({ "kind": spec.pieces[p.kind as usize].name, "owner": owner })
            }
            None => J::Null,
        }
    };
    let board = match &st.topology {
        Some(t) if board => json!({
            "hexes": t.hexes.iter().enumerate().map(|(i, h)| json!({
                "label": h.label, "q": h.q, "r": h.r,
                "terrain": spec.terrains[st.hexes[i].terrain as usize].name,
                "number": st.hexes[i].number,
                "corners": h.corners.iter().map(|c| label("intersection", *c)).collect::<Vec<_>>(),
                "neighbors": h.neighbors.iter().map(|n| label("hex", *n)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "intersections": t.intersections.iter().enumerate().map(|(i, n)| json!({
                "label": n.label,
                "hexes": n.hexes.iter().map(|h| label("hex", *h)).collect::<Vec<_>>(),
                "neighbors": n.neighbors.iter().map(|m| label("intersection", *m)).collect::<Vec<_>>(),
                "paths": n.paths.iter().map(|p| label("path", *p)).collect::<Vec<_>>(),
                "piece": piece(&st.intersections[i]),
            })).collect::<Vec<_>>(),
            "paths": t.paths.iter().enumerate().map(|(i, p)| json!({
                "label": p.label,
                "ends": p.ends.iter().map(|e| label("intersection", *e)).collect::<Vec<_>>(),
                "piece": piece(&st.paths[i]),
            })).collect::<Vec<_>>(),
            "harbors": st.harbors.iter().map(|h| json!({
                "path": label("path", h.path), "resource": h.resource, "ratio": h.ratio,
            })).collect::<Vec<_>>(),
            "markers": st.markers.iter().map(|(k, v)| (k.clone(), json!(label("hex", *v)))).collect::<Map<_, _>>(),
        }),
        _ => J::Null,
    };
    // Slot grids lie face up: every observer sees them whole.
    let grids: Vec<J> = st
        .grids
        .iter()
        .map(|grid| {
            json!({
                "name": spec.grids.get(grid.spec).map(|g| g.name.clone()),
                "owner": grid.owner.and_then(|o| st.players.get(o).map(|p| p.color.clone())),
                "rows": grid.rows,
                "cols": grid.cols,
                "slots": grid.slots.iter().map(|s| json!({
                    "label": grid.label(s.row as usize, s.col as usize),
                    "row": s.row + 1,
                    "col": s.col + 1,
                    "cards": s.cards.iter().map(|k| spec.cards[*k as usize].name.clone()).collect::<Vec<_>>(),
                    "store": s.store,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut zones = Map::new();
    for (z, zs) in spec.zones.iter().enumerate() {
        if !zs.per_player {
            zones.insert(zs.name.clone(), zone_view(game, &st.zones[z], zs.visibility, None, obs));
        }
    }
    let players: Vec<J> = st
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut pz = Map::new();
            for (z, zs) in spec.zones.iter().enumerate() {
                if zs.per_player {
                    pz.insert(zs.name.clone(), zone_view(game, &p.zones[z], zs.visibility, Some(i), obs));
                }
            }
            let sees_hidden = matches!(obs, Observer::Referee) || obs == Observer::Seat(i);
            json!({
                "seat": i + 1,
                "color": p.color,
                "name": p.name,
                "points": game.points(i, sees_hidden).ok(),
                "public_points": game.points(i, false).ok(),
                "zones": pz,
                "supply": spec.pieces.iter().enumerate().map(|(k, pk)| (pk.name.clone(), json!(p.supply[k]))).collect::<Map<_, _>>(),
                "vars": p.vars,
                "info": game.describe(i).ok(),
            })
        })
        .collect();
    let observer = match obs {
        Observer::Seat(s) => json!(st.players.get(s).map(|p| p.color.clone())),
        Observer::Spectator => json!("spectator"),
        Observer::Referee => json!("referee"),
    };
    json!({
        "observer": observer,
        "variants": spec.variants,
        "options": st.options,
        "phase": st.phase,
        "turn": st.turn,
        "current": st.players.get(st.current).map(|p| p.color.clone()),
        "to_act": game.to_act().ok().and_then(|s| st.players.get(s).map(|p| p.color.clone())),
        "winner": st.winner.and_then(|w| st.players.get(w).map(|p| p.color.clone())),
        "board": board,
        "grids": grids,
        "zones": zones,
        "players": players,
        "vars": st.vars,
        "rng": if matches!(obs, Observer::Referee) { serde_json::to_value(&st.rng).unwrap_or(J::Null) } else { J::Null },
    })
}
