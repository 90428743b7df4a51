//! `catan tune`: learns the weights of a stack's evaluation by self-play. Rounds of games
//! are played by the simulation bot (`planner`) in every seat with the weights so far;
//! positions along each game are kept with every seat's features (`bot::features`: the
//! engine's generic ones, the variant's named ones, and its hand-written `evaluate` as one
//! term where it has one) and the game's winner; the weights are then fitted so that the
//! bots' own win chances (a softmax of the seats' scores, `bot::win_chances`) predict the
//! winners best (a conditional logit, maximum likelihood with a ridge toward where the run
//! started, its strength chosen on games held out: `choose_ridge`). The next round plays
//! with the new weights. With `play_games`, a search by play follows (`search_by_play`):
//! the declared weights moved one at a time, each move kept when it wins a match on
//! paired seeds against the weights so far. Games are seeded seed + i on every core, and
//! the fit adds up in game order, so a run with a number of games is the same on any
//! machine.

use crate::bot::features::FeatureSpace;
use crate::bot::weights::{stack_hash, Tuned};
use crate::bot::{Bot, BotKind, Budget, RandomBot, SeatBot, TEMPERATURE};
use crate::engine::{Game, GameError, Header};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Games of one match of the search by play (rounded up to a multiple of the players, so
/// that the moved weights sit in every seat of each seed).
const MATCH_GAMES: usize = 48;
/// A declared weight's first move in the search by play: this many victory points per
/// spread (standard deviation) of its column.
const PLAY_STEP: f64 = 0.25;

/// Actions between two positions kept from a game.
const EVERY: usize = 6;
/// A game still running after this many actions is dropped (no winner to learn from).
const MAX_ACTIONS: usize = 5_000;
/// Pieces the fit's data is cut into, each summed on a thread of its own.
const FIT_CHUNKS: usize = 4;
/// The share of self-play actions drawn at random instead of chosen by the bot.
const EXPLORE: f64 = 0.1;
/// The ridge on standardized weights, per position, toward the run's starting weights,
/// when a run has too few games to choose one from `RIDGES`.
const RIDGE: f64 = 5e-2;
/// The ridges both fits try, each judged on games held out (`held_out_best`).
const RIDGES: [f64; 8] = [0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0];
/// Folds of the ridge's cross-validation, positions split by their game.
const FOLDS: usize = 4;
/// The cross-validation fits one kept position in this many: positions a few actions apart
/// in one game tell much the same, and the search fits dozens of times.
const CV_THIN: usize = 3;

#[derive(Debug, Clone)]
pub struct TuneConfig {
    pub header: Header,
    /// Games in all, split into `rounds` rounds.
    pub games: usize,
    pub rounds: usize,
    /// Stop after the round in progress once this many seconds have passed, and start
    /// no match of the search by play past them (the result then depends on the
    /// machine's speed).
    pub seconds: Option<f64>,
    pub jobs: usize,
    /// Start from victory points alone instead of the stack's present evaluation.
    pub from_scratch: bool,
    /// Leave the variant's hand-written `evaluate` out of the terms (generic and named
    /// features only: cheaper to play with).
    pub without_evaluate: bool,
    /// Learn the weights from a stronger bot's choices instead of from the winners alone
    /// (distillation): at every `EVERY`-th decision of the self-play this bot, searching
    /// with the weights so far, chooses too, and the weights are fitted so that the
    /// positions after each legal action rank its choice first. The winners then set only
    /// the weights' scale.
    pub teacher: Option<BotKind>,
    /// Games of the search by play after the fit (0: none): matches on paired seeds
    /// between the weights so far and the same with one declared weight (points, a named
    /// feature, `evaluate`) moved, the move kept when it wins more than its share.
    pub play_games: usize,
}

/// One kept position: each seat's terms, by column.
struct Position {
    seats: Vec<Vec<f64>>,
    winner: usize,
    /// The game it was kept from (its index in the run): the positions of one game share
    /// its winner, so the cross-validation holds out whole games.
    game: usize,
}

/// One decision the teacher made: for each legal action, the terms of the position after
/// it as the chooser's less the mean of the other seats', and which action it chose.
struct Choice {
    actions: Vec<Vec<f64>>,
    chosen: usize,
    /// The game it was made in (its index in the run), for the cross-validation.
    game: usize,
}

/// What a tuning run gives.
#[derive(Debug, Clone)]
pub struct TuneReport {
    pub tuned: Tuned,
    pub games: usize,
    pub positions: usize,
    pub rounds: Vec<RoundReport>,
    pub seconds: f64,
    /// With a teacher: the share of all its choices the final weights rank first (on the
    /// choices they were fitted to).
    pub agreement: f64,
    /// The search by play's matches, in order.
    pub steps: Vec<PlayStep>,
}

/// One match of the search by play: a declared weight moved from `from` to `to`, played
/// in one seat of each of `games` games against the weights so far in the others.
#[derive(Debug, Clone)]
pub struct PlayStep {
    pub feature: String,
    pub from: f64,
    pub to: f64,
    pub wins: usize,
    pub games: usize,
    /// Whether the move won more than its share by half a standard error, and was kept.
    pub kept: bool,
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
    /// With a teacher: its choices this round, and the share of them the weights played
    /// with ranked first (held out like the rest).
    pub choices: usize,
    pub agreement: f64,
    /// The ridge the fit after this round chose on held-out games.
    pub ridge: Option<f64>,
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

/// Every seat's terms in the game's position, by column.
fn terms(game: &Game, space: &FeatureSpace, cols: &Columns) -> Result<Vec<Vec<f64>>, GameError> {
    let f = space.extract(game)?;
    let hand = if cols.evaluate { Some(game.evaluate()?) } else { None };
    Ok((0..game.header().players)
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
        .collect())
}

/// The teacher's choice at `seat`'s decision, with the terms after each legal action; None
/// when there is nothing to choose or it chose an action the rules do not list (an offer).
fn label(
    game: &mut Game,
    seat: usize,
    teacher: &mut Bot,
    space: &FeatureSpace,
    cols: &Columns,
) -> Result<Option<Choice>, GameError> {
    let legal = game.legal_actions(seat)?;
    if legal.len() < 2 {
        return Ok(None);
    }
    let Some(pick) = teacher.choose(game, seat)? else { return Ok(None) };
    let Some(chosen) = legal.iter().position(|a| *a == pick) else { return Ok(None) };
    let here = game.snapshot();
    let mut actions = Vec::with_capacity(legal.len());
    for a in &legal {
        let done = game.perform(seat, a);
        let rows = if done.is_ok() { Some(terms(game, space, cols)) } else { None };
        game.restore(&here);
        let Some(rows) = rows else {
            // An action listed but refused (a draw the rules then reject): no fair
            // comparison, so no label.
            return Ok(None);
        };
        let rows = rows?;
        let others = (rows.len() - 1).max(1) as f64;
        let row = (0..cols.len())
            .map(|c| {
                rows[seat][c]
                    - rows.iter().enumerate().filter(|(o, _)| *o != seat).map(|(_, r)| r[c]).sum::<f64>() / others
            })
            .collect();
        actions.push(row);
    }
    Ok(Some(Choice { actions, chosen, game: 0 }))
}

/// Plays game `seed` with planner bots, keeping every `EVERY`-th position's terms, and with
/// a teacher its choice at every `EVERY`-th decision.
fn record(
    game: &mut Game,
    seed: u64,
    space: &FeatureSpace,
    cols: &Columns,
    teacher: Option<BotKind>,
) -> Result<(Vec<Position>, Vec<Choice>), GameError> {
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
    let mut teacher = teacher.map(|k| Bot::new(k, seed ^ 0x7EAC_4E55, Budget::default()));
    let mut kept: Vec<Vec<Vec<f64>>> = vec![];
    let mut choices = vec![];
    let mut actions = 0;
    // Now and then a random action, so that the games show the fit positions the bots'
    // own choices would never reach (a road they do not yet value, say).
    let mut explore = RandomBot::new(seed ^ 0x5EED);
    let mut coin = ChaCha8Rng::seed_from_u64(seed ^ 0xC0FFEE);
    while game.winner().is_none() && actions < MAX_ACTIONS {
        let seat = game.to_act()?;
        if let Some(t) = teacher.as_mut() {
            if actions % EVERY == 0 {
                if let Some(c) = label(game, seat, t, space, cols)? {
                    choices.push(c);
                }
            }
        }
        let a =
            if coin.random::<f64>() < EXPLORE { explore.choose(game, seat)? } else { bots[seat].choose(game, seat)? };
        let Some(a) = a else { break };
        game.perform(seat, &a)?;
        actions += 1;
        if actions % EVERY == 0 && game.winner().is_none() {
            kept.push(terms(game, space, cols)?);
        }
    }
    let Some(winner) = game.winner() else { return Ok((vec![], choices)) };
    Ok((kept.into_iter().map(|seats| Position { seats, winner, game: 0 }).collect(), choices))
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

/// The standard deviation of each of `ncols` columns over `rows`: the fits' unit per column.
fn spread<'a>(rows: impl Iterator<Item = &'a Vec<f64>>, ncols: usize) -> Vec<f64> {
    let (mut mean, mut sq, mut n) = (vec![0.0; ncols], vec![0.0; ncols], 0.0f64);
    for row in rows {
        for c in 0..ncols {
            mean[c] += row[c];
            sq[c] += row[c] * row[c];
        }
        n += 1.0;
    }
    (0..ncols)
        .map(|c| {
            let m = mean[c] / n.max(1.0);
            (sq[c] / n.max(1.0) - m * m).max(0.0).sqrt()
        })
        .collect()
}

/// Maximum likelihood of the winners under a softmax of the seats' scores (the bots' own
/// win chances), with a ridge of strength `ridge` toward `prior`, by gradient steps (Adam)
/// from `start` on standardized columns; returns the weights in the columns' own units
/// (victory points per unit of the feature).
fn fit(data: &[&Position], ncols: usize, start: &[f64], prior: &[f64], ridge: f64) -> Vec<f64> {
    if data.is_empty() {
        return start.to_vec();
    }
    // Scale of each column: its spread over every seat of every position. Softmax ignores
    // what all seats share, so only the spread matters; a column that never varies is
    // left out.
    let Some(d) = Standardized::of(data.iter().map(|p| (&p.seats[..], p.winner)), ncols) else {
        return vec![0.0; ncols];
    };
    let k = d.live.len();
    // θ in standardized units: w = θ / sd. The ridge pulls toward the run's starting
    // weights (points alone from scratch), not toward nothing, so a column the games cannot
    // tell about keeps its sense.
    let mut theta: Vec<f64> = d.live.iter().map(|&c| start[c] * d.sd[c]).collect();
    let prior: Vec<f64> = d.live.iter().map(|&c| prior[c] * d.sd[c]).collect();
    let chunk_grad = |chunk: &[(usize, usize, usize)], theta: &[f64]| -> Vec<f64> {
        let mut grad = vec![0.0; k];
        let mut s = Vec::new();
        for &(first, seats, winner) in chunk {
            let rows = &d.z[first * k..(first + seats) * k];
            s.clear();
            s.extend(rows.chunks_exact(k).map(|r| r.iter().zip(theta).map(|(x, t)| x * t).sum::<f64>()));
            let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            s.iter_mut().for_each(|x| *x = (*x - top).exp());
            let sum: f64 = s.iter().sum();
            for (seat, r) in rows.chunks_exact(k).enumerate() {
                let coef = f64::from(u8::from(seat == winner)) - s[seat] / sum;
                grad.iter_mut().zip(r).for_each(|(g, x)| *g += coef * x);
            }
        }
        grad
    };
    // Ascent on the mean log-likelihood less the ridge.
    ascend(&mut theta, &d.spans, chunk_grad, |c, theta| ridge * (theta[c] - prior[c]));
    d.weights(&theta, ncols)
}

/// A fit's data once, flat and standardized: each group (a position's seats, a decision's
/// actions) as rows of its live columns (z = x / sd / temperature, so a row's score is
/// z · θ), read hundreds of times by the gradient steps.
struct Standardized {
    /// The spread of every column, and the columns that vary at all (the others are left
    /// out of the fit).
    sd: Vec<f64>,
    live: Vec<usize>,
    z: Vec<f64>,
    /// Each group's first row in `z`, its rows, and the row that won (or was chosen).
    spans: Vec<(usize, usize, usize)>,
}

impl Standardized {
    /// None when no column varies.
    fn of<'a>(groups: impl Iterator<Item = (&'a [Vec<f64>], usize)> + Clone, ncols: usize) -> Option<Standardized> {
        let sd = spread(groups.clone().flat_map(|(rows, _)| rows), ncols);
        let live: Vec<usize> = (0..ncols).filter(|&c| sd[c] > 1e-9).collect();
        let k = live.len();
        if k == 0 {
            return None;
        }
        let mut z = Vec::with_capacity(groups.clone().map(|(rows, _)| rows.len()).sum::<usize>() * k);
        let mut spans = vec![];
        for (rows, won) in groups {
            spans.push((z.len() / k, rows.len(), won));
            for row in rows {
                z.extend(live.iter().map(|&c| row[c] / sd[c] / TEMPERATURE));
            }
        }
        Some(Standardized { sd, live, z, spans })
    }

    /// Standardized weights (`theta`'s first entries, by live column) in the columns' own
    /// units.
    fn weights(&self, theta: &[f64], ncols: usize) -> Vec<f64> {
        let mut w = vec![0.0; ncols];
        for (i, &c) in self.live.iter().enumerate() {
            w[c] = theta[i] / self.sd[c];
        }
        w
    }
}

/// 400 steps of gradient ascent (Adam) on `theta`: the mean of `grad` over the groups of
/// `spans`, less `pull(c, theta)` for each entry. The gradient is added up in fixed chunks
/// of the data, in order, so the result does not depend on the number of threads.
fn ascend(
    theta: &mut [f64],
    spans: &[(usize, usize, usize)],
    grad: impl Fn(&[(usize, usize, usize)], &[f64]) -> Vec<f64> + Sync,
    pull: impl Fn(usize, &[f64]) -> f64,
) {
    let n = theta.len();
    let (mut m1, mut m2) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 0.05);
    let chunks: Vec<&[(usize, usize, usize)]> = spans.chunks(spans.len().div_ceil(FIT_CHUNKS).max(1)).collect();
    let len = spans.len() as f64;
    for t in 1..=400 {
        let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
            let (theta, grad) = (&*theta, &grad);
            let handles: Vec<_> = chunks.iter().map(|c| scope.spawn(move || grad(c, theta))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| vec![0.0; n])).collect()
        });
        for c in 0..n {
            let g = parts.iter().map(|p| p[c]).sum::<f64>() / len - pull(c, theta);
            m1[c] = b1 * m1[c] + (1.0 - b1) * g;
            m2[c] = b2 * m2[c] + (1.0 - b2) * g * g;
            let mh = m1[c] / (1.0 - b1.powi(t));
            let vh = m2[c] / (1.0 - b2.powi(t));
            theta[c] += lr * mh / (vh.sqrt() + 1e-8);
        }
    }
}

/// The ridge that foretells held-out games best: for each of `RIDGES`, the fit on all but
/// one fold of the games is judged on that fold (log-likelihood a position), summed over
/// the folds. Positions of one game share its winner and most of its features, so a fit
/// judged on its own games rewards a column that merely names the game (a card one seat
/// happened to hold all game); whole games held out show the weights that carry over.
fn choose_ridge(data: &[Position], ncols: usize, prior: &[f64]) -> f64 {
    let data: Vec<&Position> = data.iter().step_by(CV_THIN).collect();
    held_out_best(
        &data,
        |p| p.game,
        |train, test, ridge| {
            let w = fit(train, ncols, prior, prior, ridge);
            test.iter().map(|p| log_softmax_at(&scores(p, &w), p.winner)).sum()
        },
    )
}

/// The one of `RIDGES` whose fits foretell held-out games best: `judge(train, test, ridge)`
/// fits on `train` and gives the log-likelihood of `test`, for each of `FOLDS` folds of the
/// items split by their `game`; `RIDGE` when there are too few games to hold any out. Both
/// fits choose their ridge here, so both hold out whole games.
fn held_out_best<T>(items: &[&T], game: impl Fn(&T) -> usize, judge: impl Fn(&[&T], &[&T], f64) -> f64) -> f64 {
    let games: std::collections::BTreeSet<usize> = items.iter().map(|t| game(t)).collect();
    if games.len() < 2 * FOLDS {
        return RIDGE;
    }
    let mut best = (RIDGE, f64::NEG_INFINITY);
    for &ridge in &RIDGES {
        let mut ll = 0.0;
        for f in 0..FOLDS {
            let (test, train): (Vec<&T>, Vec<&T>) = items.iter().copied().partition(|t| game(t) % FOLDS == f);
            ll += judge(&train, &test, ridge);
        }
        if ll > best.1 {
            best = (ridge, ll);
        }
    }
    best.0
}

/// The weights that make the positions after each legal action rank the teacher's choices
/// first (a conditional logit over the actions of each decision, with a free sharpness and
/// a ridge toward `prior`, its strength chosen on games held out as the outcome fit's is),
/// then scaled so that the seats' win chances foretell the winners of `positions` best: the
/// choices give the direction, the winners the scale. Returns the weights and the ridge.
fn fit_choices(choices: &[Choice], positions: &[Position], ncols: usize, prior: &[f64]) -> (Vec<f64>, f64) {
    if choices.is_empty() {
        return (prior.to_vec(), RIDGE);
    }
    let ridge = choose_choice_ridge(choices, ncols, prior);
    let all: Vec<&Choice> = choices.iter().collect();
    let (w, _) = fit_choice_direction(&all, ncols, prior, ridge);
    // The scale: the factor whose win chances foretell the winners best, on a grid of
    // factors from 1/8 to 8 (the likelihood is smooth in it; a grid keeps it simple).
    let scaled = |f: f64| -> Vec<f64> { w.iter().map(|x| x * f).collect() };
    let best = (-24..=24)
        .map(|i| 2f64.powf(i as f64 / 8.0))
        .map(|f| (f, judge(positions, &scaled(f)).0))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(1.0, |(f, _)| f);
    (scaled(best), ridge)
}

/// The ridge of the choices' fit that foretells the teacher's choices in held-out games
/// best (`held_out_best`, judged by the choices' log-likelihood).
fn choose_choice_ridge(choices: &[Choice], ncols: usize, prior: &[f64]) -> f64 {
    let choices: Vec<&Choice> = choices.iter().collect();
    held_out_best(
        &choices,
        |c| c.game,
        |train, test, ridge| {
            let (w, beta) = fit_choice_direction(train, ncols, prior, ridge);
            test.iter().map(|c| choice_log_likelihood(c, &w, beta)).sum()
        },
    )
}

/// The log-likelihood of a choice under weights `w` and sharpness `beta`.
fn choice_log_likelihood(ch: &Choice, w: &[f64], beta: f64) -> f64 {
    let s: Vec<f64> =
        ch.actions.iter().map(|row| beta * row.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() / TEMPERATURE).collect();
    log_softmax_at(&s, ch.chosen)
}

/// The conditional logit of the choices, from and with a ridge of strength `ridge` toward
/// `prior`: the weights (in the columns' own units) and the sharpness of the choices.
fn fit_choice_direction(choices: &[&Choice], ncols: usize, prior: &[f64], ridge: f64) -> (Vec<f64>, f64) {
    if choices.is_empty() {
        return (prior.to_vec(), 1.0);
    }
    // Scale of each column: its spread over every action of every decision; a column that
    // never varies is left out.
    let Some(d) = Standardized::of(choices.iter().map(|ch| (&ch.actions[..], ch.chosen)), ncols) else {
        return (vec![0.0; ncols], 1.0);
    };
    let k = d.live.len();
    // θ in standardized units, the last entry the log of the sharpness of the choices.
    let mut theta: Vec<f64> = d.live.iter().map(|&c| prior[c] * d.sd[c]).collect();
    let prior = theta.clone();
    theta.push(0.0);
    let chunk_grad = |chunk: &[(usize, usize, usize)], theta: &[f64]| -> Vec<f64> {
        let mut grad = vec![0.0; k + 1];
        let beta = theta[k].exp();
        let mut s = Vec::new();
        for &(first, actions, chosen) in chunk {
            let rows = &d.z[first * k..(first + actions) * k];
            s.clear();
            s.extend(rows.chunks_exact(k).map(|r| beta * r.iter().zip(theta).map(|(x, t)| x * t).sum::<f64>()));
            let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = s.iter().map(|x| (x - top).exp()).sum();
            for (a, r) in rows.chunks_exact(k).enumerate() {
                let coef = f64::from(u8::from(a == chosen)) - (s[a] - top).exp() / sum;
                grad[..k].iter_mut().zip(r).for_each(|(g, x)| *g += coef * beta * x);
                grad[k] += coef * s[a];
            }
        }
        grad
    };
    // The sharpness is not pulled.
    ascend(&mut theta, &d.spans, chunk_grad, |c, theta| if c < k { ridge * (theta[c] - prior[c]) } else { 0.0 });
    (d.weights(&theta, ncols), theta[k].exp())
}

/// Share of the teacher's choices the weights rank first.
fn agreement(choices: &[Choice], w: &[f64]) -> f64 {
    if choices.is_empty() {
        return 0.0;
    }
    let hits = choices
        .iter()
        .filter(|ch| {
            let s: Vec<f64> = ch.actions.iter().map(|row| row.iter().zip(w).map(|(x, w)| x * w).sum::<f64>()).collect();
            let best = (0..s.len()).max_by(|&a, &b| s[a].total_cmp(&s[b]).then(b.cmp(&a)));
            best == Some(ch.chosen)
        })
        .count();
    hits as f64 / choices.len() as f64
}

/// Rounds a weight to 4 significant digits, for a readable file.
/// Plays `n` games of `header`'s stack on `jobs` workers: each worker makes its game and
/// `init`s its state once, then `each(game, state, i)` for the indices it takes. The
/// results come back by index, so what a run gives does not depend on the workers;
/// `done(k)` after each of them.
fn in_parallel<W, T: Send>(
    header: &Header,
    jobs: usize,
    n: usize,
    init: impl Fn(&mut Game) -> W + Sync,
    each: impl Fn(&mut Game, &mut W, usize) -> Result<T, GameError> + Sync,
    mut done: impl FnMut(usize),
) -> Result<Vec<T>, GameError> {
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            let (tx, next, init, each) = (tx.clone(), &next, &init, &each);
            scope.spawn(move || {
                let mut game = match Game::new(header.clone()) {
                    Ok(g) => g,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                game.set_quiet(true);
                let mut state = init(&mut game);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    if tx.send(each(&mut game, &mut state, i).map(|t| (i, t))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut k = 0;
        for msg in rx {
            match msg {
                Ok((i, t)) => {
                    out[i] = Some(t);
                    k += 1;
                    done(k);
                }
                Err(e) => failure = Some(e),
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(out.into_iter().flatten().collect()),
    }
}

/// One game of a match: `planner` in every seat, the one at `seat` with `candidate`'s
/// weights, the others with the game's own (the weights so far). Whether `seat` won.
fn duel(game: &mut Game, seed: u64, seat: usize, candidate: &Tuned) -> Result<bool, GameError> {
    game.restart(seed)?;
    let players = game.header().players;
    let bot_seed = |s: usize| seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64);
    let mut bots: Vec<SeatBot> = (0..players)
        .map(|s| {
            if s == seat {
                SeatBot::with_weights(BotKind::Planner, bot_seed(s), Budget::default(), game, candidate.clone())
            } else {
                SeatBot::unbound(&BotKind::Planner.into(), bot_seed(s), Budget::default())
            }
        })
        .collect();
    let mut actions = 0;
    while game.winner().is_none() && actions < MAX_ACTIONS {
        let s = game.to_act()?;
        let Some(a) = bots[s].choose(game, s)? else { break };
        game.perform(s, &a)?;
        actions += 1;
    }
    Ok(game.winner() == Some(seat))
}

/// The search by play: from `w`, each declared column in turn (`order`) is moved by its
/// step (`PLAY_STEP` victory points per spread `sd` of the column) and the move played in
/// a match of `n` games against `w` (`play(candidate, w, match)` gives the candidate's
/// wins); a move that wins more than its share (`fair`) by half a standard error is kept
/// and tried again twice as far, one that does not is tried the other way, then the step
/// is halved and the next column taken. Plays `matches` matches, or fewer: none is
/// started once `out_of_time()`.
fn search_by_play(
    w: &mut [f64],
    order: &[usize],
    sd: &[f64],
    (n, fair, matches): (usize, f64, usize),
    name_of: &dyn Fn(usize) -> String,
    out_of_time: &dyn Fn() -> bool,
    mut play: impl FnMut(&[f64], &[f64], usize) -> Result<usize, GameError>,
) -> Result<Vec<PlayStep>, GameError> {
    let bar = fair + 0.5 * (fair * (1.0 - fair) / n.max(1) as f64).sqrt();
    let order: Vec<usize> = order.iter().copied().filter(|&c| sd[c] > 1e-9).collect();
    let mut step: Vec<f64> = order.iter().map(|&c| PLAY_STEP / sd[c]).collect();
    let mut dir = vec![1.0; order.len()];
    let mut steps: Vec<PlayStep> = vec![];
    let (mut j, mut flipped) = (0, false);
    while !order.is_empty() && steps.len() < matches && !out_of_time() {
        let c = order[j];
        let mut candidate = w.to_vec();
        candidate[c] = round4(w[c] + dir[j] * step[j]);
        let wins = play(&candidate, w, steps.len())?;
        let kept = wins as f64 / n as f64 > bar;
        steps.push(PlayStep { feature: name_of(c), from: round4(w[c]), to: candidate[c], wins, games: n, kept });
        if kept {
            w[c] = candidate[c];
            step[j] *= 2.0;
            flipped = true;
        } else if !flipped {
            dir[j] = -dir[j];
            flipped = true;
        } else {
            step[j] /= 2.0;
            j = (j + 1) % order.len();
            flipped = false;
        }
    }
    Ok(steps)
}

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
    let to_tuned = |w: &[f64]| Tuned {
        stack: stack.clone(),
        hash: hash.clone(),
        players: cfg.header.players,
        made: String::new(),
        weights: (0..ncols).filter(|&c| w[c] != 0.0).map(|c| (name_of(c), round4(w[c]))).collect(),
    };
    // What the fits' ridge pulls toward in every round: where the run started.
    let w0 = w.clone();
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
    let total = cfg.games + cfg.play_games;
    let rounds = cfg.rounds.max(1);
    let per_round = cfg.games.div_ceil(rounds).max(1);
    let mut data: Vec<Position> = vec![];
    let mut choices: Vec<Choice> = vec![];
    let mut reports = vec![];
    let mut done = 0;
    for r in 0..rounds {
        if done >= cfg.games || cfg.seconds.is_some_and(|s| r > 0 && start.elapsed().as_secs_f64() >= s) {
            break;
        }
        let n = per_round.min(cfg.games - done);
        let first = done;
        let games = in_parallel(
            &cfg.header,
            cfg.jobs,
            n,
            |g| {
                g.set_tuned(playing.clone());
                FeatureSpace::of(g)
            },
            |g, space, i| record(g, cfg.header.seed.wrapping_add((first + i) as u64), space, &cols, cfg.teacher),
            |k| progress(first + k, total, r + 1),
        )?;
        let won = games.iter().filter(|(p, _)| !p.is_empty()).count();
        let (mut fresh, mut taught) = (vec![], vec![]);
        for (i, (p, c)) in games.into_iter().enumerate() {
            fresh.extend(p.into_iter().map(|p| Position { game: first + i, ..p }));
            taught.extend(c.into_iter().map(|c| Choice { game: first + i, ..c }));
        }
        let (ll, top) = judge(&fresh, &w);
        reports.push(RoundReport {
            games: n,
            won,
            log_likelihood: ll,
            top_share: top,
            choices: taught.len(),
            agreement: agreement(&taught, &w),
            ridge: None,
        });
        done += n;
        data.extend(fresh);
        choices.extend(taught);
        // From the run's start, not the last round's weights: those saw the games the
        // cross-validation holds out.
        let (fitted, ridge) = if cfg.teacher.is_some() {
            fit_choices(&choices, &data, ncols, &w0)
        } else {
            let ridge = choose_ridge(&data, ncols, &w0);
            let all: Vec<&Position> = data.iter().collect();
            (fit(&all, ncols, &w0, &w0, ridge), ridge)
        };
        w = fitted;
        if let Some(last) = reports.last_mut() {
            last.ridge = Some(ridge);
        }
        playing = Some(to_tuned(&w));
    }
    // The search by play moves the declared weights (the variant's own terms, and points)
    // by what wins matches, not by what foretells winners: a fit to who wins learns what
    // goes with winning, and misses what wins late (the points toward an advantage token).
    let steps = if cfg.play_games > 0 {
        let sd = spread(data.iter().flat_map(|p| &p.seats), ncols);
        let mut order: Vec<usize> = (cols.generic..ncols).collect();
        order.push(0);
        let players = cfg.header.players.max(1);
        let n = MATCH_GAMES.div_ceil(players) * players;
        let shape = (n, 1.0 / players as f64, cfg.play_games / n);
        // `--minutes` bounds the whole run: no match starts past it.
        let out_of_time = || cfg.seconds.is_some_and(|s| start.elapsed().as_secs_f64() >= s);
        let steps = search_by_play(&mut w, &order, &sd, shape, &name_of, &out_of_time, |candidate, w, m| {
            let (inc, cand) = (to_tuned(w), to_tuned(candidate));
            // Fresh seeds for each match, apart from the fit's games; each seed with the
            // candidate in every seat.
            let first = cfg.header.seed.wrapping_add(1_000_000 + 1_000 * m as u64);
            let won = in_parallel(
                &cfg.header,
                cfg.jobs,
                n,
                |g| g.set_tuned(Some(inc.clone())),
                |g, _, i| duel(g, first + (i / players) as u64, i % players, &cand),
                |k| progress(done + m * n + k, total, rounds + 1),
            )?;
            Ok(won.iter().filter(|&&b| b).count())
        })?;
        playing = Some(to_tuned(&w));
        steps
    } else {
        vec![]
    };
    let (ll, top) = judge(&data, &w);
    let mut tuned = playing.unwrap_or(Tuned {
        stack: stack.clone(),
        hash: hash.clone(),
        players: cfg.header.players,
        made: String::new(),
        weights: BTreeMap::new(),
    });
    tuned.made = format!(
        "catan tune: {done} games of self-play in {} rounds{}, seed {}, {} positions; fit{}: log-likelihood {:.3} a position (a coin: {:.3}), winner scored highest in {:.0}%{}",
        reports.len(),
        cfg.teacher.map_or(String::new(), |k| format!(", distilled from {}'s choices", k.name())),
        cfg.header.seed,
        data.len(),
        reports.last().and_then(|r| r.ridge).map_or(String::new(), |r| format!(" with ridge {r}")),
        ll,
        -(cfg.header.players as f64).ln(),
        100.0 * top,
        if steps.is_empty() {
            String::new()
        } else {
            format!(
                "; then a search by play, {} {} of {} games, {} moves kept",
                steps.len(),
                if steps.len() == 1 { "match" } else { "matches" },
                steps[0].games,
                steps.iter().filter(|s| s.kept).count()
            )
        }
    );
    Ok(TuneReport {
        tuned,
        games: done,
        positions: data.len(),
        rounds: reports,
        seconds: start.elapsed().as_secs_f64(),
        agreement: agreement(&choices, &w),
        steps,
    })
}

/// Puts a tuned entry into the weights file at `path` (made if missing, its other entries
/// kept): what `catan tune` and Python's `tune(out=...)` write.
pub fn write(path: &std::path::Path, tuned: &Tuned) -> Result<(), String> {
    let mut file = if path.is_file() { crate::bot::weights::WeightsFile::read(path)? } else { Default::default() };
    file.put(tuned.clone());
    std::fs::write(path, file.to_toml()).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A standard normal from two uniform draws (Box-Muller).
    fn normal(rng: &mut ChaCha8Rng) -> f64 {
        let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-12), rng.random());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// Games of two seats: column 0 is a seat's strength as it is seen (the winner's is
    /// higher more often than not); columns 1.. are noise drawn once a game and kept all
    /// game, as a card one seat happens to hold. Ten positions a game.
    fn games(n: usize, noise: usize, seed: u64) -> Vec<Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut normal = || normal(&mut rng);
        let mut data = vec![];
        for game in 0..n {
            let strength = [normal(), normal()];
            let luck = [normal(), normal()];
            let winner = usize::from(strength[1] + luck[1] > strength[0] + luck[0]);
            let marks: Vec<Vec<f64>> = (0..2).map(|_| (0..noise).map(|_| normal()).collect()).collect();
            for _ in 0..10 {
                let seats = (0..2)
                    .map(|s| std::iter::once(strength[s] + 0.1 * normal()).chain(marks[s].iter().copied()).collect())
                    .collect();
                data.push(Position { seats, winner, game });
            }
        }
        data
    }

    /// Decisions of five actions, two a game each met five times (as a decision a few
    /// actions later often is the same one): the teacher chooses by column 0 and by a whim
    /// of its own in each game over columns 1.. (drawn once a game).
    fn taught(n: usize, noise: usize, seed: u64) -> Vec<Choice> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut normal = || normal(&mut rng);
        let mut out = vec![];
        for game in 0..n {
            let whim: Vec<f64> = (0..noise).map(|_| normal()).collect();
            for _ in 0..2 {
                let actions: Vec<Vec<f64>> = (0..5).map(|_| (0..=noise).map(|_| normal()).collect()).collect();
                let value = |a: &Vec<f64>| a[0] + a[1..].iter().zip(&whim).map(|(x, w)| x * w).sum::<f64>() * 0.5;
                let chosen = (0..5).max_by(|&a, &b| value(&actions[a]).total_cmp(&value(&actions[b]))).unwrap_or(0);
                for _ in 0..5 {
                    out.push(Choice { actions: actions.clone(), chosen, game });
                }
            }
        }
        out
    }

    /// The distillation's ridge too is chosen on games held out, so a whim of the
    /// teacher's in the games fitted to (20 columns of it) is not taken for a rule of play.
    #[test]
    fn the_choices_ridge_is_chosen_on_games_held_out() {
        let noise = 20;
        let choices = taught(48, noise, 9);
        let mut prior = vec![0.0; noise + 1];
        prior[0] = 1.0;
        let ridge = choose_choice_ridge(&choices, noise + 1, &prior);
        assert!(ridge > RIDGES[0], "the weakest ridge was chosen: {ridge}");
    }

    /// The ridge is chosen on whole games held out: judged on positions of games it was
    /// fitted to, a column that merely marks a game would look like knowledge, and the
    /// weakest ridge would win.
    #[test]
    fn the_ridge_is_chosen_on_games_held_out() {
        let (n, noise) = (48, 30);
        let data = games(n, noise, 7);
        let mut prior = vec![0.0; noise + 1];
        prior[0] = 1.0;
        let ridge = choose_ridge(&data, noise + 1, &prior);
        assert!(ridge > RIDGES[0], "the weakest ridge was chosen: {ridge}");
        // Weights fitted with it carry over to games it never saw better than the weakest's.
        let all: Vec<&Position> = data.iter().collect();
        let chosen = fit(&all, noise + 1, &prior, &prior, ridge);
        let weakest = fit(&all, noise + 1, &prior, &prior, RIDGES[0]);
        let fresh = games(400, noise, 8);
        let (chosen_ll, _) = judge(&fresh, &chosen);
        let (weakest_ll, _) = judge(&fresh, &weakest);
        assert!(chosen_ll > weakest_ll, "held-out log-likelihood {chosen_ll} <= {weakest_ll}");
    }

    /// A match's wins when the weights' worth is how near they are to `best` (squared
    /// distance): a seat whose weights are nearer wins more than its share.
    fn wins(candidate: &[f64], w: &[f64], best: &[f64], n: usize) -> usize {
        let loss = |x: &[f64]| x.iter().zip(best).map(|(a, b)| (a - b) * (a - b)).sum::<f64>();
        let share = (0.5 + 0.5 * (loss(w) - loss(candidate))).clamp(0.0, 1.0);
        (share * n as f64).round() as usize
    }

    #[test]
    fn the_search_by_play_keeps_the_moves_that_win_and_turns_back_from_those_that_lose() {
        // Points (column 0) are right; column 1 is worth more than the fit said, column 2
        // less than nothing, column 3 never varies (left alone).
        let best = [1.0, 0.6, -0.4, 0.0];
        let mut w = vec![1.0, 0.0, 0.0, 5.0];
        let sd = [2.0, 0.5, 0.5, 0.0];
        let name = |c: usize| format!("c{c}");
        let steps = search_by_play(&mut w, &[1, 2, 3, 0], &sd, (48, 0.5, 16), &name, &|| false, |c, w, _| {
            Ok(wins(c, w, &best, 48))
        })
        .unwrap();
        assert_eq!(steps.len(), 16);
        assert!(steps.iter().all(|s| s.feature != "c3"), "a column that never varies was moved");
        assert_eq!(w[3], 5.0);
        // Column 1 goes up first (step 0.25 / 0.5 = 0.5) and is kept; column 2's first move
        // (up) loses, so it is tried the other way and kept.
        assert_eq!((steps[0].feature.as_str(), steps[0].to, steps[0].kept), ("c1", 0.5, true));
        let c2: Vec<&PlayStep> = steps.iter().filter(|s| s.feature == "c2").collect();
        assert!(!c2[0].kept && c2[0].to > 0.0 && c2[1].kept && c2[1].to < 0.0, "{c2:?}");
        // Every kept move won more than its share; the weights end near the best ones.
        assert!(steps.iter().filter(|s| s.kept).all(|s| s.wins > 24));
        for c in 0..3 {
            assert!((w[c] - best[c]).abs() < 0.15, "column {c}: {w:?}");
        }
        // Out of time (`--minutes`): no match starts after the deadline, and the weights
        // stay as the matches played so far left them.
        let played = std::cell::Cell::new(0);
        let mut w = vec![1.0, 0.0, 0.0, 5.0];
        let steps =
            search_by_play(&mut w, &[1, 2, 3, 0], &sd, (48, 0.5, 16), &name, &|| played.get() >= 3, |c, w, _| {
                played.set(played.get() + 1);
                Ok(wins(c, w, &best, 48))
            })
            .unwrap();
        assert_eq!((steps.len(), played.get()), (3, 3));
    }
}
