//! Instructions per fork (`snapshot` + `restore`) and per determinization, on the
//! position of `cargo bench --bench bots` (base, 4 players, random board with the set-up,
//! 120 random actions) or a Rivals one (2 players). Run it twice under callgrind, with N
//! and with 0 iterations, and divide the difference by N (src/README.md, "Speed"):
//! `valgrind --tool=callgrind target/release/examples/fork_cost fork 2000 base`. It runs on
//! the system allocator, as `cargo bench` does; `fork_cost_mimalloc` is the same on the
//! `catan` binary's allocator, where the bots play.

use catan_engine::bot::{determinize::determinize, RandomBot};
use catan_engine::{Game, Header};
use rand::SeedableRng;

pub fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("fork", |s| s.as_str());
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let variant = args.get(3).map_or("base", |s| s.as_str());
    let (players, options) = match variant {
        "base" => (4, vec![("board".into(), "random".into()), ("starting_pieces".into(), "false".into())]),
        _ => (2, vec![]),
    };
    let header = Header { variants: vec![variant.into()], players, seed: 5, options, sandbox: false };
    let mut game = Game::new(header).unwrap_or_else(|e| panic!("{e}"));
    let mut bot = RandomBot::new(1);
    for _ in 0..120 {
        let seat = game.to_act().unwrap_or(0);
        match bot.choose(&game, seat) {
            Ok(Some(a)) => {
                let _ = game.perform(seat, &a);
            }
            _ => break,
        }
    }
    let seat = game.to_act().unwrap_or(0);
    let snap = game.snapshot();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    match what {
        "fork" => {
            for _ in 0..n {
                let s = game.snapshot();
                game.restore(&s);
            }
        }
        "determinize" => {
            for _ in 0..n {
                std::hint::black_box(determinize(game.spec(), snap.state(), seat, &mut rng));
            }
        }
        // What a bot's playout does: deal a determinization and put it in place.
        "playout" => {
            for _ in 0..n {
                let det = snap.with_state(determinize(game.spec(), snap.state(), seat, &mut rng));
                game.restore(&det);
            }
        }
        other => panic!("fork, determinize or playout, not {other}"),
    }
    std::hint::black_box(game.evaluate().ok());
}
