//! One test per rule of Rivals for Catan's Introductory Game and per Basic Set card
//! (../shared/rules/004: "Introductory Game" and the "Card Index"; card data from
//! ../shared/reference/rivals_cards.csv and rivals_setup.md). Each test's doc comment names
//! the rule it checks.
//!
//! Positions are built with the variant's `edit ...` commands (option test_edits) and the
//! sandbox's `dice A B` (A the production die, B the event die face: 1 brigand attack,
//! 2 trade, 3 celebration, 4 plentiful harvest, 5-6 event card). Every refused action goes
//! through `rivals::reject`, which also checks that the state is exactly unchanged.
//! Labels: see tests/rivals/mod.rs (red's forest 2 is K2, blue's forest 3 is K7, ...).

use crate::rivals;

use rivals::*;

fn n(g: &catan_engine::Game, who: &str, r: &str) -> u16 {
    stock(g, who)[r]
}

fn info(g: &catan_engine::Game, who: &str, key: &str) -> i64 {
    match g.describe(seat(g, who)).unwrap() {
        catan_engine::value::Value::Map(m) => m.get(key).and_then(|v| v.as_int()).unwrap_or(-1),
        _ => -1,
    }
}

/// Red to act in the action phase of turn 1, after a quiet roll (a 5: red's mountains O4 and
/// blue's fields O7 gain 1; brigand attack with nobody over 7).
fn red_action() -> catan_engine::Game {
    let mut g = game("red");
    roll(&mut g, 5, "brigand");
    assert_eq!(g.state().phase, "action");
    g
}

// Set-up -------------------------------------------------------------------------------------

/// Your Principality / rivals_setup.md 3: six regions with their die numbers around two
/// settlements joined by a road; every region holds 1 resource except the gold field.
#[test]
fn setup_starting_principalities() {
    let g = game("red");
    let red = [
        ("K2", "forest_2"),
        ("M2", "gold_field_1"),
        ("O2", "fields_6"),
        ("K4", "hills_3"),
        ("M4", "pasture_4"),
        ("O4", "mountains_5"),
    ];
    let blue = [
        ("K7", "forest_3"),
        ("M7", "gold_field_4"),
        ("O7", "fields_5"),
        ("K9", "hills_2"),
        ("M9", "pasture_1"),
        ("O9", "mountains_6"),
    ];
    for (l, k) in red.iter().chain(blue.iter()) {
        assert_eq!(top(&g, l).as_deref(), Some(*k), "{l}");
        assert_eq!(store(&g, l), if k.starts_with("gold") { 0 } else { 1 }, "{l}");
    }
    for (s1, r, s2) in [("L3", "M3", "N3"), ("L8", "M8", "N8")] {
        assert_eq!(pile(&g, s1), vec!["settlement"]);
        assert_eq!(pile(&g, r), vec!["road"]);
        assert_eq!(pile(&g, s2), vec!["settlement"]);
    }
    // Each player has each die number once.
    for who in ["red", "blue"] {
        let mut dice: Vec<String> =
            regions(&g, who).iter().map(|(_, k)| k.rsplit('_').next().unwrap().to_string()).collect();
        dice.sort();
        assert_eq!(dice, vec!["1", "2", "3", "4", "5", "6"]);
        assert_eq!(points(&g, who), 2, "two settlements");
    }
}

/// Other Preparations 1-3 and The Game Begins: 7 roads, 5 settlements, 7 cities, the
/// shuffled region stack of 12; 36 basic cards in 4 stacks of 9, of which the starting
/// player drew 3 from one stack and the other player 3 from another.
#[test]
fn setup_centre_stacks_and_draw_stacks() {
    let g = game("blue");
    assert_eq!(zone_cards(&g, "roads").len(), 7);
    assert_eq!(zone_cards(&g, "settlements").len(), 5);
    assert_eq!(zone_cards(&g, "cities").len(), 7);
    let regs = zone_cards(&g, "regions");
    assert_eq!(regs.len(), 12);
    for t in ["fields", "mountains", "hills", "forest", "pasture", "gold_field"] {
        assert_eq!(regs.iter().filter(|k| k.rsplit_once('_').unwrap().0 == t).count(), 2, "{t}");
    }
    let sizes: Vec<usize> = (1..=4).map(|i| zone_cards(&g, &format!("stack{i}")).len()).collect();
    assert_eq!(sizes, vec![6, 6, 9, 9]);
    assert_eq!(hand_size(&g, "red"), 3);
    assert_eq!(hand_size(&g, "blue"), 3);
    assert_eq!(g.state().phase, "roll");
    assert_eq!(to_act(&g), "blue");
}

/// Other Preparations 4-5: the event deck holds the 9 Basic Set events with Yule fourth
/// from the bottom.
#[test]
fn setup_event_deck_with_yule_fourth_from_the_bottom() {
    for first in ["red", "blue"] {
        let g = game(first);
        let deck = zone_cards(&g, "events");
        assert_eq!(deck.len(), 9);
        assert_eq!(deck[3], "yule", "{deck:?}");
        for (k, c) in [
            ("feud", 1),
            ("fraternal_feuds", 1),
            ("invention", 1),
            ("trade_ships_race", 1),
            ("traveling_merchant", 2),
            ("year_of_plenty", 2),
            ("yule", 1),
        ] {
            assert_eq!(deck.iter().filter(|x| *x == k).count(), c, "{k}");
        }
    }
}

/// The Game Begins: each player rolls; the high roller is the starting player.
#[test]
fn the_high_roller_starts() {
    for first in ["red", "blue"] {
        let g = game(first);
        let last = messages(&g).into_iter().rfind(|m| m.starts_with("start roll")).unwrap();
        let nums: Vec<u32> = last.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
        let winner = if nums[0] > nums[1] { "red" } else { "blue" };
        assert_eq!(winner, first, "{last}");
        assert_eq!(var_seat(&g, "starting_player").as_deref(), Some(first));
    }
}

// Rolling the dice -------------------------------------------------------------------------

/// Rolling the Dice: each region (of both players) whose number matches the production die
/// receives 1 resource; a region stores at most 3, more is lost.
#[test]
fn production_each_matching_region_gains_one_at_most_three() {
    let mut g = game("red");
    roll(&mut g, 2, "brigand");
    assert_eq!(store(&g, "K2"), 2, "red's forest 2");
    assert_eq!(store(&g, "K9"), 2, "blue's hills 2");
    assert_eq!(store(&g, "K4"), 1, "other regions unchanged");
    pass_turn(&mut g, "red");
    edit(&mut g, "store O2 3");
    roll(&mut g, 6, "brigand");
    assert_eq!(store(&g, "O2"), 3, "a full region loses the extra resource");
    assert_eq!(store(&g, "O9"), 2, "blue's mountains 6");
}

/// Event Die: the red club (Brigand Attack) is resolved before production: a player with
/// more than 7 resources loses all gold and wool, then the regions produce.
#[test]
fn brigand_attack_comes_before_production() {
    let mut g = game("red");
    set_stores(&mut g, &[("K2", 2), ("M2", 2), ("O2", 1), ("K4", 1), ("M4", 1), ("O4", 1)]);
    assert_eq!(stock_total(&g, "red"), 8);
    roll(&mut g, 4, "brigand"); // 4: red's pasture M4
    assert_eq!(store(&g, "M2"), 0, "gold lost");
    assert_eq!(store(&g, "M4"), 1, "wool lost, then the pasture produced 1");
    assert_eq!(store(&g, "K2"), 2, "other resources kept");
    assert_eq!(stock_total(&g, "blue"), 6, "blue (5 resources) is spared, then gains gold on the 4");
}

/// Brigand Attack: "more than 7": a player with exactly 7 loses nothing.
#[test]
fn brigand_attack_spares_seven() {
    let mut g = game("red");
    set_stores(&mut g, &[("K2", 1), ("M2", 2), ("M4", 1)]);
    assert_eq!(stock_total(&g, "red"), 7);
    roll(&mut g, 1, "brigand"); // 1: red's gold field M2 (after the attack)
    assert_eq!(store(&g, "M2"), 3);
    assert_eq!(store(&g, "M4"), 1);
}

/// Event Die: black symbols are resolved after production — the Traveling Merchant may be
/// paid with gold received from this very roll (Card Index: Traveling Merchant).
#[test]
fn black_symbols_come_after_production() {
    let mut g = game("red");
    assert_eq!(store(&g, "M2"), 0);
    edit(&mut g, "event traveling_merchant");
    roll(&mut g, 1, "event"); // 1: red's gold field M2 produces first
    assert_eq!(g.state().phase, "choose");
    assert_eq!(to_act(&g), "red");
    act(&mut g, "red", "choose ore");
    assert_eq!(store(&g, "M2"), 0, "the gold just produced paid the merchant");
    assert_eq!(store(&g, "O4"), 2);
}

/// Trade: the player with the trade advantage takes 1 resource of their choice from the
/// opponent; without a holder nothing happens.
#[test]
fn trade_event_takes_a_resource_from_the_opponent() {
    let mut g = game("red");
    roll(&mut g, 3, "trade"); // nobody holds the trade token
    assert_eq!(g.state().phase, "action");
    assert!(last_messages(&g).iter().any(|m| m.contains("nobody has the trade advantage")));
    pass_turn(&mut g, "red");
    for (l, k) in [("L2", "brick_ship"), ("L4", "grain_ship"), ("N2", "ore_ship")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    assert_eq!(var_seat(&g, "trade_token").as_deref(), Some("red"));
    roll(&mut g, 6, "trade"); // blue rolls; red chooses
    assert_eq!(to_act(&g), "red");
    edit(&mut g, "store M7 0");
    let reason = reject(&mut g, "red", "choose gold");
    assert!(reason.contains("has no gold"), "{reason}");
    let (rb, bb) = (n(&g, "red", "wool"), n(&g, "blue", "wool"));
    act(&mut g, "red", "choose wool");
    assert_eq!(n(&g, "red", "wool"), rb + 1);
    assert_eq!(n(&g, "blue", "wool"), bb - 1);
    assert_eq!(g.state().phase, "action");
    assert_eq!(to_act(&g), "blue");
}

/// Celebration: the player with the most skill points alone receives 1 resource of their
/// choice; otherwise (a tie) each player does.
#[test]
fn celebration_most_skill_points_alone_else_both() {
    let mut g = game("red");
    roll(&mut g, 3, "celebration"); // 0-0: both, the roller first
    assert_eq!(to_act(&g), "red");
    act(&mut g, "red", "choose ore");
    assert_eq!(to_act(&g), "blue");
    act(&mut g, "blue", "choose grain");
    assert_eq!(g.state().phase, "action");
    pass_turn(&mut g, "red");
    edit(&mut g, "place L2 austin"); // skill 2 for red
    roll(&mut g, 3, "celebration");
    assert_eq!(to_act(&g), "red");
    let before = n(&g, "red", "wool");
    act(&mut g, "red", "choose wool");
    assert_eq!(n(&g, "red", "wool"), before + 1);
    assert_eq!(g.state().phase, "action", "blue receives nothing");
}

/// Plentiful Harvest: each player receives 1 resource of their choice.
#[test]
fn plentiful_harvest_both_choose() {
    let mut g = game("blue");
    roll(&mut g, 3, "harvest");
    assert_eq!(to_act(&g), "blue");
    act(&mut g, "blue", "choose gold");
    assert_eq!(to_act(&g), "red");
    act(&mut g, "red", "choose gold");
    assert_eq!(store(&g, "M7"), 1);
    assert_eq!(store(&g, "M2"), 1);
    assert_eq!(to_act(&g), "blue");
}

/// Event Card: the roller draws the top event card, it is resolved, then put under the
/// event deck.
#[test]
fn event_cards_go_under_the_deck() {
    let mut g = game("red");
    edit(&mut g, "event year_of_plenty");
    roll(&mut g, 3, "event");
    let deck = zone_cards(&g, "events");
    assert_eq!(deck.len(), 9);
    assert_eq!(deck[0], "year_of_plenty", "{deck:?}");
    assert!(zone_cards(&g, "revealed").is_empty());
}

// Building ----------------------------------------------------------------------------------

/// Building a Road: 2 brick and 1 lumber, at an open end of the centre row next to a
/// settlement; there is exactly 1 road between 2 settlements.
#[test]
fn roads_go_at_an_open_end() {
    let mut g = red_action();
    set_stores(&mut g, &[("K4", 3), ("K2", 2)]);
    let r = reject(&mut g, "red", "build road M2");
    assert!(r.contains("open end"), "{r}");
    reject(&mut g, "red", "build road K8"); // blue's principality
    act(&mut g, "red", "build road K3");
    assert_eq!(top(&g, "K3").as_deref(), Some("road"));
    assert_eq!((store(&g, "K4"), store(&g, "K2")), (1, 1), "paid 2 brick, 1 lumber");
    assert_eq!(zone_cards(&g, "roads").len(), 6);
    // Beyond a road goes a settlement, not another road.
    let r = reject(&mut g, "red", "build road J3");
    assert!(r.contains("open end"), "{r}");
    let r = reject(&mut g, "red", "build road O3");
    assert!(r.contains("costs 2 brick, 1 lumber"), "{r}");
}

/// Building a Settlement: at the open end of a road, for brick, grain, wool and lumber; 1
/// point; the 2 top cards of the region stack go on its unoccupied corners, with nothing
/// stored.
#[test]
fn settlements_take_two_regions_from_the_stack() {
    let mut g = red_action();
    reject(&mut g, "red", "build settlement K3");
    edit(&mut g, "place K3 road");
    set_stores(&mut g, &[("K4", 1), ("O2", 1), ("M4", 1), ("K2", 1)]);
    let stack = zone_cards(&g, "regions");
    act(&mut g, "red", "build settlement J3");
    assert_eq!(top(&g, "J3").as_deref(), Some("settlement"));
    assert_eq!(top(&g, "I2").as_deref(), Some(stack[11].as_str()), "the top region goes above");
    assert_eq!(top(&g, "I4").as_deref(), Some(stack[10].as_str()));
    assert_eq!((store(&g, "I2"), store(&g, "I4")), (0, 0));
    assert_eq!(zone_cards(&g, "regions").len(), 10);
    assert_eq!(zone_cards(&g, "settlements").len(), 4);
    assert_eq!(points(&g, "red"), 3);
    assert_eq!((store(&g, "K4"), store(&g, "O2"), store(&g, "M4"), store(&g, "K2")), (0, 0, 0, 0));
}

/// Building a City: 2 grain and 3 ore, on a settlement, which stays underneath; a city is
/// worth 2 points (not 3) and has 2 more building sites, above and below.
#[test]
fn cities_cover_a_settlement() {
    let mut g = red_action();
    set_stores(&mut g, &[("O2", 2), ("O4", 3)]);
    reject(&mut g, "red", "build city M3");
    act(&mut g, "red", "build city L3");
    assert_eq!(pile(&g, "L3"), vec!["settlement", "city"]);
    assert_eq!(points(&g, "red"), 3);
    assert_eq!(zone_cards(&g, "cities").len(), 6);
    edit(&mut g, "hand red abbey");
    set_stores(&mut g, &[("K4", 1), ("O2", 1), ("O4", 1)]);
    let listed: Vec<String> = g
        .legal_actions(seat(&g, "red"))
        .unwrap()
        .iter()
        .map(|a| g.action_text(a))
        .filter(|t| t.starts_with("build abbey"))
        .collect();
    assert_eq!(
        listed,
        vec![
            "build abbey L1",
            "build abbey L2",
            "build abbey N2",
            "build abbey L4",
            "build abbey N4",
            "build abbey L5"
        ]
    );
}

/// Settlement/City Expansions: placed on an empty building site next to a settlement or
/// city, paying the cost; a settlement has one site above and one below.
#[test]
fn expansions_go_on_empty_building_sites() {
    let mut g = red_action();
    edit(&mut g, "hand red abbey");
    set_stores(&mut g, &[("K4", 1), ("O2", 1), ("O4", 1)]);
    reject(&mut g, "red", "build abbey M2");
    reject(&mut g, "red", "build abbey L1");
    reject(&mut g, "red", "build abbey M3");
    act(&mut g, "red", "build abbey L2");
    assert_eq!(top(&g, "L2").as_deref(), Some("abbey"));
    assert_eq!((store(&g, "K4"), store(&g, "O2"), store(&g, "O4")), (0, 0, 0));
    assert!(!hand(&g, "red").contains_key("abbey"));
}

/// Settlement/City Expansions, "1x": at most one such card in your principality.
#[test]
fn one_x_cards_only_once() {
    let mut g = red_action();
    edit(&mut g, "place L2 abbey");
    edit(&mut g, "hand red abbey");
    set_stores(&mut g, &[("K4", 1), ("O2", 1), ("O4", 1)]);
    let r = reject(&mut g, "red", "build abbey N2");
    assert!(r.contains("only one abbey"), "{r}");
    // Storehouse has no 1x mark: two are fine.
    edit(&mut g, "place N2 storehouse");
    edit(&mut g, "hand red storehouse");
    set_stores(&mut g, &[("M4", 1), ("K2", 1)]);
    act(&mut g, "red", "build storehouse N4");
}

/// Building a City, "Important": a card on a city's additional building site is adjacent to
/// the diagonally contiguous regions (a Lumber Camp on L1 doubles the forest K2).
#[test]
fn city_extra_sites_touch_the_diagonal_regions() {
    let mut g = red_action();
    edit(&mut g, "place L3 city");
    edit(&mut g, "place L1 lumber_camp");
    pass_turn(&mut g, "red");
    roll(&mut g, 2, "brigand");
    assert_eq!(store(&g, "K2"), 3, "1 + 1 + 1 from the Lumber Camp");
}

/// Trading Resources: always 3 of one type for 1 of any other.
#[test]
fn trade_three_for_one() {
    let mut g = red_action();
    edit(&mut g, "store K4 3");
    reject(&mut g, "red", "trade 2 brick for ore");
    reject(&mut g, "red", "trade 3 brick for brick");
    act(&mut g, "red", "trade 3 brick for ore");
    assert_eq!(store(&g, "K4"), 0);
    assert_eq!(store(&g, "O4"), 3);
    // The resources may come from several regions of the type.
    edit(&mut g, "place I2 forest_4");
    set_stores(&mut g, &[("K2", 2), ("I2", 1)]);
    act(&mut g, "red", "trade 3 lumber for wool");
    assert_eq!((store(&g, "K2"), store(&g, "I2"), store(&g, "M4")), (0, 0, 2));
}

/// Common trade ships (Card Index): with a trade ship, 2 of its resource for 1 of choice,
/// as often as you like; the other resources stay at 3:1. Trading: "You can always trade
/// 3 for 1", with a ship too; never more than 3.
#[test]
fn each_trade_ship_trades_its_resource_two_for_one() {
    for (ship, region) in [
        ("brick_ship", "K4"),
        ("grain_ship", "O2"),
        ("lumber_ship", "K2"),
        ("wool_ship", "M4"),
        ("ore_ship", "O4"),
        ("gold_ship", "M2"),
    ] {
        let mut g = red_action();
        edit(&mut g, &format!("place L2 {ship}"));
        let r = ship.trim_end_matches("_ship");
        edit(&mut g, &format!("store {region} 3"));
        let get = if r == "grain" { "ore" } else { "grain" };
        let to = if r == "grain" { "O4" } else { "O2" };
        let before = store(&g, to);
        reject(&mut g, "red", &format!("trade 1 {r} for {get}"));
        act(&mut g, "red", &format!("trade 2 {r} for {get}"));
        assert_eq!(store(&g, region), 1, "{ship}");
        assert_eq!(store(&g, to), (before + 1).min(3), "{ship}");
        edit(&mut g, &format!("store {region} 3"));
        reject(&mut g, "red", &format!("trade 4 {r} for {get}"));
        act(&mut g, "red", &format!("trade 3 {r} for {get}"));
        assert_eq!(store(&g, region), 0, "{ship}: 3:1 is always possible");
        edit(&mut g, &format!("store {region} 1"));
        let other = if r == "brick" { "wool" } else { "brick" };
        reject(&mut g, "red", &format!("trade 2 {other} for {get}"));
    }
}

/// Large Trade Ship: 2 resources from the region to its left or right for 1 of choice;
/// the two may not be combined from both sides.
#[test]
fn large_trade_ship_trades_from_left_or_right() {
    let mut g = red_action();
    edit(&mut g, "place L2 large_trade_ship"); // between forest K2 and gold field M2
    set_stores(&mut g, &[("K2", 1), ("M2", 1)]);
    let r = reject(&mut g, "red", "trade from K2 for ore");
    assert!(r.contains("2 resources"), "{r}");
    set_stores(&mut g, &[("K2", 2), ("M2", 3)]);
    reject(&mut g, "red", "trade from O2 for ore"); // not next to the ship
    act(&mut g, "red", "trade from K2 for wool");
    assert_eq!((store(&g, "K2"), store(&g, "M4")), (0, 2));
    act(&mut g, "red", "trade from M2 for ore");
    assert_eq!((store(&g, "M2"), store(&g, "O4")), (1, 3));
    reject(&mut g, "red", "trade from M2 for gold");
}

// Replenishing and exchanging --------------------------------------------------------------

/// Replenishing Your Hand: draw from the draw stacks until you hold 3 cards (3 plus 1 per
/// progress point); then the exchange.
#[test]
fn replenish_to_the_hand_limit() {
    let mut g = red_action();
    for k in hand(&g, "red").into_keys().collect::<Vec<_>>() {
        edit(&mut g, &format!("drop red {k}"));
    }
    edit(&mut g, "hand red scout");
    act(&mut g, "red", "end");
    assert_eq!(g.state().phase, "replenish");
    reject(&mut g, "red", "keep");
    let top3 = zone_cards(&g, "stack3").last().cloned().unwrap();
    act(&mut g, "red", "draw 3");
    assert!(hand(&g, "red").contains_key(&top3));
    act(&mut g, "red", "draw 4");
    assert_eq!(hand_size(&g, "red"), 3);
    assert_eq!(g.state().phase, "exchange");
    act(&mut g, "red", "keep");
    assert_eq!(to_act(&g), "blue");
    assert_eq!(g.state().phase, "roll");
}

/// Replenishing Your Hand: more cards than allowed are placed under draw stacks of your
/// choice.
#[test]
fn discard_over_the_limit_under_a_stack() {
    let mut g = red_action();
    edit(&mut g, "hand red scout");
    edit(&mut g, "hand red goldsmith");
    assert_eq!(hand_size(&g, "red"), 5);
    act(&mut g, "red", "end");
    assert_eq!(g.state().phase, "replenish");
    reject(&mut g, "red", "draw 1");
    act(&mut g, "red", "discard scout under 2");
    assert_eq!(zone_cards(&g, "stack2")[0], "scout", "under the stack");
    act(&mut g, "red", "discard goldsmith under 4");
    assert_eq!(zone_cards(&g, "stack4")[0], "goldsmith");
    assert_eq!(g.state().phase, "exchange");
}

/// Abbey (Card Index): its progress point lets you hold one more card; replenish
/// accordingly.
#[test]
fn abbey_raises_the_hand_limit() {
    let mut g = red_action();
    edit(&mut g, "place L2 abbey");
    assert_eq!(info(&g, "red", "hand_limit"), 4);
    act(&mut g, "red", "end");
    assert_eq!(g.state().phase, "replenish");
    act(&mut g, "red", "draw 1");
    assert_eq!(hand_size(&g, "red"), 4);
    assert_eq!(g.state().phase, "exchange");
}

/// Exchanging a Card: put 1 card under any draw stack, then draw the top card of a stack
/// of your choice.
#[test]
fn exchange_a_card_for_the_top_of_a_stack() {
    let mut g = red_action();
    edit(&mut g, "hand red relocation");
    edit(&mut g, "drop red relocation");
    let card = hand(&g, "red").into_keys().next().unwrap();
    act(&mut g, "red", "end");
    assert_eq!(g.state().phase, "exchange");
    act(&mut g, "red", &format!("exchange {card} under 3"));
    assert_eq!(zone_cards(&g, "stack3")[0], card);
    let top4 = zone_cards(&g, "stack4").last().cloned().unwrap();
    reject(&mut g, "red", "keep");
    act(&mut g, "red", "draw 4");
    assert!(hand(&g, "red").contains_key(&top4));
    assert_eq!(hand_size(&g, "red"), 3);
    assert_eq!(to_act(&g), "blue");
}

/// Exchanging a Card, "Select a specific card": pay any 2 resources, look through a stack,
/// take a card of your choice; the stack keeps its order.
#[test]
fn exchange_by_searching_a_stack_costs_two() {
    let mut g = red_action();
    let card = hand(&g, "red").into_keys().next().unwrap();
    act(&mut g, "red", "end");
    act(&mut g, "red", &format!("exchange {card} under 1"));
    let before = zone_cards(&g, "stack3");
    let want = before[2].clone();
    reject(&mut g, "red", "search 3 paying ore");
    act(&mut g, "red", "search 3 paying ore grain");
    assert_eq!(g.state().phase, "search");
    assert!(messages(&g).iter().any(|m| m.starts_with("draw stack 3 (bottom to top)")));
    act(&mut g, "red", &format!("take {want}"));
    assert!(hand(&g, "red").contains_key(&want));
    let mut expect = before.clone();
    let pos = expect.iter().rposition(|k| *k == want).unwrap();
    expect.remove(pos);
    assert_eq!(zone_cards(&g, "stack3"), expect, "the order is unchanged");
    assert_eq!((store(&g, "O4"), store(&g, "O2")), (1, 0));
}

/// Parish Hall (Card Index): selecting a card from a draw stack costs 1 resource, not 2.
#[test]
fn parish_hall_makes_searching_cost_one() {
    let mut g = red_action();
    edit(&mut g, "place L2 parish_hall");
    let card = hand(&g, "red").into_keys().next().unwrap();
    act(&mut g, "red", "end");
    act(&mut g, "red", &format!("exchange {card} under 1"));
    reject(&mut g, "red", "search 2 paying ore grain");
    act(&mut g, "red", "search 2 paying ore");
    assert_eq!(store(&g, "O4"), 1);
}

// Advantages and victory ----------------------------------------------------------------------

/// Strength Advantage: the hero token goes to a player with 3+ strength points and more
/// than the opponent; the holder keeps it on a tie, loses it when below the opponent, who
/// takes it with 3 or more. It is worth 1 point.
#[test]
fn hero_token_follows_the_strength_advantage() {
    let mut g = red_action();
    edit(&mut g, "place L2 harald"); // 2
    assert_eq!(var_seat(&g, "hero"), None, "2 is not enough");
    edit(&mut g, "place L4 austin"); // 3
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("red"));
    assert_eq!(points(&g, "red"), 3);
    edit(&mut g, "place L7 osmund"); // blue 2
    edit(&mut g, "place L9 inga"); // blue 3: a tie, red keeps it
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("red"));
    edit(&mut g, "place N7 candamir"); // blue 7
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("blue"));
    assert_eq!(points(&g, "red"), 2);
    assert_eq!(points(&g, "blue"), 3);
    edit(&mut g, "clear N7");
    edit(&mut g, "clear L9"); // blue 2 < 3 and below red's 3: red takes it back
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("red"));
    edit(&mut g, "clear L4"); // red 2: set aside (blue has 2)
    assert_eq!(var_seat(&g, "hero"), None);
}

/// Trade Advantage: the trade token for 3+ commerce points and more than the opponent; 1
/// point.
#[test]
fn trade_token_follows_the_trade_advantage() {
    let mut g = red_action();
    edit(&mut g, "place L2 marketplace");
    edit(&mut g, "place L4 toll_bridge");
    assert_eq!(var_seat(&g, "trade_token"), None);
    edit(&mut g, "place N2 wool_ship");
    assert_eq!(var_seat(&g, "trade_token").as_deref(), Some("red"));
    assert_eq!(points(&g, "red"), 3);
    for (l, k) in [("L7", "gold_ship"), ("L9", "ore_ship"), ("N7", "grain_ship"), ("N9", "large_trade_ship")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    assert_eq!(var_seat(&g, "trade_token").as_deref(), Some("blue"));
}

/// The Goal & End of the Game: a player with 7 points at the end of their turn wins.
#[test]
fn seven_points_at_the_end_of_your_turn_win() {
    let mut g = red_action();
    edit(&mut g, "place L8 city");
    edit(&mut g, "place N8 city");
    edit(&mut g, "place K8 road");
    edit(&mut g, "place J8 settlement");
    edit(&mut g, "place L7 candamir"); // blue: 2+2+1 + hero = 6
    edit(&mut g, "place L9 harald");
    assert_eq!(points(&g, "blue"), 6);
    edit(&mut g, "place L3 city");
    edit(&mut g, "place N3 city");
    edit(&mut g, "place K3 road");
    edit(&mut g, "place J3 settlement"); // red 5
    for (l, k) in [("L2", "brick_ship"), ("L4", "grain_ship"), ("N2", "ore_ship")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    assert_eq!(points(&g, "red"), 6);
    pass_turn(&mut g, "red");
    assert!(g.winner().is_none());
    edit(&mut g, "place N7 austin"); // blue takes nothing more: 6 points... give blue a 7th
    edit(&mut g, "place O8 road");
    edit(&mut g, "place P8 settlement");
    assert_eq!(points(&g, "blue"), 7);
    roll(&mut g, 3, "brigand");
    assert!(g.winner().is_none(), "only at the end of the turn");
    act(&mut g, "blue", "end");
    assert_eq!(g.winner(), Some(seat(&g, "blue")));
    reject_over(&mut g);
}

fn reject_over(g: &mut catan_engine::Game) {
    assert!(g.act(0, "roll").is_err());
}

// Action cards -------------------------------------------------------------------------------

/// Brigitta the Wise Woman: before rolling, choose the production die; then roll the event
/// die and resolve both; not playable after the roll.
#[test]
fn brigitta_chooses_the_production_die() {
    let mut g = game("red");
    edit(&mut g, "hand red brigitta");
    sb(&mut g, "dice 1 1"); // the event die will show 1: a brigand attack (nobody over 7)
    act(&mut g, "red", "play brigitta 6");
    assert_eq!(store(&g, "O2"), 2, "red's fields 6");
    assert_eq!(store(&g, "O9"), 2, "blue's mountains 6");
    assert_eq!(g.state().phase, "action");
    assert!(zone_cards(&g, "discard").contains(&"brigitta".to_string()));
    edit(&mut g, "hand red brigitta");
    reject(&mut g, "red", "play brigitta 3");
}

/// Goldsmith: pay 3 gold (from any gold fields) for any 2 resources.
#[test]
fn goldsmith_three_gold_for_two() {
    let mut g = red_action();
    edit(&mut g, "hand red goldsmith");
    edit(&mut g, "store M2 2");
    reject(&mut g, "red", "play goldsmith ore wool");
    edit(&mut g, "place I2 gold_field_2");
    edit(&mut g, "store I2 1");
    act(&mut g, "red", "play goldsmith ore wool");
    assert_eq!((store(&g, "M2"), store(&g, "I2")), (0, 0));
    assert_eq!((store(&g, "O4"), store(&g, "M4")), (3, 2));
}

/// Card index, Goldsmith: "You may take the gold from different gold fields": with gold on
/// more than one and more than 3 in all, the owner names each (`spend`) until the rest is
/// forced, and receives the 2 resources after paying.
#[test]
fn goldsmith_owner_chooses_the_gold_fields() {
    let mut g = red_action();
    edit(&mut g, "hand red goldsmith");
    edit(&mut g, "place I2 gold_field_2");
    set_stores(&mut g, &[("M2", 2), ("I2", 2), ("O4", 1)]);
    act(&mut g, "red", "play goldsmith ore wool");
    assert_eq!(g.state().phase, "choose");
    assert_eq!(to_act(&g), "red");
    assert_eq!(legal_texts(&g, "red"), vec!["spend I2", "spend M2"]);
    assert!(reject(&mut g, "red", "spend O4").contains("pay gold from one of your regions holding it: I2, M2"));
    act(&mut g, "red", "spend I2");
    assert_eq!(store(&g, "O4"), 1, "the resources come after the payment");
    act(&mut g, "red", "spend I2");
    // 1 gold left to pay, only M2 holds any: paid at once, then ore and wool received.
    assert_eq!((store(&g, "M2"), store(&g, "I2")), (1, 0));
    assert_eq!((store(&g, "O4"), store(&g, "M4")), (2, 2));
    assert_eq!(g.state().phase, "action");
    assert!(messages(&g).iter().any(|m| m == "goldsmith: red pays gold from I2"), "{:?}", last_messages(&g));
    assert!(messages(&g).iter().any(|m| m == "goldsmith: red pays 2 gold from I2, M2"), "{:?}", last_messages(&g));
}

/// Card index, Merchant Caravan: "The resources may come from the same or different
/// regions": the owner names them when more than one region could give.
#[test]
fn merchant_caravan_owner_chooses_the_regions() {
    let mut g = red_action();
    edit(&mut g, "hand red merchant_caravan");
    edit(&mut g, "place I4 hills_1");
    set_stores(&mut g, &[("K4", 2), ("I4", 2)]);
    act(&mut g, "red", "play merchant_caravan 2 brick for 2 ore");
    assert_eq!(legal_texts(&g, "red"), vec!["spend I4", "spend K4"]);
    act(&mut g, "red", "spend K4");
    act(&mut g, "red", "spend K4");
    assert_eq!((store(&g, "K4"), store(&g, "I4")), (0, 2), "both from the region named");
    assert_eq!(store(&g, "O4"), 3);
    assert_eq!(g.state().phase, "action");
}

/// Merchant Caravan: give exactly 2 resources (alike or not, from any regions) for any 2;
/// you need at least 2 resources.
#[test]
fn merchant_caravan_two_for_two() {
    let mut g = red_action();
    edit(&mut g, "hand red merchant_caravan");
    empty_regions(&mut g);
    edit(&mut g, "store K2 1");
    reject(&mut g, "red", "play merchant_caravan lumber brick for ore ore");
    edit(&mut g, "store K4 1");
    act(&mut g, "red", "play merchant_caravan lumber brick for 2 ore");
    assert_eq!((store(&g, "K2"), store(&g, "K4"), store(&g, "O4")), (0, 0, 2));
}

/// Relocation: swap 2 of your regions (each keeps what it stores) or 2 of your expansion
/// cards — to use production boosters better.
#[test]
fn relocation_swaps_two_regions_or_two_expansions() {
    let mut g = red_action();
    edit(&mut g, "hand red relocation");
    edit(&mut g, "store O2 3");
    edit(&mut g, "place L2 abbey");
    reject(&mut g, "red", "play relocation K2 L2");
    reject(&mut g, "red", "play relocation K2 K7");
    act(&mut g, "red", "play relocation K2 O2");
    assert_eq!((top(&g, "K2").as_deref(), store(&g, "K2")), (Some("fields_6"), 3));
    assert_eq!((top(&g, "O2").as_deref(), store(&g, "O2")), (Some("forest_2"), 1));
    edit(&mut g, "hand red relocation");
    edit(&mut g, "place N4 storehouse");
    act(&mut g, "red", "play relocation L2 N4");
    assert_eq!(top(&g, "N4").as_deref(), Some("abbey"));
    assert_eq!(top(&g, "L2").as_deref(), Some("storehouse"));
}

/// Scout: when building a settlement, take 2 regions of your choice from the region stack
/// (which is shuffled afterwards).
#[test]
fn scout_chooses_the_new_regions() {
    let mut g = red_action();
    edit(&mut g, "hand red scout");
    edit(&mut g, "place O3 road");
    set_stores(&mut g, &[("K4", 1), ("O2", 1), ("M4", 1), ("K2", 1)]);
    act(&mut g, "red", "play scout P3");
    assert_eq!(g.state().phase, "scout");
    assert!(messages(&g).iter().any(|m| m.starts_with("the region stack:")));
    reject(&mut g, "red", "region fields_6 Q2");
    reject(&mut g, "red", "region fields_1 O2");
    act(&mut g, "red", "region fields_1 Q2");
    act(&mut g, "red", "region gold_field_3 Q4");
    assert_eq!(top(&g, "Q2").as_deref(), Some("fields_1"));
    assert_eq!(top(&g, "Q4").as_deref(), Some("gold_field_3"));
    assert_eq!(g.state().phase, "action");
    assert_eq!(zone_cards(&g, "regions").len(), 10);
    assert_eq!(points(&g, "red"), 3);
}

// Buildings ------------------------------------------------------------------------------------

/// Marketplace: when the opponent has more regions with the number rolled, take 1 resource
/// of a type one of those regions produces (even one the opponent could not store).
#[test]
fn marketplace_matches_the_opponents_extra_production() {
    let mut g = red_action();
    edit(&mut g, "place L2 marketplace");
    edit(&mut g, "place I7 fields_3");
    edit(&mut g, "place I9 gold_field_3"); // blue: three 3s (forest, fields, gold); red: one (hills)
    edit(&mut g, "store I7 3");
    pass_turn(&mut g, "red");
    roll(&mut g, 3, "brigand");
    assert_eq!(g.state().phase, "choose");
    assert_eq!(to_act(&g), "red");
    reject(&mut g, "red", "choose ore");
    act(&mut g, "red", "choose grain"); // blue's full fields could not store theirs
    assert_eq!(n(&g, "red", "grain"), 2);
    assert_eq!(to_act(&g), "blue");
    // Equal counts: nothing.
    act(&mut g, "blue", "end");
    while g.state().phase != "roll" {
        let legal = g.legal_actions(seat(&g, "blue")).unwrap();
        let t = g.action_text(&legal[0]);
        act(&mut g, "blue", &t);
    }
    roll(&mut g, 5, "brigand");
    assert_eq!(g.state().phase, "action");
}

/// Storehouse: on a Brigand Attack the regions left and right of it are not counted; if the
/// rest is still over 7, they lose their gold and wool too.
#[test]
fn storehouse_protects_against_the_brigands() {
    let mut g = game("red");
    edit(&mut g, "place L2 storehouse"); // next to forest K2 and gold field M2
    set_stores(&mut g, &[("K2", 3), ("M2", 3), ("O2", 1), ("K4", 1), ("M4", 1), ("O4", 1)]);
    assert_eq!(stock_total(&g, "red"), 10);
    roll(&mut g, 6, "brigand"); // counted: 4
    assert_eq!((store(&g, "M2"), store(&g, "M4")), (3, 1));
    pass_turn(&mut g, "red");
    set_stores(&mut g, &[("O2", 3), ("K4", 3), ("M4", 3), ("O4", 3)]);
    roll(&mut g, 3, "brigand"); // counted: 12 without K2, M2
    assert_eq!((store(&g, "M2"), store(&g, "M4")), (0, 0), "protected gold lost too");
    assert_eq!(store(&g, "K2"), 3);
}

/// Toll Bridge: on Plentiful Harvest you receive 2 more gold, if your gold fields have room.
#[test]
fn toll_bridge_gives_two_gold_on_a_harvest() {
    let mut g = game("red");
    edit(&mut g, "place L2 toll_bridge");
    edit(&mut g, "store M2 2");
    roll(&mut g, 3, "harvest");
    assert_eq!(store(&g, "M2"), 3, "room for 1 only");
    act(&mut g, "red", "choose ore");
    act(&mut g, "blue", "choose ore");
    assert!(messages(&g).iter().any(|m| m.contains("toll bridge") && m.contains("lost")));
}

/// Production boosters (Brick Factory, Grain Mill, Iron Foundry, Lumber Camp, Weaver's
/// Shop): a region of their type next to them produces 1 more on the production roll, if
/// it has room.
#[test]
fn production_boosters_double_the_adjacent_regions() {
    for (booster, site, region, die) in [
        ("brick_factory", "L4", "K4", 3),
        ("grain_mill", "N2", "O2", 6),
        ("iron_foundry", "N4", "O4", 5),
        ("lumber_camp", "L2", "K2", 2),
        ("weavers_shop", "N4", "M4", 4),
    ] {
        let mut g = game("blue");
        edit(&mut g, &format!("place {site} {booster}"));
        roll(&mut g, die, "brigand");
        assert_eq!(store(&g, region), 3, "{booster}");
        pass_turn(&mut g, "blue");
        edit(&mut g, &format!("store {region} 2"));
        roll(&mut g, die, "brigand");
        assert_eq!(store(&g, region), 3, "{booster}: no room for the extra one");
    }
    // Only its own type: a Grain Mill next to the gold field does nothing for gold.
    let mut g = game("blue");
    edit(&mut g, "place L2 grain_mill");
    roll(&mut g, 1, "brigand");
    assert_eq!(store(&g, "M2"), 1);
}

/// Common heroes: they differ only in cost, strength and skill points.
#[test]
fn heroes_bring_strength_and_skill() {
    // Costs (rivals_cards.csv): grain + ore, plus wool for Inga and Osmund, 2 wool for
    // Candamir and Siglind. Each build below pays exactly its cost.
    for (hero, strength, skill, wool) in [
        ("austin", 1, 2, 0),
        ("harald", 2, 1, 0),
        ("inga", 1, 3, 1),
        ("osmund", 2, 2, 1),
        ("candamir", 4, 1, 2),
        ("siglind", 2, 3, 2),
    ] {
        let mut g = red_action();
        edit(&mut g, &format!("hand red {hero}"));
        set_stores(&mut g, &[("O2", 1), ("O4", 1), ("M4", wool)]);
        act(&mut g, "red", &format!("build {hero} L2"));
        assert_eq!((store(&g, "O2"), store(&g, "O4"), store(&g, "M4")), (0, 0, 0), "{hero}");
        assert_eq!(info(&g, "red", "strength"), strength, "{hero}");
        assert_eq!(info(&g, "red", "skill"), skill, "{hero}");
    }
    // Costs (rivals_cards.csv): Candamir grain, 2 wool, ore.
    let mut g = red_action();
    edit(&mut g, "hand red candamir");
    set_stores(&mut g, &[("O2", 1), ("O4", 1), ("M4", 1)]);
    reject(&mut g, "red", "build candamir L2");
    edit(&mut g, "store M4 2");
    act(&mut g, "red", "build candamir L2");
    assert_eq!((store(&g, "O2"), store(&g, "O4"), store(&g, "M4")), (0, 0, 0));
}

// Event cards --------------------------------------------------------------------------------

/// Feud: the player with the strength advantage names 3 of the opponent's buildings; the
/// opponent removes one of them, under a draw stack.
#[test]
fn feud_removes_a_named_building() {
    let mut g = game("red");
    edit(&mut g, "place L2 candamir"); // red: hero token
    for (l, k) in [("L7", "abbey"), ("L9", "storehouse"), ("N7", "toll_bridge"), ("N9", "grain_mill")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    edit(&mut g, "event feud");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "red");
    reject(&mut g, "red", "name L2");
    act(&mut g, "red", "name L7");
    act(&mut g, "red", "name L9");
    reject(&mut g, "red", "name L9");
    act(&mut g, "red", "name N7");
    assert_eq!(to_act(&g), "blue");
    reject(&mut g, "blue", "remove N9 under 1");
    act(&mut g, "blue", "remove L9 under 2");
    assert_eq!(top(&g, "L9"), None);
    assert_eq!(zone_cards(&g, "stack2")[0], "storehouse");
    assert_eq!(g.state().phase, "action");
}

/// Feud: with 3 or fewer buildings the opponent is affected automatically; without the
/// strength advantage nothing happens.
#[test]
fn feud_with_few_buildings_or_no_hero() {
    let mut g = game("red");
    edit(&mut g, "place L7 abbey");
    edit(&mut g, "event feud");
    roll(&mut g, 3, "event");
    assert_eq!(g.state().phase, "action", "nobody has the strength advantage");
    pass_turn(&mut g, "red");
    edit(&mut g, "place L2 candamir");
    edit(&mut g, "place N7 harald"); // a unit, not a building
    edit(&mut g, "event feud");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "blue");
    reject(&mut g, "blue", "remove N7 under 1");
    act(&mut g, "blue", "remove L7 under 1");
    assert_eq!(top(&g, "L7"), None);
}

/// Fraternal Feuds: the strength advantage looks at the opponent's hand and puts 2 of the
/// cards under draw stacks; the opponent (whose turn it is) may not replenish until the end
/// of their next turn.
#[test]
fn fraternal_feuds_takes_two_cards_of_the_hand() {
    let mut g = game("blue");
    edit(&mut g, "place L2 candamir");
    edit(&mut g, "event fraternal_feuds");
    let blue_hand = hand(&g, "blue");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "red");
    assert!(messages(&g).iter().any(|m| m.starts_with("blue's hand:")));
    let kinds: Vec<String> = blue_hand.keys().cloned().collect();
    act(&mut g, "red", &format!("pick {} under 1", kinds[0]));
    let second = if blue_hand[&kinds[0]] > 1 { kinds[0].clone() } else { kinds[1].clone() };
    act(&mut g, "red", &format!("pick {second} under 4"));
    assert_eq!(hand_size(&g, "blue"), 1);
    assert_eq!(zone_cards(&g, "stack1")[0], kinds[0]);
    assert_eq!(to_act(&g), "blue");
    act(&mut g, "blue", "end");
    assert_eq!(g.state().phase, "exchange", "no replenishing this turn");
    act(&mut g, "blue", "keep");
    assert_eq!(hand_size(&g, "blue"), 1);
}

/// Invention: each player receives 1 resource of choice per building with a progress point
/// (at most 2).
#[test]
fn invention_pays_for_progress_points() {
    let mut g = game("red");
    edit(&mut g, "place N9 abbey");
    edit(&mut g, "event invention");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "blue", "red has no progress point");
    act(&mut g, "blue", "choose gold");
    assert_eq!(store(&g, "M7"), 1);
    assert_eq!(g.state().phase, "action");
}

/// Card index, Invention: "Each player determines which resources to receive and among
/// which regions to distribute them": with two regions of the kind chosen that have room, a
/// `store` choice follows the `choose`.
#[test]
fn invention_owner_distributes_among_the_regions() {
    let mut g = game("red");
    edit(&mut g, "place N2 abbey");
    edit(&mut g, "place I2 fields_1");
    set_stores(&mut g, &[("O2", 0), ("I2", 0)]);
    edit(&mut g, "event invention");
    roll(&mut g, 3, "event");
    act(&mut g, "red", "choose grain");
    assert_eq!(legal_texts(&g, "red"), vec!["store I2", "store O2"]);
    act(&mut g, "red", "store I2");
    assert_eq!((store(&g, "I2"), store(&g, "O2")), (1, 0));
    assert_eq!(g.state().phase, "action");
    // One region of the kind: stored there at once, as before.
    pass_turn(&mut g, "red");
    edit(&mut g, "place N7 abbey");
    edit(&mut g, "event invention");
    roll(&mut g, 3, "event");
    act(&mut g, "blue", "choose ore");
    assert_eq!(store(&g, "O9"), 2);
    act(&mut g, "red", "choose wool");
    assert_eq!(store(&g, "M4"), 2);
    assert_eq!(g.state().phase, "action");
}

/// Trade Ships Race: the player with the most trade ships receives 1 resource of choice; on
/// a tie each player with a ship does; with none, nobody.
#[test]
fn trade_ships_race() {
    let mut g = game("red");
    edit(&mut g, "event trade_ships_race");
    roll(&mut g, 3, "event");
    assert_eq!(g.state().phase, "action", "no trade ship anywhere");
    pass_turn(&mut g, "red");
    edit(&mut g, "place L2 ore_ship");
    edit(&mut g, "place L7 wool_ship");
    edit(&mut g, "event trade_ships_race");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "blue");
    act(&mut g, "blue", "choose ore");
    act(&mut g, "red", "choose ore");
    pass_turn(&mut g, "blue");
    edit(&mut g, "place L4 large_trade_ship");
    edit(&mut g, "event trade_ships_race");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "red");
    act(&mut g, "red", "choose wool");
    assert_eq!(g.state().phase, "action", "blue has fewer ships");
}

/// Traveling Merchant: each player may buy up to 2 resources of choice for 1 gold each.
#[test]
fn traveling_merchant_sells_for_gold() {
    let mut g = game("red");
    edit(&mut g, "store M2 3");
    edit(&mut g, "event traveling_merchant");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "red");
    reject(&mut g, "red", "choose gold");
    act(&mut g, "red", "choose ore");
    act(&mut g, "red", "choose wool");
    assert_eq!(store(&g, "M2"), 1);
    assert_eq!((store(&g, "O4"), store(&g, "M4")), (2, 2));
    // Blue has no gold: skipped.
    assert_eq!(g.state().phase, "action");
    pass_turn(&mut g, "red");
    edit(&mut g, "store M7 2");
    edit(&mut g, "event traveling_merchant");
    roll(&mut g, 3, "event");
    act(&mut g, "blue", "skip");
    assert_eq!(store(&g, "M7"), 2);
    act(&mut g, "red", "choose wool");
    assert_eq!(store(&g, "M2"), 0);
    assert_eq!(g.state().phase, "action", "red's gold is spent: the second purchase is skipped");
}

/// Year of Plenty: each region receives 1 resource per adjacent Storehouse and per adjacent
/// Abbey, if it has room.
#[test]
fn year_of_plenty_for_storehouses_and_abbeys() {
    let mut g = game("red");
    edit(&mut g, "place L2 storehouse"); // K2, M2
    edit(&mut g, "place N2 abbey"); // M2, O2
    edit(&mut g, "event year_of_plenty");
    roll(&mut g, 3, "event");
    assert_eq!((store(&g, "K2"), store(&g, "M2"), store(&g, "O2")), (2, 2, 2));
    assert_eq!((store(&g, "K4"), store(&g, "M4")), (2, 1), "K4 got 1 from the 3 rolled");
}

/// Yule: prepare a new event deck (Yule fourth from the bottom), then draw and resolve a
/// new event card.
#[test]
fn yule_rebuilds_the_deck_and_draws_again() {
    let mut g = game("red");
    edit(&mut g, "event yule");
    roll(&mut g, 3, "event");
    let deck = zone_cards(&g, "events");
    assert_eq!(deck.len(), 9);
    let msgs = last_messages(&g);
    let yule = msgs.iter().position(|m| m == "event: yule").unwrap();
    let next = msgs[yule + 1..].iter().find(|m| m.starts_with("event: ")).expect("a second event");
    // The new deck had Yule fourth from the bottom; the card drawn after it went under.
    assert_eq!(deck[4], "yule", "{deck:?}");
    assert_eq!(format!("event: {}", deck[0].replace('_', " ")), *next);
}
