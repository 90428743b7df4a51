//! Helpers for the tests of any Theme Game variant (The Era of Turmoil, The Era of Progress,
//! The Duel of the Princes): games past the starting hands and the rearranging of regions,
//! the card census of a set, points, strength and commerce recomputed from a table of
//! printed values, and seeded whole games with the invariants after every action.
#![allow(dead_code)]

use crate::rivals::{check_census, check_stores, check_tokens_with, color, expected_census, COMMERCE, STRENGTH};
use crate::rivals::{edit, hand, reject_in, roll, seat};
use catan_engine::bot::RandomBot;
use catan_engine::repl::{run_script, ReplConfig};
use catan_engine::{sim, Game, Header};

pub fn theme_header(variant: &str, seed: u64, options: &[(&str, &str)], sandbox: bool) -> Header {
    Header {
        variants: vec![variant.into()],
        players: 2,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    }
}

/// A new sandbox game of `variant` with the `edit` commands, still choosing starting hands,
/// `first` to start.
pub fn theme_new(variant: &str, first: &str) -> Game {
    for seed in 0..200 {
        let g = Game::new(theme_header(variant, seed, &[("test_edits", "true")], true)).expect("game starts");
        if color(&g, g.state().current) == first {
            return g;
        }
    }
    panic!("no seed lets {first} start");
}

/// Starting cards chosen (the first listed of stack 1, then of stack 2), both `ready`:
/// `first` to roll on turn 1.
pub fn theme_game(variant: &str, first: &str) -> Game {
    let mut g = theme_new(variant, first);
    for stack in [1, 2] {
        let s = g.to_act().unwrap();
        g.act(s, &format!("look {stack}")).unwrap();
        for _ in 0..3 {
            let s = g.to_act().unwrap();
            let a = g
                .legal_actions(s)
                .unwrap()
                .into_iter()
                .find(|a| a.name == "select" && g.action_text(a).ends_with(&format!("from {stack}")))
                .expect("a card to select");
            g.perform(s, &a).unwrap();
        }
    }
    for _ in 0..2 {
        let s = g.to_act().unwrap();
        g.act(s, "ready").unwrap();
    }
    assert_eq!(g.state().phase, "roll");
    g
}

/// Every card of a Theme Game by kind: the Basic Set's (`expected_census`) plus `extra`
/// copies; the kinds in `new` (not in the Basic Set) count only their `extra`.
pub fn theme_expected(g: &Game, extra: &[(&str, usize)], new: &[&str]) -> Vec<usize> {
    let basic = expected_census(g);
    g.spec()
        .cards
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let more = extra.iter().find(|(n, _)| *n == c.name).map(|(_, v)| *v).unwrap_or(0);
            if new.contains(&c.name.as_str()) || !basic_kind(&c.name, &c.category) {
                more
            } else {
                basic[k] + more
            }
        })
        .collect()
}

/// Whether a kind is one of the Basic Set's (expected_census counts 1 for any kind it does
/// not know).
fn basic_kind(name: &str, category: &str) -> bool {
    if category == "resource" || category == "region" || category == "center" {
        return true;
    }
    let table: &[&str] = &[
        "abbey",
        "marketplace",
        "parish_hall",
        "storehouse",
        "toll_bridge",
        "brick_factory",
        "grain_mill",
        "iron_foundry",
        "lumber_camp",
        "weavers_shop",
        "brick_ship",
        "grain_ship",
        "lumber_ship",
        "wool_ship",
        "ore_ship",
        "gold_ship",
        "large_trade_ship",
        "austin",
        "candamir",
        "harald",
        "inga",
        "osmund",
        "siglind",
        "brigitta",
        "goldsmith",
        "merchant_caravan",
        "relocation",
        "scout",
        "feud",
        "fraternal_feuds",
        "invention",
        "trade_ships_race",
        "traveling_merchant",
        "year_of_plenty",
        "yule",
    ];
    table.contains(&name)
}

fn grid_names(g: &Game, s: usize) -> Vec<String> {
    let st = g.state();
    let grid = st.grids.iter().find(|x| x.owner == Some(s)).unwrap();
    grid.slots.iter().filter_map(|sl| sl.top()).map(|k| g.spec().cards[k as usize].name.clone()).collect()
}

/// The sum of a printed value over the cards in play of seat s, from `table` and the Basic
/// Set's.
pub fn printed(g: &Game, s: usize, table: &[(&str, i64)]) -> i64 {
    grid_names(g, s).iter().map(|n| table.iter().find(|(k, _)| k == n).map(|(_, v)| *v).unwrap_or(0)).sum()
}

/// Points from the raw state: settlements 1, cities 2, the tokens, and `vp` of the set's
/// cards.
pub fn theme_points(g: &Game, s: usize, vp: &[(&str, i64)]) -> i64 {
    let mut v = printed(g, s, &[("settlement", 1), ("city", 2)]) + printed(g, s, vp);
    for key in ["hero", "trade_token"] {
        if g.state().vars.get(key).and_then(|v| v.as_int()) == Some(s as i64 + 1) {
            v += 1;
        }
    }
    v
}

pub fn basic_commerce(g: &Game, s: usize) -> i64 {
    let table: Vec<(&str, i64)> = COMMERCE.iter().map(|n| (*n, 1)).collect();
    printed(g, s, &table)
}

pub fn basic_strength(g: &Game, s: usize) -> i64 {
    printed(g, s, &STRENGTH)
}

/// A set's invariants: the census (`want`, `all` cards), storage 0-3 (and on `stores`),
/// points, and the tokens by `strength` and `commerce`.
pub struct Invariants {
    pub want: fn(&Game) -> Vec<usize>,
    pub all: usize,
    pub stores: &'static [&'static str],
    pub points: fn(&Game, usize) -> i64,
    pub strength: fn(&Game, usize) -> i64,
    pub commerce: fn(&Game, usize) -> i64,
}

impl Invariants {
    pub fn check(&self, g: &Game) -> Result<(), String> {
        check_census(g, &(self.want)(g), self.all)?;
        check_stores(g, self.stores)?;
        for s in 0..2 {
            let reported = g.points(s, true).map_err(|e| e.to_string())?;
            let m = (self.points)(g, s);
            if reported != m {
                return Err(format!("seat {} reports {reported} points, the state gives {m}", s + 1));
            }
        }
        check_tokens_with(g, self.strength, self.commerce)?;
        // The views are dearer: every 16 actions.
        if g.log().len().is_multiple_of(16) {
            crate::rivals::check_views(g)?;
        }
        Ok(())
    }
}

/// A seeded bot game to a winner at `target` points, the invariants after every action;
/// the winner won during their own turn with at least `target`.
pub fn play_to_winner(variant: &str, seed: u64, target: i64, inv: &Invariants) {
    let vp = target.to_string();
    let mut seen = None;
    let result = sim::play_one(theme_header(variant, seed, &[("victory_points", &vp)], false), |g| {
        inv.check(g)?;
        if g.winner().is_some() {
            let cur = g.state().current;
            seen = Some((cur, g.points(cur, true).map_err(|e| e.to_string())?));
        }
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{variant} seed {seed}: {e}"));
    let w = result.winner.unwrap_or_else(|| panic!("seed {seed}: no winner after {} actions", result.actions));
    let (cur, pts) = seen.expect("the callback saw the end");
    assert_eq!(cur, w, "seed {seed}: the winner won during their own turn");
    assert!(pts >= target, "seed {seed}: the winner has {pts} points");
}

/// `steps` random-bot actions of the full game, the invariants after each, every listed
/// action of each kind tried (and undone) every 25 steps, only the seat to act listing any.
pub fn random_steps(variant: &str, seed: u64, steps: usize, inv: &Invariants) {
    let mut g = Game::new(theme_header(variant, seed, &[], false)).unwrap();
    let mut bots = [RandomBot::new(seed), RandomBot::new(seed + 1)];
    for step in 0..steps {
        if g.winner().is_some() {
            break;
        }
        let s = g.to_act().unwrap();
        let all = g.legal_actions(s).unwrap();
        assert!(!all.is_empty(), "seed {seed}: nothing to do in phase {}", g.state().phase);
        assert!(g.legal_actions(1 - s).unwrap().is_empty(), "seed {seed}: phase {}", g.state().phase);
        if step % 25 == 0 {
            let mut tried = std::collections::BTreeSet::new();
            for a in &all {
                if tried.insert(a.name.clone()) {
                    let before = g.state().clone();
                    g.perform(s, a)
                        .unwrap_or_else(|e| panic!("seed {seed}: listed '{}' refused: {e}", g.action_text(a)));
                    g.undo(1).unwrap();
                    assert!(*g.state() == before);
                }
            }
        }
        let a = bots[s].choose(&g, s).unwrap().expect("an action");
        g.perform(s, &a).unwrap();
        inv.check(&g).unwrap_or_else(|e| panic!("{variant} seed {seed} after '{}': {e}", g.action_text(&a)));
    }
}

/// Save and load replay a game of 400 random-bot actions to the same state.
pub fn save_load_round_trip(variant: &str, seed: u64) {
    let mut g = Game::new(theme_header(variant, seed, &[], false)).unwrap();
    let mut bots = [RandomBot::new(seed), RandomBot::new(seed + 1)];
    for _ in 0..400 {
        if g.winner().is_some() {
            break;
        }
        let s = g.to_act().unwrap();
        let a = bots[s].choose(&g, s).unwrap().expect("an action");
        g.perform(s, &a).unwrap();
    }
    let (c, div) = Game::load_json(&g.save_json()).unwrap();
    assert!(div.is_none(), "{div:?}");
    assert!(*c.state() == *g.state());
}

/// Red in the action phase of turn 1 after a quiet roll (a 5, brigand attack on nobody),
/// with an empty hand and a city on L3.
pub fn red_action(variant: &str) -> Game {
    let mut g = theme_game(variant, "red");
    roll(&mut g, 5, "brigand");
    for (k, c) in hand(&g, "red") {
        for _ in 0..c {
            edit(&mut g, &format!("drop red {k}"));
        }
    }
    edit(&mut g, "place L3 city");
    g
}

/// A command a rule of the Rivals files must refuse (state and log untouched): the reason.
pub fn refuse(g: &mut Game, who: &str, cmd: &str) -> String {
    reject_in(g, who, cmd, "variants/rivals").0
}

pub fn give(g: &mut Game, who: &str, kind: &str) {
    edit(g, &format!("hand {who} {kind}"));
}

/// What `who` may do now, sorted.
pub fn listed(g: &Game, who: &str) -> Vec<String> {
    let mut l: Vec<String> = g.legal_actions(seat(g, who)).unwrap().iter().map(|a| g.action_text(a)).collect();
    l.sort();
    l
}

/// What the REPL prints for `script` in a hot-seat game of `variant`.
pub fn repl_text(variant: &str, script: &str) -> String {
    let mut out = Vec::new();
    let config = ReplConfig::new(theme_header(variant, 5, &[], false));
    run_script(config, &mut script.as_bytes(), &mut out);
    String::from_utf8(out).unwrap()
}

// The sets' cards: (kind, copies in the set), the kinds new in it, printed points.

pub const GOLD: &[(&str, usize)] = &[
    ("goldsmith", 1),
    ("storehouse", 1),
    ("toll_bridge", 1),
    ("large_trade_ship", 1),
    ("trade_ships_race", 1),
    ("traveling_merchant", 1),
    ("brigands", 1),
    ("gudrun", 1),
    ("reiner", 1),
    ("gold_cache", 1),
    ("harbor", 1),
    ("moneylender", 1),
    ("salt_silo", 1),
    ("trading_base", 1),
    ("gift_for_the_prince", 1),
    ("merchant", 2),
    ("trade_master", 2),
    ("pirate_ship", 2),
    ("mint", 2),
    ("staple_house", 2),
    ("merchant_guild", 2),
];
pub const GOLD_NEW: &[&str] = &[
    "brigands",
    "gudrun",
    "reiner",
    "gold_cache",
    "harbor",
    "moneylender",
    "salt_silo",
    "trading_base",
    "gift_for_the_prince",
    "merchant",
    "trade_master",
    "pirate_ship",
    "mint",
    "staple_house",
    "merchant_guild",
];

pub const TURMOIL: &[(&str, usize)] = &[
    ("archer", 2),
    ("arsonist", 2),
    ("traitor", 2),
    ("voyage_of_plunder", 2),
    ("sebastian", 1),
    ("brigands", 1),
    ("drill_ground", 1),
    ("lookout_tower", 1),
    ("carl_forkbeard", 1),
    ("heinrich", 1),
    ("irmgard", 1),
    ("chapel_123", 1),
    ("chapel_456", 1),
    ("fairgrounds", 1),
    ("fire_brigade", 2),
    ("hedge_tavern", 2),
    ("tithe_barn", 1),
    ("large_festival_hall", 1),
    ("riots", 2),
    ("feud", 1),
    ("fraternal_feuds", 1),
];
pub const TURMOIL_NEW: &[&str] = &[
    "archer",
    "arsonist",
    "traitor",
    "voyage_of_plunder",
    "sebastian",
    "brigands",
    "drill_ground",
    "lookout_tower",
    "carl_forkbeard",
    "heinrich",
    "irmgard",
    "chapel_123",
    "chapel_456",
    "fairgrounds",
    "fire_brigade",
    "hedge_tavern",
    "tithe_barn",
    "large_festival_hall",
    "riots",
];
pub const TURMOIL_VP: &[(&str, i64)] = &[
    ("chapel_123", 1),
    ("chapel_456", 1),
    ("fairgrounds", 1),
    ("fire_brigade", 1),
    ("hedge_tavern", 1),
    ("tithe_barn", 1),
    ("large_festival_hall", 2),
];
pub const TURMOIL_STRENGTH: &[(&str, i64)] =
    &[("drill_ground", 1), ("lookout_tower", 1), ("carl_forkbeard", 5), ("heinrich", 2)];

pub const PROGRESS: &[(&str, usize)] = &[
    ("benjamin", 1),
    ("doctor", 2),
    ("guido", 1),
    ("gustav", 1),
    ("mineral_mining", 2),
    ("three_field_system", 2),
    ("brigitta", 1),
    ("relocation", 1),
    ("chief_cannoneer", 2),
    ("bath_house", 3),
    ("building_crane", 1),
    ("library", 2),
    ("parliament", 1),
    ("pharmacy", 2),
    ("town_hall", 2),
    ("university", 2),
    ("plague", 3),
    ("invention", 2),
];
pub const PROGRESS_NEW: &[&str] = &[
    "benjamin",
    "doctor",
    "guido",
    "gustav",
    "mineral_mining",
    "three_field_system",
    "chief_cannoneer",
    "bath_house",
    "building_crane",
    "library",
    "parliament",
    "pharmacy",
    "town_hall",
    "university",
    "plague",
];
pub const PROGRESS_VP: &[(&str, i64)] =
    &[("bath_house", 1), ("library", 1), ("parliament", 2), ("pharmacy", 1), ("town_hall", 1), ("university", 1)];
pub const PROGRESS_STRENGTH: &[(&str, i64)] = &[("chief_cannoneer", 4)];

/// A set's cards: (kind, copies) and the kinds new in it.
pub type SetCards<'a> = (&'a [(&'a str, usize)], &'a [&'a str]);

/// The census of a game of the sets `sets`: the Basic Set's cards plus each set's.
pub fn sets_expected(g: &Game, sets: &[SetCards]) -> Vec<usize> {
    let mut extra: Vec<(&str, usize)> = vec![];
    let mut new: Vec<&str> = vec![];
    for (cards, kinds) in sets {
        for (k, n) in cards.iter() {
            match extra.iter_mut().find(|(e, _)| e == k) {
                Some(e) => e.1 += n,
                None => extra.push((k, *n)),
            }
        }
        new.extend(kinds.iter());
    }
    theme_expected(g, &extra, &new)
}
