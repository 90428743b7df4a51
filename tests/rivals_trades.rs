//! Rivals for Catan: the trades with the bank pay from the regions the player names (issue
//! 31, "The owner chooses"). Game Turn 2c, Regular Exchange Rate: "The resources paid can
//! be taken from various regions of the same type"; Improved Exchange Rate and the Card
//! Index's common trade ships: "The resources you trade may be taken from different regions
//! that are storing resources of the appropriate type". As for the Goldsmith, each resource
//! is a `spend` choice while more than one region could pay and not all must; what is
//! forced is paid at once.

use crate::common::process::{after, catan_in, tail};
use crate::rivals::*;
use catan_engine::bot::{Bot, BotKind, Budget};

/// Red to act in the action phase of turn 1 with a second forest (I2, beside red's forest
/// K2): K2 holds 3 lumber, I2 holds 1.
fn two_forests() -> catan_engine::Game {
    let mut g = game("red");
    roll(&mut g, 5, "brigand");
    assert_eq!(g.state().phase, "action");
    edit(&mut g, "place I2 forest_4");
    set_stores(&mut g, &[("K2", 3), ("I2", 1)]);
    g
}

/// Game Turn 2c, Regular Exchange Rate: 3 lumber from 4 in two forests: red names I2 (the
/// emptier, which the engine's own choice, the fullest, would not take), the rest is forced
/// from K2; the resource bought comes after the payment.
#[test]
fn regular_exchange_rate_pays_from_the_regions_the_player_names() {
    let mut g = two_forests();
    let wool = store(&g, "M4");
    act(&mut g, "red", "trade 3 lumber for wool");
    assert_eq!(g.state().phase, "choose");
    assert_eq!(legal_texts(&g, "red"), vec!["spend I2", "spend K2"]);
    assert!(reject(&mut g, "red", "spend O4").contains("pay lumber from one of your regions holding it: I2, K2"));
    assert_eq!(store(&g, "M4"), wool, "nothing received before the payment");
    act(&mut g, "red", "spend I2");
    // 2 lumber left, only K2 holds any: paid at once, then the wool received.
    assert_eq!((store(&g, "K2"), store(&g, "I2")), (1, 0));
    assert_eq!(store(&g, "M4"), wool + 1);
    assert_eq!(g.state().phase, "action");
    let said = messages(&g);
    assert!(said.iter().any(|m| m == "trade: red pays 3 lumber from I2, K2"), "{:?}", last_messages(&g));
}

/// Improved Exchange Rate (a Lumber Ship): 2 lumber; red names K2, and the choice stays
/// open (3 left in two regions); then I2, which the fullest-first rule would not take.
#[test]
fn improved_exchange_rate_pays_from_the_regions_the_player_names() {
    let mut g = two_forests();
    edit(&mut g, "place L2 lumber_ship");
    act(&mut g, "red", "trade 2 lumber for ore");
    act(&mut g, "red", "spend K2");
    assert_eq!(legal_texts(&g, "red"), vec!["spend I2", "spend K2"], "still open: 3 left in two regions");
    act(&mut g, "red", "spend I2");
    assert_eq!((store(&g, "K2"), store(&g, "I2")), (2, 0));
    assert_eq!(g.state().phase, "action");
}

/// Nothing to choose (one region holds the resource, or all of it goes): paid at once, as
/// before, with the one message.
#[test]
fn a_forced_trade_asks_nothing() {
    let mut g = two_forests();
    set_stores(&mut g, &[("K2", 2), ("I2", 1)]);
    act(&mut g, "red", "trade 3 lumber for wool");
    assert_eq!(g.state().phase, "action");
    assert_eq!((store(&g, "K2"), store(&g, "I2")), (0, 0));
    assert!(messages(&g).iter().any(|m| m == "red trades 3 lumber for wool"), "{:?}", last_messages(&g));
}

/// Game Turn 2c: the trade is for "1 different resource of your choice": one card, a
/// resource, another than the one given; the legal trades list each resource stored at the
/// rate for each of the five others.
#[test]
fn a_trade_takes_one_other_resource() {
    let mut g = two_forests();
    assert!(reject(&mut g, "red", "trade 3 lumber for 2 wool").contains("take 1 resource"));
    assert!(reject(&mut g, "red", "trade 3 lumber for wool ore").contains("take 1 resource"));
    assert!(reject(&mut g, "red", "trade 3 lumber for lumber").contains("take a different resource"));
    let trades: Vec<String> =
        legal_texts(&g, "red").into_iter().filter(|t| t.starts_with("trade 3 lumber for")).collect();
    assert_eq!(trades.len(), 5, "{trades:?}");
    assert!(!trades.iter().any(|t| t == "trade 3 lumber for lumber"), "{trades:?}");
}

/// Bots choose the paying regions among the same `spend` steps, by their evaluation.
#[test]
fn bots_name_the_regions_that_pay() {
    let mut g = two_forests();
    act(&mut g, "red", "trade 3 lumber for wool");
    let seat = seat(&g, "red");
    for kind in [BotKind::Greedy, BotKind::Planner, BotKind::Mcts] {
        let d = Bot::new(kind, 3, Budget { playouts: 20, think_ms: None }).choose(&mut g, seat).unwrap().unwrap();
        let text = g.action_text(&d);
        assert!(text == "spend I2" || text == "spend K2", "{}: {text}", kind.name());
    }
}

/// In the REPL: the trade says which regions may pay and how to name them, `legal` lists
/// them, and the rest is paid at once.
#[test]
fn the_repl_asks_which_regions_pay_for_a_trade() {
    let home = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rivals-trades");
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("scratch home");
    // Seed 2: red starts.
    let args =
        ["play", "--variant", "rivals", "--bots", "none", "--seed", "2", "--sandbox", "--option", "test_edits=true"];
    let input = "edit place I4 mountains_2\nedit store O4 2\nedit store I4 2\ndice 3 2\nroll\n\
                 trade 3 ore for wool\nlegal\nspend K2\nspend O4\nspend O4\nquit\n";
    let run = catan_in(&home, &args, input, 60);
    assert_eq!(run.code, Some(0), "{}\n{}", run.err, tail(&run.out));
    let asked = after(&run.out, "trade 3 ore for wool", 0).join("\n");
    assert!(
        asked.contains("red trades 3 ore for wool: which regions pay? `spend I4` or `spend O4` for each ore"),
        "{asked}"
    );
    let legal = after(&run.out, "legal", 0).join("\n");
    assert!(legal.contains("spend I4") && legal.contains("spend O4"), "{legal}");
    let refused = after(&run.out, "spend K2", 0).join("\n");
    assert!(refused.contains("pay ore from one of your regions holding it: I4, O4"), "{refused}");
    assert!(after(&run.out, "spend O4", 0).join("\n").contains("trade: red pays ore from O4"), "{}", tail(&run.out));
    let last = after(&run.out, "spend O4", 1).join("\n");
    assert!(last.contains("trade: red pays 2 ore from O4, I4") && last.contains("trade: red receives wool"), "{last}");
}
