//! Loading a variant stack: running each file in the sandbox and merging its
//! `variant { ... }` declaration into the `Spec`. A child's declaration extends and
//! overrides its parent's, entry by entry (cards, zones, pieces, terrains and options by
//! name).

use super::{find_part, is_variant_path, locate_variant, lua_err, PartsHome, ScriptError, ScriptErrorKind};
use crate::spec::*;
use crate::value::Value;
use mlua::{Function, Lua, Table};

#[derive(Default)]
struct Loading {
    spec: Spec,
    loaded: Vec<String>,
    /// Variants being loaded, innermost last (for `extends` and for attribution), with
    /// the folder of each one's file (where its parents are looked for first).
    active: Vec<String>,
    dirs: Vec<std::path::PathBuf>,
    /// Variants named are taken from the copies built into the binary only.
    built_in: bool,
    /// Where each active variant's parts are (`part "x.lua"`).
    homes: Vec<PartsHome>,
    /// The parts running now, outermost first (their chunk names): one that runs itself
    /// again, directly or through others, is refused with the cycle.
    running_parts: Vec<String>,
    /// Every file loaded, parts included, in the order they finished running: (chunk name,
    /// source), for `catan check` and its lints.
    files: Vec<(String, String)>,
}

/// How deep parts may run parts: each level is a few C calls, and Lua allows 200 in all.
const MAX_PART_DEPTH: usize = 32;

fn load_err(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::external(ScriptError::new(ScriptErrorKind::Load, msg))
}

/// What a call of the engine's helpers that read the call stack and build their answer
/// (`deny`, `__where`, `__where_fn`) costs: about four `g` calls' work. Every function a
/// script can call is charged, Rust or C: a loop of calls meets the budget as soon as a
/// loop of Lua would.
const HELPER_COST: u64 = 4 * super::api::CALL_COST;

pub(super) fn install(lua: &Lua, built_in: bool) -> Result<(), ScriptError> {
    lua.set_app_data(Loading { built_in, ..Loading::default() });
    let g = lua.globals();
    let variant = lua
        .create_function(|lua, decl: Table| {
            super::charge(lua, super::api::CALL_COST)?;
            let mut parents: Vec<String> = match decl.get::<mlua::Value>("extends")? {
                mlua::Value::Nil => vec![],
                mlua::Value::String(s) => vec![s.to_str()?.to_string()],
                mlua::Value::Table(t) => t.sequence_values::<String>().collect::<mlua::Result<_>>()?,
                _ => return Err(load_err("`extends` must be a variant name or a list of names")),
            };
            // A module (no `extends`) layers on whatever the stack loaded before it; loaded
            // first (or alone), it loads its `layers_on` edition first.
            if let Some(edition) = decl.get::<Option<String>>("layers_on")? {
                let first = lua.app_data_ref::<Loading>().is_some_and(|l| l.loaded.is_empty() && l.active.len() == 1);
                if parents.is_empty() && first {
                    parents.push(edition);
                }
            }
            for parent in parents {
                let done = lua.app_data_ref::<Loading>().is_some_and(|l| l.loaded.contains(&parent));
                if !done {
                    load_inner(lua, &parent)?;
                }
            }
            let name = lua.app_data_ref::<Loading>().and_then(|l| l.active.last().cloned()).unwrap_or_default();
            let engine: Table = lua.named_registry_value(super::ENGINE_KEY)?;
            engine.get::<Function>("begin_variant")?.call::<()>(name.clone())?;
            let mut loading = lua.app_data_mut::<Loading>().ok_or_else(|| load_err("variant{} outside loading"))?;
            // A declaration error names the `variant { ... }` call it is in.
            merge(lua, &mut loading.spec, &decl, &name).map_err(|e| {
                drop(loading);
                super::api::locate(lua, e)
            })
        })
        .map_err(lua_err)?;
    g.set("variant", variant).map_err(lua_err)?;
    // part("x.lua", ...): runs a file of the loading variant's own folder, with `...` as
    // its arguments, and returns what it returns. Only while loading, only inside the folder.
    let part = lua
        .create_function(|lua, (file, args): (String, mlua::MultiValue)| {
            super::charge(lua, super::api::CALL_COST)?;
            let home = lua.app_data_ref::<Loading>().and_then(|l| l.homes.last().cloned()).ok_or_else(|| {
                super::api::locate(
                    lua,
                    load_err(format!(
                        "part \"{file}\": a part is run while its variant loads (from the variant's file or \
                         another part, at the top), not from a hook or action once the game runs"
                    )),
                )
            })?;
            let (chunk, source) = find_part(&home, &file).map_err(|m| super::api::locate(lua, load_err(m)))?;
            let (again, cycle) = match lua.app_data_ref::<Loading>() {
                Some(l) => {
                    let at = l.running_parts.iter().position(|c| *c == chunk);
                    let cycle = at.map(|i| {
                        let mut names: Vec<&str> = l.running_parts[i..].iter().map(String::as_str).collect();
                        names.push(&chunk);
                        names.join(" -> ")
                    });
                    (l.files.iter().any(|(c, _)| *c == chunk), cycle)
                }
                None => (false, None),
            };
            // A part that runs itself, directly or through others, would recurse until the C
            // stack overflows: it is a part run twice, refused before it runs again.
            if let Some(cycle) = cycle {
                return Err(super::api::locate(
                    lua,
                    load_err(format!("part \"{file}\": a cycle of parts ({cycle}); a part runs once")),
                ));
            }
            if again {
                return Err(super::api::locate(
                    lua,
                    load_err(format!("part \"{file}\": {chunk} is already loaded (a part runs once)")),
                ));
            }
            if lua.app_data_ref::<Loading>().is_some_and(|l| l.running_parts.len() >= MAX_PART_DEPTH) {
                return Err(super::api::locate(
                    lua,
                    load_err(format!("part \"{file}\": parts run parts more than {MAX_PART_DEPTH} deep")),
                ));
            }
            if let Some(mut l) = lua.app_data_mut::<Loading>() {
                l.running_parts.push(chunk.clone());
            }
            let result = lua.load(source.as_str()).set_name(format!("@{chunk}")).call::<mlua::MultiValue>(args);
            if let Some(mut l) = lua.app_data_mut::<Loading>() {
                l.running_parts.pop();
                l.files.push((chunk, source));
            }
            result
        })
        .map_err(lua_err)?;
    g.set("part", part).map_err(lua_err)?;
    // __where(level): "file:line" of the function `level` frames up. nil when the frame
    // below it was reached by a tail call (`return deny(...)`), whose caller's frame Lua
    // has already dropped; the caller then falls back to the rule's own definition.
    g.set(
        "__where",
        lua.create_function(|lua, level: usize| {
            super::charge(lua, HELPER_COST)?;
            let tail = lua.inspect_stack(level.saturating_sub(1), |d| d.is_tail_call()).unwrap_or(false);
            if tail {
                return Ok(None);
            }
            Ok(frame_at(lua, level))
        })
        .map_err(lua_err)?,
    )
    .map_err(lua_err)?;
    g.set(
        "deny",
        // Reached through the C function of `api_fast::install_deny` (level 1), which
        // answers by itself while legal actions are listed: the rule's frame is level 2.
        // `deny(fn, ...)` words the reason by calling fn(...), only when it is wanted.
        lua.create_function(|lua, (first, rest): (mlua::Value, mlua::MultiValue)| {
            super::charge(lua, HELPER_COST)?;
            let reason: String = match first {
                mlua::Value::Function(f) => f.call(rest)?,
                other => mlua::FromLua::from_lua(other, lua)?,
            };
            let at = frame_at(lua, 2);
            let t = lua.create_table()?;
            t.set("reason", reason)?;
            t.set("at", at)?;
            Ok((false, t))
        })
        .map_err(lua_err)?,
    )
    .map_err(lua_err)?;
    g.set(
        "__where_fn",
        lua.create_function(|lua, f: Function| {
            super::charge(lua, HELPER_COST)?;
            let info = f.info();
            let file = info.source.as_deref().unwrap_or("?").trim_start_matches('@').to_string();
            Ok(format!("{}:{}", file, info.line_defined.unwrap_or(0)))
        })
        .map_err(lua_err)?,
    )
    .map_err(lua_err)?;
    g.set(
        "__debug_print",
        // Charged as a `g` method, and by the text (the copy and the write are the call's).
        lua.create_function(|lua, s: mlua::LuaString| {
            let s = s.as_bytes();
            super::charge(lua, super::api::CALL_COST + s.len() as u64 / 16)?;
            eprintln!("[lua] {}", String::from_utf8_lossy(&s));
            Ok(())
        })
        .map_err(lua_err)?,
    )
    .map_err(lua_err)
}

/// "file:line" of the function `level` frames up the Lua stack (`__where`, `deny`).
fn frame_at(lua: &Lua, level: usize) -> Option<String> {
    lua.inspect_stack(level, |d| {
        let src = d.source();
        let file = src.source.as_deref().unwrap_or("?").trim_start_matches('@').to_string();
        format!("{}:{}", file, d.current_line().unwrap_or(0))
    })
}

fn load_inner(lua: &Lua, name: &str) -> mlua::Result<()> {
    {
        let l = lua.app_data_ref::<Loading>().ok_or_else(|| load_err("not loading"))?;
        if l.active.iter().any(|a| a == name) {
            return Err(load_err(format!("variant '{name}' extends itself (a cycle: {})", l.active.join(" -> "))));
        }
    }
    let near = lua.app_data_ref::<Loading>().and_then(|l| l.dirs.last().cloned());
    let built_in = lua.app_data_ref::<Loading>().is_some_and(|l| l.built_in);
    let found = locate_variant(name, near.as_deref(), built_in).map_err(mlua::Error::external)?;
    let (chunk_name, source) = (found.chunk, found.source);
    let key = if is_variant_path(name) {
        std::path::Path::new(name).file_stem().and_then(|s| s.to_str()).unwrap_or(name).to_string()
    } else {
        name.to_string()
    };
    if let Some(mut l) = lua.app_data_mut::<Loading>() {
        l.active.push(key.clone());
        l.dirs.push(std::path::Path::new(&chunk_name).parent().map(|d| d.to_path_buf()).unwrap_or_default());
        l.homes.push(found.parts);
    }
    let file = (chunk_name.clone(), source.clone());
    let engine: Table = lua.named_registry_value(super::ENGINE_KEY)?;
    engine.get::<Function>("begin_variant")?.call::<()>(key.clone())?;
    let result = lua.load(source).set_name(format!("@{chunk_name}")).exec();
    if let Some(mut l) = lua.app_data_mut::<Loading>() {
        l.active.pop();
        l.dirs.pop();
        l.homes.pop();
        // Listed once run (parents first, as their hooks are registered), failed or not.
        l.files.push(file);
        if result.is_ok() {
            l.loaded.push(key.clone());
            l.spec.variants.push(key);
        }
        if let Some(parent) = l.active.last().cloned() {
            drop(l);
            engine.get::<Function>("begin_variant")?.call::<()>(parent)?;
        }
    }
    result
}

pub(super) fn load_variant(lua: &Lua, name: &str) -> Result<(), ScriptError> {
    let done = lua.app_data_ref::<Loading>().is_some_and(|l| l.loaded.iter().any(|v| v == name));
    if done {
        return Ok(());
    }
    load_inner(lua, name).map_err(|e| {
        let mut se = ScriptError::from_lua(&e);
        if se.kind == ScriptErrorKind::Runtime {
            se.kind = ScriptErrorKind::Load;
        }
        if se.variant.is_none() {
            let stem = std::path::Path::new(name).file_stem().and_then(|s| s.to_str()).unwrap_or(name);
            se.variant = Some(stem.to_string());
        }
        se
    })
}

/// The stack's spec, and every file loaded (chunk name, source) in load order.
pub(super) fn finish(lua: &Lua, engine: &Table) -> Result<(Spec, Vec<(String, String)>), ScriptError> {
    let loading = lua
        .remove_app_data::<Loading>()
        .ok_or_else(|| ScriptError::new(ScriptErrorKind::Load, "no variant was loaded"))?;
    let files = loading.files;
    let mut spec = loading.spec;
    if spec.variants.is_empty() {
        return Err(ScriptError::new(ScriptErrorKind::Load, "no variant was loaded"));
    }
    // A production's shortage exception names a bool option of the stack.
    if let Some(name) = spec.production.as_ref().and_then(|p| p.shortage_exception.as_ref()) {
        if !spec.options.iter().any(|o| &o.name == name && matches!(o.kind, OptionType::Bool)) {
            return Err(ScriptError::new(
                ScriptErrorKind::Load,
                format!("production: shortage_exception names '{name}', which is not a bool option of the game"),
            ));
        }
    }
    let list: Table = engine.get::<Function>("action_specs").and_then(|f| f.call(())).map_err(lua_err)?;
    for entry in list.sequence_values::<Table>() {
        let t = entry.map_err(lua_err)?;
        let name: String = t.get("name").map_err(lua_err)?;
        let syntax: String = t.get("syntax").map_err(lua_err)?;
        let mut parts = vec![];
        for (i, word) in syntax.split_whitespace().enumerate() {
            if let Some(inner) = word.strip_prefix('<').and_then(|w| w.strip_suffix('>')) {
                if i == 0 {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Load,
                        format!("action '{name}': its syntax must start with a word"),
                    ));
                }
                let ty = ArgType::parse(inner).ok_or_else(|| {
                    ScriptError::new(ScriptErrorKind::Load, format!("action '{name}': unknown argument type <{inner}>"))
                })?;
                parts.push(SyntaxPart::Arg(ty));
            } else {
                parts.push(SyntaxPart::Literal(word.to_ascii_lowercase()));
            }
        }
        spec.actions.push(ActionSpec {
            name,
            syntax: parts,
            help: t.get("help").map_err(lua_err)?,
            enumerable: t.get("enumerable").map_err(lua_err)?,
            debug: t.get::<Option<bool>>("debug").map_err(lua_err)?.unwrap_or(false),
        });
    }
    if spec.max_players == 0 {
        return Err(ScriptError::new(
            ScriptErrorKind::Load,
            "the variant stack declares no player count (players = {min, max})",
        ));
    }
    // A piece's owner is one byte, and its last value means "no player".
    let most = crate::state::Piece::NO_OWNER as usize - 1;
    if spec.max_players > most || spec.min_players > most {
        return Err(ScriptError::new(
            ScriptErrorKind::Load,
            format!("the variant stack allows {} players; the engine allows at most {most}", spec.max_players),
        ));
    }
    Ok((spec, files))
}

fn merge(lua: &Lua, spec: &mut Spec, decl: &Table, variant: &str) -> mlua::Result<()> {
    if let Some(d) = decl.get::<Option<String>>("description")? {
        spec.description = d;
    }
    if let Some(p) = decl.get::<Option<Table>>("players")? {
        spec.min_players = p.get::<Option<usize>>("min")?.unwrap_or(spec.min_players.max(1));
        spec.max_players = p.get::<Option<usize>>("max")?.unwrap_or(spec.max_players.max(spec.min_players));
        spec.default_players = p.get::<Option<usize>>("default")?.unwrap_or(spec.max_players);
    }
    if let Some(c) = decl.get::<Option<Table>>("colors")? {
        spec.colors = c.sequence_values::<String>().collect::<mlua::Result<_>>()?;
    }
    if let Some(cards) = decl.get::<Option<Table>>("cards")? {
        let mut cats: Vec<(String, Table)> = cards.pairs::<String, Table>().collect::<mlua::Result<_>>()?;
        cats.sort_by(|a, b| a.0.cmp(&b.0));
        for (cat, list) in cats {
            for name in list.sequence_values::<String>() {
                let name = name?;
                match spec.cards.iter_mut().find(|c| c.name == name) {
                    Some(c) => c.category = cat.clone(),
                    None => spec.cards.push(CardKind { name, category: cat.clone() }),
                }
            }
        }
    }
    if let Some(zones) = decl.get::<Option<Table>>("zones")? {
        for z in zones.sequence_values::<Table>() {
            let z = z?;
            let name: String = z.get("name")?;
            let owner: String = z.get::<Option<String>>("owner")?.unwrap_or_else(|| "player".into());
            let vis = match z.get::<Option<String>>("visibility")?.as_deref().unwrap_or("public") {
                "public" => Visibility::Public,
                "count" => Visibility::Count,
                "owner" => Visibility::Owner,
                "hidden" => Visibility::Hidden,
                "top" => Visibility::Top,
                other => return Err(load_err(format!("zone '{name}': unknown visibility '{other}'"))),
            };
            let zs = ZoneSpec {
                name: name.clone(),
                per_player: match owner.as_str() {
                    "player" => true,
                    "game" => false,
                    other => {
                        return Err(load_err(format!("zone '{name}': owner must be 'player' or 'game', not '{other}'")))
                    }
                },
                stack: z.get::<Option<bool>>("stack")?.unwrap_or(false),
                visibility: vis,
                title: z.get::<Option<String>>("title")?.unwrap_or_else(|| name.replace('_', " ")),
            };
            match spec.zones.iter_mut().find(|x| x.name == name) {
                Some(x) => *x = zs,
                None => spec.zones.push(zs),
            }
        }
    }
    if let Some(pieces) = decl.get::<Option<Table>>("pieces")? {
        for p in pieces.sequence_values::<Table>() {
            let p = p?;
            let name: String = p.get("name")?;
            let site = match p.get::<String>("on")?.as_str() {
                "intersection" => SiteKind::Intersection,
                "path" => SiteKind::Path,
                other => {
                    return Err(load_err(format!("piece '{name}': 'on' must be intersection or path, not '{other}'")))
                }
            };
            let pk = PieceKind {
                name: name.clone(),
                site,
                supply: p.get("supply")?,
                yields: p.get::<Option<u8>>("yields")?.unwrap_or(0),
            };
            match spec.pieces.iter_mut().find(|x| x.name == name) {
                Some(x) => *x = pk,
                None => spec.pieces.push(pk),
            }
        }
    }
    if let Some(p) = decl.get::<Option<Table>>("production")? {
        let zone = |key: &str, per_player: bool| -> mlua::Result<usize> {
            let name: String = p.get(key).map_err(|_| load_err(format!("production: `{key}` must name a zone")))?;
            match spec.zone(&name) {
                Some(z) if spec.zones[z].per_player == per_player => Ok(z),
                Some(_) => Err(load_err(format!(
                    "production: `{key}` zone '{name}' must belong to {}",
                    if per_player { "each player" } else { "the game" }
                ))),
                None => Err(load_err(format!("production: `{key}` names '{name}', which is not a declared zone"))),
            }
        };
        spec.production = Some(Production {
            from: zone("from", false)?,
            to: zone("to", true)?,
            blocked_by: p.get("blocked_by")?,
            shortage_exception: p.get("shortage_exception")?,
        });
    }
    if let Some(terrains) = decl.get::<Option<Table>>("terrains")? {
        for t in terrains.sequence_values::<Table>() {
            let t = t?;
            let name: String = t.get("name")?;
            let produces = match t.get::<Option<String>>("produces")? {
                Some(card) => Some(spec.card(&card).ok_or_else(|| {
                    load_err(format!("terrain '{name}' produces '{card}', which is not a declared card"))
                })?),
                None => None,
            };
            let tr = Terrain { name: name.clone(), produces };
            match spec.terrains.iter_mut().find(|x| x.name == name) {
                Some(x) => *x = tr,
                None => spec.terrains.push(tr),
            }
        }
    }
    if let Some(grids) = decl.get::<Option<Table>>("grids")? {
        for t in grids.sequence_values::<Table>() {
            let t = t?;
            let name: String = t.get("name")?;
            let per_player = match t.get::<Option<String>>("owner")?.as_deref().unwrap_or("player") {
                "player" => true,
                "game" => false,
                other => {
                    return Err(load_err(format!("grid '{name}': owner must be 'player' or 'game', not '{other}'")))
                }
            };
            let rows: u16 = t.get("rows")?;
            let cols: u16 = t.get("cols")?;
            if rows == 0 || cols == 0 || cols > 702 {
                return Err(load_err(format!("grid '{name}': rows must be at least 1 and cols 1 to 702")));
            }
            let gs = GridSpec { name: name.clone(), per_player, rows, cols };
            match spec.grids.iter_mut().find(|x| x.name == name) {
                Some(x) => *x = gs,
                None => spec.grids.push(gs),
            }
        }
    }
    if let Some(titles) = decl.get::<Option<Table>>("feature_titles")? {
        for pair in titles.pairs::<String, String>() {
            let (name, title) = pair?;
            spec.feature_titles.insert(name, title);
        }
    }
    for (field, names) in [("secret_actions", &mut spec.secret_actions), ("quiet_actions", &mut spec.quiet_actions)] {
        if let Some(list) = decl.get::<Option<Table>>(field)? {
            for name in list.sequence_values::<String>() {
                let name = name?;
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    if let Some(options) = decl.get::<Option<Table>>("options")? {
        for o in options.sequence_values::<Table>() {
            let o = o?;
            let name: String = o.get("name")?;
            let ty: String = o.get::<Option<String>>("type")?.unwrap_or_else(|| "bool".into());
            let kind = match ty.as_str() {
                "bool" => OptionType::Bool,
                "int" => OptionType::Int {
                    min: o.get::<Option<i64>>("min")?.unwrap_or(i64::MIN),
                    max: o.get::<Option<i64>>("max")?.unwrap_or(i64::MAX),
                },
                "choice" => OptionType::Choice(
                    o.get::<Table>("choices")?.sequence_values::<String>().collect::<mlua::Result<_>>()?,
                ),
                "text" => OptionType::Text,
                other => return Err(load_err(format!("option '{name}': unknown type '{other}'"))),
            };
            let default = super::api::from_lua_value(lua, &o.get::<mlua::Value>("default")?)?
                .ok_or_else(|| load_err(format!("option '{name}' needs a default")))?;
            check_default(&name, &kind, &default).map_err(load_err)?;
            let os = OptionSpec {
                name: name.clone(),
                kind,
                default,
                doc: o.get::<Option<String>>("doc")?.unwrap_or_default(),
                variant: variant.to_string(),
                players: match o.get::<Option<Table>>("players")? {
                    Some(p) => Some((
                        p.get::<Option<usize>>("min")?.unwrap_or(1),
                        p.get::<Option<usize>>("max")?.unwrap_or(usize::MAX),
                    )),
                    None => None,
                },
            };
            match spec.options.iter_mut().find(|x| x.name == name) {
                Some(x) => *x = os,
                None => spec.options.push(os),
            }
        }
    }
    Ok(())
}

/// An option's default must be a value of its own type.
fn check_default(name: &str, kind: &OptionType, default: &Value) -> Result<(), String> {
    match (kind, default) {
        (OptionType::Bool, Value::Bool(_)) | (OptionType::Text, Value::Str(_)) => Ok(()),
        (OptionType::Int { min, max }, Value::Int(n)) if min > max => {
            Err(format!("option '{name}': min {min} is greater than max {max} (default {n})"))
        }
        (OptionType::Int { min, max }, Value::Int(n)) if n < min || n > max => {
            Err(format!("option '{name}': the default {n} is not between min {min} and max {max}"))
        }
        (OptionType::Int { .. }, Value::Int(_)) => Ok(()),
        (OptionType::Choice(c), _) if c.is_empty() => Err(format!("option '{name}': a choice needs `choices`")),
        (OptionType::Choice(c), Value::Str(s)) if c.contains(s) => Ok(()),
        (OptionType::Choice(c), d) => {
            Err(format!("option '{name}': the default {d} is not one of its choices ({})", c.join(", ")))
        }
        (kind, d) => {
            let ty = match kind {
                OptionType::Bool => "bool",
                OptionType::Int { .. } => "int",
                _ => "text",
            };
            Err(format!("option '{name}' is of type {ty}, but its default is {d}"))
        }
    }
}

/// Checks user-given options against the spec and fills in defaults.
pub fn resolve_options(
    spec: &Spec,
    given: &[(String, String)],
) -> Result<std::collections::BTreeMap<String, Value>, String> {
    let mut out: std::collections::BTreeMap<String, Value> =
        spec.options.iter().map(|o| (o.name.clone(), o.default.clone())).collect();
    for (key, text) in given {
        let o = spec.options.iter().find(|o| &o.name == key).ok_or_else(|| {
            let names: Vec<String> = spec.options.iter().map(|o| o.name.clone()).collect();
            let near = match crate::repl::closest(key, &names) {
                Some(n) => format!("did you mean `{n}`? "),
                None => String::new(),
            };
            format!("unknown option '{key}' ({near}options of this game: {})", names.join(", "))
        })?;
        let v = match &o.kind {
            OptionType::Bool => match text.as_str() {
                "true" | "yes" | "on" | "1" => Value::Bool(true),
                "false" | "no" | "off" | "0" => Value::Bool(false),
                _ => return Err(format!("option '{key}' is true or false, not '{text}'")),
            },
            OptionType::Int { min, max } => {
                let n: i64 = text.parse().map_err(|_| format!("option '{key}' is a whole number, not '{text}'"))?;
                if n < *min || n > *max {
                    return Err(format!("option '{key}' must be between {min} and {max}, not {n}"));
                }
                Value::Int(n)
            }
            OptionType::Choice(choices) => {
                if !choices.contains(text) {
                    return Err(format!("option '{key}' is one of {}, not '{text}'", choices.join(", ")));
                }
                Value::Str(text.clone())
            }
            OptionType::Text => Value::Str(text.clone()),
        };
        out.insert(key.clone(), v);
    }
    Ok(out)
}
