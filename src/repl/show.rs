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
            // Victory points as the rulebook abbreviates them: "1 VP", "10 VP".
            let pts = pts.map_or(" ? VP".to_string(), |n| format!("{n:>2} VP"));
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
            // The marker names the seat, so it stands by the name: a line too long for 80
            // columns goes on under the summary, never under a marker cut off from its seat.
            let line = format!(
                "  {:<6} {pts}  {}{summary}{}{}",
                p.color,
                if marker.is_empty() { String::new() } else { format!("({marker})  ") },
                if self.is_bot(i) { " (bot)" } else { "" },
                if acting == i && self.game.winner().is_none() { " <- turn" } else { "" },
            );
            for part in text::wrap_line(&line, text::COLUMNS, 17) {
                out.push_str(&part);
                out.push('\n');
            }
        }
        for e in errors {
            out.push_str(&format!("  error: {e}\n"));
        }
        out.trim_end().to_string()
    }

    /// The summary at the game's end: each seat's points by source (the variant's
    /// `points_by_source`) and every card it held, hidden ones revealed; then what the
    /// variant counted (its `tallies`, such as the dice rolled) as histograms.
    pub(super) fn end_summary(&self) -> String {
        let v = view(&self.game, Observer::Referee);
        let mut out = String::from("the game's end, every card shown:");
        for seat in 0..self.game.header().players {
            let name = seat_name(&self.game, seat);
            let total = self.game.points(seat, true);
            let points = match (&self.game.points_by_source(seat), &total) {
                (Ok(sources), Ok(total)) if !sources.is_empty() => {
                    let mut parts: Vec<String> = sources.iter().map(|(s, n)| format!("{s} {n}")).collect();
                    let other = *total - sources.iter().map(|(_, n)| n).sum::<i64>();
                    if other != 0 {
                        parts.push(format!("other {other}"));
                    }
                    format!("{} = {total}", parts.join(" + "))
                }
                (Ok(_), Ok(total)) => total.to_string(),
                (Err(e), _) | (_, Err(e)) => {
                    out.push_str(&format!("\n  {name}: error: cannot count the points: {e}"));
                    String::new()
                }
            };
            if !points.is_empty() {
                out.push_str(&format!("\n  {name}: {}", text::count_word(&points, "point")));
            }
            let zones = &v["players"][seat]["zones"];
            for (zone, cards) in zones.as_object().into_iter().flatten() {
                let list: Vec<String> = cards
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, n)| format!("{n} {}", k.replace('_', " ")))
                    .collect();
                if !list.is_empty() {
                    let line = format!("    {}: {}", self.zone_title(zone), list.join(", "));
                    out.push('\n');
                    out.push_str(&text::wrap_line(&line, text::COLUMNS, 6).join("\n"));
                }
            }
        }
        match self.game.tallies() {
            Ok(tallies) => {
                for (title, counts) in tallies {
                    out.push_str(&format!("\n  {title}:"));
                    let most = counts.iter().map(|c| c.1).max().unwrap_or(0).max(1);
                    let width = counts.iter().map(|c| c.0.len()).max().unwrap_or(0);
                    for (label, n) in counts {
                        // Bars up to 40 columns, a count of one or more at least one mark.
                        let bar = usize::try_from((n * 40 + most - 1) / most).unwrap_or(0);
                        out.push_str(&format!("\n    {label:>width$} {} {n}", "#".repeat(bar)));
                    }
                }
            }
            Err(e) => out.push_str(&format!("\n  error: the tallies failed: {e}")),
        }
        out
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

    /// The board: compact (within a 24-line terminal for the standard board) unless
    /// `full` (`show board full`, the large drawing with the harbors on the map).
    pub(super) fn board_text(&self, full: bool) -> String {
        // A variant without a hex board but with slot grids (Rivals) draws its grids. (The
        // state is read in this block only: the legend below calls into the rules.)
        let board = {
            let st = self.game.state();
            if st.topology.is_none() && !st.grids.is_empty() {
                crate::slots::render::render(&st, self.game.spec(), self.config.color)
            } else {
                render(&st, self.game.spec(), &RenderOptions { color: self.config.color, compact: !full })
            }
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

    /// What the intersection labelled `label` yields, from the board's facts: each
    /// adjacent hex whose terrain produces a card and that has a number, as "ore 8", the
    /// richest first, and the pips in all (the ways two dice roll the numbers). None for a
    /// label of no intersection; "nothing" for a spot that yields nothing.
    pub(super) fn spot_yield(&self, label: &str) -> Option<(String, u32)> {
        let st = self.game.state();
        let topo = st.topology.as_deref()?;
        let Some(crate::board::Label::Intersection(n)) = topo.label(label) else { return None };
        let spec = self.game.spec();
        let mut yields: Vec<(u32, String)> = topo.intersections[n]
            .hexes
            .iter()
            .filter_map(|&h| {
                let hex = st.hexes.get(h)?;
                let card = spec.terrains.get(hex.terrain as usize)?.produces?;
                let number = hex.number?;
                let pips = 6u32.saturating_sub((7 - i32::from(number)).unsigned_abs());
                Some((pips, format!("{} {number}", spec.cards.get(card)?.name)))
            })
            .collect();
        yields.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let pips = yields.iter().map(|y| y.0).sum();
        if yields.is_empty() {
            return Some(("yields nothing".to_string(), 0));
        }
        let list: Vec<String> = yields.into_iter().map(|y| y.1).collect();
        Some((format!("{}: {}", list.join(", "), text::count(u64::from(pips), "pip")), pips))
    }

    /// The yield of the spot a listed action names as its last word (`settlement 20`).
    pub(super) fn spot_note(&self, listed: &str) -> Option<String> {
        if listed.contains(" N for N in: ") {
            return None;
        }
        let last = listed.split_whitespace().nth(1).filter(|_| listed.split_whitespace().count() == 2)?;
        self.spot_yield(last).map(|(t, _)| t)
    }

    /// Under a group of actions on intersections (`settlement N for N in: 1 4 5 ...`), the
    /// richest few spots with what they yield, and where every spot's yield is listed.
    pub(super) fn best_spots(&self, listed: &str) -> Option<String> {
        let (kind, rest) = listed.split_once(" N for N in: ")?;
        let choices = rest.rsplit_once(" (").map_or(rest, |(c, _)| c);
        let mut spots: Vec<(u32, String)> = choices
            .split_whitespace()
            .map(|label| self.spot_yield(label).map(|(t, pips)| (pips, format!("{label} ({t})"))))
            .collect::<Option<_>>()?;
        spots.sort_by_key(|s| std::cmp::Reverse(s.0));
        let best: Vec<String> = spots.into_iter().take(4).map(|s| s.1).collect();
        let line = format!("    the most pips: {}; `legal {kind}` shows each spot's yield", best.join(", "));
        Some(text::wrap_line(&line, text::COLUMNS, 6).join("\n"))
    }

    /// A short status for the start of a human's decision: the board and the players
    /// when the turn, the seat asked to act or the pieces on the board changed (each
    /// placement of the set-up rounds), then the hand and what is possible. The board is
    /// drawn only when it fits the terminal with the rest of the status and the prompt
    /// (`terminal_rows`), so that it never pushes the log off the screen; else a line
    /// says that `show board` draws it.
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
        let changed = self.last_turn != Some(key) || self.last_board.as_ref() != Some(&pieces);
        let hand = self.hand_text(seat);
        let possible = match self.legal_texts() {
            Ok(texts) => {
                let mut names: Vec<String> =
                    texts.iter().map(|t| t.split_whitespace().next().unwrap_or("").to_string()).collect();
                names.sort();
                names.dedup();
                format!(
                    "  {} to act; possible: {} (type `legal` for details)",
                    seat_name(&self.game, seat),
                    names.join(", ")
                )
            }
            Err(e) => format!("error: cannot list {}'s actions: {e}", seat_name(&self.game, seat)),
        };
        if changed {
            self.last_turn = Some(key);
            self.last_board = Some(pieces);
            let board = self.board_text(false);
            let players = self.players_text();
            let lines = |t: &str| t.lines().count();
            // The prompt's line too.
            let needed = lines(&board) + lines(&players) + lines(&hand) + lines(&possible) + 1;
            if self.config.terminal_rows.is_some_and(|rows| needed <= rows) {
                self.say(&board);
            } else {
                self.say("  (the board changed: `show board` draws it)");
            }
            self.say(&players);
        }
        self.say(&hand);
        self.say(&possible);
    }
}
