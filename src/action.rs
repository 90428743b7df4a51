//! Actions as values: a name and typed arguments, parsed from and printed to the text a
//! player types ("road 12-13", "trade 4 ore for brick").

use crate::board::Label;
use crate::spec::{ActionSpec, ArgType, Spec, SyntaxPart};
use crate::state::GameState;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Arg {
    Intersection(usize),
    Path(usize),
    Hex(usize),
    Player(usize),
    Resource(String),
    /// Card kinds with counts, sorted by kind.
    Cards(Vec<(String, u32)>),
    Int(i64),
    Word(String),
    /// A slot-grid position by its label, upper case (`K2`).
    Slot(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    pub name: String,
    pub args: Vec<Arg>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ParseError {}

impl ParseError {
    /// No action of the game starts with the command's first word: each face adds where
    /// its users find the actions (the REPL `help` and `legal`, the protocol's `legal`
    /// request, Python's `Game.legal_text()`).
    pub fn is_unknown_command(&self) -> bool {
        self.0.starts_with(UNKNOWN_COMMAND)
    }
}

const UNKNOWN_COMMAND: &str = "unknown command ";

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

/// "2 ore brick" -> [("brick",1),("ore",2)]. Counts may also be glued: "2ore".
pub fn parse_cards_words(spec: &Spec, words: &[&str]) -> Result<Vec<(String, u32)>, ParseError> {
    let mut out: Vec<(String, u32)> = vec![];
    let mut pending: Option<u32> = None;
    for w in words {
        let w = w.trim_matches(',').to_ascii_lowercase();
        if w.is_empty() {
            continue;
        }
        if let Ok(n) = w.parse::<u32>() {
            if pending.is_some() {
                return err(format!("two counts in a row near '{w}'"));
            }
            pending = Some(n);
            continue;
        }
        let split = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
        let (num, name) = w.split_at(split);
        let n = if num.is_empty() { pending.take().unwrap_or(1) } else { num.parse().unwrap_or(1) };
        let name = name.trim_end_matches('s');
        let kind = spec
            .cards
            .iter()
            .find(|c| c.name == name || c.name == format!("{name}s") || c.name == w)
            .ok_or_else(|| ParseError(format!("'{w}' is not a card")))?;
        match out.iter_mut().find(|(k, _)| *k == kind.name) {
            Some(e) => e.1 += n,
            None => out.push((kind.name.clone(), n)),
        }
    }
    if pending.is_some() {
        return err("a count with no card after it");
    }
    out.retain(|(_, n)| *n > 0);
    out.sort();
    Ok(out)
}

fn parse_player(state: &GameState, w: &str) -> Result<usize, ParseError> {
    if let Ok(n) = w.parse::<usize>() {
        if n >= 1 && n <= state.players.len() {
            return Ok(n - 1);
        }
    }
    state
        .players
        .iter()
        .position(|p| p.color.eq_ignore_ascii_case(w) || p.name.eq_ignore_ascii_case(w))
        .ok_or_else(|| ParseError(format!("'{w}' is not a player")))
}

impl Arg {
    /// An argument of an action object given by its label as the text writes it, where
    /// the object form has a 0-based index: `{"Hex": "H1"}` for `{"Hex": 0}`,
    /// `{"Intersection": "12"}`, `{"Path": "12-13"}`, `{"Player": "blue"}` or `{"Player":
    /// "2"}` (1-based, as typed). None for another kind of argument.
    pub fn from_label(spec: &Spec, state: &GameState, kind: &str, label: &str) -> Option<Result<Arg, ParseError>> {
        let t = match kind {
            "Intersection" => ArgType::Intersection,
            "Path" => ArgType::Path,
            "Hex" => ArgType::Hex,
            "Player" => ArgType::Player,
            _ => return None,
        };
        Some(parse_arg(spec, state, t, &[label]))
    }
}

fn parse_arg(spec: &Spec, state: &GameState, t: ArgType, words: &[&str]) -> Result<Arg, ParseError> {
    let one = || -> Result<&str, ParseError> {
        match words {
            [w] => Ok(w),
            [] => err(format!("missing <{}>", type_name(t))),
            _ => err(format!("expected one <{}>, got '{}'", type_name(t), words.join(" "))),
        }
    };
    let topo = || state.topology.as_deref().ok_or_else(|| ParseError("the board is not built yet".into()));
    Ok(match t {
        ArgType::Intersection => match topo()?.label(one()?) {
            Some(Label::Intersection(n)) => Arg::Intersection(n),
            _ => return err(format!("'{}' is not an intersection", one()?)),
        },
        ArgType::Path => match topo()?.label(one()?) {
            Some(Label::Path(n)) => Arg::Path(n),
            _ => return err(format!("'{}' is not a path (write it as two intersections, like 12-13)", one()?)),
        },
        ArgType::Hex => match topo()?.label(one()?) {
            Some(Label::Hex(n)) => Arg::Hex(n),
            _ => return err(format!("'{}' is not a hex (hexes are H1, H2, ...)", one()?)),
        },
        ArgType::Player => Arg::Player(parse_player(state, one()?)?),
        ArgType::Resource => {
            let w = one()?.to_ascii_lowercase();
            if !spec.is_resource(&w) {
                return err(format!("'{w}' is not a resource ({})", spec.resources().collect::<Vec<_>>().join(", ")));
            }
            Arg::Resource(w)
        }
        ArgType::Cards => Arg::Cards(parse_cards_words(spec, words)?),
        ArgType::Int => {
            Arg::Int(one()?.parse().map_err(|_| ParseError(format!("'{}' is not a number", words.join(" "))))?)
        }
        ArgType::Word => match words {
            // A card as players read it ("Large Trade Ship", "weaver's shop"): its name.
            [w] => Arg::Word(card_named(spec, &[w]).unwrap_or_else(|| w.to_string())),
            [] => return err("missing <word>"),
            _ => match card_named(spec, words) {
                Some(kind) => Arg::Word(kind),
                None => return err(format!("'{}' is not a card of this game", words.join(" "))),
            },
        },
        ArgType::Slot => {
            let w = one()?.to_ascii_uppercase();
            if crate::slots::find_label(&state.grids, &w).is_none() {
                return err(format!("'{w}' is not a slot (slots are labelled like K2: see `show board`)"));
            }
            Arg::Slot(w)
        }
    })
}

/// The card kind that `words` name as a player reads them, whatever the case, with spaces,
/// hyphens or apostrophes (`large trade ship`, `Weaver's Shop`): one name, exactly, or
/// none.
fn card_named(spec: &Spec, words: &[&str]) -> Option<String> {
    let mut want = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            want.push('_');
        }
        for c in w.chars().filter(|c| !matches!(c, '\'' | '\u{2019}')) {
            want.push(if c == '-' { '_' } else { c.to_ascii_lowercase() });
        }
    }
    spec.cards.iter().find(|c| c.name.eq_ignore_ascii_case(&want)).map(|c| c.name.clone())
}

pub fn type_name(t: ArgType) -> &'static str {
    match t {
        ArgType::Intersection => "intersection",
        ArgType::Path => "path",
        ArgType::Hex => "hex",
        ArgType::Player => "player",
        ArgType::Resource => "resource",
        ArgType::Cards => "cards",
        ArgType::Int => "int",
        ArgType::Word => "word",
        ArgType::Slot => "slot",
    }
}

/// Where a `<word>` starting at `i` ends: before the next literal of the syntax (or the
/// end), less one word for each argument between; one word when a list of cards follows
/// (its length is not known), when the literal is missing or when the words run short.
fn word_end(rest: &[SyntaxPart], words: &[&str], i: usize) -> usize {
    let mut args = 0;
    let mut limit = words.len();
    for p in rest {
        match p {
            SyntaxPart::Arg(ArgType::Cards) => return (i + 1).min(words.len()),
            SyntaxPart::Arg(_) => args += 1,
            SyntaxPart::Literal(lit) => match words[i..].iter().position(|w| w.eq_ignore_ascii_case(lit)) {
                Some(at) => {
                    limit = i + at;
                    break;
                }
                // The literal is missing: one word, and the error says what is expected.
                None => return (i + 1).min(words.len()),
            },
        }
    }
    let end = limit.saturating_sub(args);
    if end <= i {
        (i + 1).min(words.len())
    } else {
        end
    }
}

impl Action {
    /// Parses a command line against the actions the variant declares: the first action
    /// whose syntax fits wins; if none fits, the error of the closest one is returned.
    pub fn parse(spec: &Spec, state: &GameState, line: &str) -> Result<Action, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else {
            return err("empty command");
        };
        let mut best: Option<(usize, ParseError)> = None;
        for a in &spec.actions {
            if !matches!(a.syntax.first(), Some(SyntaxPart::Literal(l)) if l.eq_ignore_ascii_case(first)) {
                continue;
            }
            match Self::parse_with(a, spec, state, &words) {
                Ok(action) => return Ok(action),
                Err((depth, e)) => {
                    if best.as_ref().is_none_or(|(d, _)| depth > *d) {
                        best = Some((depth, ParseError(format!("{} (usage: {})", e.0, a.template()))));
                    }
                }
            }
        }
        Err(best.map(|b| b.1).unwrap_or_else(|| ParseError(format!("{UNKNOWN_COMMAND}'{first}'"))))
    }

    /// Matches the words against one syntax; on failure, says how many words matched.
    fn parse_with(
        a: &ActionSpec,
        spec: &Spec,
        state: &GameState,
        words: &[&str],
    ) -> Result<Action, (usize, ParseError)> {
        let mut args = vec![];
        let mut i = 0;
        let parts = &a.syntax;
        for (pi, part) in parts.iter().enumerate() {
            match part {
                SyntaxPart::Literal(lit) => {
                    if words.get(i).map(|w| w.eq_ignore_ascii_case(lit)) != Some(true) {
                        return Err((i, ParseError(format!("expected '{lit}'"))));
                    }
                    i += 1;
                }
                SyntaxPart::Arg(t) => {
                    // An argument takes one word, except a list of cards, which takes the
                    // words up to the next literal of the syntax.
                    let next_lit = parts[pi + 1..].iter().find_map(|p| match p {
                        SyntaxPart::Literal(l) => Some(l.as_str()),
                        _ => None,
                    });
                    let end = match (t, next_lit) {
                        (ArgType::Cards, Some(lit)) => words[i..]
                            .iter()
                            .position(|w| w.eq_ignore_ascii_case(lit))
                            .map(|p| i + p)
                            .unwrap_or(words.len()),
                        (ArgType::Cards, None) => words.len(),
                        // A word takes the words up to the next literal less one for each
                        // argument before it, so that a card's name may have spaces.
                        (ArgType::Word, _) => word_end(&parts[pi + 1..], words, i),
                        _ => (i + 1).min(words.len()),
                    };
                    args.push(parse_arg(spec, state, *t, &words[i..end]).map_err(|e| (i + 1, e))?);
                    i = end;
                }
            }
        }
        if i < words.len() {
            return Err((i, ParseError(format!("unexpected '{}'", words[i..].join(" ")))));
        }
        Ok(Action { name: a.name.clone(), args })
    }

    /// The text a player would type for this action.
    pub fn to_text(&self, spec: &Spec, state: &GameState) -> String {
        let Some(a) = spec.action(&self.name) else {
            return self.name.clone();
        };
        // The syntax's words and the arguments' texts, the empty ones left out, joined by
        // spaces: each written straight into one string (every action's log entry has one).
        let mut out = String::with_capacity(32);
        let mut args = self.args.iter();
        for part in &a.syntax {
            let start = out.len();
            if start > 0 {
                out.push(' ');
            }
            let text = out.len();
            match part {
                SyntaxPart::Literal(l) => out.push_str(l),
                SyntaxPart::Arg(_) => {
                    if let Some(arg) = args.next() {
                        push_arg_text(&mut out, arg, state);
                    }
                }
            }
            if out.len() == text {
                out.truncate(start);
            }
        }
        out
    }
}

pub fn arg_text(arg: &Arg, state: &GameState) -> String {
    let mut out = String::new();
    push_arg_text(&mut out, arg, state);
    out
}

/// `arg_text`, appended to `out`.
fn push_arg_text(out: &mut String, arg: &Arg, state: &GameState) {
    use std::fmt::Write;
    let topo = state.topology.as_deref();
    match arg {
        Arg::Intersection(n) => match topo.and_then(|t| t.intersections.get(*n)) {
            Some(i) => out.push_str(&i.label),
            None => {
                let _ = write!(out, "{}", n + 1);
            }
        },
        Arg::Path(n) => out.push_str(topo.and_then(|t| t.paths.get(*n)).map_or("", |p| p.label.as_str())),
        Arg::Hex(n) => out.push_str(topo.and_then(|t| t.hexes.get(*n)).map_or("", |h| h.label.as_str())),
        Arg::Player(p) => {
            if let Some(p) = state.players.get(*p) {
                let _ = write!(out, "{}", p.color);
            }
        }
        Arg::Resource(s) | Arg::Word(s) | Arg::Slot(s) => out.push_str(s),
        Arg::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Arg::Cards(cards) => push_cards(out, cards.iter().map(|(k, n)| (k.as_str(), i64::from(*n)))),
    }
}

/// Cards as a command names them: "4 ore brick" (one card by its kind alone).
pub fn cards_text(cards: &[(String, u32)]) -> String {
    let mut out = String::new();
    push_cards(&mut out, cards.iter().map(|(k, n)| (k.as_str(), i64::from(*n))));
    out
}

/// The one writer of cards in text, for actions and the log's `%c` alike: "4 ore", one card
/// by its kind alone, joined by spaces; "nothing" for none.
pub fn push_cards<'a>(out: &mut String, cards: impl IntoIterator<Item = (&'a str, i64)>) {
    let mut none = true;
    for (kind, n) in cards {
        if !none {
            out.push(' ');
        }
        none = false;
        if n != 1 {
            push_int(out, n);
            out.push(' ');
        }
        out.push_str(kind);
    }
    if none {
        out.push_str("nothing");
    }
}

/// An integer in decimal, as `{n}` writes it, without the formatting machinery (most
/// logged messages carry a number: a roll, an intersection).
pub fn push_int(out: &mut String, n: i64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut v = n.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    for &d in &digits[at..] {
        out.push(d as char);
    }
}
