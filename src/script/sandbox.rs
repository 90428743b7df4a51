//! The sandbox: the limits of a Lua state (instruction budget, Lua and host memory,
//! stored values), the meter that charges Rust callbacks and C library functions against
//! them, and the setup of a fresh state (no io/os/debug/load/pcall, sorted `pairs`,
//! address-free `tostring`, frozen `g` and libraries, bounded string functions).

use super::{api, api_fast, lua_err, ScriptError, ScriptErrorKind};
use mlua::{Function, HookTriggers, Lua, Table, VmState};
use std::cell::Cell;
use std::rc::Rc;

/// Instructions one engine call may run before it is stopped as a runaway.
pub const INSTRUCTION_BUDGET: u64 = 50_000_000;
/// Memory the whole Lua state may hold.
pub const MEMORY_CAP: usize = 128 << 20;
/// Memory one engine call may make the Rust side allocate on a script's behalf (messages,
/// stored values, dice, boards): the Lua cap cannot see it.
pub const HOST_MEMORY_CAP: usize = 32 << 20;
/// The text of a whole game's messages (kept in Rust for the log and the REPL).
pub const GAME_MESSAGES_CAP: usize = 64 << 20;
/// What all stored values (`g:set`, `g:pset`) of a game may hold together, in bytes as
/// `Value::size` estimates them.
pub const VARS_CAP: usize = 16 << 20;
/// The units between two calls of the count hook.
pub(crate) const HOOK_EVERY: u32 = 10_000;

/// The instruction budget of the engine call running now, shared by the count hook, the
/// meter of Rust callbacks and the fast C functions.
pub(crate) struct Budget {
    /// Units charged in this call (instructions, and the work of Rust callbacks and C
    /// library functions in instruction units), as the count hook last saw them.
    pub used: Cell<u64>,
    /// What one call may spend: `INSTRUCTION_BUDGET`, unless a test or a tool tightened it.
    pub limit: Cell<u64>,
    /// Whether the call may still start its action afresh (the prelude's perform, once per
    /// call into the rules): set by the engine when a call begins, spent by the first use,
    /// so no script can reset the budget by reaching the engine's own functions.
    pub refill: Cell<bool>,
}

impl Budget {
    pub(crate) fn new() -> Budget {
        Budget { used: Cell::new(0), limit: Cell::new(INSTRUCTION_BUDGET), refill: Cell::new(false) }
    }
}

/// What the current engine call has spent: instructions (with the work of Rust callbacks
/// and C library functions charged in instruction units) and host memory. Both are reset
/// at the start of every call into the rules.
pub(crate) struct Meter {
    pub budget: Rc<Budget>,
    pub bytes: Rc<Cell<usize>>,
}

/// Charges `units` instructions of work done for the script; past the budget the call is
/// stopped with the file:line of the Lua code that asked for the work. Also charges what
/// the VM recorded as debt (`luaG_debt`: slots a table walk scanned, long keys compared)
/// and could not charge where it happened, so a Rust loop over script tables that checks
/// here every so often is bounded as the VM is.
pub(crate) fn charge(lua: &Lua, units: u64) -> mlua::Result<()> {
    let Some(m) = lua.app_data_ref::<Meter>() else { return Ok(()) };
    // SAFETY: moves a counter of the Lua state; touches no stack slot and cannot raise.
    let debt = lua.exec_raw_lua(|raw| unsafe { lua_takedebt(raw.state()) }).max(0) as u64;
    let n = m.budget.used.get().saturating_add(units).saturating_add(debt);
    m.budget.used.set(n);
    let limit = m.budget.limit.get();
    if n > limit {
        drop(m);
        return Err(mlua::Error::external(over_budget(limit, rule_frame(lua))));
    }
    Ok(())
}

/// Charges `bytes` of host memory allocated for the script in this call.
pub(crate) fn alloc(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    let Some(m) = lua.app_data_ref::<Meter>() else { return Ok(()) };
    let n = m.bytes.get().saturating_add(bytes);
    m.bytes.set(n);
    if n > HOST_MEMORY_CAP {
        drop(m);
        let mut e = ScriptError::new(
            ScriptErrorKind::Memory,
            format!("a script made the engine allocate more than {} MiB in one call", HOST_MEMORY_CAP >> 20),
        );
        e.location = rule_frame(lua);
        return Err(mlua::Error::external(e));
    }
    Ok(())
}

fn over_budget(limit: u64, location: Option<String>) -> ScriptError {
    let mut e = ScriptError::new(
        ScriptErrorKind::Budget,
        format!("a script ran past its budget of {limit} instructions (an endless loop?)"),
    );
    e.location = location;
    e
}

/// "file:line" of the innermost Lua function on the stack (the one that called into Rust).
pub(crate) fn caller(lua: &Lua) -> Option<String> {
    (1..8).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let line = d.current_line()?;
            let src = d.source();
            let file = src.source.as_deref()?.strip_prefix('@')?.to_string();
            Some(format!("{file}:{line}"))
        })
        .flatten()
    })
}

/// "file:line" of the innermost frame of a variant's own code: where a budget or a cap ran
/// out, for the modder (the engine's chunks, `engine/...`, which the rules call through,
/// are passed over); the innermost Lua frame when no variant's is on the stack.
pub(crate) fn rule_frame(lua: &Lua) -> Option<String> {
    (0..64)
        .map_while(|level| {
            lua.inspect_stack(level, |d| {
                let line = d.current_line();
                let src = d.source();
                let file = src.source.as_deref().and_then(|s| s.strip_prefix('@')).map(str::to_string);
                (file, line)
            })
        })
        .find_map(|(file, line)| match (file, line) {
            (Some(file), Some(line)) if !file.starts_with("engine/") => Some(format!("{file}:{line}")),
            _ => None,
        })
        .or_else(|| caller(lua))
}

/// Installs the limits and the safe library; returns the function that freezes what the
/// engine hands to scripts, called once loading is done.
pub(super) fn sandbox(lua: &Lua, budget: Rc<Budget>) -> Result<Function, ScriptError> {
    lua.set_memory_limit(MEMORY_CAP).map_err(lua_err)?;
    let bytes = Rc::new(Cell::new(0));
    lua.set_app_data(Meter { budget: budget.clone(), bytes: bytes.clone() });
    lua.set_app_data(api_fast::FastSlot::new(budget.clone(), bytes));
    // Rules allocate many short-lived tables (argument lists, options): the generational
    // collector handles those much more cheaply than the incremental one.
    lua.gc_set_mode(mlua::state::GcMode::Generational(mlua::state::GcGenParams::default()));
    lua.set_hook(HookTriggers::new().every_nth_instruction(HOOK_EVERY), move |lua, debug| {
        let n = budget.used.get().saturating_add(HOOK_EVERY as u64);
        budget.used.set(n);
        if n > budget.limit.get() {
            let src = debug.source();
            let at = match (src.source.as_deref(), debug.current_line()) {
                (Some(file), Some(line)) if file.starts_with('@') && !file[1..].starts_with("engine/") => {
                    Some(format!("{}:{}", &file[1..], line))
                }
                // Charged inside a library function (lua_charge) or in the engine's own Lua
                // (`=engine/...`): name the rule's line, else the engine's.
                (Some(file), Some(line)) if file.starts_with('=') => {
                    rule_frame(lua).or_else(|| Some(format!("{}:{}", &file[1..], line)))
                }
                _ => rule_frame(lua),
            };
            return Err(mlua::Error::external(over_budget(budget.limit.get(), at)));
        }
        Ok(VmState::Continue)
    })
    .map_err(lua_err)?;
    lua.load(
        r##"
        -- Refused with the caller's file:line (error level 2).
        local error, setmetatable = error, setmetatable
        for _, lib in ipairs({ "os", "io", "debug", "package" }) do
          local msg = "'" .. lib .. "' is not available to variant scripts (sandbox)"
          _G[lib] = setmetatable({}, { __index = function() error(msg, 2) end })
        end
        for _, f in ipairs({ "load", "loadstring", "dofile", "loadfile", "require", "collectgarbage", "pcall", "xpcall" }) do
          local msg = "'" .. f .. "' is not available to variant scripts (sandbox)"
          _G[f] = function() error(msg, 2) end
        end
        -- Work in C that no budget could meter and no rule needs: serializing a function
        -- (nothing could load it) and binary packing, whose formats and `z` strings are
        -- read whole for one call.
        for _, f in ipairs({ "dump", "pack", "packsize", "unpack" }) do
          local msg = "string." .. f .. " is not available to variant scripts (sandbox)"
          string[f] = function() error(msg, 2) end
        end
    "##,
    )
    .set_name("=engine/sandbox.lua")
    .exec()
    .map_err(lua_err)?;
    let freeze: Function = lua
        .load(
            r##"
        math.random = function() error("math.random is not available: use g:random(n), which is seeded", 2) end
        math.randomseed = math.random
        local type, getmetatable, setmetatable, select = type, getmetatable, setmetatable, select
        local rawnext, raw_tostring, raw_error = next, tostring, error
        local sort, concat, mtype, rawget = table.sort, table.concat, math.type, rawget
        local mark, collect_keys = ...

        -- tostring never shows an address: what a script can observe is the same in every
        -- run and replay.
        function tostring(v)
          local t = type(v)
          if t == "table" or t == "userdata" then
            local mt = getmetatable(v)
            if type(mt) == "table" and mt.__tostring ~= nil then return raw_tostring(v) end
            if type(mt) == "table" and type(mt.__name) == "string" then return mt.__name end
            return t
          elseif t == "function" or t == "thread" then
            return t
          end
          return raw_tostring(v)
        end
        local tostring = tostring

        -- The order of sorted `pairs`: by type name, then by value.
        local function before(a, b)
          local ta, tb = type(a), type(b)
          if ta ~= tb then return ta < tb end
          if ta == "boolean" then return not a and b end
          return a < b
        end
        -- error(x) with x not a string (a table, nil) would lose the file:line Lua adds to
        -- string messages, and print an address: turn it into a string first. A table is
        -- shown by its `__tostring`, or by its fields when it has a few.
        local function brief(v)
          local t = type(v)
          if t == "string" then
            if #v > 40 then v = v:sub(1, 37) .. "..." end
            return string.format("%q", v)
          elseif t == "number" or t == "boolean" then
            return raw_tostring(v)
          end
          return t
        end
        local function shown(msg)
          local t = type(msg)
          if t ~= "table" then return "a " .. t end
          local mt = getmetatable(msg)
          if type(mt) == "table" and mt.__tostring ~= nil then return "a table (" .. tostring(msg) .. ")" end
          -- At most 8 fields, sorted: counting stops at the ninth, so what is shown never
          -- depends on the order `next` happens to walk a table in.
          local keys, n = {}, 0
          for k in rawnext, msg do
            n = n + 1
            if n > 8 then return "a table of more than 8 fields" end
            local tk = type(k)
            if tk ~= "string" and tk ~= "number" and tk ~= "boolean" then return "a table" end
            keys[n] = k
          end
          sort(keys, before)
          for i = 1, n do
            local k = keys[i]
            local name = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or "[" .. brief(k) .. "]"
            keys[i] = name .. " = " .. brief(rawget(msg, k))
          end
          return "a table {" .. concat(keys, ", ") .. "}"
        end
        function error(msg, level)
          if type(msg) ~= "string" then
            if msg == nil then msg = "error() was called without a message"
            elseif type(msg) == "number" then msg = tostring(msg)
            else msg = "error() was called with " .. shown(msg) .. ", not a message (error values should be strings)" end
          end
          if mtype(level) ~= "integer" then level = 1 end
          -- A rule's `error(msg, 2)` whose caller is the engine (a hook, `options`, a
          -- `to_act` filter) would name the engine's line: the rule's own is named.
          if level > 1 and level < 100 and __where then
            local at, own = __where(level + 1), __where(2)
            if at and at:sub(1, 8) == "=engine/" and own and own:sub(1, 1) ~= "=" then level = 1 end
          end
          if level > 0 then level = level + 1 end
          raw_error(msg, level)
        end
        local error = error
        -- assert(false, x) raises x as it is: no file:line for a string, an address for a
        -- table. It raises as error does, at the line that asserted.
        function assert(v, msg, ...)
          if v then return v, msg, ... end
          if msg == nil then raw_error("assertion failed!", 2) end
          if type(msg) == "string" then raw_error(msg, 2) end
          if type(msg) == "number" then raw_error(tostring(msg), 2) end
          raw_error("assert() failed with " .. shown(msg) .. ", not a message (error values should be strings)", 2)
        end

        -- pairs walks keys in sorted order, so every run of a seed iterates the same way.
        -- Keys with no fixed order (tables, functions) are refused (`collect_keys`).
        function pairs(t)
          local mt = getmetatable(t)
          if type(mt) == "table" and mt.__pairs then return mt.__pairs(t) end
          -- The keys in one call (`collect_keys`, in Rust): a list, their count, and
          -- whether they are all strings or all numbers; or nil and the type of a key
          -- with no fixed order.
          local keys, n, plain = collect_keys(t)
          if keys == nil then
            if n then error("pairs: a table with " .. n .. " keys has no fixed order (use string or number keys)", 2) end
            for _ in rawnext, t do end -- not a table: the error `next` raises
          end
          -- Keys all strings or all numbers (nearly every table) sort by `<` itself, in C;
          -- `before` orders the same way and the rest.
          if n > 1 then
            if plain then sort(keys) else sort(keys, before) end
          end
          local i = 0
          return function()
            i = i + 1
            local k = keys[i]
            if k ~= nil then return k, t[k] end
          end, t, nil
        end
        print = function(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          __debug_print(concat(parts, "\t"))
        end

        -- Freezing: the tables the engine hands to scripts keep their identity and their
        -- contents, and refuse every write (rawset included). The patched VM sends every
        -- write to a frozen table, to a new key or an old one, to `__newindex` (`mark`,
        -- `lua_freeze`); reads stay as fast as any table's, which matters for `g:` and
        -- globals, read a few hundred times an action.
        -- `rawset` and `setmetatable` refuse a frozen table themselves (vendored lbaselib.c).
        local function freeze(t, name)
          local msg = "'" .. name .. "' is frozen: a variant changes the rules through hooks and actions, "
            .. "not by changing what the engine provides"
          setmetatable(t, { __newindex = function() error(msg, 2) end, __metatable = false })
          mark(t)
        end
        -- Called once the variants are loaded and `g` is complete.
        return function(g, engine)
          for _, lib in ipairs({ "string", "table", "math", "utf8" }) do freeze(_G[lib], lib) end
          getmetatable("").__metatable = false
          freeze(g, "g")
          freeze(engine, "the engine")
          freeze(_G, "the global environment")
        end
    "##,
        )
        .set_name("=engine/sandbox.lua")
        .call((mark_frozen(lua).map_err(lua_err)?, collect_keys_fn(lua).map_err(lua_err)?))
        .map_err(lua_err)?;
    bound_string_library(lua).map_err(lua_err)?;
    Ok(freeze)
}

// What the vendored Lua adds to its C API (`vendor/README.md`).
extern "C-unwind" {
    /// Freezes the table at `idx`: every write to it takes `__newindex` (or fails).
    fn lua_freeze(l: *mut mlua::ffi::lua_State, idx: std::ffi::c_int);
    /// Gives the count hook a fresh countdown (a new call into the rules).
    pub(crate) fn lua_resetcharge(l: *mut mlua::ffi::lua_State);
    /// The units charged since the count hook last ran, debts not yet settled included.
    pub(crate) fn lua_pendingcharge(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
    /// The debts of work the VM recorded where its hook may not run (`luaG_debt`) and the
    /// units charged since the hook last ran, taken off its countdown for the engine to
    /// charge; 0 when nothing is owed.
    pub(crate) fn lua_takedebt(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
    /// "file:line" of the innermost variant's function when the last memory error was
    /// raised (`luaM_memerror`, ldebug.c), or "": a memory error's message has no place.
    pub(crate) fn lua_memerrorplace(l: *mut mlua::ffi::lua_State) -> *const std::ffi::c_char;
    /// Charges `n` units to the count hook, as the VM charges its instructions.
    pub(crate) fn lua_charge(l: *mut mlua::ffi::lua_State, n: mlua::ffi::lua_Integer);
    /// The units the VM charges on entering the Lua function at `idx` (0 for others).
    pub(crate) fn lua_codesize(l: *mut mlua::ffi::lua_State, idx: std::ffi::c_int) -> mlua::ffi::lua_Integer;
    /// The running C closure's first upvalue as a pointer (null if it has none), and the
    /// count of its arguments in `top`.
    pub(crate) fn lua_cslot(l: *mut mlua::ffi::lua_State, top: *mut std::ffi::c_int) -> *mut std::ffi::c_void;
    /// The integer a number holds (an integer, or a float of an exact integer value);
    /// strings are not converted. `isint` says whether it does.
    pub(crate) fn lua_tointegernum(
        l: *mut mlua::ffi::lua_State,
        idx: std::ffi::c_int,
        isint: *mut std::ffi::c_int,
    ) -> mlua::ffi::lua_Integer;
    /// Sets `t[1..n]` to the floats of `v` and `t[n + 1]` to nil in the array part of the
    /// table at `idx`, which must hold them (else nothing is set and it answers 0).
    pub(crate) fn lua_setnumbers(
        l: *mut mlua::ffi::lua_State,
        idx: std::ffi::c_int,
        v: *const mlua::ffi::lua_Number,
        n: std::ffi::c_int,
    ) -> std::ffi::c_int;
    /// The bytes of a string, or null for anything else (numbers are not converted).
    pub(crate) fn lua_tostringonly(
        l: *mut mlua::ffi::lua_State,
        idx: std::ffi::c_int,
        len: *mut usize,
    ) -> *const std::ffi::c_char;
    /// `lua_pushlstring` through the string cache, keyed by the address of the bytes and
    /// checked by content: for names pushed again and again from the same Rust string.
    pub(crate) fn lua_pushlstringcached(
        l: *mut mlua::ffi::lua_State,
        s: *const std::ffi::c_char,
        len: usize,
    ) -> *const std::ffi::c_char;
}

/// `collect_keys(t)`, which the sandbox's sorted `pairs` calls: the keys of the table `t`
/// as a list, their count, and whether they are all strings or all numbers (they sort by
/// `<` alone); nil and a key's type for a key with no fixed order (neither a number, a
/// string nor a boolean); nothing for anything but a table. One call where `pairs` made
/// two per key (`next`, `type`), charged a unit a key.
fn collect_keys_fn(lua: &Lua) -> mlua::Result<Function> {
    unsafe extern "C-unwind" fn collect(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
        use mlua::ffi;
        if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
            return 0;
        }
        ffi::lua_settop(l, 1);
        ffi::lua_createtable(l, 4, 0);
        let (mut n, mut first, mut plain) = (0i64, ffi::LUA_TNIL, true);
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, 1) != 0 {
            ffi::lua_settop(l, -2); // the value
            let tk = ffi::lua_type(l, -1);
            if tk != ffi::LUA_TNUMBER && tk != ffi::LUA_TSTRING && tk != ffi::LUA_TBOOLEAN {
                ffi::lua_pushnil(l);
                ffi::lua_pushstring(l, ffi::lua_typename(l, tk));
                return 2;
            }
            n += 1;
            if n == 1 {
                first = tk;
            } else if tk != first {
                plain = false;
            }
            ffi::lua_pushvalue(l, -1);
            ffi::lua_rawseti(l, 2, n);
        }
        lua_charge(l, n);
        ffi::lua_pushinteger(l, n);
        ffi::lua_pushboolean(l, (plain && first != ffi::LUA_TBOOLEAN) as std::ffi::c_int);
        3
    }
    // SAFETY: `collect` reads its argument, keeps at most five values on the stack (the
    // twenty a C function is given), and raises only as the API does (memory).
    unsafe { lua.create_c_function(collect) }
}

/// `mark(t)`: freezes the table `t` (the sandbox's `freeze` sets its metatable first).
fn mark_frozen(lua: &Lua) -> mlua::Result<Function> {
    unsafe extern "C-unwind" fn mark(l: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
        if mlua::ffi::lua_type(l, 1) == mlua::ffi::LUA_TTABLE {
            lua_freeze(l, 1);
        }
        0
    }
    // SAFETY: `mark` reads one argument and pushes nothing.
    unsafe { lua.create_c_function(mark) }
}

/// Wraps the string functions whose work a count hook cannot see (they run in C): each
/// charges its worst case to the instruction budget before it runs.
fn bound_string_library(lua: &Lua) -> mlua::Result<()> {
    let string: Table = lua.globals().get("string")?;
    for name in ["find", "match", "gmatch", "gsub", "rep", "format"] {
        let original: Function = string.get(name)?;
        let wrapped = lua.create_function(move |lua, mut args: mlua::MultiValue| {
            let len = |i: usize| match args.get(i) {
                Some(mlua::Value::String(s)) => s.as_bytes().len(),
                Some(mlua::Value::Integer(_) | mlua::Value::Number(_)) => 24,
                _ => 0,
            };
            let cost = match name {
                "rep" => {
                    let n = match args.get(1) {
                        Some(mlua::Value::Integer(n)) => (*n).max(0) as u64,
                        Some(mlua::Value::Number(n)) => n.max(0.0) as u64,
                        _ => 0,
                    };
                    let bytes = n.saturating_mul(len(0) as u64 + len(2) as u64);
                    if bytes > MEMORY_CAP as u64 {
                        return Err(located(
                            lua,
                            format!("string.rep: a result of {bytes} bytes is past the memory cap"),
                        ));
                    }
                    // One copy per repetition, then the bytes.
                    n + bytes / 16 + 1
                }
                "format" => format_args_safe(lua, &mut args)?,
                _ => {
                    let pattern = match args.get(1) {
                        Some(mlua::Value::String(p)) => p.as_bytes().to_vec(),
                        _ => vec![],
                    };
                    let plain =
                        args.get(3).is_some_and(|v| !matches!(v, mlua::Value::Nil | mlua::Value::Boolean(false)));
                    // gsub also builds its result, up to a copy of the subject per match.
                    let building = if name == "gsub" { 4 * len(0) as u64 } else { 0 };
                    pattern_cost(len(0), &pattern, plain && name == "find", name == "gmatch").saturating_add(building)
                }
            };
            // And the call itself, into Rust and back, as a `g` method is charged.
            charge(lua, api::CALL_COST.saturating_add(cost))?;
            original.call::<mlua::MultiValue>(args).map_err(|e| match e {
                mlua::Error::CallbackError { cause, .. } => api::locate(lua, (*cause).clone()),
                other => api::locate(lua, other),
            })
        })?;
        string.set(name, wrapped)?;
    }
    Ok(())
}

fn located(lua: &Lua, msg: String) -> mlua::Error {
    match caller(lua) {
        Some(at) => mlua::Error::runtime(format!("{at}: {msg}")),
        None => mlua::Error::runtime(msg),
    }
}

/// string.format: refuses `%p` (an address) and prints tables and functions with the
/// sandbox's `tostring`; returns the work to charge.
fn format_args_safe(lua: &Lua, args: &mut mlua::MultiValue) -> mlua::Result<u64> {
    if let Some(mlua::Value::String(f)) = args.front() {
        let f = f.as_bytes();
        let mut i = 0;
        while i < f.len() {
            if f[i] == b'%' {
                i += 1;
                while i < f.len() && b"-+ #0123456789.".contains(&f[i]) {
                    i += 1;
                }
                if f.get(i) == Some(&b'p') {
                    return Err(located(
                        lua,
                        "string.format: %p shows an address, which differs from run to run".into(),
                    ));
                }
            }
            i += 1;
        }
    }
    let tostring: Function = lua.globals().get("tostring")?;
    let mut cost = 1u64;
    for v in args.iter_mut() {
        if matches!(
            v,
            mlua::Value::Table(_) | mlua::Value::Function(_) | mlua::Value::Thread(_) | mlua::Value::UserData(_)
        ) {
            *v = tostring.call::<mlua::Value>(v.clone())?;
        }
        if let mlua::Value::String(s) = v {
            cost += s.as_bytes().len() as u64 / 16;
        }
        cost += 1;
    }
    Ok(cost)
}

/// The worst-case number of steps of Lua's backtracking matcher for `pattern` over a
/// subject of `n` bytes. Each single-character item followed by `*`, `+`, `-` or `?` is a
/// choice of where it ends; the ends of q such items are a non-decreasing sequence, so at
/// most C(n+q, q) paths are tried, each scanning the pattern and, at most once per
/// quantifier, `%b` or back-reference, the subject. Unanchored, that is tried from every
/// start. An upper bound, cheap to compute before the C code runs.
fn pattern_cost(n: usize, pattern: &[u8], plain: bool, every_start: bool) -> u64 {
    let nf = n as f64;
    if plain {
        return (nf + nf * pattern.len() as f64 / 16.0) as u64 + 1;
    }
    let anchored = pattern.first() == Some(&b'^');
    let p = if anchored { &pattern[1..] } else { pattern };
    let (mut quantified, mut scans) = (0u32, 0u32);
    let mut i = 0;
    while i < p.len() {
        let single = match p[i] {
            b'(' | b')' | b'$' => {
                i += 1;
                false
            }
            b'%' => match p.get(i + 1) {
                Some(b'b') => {
                    scans += 1;
                    i += 4;
                    false
                }
                Some(b'f') => {
                    i = class_end(p, i + 2);
                    false
                }
                Some(c) if c.is_ascii_digit() => {
                    scans += 1;
                    i += 2;
                    false
                }
                _ => {
                    i += 2;
                    true
                }
            },
            b'[' => {
                i = class_end(p, i);
                true
            }
            _ => {
                i += 1;
                true
            }
        };
        if single && matches!(p.get(i), Some(b'*' | b'+' | b'-' | b'?')) {
            quantified += 1;
            i += 1;
        }
    }
    let mut paths = 1f64;
    for j in 1..=quantified {
        paths *= (nf + j as f64) / j as f64;
    }
    let per_path = p.len() as f64 + (quantified + scans) as f64 * nf + 1.0;
    let starts = if anchored && !every_start { 1.0 } else { nf + 1.0 };
    let cost = paths * per_path * starts;
    if cost >= u64::MAX as f64 {
        u64::MAX
    } else {
        cost as u64
    }
}

/// The index just past a `[set]` starting at `i`, as Lua's `classEnd` reads it.
fn class_end(p: &[u8], mut i: usize) -> usize {
    i += 1;
    if p.get(i) == Some(&b'^') {
        i += 1;
    }
    loop {
        let Some(&c) = p.get(i) else { return p.len() };
        i += 1;
        if c == b'%' {
            i += 1;
        }
        match p.get(i) {
            None => return p.len(),
            Some(b']') => return i + 1,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `lua_setnumbers` sets the floats and the nil after them in a table's array part, and
    /// nothing at all where the array part is too short for them.
    #[test]
    fn set_numbers_fills_the_array_part_or_nothing() {
        let lua = Lua::new();
        let t = lua.create_table_with_capacity(4, 0).unwrap();
        t.raw_set(4, "kept").unwrap();
        let set = |v: &[f64]| unsafe {
            lua.exec_raw::<i64>(&t, |l| {
                let n = lua_setnumbers(l, 1, v.as_ptr(), v.len() as std::ffi::c_int);
                mlua::ffi::lua_settop(l, 0);
                mlua::ffi::lua_pushinteger(l, n as mlua::ffi::lua_Integer);
            })
            .unwrap()
        };
        assert_eq!(set(&[0.25, 0.5, 0.75, 0.125]), 0, "no room for the nil after four");
        assert_eq!(t.raw_get::<String>(4).unwrap(), "kept");
        assert_eq!(t.raw_get::<Option<f64>>(1).unwrap(), None);
        assert_eq!(set(&[0.25, 0.5]), 1);
        let read: Vec<Option<f64>> = (1..=3).map(|i| t.raw_get(i).unwrap()).collect();
        assert_eq!(read, vec![Some(0.25), Some(0.5), None]);
        assert_eq!(t.raw_get::<String>(4).unwrap(), "kept", "past the nil, as it was");
    }

    /// The action's fresh start (the prelude's perform) is granted once per call into the
    /// rules: were the function ever reached again within the call, it would not reset the
    /// budget (issue 30: a loop of `__engine.perform` never ended).
    #[test]
    fn the_budget_starts_afresh_once_per_call() {
        let lua = Lua::new();
        let budget = Rc::new(Budget::new());
        sandbox(&lua, budget.clone()).unwrap();
        let fresh = api_fast::fresh_budget_fn(&lua).unwrap();
        budget.refill.set(true); // a call into the rules begins (Script::call)
        budget.used.set(1000);
        fresh.call::<()>(()).unwrap();
        assert_eq!(budget.used.get(), 0, "the action starts with the whole budget");
        budget.used.set(1000);
        fresh.call::<()>(()).unwrap();
        assert_eq!(budget.used.get(), 1000, "a second fresh start in the same call");
    }

    /// The vendored VM serves reads of a frozen table from a per-instruction cache
    /// (vendor/README.md): a raw write by the engine must be seen by the next read of the
    /// same instruction, for a method (`OP_SELF`), a field (`OP_GETFIELD`) and a global
    /// (`OP_GETTABUP`).
    #[test]
    fn a_raw_write_to_a_frozen_table_is_read_at_once() {
        let lua = Lua::new();
        let t = lua.create_table().unwrap();
        t.raw_set("n", 1).unwrap();
        t.raw_set("m", lua.create_function(|_, ()| Ok(1)).unwrap()).unwrap();
        lua.globals().set("t", t.clone()).unwrap();
        lua.globals().set("answer", 1).unwrap();
        let mark = mark_frozen(&lua).unwrap();
        mark.call::<()>(t.clone()).unwrap();
        mark.call::<()>(lua.globals()).unwrap();
        let read: Function = lua.load("return function() return t.n, t:m(), answer end").eval().unwrap();
        for _ in 0..3 {
            assert_eq!(read.call::<(i64, i64, i64)>(()).unwrap(), (1, 1, 1));
        }
        t.raw_set("n", 2).unwrap();
        t.raw_set("m", lua.create_function(|_, ()| Ok(2)).unwrap()).unwrap();
        lua.globals().raw_set("answer", 2).unwrap();
        assert_eq!(read.call::<(i64, i64, i64)>(()).unwrap(), (2, 2, 2));
    }

    /// The vendored VM steps `ipairs` and `next` itself (vendor/README.md): the same entries,
    /// ends and errors as their C functions, a proxy's `__index` included.
    #[test]
    fn ipairs_and_next_step_as_their_c_functions_do() {
        let lua = Lua::new();
        let walked: String = lua
            .load(
                r#"
                local out = {}
                for i, v, extra in ipairs({ 10, 20, nil, 40 }) do out[#out + 1] = i .. "=" .. v .. ":" .. tostring(extra) end
                local proxy = setmetatable({ 1 }, { __index = function(_, k) if k <= 3 then return k * 100 end end })
                for i, v in ipairs(proxy) do out[#out + 1] = i .. "=" .. v end
                for i in ipairs({ "a", "b" }) do out[#out + 1] = tostring(i) end
                local sum, keys = 0, 0
                for k, v, extra in next, { a = 1, b = 2, 3 } do sum, keys = sum + v, keys + (extra == nil and 1 or 0) end
                out[#out + 1] = "sum=" .. sum .. " keys=" .. keys
                for _ in next, {} do out[#out + 1] = "never" end
                return table.concat(out, " ")
                "#,
            )
            .eval()
            .unwrap();
        assert_eq!(walked, "1=10:nil 2=20:nil 1=1 2=200 3=300 1 2 sum=6 keys=3");
        let bad_key = lua.load(r#"for _ in next, { 1 }, "absent" do end"#).exec().unwrap_err();
        assert!(bad_key.to_string().contains("invalid key to 'next'"), "{bad_key}");
        let not_a_table = lua.load("for _ in ipairs(nil) do end").exec().unwrap_err();
        assert!(not_a_table.to_string().contains("index a nil value"), "{not_a_table}");
    }
}
