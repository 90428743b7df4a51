//! Running the `catan` binary in a test: its stdin fed, its stdout and stderr read, and
//! a deadline, so that a hang fails the test instead of stalling the suite.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_catan");

/// What a run printed and how it ended.
pub struct Run {
    pub out: String,
    pub err: String,
    pub code: Option<i32>,
}

/// The last 40 lines of `s`, for failure messages.
pub fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// A prompt of `catan play` as a transcript echoes it: `[round 2 red roll]> `, `[red
/// setup]> ` before the first round, `game over> `.
pub fn is_prompt(line: &str) -> bool {
    (line.starts_with('[') && line.contains("]> ")) || line.starts_with("game over> ")
}

/// The lines `out` printed after the echo of the `n`th (0-based) input line equal to
/// `command`, up to the next prompt.
pub fn after<'r>(out: &'r str, command: &str, n: usize) -> Vec<&'r str> {
    let lines: Vec<&str> = out.lines().collect();
    let echoes: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| is_prompt(l) && l.ends_with(&format!("> {command}")))
        .map(|(i, _)| i)
        .collect();
    let Some(&start) = echoes.get(n) else {
        panic!("'{command}' was not echoed {} time(s):\n{}", n + 1, tail(out));
    };
    lines[start + 1..].iter().take_while(|l| !is_prompt(l)).copied().collect()
}

/// `catan ARGS` with `CATAN_HOME` set to `home`.
pub fn catan_in(home: &Path, args: &[&str], input: impl AsRef<[u8]>, secs: u64) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("CATAN_VARIANTS")
        .env("CATAN_HOME", home)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run catan");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    let writer = std::thread::spawn(move || {
        // The binary may exit before it reads everything (quit, --strict).
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).unwrap();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            let out = out_reader.join().unwrap();
            panic!("catan {args:?} still running after {secs} s\nstdout (tail):\n{}", tail(&out));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    Run { out: out_reader.join().unwrap(), err: err_reader.join().unwrap(), code: status.code() }
}
