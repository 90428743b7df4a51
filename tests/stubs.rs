//! The editor stubs (variants/types/catan.lua) are generated from docs/api.md, and the
//! page documents exactly the `g` methods the engine defines: neither can drift.

use catan_engine::api_doc;
use catan_engine::script::Script;

#[test]
fn the_stubs_are_what_the_docs_generate() {
    let file = std::fs::read_to_string("variants/types/catan.lua").expect("variants/types/catan.lua");
    assert!(
        file == api_doc::stubs(),
        "variants/types/catan.lua is out of date with docs/api.md: run `cargo run -- stubs > variants/types/catan.lua`"
    );
}

#[test]
fn the_page_documents_every_method_of_g_and_no_other() {
    let documented: Vec<String> = api_doc::methods().into_iter().map(|m| m.name).collect();
    for stack in [vec!["base".to_string()], vec!["rivals".to_string()]] {
        let defined = Script::load(&stack).unwrap().g_methods();
        let missing: Vec<&String> = defined.iter().filter(|m| !documented.contains(m)).collect();
        let stale: Vec<&String> = documented.iter().filter(|m| !defined.contains(m)).collect();
        assert!(missing.is_empty(), "methods of g that docs/api.md does not document: {missing:?}");
        assert!(stale.is_empty(), "docs/api.md documents methods g does not have: {stale:?}");
    }
}

#[test]
fn the_stubs_declare_the_whole_api() {
    let s = api_doc::stubs();
    for m in api_doc::methods() {
        assert!(s.contains(&format!("function G:{}(", m.name)), "g:{}", m.name);
    }
    for global in [
        "function variant(decl)",
        "function action(def)",
        "function sequence(point, name, fn, opts)",
        "function filter(point, name, fn, opts)",
        "function on(event, name, fn, opts)",
        "function wrap_hook(",
        "function deny(reason, ...)",
    ] {
        assert!(s.contains(global), "{global}");
    }
    for p in api_doc::points() {
        assert!(s.contains(&format!("\"{}\"", p.name)), "point {}", p.name);
    }
    // Editors opening variants/ (or the repository) find the stubs.
    for (config, library) in [("variants/.luarc.json", "\"types\""), (".luarc.json", "\"variants/types\"")] {
        let text = std::fs::read_to_string(config).expect(config);
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert!(json["workspace.library"].to_string().contains(library), "{config}: {json}");
    }
}
