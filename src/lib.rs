//! catan-engine: a rules engine for the Catan family of games. Rust is the referee
//! (board graph, state, action pipeline, randomness, save/load, views); each edition is a
//! Lua script in `variants/`. See `src/README.md` for a map of the tree.

pub mod action;
pub mod alloc;
pub mod api_doc;
pub mod board;
pub mod bot;
pub mod bounded;
pub mod check;
pub mod engine;
pub mod lint;
pub mod new_mod;
pub mod plot;
pub mod protocol;
pub mod repl;
pub mod scenario;
pub mod script;
pub mod sim;
pub mod slots;
pub mod spec;
pub mod state;
pub mod tune;
pub mod value;
pub mod view;
pub mod web;

pub use action::{Action, Arg};
pub use engine::{Game, GameError, Header, Observer};
pub use script::{ScriptError, ScriptErrorKind};
pub use state::GameState;
