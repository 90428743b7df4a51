//! The action index and the observation vector of the reinforcement-learning
//! environments (see `docs/python.md`, "The action index").
//!
//! Index: every action the variant stack declares, in declaration order (test-only
//! `debug` actions and those the rules cannot list, such as trade offers, left out), times
//! every value of each argument, the last argument varying fastest. Argument values:
//!   intersection, path, hex: the board's sites in the view's order;
//!   player: the seats, 0 first;    resource: the variant's resource cards in order;
//!   cards: every multiset of the resource cards (all cards if the variant has no
//!          resources) of 0 to `cards_cap` cards, by size then in order;
//!   int: 0 to `int_max`;           word: the names of cards, pieces and terrains;
//!   slot: the labels of the slot grids at the start of the game.
//! An action whose product would pass `max_per_action` entries is left out. The index
//! ends with one more entry, "other": a legal action outside the index, drawn at random
//! (a discard of more than `cards_cap` cards, say), so a seat always has something to do.
//! The index depends only on the variant stack, the number of players, the options that
//! shape the board and the caps: it is the same in every game of that kind.

use crate::{nogil, py_err, Action, Game, SetupError};
use catan_engine::action::Arg;
use catan_engine::spec::{ArgType, SiteKind, Spec, Visibility};
use catan_engine::state::{GameState, Zone};
use catan_engine::{Action as CoreAction, GameError, Observer};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The values one argument type takes in the index, and their positions.
struct Domain {
    values: Vec<Arg>,
    pos: HashMap<Arg, usize>,
}

impl Domain {
    fn new(values: Vec<Arg>) -> Domain {
        let pos = values.iter().enumerate().map(|(i, v)| (v.clone(), i)).collect();
        Domain { values, pos }
    }
}

/// One declared action's block of the index.
struct Block {
    name: String,
    offset: usize,
    /// The domain of each argument (an index into `domains`).
    args: Vec<usize>,
    size: usize,
}

/// The stable action index of a kind of game, and its observation encoding. Build it
/// from any game of that kind; use it with every game of that kind.
#[pyclass(module = "catan_engine._native", frozen)]
pub struct ActionIndex {
    blocks: Vec<Block>,
    by_name: HashMap<String, usize>,
    domains: Vec<Domain>,
    size: usize,
    left_out: Vec<String>,
    key: Key,
    obs: ObsLayout,
}

/// What makes two games share an index.
#[derive(PartialEq, Clone)]
struct Key {
    variants: Vec<String>,
    players: usize,
    intersections: usize,
    paths: usize,
    hexes: usize,
}

impl Key {
    fn of(st: &GameState, variants: &[String]) -> Key {
        let t = st.topology.as_deref();
        Key {
            variants: variants.to_vec(),
            players: st.players.len(),
            intersections: t.map_or(0, |t| t.intersections.len()),
            paths: t.map_or(0, |t| t.paths.len()),
            hexes: t.map_or(0, |t| t.hexes.len()),
        }
    }
}

/// Every multiset of `kinds` with 0 to `cap` cards, by size, then in order of kinds.
fn multisets(kinds: &[String], cap: usize) -> Vec<Vec<(String, u32)>> {
    let mut out = vec![];
    for size in 0..=cap {
        // counts[i] cards of kinds[i], summing to size, in lexicographic order of counts
        // read from the first kind (the first kind's count falling).
        fn rec(kinds: &[String], left: usize, at: usize, cur: &mut Vec<u32>, out: &mut Vec<Vec<(String, u32)>>) {
            if at == kinds.len() - 1 {
                cur.push(left as u32);
                let mut ms: Vec<(String, u32)> =
                    kinds.iter().zip(cur.iter()).filter(|(_, &n)| n > 0).map(|(k, &n)| (k.clone(), n)).collect();
                ms.sort();
                out.push(ms);
                cur.pop();
                return;
            }
            for n in (0..=left).rev() {
                cur.push(n as u32);
                rec(kinds, left - n, at + 1, cur, out);
                cur.pop();
            }
        }
        if kinds.is_empty() {
            if size == 0 {
                out.push(vec![]);
            }
            continue;
        }
        rec(kinds, size, 0, &mut vec![], &mut out);
    }
    out
}

fn domain_values(t: ArgType, spec: &Spec, st: &GameState, cards_cap: usize, int_max: i64) -> Vec<Arg> {
    let topo = st.topology.as_deref();
    match t {
        ArgType::Intersection => (0..topo.map_or(0, |t| t.intersections.len())).map(Arg::Intersection).collect(),
        ArgType::Path => (0..topo.map_or(0, |t| t.paths.len())).map(Arg::Path).collect(),
        ArgType::Hex => (0..topo.map_or(0, |t| t.hexes.len())).map(Arg::Hex).collect(),
        ArgType::Player => (0..st.players.len()).map(Arg::Player).collect(),
        ArgType::Resource => spec.resources().map(|r| Arg::Resource(r.to_string())).collect(),
        ArgType::Cards => {
            let mut kinds: Vec<String> = spec.resources().map(str::to_string).collect();
            if kinds.is_empty() {
                kinds = spec.cards.iter().map(|c| c.name.clone()).collect();
            }
            multisets(&kinds, cards_cap).into_iter().map(Arg::Cards).collect()
        }
        ArgType::Int => (0..=int_max).map(Arg::Int).collect(),
        ArgType::Word => {
            let mut words: Vec<String> = vec![];
            let names = spec
                .cards
                .iter()
                .map(|c| &c.name)
                .chain(spec.pieces.iter().map(|p| &p.name))
                .chain(spec.terrains.iter().map(|t| &t.name));
            for n in names {
                if !words.contains(n) {
                    words.push(n.clone());
                }
            }
            words.into_iter().map(Arg::Word).collect()
        }
        ArgType::Slot => {
            let mut labels: Vec<String> = vec![];
            for g in &st.grids {
                for r in 0..g.rows as usize {
                    for c in 0..g.cols as usize {
                        let l = g.label(r, c).to_ascii_uppercase();
                        if !labels.contains(&l) {
                            labels.push(l);
                        }
                    }
                }
            }
            labels.into_iter().map(Arg::Slot).collect()
        }
    }
}

const ARG_TYPES: [ArgType; 9] = [
    ArgType::Intersection,
    ArgType::Path,
    ArgType::Hex,
    ArgType::Player,
    ArgType::Resource,
    ArgType::Cards,
    ArgType::Int,
    ArgType::Word,
    ArgType::Slot,
];

impl ActionIndex {
    fn check(&self, game: &Game) -> PyResult<()> {
        let st = game.inner.state();
        if Key::of(&st, &game.inner.header().variants) != self.key {
            return Err(SetupError::new_err(
                "this game is of another kind than the index's (variant stack, players or board)",
            ));
        }
        Ok(())
    }

    fn encode(&self, a: &CoreAction) -> Option<usize> {
        let b = &self.blocks[*self.by_name.get(&a.name)?];
        if a.args.len() != b.args.len() {
            return None;
        }
        let mut i = 0;
        for (arg, &d) in a.args.iter().zip(&b.args) {
            let dom = &self.domains[d];
            i = i * dom.values.len() + dom.pos.get(arg)?;
        }
        Some(b.offset + i)
    }

    fn decode(&self, mut i: usize) -> Option<CoreAction> {
        let b = self.blocks.iter().take_while(|b| b.offset <= i).last()?;
        i -= b.offset;
        if i >= b.size {
            return None;
        }
        let mut args = vec![];
        for &d in b.args.iter().rev() {
            let n = self.domains[d].values.len();
            args.push(self.domains[d].values[i % n].clone());
            i /= n;
        }
        args.reverse();
        Some(CoreAction { name: b.name.clone(), args })
    }

    /// Indices of the legal actions of `seat`, and the legal actions outside the index.
    fn legal(&self, game: &Game, seat: usize) -> Result<(Vec<usize>, Vec<CoreAction>), GameError> {
        let mut inside = vec![];
        let mut outside = vec![];
        for a in game.inner.legal_actions(seat)? {
            match self.encode(&a) {
                Some(i) => inside.push(i),
                None => outside.push(a),
            }
        }
        Ok((inside, outside))
    }
}

#[pymethods]
impl ActionIndex {
    /// The index of `game`'s kind of game. `cards_cap`: the most cards of a cards argument
    /// in the index; `int_max`: the largest number argument; `max_per_action`: a declared
    /// action with more entries than this is left out (reached through "other").
    #[new]
    #[pyo3(signature = (game, cards_cap = 4, int_max = 12, max_per_action = 20_000))]
    fn py_new(game: &Game, cards_cap: usize, int_max: i64, max_per_action: usize) -> PyResult<ActionIndex> {
        let spec = game.inner.spec().clone();
        let st = game.inner.state();
        let domains: Vec<Domain> =
            ARG_TYPES.iter().map(|&t| Domain::new(domain_values(t, &spec, &st, cards_cap, int_max))).collect();
        let (mut blocks, mut by_name, mut left_out, mut offset) = (vec![], HashMap::new(), vec![], 0);
        for a in spec.actions.iter().filter(|a| !a.debug && a.enumerable) {
            let args: Vec<usize> = a.arg_types().map(|t| ARG_TYPES.iter().position(|&x| x == t).unwrap_or(0)).collect();
            let size = args.iter().try_fold(1usize, |acc, &d| acc.checked_mul(domains[d].values.len()));
            match size {
                Some(size) if size <= max_per_action => {
                    if size > 0 {
                        by_name.insert(a.name.clone(), blocks.len());
                        blocks.push(Block { name: a.name.clone(), offset, args, size });
                        offset += size;
                    }
                }
                _ => left_out.push(a.name.clone()),
            }
        }
        let key = Key::of(&st, &game.inner.header().variants);
        let obs = ObsLayout::new(&spec, &st);
        Ok(ActionIndex { blocks, by_name, domains, size: offset, left_out, key, obs })
    }

    /// The number of entries, "other" included (the last).
    fn __len__(&self) -> usize {
        self.size + 1
    }
    #[getter]
    fn size(&self) -> usize {
        self.size + 1
    }
    /// The index of "other": a legal action outside the index, drawn at random.
    #[getter]
    fn other(&self) -> usize {
        self.size
    }
    /// Declared actions left out of the index (too many entries).
    #[getter]
    fn left_out(&self) -> Vec<String> {
        self.left_out.clone()
    }
    /// (name, first index, number of entries) of each declared action in the index.
    fn blocks(&self) -> Vec<(String, usize, usize)> {
        self.blocks.iter().map(|b| (b.name.clone(), b.offset, b.size)).collect()
    }

    /// The index of an action of `game` (None if it lies outside the index).
    fn index(&self, game: &Game, action: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        self.check(game)?;
        Ok(self.encode(&game.action_of(action)?))
    }

    /// The action at index `i` (None for "other" or past the end), its text as in `game`.
    fn action(&self, game: &Game, i: usize) -> PyResult<Option<Action>> {
        self.check(game)?;
        Ok(self.decode(i).map(|a| Action::new(&game.inner, a)))
    }

    /// The mask of `seat`'s legal actions (default: the seat to act): `len(self)` bytes,
    /// 1 where the action is legal, "other" set when some legal action lies outside the
    /// index. All zero once the game is won, or for a seat not to act.
    #[pyo3(signature = (game, seat = None))]
    fn mask<'py>(&self, py: Python<'py>, game: &Game, seat: Option<crate::Seat>) -> PyResult<Bound<'py, PyBytes>> {
        self.check(game)?;
        let mut mask = vec![0u8; self.size + 1];
        if game.inner.winner().is_none() {
            let seat = game.seat_or_to_act(seat)?;
            let (inside, outside) = nogil(py, || self.legal(game, seat)).map_err(py_err)?;
            for i in inside {
                mask[i] = 1;
            }
            if !outside.is_empty() {
                mask[self.size] = 1;
            }
        }
        Ok(PyBytes::new(py, &mask))
    }

    /// Plays index `i` for `seat` (default: the seat to act) in `game`; "other" plays a
    /// legal action outside the index drawn with `draw` (a number in [0, 1)). Returns the
    /// action played. Raises `InvalidAction` if it is not legal; the game is then unchanged.
    #[pyo3(signature = (game, i, seat = None, draw = 0.0))]
    fn play(
        &self,
        py: Python<'_>,
        game: &mut Game,
        i: usize,
        seat: Option<crate::Seat>,
        draw: f64,
    ) -> PyResult<Action> {
        self.check(game)?;
        let seat = game.seat_or_to_act(seat)?;
        let action = if i == self.size {
            let (_, outside) = nogil(py, || self.legal(game, seat)).map_err(py_err)?;
            if outside.is_empty() {
                return Err(crate::InvalidAction::new_err("'other': every legal action of this seat is in the index"));
            }
            let k = ((draw.clamp(0.0, 1.0) * outside.len() as f64) as usize).min(outside.len() - 1);
            outside[k].clone()
        } else {
            self.decode(i).ok_or_else(|| {
                crate::InvalidAction::new_err(format!("{i} is not an action index (the index has {})", self.size + 1))
            })?
        };
        let inner = &mut game.inner;
        let a = action.clone();
        nogil(py, move || inner.perform(seat, &a)).map_err(py_err)?;
        Ok(Action::new(&game.inner, action))
    }

    /// The length of the observation vector.
    #[getter]
    fn observation_size(&self) -> usize {
        self.obs.size
    }
    /// Names of the observation's parts and their (start, length), in order.
    fn observation_layout(&self) -> Vec<(String, usize, usize)> {
        self.obs.parts.clone()
    }

    /// What `seat` may see of `game` as `observation_size` float32 numbers (bytes, for
    /// `numpy.frombuffer(..., dtype=numpy.float32)`); see `docs/python.md`.
    fn observe<'py>(&self, py: Python<'py>, game: &Game, seat: crate::Seat) -> PyResult<Bound<'py, PyBytes>> {
        self.check(game)?;
        let seat = crate::seat_index(&game.inner, &seat)?;
        let v = nogil(py, || self.obs.encode(game, seat));
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// A random number source for "other" draws and tests: `n` numbers in [0, 1).
    #[staticmethod]
    fn draws(seed: u64, n: usize) -> Vec<f64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n).map(|_| rng.random::<f64>()).collect()
    }
}

/// The observation's layout, fixed for a kind of game.
struct ObsLayout {
    size: usize,
    parts: Vec<(String, usize, usize)>,
    players: usize,
    int_pieces: Vec<usize>,
    path_pieces: Vec<usize>,
    markers: Vec<String>,
    grid_slots: Vec<usize>,
    cards: usize,
}

const PHASE_BUCKETS: usize = 16;

impl ObsLayout {
    fn new(spec: &Spec, st: &GameState) -> ObsLayout {
        let p = st.players.len();
        let (ni, np, nh) =
            st.topology.as_deref().map_or((0, 0, 0), |t| (t.intersections.len(), t.paths.len(), t.hexes.len()));
        let int_pieces: Vec<usize> =
            spec.pieces.iter().enumerate().filter(|(_, k)| k.site == SiteKind::Intersection).map(|(i, _)| i).collect();
        let path_pieces: Vec<usize> =
            spec.pieces.iter().enumerate().filter(|(_, k)| k.site == SiteKind::Path).map(|(i, _)| i).collect();
        let markers: Vec<String> = st.markers.keys().cloned().collect();
        let grid_slots: Vec<usize> = st.grids.iter().map(|g| g.rows as usize * g.cols as usize).collect();
        let nc = spec.cards.len();
        let global_zones = spec.zones.iter().filter(|z| !z.per_player).count();
        let player_zones = spec.zones.len() - global_zones;
        let mut parts = vec![];
        let mut at = 0;
        let mut part = |name: &str, n: usize| {
            parts.push((name.to_string(), at, n));
            at += n;
        };
        // Owners seen from the seat: itself first, then the next seats, then no owner.
        part("intersections", ni * int_pieces.len() * (p + 1));
        part("paths", np * path_pieces.len() * (p + 1));
        part("hexes", nh * (spec.terrains.len() + 1 + markers.len()));
        part("zones", global_zones * (nc + 1));
        part("players", p * (player_zones * (nc + 1) + 1 + spec.pieces.len() + 2));
        part("grids", grid_slots.iter().sum::<usize>() * (nc + 1));
        part("game", 2 + PHASE_BUCKETS);
        ObsLayout { size: at, parts, players: p, int_pieces, path_pieces, markers, grid_slots, cards: nc }
    }

    fn encode(&self, game: &Game, seat: usize) -> Vec<f32> {
        let spec = game.inner.spec().clone();
        let p = self.players;
        // Asked of the rules before the state is borrowed (the rules borrow it too).
        let over = game.inner.winner().is_some();
        let to_act = if over { None } else { game.inner.to_act().ok() };
        let points: Vec<f32> = (0..p).map(|s| game.inner.points(s, s == seat).unwrap_or(0) as f32).collect();
        let st = game.inner.state();
        let rel = |owner: Option<usize>| owner.map_or(p, |o| (o + p - seat) % p);
        let mut v = vec![0f32; self.size];
        let mut at = 0;
        let obs = Observer::Seat(seat);
        for (sites, kinds) in [(&st.intersections, &self.int_pieces), (&st.paths, &self.path_pieces)] {
            let width = kinds.len() * (p + 1);
            for (i, piece) in sites.iter().enumerate() {
                if let Some(pc) = piece {
                    if let Some(k) = kinds.iter().position(|&k| k == pc.kind as usize) {
                        let r = rel(pc.seat()).min(p);
                        v[at + i * width + k * (p + 1) + r] = 1.0;
                    }
                }
            }
            at += sites.len() * width;
        }
        let nt = spec.terrains.len();
        let hw = nt + 1 + self.markers.len();
        for (i, h) in st.hexes.iter().enumerate() {
            if let Some(x) = v.get_mut(at + i * hw + h.terrain as usize) {
                *x = 1.0;
            }
            v[at + i * hw + nt] = h.number.map_or(0.0, |n| n as f32 / 12.0);
        }
        for (m, name) in self.markers.iter().enumerate() {
            if let Some(&h) = st.markers.get(name) {
                if h < st.hexes.len() {
                    v[at + h * hw + nt + 1 + m] = 1.0;
                }
            }
        }
        at += st.hexes.len() * hw;
        let nc = self.cards;
        let zone = |v: &mut Vec<f32>, at: &mut usize, z: &Zone, vis: Visibility, owner: Option<usize>| {
            if catan_engine::view::can_see(vis, owner, obs) {
                for k in 0..nc {
                    v[*at + k] = z.count(k) as f32;
                }
            }
            v[*at + nc] = z.total() as f32;
            *at += nc + 1;
        };
        for (z, zs) in spec.zones.iter().enumerate() {
            if !zs.per_player {
                zone(&mut v, &mut at, &st.zones[z], zs.visibility, None);
            }
        }
        let current = st.current;
        for r in 0..p {
            let s = (seat + r) % p;
            let pl = &st.players[s];
            for (z, zs) in spec.zones.iter().enumerate() {
                if zs.per_player {
                    zone(&mut v, &mut at, &pl.zones[z], zs.visibility, Some(s));
                }
            }
            v[at] = points[s];
            at += 1;
            for k in 0..spec.pieces.len() {
                v[at + k] = pl.supply.get(k).copied().unwrap_or(0) as f32;
            }
            at += spec.pieces.len();
            v[at] = f32::from(u8::from(current == s));
            v[at + 1] = f32::from(u8::from(to_act == Some(s)));
            at += 2;
        }
        for (g, &n) in st.grids.iter().zip(&self.grid_slots) {
            for s in &g.slots {
                let i = s.row as usize * g.cols as usize + s.col as usize;
                if i < n {
                    for &c in &s.cards {
                        if let Some(x) = v.get_mut(at + i * (nc + 1) + c as usize) {
                            *x += 1.0;
                        }
                    }
                    v[at + i * (nc + 1) + nc] = s.store as f32;
                }
            }
            at += n * (nc + 1);
        }
        // Grids that appeared since the start are not encoded; the layout stays fixed.
        let at = self.size - (2 + PHASE_BUCKETS);
        v[at] = st.turn as f32 / 100.0;
        v[at + 1] = match st.winner {
            Some(w) if w == seat => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        // The phase by a fixed hash of its name (FNV-1a), the same on every run.
        let h = st.phase.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        v[at + 2 + (h % PHASE_BUCKETS as u64) as usize] = 1.0;
        v
    }
}
