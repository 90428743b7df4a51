//! What a bot's evaluation reads of the rules at a position (`Script::terms`): each
//! seat's victory points, its `evaluate` and its named features, computed by the
//! prelude's `engine.seat_terms` one seat at a time and kept by the engine while nothing
//! they read changes (`Ctx::term_rows`), across restores.

use super::error::{ScriptError, ScriptErrorKind};
use super::{api_fast, ctx, ffi, lua_str, Script};
use mlua::Table;
use std::rc::Rc;

/// One seat's terms as the rules computed them (`Script::terms`), kept by the engine while
/// nothing they read changes (`Ctx::term_rows`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SeatTerms {
    points: f64,
    evaluate: Option<f64>,
    /// The named features, by their number in `TermNames`; None when not asked or not
    /// declared.
    named: Option<Vec<(u32, f64)>>,
}

/// The names of the named features seen so far, numbered as first seen, and sorted.
#[derive(Default)]
pub(super) struct TermNames {
    ids: rustc_hash::FxHashMap<Box<[u8]>, u32>,
    sorted: Rc<[String]>,
    /// Each number's place in `sorted`.
    place: Vec<usize>,
}

impl TermNames {
    /// The number of the name `name` (a Lua string's bytes), given one if it is new.
    fn id(&mut self, name: &[u8]) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(name.into(), id);
        let mut names: Vec<(&[u8], u32)> = self.ids.iter().map(|(k, &v)| (&**k, v)).collect();
        // In the order of their bytes, as Lua compares names.
        names.sort();
        self.place = vec![0; names.len()];
        for (i, (_, id)) in names.iter().enumerate() {
            self.place[*id as usize] = i;
        }
        self.sorted = names.into_iter().map(|(k, _)| String::from_utf8_lossy(k).into_owned()).collect();
        id
    }
}

/// What a tuned evaluation reads of the rules at one position (`Script::terms`), in one
/// call into Lua.
#[derive(Debug, Clone)]
pub struct Terms {
    /// Each seat's victory points, hidden ones included.
    pub points: Vec<f64>,
    /// Each seat's `evaluate` filter, when asked.
    pub evaluate: Option<Vec<f64>>,
    /// The named features' names (the `features` filter's keys seen so far, sorted)...
    pub names: Rc<[String]>,
    /// ... and each seat's values, `[seat * names.len() + i]` (0 where a seat's table
    /// lacks a name); empty when not asked or not declared.
    pub named: Vec<f64>,
}

impl Script {
    /// The `evaluate` filter for every seat (victory points without one), for bots.
    pub fn evaluate(&self) -> Result<Vec<f64>, ScriptError> {
        Ok(self.terms(true, false)?.evaluate.unwrap_or_default())
    }

    /// Each seat's victory points, and its `evaluate` and named features when asked, in
    /// one call: what a tuned evaluation reads at every position it scores, without the
    /// tables of names `features` builds.
    pub fn terms(&self, with_evaluate: bool, with_features: bool) -> Result<Terms, ScriptError> {
        let n = self.state().players.len();
        // Each seat's terms are kept apart, by what was asked.
        let key = |s: usize| 4 * s + 2 * usize::from(with_evaluate) + usize::from(with_features);
        let mut rows = Vec::with_capacity(n);
        // The number of this position, which shares one scratch table among its seats.
        let position = self.term_positions.get() + 1;
        self.term_positions.set(position);
        for s in 0..n {
            let kept = self.ctx.borrow().as_ref().and_then(|c| c.term_rows.borrow_mut().good(c, key(s), |_| true));
            if kept.is_some() {
                if let Some(slot) = self.lua.app_data_ref::<api_fast::FastSlot>() {
                    slot.kept.set(slot.kept.get() + 1);
                }
            }
            let row = match kept {
                Some(row) if !cfg!(debug_assertions) => row,
                kept => {
                    if kept.is_none() {
                        self.term_computations.set(self.term_computations.get() + 1);
                    }
                    let (row, read) = self.seat_terms(s, with_evaluate, with_features, position)?;
                    match (kept, read) {
                        // Debug builds compute a kept row again: a write that did not
                        // stamp what it changed, or a read left unrecorded, shows here.
                        (Some(kept), _) if kept != row => {
                            return Err(ScriptError::new(
                                ScriptErrorKind::Runtime,
                                "a seat's terms kept while nothing they read changed differ from the position's: a write that did not stamp what it changed, or a read left unrecorded".to_string(),
                            ))
                        }
                        (Some(kept), _) => kept,
                        (None, Some(read)) => {
                            if let Some(c) = self.ctx.borrow().as_ref() {
                                c.term_rows.borrow_mut().keep(c, key(s), read, row.clone());
                            }
                            row
                        }
                        (None, None) => row,
                    }
                }
            };
            rows.push(row);
        }
        let names = self.term_names.borrow();
        let len = names.sorted.len();
        let mut named = Vec::new();
        if rows.iter().all(|r| r.named.is_some()) {
            named = vec![0.0; n * len];
            for (s, row) in rows.iter().enumerate() {
                for &(id, x) in row.named.iter().flatten() {
                    named[s * len + names.place[id as usize]] = x;
                }
            }
        }
        Ok(Terms {
            points: rows.iter().map(|r| r.points).collect(),
            evaluate: with_evaluate.then(|| rows.iter().map(|r| r.evaluate.unwrap_or(0.0)).collect()),
            names: names.sorted.clone(),
            named,
        })
    }

    /// Seat `s`'s terms computed by the rules (the prelude's `seat_terms`), and what
    /// computing them read (None: they wrote). `scratch` is the table the seats of one
    /// position share, made at the first seat computed.
    fn seat_terms(
        &self,
        s: usize,
        with_evaluate: bool,
        with_features: bool,
        position: u64,
    ) -> Result<(Rc<SeatTerms>, Option<ctx::ReadSet>), ScriptError> {
        let bad = |what: &str| ScriptError::new(ScriptErrorKind::Runtime, what.to_string());
        // The features filter's table is made with room for the names seen so far.
        let room = with_features.then(|| self.term_names.borrow().sorted.len());
        let args = (self.g.clone(), s + 1, with_evaluate, room, position);
        let ((points, evaluate, features), read) =
            self.ask_recording::<(f64, Option<f64>, Option<Table>)>(false, "seat_terms", args, true)?;
        if !points.is_finite() || evaluate.is_some_and(|x| !x.is_finite()) {
            return Err(bad("the evaluate filter must return a finite number for every seat"));
        }
        let named = match features {
            None => None,
            Some(f) => match self.named_of(&f) {
                Some(named) if named.iter().all(|(_, x)| x.is_finite()) => Some(named),
                Some(_) => return Err(bad("the features filter must give finite numbers")),
                // Refused with the words `features` refuses it with (the first such key
                // in sorted order).
                None => {
                    return Err(self
                        .features()
                        .err()
                        .unwrap_or_else(|| bad("the features filter returned a key or a value it may not")))
                }
            },
        };
        Ok((Rc::new(SeatTerms { points, evaluate, named }), read))
    }

    /// A seat's named features (the table its `features` filter filled): each field's
    /// number among the names seen (`TermNames`) and its value; None at a field that is
    /// not a name with a number. Read off the Lua stack: mlua's walk of a table makes a
    /// value of each key and each field, several times the cost of the rest of a seat's
    /// terms around them.
    fn named_of(&self, f: &Table) -> Option<Vec<(u32, f64)>> {
        let mut names = self.term_names.borrow_mut();
        // SAFETY: walks `f` with lua_next from nil, which raises on no key it gave itself;
        // reads strings and numbers in place (nothing converted, nothing allocated by Lua).
        self.on_stack(f, |l, t| unsafe {
            let mut out = Vec::new();
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, t) != 0 {
                if ffi::lua_type(l, -2) != ffi::LUA_TSTRING || ffi::lua_type(l, -1) != ffi::LUA_TNUMBER {
                    return None;
                }
                let x = ffi::lua_tonumberx(l, -1, std::ptr::null_mut());
                out.push((names.id(lua_str(l, -2)), x));
                ffi::lua_settop(l, -2);
            }
            // By number: a table's walk follows how it was built, not what it holds.
            out.sort_by_key(|&(id, _)| id);
            Some(out)
        })
    }
}
