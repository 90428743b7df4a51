//! The `g` methods of the board: building it, hexes, intersections, paths and their
//! neighbours, labels, the spiral, markers and harbors.

use super::api::{
    card, charged, ctx, index, method, one_based, rt, seat, topo, writable, writable_sites, MAX_HEXES, MAX_MARKERS, R,
};
use super::{alloc, charge};
use crate::board::{self, Topology};
use crate::state::{Harbor, HexState};
use mlua::{Lua, Table, Value as LV};
use std::sync::Arc;

/// Installs the methods of the board on `g`.
pub(super) fn install(lua: &Lua, g: &Table) -> R<()> {
    // A new board replaces the old: its pieces go back to their owners' supplies and its
    // markers are lifted (they stood on hexes that may no longer exist).
    method!(lua, g, "build_board", |l, layout: Table| {
        let list = layout.get::<Table>("hexes")?;
        let n = list.raw_len();
        if n > MAX_HEXES {
            return Err(rt(format!("a board of {n} hexes is larger than the engine allows ({MAX_HEXES})")));
        }
        charge(l, n as u64 * 200)?;
        alloc(l, n * 4096)?;
        let mut c = writable_sites(l)?;
        let mut coords = vec![];
        let mut hexes = vec![];
        for h in list.sequence_values::<Table>() {
            let h = h?;
            coords.push((h.get::<i32>("q")?, h.get::<i32>("r")?));
            let terrain: String = h.get("terrain")?;
            let t = c.spec.terrain(&terrain).ok_or_else(|| rt(format!("'{terrain}' is not a terrain of this game")))?;
            hexes.push(HexState { terrain: t as u8, number: h.get::<Option<u8>>("number")? });
        }
        let topo = Topology::from_axial(&coords).map_err(|e| rt(e.0))?;
        let mut harbors = vec![];
        if let Some(list) = layout.get::<Option<Table>>("harbors")? {
            for hb in list.sequence_values::<Table>() {
                let hb = hb?;
                let hex = index(hb.get("hex")?, topo.hexes.len(), "hex")?;
                let side: String = hb.get("side")?;
                let i = board::SIDES
                    .iter()
                    .position(|s| s.eq_ignore_ascii_case(&side))
                    .ok_or_else(|| rt(format!("'{side}' is not a hex side (NE, E, SE, SW, W, NW)")))?;
                let resource: Option<String> = hb.get("resource")?;
                if let Some(r) = &resource {
                    card(&c, r)?;
                }
                harbors.push(Harbor { path: topo.hexes[hex].sides[i], resource, ratio: hb.get("ratio")? });
            }
        }
        let st = &mut c.state;
        for pc in st.intersections.iter().chain(st.paths.iter()).flatten() {
            if let Some(s) = pc.seat() {
                st.players[s].supply[pc.kind as usize] = st.players[s].supply[pc.kind as usize].saturating_add(1);
            }
        }
        st.markers.clear();
        c.state.intersections = vec![None; topo.intersections.len()];
        c.state.paths = vec![None; topo.paths.len()];
        c.state.hexes = hexes;
        c.state.harbors = Arc::new(harbors);
        c.state.topology = Some(Arc::new(topo));
        Ok(())
    });
    method!(lua, g, "hex_count", |l, _a: ()| { Ok(ctx(l)?.state.hexes.len()) });
    method!(lua, g, "intersection_count", |l, _a: ()| { Ok(ctx(l)?.state.intersections.len()) });
    method!(lua, g, "path_count", |l, _a: ()| { Ok(ctx(l)?.state.paths.len()) });
    method!(lua, g, "hex", |l, h: i64| {
        let c = ctx(l)?;
        let i = index(h, c.state.hexes.len(), "hex")?;
        let hs = &c.state.hexes[i];
        Ok((c.spec.terrains[hs.terrain as usize].name.clone(), hs.number))
    });
    method!(lua, g, "hex_resource", |l, h: i64| {
        let c = ctx(l)?;
        let i = index(h, c.state.hexes.len(), "hex")?;
        Ok(c.spec.terrains[c.state.hexes[i].terrain as usize].produces.map(|k| c.spec.cards[k].name.clone()))
    });
    method!(lua, g, "set_hex", |l, (h, terrain, number): (i64, String, Option<u8>)| {
        let mut c = writable(l)?;
        let i = index(h, c.state.hexes.len(), "hex")?;
        let t = c.spec.terrain(&terrain).ok_or_else(|| rt(format!("'{terrain}' is not a terrain of this game")))?;
        c.state.hexes[i] = HexState { terrain: t as u8, number };
        Ok(())
    });
    method!(lua, g, "hexes_numbered", |l, n: u8| {
        let c = ctx(l)?;
        charge(l, c.state.hexes.len() as u64)?;
        Ok(c.state
            .hexes
            .iter()
            .enumerate()
            .filter(|(_, h)| h.number == Some(n))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>())
    });
    method!(lua, g, "corners", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        Ok(one_based(&t.hexes[i].corners))
    });
    method!(lua, g, "hex_neighbors", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        Ok(one_based(&t.hexes[i].neighbors))
    });
    method!(lua, g, "hexes_at", |l, n: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(n, t.intersections.len(), "intersection")?;
        Ok(one_based(&t.intersections[i].hexes))
    });
    method!(lua, g, "neighbors", |l, n: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(n, t.intersections.len(), "intersection")?;
        Ok(one_based(&t.intersections[i].neighbors))
    });
    method!(lua, g, "paths_at", |l, n: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(n, t.intersections.len(), "intersection")?;
        Ok(one_based(&t.intersections[i].paths))
    });
    method!(lua, g, "ends", |l, p: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(p, t.paths.len(), "path")?;
        let [a, b] = t.paths[i].ends;
        Ok((a + 1, b + 1))
    });
    method!(lua, g, "label", |l, (kind, id): (String, i64)| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        Ok(match kind.as_str() {
            "hex" => t.hexes[index(id, t.hexes.len(), "hex")?].label.clone(),
            "intersection" => t.intersections[index(id, t.intersections.len(), "intersection")?].label.clone(),
            "path" => t.paths[index(id, t.paths.len(), "path")?].label.clone(),
            _ => return Err(rt("label kinds are hex, intersection and path")),
        })
    });
    method!(lua, g, "spiral", |l, start: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(start, t.hexes.len(), "hex")?;
        charge(l, t.hexes.len() as u64 * 4)?;
        charged(l, t.spiral(i).into_iter().map(|h| h + 1).collect::<Vec<_>>())
    });
    method!(lua, g, "marker", |l, name: String| { Ok(ctx(l)?.state.markers.get(&name).map(|h| h + 1)) });
    method!(lua, g, "set_marker", |l, (name, h): (String, Option<i64>)| {
        let mut c = writable(l)?;
        match h {
            Some(h) => {
                let i = index(h, c.state.hexes.len(), "hex")?;
                if c.state.markers.len() >= MAX_MARKERS && !c.state.markers.contains_key(&name) {
                    return Err(rt(format!("a board carries at most {MAX_MARKERS} markers")));
                }
                c.state.markers.insert(name, i);
            }
            None => {
                c.state.markers.remove(&name);
            }
        }
        Ok(())
    });
    method!(lua, g, "harbors", |l, _a: ()| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        charge(l, c.state.harbors.len() as u64 * 8)?;
        let out = l.create_table()?;
        for (i, h) in c.state.harbors.iter().enumerate() {
            let e = l.create_table()?;
            e.raw_set("path", h.path + 1)?;
            let [a, b] = t.paths[h.path].ends;
            e.raw_set("ends", vec![a + 1, b + 1])?;
            e.raw_set("resource", h.resource.clone())?;
            e.raw_set("ratio", h.ratio)?;
            out.raw_set(i + 1, e)?;
        }
        Ok(out)
    });
    // Harbors touching an intersection where the player has a piece.
    method!(lua, g, "harbors_of", |l, p: i64| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let t = topo(&c)?;
        charge(l, c.state.harbors.len() as u64 * 2)?;
        let out = l.create_table()?;
        let mut n = 0;
        for h in c.state.harbors.iter() {
            let [a, b] = t.paths[h.path].ends;
            let mine = |x: usize| c.state.intersections[x].is_some_and(|pc| pc.owner as usize == s);
            if mine(a) || mine(b) {
                let e = l.create_table()?;
                e.raw_set("resource", h.resource.clone())?;
                e.raw_set("ratio", h.ratio)?;
                n += 1;
                out.raw_set(n, e)?;
            }
        }
        Ok(out)
    });
    Ok(())
}
