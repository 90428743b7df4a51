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
}

/// The options table `Ctx::option_values` was read from, and its values in spec order.
pub type OptionValues =
    Option<(Arc<std::collections::BTreeMap<String, crate::value::Value>>, Vec<Option<crate::value::Value>>)>;

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

    /// Stamps the state changed (by the engine, or a write of any kind).
    pub(crate) fn touch(&mut self) {
        self.version += 1;
    }

    /// Stamps everything changed (a state installed, the engine at work).
    pub(crate) fn touch_all(&mut self) {
        self.version = self.version.max(self.grid_version) + 1;
        self.grid_version = self.version;
        self.grid_base = self.version;
        self.sites_stamp = self.version;
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
        let i = owner.unwrap_or(0).clamp(0, 64) as usize;
        let stamp = |stamps: &mut Vec<u64>, v: u64| {
            if stamps.len() <= i {
                stamps.resize(i + 1, 0);
            }
            stamps[i] = v;
        };
        stamp(&mut self.grid_stamps, self.version);
        if cards {
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
