//! A variant in several files: an entry file runs the part files of its own folder with
//! `part "x.lua"` (variants/base.lua and variants/base/, variants/rivals.lua and
//! variants/rivals/). Parts load in order, share a table, are listed in `Script::files` (so
//! `catan check` lints them), name their own file:line in errors, cannot leave the folder or
//! be run once the game runs, and the built-in copies of the shipped variants carry their
//! parts.
//!
//! The tests run from the crate root, where `./variants` holds the variant files.

use crate::common;

use catan_engine::engine::{Game, GameError, Header};
use catan_engine::script::{Script, BUILTIN_PARTS, BUILTIN_VARIANTS};
use catan_engine::{ScriptError, ScriptErrorKind};
use common::process::BIN;
use std::path::{Path, PathBuf};
use std::process::Command;

const RIVALS: &[&str] = &["rivals", "rivals_gold", "rivals_turmoil", "rivals_progress", "rivals_duel"];
/// Base and the editions and house rules built on it.
const BASE: &[&str] = &["base", "family", "classic", "helpers", "friendly_robber"];

fn load(stack: &[&str]) -> Result<Script, ScriptError> {
    Script::load(&stack.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

fn names(script: &Script) -> Vec<String> {
    script.files.iter().map(|f| f.0.clone()).collect()
}

/// A fresh folder under the system's temporary one, for files a test writes.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("catan_parts_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a scratch folder");
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("make the folder");
    std::fs::write(path, text).expect("write a file");
}

/// Loads `entry.lua` of a scratch folder with the given parts in `entry/`; the error.
fn load_error(test: &str, entry: &str, parts: &[(&str, &str)]) -> (PathBuf, ScriptError) {
    let dir = scratch(test);
    write(&dir.join("entry.lua"), entry);
    for (file, text) in parts {
        write(&dir.join("entry").join(file), text);
    }
    let path = dir.join("entry.lua").to_string_lossy().into_owned();
    match load(&["base", &path]) {
        Ok(_) => panic!("{test}: loaded"),
        Err(e) => (dir, e),
    }
}

/// A 3-player game of base and the variant at `path`.
fn header(path: String) -> Header {
    Header { variants: vec![path], players: 3, seed: 1, options: vec![], sandbox: false }
}

/// The message of a game that could not be set up.
fn setup_error(header: Header) -> String {
    match Game::new(header) {
        Err(GameError::Setup(e)) => e,
        Err(e) => panic!("expected a setup error, got {e}"),
        Ok(_) => panic!("the game started"),
    }
}

/// `variant` loads as its entry file and the parts BUILTIN_PARTS lists for it, in that
/// order, each under a thousand lines, and `catan check` lints and checks every one; the
/// number of its parts.
fn one_entry_and_its_parts_in_order(variant: &str) -> usize {
    let script = load(&[variant]).unwrap_or_else(|e| panic!("{variant} loads: {e}"));
    let files = names(&script);
    let prefix = format!("{variant}/");
    let parts: Vec<&str> = BUILTIN_PARTS.iter().filter_map(|(k, _)| k.strip_prefix(prefix.as_str())).collect();
    let mut expected: Vec<String> = parts.iter().map(|p| format!("variants/{variant}/{p}")).collect();
    expected.push(format!("variants/{variant}.lua"));
    assert_eq!(files, expected, "the parts as they ran, then the entry file");
    assert!(script.files.iter().all(|(_, src)| src.lines().count() < 1000), "every file under a thousand lines");
    let out = Command::new(BIN).args(["check", variant, "--games", "1"]).env_remove("CATAN_VARIANTS").output();
    let out = out.expect("run catan check");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}{}", String::from_utf8_lossy(&out.stdout));
    assert!(err.contains(&format!("{variant}: {} file(s)", parts.len() + 1)), "{err}");
    parts.len()
}

#[test]
fn base_is_one_entry_and_its_parts_in_order() {
    let parts = one_entry_and_its_parts_in_order("base");
    // The editions on base run its parts first, then their own file; `catan` stays a global.
    for child in &BASE[1..] {
        let script = load(&[child]).unwrap_or_else(|e| panic!("{child} loads: {e}"));
        let files = names(&script);
        assert_eq!(files.first().map(String::as_str), Some("variants/base/components.lua"), "{child}");
        assert_eq!(files.get(parts).map(String::as_str), Some("variants/base.lua"), "{child}");
        assert_eq!(files.last(), Some(&format!("variants/{child}.lua")), "{child}");
    }
}

#[test]
fn rivals_is_one_entry_and_its_parts_in_order() {
    one_entry_and_its_parts_in_order("rivals");
    let child = load(&["rivals_gold"]).expect("rivals_gold loads");
    let files = names(&child);
    assert_eq!(files.first().map(String::as_str), Some("variants/rivals/cards.lua"));
    assert_eq!(files.last().map(String::as_str), Some("variants/rivals_gold.lua"));
    assert!(files.contains(&"variants/rivals_theme.lua".to_string()));
}

#[test]
fn a_split_mod_loads_and_plays() {
    let script = load(&["tests/variants/parts/house.lua"]).expect("the mod loads");
    let files = names(&script);
    let base = BUILTIN_PARTS.iter().filter(|(k, _)| k.starts_with("base/")).count();
    assert_eq!(files.get(base).map(String::as_str), Some("variants/base.lua"), "base's parts, then base.lua");
    assert_eq!(
        files[base + 1..],
        [
            "tests/variants/parts/house/points.lua",
            "tests/variants/parts/house/rules/bonus.lua",
            "tests/variants/parts/house.lua"
        ]
    );
    assert_eq!(script.spec.variants, ["base", "house"], "the parts are of the variant, not variants");
    let game = Game::new(header("tests/variants/parts/house.lua".into())).expect("a game starts");
    let (one, two) = (game.points(0, false).expect("points"), game.points(1, false).expect("points"));
    assert_eq!(one, two + 1, "the hook a part registered runs (base's fixed start: equal points)");
}

#[test]
fn an_error_in_a_part_names_the_part_file_and_line() {
    let entry = "variant { extends = \"base\" }\nlocal s = {}\npart(\"ok.lua\", s)\npart(\"boom.lua\", s)\n";
    let ok = "local s = ...\ns.n = 1\n";
    let boom = "local s = ...\n-- two\nlocal x = s.n + s.missing\n";
    let (dir, e) = load_error("runtime", entry, &[("ok.lua", ok), ("boom.lua", boom)]);
    let want = format!("{}:3", dir.join("entry").join("boom.lua").display());
    assert_eq!(e.location.as_deref(), Some(want.as_str()), "{e}");
    assert_eq!(e.kind, ScriptErrorKind::Load, "{e}");
    let (dir, e) = load_error("syntax", entry, &[("ok.lua", ok), ("boom.lua", "local s = ...\n\nlocal = 3\n")]);
    let want = format!("{}:3", dir.join("entry").join("boom.lua").display());
    assert_eq!(e.location.as_deref(), Some(want.as_str()), "{e}");
    // A hook defined in a part fails at the part's line while the game runs.
    let hook = "sequence(\"setup\", \"entry.fails\", function(g)\n  error(\"broken setup\")\nend)\n";
    let dir = scratch("hook");
    write(&dir.join("entry.lua"), "variant { extends = \"base\" }\npart(\"hook.lua\")\n");
    write(&dir.join("entry").join("hook.lua"), hook);
    let path = dir.join("entry.lua").to_string_lossy().into_owned();
    let e = setup_error(header(path));
    let want = format!("[entry, {}:2]", dir.join("entry").join("hook.lua").display());
    assert!(e.contains("broken setup") && e.ends_with(&want), "{e}");
}

#[test]
fn a_part_cannot_leave_the_folder_or_run_twice_or_late() {
    let dir = scratch("outside");
    write(&dir.join("secret.lua"), "return 1\n");
    for bad in ["../secret.lua", "/etc/passwd.lua", "sub/../../secret.lua", "./x.lua", "x.txt", "", "a\\\\b.lua"] {
        let entry = format!("variant {{ extends = \"base\" }}\n\npart(\"{bad}\")\n");
        let (dir, e) = load_error("escape", &entry, &[]);
        assert_eq!(e.kind, ScriptErrorKind::Load, "{bad}: {e}");
        assert!(e.message.contains("inside the variant's own folder"), "{bad}: {e}");
        let want = format!("{}:3", dir.join("entry.lua").display());
        assert_eq!(e.location.as_deref(), Some(want.as_str()), "{bad}: the part call's line: {e}");
    }
    #[cfg(unix)]
    {
        let dir = scratch("link");
        write(&dir.join("entry.lua"), "variant { extends = \"base\" }\npart(\"link.lua\")\n");
        write(&dir.join("secret.lua"), "return 1\n");
        std::fs::create_dir_all(dir.join("entry")).expect("folder");
        std::os::unix::fs::symlink(dir.join("secret.lua"), dir.join("entry").join("link.lua")).expect("a link");
        let path = dir.join("entry.lua").to_string_lossy().into_owned();
        let e = load(&[&path]).err().expect("a link out of the folder is refused");
        assert!(e.message.contains("leads outside the variant's folder"), "{e}");
    }
    let (_, e) = load_error("missing", "variant { extends = \"base\" }\npart(\"nope.lua\")\n", &[]);
    assert!(e.message.contains("cannot read") && e.message.contains("nope.lua"), "{e}");
    let twice = "variant { extends = \"base\" }\npart(\"a.lua\")\npart(\"a.lua\")\n";
    let (_, e) = load_error("twice", twice, &[("a.lua", "return 1\n")]);
    assert!(e.message.contains("already loaded"), "{e}");
    // Once loaded, `part` refuses: a hook cannot read files.
    let dir = scratch("late");
    let late =
        "variant { extends = \"base\" }\nsequence(\"setup\", \"late.part\", function(g)\n  part(\"a.lua\")\nend)\n";
    write(&dir.join("entry.lua"), late);
    write(&dir.join("entry").join("a.lua"), "return 1\n");
    let path = dir.join("entry.lua").to_string_lossy().into_owned();
    let e = setup_error(header(path));
    assert!(e.contains("while its variant loads"), "{e}");
    assert!(e.ends_with(&format!("[entry, {}:3]", dir.join("entry.lua").display())), "{e}");
}

/// Every file of the variants' folders, as "variant/file".
fn part_files(root: &Path, rel: &str, out: &mut Vec<String>) {
    for e in std::fs::read_dir(root.join(rel)).expect("read a folder").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = if rel.is_empty() { name } else { format!("{rel}/{name}") };
        if e.path().is_dir() {
            part_files(root, &rel, out);
        } else if rel.contains('/') {
            out.push(rel);
        }
    }
}

#[test]
fn the_built_in_copies_hold_every_part() {
    let mut on_disk = vec![];
    for e in std::fs::read_dir("variants").expect("variants/").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        // types/ holds the editor stubs, not a variant's parts.
        if e.path().is_dir() && name != "types" {
            assert!(BUILTIN_VARIANTS.iter().any(|(n, _)| *n == name), "variants/{name}/ is no built-in variant's");
            part_files(Path::new("variants"), &name, &mut on_disk);
        }
    }
    on_disk.sort();
    let mut built_in: Vec<String> = BUILTIN_PARTS.iter().map(|(k, _)| k.to_string()).collect();
    built_in.sort();
    assert_eq!(on_disk, built_in, "BUILTIN_PARTS (src/script/variants.rs) lists every file of variants/NAME/");
    for stack in RIVALS.iter().chain(BASE) {
        let disk = load(&[stack]).expect("loads from variants/");
        let copy = Script::load_built_in(&[stack.to_string()]).expect("loads from the binary");
        assert_eq!(disk.files, copy.files, "{stack}: the same files, names and sources");
        assert_eq!(disk.spec.variants, copy.spec.variants);
    }
}

#[test]
fn check_lints_the_parts_of_a_mod_from_the_search_path() {
    // A lint finding in a part names the part (a global written from a hook).
    let dir = scratch("lint");
    write(&dir.join("mod.lua"), "variant { extends = \"base\" }\npart(\"late.lua\")\n");
    write(&dir.join("mod").join("late.lua"), "\nsequence(\"setup\", \"mod.x\", function(g)\n  leak = 1\nend)\n");
    let out = Command::new(BIN)
        .args(["check", "mod", "--games", "0"])
        .env("CATAN_VARIANTS", &dir)
        .output()
        .expect("run catan check");
    let text = String::from_utf8_lossy(&out.stdout);
    let want = format!("{}:3: assigns the global 'leak'", dir.join("mod").join("late.lua").display());
    assert!(text.contains(&want), "{text}{}", String::from_utf8_lossy(&out.stderr));
    // Listed once: the entry file, not its parts.
    let out = Command::new(BIN).args(["variants"]).env_remove("CATAN_VARIANTS").output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().filter(|l| l.starts_with("rivals ")).count(), 1, "{text}");
    assert!(!text.lines().any(|l| l.starts_with("cards ") || l.starts_with("principality ")), "{text}");
}
