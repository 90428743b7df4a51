//! `catan test`: scenario files, a mod's tests in the words of the REPL. A scenario is a
//! set-up (the variant stack, players, seed, options, `sandbox` for the edits), then
//! commands as a player types them and expectations about what follows, in order:
//!
//! ```text
//! # cheap_roads.scenario: roads cost one lumber until turn 12
//! variant docs/examples/cheap_roads.lua
//! seed 3
//! sandbox
//!
//! roll
//! give red 1 lumber
//! expect legal road 37-42
//! road 37-42
//! expect says red builds a road
//! expect red holds 0 lumber
//! expect refused road 31-36: cannot afford
//! ```
//!
//! A command is played by the seat to act (`as blue: accept` by another seat); a refused
//! command fails the scenario unless `expect refused` says so. The first unmet
//! expectation (or refused command) ends the run with its file:line, what was expected,
//! what was found, and the transcript up to it.

use crate::bounded;
use crate::engine::{Game, Header};
use crate::protocol::seat_by_name;
use crate::value::Value;
use std::fmt::Write as _;

/// How a scenario ended.
#[derive(Debug)]
pub struct Outcome {
    /// The scenario's file.
    pub file: String,
    /// Commands played and expectations checked.
    pub commands: usize,
    pub expectations: usize,
    /// The first failure: "file:line: what", and the transcript up to it.
    pub failure: Option<(String, String)>,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

struct Line<'a> {
    number: usize,
    text: &'a str,
}

/// Runs the scenario in `path`. Err: it could not be read or set up (a bad set-up line,
/// a stack that does not load), with its file:line.
pub fn run_file(path: &str) -> Result<Outcome, String> {
    let text = bounded::read_file(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let dir = std::path::Path::new(path).parent().filter(|d| !d.as_os_str().is_empty());
    run(path, &text, dir)
}

/// Runs a scenario's text; `file` names it in messages. A variant named by a path
/// (`./house.lua`) is found in `dir`, the scenario's folder, if it is there, else from
/// the working folder.
pub fn run(file: &str, text: &str, dir: Option<&std::path::Path>) -> Result<Outcome, String> {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .map(|(i, l)| Line { number: i + 1, text: l.split('#').next().unwrap_or("").trim() })
        .filter(|l| !l.text.is_empty())
        .collect();
    let mut header = Header { variants: vec!["base".into()], players: 4, seed: 1, options: vec![], sandbox: false };
    let mut body = 0;
    for (i, l) in lines.iter().enumerate() {
        let (word, rest) = l.text.split_once(char::is_whitespace).map_or((l.text, ""), |(w, r)| (w, r.trim()));
        let at = |what: String| format!("{file}:{}: {what}", l.number);
        match word {
            "variant" => {
                // A file beside the scenario first, else from the working folder.
                let near = |v: &str| match dir {
                    Some(d) if v.ends_with(".lua") && d.join(v).is_file() => d.join(v).display().to_string(),
                    _ => v.to_string(),
                };
                header.variants = rest.split('+').map(|v| near(v.trim())).collect();
            }
            "players" => {
                header.players = rest.parse().map_err(|_| at(format!("players takes a number, not '{rest}'")))?
            }
            "seed" => header.seed = rest.parse().map_err(|_| at(format!("seed takes a number, not '{rest}'")))?,
            "option" => {
                let (k, v) =
                    rest.split_once('=').ok_or_else(|| at(format!("option takes NAME=VALUE, not '{rest}'")))?;
                header.options.push((k.trim().to_string(), v.trim().to_string()));
            }
            "sandbox" if rest.is_empty() => header.sandbox = true,
            _ => {
                body = i;
                break;
            }
        }
        body = i + 1;
    }
    let mut game = Game::new(header).map_err(|e| format!("{file}: the set-up fails: {e}"))?;
    let mut transcript = String::new();
    let mut last_messages: Vec<String> = vec![];
    let (mut commands, mut expectations) = (0, 0);
    for l in &lines[body..] {
        let fail = |what: String, transcript: &str, commands: usize, expectations: usize| {
            Ok(Outcome {
                file: file.to_string(),
                commands,
                expectations,
                failure: Some((format!("{file}:{}: {what}", l.number), transcript.to_string())),
            })
        };
        if let Some(expect) = l.text.strip_prefix("expect ") {
            expectations += 1;
            if let Err(why) = check(&mut game, expect.trim(), &last_messages) {
                return fail(format!("expect {expect}: {why}"), &transcript, commands, expectations);
            }
            continue;
        }
        commands += 1;
        let (seat, command) = match who(&game, l.text) {
            Ok(parsed) => parsed,
            Err(e) => return fail(e, &transcript, commands, expectations),
        };
        let _ = writeln!(transcript, "> {}", l.text);
        let result = play(&mut game, seat, command);
        match result {
            Ok(o) => {
                last_messages = o.messages.into_iter().map(|m| m.text).collect();
                for m in &last_messages {
                    let _ = writeln!(transcript, "  {m}");
                }
            }
            Err(e) => {
                let _ = writeln!(transcript, "error: {e}");
                return fail(format!("'{command}' was refused: {e}"), &transcript, commands, expectations);
            }
        }
    }
    Ok(Outcome { file: file.to_string(), commands, expectations, failure: None })
}

/// Plays a command as the REPL would: a sandbox edit (`dice`, `give`, `place`) in a
/// sandbox game, an action otherwise.
fn play(game: &mut Game, seat: usize, command: &str) -> Result<crate::engine::Outcome, crate::engine::GameError> {
    let edit = matches!(command.split_whitespace().next(), Some("dice" | "give" | "place"));
    if edit && game.header().sandbox {
        game.sandbox(seat, command)
    } else {
        game.act(seat, command)
    }
}

/// The seat a command is played by, and the command: `as blue: accept`, or the seat to act.
fn who<'a>(game: &Game, text: &'a str) -> Result<(usize, &'a str), String> {
    if let Some(rest) = text.strip_prefix("as ") {
        let (name, command) = rest.split_once(':').ok_or_else(|| format!("`as SEAT: COMMAND`, not '{text}'"))?;
        let seat = seat_by_name(game, name).ok_or_else(|| format!("'{}' is not a seat of this game", name.trim()))?;
        return Ok((seat, command.trim()));
    }
    let seat = game.to_act().map_err(|e| format!("no seat is to act: {e}"))?;
    Ok((seat, text))
}

/// Checks one expectation; Err says what was found instead.
fn check(game: &mut Game, expect: &str, last: &[String]) -> Result<(), String> {
    let words: Vec<&str> = expect.split_whitespace().collect();
    let seat = |name: &str| seat_by_name(game, name).ok_or_else(|| format!("'{name}' is not a seat of this game"));
    let name = |s: usize| game.state().players.get(s).map(|p| p.color.to_string()).unwrap_or_default();
    match words.as_slice() {
        ["says", ..] => {
            let want = expect["says".len()..].trim();
            if last.iter().any(|m| m.contains(want)) {
                Ok(())
            } else {
                Err(format!("the last command said: {}", if last.is_empty() { "nothing".into() } else { last.join(" / ") }))
            }
        }
        ["winner", who] => {
            let want = if *who == "none" { None } else { Some(seat(who)?) };
            let got = game.winner();
            if got == want {
                Ok(())
            } else {
                Err(format!("the winner is {}", got.map_or("nobody".to_string(), name)))
            }
        }
        ["to_act", who] => {
            let want = seat(who)?;
            let got = game.to_act().map_err(|e| e.to_string())?;
            if got == want {
                Ok(())
            } else {
                Err(format!("{} is to act", name(got)))
            }
        }
        ["phase", phase] => {
            let got = game.state().phase.clone();
            if got == *phase {
                Ok(())
            } else {
                Err(format!("the phase is {got}"))
            }
        }
        ["turn", n] => {
            let got = game.state().turn;
            if n.parse::<u32>().ok() == Some(got) {
                Ok(())
            } else {
                Err(format!("it is turn {got}"))
            }
        }
        ["points", who, n] => {
            let s = seat(who)?;
            let got = game.points(s, true).map_err(|e| e.to_string())?;
            if n.parse::<i64>().ok() == Some(got) {
                Ok(())
            } else {
                Err(format!("{} has {got} points", name(s)))
            }
        }
        ["var", key, value] => {
            let got = game.state().vars.get(*key).cloned();
            let shown = got.as_ref().map_or("nothing".to_string(), value_text);
            if shown == *value {
                Ok(())
            } else {
                Err(format!("g:get(\"{key}\") is {shown}"))
            }
        }
        [who, "holds", rest @ ..] => holds(game, seat(who)?, &rest.join(" ")),
        ["legal", ..] | ["not", "legal", ..] => {
            let negated = words[0] == "not";
            let action = expect.trim_start_matches("not").trim()["legal".len()..].trim();
            let s = game.to_act().map_err(|e| e.to_string())?;
            let texts: Vec<String> = game
                .legal_actions(s)
                .map_err(|e| e.to_string())?
                .iter()
                .map(|a| game.action_text(a))
                .collect();
            match (texts.iter().any(|t| t == action), negated) {
                (true, false) | (false, true) => Ok(()),
                (false, false) => Err(format!("{} may not: {} legal actions, none of them '{action}'", name(s), texts.len())),
                (true, true) => Err(format!("{} may", name(s))),
            }
        }
        ["refused", ..] => {
            let rest = expect["refused".len()..].trim();
            let (command, words) = rest.split_once(':').map_or((rest, ""), |(c, w)| (c.trim(), w.trim()));
            let (s, command) = who(game, command)?;
            match play(game, s, command) {
                Ok(_) => Err(format!("'{command}' was played (and stays played)")),
                Err(e) if e.to_string().contains(words) => Ok(()),
                Err(e) => Err(format!("it was refused, but with: {e}")),
            }
        }
        _ => Err(
            "not an expectation: says TEXT, SEAT holds N CARD[, N CARD...] [in ZONE], legal ACTION, not legal ACTION, \
             refused COMMAND[: WORDS], winner SEAT|none, to_act SEAT, phase NAME, turn N, points SEAT N, var NAME VALUE"
                .into(),
        ),
    }
}

/// `red holds 2 ore, 1 brick [in hand]`: counts in the seat's zone (default `hand`).
fn holds(game: &Game, seat: usize, what: &str) -> Result<(), String> {
    let (cards, zone) = what.rsplit_once(" in ").map_or((what, "hand"), |(c, z)| (c, z.trim()));
    let spec = game.spec();
    let z = spec
        .zones
        .iter()
        .position(|z| z.name == zone && z.per_player)
        .ok_or_else(|| format!("'{zone}' is not a zone each seat has"))?;
    let st = game.state();
    let held = st.zone(Some(seat), z).ok_or_else(|| format!("seat {} has no '{zone}'", seat + 1))?;
    for part in cards.split(',') {
        let mut it = part.split_whitespace();
        let (Some(n), Some(card), None) = (it.next(), it.next(), it.next()) else {
            return Err(format!("'{}' is not N CARD", part.trim()));
        };
        let n: usize = n.parse().map_err(|_| format!("'{n}' is not a number"))?;
        let kind = spec.cards.iter().position(|c| c.name == card).ok_or_else(|| format!("'{card}' is not a card"))?;
        let got = held.count(kind);
        if got != n {
            return Err(format!("{} holds {got} {card} in {zone}", st.players[seat].color));
        }
    }
    Ok(())
}

fn value_text(v: &Value) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(j) => j.to_string(),
        Err(_) => format!("{v:?}"),
    }
}
