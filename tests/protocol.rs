//! The JSON Lines protocol (docs/protocol.md): `catan serve` request by request, the
//! errors that leave the game as it was, and external bots (`--bot-cmd`) playing whole
//! games through `catan sim` and `catan play`, including bots that crash, hang or cheat.
//! Every run of the binary has a deadline, so a hang fails the test.
//!
//! The every-variant run is ignored by default (minutes of Python):
//! `cargo test --test all protocol:: -- --ignored --nocapture`.

use catan_engine::protocol::{Server, PROTOCOL_VERSION};
use serde_json::{json, Value as J};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common;
use common::process::{catan_in, Run};

/// The example random bot, as a `--bot-cmd` command.
fn random_bot() -> String {
    format!("python3 '{}/examples/bots/random_bot.py'", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `catan ARGS` with `input` on stdin; kills it and fails after `secs` seconds.
fn catan(args: &[&str], input: &str, secs: u64) -> Run {
    catan_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args, input, secs)
}

/// One request through a server, its answer parsed.
fn ask(server: &mut Server, request: J) -> J {
    let line = server.handle_line(&request.to_string());
    assert!(!line.contains('\n'), "an answer is one line: {line}");
    serde_json::from_str(&line).unwrap()
}

fn new_base(server: &mut Server) -> J {
    ask(server, json!({"cmd": "new", "variant": "base", "players": 4, "seed": 1}))
}

fn save(server: &mut Server) -> J {
    ask(server, json!({"cmd": "save"}))["save"].clone()
}

/// The transcript of docs/protocol.md, answer by answer (the long lists field by field).
#[test]
fn a_transcript_of_requests_gets_these_answers() {
    let mut s = Server::new();
    let hello = ask(&mut s, json!({"id": 1, "cmd": "hello"}));
    assert_eq!(hello["protocol"], json!(PROTOCOL_VERSION));
    assert_eq!(hello["protocol"], json!(1));
    assert_eq!(hello["id"], json!(1));
    assert_eq!(hello["ok"], json!(true));
    assert_eq!(
        s.handle_line(r#"{"id":2,"cmd":"new","variant":"base","players":4,"seed":1}"#),
        r#"{"actions":0,"colors":["red","blue","white","orange"],"id":2,"ok":true,"phase":"roll","players":4,"seed":1,"to_act":1,"turn":1,"variants":["base"],"winner":null}"#
    );
    assert_eq!(
        s.handle_line(r#"{"id":3,"cmd":"legal"}"#),
        r#"{"actions":[{"action":{"args":[],"name":"roll"},"text":"roll"}],"color":"red","game_over":false,"id":3,"ok":true,"seat":1,"templates":[]}"#
    );
    assert_eq!(
        s.handle_line(r#"{"id":4,"cmd":"act","action":"roll"}"#),
        r#"{"actions":1,"colors":["red","blue","white","orange"],"done":"roll","id":4,"messages":[{"text":"red rolls 6+1 = 7"}],"ok":true,"phase":"robber","players":4,"seed":1,"to_act":1,"turn":1,"variants":["base"],"winner":null}"#
    );
    // The robber's hexes: each action as an object and as its text.
    let legal = ask(&mut s, json!({"cmd": "legal", "seat": "red"}));
    let actions = legal["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 18, "every hex but the robber's");
    assert_eq!(actions[0], json!({"text": "robber H1", "action": {"name": "robber", "args": [{"Hex": 0}]}}));
    // Acting with the structured object, as a bot picking from the list would.
    let done = ask(&mut s, json!({"id": 5, "cmd": "act", "action": actions[4]["action"]}));
    assert_eq!(done["ok"], json!(true), "{done}");
    assert_eq!(done["done"], json!("robber H5"));
    let status = ask(&mut s, json!({"cmd": "status"}));
    assert_eq!(status["actions"], json!(2));
    assert_eq!(status["winner"], J::Null);
    // The view of a seat, compact: the seat sees its own hand, not the others'.
    let view = ask(&mut s, json!({"cmd": "view", "seat": 2}));
    assert_eq!(view["view"]["observer"], json!("blue"));
    assert!(view["view"]["players"][0]["zones"]["hand"].get("count").is_some(), "red's hand is hidden from blue");
    let line = s.handle_line(r#"{"cmd":"view","seat":"blue"}"#);
    assert!(!line.contains("\n  "), "compact, not pretty-printed");
    // Undo takes back the robber; save, load and the game goes on from the same place.
    let undone = ask(&mut s, json!({"cmd": "undo"}));
    assert_eq!((undone["actions"].clone(), undone["phase"].clone()), (json!(1), json!("robber")));
    let saved = save(&mut s);
    assert_eq!(saved["log"].as_array().unwrap().len(), 1);
    let mut other = Server::new();
    let loaded = ask(&mut other, json!({"cmd": "load", "save": saved}));
    assert_eq!(loaded["ok"], json!(true), "{loaded}");
    assert_eq!(loaded["warning"], J::Null);
    assert_eq!(save(&mut other), saved);
    assert_eq!(ask(&mut s, json!({"cmd": "quit"})), json!({"ok": true}));
    assert!(s.quit());
}

/// The runnable example of docs/protocol.md ("Try it") answers exactly as the page shows.
#[test]
fn the_transcript_of_the_docs_is_what_the_server_answers() {
    let doc = include_str!("../docs/protocol.md");
    let start = doc.find("printf '%s\\n' \\\n").expect("the example's printf");
    let end = start + doc[start..].find("| cargo run").expect("the example's pipe");
    let requests: Vec<&str> =
        doc[start..end].lines().skip(1).filter_map(|l| l.trim().strip_prefix('\'')?.split('\'').next()).collect();
    assert_eq!(requests.len(), 9, "{requests:?}");
    let answers_at = end + doc[end..].find("```json\n").expect("the answers") + "```json\n".len();
    let answers: Vec<&str> = doc[answers_at..].lines().take_while(|l| !l.starts_with("```")).collect();
    let mut s = Server::new();
    let got: Vec<String> = requests.iter().map(|r| s.handle_line(r)).collect();
    assert_eq!(got, answers);
}

/// Bad JSON, unknown commands, bad fields, actions that do not parse or that a rule
/// refuses: each answered with an error of its kind, the game exactly as it was.
#[test]
fn errors_have_a_kind_and_leave_the_game_intact() {
    let mut s = Server::new();
    let no_game = ask(&mut s, json!({"id": "a", "cmd": "legal"}));
    assert_eq!(no_game["error"]["kind"], json!("no_game"), "{no_game}");
    assert_eq!(no_game["id"], json!("a"));
    new_base(&mut s);
    ask(&mut s, json!({"cmd": "act", "action": "roll"}));
    let before = save(&mut s);
    let cases: Vec<(&str, &str)> = vec![
        ("{not json", "protocol"),
        ("[1,2]", "protocol"),
        (r#"{"id":7}"#, "protocol"),
        (r#"{"cmd":"legl"}"#, "protocol"),
        (r#"{"cmd":42}"#, "protocol"),
        (r#"{"cmd":"act"}"#, "protocol"),
        (r#"{"cmd":"legal","seat":9}"#, "protocol"),
        (r#"{"cmd":"act","action":"fly to the moon"}"#, "parse"),
        (r#"{"cmd":"act","action":"road 99-100"}"#, "parse"),
        (r#"{"cmd":"act","action":{"name":"robber","args":[{"Hex":999}]}}"#, "parse"),
        (r#"{"cmd":"act","action":{"name":"robber","args":[{"Path":3}]}}"#, "parse"),
        (r#"{"cmd":"act","action":{"nom":"end"}}"#, "parse"),
        (r#"{"cmd":"act","action":7}"#, "parse"),
        (r#"{"cmd":"act","action":"end"}"#, "refused"),
        (r#"{"cmd":"act","action":"robber H1","seat":"blue"}"#, "refused"),
        (r#"{"cmd":"undo","n":99}"#, "setup"),
        (r#"{"cmd":"load","save":{"format":1}}"#, "setup"),
        (r#"{"cmd":"new","variant":"no_such_variant"}"#, "setup"),
        (r#"{"cmd":"new","players":9}"#, "setup"),
        (r#"{"cmd":"new","options":{"victory_points":"many"}}"#, "setup"),
    ];
    for (line, kind) in cases {
        let answer: J = serde_json::from_str(&s.handle_line(line)).unwrap();
        assert_eq!(answer["ok"], json!(false), "{line}: {answer}");
        assert_eq!(answer["error"]["kind"], json!(kind), "{line}: {answer}");
        assert!(!answer["error"]["message"].as_str().unwrap().is_empty(), "{line}");
        assert_eq!(save(&mut s), before, "{line} changed the game");
    }
    let unknown: J = serde_json::from_str(&s.handle_line(r#"{"cmd":"legl"}"#)).unwrap();
    assert!(unknown["error"]["message"].as_str().unwrap().contains("did you mean 'legal'"), "{unknown}");
    // Still playable.
    let done = ask(&mut s, json!({"cmd": "act", "action": "robber H5"}));
    assert_eq!(done["ok"], json!(true), "{done}");
}

#[test]
fn a_finished_game_answers_game_over() {
    // A whole game by the engine's random bots, loaded through the protocol.
    let header =
        catan_engine::Header { variants: vec!["rivals".into()], players: 2, seed: 3, options: vec![], sandbox: false };
    let mut game = catan_engine::Game::new(header).unwrap();
    let result = catan_engine::sim::play_game(&mut game, |_| Ok(())).unwrap();
    let winner = result.winner.expect("the game is won");
    let mut s = Server::new();
    let loaded = ask(&mut s, json!({"cmd": "load", "save": game.save_json()}));
    assert_eq!((loaded["winner"].clone(), loaded["to_act"].clone()), (json!(winner + 1), J::Null), "{loaded}");
    let before = save(&mut s);
    let over = ask(&mut s, json!({"cmd": "act", "action": "end"}));
    assert_eq!(over["error"]["kind"], json!("game_over"), "{over}");
    let legal = ask(&mut s, json!({"cmd": "legal", "seat": 1}));
    assert_eq!((legal["game_over"].clone(), legal["actions"].clone()), (json!(true), json!([])));
    assert_eq!(ask(&mut s, json!({"cmd": "legal"}))["error"]["kind"], json!("game_over"));
    assert_eq!(save(&mut s), before);
    // Undo makes it a game again.
    let undone = ask(&mut s, json!({"cmd": "undo"}));
    assert_eq!(undone["winner"], J::Null, "{undone}");
    assert!(undone["to_act"].is_number(), "{undone}");
}

/// The binary: `catan serve` reads lines until the input ends, skips blank ones, answers
/// a line that is not JSON and goes on.
#[test]
fn catan_serve_answers_line_by_line() {
    let input = "{\"cmd\":\"hello\"}\n\nnot json\n{\"id\":1,\"cmd\":\"new\",\"seed\":1}\n{\"cmd\":\"act\",\"action\":\"roll\"}\n";
    let run = catan(&["serve"], input, 60);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let answers: Vec<J> = run.out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), 4, "{}", run.out);
    assert_eq!(answers[0]["protocol"], json!(1));
    assert_eq!(answers[1]["error"]["kind"], json!("protocol"));
    assert_eq!(answers[2]["to_act"], json!(1));
    assert_eq!(answers[3]["messages"], json!([{"text": "red rolls 6+1 = 7"}]));
}

fn sim_json(args: &[&str], secs: u64) -> J {
    let mut all = vec!["sim", "--json"];
    all.extend_from_slice(args);
    let run = catan(&all, "", secs);
    assert_eq!(run.code, Some(0), "{args:?}\n{}", run.err);
    serde_json::from_str(&run.out).unwrap_or_else(|e| panic!("{e}: {}", run.out))
}

/// Through the protocol, the example random bot plays complete games: every seat of the
/// base game, one seat of Rivals.
#[test]
fn an_external_random_bot_plays_complete_games() {
    let bot = random_bot();
    let base = sim_json(&["--variant", "base", "--games", "2", "--seed", "1", "--bot-cmd", &bot], 300);
    assert_eq!((base["finished"].clone(), base["failed"].clone()), (json!(2), json!([])), "{base}");
    let rivals = sim_json(
        &["--variant", "rivals", "--players", "2", "--games", "2", "--seed", "1", "--bot-cmd", &format!("1={bot}")],
        300,
    );
    assert_eq!((rivals["finished"].clone(), rivals["failed"].clone()), (json!(2), json!([])), "{rivals}");
    // Wins by kind: the external seat apart from the random bot's.
    assert_eq!(rivals["bots"]["external"]["seats"], json!(1), "{rivals}");
    assert_eq!(rivals["bots"]["random"]["seats"], json!(1), "{rivals}");
    let wins = &rivals["bots"];
    assert_eq!(wins["external"]["wins"].as_u64().unwrap() + wins["random"]["wins"].as_u64().unwrap(), 2);
}

/// A deterministic external bot gives the same games on any number of workers, each
/// worker with processes of its own.
#[test]
fn external_bots_are_deterministic_across_workers() {
    let bot = random_bot();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let rows = |jobs: &str| {
        let out = dir.join(format!("protocol-{}-jobs{jobs}.csv", std::process::id()));
        let out = out.to_string_lossy().to_string();
        let args = [
            "sim",
            "--variant",
            "rivals",
            "--players",
            "2",
            "--games",
            "3",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--bot-cmd",
            &bot,
            "--out",
            &out,
        ];
        let run = catan(&args, "", 300);
        assert_eq!(run.code, Some(0), "{}", run.err);
        std::fs::read_to_string(&out).unwrap()
    };
    let one = rows("1");
    assert!(one.contains("external,external"), "{one}");
    assert_eq!(rows("2"), one);
}

/// A bot that crashes, hangs, answers garbage or an illegal action: the game is counted
/// as an error with the reason, the run ends (no hang, no panic).
#[test]
fn failing_external_bots_are_errors_with_reasons() {
    let cases = [
        ("python3 -c 'import sys; sys.exit(3)'", "closed its output without answering"),
        ("python3 -c 'import time; time.sleep(30)'", "did not answer within 0.5 s"),
        // Written after the request (before it, it would be a line no request asked for).
        ("python3 -c 'input(); print(\"hello\", flush=True); input()'", "not JSON"),
        (
            "python3 -u -c 'import sys\nfor l in sys.stdin: print(\"{\\\"action\\\": \\\"fly\\\"}\")'",
            "unknown command 'fly'",
        ),
        ("python3 -u -c 'import sys\nfor l in sys.stdin: print(\"{\\\"index\\\": 9999}\")'", "past the"),
        (
            "python3 -u -c 'import sys\nfor l in sys.stdin: print(\"{\\\"action\\\": \\\"end\\\"}\")'",
            "which was refused",
        ),
        ("no_such_program_anywhere", "closed its output without answering"),
    ];
    for (cmd, want) in cases {
        // Only the bot that sleeps is meant to run out of time; the others get time enough
        // for Python to start on a loaded machine.
        let timeout = if want.starts_with("did not answer") { "0.5" } else { "10" };
        let start = Instant::now();
        let r =
            sim_json(&["--games", "2", "--seed", "1", "--jobs", "1", "--bot-timeout", timeout, "--bot-cmd", cmd], 60);
        assert!(start.elapsed() < Duration::from_secs(30), "{cmd}: {:?}", start.elapsed());
        let failed = r["failed"].as_array().unwrap();
        assert_eq!(failed.len(), 2, "{cmd}: {r}");
        let error = failed[0]["error"].as_str().unwrap();
        assert!(error.contains(want) && error.contains("external bot"), "{cmd}: {error}");
    }
}

/// `catan play --bot-cmd`: the program plays its seat as the bots of ours do, and one
/// that fails is said, not fatal: the session goes on.
#[test]
fn play_with_an_external_bot() {
    let bot = random_bot();
    let flag = format!("blue={bot}");
    let run = catan(&["play", "--seed", "7", "--bots", "none", "--bot-cmd", &flag], "roll\nend\nshow players\n", 60);
    assert_eq!(run.code, Some(0), "{}", run.err);
    assert!(run.out.contains("blue (external: python3"), "{}", run.out);
    assert!(run.out.contains("blue (bot)> roll"), "{}", run.out);
    let crash = "blue=python3 -c 'import sys; sys.exit(1)'";
    let run = catan(&["play", "--seed", "7", "--bots", "none", "--bot-cmd", crash], "roll\nend\nshow players\n", 60);
    assert_eq!(run.code, Some(0), "{}", run.err);
    assert!(run.out.contains("error: a bot failed: the external bot"), "{}", run.out);
    assert!(run.out.contains("closed its output without answering"), "{}", run.out);
    let bad = catan(&["play", "--seed", "7", "--bot-cmd", "purple=python3 x.py"], "", 60);
    assert_eq!(bad.code, Some(1));
    assert!(bad.err.contains("'purple' is not a seat"), "{}", bad.err);
}

/// Every edition through the protocol: the example bot in every seat, complete games.
/// Ignored by default (minutes); run with
/// `cargo test --test all protocol:: -- --ignored --nocapture` (`CATAN_PROTOCOL_GAMES`: games
/// per variant, default 5; `CATAN_PROTOCOL_ONLY=rivals`: the variants so named).
#[test]
#[ignore]
fn an_external_random_bot_finishes_every_variant() {
    let bot = random_bot();
    let runs: &[(&str, &str, &[&str])] = &[
        ("base", "4", &[]),
        ("base", "5", &[]),
        ("base", "6", &[]),
        ("base", "6", &["--option", "turn_structure=paired"]),
        ("family", "4", &[]),
        ("classic", "4", &[]),
        ("base+helpers", "4", &[]),
        ("rivals", "2", &[]),
        // The theme sets at 7 points, as their own random-bot tests play them: random
        // bots take thousands of actions to 12 (their attacks undo what they build).
        ("rivals_turmoil", "2", &["--option", "victory_points=7"]),
        ("rivals_progress", "2", &["--option", "victory_points=7"]),
        ("rivals_gold", "2", &["--option", "victory_points=7"]),
        ("rivals_duel", "2", &["--option", "victory_points=7"]),
    ];
    let only = std::env::var("CATAN_PROTOCOL_ONLY").ok();
    let games = std::env::var("CATAN_PROTOCOL_GAMES").unwrap_or_else(|_| "5".into());
    for (variant, players, extra) in runs {
        if only.as_deref().is_some_and(|o| !variant.starts_with(o)) {
            continue;
        }
        let mut args = vec!["--variant", variant, "--players", players, "--games", &games, "--seed", "1"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--bot-cmd", &bot]);
        let r = sim_json(&args, 3600);
        println!(
            "{variant} ({players} players{}): {} of {} finished, {} failed, mean actions {:.0}, {:.2} games/s",
            extra.iter().map(|e| format!(" {e}")).collect::<String>(),
            r["finished"],
            r["games"],
            r["failed"].as_array().map_or(0, Vec::len),
            r["mean_actions"].as_f64().unwrap_or(0.0),
            r["games_per_second"].as_f64().unwrap_or(0.0)
        );
        assert_eq!(r["failed"], json!([]), "{variant}: {r}");
        assert_eq!(r["finished"], r["games"], "{variant}: {r}");
    }
}
