//! One test per rule of Helpers of Catan (../shared/rules/003: "HELPERS RULES" and "HELPERS OF
//! CATAN: HELPERS IN DETAIL"), played as `base+helpers`. Each test's doc comment names the
//! rule it checks; each helper's test covers its advantage, its limits and the keep (turn to
//! the B side) or exchange that follows.
//!
//! Most tests start from `position`: the beginner board, the set-up phase played with
//! `common::PLACEMENTS` (every piece on the board is known), red to roll on turn 1, and the
//! helpers the test asks for, dealt through option helper_order (the second settlements are
//! built by orange, white, blue, then red, so they take A1, A2, A3, A4 in that order).
//! Nobody holds Marianne or Sean unless a test asks for them, so a roll of 12 (6+6) passes a
//! turn without touching any hand and without asking anyone anything.

use crate::common;

use catan_engine::engine::Observer;
use catan_engine::value::Value;
use catan_engine::view::view;
use catan_engine::{Game, GameError, GameState, Header, ScriptErrorKind};
use common::*;

const HELPERS: [&str; 10] =
    ["candamir", "hilde", "jean", "lin", "louis", "marianne", "nassir", "sean", "vincent", "william"];

/// Helpers that never open a decision on another player's turn: what the seats a test does not
/// care about hold.
const QUIET: [&str; 6] = ["jean", "lin", "louis", "william", "nassir", "candamir"];

fn helpers_header(players: usize, seed: u64, options: &[(&str, &str)], sandbox: bool) -> Header {
    Header {
        variants: vec!["base".into(), "helpers".into()],
        players,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    }
}

/// The helper_order that deals `wanted` (colour, helper) in the standard position: A1..A4 go
/// to orange, white, blue and red; the others take quiet helpers.
fn order_for(wanted: &[(&str, &str)]) -> String {
    let mut order: Vec<&str> = ["orange", "white", "blue", "red"]
        .iter()
        .map(|c| wanted.iter().find(|(w, _)| w == c).map(|(_, h)| *h).unwrap_or(""))
        .collect();
    let mut spare = QUIET.iter().copied().filter(|h| !wanted.iter().any(|(_, w)| w == h));
    for slot in order.iter_mut() {
        if slot.is_empty() {
            *slot = spare.next().unwrap();
        }
    }
    order.extend(spare.take(2));
    order.join(",")
}

/// The standard position of base+helpers: red to roll on turn 1, helpers dealt as `wanted`.
fn position(wanted: &[(&str, &str)], options: &[(&str, &str)]) -> Game {
    let order = order_for(wanted);
    let mut opts = vec![("starting_pieces", "false"), ("first_player", "1"), ("helper_order", order.as_str())];
    opts.extend_from_slice(options);
    let mut g = Game::new(helpers_header(4, 1, &opts, true)).expect("game starts");
    finish_setup(&mut g);
    assert_eq!(g.state().phase, "roll");
    for (who, h) in wanted {
        assert_eq!(helper(&g, who), *h);
    }
    g
}

// Reading the helpers ---------------------------------------------------------------------

fn helper(g: &Game, who: &str) -> String {
    let s = seat(g, who);
    let held: Vec<&str> = HELPERS.iter().copied().filter(|h| zone_count(g, Some(s), "helper", h) > 0).collect();
    assert_eq!(held.len(), 1, "{who} holds {held:?}");
    held[0].to_string()
}

fn pvar(g: &Game, who: &str, key: &str) -> Option<Value> {
    g.state().players[seat(g, who)].vars.get(key).cloned()
}

fn side(g: &Game, who: &str) -> String {
    match pvar(g, who, "helper_side") {
        Some(Value::Str(s)) => s,
        other => panic!("{who}'s helper side is {other:?}"),
    }
}

fn display(g: &Game) -> Vec<&'static str> {
    HELPERS.iter().copied().filter(|h| zone_count(g, None, "helper_display", h) > 0).collect()
}

fn phase(g: &Game) -> String {
    g.state().phase.clone()
}

fn to_act(g: &Game) -> String {
    color(g, g.to_act().unwrap())
}

fn listed(g: &Game, who: &str, cmd: &str) -> bool {
    legal_of(g, who).iter().any(|a| a == cmd)
}

/// Listed actions of `who` that start with `word`.
fn listed_starting(g: &Game, who: &str, word: &str) -> Vec<String> {
    legal_of(g, who).into_iter().filter(|a| a.split_whitespace().next() == Some(word)).collect()
}

/// A command a rule must refuse: the state and log stay exactly as they were, and the refusal
/// names a line of `file` (variants/helpers.lua, or a part of base such as variants/base/trade.lua).
/// Returns the reason.
fn refuse_in(g: &mut Game, who: &str, cmd: &str, file: &str) -> String {
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
    let at = e.location.as_deref().unwrap_or_else(|| panic!("'{cmd}': no location: {err}"));
    assert!(at.starts_with(&format!("{file}:")), "'{cmd}' refused at {at}, not in {file}: {err}");
    e.message.clone()
}

/// Refused by a rule of helpers.lua.
fn refuse(g: &mut Game, who: &str, cmd: &str) -> String {
    refuse_in(g, who, cmd, "variants/helpers.lua")
}

/// Refused because the action is not open now (its `when`).
fn not_now(g: &mut Game, who: &str, cmd: &str) {
    let why = refuse(g, who, cmd);
    assert!(why.ends_with("is not possible now"), "'{cmd}': {why}");
}

/// The keep-or-exchange decision after a use: only `who` acts, in phase helpers.
fn assert_deciding(g: &Game, who: &str) {
    assert_eq!(phase(g), "helpers");
    assert_eq!(to_act(g), who);
    let mine = legal_of(g, who);
    assert!(mine.iter().all(|a| a.starts_with("helper ")), "{mine:?}");
    for other in ["red", "blue", "white", "orange"] {
        if other != who {
            assert!(legal_of(g, other).is_empty(), "{other} may act while {who} decides");
        }
    }
}

/// Passes turns (neutral rolls) until `who` is in the main phase of their next turn.
fn next_main_of(g: &mut Game, who: &str) {
    pass_turn(g);
    main_phase_of(g, who);
}

/// Is `action` a road with an end on intersection `node`?
fn road_touches(action: &str, node: &str) -> bool {
    action.strip_prefix("road ").is_some_and(|p| p.split('-').any(|n| n == node))
}

// Set-up and life cycle -------------------------------------------------------------------

/// Set-up; Taking Your First Helper — six numbered helpers form the stack, A1 on top, the other
/// four the display; each player takes the top helper, A side up, on building the second
/// settlement (so the player to the starting player's right gets Nassir, A1); once everyone
/// has one, the rest of the stack joins the display.
#[test]
fn first_helper_with_the_second_settlement() {
    let opts = [("starting_pieces", "false"), ("first_player", "1")];
    let mut g = Game::new(helpers_header(4, 3, &opts, true)).unwrap();
    assert_eq!(display(&g), vec!["hilde", "marianne", "sean", "vincent"]);
    let stack: Vec<String> = match &*g.state().zones[zone_index(&g, "helper_stack")] {
        catan_engine::state::Zone::Stack(s) => s.iter().map(|&k| g.spec().cards[k as usize].name.clone()).collect(),
        _ => panic!("the stack is a stack"),
    };
    // Top is last: A1 Nassir on top, then A2...A6 (our stand-in order after A1).
    assert_eq!(stack, vec!["louis", "candamir", "lin", "william", "jean", "nassir"]);
    let mut taken = vec![];
    while phase(&g) == "setup" {
        let s = g.to_act().unwrap();
        let c = color(&g, s);
        let (_, s1, r1, s2, r2) = PLACEMENTS.iter().find(|p| p.0 == c).unwrap();
        let second = count_pieces(&g, s, "settlement") == 1;
        act(&mut g, s, &format!("settlement {}", if second { s2 } else { s1 }));
        let held = zone_total(&g, Some(s), "helper");
        if second {
            assert_eq!(held, 1, "{c} takes a helper with the second settlement");
            assert_eq!(side(&g, &c), "A");
            taken.push((c.clone(), helper(&g, &c)));
        } else {
            assert_eq!(held, 0, "{c} has no helper after the first settlement");
        }
        act(&mut g, s, &format!("road {}", if second { r2 } else { r1 }));
    }
    let want: Vec<(String, String)> = [("orange", "nassir"), ("white", "jean"), ("blue", "william"), ("red", "lin")]
        .iter()
        .map(|(c, h)| (c.to_string(), h.to_string()))
        .collect();
    assert_eq!(taken, want);
    assert_eq!(zone_total(&g, None, "helper_stack"), 0);
    assert_eq!(display(&g), vec!["candamir", "hilde", "louis", "marianne", "sean", "vincent"]);
}

/// Taking Your First Helper, with the beginner set-up's fixed pieces (no set-up rounds): the
/// helpers go out as the second settlements would have been built — from the starting
/// player's right, counter-clockwise; three players leave three numbered helpers over.
#[test]
fn fixed_starting_pieces_deal_from_the_starting_players_right() {
    let g = Game::new(helpers_header(4, 1, &[], false)).unwrap();
    assert_eq!(color(&g, g.state().current), "red");
    for (c, h) in [("orange", "nassir"), ("white", "jean"), ("blue", "william"), ("red", "lin")] {
        assert_eq!(helper(&g, c), h);
    }
    let g = Game::new(helpers_header(3, 1, &[("first_player", "2")], false)).unwrap();
    // Blue, white, orange; white starts: blue (to white's right) takes Nassir.
    for (c, h) in [("blue", "nassir"), ("orange", "jean"), ("white", "william")] {
        assert_eq!(helper(&g, c), h);
    }
    assert_eq!(display(&g).len(), 7);
    assert_eq!(zone_total(&g, None, "helper_stack"), 0);
}

/// Set-up (the stack order is a stand-in): option helper_order sets the numbered stack for a
/// game; a wrong list stops the game from starting with a message naming the option.
#[test]
fn helper_order_option() {
    let g =
        Game::new(helpers_header(4, 1, &[("helper_order", "Sean, hilde,lin,jean,vincent,marianne")], false)).unwrap();
    assert_eq!(helper(&g, "orange"), "sean");
    assert_eq!(helper(&g, "red"), "jean");
    assert_eq!(display(&g), vec!["candamir", "louis", "marianne", "nassir", "vincent", "william"]);
    for bad in ["sean,hilde", "sean,hilde,lin,jean,vincent,merlin", "sean,sean,lin,jean,vincent,marianne"] {
        let err = Game::new(helpers_header(4, 1, &[("helper_order", bad)], false)).err().expect(bad);
        assert!(err.to_string().contains("helper_order"), "{bad}: {err}");
    }
}

/// Helpers is a module: on its own it layers on base (`layers_on`); on an edition that is not
/// built on base it refuses to load, saying what it needs.
#[test]
fn helpers_is_a_module_on_base() {
    let h = Header { variants: vec!["helpers".into()], players: 4, seed: 1, options: vec![], sandbox: false };
    let g = Game::new(h).expect("helpers alone is base+helpers");
    assert_eq!(g.spec().variants, vec!["base", "helpers"]);
    assert_eq!(helper(&g, "orange"), "nassir");
    let h = Header {
        variants: vec!["rivals".into(), "helpers".into()],
        players: 2,
        seed: 1,
        options: vec![],
        sandbox: false,
    };
    let err = Game::new(h).err().expect("helpers needs base's hooks");
    assert!(err.to_string().contains("base+helpers"), "{err}");
}

/// After Using a Helper's Advantage; Prohibitions — an A side may be turned to B and kept; a B
/// side must be exchanged; an exchange puts the helper in the display and takes another, A
/// side up, never the one just put back; a helper is used at most once a turn and never in
/// the turn it was received.
#[test]
fn keep_flip_exchange_and_the_prohibitions() {
    let mut g = position(&[("red", "jean")], &[]);
    main_phase_of(&mut g, "red");
    act_as(&mut g, "red", "jean ore");
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    assert_eq!((helper(&g, "red"), side(&g, "red")), ("jean".to_string(), "B".to_string()));
    assert_eq!(phase(&g), "main");
    // Once a turn.
    assert!(listed_starting(&g, "red", "jean").is_empty());
    not_now(&mut g, "red", "jean wool");
    next_main_of(&mut g, "red");
    act_as(&mut g, "red", "jean wool");
    // B side: keeping is no longer an option.
    assert!(!listed(&g, "red", "helper flip"));
    not_now(&mut g, "red", "helper flip");
    let choices = listed_starting(&g, "red", "helper");
    assert!(!choices.contains(&"helper exchange jean".to_string()), "{choices:?}");
    assert_eq!(choices.len(), display(&g).len());
    let why = refuse(&mut g, "red", "helper exchange jean");
    assert!(why.contains("display"), "{why}");
    act_as(&mut g, "red", "helper exchange hilde");
    assert_eq!((helper(&g, "red"), side(&g, "red")), ("hilde".to_string(), "A".to_string()));
    assert!(display(&g).contains(&"jean"));
    assert!(!display(&g).contains(&"hilde"));
    // Received this turn: not usable until red's next turn (blue has more points showing).
    let spot = corners(&g, "H1")[0].clone();
    sb(&mut g, &format!("place settlement {spot} blue"));
    assert!(listed_starting(&g, "red", "hilde").is_empty());
    not_now(&mut g, "red", "hilde blue brick");
    next_main_of(&mut g, "red");
    act_as(&mut g, "red", "hilde blue brick");
    assert_deciding(&g, "red");
}

/// Prohibitions (5-6 players) — never a helper in the Special Building Phase.
#[test]
fn no_helper_in_the_special_building_phase() {
    // Red starts; the helpers go out from red's right: green, orange, white, blue (Jean), red.
    let opts = [("board", "stand_in"), ("helper_order", "nassir,lin,louis,jean,william,candamir")];
    let mut g = Game::new(helpers_header(5, 1, &opts, true)).unwrap();
    let blue = seat(&g, "blue");
    assert_eq!(helper(&g, "blue"), "jean");
    assert_eq!(color(&g, g.state().current), "red");
    roll(&mut g, 6, 6);
    sb(&mut g, "give blue brick lumber");
    // Blue's helper is ready (dealt in the set-up), and blue may build: a Special Building Phase.
    act_as(&mut g, "red", "end");
    assert_eq!(phase(&g), "special_building");
    assert_eq!(g.to_act().unwrap(), blue);
    let mine = legal_of(&g, "blue");
    assert!(mine.contains(&"pass".to_string()), "{mine:?}");
    for a in &mine {
        let word = a.split_whitespace().next().unwrap();
        assert!(!HELPERS.contains(&word) && word != "helper", "{a} listed in the Special Building Phase");
    }
    not_now(&mut g, "blue", "jean ore");
}

// The ten helpers --------------------------------------------------------------------------

/// Helpers in Detail: Candamir — when buying a development card, one of its 3 resources may be
/// replaced by another; draw the top 3 cards, keep 1, return the others and reshuffle. Once a
/// turn, only in your turn; the kept card is secret.
#[test]
fn candamir() {
    let mut g = position(&[("red", "candamir")], &[]);
    let red = seat(&g, "red");
    // Not before the roll (no building then).
    not_now(&mut g, "red", "candamir");
    roll(&mut g, 6, 6);
    sb(&mut g, "give red lumber wool");
    assert_eq!(hand_of(&g, "red"), [0, 1, 1, 2, 1]);
    let why = refuse(&mut g, "red", "candamir lumber instead of brick");
    assert!(why.contains("substitute"), "{why}");
    refuse(&mut g, "red", "candamir ore instead of ore");
    assert!(listed(&g, "red", "candamir lumber instead of ore"));
    act_as(&mut g, "red", "candamir lumber instead of ore");
    assert_eq!(phase(&g), "main", "the advantage waits for the purchase");
    let deck = zone_total(&g, None, "deck");
    act_as(&mut g, "red", "buy");
    // Paid lumber, wool and grain: the ore stays.
    assert_eq!(hand_of(&g, "red"), [0, 0, 0, 1, 1]);
    assert_eq!(zone_total(&g, Some(red), "helper_draw"), 3);
    assert_eq!(zone_total(&g, None, "deck"), deck - 3);
    assert_eq!(zone_total(&g, Some(red), "dev_new"), 0);
    assert_eq!(phase(&g), "helpers");
    assert_eq!(to_act(&g), "red");
    let keeps = listed_starting(&g, "red", "keep");
    assert!(!keeps.is_empty() && keeps.len() <= 3, "{keeps:?}");
    // Only red sees the three cards.
    let blue_view = view(&g, Observer::Seat(seat(&g, "blue")));
    assert_eq!(blue_view["players"][red]["zones"]["helper_draw"], serde_json::json!({ "count": 3 }));
    let kept = keeps[0].trim_start_matches("keep ").to_string();
    refuse(&mut g, "red", "keep merlin");
    act_as(&mut g, "red", &keeps[0]);
    assert_eq!(dev_new(&g, red, &kept), 1);
    assert_eq!(zone_total(&g, Some(red), "dev_new"), 1);
    assert_eq!(zone_total(&g, Some(red), "helper_draw"), 0);
    assert_eq!(zone_total(&g, None, "deck"), deck - 1, "the two others went back");
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    assert_eq!(side(&g, "red"), "B");
    assert_eq!(phase(&g), "main");
    sb(&mut g, "give red ore wool grain");
    not_now(&mut g, "red", "candamir");
    // Without a substitution, and an ordinary purchase leaves the advantage unused.
    next_main_of(&mut g, "red");
    sb(&mut g, "give red 2 ore 2 wool 2 grain");
    act_as(&mut g, "red", "candamir");
    act_as(&mut g, "red", "buy");
    let keep = listed_starting(&g, "red", "keep")[0].clone();
    act_as(&mut g, "red", &keep);
    assert!(!listed(&g, "red", "helper flip"), "B side: exchange only");
    act_as(&mut g, "red", "helper exchange sean");
    act_as(&mut g, "red", "buy");
    assert_eq!(phase(&g), "main", "a plain purchase after the exchange");
}

/// Helpers in Detail: Hilde — after your production roll, take 1 resource card of your choice
/// from an opponent with more victory points showing on the board than you.
#[test]
fn hilde() {
    let mut g = position(&[("red", "hilde")], &[]);
    let spot = corners(&g, "H1")[0].clone();
    sb(&mut g, &format!("place settlement {spot} blue"));
    sb(&mut g, "give blue 2 ore");
    assert_eq!((public_points(&g, "blue"), public_points(&g, "red")), (3, 2));
    // Not before production is resolved.
    not_now(&mut g, "red", "hilde blue ore");
    roll(&mut g, 6, 6);
    let offered = listed_starting(&g, "red", "hilde");
    assert_eq!(offered, vec!["hilde blue brick", "hilde blue grain", "hilde blue ore"]);
    let why = refuse(&mut g, "red", "hilde white wool");
    assert!(why.contains("more victory points"), "{why}");
    let why = refuse(&mut g, "red", "hilde blue lumber");
    assert!(why.contains("no lumber"), "{why}");
    let (red_ore, blue_ore) = (hand(&g, seat(&g, "red"), "ore"), hand(&g, seat(&g, "blue"), "ore"));
    let out = act_as(&mut g, "red", "hilde blue ore");
    assert_eq!(hand(&g, seat(&g, "red"), "ore"), red_ore + 1);
    assert_eq!(hand(&g, seat(&g, "blue"), "ore"), blue_ore - 1);
    // Everyone learns that a card changed hands, only red and blue which.
    let public: Vec<&str> = out.messages.iter().filter(|m| m.to.is_none()).map(|m| m.text.as_str()).collect();
    assert!(public.iter().all(|t| !t.contains("ore")), "{public:?}");
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper exchange marianne");
    assert_eq!((helper(&g, "red"), side(&g, "red")), ("marianne".to_string(), "A".to_string()));
    assert!(display(&g).contains(&"hilde"));
}

/// Helpers in Detail: Jean — during your turn, name a resource: it trades 2:1 with the supply
/// as often as you like that turn (and only that turn).
#[test]
fn jean() {
    let mut g = position(&[("red", "jean")], &[]);
    roll(&mut g, 6, 6);
    sb(&mut g, "give red 3 ore 2 wool");
    let why = refuse_in(&mut g, "red", "trade 2 ore for brick", "variants/base/trade.lua");
    assert!(why.contains("4:1"), "{why}");
    act_as(&mut g, "red", "jean ore");
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    act_as(&mut g, "red", "trade 2 ore for brick");
    act_as(&mut g, "red", "trade 2 ore for lumber");
    assert_eq!(hand_of(&g, "red"), [1, 1, 2, 2, 0]);
    refuse_in(&mut g, "red", "trade 2 wool for brick", "variants/base/trade.lua");
    // The next turn the rate is 4:1 again.
    next_main_of(&mut g, "red");
    sb(&mut g, "give red 2 ore");
    refuse_in(&mut g, "red", "trade 2 ore for brick", "variants/base/trade.lua");
    // Jean may be named before the roll too.
    next_main_of(&mut g, "blue");
    roll_phase_of(&mut g, "red");
    act_as(&mut g, "red", "jean wool");
    assert!(!listed(&g, "red", "helper flip"));
    act_as(&mut g, "red", "helper exchange vincent");
    assert_eq!(phase(&g), "roll");
}

/// Helpers in Detail: Lin — before or after resolving your production roll (not while a 7 is
/// resolved), move the robber from a terrain hex to the desert and take 1 card of what the
/// vacated hex produces; nobody is robbed.
#[test]
fn lin() {
    let mut g = position(&[("red", "lin")], &[]);
    let mountains8 = hex_with(&g, "mountains", Some(8));
    let m = corners(&g, &mountains8);
    sb(&mut g, &format!("place settlement {} blue", m[0]));
    // The robber stands in the desert: nothing to move.
    assert_eq!(robber(&g), "H10");
    not_now(&mut g, "red", "lin H10");
    roll(&mut g, 3, 4);
    assert_eq!(phase(&g), "robber");
    assert!(listed_starting(&g, "red", "lin").is_empty(), "not while the 7 is resolved");
    act_as(&mut g, "red", &format!("robber {mountains8}"));
    assert_eq!(phase(&g), "main");
    assert_eq!(listed_starting(&g, "red", "lin"), vec!["lin H10"]);
    let why = refuse(&mut g, "red", "lin H1");
    assert!(why.contains("desert"), "{why}");
    // Used before the roll of red's next turn: the mountains then produce.
    pass_turn(&mut g);
    roll_phase_of(&mut g, "red");
    let (red, blue) = (seat(&g, "red"), seat(&g, "blue"));
    let before = (hand_vec(&g, red), hand_vec(&g, blue));
    act_as(&mut g, "red", "lin H10");
    assert_eq!(robber(&g), "H10");
    let mut want = before.0;
    want[4] += 1;
    assert_eq!(hand_vec(&g, red), want, "red takes an ore");
    assert_eq!(hand_vec(&g, blue), before.1, "nobody is robbed");
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    assert_eq!(phase(&g), "roll");
    roll(&mut g, 4, 4);
    assert_eq!(hand(&g, blue, "ore"), before.1[4] + 1, "the freed mountains produce");
}

/// Helpers in Detail: Louis — take up one of your roads whose one end touches none of your
/// other pieces (opponents' pieces do not count) and rebuild it for free.
#[test]
fn louis() {
    let mut g = position(&[("red", "louis")], &[]);
    roll(&mut g, 6, 6);
    // Red's roads 15-10 and 41-46 each have a loose end.
    assert_eq!(listed_starting(&g, "red", "louis"), vec!["louis 10-15", "louis 41-46"]);
    // A road on from 10: 15-10 is tied at both ends now, the new one has a loose end.
    sb(&mut g, "give red brick lumber");
    let extend = legal_of(&g, "red").into_iter().find(|a| road_touches(a, "10")).unwrap();
    act_as(&mut g, "red", &extend);
    let why = refuse(&mut g, "red", "louis 10-15");
    assert!(why.contains("one end"), "{why}");
    refuse(&mut g, "red", "louis 24-18"); // blue's road
    let new_road = extend.trim_start_matches("road ").to_string();
    assert!(listed(&g, "red", &format!("louis {new_road}")), "{new_road}");
    let hand_before = hand_vec(&g, seat(&g, "red"));
    let roads = count_pieces(&g, seat(&g, "red"), "road");
    act_as(&mut g, "red", "louis 41-46");
    assert_eq!(piece_at(&g, "41-46"), None);
    assert_eq!(phase(&g), "road_building");
    let why = refuse(&mut g, "red", "done");
    assert!(why.ends_with("is not possible now"), "{why}");
    let to = legal_of(&g, "red").into_iter().find(|a| a.starts_with("road ") && !a.contains("41-46")).unwrap();
    act_as(&mut g, "red", &to);
    assert_eq!(count_pieces(&g, seat(&g, "red"), "road"), roads);
    assert_eq!(hand_vec(&g, seat(&g, "red")), hand_before, "free");
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    assert_eq!(phase(&g), "main");
    assert!(listed_starting(&g, "red", "louis").is_empty());
}

/// Helpers in Detail: Marianne — on any player's roll other than 7 that gives you nothing,
/// take 1 resource of your choice, before any opponent uses a helper; the engine asks the
/// holder even when it is not their turn.
#[test]
fn marianne() {
    let mut g = position(&[("blue", "marianne"), ("red", "hilde")], &[]);
    let spot = corners(&g, "H1")[0].clone();
    sb(&mut g, &format!("place settlement {spot} blue"));
    roll(&mut g, 6, 6);
    // Blue received nothing: blue decides first, red (whose Hilde is ready) waits.
    assert_eq!(phase(&g), "helpers");
    assert_eq!(to_act(&g), "blue");
    assert!(legal_of(&g, "red").is_empty());
    let mine = legal_of(&g, "blue");
    assert_eq!(mine.len(), 6, "{mine:?}");
    assert!(mine.contains(&"skip".to_string()) && mine.contains(&"marianne ore".to_string()));
    not_now(&mut g, "red", "hilde blue brick");
    let ore = hand(&g, seat(&g, "blue"), "ore");
    act_as(&mut g, "blue", "marianne ore");
    assert_eq!(hand(&g, seat(&g, "blue"), "ore"), ore + 1);
    assert_deciding(&g, "blue");
    act_as(&mut g, "blue", "helper flip");
    assert_eq!((phase(&g), to_act(&g)), ("main".to_string(), "red".to_string()));
    act_as(&mut g, "red", "hilde blue ore");
    act_as(&mut g, "red", "helper flip");
    act_as(&mut g, "red", "end");
    // A roll that gives blue something: no chance. A 7: none either.
    let m = corners(&g, &hex_with(&g, "mountains", Some(8)));
    sb(&mut g, &format!("place settlement {} blue", m[0]));
    roll(&mut g, 4, 4);
    assert_eq!(phase(&g), "main");
    act_as(&mut g, "blue", "end");
    roll(&mut g, 3, 4);
    assert_eq!(phase(&g), "robber");
    act_as(&mut g, "white", "robber H4");
    act_as(&mut g, "white", "end");
    // B side now: after the next use, blue must exchange. `skip` lets the chance pass.
    roll(&mut g, 6, 6);
    assert_eq!(to_act(&g), "blue");
    act_as(&mut g, "blue", "skip");
    assert_eq!((phase(&g), to_act(&g)), ("main".to_string(), "orange".to_string()));
    act_as(&mut g, "orange", "end");
    roll(&mut g, 6, 6); // red's own roll: Marianne acts on any player's roll
    act_as(&mut g, "blue", "marianne grain");
    assert!(!listed(&g, "blue", "helper flip"));
    act_as(&mut g, "blue", "helper exchange vincent");
    assert_eq!(helper(&g, "blue"), "vincent");
}

/// Helpers in Detail: Nassir — name a resource and one or two opponents; each gives you 1 card
/// of it if they have one; for each card received you give that player 1 resource card of
/// your choice.
#[test]
fn nassir() {
    let mut g = position(&[("red", "nassir")], &[]);
    roll(&mut g, 6, 6);
    sb(&mut g, "give blue ore");
    let why = refuse(&mut g, "red", "nassir ore from red");
    assert!(why.contains("opponents"), "{why}");
    let why = refuse(&mut g, "red", "nassir ore from blue and blue");
    assert!(why.contains("different"), "{why}");
    let (red, blue, white) = (seat(&g, "red"), seat(&g, "blue"), seat(&g, "white"));
    let (r0, b0, w0) = (hand_vec(&g, red), hand_vec(&g, blue), hand_vec(&g, white));
    act_as(&mut g, "red", "nassir ore from blue and white");
    // Blue gave its ore; white had none.
    assert_eq!(hand(&g, red, "ore"), r0[4] + 1);
    assert_eq!(hand(&g, blue, "ore"), 0);
    assert_eq!(hand_vec(&g, white), w0);
    assert_eq!((phase(&g), to_act(&g)), ("helpers".to_string(), "red".to_string()));
    let returns = listed_starting(&g, "red", "return");
    assert!(returns.iter().all(|a| a.ends_with(" to blue")), "{returns:?}");
    let why = refuse(&mut g, "red", "return grain to white");
    assert!(why.contains("gave you nothing"), "{why}");
    refuse(&mut g, "red", "return brick to blue"); // red holds no brick
    act_as(&mut g, "red", "return grain to blue");
    let mut want_b = b0;
    want_b[4] -= 1;
    want_b[3] += 1;
    assert_eq!(hand_vec(&g, blue), want_b);
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper exchange hilde");
    assert_eq!(helper(&g, "red"), "hilde");
}

/// Nassir with one opponent who has nothing of the named resource: nothing changes hands, and
/// the use is over (keep or exchange).
#[test]
fn nassir_from_one_opponent_without_the_card() {
    let mut g = position(&[("red", "nassir")], &[]);
    roll(&mut g, 6, 6);
    let before: Vec<[usize; 5]> = (0..4).map(|s| hand_vec(&g, s)).collect();
    act_as(&mut g, "red", "nassir ore from orange");
    let after: Vec<[usize; 5]> = (0..4).map(|s| hand_vec(&g, s)).collect();
    assert_eq!(after, before);
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    assert!(listed_starting(&g, "red", "nassir").is_empty());
}

/// Helpers in Detail: Sean — when any roll is a 7: with more than 7 resource cards you need
/// not discard; with 7 or fewer you may take 1 resource of your choice. The holder decides
/// before anyone discards, even on another player's turn.
#[test]
fn sean() {
    let mut g = position(&[("blue", "sean")], &[]);
    let (blue, white) = (seat(&g, "blue"), seat(&g, "white"));
    sb(&mut g, "give blue 6 wool"); // 8 cards
    sb(&mut g, "give white 6 ore"); // 9 cards
    roll(&mut g, 3, 4);
    assert_eq!((phase(&g), to_act(&g)), ("helpers".to_string(), "blue".to_string()));
    assert_eq!(legal_of(&g, "blue"), vec!["skip", "sean"]);
    act_as(&mut g, "blue", "sean");
    assert_deciding(&g, "blue");
    act_as(&mut g, "blue", "helper flip");
    assert_eq!(phase(&g), "discard");
    assert!(legal_of(&g, "blue").is_empty(), "blue keeps every card");
    assert_eq!(to_act(&g), "white");
    act_as(&mut g, "white", "discard 4 ore");
    assert_eq!((phase(&g), to_act(&g)), ("robber".to_string(), "red".to_string()));
    assert_eq!(hand_size(&g, blue), 8);
    act_as(&mut g, "red", "robber H1");
    act_as(&mut g, "red", "end");
    // Blue's own turn; then white rolls a 7: Sean was used on turn 1, blue may use it again.
    // Blue now holds 7 or fewer: a resource instead.
    roll(&mut g, 6, 6);
    act_as(&mut g, "blue", "trade 4 wool for brick");
    act_as(&mut g, "blue", "end");
    assert!(hand_size(&g, blue) <= 7);
    roll(&mut g, 3, 4);
    assert_eq!(to_act(&g), "blue");
    let choices = legal_of(&g, "blue");
    assert!(choices.contains(&"sean ore".to_string()) && !choices.contains(&"sean".to_string()), "{choices:?}");
    let ore = hand(&g, blue, "ore");
    act_as(&mut g, "blue", "sean ore");
    assert_eq!(hand(&g, blue, "ore"), ore + 1);
    assert!(!listed(&g, "blue", "helper flip"), "B side: exchange only");
    act_as(&mut g, "blue", "helper exchange hilde");
    assert_eq!((phase(&g), to_act(&g)), ("robber".to_string(), "white".to_string()));
    let _ = white;
}

/// Sean, declined: a holder with more than 7 cards who lets the chance pass discards.
#[test]
fn sean_skipped_means_discarding() {
    let mut g = position(&[("blue", "sean")], &[]);
    sb(&mut g, "give blue 6 wool");
    roll(&mut g, 3, 4);
    act_as(&mut g, "blue", "skip");
    assert_eq!((phase(&g), to_act(&g)), ("discard".to_string(), "blue".to_string()));
    act_as(&mut g, "blue", "discard 4 wool");
    assert_eq!(phase(&g), "robber");
    assert_eq!(side(&g, "blue"), "A", "not used");
}

/// Helpers in Detail: Vincent — discard a knight you have played to build a settlement for
/// lumber and brick or upgrade to a city for 2 ore and grain. Largest Army follows the knights
/// that stay face up.
#[test]
fn vincent() {
    let mut g = position(&[("red", "vincent")], &[]);
    let red = seat(&g, "red");
    roll(&mut g, 6, 6);
    // No played knight yet.
    not_now(&mut g, "red", "vincent settlement");
    buy_until(&mut g, "red", "knight", 1);
    next_main_of(&mut g, "red");
    play_knight_quietly(&mut g, "red");
    assert_eq!(played(&g, red, "knight"), 1);
    // A settlement site: a road on from 10, then one more.
    sb(&mut g, "give red 2 brick 2 lumber");
    let first = legal_of(&g, "red").into_iter().find(|a| road_touches(a, "10")).unwrap();
    act_as(&mut g, "red", &first);
    let far = first.trim_start_matches("road ").split('-').find(|n| *n != "10").unwrap().to_string();
    let second = legal_of(&g, "red").into_iter().find(|a| road_touches(a, &far) && *a != first).unwrap();
    act_as(&mut g, "red", &second);
    sb(&mut g, "give red lumber brick");
    let why = refuse(&mut g, "red", "vincent city");
    assert!(why.contains("2 ore"), "{why}");
    act_as(&mut g, "red", "vincent settlement");
    let sites: Vec<String> = listed_starting(&g, "red", "settlement");
    assert!(!sites.is_empty(), "Vincent's price opens settlement sites");
    let before = hand_vec(&g, red);
    act_as(&mut g, "red", &sites[0]);
    let mut want = before;
    want[0] -= 1;
    want[1] -= 1;
    assert_eq!(hand_vec(&g, red), want, "lumber and brick only");
    assert_eq!(played(&g, red, "knight"), 0);
    assert_eq!(zone_count(&g, None, "box", "knight"), 1);
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    // City, next turn: 2 ore and grain, and a second played knight.
    buy_until(&mut g, "red", "knight", 1);
    next_main_of(&mut g, "red");
    play_knight_quietly(&mut g, "red");
    sb(&mut g, "give red 2 ore grain");
    act_as(&mut g, "red", "vincent city");
    let before = hand_vec(&g, red);
    act_as(&mut g, "red", "city 15");
    let mut want = before;
    want[3] -= 1;
    want[4] -= 2;
    assert_eq!(hand_vec(&g, red), want);
    assert_eq!(piece_at(&g, "15").unwrap().0, "city");
    assert_eq!(zone_count(&g, None, "box", "knight"), 2);
    assert!(!listed(&g, "red", "helper flip"));
    act_as(&mut g, "red", "helper exchange hilde");
}

/// Red holds Vincent and Largest Army with 3 knights face up; blue has `blue` face up.
fn red_holds_the_army(blue: usize) -> Game {
    let mut g = position(&[("red", "vincent")], &[]);
    roll(&mut g, 6, 6);
    buy_until(&mut g, "red", "knight", 3);
    pass_turn(&mut g);
    roll(&mut g, 6, 6);
    buy_until(&mut g, "blue", "knight", blue);
    for i in 0..3 {
        next_main_of(&mut g, "red");
        play_knight_quietly(&mut g, "red");
        if i < blue {
            next_main_of(&mut g, "blue");
            play_knight_quietly(&mut g, "blue");
        }
    }
    assert_eq!(holder(&g, "largest_army").as_deref(), Some("red"), "blue has {blue}, not more");
    g
}

/// Red, in the main phase, builds a city for 2 ore and grain with Vincent (one played knight
/// less): `at`, or the first city listed.
fn vincent_city(g: &mut Game, at: Option<&str>) {
    next_main_of(g, "red");
    sb(g, "give red 2 ore grain");
    act_as(g, "red", "vincent city");
    let city = match at {
        Some(at) => at.to_string(),
        None => listed_starting(g, "red", "city").into_iter().next().expect("a settlement of red's"),
    };
    act_as(g, "red", &city);
}

/// Vincent and Largest Army (Almanac: Largest Army — another player with more face-up knights
/// than the holder takes it at once): a discarded knight no longer counts.
#[test]
fn vincent_can_cost_largest_army() {
    let mut g = red_holds_the_army(3);
    vincent_city(&mut g, Some("city 15"));
    assert_eq!(holder(&g, "largest_army").as_deref(), Some("blue"), "red has 2 knights face up, blue 3");
}

/// Vincent and Largest Army once the holder has fewer than 3 knights: another player with
/// more face-up knights than the holder takes the card at once, with 2 (Almanac: Largest
/// Army — "If another player has more knight cards in front of them than the current holder
/// ... they immediately take the special card").
#[test]
fn vincent_below_three_knights_passes_largest_army_to_more_knights() {
    let mut g = red_holds_the_army(2);
    vincent_city(&mut g, Some("city 15"));
    assert_eq!(holder(&g, "largest_army").as_deref(), Some("red"), "2 knights each: blue has not more");
    act_as(&mut g, "red", "helper flip");
    vincent_city(&mut g, None);
    assert_eq!(holder(&g, "largest_army").as_deref(), Some("blue"), "red has 1 knight face up, blue 2");
}

/// Helpers in Detail: William — build a road with its lumber or its brick replaced by any other
/// resource; the road is placed by base's rules.
#[test]
fn william() {
    let mut g = position(&[("red", "william")], &[]);
    let red = seat(&g, "red");
    roll(&mut g, 6, 6);
    // Red holds ore and 2 grain: a road of grain instead of brick still needs lumber.
    assert!(listed_starting(&g, "red", "william").is_empty());
    sb(&mut g, "give red lumber wool");
    let offered = listed_starting(&g, "red", "william");
    assert!(offered.contains(&"william wool instead of brick".to_string()), "{offered:?}");
    assert!(offered.contains(&"william grain instead of brick".to_string()));
    let why = refuse(&mut g, "red", "william ore instead of wool");
    assert!(why.contains("substitute"), "{why}");
    let why = refuse(&mut g, "red", "william wool instead of lumber");
    assert!(why.contains("cannot pay"), "{why}");
    let roads = count_pieces(&g, red, "road");
    act_as(&mut g, "red", "william wool instead of brick");
    assert_eq!(hand_vec(&g, red), [0, 0, 0, 2, 1], "paid lumber and wool");
    assert_eq!(phase(&g), "road_building");
    refuse(&mut g, "red", "done");
    let road = legal_of(&g, "red").into_iter().find(|a| a.starts_with("road ")).unwrap();
    act_as(&mut g, "red", &road);
    assert_eq!(count_pieces(&g, red, "road"), roads + 1);
    assert_eq!(hand_vec(&g, red), [0, 0, 0, 2, 1], "no second payment");
    assert_deciding(&g, "red");
    act_as(&mut g, "red", "helper flip");
    assert_eq!(phase(&g), "main");
    sb(&mut g, "give red lumber wool");
    not_now(&mut g, "red", "william wool instead of brick");
}

// The REPL -----------------------------------------------------------------------------------

/// Runs `catan ARGS` with `input` on stdin (with a deadline) and returns stdout.
fn catan(args: &[&str], input: &str) -> String {
    let run = common::process::catan_in(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")), args, input, 120);
    assert_eq!(run.code, Some(0), "catan {args:?} failed:\n{}\n{}", run.err, run.out);
    run.out
}

/// Marianne and Sean in the REPL: the holder is prompted on another player's turn (a human)
/// or decides by itself (a bot).
#[test]
fn the_repl_asks_the_holder_on_another_players_turn() {
    let order = "helper_order=marianne,sean,hilde,jean,lin,louis"; // orange Marianne, white Sean
    let base = ["play", "--variant", "base+helpers", "--seed", "7", "--sandbox", "--no-color", "--option", order];
    let mut args = base.to_vec();
    args.extend(["--bots", "none"]);
    let out = catan(&args, "dice 6 6\nroll\nlegal\nmarianne ore\nhelper flip\nend\ndice 3 4\nroll\nsean wool\n");
    assert!(out.contains("[round 1 orange helpers]> legal"), "{out}");
    assert!(out.contains("  marianne ore\n") && out.contains("  skip\n"), "{out}");
    assert!(out.contains("orange takes ore (Marianne)"), "{out}");
    assert!(out.contains("[round 1 red main]> end"), "{out}");
    assert!(out.contains("[round 1 white helpers]> sean wool"), "{out}");
    // Orange and white as bots: they answer when asked, and the game comes back to red.
    let mut args = base.to_vec();
    args.extend(["--bots", "2=random,3=random,4=random"]);
    let out = catan(&args, "dice 6 6\nroll\nshow players\n");
    assert!(out.contains("orange (bot)> "), "{out}");
    assert!(out.contains("[round 1 red main]> show players"), "{out}");
}
