//! How a `g:` method is declared: once, with its arguments and their types, its charge and
//! its rule, in the `methods!` list of its area (`api_*.rs`). From that one declaration come
//! both ways of calling it:
//!
//! - the mlua function (`slow`): arguments converted by mlua, `CALL_COST` charged, the
//!   rule run on the `Ctx` in the app data, every error raised with the script's file:line
//!   (`api::locate`). It is the reference: it answers everything, errors included.
//! - for a method declared `fast`, a raw Lua C function over it: the arguments read straight
//!   off the Lua stack (`Arg::raw`), the same rule run on the `Ctx` the `FastSlot` points
//!   at, its results pushed onto the stack and its charges spent at once. Anything out of
//!   the ordinary (an argument it does not read, an error, the budget or the host memory
//!   running out) hands the call to the mlua function with the stack as it came, which
//!   charges and raises for itself. An mlua callback costs about 700 machine instructions
//!   of glue around a few dozen of work; the C function, about a fifth of that.
//!
//! The rule is a function of a `Call` (the meter and the results, `SlowCall` or `FastCall`),
//! the context and the typed arguments. It charges through `Call::charge`/`alloc`, pushes
//! its results through `Call::int`, `str`, `table`, ..., and a method that changes the
//! state (`set`) checks everything it could refuse first, then calls `Call::commit`, after
//! which it changes the state and cannot fail: so the C function does all the method does
//! or nothing, and hands over.
//!
//! While the C function runs, nothing owning memory (a `String`, a `Vec`) may be alive in
//! a frame when a push may raise (a Lua allocation failing unwinds by `longjmp`): a rule
//! builds its results from borrowed data, as the state's own names and lists are.
//!
//! Declaring a method: `speed kind "name" (m, c; arg: Type, ...) { rule }` in an area's
//! `methods!` list, where speed is `fast` (both ways) or `slow` (the mlua function alone:
//! rare calls, or arguments only mlua reads: tables to walk, lists of values), and kind is
//! `get` (reads: `c: &Ctx`), `set` (writes: `c: &mut Ctx`, refused while legal actions are
//! listed, the state stamped changed) or `note` (`c: &mut Ctx` for the call's own output,
//! allowed while listing: `_record`).

use super::api::{ctx, locate, writable, CALL_COST, R};
use super::api_fast::{hand_over, int_arg, is_nil, push_str, push_value, slot_and_top, str_arg, FastSlot};
use super::{Ctx, Meter};
use crate::value::Value;
use mlua::{ffi, Function, Lua, MultiValue, Table, Value as LV};
use std::ffi::{c_int, CStr};

#[cfg(debug_assertions)]
thread_local! {
    /// The methods whose C function answered on this thread since `record_fast_answers`
    /// started recording (debug builds only).
    static ANSWERED: std::cell::RefCell<Option<std::collections::BTreeSet<&'static str>>> =
        const { std::cell::RefCell::new(None) };
}

/// Starts (`true`) or stops recording which `g:` methods' C functions answer on this
/// thread, and gives what was recorded so far: how `tests/api_methods.rs` knows a method
/// was answered by its C function. Debug builds only (a release build records nothing).
#[doc(hidden)]
pub fn record_fast_answers(on: bool) -> Vec<&'static str> {
    #[cfg(debug_assertions)]
    {
        ANSWERED.with(|a| {
            let was = a.replace(on.then(Default::default));
            was.map(|set| set.into_iter().collect()).unwrap_or_default()
        })
    }
    #[cfg(not(debug_assertions))]
    {
        let _ = on;
        Vec::new()
    }
}

/// One method of `g`, as its area's `methods!` list declares it.
pub(super) struct Method {
    pub name: &'static str,
    /// Makes the mlua function (every method has one).
    pub slow: fn(&Lua) -> R<Function>,
    /// The raw C function, for a method declared `fast`.
    pub fast: Option<ffi::lua_CFunction>,
}

/// The error a `FastCall` gives to hand the call over; never raised.
pub(super) fn hand_it_over() -> mlua::Error {
    mlua::Error::StackError
}

/// What a method's rule charges and answers through: the mlua function's meter and results
/// (`SlowCall`), or the C function's (`FastCall`).
pub(super) trait Call {
    /// `units` of work beyond the call itself.
    fn charge(&mut self, units: u64) -> R<()>;
    /// `bytes` of host memory the call holds.
    fn alloc(&mut self, bytes: usize) -> R<()>;
    /// A writer has checked all it could refuse: from here it changes the state and cannot
    /// fail. The C function spends its charges here (or hands over) and stamps the state
    /// changed; the mlua function did both as it went.
    fn commit(&mut self, c: &mut Ctx) -> R<()>;
    /// The budget used by this call into the rules so far, this call's own cost left out.
    fn used(&self) -> u64;
    /// The Lua state, for the mlua function alone (methods declared `slow`).
    fn lua(&self) -> Option<&Lua>;

    fn nil(&mut self) -> R<()>;
    fn int(&mut self, n: i64) -> R<()>;
    fn bool(&mut self, b: bool) -> R<()>;
    /// A name or text (the C function pushes it through Lua's string cache: names come
    /// from the same Rust strings each time).
    fn str(&mut self, s: &str) -> R<()>;
    /// A stored value, tables as `api::to_lua_value` makes them.
    fn value(&mut self, v: &Value) -> R<()>;
    /// A Lua value made by mlua (`slow` methods only).
    fn lua_value(&mut self, v: LV) -> R<()>;
    /// A new table with room for `narr` list entries and `nrec` fields.
    fn table(&mut self, narr: usize, nrec: usize) -> R<()>;
    /// Pops a value into entry `i` of the table below it.
    fn seti(&mut self, i: i64) -> R<()>;
    /// Pops a value into field `k` of the table below it.
    fn setfield(&mut self, k: &'static CStr) -> R<()>;
    /// Pops a key and a value (pushed in that order) into the table below them.
    fn rawset(&mut self) -> R<()>;

    /// An integer, or nil.
    fn opt_int(&mut self, n: Option<i64>) -> R<()> {
        match n {
            Some(n) => self.int(n),
            None => self.nil(),
        }
    }
    /// A name, or nil.
    fn opt_str(&mut self, s: Option<&str>) -> R<()> {
        match s {
            Some(s) => self.str(s),
            None => self.nil(),
        }
    }
    /// The 1-based ids of `0..n` that `keep` accepts, as a list made at its size: counted
    /// first, so that no memory is held while it is filled (as a C function's answers must
    /// be). `count` is how many `keep` accepts.
    fn ids_where(&mut self, n: usize, count: usize, keep: impl Fn(usize) -> bool) -> R<()> {
        self.table(count, 0)?;
        let mut k = 0;
        for i in (0..n).filter(|&i| keep(i)) {
            k += 1;
            self.int(i as i64 + 1)?;
            self.seti(k)?;
        }
        Ok(())
    }
    /// A list of engine ids as 1-based ids.
    fn ids(&mut self, ids: &[usize]) -> R<()> {
        self.table(ids.len(), 0)?;
        for (i, id) in ids.iter().enumerate() {
            self.int(*id as i64 + 1)?;
            self.seti(i as i64 + 1)?;
        }
        Ok(())
    }
}

/// The mlua function's side: charges raise where they are made; results are built as mlua
/// values on a little stack of their own.
pub(super) struct SlowCall<'l> {
    lua: &'l Lua,
    stack: Vec<LV>,
}

impl<'l> SlowCall<'l> {
    pub(super) fn new(lua: &'l Lua) -> Self {
        SlowCall { lua, stack: Vec::new() }
    }

    pub(super) fn results(self) -> MultiValue {
        MultiValue::from_vec(self.stack)
    }

    fn pop(&mut self) -> R<LV> {
        self.stack.pop().ok_or_else(|| mlua::Error::runtime("a method popped an empty stack"))
    }

    fn top_table(&self) -> R<&Table> {
        match self.stack.last() {
            Some(LV::Table(t)) => Ok(t),
            _ => Err(mlua::Error::runtime("a method set an entry of no table")),
        }
    }
}

impl Call for SlowCall<'_> {
    fn charge(&mut self, units: u64) -> R<()> {
        super::charge(self.lua, units)
    }
    fn alloc(&mut self, bytes: usize) -> R<()> {
        super::alloc(self.lua, bytes)
    }
    fn commit(&mut self, _c: &mut Ctx) -> R<()> {
        Ok(())
    }
    fn used(&self) -> u64 {
        let used = self.lua.app_data_ref::<Meter>().map_or(0, |m| m.budget.used.get());
        // SAFETY: reads a counter of the Lua state; touches no stack slot.
        let pending = self.lua.exec_raw_lua(|raw| unsafe { super::lua_pendingcharge(raw.state()) });
        (used + pending.max(0) as u64).saturating_sub(CALL_COST)
    }
    fn lua(&self) -> Option<&Lua> {
        Some(self.lua)
    }
    fn nil(&mut self) -> R<()> {
        self.stack.push(LV::Nil);
        Ok(())
    }
    fn int(&mut self, n: i64) -> R<()> {
        self.stack.push(LV::Integer(n));
        Ok(())
    }
    fn bool(&mut self, b: bool) -> R<()> {
        self.stack.push(LV::Boolean(b));
        Ok(())
    }
    fn str(&mut self, s: &str) -> R<()> {
        let s = self.lua.create_string(s)?;
        self.stack.push(LV::String(s));
        Ok(())
    }
    fn value(&mut self, v: &Value) -> R<()> {
        let v = super::api::to_lua_value(self.lua, v)?;
        self.stack.push(v);
        Ok(())
    }
    fn lua_value(&mut self, v: LV) -> R<()> {
        self.stack.push(v);
        Ok(())
    }
    fn table(&mut self, narr: usize, nrec: usize) -> R<()> {
        let t = self.lua.create_table_with_capacity(narr, nrec)?;
        self.stack.push(LV::Table(t));
        Ok(())
    }
    fn seti(&mut self, i: i64) -> R<()> {
        let v = self.pop()?;
        self.top_table()?.raw_set(i, v)
    }
    fn setfield(&mut self, k: &'static CStr) -> R<()> {
        let v = self.pop()?;
        let k = k.to_str().map_err(|_| mlua::Error::runtime("a field name is not UTF-8"))?;
        self.top_table()?.raw_set(k, v)
    }
    fn rawset(&mut self) -> R<()> {
        let v = self.pop()?;
        let k = self.pop()?;
        self.top_table()?.raw_set(k, v)
    }
}

/// The C function's side: charges add up to be spent at once (`FastSlot::spend`), results
/// go straight onto the Lua stack.
pub(super) struct FastCall<'s> {
    l: *mut ffi::lua_State,
    slot: &'s FastSlot,
    extra: u64,
    bytes: usize,
    /// The values pushed and left on the stack: the results (counted here rather than
    /// asked of Lua, a call saved on every call).
    pushed: c_int,
    /// `commit` spent the charges (a writer).
    committed: bool,
    /// `commit` stamps the state changed (`set`; not `note`).
    touch: bool,
}

impl FastCall<'_> {
    /// The rule left its `n` results on top of the stack itself, over what it walked
    /// through (`g:cached`'s hit: Lua takes the top `n` as the results).
    pub(super) fn left(&mut self, n: c_int) {
        self.pushed = -n;
    }
}

impl Call for FastCall<'_> {
    #[inline]
    fn charge(&mut self, units: u64) -> R<()> {
        self.extra = self.extra.saturating_add(units);
        Ok(())
    }
    #[inline]
    fn alloc(&mut self, bytes: usize) -> R<()> {
        self.bytes = self.bytes.saturating_add(bytes);
        Ok(())
    }
    #[inline]
    fn commit(&mut self, c: &mut Ctx) -> R<()> {
        if !self.slot.spend(self.extra, self.bytes) {
            return Err(hand_it_over());
        }
        self.committed = true;
        if self.touch {
            c.touch(); // whatever `g:cached` derived from the state is stale now
        }
        Ok(())
    }
    fn used(&self) -> u64 {
        // SAFETY: reads a counter of the Lua state.
        self.slot.budget.used.get() + unsafe { super::lua_pendingcharge(self.l) }.max(0) as u64
    }
    fn lua(&self) -> Option<&Lua> {
        None
    }
    #[inline]
    fn nil(&mut self) -> R<()> {
        unsafe { ffi::lua_pushnil(self.l) };
        self.pushed += 1;
        Ok(())
    }
    #[inline]
    fn int(&mut self, n: i64) -> R<()> {
        unsafe { ffi::lua_pushinteger(self.l, n) };
        self.pushed += 1;
        Ok(())
    }
    #[inline]
    fn bool(&mut self, b: bool) -> R<()> {
        unsafe { ffi::lua_pushboolean(self.l, b as c_int) };
        self.pushed += 1;
        Ok(())
    }
    #[inline]
    fn str(&mut self, s: &str) -> R<()> {
        unsafe { push_str(self.l, s) };
        self.pushed += 1;
        Ok(())
    }
    #[inline]
    fn value(&mut self, v: &Value) -> R<()> {
        unsafe { push_value(self.l, v, 0) }.ok_or_else(hand_it_over)?;
        self.pushed += 1;
        Ok(())
    }
    fn lua_value(&mut self, _v: LV) -> R<()> {
        Err(hand_it_over())
    }
    #[inline]
    fn table(&mut self, narr: usize, nrec: usize) -> R<()> {
        unsafe {
            ffi::lua_createtable(self.l, narr.min(c_int::MAX as usize) as c_int, nrec.min(c_int::MAX as usize) as c_int)
        };
        self.pushed += 1;
        Ok(())
    }
    #[inline]
    fn seti(&mut self, i: i64) -> R<()> {
        unsafe { ffi::lua_rawseti(self.l, -2, i) };
        self.pushed -= 1;
        Ok(())
    }
    #[inline]
    fn setfield(&mut self, k: &'static CStr) -> R<()> {
        unsafe { ffi::lua_setfield(self.l, -2, k.as_ptr()) };
        self.pushed -= 1;
        Ok(())
    }
    #[inline]
    fn rawset(&mut self) -> R<()> {
        unsafe { ffi::lua_rawset(self.l, -3) };
        self.pushed -= 2;
        Ok(())
    }
}

/// The kinds of method, by what the rule may do to the context.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    /// Reads.
    Get,
    /// Writes the state: refused while legal actions are listed, the state stamped changed.
    Set,
    /// Writes the call's own output (events), allowed while listing.
    Note,
}

/// The C function's body: the rule, run on the context; Some when it answered (its
/// results pushed), None to hand over. `Kind::Get` rules get the context as `&Ctx`.
///
/// No `lua_checkstack`: Lua calls a C function with `LUA_MINSTACK` (20) free slots, and a
/// rule holds at most four values above its arguments at a time (its loops push and store
/// in turn); the recursive walks (`push_value`, `table_value`) check each level.
#[inline(always)]
pub(super) unsafe fn run_fast(
    l: *mut ffi::lua_State,
    kind: Kind,
    name: &'static str,
    f: impl FnOnce(&mut Ctx, &mut FastCall<'_>) -> Option<()>,
) -> c_int {
    let (slot, top) = slot_and_top(l);
    let ctx = slot.ctx.get();
    if !ctx.is_null() && !slot.slow_only.get() && (kind != Kind::Set || !(*ctx).read_only) {
        let mut call = FastCall { l, slot, extra: 0, bytes: 0, pushed: 0, committed: false, touch: kind == Kind::Set };
        let recording = kind == Kind::Get && (*ctx).recording();
        if recording {
            (*ctx).before_get();
        }
        let answered = f(&mut *ctx, &mut call).is_some();
        // (Handed over, the mlua function records the call itself.)
        if recording && answered {
            (*ctx).after_get();
        }
        if answered && (call.committed || slot.spend(call.extra, call.bytes)) {
            #[cfg(debug_assertions)]
            ANSWERED.with(|a| {
                if let Some(set) = a.borrow_mut().as_mut() {
                    set.insert(name);
                }
            });
            #[cfg(not(debug_assertions))]
            let _ = name;
            if call.pushed < 0 {
                return -call.pushed;
            }
            debug_assert_eq!(call.pushed, ffi::lua_gettop(l) - top, "{name}: results miscounted");
            return call.pushed;
        }
        if call.committed {
            // A rule that failed after it changed the state: a bug of the rule, never
            // handed over (the method would act twice).
            ffi::lua_settop(l, top);
            return raise(l, c"a g: method failed after it changed the game");
        }
        ffi::lua_settop(l, top);
    }
    hand_over(l)
}

unsafe fn raise(l: *mut ffi::lua_State, msg: &'static CStr) -> c_int {
    ffi::lua_pushstring(l, msg.as_ptr());
    ffi::lua_error(l)
}

/// The mlua function's body: `CALL_COST`, the arguments (`convert`, which may charge),
/// the context (writable for `Kind::Set`), the rule; errors located at the script's line.
pub(super) fn run_slow<A>(
    lua: &Lua,
    kind: Kind,
    convert: impl FnOnce(&Lua) -> R<A>,
    rule: impl FnOnce(&mut Ctx, &mut SlowCall<'_>, A) -> R<()>,
) -> R<MultiValue> {
    let result = (|| {
        super::charge(lua, CALL_COST)?;
        let args = convert(lua)?;
        let mut call = SlowCall::new(lua);
        {
            let mut c = if kind == Kind::Set { writable(lua)? } else { ctx(lua)? };
            // A getter that says nothing of what it read (`Ctx::read`) read everything.
            let recording = kind == Kind::Get && c.recording();
            if recording {
                c.before_get();
            }
            rule(&mut c, &mut call, args)?;
            if recording {
                c.after_get();
            }
        }
        Ok(call.results())
    })();
    result.map_err(|e| locate(lua, e))
}

/// An argument type of a method: how mlua converts it (`Slow`, then `from_slow`), and how
/// the C function reads it off the stack (`raw`: None for anything out of the ordinary,
/// which the mlua function then judges).
pub(super) trait Arg<'a>: Sized {
    type Slow: mlua::FromLuaMulti;
    fn from_slow(lua: &Lua, v: &'a Self::Slow) -> R<Self>;
    /// # Safety
    /// `i` is an index of the stack of the C function being called.
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self>;
}

impl<'a> Arg<'a> for i64 {
    type Slow = i64;
    fn from_slow(_: &Lua, v: &i64) -> R<Self> {
        Ok(*v)
    }
    #[inline]
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        int_arg(l, i)
    }
}

macro_rules! narrow_ints {
    ($($t:ty),*) => {$(
        impl<'a> Arg<'a> for $t {
            type Slow = $t;
            fn from_slow(_: &Lua, v: &$t) -> R<Self> {
                Ok(*v)
            }
            #[inline]
            unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
                <$t>::try_from(int_arg(l, i)?).ok()
            }
        }
        impl<'a> Arg<'a> for Option<$t> {
            type Slow = Option<$t>;
            fn from_slow(_: &Lua, v: &Option<$t>) -> R<Self> {
                Ok(*v)
            }
            #[inline]
            unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
                match int_arg(l, i) {
                    Some(n) => Some(Some(<$t>::try_from(n).ok()?)),
                    None if is_nil(l, i) => Some(None),
                    None => None,
                }
            }
        }
    )*};
}
narrow_ints!(u8, u16, u32);

/// A seat or nil (the owner of a zone or grid), an optional count.
impl<'a> Arg<'a> for Option<i64> {
    type Slow = Option<i64>;
    fn from_slow(_: &Lua, v: &Option<i64>) -> R<Self> {
        Ok(*v)
    }
    #[inline]
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        // A seat first: one call into Lua for the usual owner, two for nil.
        match int_arg(l, i) {
            Some(p) => Some(Some(p)),
            None if is_nil(l, i) => Some(None),
            None => None,
        }
    }
}

impl<'a> Arg<'a> for &'a str {
    type Slow = String;
    fn from_slow(_: &Lua, v: &'a String) -> R<Self> {
        Ok(v.as_str())
    }
    #[inline]
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        str_arg(l, i)
    }
}

impl<'a> Arg<'a> for Option<&'a str> {
    type Slow = Option<String>;
    fn from_slow(_: &Lua, v: &'a Option<String>) -> R<Self> {
        Ok(v.as_deref())
    }
    #[inline]
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        match str_arg(l, i) {
            Some(s) => Some(Some(s)),
            None if is_nil(l, i) => Some(None),
            None => None,
        }
    }
}

impl<'a> Arg<'a> for Option<bool> {
    type Slow = Option<bool>;
    fn from_slow(_: &Lua, v: &Option<bool>) -> R<Self> {
        Ok(*v)
    }
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        match ffi::lua_type(l, i) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Some(None),
            ffi::LUA_TBOOLEAN => Some(Some(ffi::lua_toboolean(l, i) != 0)),
            _ => None,
        }
    }
}

/// Arguments only mlua reads (methods declared `slow`): a table, a list, any value.
macro_rules! slow_only_args {
    ($($t:ty),*) => {$(
        impl<'a> Arg<'a> for $t {
            type Slow = $t;
            fn from_slow(_: &Lua, v: &$t) -> R<Self> {
                Ok(v.clone())
            }
            unsafe fn raw(_: *mut ffi::lua_State, _: c_int) -> Option<Self> {
                None
            }
        }
    )*};
}
slow_only_args!(Table, Vec<LV>, Vec<i64>, LV);

/// A number (a draw's place `r`): an integer is read as a float, as Lua would.
impl<'a> Arg<'a> for f64 {
    type Slow = f64;
    fn from_slow(_: &Lua, v: &f64) -> R<Self> {
        Ok(*v)
    }
    #[inline]
    unsafe fn raw(l: *mut ffi::lua_State, i: c_int) -> Option<Self> {
        // A number only: a string that reads as one is mlua's to judge.
        (ffi::lua_type(l, i) == ffi::LUA_TNUMBER).then(|| ffi::lua_tonumberx(l, i, std::ptr::null_mut()))
    }
}

/// Declares an area's methods (see the module's text) as `pub(super) const METHODS`.
macro_rules! methods {
    ($(
        $(#[$doc:meta])*
        $speed:ident $kind:ident $name:literal ($m:ident, $c:ident $(; $($a:ident : $t:ty),* $(,)?)?) $body:block
    )*) => {
        pub(super) const METHODS: &[$crate::script::methods::Method] = &[$(
            $crate::script::methods::methods!(@one [$(#[$doc])*] $speed $kind $name ($m, $c; $($($a : $t),*)?) $body)
        ),*];
    };
    (@ctx get) => { &$crate::script::Ctx };
    (@ctx set) => { &mut $crate::script::Ctx };
    (@ctx note) => { &mut $crate::script::Ctx };
    (@kind get) => { $crate::script::methods::Kind::Get };
    (@kind set) => { $crate::script::methods::Kind::Set };
    (@kind note) => { $crate::script::methods::Kind::Note };
    (@fast fast $kind:ident $name:literal ($($a:ident : $t:ty),*)) => {{
        unsafe extern "C-unwind" fn fast(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
            $crate::script::methods::run_fast(
                l,
                $crate::script::methods::methods!(@kind $kind),
                $name,
                #[inline(always)]
                |c, call| {
                    let mut _i: std::ffi::c_int = 1;
                    $(
                        _i += 1;
                        let $a = <$t as $crate::script::methods::Arg>::raw(l, _i)?;
                    )*
                    rule(call, c, $($a),*).ok()
                },
            )
        }
        Some(fast as mlua::ffi::lua_CFunction)
    }};
    (@fast slow $kind:ident $name:literal ($($a:ident : $t:ty),*)) => { None };
    (@one [$(#[$doc:meta])*] $speed:ident $kind:ident $name:literal ($m:ident, $c:ident; $($a:ident : $t:ty),*) $body:block) => {{
        #[allow(unused_variables, unused_mut, clippy::too_many_arguments)]
        $(#[$doc])*
        fn rule<C: $crate::script::methods::Call>(
            $m: &mut C,
            $c: $crate::script::methods::methods!(@ctx $kind),
            $($a: $t),*
        ) -> $crate::script::api::R<()> $body
        fn slow(lua: &mlua::Lua) -> $crate::script::api::R<mlua::Function> {
            lua.create_function(|l: &mlua::Lua, (_g, $($a,)*): (mlua::Value, $(<$t as $crate::script::methods::Arg<'_>>::Slow,)*)| {
                $crate::script::methods::run_slow(
                    l,
                    $crate::script::methods::methods!(@kind $kind),
                    #[allow(clippy::unused_unit)]
                    |_l| Ok(($(<$t as $crate::script::methods::Arg<'_>>::from_slow(_l, &$a)?,)*)),
                    |c, call, ($($a,)*)| rule(call, c, $($a),*),
                )
            })
        }
        $crate::script::methods::Method {
            name: $name,
            slow,
            fast: $crate::script::methods::methods!(@fast $speed $kind $name ($($a : $t),*)),
        }
    }};
}
pub(super) use methods;

/// Puts `methods` on `g`: each one's mlua function, and over it (as upvalue 2, which it
/// hands unusual calls to) its C function when it has one.
pub(super) fn install(lua: &Lua, g: &Table, methods: &[Method]) -> R<()> {
    let slot = super::api_fast::slot_of(lua);
    for m in methods {
        let slow = (m.slow)(lua)?;
        match (m.fast, slot) {
            (Some(fast), Some(slot)) => g.raw_set(m.name, super::api_fast::c_closure(lua, slot, fast, Some(slow))?)?,
            _ => g.raw_set(m.name, slow)?,
        }
    }
    Ok(())
}

/// The methods of every area, in the order `g` gets them.
pub(super) const AREAS: &[&[Method]] = &[
    super::api_turn::METHODS,
    super::api_values::METHODS,
    super::api_cards::METHODS,
    super::api_board::METHODS,
    super::api_pieces::METHODS,
    super::api_production::METHODS,
    super::api::METHODS,
    super::api_slots::METHODS,
];

/// The names of the `g` methods that have a C function as well as their mlua function
/// (declared `fast`), sorted: `tests/api_methods.rs` calls each both ways.
#[doc(hidden)]
pub fn fast_method_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = AREAS.iter().copied().flatten().filter(|m| m.fast.is_some()).map(|m| m.name).collect();
    names.sort_unstable();
    names
}
