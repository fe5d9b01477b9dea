//! Game options: how each game declares them, and how user options are resolved against that.
//!
//! Every game declares its options once, as a `const OPTIONS: &[OptionSpec]` beside its rules:
//! name, kind (a choice among named values, an integer range or a flag), default and a one-line
//! help, and for rulesets the options each value sets. That table is the only description: it
//! drives the parsing and the error messages ([`Resolved::new`]), the resolved `options` of a
//! game, `stonefield.option_spec` in Python (from which the docs tables, forms and the CLI
//! help are built), and the test and benchmark configurations that run over every value.
//!
//! Options whose values are a fixed set of names map to enums through [`named_enum!`], which
//! gives every such enum the same four parts: `ALL`, `name()`, a `parse()` that fails on
//! unknown names (never a silent fallback), and `CHOICES` for the table.

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
    /// Parses a `key=value` value as the command line gives it: `true`/`false` in any case, an
    /// integer, or else a string. The Python command line calls this same rule
    /// (`stonefield._core.parse_option`), so both read a value alike.
    pub fn parse_cli(text: &str) -> OptionValue {
        if text.eq_ignore_ascii_case("true") {
            OptionValue::Bool(true)
        } else if text.eq_ignore_ascii_case("false") {
            OptionValue::Bool(false)
        } else {
            text.parse::<i64>()
                .map(OptionValue::Int)
                .unwrap_or_else(|_| OptionValue::Str(text.to_string()))
        }
    }

    /// Parses one `key=value` item of the command line: the key with `-` read as `_`, and the
    /// value as [`OptionValue::parse_cli`] reads it.
    pub fn parse_item(item: &str) -> Result<(String, OptionValue)> {
        match item.split_once('=') {
            Some((key, value)) if !key.is_empty() => {
                Ok((key.replace('-', "_"), OptionValue::parse_cli(value)))
            }
            _ => Err(Error::InvalidOption(format!(
                "expected an option as key=value, got {item:?}"
            ))),
        }
    }
}

/// Resolved options of a game, in a fixed order, every default filled in.
pub type Options = Vec<(String, OptionValue)>;

/// One allowed value of a choice option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub name: &'static str,
    /// A few words on what the value means; empty when the name says it all.
    pub help: &'static str,
    /// For a ruleset: the options this value sets, as `(option, value)` pairs. An option the
    /// user gives explicitly wins over its ruleset.
    pub sets: &'static [(&'static str, &'static str)],
}

impl Choice {
    /// A plain value.
    pub const fn new(name: &'static str, help: &'static str) -> Choice {
        Choice {
            name,
            help,
            sets: &[],
        }
    }

    /// A ruleset value that sets other options.
    pub const fn ruleset(
        name: &'static str,
        help: &'static str,
        sets: &'static [(&'static str, &'static str)],
    ) -> Choice {
        Choice { name, help, sets }
    }
}

/// What values an option takes, and its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of the named values.
    Choice {
        values: &'static [Choice],
        default: &'static str,
    },
    /// An integer in `min..=max`. A `None` default depends on the board (the help says how).
    Int {
        min: i64,
        max: i64,
        default: Option<i64>,
    },
    /// True or false.
    Bool { default: bool },
}

/// The declaration of one option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// One line on what the option does.
    pub help: &'static str,
}

impl OptionSpec {
    /// A choice among `values`.
    pub const fn choice(
        name: &'static str,
        values: &'static [Choice],
        default: &'static str,
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Choice { values, default },
            help,
        }
    }

    /// An integer in `min..=max`.
    pub const fn int(
        name: &'static str,
        min: i64,
        max: i64,
        default: Option<i64>,
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Int { min, max, default },
            help,
        }
    }

    /// A flag.
    pub const fn boolean(name: &'static str, default: bool, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Bool { default },
            help,
        }
    }

    /// The names of a choice option's values (empty for other kinds).
    pub fn value_names(&self) -> Vec<&'static str> {
        match self.kind {
            OptionKind::Choice { values, .. } => values.iter().map(|c| c.name).collect(),
            _ => Vec::new(),
        }
    }

    /// The default as an option value; `None` for a default that depends on the board.
    pub fn default_value(&self) -> Option<OptionValue> {
        match self.kind {
            OptionKind::Choice { default, .. } => Some(OptionValue::Str(default.to_string())),
            OptionKind::Int { default, .. } => default.map(OptionValue::Int),
            OptionKind::Bool { default } => Some(OptionValue::Bool(default)),
        }
    }
}

/// The value names of the choice option `name` in `spec`, in declaration order (empty when `spec`
/// has no such choice option).
pub fn value_names(spec: &[OptionSpec], name: &str) -> Vec<&'static str> {
    spec.iter()
        .find(|o| o.name == name)
        .map(OptionSpec::value_names)
        .unwrap_or_default()
}

/// User options resolved against a game's [`OptionSpec`] table: every given option checked,
/// rulesets applied, defaults filled in, in the table's order.
#[derive(Clone, Debug)]
pub struct Resolved {
    game: &'static str,
    /// One entry per option of the table; `None` only for a board-dependent default.
    values: Vec<(&'static str, Option<OptionValue>)>,
}

impl Resolved {
    /// Checks `given` against `spec`: unknown options, values of the wrong kind, unknown names
    /// and integers out of range fail with [`Error::InvalidOption`] naming what is allowed.
    pub fn new(
        game: &'static str,
        spec: &'static [OptionSpec],
        given: &[(String, OptionValue)],
    ) -> Result<Resolved> {
        let mut r = OptionReader::new(game, given);
        let mut values: Vec<(&'static str, Option<OptionValue>)> = Vec::new();
        let mut explicit: Vec<bool> = Vec::new();
        for o in spec {
            let v = match o.kind {
                OptionKind::Choice { values, .. } => {
                    let names: Vec<&'static str> = values.iter().map(|c| c.name).collect();
                    r.choice_opt(o.name, &names)?.map(OptionValue::from)
                }
                OptionKind::Int { min, max, .. } => {
                    r.int_opt(o.name, min, max)?.map(OptionValue::Int)
                }
                OptionKind::Bool { .. } => r.boolean_opt(o.name)?.map(OptionValue::Bool),
            };
            explicit.push(v.is_some());
            values.push((o.name, v));
        }
        r.finish()?;
        // Rulesets, in table order, set what the user left out.
        for (i, o) in spec.iter().enumerate() {
            let OptionKind::Choice {
                values: choices,
                default,
            } = o.kind
            else {
                continue;
            };
            let chosen = match &values[i].1 {
                Some(OptionValue::Str(s)) => s.clone(),
                _ => default.to_string(),
            };
            let Some(choice) = choices.iter().find(|c| c.name == chosen) else {
                continue;
            };
            for &(key, value) in choice.sets {
                if let Some(j) = spec.iter().position(|s| s.name == key) {
                    if !explicit[j] {
                        values[j].1 = Some(OptionValue::from(value));
                    }
                }
            }
        }
        for (o, (_, v)) in spec.iter().zip(values.iter_mut()) {
            if v.is_none() {
                *v = o.default_value();
            }
        }
        Ok(Resolved { game, values })
    }

    fn get(&self, name: &str) -> Result<Option<&OptionValue>> {
        self.values
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_ref())
            .ok_or_else(|| {
                Error::InvalidOption(format!("{}: no option {name:?} is declared", self.game))
            })
    }

    fn mistyped(&self, name: &str) -> Error {
        Error::InvalidOption(format!(
            "{}: option {name} does not have the kind its declaration says",
            self.game
        ))
    }

    /// A choice option, as the enum that names its values.
    pub fn named<T: Named>(&self, name: &str) -> Result<T> {
        match self.get(name)? {
            Some(OptionValue::Str(s)) => T::parse(s),
            _ => Err(self.mistyped(name)),
        }
    }

    /// A choice option as its value name.
    pub fn text(&self, name: &str) -> Result<&str> {
        match self.get(name)? {
            Some(OptionValue::Str(s)) => Ok(s),
            _ => Err(self.mistyped(name)),
        }
    }

    /// An integer option; `None` for a board-dependent default the user did not override.
    pub fn int(&self, name: &str) -> Result<Option<i64>> {
        match self.get(name)? {
            Some(OptionValue::Int(i)) => Ok(Some(*i)),
            None => Ok(None),
            _ => Err(self.mistyped(name)),
        }
    }

    /// An integer option with a fixed default, as a count (every such range starts above 0).
    pub fn count(&self, name: &str) -> Result<usize> {
        match self.get(name)? {
            Some(OptionValue::Int(i)) => usize::try_from(*i).map_err(|_| self.mistyped(name)),
            _ => Err(self.mistyped(name)),
        }
    }

    /// A flag.
    pub fn boolean(&self, name: &str) -> Result<bool> {
        match self.get(name)? {
            Some(OptionValue::Bool(b)) => Ok(*b),
            _ => Err(self.mistyped(name)),
        }
    }

    /// The resolved options, with `fill` giving the value of each board-dependent default.
    pub fn into_options(self, fill: impl Fn(&str) -> OptionValue) -> Options {
        self.values
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.unwrap_or_else(|| fill(k))))
            .collect()
    }
}

/// An enum whose variants are an option's values (see [`named_enum!`]).
pub trait Named: Sized + Copy + 'static {
    /// Every variant, in declaration order.
    const ALL: &'static [Self];
    /// The variants as choices for an [`OptionSpec`].
    const CHOICES: &'static [Choice];
    /// The option value naming this variant.
    fn name(self) -> &'static str;
    /// The variant named `text`; an unknown name fails with [`Error::InvalidOption`] listing the
    /// names.
    fn parse(text: &str) -> Result<Self>;
}

/// Declares an enum whose variants are an option's values, each with its name and a few words of
/// help, and implements [`Named`] (ALL, CHOICES, name, parse) and `Display` for it.
///
/// ```
/// use stonefield::games::options::{named_enum, Named};
/// named_enum! {
///     /// How bright.
///     pub enum Light: "light" {
///         Dim = "dim": "half",
///         Bright = "bright": "",
///     }
/// }
/// assert_eq!(Light::parse("dim").unwrap(), Light::Dim);
/// assert_eq!(Light::Bright.name(), "bright");
/// assert!(Light::parse("dark").is_err());
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal : $help:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $crate::games::options::Named for $name {
            const ALL: &'static [$name] = &[$($name::$variant),+];
            const CHOICES: &'static [$crate::games::options::Choice] =
                &[$($crate::games::options::Choice::new($text, $help)),+];
            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
            fn parse(text: &str) -> $crate::error::Result<$name> {
                match text {
                    $($text => Ok($name::$variant),)+
                    _ => Err($crate::error::Error::InvalidOption(format!(
                        "unknown {} {text:?}; allowed: {}",
                        $what,
                        $crate::games::options::quoted(&[$($text),+])
                    ))),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::games::options::Named::name(*self))
            }
        }
    };
}
pub use named_enum;

/// Checks user options one at a time for [`Resolved::new`]: each getter takes one option and checks
/// its kind and value, and `finish` rejects any option the game does not know.
struct OptionReader<'a> {
    game: &'static str,
    given: &'a [(String, OptionValue)],
    known: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    fn new(game: &'static str, given: &'a [(String, OptionValue)]) -> OptionReader<'a> {
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

    /// A string option restricted to `allowed`; `None` when not given.
    fn choice_opt(
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

    /// An integer option in `lo..=hi`; `None` when not given.
    fn int_opt(&mut self, name: &'static str, lo: i64, hi: i64) -> Result<Option<i64>> {
        let game = self.game;
        match self.raw(name) {
            None => Ok(None),
            Some(OptionValue::Int(i)) if (lo..=hi).contains(i) => Ok(Some(*i)),
            Some(v) => Err(Error::InvalidOption(format!(
                "{game}: option {name} must be an integer from {lo} to {hi}, got {v}"
            ))),
        }
    }

    /// A boolean option; `None` when not given.
    fn boolean_opt(&mut self, name: &'static str) -> Result<Option<bool>> {
        let game = self.game;
        match self.raw(name) {
            None => Ok(None),
            Some(OptionValue::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(Error::InvalidOption(format!(
                "{game}: option {name} must be true or false, got {v}"
            ))),
        }
    }

    /// Fails on any given option that no getter asked for, naming the options the game has.
    fn finish(self) -> Result<()> {
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
