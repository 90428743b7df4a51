//! `catan sim`: the report does not depend on how many workers play the games.

use catan_engine::sim;

fn report(variant: &str, players: usize, jobs: usize) -> serde_json::Value {
    let r = sim::run_jobs(&[variant.to_string()], players, &[], 6, 40, &sim::Lineup::default(), jobs, |_| {}).unwrap();
    assert_eq!(r.jobs, jobs);
    let mut v = serde_json::to_value(&r).unwrap();
    let m = v.as_object_mut().unwrap();
    for timing in ["seconds", "games_per_second", "jobs"] {
        m.remove(timing);
    }
    v
}

#[test]
fn jobs_give_the_same_report_as_one_worker() {
    for (variant, players) in [("base", 4), ("rivals", 2)] {
        let one = report(variant, players, 1);
        assert_eq!(one["games"], 6);
        assert_eq!(report(variant, players, 2), one, "{variant}: 2 workers");
        assert_eq!(report(variant, players, 4), one, "{variant}: 4 workers");
    }
}

#[test]
fn progress_counts_every_game_with_workers() {
    let mut seen = vec![];
    sim::run_jobs(&["base".to_string()], 4, &[], 5, 1, &sim::Lineup::default(), 3, |done| seen.push(done)).unwrap();
    assert_eq!(seen, vec![1, 2, 3, 4, 5]);
}

#[test]
fn a_failing_setup_is_reported_whatever_the_workers() {
    let opts = vec![("victory_points".to_string(), "99".to_string())];
    for jobs in [1, 3] {
        let e =
            sim::run_jobs(&["base".to_string()], 4, &opts, 4, 1, &sim::Lineup::default(), jobs, |_| {}).unwrap_err();
        assert!(e.to_string().contains("victory_points"), "{jobs} workers: {e}");
    }
}

/// `catan sim` plays quiet (`Game::set_quiet`): a quiet game keeps no message of its
/// actions, and plays exactly the game that keeps them, action for action (helpers'
/// Marianne reads the "produced" event, so its data is built there too).
#[test]
fn a_quiet_game_plays_the_same_game_without_its_messages() {
    use catan_engine::bot::{BotKind, Budget};
    use catan_engine::{Game, Header};
    for (variant, players) in [("base", 4), ("helpers", 4), ("rivals", 2)] {
        let play = |quiet: bool| {
            let header = Header { variants: vec![variant.into()], players, seed: 11, options: vec![], sandbox: false };
            let mut g = Game::new(header).unwrap();
            g.set_quiet(quiet);
            let set_up = g.messages().len(); // the setup's, from before `set_quiet`
            let seats = vec![BotKind::Random; players];
            let r = sim::play_capped(&mut g, &seats, Budget::default(), 400, |_| Ok(())).unwrap();
            let log: Vec<String> = g.log().iter().map(|e| e.command.clone()).collect();
            let state = g.state().clone();
            (r.actions, log, state, g.messages().len() - set_up)
        };
        let (loud, quiet) = (play(false), play(true));
        assert!(loud.3 > 100, "{variant}: the loud game keeps its messages ({})", loud.3);
        assert_eq!(quiet.3, 0, "{variant}: the quiet game keeps none");
        assert_eq!((quiet.0, &quiet.1), (loud.0, &loud.1), "{variant}: the same actions");
        assert!(quiet.2 == loud.2, "{variant}: the same final state");
    }
}

/// The fixture that measures the pipeline's own cost an action (src/README.md, "Speed"):
/// its games play to their 300th action and end, every one won.
#[test]
fn the_pipeline_fixture_plays_its_300_actions() {
    let variants = ["tests/variants/nothing.lua".to_string()];
    let r = sim::run_jobs(&variants, 4, &[], 3, 1, &sim::Lineup::default(), 1, |_| {}).unwrap();
    assert_eq!((r.finished, r.failed.len(), r.mean_actions), (3, 0, 300.0));
    assert_eq!(r.wins.iter().sum::<usize>(), 3);
}
