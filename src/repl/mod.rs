//! `catan play`: the REPL. Interactive with rustyline (history, completion of commands,
//! legal actions and board labels, hints) on a terminal; line by line from stdin
//! otherwise, so a transcript is a test.

mod help;
mod line;
mod modes;
mod saves;
mod show;

pub(crate) mod text;

pub use modes::{jsonl_failure, run_as_terminal, run_interactive, run_script};
pub use saves::{autosave_dir, last_autosave, read_save};
pub use text::{closest, group_legal};

use crate::bot::external::{seat_named_programs, ExternalBot, ExternalSeats};
use crate::bot::{Bot, BotKind, BotSpec, Budget, SeatBot};
use crate::engine::{Game, GameError, Header, LogEntry, Observer};
use crate::script::{Message, ScriptErrorKind};
use crate::state::{Piece, Shared};
use crate::view::view;
use saves::{diverged, load_game, would_lose};
use std::io::Write;
use std::path::PathBuf;

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
    /// Reload the rules before a prompt when a file of the stack changed on disk
    /// (`--watch`), as `reload` does.
    pub watch: bool,
    /// Whether the bots make offers of their own (actions the rules cannot list, such as
    /// a trade offer) on their turns; they answer the humans' offers either way. Off with
    /// `--no-offers`, switched with `offers on|off`.
    pub bot_offers: bool,
    /// The terminal's height in lines, where there is one: the board is drawn again by
    /// itself (after a build, an undo, each turn) only when it fits with the status.
    /// None (input piped, or unknown): only `show board` draws it.
    pub terminal_rows: Option<usize>,
    /// Hot seat at a terminal: before a human's hand is shown to a human other than the
    /// last one, wait for Enter ("pass to blue, press Enter").
    pub hot_seat_pause: bool,
}

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
            watch: false,
            bot_offers: true,
            terminal_rows: None,
            hot_seat_pause: false,
        }
    }
}

/// What stands on the intersections and the paths of a board (shared with the state: a copy is two counts).
type BoardPieces = (Shared<Vec<Option<Piece>>>, Shared<Vec<Option<Piece>>>);

/// What `show` shows (`show card CARD` aside).
const SHOWS: &[&str] = &["board", "hand", "cards", "players", "bank", "log"];

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
    bots: Vec<Option<SeatBot>>,
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
    /// The human seat whose status the terminal showed last (the hot-seat pause).
    screen_seat: Option<usize>,
}

fn seat_name(game: &Game, seat: usize) -> String {
    game.state().players.get(seat).map(|p| p.color.to_string()).unwrap_or_else(|| format!("seat {}", seat + 1))
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
        // Programs named in --bots (`blue=ext`, `--bot-cmd ext=COMMAND`) sit in their seats.
        let (bots_spec, bot_cmds) =
            seat_named_programs(&config.bots, &config.bot_cmds, &game).map_err(GameError::Setup)?;
        let kinds = parse_bots(&bots_spec, &game).map_err(GameError::Setup)?;
        let mut ext =
            ExternalSeats::parse(&bot_cmds, &game, &(1..players).collect::<Vec<_>>()).map_err(GameError::Setup)?;
        ext.timeout = config.bot_timeout;
        let is_bot = (0..players).map(|s| kinds.get(s).is_some_and(Option::is_some) || ext.is_external(s)).collect();
        let bots = (0..players)
            .map(|s| {
                let seed = seed ^ (0xB07 + s as u64 * 7919);
                let spec = if ext.is_external(s) { None } else { kinds.get(s).cloned().flatten() };
                spec.map(|spec| {
                    let mut bot = SeatBot::new(&spec, seed, config.budget, &game)?;
                    bot.bot.set_own_offers(config.bot_offers);
                    Ok(bot)
                })
                .transpose()
            })
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| GameError::Setup(format!("--bots: {e}")))?;
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
            screen_seat: None,
        })
    }

    /// After a load or a reload: the bots' own weights are read again for the game's stack.
    fn rebind_bots(&mut self) {
        let game = &self.game;
        let failed: Vec<String> = self
            .bots
            .iter_mut()
            .enumerate()
            .filter_map(|(s, b)| {
                let e = b.as_mut()?.rebind(game).err()?;
                Some(format!("{}'s weights: {e}; it plays with the stack's own evaluation", seat_name(game, s)))
            })
            .collect();
        failed.iter().for_each(|e| self.error(e));
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
        // A modder's `g:debug` lines, under --debug only (never in the log).
        if self.config.debug {
            match self.game.take_debug() {
                Ok(lines) => {
                    for l in lines {
                        self.say(&format!("  debug: {l}"));
                    }
                }
                Err(e) => self.error(&format!("cannot read the g:debug lines: {e}")),
            }
        }
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
                let spec = &self.bots.get(s)?.as_ref()?.spec;
                Some(format!("{} ({})", seat_name(&self.game, s), spec.name()))
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
        if let Some(path) = self.config.load.clone() {
            let t = text::wrap_line(&self.continuing_text(&path), text::COLUMNS, 4).join("\n");
            self.say(&t);
        }
        if let Some(d) = self.divergence.take() {
            self.say(&d);
        }
        self.flush_messages(None);
    }

    /// Which game a loaded or resumed session continues: the save, its variant, where the
    /// game stands and who plays which seat.
    fn continuing_text(&self, path: &str) -> String {
        let h = self.game.header();
        // (The state is read apart: it is borrowed from the rules, which to_act calls.)
        let turn = self.game.state().turn;
        let when = match text::round(turn, h.players) {
            Some(round) => format!("round {round} (turn {turn})"),
            None => "the set-up".to_string(),
        };
        let seats: Vec<String> = (0..h.players)
            .map(|s| format!("{}{}", seat_name(&self.game, s), if self.is_bot(s) { " (bot)" } else { "" }))
            .collect();
        let now = match (self.game.winner(), self.game.to_act()) {
            (Some(w), _) => format!("{} has won", seat_name(&self.game, w)),
            (None, Ok(s)) => format!("{} to act", seat_name(&self.game, s)),
            (None, Err(_)) => "nobody to act".to_string(),
        };
        format!(
            "  continuing {path}: {} with {} players, seed {}, {when}, {}; seats {}; {now}",
            h.variants.join("+"),
            h.players,
            h.seed,
            text::count(self.game.log().len() as u64, "action"),
            seats.join(", ")
        )
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
                    if !self.game.spec().is_quiet(&action.name) {
                        self.say(&format!("{} (bot)> {shown}", seat_name(&self.game, seat)));
                    }
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
                self.say(&format!("*** {name} wins the game with {} ***", text::count(pts.max(0) as u64, "point")));
                let table = self.players_text();
                self.say(&table);
                let summary = self.end_summary();
                self.say(&summary);
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
        match text::round(st.turn, self.game.header().players) {
            Some(round) => format!("[round {round} {} {}]> ", seat_name(&self.game, seat), st.phase),
            None => format!("[{} {}]> ", seat_name(&self.game, seat), st.phase),
        }
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
                let lines = if prefix.is_empty() {
                    group_legal(&texts)
                } else {
                    let want = prefix.join(" ").to_ascii_lowercase();
                    texts.into_iter().filter(|t| t.to_ascii_lowercase().starts_with(&want)).collect()
                };
                if lines.is_empty() && !prefix.is_empty() {
                    self.say(&format!(
                        "{name} may do nothing that starts with '{}' now (`legal` lists what {name} may do)",
                        prefix.join(" ")
                    ));
                    return Step::Ok;
                }
                self.say(&format!("{name} may:"));
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
                    // What a spot yields beside an action on an intersection (`settlement 20`).
                    let mut comment: Vec<String> = self.spot_note(&t).into_iter().collect();
                    if let Some(kind) = kind.filter(|k| noted.insert(k.clone())) {
                        comment.push(notes[&kind].clone());
                    }
                    match comment.is_empty() {
                        true => self.say(&format!("  {t}")),
                        false => self.say(&format!("  {t}   # {}", comment.join("; "))),
                    }
                    if let Some(best) = self.best_spots(&t) {
                        self.say(&best);
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
            ["show"] | ["show", "board"] | ["board"] | ["show", "board", "full"] | ["board", "full"] => {
                let t = self.board_text(words.last() == Some(&"full"));
                self.say(&t);
                // Slot grids carry no points or tokens of their own: list the players too.
                if self.game.state().topology.is_none() && !self.game.state().grids.is_empty() {
                    let t = self.players_text();
                    self.say(&t);
                }
            }
            ["show", "hand"] | ["show", "cards"] | ["hand"] => {
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
            ["show", what @ ..] if !matches!(*what, ["card", _]) => {
                let what = what.join(" ");
                let names: Vec<String> = SHOWS.iter().map(|w| w.to_string()).collect();
                let near = match closest(&what, &names) {
                    Some(n) => format!("did you mean `show {n}`?"),
                    None => format!("`show` shows: {}", SHOWS.join(", ")),
                };
                self.error(&format!("nothing to show as '{what}'; {near}"));
                return Step::Rejected;
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
            ["reload"] => return self.reload(),
            ["trace", rest @ ..] => {
                let json = rest.contains(&"--json");
                let action: Vec<&str> = rest.iter().copied().filter(|w| *w != "--json").collect();
                return self.trace(seat, &action.join(" "), json);
            }
            ["offers"] => {
                let t = self.offers_text();
                self.say(&t);
            }
            ["offers", on @ ("on" | "off")] => {
                self.config.bot_offers = *on == "on";
                let on = self.config.bot_offers;
                self.bots.iter_mut().flatten().for_each(|b| b.bot.set_own_offers(on));
                let t = self.offers_text();
                self.say(&t);
            }
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

    /// `trace`: the hooks that ran for the last action, or for `action` tried by `seat` on
    /// a copy of the game (which stays as it is either way).
    fn trace(&mut self, seat: usize, action: &str, json: bool) -> Step {
        let traced = if action.is_empty() { self.game.trace_last() } else { self.game.trace(seat, action).map(Some) };
        let t = match traced {
            Ok(Some(t)) => t,
            Ok(None) => {
                self.error("no action yet to trace: `trace ACTION` tries one on a copy of the game");
                return Step::Rejected;
            }
            Err(e) => {
                self.error(&format!("cannot trace: {e}"));
                return Step::Rejected;
            }
        };
        if json {
            self.say_json(serde_json::to_value(&t).unwrap_or_default());
            return Step::Ok;
        }
        let who = seat_name(&self.game, t.seat);
        let tried = if action.is_empty() { "" } else { ", tried on a copy" };
        self.say(&format!("trace of '{}' by {who}{tried}:", t.command));
        for e in &t.entries {
            self.say(&format!("  {}", e.text()));
        }
        if t.dropped > 0 {
            self.say(&format!("  ({} more entries past the cap of 2000)", t.dropped));
        }
        // The messages the one typing may read (the rules' own values above are shown as
        // the rules saw them: `trace` is the modder's view).
        let readable: Vec<&str> = match &t.result {
            Ok(msgs) => msgs
                .iter()
                .filter(|m| m.to.as_ref().is_none_or(|to| to.contains(&seat)))
                .map(|m| m.text.as_str())
                .collect(),
            Err(_) => vec![],
        };
        match &t.result {
            Ok(_) if readable.is_empty() => self.say("result: done"),
            Ok(_) => self.say(&format!("result: done: {}", readable.join(" / "))),
            Err(e) => self.say(&format!("result: refused: {e}")),
        }
        Step::Ok
    }

    /// The `offers` setting, as a player reads it.
    fn offers_text(&self) -> String {
        if self.config.bot_offers {
            "offers on: the bots may make trade offers on their turns (`offers off` stops them)".into()
        } else {
            "offers off: the bots make no offers of their own; they still answer yours (`offers on`)".into()
        }
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
                // Actions the rules cannot list (an offer, a counter) are choices too.
                let templates = self.game.legal_with_templates(seat).map(|(_, t)| t).unwrap_or_default();
                let search = if d.why != crate::bot::ONLY_ACTION || templates.is_empty() {
                    d.why.clone()
                } else {
                    format!("the only action listed; you may also `{}`", templates.join("`, `"))
                };
                self.say(&format!("hint: {text}"));
                match crate::bot::explain::explain(&mut self.game, seat, &d.action, seed) {
                    Ok(r) => {
                        let gains = if r.gains.is_empty() { "nothing at once".to_string() } else { r.gains.join("; ") };
                        self.say(&format!("  what it does for you: {gains}"));
                        if !r.others.is_empty() {
                            self.say(&format!("  for the others: {}", r.others.join("; ")));
                        }
                        if let Some((b, a)) = r.chance.filter(|(b, a)| (a - b).abs() >= 0.005) {
                            self.say(&format!(
                                "  your win chance by the evaluation: {:.0}% -> {:.0}%",
                                100.0 * b,
                                100.0 * a
                            ));
                        }
                    }
                    Err(e) => self.error(&format!("hint: cannot say why: {e}")),
                }
                self.say(&format!("  ({search})"));
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

    /// What a terminal shows before each prompt: the bots' moves (the status comes after
    /// the hot-seat pause, [`Repl::pass_to`]).
    fn before_prompt(&mut self) {
        if let Err(e) = self.run_bots() {
            self.error(&e.to_string());
        }
    }

    /// Hot seat: when the screen must pass from one human to another before the status
    /// shows the next one's hand, that player's name. Only with `hot_seat_pause` and more
    /// than one human at the terminal.
    fn pass_to(&mut self) -> Option<String> {
        if !self.config.hot_seat_pause || self.game.winner().is_some() {
            return None;
        }
        let humans = (0..self.game.header().players).filter(|s| !self.is_bot(*s)).count();
        let seat = self.game.to_act().ok()?;
        let before = self.screen_seat.replace(seat);
        (humans > 1 && before.is_some_and(|b| b != seat)).then(|| seat_name(&self.game, seat))
    }
}

/// "2,3", "blue=mcts,white=greedy", "all", "all=random", "random", "none" -> the bot of each
/// seat (None: a human); a seat named without a kind gets the default (strongest) bot, a
/// kind named alone plays every seat but the first. A kind may name its weights as `catan
/// sim --bots` does: `blue=planner@tuned.toml`, `planner@none`.
pub fn parse_bots(spec: &str, game: &Game) -> Result<Vec<Option<BotSpec>>, String> {
    let players = game.header().players;
    let mut bots = vec![None; players];
    let kind_of = |part: &str| -> Result<(String, BotSpec), String> {
        match part.split_once('=') {
            Some((seat, kind)) => {
                Ok((seat.trim().to_string(), BotSpec::parse(kind).map_err(|e| format!("--bots: {e}"))?))
            }
            None => Ok((part.trim().to_string(), BotKind::DEFAULT.into())),
        }
    };
    match spec.trim() {
        "none" | "" => {}
        all if all == "all" || all.starts_with("all=") => {
            let (_, kind) = kind_of(all)?;
            bots.iter_mut().for_each(|b| *b = Some(kind.clone()));
        }
        list => {
            for part in list.split(',') {
                // A kind alone, as `catan sim --bots` takes it: every seat but the first.
                if let Ok(kind) = BotSpec::parse(part) {
                    bots.iter_mut().skip(1).for_each(|b| *b = Some(kind.clone()));
                    continue;
                }
                let (part, kind) = kind_of(part)?;
                let part = part.as_str();
                let seat = crate::protocol::seat_by_name(game, part).ok_or_else(|| {
                    let colors: Vec<String> = game.state().players.iter().map(|p| p.color.to_string()).collect();
                    format!(
                        "--bots: '{part}' is not a seat (1..{players}), a colour ({}) or a bot ({}); \
                         e.g. `--bots 2,3`, `--bots random` (every seat but the first) or `--bots blue=greedy`",
                        colors.join(", "),
                        BotKind::ALL.map(|k| k.name()).join(", ")
                    )
                })?;
                bots[seat] = Some(kind);
            }
        }
    }
    Ok(bots)
}

/// A secret action as others see it: its first words, without the arguments.
fn secret_text(game: &Game, action: &crate::action::Action) -> String {
    let Some(spec) = game.spec().action(&action.name) else { return action.name.clone() };
    format!("{} (hidden)", spec.leading_words())
}
