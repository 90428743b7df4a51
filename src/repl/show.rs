//! What `show` and the status before each prompt print: the players, a hand, the bank,
//! the board, the log.

use super::{seat_name, text, Repl};
use crate::board::render::{render, RenderOptions};
use crate::engine::Observer;
use crate::script::Message;
use crate::view::view;

impl Repl<'_> {
    pub(super) fn players_text(&self) -> String {
        let st = self.game.state().clone();
        let mut out = String::new();
        // A failing points or describe hook is shown, not swallowed.
        let mut errors = vec![];
        // The marker points at whoever is asked to act (a set-up placement, a discard),
        // not only at the seat whose turn it is.
        let acting = self.game.to_act().unwrap_or(st.current);
        for (i, p) in st.players.iter().enumerate() {
            let pts = self.game.points(i, false).map_err(|e| errors.push(format!("points of {}: {e}", p.color)));
            let pts = pts.map_or("?".to_string(), |n| n.to_string());
            let info = self.game.describe(i).map_err(|e| errors.push(format!("describe {}: {e}", p.color))).ok();
            let field = |k: &str| {
                info.as_ref()
                    .and_then(|v| if let crate::value::Value::Map(m) = v { m.get(k).cloned() } else { None })
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            };
            // The variant's describe filter words the line (`summary`) and may mark the
            // seat (`marker`, such as "player 2"); the REPL knows no game's vocabulary.
            let summary = field("summary");
            let marker = field("marker");
            out.push_str(&format!(
                "  {:<7} {:>2} pts  {summary}{}{}{}\n",
                p.color,
                pts,
                if marker.is_empty() { String::new() } else { format!("  ({marker})") },
                if self.is_bot(i) { "  (bot)" } else { "" },
                if acting == i && self.game.winner().is_none() { "  <- turn" } else { "" },
            ));
        }
        for e in errors {
            out.push_str(&format!("  error: {e}\n"));
        }
        out.trim_end().to_string()
    }

    pub(super) fn hand_text(&self, seat: usize) -> String {
        let v = view(&self.game, Observer::Seat(seat));
        let zones = &v["players"][seat]["zones"];
        let mut out = format!("  {}'s cards:", seat_name(&self.game, seat));
        if let Some(obj) = zones.as_object() {
            for (zone, cards) in obj {
                if let Some(c) = cards.as_object() {
                    if c.is_empty() {
                        continue;
                    }
                    let list: Vec<String> = c.iter().map(|(k, n)| format!("{n} {k}")).collect();
                    out.push_str(&format!("\n    {}: {}", self.zone_title(zone), list.join(", ")));
                }
            }
        }
        // What the seat holds besides cards, in the variant's words (`holdings` of its
        // describe filter: Rivals' stored resources).
        if let Ok(crate::value::Value::Map(m)) = self.game.describe(seat) {
            if let Some(crate::value::Value::Str(h)) = m.get("holdings") {
                out.push_str(&format!("\n    {h}"));
            }
        }
        match self.game.points(seat, true) {
            Ok(pts) => out.push_str(&format!("\n    points (with hidden cards): {pts}")),
            Err(e) => out.push_str(&format!("\n    error: cannot count the points: {e}")),
        }
        out
    }

    fn bank_text_zone(cards: &serde_json::Value) -> String {
        match cards.as_object() {
            Some(c) if c.contains_key("top") => match c["top"].as_str() {
                Some(top) => format!("{}, {top} on top", text::count(c["count"].as_u64().unwrap_or(0), "card")),
                None => "empty".to_string(),
            },
            Some(c) if c.contains_key("count") && c.len() == 1 => text::count(c["count"].as_u64().unwrap_or(0), "card"),
            Some(c) => {
                let list: Vec<String> = c.iter().map(|(k, n)| format!("{n} {k}")).collect();
                if list.is_empty() {
                    "empty".to_string()
                } else {
                    list.join(", ")
                }
            }
            None => match cards.as_array() {
                Some(a) if a.is_empty() => "empty".to_string(),
                _ => cards.to_string(),
            },
        }
    }

    /// What players call a zone (its `title`), never the variant's internal name.
    fn zone_title(&self, zone: &str) -> String {
        let spec = self.game.spec();
        spec.zones.iter().find(|z| z.name == zone).map_or_else(|| zone.replace('_', " "), |z| z.title.clone())
    }

    pub(super) fn bank_text(&self) -> String {
        let v = view(&self.game, Observer::Spectator);
        let mut out = String::new();
        if let Some(obj) = v["zones"].as_object() {
            for (zone, cards) in obj {
                out.push_str(&format!("  {}: {}\n", self.zone_title(zone), Self::bank_text_zone(cards)));
            }
        }
        out.trim_end().to_string()
    }

    pub(super) fn board_text(&self) -> String {
        let st = self.game.state().clone();
        // A variant without a hex board but with slot grids (Rivals) draws its grids.
        let board = if st.topology.is_none() && !st.grids.is_empty() {
            crate::slots::render::render(&st, self.game.spec(), self.config.color)
        } else {
            render(&st, self.game.spec(), &RenderOptions { color: self.config.color })
        };
        // The variant's legend of its marks, in its words (a failing filter is shown).
        match self.game.board_legend() {
            Ok(Some(legend)) => format!("{}\n{legend}", board.trim_end()),
            Ok(None) => board,
            Err(e) => format!("{}\n  error: cannot write the legend: {e}", board.trim_end()),
        }
    }

    pub(super) fn log_text(&self, seat: usize, n: usize) -> String {
        let msgs: Vec<&Message> = self
            .game
            .messages()
            .iter()
            .map(|(_, m)| m)
            .filter(|m| m.to.as_ref().is_none_or(|to| to.contains(&seat)))
            .collect();
        let start = msgs.len().saturating_sub(n);
        msgs[start..].iter().map(|m| format!("  {}", m.text)).collect::<Vec<_>>().join("\n")
    }

    /// A short status for the start of a human's decision: the board and the players
    /// when the turn, the seat asked to act or the pieces on the board changed (each
    /// placement of the set-up rounds), then the hand and what is possible.
    pub(super) fn status(&mut self) {
        if self.game.winner().is_some() {
            return;
        }
        let Ok(seat) = self.game.to_act() else { return };
        let now = (self.game.log().len(), seat);
        if self.last_status == Some(now) {
            return;
        }
        self.last_status = Some(now);
        let (key, pieces) = {
            let st = self.game.state();
            ((st.turn, st.current, seat), (st.intersections.clone(), st.paths.clone()))
        };
        if self.last_turn != Some(key) || self.last_board.as_ref() != Some(&pieces) {
            self.last_turn = Some(key);
            self.last_board = Some(pieces);
            let board = self.board_text();
            self.say(&board);
            let t = self.players_text();
            self.say(&t);
        }
        let hand = self.hand_text(seat);
        self.say(&hand);
        let texts = match self.legal_texts() {
            Ok(t) => t,
            Err(e) => {
                self.error(&format!("cannot list {}'s actions: {e}", seat_name(&self.game, seat)));
                return;
            }
        };
        let mut names: Vec<String> =
            texts.iter().map(|t| t.split_whitespace().next().unwrap_or("").to_string()).collect();
        names.sort();
        names.dedup();
        self.say(&format!(
            "  {} to act; possible: {} (type `legal` for details)",
            seat_name(&self.game, seat),
            names.join(", ")
        ));
    }
}
