//! The `g` methods of pieces: what stands on a site, supplies, placing, upgrading and
//! removing, counts, the pieces around a hex, open sites and the longest trail. Declared
//! once each (`methods.rs`).

use super::api::{index, piece_kind, rt, seat, site_kind, topo, trail_length};
use super::ctx::part;
use super::methods::methods;
use crate::spec::SiteKind;
use crate::state::Piece;

/// A site kind's name, as errors say it.
fn site_name(sk: SiteKind) -> &'static str {
    if sk == SiteKind::Path {
        "path"
    } else {
        "intersection"
    }
}

methods! {
    /// The piece on a site and its owner (nil, nil on an empty site; a nil owner for a
    /// piece of no player).
    fast get "at" (m, c; site: &str, id: i64) {
        let sk = site_kind(site)?;
        match sk {
            SiteKind::Intersection => c.read_all_intersections(),
            SiteKind::Path => c.read_all_paths(),
        }
        let sites = c.state.sites(sk);
        match sites[index(id, sites.len(), site)?] {
            Some(pc) => {
                m.str(&c.spec.pieces[pc.kind as usize].name)?;
                m.opt_int(pc.seat().map(|s| s as i64 + 1))
            }
            None => {
                m.nil()?;
                m.nil()
            }
        }
    }
    fast get "supply" (m, c; p: i64, kind: &str) {
        let s = seat(c, p)?;
        let k = piece_kind(c, kind)?;
        c.read(part::piece(k, Some(s)));
        m.int(c.state.players[s].supply[k] as i64)
    }
    /// `p` nil: a piece of no player (a blocker), taken from no supply.
    slow set "place" (m, c; p: Option<i64>, kind: &str, id: i64) {
        let s = match p {
            Some(p) => Some(seat(c, p)?),
            None => None,
        };
        let k = piece_kind(c, kind)?;
        let sk = c.spec.pieces[k].site;
        let i = index(id, c.state.sites(sk).len(), site_name(sk))?;
        if c.state.sites(sk)[i].is_some() {
            return Err(rt(format!("that {} is already taken", site_name(sk))));
        }
        if s.is_some_and(|s| c.state.players[s].supply[k] == 0) {
            return Err(rt(format!("no {kind} left in the supply")));
        }
        m.commit(c)?;
        c.wrote_piece(sk, k, s, true);
        if let Some(s) = s {
            c.state.players[s].supply[k] -= 1;
        }
        let piece = Some(Piece { kind: k as u8, owner: s.map_or(Piece::NO_OWNER, |s| s as u8) });
        match sk {
            SiteKind::Intersection => c.state.intersections[i] = piece,
            SiteKind::Path => c.state.paths[i] = piece,
        }
        Ok(())
    }
    /// Replaces the piece on a site with another kind of the same owner; the old piece
    /// goes back to its owner's supply.
    slow set "upgrade" (m, c; id: i64, kind: &str) {
        let k = piece_kind(c, kind)?;
        let sk = c.spec.pieces[k].site;
        let i = index(id, c.state.sites(sk).len(), "site")?;
        let old = c.state.sites(sk)[i].ok_or_else(|| rt("there is no piece there to upgrade"))?;
        if old.seat().is_some_and(|s| c.state.players[s].supply[k] == 0) {
            return Err(rt(format!("no {kind} left in the supply")));
        }
        m.commit(c)?;
        // The site stays taken, by the same owner.
        c.wrote_piece(sk, k, old.seat(), false);
        c.wrote_piece(c.spec.pieces[old.kind as usize].site, old.kind as usize, old.seat(), false);
        if let Some(s) = old.seat() {
            c.state.players[s].supply[k] -= 1;
            c.state.players[s].supply[old.kind as usize] += 1;
        }
        let piece = Some(Piece { kind: k as u8, owner: old.owner });
        match sk {
            SiteKind::Intersection => c.state.intersections[i] = piece,
            SiteKind::Path => c.state.paths[i] = piece,
        }
        Ok(())
    }
    slow set "remove_piece" (m, c; site: &str, id: i64) {
        let sk = site_kind(site)?;
        let i = index(id, c.state.sites(sk).len(), site)?;
        let pc = c.state.sites(sk)[i].ok_or_else(|| rt("there is no piece there"))?;
        m.commit(c)?;
        c.wrote_piece(sk, pc.kind as usize, pc.seat(), true);
        match sk {
            SiteKind::Intersection => c.state.intersections[i] = None,
            SiteKind::Path => c.state.paths[i] = None,
        }
        if let Some(s) = pc.seat() {
            c.state.players[s].supply[pc.kind as usize] += 1;
        }
        Ok(())
    }
    fast get "pieces_of" (m, c; p: i64, kind: &str) {
        let s = seat(c, p)?;
        let k = piece_kind(c, kind)?;
        c.read(part::piece(k, Some(s)));
        let sites = c.state.sites(c.spec.pieces[k].site);
        m.charge(sites.len() as u64 / 4)?;
        let mine = |i: usize| sites[i].is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k);
        let count = (0..sites.len()).filter(|&i| mine(i)).count();
        m.ids_where(sites.len(), count, mine)
    }
    /// Seat p's pieces of a kind on the board, from the kept counts (`Ctx::pieces_on`),
    /// charged as the scan of the sites they stand for.
    fast get "piece_count" (m, c; p: i64, kind: &str) {
        let s = seat(c, p)?;
        let k = piece_kind(c, kind)?;
        c.read(part::piece(k, Some(s)));
        let site = c.spec.pieces[k].site;
        let sites = c.state.sites(site);
        m.charge(sites.len() as u64 / 4)?;
        let n = c.pieces_on(site, s, k);
        debug_assert_eq!(
            n,
            sites.iter().filter(|pc| pc.is_some_and(|pc| pc.owner as usize == s && pc.kind as usize == k)).count(),
            "kept piece counts are stale: a write to the sites did not stamp `sites_stamp`"
        );
        m.int(n as i64)
    }
    /// The pieces on the corners of the hex, clockwise from the top, flat: intersection,
    /// kind, owner (false: no player's), ... One call where production asked `corners` and
    /// then `at` for each corner.
    fast get "corner_pieces" (m, c; h: i64) {
        c.read_all_intersections();
        let t = topo(c)?;
        let corners = &t.hexes[index(h, t.hexes.len(), "hex")?].corners;
        m.table(3 * corners.len(), 0)?;
        let mut k = 0;
        for &n in corners {
            if let Some(pc) = c.state.intersections[n] {
                m.int(n as i64 + 1)?;
                m.seti(k + 1)?;
                m.str(&c.spec.pieces[pc.kind as usize].name)?;
                m.seti(k + 2)?;
                match pc.seat() {
                    Some(s) => m.int(s as i64 + 1)?,
                    None => m.bool(false)?,
                }
                m.seti(k + 3)?;
                k += 3;
            }
        }
        Ok(())
    }
    /// Seats with a piece on a corner of the hex, in seat order.
    slow get "owners_at" (m, c; h: i64) {
        c.read_all_intersections();
        let t = topo(c)?;
        let i = index(h, t.hexes.len(), "hex")?;
        let mut seats: Vec<usize> =
            t.hexes[i].corners.iter().filter_map(|&n| c.state.intersections[n].and_then(|pc| pc.seat())).collect();
        seats.sort_unstable();
        seats.dedup();
        m.ids(&seats)
    }
    /// Empty intersections with no piece closer than `spacing` paths; with `p`, only those
    /// touching one of p's path pieces.
    fast get "open_intersections" (m, c; spacing: u32, p: Option<i64>) {
        c.read(part::OCCUPIED);
        let t = topo(c)?;
        let owner = match p {
            Some(p) => Some(seat(c, p)?),
            None => None,
        };
        // Only p's path pieces count, whatever stands on the others' paths.
        if owner.is_some() {
            c.read(part::paths_of(owner));
        }
        m.charge(t.intersections.len() as u64)?;
        let st = &c.state;
        let free = |i: usize| {
            st.intersections[i].is_none()
                && !(spacing >= 2 && t.intersections[i].neighbors.iter().any(|&n| st.intersections[n].is_some()))
        };
        if let (Some(s), true) = (owner, t.intersections.len() <= 256) {
            // Only the ends of p's path pieces can be open to p: found from them, in the
            // order of the intersections (a bit each), instead of a walk of every one.
            let mut ends = [0u64; 4];
            for (pp, pc) in st.paths.iter().enumerate() {
                if pc.is_some_and(|pc| pc.owner as usize == s) {
                    for &n in &t.paths[pp].ends {
                        ends[n / 64] |= 1 << (n % 64);
                    }
                }
            }
            for i in super::ctx::Ones::of(ends).filter(|&i| !free(i)) {
                ends[i / 64] &= !(1 << (i % 64));
            }
            let count = ends.iter().map(|b| b.count_ones() as usize).sum::<usize>();
            m.charge(count as u64 * 16)?;
            return m.ids_where(t.intersections.len(), count, |i| ends[i / 64] & (1 << (i % 64)) != 0);
        }
        let open = |i: usize| {
            free(i)
                && owner.is_none_or(|s| {
                    t.intersections[i].paths.iter().any(|&pp| st.paths[pp].is_some_and(|pc| pc.owner as usize == s))
                })
        };
        let count = (0..t.intersections.len()).filter(|&i| open(i)).count();
        m.charge(count as u64 * 16)?;
        m.ids_where(t.intersections.len(), count, open)
    }
    /// Empty paths that extend p's network: one end holds p's piece, or one end touches
    /// p's path piece and holds no other player's piece.
    fast get "open_paths" (m, c; p: i64) {
        c.read_all_intersections();
        c.read_all_paths();
        let t = topo(c)?;
        let s = seat(c, p)?;
        m.charge(t.paths.len() as u64 * 2)?;
        let st = &c.state;
        let reaches = |n: usize| match st.intersections[n] {
            Some(pc) => pc.owner as usize == s,
            None => t.intersections[n].paths.iter().any(|&pp| st.paths[pp].is_some_and(|pc| pc.owner as usize == s)),
        };
        let open = |i: usize| st.paths[i].is_none() && (reaches(t.paths[i].ends[0]) || reaches(t.paths[i].ends[1]));
        let count = (0..t.paths.len()).filter(|&i| open(i)).count();
        m.charge(count as u64 * 16)?;
        m.ids_where(t.paths.len(), count, open)
    }
    /// The longest trail of p's pieces of a kind, broken by other players' intersection
    /// pieces; charged four units a path.
    fast get "longest_trail" (m, c; p: i64, kind: &str) {
        // p's pieces on paths, broken by the others' on intersections.
        c.read_all_intersections();
        let t = topo(c)?;
        let s = seat(c, p)?;
        c.read(part::paths_of(Some(s)));
        let k = piece_kind(c, kind)?;
        m.charge(t.paths.len() as u64 * 4)?;
        m.int(trail_length(c, t, s, k) as i64)
    }
}
