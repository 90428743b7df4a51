//! How the rows of a run add up into its report, two runs into a comparison, a sweep's
//! runs side by side; and the texts `catan sim` prints for each.

use super::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    pub variants: Vec<String>,
    pub players: usize,
    pub games: usize,
    /// Who played: "random in every seat", or the first game's lineup and its seating.
    pub lineup: String,
    /// Workers that played the games (the figures above and below do not depend on it).
    pub jobs: usize,
    pub finished: usize,
    /// Games stopped by an error, counted apart from the others (not in the means).
    pub failed: Vec<FailedGame>,
    /// Games the action cap cut off, each with its reason.
    pub cut_off: Vec<GameRow>,
    pub wins: Vec<usize>,
    /// Each seat's wins per game (failed games left out) with its 95% Wilson interval.
    pub seat_rates: Vec<Rate>,
    /// Whether seat win rates differ more than chance allows (a chi-squared test of the
    /// wins per seat against equal shares, among the games with a winner).
    pub seat_balance: SeatBalance,
    pub mean_turns: f64,
    /// The 95% interval of the mean number of turns.
    pub turns_ci95: [f64; 2],
    pub mean_actions: f64,
    pub seconds: f64,
    pub games_per_second: f64,
    /// Wins per kind of bot, keyed by its name (seats rotated across games).
    pub bots: BTreeMap<String, BotWins>,
    /// Each metric's mean per game with its 95% interval, over the games that carry it
    /// (failed games left out; see [`GameRow::metrics`]).
    pub metrics: BTreeMap<String, Mean>,
    /// Every game, in order (for `--out`; not in the JSON report).
    #[serde(skip)]
    pub rows: Vec<GameRow>,
}

/// How one kind of bot fared: it sat in `seats` seats of each game.
#[derive(Debug, Clone, Serialize)]
pub struct BotWins {
    pub seats: usize,
    pub wins: usize,
    /// Wins per game, and its 95% confidence interval (Wilson score).
    pub rate: f64,
    pub ci95: [f64; 2],
    /// The rate a bot no better than the others would reach from its seats alone.
    pub fair_share: f64,
}

/// Adds up the rows of a run, in game order, into its report: the one way `catan sim`
/// and a sharded sweep both count. `games` is the number of rows; `jobs` and `seconds`
/// say how they were played.
pub fn report_from_rows(
    variants: &[String],
    players: usize,
    lineup: &Lineup,
    mut rows: Vec<GameRow>,
    jobs: usize,
    seconds: f64,
) -> SimReport {
    rows.sort_by_key(|r| r.game);
    let games = rows.len();
    let mut wins = vec![0; players];
    let (mut turns, mut acts, mut finished) = (vec![], 0u64, 0usize);
    let (mut failed, mut cut_off) = (vec![], vec![]);
    let mut by_kind: BTreeMap<Entrant, usize> = BTreeMap::new();
    for row in &rows {
        match row.end {
            End::Error => {
                failed.push(FailedGame { seed: row.seed, actions: row.actions, error: row.reason.clone() });
                continue;
            }
            End::ActionCap => cut_off.push(row.clone()),
            End::Won => {}
        }
        if let Some(w) = row.winner.and_then(|w| w.checked_sub(1)).filter(|&w| w < players) {
            wins[w] += 1;
            *by_kind.entry(lineup.seats(players, row.game)[w].clone()).or_default() += 1;
            finished += 1;
        }
        turns.push(row.turns as f64);
        acts += row.actions as u64;
    }
    let n = games - failed.len();
    let played = n.max(1) as f64;
    let mut bots = BTreeMap::new();
    // Programs as bots: each by its name.
    let first = lineup.seats(players, 0);
    for kind in &first {
        let seats = first.iter().filter(|&k| k == kind).count();
        let w = by_kind.get(kind).copied().unwrap_or(0);
        let rate = w as f64 / played;
        let fair_share = seats as f64 / players as f64;
        bots.insert(kind.name(), BotWins { seats, wins: w, rate, ci95: wilson95(w, n), fair_share });
    }
    let seat_rates = wins.iter().map(|&w| Rate { rate: w as f64 / played, ci95: wilson95(w, n) }).collect();
    let ran: Vec<&GameRow> = rows.iter().filter(|r| r.end != End::Error).collect();
    let metrics = metric_names(ran.iter().copied())
        .into_iter()
        .map(|name| {
            let xs: Vec<f64> = ran.iter().filter_map(|r| row_metric(r, &name)).collect();
            (name, Mean::of(&xs))
        })
        .collect();
    let (mean_turns, turns_ci95) = mean_ci95(&turns);
    SimReport {
        variants: variants.to_vec(),
        players,
        games,
        lineup: lineup.describe(players),
        jobs,
        finished,
        failed,
        cut_off,
        seat_balance: seat_balance(&wins),
        wins,
        seat_rates,
        mean_turns,
        turns_ci95,
        mean_actions: acts as f64 / played,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        bots,
        metrics,
        rows,
    }
}

/// Two runs on the same seeds, A and B, and how B differs from A: games are paired by
/// seed, so each difference's interval is that of the mean of per-game differences.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: SimReport,
    pub b: SimReport,
    /// Games where neither side failed (the pairs the differences are over).
    pub paired: usize,
    /// B's win rate minus A's, per seat, with 95% intervals.
    pub seat_diff: Vec<Diff>,
    /// B's mean turns minus A's.
    pub turns_diff: Diff,
    /// Per metric, B's mean minus A's over the pairs where both games carry it (a
    /// metric only one side declares has no pair, and no entry).
    pub metrics_diff: BTreeMap<String, Diff>,
}

/// Compares two finished runs of the same number of games and seats on the same seeds.
pub fn compare(a: SimReport, b: SimReport) -> Result<Comparison, String> {
    if a.rows.len() != b.rows.len() || a.players != b.players {
        return Err(format!(
            "the two sides differ in games ({} and {}) or players ({} and {})",
            a.rows.len(),
            b.rows.len(),
            a.players,
            b.players
        ));
    }
    let pairs: Vec<(&GameRow, &GameRow)> =
        a.rows.iter().zip(&b.rows).filter(|(x, y)| x.end != End::Error && y.end != End::Error).collect();
    let seat_diff = (1..=a.players)
        .map(|s| {
            let d: Vec<f64> = pairs
                .iter()
                .map(|(x, y)| f64::from(u8::from(y.winner == Some(s))) - f64::from(u8::from(x.winner == Some(s))))
                .collect();
            Diff::of(&d)
        })
        .collect();
    let turns: Vec<f64> = pairs.iter().map(|(x, y)| y.turns as f64 - x.turns as f64).collect();
    let names = metric_names(pairs.iter().flat_map(|(x, y)| [*x, *y]));
    let metrics_diff = names
        .into_iter()
        .filter_map(|name| {
            let d: Vec<f64> =
                pairs.iter().filter_map(|(x, y)| Some(row_metric(y, &name)? - row_metric(x, &name)?)).collect();
            (!d.is_empty()).then(|| (name, Diff::of(&d)))
        })
        .collect();
    Ok(Comparison { paired: pairs.len(), seat_diff, turns_diff: Diff::of(&turns), metrics_diff, a, b })
}

/// The most values one `--sweep` may take (each is a whole run).
pub const MAX_SWEEP_VALUES: usize = 1000;

/// `--sweep OPTION=A..B` (whole numbers, both included) or `OPTION=V1,V2,...`: the
/// option and its values in order.
pub fn parse_sweep(text: &str) -> Result<(String, Vec<String>), String> {
    let usage = "--sweep takes OPTION=A..B (whole numbers, both included) or OPTION=V1,V2,...";
    let (option, spec) = text.split_once('=').ok_or_else(|| format!("{usage}, not '{text}'"))?;
    let (option, spec) = (option.trim(), spec.trim());
    if option.is_empty() || spec.is_empty() {
        return Err(format!("{usage}, not '{text}'"));
    }
    let values: Vec<String> = match spec.split_once("..") {
        Some((a, b)) => {
            let bound = |x: &str| {
                x.trim().parse::<i64>().map_err(|_| format!("--sweep {text}: '{}' is not a whole number", x.trim()))
            };
            let (a, b) = (bound(a)?, bound(b)?);
            if a > b {
                return Err(format!("--sweep {text}: the range runs upwards, {b}..{a}"));
            }
            if b.abs_diff(a) >= MAX_SWEEP_VALUES as u64 {
                return Err(format!("--sweep {text}: at most {MAX_SWEEP_VALUES} values"));
            }
            (a..=b).map(|v| v.to_string()).collect()
        }
        None => spec.split(',').map(|v| v.trim().to_string()).collect(),
    };
    if values.iter().any(|v| v.is_empty()) {
        return Err(format!("--sweep {text}: an empty value"));
    }
    if values.len() > MAX_SWEEP_VALUES {
        return Err(format!("--sweep {text}: at most {MAX_SWEEP_VALUES} values"));
    }
    let mut seen = BTreeSet::new();
    if let Some(v) = values.iter().find(|v| !seen.insert(v.as_str())) {
        return Err(format!("--sweep {text}: '{v}' is given twice"));
    }
    Ok((option.to_string(), values))
}

/// `catan sim --sweep`: the same games (seeds, bots) played once for each value of one
/// option.
#[derive(Debug, Clone, Serialize)]
pub struct Sweep {
    pub option: String,
    pub points: Vec<SweepPoint>,
}

/// One value of a sweep and the run played with it.
#[derive(Debug, Clone, Serialize)]
pub struct SweepPoint {
    pub value: String,
    pub report: SimReport,
}

/// The options of one value of a sweep: `options` with `option` set to `value`.
pub fn sweep_options(options: &[(String, String)], option: &str, value: &str) -> OptionList {
    let mut opts: OptionList = options.iter().filter(|(k, _)| k != option).cloned().collect();
    opts.push((option.to_string(), value.to_string()));
    opts
}

/// Options as given on the command line: (key, value) pairs.
pub type OptionList = Vec<(String, String)>;

/// One side of `--compare`: `STACK`, `STACK:KEY=VALUE,...` or `:KEY=VALUE,...` (the
/// stack of `--variant`). The side's options are added to `--option`'s, winning over them.
pub fn parse_side(
    text: &str,
    stack: &[String],
    options: &[(String, String)],
) -> Result<(Vec<String>, OptionList), String> {
    let (s, o) = text.split_once(':').unwrap_or((text, ""));
    let stack = if s.trim().is_empty() { stack.to_vec() } else { s.split('+').map(|x| x.trim().to_string()).collect() };
    let mut opts = options.to_vec();
    for kv in o.split(',').filter(|kv| !kv.trim().is_empty()) {
        let (k, v) =
            kv.split_once('=').ok_or_else(|| format!("--compare '{text}': options are KEY=VALUE, not '{kv}'"))?;
        opts.retain(|(key, _)| key != k.trim());
        opts.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok((stack, opts))
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Games cut off, games failed and the seat-balance warning, as report lines.
fn notes(r: &SimReport, out: &mut String) {
    use std::fmt::Write;
    if !r.failed.is_empty() {
        let _ = writeln!(out, "  stopped by a script error: {} (not counted in the means)", r.failed.len());
        for f in r.failed.iter().take(5) {
            let _ = writeln!(out, "    seed {} after {} actions: {}", f.seed, f.actions, f.error);
        }
    }
    if !r.cut_off.is_empty() {
        let _ = writeln!(out, "  cut off without a winner: {} (counted in the means)", r.cut_off.len());
        for g in r.cut_off.iter().take(10) {
            let _ = writeln!(out, "    seed {}: {}", g.seed, g.reason);
        }
        if r.cut_off.len() > 10 {
            let _ = writeln!(out, "    ... {} more (see --out)", r.cut_off.len() - 10);
        }
    }
    if r.seat_balance.imbalanced {
        let (hi, lo) = extremes(&r.seat_rates);
        let _ = writeln!(
            out,
            "  warning: seat win rates differ significantly (chi-squared {:.1}, p = {:.4}): seat {} wins {}, seat {} {}\n    \
             (the seats of this set-up are not equal: turn order, starting pieces; compare rules on the same seats)",
            r.seat_balance.chi2,
            r.seat_balance.p_value,
            hi + 1,
            pct(r.seat_rates[hi].rate),
            lo + 1,
            pct(r.seat_rates[lo].rate)
        );
    }
}

/// The seats with the highest and the lowest win rate.
fn extremes(rates: &[Rate]) -> (usize, usize) {
    let by = |a: &(usize, &Rate), b: &(usize, &Rate)| a.1.rate.total_cmp(&b.1.rate);
    let hi = rates.iter().enumerate().max_by(by).map_or(0, |x| x.0);
    let lo = rates.iter().enumerate().min_by(by).map_or(0, |x| x.0);
    (hi, lo)
}

/// The report `catan sim` prints.
pub fn report_text(r: &SimReport, seed: u64, per_bot: bool) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{} games of {} with {} players (seed {seed})", r.games, r.variants.join("+"), r.players);
    let _ = writeln!(out, "  bots: {}", r.lineup);
    let _ = writeln!(out, "  finished with a winner: {}", r.finished);
    notes(r, &mut out);
    let _ = writeln!(out, "  wins per seat (95% interval):");
    for (i, (w, q)) in r.wins.iter().zip(&r.seat_rates).enumerate() {
        let wins = crate::repl::text::count(*w as u64, "win");
        let _ = writeln!(out, "  seat {}: {wins} ({}, {}-{})", i + 1, pct(q.rate), pct(q.ci95[0]), pct(q.ci95[1]));
    }
    if per_bot {
        let _ = writeln!(out, "  per bot (95% confidence interval):");
        for (name, b) in &r.bots {
            let _ = writeln!(
                out,
                "  {name:<7} in {}: {} ({}, {}-{}; fair share {})",
                crate::repl::text::count(b.seats as u64, "seat"),
                crate::repl::text::count(b.wins as u64, "win"),
                pct(b.rate),
                pct(b.ci95[0]),
                pct(b.ci95[1]),
                pct(b.fair_share)
            );
        }
    }
    // A turn is one player's; players count rounds (every player's turn once).
    let rounds = |t: f64| t / r.players.max(1) as f64;
    let _ = writeln!(
        out,
        "  mean turns: {:.1} ({:.1}-{:.1}), that is {:.1} rounds ({:.1}-{:.1}); mean actions: {:.1}",
        r.mean_turns,
        r.turns_ci95[0],
        r.turns_ci95[1],
        rounds(r.mean_turns),
        rounds(r.turns_ci95[0]),
        rounds(r.turns_ci95[1]),
        r.mean_actions
    );
    if !r.metrics.is_empty() {
        let names: BTreeSet<String> = r.metrics.keys().cloned().collect();
        let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
        let _ = writeln!(out, "  metrics, mean per game (95% interval):");
        for name in shown_order(&names) {
            let m = &r.metrics[name];
            let _ = writeln!(out, "    {name:<width$} {:>8.2} ({:.2}-{:.2})", m.mean, m.ci95[0], m.ci95[1]);
        }
    }
    let _ = writeln!(
        out,
        "  {:.2} s, {} on {}",
        r.seconds,
        speed_text(r.games_per_second),
        crate::repl::text::count(r.jobs as u64, "worker")
    );
    out
}

/// The speed of a run as it reads best: games per second, or seconds per game when the
/// games are slower than one a second ("0.1 games per second" is "10.0 seconds per game").
pub fn speed_text(games_per_second: f64) -> String {
    if games_per_second >= 1.0 || games_per_second <= 0.0 {
        format!("{games_per_second:.1} games per second")
    } else {
        format!("{:.1} seconds per game", 1.0 / games_per_second)
    }
}

/// The report of `catan sim --compare A B`.
pub fn comparison_text(c: &Comparison, seed: u64, sides: &[String]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    // A side as given, and the stack it means when it differs (":victory_points=8").
    let name = |i: usize, r: &SimReport| {
        let stack = r.variants.join("+");
        match sides.get(i) {
            Some(s) if *s != stack => format!("{s} (stack {stack})"),
            _ => stack,
        }
    };
    let _ = writeln!(
        out,
        "A: {}\nB: {}\n{} games each with {} players, the same seeds ({seed}..{}); {} pairs without an error",
        name(0, &c.a),
        name(1, &c.b),
        c.a.games,
        c.a.players,
        seed + c.a.games.saturating_sub(1) as u64,
        c.paired
    );
    let _ = writeln!(out, "bots: {}", c.a.lineup);
    for (label, r) in [("A", &c.a), ("B", &c.b)] {
        let mut n = String::new();
        notes(r, &mut n);
        if !n.is_empty() {
            let _ = write!(out, "{label}:\n{n}");
        }
    }
    let _ =
        writeln!(out, "{:<8} {:>22} {:>22} {:>30}", "", "A (95% interval)", "B (95% interval)", "B - A (95% interval)");
    let row = |out: &mut String, what: String, a: String, b: String, d: &Diff, scale: f64, unit: &str| {
        let mark = if d.significant { "  *" } else { "" };
        let _ = writeln!(
            out,
            "{what:<8} {a:>22} {b:>22} {:>30}{mark}",
            format!("{:+.1}{unit} ({:+.1} to {:+.1})", d.diff * scale, d.ci95[0] * scale, d.ci95[1] * scale)
        );
    };
    for (s, d) in c.seat_diff.iter().enumerate() {
        let (qa, qb) = (&c.a.seat_rates[s], &c.b.seat_rates[s]);
        let show = |q: &Rate| format!("{} ({:.1}-{:.1})", pct(q.rate), 100.0 * q.ci95[0], 100.0 * q.ci95[1]);
        row(&mut out, format!("seat {}", s + 1), show(qa), show(qb), d, 100.0, " pts");
    }
    let show = |r: &SimReport| format!("{:.1} ({:.1}-{:.1})", r.mean_turns, r.turns_ci95[0], r.turns_ci95[1]);
    row(&mut out, "turns".into(), show(&c.a), show(&c.b), &c.turns_diff, 1.0, "");
    let names: BTreeSet<String> = c.a.metrics.keys().chain(c.b.metrics.keys()).cloned().collect();
    if !names.is_empty() {
        let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(7);
        let _ = writeln!(
            out,
            "{:<width$} {:>24} {:>24} {:>30}",
            "metrics", "A (95% interval)", "B (95% interval)", "B - A (95% interval)"
        );
        let mean = |r: &SimReport, name: &str| {
            r.metrics
                .get(name)
                .map_or("-".to_string(), |m| format!("{:.2} ({:.2}-{:.2})", m.mean, m.ci95[0], m.ci95[1]))
        };
        for name in shown_order(&names) {
            let (diff, mark) = match c.metrics_diff.get(name) {
                Some(d) => (
                    format!("{:+.2} ({:+.2} to {:+.2})", d.diff, d.ci95[0], d.ci95[1]),
                    if d.significant { "  *" } else { "" },
                ),
                None => ("- (one side only)".to_string(), ""),
            };
            let _ = writeln!(out, "{name:<width$} {:>24} {:>24} {diff:>30}{mark}", mean(&c.a, name), mean(&c.b, name));
        }
    }
    let _ = writeln!(out, "  * the 95% interval of the difference leaves out 0 (paired by seed)");
    out
}

/// The report of `catan sim --sweep`: a line per value (each seat's win rate and the
/// game length, with 95% intervals), then the metrics' means per value.
pub fn sweep_text(s: &Sweep, seed: u64) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let Some(first) = s.points.first().map(|p| &p.report) else { return out };
    let values: Vec<&str> = s.points.iter().map(|p| p.value.as_str()).collect();
    let _ = writeln!(
        out,
        "{} over {}: {} games each of {} with {} players, the same seeds ({seed}..{})",
        s.option,
        values.join(", "),
        first.games,
        first.variants.join("+"),
        first.players,
        seed + first.games.saturating_sub(1) as u64
    );
    let _ = writeln!(out, "bots: {}", first.lineup);
    let vw = values.iter().map(|v| v.len()).max().unwrap_or(0).max(s.option.len()).max(5);
    let cell = |q: &Rate| format!("{} ({:.1}-{:.1})", pct(q.rate), 100.0 * q.ci95[0], 100.0 * q.ci95[1]);
    let _ = write!(out, "{:<vw$}", s.option);
    for seat in 1..=first.players {
        let _ = write!(out, " {:>19}", format!("seat {seat}"));
    }
    let _ = writeln!(out, " {:>22}", "turns");
    for p in &s.points {
        let r = &p.report;
        let _ = write!(out, "{:<vw$}", p.value);
        for q in &r.seat_rates {
            let _ = write!(out, " {:>19}", cell(q));
        }
        let _ =
            writeln!(out, " {:>22}", format!("{:.1} ({:.1}-{:.1})", r.mean_turns, r.turns_ci95[0], r.turns_ci95[1]));
    }
    let _ = writeln!(out, "  win rate per seat and mean turns, 95% intervals");
    for p in &s.points {
        let r = &p.report;
        if !r.failed.is_empty() {
            let f = &r.failed[0];
            let _ = writeln!(
                out,
                "  {}={}: {} game(s) stopped by a script error (not counted), first seed {}: {}",
                s.option,
                p.value,
                r.failed.len(),
                f.seed,
                f.error
            );
        }
        if !r.cut_off.is_empty() {
            let _ = writeln!(
                out,
                "  {}={}: {} game(s) cut off without a winner (counted), first seed {}",
                s.option,
                p.value,
                r.cut_off.len(),
                r.cut_off[0].seed
            );
        }
    }
    let uneven: Vec<&str> =
        s.points.iter().filter(|p| p.report.seat_balance.imbalanced).map(|p| p.value.as_str()).collect();
    if !uneven.is_empty() {
        let _ = writeln!(
            out,
            "  seat win rates differ significantly (chi-squared, p < 0.05) at {}={}",
            s.option,
            uneven.join(", ")
        );
    }
    let names: BTreeSet<String> = s.points.iter().flat_map(|p| p.report.metrics.keys().cloned()).collect();
    if !names.is_empty() {
        let nw = names.iter().map(|n| n.len()).max().unwrap_or(0).max(7);
        let _ = writeln!(out, "metrics, mean per game (95% interval), by {}:", s.option);
        let _ = write!(out, "{:<nw$}", "");
        for v in &values {
            let _ = write!(out, " {v:>22}");
        }
        out.push('\n');
        for name in shown_order(&names) {
            let _ = write!(out, "{name:<nw$}");
            for p in &s.points {
                let m = p.report.metrics.get(name);
                let text = m.map_or("-".to_string(), |m| format!("{:.2} ({:.2}-{:.2})", m.mean, m.ci95[0], m.ci95[1]));
                let _ = write!(out, " {text:>22}");
            }
            out.push('\n');
        }
    }
    out
}
