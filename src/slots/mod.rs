//! Slot grids: boards made of card slots, such as a Rivals for Catan principality. A grid
//! is a rectangle of `rows` x `cols` positions; each position may hold a pile of cards
//! (the top card is the one in play, the cards beneath stay with it, as a city covers a
//! settlement) and a stored amount (resources on a region, tokens on a card). Which
//! position means what — a region, a building site, a road — is the rules' business:
//! the core only keeps the cards and the counts, and answers neighbour queries.
//!
//! Labels are spreadsheet-like: a column letter and a row number (`K2`, `AB10`). The rows
//! of all grids of a game are numbered one after the other (seat 1's grid rows 1-5, seat
//! 2's rows 6-10, ...), so every label names one position of one grid.

pub mod render;

use serde::{Deserialize, Serialize};

/// One occupied position: its cards (bottom first; the last is on top) and its store.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// 0-based row within the grid.
    pub row: u16,
    /// 0-based column within the grid.
    pub col: u16,
    /// Card kinds (indices into `Spec::cards`), bottom first.
    pub cards: Vec<u16>,
    /// A count kept on the position (stored resources, say).
    #[serde(default)]
    pub store: u16,
}

// Copies into a kept snapshot's buffers (see `GameState::clone_from`).
impl Clone for Slot {
    fn clone(&self) -> Slot {
        Slot { row: self.row, col: self.col, cards: self.cards.clone(), store: self.store }
    }
    fn clone_from(&mut self, source: &Slot) {
        let Slot { row, col, cards, store } = source;
        (self.row, self.col, self.store) = (*row, *col, *store);
        self.cards.clone_from(cards);
    }
}

impl Slot {
    /// The card in play: the top of the pile.
    pub fn top(&self) -> Option<u16> {
        self.cards.last().copied()
    }
}

/// A grid of slots, owned by a seat or by the game.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotGrid {
    /// Index into `Spec::grids`.
    pub spec: usize,
    /// The seat that owns the grid (0-based), or None for a game grid.
    pub owner: Option<usize>,
    pub rows: u16,
    pub cols: u16,
    /// The number the grid's first row carries in labels (1-based).
    pub first_row: u32,
    /// Positions holding a card or a store, sorted by (row, col). Empty positions are not
    /// kept.
    pub slots: Vec<Slot>,
}

/// How neighbours are counted around a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Around {
    /// Up, down, left, right.
    Orthogonal,
    /// The four corners.
    Diagonal,
    /// All eight.
    All,
}

impl Around {
    pub fn parse(s: &str) -> Option<Around> {
        Some(match s {
            "orthogonal" => Around::Orthogonal,
            "diagonal" => Around::Diagonal,
            "all" => Around::All,
            _ => return None,
        })
    }
}

/// "A", "B", ..., "Z", "AA", "AB", ... for 0, 1, ...
pub fn column_letters(mut col: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (col % 26) as u8);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The inverse of `column_letters` (case-insensitive).
pub fn column_index(letters: &str) -> Option<usize> {
    if letters.is_empty() || !letters.chars().all(|c| c.is_ascii_alphabetic()) || letters.len() > 3 {
        return None;
    }
    let mut n = 0usize;
    for c in letters.chars() {
        n = n * 26 + (c.to_ascii_uppercase() as u8 - b'A') as usize + 1;
    }
    Some(n - 1)
}

/// Splits "K2" into ("K", 2).
pub fn split_label(label: &str) -> Option<(&str, u32)> {
    let split = label.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = label.split_at(split);
    if letters.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((letters, digits.parse().ok()?))
}

impl Clone for SlotGrid {
    fn clone(&self) -> SlotGrid {
        SlotGrid {
            spec: self.spec,
            owner: self.owner,
            rows: self.rows,
            cols: self.cols,
            first_row: self.first_row,
            slots: self.slots.clone(),
        }
    }
    fn clone_from(&mut self, source: &SlotGrid) {
        let SlotGrid { spec, owner, rows, cols, first_row, slots } = source;
        (self.spec, self.owner, self.rows, self.cols, self.first_row) = (*spec, *owner, *rows, *cols, *first_row);
        self.slots.clone_from(slots);
    }
}

impl SlotGrid {
    pub fn new(spec: usize, owner: Option<usize>, rows: u16, cols: u16, first_row: u32) -> SlotGrid {
        SlotGrid { spec, owner, rows, cols, first_row, slots: vec![] }
    }

    pub fn contains(&self, row: usize, col: usize) -> bool {
        row < self.rows as usize && col < self.cols as usize
    }

    fn position(&self, row: usize, col: usize) -> Result<usize, usize> {
        self.slots.binary_search_by(|s| (s.row as usize, s.col as usize).cmp(&(row, col)))
    }

    pub fn get(&self, row: usize, col: usize) -> Option<&Slot> {
        self.position(row, col).ok().map(|i| &self.slots[i])
    }

    /// The slot at (row, col), created empty if needed. The caller must check bounds.
    pub fn get_mut(&mut self, row: usize, col: usize) -> &mut Slot {
        let i = match self.position(row, col) {
            Ok(i) => i,
            Err(i) => {
                self.slots.insert(i, Slot { row: row as u16, col: col as u16, cards: vec![], store: 0 });
                i
            }
        };
        &mut self.slots[i]
    }

    /// Forgets the position if it holds nothing any more.
    pub fn tidy(&mut self, row: usize, col: usize) {
        if let Ok(i) = self.position(row, col) {
            if self.slots[i].cards.is_empty() && self.slots[i].store == 0 {
                self.slots.remove(i);
            }
        }
    }

    /// The card in play at (row, col).
    pub fn top(&self, row: usize, col: usize) -> Option<u16> {
        self.get(row, col).and_then(Slot::top)
    }

    pub fn store(&self, row: usize, col: usize) -> u16 {
        self.get(row, col).map(|s| s.store).unwrap_or(0)
    }

    /// Swaps everything at two positions (cards and stores).
    pub fn swap(&mut self, a: (usize, usize), b: (usize, usize)) {
        if a == b {
            return;
        }
        let sa = self.get(a.0, a.1).cloned();
        let sb = self.get(b.0, b.1).cloned();
        let put = |g: &mut SlotGrid, at: (usize, usize), from: Option<Slot>| {
            let s = g.get_mut(at.0, at.1);
            match from {
                Some(f) => {
                    s.cards = f.cards;
                    s.store = f.store;
                }
                None => {
                    s.cards.clear();
                    s.store = 0;
                }
            }
            g.tidy(at.0, at.1);
        };
        put(self, a, sb);
        put(self, b, sa);
    }

    /// "K2" for (row 1, col 10) of a grid whose first row is 1.
    pub fn label(&self, row: usize, col: usize) -> String {
        format!("{}{}", column_letters(col), self.first_row as usize + row)
    }

    /// (row, col) of a label, if it lies in this grid.
    pub fn parse_label(&self, label: &str) -> Option<(usize, usize)> {
        let (letters, number) = split_label(label)?;
        let col = column_index(letters)?;
        let row = (number as usize).checked_sub(self.first_row as usize)?;
        self.contains(row, col).then_some((row, col))
    }

    /// In-bounds positions around (row, col), in reading order.
    pub fn around(&self, row: usize, col: usize, how: Around) -> Vec<(usize, usize)> {
        let mut out = vec![];
        for dr in -1i64..=1 {
            for dc in -1i64..=1 {
                let diagonal = dr != 0 && dc != 0;
                let keep = match how {
                    Around::Orthogonal => (dr == 0) != (dc == 0),
                    Around::Diagonal => diagonal,
                    Around::All => dr != 0 || dc != 0,
                };
                if !keep {
                    continue;
                }
                let (r, c) = (row as i64 + dr, col as i64 + dc);
                if r >= 0 && c >= 0 && self.contains(r as usize, c as usize) {
                    out.push((r as usize, c as usize));
                }
            }
        }
        out
    }

    /// Every card in the grid, beneath ones included.
    pub fn all_cards(&self) -> impl Iterator<Item = u16> + '_ {
        self.slots.iter().flat_map(|s| s.cards.iter().copied())
    }
}

/// Finds the grid and position a label names among `grids`.
pub fn find_label<G: std::borrow::Borrow<SlotGrid>>(grids: &[G], label: &str) -> Option<(usize, usize, usize)> {
    grids.iter().enumerate().find_map(|(i, g)| g.borrow().parse_label(label).map(|(r, c)| (i, r, c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_letters_round_trip() {
        for (n, s) in [(0, "A"), (10, "K"), (25, "Z"), (26, "AA"), (27, "AB"), (701, "ZZ"), (702, "AAA")] {
            assert_eq!(column_letters(n), s);
            assert_eq!(column_index(s), Some(n));
            assert_eq!(column_index(&s.to_lowercase()), Some(n));
        }
        assert_eq!(column_index(""), None);
        assert_eq!(column_index("A1"), None);
    }

    #[test]
    fn labels_are_numbered_from_the_first_row() {
        let g = SlotGrid::new(0, Some(1), 5, 25, 6);
        assert_eq!(g.label(0, 0), "A6");
        assert_eq!(g.label(4, 24), "Y10");
        assert_eq!(g.parse_label("k7"), Some((1, 10)));
        assert_eq!(g.parse_label("K5"), None, "row 5 belongs to another grid");
        assert_eq!(g.parse_label("Z6"), None, "column Z is outside 25 columns");
        assert_eq!(g.parse_label("K"), None);
        let grids = vec![SlotGrid::new(0, Some(0), 5, 25, 1), g];
        assert_eq!(find_label(&grids, "K2"), Some((0, 1, 10)));
        assert_eq!(find_label(&grids, "K7"), Some((1, 1, 10)));
        assert_eq!(find_label(&grids, "K11"), None);
    }

    #[test]
    fn slots_are_kept_sorted_and_tidied() {
        let mut g = SlotGrid::new(0, None, 3, 3, 1);
        g.get_mut(2, 1).cards.push(4);
        g.get_mut(0, 2).cards.push(5);
        g.get_mut(0, 0).store = 2;
        let order: Vec<(u16, u16)> = g.slots.iter().map(|s| (s.row, s.col)).collect();
        assert_eq!(order, vec![(0, 0), (0, 2), (2, 1)]);
        assert_eq!(g.top(0, 2), Some(5));
        g.get_mut(0, 2).cards.pop();
        g.tidy(0, 2);
        assert!(g.get(0, 2).is_none());
        g.swap((0, 0), (1, 1));
        assert_eq!(g.store(1, 1), 2);
        assert!(g.get(0, 0).is_none());
    }

    #[test]
    fn neighbours_stay_in_bounds() {
        let g = SlotGrid::new(0, None, 3, 3, 1);
        assert_eq!(g.around(0, 0, Around::Orthogonal), vec![(0, 1), (1, 0)]);
        assert_eq!(g.around(0, 0, Around::Diagonal), vec![(1, 1)]);
        assert_eq!(g.around(1, 1, Around::All).len(), 8);
        assert_eq!(g.around(1, 1, Around::Diagonal), vec![(0, 0), (0, 2), (2, 0), (2, 2)]);
    }
}
