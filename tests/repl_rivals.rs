//! Rivals for Catan in the REPL as a new player meets it (issue 31, "Rivals"): transcripts
//! piped into `catan play`, each with a deadline.

use std::path::PathBuf;

use crate::common;
use common::process::{after, catan_in, tail, Run};

/// A folder for `CATAN_HOME` (autosaves), emptied.
fn scratch_home(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("repl-rivals-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch home");
    dir
}

/// `catan play ARGS` with `input`, which must exit cleanly.
fn play(name: &str, args: &[&str], input: &str) -> Run {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let run = catan_in(&scratch_home(name), &all, format!("{input}quit\n"), 60);
    assert_eq!(
        run.code,
        Some(0),
        "exit status {:?}\nstderr:\n{}\nstdout (tail):\n{}",
        run.code,
        run.err,
        tail(&run.out)
    );
    run
}

/// `show board` ends with the variant's legend of the stored-resource marks.
#[test]
fn show_board_has_a_legend_of_the_marks() {
    let run = play("legend", &["--variant", "rivals", "--bots", "none", "--seed", "1"], "show board\n");
    let board = after(&run.out, "show board", 0).join("\n");
    assert!(board.contains("K2 ●"), "{board}");
    assert!(board.contains("● one resource stored on the card (a region holds 0 to 3)"), "{board}");
}

/// `show hand` gives the resources stored in the principality, each and in all.
#[test]
fn show_hand_totals_the_resources() {
    let run = play("hand", &["--variant", "rivals", "--bots", "none", "--seed", "1"], "show hand\n");
    let hand = after(&run.out, "show hand", 0).join("\n");
    assert!(hand.contains("resources: 1 brick, 1 grain, 1 wool, 1 lumber, 1 ore, 0 gold (5 in all)"), "{hand}");
}

/// The actions `help` lists for a theme game are the Basic Set's and that set's: the Era
/// of Gold has no `build ... saving` (Drill Ground, Building Crane), the Era of Progress no
/// Brigands and no `yield`; the Duel has them all.
#[test]
fn help_lists_only_the_loaded_theme_sets_actions() {
    let help = |v: &str| {
        let run = play(&format!("help-{v}"), &["--variant", v, "--bots", "none"], "help\n");
        after(&run.out, "help", 0).join("\n")
    };
    let gold = help("rivals_gold");
    assert!(gold.contains("play brigands <slot>") && gold.contains("yield <slot>") && gold.contains("mint <resource>"));
    assert!(!gold.contains("saving <resource>"), "{gold}");
    assert!(!gold.contains("play archer") && !gold.contains("play mineral_mining"), "{gold}");
    let progress = help("rivals_progress");
    assert!(progress.contains("saving <resource>") && progress.contains("play mineral_mining"));
    assert!(!progress.contains("play brigands") && !progress.contains("yield <slot>"), "{progress}");
    assert!(!progress.contains("mint <resource>"), "{progress}");
    let turmoil = help("rivals_turmoil");
    assert!(turmoil.contains("play brigands") && turmoil.contains("saving <resource>"));
    assert!(!turmoil.contains("mint <resource>") && !turmoil.contains("play doctor"), "{turmoil}");
    let duel = help("rivals_duel");
    for a in ["play brigands", "yield <slot>", "saving <resource>", "mint <resource>", "play archer", "play doctor"] {
        assert!(duel.contains(a), "the Duel lacks {a}: {duel}");
    }
}

/// A card is typed as it is read: with spaces, in any case, or with its underscores; the
/// stacks are the rulebook's draw stacks.
#[test]
fn cards_typed_as_displayed_and_draw_stacks_named() {
    // Seed 5: red starts, and Basic Set draw stack 1 holds a Large Trade Ship, a Merchant
    // Caravan and a Toll Bridge.
    let run = play(
        "names",
        &["--variant", "rivals_gold", "--bots", "none", "--seed", "5"],
        "look 1\nselect Large Trade Ship from 1\nselect merchant caravan from 1\nselect toll_bridge from 1\n\
         look 2\nselect brick factory from 2\nshow bank\n",
    );
    let look = after(&run.out, "look 1", 0).join("\n");
    assert!(look.contains("draw stack 1 (bottom to top): "), "{look}");
    assert!(after(&run.out, "select Large Trade Ship from 1", 0).join("\n").contains("you take large trade ship"));
    assert!(after(&run.out, "select merchant caravan from 1", 0).join("\n").contains("you take merchant caravan"));
    assert!(after(&run.out, "select toll_bridge from 1", 0)
        .join("\n")
        .contains("red takes 3 starting cards from draw stack 1"));
    // Blue's pick: read as the card, whether the stack holds one or not.
    let blue = after(&run.out, "select brick factory from 2", 0).join("\n");
    assert!(blue.contains("you take brick factory") || blue.contains("holds no brick_factory"), "{blue}");
    let bank = after(&run.out, "show bank", 0).join("\n");
    for z in [
        "draw stack 1: ",
        "draw stack 4: ",
        "draw stack 5: ",
        "face-up expansion stack: 2 merchant_guild",
        "region stack: ",
    ] {
        assert!(bank.contains(z), "'{z}' missing:\n{bank}");
    }
    assert!(!bank.contains("stack4"), "{bank}");
    // Not a card at all: said so.
    let run = play(
        "names-bad",
        &["--variant", "rivals_gold", "--bots", "none", "--seed", "5"],
        "look 1\nselect large trade boat from 1\n",
    );
    let bad = after(&run.out, "select large trade boat from 1", 0).join("\n");
    assert!(bad.contains("'large trade boat' is not a card of this game"), "{bad}");
}

/// The bot's swaps of its regions before the game are not echoed one by one: `ready` tells
/// the net result once. A player's own swaps are told to them.
#[test]
fn bot_region_swaps_shown_as_their_net_result() {
    let run = play(
        "swaps",
        &["--variant", "rivals_gold", "--bots", "blue=random", "--seed", "5"],
        "look 1\nselect scout from 1\nselect austin from 1\nselect storehouse from 1\n\
         rearrange K2 O2\nrearrange K2 O2\nready\n",
    );
    assert!(!run.out.contains("(bot)> rearrange"), "{}", tail(&run.out));
    assert!(after(&run.out, "rearrange K2 O2", 0).join("\n").contains("you swap the regions on K2 and O2"));
    let ready = after(&run.out, "ready", 0).join("\n");
    assert!(ready.contains("red keeps the regions as they were"), "two swaps that undo each other: {ready}");
    assert!(ready.contains("blue (bot)> ready"), "{ready}");
    let blue: Vec<&str> =
        run.out.lines().filter(|l| l.contains("blue rearranges") || l.contains("blue keeps")).collect();
    assert_eq!(blue.len(), 1, "{}", tail(&run.out));
}

/// The owner chooses: in the REPL the Goldsmith asks where the gold comes from, `legal`
/// lists the regions, and a wrong one is refused with the list.
#[test]
fn goldsmith_asks_where_the_gold_comes_from() {
    let run = play(
        "spend",
        // Seed 2: red starts.
        &["--variant", "rivals", "--bots", "none", "--seed", "2", "--sandbox", "--option", "test_edits=true"],
        "edit hand red goldsmith\nedit place I2 gold_field_2\nedit store M2 2\nedit store I2 2\ndice 3 2\nroll\n\
         play goldsmith ore wool\nlegal\nspend K2\nspend M2\nspend M2\nshow board\n",
    );
    let legal = after(&run.out, "legal", 0).join("\n");
    assert!(legal.contains("spend I2") && legal.contains("spend M2"), "{legal}");
    let refused = after(&run.out, "spend K2", 0).join("\n");
    assert!(refused.contains("pay gold from one of your regions holding it: I2, M2"), "{refused}");
    let last = after(&run.out, "spend M2", 0).join("\n");
    assert!(last.contains("goldsmith: red pays gold from M2"), "{last}");
    let done = run.out.lines().filter(|l| l.contains("goldsmith: red pays 2 gold from M2, I2")).count();
    assert_eq!(done, 1, "{}", tail(&run.out));
}
