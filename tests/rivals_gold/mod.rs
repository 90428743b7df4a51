//! Helpers for the Theme Game tests (The Era of Gold): games past the starting hands and
//! the rearranging of regions, refusals by the theme files, and the invariants of a Theme
//! Game recomputed from the raw state (121 cards: the Basic Set's 94 and the set's 27).
#![allow(dead_code)]

use crate::rivals::{check_census, check_points, check_stores, check_tokens};
use catan_engine::engine::Observer;
use catan_engine::view::view;
use catan_engine::{Game, Header};

pub fn gold_header(seed: u64, options: &[(&str, &str)], sandbox: bool) -> Header {
    crate::rivals_theme::theme_header("rivals_gold", seed, options, sandbox)
}

/// A new sandbox game with the `edit` commands, still choosing starting hands, `first` to
/// start.
pub fn gold_new(first: &str) -> Game {
    crate::rivals_theme::theme_new("rivals_gold", first)
}

/// Choosing Starting Cards done (the first 3 listed cards of stack 1 for the starting
/// player, of stack 2 for the other), both `ready`: `first` to roll on turn 1.
pub fn gold_game(first: &str) -> Game {
    crate::rivals_theme::theme_game("rivals_gold", first)
}

/// A command a theme rule must refuse: the state and log stay exactly as they were, and
/// the refusal names a line of one of the Rivals files. Returns the reason.
pub fn refuse(g: &mut Game, who: &str, cmd: &str) -> String {
    crate::rivals::reject_in(g, who, cmd, "variants/rivals").0
}

/// Every card of The Era of Gold game by kind: the Basic Set's 94 plus the set's 27.
pub fn gold_expected(g: &Game) -> Vec<usize> {
    crate::rivals_theme::sets_expected(g, &[(crate::rivals_theme::GOLD, crate::rivals_theme::GOLD_NEW)])
}

fn grid_names(g: &Game, s: usize) -> Vec<String> {
    let st = g.state();
    let grid = st.grids.iter().find(|x| x.owner == Some(s)).unwrap();
    grid.slots.iter().filter_map(|sl| sl.top()).map(|k| g.spec().cards[k as usize].name.clone()).collect()
}

const TRADE_SHIPS: [&str; 7] =
    ["brick_ship", "grain_ship", "lumber_ship", "wool_ship", "ore_ship", "gold_ship", "large_trade_ship"];

/// Points recomputed from the raw state (End of the Game, "To summarize"): settlements 1,
/// cities 2, the tokens 1 each, the victory points of city expansions (the Harbor's only
/// with 3 trade ships).
pub fn gold_points(g: &Game, s: usize) -> i64 {
    let names = grid_names(g, s);
    let ships = names.iter().filter(|n| TRADE_SHIPS.contains(&n.as_str())).count();
    let mut v = 0;
    for n in &names {
        v += match n.as_str() {
            "settlement" => 1,
            "city" => 2,
            "merchant_guild" | "moneylender" | "trading_base" | "mint" | "salt_silo" | "staple_house" => 1,
            "harbor" if ships >= 3 => 1,
            _ => 0,
        };
    }
    for key in ["hero", "trade_token"] {
        if g.state().vars.get(key).and_then(|v| v.as_int()) == Some(s as i64 + 1) {
            v += 1;
        }
    }
    v
}

/// Commerce points from the raw state, with the Salt Silo and the Trading Base.
pub fn gold_commerce(g: &Game, s: usize) -> i64 {
    let names = grid_names(g, s);
    let has = |k: &str| names.iter().any(|n| n == k);
    let mut c = 0;
    for n in &names {
        c += match n.as_str() {
            "merchant_guild" => 2,
            "marketplace" | "harbor" if has("trading_base") => 2,
            "toll_bridge" | "trading_base" | "marketplace" | "harbor" => 1,
            n if TRADE_SHIPS.contains(&n) => {
                if has("salt_silo") {
                    2
                } else {
                    1
                }
            }
            _ => 0,
        };
    }
    c
}

/// The invariants of a Theme Game of The Era of Gold, from the raw state: the cards
/// conserved across stacks, hands, principalities, the discard pile and the face-up stack;
/// storage 0-3 on regions and the Gold Cache; points and tokens recomputed.
pub fn gold_invariants(g: &Game) -> Result<(), String> {
    check_census(g, &gold_expected(g), 121)?;
    check_stores(g, &["gold_cache"])?;
    check_points(g, gold_points)?;
    check_tokens(g, gold_commerce)
}

/// Hidden information in a Theme Game: the other hand and the stacks by size only, the
/// discard pile by its size and top card (Preparation 6).
pub fn gold_views(g: &Game) -> Result<(), String> {
    crate::rivals::check_views(g)?;
    for s in 0..2 {
        let v = view(g, Observer::Seat(s));
        let d = &v["zones"]["discard"];
        if d.get("count").is_none() || d.as_object().map(|o| o.len()) != Some(2) {
            return Err(format!("seat {} sees into the discard pile: {d}", s + 1));
        }
        if v["zones"]["stack5"].get("count").is_none() {
            return Err(format!("seat {} sees inside stack5", s + 1));
        }
    }
    Ok(())
}
