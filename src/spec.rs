//! `Spec`: the vocabulary a variant stack declares (card kinds, zones, pieces, terrains,
//! colours, options, actions). Fixed once the scripts are loaded; shared by every state.

use crate::value::Value;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct CardKind {
    pub name: String,
    /// A grouping the rules use, e.g. "resource" or "development".
    pub category: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Everyone sees the cards.
    Public,
    /// Everyone sees how many; only the owner sees which.
    Count,
    /// Only the owner sees them; others see how many.
    Owner,
    /// Nobody sees which cards (a draw stack); everyone sees how many.
    Hidden,
    /// Everyone sees how many and the top card of the stack only (a discard pile whose
    /// lower cards may not be looked through).
    Top,
}

#[derive(Debug, Clone, Serialize)]
pub struct ZoneSpec {
    pub name: String,
    pub per_player: bool,
    /// An ordered stack (draw pile) rather than a set of counts.
    pub stack: bool,
    pub visibility: Visibility,
    /// What players call it (`title`; default: the name without underscores).
    pub title: String,
}

/// A grid of card slots (see `crate::slots`): one per player or one for the game.
#[derive(Debug, Clone, Serialize)]
pub struct GridSpec {
    pub name: String,
    pub per_player: bool,
    pub rows: u16,
    pub cols: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SiteKind {
    Intersection,
    Path,
}

#[derive(Debug, Clone, Serialize)]
pub struct PieceKind {
    pub name: String,
    pub site: SiteKind,
    /// How many each player owns.
    pub supply: u8,
    /// Cards of its hex's resource the piece yields when the hex produces (`production`).
    #[serde(skip_serializing_if = "is_zero")]
    pub yields: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Resource production as a variant declares it (`production = { ... }` and each piece's
/// `yields`; docs/modding.md, "Production"), for `g:produce(number)`: each hex of that number
/// whose terrain produces a card yields it to every player's piece on its corners, as many
/// as the piece yields, and nothing under the `blocked_by` marker; the game's zone `from`
/// pays each card kind into the players' zone `to` only if it holds enough for everyone,
/// unless one player alone is owed it and the bool option `shortage_exception` is on: that
/// player then takes what is left.
#[derive(Debug, Clone, Serialize)]
pub struct Production {
    /// Zone indices: the game's zone paid from, the players' zone paid into.
    pub from: usize,
    pub to: usize,
    pub blocked_by: Option<String>,
    pub shortage_exception: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Terrain {
    pub name: String,
    /// The card kind the terrain produces, if any.
    pub produces: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub enum OptionType {
    Bool,
    Int { min: i64, max: i64 },
    Choice(Vec<String>),
    Text,
}

#[derive(Debug, Clone, Serialize)]
pub struct OptionSpec {
    pub name: String,
    pub kind: OptionType,
    pub default: Value,
    pub doc: String,
    /// The variant that declared it.
    pub variant: String,
    /// The player counts it applies to (`players = { min = 5, max = 6 }`), if not all:
    /// `catan variants` leaves it out of a stack that cannot seat them.
    pub players: Option<(usize, usize)>,
}

/// One placeholder of an action's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArgType {
    Intersection,
    Path,
    Hex,
    Player,
    Resource,
    Cards,
    Int,
    Word,
    /// A position of a slot grid, by its label (`K2`).
    Slot,
}

impl ArgType {
    pub fn parse(s: &str) -> Option<ArgType> {
        Some(match s {
            "intersection" => ArgType::Intersection,
            "path" => ArgType::Path,
            "hex" => ArgType::Hex,
            "player" => ArgType::Player,
            "resource" => ArgType::Resource,
            "cards" => ArgType::Cards,
            "int" | "number" => ArgType::Int,
            "word" => ArgType::Word,
            "slot" => ArgType::Slot,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum SyntaxPart {
    Literal(String),
    Arg(ArgType),
}

#[derive(Debug, Clone, Serialize)]
pub struct ActionSpec {
    pub name: String,
    pub syntax: Vec<SyntaxPart>,
    pub help: String,
    /// Whether the variant can list every legal argument (else `legal` shows a template).
    pub enumerable: bool,
    /// For tests and modders (`debug = true`): left out of a player's `help`.
    pub debug: bool,
}

impl ActionSpec {
    /// The words of the syntax before its first argument (`play monopoly`).
    pub fn leading_words(&self) -> String {
        let words: Vec<&str> = self
            .syntax
            .iter()
            .map_while(|p| match p {
                SyntaxPart::Literal(l) => Some(l.as_str()),
                SyntaxPart::Arg(_) => None,
            })
            .collect();
        words.join(" ")
    }
    pub fn arg_types(&self) -> impl Iterator<Item = ArgType> + '_ {
        self.syntax.iter().filter_map(|p| match p {
            SyntaxPart::Arg(t) => Some(*t),
            SyntaxPart::Literal(_) => None,
        })
    }
    pub fn template(&self) -> String {
        self.syntax
            .iter()
            .map(|p| match p {
                SyntaxPart::Literal(s) => s.clone(),
                SyntaxPart::Arg(t) => format!(
                    "<{}>",
                    serde_json::to_value(t).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
                ),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Spec {
    /// The variant stack, base first.
    pub variants: Vec<String>,
    pub description: String,
    pub min_players: usize,
    pub max_players: usize,
    pub default_players: usize,
    pub colors: Vec<String>,
    pub cards: Vec<CardKind>,
    pub zones: Vec<ZoneSpec>,
    pub pieces: Vec<PieceKind>,
    pub terrains: Vec<Terrain>,
    pub grids: Vec<GridSpec>,
    /// Resource production, when the variant declares it (`g:produce`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub production: Option<Production>,
    /// Actions whose arguments are secret (a card put face down): others see only the
    /// command's first words.
    pub secret_actions: Vec<String>,
    /// Actions the REPL does not echo when another seat's bot takes them: others see only
    /// what they log (a step whose outcome the rules tell once, such as Rivals' swaps of
    /// regions before the game).
    pub quiet_actions: Vec<String>,
    pub options: Vec<OptionSpec>,
    pub actions: Vec<ActionSpec>,
    /// What the variant's named features (its `features` filter) mean to a player, by
    /// name (`feature_titles`): `hint` words its reasons with them.
    pub feature_titles: std::collections::BTreeMap<String, String>,
}

impl Spec {
    pub fn card(&self, name: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.name == name)
    }
    pub fn zone(&self, name: &str) -> Option<usize> {
        self.zones.iter().position(|z| z.name == name)
    }
    pub fn piece(&self, name: &str) -> Option<usize> {
        self.pieces.iter().position(|p| p.name == name)
    }
    pub fn grid(&self, name: &str) -> Option<usize> {
        self.grids.iter().position(|g| g.name == name)
    }
    pub fn terrain(&self, name: &str) -> Option<usize> {
        self.terrains.iter().position(|t| t.name == name)
    }
    pub fn action(&self, name: &str) -> Option<&ActionSpec> {
        self.actions.iter().find(|a| a.name == name)
    }
    pub fn is_secret(&self, action: &str) -> bool {
        self.secret_actions.iter().any(|a| a == action)
    }
    pub fn is_quiet(&self, action: &str) -> bool {
        self.quiet_actions.iter().any(|a| a == action)
    }
    pub fn is_resource(&self, name: &str) -> bool {
        self.cards.iter().any(|c| c.name == name && c.category == "resource")
    }
    pub fn resources(&self) -> impl Iterator<Item = &str> {
        self.cards.iter().filter(|c| c.category == "resource").map(|c| c.name.as_str())
    }
}
