//! External bots (`--bot-cmd`): a program in any language plays a seat over the JSON
//! Lines protocol (docs/protocol.md). When its seat is to act the engine writes one line
//! (`protocol::decision_request`: the seat, its view, the legal actions as text and as
//! objects, a seed for the game) and reads one line back (`{"action": ...}` or
//! `{"index": I}`). One thread per program talks to it, one request and one answer at a
//! time, while the engine waits with a timeout: a program that crashes, hangs or stops
//! reading is an error after the timeout, never a hang of the engine. One process per
//! seat, started at its first decision and stopped when the bot is dropped.
//!
//! The program is read only while a request waits for its answer, one line of at most
//! [`BOT_LINE_CAP`] bytes (the bounded reader, `crate::bounded`). Whatever else it
//! writes (a second line, a line before the first request or while the game waits for
//! someone else) stays in its pipe, which fills and stops it: it costs the engine no
//! memory. Before each request the thread looks for such output, and a program that
//! wrote any (blank lines aside) is stopped with the line: it is never taken as the
//! answer to a later request (docs/protocol.md).

use crate::action::Action;
use crate::bounded::{self, BOT_LINE_CAP};
use crate::engine::Game;
use crate::protocol::forks::Forks;
use crate::protocol::{answer_json, bot_answer_action, decision_request, short, ProtocolError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

/// How long an external bot may think about one decision by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

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

/// `catan play --bots blue=ext,white=mcts --bot-cmd "ext=python3 bot.py"`: the programs
/// named in `--bots` (a `--bot-cmd NAME=COMMAND` whose NAME is no seat) put in their
/// seats' place as `--bot-cmd SEATS=COMMAND` flags. Returns `--bots` without them (`none`
/// when nothing is left) and the `--bot-cmd` flags by seats.
pub fn seat_named_programs(bots: &str, flags: &[String], game: &Game) -> Result<(String, Vec<String>), String> {
    let is_seats = |p: &str| p.split(',').all(|p| p == "all" || crate::protocol::seat_by_name(game, p).is_some());
    let mut named = std::collections::BTreeMap::new();
    let mut by_seats = vec![];
    for flag in flags {
        match split_seats(flag) {
            (Some(name), command) if !is_seats(name) => {
                named.insert(name.to_string(), (command.trim().to_string(), false));
            }
            _ => by_seats.push(flag.clone()),
        }
    }
    if named.is_empty() {
        return Ok((bots.to_string(), by_seats));
    }
    let mut kept = vec![];
    for part in bots.split(',').map(str::trim).filter(|p| !p.is_empty() && *p != "none") {
        // `blue=ext`, or `ext` alone (every seat but the first, as a kind alone).
        let (seats, name) = part.split_once('=').map_or(("", part), |(s, n)| (s.trim(), n.trim()));
        match named.get_mut(name) {
            Some((command, used)) => {
                *used = true;
                let seats = if seats.is_empty() {
                    (2..=game.header().players).map(|s| s.to_string()).collect::<Vec<_>>().join(",")
                } else {
                    seats.to_string()
                };
                by_seats.push(format!("{seats}={command}"));
            }
            None => kept.push(part.to_string()),
        }
    }
    if let Some((name, _)) = named.iter().find(|(_, (_, used))| !used) {
        return Err(format!(
            "--bot-cmd: '{name}' is not a seat or a colour in this game, nor a program --bots seats (e.g. --bots \
             blue={name} --bot-cmd \"{name}=python3 bot.py\")"
        ));
    }
    let kept = if kept.is_empty() { "none".to_string() } else { kept.join(",") };
    Ok((kept, by_seats))
}

/// `blue,white=python3 bot.py` -> (Some("blue,white"), "python3 bot.py"); a command
/// without a seat list before its first `=` (or with a space, a slash or a dot in what
/// precedes it) is the whole text.
pub fn split_seats(flag: &str) -> (Option<&str>, &str) {
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

/// A running program: its process and the thread that talks to it (one request in, one
/// answer out; both channels hold one message at most).
struct Running {
    child: Child,
    to_bot: SyncSender<String>,
    from_bot: Receiver<Result<String, Failure>>,
}

/// Why the talk with a program ended; the first two are said with its exit status.
enum Failure {
    /// Its output ended.
    Closed,
    /// It does not take its input (it exited, or closed it).
    StoppedReading(String),
    Other(String),
}

/// A seat played by an external program.
pub struct ExternalBot {
    command: String,
    timeout: Duration,
    running: Option<Running>,
    /// Requests written to the running program: the number the next one carries, less one.
    requests: u64,
    /// The forks the program opens while it decides (dropped at the end of each decision).
    forks: Forks,
}

impl ExternalBot {
    pub fn new(command: &str, timeout: Duration) -> ExternalBot {
        ExternalBot { command: command.to_string(), timeout, running: None, requests: 0, forks: Forks::new() }
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
    /// action of the game) is an error saying which, and stops the program. Before it
    /// answers, the program may send requests about forks of the position (`fork`, `act`,
    /// `legal`, `view`, `status` and `drop` with a `fork`: docs/protocol.md, "Forks"), each
    /// answered with one line; the game itself is only read.
    pub fn choose(&mut self, game: &Game, seat: usize, seed: u64) -> Result<Action, String> {
        let mut request = decision_request(game, seat, seed).map_err(|e| format!("cannot ask the bot: {e}"))?;
        // Counted per program: a program started again (`start`) begins at 1.
        if self.running.is_none() {
            self.requests = 0;
        }
        self.requests += 1;
        let number = self.requests;
        // Numbered, so that an answer that echoes the number cannot be a line written
        // before its request (the check for such lines is made just before the request
        // is written; one arriving in between would otherwise pass for the answer to it).
        request["request"] = serde_json::json!(number);
        // The whole decision, forks included, within the timeout.
        let deadline = Instant::now() + self.timeout;
        self.forks.begin_decision(seat, seed, game.log().len());
        let mut line = self.exchange(&request.to_string(), deadline);
        let result = loop {
            let answer = line.and_then(|line| {
                serde_json::from_str::<serde_json::Value>(&line)
                    .map_err(|e| format!("answered something that is not JSON ({e}): {}", short(&line)))
                    .map(|a| (a, line))
            });
            let (answer, line_text) = match answer {
                Ok(a) => a,
                Err(e) => break Err(e),
            };
            if answer.get("cmd").is_some() {
                // A request about forks: answered, then the next line is read.
                let reply = self.fork_answer(game, &answer);
                line = self.exchange(&reply.to_string(), deadline);
                continue;
            }
            if let Some(echoed) = answer.get("request") {
                if echoed.as_u64() != Some(number) {
                    break Err(format!(
                        "answered request {echoed} while request {number} waits (an answer written before its \
                         request?): {}",
                        short(line_text.trim())
                    ));
                }
            }
            break bot_answer_action(game, seat, &answer)
                .map_err(|e| format!("answered {}: {e}", short(line_text.trim())));
        };
        self.forks.end_decision();
        result.map_err(|e| {
            self.stop();
            format!("the external bot `{}` {e}", self.command)
        })
    }

    /// The answer to a request about forks, with the request's `id` when it has one.
    fn fork_answer(&mut self, game: &Game, request: &serde_json::Value) -> serde_json::Value {
        let id = request.get("id").cloned();
        let result = match (request.as_object(), request.get("cmd").and_then(|c| c.as_str())) {
            (Some(obj), Some(cmd)) if Forks::is_fork_request(cmd, obj) => self.forks.handle(game, cmd, obj),
            (_, Some(cmd)) => Err(ProtocolError::new(
                "protocol",
                format!(
                    "while deciding, a bot may ask about forks only (fork, then act, legal, view, status or drop \
                     with its `fork`), not `{cmd}`"
                ),
            )),
            _ => Err(ProtocolError::new("protocol", "`cmd` is a string")),
        };
        answer_json(id, result)
    }

    /// Sends one line, waits for one line back until `deadline`.
    fn exchange(&mut self, request: &str, deadline: Instant) -> Result<String, String> {
        let timeout = self.timeout;
        let r = self.start()?;
        // The talk ended at a failure, said at the time: the program is stopped since.
        if r.to_bot.send(request.to_string()).is_err() {
            return Err(format!("stopped reading its input ({})", exit_status(&mut r.child)));
        }
        match r.from_bot.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(Failure::Other(e))) => Err(e),
            Ok(Err(Failure::StoppedReading(e))) => {
                Err(format!("stopped reading its input ({e}; {})", exit_status(&mut r.child)))
            }
            Ok(Err(Failure::Closed)) | Err(RecvTimeoutError::Disconnected) => {
                Err(format!("closed its output without answering ({})", exit_status(&mut r.child)))
            }
            Err(RecvTimeoutError::Timeout) => Err(format!("did not answer within {:.1} s", timeout.as_secs_f64())),
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

/// Starts `command` through the shell, and the thread that talks to it; its errors go to
/// ours, so its author sees them.
fn spawn(command: &str) -> Result<Running, String> {
    let mut child = shell(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot be started: {e}"))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        kill_group(&mut child);
        let _ = child.wait();
        return Err("cannot be started: no pipes to it".into());
    };
    let (to_bot, requests) = mpsc::sync_channel::<String>(1);
    let (answers, from_bot) = mpsc::sync_channel(1);
    std::thread::spawn(move || converse(stdin, BufReader::new(stdout), &requests, &answers));
    Ok(Running { child, to_bot, from_bot })
}

/// The talk with one program: for each request, the output nobody asked for looked for,
/// the request written, one answer line read and handed back. Ends at the first failure
/// (said to the engine, which stops the program) or when the engine drops the bot.
fn converse(
    mut stdin: ChildStdin,
    mut stdout: BufReader<ChildStdout>,
    requests: &Receiver<String>,
    answers: &SyncSender<Result<String, Failure>>,
) {
    let mut line = Vec::new();
    for request in requests {
        let answer = unasked(&mut stdout)
            .and_then(|()| match writeln!(stdin, "{request}").and_then(|()| stdin.flush()) {
                Ok(()) => Ok(()),
                // A program that exited shows it first as its output ending.
                Err(_) if readable(stdout.get_ref()) && stdout.fill_buf().is_ok_and(|b| b.is_empty()) => {
                    Err(Failure::Closed)
                }
                Err(e) => Err(Failure::StoppedReading(e.to_string())),
            })
            .and_then(|()| read_answer(&mut stdout, &mut line));
        let failed = answer.is_err();
        if answers.send(answer).is_err() || failed {
            return;
        }
    }
}

/// One answer: the next line that is not blank, at most [`BOT_LINE_CAP`] bytes, UTF-8.
/// `closed` (the end of its output) is said by the engine with the program's status.
fn read_answer(stdout: &mut BufReader<ChildStdout>, line: &mut Vec<u8>) -> Result<String, Failure> {
    loop {
        match bounded::read_line(stdout, BOT_LINE_CAP, line) {
            Ok(false) => return Err(Failure::Closed),
            Ok(true) => {
                let text =
                    bounded::line_text(line).map_err(|_| Failure::Other("answered a line that is not UTF-8".into()))?;
                if !text.trim().is_empty() {
                    return Ok(text.trim_end().to_string());
                }
            }
            Err(e @ bounded::ReadError::TooLong { .. }) => return Err(Failure::Other(format!("wrote a line {e}"))),
            Err(e) => return Err(Failure::Other(format!("cannot be read: {e}"))),
        }
    }
}

/// Output the program wrote before it was sent a request (it answered twice, or wrote
/// while nobody asked): an error with the line. Blank lines are passed over. What is
/// waiting is found without waiting: in the reader's buffer, or (on Unix) in the pipe.
fn unasked(stdout: &mut BufReader<ChildStdout>) -> Result<(), Failure> {
    loop {
        if stdout.buffer().is_empty() && !readable(stdout.get_ref()) {
            return Ok(());
        }
        // Something is there: this read returns at once.
        let waiting = match stdout.fill_buf() {
            Ok([]) => return Ok(()),
            Ok(bytes) => bytes,
            Err(e) => return Err(Failure::Other(format!("cannot be read: {e}"))),
        };
        let blank = waiting.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if blank < waiting.len() {
            let rest = &waiting[blank..];
            let first = rest.split(|&b| b == b'\n').next().unwrap_or(rest);
            return Err(Failure::Other(format!(
                "wrote a line no request asked for (an answer is one line, written after its request): {}",
                short(String::from_utf8_lossy(first).trim_end())
            )));
        }
        stdout.consume(blank);
    }
}

/// Whether the program's output has bytes (or its end) to read now, without waiting.
#[cfg(unix)]
fn readable(stdout: &ChildStdout) -> bool {
    use std::os::fd::AsRawFd;
    let mut fds = libc::pollfd { fd: stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // SAFETY: poll(2) on one descriptor we own, with a zero timeout; it writes only `revents`
    // of the one pollfd it is given.
    let ready = unsafe { libc::poll(&mut fds, 1, 0) };
    ready > 0 && fds.revents & (libc::POLLIN | libc::POLLHUP) != 0
}

/// Without poll(2), only what the reader already holds is seen.
#[cfg(not(unix))]
fn readable(_stdout: &ChildStdout) -> bool {
    false
}
