//! Golden position keys: the key of a few fixed positions of every game, pinned like the
//! playthroughs. Keys change only with `zobrist::KEY_VERSION` (see `src/games/zobrist.rs` for
//! the rule); a failure here means a key changed: if that is meant, raise the version and
//! update the values below in the same commit.

use stonefield::games::zobrist::KEY_VERSION;
use stonefield::games::OptionValue;
use stonefield::{Game, Rules};

fn key_after(game: &str, options: &[(&str, OptionValue)], actions: &[u32]) -> u64 {
    let options: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let mut s = Game::make(game, &options).expect("valid").new_state();
    for &a in actions {
        s.apply(i64::from(a))
            .unwrap_or_else(|e| panic!("{game} {a}: {e}"));
    }
    s.key()
}

#[test]
fn keys_of_fixed_positions_never_change() {
    assert_eq!(KEY_VERSION, 1);
    let three: &[(&str, OptionValue)] = &[("size", 3i64.into())];
    let lp: &[(&str, OptionValue)] = &[
        ("size", 3i64.into()),
        ("players", 3i64.into()),
        ("last_placer_breaks_ties", true.into()),
    ];
    let hex3: &[(&str, OptionValue)] = &[("board", "hex3".into())];
    let order3: &[(&str, OptionValue)] = &[("order", 3i64.into())];
    let sub3: &[(&str, OptionValue)] = &[("size", 3i64.into())];
    let got = [
        key_after("windflowers", three, &[]),
        key_after("windflowers", three, &[0, 5, 14, 7]),
        key_after("windflowers", lp, &[0, 5, 14, 7, 14]),
        key_after("smallholder", hex3, &[]),
        key_after("smallholder", hex3, &[0, 18, 9]),
        key_after("faraday", order3, &[]),
        key_after("faraday", order3, &[0, 12, 26]),
        key_after("faraday", order3, &[0, 12, 26, 39, 4]),
        key_after("subsume", sub3, &[]),
        key_after("subsume", sub3, &[9, 0, 18]),
    ];
    // The empty boards of games whose turn number starts at 0 share the value turn(0).
    let want: [u64; 10] = [
        0xc020_e532_159e_92b3,
        0x9b50_d993_8187_6074,
        0xf72e_12d1_c605_ea09,
        0xc020_e532_159e_92b3,
        0x71a7_ce3c_3f7a_a2a1,
        0x0dfd_4bb8_f44b_4413,
        0x5f98_4a1a_ad48_6a75,
        0xa382_387d_5f6d_0128,
        0xc020_e532_159e_92b3,
        0x95d5_80bf_112a_fee6,
    ];
    assert_eq!(got, want);
}
