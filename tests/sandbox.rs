//! DESIGN: "Scripts are untrusted". A variant may loop forever, eat memory, or reach for
//! the operating system; the engine must stop it with a clear error, leave the game
//! exactly as it was, and let the game go on.
//!
//! The hostile variants live in tests/variants/. Every test body runs on a worker thread
//! with a deadline, so a sandbox that fails to stop a script fails the test instead of
//! hanging the suite.

use catan_engine::engine::Outcome;
use catan_engine::script::{INSTRUCTION_BUDGET, MEMORY_CAP};
use catan_engine::value::Value;
use catan_engine::{Game, GameError, GameState, Header, ScriptError, ScriptErrorKind};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const HOSTILE: &str = "tests/variants/hostile.lua";
const HOSTILE_OPTIONS: &str = "tests/variants/hostile_options.lua";

fn header(variant: &str) -> Header {
    Header { variants: vec![variant.to_string()], players: 4, seed: 7, options: vec![], sandbox: false }
}

/// Runs `f` on its own thread; fails the test if it does not finish in `secs` seconds.
fn within<T: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(std::panic::catch_unwind(AssertUnwindSafe(f)));
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(Ok(v)) => v,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!("{what}: still running after {secs} s; the sandbox let a script hang"),
    }
}

/// The script error of a failed action; any other result fails the test.
fn script_error(what: &str, r: Result<Outcome, GameError>) -> ScriptError {
    match r {
        Err(GameError::Script(e)) => e,
        Err(other) => panic!("{what}: expected a script error, got {other:?}"),
        Ok(o) => panic!("{what}: expected an error, but the action succeeded: {o:?}"),
    }
}

/// The error of a game that should not start.
fn new_error(variant: &str) -> GameError {
    match Game::new(header(variant)) {
        Ok(_) => panic!("{variant}: the game started, but it should not have"),
        Err(e) => e,
    }
}

/// Fails with the names of the fields that differ (a GameState's Debug is too long to
/// read in a failure message).
fn assert_same_state(what: &str, before: &GameState, after: &GameState) {
    if before == after {
        return;
    }
    let a = serde_json::to_value(before).unwrap();
    let b = serde_json::to_value(after).unwrap();
    let differ: Vec<&String> =
        a.as_object().unwrap().iter().filter(|(k, v)| b.get(k.as_str()) != Some(v)).map(|(k, _)| k).collect();
    panic!("{what}: the state changed; fields that differ: {differ:?}");
}

/// What a game looks like from outside: state, log and messages.
fn snapshot(g: &Game) -> (GameState, usize, usize) {
    (g.state().clone(), g.log().len(), g.messages().len())
}

/// The failed action left no trace: same state, nothing logged, no new messages.
fn assert_untouched(what: &str, g: &Game, before: &(GameState, usize, usize)) {
    assert_same_state(what, &before.0, &g.state());
    assert_eq!(g.log().len(), before.1, "{what}: the failed action was logged");
    assert_eq!(g.messages().len(), before.2, "{what}: the failed action left messages");
    assert!(!g.state().vars.contains_key("touched"), "{what}: a var set by the failed action survived");
}

/// The game goes on: red rolls and the log grows by exactly that roll.
fn assert_goes_on(what: &str, g: &mut Game) {
    let n = g.log().len();
    g.act(0, "roll").unwrap_or_else(|e| panic!("{what}: 'roll' after the failure was refused: {e}"));
    assert_eq!(g.log().len(), n + 1);
    assert_eq!(g.log()[n].command, "roll");
    assert_ne!(g.state().phase, "roll", "{what}: the roll did not move the turn on");
}

// Endless loops ---------------------------------------------------------------------------

#[test]
fn endless_loop_in_apply_is_stopped_by_the_budget() {
    within(120, "spin", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        let before = snapshot(&g);
        let start = Instant::now();
        let e = script_error("spin", g.act(0, "spin"));
        assert_eq!(e.kind, ScriptErrorKind::Budget, "{e:?}");
        assert!(e.message.contains("budget"), "message: {}", e.message);
        assert!(
            e.message.contains(&INSTRUCTION_BUDGET.to_string()),
            "the message should give the budget: {}",
            e.message
        );
        if let Some(at) = &e.location {
            assert!(at.starts_with(HOSTILE), "{at}");
        }
        let text = GameError::Script(e).to_string();
        assert!(text.starts_with("script error:"), "{text}");
        eprintln!("spin stopped after {:?}", start.elapsed());
        assert_untouched("spin", &g, &before);
        assert_goes_on("spin", &mut g);
    });
}

#[test]
fn the_budget_is_per_call_not_per_game() {
    within(240, "spin twice", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        for round in 0..3 {
            let before = snapshot(&g);
            let e = script_error("spin", g.act(0, "spin"));
            assert_eq!(e.kind, ScriptErrorKind::Budget, "round {round}: {e:?}");
            assert_untouched("spin", &g, &before);
        }
        // Normal actions still have their whole budget.
        assert_goes_on("spin x3", &mut g);
        g.act(0, "end").unwrap();
        g.act(1, "roll").unwrap();
    });
}

#[test]
fn endless_loop_in_a_legal_check_is_stopped() {
    within(120, "stall", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        let before = snapshot(&g);
        let e = script_error("stall", g.act(0, "stall 3"));
        assert_eq!(e.kind, ScriptErrorKind::Budget, "{e:?}");
        assert!(e.message.contains("budget"), "message: {}", e.message);
        assert_untouched("stall", &g, &before);
        assert!(!g.state().vars.contains_key("stalled"));
        assert_goes_on("stall", &mut g);
    });
}

/// An action's checks and the action itself each have the whole budget (the prelude's
/// perform starts the action afresh), so what an action may spend does not depend on
/// whether its checks ran: they do for a typed or replayed action, and not for one the
/// engine's bot drew from the rules' own options (`Script::sample`).
#[test]
fn the_checks_and_the_action_each_have_the_whole_budget() {
    within(240, "burn", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        // The largest power of two of loops that one call can run.
        let mut n: i64 = 1 << 16;
        loop {
            match g.act(0, &format!("burn_once {}", n * 2)) {
                Ok(_) => n *= 2,
                Err(GameError::Script(e)) if e.kind == ScriptErrorKind::Budget => break,
                Err(e) => panic!("burn_once {}: {e}", n * 2),
            }
            assert!(n < 1 << 40, "the budget never ran out");
        }
        // Twice n loops is more than a call may run; n in the check and n in the action is not.
        g.act(0, &format!("burn {n}")).unwrap_or_else(|e| panic!("burn {n}: {e}"));
        assert!(g.state().vars.contains_key("burnt"));
    });
}

#[test]
fn endless_loop_while_listing_legal_actions_is_an_error_not_a_hang() {
    within(120, "maze", || {
        let mut g = Game::new(header(HOSTILE_OPTIONS)).unwrap();
        // Before the roll the options are harmless.
        let legal = g.legal_actions(0).unwrap();
        assert!(legal.iter().any(|a| a.name == "roll"));
        g.act(0, "roll").unwrap();
        let before = snapshot(&g);
        match g.legal_actions(0) {
            Err(GameError::Script(e)) => {
                assert_eq!(e.kind, ScriptErrorKind::Budget, "{e:?}");
                assert!(e.message.contains("budget"), "{}", e.message);
            }
            other => panic!("expected a budget error, got {other:?}"),
        }
        assert_untouched("maze", &g, &before);
        // The game goes on through typed actions.
        g.act(0, "end").unwrap();
        assert_eq!(g.to_act().unwrap(), 1);
        // From turn 2, `sneak`'s `when` tries to write while the actions are listed.
        let before = snapshot(&g);
        match g.legal_actions(1) {
            Err(GameError::Script(e)) => {
                assert_eq!(e.kind, ScriptErrorKind::Runtime, "{e:?}");
                assert!(e.message.contains("may not change"), "{}", e.message);
            }
            other => panic!("expected a read-only error, got {other:?}"),
        }
        assert_untouched("sneak", &g, &before);
        assert!(!g.state().vars.contains_key("sneaked"));
        g.act(1, "roll").unwrap();
    });
}

// Memory ------------------------------------------------------------------------------------

#[test]
fn huge_table_in_apply_is_stopped_by_the_memory_cap() {
    within(120, "hog", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        for round in 0..2 {
            let before = snapshot(&g);
            let e = script_error("hog", g.act(0, "hog"));
            assert_eq!(e.kind, ScriptErrorKind::Memory, "round {round}: {e:?}");
            assert!(e.message.contains("memory"), "message: {}", e.message);
            // Issue 30: a memory error names the line that asked for the room.
            assert_eq!(e.location.as_deref(), Some(line_of(HOSTILE, "t[i] = chunk .. i").as_str()), "{e:?}");
            assert_untouched("hog", &g, &before);
        }
        assert_goes_on("hog", &mut g);
        // The memory the failed action held is given back: a whole turn still runs.
        g.act(0, "end").unwrap();
        g.act(1, "roll").unwrap();
    });
}

#[test]
fn table_of_small_entries_is_stopped_by_memory_or_budget() {
    within(120, "hog_small", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        let before = snapshot(&g);
        let e = script_error("hog_small", g.act(0, "hog_small"));
        assert!(matches!(e.kind, ScriptErrorKind::Memory | ScriptErrorKind::Budget), "{e:?}");
        assert_untouched("hog_small", &g, &before);
        assert_goes_on("hog_small", &mut g);
    });
}

#[test]
fn the_limits_are_sane() {
    // Room for the rules, yet a runaway is stopped well before the machine suffers.
    const { assert!(MEMORY_CAP >= 16 << 20 && MEMORY_CAP <= 1 << 30) };
    const { assert!(INSTRUCTION_BUDGET >= 1_000_000 && INSTRUCTION_BUDGET <= 1_000_000_000) };
}

// The operating system and other ways out -------------------------------------------------

#[test]
fn os_io_require_load_and_math_random_are_not_available() {
    within(120, "escape", || {
        let marker = "/tmp/catan-sandbox-escape";
        let _ = std::fs::remove_file(marker);
        let mut g = Game::new(header(HOSTILE)).unwrap();
        let cases: &[(&str, &str)] = &[
            ("os_execute", "'os' is not available"),
            ("os_getenv", "'os' is not available"),
            ("os_time", "'os' is not available"),
            ("io_open", "'io' is not available"),
            ("io_write", "'io' is not available"),
            ("require", "'require' is not available"),
            ("load", "'load' is not available"),
            ("loadstring", "'loadstring' is not available"),
            ("dofile", "'dofile' is not available"),
            ("loadfile", "'loadfile' is not available"),
            ("debug", "'debug' is not available"),
            ("package", "'package' is not available"),
            ("collectgarbage", "'collectgarbage' is not available"),
            ("pcall", "'pcall' is not available"),
            ("xpcall", "'xpcall' is not available"),
            ("random", "math.random is not available"),
            ("randomseed", "math.random is not available"),
        ];
        for (what, expected) in cases {
            let before = snapshot(&g);
            let e = script_error(what, g.act(0, &format!("escape {what}")));
            assert_eq!(e.kind, ScriptErrorKind::Runtime, "{what}: {e:?}");
            assert!(e.message.contains(expected), "{what}: the message should say {expected:?}, got {:?}", e.message);
            if *expected != "math.random is not available" {
                assert!(e.message.contains("sandbox"), "{what}: the message should name the sandbox: {}", e.message);
            } else {
                assert!(e.message.contains("g:random"), "{}", e.message);
            }
            if let Some(at) = &e.location {
                assert!(at.starts_with(HOSTILE), "{what}: {at}");
            }
            assert_untouched(what, &g, &before);
            assert!(!g.state().vars.contains_key("escaped"));
        }
        assert!(!std::path::Path::new(marker).exists(), "os.execute ran a shell command");
        assert_goes_on("escape", &mut g);
    });
}

#[test]
fn an_error_in_an_unknown_escape_still_rolls_back() {
    // The variant's own error() (not a sandbox refusal) carries its file and line.
    within(60, "escape nothing", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        let before = snapshot(&g);
        let e = script_error("escape nothing", g.act(0, "escape nothing"));
        assert_eq!(e.kind, ScriptErrorKind::Runtime);
        assert!(e.message.contains("no escape named nothing"), "{e:?}");
        let at = e.location.clone().expect("a location");
        assert!(at.starts_with(HOSTILE), "{at}");
        assert_untouched("escape nothing", &g, &before);
    });
}

#[test]
fn listing_legal_actions_may_not_change_the_game() {
    // Hooks run while the legal actions are listed see a read-only game. The hostile
    // variant's `spin` and `hog` are listed (they take no argument and have no legal
    // check), so listing is safe even with them around.
    let g = Game::new(header(HOSTILE)).unwrap();
    let before = snapshot(&g);
    let names: Vec<String> = g.legal_actions(0).unwrap().into_iter().map(|a| a.name).collect();
    assert!(names.contains(&"roll".to_string()), "{names:?}");
    assert!(names.contains(&"spin".to_string()), "{names:?}");
    assert_untouched("legal_actions", &g, &before);
}

// Loading ------------------------------------------------------------------------------------

#[test]
fn endless_top_level_code_fails_the_load() {
    within(120, "load_loop", || {
        let start = Instant::now();
        let e = new_error("tests/variants/load_loop.lua");
        eprintln!("load_loop refused after {:?}: {e}", start.elapsed());
        match &e {
            GameError::Script(se) => {
                assert_eq!(se.kind, ScriptErrorKind::Budget, "{se:?}");
                assert!(se.message.contains("budget"), "{}", se.message);
            }
            other => panic!("expected a script error, got {other:?}"),
        }
    });
}

#[test]
fn endless_allocation_at_top_level_fails_the_load() {
    within(120, "load_hog", || {
        let e = new_error("tests/variants/load_hog.lua");
        match &e {
            GameError::Script(se) => {
                assert!(matches!(se.kind, ScriptErrorKind::Memory | ScriptErrorKind::Budget), "{se:?}");
            }
            other => panic!("expected a script error, got {other:?}"),
        }
        // A fresh game of another variant is unaffected.
        Game::new(header("base")).unwrap();
    });
}

#[test]
fn endless_setup_hook_fails_game_creation() {
    within(120, "setup_loop", || {
        let e = new_error("tests/variants/setup_loop.lua");
        let text = e.to_string();
        assert!(text.contains("setup failed"), "{text}");
        assert!(text.contains("budget"), "{text}");
    });
}

#[test]
fn syntax_error_names_the_file_and_line() {
    let e = new_error("tests/variants/syntax_error.lua");
    let GameError::Script(se) = &e else {
        panic!("expected a script error, got {e:?}");
    };
    assert_eq!(se.kind, ScriptErrorKind::Load, "{se:?}");
    let src = std::fs::read_to_string("tests/variants/syntax_error.lua").unwrap();
    let line = src.lines().position(|l| l.contains("SYNTAX ERROR HERE")).unwrap() + 1;
    let expected = format!("tests/variants/syntax_error.lua:{line}");
    assert_eq!(se.location.as_deref(), Some(expected.as_str()), "{se:?}");
    let text = e.to_string();
    assert!(text.contains(&expected), "{text}");
    assert!(text.contains("'='"), "the message should show what is wrong: {text}");
}

#[test]
fn extending_a_missing_variant_is_a_clear_load_error() {
    let e = new_error("tests/variants/missing_parent.lua");
    let GameError::Script(se) = &e else {
        panic!("expected a script error, got {e:?}");
    };
    assert_eq!(se.kind, ScriptErrorKind::Load, "{se:?}");
    assert!(se.message.contains("no variant named 'no_such_variant_anywhere'"), "{se:?}");
}

#[test]
fn missing_files_and_bad_names_are_clear_load_errors() {
    let e = new_error("tests/variants/does_not_exist.lua");
    let GameError::Script(se) = &e else { panic!("{e:?}") };
    assert_eq!(se.kind, ScriptErrorKind::Load);
    assert!(se.message.contains("cannot read variant file"), "{se:?}");
    assert!(se.message.contains("does_not_exist.lua"), "{se:?}");

    for bad in ["../etc/passwd", "base;rm", "", "a/b"] {
        let e = new_error(bad);
        let GameError::Script(se) = &e else { panic!("{bad:?}: {e:?}") };
        assert_eq!(se.kind, ScriptErrorKind::Load, "{bad:?}: {se:?}");
        assert!(se.message.contains("not a variant name"), "{bad:?}: {se:?}");
    }
    let e = new_error("no_such_variant_anywhere");
    assert!(e.to_string().contains("no variant named"), "{e}");
}

// Determinism --------------------------------------------------------------------------------

#[test]
fn pairs_walks_keys_in_sorted_order() {
    let run = || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        let o = g.act(0, "order").unwrap();
        o.messages.iter().map(|m| m.text.clone()).collect::<Vec<_>>()
    };
    let first = run();
    assert_eq!(first, vec!["order: 2 10 30 alpha bravo echo mike yankee zeta".to_string()]);
    for _ in 0..5 {
        assert_eq!(run(), first);
    }
}

// Where sandbox errors point --------------------------------------------------------------------

/// A budget error and the sandbox's own refusals ('os' is not available ...) carry the
/// file:line of the script, so a modder with several variants loaded can tell which
/// script looped or reached for `os`.
#[test]
fn sandbox_errors_name_the_variant_and_line() {
    within(120, "locations", || {
        let mut g = Game::new(header(HOSTILE)).unwrap();
        for command in ["spin", "stall 3", "escape os_execute", "escape require"] {
            let e = script_error(command, g.act(0, command));
            let at = e.location.clone().unwrap_or_default();
            assert!(at.starts_with(HOSTILE), "{command}: no location in {e:?}");
        }
        let e = new_error("tests/variants/load_loop.lua");
        assert!(e.to_string().contains("load_loop"), "the load error should name the file: {e}");
    });
}

// Breaches a stress run found (issue 10) ------------------------------------------------------
//
// tests/variants/breach.lua: each action first touches the state, then crashes the engine,
// escapes a limit, observes something that differs between runs, or changes the rules
// outside the hooks. Each must end in a clear error, the game intact and going on.

const BREACH: &str = "tests/variants/breach.lua";
const ROLLED_ERROR: &str = "tests/variants/rolled_error.lua";

/// Runs `command` on a fresh breach game; it must fail with `kind`, leave no trace, and
/// the game must go on. Returns the error and the CPU-side wall time it took to stop.
fn breach_fails(command: &str, kind: ScriptErrorKind) -> (ScriptError, Duration) {
    let mut g = Game::new(header(BREACH)).unwrap();
    let before = snapshot(&g);
    let start = Instant::now();
    let e = script_error(command, g.act(0, command));
    let took = start.elapsed();
    assert_eq!(e.kind, kind, "{command}: {e:?}");
    assert_untouched(command, &g, &before);
    assert_goes_on(command, &mut g);
    (e, took)
}

/// The 1-based line of `marker` in a fixture, as "file:line".
fn line_of(file: &str, marker: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let n = text.lines().position(|l| l.contains(marker)).unwrap_or_else(|| panic!("no '{marker}' in {file}"));
    format!("{file}:{}", n + 1)
}

#[test]
fn a_cyclic_or_very_deep_table_given_to_set_is_refused_not_a_crash() {
    within(60, "cycle/deep", || {
        for command in ["cycle", "deep"] {
            let (e, _) = breach_fails(command, ScriptErrorKind::Runtime);
            assert!(e.message.contains("nested deeper"), "{command}: {e}");
            assert!(e.location.as_deref().is_some_and(|l| l.starts_with(BREACH)), "{command}: {e:?}");
        }
    });
}

#[test]
fn rolling_billions_of_dice_is_refused_before_allocating() {
    within(60, "huge_roll", || {
        for command in ["huge_roll", "big_roll"] {
            let (e, _) = breach_fails(command, ScriptErrorKind::Runtime);
            assert!(e.message.contains("at most"), "{command}: {e}");
        }
    });
}

#[test]
fn a_smaller_board_mid_game_keeps_markers_and_pieces_consistent() {
    within(60, "shrink", || {
        let mut g = Game::new(header(BREACH)).unwrap();
        let on_board = |g: &Game| -> usize {
            let st = g.state();
            st.intersections.iter().chain(st.paths.iter()).filter(|p| p.is_some()).count()
        };
        let supply =
            |g: &Game| -> usize { g.state().players.iter().flat_map(|p| p.supply.iter()).map(|&n| n as usize).sum() };
        let pieces = on_board(&g) + supply(&g);
        assert!(on_board(&g) > 0, "the beginner board has starting pieces");
        g.act(0, "shrink").unwrap();
        {
            let st = g.state();
            assert!(
                st.markers.values().all(|&h| h < st.hexes.len()),
                "a marker stands off the board: {:?}",
                st.markers
            );
        }
        assert_eq!(on_board(&g) + supply(&g), pieces, "pieces of the old board went back to the supplies");
        // `state --json` drew labels of hexes that no longer exist and panicked.
        let v = catan_engine::view::view(&g, catan_engine::engine::Observer::Referee);
        assert_eq!(v["board"]["hexes"].as_array().map(|h| h.len()), Some(1));
    });
}

/// A board is made from its hexes' coordinates alone, so the engine shares the last one it
/// built when the same hexes come again (each game of `catan sim` builds its board anew):
/// a restart finds the 19-hex board whole after the one-hex board replaced it, and shares it
/// with the restart after.
#[test]
fn a_board_built_again_from_the_same_hexes_is_the_same_board() {
    let board = |g: &Game| g.state().topology.clone().unwrap();
    let text = |g: &Game| serde_json::to_string(&*board(g)).unwrap();
    let fresh = Game::new(header(BREACH)).unwrap();
    let mut g = Game::new(header(BREACH)).unwrap();
    g.act(0, "shrink").unwrap();
    assert_eq!(board(&g).hexes.len(), 1);
    g.restart(5).unwrap();
    assert_eq!(text(&g), text(&fresh), "the 19-hex board built again after the one-hex board");
    let first = board(&g);
    g.restart(6).unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &board(&g)), "the same hexes share the board built last");
    g.act(0, "shrink").unwrap();
    assert_eq!((board(&g).hexes.len(), g.state().intersections.len(), g.state().paths.len()), (1, 6, 6));
}

/// DESIGN 5: time in Rust callbacks and the C library counts against the budget, so
/// every runaway stops within about a second of CPU. The loops below finish on an
/// engine that does not count that work (2 million `g:` calls, 30,000 placement queries
/// on a 1,000-hex board, 2,000 one-MiB `string.rep`/`format`s, 100,000 `gsub`s, 20,000
/// one-MiB `..`, `upper`, `sub` and `table.concat`s, 200,000 `table.insert`s at the
/// front, 2,000 sorts of 100,000 numbers); a backtracking pattern or a `table.move` of
/// 2^40 fields would run for minutes or days. (vendor/README.md: `lua_charge`.)
#[test]
fn work_in_rust_callbacks_and_the_c_library_counts_against_the_budget() {
    within(120, "budget", || {
        for command in [
            "calls",
            "open_loop",
            "rep_loop",
            "format_loop",
            "gsub_loop",
            "backtrack",
            "concat_loop",
            "upper_loop",
            "sub_loop",
            "table_concat_loop",
            "insert_front",
            "move_huge",
            "sort_loop",
        ] {
            let (e, took) = breach_fails(command, ScriptErrorKind::Budget);
            assert!(e.message.contains("budget"), "{command}: {e}");
            assert!(e.location.as_deref().is_some_and(|l| l.starts_with(BREACH)), "{command}: {e:?}");
            eprintln!("{command} stopped after {took:?}");
        }
    });
}

#[test]
fn a_board_larger_than_the_engine_allows_is_refused() {
    within(60, "vast_board", || {
        let (e, _) = breach_fails("vast_board", ScriptErrorKind::Runtime);
        assert!(e.message.contains("larger than the engine allows"), "{e}");
    });
}

/// The memory cap covers what a script makes the engine allocate: log messages and
/// stored values live in Rust, where the Lua cap cannot see them.
#[test]
fn memory_a_script_makes_the_engine_allocate_is_capped() {
    within(120, "host memory", || {
        for command in ["log_flood", "set_big", "set_flood"] {
            let (e, _) = breach_fails(command, ScriptErrorKind::Memory);
            assert!(e.message.contains("MiB") || e.message.contains("cap"), "{command}: {e}");
        }
    });
}

/// Each call's allocations are capped, and so is the history of messages a game keeps:
/// the action that would pass it is refused like any failing action. A quiet game
/// (`Game::set_quiet`, as `catan sim` plays), which keeps no message, refuses the same one.
#[test]
fn the_message_history_of_a_game_is_capped() {
    message_history_capped(false);
}

#[test]
fn the_message_history_of_a_quiet_game_is_capped_the_same() {
    message_history_capped(true);
}

fn message_history_capped(quiet: bool) {
    within(120, "message history", move || {
        let mut g = Game::new(header(BREACH)).unwrap();
        g.set_quiet(quiet);
        let set_up = g.messages().len(); // the setup's, from before `set_quiet`
        let per_action = 20usize << 20;
        let fit = catan_engine::script::GAME_MESSAGES_CAP / per_action;
        for i in 0..fit {
            g.act(0, "log_20mib").unwrap_or_else(|e| panic!("action {i} of {fit} was refused: {e}"));
        }
        let before = snapshot(&g);
        let e = script_error("log_20mib", g.act(0, "log_20mib"));
        assert_eq!(e.kind, ScriptErrorKind::Memory, "{e:?}");
        assert!(e.message.contains("messages"), "{e}");
        // (The accepted actions set the fixture's `touched` var, so compare directly.)
        assert_same_state("log_20mib", &before.0, &g.state());
        assert_eq!((g.log().len(), g.messages().len()), (before.1, before.2), "the refused action left a trace");
        assert_eq!(g.messages().len() == set_up, quiet, "a quiet game keeps no message, a loud one keeps them");
        assert_goes_on("log_20mib", &mut g);
    });
}

#[test]
fn card_counts_never_wrap() {
    let (e, _) = breach_fails("overflow", ScriptErrorKind::Runtime);
    assert!(e.message.contains("at most 65535"), "{e}");
}

#[test]
fn more_players_than_a_piece_owner_can_name_are_refused() {
    let mut h = header("base");
    h.players = 300;
    let e = Game::new(h).err().expect("300 players must be refused");
    assert!(e.to_string().contains("more than the engine allows"), "{e}");
    let e = new_error("tests/variants/many_players.lua");
    assert!(e.to_string().contains("at most 254"), "{e}");
}

/// DESIGN 3 and 5: what a script can observe is the same in every run; `tostring` of a
/// table once showed its heap address.
#[test]
fn what_scripts_observe_has_no_addresses() {
    let observed = || {
        let mut g = Game::new(header(BREACH)).unwrap();
        g.act(0, "observe").unwrap().messages[0].text.clone()
    };
    assert_eq!(observed(), "observed table function table");
    for command in ["address", "table_keys"] {
        let (e, _) = breach_fails(command, ScriptErrorKind::Runtime);
        assert!(e.message.contains("address") || e.message.contains("no fixed order"), "{command}: {e}");
    }
}

/// DESIGN 5: the objects and library tables the engine hands to scripts are frozen;
/// replacing `g.roll` or `ipairs` took effect outside the state, never saved or undone.
#[test]
fn scripts_cannot_change_what_the_engine_hands_them() {
    within(60, "tamper", || {
        for what in [
            "g_method",
            "g_rawset",
            "g_metatable",
            "ipairs",
            "new_global",
            "string_lib",
            "string_metatable",
            "table_lib",
            "g_computed_key",
            "g_integer_key",
            "g_from_c",
            "math_from_c",
            "register_hook",
            "replace_hook",
        ] {
            let command = format!("tamper {what}");
            let mut g = Game::new(header(BREACH)).unwrap();
            let before = snapshot(&g);
            let e = script_error(&command, g.act(0, &command));
            assert_eq!(e.kind, ScriptErrorKind::Runtime, "{command}: {e:?}");
            assert_untouched(&command, &g, &before);
            // The rules are unchanged: the dice still roll at random and the turn goes on.
            assert_goes_on(&command, &mut g);
            let d = g.state().vars.get("last_roll").cloned();
            assert_ne!(d, Some(catan_engine::value::Value::List(vec![Value::Int(6), Value::Int(6)])), "{command}");
        }
    });
}

#[test]
fn errors_raised_with_tables_or_nothing_keep_their_location() {
    for (command, marker, text) in [
        ("error_table", "ERROR TABLE HERE", "called with a table"),
        ("error_nil", "ERROR NIL HERE", "without a message"),
        ("misuse", "MISUSE HERE", "not a card"),
    ] {
        let (e, _) = breach_fails(command, ScriptErrorKind::Runtime);
        assert!(e.message.contains(text), "{command}: {e}");
        assert!(!e.message.contains("0x"), "{command}: {e}");
        assert_eq!(e.location.as_deref(), Some(line_of(BREACH, marker).as_str()), "{command}: {e:?}");
        assert_eq!(e.rule.as_deref(), Some(format!("action '{command}'").as_str()), "{command}: {e:?}");
    }
}

/// A `to_act` filter that answers a colour instead of a seat used to end the REPL with
/// "error converting Lua string to i64": the action that leads there is refused, naming
/// the filter and its line, and the game goes on.
#[test]
fn a_to_act_hook_of_the_wrong_type_refuses_the_action_that_exposes_it() {
    let (e, _) = breach_fails("misdirect", ScriptErrorKind::Runtime);
    assert!(e.message.contains("breach.to_act") && e.message.contains("string"), "{e}");
    assert_eq!(e.location.as_deref(), Some(line_of(BREACH, "BAD TO_ACT HERE").as_str()), "{e:?}");
}

/// Who acts next is asked read-only after every action, in the same call into the rules:
/// a `to_act` filter that writes refuses the action, at the write's line.
#[test]
fn a_to_act_hook_that_writes_refuses_the_action() {
    let (e, _) = breach_fails("scribble", ScriptErrorKind::Runtime);
    assert!(e.message.contains("may not change"), "{e}");
    assert_eq!(e.location.as_deref(), Some(line_of(BREACH, "TO_ACT WRITES HERE").as_str()), "{e:?}");
}

/// The switch that makes the state read-only is handed to the prelude alone: no global
/// lets a variant turn it on (and so make every later write of the game fail).
#[test]
fn the_read_only_switch_is_out_of_reach() {
    let mut g = Game::new(header(BREACH)).unwrap();
    g.act(0, "switch").unwrap();
    assert_eq!(g.state().vars.get("switch"), Some(&catan_engine::value::Value::Str("nil nil".into())));
}

/// A `rolled` subscriber that fails on 8: the error names the hook and its line, the
/// game is intact and can be saved and loaded again.
#[test]
fn an_error_in_an_event_hook_names_the_hook_and_the_game_can_be_saved() {
    let mut h = header(ROLLED_ERROR);
    h.sandbox = true;
    let mut g = Game::new(h).unwrap();
    g.sandbox(0, "dice 4 4").unwrap();
    let before = snapshot(&g);
    let e = script_error("roll 8", g.act(0, "roll"));
    assert_eq!(e.rule.as_deref(), Some("event hook 'rolled_error.eights'"), "{e:?}");
    assert_eq!(e.location.as_deref(), Some(line_of(ROLLED_ERROR, "ROLLED FAILS HERE").as_str()), "{e:?}");
    assert!(e.to_string().contains("rolled_error.eights"), "{e}");
    assert_untouched("roll 8", &g, &before);
    let (loaded, div) = Game::load_json(&g.save_json()).unwrap();
    assert!(div.is_none(), "{div:?}");
    assert_same_state("reload", &g.state(), &loaded.state());
}

#[test]
fn an_error_in_a_sequence_hook_names_the_hook() {
    let (e, _) = breach_fails("after_fail", ScriptErrorKind::Runtime);
    assert_eq!(e.rule.as_deref(), Some("sequence hook 'breach.after'"), "{e:?}");
    assert_eq!(e.location.as_deref(), Some(line_of(BREACH, "AFTER FAILS HERE").as_str()), "{e:?}");
}

/// Listing for a human (`legal`) and sampling for a bot report the action whose options
/// failed, instead of an empty list.
#[test]
fn an_error_while_listing_or_sampling_names_the_action() {
    let mut g = Game::new(header(HOSTILE_OPTIONS)).unwrap();
    g.act(0, "roll").unwrap();
    let named = |r: Result<(), GameError>| match r {
        Err(GameError::Script(e)) => assert!(e.rule.as_deref().is_some_and(|r| r.starts_with("action '")), "{e:?}"),
        other => panic!("expected a script error, got {other:?}"),
    };
    named(g.legal_actions(0).map(|_| ()));
    let mut bot = catan_engine::bot::RandomBot::new(1);
    let mut failed = None;
    for _ in 0..20 {
        if let Err(e) = bot.choose(&g, 0) {
            failed = Some(e);
            break;
        }
    }
    named(failed.map_or(Ok(()), Err));
}

/// `catan sim` counts games a script error stopped, with their errors, instead of
/// giving up the whole run.
#[test]
fn sim_counts_games_stopped_by_a_script_error() {
    within(240, "sim", || {
        let r = catan_engine::sim::run(
            &[ROLLED_ERROR.to_string()],
            4,
            &[],
            3,
            1,
            &catan_engine::sim::Lineup::default(),
            |_| {},
        )
        .unwrap();
        assert_eq!(r.games, 3);
        assert!(!r.failed.is_empty(), "a game of base rolls an 8: {r:?}");
        assert_eq!(r.finished + r.failed.len(), 3, "{r:?}");
        for f in &r.failed {
            assert!(f.error.contains("rolled_error.eights") && f.error.contains("rolled_error.lua:"), "{f:?}");
        }
    });
}

/// DESIGN §5, "a replay gives the same game": what `g:cached` kept while the legal
/// actions were listed (48 MiB here) must not refuse an action that fits without it
/// (which needs twice as much for a moment), or the same commands would give a different game depending on how
/// often `legal` was asked, and the save's replay, which lists nothing, could differ.
#[test]
fn values_kept_while_listing_do_not_decide_whether_an_action_fits_in_memory() {
    within(120, "kept memory", || {
        let variant = "tests/variants/kept_memory.lua";
        let mut quiet = Game::new(header(variant)).unwrap();
        quiet.act(0, "grab").unwrap();
        let mut listed = Game::new(header(variant)).unwrap();
        assert!(listed.legal_actions(0).unwrap().iter().any(|a| a.name == "peek"));
        listed.act(0, "grab").unwrap();
        assert_eq!(*listed.state(), *quiet.state());
        let (replayed, divergence) = Game::load_json(&listed.save_json()).unwrap();
        assert!(divergence.is_none(), "{divergence:?}");
        assert_eq!(*replayed.state(), *listed.state());
    });
}
