//! The search by play of `catan tune`: the declared weights moved one at a time, each move
//! kept when it wins a match on paired seeds against the weights so far.

use super::{round4, PlayStep};
use crate::engine::GameError;

/// A declared weight's first move in the search by play: this many victory points per
/// spread (standard deviation) of its column.
const PLAY_STEP: f64 = 0.25;

/// The search by play: from `w`, each declared column in turn (`order`) is moved by its
/// step (`PLAY_STEP` victory points per spread `sd` of the column) and the move played in
/// a match of `n` games against `w` (`play(candidate, w, match)` gives the candidate's
/// wins); a move that wins more than its share (`fair`) by half a standard error is kept
/// and tried again twice as far, one that does not is tried the other way, then the step
/// is halved and the next column taken. Plays `matches` matches, or fewer: none is
/// started once `out_of_time()`.
pub(super) fn search_by_play(
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

#[cfg(test)]
mod tests {
    use super::*;

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
