//! The one error type of the scripting domain.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptErrorKind {
    /// A variant could not be found or loaded.
    Load,
    /// A rule refused the action.
    Rejected,
    /// A script raised an error or misused the engine API.
    Runtime,
    /// A script ran past its instruction budget.
    Budget,
    /// A script allocated past its memory cap.
    Memory,
}

/// What went wrong in a script, and where: the rule (action or hook) and the variant
/// file:line, so a modder knows what to fix and a player knows what refused them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    pub kind: ScriptErrorKind,
    pub message: String,
    /// "variants/base.lua:123", when known.
    pub location: Option<String>,
    /// The variant whose rule refused or failed, when known.
    pub variant: Option<String>,
    /// The hook or action that was running, such as "hook 'base.production'".
    pub rule: Option<String>,
}

impl ScriptError {
    pub fn new(kind: ScriptErrorKind, message: impl Into<String>) -> ScriptError {
        ScriptError { kind, message: message.into(), location: None, variant: None, rule: None }
    }

    /// Turns an mlua error into a ScriptError, pulling out the innermost message and the
    /// file:line it names.
    pub fn from_lua(err: &mlua::Error) -> ScriptError {
        let mut e = err;
        loop {
            match e {
                mlua::Error::CallbackError { cause, .. } => e = cause,
                mlua::Error::WithContext { cause, .. } => e = cause,
                _ => break,
            }
        }
        if let mlua::Error::ExternalError(ext) = e {
            if let Some(se) = ext.downcast_ref::<ScriptError>() {
                return se.clone();
            }
        }
        let (kind, text) = match e {
            mlua::Error::MemoryError(m) => {
                (ScriptErrorKind::Memory, format!("a script ran out of its memory cap: {m}"))
            }
            mlua::Error::RuntimeError(m) => (ScriptErrorKind::Runtime, m.clone()),
            mlua::Error::SyntaxError { message, .. } => (ScriptErrorKind::Load, message.clone()),
            other => (ScriptErrorKind::Runtime, other.to_string()),
        };
        let first = text.lines().next().unwrap_or("").to_string();
        let (location, message) = split_location(&first);
        let mut se = ScriptError::new(kind, message);
        se.location = location;
        se
    }
}

/// "variants/base.lua:12: boom" -> (Some("variants/base.lua:12"), "boom").
pub(crate) fn split_location(text: &str) -> (Option<String>, String) {
    let mut parts = text.splitn(3, ':');
    if let (Some(file), Some(line), Some(rest)) = (parts.next(), parts.next(), parts.next()) {
        if file.ends_with(".lua") && line.chars().all(|c| c.is_ascii_digit()) && !line.is_empty() {
            return (Some(format!("{file}:{line}")), rest.trim().to_string());
        }
    }
    (None, text.to_string())
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(r) = &self.rule {
            write!(f, " (in {r})")?;
        }
        match (&self.variant, &self.location) {
            (Some(v), Some(l)) => write!(f, " [{v}, {l}]"),
            (None, Some(l)) => write!(f, " [{l}]"),
            (Some(v), None) => write!(f, " [{v}]"),
            (None, None) => Ok(()),
        }
    }
}

impl std::error::Error for ScriptError {}
