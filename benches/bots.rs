//! What search costs (`cargo bench --bench bots`): forks (snapshot + restore) per second,
//! evaluations per second, one-ply greedy and MCTS decisions, on positions of a base game
//! played some way by random bots. Speed is measured here, never by timed assertions.

use catan_engine::bot::{determinize::determinize, Bot, BotKind, Budget, RandomBot};
use catan_engine::{Game, Header};
use rand::SeedableRng;
use std::time::Instant;

fn position(actions: usize) -> Game {
    let header = Header {
        variants: vec!["base".into()],
        players: 4,
        seed: 5,
        options: vec![("board".into(), "random".into()), ("starting_pieces".into(), "false".into())],
        sandbox: false,
    };
    let mut game = Game::new(header).unwrap_or_else(|e| panic!("{e}"));
    let mut bot = RandomBot::new(1);
    for _ in 0..actions {
        let seat = game.to_act().unwrap_or(0);
        match bot.choose(&game, seat) {
            Ok(Some(a)) => {
                let _ = game.perform(seat, &a);
            }
            _ => break,
        }
    }
    game
}

fn per_second(label: &str, n: usize, mut f: impl FnMut()) {
    let start = Instant::now();
    for _ in 0..n {
        f();
    }
    let s = start.elapsed().as_secs_f64();
    println!("{label}: {:.0} per second ({:.1} µs each)", n as f64 / s, s * 1e6 / n as f64);
}

fn main() {
    let mut game = position(120);
    let snap = game.snapshot();
    per_second("fork (snapshot + restore)", 20_000, || {
        let s = game.snapshot();
        game.restore(&s);
    });
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    per_second("determinize", 20_000, || {
        let st = determinize(game.spec(), snap.state(), 0, &mut rng);
        std::hint::black_box(st);
    });
    per_second("evaluate (every seat)", 5_000, || {
        std::hint::black_box(game.evaluate().ok());
    });
    let seat = game.to_act().unwrap_or(0);
    per_second("legal actions", 5_000, || {
        std::hint::black_box(game.legal_actions(seat).ok());
    });
    for (kind, budget, n) in [(BotKind::Greedy, Budget::default(), 200), (BotKind::Mcts, Budget::default(), 5)] {
        let mut decisions = 0;
        let start = Instant::now();
        for i in 0..n {
            let mut g = position(40 + 10 * i);
            let seat = g.to_act().unwrap_or(0);
            let mut bot = Bot::new(kind, i as u64, budget);
            if bot.choose(&mut g, seat).is_ok() {
                decisions += 1;
            }
        }
        let s = start.elapsed().as_secs_f64();
        println!("{} decision: {:.1} ms each ({decisions} decisions)", kind.name(), s * 1e3 / decisions.max(1) as f64);
    }
}
