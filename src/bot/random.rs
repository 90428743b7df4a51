//! The random bot: it sees only what its seat may see, the legal actions of its seat
//! (which depend on its own hand and the public board).

use crate::action::Action;
use crate::engine::{Drawn, Game, GameError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks uniformly among the kinds of legal action, then uniformly among that kind's
/// arguments, so a long list of roads does not drown out ending the turn. Works for any
/// variant; knows nothing of Catan.
pub struct RandomBot {
    rng: ChaCha8Rng,
    /// The numbers of the last draw, kept for its buffer.
    rnd: Vec<f64>,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed), rnd: vec![] }
    }

    /// Same distribution as `pick(game.legal_actions(seat))`, but only the options of
    /// the kind of action drawn are computed (a kind with no legal option is dropped and
    /// another drawn), all in one call into the rules.
    pub fn choose(&mut self, game: &Game, seat: usize) -> Result<Option<Action>, GameError> {
        // A number per kind of action drawn, and one for the option: a phase with a dozen
        // kinds rarely needs more.
        let mut want = 12;
        loop {
            self.draw_numbers(want);
            match game.sample_action(seat, &self.rnd)? {
                Ok(action) => return Ok(action),
                Err(()) => want *= 4,
            }
        }
    }

    /// `choose`, and the action performed, in one call into the rules
    /// (`Game::play_drawn`): the same numbers drawn, the same action, the same game.
    pub fn play(&mut self, game: &mut Game, seat: usize) -> Result<Drawn, GameError> {
        let mut want = 12;
        loop {
            self.draw_numbers(want);
            match game.play_drawn(seat, &self.rnd)? {
                Drawn::More => want *= 4,
                other => return Ok(other),
            }
        }
    }

    /// `want` numbers in [0, 1) for a draw.
    fn draw_numbers(&mut self, want: usize) {
        self.rnd.clear();
        for _ in 0..want {
            self.rnd.push(self.rng.random::<f64>());
        }
    }

    pub fn pick(&mut self, mut actions: Vec<Action>) -> Option<Action> {
        if actions.is_empty() {
            return None;
        }
        let mut names: Vec<&str> = actions.iter().map(|a| a.name.as_str()).collect();
        names.dedup();
        names.sort_unstable();
        names.dedup();
        let name = names[self.rng.random_range(0..names.len())].to_string();
        actions.retain(|a| a.name == name);
        let i = self.rng.random_range(0..actions.len());
        Some(actions.swap_remove(i))
    }
}
