//! The greedy bot: one ply. It tries each legal action on a fork of one determinization
//! of the game and takes the one after which its seat's win chance (from the variant's
//! evaluation) is highest. Fast; blind to what others do next.

use super::determinize::determinize;
use super::{position_value, Decision};
use crate::action::Action;
use crate::engine::{Game, GameError, Snapshot};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub struct GreedyBot {
    rng: ChaCha8Rng,
}

/// Each legal action with the win chance of `seat` after it, tried on `from` (a
/// determinization); actions the rules refuse there are left out. The game is left at
/// `from`.
pub fn score_actions(
    game: &mut Game,
    from: &Snapshot,
    seat: usize,
    actions: Vec<Action>,
) -> Result<Vec<(Action, f64)>, GameError> {
    let mut out = Vec::with_capacity(actions.len());
    for a in actions {
        game.restore(from);
        if game.perform(seat, &a).is_ok() {
            out.push((a, position_value(game)?[seat]));
        }
    }
    game.restore(from);
    Ok(out)
}

/// The first of the best (ties keep the rules' listing order, so the choice is stable).
pub fn best(scored: &[(Action, f64)]) -> Option<usize> {
    let mut top: Option<usize> = None;
    for (i, (_, v)) in scored.iter().enumerate() {
        if top.is_none_or(|t| *v > scored[t].1 + 1e-12) {
            top = Some(i);
        }
    }
    top
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    pub fn decide(&mut self, game: &mut Game, seat: usize) -> Result<Option<Decision>, GameError> {
        let mut actions = game.legal_actions(seat)?;
        if actions.len() <= 1 {
            return Ok(actions.pop().map(|action| Decision { action, why: super::ONLY_ACTION.into() }));
        }
        let root = game.snapshot();
        let det = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
        let before = {
            game.restore(&det);
            position_value(game)
        };
        let n = actions.len();
        let first = actions[0].clone();
        let scored = score_actions(game, &det, seat, actions);
        game.restore(&root);
        let (scored, before) = (scored?, before?[seat]);
        let Some(i) = best(&scored) else {
            return Ok(Some(Decision { action: first, why: "no action could be tried on a copy".into() }));
        };
        let (action, after) = scored[i].clone();
        let why = format!(
            "best of {n} actions by the evaluation: win chance {:.0}% -> {:.0}%",
            100.0 * before,
            100.0 * after
        );
        Ok(Some(Decision { action, why }))
    }
}
