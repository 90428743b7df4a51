//! The fits of `catan tune`: the weights that make the bots' own win chances foretell the
//! winners (a conditional logit with a ridge toward where the run started), or, with a
//! teacher, rank its choices first (distillation); each ridge chosen on games held out.

use super::{Choice, Position};
use crate::bot::TEMPERATURE;

/// Pieces the fit's data is cut into, each summed on a thread of its own.
const FIT_CHUNKS: usize = 4;
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

/// Scores of each seat under weights `w` (by column).
pub(super) fn scores(p: &Position, w: &[f64]) -> Vec<f64> {
    p.seats.iter().map(|row| row.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() / TEMPERATURE).collect()
}

fn log_softmax_at(s: &[f64], i: usize) -> f64 {
    let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = s.iter().map(|x| (x - top).exp()).sum();
    s[i] - top - sum.ln()
}

/// How well `w` foretells the winners of `data`: (mean log-likelihood, top share).
pub(super) fn judge(data: &[Position], w: &[f64]) -> (f64, f64) {
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
pub(super) fn spread<'a>(rows: impl Iterator<Item = &'a Vec<f64>>, ncols: usize) -> Vec<f64> {
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
pub(super) fn fit(data: &[&Position], ncols: usize, start: &[f64], prior: &[f64], ridge: f64) -> Vec<f64> {
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
pub(super) fn choose_ridge(data: &[Position], ncols: usize, prior: &[f64]) -> f64 {
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
pub(super) fn fit_choices(choices: &[Choice], positions: &[Position], ncols: usize, prior: &[f64]) -> (Vec<f64>, f64) {
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
pub(super) fn agreement(choices: &[Choice], w: &[f64]) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

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
}
