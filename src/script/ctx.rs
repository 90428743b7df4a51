//! What a script call may touch (`Ctx`: the state and what the call produced, kept in the
//! Lua app data) and the messages it leaves for the game log.

use super::names;
use crate::spec::Spec;
use crate::state::GameState;
use std::rc::Rc;
use std::sync::Arc;

/// A message for the game log; `to` limits who may read it (None: everyone).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Message {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to: Option<Vec<usize>>,
}

/// What a script call may touch: the state, and what the call produced.
pub(crate) struct Ctx {
    pub state: GameState,
    pub spec: Arc<Spec>,
    /// Random numbers drawn during the current action, in order.
    pub draws: Vec<u32>,
    pub messages: Vec<Message>,
    pub events: Vec<String>,
    /// Set while the rules are asked something (legal actions, points, whose turn): the
    /// API refuses every change.
    pub read_only: bool,
    /// Set while legal actions are listed or drawn, when nobody reads why an action is
    /// refused: `deny` answers false alone, without its reason or its position.
    pub listing: bool,
    /// Changes with every write the API lets through and every state installed, never to
    /// a number seen before in this Lua state: what `g:cached` keys on. Never shown to
    /// scripts, whose games must not depend on how often a bot forked.
    pub version: u64,
    /// Names what the state holds: `version` as the last write or install left it, and
    /// the number a snapshot took when its stamps come back with it (`put_back_stamps`).
    /// Equal numbers in one Lua state are one content, so a listing of legal actions made
    /// at that number is good while it holds (`Script::perform`).
    pub content: u64,
    /// The same, for writes to the slot grids only (`g:cached(fn, arg, "grids")`).
    pub grid_version: u64,
    /// The same per owner of grids (0: the game's, then each seat's), for `g:cached(fn, seat,
    /// "seat_grids")`; an owner missing or below `grid_base` was last changed at `grid_base`.
    pub grid_stamps: Vec<u64>,
    /// The same for the cards alone (not the stores), for `"seat_cards"`.
    pub card_stamps: Vec<u64>,
    pub grid_base: u64,
    /// The spec's names by the address of their Lua strings (`names.rs`).
    pub names: Rc<names::NameIndex>,
    /// The declared needs of actions the engine checks itself (`declared.rs`).
    pub declared: Rc<super::declared::Declared>,
    /// `version` when a piece last went on or off the board, or a state was installed:
    /// `piece_counts` is good while this is unchanged.
    pub sites_stamp: u64,
    /// The pieces on the board by site list, seat and kind, kept at `.0 == sites_stamp`:
    /// the victory check asks `g:piece_count` after every action, and a scan of the board
    /// each time was 1.4% of a simulated game.
    pub piece_counts: std::cell::RefCell<(u64, Vec<u32>)>,
    /// The last longest trail found per seat and kind of piece, with what it was found
    /// from (the seat's paths of that kind, the intersections others hold): Longest Road
    /// asks every seat after each road, and most seats' roads did not change.
    pub trails: std::cell::RefCell<Vec<TrailMemo>>,
    /// The bots' generic features of each seat (`bot::features`), kept with what they read
    /// as a bot's evaluation keeps a seat's terms: an action changes one seat's row or
    /// two, and a position put back finds the others' again.
    pub feature_rows: std::cell::RefCell<KeptRows<Vec<f64>>>,
    /// Each seat's terms for the bots (`Script::terms`: its points, evaluation and named
    /// features), by seat and what was asked, kept with the record of what computing them
    /// read, across restores: a bot that tries one seat's actions from one position
    /// computes again only what each action changed, most often that seat's terms alone.
    pub term_rows: std::cell::RefCell<KeptRows<std::rc::Rc<super::SeatTerms>>>,
    /// The value of each option of the spec (by `NameKind::Option` index) in the options
    /// table it was read from, which it holds: `g:option` finds a name by its address
    /// instead of comparing it with the table's keys (half a dozen string comparisons).
    pub option_values: std::cell::RefCell<OptionValues>,
    /// Keep no message text (`Game::set_quiet`): each message is only measured, into
    /// `quiet_bytes`, for the game's cap on the text its messages hold.
    pub quiet: bool,
    pub quiet_bytes: usize,
    /// The buffer a quiet `g:log` writes its text into, to measure it.
    pub log_scratch: String,
    /// What a rule's run read and when each part of the state last changed: how the engine
    /// keeps what a hook or `g:cached(fn, arg, "recorded")` found while nothing it read
    /// changed (`Reads`).
    pub reads: Reads,
    /// What `g:produce` counted each seat is owed, by card kind and seat (a buffer kept, so
    /// that the C function holds no memory of its own while it pushes its answers).
    pub produced: Vec<u32>,
    /// The last board `g:build_board` made, kept across the states installed since
    /// (`Script::set_state`): a board depends on its hexes' coordinates alone, and each game
    /// of `catan sim` builds the same one again (its graph was 1.5% of a random base game).
    pub built_board: Option<Arc<crate::board::Topology>>,
}

/// A part of the state a recorded read depends on: a bit of a `ReadSet`. Zones, kinds of
/// piece and stored values share bits past their ranges (a write to one then stales what
/// read the other: more runs, never a wrong answer).
pub(crate) mod part {
    /// Anything at all: a method that says nothing of what it reads. A value that read it
    /// is good only while nothing whatever changed.
    pub const ALL: u8 = 0;
    pub const PHASE: u8 = 1;
    pub const CURRENT: u8 = 2;
    pub const TURN: u8 = 3;
    pub const WINNER: u8 = 4;
    pub const MARKERS: u8 = 5;
    pub const GRIDS: u8 = 6;
    /// Which of the board's intersections hold a piece, whoever's and whatever it is
    /// (what the spacing of settlements reads; `intersections_of` says whose and what).
    pub const OCCUPIED: u8 = 7;
    /// A zone, by its index in the spec, of one owner (None: the game's): a bot's look at
    /// one seat's trade keeps what the others' hands gave.
    pub fn zone(i: usize, owner: Option<usize>) -> u8 {
        // Seven owners a zone (the game and six seats): eight zones share no bit.
        8 + ((i * 7 + owner.map_or(0, |s| s + 1)) % 56) as u8
    }
    /// A kind of piece of one owner (None: of no player), on the board or in its supply.
    pub fn piece(i: usize, owner: Option<usize>) -> u8 {
        64 + ((i * 7 + owner.map_or(0, |s| s + 1)) % 32) as u8
    }
    /// The pieces of one owner (None: of no player) on the board's paths: a road another
    /// seat builds changes nothing of a seat's own open sites and trails.
    pub fn paths_of(owner: Option<usize>) -> u8 {
        128 + (owner.map_or(0, |s| s + 1) % 16) as u8
    }
    /// The pieces of one owner on the board's intersections: a city another seat builds
    /// changes nothing of a seat's production.
    pub fn intersections_of(owner: Option<usize>) -> u8 {
        144 + (owner.map_or(0, |s| s + 1) % 16) as u8
    }
    /// The cards on the slot grids of an owner (0: the game's, then each seat's).
    pub fn grid_cards(owner: usize) -> u8 {
        96 + (owner % 16) as u8
    }
    /// Anything on the slot grids of an owner: cards or stores.
    pub fn grids_of(owner: usize) -> u8 {
        112 + (owner % 16) as u8
    }
    /// A stored value (`g:get`, `g:set`), by its key.
    pub fn var(key: &str) -> u8 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        key.hash(&mut h);
        160 + (h.finish() % 96) as u8
    }
}

/// A set of `part`s, and the zones whose emptiness alone was read (`g:empty`): `empty`
/// and `full` hold a bit per zone (`ReadSet::zone_bit`) read empty or holding cards; and
/// the hexes whose markers alone were read (a seat's production reads whether the robber
/// stands on a hex around its buildings, not where it stands): `watched` holds a bit per
/// hex, `marked` those of them a marker stood on.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct ReadSet([u64; 4], u64, u64, u64, u64);

/// The hexes among the first 64 that a marker stands on, as bits.
fn marked_hexes(state: &GameState) -> u64 {
    state.markers.values().filter(|&&h| h < 64).fold(0, |m, &h| m | 1 << h)
}

impl ReadSet {
    pub(crate) fn add(&mut self, part: u8) {
        self.0[(part >> 6) as usize] |= 1 << (part & 63);
    }
    pub(crate) fn union(&mut self, other: &ReadSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self.1 |= other.1;
        self.2 |= other.2;
        self.3 |= other.3;
        self.4 |= other.4;
    }
    /// The bit of zone `z` of `owner` (None: the game's) in `empty` and `full`, if it has
    /// one (seven owners a zone, as `part::zone` counts them; a spec with more zones reads
    /// the zone's part instead).
    fn zone_bit(z: usize, owner: Option<usize>) -> Option<u32> {
        let owner = owner.map_or(0, |s| s + 1);
        (owner < 7).then(|| z * 7 + owner).filter(|&b| b < 64).map(|b| b as u32)
    }
    /// Whether each zone whose emptiness was read is still as it was read in `state`.
    fn emptiness_holds(&self, state: &GameState) -> bool {
        [(self.1, true), (self.2, false)].into_iter().all(|(mut bits, empty)| {
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let owner = (b % 7).checked_sub(1);
                if state.zone(owner, b / 7).is_none_or(|zn| (zn.total() == 0) != empty) {
                    return false;
                }
            }
            true
        })
    }
    /// Adds that whether a marker stands on each of `hexes` was read (the markers whole,
    /// for a hex past the 64th).
    fn watch_markers(&mut self, state: &GameState, hexes: impl IntoIterator<Item = usize>) {
        let mut watched = 0u64;
        for h in hexes {
            if h >= 64 {
                return self.add(part::MARKERS);
            }
            watched |= 1 << h;
        }
        self.3 |= watched;
        self.4 |= watched & marked_hexes(state);
    }
    /// Whether the markers stand on the hexes watched as they stood when read.
    fn markers_hold(&self, state: &GameState) -> bool {
        self.3 == 0 || marked_hexes(state) & self.3 == self.4
    }
    pub(crate) fn has(&self, part: u8) -> bool {
        self.0[(part >> 6) as usize] & (1 << (part & 63)) != 0
    }
    /// How many parts it holds.
    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// Its parts, in ascending order (the order a `Record`'s stamps follow).
    fn parts(&self) -> impl Iterator<Item = u8> {
        Ones::of(self.0).map(|p| p as u8)
    }
}

/// The places of the set bits of a set of 256 bits, lowest first: a plain loop over its
/// words, as every kept value's check walks a `ReadSet`'s parts.
pub(crate) struct Ones {
    words: [u64; 4],
    w: usize,
}

impl Ones {
    pub(crate) fn of(words: [u64; 4]) -> Ones {
        Ones { words, w: 0 }
    }
}

impl Iterator for Ones {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while let Some(bits) = self.words.get(self.w).copied() {
            if bits != 0 {
                self.words[self.w] = bits & (bits - 1);
                return Some(self.w * 64 + bits.trailing_zeros() as usize);
            }
            self.w += 1;
        }
        None
    }
}

/// What a rule's run read, kept with the stamps of those parts then and what it cost: the
/// engine answers from it while each part it read holds the stamp it held
/// (`Ctx::still_good`). Equal stamps, not "none newer": a restored position puts older
/// stamps back (`Stamps`), and a value kept there is good again.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub set: ReadSet,
    /// `version` when it ran: what a record that read `part::ALL` is good at alone.
    pub at: u64,
    /// `Reads::all` when it ran.
    all: u64,
    /// The stamp of each part of `set`, in the order `ReadSet::parts` walks them.
    stamps: Box<[u64]>,
    pub cost: u64,
    /// When it was last made or found good (`FastSlot`'s count of uses).
    pub used: std::cell::Cell<u64>,
    /// `Reads::installs` when it ran, for a rule's record: good in that state alone, not
    /// after a restore, since the values a rule keeps within are charged what they cost
    /// when computed, which the positions a bot's search went through can change. None for
    /// a bot's evaluation (the prelude's seat terms), kept across restores.
    installs: Option<u64>,
}

impl Record {
    /// Which of a key's kept records to replace with a new one: an empty place first,
    /// else the one used least lately (a bot's look at action after action from one
    /// position keeps that position's beside the last action's).
    pub(crate) fn to_replace<'a>(kept: impl IntoIterator<Item = Option<&'a Record>>) -> usize {
        kept.into_iter().enumerate().min_by_key(|(_, r)| r.map_or(0, |r| r.used.get() + 1)).map_or(0, |(i, _)| i)
    }
}

/// The recording of reads and the stamps of writes, part by part (`part`).
pub(crate) struct Reads {
    /// `version` when each part last changed.
    stamps: Box<[u64; 256]>,
    /// `version` when something no part names changed (a write that says nothing of what
    /// it wrote, a state installed): everything recorded before it is stale.
    all: u64,
    /// `all` before the current write's `touch` (a write that names its parts puts it back).
    all_before: u64,
    /// Recordings under way, innermost last: what each has read so far.
    open: std::cell::RefCell<Vec<ReadSet>>,
    /// States installed so far (`touch_all`): a rule's record is good only until the next
    /// (a bot's evaluation is kept across them: `Record::installs`).
    installs: u64,
    /// Whether any recording is under way (read by every getter: one load).
    recording: std::cell::Cell<bool>,
    /// Set by a getter that said what it read (`Ctx::read`), so that one that did not is
    /// recorded as reading everything.
    noted: std::cell::Cell<bool>,
    /// Calls that noted an event (`g:emit`): a run that noted one is not kept, even if it
    /// wrote nothing.
    pub notes: u64,
}

impl Reads {
    pub(crate) fn new(version: u64) -> Reads {
        Reads {
            stamps: Box::new([version; 256]),
            all: version,
            all_before: version,
            installs: 0,
            open: Default::default(),
            recording: Default::default(),
            noted: Default::default(),
            notes: 0,
        }
    }
}

/// The options table `Ctx::option_values` was read from, and its values in spec order.
pub type OptionValues =
    Option<(Arc<std::collections::BTreeMap<String, crate::value::Value>>, Vec<Option<crate::value::Value>>)>;

/// What the engine keeps of a bot's evaluation, by key (a seat, a seat and what was
/// asked): two values a key (places `2 * key` and the one after), each with the record of
/// what it read, used least lately replaced first. Kept across restores, as a position
/// put back holds its stamps (`Ctx::feature_rows`, `Ctx::term_rows`).
pub struct KeptRows<T> {
    tick: u64,
    rows: Vec<Option<(Record, T)>>,
}

impl<T> Default for KeptRows<T> {
    fn default() -> Self {
        KeptRows { tick: 0, rows: Vec::new() }
    }
}

impl<T: Clone> KeptRows<T> {
    /// Key `key`'s value that `fits` and is still good in `c` (nothing it read changed),
    /// marked used now.
    pub(crate) fn good(&mut self, c: &Ctx, key: usize, fits: impl Fn(&T) -> bool) -> Option<T> {
        self.tick += 1;
        let tick = self.tick;
        let at = 2 * key;
        let (r, value) =
            self.rows.get(at..at + 2).into_iter().flatten().flatten().find(|(r, v)| fits(v) && c.still_good(r))?;
        r.used.set(tick);
        Some(value.clone())
    }

    /// Keeps `value` for `key`, with the record of what it read, in place of the one
    /// used least lately.
    pub(crate) fn keep(&mut self, c: &Ctx, key: usize, reads: ReadSet, value: T) {
        let at = 2 * key;
        if self.rows.len() < at + 2 {
            self.rows.resize_with(at + 2, || None);
        }
        let i = Record::to_replace(self.rows[at..at + 2].iter().map(|e| e.as_ref().map(|(r, _)| r)));
        self.rows[at + i] = Some((c.record(reads, 0, self.tick, true), value));
    }
}

/// One longest trail `Ctx::trails` keeps: a function of `owned` and `blocked` alone.
pub struct TrailMemo {
    /// The board it was found on, held so that its address stays its own.
    pub topology: std::sync::Arc<crate::board::Topology>,
    pub seat: usize,
    pub kind: usize,
    pub owned: Vec<bool>,
    pub blocked: Vec<bool>,
    pub len: usize,
}

impl Ctx {
    /// Keeps a message of the current call, or, quiet, counts its bytes.
    pub(crate) fn keep_message(&mut self, m: Message) {
        if self.quiet {
            self.quiet_bytes += m.text.len();
        } else {
            self.messages.push(m);
        }
    }

    /// Records an event of the current call; a quiet game hands out no outcomes to read
    /// them from, so it records none.
    pub(crate) fn keep_event(&mut self, event: &str) {
        if !self.quiet {
            self.events.push(event.to_owned());
        }
    }

    /// Stamps the state changed (by the engine, or a write of any kind): every part of it,
    /// unless the write then names the parts it changed (`wrote`, `wrote_nothing`).
    pub(crate) fn touch(&mut self) {
        self.version += 1;
        self.content = self.version;
        self.reads.all_before = self.reads.all;
        self.reads.all = self.version;
    }

    /// The write just stamped (`touch`) changed `part` alone (of what it names; it may
    /// name several).
    #[inline]
    pub(crate) fn wrote(&mut self, part: u8) {
        self.reads.all = self.reads.all_before;
        self.reads.stamps[part as usize] = self.version;
    }

    /// The write just stamped changed nothing a getter reads (a message, the random
    /// numbers' state).
    #[inline]
    pub(crate) fn wrote_nothing(&mut self) {
        self.reads.all = self.reads.all_before;
    }

    /// Stamps everything changed (a state installed, the engine at work).
    pub(crate) fn touch_all(&mut self) {
        self.reads.installs += 1;
        self.version = self.version.max(self.grid_version) + 1;
        self.grid_version = self.version;
        self.grid_base = self.version;
        self.sites_stamp = self.version;
        self.content = self.version;
        self.reads.all = self.version;
        self.reads.all_before = self.version;
    }

    /// A getter read `part`, for the recording under way (if any).
    #[inline]
    pub(crate) fn read(&self, part: u8) {
        if self.reads.recording.get() {
            self.reads.noted.set(true);
            if let Some(top) = self.reads.open.borrow_mut().last_mut() {
                top.add(part);
            }
        }
    }

    /// A getter read whether zone `z` of `owner` holds any card (`empty`: it holds none)
    /// and nothing else of it: a value kept with it stays good while cards come and go
    /// and the zone stays empty, or stays not empty (`Ctx::still_good` looks again).
    pub(crate) fn read_empty(&self, z: usize, owner: Option<usize>, empty: bool) {
        if !self.reads.recording.get() {
            return;
        }
        let Some(b) = ReadSet::zone_bit(z, owner) else { return self.read(part::zone(z, owner)) };
        self.reads.noted.set(true);
        if let Some(top) = self.reads.open.borrow_mut().last_mut() {
            if empty {
                top.1 |= 1 << b;
            } else {
                top.2 |= 1 << b;
            }
        }
    }

    /// A getter read whether a marker stands on each of `hexes` and nothing else of the
    /// markers: a value kept with it stays good while the markers move elsewhere
    /// (`Ctx::still_good` looks again). A hex past the 64th reads the markers whole.
    pub(crate) fn read_markers_on(&self, hexes: impl IntoIterator<Item = usize>) {
        if !self.reads.recording.get() {
            return;
        }
        self.reads.noted.set(true);
        if let Some(top) = self.reads.open.borrow_mut().last_mut() {
            top.watch_markers(&self.state, hexes);
        }
    }

    /// A getter read what stands on every path, whoever's.
    pub(crate) fn read_all_paths(&self) {
        if self.reads.recording.get() {
            self.read(part::paths_of(None));
            for s in 0..self.state.players.len() {
                self.read(part::paths_of(Some(s)));
            }
        }
    }

    /// A getter read what stands on every intersection, whoever's.
    pub(crate) fn read_all_intersections(&self) {
        if self.reads.recording.get() {
            self.read(part::OCCUPIED);
            self.read(part::intersections_of(None));
            for s in 0..self.state.players.len() {
                self.read(part::intersections_of(Some(s)));
            }
        }
    }

    /// A write put, took or changed a piece of `kind` owned by `owner` on a site: stamps
    /// the site's part (the owner's intersections or paths), the kind's, and the board's
    /// kept counts; `occupied`: the intersection was empty before or is now.
    pub(crate) fn wrote_piece(
        &mut self,
        site: crate::spec::SiteKind,
        kind: usize,
        owner: Option<usize>,
        occupied: bool,
    ) {
        self.sites_stamp = self.version;
        match site {
            crate::spec::SiteKind::Intersection => {
                self.wrote(part::intersections_of(owner));
                if occupied {
                    self.wrote(part::OCCUPIED);
                }
            }
            crate::spec::SiteKind::Path => self.wrote(part::paths_of(owner)),
        }
        self.wrote(part::piece(kind, owner));
    }

    /// A getter read the stored value under `key` (its part hashed only while recording).
    #[inline]
    pub(crate) fn read_var(&self, key: &str) {
        if self.reads.recording.get() {
            self.read(part::var(key));
        }
    }

    /// A getter read nothing that changes during a game (the board's shape, an option,
    /// the number of players): anything that changes them stamps everything.
    #[inline]
    pub(crate) fn read_constant(&self) {
        if self.reads.recording.get() {
            self.reads.noted.set(true);
        }
    }

    /// Whether a recording is under way: a getter's call is then checked for having said
    /// what it read (`before_get`, `after_get`).
    #[inline]
    pub(crate) fn recording(&self) -> bool {
        self.reads.recording.get()
    }

    pub(crate) fn before_get(&self) {
        self.reads.noted.set(false);
    }

    /// A getter that said nothing of what it read read everything.
    pub(crate) fn after_get(&self) {
        if !self.reads.noted.get() {
            self.read(part::ALL);
        }
    }

    /// Starts recording what the rules read (within another recording: a part of it).
    pub(crate) fn start_recording(&self) {
        self.reads.open.borrow_mut().push(ReadSet::default());
        self.reads.recording.set(true);
    }

    /// Stops the innermost recording: what it read, added to the one around it.
    pub(crate) fn stop_recording(&self) -> ReadSet {
        let mut open = self.reads.open.borrow_mut();
        let set = open.pop().unwrap_or_default();
        if let Some(outer) = open.last_mut() {
            outer.union(&set);
        }
        self.reads.recording.set(!open.is_empty());
        set
    }

    /// Ends every recording (a call into the rules starts with none: an error may have
    /// left one open).
    pub(crate) fn clear_recordings(&self) {
        self.reads.open.borrow_mut().clear();
        self.reads.recording.set(false);
    }

    /// A record found again: what it read counts as read by the recording under way.
    pub(crate) fn read_again(&self, set: &ReadSet) {
        if self.reads.recording.get() {
            self.reads.noted.set(true);
            if let Some(top) = self.reads.open.borrow_mut().last_mut() {
                top.union(set);
            }
        }
    }

    /// Whether every part `r` read holds the stamp it held when it was recorded. Sound
    /// because a stamp is never issued twice in a Lua state and `Reads::all` is fresh after
    /// every write that names nothing and every state installed: a part's stamp with `all`
    /// names its content, here or in a position put back with its stamps.
    pub(crate) fn still_good(&self, r: &Record) -> bool {
        if self.reads.all != r.all
            || (r.set.has(part::ALL) && self.version != r.at)
            || r.installs.is_some_and(|n| n != self.reads.installs)
        {
            return false;
        }
        r.set.parts().zip(r.stamps.iter()).all(|(p, &s)| self.reads.stamps[p as usize] == s)
            && r.set.emptiness_holds(&self.state)
            && r.set.markers_hold(&self.state)
    }

    /// The record of a run that read `set` and cost `cost`, ending now (it wrote nothing).
    /// `across_restores`: a bot's evaluation, kept across restores (`Record::installs`).
    pub(crate) fn record(&self, set: ReadSet, cost: u64, used: u64, across_restores: bool) -> Record {
        let mut stamps = Vec::with_capacity(set.len());
        for p in set.parts() {
            stamps.push(self.reads.stamps[p as usize]);
        }
        let stamps = stamps.into_boxed_slice();
        let installs = (!across_restores).then_some(self.reads.installs);
        Record { set, at: self.version, all: self.reads.all, stamps, cost, used: std::cell::Cell::new(used), installs }
    }

    /// What a seat's row of the bots' generic features reads (`bot::features`): the
    /// seat's zones, paths and grids, whether a marker stands around its pieces (its
    /// production), and every piece on the intersections (its own production and harbors,
    /// the open sites beside its paths, the others' pieces that cut its trails). The
    /// board's hexes and harbors change only by writes that stamp everything.
    fn feature_reads(&self, seat: usize) -> ReadSet {
        let mut set = ReadSet::default();
        for (z, _) in self.spec.zones.iter().enumerate().filter(|(_, z)| z.per_player) {
            set.add(part::zone(z, Some(seat)));
        }
        if let Some(t) = self.state.topology.as_deref() {
            let own = self
                .state
                .intersections
                .iter()
                .enumerate()
                .filter(|(_, pc)| pc.is_some_and(|pc| pc.seat() == Some(seat)));
            let hexes = own.flat_map(|(n, _)| t.intersections.get(n).into_iter().flat_map(|i| i.hexes.iter().copied()));
            set.watch_markers(&self.state, hexes);
        }
        set.add(part::OCCUPIED);
        set.add(part::intersections_of(None));
        for s in 0..self.state.players.len() {
            set.add(part::intersections_of(Some(s)));
        }
        set.add(part::paths_of(Some(seat)));
        // The grids' owners count from 1 (0: the game's).
        set.add(part::grids_of(seat + 1));
        set
    }

    /// Seat `seat`'s row of `len` generic features for the bots, as `fill` computes it
    /// into zeros: kept while nothing it reads changes (`feature_reads`), across restores
    /// as a seat's terms are. Debug builds compute a kept row again and panic if it
    /// differs: a write that did not stamp what it changed.
    pub(crate) fn kept_features(&self, seat: usize, len: usize, fill: impl FnOnce(&mut [f64])) -> Vec<f64> {
        let found = self.feature_rows.borrow_mut().good(self, seat, |row| row.len() == len);
        let found = match found {
            Some(row) if !cfg!(debug_assertions) => return row,
            other => other,
        };
        let mut row = vec![0.0; len];
        fill(&mut row);
        if let Some(kept) = found {
            assert!(
                kept == row,
                "a bot's generic features kept while nothing they read changed differ from the position's: a write that did not stamp what it changed"
            );
            return row;
        }
        self.feature_rows.borrow_mut().keep(self, seat, self.feature_reads(seat), row.clone());
        row
    }

    /// The pieces of `kind` that `seat` has on the sites of `site`, from the kept counts
    /// (one scan of the board after each change of its pieces).
    pub(crate) fn pieces_on(&self, site: crate::spec::SiteKind, seat: usize, kind: usize) -> usize {
        let (seats, kinds) = (self.state.players.len(), self.spec.pieces.len());
        let mut kept = self.piece_counts.borrow_mut();
        if kept.0 != self.sites_stamp {
            let (stamp, counts) = &mut *kept;
            counts.clear();
            counts.resize(2 * seats * kinds, 0);
            for (list, sites) in [&self.state.intersections, &self.state.paths].into_iter().enumerate() {
                for pc in sites.iter().flatten() {
                    let (o, k) = (pc.owner as usize, pc.kind as usize);
                    if o < seats && k < kinds {
                        counts[(list * seats + o) * kinds + k] += 1;
                    }
                }
            }
            *stamp = self.sites_stamp;
        }
        let list = match site {
            crate::spec::SiteKind::Intersection => 0,
            crate::spec::SiteKind::Path => 1,
        };
        kept.1.get((list * seats + seat) * kinds + kind).map_or(0, |&n| n as usize)
    }

    /// Stamps the grids of `owner` (None: the game's) changed: their stores only, or
    /// `cards` too.
    pub(crate) fn touch_grids(&mut self, owner: Option<i64>, cards: bool) {
        self.version = self.version.max(self.grid_version) + 1;
        self.grid_version = self.version;
        self.content = self.version;
        let i = owner.unwrap_or(0).clamp(0, 64) as usize;
        let stamp = |stamps: &mut Vec<u64>, v: u64| {
            if stamps.len() <= i {
                stamps.resize(i + 1, 0);
            }
            stamps[i] = v;
        };
        stamp(&mut self.grid_stamps, self.version);
        self.wrote(part::GRIDS);
        self.wrote(part::grids_of(i));
        if cards {
            self.wrote(part::grid_cards(i));
            stamp(&mut self.card_stamps, self.version);
        }
    }

    /// When the grids of `owner` (0: the game's) last changed.
    pub(crate) fn grid_stamp(&self, owner: usize) -> u64 {
        self.grid_stamps.get(owner).copied().unwrap_or(0).max(self.grid_base)
    }

    /// Where the value of the spec's option `i` is in this state's options (None: not
    /// set), read again only when the state holds another options table. A pointer, so
    /// that no borrow is alive while it is pushed to Lua (which may raise); it stays good
    /// until the next call, since the list changes only here and holds its table.
    pub(crate) fn option_value(&self, i: usize) -> Option<*const crate::value::Value> {
        let mut kept = self.option_values.borrow_mut();
        if !kept.as_ref().is_some_and(|(table, _)| Arc::ptr_eq(table, &self.state.options)) {
            let values = self.spec.options.iter().map(|o| self.state.options.get(&o.name).cloned()).collect();
            *kept = Some((self.state.options.clone(), values));
        }
        let (_, values) = kept.as_ref()?;
        values.get(i)?.as_ref().map(|v| v as *const _)
    }

    /// When the cards on the grids of `owner` last changed (stores aside).
    pub(crate) fn card_stamp(&self, owner: usize) -> u64 {
        self.card_stamps.get(owner).copied().unwrap_or(0).max(self.grid_base)
    }

    /// The stamps of the slot grids' owners as they stand (`grid_stamp`, `card_stamp`),
    /// taken with a snapshot of the state.
    pub(crate) fn grid_stamps_now(&self) -> GridStamps {
        GridStamps { grids: self.grid_stamps.clone(), cards: self.card_stamps.clone(), base: self.grid_base }
    }

    /// Every stamp as it stands, to put back with the state (`Game::restore`): what rules
    /// kept of this position (`Record`s, the grids' kept values, the board's piece counts)
    /// is good again there. `owner` names the Lua state they were issued in.
    pub(crate) fn stamps_now(&self, owner: u64) -> Stamps {
        Stamps {
            owner,
            grids: self.grid_stamps_now(),
            parts: self.reads.stamps.clone(),
            all: self.reads.all,
            sites: self.sites_stamp,
            content: self.content,
        }
    }

    /// Puts back the stamps taken with the state just put back, after `touch_all`. Sound
    /// as `put_back_grid_stamps` is: each stamp was issued for what the position holds.
    pub(crate) fn put_back_stamps(&mut self, s: &Stamps) {
        self.put_back_grid_stamps(&s.grids);
        self.reads.stamps.clone_from(&s.parts);
        self.reads.all = s.all;
        self.reads.all_before = s.all;
        self.sites_stamp = s.sites;
        self.content = s.content;
    }

    /// Puts back the grid stamps taken with the state just put back (`Game::restore`), after
    /// `touch_all`: what `g:cached` keeps by a seat's grids ("seat_grids", "seat_cards") is
    /// good there again. Sound because a stamp is never issued twice in a Lua state: a
    /// value kept at the stamp a snapshot holds was derived from the grids that snapshot
    /// holds, and every change since was stamped anew. (The version stays fresh.)
    pub(crate) fn put_back_grid_stamps(&mut self, s: &GridStamps) {
        self.grid_stamps.clone_from(&s.grids);
        self.card_stamps.clone_from(&s.cards);
        self.grid_base = s.base;
    }
}

/// Every stamp of a position, taken with a snapshot (`Ctx::stamps_now`) and put back with
/// it in the Lua state that issued them (`owner`).
#[derive(Debug, Clone, PartialEq)]
pub struct Stamps {
    pub(crate) owner: u64,
    grids: GridStamps,
    parts: Box<[u64; 256]>,
    all: u64,
    sites: u64,
    content: u64,
}

impl Stamps {
    pub(crate) fn grids(&self) -> &GridStamps {
        &self.grids
    }
}

/// The stamps of the slot grids' owners taken with a snapshot (`Ctx::grid_stamps_now`).
#[derive(Debug, Clone, PartialEq)]
pub struct GridStamps {
    grids: Vec<u64>,
    cards: Vec<u64>,
    base: u64,
}

/// Everything of a `Ctx` but the state (`Script::with_output`).
pub(crate) struct Output<'a> {
    pub draws: &'a mut Vec<u32>,
    pub messages: &'a mut Vec<Message>,
    /// The bytes of the messages a quiet game measured instead of keeping.
    pub quiet_bytes: &'a mut usize,
    pub events: &'a mut Vec<String>,
    pub read_only: &'a mut bool,
    pub listing: &'a mut bool,
}

impl Output<'_> {
    /// Drops what a call produced (its draws, messages and events), before an action or
    /// when a state is put back.
    pub(crate) fn clear(&mut self) {
        self.draws.clear();
        self.messages.clear();
        self.events.clear();
        *self.quiet_bytes = 0;
    }
}

impl Ctx {
    /// Everything but the state: what the engine's bookkeeping around a call may touch.
    pub(crate) fn output(&mut self) -> Output<'_> {
        Output {
            draws: &mut self.draws,
            messages: &mut self.messages,
            quiet_bytes: &mut self.quiet_bytes,
            events: &mut self.events,
            read_only: &mut self.read_only,
            listing: &mut self.listing,
        }
    }
}
