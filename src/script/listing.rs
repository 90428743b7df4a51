//! The actions a listing gives (`Script::legal_actions`) and a draw's option, read from
//! the Lua values the rules return: the usual entries straight off the Lua stack, the rest
//! through mlua, which names what is wrong.

use super::error::{ScriptError, ScriptErrorKind};
use super::{api, ffi, lua_err, lua_str, Script};
use crate::action::{Action, Arg};
use crate::spec::{ActionSpec, ArgType};
use mlua::Table;

impl Script {
    /// An option the rules listed (or `sample` drew, `sampled`) that is not the action's
    /// arguments: named with the action and the line of the function that gave it
    /// (`action_from_lua` leaves the action's name in `rule`).
    pub(super) fn in_options(&self, mut e: ScriptError, sampled: bool) -> ScriptError {
        if let Some(name) = e.rule.take() {
            let at = self.call::<(Option<String>, Option<String>)>("options_at", (name.as_str(), sampled));
            (e.location, e.variant) = at.unwrap_or_default();
            e.rule = Some(format!("action '{name}'"));
        }
        e
    }

    /// The actions of a listing (`{ name, args }` entries), read off the Lua stack: mlua's
    /// reads made a value of every entry, name and argument, about a third of a listing's
    /// cost. None for anything but the usual entries (an action of this game and its
    /// option as a draw's is read, `raw_option`): `action_from_lua` then reads it all, and
    /// names what is wrong.
    pub(super) fn listing_raw(&self, list: &Table) -> Option<Vec<Action>> {
        // SAFETY: reads with raw gets (which never raise) from `list` and the tables in it,
        // strings and numbers in place (nothing converted, nothing allocated by Lua).
        self.on_stack(list, |l, listed| unsafe {
            let n = ffi::lua_rawlen(l, listed);
            let mut out = Vec::with_capacity(n);
            for i in 1..=n {
                ffi::lua_settop(l, listed);
                if ffi::lua_rawgeti(l, listed, i as ffi::lua_Integer) != ffi::LUA_TTABLE {
                    return None;
                }
                let entry = listed + 1;
                if ffi::lua_rawgeti(l, entry, 1) != ffi::LUA_TSTRING {
                    return None;
                }
                let spec = self.spec.action(std::str::from_utf8(lua_str(l, -1)).ok()?)?;
                ffi::lua_rawgeti(l, entry, 2);
                let args = raw_option(l, spec, entry + 2)?;
                out.push(Action { name: spec.name.clone(), args });
            }
            Some(out)
        })
    }

    pub(super) fn action_from_lua(&self, name: String, args: mlua::Value) -> Result<Action, ScriptError> {
        let spec = self.spec.action(&name).ok_or_else(|| {
            ScriptError::new(ScriptErrorKind::Runtime, format!("legal actions listed unknown action '{name}'"))
        })?;
        // Most actions a bot draws take no argument (roll, end): nothing to convert.
        if spec.arg_types().next().is_none() {
            return Ok(Action { name, args: vec![] });
        }
        let types: Vec<ArgType> = spec.arg_types().collect();
        // One argument may be given bare; several come as a list.
        let values: Vec<mlua::Value> = match (&args, types.len()) {
            (_, 0) => vec![],
            (mlua::Value::Table(t), 1) if types[0] != ArgType::Cards => {
                vec![t.raw_get(1).map_err(lua_err)?]
            }
            (_, 1) => vec![args.clone()],
            (mlua::Value::Table(t), n) => (1..=n).map(|i| t.raw_get(i)).collect::<Result<_, _>>().map_err(lua_err)?,
            _ => {
                return Err(ScriptError {
                    rule: Some(name.clone()),
                    ..ScriptError::new(
                        ScriptErrorKind::Runtime,
                        format!("options of '{name}' must be lists of {} arguments", types.len()),
                    )
                })
            }
        };
        let mut out = Vec::with_capacity(types.len());
        for (t, v) in types.iter().zip(values) {
            out.push(api::arg_from_lua(&self.lua, *t, &v).map_err(|e| ScriptError {
                rule: Some(name.clone()),
                ..ScriptError::new(ScriptErrorKind::Runtime, format!("bad option for '{name}': {e}"))
            })?);
        }
        Ok(Action { name, args: out })
    }
}

/// The arguments of a drawn option of action `spec` (at stack index `at`, absolute), read
/// off the stack as `Script::action_from_lua` reads them (one argument bare or in a list,
/// several in a list), cards included: None for anything out of the ordinary, which
/// `action_from_lua` then judges and names (a listing is then read through mlua;
/// `Script::play` takes the two calls).
///
/// # Safety
/// `at` is an absolute index of the stack; reads with raw gets, which never raise.
pub(super) unsafe fn raw_option(l: *mut ffi::lua_State, spec: &ActionSpec, at: std::ffi::c_int) -> Option<Vec<Arg>> {
    let types = spec.arg_types().count();
    if types == 0 || ffi::lua_checkstack(l, 4) == 0 {
        return (types == 0).then(Vec::new);
    }
    let listed = ffi::lua_type(l, at) == ffi::LUA_TTABLE;
    let mut args = Vec::with_capacity(types);
    for (k, t) in spec.arg_types().enumerate() {
        let one = |i| if t == ArgType::Cards { api::raw_cards(l, i).map(Arg::Cards) } else { raw_arg(l, t, i) };
        let arg = match (types, t) {
            // A lone cards argument is the table itself.
            (1, ArgType::Cards) => one(at),
            (1, _) if !listed => one(at),
            _ if listed => {
                ffi::lua_rawgeti(l, at, k as ffi::lua_Integer + 1);
                let arg = one(ffi::lua_gettop(l));
                ffi::lua_settop(l, -2);
                arg
            }
            _ => None,
        };
        args.push(arg?);
    }
    Some(args)
}

/// An argument of a listed action at `i` of the stack, read as `api::arg_from_lua` reads
/// it; None for anything else (cards, a value of the wrong type), which it then judges.
///
/// # Safety
/// `i` is an index of the stack.
unsafe fn raw_arg(l: *mut ffi::lua_State, t: ArgType, i: std::ffi::c_int) -> Option<Arg> {
    let id = || -> Option<usize> {
        let mut ok = 0;
        let n = ffi::lua_tointegerx(l, i, &mut ok);
        (ffi::lua_type(l, i) == ffi::LUA_TNUMBER && ok != 0 && n >= 1).then(|| n as usize - 1)
    };
    let text = || -> Option<String> {
        (ffi::lua_type(l, i) == ffi::LUA_TSTRING).then(|| std::str::from_utf8(lua_str(l, i)).ok().map(String::from))?
    };
    Some(match t {
        ArgType::Intersection => Arg::Intersection(id()?),
        ArgType::Path => Arg::Path(id()?),
        ArgType::Hex => Arg::Hex(id()?),
        ArgType::Player => Arg::Player(id()?),
        ArgType::Int => {
            Arg::Int((ffi::lua_isinteger(l, i) != 0).then(|| ffi::lua_tointegerx(l, i, std::ptr::null_mut()))?)
        }
        ArgType::Resource => Arg::Resource(text()?),
        ArgType::Word => Arg::Word(text()?),
        ArgType::Slot => Arg::Slot(text()?.to_ascii_uppercase()),
        ArgType::Cards => return None,
    })
}
