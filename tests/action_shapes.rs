//! Issue 33: the common parts of an action's `when` and `legal` declared as data (`turn`,
//! `holds`, `supply`, `cost`; docs/modding.md, "What an action needs") and checked by the
//! engine. A rule declared so is listed, drawn, accepted and refused exactly as the same
//! rule written in Lua, whether the engine checks the declaration itself or the prelude
//! does in Lua; a mod's `cost` filter still sets the price a declaration asks; a
//! declaration of the wrong shape stops the load at its file:line.

use crate::common;
use catan_engine::bot::RandomBot;
use catan_engine::script::set_declared_checks;
use catan_engine::{Action, Arg, Game, Header};
use std::collections::BTreeSet;

const TWINS: &str = "tests/variants/shapes_twins.lua";

fn game_of(variants: &[&str], seed: u64, sandbox: bool) -> Game {
    let header = Header {
        variants: variants.iter().map(|v| v.to_string()).collect(),
        players: 4,
        seed,
        options: vec![],
        sandbox,
    };
    Game::new(header).unwrap_or_else(|e| panic!("{variants:?}: {e}"))
}

/// An action of the twin written in Lua, named as its declared twin.
fn as_declared(a: &Action) -> Option<String> {
    let name = match a.name.as_str() {
        "keep" => "bastion",
        "brag" => "boast",
        _ => return None,
    };
    Some(format!("{name} {:?}", a.args))
}

fn declared(a: &Action) -> Option<String> {
    matches!(a.name.as_str(), "bastion" | "boast").then(|| format!("{} {:?}", a.name, a.args))
}

/// Random-bot games with both twins in the rules: at every step, every seat is offered
/// the declared twin exactly where it is offered the Lua one, and a typed command of each
/// is accepted or refused alike, in the same words.
///
/// Both ways of checking a declaration: by the engine, for every action of the phase at
/// once (the twins' declared needs are all its to check), and by the prelude in Lua
/// (`set_declared_checks(false)`), which decides where a variant's `cost` hook could change
/// a price.
#[test]
fn a_declared_rule_is_listed_and_refused_as_the_same_rule_in_lua() {
    let checked = game_of(&[TWINS], 1, false).checked_in_engine();
    assert!(checked.contains(&"bastion".to_string()) && checked.contains(&"boast".to_string()), "{checked:?}");
    let mut drawn = [0usize; 2];
    for (seed, in_engine) in [(1, true), (2, true), (3, false)] {
        set_declared_checks(in_engine);
        let mut game = game_of(&[TWINS], seed, false);
        set_declared_checks(true);
        assert_eq!(game.checked_in_engine().is_empty(), !in_engine);
        let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(seed * 31 + s)).collect();
        for step in 0..1_500 {
            if game.winner().is_some() {
                break;
            }
            if step % 5 == 0 {
                for seat in 0..4 {
                    let legal = game.legal_actions(seat).expect("legal actions");
                    let lua: BTreeSet<String> = legal.iter().filter_map(as_declared).collect();
                    let decl: BTreeSet<String> = legal.iter().filter_map(declared).collect();
                    assert_eq!(lua, decl, "seed {seed}, step {step}, seat {}", seat + 1);
                    let mut sites: Vec<usize> = legal
                        .iter()
                        .filter(|a| a.name == "settlement" || a.name == "city")
                        .filter_map(|a| match a.args.as_slice() {
                            [Arg::Intersection(n)] => Some(*n),
                            _ => None,
                        })
                        .take(2)
                        .collect();
                    sites.extend(game.state().intersections.iter().position(|p| p.is_some()));
                    sites.push(0);
                    for n in sites {
                        let (a, b) = (format!("keep {}", n + 1), format!("bastion {}", n + 1));
                        assert_eq!(
                            common::outcome(&game, seat, &a),
                            common::outcome(&game, seat, &b),
                            "seed {seed}, step {step}: {b}"
                        );
                    }
                    assert_eq!(
                        common::outcome(&game, seat, "brag"),
                        common::outcome(&game, seat, "boast"),
                        "seed {seed}, step {step}"
                    );
                }
            }
            let seat = game.to_act().expect("to_act");
            let Some(action) = bots[seat].choose(&game, seat).expect("a draw") else { break };
            if action.name == "bastion" {
                drawn[0] += 1;
            }
            if action.name == "keep" {
                drawn[1] += 1;
            }
            game.perform(seat, &action).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
    assert!(drawn[0] > 0 && drawn[1] > 0, "the bots drew both twins: {drawn:?}");
}

/// Base's declared price, changed by a mod's `cost` filter: listed, accepted and refused at
/// the mod's price, and the refusal words that price.
#[test]
fn a_mod_changes_the_price_a_declaration_asks() {
    for variant in ["base", "tests/variants/cheap_cities.lua"] {
        let mut game = game_of(&[variant], 1, true);
        let red = game.state().current;
        let red_name = common::color(&game, red);
        common::roll(&mut game, 6, 6);
        common::sb(&mut game, &format!("give {red_name} ore grain"));
        let (ore, grain) = (common::hand(&game, red, "ore"), common::hand(&game, red, "grain"));
        let can_build = if variant == "base" { ore >= 3 && grain >= 2 } else { true };
        let legal = game.legal_actions(red).unwrap();
        let cities = legal.iter().filter(|a| a.name == "city").count();
        assert_eq!(cities > 0, can_build, "{variant}: {cities} cities listed");
        let Some(site) = game.state().intersections.iter().position(|p| p.is_some_and(|p| p.owner as usize == red))
        else {
            panic!("{red_name} has a settlement")
        };
        let typed = common::outcome(&game, red, &format!("city {}", site + 1));
        if can_build {
            assert_eq!(typed, Ok(()), "{variant}");
        } else {
            assert_eq!(typed, Err("you cannot pay 2 grain 3 ore".to_string()), "{variant}");
        }
    }
}

/// A turn not one's own and a card not held: refused as `when` is, in `why_not`'s words.
#[test]
fn declared_needs_are_refused_in_the_rules_words() {
    let mut game = common::beginner(4, &[]);
    common::roll(&mut game, 6, 6);
    let why = common::reject(&mut game, "red", "play knight");
    assert!(why.contains("knight"), "{why}");
    common::sb(&mut game, "give blue 4 ore 4 grain 4 wool");
    let why = common::reject(&mut game, "blue", "buy");
    assert!(why.contains("not your turn"), "{why}");
}

/// A declaration of the wrong shape stops the load, naming its file and line.
#[test]
fn a_bad_declaration_names_its_file_and_line() {
    let dir = std::env::temp_dir().join(format!("catan_shapes_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("turn = \"yes\",", "turn must be true or a list of phases"),
        ("holds = \"knight\",", "holds must be { zone, card }"),
        ("supply = 3,", "supply must name a piece"),
        ("cost = \"road\",", "cost must be { what, from = zone }"),
        ("cost = { \"road\", from = \"hand\", free = \"setup\" },", "cost.free must be a list of phases"),
        ("turn = { \"main\", 4 },", "turn[2] must be a phase name"),
    ];
    for (i, (field, words)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad_shape_{i}.lua"));
        let text = format!(
            "variant {{ extends = \"base\" }}\n\naction {{\n  name = \"bad\",\n  {field}\n  apply = function(g, p) end,\n}}\n"
        );
        std::fs::write(&path, text).unwrap();
        let p = path.to_string_lossy().to_string();
        let header = Header { variants: vec![p.clone()], players: 4, seed: 1, options: vec![], sandbox: false };
        let err = match Game::new(header) {
            Ok(_) => panic!("{field}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(words), "{field}: {err}");
        assert!(err.contains(&format!("bad_shape_{i}.lua:3")), "{field}: names the action's line: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
