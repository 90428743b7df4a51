//! The statistics of a run: means and proportions with their 95% intervals, the
//! chi-squared test of seat balance, paired differences.

use serde::Serialize;

/// A mean per game and its 95% interval, over `games` games.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Mean {
    pub mean: f64,
    pub ci95: [f64; 2],
    pub games: usize,
}

impl Mean {
    pub(super) fn of(xs: &[f64]) -> Mean {
        let (mean, ci95) = mean_ci95(xs);
        Mean { mean, ci95, games: xs.len() }
    }
}

/// A proportion and its 95% confidence interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rate {
    pub rate: f64,
    pub ci95: [f64; 2],
}

/// The chi-squared test of wins per seat against equal shares.
#[derive(Debug, Clone, Serialize)]
pub struct SeatBalance {
    pub chi2: f64,
    pub p_value: f64,
    /// p < 0.05: the seats do not win equally often.
    pub imbalanced: bool,
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

/// The mean of `xs` and its 95% interval (normal approximation, mean ± 1.96 standard
/// errors); `[mean, mean]` for fewer than two values.
pub fn mean_ci95(xs: &[f64]) -> (f64, [f64; 2]) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, [0.0, 0.0]);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, [mean, mean]);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, [mean - half, mean + half])
}

/// The chance of a chi-squared value of at least `x` with `k` degrees of freedom: the
/// regularized upper incomplete gamma function Q(k/2, x/2) (series below a+1, continued
/// fraction above, as in Numerical Recipes).
pub fn chi2_p_value(x: f64, k: usize) -> f64 {
    if k == 0 || x <= 0.0 {
        return 1.0;
    }
    let a = k as f64 / 2.0;
    let x = x / 2.0;
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..500 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-14 {
                break;
            }
        }
        (1.0 - sum * ln_front.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..500 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-14 {
                break;
            }
        }
        (ln_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let t = x + 7.5;
    let s = C[1..].iter().enumerate().fold(C[0], |acc, (i, c)| acc + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + s.ln()
}

/// Wins per seat against equal shares.
pub fn seat_balance(wins: &[usize]) -> SeatBalance {
    let total: usize = wins.iter().sum();
    if total == 0 || wins.len() < 2 {
        return SeatBalance { chi2: 0.0, p_value: 1.0, imbalanced: false };
    }
    let expected = total as f64 / wins.len() as f64;
    let chi2 = wins.iter().map(|&w| (w as f64 - expected).powi(2) / expected).sum::<f64>();
    let p_value = chi2_p_value(chi2, wins.len() - 1);
    SeatBalance { chi2, p_value, imbalanced: p_value < 0.05 }
}

/// A difference of B from A with its 95% interval; `significant` when the interval
/// leaves out 0.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Diff {
    pub diff: f64,
    pub ci95: [f64; 2],
    pub significant: bool,
}

impl Diff {
    pub(super) fn of(xs: &[f64]) -> Diff {
        let (diff, ci95) = mean_ci95(xs);
        Diff { diff, ci95, significant: xs.len() >= 2 && (ci95[0] > 0.0 || ci95[1] < 0.0) }
    }
}
