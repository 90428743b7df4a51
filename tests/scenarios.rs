//! `catan test` scenario files and `catan new` (issue 32): a mod's tests in the REPL's
//! words. Every file in tests/scenarios/ is a rule test in this form and must pass; the
//! failures are shown at their line with the transcript up to it.

use crate::common;
use catan_engine::scenario::{run, run_file};
use common::process::catan_in;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scenario-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_scenario_of_the_project_passes() {
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/scenarios")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "scenario"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let o = run_file(&f.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
        assert!(o.passed(), "{:?}", o.failure);
        assert!(o.expectations > 0, "{}: a scenario without expectations", f.display());
    }
}

const SET_UP: &str = "variant base\nseed 3\nsandbox\n";

fn failure(body: &str) -> (String, String) {
    let o = run("s.scenario", &format!("{SET_UP}{body}"), None).unwrap_or_else(|e| panic!("{e}"));
    o.failure.unwrap_or_else(|| panic!("passed, but should fail:\n{body}"))
}

#[test]
fn the_first_unmet_expectation_is_named_at_its_line_with_the_transcript() {
    let (what, transcript) = failure("roll\nexpect red holds 5 ore\nexpect winner red\n");
    assert_eq!(what, "s.scenario:5: expect red holds 5 ore: red holds 1 ore in hand");
    assert!(transcript.starts_with("> roll\n  red rolls 3+3 = 6\n"), "{transcript}");
}

#[test]
fn a_refused_command_fails_the_scenario_unless_expected() {
    let (what, transcript) = failure("end\n");
    assert!(what.starts_with("s.scenario:4: 'end' was refused: "), "{what}");
    assert!(transcript.contains("> end\nerror: "), "{transcript}");
    let (what, _) = failure("roll\nexpect refused roll: nothing like this\n");
    assert!(what.contains("it was refused, but with: "), "{what}");
    let (what, _) = failure("expect refused roll\n");
    assert!(what.contains("'roll' was played"), "{what}");
}

#[test]
fn each_expectation_checks_what_it_says() {
    let ok = |body: &str| {
        let o = run("s.scenario", &format!("{SET_UP}{body}"), None).unwrap();
        assert!(o.passed(), "{body}: {:?}", o.failure);
    };
    ok("expect to_act red\nexpect phase roll\nexpect turn 1\nexpect winner none\nexpect points red 2\n");
    ok("roll\nexpect says red rolls 3+3\nexpect not legal roll\nas blue: give blue 1 ore\nexpect blue holds 2 ore\n");
    assert!(failure("expect to_act blue\n").0.ends_with("red is to act"));
    assert!(failure("expect points red 9\n").0.ends_with("red has 2 points"));
    assert!(failure("expect legal road 1-2\n").0.contains("red may not:"));
    assert!(failure("expect frobnicate\n").0.contains("not an expectation:"));
    assert!(failure("as purple: roll\n").0.ends_with("'purple' is not a seat of this game"));
}

#[test]
fn a_set_up_that_fails_is_an_error_with_its_place() {
    let e = run("s.scenario", "players many\n", None).unwrap_err();
    assert_eq!(e, "s.scenario:1: players takes a number, not 'many'");
    let e = run("s.scenario", "variant no_such_variant\nroll\n", None).unwrap_err();
    assert!(e.starts_with("s.scenario: the set-up fails: "), "{e}");
}

/// `catan new` writes a mod that loads, passes `catan check`, and whose scenario passes
/// under `catan test`; a second `catan new` of the same name writes nothing.
#[test]
fn catan_new_writes_a_mod_its_scenario_and_the_editor_configuration() {
    let dir = scratch("new");
    let created = catan_engine::new_mod::create(&dir, "house", "base").unwrap();
    let names: Vec<String> =
        created.files.iter().map(|f| f.strip_prefix(&dir).unwrap().display().to_string()).collect();
    assert_eq!(names, ["house/house.lua", "house/house.scenario", "house/.luarc.json", "house/types/catan.lua"]);
    let scenario = dir.join("house/house.scenario").display().to_string();
    let o = run_file(&scenario).unwrap();
    assert!(o.passed(), "{:?}", o.failure);
    let stack = vec![dir.join("house/house.lua").display().to_string()];
    let opts =
        catan_engine::check::CheckOptions { games: 1, seed: 1, players: None, options: vec![], max_actions: 50_000 };
    let report = catan_engine::check::check(&stack, &opts);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let again = catan_engine::new_mod::create(&dir, "house", "base").unwrap_err();
    assert!(again.contains("exists: nothing written"), "{again}");
    assert!(catan_engine::new_mod::create(&dir, "9 lives", "base").unwrap_err().contains("is not a mod name"));
}

#[test]
fn catan_test_exits_1_when_a_scenario_fails() {
    let dir = scratch("cli");
    std::fs::write(dir.join("bad.scenario"), format!("{SET_UP}expect to_act blue\n")).unwrap();
    let bad = dir.join("bad.scenario").display().to_string();
    let good = "tests/scenarios/cheap_roads.scenario";
    let run = catan_in(&dir, &["test", good, &bad], "", 60);
    assert_eq!(run.code, Some(1), "{}", run.out);
    assert!(run.out.contains("cheap_roads.scenario: ok ("), "{}", run.out);
    assert!(run.out.contains("bad.scenario:4: expect to_act blue: red is to act"), "{}", run.out);
    assert!(run.out.contains("1 of 2 scenarios passed"), "{}", run.out);
}
