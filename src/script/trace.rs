//! What `trace` shows: the hooks and the parts of an action that ran, in order, as the
//! prelude noted them (`engine.trace_start`/`trace_take`), and the lines rules printed
//! with `g:debug` (`engine.debug_take`). Neither touches the game: a trace is taken on a
//! copy, and debug lines never enter the log, the state or a replay.

use mlua::{Function, Lua, Table};
use serde::Serialize;

/// One hook or part of an action that ran.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEntry {
    /// "filter", "sequence", "event", "action" (its `phases`, `when`, `legal`, `apply`)
    /// or "debug" (a `g:debug` line).
    pub kind: String,
    /// The filter, sequence or event point, or the action's name.
    pub point: String,
    /// The hook's name, or the action's part.
    pub name: String,
    /// "file:line" of the hook's function (of the `g:debug` call).
    pub at: String,
    /// What it was given, short (a filter: the value, then the arguments).
    pub given: String,
    /// What it answered (a filter's value, `when`'s and `legal`'s answer), if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
    /// How deep in other rules it ran: 1 for the action or hook the engine called.
    pub depth: u32,
    /// The count of each kind of card in the game when it began and when it returned
    /// (`GameState::card_totals`, joined by commas), to find the rule that created or
    /// lost a card (`catan check`).
    #[serde(skip)]
    pub cards_before: String,
    #[serde(skip)]
    pub cards_after: Option<String>,
}

/// `card_stamp()`, for the prelude's tracing only: the game's card totals as one text.
pub(super) fn card_stamp_fn(lua: &Lua) -> mlua::Result<Function> {
    lua.create_function(|lua, ()| {
        let Ok(c) = super::api::ctx(lua) else { return Ok(String::new()) };
        let totals = c.state.card_totals(c.spec.cards.len());
        Ok(totals.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(","))
    })
}

/// The innermost traced rule during which the game's cards changed (one created or lost,
/// or turned into another kind) and none of the rules it ran did: the one whose own code
/// made the change.
pub fn changed_cards(entries: &[TraceEntry]) -> Option<&TraceEntry> {
    let changed = |e: &TraceEntry| e.cards_after.as_ref().is_some_and(|a| *a != e.cards_before);
    entries.iter().enumerate().filter(|(_, e)| changed(e)).find_map(|(i, e)| {
        let inner = entries[i + 1..].iter().take_while(|x| x.depth > e.depth);
        (!inner.clone().any(changed)).then_some(e)
    })
}

impl TraceEntry {
    pub(super) fn from_lua(t: &Table) -> mlua::Result<TraceEntry> {
        Ok(TraceEntry {
            kind: t.get("kind")?,
            point: t.get("point")?,
            name: t.get("name")?,
            at: t.get("at")?,
            given: t.get::<Option<String>>("given")?.unwrap_or_default(),
            out: t.get("out")?,
            depth: t.get::<Option<u32>>("depth")?.unwrap_or(0),
            cards_before: t.get::<Option<String>>("before")?.unwrap_or_default(),
            cards_after: t.get("after")?,
        })
    }

    /// The entry as a line of `trace`, indented by its depth.
    pub fn text(&self) -> String {
        let indent = "  ".repeat(self.depth.saturating_sub(1) as usize);
        match self.kind.as_str() {
            "debug" => format!("{indent}debug  {}  ({})", self.given, self.at),
            "action" => {
                let out = self.out.as_deref().map(|o| format!(" -> {o}")).unwrap_or_default();
                format!("{indent}action '{}' {}({}){out}  ({})", self.point, self.name, self.given, self.at)
            }
            kind => {
                let out = self.out.as_deref().map(|o| format!(" -> {o}")).unwrap_or_default();
                format!("{indent}{kind} {} '{}' ({}){out}  ({})", self.point, self.name, self.given, self.at)
            }
        }
    }
}
