//! The facts of many games stored by column: the one list of columns (`column_groups!`),
//! the typed blocks that hold them and the views that write them in place.

use super::*;

/// Calls `$m!` with every column of [`Columns`] as it is stored: per group (one allocation
/// each, of one element type), the group's columns in order with their widths per row.
macro_rules! column_groups {
    ($m:ident, $players:expr) => {
        $m!(
            whole: u32 = [
                length * 1,
                turns * 1,
                multi_choice * 1,
                repeated * 1,
                branching_bins * BINS
            ];
            floats: f64 = [
                branching_sum * 1,
                coverage * 1,
                lead_change * 1,
                drama * 1,
                decisiveness * 1,
                threshold * 1,
                stability * 1,
                returns * $players,
                ranks * $players,
                scores * $players
            ];
            flags: bool = [top_tied * 1, truncated * 1];
            signs: i8 = [pie * 1]
        )
    };
}

/// Per-game facts of many games as columns, one row per game (`returns`, `ranks` and `scores`
/// `players` entries a row; `scores` NaN for games without scores), and the action lists of
/// the games a run keeps.
///
/// The columns of one element type share one allocation (a group; [`Columns::layout`] says
/// where each lies): a run's facts are tens of megabytes, and four large blocks rather than
/// eighteen smaller ones let the allocator hand the same memory to the next run instead of
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
    /// Games whose actions were kept, in game order.
    pub kept: Vec<Kept>,
}

/// Where a column of [`Columns`] lies: its group, the range of the group it takes and its
/// width per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnPlace {
    pub name: &'static str,
    /// `"whole"`, `"floats"`, `"flags"` or `"signs"`.
    pub group: &'static str,
    pub start: usize,
    pub end: usize,
    pub width: usize,
}

/// Some consecutive rows of a [`Columns`], to fill in place.
pub struct ColumnsMut<'a> {
    pub(crate) players: usize,
    pub(crate) length: &'a mut [u32],
    pub(crate) turns: &'a mut [u32],
    pub(crate) multi_choice: &'a mut [u32],
    pub(crate) repeated: &'a mut [u32],
    pub(crate) branching_sum: &'a mut [f64],
    pub(crate) coverage: &'a mut [f64],
    pub(crate) lead_change: &'a mut [f64],
    pub(crate) drama: &'a mut [f64],
    pub(crate) decisiveness: &'a mut [f64],
    pub(crate) threshold: &'a mut [f64],
    pub(crate) stability: &'a mut [f64],
    pub(crate) top_tied: &'a mut [bool],
    pub(crate) truncated: &'a mut [bool],
    pub(crate) pie: &'a mut [i8],
    pub(crate) branching_bins: &'a mut [u32],
    pub(crate) returns: &'a mut [f64],
    pub(crate) ranks: &'a mut [f64],
    pub(crate) scores: &'a mut [f64],
}

impl<'a> ColumnsMut<'a> {
    /// The first `games` rows and the rest.
    pub fn split_at(self, games: usize) -> (ColumnsMut<'a>, ColumnsMut<'a>) {
        let players = self.players;
        macro_rules! split {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {{
                $($(let $f = self.$f.split_at_mut(games * $w);)+)+
                (
                    ColumnsMut { players, $($($f: $f.0),+),+ },
                    ColumnsMut { players, $($($f: $f.1),+),+ },
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
        let p = self.players;
        macro_rules! each {
            ($($f:ident),+) => {
                $(for (o, s) in self.$f.iter_mut().zip(stats) {
                    *o = s.$f;
                })+
            };
        }
        each!(
            length,
            turns,
            multi_choice,
            repeated,
            branching_sum,
            coverage,
            lead_change,
            drama,
            decisiveness,
            threshold,
            stability,
            top_tied,
            truncated,
            pie
        );
        for (o, s) in self.branching_bins.chunks_exact_mut(BINS).zip(stats) {
            o.copy_from_slice(&s.branching_bins);
        }
        for (o, s) in self.returns.chunks_exact_mut(p).zip(stats) {
            o.copy_from_slice(s.returns());
        }
        for (o, s) in self.ranks.chunks_exact_mut(p).zip(stats) {
            o.copy_from_slice(s.ranks());
        }
        for (o, s) in self.scores.chunks_exact_mut(p).zip(stats) {
            match s.scores() {
                Some(x) => o.copy_from_slice(x),
                None => o.fill(f64::NAN),
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
    /// Columns for `games` games, zeroed, to be filled through [`Columns::rows_mut`].
    pub fn zeroed(players: usize, games: usize) -> Columns {
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {
                Columns {
                    players,
                    games,
                    $($g: vec![<$t>::default(); games * (0 $(+ $w)+)],)+
                    kept: Vec::new(),
                }
            };
        }
        column_groups!(all, players)
    }

    /// Every row, writable in place (and cut into pieces by [`ColumnsMut::split_at`]).
    pub fn rows_mut(&mut self) -> ColumnsMut<'_> {
        let (players, games) = (self.players, self.games);
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {{
                $(
                    let rest = &mut self.$g[..];
                    $(let ($f, rest) = rest.split_at_mut(games * $w);)+
                    debug_assert!(rest.is_empty());
                )+
                ColumnsMut { players, $($($f),+),+ }
            }};
        }
        column_groups!(all, players)
    }

    /// Where each column lies: group by group, each group's columns in the order stored.
    pub fn layout(&self) -> Vec<ColumnPlace> {
        let (players, games) = (self.players, self.games);
        let mut out = Vec::new();
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {
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
