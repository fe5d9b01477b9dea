use super::*;
use crate::games::{OptionValue, Rules, State};
use crate::rng::Rng;

fn windflowers(extra: &[(&str, OptionValue)]) -> Game {
    let mut opts = vec![
        ("grid".to_string(), OptionValue::Str("square".into())),
        ("size".to_string(), OptionValue::Int(3)),
    ];
    opts.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    Game::make("windflowers", &opts).unwrap()
}

#[test]
fn columns_lie_where_their_layout_says() {
    let g = windflowers(&[]);
    let games: Vec<Vec<u32>> = vec![vec![16, 16], vec![0, 16, 16], vec![0, 1, 16, 16]];
    let stats: Vec<GameStats> = games
        .iter()
        .map(|a| game_stats(&g, a, None).unwrap())
        .collect();
    let mut cols = Columns::zeroed(2, &[], 3);
    // Rows written in two parts land in order.
    let (mut first, mut rest) = cols.rows_mut().split_at(1);
    first.set_all(&stats[..1]);
    rest.set_all(&stats[1..]);
    let layout = cols.layout();
    for group in ["whole", "floats", "flags", "signs"] {
        // Each group's columns tile it exactly.
        let places: Vec<_> = layout.iter().filter(|p| p.group == group).collect();
        assert_eq!(places[0].start, 0);
        for w in places.windows(2) {
            assert_eq!(w[0].end, w[1].start);
        }
        let len = match group {
            "whole" => cols.whole.len(),
            "floats" => cols.floats.len(),
            "flags" => cols.flags.len(),
            _ => cols.signs.len(),
        };
        assert_eq!(places.last().unwrap().end, len, "{group}");
    }
    let place = |name: &str| *layout.iter().find(|p| p.name == name).unwrap();
    let p = place("length");
    assert_eq!(cols.whole[p.start..p.end], [2, 3, 4]);
    let p = place("branching_bins");
    assert_eq!(p.width, BINS);
    assert_eq!(cols.whole[p.start..p.start + BINS], stats[0].branching_bins);
    let p = place("returns");
    assert_eq!(cols.floats[p.start..p.end], [0.0, 0.0, 1.0, -1.0, 0.0, 0.0]);
    let p = place("top_tied");
    // 0–0 and 1–1 tie for first; 1–0 does not.
    assert_eq!(cols.flags[p.start..p.end], [true, false, true]);
    let p = place("pie");
    assert_eq!(cols.signs[p.start..p.end], [-1, -1, -1]);
    // Windflowers declares no columns; the schema lists the lab's in storage order.
    assert!(cols.game.is_empty() && layout.iter().all(|p| p.group != "game"));
    let names: Vec<_> = schema(2, &[]).iter().map(|c| c.name).collect();
    let stored: Vec<_> = layout.iter().map(|p| p.name).collect();
    assert_eq!(names, stored);
}

/// The columns a game declares (Subsume's final-shape facts) are stored after the lab's, one
/// per declared name, filled from each game's last position, and summed like the others.
#[test]
fn declared_columns_follow_the_game() {
    let g = Game::make("subsume", &[("size".into(), OptionValue::Int(3))]).unwrap();
    let start = g.new_state();
    let declared = Measure::final_columns(&start);
    assert_eq!(
        declared.iter().map(|c| c.name).collect::<Vec<_>>(),
        [
            "groups_final",
            "groups_final_0",
            "groups_final_1",
            "largest_group_share",
            "largest_group_share_0",
            "largest_group_share_1"
        ]
    );
    let mut cols = Columns::zeroed(2, declared, 5);
    let mut rng = Rng::new(3);
    let mut stats = Vec::new();
    let mut series = Vec::new();
    let mut ends = Vec::new();
    for _ in 0..5 {
        let mut s = start.clone();
        let mut acts = Vec::new();
        while s.current_player().is_some() {
            let a = s.random_action(&mut rng, &mut Vec::new()).unwrap();
            s.apply_unchecked(a);
            acts.push(a as u32);
        }
        let mut scratch = Scratch::default();
        stats.push(
            replay_stats(&start, &acts, None, &Evaluator::new(&start), &mut scratch).unwrap(),
        );
        series.push(scratch.series().to_vec());
        ends.push(s);
    }
    let (mut first, mut rest) = cols.rows_mut().split_at(2);
    first.set_all(&stats[..2]);
    first.set_series(&series[..2].concat());
    rest.set_all(&stats[2..]);
    rest.set_series(&series[2..].concat());
    let layout = cols.layout();
    let schema = schema(2, declared);
    assert_eq!(schema.len(), layout.len());
    for (j, c) in declared.iter().enumerate() {
        let p = layout.iter().find(|p| p.name == c.name).unwrap();
        assert_eq!((p.group, p.width), ("game", 1));
        let mut want = Vec::new();
        for end in &ends {
            let mut out = [0.0; 6];
            end.final_facts(&mut out);
            want.push(out[j]);
        }
        // Compared bit for bit (a colour without stones in play gives NaN).
        let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&cols.game[p.start..p.end]), bits(&want), "{}", c.name);
        assert!(schema.iter().any(|s| s.name == c.name && s.declared));
    }
    // Each series after the columns: width 10, game g's row its tenths in order.
    for (j, c) in declared.iter().enumerate() {
        let name = format!("{}_series", c.name);
        let p = layout.iter().find(|p| p.name == name).unwrap();
        assert_eq!(
            (p.group, p.width, p.end - p.start),
            ("game", BINS, 5 * BINS)
        );
        for (g, row) in cols.game[p.start..p.end].chunks_exact(BINS).enumerate() {
            assert_eq!(row, &series[g][j * BINS..(j + 1) * BINS], "{name}");
            // The last tenth ends the game: the final column.
            assert_eq!(row[BINS - 1].to_bits(), stats[g].game[j].to_bits());
        }
        let info = schema.iter().find(|s| s.name == name).unwrap();
        assert!(info.declared && info.width == BINS && info.dtype == "float64");
        assert_eq!((info.low, info.high), (c.low, c.high));
    }
    let names: Vec<_> = schema.iter().map(|c| c.name).collect();
    let stored: Vec<_> = layout.iter().map(|p| p.name).collect();
    assert_eq!(names, stored);
    let s = summary::summarize(&cols.rows()).unwrap();
    assert_eq!(s.game.len(), 6);
    let total = &cols.game[..5];
    assert_eq!(s.game[0].n, 5);
    assert!((s.game[0].mean - total.iter().sum::<f64>() / 5.0).abs() < 1e-12);
    // The series' sums, tenth by tenth; the last tenth's are the final column's.
    assert_eq!(s.series.len(), 6);
    for (j, tenths) in s.series.iter().enumerate() {
        for (k, m) in tenths.iter().enumerate() {
            let mean = series.iter().map(|r| r[j * BINS + k]).sum::<f64>() / 5.0;
            assert_eq!(m.n, 5);
            assert!((m.mean - mean).abs() < 1e-12, "{j} {k}");
        }
        assert_eq!(tenths[BINS - 1], s.game[j]);
    }
    // A series of the wrong length is refused.
    let mut rows = cols.rows();
    rows.series[0] = &rows.series[0][..BINS];
    assert!(summary::summarize(&rows)
        .unwrap_err()
        .to_string()
        .contains("a series needs 10 entries for each of 5 games"));
}

#[test]
fn two_passes_end_an_empty_tied_game() {
    // 4 × 4 points, action 16 passes.
    let g = windflowers(&[]);
    let s = game_stats(&g, &[16, 16], None).unwrap();
    assert_eq!(
        (s.length, s.turns, s.multi_choice, s.repeated),
        (2, 2, 2, 0)
    );
    assert_eq!(s.branching_sum, 34.0);
    assert_eq!(s.coverage, 0.0);
    assert!(s.top_tied && !s.truncated);
    assert_eq!(s.ranks(), [1.5, 1.5]);
    assert_eq!(s.returns(), [0.0, 0.0]);
    // Every evaluation is 0, both players always lead and both are winners.
    assert_eq!([s.lead_change, s.drama, s.stability], [0.0, 0.0, 0.0]);
    assert_eq!((s.threshold, s.decisiveness), (-1.0, 0.0));
    // Two decisions fall in tenths 0 and 5; the others are empty.
    assert_eq!(s.branching_bins, [17, 0, 0, 0, 0, 17, 0, 0, 0, 0]);
}

#[test]
fn one_stone_wins_and_the_evaluations_follow_the_heuristic() {
    let g = windflowers(&[]);
    let s = game_stats(&g, &[0, 16, 16], None).unwrap();
    assert_eq!((s.length, s.turns), (3, 3));
    // 17 actions at the start; then 16 for player 1 (site 0 is taken by player 0, who is
    // not outnumbered around it); player 0 then has 15 empty sites and the pass.
    assert_eq!(s.branching_sum, 17.0 + 16.0 + 16.0);
    assert_eq!(s.coverage, 1.0 / 16.0);
    assert!(!s.top_tied);
    assert_eq!(s.returns(), [1.0, -1.0]);
    // e over s0..s3: (0,0), (t,-t), (t,-t), (1,-1) with t = tanh(1/16).
    let t = (1.0f64 / 16.0).tanh();
    let e0 = [0.0, t, t, 1.0];
    let e1 = [0.0, -t, -t, -1.0];
    // Leaders: {0,1}, {0}, {0}, {0}: one change in 3 moves.
    assert!((s.lead_change - 1.0 / 3.0).abs() < 1e-12);
    // The winner always holds the maximum: no drama.
    assert_eq!(s.drama, 0.0);
    // Threshold: player 1's best is 0 (at s0); player 0 first exceeds it at s1.
    assert_eq!(s.threshold, 0.0);
    assert!((s.decisiveness - 1.0 / 3.0).abs() < 1e-12);
    let var = |e: &[f64]| {
        let m = e.iter().sum::<f64>() / 4.0;
        e.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 4.0
    };
    assert!((s.stability - (var(&e0) + var(&e1)) / 2.0).abs() < 1e-12);
}

#[test]
fn search_values_replace_the_heuristic() {
    let g = windflowers(&[]);
    // Player 0 thinks it is losing (−0.5) at s0, then player 1 thinks −0.25 at s1,
    // player 0 0.75 at s2; then the terminal returns (1, −1).
    let s = game_stats(&g, &[0, 16, 16], Some(&[-0.5, -0.25, 0.75])).unwrap();
    // e rows: (−.5, .5), (.25, −.25), (.75, −.75), (1, −1): leaders {1},{0},{0},{0}.
    assert!((s.lead_change - 1.0 / 3.0).abs() < 1e-12);
    // Drama: only s0 has the winner behind, by 1.0; mean over 4 positions.
    assert!((s.drama - 0.25).abs() < 1e-12);
    // Threshold 0.5 (player 1 at s0); the winner first exceeds it at s2.
    assert_eq!(s.threshold, 0.5);
    assert!((s.decisiveness - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn three_players_keep_each_players_latest_value() {
    let g = windflowers(&[("players", OptionValue::Int(3))]);
    // Player 0 places, players 1, 2, 0 pass: the game ends, player 0 alone first.
    let s = game_stats(&g, &[0, 16, 16, 16], Some(&[0.1, -0.2, 0.3, 0.9])).unwrap();
    assert_eq!(s.ranks(), [1.0, 2.5, 2.5]);
    assert_eq!(s.returns(), [1.0, -0.5, -0.5]);
    // e rows: (.1,0,0), (.1,-.2,0), (.1,-.2,.3), (.9,-.2,.3), (1,-.5,-.5)
    // leaders: {0},{0},{2},{0},{0} → 2 changes in 4 moves.
    assert!((s.lead_change - 0.5).abs() < 1e-6);
    // Drama: 0 except at s2, where the winner trails by 0.2: 0.2 / 5.
    assert!((s.drama - 0.04).abs() < 1e-6);
    // Threshold: the best non-winner value is 0.3; the winner passes it at s3.
    assert!((s.threshold - 0.3).abs() < 1e-6);
    assert!((s.decisiveness - 0.75).abs() < 1e-12);
}

#[test]
fn the_move_cap_truncates() {
    let g = windflowers(&[("max_moves", OptionValue::Int(2))]);
    let s = game_stats(&g, &[0, 5], None).unwrap();
    assert!(s.truncated);
    assert_eq!(s.returns(), [0.0, 0.0]);
    assert_eq!(s.coverage, 2.0 / 16.0);
}

#[test]
fn bad_action_lists_are_errors() {
    let g = windflowers(&[]);
    assert!(matches!(
        game_stats(&g, &[0, 0], None),
        Err(Error::IllegalMove(_))
    ));
    assert!(matches!(game_stats(&g, &[0], None), Err(Error::Record(_))));
    assert!(matches!(
        game_stats(&g, &[16, 16, 16], None),
        Err(Error::GameOver(_))
    ));
    let err = game_stats_batch(&g, &[16, 16, 0], &[0, 2, 3], None, false).unwrap_err();
    assert!(err.to_string().starts_with("game 1:"));
}

#[test]
fn faraday_pie_choice_and_turns() {
    let g = Game::make(
        "faraday",
        &[
            ("grid".to_string(), OptionValue::Str("square_omni".into())),
            ("order".to_string(), OptionValue::Int(3)),
        ],
    )
    .unwrap();
    let mut rng = Rng::new(7);
    let mut buf = Vec::new();
    for _ in 0..20 {
        let mut st = g.new_state();
        let mut acts = Vec::new();
        while let Some(a) = st.random_action(&mut rng, &mut buf) {
            acts.push(a as u32);
            st.apply_unchecked(a);
        }
        let s = game_stats(&g, &acts, None).unwrap();
        // 9 sites: accept is 19, swap 20.
        let want = if acts.contains(&20) { 1 } else { 0 };
        assert_eq!(s.pie, want);
        assert_eq!(s.repeated, 0);
        // The three offer actions form player 0's first turn, the choice player 1's.
        assert!(s.turns >= 2);
    }
}

#[test]
fn faradays_heuristic_is_its_score() {
    for scoring in ["simple_orthogonal", "special"] {
        let g = Game::make(
            "faraday",
            &[
                ("order".to_string(), OptionValue::Int(4)),
                ("scoring".to_string(), OptionValue::Str(scoring.into())),
            ],
        )
        .unwrap();
        let sites = g.board().num_sites() as f64;
        let scale = if scoring == "special" {
            sites * sites / 4.0
        } else {
            sites
        };
        let mut rng = Rng::new(11);
        let mut buf = Vec::new();
        let mut scratch = FloodScratch::default();
        let mut st = g.new_state();
        assert_eq!(st.heuristic_scale().0, scale);
        while let Some(a) = st.random_action(&mut rng, &mut buf) {
            let mut h = [0; 2];
            st.heuristic_into(&mut scratch, &mut h);
            let State::Faraday(f) = &st else {
                unreachable!()
            };
            let v = f.score_values();
            assert_eq!(h, [v[0] as u32, v[1] as u32]);
            st.apply_unchecked(a);
        }
    }
}

/// The share of sites that held a stone at some position of the game.
fn ever_occupied(g: &Game, actions: &[u32]) -> f64 {
    let mut st = g.new_state();
    let mut ever = vec![false; st.cells().len()];
    for &a in actions {
        st.apply_unchecked(a as usize);
        for (e, &c) in ever.iter_mut().zip(st.cells()) {
            *e |= c != 0;
        }
    }
    ever.iter().filter(|&&e| e).count() as f64 / ever.len() as f64
}

/// Repeats, turns and coverage against naive references on random games of every game.
#[test]
fn repeats_match_a_naive_count() {
    let games = [
        windflowers(&[]),
        windflowers(&[("grid", OptionValue::Str("hex".into()))]),
        windflowers(&[("players", OptionValue::Int(3))]),
        Game::make("subsume", &[("size".to_string(), OptionValue::Int(3))]).unwrap(),
        Game::make("smallholder", &[]).unwrap(),
    ];
    let mut rng = Rng::new(3);
    let mut buf = Vec::new();
    let mut total_repeats = 0;
    for g in &games {
        for _ in 0..200 {
            let mut st = g.new_state();
            let mut seen: Vec<(Vec<i8>, Option<usize>)> =
                vec![(st.cells().to_vec(), st.current_player())];
            let mut acts = Vec::new();
            let mut naive = 0;
            let mut turns = 0;
            let mut last = None;
            while let Some(a) = st.random_action(&mut rng, &mut buf) {
                if st.current_player() != last {
                    turns += 1;
                    last = st.current_player();
                }
                acts.push(a as u32);
                st.apply_unchecked(a);
                let key = (st.cells().to_vec(), st.current_player());
                if seen.contains(&key) {
                    naive += 1;
                }
                seen.push(key);
            }
            let s = game_stats(g, &acts, None).unwrap();
            let ever = ever_occupied(g, &acts);
            assert_eq!(s.coverage, ever, "{}", g.name());
            assert_eq!(s.repeated, naive);
            assert_eq!(s.turns, turns);
            total_repeats += naive;
        }
    }
    // Random games of these rules never repeated in our probes; the counting itself is
    // checked on constructed sequences below.
    assert_eq!(total_repeats, 0);
}

/// Configurations covering every game and the options that change what the lab measures.
fn lab_configs() -> Vec<Game> {
    let make = |name: &str, opts: &[(&str, OptionValue)]| {
        let opts: Vec<(String, OptionValue)> = opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Game::make(name, &opts).unwrap()
    };
    let s = |v: &str| OptionValue::Str(v.into());
    vec![
        make("windflowers", &[]),
        make("windflowers", &[("scoring", s("largest_group"))]),
        make(
            "windflowers",
            &[("players", OptionValue::Int(3)), ("grid", s("hex"))],
        ),
        make(
            "windflowers",
            &[("players", OptionValue::Int(4)), ("grid", s("square"))],
        ),
        make(
            "windflowers",
            &[
                ("size", OptionValue::Int(3)),
                ("max_moves", OptionValue::Int(12)),
            ],
        ),
        make("windflowers", &[("size", OptionValue::Int(6))]),
        make("smallholder", &[]),
        make("smallholder", &[("ruleset", s("gaps_original"))]),
        make("faraday", &[("order", OptionValue::Int(4))]),
        make(
            "faraday",
            &[("order", OptionValue::Int(4)), ("scoring", s("special"))],
        ),
        make(
            "faraday",
            &[
                ("grid", s("hex_omni")),
                ("order", OptionValue::Int(3)),
                ("scoring", s("simple")),
            ],
        ),
        make(
            "faraday",
            &[
                ("grid", s("square_omni")),
                ("order", OptionValue::Int(5)),
                ("surplus_charge", OptionValue::Bool(true)),
                ("scoring", s("special_orthogonal")),
            ],
        ),
        make("subsume", &[("size", OptionValue::Int(4))]),
        make(
            "subsume",
            &[
                ("size", OptionValue::Int(5)),
                ("anti_blob", OptionValue::Bool(false)),
            ],
        ),
        make(
            "subsume",
            &[
                ("size", OptionValue::Int(5)),
                ("remove_surrounded", OptionValue::Bool(false)),
            ],
        ),
    ]
}

/// The fused path (facts gathered while playing, each game's own loop and keys) gives
/// exactly what replaying the same actions through the generic path gives, and plays the
/// games each seat's generator draws with `random_action`.
#[test]
fn random_games_measured_in_play_match_their_replay() {
    for g in lab_configs() {
        let start = g.new_state();
        let n = start.num_players();
        let ev = Evaluator::new(&start);
        let (mut fused, mut replayed) = (Scratch::default(), Scratch::default());
        for i in 0..40u64 {
            let seeds: Vec<Rng> = (0..n).map(|j| Rng::stream(i, j as u64)).collect();
            let mut rngs = seeds.clone();
            let st = random_game_stats(&start, &mut rngs, &ev, &mut fused);
            let actions: Vec<u32> = fused.actions().collect();
            // The same draws, one seat generator each, through `random_action`.
            let mut rngs = seeds;
            let mut state = g.new_state();
            let mut buf = Vec::new();
            let mut plain = Vec::new();
            while let Some(p) = state.current_player() {
                let a = state.random_action(&mut rngs[p], &mut buf).unwrap();
                plain.push(a as u32);
                state.apply_unchecked(a);
            }
            assert_eq!(actions, plain, "{}", g.name());
            let again = replay_stats(&start, &actions, None, &ev, &mut replayed).unwrap();
            // Debug strings, so that NaN fields compare as equal.
            assert_eq!(format!("{st:?}"), format!("{again:?}"), "{}", g.name());
            assert_eq!(st.length as usize, actions.len());
            // The series too, bit for bit; only games that declare columns have any.
            let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(fused.series()),
                bits(replayed.series()),
                "{}",
                g.name()
            );
            let declared = Measure::final_columns(&start);
            assert_eq!(fused.series().len(), declared.len() * BINS, "{}", g.name());
            // No declared name could be taken for another's series.
            assert!(declared.iter().all(|c| !c.name.ends_with(SERIES_SUFFIX)));
        }
    }
}

/// The counted draw makes the same draws as `random_action`, and its count, `legal_count`
/// and the legal list agree at every position.
#[test]
fn counted_draws_are_the_plain_draws() {
    for g in lab_configs() {
        let mut rng = Rng::new(5);
        let mut buf = Vec::new();
        for _ in 0..20 {
            let mut st = g.new_state();
            loop {
                let mut a = rng.clone();
                let mut b = rng.clone();
                let plain = st.random_action(&mut a, &mut buf);
                let counted = st.random_action_counted(&mut b, &mut buf);
                assert_eq!(plain, counted.map(|(x, _)| x), "{}", g.name());
                assert_eq!(a.next_u64(), b.next_u64(), "{}", g.name());
                let legal = st.legal_actions().len();
                assert_eq!(st.legal_count(&mut buf), legal, "{}", g.name());
                let Some((action, count)) = counted else {
                    assert_eq!(legal, 0);
                    break;
                };
                assert_eq!(count, legal, "{}", g.name());
                rng = b;
                st.apply_unchecked(action);
            }
        }
    }
}

/// Equal positions get equal keys whichever way they were reached, and the games that
/// keep their stones say so truthfully.
#[test]
fn keys_follow_the_position_and_stones_stay_where_promised() {
    for g in lab_configs() {
        let mut rng = Rng::new(9);
        let mut buf = Vec::new();
        for _ in 0..20 {
            let mut st = g.new_state();
            let stays = st.sites_stay_occupied();
            let placed = st.placed_by_actions();
            let mut played = vec![false; st.cells().len()];
            while let Some(a) = st.random_action(&mut rng, &mut buf) {
                let before: Vec<bool> = st.cells().iter().map(|&c| c != 0).collect();
                st.apply_unchecked(a);
                if let Some(p) = played.get_mut(a) {
                    *p = true;
                }
                if stays {
                    assert!(st.cells().iter().zip(&before).all(|(&c, &b)| c != 0 || !b));
                }
                if placed {
                    // Every stone stands on a site some action named.
                    assert!(st.cells().iter().zip(&played).all(|(&c, &p)| c == 0 || p));
                }
                // A copy keys alike; the key does not depend on the path's history.
                assert_eq!(st.clone().key(), st.key());
            }
        }
    }
    // Windflowers: the same board and mover reached by different orders.
    let g = windflowers(&[("players", OptionValue::Int(3))]);
    let (mut a, mut b) = (g.new_state(), g.new_state());
    for x in [0, 5, 9] {
        a.apply_unchecked(x);
    }
    for x in [16, 16, 0] {
        b.apply_unchecked(x);
    }
    // a: stones 0 (p0), 5 (p1), 9 (p2), p0 to move; b: p2's stone on 0, p0 to move.
    assert_ne!(a.key(), b.key());
    let mut c = g.new_state();
    for x in [16, 16, 9, 0, 5] {
        c.apply_unchecked(x);
    }
    // c: p2 on 9, p0 on 0, p1 on 5, p2 to move: a's board with another mover.
    assert_eq!(a.cells(), c.cells());
    assert_ne!(a.key(), c.key());
    // d: a's board and mover after a pass: another position (one pass nearer the end).
    let mut d = g.new_state();
    for x in [16, 16, 9, 0, 5, 16] {
        d.apply_unchecked(x);
    }
    assert_eq!(
        (a.cells(), a.current_player()),
        (d.cells(), d.current_player())
    );
    assert_ne!(a.key(), d.key());
    // e: a's position by another path, passes between the same placements.
    let mut e = g.new_state();
    for x in [16, 5, 16, 0, 16, 9] {
        e.apply_unchecked(x);
    }
    assert_eq!(a.cells(), e.cells());
    assert_eq!(a.key(), e.key());
}

/// The two-player shortcut gives the very numbers the sums per player give.
#[test]
fn two_player_rows_sum_as_every_row_does() {
    for g in lab_configs().into_iter().filter(|g| g.num_players() == 2) {
        let start = g.new_state();
        let ev = Evaluator::new(&start);
        assert!(ev.odd, "{}", g.name());
        let mut scratch = Scratch::default();
        let mut rng = Rng::new(4);
        for _ in 0..30 {
            let mut rngs = [rng.clone(), Rng::stream(rng.next_u64(), 1)];
            let st = random_game_stats(&start, &mut rngs, &ev, &mut scratch);
            // The tracker summed the rows as they came; rebuild what they came from.
            assert!(scratch.decisions.is_empty());
            let mut state = g.new_state();
            let mut flood = FloodScratch::default();
            let mut decisions = Vec::new();
            for a in scratch.actions() {
                let mut k = [0; MAX_PLAYERS];
                state.heuristic_into(&mut flood, &mut k[..2]);
                let mover = state.current_player().unwrap() as u8;
                decisions.push(Decision {
                    mover,
                    k,
                    value: f32::NAN,
                });
                state.apply_unchecked(a as usize);
            }
            let decisions = &decisions;
            let (returns, ranks) = (st.returns(), st.ranks());
            // The sums the tracker kept as the game went.
            let online = [
                st.lead_change,
                st.drama,
                st.decisiveness,
                st.threshold,
                st.stability,
            ];
            let slow = every_player_metrics::<2>(decisions, &ev, false, returns, ranks);
            assert_eq!(
                online.map(f64::to_bits),
                slow.map(f64::to_bits),
                "{}",
                g.name()
            );
            let values: Vec<Decision> = decisions
                .iter()
                .map(|d| Decision {
                    value: (rng.unit() * 2.0 - 1.0) as f32,
                    ..*d
                })
                .collect();
            for (rows, valued) in [(decisions, false), (&values, true)] {
                let fast = two_player_metrics(rows, &ev, valued, returns, ranks);
                let slow = every_player_metrics::<2>(rows, &ev, valued, returns, ranks);
                assert_eq!(
                    fast.map(f64::to_bits),
                    slow.map(f64::to_bits),
                    "{}",
                    g.name()
                );
            }
        }
    }
}

/// With levels, equal keys are looked for only among the positions of one level.
#[test]
fn levels_limit_the_comparison_to_one_run() {
    let g = windflowers(&[]);
    let start = g.new_state();
    let ev = Evaluator::new(&start);
    let mut scratch = Scratch::default();
    let cells = start.cells().to_vec();
    let mut t = Tracker::new(&mut scratch, &ev, &start);
    for (key, level) in [(1, 0), (1, 1), (2, 1), (3, 2), (4, 2)] {
        t.position(key, Some(level), &cells);
    }
    // Key 1 came back, but at another level: not a candidate.
    assert!(!t.suspect);
    t.position(3, Some(2), &cells);
    assert!(t.suspect);
    assert_eq!(t.s.run, [3, 4, 3]);
    assert!(t.s.keys.is_empty());
}

#[test]
fn equal_keys_are_found_and_the_filter_is_left_clear() {
    let mut filter = Vec::new();
    let mut seen = KeySet::default();
    let keys: Vec<u64> = (0..500u64)
        .map(|i| crate::games::zobrist::mix64(i + 1))
        .collect();
    assert!(!has_equal_keys(&keys, &mut filter, &mut seen));
    assert!(filter.iter().all(|&w| w == 0));
    let mut twice = keys.clone();
    twice.push(keys[321]);
    assert!(has_equal_keys(&twice, &mut filter, &mut seen));
    assert!(filter.iter().all(|&w| w == 0));
    // Keys alike in their top bits but different pass the screen and are told apart.
    let close = [7u64 << 48 | 1, 7u64 << 48 | 2, 7u64 << 48 | 3];
    assert!(!has_equal_keys(&close, &mut filter, &mut seen));
    // The set grows past its first size and forgets between games.
    seen.clear();
    assert!((0..2000u64).all(|k| !seen.insert(crate::games::zobrist::mix64(k))));
    assert!(seen.insert(crate::games::zobrist::mix64(1999)));
    seen.clear();
    assert!(!seen.insert(crate::games::zobrist::mix64(1999)));
}

#[test]
fn repeats_count_each_return_to_an_earlier_position() {
    // Positions of 2 sites: A=(0,0,p0) B=(1,0,p1) A B A C=(0,0,p1): three repeats.
    let positions = [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0];
    let keys = [0, 1, 0, 1, 0, 1];
    assert_eq!(count_repeats(&positions, &keys, 2), 3);
    assert_eq!(count_repeats(&positions[..4], &keys[..2], 2), 0);
}

/// Random games of `g` from the streams of (`seed`, i): their actions and offsets.
fn random_batch(g: &Game, seed: u64, games: usize) -> (Vec<u32>, Vec<i64>) {
    let (mut actions, mut offsets) = (Vec::new(), vec![0i64]);
    let mut buf = Vec::new();
    for i in 0..games as u64 {
        let mut rng = Rng::stream(seed, i);
        let mut state = g.new_state();
        while state.current_player().is_some() {
            let a = state.random_action(&mut rng, &mut buf).unwrap();
            actions.push(a as u32);
            state.apply_unchecked(a);
        }
        offsets.push(actions.len() as i64);
    }
    (actions, offsets)
}

/// Chunks joined in order are the whole batch, column for column and kept game for kept game;
/// the encoding reads back to the same columns, and anything cut, extended or altered where it
/// shows is a record error, never a panic.
#[test]
fn chunks_join_in_order_and_encode_exactly() {
    for g in lab_configs() {
        let (n, declared) = (g.num_players(), Measure::final_columns(&g.new_state()));
        let (actions, offsets) = random_batch(&g, 3, 30);
        let values: Vec<f32> = (0..actions.len()).map(|i| (i % 7) as f32 / 7.0).collect();
        let mut whole = game_stats_batch(&g, &actions, &offsets, Some(&values), false).unwrap();
        whole.keep_replayed(100, 104, &actions, &offsets, Some(&values));
        assert!(whole.kept.len() >= 4 && whole.kept[0].index == 100);
        // The same games in three chunks, numbered on from where the last one stopped.
        let mut parts = Vec::new();
        for (a, b) in [(0, 7), (7, 8), (8, 30)] {
            let offs: Vec<i64> = offsets[a..=b].iter().map(|o| o - offsets[a]).collect();
            let acts = &actions[offsets[a] as usize..offsets[b] as usize];
            let vals = &values[offsets[a] as usize..offsets[b] as usize];
            let mut part = game_stats_batch(&g, acts, &offs, Some(vals), false).unwrap();
            part.keep_replayed(100 + a as u64, 104, acts, &offs, Some(vals));
            parts.push(part);
        }
        let refs: Vec<&Columns> = parts.iter().collect();
        let joined = Columns::concat(n, declared, &refs).unwrap();
        // Debug strings, so that NaN entries (raw scores of games without them) compare equal.
        assert_eq!(format!("{joined:?}"), format!("{whole:?}"), "{}", g.name());
        assert_eq!(Columns::concat(n, declared, &[]).unwrap().len(), 0);
        if n != 4 {
            let other = Columns::zeroed(4, declared, 0);
            assert!(Columns::concat(n, declared, &[&parts[0], &other]).is_err());
        }

        // The declared columns' presence, then their series'.
        let present: Vec<bool> = (0..2 * declared.len()).map(|j| j % 3 == 0).collect();
        let bytes = whole.encode(&present);
        let (back, found) = Columns::decode(&bytes, n, declared).unwrap();
        assert_eq!(format!("{back:?}"), format!("{whole:?}"), "{}", g.name());
        assert_eq!(found, present);
        for cut in 0..bytes.len() {
            let err = Columns::decode(&bytes[..cut], n, declared).unwrap_err();
            assert!(matches!(err, Error::Record(_)), "{err}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Columns::decode(&longer, n, declared).is_err());
        let other_players = if n == 2 { 3 } else { 2 };
        assert!(Columns::decode(&bytes, other_players, declared).is_err());
        let mut altered = bytes.clone();
        altered[0] = b'X'; // the tag
        assert!(Columns::decode(&altered, n, declared).is_err());
        let mut altered = bytes.clone();
        altered[4] = 9; // the version
        let err = Columns::decode(&altered, n, declared).unwrap_err();
        assert!(err.to_string().contains("version 9"), "{err}");
        let mut altered = bytes.clone();
        altered[7] = 0xff; // the game count's low byte: the columns no longer fit
        assert!(Columns::decode(&altered, n, declared).is_err());
        let mut altered = bytes.clone();
        altered[14] = 0xff; // the game count's high byte: more games than bytes
        assert!(Columns::decode(&altered, n, declared).is_err());
        // A flag that is neither 0 nor 1.
        let header = 4 + 2 + 1 + 8 + 2 + declared.iter().map(|c| c.name.len() + 3).sum::<usize>();
        let flags_at = header + 4 * whole.whole.len() + 8 * whole.floats.len();
        let mut altered = bytes.clone();
        altered[flags_at] = 2;
        let err = Columns::decode(&altered, n, declared).unwrap_err();
        assert!(err.to_string().contains("flags"), "{err}");
    }
    // Facts of a game that declares columns do not read as another's.
    let subsume = lab_configs().pop().unwrap();
    let d = Measure::final_columns(&subsume.new_state());
    let wf = windflowers(&[]);
    let (actions, offsets) = random_batch(&wf, 1, 3);
    let cols = game_stats_batch(&wf, &actions, &offsets, None, false).unwrap();
    assert!(Columns::decode(&cols.encode(&[]), 2, d).is_err());
}

/// The position at the end of tenth k of a game of `len` actions: ⌈(k + 1) len / 10⌉, worked
/// out apart from the lab's own formula.
fn tenth_end(k: usize, len: usize) -> usize {
    let whole = (k + 1) * len;
    whole / 10 + usize::from(whole % 10 != 0)
}

/// A Subsume game's series are its declared facts at the positions that end the tenths,
/// s_⌈(k+1)L/10⌉, as replaying the game to each and asking for the facts of that position
/// gives them; the last tenth is the final columns; games that declare nothing have none.
#[test]
fn series_are_the_facts_where_the_tenths_end() {
    let ev_of = |g: &Game| Evaluator::new(&g.new_state());
    let mut games = 0;
    for (size, anti_blob) in [(3, true), (3, false), (4, true), (5, false)] {
        let g = Game::make(
            "subsume",
            &[
                ("size".into(), OptionValue::Int(size)),
                ("anti_blob".into(), OptionValue::Bool(anti_blob)),
            ],
        )
        .unwrap();
        let start = g.new_state();
        let ev = ev_of(&g);
        let declared = Measure::final_columns(&start).len();
        assert_eq!(declared, 6);
        let mut scratch = Scratch::default();
        for seed in 0..12u64 {
            let mut rngs: Vec<Rng> = (0..2).map(|j| Rng::stream(seed, j)).collect();
            let st = random_game_stats(&start, &mut rngs, &ev, &mut scratch);
            let actions: Vec<u32> = scratch.actions().collect();
            let big_l = actions.len();
            let series = scratch.series().to_vec();
            for k in 0..BINS {
                let mut s = g.new_state();
                for &a in &actions[..tenth_end(k, big_l)] {
                    s.apply(i64::from(a)).unwrap();
                }
                let mut want = [0.0; 6];
                s.final_facts(&mut want);
                for j in 0..declared {
                    assert_eq!(series[j * BINS + k].to_bits(), want[j].to_bits(), "{k} {j}");
                }
            }
            for j in 0..declared {
                assert_eq!(series[j * BINS + BINS - 1].to_bits(), st.game[j].to_bits());
                // Groups of both colours never number more than the stones.
                assert!(series[j * BINS..(j + 1) * BINS].iter().all(|&x| x >= 0.0));
            }
            games += 1;
        }
    }
    assert_eq!(games, 48);
    // A game that declares nothing keeps no series.
    let g = windflowers(&[]);
    let start = g.new_state();
    let mut scratch = Scratch::default();
    let mut rngs: Vec<Rng> = (0..2).map(|j| Rng::stream(1, j)).collect();
    random_game_stats(&start, &mut rngs, &ev_of(&g), &mut scratch);
    assert!(scratch.series().is_empty() && scratch.snapshots.is_empty());
    replay_stats(&start, &[16, 16], None, &ev_of(&g), &mut scratch).unwrap();
    assert!(scratch.series().is_empty());
}

/// Games shorter than ten actions: a tenth without a decision ends where the tenth before it
/// ended (the position ⌈(k + 1) L / 10⌉ exists for every k), and a game of no actions has its
/// start in every tenth. Checked on the first actions of a Subsume game, each prefix taken as
/// a game of its own.
#[test]
fn short_games_repeat_the_position_of_an_empty_tenth() {
    let g = Game::make("subsume", &[("size".into(), OptionValue::Int(4))]).unwrap();
    let start = g.new_state();
    let ev = Evaluator::new(&start);
    let mut scratch = Scratch::default();
    let mut rngs: Vec<Rng> = (0..2).map(|j| Rng::stream(7, j)).collect();
    random_game_stats(&start, &mut rngs, &ev, &mut scratch);
    let steps = scratch.steps.clone();
    let snapshots = scratch.snapshots.clone();
    // Subsume gives snapshots: three sets of stones a position.
    let width = snapshots.len() / (steps.len() + 1);
    assert!(width >= 3 && snapshots.len() == width * (steps.len() + 1));
    // The facts of every position of the game, s_0 … s_L.
    let mut at = vec![[0.0; 6]];
    let mut s = g.new_state();
    for d in &steps {
        s.apply(i64::from(d.action)).unwrap();
        let mut f = [0.0; 6];
        s.final_facts(&mut f);
        at.push(f);
    }
    let mut out = Vec::new();
    for (len, snapped) in (0..=12).flat_map(|len| [(len, true), (len, false)]) {
        // From the positions' snapshots, and by replaying the actions (without snapshots).
        let (snaps, w) = if snapped {
            (&snapshots[..(len + 1) * width], width)
        } else {
            (&[][..], 0)
        };
        tenth_facts(&start, &steps[..len], &at[len], snaps, w, &mut out);
        let ends: Vec<usize> = (0..BINS).map(|k| tenth_end(k, len)).collect();
        if len == 3 {
            assert_eq!(ends, [1, 1, 1, 2, 2, 2, 3, 3, 3, 3]);
        }
        if len == 0 {
            assert!(ends.iter().all(|&e| e == 0));
        }
        for (k, &e) in ends.iter().enumerate() {
            for j in 0..6 {
                assert_eq!(
                    out[j * BINS + k].to_bits(),
                    at[e][j].to_bits(),
                    "{len} {k} {j}"
                );
            }
        }
    }
    // Nothing declared, nothing kept.
    tenth_facts(&start, &steps, &[], &snapshots, width, &mut out);
    assert!(out.is_empty());
    // Snapshots that do not cover every position are not used: the game is replayed.
    let len = steps.len();
    tenth_facts(
        &start,
        &steps,
        &at[len],
        &snapshots[..width],
        width,
        &mut out,
    );
    for k in 0..BINS {
        assert_eq!(out[k].to_bits(), at[tenth_end(k, len)][0].to_bits());
    }
}
