//! Who plays a run: the lineup of `--bots` and how it is seated from game to game.

use super::MAX_ACTIONS;
use crate::bot::external::ExternalSeats;
use crate::bot::{BotKind, BotSpec, Budget};

/// How the lineup's bots are seated from game to game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SeatOrder {
    /// One seat further each game, so every bot sits in every seat equally often.
    #[default]
    Rotate,
    /// A fresh random order each game (seeded by the game's index).
    Shuffle,
    /// As given, every game.
    Fixed,
}

impl SeatOrder {
    pub fn parse(s: &str) -> Result<SeatOrder, String> {
        match s {
            "rotate" => Ok(SeatOrder::Rotate),
            "shuffle" => Ok(SeatOrder::Shuffle),
            "fixed" => Ok(SeatOrder::Fixed),
            other => Err(format!("--seats is rotate, shuffle or fixed, not '{other}'")),
        }
    }
}

/// Who plays in a simulation: one bot kind per seat of the first game, seated in later
/// games by `order` (rotated one seat further each game by default, so that no bot gains
/// from its seat). Empty: random bots everywhere.
#[derive(Debug, Clone)]
pub struct Lineup {
    pub bots: Vec<BotSpec>,
    pub budget: Budget,
    pub order: SeatOrder,
    /// A game without a winner after this many actions is cut off (see [`End::ActionCap`]).
    pub max_actions: usize,
    /// Seats played by external programs (`--bot-cmd`), fixed whatever `order` says;
    /// each worker runs its own.
    pub external: ExternalSeats,
    /// Each row keeps its game's save ([`GameRow::save`]): only when asked, since a run's
    /// logs are far larger than its rows.
    pub saves: bool,
}

impl Default for Lineup {
    fn default() -> Self {
        Lineup {
            bots: vec![],
            budget: Budget::default(),
            order: SeatOrder::default(),
            max_actions: MAX_ACTIONS,
            external: ExternalSeats::default(),
            saves: false,
        }
    }
}

impl Lineup {
    /// The lineup `catan sim` flags ask for: `--bots` ("mcts,random,random,random"; one
    /// kind, "greedy": that kind in every seat; None: random bots everywhere), `--seats`
    /// (rotate, shuffle, fixed), `--max-actions`.
    pub fn from_args(bots: Option<&str>, seats: &str, max_actions: usize, budget: Budget) -> Result<Lineup, String> {
        let kinds: Vec<BotSpec> = match bots {
            Some(list) => {
                list.split(',').map(BotSpec::parse).collect::<Result<_, _>>().map_err(|e| format!("--bots: {e}"))?
            }
            None => vec![],
        };
        let order = SeatOrder::parse(seats)?;
        Ok(Lineup { bots: kinds, budget, order, max_actions, external: Default::default(), saves: false })
    }

    /// Whether the lineup fits a game of `players`: one kind (every seat) or one per seat.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        match self.bots.len() {
            0 | 1 => Ok(()),
            n if n == players => Ok(()),
            n => Err(format!(
                "--bots names {n} bots for {players} players (name one kind for every seat, or one per seat)"
            )),
        }
    }

    /// Who played, for a report's `bots:` line: "random in every seat", or the kinds of
    /// the first game's seats and how they move from game to game.
    pub fn describe(&self, players: usize) -> String {
        let first = self.seats(players, 0);
        let names: Vec<String> = first
            .iter()
            .enumerate()
            .map(|(s, k)| if self.external.is_external(s) { "external".to_string() } else { k.name() })
            .collect();
        if let Some(first) = names.first().filter(|&n| names.iter().all(|m| m == n)) {
            return format!("{first} in every seat");
        }
        let how = if !self.external.is_empty() {
            "the seats fixed"
        } else {
            match self.order {
                SeatOrder::Rotate => "rotated one seat each game",
                SeatOrder::Shuffle => "shuffled each game",
                SeatOrder::Fixed => "the seats fixed",
            }
        };
        format!("{} in seats 1-{players} of the first game, {how}", names.join(", "))
    }

    /// The bot of each seat in game `i`.
    pub fn seats(&self, players: usize, i: usize) -> Vec<BotSpec> {
        if self.bots.is_empty() {
            return vec![BotKind::Random.into(); players];
        }
        match self.order {
            SeatOrder::Rotate => {
                (0..players).map(|s| self.bots[(s + players - i % players) % self.bots.len()].clone()).collect()
            }
            SeatOrder::Fixed => (0..players).map(|s| self.bots[s % self.bots.len()].clone()).collect(),
            SeatOrder::Shuffle => {
                let mut order: Vec<BotSpec> = (0..players).map(|s| self.bots[s % self.bots.len()].clone()).collect();
                // Fisher-Yates with a SplitMix64 stream keyed by the game's index.
                let mut x = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
                for k in (1..order.len()).rev() {
                    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                    let mut z = x;
                    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                    z ^= z >> 31;
                    order.swap(k, (z % (k as u64 + 1)) as usize);
                }
                order
            }
        }
    }
}
