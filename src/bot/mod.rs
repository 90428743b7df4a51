//! Bots. Every bot decides from its seat's view only: the search bots first deal the
//! cards their seat cannot see again at random (`determinize`), then try actions on forks
//! of the game (`Game::snapshot`/`restore`) and score the positions with the variant's
//! `evaluate` filter. They know nothing of any particular game.

pub mod determinize;
pub mod explain;
pub mod external;
pub mod features;
pub mod greedy;
pub mod mcts;
pub mod offers;
pub mod planner;
mod random;
pub mod weights;

pub use greedy::GreedyBot;
pub use mcts::MctsBot;
pub use planner::PlannerBot;
pub use random::RandomBot;

use crate::action::Action;
use crate::engine::{Drawn, Game, GameError};

/// The kinds of bot. `Mcts` is the default of `catan play`: the strongest per decision;
/// `Planner` is the bot for simulations: close to it at a small fraction of its cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BotKind {
    Random,
    Greedy,
    Planner,
    Mcts,
}

impl BotKind {
    pub const ALL: [BotKind; 4] = [BotKind::Random, BotKind::Greedy, BotKind::Planner, BotKind::Mcts];
    pub const DEFAULT: BotKind = BotKind::Mcts;

    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Planner => "planner",
            BotKind::Mcts => "mcts",
        }
    }

    pub fn parse(s: &str) -> Result<BotKind, String> {
        BotKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("'{s}' is not a bot (bots: {})", BotKind::ALL.map(|k| k.name()).join(", ")))
    }
}

/// A bot of a lineup (`catan sim --bots`): a kind, and the evaluation it plays with when
/// not the stack's own: `KIND@FILE` (a weights file: its entry for the stack, else its
/// first) or `KIND@none` (no weights: the variant's hand-written `evaluate`, or victory
/// points). `planner@tuned.toml,planner@none` pits two evaluations against each other.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BotSpec {
    pub kind: BotKind,
    pub weights: Option<String>,
}

impl BotSpec {
    pub fn parse(s: &str) -> Result<BotSpec, String> {
        let (kind, weights) = match s.split_once('@') {
            Some((k, w)) if !w.trim().is_empty() => (k, Some(w.trim().to_string())),
            Some((_, _)) => return Err(format!("'{s}': a weights file or `none` after the @")),
            None => (s, None),
        };
        Ok(BotSpec { kind: BotKind::parse(kind)?, weights })
    }

    /// As written: `planner`, `planner@none`, `planner@tuned.toml`.
    pub fn name(&self) -> String {
        match &self.weights {
            Some(w) => format!("{}@{w}", self.kind.name()),
            None => self.kind.name().to_string(),
        }
    }

    /// The evaluation this bot plays with in `game`'s stack, when not the stack's own.
    pub fn evaluation(&self, game: &Game) -> Result<Option<crate::engine::TunedEval>, String> {
        let Some(w) = &self.weights else { return Ok(None) };
        if w == "none" {
            return Ok(Some((None, None)));
        }
        let file = weights::WeightsFile::read(std::path::Path::new(w))?;
        let h = game.header();
        let t = file.pick(&h.variants.join("+"), h.players).ok_or_else(|| format!("{w} holds no weights"))?.clone();
        Ok(Some((Some(std::sync::Arc::new(weights::Evaluator::new(game, t))), None)))
    }
}

impl From<BotKind> for BotSpec {
    fn from(kind: BotKind) -> BotSpec {
        BotSpec { kind, weights: None }
    }
}

/// A bot in its seat with the evaluation its [`BotSpec`] names, when not the stack's own:
/// `planner@tuned.toml` swaps its weights in for its own decisions only, so seats with
/// different evaluations share one game (`catan sim`, `catan play`, `catan web`).
pub struct SeatBot {
    pub bot: Bot,
    pub spec: BotSpec,
    own: Option<crate::engine::TunedEval>,
    /// The stack and player count `own` was picked for: a bot met by another game (a
    /// Python `Bot` carried from game to game) reads its weights again.
    bound_to: Option<(Vec<String>, usize)>,
}

impl SeatBot {
    /// A bot for `game`, its weights read now, so a bad file is an error before play.
    pub fn new(spec: &BotSpec, seed: u64, budget: Budget, game: &Game) -> Result<SeatBot, String> {
        let mut bot = SeatBot::unbound(spec, seed, budget);
        bot.rebind(game)?;
        Ok(bot)
    }

    /// A bot that plays with `tuned`'s weights in `game`'s stack (weights in memory: `catan
    /// tune`'s matches between two sets of them).
    pub fn with_weights(kind: BotKind, seed: u64, budget: Budget, game: &Game, tuned: weights::Tuned) -> SeatBot {
        let eval = (Some(std::sync::Arc::new(weights::Evaluator::new(game, tuned))), None);
        SeatBot { own: Some(eval), ..SeatBot::unbound(&kind.into(), seed, budget) }
    }

    /// A bot whose weights are read at its first decision, for the game it is asked in.
    pub fn unbound(spec: &BotSpec, seed: u64, budget: Budget) -> SeatBot {
        SeatBot { bot: Bot::new(spec.kind, seed, budget), spec: spec.clone(), own: None, bound_to: None }
    }

    /// The action this bot takes for `seat`, without the reasons `decide` gives.
    pub fn choose(&mut self, game: &mut Game, seat: usize) -> Result<Option<Action>, GameError> {
        self.with_own_weights(game, |bot, game| bot.choose(game, seat))
    }

    pub fn decide(&mut self, game: &mut Game, seat: usize) -> Result<Option<Decision>, GameError> {
        self.with_own_weights(game, |bot, game| bot.decide(game, seat))
    }

    /// The bot's action for `seat`, performed: `choose`, then `Game::perform` (a random bot
    /// draws and performs in one call into the rules, `RandomBot::play`: the same game).
    /// `Drawn::Nothing` when the seat has no legal action.
    pub fn play(&mut self, game: &mut Game, seat: usize) -> Result<Drawn, GameError> {
        let drawn = self.with_own_weights(game, |bot, game| match bot {
            Bot::Random(b) => b.play(game, seat).map(Some),
            _ => Ok(None),
        })?;
        match drawn {
            Some(drawn) => Ok(drawn),
            None => {
                let chosen = self.choose(game, seat)?;
                Ok(game.perform_chosen(seat, chosen))
            }
        }
    }

    /// Runs `f` with the bot's own weights in `game` (those its spec names), if any.
    fn with_own_weights<T>(
        &mut self,
        game: &mut Game,
        f: impl FnOnce(&mut Bot, &mut Game) -> Result<T, GameError>,
    ) -> Result<T, GameError> {
        let h = game.header();
        if self.spec.weights.is_some()
            && self.bound_to.as_ref().is_none_or(|(v, p)| *v != h.variants || *p != h.players)
        {
            self.rebind(game).map_err(GameError::Setup)?;
        }
        let Some(own) = self.own.take() else { return f(&mut self.bot, game) };
        let stack = game.swap_tuned(own);
        let decided = f(&mut self.bot, game);
        self.own = Some(game.swap_tuned(stack));
        decided
    }

    /// Reads the spec's weights again for `game` (after a load or a reload of the rules,
    /// whose stack they are picked and keyed for). On an error the bot plays with the
    /// stack's own evaluation.
    pub fn rebind(&mut self, game: &Game) -> Result<(), String> {
        let own = self.spec.evaluation(game);
        self.own = own.as_ref().ok().cloned().flatten();
        self.bound_to = Some((game.header().variants.clone(), game.header().players));
        own.map(|_| ())
    }
}

/// How long a search bot thinks per decision. `playouts` is deterministic (same seed, same
/// game); `think_ms` adds a wall-clock cap for interactive play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub playouts: usize,
    pub think_ms: Option<u64>,
}

impl Default for Budget {
    /// About a second per decision on one core in the base game.
    fn default() -> Self {
        Budget { playouts: mcts::DEFAULT_PLAYOUTS, think_ms: None }
    }
}

/// The `why` of a decision with nothing to choose from among the listed actions.
pub const ONLY_ACTION: &str = "the only legal action";

/// A bot's choice and, for `hint`, why in one line.
#[derive(Debug, Clone)]
pub struct Decision {
    pub action: Action,
    pub why: String,
}

/// A bot of any kind, seeded.
pub enum Bot {
    Random(RandomBot),
    Greedy(GreedyBot),
    Planner(PlannerBot),
    Mcts(MctsBot),
}

impl Bot {
    pub fn new(kind: BotKind, seed: u64, budget: Budget) -> Bot {
        match kind {
            BotKind::Random => Bot::Random(RandomBot::new(seed)),
            BotKind::Greedy => Bot::Greedy(GreedyBot::new(seed)),
            BotKind::Planner => Bot::Planner(PlannerBot::new(seed)),
            BotKind::Mcts => Bot::Mcts(MctsBot::new(seed, budget)),
        }
    }

    pub fn kind(&self) -> BotKind {
        match self {
            Bot::Random(_) => BotKind::Random,
            Bot::Greedy(_) => BotKind::Greedy,
            Bot::Planner(_) => BotKind::Planner,
            Bot::Mcts(_) => BotKind::Mcts,
        }
    }

    /// Whether the bot makes offers of its own on its turns (`catan play`'s `offers`
    /// setting); it answers offers made to it either way. The bots that make none ignore it.
    pub fn set_own_offers(&mut self, on: bool) {
        match self {
            Bot::Planner(b) => b.offers.own_offers = on,
            Bot::Mcts(b) => b.offers.own_offers = on,
            Bot::Random(_) | Bot::Greedy(_) => {}
        }
    }

    /// The action this bot takes for `seat` (None: it has no legal action). The game is
    /// used for search and left exactly as it was.
    pub fn choose(&mut self, game: &mut Game, seat: usize) -> Result<Option<Action>, GameError> {
        match self {
            // Without its reasons: the planner's win chance before the action is asked for
            // them alone.
            Bot::Planner(b) => b.choose(game, seat),
            _ => Ok(self.decide(game, seat)?.map(|d| d.action)),
        }
    }

    pub fn decide(&mut self, game: &mut Game, seat: usize) -> Result<Option<Decision>, GameError> {
        match self {
            Bot::Random(b) => {
                Ok(b.choose(game, seat)?.map(|action| Decision { action, why: "drawn at random".into() }))
            }
            Bot::Greedy(b) => b.decide(game, seat),
            Bot::Planner(b) => b.decide(game, seat),
            Bot::Mcts(b) => b.decide(game, seat),
        }
    }
}

/// Softness of `win_chance`, in victory points: a lead of this much is worth e:1 odds.
pub const TEMPERATURE: f64 = 1.5;

/// Each seat's chance to win guessed from the evaluations (victory points' units): a
/// softmax, so the values sum to 1 like a won game's (1 for the winner, 0 for the rest).
pub fn win_chances(evals: &[f64]) -> Vec<f64> {
    let top = evals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = evals.iter().map(|e| ((e - top) / TEMPERATURE).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|x| x / sum).collect()
}

/// Win chances of every seat in the game as it stands: exact once it is won.
pub fn position_value(game: &Game) -> Result<Vec<f64>, GameError> {
    let players = game.header().players;
    if let Some(w) = game.winner() {
        return Ok((0..players).map(|s| if s == w { 1.0 } else { 0.0 }).collect());
    }
    Ok(win_chances(&game.bot_scores()?))
}
