//! Offers a bot may make with actions the rules cannot list, such as `offer <cards> for
//! <cards>` (a template: any cards for any cards). Generic: for a template of two card
//! lists, one card of a resource kind the seat holds two or more of for one of a kind it
//! holds none of, kept only if the rules accept it on a fork of the game.

use crate::action::{Action, Arg};
use crate::engine::{Game, GameError};
use crate::spec::ArgType;

/// At most `max` offers `seat` may make now, most plentiful card given first.
pub fn proposals(game: &mut Game, seat: usize, max: usize) -> Result<Vec<Action>, GameError> {
    let (_, templates) = game.legal_with_templates(seat)?;
    let spec = game.spec().clone();
    let Some(hand) = spec.zone("hand") else { return Ok(vec![]) };
    let held = |game: &Game, kind: &str| {
        spec.card(kind).and_then(|k| game.state().zone(Some(seat), hand).map(|z| z.count(k))).unwrap_or(0)
    };
    let mut kinds: Vec<(usize, String)> = spec.resources().map(|r| (held(game, r), r.to_string())).collect();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.0));
    let mut out = vec![];
    for a in spec.actions.iter().filter(|a| templates.contains(&a.template())) {
        if a.arg_types().collect::<Vec<_>>() != [ArgType::Cards, ArgType::Cards] {
            continue;
        }
        for (_, give) in kinds.iter().filter(|(n, _)| *n >= 2) {
            for (_, get) in kinds.iter().filter(|(m, _)| *m == 0) {
                if out.len() >= max {
                    return Ok(out);
                }
                let offer = Action {
                    name: a.name.clone(),
                    args: vec![Arg::Cards(vec![(give.clone(), 1)]), Arg::Cards(vec![(get.clone(), 1)])],
                };
                let snap = game.snapshot();
                let ok = game.perform(seat, &offer).is_ok();
                game.restore(&snap);
                if ok {
                    out.push(offer);
                }
            }
        }
    }
    Ok(out)
}

/// Which offers a bot makes: at most `per_turn` in a turn, never one its seat made already
/// in that turn (a declined offer is not made again), counted from the game
/// (`GameState::unlisted`), so that a load, a resume or an undo keeps the count. With
/// `own_offers` off (`catan play`'s `offers off`), none of its own on its turns: it still
/// answers (and counters) the offers made to it.
#[derive(Debug, Clone, Copy)]
pub struct OfferPolicy {
    pub own_offers: bool,
}

impl Default for OfferPolicy {
    fn default() -> OfferPolicy {
        OfferPolicy { own_offers: true }
    }
}

impl OfferPolicy {
    /// Adds to `actions` the offers `seat` may still make this turn (none when it has
    /// only one action anyway) and returns them.
    pub fn add_candidates(
        &self,
        game: &mut Game,
        seat: usize,
        per_turn: usize,
        actions: &mut Vec<Action>,
    ) -> Result<Vec<Action>, GameError> {
        let (made, own_turn): (Vec<Action>, bool) = {
            let st = game.state();
            (st.unlisted.by(st.turn, seat).cloned().collect(), st.current == seat)
        };
        if made.len() >= per_turn || actions.len() <= 1 || (own_turn && !self.own_offers) {
            return Ok(vec![]);
        }
        let mut offers = proposals(game, seat, per_turn)?;
        offers.retain(|o| !made.contains(o));
        actions.extend(offers.iter().cloned());
        Ok(offers)
    }
}
