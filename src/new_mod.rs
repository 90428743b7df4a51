//! `catan new NAME --extends PARENT`: a mod to start from. Writes, in a new folder NAME/:
//! `NAME.lua` (the variant, a first rule to change), `NAME.scenario` (its first test,
//! for `catan test`), and the editor configuration of the script API (`.luarc.json` and
//! `types/catan.lua`, the LuaLS annotations `catan stubs` prints), so the folder works
//! anywhere, away from a checkout too.

use crate::engine::{Game, Header};
use std::path::{Path, PathBuf};

/// What was written, for the message.
#[derive(Debug)]
pub struct Created {
    pub dir: PathBuf,
    pub files: Vec<PathBuf>,
}

/// Creates the mod `name` extending `parent` in `into/name/`. Refuses a name that is not
/// a plain identifier and a folder that exists (nothing is overwritten).
pub fn create(into: &Path, name: &str, parent: &str) -> Result<Created, String> {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !plain {
        return Err(format!(
            "'{name}' is not a mod name: letters, digits and _, starting with a letter (it names hooks: {name}.cost)"
        ));
    }
    let dir = into.join(name);
    if dir.exists() {
        return Err(format!("{} exists: nothing written (choose another name or folder)", dir.display()));
    }
    // The parent must load, and the scenario starts with the first thing its game allows.
    let players = default_players(parent)?;
    let header = Header { variants: vec![parent.to_string()], players, seed: 1, options: vec![], sandbox: true };
    let game = Game::new(header.clone()).map_err(|e| format!("cannot extend '{parent}': {e}"))?;
    let seat = game.to_act().map_err(|e| e.to_string())?;
    let first = game
        .legal_actions(seat)
        .map_err(|e| e.to_string())?
        .first()
        .map(|a| game.action_text(a))
        .ok_or_else(|| format!("a new game of '{parent}' offers no action"))?;
    let colour = game.state().players.get(seat).map(|p| p.color.clone()).unwrap_or_default();
    std::fs::create_dir_all(dir.join("types")).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let files = vec![
        (dir.join(format!("{name}.lua")), variant_text(name, parent)),
        (dir.join(format!("{name}.scenario")), scenario_text(name, header.players, &first, &colour)),
        (dir.join(".luarc.json"), LUARC.to_string()),
        (dir.join("types").join("catan.lua"), crate::api_doc::stubs()),
    ];
    for (path, text) in &files {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(Created { dir, files: files.into_iter().map(|(p, _)| p).collect() })
}

/// The number of players a stack's game starts with by default.
fn default_players(parent: &str) -> Result<usize, String> {
    let script =
        crate::script::Script::load(&[parent.to_string()]).map_err(|e| format!("cannot extend '{parent}': {e}"))?;
    Ok(script.spec.default_players)
}

fn variant_text(name: &str, parent: &str) -> String {
    format!(
        r#"-- {name}: a house rule on {parent}. docs/modding.md shows the shapes of rules (its
-- Cookbook), docs/api.md every function; `catan check ./{name}.lua` lints and plays it,
-- `catan test {name}.scenario` runs its scenario, `catan play --variant ./{name}.lua
-- --watch` plays it and reloads it as you edit.

variant {{
  extends = "{parent}",
  description = "{name}: what this house rule changes",
}}

-- A first rule to change: what things cost (a filter: each hook gets the value so far
-- and returns it, changed or not). `g:debug` prints under `catan play --debug` and in
-- `trace`, never in the game.
filter("cost", "{name}.cost", function(g, cost, what, seat)
  return cost
end)
"#
    )
}

fn scenario_text(name: &str, players: usize, first: &str, colour: &str) -> String {
    format!(
        "# {name}.scenario: `catan test {name}.scenario` plays it. A set-up, then commands as a\n\
         # player types them and expectations (`expect ...`) about what follows; `sandbox` allows\n\
         # `dice 3 4`, `give red 2 ore` and `place city 12 red` (docs/modding.md, \"Scenario tests\").\n\
         variant ./{name}.lua\n\
         players {players}\n\
         seed 1\n\
         sandbox\n\
         \n\
         expect to_act {colour}\n\
         expect legal {first}\n\
         {first}\n"
    )
}

const LUARC: &str = r#"{
  "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
  "runtime.version": "Lua 5.4",
  "runtime.builtin": {
    "io": "disable",
    "os": "disable",
    "debug": "disable",
    "package": "disable"
  },
  "workspace.library": [
    "types"
  ],
  "workspace.checkThirdParty": false
}
"#;
