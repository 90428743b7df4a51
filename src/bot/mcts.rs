//! The search bot: determinized Monte Carlo tree search (single-observer information-set
//! MCTS). Each playout deals the cards its seat cannot see again and re-seeds the dice
//! (`determinize`), walks one shared tree whose edges are actions (an edge counts as
//! available only in the playouts where the rules allow it), picks by UCT for the seat to
//! act there (each seat maximises its own value), adds one edge, plays a few more actions
//! with a policy guided by the evaluation, and scores the position reached with the
//! variant's evaluation as every seat's win chance. Knows nothing of any particular game.

use super::determinize::determinize;
use super::greedy::{best, score_actions};
use super::{position_value, Budget, Decision};
use crate::action::Action;
use crate::engine::{Game, GameError, Snapshot};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Playouts per decision by default: about a second on one core in the base game.
pub const DEFAULT_PLAYOUTS: usize = 300;
/// Actions played past the tree before the position is scored.
pub const ROLLOUT_DEPTH: usize = 4;
/// How many random candidates a rollout step weighs by the evaluation.
const ROLLOUT_CANDIDATES: usize = 1;
/// UCT exploration constant (values are win chances in [0, 1]).
const EXPLORATION: f64 = 0.5;
/// Offers of its own (actions the rules cannot list) a bot weighs, and makes, per turn.
const OFFERS_PER_TURN: usize = 2;

struct Edge {
    action: Action,
    /// The seat that takes this action: its value is what the edge keeps.
    seat: usize,
    visits: u32,
    total: f64,
    /// Playouts in which this action was legal when its node was reached.
    available: u32,
    child: Option<usize>,
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
}

pub struct MctsBot {
    rng: ChaCha8Rng,
    budget: Budget,
    /// Which offers of its own it makes.
    pub offers: super::offers::OfferPolicy,
}

impl MctsBot {
    pub fn new(seed: u64, budget: Budget) -> MctsBot {
        MctsBot { rng: ChaCha8Rng::seed_from_u64(seed), budget, offers: Default::default() }
    }

    pub fn decide(&mut self, game: &mut Game, seat: usize) -> Result<Option<Decision>, GameError> {
        let mut actions = game.legal_actions(seat)?;
        self.offers.add_candidates(game, seat, OFFERS_PER_TURN, &mut actions)?;
        if actions.len() <= 1 {
            return Ok(actions.pop().map(|action| Decision { action, why: super::ONLY_ACTION.into() }));
        }
        // Kept for the case no root action could be tried in any determinization.
        let first = actions[0].clone();
        let root = game.snapshot();
        let result = self.search(game, &root, seat, actions);
        game.restore(&root);
        let (nodes, playouts) = result?;
        let edges = &nodes[0].edges;
        let mean = |e: &Edge| if e.visits > 0 { e.total / e.visits as f64 } else { 0.0 };
        let Some(pick) = (0..edges.len()).max_by(|&a, &b| {
            (edges[a].visits, mean(&edges[a]))
                .partial_cmp(&(edges[b].visits, mean(&edges[b])))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.cmp(&a))
        }) else {
            return Ok(Some(Decision { action: first, why: "no action could be tried in the search".into() }));
        };
        let e = &edges[pick];
        let why = format!(
            "chosen in {} of {playouts} playouts over {} actions; estimated win chance {:.0}%",
            e.visits,
            edges.len(),
            100.0 * mean(e)
        );
        Ok(Some(Decision { action: e.action.clone(), why }))
    }

    fn search(
        &mut self,
        game: &mut Game,
        root: &Snapshot,
        seat: usize,
        root_actions: Vec<Action>,
    ) -> Result<(Vec<Node>, usize), GameError> {
        let mut nodes = vec![Node::default()];
        let start = Instant::now();
        let deadline = self.budget.think_ms.map(Duration::from_millis);
        let mut playouts = 0;
        while playouts < self.budget.playouts.max(1) {
            if deadline.is_some_and(|d| playouts > 0 && start.elapsed() >= d) {
                break;
            }
            playouts += 1;
            let det = root.with_state(determinize(game.spec(), root.state(), seat, &mut self.rng));
            game.restore(&det);
            let path = self.descend(game, &mut nodes, &root_actions)?;
            self.rollout(game)?;
            let value = position_value(game)?;
            for (n, e) in path {
                let edge = &mut nodes[n].edges[e];
                edge.visits += 1;
                edge.total += value[edge.seat];
            }
        }
        Ok((nodes, playouts))
    }

    /// Selection and expansion: returns the (node, edge) pairs walked.
    fn descend(
        &mut self,
        game: &mut Game,
        nodes: &mut Vec<Node>,
        root_actions: &[Action],
    ) -> Result<Vec<(usize, usize)>, GameError> {
        let mut path = vec![];
        let mut node = 0;
        while game.winner().is_none() {
            let to_act = game.to_act()?;
            let legal = if node == 0 { root_actions.to_vec() } else { game.legal_actions(to_act)? };
            if legal.is_empty() {
                break;
            }
            let mut fresh = vec![];
            let mut open = vec![];
            for a in legal {
                match nodes[node].edges.iter().position(|e| e.action == a && e.seat == to_act) {
                    Some(i) => {
                        nodes[node].edges[i].available += 1;
                        open.push(i);
                    }
                    None => fresh.push(a),
                }
            }
            if !fresh.is_empty() {
                let a = fresh.swap_remove(self.rng.random_range(0..fresh.len()));
                if game.perform(to_act, &a).is_err() {
                    break;
                }
                nodes[node].edges.push(Edge {
                    action: a,
                    seat: to_act,
                    visits: 0,
                    total: 0.0,
                    available: 1,
                    child: None,
                });
                path.push((node, nodes[node].edges.len() - 1));
                break;
            }
            let edges = &nodes[node].edges;
            let uct = |i: usize| {
                let e = &edges[i];
                let n = e.visits.max(1) as f64;
                e.total / n + EXPLORATION * ((e.available.max(1) as f64).ln() / n).sqrt()
            };
            let Some(&i) =
                open.iter().max_by(|&&a, &&b| uct(a).partial_cmp(&uct(b)).unwrap_or(std::cmp::Ordering::Equal))
            else {
                break;
            };
            let action = nodes[node].edges[i].action.clone();
            if game.perform(to_act, &action).is_err() {
                break;
            }
            path.push((node, i));
            node = match nodes[node].edges[i].child {
                Some(c) => c,
                None => {
                    nodes.push(Node::default());
                    let c = nodes.len() - 1;
                    nodes[node].edges[i].child = Some(c);
                    c
                }
            };
        }
        Ok(path)
    }

    /// A few actions past the tree, each the best by the evaluation of a couple of random
    /// legal actions, so a playout does not wander off into nonsense.
    fn rollout(&mut self, game: &mut Game) -> Result<(), GameError> {
        let mut sampler = super::RandomBot::new(self.rng.random());
        for _ in 0..ROLLOUT_DEPTH {
            if game.winner().is_some() {
                break;
            }
            let seat = game.to_act()?;
            let mut cands = vec![];
            for _ in 0..ROLLOUT_CANDIDATES {
                if let Some(a) = sampler.choose(game, seat)? {
                    if !cands.contains(&a) {
                        cands.push(a);
                    }
                }
            }
            let action = if cands.len() > 1 {
                let here = game.snapshot();
                let scored = score_actions(game, &here, seat, cands)?;
                match best(&scored) {
                    Some(i) => scored[i].0.clone(),
                    None => break,
                }
            } else {
                match cands.pop() {
                    Some(a) => a,
                    None => break,
                }
            };
            if game.perform(seat, &action).is_err() {
                break;
            }
        }
        Ok(())
    }
}
