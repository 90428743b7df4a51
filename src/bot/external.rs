//! External bots (`--bot-cmd`): a program in any language plays a seat over the JSON
//! Lines protocol (docs/protocol.md). When its seat is to act the engine writes one line
//! (`protocol::decision_request`: the seat, its view, the legal actions as text and as
//! objects, a seed for the game) and reads one line back (`{"action": ...}` or
//! `{"index": I}`). The program's output is read and its input written on threads of their
//! own, so a program that crashes, hangs or stops reading is an error after the timeout,
//! never a hang of the engine. One process per seat, started at its first decision and
//! stopped when the bot is dropped.

use crate::action::Action;
use crate::engine::Game;
use crate::protocol::{bot_answer_action, decision_request, short};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// How long an external bot may think about one decision by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest answer line read from a bot (a runaway writer is cut off there).
const MAX_LINE: u64 = 1 << 20;

/// Which seats external programs play, and how long each may think: the parsed
/// `--bot-cmd` flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExternalSeats {
    /// The command of each seat played by a program (None: not external).
    pub commands: Vec<Option<String>>,
    pub timeout: Option<Duration>,
}

impl ExternalSeats {
    /// From `--bot-cmd` values `[SEATS=]COMMAND` (SEATS as `--bots` names them: `2`,
    /// `blue`, `2,3`, `all`; without it, `default_seats`). A later flag wins for a seat.
    pub fn parse(flags: &[String], game: &Game, default_seats: &[usize]) -> Result<ExternalSeats, String> {
        let players = game.header().players;
        let mut commands = vec![None; players];
        for flag in flags {
            let (seats, command) = split_seats(flag);
            let command = command.trim();
            if command.is_empty() {
                return Err(format!("--bot-cmd '{flag}': no command to run"));
            }
            let seats: Vec<usize> = match seats {
                None => default_seats.to_vec(),
                Some("all") => (0..players).collect(),
                Some(list) => list
                    .split(',')
                    .map(|part| {
                        crate::protocol::seat_by_name(game, part).ok_or_else(|| {
                            format!("--bot-cmd: '{part}' is not a seat (1..{players}) or a colour in this game")
                        })
                    })
                    .collect::<Result<_, _>>()?,
            };
            for s in seats {
                if let Some(c) = commands.get_mut(s) {
                    *c = Some(command.to_string());
                }
            }
        }
        Ok(ExternalSeats { commands, timeout: None })
    }

    pub fn is_empty(&self) -> bool {
        self.commands.iter().all(Option::is_none)
    }

    pub fn is_external(&self, seat: usize) -> bool {
        self.commands.get(seat).is_some_and(Option::is_some)
    }

    /// A bot (not yet started) for each external seat.
    pub fn bots(&self) -> Vec<Option<ExternalBot>> {
        let timeout = self.timeout.unwrap_or(DEFAULT_TIMEOUT);
        self.commands.iter().map(|c| c.as_ref().map(|c| ExternalBot::new(c, timeout))).collect()
    }
}

/// `blue,white=python3 bot.py` -> (Some("blue,white"), "python3 bot.py"); a command
/// without a seat list before its first `=` (or with a space, a slash or a dot in what
/// precedes it) is the whole text.
fn split_seats(flag: &str) -> (Option<&str>, &str) {
    match flag.split_once('=') {
        Some((seats, cmd))
            if !seats.trim().is_empty()
                && seats.trim().chars().all(|c| c.is_ascii_alphanumeric() || c == ',' || c == '_') =>
        {
            (Some(seats.trim()), cmd)
        }
        _ => (None, flag),
    }
}

/// A running program.
struct Running {
    child: Child,
    to_bot: Sender<String>,
    from_bot: Receiver<Result<String, String>>,
}

/// A seat played by an external program.
pub struct ExternalBot {
    command: String,
    timeout: Duration,
    running: Option<Running>,
}

impl ExternalBot {
    pub fn new(command: &str, timeout: Duration) -> ExternalBot {
        ExternalBot { command: command.to_string(), timeout, running: None }
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    fn start(&mut self) -> Result<&mut Running, String> {
        if self.running.is_none() {
            self.running = Some(spawn(&self.command)?);
        }
        self.running.as_mut().ok_or_else(|| "the bot is not running".to_string())
    }

    /// Stops the program (it is started again at the next decision).
    pub fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            drop(r.to_bot);
            kill_group(&mut r.child);
            let _ = r.child.wait();
        }
    }

    /// The program's action for `seat`, `seed` being the bot's seed for this game. Any
    /// failure (it could not start, exited, timed out, answered something that is not an
    /// action of the game) is an error saying which, and stops the program.
    pub fn choose(&mut self, game: &Game, seat: usize, seed: u64) -> Result<Action, String> {
        let request = decision_request(game, seat, seed).map_err(|e| format!("cannot ask the bot: {e}"))?;
        let result = self.exchange(&request.to_string()).and_then(|line| {
            let answer: serde_json::Value = serde_json::from_str(&line)
                .map_err(|e| format!("answered something that is not JSON ({e}): {}", short(&line)))?;
            bot_answer_action(game, seat, &answer).map_err(|e| format!("answered {}: {e}", short(line.trim())))
        });
        result.map_err(|e| {
            self.stop();
            format!("the external bot `{}` {e}", self.command)
        })
    }

    /// Sends one line, waits for one line back.
    fn exchange(&mut self, request: &str) -> Result<String, String> {
        let timeout = self.timeout;
        let r = self.start()?;
        if r.to_bot.send(request.to_string()).is_err() {
            return Err(format!("stopped reading its input ({})", exit_status(&mut r.child)));
        }
        match r.from_bot.recv_timeout(timeout) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(e),
            Err(RecvTimeoutError::Timeout) => Err(format!("did not answer within {:.1} s", timeout.as_secs_f64())),
            Err(RecvTimeoutError::Disconnected) => {
                Err(format!("closed its output without answering ({})", exit_status(&mut r.child)))
            }
        }
    }
}

impl Drop for ExternalBot {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How the program ended, if it did (waiting a little for it).
fn exit_status(child: &mut Child) -> String {
    for _ in 0..50 {
        match child.try_wait() {
            Ok(Some(status)) => return format!("it exited: {status}"),
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return format!("its status is unknown: {e}"),
        }
    }
    "it is still running".into()
}

/// The command run by the shell, on Unix in a process group of its own (see
/// [`kill_group`]).
#[cfg(unix)]
fn shell(command: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new("sh");
    c.arg("-c").arg(command).process_group(0);
    c
}

#[cfg(not(unix))]
fn shell(command: &str) -> Command {
    let mut c = Command::new("cmd");
    c.arg("/C").arg(command);
    c
}

/// Stops the program and whatever it started: the shell may run the command as its child
/// rather than in its place, and a child left running would keep our output open.
#[cfg(unix)]
fn kill_group(child: &mut Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the child leads
        // (`process_group(0)` above); it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(not(unix))]
fn kill_group(child: &mut Child) {
    let _ = child.kill();
}

/// Starts `command` through the shell, its input and output on two threads; its errors
/// go to ours, so its author sees them.
fn spawn(command: &str) -> Result<Running, String> {
    let mut child = shell(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot be started: {e}"))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        kill_group(&mut child);
        let _ = child.wait();
        return Err("cannot be started: no pipes to it".into());
    };
    let (to_bot, requests) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in requests {
            if writeln!(stdin, "{line}").and_then(|()| stdin.flush()).is_err() {
                break;
            }
        }
    });
    let (answers, from_bot) = mpsc::channel();
    std::thread::spawn(move || read_lines(stdout, answers));
    Ok(Running { child, to_bot, from_bot })
}

fn read_lines(stdout: ChildStdout, answers: Sender<Result<String, String>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(_) if !line.ends_with(b"\n") && line.len() as u64 >= MAX_LINE => {
                let _ = answers.send(Err(format!("wrote a line longer than {} bytes", MAX_LINE)));
                return;
            }
            Ok(_) => {
                let msg = String::from_utf8(line)
                    .map(|l| l.trim_end().to_string())
                    .map_err(|_| "answered a line that is not UTF-8".to_string());
                if msg.as_ref().is_ok_and(|l| l.is_empty()) {
                    continue;
                }
                if answers.send(msg).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = answers.send(Err(format!("cannot be read: {e}")));
                return;
            }
        }
    }
}
