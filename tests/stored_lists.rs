//! `g:insert(key, pos?, value)` and `g:remove(key, pos?)` (docs/api.md, "Variables"):
//! `table.insert` and `table.remove` on a stored list, an entry at a time, with the
//! method's errors at the script's line and the state untouched by a refused action; and
//! `g:set_entry(key, field, value)`, one entry of a stored table written in place.

use catan_engine::value::Value;
use catan_engine::{Game, GameError, Header};

const LISTS: &str = "tests/variants/lists.lua";

fn game() -> Game {
    Game::new(Header { variants: vec![LISTS.into()], players: 3, seed: 1, options: vec![], sandbox: false })
        .expect("the fixture loads")
}

fn act(g: &mut Game, line: &str) {
    g.act(0, line).unwrap_or_else(|e| panic!("{line}: {e}"));
}

fn s(x: &str) -> Value {
    Value::Str(x.into())
}

/// `action`, after "fill", is refused with `says` at the fixture's line marked with its
/// name, and the state is as before it.
fn refused_at_its_line(action: &str, says: &str) {
    let mut g = game();
    act(&mut g, "fill");
    let before = g.state().clone();
    let e = match g.act(0, action) {
        Err(GameError::Script(e)) => e,
        other => panic!("{action}: expected a script error, got {other:?}"),
    };
    assert!(e.message.contains(says), "{action}: {e}");
    let text = std::fs::read_to_string(LISTS).expect("fixture");
    let line = text.lines().position(|l| l.ends_with(&format!("-- {action}"))).expect("marker") + 1;
    assert_eq!(e.location.as_deref(), Some(format!("{LISTS}:{line}").as_str()), "{action}: {e:?}");
    assert!(*g.state() == before, "{action}: the refused action changed the state");
}

#[test]
fn insert_puts_entries_where_table_insert_would() {
    let mut g = game();
    act(&mut g, "fill");
    let Some(Value::List(q)) = g.state().vars.get("q").cloned() else {
        panic!("no list: {:?}", g.state().vars.get("q"))
    };
    assert_eq!(q.len(), 4);
    assert!(matches!(&q[0], Value::Map(m) if m.get("t") == Some(&s("a"))), "{q:?}");
    assert_eq!(&q[1..], &[s("b"), s("c"), s("d")]);
}

#[test]
fn remove_takes_entries_out_and_returns_them() {
    let mut g = game();
    act(&mut g, "fill");
    act(&mut g, "take");
    let took = g.state().vars.get("took").cloned();
    assert_eq!(took, Some(Value::List(vec![s("a"), Value::Int(2), s("d"), s("b"), s("c")])));
    act(&mut g, "drain");
    let drained = g.state().vars.get("drained").cloned();
    assert_eq!(
        drained,
        Some(Value::List(vec![Value::Int(5), Value::Bool(true), Value::Bool(true), Value::Bool(true)]))
    );
}

#[test]
fn a_bad_list_call_is_refused_at_the_line_and_changes_nothing() {
    for (action, says) in [
        ("bad_pos", "position 9 is out of bounds (1 to 5)"),
        ("bad_pos_table", "position a table is out of bounds (1 to 5)"),
        ("bad_remove_pos", "position 0 is out of bounds (1 to 4)"),
        ("bad_map", "'m' holds no list"),
        ("bad_nil", "the value to insert is nil"),
        ("bad_function", "function"),
    ] {
        refused_at_its_line(action, says);
    }
}

#[test]
fn set_with_a_field_leaves_the_table_a_whole_set_would() {
    let mut g = game();
    act(&mut g, "entries");
    let st = g.state();
    let Some(Value::Int(cases)) = st.vars.get("cases").cloned() else { panic!("no cases") };
    for i in 1..=cases {
        let (a, b) = (st.vars.get(&format!("a{i}")), st.vars.get(&format!("b{i}")));
        assert!(a.is_some(), "case {i}: nothing stored");
        assert_eq!(a, b, "case {i}: the entry written in place differs from the whole table stored");
    }
    // What the stored values hold is counted as a whole set counts it.
    let counted: usize = st.vars.iter().map(|(k, v)| 32 + k.len() + v.size()).sum::<usize>()
        + st.players.iter().flat_map(|p| p.vars.iter()).map(|(k, v)| 32 + k.len() + v.size()).sum::<usize>();
    assert_eq!(st.var_bytes, counted);
}

#[test]
fn set_with_a_field_counts_a_tally() {
    let mut g = game();
    act(&mut g, "tally");
    assert_eq!(
        g.state().vars.get("seen").cloned(),
        Some(Value::List(vec![Value::Int(3), Value::Int(1), Value::Bool(true)]))
    );
}

#[test]
fn a_bad_entry_is_refused_at_the_line_and_changes_nothing() {
    for (action, says) in [
        ("bad_entry_of_number", "'n' holds a number, not a table"),
        ("bad_entry_nil", "the entry to write is nil"),
        ("bad_entry_table", "the entry to write is an integer or a string, not a table"),
        ("bad_entry_function", "function"),
    ] {
        refused_at_its_line(action, says);
    }
}
