//! The integration tests, one program: each file of tests/ is one area and one module
//! here. Each test program links the whole library, mlua and Lua (30-70 MB each), so
//! forty-six of them made `cargo test` spend most of its time linking and left gigabytes
//! in target/ (issue 31, "The first minutes"); one program links once.
//!
//! One area: `cargo test --test all repl_rivals::` (a module's tests by their path prefix);
//! one test: `cargo test --test all repl_rivals::show_hand_totals_the_resources -- --exact`.
//! A new area is a new file under tests/ and one `mod NAME;` line below (its helpers come
//! in with `use crate::common;` or `use crate::rivals;`, not `mod common;`); a file no line
//! names would never be built, which `every_file_of_tests_is_a_module_here` catches.
//!
//! `tests/docs_output.rs` stays a program of its own (Cargo.toml): its long run is
//! `cargo test --release --test docs_output -- --ignored`, which should not build every
//! other test in release.

// Helpers shared by the areas.
mod common;
mod rivals;
mod rivals_gold;
mod rivals_theme;

// The areas, one file each.
mod action_shapes;
mod api_methods;
mod bots;
mod cached;
mod check;
mod declared_checks;
mod forks;
mod fuzz;
mod games;
mod games_56;
mod games_helpers;
mod games_rivals;
mod games_rivals_duel;
mod games_rivals_gold;
mod games_rivals_progress;
mod games_rivals_turmoil;
mod getters;
mod hostile_input;
mod hostile_scripts;
mod house_rules;
mod parts;
mod pipeline;
mod protocol;
mod protocol_forks;
mod refusals;
mod reload;
mod repl;
mod repl_offers;
mod repl_rivals;
mod repl_screen;
mod repl_terminal;
mod rivals_evaluation;
mod rivals_trades;
mod rules_56;
mod rules_base;
mod rules_classic;
mod rules_family;
mod rules_helpers;
mod rules_rivals;
mod rules_rivals_duel;
mod rules_rivals_gold;
mod rules_rivals_progress;
mod rules_rivals_turmoil;
mod sandbox;
mod scenarios;
mod sim;
mod sim_compare;
mod sim_mixed;
mod slots;
mod stored_lists;
mod stubs;
mod trace;
mod tune;
mod victory_and_production;
mod web_replay;
mod web_server;

/// With `autotests = false` a file of tests/ that no `mod` line names is never built, so
/// its tests would pass unseen: every one is named above (or is a program of its own).
#[test]
fn every_file_of_tests_is_a_module_here() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let this = std::fs::read_to_string(dir.join("all.rs")).expect("tests/all.rs");
    let programs = ["all", "docs_output"]; // Cargo.toml's [[test]] targets
    let mut missing = vec![];
    for entry in std::fs::read_dir(&dir).expect("tests/").flatten() {
        let path = entry.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
        if path.extension().is_some_and(|e| e == "rs")
            && !programs.contains(&stem)
            && !this.lines().any(|l| l == format!("mod {stem};"))
        {
            missing.push(stem.to_string());
        }
    }
    assert!(missing.is_empty(), "tests/all.rs needs a line `mod NAME;` for each of {missing:?}");
}
