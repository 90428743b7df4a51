//! `Value`: the data a variant keeps in `vars` and passes through the engine. It is plain
//! data (no functions, no userdata) so that the state stays serializable.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Num(f64),
    Str(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

impl Value {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Num(n) if n.fract() == 0.0 => Some(*n as i64),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// Bytes the value holds, roughly (a fixed cost per node plus its text), for the cap on
    /// what scripts may store.
    pub fn size(&self) -> usize {
        const NODE: usize = 32;
        match self {
            Value::Bool(_) | Value::Int(_) | Value::Num(_) => NODE,
            Value::Str(s) => NODE + s.len(),
            Value::List(l) => NODE + l.iter().map(Value::size).sum::<usize>(),
            Value::Map(m) => NODE + m.iter().map(|(k, v)| NODE + k.len() + v.size()).sum::<usize>(),
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(n) => write!(f, "{n}"),
            Value::Str(s) => f.write_str(s),
            other => f.write_str(&serde_json::to_string(other).unwrap_or_default()),
        }
    }
}
