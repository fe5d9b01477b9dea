//! The facts of many games stored by column: the one list of columns (`column_groups!`),
//! the typed blocks that hold them and the views that write them in place.

use super::*;

/// Calls `$m!` with every column of [`Columns`] as it is stored: per group (one allocation
/// each, of one element type), the group's columns in order with their widths per row and what
/// they hold. This is the one list of the lab's own columns: storage, the views that fill it,
/// the schema Python reads ([`schema`]), the results file and the sums all follow it. (The
/// columns a game declares, [`Measure::final_columns`], follow them in the [`Columns::game`]
/// group, and after those the series of each, derived from the declaration: [`series_info`].) A new column is one entry here and one field of [`GameStats`] of the same name.
macro_rules! column_groups {
    ($m:ident, $players:expr) => {
        $m! {
            whole: u32 = [
                length * 1 => "actions played",
                turns * 1 => "runs of consecutive actions by one player",
                multi_choice * 1 => "decisions with more than one legal action",
                repeated * 1 => "positions repeating an earlier one",
                branching_bins * BINS => "legal actions summed over each tenth of the decisions"
            ];
            floats: f64 = [
                branching_sum * 1 => "legal actions summed over the decisions",
                coverage * 1 => "share of the sites ever occupied",
                lead_change * 1 => "share of decisions where the leader changes",
                drama * 1 => "mean drop of the eventual winner below the leader",
                decisiveness * 1 => "share of the game played after the threshold is passed",
                threshold * 1 => "the decisiveness threshold of the game",
                stability * 1 => "mean variance of each player's evaluation over the game",
                returns * $players => "final returns, one per player",
                ranks * $players => "final ranks, one per player (1 best)",
                scores * $players => "final raw scores, one per player (None without scores)"
            ];
            flags: bool = [
                top_tied * 1 => "whether the raw scores tie for first",
                truncated * 1 => "whether the move cap ended the game"
            ];
            signs: i8 = [pie * 1 => "the pie choice: 1 swap, 0 accept, -1 none"]
        }
    };
}

#[allow(unused_imports)] // used by the bindings (`src/python/lab.rs`)
pub(crate) use column_groups;

/// The columns that may be absent (`None` in Python) in a run of a game without such values:
/// the raw scores of games without scores.
pub const OPTIONAL: &[&str] = &["scores"];

/// The element types of the columns, as numpy names them.
pub trait Dtype {
    const NAME: &'static str;
}
impl Dtype for u32 {
    const NAME: &'static str = "uint32";
}
impl Dtype for f64 {
    const NAME: &'static str = "float64";
}
impl Dtype for bool {
    const NAME: &'static str = "bool";
}
impl Dtype for i8 {
    const NAME: &'static str = "int8";
}

/// One column of a lab run as users see it: its name, numpy element type, entries per game
/// (one row of `width` entries; a column of width 1 is one-dimensional), what it holds,
/// whether the game declared it ([`Measure::final_columns`]) rather than the lab, and the range
/// of its values (what a declared column says; unbounded for the lab's own).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColumnInfo {
    pub name: &'static str,
    pub dtype: &'static str,
    pub width: usize,
    pub description: &'static str,
    pub declared: bool,
    pub low: f64,
    pub high: f64,
}

/// What a declared column's series is called: its name and this ending (`groups_final_0` gives
/// `groups_final_0_series`).
pub const SERIES_SUFFIX: &str = "_series";

/// A text made once and kept for the rest of the process: the names and descriptions of the
/// series, derived from the columns the games declare (a few dozen at most, whatever a process
/// asks for).
fn kept_text(text: String) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static TEXTS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut texts = TEXTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&t) = texts.get(text.as_str()) {
        return t;
    }
    let t: &'static str = Box::leak(text.into_boxed_str());
    texts.insert(t);
    t
}

/// The name of the series of the declared column `name` (`name` and [`SERIES_SUFFIX`]).
pub fn series_name(name: &str) -> &'static str {
    kept_text(format!("{name}{SERIES_SUFFIX}"))
}

/// The column that holds the series of a declared column: its facts at the end of each tenth
/// of the game (see the module docs), float64, [`BINS`] entries a game, in its range.
pub fn series_info(c: &FinalColumn) -> ColumnInfo {
    ColumnInfo {
        name: series_name(c.name),
        dtype: <f64 as Dtype>::NAME,
        width: BINS,
        description: kept_text(format!(
            "{}; at the end of each tenth of the game instead (the last tenth ends the game)",
            c.description
        )),
        declared: true,
        low: c.low,
        high: c.high,
    }
}

/// Every column of a lab run of a game of `players` players that declares the columns `game`:
/// the lab's own, in storage order, then the game's (float64, one entry per game), then the
/// series of each of the game's columns ([`series_info`], in the same order).
pub fn schema(players: usize, game: &[FinalColumn]) -> Vec<ColumnInfo> {
    let mut out = Vec::new();
    macro_rules! all {
        ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {
            $($(out.push(ColumnInfo {
                name: stringify!($f),
                dtype: <$t as Dtype>::NAME,
                width: $w,
                description: $d,
                declared: false,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            });)+)+
        };
    }
    column_groups!(all, players);
    out.extend(game.iter().map(|c| ColumnInfo {
        name: c.name,
        dtype: <f64 as Dtype>::NAME,
        width: 1,
        description: c.description,
        declared: true,
        low: c.low,
        high: c.high,
    }));
    out.extend(game.iter().map(series_info));
    out
}

/// Writes a game's value of one column into its row.
pub trait Cell<T> {
    fn write(&self, row: &mut [T]);
}
impl<T: Copy> Cell<T> for T {
    #[inline(always)]
    fn write(&self, row: &mut [T]) {
        row[0] = *self;
    }
}
impl<T: Copy, const N: usize> Cell<T> for [T; N] {
    /// The first `row.len()` entries (a row per player of a `MAX_PLAYERS` array).
    #[inline(always)]
    fn write(&self, row: &mut [T]) {
        row.copy_from_slice(&self[..row.len()]);
    }
}

/// Defines the by-column view structs from the list: [`ColumnsMut`] (rows to fill) and
/// [`ColumnsRef`] (rows to read).
macro_rules! views {
    ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {
        /// Some consecutive rows of a [`Columns`], to fill in place: one slice per column
        /// (see `column_groups!`), one per column the game declares, and one per series of
        /// those ([`BINS`] entries a row).
        pub struct ColumnsMut<'a> {
            pub(crate) players: usize,
            $($(pub(crate) $f: &'a mut [$t],)+)+
            pub(crate) game: Vec<&'a mut [f64]>,
            pub(crate) series: Vec<&'a mut [f64]>,
        }

        /// Every column of some games, to read: one slice per column (see `column_groups!`;
        /// `players` entries a game in `returns`, `ranks` and `scores`; `scores` may be empty
        /// for games without scores), one per column the game declares, in its order, and one
        /// per series of those (`series`, [`BINS`] entries a game, the game's row of tenths).
        #[derive(Clone, Debug)]
        pub struct ColumnsRef<'a> {
            pub players: usize,
            $($(pub $f: &'a [$t],)+)+
            pub game: Vec<&'a [f64]>,
            pub series: Vec<&'a [f64]>,
        }
    };
}
column_groups!(views, 0);

/// Per-game facts of many games as columns, one row per game (`returns`, `ranks` and `scores`
/// `players` entries a row; `scores` NaN for games without scores), the columns the game
/// declares and their series, and the action lists of the games a run keeps.
///
/// The columns of one element type share one allocation (a group; [`Columns::layout`] says
/// where each lies): a run's facts are tens of megabytes, and a few large blocks rather than
/// twenty smaller ones let the allocator hand the same memory to the next run instead of
/// returning it to the system and faulting it in again page by page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Columns {
    pub players: usize,
    pub(crate) games: usize,
    /// `length`, `turns`, `multi_choice`, `repeated`, `branching_bins`.
    pub whole: Vec<u32>,
    /// `branching_sum`, `coverage`, `lead_change`, `drama`, `decisiveness`, `threshold`,
    /// `stability`, `returns`, `ranks`, `scores`.
    pub floats: Vec<f64>,
    /// `top_tied`, `truncated`.
    pub flags: Vec<bool>,
    /// `pie`.
    pub signs: Vec<i8>,
    /// The columns the game declares ([`Columns::declared`]), one after the other, then their
    /// series ([`series_info`]), one after the other, each [`BINS`] entries a game (row-major).
    pub game: Vec<f64>,
    /// What the columns of [`Columns::game`] are.
    pub declared: &'static [FinalColumn],
    /// Games whose actions were kept, in game order.
    pub kept: Vec<Kept>,
}

/// Where a column of [`Columns`] lies: its group, the range of the group it takes and its
/// width per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnPlace {
    pub name: &'static str,
    /// `"whole"`, `"floats"`, `"flags"`, `"signs"` or `"game"`.
    pub group: &'static str,
    pub start: usize,
    pub end: usize,
    pub width: usize,
}

impl<'a> ColumnsMut<'a> {
    /// The first `games` rows and the rest.
    pub fn split_at(self, games: usize) -> (ColumnsMut<'a>, ColumnsMut<'a>) {
        let players = self.players;
        let (game, rest): (Vec<_>, Vec<_>) =
            self.game.into_iter().map(|c| c.split_at_mut(games)).unzip();
        let (series, later): (Vec<_>, Vec<_>) = self
            .series
            .into_iter()
            .map(|c| c.split_at_mut(games * BINS))
            .unzip();
        macro_rules! split {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {{
                $($(let $f = self.$f.split_at_mut(games * $w);)+)+
                (
                    ColumnsMut { players, $($($f: $f.0,)+)+ game, series },
                    ColumnsMut { players, $($($f: $f.1,)+)+ game: rest, series: later },
                )
            }};
        }
        column_groups!(split, players)
    }

    /// The rows cut into consecutive pieces of `games` games (the last may be shorter), each
    /// writable on its own thread.
    pub fn parts(self, games: usize) -> Vec<ColumnsMut<'a>> {
        let games = games.max(1);
        let mut out = Vec::with_capacity(self.len().div_ceil(games));
        let mut rest = self;
        while !rest.is_empty() {
            let size = games.min(rest.len());
            let (part, more) = rest.split_at(size);
            out.push(part);
            rest = more;
        }
        out
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.length.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.length.is_empty()
    }

    /// Writes games `stats` into the first rows, one column at a time (a column's writes then
    /// run in order, which is cheaper than a game's scattered over every column).
    pub fn set_all(&mut self, stats: &[GameStats]) {
        let players = self.players;
        macro_rules! each {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {
                $($(for (o, s) in self.$f.chunks_exact_mut($w).zip(stats) {
                    Cell::<$t>::write(&s.$f, o);
                })+)+
            };
        }
        column_groups!(each, players);
        for (o, s) in self.scores.chunks_exact_mut(players).zip(stats) {
            if !s.has_scores {
                o.fill(f64::NAN);
            }
        }
        for (j, column) in self.game.iter_mut().enumerate() {
            for (o, s) in column.iter_mut().zip(stats) {
                *o = s.game[j];
            }
        }
    }

    /// Writes the series of the games into the first rows: `series` holds each game's
    /// [`Scratch::series`] one after the other, in game order (nothing for a game that declares
    /// no columns).
    pub fn set_series(&mut self, series: &[f64]) {
        let declared = self.series.len();
        if declared == 0 {
            return;
        }
        for (g, game) in series.chunks_exact(declared * BINS).enumerate() {
            for (column, tenths) in self.series.iter_mut().zip(game.chunks_exact(BINS)) {
                column[g * BINS..(g + 1) * BINS].copy_from_slice(tenths);
            }
        }
    }
}

/// A game's actions and the mover's search value at each (NaN for agents that do not search).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kept {
    /// The game's index in its run.
    pub index: u64,
    pub actions: Vec<u32>,
    pub values: Vec<f32>,
}

impl Columns {
    /// Columns for `games` games of a game that declares the columns `declared`, zeroed, to be
    /// filled through [`Columns::rows_mut`].
    pub fn zeroed(players: usize, declared: &'static [FinalColumn], games: usize) -> Columns {
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {
                Columns {
                    players,
                    games,
                    $($g: vec![<$t>::default(); games * (0 $(+ $w)+)],)+
                    game: vec![0.0; games * declared.len() * (1 + BINS)],
                    declared,
                    kept: Vec::new(),
                }
            };
        }
        column_groups!(all, players)
    }

    /// Every row, writable in place (and cut into pieces by [`ColumnsMut::split_at`]).
    pub fn rows_mut(&mut self) -> ColumnsMut<'_> {
        let (players, games) = (self.players, self.games);
        let declared = self.declared.len();
        let (finals, tenths) = self.game.split_at_mut(games * declared);
        let (game, series) = if games == 0 {
            let empty = || {
                std::iter::repeat_with(|| &mut [][..])
                    .take(declared)
                    .collect()
            };
            (empty(), empty())
        } else {
            (
                finals.chunks_exact_mut(games).collect(),
                tenths.chunks_exact_mut(games * BINS).collect(),
            )
        };
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {{
                $(
                    let rest = &mut self.$g[..];
                    $(let ($f, rest) = rest.split_at_mut(games * $w);)+
                    debug_assert!(rest.is_empty());
                )+
                ColumnsMut { players, $($($f,)+)+ game, series }
            }};
        }
        column_groups!(all, players)
    }

    /// Every row, to read.
    pub fn rows(&self) -> ColumnsRef<'_> {
        let (players, games) = (self.players, self.games);
        let declared = self.declared.len();
        let (finals, tenths) = self.game.split_at(games * declared);
        let (game, series) = if games == 0 {
            (vec![&[][..]; declared], vec![&[][..]; declared])
        } else {
            (
                finals.chunks_exact(games).collect(),
                tenths.chunks_exact(games * BINS).collect(),
            )
        };
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {{
                $(
                    let rest = &self.$g[..];
                    $(let ($f, rest) = rest.split_at(games * $w);)+
                    debug_assert!(rest.is_empty());
                )+
                ColumnsRef { players, $($($f,)+)+ game, series }
            }};
        }
        column_groups!(all, players)
    }

    /// Where each column lies: group by group, each group's columns in the order stored, then
    /// the game's columns and their series (group `"game"`, in [`schema`]'s order).
    pub fn layout(&self) -> Vec<ColumnPlace> {
        let (players, games) = (self.players, self.games);
        let mut out = Vec::new();
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {
                $(
                    let mut start = 0;
                    $(
                        let end = start + games * $w;
                        out.push(ColumnPlace {
                            name: stringify!($f),
                            group: stringify!($g),
                            start,
                            end,
                            width: $w,
                        });
                        start = end;
                    )+
                    let _ = start;
                )+
            };
        }
        column_groups!(all, players);
        for (j, c) in self.declared.iter().enumerate() {
            out.push(ColumnPlace {
                name: c.name,
                group: "game",
                start: j * games,
                end: (j + 1) * games,
                width: 1,
            });
        }
        let finals = self.declared.len() * games;
        for (j, c) in self.declared.iter().enumerate() {
            out.push(ColumnPlace {
                name: series_name(c.name),
                group: "game",
                start: finals + j * games * BINS,
                end: finals + (j + 1) * games * BINS,
                width: BINS,
            });
        }
        out
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }
}

impl ColumnsRef<'_> {
    /// Fails unless every column holds one row per game (`length`'s count): an optional column
    /// ([`OPTIONAL`]) may be empty instead, the game's columns must be as many as
    /// `declared`, and each series given must hold [`BINS`] entries a game.
    pub fn check(&self, declared: usize) -> Result<()> {
        let n = self.length.len();
        let players = self.players;
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {
                $($({
                    let (name, len, w) = (stringify!($f), self.$f.len(), $w);
                    if len != n * w && !(len == 0 && OPTIONAL.contains(&name)) {
                        return Err(Error::InvalidArgument(if w == 1 {
                            format!("per-game columns of {n} games expected; {name} has {len} rows")
                        } else {
                            format!("{name} needs {w} entries for each of {n} games, has {len}")
                        }));
                    }
                })+)+
            };
        }
        column_groups!(all, players);
        if self.game.len() != declared {
            return Err(Error::InvalidArgument(format!(
                "the game declares {declared} columns, {} given",
                self.game.len()
            )));
        }
        if let Some(c) = self.game.iter().find(|c| c.len() != n) {
            return Err(Error::InvalidArgument(format!(
                "per-game columns of {n} games expected; a game's column has {} rows",
                c.len()
            )));
        }
        if let Some(c) = self.series.iter().find(|c| c.len() != n * BINS) {
            return Err(Error::InvalidArgument(format!(
                "a series needs {BINS} entries for each of {n} games, has {}",
                c.len()
            )));
        }
        Ok(())
    }
}
