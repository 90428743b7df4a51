//! Full random-bot games per second (`cargo bench`). Speed is measured here, never by
//! timed assertions in tests.

use catan_engine::sim;
use std::time::Instant;

fn main() {
    let games: usize = std::env::var("CATAN_BENCH_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    for (label, options) in [
        ("base, 4 players, beginner board", vec![]),
        (
            "base, 4 players, variable set-up",
            vec![("board".to_string(), "variable".to_string()), ("starting_pieces".into(), "false".into())],
        ),
    ] {
        let start = Instant::now();
        let report = match sim::run(&["base".into()], 4, &options, games, 1, &sim::Lineup::default(), |_| {}) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{label}: {e}");
                std::process::exit(1);
            }
        };
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{label}: {games} games in {secs:.2} s = {:.1} games/s ({:.1} µs per action, {:.0} actions per game)",
            games as f64 / secs,
            secs * 1e6 / (report.mean_actions * games as f64),
            report.mean_actions
        );
    }
}
