//! Whole Theme Games of The Era of Progress played by random bots, with the invariants
//! checked after every action (the 125 cards conserved; resources 0-3 per region; points
//! recomputed equal points reported; the advantage tokens with the Chief Cannoneer's
//! strength; hidden hands and stacks), every listed action accepted, save and load, and the
//! REPL. As for the other sets, the suite plays to 7 points and a few hundred actions of
//! the 12-point game; `-- --ignored` plays whole 12-point games.

use crate::rivals_theme;

use catan_engine::Game;
use rivals_theme::*;

const V: &str = "rivals_progress";

fn want(g: &Game) -> Vec<usize> {
    sets_expected(g, &[(PROGRESS, PROGRESS_NEW)])
}

fn points(g: &Game, s: usize) -> i64 {
    theme_points(g, s, PROGRESS_VP)
}

fn strength(g: &Game, s: usize) -> i64 {
    basic_strength(g, s) + printed(g, s, PROGRESS_STRENGTH)
}

const INV: Invariants = Invariants { want, all: 94 + 31, stores: &[], points, strength, commerce: basic_commerce };

#[test]
fn progress_games_to_7_points_keep_every_invariant() {
    for seed in 0..2 {
        play_to_winner(V, seed, 7, &INV);
    }
}

#[test]
fn progress_game_at_12_points_lists_only_accepted_actions() {
    random_steps(V, 11, 500, &INV);
}

#[test]
#[ignore = "random bots take thousands of actions to reach 12 points"]
fn whole_progress_games_at_12_points() {
    for seed in 0..2 {
        play_to_winner(V, seed, 12, &INV);
    }
}

#[test]
fn save_load_replays_a_progress_game() {
    save_load_round_trip(V, 3);
}

/// `catan play --variant rivals_progress`: card text on request and the face-up stack.
#[test]
fn repl_shows_progress_card_text() {
    let text = repl_text(V, "help town_hall\nhelp university\nshow bank\n");
    assert!(text.contains("town hall (costs brick, 2 wool, 2 ore"), "{text}");
    assert!(text.contains("University: 1 per principality"), "{text}");
    assert!(text.contains("face-up expansion stack: 2 university"), "{text}");
}
