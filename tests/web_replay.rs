//! Watching a game (`catan web --watch FILE`, `src/web/replay.rs`): a save or a row of
//! `catan sim --out` stepped through as a spectator, each step's view the view of the
//! game replayed that far, back and forth, with no seat's hidden cards or private
//! messages.

use catan_engine::bot::BotKind;
use catan_engine::engine::SaveFile;
use catan_engine::sim::{self, Lineup};
use catan_engine::view::view;
use catan_engine::web::replay::{Replay, SNAPSHOT_EVERY};
use catan_engine::web::{start, WebConfig};
use catan_engine::{Game, Header, Observer};
use serde_json::{json, Value as J};

/// A whole base game of random bots (the beginner board, 4 players), its save.
fn finished_game(seed: u64) -> SaveFile {
    let header = Header { variants: vec!["base".into()], players: 4, seed, options: vec![], sandbox: false };
    let mut game = Game::new(header).expect("game starts");
    let result = sim::play_with(&mut game, &[BotKind::Random; 4], Default::default(), |_| Ok(())).expect("plays");
    assert!(result.winner.is_some(), "the random game of seed {seed} ends with a winner");
    game.save_file()
}

/// The spectator's view of the game replayed up to `n` actions of `save`.
fn view_after(save: &SaveFile, n: usize) -> J {
    let cut = SaveFile { log: save.log[..n].to_vec(), ..save.clone() };
    let (game, div) = Game::replay(&cut).expect("replays");
    assert!(div.is_none());
    view(&game, Observer::Spectator)
}

#[test]
fn every_step_shows_the_spectator_view_of_the_game_replayed_that_far() {
    let save = finished_game(3);
    let mut replay = Replay::new(save.clone()).expect("opens");
    assert_eq!(replay.len(), save.log.len());
    assert_eq!(replay.at(), save.log.len(), "opened at the game's end");
    assert!(replay.warning().is_none());
    let end = replay.view();
    assert!(end["winner"].is_string(), "the last step shows the winner: {}", end["winner"]);
    assert_eq!(end, view_after(&save, save.log.len()));
    // Back to the start, forward across kept positions, back again, and to the end.
    let len = save.log.len();
    for step in [0, 1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 5, len / 2, 7, len - 1, len] {
        replay.go(step).expect("goes");
        assert_eq!(replay.at(), step);
        assert_eq!(replay.view(), view_after(&save, step), "step {step}");
    }
    assert!(replay.go(len + 1).is_err(), "no step past the end");
    assert_eq!(replay.at(), len, "a refused step leaves the position shown");
}

#[test]
fn steps_carry_only_what_the_table_reads() {
    let save = finished_game(3);
    let replay = Replay::new(save.clone()).expect("opens");
    let (game, _) = Game::replay(&save).expect("replays");
    let private: Vec<&str> =
        game.messages().iter().filter(|(_, m)| m.to.is_some()).map(|(_, m)| m.text.as_str()).collect();
    assert!(!private.is_empty(), "a whole game has private messages (a steal's card)");
    let told: Vec<&String> = replay.steps().iter().flat_map(|s| &s.messages).collect();
    assert!(!told.is_empty());
    for p in &private {
        assert!(!told.iter().any(|t| t == p), "a private message reached the spectator: {p}");
    }
    for (step, entry) in replay.steps().iter().zip(&save.log) {
        assert_eq!(step.seat, entry.seat + 1);
        assert_eq!(step.command, entry.command);
    }
    // The view of any step hides every hand.
    let mut replay = replay;
    replay.go(save.log.len() / 2).expect("goes");
    for p in replay.view()["players"].as_array().expect("players") {
        assert!(p["zones"]["hand"].get("count").is_some(), "a hand shown to the spectator: {}", p["zones"]["hand"]);
    }
}

#[test]
fn the_page_requests_watch_and_step() {
    let save = finished_game(5);
    let len = save.log.len();
    let mut replay = Replay::new(save.clone()).expect("opens");
    let all = replay.answer(&json!({"id": 1, "cmd": "watch"}));
    assert_eq!(all["ok"], true);
    assert_eq!(all["id"], 1);
    assert_eq!(all["total"], len);
    assert_eq!(all["at"], len);
    assert_eq!(all["steps"].as_array().map(Vec::len), Some(len));
    assert_eq!(all["steps"][0]["color"], "red");
    let at = replay.answer(&json!({"cmd": "step", "to": 10}));
    assert_eq!((at["ok"].clone(), at["at"].clone()), (json!(true), json!(10)));
    assert_eq!(at["view"], view_after(&save, 10));
    let past = replay.answer(&json!({"cmd": "step", "to": len + 3}));
    assert_eq!(past["ok"], false);
    assert!(past["error"]["message"].as_str().unwrap_or_default().contains("no step"), "{past}");
    let act = replay.answer(&json!({"cmd": "act", "action": "roll"}));
    assert_eq!(act["error"]["kind"], "protocol", "nobody acts in a watched game: {act}");
    assert_eq!(replay.at(), 10);
}

#[test]
fn a_row_of_a_simulation_is_watched_to_its_end() {
    let header = Header { variants: vec!["base".into()], players: 3, seed: 11, options: vec![], sandbox: false };
    let lineup = Lineup { saves: true, ..Lineup::default() };
    let rows = sim::play_range(&header, 0..2, &lineup).expect("plays");
    let text = sim::rows_jsonl(&rows.iter().map(|r| ("", r)).collect::<Vec<_>>());
    let dir = std::env::temp_dir().join(format!("catan_web_replay_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("rows.jsonl");
    std::fs::write(&path, text).expect("writes");
    let replay = Replay::open(&format!("{}#1", path.display())).expect("opens game 1");
    assert_eq!(replay.len(), rows[1].actions);
    let end = replay.view();
    let winner = rows[1].winner.expect("game 1 has a winner");
    assert_eq!(end["winner"], end["players"][winner - 1]["color"], "the last step shows the row's winner");
    let err = Replay::open(&format!("{}#7", path.display())).err().expect("no game 7");
    assert!(err.contains("no game 7"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_log_that_stops_agreeing_is_watched_up_to_there() {
    let mut save = finished_game(3);
    save.log[20].draws = vec![999_999];
    let replay = Replay::new(save).expect("opens");
    assert_eq!(replay.len(), 20);
    assert!(replay.warning().unwrap_or_default().contains("diverges"), "{:?}", replay.warning());
}

/// `catan web --watch`: the host's link says it watches (no hot seat: nobody plays).
#[test]
fn a_watched_game_links_say_watching() {
    let save = finished_game(5);
    let dir = std::env::temp_dir().join(format!("catan_web_watch_links_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("game.json");
    std::fs::write(&path, serde_json::to_string(&save).expect("a save is JSON")).expect("writes");
    let header = save.header.clone();
    let config = WebConfig { watch: Some(path.display().to_string()), ..WebConfig::new(header) };
    let server = start(config).expect("serves the watched game");
    let links: Vec<String> = server.links().into_iter().map(|(what, _)| what).collect();
    assert!(links[0].starts_with("host (watching"), "{links:?}");
    assert!(links.iter().all(|l| !l.contains("hot seat") && !l.starts_with("seat ")), "{links:?}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
