//! Instructions per evaluation, for tuning a variant's `evaluate` filter under load:
//! `perf stat -e instructions:u cargo run --release --example eval_cost -- 2000 [VARIANT] [PLAYERS]`.

use catan_engine::bot::RandomBot;
use catan_engine::{Game, Header};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let variant = std::env::args().nth(2).unwrap_or_else(|| "base".into());
    let players: usize = std::env::args().nth(3).and_then(|s| s.parse().ok()).unwrap_or(4);
    let header = Header { variants: vec![variant], players, seed: 5, options: vec![], sandbox: false };
    let mut game = Game::new(header).unwrap_or_else(|e| panic!("{e}"));
    let mut bot = RandomBot::new(1);
    for _ in 0..150 {
        let seat = game.to_act().unwrap_or(0);
        match bot.choose(&game, seat) {
            Ok(Some(a)) => {
                let _ = game.perform(seat, &a);
            }
            _ => break,
        }
    }
    for _ in 0..n {
        std::hint::black_box(game.evaluate().ok());
    }
}
