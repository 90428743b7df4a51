//! Shared helpers for the integration tests: building games and positions, reading the
//! state by name, asserting that a refused action changed nothing, and recomputing the
//! invariants of a base game (cards, pieces, points) from the raw state.
#![allow(dead_code)]

pub mod process;

use catan_engine::engine::Outcome;
use catan_engine::spec::SiteKind;
use catan_engine::state::Zone;
use catan_engine::value::Value;
use catan_engine::{Game, GameError, GameState, Header, ScriptErrorKind};

pub const RESOURCES: [&str; 5] = ["brick", "lumber", "wool", "grain", "ore"];
pub const DEVELOPMENT: [(&str, usize); 5] =
    [("knight", 14), ("victory_point", 5), ("road_building", 2), ("year_of_plenty", 2), ("monopoly", 2)];
/// The 5-6 player game's deck: 6 more knights and one more of each progress card.
pub const DEVELOPMENT_56: [(&str, usize); 5] =
    [("knight", 20), ("victory_point", 5), ("road_building", 3), ("year_of_plenty", 3), ("monopoly", 3)];
/// Pieces per player (Game Components: 15 roads, 5 settlements, 4 cities).
pub const PIECES: [(&str, u8); 3] = [("road", 15), ("settlement", 5), ("city", 4)];

/// A roll of 12 (the fields 12, H4): on the positions built by `custom` nothing produces,
/// so it passes a turn without touching any hand.
pub const NEUTRAL_DICE: &str = "dice 6 6";

pub fn header(players: usize, seed: u64, options: &[(&str, &str)], sandbox: bool) -> Header {
    Header {
        variants: vec!["base".into()],
        players,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    }
}

/// The header of a game of any variant stack, outside the sandbox.
pub fn stack_header(variants: &[&str], players: usize, seed: u64, options: &[(&str, &str)]) -> Header {
    Header {
        variants: variants.iter().map(|v| v.to_string()).collect(),
        players,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox: false,
    }
}

/// Whether typing `line` is accepted, else the refusal's words (on a copy of the game).
pub fn outcome(game: &Game, seat: usize, line: &str) -> Result<(), String> {
    let mut copy = game.try_clone().expect("a copy");
    match copy.act(seat, line) {
        Ok(_) => Ok(()),
        Err(GameError::Script(e)) if e.kind == ScriptErrorKind::Rejected => Err(e.message),
        Err(e) => panic!("'{line}': not a refusal: {e}"),
    }
}

/// A sandbox game on the beginner board with its starting pieces: turn 1, red to roll.
pub fn beginner(players: usize, options: &[(&str, &str)]) -> Game {
    Game::new(header(players, 1, options, true)).expect("game starts")
}

/// A sandbox game in the set-up phase (starting_pieces=false) whose start roll `first`
/// (a colour) won; the seed is the first that gives that.
pub fn setup_phase(players: usize, first: &str, options: &[(&str, &str)]) -> Game {
    let mut opts = vec![("starting_pieces", "false")];
    opts.extend_from_slice(options);
    for seed in 0..1000 {
        let g = Game::new(header(players, seed, &opts, true)).expect("game starts");
        if color(&g, starting_player(&g)) == first {
            return g;
        }
    }
    panic!("no seed lets {first} start");
}

/// The seat that won the start roll (set-up phase only).
pub fn starting_player(g: &Game) -> usize {
    var_int(g, "starting_player").expect("starting_player is set in the set-up phase") as usize - 1
}

/// Set-up placements used by `custom`: (colour, first settlement, its road, second
/// settlement, its road). None of them touches a harbor, the 2 (H2), the 12 (H4), the two
/// 8s (H12, H13) or H1; the second settlements pay: red ore + 2 grain, blue brick + grain,
/// white grain + 2 wool, orange lumber.
pub const PLACEMENTS: [(&str, &str, &str, &str, &str); 4] = [
    ("red", "15", "15-10", "41", "41-46"),
    ("blue", "24", "24-18", "49", "49-45"),
    ("white", "31", "31-25", "42", "42-37"),
    ("orange", "22", "22-28", "7", "7-3"),
];

/// Runs the set-up phase with `PLACEMENTS`, so the test knows every piece on the board.
pub fn finish_setup(g: &mut Game) {
    while g.state().phase == "setup" {
        let seat = g.to_act().unwrap();
        let c = color(g, seat);
        let (_, s1, r1, s2, r2) = PLACEMENTS.iter().find(|p| p.0 == c).unwrap();
        let placed = count_pieces(g, seat, "settlement");
        let (s, r) = if placed == 0 { (s1, r1) } else { (s2, r2) };
        act(g, seat, &format!("settlement {s}"));
        act(g, seat, &format!("road {r}"));
    }
}

/// The standard test position: beginner board, set-up done with `PLACEMENTS`, `first`
/// (a colour) to roll on turn 1.
pub fn custom(players: usize, first: &str, options: &[(&str, &str)]) -> Game {
    let mut g = setup_phase(players, first, options);
    finish_setup(&mut g);
    assert_eq!(g.state().phase, "roll");
    assert_eq!(color(&g, g.state().current), first);
    g
}

/// Four players, red to roll on turn 1 of the standard position.
pub fn standard() -> Game {
    custom(4, "red", &[])
}

// Acting ---------------------------------------------------------------------------------

/// Performs a command that must succeed.
pub fn act(g: &mut Game, seat: usize, cmd: &str) -> Outcome {
    match g.act(seat, cmd) {
        Ok(o) => o,
        Err(e) => panic!("{} '{cmd}' was refused: {e} (phase {})", color(g, seat), g.state().phase),
    }
}

/// Performs a command as a colour.
pub fn act_as(g: &mut Game, who: &str, cmd: &str) -> Outcome {
    let s = seat(g, who);
    act(g, s, cmd)
}

/// A sandbox edit that must succeed.
pub fn sb(g: &mut Game, cmd: &str) {
    if let Err(e) = g.sandbox(0, cmd) {
        panic!("sandbox '{cmd}' failed: {e}");
    }
}

/// Performs a command that a rule must refuse: checks the state and log are exactly as
/// before and the refusal names the line of base (variants/base.lua or a part of it in
/// variants/base/) that refused. Returns the reason.
pub fn reject(g: &mut Game, who: &str, cmd: &str) -> String {
    let s = seat(g, who);
    reject_seat(g, s, cmd)
}

pub fn reject_seat(g: &mut Game, seat: usize, cmd: &str) -> String {
    let before: GameState = g.state().clone();
    let log = g.log().len();
    let err = match g.act(seat, cmd) {
        Ok(_) => panic!("'{cmd}' by seat {} was accepted but must be refused", seat + 1),
        Err(e) => e,
    };
    assert!(*g.state() == before, "the refused '{cmd}' changed the state");
    assert_eq!(g.log().len(), log, "the refused '{cmd}' was logged");
    let GameError::Script(e) = &err else {
        panic!("'{cmd}' was refused by the parser, not by a rule: {err}");
    };
    assert_eq!(e.kind, ScriptErrorKind::Rejected, "'{cmd}': {err}");
    let at = e.location.as_deref().unwrap_or_else(|| panic!("the refusal of '{cmd}' names no location: {err}"));
    // A rule that does not apply now is named by its `when` function (or the `why_not`
    // function that words the refusal); a rule that applies but refuses, by its deny(...)
    // line; a piece or price the action declares (`supply`, `cost`), by its declaration.
    if base_line(at).contains("action {") {
        assert!(e.message.starts_with("you have no ") || e.message.starts_with("you cannot pay "), "{err}");
    } else if e.message.ends_with("is not possible now") || !base_line(at).contains("deny(") {
        assert_names_base_line(at, cmd, "function");
    } else {
        assert_names_base_line(at, cmd, "deny(");
    }
    assert_eq!(e.variant.as_deref(), Some("base"), "'{cmd}': {err}");
    e.message.clone()
}

/// The file and line of `at` if it is "variants/base.lua:N" or a part of base,
/// "variants/base/FILE.lua:N".
fn base_file_line(at: &str) -> Option<(&str, usize)> {
    let (file, line) = at.rsplit_once(':')?;
    let base = file == "variants/base.lua" || (file.starts_with("variants/base/") && file.ends_with(".lua"));
    Some((file, line.parse().ok()?)).filter(|_| base)
}

/// The text of line `line` of `file` (relative to the crate).
fn line_of(file: &str, line: usize) -> Option<String> {
    let src = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).expect("a file of base");
    src.lines().nth(line.wrapping_sub(1)).map(str::to_string)
}

/// The text of the line `at` ("variants/base/trade.lua:N", or of variants/base.lua) names.
fn base_line(at: &str) -> String {
    base_file_line(at).and_then(|(file, n)| line_of(file, n)).unwrap_or_default()
}

/// `at` must be a line of variants/base.lua or of one of its parts (variants/base/) that
/// contains `marker`.
pub fn assert_names_base_line(at: &str, cmd: &str, marker: &str) {
    let (file, line) = base_file_line(at)
        .unwrap_or_else(|| panic!("'{cmd}' refused at {at}, not at a line of variants/base.lua or variants/base/"));
    let text = line_of(file, line).unwrap_or_else(|| panic!("'{cmd}' refused at {at}, past the end of the file"));
    assert!(text.contains(marker), "'{cmd}' refused at {at}, a line without {marker:?}: {text:?}");
}

/// Rolls the given dice for the current player (sandbox), who must be in phase roll.
pub fn roll(g: &mut Game, a: u8, b: u8) {
    assert_eq!(g.state().phase, "roll", "roll outside the roll phase");
    sb(g, &format!("dice {a} {b}"));
    let s = g.state().current;
    act(g, s, "roll");
}

/// Ends the current turn with a neutral roll if the dice were not rolled yet.
pub fn pass_turn(g: &mut Game) {
    let s = g.state().current;
    if g.state().phase == "roll" {
        roll(g, 6, 6);
    }
    act(g, s, "end");
}

/// Passes turns until it is `who`'s turn, then rolls a neutral 12: `who` is in the main
/// (trade/build) phase.
pub fn main_phase_of(g: &mut Game, who: &str) {
    roll_phase_of(g, who);
    roll(g, 6, 6);
}

/// Passes turns until `who` is to roll.
pub fn roll_phase_of(g: &mut Game, who: &str) {
    let s = seat(g, who);
    let mut guard = 0;
    while g.state().current != s || g.state().phase != "roll" {
        pass_turn(g);
        guard += 1;
        assert!(guard < 10, "could not reach {who}'s turn");
    }
}

/// Gives `who` the cost of a build and performs it (must be their turn).
pub fn build(g: &mut Game, who: &str, cmd: &str) {
    let cost = match cmd.split_whitespace().next().unwrap() {
        "road" => "brick lumber",
        "settlement" => "brick lumber wool grain",
        "city" => "3 ore 2 grain",
        "buy" => "ore wool grain",
        other => panic!("no cost for '{other}'"),
    };
    sb(g, &format!("give {who} {cost}"));
    act_as(g, who, cmd);
}

/// Buys development cards for `who` (in their main phase) until they hold `n` cards of
/// `kind` (bought this turn or earlier). Returns how many cards were bought.
pub fn buy_until(g: &mut Game, who: &str, kind: &str, n: usize) -> usize {
    let s = seat(g, who);
    let mut bought = 0;
    while dev(g, s, kind) + dev_new(g, s, kind) < n {
        assert!(zone_total(g, None, "deck") > 0, "the deck ran out before {who} got {n} {kind}");
        build(g, who, "buy");
        bought += 1;
    }
    bought
}

/// Plays a knight for the current player and moves the robber to an empty hex (H1 or
/// H4 on the standard position), so nobody is robbed.
pub fn play_knight_quietly(g: &mut Game, who: &str) {
    act_as(g, who, "play knight");
    assert_eq!(g.state().phase, "robber");
    let to = if robber(g) == "H1" { "H4" } else { "H1" };
    act_as(g, who, &format!("robber {to}"));
}

// Reading the state --------------------------------------------------------------------

pub fn seat(g: &Game, who: &str) -> usize {
    g.state().players.iter().position(|p| p.color == who).unwrap_or_else(|| panic!("no player {who}"))
}

pub fn color(g: &Game, seat: usize) -> String {
    g.state().players[seat].color.to_string()
}

pub fn card_index(g: &Game, name: &str) -> usize {
    g.spec().card(name).unwrap_or_else(|| panic!("no card {name}"))
}

pub fn zone_index(g: &Game, name: &str) -> usize {
    g.spec().zone(name).unwrap_or_else(|| panic!("no zone {name}"))
}

/// Cards of a kind in a zone (owner None: a game zone such as the bank).
pub fn zone_count(g: &Game, owner: Option<usize>, zone: &str, kind: &str) -> usize {
    let z = zone_index(g, zone);
    let k = card_index(g, kind);
    g.state().zone(owner, z).unwrap().count(k)
}

pub fn zone_total(g: &Game, owner: Option<usize>, zone: &str) -> usize {
    let z = zone_index(g, zone);
    g.state().zone(owner, z).unwrap().total()
}

pub fn hand(g: &Game, seat: usize, kind: &str) -> usize {
    zone_count(g, Some(seat), "hand", kind)
}

/// Resource cards in a hand, in `RESOURCES` order.
pub fn hand_vec(g: &Game, seat: usize) -> [usize; 5] {
    RESOURCES.map(|r| hand(g, seat, r))
}

pub fn hand_of(g: &Game, who: &str) -> [usize; 5] {
    hand_vec(g, seat(g, who))
}

pub fn hand_size(g: &Game, seat: usize) -> usize {
    hand_vec(g, seat).iter().sum()
}

pub fn bank(g: &Game, kind: &str) -> usize {
    zone_count(g, None, "bank", kind)
}

pub fn bank_vec(g: &Game) -> [usize; 5] {
    RESOURCES.map(|r| bank(g, r))
}

pub fn dev(g: &Game, seat: usize, kind: &str) -> usize {
    zone_count(g, Some(seat), "dev", kind)
}

pub fn dev_new(g: &Game, seat: usize, kind: &str) -> usize {
    zone_count(g, Some(seat), "dev_new", kind)
}

pub fn played(g: &Game, seat: usize, kind: &str) -> usize {
    zone_count(g, Some(seat), "played", kind)
}

pub fn var(g: &Game, key: &str) -> Option<Value> {
    g.state().vars.get(key).cloned()
}

pub fn var_int(g: &Game, key: &str) -> Option<i64> {
    var(g, key).and_then(|v| v.as_int())
}

/// The colour holding a special card kept in a var ("longest_road", "largest_army").
pub fn holder(g: &Game, key: &str) -> Option<String> {
    var_int(g, key).map(|p| color(g, p as usize - 1))
}

pub fn points(g: &Game, who: &str) -> i64 {
    g.points(seat(g, who), true).unwrap()
}

pub fn public_points(g: &Game, who: &str) -> i64 {
    g.points(seat(g, who), false).unwrap()
}

pub fn winner(g: &Game) -> Option<String> {
    g.winner().map(|w| color(g, w))
}

/// The hex the robber stands on, as a label.
pub fn robber(g: &Game) -> String {
    let st = g.state();
    let h = st.markers["robber"];
    st.topology.as_ref().unwrap().hexes[h].label.clone()
}

/// Legal actions of a seat as typed text.
pub fn legal(g: &Game, seat: usize) -> Vec<String> {
    g.legal_actions(seat).unwrap().iter().map(|a| g.action_text(a)).collect()
}

pub fn legal_of(g: &Game, who: &str) -> Vec<String> {
    legal(g, seat(g, who))
}

// Board ------------------------------------------------------------------------------------

/// The hex of a terrain with a number token, as a label ("mountains", 8 -> "H12").
pub fn hex_with(g: &Game, terrain: &str, number: Option<u8>) -> String {
    let st = g.state();
    let spec = g.spec();
    let t = st.topology.as_ref().unwrap();
    let found: Vec<usize> = (0..st.hexes.len())
        .filter(|&h| spec.terrains[st.hexes[h].terrain as usize].name == terrain && st.hexes[h].number == number)
        .collect();
    assert_eq!(found.len(), 1, "{terrain} {number:?} is not a single hex");
    t.hexes[found[0]].label.clone()
}

/// Intersection labels at the corners of a hex.
pub fn corners(g: &Game, hex: &str) -> Vec<String> {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    let h = t.hexes.iter().position(|x| x.label == hex).unwrap();
    t.hexes[h].corners.iter().map(|&c| t.intersections[c].label.clone()).collect()
}

/// Pieces of a kind a seat has on the board.
pub fn count_pieces(g: &Game, seat: usize, kind: &str) -> usize {
    let spec = g.spec();
    let k = spec.piece(kind).unwrap();
    let st = g.state();
    st.sites(spec.pieces[k].site)
        .iter()
        .filter(|p| p.is_some_and(|p| p.owner as usize == seat && p.kind as usize == k))
        .count()
}

pub fn supply(g: &Game, seat: usize, kind: &str) -> u8 {
    let k = g.spec().piece(kind).unwrap();
    g.state().players[seat].supply[k]
}

/// The piece on an intersection or path label: (kind, colour; "nobody" for a piece of no
/// player).
pub fn piece_at(g: &Game, label: &str) -> Option<(String, String)> {
    let st = g.state();
    let t = st.topology.as_ref().unwrap();
    let slot = match t.label(label)? {
        catan_engine::board::Label::Intersection(n) => st.intersections[n],
        catan_engine::board::Label::Path(p) => st.paths[p],
        catan_engine::board::Label::Hex(_) => return None,
    };
    slot.map(|p| {
        let owner = p.seat().map_or("nobody".to_string(), |s| st.players[s].color.to_string());
        (g.spec().pieces[p.kind as usize].name.clone(), owner)
    })
}

/// Longest road of a seat, computed here from the board (not by the rules).
pub fn road_length(st: &GameState, spec: &catan_engine::spec::Spec, seat: usize) -> usize {
    let road = spec.piece("road").unwrap();
    let t = st.topology.as_ref().unwrap();
    let owned: Vec<bool> =
        st.paths.iter().map(|p| p.is_some_and(|p| p.owner as usize == seat && p.kind as usize == road)).collect();
    let blocked: Vec<bool> = st.intersections.iter().map(|p| p.is_some_and(|p| p.owner as usize != seat)).collect();
    catan_engine::board::longest_trail(t, &owned, &blocked)
}

pub fn road_len(g: &Game, who: &str) -> usize {
    road_length(&g.state(), g.spec(), seat(g, who))
}

// Invariants of a base game ----------------------------------------------------------------

/// Checks, from the raw state, everything that must hold after any action of a base game:
/// 19 of each resource and 25 development cards (per kind), or 24 and 34 with 5-6 players;
/// 15/5/4 pieces per player, points recomputed from the board and cards, and the special
/// cards' holders.
pub fn check_invariants(g: &Game) -> Result<(), String> {
    let spec = g.spec().clone();
    let st = g.state().clone();
    let n = st.players.len();
    let zone = |name: &str| spec.zone(name).unwrap();
    let count = |owner: Option<usize>, z: &str, k: usize| -> usize {
        st.zone(owner, zone(z)).map(|zn| zn.count(k)).unwrap_or(0)
    };
    let (per_resource, deck, deck_total) = if n >= 5 { (24, DEVELOPMENT_56, 34) } else { (19, DEVELOPMENT, 25) };
    // Resource cards: 19 each (24 with 5-6 players), bank plus hands.
    for r in RESOURCES {
        let k = spec.card(r).unwrap();
        let total = count(None, "bank", k) + (0..n).map(|p| count(Some(p), "hand", k)).sum::<usize>();
        if total != per_resource {
            return Err(format!("{r}: {total} cards, not {per_resource}"));
        }
    }
    // No development card in a hand of resources, and no resource elsewhere.
    for p in 0..n {
        for z in ["dev", "dev_new", "played"] {
            for r in RESOURCES {
                if count(Some(p), z, spec.card(r).unwrap()) > 0 {
                    return Err(format!("a {r} card in {}'s {z}", st.players[p].color));
                }
            }
        }
        for (d, _) in DEVELOPMENT {
            if count(Some(p), "hand", spec.card(d).unwrap()) > 0 {
                return Err(format!("a {d} card in {}'s hand", st.players[p].color));
            }
        }
    }
    // Development cards: 25 (34), per kind, deck + all player zones + box.
    let mut all = 0;
    for (d, want) in deck {
        let k = spec.card(d).unwrap();
        let got = count(None, "deck", k)
            + count(None, "box", k)
            + (0..n)
                .map(|p| count(Some(p), "dev", k) + count(Some(p), "dev_new", k) + count(Some(p), "played", k))
                .sum::<usize>();
        if got != want {
            return Err(format!("{d}: {got} cards, not {want}"));
        }
        all += got;
        // Only knights stay face up; progress cards go to the box; VP cards are never played.
        let played_k: usize = (0..n).map(|p| count(Some(p), "played", k)).sum();
        if d != "knight" && played_k > 0 {
            return Err(format!("a {d} lies face up in front of a player"));
        }
        if (d == "knight" || d == "victory_point") && count(None, "box", k) > 0 {
            return Err(format!("a {d} is in the box"));
        }
    }
    if all != deck_total {
        return Err(format!("{all} development cards, not {deck_total}"));
    }
    if let Zone::Counts(_) = &*st.zones[zone("deck")] {
        return Err("the deck is not a stack".into());
    }
    // Pieces: on the board + in the supply = 15 roads, 5 settlements, 4 cities.
    for p in 0..n {
        for (piece, want) in PIECES {
            let k = spec.piece(piece).unwrap();
            let on_board = st
                .sites(spec.pieces[k].site)
                .iter()
                .filter(|x| x.is_some_and(|x| x.owner as usize == p && x.kind as usize == k))
                .count();
            let total = on_board + st.players[p].supply[k] as usize;
            if total != want as usize {
                return Err(format!(
                    "{} has {on_board} {piece}s on the board and {} in supply",
                    st.players[p].color, st.players[p].supply[k]
                ));
            }
        }
    }
    // Settlements and cities stand on intersections, roads on paths.
    for (i, x) in st.intersections.iter().enumerate() {
        if let Some(x) = x {
            if spec.pieces[x.kind as usize].site != SiteKind::Intersection {
                return Err(format!("a road on intersection {}", i + 1));
            }
        }
    }
    // The Distance Rule holds everywhere on the board.
    let t = st.topology.as_ref().unwrap();
    for (i, x) in st.intersections.iter().enumerate() {
        if x.is_some() && t.intersections[i].neighbors.iter().any(|&m| st.intersections[m].is_some()) {
            return Err(format!("the Distance Rule is broken at intersection {}", i + 1));
        }
    }
    // Special cards.
    let lengths: Vec<usize> = (0..n).map(|p| road_length(&st, &spec, p)).collect();
    let knights: Vec<usize> = (0..n).map(|p| count(Some(p), "played", spec.card("knight").unwrap())).collect();
    let lr = st.vars.get("longest_road").and_then(|v| v.as_int()).map(|p| p as usize - 1);
    let la = st.vars.get("largest_army").and_then(|v| v.as_int()).map(|p| p as usize - 1);
    let best = lengths.iter().copied().max().unwrap_or(0);
    if let Some(h) = lr {
        if lengths[h] < 5 || lengths[h] != best {
            return Err(format!(
                "{} holds Longest Road with {} roads; lengths {lengths:?}",
                st.players[h].color, lengths[h]
            ));
        }
    }
    let leaders: Vec<usize> = (0..n).filter(|&p| lengths[p] == best).collect();
    if best >= 5 && leaders.len() == 1 && lr != Some(leaders[0]) {
        return Err(format!(
            "{} alone has the longest road ({best}) but Longest Road is with {lr:?}",
            st.players[leaders[0]].color
        ));
    }
    let most = knights.iter().copied().max().unwrap_or(0);
    match la {
        Some(h) if knights[h] < 3 || knights[h] != most => {
            return Err(format!(
                "{} holds Largest Army with {} knights; knights {knights:?}",
                st.players[h].color, knights[h]
            ))
        }
        None if most >= 3 => return Err(format!("nobody holds Largest Army; knights {knights:?}")),
        _ => {}
    }
    // Points, recomputed.
    let (settlement, city) = (spec.piece("settlement").unwrap(), spec.piece("city").unwrap());
    let vp = spec.card("victory_point").unwrap();
    for p in 0..n {
        let on = |k: usize| {
            st.intersections.iter().filter(|x| x.is_some_and(|x| x.owner as usize == p && x.kind as usize == k)).count()
                as i64
        };
        let public =
            on(settlement) + 2 * on(city) + if lr == Some(p) { 2 } else { 0 } + if la == Some(p) { 2 } else { 0 };
        let cards = (count(Some(p), "dev", vp) + count(Some(p), "dev_new", vp)) as i64;
        let hidden = g.points(p, true).map_err(|e| e.to_string())?;
        if hidden != public + cards {
            return Err(format!("{}: points {hidden}, recomputed {}", st.players[p].color, public + cards));
        }
        let shown = g.points(p, false).map_err(|e| e.to_string())?;
        let want = if st.winner.is_some() { public + cards } else { public };
        if shown != want {
            return Err(format!("{}: public points {shown}, recomputed {want}", st.players[p].color));
        }
    }
    // The robber stands on a hex.
    if st.markers.get("robber").is_none_or(|&h| h >= st.hexes.len()) {
        return Err("the robber is off the board".into());
    }
    Ok(())
}
