//! The `g:` getters the rules call most have C functions (src/script/methods.rs) beside
//! their mlua functions, both from one declaration in src/script/api*.rs: the same
//! answers, and for anything out of the ordinary the method's own error with the script's
//! file:line.

use catan_engine::value::Value;
use catan_engine::{Game, GameError, Header};

const GETTERS: &str = "tests/variants/getters.lua";

fn game() -> Game {
    Game::new(Header { variants: vec![GETTERS.into()], players: 4, seed: 3, options: vec![], sandbox: false })
        .expect("the fixture loads")
}

fn ids(v: &[usize]) -> Value {
    Value::List(v.iter().map(|&i| Value::Int(i as i64 + 1)).collect())
}

/// After red's roll, `action` of the fixture fails with a script error that says `says`,
/// at the fixture's line marked `-- action` when `located`, and leaves the state as it was.
fn refused(action: &str, says: &str, located: bool) {
    let mut g = game();
    g.act(0, "roll").expect("red rolls");
    let before = g.state().clone();
    let e = match g.act(0, action) {
        Err(GameError::Script(e)) => e,
        other => panic!("{action}: expected a script error, got {other:?}"),
    };
    assert!(e.message.contains(says), "{action}: {e}");
    if located {
        let text = std::fs::read_to_string(GETTERS).expect("fixture");
        let line = text.lines().position(|l| l.ends_with(&format!("-- {action}"))).expect("marker") + 1;
        assert_eq!(e.location.as_deref(), Some(format!("{GETTERS}:{line}").as_str()), "{action}: {e:?}");
    }
    assert!(*g.state() == before, "{action}: the refused action changed the state");
}

fn trails_nonzero(v: &Value) -> bool {
    matches!(v, Value::List(l) if l.iter().any(|x| matches!(x, Value::Int(n) if *n > 0)))
}

/// `g:option` keeps the options of the table it read them from (src/script/ctx.rs): a state
/// put back with other options answers those.
#[test]
fn an_option_is_read_from_the_state_put_back() {
    let probe = |g: &mut Game| {
        g.act(0, "probe").expect("the probe runs");
        let st = g.state();
        let Some(Value::Map(p)) = st.vars.get("probe") else { panic!("no probe stored") };
        p.get("option").cloned()
    };
    let mut g = game();
    g.act(0, "roll").expect("red rolls");
    let before = g.snapshot();
    assert_eq!(probe(&mut g), Some(Value::Int(10)));
    let mut other = Game::new(Header {
        variants: vec![GETTERS.into()],
        players: 4,
        seed: 3,
        options: vec![("victory_points".into(), "12".into())],
        sandbox: false,
    })
    .expect("the fixture loads");
    other.act(0, "roll").expect("red rolls");
    let theirs = other.state().clone();
    g.restore(&before.with_state(theirs));
    assert_eq!(probe(&mut g), Some(Value::Int(12)), "the options of the state put back");
    g.restore(&before);
    assert_eq!(probe(&mut g), Some(Value::Int(10)), "and back again");
}

#[test]
fn the_fast_getters_answer_what_the_state_holds() {
    let mut g = game();
    g.act(0, "roll").expect("red rolls");
    g.act(0, "probe").expect("the probe runs");
    let st = g.state();
    let spec = g.spec();
    let Some(Value::Map(p)) = st.vars.get("probe") else { panic!("no probe stored: {:?}", st.vars.keys()) };
    let get = |k: &str| p.get(k).unwrap_or_else(|| panic!("probe lacks {k}")).clone();
    let zone = |name: &str| spec.zones.iter().position(|z| z.name == name).expect("zone");
    let card = |name: &str| spec.cards.iter().position(|c| c.name == name).expect("card");
    let hand = st.zone(Some(0), zone("hand")).expect("red's hand");
    let bank = st.zone(None, zone("bank")).expect("the bank");
    let topo = st.topology.as_ref().expect("a board");

    assert_eq!(get("phase"), Value::Str(st.phase.clone()));
    assert_eq!(get("current"), Value::Int(st.current as i64 + 1));
    assert_eq!(get("players"), Value::Int(4));
    assert_eq!(get("turn"), Value::Int(st.turn as i64));
    assert_eq!(get("winner"), Value::Str("none".into()));
    assert_eq!(get("color"), Value::Str(st.players[1].color.to_string()));
    assert_eq!(get("robber"), Value::Int(st.markers["robber"] as i64 + 1));
    assert_eq!(get("hand"), Value::Int(hand.total() as i64));
    assert_eq!(get("ore"), Value::Int(hand.count(card("ore")) as i64));
    assert_eq!(get("bank"), Value::Int(bank.total() as i64));
    assert_eq!(get("resources"), Value::Int(bank.total() as i64), "the bank holds resources only");
    let Value::Map(cards) = get("cards") else { panic!("cards is not a map") };
    for (name, n) in &cards {
        assert_eq!(*n, Value::Int(bank.count(card(name)) as i64), "bank {name}");
    }
    assert_eq!(cards.len(), spec.cards.iter().enumerate().filter(|(i, _)| bank.count(*i) > 0).count());
    assert_eq!(get("deck"), Value::Int(st.zone(None, zone("deck")).expect("deck").total() as i64));
    let hex = &st.hexes[4];
    assert_eq!(get("terrain"), Value::Str(spec.terrains[hex.terrain as usize].name.clone()));
    assert_eq!(get("number"), Value::Int(hex.number.unwrap_or(0) as i64));
    let produces = spec.terrains[hex.terrain as usize].produces.map(|k| spec.cards[k].name.clone());
    assert_eq!(get("resource"), Value::Str(produces.unwrap_or_else(|| "none".into())));
    match st.intersections[0] {
        Some(pc) => {
            assert_eq!(get("piece"), Value::Str(spec.pieces[pc.kind as usize].name.clone()));
            assert_eq!(get("owner"), Value::Int(pc.seat().map_or(0, |s| s as i64 + 1)));
        }
        None => assert_eq!((get("piece"), get("owner")), (Value::Str("none".into()), Value::Int(0))),
    }
    let road = spec.pieces.iter().position(|pc| pc.name == "road").expect("roads");
    assert_eq!(get("supply"), Value::Int(st.players[0].supply[road] as i64));
    let settlement = spec.pieces.iter().position(|pc| pc.name == "settlement").expect("settlements");
    let mine = st.intersections.iter().flatten().filter(|pc| pc.owner == 0 && pc.kind as usize == settlement).count();
    assert_eq!(get("settlements"), Value::Int(mine as i64));
    assert_eq!(get("corners"), ids(&topo.hexes[4].corners));
    let pieces: Vec<Value> = topo.hexes[4]
        .corners
        .iter()
        .filter_map(|&n| st.intersections[n].map(|pc| (n, pc)))
        .flat_map(|(n, pc)| {
            let owner = pc.seat().map_or(Value::Bool(false), |s| Value::Int(s as i64 + 1));
            [Value::Int(n as i64 + 1), Value::Str(spec.pieces[pc.kind as usize].name.clone()), owner]
        })
        .collect();
    assert!(pieces.contains(&Value::Bool(false)), "the probe placed a piece of no player on hex 5");
    assert_eq!(get("corner_pieces"), Value::List(pieces));
    assert_eq!(get("neighbors"), ids(&topo.hexes[4].neighbors));
    assert_eq!(get("hexes_at"), ids(&topo.intersections[0].hexes));
    let eights: Vec<usize> = st.hexes.iter().enumerate().filter(|(_, h)| h.number == Some(8)).map(|(i, _)| i).collect();
    assert_eq!(get("numbered"), ids(&eights));
    assert_eq!(get("hex_count"), Value::Int(st.hexes.len() as i64));
    assert_eq!(get("option"), Value::Int(10));
    assert_eq!(get("var"), st.vars.get("played_dev").cloned().expect("base sets played_dev"));
    // A stored table comes back as it was stored (integer keys stay integers).
    assert_eq!(get("stored"), st.vars["stored"]);
    assert_eq!(get("stored_types"), Value::Str("integer boolean float".into()));
    // g:get(key, field): one entry of a stored map or list; nil where there is none.
    let entries = [
        Value::Str("two".into()),
        Value::Int(3),
        Value::Num(5.5),
        Value::Str("two".into()),
        Value::Int(20),
        Value::Bool(true),
        Value::Bool(true),
        Value::Bool(true),
        Value::Bool(true),
        Value::Bool(true),
    ];
    assert_eq!(get("entries"), Value::List(entries.to_vec()));
    // g:longest_trail(p, "road") as the board computes it; g:roll(3) three dice.
    let road = spec.pieces.iter().position(|p| p.name == "road").expect("roads");
    let trails: Vec<Value> = (0..4)
        .map(|seat| {
            let owned: Vec<bool> = st
                .paths
                .iter()
                .map(|pc| pc.is_some_and(|pc| pc.owner as usize == seat && pc.kind as usize == road))
                .collect();
            let blocked: Vec<bool> =
                st.intersections.iter().map(|pc| pc.is_some_and(|pc| pc.owner as usize != seat)).collect();
            Value::Int(catan_engine::board::longest_trail(topo, &owned, &blocked) as i64)
        })
        .collect();
    assert_eq!(get("trail"), Value::List(trails));
    assert!(trails_nonzero(&get("trail")), "no seat has a road: the check above compares nothing");
    let Value::List(dice) = get("dice") else { panic!("dice is not a list") };
    assert_eq!(dice.len(), 3);
    assert!(dice.iter().all(|d| matches!(d, Value::Int(1..=6))), "{dice:?}");
    // g:holds(owner, zone, cards): at least each count, a count of 0 always held.
    let holds = [true, false, true, true, false].map(Value::Bool);
    assert_eq!(get("holds"), Value::List(holds.to_vec()));
    // g:lacks(owner, zone, cards): the cards short of each count, and the counts' sum.
    let ore = hand.count(card("ore")) as i64;
    assert_eq!(get("lacks"), Value::List(vec![Value::Int(2), Value::Int(ore + 2)]));
    assert_eq!(get("lacks_none"), Value::List(vec![Value::Int(0), Value::Int(0)]));
    let short = |name: &str, n: i64| (n - bank.count(card(name)) as i64).max(0);
    assert_eq!(get("lacks_bank"), Value::List(vec![Value::Int(short("brick", 1) + short("ore", 99)), Value::Int(100)]));
    let Value::List(harbors) = get("harbors") else { panic!("harbors is not a list") };
    let mut seen = 0;
    for (seat, got) in harbors.iter().enumerate() {
        let want: Vec<Value> = st
            .harbors
            .iter()
            .filter(|h| {
                topo.paths[h.path].ends.iter().any(|&x| st.intersections[x].is_some_and(|pc| pc.owner as usize == seat))
            })
            .map(|h| {
                let mut m = std::collections::BTreeMap::new();
                if let Some(r) = &h.resource {
                    m.insert("resource".to_string(), Value::Str(r.clone()));
                }
                m.insert("ratio".to_string(), Value::Int(h.ratio as i64));
                Value::Map(m)
            })
            .collect();
        seen += want.len();
        // An empty list is stored as an empty map.
        let got = match got {
            Value::Map(m) if m.is_empty() => Value::List(vec![]),
            v => v.clone(),
        };
        assert_eq!(got, Value::List(want), "seat {}", seat + 1);
    }
    assert!(seen > 0, "no seat builds on a harbor: the check above compares nothing");
    // g:open_intersections(spacing, seat): empty, with no piece beside it at spacing 2,
    // and with a seat, at the end of one of its path pieces; in the board's order.
    let open = |spacing: usize, seat: Option<usize>| {
        let v: Vec<usize> = (0..topo.intersections.len())
            .filter(|&n| {
                let at = &topo.intersections[n];
                st.intersections[n].is_none()
                    && (spacing < 2 || at.neighbors.iter().all(|&m| st.intersections[m].is_none()))
                    && seat.is_none_or(|s| {
                        at.paths.iter().any(|&pp| st.paths[pp].is_some_and(|pc| pc.owner as usize == s))
                    })
            })
            .collect();
        ids(&v)
    };
    let want =
        [(2, Some(0)), (2, Some(1)), (2, Some(2)), (2, Some(3)), (1, Some(0)), (1, Some(2)), (2, None), (1, None)];
    let Value::List(got) = get("open") else { panic!("open is not a list") };
    assert_eq!(got.len(), want.len());
    for (got, &(spacing, seat)) in got.iter().zip(&want) {
        // An empty list is stored as an empty map.
        let got = match got {
            Value::Map(m) if m.is_empty() => Value::List(vec![]),
            v => v.clone(),
        };
        assert_eq!(got, open(spacing, seat), "spacing {spacing}, seat {seat:?}");
    }
    let some = |v: Value| matches!(v, Value::List(l) if !l.is_empty());
    assert!(some(open(1, Some(0))) && some(open(2, None)), "no open site: nothing compared");
}

#[test]
fn a_bad_argument_gets_the_methods_error_at_the_scripts_line() {
    for (action, says) in [
        ("bad_count", "'pocket' is not a zone"),
        ("bad_hex", "there is no hex 999"),
        ("bad_color", "9"),
        ("bad_at", "a site is 'intersection' or 'path'"),
        ("bad_option", "no option named 'roads_cost'"),
        ("bad_cards", "belongs to a player"),
        ("bad_supply", "'castle' is not a piece"),
        ("bad_harbors", "there is no player 9"),
        ("bad_corner_pieces", "there is no hex 0"),
        ("bad_get", "the entry to read is a number or a string, not a table"),
        ("bad_roll", "rolls at most 1000 dice, not 1001"),
        ("bad_trail", "there is no player 9"),
        ("bad_trail_piece", "'castle' is not a piece"),
        ("bad_holds", "'gold' is not a card"),
        ("bad_holds_count", "the count of 'ore' is number, not an integer"),
        ("bad_holds_zone", "'pocket' is not a zone"),
        ("bad_lacks", "'gold' is not a card"),
        ("bad_lacks_count", "g:lacks: the count of 'ore' is number, not an integer"),
    ] {
        refused(action, says, true);
    }
}

#[test]
fn the_fast_writers_change_what_their_methods_change() {
    let mut g = game();
    g.act(0, "roll").expect("red rolls");
    let before = g.state().clone();
    let out = g.act(0, "write").expect("the writers run");
    let st = g.state();
    let spec = g.spec();
    let zone = |name: &str| spec.zones.iter().position(|z| z.name == name).expect("zone");
    let card = |name: &str| spec.cards.iter().position(|c| c.name == name).expect("card");
    assert_eq!(st.vars.get("w_int"), Some(&Value::Int(7)));
    assert_eq!(st.vars.get("w_float"), Some(&Value::Num(2.0)), "a float stays a float");
    assert_eq!(st.vars.get("w_bool"), Some(&Value::Bool(false)));
    assert_eq!(st.vars.get("w_str"), Some(&Value::Str("seven".into())));
    assert_eq!(st.vars.get("w_table"), Some(&Value::List(vec![Value::Int(1), Value::Int(2)])));
    assert_eq!(st.vars.get("w_gone"), None, "setting nil removes the value");
    let map = |pairs: &[(&str, Value)]| Value::Map(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect());
    let holes = map(&[("2", Value::Int(20)), ("3", Value::Int(30)), ("4", Value::Int(40)), ("6", Value::Int(60))]);
    let nested = map(&[
        ("list", Value::List(vec![Value::Str("a".into()), map(&[("b", Value::Bool(true))])])),
        ("7", Value::Num(2.5)),
        ("holes", holes),
        ("empty", map(&[])),
    ]);
    assert_eq!(
        st.vars.get("w_nested"),
        Some(&nested),
        "a table keeps its shape: lists, maps, keys 1..n only make a list"
    );
    assert_eq!(st.phase, "trade");
    assert_eq!(st.current, 0);
    assert_eq!(st.turn, before.turn + 1);
    let texts: Vec<&str> = out.messages.iter().map(|m| m.text.as_str()).collect();
    assert!(texts.ends_with(&["the writers ran", "42", "red holds 50% of 2.5", "red: 7"]), "{texts:?}");
    assert!(out.events.iter().any(|e| e == "written"), "{:?}", out.events);
    let hand =
        |st: &catan_engine::state::GameState, c: &str| st.zone(Some(0), zone("hand")).expect("hand").count(card(c));
    assert_eq!(hand(&st, "ore"), hand(&before, "ore") + 1);
    assert_eq!(hand(&st, "wool"), hand(&before, "wool") + 1);
    let bank = |st: &catan_engine::state::GameState| st.zone(None, zone("bank")).expect("bank").total();
    assert_eq!(bank(&st), bank(&before) - 2);
    // What the stored values hold is kept exactly as the methods keep it.
    let bytes: usize = st.vars.iter().map(|(k, v)| 32 + k.len() + v.size()).sum::<usize>()
        + st.players.iter().flat_map(|p| p.vars.iter()).map(|(k, v)| 32 + k.len() + v.size()).sum::<usize>();
    assert_eq!(st.var_bytes, bytes);
}

#[test]
fn a_writer_refused_gets_the_methods_error_and_changes_nothing() {
    // (action, error, located): an argument of the wrong type is refused by mlua before
    // the method runs, with no file:line of the script (as for every method).
    for (action, says, located) in [
        ("bad_move", "holds", true),
        ("bad_move_card", "'gold' is not a card", true),
        ("bad_set_current", "there is no player 9", true),
        ("bad_set_turn", "out of range", false),
        ("bad_log", "table", false),
        ("bad_log_format", "'%d' needs an integer", true),
        ("bad_log_arg", "a cards table is written with '%c', not '%s'", true),
        ("bad_set", "function", true),
        ("bad_set_nested", "function", true),
        ("bad_set_key", "table keys must be strings or integers", true),
    ] {
        refused(action, says, located);
    }
    // A `when` that writes while legal actions are listed is refused by the method.
    let g = game();
    let e = g.legal_actions(0).expect_err("a writing `when` fails the listing");
    assert!(e.to_string().contains("may not change"), "{e}");
}

/// `g:listens(event)` (docs/api.md): true where an `on(event, ...)` hook is registered.
#[test]
fn g_listens_says_whether_a_hook_listens_to_an_event() {
    let mut g = game();
    g.act(0, "roll").expect("red rolls");
    g.act(0, "listening").expect("the fixture's action runs");
    let heard = g.state().vars.get("listening").cloned();
    assert_eq!(heard, Some(Value::List(vec![Value::Bool(true), Value::Bool(false), Value::Bool(false)])));
}

/// `g:price(what, seat)` (docs/api.md): the "cost" filter's price from `{}`, read-only. Base
/// alone: the declared table itself; with a module's cost hook (`price_hook.lua`: a road
/// costs the first seat a wool more) the filter's answer, frozen as well.
#[test]
fn g_price_is_the_cost_filters_price_read_only() {
    let text = |v: &[&str]| v.iter().map(|s| Value::Str(s.to_string())).collect::<Vec<_>>();
    for (stack, road, same_table) in [
        (vec![GETTERS], "brick1 lumber1", true),
        (vec![GETTERS, "tests/variants/price_hook.lua"], "brick1 lumber1 wool1", false),
    ] {
        let header = Header {
            variants: stack.iter().map(|s| s.to_string()).collect(),
            players: 4,
            seed: 3,
            options: vec![],
            sandbox: false,
        };
        let mut g = Game::new(header).expect("the fixture loads");
        g.act(0, "roll").expect("red rolls");
        g.act(0, "prices").expect("the fixture's action runs");
        let mut want = text(&[road, "brick1 lumber1 wool1 grain1", "grain2 ore3", "wool1 grain1 ore1", ""]);
        want.push(Value::Bool(same_table));
        assert_eq!(g.state().vars.get("prices"), Some(&Value::List(want)), "{stack:?}");
        let before = g.state().clone();
        let e = g.act(0, "bad_price_write").expect_err("a price is read-only");
        assert!(e.to_string().contains("attempt to change a frozen table"), "{stack:?}: {e}");
        assert!(*g.state() == before, "{stack:?}: the refused action changed the state");
    }
}

/// The piece counts `g:piece_count` keeps (`Ctx::pieces_on`) belong to the state they were
/// counted on: a copy of the game on fresh scripts (`Game::try_clone`, Python's
/// `Game.clone()`), a restored snapshot and a loaded save count their own pieces.
#[test]
fn kept_piece_counts_follow_the_state_installed() {
    let mut g =
        Game::new(Header { variants: vec!["base".into()], players: 4, seed: 11, options: vec![], sandbox: false })
            .expect("base loads");
    let mut bot = catan_engine::bot::RandomBot::new(5);
    let points = |g: &Game| (0..4).map(|s| g.points(s, true).expect("points")).collect::<Vec<_>>();
    let (snap, at_snap) = (g.snapshot(), points(&g));
    for _ in 0..60 {
        let seat = g.to_act().expect("someone acts");
        let action = bot.choose(&g, seat).expect("a draw").expect("an action");
        g.perform(seat, &action).expect("the drawn action is legal");
    }
    let now = points(&g);
    assert_ne!(now, at_snap, "the game moved on: {now:?}");
    assert_eq!(points(&g.try_clone().expect("a copy")), now, "a copy on fresh scripts");
    let (loaded, _) = Game::load_json(&g.save_json()).expect("the save loads");
    assert_eq!(points(&loaded), now, "a loaded save");
    g.restore(&snap);
    assert_eq!(points(&g), at_snap, "a restored snapshot");
}

/// `g:selections` lists every way to pick n cards within a hand, in its kinds' order, and
/// `g:selection` finds each of them by its place without the list (what base's discard
/// lists and draws: rulebook, "Rolling a 7").
#[test]
fn g_selections_lists_the_ways_to_pick_and_g_selection_finds_each() {
    let mut g = game();
    g.act(0, "roll").expect("red rolls");
    g.act(0, "selections").expect("the selections run");
    let st = g.state();
    let Some(Value::Map(s)) = st.vars.get("selections") else { panic!("no selections stored") };
    let get = |k: &str| s.get(k).cloned().unwrap_or(Value::Bool(false));
    let text = |k: &str| match get(k) {
        Value::Str(t) => t,
        other => panic!("{k}: {other:?}"),
    };
    assert_eq!(text("within"), "brick1 ore1, ore2");
    assert_eq!(text("any"), "brick2, brick1 ore1, ore2");
    assert_eq!((text("none"), get("none_count")), (String::new(), Value::Int(1)));
    assert_eq!((get("too_many"), text("too_many_drawn")), (Value::Int(0), "nil".to_string()));
    // Ways to pick 5 of brick 2, lumber 3, wool 1, ore 4, counted by hand: 22.
    assert_eq!(get("count"), Value::Int(22));
    assert_eq!(get("drawn_alike"), Value::Bool(true));
    assert_eq!(text("last"), "wool1 ore4");
    refused("bad_selections_kind", "'gold' is not a card of this game", true);
    refused("bad_selections_twice", "'ore' is listed twice", true);
    refused("bad_selections_n", "cannot pick -1 cards", true);
    refused("bad_selections_long", "draw one with g:selection", true);
    refused("bad_selection_r", "r is 1, not in [0, 1)", true);
    // Counting is charged before it is done: a huge pick runs out of the budget or of
    // host memory, never hangs.
    refused("bad_selection_huge", "budget", false);
    refused("bad_selections_empty_huge", "allocate more than 32 MiB", false);
}

/// `g:trades` lists each group given for each other kind held where it is taken from, and
/// `g:trade_at` finds each by its place without the list (what base's maritime trade lists
/// and draws: rulebook, "Maritime Trade"), by the C function and the mlua function alike.
#[test]
fn g_trades_lists_each_group_for_each_other_kind_and_g_trade_at_finds_each() {
    for fast in [true, false] {
        catan_engine::script::set_fast_methods(fast);
        let mut g = game();
        g.act(0, "roll").expect("red rolls");
        g.act(0, "trades").expect("the trades run");
        let st = g.state();
        let Some(Value::Map(s)) = st.vars.get("trades") else { panic!("no trades stored") };
        let get = |k: &str| s.get(k).cloned().unwrap_or(Value::Bool(false));
        let text = |k: &str| match get(k) {
            Value::Str(t) => t,
            other => panic!("{k}: {other:?}"),
        };
        // Ore is not traded for ore, nor brick and wool for brick or wool; lumber is held
        // 0, grain not at all.
        assert_eq!(text("counts"), "ore4>brick1, ore4>wool1, brick1 wool2>ore1", "fast: {fast}");
        assert_eq!(get("drawn_alike"), Value::Bool(true), "fast: {fast}");
        assert_eq!(text("any"), "grain2>ore1, grain2>wool1", "fast: {fast}");
        // The bank holds every resource at the start: 4 ore for each of the 4 others.
        assert_eq!(get("bank"), Value::Int(4), "fast: {fast}");
        assert_eq!((get("none"), text("none_drawn")), (Value::Int(0), "nil".to_string()), "fast: {fast}");
        assert_eq!(text("last"), "brick1 wool2>ore1", "fast: {fast}");
        refused("bad_trades_kind", "'gold' is not a card of this game", true);
        refused("bad_trades_count", "a group gives 0 of 'ore'", true);
        refused("bad_trades_group", "entry 1 is string, not a table of counts", true);
        refused("bad_trades_twice", "'wool' is listed twice", true);
        refused("bad_trades_zone", "'vault' is not a zone of this game", true);
        refused("bad_trades_zone_nothing_given", "'vault' is not a zone of this game", true);
        refused("bad_trade_at_r", "r is -0.5, not in [0, 1)", true);
    }
    catan_engine::script::set_fast_methods(true);
}

/// `g:log`'s `%c` writes a table of card counts as commands write cards, in the order of the
/// game's cards (categories by name, each as declared: knight before the resources), by the C function and by the mlua function alike (base's trade log:
/// rulebook, "Maritime Trade").
#[test]
fn a_logged_cards_table_reads_as_a_command_writes_it() {
    for fast in [true, false] {
        catan_engine::script::set_fast_methods(fast);
        let mut g = game();
        g.act(0, "roll").expect("red rolls");
        let out = g.act(0, "log_cards").expect("the cards are logged");
        let texts: Vec<&str> = out.messages.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(
            texts,
            ["red trades 4 ore to the bank for brick", "nothing and knight brick 2 grain"],
            "fast: {fast}"
        );
        refused("bad_log_cards_kind", "'gold' is not a card of this game", true);
        refused("bad_log_cards_count", "'%c' needs counts", true);
        refused("bad_log_cards_spec", "a cards table is written with '%c', not '%s'", true);
        refused("bad_log_cards_arg", "'%c' needs a table of card counts", true);
    }
    catan_engine::script::set_fast_methods(true);
}
