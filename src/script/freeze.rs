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
//! followed. A value `g:cached` keeps is frozen the same way when it is kept. Frozen
//! tables refuse every write, `rawset` and `setmetatable` included. The walk is the
//! vendored `lua_freezeall` (`vendor/README.md`).

use super::{lua_err, ScriptError};
use mlua::ffi;
use mlua::{Function, Lua, Table};
use std::ffi::c_int;

// What the vendored Lua adds to its C API (`vendor/README.md`).
extern "C-unwind" {
    /// Freezes every table reachable from the value at `idx` and seals the variables of
    /// the rules' functions it reaches. Raises only memory errors.
    pub(super) fn lua_freezeall(l: *mut ffi::lua_State, idx: c_int);
}

/// Freezes what the rules can reach from `roots` (a list) and the globals, and seals the
/// variables of the rules' files.
pub(super) fn freeze_rules(lua: &Lua, roots: Table) -> Result<(), ScriptError> {
    unsafe extern "C-unwind" fn each(l: *mut ffi::lua_State) -> c_int {
        let n = ffi::lua_rawlen(l, 1) as ffi::lua_Integer;
        for i in 1..=n {
            ffi::lua_rawgeti(l, 1, i);
            lua_freezeall(l, -1);
            ffi::lua_settop(l, -2);
        }
        0
    }
    roots.raw_push(lua.globals()).map_err(lua_err)?;
    // SAFETY: `each` reads its list and keeps one value of it at a time on the stack (of
    // the twenty a C function is given; lua_freezeall grows the stack as it needs);
    // called through mlua, so a memory error it raises is caught.
    let f = unsafe { lua.create_c_function(each) }.map_err(lua_err)?;
    f.call::<()>(roots).map_err(lua_err)
}

/// `freeze(v)`, for the prelude: freezes a value `g:cached` keeps (it is handed out again
/// and again: a rule that changed it would change what later calls get, and a game would
/// depend on how often its actions were listed) as the rules are. Returns true.
pub(super) fn freeze_value_fn(lua: &Lua) -> mlua::Result<Function> {
    unsafe extern "C-unwind" fn freeze(l: *mut ffi::lua_State) -> c_int {
        ffi::lua_settop(l, 1);
        lua_freezeall(l, 1);
        ffi::lua_pushboolean(l, 1);
        1
    }
    // SAFETY: reads its argument and pushes one value; lua_freezeall raises only memory
    // errors, as the API does.
    unsafe { lua.create_c_function(freeze) }
}
