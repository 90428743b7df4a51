//! Where two bots choose differently in the same positions (docs/bots.md, Rivals): plays
//! seeded games of bot A against bot B and, at each of A's decisions where `end` is legal
//! (the action phase) with a choice, asks B too; prints both choices and tallies them by
//! action name. A diagnostic, not a test:
//! `cargo run --release --example choices -- rivals 4 planner mcts` (stack, games, A, B).

use catan_engine::bot::{Bot, BotKind, Budget};
use catan_engine::{Game, Header};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stack: Vec<String> = args.first().map_or("rivals", |s| s).split('+').map(String::from).collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let a = BotKind::parse(args.get(2).map_or("planner", |s| s)).unwrap_or_else(|e| panic!("{e}"));
    let b = BotKind::parse(args.get(3).map_or("mcts", |s| s)).unwrap_or_else(|e| panic!("{e}"));
    let verbose = args.iter().any(|s| s == "-v");
    let header = Header { variants: stack, players: 2, seed: 1, options: vec![], sandbox: false };
    let mut game = Game::new(header).unwrap_or_else(|e| panic!("{e}"));
    game.set_quiet(true);
    // (A's choice name, B's choice name) -> count
    let mut tally: BTreeMap<(String, String), u32> = BTreeMap::new();
    let (mut same, mut differ) = (0, 0);
    for seed in 1..=games {
        game.restart(seed).unwrap_or_else(|e| panic!("{e}"));
        let a_seat = (seed % 2) as usize;
        let mut bots: Vec<Bot> = (0..2)
            .map(|s| Bot::new(if s == a_seat { a } else { b }, seed * 10 + s as u64, Budget::default()))
            .collect();
        let mut judge = Bot::new(b, seed * 10 + 7, Budget::default());
        let mut actions = 0;
        while game.winner().is_none() && actions < 5_000 {
            let seat = game.to_act().unwrap_or_else(|e| panic!("{e}"));
            let legal = game.legal_actions(seat).unwrap_or_default();
            let pick = bots[seat].choose(&mut game, seat).unwrap_or_else(|e| panic!("{e}"));
            let Some(pick) = pick else { break };
            if seat == a_seat && legal.len() > 1 && legal.iter().any(|x| x.name == "end") {
                if let Ok(Some(other)) = judge.choose(&mut game, seat) {
                    let key = (pick.name.clone(), other.name.clone());
                    *tally.entry(key).or_default() += 1;
                    if other == pick {
                        same += 1;
                    } else {
                        differ += 1;
                        if verbose {
                            println!(
                                "game {seed} {}: '{}' where {} plays '{}'",
                                a.name(),
                                game.action_text(&pick),
                                b.name(),
                                game.action_text(&other)
                            );
                        }
                    }
                }
            }
            game.perform(seat, &pick).unwrap_or_else(|e| panic!("{e}"));
            actions += 1;
        }
        println!("game {seed}: winner {:?} ({} sat in seat {a_seat})", game.winner(), a.name());
    }
    println!("same choice {same}, different {differ}");
    for ((x, y), n) in tally {
        println!("{n:5}  {} {x:<12} {} {y}", a.name(), b.name());
    }
}
