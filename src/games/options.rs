//! Game options as users give them (keyword arguments in Python, `key=value` on the command line),
//! and the reader each game uses to resolve them with defaults and allowed values.

use std::fmt;

use crate::error::{Error, Result};

/// One option value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    Str(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Str(s) => write!(f, "{s:?}"),
        }
    }
}

impl OptionValue {
    /// Parses a command-line value: `true`/`false`, an integer, or else a string.
    pub fn parse_cli(text: &str) -> OptionValue {
        match text {
            "true" | "True" => OptionValue::Bool(true),
            "false" | "False" => OptionValue::Bool(false),
            _ => text
                .parse::<i64>()
                .map(OptionValue::Int)
                .unwrap_or_else(|_| OptionValue::Str(text.to_string())),
        }
    }
}

/// Resolved options of a game, in a fixed order, every default filled in.
pub type Options = Vec<(String, OptionValue)>;

/// Reads user options for one game: each getter takes one option (or its default), checks it,
/// and [`OptionReader::finish`] rejects any option the game does not know.
pub struct OptionReader<'a> {
    game: &'static str,
    given: &'a [(String, OptionValue)],
    known: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    pub fn new(game: &'static str, given: &'a [(String, OptionValue)]) -> OptionReader<'a> {
        OptionReader {
            game,
            given,
            known: Vec::new(),
        }
    }

    fn raw(&mut self, name: &'static str) -> Option<&'a OptionValue> {
        self.known.push(name);
        self.given
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// Whether the user gave this option.
    pub fn given(&self, name: &str) -> bool {
        self.given.iter().any(|(k, _)| k == name)
    }

    /// A string option restricted to `allowed`; `None` when not given.
    pub fn choice_opt(
        &mut self,
        name: &'static str,
        allowed: &[&'static str],
    ) -> Result<Option<&'static str>> {
        let game = self.game;
        match self.raw(name) {
            None => Ok(None),
            Some(OptionValue::Str(s)) => match allowed.iter().find(|a| **a == s.as_str()) {
                Some(a) => Ok(Some(*a)),
                None => Err(Error::InvalidOption(format!(
                    "{game}: unknown {name} {s:?}; allowed: {}",
                    quoted(allowed)
                ))),
            },
            Some(v) => Err(Error::InvalidOption(format!(
                "{game}: option {name} takes a string, got {v}; allowed: {}",
                quoted(allowed)
            ))),
        }
    }

    /// A string option restricted to `allowed`, with a default.
    pub fn choice(
        &mut self,
        name: &'static str,
        allowed: &[&'static str],
        default: &'static str,
    ) -> Result<&'static str> {
        Ok(self.choice_opt(name, allowed)?.unwrap_or(default))
    }

    /// An integer option in `lo..=hi`; `None` when not given.
    pub fn int_opt(&mut self, name: &'static str, lo: i64, hi: i64) -> Result<Option<i64>> {
        let game = self.game;
        match self.raw(name) {
            None => Ok(None),
            Some(OptionValue::Int(i)) if (lo..=hi).contains(i) => Ok(Some(*i)),
            Some(v) => Err(Error::InvalidOption(format!(
                "{game}: option {name} must be an integer from {lo} to {hi}, got {v}"
            ))),
        }
    }

    /// An integer option in `lo..=hi`, with a default.
    pub fn int(&mut self, name: &'static str, lo: i64, hi: i64, default: i64) -> Result<i64> {
        Ok(self.int_opt(name, lo, hi)?.unwrap_or(default))
    }

    /// A boolean option, with a default.
    pub fn boolean(&mut self, name: &'static str, default: bool) -> Result<bool> {
        let game = self.game;
        match self.raw(name) {
            None => Ok(default),
            Some(OptionValue::Bool(b)) => Ok(*b),
            Some(v) => Err(Error::InvalidOption(format!(
                "{game}: option {name} must be true or false, got {v}"
            ))),
        }
    }

    /// Fails on any given option that no getter asked for, naming the options the game has.
    pub fn finish(self) -> Result<()> {
        for (k, _) in self.given {
            if !self.known.iter().any(|n| n == k) {
                let mut names = self.known.clone();
                names.sort_unstable();
                names.dedup();
                return Err(Error::InvalidOption(format!(
                    "{}: unknown option {k:?}; options: {}",
                    self.game,
                    names.join(", ")
                )));
            }
        }
        Ok(())
    }
}

/// `"a", "b", "c"`.
pub fn quoted(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Shorthand for building resolved option lists.
pub fn opt(name: &str, value: impl Into<OptionValue>) -> (String, OptionValue) {
    (name.to_string(), value.into())
}

impl From<i64> for OptionValue {
    fn from(v: i64) -> Self {
        OptionValue::Int(v)
    }
}
impl From<usize> for OptionValue {
    fn from(v: usize) -> Self {
        OptionValue::Int(v as i64)
    }
}
impl From<bool> for OptionValue {
    fn from(v: bool) -> Self {
        OptionValue::Bool(v)
    }
}
impl From<&str> for OptionValue {
    fn from(v: &str) -> Self {
        OptionValue::Str(v.to_string())
    }
}
