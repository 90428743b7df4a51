//! Every `g:` method is declared once (src/script/methods.rs) and its two ways of being
//! called derived from that one declaration: the mlua function, and for a method declared
//! `fast` a raw C function. Each fast method here is called both ways by the fixture
//! (tests/variants/api_methods.lua) and must give the same answers, the same state, the
//! same errors at the same script lines and spend the same budget; and the C function must
//! really be the one that answered.

use catan_engine::script::INSTRUCTION_BUDGET;
use catan_engine::script::{fast_method_names, record_fast_answers, set_fast_methods, ScriptErrorKind};
use catan_engine::state::GameState;
use catan_engine::{Game, GameError, Header};

const FIXTURE: &str = "tests/variants/api_methods.lua";

/// What one command did: its outcome or error as text, the state after it, and (when
/// asked) the least instruction budget it runs within.
#[derive(Debug, PartialEq)]
struct Run {
    result: String,
    state: GameState,
    budget: Option<u64>,
}

/// Plays `command` for red after the roll on a fresh game, with the methods answered by
/// their C functions (`fast`) or by their mlua functions alone; and which C functions
/// answered it.
fn play(fast: bool, command: &str, budget: bool) -> (Run, Vec<&'static str>) {
    set_fast_methods(fast);
    let mut g =
        Game::new(Header { variants: vec![FIXTURE.into()], players: 4, seed: 5, options: vec![], sandbox: false })
            .expect("the fixture loads");
    g.act(0, "roll").expect("red rolls");
    let before = g.snapshot();
    record_fast_answers(true);
    let result = format!("{:?}", g.act(0, command));
    let answered = record_fast_answers(false);
    let state = g.state().clone();
    let budget = budget.then(|| least_budget(&mut g, &before, command));
    set_fast_methods(true);
    (Run { result, state, budget }, answered)
}

/// The least instruction budget `command` runs within (past which it does what it does
/// with the whole budget: succeed, or fail with an error other than the budget's).
fn least_budget(g: &mut Game, before: &catan_engine::engine::Snapshot, command: &str) -> u64 {
    let passes = |g: &mut Game, units: u64| {
        g.restore(before);
        g.set_instruction_budget(units);
        !matches!(g.act(0, command), Err(GameError::Script(e)) if e.kind == ScriptErrorKind::Budget)
    };
    let (mut low, mut high) = (0, 1 << 16);
    while !passes(g, high) {
        (low, high) = (high, high * 2);
        assert!(high < INSTRUCTION_BUDGET * 2, "{command} never fits");
    }
    while high - low > 1 {
        let mid = (low + high) / 2;
        if passes(g, mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    g.set_instruction_budget(INSTRUCTION_BUDGET);
    g.restore(before);
    high
}

#[test]
fn every_fast_method_answers_alike_both_ways_and_its_c_function_answers() {
    let names = fast_method_names();
    assert!(names.len() >= 40, "{names:?}");
    for name in names {
        let command = format!("call {name}");
        let (fast, answered) = play(true, &command, false);
        let (slow, answered_slow) = play(false, &command, false);
        assert!(fast.result.starts_with("Ok("), "{command}: {}", fast.result);
        assert_eq!(fast, slow, "{command}: the C function and the mlua function disagree");
        // Which C functions answered is recorded in debug builds only (`record_fast_answers`).
        if cfg!(debug_assertions) {
            assert!(answered.contains(&name), "{command}: its C function never answered ({answered:?})");
        }
        assert!(answered_slow.is_empty(), "{command}: C functions answered with the fast path off: {answered_slow:?}");
    }
}

#[test]
fn every_fast_method_spends_the_same_budget_both_ways() {
    for name in fast_method_names() {
        let command = format!("call {name}");
        let (fast, _) = play(true, &command, true);
        let (slow, _) = play(false, &command, true);
        assert_eq!(fast.budget, slow.budget, "{command}: the least budget differs");
    }
}

#[test]
fn every_fast_method_refuses_alike_both_ways() {
    let mut refused = 0;
    for name in fast_method_names() {
        let command = format!("bad {name}");
        let (fast, _) = play(true, &command, false);
        let (slow, _) = play(false, &command, false);
        assert_eq!(fast.result, slow.result, "{command}: the C function and the mlua function refuse differently");
        assert_eq!(fast.state, slow.state, "{command}");
        if fast.result.starts_with("Err(") {
            refused += 1;
            // An argument of the wrong type is refused by mlua before the method runs, with
            // no script line (as for every method); anything else names the fixture's line.
            let by_mlua = fast.result.contains("bad argument #");
            assert!(by_mlua || fast.result.contains(FIXTURE), "{command}: no script line: {}", fast.result);
        }
    }
    assert!(refused >= 30, "only {refused} refusals compared");
}
