//! The board: a petgraph graph of hexes, intersections and paths, built from a layout
//! of axial hex coordinates. Pure topology; what stands where lives in `GameState`.
//!
//! Geometry: pointy-top hexes. A hex at axial (q, r) has its centre at (2q + r, 3r) in
//! "doubled" integer units (x in √3/2, y in 1/2), so every corner has integer
//! coordinates and corners shared by neighbouring hexes coincide exactly.

pub mod render;

use petgraph::graph::{NodeIndex, UnGraph};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type HexId = usize;
pub type NodeId = usize;
pub type PathId = usize;

/// Corner offsets of a pointy-top hex, clockwise from the top: N, NE, SE, S, SW, NW.
const CORNERS: [(i32, i32); 6] = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)];
/// Side names, each between corner i and corner i+1.
pub const SIDES: [&str; 6] = ["NE", "E", "SE", "SW", "W", "NW"];

/// Chances in 36 that two six-sided dice roll `number`: what a number token's pips count
/// (none for 7 or a hex without a token). The one count for the engine's expected
/// production (`g:expected`) and the bots' features alike.
pub fn chances(number: Option<u8>) -> u32 {
    match number {
        Some(n @ 2..=12) if n != 7 => 6 - (7 - i32::from(n)).unsigned_abs(),
        _ => 0,
    }
}

/// A vertex of the board graph.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Site {
    Hex(HexId),
    Intersection(NodeId),
}

/// An edge of the board graph: a path between two intersections, or a hex touching one
/// of its corners.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Link {
    Path(PathId),
    Corner,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HexInfo {
    pub label: String,
    pub q: i32,
    pub r: i32,
    /// Corner intersections, clockwise from the top.
    pub corners: [NodeId; 6],
    /// Sides as paths, clockwise from the north-east side.
    pub sides: [PathId; 6],
    pub neighbors: Vec<HexId>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IntersectionInfo {
    pub label: String,
    pub x: i32,
    pub y: i32,
    pub hexes: Vec<HexId>,
    pub paths: Vec<PathId>,
    pub neighbors: Vec<NodeId>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PathInfo {
    pub label: String,
    pub ends: [NodeId; 2],
    pub hexes: Vec<HexId>,
}

/// The static shape of a board. Built once per game, shared by every state of that game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Topology {
    pub graph: UnGraph<Site, Link>,
    pub hexes: Vec<HexInfo>,
    pub intersections: Vec<IntersectionInfo>,
    pub paths: Vec<PathInfo>,
    #[serde(skip)]
    labels: BTreeMap<String, Label>,
}

/// What a label names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    Hex(HexId),
    Intersection(NodeId),
    Path(PathId),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardError(pub String);

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BoardError {}

impl Topology {
    /// Builds the board from hex coordinates, in the order given (hex ids follow it).
    /// Intersections are numbered 1.. in reading order (top to bottom, left to right);
    /// paths are labelled by their two ends, "12-13".
    pub fn from_axial(coords: &[(i32, i32)]) -> Result<Topology, BoardError> {
        if coords.is_empty() {
            return Err(BoardError("a board needs at least one hex".into()));
        }
        let mut seen = std::collections::HashSet::new();
        for c in coords {
            if !seen.insert(*c) {
                return Err(BoardError(format!("hex at ({}, {}) is listed twice", c.0, c.1)));
            }
        }
        // Collect corner points and order them in reading order.
        let mut points: Vec<(i32, i32)> = Vec::new();
        for &(q, r) in coords {
            let (cx, cy) = (2 * q + r, 3 * r);
            for (dx, dy) in CORNERS {
                points.push((cx + dx, cy + dy));
            }
        }
        points.sort_by_key(|&(x, y)| (y, x));
        points.dedup();
        let point_id: BTreeMap<(i32, i32), NodeId> = points.iter().enumerate().map(|(i, p)| (*p, i)).collect();

        let mut hex_corners = Vec::with_capacity(coords.len());
        let mut edge_set: BTreeMap<(NodeId, NodeId), Vec<HexId>> = BTreeMap::new();
        for (h, &(q, r)) in coords.iter().enumerate() {
            let (cx, cy) = (2 * q + r, 3 * r);
            let mut corners = [0; 6];
            for (i, (dx, dy)) in CORNERS.iter().enumerate() {
                corners[i] = point_id[&(cx + dx, cy + dy)];
            }
            for i in 0..6 {
                let (a, b) = (corners[i], corners[(i + 1) % 6]);
                edge_set.entry((a.min(b), a.max(b))).or_default().push(h);
            }
            hex_corners.push(corners);
        }
        let path_id: BTreeMap<(NodeId, NodeId), PathId> = edge_set.keys().enumerate().map(|(i, k)| (*k, i)).collect();

        let mut graph = UnGraph::<Site, Link>::default();
        let hex_nodes: Vec<NodeIndex> = (0..coords.len()).map(|h| graph.add_node(Site::Hex(h))).collect();
        let int_nodes: Vec<NodeIndex> = (0..points.len()).map(|i| graph.add_node(Site::Intersection(i))).collect();
        let mut paths = Vec::with_capacity(edge_set.len());
        for (i, ((a, b), hexes)) in edge_set.iter().enumerate() {
            graph.add_edge(int_nodes[*a], int_nodes[*b], Link::Path(i));
            paths.push(PathInfo { label: format!("{}-{}", a + 1, b + 1), ends: [*a, *b], hexes: hexes.clone() });
        }
        for (h, corners) in hex_corners.iter().enumerate() {
            for &c in corners {
                graph.add_edge(hex_nodes[h], int_nodes[c], Link::Corner);
            }
        }

        // Derived adjacency, read off the graph once so queries are plain slice lookups.
        let mut intersections: Vec<IntersectionInfo> = points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| IntersectionInfo {
                label: (i + 1).to_string(),
                x,
                y,
                hexes: vec![],
                paths: vec![],
                neighbors: vec![],
            })
            .collect();
        for e in graph.edge_indices() {
            let Some((u, v)) = graph.edge_endpoints(e) else {
                continue;
            };
            match (&graph[e], &graph[u], &graph[v]) {
                (Link::Path(p), Site::Intersection(a), Site::Intersection(b)) => {
                    intersections[*a].paths.push(*p);
                    intersections[*a].neighbors.push(*b);
                    intersections[*b].paths.push(*p);
                    intersections[*b].neighbors.push(*a);
                }
                (Link::Corner, Site::Hex(h), Site::Intersection(i))
                | (Link::Corner, Site::Intersection(i), Site::Hex(h)) => intersections[*i].hexes.push(*h),
                _ => {}
            }
        }
        for info in &mut intersections {
            info.hexes.sort_unstable();
            info.paths.sort_unstable();
            info.neighbors.sort_unstable();
        }
        let coord_hex: BTreeMap<(i32, i32), HexId> = coords.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        let hexes = coords
            .iter()
            .enumerate()
            .map(|(h, &(q, r))| {
                let corners = hex_corners[h];
                let mut sides = [0; 6];
                for i in 0..6 {
                    let (a, b) = (corners[i], corners[(i + 1) % 6]);
                    sides[i] = path_id[&(a.min(b), a.max(b))];
                }
                let mut neighbors: Vec<HexId> = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
                    .iter()
                    .filter_map(|(dq, dr)| coord_hex.get(&(q + dq, r + dr)).copied())
                    .collect();
                neighbors.sort_unstable();
                HexInfo { label: format!("H{}", h + 1), q, r, corners, sides, neighbors }
            })
            .collect();
        let mut topo = Topology { graph, hexes, intersections, paths, labels: BTreeMap::new() };
        topo.index_labels();
        Ok(topo)
    }

    fn index_labels(&mut self) {
        let mut labels = BTreeMap::new();
        for (i, h) in self.hexes.iter().enumerate() {
            labels.insert(h.label.to_ascii_lowercase(), Label::Hex(i));
        }
        for (i, n) in self.intersections.iter().enumerate() {
            labels.insert(n.label.clone(), Label::Intersection(i));
        }
        for (i, p) in self.paths.iter().enumerate() {
            labels.insert(p.label.clone(), Label::Path(i));
            let [a, b] = p.ends;
            labels.insert(format!("{}-{}", b + 1, a + 1), Label::Path(i));
        }
        self.labels = labels;
    }

    /// Restores the label index after deserialization.
    pub fn reindex(&mut self) {
        self.index_labels();
    }

    /// Looks a label up, case-insensitively ("H7", "h7", "12", "12-13", "13-12").
    pub fn label(&self, text: &str) -> Option<Label> {
        if self.labels.is_empty() {
            // A deserialized topology that was not reindexed: fall back to a scan.
            let t = text.to_ascii_lowercase();
            return self
                .hexes
                .iter()
                .position(|h| h.label.to_ascii_lowercase() == t)
                .map(Label::Hex)
                .or_else(|| self.intersections.iter().position(|n| n.label == t).map(Label::Intersection))
                .or_else(|| {
                    self.paths
                        .iter()
                        .position(|p| {
                            let [a, b] = p.ends;
                            p.label == t || format!("{}-{}", b + 1, a + 1) == t
                        })
                        .map(Label::Path)
                });
        }
        self.labels.get(&text.to_ascii_lowercase()).copied()
    }

    pub fn all_labels(&self) -> impl Iterator<Item = &str> {
        self.hexes
            .iter()
            .map(|h| h.label.as_str())
            .chain(self.intersections.iter().map(|n| n.label.as_str()))
            .chain(self.paths.iter().map(|p| p.label.as_str()))
    }

    /// The path joining two intersections, if they are neighbours.
    pub fn path_between(&self, a: NodeId, b: NodeId) -> Option<PathId> {
        self.intersections.get(a)?.paths.iter().copied().find(|&p| {
            let [x, y] = self.paths[p].ends;
            (x == a && y == b) || (x == b && y == a)
        })
    }

    /// Hexes on the outer ring: those with fewer than six neighbours.
    pub fn outer_ring(&self) -> Vec<HexId> {
        (0..self.hexes.len()).filter(|&h| self.hexes[h].neighbors.len() < 6).collect()
    }

    /// Hexes in spiral order: start at `start` (a hex of the outer ring), walk the ring
    /// counter-clockwise, then the next ring inwards, and so on. This is the order in
    /// which lettered number tokens are laid.
    pub fn spiral(&self, start: HexId) -> Vec<HexId> {
        let mut remaining: Vec<bool> = vec![true; self.hexes.len()];
        let mut order = Vec::with_capacity(self.hexes.len());
        let mut current = Some(start);
        while let Some(h) = current {
            remaining[h] = false;
            order.push(h);
            current = self.next_in_spiral(h, &remaining);
        }
        order
    }

    /// Next hex counter-clockwise, following the wall of absent and already visited
    /// hexes with it on the right-hand side (y points down on screen).
    fn next_in_spiral(&self, h: HexId, remaining: &[bool]) -> Option<HexId> {
        let (q, r) = (self.hexes[h].q, self.hexes[h].r);
        // Neighbour directions in counter-clockwise screen order: E, NE, NW, W, SW, SE.
        const DIRS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
        let free: Vec<Option<HexId>> = DIRS
            .iter()
            .map(|&(dq, dr)| {
                self.hexes[h]
                    .neighbors
                    .iter()
                    .copied()
                    .find(|&n| self.hexes[n].q == q + dq && self.hexes[n].r == r + dr)
                    .filter(|&n| remaining[n])
            })
            .collect();
        (0..6)
            .find_map(|i| if free[(i + 5) % 6].is_none() { free[i] } else { None })
            .or_else(|| free.iter().flatten().next().copied())
    }
}

/// Longest trail (no edge used twice) through the given edges, which may not pass
/// through a blocked intersection. Used for Longest Road; generic over any edge set.
pub fn longest_trail(topo: &Topology, owned: &[bool], blocked: &[bool]) -> usize {
    fn dfs(topo: &Topology, owned: &[bool], blocked: &[bool], node: NodeId, used: &mut Vec<bool>) -> usize {
        let mut best = 0;
        for &p in &topo.intersections[node].paths {
            if !owned[p] || used[p] {
                continue;
            }
            let [a, b] = topo.paths[p].ends;
            let next = if a == node { b } else { a };
            used[p] = true;
            let len = if blocked[next] { 1 } else { 1 + dfs(topo, owned, blocked, next, used) };
            used[p] = false;
            best = best.max(len);
        }
        best
    }
    let mut used = vec![false; topo.paths.len()];
    let mut best = 0;
    for (n, _) in topo.intersections.iter().enumerate() {
        if topo.intersections[n].paths.iter().any(|&p| owned[p]) {
            best = best.max(dfs(topo, owned, blocked, n, &mut used));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn standard() -> Topology {
        let mut coords = vec![];
        for r in -2..=2i32 {
            for q in (-2).max(-2 - r)..=2.min(2 - r) {
                coords.push((q, r));
            }
        }
        Topology::from_axial(&coords).unwrap()
    }

    #[test]
    fn standard_board_has_19_hexes_54_intersections_72_paths() {
        let t = standard();
        assert_eq!(t.hexes.len(), 19);
        assert_eq!(t.intersections.len(), 54);
        assert_eq!(t.paths.len(), 72);
        assert_eq!(t.graph.node_count(), 19 + 54);
    }

    #[test]
    fn labels_resolve_both_ways() {
        let t = standard();
        assert_eq!(t.label("h1"), Some(Label::Hex(0)));
        assert_eq!(t.label("1"), Some(Label::Intersection(0)));
        let p = &t.paths[0];
        let [a, b] = p.ends;
        assert_eq!(t.label(&format!("{}-{}", b + 1, a + 1)), Some(Label::Path(0)));
    }

    #[test]
    fn spiral_visits_every_hex_once_and_ends_in_the_centre() {
        let t = standard();
        let s = t.spiral(0);
        assert_eq!(s.len(), 19);
        let mut sorted = s.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 19);
        assert_eq!(t.hexes[*s.last().unwrap()].q, 0);
        assert_eq!(t.hexes[*s.last().unwrap()].r, 0);
        for w in s.windows(2) {
            assert!(t.hexes[w[0]].neighbors.contains(&w[1]), "spiral steps to a neighbour");
        }
    }
}
