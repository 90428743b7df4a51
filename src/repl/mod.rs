//! `catan play`: the REPL. Interactive with rustyline (history, completion of commands,
//! legal actions and board labels, hints) on a terminal; line by line from stdin
//! otherwise, so a transcript is a test.

mod line;

use crate::board::render::{render, RenderOptions};
use crate::bot::{Bot, BotKind, Budget, RandomBot};
use crate::engine::{Game, GameError, Header, Observer};
use crate::script::Message;
use crate::view::view;
use std::io::{BufRead, Write};

pub struct ReplConfig {
    pub header: Header,
    /// Seats played by bots: "2,3", colours "blue,white", "all" or "none", each with a
    /// kind if wanted ("blue=mcts,white=greedy"; default: the strongest, mcts).
    pub bots: String,
    /// Thinking budget of the search bots (and of `hint`).
    pub budget: Budget,
    /// Exit with status 2 at the first rejected command (script mode).
    pub strict: bool,
    pub color: bool,
    /// A game to load instead of starting a new one.
    pub load: Option<String>,
}

const COMMANDS: &[(&str, &str)] = &[
    ("help", "this list, and every action of the game"),
    ("legal [WORDS]", "every action you may take now (long lists grouped; WORDS: only those starting so)"),
    ("show [board|hand|players|bank|log]", "the board (default), your cards, the players, the bank, the log"),
    ("help CARD / show card CARD", "the rules text of a card, if the game gives one"),
    ("state --json", "the whole referee state as JSON (shows every hidden card)"),
    ("view --json", "what the player to act may see, as JSON"),
    ("hint", "what the strongest bot would do in your place, and why"),
    ("undo", "take back your last action (and the bots' actions after it)"),
    ("save FILE [--force]", "save the game (header and log) as JSON; --force replaces a save with more actions"),
    ("load FILE", "load a saved game, replaying its log"),
    ("quit", "leave"),
];

const SANDBOX_COMMANDS: &[(&str, &str)] = &[
    ("dice A B", "force the next roll"),
    ("give PLAYER CARDS", "give cards from the bank"),
    ("place PIECE LABEL PLAYER", "put a piece on the board"),
];

/// What a line did, for script mode's exit status.
#[derive(PartialEq, Eq)]
enum Step {
    Ok,
    Rejected,
    Quit,
}

pub struct Repl<'w> {
    pub game: Game,
    config: ReplConfig,
    is_bot: Vec<bool>,
    /// The bot of each bot seat.
    bots: Vec<Option<Bot>>,
    out: &'w mut dyn Write,
    /// Messages already printed (index into game.messages()).
    shown: usize,
    /// (turn, current seat) when the board was last drawn for a human.
    last_turn: Option<(u32, usize)>,
    winner_announced: bool,
    /// (log length, seat) when the status was last printed: print it again only after
    /// something happened or another seat is to act.
    last_status: Option<(usize, usize)>,
    /// Where a loaded save stopped agreeing with its replay, told in the welcome.
    divergence: Option<String>,
}

fn seat_name(game: &Game, seat: usize) -> String {
    game.state().players.get(seat).map(|p| p.color.clone()).unwrap_or_else(|| format!("seat {}", seat + 1))
}

impl<'w> Repl<'w> {
    pub fn new(config: ReplConfig, out: &'w mut dyn Write) -> Result<Repl<'w>, GameError> {
        let (game, divergence) = match &config.load {
            Some(path) => {
                let (game, div) = load_game(path)?;
                let warning = div.map(|d| diverged(path, &d, &game));
                (game, warning)
            }
            None => (Game::new(config.header.clone())?, None),
        };
        let players = game.header().players;
        let seed = game.header().seed;
        let kinds = parse_bots(&config.bots, &game).map_err(GameError::Setup)?;
        let is_bot = kinds.iter().map(Option::is_some).collect();
        let bots = (0..players)
            .map(|s| {
                let seed = seed ^ (0xB07 + s as u64 * 7919);
                kinds.get(s).copied().flatten().map(|kind| match kind {
                    // The random bot keeps its stream of earlier versions: seeded transcripts stay.
                    BotKind::Random => Bot::Random(RandomBot::new(seed)),
                    kind => Bot::new(kind, seed, config.budget),
                })
            })
            .collect();
        Ok(Repl {
            game,
            config,
            is_bot,
            bots,
            out,
            shown: 0,
            last_turn: None,
            winner_announced: false,
            last_status: None,
            divergence,
        })
    }

    fn is_bot(&self, seat: usize) -> bool {
        self.is_bot.get(seat).copied().unwrap_or(false)
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    /// Prints new log messages a human at `seat` may read.
    fn flush_messages(&mut self, seat: Option<usize>) {
        let msgs: Vec<Message> = self.game.messages()[self.shown..].iter().map(|(_, m)| m.clone()).collect();
        self.shown = self.game.messages().len();
        for m in msgs {
            let visible = match (&m.to, seat) {
                (None, _) => true,
                (Some(to), Some(s)) => to.contains(&s) && !self.is_bot(s),
                (Some(_), None) => false,
            };
            if visible {
                self.say(&format!("  {}", m.text));
            }
        }
    }

    pub fn welcome(&mut self) {
        let spec = self.game.spec().clone();
        let h = self.game.header().clone();
        self.say(&format!("catan-engine: {} with {} players, seed {}", spec.variants.join("+"), h.players, h.seed));
        self.say(&format!("  {}", spec.description));
        let humans: Vec<String> =
            (0..h.players).filter(|s| !self.is_bot(*s)).map(|s| seat_name(&self.game, s)).collect();
        let bots: Vec<String> = (0..h.players)
            .filter_map(|s| {
                let kind = self.bots.get(s)?.as_ref()?.kind();
                Some(format!("{} ({})", seat_name(&self.game, s), kind.name()))
            })
            .collect();
        self.say(&format!(
            "  humans: {}; bots: {}",
            if humans.is_empty() { "none".into() } else { humans.join(", ") },
            if bots.is_empty() { "none".into() } else { bots.join(", ") }
        ));
        self.say("  type `help` for commands, `legal` for your possible actions.");
        if let Some(d) = self.divergence.take() {
            self.say(&d);
        }
        self.flush_messages(None);
    }

    /// Lets bots act until a human is to act or the game ends.
    pub fn run_bots(&mut self) -> Result<(), GameError> {
        let mut guard = 0;
        while self.game.winner().is_none() {
            let seat = self.game.to_act()?;
            if !self.is_bot(seat) {
                break;
            }
            let Some(bot) = self.bots.get_mut(seat).and_then(Option::as_mut) else { break };
            let Some(action) = bot.choose(&mut self.game, seat)? else {
                self.say(&format!("{} (bot) has no legal action; stopping the bots", seat_name(&self.game, seat)));
                break;
            };
            let text = self.game.action_text(&action);
            match self.game.perform(seat, &action) {
                Ok(_) => {
                    let shown =
                        if self.game.spec().is_secret(&action.name) { secret_text(&self.game, &action) } else { text };
                    self.say(&format!("{} (bot)> {shown}", seat_name(&self.game, seat)));
                    self.flush_messages(None);
                }
                Err(e) => {
                    self.say(&format!("bot action '{text}' was refused: {e}"));
                    break;
                }
            }
            guard += 1;
            if guard > 100_000 {
                self.say("the bots played 100000 actions without a winner; stopping");
                break;
            }
        }
        self.announce_end();
        Ok(())
    }

    fn announce_end(&mut self) {
        if let Some(w) = self.game.winner() {
            if !self.winner_announced {
                self.winner_announced = true;
                let pts = self.game.points(w, true).unwrap_or(0);
                let name = seat_name(&self.game, w);
                self.say(&format!("*** {name} wins the game with {pts} points ***"));
                let table = self.players_text();
                self.say(&table);
            }
        }
    }

    /// The prompt for the seat to act.
    pub fn prompt(&self) -> String {
        if self.game.winner().is_some() {
            return "game over> ".into();
        }
        let seat = self.game.to_act().unwrap_or(0);
        let st = self.game.state();
        format!("[turn {} {} {}]> ", st.turn, seat_name(&self.game, seat), st.phase)
    }

    /// Text of every legal action for the seat to act (for completion and hints), or the
    /// error that listing them raised.
    pub fn legal_texts(&self) -> Result<Vec<String>, GameError> {
        let seat = self.game.to_act()?;
        let (actions, templates) = self.game.legal_with_templates(seat)?;
        let mut v: Vec<String> = actions.iter().map(|a| self.game.action_text(a)).collect();
        v.extend(templates);
        Ok(v)
    }

    fn players_text(&self) -> String {
        let st = self.game.state().clone();
        let mut out = String::new();
        // A failing points or describe hook is shown, not swallowed.
        let mut errors = vec![];
        for (i, p) in st.players.iter().enumerate() {
            let pts = self.game.points(i, false).map_err(|e| errors.push(format!("points of {}: {e}", p.color)));
            let pts = pts.map_or("?".to_string(), |n| n.to_string());
            let info = self.game.describe(i).map_err(|e| errors.push(format!("describe {}: {e}", p.color))).ok();
            let field = |k: &str| {
                info.as_ref()
                    .and_then(|v| if let crate::value::Value::Map(m) = v { m.get(k).cloned() } else { None })
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            };
            // The variant's describe filter words the line (`summary`) and may mark the
            // seat (`marker`, such as "player 2"); the REPL knows no game's vocabulary.
            let summary = field("summary");
            let marker = field("marker");
            out.push_str(&format!(
                "  {:<7} {:>2} pts  {summary}{}{}{}\n",
                p.color,
                pts,
                if marker.is_empty() { String::new() } else { format!("  ({marker})") },
                if self.is_bot(i) { "  (bot)" } else { "" },
                if st.current == i { "  <- turn" } else { "" },
            ));
        }
        for e in errors {
            out.push_str(&format!("  error: {e}\n"));
        }
        out.trim_end().to_string()
    }

    fn hand_text(&self, seat: usize) -> String {
        let v = view(&self.game, Observer::Seat(seat));
        let zones = &v["players"][seat]["zones"];
        let mut out = format!("  {}'s cards:", seat_name(&self.game, seat));
        if let Some(obj) = zones.as_object() {
            for (zone, cards) in obj {
                if let Some(c) = cards.as_object() {
                    if c.is_empty() {
                        continue;
                    }
                    let list: Vec<String> = c.iter().map(|(k, n)| format!("{n} {k}")).collect();
                    out.push_str(&format!("\n    {zone}: {}", list.join(", ")));
                }
            }
        }
        match self.game.points(seat, true) {
            Ok(pts) => out.push_str(&format!("\n    points (with hidden cards): {pts}")),
            Err(e) => out.push_str(&format!("\n    error: cannot count the points: {e}")),
        }
        out
    }

    fn bank_text_zone(cards: &serde_json::Value) -> String {
        match cards.as_object() {
            Some(c) if c.contains_key("top") => match c["top"].as_str() {
                Some(top) => format!("{} cards, {top} on top", c["count"]),
                None => "empty".to_string(),
            },
            Some(c) if c.contains_key("count") && c.len() == 1 => format!("{} cards", c["count"]),
            Some(c) => {
                let list: Vec<String> = c.iter().map(|(k, n)| format!("{n} {k}")).collect();
                if list.is_empty() {
                    "empty".to_string()
                } else {
                    list.join(", ")
                }
            }
            None => match cards.as_array() {
                Some(a) if a.is_empty() => "empty".to_string(),
                _ => cards.to_string(),
            },
        }
    }

    fn bank_text(&self) -> String {
        let v = view(&self.game, Observer::Spectator);
        let mut out = String::new();
        if let Some(obj) = v["zones"].as_object() {
            for (zone, cards) in obj {
                out.push_str(&format!("  {zone}: {}\n", Self::bank_text_zone(cards)));
            }
        }
        out.trim_end().to_string()
    }

    fn board_text(&self) -> String {
        let st = self.game.state().clone();
        // A variant without a hex board but with slot grids (Rivals) draws its grids.
        if st.topology.is_none() && !st.grids.is_empty() {
            return crate::slots::render::render(&st, self.game.spec(), self.config.color);
        }
        render(&st, self.game.spec(), &RenderOptions { color: self.config.color })
    }

    fn log_text(&self, seat: usize, n: usize) -> String {
        let msgs: Vec<&Message> = self
            .game
            .messages()
            .iter()
            .map(|(_, m)| m)
            .filter(|m| m.to.as_ref().is_none_or(|to| to.contains(&seat)))
            .collect();
        let start = msgs.len().saturating_sub(n);
        msgs[start..].iter().map(|m| format!("  {}", m.text)).collect::<Vec<_>>().join("\n")
    }

    fn help_text(&self) -> String {
        let mut out = String::from("commands:\n");
        for (c, d) in COMMANDS {
            out.push_str(&format!("  {c:<36} {d}\n"));
        }
        if self.game.header().sandbox {
            out.push_str("sandbox commands (logged):\n");
            for (c, d) in SANDBOX_COMMANDS {
                out.push_str(&format!("  {c:<36} {d}\n"));
            }
        }
        out.push_str("actions of this game:\n");
        for a in &self.game.spec().actions {
            out.push_str(&format!("  {:<36} {}\n", a.template(), a.help));
        }
        if self.game.state().grids.is_empty() {
            out.push_str("labels: hexes H1.., intersections 1.., paths by their ends (12-13); cards as `2 ore brick`");
        } else {
            out.push_str("labels: slots by column letter and row number (K2), as `show board` prints them");
        }
        out
    }

    /// Handles one line typed by the human at the seat to act.
    fn handle(&mut self, line: &str) -> Step {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Step::Ok;
        }
        let seat = match self.game.to_act() {
            Ok(s) => s,
            Err(e) => {
                self.say(&format!("error: {e}"));
                return Step::Rejected;
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["quit"] | ["exit"] => return Step::Quit,
            ["help"] | ["?"] => {
                let t = self.help_text();
                self.say(&t);
            }
            ["legal", prefix @ ..] => {
                if self.game.winner().is_some() {
                    self.say("the game is over");
                    return Step::Ok;
                }
                let name = seat_name(&self.game, seat);
                let texts = match self.legal_texts() {
                    Ok(texts) => texts,
                    Err(e) => {
                        self.say(&format!("error: cannot list {name}'s actions: {e}"));
                        return Step::Rejected;
                    }
                };
                self.say(&format!("{name} may:"));
                let lines = if prefix.is_empty() {
                    group_legal(&texts)
                } else {
                    let want = prefix.join(" ").to_ascii_lowercase();
                    texts.into_iter().filter(|t| t.to_ascii_lowercase().starts_with(&want)).collect()
                };
                for t in lines {
                    self.say(&format!("  {t}"));
                }
            }
            ["help", card] | ["show", "card", card] => {
                let kind = card.to_ascii_lowercase();
                let t = match self.game.card_text(&kind) {
                    Ok(Some(t)) => t,
                    Ok(None) => format!("no card text for '{kind}' (type `help` for the commands)"),
                    Err(e) => format!("error: {e}"),
                };
                self.say(&t);
            }
            ["show"] | ["show", "board"] | ["board"] => {
                let t = self.board_text();
                self.say(&t);
                // Slot grids carry no points or tokens of their own: list the players too.
                if self.game.state().topology.is_none() && !self.game.state().grids.is_empty() {
                    let t = self.players_text();
                    self.say(&t);
                }
            }
            ["show", "hand"] | ["hand"] => {
                let t = self.hand_text(seat);
                self.say(&t);
            }
            ["show", "players"] | ["players"] => {
                let t = self.players_text();
                self.say(&t);
            }
            ["show", "bank"] | ["bank"] => {
                let t = self.bank_text();
                self.say(&t);
            }
            ["show", "log"] | ["log"] => {
                let t = self.log_text(seat, 30);
                self.say(&t);
            }
            ["show", "log", n] => {
                let n = n.parse().unwrap_or(30);
                let t = self.log_text(seat, n);
                self.say(&t);
            }
            ["state", "--json"] => {
                let v = view(&self.game, Observer::Referee);
                self.say(&serde_json::to_string_pretty(&v).unwrap_or_default());
            }
            ["view", "--json"] => {
                let v = view(&self.game, Observer::Seat(seat));
                self.say(&serde_json::to_string_pretty(&v).unwrap_or_default());
            }
            ["undo"] => return self.undo(),
            ["hint"] => return self.hint(seat),
            ["save", path] | ["save", path, "--force"] => {
                if words.len() == 2 {
                    if let Some(why) = would_lose(path, &self.game) {
                        self.say(&format!("not saved: {why}; `save {path} --force` replaces it, or save elsewhere"));
                        return Step::Rejected;
                    }
                }
                match std::fs::write(path, self.game.save_json()) {
                    Ok(()) => self.say(&format!("saved to {path} ({} actions)", self.game.log().len())),
                    Err(e) => {
                        self.say(&format!("cannot save to {path}: {e}"));
                        return Step::Rejected;
                    }
                }
            }
            ["load", path] => match load_game(path) {
                Ok((game, div)) => {
                    self.game = game;
                    self.winner_announced = false;
                    self.shown = self.game.messages().len();
                    self.is_bot.resize(self.game.header().players, false);
                    self.bots.resize_with(self.game.header().players, || None);
                    if let Some(d) = div {
                        let text = diverged(path, &d, &self.game);
                        self.say(&text);
                    }
                    self.say(&format!("loaded {path} ({} actions)", self.game.log().len()));
                }
                Err(e) => {
                    self.say(&format!("cannot load {path}: {e}"));
                    return Step::Rejected;
                }
            },
            ["dice", ..] | ["give", ..] | ["place", ..] if self.game.header().sandbox => {
                match self.game.sandbox(seat, line) {
                    Ok(_) => self.flush_messages(Some(seat)),
                    Err(e) => {
                        self.say(&format!("error: {e}"));
                        return Step::Rejected;
                    }
                }
            }
            _ => {
                if self.game.winner().is_some() {
                    self.say("the game is over (save, show, or quit)");
                    return Step::Rejected;
                }
                match self.game.act(seat, line) {
                    Ok(_) => self.flush_messages(Some(seat)),
                    Err(e) => {
                        self.say(&format!("error: {e}"));
                        return Step::Rejected;
                    }
                }
            }
        }
        Step::Ok
    }

    /// What the strongest bot would do for `seat`, from that seat's view, and why.
    fn hint(&mut self, seat: usize) -> Step {
        if self.game.winner().is_some() {
            self.say("the game is over");
            return Step::Rejected;
        }
        // Seeded by the position, so the same game asks the same hint.
        let seed = self.game.header().seed ^ (self.game.log().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut bot = Bot::new(BotKind::DEFAULT, seed, self.config.budget);
        match bot.decide(&mut self.game, seat) {
            Ok(Some(d)) => {
                let text = self.game.action_text(&d.action);
                self.say(&format!("hint: {text}  ({})", d.why));
                Step::Ok
            }
            Ok(None) => {
                self.say("hint: you have no legal action");
                Step::Ok
            }
            Err(e) => {
                self.say(&format!("hint failed: {e}"));
                Step::Rejected
            }
        }
    }

    /// Undoes back to before the last action of a human seat.
    fn undo(&mut self) -> Step {
        let log = self.game.log();
        let Some(pos) = log.iter().rposition(|e| !self.is_bot(e.seat)) else {
            self.say("nothing to undo");
            return Step::Rejected;
        };
        let n = log.len() - pos;
        let what = log[pos].command.clone();
        match self.game.undo(n) {
            Ok(()) => {
                self.shown = self.game.messages().len();
                self.say(&format!("undone: {what}"));
                Step::Ok
            }
            Err(e) => {
                self.say(&format!("cannot undo: {e}"));
                Step::Rejected
            }
        }
    }

    /// A short status for the start of a human's decision.
    fn status(&mut self) {
        if self.game.winner().is_some() {
            return;
        }
        let Ok(seat) = self.game.to_act() else { return };
        let now = (self.game.log().len(), seat);
        if self.last_status == Some(now) {
            return;
        }
        self.last_status = Some(now);
        let key = {
            let st = self.game.state();
            (st.turn, st.current)
        };
        if self.last_turn != Some(key) {
            self.last_turn = Some(key);
            let board = self.board_text();
            self.say(&board);
            let t = self.players_text();
            self.say(&t);
        }
        let hand = self.hand_text(seat);
        self.say(&hand);
        let texts = match self.legal_texts() {
            Ok(t) => t,
            Err(e) => {
                self.say(&format!("error: cannot list {}'s actions: {e}", seat_name(&self.game, seat)));
                return;
            }
        };
        let mut names: Vec<String> =
            texts.iter().map(|t| t.split_whitespace().next().unwrap_or("").to_string()).collect();
        names.dedup();
        names.sort();
        names.dedup();
        self.say(&format!(
            "  {} to act; possible: {} (type `legal` for details)",
            seat_name(&self.game, seat),
            names.join(", ")
        ));
    }
}

/// "2,3", "blue=mcts,white=greedy", "all", "all=random", "none" -> the bot of each seat
/// (None: a human); a seat named without a kind gets the default (strongest) bot.
pub fn parse_bots(spec: &str, game: &Game) -> Result<Vec<Option<BotKind>>, String> {
    let players = game.header().players;
    let mut bots = vec![None; players];
    let kind_of = |part: &str| -> Result<(String, BotKind), String> {
        match part.split_once('=') {
            Some((seat, kind)) => {
                Ok((seat.trim().to_string(), BotKind::parse(kind).map_err(|e| format!("--bots: {e}"))?))
            }
            None => Ok((part.trim().to_string(), BotKind::DEFAULT)),
        }
    };
    match spec.trim() {
        "none" | "" => {}
        all if all == "all" || all.starts_with("all=") => {
            let (_, kind) = kind_of(all)?;
            bots.iter_mut().for_each(|b| *b = Some(kind));
        }
        list => {
            for part in list.split(',') {
                let (part, kind) = kind_of(part)?;
                let part = part.as_str();
                let seat = match part.parse::<usize>() {
                    Ok(n) if n >= 1 && n <= players => n - 1,
                    _ => game.state().players.iter().position(|p| p.color.eq_ignore_ascii_case(part)).ok_or_else(
                        || format!("--bots: '{part}' is not a seat (1..{players}) or a colour in this game"),
                    )?,
                };
                bots[seat] = Some(kind);
            }
        }
    }
    Ok(bots)
}

/// The warning for a save that stopped agreeing with its replay.
fn diverged(path: &str, d: &crate::engine::Divergence, game: &Game) -> String {
    format!(
        "warning: {d} (in {path}); loaded the {} actions before it. `save {path}` will not replace \
         it with fewer actions unless you add --force",
        game.log().len()
    )
}

/// Why saving `game` to `path` would lose actions: the file there is a save whose log is
/// not a beginning of this game's log (it holds actions this game does not).
fn would_lose(path: &str, game: &Game) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let old: crate::engine::SaveFile = serde_json::from_str(&text).ok()?;
    let log = game.log();
    let kept = old.header == *game.header() && old.log.len() <= log.len() && old.log[..] == log[..old.log.len()];
    (!kept).then(|| format!("{path} holds a game of {} actions that this one does not continue", old.log.len()))
}

fn load_game(path: &str) -> Result<(Game, Option<crate::engine::Divergence>), GameError> {
    let text = std::fs::read_to_string(path).map_err(|e| GameError::Setup(format!("cannot read {path}: {e}")))?;
    Game::load_json(&text)
}

/// Script mode: reads commands line by line, echoing each. Returns the exit status.
pub fn run_script(config: ReplConfig, input: &mut dyn BufRead, out: &mut dyn Write) -> i32 {
    let strict = config.strict;
    let mut repl = match Repl::new(config, out) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    repl.welcome();
    // A bot's error stops the bots, not the session: the game is intact and can be saved.
    let mut bots_failed = repl.run_bots().map_err(|e| repl.say(&format!("error: a bot failed: {e}"))).is_err();
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => number += 1,
            Err(e) => {
                repl.say(&format!("error reading input: {e}"));
                return 1;
            }
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            repl.say(&format!("error: input line {number} is not valid UTF-8; ignored"));
            if strict {
                return 2;
            }
            continue;
        };
        let text = text.trim().to_string();
        if text.is_empty() {
            continue;
        }
        let prompt = repl.prompt();
        repl.say(&format!("{prompt}{text}"));
        let step = repl.handle(&text);
        match step {
            Step::Quit => return 0,
            Step::Rejected if strict => return 2,
            _ => {}
        }
        if let Err(e) = repl.run_bots() {
            repl.say(&format!("error: a bot failed: {e}"));
            bots_failed = true;
        }
    }
    if strict && bots_failed {
        return 2;
    }
    0
}

/// A secret action as others see it: its first words, without the arguments.
fn secret_text(game: &Game, action: &crate::action::Action) -> String {
    let Some(spec) = game.spec().action(&action.name) else { return action.name.clone() };
    let words: Vec<&str> = spec
        .syntax
        .iter()
        .map_while(|p| match p {
            crate::spec::SyntaxPart::Literal(l) => Some(l.as_str()),
            crate::spec::SyntaxPart::Arg(_) => None,
        })
        .collect();
    format!("{} (hidden)", words.join(" "))
}

/// Every label of a slot grid, for completion.
fn grid_labels(g: &crate::slots::SlotGrid) -> Vec<String> {
    (0..g.rows as usize).flat_map(|r| (0..g.cols as usize).map(move |c| g.label(r, c))).collect()
}

/// Interactive mode on a terminal.
pub fn run_interactive(config: ReplConfig) -> i32 {
    let mut stdout = std::io::stdout();
    let mut repl = match Repl::new(config, &mut stdout) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    repl.welcome();
    let mut editor = match line::Editor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return 1;
        }
    };
    loop {
        if let Err(e) = repl.run_bots() {
            repl.say(&format!("error: {e}"));
        }
        repl.status();
        let labels: Vec<String> = {
            let st = repl.game.state();
            match st.topology.as_ref() {
                Some(t) => t.all_labels().map(str::to_string).collect(),
                None => st.grids.iter().flat_map(grid_labels).collect(),
            }
        };
        let mut words: Vec<String> =
            COMMANDS.iter().map(|(c, _)| c.split_whitespace().next().unwrap_or("").to_string()).collect();
        words.extend(["show board", "show hand", "show players", "show bank", "show log"].map(String::from));
        if repl.game.header().sandbox {
            words.extend(["dice", "give", "place"].map(String::from));
        }
        editor.set_candidates(repl.legal_texts().unwrap_or_default(), words, labels);
        let prompt = repl.prompt();
        match editor.read(&prompt) {
            Ok(Some(text)) => {
                if repl.handle(&text) == Step::Quit {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("error: {e}");
                break;
            }
        }
    }
    editor.save_history();
    0
}

/// Groups a long list of legal actions so that a player can read it: actions that share
/// their first two words (`play merchant_caravan`, `build abbey`) and are many become one
/// line with a count and a few examples; `legal WORDS` lists such a group whole.
pub fn group_legal(texts: &[String]) -> Vec<String> {
    const SHORT: usize = 24;
    const GROUP: usize = 6;
    if texts.len() <= SHORT {
        return texts.to_vec();
    }
    let key = |t: &str| t.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    let mut order: Vec<String> = vec![];
    let mut groups: std::collections::HashMap<String, Vec<&String>> = std::collections::HashMap::new();
    for t in texts {
        let k = key(t);
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(t);
    }
    let mut out = vec![];
    for k in order {
        let g = &groups[&k];
        if g.len() <= GROUP {
            out.extend(g.iter().map(|t| t.to_string()));
        } else {
            let eg: Vec<&str> = g.iter().take(3).map(|t| t.as_str()).collect();
            out.push(format!("{k} ... ({} ways, e.g. `{}`; `legal {k}` lists them)", g.len(), eg.join("`, `")));
        }
    }
    out
}
