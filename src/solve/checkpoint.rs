//! Solves that outlive a process: alpha-beta's table and the root's proven outcomes saved to a
//! directory while the search runs, and loaded back by the next solve of the same position.
//!
//! * **What is kept.** Every table entry (an exact value or a proven bound, each a fact about
//!   the position's value that holds in any later search) and every root outcome proven so far.
//!   A resumed solve starts with them in its table and skips the root actions already proven, so
//!   a crash loses at most the work since the last save.
//! * **When.** Every `every` (a thread of its own reads the shared table while the search runs:
//!   the table's check word turns away an entry torn by a writer, and an entry is kept only in
//!   the slot its key chooses), and once more when the search ends, solved or stopped by a
//!   budget or Ctrl-C.
//! * **How.** To `solve.ckpt.tmp` beside the file, synced, then renamed over `solve.ckpt`: a
//!   crash during a save leaves the previous save whole.
//! * **The file.** `SFSOLVE\0`, the format version (u32), the identity (a u32 length and
//!   `key: value` lines of UTF-8: format, solver version, game, rules version, key version,
//!   options, position, mode), the root's actions and outcomes (a u32 count, then per action a u32
//!   action and an i32 outcome, `i32::MIN` where unproven), the table's entries (16 bytes each:
//!   key and packed entry), then a trailer: the entry count (u64) and an FNV-1a checksum (u64)
//!   of everything before it; all little-endian. A file is checked whole (length, count,
//!   checksum, identity) before anything is loaded, so a truncated or altered file is refused
//!   and never partly loaded.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::time::Duration;

use super::table::Table;
use crate::error::{Error, Result};

/// The file's magic bytes.
const MAGIC: &[u8; 8] = b"SFSOLVE\0";
/// The format's version. The entries are the table's own packing (`super::table`'s `Entry`):
/// a change of that packing must raise this version, so older files are refused. Version 2
/// packs the work an entry cost in its top bits.
pub const FORMAT_VERSION: u32 = 2;
/// The checkpoint's name inside its directory.
pub const FILE_NAME: &str = "solve.ckpt";
/// A root outcome not proven.
const UNPROVEN: i32 = i32::MIN;
/// The longest identity a file may declare (a guard against a crafted length).
const MAX_IDENTITY: u32 = 1 << 20;

/// Where and how often a solve saves, and what it is a solve of.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The directory holding `solve.ckpt` (made if missing).
    pub dir: PathBuf,
    /// Time between saves while the search runs (more than zero).
    pub every: Duration,
    /// What the run is: `(name, value)` pairs (game, options, position, solver version...); a
    /// saved run is resumed only when every pair is the same.
    pub identity: Vec<(String, String)>,
}

/// A saved run's root: `(action, outcome)` per root action, `None` where not proven.
pub type Outcomes = Vec<(u32, Option<i32>)>;

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A writer that hashes what it writes.
struct Hashing<W: Write> {
    inner: W,
    hash: Fnv,
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.inner.write_all(bytes)
    }
}

impl Checkpoint {
    /// The checkpoint file.
    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    fn identity_text(&self) -> String {
        self.identity
            .iter()
            .map(|(k, v)| format!("{k}: {v}\n"))
            .collect()
    }

    /// Makes the directory if missing and checks that a file can be written there, so a bad
    /// directory is an error before the search starts, not after hours of it.
    pub fn prepare(&self) -> Result<()> {
        let fail = |e: std::io::Error| {
            Error::InvalidOption(format!(
                "solve: checkpoint directory {} cannot be written ({e})",
                self.dir.display()
            ))
        };
        if self.every.is_zero() {
            return Err(Error::InvalidOption(
                "solve: the time between checkpoint saves must be more than 0 seconds".into(),
            ));
        }
        fs::create_dir_all(&self.dir).map_err(fail)?;
        let probe = self.dir.join(".solve.ckpt.probe");
        fs::write(&probe, b"").map_err(fail)?;
        fs::remove_file(&probe).map_err(fail)
    }

    /// Saves the root's outcomes and every entry of `table`: to a temporary file, synced, then
    /// renamed over the checkpoint. Returns the entries written.
    pub fn save(&self, outcomes: &[(u32, Option<i32>)], table: &Table<'_>) -> Result<u64> {
        let path = self.path();
        let tmp = self.dir.join(format!("{FILE_NAME}.tmp"));
        let fail = |e: std::io::Error| {
            Error::InvalidOption(format!(
                "solve: the checkpoint {} cannot be written ({e}); the last save stays",
                path.display()
            ))
        };
        let file = File::create(&tmp).map_err(fail)?;
        let mut w = Hashing {
            inner: BufWriter::with_capacity(1 << 20, file),
            hash: Fnv::new(),
        };
        let identity = self.identity_text();
        let mut count = 0u64;
        (|| -> std::io::Result<()> {
            w.put(MAGIC)?;
            w.put(&FORMAT_VERSION.to_le_bytes())?;
            w.put(&(identity.len() as u32).to_le_bytes())?;
            w.put(identity.as_bytes())?;
            w.put(&(outcomes.len() as u32).to_le_bytes())?;
            for &(a, o) in outcomes {
                w.put(&a.to_le_bytes())?;
                w.put(&o.unwrap_or(UNPROVEN).to_le_bytes())?;
            }
            let mut err = None;
            table.each_entry(|key, data| {
                if err.is_none() {
                    let mut rec = [0u8; 16];
                    rec[..8].copy_from_slice(&key.to_le_bytes());
                    rec[8..].copy_from_slice(&data.to_le_bytes());
                    match w.put(&rec) {
                        Ok(()) => count += 1,
                        Err(e) => err = Some(e),
                    }
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
            w.put(&count.to_le_bytes())?;
            let sum = w.hash.0;
            w.inner.write_all(&sum.to_le_bytes())?;
            let file = w.inner.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()
        })()
        .map_err(fail)?;
        fs::rename(&tmp, &path).map_err(fail)?;
        Ok(count)
    }

    /// Loads the run saved in the directory, if any, into `table` (which may be of another
    /// size than the saver's) and returns its root outcomes: `None` when there is no
    /// checkpoint file; an error when the file is damaged (`Record`) or holds another run
    /// (`InvalidOption`, naming what differs). The file is read twice: whole, for its length
    /// and checksum, before anything is stored; then its contents, each checked as it is
    /// stored (an error then, which only a crafted file that keeps its checksum can cause,
    /// leaves `table` partly filled: the caller drops it).
    pub fn load(&self, table: &Table<'_>) -> Result<Option<Outcomes>> {
        let path = self.path();
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(Error::Record(format!(
                    "solve: the checkpoint {} cannot be read ({e})",
                    path.display()
                )))
            }
        };
        let damaged = |why: &str| {
            Error::Record(format!(
                "solve: the checkpoint {} is damaged ({why}); nothing was loaded. Remove it to \
                 start afresh",
                path.display()
            ))
        };
        let io = |e: std::io::Error| damaged(&e.to_string());
        let len = file.metadata().map_err(io)?.len();
        // The checksum first, over the whole file but its last 8 bytes.
        if len < 8 + 4 + 4 + 4 + 16 {
            return Err(damaged("too short"));
        }
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut hash = Fnv::new();
        let mut left = len - 8;
        let mut buf = vec![0u8; 1 << 20];
        while left > 0 {
            let n = (left as usize).min(buf.len());
            r.read_exact(&mut buf[..n]).map_err(io)?;
            hash.update(&buf[..n]);
            left -= n as u64;
        }
        let mut sum = [0u8; 8];
        r.read_exact(&mut sum).map_err(io)?;
        if u64::from_le_bytes(sum) != hash.0 {
            return Err(damaged("its checksum does not match: truncated or altered"));
        }
        // Then the contents, checked as they are parsed; nothing is loaded before the end.
        let file = File::open(&path).map_err(io)?;
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).map_err(io)?;
        if &magic != MAGIC {
            return Err(damaged("not a stonefield solve checkpoint"));
        }
        let u32_of = |r: &mut BufReader<File>| -> Result<u32> {
            let mut b = [0u8; 4];
            r.read_exact(&mut b).map_err(io)?;
            Ok(u32::from_le_bytes(b))
        };
        let version = u32_of(&mut r)?;
        if version != FORMAT_VERSION {
            return Err(Error::InvalidOption(format!(
                "solve: the checkpoint {} has format version {version}; this solver reads \
                 version {FORMAT_VERSION}. Remove it to start afresh",
                path.display()
            )));
        }
        let id_len = u32_of(&mut r)?;
        if id_len > MAX_IDENTITY || u64::from(id_len) > len {
            return Err(damaged("its header is too long"));
        }
        let mut id = vec![0u8; id_len as usize];
        r.read_exact(&mut id).map_err(io)?;
        let id = String::from_utf8(id).map_err(|_| damaged("its header is not UTF-8"))?;
        self.same_run(&id)?;
        let n = u32_of(&mut r)?;
        let head = 8 + 4 + 4 + u64::from(id_len) + 4 + 8 * u64::from(n);
        if head + 16 > len || (len - head - 16) % 16 != 0 {
            return Err(damaged("its length does not fit its contents"));
        }
        let mut outcomes = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let a = u32_of(&mut r)?;
            let o = u32_of(&mut r)? as i32;
            if o != UNPROVEN && !(-30_000..=30_000).contains(&o) {
                return Err(damaged("a root outcome out of range"));
            }
            outcomes.push((a, (o != UNPROVEN).then_some(o)));
        }
        let count = (len - head - 16) / 16;
        // The count in the trailer first, then the entries.
        let mut tail = File::open(&path).map_err(io)?;
        std::io::Seek::seek(&mut tail, std::io::SeekFrom::Start(len - 16)).map_err(io)?;
        let mut c = [0u8; 8];
        tail.read_exact(&mut c).map_err(io)?;
        if u64::from_le_bytes(c) != count {
            return Err(damaged("its entry count does not match"));
        }
        if count > 0 {
            table.grow_to_capacity();
        }
        let mut rec = [0u8; 16];
        for _ in 0..count {
            r.read_exact(&mut rec).map_err(io)?;
            let key = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes"));
            let data = u64::from_le_bytes(rec[8..].try_into().expect("8 bytes"));
            if !Table::valid_data(data) {
                return Err(damaged("a table entry that is not one"));
            }
            table.store_raw(key, data);
        }
        Ok(Some(outcomes))
    }

    /// Refuses a saved identity that is not this run's, naming what differs.
    fn same_run(&self, saved: &str) -> Result<()> {
        let theirs: Vec<(&str, &str)> = saved.lines().filter_map(|l| l.split_once(": ")).collect();
        let mut differs = Vec::new();
        for (k, v) in &self.identity {
            match theirs.iter().find(|(tk, _)| tk == k) {
                Some((_, tv)) if tv == v => {}
                Some((_, tv)) => differs.push(format!("{k} is {tv:?} there, {v:?} here")),
                None => differs.push(format!("{k} is missing there ({v:?} here)")),
            }
        }
        if differs.is_empty() {
            return Ok(());
        }
        Err(Error::InvalidOption(format!(
            "solve: the checkpoint in {} is of another run ({}); resume it with the same game, \
             options, position and solver, or give another directory",
            self.dir.display(),
            differs.join("; ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::table::{Bound, Entry, TableMemory};
    use std::path::Path;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sf-ckpt-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn ck(dir: &Path, game: &str) -> Checkpoint {
        Checkpoint {
            dir: dir.to_path_buf(),
            every: Duration::from_secs(60),
            identity: vec![
                ("game".into(), game.into()),
                ("position".into(), "key=1".into()),
            ],
        }
    }

    #[test]
    fn a_save_loads_back_whole_and_damage_or_another_run_is_refused() {
        let dir = tmpdir("roundtrip");
        let c = ck(&dir, "subsume");
        c.prepare().expect("dir");
        let mut memory = TableMemory::new(1 << 16).expect("memory");
        let t = memory.table();
        assert_eq!(c.load(&t).expect("nothing yet"), None);
        let e = Entry {
            value: 1,
            bound: Bound::Exact,
            cap_free: true,
            moves: 9,
            best: 3,
            work: 4,
        };
        t.store(0xABCD_0000_0000_0007, e);
        t.store(0x1234_0000_0000_0100, Entry { value: -1, ..e });
        let outcomes = vec![(0, Some(1)), (4, None)];
        assert_eq!(c.save(&outcomes, &t).expect("saved"), 2);
        let mut other = TableMemory::new(1 << 20).expect("memory");
        let t2 = other.table();
        let saved = c.load(&t2).expect("read").expect("a run");
        assert_eq!(saved, outcomes);
        assert_eq!(t2.probe(0xABCD_0000_0000_0007), Some(e));
        assert_eq!(t2.filled(), 2);
        // Another game: refused, naming what differs.
        let mut fresh = TableMemory::new(1 << 16).expect("memory");
        let t3 = fresh.table();
        let err = ck(&dir, "smallholder").load(&t3).expect_err("another run");
        assert!(matches!(err, Error::InvalidOption(_)), "{err}");
        assert!(
            err.to_string().contains("game is \"subsume\" there"),
            "{err}"
        );
        // One flipped byte, then a truncation: damaged, nothing loaded.
        let path = c.path();
        let mut bytes = fs::read(&path).expect("file");
        let mid = bytes.len() - 20;
        bytes[mid] ^= 1;
        fs::write(&path, &bytes).expect("write");
        let err = c.load(&t3).expect_err("altered");
        assert!(matches!(err, Error::Record(_)) && err.to_string().contains("checksum"));
        bytes[mid] ^= 1;
        fs::write(&path, &bytes[..bytes.len() - 5]).expect("write");
        assert!(matches!(c.load(&t3), Err(Error::Record(_))));
        // Nothing of a refused file was stored.
        assert_eq!(t3.filled(), 0);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_zero_interval_is_refused() {
        let c = Checkpoint {
            every: Duration::ZERO,
            ..ck(&tmpdir("zero"), "subsume")
        };
        let err = c.prepare().expect_err("zero");
        assert!(err.to_string().contains("more than 0 seconds"), "{err}");
    }
}
