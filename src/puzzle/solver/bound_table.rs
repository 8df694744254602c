//! The solver's displacement table, built: for every column vector of one
//! colour, the fewest single-column steps to a vector its blocks could all
//! leave the board from (`bound.rs` says why that bounds the moves left).
//!
//! Plain functions of the board's size and of nothing else in the crate, so
//! that the build script compiles this file too (`build.rs`, with its own
//! `crate::puzzle::sim` holding the two sizes) and writes the table into the
//! binary: built at each start it cost every `check` and `solve` 1.5 ms in
//! a release build and 15 ms unoptimised. The unit tests in `bound.rs` check
//! these functions against plain enumerations, and the table the binary
//! carries against [`displacement`].

use crate::puzzle::sim::{HEIGHT, WIDTH};
use std::collections::{HashSet, VecDeque};

/// Marks "no removal vector can be reached": the colour can never leave.
pub const NEVER: u8 = u8::MAX;

/// Most blocks of one colour the table covers; a colour with more blocks
/// counts 0.
pub const TABLE_MAX: u8 = 10;

/// A colour's blocks per column.
pub type Vector = [u8; WIDTH];

/// On the board a column holds at most 7 blocks, so the table indexes a
/// vector in base 8, `POW8[x]` per block in column `x`.
pub const POW8: [u16; WIDTH] = [1, 8, 64, 512, 4096];

/// Number of board vectors (each entry 0..=7).
pub const VECTORS: usize = 8usize.pow(WIDTH as u32);

/// Removal vectors may hold more than 7 in a column (blocks removed there in
/// several passes), up to [`TABLE_MAX`]: while the table is built, vectors
/// are indexed in base `WIDE_BASE`.
pub const WIDE_BASE: usize = TABLE_MAX as usize + 1;

/// Number of wide vectors.
pub const WIDE: usize = WIDE_BASE.pow(WIDTH as u32);

/// For every board vector of one colour with at most [`TABLE_MAX`] blocks
/// (index: per-column counts in base 8): the fewest single-column block
/// steps to a removal vector ([`removal_vectors`]), or [`NEVER`]. The
/// build script computes it once and the binary carries it
/// (`bound::DISPLACEMENT`).
pub fn displacement() -> Vec<u8> {
    let dist = distances(&removal_vectors(&single_pass_vectors()));
    (0..VECTORS)
        .map(|i| {
            let v = counts_of(i);
            if total(&v) <= TABLE_MAX as u32 {
                dist[wide_index(&v)]
            } else {
                0
            }
        })
        .collect()
}

/// The per-column counts of a board vector index.
pub fn counts_of(idx: usize) -> Vector {
    std::array::from_fn(|x| (idx / POW8[x] as usize % 8) as u8)
}

/// The wide index of per-column counts (each at most [`TABLE_MAX`]).
pub fn wide_index(v: &Vector) -> usize {
    v.iter().rev().fold(0, |i, &k| i * WIDE_BASE + k as usize)
}

/// Blocks in a vector.
pub fn total(v: &Vector) -> u32 {
    v.iter().map(|&k| k as u32).sum()
}

/// The column vectors of the groups one removal pass can take from one
/// colour, with 3 to [`TABLE_MAX`] blocks: the column vectors of the unions
/// of runs of three or more cells.
///
/// Such a union, row by row: a row holds at most one horizontal run (two
/// would need seven columns). Column by column: with `H_x` the rows whose
/// horizontal run crosses column `x`, the column holds `H_x` and the union
/// of its vertical runs (each three or more consecutive rows). With no
/// vertical run that is `|H_x|` cells; with one, at least `a_x = |H_x| + 3 -
/// (most rows of H_x in three consecutive rows)` (one run of three placed
/// best), and every count from `a_x` to 7, since a vertical run can grow a
/// row at a time until it fills the column. Columns choose their vertical
/// runs independently, so the vectors are, over every choice of horizontal
/// runs (at most one per row, and at most `TABLE_MAX / 3` of them), every
/// combination of per-column counts from those sets. The unit tests check
/// this against plain enumerations of cell sets and of unions of runs.
pub fn single_pass_vectors() -> Vec<Vector> {
    let mut choices = HashSet::new();
    horizontal_runs(0, [0; WIDTH], 0, &mut choices);
    let mut seen = vec![false; WIDE];
    let mut out = Vec::new();
    for choice in choices {
        columns(&choice, 0, [0; WIDTH], 0, &mut |v| {
            let i = wide_index(v);
            if !seen[i] {
                seen[i] = true;
                out.push(*v);
            }
        });
    }
    out
}

/// Per column, the counts a pass may leave there given the horizontal runs
/// crossing it: `(h, a)` for "h, or any count from a to 7".
type ColumnCounts = [(u8, u8); WIDTH];

/// Every choice of horizontal runs in rows `from..` added to `rows` (per
/// column, a bit per row crossed), `cells` cells so far, as the column
/// counts it allows (many choices allow the same).
fn horizontal_runs(from: usize, rows: [u8; WIDTH], cells: u32, out: &mut HashSet<ColumnCounts>) {
    out.insert(std::array::from_fn(|x| {
        let h = rows[x].count_ones() as u8;
        let best = (0..=HEIGHT - 3)
            .map(|y| (rows[x] >> y & 0b111).count_ones() as u8)
            .max()
            .unwrap_or(0);
        (h, (h + 3 - best).max(h + 1))
    }));
    for y in from..HEIGHT {
        for len in 3..=WIDTH {
            if cells + len as u32 > TABLE_MAX as u32 {
                continue;
            }
            for x0 in 0..=WIDTH - len {
                let mut next = rows;
                for r in &mut next[x0..x0 + len] {
                    *r |= 1 << y;
                }
                horizontal_runs(y + 1, next, cells + len as u32, out);
            }
        }
    }
}

/// Every vector whose columns `x..` take a count allowed by `counts`, `v[..x]`
/// chosen with `cells` cells; those with 3 to [`TABLE_MAX`] cells go to
/// `emit`.
fn columns(counts: &ColumnCounts, x: usize, mut v: Vector, cells: u32, emit: &mut impl FnMut(&Vector)) {
    if x == WIDTH {
        if cells >= 3 {
            emit(&v);
        }
        return;
    }
    let (h, a) = counts[x];
    for k in std::iter::once(h).chain(a..=HEIGHT as u8) {
        if cells + k as u32 > TABLE_MAX as u32 {
            break;
        }
        v[x] = k;
        columns(counts, x + 1, v, cells + k as u32, emit);
    }
}

/// Whether a colour whose blocks stand in these columns when they go could
/// go, as a set over wide indices: every pass removes three or more blocks,
/// so the vector is a sum of single-pass vectors (at most [`TABLE_MAX`]
/// blocks in all).
pub fn removal_vectors(passes: &[Vector]) -> Vec<bool> {
    let mut ok = vec![false; WIDE];
    // by_total[m]: the removal vectors of m blocks, built from the smaller.
    let mut by_total: Vec<Vec<Vector>> = vec![Vec::new(); TABLE_MAX as usize + 1];
    for m in 3..=TABLE_MAX as u32 {
        let mut found = Vec::new();
        let mut add = |v: Vector, found: &mut Vec<Vector>| {
            let i = wide_index(&v);
            if !ok[i] {
                ok[i] = true;
                found.push(v);
            }
        };
        for p in passes {
            let size = total(p);
            if size == m {
                add(*p, &mut found);
            } else if size + 3 <= m {
                for w in &by_total[(m - size) as usize] {
                    add(std::array::from_fn(|x| w[x] + p[x]), &mut found);
                }
            }
        }
        by_total[m as usize] = found;
    }
    ok
}

/// Breadth-first search from every removal vector, one block moved one column
/// per step: the fewest steps from each wide vector to a removal vector with
/// the same number of blocks (steps keep the count), [`NEVER`] when none.
/// Columns are not capped at 7 here: removal vectors may exceed it, and a
/// block's steps are counted whatever the other blocks do.
pub fn distances(removable: &[bool]) -> Vec<u8> {
    let mut dist = vec![NEVER; WIDE];
    let mut queue = VecDeque::new();
    for (i, &ok) in removable.iter().enumerate() {
        if ok {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    let step: [usize; WIDTH] = std::array::from_fn(|x| WIDE_BASE.pow(x as u32));
    while let Some(i) = queue.pop_front() {
        for x in 0..WIDTH {
            if (i / step[x]).is_multiple_of(WIDE_BASE) {
                continue;
            }
            for to in [x.wrapping_sub(1), x + 1] {
                if to >= WIDTH {
                    continue;
                }
                // Counts stay below TABLE_MAX + 1: the total does not change.
                let j = i - step[x] + step[to];
                if dist[j] == NEVER {
                    dist[j] = dist[i].saturating_add(1).min(NEVER - 1);
                    queue.push_back(j);
                }
            }
        }
    }
    dist
}
