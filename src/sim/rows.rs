//! What each game of a run leaves: its row (winner, points, length, why it ended, the
//! metrics counted from its log), as CSV or JSON Lines, and a game's save picked back out
//! of rows.

use crate::engine::{Game, SaveFile};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A game a script error stopped: its seed, how far it got, and the error (with the
/// hook and file:line), so a modder can replay it.
#[derive(Debug, Clone, Serialize)]
pub struct FailedGame {
    pub seed: u64,
    pub actions: usize,
    pub error: String,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A seat won.
    Won,
    /// Cut off by the action cap (`Lineup::max_actions`) without a winner.
    ActionCap,
    /// Stopped by a script error (see `SimReport::failed`).
    Error,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Won => "won",
            End::ActionCap => "action_cap",
            End::Error => "error",
        }
    }
}

/// One game of a run, as `--out` writes it (and as a sweep's shards send it back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's index in the run (its seed is the run's seed plus this).
    pub game: usize,
    pub seed: u64,
    /// The winning seat, 1-based.
    pub winner: Option<usize>,
    /// Victory points per seat at the end (empty when an error stopped the game).
    pub points: Vec<i64>,
    pub turns: u32,
    pub actions: usize,
    /// The bot kind of each seat.
    pub bots: Vec<String>,
    pub end: End,
    /// Why the game ended without a winner ("" when it has one).
    pub reason: String,
    /// What was measured at the end of the game: `actions.NAME`, how many times each kind
    /// of action was taken (from the game's log), and the variant's `metrics` filter.
    /// Empty when an error stopped the game; absent from rows written before metrics.
    #[serde(default)]
    pub metrics: BTreeMap<String, f64>,
    /// What it takes to replay the game (its header and action log, as a save file
    /// holds them), when the run keeps it ([`Lineup::saves`]: `--out` JSON Lines), so
    /// `catan play --load rows.jsonl --game N` can step through it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<SaveFile>,
}

/// The prefix of the metrics the engine counts from every game's log.
pub const ACTION_METRIC: &str = "actions.";

/// A row's value of metric `name`: a kind of action a game that ran never took counts 0
/// there; a declared metric a game did not set is missing (not averaged as 0).
pub fn row_metric(row: &GameRow, name: &str) -> Option<f64> {
    match row.metrics.get(name) {
        Some(&v) => Some(v),
        None if row.end != End::Error && name.starts_with(ACTION_METRIC) => Some(0.0),
        None => None,
    }
}

/// Every metric any of `rows` carries, sorted.
pub fn metric_names<'a>(rows: impl IntoIterator<Item = &'a GameRow>) -> BTreeSet<String> {
    rows.into_iter().flat_map(|r| r.metrics.keys().cloned()).collect()
}

/// Metric names in the order a report shows them: the variant's own first, then the
/// counts of actions.
pub(super) fn shown_order(names: &BTreeSet<String>) -> Vec<&String> {
    let (counts, declared): (Vec<&String>, Vec<&String>) = names.iter().partition(|n| n.starts_with(ACTION_METRIC));
    declared.into_iter().chain(counts).collect()
}

/// How many times each kind of action was taken in `game`, from its log: `actions.NAME`,
/// NAME the action's declared name (`play_knight` for "play knight").
pub(super) fn action_counts(game: &Game) -> BTreeMap<String, f64> {
    // The log keeps commands as typed: an action is the one whose syntax's leading words
    // begin the command, the most of them winning ("play knight" over a bare "play").
    // The actions by their first word (lower case), so that a command is matched against
    // the few that could fit it: this runs for every action of every simulated game.
    let mut by_first: rustc_hash::FxHashMap<String, Vec<(Vec<&str>, &str)>> = Default::default();
    for a in &game.spec().actions {
        let lit: Vec<&str> = a
            .syntax
            .iter()
            .map_while(|p| match p {
                crate::spec::SyntaxPart::Literal(l) => Some(l.as_str()),
                crate::spec::SyntaxPart::Arg(_) => None,
            })
            .collect();
        if let Some(first) = lit.first() {
            by_first.entry(first.to_ascii_lowercase()).or_default().push((lit, a.name.as_str()));
        }
    }
    let mut by_name: BTreeMap<&str, f64> = BTreeMap::new();
    for e in game.log() {
        let Some(first) = e.command.split_whitespace().next() else { continue };
        let fits = |lit: &[&str]| {
            let mut words = e.command.split_whitespace();
            lit.iter().all(|l| words.next().is_some_and(|w| l.eq_ignore_ascii_case(w)))
        };
        let candidates = by_first.get(first).or_else(|| by_first.get(&first.to_ascii_lowercase()));
        let best = candidates.and_then(|c| c.iter().filter(|(lit, _)| fits(lit)).max_by_key(|(lit, _)| lit.len()));
        *by_name.entry(best.map_or(first, |(_, n)| *n)).or_default() += 1.0;
    }
    by_name.into_iter().map(|(k, n)| (format!("{ACTION_METRIC}{k}"), n)).collect()
}

/// The per-game rows as CSV: a header line, then one line a game, a column per metric
/// any row carries (sorted) at the end. `side` names the run in a comparison ("A", "B"),
/// empty otherwise.
pub fn rows_csv(rows: &[(&str, &GameRow)], players: usize) -> String {
    rows_csv_labelled("side", rows, players)
}

/// [`rows_csv`] with the first column named `label`: `side` in a comparison, `sweep`
/// (the option's value) in a sweep.
pub fn rows_csv_labelled(label: &str, rows: &[(&str, &GameRow)], players: usize) -> String {
    let names = metric_names(rows.iter().map(|(_, r)| *r));
    let mut out = format!("{label},game,seed,winner,");
    for s in 1..=players {
        out.push_str(&format!("points_{s},"));
    }
    for s in 1..=players {
        out.push_str(&format!("bot_{s},"));
    }
    out.push_str("turns,actions,end,reason");
    for name in &names {
        out.push_str(&format!(",{}", csv_field(name)));
    }
    out.push('\n');
    for (side, r) in rows {
        let (side, winner) = (csv_field(side), r.winner.map_or(String::new(), |w| w.to_string()));
        out.push_str(&format!("{side},{},{},{winner},", r.game, r.seed));
        for s in 0..players {
            out.push_str(&format!("{},", r.points.get(s).map_or(String::new(), |p| p.to_string())));
        }
        for s in 0..players {
            out.push_str(&format!("{},", r.bots.get(s).map_or("", |b| b.as_str())));
        }
        let reason = r.reason.replace('"', "\"\"");
        out.push_str(&format!("{},{},{},\"{reason}\"", r.turns, r.actions, r.end.name()));
        for name in &names {
            out.push_str(&format!(",{}", row_metric(r, name).map_or(String::new(), |v| v.to_string())));
        }
        out.push('\n');
    }
    out
}

/// A name as a CSV field: quoted if it holds a comma or a quote (a metric a variant
/// named so, a sweep's value).
fn csv_field(name: &str) -> String {
    if name.contains([',', '"', '\n']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// The per-game rows as JSON Lines: one object a game, with `side` in a comparison.
pub fn rows_jsonl(rows: &[(&str, &GameRow)]) -> String {
    rows_jsonl_labelled("side", rows)
}

/// [`rows_jsonl`] with the label under the key `label`; a sweep's value that is a whole
/// number is written as one.
pub fn rows_jsonl_labelled(label: &str, rows: &[(&str, &GameRow)]) -> String {
    let mut out = String::new();
    for (side, r) in rows {
        let mut v = serde_json::to_value(r).unwrap_or_default();
        if let (false, Some(obj)) = (side.is_empty(), v.as_object_mut()) {
            let value = side.parse::<i64>().map_or_else(|_| serde_json::Value::from(*side), serde_json::Value::from);
            obj.insert(label.into(), value);
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

/// Whether `--out FILE` writes JSON Lines (FILE ends in `.jsonl` or `.json`): those rows
/// carry each game's save.
pub fn rows_are_jsonl(path: &str) -> bool {
    path.ends_with(".jsonl") || path.ends_with(".json")
}

/// The rows for `--out FILE`: JSON Lines if FILE ends in `.jsonl` or `.json`, else CSV.
pub fn rows_text(path: &str, rows: &[(&str, &GameRow)], players: usize) -> String {
    rows_text_labelled("side", path, rows, players)
}

/// [`rows_text`] with the label column or key named `label` (`sweep`).
pub fn rows_text_labelled(label: &str, path: &str, rows: &[(&str, &GameRow)], players: usize) -> String {
    if rows_are_jsonl(path) {
        rows_jsonl_labelled(label, rows)
    } else {
        rows_csv_labelled(label, rows, players)
    }
}

/// The save of one game in `--out` JSON Lines rows (`lines`, read from `path` one at a
/// time, so a run's file of any length is read holding one row): `which` is the row's
/// game index (`3`), in a comparison or a sweep with its side or value (`B:3`, `8:3`);
/// None takes the file's only row.
pub fn save_from_rows(
    lines: impl Iterator<Item = Result<String, String>>,
    which: Option<&str>,
    path: &str,
) -> Result<SaveFile, String> {
    let name = |label: &Option<String>, row: &GameRow| match label {
        Some(l) => format!("{l}:{}", row.game),
        None => row.game.to_string(),
    };
    let wanted = which.map(str::trim);
    // The rows' names for the message (the first few), how many, the first pick and how
    // many rows match it.
    let (mut shown, mut rows) = (vec![], 0usize);
    let (mut picked, mut matches) = (None, 0usize);
    for (n, line) in lines.enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line)
            .map_err(|e| format!("{path}:{}: not a row of `catan sim --out`: {e}", n + 1))?;
        let label = ["side", "sweep"].iter().find_map(|k| v.get(*k)).map(|l| match l {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let row: GameRow =
            serde_json::from_value(v).map_err(|e| format!("{path}:{}: not a row of `catan sim --out`: {e}", n + 1))?;
        let named = name(&label, &row);
        rows += 1;
        if shown.len() < 8 {
            shown.push(named.clone());
        }
        let hit = match wanted {
            None => true,
            Some(w) => named == w || (!w.contains(':') && row.game.to_string() == w),
        };
        if hit {
            matches += 1;
            if picked.is_none() {
                picked = Some((named, row));
            }
        }
    }
    let choices = || {
        let list = shown.join(", ");
        if rows > shown.len() {
            format!("{list}, ... ({rows} rows)")
        } else {
            list
        }
    };
    let (named, row) = match (picked, matches) {
        (Some(one), 1) => one,
        (None, _) if rows == 0 => return Err(format!("{path} holds no game")),
        (None, _) => return Err(format!("{path} has no game {}: pick one of {}", which.unwrap_or(""), choices())),
        _ => {
            return Err(format!(
                "{path} holds {matches} games{}: pick one with --game (or {path}#GAME), one of {}",
                which.map_or(String::new(), |w| format!(" numbered {w}")),
                choices()
            ))
        }
    };
    row.save.ok_or_else(|| {
        format!(
            "game {named} of {path} was written without its save: `catan sim --out FILE.jsonl` writes one in every row"
        )
    })
}
