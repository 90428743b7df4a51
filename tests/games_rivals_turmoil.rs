//! Whole Theme Games of The Era of Turmoil played by random bots, with the invariants
//! checked after every action (the 122 cards conserved across stacks, hands,
//! principalities, the discard pile and the face-up stack; resources 0-3 per region; points
//! recomputed equal points reported; the advantage tokens with the set's strength; hidden
//! hands and stacks), every listed action accepted, save and load, and the REPL.
//!
//! Random bots take thousands of actions to reach 12 points (the set's attacks and their
//! own removals undo much of what they build), so the suite plays to 7 points and a few
//! hundred actions of the 12-point game; `-- --ignored` plays whole 12-point games.

use crate::rivals_theme;

use catan_engine::Game;
use rivals_theme::*;

const V: &str = "rivals_turmoil";

fn want(g: &Game) -> Vec<usize> {
    sets_expected(g, &[(TURMOIL, TURMOIL_NEW)])
}

fn points(g: &Game, s: usize) -> i64 {
    theme_points(g, s, TURMOIL_VP)
}

fn strength(g: &Game, s: usize) -> i64 {
    basic_strength(g, s) + printed(g, s, TURMOIL_STRENGTH)
}

const INV: Invariants = Invariants { want, all: 94 + 28, stores: &[], points, strength, commerce: basic_commerce };

#[test]
fn turmoil_games_to_7_points_keep_every_invariant() {
    for seed in 0..2 {
        play_to_winner(V, seed, 7, &INV);
    }
}

#[test]
fn turmoil_game_at_12_points_lists_only_accepted_actions() {
    random_steps(V, 11, 500, &INV);
}

#[test]
#[ignore = "random bots take thousands of actions to reach 12 points"]
fn whole_turmoil_games_at_12_points() {
    for seed in 0..2 {
        play_to_winner(V, seed, 12, &INV);
    }
}

#[test]
fn save_load_replays_a_turmoil_game() {
    save_load_round_trip("rivals_turmoil", 3);
}

/// `catan play --variant rivals_turmoil`: card text on request and the face-up stack.
#[test]
fn repl_shows_turmoil_card_text() {
    let text = repl_text(V, "help archer\nhelp sebastian\nshow bank\n");
    assert!(text.contains("archer (action card; with a Hedge Tavern"), "{text}");
    assert!(text.contains("Sebastian the Itinerant Preacher: only when the event is revealed"), "{text}");
    assert!(text.contains("face-up expansion stack: 2 hedge_tavern"), "{text}");
}
