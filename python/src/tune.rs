//! `catan tune` from Python: self-play tuning of a stack's evaluation (`catan_engine::tune`).

use crate::{nogil, py_err, SetupError};
use catan_engine::engine::Header;
use catan_engine::tune::{self as core, TuneConfig};
use pyo3::prelude::*;
use std::collections::BTreeMap;

/// Tunes the weights of `variant`'s evaluation by `games` games of self-play in `rounds`
/// rounds, the GIL released, and returns `(weights, made)`: the weights by feature name and
/// how they were made. With `out`, also puts them into that weights file (as `catan tune
/// --out` does; `NAME.weights.toml` beside `NAME.lua` is the file a stack loads). With
/// `teacher` (a bot kind, `"mcts"`), the weights are distilled from that bot's choices
/// (`catan tune --teacher`). With `play_games`, a search by play follows the fit (`catan
/// tune --play-games`). With `minutes`, the run stops after the round in progress once
/// they have passed and starts no match of the search by play past them (`catan tune
/// --minutes`; the weights then depend on the machine's speed).
#[pyfunction]
#[pyo3(signature = (variant = "base", games = 1000, rounds = 4, seed = 1, players = None, options = vec![], jobs = None, from_scratch = false, without_evaluate = false, teacher = None, play_games = 0, out = None, minutes = None))]
#[allow(clippy::too_many_arguments)]
pub fn tune(
    py: Python<'_>,
    variant: &str,
    games: usize,
    rounds: usize,
    seed: u64,
    players: Option<usize>,
    options: Vec<(String, String)>,
    jobs: Option<usize>,
    from_scratch: bool,
    without_evaluate: bool,
    teacher: Option<String>,
    play_games: usize,
    out: Option<String>,
    minutes: Option<f64>,
) -> PyResult<(BTreeMap<String, f64>, String)> {
    let header = Header::from_args(variant, players, seed, options, false).map_err(SetupError::new_err)?;
    let teacher = teacher.as_deref().map(catan_engine::bot::BotKind::parse).transpose().map_err(SetupError::new_err)?;
    let cfg = TuneConfig {
        header,
        games,
        rounds,
        seconds: minutes.map(|m| m * 60.0),
        jobs: jobs.unwrap_or_else(catan_engine::sim::default_jobs),
        from_scratch,
        without_evaluate,
        teacher,
        play_games,
    };
    let report = nogil(py, || core::tune(&cfg, |_, _, _| {})).map_err(py_err)?;
    if let Some(path) = out {
        core::write(std::path::Path::new(&path), &report.tuned).map_err(SetupError::new_err)?;
    }
    Ok((report.tuned.weights, report.tuned.made))
}
