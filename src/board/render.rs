//! Terminal rendering of the board: a character map computed from the topology's
//! integer geometry (intersections at doubled units (x, y), hexes at axial (q, r)), so
//! it draws any board shape — the standard 19 hexes, the 30-hex 5-6 player frame or an
//! irregular island map — without a hard-coded layout.
//!
//! Scale: an intersection at (x, y) is drawn at column `x * KX`, row `y * KY`. A hex is
//! then `2 * KX` columns wide and `4 * KY` rows tall:
//!
//! ```text
//!       1
//!    /     \
//!  2   H1    3
//!  |  fields |
//!  |    8    |
//!  |  .....  |
//!  4  robber 5
//!    \     /
//!       6
//! ```
//!
//! A piece on an intersection is drawn before its label, so a player can still read the
//! number to type (`city 26`): the owner's tag (its colour's shortest unique prefix, "r"
//! for red) in lower case for a settlement ("r26"), upper case for a city ("R26"). A road
//! shows the owner's tag on its path, between doubled line characters. Harbors are drawn
//! off the coast beside their path and listed under the map by path label.

use crate::board::Topology;
use crate::spec::Spec;
use crate::state::{GameState, Piece};
use std::collections::{BTreeMap, HashMap};

/// How to draw the board.
pub struct RenderOptions {
    /// Use ANSI colour escapes.
    pub color: bool,
    /// The compact drawing (one row per intersection row, harbors listed only), which
    /// keeps the standard board within a 24-line terminal; else the full one.
    pub compact: bool,
}

/// Columns per doubled x unit.
const KX: i32 = 6;
/// Rows per doubled y unit.
const KY: i32 = 2;
/// Widest line of the harbor list and legend.
const WRAP: usize = 100;

/// ANSI styles (the parameter part of `ESC [ ... m`).
const STYLE_HOT_NUMBER: &str = "1;31";
const STYLE_ROBBER: &str = "1;7";
const STYLE_HARBOR: &str = "36";
const STYLE_LABEL: &str = "2";

/// Draws the board: every hex with its label (H1..), terrain (short name), number token
/// and the robber; every intersection with its label, or the piece on it (settlement /
/// city, in the owner's colour); every path, with a road drawn in its owner's colour
/// where one stands; harbors beside their coastal path (e.g. "3:1" or "2:1 ore").
/// Returns the text (lines joined by '\n').
pub fn render(state: &GameState, spec: &Spec, opts: &RenderOptions) -> String {
    let Some(topo) = state.topology.as_deref() else {
        return "(no board yet)".to_string();
    };
    if opts.compact {
        return render_compact(topo, state, spec, opts.color);
    }
    let canvas = draw(topo, state, spec);
    let mut lines = canvas.lines(opts.color);
    lines.push(String::new());
    lines.extend(harbor_list(topo, state, opts.color));
    lines.extend(legend(state, spec, opts.color));
    lines.join("\n")
}

// Canvas ------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct Cell {
    ch: char,
    style: Option<&'static str>,
}

/// A sparse character grid with signed coordinates; the drawing's bounds are found at
/// the end, so nothing needs to know the board's extent up front.
#[derive(Default)]
struct Canvas {
    cells: HashMap<(i32, i32), Cell>,
    /// Cells written over a different visible character (a layout clash; tests keep
    /// this at zero).
    clashes: usize,
}

impl Canvas {
    /// Writes `text` on `row` starting at `col`; spaces in `text` are written as blanks.
    fn put(&mut self, row: i32, col: i32, text: &str, style: Option<&'static str>) {
        for (i, ch) in text.chars().enumerate() {
            let at = (row, col + i as i32);
            if let Some(old) = self.cells.get(&at) {
                if old.ch != ' ' && ch != ' ' && old.ch != ch {
                    self.clashes += 1;
                }
            }
            self.cells.insert(at, Cell { ch, style });
        }
    }

    /// Writes `text` centred on column `col` (a 2-character text starts at `col`).
    fn put_centred(&mut self, row: i32, col: i32, text: &str, style: Option<&'static str>) {
        let w = text.chars().count() as i32;
        self.put(row, col - (w - 1) / 2, text, style);
    }

    /// Whether the cells of `text` centred on `col`, plus one column of margin either
    /// side, are all unused.
    fn is_free_centred(&self, row: i32, col: i32, width: i32) -> bool {
        let start = col - (width - 1) / 2;
        (start - 1..start + width + 1).all(|c| self.cells.get(&(row, c)).is_none_or(|cell| cell.ch == ' '))
    }

    #[cfg(test)]
    fn text_at(&self, row: i32, col: i32, len: usize) -> String {
        (0..len as i32).map(|i| self.cells.get(&(row, col + i)).map_or(' ', |c| c.ch)).collect()
    }

    /// The drawing as lines, trailing blanks trimmed, with ANSI styles if `color`.
    fn lines(&self, color: bool) -> Vec<String> {
        let visible = || self.cells.iter().filter(|(_, c)| c.ch != ' ');
        let (Some(min_row), Some(max_row), Some(min_col)) = (
            visible().map(|((r, _), _)| *r).min(),
            visible().map(|((r, _), _)| *r).max(),
            visible().map(|((_, c), _)| *c).min(),
        ) else {
            return vec![];
        };
        let mut out = Vec::new();
        for row in min_row..=max_row {
            let Some(max_col) = visible().filter(|((r, _), _)| *r == row).map(|((_, c), _)| *c).max() else {
                out.push(String::new());
                continue;
            };
            let mut line = String::new();
            let mut current: Option<&'static str> = None;
            for col in min_col..=max_col {
                let cell = self.cells.get(&(row, col)).copied().unwrap_or(Cell { ch: ' ', style: None });
                // Blanks only continue a run of their own style ("2:1 grain"), so
                // colour never spills into the gaps between things.
                let style = if cell.ch == ' ' && cell.style != current { None } else { cell.style };
                if color && style != current {
                    if current.is_some() {
                        line.push_str("\x1b[0m");
                    }
                    if let Some(s) = style {
                        line.push_str(&format!("\x1b[{s}m"));
                    }
                    current = style;
                }
                line.push(cell.ch);
            }
            if color && current.is_some() {
                line.push_str("\x1b[0m");
            }
            out.push(line);
        }
        out
    }
}

// Players -----------------------------------------------------------------------------

/// Short owner tags: each player's colour cut to its shortest prefix that no other
/// player's colour shares ("r" for red; "bl" / "br" when blue and brown both play).
fn player_tags(state: &GameState) -> Vec<String> {
    let colors: Vec<Vec<char>> = state.players.iter().map(|p| p.color.to_lowercase().chars().collect()).collect();
    colors
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (1..=c.len())
                .find(|&k| colors.iter().enumerate().all(|(j, other)| j == i || other.get(..k) != c.get(..k)))
                .map(|k| c[..k].iter().collect())
                .unwrap_or_else(|| format!("p{}", i + 1))
        })
        .collect()
}

/// The ANSI style of a player colour.
fn player_style(color: &str) -> &'static str {
    match color.to_lowercase().as_str() {
        "red" => "1;31",
        "blue" => "1;34",
        "white" => "1;97",
        "orange" => "1;93",
        "yellow" => "1;33",
        "green" => "1;32",
        "brown" => "1;33",
        "black" => "1;90",
        "purple" | "magenta" => "1;35",
        "cyan" | "teal" => "1;36",
        _ => "1",
    }
}

fn terrain_style(name: &str) -> Option<&'static str> {
    Some(match name {
        "hills" => "31",
        "forest" => "32",
        "pasture" => "92",
        "fields" => "33",
        "mountains" => "90",
        "desert" => "2;33",
        "sea" | "water" => "34",
        "gold" | "gold_field" | "gold_river" => "1;33",
        _ => return None,
    })
}

/// What stands on an intersection, as text, followed by the intersection's label: the
/// owner tag, lower case for a settlement ("r26"), upper case for a city ("R26"),
/// "tag/k" for any other kind (k = the kind's initial).
fn intersection_piece(piece: Piece, spec: &Spec, tags: &[String], label: &str) -> String {
    let tag = owner_tag(piece, tags);
    match spec.pieces.get(piece.kind as usize).map(|k| k.name.as_str()) {
        Some("settlement") => format!("{}{label}", tag.to_lowercase()),
        Some("city") => format!("{}{label}", tag.to_uppercase()),
        Some(other) => format!("{tag}/{}{label}", other.chars().next().unwrap_or('?')),
        None => format!("{tag}/?{label}"),
    }
}

/// The tag of a piece's owner; `x` for a piece of no player.
fn owner_tag(piece: Piece, tags: &[String]) -> String {
    match piece.seat() {
        Some(s) => tags.get(s).cloned().unwrap_or_else(|| format!("p{}", s + 1)),
        None => "x".to_string(),
    }
}

fn owner_style(piece: Piece, state: &GameState) -> Option<&'static str> {
    state.players.get(piece.owner as usize).map(|p| player_style(&p.color))
}

// Drawing -----------------------------------------------------------------------------

fn draw(topo: &Topology, state: &GameState, spec: &Spec) -> Canvas {
    let mut canvas = Canvas::default();
    let tags = player_tags(state);
    let point = |n: usize| topo.intersections.get(n).map(|i| (i.y * KY, i.x * KX)).unwrap_or((0, 0));

    // Paths: '|' for the vertical (E / W) sides, '/' or '\' for the diagonals. A road
    // doubles its line characters around the owner's tag.
    for (p, info) in topo.paths.iter().enumerate() {
        let [a, b] = info.ends;
        let ((ra, ca), (rb, cb)) = (point(a), point(b));
        let ((r0, c0), (r1, c1)) = if ra <= rb { ((ra, ca), (rb, cb)) } else { ((rb, cb), (ra, ca)) };
        let line = if c0 == c1 {
            '|'
        } else if c1 > c0 {
            '\\'
        } else {
            '/'
        };
        let piece = state.paths.get(p).copied().flatten();
        let span = r1 - r0;
        for row in r0 + 1..r1 {
            let col = c0 + (c1 - c0) * (row - r0) / span.max(1);
            match piece {
                None => canvas.put(row, col, &line.to_string(), None),
                Some(piece) => {
                    let tag = owner_tag(piece, &tags);
                    let body = match spec.pieces.get(piece.kind as usize).map(|k| k.name.as_str()) {
                        Some("road") | None => line,
                        Some("ship") => '~',
                        Some(_) => '=',
                    };
                    let style = owner_style(piece, state);
                    let middle = row == r0 + span / 2;
                    let text = if c0 == c1 {
                        // Vertical: tag on the middle row, a doubled bar elsewhere.
                        if middle {
                            tag
                        } else {
                            format!("{body}{body}")
                        }
                    } else if middle {
                        format!("{body}{tag}{body}")
                    } else {
                        format!("{body}{body}")
                    };
                    canvas.put_centred(row, col, &text, style);
                }
            }
        }
    }

    // Hex interiors: label, terrain, number token with its pips, markers.
    let mut markers: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, &h) in state.markers.iter() {
        markers.entry(h).or_default().push(name.as_str());
    }
    for (h, info) in topo.hexes.iter().enumerate() {
        let (row, col) = ((3 * info.r) * KY, (2 * info.q + info.r) * KX);
        canvas.put_centred(row - KY, col, &info.label, Some(STYLE_LABEL));
        let Some(hex) = state.hexes.get(h) else {
            continue;
        };
        let width = (2 * KX - 3) as usize;
        if let Some(terrain) = spec.terrains.get(hex.terrain as usize) {
            let name: String = terrain.name.chars().take(width).collect();
            canvas.put_centred(row - 1, col, &name, terrain_style(&terrain.name));
        }
        if let Some(n) = hex.number {
            let hot = n == 6 || n == 8;
            let style = if hot { Some(STYLE_HOT_NUMBER) } else { None };
            canvas.put_centred(row, col, &n.to_string(), style);
            let pips = 6usize.saturating_sub((7 - i32::from(n)).unsigned_abs() as usize);
            if pips > 0 {
                canvas.put_centred(row + 1, col, &".".repeat(pips), style);
            }
        }
        if let Some(names) = markers.get(&h) {
            let text: String = names.join(" ").chars().take(width).collect();
            canvas.put_centred(row + KY, col, &text, Some(STYLE_ROBBER));
        }
    }
    // Markers on hexes the board does not have are not drawn (nothing to stand on).

    // Intersections: the label, or the piece standing there.
    for (n, info) in topo.intersections.iter().enumerate() {
        let (row, col) = point(n);
        match state.intersections.get(n).copied().flatten() {
            Some(piece) => {
                let text = intersection_piece(piece, spec, &tags, &info.label);
                canvas.put_centred(row, col, &text, owner_style(piece, state));
            }
            None => canvas.put_centred(row, col, &info.label, None),
        }
    }

    // Harbors: off the coast, beside their path, where there is room.
    for harbor in state.harbors.iter() {
        let Some(path) = topo.paths.get(harbor.path) else {
            continue;
        };
        let [a, b] = path.ends;
        let ((ra, ca), (rb, cb)) = (point(a), point(b));
        let (mr, mc) = (f64::from(ra + rb) / 2.0, f64::from(ca + cb) / 2.0);
        // Away from the hexes the path borders (or the board's middle if none).
        let centres: Vec<(f64, f64)> = path
            .hexes
            .iter()
            .filter_map(|&h| topo.hexes.get(h))
            .map(|h| (f64::from(3 * h.r * KY), f64::from((2 * h.q + h.r) * KX)))
            .collect();
        let centres = if centres.is_empty() {
            topo.hexes.iter().map(|h| (f64::from(3 * h.r * KY), f64::from((2 * h.q + h.r) * KX))).collect()
        } else {
            centres
        };
        let k = centres.len().max(1) as f64;
        let (hr, hc) = centres.iter().fold((0.0, 0.0), |(r, c), (a, b)| (r + a / k, c + b / k));
        let (dr, dc) = (mr - hr, mc - hc);
        let text = harbor_text(harbor);
        let w = text.chars().count() as i32;
        // From just off the side outwards, the first spot with room for the text.
        for t in [0.6, 0.8, 1.0, 1.2] {
            let row = (mr + dr * t).round() as i32;
            let col = (mc + dc * t).round() as i32;
            if canvas.is_free_centred(row, col, w) {
                canvas.put_centred(row, col, &text, Some(STYLE_HARBOR));
                break;
            }
        }
    }
    canvas
}

fn harbor_text(h: &crate::state::Harbor) -> String {
    match &h.resource {
        Some(r) => format!("{}:1 {r}", h.ratio),
        None => format!("{}:1", h.ratio),
    }
}

/// "harbors: 3:1 at 1-2, 2:1 grain at 4-5, ..." wrapped to `WRAP` columns.
fn harbor_list(topo: &Topology, state: &GameState, color: bool) -> Vec<String> {
    harbor_list_within(topo, state, color, WRAP)
}

fn harbor_list_within(topo: &Topology, state: &GameState, color: bool, width: usize) -> Vec<String> {
    if state.harbors.is_empty() {
        return vec![];
    }
    let items: Vec<String> = state
        .harbors
        .iter()
        .map(|h| {
            let at = topo.paths.get(h.path).map_or_else(|| "?".to_string(), |p| p.label.clone());
            let text = harbor_text(h);
            if color {
                format!("\x1b[{STYLE_HARBOR}m{text}\x1b[0m at {at}")
            } else {
                format!("{text} at {at}")
            }
        })
        .collect();
    wrap_within("harbors: ", &items, ", ", width)
}

/// Joins items after `head`, breaking lines (indented under the first item) before
/// they pass `WRAP` visible columns.
fn wrap(head: &str, items: &[String], sep: &str) -> Vec<String> {
    wrap_within(head, items, sep, WRAP)
}

fn wrap_within(head: &str, items: &[String], sep: &str, width: usize) -> Vec<String> {
    let visible = |s: &str| {
        let mut n = 0;
        let mut esc = false;
        for ch in s.chars() {
            match (esc, ch) {
                (false, '\x1b') => esc = true,
                (true, 'm') => esc = false,
                (true, _) => {}
                (false, _) => n += 1,
            }
        }
        n
    };
    let indent = " ".repeat(head.len());
    let mut lines = vec![];
    let mut line = head.to_string();
    let mut first = true;
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() { format!("{item}{}", sep.trim_end()) } else { item.clone() };
        if !first && visible(&line) + 1 + visible(&piece) > width {
            lines.push(line);
            line = format!("{indent}{piece}");
        } else {
            if !first {
                line.push(' ');
            }
            line.push_str(&piece);
        }
        first = false;
    }
    lines.push(line);
    lines
}

fn legend(state: &GameState, spec: &Spec, color: bool) -> Vec<String> {
    let tags = player_tags(state);
    let mut players: Vec<String> = state
        .players
        .iter()
        .zip(&tags)
        .map(|(p, t)| {
            if color {
                format!("\x1b[{}m{t}\x1b[0m={}", player_style(&p.color), p.color)
            } else {
                format!("{t}={}", p.color)
            }
        })
        .collect();
    if state.intersections.iter().chain(state.paths.iter()).any(|p| p.is_some_and(|p| p.seat().is_none())) {
        players.push("x=no player".to_string());
    }
    let mut lines = wrap("players: ", &players, ", ");
    let mut kinds = vec![];
    if spec.piece("settlement").is_some() {
        kinds.push("r26 settlement on 26".to_string());
    }
    if spec.piece("city").is_some() {
        kinds.push("R26 city".to_string());
    }
    if spec.piece("road").is_some() {
        kinds.push("\\r\\ /r/ or r between || road".to_string());
    }
    if spec.piece("ship").is_some() {
        kinds.push("~r~ ship".to_string());
    }
    kinds.push("number tokens with pips (6 and 8 roll most)".to_string());
    kinds.push("robber in its hex".to_string());
    lines.extend(wrap("legend: ", &kinds, "; "));
    lines
}

// The compact drawing ---------------------------------------------------------------

/// Columns per doubled x unit of the compact drawing (one row per y unit).
const CX: i32 = 6;
/// Widest line under the compact drawing: an 80-column terminal.
const COMPACT_WRAP: usize = 80;

/// The compact board: an intersection row per text row, so the standard board is 17 rows.
/// A hex keeps its label, terrain with number, and pips (or the robber) on its three
/// inner rows; a diagonal side is drawn by one character beside each of its ends, a
/// vertical side by one in its middle; a road puts its owner's tag in place of them.
///
/// ```text
///         / 1 \
///     4 /   H1  \ 5
///     |mountain 10|
///     8 \  ...  / 9
/// ```
fn render_compact(topo: &Topology, state: &GameState, spec: &Spec, color: bool) -> String {
    let canvas = draw_compact(topo, state, spec);
    let mut lines = canvas.lines(color);
    lines.extend(harbor_list_within(topo, state, color, COMPACT_WRAP));
    lines.extend(compact_legend(state, spec, color));
    lines.join("\n")
}

/// One character per player for the compact drawing: the colour's first letter when no
/// other colour shares it, else the first letter of the colour no player uses (and no
/// other colour starts with), else the seat's number.
fn compact_tags(state: &GameState) -> Vec<char> {
    let colors: Vec<Vec<char>> = state
        .players
        .iter()
        .map(|p| p.color.to_lowercase().chars().filter(char::is_ascii_alphanumeric).collect())
        .collect();
    let firsts: Vec<Option<char>> = colors.iter().map(|c| c.first().copied()).collect();
    let unique = |i: usize| firsts[i].is_some() && firsts.iter().filter(|f| **f == firsts[i]).count() == 1;
    let mut tags: Vec<Option<char>> = (0..colors.len()).map(|i| unique(i).then(|| firsts[i]).flatten()).collect();
    for i in 0..colors.len() {
        if tags[i].is_some() {
            continue;
        }
        let free = |ch: &char| !tags.contains(&Some(*ch)) && !firsts.contains(&Some(*ch));
        let seat = char::from_digit(((i + 1) % 10) as u32, 10).unwrap_or('?');
        tags[i] = Some(colors[i].iter().skip(1).copied().find(free).unwrap_or(seat));
    }
    tags.into_iter().map(|t| t.unwrap_or('?')).collect()
}

/// A piece's compact tag; `x` for a piece of no player.
fn compact_owner(piece: Piece, tags: &[char]) -> char {
    piece.seat().and_then(|s| tags.get(s).copied()).unwrap_or('x')
}

fn draw_compact(topo: &Topology, state: &GameState, spec: &Spec) -> Canvas {
    let mut canvas = Canvas::default();
    let tags = compact_tags(state);
    let point = |n: usize| topo.intersections.get(n).map(|i| (i.y, i.x * CX)).unwrap_or((0, 0));
    for (p, info) in topo.paths.iter().enumerate() {
        let [a, b] = info.ends;
        let ((ra, ca), (rb, cb)) = (point(a), point(b));
        let ((r0, c0), (r1, c1)) = if ra <= rb { ((ra, ca), (rb, cb)) } else { ((rb, cb), (ra, ca)) };
        let piece = state.paths.get(p).copied().flatten();
        let style = piece.and_then(|pc| owner_style(pc, state));
        if c0 == c1 {
            let text = piece.map_or('|', |pc| compact_owner(pc, &tags)).to_string();
            for row in r0 + 1..r1 {
                canvas.put(row, c0, &text, style);
            }
        } else {
            let line = if c1 < c0 { '/' } else { '\\' };
            let text = piece.map_or(line, |pc| compact_owner(pc, &tags)).to_string();
            let dir = (c1 - c0).signum();
            canvas.put(r0, c0 + 2 * dir, &text, style);
            canvas.put(r1, c1 - 2 * dir, &text, style);
        }
    }
    let mut markers: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, &h) in state.markers.iter() {
        markers.entry(h).or_default().push(name.as_str());
    }
    // Inner widths: between the vertical sides, and between the side characters.
    let (middle, inner) = ((2 * CX - 1) as usize, 7usize);
    for (h, info) in topo.hexes.iter().enumerate() {
        let (row, col) = (3 * info.r, (2 * info.q + info.r) * CX);
        canvas.put_centred(row - 1, col, &info.label, Some(STYLE_LABEL));
        let Some(hex) = state.hexes.get(h) else {
            continue;
        };
        let number = hex.number.map(|n| n.to_string());
        let room = middle - number.as_ref().map_or(0, |n| n.len() + 1);
        let terrain: String = spec.terrains.get(hex.terrain as usize).map_or(String::new(), |t| t.name.clone());
        let short: String = terrain.chars().take(room).collect();
        let text = match &number {
            Some(n) if short.is_empty() => n.clone(),
            Some(n) => format!("{short} {n}"),
            None => short,
        };
        let hot = matches!(hex.number, Some(6 | 8));
        canvas.put_centred(row, col, &text, if hot { Some(STYLE_HOT_NUMBER) } else { terrain_style(&terrain) });
        match markers.get(&h) {
            Some(names) => {
                let text: String = names.join(" ").chars().take(inner).collect();
                canvas.put_centred(row + 1, col, &text, Some(STYLE_ROBBER));
            }
            None => {
                if let Some(n) = hex.number {
                    let pips = 6usize.saturating_sub((7 - i32::from(n)).unsigned_abs() as usize);
                    canvas.put_centred(
                        row + 1,
                        col,
                        &".".repeat(pips),
                        if hot { Some(STYLE_HOT_NUMBER) } else { None },
                    );
                }
            }
        }
    }
    for (n, info) in topo.intersections.iter().enumerate() {
        let (row, col) = point(n);
        match state.intersections.get(n).copied().flatten() {
            Some(piece) => {
                let tag = compact_owner(piece, &tags);
                let text = match spec.pieces.get(piece.kind as usize).map(|k| k.name.as_str()) {
                    Some("city") => format!("{}{}", tag.to_ascii_uppercase(), info.label),
                    _ => format!("{tag}{}", info.label),
                };
                canvas.put_centred(row, col, &text, owner_style(piece, state));
            }
            None => canvas.put_centred(row, col, &info.label, None),
        }
    }
    canvas
}

/// The compact drawing's legend: the players' tags and how pieces show.
fn compact_legend(state: &GameState, spec: &Spec, color: bool) -> Vec<String> {
    let mut words: Vec<String> = state
        .players
        .iter()
        .zip(compact_tags(state))
        .map(|(p, t)| {
            if color {
                format!("\x1b[{}m{t}\x1b[0m={}", player_style(&p.color), p.color)
            } else {
                format!("{t}={}", p.color)
            }
        })
        .collect();
    if state.intersections.iter().chain(state.paths.iter()).any(|p| p.is_some_and(|p| p.seat().is_none())) {
        words.push("x=no-player".to_string());
    }
    let mut legend = String::from("|");
    if spec.piece("settlement").is_some() {
        legend.push_str(" r26 settlement");
    }
    if spec.piece("city").is_some() {
        legend.push_str(" R26 city");
    }
    legend.push_str(" | r on a side: road");
    words.extend(legend.split(' ').map(str::to_string));
    wrap_within("", &words, " ", COMPACT_WRAP).into_iter().map(|l| l.trim_start().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Header};
    use crate::state::HexState;
    use std::sync::Arc;

    fn game(sandbox: bool) -> Game {
        Game::new(Header { variants: vec!["base".into()], players: 4, seed: 1, options: vec![], sandbox })
            .expect("the base game starts")
    }

    /// A state on an arbitrary board, every hex desert-less fields with a number.
    fn state_on(coords: &[(i32, i32)], spec: &Spec, players: usize) -> GameState {
        let topo = Topology::from_axial(coords).expect("a valid board");
        let mut st = GameState::new(spec, players, 7, BTreeMap::new());
        st.hexes = (0..topo.hexes.len())
            .map(|h| HexState {
                terrain: (h % spec.terrains.len().max(1)) as u8,
                number: Some([2, 3, 4, 5, 6, 8, 9, 10, 11, 12][h % 10]),
            })
            .collect::<Vec<_>>()
            .into();
        st.intersections = vec![None; topo.intersections.len()].into();
        st.paths = vec![None; topo.paths.len()].into();
        st.topology = Some(Arc::new(topo));
        st
    }

    /// Every intersection shows its label, or the piece standing there.
    fn assert_intersections_shown(canvas: &Canvas, st: &GameState, spec: &Spec) {
        let topo = st.topology.as_deref().expect("a board");
        let tags = player_tags(st);
        for (n, info) in topo.intersections.iter().enumerate() {
            let want = match st.intersections[n] {
                Some(p) => intersection_piece(p, spec, &tags, &info.label),
                None => info.label.clone(),
            };
            let w = want.chars().count() as i32;
            let got = canvas.text_at(info.y * KY, info.x * KX - (w - 1) / 2, want.len());
            assert_eq!(got, want, "intersection {}", info.label);
        }
    }

    #[test]
    fn no_board_yet() {
        let g = game(false);
        let mut st = g.state().clone();
        st.topology = None;
        assert_eq!(render(&st, g.spec(), &RenderOptions { color: false, compact: false }), "(no board yet)");
    }

    #[test]
    fn standard_board_shows_every_hex_intersection_number_and_the_robber() {
        let g = game(false);
        let st = g.state().clone();
        let spec = g.spec();
        let topo = st.topology.clone().expect("the base game has a board");
        let text = render(&st, spec, &RenderOptions { color: false, compact: false });
        println!("{text}");
        assert!(!text.contains('\x1b'), "no escapes without colour");
        let canvas = draw(&topo, &st, spec);
        assert_eq!(canvas.clashes, 0, "nothing drawn over anything else");
        let words: Vec<&str> =
            text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
        for h in &topo.hexes {
            assert!(words.contains(&h.label.as_str()), "{} shown", h.label);
        }
        for (h, hex) in st.hexes.iter().enumerate() {
            let info = &topo.hexes[h];
            let (row, col) = (3 * info.r * KY, (2 * info.q + info.r) * KX);
            if let Some(n) = hex.number {
                let s = n.to_string();
                let w = s.len() as i32;
                assert_eq!(canvas.text_at(row, col - (w - 1) / 2, s.len()), s);
            }
            let terrain = &spec.terrains[hex.terrain as usize].name;
            let w = terrain.len() as i32;
            assert_eq!(canvas.text_at(row - 1, col - (w - 1) / 2, terrain.len()), *terrain);
        }
        assert_intersections_shown(&canvas, &st, spec);
        // The robber stands in its hex, on the map itself (not only in the legend).
        let robber = st.markers["robber"];
        let info = &topo.hexes[robber];
        let (row, col) = (3 * info.r * KY, (2 * info.q + info.r) * KX);
        assert_eq!(canvas.text_at(row + KY, col - 2, 6), "robber");
        // Every harbor is listed, and each found room on the map.
        for h in st.harbors.iter() {
            assert!(text.contains(&format!("{} at {}", harbor_text(h), topo.paths[h.path].label)));
        }
        let map: String = canvas.lines(false).join("\n");
        assert_eq!(map.matches(":1").count(), st.harbors.len());
        // Beginner starting pieces: settlements with their owners.
        assert!(st.intersections.iter().any(|p| p.is_some()));
        let width = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(width <= 100, "fits in 100 columns, got {width}");
    }

    #[test]
    fn cities_roads_and_colour() {
        let mut g = game(true);
        let seat = g.to_act().expect("someone acts");
        g.sandbox(seat, "place city 1 blue").expect("sandbox city");
        g.sandbox(seat, "place road 1-4 blue").expect("sandbox road");
        g.sandbox(seat, "place road 12-17 red").expect("sandbox road");
        let st = g.state().clone();
        let spec = g.spec();
        let topo = st.topology.clone().expect("a board");
        let canvas = draw(&topo, &st, spec);
        assert_eq!(canvas.clashes, 0);
        assert_intersections_shown(&canvas, &st, spec);
        let plain = render(&st, spec, &RenderOptions { color: false, compact: false });
        let n1 = &topo.intersections[0];
        assert_eq!(canvas.text_at(n1.y * KY, n1.x * KX, 2), "B1", "the city, and its label still readable");
        assert!(plain.contains("/b/") || plain.contains("\\b\\"));
        println!("{plain}");
        // The vertical road 12-17: a doubled bar, the owner's tag in the middle.
        let (a, b) = (&topo.intersections[11], &topo.intersections[16]);
        assert_eq!(a.x, b.x);
        let rows: Vec<String> = (a.y * KY + 1..b.y * KY).map(|r| canvas.text_at(r, a.x * KX, 2)).collect();
        assert_eq!(rows, ["||", "r ", "||"]);
        let coloured = render(&st, spec, &RenderOptions { color: true, compact: false });
        assert!(coloured.contains("\x1b[1;34mB1\x1b[0m"), "a blue city");
        assert!(coloured.contains("\x1b[1;31m6\x1b[0m") || coloured.contains("\x1b[1;31m8"));
        assert!(coloured.contains("\x1b[32mforest\x1b[0m"));
        let strip = |s: &str| {
            let mut out = String::new();
            let mut esc = false;
            for ch in s.chars() {
                match (esc, ch) {
                    (false, '\x1b') => esc = true,
                    (true, 'm') => esc = false,
                    (true, _) => {}
                    (false, c) => out.push(c),
                }
            }
            out
        };
        assert_eq!(strip(&coloured), plain, "colour only adds escapes");
    }

    /// The compact board: the standard board within a 24-line, 80-column terminal, every
    /// hex, number and intersection readable, pieces and roads by their owner's tag.
    #[test]
    fn compact_board_fits_a_small_terminal() {
        let mut g = game(true);
        let seat = g.to_act().expect("someone acts");
        g.sandbox(seat, "place city 1 blue").expect("sandbox city");
        g.sandbox(seat, "place road 1-4 blue").expect("sandbox road");
        g.sandbox(seat, "place road 12-17 red").expect("sandbox road");
        let st = g.state().clone();
        let spec = g.spec();
        let topo = st.topology.clone().expect("a board");
        let canvas = draw_compact(&topo, &st, spec);
        assert_eq!(canvas.clashes, 0, "nothing drawn over anything else");
        let text = render(&st, spec, &RenderOptions { color: false, compact: true });
        println!("{text}");
        assert!(text.lines().count() <= 21, "{} lines", text.lines().count());
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        for (n, info) in topo.intersections.iter().enumerate() {
            let tags = compact_tags(&st);
            let want = match st.intersections[n] {
                Some(p) if spec.pieces[p.kind as usize].name == "city" => {
                    format!("{}{}", compact_owner(p, &tags).to_ascii_uppercase(), info.label)
                }
                Some(p) => format!("{}{}", compact_owner(p, &tags), info.label),
                None => info.label.clone(),
            };
            let w = want.len() as i32;
            assert_eq!(canvas.text_at(info.y, info.x * CX - (w - 1) / 2, want.len()), want, "{}", info.label);
        }
        for (h, hex) in st.hexes.iter().enumerate() {
            let info = &topo.hexes[h];
            let (row, col) = (3 * info.r, (2 * info.q + info.r) * CX);
            let w = info.label.len() as i32;
            assert_eq!(canvas.text_at(row - 1, col - (w - 1) / 2, info.label.len()), info.label);
            if let Some(n) = hex.number {
                assert!(canvas.text_at(row, col - 5, 11).contains(&format!(" {n}")), "H{}", h + 1);
            }
        }
        assert!(text.contains("B1"), "blue's city on 1");
        // The road 1-4: blue's tag beside each end; the road 12-17: red's in the middle.
        let (n1, n4, n12) = (&topo.intersections[0], &topo.intersections[3], &topo.intersections[11]);
        assert_eq!(canvas.text_at(n1.y, n1.x * CX - 2, 1), "b");
        assert_eq!(canvas.text_at(n4.y, n4.x * CX + 2, 1), "b");
        assert_eq!(canvas.text_at(n12.y + 1, n12.x * CX, 1), "r");
        assert!(!text.contains('\x1b'));
        let coloured = render(&st, spec, &RenderOptions { color: true, compact: true });
        assert!(coloured.contains("\x1b[1;34mB1\x1b[0m"), "a blue city");
    }

    #[test]
    fn compact_tags_are_one_letter_each() {
        let g = game(false);
        let mut st = state_on(&[(0, 0)], g.spec(), 6);
        for (p, c) in st.players.iter_mut().zip(["red", "blue", "white", "orange", "green", "brown"]) {
            p.color = c.into();
        }
        assert_eq!(compact_tags(&st), ['r', 'l', 'w', 'o', 'g', 'n']);
    }

    #[test]
    fn any_axial_board_renders_without_clashes() {
        let g = game(false);
        let spec = g.spec();
        // 5-6 player frame: rows of 3-4-5-6-5-4-3 hexes.
        let mut big = vec![];
        for (i, r) in (-3..=3i32).enumerate() {
            let len = [3, 4, 5, 6, 5, 4, 3][i];
            let start = (-3 - r).max(-3);
            for k in 0..len {
                big.push((start + k, r));
            }
        }
        // An irregular archipelago.
        let islands = vec![(0, 0), (1, 0), (0, 1), (4, -2), (5, -2), (-3, 3), (2, 2)];
        for coords in [big, islands] {
            let mut st = state_on(&coords, spec, 6);
            st.players[4].color = "green".into();
            st.players[5].color = "brown".into();
            st.markers.insert("robber".into(), 0);
            st.intersections[0] = Some(Piece { kind: 1, owner: 5 });
            st.intersections[2] = Some(Piece { kind: 2, owner: 1 });
            st.paths[0] = Some(Piece { kind: 0, owner: 5 });
            let topo = st.topology.clone().expect("a board");
            let coast: Vec<usize> =
                (0..topo.paths.len()).filter(|&p| topo.paths[p].hexes.len() == 1).step_by(5).collect();
            for (i, &p) in coast.iter().enumerate() {
                std::sync::Arc::make_mut(&mut st.harbors).push(crate::state::Harbor {
                    path: p,
                    resource: (i % 2 == 0).then(|| "grain".to_string()),
                    ratio: if i % 2 == 0 { 2 } else { 3 },
                });
            }
            let canvas = draw(&topo, &st, spec);
            assert_eq!(canvas.clashes, 0);
            assert_intersections_shown(&canvas, &st, spec);
            assert_eq!(draw_compact(&topo, &st, spec).clashes, 0, "the compact drawing too");
            let text = render(&st, spec, &RenderOptions { color: false, compact: false });
            println!("{text}");
            assert!(text.contains("br=brown") && text.contains("bl=blue"));
            let n0 = &topo.intersections[0];
            assert_eq!(canvas.text_at(n0.y * KY, n0.x * KX - 1, 3), "br1", "brown's settlement on 1");
            for h in &topo.hexes {
                assert!(text.contains(&h.label));
            }
        }
    }
}
