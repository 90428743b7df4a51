//! `catan tune`: learns the weights of a stack's evaluation by self-play. Rounds of games
//! are played by the simulation bot (`planner`) in every seat with the weights so far;
//! positions along each game are kept with every seat's features (`bot::features`: the
//! engine's generic ones, the variant's named ones, and its hand-written `evaluate` as one
//! term where it has one) and the game's winner; the weights are then fitted so that the
//! bots' own win chances (a softmax of the seats' scores, `bot::win_chances`) predict the
//! winners best (a conditional logit, maximum likelihood with a small ridge). The next
//! round plays with the new weights. Games are seeded seed + i on every core, and the fit
//! adds up in game order, so a run with a number of games is the same on any machine.

use crate::bot::features::FeatureSpace;
use crate::bot::weights::{stack_hash, Tuned};
use crate::bot::{Bot, BotKind, Budget, RandomBot, TEMPERATURE};
use crate::engine::{Game, GameError, Header};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Actions between two positions kept from a game.
const EVERY: usize = 6;
/// A game still running after this many actions is dropped (no winner to learn from).
const MAX_ACTIONS: usize = 5_000;
/// Pieces the fit's data is cut into, each summed on a thread of its own.
const FIT_CHUNKS: usize = 4;
/// The share of self-play actions drawn at random instead of chosen by the bot.
const EXPLORE: f64 = 0.1;
/// The ridge on standardized weights, per position, toward the weights played with.
const RIDGE: f64 = 5e-2;

#[derive(Debug, Clone)]
pub struct TuneConfig {
    pub header: Header,
    /// Games in all, split into `rounds` rounds.
    pub games: usize,
    pub rounds: usize,
    /// Stop after the round in progress once this many seconds have passed (the result
    /// then depends on the machine's speed).
    pub seconds: Option<f64>,
    pub jobs: usize,
    /// Start from victory points alone instead of the stack's present evaluation.
    pub from_scratch: bool,
    /// Leave the variant's hand-written `evaluate` out of the terms (generic and named
    /// features only: cheaper to play with).
    pub without_evaluate: bool,
}

/// One kept position: each seat's terms, by column.
struct Position {
    seats: Vec<Vec<f64>>,
    winner: usize,
}

/// What a tuning run gives.
#[derive(Debug, Clone)]
pub struct TuneReport {
    pub tuned: Tuned,
    pub games: usize,
    pub positions: usize,
    pub rounds: Vec<RoundReport>,
    pub seconds: f64,
}

/// One round: games played, and how well the weights it played with foretold the
/// winners of its games, before the fit on them (held out).
#[derive(Debug, Clone)]
pub struct RoundReport {
    pub games: usize,
    pub won: usize,
    /// Mean log-likelihood of the winner per position (higher is better; a coin among n
    /// seats gives -ln n).
    pub log_likelihood: f64,
    /// Share of positions where the eventual winner had the highest score.
    pub top_share: f64,
}

/// The columns of a fit: the generic features, then the named ones met, then `evaluate`.
struct Columns {
    generic: usize,
    named: Vec<String>,
    evaluate: bool,
}

impl Columns {
    fn len(&self) -> usize {
        self.generic + self.named.len() + usize::from(self.evaluate)
    }
}

/// Plays game `seed` with planner bots, keeping every `EVERY`-th position's terms.
fn record(game: &mut Game, seed: u64, space: &FeatureSpace, cols: &Columns) -> Result<Vec<Position>, GameError> {
    game.restart(seed)?;
    let players = game.header().players;
    let mut bots: Vec<Bot> = (0..players)
        .map(|s| {
            Bot::new(
                BotKind::Planner,
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64),
                Budget::default(),
            )
        })
        .collect();
    let mut kept: Vec<Vec<Vec<f64>>> = vec![];
    let mut actions = 0;
    // Now and then a random action, so that the games show the fit positions the bots'
    // own choices would never reach (a road they do not yet value, say).
    let mut explore = RandomBot::new(seed ^ 0x5EED);
    let mut coin = ChaCha8Rng::seed_from_u64(seed ^ 0xC0FFEE);
    while game.winner().is_none() && actions < MAX_ACTIONS {
        let seat = game.to_act()?;
        let a =
            if coin.random::<f64>() < EXPLORE { explore.choose(game, seat)? } else { bots[seat].choose(game, seat)? };
        let Some(a) = a else { break };
        game.perform(seat, &a)?;
        actions += 1;
        if actions % EVERY == 0 && game.winner().is_none() {
            let f = space.extract(game)?;
            let hand = if cols.evaluate { Some(game.evaluate()?) } else { None };
            let rows = (0..players)
                .map(|s| {
                    let mut row = f.generic[s].clone();
                    for n in &cols.named {
                        row.push(f.named.get(s).and_then(|m| m.get(n)).copied().unwrap_or(0.0));
                    }
                    if let Some(h) = &hand {
                        row.push(h[s]);
                    }
                    row
                })
                .collect();
            kept.push(rows);
        }
    }
    let Some(winner) = game.winner() else { return Ok(vec![]) };
    Ok(kept.into_iter().map(|seats| Position { seats, winner }).collect())
}

/// Scores of each seat under weights `w` (by column).
fn scores(p: &Position, w: &[f64]) -> Vec<f64> {
    p.seats.iter().map(|row| row.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() / TEMPERATURE).collect()
}

fn log_softmax_at(s: &[f64], i: usize) -> f64 {
    let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = s.iter().map(|x| (x - top).exp()).sum();
    s[i] - top - sum.ln()
}

/// How well `w` foretells the winners of `data`: (mean log-likelihood, top share).
fn judge(data: &[Position], w: &[f64]) -> (f64, f64) {
    if data.is_empty() {
        return (0.0, 0.0);
    }
    let (mut ll, mut top) = (0.0, 0usize);
    for p in data {
        let s = scores(p, w);
        ll += log_softmax_at(&s, p.winner);
        let best = (0..s.len()).max_by(|&a, &b| s[a].total_cmp(&s[b]).then(b.cmp(&a))).unwrap_or(0);
        top += usize::from(best == p.winner);
    }
    (ll / data.len() as f64, top as f64 / data.len() as f64)
}

/// Maximum likelihood of the winners under a softmax of the seats' scores (the bots' own
/// win chances), with a ridge, by gradient steps (Adam) on standardized columns; returns
/// the weights in the columns' own units (victory points per unit of the feature).
fn fit(data: &[Position], ncols: usize, start: &[f64]) -> Vec<f64> {
    if data.is_empty() {
        return start.to_vec();
    }
    // Scale of each column: its spread over every seat of every position. Softmax ignores
    // what all seats share, so only the spread matters.
    let mut mean = vec![0.0; ncols];
    let mut sq = vec![0.0; ncols];
    let mut n = 0.0;
    for p in data {
        for row in &p.seats {
            for c in 0..ncols {
                mean[c] += row[c];
                sq[c] += row[c] * row[c];
            }
            n += 1.0;
        }
    }
    let sd: Vec<f64> = (0..ncols)
        .map(|c| {
            let m = mean[c] / n;
            (sq[c] / n - m * m).max(0.0).sqrt()
        })
        .collect();
    let live: Vec<bool> = sd.iter().map(|&s| s > 1e-9).collect();
    // θ in standardized units: w = θ / sd (the temperature is applied in `scores`).
    let mut theta: Vec<f64> = (0..ncols).map(|c| if live[c] { start[c] * sd[c] } else { 0.0 }).collect();
    // The ridge pulls toward the weights the games were played with, not toward nothing: a
    // fit on outcomes also learns what merely goes with winning (the robber sits on the
    // leader's hexes), and a small step from a playing evaluation keeps its sense.
    let prior = theta.clone();
    let (mut m1, mut m2) = (vec![0.0; ncols], vec![0.0; ncols]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 0.05);
    let steps = 400;
    // The gradient of a chunk of positions; chunks are fixed by the data alone and added in
    // order, so the weights do not depend on the number of threads.
    let chunk_grad = |chunk: &[Position], theta: &[f64]| -> Vec<f64> {
        let mut grad = vec![0.0; ncols];
        // Standardized weights over the columns' own units: w = θ / sd.
        let w: Vec<f64> = (0..ncols).map(|c| if live[c] { theta[c] / sd[c] } else { 0.0 }).collect();
        for p in chunk {
            let s: Vec<f64> =
                p.seats.iter().map(|row| row.iter().zip(&w).map(|(x, w)| x * w).sum::<f64>() / TEMPERATURE).collect();
            let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = s.iter().map(|x| (x - top).exp()).collect();
            let z: f64 = e.iter().sum();
            for (k, row) in p.seats.iter().enumerate() {
                let coef = (if k == p.winner { 1.0 } else { 0.0 }) - e[k] / z;
                for c in 0..ncols {
                    if live[c] {
                        grad[c] += coef * row[c] / sd[c] / TEMPERATURE;
                    }
                }
            }
        }
        grad
    };
    let chunks: Vec<&[Position]> = data.chunks(data.len().div_ceil(FIT_CHUNKS).max(1)).collect();
    let mut grad = vec![0.0; ncols];
    for t in 1..=steps {
        let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
            let theta = &theta;
            let handles: Vec<_> = chunks.iter().map(|c| scope.spawn(move || chunk_grad(c, theta))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| vec![0.0; ncols])).collect()
        });
        grad.iter_mut().for_each(|g| *g = 0.0);
        for part in &parts {
            for (g, x) in grad.iter_mut().zip(part) {
                *g += x;
            }
        }
        let len = data.len() as f64;
        for c in 0..ncols {
            if !live[c] {
                continue;
            }
            // Ascent on the mean log-likelihood less the ridge.
            let g = grad[c] / len - RIDGE * (theta[c] - prior[c]);
            m1[c] = b1 * m1[c] + (1.0 - b1) * g;
            m2[c] = b2 * m2[c] + (1.0 - b2) * g * g;
            let mh = m1[c] / (1.0 - b1.powi(t));
            let vh = m2[c] / (1.0 - b2.powi(t));
            theta[c] += lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    (0..ncols).map(|c| if live[c] { theta[c] / sd[c] } else { 0.0 }).collect()
}

/// Rounds a weight to 4 significant digits, for a readable file.
fn round4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 0.0;
    }
    let mag = 10f64.powi(3 - x.abs().log10().floor() as i32);
    (x * mag).round() / mag
}

/// Runs a tuning; `progress(games done, games in all, round)` after every game.
pub fn tune(cfg: &TuneConfig, mut progress: impl FnMut(usize, usize, usize)) -> Result<TuneReport, GameError> {
    let start = Instant::now();
    let game = Game::new(cfg.header.clone())?;
    let space = FeatureSpace::of(&game);
    let hash = stack_hash(game.stack_files());
    let stack = cfg.header.variants.join("+");
    let has_evaluate = !cfg.without_evaluate && game.has_hook("evaluate");
    // The named features this variant gives, read off the start position.
    let named: Vec<String> = {
        let f = game.named_features()?;
        let mut names: Vec<String> = f.iter().flat_map(|m| m.keys().cloned()).collect();
        names.sort();
        names.dedup();
        names
    };
    let cols = Columns { generic: space.names.len(), named, evaluate: has_evaluate };
    let ncols = cols.len();
    let name_of = |c: usize| -> String {
        if c < cols.generic {
            space.names[c].clone()
        } else if c < cols.generic + cols.named.len() {
            format!("named.{}", cols.named[c - cols.generic])
        } else {
            "evaluate".to_string()
        }
    };
    // The weights round 0 plays with: the stack's present ones (None: its `evaluate`,
    // or points), or points alone from scratch.
    let present = if cfg.from_scratch { None } else { game.tuned().0.as_ref().map(|e| e.tuned.clone()) };
    let mut w = vec![0.0; ncols];
    match &present {
        Some(t) => {
            for (c, x) in w.iter_mut().enumerate() {
                *x = t.weights.get(&name_of(c)).copied().unwrap_or(0.0);
            }
        }
        None if has_evaluate => w[ncols - 1] = 1.0,
        None => w[0] = 1.0,
    }
    let mut playing: Option<Tuned> = if cfg.from_scratch {
        Some(Tuned {
            stack: stack.clone(),
            hash: hash.clone(),
            players: cfg.header.players,
            made: String::new(),
            weights: BTreeMap::from([("points".to_string(), 1.0)]),
        })
    } else {
        present
    };
    drop(game);
    let rounds = cfg.rounds.max(1);
    let per_round = cfg.games.div_ceil(rounds).max(1);
    let mut data: Vec<Position> = vec![];
    let mut reports = vec![];
    let mut done = 0;
    for r in 0..rounds {
        if done >= cfg.games || cfg.seconds.is_some_and(|s| r > 0 && start.elapsed().as_secs_f64() >= s) {
            break;
        }
        let n = per_round.min(cfg.games - done);
        let first = done;
        let mut games: Vec<Option<Vec<Position>>> = (0..n).map(|_| None).collect();
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        let mut failure = None;
        std::thread::scope(|scope| {
            for _ in 0..cfg.jobs.clamp(1, n) {
                let (tx, next, header, playing, cols) = (tx.clone(), &next, &cfg.header, &playing, &cols);
                scope.spawn(move || {
                    let mut game = match Game::new(header.clone()) {
                        Ok(g) => g,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                    game.set_quiet(true);
                    game.set_tuned(playing.clone());
                    let space = FeatureSpace::of(&game);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        let seed = header.seed.wrapping_add((first + i) as u64);
                        let res = record(&mut game, seed, &space, cols).map(|p| (i, p));
                        if tx.send(res).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut k = 0;
            for msg in rx {
                match msg {
                    Ok((i, p)) => {
                        games[i] = Some(p);
                        k += 1;
                        progress(first + k, cfg.games, r + 1);
                    }
                    Err(e) => failure = Some(e),
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let won = games.iter().filter(|g| g.as_ref().is_some_and(|p| !p.is_empty())).count();
        let fresh: Vec<Position> = games.into_iter().flatten().flatten().collect();
        let (ll, top) = judge(&fresh, &w);
        reports.push(RoundReport { games: n, won, log_likelihood: ll, top_share: top });
        done += n;
        data.extend(fresh);
        w = fit(&data, ncols, &w);
        let weights: BTreeMap<String, f64> =
            (0..ncols).filter(|&c| w[c] != 0.0).map(|c| (name_of(c), round4(w[c]))).collect();
        playing = Some(Tuned {
            stack: stack.clone(),
            hash: hash.clone(),
            players: cfg.header.players,
            made: String::new(),
            weights,
        });
    }
    let (ll, top) = judge(&data, &w);
    let mut tuned = playing.unwrap_or(Tuned {
        stack: stack.clone(),
        hash: hash.clone(),
        players: cfg.header.players,
        made: String::new(),
        weights: BTreeMap::new(),
    });
    tuned.made = format!(
        "catan tune: {done} games of self-play in {} rounds, seed {}, {} positions; fit: log-likelihood {:.3} a position (a coin: {:.3}), winner scored highest in {:.0}%",
        reports.len(),
        cfg.header.seed,
        data.len(),
        ll,
        -(cfg.header.players as f64).ln(),
        100.0 * top
    );
    Ok(TuneReport {
        tuned,
        games: done,
        positions: data.len(),
        rounds: reports,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Puts a tuned entry into the weights file at `path` (made if missing, its other entries
/// kept): what `catan tune` and Python's `tune(out=...)` write.
pub fn write(path: &std::path::Path, tuned: &Tuned) -> Result<(), String> {
    let mut file = if path.is_file() { crate::bot::weights::WeightsFile::read(path)? } else { Default::default() };
    file.put(tuned.clone());
    std::fs::write(path, file.to_toml()).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
