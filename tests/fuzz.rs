//! Fuzzing of the surfaces that take bytes from outside: `catan serve`'s requests, saves,
//! rows of `catan sim --out`, options files, variant files (through the lints' tokenizer
//! and the loader), weights files, and the bounded reader under all of them. Property
//! tests (proptest, on stable: cargo-fuzz needs a nightly toolchain): inputs generated
//! from grammars of each surface and real files mutated byte by byte, each checked to be
//! answered or refused with a reason, never a panic, and, where an answer is an error,
//! with nothing changed.
//!
//! `cargo test` runs a few dozen cases of each (a few seconds in all, on a fixed seed, so
//! CI is repeatable). For longer runs (docs/modding.md, "Fuzzing"):
//!
//! ```sh
//! CATAN_FUZZ_CASES=20000 cargo test --release --test all fuzz:: -- --nocapture
//! CATAN_FUZZ_CASES=20000 CATAN_FUZZ_SEED=7 cargo test --release --test all fuzz::saves
//! ```
//!
//! A case a fuzzer finds is fixed and kept below as a regression (`regressions`), or as
//! a file of `tests/hostile_input/`, which every run reads as seeds too.

use catan_engine::bot::weights::{Evaluator, Tuned, WeightsFile};
use catan_engine::bot::RandomBot;
use catan_engine::engine::{option_args, SaveFile};
use catan_engine::protocol::Server;
use catan_engine::script::{resolve_options, Script};
use catan_engine::sim::{save_from_rows, End, GameRow};
use catan_engine::{bounded, Game, Header};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The runner of one surface: `CATAN_FUZZ_CASES` cases (else `default_cases`), from the
/// stream `CATAN_FUZZ_SEED` (else a fixed one); no failure files: a case found is kept
/// as a test below.
fn fuzz<S: Strategy>(name: &str, default_cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = env("CATAN_FUZZ_CASES").map_or(default_cases, |c| c.min(u64::from(u32::MAX)) as u32);
    let config = Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(env("CATAN_FUZZ_SEED").unwrap_or(30)),
        max_shrink_iters: 2_000,
        ..Config::default()
    };
    let start = std::time::Instant::now();
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, test) {
        panic!("fuzzing {name}: {e}");
    }
    eprintln!("fuzz {name}: {cases} cases in {:.2} s", start.elapsed().as_secs_f64());
}

/// A folder of this test's own under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn manifest(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The files of the hostile-input corpus with extension `ext`, as seeds.
fn corpus(ext: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(manifest("tests/hostile_input"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

// ---------------------------------------------------------------------------------------
// Mutations of real files.

/// One edit of a file's bytes; positions are taken modulo the length at the time.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Replace(usize, u8),
    /// A copy of a piece of the text elsewhere (repeats a key, a table, a log entry).
    Copy(usize, usize, usize),
    Truncate(usize),
}

/// Bytes that mean something to JSON, TOML or Lua, and numbers at the edges.
const TOKENS: &[&str] = &[
    "\"",
    "'",
    "\\",
    "{",
    "}",
    "[",
    "]",
    "[[",
    "]]",
    "[==[",
    "]==]",
    "--",
    "--[[",
    ",",
    ":",
    "=",
    "\n",
    "\r\n",
    "\0",
    "null",
    "true",
    "false",
    "nan",
    "inf",
    "-inf",
    "-1",
    "0",
    "1e308",
    "1e999",
    "-0",
    "4294967296",
    "18446744073709551616",
    "-9223372036854775808",
    "9223372036854775807",
    "0.5",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\u{feff}",
    "\u{10ffff}",
    "é",
    "\u{202e}",
    "[[tuned]]",
    "[a.b]",
    "a = 1",
    "function",
    "end",
    "local",
    "return",
    "while true do end",
    "g:",
    "on(",
    "variant {",
    "part(\"x.lua\")",
    "extends = \"base\"",
    "#",
    "...",
];

fn edit() -> impl Strategy<Value = Edit> {
    let bytes = prop_oneof![
        proptest::sample::select(TOKENS).prop_map(|t| t.as_bytes().to_vec()),
        proptest::collection::vec(any::<u8>(), 1..8),
    ];
    prop_oneof![
        (any::<usize>(), 1..64usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), bytes).prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<usize>(), 1..200usize, any::<usize>()).prop_map(|(from, n, to)| Edit::Copy(from, n, to)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for e in edits {
        let at = |i: usize, b: &Vec<u8>| if b.is_empty() { 0 } else { i % (b.len() + 1) };
        match e {
            Edit::Delete(i, n) => {
                let i = at(*i, &b);
                let end = (i + n).min(b.len());
                b.drain(i..end);
            }
            Edit::Insert(i, bytes) => {
                let i = at(*i, &b);
                b.splice(i..i, bytes.iter().copied());
            }
            Edit::Replace(i, c) => {
                if !b.is_empty() {
                    let i = i % b.len();
                    b[i] = *c;
                }
            }
            Edit::Copy(from, n, to) => {
                let from = at(*from, &b);
                let piece: Vec<u8> = b[from..(from + n).min(b.len())].to_vec();
                let to = at(*to, &b);
                b.splice(to..to, piece);
            }
            Edit::Truncate(i) => {
                let i = at(*i, &b);
                b.truncate(i);
            }
        }
    }
    b
}

/// One of `seeds`, edited up to 3 times (a seed as it is reaches past the parser), or
/// bytes at random.
fn mutated(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        9 => (proptest::sample::select(seeds), proptest::collection::vec(edit(), 0..4))
            .prop_map(|(seed, edits)| apply(&seed, &edits)),
        1 => proptest::collection::vec(any::<u8>(), 0..300),
    ]
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ---------------------------------------------------------------------------------------
// Real files to start from.

fn header(players: usize, seed: u64) -> Header {
    Header { variants: vec!["base".into()], players, seed, options: vec![], sandbox: false }
}

/// A base game of random bots, `actions` long.
fn random_game(seed: u64, actions: usize) -> Game {
    let mut g = Game::new(header(4, seed)).unwrap();
    let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(seed * 7 + s)).collect();
    for _ in 0..actions {
        let Ok(s) = g.to_act() else { break };
        let Some(a) = bots[s].choose(&g, s).unwrap() else { break };
        g.perform(s, &a).unwrap();
    }
    g
}

/// The save of a short random game (about 60 actions: set-up and a few turns).
fn a_save() -> &'static str {
    static SAVE: OnceLock<String> = OnceLock::new();
    SAVE.get_or_init(|| random_game(5, 60).save_json())
}

/// A save file of the same game with a sandbox header and its edits.
fn a_sandbox_save() -> String {
    let mut v: J = serde_json::from_str(a_save()).unwrap();
    v["header"]["sandbox"] = json!(true);
    let log = v["log"].as_array_mut().unwrap();
    log.push(json!({"seat": 0, "command": "give red 3 ore", "sandbox": true}));
    log.push(json!({"seat": 0, "command": "dice 6 6", "sandbox": true}));
    serde_json::to_string_pretty(&v).unwrap()
}

// ---------------------------------------------------------------------------------------
// The bounded reader.

/// Every line it gives is at most the cap; the lines put back together are the input
/// (line ends aside) up to the first line over the cap, which is an error.
#[test]
fn the_bounded_reader_keeps_its_cap() {
    let input = proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), any::<u8>()], 0..200);
    fuzz("bounded reader", 256, (input, 0..20usize), |(bytes, cap)| {
        let mut reader = &bytes[..];
        let mut line = Vec::new();
        let mut lines = vec![];
        let expected: Vec<&[u8]> = {
            let mut parts: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            if bytes.last() == Some(&b'\n') || bytes.is_empty() {
                parts.pop();
            }
            parts
        };
        loop {
            match bounded::read_line(&mut reader, cap, &mut line) {
                Ok(true) => {
                    prop_assert!(line.len() <= cap);
                    lines.push(line.clone());
                }
                Ok(false) => break,
                Err(e) => {
                    prop_assert!(matches!(e, bounded::ReadError::TooLong { .. }), "{}", e);
                    let next = expected.get(lines.len()).copied().unwrap_or_default();
                    prop_assert!(next.len() > cap, "refused a line of {} bytes under the cap {cap}", next.len());
                    prop_assert!(line.is_empty());
                    return Ok(());
                }
            }
        }
        // `\r\n` ends a line as `\n` does; a last line without `\n` keeps its `\r`.
        let ended = |i: usize| i + 1 < expected.len() || bytes.last() == Some(&b'\n');
        let unended: Vec<Vec<u8>> = expected
            .iter()
            .enumerate()
            .map(|(i, l)| if ended(i) { l.strip_suffix(b"\r").unwrap_or(l) } else { l }.to_vec())
            .collect();
        prop_assert_eq!(lines, unended);
        let whole = bounded::read_to_string(&bytes[..], cap);
        prop_assert_eq!(whole.is_ok(), bytes.len() <= cap && std::str::from_utf8(&bytes).is_ok());
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------
// `catan serve`'s requests.

const COMMANDS: &[&str] =
    &["hello", "version", "new", "status", "legal", "act", "view", "save", "load", "undo", "quit"];
const ACTIONS: &[&str] = &[
    "roll",
    "end",
    "robber H5",
    "robber H99",
    "road 12-13",
    "settlement 12",
    "city 12",
    "buy",
    "play knight",
    "bank 4 brick for ore",
    "trade 1 brick for 1 ore with blue",
    "discard 2 brick",
    "steal blue",
    "fly",
    "",
    "give red 3 ore",
    "roll roll",
    "road 0-0",
    "road 99999999999999999999-1",
    "dice 6 6",
    "give red ore 9",
    "place city 12 red",
];

/// JSON of any shape, its leaves from the edges of each type.
fn json_value() -> impl Strategy<Value = J> {
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        prop_oneof![Just(0.5f64), Just(-1.0), Just(1e300), Just(f64::MIN_POSITIVE)].prop_map(|n| json!(n)),
        (0..8u64).prop_map(|n| json!(n)),
        proptest::sample::select(ACTIONS).prop_map(|s| json!(s)),
        proptest::sample::select(&["red", "blue", "spectator", "referee", "1", "base", "rivals", "x.lua"][..])
            .prop_map(|s| json!(s)),
        ".{0,12}".prop_map(J::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(J::Array),
            proptest::collection::btree_map("[a-z]{1,6}", inner, 0..4).prop_map(|m| J::Object(m.into_iter().collect())),
        ]
    })
}

/// An action as the protocol takes it: text, an object of a name and arguments, or junk.
fn action_value() -> impl Strategy<Value = J> {
    let arg = prop_oneof![
        (0..80usize).prop_map(|n| json!({"Hex": n})),
        (0..80usize).prop_map(|n| json!({"Path": n})),
        (0..80usize).prop_map(|n| json!({"Intersection": n})),
        (0..6usize).prop_map(|n| json!({"Player": n})),
        proptest::sample::select(&["brick", "ore", "gold", ""][..]).prop_map(|r| json!({"Resource": r})),
        (any::<i64>()).prop_map(|n| json!({"Int": n})),
        proptest::collection::vec(("[a-z]{1,6}", any::<u32>()), 0..3).prop_map(|c| json!({"Cards": c})),
        json_value(),
    ];
    let name = prop_oneof![
        proptest::sample::select(&["roll", "end", "robber", "road", "settlement", "city", "bank", "trade"][..])
            .prop_map(str::to_string),
        "[a-z]{0,8}",
    ];
    prop_oneof![
        proptest::sample::select(ACTIONS).prop_map(|s| json!(s)),
        (name, proptest::collection::vec(arg, 0..3)).prop_map(|(n, a)| json!({"name": n, "args": a})),
        json_value(),
    ]
}

/// A request: a command of the protocol (or not) with fields of the right names and
/// values of any shape. Paths only name files in `dir` (a `save` writes there).
fn request(dir: String, with_new: bool) -> impl Strategy<Value = J> {
    let cmd = prop_oneof![
        8 => proptest::sample::select(COMMANDS).prop_filter("new", move |c| with_new || *c != "new").prop_map(|c| json!(c)),
        1 => json_value(),
    ];
    let path = prop_oneof![
        (0..3u8).prop_map(move |n| json!(format!("{dir}/f{n}.json"))),
        Just(json!("/no/such/folder/f.json")),
        Just(json!("/dev/null")),
    ];
    let field = prop_oneof![
        Just("id").prop_flat_map(|k| json_value().prop_map(move |v| (k, v))),
        Just("variant").prop_flat_map(|k| {
            prop_oneof![
                proptest::sample::select(&["base", "base+helpers", "nosuch", "base+base", "", "../x.lua"][..])
                    .prop_map(|s| json!(s)),
                json_value()
            ]
            .prop_map(move |v| (k, v))
        }),
        Just("players")
            .prop_flat_map(|k| prop_oneof![(0..8u64).prop_map(|n| json!(n)), json_value()].prop_map(move |v| (k, v))),
        Just("seed").prop_flat_map(|k| json_value().prop_map(move |v| (k, v))),
        Just("options").prop_flat_map(|k| {
            prop_oneof![
                proptest::collection::btree_map(
                    proptest::sample::select(&["board", "victory_points", "robber", "x"][..]).prop_map(str::to_string),
                    json_value(),
                    0..3
                )
                .prop_map(|m| json!(m)),
                json_value()
            ]
            .prop_map(move |v| (k, v))
        }),
        Just("seat").prop_flat_map(|k| json_value().prop_map(move |v| (k, v))),
        Just("action").prop_flat_map(|k| action_value().prop_map(move |v| (k, v))),
        Just("n")
            .prop_flat_map(|k| prop_oneof![(0..5u64).prop_map(|n| json!(n)), json_value()].prop_map(move |v| (k, v))),
        Just("path").prop_flat_map(move |k| path.clone().prop_map(move |v| (k, v))),
        Just("save").prop_flat_map(|k| {
            prop_oneof![mutated(vec![a_save().as_bytes().to_vec()]).prop_map(|b| json!(text(&b))), json_value()]
                .prop_map(move |v| (k, v))
        }),
    ];
    (cmd, proptest::collection::vec(field, 0..4)).prop_map(|(cmd, fields)| {
        let mut m = serde_json::Map::new();
        m.insert("cmd".into(), cmd);
        for (k, v) in fields {
            m.insert(k.into(), v);
        }
        J::Object(m)
    })
}

/// An answer is one line of JSON: an object with `ok`, and an error with a kind.
fn check_answer(line: &str) -> Result<J, TestCaseError> {
    prop_assert!(!line.contains('\n'), "an answer on two lines: {line}");
    let answer: J = serde_json::from_str(line).map_err(|e| TestCaseError::fail(format!("{e}: {line}")))?;
    prop_assert!(answer["ok"].is_boolean(), "{line}");
    if answer["ok"] == json!(false) {
        prop_assert!(answer["error"]["kind"].is_string() && answer["error"]["message"].is_string(), "{line}");
    }
    Ok(answer)
}

/// Request lines of any bytes, and requests of every command, to a server without a game.
#[test]
fn serve_answers_any_line() {
    let dir = scratch("serve").to_string_lossy().into_owned();
    let line = prop_oneof![
        request(dir, true).prop_map(|r| r.to_string()),
        mutated(vec![br#"{"id":1,"cmd":"new","variant":"base","players":4,"seed":1}"#.to_vec()]).prop_map(|b| text(&b)),
        ".{0,40}",
    ];
    fuzz("serve lines", 256, line, |line| {
        let mut server = Server::new();
        check_answer(&server.handle_line(&line))?;
        Ok(())
    });
}

/// A request to a game: any request, or (as `{"pick": I}`) the game's own legal action
/// number I of the seat to act, so that runs of requests reach further into a game.
fn game_request(dir: String) -> impl Strategy<Value = J> {
    prop_oneof![
        2 => request(dir, false),
        1 => action_value().prop_map(|a| json!({"cmd": "act", "action": a})),
        3 => any::<usize>().prop_map(|i| json!({"pick": i})),
    ]
}

/// `{"pick": I}` as an `act` of a legal action of the game (as its text or its object).
fn picked(server: &Server, r: J) -> J {
    let Some(i) = r.get("pick").and_then(J::as_u64) else { return r };
    let Some(game) = server.game() else { return r };
    let Ok(seat) = game.to_act() else { return r };
    let legal = game.legal_actions(seat).unwrap_or_default();
    let Some(a) = legal.get(i as usize % legal.len().max(1)) else { return r };
    if i % 2 == 0 {
        json!({"cmd": "act", "action": game.action_text(a)})
    } else {
        json!({"cmd": "act", "action": a, "seat": seat + 1})
    }
}

/// A game loaded, then requests to it: each is answered, and a request answered with an
/// error leaves the game as it was (its save the same).
#[test]
fn serve_requests_leave_the_game_whole_when_they_fail() {
    let dir = scratch("serve_game").to_string_lossy().into_owned();
    let load = json!({"cmd": "load", "save": a_save()}).to_string();
    let requests = proptest::collection::vec(game_request(dir), 1..12);
    fuzz("serve requests on a game", 48, requests, |requests| {
        let mut server = Server::new();
        check_answer(&server.handle_line(&load))?;
        for r in requests {
            let r = picked(&server, r);
            // The game as a whole: its save (header and log) and its state.
            let whole = |s: &Server| s.game().map(|g| (g.save_json(), serde_json::to_string(&*g.state()).unwrap()));
            let before = whole(&server);
            let answer = check_answer(&server.handle_line(&r.to_string()))?;
            if answer["ok"] == json!(false) {
                prop_assert!(before == whole(&server), "{r} failed ({answer}) and changed the game");
            }
            if server.quit() {
                break;
            }
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------
// Saves.

/// An edit of a save's JSON: its header's fields and its log's entries.
#[derive(Debug, Clone)]
enum SaveEdit {
    Header(&'static str, J),
    Entry(usize, &'static str, J),
    CutLog(usize),
    PushEntry(J),
}

fn save_edit() -> impl Strategy<Value = SaveEdit> {
    let field = proptest::sample::select(&["variants", "players", "seed", "options", "sandbox", "format"][..]);
    let header_value = prop_oneof![
        json_value(),
        (0..10u64).prop_map(|n| json!(n)),
        proptest::collection::vec(
            proptest::sample::select(&["base", "helpers", "rivals", "nosuch", "base.lua", "", "family"][..]),
            0..3
        )
        .prop_map(|v| json!(v)),
        proptest::collection::vec(
            (
                proptest::sample::select(&["board", "victory_points", "starting_pieces", "robber", "x"][..]),
                proptest::sample::select(&["random", "12", "-1", "99999999999999999999", "false", "", "nan"][..])
            ),
            0..3
        )
        .prop_map(|v| json!(v)),
    ];
    let entry_field = proptest::sample::select(&["seat", "command", "draws", "sandbox"][..]);
    let entry_value = prop_oneof![
        json_value(),
        proptest::sample::select(ACTIONS).prop_map(|s| json!(s)),
        proptest::collection::vec(any::<u32>(), 0..4).prop_map(|d| json!(d)),
        (0..6u64).prop_map(|n| json!(n)),
        prop_oneof![Just(u64::MAX), Just(u64::from(u32::MAX) + 1), Just(255)].prop_map(|n| json!(n)),
    ];
    let seat = prop_oneof![4 => 0..6u64, 1 => any::<u64>()];
    let entry = (seat, proptest::sample::select(ACTIONS), proptest::collection::vec(0..12u32, 0..3), any::<bool>())
        .prop_map(|(seat, command, draws, sandbox)| json!({"seat": seat, "command": command, "draws": draws, "sandbox": sandbox}));
    prop_oneof![
        (field, header_value).prop_map(|(f, v)| SaveEdit::Header(f, v)),
        (any::<usize>(), entry_field, entry_value).prop_map(|(i, f, v)| SaveEdit::Entry(i, f, v)),
        any::<usize>().prop_map(SaveEdit::CutLog),
        entry.prop_map(SaveEdit::PushEntry),
    ]
}

fn edit_save(seed: &str, edits: &[SaveEdit]) -> String {
    let mut v: J = serde_json::from_str(seed).unwrap();
    for e in edits {
        match e {
            SaveEdit::Header(f, x) => v["header"][*f] = x.clone(),
            SaveEdit::Entry(i, f, x) => {
                if let Some(log) = v["log"].as_array_mut().filter(|l| !l.is_empty()) {
                    let n = log.len();
                    log[i % n][*f] = x.clone();
                }
            }
            SaveEdit::CutLog(i) => {
                if let Some(log) = v["log"].as_array_mut() {
                    let n = log.len() + 1;
                    log.truncate(i % n);
                }
            }
            SaveEdit::PushEntry(x) => {
                if let Some(log) = v["log"].as_array_mut() {
                    log.push(x.clone());
                }
            }
        }
    }
    v.to_string()
}

/// Saves edited in their fields or their bytes: loaded (as far as the log agrees) or
/// refused with a reason; a save that loads saves again to one that loads the same.
#[test]
fn saves_load_or_say_why() {
    let sandbox = a_sandbox_save();
    let mut seeds = vec![a_save().as_bytes().to_vec(), sandbox.clone().into_bytes()];
    seeds.extend(corpus("json"));
    let save = prop_oneof![
        (proptest::sample::select(vec![a_save().to_string(), sandbox]), proptest::collection::vec(save_edit(), 1..5))
            .prop_map(|(seed, edits)| edit_save(&seed, &edits)),
        mutated(seeds).prop_map(|b| text(&b)),
    ];
    fuzz("saves", 64, save, |text| {
        if let Ok((game, _)) = Game::load_json(&text) {
            let again = game.save_json();
            let (reloaded, divergence) =
                Game::load_json(&again).map_err(|e| TestCaseError::fail(format!("the save of a loaded game: {e}")))?;
            prop_assert!(divergence.is_none(), "{divergence:?}");
            prop_assert_eq!(reloaded.log(), game.log());
        }
        Ok(())
    });
}

/// Rows of `catan sim --out`, edited: a game picked or a reason.
#[test]
fn rows_pick_a_game_or_say_why() {
    let save: SaveFile = serde_json::from_str(a_save()).unwrap();
    let row = |game: usize, side: Option<&str>| {
        let r = GameRow {
            game,
            seed: 5,
            winner: None,
            points: vec![2, 2, 2, 2],
            turns: 3,
            actions: save.log.len(),
            bots: vec!["random".into(); 4],
            end: End::ActionCap,
            reason: String::new(),
            metrics: Default::default(),
            save: Some(save.clone()),
        };
        let mut v = serde_json::to_value(r).unwrap();
        if let Some(s) = side {
            v["side"] = json!(s);
        }
        v.to_string().into_bytes()
    };
    let seeds = vec![row(0, None), row(1, None), row(0, Some("A")), row(0, Some("B"))];
    let lines = proptest::collection::vec(mutated(seeds), 0..4);
    let which = proptest::option::of(prop_oneof![
        proptest::sample::select(&["0", "1", "A:0", "B:0", "C:1", "", ":"][..]).prop_map(str::to_string),
        ".{0,6}"
    ]);
    fuzz("rows", 256, (lines, which), |(lines, which)| {
        let rows = lines.iter().map(|l| Ok(text(l)));
        let _ = save_from_rows(rows, which.as_deref(), "rows.jsonl");
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------
// Options files.

const OPTIONS: &str = "board = \"random\"\nvictory_points = 12\nstarting_pieces = false\ndiscard_limit = 9\n\
                       turn_structure = \"paired\"\nfirst_player = 2\n";

/// Options files of any bytes, and `--option KEY=VALUE`: read and checked against the
/// game's options, or refused with a reason; options that pass start a game or say why.
#[test]
fn options_files_are_read_or_refused() {
    let dir = scratch("options");
    let spec = Script::load(&["base".to_string()]).unwrap().spec;
    let mut seeds = vec![OPTIONS.as_bytes().to_vec()];
    seeds.extend(corpus("toml"));
    let key = proptest::sample::select(
        &["board", "victory_points", "starting_pieces", "discard_limit", "first_player", "robber_desert", "x", ""][..],
    );
    let value = prop_oneof![
        proptest::sample::select(
            &["random", "variable", "3", "0", "-1", "1e9", "99999999999999999999", "true", ""][..]
        )
        .prop_map(str::to_string),
        ".{0,12}",
    ];
    let given = proptest::collection::vec(
        prop_oneof![
            4 => (key, value).prop_map(|(k, v)| format!("{k}={v}")),
            1 => ".{0,12}",
        ],
        0..3,
    );
    let file = dir.join("options.toml");
    fuzz("options files", 256, (mutated(seeds), given, any::<bool>()), |(bytes, given, start)| {
        std::fs::write(&file, &bytes).unwrap();
        let Ok(options) = option_args(Some(&file.to_string_lossy()), &given) else { return Ok(()) };
        if resolve_options(&spec, &options).is_ok() && start {
            let _ = Game::new(Header { options, ..header(4, 1) });
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------
// Variant files.

fn lua_seeds() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> =
        ["docs/examples/charity.lua", "docs/examples/cheap_roads.lua", "variants/base/building.lua"]
            .iter()
            .map(|p| std::fs::read(manifest(p)).unwrap())
            .collect();
    seeds.extend(corpus("lua"));
    seeds
}

/// The lints read any text of a variant file without panicking.
#[test]
fn the_lints_read_any_variant_file() {
    let methods = vec!["roll".to_string(), "log".to_string(), "count".to_string()];
    fuzz("lints", 256, mutated(lua_seeds()), |bytes| {
        let _ = catan_engine::lint::lint(&[("mod.lua".into(), text(&bytes))], &methods);
        Ok(())
    });
}

/// A variant file of any bytes on top of base: loaded and linted by `catan check`'s
/// path, or refused with a reason that names the file.
#[test]
fn variant_files_load_or_say_why() {
    let dir = scratch("variants");
    let file = dir.join("mod.lua");
    let stack = vec!["base".to_string(), file.to_string_lossy().into_owned()];
    fuzz("variant files", 32, mutated(lua_seeds()), |bytes| {
        // As text: a file that is not UTF-8 is refused before Lua sees it.
        std::fs::write(&file, text(&bytes)).unwrap();
        if let Err(e) = Script::load(&stack) {
            prop_assert!(!e.to_string().is_empty());
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------
// Weights files.

/// Weights files edited: read or refused; weights that are read score a game (any
/// number, NaN included, and no panic) and give win chances.
#[test]
fn weights_files_are_read_or_refused() {
    let game = random_game(3, 40);
    let space = catan_engine::bot::features::FeatureSpace::of(&game);
    let mut weights: std::collections::BTreeMap<String, f64> =
        space.names.iter().take(12).enumerate().map(|(i, n)| (n.clone(), i as f64 * 0.25 - 1.0)).collect();
    weights.insert("evaluate".into(), 0.5);
    weights.insert("named.x".into(), 1.0);
    let mut file = WeightsFile::default();
    file.put(Tuned { stack: "base".into(), hash: "0".into(), players: 4, made: "fuzz".into(), weights });
    let mut seeds = vec![file.to_toml().into_bytes()];
    seeds.extend(corpus("toml"));
    fuzz("weights files", 256, mutated(seeds), |bytes| {
        let Ok(file) = WeightsFile::parse(&text(&bytes)) else { return Ok(()) };
        for tuned in file.tuned {
            let evaluator = Evaluator::new(&game, tuned);
            if let Ok(scores) = evaluator.scores(&game) {
                prop_assert_eq!(scores.len(), 4);
                let _ = catan_engine::bot::win_chances(&scores);
            }
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------
// Cases the fuzzers found, kept.

#[test]
fn regressions() {
    // A logged seat past the players, as large as a save can hold: the message named seat
    // `seat + 1`, which overflowed (a panic in debug builds).
    let mut v: J = serde_json::from_str(&a_sandbox_save()).unwrap();
    for seat in [u64::MAX, 4, 255] {
        for i in [0, 61] {
            let mut w = v.clone();
            w["log"][i]["seat"] = json!(seat);
            let (game, divergence) = Game::load_json(&w.to_string()).unwrap();
            assert_eq!(game.log().len(), i, "{divergence:?}");
            let reason = divergence.unwrap().reason;
            assert!(reason.starts_with("there is no seat"), "{reason}");
        }
    }
    // A byte order mark before a save, an options file or a variant file is passed over.
    v["log"] = json!([]);
    let dir = scratch("regressions");
    let file = dir.join("bom.json");
    std::fs::write(&file, format!("\u{feff}{v}")).unwrap();
    assert!(catan_engine::repl::read_save(&file.to_string_lossy()).is_ok());
    std::fs::write(&file, "\u{feff}board = \"random\"\n").unwrap();
    assert_eq!(option_args(Some(&file.to_string_lossy()), &[]).unwrap(), [("board".into(), "random".into())]);
}
