//! `catan check` and variants from anywhere: the bundled variants pass, each broken fixture
//! (tests/variants/check_*.lua) is reported as `file:line: message` with a non-zero exit.

use catan_engine::check::{check, CheckOptions};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_catan");

fn opts(games: usize) -> CheckOptions {
    CheckOptions { games, max_actions: 3_000, ..CheckOptions::default() }
}

fn findings(stack: &str, games: usize) -> Vec<String> {
    let stack: Vec<String> = stack.split('+').map(str::to_string).collect();
    check(&stack, &opts(games)).findings.iter().map(|f| f.to_string()).collect()
}

fn catan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).env_remove("CATAN_VARIANTS").output().expect("run catan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_bundled_variants_pass() {
    for v in ["base", "family", "classic", "helpers", "friendly_robber", "rivals"] {
        let r = check(&[v.to_string()], &CheckOptions { games: 1, ..CheckOptions::default() });
        assert!(r.findings.is_empty(), "{v}: {:?}", r.findings);
        assert_eq!(r.games_played, 1);
        assert!(r.actions > 50, "{v}: {} actions", r.actions);
    }
    // Load and lint only, every bundled file and the guide's examples.
    for v in [
        "rivals_gold",
        "docs/examples/big_cities.lua",
        "docs/examples/charity.lua",
        "docs/examples/cheap_roads.lua",
        "docs/examples/cheap_development.lua",
    ] {
        assert_eq!(findings(v, 0), Vec::<String>::new(), "{v}");
    }
}

#[test]
fn lints_name_the_line_of_each_mistake() {
    let f = findings("tests/variants/check_lint.lua", 0);
    let at = |line: usize, text: &str| {
        let prefix = format!("tests/variants/check_lint.lua:{line}: ");
        assert!(f.iter().any(|x| x.starts_with(&prefix) && x.contains(text)), "line {line} '{text}' in {f:#?}");
    };
    at(5, "nothing in this stack runs filter point 'costs' (did you mean 'cost'?)");
    at(9, "assigns the global 'rolls_seen' inside a function of g");
    at(14, "iterates in `next` order and calls g:log");
    at(18, "hook 'base.paired_56' is already registered at variants/base/5_6_players.lua:");
    assert_eq!(f.len(), 4, "{f:#?}");
}

#[test]
fn games_find_script_errors_broken_invariants_and_endless_games() {
    // The error keeps the line of the rule that read the missing option.
    let f = findings("tests/variants/check_option.lua", 1);
    assert!(f[0].starts_with("tests/variants/check_option.lua:5: seed 1, after "), "{f:?}");
    assert!(f[0].contains("no option named 'roads_cost' (in filter hook 'option.cheap_roads')"), "{f:?}");
    // Issue 32: the card a mod's hook created is blamed on that hook, at its line, not
    // on the base action that ran it.
    let f = findings("tests/variants/check_cards.lua", 1);
    assert!(f[0].starts_with("tests/variants/check_cards.lua:4: seed 1, in action "), "{f:?}");
    assert!(
        f[0].contains("('roll' by seat 1): cards not conserved: ore 19 -> 20 (a card was created or lost), by the event hook 'cards.gift' on 'rolled' defined here"),
        "{f:?}"
    );
    // Options that offer what `legal` refuses: the bots' draws are checked again here,
    // though `catan sim` trusts them (`Game::recheck_drawn`).
    let f = findings("tests/variants/check_listing.lua", 1);
    assert!(f[0].contains("a listed legal action was refused: 'wave 3'"), "{f:?}");
    assert!(f[0].contains("waving is not allowed"), "{f:?}");
    let f = findings("tests/variants/no_victory.lua", 1);
    assert!(f[0].starts_with("tests/variants/no_victory.lua:1: seed 1: no winner after 3000 actions"), "{f:?}");
}

#[test]
fn load_errors_keep_their_line() {
    assert_eq!(
        findings("tests/variants/check_decl.lua", 1),
        vec!["tests/variants/check_decl.lua:2: option 'bonus' is of type int, but its default is two [check_decl]"]
    );
    assert_eq!(
        findings("tests/variants/check_replace.lua", 1),
        vec!["tests/variants/check_replace.lua:4: no hook named 'base.price_list' to replace [check_replace]"]
    );
    let f = findings("base", 0);
    assert!(f.is_empty());
    let r = check(&["base".to_string()], &CheckOptions { options: vec![("roads_cost".into(), "1".into())], ..opts(1) });
    assert!(r.findings[0].message.starts_with("--option: unknown option 'roads_cost'"), "{:?}", r.findings);
}

#[test]
fn the_command_prints_file_line_findings_and_exits_non_zero() {
    let (code, out, err) = catan(&["check", "base", "tests/variants/check_replace.lua", "--games", "1"]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(out, "tests/variants/check_replace.lua:4: no hook named 'base.price_list' to replace [check_replace]\n");
    // base.lua and its 12 parts (variants/base/).
    assert!(err.contains("base: 13 file(s), 1 game(s) of seeds 1..1"), "{err}");
    assert!(err.contains("0 finding(s)") && err.contains("1 finding(s)"), "{err}");
    let (code, out, err) = catan(&["check", "friendly_robber", "--games", "1", "--seed", "7"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}

#[test]
fn mods_load_from_anywhere_with_their_parents_beside_them() {
    // A path, a stack with a path, a parent found beside its child.
    assert!(findings("tests/variants/mods/house_child.lua", 1).is_empty());
    assert!(findings("base+tests/variants/mods/house_parent.lua", 0).is_empty());
    let (code, out, err) = catan(&["variants", "./tests/variants/mods/house_child.lua", "base+helpers"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("./tests/variants/mods/house_child.lua  (stack: base -> house_parent -> house_child)"),
        "{out}"
    );
    assert!(out.contains("base+helpers  (stack: base -> helpers)"), "{out}");
    // The search path: every folder of CATAN_VARIANTS, then ./variants.
    let out = Command::new(BIN)
        .args(["variants", "house_child"])
        .env("CATAN_VARIANTS", "tests/no_such_folder:tests/variants/mods")
        .output()
        .expect("run catan");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("house rules from a folder of mods"));
    let (code, out, _) = catan(&["variants", "no_such_mod"]);
    assert_eq!(code, 1);
    assert!(out.contains("no variant named 'no_such_mod' (looked for no_such_mod.lua in variants"), "{out}");
    let (_, help, _) = catan(&["variants", "--help"]);
    assert!(help.contains("$CATAN_VARIANTS") && help.contains("base+./mods/house.lua"), "{help}");
}

/// The lints read any text without panicking: unterminated long strings and comments
/// (`local s = [==[ab` panicked once, a slice index), quotes and escapes at the end of the
/// file, every prefix of a file full of them, and the Lua files of the hostile-input
/// corpus (`tests/hostile_input/`), alone and through `catan check`.
#[test]
fn the_lints_read_any_text_without_panicking() {
    let tricky = "local s = [==[a]=]b]==] .. [[\n]] --[[ c ]] --[=[\n]=] x = 'q\\'' .. \"\\\n\" .. 0x1p-2 .. 3e+5\n\
                  on(\"turn\", \"h\", function(g) g:roll() end) -- [[ ]]\n";
    for end in 0..=tricky.len() {
        if let Some(prefix) = tricky.get(..end) {
            let _ = catan_engine::lint::lint(&[("t.lua".into(), prefix.into())], &["roll".into()]);
        }
    }
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile_input");
    let mut files: Vec<_> = std::fs::read_dir(&corpus).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    let lua: Vec<_> = files.iter().filter(|p| p.extension().is_some_and(|x| x == "lua")).collect();
    assert!(lua.len() >= 5, "{lua:?}");
    for path in lua {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let _ = catan_engine::lint::lint(&[("hostile.lua".into(), text)], &[]);
        let (code, out, err) = catan(&["check", &path.to_string_lossy(), "--games", "0"]);
        assert!((code == 0 || code == 1) && !err.contains("panicked"), "{}: exit {code}\n{out}\n{err}", path.display());
    }
}
