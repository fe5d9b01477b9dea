//! Depth-first proof-number search (df-pn, Nagai 2002): the second way to the exact value of a
//! two-player position, beside alpha-beta ([`super::alphabeta`]), for the root's actions one at
//! a time.
//!
//! * **What it proves.** One question at a time: does the *attacker* (the root's mover) reach an
//!   outcome of at least `target` (+1: a win; 0: at least a draw) from a position? A position's
//!   value for the attacker is then +1 if "at least +1" is proven, 0 if that is disproven and
//!   "at least 0" proven, −1 if both are disproven: one or two proofs, each a tree search that
//!   grows where the proof looks cheapest (the most-proving node) rather than in a fixed order.
//!   Positions where the attacker moves are OR nodes, the others AND nodes; a child with the
//!   same mover (Faraday's runs, skipped turns) keeps its kind.
//! * **Outcomes** are those of the game's `returns()`, so a truncation by the move cap is a
//!   draw, as for alpha-beta. There is no margin mode: a proof answers a yes-or-no question.
//! * **The table** holds, per position, its proof and disproof numbers (16 bytes with the key,
//!   in buckets of two; a proven or disproven entry is kept in preference to an open one). Its key
//!   is the position key (the smallest of its images' under the board's symmetries, as for
//!   alpha-beta), mixed with the move count, the attacker and the target. With the move count
//!   in the key every line visits positions of strictly rising counts, so the searched graph
//!   has no cycle (no graph-history interaction) and a capped position is never confused with
//!   the same board with more moves left. The full 64-bit key is compared on every probe.
//! * **Soundness.** A number 0 is only ever set from a finished game, from children that are all
//!   0 (or one of them, at the node of the side it favours), or from the table; a budget that
//!   stops the search leaves every open question open. The children's numbers are kept with the
//!   position while it is searched and refreshed from the table only when it is first expanded,
//!   so a table entry lost to replacement costs work, never a wrong answer. The numbers are
//!   32-bit: an open sum stops just below "infinite", so only a settled child settles its
//!   parent; a search whose sums reach that ceiling (transpositions count a subtree once per
//!   path) stops making progress and ends by its budget or Ctrl-C with those actions unproven,
//!   never with a wrong value.

use super::common::{outcome, Budget, Exact, Symmetry};
use crate::error::{Error, Result};
use crate::games::zobrist::mix64;
use crate::games::{Knowledge, Rules};

/// Proof and disproof numbers saturate here ("infinite": proven or disproven).
const INF: u32 = u32::MAX / 2;

/// One stored position: its key and numbers; `key == 0` marks an empty slot (a real key of 0
/// is stored as 1, which only costs a rare false miss).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    pn: u32,
    dn: u32,
}

impl Slot {
    fn settled(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// The proof table: a power-of-two array of slots, read in buckets of two.
struct ProofTable {
    slots: Vec<Slot>,
    filled: usize,
}

impl ProofTable {
    /// Room for the largest power of two of slots that fits in `bytes` (at least 1024); an
    /// error, not an abort, when the memory cannot be had.
    fn new(bytes: usize) -> Result<ProofTable> {
        let want = (bytes / std::mem::size_of::<Slot>()).max(1 << 10);
        let len = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).map_err(|_| {
            Error::InvalidOption(format!(
                "solve: a proof-number table of {} MiB cannot be had here; ask for a smaller \
                 table",
                (len * std::mem::size_of::<Slot>()) >> 20
            ))
        })?;
        slots.resize(len, Slot::default());
        Ok(ProofTable { slots, filled: 0 })
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 2)
    }

    fn probe(&self, key: u64) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s.key == key)
            .map(|s| (s.pn, s.dn))
    }

    fn store(&mut self, key: u64, pn: u32, dn: u32) {
        let b = self.bucket(key);
        let new = Slot { key, pn, dn };
        let pair = &mut self.slots[b..b + 2];
        // The same position, an empty slot, an open entry (the second first), then the second.
        let i = if let Some(i) = pair.iter().position(|s| s.key == key) {
            i
        } else if let Some(i) = pair.iter().position(|s| s.key == 0) {
            self.filled += 1;
            i
        } else if !pair[1].settled() || new.settled() {
            1
        } else if !pair[0].settled() {
            0
        } else {
            return;
        };
        pair[i] = new;
    }

    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }
}

/// A child of the position being searched: its action, table key (0 for a finished game) and
/// numbers.
#[derive(Clone, Copy)]
struct Kid {
    action: u32,
    key: u64,
    pn: u32,
    dn: u32,
}

/// One thread's prover, with its own table.
pub(super) struct Prover<'a, R: Rules> {
    table: ProofTable,
    budget: &'a Budget<'a>,
    symmetry: Option<&'a Symmetry>,
    attacker: usize,
    target: i32,
    /// Child lists and child positions, one per ply (kept, so a node allocates nothing).
    kids: Vec<Vec<Kid>>,
    nodes: Vec<Option<R>>,
    actions: Vec<Vec<u32>>,
    /// The ordering's keys (the position being expanded only).
    order: Vec<u64>,
    pending: u64,
}

impl<'a, R: Knowledge> Prover<'a, R> {
    pub(super) fn new(
        table_bytes: usize,
        budget: &'a Budget<'a>,
        symmetry: Option<&'a Symmetry>,
    ) -> Result<Self> {
        Ok(Prover {
            table: ProofTable::new(table_bytes)?,
            budget,
            symmetry,
            attacker: 0,
            target: 1,
            kids: Vec::new(),
            nodes: Vec::new(),
            actions: Vec::new(),
            order: Vec::new(),
            pending: 0,
        })
    }

    pub(super) fn table_entries(&self) -> usize {
        self.table.filled
    }

    pub(super) fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    pub(super) fn flush(&mut self) {
        let n = std::mem::take(&mut self.pending);
        self.budget.charge(n);
    }

    /// The value of `child` (not necessarily running) for `mover`: +1, 0 or −1, or `None` once
    /// the budget stopped the search.
    pub(super) fn exact(&mut self, child: &R, mover: usize) -> Option<i32> {
        if child.current_player().is_none() {
            return Some(outcome(child, mover));
        }
        self.attacker = mover;
        if self.prove(child, 1)? {
            return Some(1);
        }
        Some(if self.prove(child, 0)? { 0 } else { -1 })
    }

    /// Whether the attacker reaches at least `target` from the running position `s`.
    fn prove(&mut self, s: &R, target: i32) -> Option<bool> {
        self.target = target;
        let (pn, dn) = self.mid(s, self.key(s), INF, INF, 0)?;
        debug_assert!(pn == 0 || dn == 0, "a root searched to INF is settled");
        Some(pn == 0)
    }

    /// The table key of a running position for the current question.
    fn key(&self, s: &R) -> u64 {
        let base = match self.symmetry {
            Some(y) => y.canonical(s.cells(), s.key()).0,
            None => s.key(),
        };
        let extra =
            (s.move_count() as u64) << 8 | (self.attacker as u64) << 2 | (self.target + 1) as u64;
        (base ^ mix64(extra.wrapping_add(0x9E37_79B9_7F4A_7C15))).max(1)
    }

    /// The numbers of a finished game for the current question.
    fn finished(&self, s: &R) -> (u32, u32) {
        if outcome(s, self.attacker) >= self.target {
            (0, INF)
        } else {
            (INF, 0)
        }
    }

    /// Searches the running position `s` (table key `key`, made by its parent) until its
    /// proof number reaches `th_pn` or its disproof number `th_dn` (one of them 0 when it is
    /// settled), and returns both; `None` once the budget stopped the search.
    fn mid(&mut self, s: &R, key: u64, th_pn: u32, th_dn: u32, ply: usize) -> Option<(u32, u32)> {
        self.pending += 1;
        if self.budget.due(self.pending) {
            let n = std::mem::take(&mut self.pending);
            if !self.budget.charge(n) {
                return None;
            }
        }
        let or = s.current_player() == Some(self.attacker);
        if self.kids.len() <= ply {
            self.kids.resize_with(ply + 1, Vec::new);
            self.nodes.resize_with(ply + 1, || None);
            self.actions.resize_with(ply + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.kids[ply]);
        let mut child = self.nodes[ply].take().unwrap_or_else(|| s.clone());
        let mut actions = std::mem::take(&mut self.actions[ply]);
        kids.clear();
        s.legal_actions_into(&mut actions);
        // The game's own knowledge first (of children with equal numbers the first is
        // taken), then the lower action: each action's score made once, sorted in one key.
        self.order.clear();
        self.order.extend(
            actions.iter().map(|&a| {
                u64::from(255 - s.playout_score(a as usize).min(255)) << 32 | u64::from(a)
            }),
        );
        self.order.sort_unstable();
        for (a, k) in actions.iter_mut().zip(&self.order) {
            *a = *k as u32;
        }
        for &a in &actions {
            child.clone_from(s);
            child.apply_unchecked(a as usize);
            let kid = if child.current_player().is_none() {
                let (pn, dn) = self.finished(&child);
                Kid {
                    action: a,
                    key: 0,
                    pn,
                    dn,
                }
            } else {
                let key = self.key(&child);
                let (pn, dn) = self.table.probe(key).unwrap_or((1, 1));
                Kid {
                    action: a,
                    key,
                    pn,
                    dn,
                }
            };
            kids.push(kid);
        }
        let result = loop {
            let (pn, dn) = combine(&kids, or);
            if pn >= th_pn || dn >= th_dn {
                break Some((pn, dn));
            }
            // The most-proving child, and the threshold that sends the search back up as soon
            // as another child would be the better one.
            let (i, second) = select(&kids, or);
            let k = kids[i];
            let (c_pn, c_dn) = if or {
                (th_pn.min(second.saturating_add(1)), sub(th_dn, dn, k.dn))
            } else {
                (sub(th_pn, pn, k.pn), th_dn.min(second.saturating_add(1)))
            };
            child.clone_from(s);
            child.apply_unchecked(k.action as usize);
            match self.mid(&child, k.key, c_pn, c_dn, ply + 1) {
                Some((pn, dn)) => {
                    kids[i].pn = pn;
                    kids[i].dn = dn;
                }
                None => break None,
            }
        };
        self.kids[ply] = kids;
        self.nodes[ply] = Some(child);
        self.actions[ply] = actions;
        let (pn, dn) = result?;
        self.table.store(key, pn, dn);
        Some((pn, dn))
    }
}

impl<R: Knowledge> Exact<R> for Prover<'_, R> {
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32> {
        Prover::exact(self, child, mover)
    }
    fn flush(&mut self) {
        Prover::flush(self)
    }
}

/// A position's numbers from its children's: at an OR node the smallest proof number and the
/// sum of the disproof numbers; at an AND node the other way round.
fn combine(kids: &[Kid], or: bool) -> (u32, u32) {
    let (mut least, mut sum) = (INF, 0u32);
    for k in kids {
        let (a, b) = if or { (k.pn, k.dn) } else { (k.dn, k.pn) };
        least = least.min(a);
        // Only a settled child makes the sum infinite: an open one's, however large, stays
        // below (a root searched to `INF` stops only when it is settled).
        sum = if b == INF || sum == INF {
            INF
        } else {
            sum.saturating_add(b).min(INF - 1)
        };
    }
    if or {
        (least, sum)
    } else {
        (sum, least)
    }
}

/// The child to search (the smallest proof number at an OR node, disproof number at an AND
/// node; the first of equals) and the second smallest such number.
fn select(kids: &[Kid], or: bool) -> (usize, u32) {
    let num = |k: &Kid| if or { k.pn } else { k.dn };
    let (mut best, mut first, mut second) = (0, INF, INF);
    for (i, k) in kids.iter().enumerate() {
        let n = num(k);
        if n < first {
            second = first;
            first = n;
            best = i;
        } else if n < second {
            second = n;
        }
    }
    (best, second)
}

/// The child's threshold on the summed number: the parent's threshold less the other
/// children's share of the sum (`sum − own`).
fn sub(threshold: u32, sum: u32, own: u32) -> u32 {
    let others = sum.saturating_sub(own);
    threshold.saturating_sub(others).min(INF)
}
