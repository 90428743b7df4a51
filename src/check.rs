//! `catan check`: everything that can be learnt about a variant stack without a person at
//! the table. It loads the stack, validates its declarations and the options asked for,
//! runs the lints (`lint.rs`), then plays seeded random-bot games with the engine's
//! invariants checked after every action: cards conserved, pieces within their supply, no
//! script error, every game ending, and the same seed giving the same game twice. Every
//! finding is `file:line: message`.

use crate::bot::{BotKind, Budget};
use crate::engine::{Game, GameError, Header};
use crate::lint::{lint, Finding};
use crate::script::{find_variant, resolve_options, Script};
use crate::spec::{OptionType, Spec};
use crate::state::GameState;

/// How thoroughly to check.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Games to play (0: load and lint only).
    pub games: usize,
    /// Game `i` is played with seed `seed + i`.
    pub seed: u64,
    /// Seats (None: the variant's default).
    pub players: Option<usize>,
    /// Options, as `--option` gives them.
    pub options: Vec<(String, String)>,
    /// A game still running after this many actions is reported as not ending.
    pub max_actions: usize,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { games: 4, seed: 1, players: None, options: vec![], max_actions: crate::sim::MAX_ACTIONS }
    }
}

/// What checking one stack found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    pub stack: Vec<String>,
    /// The files of the stack, in load order.
    pub files: Vec<String>,
    pub games_played: usize,
    pub actions: usize,
    pub findings: Vec<Finding>,
}

/// Checks one variant stack (such as `["base", "./mods/house.lua"]`).
pub fn check(stack: &[String], o: &CheckOptions) -> CheckReport {
    let mut report =
        CheckReport { stack: stack.to_vec(), files: vec![], games_played: 0, actions: 0, findings: vec![] };
    let script = match Script::load(stack) {
        Ok(s) => s,
        Err(e) => {
            // Still lint what can be read: the error may have a cause the lints explain.
            let files: Vec<(String, String)> = stack.iter().filter_map(|n| find_variant(n).ok()).collect();
            let first = files.first().map(|f| f.0.clone()).unwrap_or_else(|| stack.join("+"));
            let mut plain = e.clone();
            plain.location = None;
            report.findings.push(Finding { location: e.location.clone().unwrap_or(first), message: plain.to_string() });
            // The lints say again what the load error said at the same line: keep one.
            let loc = report.findings[0].location.clone();
            report.findings.extend(lint(&files, &[]).into_iter().filter(|f| f.location != loc));
            report.files = files.into_iter().map(|f| f.0).collect();
            return finish(report);
        }
    };
    let files = script.files.clone();
    report.files = files.iter().map(|f| f.0.clone()).collect();
    report.findings.extend(lint(&files, &script.g_methods()));
    let spec = script.spec.clone();
    drop(script);
    report.findings.extend(declarations(&spec, &files));
    let top = files.last().map(|f| format!("{}:1", f.0)).unwrap_or_default();
    if let Err(e) = resolve_options(&spec, &o.options) {
        report.findings.push(Finding { location: top.clone(), message: format!("--option: {e}") });
        return finish(report);
    }
    let players = o.players.unwrap_or(spec.default_players);
    if players < spec.min_players || players > spec.max_players {
        report.findings.push(Finding {
            location: top,
            message: format!(
                "--players {players}: this stack is for {} to {} players",
                spec.min_players, spec.max_players
            ),
        });
        return finish(report);
    }
    for i in 0..o.games {
        let header = Header {
            variants: stack.to_vec(),
            players,
            seed: o.seed.wrapping_add(i as u64),
            options: o.options.clone(),
            sandbox: false,
        };
        let (actions, found) = play_checked(&header, &spec, &files, o.max_actions, i == 0);
        report.games_played += 1;
        report.actions += actions;
        report.findings.extend(found);
    }
    finish(report)
}

fn finish(mut r: CheckReport) -> CheckReport {
    // By file, then line as a number, then message.
    r.findings.sort_by(|a, b| {
        let key = |f: &Finding| {
            let (file, line) = f.location.rsplit_once(':').unwrap_or((&f.location, ""));
            (file.to_string(), line.parse::<usize>().unwrap_or(0), f.message.clone())
        };
        key(a).cmp(&key(b))
    });
    r.findings.dedup();
    r
}

/// The line declaring `name = "x"` last in the stack (the declaration that counts), as
/// "file:line"; the last file's first line when none is found.
fn declared_at(files: &[(String, String)], x: &str) -> String {
    let quoted = [format!("name = \"{x}\""), format!("name = '{x}'")];
    for (chunk, src) in files.iter().rev() {
        if let Some(n) = src.lines().position(|l| quoted.iter().any(|q| l.contains(q.as_str()))) {
            return format!("{chunk}:{}", n + 1);
        }
    }
    files.last().map(|f| format!("{}:1", f.0)).unwrap_or_default()
}

/// What the declarations of a loaded stack must satisfy beyond what loading refuses.
fn declarations(spec: &Spec, files: &[(String, String)]) -> Vec<Finding> {
    let mut out = vec![];
    let top = files.last().map(|f| format!("{}:1", f.0)).unwrap_or_default();
    if spec.default_players < spec.min_players || spec.default_players > spec.max_players {
        out.push(Finding {
            location: top.clone(),
            message: format!(
                "players: the default {} is outside {}..{}",
                spec.default_players, spec.min_players, spec.max_players
            ),
        });
    }
    if spec.colors.len() < spec.max_players {
        out.push(Finding {
            location: top,
            message: format!("{} colours declared for up to {} players", spec.colors.len(), spec.max_players),
        });
    }
    for o in &spec.options {
        if o.doc.trim().is_empty() {
            out.push(Finding {
                location: declared_at(files, &o.name),
                message: format!("option '{}' has no `doc`: `catan variants` shows nothing for it", o.name),
            });
        }
        if let OptionType::Choice(c) = &o.kind {
            if c.len() < 2 {
                out.push(Finding {
                    location: declared_at(files, &o.name),
                    message: format!("option '{}' is a choice of {} value(s)", o.name, c.len()),
                });
            }
        }
    }
    for p in &spec.pieces {
        if p.supply == 0 {
            out.push(Finding {
                location: declared_at(files, &p.name),
                message: format!("piece '{}' has a supply of 0: nobody can place one", p.name),
            });
        }
    }
    for a in &spec.actions {
        if a.help.trim().is_empty() {
            out.push(Finding {
                location: declared_at(files, &a.name),
                message: format!("action '{}' has no `help`: `legal` and `help` show nothing for it", a.name),
            });
        }
    }
    out
}

/// Pieces within supply: each seat's pieces on the board plus those in its supply make the
/// declared supply.
fn pieces_ok(st: &GameState, spec: &Spec) -> Result<(), String> {
    for (seat, p) in st.players.iter().enumerate() {
        for (k, kind) in spec.pieces.iter().enumerate() {
            let on_board = st
                .intersections
                .iter()
                .chain(st.paths.iter())
                .flatten()
                .filter(|pc| pc.kind as usize == k && pc.seat() == Some(seat))
                .count();
            let left = p.supply.get(k).copied().unwrap_or(0) as usize;
            if on_board + left != kind.supply as usize {
                return Err(format!(
                    "seat {} has {on_board} {} on the board and {left} in supply, but owns {} (pieces within supply)",
                    seat + 1,
                    kind.name,
                    kind.supply
                ));
            }
        }
    }
    Ok(())
}

/// "file.lua:12" named in an error's text, if any (the last one: the innermost).
fn location_in(text: &str) -> Option<String> {
    let at = text.rfind(".lua:")?;
    let start = text[..at].rfind([' ', '[', ',', '(']).map_or(0, |i| i + 1);
    let digits: String = text[at + 5..].chars().take_while(|c| c.is_ascii_digit()).collect();
    (!digits.is_empty()).then(|| format!("{}{digits}", &text[start..at + 5]))
}

fn error_finding(e: &GameError, fallback: &str, context: String) -> Finding {
    let (location, text) = match e {
        GameError::Script(se) => {
            let mut plain = se.clone();
            let loc = plain.location.take();
            (loc, plain.to_string())
        }
        other => (location_in(&other.to_string()), other.to_string()),
    };
    Finding { location: location.unwrap_or_else(|| fallback.to_string()), message: format!("{context}: {text}") }
}

/// Plays one game with random bots, checking the invariants after every action; with
/// `twice`, plays it again on a fresh load and compares. Returns the actions played and
/// what was found.
fn play_checked(
    header: &Header,
    spec: &Spec,
    files: &[(String, String)],
    max_actions: usize,
    twice: bool,
) -> (usize, Vec<Finding>) {
    let seed = header.seed;
    let top = files.last().map(|f| format!("{}:1", f.0)).unwrap_or_default();
    let mut game = match Game::new(header.clone()) {
        Ok(g) => g,
        Err(e) => return (0, vec![error_finding(&e, &top, format!("seed {seed}: setting up the game"))]),
    };
    // Every action the bots draw is checked again: a listing that offers what `legal`
    // refuses is one of the mistakes this looks for.
    game.recheck_drawn(true);
    let baseline = game.state().card_totals(spec.cards.len());
    let mut problem: Option<String> = None;
    let mut actions = 0usize;
    let result = crate::sim::play_capped(
        &mut game,
        &vec![BotKind::Random; header.players],
        Budget::default(),
        max_actions,
        |g| {
            actions = g.log().len();
            let st = g.state();
            let now = st.card_totals(spec.cards.len());
            if now != baseline {
                let diffs: Vec<String> = spec
                    .cards
                    .iter()
                    .zip(baseline.iter().zip(&now))
                    .filter(|(_, (a, b))| a != b)
                    .map(|(c, (a, b))| format!("{} {a} -> {b}", c.name))
                    .collect();
                return Err(format!("cards not conserved: {} (a card was created or lost)", diffs.join(", ")));
            }
            pieces_ok(&st, spec)
        },
    );
    let last = game.log().last().map(|l| (l.seat, l.command.clone()));
    let mut out = vec![];
    match result {
        // An invariant broken by the action just logged: the finding points at the
        // action's declaration (the hooks it ran are among the suspects).
        Err(GameError::Setup(e)) if e.starts_with("cards not conserved") || e.ends_with("(pieces within supply)") => {
            problem = Some(e.clone());
            // The rule that made the change, found by tracing the action again: a mod's
            // hook that created a card is named there, not the base action that ran it.
            let culprit = if e.starts_with("cards not conserved") {
                game.trace_last().ok().flatten().and_then(|t| {
                    crate::script::changed_cards(&t.entries).map(|h| {
                        let what = match h.kind.as_str() {
                            "action" => format!("action '{}' ({})", h.point, h.name),
                            kind => format!("{kind} hook '{}' on '{}'", h.name, h.point),
                        };
                        (h.at.clone(), what)
                    })
                })
            } else {
                None
            };
            if let (Some((at, hook)), Some((seat, cmd))) = (culprit, &last) {
                out.push(Finding {
                    location: at,
                    message: format!(
                        "seed {seed}, in action {} ('{cmd}' by seat {}): {e}, by the {hook} defined here",
                        game.log().len(),
                        seat + 1
                    ),
                });
                return (actions, out);
            }
            let (at, what) = match &last {
                Some((seat, cmd)) => (
                    declared_at(files, cmd.split_whitespace().next().unwrap_or("")),
                    format!(
                        "action {} ('{cmd}' by seat {}, declared here, or a hook it ran)",
                        game.log().len(),
                        seat + 1
                    ),
                ),
                None => (top.clone(), "the set-up".to_string()),
            };
            out.push(Finding { location: at, message: format!("seed {seed}, after {what}: {e}") });
        }
        Err(e) => {
            problem = Some(e.to_string());
            let context = format!("seed {seed}, after {} actions", game.log().len());
            out.push(error_finding(&e, &top, context));
        }
        Ok(r) if r.winner.is_none() => out.push(Finding {
            location: top.clone(),
            message: format!(
                "seed {seed}: no winner after {} actions (turn {}, phase '{}'): the game does not end (the action cap)",
                r.actions,
                r.turns,
                game.state().phase
            ),
        }),
        Ok(_) => {}
    }
    if twice && problem.is_none() {
        if let Ok(mut again) = Game::new(header.clone()) {
            let players = header.players;
            let _ = crate::sim::play_capped(
                &mut again,
                &vec![BotKind::Random; players],
                Budget::default(),
                max_actions,
                |_| Ok(()),
            );
            let (a, b) = (game.log(), again.log());
            if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
                let show = |l: Option<&crate::engine::LogEntry>| {
                    l.map_or("nothing".to_string(), |l| format!("'{}'", l.command))
                };
                out.push(Finding {
                    location: top,
                    message: format!(
                        "seed {seed}: the same seed gave two different games, from action {} ({} then {}): \
                         something depends on memory layout (a `next` loop? see the lints above)",
                        i + 1,
                        show(a.get(i)),
                        show(b.get(i))
                    ),
                });
            }
        }
    }
    (actions.max(game.log().len()), out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_is_found_in_an_error_text() {
        assert_eq!(location_in("boom (in x) [house, ./mods/house.lua:3]").as_deref(), Some("./mods/house.lua:3"));
        assert_eq!(location_in("no location here"), None);
    }
}
