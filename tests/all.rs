//! The integration tests, one program: each file of tests/ is one area and one module
//! here. Each test program links the whole library, mlua and Lua (30-70 MB each), so
//! forty-six of them made `cargo test` spend most of its time linking and left gigabytes
//! in target/ (issue 31, "The first minutes"); one program links once.
//!
//! One area: `cargo test --test all repl_rivals::` (a module's tests by their path prefix);
//! one test: `cargo test --test all repl_rivals::show_hand_totals_the_resources -- --exact`. A new area
//! is a new file under tests/ and one `mod NAME;` line below (its helpers come in with
//! `use crate::common;` or `use crate::rivals;`, not `mod common;`).
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
mod bots;
mod cached;
mod check;
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
mod refusals;
mod reload;
mod repl;
mod repl_offers;
mod repl_rivals;
mod repl_screen;
mod repl_terminal;
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
mod slots;
mod stored_lists;
mod stubs;
mod trace;
mod tune;
