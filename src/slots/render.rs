//! Terminal drawing of slot grids: each position as a cell with its card (the top of the
//! pile, `+n` for cards beneath), its label and its store (one `●` per unit). Only the
//! columns around the occupied ones are drawn, so a wide grid that is mostly empty stays
//! narrow. Generic: it knows card names, not what they mean.

use super::SlotGrid;
use crate::spec::Spec;
use crate::state::GameState;

/// Characters per cell, the separating space included.
const CELL: usize = 14;

fn card_text(spec: &Spec, grid: &SlotGrid, row: usize, col: usize) -> String {
    match grid.get(row, col) {
        Some(s) if !s.cards.is_empty() => {
            let top = s.cards[s.cards.len() - 1] as usize;
            let name = spec.cards.get(top).map(|c| c.name.replace('_', " ")).unwrap_or_else(|| "?".into());
            let extra = if s.cards.len() > 1 { format!(" +{}", s.cards.len() - 1) } else { String::new() };
            let room = (CELL - 1).saturating_sub(extra.chars().count());
            let mut name: String = name.chars().take(room).collect();
            name.push_str(&extra);
            name
        }
        _ => "·".to_string(),
    }
}

fn store_text(n: u16) -> String {
    match n {
        0 => String::new(),
        1..=6 => "●".repeat(n as usize),
        n => format!("{n}●"),
    }
}

fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n >= width {
        s.chars().take(width).collect()
    } else {
        format!("{s}{}", " ".repeat(width - n))
    }
}

/// One grid as text lines.
pub fn render_grid(state: &GameState, spec: &Spec, grid: &SlotGrid, color: bool) -> Vec<String> {
    let owner = match grid.owner {
        Some(p) => state.players.get(p).map(|p| format!("{}'s ", p.color)).unwrap_or_default(),
        None => String::new(),
    };
    let name = spec.grids.get(grid.spec).map(|g| g.name.replace('_', " ")).unwrap_or_default();
    let last_row = grid.first_row as usize + grid.rows as usize - 1;
    let title = format!("{owner}{name} (rows {}-{last_row})", grid.first_row);
    let mut lines = vec![if color { format!("\x1b[1m{title}\x1b[0m") } else { title }];
    let used: Vec<usize> = grid.slots.iter().filter(|s| !s.cards.is_empty()).map(|s| s.col as usize).collect();
    let (Some(&lo), Some(&hi)) = (used.iter().min(), used.iter().max()) else {
        lines.push("  (empty)".into());
        return lines;
    };
    let lo = lo.saturating_sub(1);
    let hi = (hi + 1).min(grid.cols as usize - 1);
    for row in 0..grid.rows as usize {
        let mut names = String::from("  ");
        let mut labels = String::from("  ");
        for col in lo..=hi {
            names.push_str(&pad(&card_text(spec, grid, row, col), CELL));
            let store = store_text(grid.store(row, col));
            let label = grid.label(row, col);
            let cell = if store.is_empty() { label } else { format!("{label} {store}") };
            let cell = pad(&cell, CELL);
            if color && grid.top(row, col).is_none() {
                labels.push_str(&format!("\x1b[2m{cell}\x1b[0m"));
            } else {
                labels.push_str(&cell);
            }
        }
        lines.push(names.trim_end().to_string());
        lines.push(labels.trim_end().to_string());
    }
    lines
}

/// Every grid of the game, one after the other.
pub fn render(state: &GameState, spec: &Spec, color: bool) -> String {
    let mut out = vec![];
    for grid in &state.grids {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.extend(render_grid(state, spec, grid, color));
    }
    if out.is_empty() {
        return "(no slot grids)".into();
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{CardKind, GridSpec};
    use std::collections::BTreeMap;

    #[test]
    fn draws_cards_labels_and_stores_around_the_used_columns() {
        let spec = Spec {
            cards: vec![
                CardKind { name: "forest_2".into(), category: "region".into() },
                CardKind { name: "settlement".into(), category: "center".into() },
                CardKind { name: "city".into(), category: "center".into() },
            ],
            grids: vec![GridSpec { name: "principality".into(), per_player: true, rows: 3, cols: 10 }],
            colors: vec!["red".into(), "blue".into()],
            ..Default::default()
        };
        let mut st = GameState::new(&spec, 2, 1, BTreeMap::new());
        {
            let g = &mut st.grids[1];
            let s = g.get_mut(0, 4);
            s.cards.push(0);
            s.store = 2;
            g.get_mut(1, 5).cards.extend([1, 2]);
        }
        let text = render(&st, &spec, false);
        println!("{text}");
        assert!(text.contains("red's principality (rows 1-3)\n  (empty)"));
        assert!(text.contains("blue's principality (rows 4-6)"));
        assert!(text.contains("forest 2"));
        assert!(text.contains("E4 ●●"));
        assert!(text.contains("city +1"));
        // Columns D to G: one either side of the used ones.
        assert!(text.contains("D5") && text.contains("G6"));
        assert!(!text.contains("C5") && !text.contains("H5"));
    }
}
