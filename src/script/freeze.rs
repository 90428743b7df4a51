//! The rules, fixed once loaded. After the variant stack has loaded, every table the rules
//! can reach is frozen and every variable of the rules' files is sealed, so that nothing a
//! script does during a game changes how the rules behave later: all that changes lives
//! in the game state, which the engine saves, replays and puts back. Without this, an
//! action that changed a rule table (an action's definition, an exported helper, the
//! string metatable) or a file's local and then failed left the change in place, and a
//! `when` that wrote one made a game depend on how often its legal actions were listed.
//!
//! Reached: the globals, the registered hooks and actions, the view of `g` used while
//! listing and the string metatable (handed over by the prelude's `engine.install`); from
//! each table its keys, values and metatable; from each of the rules' functions its
//! upvalues, each sealed (an assignment to it is then an error, `luaG_sealederror` in the
//! vendored VM). The engine's own functions (chunks named `=engine/...`, a name no file
//! can have) keep their bookkeeping: only the functions among their upvalues are
//! followed. Frozen tables refuse every write, `rawset` and `setmetatable` included
//! (`vendor/README.md`).

use super::{lua_err, ScriptError, ScriptErrorKind};
use mlua::ffi;
use mlua::{Lua, Table};
use std::ffi::c_int;

// What the vendored Lua adds to its C API (`vendor/README.md`).
extern "C-unwind" {
    /// Freezes the table at `idx`: every write to it refused from now on (but the
    /// engine's raw ones).
    fn lua_freeze(l: *mut ffi::lua_State, idx: c_int);
    /// Seals upvalue `n` of the Lua function at `funcindex` if it is closed: assigning it
    /// is an error from now on. Returns whether it did.
    fn lua_sealupvalue(l: *mut ffi::lua_State, funcindex: c_int, n: c_int) -> c_int;
}

/// Freezes what the rules can reach from `roots` (a list) and the globals, and seals the
/// variables of the rules' files.
pub(super) fn freeze_rules(lua: &Lua, roots: Table) -> Result<(), ScriptError> {
    roots.raw_push(lua.globals()).map_err(lua_err)?;
    // SAFETY: the walk only pushes, reads and pops values of the Lua stack (each push
    // checked by lua_checkstack) and raises no error; it leaves the stack as it found it.
    let done = lua.exec_raw_lua(|raw| unsafe {
        let l = raw.state();
        let base = ffi::lua_gettop(l);
        let ok = ffi::lua_checkstack(l, 8) != 0 && raw.push(&roots).is_ok() && walk(l, base + 1);
        ffi::lua_settop(l, base);
        ok
    });
    if !done {
        return Err(ScriptError::new(ScriptErrorKind::Memory, "the rules hold more tables than can be frozen"));
    }
    Ok(())
}

/// The walk, depth first, on the Lua stack above `roots` (at `at`): every value still to
/// visit is kept on the stack (so it stays alive and needs no table of its own), each
/// pushed once (`seen`, by address). False if the stack cannot grow.
unsafe fn walk(l: *mut ffi::lua_State, at: c_int) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    // Keeps the value on the top of the stack to visit, or pops it: tables and functions
    // not seen yet are kept.
    let keep = |l: *mut ffi::lua_State, seen: &mut rustc_hash::FxHashSet<usize>| -> bool {
        let t = ffi::lua_type(l, -1);
        if (t == ffi::LUA_TTABLE || t == ffi::LUA_TFUNCTION) && seen.insert(ffi::lua_topointer(l, -1) as usize) {
            return true;
        }
        ffi::lua_settop(l, -2);
        false
    };
    // The roots: each entry of the list.
    let n = ffi::lua_rawlen(l, at) as ffi::lua_Integer;
    for i in 1..=n {
        if ffi::lua_checkstack(l, 4) == 0 {
            return false;
        }
        ffi::lua_rawgeti(l, at, i);
        keep(l, &mut seen);
    }
    while ffi::lua_gettop(l) > at {
        if ffi::lua_checkstack(l, 8) == 0 {
            return false;
        }
        let v = ffi::lua_gettop(l);
        if ffi::lua_type(l, v) == ffi::LUA_TTABLE {
            lua_freeze(l, v);
            // Each key and value kept below the key `lua_next` goes on from.
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, v) != 0 {
                if ffi::lua_checkstack(l, 4) == 0 {
                    return false;
                }
                if keep(l, &mut seen) {
                    ffi::lua_rotate(l, -2, 1); // the value below the key
                }
                ffi::lua_pushvalue(l, -1);
                if keep(l, &mut seen) {
                    ffi::lua_rotate(l, -2, 1); // a copy of the key below it
                }
            }
            if ffi::lua_getmetatable(l, v) != 0 {
                keep(l, &mut seen);
            }
        } else if ffi::lua_iscfunction(l, v) == 0 {
            // A Lua function: the rules' (a file's chunk, `@...`) have every upvalue
            // followed and sealed, the engine's their functions only.
            let mut ar: ffi::lua_Debug = std::mem::zeroed();
            ffi::lua_pushvalue(l, v);
            ffi::lua_getinfo(l, c">S".as_ptr(), &mut ar);
            let rules = !ar.source.is_null() && *ar.source == b'@' as std::ffi::c_char;
            let mut i = 1;
            while !ffi::lua_getupvalue(l, v, i).is_null() {
                if rules {
                    lua_sealupvalue(l, v, i);
                    keep(l, &mut seen);
                } else if ffi::lua_type(l, -1) == ffi::LUA_TFUNCTION {
                    keep(l, &mut seen);
                } else {
                    ffi::lua_settop(l, -2);
                }
                if ffi::lua_checkstack(l, 4) == 0 {
                    return false;
                }
                i += 1;
            }
        }
        // Visited: taken off, what it keeps moves down into its place.
        ffi::lua_rotate(l, v, -1);
        ffi::lua_settop(l, -2);
    }
    true
}
