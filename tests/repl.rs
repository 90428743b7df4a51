//! The `catan` binary as a user drives it: REPL transcripts piped through stdin
//! (`catan play` reads line by line when stdin is not a terminal), plus `catan sim` and
//! `catan variants`. Every run has a deadline, so a hang fails the test.

use serde_json::Value as J;
use std::path::PathBuf;

use crate::common;
use common::process::{after, catan_in, tail, Run};

impl Run {
    fn ok(&self) -> &Self {
        assert_eq!(
            self.code,
            Some(0),
            "exit status {:?}\nstderr:\n{}\nstdout (tail):\n{}",
            self.code,
            self.err,
            tail(&self.out)
        );
        self
    }

    /// The lines printed after the echo of the `n`th (0-based) input line equal to
    /// `command`, up to the next prompt.
    fn after(&self, command: &str, n: usize) -> Vec<&str> {
        after(&self.out, command, n)
    }

    /// The JSON printed by the `n`th `state --json` (or `view --json`).
    fn json(&self, command: &str, n: usize) -> J {
        let text = self.after(command, n).join("\n");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("'{command}' printed no JSON ({e}):\n{text}"))
    }
}

/// Runs `catan ARGS` with `input` on stdin; kills it after `secs` seconds. Autosaves go
/// to cargo's scratch folder, never to the user's home.
fn catan_with_deadline(args: &[&str], input: impl AsRef<[u8]>, secs: u64) -> Run {
    catan_in(&scratch_home("shared"), args, input, secs)
}

/// A folder for `CATAN_HOME` (autosaves), emptied.
fn scratch_home(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("repl-tests")
        .join(format!("{}-home-{name}", std::process::id()));
    if name != "shared" {
        let _ = std::fs::remove_dir_all(&dir);
    }
    dir
}

fn catan(args: &[&str], input: &str) -> Run {
    catan_with_deadline(args, input, 120)
}

const PLAY: &[&str] = &["play", "--seed", "7", "--bots", "none", "--no-color"];

fn play(extra: &[&str], input: &str) -> Run {
    let mut args = PLAY.to_vec();
    args.extend_from_slice(extra);
    catan(&args, input)
}

/// A fresh path in cargo's scratch folder for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("repl-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// The commands listed by `legal`, a long group by its examples (templates such as
/// `offer <cards> for <cards>` left out: they cannot be typed as they are).
fn legal_list(run: &Run, n: usize) -> Vec<String> {
    let lines = run.after("legal", n);
    assert!(lines.first().is_some_and(|l| l.ends_with(" may:")), "{lines:?}");
    let mut out = vec![];
    // A note after `#` (what a kind of action costs) is a comment.
    for l in lines[1..].iter().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.contains('<')) {
        // One kind with one word to choose (`settlement N for N in: 1 4 5 (12 ways)`):
        // every choice.
        if let Some((kind, rest)) = l.split_once(" N for N in: ") {
            let choices = rest.rsplit_once(" (").map_or(rest, |(c, _)| c);
            out.extend(choices.split_whitespace().map(|c| format!("{kind} {c}")));
            continue;
        }
        // A group of many (`road ... (12 ways, e.g. `road 1-2`, ...; `legal road` lists
        // them)`): its examples.
        if l.contains(" ways, e.g. `") {
            let parts: Vec<&str> = l.split('`').collect();
            out.extend(parts.iter().skip(1).step_by(2).filter(|p| !p.starts_with("legal ")).map(|p| p.to_string()));
        } else {
            out.push(l.to_string());
        }
    }
    out
}

// help and legal ------------------------------------------------------------------------------

#[test]
fn help_lists_the_commands_and_every_action() {
    let run = play(&[], "help\n");
    run.ok();
    let help = run.after("help", 0).join("\n");
    for command in [
        "commands:",
        "help",
        "legal",
        "show [board|hand|players|bank|log]",
        "state --json",
        "view --json",
        "undo",
        "save FILE",
        "load FILE",
        "quit",
        "actions of this game:",
        "roll",
        "end",
        "road <path>",
        "settlement <intersection>",
        "city <intersection>",
        "buy",
        "trade <cards> for <cards>",
        "offer <cards> for <cards>",
        "discard <cards>",
        "robber <hex>",
        "play knight",
        "play monopoly <resource>",
    ] {
        assert!(help.contains(command), "help lacks {command:?}:\n{help}");
    }
    assert!(!help.contains("dice A B"), "sandbox commands without --sandbox");

    let run = play(&["--sandbox"], "help\n");
    let help = run.ok().after("help", 0).join("\n");
    for command in ["sandbox commands", "dice A B", "give PLAYER CARDS", "place PIECE LABEL PLAYER"] {
        assert!(help.contains(command), "help lacks {command:?}:\n{help}");
    }
}

#[test]
fn legal_commands_typed_back_are_accepted() {
    // Cards from the sandbox and a forced 6 make many kinds of action legal.
    let setup = "give red 4 brick 4 lumber 4 wool 4 grain 4 ore\ndice 3 3\n";
    let before = play(&["--sandbox"], &format!("{setup}legal\nroll\nlegal\n"));
    before.ok();
    let at_start = legal_list(&before, 0);
    assert!(at_start.contains(&"roll".to_string()), "{at_start:?}");
    let after_roll = legal_list(&before, 1);
    for kind in ["end", "road ", "buy", "trade "] {
        assert!(after_roll.iter().any(|a| a.starts_with(kind)), "no '{kind}' among {after_roll:?}");
    }

    // Type every one back (each followed by undo) in strict mode: one refusal exits 2.
    let mut input = setup.to_string();
    for a in &at_start {
        input.push_str(&format!("{a}\nundo\n"));
    }
    input.push_str("roll\n");
    for a in &after_roll {
        input.push_str(&format!("{a}\nundo\n"));
    }
    let run = play(&["--sandbox", "--strict"], &input);
    assert_eq!(run.code, Some(0), "a listed command was refused:\n{}", tail(&run.out));
    let undone = run.out.lines().filter(|l| l.starts_with("undone: ")).count();
    assert_eq!(undone, at_start.len() + after_roll.len());
    assert!(!run.out.contains("error:"), "{}", tail(&run.out));
}

// Errors and --strict ------------------------------------------------------------------------------

#[test]
fn a_bad_command_prints_an_error_and_strict_mode_stops_with_status_2() {
    let run = play(&[], "bogus\nroll\n");
    run.ok();
    let err = run.after("bogus", 0).join("\n");
    assert!(err.starts_with("error: unknown command 'bogus'"), "{err}");
    assert!(run.out.contains("red rolls"), "the session should go on");

    let run = play(&["--strict"], "bogus\nroll\n");
    assert_eq!(run.code, Some(2), "{}", tail(&run.out));
    assert!(run.out.contains("error: unknown command 'bogus'"));
    assert!(!run.out.contains("red rolls"), "strict mode went on after the error");

    // A rule's refusal counts the same. It says why in the rulebook's words; where the
    // rule is (file:line) is for modders: with --debug.
    let run = play(&["--strict"], "end\nroll\n");
    assert_eq!(run.code, Some(2), "{}", tail(&run.out));
    let err = run.after("end", 0).join("\n");
    assert_eq!(err, "error: roll the dice first");
    let run = play(&["--strict", "--debug"], "end\nroll\n");
    let err = run.after("end", 0).join("\n");
    assert!(err.starts_with("error: roll the dice first"), "{err}");
    assert!(err.contains("variants/base/"), "with --debug the refusal says where: {err}");

    // So does a malformed action.
    let run = play(&["--strict"], "roll\nroad nowhere\nend\n");
    assert_eq!(run.code, Some(2));
    assert!(run.after("road nowhere", 0)[0].starts_with("error: "));
}

#[test]
fn quit_ends_the_session_early() {
    let run = play(&["--strict"], "quit\nbogus\n");
    run.ok();
    assert!(!run.out.contains("bogus'"), "{}", run.out);
}

// Playing and showing -----------------------------------------------------------------------------

#[test]
fn roll_end_and_show() {
    let run = play(&[], "roll\nshow board\nshow hand\nshow players\nshow bank\nshow log\nend\nshow\n");
    run.ok();
    assert!(run.out.contains("[round 1 red roll]> roll"), "{}", tail(&run.out));
    let rolled = run.after("roll", 0).join("\n");
    assert!(rolled.contains("red rolls "), "{rolled}");

    let board = run.after("show board", 0).join("\n");
    for s in ["H1", "H19", "robber", "harbors:", "r=red"] {
        assert!(board.contains(s), "the board lacks {s:?}:\n{board}");
    }
    assert_eq!(run.after("show", 0).join("\n"), board, "`show` is `show board`");

    let hand = run.after("show hand", 0).join("\n");
    assert!(hand.contains("red's cards:"), "{hand}");
    assert!(hand.contains("points (with hidden cards): 2"), "{hand}");

    let players = run.after("show players", 0);
    assert_eq!(players.len(), 4, "{players:?}");
    for (line, color) in players.iter().zip(["red", "blue", "white", "orange"]) {
        assert!(line.trim_start().starts_with(color), "{line}");
        assert!(line.contains(" VP "), "{line}");
    }
    assert!(players[0].contains("<- turn"), "{}", players[0]);

    let bank = run.after("show bank", 0).join("\n");
    assert!(bank.contains("bank: "), "{bank}");
    assert!(bank.contains("deck: 25 cards"), "{bank}");

    let log = run.after("show log", 0).join("\n");
    assert!(log.contains("--- round 1: red ---"), "{log}");
    assert!(log.contains("red rolls "), "{log}");

    let ended = run.after("end", 0).join("\n");
    assert!(ended.contains("--- round 1: blue ---"), "{ended}");
    assert!(run.out.contains("[round 1 blue roll]> show"));
}

#[test]
fn state_json_is_valid_json_with_the_whole_game() {
    let run = play(&[], "state --json\nroll\nstate --json\nview --json\n");
    run.ok();
    let v = run.json("state --json", 0);
    for key in ["board", "players", "phase", "current", "winner"] {
        assert!(v.get(key).is_some(), "state --json lacks '{key}': {v}");
    }
    assert_eq!(v["phase"], "roll");
    assert_eq!(v["winner"], J::Null);
    let colors: Vec<&str> = v["players"].as_array().unwrap().iter().map(|p| p["color"].as_str().unwrap()).collect();
    assert_eq!(colors, ["red", "blue", "white", "orange"]);
    assert_eq!(v["board"]["hexes"].as_array().unwrap().len(), 19);

    let v = run.json("state --json", 1);
    assert_ne!(v["phase"], "roll");

    // The player's view hides the development deck's order.
    let view = run.json("view --json", 0);
    assert!(view.get("players").is_some(), "{view}");
}

// Save, load, undo -----------------------------------------------------------------------------------

#[test]
fn save_then_load_in_a_second_run_reproduces_the_game() {
    let file = scratch("save.json");
    let path = file.to_str().unwrap();
    let first = play(&[], &format!("roll\nend\nroll\nsave {path}\nstate --json\n"));
    first.ok();
    assert!(first.out.contains(&format!("saved to {path} (3 actions)")), "{}", tail(&first.out));
    let saved = first.json("state --json", 0);
    let file_json: J = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(file_json["log"].as_array().unwrap().len(), 3);

    // Another seed on the command line: the file's header wins.
    let second =
        catan(&["play", "--seed", "99", "--bots", "none", "--no-color"], &format!("load {path}\nstate --json\n"));
    second.ok();
    assert!(second.out.contains(&format!("loaded {path} (3 actions)")));
    assert_eq!(second.json("state --json", 0), saved);

    // `--load` does the same at start-up.
    let third = play(&["--load", path], "state --json\n");
    third.ok();
    assert_eq!(third.json("state --json", 0), saved);

    // A missing file is an error, and strict mode stops on it.
    let run = play(&["--strict"], "load /nonexistent/catan.json\n");
    assert_eq!(run.code, Some(2));
    assert!(run.out.contains("cannot load /nonexistent/catan.json"));
}

#[test]
fn load_reports_a_tampered_log() {
    let file = scratch("tampered.json");
    let path = file.to_str().unwrap();
    play(&[], &format!("roll\nend\nroll\nend\nsave {path}\n")).ok();
    let mut v: J = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // The second roll (action 3) is turned into an `end` before rolling.
    assert_eq!(v["log"][2]["command"], "roll");
    v["log"][2]["command"] = J::from("end");
    std::fs::write(&file, v.to_string()).unwrap();
    let run = play(&[], &format!("load {path}\nstate --json\n"));
    run.ok();
    let said = run.after(&format!("load {path}"), 0).join("\n");
    assert!(said.contains("warning: the log diverges at action 3 ('end')"), "{said}");
    assert!(said.contains("loaded"), "{said}");
    assert_eq!(run.json("state --json", 0)["phase"], "roll");
}

#[test]
fn undo_takes_back_the_last_action() {
    let run = play(&[], "state --json\nroll\nundo\nstate --json\n");
    run.ok();
    assert_eq!(run.after("undo", 0), vec!["undone: roll"]);
    assert_eq!(run.json("state --json", 0), run.json("state --json", 1));

    let run = play(&["--strict"], "undo\n");
    assert_eq!(run.code, Some(2));
    assert!(run.out.contains("nothing to undo"));
}

// Sandbox -------------------------------------------------------------------------------------------

#[test]
fn sandbox_dice_force_the_roll_and_are_logged() {
    let run = play(&["--sandbox", "--strict"], "dice 3 4\nroll\nshow log\n");
    run.ok();
    let said = run.after("dice 3 4", 0).join("\n");
    assert!(said.contains("(sandbox) the next roll will be 3 and 4"), "{said}");
    let rolled = run.after("roll", 0).join("\n");
    assert!(rolled.contains("red rolls 3+4 = 7"), "{rolled}");
    let log = run.after("show log", 0).join("\n");
    assert!(log.contains("(sandbox) the next roll will be 3 and 4"), "{log}");
    assert!(log.contains("red rolls 3+4 = 7"), "{log}");

    // Bad dice are refused.
    let run = play(&["--sandbox", "--strict"], "dice 7 1\n");
    assert_eq!(run.code, Some(2));
    assert!(run.out.contains("error: dice are 1 to 6"));

    // Without --sandbox there is no such command.
    let run = play(&["--strict"], "dice 3 4\nroll\n");
    assert_eq!(run.code, Some(2), "{}", tail(&run.out));
    assert!(!run.out.contains("red rolls 3+4"));
}

#[test]
fn sandbox_edits_survive_save_and_load() {
    let file = scratch("sandbox.json");
    let path = file.to_str().unwrap();
    let first =
        play(&["--sandbox", "--strict"], &format!("dice 6 6\nroll\ngive red 3 ore\nsave {path}\nstate --json\n"));
    first.ok();
    let second = play(&["--load", path], "state --json\nshow log\n");
    second.ok();
    assert_eq!(second.json("state --json", 0), first.json("state --json", 0));
    assert!(second.out.contains("red rolls 6+6 = 12"));
}

// Bots and player counts ---------------------------------------------------------------------------

#[test]
fn bots_play_a_whole_game_to_the_end() {
    let run = catan_with_deadline(&["play", "--seed", "3", "--bots", "all=random", "--no-color"], "", 300);
    run.ok();
    assert!(run.out.contains("humans: none; bots: red (random), blue (random), white (random), orange (random)"));
    let win = run
        .out
        .lines()
        .find(|l| l.contains("wins the game"))
        .unwrap_or_else(|| panic!("no winner:\n{}", tail(&run.out)));
    assert!(win.starts_with("*** ") && win.contains(" points ***"), "{win}");
    assert!(run.out.contains("(bot)> roll"));

    // The same seed plays the same game, in another process too (Lua's hash order of
    // string keys changes from process to process; the rules must not depend on it).
    let again = catan_with_deadline(&["play", "--seed", "3", "--bots", "all=random", "--no-color"], "", 300);
    assert_eq!(again.out, run.out);

    // The same with a random board and the set-up rounds, where more is drawn.
    let args = [
        "play",
        "--seed",
        "11",
        "--bots",
        "all=random",
        "--no-color",
        "--option",
        "board=random",
        "--option",
        "starting_pieces=false",
    ];
    let first = catan_with_deadline(&args, "", 300);
    first.ok();
    assert!(first.out.contains("wins the game"), "{}", tail(&first.out));
    assert!(first.out.contains("(bot)> settlement "), "no set-up rounds:\n{}", tail(&first.out));
    assert_eq!(catan_with_deadline(&args, "", 300).out, first.out);
}

#[test]
fn humans_and_bots_take_turns() {
    // Seat 1 is human, the others bots: after red ends, the bots play until red's turn.
    let run = catan(
        &["play", "--seed", "7", "--bots", "2=random,3=random,4=random", "--no-color"],
        "roll\nend\nshow players\n",
    );
    run.ok();
    assert!(run.out.contains("blue (bot)> roll"), "{}", tail(&run.out));
    assert!(run.out.contains("orange (bot)> "));
    assert!(run.out.contains("[round 2 red roll]> show players"), "{}", tail(&run.out));

    let run = catan(&["play", "--seed", "7", "--bots", "purple", "--no-color"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("'purple' is not a seat"), "{}", run.err);
}

#[test]
fn a_bot_may_play_with_weights_of_its_own() {
    // docs/bots.md, "Weights files": `KIND@FILE` in `catan play --bots` as in `catan sim`.
    // Victory points alone: a bot that heeds the file plays another game than the
    // hand-written evaluation (`@none`) from the same seed.
    let path = scratch("points.weights.toml");
    std::fs::write(
        &path,
        "[[tuned]]\nstack = \"base\"\nhash = \"0\"\nplayers = 4\nmade = \"by hand\"\n\n[tuned.weights]\npoints = 1.0\n",
    )
    .unwrap();
    let own = format!("all=planner@{}", path.display());
    let game = |bots: &str| catan_with_deadline(&["play", "--seed", "3", "--bots", bots, "--no-color"], "", 300);
    let run = game(&own);
    run.ok();
    assert!(run.out.contains(&format!("red (planner@{})", path.display())), "{}", tail(&run.out));
    let hand_written = game("all=planner@none");
    hand_written.ok();
    assert!(hand_written.out.contains("red (planner@none)"));
    assert_ne!(run.out.replace(&format!("planner@{}", path.display()), "planner@none"), hand_written.out);
    // A file that is not there is a clear error before play.
    let run = catan(&["play", "--seed", "7", "--bots", "blue=planner@/no/such/file.toml", "--no-color"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("--bots: /no/such/file.toml"), "{}", run.err);
}

#[test]
fn three_players_leave_red_out() {
    let run = play(&["--players", "3"], "show players\nstate --json\n");
    run.ok();
    assert!(run.out.contains("base with 3 players"));
    assert!(run.out.contains("humans: blue, white, orange"));
    let players = run.after("show players", 0).join("\n");
    assert!(!players.contains("red"), "{players}");
    assert_eq!(players.lines().count(), 3);
    assert!(run.out.contains("[round 1 blue roll]> "));
    let colors: Vec<J> =
        run.json("state --json", 0)["players"].as_array().unwrap().iter().map(|p| p["color"].clone()).collect();
    assert_eq!(colors, ["blue", "white", "orange"]);

    let run = play(&["--players", "7"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("3 to 6 players"), "{}", run.err);
}

// Options and variants on the command line ---------------------------------------------------------

#[test]
fn bad_options_fail_at_start_up() {
    let run = play(&["--option", "no_such=1"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("unknown option 'no_such'"), "{}", run.err);
    let run = play(&["--option", "victory_points=99"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("between 3 and 30"), "{}", run.err);
    let run = play(&["--option", "victory_points"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("KEY=VALUE"), "{}", run.err);

    let file = scratch("options.toml");
    std::fs::write(&file, "victory_points = 5\nboard = \"random\"\n").unwrap();
    let run = play(&["--options-file", file.to_str().unwrap()], "state --json\n");
    run.ok();
    let v = run.json("state --json", 0);
    assert_eq!(v["options"]["victory_points"], 5, "{}", v["options"]);
    assert_eq!(v["options"]["board"], "random");
}

#[test]
fn a_hostile_variant_cannot_hang_or_kill_the_repl() {
    let run = play(&["--variant", "tests/variants/hostile.lua"], "spin\nescape os_execute\nhog\nroll\n");
    run.ok();
    let spin = run.after("spin", 0).join("\n");
    assert!(spin.starts_with("error: script error:") && spin.contains("budget"), "{spin}");
    let esc = run.after("escape os_execute", 0).join("\n");
    assert!(esc.contains("not available") && esc.contains("sandbox"), "{esc}");
    let hog = run.after("hog", 0).join("\n");
    assert!(hog.contains("memory"), "{hog}");
    assert!(run.after("roll", 0).join("\n").contains("red rolls"));

    let run = play(&["--variant", "tests/variants/load_loop.lua"], "roll\n");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("budget"), "{}", run.err);

    let run = play(&["--variant", "tests/variants/syntax_error.lua"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("tests/variants/syntax_error.lua:5"), "{}", run.err);
}

// sim and variants ---------------------------------------------------------------------------------

#[test]
fn sim_reports_json() {
    let args = ["sim", "--variant", "base", "--players", "4", "--games", "5", "--seed", "1", "--json"];
    let run = catan_with_deadline(&args, "", 300);
    run.ok();
    let v: J =
        serde_json::from_str(&run.out).unwrap_or_else(|e| panic!("sim --json printed no JSON ({e}):\n{}", run.out));
    assert_eq!(v["games"], 5);
    assert_eq!(v["players"], 4);
    assert_eq!(v["variants"], serde_json::json!(["base"]));
    let finished = v["finished"].as_u64().unwrap();
    assert!(finished <= 5);
    let wins: Vec<u64> = v["wins"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect();
    assert_eq!(wins.len(), 4);
    assert_eq!(wins.iter().sum::<u64>(), finished);
    for key in ["mean_turns", "mean_actions", "games_per_second"] {
        let x = v[key].as_f64().unwrap_or_else(|| panic!("no number '{key}': {v}"));
        assert!(x > 0.0, "{key} = {x}");
    }
    assert!(v["mean_actions"].as_f64() >= v["mean_turns"].as_f64());

    // The same seed simulates the same games.
    let again: J = serde_json::from_str(&catan_with_deadline(&args, "", 300).ok().out).unwrap();
    for key in ["finished", "wins", "mean_turns", "mean_actions"] {
        assert_eq!(again[key], v[key], "{key}");
    }
}

#[test]
fn sim_prints_a_readable_report() {
    let run = catan_with_deadline(&["sim", "--players", "3", "--games", "2", "--seed", "5"], "", 300);
    run.ok();
    assert!(run.out.contains("2 games of base with 3 players (seed 5)"), "{}", run.out);
    assert!(run.out.contains("seat 3:"));
    assert!(!run.out.contains("seat 4:"));
    assert!(run.out.contains("games per second") || run.out.contains("seconds per game"), "{}", run.out);
}

#[test]
fn variants_lists_base_with_its_options() {
    let run = catan(&["variants"], "");
    run.ok();
    assert!(run.out.contains("base  (stack: base)"), "{}", run.out);
    assert!(run.out.contains("players: 3-6 (default 4)"), "{}", run.out);
    for option in [
        "victory_points",
        "board",
        "beginner|variable|random|stand_in",
        "turn_structure",
        "starting_pieces",
        "combined_trade_build",
        "robber_desert",
        "shortage_exception",
        "discard_limit",
        "int 3..30",
    ] {
        assert!(run.out.contains(option), "`catan variants` lacks {option:?}:\n{}", run.out);
    }
    assert!(!run.out.contains("cannot load"), "{}", run.out);
}

// Nothing lost (issue 10) -------------------------------------------------------------------------

const BREACH: &str = "tests/variants/breach.lua";
const ROLLED_ERROR: &str = "tests/variants/rolled_error.lua";

/// A save of 4 actions whose third was turned into an `end` before rolling: the replay
/// diverges there.
fn diverging_save(name: &str) -> (PathBuf, String) {
    let file = scratch(name);
    play(&[], &format!("roll\nend\nroll\nend\nsave {}\n", file.display())).ok();
    let mut v: J = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v["log"][2]["command"] = J::from("end");
    std::fs::write(&file, v.to_string()).unwrap();
    (file.clone(), std::fs::read_to_string(&file).unwrap())
}

#[test]
fn load_at_start_up_reports_a_divergence_and_keeps_the_longer_save() {
    let (file, original) = diverging_save("diverging.json");
    let path = file.to_str().unwrap();
    let other = scratch("diverging-copy.json");
    let run = play(&["--load", path], &format!("save {path}\nsave {}\n", other.display()));
    run.ok();
    assert!(run.out.contains("warning: the log diverges at action 3 ('end')"), "{}", tail(&run.out));
    assert!(run.out.contains("loaded the 2 actions before it"), "{}", tail(&run.out));
    let refused = run.after(&format!("save {path}"), 0).join("\n");
    assert!(refused.contains("not saved") && refused.contains("--force"), "{refused}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "the longer save was overwritten");
    assert!(run.out.contains(&format!("saved to {} (2 actions)", other.display())));
    // The user says so: --force replaces it.
    let run = play(&["--load", path], &format!("save {path} --force\n"));
    run.ok();
    assert!(run.out.contains(&format!("saved to {path} (2 actions)")), "{}", tail(&run.out));
}

#[test]
fn load_refuses_flags_that_the_save_overrides() {
    let file = scratch("flags.json");
    let path = file.to_str().unwrap();
    play(&[], &format!("roll\nsave {path}\n")).ok();
    for (flags, named) in [
        (&["--variant", "family"][..], "--variant family (the save is base)"),
        (&["--players", "3"][..], "--players"),
        (&["--seed", "8"][..], "--seed"),
        (&["--option", "victory_points=12"][..], "--option"),
    ] {
        let mut args = vec!["play", "--load", path, "--bots", "none", "--no-color"];
        args.extend_from_slice(flags);
        let run = catan(&args, "state --json\n");
        assert_eq!(run.code, Some(1), "{flags:?} was accepted:\n{}", tail(&run.out));
        assert!(run.err.contains(named), "{flags:?}: {}", run.err);
    }
    // Flags that agree with the save are fine.
    let run = catan(&["play", "--load", path, "--bots", "none", "--variant", "base", "--seed", "7"], "legal\n");
    run.ok();
}

#[test]
fn a_line_that_is_not_utf8_is_rejected_and_the_session_goes_on() {
    let mut input = b"roll\n".to_vec();
    input.extend_from_slice(b"\xff\xfe end\n");
    input.extend_from_slice(b"end\nstate --json\n");
    let run = catan_with_deadline(PLAY, &input, 120);
    run.ok();
    assert!(run.out.contains("error: input line 2 is not valid UTF-8; ignored"), "{}", tail(&run.out));
    assert_eq!(run.json("state --json", 0)["current"], "blue", "the commands after the bad line ran");
    let run = catan_with_deadline(&[PLAY, &["--strict"]].concat(), &input, 120);
    assert_eq!(run.code, Some(2));
}

#[test]
fn a_to_act_hook_of_the_wrong_type_is_refused_and_the_session_goes_on() {
    let run = play(&["--variant", BREACH], "misdirect\nroll\nstate --json\n");
    run.ok();
    let said = run.after("misdirect", 0).join("\n");
    assert!(said.contains("breach.to_act") && said.contains("breach.lua:"), "{said}");
    assert_ne!(run.json("state --json", 0)["phase"], "roll", "the roll after the refusal ran");
}

#[test]
fn legal_shows_an_error_while_listing_instead_of_nothing() {
    let run = play(&["--variant", "tests/variants/hostile_options.lua"], "roll\nlegal\n");
    run.ok();
    let said = run.after("legal", 0).join("\n");
    assert!(said.contains("error: cannot list red's actions") && said.contains("budget"), "{said}");
}

#[test]
fn a_bot_error_is_shown_and_the_game_can_still_be_saved() {
    let file = scratch("bot-error.json");
    let path = file.to_str().unwrap();
    let run = catan(
        &["play", "--seed", "7", "--variant", ROLLED_ERROR, "--bots", "all", "--no-color"],
        &format!("save {path}\nquit\n"),
    );
    run.ok();
    let said = run.out.lines().find(|l| l.starts_with("error: bot action 'roll' was refused")).unwrap_or_default();
    assert!(
        said.contains("(in event hook 'rolled_error.eights')") && said.contains("rolled_error.lua:7"),
        "{}",
        run.out
    );
    assert!(run.out.contains(&format!("saved to {path}")), "{}", tail(&run.out));
}

#[test]
fn sim_counts_games_stopped_by_a_script_error() {
    let run = catan(&["sim", "--variant", ROLLED_ERROR, "--games", "2", "--seed", "1"], "");
    run.ok();
    assert!(run.out.contains("stopped by a script error: 2"), "{}", run.out);
    assert!(run.out.contains("rolled_error.eights"), "{}", run.out);
}

// The player at the table (issue 15) ---------------------------------------------------------

/// 003, Maritime Trade: "The 4:1 trade is always possible, even if you do not have a
/// settlement on a harbor" — the README's `trade 4 ore for brick` works for a player on
/// a 3:1 harbor (1-4) and on the 2:1 ore harbor (11-16) too.
#[test]
fn maritime_trade_four_to_one_works_for_a_player_on_a_harbor() {
    let run = play(
        &["--sandbox", "--strict"],
        "place settlement 1 red\nplace settlement 16 red\ngive red 4 wool 4 ore\ndice 1 1\nroll\n\
         trade 4 wool for brick\ntrade 4 ore for brick\n",
    );
    run.ok();
    assert!(run.after("trade 4 wool for brick", 0).join("\n").contains("red trades 4 wool to the bank for brick"));
    assert!(run.after("trade 4 ore for brick", 0).join("\n").contains("red trades 4 ore to the bank for brick"));
}

/// A built-on intersection keeps its label readable: `r26` is red's settlement on 26,
/// `R26` would be a city; every intersection number of the board can still be read.
#[test]
fn the_board_shows_the_label_of_every_built_on_intersection() {
    let run = play(&[], "show board full\n");
    let board = run.ok().after("show board full", 0).join("\n");
    for piece in ["r26", "r37", "b9", "b29", "w40", "w41", "o38", "o49"] {
        assert!(board.split_whitespace().any(|w| w == piece), "{piece} not on the board:\n{board}");
    }
    let numbers: std::collections::HashSet<String> =
        board.split_whitespace().map(|w| w.trim_start_matches(|c: char| c.is_ascii_alphabetic()).to_string()).collect();
    for n in 1..=54 {
        assert!(numbers.contains(&n.to_string()), "intersection {n} cannot be read:\n{board}");
    }
    assert!(board.contains("legend: r26 settlement on 26; R26 city"), "{board}");
}

/// Refusals say why in the rulebook's words, with no file:line for a player; `--debug`
/// and a sandbox game add the variant and file:line for modders.
#[test]
fn refusals_say_why_and_file_lines_are_for_modders() {
    let input = "play knight\nend\nroll\nroll\nroad 1-2\n";
    let run = play(&[], input);
    run.ok();
    assert_eq!(run.after("play knight", 0), ["error: you have no knight card"]);
    assert_eq!(run.after("end", 0), ["error: roll the dice first"]);
    assert_eq!(run.after("roll", 1), ["error: you have already rolled the dice this turn"]);
    assert!(run.after("road 1-2", 0)[0].starts_with("error: "), "{}", tail(&run.out));
    assert!(!run.out.contains(".lua:"), "a player saw a file:line:\n{}", run.out);
    for flag in ["--debug", "--sandbox"] {
        let run = play(&[flag], input);
        let said = run.ok().after("play knight", 0).join("\n");
        assert!(
            said.starts_with("error: you have no knight card [base, variants/base/development_cards.lua:"),
            "{flag}: {said}"
        );
    }
}

/// Player-facing words: zone titles instead of internal names, plurals, the same
/// `error:` prefix for every refusal (the game being over too).
#[test]
fn player_facing_text_has_no_internal_names_and_counts_right() {
    let input = "roll\nroad 16-21\noffer 2 ore for brick\naccept\ndecline\ndecline\nconfirm blue\n\
                 show players\nshow hand\nshow bank\ngive red 2 brick 2 lumber 2 wool 2 grain ore\nbuy\nshow hand\n\
                 road 11-16\nsettlement 16\nroll\nlegal\nhint\nundo\n";
    let run = play(&["--sandbox", "--option", "victory_points=3"], input);
    run.ok();
    let players = run.after("show players", 0);
    assert!(players[0].contains(" 1 resource card "), "{}", players[0]);
    assert!(players[0].contains(" 0 development cards "), "{}", players[0]);
    assert!(players[1].contains(" 5 resource cards "), "{}", players[1]);
    let hand = run.after("show hand", 0).join("\n");
    assert!(hand.contains("resource cards: 1 brick"), "{hand}");
    let bank = run.after("show bank", 0).join("\n");
    assert!(bank.contains("development deck: 25 cards"), "{bank}");
    assert!(bank.contains("progress cards played: empty"), "{bank}");
    let hand = run.after("show hand", 1).join("\n");
    assert!(hand.contains("bought this turn"), "{hand}");
    for internal in ["dev_new", "box:", "hand:", "dev:", "(s)"] {
        assert!(!run.out.contains(internal), "{internal:?} shown to a player:\n{}", run.out);
    }
    assert!(run.out.contains("red wins the game"), "{}", tail(&run.out));
    for (command, n) in [("roll", 1), ("legal", 0), ("hint", 0)] {
        assert_eq!(run.after(command, n), ["error: the game is over (save, show, or quit)"], "{command}");
    }
    for line in run.out.lines().filter(|l| l.contains("nothing to undo") || l.contains("cannot ")) {
        assert!(line.starts_with("error: "), "{line}");
    }
}

/// A mistyped command or action gets the closest name; `help WORDS` explains one command
/// or action in full, `help CARD` gives the card's text; `legal --json` is for programs.
#[test]
fn did_you_mean_help_topics_and_legal_json() {
    let input = "rol\nsetlement 12\nplay knigt\nroad nowhere\nhelp road\nhelp trde\nhelp knight\nhelp save\n\
                 help play monopoly\nlegal --json\n";
    let run = play(&[], input);
    run.ok();
    assert!(run.after("rol", 0)[0].ends_with("did you mean `roll`?"), "{:?}", run.after("rol", 0));
    assert!(run.after("setlement 12", 0)[0].ends_with("did you mean `settlement`?"));
    assert!(run.after("play knigt", 0)[0].ends_with("did you mean `play knight`?"));
    assert!(!run.after("road nowhere", 0)[0].contains("did you mean"), "the command was typed right");
    assert_eq!(
        run.after("help road", 0),
        ["road <path>", "  build a road; free in the set-up phase and with Road Building (costs brick, lumber)"]
    );
    assert_eq!(run.after("help trde", 0), ["error: no command, action or card 'trde'; did you mean `help trade`?"]);
    assert!(run.after("help knight", 0)[0].starts_with("Knight (development card, 14): "));
    assert!(run.after("help save", 0).join("\n").contains("--force replaces a save"));
    let monopoly = run.after("help play monopoly", 0).join("\n");
    assert!(
        monopoly.contains("play monopoly <resource>") && monopoly.contains("Monopoly (progress card"),
        "{monopoly}"
    );
    let legal: J = serde_json::from_str(&run.after("legal --json", 0).join("\n")).expect("legal --json is JSON");
    assert_eq!(legal["seat"], "red");
    assert_eq!(legal["actions"], serde_json::json!(["roll"]));
    assert_eq!(legal["notes"]["road"], "costs brick, lumber");
}

/// Issue 14, assigned here: `help` and `legal` show what an action costs after the
/// variant's filters (docs/examples/cheap_roads.lua: a road costs one lumber), and the
/// refusal names that price, not the printed one.
#[test]
fn help_and_legal_show_costs_after_the_house_rules() {
    let input = "help\nroll\nlegal\nroad 16-21\nroad 20-26\n";
    let run = play(&["--variant", "docs/examples/cheap_roads.lua"], input);
    run.ok();
    let help = run.after("help", 0).join("\n");
    assert!(help.contains("free in the set-up phase and with Road Building (costs lumber)"), "{help}");
    assert!(
        help.contains("build a settlement; in the set-up phase, place one for free (costs brick, lumber, wool, grain)")
    );
    let legal = run.after("legal", 0);
    assert_eq!(legal[1], "  road 16-21   # costs lumber", "{legal:?}");
    assert_eq!(run.after("road 20-26", 0), ["error: you cannot pay lumber"]);
    // The noted line is typed back as it is printed: the note is a comment.
    let run = play(&["--strict"], "roll\nroad 16-21   # costs brick, lumber\n");
    run.ok();
}

/// Test-only actions (Rivals' `edit ...`, option test_edits) are not in a player's help;
/// `--debug` lists them.
#[test]
fn test_only_actions_are_hidden_from_a_players_help() {
    let run = play(&["--variant", "rivals"], "help\nhelp build road\n");
    let help = run.ok().after("help", 0).join("\n");
    assert!(help.contains("actions of this game:"), "{help}");
    // Rivals notes its centre cards' costs the same way (after its cost filters).
    let road = run.after("help build road", 0).join("\n");
    assert!(road.contains("build a road at an open end of your centre row (costs 2 brick, 1 lumber)"), "{road}");
    assert!(!help.contains("edit ") && !help.contains("test_edits"), "{help}");
    let run = play(&["--variant", "rivals", "--debug"], "help\n");
    assert!(run.ok().after("help", 0).join("\n").contains("edit hand <player> <word>"));
}

/// `quit` and `load` keep unsaved progress (and say where); `catan play --resume`
/// continues the last game; a game with nothing unsaved is not saved again.
#[test]
fn quit_and_load_autosave_and_resume_continues() {
    let home = scratch_home("autosave");
    let run = catan_in(&home, PLAY, "roll\nend\nstate --json\nquit\n", 120);
    run.ok();
    let said = run.after("quit", 0).join("\n");
    assert!(said.starts_with(&format!("autosaved the game to {}", home.join("autosave").display())), "{said}");
    assert!(said.contains("(2 actions); `catan play --resume` continues it"), "{said}");
    let resumed = catan_in(&home, &["play", "--resume", "--bots", "none", "--no-color"], "state --json\nquit\n", 120);
    resumed.ok();
    assert_eq!(resumed.json("state --json", 0), run.json("state --json", 0));
    assert!(resumed.after("quit", 0).is_empty(), "nothing new to save: {:?}", resumed.after("quit", 0));

    // `load` over unsaved progress keeps it first.
    let other = scratch("autosave-other.json");
    catan_in(&home, PLAY, format!("roll\nsave {}\n", other.display()), 120).ok();
    let run = catan_in(&home, PLAY, format!("roll\nend\nroll\nload {}\n", other.display()), 120);
    let said = run.ok().after(&format!("load {}", other.display()), 0).join("\n");
    assert!(said.contains("autosaved the game to ") && said.contains("(3 actions)"), "{said}");
    assert!(said.contains(&format!("loaded {} (1 action)", other.display())), "{said}");
    // That game continued the first autosave: it replaced it. One that does not (its
    // first actions differ) goes to a file of its own.
    let saves = || std::fs::read_dir(home.join("autosave")).unwrap().count();
    assert_eq!(saves(), 1);
    catan_in(&home, PLAY, "end\nquit\n", 120).ok();
    assert_eq!(saves(), 1, "`end` before the roll was refused: nothing to save");
    catan_in(&home, &[PLAY, &["--sandbox"]].concat(), "dice 1 1\nquit\n", 120).ok();
    assert_eq!(saves(), 2, "a sandbox game is another game");

    let empty = scratch_home("no-autosave");
    let run = catan_in(&empty, &["play", "--resume"], "", 120);
    assert_eq!(run.code, Some(1));
    assert!(run.err.contains("--resume: no autosaved game"), "{}", run.err);
}

/// `--jsonl`: one JSON object per command line (and one for the start), with ok/error,
/// the messages, the JSON a command printed as `data`, and a version that grows exactly
/// when the game changed; a program never has to guess where an answer ends.
#[test]
fn jsonl_answers_each_command_with_one_json_object() {
    let input = "roll\nshow hand\nbogus\nlegal --json\nend\nstate --json\nquit\n";
    let run = play(&["--jsonl"], input);
    run.ok();
    let answers: Vec<J> = run.out.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(answers.len(), 1 + input.lines().count(), "{}", run.out);
    assert!(answers.iter().all(|a| a["format"] == 1), "every answer names its format");
    assert_eq!(answers[0]["command"], J::Null);
    assert!(answers[0]["messages"][0].as_str().unwrap().starts_with("catan-engine: base with 4 players"));
    let commands: Vec<&str> = answers[1..].iter().map(|a| a["command"].as_str().unwrap()).collect();
    assert_eq!(commands, input.lines().collect::<Vec<_>>());
    let version = |i: usize| answers[i]["version"].as_u64().unwrap();
    assert_eq!(answers[1]["ok"], true);
    assert!(answers[1]["messages"][0].as_str().unwrap().contains("red rolls"));
    assert_eq!(version(1), version(0) + 1, "roll changed the game");
    assert_eq!(version(2), version(1), "show hand did not");
    assert_eq!(answers[3]["ok"], false);
    assert_eq!(answers[3]["error"], "unknown command 'bogus' (type `help` or `legal`)");
    assert_eq!(answers[4]["data"]["seat"], "red");
    assert_eq!(answers[5]["to_act"], "blue");
    assert_eq!(version(5), version(4) + 1);
    assert_eq!(answers[6]["data"]["current"], "blue", "state --json as data");
    assert_eq!(answers[6]["actions"], 2);

    // A game that cannot start answers once too.
    let run = play(&["--jsonl", "--option", "no_such=1"], "roll\n");
    assert_eq!(run.code, Some(1));
    let answer: J = serde_json::from_str(run.out.trim()).expect("one JSON line");
    assert_eq!(answer["ok"], false);
    assert!(answer["error"].as_str().unwrap().contains("unknown option 'no_such'"), "{answer}");
}

/// The default game starts from fixed pieces: the welcome says so and how to play the
/// set-up rounds instead; a game with the set-up rounds does not say it.
#[test]
fn the_welcome_says_how_to_place_your_own_first_settlements() {
    let run = play(&[], "");
    assert!(run.ok().out.contains("fixed starting pieces"), "{}", run.out);
    assert!(run.out.contains("`--option starting_pieces=false`"), "{}", run.out);
    let run = play(&["--option", "starting_pieces=false"], "");
    assert!(!run.ok().out.contains("fixed starting pieces"), "{}", run.out);
}
