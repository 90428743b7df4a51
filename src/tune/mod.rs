//! `catan tune`: learns the weights of a stack's evaluation by self-play. Rounds of games
//! are played by the simulation bot (`planner`) in every seat with the weights so far;
//! positions along each game are kept with every seat's features (`bot::features`: the
//! engine's generic ones, the variant's named ones, and its hand-written `evaluate` as one
//! term where it has one) and the game's winner; the weights are then fitted so that the
//! bots' own win chances (a softmax of the seats' scores, `bot::win_chances`) predict the
//! winners best (a conditional logit, maximum likelihood with a ridge toward where the run
//! started, its strength chosen on games held out: `choose_ridge`). The next round plays
//! with the new weights. With `play_games`, a search by play follows (`search_by_play`):
//! the declared weights moved one at a time, each move kept when it wins a match on
//! paired seeds against the weights so far. Games are seeded seed + i on every core, and
//! the fit adds up in game order, so a run with a number of games is the same on any
//! machine.

mod fit;
mod play;

use crate::bot::features::FeatureSpace;
use crate::bot::weights::{stack_hash, Tuned};
use crate::bot::{Bot, BotKind, Budget, RandomBot, SeatBot};
use crate::engine::{Game, GameError, Header};
use crate::sim::in_parallel;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::time::Instant;

use fit::{agreement, choose_ridge, fit, fit_choices, judge, spread};
use play::search_by_play;

/// Games of one match of the search by play (rounded up to a multiple of the players, so
/// that the moved weights sit in every seat of each seed).
const MATCH_GAMES: usize = 48;

/// Actions between two positions kept from a game.
const EVERY: usize = 6;
/// A game still running after this many actions is dropped (no winner to learn from).
const MAX_ACTIONS: usize = 5_000;
/// The share of self-play actions drawn at random instead of chosen by the bot.
const EXPLORE: f64 = 0.1;

#[derive(Debug, Clone)]
pub struct TuneConfig {
    pub header: Header,
    /// Games in all, split into `rounds` rounds.
    pub games: usize,
    pub rounds: usize,
    /// Stop after the round in progress once this many seconds have passed, and start
    /// no match of the search by play past them (the result then depends on the
    /// machine's speed).
    pub seconds: Option<f64>,
    pub jobs: usize,
    /// Start from victory points alone instead of the stack's present evaluation.
    pub from_scratch: bool,
    /// Leave the variant's hand-written `evaluate` out of the terms (generic and named
    /// features only: cheaper to play with).
    pub without_evaluate: bool,
    /// Learn the weights from a stronger bot's choices instead of from the winners alone
    /// (distillation): at every `EVERY`-th decision of the self-play this bot, searching
    /// with the weights so far, chooses too, and the weights are fitted so that the
    /// positions after each legal action rank its choice first. The winners then set only
    /// the weights' scale.
    pub teacher: Option<BotKind>,
    /// Games of the search by play after the fit (0: none): matches on paired seeds
    /// between the weights so far and the same with one declared weight (points, a named
    /// feature, `evaluate`) moved, the move kept when it wins more than its share.
    pub play_games: usize,
}

/// One kept position: each seat's terms, by column.
pub(super) struct Position {
    seats: Vec<Vec<f64>>,
    winner: usize,
    /// The game it was kept from (its index in the run): the positions of one game share
    /// its winner, so the cross-validation holds out whole games.
    game: usize,
}

/// One decision the teacher made: for each legal action, the terms of the position after
/// it as the chooser's less the mean of the other seats', and which action it chose.
pub(super) struct Choice {
    actions: Vec<Vec<f64>>,
    chosen: usize,
    /// The game it was made in (its index in the run), for the cross-validation.
    game: usize,
}

/// What a tuning run gives.
#[derive(Debug, Clone)]
pub struct TuneReport {
    pub tuned: Tuned,
    pub games: usize,
    pub positions: usize,
    pub rounds: Vec<RoundReport>,
    pub seconds: f64,
    /// With a teacher: the share of all its choices the final weights rank first (on the
    /// choices they were fitted to).
    pub agreement: f64,
    /// The search by play's matches, in order.
    pub steps: Vec<PlayStep>,
}

/// One match of the search by play: a declared weight moved from `from` to `to`, played
/// in one seat of each of `games` games against the weights so far in the others.
#[derive(Debug, Clone)]
pub struct PlayStep {
    pub feature: String,
    pub from: f64,
    pub to: f64,
    pub wins: usize,
    pub games: usize,
    /// Whether the move won more than its share by half a standard error, and was kept.
    pub kept: bool,
}

/// One round: games played, and how well the weights it played with foretold the
/// winners of its games, before the fit on them (held out).
#[derive(Debug, Clone)]
pub struct RoundReport {
    pub games: usize,
    pub won: usize,
    /// Mean log-likelihood of the winner per position (higher is better; a coin among n
    /// seats gives -ln n).
    pub log_likelihood: f64,
    /// Share of positions where the eventual winner had the highest score.
    pub top_share: f64,
    /// With a teacher: its choices this round, and the share of them the weights played
    /// with ranked first (held out like the rest).
    pub choices: usize,
    pub agreement: f64,
    /// The ridge the fit after this round chose on held-out games.
    pub ridge: Option<f64>,
}

/// The columns of a fit: the generic features, then the named ones met, then `evaluate`.
struct Columns {
    generic: usize,
    named: Vec<String>,
    evaluate: bool,
}

impl Columns {
    fn len(&self) -> usize {
        self.generic + self.named.len() + usize::from(self.evaluate)
    }
}

/// Every seat's terms in the game's position, by column.
fn terms(game: &Game, space: &FeatureSpace, cols: &Columns) -> Result<Vec<Vec<f64>>, GameError> {
    let f = space.extract(game)?;
    let hand = if cols.evaluate { Some(game.evaluate()?) } else { None };
    Ok((0..game.header().players)
        .map(|s| {
            let mut row = f.generic[s].clone();
            for n in &cols.named {
                row.push(f.named.get(s).and_then(|m| m.get(n)).copied().unwrap_or(0.0));
            }
            if let Some(h) = &hand {
                row.push(h[s]);
            }
            row
        })
        .collect())
}

/// The teacher's choice at `seat`'s decision, with the terms after each legal action; None
/// when there is nothing to choose or it chose an action the rules do not list (an offer).
fn label(
    game: &mut Game,
    seat: usize,
    teacher: &mut Bot,
    space: &FeatureSpace,
    cols: &Columns,
) -> Result<Option<Choice>, GameError> {
    let legal = game.legal_actions(seat)?;
    if legal.len() < 2 {
        return Ok(None);
    }
    let Some(pick) = teacher.choose(game, seat)? else { return Ok(None) };
    let Some(chosen) = legal.iter().position(|a| *a == pick) else { return Ok(None) };
    let here = game.snapshot();
    let mut actions = Vec::with_capacity(legal.len());
    for a in &legal {
        let done = game.perform(seat, a);
        let rows = if done.is_ok() { Some(terms(game, space, cols)) } else { None };
        game.restore(&here);
        let Some(rows) = rows else {
            // An action listed but refused (a draw the rules then reject): no fair
            // comparison, so no label.
            return Ok(None);
        };
        let rows = rows?;
        let others = (rows.len() - 1).max(1) as f64;
        let row = (0..cols.len())
            .map(|c| {
                rows[seat][c]
                    - rows.iter().enumerate().filter(|(o, _)| *o != seat).map(|(_, r)| r[c]).sum::<f64>() / others
            })
            .collect();
        actions.push(row);
    }
    Ok(Some(Choice { actions, chosen, game: 0 }))
}

/// Plays game `seed` with planner bots, keeping every `EVERY`-th position's terms, and with
/// a teacher its choice at every `EVERY`-th decision.
fn record(
    game: &mut Game,
    seed: u64,
    space: &FeatureSpace,
    cols: &Columns,
    teacher: Option<BotKind>,
) -> Result<(Vec<Position>, Vec<Choice>), GameError> {
    game.restart(seed)?;
    let players = game.header().players;
    let mut bots: Vec<Bot> = (0..players)
        .map(|s| {
            Bot::new(
                BotKind::Planner,
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64),
                Budget::default(),
            )
        })
        .collect();
    let mut teacher = teacher.map(|k| Bot::new(k, seed ^ 0x7EAC_4E55, Budget::default()));
    let mut kept: Vec<Vec<Vec<f64>>> = vec![];
    let mut choices = vec![];
    let mut actions = 0;
    // Now and then a random action, so that the games show the fit positions the bots'
    // own choices would never reach (a road they do not yet value, say).
    let mut explore = RandomBot::new(seed ^ 0x5EED);
    let mut coin = ChaCha8Rng::seed_from_u64(seed ^ 0xC0FFEE);
    while game.winner().is_none() && actions < MAX_ACTIONS {
        let seat = game.to_act()?;
        if let Some(t) = teacher.as_mut() {
            if actions % EVERY == 0 {
                if let Some(c) = label(game, seat, t, space, cols)? {
                    choices.push(c);
                }
            }
        }
        let a =
            if coin.random::<f64>() < EXPLORE { explore.choose(game, seat)? } else { bots[seat].choose(game, seat)? };
        let Some(a) = a else { break };
        game.perform(seat, &a)?;
        actions += 1;
        if actions % EVERY == 0 && game.winner().is_none() {
            kept.push(terms(game, space, cols)?);
        }
    }
    let Some(winner) = game.winner() else { return Ok((vec![], choices)) };
    Ok((kept.into_iter().map(|seats| Position { seats, winner, game: 0 }).collect(), choices))
}

/// One game of a match: `planner` in every seat, the one at `seat` with `candidate`'s
/// weights, the others with the game's own (the weights so far). Whether `seat` won.
fn duel(game: &mut Game, seed: u64, seat: usize, candidate: &Tuned) -> Result<bool, GameError> {
    game.restart(seed)?;
    let players = game.header().players;
    let bot_seed = |s: usize| seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64);
    let mut bots: Vec<SeatBot> = (0..players)
        .map(|s| {
            if s == seat {
                SeatBot::with_weights(BotKind::Planner, bot_seed(s), Budget::default(), game, candidate.clone())
            } else {
                SeatBot::unbound(&BotKind::Planner.into(), bot_seed(s), Budget::default())
            }
        })
        .collect();
    let mut actions = 0;
    while game.winner().is_none() && actions < MAX_ACTIONS {
        let s = game.to_act()?;
        let Some(a) = bots[s].choose(game, s)? else { break };
        game.perform(s, &a)?;
        actions += 1;
    }
    Ok(game.winner() == Some(seat))
}

/// Rounds a weight to 4 significant digits, for a readable file.
fn round4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 0.0;
    }
    let mag = 10f64.powi(3 - x.abs().log10().floor() as i32);
    (x * mag).round() / mag
}

/// Runs a tuning; `progress(games done, games in all, round)` after every game.
pub fn tune(cfg: &TuneConfig, mut progress: impl FnMut(usize, usize, usize)) -> Result<TuneReport, GameError> {
    let start = Instant::now();
    let game = Game::new(cfg.header.clone())?;
    let space = FeatureSpace::of(&game);
    let hash = stack_hash(game.stack_files());
    let stack = cfg.header.variants.join("+");
    let has_evaluate = !cfg.without_evaluate && game.has_hook("evaluate");
    // The named features this variant gives, read off the start position.
    let named: Vec<String> = {
        let f = game.named_features()?;
        let mut names: Vec<String> = f.iter().flat_map(|m| m.keys().cloned()).collect();
        names.sort();
        names.dedup();
        names
    };
    let cols = Columns { generic: space.names.len(), named, evaluate: has_evaluate };
    let ncols = cols.len();
    let name_of = |c: usize| -> String {
        if c < cols.generic {
            space.names[c].clone()
        } else if c < cols.generic + cols.named.len() {
            format!("named.{}", cols.named[c - cols.generic])
        } else {
            "evaluate".to_string()
        }
    };
    // The weights round 0 plays with: the stack's present ones (None: its `evaluate`,
    // or points), or points alone from scratch.
    let present = if cfg.from_scratch { None } else { game.tuned().0.as_ref().map(|e| e.tuned.clone()) };
    let mut w = vec![0.0; ncols];
    match &present {
        Some(t) => {
            for (c, x) in w.iter_mut().enumerate() {
                *x = t.weights.get(&name_of(c)).copied().unwrap_or(0.0);
            }
        }
        None if has_evaluate => w[ncols - 1] = 1.0,
        None => w[0] = 1.0,
    }
    let to_tuned = |w: &[f64]| Tuned {
        stack: stack.clone(),
        hash: hash.clone(),
        players: cfg.header.players,
        made: String::new(),
        weights: (0..ncols).filter(|&c| w[c] != 0.0).map(|c| (name_of(c), round4(w[c]))).collect(),
    };
    // What the fits' ridge pulls toward in every round: where the run started.
    let w0 = w.clone();
    let mut playing: Option<Tuned> = if cfg.from_scratch {
        Some(Tuned {
            stack: stack.clone(),
            hash: hash.clone(),
            players: cfg.header.players,
            made: String::new(),
            weights: BTreeMap::from([("points".to_string(), 1.0)]),
        })
    } else {
        present
    };
    drop(game);
    let total = cfg.games + cfg.play_games;
    let rounds = cfg.rounds.max(1);
    let per_round = cfg.games.div_ceil(rounds).max(1);
    let mut data: Vec<Position> = vec![];
    let mut choices: Vec<Choice> = vec![];
    let mut reports = vec![];
    let mut done = 0;
    for r in 0..rounds {
        if done >= cfg.games || cfg.seconds.is_some_and(|s| r > 0 && start.elapsed().as_secs_f64() >= s) {
            break;
        }
        let n = per_round.min(cfg.games - done);
        let first = done;
        let games = in_parallel(
            &cfg.header,
            cfg.jobs,
            n,
            |g| {
                g.set_tuned(playing.clone());
                FeatureSpace::of(g)
            },
            |g, space, i| record(g, cfg.header.seed.wrapping_add((first + i) as u64), space, &cols, cfg.teacher),
            |k| progress(first + k, total, r + 1),
        )?;
        let won = games.iter().filter(|(p, _)| !p.is_empty()).count();
        let (mut fresh, mut taught) = (vec![], vec![]);
        for (i, (p, c)) in games.into_iter().enumerate() {
            fresh.extend(p.into_iter().map(|p| Position { game: first + i, ..p }));
            taught.extend(c.into_iter().map(|c| Choice { game: first + i, ..c }));
        }
        let (ll, top) = judge(&fresh, &w);
        reports.push(RoundReport {
            games: n,
            won,
            log_likelihood: ll,
            top_share: top,
            choices: taught.len(),
            agreement: agreement(&taught, &w),
            ridge: None,
        });
        done += n;
        data.extend(fresh);
        choices.extend(taught);
        // From the run's start, not the last round's weights: those saw the games the
        // cross-validation holds out.
        let (fitted, ridge) = if cfg.teacher.is_some() {
            fit_choices(&choices, &data, ncols, &w0)
        } else {
            let ridge = choose_ridge(&data, ncols, &w0);
            let all: Vec<&Position> = data.iter().collect();
            (fit(&all, ncols, &w0, &w0, ridge), ridge)
        };
        w = fitted;
        if let Some(last) = reports.last_mut() {
            last.ridge = Some(ridge);
        }
        playing = Some(to_tuned(&w));
    }
    // The search by play moves the declared weights (the variant's own terms, and points)
    // by what wins matches, not by what foretells winners: a fit to who wins learns what
    // goes with winning, and misses what wins late (the points toward an advantage token).
    let steps = if cfg.play_games > 0 {
        let sd = spread(data.iter().flat_map(|p| &p.seats), ncols);
        let mut order: Vec<usize> = (cols.generic..ncols).collect();
        order.push(0);
        let players = cfg.header.players.max(1);
        let n = MATCH_GAMES.div_ceil(players) * players;
        let shape = (n, 1.0 / players as f64, cfg.play_games / n);
        // `--minutes` bounds the whole run: no match starts past it.
        let out_of_time = || cfg.seconds.is_some_and(|s| start.elapsed().as_secs_f64() >= s);
        let steps = search_by_play(&mut w, &order, &sd, shape, &name_of, &out_of_time, |candidate, w, m| {
            let (inc, cand) = (to_tuned(w), to_tuned(candidate));
            // Fresh seeds for each match, apart from the fit's games; each seed with the
            // candidate in every seat.
            let first = cfg.header.seed.wrapping_add(1_000_000 + 1_000 * m as u64);
            let won = in_parallel(
                &cfg.header,
                cfg.jobs,
                n,
                |g| g.set_tuned(Some(inc.clone())),
                |g, _, i| duel(g, first + (i / players) as u64, i % players, &cand),
                |k| progress(done + m * n + k, total, rounds + 1),
            )?;
            Ok(won.iter().filter(|&&b| b).count())
        })?;
        playing = Some(to_tuned(&w));
        steps
    } else {
        vec![]
    };
    let (ll, top) = judge(&data, &w);
    let mut tuned = playing.unwrap_or(Tuned {
        stack: stack.clone(),
        hash: hash.clone(),
        players: cfg.header.players,
        made: String::new(),
        weights: BTreeMap::new(),
    });
    tuned.made = format!(
        "catan tune: {done} games of self-play in {} rounds{}, seed {}, {} positions; fit{}: log-likelihood {:.3} a position (a coin: {:.3}), winner scored highest in {:.0}%{}",
        reports.len(),
        cfg.teacher.map_or(String::new(), |k| format!(", distilled from {}'s choices", k.name())),
        cfg.header.seed,
        data.len(),
        reports.last().and_then(|r| r.ridge).map_or(String::new(), |r| format!(" with ridge {r}")),
        ll,
        -(cfg.header.players as f64).ln(),
        100.0 * top,
        if steps.is_empty() {
            String::new()
        } else {
            format!(
                "; then a search by play, {} {} of {} games, {} moves kept",
                steps.len(),
                if steps.len() == 1 { "match" } else { "matches" },
                steps[0].games,
                steps.iter().filter(|s| s.kept).count()
            )
        }
    );
    Ok(TuneReport {
        tuned,
        games: done,
        positions: data.len(),
        rounds: reports,
        seconds: start.elapsed().as_secs_f64(),
        agreement: agreement(&choices, &w),
        steps,
    })
}

/// What `write` adds to the comment above an entry it replaces: the comment describes the
/// entry that was there (its command, its checks), not the new weights.
pub const REPLACED_NOTE: &str =
    "# (Re-tuned by `catan tune` since the comment above was written: its figures are the replaced entry's.)\n";

/// Puts a tuned entry into the weights file at `path` (made if missing, its other entries
/// kept): what `catan tune` and Python's `tune(out=...)` write. The file's text is edited,
/// not written anew: its comments stay (the header, and the comment above each entry,
/// which gains `REPLACED_NOTE` when its entry is replaced), and a replaced entry keeps its
/// place.
pub fn write(path: &std::path::Path, tuned: &Tuned) -> Result<(), String> {
    use crate::bot::weights::WeightsFile;
    let fresh = WeightsFile { tuned: vec![tuned.clone()] };
    let text = if path.is_file() {
        // Read once, and checked as the stack will read it before it is edited.
        let old = crate::bounded::read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        WeightsFile::parse(&old).and_then(|_| edited(&old, &fresh)).map_err(|e| format!("{}: {e}", path.display()))?
    } else {
        fresh.to_toml()
    };
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `old`'s text with `fresh`'s one entry put in: in the place of the entry of the same
/// stack and player count, under its comment, or after the others.
fn edited(old: &str, fresh: &crate::bot::weights::WeightsFile) -> Result<String, String> {
    use toml_edit::{ArrayOfTables, DocumentMut, Item};
    let mut doc: DocumentMut = old.parse().map_err(|e| format!("{e}"))?;
    let new: DocumentMut = toml::to_string(fresh).map_err(|e| format!("{e}"))?.parse().map_err(|e| format!("{e}"))?;
    let Some(mut entry) = new.get("tuned").and_then(Item::as_array_of_tables).and_then(|a| a.get(0)).cloned() else {
        return Err("no entry to write".into());
    };
    let key = |t: &toml_edit::Table| {
        (t.get("stack").and_then(Item::as_str).map(String::from), t.get("players").and_then(Item::as_integer))
    };
    let mine = key(&entry);
    let entries = doc.entry("tuned").or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    let Some(entries) = entries.as_array_of_tables_mut() else {
        return Err("`tuned` is not a list of [[tuned]] entries".into());
    };
    let at = entries.iter().position(|t| key(t) == mine);
    match at.and_then(|i| entries.get_mut(i)) {
        Some(t) => {
            let mut prefix = t.decor().prefix().and_then(|p| p.as_str()).unwrap_or("").to_string();
            if prefix.trim().starts_with('#') && !prefix.contains(REPLACED_NOTE.trim_end()) {
                prefix.push_str(REPLACED_NOTE);
            }
            entry.decor_mut().set_prefix(prefix);
            *t = entry;
        }
        None => {
            // Set off from the entry before by a blank line, as `to_toml` writes them.
            entry.decor_mut().set_prefix("\n");
            entries.push(entry);
        }
    }
    // Tables are written in the order of their positions, and the new entry's came from
    // another document: every table is numbered again in the order it stands.
    fn number(table: &mut toml_edit::Table, next: &mut isize) {
        for (_, item) in table.iter_mut() {
            match item {
                Item::Table(t) => {
                    t.set_position(Some(*next));
                    *next += 1;
                    number(t, next);
                }
                Item::ArrayOfTables(a) => {
                    for t in a.iter_mut() {
                        t.set_position(Some(*next));
                        *next += 1;
                        number(t, next);
                    }
                }
                _ => {}
            }
        }
    }
    number(doc.as_table_mut(), &mut 0);
    Ok(doc.to_string())
}
