//! `catan sim`: many complete bot games, for testing house rules and measuring bots.

use crate::bot::{Bot, BotKind, Budget};
use crate::engine::{Game, GameError, Header};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
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
pub fn play_game(game: &mut Game, each: impl FnMut(&Game) -> Result<(), String>) -> Result<GameResult, GameError> {
    let players = game.header().players;
    play_with(game, &vec![BotKind::Random; players], Budget::default(), each)
}

/// Plays a freshly set-up game to its end, seat `s` played by a bot of kind `seats[s]`.
pub fn play_with(
    game: &mut Game,
    seats: &[BotKind],
    budget: Budget,
    mut each: impl FnMut(&Game) -> Result<(), String>,
) -> Result<GameResult, GameError> {
    let seed = game.header().seed;
    let mut bots: Vec<Bot> = seats
        .iter()
        .enumerate()
        .map(|(s, &kind)| Bot::new(kind, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64 + 1), budget))
        .collect();
    each(game).map_err(GameError::Setup)?;
    let mut actions = 0;
    while game.winner().is_none() && actions < MAX_ACTIONS {
        let seat = game.to_act()?;
        let bot = bots.get_mut(seat).ok_or_else(|| GameError::Setup(format!("no bot for seat {}", seat + 1)))?;
        let Some(action) = bot.choose(game, seat)? else {
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
    /// Workers that played the games (the figures above and below do not depend on it).
    pub jobs: usize,
    pub finished: usize,
    /// Games stopped by an error, counted apart from the others (not in the means).
    pub failed: Vec<FailedGame>,
    pub wins: Vec<usize>,
    pub mean_turns: f64,
    pub mean_actions: f64,
    pub seconds: f64,
    pub games_per_second: f64,
    /// Wins per kind of bot, keyed by its name (seats rotated across games).
    pub bots: BTreeMap<String, BotWins>,
}

/// How one kind of bot fared: it sat in `seats` seats of each game.
#[derive(Debug, Clone, Serialize)]
pub struct BotWins {
    pub seats: usize,
    pub wins: usize,
    /// Wins per game, and its 95% confidence interval (Wilson score).
    pub rate: f64,
    pub ci95: [f64; 2],
    /// The rate a bot no better than the others would reach from its seats alone.
    pub fair_share: f64,
}

/// The 95% Wilson score interval of `wins` successes in `n` trials.
pub fn wilson95(wins: usize, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (z, n_f) = (1.96f64, n as f64);
    let p = wins as f64 / n_f;
    let centre = p + z * z / (2.0 * n_f);
    let half = z * (p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt();
    let d = 1.0 + z * z / n_f;
    [((centre - half) / d).max(0.0), ((centre + half) / d).min(1.0)]
}

/// Who plays in a simulation: one bot kind per seat of the first game, rotated one seat
/// further each game so that no bot gains from its seat. Empty: random bots everywhere.
#[derive(Debug, Clone, Default)]
pub struct Lineup {
    pub bots: Vec<BotKind>,
    pub budget: Budget,
}

impl Lineup {
    /// The bot of each seat in game `i`.
    pub fn seats(&self, players: usize, i: usize) -> Vec<BotKind> {
        if self.bots.is_empty() {
            return vec![BotKind::Random; players];
        }
        (0..players).map(|s| self.bots[(s + players - i % players) % self.bots.len()]).collect()
    }
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
    mut progress: impl FnMut(usize),
) -> Result<SimReport, GameError> {
    if !lineup.bots.is_empty() && lineup.bots.len() != players {
        return Err(GameError::Setup(format!("--bots names {} bots for {players} players", lineup.bots.len())));
    }
    let start = Instant::now();
    let header = Header { variants: variants.to_vec(), players, seed, options: options.to_vec(), sandbox: false };
    let jobs = jobs.clamp(1, games.max(1));
    let mut results: Vec<Option<Result<GameResult, FailedGame>>> = (0..games).map(|_| None).collect();
    // Workers take the next game index from a shared counter and send back its result.
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut setup_error = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (tx, header, next) = (tx.clone(), &header, &next);
            scope.spawn(move || {
                // Every worker sets up with the run's seed first: if that fails, it fails
                // alike for all of them.
                let mut game = match Game::new(header.clone()) {
                    Ok(g) => g,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games || tx.send(Ok((i, play_index(&mut game, header.seed, i, lineup)))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for msg in rx {
            match msg {
                Ok((i, r)) => {
                    results[i] = Some(r);
                    done += 1;
                    progress(done);
                }
                Err(e) => setup_error = Some(e),
            }
        }
    });
    if let Some(e) = setup_error {
        return Err(e);
    }
    let mut wins = vec![0; players];
    let (mut turns, mut acts, mut finished) = (0u64, 0u64, 0usize);
    let mut failed = vec![];
    let mut by_kind: BTreeMap<BotKind, usize> = BTreeMap::new();
    for (i, r) in results.into_iter().enumerate() {
        let Some(r) = r else { continue };
        let r = match r {
            Ok(r) => r,
            Err(f) => {
                failed.push(f);
                continue;
            }
        };
        if let Some(w) = r.winner {
            wins[w] += 1;
            *by_kind.entry(lineup.seats(players, i)[w]).or_default() += 1;
            finished += 1;
        }
        turns += r.turns as u64;
        acts += r.actions as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    let n = games - failed.len();
    let played = n.max(1) as f64;
    let mut bots = BTreeMap::new();
    let first = lineup.seats(players, 0);
    for &kind in &first {
        let seats = first.iter().filter(|&&k| k == kind).count();
        let w = by_kind.get(&kind).copied().unwrap_or(0);
        let rate = w as f64 / played;
        let fair_share = seats as f64 / players as f64;
        bots.insert(kind.name().to_string(), BotWins { seats, wins: w, rate, ci95: wilson95(w, n), fair_share });
    }
    Ok(SimReport {
        variants: variants.to_vec(),
        players,
        games,
        jobs,
        finished,
        failed,
        wins,
        mean_turns: turns as f64 / played,
        mean_actions: acts as f64 / played,
        seconds: secs,
        games_per_second: games as f64 / secs.max(1e-9),
        bots,
    })
}

/// Plays game `index` of a run (seed: the run's seed plus the index, bots: the lineup
/// rotated `index` seats) on a worker's game.
fn play_index(game: &mut Game, seed: u64, index: usize, lineup: &Lineup) -> Result<GameResult, FailedGame> {
    let seed = seed.wrapping_add(index as u64);
    let players = game.header().players;
    let seats = lineup.seats(players, index);
    game.restart(seed).and_then(|()| play_with(game, &seats, lineup.budget, |_| Ok(()))).map_err(|e| FailedGame {
        seed,
        actions: game.log().len(),
        error: e.to_string(),
    })
}
