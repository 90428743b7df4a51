//! The simulation bot (`planner`): a one-ply look at every legal action, then a closer
//! look at the few best. An action whose outcome is drawn at random (a roll, a card
//! drawn, a steal: the engine logs its draws) is scored as the mean over several
//! determinizations, each with its own hidden cards and dice, instead of one sample; an
//! action after which the same seat acts again is scored by the best of its follow-ups,
//! so a trade that pays for a build is seen with the build. An action the same seat must
//! finish in another phase (a trade whose regions are still to pay, a knight whose robber
//! is still to move) is weighed once finished, its steps drawn at random in the first look
//! and chosen by one look in the closer one: halfway, a price not paid yet looks free. An
//! action that hands the move to other seats within the turn (an offer, an answer to one,
//! a 7 that makes others discard) is followed by their replies, each chosen one ply deep
//! by the same evaluation, until the move comes back, the turn ends or a replying seat has
//! many choices (it plays on, it is not answering), so an offer is judged by the trade it
//! brings (it makes offers through the same templates as `mcts`). An action that ends the
//! turn is followed the same way into the next turn up to its first draw (the roll), a
//! seat with many choices there drawing one at random: what ending the turn hands over.
//! Scores are the variant's evaluation as win chances (the tuned one where the stack
//! ships weights). Cheap enough to fill every seat of thousands of games; knows nothing
//! of any particular game.

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
/// A replying seat with more legal actions than this is not weighing an answer (a discard
/// of many cards, a turn's owner free to play on): in the next turn it picks one at random,
/// not by the evaluation; within the turn of the action replied to, the replies end there.
const REPLY_CHOICES: usize = 8;
/// Steps of the same seat an unfinished action is followed through (its choices: which
/// region pays, where the robber goes), at most.
pub const FINISH_STEPS: usize = 8;
/// Steps of an unfinished action the first look draws at random before it gives up: an
/// action that leads into a phase of free choice (a roll into the main phase) never comes
/// back, and drawing there costs what a look at every action costs.
pub const FIRST_LOOK_STEPS: usize = 3;
/// A step of an unfinished action with more choices than this is taken at random.
const FINISH_CHOICES: usize = 24;
/// Offers of its own (actions the rules cannot list) a bot weighs, and makes, per turn.
const OFFERS_PER_TURN: usize = 2;

pub struct PlannerBot {
    rng: ChaCha8Rng,
    /// Draws the steps of an unfinished action in the first look.
    drawer: Box<super::random::RandomBot>,
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
    /// The same seat acts after it in another phase: the action is not finished (a
    /// trade whose regions are still to pay, a knight whose robber is still to move).
    unfinished: bool,
    /// The follow-up that made its value, if any.
    then: Option<Action>,
    /// The position right after it and the replies to it on the first look's deal, for an
    /// action the same seat acts after, put back by the closer look instead of playing it
    /// again: the same position, as every draw comes from the state's seeded generator,
    /// where no reply was picked at random (`self.rng`).
    after: Option<Snapshot>,
}

impl PlannerBot {
    pub fn new(seed: u64) -> PlannerBot {
        PlannerBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            drawer: Box::new(super::random::RandomBot::new(seed ^ 0x5eed)),
            offers: Default::default(),
        }
    }

    /// The action to take for `seat`, and why (its win chance before and after, and what
    /// it counts on).
    pub fn decide(&mut self, game: &mut Game, seat: usize) -> Result<Option<Decision>, GameError> {
        self.decide_as(game, seat, true)
    }

    /// The action `decide` takes, without its reasons: the same choice, for a game that
    /// does not print them (a simulation).
    pub fn choose(&mut self, game: &mut Game, seat: usize) -> Result<Option<Action>, GameError> {
        Ok(self.decide_as(game, seat, false)?.map(|d| d.action))
    }

    /// `explain`: the decision says why; otherwise its `why` is empty, and the position
    /// before the action is not scored (nothing else reads it).
    fn decide_as(&mut self, game: &mut Game, seat: usize, explain: bool) -> Result<Option<Decision>, GameError> {
        let mut actions = game.legal_actions(seat)?;
        let offers = self.offers.add_candidates(game, seat, OFFERS_PER_TURN, &mut actions)?;
        if actions.len() <= 1 {
            return Ok(actions.pop().map(|action| Decision { action, why: super::ONLY_ACTION.into() }));
        }
        let root = game.snapshot();
        let result = self.search(game, &root, seat, actions, &offers, explain);
        game.restore(&root);
        let decision = result?;
        Ok(decision)
    }

    /// After `seat`'s action (taken in turn `acted_in`): the other seats' replies, each the
    /// best of its legal actions by one look, until `seat` is to act again, the turn is
    /// over or `REPLIES` were played. After an action that ended the turn, they are the
    /// next turn's first moves up to its first draw (the roll it hands over), a seat with
    /// many choices drawing one at random; within `acted_in` such a seat ends them. The
    /// game is left after them.
    fn replies(&mut self, game: &mut Game, seat: usize, acted_in: u32) -> Result<(), GameError> {
        let turn = game.state().turn;
        for _ in 0..REPLIES {
            if game.winner().is_some() || game.state().turn != turn {
                break;
            }
            let r = game.to_act()?;
            if r == seat {
                break;
            }
            // Within the turn `seat` acted in, a seat with many choices is not answering
            // it (the turn's owner playing on after a choice it asked of `seat`): the
            // replies end there, not with a move drawn at random.
            let Some((a, after)) = self.pick_by_one_look(game, r, REPLY_CHOICES, turn == acted_in)? else { break };
            if !perform_or_put_back(game, r, &a, after) {
                break;
            }
            // The next turn is followed up to its first draw (the roll it hands over):
            // what ending the turn brings every seat is weighed, not the next seat's
            // choices after it, the same in the first look and in a follow-up that ends
            // the turn, so neither leans towards ending it.
            if turn != acted_in && game.log().last().is_some_and(|e| e.drew()) {
                break;
            }
        }
        Ok(())
    }

    /// `seat`'s legal action with the best value for it by one look, the game left as it
    /// was; among more than `most` (a discard of many cards), one at random, or none if
    /// `none_past_most`. With the action, the position it led to when it was tried, if it
    /// was: `perform_or_put_back` puts that back instead of performing it again.
    fn pick_by_one_look(
        &mut self,
        game: &mut Game,
        seat: usize,
        most: usize,
        none_past_most: bool,
    ) -> Result<Option<(Action, Option<Snapshot>)>, GameError> {
        let mut acts = game.legal_actions(seat)?;
        if acts.len() <= 1 {
            return Ok(acts.pop().map(|a| (a, None)));
        }
        if acts.len() > most {
            if none_past_most {
                return Ok(None);
            }
            let i = self.rng.random_range(0..acts.len());
            return Ok(Some((acts.swap_remove(i), None)));
        }
        let here = game.snapshot();
        let mut best: Option<(f64, Action, Snapshot)> = None;
        for a in acts {
            game.restore(&here);
            if game.perform(seat, &a).is_err() {
                continue;
            }
            let v = position_value(game)?[seat];
            if best.as_ref().is_none_or(|(top, _, _)| v > *top + 1e-12) {
                best = Some((v, a, game.snapshot_since(&here)));
            }
        }
        game.restore(&here);
        Ok(best.map(|(_, a, after)| (a, Some(after))))
    }

    /// Performs `a` for `seat` and the others' replies to it; false if the rules refuse it.
    fn play(&mut self, game: &mut Game, seat: usize, a: &Action) -> Result<bool, GameError> {
        let turn = game.state().turn;
        if game.perform(seat, a).is_err() {
            return Ok(false);
        }
        self.replied(game, seat, turn)
    }

    /// A step of an unfinished action: performed, and the others' replies played only
    /// within the turn. A step that ends the turn fails the finish whatever comes next,
    /// so the next turn's replies (the next seat's roll) would be thrown away.
    /// `after`, if given, is the position `a` leads to (`pick_by_one_look`).
    fn step(&mut self, game: &mut Game, seat: usize, a: &Action, after: Option<Snapshot>) -> Result<bool, GameError> {
        let turn = game.state().turn;
        if !perform_or_put_back(game, seat, a, after) {
            return Ok(false);
        }
        if game.state().turn != turn {
            return Ok(true);
        }
        self.replied(game, seat, turn)
    }

    /// After `seat`'s action: the others' replies (none after an action drawn at random).
    /// True.
    fn replied(&mut self, game: &mut Game, seat: usize, acted_in: u32) -> Result<bool, GameError> {
        let random = game.log().last().is_some_and(|e| e.drew());
        if !random && game.winner().is_none() && game.to_act()? != seat {
            self.replies(game, seat, acted_in)?;
        }
        Ok(true)
    }

    /// Follows an unfinished action of `seat` through: while `seat` is to act in another
    /// phase than `phase` (the one the action was taken in), each step is the best of its
    /// choices by one look (`careful`, up to `FINISH_STEPS`; at random past
    /// `FINISH_CHOICES`) or drawn as the random bot draws (up to `FIRST_LOOK_STEPS`).
    /// The steps taken are pushed on `steps`, so other deals can replay them. The game is
    /// left after them. True if it came back: `seat` to act in `phase` again (a trade
    /// paid, a robber moved and a card stolen), or the game won; false if the move left
    /// the seat (an end of turn, whose sequence the others' turns continue).
    fn finish(
        &mut self,
        game: &mut Game,
        (seat, phase): (usize, &str),
        careful: bool,
        steps: &mut Vec<Action>,
    ) -> Result<bool, GameError> {
        let turn = game.state().turn;
        let most = if careful { FINISH_STEPS } else { FIRST_LOOK_STEPS };
        for _ in 0..most {
            if back(game, seat, phase, turn)? {
                return Ok(true);
            }
            if game.to_act()? != seat || game.state().turn != turn {
                return Ok(false);
            }
            let a = if careful {
                self.pick_by_one_look(game, seat, FINISH_CHOICES, false)?
            } else {
                // The engine's draw, as the random bot's: no listing of every choice.
                self.drawer.choose(game, seat)?.map(|a| (a, None))
            };
            let Some((a, after)) = a else { return Ok(false) };
            if !self.step(game, seat, &a, after)? {
                return Ok(false);
            }
            steps.push(a);
        }
        back(game, seat, phase, turn)
    }

    /// On another deal: `a` then the steps that finished it on the first deal, replayed
    /// where the rules still take them (the cards stolen may differ), the rest drawn at
    /// random; weighing each choice again on every deal would cost a look per step.
    fn replay(
        &mut self,
        game: &mut Game,
        (seat, phase): (usize, &str),
        a: &Action,
        steps: &[Action],
    ) -> Result<bool, GameError> {
        if !self.play(game, seat, a)? {
            return Ok(false);
        }
        let turn = game.state().turn;
        for step in steps {
            if game.winner().is_some() || game.to_act()? != seat || game.state().phase == phase {
                break;
            }
            // A refused step leaves the game as it was (every action is all-or-nothing).
            if !self.step(game, seat, step, None)? {
                break;
            }
        }
        if back(game, seat, phase, turn)? {
            return Ok(true);
        }
        self.finish(game, (seat, phase), false, &mut Vec::new())
    }

    /// `first`, the value of `a` then `b` on the determinization already played, and
    /// `CHANCE_SAMPLES - 1` more: each a fresh deal of what `seat` cannot see, `a` (finished
    /// as in the first look, in `phase`) and `b` played on it; their mean.
    fn mean_after(
        &mut self,
        game: &mut Game,
        (root, seat, phase): (&Snapshot, usize, &str),
        (a, b): (&Action, &Action),
        first: f64,
    ) -> Result<f64, GameError> {
        let (mut total, mut n) = (first, 1);
        for _ in 1..CHANCE_SAMPLES {
            let d = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
            game.restore(&d);
            if !self.play(game, seat, a)? || !self.finish(game, (seat, phase), false, &mut Vec::new())? {
                continue;
            }
            if game.winner().is_some() || game.to_act()? != seat || !self.play(game, seat, b)? {
                continue;
            }
            total += position_value(game)?[seat];
            n += 1;
        }
        Ok(total / n as f64)
    }

    fn search(
        &mut self,
        game: &mut Game,
        root: &Snapshot,
        seat: usize,
        actions: Vec<Action>,
        offers: &[Action],
        explain: bool,
    ) -> Result<Option<Decision>, GameError> {
        let n = actions.len();
        let first = actions[0].clone();
        let det = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
        game.restore(&det);
        // Scored only to be quoted in `why`.
        let before = if explain { Some(position_value(game)?[seat]) } else { None };
        let phase = game.state().phase.clone();
        // The first look: every action once, on one determinization.
        let mut scored = Vec::with_capacity(n);
        for a in actions {
            game.restore(&det);
            let len = game.log().len();
            let drawn = self.rng.get_word_pos();
            if !self.play(game, seat, &a)? {
                continue;
            }
            let random = game.log().get(len).is_some_and(|e| e.drew());
            let again = game.winner().is_none() && game.to_act()? == seat;
            let after = (again && !random && self.rng.get_word_pos() == drawn).then(|| game.snapshot_since(&det));
            let mut unfinished = again && game.state().phase != phase;
            let mut value = position_value(game)?[seat];
            // Halfway is no value to compare (a trade whose regions are still to pay looks
            // free): followed through at random, if it comes back within the turn. One
            // that does not (an end of turn with its own steps: draws, an exchange) keeps
            // the value it has as it stands and its follow-ups, as before the turn's end
            // everything else is weighed: finished, it would be weighed after the turn's
            // end, where what the end brings (or costs) tips every comparison with it.
            if unfinished {
                if self.finish(game, (seat, &phase), false, &mut Vec::new())? {
                    value = position_value(game)?[seat];
                } else {
                    unfinished = false;
                }
            }
            scored.push(Scored { action: a, value, random, again, unfinished, then: None, after });
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
        // An unfinished action's first look is halfway (a trade not paid yet): the best
        // finished one is weighed beside it, so that halfway values never stand alone.
        if short.iter().any(|&i| scored[i].unfinished) {
            if let Some(&f) = order.iter().find(|&&i| !scored[i].unfinished && !short.contains(&i)) {
                short.push(f);
            }
        }
        for &i in &short {
            if scored[i].random {
                let (mut total, mut k) = (scored[i].value, 1);
                for _ in 1..CHANCE_SAMPLES {
                    let d = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
                    game.restore(&d);
                    let a = scored[i].action.clone();
                    if !self.play(game, seat, &a)? {
                        continue;
                    }
                    total += position_value(game)?[seat];
                    k += 1;
                }
                // The mean of the deals it could be played on (a deal it was refused on
                // counted nothing, not a zero).
                scored[i].value = total / k as f64;
            } else if scored[i].again {
                game.restore(&det);
                let a = scored[i].action.clone();
                let len = game.log().len();
                if let Some(after) = scored[i].after.take() {
                    game.restore(&after);
                } else if !self.play(game, seat, &a)? {
                    continue;
                }
                if scored[i].unfinished {
                    // Valued once finished, its choices each the best by one look; as a
                    // mean over determinizations if a step drew at random (a steal).
                    let mut steps = Vec::new();
                    if !self.finish(game, (seat, &phase), true, &mut steps)? {
                        // It ends the turn: weighed where it was, as the first look found
                        // it, beside the others' values taken before the turn's end too.
                        continue;
                    }
                    let drew = game.log().get(len..).is_some_and(|l| l.iter().any(|e| e.drew()));
                    let v = position_value(game)?[seat];
                    if drew {
                        let (mut total, mut k) = (v, 1);
                        for _ in 1..CHANCE_SAMPLES {
                            let d = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
                            game.restore(&d);
                            if !self.replay(game, (seat, &phase), &a, &steps)? {
                                continue;
                            }
                            total += position_value(game)?[seat];
                            k += 1;
                        }
                        scored[i].value = total / k as f64;
                        continue;
                    }
                    scored[i].value = v;
                    if game.winner().is_some() || game.to_act()? != seat {
                        continue;
                    }
                }
                let after = game.snapshot();
                let before_follow_up = scored[i].value;
                // Follow-ups in the action's own phase have their draws averaged (and an
                // unfinished one capped below); those of an action that left it (the steps
                // of an end of turn) are weighed as they stand, each one look.
                let home = game.state().phase == phase;
                let follow = game.legal_actions(seat)?;
                let mut best: Option<(f64, Action)> = None;
                for b in follow.into_iter().take(FOLLOW_UPS) {
                    game.restore(&after);
                    let len = game.log().len();
                    if !self.play(game, seat, &b)? {
                        continue;
                    }
                    let mut v = position_value(game)?[seat];
                    // An unfinished follow-up is weighed halfway, but never above the
                    // action before it: halfway its price is unpaid (a trade whose regions
                    // are still to pay), and following every follow-up through would cost
                    // a look per step of each.
                    if home && game.winner().is_none() && game.to_act()? == seat && game.state().phase != phase {
                        v = v.min(before_follow_up);
                    }
                    // A follow-up drawn at random is weighed as an action drawn at random is,
                    // by the mean over determinizations: the best of several single draws
                    // would favour whatever action came before a lucky one.
                    if home && game.log().get(len).is_some_and(|e| e.drew()) {
                        v = self.mean_after(game, (root, seat, &phase), (&a, &b), v)?;
                    }
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
        let Some(before) = before else {
            return Ok(Some(Decision { action: s.action.clone(), why: String::new() }));
        };
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

/// Performs `a` for `seat`, or puts back `after`, the position it led to when it was
/// tried from this one (the same, as every action's outcome is drawn from the state's
/// seeded generator, without its cost). False if the rules refuse it.
fn perform_or_put_back(game: &mut Game, seat: usize, a: &Action, after: Option<Snapshot>) -> bool {
    match after {
        Some(after) => {
            game.restore(&after);
            true
        }
        None => game.perform(seat, a).is_ok(),
    }
}

/// Whether the move is back with `seat` in `phase` within `turn`, or the game is won.
fn back(game: &Game, seat: usize, phase: &str, turn: u32) -> Result<bool, GameError> {
    Ok(game.winner().is_some() || (game.to_act()? == seat && game.state().phase == phase && game.state().turn == turn))
}
