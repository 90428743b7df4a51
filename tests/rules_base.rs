//! One test per rule of `base` (CATAN 25th Anniversary Game Rules and Almanac,
//! ../shared/rules/003). Each test's doc comment names the rule it checks.
//!
//! Most tests start from `common::standard()`: the beginner board, the set-up phase played
//! with `common::PLACEMENTS` (so every piece on the board is known), red to roll on turn 1.
//! Positions are then built with sandbox edits; every refused action goes through
//! `common::reject`, which also checks that the state is exactly unchanged and that the
//! refusal names a line of base (variants/base.lua and its parts, variants/base/).

use crate::common;

use catan_engine::engine::Observer;
use catan_engine::value::Value;
use catan_engine::view::view;
use common::*;

fn hands(g: &catan_engine::Game) -> Vec<[usize; 5]> {
    (0..g.state().players.len()).map(|s| hand_vec(g, s)).collect()
}

/// Index of a resource in `RESOURCES`.
fn ri(r: &str) -> usize {
    RESOURCES.iter().position(|x| *x == r).unwrap()
}

// Resource production -------------------------------------------------------------------

/// Almanac: Cities, Illustration E — on an 8, Claudia's settlement and city on the 8
/// mountains give 3 ore; Benny's city on the 8 forest gives 2 lumber.
#[test]
fn production_settlement_one_city_two() {
    let mut g = standard();
    let mountains8 = hex_with(&g, "mountains", Some(8));
    let forest8 = hex_with(&g, "forest", Some(8));
    let m = corners(&g, &mountains8);
    let f = corners(&g, &forest8);
    sb(&mut g, &format!("place settlement {} blue", m[0]));
    sb(&mut g, &format!("place city {} blue", m[2]));
    sb(&mut g, &format!("place city {} red", f[3]));
    let (before, bank_before) = (hands(&g), bank_vec(&g));
    roll(&mut g, 4, 4);
    let after = hands(&g);
    let (red, blue) = (seat(&g, "red"), seat(&g, "blue"));
    for s in 0..4 {
        let mut want = before[s];
        if s == blue {
            want[ri("ore")] += 3;
        }
        if s == red {
            want[ri("lumber")] += 2;
        }
        assert_eq!(after[s], want, "{}", color(&g, s));
    }
    let mut bank_want = bank_before;
    bank_want[ri("ore")] -= 3;
    bank_want[ri("lumber")] -= 2;
    assert_eq!(bank_vec(&g), bank_want);
}

/// Almanac: Resource Production, Illustration J — one card per settlement for each
/// adjacent hex with the number rolled, from every such hex.
#[test]
fn production_from_every_hex_with_the_number() {
    let mut g = standard();
    // Red's second settlement (41) touches the 3 mountains, the 4 fields and the 6 fields;
    // white's 42 and 31 touch the 4 fields too; blue's 49 touches the 6 fields.
    let before = hands(&g);
    roll(&mut g, 2, 2); // 4: fields H15 (red 41, white 31 and 42) and pasture H6 (nobody)
    let after = hands(&g);
    assert_eq!(after[seat(&g, "red")][ri("grain")], before[seat(&g, "red")][ri("grain")] + 1);
    assert_eq!(after[seat(&g, "white")][ri("grain")], before[seat(&g, "white")][ri("grain")] + 2);
    assert_eq!(after[seat(&g, "blue")], before[seat(&g, "blue")]);
    assert_eq!(after[seat(&g, "orange")], before[seat(&g, "orange")]);
}

/// Game Rules 4a / Almanac: Robber — the hex with the robber produces nothing for anyone,
/// while other hexes with the same number still produce.
#[test]
fn robber_blocks_production() {
    let mut g = standard();
    let mountains8 = hex_with(&g, "mountains", Some(8));
    let forest8 = hex_with(&g, "forest", Some(8));
    let m = corners(&g, &mountains8);
    let f = corners(&g, &forest8);
    sb(&mut g, &format!("place settlement {} blue", m[0]));
    sb(&mut g, &format!("place settlement {} white", f[3]));
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", &format!("robber {mountains8}"));
    // Only blue has a building there: the steal happens at once.
    assert_eq!(g.state().phase, "main");
    pass_turn(&mut g);
    let before = hands(&g);
    roll(&mut g, 4, 4);
    let after = hands(&g);
    let (blue, white) = (seat(&g, "blue"), seat(&g, "white"));
    assert_eq!(after[blue], before[blue], "the robbed mountains gave blue nothing");
    assert_eq!(after[white][ri("lumber")], before[white][ri("lumber")] + 1);
}

/// Almanac: Resource Production — if the bank cannot pay everyone, nobody receives that
/// resource; other resources are paid as usual.
#[test]
fn bank_shortage_two_players_nobody_receives() {
    let mut g = standard();
    let forest8 = corners(&g, &hex_with(&g, "forest", Some(8)));
    let mountains8 = corners(&g, &hex_with(&g, "mountains", Some(8)));
    sb(&mut g, &format!("place settlement {} blue", forest8[3]));
    sb(&mut g, &format!("place settlement {} white", forest8[0]));
    sb(&mut g, &format!("place settlement {} orange", mountains8[0]));
    let left = bank(&g, "lumber") - 1;
    sb(&mut g, &format!("give red {left} lumber"));
    assert_eq!(bank(&g, "lumber"), 1);
    let before = hands(&g);
    roll(&mut g, 4, 4);
    let after = hands(&g);
    assert_eq!(after[seat(&g, "blue")], before[seat(&g, "blue")]);
    assert_eq!(after[seat(&g, "white")], before[seat(&g, "white")]);
    assert_eq!(bank(&g, "lumber"), 1, "the last lumber stays in the bank");
    let o = seat(&g, "orange");
    assert_eq!(after[o][ri("ore")], before[o][ri("ore")] + 1, "ore is not short");
}

/// Almanac: Resource Production, Exception — a shortage that affects one player only gives
/// that player what is left in the bank.
#[test]
fn bank_shortage_one_player_takes_what_is_left() {
    let mut g = standard();
    let forest8 = corners(&g, &hex_with(&g, "forest", Some(8)));
    sb(&mut g, &format!("place city {} blue", forest8[3]));
    let left = bank(&g, "lumber") - 1;
    sb(&mut g, &format!("give red {left} lumber"));
    let before = hand(&g, seat(&g, "blue"), "lumber");
    roll(&mut g, 4, 4);
    assert_eq!(hand(&g, seat(&g, "blue"), "lumber"), before + 1);
    assert_eq!(bank(&g, "lumber"), 0);
}

/// Option shortage_exception=false: a shortage gives nothing even to a single player.
#[test]
fn bank_shortage_exception_can_be_turned_off() {
    let mut g = custom(4, "red", &[("shortage_exception", "false")]);
    let forest8 = corners(&g, &hex_with(&g, "forest", Some(8)));
    sb(&mut g, &format!("place city {} blue", forest8[3]));
    let left = bank(&g, "lumber") - 1;
    sb(&mut g, &format!("give red {left} lumber"));
    let before = hand(&g, seat(&g, "blue"), "lumber");
    roll(&mut g, 4, 4);
    assert_eq!(hand(&g, seat(&g, "blue"), "lumber"), before);
    assert_eq!(bank(&g, "lumber"), 1);
}

// The 7 and the robber -------------------------------------------------------------------

/// Almanac: Rolling a "7" (1) — nobody produces; more than 7 cards: discard half, rounded
/// down (9 -> 4, Larry 8 -> 4, Will 11 -> 5); 7 cards discard nothing; the count must be
/// exact and the cards held.
#[test]
fn seven_discard_half_rounded_down() {
    let mut g = standard();
    // Hands after set-up: red 3, blue 2, white 3, orange 1.
    sb(&mut g, "give red 6 wool");
    sb(&mut g, "give blue 6 lumber");
    sb(&mut g, "give white 8 ore");
    sb(&mut g, "give orange 6 brick");
    let sizes: Vec<usize> = (0..4).map(|s| hand_size(&g, s)).collect();
    assert_eq!(sizes, vec![9, 8, 11, 7]);
    let before = hands(&g);
    roll(&mut g, 3, 4);
    assert_eq!(hands(&g), before, "a 7 produces nothing");
    assert_eq!(g.state().phase, "discard");
    assert_eq!(g.to_act().unwrap(), seat(&g, "red"));
    reject(&mut g, "red", "discard 3 wool");
    reject(&mut g, "red", "discard 5 wool");
    reject(&mut g, "red", "discard 4 brick"); // red holds no brick
    reject(&mut g, "orange", "discard brick"); // 7 cards: nothing to discard
    reject(&mut g, "red", "robber H1"); // discards come first
    assert!(legal_of(&g, "orange").is_empty());
    assert!(legal_of(&g, "red").contains(&"discard 4 wool".to_string()));
    act_as(&mut g, "red", "discard 4 wool");
    assert_eq!(hand_size(&g, seat(&g, "red")), 5);
    // Everyone discards at once: white may go before blue.
    act_as(&mut g, "white", "discard 5 ore");
    assert_eq!(g.to_act().unwrap(), seat(&g, "blue"));
    assert_eq!(g.state().phase, "discard");
    act_as(&mut g, "blue", "discard 4 lumber");
    let sizes: Vec<usize> = (0..4).map(|s| hand_size(&g, s)).collect();
    assert_eq!(sizes, vec![5, 4, 6, 7]);
    assert_eq!(g.state().phase, "robber");
    assert_eq!(g.to_act().unwrap(), seat(&g, "red"));
}

/// Option discard_limit: the hand size above which a 7 makes you discard.
#[test]
fn discard_limit_option() {
    let mut g = custom(4, "red", &[("discard_limit", "9")]);
    sb(&mut g, "give red 6 wool"); // 9 cards: not more than 9
    sb(&mut g, "give white 7 ore"); // 10 cards: discard 5
    roll(&mut g, 3, 4);
    assert_eq!(g.state().phase, "discard");
    assert!(legal_of(&g, "red").is_empty());
    act_as(&mut g, "white", "discard 5 ore");
    assert_eq!(g.state().phase, "robber");
}

/// Almanac: Robber / Rolling a "7" (2) — the robber must move to another hex.
#[test]
fn robber_must_move() {
    let mut g = standard();
    assert_eq!(robber(&g), "H10");
    roll(&mut g, 3, 4);
    assert_eq!(g.state().phase, "robber");
    let why = reject(&mut g, "red", "robber H10");
    assert!(why.contains("another hex"), "{why}");
    assert!(!legal_of(&g, "red").contains(&"robber H10".to_string()));
    assert_eq!(legal_of(&g, "red").len(), 18);
    act_as(&mut g, "red", "robber H1");
    assert_eq!(robber(&g), "H1");
    assert_eq!(g.state().phase, "main");
}

/// Game Rules 4a (1) / Almanac: Desert — the robber may be moved to the desert.
#[test]
fn robber_may_return_to_the_desert() {
    let mut g = standard();
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", "robber H1");
    pass_turn(&mut g);
    roll(&mut g, 3, 4);
    act_as(&mut g, "blue", "robber H10");
    assert_eq!(robber(&g), "H10");
}

/// Option robber_desert=false (the older rule): the desert is closed to the robber.
#[test]
fn robber_desert_option_off() {
    let mut g = custom(4, "red", &[("robber_desert", "false")]);
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", "robber H1");
    pass_turn(&mut g);
    roll(&mut g, 3, 4);
    reject(&mut g, "blue", "robber H10");
    assert_eq!(legal_of(&g, "blue").len(), 17);
}

/// Game Rules 4a (2) / Almanac: Robber — steal one random card from a player with a
/// building on the robber's hex; with 2 or more, the mover chooses; never from yourself or
/// a player without a building there.
#[test]
fn steal_only_from_a_player_next_to_the_robber() {
    let mut g = standard();
    // H9 (forest 11): blue's 24 is on it; add an orange settlement at 29; red builds one too.
    sb(&mut g, "place settlement 29 orange");
    sb(&mut g, "place settlement 18 red");
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", "robber H9");
    assert_eq!(g.state().phase, "steal");
    let mut options = legal_of(&g, "red");
    options.sort();
    assert_eq!(options, vec!["steal blue", "steal orange"]);
    reject(&mut g, "red", "steal white");
    reject(&mut g, "red", "steal red");
    let (red, blue) = (seat(&g, "red"), seat(&g, "blue"));
    let (r0, b0) = (hand_size(&g, red), hand_size(&g, blue));
    act_as(&mut g, "red", "steal blue");
    assert_eq!(hand_size(&g, red), r0 + 1);
    assert_eq!(hand_size(&g, blue), b0 - 1);
    assert_eq!(g.state().phase, "main");
}

/// Almanac: Knight Cards — a victim with no cards gives nothing.
#[test]
fn steal_from_an_empty_hand_gives_nothing() {
    let mut g = standard();
    // Orange's hand is one lumber: red robs it, then robs orange's empty hand next round.
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", "robber H3"); // orange (7) and red (15) are there: orange robbed
    assert_eq!(hand_size(&g, seat(&g, "orange")), 0);
    let r = hand_size(&g, seat(&g, "red"));
    pass_turn(&mut g);
    pass_turn(&mut g);
    pass_turn(&mut g);
    pass_turn(&mut g);
    roll(&mut g, 3, 4);
    act_as(&mut g, "red", "robber H8"); // orange's 22 only
    assert_eq!(hand_size(&g, seat(&g, "red")), r);
    assert_eq!(g.state().phase, "main");
}

// Building ------------------------------------------------------------------------------

/// Game Rules 3b / Almanac: Distance Rule — no settlement next to any settlement or city,
/// your own included.
#[test]
fn distance_rule() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    sb(&mut g, "give red brick lumber wool grain");
    let why = reject(&mut g, "red", "settlement 10"); // next to red's own 15
    assert!(why.contains("Distance"), "{why}");
    sb(&mut g, "place road 10-14 red");
    sb(&mut g, "place road 14-19 red");
    reject(&mut g, "red", "settlement 19"); // next to blue's 24
    sb(&mut g, "place city 24 blue"); // a city blocks as a settlement does
    reject(&mut g, "red", "settlement 19");
    act_as(&mut g, "red", "settlement 14");
}

/// Almanac: Set-up Phase — the Distance Rule applies to the set-up placements too.
#[test]
fn distance_rule_in_setup() {
    let mut g = setup_phase(4, "red", &[]);
    act_as(&mut g, "red", "settlement 15");
    act_as(&mut g, "red", "road 15-10");
    assert_eq!(color(&g, g.to_act().unwrap()), "blue");
    reject(&mut g, "blue", "settlement 15"); // taken
    reject(&mut g, "blue", "settlement 10"); // next to 15
    reject(&mut g, "blue", "settlement 20"); // next to 15
    assert!(!legal_of(&g, "blue").contains(&"settlement 11".to_string()));
    act_as(&mut g, "blue", "settlement 24");
}

/// Game Rules 3b / Almanac: Settlements (1) — after the set-up, a settlement must connect
/// to one of your own roads (another player's road does not count).
#[test]
fn settlement_must_connect_to_own_road() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    sb(&mut g, "give red brick lumber wool grain");
    let why = reject(&mut g, "red", "settlement 6");
    assert!(why.contains("road"), "{why}");
    sb(&mut g, "place road 2-6 blue");
    reject(&mut g, "red", "settlement 6");
    build(&mut g, "red", "road 10-6");
    act_as(&mut g, "red", "settlement 6");
    assert_eq!(piece_at(&g, "6"), Some(("settlement".into(), "red".into())));
}

/// Building Costs: a settlement costs brick, lumber, wool and grain; a road brick and
/// lumber; a city 3 ore and 2 grain; a development card ore, wool and grain.
#[test]
fn building_costs() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    let red = seat(&g, "red");
    // Red holds ore + 2 grain after set-up.
    reject(&mut g, "red", "road 10-6");
    reject(&mut g, "red", "buy");
    reject(&mut g, "red", "city 15");
    sb(&mut g, "give red brick lumber");
    let bank0 = bank_vec(&g);
    act_as(&mut g, "red", "road 10-6");
    assert_eq!(hand_vec(&g, red), [0, 0, 0, 2, 1]);
    let mut b = bank0;
    b[ri("brick")] += 1;
    b[ri("lumber")] += 1;
    assert_eq!(bank_vec(&g), b, "payments go back to the bank");
    sb(&mut g, "give red brick lumber wool");
    act_as(&mut g, "red", "settlement 6");
    assert_eq!(hand_vec(&g, red), [0, 0, 0, 1, 1]);
    sb(&mut g, "give red 2 ore grain");
    act_as(&mut g, "red", "city 15");
    assert_eq!(hand_vec(&g, red), [0, 0, 0, 0, 0]);
    sb(&mut g, "give red wool grain");
    reject(&mut g, "red", "buy");
    sb(&mut g, "give red ore");
    act_as(&mut g, "red", "buy");
    assert_eq!(hand_vec(&g, red), [0, 0, 0, 0, 0]);
    assert_eq!(zone_total(&g, Some(red), "dev_new"), 1);
}

/// Game Rules 3a / Almanac: Roads, Illustration K — a new road connects to your road,
/// settlement or city; one road per path; not through another player's settlement.
#[test]
fn road_must_connect_and_not_pass_an_opponents_settlement() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    sb(&mut g, "give red 5 brick 5 lumber");
    let why = reject(&mut g, "red", "road 1-4");
    assert!(why.contains("connect"), "{why}");
    reject(&mut g, "red", "road 24-18"); // blue's road is there
    sb(&mut g, "place road 10-14 red");
    sb(&mut g, "place road 14-19 red");
    act_as(&mut g, "red", "road 19-24"); // up to blue's settlement: allowed
    reject(&mut g, "red", "road 24-30"); // past it: not allowed
    act_as(&mut g, "red", "road 19-25"); // meeting white's road on an empty corner is fine
    act_as(&mut g, "red", "road 25-20");
}

/// Almanac: Set-up Phase — round one clockwise from the starting player, round two
/// counter-clockwise, so the starting player places last and then begins the game.
#[test]
fn setup_order_clockwise_then_back() {
    for (players, first) in [(4, "red"), (4, "white"), (3, "orange"), (3, "blue")] {
        let mut g = setup_phase(players, first, &[]);
        let f = seat(&g, first);
        let mut order: Vec<usize> = (0..players).map(|i| (f + i) % players).collect();
        let back: Vec<usize> = order.iter().rev().copied().collect();
        order.extend(back);
        for (i, &s) in order.iter().enumerate() {
            assert_eq!(g.to_act().unwrap(), s, "placement {} of {players}-player, {first} first", i + 1);
            let other = (s + 1) % players;
            reject_seat(&mut g, other, "settlement 54");
            let c = color(&g, s);
            let (_, s1, r1, s2, r2) = PLACEMENTS.iter().find(|p| p.0 == c).unwrap();
            let (st, rd) = if i < players { (s1, r1) } else { (s2, r2) };
            act(&mut g, s, &format!("settlement {st}"));
            assert_eq!(g.to_act().unwrap(), s, "the same player places the road");
            act(&mut g, s, &format!("road {rd}"));
        }
        assert_eq!(g.state().phase, "roll");
        assert_eq!(g.state().current, f);
        assert_eq!(g.state().turn, 1);
    }
}

/// Almanac: Set-up Phase, Round Two — starting resources: one card per terrain hex next to
/// the second settlement, none for the first.
#[test]
fn setup_resources_from_second_settlement_only() {
    let mut g = setup_phase(4, "red", &[]);
    let mut seen = 0;
    while g.state().phase == "setup" {
        let s = g.to_act().unwrap();
        let c = color(&g, s);
        let (_, s1, r1, s2, r2) = *PLACEMENTS.iter().find(|p| p.0 == c).unwrap();
        let second = count_pieces(&g, s, "settlement") == 1;
        act(&mut g, s, &format!("settlement {}", if second { s2 } else { s1 }));
        seen += 1;
        if seen <= 4 {
            assert_eq!(hand_size(&g, s), 0, "{c}: nothing for the first settlement");
        } else {
            let want = match c.as_str() {
                "red" => [0, 0, 0, 2, 1],
                "blue" => [1, 0, 0, 1, 0],
                "white" => [0, 0, 2, 1, 0],
                _ => [0, 1, 0, 0, 0],
            };
            assert_eq!(hand_vec(&g, s), want, "{c}: the second settlement's hexes");
        }
        act(&mut g, s, &format!("road {}", if second { r2 } else { r1 }));
    }
    let total: usize = (0..4).map(|s| hand_size(&g, s)).sum();
    assert_eq!(total, 9);
}

/// Almanac: Set-up Phase — the set-up road attaches to the settlement just placed; the
/// second settlement need not connect to the first.
#[test]
fn setup_road_touches_the_new_settlement() {
    let mut g = setup_phase(4, "red", &[]);
    act_as(&mut g, "red", "settlement 15");
    reject(&mut g, "red", "settlement 41"); // the road comes first
    reject(&mut g, "red", "road 10-6"); // does not touch 15
    let mut roads = legal_of(&g, "red");
    roads.sort();
    assert_eq!(roads, vec!["road 10-15", "road 11-15", "road 15-20"]);
    act_as(&mut g, "red", "road 15-10");
    reject(&mut g, "blue", "road 24-18"); // blue has no settlement yet
}

/// Game Rules 3 / Almanac: Build, Settlements (Note) — 5 settlements at most; a city puts
/// its settlement back in the supply, ready to be built again.
#[test]
fn no_sixth_settlement_until_a_city_frees_one() {
    let mut g = standard();
    let red = seat(&g, "red");
    for n in ["1", "54", "27"] {
        sb(&mut g, &format!("place settlement {n} red"));
    }
    assert_eq!(supply(&g, red, "settlement"), 0);
    main_phase_of(&mut g, "red");
    sb(&mut g, "place road 10-6 red");
    sb(&mut g, "give red brick lumber wool grain");
    let why = reject(&mut g, "red", "settlement 6");
    assert!(why.contains("no settlement left"), "{why}");
    assert!(!legal_of(&g, "red").iter().any(|a| a.starts_with("settlement")));
    build(&mut g, "red", "city 15");
    assert_eq!(supply(&g, red, "settlement"), 1);
    assert_eq!(supply(&g, red, "city"), 3);
    act_as(&mut g, "red", "settlement 6");
    assert_eq!(count_pieces(&g, red, "settlement"), 5);
    assert_eq!(count_pieces(&g, red, "city"), 1);
}

/// Game Rules 3 / Almanac: Cities — only your own settlement can be upgraded; 4 cities at
/// most.
#[test]
fn cities_upgrade_own_settlements_four_at_most() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    sb(&mut g, "give red 6 ore 4 grain");
    reject(&mut g, "red", "city 24"); // blue's
    reject(&mut g, "red", "city 6"); // empty
    act_as(&mut g, "red", "city 15");
    reject(&mut g, "red", "city 15"); // already a city
    for n in ["41", "1", "54"] {
        sb(&mut g, &format!("place city {n} red"));
    }
    sb(&mut g, "place settlement 27 red");
    let why = reject(&mut g, "red", "city 27");
    assert!(why.contains("no city left"), "{why}");
}

/// Game Rules 3 — 15 roads at most: the 16th is refused and no longer listed.
#[test]
fn no_sixteenth_road() {
    let mut g = standard();
    let red = seat(&g, "red");
    let free: Vec<String> = {
        let st = g.state();
        let t = st.topology.as_ref().unwrap();
        t.paths
            .iter()
            .enumerate()
            .filter(|(i, p)| st.paths[*i].is_none() && !p.ends.iter().any(|&e| e == 9 || e == 5))
            .map(|(_, p)| p.label.clone())
            .take(13)
            .collect()
    };
    for p in &free {
        sb(&mut g, &format!("place road {p} red"));
    }
    assert_eq!(supply(&g, red, "road"), 0);
    main_phase_of(&mut g, "red");
    sb(&mut g, "give red brick lumber");
    let why = reject(&mut g, "red", "road 10-6");
    assert!(why.contains("no road left"), "{why}");
    assert!(!legal_of(&g, "red").iter().any(|a| a.starts_with("road")));
}

// Development cards -----------------------------------------------------------------------

/// Game Rules 4b / Almanac: Development Cards — a card bought this turn cannot be played
/// until a later turn.
#[test]
fn development_card_bought_this_turn_cannot_be_played() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "knight", 1);
    let red = seat(&g, "red");
    assert_eq!(dev_new(&g, red, "knight"), 1);
    assert_eq!(dev(&g, red, "knight"), 0);
    reject(&mut g, "red", "play knight");
    assert!(!legal_of(&g, "red").contains(&"play knight".to_string()));
    act_as(&mut g, "red", "end");
    assert_eq!(dev(&g, red, "knight"), 1, "bought cards are playable from the next turn");
    roll_phase_of(&mut g, "red");
    act_as(&mut g, "red", "play knight");
}

/// Almanac: Knight Cards, Note / Development Cards — a knight may be played before the
/// roll; only one development card per turn.
#[test]
fn knight_before_roll_and_one_card_per_turn() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "knight", 2);
    buy_until(&mut g, "red", "monopoly", 1);
    act_as(&mut g, "red", "end");
    roll_phase_of(&mut g, "red");
    act_as(&mut g, "red", "play knight");
    assert_eq!(g.state().phase, "robber");
    act_as(&mut g, "red", "robber H1");
    assert_eq!(g.state().phase, "roll", "back to rolling after the knight");
    let red = seat(&g, "red");
    assert_eq!(played(&g, red, "knight"), 1);
    reject(&mut g, "red", "play knight");
    roll(&mut g, 6, 6);
    reject(&mut g, "red", "play knight");
    reject(&mut g, "red", "play monopoly ore");
    act_as(&mut g, "red", "end");
    roll_phase_of(&mut g, "red");
    roll(&mut g, 6, 6);
    act_as(&mut g, "red", "play knight");
    act_as(&mut g, "red", "robber H4");
    assert_eq!(played(&g, red, "knight"), 2);
}

/// Development cards are played only in your own turn.
#[test]
fn development_cards_only_in_own_turn() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "knight", 1);
    act_as(&mut g, "red", "end");
    reject(&mut g, "red", "play knight");
    roll(&mut g, 6, 6);
    reject(&mut g, "red", "play knight");
}

/// Game Rules, Building (d) — no development card can be bought once the deck is empty.
#[test]
fn no_development_card_from_an_empty_deck() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    for _ in 0..25 {
        build(&mut g, "red", "buy");
    }
    assert_eq!(zone_total(&g, None, "deck"), 0);
    sb(&mut g, "give red ore wool grain");
    let why = reject(&mut g, "red", "buy");
    assert!(why.contains("empty"), "{why}");
}

/// Almanac: Progress Cards, Road Building — 2 roads for free, by the normal rules.
#[test]
fn progress_road_building() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "road_building", 1);
    act_as(&mut g, "red", "end");
    main_phase_of(&mut g, "red");
    let red = seat(&g, "red");
    let cards = hand_vec(&g, red);
    act_as(&mut g, "red", "play road_building");
    assert_eq!(g.state().phase, "road_building");
    reject(&mut g, "red", "road 1-4"); // still must connect
    act_as(&mut g, "red", "road 10-6");
    act_as(&mut g, "red", "road 6-2");
    assert_eq!(g.state().phase, "main");
    assert_eq!(hand_vec(&g, red), cards, "the roads were free");
    assert_eq!(count_pieces(&g, red, "road"), 4);
    assert_eq!(zone_count(&g, None, "box", "road_building"), 1, "progress cards leave the game");
}

/// Almanac: Progress Cards, Year of Plenty — any 2 resources from the bank.
#[test]
fn progress_year_of_plenty() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "year_of_plenty", 1);
    act_as(&mut g, "red", "end");
    main_phase_of(&mut g, "red");
    let red = seat(&g, "red");
    let before = hand_vec(&g, red);
    act_as(&mut g, "red", "play year_of_plenty brick brick");
    let mut want = before;
    want[ri("brick")] += 2;
    assert_eq!(hand_vec(&g, red), want);
}

/// Almanac: Progress Cards, Monopoly — every other player gives you all their cards of
/// the named resource.
#[test]
fn progress_monopoly() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "monopoly", 1);
    act_as(&mut g, "red", "end");
    main_phase_of(&mut g, "red");
    sb(&mut g, "give blue 3 grain");
    sb(&mut g, "give orange 2 grain");
    let total: usize = (0..4).map(|s| hand(&g, s, "grain")).sum();
    act_as(&mut g, "red", "play monopoly grain");
    assert_eq!(hand(&g, seat(&g, "red"), "grain"), total);
    for c in ["blue", "white", "orange"] {
        assert_eq!(hand(&g, seat(&g, c), "grain"), 0, "{c}");
    }
}

/// Almanac: Victory Point Cards — they count for their owner (hidden points) but do not
/// show in the points the other players see.
#[test]
fn victory_point_cards_are_hidden_points() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "victory_point", 1);
    let red = seat(&g, "red");
    let vps = (dev_new(&g, red, "victory_point") + dev(&g, red, "victory_point")) as i64;
    assert_eq!(points(&g, "red"), 2 + vps);
    assert_eq!(public_points(&g, "red"), 2);
    let seen_by =
        |g: &catan_engine::Game, obs: Observer| -> i64 { view(g, obs)["players"][red]["points"].as_i64().unwrap() };
    assert_eq!(seen_by(&g, Observer::Seat(red)), 2 + vps);
    assert_eq!(seen_by(&g, Observer::Seat(seat(&g, "blue"))), 2);
    assert_eq!(seen_by(&g, Observer::Spectator), 2);
    assert_eq!(seen_by(&g, Observer::Referee), 2 + vps);
    act_as(&mut g, "red", "end");
    assert_eq!(points(&g, "red"), 2 + vps, "still counted once no longer new");
}

/// Almanac: Development Cards, Exception / Ending the Game — a victory point card that
/// brings you to 10 during your turn wins at once, even in the turn it is bought.
#[test]
fn victory_point_card_wins_in_the_turn_it_is_bought() {
    let mut g = standard();
    for cmd in
        ["place city 15 red", "place city 41 red", "place city 1 red", "place city 54 red", "place settlement 27 red"]
    {
        sb(&mut g, cmd);
    }
    assert_eq!(points(&g, "red"), 9);
    main_phase_of(&mut g, "red");
    assert_eq!(winner(&g), None);
    buy_until(&mut g, "red", "victory_point", 1);
    assert_eq!(winner(&g).as_deref(), Some("red"));
    assert_eq!(points(&g, "red"), 10);
    assert_eq!(public_points(&g, "red"), 10, "revealed once the game is won");
}

// Largest Army and Longest Road -------------------------------------------------------------

/// Almanac: Largest Army — the first to have 3 knights face up takes it; another player
/// takes it only with more knights.
#[test]
fn largest_army_at_three_and_only_for_more() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "knight", 3);
    pass_turn(&mut g);
    main_phase_of(&mut g, "blue");
    buy_until(&mut g, "blue", "knight", 4);
    pass_turn(&mut g);
    let base_red = points(&g, "red");
    for k in 1..=4 {
        main_phase_of(&mut g, "red");
        if k <= 3 {
            play_knight_quietly(&mut g, "red");
        }
        let want = if k >= 3 { Some("red".to_string()) } else { None };
        assert_eq!(holder(&g, "largest_army"), want, "after red's knight {k}");
        pass_turn(&mut g);
        main_phase_of(&mut g, "blue");
        play_knight_quietly(&mut g, "blue");
        let want = if k == 4 {
            "blue"
        } else if k == 3 {
            "red" // 3 against 3: red keeps it
        } else {
            ""
        };
        assert_eq!(holder(&g, "largest_army").unwrap_or_default(), want, "after blue's knight {k}");
        pass_turn(&mut g);
    }
    assert_eq!(points(&g, "red"), base_red);
    assert_eq!(played(&g, seat(&g, "blue"), "knight"), 4);
}

/// Game Rules 3a / Almanac: Longest Road — the first continuous road of 5 segments takes it
/// (2 points); 4 is not enough.
#[test]
fn longest_road_at_five() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    for r in ["10-6", "6-2", "2-5"] {
        build(&mut g, "red", &format!("road {r}"));
    }
    assert_eq!(road_len(&g, "red"), 4);
    assert_eq!(holder(&g, "longest_road"), None);
    build(&mut g, "red", "road 5-1");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"));
    assert_eq!(points(&g, "red"), 4);
}

/// Game Rules 3a / Almanac: Longest Road — another player takes it only with a longer road;
/// an equal one is not enough.
#[test]
fn longest_road_taken_only_by_a_longer_road() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    for r in ["10-6", "6-2", "2-5", "5-1"] {
        build(&mut g, "red", &format!("road {r}"));
    }
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"));
    pass_turn(&mut g);
    main_phase_of(&mut g, "blue");
    for r in ["18-23", "23-17", "17-12", "12-8"] {
        build(&mut g, "blue", &format!("road {r}"));
    }
    assert_eq!(road_len(&g, "blue"), 5);
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"), "5 against 5");
    build(&mut g, "blue", "road 8-4");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("blue"));
    assert_eq!(points(&g, "red"), 2);
    assert_eq!(points(&g, "blue"), 4);
}

/// Red's road of 7 (15-10-14-9-13-8-12-17) and blue's road of 5 ending at 13.
fn red_seven_blue_five(g: &mut catan_engine::Game) {
    for r in ["10-14", "14-9", "9-13", "13-8", "8-12"] {
        sb(g, &format!("place road {r} red"));
    }
    main_phase_of(g, "red");
    build(g, "red", "road 12-17");
    assert_eq!(road_len(g, "red"), 7);
    assert_eq!(holder(g, "longest_road").as_deref(), Some("red"));
    for r in ["18-13", "24-30", "30-35"] {
        sb(g, &format!("place road {r} blue"));
    }
    main_phase_of(g, "blue");
    build(g, "blue", "road 35-40");
    assert_eq!(road_len(g, "blue"), 5);
    assert_eq!(holder(g, "longest_road").as_deref(), Some("red"));
}

/// Almanac: Longest Road, Illustration 1 — a settlement on an open intersection breaks a
/// road; Coleman (blue), who breaks Emily's (red) road of 7, takes the card.
#[test]
fn longest_road_broken_by_a_settlement_breaker_takes_it() {
    let mut g = standard();
    red_seven_blue_five(&mut g);
    build(&mut g, "blue", "settlement 13");
    assert_eq!(road_len(&g, "red"), 4);
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("blue"));
    assert_eq!(points(&g, "red"), 2);
    assert_eq!(points(&g, "blue"), 5);
}

/// Almanac: Longest Road, Special Case — the holder's road is broken and two others tie
/// for the longest: the card is set aside until one player alone has the longest road.
#[test]
fn longest_road_tie_after_a_break_sets_the_card_aside() {
    let mut g = standard();
    for r in ["31-37", "37-32", "32-26"] {
        sb(&mut g, &format!("place road {r} white"));
    }
    red_seven_blue_five(&mut g);
    main_phase_of(&mut g, "white");
    build(&mut g, "white", "road 26-21");
    assert_eq!(road_len(&g, "white"), 5);
    main_phase_of(&mut g, "blue");
    build(&mut g, "blue", "settlement 13");
    assert_eq!(road_len(&g, "red"), 4);
    assert_eq!(holder(&g, "longest_road"), None, "blue and white tie at 5");
    assert_eq!(points(&g, "red"), 2);
    assert_eq!(points(&g, "blue"), 3);
    main_phase_of(&mut g, "white");
    build(&mut g, "white", "road 21-16");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("white"));
}

/// Almanac: Longest Road, Special Case — a holder whose road is broken but who is still tied
/// for the longest keeps the card.
#[test]
fn longest_road_broken_holder_still_tied_keeps_it() {
    let mut g = standard();
    for r in ["20-15", "10-14", "14-9", "9-13", "13-8"] {
        sb(&mut g, &format!("place road {r} red"));
    }
    main_phase_of(&mut g, "red");
    build(&mut g, "red", "road 8-12");
    assert_eq!(road_len(&g, "red"), 7);
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"));
    for r in ["18-13", "24-30", "30-35"] {
        sb(&mut g, &format!("place road {r} blue"));
    }
    main_phase_of(&mut g, "blue");
    build(&mut g, "blue", "road 35-40");
    build(&mut g, "blue", "settlement 13");
    assert_eq!(road_len(&g, "red"), 5);
    assert_eq!(road_len(&g, "blue"), 5);
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"));
}

/// Almanac: Longest Road — only the longest single branch counts (Illustration 1: the
/// branch roads are not counted).
#[test]
fn longest_road_counts_one_branch() {
    let mut g = standard();
    // Six roads forking at 10: 5-2-6-10-14-9 and the branch 10-15.
    for r in ["10-6", "6-2", "2-5", "10-14"] {
        sb(&mut g, &format!("place road {r} red"));
    }
    main_phase_of(&mut g, "red");
    build(&mut g, "red", "road 14-9");
    assert_eq!(road_len(&g, "red"), 5);
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"));
}

// Trade ----------------------------------------------------------------------------------

/// The end of a harbor path of the given kind that a new settlement may use (both its
/// neighbours empty).
fn harbor_spot(g: &catan_engine::Game, resource: Option<&str>, ratio: u8) -> String {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    for h in st.harbors.iter() {
        if h.resource.as_deref() == resource && h.ratio == ratio {
            for &e in &t.paths[h.path].ends {
                let free = st.intersections[e].is_none()
                    && t.intersections[e].neighbors.iter().all(|&n| st.intersections[n].is_none());
                if free {
                    return t.intersections[e].label.clone();
                }
            }
        }
    }
    panic!("no free {resource:?} {ratio}:1 harbor");
}

/// Game Rules 2b / Almanac: Maritime Trade — 4 identical cards for any 1, always possible;
/// no like-for-like.
#[test]
fn maritime_trade_four_to_one() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    let red = seat(&g, "red");
    sb(&mut g, "give red 4 wool");
    let why = reject(&mut g, "red", "trade 3 wool for brick");
    assert!(why.contains("4:1"), "{why}");
    reject(&mut g, "red", "trade 4 wool for 2 brick");
    reject(&mut g, "red", "trade 4 wool for wool");
    let (h0, b0) = (hand_vec(&g, red), bank_vec(&g));
    act_as(&mut g, "red", "trade 4 wool for brick");
    let mut h = h0;
    h[ri("wool")] -= 4;
    h[ri("brick")] += 1;
    assert_eq!(hand_vec(&g, red), h);
    let mut b = b0;
    b[ri("wool")] += 4;
    b[ri("brick")] -= 1;
    assert_eq!(bank_vec(&g), b);
    sb(&mut g, "give red 8 wool");
    act_as(&mut g, "red", "trade 8 wool for brick ore");
}

/// Almanac: Maritime Trade, Generic Harbor — 3 identical cards for any 1.
#[test]
fn maritime_trade_generic_harbor() {
    let mut g = standard();
    let spot = harbor_spot(&g, None, 3);
    sb(&mut g, &format!("place settlement {spot} red"));
    main_phase_of(&mut g, "red");
    sb(&mut g, "give red 5 wool");
    reject(&mut g, "red", "trade 2 wool for brick");
    act_as(&mut g, "red", "trade 3 wool for brick");
    sb(&mut g, "give red 4 wool");
    act_as(&mut g, "red", "trade 6 wool for brick lumber");
    assert_eq!(hand(&g, seat(&g, "red"), "wool"), 0);
}

/// Almanac: Maritime Trade, Special Harbor — 2:1 for the harbor's resource only; it gives
/// no 3:1 for other resources.
#[test]
fn maritime_trade_special_harbor() {
    let mut g = standard();
    let spot = harbor_spot(&g, Some("ore"), 2);
    sb(&mut g, &format!("place settlement {spot} red"));
    main_phase_of(&mut g, "red");
    let red = seat(&g, "red");
    sb(&mut g, "give red 5 ore");
    let ore = hand(&g, red, "ore");
    act_as(&mut g, "red", "trade 2 ore for brick");
    act_as(&mut g, "red", "trade 4 ore for lumber wool");
    assert_eq!(hand(&g, red, "ore"), ore - 6);
    sb(&mut g, "give red 3 wool");
    let wool = hand(&g, red, "wool");
    assert_eq!(wool, 4);
    reject(&mut g, "red", "trade 3 wool for brick");
    reject(&mut g, "red", "trade 2 wool for brick");
    act_as(&mut g, "red", "trade 4 wool for brick");
}

/// Almanac: Combined Trade/Build Phase — "You can even use a harbor on the same turn you
/// build a settlement there."
#[test]
fn harbor_usable_in_the_turn_it_is_built() {
    let mut g = standard();
    let spot = harbor_spot(&g, None, 3);
    main_phase_of(&mut g, "red");
    // A road from red's network to the harbor, placed by the sandbox, then the settlement.
    let st = g.state().clone();
    let t = st.topology.as_ref().unwrap();
    let n = t.intersections.iter().position(|i| i.label == spot).unwrap();
    let p = t.intersections[n].paths[0];
    let label = t.paths[p].label.clone();
    drop(st);
    sb(&mut g, &format!("place road {label} red"));
    sb(&mut g, "give red 3 wool");
    reject(&mut g, "red", "trade 3 wool for brick");
    build(&mut g, "red", &format!("settlement {spot}"));
    act_as(&mut g, "red", "trade 3 wool for brick");
}

/// Almanac: Trade — maritime trade only in your own turn, after the roll.
#[test]
fn maritime_trade_only_in_own_turn_after_the_roll() {
    let mut g = standard();
    sb(&mut g, "give red 4 wool");
    sb(&mut g, "give blue 4 wool");
    reject(&mut g, "red", "trade 4 wool for brick");
    roll(&mut g, 6, 6);
    reject(&mut g, "blue", "trade 4 wool for brick");
    act_as(&mut g, "red", "trade 4 wool for brick");
}

/// Game Rules 2a / Almanac: Domestic Trade — the active player offers, the others answer,
/// the active player confirms one partner, and the cards change hands.
#[test]
fn domestic_trade_offer_accept_confirm() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    let (red, blue) = (seat(&g, "red"), seat(&g, "blue"));
    let (r0, b0) = (hand_vec(&g, red), hand_vec(&g, blue));
    act_as(&mut g, "red", "offer ore for brick");
    assert_eq!(g.state().phase, "offer");
    assert_eq!(g.to_act().unwrap(), blue);
    act_as(&mut g, "blue", "accept");
    reject(&mut g, "white", "accept"); // white holds no brick
    act_as(&mut g, "white", "decline");
    reject(&mut g, "red", "confirm blue"); // orange has not answered
    act_as(&mut g, "orange", "decline");
    assert_eq!(g.to_act().unwrap(), red);
    let mut options = legal_of(&g, "red");
    options.sort();
    assert_eq!(options, vec!["cancel", "confirm blue"]);
    reject(&mut g, "red", "confirm white");
    act_as(&mut g, "red", "confirm blue");
    let (mut r1, mut b1) = (r0, b0);
    r1[ri("ore")] -= 1;
    r1[ri("brick")] += 1;
    b1[ri("ore")] += 1;
    b1[ri("brick")] -= 1;
    assert_eq!(hand_vec(&g, red), r1);
    assert_eq!(hand_vec(&g, blue), b1);
    assert_eq!(g.state().phase, "main");
}

/// Almanac: Domestic Trade / Trade — no gifts, no like-for-like, only cards you hold.
#[test]
fn domestic_trade_no_gifts_no_like_for_like() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    let why = reject(&mut g, "red", "offer ore for");
    assert!(why.contains("gift"), "{why}");
    reject(&mut g, "red", "offer for brick");
    let why = reject(&mut g, "red", "offer ore for ore");
    assert!(why.contains("like"), "{why}");
    reject(&mut g, "red", "offer 2 grain for grain brick");
    reject(&mut g, "red", "offer 5 ore for brick");
    act_as(&mut g, "red", "offer ore for brick");
    reject(&mut g, "blue", "counter brick for");
    reject(&mut g, "blue", "counter brick for brick");
}

/// Game Rules 2a — the other players can make counteroffers; the active player may take
/// one.
#[test]
fn domestic_trade_counter_offer() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    let (red, blue) = (seat(&g, "red"), seat(&g, "blue"));
    let (r0, b0) = (hand_vec(&g, red), hand_vec(&g, blue));
    act_as(&mut g, "red", "offer ore for brick");
    act_as(&mut g, "blue", "counter brick for 2 grain");
    act_as(&mut g, "white", "decline");
    act_as(&mut g, "orange", "decline");
    act_as(&mut g, "red", "confirm blue");
    let (mut r1, mut b1) = (r0, b0);
    r1[ri("grain")] -= 2;
    r1[ri("brick")] += 1;
    b1[ri("grain")] += 2;
    b1[ri("brick")] -= 1;
    assert_eq!(hand_vec(&g, red), r1);
    assert_eq!(hand_vec(&g, blue), b1);
}

/// Game Rules 2a / Almanac: Domestic Trade — only the player whose turn it is trades; the
/// other players may not trade among themselves; no trade before the roll.
#[test]
fn domestic_trade_only_with_the_active_player() {
    let mut g = standard();
    reject(&mut g, "red", "offer ore for brick"); // before the roll
    roll(&mut g, 6, 6);
    reject(&mut g, "blue", "offer brick for wool");
    act_as(&mut g, "red", "offer ore for brick");
    reject(&mut g, "red", "accept");
    reject(&mut g, "blue", "cancel");
    act_as(&mut g, "blue", "accept");
    act_as(&mut g, "white", "decline");
    act_as(&mut g, "orange", "decline");
    reject(&mut g, "blue", "confirm white");
    reject(&mut g, "red", "end"); // answer the offer first
    let before = hands(&g);
    act_as(&mut g, "red", "cancel");
    assert_eq!(hands(&g), before);
    assert_eq!(g.state().phase, "main");
}

/// Almanac: Combined Trade/Build Phase — with the option off (the basic Turn Overview),
/// trading ends once you build; with it on, trade and build mix freely.
#[test]
fn trade_then_build_when_phases_are_separate() {
    let mut g = custom(4, "red", &[("combined_trade_build", "false")]);
    main_phase_of(&mut g, "red");
    assert_eq!(g.state().phase, "trade");
    sb(&mut g, "give red 8 wool");
    act_as(&mut g, "red", "trade 4 wool for brick");
    build(&mut g, "red", "road 10-6");
    assert_eq!(g.state().phase, "build");
    reject(&mut g, "red", "trade 4 wool for brick");
    reject(&mut g, "red", "offer wool for brick");
    build(&mut g, "red", "road 6-2");

    let mut g = standard();
    main_phase_of(&mut g, "red");
    sb(&mut g, "give red 8 wool");
    build(&mut g, "red", "road 10-6");
    act_as(&mut g, "red", "trade 4 wool for brick");
}

// Ending the game ------------------------------------------------------------------------

/// Ending the Game — 10 points during your own turn wins at once; then nothing more can be
/// done.
#[test]
fn ten_points_in_own_turn_wins() {
    let mut g = standard();
    for cmd in ["place city 15 red", "place city 41 red", "place city 1 red", "place city 54 red"] {
        sb(&mut g, cmd);
    }
    assert_eq!(points(&g, "red"), 8);
    main_phase_of(&mut g, "red");
    build(&mut g, "red", "road 10-6");
    build(&mut g, "red", "settlement 6");
    assert_eq!(winner(&g), None);
    assert_eq!(points(&g, "red"), 9);
    sb(&mut g, "place settlement 27 red");
    build(&mut g, "red", "road 6-2"); // any action: red has 10 in their turn
    assert_eq!(winner(&g).as_deref(), Some("red"));
    let before = g.state().clone();
    assert!(g.act(seat(&g, "red"), "end").is_err());
    assert!(g.act(seat(&g, "blue"), "roll").is_err());
    assert!(*g.state() == before);
}

/// Ending the Game / Almanac: Ending the Game — a player who has 10 points when it is not
/// their turn must wait for their own turn, and wins as it begins.
#[test]
fn ten_points_off_turn_wins_only_in_own_turn() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    for cmd in [
        "place city 31 white",
        "place city 42 white",
        "place city 1 white",
        "place city 54 white",
        "place settlement 27 white",
        "place settlement 39 white",
    ] {
        sb(&mut g, cmd);
    }
    assert_eq!(points(&g, "white"), 10);
    build(&mut g, "red", "road 10-6");
    assert_eq!(winner(&g), None, "not white's turn");
    act_as(&mut g, "red", "end");
    assert_eq!(winner(&g), None, "blue's turn");
    roll(&mut g, 6, 6);
    act_as(&mut g, "blue", "end");
    assert_eq!(winner(&g).as_deref(), Some("white"));
    assert_eq!(color(&g, g.state().current), "white");
}

/// Option victory_points: the points needed to win.
#[test]
fn victory_points_option() {
    let mut g = custom(4, "red", &[("victory_points", "3")]);
    main_phase_of(&mut g, "red");
    build(&mut g, "red", "road 10-6");
    assert_eq!(winner(&g), None);
    build(&mut g, "red", "settlement 6");
    assert_eq!(winner(&g).as_deref(), Some("red"));
}

// Players ----------------------------------------------------------------------------------

/// Game Rules, Setting Up — in a 3-player game nobody plays red.
#[test]
fn three_players_have_no_red() {
    let g = beginner(3, &[]);
    let colors: Vec<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
    assert_eq!(colors, vec!["blue", "white", "orange"]);
    let st = g.state();
    let owners: std::collections::BTreeSet<u8> = st.intersections.iter().flatten().map(|p| p.owner).collect();
    assert_eq!(owners.len(), 3);
    assert_eq!(st.intersections.iter().flatten().count(), 6);
    drop(st);
    assert_eq!(g.to_act().unwrap(), 0);
    let mut g = beginner(3, &[]);
    assert!(g.sandbox(0, "give red ore").is_err());
    assert!(g.act(0, "steal red").is_err());
    let g = custom(3, "orange", &[]);
    assert_eq!(g.state().players.len(), 3);
}

/// The beginner set-up (Starting Set-up for Beginners): 2 settlements and 2 roads each,
/// starting resources from the starred settlement, the first player rolls first.
#[test]
fn beginner_start() {
    let g = beginner(4, &[]);
    assert_eq!(g.state().phase, "roll");
    assert_eq!(g.state().turn, 1);
    assert_eq!(g.to_act().unwrap(), 0);
    for s in 0..4 {
        assert_eq!(count_pieces(&g, s, "settlement"), 2);
        assert_eq!(count_pieces(&g, s, "road"), 2);
        assert!(hand_size(&g, s) >= 1);
        assert_eq!(g.points(s, true).unwrap(), 2);
    }
    assert_eq!(robber(&g), "H10");
    check_invariants(&g).unwrap();
}

// Refusals ---------------------------------------------------------------------------------

/// Every refused action leaves the state exactly as it was and names the rule's line in
/// base (variants/base/): a sweep of actions that are wrong in each phase.
#[test]
fn refused_actions_change_nothing_and_name_their_rule() {
    let mut g = setup_phase(4, "red", &[]);
    for (who, cmd) in [
        ("red", "roll"),
        ("red", "end"),
        ("red", "buy"),
        ("red", "city 15"),
        ("blue", "settlement 15"),
        ("red", "road 15-10"),
        ("red", "trade 4 ore for brick"),
        ("red", "play knight"),
        ("red", "robber H1"),
        ("red", "discard ore"),
    ] {
        reject(&mut g, who, cmd);
    }
    let mut g = standard();
    for (who, cmd) in [
        ("red", "end"),
        ("blue", "roll"),
        ("red", "settlement 6"),
        ("red", "road 10-6"),
        ("red", "accept"),
        ("red", "confirm blue"),
        ("red", "steal blue"),
        ("red", "done"),
        ("red", "play year_of_plenty ore ore"),
        ("red", "play monopoly ore"),
        ("red", "play road_building"),
    ] {
        reject(&mut g, who, cmd);
    }
    roll(&mut g, 3, 4);
    for (who, cmd) in [("red", "end"), ("red", "roll"), ("red", "buy"), ("blue", "robber H1")] {
        reject(&mut g, who, cmd);
    }
}

/// 003, Maritime Trade: "The 4:1 trade is always possible, even if you do not have a
/// settlement on a harbor" — a harbor improves the rate, it does not take 4:1 away: any
/// ratio from the player's best up to 4:1 is a legal maritime trade.
#[test]
fn maritime_trade_four_to_one_stays_possible_at_a_harbor() {
    let mut g = standard();
    let generic = harbor_spot(&g, None, 3);
    sb(&mut g, &format!("place settlement {generic} red"));
    let ore = harbor_spot(&g, Some("ore"), 2);
    sb(&mut g, &format!("place settlement {ore} red"));
    main_phase_of(&mut g, "red");
    let red = seat(&g, "red");
    sb(&mut g, "give red 11 wool 8 ore");
    act_as(&mut g, "red", "trade 4 wool for brick");
    act_as(&mut g, "red", "trade 4 ore for brick");
    act_as(&mut g, "red", "trade 3 ore for lumber");
    // 7 wool at 3:1 and 4:1 buy 2 cards; 5 do not make whole trades.
    act_as(&mut g, "red", "trade 7 wool for grain lumber");
    assert_eq!(hand(&g, red, "wool"), 0);
    sb(&mut g, "give red 5 wool");
    let why = reject(&mut g, "red", "trade 5 wool for brick");
    assert!(why.contains("3:1 to 4:1"), "{why}");
    // Never beyond 4:1, never more than the best rate gives.
    let why = reject(&mut g, "red", "trade 1 ore for grain");
    assert!(why.contains("2:1"), "{why}");
    reject(&mut g, "red", "trade 3 wool for 2 grain");
}

/// Almanac: Development Cards — a refusal says which rule refused: bought this turn, one
/// card per turn, only in your own turn, no such card.
#[test]
fn development_card_refusals_say_why() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    let why = reject(&mut g, "red", "play knight");
    assert_eq!(why, "you have no knight card");
    buy_until(&mut g, "red", "knight", 2);
    let why = reject(&mut g, "red", "play knight");
    assert_eq!(why, "a development card cannot be played in the turn you bought it");
    act_as(&mut g, "red", "end");
    let why = reject(&mut g, "red", "play knight");
    assert_eq!(why, "you may play a development card only in your own turn");
    roll_phase_of(&mut g, "red");
    play_knight_quietly(&mut g, "red");
    let why = reject(&mut g, "red", "play knight");
    assert_eq!(why, "you have already played a development card this turn (one per turn)");
    // `show players` counts in words: one knight, not "1 knights".
    let summary = match g.describe(seat(&g, "red")).expect("describe") {
        Value::Map(m) => m.get("summary").map(|v| v.to_string()).unwrap_or_default(),
        other => panic!("{other:?}"),
    };
    assert!(summary.contains(" 1 knight ") && !summary.contains("knights"), "{summary}");
    // Actions of the turn: roll first, once.
    let why = reject(&mut g, "red", "end");
    assert_eq!(why, "roll the dice first");
    roll(&mut g, 6, 6);
    let why = reject(&mut g, "red", "roll");
    assert_eq!(why, "you have already rolled the dice this turn");
}
