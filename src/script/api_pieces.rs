//! The `g` methods of pieces: what stands on a site, supplies, placing, upgrading and
//! removing, counts, the pieces around a hex, open sites and the longest trail.

use super::api::{charged, ctx, index, method, piece_kind, rt, seat, site_kind, topo, trail_length, writable_sites, R};
use super::charge;
use crate::spec::SiteKind;
use crate::state::Piece;
use mlua::{Lua, Table, Value as LV};

/// Installs the methods of pieces on `g`.
pub(super) fn install(lua: &Lua, g: &Table) -> R<()> {
    method!(lua, g, "at", |l, (site, id): (String, i64)| {
        let c = ctx(l)?;
        let sk = site_kind(&site)?;
        let sites = c.state.sites(sk);
        let i = index(id, sites.len(), &site)?;
        Ok(match sites[i] {
            Some(pc) => (Some(c.spec.pieces[pc.kind as usize].name.clone()), pc.seat().map(|s| s + 1)),
            None => (None, None),
        })
    });
    method!(lua, g, "supply", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        Ok(c.state.players[s].supply[k])
    });
    // `p` nil: a piece of no player (a blocker), taken from no supply.
    method!(lua, g, "place", |l, (p, kind, id): (Option<i64>, String, i64)| {
        let mut c = writable_sites(l)?;
        let s = match p {
            Some(p) => Some(seat(&c, p)?),
            None => None,
        };
        let k = piece_kind(&c, &kind)?;
        let sk = c.spec.pieces[k].site;
        let len = c.state.sites(sk).len();
        let i = index(id, len, if sk == SiteKind::Path { "path" } else { "intersection" })?;
        if c.state.sites(sk)[i].is_some() {
            return Err(rt(format!(
                "that {} is already taken",
                if sk == SiteKind::Path { "path" } else { "intersection" }
            )));
        }
        if let Some(s) = s {
            if c.state.players[s].supply[k] == 0 {
                return Err(rt(format!("no {kind} left in the supply")));
            }
            c.state.players[s].supply[k] -= 1;
        }
        let piece = Some(Piece { kind: k as u8, owner: s.map_or(Piece::NO_OWNER, |s| s as u8) });
        match sk {
            SiteKind::Intersection => c.state.intersections[i] = piece,
            SiteKind::Path => c.state.paths[i] = piece,
        }
        Ok(())
    });
    // Replaces the piece on a site with another kind of the same owner; the old piece
    // goes back to its owner's supply.
    method!(lua, g, "upgrade", |l, (id, kind): (i64, String)| {
        let mut c = writable_sites(l)?;
        let k = piece_kind(&c, &kind)?;
        let sk = c.spec.pieces[k].site;
        let len = c.state.sites(sk).len();
        let i = index(id, len, "site")?;
        let old = c.state.sites(sk)[i].ok_or_else(|| rt("there is no piece there to upgrade"))?;
        if let Some(s) = old.seat() {
            if c.state.players[s].supply[k] == 0 {
                return Err(rt(format!("no {kind} left in the supply")));
            }
            c.state.players[s].supply[k] -= 1;
            c.state.players[s].supply[old.kind as usize] += 1;
        }
        let piece = Some(Piece { kind: k as u8, owner: old.owner });
        match sk {
            SiteKind::Intersection => c.state.intersections[i] = piece,
            SiteKind::Path => c.state.paths[i] = piece,
        }
        Ok(())
    });
    method!(lua, g, "remove_piece", |l, (site, id): (String, i64)| {
        let mut c = writable_sites(l)?;
        let sk = site_kind(&site)?;
        let len = c.state.sites(sk).len();
        let i = index(id, len, &site)?;
        let slot = match sk {
            SiteKind::Intersection => &mut c.state.intersections[i],
            SiteKind::Path => &mut c.state.paths[i],
        };
        let pc = slot.take().ok_or_else(|| rt("there is no piece there"))?;
        if let Some(s) = pc.seat() {
            c.state.players[s].supply[pc.kind as usize] += 1;
        }
        Ok(())
    });
    method!(lua, g, "pieces_of", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        let sites = c.state.sites(c.spec.pieces[k].site);
        charge(l, sites.len() as u64 / 4)?;
        Ok(sites
            .iter()
            .enumerate()
            .filter(|(_, pc)| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>())
    });
    method!(lua, g, "piece_count", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        let sites = c.state.sites(c.spec.pieces[k].site);
        charge(l, sites.len() as u64 / 4)?;
        Ok(sites.iter().filter(|pc| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k)).count())
    });
    // The pieces on the corners of the hex, clockwise from the top, flat: intersection,
    // kind, owner (false: no player's), ... One call where production asked `corners` and
    // then `at` for each corner.
    method!(lua, g, "corner_pieces", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        let mut out = Vec::new();
        for &n in &t.hexes[i].corners {
            if let Some(pc) = c.state.intersections[n] {
                out.push(mlua::Value::Integer(n as i64 + 1));
                out.push(mlua::Value::String(l.create_string(&c.spec.pieces[pc.kind as usize].name)?));
                out.push(pc.seat().map_or(mlua::Value::Boolean(false), |s| mlua::Value::Integer(s as i64 + 1)));
            }
        }
        Ok(out)
    });
    // Seats with a piece on a corner of the hex, in seat order.
    method!(lua, g, "owners_at", |l, h: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        let mut seats: Vec<usize> = t.hexes[i]
            .corners
            .iter()
            .filter_map(|&n| c.state.intersections[n].and_then(|pc| pc.seat()).map(|s| s + 1))
            .collect();
        seats.sort_unstable();
        seats.dedup();
        Ok(seats)
    });
    // Empty intersections with no piece closer than `spacing` paths; with `p`, only those
    // touching one of p's path pieces.
    method!(lua, g, "open_intersections", |l, (spacing, p): (u32, Option<i64>)| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let owner = match p {
            Some(p) => Some(seat(&c, p)?),
            None => None,
        };
        charge(l, t.intersections.len() as u64)?;
        let st = &c.state;
        let mut out = vec![];
        for (i, info) in t.intersections.iter().enumerate() {
            if st.intersections[i].is_some() {
                continue;
            }
            if spacing >= 2 && info.neighbors.iter().any(|&n| st.intersections[n].is_some()) {
                continue;
            }
            if let Some(s) = owner {
                if !info.paths.iter().any(|&pp| st.paths[pp].is_some_and(|pc| pc.owner as usize == s)) {
                    continue;
                }
            }
            out.push(i + 1);
        }
        charged(l, out)
    });
    // Empty paths that extend p's network: one end holds p's piece, or one end touches
    // p's path piece and holds no other player's piece.
    method!(lua, g, "open_paths", |l, p: i64| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let s = seat(&c, p)?;
        charge(l, t.paths.len() as u64 * 2)?;
        let st = &c.state;
        let reaches = |n: usize| match st.intersections[n] {
            Some(pc) => pc.owner as usize == s,
            None => t.intersections[n].paths.iter().any(|&pp| st.paths[pp].is_some_and(|pc| pc.owner as usize == s)),
        };
        let open = t
            .paths
            .iter()
            .enumerate()
            .filter(|(i, info)| st.paths[*i].is_none() && (reaches(info.ends[0]) || reaches(info.ends[1])))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>();
        charged(l, open)
    });
    // Longest trail of p's pieces of a kind, broken by other players' intersection pieces.
    method!(lua, g, "longest_trail", |l, (p, kind): (i64, String)| {
        let c = ctx(l)?;
        let t = topo(&c)?;
        let s = seat(&c, p)?;
        let k = piece_kind(&c, &kind)?;
        charge(l, t.paths.len() as u64 * 4)?;
        Ok(trail_length(&c, t, s, k))
    });
    Ok(())
}
