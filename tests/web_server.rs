//! `catan web` (src/web/, docs/web.md): the server started in-process on a free port and
//! spoken to over real WebSockets and HTTP: tokens refused or bound to their role, a
//! seat playing and receiving updates, hidden information kept on the server's side, the
//! page's files served with their types and nothing fetched from elsewhere.

use catan_engine::engine::{Game, Header, Observer};
use catan_engine::web::{start, WebConfig, WebServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value as J};
use std::io::{Read, Write};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A base game of 4 with seed 1 (red's first roll is a 7: docs/protocol.md), bots as
/// `catan play --bots` takes them, no pause between the bots' actions.
fn server(bots: &str) -> WebServer {
    let h = Header::from_args("base", Some(4), 1, vec![], false).expect("header");
    start(WebConfig { bots: bots.into(), ..WebConfig::new(h) }).expect("the server starts")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

async fn connect(s: &WebServer, token: &str) -> Result<Ws, WsError> {
    let url = format!("ws://{}/ws?token={token}", s.addr);
    tokio_tungstenite::connect_async(url).await.map(|(ws, _)| ws)
}

/// The next message, as JSON (a test never waits more than 10 s for one).
async fn next(ws: &mut Ws) -> J {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket stays open")
            .expect("a message");
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).expect("JSON");
        }
    }
}

/// The next pushed update (answers skipped).
async fn next_update(ws: &mut Ws) -> J {
    loop {
        let m = next(ws).await;
        if m["push"] == "update" {
            return m;
        }
    }
}

/// Sends a request and returns its answer, with the updates that came before it.
async fn ask(ws: &mut Ws, mut req: J) -> (J, Vec<J>) {
    req["id"] = json!(99);
    ws.send(Message::Text(req.to_string().into())).await.expect("sent");
    let mut updates = vec![];
    loop {
        let m = next(ws).await;
        if m["push"] == "update" {
            updates.push(m);
        } else {
            assert_eq!(m["id"], 99, "{m}");
            return (m, updates);
        }
    }
}

fn log_texts(update: &J) -> Vec<String> {
    update["log"].as_array().into_iter().flatten().filter_map(|l| l["text"].as_str().map(str::to_string)).collect()
}

#[test]
fn a_bad_or_missing_token_is_refused_with_a_clear_error() {
    let s = server("none");
    runtime().block_on(async {
        for (token, status, words) in [("nope", 403, "not one of this game's"), ("", 403, "not one of this game's")] {
            match connect(&s, token).await {
                Err(WsError::Http(r)) => {
                    assert_eq!(r.status().as_u16(), status);
                    let body = String::from_utf8_lossy(r.body().as_deref().unwrap_or_default()).to_string();
                    assert!(body.contains(words), "{body}");
                }
                other => panic!("token {token:?} should be refused, got {:?}", other.map(|_| ())),
            }
        }
        let url = format!("ws://{}/ws", s.addr);
        match tokio_tungstenite::connect_async(url).await {
            Err(WsError::Http(r)) => {
                assert_eq!(r.status().as_u16(), 401);
                let body = String::from_utf8_lossy(r.body().as_deref().unwrap_or_default()).to_string();
                assert!(body.contains("no token"), "{body}");
            }
            other => panic!("no token should be refused, got {:?}", other.map(|_| ())),
        }
    });
}

#[test]
fn a_seat_plays_an_action_and_sees_the_bots_answer_in_updates() {
    let s = server("2,3,4=random");
    let red = s.seat_tokens[0].clone().expect("red is human");
    assert!(s.seat_tokens[1..].iter().all(Option::is_none), "bot seats get no link");
    runtime().block_on(async {
        let mut ws = connect(&s, &red).await.expect("red connects");
        let first = next_update(&mut ws).await;
        assert_eq!(first["role"], "red");
        assert_eq!(first["seat"], 1);
        assert_eq!(first["legal"]["actions"][0]["text"], "roll");
        // The rules' own words for a refusal, the game unchanged.
        let (answer, _) = ask(&mut ws, json!({"cmd": "act", "action": "end"})).await;
        assert_eq!(answer["ok"], false);
        assert_eq!(answer["error"]["kind"], "refused");
        assert!(answer["error"]["message"].as_str().unwrap_or_default().contains("roll"), "{answer}");
        let (answer, _) = ask(&mut ws, json!({"cmd": "act", "action": "roll"})).await;
        assert_eq!(answer["ok"], true, "{answer}");
        assert_eq!(answer["done"], "roll");
        let (answer, _) =
            ask(&mut ws, json!({"cmd": "act", "action": {"name": "robber", "args": [{"Hex": "H5"}]}})).await;
        assert_eq!(answer["ok"], true, "{answer}");
        let (answer, _) = ask(&mut ws, json!({"cmd": "act", "action": "end"})).await;
        assert_eq!(answer["ok"], true, "{answer}");
        let ended = answer["actions"].as_u64().expect("actions");
        // The bots play blue, white and orange; each action shows in an update, until red
        // is to act again (the updates of red's own actions may come first).
        let mut lines = vec![];
        loop {
            let u = next_update(&mut ws).await;
            lines.extend(log_texts(&u));
            if u["status"]["to_act"] == 1 && u["status"]["actions"].as_u64() > Some(ended) {
                break;
            }
        }
        for bot in ["blue (bot)> roll", "white (bot)> roll", "orange (bot)> roll"] {
            assert!(lines.iter().any(|l| l.starts_with(bot)), "{bot} in {lines:?}");
        }
    });
}

#[test]
fn a_seat_never_receives_another_seats_hidden_cards() {
    let s = server("none");
    let (red, white) = (s.seat_tokens[0].clone().expect("red"), s.seat_tokens[2].clone().expect("white"));
    // The same game beside the server: what the referee sees (the seats do hold cards).
    let mut game = Game::new(Header::from_args("base", Some(4), 1, vec![], false).expect("header")).expect("game");
    runtime().block_on(async {
        let mut r = connect(&s, &red).await.expect("red");
        let mut w = connect(&s, &white).await.expect("white");
        let mut seen = vec![next_update(&mut r).await, next_update(&mut w).await];
        for action in ["roll", "robber H5", "end"] {
            let (answer, updates) = ask(&mut r, json!({"cmd": "act", "action": action})).await;
            assert_eq!(answer["ok"], true, "{answer}");
            game.act(0, action).expect("the same action on the referee's game");
            seen.extend(updates);
            seen.push(next_update(&mut r).await);
            seen.push(next_update(&mut w).await);
        }
        let referee = catan_engine::view::view(&game, Observer::Referee);
        for u in &seen {
            let me = u["seat"].as_u64().expect("a seat's page") as usize - 1;
            for (i, p) in u["view"]["players"].as_array().expect("players").iter().enumerate() {
                let hand = &p["zones"]["hand"];
                if i == me {
                    assert!(hand.get("count").is_none(), "its own hand in full: {hand}");
                } else {
                    assert!(hand.get("count").is_some(), "seat {} sees seat {}'s hand: {hand}", me + 1, i + 1);
                    assert!(p["zones"]["dev"].get("count").is_some(), "{}", p["zones"]["dev"]);
                }
            }
            assert_eq!(u["view"]["rng"], J::Null);
            assert_ne!(u["view"]["observer"], "referee");
        }
        // The referee's view holds blue's cards, which no update of red's or white's did.
        let blue_hand = &referee["players"][1]["zones"]["hand"];
        assert!(blue_hand.as_object().is_some_and(|h| !h.is_empty() && !h.contains_key("count")), "{blue_hand}");
        // What was stolen is told to the thief and the victim only.
        let red_log: Vec<String> = seen.iter().filter(|u| u["seat"] == 1).flat_map(log_texts).collect();
        let white_log: Vec<String> = seen.iter().filter(|u| u["seat"] == 3).flat_map(log_texts).collect();
        assert!(red_log.iter().any(|l| l.starts_with("red stole")), "{red_log:?}");
        assert!(white_log.iter().any(|l| l.contains("steals a card from blue")), "{white_log:?}");
        assert!(!white_log.iter().any(|l| l.starts_with("red stole")), "{white_log:?}");
        // Nor can white ask for more than its own view.
        for req in [
            json!({"cmd": "view", "seat": "referee"}),
            json!({"cmd": "view", "seat": 2}),
            json!({"cmd": "legal", "seat": "blue"}),
            json!({"cmd": "save"}),
            json!({"cmd": "fork", "seat": 3}),
            json!({"cmd": "new"}),
        ] {
            let (answer, _) = ask(&mut w, req.clone()).await;
            assert_eq!(answer["error"]["kind"], "forbidden", "{req} -> {answer}");
        }
        let (answer, _) = ask(&mut w, json!({"cmd": "view"})).await;
        assert_eq!(answer["view"]["observer"], "white");
    });
}

#[test]
fn a_seat_cannot_act_for_another_nor_a_spectator_at_all() {
    let s = server("4");
    let blue = s.seat_tokens[1].clone().expect("blue");
    runtime().block_on(async {
        let mut b = connect(&s, &blue).await.expect("blue");
        next_update(&mut b).await;
        let (answer, _) = ask(&mut b, json!({"cmd": "act", "seat": 1, "action": "roll"})).await;
        assert_eq!(answer["error"]["kind"], "forbidden", "{answer}");
        assert!(answer["error"]["message"].as_str().unwrap_or_default().contains("this link plays blue"), "{answer}");
        // Its own seat, out of turn: the rules refuse, nothing changes.
        let (answer, _) = ask(&mut b, json!({"cmd": "act", "action": "roll"})).await;
        assert_eq!(answer["ok"], false, "{answer}");
        let (status, _) = ask(&mut b, json!({"cmd": "status"})).await;
        assert_eq!(status["actions"], 0);

        let mut spectator = connect(&s, &s.spectator_token).await.expect("spectator");
        let u = next_update(&mut spectator).await;
        assert_eq!(u["view"]["observer"], "spectator");
        assert_eq!(u["legal"], J::Null);
        for p in u["view"]["players"].as_array().expect("players") {
            assert!(p["zones"]["hand"].get("count").is_some(), "{}", p["zones"]["hand"]);
            assert_eq!(p["points"], p["public_points"]);
        }
        let (answer, _) = ask(&mut spectator, json!({"cmd": "act", "action": "roll"})).await;
        assert_eq!(answer["error"]["kind"], "forbidden", "{answer}");
        let (answer, _) = ask(&mut spectator, json!({"cmd": "view", "seat": 1})).await;
        assert_eq!(answer["error"]["kind"], "forbidden", "{answer}");

        // The host's page plays every human seat, never a bot's.
        let mut host = connect(&s, &s.host_token).await.expect("host");
        let u = next_update(&mut host).await;
        assert_eq!((u["role"].as_str(), u["seat"].as_u64()), (Some("host"), Some(1)));
        let (answer, _) = ask(&mut host, json!({"cmd": "act", "seat": 4, "action": "roll"})).await;
        assert_eq!(answer["error"]["kind"], "forbidden", "{answer}");
        assert!(answer["error"]["message"].as_str().unwrap_or_default().contains("bot"), "{answer}");
        let (answer, _) = ask(&mut host, json!({"cmd": "act", "action": "roll"})).await;
        assert_eq!(answer["ok"], true, "{answer}");
        // Undo is the host's: a seat's page may not take actions back.
        let (answer, _) = ask(&mut b, json!({"cmd": "undo"})).await;
        assert_eq!(answer["error"]["kind"], "forbidden", "{answer}");
        let (answer, _) = ask(&mut host, json!({"cmd": "undo"})).await;
        assert_eq!((answer["ok"].as_bool(), answer["actions"].as_u64()), (Some(true), Some(0)), "{answer}");
    });
}

/// A plain HTTP GET: the status line, the headers (lower-cased) and the body.
fn get(s: &WebServer, path: &str) -> (String, String, String) {
    let mut stream = std::net::TcpStream::connect(s.addr).expect("connect");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", s.addr).expect("request");
    let mut text = String::new();
    stream.read_to_string(&mut text).expect("response");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    (status.to_string(), headers.to_ascii_lowercase(), body.to_string())
}

#[test]
fn the_page_is_served_with_its_types_and_fetches_nothing_from_elsewhere() {
    let s = server("none");
    for (path, kind) in [
        ("/", "text/html"),
        ("/index.html", "text/html"),
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/principality.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let (status, headers, body) = get(&s, path);
        assert!(status.contains("200"), "{path}: {status}");
        assert!(headers.contains(&format!("content-type: {kind}")), "{path}: {headers}");
        // The SVG namespace is a name, never fetched.
        let outside = body.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside.contains("http://") && !outside.contains("https://"), "{path} refers to another host");
    }
    let (status, _, _) = get(&s, "/nothing.js");
    assert!(status.contains("404"), "{status}");
    // Every file of web/ is served (the page needs no build step and no internet).
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/web")).expect("web/").flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let (status, _, body) = get(&s, &format!("/{name}"));
        assert!(status.contains("200"), "web/{name} is not served: {status}");
        assert_eq!(body.len(), entry.metadata().map(|m| m.len() as usize).unwrap_or(0), "web/{name}");
    }
}

/// Red's socket over `actions` of red's actions against bots (red ends its turns soon: the
/// bots get many turns): every update red is pushed while another seat is to act lists no
/// template and no legal action for red but those of `allowed` (what the rules give it
/// then, such as base's discard on a 7: a page draws no `roll`, `end` or `exchange` out of
/// turn). Answers how many such updates came.
async fn red_idle_while_others_act(s: &WebServer, actions: usize, allowed: &[&str]) -> usize {
    let red = s.seat_tokens[0].clone().expect("red is human");
    let mut ws = connect(s, &red).await.expect("red connects");
    let mut others_turns = 0;
    let mut u = next_update(&mut ws).await;
    for _ in 0..actions {
        // The updates up to red's turn again.
        while u["status"]["to_act"] != 1 && u["status"]["winner"].is_null() {
            for a in u["legal"]["actions"].as_array().into_iter().flatten() {
                let name = a["action"]["name"].as_str().unwrap_or_default();
                assert!(allowed.contains(&name), "red is listed {} out of turn: {}", a["text"], u["status"]);
            }
            assert_eq!(u["legal"]["templates"], json!([]), "red is listed templates out of turn: {}", u["status"]);
            others_turns += 1;
            u = next_update(&mut ws).await;
        }
        if !u["status"]["winner"].is_null() {
            break;
        }
        let legal = u["legal"]["actions"].as_array().cloned().unwrap_or_default();
        assert!(!legal.is_empty(), "red to act with no legal action: {}", u["status"]);
        let text = |a: &J| a["text"].as_str().unwrap_or_default().to_string();
        let pick = ["ready", "roll", "keep", "end"]
            .iter()
            .find_map(|w| legal.iter().find(|a| text(a) == *w))
            .or_else(|| legal.iter().find(|a| !text(a).starts_with("trade") && !text(a).starts_with("play")))
            .unwrap_or(&legal[0]);
        let version = u["version"].clone();
        let (answer, _) = ask(&mut ws, json!({"cmd": "act", "action": pick["action"]})).await;
        assert_eq!(answer["ok"], true, "{answer}");
        // The update of red's action (or a later one).
        loop {
            u = next_update(&mut ws).await;
            if u["version"].as_u64() > version.as_u64() {
                break;
            }
        }
    }
    others_turns
}

#[test]
fn a_seat_is_listed_no_action_while_a_bot_has_the_turn_base() {
    let s = server("greedy");
    let seen = runtime().block_on(red_idle_while_others_act(&s, 24, &["discard"]));
    assert!(seen > 10, "the bots' turns were seen ({seen} updates)");
}

#[test]
fn a_seat_is_listed_no_action_while_a_bot_has_the_turn_rivals() {
    let h = Header::from_args("rivals_gold", Some(2), 5, vec![], false).expect("header");
    let s = start(WebConfig { bots: "greedy".into(), ..WebConfig::new(h) }).expect("the server starts");
    let seen = runtime().block_on(red_idle_while_others_act(&s, 30, &[]));
    assert!(seen > 10, "blue's turns were seen ({seen} updates)");
}

/// A hint is thought on a worker thread: while it thinks (at least the 1.5 s of its
/// budget), another page's request is answered and the table goes on.
#[test]
fn a_hint_does_not_hold_up_the_table() {
    let h = Header::from_args("base", Some(4), 1, vec![], false).expect("header");
    let budget = catan_engine::bot::Budget { playouts: 1_000_000, think_ms: Some(1500) };
    let s = start(WebConfig { budget, ..WebConfig::new(h) }).expect("the server starts");
    let (red, blue) = (s.seat_tokens[0].clone().expect("red"), s.seat_tokens[1].clone().expect("blue"));
    runtime().block_on(async {
        let mut r = connect(&s, &red).await.expect("red");
        let mut b = connect(&s, &blue).await.expect("blue");
        next_update(&mut r).await;
        next_update(&mut b).await;
        // Red rolls a 7 (seed 1): where to put the robber is a choice to think over.
        let (rolled, _) = ask(&mut r, json!({"cmd": "act", "action": "roll"})).await;
        assert_eq!(rolled["ok"], true, "{rolled}");
        r.send(Message::Text(json!({"cmd": "hint", "id": 7}).to_string().into())).await.expect("sent");
        // Blue's hint (blue has no action: answered at once) until red's is being thought:
        // then another is refused, and blue's requests are answered meanwhile.
        let mut tries = 0;
        loop {
            let (busy, _) = ask(&mut b, json!({"cmd": "hint"})).await;
            if busy["error"]["kind"] == "busy" {
                break;
            }
            assert_eq!(busy["ok"], true, "{busy}");
            tries += 1;
            assert!(tries < 100, "red's hint never showed as being thought");
        }
        let (status, _) = ask(&mut b, json!({"cmd": "status"})).await;
        assert_eq!(status["ok"], true, "{status}");
        // Red's own page is answered meanwhile too.
        let (status, _) = ask(&mut r, json!({"cmd": "status"})).await;
        assert_eq!(status["ok"], true, "{status}");
        let hint = loop {
            let m = next(&mut r).await;
            if m["id"] == 7 {
                break m;
            }
        };
        assert_eq!(hint["ok"], true, "{hint}");
        assert!(hint["text"].as_str().unwrap_or_default().starts_with("robber "), "{hint}");
        let (again, _) = ask(&mut b, json!({"cmd": "hint"})).await;
        assert_eq!(again["ok"], true, "a hint once the first is answered: {again}");
    });
}

/// The time a page waits: from connecting to its first update, and from sending an action
/// to its answer and to the update that follows, over a hot-seat game played through the
/// host's socket (no bots: nothing but the server and the rules). A measurement, not a
/// check (docs/web.md):
/// `cargo test --release --test all web_server::answer_times -- --ignored --nocapture`
#[test]
#[ignore]
fn answer_times() {
    let s = server("none");
    let host = s.host_token.clone();
    runtime().block_on(async {
        let t = std::time::Instant::now();
        let mut ws = connect(&s, &host).await.expect("host");
        let mut u = next_update(&mut ws).await;
        println!("connect to first update: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
        let (mut answers, mut updates) = (vec![], vec![]);
        for i in 0..400u64 {
            let legal = u["legal"]["actions"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                break;
            }
            // A fixed pseudo-random pick: the same game every run.
            let pick = &legal[(i.wrapping_mul(2654435761) % legal.len() as u64) as usize]["action"];
            let t = std::time::Instant::now();
            let (answer, _) = ask(&mut ws, json!({"cmd": "act", "action": pick})).await;
            answers.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(answer["ok"], true, "{answer}");
            u = next_update(&mut ws).await;
            updates.push(t.elapsed().as_secs_f64() * 1e3);
        }
        for (what, mut v) in [("action to answer", answers), ("action to update", updates)] {
            v.sort_by(f64::total_cmp);
            let at = |q: f64| v[((v.len() - 1) as f64 * q) as usize];
            println!(
                "{what}: {} actions, median {:.2} ms, 90% {:.2} ms, max {:.2} ms",
                v.len(),
                at(0.5),
                at(0.9),
                at(1.0)
            );
        }
    });
}
