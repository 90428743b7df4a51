//! Tuned evaluations: the weights of a variant's features (`features.rs`), learned by
//! self-play (`catan tune`) and shipped as data beside the variant: `NAME.weights.toml`
//! next to `NAME.lua` (built into the binary for the editions it carries). A file holds
//! one entry per stack and player count it was tuned on, each keyed to a hash of the
//! stack's sources, so weights tuned on other rules are used with a warning, never
//! silently.

use super::features::{FeatureSpace, Features};
use crate::engine::{Game, GameError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The weights files of the editions built into the binary.
pub const BUILTIN_WEIGHTS: &[(&str, &str)] = &[
    ("base", include_str!("../../variants/base.weights.toml")),
    ("family", include_str!("../../variants/family.weights.toml")),
    ("classic", include_str!("../../variants/classic.weights.toml")),
    ("helpers", include_str!("../../variants/helpers.weights.toml")),
    ("rivals", include_str!("../../variants/rivals.weights.toml")),
    ("rivals_gold", include_str!("../../variants/rivals_gold.weights.toml")),
    ("rivals_turmoil", include_str!("../../variants/rivals_turmoil.weights.toml")),
    ("rivals_progress", include_str!("../../variants/rivals_progress.weights.toml")),
    ("rivals_duel", include_str!("../../variants/rivals_duel.weights.toml")),
];

/// One tuned evaluation: the weight of each feature by name (generic names as
/// `FeatureSpace` gives them; a variant's named features as `named.NAME`; the variant's
/// hand-written `evaluate` filter, when tuned as a term of its own, as `evaluate`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    /// The stack tuned on, as `--variant` names it ("base+helpers").
    pub stack: String,
    /// A hash of the stack's sources when tuned (`stack_hash`).
    pub hash: String,
    pub players: usize,
    /// How it was made: the command, games played, the fit's figures.
    #[serde(default)]
    pub made: String,
    pub weights: BTreeMap<String, f64>,
}

/// A weights file: its entries (`[[tuned]]` in TOML).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WeightsFile {
    #[serde(default)]
    pub tuned: Vec<Tuned>,
}

impl WeightsFile {
    pub fn parse(text: &str) -> Result<WeightsFile, String> {
        toml::from_str(text).map_err(|e| crate::bounded::toml_error(text, &e))
    }

    pub fn read(path: &Path) -> Result<WeightsFile, String> {
        let text = crate::bounded::read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        WeightsFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# Weights of the bots' evaluation, tuned by self-play (`catan tune`; docs/bots.md).\n\
             # One [[tuned]] entry per stack and player count, keyed to a hash of the stack's\n\
             # sources: an entry tuned on other rules is used with a warning.\n",
        );
        out.push_str(&toml::to_string(self).unwrap_or_default());
        out
    }

    /// Puts `t` in, replacing the entry of the same stack and player count.
    pub fn put(&mut self, t: Tuned) {
        self.tuned.retain(|e| !(e.stack == t.stack && e.players == t.players));
        self.tuned.push(t);
    }

    /// The entry for `stack` with the player count nearest `players` (a tie to the larger:
    /// 5 players share the 5-6 player game's board and rules), else the first.
    pub fn pick(&self, stack: &str, players: usize) -> Option<&Tuned> {
        self.tuned
            .iter()
            .filter(|t| t.stack == stack)
            .min_by_key(|t| (t.players.abs_diff(players), std::cmp::Reverse(t.players)))
            .or_else(|| self.tuned.first())
    }
}

/// A hash of a stack's sources (chunk names and texts, in load order): FNV-1a, 64 bits.
pub fn stack_hash(files: &[(String, String)]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, src) in files {
        for b in name.bytes().chain([0u8]).chain(src.bytes()).chain([0u8]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Where the weights of variant `v` (a name or a path to a `.lua` file) live on disk.
pub fn file_for(v: &str) -> PathBuf {
    if v.ends_with(".lua") {
        PathBuf::from(v).with_extension("weights.toml")
    } else {
        let local = Path::new("variants").join(format!("{v}.weights.toml"));
        if Path::new("variants").is_dir() {
            local
        } else {
            PathBuf::from(format!("{v}.weights.toml"))
        }
    }
}

/// The weights a stack loads: those of its topmost variant that has a weights file (a
/// path's file beside it, a built-in edition's built in), and a warning when they were
/// tuned on another stack or other sources. After the stack as written come the editions
/// its variants extend: a mod loaded alone (`--variant ./house.lua`, extending base)
/// plays with base's weights and the warning, as `base+./house.lua` does, so that a
/// comparison of base with the mod is played by the same bots on both sides.
pub fn find(game: &Game) -> (Option<Tuned>, Option<String>) {
    let h = game.header();
    let stack = h.variants.join("+");
    let extended = game.spec().variants.iter().rev().filter(|v| !h.variants.contains(v));
    for v in h.variants.iter().rev().chain(extended) {
        let file = if v.ends_with(".lua") {
            let path = file_for(v);
            if !path.is_file() {
                continue;
            }
            match WeightsFile::read(&path) {
                Ok(f) => f,
                Err(e) => return (None, Some(format!("weights not loaded: {e}"))),
            }
        } else {
            let Some((_, text)) = BUILTIN_WEIGHTS.iter().find(|(n, _)| n == v) else { continue };
            match WeightsFile::parse(text) {
                Ok(f) => f,
                Err(e) => return (None, Some(format!("the built-in weights of {v}: {e}"))),
            }
        };
        // The topmost file decides, even without entries: a module that ships an empty
        // one (helpers) plays its stack's hand-written evaluation, not the weights of the
        // edition under it with a warning.
        let Some(t) = file.pick(&stack, h.players) else { return (None, None) };
        let hash = stack_hash(game.stack_files());
        let warning = if t.stack != stack {
            Some(format!(
                "the bots' weights were tuned on {} and are used for {stack}: run `catan tune --variant {stack}` so that they know these rules",
                t.stack
            ))
        } else if t.hash != hash {
            Some(format!(
                "the bots' weights for {stack} were tuned on other sources (the rules changed since): run `catan tune --variant {stack}` again"
            ))
        } else {
            None
        };
        return (Some(t.clone()), warning);
    }
    (None, None)
}

/// A tuned evaluation ready to score positions: its weights laid over a feature space.
#[derive(Debug, Clone)]
pub struct Evaluator {
    pub space: FeatureSpace,
    pub generic: Vec<f64>,
    pub named: BTreeMap<String, f64>,
    /// The weight of the variant's hand-written `evaluate` filter (0: not asked).
    pub evaluate: f64,
    pub tuned: Tuned,
}

impl Evaluator {
    pub fn new(game: &Game, tuned: Tuned) -> Evaluator {
        let space = FeatureSpace::of(game);
        let mut generic = vec![0.0; space.names.len()];
        let mut named = BTreeMap::new();
        let mut evaluate = 0.0;
        for (k, &w) in &tuned.weights {
            if let Some(n) = k.strip_prefix("named.") {
                named.insert(n.to_string(), w);
            } else if k == "evaluate" {
                evaluate = w;
            } else if let Some(i) = space.index(k) {
                generic[i] = w;
            }
        }
        Evaluator { space, generic, named, evaluate, tuned }
    }

    /// Each seat's score, in victory points' units: the same sum as `combine`'s, term by
    /// term in the same order, with what it reads of the rules asked in one call
    /// (`Game::terms`) and the named features not asked when none is weighed.
    pub fn scores(&self, game: &Game) -> Result<Vec<f64>, GameError> {
        let t = game.terms(self.evaluate != 0.0, !self.named.is_empty())?;
        let generic = self.space.with_points(game, &t.points);
        let len = t.names.len();
        let named: Vec<f64> = t.names.iter().map(|n| self.named.get(n).copied().unwrap_or(0.0)).collect();
        Ok(generic
            .iter()
            .enumerate()
            .map(|(s, row)| {
                let xs = t.named.get(s * len..(s + 1) * len).unwrap_or_default();
                let hand = t.evaluate.as_ref().map(|h| h.get(s).copied().unwrap_or(0.0));
                self.seat_score(row, named.iter().copied().zip(xs.iter().copied()), hand)
            })
            .collect())
    }

    /// Each seat's score from features read one by one (`FeatureSpace::extract`) and the
    /// hand-written evaluation, when weighed.
    pub fn combine(&self, f: &Features, hand: Option<&[f64]>) -> Vec<f64> {
        (0..f.generic.len())
            .map(|s| {
                let named =
                    f.named.get(s).into_iter().flatten().map(|(k, &x)| (self.named.get(k).copied().unwrap_or(0.0), x));
                self.seat_score(&f.generic[s], named, hand.map(|h| h.get(s).copied().unwrap_or(0.0)))
            })
            .collect()
    }

    /// One seat's score: its generic features weighed, then its named ones (weight, value)
    /// in the order of their names, then its hand-written evaluation.
    fn seat_score(&self, generic: &[f64], named: impl Iterator<Item = (f64, f64)>, hand: Option<f64>) -> f64 {
        let mut v: f64 = generic.iter().zip(&self.generic).map(|(x, w)| x * w).sum();
        for (w, x) in named {
            v += w * x;
        }
        if let Some(h) = hand {
            v += self.evaluate * h;
        }
        v
    }
}
