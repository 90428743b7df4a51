//! The JSON Lines protocol over stdio (`catan serve`, docs/protocol.md): one JSON object
//! per request line, one JSON object per answer line. Also what the engine sends an
//! external bot (`--bot-cmd`) and how it reads the bot's answer: the legal actions of a
//! seat as structured objects and as typed text, actions given either way. Forks, the
//! copies of a position a program looks ahead on, are in `forks.rs`.
//!
//! A request never changes the game unless it succeeds: every action is all-or-nothing in
//! [`Game::perform`], and `new`, `load` and `undo` replace the game only once the new one
//! is ready.

pub mod forks;

use crate::action::{Action, Arg};
use crate::engine::{Game, GameError, Header, Observer};
use crate::script::ScriptErrorKind;
use crate::view::view;
use serde_json::{json, Map, Value as J};
use std::io::{BufRead, Write};

/// The version of the protocol: a field's meaning changes only with it.
pub const PROTOCOL_VERSION: u32 = 1;

/// The requests `catan serve` answers, by their `cmd`.
pub const COMMANDS: [&str; 12] =
    ["hello", "new", "status", "legal", "act", "view", "save", "load", "undo", "fork", "drop", "quit"];

/// A request that failed, as its answer names it: `kind` is one of `protocol` (not a
/// request: bad JSON, no or unknown `cmd`, a field of the wrong type), `no_game` (no game
/// started yet), `setup` (a game that cannot be created, loaded or undone as asked),
/// `parse` (not an action of this game), `refused` (a rule said no; the game is
/// unchanged), `script` (a variant's script failed; the game is unchanged), `game_over`,
/// and about forks (`forks.rs`): `no_fork` (no open fork of that number), `limit` (a
/// fork past its limits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError {
    pub kind: &'static str,
    pub message: String,
}

impl ProtocolError {
    pub fn new(kind: &'static str, message: impl Into<String>) -> ProtocolError {
        ProtocolError { kind, message: message.into() }
    }

    fn protocol(message: impl Into<String>) -> ProtocolError {
        ProtocolError::new("protocol", message)
    }

    pub fn to_json(&self) -> J {
        json!({ "kind": self.kind, "message": self.message })
    }
}

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} error: {}", self.kind, self.message)
    }
}

impl From<GameError> for ProtocolError {
    fn from(e: GameError) -> ProtocolError {
        match e {
            GameError::Parse(p) if p.is_unknown_command() => {
                ProtocolError::new("parse", format!("{p} (the `legal` request lists the seat's actions)"))
            }
            GameError::Parse(p) => ProtocolError::new("parse", p.0),
            // The rule's own words, then where it refused (variant, file:line).
            GameError::Script(se) if se.kind == ScriptErrorKind::Rejected => {
                ProtocolError::new("refused", se.to_string())
            }
            GameError::Script(se) => ProtocolError::new("script", se.to_string()),
            GameError::Setup(s) => ProtocolError::new("setup", s),
            GameError::Sandbox(s) => ProtocolError::new("refused", s),
        }
    }
}

/// A seat named as `--bots` names seats: its 1-based number or its colour.
pub fn seat_by_name(game: &Game, name: &str) -> Option<usize> {
    let players = game.header().players;
    match name.trim().parse::<usize>() {
        Ok(n) => (n >= 1 && n <= players).then(|| n - 1),
        Err(_) => game.state().players.iter().position(|p| p.color.eq_ignore_ascii_case(name.trim())),
    }
}

/// A seat in a request: its 1-based number or its colour.
pub fn parse_seat(game: &Game, v: &J) -> Result<usize, ProtocolError> {
    let players = game.header().players;
    let found = match v {
        J::Number(n) => n.as_u64().filter(|n| *n >= 1 && *n as usize <= players).map(|n| n as usize - 1),
        J::String(s) => seat_by_name(game, s),
        _ => None,
    };
    found.ok_or_else(|| ProtocolError::protocol(format!("{v} is not a seat (1..{players}) or a colour in this game")))
}

/// The colour of a seat.
pub fn color(game: &Game, seat: usize) -> String {
    game.state().players.get(seat).map(|p| p.color.to_string()).unwrap_or_else(|| format!("seat {}", seat + 1))
}

/// Legal actions with their texts, and the templates of those that cannot be listed.
pub type Listing = (Vec<(Action, String)>, Vec<String>);

/// The legal actions of `seat`, each with the text one types for it, and the templates of
/// those that cannot be listed (trade offers: `offer <cards> for <cards>`). None while the
/// game is over.
pub fn legal_actions(game: &Game, seat: usize) -> Result<Listing, GameError> {
    if game.winner().is_some() {
        return Ok((vec![], vec![]));
    }
    let (actions, templates) = game.legal_with_templates(seat)?;
    Ok((actions.into_iter().map(|a| (a.clone(), game.action_text(&a))).collect(), templates))
}

/// The legal actions of `seat` as the protocol shows them: `{"text", "action"}` objects.
pub fn legal_json(game: &Game, seat: usize) -> Result<J, ProtocolError> {
    let (actions, templates) = legal_actions(game, seat)?;
    let actions: Vec<J> = actions.into_iter().map(|(a, text)| json!({ "text": text, "action": a })).collect();
    Ok(json!({
        "seat": seat + 1,
        "color": color(game, seat),
        "game_over": game.winner().is_some(),
        "actions": actions,
        "templates": templates,
    }))
}

/// An action object with labels where `legal` gives indexes (`{"Hex": "H1"}`, `{"Player":
/// "blue"}`): the same object with the indexes, so that either form is taken.
fn labels_to_indexes(game: &Game, v: &J) -> Result<J, ProtocolError> {
    let mut v = v.clone();
    let Some(args) = v.get_mut("args").and_then(J::as_array_mut) else { return Ok(v) };
    for arg in args.iter_mut() {
        let Some((kind, J::String(label))) = arg.as_object().and_then(|o| o.iter().next()) else { continue };
        let st = game.state();
        if let Some(parsed) = Arg::from_label(game.spec(), &st, kind, label) {
            let parsed = parsed.map_err(|e| ProtocolError::new("parse", format!("{arg} is not an argument: {e}")))?;
            *arg = serde_json::to_value(parsed).map_err(|e| ProtocolError::new("parse", e.to_string()))?;
        }
    }
    Ok(v)
}

/// An action given as the text one types (`"road 12-13"`) or as the structured object
/// of `legal` (`{"name": "road", "args": [{"Path": 17}]}`). A structured action must be
/// one the text can say: it is printed and parsed back, so an index off the board or an
/// argument of the wrong kind is a `parse` error, never a panic in a rule.
pub fn parse_action(game: &Game, v: &J) -> Result<Action, ProtocolError> {
    match v {
        J::String(text) => {
            let st = game.state();
            Ok(Action::parse(game.spec(), &st, text).map_err(GameError::Parse)?)
        }
        J::Object(_) => {
            let v = &labels_to_indexes(game, v)?;
            let action: Action = serde_json::from_value(v.clone()).map_err(|e| {
                ProtocolError::new(
                    "parse",
                    format!("not an action object ({e}): give the text, or an `action` of `legal`"),
                )
            })?;
            let text = game.action_text(&action);
            let st = game.state();
            let back = Action::parse(game.spec(), &st, &text)
                .map_err(|e| ProtocolError::new("parse", format!("{v} is not an action of this game: {e}")))?;
            if back != action {
                return Err(ProtocolError::new(
                    "parse",
                    format!("{v} is not an action of this game (its text '{text}' reads as {})", json!(back)),
                ));
            }
            Ok(action)
        }
        _ => Err(ProtocolError::new("parse", format!("an action is a text or an object, not {v}"))),
    }
}

/// Where the game stands: its set-up, whose turn, who is to act (seats are 1-based;
/// `colors` names them), the winner.
pub fn status_fields(game: &Game) -> Map<String, J> {
    let h = game.header();
    let st = game.state();
    let over = st.winner.is_some();
    let mut m = Map::new();
    m.insert("variants".into(), json!(h.variants));
    m.insert("players".into(), json!(h.players));
    m.insert("colors".into(), json!(st.players.iter().map(|p| p.color.clone()).collect::<Vec<_>>()));
    m.insert("seed".into(), json!(h.seed));
    m.insert("turn".into(), json!(st.turn));
    m.insert("phase".into(), json!(st.phase));
    m.insert("actions".into(), json!(game.log().len()));
    drop(st);
    let to_act = if over { None } else { game.to_act().ok().map(|s| s + 1) };
    m.insert("to_act".into(), json!(to_act));
    m.insert("winner".into(), json!(game.winner().map(|w| w + 1)));
    m
}

/// What the engine sends an external bot when `seat` is to act: the seat, its compact
/// view, the legal actions in both forms, and `seed`: the bot's seed for this game
/// (it changes with every game, so a bot that reseeds on it plays the same game the same
/// way whatever it played before).
pub fn decision_request(game: &Game, seat: usize, seed: u64) -> Result<J, ProtocolError> {
    let legal = legal_json(game, seat)?;
    Ok(json!({
        "protocol": PROTOCOL_VERSION,
        "cmd": "decide",
        "seat": seat + 1,
        "color": color(game, seat),
        "seed": seed,
        "actions_so_far": game.log().len(),
        "view": view(game, Observer::Seat(seat)),
        "legal": legal["actions"],
        "templates": legal["templates"],
    }))
}

/// The action an external bot chose, from its answer line: `{"action": TEXT or OBJECT}`
/// or `{"index": I}` (0-based, into the `legal` list it was sent).
pub fn bot_answer_action(game: &Game, seat: usize, answer: &J) -> Result<Action, ProtocolError> {
    if let Some(i) = answer.get("index") {
        let i = i.as_u64().ok_or_else(|| ProtocolError::protocol(format!("`index` is a number, not {i}")))?;
        let (mut actions, _) = legal_actions(game, seat)?;
        let n = actions.len();
        if i as usize >= n {
            return Err(ProtocolError::new("parse", format!("index {i} is past the {n} legal actions")));
        }
        return Ok(actions.swap_remove(i as usize).0);
    }
    match answer.get("action") {
        Some(a) => parse_action(game, a),
        None => Err(ProtocolError::protocol(format!(
            "an answer is {{\"action\": TEXT or OBJECT}} or {{\"index\": I}}, not {}",
            short(&answer.to_string())
        ))),
    }
}

/// The first 200 characters of a text, for error messages quoting what a program sent.
pub fn short(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(200).collect::<String>())
    }
}

/// A `catan serve` session: at most one game at a time.
#[derive(Default)]
pub struct Server {
    game: Option<Game>,
    /// Copies of the position a program plays on (`fork`), dropped with the game.
    forks: forks::Forks,
    quit: bool,
}

impl Server {
    pub fn new() -> Server {
        Server::default()
    }

    /// A server whose forks stay within `limits` (tests).
    pub fn with_fork_limits(limits: forks::ForkLimits) -> Server {
        Server { forks: forks::Forks::with_limits(limits), ..Server::default() }
    }

    /// A session that serves `game` from the start (`catan web`: the game its flags set).
    pub fn with_game(game: Game) -> Server {
        Server { game: Some(game), ..Server::default() }
    }

    /// The game being played, if one was started or loaded.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The game, for a bot of `catan web` to think on (it searches on snapshots of it).
    pub fn game_mut(&mut self) -> Option<&mut Game> {
        self.game.as_mut()
    }

    /// Whether a `quit` was answered.
    pub fn quit(&self) -> bool {
        self.quit
    }

    /// The answer to one request line, as one line of compact JSON (no newline).
    pub fn handle_line(&mut self, line: &str) -> String {
        let answer = match serde_json::from_str::<J>(line) {
            Ok(req) => self.handle(&req),
            Err(e) => error_answer(None, &ProtocolError::protocol(format!("not JSON: {e}"))),
        };
        answer.to_string()
    }

    /// The answer to one request: `ok`, the request's `id` if it had one, and the fields of
    /// the command, or `error` with its `kind` and `message`.
    pub fn handle(&mut self, req: &J) -> J {
        let id = req.get("id").cloned();
        answer_json(id, self.dispatch(req))
    }

    fn current(&self) -> Result<&Game, ProtocolError> {
        self.game.as_ref().ok_or_else(|| ProtocolError::new("no_game", "no game yet: send {\"cmd\": \"new\"} or load"))
    }

    fn dispatch(&mut self, req: &J) -> Result<Map<String, J>, ProtocolError> {
        let Some(obj) = req.as_object() else {
            return Err(ProtocolError::protocol(format!(
                "a request is a JSON object, not {}",
                short(&req.to_string())
            )));
        };
        let cmd = match obj.get("cmd") {
            Some(J::String(c)) => c.as_str(),
            Some(other) => return Err(ProtocolError::protocol(format!("`cmd` is a string, not {other}"))),
            None => return Err(ProtocolError::protocol(format!("no `cmd` (commands: {})", COMMANDS.join(", ")))),
        };
        if forks::Forks::is_fork_request(cmd, obj) {
            let game = self
                .game
                .as_ref()
                .ok_or_else(|| ProtocolError::new("no_game", "no game yet: send {\"cmd\": \"new\"} or load"))?;
            return self.forks.handle(game, cmd, obj);
        }
        let mut out = Map::new();
        match cmd {
            "hello" | "version" => {
                out.insert("protocol".into(), json!(PROTOCOL_VERSION));
                out.insert("engine".into(), json!(format!("catan-engine {}", env!("CARGO_PKG_VERSION"))));
                out.insert("commands".into(), json!(COMMANDS));
            }
            "new" => {
                let header = new_header(obj)?;
                // Whatever stops the game being made (a variant that does not load, an
                // option, the players) is a set-up error: the current game stays.
                let game = Game::new(header).map_err(setup_error)?;
                self.game = Some(game);
                self.forks.clear();
                out.extend(status_fields(self.current()?));
            }
            "status" => out.extend(status_fields(self.current()?)),
            "legal" => {
                let game = self.current()?;
                let seat = seat_or_to_act(game, obj.get("seat"))?;
                if let J::Object(m) = legal_json(game, seat)? {
                    out.extend(m);
                }
            }
            "act" => {
                let game = self
                    .game
                    .as_mut()
                    .ok_or_else(|| ProtocolError::new("no_game", "no game yet: send {\"cmd\": \"new\"} or load"))?;
                if let Some(w) = game.winner() {
                    return Err(ProtocolError::new("game_over", format!("the game is over: {} won", color(game, w))));
                }
                let seat = seat_or_to_act(game, obj.get("seat"))?;
                let Some(a) = obj.get("action") else {
                    return Err(ProtocolError::protocol("`act` needs an `action`: its text or a structured object"));
                };
                let action = parse_action(game, a)?;
                let outcome = game.perform(seat, &action)?;
                out.insert("done".into(), json!(game.log().last().map(|e| e.command.clone())));
                out.insert("messages".into(), messages_json(&outcome));
                out.extend(status_fields(game));
            }
            "view" => {
                let game = self.current()?;
                out.insert("view".into(), view(game, observer(game, obj.get("seat"))?));
            }
            "save" => {
                let game = self.current()?;
                let save = serde_json::to_value(game.save_file())
                    .map_err(|e| ProtocolError::new("setup", format!("cannot write the save: {e}")))?;
                if let Some(path) = obj.get("path") {
                    let path = path.as_str().ok_or_else(|| ProtocolError::protocol("`path` is a string"))?;
                    std::fs::write(path, game.save_json())
                        .map_err(|e| ProtocolError::new("setup", format!("cannot save to {path}: {e}")))?;
                    out.insert("path".into(), json!(path));
                }
                out.insert("save".into(), save);
            }
            "load" => {
                let text = match (obj.get("save"), obj.get("path")) {
                    (Some(J::String(s)), _) => s.clone(),
                    (Some(v @ J::Object(_)), _) => v.to_string(),
                    (Some(other), _) => {
                        return Err(ProtocolError::protocol(format!(
                            "`save` is the save object (or its text), not {}",
                            short(&other.to_string())
                        )))
                    }
                    (None, Some(J::String(path))) => crate::bounded::read_file(path)
                        .map_err(|e| ProtocolError::new("setup", format!("cannot read {path}: {e}")))?,
                    _ => {
                        return Err(ProtocolError::protocol(
                            "`load` needs `save` (the object `save` answered) or `path`",
                        ))
                    }
                };
                let (game, divergence) = Game::load_json(&text).map_err(setup_error)?;
                let warning = divergence.map(|d| d.to_string());
                self.game = Some(game);
                self.forks.clear();
                out.insert("warning".into(), json!(warning));
                out.extend(status_fields(self.current()?));
            }
            "undo" => {
                let n = match obj.get("n") {
                    None => 1,
                    Some(v) => {
                        v.as_u64().ok_or_else(|| ProtocolError::protocol(format!("`n` is a count, not {v}")))? as usize
                    }
                };
                let game = self
                    .game
                    .as_mut()
                    .ok_or_else(|| ProtocolError::new("no_game", "no game yet: send {\"cmd\": \"new\"} or load"))?;
                game.undo(n)?;
                out.extend(status_fields(game));
            }
            "quit" => self.quit = true,
            other => {
                let names: Vec<String> = COMMANDS.iter().map(|c| c.to_string()).collect();
                let hint = match crate::repl::closest(other, &names) {
                    Some(c) => format!("; did you mean '{c}'?"),
                    None => String::new(),
                };
                return Err(ProtocolError::protocol(format!(
                    "unknown command '{other}'{hint} (commands: {})",
                    COMMANDS.join(", ")
                )));
            }
        }
        Ok(out)
    }
}

/// What an action told the table, for an answer: a message only some seats may read
/// has `to`, their 1-based seats.
fn messages_json(outcome: &crate::engine::Outcome) -> J {
    let messages = outcome.messages.iter().map(|m| match &m.to {
        None => json!({ "text": m.text }),
        Some(to) => json!({ "text": m.text, "to": to.iter().map(|s| s + 1).collect::<Vec<_>>() }),
    });
    J::Array(messages.collect())
}

/// The observer a `view` request names in `seat`: a seat (default: the seat to act),
/// `"spectator"` or `"referee"`.
fn observer(game: &Game, seat: Option<&J>) -> Result<Observer, ProtocolError> {
    Ok(match seat {
        Some(J::String(s)) if s == "spectator" => Observer::Spectator,
        Some(J::String(s)) if s == "referee" => Observer::Referee,
        other => Observer::Seat(seat_or_to_act(game, other)?),
    })
}

fn setup_error(e: GameError) -> ProtocolError {
    ProtocolError::new("setup", e.to_string())
}

/// An answer line: `ok`, the request's `id` if it had one, and the fields of the request,
/// or `error` with its `kind` and `message`.
pub fn answer_json(id: Option<J>, result: Result<Map<String, J>, ProtocolError>) -> J {
    match result {
        Ok(fields) => {
            let mut m = Map::new();
            if let Some(id) = id {
                m.insert("id".into(), id);
            }
            m.insert("ok".into(), J::Bool(true));
            m.extend(fields);
            J::Object(m)
        }
        Err(e) => error_answer(id, &e),
    }
}

fn error_answer(id: Option<J>, e: &ProtocolError) -> J {
    let mut m = Map::new();
    if let Some(id) = id {
        m.insert("id".into(), id);
    }
    m.insert("ok".into(), J::Bool(false));
    m.insert("error".into(), e.to_json());
    J::Object(m)
}

fn seat_or_to_act(game: &Game, v: Option<&J>) -> Result<usize, ProtocolError> {
    match v {
        Some(J::Null) | None => {
            if let Some(w) = game.winner() {
                return Err(ProtocolError::new(
                    "game_over",
                    format!("the game is over ({} won): name a `seat`", color(game, w)),
                ));
            }
            Ok(game.to_act()?)
        }
        Some(v) => parse_seat(game, v),
    }
}

/// The game `new` asks for: `variant` ("base+helpers" or ["base", "helpers"]), `players`
/// (default: the variant's), `seed` (default: from the clock, answered), `options`
/// ({"KEY": VALUE}).
fn new_header(obj: &Map<String, J>) -> Result<Header, ProtocolError> {
    let variants: Vec<String> = match obj.get("variant").or_else(|| obj.get("variants")) {
        None | Some(J::Null) => vec!["base".into()],
        Some(J::String(s)) => s.split('+').map(|s| s.trim().to_string()).collect(),
        Some(J::Array(a)) => {
            a.iter().map(|v| v.as_str().map(str::to_string)).collect::<Option<_>>().ok_or_else(|| {
                ProtocolError::protocol("`variant` is a stack like \"base+helpers\" or a list of names")
            })?
        }
        Some(other) => {
            return Err(ProtocolError::protocol(format!("`variant` is a text like \"base+helpers\", not {other}")))
        }
    };
    let mut options = vec![];
    match obj.get("options") {
        None | Some(J::Null) => {}
        Some(J::Object(m)) => {
            for (k, v) in m {
                let v = match v {
                    J::String(s) => s.clone(),
                    J::Bool(_) | J::Number(_) => v.to_string(),
                    other => {
                        return Err(ProtocolError::protocol(format!(
                            "option {k}: a text, number or true/false, not {other}"
                        )))
                    }
                };
                options.push((k.clone(), v));
            }
        }
        Some(other) => {
            return Err(ProtocolError::protocol(format!("`options` is an object {{\"KEY\": VALUE}}, not {other}")))
        }
    }
    let seed = match obj.get("seed") {
        None | Some(J::Null) => {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
        }
        Some(v) => v.as_u64().ok_or_else(|| ProtocolError::protocol(format!("`seed` is a whole number, not {v}")))?,
    };
    let players = match obj.get("players") {
        None | Some(J::Null) => {
            crate::script::Script::load(&variants).map_err(|e| setup_error(e.into()))?.spec.default_players
        }
        Some(v) => {
            v.as_u64().ok_or_else(|| ProtocolError::protocol(format!("`players` is a number, not {v}")))? as usize
        }
    };
    Ok(Header { variants, players, seed, options, sandbox: false })
}

/// `catan serve`: answers each request line of `input` with one line on `output`, until
/// the input ends or a `quit`. Blank lines are skipped. A line over
/// [`bounded::LINE_CAP`](crate::bounded::LINE_CAP) is answered with a `protocol` error
/// and ends the session (exit status 1): nothing past the cap is read, so the next
/// request cannot be found. Returns the exit status.
pub fn serve(input: &mut dyn BufRead, output: &mut dyn Write) -> i32 {
    use crate::bounded::{self, ReadError};
    let mut server = Server::new();
    let mut line = Vec::new();
    loop {
        let answer = match bounded::read_line(input, bounded::LINE_CAP, &mut line) {
            Ok(false) => return 0,
            Ok(true) => match bounded::line_text(&line) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => server.handle_line(text.trim()),
                Err(_) => error_answer(None, &ProtocolError::protocol("the line is not valid UTF-8")).to_string(),
            },
            Err(e @ ReadError::TooLong { .. }) => {
                let e = ProtocolError::protocol(format!("the line is {e}; the session ends"));
                let _ = writeln!(output, "{}", error_answer(None, &e)).and_then(|()| output.flush());
                eprintln!("error: {}", e.message);
                return 1;
            }
            Err(e) => {
                eprintln!("error: cannot read the input: {e}");
                return 1;
            }
        };
        if writeln!(output, "{answer}").and_then(|()| output.flush()).is_err() {
            // The reader went away: nobody is left to answer.
            return 0;
        }
        if server.quit() {
            return 0;
        }
    }
}
