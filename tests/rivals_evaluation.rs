//! The Rivals evaluation (`rivals.evaluate`, variants/rivals/evaluation.lua) in constructed
//! positions: what the bots are meant to prefer. Not a rule of the game: the bots'
//! knowledge of it (docs/bots.md, "Rivals: what was tried"). Positions are built with the
//! variant's `edit ...` commands as in tests/rules_rivals.rs.

use crate::rivals::*;
use catan_engine::Game;

/// Red to act in the action phase of turn 1 with every region empty.
fn red_action() -> Game {
    let mut g = game("red");
    roll(&mut g, 5, "brigand");
    assert_eq!(g.state().phase, "action");
    empty_regions(&mut g);
    g
}

/// Red's score by the evaluation after `cmd`, the game put back as it was.
fn after(g: &mut Game, cmd: &str) -> f64 {
    let snap = g.snapshot();
    act(g, "red", cmd);
    let v = g.bot_scores().unwrap()[seat(g, "red")];
    g.restore(&snap);
    v
}

/// With the resources for either, a city (a point now) is worth more to the bots
/// than a road towards a settlement site (a point two builds away).
#[test]
fn prefers_a_city_to_a_road() {
    let mut g = red_action();
    // 2 grain and 3 ore for a city, 2 brick and 1 lumber for a road.
    set_stores(&mut g, &[("O2", 2), ("O4", 3), ("K4", 2), ("K2", 1)]);
    let city = after(&mut g, "build city L3");
    let road = after(&mut g, "build road K3");
    assert!(city > road, "city {city} road {road}");
}
