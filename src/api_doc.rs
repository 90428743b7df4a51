//! The script API as docs/api.md documents it, read from that page (built into the
//! binary): the `g` methods, the global functions, the sequence points, filter points and
//! events. From it come the LuaLS type annotations of `variants/types/catan.lua` (`catan
//! stubs`), so the page and the editor's completion cannot drift apart (tests/stubs.rs
//! checks the file, and that the page names every method the engine defines), and the
//! documented points `catan check` accepts.

use std::collections::BTreeMap;

/// docs/api.md, as built into the binary.
pub const API_MD: &str = include_str!("../docs/api.md");
/// docs/modding.md, whose declaration table lists the fields of `variant { ... }`.
pub const MODDING_MD: &str = include_str!("../docs/modding.md");

/// One documented `g` method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Method {
    pub name: String,
    /// Parameter names; a trailing `?` marks an optional one.
    pub params: Vec<String>,
    /// The "Returns" cell, as written.
    pub returns: String,
    pub notes: String,
    /// ✎: changes the state.
    pub writes: bool,
}

/// A documented hook point or event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    pub name: String,
    /// "sequence", "filter" or "event".
    pub kind: &'static str,
    /// The cells after the name, joined: arguments, value, when it runs.
    pub text: String,
}

fn cells(line: &str) -> Option<Vec<String>> {
    let l = line.trim();
    if !l.starts_with('|') || l.starts_with("|--") || l.starts_with("| --") {
        return None;
    }
    // `\|` inside a cell is a pipe of the text, not a column.
    let l = l.replace("\\|", "\u{1}");
    Some(l.trim_matches('|').split('|').map(|c| c.trim().replace('\u{1}', "|")).collect())
}

/// The backticked spans of a cell.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// Every `g:` method of docs/api.md, in the page's order.
pub fn methods() -> Vec<Method> {
    let mut out: Vec<Method> = vec![];
    for line in API_MD.lines() {
        let Some(c) = cells(line) else { continue };
        if c.len() < 3 {
            continue;
        }
        for span in code_spans(&c[0]) {
            let Some(sig) = span.strip_prefix("g:") else { continue };
            let Some((name, rest)) = sig.split_once('(') else { continue };
            let Some(args) = rest.strip_suffix(')') else { continue };
            if name.starts_with('_') || out.iter().any(|m| m.name == name) {
                continue;
            }
            let params = args.split(',').map(|a| a.trim().to_string()).filter(|a| !a.is_empty()).collect();
            out.push(Method {
                name: name.to_string(),
                params,
                returns: c[1].clone(),
                notes: c[2].clone(),
                writes: c[0].contains('✎'),
            });
        }
    }
    out
}

/// The points and events of docs/api.md's three tables.
pub fn points() -> Vec<Point> {
    let mut out = vec![];
    let mut kind = None;
    for line in API_MD.lines() {
        if line.starts_with("**Sequence points**") {
            kind = Some("sequence");
        } else if line.starts_with("**Filter points**") {
            kind = Some("filter");
        } else if line.starts_with("**Events**") {
            kind = Some("event");
        } else if line.starts_with('#') {
            kind = None;
        }
        let (Some(k), Some(c)) = (kind, cells(line)) else { continue };
        let Some(name) = code_spans(&c[0]).first().map(|s| s.to_string()) else { continue };
        if c[0].starts_with('`') {
            out.push(Point { name, kind: k, text: c[1..].join("; ") });
        }
    }
    out
}

/// Documented point names by kind.
pub fn point_names() -> BTreeMap<&'static str, Vec<String>> {
    let mut m: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for p in points() {
        m.entry(p.kind).or_default().push(p.name);
    }
    m
}

/// The table rows (cells) of the section of `page` whose heading starts with `heading`,
/// those whose first cell is code.
fn section_rows(page: &str, heading: &str) -> Vec<Vec<String>> {
    let mut out = vec![];
    let mut inside = false;
    for line in page.lines() {
        if line.starts_with(heading) {
            inside = true;
            continue;
        }
        if inside && line.starts_with("## ") {
            break;
        }
        let (true, Some(c)) = (inside, cells(line)) else { continue };
        if c.len() >= 2 && c[0].starts_with('`') {
            out.push(c);
        }
    }
    out
}

/// The global functions table: (signature as written, what it does).
fn globals() -> Vec<(String, String)> {
    let rows = section_rows(API_MD, "## Global functions");
    rows.iter().flat_map(|c| code_spans(&c[0]).into_iter().map(|span| (span.to_string(), c[1].clone()))).collect()
}

/// The fields of `variant { ... }` from docs/modding.md's declaration table: (name, form).
fn declaration_fields() -> Vec<(String, String)> {
    section_rows(MODDING_MD, "## The declaration")
        .into_iter()
        .map(|c| (c[0].trim_matches('`').to_string(), c[1].clone()))
        .collect()
}

/// The LuaLS type of a parameter, by the names the page uses.
fn param_type(name: &str) -> &'static str {
    match name {
        "p" | "seat" | "q" | "victim" => "integer",
        "owner" | "from_owner" | "to_owner" => "integer?",
        "n" | "h" | "id" | "path" | "row" | "col" | "row1" | "col1" | "row2" | "col2" | "number" | "level" | "t" => {
            "integer"
        }
        "seats" => "integer[]",
        "bottom" | "hidden" => "boolean",
        "value" | "data" => "any",
        "list" => "any[]",
        "layout" => "CatanLayout",
        _ => "string",
    }
}

/// The LuaLS return types of a "Returns" cell.
fn return_types(text: &str) -> Vec<&'static str> {
    let t = text.replace('`', "");
    let t = t.trim();
    let lower = t.to_ascii_lowercase();
    if t == "—" || t.is_empty() {
        return vec![];
    }
    if lower.starts_with("list") {
        let ints = ["hexes", "intersections", "paths", "seats", "sites", "of 6 intersections"];
        let list = if ints.iter().any(|w| lower.contains(w)) { "integer[]" } else { "table[]" };
        return vec![list];
    }
    let nil = lower.contains("or nil");
    let base = match lower.split([' ', ',']).next().unwrap_or("") {
        "integer" | "seat" | "hex" => "integer",
        "string" | "kind" => "string",
        "boolean" => "boolean",
        "table" => "table",
        "rows" => return vec!["integer", "integer"],
        "intersection" => return vec!["integer", "integer"],
        "terrain" => return vec!["string?", "integer?"],
        "owner" => return vec!["integer?", "string?", "integer?", "integer?"],
        "the" => "any",
        _ => "any",
    };
    if lower.starts_with("kind, owner") {
        return vec!["string?", "integer?"];
    }
    if lower.starts_with("kind or nil, store") {
        return vec!["string?", "integer"];
    }
    let ty = match (base, nil) {
        ("integer", true) => "integer?",
        ("string", true) => "string?",
        ("table", true) => "table?",
        (b, _) => b,
    };
    vec![ty]
}

/// Markdown of a cell as a plain comment line.
fn plain(text: &str) -> String {
    text.replace('`', "").replace("\\|", "|").replace('\n', " ")
}

/// The LuaLS stubs (`variants/types/catan.lua`), generated from docs/api.md and the
/// declaration table of docs/modding.md.
pub fn stubs() -> String {
    let mut s = String::from(
        "---@meta\n\
         -- LuaLS type annotations of the catan-engine script API, generated from docs/api.md\n\
         -- and the declaration table of docs/modding.md by `catan stubs`. Do not edit: change\n\
         -- the docs, then run `catan stubs > variants/types/catan.lua` (tests/stubs.rs checks it).\n\n",
    );
    let names = point_names();
    for (kind, alias) in [("sequence", "CatanSequencePoint"), ("filter", "CatanFilterPoint"), ("event", "CatanEvent")] {
        let list = names.get(kind).cloned().unwrap_or_default();
        let union = list.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join("|");
        s.push_str(&format!("---@alias {alias} {union}|string\n"));
    }
    s.push('\n');
    for p in points() {
        s.push_str(&format!("-- {} `{}`: {}\n", p.kind, p.name, plain(&p.text)));
    }
    s.push_str("\n---@class CatanLayout\n---@field hexes { q: integer, r: integer, terrain: string, number?: integer }[]\n---@field harbors? { hex: integer, side: string, ratio: integer, resource?: string }[]\n\n");
    s.push_str("---The game, as every hook and action receives it (docs/api.md).\n---@class G\nlocal G = {}\n\n");
    for m in methods() {
        s.push_str(&format!("---{}{}\n", if m.writes { "(changes the state) " } else { "" }, plain(&m.notes)));
        s.push_str(&format!("---Returns: {}\n", plain(&m.returns)));
        let mut args = vec![];
        for p in &m.params {
            let (name, optional) = match p.strip_suffix('?') {
                Some(n) => (n, true),
                None => (p.as_str(), false),
            };
            // `...`: any further arguments (g:run's, g:log's format arguments).
            let ty = if name == "..." { "any" } else { param_type(name) };
            let q = if optional && !ty.ends_with('?') { "?" } else { "" };
            s.push_str(&format!("---@param {name}{q} {ty}\n"));
            args.push(name.to_string());
        }
        for r in return_types(&m.returns) {
            s.push_str(&format!("---@return {r}\n"));
        }
        s.push_str(&format!("function G:{}({}) end\n\n", m.name, args.join(", ")));
    }
    s.push_str("---base.lua's exports (docs/api.md, Base's exports).\n---@class CatanBase\ncatan = {}\n\n");
    for c in section_rows(API_MD, "## Base's exports") {
        for span in code_spans(&c[0]) {
            let Some(sig) = span.strip_prefix("catan.") else { continue };
            s.push_str(&format!("---{}\n", plain(&c[1])));
            match sig.split_once('(') {
                Some((name, args)) => {
                    let params: Vec<&str> =
                        args.trim_end_matches(')').split(',').map(str::trim).filter(|a| !a.is_empty()).collect();
                    for p in &params {
                        let (n, q) = p.strip_suffix('?').map_or((*p, ""), |n| (n, "?"));
                        let ty = match n {
                            "g" => "G",
                            "cards" | "hand" | "t" => "table",
                            "list" => "any[]",
                            "face_up" => "boolean",
                            "x" => "any",
                            other => param_type(other),
                        };
                        s.push_str(&format!("---@param {n}{q} {ty}\n"));
                    }
                    let names: Vec<&str> = params.iter().map(|p| p.trim_end_matches('?')).collect();
                    s.push_str(&format!("function catan.{name}({}) end\n\n", names.join(", ")));
                }
                None => s.push_str(&format!("---@type string[]\ncatan.{sig} = {{}}\n\n")),
            }
        }
    }
    s.push_str("---The declaration of a variant (docs/modding.md, The declaration).\n---@class CatanVariant\n");
    for (field, form) in declaration_fields() {
        let ty = match field.as_str() {
            "extends" => "string|string[]",
            "layers_on" | "description" => "string",
            "colors" | "secret_actions" | "quiet_actions" => "string[]",
            "cards" => "table<string, string[]>",
            "feature_titles" => "table<string, string>",
            "players" => "{ min?: integer, max?: integer, default?: integer }",
            _ => "table[]",
        };
        s.push_str(&format!("---@field {field}? {ty} {}\n", plain(&form)));
    }
    s.push_str(
        "\n---An action (docs/modding.md, Actions).\n---@class CatanAction\n---@field name string\n\
         ---@field syntax? string\n---@field help? string\n---@field phases? string[]\n\
         ---@field turn? boolean|string[]\n---@field holds? string[]\n---@field supply? string\n\
         ---@field cost? { [1]: string, from: string, free?: string[] }\n\
         ---@field when? fun(g: G, p: integer): boolean\n---@field options? fun(g: G, p: integer): any[]\n---@field sample? fun(g: G, p: integer, r: number): any\n\
         ---@field legal? fun(g: G, p: integer, ...): boolean, any\n---@field apply fun(g: G, p: integer, ...)\n\
         ---@field not_now? string\n---@field why_not? fun(g: G, p: integer): string?\n\
         ---@field available? fun(g: G): boolean\n---@field debug? boolean\n\n---@class CatanHookOptions\n---@field priority? integer\n\n",
    );
    for (sig, doc) in globals() {
        let name = sig.split(['(', ' ']).next().unwrap_or("").to_string();
        s.push_str(&format!("---{}\n", plain(&doc)));
        let body = match name.as_str() {
            "variant" => "---@param decl CatanVariant\nfunction variant(decl) end".to_string(),
            "action" => "---@param def CatanAction\nfunction action(def) end".to_string(),
            "sequence" => "---@param point CatanSequencePoint\n---@param name string\n---@param fn fun(g: G, ...)\n---@param opts? CatanHookOptions\nfunction sequence(point, name, fn, opts) end".to_string(),
            "filter" => "---@param point CatanFilterPoint\n---@param name string\n---@param fn fun(g: G, value: any, ...): any\n---@param opts? CatanHookOptions\nfunction filter(point, name, fn, opts) end".to_string(),
            "on" => "---@param event CatanEvent\n---@param name string\n---@param fn fun(g: G, data: table)\n---@param opts? CatanHookOptions\nfunction on(event, name, fn, opts) end".to_string(),
            "prices" => "---@param list table<string, table<string, integer>>\nfunction prices(list) end".to_string(),
            "remove_hook" | "remove_action" => format!("---@param name string\nfunction {name}(name) end"),
            "replace_hook" => "---@param name string\n---@param fn function\nfunction replace_hook(name, fn) end".to_string(),
            "wrap_hook" => "---@param name string\n---@param wrapper fun(original: function): function\nfunction wrap_hook(name, wrapper) end".to_string(),
            "wrap_action" => "---@param name string\n---@param parts table<string, fun(original: function): function>\nfunction wrap_action(name, parts) end".to_string(),
            "deny" => "---@param reason string|fun(...): string\n---@param ... any\n---@return boolean, table?\nfunction deny(reason, ...) end".to_string(),
            "hook_names" => "---@return string[]\nfunction hook_names() end".to_string(),
            "part" => "---@param file string\n---@param ... any\n---@return any ...\nfunction part(file, ...) end".to_string(),
            other => format!("function {other}(...) end"),
        };
        s.push_str(&body);
        s.push_str("\n\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_read() {
        let m = methods();
        let count = m.iter().find(|m| m.name == "count").map(|m| m.params.clone());
        assert_eq!(count, Some(vec!["owner".to_string(), "zone".into(), "kind?".into()]));
        assert!(m.iter().any(|m| m.name == "path_count"), "several methods in one cell");
        let names = point_names();
        assert!(names["filter"].contains(&"cost".to_string()));
        assert!(names["event"].contains(&"knights_changed".to_string()));
        assert!(names["sequence"].contains(&"setup".to_string()));
        assert!(globals().iter().any(|(s, _)| s.starts_with("wrap_hook")));
        assert!(declaration_fields().iter().any(|(f, _)| f == "options"));
    }
}
