//! Finding variants and their parts: the copies built into the binary (`BUILTIN_VARIANTS`,
//! `BUILTIN_PARTS`), paths, parents beside their mod, the `$CATAN_VARIANTS` search path,
//! the folder of a variant's parts, and the list `catan variants` shows.

use super::{Script, ScriptError, ScriptErrorKind};
use crate::spec::Spec;
use std::path::PathBuf;

/// The variants shipped with the engine, used when no file of that name is found on disk.
pub const BUILTIN_VARIANTS: &[(&str, &str)] = &[
    ("base", include_str!("../../variants/base.lua")),
    ("family", include_str!("../../variants/family.lua")),
    ("classic", include_str!("../../variants/classic.lua")),
    ("helpers", include_str!("../../variants/helpers.lua")),
    ("friendly_robber", include_str!("../../variants/friendly_robber.lua")),
    ("rivals", include_str!("../../variants/rivals.lua")),
    ("rivals_theme", include_str!("../../variants/rivals_theme.lua")),
    ("rivals_gold", include_str!("../../variants/rivals_gold.lua")),
    ("rivals_turmoil", include_str!("../../variants/rivals_turmoil.lua")),
    ("rivals_progress", include_str!("../../variants/rivals_progress.lua")),
    ("rivals_duel", include_str!("../../variants/rivals_duel.lua")),
];

/// The part files of the shipped variants split over several files (`part "x.lua"`, see
/// `spec_load.rs`), as "variant/file" and source: a variant built in takes its parts from
/// here. `tests/parts.rs` checks that every file under `variants/NAME/` is listed.
pub const BUILTIN_PARTS: &[(&str, &str)] = &[
    ("base/components.lua", include_str!("../../variants/base/components.lua")),
    ("base/small_helpers.lua", include_str!("../../variants/base/small_helpers.lua")),
    ("base/setup.lua", include_str!("../../variants/base/setup.lua")),
    ("base/points.lua", include_str!("../../variants/base/points.lua")),
    ("base/building.lua", include_str!("../../variants/base/building.lua")),
    ("base/production_and_robber.lua", include_str!("../../variants/base/production_and_robber.lua")),
    ("base/development_cards.lua", include_str!("../../variants/base/development_cards.lua")),
    ("base/trade.lua", include_str!("../../variants/base/trade.lua")),
    ("base/end_of_turn.lua", include_str!("../../variants/base/end_of_turn.lua")),
    ("base/5_6_players.lua", include_str!("../../variants/base/5_6_players.lua")),
    ("base/evaluation.lua", include_str!("../../variants/base/evaluation.lua")),
    ("base/metrics.lua", include_str!("../../variants/base/metrics.lua")),
    ("rivals/cards.lua", include_str!("../../variants/rivals/cards.lua")),
    ("rivals/principality.lua", include_str!("../../variants/rivals/principality.lua")),
    ("rivals/advantages.lua", include_str!("../../variants/rivals/advantages.lua")),
    ("rivals/setup.lua", include_str!("../../variants/rivals/setup.lua")),
    ("rivals/dice.lua", include_str!("../../variants/rivals/dice.lua")),
    ("rivals/event_cards.lua", include_str!("../../variants/rivals/event_cards.lua")),
    ("rivals/rolling.lua", include_str!("../../variants/rivals/rolling.lua")),
    ("rivals/building.lua", include_str!("../../variants/rivals/building.lua")),
    ("rivals/action_cards.lua", include_str!("../../variants/rivals/action_cards.lua")),
    ("rivals/trading.lua", include_str!("../../variants/rivals/trading.lua")),
    ("rivals/end_of_turn.lua", include_str!("../../variants/rivals/end_of_turn.lua")),
    ("rivals/editing.lua", include_str!("../../variants/rivals/editing.lua")),
    ("rivals/evaluation.lua", include_str!("../../variants/rivals/evaluation.lua")),
    ("rivals/metrics.lua", include_str!("../../variants/rivals/metrics.lua")),
];

/// Where the parts of a loaded variant file are found: the folder named like the file
/// without `.lua` (`variants/rivals.lua` -> `variants/rivals/`), on disk or built in.
#[derive(Debug, Clone)]
pub(crate) enum PartsHome {
    /// `dir` is read; `chunk` is how its files are named in messages.
    Disk { dir: PathBuf, chunk: String },
    /// A built-in variant's name: its parts are in [`BUILTIN_PARTS`].
    Builtin(String),
}

/// A variant file found: its chunk name for messages, its source and its parts' folder.
pub(crate) struct Found {
    pub chunk: String,
    pub source: String,
    pub parts: PartsHome,
}

/// The folder beside a file for its parts: `dir/name.lua` -> `dir/name`.
fn parts_beside(path: &std::path::Path, chunk: &str) -> PartsHome {
    PartsHome::Disk { dir: path.with_extension(""), chunk: chunk.strip_suffix(".lua").unwrap_or(chunk).to_string() }
}

/// Whether `file` may name a part: a relative path inside the variant's folder, folders
/// and a file of letters, digits, `_` and `-`, separated by `/`, ending in `.lua` (so no
/// `..`, no absolute path, no drive or backslash).
pub fn is_part_name(file: &str) -> bool {
    let Some(stem) = file.strip_suffix(".lua") else { return false };
    stem.split('/').all(is_name_word)
}

/// A variant's name, or a folder or file name of a part: letters, digits, `_` and `-`.
fn is_name_word(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Finds part `file` of a variant whose parts live in `home`: (chunk name, source).
pub(crate) fn find_part(home: &PartsHome, file: &str) -> Result<(String, String), String> {
    let folder = match home {
        PartsHome::Disk { chunk, .. } => format!("{chunk}/"),
        PartsHome::Builtin(name) => format!("variants/{name}/"),
    };
    if !is_part_name(file) {
        return Err(format!(
            "part \"{file}\": a part is a file inside the variant's own folder ({folder}), named by a relative \
             path of letters, digits, _ and - ending in .lua, such as \"cards.lua\" or \"sets/gold.lua\" (no \
             '..', no absolute path)"
        ));
    }
    match home {
        PartsHome::Disk { dir, chunk } => {
            let path = dir.join(file);
            // A link inside the folder must not lead out of it.
            let inside = match (dir.canonicalize(), path.canonicalize()) {
                (Ok(d), Ok(p)) => p.starts_with(d),
                _ => true,
            };
            if !inside {
                return Err(format!("part \"{file}\": {} leads outside the variant's folder {folder}", path.display()));
            }
            let text = crate::bounded::read_file(&path)
                .map_err(|e| format!("part \"{file}\": cannot read {}: {e}", path.display()))?;
            Ok((format!("{chunk}/{file}"), text))
        }
        PartsHome::Builtin(name) => {
            let key = format!("{name}/{file}");
            BUILTIN_PARTS
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, src)| (format!("variants/{key}"), src.to_string()))
                .ok_or_else(|| format!("part \"{file}\": the built-in variant '{name}' has no part {folder}{file}"))
        }
    }
}

/// Where variants named without a path are looked for, in order, before the built-in
/// copies: every directory of `$CATAN_VARIANTS` (a list like `$PATH`, `:`-separated on
/// Unix), `./variants`, and the `variants/` folder of the source the binary was built from.
pub fn variant_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![];
    if let Some(list) = std::env::var_os("CATAN_VARIANTS") {
        dirs.extend(std::env::split_paths(&list).filter(|d| !d.as_os_str().is_empty()));
    }
    dirs.push(PathBuf::from("variants"));
    dirs.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants"));
    dirs
}

/// The search path as one line, for `catan variants --help` and error messages.
pub const SEARCH_PATH_HELP: &str = "A variant is a stack of names and paths joined by '+': base, base+helpers, \
./mods/house.lua, base+./mods/house.lua. A name ending in .lua is a file, read as given \
(relative to the working directory); a parent it names in `extends` is looked for first beside it. Other names \
are looked up as NAME.lua in each directory of $CATAN_VARIANTS (':'-separated, like \
$PATH), then ./variants, then the variants/ folder of the engine's source, then the copies \
built into the binary.";

/// Whether a stack entry names a file rather than a variant to look up: it ends in `.lua`
/// (any other name is letters, digits, `_` and `-` only).
pub fn is_variant_path(name: &str) -> bool {
    name.ends_with(".lua")
}

/// Finds a variant's source: a path (see [`is_variant_path`]), a file in a variant folder,
/// or a built-in copy. Returns (chunk name for error messages, source).
pub fn find_variant(name: &str) -> Result<(String, String), ScriptError> {
    find_variant_near(name, None)
}

/// Like [`find_variant`], looking first in `near` (the folder of the file that named this
/// variant as its parent), so a mod kept outside `variants/` can bring its own parents.
pub fn find_variant_near(name: &str, near: Option<&std::path::Path>) -> Result<(String, String), ScriptError> {
    locate_variant(name, near, false).map(|f| (f.chunk, f.source))
}

/// [`find_variant_near`], with where the variant's parts are; `built_in`: a name is looked
/// up among the copies built into the binary only.
pub(crate) fn locate_variant(name: &str, near: Option<&std::path::Path>, built_in: bool) -> Result<Found, ScriptError> {
    if is_variant_path(name) {
        let path = name.to_string();
        let text = crate::bounded::read_file(&path)
            .map_err(|e| ScriptError::new(ScriptErrorKind::Load, format!("cannot read variant file {path}: {e}")))?;
        return Ok(Found { parts: parts_beside(std::path::Path::new(&path), &path), chunk: path, source: text });
    }
    if !is_name_word(name) {
        return Err(ScriptError::new(ScriptErrorKind::Load, format!("'{name}' is not a variant name")));
    }
    if let Some(dir) = near.filter(|d| !built_in && !d.as_os_str().is_empty()) {
        let path = dir.join(format!("{name}.lua"));
        if let Some(text) = read_if_there(&path)? {
            let chunk = path.to_string_lossy().into_owned();
            return Ok(Found { parts: parts_beside(&path, &chunk), chunk, source: text });
        }
    }
    let from_env = std::env::var_os("CATAN_VARIANTS").map_or(0, |l| std::env::split_paths(&l).count());
    let dirs = if built_in { vec![] } else { variant_dirs() };
    for (i, dir) in dirs.into_iter().enumerate() {
        let path = dir.join(format!("{name}.lua"));
        if let Some(text) = read_if_there(&path)? {
            // A mod from $CATAN_VARIANTS keeps its real path in messages; the engine's own
            // folders read as variants/NAME.lua wherever the binary runs.
            let chunk = if i < from_env { path.to_string_lossy().into_owned() } else { format!("variants/{name}.lua") };
            return Ok(Found { parts: parts_beside(&path, &chunk), chunk, source: text });
        }
    }
    BUILTIN_VARIANTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, src)| Found {
            chunk: format!("variants/{n}.lua"),
            source: src.to_string(),
            parts: PartsHome::Builtin(n.to_string()),
        })
        .ok_or_else(|| {
            let known = known_variants();
            let near = match crate::repl::closest(name, &known) {
                Some(n) => format!("did you mean `{n}`? "),
                None => String::new(),
            };
            ScriptError::new(
                ScriptErrorKind::Load,
                format!(
                    "no variant named '{name}' ({near}looked for {name}.lua in {}; `catan variants` lists them, \
                     a path such as ./{name}.lua loads a file)",
                    variant_dirs().iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

/// The text of a variant file looked for at `path`: None if there is none there (the
/// search goes on), an error if one is there but cannot be read (over the cap, not
/// UTF-8), rather than passing it over for a file further down the search path.
fn read_if_there(path: &std::path::Path) -> Result<Option<String>, ScriptError> {
    match crate::bounded::read_file(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_not_found() || path.is_dir() => Ok(None),
        Err(e) => {
            Err(ScriptError::new(ScriptErrorKind::Load, format!("cannot read variant file {}: {e}", path.display())))
        }
    }
}

/// Names of every variant that can be loaded: built-in and on disk.
pub fn known_variants() -> Vec<String> {
    let mut names: Vec<String> = BUILTIN_VARIANTS.iter().map(|(n, _)| n.to_string()).collect();
    for dir in variant_dirs() {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "lua") {
                    if let Some(stem) = p.file_stem().and_then(|s| s.to_str()) {
                        names.push(stem.to_string());
                    }
                }
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// For `catan variants`: the declared description of a file without running a game.
pub fn describe_variant(name: &str) -> Result<Spec, ScriptError> {
    Ok((*Script::load(&[name.to_string()])?.spec).clone())
}
