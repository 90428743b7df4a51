//! Sandbox edits (`catan play --sandbox`): dice forced, cards given, pieces placed,
//! logged like actions so that a save replays them.

use super::{Game, GameError, LogEntry, Outcome};
use crate::board::Label;
use crate::script::Message;
use crate::spec::SiteKind;
use crate::state::{GameState, Piece};

impl Game {
    /// Runs a sandbox edit ("dice 3 4", "give red 2 ore", "place city 12 red"), logged
    /// like any action.
    pub fn sandbox(&mut self, seat: usize, line: &str) -> Result<Outcome, GameError> {
        if !self.header.sandbox {
            return Err(GameError::Sandbox("sandbox commands need `catan play --sandbox`".into()));
        }
        self.seat_exists(seat)?;
        let snapshot = self.state().clone();
        let result = self.sandbox_edit(line);
        self.next.set(None);
        // The edit is no action the rules can perform again: the next action copies.
        self.checkpoint = None;
        match result {
            Ok(text) => {
                self.log.push(LogEntry { seat, command: line.trim().to_string(), draws: vec![], sandbox: true });
                let msg = Message { text: format!("(sandbox) {text}"), to: None };
                self.record(self.log.len(), vec![msg.clone()]);
                Ok(Outcome { messages: vec![msg], events: vec![] })
            }
            Err(e) => {
                self.script().with_ctx(|c| c.state = snapshot);
                Err(GameError::Sandbox(e))
            }
        }
    }

    fn sandbox_edit(&mut self, line: &str) -> Result<String, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let spec = self.script().spec.clone();
        let player = |st: &GameState, w: &str| -> Result<usize, String> {
            st.players
                .iter()
                .position(|p| p.color.eq_ignore_ascii_case(w) || p.name.eq_ignore_ascii_case(w))
                .or_else(|| w.parse::<usize>().ok().filter(|n| *n >= 1 && *n <= st.players.len()).map(|n| n - 1))
                .ok_or_else(|| format!("'{w}' is not a player"))
        };
        match words.as_slice() {
            ["dice", a, b] => {
                let a: u8 = a.parse().map_err(|_| "dice are 1 to 6".to_string())?;
                let b: u8 = b.parse().map_err(|_| "dice are 1 to 6".to_string())?;
                if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
                    return Err("dice are 1 to 6".into());
                }
                self.script().with_ctx(|c| c.state.forced_dice.extend([a, b]));
                Ok(format!("the next roll will be {a} and {b}"))
            }
            ["give", who, cards @ ..] => {
                let (p, color) = {
                    let st = self.state();
                    let p = player(&st, who)?;
                    (p, st.players[p].color.clone())
                };
                let cards = crate::action::parse_cards_words(&spec, cards).map_err(|e| e.0)?;
                let bank =
                    spec.zone("bank").filter(|&z| !spec.zones[z].per_player).ok_or("this variant has no bank")?;
                let hand = spec.zone("hand").filter(|&z| spec.zones[z].per_player).ok_or("this variant has no hand")?;
                self.script().with_ctx(|c| -> Result<(), String> {
                    for (kind, n) in &cards {
                        let k = spec.card(kind).ok_or("unknown card")?;
                        let have = c.state.zones[bank].count(k);
                        if !c.state.zones[bank].remove(k, *n as usize) {
                            return Err(format!("the bank has only {have} {kind}"));
                        }
                        c.state.players[p].zones[hand].add(k, *n as usize).map_err(|e| e.to_string())?;
                    }
                    Ok(())
                })?;
                Ok(format!("{color} receives {}", crate::action::cards_text(&cards)))
            }
            ["place", piece, label, who] => {
                let (p, color, topo) = {
                    let st = self.state();
                    let p = player(&st, who)?;
                    (p, st.players[p].color.clone(), st.topology.clone().ok_or("no board yet")?)
                };
                let k = spec.piece(piece).ok_or_else(|| format!("'{piece}' is not a piece"))?;
                let site = match (topo.label(label), spec.pieces[k].site) {
                    (Some(Label::Intersection(n)), SiteKind::Intersection) => n,
                    (Some(Label::Path(n)), SiteKind::Path) => n,
                    _ => return Err(format!("'{label}' is not a place for a {piece}")),
                };
                self.script().with_ctx(|c| -> Result<(), String> {
                    if c.state.players[p].supply[k] == 0 {
                        return Err(format!("no {piece} left in {}'s supply", c.state.players[p].color));
                    }
                    let slot = match spec.pieces[k].site {
                        SiteKind::Intersection => &mut c.state.intersections[site],
                        SiteKind::Path => &mut c.state.paths[site],
                    };
                    if let Some(old) = slot.take() {
                        if let Some(s) = old.seat() {
                            c.state.players[s].supply[old.kind as usize] += 1;
                        }
                    }
                    *slot = Some(Piece { kind: k as u8, owner: p as u8 });
                    c.state.players[p].supply[k] -= 1;
                    Ok(())
                })?;
                Ok(format!("{piece} of {color} placed on {label}"))
            }
            _ => Err("sandbox commands: dice A B | give PLAYER CARDS | place PIECE LABEL PLAYER".into()),
        }
    }
}
