//! The simulation bot (`planner`): a one-ply look at every legal action, then a closer
//! look at the few best. An action whose outcome is drawn at random (a roll, a card
//! drawn, a steal: the engine logs its draws) is scored as the mean over several
//! determinizations, each with its own hidden cards and dice, instead of one sample; an
//! action after which the same seat acts again is scored by the best of its follow-ups,
//! so a trade that pays for a build is seen with the build. An action that hands the move
//! to other seats within the turn (an offer, an answer to one, a 7 that makes others
//! discard) is followed by their replies, each chosen one ply deep by the same evaluation,
//! until the move comes back or the turn ends, so an offer is judged by the trade it brings
//! (it makes offers through the same templates as `mcts`). Scores are the variant's
//! evaluation as win chances (the tuned one where the stack ships weights). Cheap enough
//! to fill every seat of thousands of games; knows nothing of any particular game.

use super::determinize::determinize;
use super::{position_value, Decision};
use crate::action::Action;
use crate::engine::{Game, GameError, Snapshot};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Determinizations an action drawn at random is scored over (the first look included).
pub const CHANCE_SAMPLES: usize = 4;
/// How many of the best actions by the first look get the closer look.
pub const SHORTLIST: usize = 3;
/// Follow-ups weighed after an action that leaves the same seat to act.
pub const FOLLOW_UPS: usize = 12;
/// What a follow-up's value gives up for coming a step later (win chances).
const LATER: f64 = 1e-3;
/// Replies of other seats played out after an action, at most.
pub const REPLIES: usize = 6;
/// A replying seat with more legal actions than this picks one at random (a discard of
/// many cards), not by the evaluation.
const REPLY_CHOICES: usize = 8;
/// Offers of its own (actions the rules cannot list) a bot weighs, and makes, per turn.
const OFFERS_PER_TURN: usize = 2;

pub struct PlannerBot {
    rng: ChaCha8Rng,
    /// Which offers of its own it makes.
    pub offers: super::offers::OfferPolicy,
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
        PlannerBot { rng: ChaCha8Rng::seed_from_u64(seed), offers: Default::default() }
    }

    pub fn decide(&mut self, game: &mut Game, seat: usize) -> Result<Option<Decision>, GameError> {
        let mut actions = game.legal_actions(seat)?;
        let offers = self.offers.add_candidates(game, seat, OFFERS_PER_TURN, &mut actions)?;
        if actions.len() <= 1 {
            return Ok(actions.pop().map(|action| Decision { action, why: super::ONLY_ACTION.into() }));
        }
        let root = game.snapshot();
        let result = self.search(game, &root, seat, actions, &offers);
        game.restore(&root);
        let decision = result?;
        Ok(decision)
    }

    /// After `seat`'s action: the other seats' replies within the same turn, each the best
    /// of its legal actions by one look (at random among many), until `seat` is to act
    /// again, the turn is over or `REPLIES` were played. The game is left after them.
    fn replies(&mut self, game: &mut Game, seat: usize) -> Result<(), GameError> {
        let turn = game.state().turn;
        for _ in 0..REPLIES {
            if game.winner().is_some() || game.state().turn != turn {
                break;
            }
            let r = game.to_act()?;
            if r == seat {
                break;
            }
            let mut acts = game.legal_actions(r)?;
            let pick = if acts.len() <= 1 {
                acts.pop()
            } else if acts.len() > REPLY_CHOICES {
                let i = self.rng.random_range(0..acts.len());
                Some(acts.swap_remove(i))
            } else {
                let here = game.snapshot();
                let mut best: Option<(f64, Action)> = None;
                for a in acts {
                    game.restore(&here);
                    if game.perform(r, &a).is_err() {
                        continue;
                    }
                    let v = position_value(game)?[r];
                    if best.as_ref().is_none_or(|(top, _)| v > *top + 1e-12) {
                        best = Some((v, a));
                    }
                }
                game.restore(&here);
                best.map(|(_, a)| a)
            };
            let Some(a) = pick else { break };
            if game.perform(r, &a).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Performs `a` for `seat` and the others' replies to it; false if the rules refuse it.
    fn play(&mut self, game: &mut Game, seat: usize, a: &Action) -> Result<bool, GameError> {
        if game.perform(seat, a).is_err() {
            return Ok(false);
        }
        let random = game.log().last().is_some_and(|e| !e.draws.is_empty());
        if !random && game.winner().is_none() && game.to_act()? != seat {
            self.replies(game, seat)?;
        }
        Ok(true)
    }

    fn search(
        &mut self,
        game: &mut Game,
        root: &Snapshot,
        seat: usize,
        actions: Vec<Action>,
        offers: &[Action],
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
            let len = game.log().len();
            if !self.play(game, seat, &a)? {
                continue;
            }
            let random = game.log().get(len).is_some_and(|e| !e.draws.is_empty());
            let again = game.winner().is_none() && game.to_act()? == seat;
            let value = position_value(game)?[seat];
            scored.push(Scored { action: a, value, random, again, then: None });
        }
        if scored.is_empty() {
            return Ok(Some(Decision { action: first, why: "no action could be tried on a copy".into() }));
        }
        // The closer look at the shortlist (stable: ties keep the listing order).
        // Offers always get it: their worth is in the trade they bring, a step further.
        let mut order: Vec<usize> = (0..scored.len()).collect();
        order.sort_by(|&a, &b| scored[b].value.partial_cmp(&scored[a].value).unwrap_or(std::cmp::Ordering::Equal));
        let mut short: Vec<usize> = order.iter().copied().take(SHORTLIST).collect();
        let extra: Vec<usize> =
            (0..scored.len()).filter(|&i| offers.contains(&scored[i].action) && !short.contains(&i)).collect();
        short.extend(extra);
        for &i in &short {
            if scored[i].random {
                let mut total = scored[i].value;
                for _ in 1..CHANCE_SAMPLES {
                    let d = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
                    game.restore(&d);
                    let a = scored[i].action.clone();
                    if !self.play(game, seat, &a)? {
                        continue;
                    }
                    total += position_value(game)?[seat];
                }
                scored[i].value = total / CHANCE_SAMPLES as f64;
            } else if scored[i].again {
                game.restore(&det);
                let a = scored[i].action.clone();
                if !self.play(game, seat, &a)? {
                    continue;
                }
                let after = game.snapshot();
                let follow = game.legal_actions(seat)?;
                let mut best: Option<(f64, Action)> = None;
                for b in follow.into_iter().take(FOLLOW_UPS) {
                    game.restore(&after);
                    if !self.play(game, seat, &b)? {
                        continue;
                    }
                    let v = position_value(game)?[seat];
                    if best.as_ref().is_none_or(|(top, _)| v > *top + 1e-12) {
                        best = Some((v, b));
                    }
                }
                // A step later is worth a little less: what the same seat can have now
                // (a winning city) is not put off behind a road that leads to it.
                if let Some((v, b)) = best.map(|(v, b)| (v - LATER, b)) {
                    if v > scored[i].value {
                        scored[i].value = v;
                        scored[i].then = Some(b);
                    }
                }
            }
        }
        let Some(&pick) = short.iter().max_by(|&&a, &&b| {
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
        Ok(Some(Decision { action: s.action.clone(), why }))
    }
}
