//! House rules as variants: the friendly robber (variants/friendly_robber.lua) and the
//! example variants of docs/modding.md (docs/examples/*.lua), which must keep loading and
//! running so the guide cannot rot.
//!
//! The tests run from the crate root, where `./variants` holds the variant files.

use catan_engine::bot::RandomBot;
use catan_engine::engine::{Game, GameError, Header};
use catan_engine::{Arg, ScriptErrorKind};
use std::collections::BTreeSet;

fn header(variants: &[&str], seed: u64, sandbox: bool, options: &[(&str, &str)]) -> Header {
    Header {
        variants: variants.iter().map(|v| v.to_string()).collect(),
        players: 4,
        seed,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox,
    }
}

fn new_game(variants: &[&str], seed: u64, sandbox: bool, options: &[(&str, &str)]) -> Game {
    Game::new(header(variants, seed, sandbox, options)).unwrap_or_else(|e| panic!("cannot start {variants:?}: {e}"))
}

fn sandbox(game: &mut Game, line: &str) {
    game.sandbox(0, line).unwrap_or_else(|e| panic!("sandbox `{line}`: {e}"));
}

/// 0-based hexes where the robber stands (the only marker base uses).
fn robber_hex(game: &Game) -> usize {
    game.state().markers["robber"]
}

/// Seats (0-based) with a settlement or city on a corner of each hex.
fn owners_by_hex(game: &Game) -> Vec<BTreeSet<usize>> {
    let st = game.state();
    let topo = st.topology.clone().expect("the board is built");
    topo.hexes
        .iter()
        .map(|h| h.corners.iter().filter_map(|&n| st.intersections[n].map(|pc| pc.owner as usize)).collect())
        .collect()
}

/// Hexes (0-based) the friendly robber protects: a building of a seat with at most
/// `limit` public victory points stands on one of its corners.
fn protected_hexes(game: &Game, limit: i64) -> BTreeSet<usize> {
    let low: BTreeSet<usize> =
        (0..game.header().players).filter(|&s| game.points(s, false).expect("points") <= limit).collect();
    owners_by_hex(game)
        .iter()
        .enumerate()
        .filter(|(_, owners)| owners.iter().any(|o| low.contains(o)))
        .map(|(h, _)| h)
        .collect()
}

/// Hexes (0-based) of the legal `robber <hex>` actions of `seat`.
fn legal_robber_hexes(game: &Game, seat: usize) -> BTreeSet<usize> {
    game.legal_actions(seat)
        .expect("legal actions")
        .into_iter()
        .filter(|a| a.name == "robber")
        .map(|a| match a.args.as_slice() {
            [Arg::Hex(h)] => *h,
            other => panic!("robber takes one hex, got {other:?}"),
        })
        .collect()
}

/// Every hex but the robber's: where base lets the robber go (the desert included, by
/// the default `robber_desert = true`).
fn all_but_robber(game: &Game) -> BTreeSet<usize> {
    let here = robber_hex(game);
    (0..game.state().hexes.len()).filter(|&h| h != here).collect()
}

/// Makes blue (seat 2) the only owner on some hex other than the robber's, with at least
/// 3 points: blue settlements replace the others' buildings on the hex that has fewest of
/// them, plus one on an empty corner if blue needs the point. Returns the hex.
fn give_blue_a_hex(game: &mut Game) -> usize {
    let owners = owners_by_hex(game);
    let here = robber_hex(game);
    let topo = game.state().topology.clone().expect("the board is built");
    let others = |h: usize| owners[h].iter().filter(|&&o| o != 1).count();
    let hex = (0..owners.len()).filter(|&h| h != here).min_by_key(|&h| others(h)).unwrap();
    for &n in &topo.hexes[hex].corners {
        if game.state().intersections[n].is_some_and(|pc| pc.owner != 1) {
            sandbox(game, &format!("place settlement {} blue", n + 1));
        }
    }
    if game.points(1, false).unwrap() < 3 {
        let free = topo.hexes[hex]
            .corners
            .iter()
            .find(|&&n| game.state().intersections[n].is_none())
            .copied()
            .expect("a free corner");
        sandbox(game, &format!("place settlement {} blue", free + 1));
    }
    assert_eq!(owners_by_hex(game)[hex], BTreeSet::from([1]));
    hex
}

/// The starting position with blue (seat 2) raised to 3 points and alone on a hex, then
/// red rolls a 7. Returns the game and blue's hex.
fn seven_with_blue_ahead(variant: &str, options: &[(&str, &str)]) -> (Game, usize) {
    let mut game = new_game(&[variant], 7, true, options);
    assert_eq!(game.state().phase, "roll");
    assert_eq!(game.state().current, 0, "red starts");
    for seat in 0..4 {
        assert_eq!(game.points(seat, false).unwrap(), 2, "every seat starts with its two settlements");
    }
    let hex = give_blue_a_hex(&mut game);
    assert!(game.points(1, false).unwrap() >= 3);
    sandbox(&mut game, "dice 3 4");
    game.act(0, "roll").expect("red rolls");
    // The starting hands hold at most 3 cards: nobody discards, red moves the robber.
    assert_eq!(game.state().phase, "robber");
    (game, hex)
}

#[test]
fn seven_keeps_the_robber_off_hexes_of_players_with_two_points() {
    let (mut game, blue_hex) = seven_with_blue_ahead("friendly_robber", &[]);
    let protected = protected_hexes(&game, 2);
    let legal = legal_robber_hexes(&game, 0);
    let expected: BTreeSet<usize> = all_but_robber(&game).difference(&protected).copied().collect();
    assert!(!protected.is_empty());
    assert_eq!(legal, expected);
    assert!(legal.contains(&blue_hex), "blue has 3 points: not protected");
    assert!(protected.iter().all(|h| !legal.contains(h)), "no protected hex is listed");
    // Red's own hexes are protected too (red has 2 points).
    let owners = owners_by_hex(&game);
    assert!(owners.iter().enumerate().any(|(h, o)| o.contains(&0) && protected.contains(&h)));

    // Typing a protected hex is refused, and changes nothing.
    let before = game.state().clone();
    let target = *protected.iter().next().unwrap();
    match game.act(0, &format!("robber H{}", target + 1)) {
        Err(GameError::Script(e)) => {
            assert_eq!(e.kind, ScriptErrorKind::Rejected);
            assert!(e.message.contains("may not go there"), "{e}");
        }
        other => panic!("a protected hex was accepted: {other:?}"),
    }
    assert!(*game.state() == before, "a refused action leaves no trace");

    // Blue's hex is fine: the robber goes there and red steals from blue, the only victim.
    let blue_cards = game.state().players[1].zones[game.spec().zone("hand").unwrap()].total();
    game.act(0, &format!("robber H{}", blue_hex + 1)).expect("blue's hex is open");
    assert_eq!(robber_hex(&game), blue_hex);
    assert_eq!(game.state().phase, "main");
    let hand = game.spec().zone("hand").unwrap();
    assert_eq!(game.state().players[1].zones[hand].total(), blue_cards.saturating_sub(1));
}

#[test]
fn base_lets_the_robber_go_anywhere_else() {
    let (game, _) = seven_with_blue_ahead("base", &[]);
    assert_eq!(legal_robber_hexes(&game, 0), all_but_robber(&game));
}

#[test]
fn the_protection_threshold_is_an_option() {
    let mut sizes = vec![];
    for limit in [0, 1, 2, 3, 10] {
        let text = limit.to_string();
        let (game, _) = seven_with_blue_ahead("friendly_robber", &[("friendly_robber_points", &text)]);
        let candidates = all_but_robber(&game);
        let open: BTreeSet<usize> = candidates.difference(&protected_hexes(&game, limit)).copied().collect();
        let expected = if open.is_empty() { candidates } else { open };
        let legal = legal_robber_hexes(&game, 0);
        assert_eq!(legal, expected, "friendly_robber_points={limit}");
        sizes.push((limit, legal.len()));
    }
    // 0: nobody is protected; 2 (the default) removes some hexes; a higher limit
    // protects more players, so it never allows more hexes than a lower one (unless the
    // rule gives way).
    let all = sizes[0].1;
    assert!(sizes[2].1 < all, "{sizes:?}");
    assert!(sizes[3].1 <= sizes[2].1 || sizes[3].1 == all, "{sizes:?}");
    // Out of range: a clear setup error.
    match Game::new(header(&["friendly_robber"], 1, false, &[("friendly_robber_points", "99")])) {
        Err(GameError::Setup(e)) => assert!(e.contains("friendly_robber_points"), "{e}"),
        Err(e) => panic!("expected a setup error, got {e}"),
        Ok(_) => panic!("an out-of-range option was accepted"),
    }
}

#[test]
fn when_every_hex_is_protected_the_robber_may_go_anywhere() {
    // With a threshold of 30 everyone is protected; cover every hex with a building.
    let mut game = new_game(&["friendly_robber"], 7, true, &[("friendly_robber_points", "30")]);
    let colors = ["red", "blue", "white", "orange"];
    let mut k = 0;
    loop {
        let owners = owners_by_hex(&game);
        let Some(h) = (0..owners.len()).find(|&h| owners[h].is_empty()) else {
            break;
        };
        let topo = game.state().topology.clone().unwrap();
        let corner = topo.hexes[h].corners[0];
        // Settlements first (3 left per seat), then cities (4 per seat).
        let piece = if k < 12 { "settlement" } else { "city" };
        sandbox(&mut game, &format!("place {piece} {} {}", corner + 1, colors[k % 4]));
        k += 1;
    }
    assert_eq!(protected_hexes(&game, 30).len(), game.state().hexes.len(), "every hex is protected");
    sandbox(&mut game, "dice 6 1");
    game.act(0, "roll").expect("red rolls");
    assert_eq!(game.state().phase, "robber");
    // The rule gives way: the robber may go anywhere base allows.
    assert_eq!(legal_robber_hexes(&game, 0), all_but_robber(&game));
}

/// Plays a game of random bots to the end (or `max_actions`), checking after every action
/// that a robber move never lists a protected hex unless every candidate is protected.
/// Returns the game and counts of the robber moves it checked: all, those where the rule
/// removed some hex, and those that followed a knight.
fn bot_game(variants: &[&str], seed: u64, max_actions: usize) -> (Game, [usize; 3]) {
    let mut game = new_game(variants, seed, false, &[]);
    let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(seed * 31 + s)).collect();
    let friendly = variants.contains(&"friendly_robber");
    let mut counts = [0; 3];
    for _ in 0..max_actions {
        if game.winner().is_some() {
            break;
        }
        let seat = game.to_act().expect("to_act");
        if friendly && game.state().phase == "robber" {
            let candidates = all_but_robber(&game);
            let protected = protected_hexes(&game, 2);
            let open: BTreeSet<usize> = candidates.difference(&protected).copied().collect();
            counts[0] += 1;
            if !open.is_empty() && open.len() < candidates.len() {
                counts[1] += 1;
            }
            if game.log().last().is_some_and(|e| e.command == "play knight") {
                counts[2] += 1;
            }
            let expected = if open.is_empty() { candidates } else { open };
            assert_eq!(legal_robber_hexes(&game, seat), expected, "seed {seed}");
        }
        let action = bots[seat]
            .choose(&game, seat)
            .expect("legal actions")
            .unwrap_or_else(|| panic!("seat {seat} has no legal action"));
        if let Err(e) = game.perform(seat, &action) {
            panic!("seed {seed}: listed action '{}' was refused: {e}", game.action_text(&action));
        }
    }
    (game, counts)
}

#[test]
fn seeded_bot_games_of_the_friendly_robber_finish_and_keep_the_rule() {
    let mut total = [0; 3];
    for seed in 1..=4 {
        let (game, counts) = bot_game(&["friendly_robber"], seed, 20_000);
        assert!(game.winner().is_some(), "seed {seed} did not finish");
        for i in 0..3 {
            total[i] += counts[i];
        }
    }
    let [checked, restricted, after_knight] = total;
    assert!(checked > 0, "no robber move was checked");
    assert!(restricted > 0, "the rule never kept the robber off a hex");
    assert!(after_knight > 0, "no knight moved the robber");
}

#[test]
fn a_friendly_robber_game_replays_byte_for_byte() {
    let (game, _) = bot_game(&["friendly_robber"], 5, 400);
    let saved = game.save_json();
    let (loaded, divergence) = Game::load_json(&saved).expect("load");
    assert!(divergence.is_none(), "{divergence:?}");
    assert!(*loaded.state() == *game.state());
    assert_eq!(loaded.save_json(), saved);
}

// The guide's examples ------------------------------------------------------------------

const GUIDE: &str = "docs/modding.md";

/// Every ```lua block of the guide that declares a variant, with the file it says it is
/// (the `<!-- file: PATH -->` line just before the block).
fn guide_variants() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(GUIDE).expect("docs/modding.md");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() == "```lua" {
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end].trim_end() != "```" {
                end += 1;
            }
            let block = lines[start..end].join("\n") + "\n";
            if block.lines().any(|l| l.starts_with("variant {")) {
                let marker = lines[..i]
                    .iter()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .and_then(|l| l.trim().strip_prefix("<!-- file: "))
                    .and_then(|l| l.strip_suffix(" -->"))
                    .unwrap_or_else(|| {
                        panic!("{GUIDE}:{}: a complete variant needs `<!-- file: PATH -->` before it", i + 1)
                    });
                out.push((marker.to_string(), block));
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn every_complete_variant_in_the_guide_is_a_file_that_loads_and_plays() {
    let examples = guide_variants();
    assert!(examples.len() >= 3, "the guide shows its example variants");
    for (path, block) in &examples {
        let file =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{GUIDE} shows {path}, which cannot be read: {e}"));
        assert_eq!(&file, block, "{GUIDE} shows {path}, but the file says something else");
        // Load by path, as `--variant docs/examples/x.lua` does, and play a while.
        let (game, _) = bot_game(&[path.as_str()], 3, 3_000);
        assert!(game.log().len() > 100 || game.winner().is_some(), "{path}: the bots got stuck");
    }
    // And every example file is shown in the guide.
    let shown: BTreeSet<&str> = examples.iter().map(|(p, _)| p.as_str()).collect();
    for entry in std::fs::read_dir("docs/examples").expect("docs/examples") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "lua") {
            let p = path.to_string_lossy().replace('\\', "/");
            assert!(shown.contains(p.as_str()), "{p} is not shown in {GUIDE}");
        }
    }
}

#[test]
fn the_friendly_robber_is_listed_among_the_variants() {
    assert!(catan_engine::script::known_variants().contains(&"friendly_robber".to_string()));
    let spec = catan_engine::script::describe_variant("friendly_robber").expect("loads");
    assert_eq!(spec.variants, vec!["base", "friendly_robber"]);
    assert!(spec.options.iter().any(|o| o.name == "friendly_robber_points" && o.variant == "friendly_robber"));
}

/// docs/examples/bounty.lua: a new development card built from base's exports
/// (`development_deck`, `catan.may_play`, `catan.use_card`) joins the deck and plays.
#[test]
fn a_new_development_card_joins_the_deck_and_plays() {
    let game = new_game(&["docs/examples/bounty.lua"], 1, false, &[]);
    let spec = game.spec().clone();
    let (deck, box_) = (spec.zone("deck").unwrap(), spec.zone("box").unwrap());
    let bounty = spec.card("bounty").unwrap();
    assert_eq!(game.state().zones[deck].count(bounty), 2);
    assert_eq!(game.state().zones[deck].total(), 27, "25 of base's cards and 2 Bounties");
    // Seeded random-bot games until a Bounty is played: it goes to the box, 2 cards to the hand.
    let played = (1..40).find_map(|seed| {
        let (game, _) = bot_game(&["docs/examples/bounty.lua"], seed, 3_000);
        let i = game.log().iter().position(|e| e.command.starts_with("play bounty "))?;
        Some((seed, i, game.log()[i].clone()))
    });
    let (seed, i, entry) = played.expect("a Bounty is played in some game");
    let mut game = new_game(&["docs/examples/bounty.lua"], seed, false, &[]);
    let log: Vec<_> = bot_game(&["docs/examples/bounty.lua"], seed, i).0.log().to_vec();
    for e in &log {
        game.act(e.seat, &e.command).unwrap();
    }
    let r = entry.command.rsplit(' ').next().unwrap().to_string();
    let hand = spec.zone("hand").unwrap();
    let card = spec.card(&r).unwrap();
    let before = game.state().players[entry.seat].zones[hand].count(card);
    game.act(entry.seat, &entry.command).unwrap();
    assert_eq!(game.state().players[entry.seat].zones[hand].count(card), before + 2);
    assert_eq!(game.state().zones[box_].count(bounty), 1);
    let legal = game.legal_actions(entry.seat).unwrap();
    assert!(legal.iter().all(|a| !a.name.starts_with("play_")), "one development card a turn: {legal:?}");
}
