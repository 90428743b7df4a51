//! With `lua54-patched`, builds the engine's vendored Lua (../../vendor/lua-5.4.9) as the
//! engine's build.rs does.
fn main() {
    #[cfg(feature = "lua54-patched")]
    {
        let dir = std::path::Path::new("../../vendor/lua-5.4.9");
        println!("cargo:rerun-if-changed=../../vendor/lua-5.4.9");
        cc::Build::new()
            .include(dir)
            .warnings(false)
            .define("LUA_COMPAT_5_3", None)
            .define("LUA_USE_LINUX", None)
            .file(dir.join("onelua.c"))
            .compile("lua5.4");
    }
}
