//! Measures the Lua VMs mlua offers on the same rule-shaped code (see Cargo.toml).
//! `vm-bench MODE [N] [--no-meter]`, MODE one of rules, calls, tables, hostile, compile DIR, readonly.
use mlua::{Lua, Result, UserData, UserDataMethods};
use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

const SOURCE: &str = include_str!("../lua/rules.lua");

#[cfg(all(feature = "lua54", not(feature = "lua54-patched")))]
const VM: &str = "lua54 (stock, vendored by mlua)";
#[cfg(feature = "lua54-patched")]
const VM: &str = "lua54 (the engine's, patched)";
#[cfg(all(feature = "luau", not(feature = "luau-jit")))]
const VM: &str = "luau";
#[cfg(feature = "luau-jit")]
const VM: &str = "luau-jit";

struct G;
impl UserData for G {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("count", |_, _, (p, zone, card): (i64, String, String)| {
            Ok(p + zone.len() as i64 - card.len() as i64)
        });
        m.add_method("near", |lua, _, i: i64| lua.create_sequence_from([i - 1, i + 1, i + 7]));
    }
}

/// The budget: a count of metering points, as the engine's hook counts instructions.
fn meter(lua: &Lua, limit: u64) -> Rc<Cell<u64>> {
    let used = Rc::new(Cell::new(0u64));
    let u = used.clone();
    #[cfg(any(feature = "lua54", feature = "lua54-patched"))]
    {
        // The engine's hook interval (src/script/sandbox.rs, HOOK_EVERY).
        use mlua::HookTriggers;
        let _ = lua.set_hook(HookTriggers::new().every_nth_instruction(10_000), move |_, _| {
            u.set(u.get() + 10_000);
            if u.get() > limit {
                return Err(mlua::Error::runtime("over budget"));
            }
            Ok(mlua::VmState::Continue)
        });
    }
    #[cfg(feature = "luau")]
    {
        lua.set_interrupt(move |_| {
            u.set(u.get() + 1);
            if u.get() > limit {
                return Err(mlua::Error::runtime("over budget"));
            }
            Ok(mlua::VmState::Continue)
        });
    }
    used
}

fn best_of<F: FnMut() -> Result<()>>(mut f: F) -> Result<f64> {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok(best)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("rules");
    let n: i64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let metered = !args.iter().any(|a| a == "--no-meter");
    let lua = Lua::new();
    #[cfg(feature = "luau-jit")]
    lua.enable_jit(true);
    #[cfg(feature = "luau")]
    {
        // What an engine of untrusted scripts would run: the sandbox (read-only library
        // tables, which also lets the compiler resolve `ipairs`, `math.abs` at load) and -O2
        // when VM_O2 is set.
        if std::env::var_os("VM_NO_SANDBOX").is_none() {
            lua.sandbox(true)?;
        }
        if std::env::var_os("VM_O2").is_some() {
            lua.set_compiler(mlua::chunk::Compiler::new().set_optimization_level(2));
        }
    }
    let funcs: mlua::Table = lua.load(SOURCE).set_name("rules.lua").eval()?;
    let used = if metered { Some(meter(&lua, u64::MAX / 2)) } else { None };
    let g = lua.create_userdata(G)?;
    match mode {
        "rules" | "calls" | "tables" => {
            let f: mlua::Function = funcs.get(if mode == "rules" { "run" } else { mode })?;
            let secs = best_of(|| {
                if mode == "rules" {
                    f.call::<i64>(n)?;
                } else {
                    f.call::<i64>((&g, n))?;
                }
                Ok(())
            })?;
            println!(
                "{VM}\t{mode}\tn={n}\tmetered={metered}\t{:.1} ns per unit\tmeter points {}",
                secs * 1e9 / n as f64,
                used.map(|u| u.get()).unwrap_or(0)
            );
        }
        "hostile" => {
            let limit = 50_000_000u64;
            let lua = Lua::new();
            let used = meter(&lua, limit);
            let _ = lua.set_memory_limit(64 << 20);
            let script = args.get(2).cloned().unwrap_or_default();
            let t = Instant::now();
            let r = lua.load(script.as_str()).exec();
            println!(
                "{VM}\thostile\t{script}\t{:?}\t{} ms\tmeter {}",
                r.map_err(|e| e.to_string().lines().next().unwrap_or("").to_string()),
                t.elapsed().as_millis(),
                used.get()
            );
        }
        "compile" => {
            let dir = args.get(2).cloned().unwrap_or_else(|| "variants".into());
            let mut files = Vec::new();
            let mut stack = vec![std::path::PathBuf::from(dir)];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).map_err(mlua::Error::external)? {
                    let p = e.map_err(mlua::Error::external)?.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "lua") {
                        files.push(p);
                    }
                }
            }
            files.sort();
            let mut bad = 0;
            for p in &files {
                let src = std::fs::read_to_string(p).map_err(mlua::Error::external)?;
                if let Err(e) = lua.load(src.as_str()).set_name(p.display().to_string()).into_function() {
                    bad += 1;
                    println!("{VM}\tcompile\t{}", e.to_string().lines().next().unwrap_or(""));
                }
            }
            println!("{VM}\tcompile\t{} files, {} refused", files.len(), bad);
        }
        "readonly" => {
            let t = lua.create_table()?;
            t.set("brick", 1)?;
            #[cfg(feature = "luau")]
            t.set_readonly(true);
            lua.globals().set("COSTS", t)?;
            let r = lua.load("COSTS.brick = 0; return COSTS.brick").eval::<i64>();
            println!("{VM}\treadonly\t{:?}", r.map_err(|e| e.to_string().lines().next().unwrap_or("").to_string()));
        }
        other => println!("unknown mode {other}"),
    }
    Ok(())
}
