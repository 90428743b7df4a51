//! One test per card of The Era of Progress and per rule of Special Rules 3
//! (../shared/rules/004: "SPECIAL RULES" 3 and the card index "THE ERA OF PROGRESS"; card
//! data from ../shared/reference/rivals_cards.csv). Each test's doc comment names its rule.
//!
//! Labels as in tests/rivals/mod.rs: red's regions K2 forest, M2 gold field, O2 fields, K4
//! hills, M4 pasture, O4 mountains; blue's K7 M7 O7 K9 M9 O9. Red has a city on L3 (sites L1
//! L2 L4 L5) and a settlement on N3 (N2 N4).

use crate::rivals;
use crate::rivals_theme;

use catan_engine::Game;
use rivals::*;
use rivals_theme::*;

const V: &str = "rivals_progress";

fn red_action() -> Game {
    rivals_theme::red_action(V)
}

fn fill(g: &mut Game, who: &str) {
    for (l, _) in regions(g, who) {
        edit(g, &format!("store {l} 3"));
    }
}

/// Special Rules 3 and General Rules, Preparation 1-3: two theme stacks of 12, the 2
/// Universities face up, the set's events (Plague 3, Invention 2) with the Basic Set's.
#[test]
fn special_rules_3_stacks_face_up_universities_and_events() {
    let g = theme_new(V, "red");
    for (z, len) in [("stack1", 12), ("stack2", 12), ("stack3", 12), ("stack4", 12), ("stack5", 12)] {
        assert_eq!(zone_cards(&g, z).len(), len, "{z}");
    }
    assert_eq!(zone_cards(&g, "faceup"), vec!["university", "university"]);
    let ev = zone_cards(&g, "events");
    assert_eq!(ev.len(), 14);
    assert_eq!(ev[3], "yule");
    for (k, c) in [("plague", 3), ("invention", 3)] {
        assert_eq!(ev.iter().filter(|e| *e == k).count(), c, "{k}");
    }
}

/// Card index, Benjamin the Traveling Scholar: the regions with this turn's production
/// number produce again, those of a settlement built since the roll too; boosters do not.
#[test]
fn benjamin_repeats_the_production() {
    let mut g = red_action(); // a 5: red's mountains O4
    edit(&mut g, "store O4 1");
    edit(&mut g, "place N4 iron_foundry");
    give(&mut g, "red", "benjamin");
    act(&mut g, "red", "play benjamin");
    assert_eq!(store(&g, "O4"), 2, "1 ore, the Iron Foundry does not count");
}

/// Card index, Doctor: only with a Bath House; the 4 regions around its city receive 1 each.
#[test]
fn doctor_heals_the_regions_of_a_bath_house() {
    let mut g = red_action();
    give(&mut g, "red", "doctor");
    assert!(refuse(&mut g, "red", "play doctor L1").contains("Bath House"));
    edit(&mut g, "place L1 bath_house");
    set_stores(&mut g, &[("K2", 0), ("M2", 0), ("K4", 0), ("M4", 3), ("O2", 0)]);
    act(&mut g, "red", "play doctor L1");
    assert_eq!([store(&g, "K2"), store(&g, "M2"), store(&g, "K4"), store(&g, "M4")], [1, 1, 1, 3]);
    assert_eq!(store(&g, "O2"), 0, "not a region of that city");
}

/// Card index, Guido the Ambassador: with a Town Hall or fewer points; a card of your choice
/// from the discard pile, which you may play at once.
#[test]
fn guido_takes_a_card_from_the_discard_pile() {
    let mut g = red_action();
    give(&mut g, "red", "scout");
    edit(&mut g, "drop red scout");
    give(&mut g, "red", "relocation");
    edit(&mut g, "drop red relocation");
    give(&mut g, "red", "guido");
    assert!(refuse(&mut g, "red", "play guido").contains("fewer points"));
    edit(&mut g, "place L8 city");
    edit(&mut g, "place N8 city");
    act(&mut g, "red", "play guido");
    let l = listed(&g, "red");
    assert!(l.contains(&"retrieve relocation".to_string()) && l.contains(&"retrieve scout".to_string()), "{l:?}");
    assert!(l.iter().all(|a| a.starts_with("retrieve ")), "only the choice: {l:?}");
    act(&mut g, "red", "retrieve scout");
    assert_eq!(hand(&g, "red").get("scout"), Some(&1));
    let d = zone_cards(&g, "discard");
    assert_eq!(d.last().map(String::as_str), Some("guido"), "onto the pile after the choice");
    assert!(!d.contains(&"scout".to_string()));
    assert_eq!(g.state().phase, "action");
}

/// Card index, Gustav the Librarian: with a Library (or fewer points), as Guido.
#[test]
fn gustav_takes_a_card_with_a_library() {
    let mut g = red_action();
    give(&mut g, "red", "goldsmith");
    edit(&mut g, "drop red goldsmith");
    give(&mut g, "red", "gustav");
    assert!(refuse(&mut g, "red", "play gustav").contains("Library"));
    edit(&mut g, "place L1 library");
    act(&mut g, "red", "play gustav");
    act(&mut g, "red", "retrieve goldsmith");
    assert_eq!(hand(&g, "red").get("goldsmith"), Some(&1));
}

/// Card index, Mineral Mining: only with a University; 2 ore, what does not fit is lost.
#[test]
fn mineral_mining_gives_two_ore() {
    let mut g = red_action();
    give(&mut g, "red", "mineral_mining");
    assert!(refuse(&mut g, "red", "play mineral_mining").contains("University"));
    edit(&mut g, "place L1 university");
    edit(&mut g, "store O4 2");
    act(&mut g, "red", "play mineral_mining");
    assert_eq!(store(&g, "O4"), 3, "1 ore lost: no room");
}

/// Card index, Mineral Mining: "You may distribute the received ore among any mountains
/// regions of your choice": with two mountains that have room, the owner names each (`store`).
#[test]
fn mineral_mining_owner_distributes_the_ore() {
    let mut g = red_action();
    give(&mut g, "red", "mineral_mining");
    edit(&mut g, "place L1 university");
    edit(&mut g, "place Q4 mountains_2");
    set_stores(&mut g, &[("O4", 0), ("Q4", 1)]);
    act(&mut g, "red", "play mineral_mining");
    assert_eq!(legal_texts(&g, "red"), vec!["store O4", "store Q4"]);
    act(&mut g, "red", "store Q4");
    act(&mut g, "red", "store Q4");
    assert_eq!((store(&g, "O4"), store(&g, "Q4")), (0, 3));
    assert_eq!(g.state().phase, "action");
    // Room for less than 2 in all: no choice, the excess is lost.
    give(&mut g, "red", "mineral_mining");
    edit(&mut g, "store O4 3");
    act(&mut g, "red", "play mineral_mining");
    assert_eq!(g.state().phase, "action");
}

/// Card index, Three-Field System: only with a University; 2 grain.
#[test]
fn three_field_system_gives_two_grain() {
    let mut g = red_action();
    give(&mut g, "red", "three_field_system");
    assert!(refuse(&mut g, "red", "play three_field_system").contains("University"));
    edit(&mut g, "place L1 university");
    edit(&mut g, "store O2 0");
    act(&mut g, "red", "play three_field_system");
    assert_eq!(store(&g, "O2"), 2);
}

/// Card index, Chief Cannoneer: only with a University; a unit with 4 strength, not a hero:
/// both may stand in one principality, the Drill Ground does not apply.
#[test]
fn chief_cannoneer_is_a_unit_not_a_hero() {
    let mut g = red_action();
    fill(&mut g, "red");
    give(&mut g, "red", "chief_cannoneer");
    assert!(refuse(&mut g, "red", "build chief_cannoneer N2").contains("University"));
    edit(&mut g, "place L1 university");
    act(&mut g, "red", "build chief_cannoneer N2");
    give(&mut g, "red", "chief_cannoneer");
    act(&mut g, "red", "build chief_cannoneer N4");
    assert_eq!(var_seat(&g, "hero").as_deref(), Some("red"), "8 strength");
}

/// Card index, Bath House and Event Plague: regions next to a city lose 1 (once next to 2
/// cities); a Bath House protects its city's 4 regions; region expansions are spared.
#[test]
fn plague_strikes_regions_of_cities_except_by_a_bath_house() {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L3 city");
    edit(&mut g, "place N3 city");
    fill(&mut g, "red");
    edit(&mut g, "place L8 city");
    edit(&mut g, "place L6 bath_house");
    for (l, _) in regions(&g, "blue") {
        edit(&mut g, &format!("store {l} 2"));
    }
    edit(&mut g, "event plague");
    roll(&mut g, 3, "event"); // a 3: red's hills K4 +0 (full), blue nothing
    for (l, n) in [("K2", 2), ("M2", 2), ("O2", 2), ("K4", 2), ("M4", 2), ("O4", 2)] {
        assert_eq!(store(&g, l), n, "{l}: next to a city, once");
    }
    for l in ["K7", "M7", "K9", "M9", "O7", "O9"] {
        let rolled = if l == "K7" { 1 } else { 0 }; // blue's forest 3
        assert_eq!(store(&g, l), 2 + rolled, "{l}: blue's Bath House city, or no city");
    }
}

/// Card index, Pharmacy: on a Plague, 1 resource of choice per Pharmacy, even with nothing lost.
#[test]
fn pharmacy_compensates_the_plague() {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L3 city");
    edit(&mut g, "place L1 pharmacy");
    edit(&mut g, "place L5 bath_house");
    edit(&mut g, "store O2 0");
    edit(&mut g, "event plague");
    roll(&mut g, 3, "event");
    assert_eq!(to_act(&g), "red");
    act(&mut g, "red", "choose grain");
    assert_eq!(store(&g, "O2"), 1);
    assert_eq!(g.state().phase, "action");
}

/// Card index, Pharmacy: "1 resource in any one region of your choice": a `store` choice
/// when more than one region of the kind chosen has room.
#[test]
fn pharmacy_owner_chooses_the_region() {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L3 city");
    edit(&mut g, "place L1 pharmacy");
    edit(&mut g, "place L5 bath_house");
    edit(&mut g, "place I2 fields_1");
    set_stores(&mut g, &[("O2", 0), ("I2", 0)]);
    edit(&mut g, "event plague");
    roll(&mut g, 3, "event");
    act(&mut g, "red", "choose grain");
    assert_eq!(legal_texts(&g, "red"), vec!["store I2", "store O2"]);
    act(&mut g, "red", "store I2");
    assert_eq!((store(&g, "I2"), store(&g, "O2")), (1, 0));
    assert_eq!(g.state().phase, "action");
}

/// Card index, Building Crane: only with a University; a city expansion of more than 4
/// resources costs 1 of your choice less; one of 4 does not.
#[test]
fn building_crane_saves_on_dear_city_expansions() {
    let mut g = red_action();
    give(&mut g, "red", "building_crane");
    assert!(refuse(&mut g, "red", "build building_crane L1").contains("University"));
    edit(&mut g, "place L5 university");
    act(&mut g, "red", "build building_crane L1");
    give(&mut g, "red", "bath_house"); // 4 resources
    assert!(refuse(&mut g, "red", "build bath_house L2 saving brick").contains("nothing lets you"));
    edit(&mut g, "place N3 city");
    edit(&mut g, "place N1 abbey"); // progress: University 1 + Abbey 1
    give(&mut g, "red", "parliament"); // 7 resources
    set_stores(&mut g, &[("K4", 2), ("M4", 2), ("K2", 2)]);
    act(&mut g, "red", "build parliament L2 saving lumber");
    assert_eq!([store(&g, "K4"), store(&g, "M4"), store(&g, "K2")], [0, 0, 0]);
}

/// Card index, Library: when built, look through a draw stack and take a card of it.
#[test]
fn library_takes_a_card_from_a_stack() {
    let mut g = red_action();
    fill(&mut g, "red");
    give(&mut g, "red", "library");
    act(&mut g, "red", "build library L1");
    assert_eq!(g.state().phase, "choose");
    act(&mut g, "red", "library 4");
    let n = zone_cards(&g, "stack4").len();
    let want = zone_cards(&g, "stack4")[0].clone();
    act(&mut g, "red", &format!("library take {want}"));
    assert_eq!(hand(&g, "red").get(&want), Some(&1));
    assert_eq!(zone_cards(&g, "stack4").len(), n - 1);
    assert_eq!(g.state().phase, "action");
}

/// Card index, Parliament: needs 2 progress points; 2 victory points.
#[test]
fn parliament_needs_two_progress_points() {
    let mut g = red_action();
    fill(&mut g, "red");
    give(&mut g, "red", "parliament");
    edit(&mut g, "place N2 abbey");
    assert!(refuse(&mut g, "red", "build parliament L1").contains("2 progress points"));
    edit(&mut g, "place L5 university");
    let before = points(&g, "red");
    act(&mut g, "red", "build parliament L1");
    assert_eq!(points(&g, "red"), before + 2);
}

/// Card index, Town Hall: on the Parish Hall of a city, which stays beneath it (and
/// remains when it is removed); no second Parish Hall; searching is free.
#[test]
fn town_hall_stands_on_the_parish_hall() {
    let mut g = red_action();
    fill(&mut g, "red");
    give(&mut g, "red", "town_hall");
    assert!(refuse(&mut g, "red", "build town_hall L1").contains("Parish Hall"));
    edit(&mut g, "place L2 parish_hall");
    assert!(listed(&g, "red").contains(&"build town_hall L2".to_string()));
    act(&mut g, "red", "build town_hall L2");
    assert_eq!(pile(&g, "L2"), vec!["parish_hall", "town_hall"]);
    give(&mut g, "red", "parish_hall");
    assert!(refuse(&mut g, "red", "build parish_hall L1").contains("beneath your Town Hall"));
    edit(&mut g, "drop red parish_hall");
    act(&mut g, "red", "remove L2");
    assert_eq!(top(&g, "L2").as_deref(), Some("parish_hall"));
    // Free search in the exchange.
    let mut g = red_action();
    edit(&mut g, "place L2 parish_hall");
    edit(&mut g, "place L2 town_hall");
    give(&mut g, "red", "scout");
    give(&mut g, "red", "brigitta");
    give(&mut g, "red", "goldsmith");
    act(&mut g, "red", "end");
    act(&mut g, "red", "exchange scout under 1");
    let before = stock_total(&g, "red");
    act(&mut g, "red", "search 2");
    let want = zone_cards(&g, "stack2")[0].clone();
    act(&mut g, "red", &format!("take {want}"));
    assert_eq!(stock_total(&g, "red"), before, "free");
}

/// Card index, University: face up, 1 per principality, needs an Abbey or a Library; 1
/// point and 1 progress point (a card more in hand).
#[test]
fn university_needs_an_abbey_or_a_library() {
    let mut g = red_action();
    fill(&mut g, "red");
    assert!(refuse(&mut g, "red", "build university L1").contains("Abbey or a Library"));
    edit(&mut g, "place N2 abbey");
    let before = points(&g, "red");
    act(&mut g, "red", "build university L1");
    assert_eq!(points(&g, "red"), before + 1);
    assert_eq!(zone_cards(&g, "faceup"), vec!["university"]);
    fill(&mut g, "red");
    assert!(refuse(&mut g, "red", "build university L2").contains("only one"));
}

/// Event Invention (the set's 2 copies): 1 resource per progress building, at most 2.
#[test]
fn invention_counts_the_university() {
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L3 city");
    edit(&mut g, "place L1 university");
    edit(&mut g, "place N2 abbey");
    edit(&mut g, "place L2 library");
    edit(&mut g, "event invention");
    roll(&mut g, 3, "event");
    act(&mut g, "red", "choose ore");
    act(&mut g, "red", "choose ore");
    assert_eq!(g.state().phase, "action", "at most 2");
}
