//! The rules, fixed once loaded. After the variant stack has loaded, every table the rules
//! can reach is frozen and every variable of the rules' files is sealed, so that nothing a
//! script does during a game changes how the rules behave later: all that changes lives
//! in the game state, which the engine saves, replays and puts back. Without this, an
//! action that changed a rule table (an action's definition, an exported helper, the
//! string metatable) or a file's local and then failed left the change in place, and a
//! `when` that wrote one made a game depend on how often its legal actions were listed.
//!
//! Reached: the globals, the registered hooks and actions and the view of `g` used while
//! listing (handed over by the prelude's `engine.install`), the string metatable; from
//! each table its keys, values and metatable; from each of the rules' functions its
//! upvalues, each sealed (an assignment to it is then an error, `luaG_sealederror` in the
//! vendored VM). The engine's own functions (chunks named `=engine/...`, a name no file
//! can have) keep their bookkeeping: only the functions among their upvalues are
//! followed. Frozen tables refuse every write, `rawset` and `setmetatable` included
//! (`vendor/README.md`).

use super::{lua_err, ScriptError};
use mlua::{Function, Lua, Table};

// What the vendored Lua adds to its C API (`vendor/README.md`).
extern "C-unwind" {
    /// Freezes the table at `idx`: every write to it refused from now on (but the
    /// engine's raw ones).
    fn lua_freeze(l: *mut mlua::ffi::lua_State, idx: std::ffi::c_int);
    /// Seals upvalue `n` of the Lua function at `funcindex` if it is closed: assigning it
    /// is an error from now on. Returns whether it did.
    fn lua_sealupvalue(l: *mut mlua::ffi::lua_State, funcindex: std::ffi::c_int, n: std::ffi::c_int)
        -> std::ffi::c_int;
}

/// The walk, in Lua: it needs a set of what it has seen and a list of what is left, which
/// are tables. Run once per load, over a few thousand objects for the largest editions.
const WALK: &str = r#"
local meta, upvalue, mark, roots = ...
local next, type = next, type
local seen, todo, n = {}, {}, 0
local function push(v)
  local t = type(v)
  if (t == "table" or t == "function") and not seen[v] then
    seen[v] = true
    n = n + 1
    todo[n] = v
  end
end
for i = 1, #roots do push(roots[i]) end
push(meta(""))
while n > 0 do
  local v = todo[n]
  todo[n] = nil
  n = n - 1
  if type(v) == "table" then
    for k, x in next, v do push(k); push(x) end
    push(meta(v))
    mark(v)
  else
    -- A function of the rules: each upvalue, sealed; of the engine: its functions only.
    local i = 1
    while true do
      local found, x, rules = upvalue(v, i)
      if not found then break end
      if rules or type(x) == "function" then push(x) end
      i = i + 1
    end
  end
end
"#;

/// Freezes what the rules can reach from `roots` (a list) and the globals, and seals the
/// variables of the rules' files.
pub(super) fn freeze_rules(lua: &Lua, roots: Table) -> Result<(), ScriptError> {
    roots.raw_push(lua.globals()).map_err(lua_err)?;
    let walk: Function = lua.load(WALK).set_name("=engine/freeze.lua").into_function().map_err(lua_err)?;
    walk.call::<()>((
        meta_fn(lua).map_err(lua_err)?,
        upvalue_fn(lua).map_err(lua_err)?,
        mark_fn(lua).map_err(lua_err)?,
        roots,
    ))
    .map_err(lua_err)
}

/// `meta(v)`: the metatable of `v` as it is, `__metatable` or not; nil without one.
fn meta_fn(lua: &Lua) -> mlua::Result<Function> {
    unsafe extern "C-unwind" fn meta(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
        if mlua::ffi::lua_gettop(l) < 1 || mlua::ffi::lua_getmetatable(l, 1) == 0 {
            return 0;
        }
        1
    }
    // SAFETY: reads its argument and pushes at most one value.
    unsafe { lua.create_c_function(meta) }
}

/// `upvalue(f, i)`: true, the value of the `i`th upvalue of the Lua function `f` and
/// whether `f` is one of the rules' functions (its chunk a variant's file, `@...`), whose
/// upvalue is then sealed; nothing past the last upvalue or for a C function.
fn upvalue_fn(lua: &Lua) -> mlua::Result<Function> {
    unsafe extern "C-unwind" fn upvalue(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
        use mlua::ffi;
        if ffi::lua_type(l, 1) != ffi::LUA_TFUNCTION || ffi::lua_iscfunction(l, 1) != 0 {
            return 0;
        }
        let i = ffi::lua_tointeger(l, 2) as std::ffi::c_int;
        ffi::lua_settop(l, 1);
        let mut ar: ffi::lua_Debug = std::mem::zeroed();
        ffi::lua_pushvalue(l, 1);
        // ">S": the function on the top of the stack, popped; fills `source`.
        ffi::lua_getinfo(l, c">S".as_ptr(), &mut ar);
        let rules = !ar.source.is_null() && *ar.source == b'@' as std::ffi::c_char;
        ffi::lua_pushboolean(l, 1);
        if ffi::lua_getupvalue(l, 1, i).is_null() {
            return 0;
        }
        if rules {
            lua_sealupvalue(l, 1, i);
        }
        ffi::lua_pushboolean(l, rules as std::ffi::c_int);
        3
    }
    // SAFETY: reads its arguments and pushes at most four values (a C function has twenty).
    unsafe { lua.create_c_function(upvalue) }
}

/// `mark(t)`: freezes the table `t` (every write to it refused from now on).
fn mark_fn(lua: &Lua) -> mlua::Result<Function> {
    unsafe extern "C-unwind" fn mark(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
        if mlua::ffi::lua_type(l, 1) == mlua::ffi::LUA_TTABLE {
            lua_freeze(l, 1);
        }
        0
    }
    // SAFETY: reads one argument and pushes nothing.
    unsafe { lua.create_c_function(mark) }
}
