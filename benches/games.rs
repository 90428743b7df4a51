//! Whole random-bot games per second for every edition (`cargo bench`), on one worker and
//! on every core. Speed is measured here and by bench/side_by_side.py (ratios
//! against catanatron and fastcatan), never by timed assertions in tests.
//!
//! `CATAN_BENCH_GAMES=N` sets the games per line (default 100); `CATAN_BENCH_ONLY=word`
//! runs only the lines whose label contains the word.

use catan_engine::sim;
use std::time::Instant;

struct Line {
    label: &'static str,
    variants: &'static [&'static str],
    players: usize,
    options: &'static [(&'static str, &'static str)],
}

const LINES: &[Line] = &[
    Line { label: "base, 4 players, beginner board", variants: &["base"], players: 4, options: &[] },
    Line {
        // The setting of side_by_side.py: what catanatron and fastcatan play.
        label: "base, 4 players, random board with set-up",
        variants: &["base"],
        players: 4,
        options: &[("board", "random"), ("starting_pieces", "false")],
    },
    Line { label: "family, 4 players", variants: &["family"], players: 4, options: &[] },
    Line { label: "classic, 4 players", variants: &["classic"], players: 4, options: &[] },
    Line { label: "base, 6 players, special building", variants: &["base"], players: 6, options: &[] },
    Line {
        label: "base, 6 players, paired turns",
        variants: &["base"],
        players: 6,
        options: &[("turn_structure", "paired")],
    },
    Line { label: "base+helpers, 4 players", variants: &["base", "helpers"], players: 4, options: &[] },
    Line { label: "rivals, introductory game", variants: &["rivals"], players: 2, options: &[] },
    // The Theme Games at 7 points: random bots seldom reach the full 12 (docs/rivals.md).
    Line {
        label: "rivals, era of gold (7 points)",
        variants: &["rivals_gold"],
        players: 2,
        options: &[("victory_points", "7")],
    },
    Line {
        label: "rivals, era of turmoil (7 points)",
        variants: &["rivals_turmoil"],
        players: 2,
        options: &[("victory_points", "7")],
    },
    Line {
        label: "rivals, era of progress (7 points)",
        variants: &["rivals_progress"],
        players: 2,
        options: &[("victory_points", "7")],
    },
    Line {
        label: "rivals, duel of the princes (7 points)",
        variants: &["rivals_duel"],
        players: 2,
        options: &[("victory_points", "7")],
    },
];

fn main() {
    let games: usize = std::env::var("CATAN_BENCH_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    let only = std::env::var("CATAN_BENCH_ONLY").unwrap_or_default();
    let cores = sim::default_jobs();
    for line in LINES.iter().filter(|l| l.label.contains(only.as_str())) {
        let variants: Vec<String> = line.variants.iter().map(|s| s.to_string()).collect();
        let options: Vec<(String, String)> = line.options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut jobs_list = vec![1];
        if cores > 1 {
            jobs_list.push(cores);
        }
        for jobs in jobs_list {
            let start = Instant::now();
            let report =
                match sim::run_jobs(&variants, line.players, &options, games, 1, &sim::Lineup::default(), jobs, |_| {})
                {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("{}: {e}", line.label);
                        std::process::exit(1);
                    }
                };
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{:<44} {jobs} worker{}: {games} games in {secs:6.2} s = {:7.1} games/s ({:5.1} µs per action, {:.0} actions per game)",
                line.label,
                if jobs == 1 { " " } else { "s" },
                games as f64 / secs,
                secs * 1e6 * jobs as f64 / (report.mean_actions * games as f64),
                report.mean_actions
            );
        }
    }
}
