//! The pieces of a sharded `catan sim` (`python -m catan_engine.sweep`): play a range of
//! a run's games, and add rows up into the report, both through `catan_engine::sim`, so a
//! sweep counts exactly as one `catan sim` process does.

use crate::{nogil, py_err, SetupError};
use catan_engine::bot::Budget;
use catan_engine::engine::Header;
use catan_engine::sim::{self, GameRow, Lineup};
use catan_engine::GameError;
use pyo3::prelude::*;

fn lineup(
    bots: Option<&str>,
    seats: &str,
    max_actions: usize,
    playouts: Option<usize>,
    think_ms: Option<u64>,
) -> PyResult<Lineup> {
    let mut budget = Budget::default();
    if let Some(p) = playouts {
        budget.playouts = p;
    }
    budget.think_ms = think_ms;
    Lineup::from_args(bots, seats, max_actions, budget).map_err(SetupError::new_err)
}

fn header(variant: &str, players: Option<usize>, seed: u64, options: Vec<(String, String)>) -> PyResult<Header> {
    Header::from_args(variant, players, seed, options, false).map_err(SetupError::new_err)
}

/// Plays games `start..end` of the run `catan sim --variant VARIANT --seed SEED ...`
/// would play (game `i` seeded with SEED + i) on this thread, the GIL released, and
/// returns their rows as JSON Lines (`catan sim --out rows.jsonl`'s format; with `saves`,
/// each row holds its game's save, as there).
#[pyfunction]
#[pyo3(signature = (variant, players, seed, options, start, end, bots = None, seats = "rotate", max_actions = sim::MAX_ACTIONS, playouts = None, think_ms = None, saves = false))]
#[allow(clippy::too_many_arguments)]
pub fn sim_rows(
    py: Python<'_>,
    variant: &str,
    players: Option<usize>,
    seed: u64,
    options: Vec<(String, String)>,
    start: usize,
    end: usize,
    bots: Option<&str>,
    seats: &str,
    max_actions: usize,
    playouts: Option<usize>,
    think_ms: Option<u64>,
    saves: bool,
) -> PyResult<String> {
    let h = header(variant, players, seed, options)?;
    // `saves`: each row carries its game's save, as `catan sim --out rows.jsonl` writes.
    let lineup = Lineup { saves, ..lineup(bots, seats, max_actions, playouts, think_ms)? };
    let rows = nogil(py, || sim::play_range(&h, start..end.max(start), &lineup)).map_err(py_err)?;
    let pairs: Vec<(&str, &GameRow)> = rows.iter().map(|r| ("", r)).collect();
    Ok(sim::rows_jsonl(&pairs))
}

/// The report of a run from its rows (JSON Lines from `sim_rows`, in any order): the text
/// `catan sim` prints, the JSON `catan sim --json` prints, and the rows for `--out PATH`
/// (CSV, or JSON Lines if PATH ends in .jsonl or .json; "" without a path).
#[pyfunction]
#[pyo3(signature = (variant, players, seed, options, rows, jobs, seconds, bots = None, seats = "rotate", max_actions = sim::MAX_ACTIONS, out = None))]
#[allow(clippy::too_many_arguments)]
pub fn sim_report(
    py: Python<'_>,
    variant: &str,
    players: Option<usize>,
    seed: u64,
    options: Vec<(String, String)>,
    rows: Vec<String>,
    jobs: usize,
    seconds: f64,
    bots: Option<&str>,
    seats: &str,
    max_actions: usize,
    out: Option<&str>,
) -> PyResult<(String, String, String)> {
    let h = header(variant, players, seed, options)?;
    let lineup = lineup(bots, seats, max_actions, None, None)?;
    lineup.check_players(h.players).map_err(SetupError::new_err)?;
    let parsed = nogil(py, || -> Result<Vec<GameRow>, GameError> {
        let mut parsed = vec![];
        for chunk in &rows {
            for line in chunk.lines().filter(|l| !l.trim().is_empty()) {
                parsed.push(
                    serde_json::from_str(line).map_err(|e| GameError::Setup(format!("not a row of a run: {e}")))?,
                );
            }
        }
        Ok(parsed)
    })
    .map_err(py_err)?;
    let report = sim::report_from_rows(&h.variants, h.players, &lineup, parsed, jobs, seconds);
    let text = sim::report_text(&report, seed, report.bots.len() > 1);
    let json = serde_json::to_string_pretty(&report).unwrap_or_default();
    let rows_out = match out {
        Some(path) => {
            let pairs: Vec<(&str, &GameRow)> = report.rows.iter().map(|r| ("", r)).collect();
            sim::rows_text(path, &pairs, report.players)
        }
        None => String::new(),
    };
    Ok((text, json, rows_out))
}
