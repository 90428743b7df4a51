//! `catan sim`: many complete bot games, for testing house rules and measuring bots.

use crate::bot::external::{ExternalBot, ExternalSeats};
use crate::bot::{Bot, BotKind, BotSpec, Budget};
use crate::engine::{Game, GameError, Header, SaveFile};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// A game that runs longer than this many actions is stopped and counted unfinished.
pub const MAX_ACTIONS: usize = 50_000;

#[derive(Debug, Clone, Serialize)]
pub struct GameResult {
    pub seed: u64,
    pub winner: Option<usize>,
    pub turns: u32,
    pub actions: usize,
    /// Victory points of each seat at the end (hidden ones included).
    pub points: Vec<i64>,
}

/// Plays one game with a random bot in every seat. `each` sees the game after every
/// action (tests use it to check invariants).
pub fn play_one(header: Header, each: impl FnMut(&Game) -> Result<(), String>) -> Result<GameResult, GameError> {
    let mut game = Game::new(header)?;
    play_game(&mut game, each)
}

/// Plays a freshly set-up game to its end with random bots.
pub fn play_game(game: &mut Game, each: impl FnMut(&Game) -> Result<(), String>) -> Result<GameResult, GameError> {
    let players = game.header().players;
    play_with(game, &vec![BotKind::Random; players], Budget::default(), each)
}

/// Plays a freshly set-up game to its end, seat `s` played by a bot of kind `seats[s]`.
pub fn play_with(
    game: &mut Game,
    seats: &[BotKind],
    budget: Budget,
    each: impl FnMut(&Game) -> Result<(), String>,
) -> Result<GameResult, GameError> {
    play_capped(game, seats, budget, MAX_ACTIONS, each)
}

/// Like [`play_with`], stopping after `max_actions` actions: a result without a winner
/// is a game cut off by that cap.
pub fn play_capped(
    game: &mut Game,
    seats: &[BotKind],
    budget: Budget,
    max_actions: usize,
    each: impl FnMut(&Game) -> Result<(), String>,
) -> Result<GameResult, GameError> {
    let seats: Vec<BotSpec> = seats.iter().map(|&k| k.into()).collect();
    play_capped_external(game, &seats, budget, max_actions, &mut [], each)
}

/// Like [`play_capped`], the seats with a bot in `external` played by those programs
/// (`--bot-cmd`): a program that fails, or answers an action the rules refuse, ends the
/// game with an error saying so. Each is sent the same seed as a bot of ours in its seat.
pub fn play_capped_external(
    game: &mut Game,
    seats: &[BotSpec],
    budget: Budget,
    max_actions: usize,
    external: &mut [Option<ExternalBot>],
    mut each: impl FnMut(&Game) -> Result<(), String>,
) -> Result<GameResult, GameError> {
    let seed = game.header().seed;
    let bot_seed = |s: usize| seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64 + 1);
    let mut bots: Vec<Bot> = seats.iter().enumerate().map(|(s, b)| Bot::new(b.kind, bot_seed(s), budget)).collect();
    // Seats that play with weights of their own swap them in for their decisions.
    let mut evals =
        seats.iter().map(|b| b.evaluation(game)).collect::<Result<Vec<_>, String>>().map_err(GameError::Setup)?;
    each(game).map_err(GameError::Setup)?;
    let mut actions = 0;
    while game.winner().is_none() && actions < max_actions {
        let seat = game.to_act()?;
        if let Some(Some(ext)) = external.get_mut(seat) {
            let action = ext.choose(game, seat, bot_seed(seat)).map_err(GameError::Setup)?;
            game.perform(seat, &action).map_err(|e| {
                GameError::Setup(format!(
                    "the external bot `{}` chose '{}', which was refused: {e}",
                    ext.command(),
                    game.action_text(&action)
                ))
            })?;
            actions += 1;
            each(game).map_err(GameError::Setup)?;
            continue;
        }
        let bot = bots.get_mut(seat).ok_or_else(|| GameError::Setup(format!("no bot for seat {}", seat + 1)))?;
        let own = evals.get_mut(seat).and_then(Option::take);
        let chosen = match own {
            Some(eval) => {
                let stack = game.swap_tuned(eval);
                let chosen = bot.choose(game, seat);
                evals[seat] = Some(game.swap_tuned(stack));
                chosen
            }
            None => bot.choose(game, seat),
        };
        let Some(action) = chosen? else {
            return Err(GameError::Setup(format!(
                "seat {} has no legal action in phase {}",
                seat + 1,
                game.state().phase
            )));
        };
        game.perform(seat, &action).map_err(|e| {
            GameError::Setup(format!("a listed legal action was refused: '{}': {e}", game.action_text(&action)))
        })?;
        actions += 1;
        each(game).map_err(GameError::Setup)?;
    }
    let points = (0..seats.len()).map(|s| game.points(s, true)).collect::<Result<Vec<_>, _>>()?;
    let st = game.state();
    Ok(GameResult { seed, winner: st.winner, turns: st.turn, actions, points })
}

/// A game a script error stopped: its seed, how far it got, and the error (with the
/// hook and file:line), so a modder can replay it.
#[derive(Debug, Clone, Serialize)]
pub struct FailedGame {
    pub seed: u64,
    pub actions: usize,
    pub error: String,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A seat won.
    Won,
    /// Cut off by the action cap (`Lineup::max_actions`) without a winner.
    ActionCap,
    /// Stopped by a script error (see `SimReport::failed`).
    Error,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Won => "won",
            End::ActionCap => "action_cap",
            End::Error => "error",
        }
    }
}

/// One game of a run, as `--out` writes it (and as a sweep's shards send it back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's index in the run (its seed is the run's seed plus this).
    pub game: usize,
    pub seed: u64,
    /// The winning seat, 1-based.
    pub winner: Option<usize>,
    /// Victory points per seat at the end (empty when an error stopped the game).
    pub points: Vec<i64>,
    pub turns: u32,
    pub actions: usize,
    /// The bot kind of each seat.
    pub bots: Vec<String>,
    pub end: End,
    /// Why the game ended without a winner ("" when it has one).
    pub reason: String,
    /// What was measured at the end of the game: `actions.NAME`, how many times each kind
    /// of action was taken (from the game's log), and the variant's `metrics` filter.
    /// Empty when an error stopped the game; absent from rows written before metrics.
    #[serde(default)]
    pub metrics: BTreeMap<String, f64>,
    /// What it takes to replay the game (its header and action log, as a save file
    /// holds them), when the run keeps it ([`Lineup::saves`]: `--out` JSON Lines), so
    /// `catan play --load rows.jsonl --game N` can step through it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<SaveFile>,
}

/// The prefix of the metrics the engine counts from every game's log.
pub const ACTION_METRIC: &str = "actions.";

/// A row's value of metric `name`: a kind of action a game that ran never took counts 0
/// there; a declared metric a game did not set is missing (not averaged as 0).
pub fn row_metric(row: &GameRow, name: &str) -> Option<f64> {
    match row.metrics.get(name) {
        Some(&v) => Some(v),
        None if row.end != End::Error && name.starts_with(ACTION_METRIC) => Some(0.0),
        None => None,
    }
}

/// Every metric any of `rows` carries, sorted.
pub fn metric_names<'a>(rows: impl IntoIterator<Item = &'a GameRow>) -> BTreeSet<String> {
    rows.into_iter().flat_map(|r| r.metrics.keys().cloned()).collect()
}

/// Metric names in the order a report shows them: the variant's own first, then the
/// counts of actions.
fn shown_order(names: &BTreeSet<String>) -> Vec<&String> {
    let (counts, declared): (Vec<&String>, Vec<&String>) = names.iter().partition(|n| n.starts_with(ACTION_METRIC));
    declared.into_iter().chain(counts).collect()
}

/// How many times each kind of action was taken in `game`, from its log: `actions.NAME`,
/// NAME the action's declared name (`play_knight` for "play knight").
fn action_counts(game: &Game) -> BTreeMap<String, f64> {
    // The log keeps commands as typed: an action is the one whose syntax's leading words
    // begin the command, the most of them winning ("play knight" over a bare "play").
    let spec = game.spec();
    let lead: Vec<(Vec<&str>, &str)> = spec
        .actions
        .iter()
        .map(|a| {
            let words = a
                .syntax
                .iter()
                .map_while(|p| match p {
                    crate::spec::SyntaxPart::Literal(l) => Some(l.as_str()),
                    crate::spec::SyntaxPart::Arg(_) => None,
                })
                .collect();
            (words, a.name.as_str())
        })
        .collect();
    let mut by_name: BTreeMap<&str, f64> = BTreeMap::new();
    for e in game.log() {
        let words: Vec<&str> = e.command.split_whitespace().collect();
        let fits = |lit: &[&str]| {
            !lit.is_empty()
                && lit.len() <= words.len()
                && lit.iter().zip(&words).all(|(l, w)| l.eq_ignore_ascii_case(w))
        };
        let best = lead.iter().filter(|(lit, _)| fits(lit)).max_by_key(|(lit, _)| lit.len());
        if let Some(name) = best.map(|(_, n)| *n).or(words.first().copied()) {
            *by_name.entry(name).or_default() += 1.0;
        }
    }
    by_name.into_iter().map(|(k, n)| (format!("{ACTION_METRIC}{k}"), n)).collect()
}

#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    pub variants: Vec<String>,
    pub players: usize,
    pub games: usize,
    /// Who played: "random in every seat", or the first game's lineup and its seating.
    pub lineup: String,
    /// Workers that played the games (the figures above and below do not depend on it).
    pub jobs: usize,
    pub finished: usize,
    /// Games stopped by an error, counted apart from the others (not in the means).
    pub failed: Vec<FailedGame>,
    /// Games the action cap cut off, each with its reason.
    pub cut_off: Vec<GameRow>,
    pub wins: Vec<usize>,
    /// Each seat's wins per game (failed games left out) with its 95% Wilson interval.
    pub seat_rates: Vec<Rate>,
    /// Whether seat win rates differ more than chance allows (a chi-squared test of the
    /// wins per seat against equal shares, among the games with a winner).
    pub seat_balance: SeatBalance,
    pub mean_turns: f64,
    /// The 95% interval of the mean number of turns.
    pub turns_ci95: [f64; 2],
    pub mean_actions: f64,
    pub seconds: f64,
    pub games_per_second: f64,
    /// Wins per kind of bot, keyed by its name (seats rotated across games).
    pub bots: BTreeMap<String, BotWins>,
    /// Each metric's mean per game with its 95% interval, over the games that carry it
    /// (failed games left out; see [`GameRow::metrics`]).
    pub metrics: BTreeMap<String, Mean>,
    /// Every game, in order (for `--out`; not in the JSON report).
    #[serde(skip)]
    pub rows: Vec<GameRow>,
}

/// A mean per game and its 95% interval, over `games` games.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Mean {
    pub mean: f64,
    pub ci95: [f64; 2],
    pub games: usize,
}

impl Mean {
    fn of(xs: &[f64]) -> Mean {
        let (mean, ci95) = mean_ci95(xs);
        Mean { mean, ci95, games: xs.len() }
    }
}

/// A proportion and its 95% confidence interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rate {
    pub rate: f64,
    pub ci95: [f64; 2],
}

/// The chi-squared test of wins per seat against equal shares.
#[derive(Debug, Clone, Serialize)]
pub struct SeatBalance {
    pub chi2: f64,
    pub p_value: f64,
    /// p < 0.05: the seats do not win equally often.
    pub imbalanced: bool,
}

/// How one kind of bot fared: it sat in `seats` seats of each game.
#[derive(Debug, Clone, Serialize)]
pub struct BotWins {
    pub seats: usize,
    pub wins: usize,
    /// Wins per game, and its 95% confidence interval (Wilson score).
    pub rate: f64,
    pub ci95: [f64; 2],
    /// The rate a bot no better than the others would reach from its seats alone.
    pub fair_share: f64,
}

/// The 95% Wilson score interval of `wins` successes in `n` trials.
pub fn wilson95(wins: usize, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (z, n_f) = (1.96f64, n as f64);
    let p = wins as f64 / n_f;
    let centre = p + z * z / (2.0 * n_f);
    let half = z * (p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt();
    let d = 1.0 + z * z / n_f;
    [((centre - half) / d).max(0.0), ((centre + half) / d).min(1.0)]
}

/// The mean of `xs` and its 95% interval (normal approximation, mean ± 1.96 standard
/// errors); `[mean, mean]` for fewer than two values.
pub fn mean_ci95(xs: &[f64]) -> (f64, [f64; 2]) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, [0.0, 0.0]);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, [mean, mean]);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, [mean - half, mean + half])
}

/// The chance of a chi-squared value of at least `x` with `k` degrees of freedom: the
/// regularized upper incomplete gamma function Q(k/2, x/2) (series below a+1, continued
/// fraction above, as in Numerical Recipes).
pub fn chi2_p_value(x: f64, k: usize) -> f64 {
    if k == 0 || x <= 0.0 {
        return 1.0;
    }
    let a = k as f64 / 2.0;
    let x = x / 2.0;
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..500 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-14 {
                break;
            }
        }
        (1.0 - sum * ln_front.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..500 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-14 {
                break;
            }
        }
        (ln_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let t = x + 7.5;
    let s = C[1..].iter().enumerate().fold(C[0], |acc, (i, c)| acc + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + s.ln()
}

/// Wins per seat against equal shares.
pub fn seat_balance(wins: &[usize]) -> SeatBalance {
    let total: usize = wins.iter().sum();
    if total == 0 || wins.len() < 2 {
        return SeatBalance { chi2: 0.0, p_value: 1.0, imbalanced: false };
    }
    let expected = total as f64 / wins.len() as f64;
    let chi2 = wins.iter().map(|&w| (w as f64 - expected).powi(2) / expected).sum::<f64>();
    let p_value = chi2_p_value(chi2, wins.len() - 1);
    SeatBalance { chi2, p_value, imbalanced: p_value < 0.05 }
}

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

/// Plays `games` games on one core; see [`run_jobs`].
pub fn run(
    variants: &[String],
    players: usize,
    options: &[(String, String)],
    games: usize,
    seed: u64,
    lineup: &Lineup,
    progress: impl FnMut(usize),
) -> Result<SimReport, GameError> {
    run_jobs(variants, players, options, games, seed, lineup, 1, progress)
}

/// The number of workers `catan sim` uses by default: every core this process may use.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Plays `games` games on `jobs` workers, each with its own loaded scripts (one Lua state
/// per worker). Game `i` is seeded with `seed + i` whichever worker plays it, and the
/// report is added up in game order, so it is the same for every number of workers. A
/// game that fails is counted apart with its error; a game that cannot even be set up
/// with the run's own seed (a bad option, a broken variant) fails the run.
/// `progress` is told how many games are done, from the calling thread.
// The game's set-up (variants, players, options), the run (games, seed, bots, workers)
// and a progress callback: each is one plain argument at every call site.
#[allow(clippy::too_many_arguments)]
pub fn run_jobs(
    variants: &[String],
    players: usize,
    options: &[(String, String)],
    games: usize,
    seed: u64,
    lineup: &Lineup,
    jobs: usize,
    mut progress: impl FnMut(usize),
) -> Result<SimReport, GameError> {
    lineup.check_players(players).map_err(GameError::Setup)?;
    if !lineup.external.is_empty() && lineup.external.commands.len() != players {
        return Err(GameError::Setup(format!(
            "--bot-cmd names seats of a {}-player game",
            lineup.external.commands.len()
        )));
    }
    let start = Instant::now();
    let header = Header { variants: variants.to_vec(), players, seed, options: options.to_vec(), sandbox: false };
    let jobs = jobs.clamp(1, games.max(1));
    let mut rows: Vec<Option<GameRow>> = (0..games).map(|_| None).collect();
    // Workers take the next game index from a shared counter and send back its row.
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut setup_error = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (tx, header, next) = (tx.clone(), &header, &next);
            scope.spawn(move || {
                // Every worker sets up with the run's seed first: if that fails, it fails
                // alike for all of them.
                let mut game = match Game::new(header.clone()) {
                    Ok(g) => g,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                let mut external = lineup.external.bots();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games || tx.send(Ok(play_row(&mut game, header.seed, i, lineup, &mut external))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for msg in rx {
            match msg {
                Ok(row) => {
                    let i = row.game;
                    rows[i] = Some(row);
                    done += 1;
                    progress(done);
                }
                Err(e) => setup_error = Some(e),
            }
        }
    });
    if let Some(e) = setup_error {
        return Err(e);
    }
    let rows: Vec<GameRow> = rows.into_iter().flatten().collect();
    Ok(report_from_rows(variants, players, lineup, rows, jobs, start.elapsed().as_secs_f64()))
}

/// Plays games `range` of a run (game `i` seeded with `header.seed + i`, its bots seated
/// as in game `i` of `lineup`) one after the other on one loaded game, and returns their
/// rows in order: a shard of [`run_jobs`] that gives the same rows as the whole run, for
/// spreading a run over processes or machines (`python -m catan_engine.sweep`). Fails
/// only if the game cannot be set up with the run's seed.
pub fn play_range(header: &Header, range: Range<usize>, lineup: &Lineup) -> Result<Vec<GameRow>, GameError> {
    lineup.check_players(header.players).map_err(GameError::Setup)?;
    let mut game = Game::new(header.clone())?;
    let mut external = lineup.external.bots();
    Ok(range.map(|i| play_row(&mut game, header.seed, i, lineup, &mut external)).collect())
}

/// Adds up the rows of a run, in game order, into its report: the one way `catan sim`
/// and a sharded sweep both count. `games` is the number of rows; `jobs` and `seconds`
/// say how they were played.
pub fn report_from_rows(
    variants: &[String],
    players: usize,
    lineup: &Lineup,
    mut rows: Vec<GameRow>,
    jobs: usize,
    seconds: f64,
) -> SimReport {
    rows.sort_by_key(|r| r.game);
    let games = rows.len();
    let mut wins = vec![0; players];
    let (mut turns, mut acts, mut finished) = (vec![], 0u64, 0usize);
    let (mut failed, mut cut_off) = (vec![], vec![]);
    let mut by_kind: BTreeMap<BotSpec, usize> = BTreeMap::new();
    for row in &rows {
        match row.end {
            End::Error => {
                failed.push(FailedGame { seed: row.seed, actions: row.actions, error: row.reason.clone() });
                continue;
            }
            End::ActionCap => cut_off.push(row.clone()),
            End::Won => {}
        }
        if let Some(w) = row.winner.and_then(|w| w.checked_sub(1)).filter(|&w| w < players) {
            wins[w] += 1;
            if !lineup.external.is_external(w) {
                *by_kind.entry(lineup.seats(players, row.game)[w].clone()).or_default() += 1;
            }
            finished += 1;
        }
        turns.push(row.turns as f64);
        acts += row.actions as u64;
    }
    let n = games - failed.len();
    let played = n.max(1) as f64;
    let mut bots = BTreeMap::new();
    // External seats are fixed: their wins are those of their seats.
    let ext: Vec<usize> = (0..players).filter(|&s| lineup.external.is_external(s)).collect();
    if !ext.is_empty() {
        let w = ext.iter().map(|&s| wins[s]).sum();
        let fair_share = ext.len() as f64 / players as f64;
        let (seats, rate, ci95) = (ext.len(), w as f64 / played, wilson95(w, n));
        bots.insert("external".to_string(), BotWins { seats, wins: w, rate, ci95, fair_share });
    }
    let first: Vec<BotSpec> = lineup
        .seats(players, 0)
        .into_iter()
        .enumerate()
        .filter(|(s, _)| !lineup.external.is_external(*s))
        .map(|(_, k)| k)
        .collect();
    for kind in &first {
        let seats = first.iter().filter(|&k| k == kind).count();
        let w = by_kind.get(kind).copied().unwrap_or(0);
        let rate = w as f64 / played;
        let fair_share = seats as f64 / players as f64;
        bots.insert(kind.name(), BotWins { seats, wins: w, rate, ci95: wilson95(w, n), fair_share });
    }
    let seat_rates = wins.iter().map(|&w| Rate { rate: w as f64 / played, ci95: wilson95(w, n) }).collect();
    let ran: Vec<&GameRow> = rows.iter().filter(|r| r.end != End::Error).collect();
    let metrics = metric_names(ran.iter().copied())
        .into_iter()
        .map(|name| {
            let xs: Vec<f64> = ran.iter().filter_map(|r| row_metric(r, &name)).collect();
            (name, Mean::of(&xs))
        })
        .collect();
    let (mean_turns, turns_ci95) = mean_ci95(&turns);
    SimReport {
        variants: variants.to_vec(),
        players,
        games,
        lineup: lineup.describe(players),
        jobs,
        finished,
        failed,
        cut_off,
        seat_balance: seat_balance(&wins),
        wins,
        seat_rates,
        mean_turns,
        turns_ci95,
        mean_actions: acts as f64 / played,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        bots,
        metrics,
        rows,
    }
}

/// Two runs on the same seeds, A and B, and how B differs from A: games are paired by
/// seed, so each difference's interval is that of the mean of per-game differences.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: SimReport,
    pub b: SimReport,
    /// Games where neither side failed (the pairs the differences are over).
    pub paired: usize,
    /// B's win rate minus A's, per seat, with 95% intervals.
    pub seat_diff: Vec<Diff>,
    /// B's mean turns minus A's.
    pub turns_diff: Diff,
    /// Per metric, B's mean minus A's over the pairs where both games carry it (a
    /// metric only one side declares has no pair, and no entry).
    pub metrics_diff: BTreeMap<String, Diff>,
}

/// A difference of B from A with its 95% interval; `significant` when the interval
/// leaves out 0.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Diff {
    pub diff: f64,
    pub ci95: [f64; 2],
    pub significant: bool,
}

impl Diff {
    fn of(xs: &[f64]) -> Diff {
        let (diff, ci95) = mean_ci95(xs);
        Diff { diff, ci95, significant: xs.len() >= 2 && (ci95[0] > 0.0 || ci95[1] < 0.0) }
    }
}

/// Compares two finished runs of the same number of games and seats on the same seeds.
pub fn compare(a: SimReport, b: SimReport) -> Result<Comparison, String> {
    if a.rows.len() != b.rows.len() || a.players != b.players {
        return Err(format!(
            "the two sides differ in games ({} and {}) or players ({} and {})",
            a.rows.len(),
            b.rows.len(),
            a.players,
            b.players
        ));
    }
    let pairs: Vec<(&GameRow, &GameRow)> =
        a.rows.iter().zip(&b.rows).filter(|(x, y)| x.end != End::Error && y.end != End::Error).collect();
    let seat_diff = (1..=a.players)
        .map(|s| {
            let d: Vec<f64> = pairs
                .iter()
                .map(|(x, y)| f64::from(u8::from(y.winner == Some(s))) - f64::from(u8::from(x.winner == Some(s))))
                .collect();
            Diff::of(&d)
        })
        .collect();
    let turns: Vec<f64> = pairs.iter().map(|(x, y)| y.turns as f64 - x.turns as f64).collect();
    let names = metric_names(pairs.iter().flat_map(|(x, y)| [*x, *y]));
    let metrics_diff = names
        .into_iter()
        .filter_map(|name| {
            let d: Vec<f64> =
                pairs.iter().filter_map(|(x, y)| Some(row_metric(y, &name)? - row_metric(x, &name)?)).collect();
            (!d.is_empty()).then(|| (name, Diff::of(&d)))
        })
        .collect();
    Ok(Comparison { paired: pairs.len(), seat_diff, turns_diff: Diff::of(&turns), metrics_diff, a, b })
}

/// The per-game rows as CSV: a header line, then one line a game, a column per metric
/// any row carries (sorted) at the end. `side` names the run in a comparison ("A", "B"),
/// empty otherwise.
pub fn rows_csv(rows: &[(&str, &GameRow)], players: usize) -> String {
    rows_csv_labelled("side", rows, players)
}

/// [`rows_csv`] with the first column named `label`: `side` in a comparison, `sweep`
/// (the option's value) in a sweep.
pub fn rows_csv_labelled(label: &str, rows: &[(&str, &GameRow)], players: usize) -> String {
    let names = metric_names(rows.iter().map(|(_, r)| *r));
    let mut out = format!("{label},game,seed,winner,");
    for s in 1..=players {
        out.push_str(&format!("points_{s},"));
    }
    for s in 1..=players {
        out.push_str(&format!("bot_{s},"));
    }
    out.push_str("turns,actions,end,reason");
    for name in &names {
        out.push_str(&format!(",{}", csv_field(name)));
    }
    out.push('\n');
    for (side, r) in rows {
        let (side, winner) = (csv_field(side), r.winner.map_or(String::new(), |w| w.to_string()));
        out.push_str(&format!("{side},{},{},{winner},", r.game, r.seed));
        for s in 0..players {
            out.push_str(&format!("{},", r.points.get(s).map_or(String::new(), |p| p.to_string())));
        }
        for s in 0..players {
            out.push_str(&format!("{},", r.bots.get(s).map_or("", |b| b.as_str())));
        }
        let reason = r.reason.replace('"', "\"\"");
        out.push_str(&format!("{},{},{},\"{reason}\"", r.turns, r.actions, r.end.name()));
        for name in &names {
            out.push_str(&format!(",{}", row_metric(r, name).map_or(String::new(), |v| v.to_string())));
        }
        out.push('\n');
    }
    out
}

/// A name as a CSV field: quoted if it holds a comma or a quote (a metric a variant
/// named so, a sweep's value).
fn csv_field(name: &str) -> String {
    if name.contains([',', '"', '\n']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// The per-game rows as JSON Lines: one object a game, with `side` in a comparison.
pub fn rows_jsonl(rows: &[(&str, &GameRow)]) -> String {
    rows_jsonl_labelled("side", rows)
}

/// [`rows_jsonl`] with the label under the key `label`; a sweep's value that is a whole
/// number is written as one.
pub fn rows_jsonl_labelled(label: &str, rows: &[(&str, &GameRow)]) -> String {
    let mut out = String::new();
    for (side, r) in rows {
        let mut v = serde_json::to_value(r).unwrap_or_default();
        if let (false, Some(obj)) = (side.is_empty(), v.as_object_mut()) {
            let value = side.parse::<i64>().map_or_else(|_| serde_json::Value::from(*side), serde_json::Value::from);
            obj.insert(label.into(), value);
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

/// Plays game `index` of a run (seed: the run's seed plus the index, bots: the lineup
/// rotated `index` seats, the seats with a bot in `external` played by those programs)
/// on a worker's game, quiet (`Game::set_quiet`), and returns its row.
pub fn play_row(
    game: &mut Game,
    seed: u64,
    index: usize,
    lineup: &Lineup,
    external: &mut [Option<ExternalBot>],
) -> GameRow {
    let seed = seed.wrapping_add(index as u64);
    let players = game.header().players;
    let seats = lineup.seats(players, index);
    let bots: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(s, k)| if lineup.external.is_external(s) { "external".to_string() } else { k.name() })
        .collect();
    let cap = lineup.max_actions;
    // A row reads no message: the game measures them and keeps none (the same game).
    game.set_quiet(true);
    let played =
        game.restart(seed).and_then(|()| play_capped_external(game, &seats, lineup.budget, cap, external, |_| Ok(())));
    // A game an error stopped is replayed up to the error (its log holds the actions
    // that succeeded).
    let save = lineup.saves.then(|| game.save_file());
    let row = play_result(game, index, seed, bots, played);
    GameRow { save, ..row }
}

/// The row of a game played to its end (or stopped by `played`'s error).
fn play_result(
    game: &Game,
    index: usize,
    seed: u64,
    bots: Vec<String>,
    played: Result<GameResult, GameError>,
) -> GameRow {
    match played {
        Err(e) => GameRow {
            game: index,
            seed,
            winner: None,
            points: vec![],
            turns: 0,
            actions: game.log().len(),
            bots,
            end: End::Error,
            reason: e.to_string(),
            metrics: BTreeMap::new(),
            save: None,
        },
        Ok(r) => {
            let (end, reason) = match r.winner {
                Some(_) => (End::Won, String::new()),
                None => (
                    End::ActionCap,
                    format!("no winner after {} actions (the action cap), turn {}", r.actions, r.turns),
                ),
            };
            // The variant's metrics, then the engine's counts (names the filter may not use).
            let metrics = match game.metrics() {
                Ok(mut m) => {
                    m.extend(action_counts(game));
                    m
                }
                Err(e) => {
                    return GameRow {
                        game: index,
                        seed: r.seed,
                        winner: None,
                        points: vec![],
                        turns: r.turns,
                        actions: r.actions,
                        bots,
                        end: End::Error,
                        reason: format!("the game's metrics at its end: {e}"),
                        metrics: BTreeMap::new(),
                        save: None,
                    };
                }
            };
            GameRow {
                game: index,
                seed: r.seed,
                winner: r.winner.map(|w| w + 1),
                points: r.points,
                turns: r.turns,
                actions: r.actions,
                bots,
                end,
                reason,
                metrics,
                save: None,
            }
        }
    }
}

/// Whether `--out FILE` writes JSON Lines (FILE ends in `.jsonl` or `.json`): those rows
/// carry each game's save.
pub fn rows_are_jsonl(path: &str) -> bool {
    path.ends_with(".jsonl") || path.ends_with(".json")
}

/// The rows for `--out FILE`: JSON Lines if FILE ends in `.jsonl` or `.json`, else CSV.
pub fn rows_text(path: &str, rows: &[(&str, &GameRow)], players: usize) -> String {
    rows_text_labelled("side", path, rows, players)
}

/// [`rows_text`] with the label column or key named `label` (`sweep`).
pub fn rows_text_labelled(label: &str, path: &str, rows: &[(&str, &GameRow)], players: usize) -> String {
    if rows_are_jsonl(path) {
        rows_jsonl_labelled(label, rows)
    } else {
        rows_csv_labelled(label, rows, players)
    }
}

/// The most values one `--sweep` may take (each is a whole run).
pub const MAX_SWEEP_VALUES: usize = 1000;

/// `--sweep OPTION=A..B` (whole numbers, both included) or `OPTION=V1,V2,...`: the
/// option and its values in order.
pub fn parse_sweep(text: &str) -> Result<(String, Vec<String>), String> {
    let usage = "--sweep takes OPTION=A..B (whole numbers, both included) or OPTION=V1,V2,...";
    let (option, spec) = text.split_once('=').ok_or_else(|| format!("{usage}, not '{text}'"))?;
    let (option, spec) = (option.trim(), spec.trim());
    if option.is_empty() || spec.is_empty() {
        return Err(format!("{usage}, not '{text}'"));
    }
    let values: Vec<String> = match spec.split_once("..") {
        Some((a, b)) => {
            let bound = |x: &str| {
                x.trim().parse::<i64>().map_err(|_| format!("--sweep {text}: '{}' is not a whole number", x.trim()))
            };
            let (a, b) = (bound(a)?, bound(b)?);
            if a > b {
                return Err(format!("--sweep {text}: the range runs upwards, {b}..{a}"));
            }
            if b.abs_diff(a) >= MAX_SWEEP_VALUES as u64 {
                return Err(format!("--sweep {text}: at most {MAX_SWEEP_VALUES} values"));
            }
            (a..=b).map(|v| v.to_string()).collect()
        }
        None => spec.split(',').map(|v| v.trim().to_string()).collect(),
    };
    if values.iter().any(|v| v.is_empty()) {
        return Err(format!("--sweep {text}: an empty value"));
    }
    if values.len() > MAX_SWEEP_VALUES {
        return Err(format!("--sweep {text}: at most {MAX_SWEEP_VALUES} values"));
    }
    let mut seen = BTreeSet::new();
    if let Some(v) = values.iter().find(|v| !seen.insert(v.as_str())) {
        return Err(format!("--sweep {text}: '{v}' is given twice"));
    }
    Ok((option.to_string(), values))
}

/// `catan sim --sweep`: the same games (seeds, bots) played once for each value of one
/// option.
#[derive(Debug, Clone, Serialize)]
pub struct Sweep {
    pub option: String,
    pub points: Vec<SweepPoint>,
}

/// One value of a sweep and the run played with it.
#[derive(Debug, Clone, Serialize)]
pub struct SweepPoint {
    pub value: String,
    pub report: SimReport,
}

/// The options of one value of a sweep: `options` with `option` set to `value`.
pub fn sweep_options(options: &[(String, String)], option: &str, value: &str) -> OptionList {
    let mut opts: OptionList = options.iter().filter(|(k, _)| k != option).cloned().collect();
    opts.push((option.to_string(), value.to_string()));
    opts
}

/// Options as given on the command line: (key, value) pairs.
pub type OptionList = Vec<(String, String)>;

/// One side of `--compare`: `STACK`, `STACK:KEY=VALUE,...` or `:KEY=VALUE,...` (the
/// stack of `--variant`). The side's options are added to `--option`'s, winning over them.
pub fn parse_side(
    text: &str,
    stack: &[String],
    options: &[(String, String)],
) -> Result<(Vec<String>, OptionList), String> {
    let (s, o) = text.split_once(':').unwrap_or((text, ""));
    let stack = if s.trim().is_empty() { stack.to_vec() } else { s.split('+').map(|x| x.trim().to_string()).collect() };
    let mut opts = options.to_vec();
    for kv in o.split(',').filter(|kv| !kv.trim().is_empty()) {
        let (k, v) =
            kv.split_once('=').ok_or_else(|| format!("--compare '{text}': options are KEY=VALUE, not '{kv}'"))?;
        opts.retain(|(key, _)| key != k.trim());
        opts.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok((stack, opts))
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Games cut off, games failed and the seat-balance warning, as report lines.
fn notes(r: &SimReport, out: &mut String) {
    use std::fmt::Write;
    if !r.failed.is_empty() {
        let _ = writeln!(out, "  stopped by a script error: {} (not counted in the means)", r.failed.len());
        for f in r.failed.iter().take(5) {
            let _ = writeln!(out, "    seed {} after {} actions: {}", f.seed, f.actions, f.error);
        }
    }
    if !r.cut_off.is_empty() {
        let _ = writeln!(out, "  cut off without a winner: {} (counted in the means)", r.cut_off.len());
        for g in r.cut_off.iter().take(10) {
            let _ = writeln!(out, "    seed {}: {}", g.seed, g.reason);
        }
        if r.cut_off.len() > 10 {
            let _ = writeln!(out, "    ... {} more (see --out)", r.cut_off.len() - 10);
        }
    }
    if r.seat_balance.imbalanced {
        let (hi, lo) = extremes(&r.seat_rates);
        let _ = writeln!(
            out,
            "  warning: seat win rates differ significantly (chi-squared {:.1}, p = {:.4}): seat {} wins {}, seat {} {}\n    \
             (the seats of this set-up are not equal: turn order, starting pieces; compare rules on the same seats)",
            r.seat_balance.chi2,
            r.seat_balance.p_value,
            hi + 1,
            pct(r.seat_rates[hi].rate),
            lo + 1,
            pct(r.seat_rates[lo].rate)
        );
    }
}

/// The seats with the highest and the lowest win rate.
fn extremes(rates: &[Rate]) -> (usize, usize) {
    let by = |a: &(usize, &Rate), b: &(usize, &Rate)| a.1.rate.total_cmp(&b.1.rate);
    let hi = rates.iter().enumerate().max_by(by).map_or(0, |x| x.0);
    let lo = rates.iter().enumerate().min_by(by).map_or(0, |x| x.0);
    (hi, lo)
}

/// The report `catan sim` prints.
pub fn report_text(r: &SimReport, seed: u64, per_bot: bool) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{} games of {} with {} players (seed {seed})", r.games, r.variants.join("+"), r.players);
    let _ = writeln!(out, "  bots: {}", r.lineup);
    let _ = writeln!(out, "  finished with a winner: {}", r.finished);
    notes(r, &mut out);
    let _ = writeln!(out, "  wins per seat (95% interval):");
    for (i, (w, q)) in r.wins.iter().zip(&r.seat_rates).enumerate() {
        let wins = crate::repl::text::count(*w as u64, "win");
        let _ = writeln!(out, "  seat {}: {wins} ({}, {}-{})", i + 1, pct(q.rate), pct(q.ci95[0]), pct(q.ci95[1]));
    }
    if per_bot {
        let _ = writeln!(out, "  per bot (95% confidence interval):");
        for (name, b) in &r.bots {
            let _ = writeln!(
                out,
                "  {name:<7} in {}: {} ({}, {}-{}; fair share {})",
                crate::repl::text::count(b.seats as u64, "seat"),
                crate::repl::text::count(b.wins as u64, "win"),
                pct(b.rate),
                pct(b.ci95[0]),
                pct(b.ci95[1]),
                pct(b.fair_share)
            );
        }
    }
    // A turn is one player's; players count rounds (every player's turn once).
    let rounds = |t: f64| t / r.players.max(1) as f64;
    let _ = writeln!(
        out,
        "  mean turns: {:.1} ({:.1}-{:.1}), that is {:.1} rounds ({:.1}-{:.1}); mean actions: {:.1}",
        r.mean_turns,
        r.turns_ci95[0],
        r.turns_ci95[1],
        rounds(r.mean_turns),
        rounds(r.turns_ci95[0]),
        rounds(r.turns_ci95[1]),
        r.mean_actions
    );
    if !r.metrics.is_empty() {
        let names: BTreeSet<String> = r.metrics.keys().cloned().collect();
        let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
        let _ = writeln!(out, "  metrics, mean per game (95% interval):");
        for name in shown_order(&names) {
            let m = &r.metrics[name];
            let _ = writeln!(out, "    {name:<width$} {:>8.2} ({:.2}-{:.2})", m.mean, m.ci95[0], m.ci95[1]);
        }
    }
    let _ = writeln!(
        out,
        "  {:.2} s, {} on {}",
        r.seconds,
        speed_text(r.games_per_second),
        crate::repl::text::count(r.jobs as u64, "worker")
    );
    out
}

/// The speed of a run as it reads best: games per second, or seconds per game when the
/// games are slower than one a second ("0.1 games per second" is "10.0 seconds per game").
pub fn speed_text(games_per_second: f64) -> String {
    if games_per_second >= 1.0 || games_per_second <= 0.0 {
        format!("{games_per_second:.1} games per second")
    } else {
        format!("{:.1} seconds per game", 1.0 / games_per_second)
    }
}

/// The report of `catan sim --compare A B`.
pub fn comparison_text(c: &Comparison, seed: u64, sides: &[String]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    // A side as given, and the stack it means when it differs (":victory_points=8").
    let name = |i: usize, r: &SimReport| {
        let stack = r.variants.join("+");
        match sides.get(i) {
            Some(s) if *s != stack => format!("{s} (stack {stack})"),
            _ => stack,
        }
    };
    let _ = writeln!(
        out,
        "A: {}\nB: {}\n{} games each with {} players, the same seeds ({seed}..{}); {} pairs without an error",
        name(0, &c.a),
        name(1, &c.b),
        c.a.games,
        c.a.players,
        seed + c.a.games.saturating_sub(1) as u64,
        c.paired
    );
    let _ = writeln!(out, "bots: {}", c.a.lineup);
    for (label, r) in [("A", &c.a), ("B", &c.b)] {
        let mut n = String::new();
        notes(r, &mut n);
        if !n.is_empty() {
            let _ = write!(out, "{label}:\n{n}");
        }
    }
    let _ =
        writeln!(out, "{:<8} {:>22} {:>22} {:>30}", "", "A (95% interval)", "B (95% interval)", "B - A (95% interval)");
    let row = |out: &mut String, what: String, a: String, b: String, d: &Diff, scale: f64, unit: &str| {
        let mark = if d.significant { "  *" } else { "" };
        let _ = writeln!(
            out,
            "{what:<8} {a:>22} {b:>22} {:>30}{mark}",
            format!("{:+.1}{unit} ({:+.1} to {:+.1})", d.diff * scale, d.ci95[0] * scale, d.ci95[1] * scale)
        );
    };
    for (s, d) in c.seat_diff.iter().enumerate() {
        let (qa, qb) = (&c.a.seat_rates[s], &c.b.seat_rates[s]);
        let show = |q: &Rate| format!("{} ({:.1}-{:.1})", pct(q.rate), 100.0 * q.ci95[0], 100.0 * q.ci95[1]);
        row(&mut out, format!("seat {}", s + 1), show(qa), show(qb), d, 100.0, " pts");
    }
    let show = |r: &SimReport| format!("{:.1} ({:.1}-{:.1})", r.mean_turns, r.turns_ci95[0], r.turns_ci95[1]);
    row(&mut out, "turns".into(), show(&c.a), show(&c.b), &c.turns_diff, 1.0, "");
    let names: BTreeSet<String> = c.a.metrics.keys().chain(c.b.metrics.keys()).cloned().collect();
    if !names.is_empty() {
        let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(7);
        let _ = writeln!(
            out,
            "{:<width$} {:>24} {:>24} {:>30}",
            "metrics", "A (95% interval)", "B (95% interval)", "B - A (95% interval)"
        );
        let mean = |r: &SimReport, name: &str| {
            r.metrics
                .get(name)
                .map_or("-".to_string(), |m| format!("{:.2} ({:.2}-{:.2})", m.mean, m.ci95[0], m.ci95[1]))
        };
        for name in shown_order(&names) {
            let (diff, mark) = match c.metrics_diff.get(name) {
                Some(d) => (
                    format!("{:+.2} ({:+.2} to {:+.2})", d.diff, d.ci95[0], d.ci95[1]),
                    if d.significant { "  *" } else { "" },
                ),
                None => ("- (one side only)".to_string(), ""),
            };
            let _ = writeln!(out, "{name:<width$} {:>24} {:>24} {diff:>30}{mark}", mean(&c.a, name), mean(&c.b, name));
        }
    }
    let _ = writeln!(out, "  * the 95% interval of the difference leaves out 0 (paired by seed)");
    out
}

/// The report of `catan sim --sweep`: a line per value (each seat's win rate and the
/// game length, with 95% intervals), then the metrics' means per value.
pub fn sweep_text(s: &Sweep, seed: u64) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let Some(first) = s.points.first().map(|p| &p.report) else { return out };
    let values: Vec<&str> = s.points.iter().map(|p| p.value.as_str()).collect();
    let _ = writeln!(
        out,
        "{} over {}: {} games each of {} with {} players, the same seeds ({seed}..{})",
        s.option,
        values.join(", "),
        first.games,
        first.variants.join("+"),
        first.players,
        seed + first.games.saturating_sub(1) as u64
    );
    let _ = writeln!(out, "bots: {}", first.lineup);
    let vw = values.iter().map(|v| v.len()).max().unwrap_or(0).max(s.option.len()).max(5);
    let cell = |q: &Rate| format!("{} ({:.1}-{:.1})", pct(q.rate), 100.0 * q.ci95[0], 100.0 * q.ci95[1]);
    let _ = write!(out, "{:<vw$}", s.option);
    for seat in 1..=first.players {
        let _ = write!(out, " {:>19}", format!("seat {seat}"));
    }
    let _ = writeln!(out, " {:>22}", "turns");
    for p in &s.points {
        let r = &p.report;
        let _ = write!(out, "{:<vw$}", p.value);
        for q in &r.seat_rates {
            let _ = write!(out, " {:>19}", cell(q));
        }
        let _ =
            writeln!(out, " {:>22}", format!("{:.1} ({:.1}-{:.1})", r.mean_turns, r.turns_ci95[0], r.turns_ci95[1]));
    }
    let _ = writeln!(out, "  win rate per seat and mean turns, 95% intervals");
    for p in &s.points {
        let r = &p.report;
        if !r.failed.is_empty() {
            let f = &r.failed[0];
            let _ = writeln!(
                out,
                "  {}={}: {} game(s) stopped by a script error (not counted), first seed {}: {}",
                s.option,
                p.value,
                r.failed.len(),
                f.seed,
                f.error
            );
        }
        if !r.cut_off.is_empty() {
            let _ = writeln!(
                out,
                "  {}={}: {} game(s) cut off without a winner (counted), first seed {}",
                s.option,
                p.value,
                r.cut_off.len(),
                r.cut_off[0].seed
            );
        }
    }
    let uneven: Vec<&str> =
        s.points.iter().filter(|p| p.report.seat_balance.imbalanced).map(|p| p.value.as_str()).collect();
    if !uneven.is_empty() {
        let _ = writeln!(
            out,
            "  seat win rates differ significantly (chi-squared, p < 0.05) at {}={}",
            s.option,
            uneven.join(", ")
        );
    }
    let names: BTreeSet<String> = s.points.iter().flat_map(|p| p.report.metrics.keys().cloned()).collect();
    if !names.is_empty() {
        let nw = names.iter().map(|n| n.len()).max().unwrap_or(0).max(7);
        let _ = writeln!(out, "metrics, mean per game (95% interval), by {}:", s.option);
        let _ = write!(out, "{:<nw$}", "");
        for v in &values {
            let _ = write!(out, " {v:>22}");
        }
        out.push('\n');
        for name in shown_order(&names) {
            let _ = write!(out, "{name:<nw$}");
            for p in &s.points {
                let m = p.report.metrics.get(name);
                let text = m.map_or("-".to_string(), |m| format!("{:.2} ({:.2}-{:.2})", m.mean, m.ci95[0], m.ci95[1]));
                let _ = write!(out, " {text:>22}");
            }
            out.push('\n');
        }
    }
    out
}

/// The save of one game in `--out` JSON Lines rows (`lines`, read from `path` one at a
/// time, so a run's file of any length is read holding one row): `which` is the row's
/// game index (`3`), in a comparison or a sweep with its side or value (`B:3`, `8:3`);
/// None takes the file's only row.
pub fn save_from_rows(
    lines: impl Iterator<Item = Result<String, String>>,
    which: Option<&str>,
    path: &str,
) -> Result<SaveFile, String> {
    let name = |label: &Option<String>, row: &GameRow| match label {
        Some(l) => format!("{l}:{}", row.game),
        None => row.game.to_string(),
    };
    let wanted = which.map(str::trim);
    // The rows' names for the message (the first few), how many, the first pick and how
    // many rows match it.
    let (mut shown, mut rows) = (vec![], 0usize);
    let (mut picked, mut matches) = (None, 0usize);
    for (n, line) in lines.enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line)
            .map_err(|e| format!("{path}:{}: not a row of `catan sim --out`: {e}", n + 1))?;
        let label = ["side", "sweep"].iter().find_map(|k| v.get(*k)).map(|l| match l {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let row: GameRow =
            serde_json::from_value(v).map_err(|e| format!("{path}:{}: not a row of `catan sim --out`: {e}", n + 1))?;
        let named = name(&label, &row);
        rows += 1;
        if shown.len() < 8 {
            shown.push(named.clone());
        }
        let hit = match wanted {
            None => true,
            Some(w) => named == w || (!w.contains(':') && row.game.to_string() == w),
        };
        if hit {
            matches += 1;
            if picked.is_none() {
                picked = Some((named, row));
            }
        }
    }
    let choices = || {
        let list = shown.join(", ");
        if rows > shown.len() {
            format!("{list}, ... ({rows} rows)")
        } else {
            list
        }
    };
    let (named, row) = match (picked, matches) {
        (Some(one), 1) => one,
        (None, _) if rows == 0 => return Err(format!("{path} holds no game")),
        (None, _) => return Err(format!("{path} has no game {}: pick one of {}", which.unwrap_or(""), choices())),
        _ => {
            return Err(format!(
                "{path} holds {matches} games{}: pick one with --game (or {path}#GAME), one of {}",
                which.map_or(String::new(), |w| format!(" numbered {w}")),
                choices()
            ))
        }
    };
    row.save.ok_or_else(|| {
        format!(
            "game {named} of {path} was written without its save: `catan sim --out FILE.jsonl` writes one in every row"
        )
    })
}
