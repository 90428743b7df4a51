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

use crate::bot::external::{ExternalBot, ExternalSeats};
use crate::bot::{Bot, BotKind, Budget, RandomBot};
use crate::engine::{Game, GameError, Header, LogEntry, Observer};
use crate::script::{Message, ScriptErrorKind};
use crate::state::Piece;
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
        }
    }
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

/// A secret action as others see it: its first words, without the arguments.
fn secret_text(game: &Game, action: &crate::action::Action) -> String {
    let Some(spec) = game.spec().action(&action.name) else { return action.name.clone() };
    format!("{} (hidden)", spec.leading_words())
}
