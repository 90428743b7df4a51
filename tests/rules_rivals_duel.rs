//! The rules of The Duel of the Princes (../shared/rules/004, "THE DUEL OF THE PRINCES"):
//! the draw stacks without the half-moon cards, the event deck, 13 points; and cards of the
//! three sets meeting in one game. Each test's doc comment names its rule.

use crate::rivals;
use crate::rivals_theme;

use catan_engine::Game;
use rivals::*;
use rivals_theme::*;

const V: &str = "rivals_duel";

fn count(list: &[String], kind: &str) -> usize {
    list.iter().filter(|k| *k == kind).count()
}

/// The Draw Stacks: 3 Basic Set stacks of 12, one theme stack per set of its cards without
/// the half moon (Gold 12, Turmoil 12, Progress 14, the face-up cards shuffled in), no
/// face-up stack; the half-moon cards are out of play.
#[test]
fn duel_draw_stacks_leave_out_the_half_moon_cards() {
    let g = theme_new(V, "red");
    for (z, len) in [("stack1", 12), ("stack2", 12), ("stack3", 12), ("stack4", 12), ("stack5", 12), ("stack6", 14)] {
        assert_eq!(zone_cards(&g, z).len(), len, "{z}");
    }
    assert!(zone_cards(&g, "faceup").is_empty());
    let (gold, turmoil, progress) = (zone_cards(&g, "stack4"), zone_cards(&g, "stack5"), zone_cards(&g, "stack6"));
    assert_eq!(count(&gold, "merchant_guild"), 1);
    assert_eq!(count(&gold, "brigands"), 0, "the Era of Gold's Brigands has the half moon");
    assert_eq!(count(&turmoil, "hedge_tavern"), 1);
    assert_eq!(count(&turmoil, "brigands"), 1);
    assert_eq!(count(&turmoil, "fire_brigade"), 1);
    assert_eq!(count(&progress, "university"), 1);
    assert_eq!(count(&progress, "bath_house"), 2);
    assert_eq!(count(&progress, "benjamin"), 1);
    let out = zone_cards(&g, "out_of_play");
    assert_eq!(out.len(), 36 + 9, "12 half-moon cards per set and 9 events");
}

/// The Event Card Stack: the 6 events without the half moon and 6 of the 15 with it, Yule
/// over 3 cards.
#[test]
fn duel_event_deck_has_six_fixed_and_six_random_events() {
    let mut seen_random = std::collections::BTreeSet::new();
    for seed in 0..6 {
        let g = Game::new(theme_header(V, seed, &[], false)).unwrap();
        let ev = zone_cards(&g, "events");
        assert_eq!(ev.len(), 12);
        assert_eq!(ev[3], "yule");
        for k in ["yule", "invention", "year_of_plenty", "riots", "traveling_merchant", "plague"] {
            assert!(count(&ev, k) >= 1, "{k} in {ev:?}");
        }
        let mut rest = ev.clone();
        for k in ["yule", "invention", "year_of_plenty", "riots", "traveling_merchant", "plague"] {
            let i = rest.iter().position(|e| e == k).unwrap();
            rest.remove(i);
        }
        seen_random.insert(rest);
    }
    assert!(seen_random.len() > 1, "the 6 half-moon events are drawn at random");
}

/// Goal of the Game: 13 points during your own turn; 12 are not enough.
#[test]
fn duel_is_won_with_13_points() {
    let mut g = red_action(V);
    for (l, k) in [("N3", "city"), ("L1", "mint"), ("L2", "large_festival_hall"), ("L4", "salt_silo")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    for (l, k) in [("L5", "moneylender"), ("N1", "parliament"), ("N2", "chapel_123")] {
        edit(&mut g, &format!("place {l} {k}"));
    }
    assert_eq!(points(&g, "red"), 4 + 1 + 2 + 1 + 1 + 2 + 1);
    assert_eq!(g.winner(), None, "12 points do not win the Duel");
    edit(&mut g, "place N4 chapel_456");
    assert_eq!(g.winner(), Some(seat(&g, "red")));
}

/// Placing Cards Under the Right Stack in the Duel: each theme set has its own back (stack
/// 4 Gold, 5 Turmoil, 6 Progress); a kind in two sets may go under either.
#[test]
fn duel_cards_go_under_their_sets_stack() {
    let mut g = red_action(V);
    for k in ["archer", "mint", "university"] {
        give(&mut g, "red", k);
    }
    act(&mut g, "red", "end");
    let l = listed(&g, "red");
    for want in ["exchange archer under 5", "exchange mint under 4", "exchange university under 6"] {
        assert!(l.contains(&want.to_string()), "{want}: {l:?}");
    }
    for not in ["exchange archer under 4", "exchange mint under 6", "exchange university under 1"] {
        assert!(!l.contains(&not.to_string()), "{not}");
    }
}

/// The sets together: the Archer hits the Chief Cannoneer (a unit with strength), Riots
/// count it, the Gold Cache is spared by the Plague.
#[test]
fn duel_cards_of_the_sets_meet() {
    let mut g = red_action(V);
    edit(&mut g, "place L1 hedge_tavern");
    edit(&mut g, "place L7 chief_cannoneer");
    give(&mut g, "red", "archer");
    act(&mut g, "red", "play archer");
    act(&mut g, "blue", "remove L7 under 6");
    assert_eq!(zone_cards(&g, "stack6")[0], "chief_cannoneer");
    // The Plague spares the Gold Cache above red's gold field.
    let mut g = theme_game(V, "red");
    edit(&mut g, "place L3 city");
    edit(&mut g, "place M1 gold_cache");
    edit(&mut g, "store M1 2");
    edit(&mut g, "event plague");
    roll(&mut g, 3, "event");
    assert_eq!(store(&g, "M1"), 2);
}
