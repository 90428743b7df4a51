//! Slot grids as a generic mechanism (src/slots, the `g` methods of src/script/api_slots.rs),
//! through a test-only variant that has nothing of Rivals: per-player and game grids,
//! labels numbered across grids, `<slot>` arguments, piles, stores, neighbours, swaps,
//! cards going under a stack, the errors, and the view.

use catan_engine::engine::Observer;
use catan_engine::view::view;
use catan_engine::{Game, GameError, Header};

const TABLEAU: &str = "tests/variants/tableau.lua";

fn game() -> Game {
    Game::new(Header { variants: vec![TABLEAU.into()], players: 3, seed: 1, options: vec![], sandbox: false }).unwrap()
}

fn report(g: &mut Game) -> std::collections::BTreeMap<String, String> {
    g.act(0, "report").unwrap();
    match g.state().vars.get("report") {
        Some(catan_engine::value::Value::Map(m)) => m.iter().map(|(k, v)| (k.clone(), v.to_string())).collect(),
        other => panic!("no report: {other:?}"),
    }
}

#[test]
fn grids_are_made_per_seat_and_for_the_game_with_unique_labels() {
    let g = game();
    let st = g.state();
    // yard: red rows 1-2, blue 3-4, white 5-6; the market row 7.
    assert_eq!(st.grids.len(), 4);
    let firsts: Vec<u32> = st.grids.iter().map(|x| x.first_row).collect();
    assert_eq!(firsts, vec![1, 3, 5, 7]);
    assert_eq!(st.grids[3].owner, None);
    assert_eq!(st.grids[3].label(0, 0), "A7");
}

#[test]
fn cards_piles_stores_and_neighbours() {
    let mut g = game();
    g.act(0, "put star B1").unwrap();
    g.act(0, "put moon b1").unwrap(); // labels in any case
    g.act(0, "put star A7").unwrap(); // the game's market
    let r = report(&mut g);
    assert_eq!(r["size"], "2x3");
    assert_eq!(r["market"], "star/6");
    assert_eq!(r["around"], "A1 C1 A2 B2 C2");
    assert_eq!(r["slots"], "B1=moon/2");
    assert_eq!(r["stars"], "0", "the star lies under the moon");
    assert_eq!(r["found"], "1");
    assert_eq!(r["label"], "C2");
    assert_eq!(r["missing"], "true");
    assert!(g.act(0, "put star B3").is_err(), "blue's yard");
    // Lift the moon: it goes under the pile; the star is in play again.
    g.act(0, "lift B1").unwrap();
    let r = report(&mut g);
    assert_eq!(r["slots"], "B1=star/2");
    assert!(r["pile"].starts_with("moon"), "{}", r["pile"]);
    // Swap moves pile and store together; the emptied position is forgotten.
    g.act(0, "swap B1 C2").unwrap();
    let r = report(&mut g);
    assert_eq!(r["slots"], "C2=star/2");
    g.act(0, "lift C2").unwrap();
    let r = report(&mut g);
    assert_eq!(r["slots"], "", "a position without cards loses its store");
}

#[test]
fn misuse_is_an_error_that_changes_nothing() {
    let mut g = game();
    g.act(0, "put star A1").unwrap();
    for (how, msg) in [
        ("owner", "grid 'yard' belongs to a player: name the player"),
        ("bounds", "there is no position (row 3, column 1) in grid 'yard' (2 rows, 3 columns)"),
        ("grid", "'garden' is not a grid of this game"),
        ("empty", "there is no card on A1"),
        ("zone", "'hand' holds no sun"),
    ] {
        if how == "empty" {
            g.act(0, "lift A1").unwrap();
        }
        let before = g.state().clone();
        match g.act(0, &format!("misuse {how}")) {
            Err(GameError::Script(e)) => assert!(e.message.contains(msg), "{how}: {e}"),
            other => panic!("{how}: {other:?}"),
        }
        assert!(*g.state() == before);
    }
    match g.act(0, "lift Q9") {
        Err(GameError::Parse(e)) => assert!(e.0.contains("'Q9' is not a slot"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn views_show_grids_to_everyone_and_saves_replay_them() {
    let mut g = game();
    g.act(0, "put moon C2").unwrap();
    let v = view(&g, Observer::Seat(1));
    let red = &v["grids"][0];
    assert_eq!(red["owner"], "red");
    assert_eq!(red["slots"][0]["label"], "C2");
    assert_eq!(red["slots"][0]["cards"][0], "moon");
    assert_eq!(red["slots"][0]["store"], 1);
    let (h, div) = Game::load_json(&g.save_json()).unwrap();
    assert!(div.is_none());
    assert!(*h.state() == *g.state());
    let text = catan_engine::slots::render::render(&g.state(), g.spec(), false);
    assert!(text.contains("red's yard (rows 1-2)") && text.contains("moon") && text.contains("C2 ●"), "{text}");
    assert!(text.contains("market (rows 7-7)") && text.contains("A7 ●●●●●"), "{text}");
}
