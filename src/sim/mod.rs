//! `catan sim`: many complete bot games, for testing house rules and measuring bots.
//! This file plays them (one game, a shard, a whole run on every core); `lineup.rs` says
//! who sits where, `rows.rs` what each game leaves (rows, metrics, saves), `stats.rs` the
//! intervals and tests, `report.rs` how a run, a comparison and a sweep are added up and
//! printed.

mod lineup;
mod report;
mod rows;
mod stats;
mod workers;
pub(crate) use workers::in_parallel;

pub use lineup::*;
pub use report::*;
pub use rows::*;
pub use stats::*;

use crate::bot::external::ExternalBot;
use crate::bot::{BotKind, BotSpec, Budget, SeatBot};
use crate::engine::{Drawn, Game, GameError, Header};
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Instant;

/// A game that runs longer than this many actions is stopped and counted unfinished.
pub const MAX_ACTIONS: usize = 50_000;

#[derive(Debug, Clone, Serialize)]
pub struct GameResult {
    pub seed: u64,
    pub winner: Option<usize>,
    pub turns: u32,
    pub actions: usize,
    /// Victory points of each seat at the end (hidden ones included).
    pub points: Vec<i64>,
}

/// Plays one game with a random bot in every seat. `each` sees the game after every
/// action (tests use it to check invariants).
pub fn play_one(header: Header, each: impl FnMut(&Game) -> Result<(), String>) -> Result<GameResult, GameError> {
    let mut game = Game::new(header)?;
    play_game(&mut game, each)
}

/// Plays a freshly set-up game to its end with random bots.
pub fn play_game(game: &mut Game, each: impl FnMut(&Game) -> Result<(), String>) -> Result<GameResult, GameError> {
    let players = game.header().players;
    play_with(game, &vec![BotKind::Random; players], Budget::default(), each)
}

/// Plays a freshly set-up game to its end, seat `s` played by a bot of kind `seats[s]`.
pub fn play_with(
    game: &mut Game,
    seats: &[BotKind],
    budget: Budget,
    each: impl FnMut(&Game) -> Result<(), String>,
) -> Result<GameResult, GameError> {
    play_capped(game, seats, budget, MAX_ACTIONS, each)
}

/// Like [`play_with`], stopping after `max_actions` actions: a result without a winner
/// is a game cut off by that cap.
pub fn play_capped(
    game: &mut Game,
    seats: &[BotKind],
    budget: Budget,
    max_actions: usize,
    each: impl FnMut(&Game) -> Result<(), String>,
) -> Result<GameResult, GameError> {
    let seats: Vec<BotSpec> = seats.iter().map(|&k| k.into()).collect();
    play_capped_external(game, &seats, budget, max_actions, &mut [], each)
}

/// Like [`play_capped`], the seats with a bot in `external` played by those programs
/// (`--bot-cmd`): a program that fails, or answers an action the rules refuse, ends the
/// game with an error saying so. Each is sent the same seed as a bot of ours in its seat.
pub fn play_capped_external(
    game: &mut Game,
    seats: &[BotSpec],
    budget: Budget,
    max_actions: usize,
    external: &mut [Option<ExternalBot>],
    mut each: impl FnMut(&Game) -> Result<(), String>,
) -> Result<GameResult, GameError> {
    let seed = game.header().seed;
    let bot_seed = |s: usize| seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64 + 1);
    let mut bots = seats
        .iter()
        .enumerate()
        .map(|(s, b)| SeatBot::new(b, bot_seed(s), budget, game))
        .collect::<Result<Vec<_>, String>>()
        .map_err(GameError::Setup)?;
    each(game).map_err(GameError::Setup)?;
    let mut actions = 0;
    while game.winner().is_none() && actions < max_actions {
        let seat = game.to_act()?;
        if let Some(Some(ext)) = external.get_mut(seat) {
            let action = ext.choose(game, seat, bot_seed(seat)).map_err(GameError::Setup)?;
            game.perform(seat, &action).map_err(|e| {
                GameError::Setup(format!(
                    "the external bot `{}` chose '{}', which was refused: {e}",
                    ext.command(),
                    game.action_text(&action)
                ))
            })?;
            actions += 1;
            each(game).map_err(GameError::Setup)?;
            continue;
        }
        let bot = bots.get_mut(seat).ok_or_else(|| GameError::Setup(format!("no bot for seat {}", seat + 1)))?;
        // (A random seat draws and performs in one call into the rules.)
        match bot.play(game, seat)? {
            Drawn::Played(..) => {}
            Drawn::Refused(action, e) => {
                return Err(GameError::Setup(format!(
                    "a listed legal action was refused: '{}': {e}",
                    game.action_text(&action)
                )))
            }
            Drawn::More | Drawn::Nothing => {
                return Err(GameError::Setup(format!(
                    "seat {} has no legal action in phase {}",
                    seat + 1,
                    game.state().phase
                )))
            }
        }
        actions += 1;
        each(game).map_err(GameError::Setup)?;
    }
    let points = (0..seats.len()).map(|s| game.points(s, true)).collect::<Result<Vec<_>, _>>()?;
    let st = game.state();
    Ok(GameResult { seed, winner: st.winner, turns: st.turn, actions, points })
}

/// Plays `games` games on one core; see [`run_jobs`].
pub fn run(
    variants: &[String],
    players: usize,
    options: &[(String, String)],
    games: usize,
    seed: u64,
    lineup: &Lineup,
    progress: impl FnMut(usize),
) -> Result<SimReport, GameError> {
    run_jobs(variants, players, options, games, seed, lineup, 1, progress)
}

/// The number of workers `catan sim` uses by default: every core this process may use.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Plays `games` games on `jobs` workers, each with its own loaded scripts (one Lua state
/// per worker). Game `i` is seeded with `seed + i` whichever worker plays it, and the
/// report is added up in game order, so it is the same for every number of workers. A
/// game that fails is counted apart with its error; a game that cannot even be set up
/// with the run's own seed (a bad option, a broken variant) fails the run.
/// `progress` is told how many games are done, from the calling thread.
// The game's set-up (variants, players, options), the run (games, seed, bots, workers)
// and a progress callback: each is one plain argument at every call site.
#[allow(clippy::too_many_arguments)]
pub fn run_jobs(
    variants: &[String],
    players: usize,
    options: &[(String, String)],
    games: usize,
    seed: u64,
    lineup: &Lineup,
    jobs: usize,
    progress: impl FnMut(usize),
) -> Result<SimReport, GameError> {
    lineup.check_players(players).map_err(GameError::Setup)?;
    let start = Instant::now();
    let header = Header { variants: variants.to_vec(), players, seed, options: options.to_vec(), sandbox: false };
    let jobs = jobs.clamp(1, games.max(1));
    let rows = in_parallel(&header, jobs, games, |_| (), |g, _, i| Ok(play_row(g, header.seed, i, lineup)), progress)?;
    Ok(report_from_rows(variants, players, lineup, rows, jobs, start.elapsed().as_secs_f64()))
}

/// Plays games `range` of a run (game `i` seeded with `header.seed + i`, its bots seated
/// as in game `i` of `lineup`) one after the other on one loaded game, and returns their
/// rows in order: a shard of [`run_jobs`] that gives the same rows as the whole run, for
/// spreading a run over processes or machines (`python -m catan_engine.sweep`). Fails
/// only if the game cannot be set up with the run's seed.
pub fn play_range(header: &Header, range: Range<usize>, lineup: &Lineup) -> Result<Vec<GameRow>, GameError> {
    lineup.check_players(header.players).map_err(GameError::Setup)?;
    let mut game = Game::new(header.clone())?;
    Ok(range.map(|i| play_row(&mut game, header.seed, i, lineup)).collect())
}

/// Plays game `index` of a run (seed: the run's seed plus the index, bots: the lineup
/// rotated `index` seats, the seats of a program played by a process of its own started
/// for this game) on a worker's game, quiet (`Game::set_quiet`), and returns its row.
pub fn play_row(game: &mut Game, seed: u64, index: usize, lineup: &Lineup) -> GameRow {
    let seed = seed.wrapping_add(index as u64);
    let players = game.header().players;
    let seats = lineup.seats(players, index);
    let bots: Vec<String> = seats.iter().map(Entrant::name).collect();
    // A program's seat has a bot of ours too, never asked: its seed stays that of the seat.
    let specs: Vec<BotSpec> = seats.iter().map(|e| e.bot().cloned().unwrap_or(BotKind::Random.into())).collect();
    // Started for this game and stopped at its end (dropped): what a program keeps from one
    // game to the next cannot make the games depend on which worker played them.
    let mut programs = lineup.programs_of(&seats);
    let cap = lineup.max_actions;
    // A row reads no message: the game measures them and keeps none (the same game).
    game.set_quiet(true);
    let played = game
        .restart(seed)
        .and_then(|()| play_capped_external(game, &specs, lineup.budget, cap, &mut programs, |_| Ok(())));
    drop(programs);
    // A game an error stopped is replayed up to the error (its log holds the actions
    // that succeeded).
    let save = lineup.saves.then(|| game.save_file());
    let row = play_result(game, index, seed, bots, played);
    GameRow { save, ..row }
}

/// The row of a game played to its end (or stopped by `played`'s error).
fn play_result(
    game: &Game,
    index: usize,
    seed: u64,
    bots: Vec<String>,
    played: Result<GameResult, GameError>,
) -> GameRow {
    match played {
        Err(e) => GameRow {
            game: index,
            seed,
            winner: None,
            points: vec![],
            turns: 0,
            actions: game.log().len(),
            bots,
            end: End::Error,
            reason: e.to_string(),
            metrics: BTreeMap::new(),
            save: None,
        },
        Ok(r) => {
            let (end, reason) = match r.winner {
                Some(_) => (End::Won, String::new()),
                None => (
                    End::ActionCap,
                    format!("no winner after {} actions (the action cap), turn {}", r.actions, r.turns),
                ),
            };
            // The variant's metrics, then the engine's counts (names the filter may not use).
            let metrics = match game.metrics() {
                Ok(mut m) => {
                    m.extend(action_counts(game));
                    m
                }
                Err(e) => {
                    return GameRow {
                        game: index,
                        seed: r.seed,
                        winner: None,
                        points: vec![],
                        turns: r.turns,
                        actions: r.actions,
                        bots,
                        end: End::Error,
                        reason: format!("the game's metrics at its end: {e}"),
                        metrics: BTreeMap::new(),
                        save: None,
                    };
                }
            };
            GameRow {
                game: index,
                seed: r.seed,
                winner: r.winner.map(|w| w + 1),
                points: r.points,
                turns: r.turns,
                actions: r.actions,
                bots,
                end,
                reason,
                metrics,
                save: None,
            }
        }
    }
}
