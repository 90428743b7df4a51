//! The simulation bot (`planner`): a one-ply look at every legal action, then a closer
//! look at the few best. An action whose outcome is drawn at random (a roll, a card
//! drawn, a steal: the engine logs its draws) is scored as the mean over several
//! determinizations, each with its own hidden cards and dice, instead of one sample; an
//! action after which the same seat acts again is scored by the best of its follow-ups,
//! so a trade that pays for a build is seen with the build. Scores are the variant's
//! evaluation as win chances (the tuned one where the stack ships weights). Cheap enough
//! to fill every seat of thousands of games; knows nothing of any particular game.

use super::determinize::determinize;
use super::{position_value, Decision};
use crate::action::Action;
use crate::engine::{Game, GameError, Snapshot};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Determinizations an action drawn at random is scored over (the first look included).
pub const CHANCE_SAMPLES: usize = 4;
/// How many of the best actions by the first look get the closer look.
pub const SHORTLIST: usize = 3;
/// Follow-ups weighed after an action that leaves the same seat to act.
pub const FOLLOW_UPS: usize = 12;

pub struct PlannerBot {
    rng: ChaCha8Rng,
}

/// One action and what the first look found of it.
struct Scored {
    action: Action,
    value: f64,
    /// Its outcome was drawn at random (the log entry holds draws).
    random: bool,
    /// The same seat acts after it, the game not over.
    again: bool,
    /// The follow-up that made its value, if any.
    then: Option<Action>,
}

impl PlannerBot {
    pub fn new(seed: u64) -> PlannerBot {
        PlannerBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    pub fn decide(&mut self, game: &mut Game, seat: usize) -> Result<Option<Decision>, GameError> {
        let mut actions = game.legal_actions(seat)?;
        if actions.len() <= 1 {
            return Ok(actions.pop().map(|action| Decision { action, why: "the only legal action".into() }));
        }
        let root = game.snapshot();
        let result = self.search(game, &root, seat, actions);
        game.restore(&root);
        result
    }

    fn search(
        &mut self,
        game: &mut Game,
        root: &Snapshot,
        seat: usize,
        actions: Vec<Action>,
    ) -> Result<Option<Decision>, GameError> {
        let n = actions.len();
        let first = actions[0].clone();
        let det = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
        game.restore(&det);
        let before = position_value(game)?[seat];
        // The first look: every action once, on one determinization.
        let mut scored = Vec::with_capacity(n);
        for a in actions {
            game.restore(&det);
            if game.perform(seat, &a).is_err() {
                continue;
            }
            let random = game.log().last().is_some_and(|e| !e.draws.is_empty());
            let again = game.winner().is_none() && game.to_act()? == seat;
            let value = position_value(game)?[seat];
            scored.push(Scored { action: a, value, random, again, then: None });
        }
        if scored.is_empty() {
            return Ok(Some(Decision { action: first, why: "no action could be tried on a copy".into() }));
        }
        // The closer look at the shortlist (stable: ties keep the listing order).
        let mut order: Vec<usize> = (0..scored.len()).collect();
        order.sort_by(|&a, &b| scored[b].value.partial_cmp(&scored[a].value).unwrap_or(std::cmp::Ordering::Equal));
        let mut sampled = 0;
        for &i in order.iter().take(SHORTLIST) {
            if scored[i].random {
                let mut total = scored[i].value;
                for _ in 1..CHANCE_SAMPLES {
                    let d = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
                    game.restore(&d);
                    if game.perform(seat, &scored[i].action).is_err() {
                        continue;
                    }
                    total += position_value(game)?[seat];
                }
                scored[i].value = total / CHANCE_SAMPLES as f64;
                sampled += 1;
            } else if scored[i].again {
                game.restore(&det);
                if game.perform(seat, &scored[i].action).is_err() {
                    continue;
                }
                let after = game.snapshot();
                let follow = game.legal_actions(seat)?;
                let mut best: Option<(f64, Action)> = None;
                for b in follow.into_iter().take(FOLLOW_UPS) {
                    game.restore(&after);
                    if game.perform(seat, &b).is_err() {
                        continue;
                    }
                    let v = position_value(game)?[seat];
                    if best.as_ref().is_none_or(|(top, _)| v > *top + 1e-12) {
                        best = Some((v, b));
                    }
                }
                if let Some((v, b)) = best {
                    if v > scored[i].value {
                        scored[i].value = v;
                        scored[i].then = Some(b);
                    }
                }
            }
        }
        let Some(&pick) = order.iter().take(SHORTLIST).max_by(|&&a, &&b| {
            scored[a]
                .value
                .partial_cmp(&scored[b].value)
                .unwrap_or(std::cmp::Ordering::Equal)
                // The earlier in the listing wins a tie.
                .then(b.cmp(&a))
        }) else {
            return Ok(Some(Decision { action: first, why: "no action could be tried on a copy".into() }));
        };
        let s = &scored[pick];
        let mut why = format!(
            "best of {n} actions by the evaluation: win chance {:.0}% -> {:.0}%",
            100.0 * before,
            100.0 * s.value
        );
        if s.random {
            why.push_str(&format!(" (the mean of {CHANCE_SAMPLES} draws of the dice and hidden cards)"));
        }
        if let Some(b) = &s.then {
            why.push_str(&format!(", counting on '{}' next", game.action_text(b)));
        }
        let _ = sampled;
        Ok(Some(Decision { action: s.action.clone(), why }))
    }
}
