//! What the screen shows (issue 31): a compact board that fits a small terminal and is
//! drawn again by itself only when it fits, a players' table within 80 columns, what each
//! spot yields, who discards how many on a 7, whom Monopoly took from, what `undo` took
//! back, which game `--resume` continues, the hot-seat pause, plurals, rounds, the speed
//! of `catan sim`, and the summary at the game's end.

use crate::common;

use catan_engine::engine::Header;
use catan_engine::repl::{run_as_terminal, ReplConfig};
use common::process::{after, catan_in, tail, Run};
use common::{act_as, main_phase_of, sb, seat};
use std::path::PathBuf;

/// A folder for `CATAN_HOME` (autosaves) of one test, emptied.
fn home(name: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("repl-screen").join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn ok(run: Run) -> Run {
    assert_eq!(run.code, Some(0), "stderr:\n{}\nstdout (tail):\n{}", run.err, tail(&run.out));
    run
}

/// `catan play --seed 7 --no-color EXTRA` with `input` piped in.
fn play(name: &str, extra: &[&str], input: &str) -> Run {
    let mut args = vec!["play", "--no-color"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--seed") {
        args.extend(["--seed", "7"]);
    }
    if !extra.contains(&"--bots") {
        args.extend(["--bots", "none"]);
    }
    ok(catan_in(&home(name), &args, input, 60))
}

fn header(players: usize) -> Header {
    Header { variants: vec!["base".into()], players, seed: 7, options: vec![], sandbox: false }
}

/// A terminal session (`run_as_terminal`: the status before each prompt) of `config`.
fn terminal(config: ReplConfig, input: &str) -> String {
    let autosave_dir = Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("repl-screen-autosave"));
    let config = ReplConfig { autosave_dir, ..config };
    let mut out = Vec::new();
    let status = run_as_terminal(config, &mut input.as_bytes(), &mut out);
    let text = String::from_utf8(out).expect("UTF-8 output");
    assert_eq!(status, 0, "{text}");
    text
}

// The board ------------------------------------------------------------------------------

/// `show board` draws the compact board: within a 24-line, 80-column terminal, every
/// hex and intersection label readable; `show board full` the large one.
#[test]
fn show_board_is_compact_and_the_full_board_is_asked_for() {
    let run = play("board", &[], "show board\nshow board full\n");
    let board = after(&run.out, "show board", 0);
    assert!(board.len() <= 22, "{} lines:\n{}", board.len(), board.join("\n"));
    assert!(board.iter().all(|l| l.chars().count() <= 80), "{}", board.join("\n"));
    let words: Vec<String> = board
        .join(" ")
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(|w| w.trim_matches(|c: char| c.is_ascii_alphabetic()).to_string())
        .collect();
    for n in 1..=54 {
        assert!(words.contains(&n.to_string()), "intersection {n} cannot be read:\n{}", board.join("\n"));
    }
    let text = board.join("\n");
    for s in ["H1 ", "H19", "robber", "r26", "harbors: ", "r=red b=blue w=white o=orange"] {
        assert!(text.contains(s), "no {s:?}:\n{text}");
    }
    let full = after(&run.out, "show board full", 0);
    assert!(full.len() > 40, "{}", full.join("\n"));
    assert!(full.iter().any(|l| l.starts_with("legend: ")), "{}", full.join("\n"));
}

/// At a terminal the board is drawn again by itself (a new turn, a build) only when it
/// fits with the status and the prompt; on a 24-line terminal a line says `show board`
/// draws it. Piped input never draws it unasked.
#[test]
fn the_board_is_drawn_again_only_when_it_fits() {
    let input = "roll\nend\nshow hand\n";
    let small = terminal(ReplConfig { terminal_rows: Some(24), ..ReplConfig::new(header(4)) }, input);
    assert!(!small.contains("harbors: "), "{small}");
    assert!(small.contains("(the board changed: `show board` draws it)"), "{small}");
    let tall = terminal(ReplConfig { terminal_rows: Some(60), ..ReplConfig::new(header(4)) }, input);
    assert_eq!(tall.matches("harbors: ").count(), 2, "before red's turn and blue's:\n{tall}");
    assert!(!tall.contains("(the board changed"), "{tall}");
    let piped = play("piped", &[], "roll\nend\nroll\nend\n");
    assert!(!piped.out.contains("harbors: "), "{}", piped.out);
}

/// `show players`: one line a player within 80 columns, bots and the player to act
/// marked; points as "VP".
#[test]
fn the_players_table_fits_80_columns() {
    let run = play("players", &["--bots", "2,3"], "show players\n");
    let table = after(&run.out, "show players", 0);
    assert_eq!(table.len(), 4, "{table:?}");
    for l in &table {
        assert!(l.chars().count() <= 80, "{} columns: {l}", l.chars().count());
        assert!(l.contains(" 2 VP "), "{l}");
    }
    assert!(table[0].ends_with("<- turn") && table[1].ends_with("(bot)"), "{table:?}");
}

// Choices ----------------------------------------------------------------------------------

/// Set-up: a settlement's spots come with what each yields (resources with their numbers,
/// the pips in all), the richest under the grouped list.
#[test]
fn settlement_spots_say_what_they_yield() {
    let run = play("spots", &["--option", "starting_pieces=false"], "legal\nlegal settlement\n");
    let grouped = after(&run.out, "legal", 0).join("\n");
    assert!(grouped.contains("settlement N for N in: 1 2 3"), "{grouped}");
    assert!(grouped.contains("the most pips: "), "{grouped}");
    let each = after(&run.out, "legal settlement", 0);
    assert_eq!(each.len(), 1 + 54, "{each:?}");
    // Intersection 9 (seed 7's beginner board) touches H1 (mountains 10), H2 (pasture 2)
    // and H5 (hills 6): 3 + 1 + 5 pips.
    let nine = each.iter().find(|l| l.trim_start().starts_with("settlement 9 ")).expect("settlement 9");
    assert!(nine.contains("# brick 6, ore 10, wool 2: 9 pips"), "{nine}");
    let two = each.iter().find(|l| l.trim_start().starts_with("settlement 2 ")).expect("settlement 2");
    assert!(two.contains("wool 2: 1 pip"), "{two}");
}

/// Rolling a 7: the log says who must discard how many before anyone tries (base counts
/// them in `base.seven`, where the rule lives).
#[test]
fn a_seven_says_who_discards_how_many() {
    let run = play("seven", &["--sandbox"], "give red 2 brick 2 lumber 2 wool\ngive blue 6 ore\ndice 3 4\nroll\n");
    let rolled = after(&run.out, "roll", 0).join("\n");
    // red: 3 starting cards and 6 given, blue 3 and 6.
    assert!(rolled.contains("red must discard 4 cards"), "{rolled}");
    assert!(rolled.contains("blue must discard 4 cards"), "{rolled}");
    assert!(!rolled.contains("white must") && !rolled.contains("orange must"), "{rolled}");
}

/// Monopoly names each player and how many cards they gave.
#[test]
fn monopoly_says_from_whom() {
    let mut g = common::standard();
    main_phase_of(&mut g, "red");
    common::buy_until(&mut g, "red", "monopoly", 1);
    act_as(&mut g, "red", "end");
    main_phase_of(&mut g, "red");
    sb(&mut g, "give blue 3 grain");
    sb(&mut g, "give orange 2 grain");
    let (blue, white, orange) = (seat(&g, "blue"), seat(&g, "white"), seat(&g, "orange"));
    let gave: Vec<usize> = [blue, white, orange].iter().map(|&s| common::hand(&g, s, "grain")).collect();
    let before = g.messages().len();
    act_as(&mut g, "red", "play monopoly grain");
    let said: Vec<String> = g.messages()[before..].iter().map(|(_, m)| m.text.clone()).collect();
    let want = format!(
        "red plays Monopoly on grain and takes {} (blue {}, white {}, orange {})",
        gave.iter().sum::<usize>(),
        gave[0],
        gave[1],
        gave[2]
    );
    assert!(said.contains(&want), "{said:?}, not {want}");
}

// Going back and coming back ---------------------------------------------------------------

/// `undo` after `end` takes back the bots' actions since, and says whose and how many.
#[test]
fn undo_says_which_bot_actions_it_took_back() {
    let run = play("undo", &["--bots", "2=random,3=random,4=random"], "roll\nend\nundo\n");
    let undone = after(&run.out, "undo", 0).join("\n");
    let bots = run.out.lines().filter(|l| l.contains(" (bot)> ")).count();
    assert!(bots > 0, "{}", run.out);
    assert!(undone.starts_with(&format!("undone: end, and the {bots} bot actions after it (blue ")), "{undone}");
    assert!(undone.contains("white ") && undone.contains("orange "), "{undone}");
}

/// `--resume` names the game it continues: the save, the variant, the round and turn,
/// the seats and who is to act.
#[test]
fn resume_says_which_game() {
    let dir = home("resume");
    let args = ["play", "--seed", "7", "--no-color", "--bots", "2=random,3=random,4=random"];
    ok(catan_in(&dir, &args, "roll\nend\nquit\n", 60));
    let run = ok(catan_in(&dir, &["play", "--resume", "--no-color", "--bots", "2,3,4"], "quit\n", 60));
    let text = run.out.split_whitespace().collect::<Vec<_>>().join(" ");
    let save = dir.join("autosave").join("base-seed7.json");
    let want = format!(
        "continuing {}: base with 4 players, seed 7, round 2 (turn 5), 8 actions; seats red, blue (bot), \
         white (bot), orange (bot); red to act",
        save.display()
    );
    assert!(text.contains(&want), "{want}\n{}", run.out);
}

/// Hot seat at a terminal: before the next human's hand shows, the screen is passed
/// ("pass the screen to blue, then press Enter", which takes a line); not with one human,
/// nor in script mode.
#[test]
fn hot_seat_pauses_before_the_next_humans_hand() {
    let config = ReplConfig { hot_seat_pause: true, ..ReplConfig::new(header(4)) };
    let out = terminal(config, "roll\nend\n\nshow hand\n");
    let lines: Vec<&str> = out.lines().collect();
    let pause = lines.iter().position(|l| l.contains("pass the screen to blue, then press Enter")).expect(&out);
    let blue = lines.iter().position(|l| l.contains("blue's cards:")).expect(&out);
    let ended = lines.iter().position(|l| l.ends_with("]> end")).expect(&out);
    assert!(ended < pause && pause < blue, "{out}");
    assert!(lines[blue + 1..].iter().any(|l| l.ends_with("]> show hand")), "{out}");
    assert_eq!(out.matches("pass the screen").count(), 1, "{out}");

    let one_human =
        ReplConfig { hot_seat_pause: true, bots: "2=random,3=random,4=random".into(), ..ReplConfig::new(header(4)) };
    let out = terminal(one_human, "roll\nend\nshow hand\n");
    assert!(!out.contains("pass the screen"), "{out}");
    let piped = play("no-pause", &[], "roll\nend\nshow hand\n");
    assert!(!piped.out.contains("pass the screen"), "{}", piped.out);
}

// Words -------------------------------------------------------------------------------------

/// The prompt and base's log count rounds (every player's turn once): red plays rounds
/// 1, 2, ..., not turns 1, 5, ...; the set-up has no round.
#[test]
fn prompts_and_the_log_count_rounds() {
    let run = play("rounds", &[], "roll\nend\nroll\nend\nroll\nend\nroll\nend\nshow log 3\n");
    assert!(run.out.contains("[round 1 red roll]> roll"), "{}", run.out);
    assert!(run.out.contains("[round 1 orange roll]> roll"), "{}", run.out);
    assert!(run.out.contains("[round 2 red roll]> show log 3"), "{}", run.out);
    assert!(run.out.contains("--- round 2: red ---"), "{}", run.out);
    let setup = play("setup-prompt", &["--option", "starting_pieces=false"], "legal\n");
    assert!(setup.out.lines().any(|l| l.starts_with("[red setup]> legal")), "{}", setup.out);
}

/// `catan sim`: "1 win" and "1 seat", game length in rounds too, and the speed as it
/// reads best.
#[test]
fn sim_counts_in_words_and_rounds() {
    let run = ok(catan_in(
        &home("sim"),
        &["sim", "--players", "3", "--games", "1", "--seed", "5", "--bots", "random", "--jobs", "1"],
        "",
        60,
    ));
    assert!(run.out.contains(" 1 win ("), "{}", run.out);
    assert!(!run.out.contains(" 1 wins") && !run.out.contains("0 win ("), "{}", run.out);
    assert!(run.out.contains("rounds ("), "{}", run.out);
    assert!(run.out.contains(" on 1 worker\n"), "{}", run.out);
    assert_eq!(catan_engine::sim::speed_text(0.1), "10.0 seconds per game");
    assert_eq!(catan_engine::sim::speed_text(16.66), "16.7 games per second");
}

// The game's end ----------------------------------------------------------------------------

/// At the end: each seat's points by source (base's `points_by_source`) adding up to its
/// points, every card shown (victory point cards too), and the dice rolled (base's
/// `tallies`), one count for each roll.
#[test]
fn the_end_shows_points_by_source_cards_and_dice() {
    let run = play("end", &["--seed", "3", "--bots", "all=random"], "");
    let out = &run.out;
    let at = out.find("the game's end, every card shown:").unwrap_or_else(|| panic!("no summary:\n{}", tail(out)));
    let summary = &out[at..];
    let winner_line = out.lines().find(|l| l.starts_with("*** ")).expect("a winner");
    let winner = winner_line.trim_start_matches("*** ").split(' ').next().expect("a name");
    assert!(
        summary.lines().any(|l| l.starts_with(&format!("  {winner}: ")) && l.ends_with("= 10 points")),
        "{summary}"
    );
    for l in summary.lines().filter(|l| l.starts_with("  ") && l.ends_with(" points")) {
        // "settlements 4 + victory point card 1 = 5 points": the sources add up.
        let (sources, total) = l.rsplit_once(" = ").expect(l);
        let total: i64 = total.trim_end_matches(" points").parse().expect(l);
        let sum: i64 = sources.split(" + ").map(|s| s.rsplit(' ').next().unwrap().parse::<i64>().expect(l)).sum();
        assert_eq!(sum, total, "{l}");
    }
    assert!(summary.contains("victory point"), "hidden cards shown:\n{summary}");
    assert!(summary.contains("  dice rolled:\n     2 "), "{summary}");
    let rolls = out.lines().filter(|l| l.contains(" rolls ") && l.contains(" = ")).count();
    let counted: usize = summary
        .lines()
        .skip_while(|l| *l != "  dice rolled:")
        .skip(1)
        .take(11)
        .map(|l| l.rsplit(' ').next().unwrap().parse::<usize>().expect(l))
        .sum();
    assert_eq!(counted, rolls, "{summary}");
}
