//! What a player at a terminal sees: `run_as_terminal` plays a transcript the way
//! `catan play` does on a terminal (the board, the players and the hand before each
//! prompt), so the status shown between prompts can be checked.

use catan_engine::engine::{Game, Header};
use catan_engine::repl::{run_as_terminal, ReplConfig};

fn header(players: usize, options: &[(&str, &str)]) -> Header {
    Header {
        variants: vec!["base".into()],
        players,
        seed: 7,
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        sandbox: false,
    }
}

fn terminal(header: Header, input: &str) -> String {
    let autosave_dir = Some(std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terminal-autosave"));
    // A tall terminal: the board fits, so it is drawn again whenever it changed.
    let config = ReplConfig { autosave_dir, terminal_rows: Some(100), ..ReplConfig::new(header) };
    let mut out = Vec::new();
    let status = run_as_terminal(config, &mut input.as_bytes(), &mut out);
    let text = String::from_utf8(out).expect("UTF-8 output");
    assert_eq!(status, 0, "{text}");
    text
}

/// 5-6 Player Extension, Set-up Phase: in the set-up rounds every human placement is
/// preceded by the board as it stands (the placements before it drawn), and the players'
/// table marks the player asked to place with "<- turn".
#[test]
fn six_player_set_up_redraws_the_board_before_each_placement() {
    let h = header(6, &[]);
    // The set-up rounds as played: the first legal placement each time.
    let mut g = Game::new(h.clone()).expect("a 6-player game");
    let mut commands = vec![];
    while g.state().phase == "setup" && commands.len() < 8 {
        let seat = g.to_act().expect("someone places");
        let first = g.legal_actions(seat).expect("placements")[0].clone();
        commands.push((g.state().players[seat].color.clone(), g.action_text(&first)));
        g.perform(seat, &first).expect("a legal placement");
    }
    assert_eq!(commands.len(), 8, "4 settlements and 4 roads of the first round");
    let input: String = commands.iter().map(|(_, c)| format!("{c}\n")).collect();
    let text = terminal(h, &input);
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    for (who, command) in &commands {
        let echo = format!("[{who} setup]> {command}");
        let at = from + lines[from..].iter().position(|l| *l == echo).unwrap_or_else(|| panic!("no '{echo}':\n{text}"));
        let before = &lines[from..at];
        assert!(before.iter().any(|l| l.starts_with("harbors: ")), "no board before '{echo}':\n{}", before.join("\n"));
        let marked: Vec<&&str> = before.iter().filter(|l| l.ends_with("<- turn")).collect();
        assert_eq!(marked.len(), 1, "{}", before.join("\n"));
        assert!(marked[0].trim_start().starts_with(who.as_str()), "the marker is not on {who}: {}", marked[0]);
        from = at + 1;
    }
    // The pieces placed so far are on the board drawn last, with their labels.
    let last_board = lines[..from].join("\n");
    let (_, first_settlement) = &commands[0];
    let label = first_settlement.trim_start_matches("settlement ");
    let tag = &commands[0].0[..1];
    assert!(last_board.contains(&format!("{tag}{label}")), "{last_board}");
}
