//! The position key: one 64-bit Zobrist hash per position, the same for every game.
//!
//! A key is the XOR of two parts:
//! * the **board part**, kept incrementally by each game as stones come and go: the XOR over
//!   every occupied site s of [`stone`]`(s, k)` for the stone of player k standing there
//!   ([`Zobrist::stone`]); an empty board is 0;
//! * the **turn part**, [`turn`]`(i)`, where i is a small number each game derives from
//!   everything else that decides the legal moves and the outcome (the player to move,
//!   Windflowers' passes, Faraday's phase, …; each game's `key` documents its i).
//!
//! [`turn`] is a bijection of `u64` (splitmix64's finaliser of a fixed offset), so two positions
//! with the same board have equal keys exactly when their turn numbers are equal: comparing
//! boards and keys compares positions exactly, with no collision possible. Positions with
//! different boards may still collide (odds about 2⁻⁶⁴ a pair); whoever needs exactness checks
//! the board too.
//!
//! The move count is not part of the key: two positions reached after different numbers of
//! actions have the same key. Whether a game is truncated by its move cap therefore depends on
//! more than the key, and a tool that honours `max_moves` in a table of positions keys it by
//! the key and the moves left.
//!
//! # Stability
//! Keys are part of the published behaviour (a stored table or record may carry them), so they
//! are pinned by golden values in the tests. The stone table comes from splitmix64 seeded with
//! [`SEED`]: entry 4 s + k is the (4 s + k + 1)-th output, whatever the board, so the first sites
//! of every board share their values. Keys may change only together with [`KEY_VERSION`]: when a
//! game's state gains something that decides its moves or outcome (a new option with state of
//! its own), or when a game's turn numbering changes. A refactor or a speed-up never changes them.

/// The version of the key's definition; bumped with any change of a key value (see the module
/// docs).
pub const KEY_VERSION: u32 = 1;

/// The seed of the stone table ("STONEFLD" in ASCII).
pub const SEED: u64 = 0x5354_4F4E_4546_4C44;

/// Values per site in the stone table: one for each of up to four players.
pub const STRIDE: usize = 4;

/// The offset of the turn part: any fixed odd constant keeps [`turn`] a bijection.
const TURN_OFFSET: u64 = 0x7475_726E_2D6B_6579;

/// A 64-bit finaliser (splitmix64's): a bijection in which every input bit affects every output
/// bit.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The value of stone table entry `index` (site · [`STRIDE`] + player): the (index + 1)-th output
/// of splitmix64 from [`SEED`].
#[inline]
pub fn stone(site: usize, player: usize) -> u64 {
    let index = (site * STRIDE + player) as u64;
    mix64(SEED.wrapping_add((index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

/// The turn part of a key for turn number `i`. Distinct numbers give distinct values.
#[inline]
pub fn turn(i: u64) -> u64 {
    mix64(i.wrapping_add(TURN_OFFSET))
}

/// The inverse of [`mix64`].
pub fn unmix64(mut z: u64) -> u64 {
    // Each step undoes one of mix64's, last first: x ^= x >> k is undone by repeating the
    // shift until it runs out; a multiplication by an odd constant by its inverse mod 2⁶⁴.
    z ^= z >> 31 ^ z >> 62;
    z = z.wrapping_mul(0x3196_42B2_D24D_8EC3);
    z ^= z >> 27 ^ z >> 54;
    z = z.wrapping_mul(0x96DE_1B17_3F11_9089);
    z ^ z >> 30 ^ z >> 60
}

/// The turn number of a key whose board part is `board`: the inverse of [`turn`].
pub fn turn_number(key: u64, board: u64) -> u64 {
    unmix64(key ^ board).wrapping_sub(TURN_OFFSET)
}

/// The stone table of one board, shared by its positions: `STRIDE` values per site.
#[derive(Clone, Debug)]
pub struct Zobrist {
    table: Vec<u64>,
}

impl Zobrist {
    /// The table for a board of `sites` sites.
    pub fn new(sites: usize) -> Zobrist {
        let table = (0..sites)
            .flat_map(|s| (0..STRIDE).map(move |k| stone(s, k)))
            .collect();
        Zobrist { table }
    }

    /// The value of a stone of `player` on `site`.
    #[inline(always)]
    pub fn stone(&self, site: usize, player: usize) -> u64 {
        self.table[site * STRIDE + player]
    }

    /// The board part of a key from a board array (0 empty, k a stone of player k − 1).
    pub fn board(&self, cells: &[i8]) -> u64 {
        cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .fold(0, |h, (s, &c)| h ^ self.stone(s, c as usize - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_the_documented_stream() {
        // splitmix64 from SEED: state += golden ratio, then the finaliser.
        let mut state = SEED;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            mix64(state)
        };
        let z = Zobrist::new(3);
        for s in 0..3 {
            for k in 0..STRIDE {
                assert_eq!(z.stone(s, k), next());
            }
        }
        // Golden values: these never change without a KEY_VERSION bump.
        assert_eq!(KEY_VERSION, 1);
        assert_eq!(stone(0, 0), 0x419e_9771_ee31_3318);
        assert_eq!(stone(13, 3), 0x538a_d877_dee4_0f03);
        assert_eq!(turn(0), 0xc020_e532_159e_92b3);
        assert_eq!(turn(19), 0xc672_0799_30e4_9ee5);
    }

    #[test]
    fn turn_numbers_come_back() {
        for i in [0u64, 1, 19, 12345, u64::MAX] {
            assert_eq!(unmix64(mix64(i)), i);
            assert_eq!(turn_number(turn(i) ^ 77, 77), i);
        }
    }

    #[test]
    fn turn_numbers_never_collide() {
        let mut seen = std::collections::HashSet::new();
        assert!((0..100_000u64).all(|i| seen.insert(turn(i))));
    }

    #[test]
    fn the_board_part_is_an_xor_of_stones() {
        let z = Zobrist::new(5);
        let cells = [0, 1, 0, 2, 1];
        assert_eq!(
            z.board(&cells),
            z.stone(1, 0) ^ z.stone(3, 1) ^ z.stone(4, 0)
        );
        assert_eq!(z.board(&[0; 5]), 0);
    }
}
