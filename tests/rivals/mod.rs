//! Shared helpers for the Rivals for Catan tests: games with chosen starting players,
//! acting, refusals that must leave the state untouched, reading principalities by label,
//! and the invariants of a Rivals game recomputed from the raw state.
//!
//! The starting principalities (rows 1-5 red, 6-10 blue; columns K-O):
//! red:  forest 2 K2, gold field 1 M2, fields 6 O2, hills 3 K4, pasture 4 M4, mountains 5 O4
//! blue: forest 3 K7, gold field 4 M7, fields 5 O7, hills 2 K9, pasture 1 M9, mountains 6 O9
//! settlements L3/N3 (L8/N8), road M3 (M8), building sites L2 L4 N2 N4 (L7 L9 N7 N9),
//! open road ends K3 O3 (K8 O8).
#![allow(dead_code)]

use catan_engine::engine::Observer;
use catan_engine::state::Zone;
use catan_engine::view::view;
use catan_engine::{Game, GameError, GameState, Header, ScriptErrorKind};
use std::collections::BTreeMap;

pub const RESOURCES: [&str; 6] = ["brick", "grain", "wool", "lumber", "ore", "gold"];

pub fn header(seed: u64, options: &[(&str, &str)], sandbox: bool) -> Header {
    Header {
        variants: vec!["rivals".into()],
        players: 2,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    }
}

/// A sandbox game with the `edit` commands, `first` ("red" or "blue") to roll on turn 1.
pub fn game(first: &str) -> Game {
    for seed in 0..200 {
        let g = Game::new(header(seed, &[("test_edits", "true")], true)).expect("game starts");
        if color(&g, g.state().current) == first {
            return g;
        }
    }
    panic!("no seed lets {first} start");
}

pub fn seat(g: &Game, who: &str) -> usize {
    g.state().players.iter().position(|p| p.color == who).unwrap_or_else(|| panic!("no player {who}"))
}

pub fn color(g: &Game, s: usize) -> String {
    g.state().players[s].color.to_string()
}

/// The colour of the seat to act.
pub fn to_act(g: &Game) -> String {
    color(g, g.to_act().unwrap())
}

pub fn act(g: &mut Game, who: &str, cmd: &str) {
    let s = seat(g, who);
    if let Err(e) = g.act(s, cmd) {
        panic!("{who} '{cmd}' was refused: {e} (phase {})", g.state().phase);
    }
}

/// An `edit ...` command (or any command) by whoever is to act.
pub fn edit(g: &mut Game, cmd: &str) {
    let who = to_act(g);
    act(g, &who, &format!("edit {cmd}"));
}

pub fn sb(g: &mut Game, cmd: &str) {
    if let Err(e) = g.sandbox(0, cmd) {
        panic!("sandbox '{cmd}' failed: {e}");
    }
}

/// A command a rule must refuse: the state and log stay exactly as they were, and the
/// refusal names a line of a part of variants/rivals.lua (variants/rivals/). Returns the reason.
pub fn reject(g: &mut Game, who: &str, cmd: &str) -> String {
    let (msg, variant) = reject_in(g, who, cmd, "variants/rivals/");
    assert_eq!(variant.as_deref(), Some("rivals"), "'{cmd}'");
    msg
}

/// Like `reject`, for a refusal at a file whose path starts with `file`: the reason and
/// the variant that refused.
pub fn reject_in(g: &mut Game, who: &str, cmd: &str, file: &str) -> (String, Option<String>) {
    let s = seat(g, who);
    let before: GameState = g.state().clone();
    let log = g.log().len();
    let err = match g.act(s, cmd) {
        Ok(_) => panic!("'{cmd}' by {who} was accepted but must be refused"),
        Err(e) => e,
    };
    assert!(*g.state() == before, "the refused '{cmd}' changed the state");
    assert_eq!(g.log().len(), log, "the refused '{cmd}' was logged");
    let GameError::Script(e) = &err else {
        panic!("'{cmd}' was refused by the parser, not by a rule: {err}");
    };
    assert_eq!(e.kind, ScriptErrorKind::Rejected, "'{cmd}': {err}");
    let at = e.location.as_deref().unwrap_or_else(|| panic!("the refusal of '{cmd}' names no location: {err}"));
    assert!(at.starts_with(file), "'{cmd}' refused at {at}");
    (e.message.clone(), e.variant.clone())
}

/// Event die faces as the variant numbers them.
pub fn face(name: &str) -> u8 {
    match name {
        "brigand" => 1,
        "trade" => 2,
        "celebration" => 3,
        "harvest" => 4,
        "event" => 5,
        other => panic!("no event face {other}"),
    }
}

/// The player to roll rolls `production` and the event face `event`.
pub fn roll(g: &mut Game, production: u8, event: &str) {
    sb(g, &format!("dice {production} {}", face(event)));
    let who = color(g, g.state().current);
    act(g, &who, "roll");
}

/// The top card and store of a position, by label.
pub fn slot(g: &Game, label: &str) -> (Option<String>, u16) {
    let st = g.state();
    let (gi, r, c) = catan_engine::slots::find_label(&st.grids, label).unwrap_or_else(|| panic!("no slot {label}"));
    let grid = &st.grids[gi];
    (grid.top(r, c).map(|k| g.spec().cards[k as usize].name.clone()), grid.store(r, c))
}

pub fn top(g: &Game, label: &str) -> Option<String> {
    slot(g, label).0
}

pub fn store(g: &Game, label: &str) -> u16 {
    slot(g, label).1
}

/// Cards of a position, bottom first.
pub fn pile(g: &Game, label: &str) -> Vec<String> {
    let st = g.state();
    let (gi, r, c) = catan_engine::slots::find_label(&st.grids, label).unwrap();
    st.grids[gi]
        .get(r, c)
        .map(|s| s.cards.iter().map(|k| g.spec().cards[*k as usize].name.clone()).collect())
        .unwrap_or_default()
}

/// Sets the store of every region of a player: `stores(g, "red", &[("K2", 3), ...])`.
pub fn set_stores(g: &mut Game, pairs: &[(&str, u16)]) {
    for (l, n) in pairs {
        edit(g, &format!("store {l} {n}"));
    }
}

/// Empties every region of both players.
pub fn empty_regions(g: &mut Game) {
    for who in ["red", "blue"] {
        for (l, _) in regions(g, who) {
            if store(g, &l) > 0 {
                edit(g, &format!("store {l} 0"));
            }
        }
    }
}

fn category(g: &Game, k: u16) -> String {
    g.spec().cards[k as usize].category.clone()
}

/// (label, region kind) of every region of a player.
pub fn regions(g: &Game, who: &str) -> Vec<(String, String)> {
    let s = seat(g, who);
    let st = g.state();
    let grid = st.grids.iter().find(|x| x.owner == Some(s)).unwrap();
    grid.slots
        .iter()
        .filter_map(|sl| {
            let k = sl.top()?;
            (category(g, k) == "region")
                .then(|| (grid.label(sl.row as usize, sl.col as usize), g.spec().cards[k as usize].name.clone()))
        })
        .collect()
}

/// The resource a region kind produces.
pub fn produces(kind: &str) -> &'static str {
    let t = kind.rsplit_once('_').map(|(t, _)| t).unwrap_or(kind);
    match t {
        "fields" => "grain",
        "mountains" => "ore",
        "hills" => "brick",
        "forest" => "lumber",
        "pasture" => "wool",
        "gold_field" => "gold",
        other => panic!("{other} is not a region"),
    }
}

/// Resources stored by a player, per type.
pub fn stock(g: &Game, who: &str) -> BTreeMap<&'static str, u16> {
    let mut out: BTreeMap<&'static str, u16> = RESOURCES.iter().map(|r| (*r, 0)).collect();
    for (l, k) in regions(g, who) {
        *out.get_mut(produces(&k)).unwrap() += store(g, &l);
    }
    out
}

pub fn stock_total(g: &Game, who: &str) -> u16 {
    stock(g, who).values().sum()
}

pub fn hand(g: &Game, who: &str) -> BTreeMap<String, u16> {
    let s = seat(g, who);
    let z = g.spec().zone("hand").unwrap();
    match &*g.state().players[s].zones[z] {
        Zone::Counts(c) => {
            c.iter().enumerate().filter(|(_, n)| **n > 0).map(|(k, n)| (g.spec().cards[k].name.clone(), *n)).collect()
        }
        Zone::Stack(_) => unreachable!(),
    }
}

pub fn hand_size(g: &Game, who: &str) -> usize {
    hand(g, who).values().map(|n| *n as usize).sum()
}

/// Cards of a game zone: a stack bottom first, or counts expanded.
pub fn zone_cards(g: &Game, zone: &str) -> Vec<String> {
    let z = g.spec().zone(zone).unwrap_or_else(|| panic!("no zone {zone}"));
    let name = |k: usize| g.spec().cards[k].name.clone();
    match &*g.state().zones[z] {
        Zone::Stack(s) => s.iter().map(|k| name(*k as usize)).collect(),
        Zone::Counts(c) => c.iter().enumerate().flat_map(|(k, n)| std::iter::repeat_n(name(k), *n as usize)).collect(),
    }
}

pub fn var_seat(g: &Game, key: &str) -> Option<String> {
    g.state().vars.get(key).and_then(|v| v.as_int()).map(|s| color(g, s as usize - 1))
}

pub fn points(g: &Game, who: &str) -> i64 {
    g.points(seat(g, who), false).unwrap()
}

/// Ends the action phase of `who` and goes through replenishing (drawing from the first
/// non-empty stack, discarding to stack 1) and the exchange (none).
pub fn pass_turn(g: &mut Game, who: &str) {
    act(g, who, "end");
    while g.state().phase == "replenish" {
        let limit = hand_size(g, who);
        let _ = limit;
        let legal = g.legal_actions(seat(g, who)).unwrap();
        let a = legal.first().expect("something to do while replenishing").clone();
        let text = g.action_text(&a);
        act(g, who, &text);
    }
    if g.winner().is_none() {
        act(g, who, "keep");
    }
}

/// What `who` may type now, as `legal` lists it.
pub fn legal_texts(g: &Game, who: &str) -> Vec<String> {
    g.legal_actions(seat(g, who)).unwrap().iter().map(|a| g.action_text(a)).collect()
}

/// Every message of the game so far, in order.
pub fn messages(g: &Game) -> Vec<String> {
    g.messages().iter().map(|(_, m)| m.text.clone()).collect()
}

/// Messages of the last action.
pub fn last_messages(g: &Game) -> Vec<String> {
    let n = g.log().len();
    g.messages().iter().filter(|(i, _)| *i == n).map(|(_, m)| m.text.clone()).collect()
}

// Invariants -----------------------------------------------------------------------------

/// Hidden information: a seat's view shows the other hand and the stacks only by size.
pub fn check_views(g: &Game) -> Result<(), String> {
    for s in 0..2 {
        let v = view(g, Observer::Seat(s));
        let other = &v["players"][1 - s]["zones"]["hand"];
        if other.get("count").is_none() || other.as_object().map(|o| o.len()) != Some(1) {
            return Err(format!("seat {} sees the other hand: {other}", s + 1));
        }
        for z in ["stack1", "stack2", "stack3", "stack4", "regions", "events"] {
            if v["zones"][z].get("count").is_none() {
                return Err(format!("seat {} sees inside {z}", s + 1));
            }
        }
        if v["players"][s]["zones"]["hand"].get("count").is_some() {
            return Err(format!("seat {} does not see its own hand", s + 1));
        }
    }
    Ok(())
}

pub const STRENGTH: [(&str, i64); 6] =
    [("austin", 1), ("harald", 2), ("inga", 1), ("osmund", 2), ("candamir", 4), ("siglind", 2)];
pub const COMMERCE: [&str; 9] = [
    "marketplace",
    "toll_bridge",
    "brick_ship",
    "grain_ship",
    "lumber_ship",
    "wool_ship",
    "ore_ship",
    "gold_ship",
    "large_trade_ship",
];

/// Every card of the game by kind: zones, hands and principalities (beneath cards too).
pub fn census(st: &GameState, kinds: usize) -> Vec<usize> {
    let mut n = vec![0usize; kinds];
    let mut add = |z: &Zone| match z {
        Zone::Counts(c) => c.iter().enumerate().for_each(|(k, x)| n[k] += *x as usize),
        Zone::Stack(s) => s.iter().for_each(|k| n[*k as usize] += 1),
    };
    st.zones.iter().for_each(|z| add(z));
    st.players.iter().for_each(|p| p.zones.iter().for_each(|z| add(z)));
    for grid in &st.grids {
        for k in grid.all_cards() {
            n[k as usize] += 1;
        }
    }
    n
}

/// The Basic Set: 94 cards (Card Index), each kind as many times as printed.
pub fn expected_census(g: &Game) -> Vec<usize> {
    let spec = g.spec();
    spec.cards
        .iter()
        .map(|c| match c.category.as_str() {
            "resource" => 0,
            "region" => 1,
            _ => match c.name.as_str() {
                "road" => 9,
                "settlement" => 9,
                "city" => 7,
                "abbey" | "marketplace" | "parish_hall" | "storehouse" | "brigitta" | "goldsmith"
                | "merchant_caravan" | "scout" | "traveling_merchant" | "year_of_plenty" => 2,
                _ => 1,
            },
        })
        .collect()
}

/// Points of the principality recomputed from the raw state: settlements 1, cities 2, the
/// hero and trade tokens 1 each.
pub fn points_from_state(g: &Game, s: usize) -> i64 {
    let st = g.state();
    let grid = st.grids.iter().find(|x| x.owner == Some(s)).unwrap();
    let mut v = 0;
    for sl in &grid.slots {
        match sl.top().map(|k| g.spec().cards[k as usize].name.as_str()) {
            Some("settlement") => v += 1,
            Some("city") => v += 2,
            _ => {}
        }
    }
    for key in ["hero", "trade_token"] {
        if st.vars.get(key).and_then(|v| v.as_int()) == Some(s as i64 + 1) {
            v += 1;
        }
    }
    v
}

fn sum_points(g: &Game, s: usize, table: &[(&str, i64)]) -> i64 {
    let st = g.state();
    let grid = st.grids.iter().find(|x| x.owner == Some(s)).unwrap();
    grid.slots
        .iter()
        .filter_map(|sl| sl.top())
        .map(|k| {
            let name = &g.spec().cards[k as usize].name;
            table.iter().find(|(n, _)| n == name).map(|(_, v)| *v).unwrap_or(0)
        })
        .sum()
}

pub fn strength(g: &Game, s: usize) -> i64 {
    sum_points(g, s, &STRENGTH)
}

pub fn commerce(g: &Game, s: usize) -> i64 {
    let table: Vec<(&str, i64)> = COMMERCE.iter().map(|n| (*n, 1)).collect();
    sum_points(g, s, &table)
}

/// The invariants of a Rivals game, from the raw state.
pub fn check_invariants(g: &Game) -> Result<(), String> {
    // Cards are conserved across stacks, hands, principalities and the discard pile.
    check_census(g, &expected_census(g), 94)?;
    check_stores(g, &[])?;
    check_points(g, points_from_state)?;
    check_tokens(g, commerce)
}

/// Storage 0-3, and only on regions (and on the kinds of card in `also`, such as the Gold
/// Cache).
pub fn check_stores(g: &Game, also: &[&str]) -> Result<(), String> {
    let spec = g.spec();
    for grid in &g.state().grids {
        for sl in &grid.slots {
            let label = grid.label(sl.row as usize, sl.col as usize);
            if sl.store > 3 {
                return Err(format!("{label} stores {}", sl.store));
            }
            let holds = sl
                .top()
                .map(|k| &spec.cards[k as usize])
                .is_some_and(|c| c.category == "region" || also.contains(&c.name.as_str()));
            if sl.store > 0 && !holds {
                return Err(format!("{label} stores {} but is no region", sl.store));
            }
        }
    }
    Ok(())
}

/// Points recomputed (by `mine`) equal points reported.
pub fn check_points(g: &Game, mine: fn(&Game, usize) -> i64) -> Result<(), String> {
    for s in 0..2 {
        let reported = g.points(s, true).map_err(|e| e.to_string())?;
        let m = mine(g, s);
        if reported != m {
            return Err(format!("seat {} reports {reported} points, the state gives {m}", s + 1));
        }
    }
    Ok(())
}

/// Cards are conserved across stacks, hands, principalities and the discard pile: `want`
/// of each kind, `all` in all.
pub fn check_census(g: &Game, want: &[usize], all: usize) -> Result<(), String> {
    let spec = g.spec();
    let census = census(&g.state().clone(), spec.cards.len());
    if census != want {
        let diff: Vec<String> = spec
            .cards
            .iter()
            .enumerate()
            .filter(|(k, _)| census[*k] != want[*k])
            .map(|(k, c)| format!("{} {} (want {})", c.name, census[k], want[k]))
            .collect();
        return Err(format!("cards not conserved: {}", diff.join(", ")));
    }
    if census.iter().sum::<usize>() != all {
        return Err(format!("the game has {all} cards"));
    }
    Ok(())
}

/// The tokens follow the advantages: the holder has 3+ and no less than the other; with no
/// holder, nobody has 3+ and strictly more. `commerce` counts a seat's commerce points.
pub fn check_tokens(g: &Game, commerce: fn(&Game, usize) -> i64) -> Result<(), String> {
    check_tokens_with(g, strength, commerce)
}

/// `check_tokens` with the strength points counted by `strength` (a theme set's units).
pub fn check_tokens_with(
    g: &Game,
    strength: fn(&Game, usize) -> i64,
    commerce: fn(&Game, usize) -> i64,
) -> Result<(), String> {
    let st = g.state();
    for (key, f) in [("hero", strength), ("trade_token", commerce)] {
        let pts = [f(g, 0), f(g, 1)];
        match st.vars.get(key).and_then(|v| v.as_int()) {
            Some(h) => {
                let h = h as usize - 1;
                if pts[h] < 3 || pts[h] < pts[1 - h] {
                    return Err(format!("{key} held by seat {} with {pts:?}", h + 1));
                }
            }
            None => {
                if (0..2).any(|p| pts[p] >= 3 && pts[p] > pts[1 - p]) {
                    return Err(format!("{key} not taken with {pts:?}"));
                }
            }
        }
    }
    Ok(())
}
