//! `catan sim`: many complete random-bot games, for testing house rules.

use crate::bot::RandomBot;
use crate::engine::{Game, GameError, Header};
use serde::Serialize;
use std::time::Instant;

/// A game that runs longer than this many actions is stopped and counted unfinished.
pub const MAX_ACTIONS: usize = 50_000;

#[derive(Debug, Clone, Serialize)]
pub struct GameResult {
    pub seed: u64,
    pub winner: Option<usize>,
    pub turns: u32,
    pub actions: usize,
}

/// Plays one game with a random bot in every seat. `each` sees the game after every
/// action (tests use it to check invariants).
pub fn play_one(header: Header, each: impl FnMut(&Game) -> Result<(), String>) -> Result<GameResult, GameError> {
    let mut game = Game::new(header)?;
    play_game(&mut game, each)
}

/// Plays a freshly set-up game to its end with random bots.
pub fn play_game(game: &mut Game, mut each: impl FnMut(&Game) -> Result<(), String>) -> Result<GameResult, GameError> {
    let seed = game.header().seed;
    let players = game.header().players;
    let mut bots: Vec<RandomBot> = (0..players)
        .map(|s| RandomBot::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64 + 1)))
        .collect();
    each(game).map_err(GameError::Setup)?;
    let mut actions = 0;
    while game.winner().is_none() && actions < MAX_ACTIONS {
        let seat = game.to_act()?;
        let Some(action) = bots[seat].choose(game, seat)? else {
            return Err(GameError::Setup(format!(
                "seat {} has no legal action in phase {}",
                seat + 1,
                game.state().phase
            )));
        };
        game.perform(seat, &action).map_err(|e| {
            GameError::Setup(format!("a listed legal action was refused: '{}': {e}", game.action_text(&action)))
        })?;
        actions += 1;
        each(game).map_err(GameError::Setup)?;
    }
    let st = game.state();
    Ok(GameResult { seed, winner: st.winner, turns: st.turn, actions })
}

/// A game a script error stopped: its seed, how far it got, and the error (with the
/// hook and file:line), so a modder can replay it.
#[derive(Debug, Clone, Serialize)]
pub struct FailedGame {
    pub seed: u64,
    pub actions: usize,
    pub error: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    pub variants: Vec<String>,
    pub players: usize,
    pub games: usize,
    pub finished: usize,
    /// Games stopped by an error, counted apart from the others (not in the means).
    pub failed: Vec<FailedGame>,
    pub wins: Vec<usize>,
    pub mean_turns: f64,
    pub mean_actions: f64,
    pub seconds: f64,
    pub games_per_second: f64,
}

pub fn run(
    variants: &[String],
    players: usize,
    options: &[(String, String)],
    games: usize,
    seed: u64,
    mut progress: impl FnMut(usize),
) -> Result<SimReport, GameError> {
    let start = Instant::now();
    let mut wins = vec![0; players];
    let (mut turns, mut acts, mut finished) = (0u64, 0u64, 0usize);
    let header = Header { variants: variants.to_vec(), players, seed, options: options.to_vec(), sandbox: false };
    let mut game = Game::new(header)?;
    let mut failed = vec![];
    for i in 0..games {
        let played = match i {
            0 => Ok(()),
            _ => game.restart(seed.wrapping_add(i as u64)),
        }
        .and_then(|()| play_game(&mut game, |_| Ok(())));
        let r = match played {
            Ok(r) => r,
            Err(e) => {
                let error = e.to_string();
                failed.push(FailedGame { seed: seed.wrapping_add(i as u64), actions: game.log().len(), error });
                progress(i + 1);
                continue;
            }
        };
        if let Some(w) = r.winner {
            wins[w] += 1;
            finished += 1;
        }
        turns += r.turns as u64;
        acts += r.actions as u64;
        progress(i + 1);
    }
    let secs = start.elapsed().as_secs_f64();
    let played = (games - failed.len()).max(1) as f64;
    Ok(SimReport {
        variants: variants.to_vec(),
        players,
        games,
        finished,
        failed,
        wins,
        mean_turns: turns as f64 / played,
        mean_actions: acts as f64 / played,
        seconds: secs,
        games_per_second: games as f64 / secs.max(1e-9),
    })
}
