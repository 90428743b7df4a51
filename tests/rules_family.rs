//! One test per difference of `family` (variants/family.lua) from `base`: the CATAN Family
//! Edition (../shared/rules/000), its Overview Sheet and FAQ. Each test's doc comment names
//! the rule it checks; seeded bot games check the invariants of base after every action.
//!
//! The island tiles and the Starting Set-up are stand-ins (the printed ones are not in our
//! sources), so the tests check what the rules say of them (the starting resources, the
//! terrain mix, the tile swaps) and find hexes by what is on them, not by fixed labels.
//! Rule positions use the first-game island with the set-up rounds played as
//! `FAMILY_PLACEMENTS` (the island has the base board's shape and labels).

use crate::common;

use catan_engine::{sim, Game, GameError, GameState, Header, ScriptErrorKind};
use common::*;
use std::collections::{BTreeMap, BTreeSet};

fn family_header(players: usize, seed: u64, options: &[(&str, &str)], sandbox: bool) -> Header {
    Header {
        variants: vec!["family".into()],
        players,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    }
}

/// A sandbox game of the first game: all Side A, the fixed Starting Set-up.
fn first_game(players: usize, options: &[(&str, &str)]) -> Game {
    Game::new(family_header(players, 1, options, true)).expect("family starts")
}

/// Set-up placements for rule positions: `common::PLACEMENTS`, but orange's first
/// settlement on the east coast, so that a 5 produces nothing on the first-game island.
const FAMILY_PLACEMENTS: [(&str, &str, &str, &str, &str); 4] = [
    ("red", "15", "15-10", "41", "41-46"),
    ("blue", "24", "24-18", "49", "49-45"),
    ("white", "31", "31-25", "42", "42-37"),
    ("orange", "27", "27-33", "7", "7-3"),
];

/// The first-game island with the set-up rounds played as `FAMILY_PLACEMENTS`, `first` (a
/// colour) to roll on turn 1.
fn custom(first: &str, options: &[(&str, &str)]) -> Game {
    let mut opts = vec![("starting_pieces", "false")];
    opts.extend_from_slice(options);
    for seed in 0..1000 {
        let mut g = Game::new(family_header(4, seed, &opts, true)).expect("family starts");
        if color(&g, starting_player(&g)) == first {
            while g.state().phase == "setup" {
                let s = g.to_act().unwrap();
                let c = color(&g, s);
                let (_, s1, r1, s2, r2) = FAMILY_PLACEMENTS.iter().find(|p| p.0 == c).unwrap();
                let (st, rd) = if count_pieces(&g, s, "settlement") == 0 { (s1, r1) } else { (s2, r2) };
                act(&mut g, s, &format!("settlement {st}"));
                act(&mut g, s, &format!("road {rd}"));
            }
            assert_eq!(g.state().phase, "roll");
            return g;
        }
    }
    panic!("no seed lets {first} start");
}

fn standard() -> Game {
    custom("red", &[])
}

/// Dice for a roll that produces nothing: a sum other than 7 whose hexes have no building
/// on their corners.
fn quiet_dice(g: &Game) -> (u8, u8) {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    for sum in [2u8, 3, 4, 5, 6, 8, 9, 10, 11, 12] {
        let busy = (0..st.hexes.len())
            .filter(|&h| st.hexes[h].number == Some(sum))
            .any(|h| t.hexes[h].corners.iter().any(|&c| st.intersections[c].is_some()));
        if !busy {
            let a = (sum / 2).min(6);
            return (a, sum - a);
        }
    }
    panic!("every number produces");
}

fn quiet_roll(g: &mut Game) {
    let (a, b) = quiet_dice(g);
    roll(g, a, b);
}

fn next_turn(g: &mut Game) {
    if g.state().phase == "roll" {
        quiet_roll(g);
    }
    let s = g.state().current;
    act(g, s, "end");
}

/// Passes turns until `who` rolls, then rolls quietly: `who` is in the trade phase.
fn trade_phase_of(g: &mut Game, who: &str) {
    let s = seat(g, who);
    while g.state().current != s || g.state().phase != "roll" {
        next_turn(g);
    }
    quiet_roll(g);
    assert_eq!(g.state().phase, "trade");
}

/// A command a rule must refuse: the state and log stay exactly as they were, and the
/// refusal names the file:line of the rule. Returns the reason.
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
    assert!(at.starts_with("variants/"), "'{cmd}' refused at {at}");
    e.message.clone()
}

// The island ------------------------------------------------------------------------------

type Hexes = BTreeMap<(i32, i32), (String, Option<u8>)>;

fn hexes(g: &Game) -> Hexes {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    (0..st.hexes.len())
        .map(|h| {
            let terrain = g.spec().terrains[st.hexes[h].terrain as usize].name.clone();
            ((t.hexes[h].q, t.hexes[h].r), (terrain, st.hexes[h].number))
        })
        .collect()
}

fn neighbours((q, r): (i32, i32)) -> [(i32, i32); 6] {
    [(q + 1, r), (q - 1, r), (q + 1, r - 1), (q, r - 1), (q, r + 1), (q - 1, r + 1)]
}

/// What every layout of the island must be: the 19 land hexes of base's island with the
/// standard terrain mix and tokens, the robber in the desert, no 6 or 8 side by side, and
/// 9 harbors (4 generic, one 2:1 per resource) of which no two share an intersection.
fn check_island(g: &Game) {
    let hx = hexes(g);
    assert_eq!(hx.len(), 19);
    let mut terrains: BTreeMap<&str, usize> = BTreeMap::new();
    for (t, _) in hx.values() {
        *terrains.entry(t.as_str()).or_default() += 1;
    }
    let want: BTreeMap<&str, usize> =
        [("desert", 1), ("fields", 4), ("forest", 4), ("hills", 3), ("mountains", 3), ("pasture", 4)].into();
    assert_eq!(terrains, want);
    let mut tokens: Vec<u8> = hx.values().filter_map(|(_, n)| *n).collect();
    tokens.sort();
    assert_eq!(tokens, vec![2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]);
    for (at, (t, n)) in &hx {
        assert_eq!(t == "desert", n.is_none(), "only the desert has no token");
        if matches!(n, Some(6 | 8)) {
            for m in neighbours(*at) {
                assert!(!matches!(hx.get(&m), Some((_, Some(6 | 8)))), "6/8 side by side at {at:?} and {m:?}");
            }
        }
    }
    let st = g.state();
    let desert = (0..st.hexes.len()).find(|&h| st.hexes[h].number.is_none()).unwrap();
    assert_eq!(st.markers["robber"], desert, "the robber starts in the desert");
    let mut kinds: Vec<(Option<String>, u8)> = st.harbors.iter().map(|h| (h.resource.clone(), h.ratio)).collect();
    kinds.sort();
    let mut want: Vec<(Option<String>, u8)> = vec![(None, 3); 4];
    want.extend(["brick", "grain", "lumber", "ore", "wool"].map(|r| (Some(r.to_string()), 2)));
    assert_eq!(kinds, want);
    let t = st.topology.as_ref().unwrap();
    let mut ends = BTreeSet::new();
    for h in st.harbors.iter() {
        let p = &t.paths[h.path];
        assert!(p.hexes.len() == 1, "a harbor lies on the coast");
        for e in p.ends {
            assert!(ends.insert(e), "two harbors share intersection {}", t.intersections[e].label);
        }
    }
}

/// Constructing the Island — the first game lays all six tiles Side A up in the fixed
/// arrangement: a well-formed island (19 land hexes, the standard mix, 9 harbors).
#[test]
fn first_game_island() {
    let g = first_game(4, &[]);
    check_island(&g);
    assert_eq!(hexes(&g), hexes(&first_game(4, &[("starting_pieces", "false")])), "fixed: the same every game");
}

/// Future Games — "flip the island tiles over and try Side B": every hex differs from
/// Side A, and Side B alone is a well-formed, balanced island.
#[test]
fn side_b_differs_everywhere_and_is_balanced() {
    let a = hexes(&first_game(4, &[]));
    let g = first_game(4, &[("board", "side_b")]);
    check_island(&g);
    let b = hexes(&g);
    for (at, face) in &a {
        assert_ne!(Some(face), b.get(at), "hex {at:?} is the same on both sides");
    }
    assert_eq!(g.state().phase, "setup", "no fixed set-up for Side B: the two set-up rounds");
}

/// The six tile positions of family.lua (its SLOTS), as axial coordinates.
const SLOTS: [&[(i32, i32)]; 6] = [
    &[(0, -2), (1, -2), (2, -2), (1, -1)],
    &[(1, 0), (2, -1)],
    &[(2, 0), (1, 1), (0, 2), (0, 1)],
    &[(0, 0), (-1, 1), (-1, 2)],
    &[(-2, 2), (-2, 1), (-2, 0), (-1, 0)],
    &[(0, -1), (-1, -1)],
];

/// What lies in a tile position, as a sorted list (a tile turned to fit keeps its hexes).
fn face(hx: &Hexes, slot: &[(i32, i32)]) -> Vec<(String, Option<u8>)> {
    let mut f: Vec<_> = slot.iter().map(|c| hx[c].clone()).collect();
    f.sort();
    f
}

/// One face of a tile: its hexes' terrains and numbers, sorted.
type Face = Vec<(String, Option<u8>)>;

/// Overview Sheet, Variable Set-up — "swap the 2-hex tiles and/or a couple of the 4-hex
/// tiles. You may use Side A tiles with Side B tiles as you like", then the set-up rounds:
/// every position holds a face of a tile of its size, tiles move and sides mix across
/// seeds, and the island stays well formed.
#[test]
fn variable_setup_swaps_tiles_of_a_size_and_mixes_sides() {
    let (a, b) = (hexes(&first_game(4, &[])), hexes(&first_game(4, &[("board", "side_b")])));
    // tile i's two faces, by the position it has in the first game.
    let faces: Vec<[Face; 2]> = SLOTS.iter().map(|s| [face(&a, s), face(&b, s)]).collect();
    let (mut moved, mut mixed) = (false, false);
    let mut boards = BTreeSet::new();
    for seed in 0..40 {
        let g = Game::new(family_header(4, seed, &[("board", "variable")], true)).unwrap();
        check_island(&g);
        assert_eq!(g.state().phase, "setup");
        let hx = hexes(&g);
        let mut sides = BTreeSet::new();
        for (slot, coords) in SLOTS.iter().enumerate() {
            let here = face(&hx, coords);
            let (tile, side) = (0..6)
                .flat_map(|t| (0..2).map(move |s| (t, s)))
                .find(|&(t, s)| faces[t][s] == here)
                .unwrap_or_else(|| panic!("seed {seed}: position {} holds no tile face", slot + 1));
            assert_eq!(SLOTS[tile].len(), coords.len(), "seed {seed}: a tile in a position of another size");
            moved |= tile != slot;
            sides.insert(side);
        }
        mixed |= sides.len() == 2;
        boards.insert(format!("{hx:?}"));
    }
    assert!(moved && mixed, "tiles trade places and sides mix");
    assert!(boards.len() > 20, "the variable set-up varies ({} boards in 40 games)", boards.len());
}

// Setting up ------------------------------------------------------------------------------

/// Setting Up the Game — the fixed Starting Set-up: 2 settlements and 2 roads per colour;
/// the starred settlements give exactly "Blue ... 1 lumber card, 1 brick card, and 1 ore
/// card. White ... 1 wool card, 1 lumber card, and 1 ore card. Orange ... 2 grain cards and
/// 1 ore card. Red ... 2 lumber cards and 1 grain card."
#[test]
fn starting_resources_exactly_as_listed() {
    let g = first_game(4, &[]);
    // [brick, lumber, wool, grain, ore]
    assert_eq!(hand_of(&g, "blue"), [1, 1, 0, 0, 1]);
    assert_eq!(hand_of(&g, "white"), [0, 1, 1, 0, 1]);
    assert_eq!(hand_of(&g, "orange"), [0, 0, 0, 2, 1]);
    assert_eq!(hand_of(&g, "red"), [0, 2, 0, 1, 0]);
    for s in 0..4 {
        assert_eq!(count_pieces(&g, s, "settlement"), 2);
        assert_eq!(count_pieces(&g, s, "road"), 2);
        assert_eq!(g.points(s, true).unwrap(), 2);
    }
    assert_eq!((g.state().phase.as_str(), g.state().turn), ("roll", 1));
    check_invariants(&g).unwrap();
}

/// Turn Overview — "The youngest player takes the first turn": the first seat unless the
/// option first_player names the youngest; in the Variable Set-up the highest roll starts
/// the set-up rounds unless first_player is given.
#[test]
fn youngest_player_takes_the_first_turn() {
    assert_eq!(first_game(4, &[]).to_act().unwrap(), 0);
    let g = first_game(4, &[("first_player", "3")]);
    assert_eq!(color(&g, g.to_act().unwrap()), "white");
    assert_eq!(g.state().current, 2);
    for seed in 0..10 {
        let g = Game::new(family_header(4, seed, &[("board", "variable"), ("first_player", "2")], true)).unwrap();
        assert_eq!(g.state().phase, "setup");
        assert_eq!(color(&g, g.to_act().unwrap()), "blue", "seed {seed}: no start roll");
    }
    let err = Game::new(family_header(3, 1, &[("first_player", "4")], false)).err().expect("no seat 4 of 3");
    assert!(err.to_string().contains("first_player"), "{err}");
}

/// Setting Up the Game — "Remove the orange pieces from the game if you only have 3
/// players": red, blue and white keep their starting pieces and resources.
#[test]
fn three_players_remove_orange() {
    let g = first_game(3, &[]);
    let colors: Vec<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
    assert_eq!(colors, vec!["red", "blue", "white"]);
    assert_eq!(g.state().intersections.iter().flatten().count(), 6);
    assert_eq!(hand_of(&g, "red"), [0, 2, 0, 1, 0]);
    assert_eq!(hand_of(&g, "blue"), [1, 1, 0, 0, 1]);
    assert_eq!(hand_of(&g, "white"), [0, 1, 1, 0, 1]);
    check_invariants(&g).unwrap();
}

/// The Family set-up rules are switches of base, usable as house rules on base itself:
/// `three_player_out` (which colour sits out with 3) and `first_player` (who starts).
#[test]
fn the_family_setup_rules_are_switches_of_base() {
    let g = common::beginner(3, &[("three_player_out", "orange")]);
    let colors: Vec<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
    assert_eq!(colors, vec!["red", "blue", "white"]);
    assert_eq!(common::beginner(3, &[]).state().players[0].color, "blue", "base: red sits out");
    let g = common::beginner(4, &[("first_player", "4")]);
    assert_eq!(color(&g, g.to_act().unwrap()), "orange");
    assert_eq!(g.state().turn, 1);
}

// The robber and production ---------------------------------------------------------------

/// Rolling a "7" (1) — "move the robber immediately to any other terrain hex"; FAQ, The
/// Robber — "You may not choose to leave the robber on the same hex": the desert is a
/// terrain hex like the others.
#[test]
fn robber_to_any_other_terrain_hex() {
    let mut g = standard();
    let desert = robber(&g);
    roll(&mut g, 3, 4);
    let why = refuse(&mut g, "red", &format!("robber {desert}"));
    assert!(why.contains("another hex"), "{why}");
    assert_eq!(legal_of(&g, "red").len(), 18);
    act_as(&mut g, "red", "robber H1");
    next_turn(&mut g);
    roll(&mut g, 3, 4);
    refuse(&mut g, "blue", "robber H1");
    assert!(legal_of(&g, "blue").contains(&format!("robber {desert}")));
    act_as(&mut g, "blue", &format!("robber {desert}"));
}

/// FAQ, Producing Resources — "What if there aren't enough resource cards to give every
/// player all the production they earn? No one receives any of the restricted resource":
/// even when only one player is owed it (base's exception does not apply).
#[test]
fn a_short_resource_goes_to_nobody() {
    let mut g = standard();
    let (a, b) = quiet_dice(&g);
    let sum = a + b;
    // A hex of that number: a blue city on it, and all but one of its resource in red's hand.
    let (hex, r) = {
        let st = g.state();
        let h = (0..st.hexes.len()).find(|&h| st.hexes[h].number == Some(sum)).unwrap();
        let t = st.topology.as_ref().unwrap();
        let terrain = &g.spec().terrains[st.hexes[h].terrain as usize];
        let r = g.spec().cards[terrain.produces.unwrap()].name.clone();
        (t.hexes[h].label.clone(), r)
    };
    let corner = corners(&g, &hex)[0].clone();
    sb(&mut g, &format!("place city {corner} blue"));
    let left = bank(&g, &r) - 1;
    sb(&mut g, &format!("give red {left} {r}"));
    let before = hand_of(&g, "blue");
    roll(&mut g, a, b);
    assert_eq!(hand_of(&g, "blue"), before, "blue alone is owed 2 {r}, the bank has 1: nobody gets it");
    assert_eq!(bank(&g, &r), 1);
}

// Longest Road ----------------------------------------------------------------------------

/// Red's road of 7 (20-15-10-14-9-13-8-12) and blue's road of 5 (13-18-24-30-35-40).
fn red_seven_blue_five(g: &mut Game) {
    for r in ["20-15", "10-14", "14-9", "9-13", "13-8"] {
        sb(g, &format!("place road {r} red"));
    }
    trade_phase_of(g, "red");
    build(g, "red", "road 8-12");
    assert_eq!(road_len(g, "red"), 7);
    assert_eq!(holder(g, "longest_road").as_deref(), Some("red"));
    for r in ["18-13", "24-30", "30-35"] {
        sb(g, &format!("place road {r} blue"));
    }
    trade_phase_of(g, "blue");
    build(g, "blue", "road 35-40");
    assert_eq!(road_len(g, "blue"), 5);
    assert_eq!(holder(g, "longest_road").as_deref(), Some("red"));
}

/// FAQ, Longest Road — "What happens if my 'Longest Road' is broken? ... if several players
/// have the same lengths of road segments, set the 'Longest Road' card aside—until only 1
/// player has the longest road": the holder's broken road tied with another sets the card
/// aside (base: a holder still tied keeps it).
#[test]
fn longest_road_set_aside_when_a_break_leaves_a_tie() {
    let mut g = standard();
    red_seven_blue_five(&mut g);
    build(&mut g, "blue", "settlement 13");
    assert_eq!((road_len(&g, "red"), road_len(&g, "blue")), (5, 5));
    assert_eq!(holder(&g, "longest_road"), None, "5 against 5 after the break: aside");
    assert_eq!(points(&g, "red"), 2);
    build(&mut g, "blue", "road 40-44");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("blue"), "one player alone has the longest");
    check_invariants(&g).unwrap();
}

/// Build, Road — "If another player succeeds in building a longer road than the one
/// created by the current owner ..., he immediately takes the special card": an equal road
/// built without a break does not move or set aside the card.
#[test]
fn longest_road_an_equal_road_does_not_take_it() {
    let mut g = standard();
    red_seven_blue_five(&mut g);
    build(&mut g, "blue", "road 40-44");
    build(&mut g, "blue", "road 44-48");
    assert_eq!(road_len(&g, "blue"), 7);
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("red"), "7 against 7, nothing broken");
    build(&mut g, "blue", "road 48-52");
    assert_eq!(holder(&g, "longest_road").as_deref(), Some("blue"));
}

// The turn --------------------------------------------------------------------------------

/// Turn Overview — "On your turn, you can do the following in the order listed: Produce
/// Resources, Trade, Build": nothing before the roll, trade first, no trade once built.
#[test]
fn produce_then_trade_then_build() {
    let mut g = standard();
    sb(&mut g, "give red 8 wool 2 brick 2 lumber");
    refuse(&mut g, "red", "trade 4 wool for ore");
    refuse(&mut g, "red", "road 10-6");
    quiet_roll(&mut g);
    assert_eq!(g.state().phase, "trade");
    act_as(&mut g, "red", "trade 4 wool for ore");
    act_as(&mut g, "red", "road 10-6");
    assert_eq!(g.state().phase, "build");
    refuse(&mut g, "red", "trade 4 wool for grain");
    refuse(&mut g, "red", "offer wool for grain");
    act_as(&mut g, "red", "road 6-2");
    act_as(&mut g, "red", "end");
}

/// Turn Overview — "You may also play 1 development card at any time during your turn"
/// (FAQ: "even before you roll the dice"): before the roll, in the trade phase or after
/// building, but one card per turn.
#[test]
fn one_development_card_at_any_time_of_the_turn() {
    let mut g = standard();
    trade_phase_of(&mut g, "red");
    buy_until(&mut g, "red", "knight", 3);
    next_turn(&mut g);
    // Before the roll.
    while g.state().current != seat(&g, "red") {
        next_turn(&mut g);
    }
    act_as(&mut g, "red", "play knight");
    act_as(&mut g, "red", "robber H1");
    assert_eq!(g.state().phase, "roll");
    refuse(&mut g, "red", "play knight");
    next_turn(&mut g);
    // In the trade phase.
    trade_phase_of(&mut g, "red");
    act_as(&mut g, "red", "play knight");
    act_as(&mut g, "red", "robber H3");
    assert_eq!(g.state().phase, "trade");
    next_turn(&mut g);
    // After building.
    trade_phase_of(&mut g, "red");
    build(&mut g, "red", "road 10-6");
    assert_eq!(g.state().phase, "build");
    act_as(&mut g, "red", "play knight");
    act_as(&mut g, "red", "robber H1");
    assert_eq!(g.state().phase, "build");
    assert_eq!(played(&g, seat(&g, "red"), "knight"), 3);
}

/// Domestic Trade and FAQ, Trading — "Players may only trade with the player whose turn it
/// is"; "You may not give away cards"; "You may not trade like resources"; "If it is not
/// my turn ... You cannot perform maritime trades"; no development cards; 4:1 needs no harbor.
#[test]
fn the_faq_trade_rules() {
    let mut g = standard();
    sb(&mut g, "give red 5 ore");
    sb(&mut g, "give blue 4 wool");
    quiet_roll(&mut g);
    let why = refuse(&mut g, "red", "offer ore for");
    assert!(why.contains("gift"), "{why}");
    refuse(&mut g, "red", "offer for brick");
    let why = refuse(&mut g, "red", "offer ore for ore");
    assert!(why.contains("like"), "{why}");
    refuse(&mut g, "red", "trade 4 ore for ore");
    refuse(&mut g, "red", "offer knight for brick");
    refuse(&mut g, "blue", "trade 4 wool for brick");
    refuse(&mut g, "blue", "offer wool for ore");
    act_as(&mut g, "red", "offer ore for wool");
    act_as(&mut g, "blue", "accept");
    act_as(&mut g, "white", "decline");
    act_as(&mut g, "orange", "decline");
    refuse(&mut g, "white", "confirm blue");
    act_as(&mut g, "red", "confirm blue");
    act_as(&mut g, "red", "trade 4 ore for brick");
}

// Whole games -----------------------------------------------------------------------------

fn play_games(players: usize, options: &[(&str, &str)], seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let mut last_points = 0;
        let result = sim::play_one(family_header(players, seed, options, false), |g| {
            check_invariants(g)?;
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

/// Seeded bot games of `family` to a winner, the invariants of base checked after every
/// action: the first game with 4 and 3 players, Side B and the Variable Set-up.
#[test]
fn bot_games_keep_every_invariant() {
    play_games(4, &[], 0..24);
    play_games(3, &[], 100..108);
    play_games(4, &[("board", "side_b")], 200..208);
    play_games(4, &[("board", "variable")], 300..308);
}
