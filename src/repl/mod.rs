//! `catan play`: the REPL. Interactive with rustyline (history, completion of commands,
//! legal actions and board labels, hints) on a terminal; line by line from stdin
//! otherwise, so a transcript is a test.

mod line;

pub(crate) mod text;

use crate::board::render::{render, RenderOptions};
use crate::bot::external::{ExternalBot, ExternalSeats};
use crate::bot::{Bot, BotKind, Budget, RandomBot};
use crate::engine::{Game, GameError, Header, LogEntry, Observer};
use crate::script::{Message, ScriptErrorKind};
use crate::state::Piece;
use crate::view::view;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
pub use text::{closest, group_legal};

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
    /// For modders: rule refusals with the variant and file:line that refused, and the
    /// test-only actions in `help` (a sandbox game shows the file:line too).
    pub debug: bool,
    /// Script mode for programs: one JSON object per command (`--jsonl`).
    pub jsonl: bool,
    /// Seats played by external programs: `--bot-cmd [SEATS=]COMMAND` values (without
    /// SEATS: every seat but the first), and how long each may think (default: 10 s).
    pub bot_cmds: Vec<String>,
    pub bot_timeout: Option<std::time::Duration>,
    /// Where `quit` and `load` autosave a game with unsaved progress (None: the default,
    /// see [`autosave_dir`]).
    pub autosave_dir: Option<PathBuf>,
}

const COMMANDS: &[(&str, &str)] = &[
    ("help [COMMAND|CARD]", "this list; one command or action in full; the rules text of a card"),
    (
        "legal [WORDS|--json]",
        "every action you may take now (long lists grouped; WORDS: only those starting so; --json for programs)",
    ),
    ("show [board|hand|players|bank|log]", "the board (default), your cards, the players, the bank, the log"),
    ("show card CARD", "the rules text of a card, if the game gives one"),
    ("state --json", "the whole referee state as JSON (shows every hidden card)"),
    ("view --json", "what the player to act may see, as JSON"),
    ("hint", "what the strongest bot would do in your place, and why"),
    ("undo", "take back your last action (and the bots' actions after it)"),
    ("save FILE [--force]", "save the game (header and log) as JSON; --force replaces a save with more actions"),
    ("load FILE", "load a saved game, replaying its log (unsaved progress is autosaved first)"),
    ("quit", "leave (unsaved progress is autosaved; `catan play --resume` continues it)"),
];

const SANDBOX_COMMANDS: &[(&str, &str)] = &[
    ("dice A B", "force the next roll"),
    ("give PLAYER CARDS", "give cards from the bank"),
    ("place PIECE LABEL PLAYER", "put a piece on the board"),
];

impl ReplConfig {
    /// A hot-seat game of `header` (no bots), as typed: no colours, not strict, no
    /// debugging, autosaves to the default folder.
    pub fn new(header: Header) -> ReplConfig {
        ReplConfig {
            header,
            bots: "none".into(),
            budget: Budget::default(),
            strict: false,
            color: false,
            load: None,
            debug: false,
            jsonl: false,
            bot_cmds: vec![],
            bot_timeout: None,
            autosave_dir: None,
        }
    }
}

/// The version of the `--jsonl` answers.
const JSONL_FORMAT: u32 = 1;

/// The one `--jsonl` answer of a game that could not start.
pub fn jsonl_failure(error: &str) -> String {
    serde_json::json!({ "format": JSONL_FORMAT, "command": null, "ok": false, "error": error }).to_string()
}

/// What stands on the intersections and the paths of a board.
type BoardPieces = (Vec<Option<Piece>>, Vec<Option<Piece>>);

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
    /// The program of each seat an external bot plays (`--bot-cmd`).
    external: Vec<Option<ExternalBot>>,
    out: &'w mut dyn Write,
    /// Messages already printed (index into game.messages()).
    shown: usize,
    /// (turn, current seat, seat to act) when the board was last drawn for a human.
    last_turn: Option<(u32, usize, usize)>,
    winner_announced: bool,
    /// (log length, seat) when the status was last printed: print it again only after
    /// something happened or another seat is to act.
    last_status: Option<(usize, usize)>,
    /// Where a loaded save stopped agreeing with its replay, told in the welcome.
    divergence: Option<String>,
    /// The log when the game was last saved or loaded: progress beyond it is unsaved.
    saved: Vec<LogEntry>,
    /// `quit` was refused once because the autosave failed: the next one leaves.
    quit_warned: bool,
    /// The board's pieces when it was last drawn for a human, to draw it again once they
    /// changed (each placement of the set-up rounds).
    last_board: Option<BoardPieces>,
    /// Script mode for programs: the lines of the command being answered, and its data.
    capture: Option<Vec<String>>,
    data: Option<serde_json::Value>,
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
        let mut ext = ExternalSeats::parse(&config.bot_cmds, &game, &(1..players).collect::<Vec<_>>())
            .map_err(GameError::Setup)?;
        ext.timeout = config.bot_timeout;
        let is_bot = (0..players).map(|s| kinds.get(s).is_some_and(Option::is_some) || ext.is_external(s)).collect();
        let bots = (0..players)
            .map(|s| {
                let seed = seed ^ (0xB07 + s as u64 * 7919);
                let kind = if ext.is_external(s) { None } else { kinds.get(s).copied().flatten() };
                kind.map(|kind| match kind {
                    // The random bot keeps its stream of earlier versions: seeded transcripts stay.
                    BotKind::Random => Bot::Random(RandomBot::new(seed)),
                    kind => Bot::new(kind, seed, config.budget),
                })
            })
            .collect();
        let saved = if config.load.is_some() { game.log().to_vec() } else { vec![] };
        let capture = config.jsonl.then(Vec::new);
        Ok(Repl {
            game,
            config,
            is_bot,
            bots,
            external: ext.bots(),
            out,
            shown: 0,
            last_turn: None,
            winner_announced: false,
            last_status: None,
            divergence,
            saved,
            quit_warned: false,
            last_board: None,
            capture,
            data: None,
        })
    }

    fn is_bot(&self, seat: usize) -> bool {
        self.is_bot.get(seat).copied().unwrap_or(false)
    }

    fn say(&mut self, text: &str) {
        match &mut self.capture {
            Some(lines) => lines.extend(text.lines().map(str::to_string)),
            None => {
                let _ = writeln!(self.out, "{text}");
            }
        }
    }

    /// A refusal or failure, always with the same prefix.
    fn error(&mut self, text: &str) {
        self.say(&format!("error: {text}"));
    }

    /// An error as a player reads it: a rule's refusal in the rulebook's words only; the
    /// variant and file:line that refused with `--debug` or in a sandbox game, and always
    /// for script errors (a modder has to fix those).
    fn error_text(&self, e: &GameError) -> String {
        match e {
            GameError::Script(se)
                if se.kind == ScriptErrorKind::Rejected && !self.config.debug && !self.game.header().sandbox =>
            {
                se.message.clone()
            }
            GameError::Script(se) if se.kind == ScriptErrorKind::Rejected => format!("{se}"),
            e => e.to_string(),
        }
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
                if let Some(Some(ext)) = self.external.get(s) {
                    return Some(format!("{} (external: {})", seat_name(&self.game, s), ext.command()));
                }
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
        match self.game.welcome_text() {
            Ok(Some(note)) => {
                for line in note.lines() {
                    self.say(&format!("  {line}"));
                }
            }
            Ok(None) => {}
            Err(e) => self.error(&format!("the variant's welcome note failed: {e}")),
        }
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
            let external = self.external.get_mut(seat).and_then(Option::as_mut);
            let action = if let Some(ext) = external {
                // The same seed for every game of this seat, as the bots of ours get.
                let seed = self.game.header().seed ^ (0xB07 + seat as u64 * 7919);
                ext.choose(&self.game, seat, seed).map_err(GameError::Setup)?
            } else {
                let Some(bot) = self.bots.get_mut(seat).and_then(Option::as_mut) else { break };
                let Some(action) = bot.choose(&mut self.game, seat)? else {
                    self.error(&format!(
                        "{} (bot) has no legal action; stopping the bots",
                        seat_name(&self.game, seat)
                    ));
                    break;
                };
                action
            };
            let text = self.game.action_text(&action);
            match self.game.perform(seat, &action) {
                Ok(_) => {
                    let shown =
                        if self.game.spec().is_secret(&action.name) { secret_text(&self.game, &action) } else { text };
                    self.say(&format!("{} (bot)> {shown}", seat_name(&self.game, seat)));
                    self.flush_messages(None);
                }
                Err(e) => match self.external.get(seat).and_then(Option::as_ref) {
                    Some(ext) => {
                        return Err(GameError::Setup(format!(
                            "the external bot `{}` chose '{text}', which was refused: {e}",
                            ext.command()
                        )))
                    }
                    None => {
                        self.error(&format!("bot action '{text}' was refused: {e}"));
                        break;
                    }
                },
            }
            guard += 1;
            if guard > 100_000 {
                self.error("the bots played 100000 actions without a winner; stopping");
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
        // The marker points at whoever is asked to act (a set-up placement, a discard),
        // not only at the seat whose turn it is.
        let acting = self.game.to_act().unwrap_or(st.current);
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
                if acting == i && self.game.winner().is_none() { "  <- turn" } else { "" },
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
                    out.push_str(&format!("\n    {}: {}", self.zone_title(zone), list.join(", ")));
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
                Some(top) => format!("{}, {top} on top", text::count(c["count"].as_u64().unwrap_or(0), "card")),
                None => "empty".to_string(),
            },
            Some(c) if c.contains_key("count") && c.len() == 1 => text::count(c["count"].as_u64().unwrap_or(0), "card"),
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

    /// What players call a zone (its `title`), never the variant's internal name.
    fn zone_title(&self, zone: &str) -> String {
        let spec = self.game.spec();
        spec.zones.iter().find(|z| z.name == zone).map_or_else(|| zone.replace('_', " "), |z| z.title.clone())
    }

    fn bank_text(&self) -> String {
        let v = view(&self.game, Observer::Spectator);
        let mut out = String::new();
        if let Some(obj) = v["zones"].as_object() {
            for (zone, cards) in obj {
                out.push_str(&format!("  {}: {}\n", self.zone_title(zone), Self::bank_text_zone(cards)));
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

    /// An action's help with the variant's note for the seat to act (what it costs now,
    /// after every house rule), and an error if the note failed.
    fn action_help(&self, a: &crate::spec::ActionSpec) -> String {
        let seat = self.game.to_act().unwrap_or(0);
        match self.game.action_note(seat, &a.name) {
            Ok(Some(note)) => format!("{} ({note})", a.help),
            Ok(None) => a.help.clone(),
            Err(e) => format!("{} (error: {e})", a.help),
        }
    }

    /// The actions a player is shown: test-only ones (`debug = true`) only with --debug.
    fn shown_actions(&self) -> Vec<crate::spec::ActionSpec> {
        self.game.spec().actions.iter().filter(|a| !a.debug || self.config.debug).cloned().collect()
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
        for a in self.shown_actions() {
            out.push_str(&format!("  {:<36} {}\n", a.template(), self.action_help(&a)));
        }
        if self.game.state().grids.is_empty() {
            out.push_str("labels: hexes H1.., intersections 1.., paths by their ends (12-13); cards as `2 ore brick`");
        } else {
            out.push_str("labels: slots by column letter and row number (K2), as `show board` prints them");
        }
        out
    }

    /// `help WORD...`: the commands and actions that start with those words, in full; else
    /// the rules text of a card of that name; else the closest names.
    fn help_topic(&self, words: &[&str]) -> Result<String, String> {
        let want = words.join(" ").to_ascii_lowercase();
        let mut out = vec![];
        let starts = |template: &str| {
            let t = template.to_ascii_lowercase();
            t == want || t.starts_with(&format!("{want} "))
        };
        let mut commands: Vec<(&str, &str)> = COMMANDS.to_vec();
        if self.game.header().sandbox {
            commands.extend_from_slice(SANDBOX_COMMANDS);
        }
        for (c, d) in commands {
            if c.split(" / ").any(starts) {
                out.push(format!("{c}\n  {d}"));
            }
        }
        for a in self.shown_actions() {
            let template = a.template();
            if starts(&template) {
                out.push(format!("{template}\n  {}", self.action_help(&a)));
            }
        }
        // The card too: `help knight`, `help play monopoly`, `help year of plenty`.
        let mut kinds = vec![want.replace(' ', "_")];
        kinds.extend(words.last().filter(|_| words.len() > 1).map(|w| w.to_ascii_lowercase()));
        if let Some(t) = kinds.iter().find_map(|k| self.game.card_text(k).ok().flatten()) {
            out.push(t);
        }
        if !out.is_empty() {
            return Ok(out.join("\n"));
        }
        if let Err(e) = self.game.card_text(&want) {
            return Err(e.to_string());
        }
        let mut names = self.command_names();
        names.extend(self.game.spec().cards.iter().map(|c| c.name.clone()));
        Err(match closest(&want, &names) {
            Some(near) => format!("no command, action or card '{want}'; did you mean `help {near}`?"),
            None => format!("no command, action or card '{want}' (type `help` for the list)"),
        })
    }

    /// Every command word and action's leading words a player may type.
    fn command_names(&self) -> Vec<String> {
        let mut names: Vec<String> =
            COMMANDS.iter().map(|(c, _)| c.split_whitespace().next().unwrap_or("").to_string()).collect();
        names.extend(["show board", "show hand", "show players", "show bank", "show log"].map(String::from));
        if self.game.header().sandbox {
            names.extend(["dice", "give", "place"].map(String::from));
        }
        names.extend(self.shown_actions().iter().map(|a| a.leading_words()));
        names.sort();
        names.dedup();
        names
    }

    /// The text of an error (`msg`), with the closest command when the first words of a
    /// line that did not parse were mistyped.
    fn parse_error_text(&self, line: &str, e: &GameError, msg: String) -> String {
        if !matches!(e, GameError::Parse(_)) {
            return msg;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let names = self.command_names();
        // Each name against as many leading words as it has; a name typed right means the
        // arguments are wrong, and the parse error already says how.
        let mut typed_right = false;
        let mut near: Option<(usize, &String)> = None;
        for n in &names {
            let k = n.split_whitespace().count().min(words.len());
            let typed = words[..k].join(" ").to_ascii_lowercase();
            if typed == *n {
                typed_right = true;
            }
            let d = text::distance(&typed, n);
            if d <= (n.len() / 3).max(1) && near.is_none_or(|(best, _)| d < best) {
                near = Some((d, n));
            }
        }
        match near {
            Some((_, n)) if !typed_right => format!("{msg}; did you mean `{n}`?"),
            _ => msg,
        }
    }

    /// Handles one line typed by the human at the seat to act. Text after `#` is a
    /// comment (`legal` notes costs so).
    fn handle(&mut self, line: &str) -> Step {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return Step::Ok;
        }
        let seat = match self.game.to_act() {
            Ok(s) => s,
            Err(e) => {
                self.error(&e.to_string());
                return Step::Rejected;
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["quit"] | ["exit"] => return self.quit(),
            ["help"] | ["?"] => {
                let t = self.help_text();
                self.say(&t);
            }
            ["help", topic @ ..] => match self.help_topic(topic) {
                Ok(t) => self.say(&t),
                Err(e) => {
                    self.error(&e);
                    return Step::Rejected;
                }
            },
            ["legal", "--json"] => return self.legal_json(seat),
            ["legal", prefix @ ..] => {
                if self.game.winner().is_some() {
                    self.error("the game is over (save, show, or quit)");
                    return Step::Rejected;
                }
                let name = seat_name(&self.game, seat);
                let texts = match self.legal_texts() {
                    Ok(texts) => texts,
                    Err(e) => {
                        self.error(&format!("cannot list {name}'s actions: {e}"));
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
                let notes = self.notes(seat);
                let mut noted = std::collections::HashSet::new();
                for t in lines {
                    // The cost of a kind of action once, on its first line, as a comment
                    // the line can be typed back with; the kind with the most leading
                    // words that fit (`build road`, not `build`).
                    let kind = notes
                        .keys()
                        .filter(|k| t == **k || t.starts_with(&format!("{k} ")))
                        .max_by_key(|k| k.len())
                        .cloned();
                    match kind {
                        Some(kind) if noted.insert(kind.clone()) => self.say(&format!("  {t}   # {}", notes[&kind])),
                        _ => self.say(&format!("  {t}")),
                    }
                }
            }
            ["show", "card", card] => {
                let kind = card.to_ascii_lowercase();
                match self.game.card_text(&kind) {
                    Ok(Some(t)) => self.say(&t),
                    Ok(None) => {
                        self.error(&format!("no card text for '{kind}' (type `help` for the commands)"));
                        return Step::Rejected;
                    }
                    Err(e) => {
                        self.error(&e.to_string());
                        return Step::Rejected;
                    }
                }
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
                self.say_json(v);
            }
            ["view", "--json"] => {
                let v = view(&self.game, Observer::Seat(seat));
                self.say_json(v);
            }
            ["undo"] => return self.undo(),
            ["hint"] => return self.hint(seat),
            ["save", path] | ["save", path, "--force"] => {
                if words.len() == 2 {
                    if let Some(why) = would_lose(path, &self.game) {
                        self.error(&format!("not saved: {why}; `save {path} --force` replaces it, or save elsewhere"));
                        return Step::Rejected;
                    }
                }
                match std::fs::write(path, self.game.save_json()) {
                    Ok(()) => {
                        self.saved = self.game.log().to_vec();
                        self.say(&format!("saved to {path} ({})", text::count(self.game.log().len() as u64, "action")));
                    }
                    Err(e) => {
                        self.error(&format!("cannot save to {path}: {e}"));
                        return Step::Rejected;
                    }
                }
            }
            ["load", path] => return self.load(path),
            ["dice", ..] | ["give", ..] | ["place", ..] if self.game.header().sandbox => {
                match self.game.sandbox(seat, line) {
                    Ok(_) => self.flush_messages(Some(seat)),
                    Err(e) => {
                        self.error(&e.to_string());
                        return Step::Rejected;
                    }
                }
            }
            _ => {
                if self.game.winner().is_some() {
                    self.error("the game is over (save, show, or quit)");
                    return Step::Rejected;
                }
                match self.game.act(seat, line) {
                    Ok(_) => self.flush_messages(Some(seat)),
                    Err(e) => {
                        let text = self.error_text(&e);
                        let text = self.parse_error_text(line, &e, text);
                        self.error(&text);
                        return Step::Rejected;
                    }
                }
            }
        }
        Step::Ok
    }

    /// Prints JSON for a person, or hands it to the JSON Lines answer whole.
    fn say_json(&mut self, v: serde_json::Value) {
        if self.capture.is_some() {
            self.data = Some(v);
        } else {
            let text = serde_json::to_string_pretty(&v).unwrap_or_default();
            self.say(&text);
        }
    }

    /// The variant's note for each kind of action the seat may take, by its leading
    /// words (`road`, `build city`).
    fn notes(&self, seat: usize) -> std::collections::BTreeMap<String, String> {
        let mut out = std::collections::BTreeMap::new();
        for a in self.shown_actions() {
            if let Ok(Some(note)) = self.game.action_note(seat, &a.name) {
                out.entry(a.leading_words()).or_insert(note);
            }
        }
        out
    }

    /// `legal --json`: the seat, every legal action as typed, the templates that cannot be
    /// listed, and the notes (costs) of the kinds of action.
    fn legal_json(&mut self, seat: usize) -> Step {
        let texts = if self.game.winner().is_some() { Ok((vec![], vec![])) } else { self.legal_with_templates(seat) };
        match texts {
            Ok((actions, templates)) => {
                let notes: serde_json::Map<String, serde_json::Value> =
                    self.notes(seat).into_iter().map(|(k, v)| (k, serde_json::Value::from(v))).collect();
                let v = serde_json::json!({
                    "seat": seat_name(&self.game, seat),
                    "game_over": self.game.winner().is_some(),
                    "actions": actions,
                    "templates": templates,
                    "notes": notes,
                });
                let compact = serde_json::to_string(&v).unwrap_or_default();
                if self.capture.is_some() {
                    self.data = Some(v);
                } else {
                    self.say(&compact);
                }
                Step::Ok
            }
            Err(e) => {
                self.error(&format!("cannot list {}'s actions: {e}", seat_name(&self.game, seat)));
                Step::Rejected
            }
        }
    }

    fn legal_with_templates(&self, seat: usize) -> Result<(Vec<String>, Vec<String>), GameError> {
        let (actions, templates) = crate::protocol::legal_actions(&self.game, seat)?;
        Ok((actions.into_iter().map(|(_, text)| text).collect(), templates))
    }

    /// Whether the game holds actions that no save or load has kept.
    fn unsaved(&self) -> bool {
        self.game.log() != self.saved.as_slice()
    }

    /// Saves unsaved progress where `catan play --resume` finds it; says where. Err: it
    /// could not be written (said too).
    fn autosave(&mut self) -> Result<(), ()> {
        if !self.unsaved() {
            return Ok(());
        }
        let dir = match self.config.autosave_dir.clone().or_else(autosave_dir) {
            Some(d) => d,
            None => {
                self.error("cannot autosave: no home folder (set CATAN_HOME)");
                return Err(());
            }
        };
        match write_autosave(&dir, &self.game) {
            Ok(path) => {
                self.saved = self.game.log().to_vec();
                self.say(&format!(
                    "autosaved the game to {} ({}); `catan play --resume` continues it",
                    path.display(),
                    text::count(self.game.log().len() as u64, "action")
                ));
                Ok(())
            }
            Err(e) => {
                self.error(&format!("cannot autosave to {}: {e}", dir.display()));
                Err(())
            }
        }
    }

    /// `quit`: autosaves unsaved progress first; if that fails, the first `quit` stays so
    /// the player can save elsewhere, the second leaves.
    fn quit(&mut self) -> Step {
        if self.autosave().is_err() && !self.quit_warned {
            self.quit_warned = true;
            self.say("  the game is not saved: `save FILE` somewhere else, or `quit` again to leave without it");
            return Step::Rejected;
        }
        Step::Quit
    }

    fn load(&mut self, path: &str) -> Step {
        let (game, div) = match load_game(path) {
            Ok(loaded) => loaded,
            Err(e) => {
                self.error(&format!("cannot load {path}: {e}"));
                return Step::Rejected;
            }
        };
        // The game being replaced is kept if it has unsaved progress.
        if self.autosave().is_err() {
            self.say("  not loaded, so that this game is not lost: `save FILE` it first");
            return Step::Rejected;
        }
        self.game = game;
        self.saved = self.game.log().to_vec();
        self.winner_announced = false;
        self.shown = self.game.messages().len();
        self.last_turn = None;
        self.last_board = None;
        self.is_bot.resize(self.game.header().players, false);
        self.bots.resize_with(self.game.header().players, || None);
        self.external.resize_with(self.game.header().players, || None);
        if let Some(d) = div {
            let text = diverged(path, &d, &self.game);
            self.say(&text);
        }
        self.say(&format!("loaded {path} ({})", text::count(self.game.log().len() as u64, "action")));
        Step::Ok
    }

    /// What the strongest bot would do for `seat`, from that seat's view, and why.
    fn hint(&mut self, seat: usize) -> Step {
        if self.game.winner().is_some() {
            self.error("the game is over (save, show, or quit)");
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
                self.error(&format!("hint failed: {e}"));
                Step::Rejected
            }
        }
    }

    /// Undoes back to before the last action of a human seat.
    fn undo(&mut self) -> Step {
        let log = self.game.log();
        let Some(pos) = log.iter().rposition(|e| !self.is_bot(e.seat)) else {
            self.error("nothing to undo");
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
                self.error(&format!("cannot undo: {e}"));
                Step::Rejected
            }
        }
    }

    /// A short status for the start of a human's decision: the board and the players
    /// when the turn, the seat asked to act or the pieces on the board changed (each
    /// placement of the set-up rounds), then the hand and what is possible.
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
        let (key, pieces) = {
            let st = self.game.state();
            ((st.turn, st.current, seat), (st.intersections.clone(), st.paths.clone()))
        };
        if self.last_turn != Some(key) || self.last_board.as_ref() != Some(&pieces) {
            self.last_turn = Some(key);
            self.last_board = Some(pieces);
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
                self.error(&format!("cannot list {}'s actions: {e}", seat_name(&self.game, seat)));
                return;
            }
        };
        let mut names: Vec<String> =
            texts.iter().map(|t| t.split_whitespace().next().unwrap_or("").to_string()).collect();
        names.sort();
        names.dedup();
        self.say(&format!(
            "  {} to act; possible: {} (type `legal` for details)",
            seat_name(&self.game, seat),
            names.join(", ")
        ));
    }

    /// What a terminal shows before each prompt: the bots' moves, then the status.
    fn before_prompt(&mut self) {
        if let Err(e) = self.run_bots() {
            self.error(&e.to_string());
        }
        self.status();
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
                let seat = crate::protocol::seat_by_name(game, part)
                    .ok_or_else(|| format!("--bots: '{part}' is not a seat (1..{players}) or a colour in this game"))?;
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

/// The folder autosaves go to: `$CATAN_HOME/autosave`, else `~/.catan/autosave`.
pub fn autosave_dir() -> Option<PathBuf> {
    let home = std::env::var_os("CATAN_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".catan")))?;
    Some(home.join("autosave"))
}

/// Writes `game` to a new file in `dir` named after its variants and seed (never over a
/// save it does not continue), and returns the path.
fn write_autosave(dir: &Path, game: &Game) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let h = game.header();
    let stem = format!("{}-seed{}", h.variants.join("+").replace(['/', '\\', '.'], "_"), h.seed);
    let mut path = dir.join(format!("{stem}.json"));
    let mut n = 1;
    while path.exists() && would_lose(&path.to_string_lossy(), game).is_some() {
        n += 1;
        path = dir.join(format!("{stem}-{n}.json"));
    }
    std::fs::write(&path, game.save_json())?;
    Ok(path)
}

/// The most recent autosave (`catan play --resume`).
pub fn last_autosave(dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = dir.or_else(autosave_dir).ok_or("no home folder to look for autosaves in (set CATAN_HOME)")?;
    let entries = std::fs::read_dir(&dir).map_err(|_| format!("no autosaved game in {}", dir.display()))?;
    entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
        .ok_or_else(|| format!("no autosaved game in {}", dir.display()))
}

/// Script mode: reads commands line by line, echoing each (or, with `jsonl`, answering
/// each with one JSON object). Returns the exit status.
pub fn run_script(config: ReplConfig, input: &mut dyn BufRead, out: &mut dyn Write) -> i32 {
    let strict = config.strict;
    let jsonl = config.jsonl;
    let mut repl = match Repl::new(config, &mut *out) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            if jsonl {
                let _ = writeln!(out, "{}", jsonl_failure(&e.to_string()));
            }
            return 1;
        }
    };
    let mut version = 0u64;
    let mut seen = (0usize, None::<LogEntry>);
    repl.welcome();
    // A bot's error stops the bots, not the session: the game is intact and can be saved.
    let mut bots_failed = repl.run_bots().map_err(|e| repl.error(&format!("a bot failed: {e}"))).is_err();
    if jsonl {
        repl.answer(None, true, &mut version, &mut seen);
    }
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => number += 1,
            Err(e) => {
                repl.error(&format!("cannot read the input: {e}"));
                if jsonl {
                    repl.answer(None, false, &mut version, &mut seen);
                }
                return 1;
            }
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            repl.error(&format!("input line {number} is not valid UTF-8; ignored"));
            if jsonl {
                repl.answer(None, false, &mut version, &mut seen);
            }
            if strict {
                return 2;
            }
            continue;
        };
        let text = text.trim().to_string();
        if text.is_empty() {
            continue;
        }
        if !jsonl {
            let prompt = repl.prompt();
            repl.say(&format!("{prompt}{text}"));
        }
        let step = repl.handle(&text);
        if step != Step::Quit {
            if let Err(e) = repl.run_bots() {
                repl.error(&format!("a bot failed: {e}"));
                bots_failed = true;
            }
        }
        if jsonl {
            repl.answer(Some(&text), step != Step::Rejected, &mut version, &mut seen);
        }
        match step {
            Step::Quit => return 0,
            Step::Rejected if strict => return 2,
            _ => {}
        }
    }
    if strict && bots_failed {
        return 2;
    }
    0
}

impl Repl<'_> {
    /// JSON Lines mode: the answer to one command (`command` None: the welcome, or a line
    /// that could not be read) as one object: whether it was done, the error, the lines a
    /// person would have read, the JSON a command printed (`data`), and where the game
    /// stands: `version` grows by one each time the game changed.
    fn answer(&mut self, command: Option<&str>, ok: bool, version: &mut u64, seen: &mut (usize, Option<LogEntry>)) {
        let lines = self.capture.replace(vec![]).unwrap_or_default();
        let data = self.data.take();
        let now = (self.game.log().len(), self.game.log().last().cloned());
        if now != *seen {
            *version += 1;
            *seen = now;
        }
        let error = if ok { None } else { lines.iter().find_map(|l| l.strip_prefix("error: ")).map(str::to_string) };
        let messages: Vec<&str> = lines.iter().map(String::as_str).filter(|l| !l.starts_with("error: ")).collect();
        let mut v = serde_json::json!({
            // The version of this format: a field's meaning changes only with it.
            "format": JSONL_FORMAT,
            "command": command,
            "ok": ok,
            "error": error,
            "messages": messages,
            "version": *version,
            "actions": self.game.log().len(),
            "prompt": self.prompt().trim_end().trim_end_matches('>'),
            "to_act": self.game.to_act().ok().map(|s| seat_name(&self.game, s)),
            "winner": self.game.winner().map(|s| seat_name(&self.game, s)),
        });
        if let Some(d) = data {
            v["data"] = d;
        }
        let _ = writeln!(self.out, "{}", serde_json::to_string(&v).unwrap_or_default());
        let _ = self.out.flush();
    }
}

/// A secret action as others see it: its first words, without the arguments.
fn secret_text(game: &Game, action: &crate::action::Action) -> String {
    let Some(spec) = game.spec().action(&action.name) else { return action.name.clone() };
    format!("{} (hidden)", spec.leading_words())
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
        repl.before_prompt();
        let labels: Vec<String> = {
            let st = repl.game.state();
            match st.topology.as_ref() {
                Some(t) => t.all_labels().map(str::to_string).collect(),
                None => st.grids.iter().flat_map(grid_labels).collect(),
            }
        };
        let words = repl.command_names();
        editor.set_candidates(repl.legal_texts().unwrap_or_default(), words, labels);
        let prompt = repl.prompt();
        let line = match editor.read(&prompt) {
            Ok(Some(text)) => text,
            // End of input (Ctrl-D) leaves like `quit`, keeping unsaved progress.
            Ok(None) => "quit".to_string(),
            Err(e) => {
                eprintln!("error: {e}");
                "quit".to_string()
            }
        };
        if repl.handle(&line) == Step::Quit {
            break;
        }
    }
    editor.save_history();
    0
}

/// A terminal session played from `input` (what `run_interactive` shows, the status
/// before each prompt included, with each line echoed after its prompt), for tests of
/// what a player at the terminal sees.
pub fn run_as_terminal(config: ReplConfig, input: &mut dyn BufRead, out: &mut dyn Write) -> i32 {
    let mut repl = match Repl::new(config, out) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    repl.welcome();
    for line in input.lines() {
        let Ok(line) = line else { return 1 };
        repl.before_prompt();
        let prompt = repl.prompt();
        repl.say(&format!("{prompt}{line}"));
        if repl.handle(&line) == Step::Quit {
            return 0;
        }
    }
    0
}
