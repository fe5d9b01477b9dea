//! Whole [`Columns`] as values: chunks joined in game order, the games a replayed batch keeps,
//! and a compact byte encoding for sending a chunk to another process (the Ray backend
//! pickles chunks). Everything here follows `column_groups!`, so a new column needs nothing of
//! its own.
//!
//! # The encoding (version 1)
//! All numbers little-endian: the tag `SFLF`, the version (u16), the players (u8), the number
//! of games (u64), the number of declared columns (u16) and, for each, its name (u8 length, then
//! UTF-8), whether the chunk holds it and whether it holds its series (u8 each, 0 or 1); then
//! the groups in storage order, each games × (its widths) entries of its type (bool as one
//! byte, 0 or 1), the declared columns one after the other, then their series (games × 10
//! entries each); then the kept games: their count (u64) and, for each, its index (u64),
//! its number of actions (u64), the actions (u32) and the values (f32). Nothing may follow.
//! [`Columns::decode`] checks every field against the game it is read for and fails with a
//! [`Error::Record`] on anything else, allocating no more than the bytes given can fill.

use super::*;

/// The tag the encoding opens with.
const TAG: &[u8; 4] = b"SFLF";
/// The version of the encoding that [`Columns::encode`] writes and [`Columns::decode`] reads.
pub const ENCODING_VERSION: u16 = 1;

/// Bytes of one stored entry, per element type.
trait Stored: Copy {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Option<Self>;
}
impl Stored for u32 {
    const SIZE: usize = 4;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Option<Self> {
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }
}
impl Stored for f64 {
    const SIZE: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bits().to_le_bytes());
    }
    fn get(b: &[u8]) -> Option<Self> {
        Some(f64::from_bits(u64::from_le_bytes(b.try_into().ok()?)))
    }
}
impl Stored for f32 {
    const SIZE: usize = 4;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bits().to_le_bytes());
    }
    fn get(b: &[u8]) -> Option<Self> {
        Some(f32::from_bits(u32::from_le_bytes(b.try_into().ok()?)))
    }
}
impl Stored for bool {
    const SIZE: usize = 1;
    fn put(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
    fn get(b: &[u8]) -> Option<Self> {
        match b {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }
}
impl Stored for i8 {
    const SIZE: usize = 1;
    fn put(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
    fn get(b: &[u8]) -> Option<Self> {
        Some(i8::from_le_bytes(b.try_into().ok()?))
    }
}

/// Reads an encoding front to back; every read checks that the bytes are there.
struct Reader<'a> {
    bytes: &'a [u8],
}

fn damaged(why: impl std::fmt::Display) -> Error {
    Error::Record(format!("damaged lab facts: {why}"))
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if self.bytes.len() < n {
            return Err(damaged(format!(
                "{what} needs {n} bytes, {} are left",
                self.bytes.len()
            )));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn one<T: Stored>(&mut self, what: &str) -> Result<T> {
        let b = self.take(T::SIZE, what)?;
        T::get(b).ok_or_else(|| damaged(format!("{what} holds {b:?}")))
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16> {
        Ok(u16::from_le_bytes(
            self.take(2, what)?.try_into().unwrap_or_default(),
        ))
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().unwrap_or_default(),
        ))
    }

    /// `n` entries of `T`, checked to be there before anything is allocated.
    fn many<T: Stored>(&mut self, n: u64, what: &str) -> Result<Vec<T>> {
        let bytes = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(T::SIZE))
            .ok_or_else(|| damaged(format!("{what}: {n} entries cannot be")))?;
        let b = self.take(bytes, what)?;
        b.chunks_exact(T::SIZE)
            .map(|c| T::get(c).ok_or_else(|| damaged(format!("{what} holds {c:?}"))))
            .collect()
    }
}

impl Columns {
    /// The games of `parts` one after the other, in the order given (each part's kept games
    /// with them), as columns of a game of `players` players that declares `declared`. Fails
    /// unless every part is of that shape.
    pub fn concat(
        players: usize,
        declared: &'static [FinalColumn],
        parts: &[&Columns],
    ) -> Result<Columns> {
        if let Some(p) = parts
            .iter()
            .find(|p| p.players != players || p.declared != declared)
        {
            let names = |d: &[FinalColumn]| d.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
            return Err(Error::InvalidArgument(format!(
                "facts of {} players declaring [{}] cannot join facts of {players} players \
                 declaring [{}]",
                p.players,
                names(p.declared),
                names(declared)
            )));
        }
        let games = parts.iter().map(|p| p.games).sum();
        let rows: Vec<ColumnsRef<'_>> = parts.iter().map(|p| p.rows()).collect();
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {{
                // Each group column by column, each column part by part: the layout of
                // `Columns::zeroed`.
                $(
                    let mut $g: Vec<$t> = Vec::with_capacity(games * (0 $(+ $w)+));
                    $(for r in &rows {
                        $g.extend_from_slice(r.$f);
                    })+
                )+
                // The declared columns, then their series.
                let mut game = Vec::with_capacity(games * declared.len() * (1 + BINS));
                for j in 0..declared.len() {
                    for r in &rows {
                        game.extend_from_slice(r.game[j]);
                    }
                }
                for j in 0..declared.len() {
                    for r in &rows {
                        game.extend_from_slice(r.series[j]);
                    }
                }
                Columns {
                    players,
                    games,
                    $($g,)+
                    game,
                    declared,
                    kept: parts.iter().flat_map(|p| p.kept.iter().cloned()).collect(),
                }
            }};
        }
        Ok(column_groups!(all, players))
    }

    /// Keeps the actions of the games a batch replayed from `actions` and `offsets` (as
    /// [`game_stats_batch`] reads them), numbered from `first`: those numbered below
    /// `keep_below` and every game with a repeated position, as a lab run keeps them; `values`
    /// (one per action) or NaN for their values.
    pub fn keep_replayed(
        &mut self,
        first: u64,
        keep_below: u64,
        actions: &[u32],
        offsets: &[i64],
        values: Option<&[f32]>,
    ) {
        let chosen: Vec<usize> = (self.rows().repeated.iter().enumerate())
            .filter(|&(g, &r)| (first + g as u64) < keep_below || r > 0)
            .map(|(g, _)| g)
            .collect();
        for g in chosen {
            let span = offsets[g] as usize..offsets[g + 1] as usize;
            let values = match values {
                Some(v) => v[span.clone()].to_vec(),
                None => vec![f32::NAN; span.len()],
            };
            self.kept.push(Kept {
                index: first + g as u64,
                actions: actions[span].to_vec(),
                values,
            });
        }
    }

    /// The columns as bytes (see the module documentation), with `present[j]` whether the
    /// chunk holds declared column j and `present[d + j]` whether it holds that column's
    /// series, d being the number of declared columns (a chunk read from an older results file
    /// may lack them).
    pub fn encode(&self, present: &[bool]) -> Vec<u8> {
        let d = self.declared.len();
        let mut out = Vec::new();
        out.extend_from_slice(TAG);
        out.extend_from_slice(&ENCODING_VERSION.to_le_bytes());
        out.push(self.players as u8);
        out.extend_from_slice(&(self.games as u64).to_le_bytes());
        out.extend_from_slice(&(self.declared.len() as u16).to_le_bytes());
        for (j, c) in self.declared.iter().enumerate() {
            out.push(c.name.len() as u8);
            out.extend_from_slice(c.name.as_bytes());
            out.push(u8::from(present.get(j).copied().unwrap_or(true)));
            out.push(u8::from(present.get(d + j).copied().unwrap_or(true)));
        }
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {
                $(for &x in &self.$g {
                    x.put(&mut out);
                })+
            };
        }
        column_groups!(all, self.players);
        for &x in &self.game {
            x.put(&mut out);
        }
        out.extend_from_slice(&(self.kept.len() as u64).to_le_bytes());
        for k in &self.kept {
            out.extend_from_slice(&k.index.to_le_bytes());
            out.extend_from_slice(&(k.actions.len() as u64).to_le_bytes());
            for &a in &k.actions {
                a.put(&mut out);
            }
            for &v in &k.values {
                v.put(&mut out);
            }
        }
        out
    }

    /// Columns from [`Columns::encode`]'s bytes, read for a game of `players` players that
    /// declares `declared`, with which declared columns they hold. Anything else (another
    /// game, another version, bytes cut short, extended or altered where it shows) is an
    /// [`Error::Record`].
    pub fn decode(
        bytes: &[u8],
        players: usize,
        declared: &'static [FinalColumn],
    ) -> Result<(Columns, Vec<bool>)> {
        let mut r = Reader { bytes };
        if r.take(TAG.len(), "the tag")? != TAG {
            return Err(damaged("they do not open with the tag SFLF"));
        }
        let version = r.u16("the version")?;
        if version != ENCODING_VERSION {
            return Err(damaged(format!(
                "version {version}; this stonefield reads version {ENCODING_VERSION}"
            )));
        }
        let found = usize::from(r.u8("the players")?);
        if found != players {
            return Err(damaged(format!(
                "facts of {found} players, read for a game of {players}"
            )));
        }
        let games = r.u64("the games")?;
        let count = usize::from(r.u16("the declared columns")?);
        if count != declared.len() {
            return Err(damaged(format!(
                "{count} declared columns, the game declares {}",
                declared.len()
            )));
        }
        let mut present = vec![true; 2 * count];
        for (j, c) in declared.iter().enumerate() {
            let len = usize::from(r.u8("a column's name")?);
            let name = r.take(len, "a column's name")?;
            if name != c.name.as_bytes() {
                return Err(damaged(format!(
                    "declared column {} where the game declares {}",
                    String::from_utf8_lossy(name),
                    c.name
                )));
            }
            present[j] = r.one::<bool>("a column's presence")?;
            present[count + j] = r.one::<bool>("a series' presence")?;
        }
        let games_usize = usize::try_from(games).map_err(|_| damaged("too many games"))?;
        let rows = |w: usize| -> u64 { games.saturating_mul(w as u64) };
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {{
                $(let $g: Vec<$t> = r.many(rows(0 $(+ $w)+), stringify!($g))?;)+
                let game: Vec<f64> =
                    r.many(rows(declared.len() * (1 + BINS)), "the declared columns")?;
                Columns {
                    players,
                    games: games_usize,
                    $($g,)+
                    game,
                    declared,
                    kept: Vec::new(),
                }
            }};
        }
        let mut cols = column_groups!(all, players);
        let kept = r.u64("the kept games")?;
        for _ in 0..kept {
            let index = r.u64("a kept game's index")?;
            let n = r.u64("a kept game's length")?;
            let actions = r.many(n, "a kept game's actions")?;
            let values = r.many(n, "a kept game's values")?;
            cols.kept.push(Kept {
                index,
                actions,
                values,
            });
        }
        if !r.bytes.is_empty() {
            return Err(damaged(format!("{} bytes follow the end", r.bytes.len())));
        }
        Ok((cols, present))
    }
}
