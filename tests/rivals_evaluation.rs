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

/// Red's score by the evaluation as the position stands.
fn now(g: &Game) -> f64 {
    g.bot_scores().unwrap()[seat(g, "red")]
}

/// Trading 3:1 (Game Turn 2c, Regular Exchange Rate) for the last ore of a city's price
/// is worth more to the bots than keeping the three bricks: the evaluation counts how near
/// the stores are to a build, so a trade that brings a city within reach scores before the
/// city is built (without it, a first look saw only two resources fewer).
#[test]
fn a_trade_that_completes_a_citys_price_is_worth_making() {
    let mut g = red_action();
    // 2 grain and 2 ore of the city's 2 grain and 3 ore, and 3 brick to trade.
    set_stores(&mut g, &[("O2", 2), ("O4", 2), ("K4", 3)]);
    let keep = now(&g);
    let trade = after(&mut g, "trade 3 brick for ore");
    assert!(trade > keep, "trade {trade} keep {keep}");
}

/// The same trade for a resource no build of red's needs is not worth it: nearness counts
/// only toward a build red has the room for.
#[test]
fn a_trade_toward_no_build_is_not_worth_making() {
    let mut g = red_action();
    set_stores(&mut g, &[("O2", 2), ("O4", 2), ("K4", 3)]);
    let keep = now(&g);
    let trade = after(&mut g, "trade 3 brick for gold");
    assert!(trade < keep, "trade {trade} keep {keep}");
}

/// The Duel of the Princes (13 points, where the road, settlement and city stacks can run
/// out): an expansion built scores above the same card kept in hand with its price in
/// store (`rivals_duel.evaluate`). Without it, two planners kept a grain mill in hand for
/// hundreds of turns once the centre stacks were empty, and the game never ended.
#[test]
fn duel_an_expansion_built_is_worth_more_than_kept_in_hand() {
    let mut g = crate::rivals_theme::theme_game("rivals_duel", "red");
    roll(&mut g, 5, "brigand");
    assert_eq!(g.state().phase, "action");
    empty_regions(&mut g);
    edit(&mut g, "hand red grain_mill");
    // The grain mill's price, 1 grain and 1 lumber, from red's fields and forest.
    let region = |kind: &str| regions(&g, "red").into_iter().find(|(_, k)| k.starts_with(kind)).expect(kind).0;
    let (fields, forest) = (region("fields"), region("forest"));
    set_stores(&mut g, &[(fields.as_str(), 1), (forest.as_str(), 1)]);
    let build = legal_texts(&g, "red")
        .into_iter()
        .find(|t| t.starts_with("build grain_mill "))
        .expect("red may build the grain mill");
    let keep = now(&g);
    let built = after(&mut g, &build);
    assert!(built > keep, "{build}: {built}, kept in hand: {keep}");
}
