//! Bytes from outside: every file the engine reads (saves, `catan sim --out` rows, options
//! files, variant files and their parts, weights files) and every line it reads from
//! another program (`catan serve`'s and `catan play`'s input, an external bot's answers)
//! goes through one bounded reader (`src/bounded.rs`). Input over a cap is a clear error
//! after reading at most the cap, never memory running out or a hang; an external bot is
//! read only while a request waits for its answer.
//!
//! Each run of the binary has a deadline and, on Unix, a cap on its address space (the
//! shell's `ulimit -v`), so a reader without bounds fails the test instead of the machine.
//! The corpus of hostile files is `tests/hostile_input/` (also the fuzzers' seeds,
//! `tests/fuzz.rs`).

use catan_engine::bounded;
use catan_engine::protocol::Server;
use serde_json::{json, Value as J};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_catan");

/// The address space a run may take (KiB): the engine needs well under a tenth of it.
const ADDRESS_SPACE_KIB: u64 = 768 * 1024;

/// A folder of this test's own under the target directory, emptied.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile_input").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a run printed and how it ended.
struct Run {
    out: String,
    err: String,
    code: Option<i32>,
    took: Duration,
}

/// Where a run's standard input comes from.
enum Input<'a> {
    Bytes(&'a [u8]),
    File(&'a str),
}

/// `catan ARGS` in `dir`, its address space capped, killed and failed after `secs`.
fn catan(dir: &Path, args: &[&str], input: Input, secs: u64) -> Run {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} 2>/dev/null; exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("CATAN_VARIANTS")
        .env("CATAN_HOME", dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let bytes = match input {
        Input::Bytes(b) => {
            cmd.stdin(Stdio::piped());
            Some(b.to_vec())
        }
        Input::File(f) => {
            cmd.stdin(std::fs::File::open(f).unwrap());
            None
        }
    };
    let start = Instant::now();
    let mut child = cmd.spawn().expect("run catan");
    let writer = bytes.map(|b| {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&b);
        })
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("catan {args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = start.elapsed();
    if let Some(w) = writer {
        let _ = w.join();
    }
    Run { out: out.join().unwrap(), err: err.join().unwrap(), code: status.code(), took }
}

/// The cap on a file, as error messages name it.
fn file_cap() -> String {
    bounded::size_text(bounded::FILE_CAP)
}

/// A link to `/dev/zero` named `name` in `dir` (an endless file), returned as its name.
#[cfg(unix)]
fn zeros(dir: &Path, name: &str) -> String {
    std::os::unix::fs::symlink("/dev/zero", dir.join(name)).unwrap();
    name.to_string()
}

/// A file of `len` zero bytes that takes no disk (a hole), for a file over a cap.
fn sparse(dir: &Path, name: &str, len: usize) -> String {
    let f = std::fs::File::create(dir.join(name)).unwrap();
    f.set_len(len as u64).unwrap();
    name.to_string()
}

fn assert_refused(run: &Run, what: &str, want: &str) {
    assert_eq!(run.code, Some(1), "{what}: exit {:?}\nstdout: {}\nstderr: {}", run.code, run.out, run.err);
    assert!(run.err.contains(want), "{what}: {}", run.err);
    assert!(run.took < Duration::from_secs(10), "{what}: took {:?}", run.took);
}

/// `load`, `--load`, `--options-file`, a variant file, a rows file, a weights file:
/// an endless file (`/dev/zero`) is refused once the cap is read, with the cap named.
#[cfg(unix)]
#[test]
fn endless_files_are_refused_at_the_cap() {
    let dir = scratch("endless");
    let cap = file_cap();
    let zero = zeros(&dir, "zero.json");
    let run = catan(&dir, &["play", "--bots", "none", "--load", &zero], Input::Bytes(b""), 30);
    assert_refused(&run, "--load", &format!("longer than {cap}"));

    let rows = zeros(&dir, "zero.jsonl");
    let pick = format!("{rows}#1");
    let run = catan(&dir, &["play", "--bots", "none", "--load", &pick], Input::Bytes(b""), 30);
    assert_refused(&run, "--load rows#1", &format!("longer than {}", bounded::size_text(bounded::LINE_CAP)));

    let opts = zeros(&dir, "zero.toml");
    let run = catan(&dir, &["play", "--bots", "none", "--options-file", &opts], Input::Bytes(b""), 30);
    assert_refused(&run, "--options-file", &format!("longer than {cap}"));

    let variant = zeros(&dir, "zero.lua");
    let run = catan(&dir, &["play", "--bots", "none", "--variant", &variant], Input::Bytes(b""), 30);
    assert_refused(&run, "--variant FILE", &format!("longer than {cap}"));
    let run = catan(&dir, &["check", &variant], Input::Bytes(b""), 30);
    let said = format!("{}{}", run.out, run.err);
    assert!(run.code != Some(0) && said.contains(&format!("longer than {cap}")), "check: {said}");

    let weights = zeros(&dir, "zero.weights.toml");
    // A weights file is read as a game starts: that game stops with the reason.
    let bots = format!("planner@{weights},random,random,random");
    let run = catan(&dir, &["sim", "--games", "1", "--bots", &bots], Input::Bytes(b""), 30);
    assert!(run.out.contains(&format!("{weights}: longer than {cap}")), "planner@FILE: {}", run.out);

    // `load` typed at the prompt: said, and the game goes on.
    let run = catan(&dir, &["play", "--bots", "none"], Input::Bytes(b"load zero.json\nroll\n"), 30);
    assert_eq!(run.code, Some(0), "{}", run.err);
    assert!(run.out.contains(&format!("longer than {cap}")), "{}", run.out);
    assert!(run.out.contains("red rolls"), "{}", run.out);
}

/// A regular file over the cap is refused by its size, before a byte is read; a variant
/// part over the cap too, and a variant file over the cap found on the search path is an
/// error rather than passed over for a built-in copy.
#[test]
fn files_over_the_cap_are_refused_by_their_size() {
    let dir = scratch("large");
    let cap = file_cap();
    // A save may be rows of a run, which are read line by line: its first line is the cap.
    let big = sparse(&dir, "big.json", bounded::FILE_CAP + 1);
    let run = catan(&dir, &["play", "--bots", "none", "--load", &big], Input::Bytes(b""), 30);
    assert_refused(&run, "--load", &format!("longer than {}", bounded::size_text(bounded::LINE_CAP)));
    let weights = sparse(&dir, "big.toml", bounded::FILE_CAP + 1);
    let run = catan(&dir, &["play", "--bots", "none", "--options-file", &weights], Input::Bytes(b""), 30);
    assert_refused(&run, "--options-file", &format!("larger than {cap}"));

    std::fs::create_dir_all(dir.join("variants/house")).unwrap();
    std::fs::write(dir.join("variants/house.lua"), "variant { extends = \"base\" }\npart(\"big.lua\")\n").unwrap();
    sparse(&dir.join("variants/house"), "big.lua", bounded::FILE_CAP + 1);
    let run = catan(&dir, &["play", "--bots", "none", "--variant", "house"], Input::Bytes(b""), 30);
    assert_refused(&run, "part", &format!("larger than {cap}"));

    sparse(&dir.join("variants"), "base.lua", bounded::FILE_CAP + 1);
    let run = catan(&dir, &["play", "--bots", "none", "--variant", "base"], Input::Bytes(b""), 30);
    assert_refused(&run, "variants/base.lua", &format!("larger than {cap}"));
}

/// `catan serve` fed an endless line (`/dev/zero`) or a line over the cap answers one
/// error naming the cap and ends; a `load` of an endless file is an error answer, and the
/// server goes on.
#[cfg(unix)]
#[test]
fn catan_serve_reads_a_line_up_to_its_cap() {
    let dir = scratch("serve");
    let cap = bounded::size_text(bounded::LINE_CAP);
    let run = catan(&dir, &["serve"], Input::File("/dev/zero"), 30);
    assert_eq!(run.code, Some(1), "{}", run.err);
    let answer: J = serde_json::from_str(run.out.trim()).unwrap();
    assert_eq!(answer["ok"], json!(false));
    assert_eq!(answer["error"]["kind"], json!("protocol"));
    assert!(answer["error"]["message"].as_str().unwrap().contains(&format!("longer than {cap}")), "{answer}");
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);

    let mut input = b"{\"id\":1,\"cmd\":\"hello\"}\n".to_vec();
    input.extend(std::iter::repeat_n(b' ', bounded::LINE_CAP + 10));
    input.extend(b"{\"cmd\":\"hello\"}\n{\"id\":3,\"cmd\":\"hello\"}\n");
    let run = catan(&dir, &["serve"], Input::Bytes(&input), 30);
    assert_eq!(run.code, Some(1), "{}", run.err);
    let answers: Vec<J> = run.out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), 2, "{}", run.out);
    assert_eq!(answers[0]["ok"], json!(true));
    assert!(answers[1]["error"]["message"].as_str().unwrap().contains("longer than"), "{}", answers[1]);

    zeros(&dir, "zero.json");
    let mut server = Server::new();
    let path = dir.join("zero.json");
    let answer: J =
        serde_json::from_str(&server.handle_line(&json!({"cmd": "load", "path": path.to_string_lossy()}).to_string()))
            .unwrap();
    assert_eq!(answer["error"]["kind"], json!("setup"), "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains(&format!("longer than {}", file_cap())));
}

/// `catan play` reading commands from a program: an endless line is an error that ends
/// the session, as a failed read does, not memory running out.
#[cfg(unix)]
#[test]
fn catan_play_reads_a_command_line_up_to_its_cap() {
    let dir = scratch("play");
    let run = catan(&dir, &["play", "--bots", "none"], Input::File("/dev/zero"), 30);
    assert_eq!(run.code, Some(1), "{}\n{}", run.out, run.err);
    let said = format!("{}{}", run.out, run.err);
    assert!(said.contains(&format!("longer than {}", bounded::size_text(bounded::LINE_CAP))), "{said}");
}

/// The reader itself: a line at the cap is read, one byte more is refused (and the
/// caller's buffer never holds more than the cap and a byte); a file's text must be
/// UTF-8; the last line needs no newline.
#[test]
fn the_bounded_reader_reads_to_its_cap_and_no_further() {
    let mut line = Vec::new();
    let mut input: &[u8] = b"abc\r\nabcd\n\nf";
    let mut got = vec![];
    while bounded::read_line(&mut input, 4, &mut line).unwrap() {
        got.push(String::from_utf8(line.clone()).unwrap());
    }
    assert_eq!(got, ["abc", "abcd", "", "f"]);
    let mut input: &[u8] = b"abcde\nx\n";
    let e = bounded::read_line(&mut input, 4, &mut line).unwrap_err();
    assert!(e.to_string().contains("longer than 4 bytes"), "{e}");
    assert!(line.capacity() <= 64, "{}", line.capacity());
    let e = bounded::read_to_string(&b"ab\xffc"[..], 10).unwrap_err();
    assert!(e.to_string().contains("not UTF-8"), "{e}");
    assert_eq!(bounded::read_to_string(&b"abc"[..], 3).unwrap(), "abc");
    assert!(bounded::read_to_string(&b"abcd"[..], 3).is_err());
    let e = bounded::read_file("/no/such/file").unwrap_err();
    assert!(e.is_not_found(), "{e}");
}

/// A Python bot as a `--bot-cmd`.
fn python_bot(dir: &Path, name: &str, source: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    format!("python3 -u '{}'", path.display())
}

/// Answers every request with its first legal action, and then writes the same answer
/// again: the second line answers no request.
const TWICE: &str = r#"
import sys
for line in sys.stdin:
    if line.strip():
        sys.stdout.write('{"index": 0}\n{"index": 0}\n')
        sys.stdout.flush()
"#;

/// A bot that answers twice is stopped at its next decision with the reason: a line it
/// wrote that no request asked for is never taken as the answer to a later request.
#[test]
fn a_line_no_request_asked_for_is_an_error_not_a_later_answer() {
    let dir = scratch("twice");
    let bot = python_bot(&dir, "twice.py", TWICE);
    let run = catan(
        &dir,
        &[
            "sim",
            "--games",
            "1",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--json",
            "--bot-timeout",
            "5",
            "--bot-cmd",
            &format!("2={bot}"),
        ],
        Input::Bytes(b""),
        60,
    );
    assert_eq!(run.code, Some(0), "{}", run.err);
    let report: J = serde_json::from_str(&run.out).unwrap();
    let failed = report["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1, "{report}");
    let error = failed[0]["error"].as_str().unwrap();
    assert!(error.contains("no request asked for") && error.contains("{\"index\": 0}"), "{error}");
}

/// Plays its seat (the first legal action; `end` when it may), and once it has ended its
/// turn writes without end while no request waits.
const FLOOD: &str = r#"
import sys
for line in sys.stdin:
    if not line.strip():
        continue
    texts = [entry["text"] for entry in __import__("json").loads(line)["legal"]]
    if "end" in texts:
        sys.stdout.write('{"action": "end"}\n')
        sys.stdout.flush()
        junk = '{"action": "end"}' * 4096 + '\n'
        while True:
            sys.stdout.write(junk)
    sys.stdout.write('{"index": 0}\n')
    sys.stdout.flush()
"#;

/// The resident memory of process `pid` in KiB (Linux).
#[cfg(target_os = "linux")]
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// A bot that floods while the game waits for a human: nothing of it is read (its pipe
/// fills and it waits), the engine's memory stays flat, and at its next decision it is
/// stopped with the reason.
#[cfg(target_os = "linux")]
#[test]
fn a_flooding_bot_takes_no_memory_while_no_request_waits() {
    let dir = scratch("flood");
    let bot = python_bot(&dir, "flood.py", FLOOD);
    let flag = format!("blue={bot}");
    let mut child = Command::new(BIN)
        .args([
            "play",
            "--seed",
            "7",
            "--bots",
            "white=random,orange=random",
            "--sandbox",
            "--bot-timeout",
            "5",
            "--bot-cmd",
            &flag,
        ])
        .current_dir(&dir)
        .env_remove("CATAN_VARIANTS")
        .env("CATAN_HOME", &dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    // Red rolls and ends; blue (the bot) plays its turn and floods; white and orange play;
    // red is to act, and the game waits.
    stdin.write_all(b"roll\nend\n").unwrap();
    let start = Instant::now();
    let mut peak = 0;
    while start.elapsed() < Duration::from_millis(1500) {
        peak = peak.max(resident_kib(child.id()));
        if peak > 400 * 1024 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // Red's turn again, then blue's: the bot is asked and stopped.
    let _ = stdin.write_all(b"dice 6 6\nroll\nend\nshow players\n");
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline || peak > 400 * 1024 {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.wait();
    let out = out.join().unwrap();
    assert!(peak < 200 * 1024, "the engine grew to {peak} KiB while the bot flooded");
    assert!(out.contains("blue (bot)> end"), "{out}");
    assert!(out.contains("no request asked for"), "{out}");
}

/// Every file of the corpus (`tests/hostile_input/`) through every reader that takes its
/// kind: a save (`--load`, `catan serve`'s `load` by path and by text), an options file,
/// a weights file, a variant file on top of base. Each is taken or refused with a message
/// of a readable length; none panics.
#[test]
fn the_hostile_corpus_is_taken_or_refused() {
    use catan_engine::bot::weights::WeightsFile;
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile_input");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    let short = |what: &Path, e: &str| {
        assert!(
            e.len() < 4_000,
            "{}: a message of {} bytes: {}...",
            what.display(),
            e.len(),
            e.chars().take(200).collect::<String>()
        );
    };
    let mut kinds = std::collections::BTreeMap::new();
    for path in &files {
        let name = path.to_string_lossy().into_owned();
        let ext = path.extension().and_then(|x| x.to_str()).unwrap_or("");
        *kinds.entry(ext.to_string()).or_insert(0) += 1;
        match ext {
            "json" => {
                match catan_engine::repl::read_save(&name) {
                    Ok(save) => {
                        if let Err(e) = catan_engine::Game::replay(&save) {
                            short(path, &e.to_string());
                        }
                    }
                    Err(e) => short(path, &e),
                }
                let mut server = Server::new();
                for request in [
                    json!({"cmd": "load", "path": name}),
                    json!({"cmd": "load", "save": String::from_utf8_lossy(&std::fs::read(path).unwrap())}),
                ] {
                    let answer = server.handle_line(&request.to_string());
                    short(path, &answer);
                    let answer: J = serde_json::from_str(&answer).unwrap();
                    assert!(answer["ok"].is_boolean(), "{answer}");
                }
            }
            "toml" => {
                if let Err(e) = catan_engine::engine::option_args(Some(&name), &[]) {
                    short(path, &e);
                }
                if let Err(e) = WeightsFile::read(path) {
                    short(path, &e);
                }
            }
            "lua" => {
                if let Err(e) = catan_engine::script::Script::load(&["base".to_string(), name.clone()]) {
                    short(path, &e.to_string());
                }
            }
            other => panic!("{name}: a file of the corpus is .json, .toml or .lua, not .{other}"),
        }
    }
    assert!(kinds.values().all(|&n| n >= 3), "{kinds:?}");
}

/// Answers each request with its first legal action, echoing the number of the request
/// before it: an answer that names another request than the one waiting.
const BEHIND: &str = r#"
import json, sys
for line in sys.stdin:
    if line.strip():
        n = json.loads(line)["request"]
        sys.stdout.write(json.dumps({"index": 0, "request": n - 1}) + "\n")
        sys.stdout.flush()
"#;

/// Issue 30: requests are numbered, and an answer that echoes a number must echo the
/// waiting request's, so a line written before its request cannot pass for its answer
/// (the check for lines no request asked for is made just before a request is written).
#[test]
fn an_answer_that_names_another_request_is_an_error() {
    let dir = scratch("behind");
    let bot = python_bot(&dir, "behind.py", BEHIND);
    let args = ["sim", "--games", "1", "--seed", "1", "--jobs", "1", "--json", "--bot-timeout", "5", "--bot-cmd"];
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.push(format!("2={bot}"));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = catan(&dir, &args, Input::Bytes(b""), 60);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let report: J = serde_json::from_str(&run.out).unwrap();
    let failed = report["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1, "{report}");
    let error = failed[0]["error"].as_str().unwrap();
    assert!(error.contains("answered request 0 while request 1 waits"), "{error}");
}
