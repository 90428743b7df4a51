//! One test per difference of `classic` (variants/classic.lua) from `base`: The Settlers of
//! Catan, an older edition (../shared/rules/002). Each test's doc comment names the rule of
//! that rulebook it checks; seeded bot games check the invariants of the older deck after
//! every action.
//!
//! Positions are those of `rules_base.rs`: the beginner board, the set-up phase played with
//! `common::PLACEMENTS`, then sandbox edits.

use crate::common;

use catan_engine::{sim, Game, GameError, GameState, Header, ScriptErrorKind};
use common::*;

const VICTORY: [&str; 5] = ["market", "library", "university", "governors_house", "chapel"];
/// The older deck: 14 Soldiers, 5 victory point cards named as buildings, 6 progress cards.
const DECK: [(&str, usize); 9] = [
    ("soldier", 14),
    ("market", 1),
    ("library", 1),
    ("university", 1),
    ("governors_house", 1),
    ("chapel", 1),
    ("road_building", 2),
    ("year_of_plenty", 2),
    ("monopoly", 2),
];

fn classic_header(players: usize, seed: u64, options: &[(&str, &str)], sandbox: bool) -> Header {
    Header {
        variants: vec!["classic".into()],
        players,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    }
}

/// A sandbox game on the beginner board with the starting pieces: turn 1, first seat to roll.
fn beginner(players: usize, options: &[(&str, &str)]) -> Game {
    Game::new(classic_header(players, 1, options, true)).expect("classic starts")
}

/// The standard position of `rules_base.rs` in `classic`: set-up played with
/// `PLACEMENTS`, `first` (a colour) to roll on turn 1.
fn custom(players: usize, first: &str, options: &[(&str, &str)]) -> Game {
    let mut opts = vec![("starting_pieces", "false")];
    opts.extend_from_slice(options);
    for seed in 0..1000 {
        let mut g = Game::new(classic_header(players, seed, &opts, true)).expect("classic starts");
        if color(&g, starting_player(&g)) == first {
            finish_setup(&mut g);
            assert_eq!(g.state().phase, "roll");
            return g;
        }
    }
    panic!("no seed lets {first} start");
}

fn standard() -> Game {
    custom(4, "red", &[])
}

/// A command a rule must refuse: the state and log stay exactly as they were, and the
/// refusal names where (file:line) it was refused. Returns the reason.
fn refuse(g: &mut Game, who: &str, cmd: &str) -> String {
    let s = seat(g, who);
    let before: GameState = g.state().clone();
    let log = g.log().len();
    let err = match g.act(s, cmd) {
        Ok(_) => panic!("'{cmd}' by {who} was accepted but must be refused"),
        Err(e) => e,
    };
    assert!(*g.state() == before, "the refused '{cmd}' changed the state");
    assert_eq!(g.log().len(), log, "the refused '{cmd}' was logged");
    let GameError::Script(e) = &err else { panic!("'{cmd}' was refused by the parser, not by a rule: {err}") };
    assert_eq!(e.kind, ScriptErrorKind::Rejected, "'{cmd}': {err}");
    let at = e.location.as_deref().unwrap_or_else(|| panic!("'{cmd}': the refusal names no rule: {err}"));
    assert!(at.starts_with("variants/base/") || at.starts_with("variants/classic.lua:"), "'{cmd}' at {at}");
    e.message.clone()
}

/// Victory point cards `who` holds (bought this turn or earlier), by kind.
fn vp_cards(g: &Game, who: &str) -> Vec<&'static str> {
    let s = seat(g, who);
    VICTORY.iter().flat_map(|k| std::iter::repeat_n(*k, dev(g, s, k) + dev_new(g, s, k))).collect()
}

/// Buys development cards for `who` (in their turn, after the roll) until they hold `n`
/// victory point cards.
fn buy_victory_cards(g: &mut Game, who: &str, n: usize) {
    while vp_cards(g, who).len() < n {
        assert!(zone_total(g, None, "deck") > 0, "the deck ran out");
        build(g, who, "buy");
    }
}

// The cards -----------------------------------------------------------------------------

/// Buying Development Cards — "Soldier Cards", "Progress Cards — such as Monopoly, Road
/// Building, or Year of Plenty", "Victory Point Cards — such as the Market, Library,
/// University, or Governor's House": 25 cards, no knights, as the REPL names them.
#[test]
fn the_older_deck_of_soldiers_and_buildings() {
    let g = beginner(4, &[]);
    for (kind, n) in DECK {
        assert_eq!(zone_count(&g, None, "deck", kind), n, "{kind}");
    }
    assert_eq!(zone_total(&g, None, "deck"), 25);
    assert_eq!(zone_count(&g, None, "deck", "knight"), 0);
    assert_eq!(zone_count(&g, None, "deck", "victory_point"), 0);
    let help: Vec<String> = g.spec().actions.iter().map(|a| a.template()).collect();
    for cmd in ["play soldier", "play market", "play governors_house", "play year_of_plenty <resource> <resource>"] {
        assert!(help.iter().any(|h| h == cmd), "`{cmd}` is a command: {help:?}");
    }
    assert!(!help.iter().any(|h| h == "play knight"), "no knights in the older deck");
}

/// Soldier Cards — playing a Soldier moves the robber and robs a player next to it; the
/// Soldier stays face up. "play knight" is not a command of this edition.
#[test]
fn soldier_moves_the_robber_and_stays_face_up() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "soldier", 1);
    act_as(&mut g, "red", "end");
    roll_phase_of(&mut g, "red");
    let red = seat(&g, "red");
    assert!(matches!(g.act(red, "play knight"), Err(GameError::Parse(_))));
    act_as(&mut g, "red", "play soldier");
    assert_eq!(g.state().phase, "robber");
    act_as(&mut g, "red", "robber H3"); // orange (7) is there
    assert_eq!(robber(&g), "H3");
    assert_eq!(played(&g, red, "soldier"), 1);
    assert_eq!(g.state().phase, "roll", "back to the roll after the Soldier");
    let info = g.describe(red).unwrap();
    let catan_engine::value::Value::Map(info) = info else { panic!("describe gives a table") };
    assert_eq!(info.get("soldiers").and_then(|v| v.as_int()), Some(1));
    assert!(!info.contains_key("knights"));
}

/// Soldier Cards — "The first player to turn up three Soldier cards gets the Largest Army
/// card ... If another player then puts a LARGER number of Soldier cards in play, he takes
/// the Largest Army card away"; only one Soldier per turn.
#[test]
fn largest_army_of_soldiers() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "soldier", 3);
    pass_turn(&mut g);
    main_phase_of(&mut g, "blue");
    buy_until(&mut g, "blue", "soldier", 4);
    pass_turn(&mut g);
    for k in 1..=4 {
        main_phase_of(&mut g, "red");
        if k <= 3 {
            act_as(&mut g, "red", "play soldier");
            let to = if robber(&g) == "H1" { "robber H4" } else { "robber H1" };
            act_as(&mut g, "red", to);
            refuse(&mut g, "red", "play soldier");
        }
        let want = if k >= 3 { Some("red".to_string()) } else { None };
        assert_eq!(holder(&g, "largest_army"), want, "after red's soldier {k}");
        pass_turn(&mut g);
        main_phase_of(&mut g, "blue");
        act_as(&mut g, "blue", "play soldier");
        let to = if robber(&g) == "H1" { "robber H4" } else { "robber H1" };
        act_as(&mut g, "blue", to);
        let want = match k {
            4 => "blue",
            3 => "red", // 3 against 3: not a larger number
            _ => "",
        };
        assert_eq!(holder(&g, "largest_army").unwrap_or_default(), want, "after blue's soldier {k}");
        pass_turn(&mut g);
    }
    check_classic(&g).unwrap();
}

/// Playing Development Cards, Exception — "You may play any number of victory point cards
/// in any given turn ... they can be played immediately": revealed in the turn they are
/// bought, several in one turn, beside the one other card of the turn.
#[test]
fn victory_point_cards_any_number_even_just_bought() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "soldier", 1);
    act_as(&mut g, "red", "end");
    main_phase_of(&mut g, "red");
    buy_victory_cards(&mut g, "red", 2);
    let red = seat(&g, "red");
    let (points0, public0) = (points(&g, "red"), public_points(&g, "red"));
    assert_eq!(points0, public0 + 2, "hidden until revealed");
    act_as(&mut g, "red", "play soldier");
    act_as(&mut g, "red", "robber H1");
    for card in vp_cards(&g, "red") {
        assert!(dev_new(&g, red, card) == 1 || dev(&g, red, card) == 1);
        act_as(&mut g, "red", &format!("play {card}"));
        assert_eq!(played(&g, red, card), 1, "{card} lies face up");
    }
    assert_eq!(public_points(&g, "red"), public0 + 2, "both revealed this turn");
    assert_eq!(points(&g, "red"), points0);
    // A card not held cannot be revealed.
    let missing = VICTORY.iter().find(|k| played(&g, red, k) == 0).unwrap();
    refuse(&mut g, "red", &format!("play {missing}"));
    check_classic(&g).unwrap();
}

/// Playing Development Cards — victory point cards are revealed only in your own turn.
#[test]
fn victory_point_cards_only_in_own_turn() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_victory_cards(&mut g, "red", 1);
    let card = vp_cards(&g, "red")[0];
    act_as(&mut g, "red", "end");
    refuse(&mut g, "red", &format!("play {card}"));
}

/// Progress Cards — Year of Plenty, by its printed name: any 2 resource cards from the bank.
#[test]
fn year_of_plenty() {
    let mut g = standard();
    main_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "year_of_plenty", 1);
    act_as(&mut g, "red", "end");
    main_phase_of(&mut g, "red");
    let before = hand_of(&g, "red");
    act_as(&mut g, "red", "play year_of_plenty ore wool");
    let after = hand_of(&g, "red");
    assert_eq!(after[2], before[2] + 1);
    assert_eq!(after[4], before[4] + 1);
}

// Setting up ------------------------------------------------------------------------------

/// Turn Overview — "Unless you are using the Setup Phase entry ..., the oldest player goes
/// first" (the first seat); Setting up the Game — "blue gets one brick, one wool, and one
/// ore card" from its starred settlement.
#[test]
fn oldest_player_starts_the_beginner_setup() {
    let g = beginner(4, &[]);
    assert_eq!(g.state().phase, "roll");
    assert_eq!(g.to_act().unwrap(), 0);
    assert_eq!(color(&g, 0), "red");
    assert_eq!(hand_of(&g, "blue"), [1, 0, 1, 0, 1], "blue: brick, wool, ore");
    check_classic(&g).unwrap();
}

/// Setting up the Game (For Beginners) — "If there are only three players, do not use the
/// red pieces."
#[test]
fn three_players_do_not_use_red() {
    let g = beginner(3, &[]);
    let colors: Vec<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
    assert_eq!(colors, vec!["blue", "white", "orange"]);
    assert_eq!(g.state().intersections.iter().flatten().count(), 6);
}

// The robber ------------------------------------------------------------------------------

/// Rolling a 7 — "move the Robber to any new terrain hex (other than the desert ...). You
/// cannot leave the Robber in his current location"; Soldier Cards — "the numbered terrain
/// hex ... of your choice".
#[test]
fn robber_never_to_the_desert_and_never_stays() {
    let mut g = standard();
    assert_eq!(robber(&g), "H10");
    roll(&mut g, 3, 4);
    refuse(&mut g, "red", "robber H10");
    assert_eq!(legal_of(&g, "red").len(), 18, "every hex but the desert");
    act_as(&mut g, "red", "robber H1");
    pass_turn(&mut g);
    roll(&mut g, 3, 4);
    let why = refuse(&mut g, "blue", "robber H10");
    assert!(why.contains("may not go there"), "{why}");
    refuse(&mut g, "blue", "robber H1");
    assert_eq!(legal_of(&g, "blue").len(), 17);
    act_as(&mut g, "blue", "robber H4");
    // A Soldier moves it to a numbered hex too.
    main_phase_of(&mut g, "white");
    buy_until(&mut g, "white", "soldier", 1);
    act_as(&mut g, "white", "end");
    roll_phase_of(&mut g, "white");
    act_as(&mut g, "white", "play soldier");
    refuse(&mut g, "white", "robber H10");
    refuse(&mut g, "white", "robber H4");
    assert!(!legal_of(&g, "white").iter().any(|a| a == "robber H10" || a == "robber H4"));
    act_as(&mut g, "white", "robber H2");
}

// The turn --------------------------------------------------------------------------------

/// Turn Overview — "in the order listed": roll, then trade, then build; "The last thing
/// that you can do during a turn is build": no trade once you have built.
#[test]
fn strict_roll_then_trade_then_build() {
    let mut g = standard();
    sb(&mut g, "give red 8 wool 2 brick 2 lumber");
    refuse(&mut g, "red", "trade 4 wool for ore");
    refuse(&mut g, "red", "road 10-6");
    roll(&mut g, 6, 6);
    assert_eq!(g.state().phase, "trade");
    act_as(&mut g, "red", "trade 4 wool for ore");
    act_as(&mut g, "red", "road 10-6");
    assert_eq!(g.state().phase, "build");
    refuse(&mut g, "red", "trade 4 wool for ore");
    refuse(&mut g, "red", "offer wool for grain");
    act_as(&mut g, "red", "road 6-2");
    act_as(&mut g, "red", "end");
}

/// Domestic Trade, Important — "Only one player whose turn it is can initiate a trade. The
/// other players may NOT trade among themselves."
#[test]
fn trade_only_with_the_active_player() {
    let mut g = standard();
    roll(&mut g, 6, 6);
    refuse(&mut g, "blue", "offer brick for wool");
    act_as(&mut g, "red", "offer ore for brick");
    act_as(&mut g, "blue", "accept");
    act_as(&mut g, "white", "decline");
    act_as(&mut g, "orange", "decline");
    refuse(&mut g, "blue", "confirm white");
    refuse(&mut g, "white", "confirm blue");
    act_as(&mut g, "red", "confirm blue");
    pass_turn(&mut g);
    refuse(&mut g, "red", "offer grain for brick");
}

// Longest Road ----------------------------------------------------------------------------

/// Red's road of 7 (20-15-10-14-9-13-8) and a branch; blue's road of 5 ending at 13.
fn red_seven_blue_five(g: &mut Game) {
    for r in ["20-15", "10-14", "14-9", "9-13", "13-8"] {
        sb(g, &format!("place road {r} red"));
    }
    main_phase_of(g, "red");
    build(g, "red", "road 8-12");
    assert_eq!(road_len(g, "red"), 7);
    assert_eq!(holder(g, "longest_road").as_deref(), Some("red"));
    for r in ["18-13", "24-30", "30-35"] {
        sb(g, &format!("place road {r} blue"));
    }
    main_phase_of(g, "blue");
    build(g, "blue", "road 35-40");
    assert_eq!(road_len(g, "blue"), 5);
}

/// Building, Road, Exception — "If another player builds a settlement that 'breaks' the
/// longest road — and at the same time creates two or more longest roads of equal length —
/// the Longest Road card is returned to the table", the holder's broken road included
/// (base lets a holder still tied keep it). A longer road then takes it.
#[test]
fn longest_road_returns_to_the_table_on_a_tied_break() {
    let mut g = standard();
    red_seven_blue_five(&mut g);
    build(&mut g, "blue", "settlement 13");
    assert_eq!(road_len(&g, "red"), 5);
    assert_eq!(road_len(&g, "blue"), 5);
    assert_eq!(holder(&g, "longest_road"), None, "5 against 5 after the break");
    assert_eq!(points(&g, "red"), 2);
    build(&mut g, "blue", "road 40-44");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("blue"));

    // The same break with the 25th Anniversary rule of base: the holder keeps it.
    let mut g = custom(4, "red", &[("longest_road_tie", "holder_keeps")]);
    red_seven_blue_five(&mut g);
    build(&mut g, "blue", "settlement 13");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"));
}

/// The older rules are switches of base, usable as house rules on base itself:
/// `longest_road_tie=set_aside`, `robber_desert=false`, `combined_trade_build=false`.
#[test]
fn the_older_rules_are_switches_of_base() {
    let opts = [("longest_road_tie", "set_aside"), ("robber_desert", "false"), ("combined_trade_build", "false")];
    let mut g = common::custom(4, "red", &opts);
    assert_eq!(g.spec().variants, vec!["base"]);
    red_seven_blue_five(&mut g);
    build(&mut g, "blue", "settlement 13");
    assert_eq!(holder(&g, "longest_road"), None);
    assert_eq!(g.state().phase, "build");
    refuse(&mut g, "blue", "trade 4 ore for brick");
}

/// Building, Road — "If another player builds a LONGER road, ownership of the card
/// transfers": an equal road built without a break leaves the card where it is.
#[test]
fn longest_road_equal_road_does_not_take_it() {
    let mut g = standard();
    red_seven_blue_five(&mut g);
    build(&mut g, "blue", "road 40-44");
    build(&mut g, "blue", "road 44-48");
    assert_eq!(road_len(&g, "blue"), 7);
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"), "7 against 7, nothing broken");
    build(&mut g, "blue", "road 48-52");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("blue"));
}

// Whole games -----------------------------------------------------------------------------

/// The invariants of a `classic` game, recomputed from the raw state: 19 of each resource,
/// the 25 older development cards where they may be (progress cards in the box once played,
/// Soldiers and revealed victory point cards face up), pieces, the Distance Rule, Longest
/// Road and Largest Army (by Soldiers), and points (revealed cards public, hidden ones for
/// their owner and at the end).
fn check_classic(g: &Game) -> Result<(), String> {
    let spec = g.spec().clone();
    let st = g.state().clone();
    let n = st.players.len();
    let count = |owner: Option<usize>, z: &str, k: &str| -> usize {
        st.zone(owner, spec.zone(z).unwrap()).map(|zn| zn.count(spec.card(k).unwrap())).unwrap_or(0)
    };
    for r in RESOURCES {
        let total = count(None, "bank", r) + (0..n).map(|p| count(Some(p), "hand", r)).sum::<usize>();
        if total != 19 {
            return Err(format!("{r}: {total} cards, not 19"));
        }
    }
    for (k, want) in DECK {
        let in_players: usize =
            (0..n).map(|p| count(Some(p), "dev", k) + count(Some(p), "dev_new", k) + count(Some(p), "played", k)).sum();
        let got = count(None, "deck", k) + count(None, "box", k) + in_players;
        if got != want {
            return Err(format!("{k}: {got} cards, not {want}"));
        }
        let face_up: usize = (0..n).map(|p| count(Some(p), "played", k)).sum();
        let progress = !(k == "soldier" || VICTORY.contains(&k));
        if progress && face_up > 0 || !progress && count(None, "box", k) > 0 {
            return Err(format!("a {k} is in the wrong place"));
        }
    }
    for k in ["knight", "victory_point"] {
        if count(None, "deck", k) > 0 || (0..n).any(|p| count(Some(p), "dev", k) + count(Some(p), "played", k) > 0) {
            return Err(format!("a {k} card in the older deck"));
        }
    }
    // Pieces, Distance Rule.
    let t = st.topology.as_ref().unwrap();
    for p in 0..n {
        for (piece, want) in PIECES {
            if count_pieces(g, p, piece) + supply(g, p, piece) as usize != want as usize {
                return Err(format!("{}: {piece}s do not add up", st.players[p].color));
            }
        }
    }
    for (i, x) in st.intersections.iter().enumerate() {
        if x.is_some() && t.intersections[i].neighbors.iter().any(|&m| st.intersections[m].is_some()) {
            return Err(format!("the Distance Rule is broken at intersection {}", i + 1));
        }
    }
    // Special cards.
    let lengths: Vec<usize> = (0..n).map(|p| road_length(&st, &spec, p)).collect();
    let best = lengths.iter().copied().max().unwrap_or(0);
    let lr = st.vars.get("longest_road").and_then(|v| v.as_int()).map(|p| p as usize - 1);
    if let Some(h) = lr {
        if lengths[h] < 5 || lengths[h] != best {
            return Err(format!("{} holds Longest Road; lengths {lengths:?}", st.players[h].color));
        }
    }
    let leaders: Vec<usize> = (0..n).filter(|&p| lengths[p] == best).collect();
    if best >= 5 && leaders.len() == 1 && lr != Some(leaders[0]) {
        return Err(format!("one longest road ({best}) but Longest Road is with {lr:?}"));
    }
    let soldiers: Vec<usize> = (0..n).map(|p| count(Some(p), "played", "soldier")).collect();
    let most = soldiers.iter().copied().max().unwrap_or(0);
    let la = st.vars.get("largest_army").and_then(|v| v.as_int()).map(|p| p as usize - 1);
    match la {
        Some(h) if soldiers[h] < 3 || soldiers[h] != most => {
            return Err(format!("Largest Army; soldiers {soldiers:?}"))
        }
        None if most >= 3 => return Err(format!("nobody holds Largest Army; soldiers {soldiers:?}")),
        _ => {}
    }
    // Points.
    for p in 0..n {
        let on = |k: &str| count_pieces(g, p, k) as i64;
        let revealed: i64 = VICTORY.iter().map(|k| count(Some(p), "played", k) as i64).sum();
        let hidden_cards: i64 =
            VICTORY.iter().map(|k| (count(Some(p), "dev", k) + count(Some(p), "dev_new", k)) as i64).sum();
        let public =
            on("settlement") + 2 * on("city") + 2 * (lr == Some(p)) as i64 + 2 * (la == Some(p)) as i64 + revealed;
        let mine = g.points(p, true).map_err(|e| e.to_string())?;
        let shown = g.points(p, false).map_err(|e| e.to_string())?;
        let want_shown = if st.winner.is_some() { public + hidden_cards } else { public };
        if mine != public + hidden_cards || shown != want_shown {
            return Err(format!(
                "{}: points {mine}/{shown}, recomputed {}/{want_shown}",
                st.players[p].color,
                public + hidden_cards
            ));
        }
    }
    Ok(())
}

fn play_games(players: usize, options: &[(&str, &str)], seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let mut last_points = 0;
        let result = sim::play_one(classic_header(players, seed, options, false), |g| {
            check_classic(g)?;
            if let Some(w) = g.winner() {
                if g.state().current != w {
                    return Err("the winner won outside their turn".into());
                }
                last_points = g.points(w, true).map_err(|e| e.to_string())?;
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("seed {seed} ({players} players, {options:?}): {e}"));
        assert!(result.winner.is_some(), "seed {seed}: no winner");
        assert!(last_points >= 10, "seed {seed}: the winner has {last_points} points");
    }
}

/// Seeded bot games of `classic` to a winner, every invariant checked after every action:
/// the beginner board with 4 and 3 players, and the variable board with the set-up rounds.
#[test]
fn bot_games_keep_every_invariant() {
    play_games(4, &[], 0..24);
    play_games(3, &[], 100..108);
    play_games(4, &[("board", "variable"), ("starting_pieces", "false")], 200..208);
}
