//! One test per rule of the 5-6 player game in `base`: the 25th Anniversary "5-6 Player
//! Rules" with the Special Building Phase (../shared/rules/003) and the newest "5-6 Player
//! Expansion" with paired players (../shared/rules/001); board data from
//! ../shared/reference/catan_boards.md (B3, B4). Each test's doc comment names its rule.
//!
//! Positions start from the stand-in map (`board=stand_in`: fixed terrain, numbers and
//! starting pieces, red to roll on turn 1) in sandbox mode; the tests read positions from
//! the state rather than naming intersections, so the stand-in data may change.

use crate::common;

use catan_engine::value::Value;
use catan_engine::Game;
use common::*;
use std::collections::BTreeSet;

/// Number tokens A-Y, Za, Zb, Zc (reference B3).
const TOKENS_56: [u8; 28] =
    [2, 5, 4, 6, 3, 9, 8, 11, 11, 10, 6, 3, 8, 4, 8, 10, 11, 12, 10, 5, 4, 9, 5, 9, 12, 3, 2, 6];

const COSTS: [(&str, &[(&str, usize)]); 4] = [
    ("road", &[("brick", 1), ("lumber", 1)]),
    ("settlement", &[("brick", 1), ("lumber", 1), ("wool", 1), ("grain", 1)]),
    ("city", &[("ore", 3), ("grain", 2)]),
    ("development", &[("ore", 1), ("wool", 1), ("grain", 1)]),
];

/// A sandbox game on the stand-in 5-6 map with its starting pieces: red to roll on turn 1.
fn game56(players: usize, options: &[(&str, &str)]) -> Game {
    let mut opts = vec![("board", "stand_in")];
    opts.extend_from_slice(options);
    Game::new(header(players, 1, &opts, true)).expect("a 5-6 player game starts")
}

fn paired(players: usize, options: &[(&str, &str)]) -> Game {
    let mut opts = vec![("turn_structure", "paired")];
    opts.extend_from_slice(options);
    game56(players, &opts)
}

fn terrain(g: &Game, h: usize) -> String {
    g.spec().terrains[g.state().hexes[h].terrain as usize].name.clone()
}

fn phase(g: &Game) -> String {
    g.state().phase.clone()
}

fn current(g: &Game) -> String {
    color(g, g.state().current)
}

/// Dice (not a 7) whose sum pays the fewest cards on this position: the stand-in map has
/// a building on some hex of every number, so a roll may pay a card or two.
fn quiet_dice(g: &Game) -> (u8, u8) {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    let sum = [12u8, 2, 11, 3, 10, 4, 9, 5, 8, 6]
        .into_iter()
        .min_by_key(|&n| {
            (0..st.hexes.len())
                .filter(|&h| st.hexes[h].number == Some(n))
                .map(|h| t.hexes[h].corners.iter().filter(|&&c| st.intersections[c].is_some()).count())
                .sum::<usize>()
        })
        .unwrap();
    (sum.div_ceil(2), sum / 2)
}

fn quiet_roll(g: &mut Game) {
    let (a, b) = quiet_dice(g);
    roll(g, a, b);
}

/// Labels of the settlements of a colour.
fn settlements_of(g: &Game, who: &str) -> Vec<String> {
    let s = seat(g, who);
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    let k = g.spec().piece("settlement").unwrap();
    (0..st.intersections.len())
        .filter(|&i| st.intersections[i].is_some_and(|p| p.seat() == Some(s) && p.kind as usize == k))
        .map(|i| t.intersections[i].label.clone())
        .collect()
}

/// Can `seat` pay for `what` from the hand?
fn can_pay(g: &Game, seat: usize, what: &str) -> bool {
    let cost = COSTS.iter().find(|(w, _)| *w == what).unwrap().1;
    cost.iter().all(|(r, n)| hand(g, seat, r) >= *n)
}

/// Every open Special Building Phase is passed, until the next turn begins.
fn pass_special_building(g: &mut Game) {
    while phase(g) == "special_building" {
        let s = g.state().current;
        act(g, s, "pass");
    }
}

/// The `marker` a seat shows (describe), e.g. "player 1".
fn marker(g: &Game, who: &str) -> Option<String> {
    match g.describe(seat(g, who)).unwrap() {
        Value::Map(m) => m.get("marker").map(|v| v.to_string()),
        _ => None,
    }
}

/// A hex with no building of any player on its corners and without the robber.
fn empty_hex(g: &Game) -> String {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    let h = (0..t.hexes.len())
        .find(|&h| st.markers["robber"] != h && t.hexes[h].corners.iter().all(|&c| st.intersections[c].is_none()))
        .expect("an empty hex");
    t.hexes[h].label.clone()
}

/// Plays a knight and moves the robber where nobody is robbed.
fn knight_quietly(g: &mut Game, who: &str) {
    act_as(g, who, "play knight");
    assert_eq!(phase(g), "robber");
    let to = empty_hex(g);
    act_as(g, who, &format!("robber {to}"));
}

/// The first road a colour may build now, as listed.
fn some_road(g: &Game, who: &str) -> String {
    legal_of(g, who).into_iter().find(|a| a.starts_with("road ")).unwrap_or_else(|| panic!("{who} may build no road"))
}

// Board and components --------------------------------------------------------------------

/// Checks the larger island: 30 land hexes in rows 3-4-5-6-5-4-3 (forest, pasture, fields
/// 6 each; hills, mountains 5 each; 2 deserts), the 28 tokens A-Zc on all but the deserts,
/// the robber on a desert, and 11 coastal harbors: the base nine plus a 3:1 and a wool 2:1.
fn check_larger_island(g: &Game) {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    let coords: BTreeSet<(i32, i32)> = t.hexes.iter().map(|h| (h.q, h.r)).collect();
    let rows: [(i32, i32, i32); 7] =
        [(-3, 0, 2), (-2, -1, 2), (-1, -2, 2), (0, -3, 2), (1, -3, 1), (2, -3, 0), (3, -3, -1)];
    let want: BTreeSet<(i32, i32)> = rows.iter().flat_map(|&(r, a, b)| (a..=b).map(move |q| (q, r))).collect();
    assert_eq!(coords, want, "rows of 3-4-5-6-5-4-3");
    let mut terrains: Vec<String> = (0..st.hexes.len()).map(|h| terrain(g, h)).collect();
    terrains.sort();
    let mut want_t: Vec<String> =
        [("desert", 2), ("fields", 6), ("forest", 6), ("hills", 5), ("mountains", 5), ("pasture", 6)]
            .iter()
            .flat_map(|(t, n)| std::iter::repeat_n(t.to_string(), *n))
            .collect();
    want_t.sort();
    assert_eq!(terrains, want_t);
    for h in 0..st.hexes.len() {
        assert_eq!(
            terrain(g, h) == "desert",
            st.hexes[h].number.is_none(),
            "H{}: tokens on all but the deserts",
            h + 1
        );
    }
    let mut tokens: Vec<u8> = st.hexes.iter().filter_map(|h| h.number).collect();
    tokens.sort();
    let mut all = TOKENS_56.to_vec();
    all.sort();
    assert_eq!(tokens, all, "the 28 tokens A-Zc");
    assert_eq!(terrain(g, st.markers["robber"]), "desert", "the robber starts on a desert");
    let mut harbors: Vec<(Option<String>, u8)> = st.harbors.iter().map(|h| (h.resource.clone(), h.ratio)).collect();
    harbors.sort();
    let mut want_h: Vec<(Option<String>, u8)> = vec![(None, 3); 5];
    for r in RESOURCES {
        want_h.push((Some(r.to_string()), 2));
    }
    want_h.push((Some("wool".to_string()), 2));
    want_h.sort();
    assert_eq!(harbors, want_h, "11 harbors: five 3:1, two wool 2:1, one 2:1 of each other resource");
    for h in st.harbors.iter() {
        assert_eq!(t.paths[h.path].hexes.len(), 1, "harbors lie on the coast");
    }
}

/// 5-6 Player Rules, Assembling the Larger Board / 5-6 Player Expansion, Additional
/// Components — 30 land hexes, 28 number tokens, 11 harbors, the robber on a desert; on
/// every kind of board, with 5 and 6 players.
#[test]
fn larger_board_of_thirty_hexes() {
    for players in [5, 6] {
        for board in ["variable", "random", "stand_in"] {
            for seed in 0..10 {
                let g =
                    Game::new(header(players, seed, &[("board", board), ("starting_pieces", "false")], false)).unwrap();
                check_larger_island(&g);
            }
        }
    }
}

/// 5-6 Player Rules, Assembling the Larger Board (4) / 5-6 Player Expansion, Variable
/// Setup (3) — tokens A..Y, Za, Zb, Zc laid from any corner of the board counter-clockwise
/// in a spiral toward the centre, skipping both deserts; terrain and harbors shuffled.
#[test]
fn tokens_a_to_zc_follow_the_spiral_skipping_both_deserts() {
    let mut starts = BTreeSet::new();
    let mut layouts = BTreeSet::new();
    for seed in 0..200 {
        let g = Game::new(header(6, seed, &[("board", "variable")], false)).unwrap();
        let st = g.state();
        let t = st.topology.as_ref().unwrap();
        let corners: Vec<usize> = (0..t.hexes.len()).filter(|&h| t.hexes[h].neighbors.len() == 3).collect();
        assert_eq!(corners.len(), 6, "the larger board has six corners");
        let from: Vec<usize> = corners
            .iter()
            .copied()
            .filter(|&c| {
                let laid: Vec<u8> = t
                    .spiral(c)
                    .into_iter()
                    .filter(|&h| terrain(&g, h) != "desert")
                    .map(|h| st.hexes[h].number.unwrap_or(0))
                    .collect();
                laid == TOKENS_56
            })
            .collect();
        assert!(!from.is_empty(), "seed {seed}: the tokens do not follow the spiral from any corner");
        starts.insert(from[0]);
        layouts.insert(
            (0..st.hexes.len())
                .map(|h| terrain(&g, h))
                .chain(st.harbors.iter().map(|h| format!("{h:?}")))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(starts.len(), 6, "the spiral starts at every corner over many seeds");
    assert!(layouts.len() > 190, "terrain and harbors are shuffled");
}

/// Almanac: Set-up, Variable, Important, on the larger board — fully random tokens, but no
/// two red numbers (6 and 8) on adjacent hexes.
#[test]
fn random_tokens_keep_red_numbers_apart_on_the_larger_board() {
    for seed in 0..100 {
        let g = Game::new(header(5, seed, &[("board", "random")], false)).unwrap();
        let st = g.state();
        let t = st.topology.as_ref().unwrap();
        let red = |h: usize| matches!(st.hexes[h].number, Some(6) | Some(8));
        for h in 0..t.hexes.len() {
            for &n in &t.hexes[h].neighbors {
                assert!(!(red(h) && red(n)), "seed {seed}: red numbers on H{} and H{}", h + 1, n + 1);
            }
        }
    }
}

/// 5-6 Player Expansion, Setup — the printed fixed map is not in our sources, so with 5-6
/// players the default board (`beginner`) is the variable set-up with its two set-up
/// rounds; `stand_in` is our fixed map, the same for every seed, and only for 5-6 players.
#[test]
fn variable_set_up_is_the_default_with_five_or_six() {
    let a = Game::new(header(6, 1, &[], false)).unwrap();
    let b = Game::new(header(6, 2, &[], false)).unwrap();
    assert_eq!(a.state().phase, "setup", "the set-up rounds");
    assert_ne!(a.state().hexes, b.state().hexes, "a variable board");
    check_larger_island(&a);
    let s1 = game56(6, &[]);
    let s2 = Game::new(header(6, 9, &[("board", "stand_in")], true)).unwrap();
    assert_eq!(s1.state().hexes, s2.state().hexes);
    assert_eq!(s1.state().harbors, s2.state().harbors);
    assert_eq!(s1.state().phase, "roll", "fixed starting pieces");
    for p in 0..6 {
        assert_eq!(count_pieces(&s1, p, "settlement"), 2);
        assert_eq!(count_pieces(&s1, p, "road"), 2);
    }
    let err = Game::new(header(4, 1, &[("board", "stand_in")], false)).err().expect("3-4 players refuse stand_in");
    assert!(err.to_string().contains("board=stand_in is the 5-6 player stand-in map"), "{err}");
}

/// 5-6 Player Expansion, Additional Components / reference B4 — 25 more resource cards (24
/// of each) and 9 more development cards: 20 knights, 5 victory points, 3 of each progress
/// card, 34 in all.
#[test]
fn supply_of_24_each_and_34_development_cards() {
    let g = Game::new(header(5, 3, &[], false)).unwrap();
    assert_eq!(g.state().phase, "setup");
    assert_eq!(bank_vec(&g), [24; 5]);
    for (d, n) in DEVELOPMENT_56 {
        assert_eq!(zone_count(&g, None, "deck", d), n, "{d}");
    }
    assert_eq!(zone_total(&g, None, "deck"), 34);
    check_invariants(&g).unwrap();
    // 3-4 players keep the base supply.
    let g = Game::new(header(4, 3, &[("starting_pieces", "false")], false)).unwrap();
    assert_eq!(bank_vec(&g), [19; 5]);
    assert_eq!(zone_total(&g, None, "deck"), 25);
}

/// 5-6 Player Expansion, Additional Components — two more sets of pieces, brown and green:
/// six colours, each with 15 roads, 5 settlements and 4 cities.
#[test]
fn six_colours_with_green_and_brown() {
    let g = Game::new(header(6, 1, &[], false)).unwrap();
    let colors: Vec<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
    assert_eq!(colors, ["red", "blue", "white", "orange", "green", "brown"]);
    for (p, who) in colors.iter().enumerate() {
        for (piece, n) in PIECES {
            assert_eq!(supply(&g, p, piece), n, "{who} {piece}");
        }
    }
    let g = Game::new(header(5, 1, &[], false)).unwrap();
    let colors: Vec<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
    assert_eq!(colors, ["red", "blue", "white", "orange", "green"]);
}

/// 5-6 Player Expansion, Fixed Setup (4) — with 5 players the colours are drawn at random
/// and the one left over is not used; its settlements stay on the board without roads. They
/// belong to nobody: they produce nothing, score nothing, and block building (the Distance
/// Rule) and roads like any other player's settlement.
#[test]
fn five_players_unused_colour_settlements_stay_as_blockers() {
    let mut unused = BTreeSet::new();
    for seed in 0..40 {
        let g = Game::new(header(5, seed, &[("board", "stand_in")], false)).unwrap();
        let colors: BTreeSet<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
        let all = ["red", "blue", "white", "orange", "green", "brown"];
        let out: Vec<&str> = all.iter().copied().filter(|c| !colors.contains(*c)).collect();
        assert_eq!(out.len(), 1);
        unused.insert(out[0].to_string());
    }
    assert!(unused.len() >= 4, "the unused colour is drawn at random: {unused:?}");

    let mut g = game56(5, &[]);
    let st = g.state().clone();
    let t = st.topology.as_ref().unwrap();
    let blockers: Vec<usize> =
        (0..st.intersections.len()).filter(|&i| st.intersections[i].is_some_and(|p| p.seat().is_none())).collect();
    assert_eq!(blockers.len(), 2, "the unused colour's two settlements");
    assert!(st.paths.iter().all(|p| p.is_none_or(|p| p.seat().is_some())), "without roads");
    assert_eq!(piece_at(&g, &t.intersections[blockers[0]].label), Some(("settlement".into(), "nobody".into())));
    for p in 0..5 {
        assert_eq!(points(&g, &color(&g, p)), 2, "they score for nobody");
    }
    check_invariants(&g).unwrap();

    // They produce nothing: a roll of a blocker's number pays only the players' buildings.
    let h = t.intersections[blockers[0]].hexes.iter().copied().find(|&h| st.hexes[h].number.is_some()).unwrap();
    let n = st.hexes[h].number.unwrap();
    let owed: usize = (0..st.hexes.len())
        .filter(|&x| st.hexes[x].number == Some(n) && x != st.markers["robber"])
        .flat_map(|x| t.hexes[x].corners.iter().filter_map(|&c| st.intersections[c]))
        .filter_map(|p| p.seat().map(|_| if g.spec().pieces[p.kind as usize].name == "city" { 2 } else { 1 }))
        .sum();
    let before: usize = bank_vec(&g).iter().sum();
    roll(&mut g, n.div_ceil(2), n / 2);
    assert_eq!(before - bank_vec(&g).iter().sum::<usize>(), owed, "{n} pays the players' buildings only");

    // They block: no settlement next to one, no road through one.
    let b = blockers[0];
    let near = t.intersections[b].neighbors[0];
    let far = t.intersections[near].neighbors.iter().copied().find(|&m| m != b).unwrap();
    let path_label =
        |x: usize, y: usize| t.paths.iter().find(|p| p.ends.contains(&x) && p.ends.contains(&y)).unwrap().label.clone();
    let me = current(&g);
    sb(&mut g, &format!("place road {} {me}", path_label(far, near)));
    sb(&mut g, &format!("give {me} brick lumber wool grain"));
    let why = reject(&mut g, &me, &format!("settlement {}", t.intersections[near].label));
    assert!(why.contains("Distance Rule"), "{why}");
    sb(&mut g, &format!("place road {} {me}", path_label(near, b)));
    let listed = legal_of(&g, &me);
    for &m in &t.intersections[b].neighbors {
        if m != near {
            let beyond = format!("road {}", path_label(b, m));
            assert!(!listed.contains(&beyond), "{beyond} would pass through the blocker");
            reject(&mut g, &me, &beyond);
        }
    }
}

/// Option turn_structure changes nothing with 3-4 players: the dice pass to the left at
/// once, with no Special Building Phase or paired turn.
#[test]
fn three_or_four_players_keep_the_base_turn() {
    for ts in ["special_building", "paired"] {
        let mut g = custom(4, "red", &[("turn_structure", ts)]);
        sb(&mut g, "give blue brick lumber 3 ore 2 grain");
        roll(&mut g, 6, 6);
        act_as(&mut g, "red", "end");
        assert_eq!((current(&g), phase(&g)), ("blue".to_string(), "roll".to_string()));
        assert_eq!(var(&g, "paired"), None);
        assert_eq!(marker(&g, "red"), None);
    }
}

// The Special Building Phase (003) -----------------------------------------------------------

/// 5-6 Player Rules, The Special Building Phase — after each turn, each other player in
/// clockwise order takes a Special Building Phase (the REPL and the bots are asked in turn:
/// `to_act` is the builder); then the dice pass to the left of the player whose turn ended.
#[test]
fn special_building_phase_after_each_turn_clockwise() {
    let mut g = game56(6, &[]);
    for who in ["blue", "white", "orange", "green", "brown", "red"] {
        sb(&mut g, &format!("give {who} brick lumber"));
    }
    quiet_roll(&mut g);
    act_as(&mut g, "red", "end");
    let mut order = vec![];
    while phase(&g) == "special_building" {
        let s = g.to_act().unwrap();
        assert_eq!(s, g.state().current);
        assert_eq!(g.state().turn, 1, "still turn 1: the phase is between turns");
        for other in 0..6 {
            if other != s {
                assert!(legal(&g, other).is_empty(), "only the builder acts");
            }
        }
        order.push(color(&g, s));
        act(&mut g, s, "pass");
    }
    assert_eq!(order, ["blue", "white", "orange", "green", "brown"]);
    assert_eq!((current(&g), phase(&g), g.state().turn), ("blue".to_string(), "roll".to_string(), 2));
    // After blue's turn, the others from white round to red.
    for who in ["red", "white", "orange", "green", "brown"] {
        sb(&mut g, &format!("give {who} brick lumber"));
    }
    quiet_roll(&mut g);
    act_as(&mut g, "blue", "end");
    let mut order = vec![];
    while phase(&g) == "special_building" {
        order.push(current(&g));
        let s = g.state().current;
        act(&mut g, s, "pass");
    }
    assert_eq!(order, ["white", "orange", "green", "brown", "red"]);
    assert_eq!(current(&g), "white");
}

/// 5-6 Player Rules, The Special Building Phase — the builder may build roads,
/// settlements and cities and buy development cards, paid from the hand.
#[test]
fn special_building_builds_and_buys_from_the_hand() {
    let mut g = game56(6, &[]);
    quiet_roll(&mut g);
    sb(&mut g, "give blue 2 brick 2 lumber wool 3 grain 4 ore");
    act_as(&mut g, "red", "end");
    assert_eq!((current(&g), phase(&g)), ("blue".to_string(), "special_building".to_string()));
    let s = seat(&g, "blue");
    let before = hand_vec(&g, s);
    let road = some_road(&g, "blue");
    act_as(&mut g, "blue", &road);
    let city = format!("city {}", settlements_of(&g, "blue")[0]);
    act_as(&mut g, "blue", &city);
    act_as(&mut g, "blue", "buy");
    assert_eq!(zone_total(&g, Some(s), "dev_new"), 1);
    assert_eq!(count_pieces(&g, s, "road"), 3);
    assert_eq!(count_pieces(&g, s, "city"), 1);
    let spent = [1, 1, 1, 3, 4]; // brick, lumber, wool, grain, ore
    let after = hand_vec(&g, s);
    for i in 0..5 {
        assert_eq!(before[i] - after[i], spent[i], "{}", RESOURCES[i]);
    }
    check_invariants(&g).unwrap();
    // A settlement too, where a road of blue's (placed by the sandbox) reaches an open site.
    let (site, path) = {
        let st = g.state();
        let t = st.topology.as_ref().unwrap();
        let x = (0..st.intersections.len())
            .find(|&x| {
                st.intersections[x].is_none()
                    && t.intersections[x].neighbors.iter().all(|&n| st.intersections[n].is_none())
            })
            .unwrap();
        (t.intersections[x].label.clone(), t.paths[t.intersections[x].paths[0]].label.clone())
    };
    sb(&mut g, &format!("place road {path} blue"));
    sb(&mut g, "give blue brick lumber wool grain");
    act_as(&mut g, "blue", &format!("settlement {site}"));
    assert_eq!(count_pieces(&g, s, "settlement"), 2, "one became a city, one is new");
    assert_eq!(current(&g), "blue");
}

/// 5-6 Player Rules, The Special Building Phase — "you are not allowed to play development
/// cards, nor trade with other players, nor use maritime trade"; nor roll or end a turn.
#[test]
fn special_building_no_trade_no_card_play() {
    let mut g = game56(6, &[]);
    quiet_roll(&mut g);
    // Blue holds a knight bought in an earlier turn, 4 ore and cards to build.
    act_as(&mut g, "red", "end");
    pass_special_building(&mut g);
    quiet_roll(&mut g);
    sb(&mut g, "give blue 6 ore 6 wool 6 grain");
    while dev_new(&g, seat(&g, "blue"), "knight") == 0 {
        act_as(&mut g, "blue", "buy");
    }
    act_as(&mut g, "blue", "end");
    pass_special_building(&mut g);
    quiet_roll(&mut g);
    sb(&mut g, "give blue brick lumber");
    act_as(&mut g, "white", "end");
    pass_until(&mut g, "blue");
    assert_eq!((current(&g), phase(&g)), ("blue".to_string(), "special_building".to_string()));
    assert!(dev(&g, seat(&g, "blue"), "knight") > 0);
    for cmd in ["play knight", "trade 4 ore for brick", "offer ore for brick", "roll", "end"] {
        reject(&mut g, "blue", cmd);
    }
    let listed = legal_of(&g, "blue");
    assert!(listed.iter().all(|a| ["road ", "settlement ", "city ", "buy", "pass"].iter().any(|k| a.starts_with(k))));
    assert!(listed.contains(&"pass".to_string()));
    // Nobody else may trade with the builder either: there is no offer to answer.
    reject(&mut g, "white", "accept");
}

/// Passes Special Building Phases until `who` builds.
fn pass_until(g: &mut Game, who: &str) {
    while phase(g) == "special_building" && current(g) != who {
        let s = g.state().current;
        act(g, s, "pass");
    }
}

/// 5-6 Player Rules, The Special Building Phase — players build "anything you can create
/// with your resource cards": a player who can build nothing is not asked, and a builder
/// with nothing left to build is done without passing.
#[test]
fn special_building_asks_only_who_can_build() {
    let mut g = game56(6, &[]);
    quiet_roll(&mut g);
    let may = |g: &Game, s: usize| {
        can_pay(g, s, "road") || can_pay(g, s, "city") || can_pay(g, s, "development") || can_pay(g, s, "settlement")
    };
    let expected: Vec<String> = (1..6).filter(|&s| may(&g, s)).map(|s| color(&g, s)).collect();
    assert!(expected.len() < 5, "someone cannot build from the starting cards");
    act_as(&mut g, "red", "end");
    let mut asked = vec![];
    while phase(&g) == "special_building" {
        asked.push(current(&g));
        let s = g.state().current;
        act(&mut g, s, "pass");
    }
    assert_eq!(asked, expected);
    // A builder who can afford exactly one road builds it and is done.
    let nobody: Vec<usize> = (0..6).filter(|&s| s != g.state().current && !may(&g, s)).collect();
    let who = color(&g, nobody[0]);
    sb(&mut g, &format!("give {who} brick lumber"));
    quiet_roll(&mut g);
    let me = current(&g);
    act_as(&mut g, &me, "end");
    pass_until(&mut g, &who);
    assert_eq!(current(&g), who);
    let road = some_road(&g, &who);
    act_as(&mut g, &who, &road);
    assert_ne!(current(&g), who, "{who} has nothing more to build");
}

/// 5-6 Player Rules, The Special Building Phase / Playing Development Cards — a card bought
/// in a Special Building Phase was not bought in the builder's own turn: it may be played in
/// that turn, even before the roll.
#[test]
fn card_bought_in_special_building_is_playable_in_own_turn() {
    let mut g = game56(6, &[]);
    quiet_roll(&mut g);
    sb(&mut g, "give blue 6 ore 6 wool 6 grain");
    act_as(&mut g, "red", "end");
    assert_eq!(current(&g), "blue");
    while dev_new(&g, seat(&g, "blue"), "knight") == 0 {
        act_as(&mut g, "blue", "buy");
    }
    act_as(&mut g, "blue", "pass");
    pass_special_building(&mut g);
    assert_eq!((current(&g), phase(&g)), ("blue".to_string(), "roll".to_string()));
    knight_quietly(&mut g, "blue");
    assert_eq!(played(&g, seat(&g, "blue"), "knight"), 1);
}

/// 5-6 Player Rules, The Special Building Phase / Ending the Game — the phase is "between
/// player turns", not the builder's turn: reaching the points there wins nothing yet; the
/// builder wins as their own turn begins. (victory_points=3 keeps the position short.)
#[test]
fn special_building_is_not_your_turn_for_victory() {
    let mut g = game56(6, &[("victory_points", "3")]);
    quiet_roll(&mut g);
    sb(&mut g, "give white 3 ore 2 grain");
    act_as(&mut g, "red", "end");
    pass_until(&mut g, "white");
    let city = format!("city {}", settlements_of(&g, "white")[0]);
    act_as(&mut g, "white", &city);
    assert_eq!(points(&g, "white"), 3);
    assert_eq!(winner(&g), None, "not white's turn");
    pass_special_building(&mut g);
    assert_eq!(current(&g), "blue");
    assert_eq!(winner(&g), None, "blue's turn");
    quiet_roll(&mut g);
    act_as(&mut g, "blue", "end");
    pass_special_building(&mut g);
    assert_eq!(winner(&g).as_deref(), Some("white"), "white wins as the turn begins");
    assert_eq!(current(&g), "white");
}

// Paired turns (001) -------------------------------------------------------------------------

/// 5-6 Player Expansion, Setup (5) / Rules for 5-6 Players — the first player holds the
/// player 1 marker and the third player to their left the player 2 marker (shown by
/// `describe`, in the REPL's `show players`); with 5 players too.
#[test]
fn paired_player_two_is_third_to_the_left() {
    let g = paired(6, &[]);
    assert_eq!(marker(&g, "red").as_deref(), Some("player 1"));
    assert_eq!(marker(&g, "orange").as_deref(), Some("player 2"));
    for who in ["blue", "white", "green", "brown"] {
        assert_eq!(marker(&g, who), None);
    }
    let g = Game::new(header(5, 4, &[("turn_structure", "paired")], false)).unwrap();
    let first = var_int(&g, "starting_player").unwrap() as usize - 1;
    assert_eq!(marker(&g, &color(&g, first)).as_deref(), Some("player 1"));
    assert_eq!(marker(&g, &color(&g, (first + 3) % 5)).as_deref(), Some("player 2"));
    // Special building games show no markers.
    assert_eq!(marker(&game56(6, &[]), "red"), None);
}

/// 5-6 Player Expansion, Rules for 5-6 Players — a turn is player 1's production and action
/// phases, then player 2's action phase (no roll, no production); then the dice and both
/// markers pass to the left.
#[test]
fn paired_turn_then_markers_pass_to_the_left() {
    let mut g = paired(6, &[]);
    quiet_roll(&mut g);
    act_as(&mut g, "red", "end");
    assert_eq!((current(&g), phase(&g), g.state().turn), ("orange".to_string(), "main".to_string(), 1));
    reject(&mut g, "orange", "roll");
    for other in ["red", "blue", "white", "green", "brown"] {
        assert!(legal_of(&g, other).is_empty(), "{other} waits");
    }
    act_as(&mut g, "orange", "end");
    assert_eq!((current(&g), phase(&g), g.state().turn), ("blue".to_string(), "roll".to_string(), 2));
    assert_eq!(marker(&g, "blue").as_deref(), Some("player 1"));
    assert_eq!(marker(&g, "green").as_deref(), Some("player 2"));
    assert_eq!(marker(&g, "red"), None);
    quiet_roll(&mut g);
    act_as(&mut g, "blue", "end");
    assert_eq!(current(&g), "green");
    act_as(&mut g, "green", "end");
    assert_eq!(current(&g), "white");
    // With 5 players: red and orange, then blue and green, then white and red.
    let mut g = paired(5, &[]);
    let mut pairs = vec![];
    for _ in 0..3 {
        let first = current(&g);
        quiet_roll(&mut g);
        act_as(&mut g, &first, "end");
        let second = current(&g);
        pairs.push((first, second.clone()));
        act_as(&mut g, &second, "end");
    }
    let colors: Vec<String> = g.state().players.iter().map(|p| p.color.to_string()).collect();
    let want: Vec<(String, String)> = (0..3).map(|i| (colors[i].clone(), colors[(i + 3) % 5].clone())).collect();
    assert_eq!(pairs, want);
}

/// 5-6 Player Expansion, Rules Change for Paired Players — player 2 may not trade with other
/// players; all other actions remain: maritime trade, building, buying, and playing one
/// development card even when player 1 played one.
#[test]
fn paired_player_two_may_not_trade_with_players() {
    let mut g = paired(6, &[]);
    // Red (player 1) and orange (player 2) each buy a knight on turn 1.
    quiet_roll(&mut g);
    sb(&mut g, "give red 6 ore 6 wool 6 grain");
    sb(&mut g, "give orange 6 ore 6 wool 6 grain 5 brick");
    while dev_new(&g, seat(&g, "red"), "knight") == 0 {
        act_as(&mut g, "red", "buy");
    }
    act_as(&mut g, "red", "end");
    while dev_new(&g, seat(&g, "orange"), "knight") == 0 {
        act_as(&mut g, "orange", "buy");
    }
    let why = reject(&mut g, "orange", "offer ore for brick");
    assert!(why.contains("player 2 of a paired turn may not trade with other players"), "{why}");
    assert!(!legal_of(&g, "orange").iter().any(|a| a.starts_with("offer")));
    act_as(&mut g, "orange", "trade 4 brick for lumber");
    let road = some_road(&g, "orange");
    act_as(&mut g, "orange", &road);
    act_as(&mut g, "orange", "end");
    // Turns 2 and 3 pass; on turn 4 orange is player 1 and red player 2.
    for _ in 0..2 {
        let first = current(&g);
        quiet_roll(&mut g);
        act_as(&mut g, &first, "end");
        let second = current(&g);
        act_as(&mut g, &second, "end");
    }
    assert_eq!(current(&g), "orange");
    quiet_roll(&mut g);
    knight_quietly(&mut g, "orange");
    act_as(&mut g, "orange", "end");
    assert_eq!(current(&g), "red");
    knight_quietly(&mut g, "red");
    assert_eq!(played(&g, seat(&g, "red"), "knight"), 1);
    reject(&mut g, "red", "play knight"); // one card per turn still
}

/// 5-6 Player Expansion, Rules Change for Paired Players — if player 2 reaches the points
/// during their part of the turn, the game ends at once and they win. (victory_points=3.)
#[test]
fn paired_player_two_wins_at_once() {
    let mut g = paired(6, &[("victory_points", "3")]);
    sb(&mut g, "give orange 3 ore 2 grain");
    quiet_roll(&mut g);
    let city = format!("city {}", settlements_of(&g, "orange")[0]);
    reject(&mut g, "orange", &city); // not during player 1's turn
    act_as(&mut g, "red", "end");
    act_as(&mut g, "orange", &city);
    assert_eq!(winner(&g).as_deref(), Some("orange"));
    assert_eq!((current(&g), phase(&g)), ("orange".to_string(), "main".to_string()));
    let before = g.state().clone();
    assert!(g.act(seat(&g, "orange"), "end").is_err(), "the game is over");
    assert!(*g.state() == before);
}

/// 5-6 Player Expansion with option combined_trade_build=false: player 2's action phase
/// starts with trade (maritime only), then build.
#[test]
fn paired_player_two_trades_then_builds() {
    let mut g = paired(6, &[("combined_trade_build", "false")]);
    quiet_roll(&mut g);
    act_as(&mut g, "red", "end");
    assert_eq!((current(&g), phase(&g)), ("orange".to_string(), "trade".to_string()));
    reject(&mut g, "orange", "offer ore for brick");
    sb(&mut g, "give orange 4 ore brick");
    act_as(&mut g, "orange", "trade 4 ore for lumber");
    let road = some_road(&g, "orange");
    act_as(&mut g, "orange", &road);
    assert_eq!(phase(&g), "build");
    reject(&mut g, "orange", "trade 4 ore for lumber");
}
