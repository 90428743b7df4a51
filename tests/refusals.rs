//! DESIGN 5: a refused action leaves no trace. The rules are fixed once loaded (their
//! tables frozen, their files' variables sealed, `g` read-only while actions are listed),
//! so an action that changes them and fails, or a listing that tries, leaves the game and
//! the rules byte for byte as they were; a game and the replay of its save agree however
//! often its legal actions were listed. And an error keeps its place: the file:line and the
//! rule it was raised in, whatever it was raised with.
//!
//! The hostile scripts live in tests/hostile_scripts/ (`refuse_*.lua`).

use catan_engine::bot::RandomBot;
use catan_engine::value::Value;
use catan_engine::{Arg, Game, GameError, Header, ScriptError, ScriptErrorKind};

const TABLES: &str = "tests/hostile_scripts/refuse_tables.lua";
const ERRORS: &str = "tests/hostile_scripts/refuse_errors.lua";

fn header(variant: &str, seed: u64) -> Header {
    Header { variants: vec![variant.to_string()], players: 4, seed, options: vec![], sandbox: false }
}

fn game(variant: &str) -> Game {
    Game::new(header(variant, 7)).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

/// The 1-based line of `marker` in a fixture, as "file:line".
fn line_of(file: &str, marker: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let n = text.lines().position(|l| l.contains(marker)).unwrap_or_else(|| panic!("no '{marker}' in {file}"));
    format!("{file}:{}", n + 1)
}

fn script_error<T: std::fmt::Debug>(what: &str, r: Result<T, GameError>) -> ScriptError {
    match r {
        Err(GameError::Script(e)) => e,
        other => panic!("{what}: expected a script error, got {other:?}"),
    }
}

/// What `peek` logs: the rules as the fixture loaded them.
fn peek(g: &mut Game) -> String {
    let o = g.act(0, "peek").unwrap_or_else(|e| panic!("peek: {e}"));
    o.messages.iter().map(|m| m.text.clone()).collect::<Vec<_>>().join("\n")
}

const PRISTINE: &str =
    "bonus 1; resources brick,lumber,wool,grain,ore; road brick,lumber; upper ABC; tally 0; catan.x nil; type function; \
     kept 0";

/// An action that changes a table of the rules (its own definition, an exported helper,
/// a file's table, the string metatable, a metatable), a variable of a file or its `_ENV`,
/// or a value `g:cached` keeps, and then fails: it is refused at the line of the change, the game is byte for byte as
/// before, and the rules behave as loaded. On the engine before the rules were frozen,
/// the bonus became 5, the road's cost `brick,lumber,brick`, `("abc"):upper()` "tampered".
#[test]
fn a_refused_action_leaves_the_rules_as_they_were() {
    for (command, marker, words) in [
        ("bonus", "BONUS CHANGED HERE", "frozen table"),
        ("export", "EXPORT CHANGED HERE", "frozen table"),
        ("cost", "COST CHANGED HERE", "frozen table"),
        ("string_meta", "STRING META CHANGED HERE", "frozen table"),
        ("tally", "TALLY BUMPED HERE", "'tally', a variable of the rules"),
        ("set_meta", "SETMETATABLE HERE", "metatable of a frozen table"),
        ("raw_export", "RAWSET HERE", "frozen table"),
        ("env", "ENV CHANGED HERE", "'_ENV', a variable of the rules"),
        ("sort_export", "SORT HERE", "frozen table"),
        ("remove_export", "REMOVE HERE", "frozen table"),
        ("move_export", "TABLE MOVE HERE", "frozen table"),
        ("insert_string", "INSERT STRING HERE", "'string' is frozen"),
        ("kept", "KEPT CHANGED HERE", "frozen table"),
        ("count_kept", "COUNTER BUMPED HERE", "'n', a variable of the rules"),
    ] {
        let mut g = game(TABLES);
        let (state, save, messages) = (g.state().clone(), g.save_json(), g.messages().len());
        let e = script_error(command, g.act(0, command));
        assert_eq!(e.kind, ScriptErrorKind::Runtime, "{command}: {e:?}");
        assert!(e.message.contains(words), "{command}: {e}");
        assert_eq!(e.location.as_deref(), Some(line_of(TABLES, marker).as_str()), "{command}: {e:?}");
        assert!(*g.state() == state, "{command}: the state changed");
        assert_eq!(g.save_json(), save, "{command}: the save changed");
        assert_eq!(g.messages().len(), messages, "{command}: messages were kept");
        assert_eq!(peek(&mut g), PRISTINE, "{command}: the rules changed");
        // And again: the second refusal is the first's twin.
        let again = script_error(command, g.act(0, command));
        assert_eq!(again, e, "{command}");
        g.act(0, "roll").unwrap_or_else(|e| panic!("{command}: the game does not go on: {e}"));
    }
}

/// A `when` asked while legal actions are listed may not write to `g` (the view the
/// listing hands it), to a table of the rules, to a variable of its file or to a value
/// `g:cached` keeps: the listing
/// fails at the write's line, naming the action, and nothing is left behind. On the engine
/// before, the view kept `g.current` replaced (the player to act changed for every later
/// listing), and a count of listings survived into the game.
#[test]
fn listing_legal_actions_cannot_write_to_the_rules() {
    for (how, marker) in [
        ("g", "G WRITTEN HERE"),
        ("table", "TABLE WRITTEN HERE"),
        ("variable", "VARIABLE WRITTEN HERE"),
        ("kept", "KEPT WRITTEN HERE"),
    ] {
        let mut g = game(TABLES);
        g.act(0, &format!("arm {how}")).unwrap();
        for _ in 0..3 {
            let e = script_error(how, g.legal_actions(0));
            assert_eq!(e.location.as_deref(), Some(line_of(TABLES, marker).as_str()), "{how}: {e:?}");
            assert_eq!(e.rule.as_deref(), Some("action 'scribble'"), "{how}: {e:?}");
            let mut bot = RandomBot::new(1);
            for _ in 0..5 {
                let _ = bot.choose(&g, 0);
            }
        }
        g.act(0, "drift").unwrap();
        assert_eq!(g.state().vars.get("drift"), Some(&Value::Int(0)), "{how}: listings left a trace");
        g.act(0, "arm none").unwrap();
        let listed = g.legal_actions(0).unwrap_or_else(|e| panic!("{how}: {e}"));
        assert!(listed.iter().any(|a| a.name == "roll"), "{how}: the view of `g` changed: {listed:?}");
    }
}

/// The same commands give the same game however often its legal actions were listed or
/// a bot thought in between, and the replay of its save agrees with it.
#[test]
fn a_game_and_its_replay_agree_however_often_actions_were_listed() {
    let play = |listings: usize| {
        let mut g = game(TABLES);
        for line in ["arm table", "roll", "drift", "arm variable", "drift", "arm kept", "drift", "arm g", "drift"] {
            for _ in 0..listings {
                let _ = g.legal_actions(0);
                let _ = RandomBot::new(3).choose(&g, 0);
            }
            let seat = g.to_act().unwrap();
            g.act(seat, line).unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        g
    };
    let quiet = play(0);
    let busy = play(4);
    assert_eq!(quiet.save_json(), busy.save_json());
    assert!(*quiet.state() == *busy.state(), "listing changed the game");
    let (replayed, divergence) = Game::load_json(&busy.save_json()).unwrap();
    assert!(divergence.is_none(), "{divergence:?}");
    assert!(*replayed.state() == *busy.state(), "the replay differs from the game");
}

/// Locals of a function that runs during the game are its own: an iterator's count, a
/// fresh table filled with `table.insert`.
#[test]
fn a_rule_s_own_locals_and_fresh_tables_stay_free() {
    let mut g = game(TABLES);
    g.act(0, "count_up").unwrap();
    assert_eq!(g.state().vars.get("sum"), Some(&Value::Int(12)));
}

/// An error raised in an action's `options` names the action and its line: a list that is
/// no list (which failed in the engine's own Lua naming no rule, or listed nothing), an option that is not
/// the action's arguments, `error(msg, 2)` (which named the engine's line), `assert` with
/// a table (which printed an address), for a listing and for a bot's draw alike.
#[test]
fn an_error_in_options_names_the_action_and_its_line() {
    let defined = line_of(ERRORS, "name = \"listing\"");
    // The `options = function` line follows the action's name and syntax.
    let (file, n) = defined.rsplit_once(':').unwrap();
    let options_line = format!("{file}:{}", n.parse::<usize>().unwrap() + 2);
    for (how, at, words) in [
        ("number", options_line.clone(), "returned a number, not a list"),
        ("string", options_line.clone(), "returned a string, not a list"),
        ("map", options_line.clone(), "returned a table of named fields, not a list"),
        ("entry", options_line.clone(), "bad option for 'listing'"),
        ("level", line_of(ERRORS, "options failed a level up"), "options failed a level up"),
        ("assert", line_of(ERRORS, "OPTIONS ASSERT HERE"), "a table {why = \"no\"}"),
    ] {
        let mut g = game(ERRORS);
        g.act(0, &format!("break {how}")).unwrap();
        let e = script_error(how, g.legal_actions(0));
        assert!(e.message.contains(words), "{how}: {e}");
        assert!(!e.message.contains("0x"), "{how}: {e}");
        assert_eq!(e.location.as_deref(), Some(at.as_str()), "{how}: {e:?}");
        assert_eq!(e.rule.as_deref(), Some("action 'listing'"), "{how}: {e:?}");
        assert_eq!(e.variant.as_deref(), Some("refuse_errors"), "{how}: {e:?}");
        // A bot draws the same failure, named the same way (a table of named fields lists
        // nothing to draw from: a draw passes over it, as over an empty list).
        if how == "map" {
            continue;
        }
        let mut bot = RandomBot::new(5);
        let drawn = (0..400).find_map(|_| bot.choose(&g, 0).err()).unwrap_or_else(|| panic!("{how}: never drawn"));
        let d = script_error(how, Err::<(), _>(drawn));
        assert_eq!((&d.location, &d.rule), (&e.location, &e.rule), "{how}");
        // And a bot that draws and performs in one call (`catan sim`): the engine does not
        // read such an option itself, so the two calls name it alike.
        let mut bot = RandomBot::new(5);
        let played = (0..400)
            .find_map(|_| bot.play(&mut g.try_clone().unwrap(), 0).err())
            .unwrap_or_else(|| panic!("{how}: never drawn in one call"));
        let p = script_error(how, Err::<(), _>(played));
        assert_eq!((p.message, p.location, p.rule), (d.message, d.location, d.rule), "{how}");
    }
}

/// An error raised in a `to_act` filter names the filter and its line, `error(msg, 2)`
/// and an error raised with a table included; the action that exposed it is refused.
#[test]
fn an_error_in_to_act_names_the_filter_and_its_line() {
    for (how, marker, words) in [
        ("error", "TO_ACT ERROR HERE", "to_act failed"),
        ("level", "TO_ACT LEVEL HERE", "to_act failed a level up"),
        ("table", "TO_ACT TABLE HERE", "a table {seat = 1}"),
    ] {
        let mut g = game(ERRORS);
        let save = g.save_json();
        let e = script_error(how, g.act(0, &format!("misdirect {how}")));
        assert!(e.message.contains(words), "{how}: {e}");
        assert_eq!(e.location.as_deref(), Some(line_of(ERRORS, marker).as_str()), "{how}: {e:?}");
        assert_eq!(e.rule.as_deref(), Some("filter hook 'refuse_errors.to_act'"), "{how}: {e:?}");
        assert_eq!(g.save_json(), save, "{how}: the refused action left a trace");
    }
}

/// `assert` and `error` with a value that is not a message: shown by its fields (a few,
/// sorted), its `__tostring` or its type, never an address, at the line that raised it.
#[test]
fn errors_raised_with_values_that_are_not_messages_keep_their_place() {
    for (command, marker, words) in [
        ("assert_table", "ASSERT TABLE HERE", "assert() failed with a table {code = 7, reason = \"spoiled\"}"),
        ("assert_function", "ASSERT FUNCTION HERE", "assert() failed with a function"),
        ("assert_string", "ASSERT STRING HERE", "plain words"),
        (
            "error_table",
            "ERROR TABLE HERE",
            "error() was called with a table {[1] = \"first\", code = 7, nested = table}",
        ),
        ("error_function", "ERROR FUNCTION HERE", "error() was called with a function"),
        ("error_big", "ERROR BIG HERE", "a table of more than 8 fields"),
        ("error_tostring", "ERROR TOSTRING HERE", "a table (a custom error)"),
    ] {
        let mut g = game(ERRORS);
        let save = g.save_json();
        let e = script_error(command, g.act(0, command));
        assert!(e.message.contains(words), "{command}: {e}");
        assert!(!e.to_string().contains("0x"), "{command}: {e}");
        assert_eq!(e.location.as_deref(), Some(line_of(ERRORS, marker).as_str()), "{command}: {e:?}");
        assert_eq!(e.rule.as_deref(), Some(format!("action '{command}'").as_str()), "{command}: {e:?}");
        assert_eq!(g.save_json(), save, "{command}");
    }
}

/// A part that runs itself, or parts that run each other, are refused with the cycle at
/// the line that closes it; they ran until Lua's C stack overflowed.
#[test]
fn a_part_that_runs_itself_or_a_cycle_of_parts_is_refused() {
    for (variant, part, marker, cycle) in [
        (
            "tests/hostile_scripts/refuse_parts_self.lua",
            "tests/hostile_scripts/refuse_parts_self/again.lua",
            "SELF PART HERE",
            "refuse_parts_self/again.lua -> tests/hostile_scripts/refuse_parts_self/again.lua",
        ),
        (
            "tests/hostile_scripts/refuse_parts_cycle.lua",
            "tests/hostile_scripts/refuse_parts_cycle/second.lua",
            "CYCLE PART HERE",
            "refuse_parts_cycle/first.lua -> tests/hostile_scripts/refuse_parts_cycle/second.lua -> \
             tests/hostile_scripts/refuse_parts_cycle/first.lua",
        ),
    ] {
        let e = match Game::new(header(variant, 1)) {
            Err(GameError::Script(e)) => e,
            Err(other) => panic!("{variant}: expected a script error, got {other}"),
            Ok(_) => panic!("{variant}: loaded"),
        };
        assert_eq!(e.kind, ScriptErrorKind::Load, "{variant}: {e:?}");
        assert!(e.message.contains("a cycle of parts") && e.message.contains(cycle), "{variant}: {e}");
        assert_eq!(e.location.as_deref(), Some(line_of(part, marker).as_str()), "{variant}: {e:?}");
    }
}

/// Cards listed as an action's options are read as the counts above 0 by card name,
/// sorted, whatever their order or number type (read by the engine in one pass over each
/// table); a table keyed otherwise is read as mlua always read it.
#[test]
fn cards_listed_as_options_are_read_alike_however_written() {
    let mut g = game(ERRORS);
    let cards = |list: &[(&str, u32)]| vec![Arg::Cards(list.iter().map(|(k, n)| (k.to_string(), *n)).collect())];
    let picked: Vec<Vec<Arg>> =
        g.legal_actions(0).unwrap().into_iter().filter(|a| a.name == "pick").map(|a| a.args).collect();
    assert_eq!(
        picked,
        vec![
            cards(&[("ore", 2)]),
            cards(&[("brick", 1), ("grain", 1), ("lumber", 1)]),
            cards(&[]),
            cards(&[("wool", 3)]),
        ]
    );
    // A table keyed otherwise is read by mlua as it always was (a number key as its text).
    g.act(0, "break cards").unwrap();
    let picked: Vec<Vec<Arg>> =
        g.legal_actions(0).unwrap().into_iter().filter(|a| a.name == "pick").map(|a| a.args).collect();
    assert_eq!(picked, vec![cards(&[("ore", 1)]), cards(&[("1", 2)])]);
    // A count past 2^32 is refused where it is read, not wrapped.
    g.act(0, "break count").unwrap();
    let e = g.legal_actions(0).expect_err("a count past 2^32 is an error");
    assert!(e.to_string().contains("4294967297 ore is more cards than the engine counts"), "{e}");
}
