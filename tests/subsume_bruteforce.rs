//! Subsume held to the definitions of its rules by brute force.
//!
//! The engine never enumerates loops: it uses flood-fill tests (`stonefield::algo::loops`) that
//! are believed, not proven, to be equivalent to the definitions. This file re-derives everything
//! from the definitions alone, on small boards (sides 3 to 5, at most 61 cells, so a set of cells
//! is a `u64`):
//!
//! * a loop is an induced cycle of at least 6 stones, found by enumerating induced paths;
//! * its interior is what a flood from the perimeter, avoiding the loop, does not reach;
//! * a sub-loop of L lies within L and its interior; the MEL of a group is a loop of the group of
//!   which every loop of the group is a sub-loop;
//! * a move creates a new MEL when the mover's group has a MEL that was no group's MEL before;
//! * a colour wins with a one-colour loop on more than 3(n − 1) perimeter cells;
//! * with `anti_blob=false` a placement needs only an open cell; with `remove_surrounded=false`
//!   the stones inside a new MEL stay on the board but out of play (no loop, no neighbour count).
//!
//! It then checks the engine on random positions (surrounded cells, legal sets for both players,
//! every group's MEL, the win test, and the result of legal placements: flips, removals, wins,
//! whose turn) and along random games. Positions with too many loops to enumerate quickly are
//! skipped, and the test says how many it checked.

use std::sync::Arc;

use stonefield::algo::hexgrid::HexGrid;
use stonefield::algo::loops;
use stonefield::board::Board;
use stonefield::games::subsume::{Config, State};
use stonefield::games::{OptionValue, Rules};
use stonefield::rng::Rng;

/// Board geometry as bit masks.
struct Geo {
    board: Board,
    grid: HexGrid,
    cfg: Arc<Config>,
    n: usize,
    nb: Vec<u64>,
    perimeter: u64,
    threshold: u32,
}

impl Geo {
    fn new(size: usize) -> Geo {
        Geo::with(size, true, true)
    }

    /// The board of side `size` under the two asides' options.
    fn with(size: usize, anti_blob: bool, remove_surrounded: bool) -> Geo {
        let options = [
            ("size".to_string(), OptionValue::Int(size as i64)),
            ("anti_blob".to_string(), OptionValue::Bool(anti_blob)),
            (
                "remove_surrounded".to_string(),
                OptionValue::Bool(remove_surrounded),
            ),
        ];
        let cfg = Arc::new(Config::new(&options).expect("valid size"));
        let board = Board::hex_cells(size);
        let n = board.num_sites();
        assert!(n <= 64);
        let nb = (0..n)
            .map(|s| board.orth(s).iter().fold(0u64, |m, &t| m | 1 << t))
            .collect();
        let perimeter = (0..n)
            .filter(|&s| board.orth(s).len() < 6)
            .fold(0u64, |m, s| m | 1 << s);
        Geo {
            grid: HexGrid::new(&board),
            board,
            cfg,
            n,
            nb,
            perimeter,
            threshold: 3 * (size as u32 - 1),
        }
    }

    fn neighbours(&self, set: u64) -> u64 {
        bits(set).fold(0, |m, s| m | self.nb[s])
    }

    /// The cells `start` reaches through cells of `through` (`start` included).
    fn flood(&self, start: u64, through: u64) -> u64 {
        let mut reached = start;
        let mut frontier = start;
        while frontier != 0 {
            let next = self.neighbours(frontier) & through & !reached;
            reached |= next;
            frontier = next;
        }
        reached
    }

    /// Connected components of `set`.
    fn components(&self, set: u64) -> Vec<u64> {
        let mut left = set;
        let mut out = Vec::new();
        while left != 0 {
            let c = self.flood(left & left.wrapping_neg(), set);
            out.push(c);
            left &= !c;
        }
        out
    }

    /// Every induced cycle of at least 6 cells of `stones`, or `None` past `cap` of them.
    fn loops(&self, stones: u64, cap: usize) -> Option<Vec<u64>> {
        let mut out = Vec::new();
        for v in bits(stones) {
            let higher = stones & !((2u64 << v) - 1);
            for p1 in bits(self.nb[v] & higher) {
                let path = 1 << v | 1 << p1;
                if !self.extend(v, p1, p1, path, path, higher, &mut out, cap) {
                    return None;
                }
            }
        }
        Some(out)
    }

    /// Extends the induced path from `first` (the cycle's smallest cell) through `second` to
    /// `last`; `inner` holds the path and the neighbours of its inner cells. Returns false past
    /// the cap.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        first: usize,
        second: usize,
        last: usize,
        path: u64,
        inner: u64,
        higher: u64,
        out: &mut Vec<u64>,
        cap: usize,
    ) -> bool {
        for w in bits(self.nb[last] & higher & !inner) {
            if self.nb[first] >> w & 1 == 1 {
                // w closes the cycle; each cycle is met in both directions, keep one.
                let cycle = path | 1 << w;
                if cycle.count_ones() >= 6 && w > second {
                    out.push(cycle);
                    if out.len() > cap {
                        return false;
                    }
                }
                continue;
            }
            // `last` becomes an inner cell: nothing further may touch it.
            let inner = inner | self.nb[last] | 1 << w;
            if !self.extend(first, second, w, path | 1 << w, inner, higher, out, cap) {
                return false;
            }
        }
        true
    }

    /// The interior of loop `l`: cells not on it that no path avoiding it joins to the edge.
    fn interior(&self, l: u64) -> u64 {
        let all = mask(self.n);
        let outside = self.flood(self.perimeter & !l, all & !l);
        all & !l & !outside
    }
}

fn mask(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let b = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(b)
    })
}

/// A position seen through the definitions.
struct Brute<'a> {
    geo: &'a Geo,
    cells: Vec<i8>,
    /// The stones in play: every stone but the kept ones.
    stones: u64,
    /// Stones kept inside a settled loop (`remove_surrounded=false`): on the board, out of play.
    kept: u64,
    colour: [u64; 2],
    loops: Vec<(u64, u64)>,
}

impl<'a> Brute<'a> {
    fn new(geo: &'a Geo, cells: &[i8], cap: usize) -> Option<Brute<'a>> {
        Brute::with_kept(geo, cells, 0, cap)
    }

    fn with_kept(geo: &'a Geo, cells: &[i8], kept: u64, cap: usize) -> Option<Brute<'a>> {
        let set = |v: i8| {
            (0..geo.n)
                .filter(|&c| cells[c] == v && kept >> c & 1 == 0)
                .fold(0u64, |m, c| m | 1 << c)
        };
        let stones = set(1) | set(2);
        let loops = geo
            .loops(stones, cap)?
            .into_iter()
            .map(|l| (l, geo.interior(l)))
            .collect();
        Some(Brute {
            geo,
            cells: cells.to_vec(),
            stones,
            kept,
            colour: [set(1), set(2)],
            loops,
        })
    }

    fn surrounded(&self) -> u64 {
        let inside = self.loops.iter().fold(0, |m, &(_, i)| m | i);
        inside & !self.stones & !self.kept & mask(self.geo.n)
    }

    fn legal(&self, p: usize) -> Vec<u32> {
        let shut = self.surrounded();
        (0..self.geo.n)
            .filter(|&c| self.cells[c] == 0 && shut >> c & 1 == 0)
            .filter(|&c| {
                let nb = self.geo.nb[c];
                !self.geo.cfg.anti_blob
                    || (nb & self.colour[1 - p]).count_ones() >= (nb & self.colour[p]).count_ones()
            })
            .map(|c| c as u32)
            .collect()
    }

    /// The MEL of `group` and its interior, straight from the definition.
    fn mel(&self, group: u64) -> Option<(u64, u64)> {
        let inside: Vec<&(u64, u64)> = self.loops.iter().filter(|(l, _)| l & !group == 0).collect();
        let mels: Vec<(u64, u64)> = inside
            .iter()
            .filter(|(l, i)| inside.iter().all(|(m, _)| m & !(l | i) == 0))
            .map(|&&x| x)
            .collect();
        assert!(mels.len() <= 1, "a group with two MELs");
        mels.first().copied()
    }

    /// The winner by the definition: a one-colour loop on more than 3(n − 1) perimeter cells.
    fn winner(&self) -> Option<usize> {
        let mut w = None;
        for &(l, _) in &self.loops {
            if (l & self.geo.perimeter).count_ones() <= self.geo.threshold {
                continue;
            }
            for x in 0..2 {
                if l & !self.colour[x] == 0 {
                    assert!(w.is_none() || w == Some(x), "both colours win");
                    w = Some(x);
                }
            }
        }
        w
    }

    /// Whose turn it is with `to_move` nominally next: `None` for a draw.
    fn turn(&self, to_move: usize) -> Option<usize> {
        [to_move, 1 - to_move]
            .into_iter()
            .find(|&p| !self.legal(p).is_empty())
    }
}

/// What a move leads to.
#[derive(Debug, PartialEq)]
struct After {
    cells: Vec<i8>,
    kept: u64,
    winner: Option<usize>,
    player: Option<usize>,
}

/// Player p places on s, by the definitions. `None` when the result has too many loops.
fn brute_move(geo: &Geo, before: &Brute, p: usize, s: usize, cap: usize) -> Option<After> {
    let old_mels: Vec<u64> = geo
        .components(before.stones)
        .into_iter()
        .filter_map(|g| before.mel(g).map(|m| m.0))
        .collect();
    let mut cells = before.cells.clone();
    let mut kept = before.kept;
    cells[s] = p as i8 + 1;
    let placed = Brute::with_kept(geo, &cells, kept, cap)?;
    let group = geo.flood(1 << s, placed.stones);
    if let Some((l, interior)) = placed.mel(group) {
        if !old_mels.contains(&l) {
            let own = (l & placed.colour[p]).count_ones();
            let colour = if 2 * own >= l.count_ones() {
                p as i8 + 1
            } else {
                2 - p as i8
            };
            for c in bits(l) {
                cells[c] = colour;
            }
            if geo.cfg.remove_surrounded {
                for c in bits(interior) {
                    cells[c] = 0;
                }
            } else {
                kept |= interior & placed.stones;
            }
        }
    }
    let settled = Brute::with_kept(geo, &cells, kept, cap)?;
    let winner = settled.winner();
    let player = if winner.is_some() {
        None
    } else {
        settled.turn(1 - p)
    };
    Some(After {
        cells,
        kept,
        winner,
        player,
    })
}

fn engine_after(state: &State) -> After {
    let kept = state.enclosed_stones();
    After {
        cells: state.cells().to_vec(),
        kept: (0..kept.len())
            .filter(|&c| kept[c])
            .fold(0u64, |m, c| m | 1 << c),
        winner: state.winner(),
        player: state.current_player(),
    }
}

#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    skipped: usize,
    moves: usize,
    flips: usize,
    removals: usize,
    wins: usize,
    mels: usize,
}

/// Checks one position with `to_move` nominally to move, and up to `moves` of its placements.
fn check_position(
    geo: &Geo,
    cells: &[i8],
    to_move: usize,
    moves: usize,
    rng: &mut Rng,
    t: &mut Tally,
) {
    const CAP: usize = 10_000;
    let Some(brute) = Brute::new(geo, cells, CAP) else {
        t.skipped += 1;
        return;
    };
    t.positions += 1;
    let ctx = || format!("size {} cells {cells:?} to move {to_move}", geo.cfg.size);
    let state = State::from_position(geo.cfg.clone(), cells, to_move).expect("valid");

    // Test 1: surrounded cells.
    let shut = brute.surrounded();
    let expect: Vec<bool> = (0..geo.n).map(|c| shut >> c & 1 == 1).collect();
    assert_eq!(loops::surrounded(&geo.board, cells), expect, "{}", ctx());
    assert_eq!(state.surrounded(), expect, "{}", ctx());

    // Test 2: every group's MEL.
    for g in geo.components(brute.stones) {
        let s = g.trailing_zeros() as usize;
        let got = loops::mel_of_group(&geo.grid, cells, s);
        let want = brute.mel(g).map(|(l, i)| {
            let list = |m: u64| bits(m).map(|c| c as u16).collect::<Vec<u16>>();
            (list(l), list(i))
        });
        if want.is_some() {
            t.mels += 1;
        }
        assert_eq!(got, want, "MEL of the group of {s}: {}", ctx());
    }

    // Test 4: wins.
    let winner = brute.winner();
    for x in 0..2 {
        let colour = geo.grid.set_of(cells, x as i8 + 1);
        let got = loops::has_winning_loop(&geo.grid, &colour, geo.threshold as usize);
        assert_eq!(got, winner == Some(x), "win test for {x}: {}", ctx());
    }
    assert_eq!(state.winner(), winner, "{}", ctx());
    if winner.is_some() {
        assert_eq!(state.current_player(), None);
        return;
    }

    // Legal sets for both players, and whose turn it is.
    let legal = [brute.legal(0), brute.legal(1)];
    let turn = brute.turn(to_move);
    assert_eq!(state.current_player(), turn, "{}", ctx());
    let Some(p) = turn else {
        assert_eq!(state.ranks(), Some(vec![1.5, 1.5]));
        return;
    };
    assert_eq!(state.legal_actions(), legal[p], "{}", ctx());

    // Placements: test 3, flips, removals, wins.
    let mut actions = legal[p].clone();
    for _ in 0..moves.min(actions.len()) {
        let a = actions.swap_remove(rng.below(actions.len())) as usize;
        let Some(want) = brute_move(geo, &brute, p, a, CAP) else {
            continue;
        };
        let mut after = state.clone();
        after.apply_unchecked(a);
        let got = engine_after(&after);
        assert_eq!(got, want, "{p} places on {a}: {}", ctx());
        t.moves += 1;
        tally_move(cells, 0, &want, a, t);
    }
}

fn tally_move(cells: &[i8], kept: u64, after: &After, a: usize, t: &mut Tally) {
    let changed = (0..cells.len()).filter(|&c| c != a && cells[c] != after.cells[c]);
    let (mut flip, mut removal) = (false, false);
    // A stone newly kept counts as a removal from play.
    if after.kept & !kept != 0 {
        removal = true;
    }
    for c in changed {
        if after.cells[c] == 0 {
            removal = true;
        } else {
            flip = true;
        }
    }
    t.flips += usize::from(flip);
    t.removals += usize::from(removal);
    t.wins += usize::from(after.winner.is_some());
}

/// Random positions: stones at a random density, random colours.
fn random_positions(size: usize, count: usize, moves: usize, seed: u64) -> Tally {
    random_positions_in(Geo::new(size), count, moves, seed)
}

fn random_positions_in(geo: Geo, count: usize, moves: usize, seed: u64) -> Tally {
    let size = geo.cfg.size;
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    // Dense side-5 boards hold too many induced cycles to enumerate.
    let densest = if size >= 5 { 0.75 } else { 0.9 };
    for _ in 0..count {
        let density = 0.2 + (densest - 0.2) * rng.unit();
        let cells: Vec<i8> = (0..geo.n)
            .map(|_| {
                if rng.unit() < density {
                    1 + rng.below(2) as i8
                } else {
                    0
                }
            })
            .collect();
        let to_move = rng.below(2);
        check_position(&geo, &cells, to_move, moves, &mut rng, &mut t);
    }
    t
}

/// Random games played by the engine, every position and move checked.
fn random_games(size: usize, count: usize, seed: u64) -> Tally {
    random_games_in(Geo::new(size), count, seed)
}

/// The same under any options. Positions with kept stones (which `from_position` cannot
/// express) are checked move by move along the game only.
fn random_games_in(geo: Geo, count: usize, seed: u64) -> Tally {
    let size = geo.cfg.size;
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    let mut buf = Vec::new();
    for _ in 0..count {
        let mut state = State::new(geo.cfg.clone());
        while let Some(p) = state.current_player() {
            // The nominal mover makes `from_position` agree with the engine's turn order.
            let cells = state.cells().to_vec();
            let kept = engine_after(&state).kept;
            if kept == 0 {
                check_position(&geo, &cells, p, 2, &mut rng, &mut t);
            }
            let Some(brute) = Brute::with_kept(&geo, &cells, kept, 3000) else {
                state.apply_unchecked(state.random_action(&mut rng, &mut buf).expect("a move"));
                continue;
            };
            assert_eq!(state.legal_actions(), brute.legal(p));
            let a = state.random_action(&mut rng, &mut buf).expect("a move");
            let want = brute_move(&geo, &brute, p, a, 3000);
            state.apply_unchecked(a);
            if let Some(want) = want {
                assert_eq!(
                    engine_after(&state),
                    want,
                    "size {size}: {p} on {a} in {cells:?}"
                );
                t.moves += 1;
                tally_move(&cells, kept, &want, a, &mut t);
            }
        }
    }
    t
}

fn report(name: &str, t: &Tally) {
    println!("{name}: {t:?}");
}

#[test]
fn random_positions_match_the_definitions() {
    for (size, count, moves) in [(3, 3000, 6), (4, 3000, 4), (5, 1500, 3)] {
        let t = random_positions(size, count, moves, 11 + size as u64);
        report(&format!("positions size {size}"), &t);
        assert!(
            t.positions * 10 >= count * 9,
            "too many positions skipped: {t:?}"
        );
        assert!(t.mels > 0 && t.flips > 0 && t.removals > 0);
    }
}

#[test]
fn random_games_match_the_definitions() {
    for (size, count) in [(3, 300), (4, 150), (5, 60)] {
        let t = random_games(size, count, 5 + size as u64);
        report(&format!("games size {size}"), &t);
        assert!(t.flips > 0 && t.removals > 0 && t.wins > 0, "{t:?}");
    }
}

/// Both asides' options: random positions without the anti-blob rule, and random games under
/// each combination of the two flags.
#[test]
fn the_asides_options_match_the_definitions() {
    for size in [3, 4, 5] {
        let t = random_positions_in(Geo::with(size, false, true), 600, 4, 31 + size as u64);
        report(&format!("positions size {size} without anti-blob"), &t);
        assert!(t.positions * 10 >= 600 * 9, "too many skipped: {t:?}");
        for (anti_blob, remove) in [(false, true), (true, false), (false, false)] {
            let games = [0, 0, 0, 120, 60, 25][size];
            let t = random_games_in(Geo::with(size, anti_blob, remove), games, 41 + size as u64);
            report(
                &format!("games size {size} anti_blob={anti_blob} remove_surrounded={remove}"),
                &t,
            );
            assert!(t.moves > 0 && t.removals > 0 && t.wins > 0, "{t:?}");
        }
    }
}

/// The same checks at a larger scale: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn many_more_positions_and_games() {
    for size in [3, 4, 5] {
        let t = random_positions(size, 20_000, 4, 1000 + size as u64);
        report(&format!("positions size {size}"), &t);
        let t = random_games(size, 2_000, 2000 + size as u64);
        report(&format!("games size {size}"), &t);
    }
}
