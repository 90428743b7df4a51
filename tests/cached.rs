//! `g:cached(fn, arg, reads)` (docs/api.md, "Log, events and hooks"): a value derived from
//! the state is computed once while what it reads is unchanged, and never outlives a
//! change, a refused action or an undo.

use catan_engine::value::Value;
use catan_engine::{Game, GameError, Header};

const CACHED: &str = "tests/variants/cached.lua";

fn game() -> Game {
    Game::new(Header { variants: vec![CACHED.into()], players: 2, seed: 1, options: vec![], sandbox: false })
        .expect("the fixture loads")
}

/// Runs `look <how>`; returns (red's yard store as the cache gave it, computations so far).
fn look(g: &mut Game, how: &str) -> (i64, i64) {
    g.act(0, &format!("look {how}")).unwrap_or_else(|e| panic!("look {how}: {e}"));
    let value = match g.state().vars.get("value") {
        Some(Value::Int(n)) => *n,
        other => panic!("value is {other:?}"),
    };
    // Counted by the engine: a rule's variables are fixed once loaded, so it cannot count.
    (value, g.cached_computations().expect("a count") as i64)
}

fn act(g: &mut Game, line: &str) {
    g.act(0, line).unwrap_or_else(|e| panic!("{line}: {e}"));
}

#[test]
fn reads_nil_recomputes_after_any_change() {
    let mut g = game();
    assert_eq!(look(&mut g, "whole"), (1, 1), "two asks, one computation");
    // `look` itself wrote variables: the whole-state value is stale.
    assert_eq!(look(&mut g, "whole"), (1, 2));
    act(&mut g, "store 1 7");
    assert_eq!(look(&mut g, "whole"), (7, 3));
}

#[test]
fn grids_survive_other_writes_but_not_a_grid_write() {
    let mut g = game();
    assert_eq!(look(&mut g, "grids"), (1, 1));
    act(&mut g, "note");
    assert_eq!(look(&mut g, "grids"), (1, 1), "a variable written: the grids are unchanged");
    act(&mut g, "market 3");
    assert_eq!(look(&mut g, "grids"), (1, 2), "the market is a grid");
    act(&mut g, "store 1 4");
    assert_eq!(look(&mut g, "grids"), (4, 3));
}

#[test]
fn seat_grids_follow_only_that_seats_grids() {
    let mut g = game();
    assert_eq!(look(&mut g, "seat_grids"), (1, 1));
    act(&mut g, "store 2 9");
    act(&mut g, "market 5");
    assert_eq!(look(&mut g, "seat_grids"), (1, 1), "blue's yard and the market are not red's");
    act(&mut g, "store 1 6");
    assert_eq!(look(&mut g, "seat_grids"), (6, 2));
}

#[test]
fn seat_cards_follow_the_cards_not_the_stores() {
    let mut g = game();
    assert_eq!(look(&mut g, "seat_cards"), (1, 1));
    act(&mut g, "store 1 3");
    // The store changed but no card moved: the value kept is the old store, which is what
    // "seat_cards" promises a function reading stores will get (docs/api.md).
    assert_eq!(look(&mut g, "seat_cards"), (1, 1));
    act(&mut g, "take 1");
    assert_eq!(look(&mut g, "seat_cards"), (0, 2), "a card taken: recomputed (an emptied position loses its store)");
}

#[test]
fn constants_are_kept_whatever_changes() {
    let mut g = game();
    assert_eq!(look(&mut g, "constants"), (1, 1));
    // The fixture's function reads a store, which "constants" promises it does not: what
    // it computed first is what it gives after any change, a card taken included.
    act(&mut g, "store 1 3");
    act(&mut g, "take 1");
    assert_eq!(look(&mut g, "constants"), (1, 1));
    assert_eq!(look(&mut g, "whole"), (0, 2), "the other kinds see the change");
}

#[test]
fn a_refused_action_and_an_undo_leave_nothing_stale() {
    let mut g = game();
    assert_eq!(look(&mut g, "seat_grids").0, 1);
    // The store is set to 8 and read through the cache, then the action fails.
    let e = g.act(0, "spoil 8").expect_err("spoil fails");
    assert!(e.to_string().contains("spoiled on purpose"), "{e}");
    assert_eq!(look(&mut g, "seat_grids").0, 1, "the value of the state put back");
    act(&mut g, "store 1 5");
    assert_eq!(look(&mut g, "seat_grids").0, 5);
    g.undo(2).expect("undo the look and the store");
    assert_eq!(look(&mut g, "seat_grids").0, 1, "the value of the state undone to");
}

#[test]
fn reads_of_an_unknown_kind_are_refused_at_the_line() {
    let mut g = game();
    let before = g.state().clone();
    match g.act(0, "look board") {
        Err(GameError::Script(e)) => {
            assert!(
                e.message.contains(
                    "reads must be nil, \"grids\", \"seat_grids\", \"seat_cards\", \"constants\" or \"recorded\""
                ),
                "{e}"
            );
            let at = e.location.clone().unwrap_or_default();
            assert!(at.starts_with("tests/variants/cached.lua:"), "{e:?}");
        }
        other => panic!("expected a script error, got {other:?}"),
    }
    assert!(*g.state() == before, "the game is unchanged");
}
