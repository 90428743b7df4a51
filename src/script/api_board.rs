//! The `g` methods of the board: building it, hexes, intersections, paths and their
//! neighbours, labels, the spiral, markers and harbors. Declared once each (`methods.rs`).

use super::api::{card, index, rt, seat, topo, MAX_HEXES, MAX_MARKERS};
use super::ctx::part;
use super::methods::methods;
use crate::board::{self, Topology};
use crate::state::{Harbor, HexState};
use mlua::Table;
use std::sync::Arc;

methods! {
    /// A new board replaces the old: its pieces go back to their owners' supplies and its
    /// markers are lifted (they stood on hexes that may no longer exist).
    slow set "build_board" (m, c; layout: Table) {
        let list = layout.get::<Table>("hexes")?;
        let n = list.raw_len();
        if n > MAX_HEXES {
            return Err(rt(format!("a board of {n} hexes is larger than the engine allows ({MAX_HEXES})")));
        }
        m.charge(n as u64 * 200)?;
        m.alloc(n * 4096)?;
        let mut coords = vec![];
        let mut hexes = vec![];
        for h in list.sequence_values::<Table>() {
            let h = h?;
            coords.push((h.get::<i32>("q")?, h.get::<i32>("r")?));
            let terrain: String = h.get("terrain")?;
            let t = c.spec.terrain(&terrain).ok_or_else(|| rt(format!("'{terrain}' is not a terrain of this game")))?;
            hexes.push(HexState { terrain: t as u8, number: h.get::<Option<u8>>("number")? });
        }
        // The same hexes make the same board: the last one built is shared (its charge above
        // is the same either way).
        let same = |t: &&Arc<Topology>| {
            t.hexes.len() == coords.len() && t.hexes.iter().zip(&coords).all(|(h, &(q, r))| h.q == q && h.r == r)
        };
        let topo = match c.built_board.as_ref().filter(same) {
            Some(t) => t.clone(),
            None => Arc::new(Topology::from_axial(&coords).map_err(|e| rt(e.0))?),
        };
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
                    card(c, r)?;
                }
                harbors.push(Harbor { path: topo.hexes[hex].sides[i], resource, ratio: hb.get("ratio")? });
            }
        }
        m.commit(c)?;
        c.sites_stamp = c.version;
        let st = &mut c.state;
        for pc in st.intersections.iter().chain(st.paths.iter()).flatten() {
            if let Some(s) = pc.seat() {
                st.players[s].supply[pc.kind as usize] = st.players[s].supply[pc.kind as usize].saturating_add(1);
            }
        }
        st.markers.clear();
        c.state.intersections = vec![None; topo.intersections.len()].into();
        c.state.paths = vec![None; topo.paths.len()].into();
        c.state.hexes = hexes.into();
        c.state.harbors = Arc::new(harbors);
        c.built_board = Some(topo.clone());
        c.state.topology = Some(topo);
        Ok(())
    }
    fast get "hex_count" (m, c) {
        c.read_constant();
        m.int(c.state.hexes.len() as i64)
    }
    slow get "intersection_count" (m, c) {
        c.read_constant();
        m.int(c.state.intersections.len() as i64)
    }
    slow get "path_count" (m, c) {
        c.read_constant();
        m.int(c.state.paths.len() as i64)
    }
    /// A hex's terrain and number token (nil without one).
    fast get "hex" (m, c; h: i64) {
        c.read_constant();
        let hs = &c.state.hexes[index(h, c.state.hexes.len(), "hex")?];
        m.str(&c.spec.terrains[hs.terrain as usize].name)?;
        m.opt_int(hs.number.map(i64::from))
    }
    fast get "hex_resource" (m, c; h: i64) {
        c.read_constant();
        let hs = &c.state.hexes[index(h, c.state.hexes.len(), "hex")?];
        m.opt_str(c.spec.terrains[hs.terrain as usize].produces.map(|k| c.spec.cards[k].name.as_str()))
    }
    slow set "set_hex" (m, c; h: i64, terrain: &str, number: Option<u8>) {
        let i = index(h, c.state.hexes.len(), "hex")?;
        let t = c.spec.terrain(terrain).ok_or_else(|| rt(format!("'{terrain}' is not a terrain of this game")))?;
        m.commit(c)?;
        c.state.hexes[i] = HexState { terrain: t as u8, number };
        Ok(())
    }
    /// The hexes with number token `n`, charged as a scan of the board.
    fast get "hexes_numbered" (m, c; n: u8) {
        c.read_constant();
        m.charge(c.state.hexes.len() as u64)?;
        // Counted first, so that the list is made at its size (not grown entry by entry).
        let found = c.state.hexes.iter().filter(|h| h.number == Some(n)).count();
        m.table(found, 0)?;
        let mut k = 0;
        for (i, h) in c.state.hexes.iter().enumerate() {
            if h.number == Some(n) {
                k += 1;
                m.int(i as i64 + 1)?;
                m.seti(k)?;
            }
        }
        Ok(())
    }
    fast get "corners" (m, c; h: i64) {
        c.read_constant();
        let t = topo(c)?;
        m.ids(&t.hexes[index(h, t.hexes.len(), "hex")?].corners)
    }
    fast get "hex_neighbors" (m, c; h: i64) {
        c.read_constant();
        let t = topo(c)?;
        m.ids(&t.hexes[index(h, t.hexes.len(), "hex")?].neighbors)
    }
    fast get "hexes_at" (m, c; n: i64) {
        c.read_constant();
        let t = topo(c)?;
        m.ids(&t.intersections[index(n, t.intersections.len(), "intersection")?].hexes)
    }
    slow get "neighbors" (m, c; n: i64) {
        c.read_constant();
        let t = topo(c)?;
        m.ids(&t.intersections[index(n, t.intersections.len(), "intersection")?].neighbors)
    }
    slow get "paths_at" (m, c; n: i64) {
        c.read_constant();
        let t = topo(c)?;
        m.ids(&t.intersections[index(n, t.intersections.len(), "intersection")?].paths)
    }
    slow get "ends" (m, c; p: i64) {
        c.read_constant();
        let t = topo(c)?;
        let [a, b] = t.paths[index(p, t.paths.len(), "path")?].ends;
        m.int(a as i64 + 1)?;
        m.int(b as i64 + 1)
    }
    slow get "label" (m, c; kind: &str, id: i64) {
        c.read_constant();
        let t = topo(c)?;
        m.str(match kind {
            "hex" => &t.hexes[index(id, t.hexes.len(), "hex")?].label,
            "intersection" => &t.intersections[index(id, t.intersections.len(), "intersection")?].label,
            "path" => &t.paths[index(id, t.paths.len(), "path")?].label,
            _ => return Err(rt("label kinds are hex, intersection and path")),
        })
    }
    slow get "spiral" (m, c; start: i64) {
        c.read_constant();
        let t = topo(c)?;
        let i = index(start, t.hexes.len(), "hex")?;
        m.charge(t.hexes.len() as u64 * 4)?;
        let spiral = t.spiral(i);
        m.charge(spiral.len() as u64 * 16)?;
        m.ids(&spiral)
    }
    fast get "marker" (m, c; name: &str) {
        c.read(part::MARKERS);
        m.opt_int(c.state.markers.get(name).map(|h| *h as i64 + 1))
    }
    slow set "set_marker" (m, c; name: &str, h: Option<i64>) {
        match h {
            Some(h) => {
                let i = index(h, c.state.hexes.len(), "hex")?;
                if c.state.markers.len() >= MAX_MARKERS && !c.state.markers.contains_key(name) {
                    return Err(rt(format!("a board carries at most {MAX_MARKERS} markers")));
                }
                m.commit(c)?;
                c.wrote(part::MARKERS);
                c.state.markers.insert(name.to_string(), i);
            }
            None => {
                m.commit(c)?;
                c.wrote(part::MARKERS);
                c.state.markers.remove(name);
            }
        }
        Ok(())
    }
    /// Every harbor: { path, ends = { a, b }, resource = kind or nil, ratio }.
    slow get "harbors" (m, c) {
        c.read_constant();
        let t = topo(c)?;
        m.charge(c.state.harbors.len() as u64 * 8)?;
        m.table(0, 0)?;
        for (i, h) in c.state.harbors.iter().enumerate() {
            m.table(0, 0)?;
            m.int(h.path as i64 + 1)?;
            m.setfield(c"path")?;
            m.ids(&t.paths[h.path].ends)?;
            m.setfield(c"ends")?;
            if let Some(r) = &h.resource {
                m.str(r)?;
                m.setfield(c"resource")?;
            }
            m.int(h.ratio as i64)?;
            m.setfield(c"ratio")?;
            m.seti(i as i64 + 1)?;
        }
        Ok(())
    }
    /// { resource = kind or nil, ratio = n } for each harbor seat p builds on (a piece of
    /// theirs on one of its path's ends).
    fast get "harbors_of" (m, c; p: i64) {
        let s = seat(c, p)?;
        c.read(part::intersections_of(Some(s)));
        let t = topo(c)?;
        m.charge(c.state.harbors.len() as u64 * 2)?;
        let mine = |x: usize| c.state.intersections[x].is_some_and(|pc| pc.owner as usize == s);
        m.table(0, 0)?;
        let mut n = 0;
        for h in c.state.harbors.iter() {
            let [a, b] = t.paths[h.path].ends;
            if mine(a) || mine(b) {
                m.table(0, 2)?;
                if let Some(r) = &h.resource {
                    m.str(r)?;
                    m.setfield(c"resource")?;
                }
                m.int(h.ratio as i64)?;
                m.setfield(c"ratio")?;
                n += 1;
                m.seti(n)?;
            }
        }
        Ok(())
    }
}
