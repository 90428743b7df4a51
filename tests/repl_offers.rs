//! Issue 31, "Offers and hints" and "Words and names": REPL transcripts piped through
//! `catan play` (and `catan sim`, `catan serve` where a face words its own errors).

use crate::common;
use common::process::{after, catan_in, is_prompt, tail, Run};
use std::path::PathBuf;

/// A folder for `CATAN_HOME` (autosaves) of one test, emptied.
fn home(name: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("repl-offers").join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn catan(name: &str, args: &[&str], input: &str) -> Run {
    catan_in(&home(name), args, input, 60)
}

/// `catan play` seed 7, hot-seat unless `extra` names bots.
fn play(name: &str, extra: &[&str], input: &str) -> Run {
    let mut args = vec!["play", "--seed", "7", "--no-color"];
    if !extra.contains(&"--bots") {
        args.extend(["--bots", "none"]);
    }
    args.extend_from_slice(extra);
    catan(name, &args, input)
}

fn ok(run: &Run) {
    assert_eq!(run.code, Some(0), "exit status {:?}\nstderr:\n{}\nstdout:\n{}", run.code, run.err, tail(&run.out));
}

// Offers and hints ----------------------------------------------------------------------

/// Another player's offer waiting on you: a refused command says what the one answering
/// can do, with the offer's terms; the one who offered is told to confirm or cancel;
/// `legal` notes the terms beside `accept` and beside each `confirm` (a counter's too).
#[test]
fn an_offer_waiting_on_you_is_worded_for_the_one_who_answers() {
    let input = "roll\noffer 2 ore for brick\nend\nlegal\ncounter brick for ore\ndecline\ndecline\nend\nlegal\n";
    let run = play("offer-words", &[], input);
    ok(&run);
    let refused = after(&run.out, "end", 0);
    assert_eq!(
        refused,
        ["error: red offers 2 ore for brick: `accept` (you give brick), `decline`, or `counter <cards> for <cards>`"]
    );
    let legal = after(&run.out, "legal", 0).join("\n");
    assert!(legal.contains("accept   # you give brick for 2 ore"), "{legal}");
    assert_eq!(
        after(&run.out, "end", 1),
        ["error: your trade offer is open: blue counters (you give ore for brick): `confirm PLAYER` with one who \
          accepted or countered, or `cancel`"]
    );
    let legal = after(&run.out, "legal", 1).join("\n");
    assert!(legal.contains("confirm blue   # blue: you give ore for brick"), "{legal}");
}

/// The human's commands of seed 1 against three planners up to blue's first offer of
/// round 2; resumed there, blue makes one more offer in that turn (found by trying seeds:
/// the planners' choices decide whether a bot offers again).
const TO_BLUES_FIRST_OFFER: &str = "roll\nrobber H1\nend\nroll\nend\n";
const PLANNERS: &[&str] = &["--bots", "2=planner,3=planner,4=planner"];

/// The per-turn limit on a bot's offers (two) is the game's: after `quit` and `--resume`
/// in the middle of a bot's turn, the bot makes one more offer, not two, and never again
/// the one declined before the resume.
#[test]
fn a_bot_offers_at_most_twice_a_turn_across_a_resume() {
    let dir = home("resume-offers");
    let mut args = vec!["play", "--seed", "1", "--no-color"];
    args.extend_from_slice(PLANNERS);
    let first = catan_in(&dir, &args, format!("{TO_BLUES_FIRST_OFFER}quit\n"), 60);
    ok(&first);
    let offers: Vec<&str> = first.out.lines().filter(|l| l.starts_with("blue (bot)> offer")).collect();
    assert_eq!(offers.last(), Some(&"blue (bot)> offer brick for grain"), "{}", tail(&first.out));
    let mut args = vec!["play", "--resume", "--no-color"];
    args.extend_from_slice(PLANNERS);
    let second = catan_in(&dir, &args, "decline\ndecline\ndecline\nquit\n", 60);
    ok(&second);
    let in_the_turn: Vec<&str> = second
        .out
        .lines()
        .take_while(|l| !is_prompt(l) || l.starts_with("[round 2 "))
        .filter(|l| l.starts_with("blue (bot)> offer"))
        .collect();
    assert_eq!(in_the_turn.len(), 1, "{}", second.out);
    assert!(!in_the_turn[0].ends_with("brick for grain"), "the declined offer made again: {}", second.out);
}

/// `offers off` (or `--no-offers`): the bots make no offers of their own; `offers` says
/// which it is. The same game with offers on has blue offer in its first turn.
#[test]
fn offers_off_stops_the_bots_offers() {
    let opening = "roll\nend\nroll\nrobber H1\nend\n";
    let on = play("offers-on", PLANNERS, opening);
    ok(&on);
    assert!(on.out.contains("blue (bot)> offer lumber for grain"), "{}", tail(&on.out));
    let input = format!("offers\noffers off\n{opening}{}", "roll\nend\n".repeat(6));
    let off = play("offers-off", PLANNERS, &input);
    ok(&off);
    assert!(after(&off.out, "offers", 0)[0].starts_with("offers on: the bots may make trade offers"));
    assert!(after(&off.out, "offers off", 0)[0].starts_with("offers off: the bots make no offers of their own"));
    assert!(off.out.contains("[round 4 red "), "{}", tail(&off.out));
    assert!(!off.out.contains("(bot)> offer"), "{}", off.out);
    let mut args = PLANNERS.to_vec();
    args.push("--no-offers");
    let flag = play("no-offers", &args, &format!("{opening}{}", "roll\nend\n".repeat(6)));
    ok(&flag);
    assert!(!flag.out.contains("(bot)> offer"), "{}", flag.out);
}

/// `hint` says why in the player's terms (points, production by pips and resource, the
/// cards it costs, what it takes from the others), from the variant's names; with one
/// action listed and an offer or counter also possible, it is not "the only legal action".
#[test]
fn hint_says_why_in_the_players_terms_and_counts_offers() {
    let input = "hint\nsettlement 12\nroad 12-13\nhint\n";
    let run = play("hint-words", &["--option", "starting_pieces=false", "--playouts", "20"], input);
    ok(&run);
    let hint = after(&run.out, "hint", 0);
    assert!(hint[0].starts_with("hint: settlement "), "{hint:?}");
    let why = hint.iter().find(|l| l.starts_with("  what it does for you: ")).expect("a reason");
    assert!(why.contains("+1 victory point") && why.contains("production in pips"), "{why}");
    assert!(why.contains("kinds of resource produced 0 -> "), "{why}");
    assert!(hint.last().is_some_and(|l| l.contains("playouts")), "{hint:?}");
    let input = "roll\noffer 2 ore for brick\ndecline\nhint\nroll\nhint\n";
    let run = play("hint-counter", &["--playouts", "20"], input);
    ok(&run);
    let hint = after(&run.out, "hint", 0);
    assert_eq!(hint[0], "hint: decline", "{hint:?}");
    assert_eq!(hint.last(), Some(&"  (the only action listed; you may also `counter <cards> for <cards>`)"));
    // The robber: what it blocks of the others' production.
    let run = play("hint-robber", &["--sandbox", "--playouts", "20"], "dice 3 4\nroll\nhint\n");
    ok(&run);
    let hint = after(&run.out, "hint", 0);
    assert!(hint[0].starts_with("hint: robber H"), "{hint:?}");
    let others = hint.iter().find(|l| l.starts_with("  for the others: ")).expect("what it blocks");
    assert!(others.contains("production in pips") && others.contains(" -"), "{others}");
}

// Words and names -----------------------------------------------------------------------

/// `catan play --bots KIND` plays every seat but the first with that kind (as `catan sim
/// --bots` takes kinds); the seat form still works; a word that is neither says what is.
#[test]
fn play_bots_takes_a_kind_or_seats() {
    let run = play("bots-kind", &["--bots", "random"], "quit\n");
    ok(&run);
    assert!(run.out.contains("humans: red; bots: blue (random), white (random), orange (random)"), "{}", run.out);
    let run = play("bots-seat", &["--bots", "3=greedy"], "quit\n");
    ok(&run);
    assert!(run.out.contains("humans: red, blue, orange; bots: white (greedy)"), "{}", run.out);
    let run = play("bots-bad", &["--bots", "randm"], "quit\n");
    assert_eq!(run.code, Some(1));
    assert!(
        run.err.contains("'randm' is not a seat (1..4), a colour (red, blue, white, orange) or a bot"),
        "{}",
        run.err
    );
    assert!(run.err.contains("`--bots random`"), "{}", run.err);
}

/// "Did you mean" for variants and options, on `play` and `sim` alike.
#[test]
fn mistyped_variants_and_options_get_the_closest_name() {
    let run = play("bsae", &["--variant", "bsae"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("no variant named 'bsae' (did you mean `base`?"), "{}", run.err);
    let run = play("option", &["--option", "victory_point=12"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("unknown option 'victory_point' (did you mean `victory_points`?"), "{}", run.err);
    let run = catan("sim-famly", &["sim", "--variant", "famly", "--games", "1"], "");
    assert_ne!(run.code, Some(0));
    assert!(run.err.contains("did you mean `family`?"), "{}", run.err);
}

/// `show cards` is `show hand`; a `show` of nothing known suggests the closest; `legal
/// WORDS` that matches nothing says so; an unknown command points to `help` and `legal`.
#[test]
fn show_and_legal_words_that_match_nothing_say_so() {
    let run = play("show", &[], "show cards\nshow crds\nshow xyzzy\nlegal trade\nflee\n");
    ok(&run);
    assert!(
        after(&run.out, "show cards", 0)[0].starts_with("  red's cards:"),
        "{:?}",
        after(&run.out, "show cards", 0)
    );
    assert_eq!(after(&run.out, "show crds", 0), ["error: nothing to show as 'crds'; did you mean `show cards`?"]);
    assert_eq!(
        after(&run.out, "show xyzzy", 0),
        ["error: nothing to show as 'xyzzy'; `show` shows: board, hand, cards, players, bank, log"]
    );
    assert_eq!(
        after(&run.out, "legal trade", 0),
        ["red may do nothing that starts with 'trade' now (`legal` lists what red may do)"]
    );
    assert_eq!(after(&run.out, "flee", 0), ["error: unknown command 'flee' (type `help` or `legal`)"]);
}

/// The protocol words its errors for programs (its `legal` request), and takes an action
/// object's arguments by label (`{"Hex": "H5"}`) as well as by 0-based index.
#[test]
fn the_protocol_words_its_own_errors_and_takes_labels() {
    let input = concat!(
        r#"{"cmd":"new","seed":1}"#,
        "\n",
        r#"{"cmd":"act","action":"flee"}"#,
        "\n",
        r#"{"cmd":"act","action":"roll"}"#,
        "\n",
        r#"{"cmd":"act","action":{"name":"robber","args":[{"Hex":"H5"}]}}"#,
        "\n"
    );
    let run = catan("serve", &["serve"], input);
    ok(&run);
    let lines: Vec<serde_json::Value> = run.out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[1]["error"]["message"], "unknown command 'flee' (the `legal` request lists the seat's actions)");
    assert_eq!(lines[3]["done"], "robber H5", "{}", run.out);
}

/// Classic's Soldier and its victory point cards have their texts; base's Knight, which
/// Classic's deck lacks, is not shown there; a mistyped card finds only this game's cards.
#[test]
fn classic_help_finds_its_own_cards() {
    let run = play("classic", &["--variant", "classic"], "help soldier\nhelp knight\nhelp market\nhelp soldeir\n");
    ok(&run);
    assert!(after(&run.out, "help soldier", 0)[0].starts_with("Soldier (development card, 14): "));
    assert_eq!(
        after(&run.out, "help knight", 0),
        ["error: no command, action or card 'knight' (type `help` for the list)"]
    );
    assert!(after(&run.out, "help market", 0)[0].starts_with("Market (victory point card, 1 of 5)"));
    assert_eq!(
        after(&run.out, "help soldeir", 0),
        ["error: no command, action or card 'soldeir'; did you mean `help soldier`?"]
    );
}

/// `help` lists only the actions this game can offer: the 5-6 player `pass` in a 6-player
/// game with the Special Building Phase, not with 4 players, in Family or Classic, or with
/// paired turns; `catan variants` leaves the 5-6 player option out of 3-4 player editions.
#[test]
fn help_lists_only_what_this_game_offers() {
    for (args, shown) in [
        (vec![], false),
        (vec!["--variant", "family"], false),
        (vec!["--variant", "classic"], false),
        (vec!["--players", "6"], true),
        (vec!["--players", "6", "--option", "turn_structure=paired"], false),
    ] {
        let run = play("help-pass", &args, "help\nhelp pass\n");
        ok(&run);
        let listed = after(&run.out, "help", 0).iter().any(|l| l.starts_with("  pass "));
        assert_eq!(listed, shown, "{args:?}");
        assert_eq!(after(&run.out, "help pass", 0)[0].starts_with("error: "), !shown, "{args:?}");
    }
    let run = catan("variants", &["variants", "base", "family", "classic"], "");
    ok(&run);
    assert_eq!(run.out.matches("turn_structure").count(), 1, "{}", run.out);
}
