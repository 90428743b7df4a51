//! Whole games of The Duel of the Princes played by random bots, with the invariants
//! checked after every action (the 180 cards of the box conserved, the half-moon cards out
//! of play included; resources 0-3 per region and Gold Cache; points recomputed with every
//! set's cards equal points reported; the tokens; hidden hands and stacks), every listed
//! action accepted, save and load, and the REPL. The suite plays to 7 points and a few
//! hundred actions of the 13-point game; `-- --ignored` plays whole 13-point games.

use crate::rivals_gold;
use crate::rivals_theme;

use catan_engine::Game;
use rivals_theme::*;

const V: &str = "rivals_duel";

fn want(g: &Game) -> Vec<usize> {
    sets_expected(g, &[(GOLD, GOLD_NEW), (TURMOIL, TURMOIL_NEW), (PROGRESS, PROGRESS_NEW)])
}

fn points(g: &Game, s: usize) -> i64 {
    rivals_gold::gold_points(g, s) + printed(g, s, TURMOIL_VP) + printed(g, s, PROGRESS_VP)
}

fn strength(g: &Game, s: usize) -> i64 {
    basic_strength(g, s) + printed(g, s, TURMOIL_STRENGTH) + printed(g, s, PROGRESS_STRENGTH)
}

const INV: Invariants =
    Invariants { want, all: 180, stores: &["gold_cache"], points, strength, commerce: rivals_gold::gold_commerce };

#[test]
fn duel_games_to_7_points_keep_every_invariant() {
    for seed in 0..2 {
        play_to_winner(V, seed, 7, &INV);
    }
}

#[test]
fn duel_at_13_points_lists_only_accepted_actions() {
    random_steps(V, 11, 500, &INV);
}

#[test]
#[ignore = "random bots take thousands of actions to reach 13 points"]
fn whole_duels_at_13_points() {
    for seed in 0..2 {
        play_to_winner(V, seed, 13, &INV);
    }
}

#[test]
fn save_load_replays_a_duel() {
    save_load_round_trip(V, 3);
}

/// `catan play --variant rivals_duel`: cards of every set in the REPL, no face-up stack,
/// six draw stacks.
#[test]
fn repl_shows_the_duel() {
    let text = repl_text(V, "help gudrun\nhelp archer\nhelp university\nshow bank\n");
    assert!(text.contains("gudrun (action card"), "{text}");
    assert!(text.contains("archer (action card"), "{text}");
    assert!(text.contains("University: 1 per principality"), "{text}");
    assert!(text.contains("draw stack 6: "), "{text}");
    assert!(text.contains("face-up expansion stack: empty"), "{text}");
}
