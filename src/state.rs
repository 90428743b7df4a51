//! `GameState`: every fact of a game in one serializable value. Cloning it is how an
//! action stays all-or-nothing; serializing it is `state --json`.

use crate::action::Action;
use crate::board::{HexId, PathId, Topology};
use crate::slots::SlotGrid;
use crate::spec::{SiteKind, Spec};
use crate::value::Value;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A part of the state shared by its copies until one of them writes to it (copy on
/// write): a copy of the state (a bot's fork, a snapshot, the engine's checkpoint) costs a
/// count per part, and a part is copied by the first write after, in the copy written
/// only. Reads go through `Deref`; writes through `DerefMut` (`Arc::make_mut`). It
/// serializes, compares and prints as the value it holds, so the state is still one plain
/// value (`state --json` and saves are what they were).
#[derive(Default)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Arc::new(value))
    }
}

impl<T: Clone> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(self.0.clone())
    }
    /// Copies into this part's own buffers when no other copy holds it, else shares
    /// `source`. The engine's checkpoint is written over so every few actions: it then
    /// allocates nothing, and leaves the game's state holding parts of its own, which its
    /// next writes need not copy.
    fn clone_from(&mut self, source: &Shared<T>) {
        if Arc::ptr_eq(&self.0, &source.0) {
            return;
        }
        match Arc::get_mut(&mut self.0) {
            Some(mine) => mine.clone_from(&source.0),
            None => self.0 = source.0.clone(),
        }
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

// `for x in &state.markers` reads the part as `for x in &map` would.
impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&*self.0).into_iter()
    }
}

impl<T> std::borrow::Borrow<T> for Shared<T> {
    fn borrow(&self) -> &T {
        &self.0
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Shared<T> {
        Shared::new(value)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        // Copies that nobody wrote to since they were made hold the same part.
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: std::fmt::Display> std::fmt::Display for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

// A seat's name and color compare with text as the strings they are.
impl PartialEq<str> for Shared<String> {
    fn eq(&self, other: &str) -> bool {
        *self.0 == other
    }
}

impl PartialEq<&str> for Shared<String> {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == *other
    }
}

impl From<&str> for Shared<String> {
    fn from(s: &str) -> Shared<String> {
        Shared::new(s.to_string())
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shared<T>, D::Error> {
        T::deserialize(d).map(Shared::new)
    }
}

/// A piece on the board: a kind (index into `Spec::pieces`) and its owner (seat index, or
/// `Piece::NO_OWNER` for a piece of no player, such as the 5-6 player game's blockers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub kind: u8,
    pub owner: u8,
}

impl Piece {
    pub const NO_OWNER: u8 = u8::MAX;

    /// The owning seat, `None` for a piece of no player.
    pub fn seat(&self) -> Option<usize> {
        (self.owner != Self::NO_OWNER).then_some(self.owner as usize)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexState {
    /// Index into `Spec::terrains`.
    pub terrain: u8,
    pub number: Option<u8>,
}

/// A harbor on a coastal path: both its intersections give access.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Harbor {
    pub path: PathId,
    /// The card kind it trades at a better rate, or None for any kind.
    pub resource: Option<String>,
    pub ratio: u8,
}

/// Cards in a zone: counts per card kind, or an ordered stack (top = last).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Zone {
    Counts(Vec<u16>),
    Stack(Vec<u16>),
}

// The state is cloned before every action (the snapshot an error puts back): `clone_from`
// copies into the buffers a kept snapshot already has instead of allocating new ones.
impl Clone for Zone {
    fn clone(&self) -> Zone {
        match self {
            Zone::Counts(c) => Zone::Counts(c.clone()),
            Zone::Stack(s) => Zone::Stack(s.clone()),
        }
    }
    fn clone_from(&mut self, source: &Zone) {
        match (self, source) {
            (Zone::Counts(a), Zone::Counts(b)) | (Zone::Stack(a), Zone::Stack(b)) => a.clone_from(b),
            (me, _) => *me = source.clone(),
        }
    }
}

/// A zone would hold more than `Zone::MAX` cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoneFull;

impl std::fmt::Display for ZoneFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a zone may hold at most {} cards of a kind (a stack {} in all)", Zone::MAX, Zone::MAX)
    }
}

impl Zone {
    /// The most cards of one kind a counted zone holds, and of all kinds a stack.
    pub const MAX: usize = u16::MAX as usize;

    pub fn total(&self) -> usize {
        match self {
            Zone::Counts(c) => c.iter().map(|&n| n as usize).sum(),
            Zone::Stack(s) => s.len(),
        }
    }
    pub fn count(&self, kind: usize) -> usize {
        match self {
            Zone::Counts(c) => c.get(kind).copied().unwrap_or(0) as usize,
            Zone::Stack(s) => s.iter().filter(|&&k| k as usize == kind).count(),
        }
    }

    /// Adds `n` cards of `kind` (on top, for a stack). Refused, adding nothing, past
    /// `Zone::MAX` cards of a kind (counts) or in all (stacks): counts never wrap.
    pub fn add(&mut self, kind: usize, n: usize) -> Result<(), ZoneFull> {
        match self {
            Zone::Counts(c) => {
                let slot = c.get_mut(kind).ok_or(ZoneFull)?;
                *slot = u16::try_from(*slot as usize + n).map_err(|_| ZoneFull)?;
            }
            Zone::Stack(s) => {
                if s.len() + n > Self::MAX {
                    return Err(ZoneFull);
                }
                s.extend(std::iter::repeat_n(kind as u16, n))
            }
        }
        Ok(())
    }

    /// Removes `n` cards of `kind` (the topmost of that kind, for a stack). Returns false,
    /// removing nothing, when the zone holds fewer.
    pub fn remove(&mut self, kind: usize, n: usize) -> bool {
        if self.count(kind) < n {
            return false;
        }
        match self {
            Zone::Counts(c) => c[kind] -= n as u16,
            Zone::Stack(s) => {
                for _ in 0..n {
                    if let Some(i) = s.iter().rposition(|&x| x as usize == kind) {
                        s.remove(i);
                    }
                }
            }
        }
        true
    }
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Shared as the state's parts are: a copy of a seat that an action or a deal writes
    /// to copies its cards, not its name and color, which hardly ever change.
    pub name: Shared<String>,
    pub color: Shared<String>,
    /// Indexed like `Spec::zones`; game-wide zones are left empty here.
    pub zones: Vec<Shared<Zone>>,
    /// Pieces not yet on the board, indexed like `Spec::pieces`.
    pub supply: Shared<Vec<u8>>,
    pub vars: Shared<BTreeMap<String, Value>>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct GameState {
    pub topology: Option<Arc<Topology>>,
    pub hexes: Shared<Vec<HexState>>,
    /// Shared between the snapshots of a game (set once, when the board is built).
    pub harbors: Arc<Vec<Harbor>>,
    /// Named markers standing on hexes, e.g. the robber.
    pub markers: Shared<BTreeMap<String, HexId>>,
    pub intersections: Shared<Vec<Option<Piece>>>,
    pub paths: Shared<Vec<Option<Piece>>>,
    /// Game-wide zones (bank, decks), indexed like `Spec::zones`.
    pub zones: Vec<Shared<Zone>>,
    pub players: Vec<Shared<PlayerState>>,
    /// Seat whose turn it is (0-based).
    pub current: usize,
    pub phase: String,
    pub turn: u32,
    /// Fixed for the game, so shared between its snapshots.
    pub options: Arc<BTreeMap<String, Value>>,
    pub vars: Shared<BTreeMap<String, Value>>,
    pub winner: Option<usize>,
    pub rng: ChaCha8Rng,
    /// Dice forced in sandbox mode, used by the next rolls in order.
    pub forced_dice: Vec<u8>,
    /// Slot grids (card tableaus such as Rivals principalities), in `Spec::grids` order,
    /// a per-player grid once per seat.
    #[serde(default)]
    pub grids: Vec<Shared<SlotGrid>>,
    /// The actions the rules cannot list (templates, such as a trade offer or a counter)
    /// taken in this turn: a bot's limit on its offers per turn is the game's, so it holds
    /// after a load, a resume or an undo. Written by the engine, never read by the rules.
    /// Shared as the parts above are: a bot's copies of a position, many a decision,
    /// copied its actions (their names and arguments) each time.
    #[serde(default)]
    pub unlisted: Shared<UnlistedThisTurn>,
    /// Bytes held by `vars` and the players' vars (`Value::size`), kept by `g:set` and
    /// `g:pset` to enforce `VARS_CAP`; derived, so not saved or compared.
    #[serde(skip)]
    pub var_bytes: usize,
}

/// The actions the rules cannot list taken in one turn, each with its seat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnlistedThisTurn {
    pub turn: u32,
    pub taken: Vec<(usize, Action)>,
}

impl UnlistedThisTurn {
    /// Notes `action`, taken by `seat` in `turn` (the list of an earlier turn emptied).
    pub fn note(&mut self, turn: u32, seat: usize, action: &Action) {
        if self.turn != turn {
            self.turn = turn;
            self.taken.clear();
        }
        self.taken.push((seat, action.clone()));
    }

    /// What `seat` took in `turn`.
    pub fn by(&self, turn: u32, seat: usize) -> impl Iterator<Item = &Action> {
        self.taken.iter().filter(move |(s, _)| self.turn == turn && *s == seat).map(|(_, a)| a)
    }
}

impl Clone for PlayerState {
    fn clone(&self) -> PlayerState {
        PlayerState {
            name: self.name.clone(),
            color: self.color.clone(),
            zones: self.zones.clone(),
            supply: self.supply.clone(),
            vars: self.vars.clone(),
        }
    }
    fn clone_from(&mut self, source: &PlayerState) {
        // Every field by name: a field added later fails to compile here until copied.
        let PlayerState { name, color, zones, supply, vars } = source;
        self.name.clone_from(name);
        self.color.clone_from(color);
        self.zones.clone_from(zones);
        self.supply.clone_from(supply);
        if self.vars != *vars {
            self.vars.clone_from(vars);
        }
    }
}

impl Clone for GameState {
    fn clone(&self) -> GameState {
        GameState {
            topology: self.topology.clone(),
            hexes: self.hexes.clone(),
            harbors: self.harbors.clone(),
            markers: self.markers.clone(),
            intersections: self.intersections.clone(),
            paths: self.paths.clone(),
            zones: self.zones.clone(),
            players: self.players.clone(),
            current: self.current,
            phase: self.phase.clone(),
            turn: self.turn,
            options: self.options.clone(),
            vars: self.vars.clone(),
            winner: self.winner,
            rng: self.rng.clone(),
            forced_dice: self.forced_dice.clone(),
            grids: self.grids.clone(),
            unlisted: self.unlisted.clone(),
            var_bytes: self.var_bytes,
        }
    }
    /// Copies `source` into this state's buffers (a snapshot kept from the last action
    /// needs no new allocation for most of it).
    fn clone_from(&mut self, source: &GameState) {
        // Every field by name: a field added later fails to compile here until copied.
        let GameState {
            topology,
            hexes,
            harbors,
            markers,
            intersections,
            paths,
            zones,
            players,
            current,
            phase,
            turn,
            options,
            vars,
            winner,
            rng,
            forced_dice,
            grids,
            unlisted,
            var_bytes,
        } = source;
        self.topology.clone_from(topology);
        self.hexes.clone_from(hexes);
        self.harbors.clone_from(harbors);
        if self.markers != *markers {
            self.markers.clone_from(markers);
        }
        self.intersections.clone_from(intersections);
        self.paths.clone_from(paths);
        self.zones.clone_from(zones);
        self.players.clone_from(players);
        self.current = *current;
        self.phase.clone_from(phase);
        self.turn = *turn;
        self.options.clone_from(options);
        // The maps allocate a node per entry when copied; most actions leave them as they
        // were, which comparing finds out without allocating.
        if self.vars != *vars {
            self.vars.clone_from(vars);
        }
        self.winner = *winner;
        self.rng.clone_from(rng);
        self.forced_dice.clone_from(forced_dice);
        self.grids.clone_from(grids);
        if self.unlisted != *unlisted {
            self.unlisted.clone_from(unlisted);
        }
        self.var_bytes = *var_bytes;
    }
}

impl PartialEq for GameState {
    fn eq(&self, other: &Self) -> bool {
        // The board shape is derived from the same script and seed; compare what changes.
        self.hexes == other.hexes
            && self.harbors == other.harbors
            && self.markers == other.markers
            && self.intersections == other.intersections
            && self.paths == other.paths
            && self.zones == other.zones
            && self.players == other.players
            && self.current == other.current
            && self.phase == other.phase
            && self.turn == other.turn
            && self.options == other.options
            && self.vars == other.vars
            && self.winner == other.winner
            && self.rng == other.rng
            && self.forced_dice == other.forced_dice
            && self.grids == other.grids
            && self.unlisted == other.unlisted
    }
}

fn empty_zone(spec: &Spec, z: usize) -> Zone {
    if spec.zones[z].stack {
        Zone::Stack(Vec::new())
    } else {
        Zone::Counts(vec![0; spec.cards.len()])
    }
}

/// The grids a game starts with: rows numbered one grid after the other, so labels are
/// unique across the game.
fn new_grids(spec: &Spec, players: usize) -> Vec<Shared<SlotGrid>> {
    let mut out = vec![];
    let mut first_row = 1u32;
    for (i, gs) in spec.grids.iter().enumerate() {
        let owners: Vec<Option<usize>> = if gs.per_player { (0..players).map(Some).collect() } else { vec![None] };
        for owner in owners {
            out.push(Shared::new(SlotGrid::new(i, owner, gs.rows, gs.cols, first_row)));
            first_row += gs.rows as u32;
        }
    }
    out
}

impl GameState {
    /// How many cards of each kind (by `Spec::cards` index) the game holds: every zone,
    /// the game's and the seats', and every slot of the grids. `catan check` holds it
    /// constant (no rule creates or loses a card mid-game) and `trace` notes it.
    pub fn card_totals(&self, kinds: usize) -> Vec<usize> {
        let mut t = vec![0; kinds];
        let zones = self.zones.iter().chain(self.players.iter().flat_map(|p| p.zones.iter()));
        for z in zones {
            for (k, n) in t.iter_mut().enumerate() {
                *n += z.count(k);
            }
        }
        for g in &self.grids {
            for s in &g.slots {
                for &c in &s.cards {
                    if let Some(n) = t.get_mut(c as usize) {
                        *n += 1;
                    }
                }
            }
        }
        t
    }

    pub fn new(spec: &Spec, players: usize, seed: u64, options: BTreeMap<String, Value>) -> GameState {
        let grids = new_grids(spec, players);
        let players = (0..players)
            .map(|i| {
                let color = spec.colors.get(i).cloned().unwrap_or_else(|| format!("p{}", i + 1));
                PlayerState {
                    name: Shared::new(color.clone()),
                    color: Shared::new(color),
                    zones: (0..spec.zones.len())
                        .map(|z| if spec.zones[z].per_player { empty_zone(spec, z) } else { Zone::Counts(vec![]) })
                        .map(Shared::new)
                        .collect(),
                    supply: Shared::new(spec.pieces.iter().map(|p| p.supply).collect()),
                    vars: Shared::default(),
                }
                .into()
            })
            .collect();
        GameState {
            topology: None,
            hexes: Shared::default(),
            harbors: Arc::new(vec![]),
            markers: Shared::default(),
            intersections: Shared::default(),
            paths: Shared::default(),
            zones: (0..spec.zones.len())
                .map(|z| if spec.zones[z].per_player { Zone::Counts(vec![]) } else { empty_zone(spec, z) })
                .map(Shared::new)
                .collect(),
            players,
            current: 0,
            phase: "setup".into(),
            turn: 0,
            options: Arc::new(options),
            vars: Shared::default(),
            winner: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            forced_dice: vec![],
            grids,
            unlisted: Default::default(),
            var_bytes: 0,
        }
    }

    /// The grid `g` (index into `Spec::grids`) of `owner`.
    pub fn grid_index(&self, owner: Option<usize>, g: usize) -> Option<usize> {
        self.grids.iter().position(|x| x.spec == g && x.owner == owner)
    }

    pub fn zone(&self, owner: Option<usize>, z: usize) -> Option<&Zone> {
        match owner {
            Some(p) => self.players.get(p)?.zones.get(z).map(|z| &**z),
            None => self.zones.get(z).map(|z| &**z),
        }
    }

    pub fn zone_mut(&mut self, owner: Option<usize>, z: usize) -> Option<&mut Zone> {
        match owner {
            Some(p) => self.players.get_mut(p)?.zones.get_mut(z).map(|z| &mut **z),
            None => self.zones.get_mut(z).map(|z| &mut **z),
        }
    }

    /// Where pieces of this kind stand.
    pub fn sites(&self, site: SiteKind) -> &[Option<Piece>] {
        match site {
            SiteKind::Intersection => &self.intersections,
            SiteKind::Path => &self.paths,
        }
    }
}
