//! `help`: the commands, an action in full with the variant's note on what it costs now,
//! the rules text of a card; the words of a command that could not be read.

use super::text::{self, closest};
use super::Repl;
use crate::engine::GameError;

const COMMANDS: &[(&str, &str)] = &[
    ("help [COMMAND|CARD]", "this list; one command or action in full; the rules text of a card"),
    (
        "legal [WORDS|--json]",
        "every action you may take now (long lists grouped; WORDS: only those starting so; --json for programs)",
    ),
    (
        "show [board|hand|players|bank|log]",
        "the board (default), your cards (`show cards` too), the players, the bank, the log",
    ),
    ("show board full", "the board drawn large, the harbors on the map"),
    ("show card CARD", "the rules text of a card, if the game gives one"),
    ("state --json", "the whole referee state as JSON (shows every hidden card)"),
    ("view --json", "what the player to act may see, as JSON"),
    ("hint", "what the strongest bot would do in your place, and why"),
    ("offers [on|off]", "whether the bots make trade offers on their turns (they answer yours either way)"),
    ("undo", "take back your last action (and the bots' actions after it)"),
    (
        "reload",
        "for modders: load the rules again from disk and replay this game on them (`catan play --watch` does it when a file changes)",
    ),
    (
        "trace [ACTION] [--json]",
        "for modders: which hooks ran for the last action (or for ACTION, tried on a copy), from which file:line, given what, answering what (as the rules saw it: hidden cards too)",
    ),
    ("save FILE [--force]", "save the game (header and log) as JSON; --force replaces a save with more actions"),
    ("load FILE", "load a saved game, replaying its log (unsaved progress is autosaved first)"),
    ("quit", "leave (unsaved progress is autosaved; `catan play --resume` continues it)"),
];

const SANDBOX_COMMANDS: &[(&str, &str)] = &[
    ("dice A B", "force the next roll"),
    ("give PLAYER CARDS", "give cards from the bank"),
    ("place PIECE LABEL PLAYER", "put a piece on the board"),
];

impl Repl<'_> {
    /// An action's help with the variant's note for the seat to act (what it costs now,
    /// after every house rule), and an error if the note failed.
    fn action_help(&self, a: &crate::spec::ActionSpec) -> String {
        let seat = self.game.to_act().unwrap_or(0);
        match self.game.action_note(seat, &a.name) {
            Ok(Some(note)) => format!("{} ({note})", a.help),
            Ok(None) => a.help.clone(),
            Err(e) => format!("{} (error: {e})", a.help),
        }
    }

    /// The actions a player is shown: test-only ones (`debug = true`) only with --debug,
    /// and none this game can never offer under its players and options (the variant's
    /// `available`; all of them if that question fails).
    fn shown_actions(&self) -> Vec<crate::spec::ActionSpec> {
        let never = self.game.unavailable_actions().unwrap_or_default();
        self.game
            .spec()
            .actions
            .iter()
            .filter(|a| (!a.debug || self.config.debug) && !never.contains(&a.name))
            .cloned()
            .collect()
    }

    pub(super) fn help_text(&self) -> String {
        let mut out = String::from("commands:\n");
        for (c, d) in COMMANDS {
            out.push_str(&format!("  {c:<36} {d}\n"));
        }
        if self.game.header().sandbox {
            out.push_str("sandbox commands (logged):\n");
            for (c, d) in SANDBOX_COMMANDS {
                out.push_str(&format!("  {c:<36} {d}\n"));
            }
        }
        out.push_str("actions of this game:\n");
        for a in self.shown_actions() {
            out.push_str(&format!("  {:<36} {}\n", a.template(), self.action_help(&a)));
        }
        if self.game.state().grids.is_empty() {
            out.push_str("labels: hexes H1.., intersections 1.., paths by their ends (12-13); cards as `2 ore brick`");
        } else {
            out.push_str("labels: slots by column letter and row number (K2), as `show board` prints them");
        }
        out
    }

    /// `help WORD...`: the commands and actions that start with those words, in full; else
    /// the rules text of a card of that name; else the closest names.
    pub(super) fn help_topic(&self, words: &[&str]) -> Result<String, String> {
        let want = words.join(" ").to_ascii_lowercase();
        let mut out = vec![];
        let starts = |template: &str| {
            let t = template.to_ascii_lowercase();
            t == want || t.starts_with(&format!("{want} "))
        };
        let mut commands: Vec<(&str, &str)> = COMMANDS.to_vec();
        if self.game.header().sandbox {
            commands.extend_from_slice(SANDBOX_COMMANDS);
        }
        for (c, d) in commands {
            if c.split(" / ").any(starts) {
                out.push(format!("{c}\n  {d}"));
            }
        }
        for a in self.shown_actions() {
            let template = a.template();
            if starts(&template) {
                out.push(format!("{template}\n  {}", self.action_help(&a)));
            }
        }
        // The card too: `help knight`, `help play monopoly`, `help year of plenty`.
        let mut kinds = vec![want.replace(' ', "_")];
        kinds.extend(words.last().filter(|_| words.len() > 1).map(|w| w.to_ascii_lowercase()));
        if let Some(t) = kinds.iter().find_map(|k| self.game.card_text(k).ok().flatten()) {
            out.push(t);
        }
        if !out.is_empty() {
            return Ok(out.join("\n"));
        }
        if let Err(e) = self.game.card_text(&want) {
            return Err(e.to_string());
        }
        // The cards of this game: those the loaded stack gives a text (a parent's card
        // the edition does not use, such as base's Knight in Classic, has none).
        let mut names = self.command_names();
        names.extend(
            self.game
                .spec()
                .cards
                .iter()
                .filter(|c| self.game.card_text(&c.name).ok().flatten().is_some())
                .map(|c| c.name.clone()),
        );
        Err(match closest(&want, &names) {
            Some(near) => format!("no command, action or card '{want}'; did you mean `help {near}`?"),
            None => format!("no command, action or card '{want}' (type `help` for the list)"),
        })
    }

    /// Every command word and action's leading words a player may type.
    pub(super) fn command_names(&self) -> Vec<String> {
        let mut names: Vec<String> =
            COMMANDS.iter().map(|(c, _)| c.split_whitespace().next().unwrap_or("").to_string()).collect();
        names.extend(
            ["show board", "show hand", "show cards", "show players", "show bank", "show log"].map(String::from),
        );
        if self.game.header().sandbox {
            names.extend(["dice", "give", "place"].map(String::from));
        }
        names.extend(self.shown_actions().iter().map(|a| a.leading_words()));
        names.sort();
        names.dedup();
        names
    }

    /// The text of an error (`msg`), with the closest command when the first words of a
    /// line that did not parse were mistyped.
    pub(super) fn parse_error_text(&self, line: &str, e: &GameError, msg: String) -> String {
        let msg = match e {
            GameError::Parse(p) if p.is_unknown_command() => format!("{msg} (type `help` or `legal`)"),
            GameError::Parse(_) => msg,
            _ => return msg,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let names = self.command_names();
        // Each name against as many leading words as it has; a name typed right means the
        // arguments are wrong, and the parse error already says how.
        let mut typed_right = false;
        let mut near: Option<(usize, &String)> = None;
        for n in &names {
            let k = n.split_whitespace().count().min(words.len());
            let typed = words[..k].join(" ").to_ascii_lowercase();
            if typed == *n {
                typed_right = true;
            }
            let d = text::distance(&typed, n);
            if d <= (n.len() / 3).max(1) && near.is_none_or(|(best, _)| d < best) {
                near = Some((d, n));
            }
        }
        match near {
            Some((_, n)) if !typed_right => format!("{msg}; did you mean `{n}`?"),
            _ => msg,
        }
    }

    /// The variant's note for each kind of action the seat may take, by its leading
    /// words (`road`, `build city`).
    pub(super) fn notes(&self, seat: usize) -> std::collections::BTreeMap<String, String> {
        let mut out = std::collections::BTreeMap::new();
        for a in self.shown_actions() {
            if let Ok(Some(note)) = self.game.action_note(seat, &a.name) {
                out.entry(a.leading_words()).or_insert(note);
            }
        }
        out
    }
}
