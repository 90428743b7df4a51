//! Lints for variant scripts, read as text before any game is played: hooks on points that
//! nothing runs, hooks and actions changed that do not exist, hooks registered again under
//! a parent's name, globals written, `g:` methods that do not exist, and iterations in
//! `next` order (which differs from run to run) where the order shows. `catan check` runs
//! them over every file of a variant stack.
//!
//! The reader is a Lua tokenizer with a scope tracker, not a full parser: it knows the
//! shapes variants are written in (literal point and hook names, `local` declarations,
//! blocks) and stays silent where it cannot be sure (a point computed at run time).

use std::collections::{BTreeMap, BTreeSet, HashSet};

/// One thing a lint found: where, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Finding {
    /// "variants/base.lua:12", or a file name alone when no line applies.
    pub location: String,
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    Str(String),
    Num,
    Op(&'static str),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

const OPS: &[&str] = &[
    "...", "..", "==", "~=", "<=", ">=", "<<", ">>", "//", "::", "+", "-", "*", "/", "%", "^", "#", "&", "~", "|", "<",
    ">", "=", "(", ")", "{", "}", "[", "]", ";", ":", ",", ".",
];

/// The bytes of a file, read only through `get` (never an index or a slice that could be
/// out of range), so that no text makes the tokenizer panic: an unterminated string,
/// comment or long bracket just ends with the file.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.0.get(i).copied()
    }

    fn is(&self, i: usize, c: u8) -> bool {
        self.at(i) == Some(c)
    }

    fn starts(&self, i: usize, s: &[u8]) -> bool {
        self.0.get(i..).is_some_and(|rest| rest.starts_with(s))
    }

    /// The text between `from` and `to`, empty if that is not a range of the file.
    fn text(&self, from: usize, to: usize) -> String {
        self.0.get(from..to).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default()
    }

    fn newlines(&self, from: usize, to: usize) -> usize {
        self.0.get(from..to).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
    }
}

/// The level of a long bracket opening at `i` (`[[` is 0, `[==[` is 2), if one does.
fn long_bracket(b: &Bytes, i: usize) -> Option<usize> {
    if !b.is(i, b'[') {
        return None;
    }
    let mut j = i + 1;
    while b.is(j, b'=') {
        j += 1;
    }
    b.is(j, b'[').then_some(j - i - 1)
}

/// A long string or comment whose opening bracket of `level` starts at `i`: where its
/// text starts and ends, the index after it and the lines it spans. Unterminated, it runs
/// to the end of the file.
struct Long {
    text: (usize, usize),
    end: usize,
    lines: usize,
}

fn skip_long(b: &Bytes, i: usize, level: usize) -> Long {
    let close: Vec<u8> = std::iter::once(b']').chain(std::iter::repeat_n(b'=', level)).chain([b']']).collect();
    let start = i + level + 2;
    let mut j = start;
    while j < b.0.len() && !b.starts(j, &close) {
        j += 1;
    }
    let end = if j < b.0.len() { j + close.len() } else { b.0.len() };
    Long { text: (start, j.min(b.0.len())), end, lines: b.newlines(i, end) }
}

fn tokenize(src: &str) -> Vec<Token> {
    let b = Bytes(src.as_bytes());
    let (mut i, mut line, mut out) = (0, 1, vec![]);
    while let Some(c) = b.at(i) {
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if b.starts(i, b"--") {
            if let Some(level) = long_bracket(&b, i + 2) {
                let long = skip_long(&b, i + 2, level);
                i = long.end;
                line += long.lines;
            } else {
                while b.at(i).is_some_and(|c| c != b'\n') {
                    i += 1;
                }
            }
        } else if let Some(level) = long_bracket(&b, i) {
            let long = skip_long(&b, i, level);
            out.push(Token { tok: Tok::Str(b.text(long.text.0, long.text.1)), line });
            i = long.end;
            line += long.lines;
        } else if c == b'"' || c == b'\'' {
            let start_line = line;
            let mut j = i + 1;
            let mut text = vec![];
            while let Some(d) = b.at(j).filter(|&d| d != c && d != b'\n') {
                match (d, b.at(j + 1)) {
                    (b'\\', Some(escaped)) => {
                        if escaped == b'\n' {
                            line += 1;
                        }
                        text.push(escaped);
                        j += 2;
                    }
                    _ => {
                        text.push(d);
                        j += 1;
                    }
                }
            }
            out.push(Token { tok: Tok::Str(String::from_utf8_lossy(&text).into_owned()), line: start_line });
            i = j + 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while b.at(j).is_some_and(|d| d.is_ascii_alphanumeric() || d == b'_') {
                j += 1;
            }
            out.push(Token { tok: Tok::Name(b.text(i, j)), line });
            i = j;
        } else if c.is_ascii_digit() || (c == b'.' && b.at(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let mut j = i + 1;
            while let Some(d) = b.at(j) {
                let exponent_sign = (d == b'-' || d == b'+') && matches!(b.at(j - 1), Some(b'e' | b'E' | b'p' | b'P'));
                if !(d.is_ascii_alphanumeric() || d == b'.' || exponent_sign) {
                    break;
                }
                j += 1;
            }
            out.push(Token { tok: Tok::Num, line });
            i = j;
        } else if let Some(op) = OPS.iter().find(|op| b.starts(i, op.as_bytes())) {
            out.push(Token { tok: Tok::Op(op), line });
            i += op.len();
        } else {
            i += 1;
        }
    }
    out
}

/// Points the engine itself runs, by kind of hook.
const ENGINE_SEQUENCES: &[&str] = &["setup", "after_action"];
const ENGINE_FILTERS: &[&str] = &["to_act", "victory_points", "describe", "card_text", "evaluate", "metrics"];

/// Globals a variant reads but must not replace: Lua's library and the engine's functions.
const BUILTIN_GLOBALS: &[&str] = &[
    "_G",
    "_ENV",
    "_VERSION",
    "assert",
    "error",
    "getmetatable",
    "ipairs",
    "next",
    "pairs",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "math",
    "string",
    "table",
    "utf8",
    "variant",
    "sequence",
    "filter",
    "on",
    "action",
    "remove_hook",
    "replace_hook",
    "wrap_hook",
    "remove_action",
    "wrap_action",
    "prices",
    "deny",
    "hook_names",
    "part",
];

/// `g` methods whose effect depends on the order they are called in.
const ORDERED_METHODS: &[&str] = &[
    "random",
    "roll",
    "shuffled",
    "shuffle",
    "random_card",
    "draw",
    "log",
    "tell",
    "emit",
    "run",
    "place",
    "place_card",
    "create",
    "create_card",
    "move_under",
    "set_current",
    "declare_winner",
    "set_phase",
    "take_card",
];

#[derive(Debug)]
struct Hook {
    kind: &'static str,
    point: String,
    name: String,
    file: usize,
    line: usize,
}

/// What the reader gathered from every file of a stack.
#[derive(Default)]
struct Facts {
    hooks: Vec<Hook>,
    /// Points run with a literal name, by kind (`sequence`, `filter`, `event`).
    run: BTreeMap<&'static str, BTreeSet<String>>,
    /// Kinds of point also run with a computed name: no hook of that kind is reported.
    dynamic: HashSet<&'static str>,
    /// (file, line, function, name) of `replace_hook("x")` and the like.
    changes: Vec<(usize, usize, String, String)>,
    actions: BTreeSet<String>,
    /// Globals written at the top of a file: name -> (file, line) of the first.
    exports: BTreeMap<String, (usize, usize)>,
}

/// Lints the files of a stack, `(chunk name, source)` in load order. `methods` are the
/// names of `g`'s methods (empty: that lint is skipped).
pub fn lint(files: &[(String, String)], methods: &[String]) -> Vec<Finding> {
    let mut facts = Facts::default();
    let mut out = vec![];
    let tokens: Vec<Vec<Token>> = files.iter().map(|(_, src)| tokenize(src)).collect();
    for (f, toks) in tokens.iter().enumerate() {
        let at = |line: usize| format!("{}:{line}", files[f].0);
        gather(f, toks, &mut facts);
        for (line, msg) in scopes(toks, &mut facts.exports, f, files) {
            out.push(Finding { location: at(line), message: msg });
        }
        for (line, msg) in next_order(toks) {
            out.push(Finding { location: at(line), message: msg });
        }
        if !methods.is_empty() {
            for (line, msg) in unknown_methods(toks, methods) {
                out.push(Finding { location: at(line), message: msg });
            }
        }
    }
    out.extend(cross_file(files, &facts));
    out
}

fn name_at(t: &[Token], i: usize) -> Option<&str> {
    match t.get(i).map(|x| &x.tok) {
        Some(Tok::Name(n)) => Some(n),
        _ => None,
    }
}

fn str_at(t: &[Token], i: usize) -> Option<&str> {
    match t.get(i).map(|x| &x.tok) {
        Some(Tok::Str(s)) => Some(s),
        _ => None,
    }
}

fn op_at(t: &[Token], i: usize, op: &str) -> bool {
    matches!(t.get(i).map(|x| &x.tok), Some(Tok::Op(o)) if *o == op)
}

/// A bare call of a global function `name(`: not a method, a field or a definition.
fn global_call(t: &[Token], i: usize) -> bool {
    let before = i.checked_sub(1);
    let after_dot = before.is_some_and(|j| op_at(t, j, ".") || op_at(t, j, ":"));
    let defined = before.is_some_and(|j| name_at(t, j) == Some("function"));
    !after_dot && !defined
}

fn gather(f: usize, t: &[Token], facts: &mut Facts) {
    for i in 0..t.len() {
        let Some(word) = name_at(t, i) else { continue };
        // Registrations: sequence("point", "name", fn), filter(...), on(...).
        let kind = match word {
            "sequence" => Some("sequence"),
            "filter" => Some("filter"),
            "on" => Some("event"),
            _ => None,
        };
        if let Some(kind) = kind.filter(|_| global_call(t, i) && op_at(t, i + 1, "(")) {
            if let (Some(point), true, Some(name)) = (str_at(t, i + 2), op_at(t, i + 3, ","), str_at(t, i + 4)) {
                facts.hooks.push(Hook { kind, point: point.into(), name: name.into(), file: f, line: t[i].line });
            }
        }
        // Points run: g:run("x"), g:filter("x"), g:emit("x").
        if op_at(t, i.wrapping_sub(1), ":") {
            let kind = match word {
                "run" => Some("sequence"),
                "filter" => Some("filter"),
                "emit" => Some("event"),
                _ => None,
            };
            if let Some(kind) = kind.filter(|_| op_at(t, i + 1, "(")) {
                match str_at(t, i + 2) {
                    Some(p) => {
                        facts.run.entry(kind).or_default().insert(p.to_string());
                    }
                    None => {
                        facts.dynamic.insert(kind);
                    }
                }
            }
        }
        if matches!(word, "replace_hook" | "wrap_hook" | "remove_hook" | "remove_action" | "wrap_action")
            && global_call(t, i)
            && op_at(t, i + 1, "(")
        {
            if let Some(name) = str_at(t, i + 2) {
                facts.changes.push((f, t[i].line, word.to_string(), name.to_string()));
            }
        }
        // action { name = "x", ... }
        if word == "action" && global_call(t, i) && op_at(t, i + 1, "{") {
            let mut depth = 0;
            for j in i + 1..t.len() {
                match &t[j].tok {
                    Tok::Op("{") => depth += 1,
                    Tok::Op("}") => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Name(n) if depth == 1 && n == "name" && op_at(t, j + 1, "=") => {
                        if let Some(s) = str_at(t, j + 2) {
                            facts.actions.insert(s.to_string());
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
}

fn cross_file(files: &[(String, String)], facts: &Facts) -> Vec<Finding> {
    let mut out = vec![];
    let at = |f: usize, line: usize| format!("{}:{line}", files[f].0);
    let mut run = facts.run.clone();
    run.entry("sequence").or_default().extend(ENGINE_SEQUENCES.iter().map(|s| s.to_string()));
    run.entry("filter").or_default().extend(ENGINE_FILTERS.iter().map(|s| s.to_string()));
    // Points docs/api.md documents are extension points: a hook may wait on one that only
    // another variant runs (base's `knights_changed`, emitted by helpers).
    for (kind, names) in crate::api_doc::point_names() {
        run.entry(kind).or_default().extend(names);
    }
    let verb = |kind: &str| match kind {
        "sequence" => "runs sequence point",
        "filter" => "runs filter point",
        _ => "emits event",
    };
    for h in &facts.hooks {
        if facts.dynamic.contains(h.kind) || run.get(h.kind).is_some_and(|s| s.contains(&h.point)) {
            continue;
        }
        let mut msg = format!(
            "{} hook '{}' is on '{}', but nothing in this stack {} '{}'",
            h.kind,
            h.name,
            h.point,
            verb(h.kind),
            h.point
        );
        let other = run.iter().find(|(k, s)| **k != h.kind && s.contains(&h.point)).map(|(k, _)| *k);
        if let Some(k) = other {
            msg.push_str(&format!(" ('{}' is a {} point: register it with {})", h.point, k, register_fn(k)));
        } else if let Some(near) = closest(&h.point, run.get(h.kind).into_iter().flatten()) {
            msg.push_str(&format!(" (did you mean '{near}'?)"));
        }
        out.push(Finding { location: at(h.file, h.line), message: msg });
    }
    // A hook registered again under a name a parent used replaces it without saying so.
    let mut first: BTreeMap<&str, &Hook> = BTreeMap::new();
    for h in &facts.hooks {
        match first.get(h.name.as_str()) {
            Some(old) if old.file != h.file => out.push(Finding {
                location: at(h.file, h.line),
                message: format!(
                    "hook '{}' is already registered at {}: registering it again replaces it silently; say \
                     replace_hook(\"{}\", fn) if that is meant, or choose a new name",
                    h.name,
                    at(old.file, old.line),
                    h.name
                ),
            }),
            Some(_) => {}
            None => {
                first.insert(&h.name, h);
            }
        }
    }
    // replace_hook("x") and the like, before any file registered "x".
    for (f, line, func, name) in &facts.changes {
        let is_action = func.ends_with("_action");
        let known = if is_action {
            facts.actions.contains(name)
        } else {
            facts.hooks.iter().any(|h| h.name == *name && (h.file, h.line) < (*f, *line))
        };
        if !known {
            let what = if is_action { "action" } else { "hook" };
            let pool: Vec<&String> =
                if is_action { facts.actions.iter().collect() } else { facts.hooks.iter().map(|h| &h.name).collect() };
            let mut msg = format!("{func}(\"{name}\"): no {what} of that name is declared before this line");
            if let Some(near) = closest(name, pool.into_iter()) {
                msg.push_str(&format!(" (did you mean '{near}'?)"));
            }
            out.push(Finding { location: at(*f, *line), message: msg });
        }
    }
    out
}

fn register_fn(kind: &str) -> &'static str {
    match kind {
        "sequence" => "sequence(...)",
        "filter" => "filter(...)",
        _ => "on(...)",
    }
}

/// The candidate nearest to `word` by edit distance, if near enough to be a typo.
fn closest<'a>(word: &str, pool: impl Iterator<Item = &'a String>) -> Option<&'a String> {
    pool.map(|c| (crate::repl::text::distance(word, c), c))
        .filter(|(d, c)| *d > 0 && *d <= (word.len().max(c.len()) / 3).max(1))
        .min()
        .map(|(_, c)| c)
}

#[derive(Clone, Copy, PartialEq)]
enum Block {
    File,
    Function,
    Other,
}

struct Scope {
    kind: Block,
    /// A function whose first parameter is `g`: a hook, an action or a helper of theirs,
    /// run while the game is played (a function without `g` may run while loading).
    game: bool,
    names: HashSet<String>,
    /// Bracket depth where this block's statements stand.
    depth: usize,
}

/// Global writes (inside functions: they fail once the game runs; at the top of a file:
/// reported when they replace a builtin or another file's global) and writes from inside
/// functions to variables of the file (state kept outside `g`, so not saved or undone).
fn scopes(
    t: &[Token],
    exports: &mut BTreeMap<String, (usize, usize)>,
    file: usize,
    files: &[(String, String)],
) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut stack = vec![Scope { kind: Block::File, game: false, names: HashSet::new(), depth: 0 }];
    let mut depth = 0usize;
    let mut pending: Vec<String> = vec![];
    let mut i = 0;
    let in_function = |stack: &[Scope]| stack.iter().any(|s| s.game);
    while i < t.len() {
        match &t[i].tok {
            Tok::Op("(" | "{" | "[") => depth += 1,
            Tok::Op(")" | "}" | "]") => depth = depth.saturating_sub(1),
            Tok::Name(w) => match w.as_str() {
                "local" => {
                    if name_at(t, i + 1) == Some("function") {
                        if let (Some(n), Some(s)) = (name_at(t, i + 2), stack.last_mut()) {
                            s.names.insert(n.to_string());
                        }
                        i += 1;
                        continue;
                    }
                    let mut j = i + 1;
                    while let Some(n) = name_at(t, j) {
                        if let Some(s) = stack.last_mut() {
                            s.names.insert(n.to_string());
                        }
                        j += 1;
                        if op_at(t, j, "<") {
                            j += 3;
                        }
                        if !op_at(t, j, ",") {
                            break;
                        }
                        j += 1;
                    }
                    // Skip the `=` of the declaration.
                    i = if op_at(t, j, "=") { j + 1 } else { j };
                    continue;
                }
                "function" => {
                    let mut j = i + 1;
                    // function a.b:c(...) / function name(...)
                    let mut chain = vec![];
                    while let Some(n) = name_at(t, j) {
                        chain.push(n.to_string());
                        if op_at(t, j + 1, ".") || op_at(t, j + 1, ":") {
                            j += 2;
                        } else {
                            j += 1;
                            break;
                        }
                    }
                    let local_fn = i > 0 && name_at(t, i - 1) == Some("local");
                    if chain.len() == 1 && !local_fn {
                        let name = &chain[0];
                        if !declared(&stack, name) {
                            if let Some(m) = global_write(name, in_function(&stack), t[i].line, exports, file, files) {
                                out.push((t[i].line, m));
                            }
                        }
                    }
                    let method = j >= 2 && op_at(t, j - 2, ":");
                    let mut names: HashSet<String> = HashSet::new();
                    if method {
                        names.insert("self".into());
                    }
                    let game = op_at(t, j, "(") && name_at(t, j + 1) == Some("g");
                    if op_at(t, j, "(") {
                        j += 1;
                        while j < t.len() && !op_at(t, j, ")") {
                            if let Some(n) = name_at(t, j) {
                                names.insert(n.to_string());
                            }
                            j += 1;
                        }
                    }
                    stack.push(Scope { kind: Block::Function, game, names, depth });
                    i = j + 1;
                    continue;
                }
                "for" => {
                    let mut j = i + 1;
                    pending.clear();
                    while let Some(n) = name_at(t, j) {
                        if n == "in" {
                            break;
                        }
                        pending.push(n.to_string());
                        j += 1;
                        if !op_at(t, j, ",") {
                            break;
                        }
                        j += 1;
                    }
                    i = if op_at(t, j, "=") { j + 1 } else { j };
                    continue;
                }
                "do" => {
                    let names = pending.drain(..).collect();
                    stack.push(Scope { kind: Block::Other, game: false, names, depth });
                }
                "then" | "repeat" => {
                    stack.push(Scope { kind: Block::Other, game: false, names: HashSet::new(), depth })
                }
                "elseif" if stack.len() > 1 => {
                    stack.pop();
                }
                "else" => {
                    if stack.len() > 1 {
                        stack.pop();
                    }
                    stack.push(Scope { kind: Block::Other, game: false, names: HashSet::new(), depth });
                }
                "end" | "until" if stack.len() > 1 => {
                    if let Some(s) = stack.pop() {
                        depth = s.depth;
                    }
                }
                _ => {}
            },
            Tok::Op("=") if stack.last().is_some_and(|s| s.depth == depth) => {
                // The targets: bare names before `=`, separated by commas.
                let mut j = i;
                while j >= 1 {
                    let Some(n) = name_at(t, j - 1) else { break };
                    if j >= 2 && (op_at(t, j - 2, ".") || op_at(t, j - 2, ":")) {
                        break;
                    }
                    let line = t[j - 1].line;
                    if let Some(level) = declared_at(&stack, n) {
                        let file_var = stack[..=level].iter().all(|s| s.kind != Block::Function);
                        if file_var && in_function(&stack) {
                            out.push((
                                line,
                                format!(
                                    "assigns '{n}', a variable of the file, from inside a function of g (a hook or \
                                     action): it is not part of \
                                     the game state, so save, undo, replay and the bots' forks do not see it; keep \
                                     it with g:set / g:pset"
                                ),
                            ));
                        }
                    } else if let Some(m) = global_write(n, in_function(&stack), line, exports, file, files) {
                        out.push((line, m));
                    }
                    if j >= 2 && op_at(t, j - 2, ",") {
                        j -= 2;
                    } else {
                        break;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn declared(stack: &[Scope], name: &str) -> bool {
    declared_at(stack, name).is_some()
}

fn declared_at(stack: &[Scope], name: &str) -> Option<usize> {
    stack.iter().rposition(|s| s.names.contains(name))
}

fn global_write(
    name: &str,
    in_function: bool,
    line: usize,
    exports: &mut BTreeMap<String, (usize, usize)>,
    file: usize,
    files: &[(String, String)],
) -> Option<String> {
    if in_function {
        return Some(format!(
            "assigns the global '{name}' inside a function of g (a hook or action): once the game starts the \
             global environment is frozen, so this fails; declare it `local` (a shared helper: local at the top of the file), and keep \
             game data with g:set"
        ));
    }
    if BUILTIN_GLOBALS.contains(&name) {
        return Some(format!("replaces the global '{name}' that Lua or the engine provides: choose another name"));
    }
    match exports.get(name) {
        Some(&(f, l)) if f != file => Some(format!(
            "replaces the global '{name}' defined at {}:{l}: every variant that uses it now gets this one; \
             choose another name, or make it `local`",
            files[f].0
        )),
        Some(_) => None,
        None => {
            exports.insert(name.to_string(), (file, line));
            None
        }
    }
}

/// Loops `for k, v in next, t do` whose body does something order shows in, and
/// `local k = next(t)` taking a "first" key: `next` follows the table's hash layout,
/// which differs between runs, so the same seed would not give the same game.
fn next_order(t: &[Token]) -> Vec<(usize, String)> {
    let mut out = vec![];
    for i in 0..t.len() {
        if name_at(t, i) == Some("in") && name_at(t, i + 1) == Some("next") && op_at(t, i + 2, ",") {
            let Some(start) = (i..t.len()).find(|&j| name_at(t, j) == Some("do")) else { continue };
            let mut level = 0;
            let mut why = None;
            for j in start..t.len() {
                match name_at(t, j) {
                    Some("do" | "then" | "function" | "repeat") => level += 1,
                    Some("end" | "until") => {
                        level -= 1;
                        if level == 0 {
                            break;
                        }
                    }
                    // `return false` is the same whichever key comes first; `return k` is not.
                    Some("return") if !matches!(name_at(t, j + 1), Some("true" | "false" | "nil" | "end")) => {
                        why = why.or(Some("returns a value found inside the loop".to_string()))
                    }
                    Some("insert") if j >= 2 && name_at(t, j - 2) == Some("table") => {
                        why = why.or(Some("builds a list (table.insert)".to_string()))
                    }
                    Some(m) if j >= 1 && op_at(t, j - 1, ":") && ORDERED_METHODS.contains(&m) => {
                        why = why.or(Some(format!("calls g:{m}, whose effect depends on the order")))
                    }
                    _ => {}
                }
                if op_at(t, j, "[") && op_at(t, j + 1, "#") {
                    why = why.or(Some("builds a list (t[#t + 1])".to_string()));
                }
                if op_at(t, j, "..") && j >= 3 && op_at(t, j - 2, "=") && name_at(t, j - 1) == name_at(t, j - 3) {
                    why = why.or(Some("builds a string piece by piece".to_string()));
                }
            }
            if let Some(why) = why {
                out.push((
                    t[i].line,
                    format!(
                        "iterates in `next` order and {why}: that order follows the table's memory layout and \
                         can differ between runs, so the same seed may not give the same game; use pairs (sorted \
                         in the sandbox) or ipairs over a list"
                    ),
                ));
            }
        }
        if name_at(t, i) == Some("next") && op_at(t, i + 1, "(") && i >= 1 && op_at(t, i - 1, "=") {
            out.push((
                t[i].line,
                "takes a key with next(t): which key comes first can differ between runs; sort the keys or use a \
                 list"
                    .to_string(),
            ));
        }
    }
    out
}

/// `g:name(` where `name` is not a method of `g`.
fn unknown_methods(t: &[Token], methods: &[String]) -> Vec<(usize, String)> {
    let mut out = vec![];
    for i in 2..t.len() {
        if name_at(t, i - 2) == Some("g") && op_at(t, i - 1, ":") {
            if let Some(m) = name_at(t, i) {
                if !methods.iter().any(|x| x == m) {
                    let mut msg = format!("g:{m} is not a method of g (docs/api.md lists them)");
                    if let Some(near) = closest(m, methods.iter()) {
                        msg = format!("g:{m} is not a method of g (did you mean g:{near}?)");
                    }
                    out.push((t[i].line, msg));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> Vec<String> {
        let files = vec![("variants/base.lua".to_string(), "filter(\"cost\", \"base.cost\", function(g, c) return c end)\nsequence(\"turn_begin\", \"base.tb\", function(g) end)\nlocal function f(g) g:run(\"turn_begin\") g:filter(\"cost\", {}) end\n".to_string()), ("m.lua".to_string(), src.to_string())];
        lint(&files, &["run".into(), "filter".into(), "log".into()]).iter().map(|f| f.to_string()).collect()
    }

    #[test]
    fn a_hook_on_a_point_nobody_runs_is_named_with_a_suggestion() {
        let out = run("filter(\"costs\", \"m.x\", function(g, c) return c end)\n");
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("m.lua:1: filter hook 'm.x' is on 'costs'") && out[0].contains("'cost'"), "{out:?}");
        let out = run("on(\"cost\", \"m.x\", function(g) end)\n");
        assert!(out[0].contains("a filter point"), "{out:?}");
    }

    #[test]
    fn globals_and_file_state_written_from_functions_are_found() {
        let out = run("local n = 0\nlocal function f(g)\n  n = n + 1\n  total = 3\n  local ok = 1\n  ok = 2\nend\n");
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("m.lua:3: assigns 'n', a variable of the file"), "{out:?}");
        assert!(out[1].starts_with("m.lua:4: assigns the global 'total'"), "{out:?}");
        assert!(run("helper = {}\nlocal t = { a = 1 }\nfor i = 1, 3 do local x = i end\n").is_empty());
        assert_eq!(run("function pairs() end\n").len(), 1);
    }

    #[test]
    fn changing_missing_hooks_and_reregistering_are_found() {
        let out = run("replace_hook(\"base.costs\", function() end)\nfilter(\"cost\", \"base.cost\", function(g, c) return c end)\n");
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out.iter().any(|o| o.contains("did you mean 'base.cost'")), "{out:?}");
        assert!(out
            .iter()
            .any(|o| o.starts_with("m.lua:2: hook 'base.cost' is already registered at variants/base.lua:1")));
    }

    #[test]
    fn next_order_where_it_shows_and_unknown_methods() {
        let out = run("local function f(g, t)\n  for k, n in next, t do g:log(k) end\n  local s = 0\n  for _, n in next, t do s = s + n end\n  g:lgo(\"x\")\nend\n");
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("m.lua:2: iterates in `next` order and calls g:log"), "{out:?}");
        assert!(out[1].contains("did you mean g:log?"), "{out:?}");
    }
}
