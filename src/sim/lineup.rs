//! Who plays a run: the lineup of `--bots` and how it is seated from game to game.

use super::MAX_ACTIONS;
use crate::bot::external::{split_seats, ExternalBot, ExternalSeats, DEFAULT_TIMEOUT};
use crate::bot::{BotKind, BotSpec, Budget};
use crate::engine::Game;
use std::collections::BTreeMap;
use std::time::Duration;

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

/// One place of a lineup: a bot of ours, or a program (`--bot-cmd NAME=COMMAND`) known by
/// the name `--bots` gives it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Entrant {
    Bot(BotSpec),
    Program(String),
}

impl Entrant {
    /// As `--bots` names it, and as reports and rows do: `planner@none`, `ext`.
    pub fn name(&self) -> String {
        match self {
            Entrant::Bot(b) => b.name(),
            Entrant::Program(name) => name.clone(),
        }
    }

    /// The bot of ours, if it is one.
    pub fn bot(&self) -> Option<&BotSpec> {
        match self {
            Entrant::Bot(b) => Some(b),
            Entrant::Program(_) => None,
        }
    }
}

impl From<BotSpec> for Entrant {
    fn from(b: BotSpec) -> Entrant {
        Entrant::Bot(b)
    }
}

impl From<BotKind> for Entrant {
    fn from(k: BotKind) -> Entrant {
        Entrant::Bot(k.into())
    }
}

impl PartialEq<BotSpec> for Entrant {
    fn eq(&self, other: &BotSpec) -> bool {
        self.bot() == Some(other)
    }
}

/// The name an old `--bot-cmd [SEATS=]COMMAND` program gets in reports and rows (numbered
/// when several commands are given).
pub const EXTERNAL: &str = "external";

/// Who plays in a simulation: one entrant per seat of the first game, seated in later
/// games by `order` (rotated one seat further each game by default, so that no bot gains
/// from its seat). Empty: random bots everywhere.
#[derive(Debug, Clone)]
pub struct Lineup {
    pub bots: Vec<Entrant>,
    pub budget: Budget,
    pub order: SeatOrder,
    /// A game without a winner after this many actions is cut off (see [`End::ActionCap`]).
    pub max_actions: usize,
    /// The command of each program the lineup names (`--bot-cmd NAME=COMMAND`). Each game
    /// starts its own process for each seat a program plays, and stops it at its end: a
    /// program keeps nothing from game to game, so the run does not depend on `--jobs`.
    pub programs: BTreeMap<String, String>,
    /// How long a program may take over one decision (`--bot-timeout`).
    pub bot_timeout: Duration,
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
            programs: BTreeMap::new(),
            bot_timeout: DEFAULT_TIMEOUT,
            saves: false,
        }
    }
}

/// How `--bot-cmd` with `--bots` is written, for the messages that refuse other forms.
const NAMED_FORM: &str = "--bots mcts,ext,greedy,ext --bot-cmd \"ext=python3 bot.py\"";

/// A name of `--bots`: a program of `programs`, else a bot of ours.
fn entrant(name: &str, programs: &BTreeMap<String, String>) -> Result<Entrant, String> {
    let name = name.trim();
    if programs.contains_key(name) {
        return Ok(Entrant::Program(name.to_string()));
    }
    BotSpec::parse(name).map(Entrant::Bot).map_err(|e| {
        let kind = name.split('@').next().unwrap_or(name);
        match BotKind::parse(kind) {
            Ok(_) => format!("--bots: {e}"),
            Err(_) => format!("--bots: {e}, nor a program named by --bot-cmd NAME=COMMAND (e.g. {NAMED_FORM})"),
        }
    })
}

impl Lineup {
    /// The lineup `catan sim` flags ask for: `--bots` ("mcts,random,random,random"; one
    /// kind, "greedy": that kind in every seat; None: random bots everywhere), `--seats`
    /// (rotate, shuffle, fixed), `--max-actions`.
    pub fn from_args(bots: Option<&str>, seats: &str, max_actions: usize, budget: Budget) -> Result<Lineup, String> {
        let kinds: Vec<Entrant> = match bots {
            Some(list) => list.split(',').map(|b| entrant(b, &BTreeMap::new())).collect::<Result<_, _>>()?,
            None => vec![],
        };
        let order = SeatOrder::parse(seats)?;
        Ok(Lineup { bots: kinds, budget, order, max_actions, ..Lineup::default() })
    }

    /// [`from_args`](Lineup::from_args) with programs (`--bot-cmd`, parsed in `game`, a
    /// game of the run's set-up, for the seats it names). With `--bots`, each program is
    /// named in the lineup (`--bots mcts,ext,greedy,ext --bot-cmd "ext=python3 bot.py"`)
    /// and seated like any bot. Without, the old form: `--bot-cmd [SEATS=]COMMAND` plays
    /// those seats (every seat without SEATS), fixed, and random bots the others.
    pub fn from_flags(
        bots: Option<&str>,
        bot_cmds: &[String],
        seats: &str,
        max_actions: usize,
        budget: Budget,
        game: &Game,
    ) -> Result<Lineup, String> {
        let players = game.header().players;
        let Some(list) = bots else {
            let mut lineup = Lineup::from_args(None, seats, max_actions, budget)?;
            if bot_cmds.is_empty() {
                return Ok(lineup);
            }
            let ext = ExternalSeats::parse(bot_cmds, game, &(0..players).collect::<Vec<_>>())
                .map_err(|e| format!("{e} (to seat a program in a lineup by a name: {NAMED_FORM})"))?;
            // One name per distinct command, in the order of the seats.
            let mut commands: Vec<&String> = vec![];
            for c in ext.commands.iter().flatten() {
                if !commands.contains(&c) {
                    commands.push(c);
                }
            }
            let name = |c: &String| match commands.iter().position(|x| *x == c) {
                Some(i) if commands.len() > 1 => format!("{EXTERNAL}{}", i + 1),
                _ => EXTERNAL.to_string(),
            };
            lineup.bots = ext
                .commands
                .iter()
                .map(|c| match c {
                    Some(c) => Entrant::Program(name(c)),
                    None => BotKind::Random.into(),
                })
                .collect();
            lineup.programs = commands.iter().map(|c| (name(c), c.to_string())).collect();
            lineup.order = SeatOrder::Fixed;
            return Ok(lineup);
        };
        // With --bots every --bot-cmd names a program of the lineup.
        let mut programs = BTreeMap::new();
        let named: Vec<&str> = list.split(',').map(str::trim).collect();
        for flag in bot_cmds {
            let (name, command) = split_seats(flag);
            let command = command.trim();
            let Some(name) = name else {
                return Err(format!(
                    "--bot-cmd '{flag}' with --bots: name the program and seat it by that name in the lineup, \
                     e.g. {NAMED_FORM}"
                ));
            };
            if BotKind::parse(name).is_ok() {
                return Err(format!("--bot-cmd '{flag}': '{name}' is a bot of ours; name the program otherwise"));
            }
            if !named.contains(&name) {
                let seats = name.split(',').all(|p| p == "all" || crate::protocol::seat_by_name(game, p).is_some());
                return Err(if seats {
                    format!(
                        "--bot-cmd '{flag}' seats a program in fixed seats, but the --bots lineup is seated anew each \
                         game: name the program in --bots instead, e.g. {NAMED_FORM}"
                    )
                } else {
                    format!("--bot-cmd '{flag}': '{name}' is not named in --bots '{list}'")
                });
            }
            if command.is_empty() {
                return Err(format!("--bot-cmd '{flag}': no command to run"));
            }
            programs.insert(name.to_string(), command.to_string());
        }
        let bots = named.iter().map(|b| entrant(b, &programs)).collect::<Result<_, _>>()?;
        let order = SeatOrder::parse(seats)?;
        Ok(Lineup { bots, budget, order, max_actions, programs, ..Lineup::default() })
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

    /// Who played, for a report's `bots:` line: "random in every seat", or the entrants of
    /// the first game's seats and how they move from game to game.
    pub fn describe(&self, players: usize) -> String {
        let names: Vec<String> = self.seats(players, 0).iter().map(Entrant::name).collect();
        if let Some(first) = names.first().filter(|&n| names.iter().all(|m| m == n)) {
            return format!("{first} in every seat");
        }
        let how = match self.order {
            SeatOrder::Rotate => "rotated one seat each game",
            SeatOrder::Shuffle => "shuffled each game",
            SeatOrder::Fixed => "the seats fixed",
        };
        format!("{} in seats 1-{players} of the first game, {how}", names.join(", "))
    }

    /// A program for each seat of `seats` a program plays (not started yet: the game
    /// starts each at its seat's first decision).
    pub fn programs_of(&self, seats: &[Entrant]) -> Vec<Option<ExternalBot>> {
        seats
            .iter()
            .map(|e| match e {
                Entrant::Program(name) => self.programs.get(name).map(|c| ExternalBot::new(c, self.bot_timeout)),
                Entrant::Bot(_) => None,
            })
            .collect()
    }

    /// The bot of each seat in game `i`.
    pub fn seats(&self, players: usize, i: usize) -> Vec<Entrant> {
        if self.bots.is_empty() {
            return vec![BotKind::Random.into(); players];
        }
        match self.order {
            SeatOrder::Rotate => {
                (0..players).map(|s| self.bots[(s + players - i % players) % self.bots.len()].clone()).collect()
            }
            SeatOrder::Fixed => (0..players).map(|s| self.bots[s % self.bots.len()].clone()).collect(),
            SeatOrder::Shuffle => {
                let mut order: Vec<Entrant> = (0..players).map(|s| self.bots[s % self.bots.len()].clone()).collect();
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
