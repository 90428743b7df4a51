//! Issue 33: an action's declared needs (`turn`, `holds`, `supply`, `cost`) checked by the
//! engine itself, for every action of the phase at once, with the printed prices declared
//! as data (`prices { ... }`). Where a variant's `cost` hook may change a price, the
//! prelude's checks in Lua decide; either way listing, drawing and playing give the same
//! games as the checks in Lua alone (`set_declared_checks(false)`).

use crate::common;
use catan_engine::bot::RandomBot;
use catan_engine::script::set_declared_checks;
use catan_engine::{Game, Header};

fn game(variants: &[&str], players: usize, seed: u64, options: &[(&str, &str)], sandbox: bool) -> Game {
    let header = Header {
        variants: variants.iter().map(|v| v.to_string()).collect(),
        players,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    };
    Game::new(header).unwrap_or_else(|e| panic!("{variants:?}: {e}"))
}

/// A game loaded with the declared checks in the engine (`true`) or in Lua alone.
fn game_checked(in_engine: bool, variants: &[&str], players: usize, seed: u64, options: &[(&str, &str)]) -> Game {
    set_declared_checks(in_engine);
    let g = game(variants, players, seed, options, false);
    set_declared_checks(true);
    g
}

#[test]
fn the_engine_checks_what_it_can_decide_alone() {
    let base = game(&["base"], 4, 1, &[], false).checked_in_engine();
    for name in ["settlement", "road", "city", "buy", "play_knight", "play_monopoly", "trade", "end"] {
        assert!(base.contains(&name.to_string()), "base: {name} in {base:?}");
    }
    // Helpers' cost hook (Candamir, Vincent) may change any price: the actions with a
    // declared `cost` are checked in Lua, through the filter; the others still here.
    let helpers = game(&["base", "helpers"], 4, 1, &[], false).checked_in_engine();
    for name in ["settlement", "road", "city", "buy"] {
        assert!(!helpers.contains(&name.to_string()), "helpers: {name} in {helpers:?}");
    }
    assert!(helpers.contains(&"play_knight".to_string()), "{helpers:?}");
    // A price declared again is still the engine's to check.
    let dear = game(&["tests/variants/dear_roads.lua"], 4, 1, &[], false).checked_in_engine();
    assert!(dear.contains(&"road".to_string()), "{dear:?}");
    // Rivals declares whose turn it is.
    let rivals = game(&["rivals"], 2, 1, &[], false).checked_in_engine();
    assert!(!rivals.is_empty());
    // The switch the comparisons below use.
    assert!(game_checked(false, &["base"], 4, 1, &[]).checked_in_engine().is_empty());
}

/// A stack, its players and its options.
type Case<'a> = (&'a [&'a str], usize, &'a [(&'a str, &'a str)]);

/// Random-bot games with the checks in the engine and in Lua: every seat is offered the
/// same actions at every step, the bots draw the same, and the games end alike.
#[test]
fn games_are_the_same_with_the_checks_in_lua() {
    let cases: &[Case] = &[
        (&["base"], 4, &[("board", "random"), ("starting_pieces", "false")]),
        (&["base", "helpers"], 4, &[]),
        (&["classic"], 3, &[]),
        (&["base"], 6, &[("turn_structure", "paired")]),
        (&["tests/variants/dear_roads.lua"], 4, &[]),
        (&["rivals"], 2, &[]),
    ];
    for (variants, players, options) in cases {
        let mut games = [true, false].map(|on| game_checked(on, variants, *players, 3, options));
        let mut bots: Vec<Vec<RandomBot>> =
            (0..2).map(|_| (0..*players as u64).map(RandomBot::new).collect()).collect();
        for step in 0..400 {
            if games[0].winner().is_some() {
                break;
            }
            if step % 4 == 0 {
                for seat in 0..*players {
                    let [a, b] = &games;
                    assert_eq!(
                        a.legal_actions(seat).expect("listing"),
                        b.legal_actions(seat).expect("listing"),
                        "{variants:?}, step {step}, seat {}",
                        seat + 1
                    );
                }
            }
            let seat = games[0].to_act().expect("to_act");
            let drawn: Vec<_> = (0..2).map(|i| bots[i][seat].choose(&games[i], seat).expect("a draw")).collect();
            assert_eq!(drawn[0], drawn[1], "{variants:?}, step {step}");
            let Some(action) = &drawn[0] else { break };
            for g in &mut games {
                g.perform(seat, action).unwrap_or_else(|e| panic!("{variants:?}, step {step}: {e}"));
            }
        }
        assert_eq!(*games[0].state(), *games[1].state(), "{variants:?}");
    }
}

/// A house rule declares a price again: listing, the bots, a typed command and the
/// payment all go by it, with the checks in the engine and in Lua alike.
#[test]
fn a_price_declared_again_is_the_price() {
    for in_engine in [true, false] {
        set_declared_checks(in_engine);
        let mut g = game(&["tests/variants/dear_roads.lua"], 4, 1, &[], true);
        set_declared_checks(true);
        let red = g.state().current;
        let name = common::color(&g, red);
        common::roll(&mut g, 6, 6);
        let brick = common::hand(&g, red, "brick");
        assert!(brick < 3, "red starts with {brick} brick");
        if brick < 2 {
            common::sb(&mut g, &format!("give {name} {} brick", 2 - brick));
        }
        if common::hand(&g, red, "lumber") == 0 {
            common::sb(&mut g, &format!("give {name} lumber"));
        }
        let roads = |g: &Game| {
            let legal = g.legal_actions(red).expect("listing");
            legal.into_iter().filter(|a| a.name == "road").collect::<Vec<_>>()
        };
        assert!(roads(&g).is_empty(), "2 brick: no road listed");
        common::sb(&mut g, &format!("give {name} brick"));
        let listed = roads(&g);
        let Some(road) = listed.first() else { panic!("3 brick: a road is listed") };
        let line = road.to_text(g.spec(), &g.state());
        let mut short = game(&["tests/variants/dear_roads.lua"], 4, 1, &[], true);
        common::roll(&mut short, 6, 6);
        if common::hand(&short, red, "lumber") == 0 {
            common::sb(&mut short, &format!("give {name} lumber"));
        }
        assert_eq!(
            common::outcome(&short, red, &line),
            Err("you cannot pay 3 brick lumber".to_string()),
            "{in_engine}"
        );
        common::act(&mut g, red, &line);
        assert_eq!(common::hand(&g, red, "brick"), 0, "paid 3 brick");
    }
}

/// A price that is not a price stops the load at its line.
#[test]
fn a_bad_price_names_its_file_and_line() {
    let dir = std::env::temp_dir().join(format!("catan_prices_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("prices { road = { brick = \"one\" } }", "must count cards"),
        ("prices { road = { brick = -1 } }", "must count cards"),
        ("prices { \"road\" }", "each entry is what = { card = count }"),
        ("prices \"road\"", "takes a table of prices"),
    ];
    for (i, (line, words)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad_price_{i}.lua"));
        std::fs::write(&path, format!("variant {{ extends = \"base\" }}\n\n{line}\n")).unwrap();
        let header = Header {
            variants: vec![path.to_string_lossy().to_string()],
            players: 4,
            seed: 1,
            options: vec![],
            sandbox: false,
        };
        let err = match Game::new(header) {
            Ok(_) => panic!("{line}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(words), "{line}: {err}");
        assert!(err.contains(&format!("bad_price_{i}.lua:3")), "{line}: names its line: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
