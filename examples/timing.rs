//! Where a simulated game spends its time (a profiling aid, not a benchmark).
use catan_engine::bot::RandomBot;
use catan_engine::engine::{Game, Header};
use std::time::{Duration, Instant};
fn main() {
    let (mut t_choose, mut t_perf, mut t_toact) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut n_act = 0u32;
    let header = Header { variants: vec!["base".into()], players: 4, seed: 0, options: vec![], sandbox: false };
    let mut g = match Game::new(header) {
        Ok(g) => g,
        Err(e) => return eprintln!("{e}"),
    };
    let start = Instant::now();
    for seed in 0..50 {
        if g.restart(seed).is_err() {
            return;
        }
        let mut bot = RandomBot::new(seed);
        while g.winner().is_none() {
            let t = Instant::now();
            let Ok(s) = g.to_act() else { return };
            t_toact += t.elapsed();
            let t = Instant::now();
            let Ok(Some(a)) = bot.choose(&g, s) else { return };
            t_choose += t.elapsed();
            let t = Instant::now();
            if g.perform(s, &a).is_err() {
                return;
            }
            t_perf += t.elapsed();
            n_act += 1;
        }
    }
    println!(
        "{:.1} games/s; per action: to_act {:?}, choose {:?}, perform {:?}; {} actions/game",
        50.0 / start.elapsed().as_secs_f64(),
        t_toact / n_act,
        t_choose / n_act,
        t_perf / n_act,
        n_act / 50
    );
}
