//! The one bounded reader: every file the engine reads (saves, `catan sim --out` rows,
//! options files, variant files and their parts, weights files) and every line it reads
//! from another program (`catan serve`'s and `catan play`'s standard input, an external
//! bot's answers) comes through here, under the caps below. Input over a cap is an error
//! that names the cap, and nothing past it is read: `/dev/zero` or a line of 50 MB fails
//! after at most the cap and a byte, and the reader never holds more (docs/protocol.md,
//! "Limits on input"). Callers turn the error into their own kind (a setup error, a protocol
//! error, a bot's failure) with the file or line it was about.

use std::fmt;
use std::io::{BufRead, Read};
use std::path::Path;

/// The largest file read whole: a save (a game stopped at `catan sim`'s 50,000-action cap
/// saves to about 4 MiB), a variant file or part, an options file, a weights file.
pub const FILE_CAP: usize = 16 << 20;

/// The longest line read from a program: a `catan serve` request (which may carry a
/// whole save), a command to `catan play`, a row of `catan sim --out` JSON Lines (which
/// holds its game's save).
pub const LINE_CAP: usize = 16 << 20;

/// The longest answer read from an external bot: one action, a few hundred bytes.
pub const BOT_LINE_CAP: usize = 1 << 20;

/// Why bytes from outside were not taken.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system's error (not found, permission, a directory, ...).
    Io(std::io::Error),
    /// A regular file whose size is over the cap, refused before reading it.
    TooLarge { cap: usize },
    /// A file or line that went on past the cap (an endless file, a line without end).
    TooLong { cap: usize },
    /// Text that is not UTF-8.
    NotUtf8,
}

impl ReadError {
    /// Whether there was no such file (a search goes on to the next place).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge { cap } => write!(f, "larger than {}, the cap on a file", size_text(*cap)),
            ReadError::TooLong { cap } => write!(f, "longer than {}, the cap on input", size_text(*cap)),
            ReadError::NotUtf8 => write!(f, "not UTF-8 text"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

/// `16 MiB`, `1 MiB`, `300 bytes`: a cap as messages name it.
pub fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// The text of the file at `path`, at most [`FILE_CAP`] bytes, without the byte order
/// mark some editors put first (which no parser of ours takes).
pub fn read_file(path: impl AsRef<Path>) -> Result<String, ReadError> {
    let mut text = read_file_capped(path.as_ref(), FILE_CAP)?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// The text of the file at `path`, at most `cap` bytes. A regular file is refused by its
/// size before it is read; anything else (a device, a pipe) is read up to the cap.
pub fn read_file_capped(path: &Path, cap: usize) -> Result<String, ReadError> {
    let file = std::fs::File::open(path)?;
    let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    if size.is_some_and(|s| s > cap as u64) {
        return Err(ReadError::TooLarge { cap });
    }
    let hint = size.and_then(|s| usize::try_from(s).ok()).unwrap_or(0);
    read_with_hint(file, cap, hint)
}

/// All of `input` as text, at most `cap` bytes.
pub fn read_to_string(input: impl Read, cap: usize) -> Result<String, ReadError> {
    read_with_hint(input, cap, 0)
}

fn read_with_hint(input: impl Read, cap: usize, hint: usize) -> Result<String, ReadError> {
    let mut bytes = Vec::with_capacity(hint.min(cap).saturating_add(1));
    input.take(limit(cap)).read_to_end(&mut bytes)?;
    if bytes.len() > cap {
        return Err(ReadError::TooLong { cap });
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)
}

/// The cap and a byte: reading one byte past the cap tells a long input from one at it.
fn limit(cap: usize) -> u64 {
    (cap as u64).saturating_add(1)
}

/// Reads the next line of `input` into `line` (cleared first; without its `\n` or
/// `\r\n`), at most `cap` bytes. `Ok(false)` at the end of the input. A line longer than
/// the cap is an error, read no further than the cap and a byte: the input cannot be
/// followed past it, so a caller stops reading there. The bytes are left as they came:
/// whether they must be UTF-8 is the caller's to say (see [`line_text`]).
pub fn read_line(input: &mut (impl BufRead + ?Sized), cap: usize, line: &mut Vec<u8>) -> Result<bool, ReadError> {
    line.clear();
    let read = input.take(limit(cap)).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(false);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    } else if line.len() > cap {
        line.clear();
        line.shrink_to(64);
        return Err(ReadError::TooLong { cap });
    }
    Ok(true)
}

/// A line [`read_line`] read, as text.
pub fn line_text(line: &[u8]) -> Result<&str, ReadError> {
    std::str::from_utf8(line).map_err(|_| ReadError::NotUtf8)
}

/// The lines of `input` as text, each at most `cap` bytes; ends after the first error.
pub struct Lines<R> {
    input: R,
    cap: usize,
    line: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> Lines<R> {
    pub fn new(input: R, cap: usize) -> Lines<R> {
        Lines { input, cap, line: Vec::new(), failed: false }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<String, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let text = match read_line(&mut self.input, self.cap, &mut self.line) {
            Ok(false) => return None,
            Ok(true) => line_text(&self.line).map(str::to_string),
            Err(e) => Err(e),
        };
        self.failed = text.is_err();
        Some(text)
    }
}

/// The lines of the file at `path`, each at most [`LINE_CAP`] bytes, read as they are
/// used (a file of rows may be larger than [`FILE_CAP`]; one row at a time is held).
pub fn file_lines(path: impl AsRef<Path>) -> Result<Lines<std::io::BufReader<std::fs::File>>, ReadError> {
    Ok(Lines::new(std::io::BufReader::new(std::fs::File::open(path)?), LINE_CAP))
}

/// The longest error message about a file shown as the parser gives it: a TOML error
/// shows its whole line, which in a file of one long line is the file.
const SHOWN_ERROR: usize = 2_000;

/// A TOML error in `text` as the toml crate shows it (the line, a caret under the place),
/// or, when that is too long to show, the place and the message alone.
pub fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let shown = e.to_string();
    if shown.len() <= SHOWN_ERROR {
        return shown;
    }
    let before = e.span().and_then(|s| text.get(..s.start)).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let message: String = e.message().trim().chars().take(SHOWN_ERROR).collect();
    format!("TOML parse error at line {line}, column {column}: {message}")
}
