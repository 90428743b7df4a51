//! Forks over the protocol (docs/protocol.md, "Forks"): `fork`, then `act`, `legal`,
//! `view`, `status` and `drop` naming it, in `catan serve` and for an external bot in the
//! middle of a decision. A fork is fair (reseeded: it never shows the real next roll; a
//! seat's fork deals again what that seat cannot see), it never touches the real game,
//! and it stays within limits that refuse with a clear error.

use catan_engine::protocol::forks::{ForkLimits, Forks};
use catan_engine::protocol::Server;
use catan_engine::Game;
use serde_json::{json, Map, Value as J};

use crate::common;
use common::sb;

fn ask(server: &mut Server, request: J) -> J {
    serde_json::from_str(&server.handle_line(&request.to_string())).unwrap()
}

fn ok(server: &mut Server, request: J) -> J {
    let a = ask(server, request.clone());
    assert_eq!(a["ok"], json!(true), "{request} -> {a}");
    a
}

fn base(seed: u64) -> Server {
    let mut s = Server::new();
    ok(&mut s, json!({"cmd": "new", "variant": "base", "players": 4, "seed": seed}));
    s
}

/// The roll an `act` answer's messages tell ("red rolls 6+1 = 7" -> "6+1").
fn roll_of(answer: &J) -> String {
    let text = answer["messages"][0]["text"].as_str().unwrap_or_default();
    text.split_whitespace().nth(2).unwrap_or_default().to_string()
}

fn obj(v: J) -> Map<String, J> {
    v.as_object().unwrap().clone()
}

#[test]
fn a_fork_never_shows_the_real_next_roll() {
    let mut s = base(1);
    let real_rng = ok(&mut s, json!({"cmd": "view", "seat": "referee"}))["view"]["rng"].clone();
    let mut rolls = vec![];
    for n in 0..8 {
        let f = ok(&mut s, json!({"cmd": "fork"}));
        assert_eq!(f["fork"], json!(n + 1));
        // Its random generator is not the game's.
        let rng = ok(&mut s, json!({"cmd": "view", "fork": f["fork"], "seat": "referee"}))["view"]["rng"].clone();
        assert_ne!(rng, real_rng, "fork {n} kept the game's generator");
        rolls.push(roll_of(&ok(&mut s, json!({"cmd": "act", "fork": f["fork"], "action": "roll"}))));
    }
    let real = roll_of(&ok(&mut s, json!({"cmd": "act", "action": "roll"})));
    assert_eq!(real, "6+1", "the docs' first roll");
    // The forks roll their own dice: not the real roll each time, and not one roll.
    assert!(rolls.iter().any(|r| *r != real), "{rolls:?} against {real}");
    assert!(rolls.iter().any(|r| *r != rolls[0]), "{rolls:?}");
    // A fork with a given seed is the same fork every time.
    let mut again = base(1);
    let a = ok(&mut again, json!({"cmd": "fork", "seed": 5}));
    let b = ok(&mut again, json!({"cmd": "fork", "seed": 5}));
    let ra = roll_of(&ok(&mut again, json!({"cmd": "act", "fork": a["fork"], "action": "roll"})));
    let rb = roll_of(&ok(&mut again, json!({"cmd": "act", "fork": b["fork"], "action": "roll"})));
    assert_eq!((ra, a["seed"].clone()), (rb, json!(5)));

    // Dice forced in the sandbox are the real game's next roll: a fork forgets them.
    let mut g = common::beginner(4, &[]);
    sb(&mut g, "dice 6 6");
    let mut forks = Forks::new();
    let mut fork_rolls = vec![];
    for seed in 0..8 {
        let f = forks.handle(&g, "fork", &obj(json!({"seed": seed}))).unwrap();
        let a = forks.handle(&g, "act", &obj(json!({"fork": f["fork"], "action": "roll"}))).unwrap();
        fork_rolls.push(roll_of(&J::Object(a)));
    }
    assert!(fork_rolls.iter().any(|r| r != "6+6"), "{fork_rolls:?}");
}

/// Two games that differ only in cards red cannot see (blue and white hold a brick and an
/// ore, the other way round): red's forks with the same seed are the same, so nothing of
/// what blue and white really hold shows in them.
#[test]
fn a_seats_fork_never_shows_another_seats_hidden_cards() {
    let mut a = common::beginner(4, &[]);
    sb(&mut a, "give blue 1 brick");
    sb(&mut a, "give white 1 ore");
    let mut b = common::beginner(4, &[]);
    sb(&mut b, "give blue 1 ore");
    sb(&mut b, "give white 1 brick");
    let view = |g: &Game, seat: J| {
        let mut f = Forks::new();
        f.handle(g, "fork", &obj(json!({"seat": 1, "seed": 9}))).unwrap();
        f.handle(g, "view", &obj(json!({"fork": 1, "seat": seat}))).unwrap()["view"].clone()
    };
    let real = |g: &Game, seat: usize| catan_engine::view::view(g, catan_engine::engine::Observer::Seat(seat));
    assert_eq!(real(&a, 0), real(&b, 0), "red sees the same in both games");
    assert_ne!(real(&a, 1), real(&b, 1), "blue holds other cards");
    for seat in [json!("referee"), json!(2), json!(3), json!(1)] {
        assert_eq!(view(&a, seat.clone()), view(&b, seat.clone()), "red's fork as {seat} sees");
    }
    // Red's own hand is red's, in the fork as in the game.
    let hand = |v: &J| v["players"][0].clone();
    assert_eq!(hand(&view(&a, json!(1))), hand(&real(&a, 0)));

    // A bot's forks are its own seat's: another seat is refused, and so is the referee's view.
    let mut f = Forks::new();
    f.begin_decision(0, 77, a.log().len());
    let e = f.handle(&a, "fork", &obj(json!({"seat": 2}))).unwrap_err();
    assert_eq!(e.kind, "refused", "{e}");
    assert!(e.message.contains("its own seat"), "{e}");
    let id = f.handle(&a, "fork", &obj(json!({}))).unwrap()["fork"].clone();
    assert_eq!(f.handle(&a, "view", &obj(json!({"fork": id, "seat": "referee"}))).unwrap_err().kind, "refused");
    assert!(f.handle(&a, "view", &obj(json!({"fork": id, "seat": "blue"}))).is_ok());
    f.end_decision();
    assert_eq!(f.open(), 0, "a decision's forks end with it");
}

#[test]
fn acting_on_a_fork_leaves_the_real_game_as_it_was() {
    let mut s = base(4);
    ok(&mut s, json!({"cmd": "act", "action": "roll"}));
    let before = |s: &mut Server| {
        let save = ok(s, json!({"cmd": "save"}))["save"].clone();
        let views: Vec<J> = ["referee", "1", "spectator"]
            .iter()
            .map(|seat| {
                let seat = seat.parse::<u64>().map_or(json!(seat), |n| json!(n));
                ok(s, json!({"cmd": "view", "seat": seat}))["view"].clone()
            })
            .collect();
        let status = ok(s, json!({"cmd": "status"}));
        (save, views, status)
    };
    let was = before(&mut s);
    // A fork played far: its first legal action again and again, a fork of it, dropped.
    let f = ok(&mut s, json!({"cmd": "fork"}))["fork"].clone();
    let mut acted = 0;
    for _ in 0..60 {
        let legal = ok(&mut s, json!({"cmd": "legal", "fork": f}));
        let Some(first) = legal["actions"].as_array().and_then(|a| a.first()).cloned() else { break };
        let seat = legal["seat"].clone();
        let a = ok(&mut s, json!({"cmd": "act", "fork": f, "seat": seat, "action": first["action"]}));
        assert_eq!(a["fork"], f);
        acted += 1;
    }
    assert!(acted > 20, "the fork was played: {acted} actions");
    let status = ok(&mut s, json!({"cmd": "status", "fork": f}));
    assert_eq!(status["actions"], json!(1 + acted), "the fork counts the game's actions and its own");
    let g = ok(&mut s, json!({"cmd": "fork", "fork": f, "seat": 2}))["fork"].clone();
    ok(&mut s, json!({"cmd": "legal", "fork": g}));
    assert_eq!(ok(&mut s, json!({"cmd": "drop", "fork": f}))["open"], json!(1));
    assert_eq!(before(&mut s), was, "the real game's save, views and status");
    // The game goes on as if no fork had been: the next real action is the one it was.
    let real = ok(&mut s, json!({"cmd": "act", "action": "end"}));
    let mut fresh = base(4);
    ok(&mut fresh, json!({"cmd": "act", "action": "roll"}));
    assert_eq!(ok(&mut fresh, json!({"cmd": "act", "action": "end"})), real);
    // Forks end with their game.
    ok(&mut s, json!({"cmd": "new", "seed": 2}));
    assert_eq!(ask(&mut s, json!({"cmd": "status", "fork": g}))["error"]["kind"], json!("no_fork"));
}

#[test]
fn forks_stay_within_their_limits() {
    let limits = ForkLimits { open: 2, actions_per_fork: 3, actions_per_decision: 4 };
    let mut s = Server::with_fork_limits(limits);
    ok(&mut s, json!({"cmd": "new", "seed": 1}));
    let f1 = ok(&mut s, json!({"cmd": "fork"}))["fork"].clone();
    ok(&mut s, json!({"cmd": "fork"}));
    let third = ask(&mut s, json!({"cmd": "fork"}));
    assert_eq!(third["error"]["kind"], json!("limit"), "{third}");
    assert!(third["error"]["message"].as_str().unwrap().contains("2 forks are open"), "{third}");
    ok(&mut s, json!({"cmd": "drop", "fork": f1}));
    let f3 = ok(&mut s, json!({"cmd": "fork"}))["fork"].clone();
    assert_eq!(f3, json!(3), "numbers are not reused");
    for action in ["roll", "robber H1", "end"] {
        let a = ask(&mut s, json!({"cmd": "act", "fork": f3, "action": action}));
        if a["ok"] != json!(true) {
            // Robber or not, three actions: whichever the fork's dice allow.
            let legal = ok(&mut s, json!({"cmd": "legal", "fork": f3}));
            ok(&mut s, json!({"cmd": "act", "fork": f3, "action": legal["actions"][0]["action"]}));
        }
    }
    let fourth = ask(&mut s, json!({"cmd": "act", "fork": f3, "action": "end"}));
    assert_eq!(fourth["error"]["kind"], json!("limit"), "{fourth}");
    assert!(fourth["error"]["message"].as_str().unwrap().contains("3 actions, the most on one fork"), "{fourth}");
    // Other errors: a fork that is not open, a request that is not for forks.
    let none = ask(&mut s, json!({"cmd": "legal", "fork": 99}));
    assert_eq!(none["error"]["kind"], json!("no_fork"), "{none}");
    assert!(none["error"]["message"].as_str().unwrap().contains("open: 2, 3"), "{none}");
    assert_eq!(ask(&mut s, json!({"cmd": "undo", "fork": f3}))["error"]["kind"], json!("protocol"));
    assert_eq!(ask(&mut s, json!({"cmd": "drop"}))["error"]["kind"], json!("protocol"));
    assert_eq!(ok(&mut s, json!({"cmd": "drop", "fork": "all"}))["open"], json!(0));

    // A bot's decision: at most 4 actions on all its forks together.
    let g = Game::new(common::header(4, 1, &[], false)).unwrap();
    let mut f = Forks::with_limits(limits);
    f.begin_decision(0, 5, 0);
    let mut taken = 0;
    let mut refused = None;
    for _ in 0..3 {
        let id = f.handle(&g, "fork", &obj(json!({}))).unwrap()["fork"].clone();
        for _ in 0..3 {
            let legal = f.handle(&g, "legal", &obj(json!({"fork": id}))).unwrap();
            let act = obj(json!({"fork": id, "seat": legal["seat"], "action": legal["actions"][0]["action"]}));
            match f.handle(&g, "act", &act) {
                Ok(_) => taken += 1,
                Err(e) => refused = refused.or(Some(e)),
            }
        }
        f.handle(&g, "drop", &obj(json!({"fork": id}))).unwrap();
    }
    assert_eq!(taken, 4);
    let e = refused.expect("the fifth action refused");
    assert_eq!(e.kind, "limit");
    assert!(e.message.contains("4 actions on forks in this decision"), "{e}");
    // The next decision starts afresh.
    f.begin_decision(0, 5, 0);
    let id = f.handle(&g, "fork", &obj(json!({}))).unwrap()["fork"].clone();
    assert!(f.handle(&g, "act", &obj(json!({"fork": id, "action": "roll"}))).is_ok());
}

/// The "Forks" example of docs/protocol.md, request by request: the answers are the page's.
#[test]
fn the_forks_transcript_of_the_docs_is_what_the_server_answers() {
    let doc = include_str!("../docs/protocol.md");
    let section = &doc[doc.find("\n## Forks").expect("the Forks section")..];
    let start = section.find("printf '%s\\n' \\\n").expect("the example's printf");
    let end = start + section[start..].find("| cargo run").expect("the example's pipe");
    let requests: Vec<&str> =
        section[start..end].lines().skip(1).filter_map(|l| l.trim().strip_prefix('\'')?.split('\'').next()).collect();
    assert!(requests.len() >= 8, "{requests:?}");
    let answers_at = end + section[end..].find("```json\n").expect("the answers") + "```json\n".len();
    let answers: Vec<&str> = section[answers_at..].lines().take_while(|l| !l.starts_with("```")).collect();
    let mut s = Server::new();
    let got: Vec<String> = requests.iter().map(|r| s.handle_line(r)).collect();
    assert_eq!(got, answers);
}

/// The example lookahead bot (examples/bots/lookahead_bot.py) plays whole games on forks
/// over the protocol, beside our bots, the same games on one worker or two; a bot that
/// asks for something else than forks while deciding is told so and may go on.
#[test]
fn the_lookahead_example_plays_on_forks_over_the_protocol() {
    use common::process::catan_in;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let bot = format!("look=python3 '{}/examples/bots/lookahead_bot.py'", env!("CARGO_MANIFEST_DIR"));
    let run = |jobs: &str| {
        let args = [
            "sim",
            "--games",
            "2",
            "--seed",
            "1",
            "--jobs",
            jobs,
            "--json",
            "--option",
            "victory_points=4",
            "--bots",
            "look,random,greedy,random",
            "--bot-cmd",
            &bot,
        ];
        let run = catan_in(dir, &args, "", 120);
        assert_eq!(run.code, Some(0), "{}", run.err);
        let mut r: J = serde_json::from_str(&run.out).unwrap();
        for timing in ["seconds", "games_per_second", "jobs"] {
            r.as_object_mut().unwrap().remove(timing);
        }
        r
    };
    let (one, two) = std::thread::scope(|s| {
        let a = s.spawn(|| run("1"));
        let b = s.spawn(|| run("2"));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!((one["finished"].clone(), one["failed"].clone()), (json!(2), json!([])), "{one}");
    assert_eq!(one["bots"]["look"]["seats"], json!(1), "{one}");
    assert_eq!(two, one);

    // A bot that asks for the real game's save while deciding gets an error line, then answers.
    let script = "import sys, json\nfor line in sys.stdin:\n    r = json.loads(line)\n    print(json.dumps({'cmd': 'save'}), flush=True)\n    e = json.loads(sys.stdin.readline())\n    assert e['error']['kind'] == 'protocol', e\n    sys.stderr.write(e['error']['message'] + '\\n')\n    print(json.dumps({'index': 0, 'request': r['request']}), flush=True)\n";
    let path = dir.join(format!("asks_save_{}.py", std::process::id()));
    std::fs::write(&path, script).unwrap();
    let cmd = format!("python3 '{}'", path.display());
    let args = ["play", "--seed", "7", "--bots", "none", "--bot-cmd", &format!("red={cmd}")];
    let run = catan_in(dir, &args, "show players\n", 60);
    assert_eq!(run.code, Some(0), "{}", run.err);
    assert!(run.err.contains("a bot may ask about forks only"), "{}", run.err);
    assert!(run.out.contains("red (bot)> roll"), "{}", run.out);
}

/// Forks played in turn keep their own positions: two forks of one seed, played the same
/// actions alternately, end the same, and a third left alone is where it was.
#[test]
fn forks_played_in_turn_keep_their_own_positions() {
    let mut s = base(6);
    let a = ok(&mut s, json!({"cmd": "fork", "seed": 3}))["fork"].clone();
    let b = ok(&mut s, json!({"cmd": "fork", "seed": 3}))["fork"].clone();
    let c = ok(&mut s, json!({"cmd": "fork", "seed": 3}))["fork"].clone();
    let view_c = ok(&mut s, json!({"cmd": "view", "fork": c, "seat": "referee"}))["view"].clone();
    for _ in 0..30 {
        let legal = ok(&mut s, json!({"cmd": "legal", "fork": a}));
        let Some(first) = legal["actions"].as_array().and_then(|x| x.last()).cloned() else { break };
        for f in [&a, &b] {
            ok(&mut s, json!({"cmd": "act", "fork": f, "seat": legal["seat"], "action": first["action"]}));
        }
    }
    let view = |s: &mut Server, f: &J| ok(s, json!({"cmd": "view", "fork": f, "seat": "referee"}))["view"].clone();
    assert_eq!(view(&mut s, &a), view(&mut s, &b));
    assert_ne!(view(&mut s, &a), view_c);
    assert_eq!(view(&mut s, &c), view_c);
}
