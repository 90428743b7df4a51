//! The hostile-script corpus (issue 30): every file of tests/hostile_scripts/ is a
//! variant that tries one way out of the sandbox's bounds, with what the engine must do
//! about it in its header (tests/hostile_scripts/README.md). Whatever a script does, it is
//! stopped within 2 s of CPU with an error naming its file:line, and the game is byte for
//! byte what it was before the action.
//!
//! Each script runs on a thread of its own with a deadline, so a script the sandbox fails
//! to stop fails the test instead of hanging the suite; the scripts run side by side.

use catan_engine::script::INSTRUCTION_BUDGET;
use catan_engine::{Game, GameError, Header, ScriptError, ScriptErrorKind};
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

const CORPUS: &str = "tests/hostile_scripts";
/// The budget the scripts run with: a twenty-fifth of the full one, so the corpus runs in
/// well under a second, yet enough for every script to build what it attacks with.
const TEST_BUDGET: u64 = 2_000_000;
/// The CPU time any script may take at the full budget, on a machine as fast as the ones
/// this was set on; on a slower one, `RELATIVE_BOUND` times what a plain loop takes there.
const CPU_BOUND: Duration = Duration::from_secs(2);
/// How many times the CPU time of a plain loop (`tests/variants/budget_loop.lua`, the
/// cheapest work a unit of the budget buys) a script may take at the same budget: a C
/// function that does much work for one unit is what this catches, whatever the machine.
/// Where a plain loop takes under 80 ms on the full budget the bound is `CPU_BOUND` as
/// before; on 2026-11-28 this machine ran about twice slower than usual (a plain loop
/// 115 ms), and the corpus's dearest (`string_format_short.lua`, about 18 plain loops)
/// passed 2 s.
const RELATIVE_BOUND: f64 = 25.0;
/// Wall-clock time a script may take before the test calls it a hang (the scripts share
/// the machine's cores).
const DEADLINE: Duration = Duration::from_secs(30);

/// What a file's header expects.
#[derive(Debug, Clone)]
struct Expect {
    /// The error kind, or None for `same game`.
    kind: Option<ScriptErrorKind>,
    at_load: bool,
    message: Option<String>,
    /// The 1-based line marked `-- stopped here`.
    line: Option<usize>,
    /// `-- budget:`, for a script whose build-up needs more than `TEST_BUDGET`.
    budget: Option<u64>,
}

fn read_expect(path: &Path) -> Expect {
    let text = std::fs::read_to_string(path).unwrap();
    let field =
        |name: &str| text.lines().find_map(|l| l.strip_prefix(&format!("-- {name}:")).map(|v| v.trim().to_string()));
    let kind = match field("expect").as_deref() {
        Some("budget") => Some(ScriptErrorKind::Budget),
        Some("memory") => Some(ScriptErrorKind::Memory),
        Some("runtime") => Some(ScriptErrorKind::Runtime),
        Some("load") => Some(ScriptErrorKind::Load),
        Some("same game") => None,
        other => {
            panic!("{}: `-- expect:` must be budget, memory, runtime, load or same game, not {other:?}", path.display())
        }
    };
    let at_load = match field("when").as_deref() {
        None | Some("action") => false,
        Some("load") => true,
        other => panic!("{}: `-- when:` must be action or load, not {other:?}", path.display()),
    };
    let line = text.lines().position(|l| l.contains("-- stopped here")).map(|i| i + 1);
    assert!(kind.is_none() || line.is_some(), "{}: no line is marked `-- stopped here`", path.display());
    let budget =
        field("budget").map(|b| b.parse().unwrap_or_else(|_| panic!("{}: a bad `-- budget:`", path.display())));
    Expect { kind, at_load, message: field("message"), line, budget }
}

fn header(path: &str) -> Header {
    Header { variants: vec![path.to_string()], players: 4, seed: 7, options: vec![], sandbox: false }
}

/// The CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The game as bytes: its state and its save.
fn bytes(g: &Game) -> (String, String, usize) {
    (serde_json::to_string(&*g.state()).unwrap(), g.save_json(), g.messages().len())
}

/// Checks one error against the header; `Err` says what is wrong.
fn check_error(path: &str, want: &Expect, e: &ScriptError) -> Result<(), String> {
    let kind = want.kind.expect("an error kind");
    if e.kind != kind {
        return Err(format!("expected a {kind:?} error, got {e:?}"));
    }
    let at = format!("{path}:{}", want.line.unwrap_or(0));
    if e.location.as_deref() != Some(at.as_str()) {
        return Err(format!("the error should name {at}, it names {:?}: {e:?}", e.location));
    }
    if let Some(m) = &want.message {
        if !e.message.contains(m.as_str()) {
            return Err(format!("the message should contain {m:?}: {:?}", e.message));
        }
    }
    Ok(())
}

/// The CPU time a plain loop takes on the full budget here (the least of three runs).
fn plain_loop_cpu() -> Duration {
    (0..3)
        .map(|_| {
            let mut g = Game::new(header("tests/variants/budget_loop.lua")).expect("the yardstick loads");
            g.set_instruction_budget(TEST_BUDGET);
            let start = thread_cpu();
            let r = g.act(0, "attack");
            let spent = thread_cpu() - start;
            assert!(
                matches!(r, Err(GameError::Script(ref e)) if e.kind == ScriptErrorKind::Budget),
                "the plain loop ran out of budget: {r:?}"
            );
            spent.mul_f64(INSTRUCTION_BUDGET as f64 / TEST_BUDGET as f64)
        })
        .min()
        .unwrap_or_default()
}

/// Runs one file against the CPU bound `bound`; `Err` says how the engine failed it.
fn run(path: &str, want: &Expect, bound: Duration) -> Result<(), String> {
    if want.at_load {
        let start = thread_cpu();
        return match Game::new(header(path)) {
            Ok(_) => Err("the variant loaded, but it should have been refused".into()),
            Err(GameError::Script(e)) => {
                check_error(path, want, &e)?;
                let spent = thread_cpu() - start;
                if spent > bound {
                    return Err(format!("refused only after {spent:?} of CPU"));
                }
                Ok(())
            }
            Err(other) => Err(format!("expected a script error, got {other:?}")),
        };
    }
    let mut g = Game::new(header(path)).map_err(|e| format!("the game did not start: {e}"))?;
    if want.kind.is_none() {
        return same_game(path, g);
    }
    let budget = want.budget.unwrap_or(TEST_BUDGET);
    g.set_instruction_budget(budget);
    let before = bytes(&g);
    let start = thread_cpu();
    let r = g.act(0, "attack");
    let spent = thread_cpu() - start;
    match r {
        Err(GameError::Script(e)) => check_error(path, want, &e)?,
        Err(other) => return Err(format!("expected a script error, got {other:?}")),
        Ok(_) => return Err("the attack succeeded".into()),
    }
    let scaled = spent.mul_f64(INSTRUCTION_BUDGET as f64 / budget as f64);
    eprintln!("{path}: stopped after {spent:?} of CPU, {scaled:?} on the full budget");
    if scaled > bound {
        return Err(format!(
            "stopped after {spent:?} of CPU on a budget of {TEST_BUDGET}: {scaled:?} on the full budget of \
             {INSTRUCTION_BUDGET}, more than {bound:?}"
        ));
    }
    let after = bytes(&g);
    if after.0 != before.0 {
        return Err("the state changed".into());
    }
    if after.1 != before.1 {
        return Err("the save changed".into());
    }
    if after.2 != before.2 {
        return Err("the failed action left messages".into());
    }
    g.act(0, "roll").map_err(|e| format!("the game does not go on: 'roll' was refused: {e}"))?;
    Ok(())
}

/// `same game`: the attack gives the same game whether or not legal actions were listed
/// (garbage for the collector) before it, and a replay of its save agrees.
fn same_game(path: &str, mut plain: Game) -> Result<(), String> {
    let mut listed = Game::new(header(path)).map_err(|e| format!("the game did not start: {e}"))?;
    for _ in 0..200 {
        listed.legal_actions(0).map_err(|e| format!("listing failed: {e}"))?;
    }
    plain.act(0, "attack").map_err(|e| format!("the attack failed: {e}"))?;
    listed.act(0, "attack").map_err(|e| format!("the attack failed after listings: {e}"))?;
    let (a, b) = (serde_json::to_string(&*plain.state()).unwrap(), serde_json::to_string(&*listed.state()).unwrap());
    if a != b {
        let vars = |g: &Game| format!("{:?}", g.state().vars);
        return Err(format!(
            "listing legal actions before the attack changed the game: {} against {}",
            vars(&plain),
            vars(&listed)
        ));
    }
    let (replayed, divergence) =
        Game::load_json(&listed.save_json()).map_err(|e| format!("the save did not load: {e}"))?;
    if let Some(d) = divergence {
        return Err(format!("the replay diverged: {d}"));
    }
    if serde_json::to_string(&*replayed.state()).unwrap() != b {
        return Err("the replay ended in another state".into());
    }
    Ok(())
}

#[test]
fn every_hostile_script_is_stopped_quickly_and_leaves_no_trace() {
    let mut files: Vec<String> = std::fs::read_dir(CORPUS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lua"))
        // `refuse_*`: the rules' tables and errors' places, held by tests/refusals.rs.
        .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("refuse_")))
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the corpus lost files: {files:?}");
    let plain = plain_loop_cpu();
    let bound = CPU_BOUND.max(plain.mul_f64(RELATIVE_BOUND));
    eprintln!("a plain loop: {plain:?} of CPU on the full budget; the bound: {bound:?}");
    // A few at a time, each timed from its own start: on a loaded machine thirty scripts
    // spending their whole budget at once would share the cores, and the deadline is for
    // a script the sandbox lets hang, not for the machine's speed.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let queue = std::sync::Arc::new(std::sync::Mutex::new(files.clone()));
    let (tx, rx) = mpsc::channel();
    for _ in 0..workers {
        let (tx, queue) = (tx.clone(), queue.clone());
        std::thread::spawn(move || loop {
            let Some(path) = queue.lock().ok().and_then(|mut q| q.pop()) else { return };
            let want = read_expect(Path::new(&path));
            let _ = tx.send((path.clone(), None));
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| run(&path, &want, bound)))
                .unwrap_or_else(|_| Err("the test panicked".into()));
            let _ = tx.send((path, Some(r)));
        });
    }
    drop(tx);
    let mut failures = vec![];
    let mut running = std::collections::BTreeMap::new();
    let mut done = std::collections::BTreeSet::new();
    while done.len() < files.len() {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok((path, None)) => {
                running.insert(path, std::time::Instant::now());
            }
            Ok((path, Some(r))) => {
                if let Err(why) = r {
                    failures.push(format!("{path}: {why}"));
                }
                running.remove(&path);
                done.insert(path);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let hung: Vec<String> =
            running.iter().filter(|(_, t)| t.elapsed() > DEADLINE).map(|(p, _)| p.clone()).collect();
        for path in hung {
            failures.push(format!("{path}: still running after {DEADLINE:?}: the sandbox let it hang"));
            running.remove(&path);
            done.insert(path);
        }
        // Every worker stuck on a hung script: the rest never start.
        if running.is_empty() && done.len() < files.len() && queue.lock().map_or(true, |q| q.is_empty()) {
            break;
        }
    }
    for path in files.iter().filter(|p| !done.contains(*p) && !running.contains_key(*p)) {
        failures.push(format!("{path}: never ran (every worker was held by a hung script)"));
    }
    assert!(
        failures.is_empty(),
        "{} of {} hostile scripts got through:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// `==` against a long string constant (`OP_EQK`, raw equality in stock Lua) compares it
/// whole: charged as `==` is. The constant is written out for the test, as no file of the
/// corpus should hold 64 KiB of one literal.
#[test]
fn comparing_with_a_long_constant_is_charged() {
    let dir = std::env::temp_dir().join(format!("catan-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long_constant.lua");
    let literal = "x".repeat(64 << 10);
    let source = format!(
        "-- expect: budget\nvariant {{ extends = \"base\" }}\n\naction {{\n  name = \"attack\",\n  apply = function(g, p)\n    \
         g:set(\"touched\", true)\n    local s = string.rep(\"x\", {})\n    while true do local _ = s == \"{literal}\" end -- stopped here\n  \
         end,\n}}\n",
        literal.len()
    );
    std::fs::write(&path, source).unwrap();
    let path = path.to_string_lossy().replace('\\', "/");
    let want = read_expect(Path::new(&path));
    let bound = CPU_BOUND.max(plain_loop_cpu().mul_f64(RELATIVE_BOUND));
    let (tx, rx) = mpsc::channel();
    let p = path.clone();
    std::thread::spawn(move || {
        let _ = tx.send(std::panic::catch_unwind(AssertUnwindSafe(|| run(&p, &want, bound))));
    });
    let r = rx.recv_timeout(DEADLINE);
    let _ = std::fs::remove_dir_all(&dir);
    match r {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(why))) => panic!("{path}: {why}"),
        Ok(Err(_)) => panic!("{path}: the test panicked"),
        Err(_) => panic!("{path}: still running after {DEADLINE:?}: the sandbox let it hang"),
    }
}
