//! One test per general rule of the Theme Games and per card of The Era of Gold
//! (../shared/rules/004: "PLAYING THE THEME GAMES" — General Rules, Other Rules Additions,
//! End of the Game, Special Rules 1 — and the card index "THE ERA OF GOLD"; card data from
//! ../shared/reference/rivals_cards.csv). Each test's doc comment names its rule.
//!
//! Positions are built with the `edit ...` commands (option test_edits) and the sandbox's
//! `dice A B`. Labels as in tests/rivals/mod.rs: red's regions K2 forest, M2 gold field,
//! O2 fields, K4 hills, M4 pasture, O4 mountains; settlements L3 and N3; a city has the
//! building sites L1 L2 L4 L5; region expansions go on K1 M1 O1 K5 M5 O5.

use crate::rivals;
use crate::rivals_gold;

use catan_engine::engine::Observer;
use catan_engine::view::view;
use catan_engine::Game;
use rivals::*;
use rivals_gold::*;

fn n(g: &Game, who: &str, r: &str) -> u16 {
    stock(g, who)[r] + if r == "gold" { gold_cache_store(g, who) } else { 0 }
}

/// Gold in a player's Gold Cache (region expansion rows 1/5 and 6/10).
fn gold_cache_store(g: &Game, who: &str) -> u16 {
    let s = seat(g, who);
    let st = g.state();
    let grid = st.grids.iter().find(|x| x.owner == Some(s)).unwrap();
    grid.slots
        .iter()
        .filter(|sl| sl.top().is_some_and(|k| g.spec().cards[k as usize].name == "gold_cache"))
        .map(|sl| sl.store)
        .sum()
}

/// Red in the action phase of turn 1 of a Theme Game, after a quiet roll (a 5: red's
/// mountains O4 and blue's fields O7 gain 1; brigand attack with nobody over 7), with an
/// empty hand and a city on L3.
fn red_action() -> Game {
    let mut g = gold_game("red");
    roll(&mut g, 5, "brigand");
    assert_eq!(g.state().phase, "action");
    for (k, c) in hand(&g, "red") {
        for _ in 0..c {
            edit(&mut g, &format!("drop red {k}"));
        }
    }
    edit(&mut g, "place L3 city");
    g
}

/// Ends `who`'s turn: every replenish or exchange step by its first listed action.
fn pass(g: &mut Game, who: &str) {
    act(g, who, "end");
    let s = seat(g, who);
    while g.winner().is_none() && g.to_act().unwrap() == s && g.state().phase != "roll" {
        let a = g
            .legal_actions(s)
            .unwrap()
            .into_iter()
            .find(|a| ["draw", "keep", "discard"].contains(&a.name.as_str()))
            .unwrap();
        g.perform(s, &a).unwrap();
    }
}

fn give(g: &mut Game, who: &str, kind: &str) {
    edit(g, &format!("hand {who} {kind}"));
}

fn build(g: &mut Game, who: &str, kind: &str, at: &str) {
    give(g, who, kind);
    act(g, who, &format!("build {kind} {at}"));
}

// General Rules, Preparation ------------------------------------------------------------------

/// General Rules, Preparation 1 (Event Card Stack): the Basic Set events and the set's three
/// (Gift for the Prince, Traveling Merchant, Trade Ships Race), Yule 4th from the bottom.
#[test]
fn prep_event_stack_has_the_sets_events_with_yule_over_three() {
    let g = gold_new("red");
    let ev = zone_cards(&g, "events");
    assert_eq!(ev.len(), 12);
    assert_eq!(ev[3], "yule", "{ev:?}");
    for (k, c) in [("gift_for_the_prince", 1), ("trade_ships_race", 2), ("traveling_merchant", 3), ("feud", 1)] {
        assert_eq!(ev.iter().filter(|e| *e == k).count(), c, "{k}");
    }
}

/// General Rules, Preparation 2-3 and Special Rules 1: 3 Basic Set stacks of 12, 2 theme
/// stacks of 11, the 2 Merchant Guilds face up.
#[test]
fn prep_draw_stacks_and_face_up_stack() {
    let g = gold_new("red");
    for (z, len) in [("stack1", 12), ("stack2", 12), ("stack3", 12), ("stack4", 11), ("stack5", 11)] {
        assert_eq!(zone_cards(&g, z).len(), len, "{z}");
    }
    let theme: Vec<String> = [zone_cards(&g, "stack4"), zone_cards(&g, "stack5")].concat();
    assert_eq!(theme.iter().filter(|k| *k == "mint").count(), 2);
    assert!(!theme.contains(&"merchant_guild".to_string()));
    assert_eq!(zone_cards(&g, "faceup"), vec!["merchant_guild", "merchant_guild"]);
    assert!(zone_cards(&g, "stack1")
        .iter()
        .all(|k| !theme.contains(k)
            || ["goldsmith", "storehouse", "toll_bridge", "large_trade_ship"].contains(&k.as_str())));
}

/// General Rules, Preparation 4 (Choosing the Starting Cards): beginning with the starting
/// player, each picks a Basic Set stack and takes 3 cards of it; the stack keeps its order.
#[test]
fn prep_starting_cards_are_chosen_from_one_basic_stack() {
    let mut g = gold_new("blue");
    assert_eq!(g.state().phase, "select");
    assert_eq!(to_act(&g), "blue");
    let before = zone_cards(&g, "stack2");
    let want = before[0].clone(); // the bottom card
    refuse(&mut g, "blue", &format!("select {want} from 2")); // first the stack
    refuse(&mut g, "blue", "look 4");
    act(&mut g, "blue", "look 2");
    assert!(messages(&g).iter().any(|m| m.starts_with("draw stack 2 (bottom to top): ")));
    act(&mut g, "blue", &format!("select {want} from 2"));
    let other = zone_cards(&g, "stack3")[0].clone();
    assert!(refuse(&mut g, "blue", &format!("select {other} from 3")).contains("the stack you chose"));
    let after = zone_cards(&g, "stack2");
    let mut expect = before.clone();
    expect.remove(0);
    assert_eq!(after, expect, "the rest of the stack keeps its order");
    for _ in 0..2 {
        let k = zone_cards(&g, "stack2").last().unwrap().clone();
        act(&mut g, "blue", &format!("select {k} from 2"));
    }
    assert_eq!(hand_size(&g, "blue"), 3);
    assert_eq!(to_act(&g), "red", "then the other player");
}

/// General Rules, Preparation 5 (Rearranging Regions): each may rearrange the 6 regions,
/// which keep what they store; only regions.
#[test]
fn prep_regions_may_be_rearranged() {
    let mut g = gold_new("red");
    for _ in 0..8 {
        let s = g.to_act().unwrap();
        let a = g.legal_actions(s).unwrap().into_iter().find(|a| a.name == "select" || a.name == "look").unwrap();
        g.perform(s, &a).unwrap();
    }
    assert_eq!(g.state().phase, "rearrange");
    act(&mut g, "red", "rearrange K2 M2"); // forest (1 lumber) and gold field (0)
    assert_eq!(top(&g, "K2").as_deref(), Some("gold_field_1"));
    assert_eq!(store(&g, "K2"), 0);
    assert_eq!(store(&g, "M2"), 1);
    refuse(&mut g, "red", "rearrange K2 L3");
    act(&mut g, "red", "ready");
    act(&mut g, "blue", "ready");
    assert_eq!(g.state().phase, "roll");
    assert_eq!(to_act(&g), "red");
}

/// General Rules, Preparation 6 (Discard Pile): only the top card is visible.
#[test]
fn prep_only_the_top_of_the_discard_pile_is_seen() {
    let mut g = red_action();
    give(&mut g, "red", "scout");
    edit(&mut g, "drop red scout");
    give(&mut g, "red", "relocation");
    edit(&mut g, "drop red relocation");
    let n = zone_cards(&g, "discard").len();
    assert!(n >= 2);
    for s in 0..2 {
        let v = view(&g, Observer::Seat(s));
        assert_eq!(v["zones"]["discard"]["count"], n);
        assert_eq!(v["zones"]["discard"]["top"], "relocation");
        assert_eq!(v["zones"]["discard"].as_object().map(|o| o.len()), Some(2), "the count and the top only");
    }
    let v = view(&g, Observer::Referee);
    assert_eq!(v["zones"]["discard"].as_array().map(|a| a.len()), Some(n));
}

// Other Rules Additions ---------------------------------------------------------------------------

/// Other Rules Additions 1 (City Expansions): only on the 4 building sites of a city.
#[test]
fn city_expansions_only_beside_a_city() {
    let mut g = red_action();
    set_stores(&mut g, &[("K4", 3), ("M4", 3), ("O4", 3), ("K2", 3), ("O2", 3)]);
    give(&mut g, "red", "mint");
    assert!(refuse(&mut g, "red", "build mint N2").contains("not an empty building site"));
    refuse(&mut g, "red", "build mint K1");
    act(&mut g, "red", "build mint L1");
    assert_eq!(top(&g, "L1").as_deref(), Some("mint"));
}

/// Other Rules Additions 2 (Region Expansions): only above or below a region (Gold Cache).
#[test]
fn region_expansions_only_above_or_below_a_region() {
    let mut g = red_action();
    edit(&mut g, "place N2 austin"); // Gold Cache requirement: a hero with strength
    give(&mut g, "red", "gold_cache");
    refuse(&mut g, "red", "build gold_cache L2");
    refuse(&mut g, "red", "build gold_cache L1");
    act(&mut g, "red", "build gold_cache M1");
    assert_eq!(top(&g, "M1").as_deref(), Some("gold_cache"));
}

/// Other Rules Additions 3 (Removal of Units and Buildings): one, free, in the action
/// phase, to the discard pile; a face-up stack card returns to that stack.
#[test]
fn removal_of_one_own_building_or_unit() {
    let mut g = red_action();
    edit(&mut g, "place N2 austin");
    edit(&mut g, "place L1 merchant_guild");
    let stock_before = stock(&g, "red");
    act(&mut g, "red", "remove L1");
    assert_eq!(top(&g, "L1"), None);
    assert_eq!(zone_cards(&g, "faceup"), vec!["merchant_guild", "merchant_guild"], "back to the face-up stack");
    refuse(&mut g, "red", "remove N2"); // one removal per action phase
    assert_eq!(stock(&g, "red"), stock_before, "free");
    // Next turn: a unit goes to the discard pile.
    let mut g = red_action();
    edit(&mut g, "place N2 austin");
    refuse(&mut g, "red", "remove K2"); // a region is no building or unit
    refuse(&mut g, "red", "remove N3"); // nor a settlement
    act(&mut g, "red", "remove N2");
    assert_eq!(zone_cards(&g, "discard").last().map(|s| s.as_str()), Some("austin"));
}

/// Other Rules Additions 4 (Requirements): a card needing the Merchant Guild cannot be used
/// without it; an attack needs the opponent to be able to meet it (resources to give).
#[test]
fn requirements_are_checked_for_both_players() {
    let mut g = red_action();
    give(&mut g, "red", "trade_master");
    assert!(refuse(&mut g, "red", "play trade_master ore").contains("Merchant Guild"));
    edit(&mut g, "place L1 merchant_guild");
    for (l, _) in regions(&g, "blue") {
        edit(&mut g, &format!("store {l} 0"));
    }
    assert!(refuse(&mut g, "red", "play trade_master ore").contains("no resources"));
}

/// Other Rules Additions 5 (Placing Cards Under the Right Stack): the same back; an emptied
/// stack's place stays usable.
#[test]
fn cards_go_under_a_stack_with_the_same_back() {
    let mut g = red_action();
    // Empty stack 4 (a kind in both sets leaves the Basic stacks first).
    while let Some(k) = zone_cards(&g, "stack4").last().cloned() {
        edit(&mut g, &format!("hand blue {k}"));
    }
    give(&mut g, "red", "scout");
    give(&mut g, "red", "mint");
    give(&mut g, "red", "toll_bridge");
    act(&mut g, "red", "end");
    // 3 cards, limit 3: the exchange step.
    assert_eq!(g.state().phase, "exchange");
    assert!(refuse(&mut g, "red", "exchange scout under 4").contains("same back"));
    assert!(refuse(&mut g, "red", "exchange mint under 2").contains("same back"));
    // The Toll Bridge is in both sets (its copies are counted, not told apart): either back.
    let listed: Vec<String> = g.legal_actions(seat(&g, "red")).unwrap().iter().map(|a| g.action_text(a)).collect();
    for l in ["exchange toll_bridge under 1", "exchange toll_bridge under 5", "exchange mint under 4"] {
        assert!(listed.contains(&l.to_string()), "{l}: {listed:?}");
    }
    assert!(!listed.contains(&"exchange scout under 5".to_string()));
    act(&mut g, "red", "exchange mint under 4");
    assert_eq!(zone_cards(&g, "stack4"), vec!["mint"], "an emptied stack is re-established");
}

// End of the Game ----------------------------------------------------------------------------------

/// End of the Game: 12 points during your own turn win at once, whatever the opponent
/// has; the victory points of city expansions count.
#[test]
fn twelve_points_in_your_turn_win_at_once() {
    let mut g = red_action();
    // Cities L3 and N3 (4), city expansions on 6 of their sites (6): 10 points.
    edit(&mut g, "place N3 city");
    for (l, k) in [
        ("L1", "mint"),
        ("L2", "mint"),
        ("L4", "salt_silo"),
        ("L5", "moneylender"),
        ("N1", "trading_base"),
        ("N2", "staple_house"),
    ] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    assert_eq!(points(&g, "red"), 10);
    edit(&mut g, "place N4 staple_house");
    assert_eq!(points(&g, "red"), 11);
    assert_eq!(g.winner(), None);
    // The 12th point by building the Merchant Guild (its point and, with the Trading
    // Base, the trade advantage): red wins in the action phase, not at the turn's end.
    set_stores(&mut g, &[("K4", 3), ("M4", 3), ("O2", 3)]);
    act(&mut g, "red", "build merchant_guild N5");
    assert_eq!(g.winner(), Some(seat(&g, "red")), "12 points during red's turn win at once");
    assert_eq!(g.state().phase, "action");
}

/// Other Rules Additions 3 with the "1x" mark: one copy of a face-up stack card per
/// principality; it is built from the face-up stack, not from the hand.
#[test]
fn face_up_cards_are_built_from_the_stack_once_each() {
    let mut g = red_action();
    set_stores(&mut g, &[("K4", 3), ("M4", 3), ("O2", 3)]);
    act(&mut g, "red", "build merchant_guild L1");
    assert_eq!(zone_cards(&g, "faceup"), vec!["merchant_guild"]);
    assert!(refuse(&mut g, "red", "build merchant_guild L5").contains("only one"));
    assert_eq!(points(&g, "red"), 2 + 1 + 1, "a city (settlement N3 + city L3) and the Guild's point");
}

/// End of the Game, Note: 12 points before you roll win at once.
#[test]
fn twelve_points_before_the_roll_win() {
    let mut g = red_action();
    for (l, k) in [("N3", "city"), ("L1", "mint"), ("L2", "mint"), ("L4", "salt_silo"), ("L5", "moneylender")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    for (l, k) in [("N1", "trading_base"), ("N2", "staple_house"), ("N5", "staple_house")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    assert_eq!(points(&g, "red"), 11);
    act(&mut g, "red", "end");
    while g.winner().is_none() && to_act(&g) == "red" {
        let s = seat(&g, "red");
        let a = g
            .legal_actions(s)
            .unwrap()
            .into_iter()
            .find(|a| a.name == "draw" || a.name == "keep" || a.name == "discard")
            .unwrap();
        g.perform(s, &a).unwrap();
    }
    // Blue's turn: red's 12th point comes during the opponent's turn (the hero token for a
    // Candamir placed), and red wins when red's turn begins, before rolling.
    edit(&mut g, "place N4 candamir");
    assert_eq!(points(&g, "red"), 12);
    assert_eq!(g.winner(), None, "not on blue's turn");
    roll(&mut g, 5, "brigand");
    act(&mut g, "blue", "end");
    while g.winner().is_none() && to_act(&g) == "blue" {
        let s = seat(&g, "blue");
        let a = g
            .legal_actions(s)
            .unwrap()
            .into_iter()
            .find(|a| a.name == "draw" || a.name == "keep" || a.name == "discard")
            .unwrap();
        g.perform(s, &a).unwrap();
    }
    assert_eq!(g.winner(), Some(seat(&g, "red")));
    assert_eq!(g.state().phase, "roll", "before rolling");
}

// The Era of Gold: action cards -----------------------------------------------------------------

/// Card index, Brigands: only with the strength advantage; the opponent gives as many of the
/// named region's resource as it can still hold, choosing the regions they come from.
#[test]
fn brigands_take_what_one_region_can_hold() {
    let mut g = red_action();
    give(&mut g, "red", "brigands");
    assert!(refuse(&mut g, "red", "play brigands O2").contains("strength advantage"));
    edit(&mut g, "place N2 candamir"); // strength 4: the hero token
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("red"));
    set_stores(&mut g, &[("O7", 3), ("O2", 1)]);
    act(&mut g, "red", "play brigands O2"); // room for 2 grain
    assert_eq!(to_act(&g), "blue");
    refuse(&mut g, "blue", "yield K7"); // lumber is not what was asked
    act(&mut g, "blue", "yield O7");
    act(&mut g, "blue", "yield O7");
    assert_eq!(store(&g, "O2"), 3);
    assert_eq!(store(&g, "O7"), 1);
    assert_eq!(g.state().phase, "action");
    assert_eq!(to_act(&g), "red");
}

/// Card index, Gudrun, Terror of the Seas: needs your Pirate Ship and the opponent's gold;
/// at most 2 gold per Pirate Ship, all their gold, what you can store; they choose regions.
#[test]
fn gudrun_takes_gold_for_a_pirate_ship() {
    let mut g = red_action();
    give(&mut g, "red", "gudrun");
    set_stores(&mut g, &[("M7", 3)]);
    assert!(refuse(&mut g, "red", "play gudrun 1").contains("Pirate Ship"));
    edit(&mut g, "place N2 pirate_ship");
    assert!(refuse(&mut g, "red", "play gudrun 3").contains("1 to 2"));
    act(&mut g, "red", "play gudrun 2");
    act(&mut g, "blue", "yield M7");
    act(&mut g, "blue", "yield M7");
    assert_eq!(n(&g, "red", "gold"), 2);
    assert_eq!(store(&g, "M7"), 1);
    // Not playable when the opponent has no gold.
    give(&mut g, "red", "gudrun");
    edit(&mut g, "store M7 0");
    assert!(refuse(&mut g, "red", "play gudrun 1").contains("no gold"));
}

/// Card index, Merchant: needs a city or 3 commerce points and an opponent with resources;
/// 1 or 2 resources of your choice, then you give back any 1.
#[test]
fn merchant_takes_two_and_gives_one_back() {
    let mut g = gold_game("red");
    roll(&mut g, 5, "brigand");
    give(&mut g, "red", "merchant");
    assert!(refuse(&mut g, "red", "play merchant ore").contains("city or 3 commerce"));
    edit(&mut g, "place L3 city");
    set_stores(&mut g, &[("K9", 2), ("K4", 1)]);
    refuse(&mut g, "red", "play merchant 3 brick");
    refuse(&mut g, "red", "play merchant gold"); // blue has no gold
    act(&mut g, "red", "play merchant 2 brick");
    act(&mut g, "blue", "yield K9");
    act(&mut g, "blue", "yield K9");
    assert_eq!(store(&g, "K4"), 3);
    assert_eq!(to_act(&g), "red", "now red gives one back");
    act(&mut g, "red", "yield K4");
    assert_eq!(store(&g, "K4"), 2);
    assert_eq!(store(&g, "K9"), 1);
    assert_eq!(g.state().phase, "action");
}

/// Card index, Reiner the Herald: the event die shows a celebration; you receive a resource
/// even when the opponent has more skill points.
#[test]
fn reiner_sets_a_celebration_and_always_gives_a_resource() {
    let mut g = gold_game("red");
    let red_hand: Vec<(String, u16)> = hand(&g, "red").into_iter().collect();
    for (k, c) in red_hand {
        for _ in 0..c {
            edit(&mut g, &format!("drop red {k}"));
        }
    }
    give(&mut g, "red", "reiner");
    edit(&mut g, "place L7 inga"); // blue: skill 3
    act(&mut g, "red", "play reiner");
    assert!(messages(&g).iter().any(|m| m.contains("event die: celebration")), "{:?}", messages(&g));
    assert_eq!(to_act(&g), "red", "red chooses first");
    act(&mut g, "red", "choose ore");
    act(&mut g, "blue", "choose wool");
    assert_eq!(g.state().phase, "action");
    assert_eq!(zone_cards(&g, "discard").last().map(|s| s.as_str()), Some("reiner"));
}

/// Card index, Trade Master: needs a Merchant Guild; 1 or 2 resources of your choice, the
/// opponent choosing the regions.
#[test]
fn trade_master_takes_two_resources() {
    let mut g = red_action();
    edit(&mut g, "place L1 merchant_guild");
    give(&mut g, "red", "trade_master");
    act(&mut g, "red", "play trade_master ore wool");
    act(&mut g, "blue", "yield M9"); // wool first (resource order), then ore
    act(&mut g, "blue", "yield O9");
    assert_eq!(store(&g, "O9"), 0);
    assert_eq!(store(&g, "M9"), 0);
    assert_eq!(n(&g, "red", "ore"), 3);
    assert_eq!(n(&g, "red", "wool"), 2);
}

/// Card index, Goldsmith (Basic Set, a copy in this set): the gold may come from different
/// gold fields and the Gold Cache.
#[test]
fn goldsmith_pays_from_the_gold_cache_too() {
    let mut g = red_action();
    edit(&mut g, "place K1 gold_cache");
    set_stores(&mut g, &[("M2", 2), ("K1", 1)]);
    give(&mut g, "red", "goldsmith");
    act(&mut g, "red", "play goldsmith ore grain");
    assert_eq!(n(&g, "red", "gold"), 0);
    assert_eq!(n(&g, "red", "ore"), 3);
}

// Region expansion, settlement/city expansions ------------------------------------------------------

/// Card index, Gold Cache: gold in it is safe from the Brigand Attack (not counted, not
/// lost); received gold goes there when the gold fields are full; it needs a hero with
/// strength (rivals_cards.csv).
#[test]
fn gold_cache_stores_safe_gold() {
    let mut g = red_action();
    give(&mut g, "red", "gold_cache");
    assert!(refuse(&mut g, "red", "build gold_cache K1").contains("hero"));
    edit(&mut g, "place N2 austin");
    act(&mut g, "red", "build gold_cache K1");
    set_stores(&mut g, &[("M2", 3), ("K1", 3), ("K2", 2), ("O2", 1), ("K4", 1), ("M4", 1), ("O4", 1)]);
    // 9 resources in regions: over 7, gold field and pasture lose theirs; the cache keeps 3.
    pass(&mut g, "red");
    roll(&mut g, 3, "brigand");
    assert_eq!(store(&g, "M2"), 0);
    assert_eq!(store(&g, "M4"), 0);
    assert_eq!(store(&g, "K1"), 3, "gold in the Gold Cache is safe");
}

/// Card index, Toll Bridge (a copy in this set): the 2 gold of a Plentiful Harvest go to
/// gold fields or the Gold Cache; what finds no room is lost.
#[test]
fn toll_bridge_gold_fills_the_gold_cache() {
    let mut g = red_action();
    edit(&mut g, "place K1 gold_cache");
    edit(&mut g, "place N2 toll_bridge");
    set_stores(&mut g, &[("M2", 3), ("K1", 2)]);
    pass(&mut g, "red");
    roll(&mut g, 3, "harvest");
    assert_eq!(store(&g, "K1"), 3, "1 stored, 1 lost");
}

/// Card index, Pirate Ship: when built, the opponent removes a trade ship of their choice;
/// nothing without one; 1 gold on every Plentiful Harvest.
#[test]
fn pirate_ship_sinks_a_trade_ship_and_gets_harvest_gold() {
    let mut g = red_action();
    edit(&mut g, "place L7 ore_ship");
    edit(&mut g, "place N7 wool_ship");
    set_stores(&mut g, &[("M4", 2), ("K2", 2)]);
    build(&mut g, "red", "pirate_ship", "N2");
    assert_eq!(to_act(&g), "blue");
    refuse(&mut g, "blue", "sink L8");
    act(&mut g, "blue", "sink N7");
    assert_eq!(top(&g, "N7"), None);
    assert_eq!(top(&g, "L7").as_deref(), Some("ore_ship"));
    assert_eq!(zone_cards(&g, "discard").last().map(|s| s.as_str()), Some("wool_ship"));
    // The second Pirate Ship: blue's remaining ore ship goes too; a third time nothing.
    build(&mut g, "red", "pirate_ship", "N4");
    act(&mut g, "blue", "sink L7");
    pass(&mut g, "red");
    roll(&mut g, 3, "harvest");
    act(&mut g, "blue", "choose ore");
    act(&mut g, "red", "choose ore");
    assert!(store(&g, "M2") >= 2, "2 gold for 2 Pirate Ships");
}

/// Card index, Harbor: 1 commerce; 1 point only while you have 3 trade ships.
#[test]
fn harbor_is_worth_a_point_with_three_trade_ships() {
    let mut g = red_action();
    edit(&mut g, "place L1 harbor");
    let base = points(&g, "red");
    edit(&mut g, "place L2 ore_ship");
    edit(&mut g, "place L4 wool_ship");
    // 2 ships and the Harbor: 3 commerce, the trade token; the Harbor no point yet.
    assert_eq!(var_seat(&g, "trade_token").as_deref(), Some("red"));
    assert_eq!(points(&g, "red"), base + 1);
    edit(&mut g, "place N2 large_trade_ship");
    assert_eq!(points(&g, "red"), base + 2, "the third ship: the Harbor's point");
    act(&mut g, "red", "remove N2");
    assert_eq!(points(&g, "red"), base + 1, "the Harbor's point goes with the third ship");
}

/// Card index, Merchant Guild: 1 point, 2 commerce; what needed it stays when it is removed.
#[test]
fn merchant_guild_is_a_prerequisite_that_may_go() {
    let mut g = red_action();
    set_stores(&mut g, &[("K4", 3), ("M4", 3), ("O2", 3), ("O4", 3)]);
    give(&mut g, "red", "staple_house");
    assert!(refuse(&mut g, "red", "build staple_house L2").contains("Merchant Guild"));
    act(&mut g, "red", "build merchant_guild L1");
    set_stores(&mut g, &[("K4", 3), ("M4", 3), ("O4", 3)]);
    act(&mut g, "red", "build staple_house L2");
    act(&mut g, "red", "choose ore");
    act(&mut g, "red", "choose grain");
    act(&mut g, "red", "remove L1");
    assert_eq!(top(&g, "L2").as_deref(), Some("staple_house"), "the Staple House stays");
}

/// Card index, Moneylender: on a trade event the trade advantage takes 2 resources; with only
/// 1 resource the opponent gives that one; only what you can store.
#[test]
fn moneylender_takes_two_on_trade() {
    let mut g = red_action();
    edit(&mut g, "place L1 moneylender");
    edit(&mut g, "place L2 merchant_guild");
    edit(&mut g, "place N2 toll_bridge"); // 3 commerce: the trade token
    assert_eq!(var_seat(&g, "trade_token").as_deref(), Some("red"));
    empty_regions(&mut g);
    set_stores(&mut g, &[("K9", 1)]);
    pass(&mut g, "red");
    roll(&mut g, 3, "trade"); // blue's 3 is forest K7 1 -> 1 lumber; red's 3 is hills K4
    assert_eq!(to_act(&g), "red");
    act(&mut g, "red", "choose brick");
    act(&mut g, "red", "choose lumber");
    assert_eq!(g.state().phase, "action");
    assert_eq!(stock_total(&g, "blue"), 0);
}

/// Card index, Mint: on each of your turns, each Mint trades 1 gold for 1 other resource.
#[test]
fn mint_trades_one_gold_per_turn() {
    let mut g = red_action();
    edit(&mut g, "place L1 mint");
    set_stores(&mut g, &[("M2", 3)]);
    refuse(&mut g, "red", "mint gold");
    act(&mut g, "red", "mint wool");
    assert_eq!(store(&g, "M2"), 2);
    assert_eq!(store(&g, "M4"), 2);
    refuse(&mut g, "red", "mint wool");
    edit(&mut g, "place L2 mint");
    act(&mut g, "red", "mint brick");
    refuse(&mut g, "red", "mint brick");
}

/// The owner chooses: the Mint's gold comes from the gold field or the Gold Cache the owner
/// names (kept in the cache, it is safe from a Brigand Attack; spent from the field, the
/// field has room for the next roll), and the Goldsmith's likewise, one `spend` at a time.
#[test]
fn mint_and_goldsmith_owner_chooses_field_or_cache() {
    let mut g = red_action();
    edit(&mut g, "place L1 mint");
    edit(&mut g, "place K1 gold_cache");
    set_stores(&mut g, &[("M2", 3), ("K1", 3), ("M4", 1)]);
    act(&mut g, "red", "mint wool");
    assert_eq!(g.state().phase, "choose");
    assert_eq!(legal_texts(&g, "red"), vec!["spend K1", "spend M2"]);
    act(&mut g, "red", "spend M2");
    assert_eq!((store(&g, "M2"), store(&g, "K1"), store(&g, "M4")), (2, 3, 2));
    assert_eq!(g.state().phase, "action");
    give(&mut g, "red", "goldsmith");
    act(&mut g, "red", "play goldsmith ore grain");
    act(&mut g, "red", "spend K1");
    act(&mut g, "red", "spend K1");
    act(&mut g, "red", "spend K1");
    assert_eq!((store(&g, "M2"), store(&g, "K1")), (2, 0), "all 3 from the Gold Cache");
    assert_eq!(g.state().phase, "action");
}

/// Card index, Salt Silo: 1 point; each trade ship is worth 2 commerce points.
#[test]
fn salt_silo_doubles_trade_ships() {
    let mut g = red_action();
    edit(&mut g, "place L1 salt_silo");
    assert_eq!(points(&g, "red"), 2 + 1 + 1);
    edit(&mut g, "place L2 ore_ship");
    assert_eq!(gold_commerce(&g, seat(&g, "red")), 2);
    assert_eq!(var_seat(&g, "trade_token"), None);
    edit(&mut g, "place L4 wool_ship"); // 4 commerce: the trade token
    assert_eq!(var_seat(&g, "trade_token").as_deref(), Some("red"));
}

/// Card index, Staple House: needs a Merchant Guild; the cost is paid first, then any 2
/// resources.
#[test]
fn staple_house_gives_two_resources_after_paying() {
    let mut g = red_action();
    edit(&mut g, "place L1 merchant_guild");
    set_stores(&mut g, &[("K4", 2), ("M4", 1), ("O4", 2)]);
    build(&mut g, "red", "staple_house", "L2");
    assert_eq!(store(&g, "K4"), 0);
    assert_eq!(g.state().phase, "choose");
    act(&mut g, "red", "choose brick");
    act(&mut g, "red", "choose brick");
    assert_eq!(store(&g, "K4"), 2);
    assert_eq!(g.state().phase, "action");
}

/// Card index, Trading Base: 1 point, 1 commerce; the Harbor and the Marketplace are worth 2
/// commerce each while it stands.
#[test]
fn trading_base_raises_harbor_and_marketplace() {
    let mut g = red_action();
    edit(&mut g, "place L1 harbor");
    edit(&mut g, "place N2 marketplace");
    assert_eq!(var_seat(&g, "trade_token"), None, "2 commerce");
    edit(&mut g, "place L2 trading_base");
    assert_eq!(gold_commerce(&g, seat(&g, "red")), 5);
    assert_eq!(var_seat(&g, "trade_token").as_deref(), Some("red"));
    let d = g.describe(seat(&g, "red")).unwrap();
    assert!(format!("{d:?}").contains("commerce 5"), "{d:?}");
}

// Events ---------------------------------------------------------------------------------------------

/// Card index, Gift for the Prince (rivals_cards.csv): 1 gold per unit with a strength point,
/// as far as the gold fields (and Gold Cache) have room.
#[test]
fn gift_for_the_prince_gives_gold_for_strong_units() {
    let mut g = red_action();
    edit(&mut g, "place N2 austin");
    edit(&mut g, "place N4 harald");
    edit(&mut g, "place L7 inga");
    edit(&mut g, "event gift_for_the_prince");
    pass(&mut g, "red");
    roll(&mut g, 3, "event");
    assert_eq!(store(&g, "M2"), 2);
    assert_eq!(store(&g, "M7"), 1);
}

/// Other Rules Additions 3 and 5 in a Feud: a building from the face-up stack goes back to
/// it; a Basic Set building only under a Basic Set stack.
#[test]
fn feud_returns_a_face_up_card_and_keeps_backs() {
    let mut g = red_action();
    edit(&mut g, "place N2 candamir"); // red: hero token
    edit(&mut g, "place L8 city");
    edit(&mut g, "place L6 merchant_guild");
    edit(&mut g, "place L7 abbey");
    edit(&mut g, "event feud");
    pass(&mut g, "red");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "blue", "2 buildings: blue is affected at once");
    assert!(refuse(&mut g, "blue", "remove L7 under 4").contains("same back"));
    let stack1 = zone_cards(&g, "stack1").len();
    act(&mut g, "blue", "remove L6 under 1");
    assert_eq!(zone_cards(&g, "faceup"), vec!["merchant_guild", "merchant_guild"]);
    assert_eq!(zone_cards(&g, "stack1").len(), stack1, "nothing went under stack 1");
}

/// Card index, Moneylender: you take only resources you can store; with no room the
/// opponent keeps them.
#[test]
fn moneylender_takes_only_what_fits() {
    let mut g = red_action();
    edit(&mut g, "place L1 moneylender");
    edit(&mut g, "place L2 merchant_guild");
    edit(&mut g, "place N2 toll_bridge");
    empty_regions(&mut g);
    set_stores(&mut g, &[("K9", 2), ("O9", 1), ("K4", 3)]); // red's hills full
    pass(&mut g, "red");
    roll(&mut g, 2, "trade"); // blue's hills K9 full at 3; red's forest K2 +1
    assert_eq!(to_act(&g), "red");
    refuse(&mut g, "red", "choose brick");
    act(&mut g, "red", "choose ore");
    assert_eq!(g.state().phase, "action", "only brick is left, and red has no room for it");
    assert_eq!(store(&g, "K9"), 3);
}

/// General Rules, Preparation 5: any arrangement of the 6 regions is at most 5 swaps away,
/// so after 10 swaps only `ready` is left (a bot cannot swap for ever).
#[test]
fn rearranging_ends_after_ten_swaps() {
    let mut g = gold_new("red");
    for _ in 0..8 {
        let s = g.to_act().unwrap();
        let a = g.legal_actions(s).unwrap().into_iter().find(|a| a.name == "select" || a.name == "look").unwrap();
        g.perform(s, &a).unwrap();
    }
    for _ in 0..10 {
        act(&mut g, "red", "rearrange K2 M2");
    }
    let names: Vec<String> = g.legal_actions(seat(&g, "red")).unwrap().into_iter().map(|a| a.name).collect();
    assert_eq!(names, vec!["ready"]);
    act(&mut g, "red", "ready");
    act(&mut g, "blue", "rearrange K7 M7");
}
