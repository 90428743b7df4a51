//! One test per card of The Era of Turmoil and per rule of Special Rules 2
//! (../shared/rules/004: "SPECIAL RULES" 2 and the card index "THE ERA OF TURMOIL"; card
//! data from ../shared/reference/rivals_cards.csv). Each test's doc comment names its rule.
//!
//! Labels as in tests/rivals/mod.rs: red's regions K2 forest, M2 gold field, O2 fields, K4
//! hills, M4 pasture, O4 mountains; blue's K7 M7 O7 K9 M9 O9. Red has a city on L3 (sites L1
//! L2 L4 L5) and a settlement on N3 (N2 N4); blue's settlements are L8 and N8 (L7 L9 N7 N9).

use crate::rivals;
use crate::rivals_theme;

use catan_engine::Game;
use rivals::*;
use rivals_theme::*;

const V: &str = "rivals_turmoil";

fn red_action() -> Game {
    rivals_theme::red_action(V)
}

/// Red (with the Hedge Tavern on L1 and the card in hand) attacks blue.
fn attacker(card: &str) -> Game {
    let mut g = red_action();
    edit(&mut g, "place L1 hedge_tavern");
    give(&mut g, "red", card);
    g
}

/// Red on turn 1 with the strength advantage (Candamir on N2) and the event `event` on top
/// of the event deck, about to roll.
fn red_hero_before(event: &str) -> Game {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place N2 candamir");
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("red"));
    edit(&mut g, &format!("event {event}"));
    g
}

// Special Rules 2 -------------------------------------------------------------------------------

/// Special Rules 2 and General Rules, Preparation 1-3: two theme stacks of 11, the 2 Hedge
/// Taverns face up, the set's 4 events (Riots 2, Feud, Fraternal Feuds) with the Basic Set's,
/// Yule 4th from the bottom.
#[test]
fn special_rules_2_stacks_face_up_taverns_and_events() {
    let g = theme_new(V, "red");
    for (z, len) in [("stack1", 12), ("stack2", 12), ("stack3", 12), ("stack4", 11), ("stack5", 11)] {
        assert_eq!(zone_cards(&g, z).len(), len, "{z}");
    }
    assert_eq!(zone_cards(&g, "faceup"), vec!["hedge_tavern", "hedge_tavern"]);
    let theme = [zone_cards(&g, "stack4"), zone_cards(&g, "stack5")].concat();
    for (k, c) in [("archer", 2), ("fire_brigade", 2), ("brigands", 1), ("sebastian", 1), ("chapel_123", 1)] {
        assert_eq!(theme.iter().filter(|x| *x == k).count(), c, "{k}");
    }
    let ev = zone_cards(&g, "events");
    assert_eq!(ev.len(), 13);
    assert_eq!(ev[3], "yule");
    for (k, c) in [("riots", 2), ("feud", 2), ("fraternal_feuds", 2)] {
        assert_eq!(ev.iter().filter(|e| *e == k).count(), c, "{k}");
    }
}

// Action cards ----------------------------------------------------------------------------------

/// Card index, Archer: not without your Hedge Tavern, nor when the opponent has no unit with
/// strength; the opponent chooses the unit and puts it under a stack of the same back.
#[test]
fn archer_makes_the_opponent_remove_a_strong_unit() {
    let mut g = red_action();
    give(&mut g, "red", "archer");
    assert!(refuse(&mut g, "red", "play archer").contains("Hedge Tavern"));
    edit(&mut g, "place L1 hedge_tavern");
    assert!(refuse(&mut g, "red", "play archer").contains("no unit with a strength point"));
    edit(&mut g, "place L7 austin");
    edit(&mut g, "place N7 carl_forkbeard");
    act(&mut g, "red", "play archer");
    assert_eq!(to_act(&g), "blue", "the opponent chooses");
    let l = listed(&g, "blue");
    assert!(l.contains(&"remove L7 under 2".to_string()) && l.contains(&"remove N7 under 4".to_string()), "{l:?}");
    refuse(&mut g, "blue", "remove N7 under 1"); // Carl Forkbeard has the Era of Turmoil's back
    act(&mut g, "blue", "remove L7 under 2");
    assert_eq!(zone_cards(&g, "stack2")[0], "austin");
    assert_eq!(top(&g, "N7").as_deref(), Some("carl_forkbeard"));
    assert_eq!(g.state().phase, "action");
    assert_eq!(zone_cards(&g, "discard").last().map(String::as_str), Some("archer"));
}

/// Card index, Arsonist: not without your Hedge Tavern or an unprotected building of the
/// opponent's; the opponent puts the named building under a draw stack of their choice.
#[test]
fn arsonist_burns_a_named_building() {
    let mut g = attacker("arsonist");
    assert!(refuse(&mut g, "red", "play arsonist N7").contains("no building"));
    edit(&mut g, "place N7 abbey");
    edit(&mut g, "place L7 austin"); // a unit is no building
    assert!(refuse(&mut g, "red", "play arsonist L7").contains("N7"));
    act(&mut g, "red", "play arsonist N7");
    assert_eq!(to_act(&g), "blue");
    assert_eq!(listed(&g, "blue"), vec!["remove N7 under 1", "remove N7 under 2", "remove N7 under 3"]);
    act(&mut g, "blue", "remove N7 under 3");
    assert_eq!(zone_cards(&g, "stack3")[0], "abbey");
    assert_eq!(top(&g, "N7"), None);
}

/// Card index, Fire Brigade: protects every building of its city, itself too; a face-up
/// card burnt returns to the face-up stack (Other Rules Additions 3).
#[test]
fn fire_brigade_protects_its_city() {
    let mut g = attacker("arsonist");
    edit(&mut g, "place L8 city");
    edit(&mut g, "place L6 fire_brigade");
    edit(&mut g, "place L9 storehouse");
    edit(&mut g, "place L10 hedge_tavern");
    edit(&mut g, "place N7 abbey");
    assert!(refuse(&mut g, "red", "play arsonist L9").contains("Fire Brigade"));
    refuse(&mut g, "red", "play arsonist L6");
    edit(&mut g, "clear L6");
    act(&mut g, "red", "play arsonist L10");
    act(&mut g, "blue", "remove L10 under 1");
    assert_eq!(zone_cards(&g, "faceup"), vec!["hedge_tavern"], "back face up, not under the stack");
}

/// Card index, Traitor: not without your Hedge Tavern or when the opponent's hand is empty;
/// you take one card of the hand shown (and may play it at once), or none.
#[test]
fn traitor_takes_a_card_of_the_opponents_hand() {
    let mut g = attacker("traitor");
    for (k, c) in hand(&g, "blue") {
        for _ in 0..c {
            edit(&mut g, &format!("drop blue {k}"));
        }
    }
    assert!(refuse(&mut g, "red", "play traitor").contains("no cards"));
    give(&mut g, "blue", "scout");
    give(&mut g, "blue", "goldsmith");
    act(&mut g, "red", "play traitor");
    assert!(last_messages(&g).iter().any(|m| m.contains("1 goldsmith, 1 scout")), "{:?}", last_messages(&g));
    assert_eq!(listed(&g, "red"), vec!["seize goldsmith", "seize scout", "skip"]);
    act(&mut g, "red", "seize scout");
    assert_eq!(hand(&g, "red").get("scout"), Some(&1));
    assert_eq!(hand_size(&g, "blue"), 1);
    assert_eq!(g.state().phase, "action");
    // Refraining: the Traitor is discarded all the same.
    give(&mut g, "red", "traitor");
    act(&mut g, "red", "play traitor");
    act(&mut g, "red", "skip");
    assert_eq!(hand_size(&g, "blue"), 1);
    assert_eq!(zone_cards(&g, "discard").last().map(String::as_str), Some("traitor"));
}

/// Card index, Voyage of Plunder: only with the strength advantage; 1 resource of your
/// choice, 2 when the opponent has more points; only what you can store.
#[test]
fn voyage_of_plunder_takes_one_or_two() {
    let mut g = red_action();
    give(&mut g, "red", "voyage_of_plunder");
    assert!(refuse(&mut g, "red", "play voyage_of_plunder").contains("strength advantage"));
    edit(&mut g, "place N2 candamir");
    act(&mut g, "red", "play voyage_of_plunder"); // red 4 points, blue 2: 1 resource
    assert_eq!(to_act(&g), "red");
    act(&mut g, "red", "choose grain");
    assert_eq!(store(&g, "O7"), 1);
    assert_eq!(g.state().phase, "action");
    // Blue ahead: 2 resources.
    edit(&mut g, "place L8 city");
    edit(&mut g, "place N8 city");
    edit(&mut g, "place L6 large_festival_hall");
    assert!(points(&g, "blue") > points(&g, "red"));
    give(&mut g, "red", "voyage_of_plunder");
    act(&mut g, "red", "play voyage_of_plunder");
    act(&mut g, "red", "choose brick");
    act(&mut g, "red", "choose lumber");
    assert_eq!((store(&g, "K9"), store(&g, "K7")), (0, 0));
    // Nothing red can store: not playable.
    give(&mut g, "red", "voyage_of_plunder");
    for (l, _) in regions(&g, "red") {
        edit(&mut g, &format!("store {l} 3"));
    }
    assert!(refuse(&mut g, "red", "play voyage_of_plunder").contains("no resource you can store"));
}

/// Card index, Brigands (a copy in the Era of Turmoil): as in The Era of Gold.
#[test]
fn brigands_are_in_the_era_of_turmoil_too() {
    let mut g = red_action();
    give(&mut g, "red", "brigands");
    assert!(refuse(&mut g, "red", "play brigands O2").contains("strength advantage"));
    edit(&mut g, "place N2 carl_forkbeard");
    edit(&mut g, "store O7 3");
    act(&mut g, "red", "play brigands O2");
    act(&mut g, "blue", "yield O7");
    act(&mut g, "blue", "yield O7");
    assert_eq!(store(&g, "O2"), 3);
}

/// Card index, Sebastian the Itinerant Preacher: played when a Feud is revealed, even in
/// the opponent's turn, it spares you; declining (`skip`) lets the Feud strike.
#[test]
fn sebastian_spares_his_player_from_a_feud() {
    let mut g = red_hero_before("feud");
    edit(&mut g, "place N7 abbey");
    give(&mut g, "blue", "sebastian");
    roll(&mut g, 5, "event");
    assert_eq!(to_act(&g), "blue", "blue is asked in red's turn");
    assert_eq!(listed(&g, "blue"), vec!["play sebastian", "skip"]);
    act(&mut g, "blue", "play sebastian");
    assert_eq!(top(&g, "N7").as_deref(), Some("abbey"));
    assert_eq!(g.state().phase, "action");
    assert_eq!(to_act(&g), "red");
    // Declined: the Feud strikes.
    let mut g = red_hero_before("feud");
    edit(&mut g, "place N7 abbey");
    give(&mut g, "blue", "sebastian");
    roll(&mut g, 5, "event");
    act(&mut g, "blue", "skip");
    assert_eq!(to_act(&g), "blue");
    act(&mut g, "blue", "remove N7 under 1");
    assert_eq!(top(&g, "N7"), None);
    assert_eq!(hand(&g, "blue").get("sebastian"), Some(&1));
}

/// Card index, Sebastian, against Fraternal Feuds: the hand keeps its cards.
#[test]
fn sebastian_spares_his_player_from_fraternal_feuds() {
    let mut g = red_hero_before("fraternal_feuds");
    give(&mut g, "blue", "sebastian");
    let before = hand_size(&g, "blue");
    roll(&mut g, 5, "event");
    act(&mut g, "blue", "play sebastian");
    assert_eq!(hand_size(&g, "blue"), before - 1, "only Sebastian left the hand");
    assert_eq!(g.state().phase, "action");
}

// Buildings and heroes ----------------------------------------------------------------------------

/// Card index, Drill Ground: a hero costs 1 resource of your choice less; no other card.
#[test]
fn drill_ground_makes_heroes_cheaper() {
    let mut g = red_action();
    give(&mut g, "red", "inga"); // grain, wool, ore
    assert!(refuse(&mut g, "red", "build inga L2 saving wool").contains("nothing lets you"));
    edit(&mut g, "place N2 drill_ground");
    assert!(refuse(&mut g, "red", "build inga L2 saving brick").contains("costs no brick"));
    let before = stock(&g, "red");
    act(&mut g, "red", "build inga L2 saving wool");
    let after = stock(&g, "red");
    assert_eq!((after["grain"], after["wool"], after["ore"]), (before["grain"] - 1, before["wool"], before["ore"] - 1));
    assert_eq!(top(&g, "L2").as_deref(), Some("inga"));
    give(&mut g, "red", "abbey");
    assert!(refuse(&mut g, "red", "build abbey L4 saving ore").contains("nothing lets you"));
}

/// Card index, Lookout Tower: a 1 or 2 on the production die stops an Archer; a 3 does not.
#[test]
fn lookout_tower_stops_attacks_on_one_or_two() {
    let mut g = attacker("archer");
    edit(&mut g, "place L7 austin");
    edit(&mut g, "place N7 lookout_tower");
    sb(&mut g, "dice 2 3"); // the defence roll takes one die at a time
    act(&mut g, "red", "play archer");
    assert_eq!(g.state().phase, "action", "stopped");
    assert_eq!(top(&g, "L7").as_deref(), Some("austin"));
    give(&mut g, "red", "archer");
    act(&mut g, "red", "play archer");
    assert_eq!(to_act(&g), "blue", "a 3 does not stop it");
}

/// Card index, Heinrich the Sentinel: 3-5 stops an attack, with the Lookout Tower 1-5 (one
/// roll); a 6 never does.
#[test]
fn heinrich_stops_attacks_on_three_to_five() {
    let mut g = attacker("traitor");
    edit(&mut g, "place L7 heinrich");
    sb(&mut g, "dice 4 1");
    act(&mut g, "red", "play traitor");
    assert_eq!(g.state().phase, "action", "a 4 stops the Traitor");
    give(&mut g, "red", "traitor");
    act(&mut g, "red", "play traitor"); // the forced 1 left over
    assert_eq!(g.state().phase, "choose", "Heinrich alone: a 1 does not");
    act(&mut g, "red", "skip");
    edit(&mut g, "place N7 lookout_tower");
    give(&mut g, "red", "traitor");
    sb(&mut g, "dice 1 6");
    act(&mut g, "red", "play traitor");
    assert_eq!(g.state().phase, "action", "with the Lookout Tower a 1 stops it");
    give(&mut g, "red", "traitor");
    act(&mut g, "red", "play traitor");
    assert_eq!(g.state().phase, "choose", "a 6 never stops it");
}

/// Card index, Carl Forkbeard: a hero with 5 strength and no skill.
#[test]
fn carl_forkbeard_is_strong_without_skill() {
    let mut g = red_action();
    edit(&mut g, "place N2 carl_forkbeard");
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("red"));
    assert_eq!(strength(&g, "red"), 5);
    assert_eq!(skill(&g, "red"), 0);
}

/// Card index, Irmgard, Keeper of the Light: a card removed by the opponent's action card
/// (or an event) gives 1 resource of your choice.
#[test]
fn irmgard_compensates_a_removed_card() {
    let mut g = attacker("archer");
    edit(&mut g, "place L7 austin");
    edit(&mut g, "place N7 irmgard");
    edit(&mut g, "store O9 0");
    act(&mut g, "red", "play archer");
    act(&mut g, "blue", "remove L7 under 1");
    assert_eq!(to_act(&g), "blue", "Irmgard: a resource of blue's choice");
    act(&mut g, "blue", "choose ore");
    assert_eq!(store(&g, "O9"), 1);
    assert_eq!(g.state().phase, "action");
    assert_eq!(to_act(&g), "red");
}

/// A game whose next roll reveals Riots: red has a city on L3, Austin on N2 and `chapel`
/// on L1; blue has no unit.
fn riots_with(chapel: &str) -> Game {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L3 city");
    edit(&mut g, &format!("place L1 {chapel}"));
    edit(&mut g, "place N2 austin");
    edit(&mut g, "event riots");
    g
}

/// Card index, Chapel: Riots do not strike when the production die shows the Chapel's
/// numbers (the roll that revealed them; no new roll).
#[test]
fn chapels_protect_against_riots_by_the_production_die() {
    let mut g = riots_with("chapel_123");
    roll(&mut g, 2, "event");
    assert_eq!(g.state().phase, "action", "a 2: the Chapel 1-2-3 protects red");
    let mut g = riots_with("chapel_123");
    roll(&mut g, 5, "event");
    assert_eq!(to_act(&g), "red", "a 5: the Chapel 1-2-3 does not");
    assert!(listed(&g, "red").contains(&"remove N2 under 1".to_string()));
    let mut g = riots_with("chapel_456");
    roll(&mut g, 5, "event");
    assert_eq!(g.state().phase, "action", "a 5: the Chapel 4-5-6 protects red");
}

/// Card index, Fairgrounds: the cost paid first, then 2 resources of choice with more
/// skill points than the opponent; otherwise nothing.
#[test]
fn fairgrounds_gives_two_with_the_most_skill() {
    let mut g = red_action();
    set_stores(&mut g, &[("O2", 1), ("M4", 1), ("K2", 2)]);
    give(&mut g, "red", "fairgrounds");
    act(&mut g, "red", "build fairgrounds L1");
    assert_eq!(g.state().phase, "action", "equal skill: nothing");
    edit(&mut g, "place N2 inga"); // skill 3
    set_stores(&mut g, &[("O2", 1), ("M4", 1), ("K2", 2)]);
    edit(&mut g, "clear L1"); // the one Fairgrounds, to the discard pile and back to hand
    give(&mut g, "red", "fairgrounds");
    act(&mut g, "red", "build fairgrounds L2");
    assert_eq!(store(&g, "K2"), 0, "paid first");
    act(&mut g, "red", "choose lumber");
    act(&mut g, "red", "choose lumber");
    assert_eq!(store(&g, "K2"), 2);
}

/// Card index, Hedge Tavern: face up, 1 per principality, 1 point; the prerequisite of the
/// Archer, the Arsonist and the Traitor.
#[test]
fn hedge_tavern_is_built_face_up_once() {
    let mut g = red_action();
    set_stores(&mut g, &[("O2", 1), ("M4", 1), ("M2", 2)]);
    let before = points(&g, "red");
    act(&mut g, "red", "build hedge_tavern L1");
    assert_eq!(points(&g, "red"), before + 1);
    assert_eq!(zone_cards(&g, "faceup"), vec!["hedge_tavern"]);
    set_stores(&mut g, &[("O2", 1), ("M4", 1), ("M2", 2)]);
    assert!(refuse(&mut g, "red", "build hedge_tavern L2").contains("only one"));
}

/// Card index, Tithe Barn: wool or grain, 1 per hero; what does not fit is lost.
#[test]
fn tithe_barn_gives_one_per_hero() {
    let mut g = red_action();
    edit(&mut g, "place N2 austin");
    edit(&mut g, "place N4 harald");
    set_stores(&mut g, &[("K4", 1), ("K2", 2), ("O4", 1), ("M4", 1)]);
    give(&mut g, "red", "tithe_barn");
    act(&mut g, "red", "build tithe_barn L1");
    assert_eq!(listed(&g, "red"), vec!["tithe grain", "tithe wool"]);
    refuse(&mut g, "red", "tithe ore");
    act(&mut g, "red", "tithe wool");
    assert_eq!(store(&g, "M4"), 3, "2 heroes, 2 wool");
}

/// Card index, Large Festival Hall: 2 victory points.
#[test]
fn large_festival_hall_is_worth_two_points() {
    let mut g = red_action();
    let before = points(&g, "red");
    edit(&mut g, "place L1 large_festival_hall");
    assert_eq!(points(&g, "red"), before + 2);
}

// Events ------------------------------------------------------------------------------------------

/// Event Riots: 1-2 units with strength or commerce pay 1 gold, more pay 2; a player who
/// does not pay puts one of them under a matching stack (and may choose that with gold).
#[test]
fn riots_cost_gold_or_a_unit() {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L3 city");
    for (l, k) in [("L1", "austin"), ("L2", "brick_ship"), ("N2", "harald")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    edit(&mut g, "place L7 inga");
    edit(&mut g, "store M2 2");
    edit(&mut g, "store M7 1");
    edit(&mut g, "event riots");
    roll(&mut g, 6, "event");
    assert_eq!(to_act(&g), "red");
    let l = listed(&g, "red");
    assert!(l.contains(&"pay gold".to_string()) && l.contains(&"remove L2 under 1".to_string()), "{l:?}");
    act(&mut g, "red", "pay gold");
    assert_eq!(store(&g, "M2"), 0, "3 units: 2 gold");
    assert_eq!(to_act(&g), "blue");
    act(&mut g, "blue", "remove L7 under 2"); // gold, but blue keeps it
    assert_eq!(store(&g, "M7"), 1);
    assert_eq!(top(&g, "L7"), None);
    assert_eq!(g.state().phase, "action");
    // Without the gold, only a unit.
    edit(&mut g, "event riots");
    act(&mut g, "red", "end");
    pass(&mut g, "red");
    roll(&mut g, 1, "brigand");
    act(&mut g, "blue", "end");
    pass(&mut g, "blue");
    edit(&mut g, "store M2 1");
    roll(&mut g, 6, "event");
    assert!(refuse(&mut g, "red", "pay gold").contains("less than 2 gold"));
}

/// Card index, Sebastian against Riots: the player holding him may play him instead of
/// paying; one whose Chapel protects is not asked.
#[test]
fn sebastian_spares_his_player_from_riots() {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L7 austin");
    give(&mut g, "blue", "sebastian");
    edit(&mut g, "event riots");
    roll(&mut g, 6, "event");
    assert_eq!(to_act(&g), "blue");
    act(&mut g, "blue", "play sebastian");
    assert_eq!(top(&g, "L7").as_deref(), Some("austin"));
    assert_eq!(g.state().phase, "action");
}

/// Card index, Sebastian: not playable against Riots a Chapel already stops.
#[test]
fn sebastian_is_not_asked_when_a_chapel_protects() {
    let mut g = riots_with("chapel_456");
    give(&mut g, "red", "sebastian");
    roll(&mut g, 5, "event");
    assert_eq!(g.state().phase, "action", "the Chapel 4-5-6 protects red: no question");
    assert_eq!(hand(&g, "red").get("sebastian"), Some(&1));
}

/// Event Feud and Fraternal Feuds: the set's copies are the Basic Set's events (Irmgard
/// pays for a building lost to the Feud).
#[test]
fn feud_with_irmgard_pays_a_resource() {
    let mut g = red_hero_before("feud");
    edit(&mut g, "place N7 abbey");
    edit(&mut g, "place L7 irmgard");
    edit(&mut g, "store K7 0");
    roll(&mut g, 5, "event");
    act(&mut g, "blue", "remove N7 under 1");
    act(&mut g, "blue", "choose lumber");
    assert_eq!(store(&g, "K7"), 1);
    assert_eq!(g.state().phase, "action");
}

// Helpers ----------------------------------------------------------------------------------------

fn pass(g: &mut Game, who: &str) {
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

fn strength(g: &Game, who: &str) -> i64 {
    describe(g, who, "strength")
}

fn skill(g: &Game, who: &str) -> i64 {
    describe(g, who, "skill")
}

fn describe(g: &Game, who: &str, field: &str) -> i64 {
    let v = catan_engine::view::view(g, catan_engine::engine::Observer::Referee);
    v["players"][seat(g, who)]["info"][field].as_i64().unwrap_or_else(|| panic!("no {field} in {v}"))
}
