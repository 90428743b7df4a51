//! What a bot's decisions cost (docs/bots.md): plays seeded games with one kind in every
//! seat on one thread and times each decision. Prints the median, the median of decisions
//! with more than one legal action, the 90th percentile and the mean, and seconds a game.
//! A measurement, not a test:
//! `cargo run --release --example decision_cost -- planner 20 base` (kind, games, stack,
//! then KEY=VALUE options; the default options are the random board with the set-up phase).
//! The kind may name the evaluation every seat plays with, as `catan sim --bots` does:
//! `planner@none` (the hand-written `evaluate`), `planner@FILE` (a weights file).

use catan_engine::bot::{Bot, BotSpec, Budget};
use catan_engine::{Game, Header};
use std::time::Instant;

// The allocator of the `catan` binary and the Python package, where the bots play: a
// decision allocates and frees many small Lua tables, which the system allocator serves
// slower.
#[global_allocator]
static ALLOCATOR: catan_engine::alloc::Allocator = catan_engine::alloc::Allocator;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = BotSpec::parse(args.first().map_or("planner", |s| s)).unwrap_or_else(|e| panic!("{e}"));
    let kind = spec.kind;
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let stack: Vec<String> = args.get(2).map_or("base", |s| s).split('+').map(String::from).collect();
    let mut options: Vec<(String, String)> =
        args.iter().skip(3).filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.into(), v.into())).collect();
    if options.is_empty() && stack[0] == "base" {
        options = vec![("board".into(), "random".into()), ("starting_pieces".into(), "false".into())];
    }
    let players = if stack[0].starts_with("rivals") { 2 } else { 4 };
    let header = Header { variants: stack, players, seed: 1, options, sandbox: false };
    let mut game = Game::new(header).unwrap_or_else(|e| panic!("{e}"));
    game.set_quiet(true);
    if let Some(eval) = spec.evaluation(&game).unwrap_or_else(|e| panic!("{e}")) {
        game.swap_tuned(eval);
    }
    let (mut all, mut chosen) = (vec![], vec![]);
    let start = Instant::now();
    for seed in 1..=games {
        game.restart(seed).unwrap_or_else(|e| panic!("{e}"));
        let mut bots: Vec<Bot> =
            (0..players).map(|s| Bot::new(kind, seed * 10 + s as u64, Budget::default())).collect();
        let mut actions = 0;
        while game.winner().is_none() && actions < 20_000 {
            let seat = game.to_act().unwrap_or_else(|e| panic!("{e}"));
            let options = game.legal_actions(seat).map(|l| l.len()).unwrap_or(0);
            let t = Instant::now();
            let Some(a) = bots[seat].choose(&mut game, seat).unwrap_or_else(|e| panic!("{e}")) else { break };
            let dt = t.elapsed().as_secs_f64() * 1e3;
            all.push(dt);
            if options > 1 {
                chosen.push(dt);
            }
            game.perform(seat, &a).unwrap_or_else(|e| panic!("{e}"));
            actions += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let q = |xs: &mut Vec<f64>, p: f64| {
        xs.sort_by(|a, b| a.total_cmp(b));
        xs.get(((xs.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(0.0)
    };
    let mean = all.iter().sum::<f64>() / all.len().max(1) as f64;
    println!(
        "{} in every seat, {games} games: {} decisions, median {:.3} ms, median with a choice {:.3} ms ({} of them), p90 {:.3} ms, mean {:.3} ms; {:.3} s a game",
        spec.name(),
        all.len(),
        q(&mut all, 0.5),
        q(&mut chosen, 0.5),
        chosen.len(),
        q(&mut all, 0.9),
        mean,
        secs / games as f64
    );
}
