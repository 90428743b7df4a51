//! The table: one game, its bots and its log, on a thread of its own (a `Game` holds its
//! Lua state and is not `Send`). The page's sockets talk to it through a channel: each
//! request comes with the role of the socket's token, is checked against that role here
//! (the server, not the page, keeps hidden information hidden) and answered by
//! [`protocol::Server`], the same requests `catan serve` answers. After every action,
//! each role's view is pushed through a `watch` channel (latest wins: a page that fell
//! behind gets the position now, never a stale one) and the log grows by lines each
//! marked with who may read them.

use crate::bot::external::ExternalBot;
use crate::bot::{Bot, BotKind, Budget, SeatBot};
use crate::engine::{Game, Observer};
use crate::protocol::{self, ProtocolError, Server};
use serde_json::{json, Map, Value as J};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// Who a socket speaks for, from its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// One seat (0-based): its view only, acts only for itself.
    Seat(usize),
    /// The hot-seat page of the one who started the server: acts for every human seat and
    /// is shown the view of the human seat to act.
    Host,
    /// Public information only; no action.
    Spectator,
}

/// One line of the table's log and who may read it.
#[derive(Debug, Clone)]
pub struct LogLine {
    pub text: String,
    /// Only these seats (0-based), when the rules addressed it to them.
    pub to: Option<Vec<usize>>,
    /// Everyone but this seat (the public wording of a secret action).
    pub except: Option<usize>,
    pub bot: bool,
}

impl LogLine {
    fn public(text: String, bot: bool) -> LogLine {
        LogLine { text, to: None, except: None, bot }
    }

    /// Whether `role` may read it; `humans` are the seats the host's page plays.
    pub fn readable(&self, role: Role, humans: &[bool]) -> bool {
        let human = |s: usize| humans.get(s).copied().unwrap_or(false);
        let to_ok = match (&self.to, role) {
            (None, _) => true,
            (Some(to), Role::Seat(s)) => to.contains(&s),
            (Some(to), Role::Host) => to.iter().any(|s| human(*s)),
            (Some(_), Role::Spectator) => false,
        };
        let except_ok = match (self.except, role) {
            (None, _) => true,
            (Some(e), Role::Seat(s)) => e != s,
            // The host read the full line of its human seat.
            (Some(e), Role::Host) => !human(e),
            (Some(_), Role::Spectator) => true,
        };
        to_ok && except_ok
    }
}

/// What each role is shown now, pushed after every change.
#[derive(Debug, Default)]
pub struct Update {
    /// Counts the updates (a page can tell a new one from one it drew).
    pub version: u64,
    /// The log's length when it was made: a socket sends the lines up to there with it,
    /// so that a position and its log lines always go together.
    pub log_length: usize,
    /// By role: seat `s` at `s`, the host at `players`, the spectator at `players + 1`;
    /// each a JSON object as text (None: a bot's seat, which no socket reads).
    pub payloads: Vec<Option<String>>,
}

impl Update {
    pub fn payload(&self, role: Role, players: usize) -> Option<&str> {
        let i = match role {
            Role::Seat(s) => s,
            Role::Host => players,
            Role::Spectator => players + 1,
        };
        self.payloads.get(i).and_then(|p| p.as_deref())
    }
}

/// A request of a socket, with the role of its token and where to answer.
pub struct Job {
    pub role: Role,
    pub request: J,
    pub reply: oneshot::Sender<J>,
}

/// Who plays the seats that are not human.
pub enum Player {
    Human,
    Bot(Box<SeatBot>),
    Program(Box<ExternalBot>),
}

/// The game's thread: the protocol server with its game, the bots, the log.
pub struct Table {
    server: Server,
    players: Vec<Player>,
    humans: Vec<bool>,
    budget: Budget,
    /// Wait this long between two bots' actions (each shows before the next).
    pace: Duration,
    log: Arc<Mutex<Vec<LogLine>>>,
    updates: watch::Sender<Arc<Update>>,
    version: u64,
    /// The human seat the host's page showed last (while a bot acts it stays there).
    host_seat: Option<usize>,
    /// A bot failed or was refused: bots wait for the next human action.
    bots_stopped: bool,
    /// A request changed the game: the updates go out once it is answered.
    changed: bool,
    /// A hint is being thought on its worker thread.
    hint_busy: Arc<AtomicBool>,
}

impl Table {
    pub fn new(
        game: Game,
        players: Vec<Player>,
        budget: Budget,
        pace: Duration,
        log: Arc<Mutex<Vec<LogLine>>>,
        updates: watch::Sender<Arc<Update>>,
    ) -> Table {
        let humans: Vec<bool> = players.iter().map(|p| matches!(p, Player::Human)).collect();
        let host_seat = humans.iter().position(|h| *h);
        let mut table = Table {
            server: Server::with_game(game),
            players,
            humans,
            budget,
            pace,
            log,
            updates,
            version: 0,
            host_seat,
            bots_stopped: false,
            changed: false,
            hint_busy: Arc::new(AtomicBool::new(false)),
        };
        table.welcome();
        table.publish();
        table
    }

    pub fn humans(&self) -> &[bool] {
        &self.humans
    }

    fn game(&self) -> Option<&Game> {
        self.server.game()
    }

    fn push_log(&self, lines: Vec<LogLine>) {
        if let Ok(mut log) = self.log.lock() {
            log.extend(lines);
        }
    }

    fn welcome(&mut self) {
        let Some(game) = self.game() else { return };
        let h = game.header();
        let mut lines = vec![LogLine::public(
            format!("{} for {} players, seed {}", h.variants.join("+"), h.players, h.seed),
            false,
        )];
        if let Ok(Some(w)) = game.welcome_text() {
            lines.push(LogLine::public(w, false));
        }
        if !game.log().is_empty() {
            lines.push(LogLine::public(format!("loaded: {} actions played", game.log().len()), false));
        }
        self.push_log(lines);
    }

    /// The seat to act, if the game goes on.
    fn to_act(&self) -> Option<usize> {
        let game = self.game()?;
        if game.winner().is_some() {
            return None;
        }
        game.to_act().ok()
    }

    fn bot_to_act(&self) -> Option<usize> {
        if self.bots_stopped {
            return None;
        }
        self.to_act().filter(|s| !self.humans.get(*s).copied().unwrap_or(true))
    }

    /// Serves requests until every socket and the server are gone, letting bots act
    /// between them (a request is answered between two bots' actions, never during one).
    pub fn run(mut self, jobs: Receiver<Job>) {
        let mut next_bot = Instant::now();
        loop {
            let job = if self.bot_to_act().is_some() {
                let wait = next_bot.saturating_duration_since(Instant::now());
                match jobs.recv_timeout(wait) {
                    Ok(job) => Some(job),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match jobs.recv() {
                    Ok(job) => Some(job),
                    Err(_) => return,
                }
            };
            match job {
                Some(job) if job.request["cmd"] == "hint" => self.start_hint(job),
                Some(job) => {
                    let answer = self.handle(job.role, &job.request);
                    // A socket that closed before its answer needs none. The answer goes
                    // first; the pages' updates are made after it.
                    let _ = job.reply.send(answer);
                    if std::mem::take(&mut self.changed) {
                        self.publish();
                    }
                }
                None => {
                    self.bot_step();
                    self.publish();
                    next_bot = Instant::now() + self.pace;
                }
            }
        }
    }

    /// One action of the bot to act, logged as the REPL prints it.
    fn bot_step(&mut self) {
        let Some(seat) = self.bot_to_act() else { return };
        let Some(game) = self.server.game_mut() else { return };
        let chosen = match self.players.get_mut(seat) {
            Some(Player::Bot(bot)) => bot.choose(game, seat).map_err(|e| e.to_string()),
            Some(Player::Program(ext)) => {
                let seed = game.header().seed ^ (0xB07 + seat as u64 * 7919);
                ext.choose(game, seat, seed).map(Some)
            }
            _ => Ok(None),
        };
        let color = protocol::color(game, seat);
        let action = match chosen {
            Ok(Some(a)) => a,
            Ok(None) => return self.stop_bots(format!("{color} (bot) has no legal action; the bots stop")),
            Err(e) => return self.stop_bots(format!("{color} (bot) failed: {e}; the bots stop")),
        };
        let request = json!({ "cmd": "act", "seat": seat + 1, "action": action });
        let answer = self.server.handle(&request);
        if answer["ok"] != J::Bool(true) {
            let text = self.game().map(|g| g.action_text(&action)).unwrap_or_default();
            let why = answer["error"]["message"].as_str().unwrap_or("refused").to_string();
            return self.stop_bots(format!("{color} (bot) chose '{text}', which was refused: {why}; the bots stop"));
        }
        self.log_action(seat, &action, &answer, true);
    }

    fn stop_bots(&mut self, text: String) {
        self.bots_stopped = true;
        self.push_log(vec![LogLine::public(format!("error: {text}"), false)]);
    }

    /// The lines an action leaves: who did what (a secret action's arguments only for its
    /// seat), then what it told the table (a message to some seats only for them).
    fn log_action(&mut self, seat: usize, action: &crate::action::Action, answer: &J, bot: bool) {
        let Some(game) = self.game() else { return };
        let color = protocol::color(game, seat);
        let who = if bot { format!("{color} (bot)") } else { color };
        let text = answer["done"].as_str().map(str::to_string).unwrap_or_else(|| game.action_text(action));
        let spec = game.spec();
        let mut lines = vec![];
        if !spec.is_quiet(&action.name) {
            if spec.is_secret(&action.name) {
                let hidden = match spec.action(&action.name) {
                    Some(a) => format!("{} (hidden)", a.leading_words()),
                    None => action.name.clone(),
                };
                lines.push(LogLine { text: format!("{who}> {text}"), to: Some(vec![seat]), except: None, bot });
                lines.push(LogLine { text: format!("{who}> {hidden}"), to: None, except: Some(seat), bot });
            } else {
                lines.push(LogLine::public(format!("{who}> {text}"), bot));
            }
        }
        for m in answer["messages"].as_array().into_iter().flatten() {
            let text = m["text"].as_str().unwrap_or_default().to_string();
            let to = m["to"]
                .as_array()
                .map(|to| to.iter().filter_map(J::as_u64).map(|s| (s as usize).saturating_sub(1)).collect());
            lines.push(LogLine { text, to, except: None, bot });
        }
        if let Some(w) = game.winner() {
            let pts = game.points(w, true).unwrap_or(0);
            lines.push(LogLine::public(
                format!("*** {} wins the game with {pts} points ***", protocol::color(game, w)),
                false,
            ));
        }
        self.push_log(lines);
    }

    /// The seat whose view the host's page shows: the human seat to act, else the last one.
    fn host_shows(&mut self) -> Option<usize> {
        if let Some(s) = self.to_act().filter(|s| self.humans.get(*s).copied().unwrap_or(false)) {
            self.host_seat = Some(s);
        }
        self.host_seat
    }

    /// Every role's payload, pushed to the sockets: each seat's view and legal actions
    /// made and written out once (the host's page shows a seat's), each payload a JSON
    /// object as text, which the sockets send as it is with their log lines added.
    fn publish(&mut self) {
        let host = self.host_shows();
        let Some(game) = self.game() else { return };
        let players = game.header().players;
        let status = J::Object(protocol::status_fields(game)).to_string();
        let humans = &self.humans;
        let human_seats = json!(humans.iter().enumerate().filter(|(_, h)| **h).map(|(s, _)| s + 1).collect::<Vec<_>>());
        let mut shown: HashMap<Option<usize>, (String, String)> = HashMap::new();
        let mut shown_as = |seat: Option<usize>| -> (String, String) {
            shown
                .entry(seat)
                .or_insert_with(|| {
                    let observer = seat.map(Observer::Seat).unwrap_or(Observer::Spectator);
                    let legal = match seat {
                        Some(s) => protocol::legal_json(game, s).unwrap_or_else(|e| json!({ "error": e.to_json() })),
                        None => J::Null,
                    };
                    (crate::view::view(game, observer).to_string(), legal.to_string())
                })
                .clone()
        };
        let mut payload = |role: Role, seat: Option<usize>| -> Option<String> {
            let (view, legal) = shown_as(seat);
            let head = json!({
                "push": "update",
                "role": role_name(game, role),
                "seat": seat.map(|s| s + 1),
                "humans": human_seats,
            })
            .to_string();
            // `head` is an object: its fields, then the ones written out already.
            let head = head.strip_suffix('}')?;
            Some(format!("{head},\"status\":{status},\"legal\":{legal},\"view\":{view}}}"))
        };
        let mut payloads: Vec<Option<String>> = (0..players)
            .map(|s| if humans.get(s).copied().unwrap_or(false) { payload(Role::Seat(s), Some(s)) } else { None })
            .collect();
        payloads.push(payload(Role::Host, host));
        payloads.push(payload(Role::Spectator, None));
        self.version += 1;
        let log_length = self.log.lock().map(|l| l.len()).unwrap_or(0);
        let _ = self.updates.send(Arc::new(Update { version: self.version, log_length, payloads }));
    }

    /// One request of a socket: checked against its role, answered, and every page told
    /// of the change.
    pub fn handle(&mut self, role: Role, request: &J) -> J {
        let id = request.get("id").cloned();
        let checked = match self.game() {
            Some(game) => authorize(game, role, &self.humans, self.host_seat, request),
            None => Err(ProtocolError::new("no_game", "no game")),
        };
        let request = match checked {
            Ok(r) => r,
            Err(e) => return protocol::answer_json(id, Err(e)),
        };
        let cmd = request["cmd"].as_str().unwrap_or_default().to_string();
        let mut request = request;
        if cmd == "undo" && request.get("n").is_none() {
            // As the REPL's `undo`: the last human action, and the bots' after it (else a
            // bot would only play again what was taken back).
            let humans = &self.humans;
            let log = self.game().map(|g| g.log().to_vec()).unwrap_or_default();
            let last = log.iter().rposition(|e| humans.get(e.seat).copied().unwrap_or(false));
            let n = last.map_or(0, |i| log.len() - i);
            if n == 0 {
                return protocol::answer_json(id, Err(ProtocolError::new("setup", "no human action to undo")));
            }
            request["n"] = json!(n);
        }
        if cmd == "hint" {
            let seat = request["seat"].as_u64().map(|s| (s as usize).saturating_sub(1)).unwrap_or(0);
            let Some(game) = self.game() else { return protocol::answer_json(id, Err(no_game())) };
            return protocol::answer_json(id, HintJob::of(game, seat, self.budget).and_then(HintJob::think));
        }
        // Parsed before it is played: the text of the position it was chosen in.
        let action = match cmd.as_str() {
            "act" => self.game().and_then(|g| protocol::parse_action(g, &request["action"]).ok()),
            _ => None,
        };
        let mut answer = self.server.handle(&request);
        let ok = answer["ok"] == J::Bool(true);
        match cmd.as_str() {
            "act" if ok => {
                let seat = request["seat"].as_u64().map(|s| (s as usize).saturating_sub(1)).unwrap_or(0);
                if let Some(action) = action {
                    self.log_action(seat, &action, &answer, false);
                }
                // A message for other seats than this socket's is not its to read.
                if let Some(ms) = answer.get_mut("messages").and_then(J::as_array_mut) {
                    let humans = self.humans.clone();
                    ms.retain(|m| {
                        let to = m["to"].as_array().map(|to| {
                            to.iter().filter_map(J::as_u64).map(|s| (s as usize).saturating_sub(1)).collect()
                        });
                        LogLine { text: String::new(), to, except: None, bot: false }.readable(role, &humans)
                    });
                }
                self.bots_stopped = false;
                self.changed = true;
            }
            "undo" if ok => {
                let n = request["n"].as_u64().unwrap_or(1);
                self.push_log(vec![LogLine::public(format!("(undone: {n} action(s))"), false)]);
                self.bots_stopped = false;
                self.changed = true;
            }
            _ => {}
        }
        answer
    }

    /// A `hint` request, thought on a worker thread of its own so that the table goes on
    /// answering and playing the bots meanwhile (about a second with the default budget):
    /// the worker makes its own game of the same header and puts the position in it (a
    /// `Game` holds a Lua state and cannot leave its thread; its state can). One hint at
    /// a time: another asked meanwhile is refused. The hint is of the position when it
    /// was asked; played after the position changed, the rules judge it as any action.
    fn start_hint(&mut self, job: Job) {
        let Job { role, request, reply } = job;
        let id = request.get("id").cloned();
        let prepared = match self.game() {
            None => Err(no_game()),
            Some(game) => authorize(game, role, &self.humans, self.host_seat, &request).and_then(|request| {
                let seat = request["seat"].as_u64().map(|s| (s as usize).saturating_sub(1)).unwrap_or(0);
                HintJob::of(game, seat, self.budget)
            }),
        };
        let prepared = prepared.and_then(|hint| match self.hint_busy.swap(true, Ordering::AcqRel) {
            true => Err(ProtocolError::new("busy", "a hint is being thought already: wait for it")),
            false => Ok(hint),
        });
        let hint = match prepared {
            Ok(h) => h,
            Err(e) => {
                let _ = reply.send(protocol::answer_json(id, Err(e)));
                return;
            }
        };
        let busy = self.hint_busy.clone();
        let spawned = std::thread::Builder::new().name("catan-web-hint".into()).spawn(move || {
            let answer = protocol::answer_json(id, hint.think());
            busy.store(false, Ordering::Release);
            let _ = reply.send(answer);
        });
        if let Err(e) = spawned {
            self.hint_busy.store(false, Ordering::Release);
            // The answer's channel went with the closure that could not start: the page is
            // told its request failed ("the game's thread stopped"); the log says why.
            self.push_log(vec![LogLine::public(format!("error: cannot think a hint: {e}"), false)]);
        }
    }
}

fn no_game() -> ProtocolError {
    ProtocolError::new("no_game", "no game")
}

/// What a hint needs, taken from the game on the table's thread: all of it `Send`.
struct HintJob {
    header: crate::engine::Header,
    state: crate::state::GameState,
    seat: usize,
    seed: u64,
    budget: Budget,
}

impl HintJob {
    fn of(game: &Game, seat: usize, budget: Budget) -> Result<HintJob, ProtocolError> {
        if let Some(w) = game.winner() {
            return Err(ProtocolError::new("game_over", format!("the game is over: {} won", protocol::color(game, w))));
        }
        // Seeded by the position, so the same game asks the same hint.
        let seed = game.header().seed ^ (game.log().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Ok(HintJob { header: game.header().clone(), state: game.state().clone(), seat, seed, budget })
    }

    /// The REPL's `hint`: what the strongest bot would do for the seat from its view, and
    /// why; on a game of its own, made from the header with the position put in it.
    fn think(self) -> Result<Map<String, J>, ProtocolError> {
        let HintJob { header, state, seat, seed, budget } = self;
        let mut game = Game::new(header).map_err(|e| ProtocolError::new("hint", e.to_string()))?;
        let position = game.snapshot().with_state(state);
        game.restore(&position);
        let game = &mut game;
        let mut bot = Bot::new(BotKind::DEFAULT, seed, budget);
        let mut out = Map::new();
        let Some(d) = bot.decide(game, seat)? else {
            out.insert("hint".into(), J::Null);
            out.insert("why".into(), json!("you have no legal action"));
            return Ok(out);
        };
        let text = game.action_text(&d.action);
        out.insert("text".into(), json!(text));
        out.insert("action".into(), json!(d.action));
        out.insert("why".into(), json!(d.why));
        match crate::bot::explain::explain(game, seat, &d.action, seed) {
            Ok(r) => {
                out.insert("gains".into(), json!(r.gains));
                out.insert("others".into(), json!(r.others));
                out.insert("chance".into(), json!(r.chance.map(|(b, a)| [b, a])));
            }
            Err(e) => {
                out.insert("explain_error".into(), json!(e.to_string()));
            }
        }
        Ok(out)
    }
}

/// How a role is named in a payload: the seat's colour, `host` or `spectator`.
fn role_name(game: &Game, role: Role) -> String {
    match role {
        Role::Seat(s) => protocol::color(game, s),
        Role::Host => "host".into(),
        Role::Spectator => "spectator".into(),
    }
}

fn forbidden(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new("forbidden", message)
}

/// The request as the role may send it, its `seat` filled in, or why not: a seat's socket
/// reads and acts for its own seat only; the host's for the human seats; a spectator's
/// reads the spectator's view and the status. The game is set by `catan web`'s flags, so
/// `new`, `load`, forks and `quit` are refused to every page (`undo` and `save`, which
/// tell the whole log, to all but the host).
pub fn authorize(
    game: &Game,
    role: Role,
    humans: &[bool],
    host_seat: Option<usize>,
    req: &J,
) -> Result<J, ProtocolError> {
    let Some(obj) = req.as_object() else {
        return Err(ProtocolError::new("protocol", "a request is a JSON object"));
    };
    let cmd = match obj.get("cmd") {
        Some(J::String(c)) => c.clone(),
        _ => {
            return Err(ProtocolError::new(
                "protocol",
                "no `cmd` (a page may send hello, status, legal, act, view, hint)",
            ))
        }
    };
    if obj.contains_key("fork") || matches!(cmd.as_str(), "new" | "load" | "fork" | "drop" | "quit") {
        return Err(forbidden(format!(
            "`{cmd}` is not open to a page: the game is the one `catan web` was started with"
        )));
    }
    let human = |s: usize| humans.get(s).copied().unwrap_or(false);
    let to_act = if game.winner().is_some() { None } else { game.to_act().ok() };
    let named = match obj.get("seat") {
        None | Some(J::Null) => None,
        Some(J::String(s)) if s == "spectator" || s == "referee" => None,
        Some(v) => Some(protocol::parse_seat(game, v)?),
    };
    let observer_word = obj.get("seat").and_then(J::as_str).filter(|s| *s == "spectator" || *s == "referee");
    let mut out = obj.clone();
    let set_seat = |out: &mut Map<String, J>, s: usize| {
        out.insert("seat".into(), json!(s + 1));
    };
    match (cmd.as_str(), role) {
        ("hello" | "version" | "status", _) => {}
        ("save" | "undo", Role::Host) => {}
        ("save" | "undo", _) => {
            return Err(forbidden(format!("`{cmd}` is for the host's page only (the log tells every hidden card)")))
        }
        ("view", _) if observer_word == Some("referee") => {
            return Err(forbidden("the referee's view (every hidden card) is not open to a page"))
        }
        ("view", _) if observer_word == Some("spectator") => {}
        ("view", Role::Spectator) => {
            if named.is_some() {
                return Err(forbidden("a spectator sees the spectator's view only"));
            }
            out.insert("seat".into(), json!("spectator"));
        }
        ("legal" | "act" | "hint", Role::Spectator) => {
            return Err(forbidden(format!("a spectator cannot `{cmd}`: open a seat's link to play")))
        }
        ("view" | "legal" | "act" | "hint", Role::Seat(me)) => match named {
            Some(s) if s != me => {
                return Err(forbidden(format!(
                    "this link plays {}, not {}",
                    protocol::color(game, me),
                    protocol::color(game, s)
                )))
            }
            _ => set_seat(&mut out, me),
        },
        ("view" | "legal" | "act" | "hint", Role::Host) => {
            let default = if cmd == "act" { to_act } else { to_act.filter(|s| human(*s)).or(host_seat) };
            let seat = named.or(default).ok_or_else(|| forbidden("no human seat to act for"))?;
            if !human(seat) {
                return Err(forbidden(format!("{} is played by a bot", protocol::color(game, seat))));
            }
            set_seat(&mut out, seat);
        }
        (other, _) => {
            return Err(ProtocolError::new(
                "protocol",
                format!("unknown command '{other}' (a page may send hello, status, legal, act, view, hint)"),
            ))
        }
    }
    Ok(J::Object(out))
}
