use catan_engine::bot::RandomBot;
use catan_engine::engine::{Game, Header};
use std::time::{Duration, Instant};
fn main() {
    let (mut t_new, mut t_legal, mut t_perf, mut t_toact) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    let mut n_act = 0;
    for seed in 0..30 {
        let t = Instant::now();
        let mut g = Game::new(Header {
            variants: vec!["base".into()],
            players: 4,
            seed,
            options: vec![],
            sandbox: false,
        })
        .unwrap();
        t_new += t.elapsed();
        let mut bot = RandomBot::new(seed);
        while g.winner().is_none() {
            let t = Instant::now();
            let s = g.to_act().unwrap();
            t_toact += t.elapsed();
            let t = Instant::now();
            let acts = g.legal_actions(s).unwrap();
            t_legal += t.elapsed();
            let a = bot.pick(acts).unwrap();
            let t = Instant::now();
            g.perform(s, &a).unwrap();
            t_perf += t.elapsed();
            n_act += 1;
        }
    }
    println!(
        "new {:?}/game, to_act {:?}/act, legal {:?}/act, perform {:?}/act, acts {}",
        t_new / 30,
        t_toact / n_act,
        t_legal / n_act,
        t_perf / n_act,
        n_act / 30
    );
}
