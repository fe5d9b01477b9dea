//! Criterion benchmarks of the hot shared algorithms: gap and hull holdings, a player's whole
//! territory, and the largest groups by flood fill. Loop detection (Subsume) is added beside them.

use criterion::{criterion_group, criterion_main, Criterion};
use stonefield::algo::bits::{Bits, NeighborMasks};
use stonefield::algo::groups::largest_components;
use stonefield::algo::hexgrid::HexGrid;
use stonefield::algo::loops;
use stonefield::algo::territory::{TerritoryKind, TerritoryMasks};
use stonefield::algo::FloodScratch;
use stonefield::board::{Board, Relation};
use stonefield::rng::Rng;

/// A random set of about a third of the sites.
fn random_stones<const K: usize>(n: usize, rng: &mut Rng) -> Bits<K> {
    let mut b = Bits::<K>::default();
    for s in 0..n {
        if rng.below(3) == 0 {
            b.insert(s);
        }
    }
    b
}

fn territory(c: &mut Criterion) {
    let board = Board::hex_cells(4);
    let masks = TerritoryMasks::<1>::new(&board).expect("hex4 fits one word");
    let nb = NeighborMasks::<1>::new(&board, Relation::Orthogonal).expect("fits");
    let mut rng = Rng::new(3);
    let sets: Vec<Bits<1>> = (0..64).map(|_| random_stones::<1>(37, &mut rng)).collect();
    // One connected group from each set: the component of its lowest stone.
    let groups: Vec<Bits<1>> = sets
        .iter()
        .map(|s| s.lowest().map_or(*s, |x| nb.component(x, *s).0))
        .collect();
    let mut i = 0;
    c.bench_function("gap holdings of one group (hex4)", |b| {
        b.iter(|| {
            i = (i + 1) % groups.len();
            masks.gap(groups[i])
        })
    });
    c.bench_function("hull holdings of one group (hex4)", |b| {
        b.iter(|| {
            i = (i + 1) % groups.len();
            masks.hull(groups[i])
        })
    });
    for kind in [TerritoryKind::Gap, TerritoryKind::Hull] {
        c.bench_function(&format!("territory of a player, {kind:?} (hex4)"), |b| {
            b.iter(|| {
                i = (i + 1) % sets.len();
                masks.territory(kind, sets[i])
            })
        });
    }
}

fn components(c: &mut Criterion) {
    let board = Board::hex_cells(6);
    let mut rng = Rng::new(5);
    let cells: Vec<i8> = (0..board.num_sites()).map(|_| rng.below(3) as i8).collect();
    let mut scratch = FloodScratch::default();
    let mut out = [0; 2];
    c.bench_function("largest group of each colour (hex6)", |b| {
        b.iter(|| {
            largest_components(&board, Relation::Orthogonal, &cells, &mut scratch, &mut out);
            out
        })
    });
}

/// Subsume's loop tests on a size-6 board with a ring of six stones around the centre and random
/// stones elsewhere: cells surrounded by a loop (test 1) and a group's maximally encompassing loop
/// (test 2).
fn loop_tests(c: &mut Criterion) {
    let board = Board::hex_cells(6);
    let grid = HexGrid::new(&board);
    let mut rng = Rng::new(11);
    let mut cells: Vec<i8> = (0..board.num_sites())
        .map(|_| {
            if rng.below(4) == 0 {
                1 + rng.below(2) as i8
            } else {
                0
            }
        })
        .collect();
    let centre = board.num_sites() / 2;
    cells[centre] = 0;
    let ring: Vec<usize> = board.orth(centre).iter().map(|&t| t as usize).collect();
    for &t in &ring {
        cells[t] = 1;
    }
    c.bench_function("surrounded cells (subsume size 6)", |b| {
        b.iter(|| loops::surrounded(&board, &cells))
    });
    c.bench_function("MEL of a group (subsume size 6)", |b| {
        b.iter(|| loops::mel_of_group(&grid, &cells, ring[0]))
    });
}

criterion_group!(benches, territory, components, loop_tests);
criterion_main!(benches);
