//! The solver's lower bound on the moves still needed, from the columns each
//! colour's blocks stand in (see [`Bound::of`] for the proof).
//!
//! A colour's blocks leave the board in groups, one group per removal pass,
//! and each group is a union of runs of three or more. So the columns the
//! blocks stand in when they go form a vector of a few possible shapes (a
//! removal vector); blocks change column only through swaps, one column per
//! swap. The table below holds, for every column vector of a colour with up
//! to [`TABLE_MAX`] blocks, how many single-column steps its blocks need
//! before they can all be gone.

use super::bound_table::{NEVER, POW8, TABLE_MAX, VECTORS};
use crate::puzzle::sim::{Board, MAX_COLOUR};

/// The displacement table ([`super::bound_table::displacement`]), as the
/// build script computed it: `build.rs` writes it to
/// `$OUT_DIR/displacement.bin`, one byte per board vector.
static DISPLACEMENT: &[u8; VECTORS] = include_bytes!(concat!(env!("OUT_DIR"), "/displacement.bin"));

/// What the column argument says about a board (see [`Bound::of`]), with what
/// it needs to judge a swap before it is played (see [`Bound::allows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Sum over colours of `D_c`, or `u32::MAX` when some colour can never go.
    pub sum: u32,
    /// Largest `D_c`.
    pub max: u32,
    /// Colours with `D_c = max > 0`, as bits (bit c for colour c).
    pub at_max: u16,
    /// Colours with 3 to [`TABLE_MAX`] blocks (those with a `D_c`), as bits.
    tracked: u16,
    /// Per colour, the column vector's index in the table.
    index: [u16; 16],
    /// Per colour, `D_c` (0 for untracked colours).
    d: [u8; 16],
}

impl Bound {
    /// The bound of a board. For each colour c with m blocks, `D_c` is:
    /// - never (the board is dead) when m is 1 or 2: runs need three;
    /// - for 3 <= m <= [`TABLE_MAX`], the fewest single-column steps that
    ///   bring its blocks' column vector to a removal vector
    ///   ([`removal_vectors`](super::bound_table::removal_vectors));
    /// - 0 for more blocks (not looked at).
    ///
    /// Proof that at least `max D_c` and `ceil(sum D_c / 2)` moves remain:
    /// give each block of c the column it stands in when it is removed. In
    /// each removal pass the removed blocks of c are a union of runs of three
    /// or more, so their column vector is a single-pass vector
    /// ([`single_pass_vectors`](super::bound_table::single_pass_vectors)), and every pass removes three or more of c;
    /// so the vector of all removal columns is a sum of single-pass vectors
    /// of three or more blocks each, with m blocks in all: a removal vector.
    /// Blocks change column only by a swap, which moves one block of at most
    /// two colours one column each (a swap of equal colours changes no
    /// colour's columns); falling and removal change no column. So colour c
    /// needs at least as many swaps that move it as the fewest one-column
    /// steps from its vector to a removal vector, which is `D_c` (the search
    /// in `distances` counts exactly those steps), and one move serves at
    /// most two colours.
    ///
    /// The board may also be one whose blocks float (right after a swap): the
    /// argument only looks at columns.
    #[inline]
    pub fn of(board: &Board) -> Bound {
        let mut index = [0u16; 16];
        let mut count = [0u8; 16];
        for (x, &col) in board.raw().iter().enumerate() {
            let mut v = col;
            while v != 0 {
                let c = (v & 0xF) as usize;
                index[c] += POW8[x];
                count[c] += 1;
                v >>= 4;
            }
        }
        let table = DISPLACEMENT;
        let mut b = Bound {
            sum: 0,
            max: 0,
            at_max: 0,
            tracked: 0,
            index,
            d: [0; 16],
        };
        for c in 1..=MAX_COLOUR as usize {
            if count[c] == 0 || count[c] > TABLE_MAX {
                continue;
            }
            let d = table[index[c] as usize];
            if d == NEVER {
                b.sum = u32::MAX;
                b.max = u32::MAX;
                return b;
            }
            b.tracked |= 1 << c;
            b.d[c] = d;
        }
        b.total();
        b
    }

    /// Sets `sum`, `max` and `at_max` from `d`.
    #[inline]
    fn total(&mut self) {
        (self.sum, self.max, self.at_max) = (0, 0, 0);
        let mut rest = self.tracked;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let d = self.d[c] as u32;
            self.sum += d;
            if d > 0 {
                if d > self.max {
                    self.max = d;
                    self.at_max = 0;
                }
                if d == self.max {
                    self.at_max |= 1 << c;
                }
            }
        }
    }

    /// The bound of the board after a swap that removed nothing: the block
    /// of colour `a` went from column `from` to `to`, the neighbour of colour
    /// `b` (0 for none) the other way. Equal to [`Bound::of`] on that board,
    /// which has the same blocks in the same columns but these two.
    #[inline]
    pub fn after(&self, a: u8, b: u8, from: usize, to: usize) -> Bound {
        let mut next = *self;
        if a == b {
            return next;
        }
        let table = DISPLACEMENT;
        for (c, f, t) in [(a as usize, from, to), (b as usize, to, from)] {
            if c != 0 {
                next.index[c] = next.index[c] - POW8[f] + POW8[t];
                if self.tracked >> c & 1 == 1 {
                    next.d[c] = table[next.index[c] as usize];
                }
            }
        }
        next.total();
        next
    }

    /// Colours with 3 to [`TABLE_MAX`] blocks, as bits: those with a `D_c`.
    #[inline]
    pub fn tracked(&self) -> u16 {
        self.tracked
    }

    /// Whether colour `c` has a block in column `x`.
    #[inline]
    pub fn present(&self, c: usize, x: usize) -> bool {
        (self.index[c] >> (3 * x)) & 7 != 0
    }

    /// The change of `D_c` when one block of tracked colour `c` moves from
    /// column `from` (where it has one) to `to`, or `None` when `D_c` would
    /// then exceed `left`. `table` is [`Bound::table`]. (A settled board has
    /// at most five blocks of one colour in a column, none three in a row,
    /// so the column's count stays below 8 and the base-8 index is exact.)
    #[inline]
    pub fn step(&self, table: &[u8], c: usize, from: usize, to: usize, left: u32) -> Option<i32> {
        let d = table[(self.index[c] - POW8[from] + POW8[to]) as usize];
        (d as u32 <= left).then(|| d as i32 - self.d[c] as i32)
    }

    /// The displacement table, for [`Bound::step`].
    #[inline]
    pub fn table() -> &'static [u8] {
        DISPLACEMENT
    }

    /// `D_c` for a colour: the fewest swaps that must still move one of its
    /// blocks (0 for a colour that is absent or has more than
    /// [`TABLE_MAX`] blocks; `u32::MAX` when the board is dead).
    pub fn displacement(&self, colour: u8) -> u32 {
        if self.sum == u32::MAX {
            u32::MAX
        } else {
            self.d[colour as usize & 0xF] as u32
        }
    }

    /// The fewest moves that can empty the board.
    #[inline]
    pub fn moves(&self) -> u32 {
        self.max.max(self.sum.div_ceil(2))
    }

    /// Whether the swap of the block of colour `a` at column `from` with its
    /// neighbour of colour `b` (0 when empty) at column `to` can be the first
    /// of `k` moves that empty the board, for a board whose bound allows `k`
    /// moves. It must leave a board whose own bound allows `k - 1`:
    /// - right after the swap (before anything falls or goes), only `D_a`
    ///   and `D_b` change, and they are table look-ups;
    /// - what follows cannot lower the bound. Falling changes no column. A
    ///   pass that removes a group `p` (a single-pass vector) from a colour's
    ///   vector `v = w + p` gives `D(w) >= D(v)`: when `w` has 1 or 2 blocks
    ///   `D(w)` is never; when `v` has more than [`TABLE_MAX`] blocks `D(v)`
    ///   counted 0; otherwise a removal vector `t` nearest `w` gives the
    ///   removal vector `t + p` for `v`, and moving `v = w + p` to `t + p`
    ///   takes no more steps than moving `w` to `t`. A colour that goes
    ///   entirely was in a removal vector, with `D = 0`, already.
    #[inline]
    pub fn allows(&self, k: u32, a: u8, b: u8, from: usize, to: usize) -> bool {
        let left = k - 1;
        if a == b {
            // Nothing changes columns: the same bound, one move fewer.
            return self.max <= left && self.sum <= 2 * left;
        }
        let moved: u16 = (1 << a) | ((1 << b) & !1);
        // A colour at D_c = k that does not move keeps D_c > k - 1.
        if self.max > left && self.at_max & !moved != 0 {
            return false;
        }
        let table = DISPLACEMENT;
        let mut sum = self.sum;
        for (c, f, t) in [(a as usize, from, to), (b as usize, to, from)] {
            if self.tracked >> c & 1 == 1 {
                let d = table[(self.index[c] - POW8[f] + POW8[t]) as usize] as u32;
                if d > left {
                    return false;
                }
                sum = sum - self.d[c] as u32 + d;
            }
        }
        sum <= 2 * left
    }
}

#[cfg(test)]
mod tests {
    use super::super::bound_table::*;
    use super::*;
    use crate::puzzle::sim::{HEIGHT, WIDTH};

    #[test]
    fn the_table_the_binary_carries_is_the_one_the_functions_build() {
        assert!(DISPLACEMENT[..] == displacement()[..]);
    }

    /// The board index of per-column counts (each at most 7).
    fn index_of(v: &Vector) -> usize {
        v.iter().zip(POW8).map(|(&k, p)| k as usize * p as usize).sum()
    }

    /// The column vector of a cell mask (bit `HEIGHT * x + y` for (x, y)).
    fn columns_of(mask: u64) -> Vector {
        std::array::from_fn(|x| ((mask >> (HEIGHT * x)) & 0x7F).count_ones() as u8)
    }

    fn listed(max: u32) -> Vec<bool> {
        let mut listed = vec![false; WIDE];
        for v in single_pass_vectors().iter().filter(|v| total(v) <= max) {
            listed[wide_index(v)] = true;
        }
        listed
    }

    /// Every set of at most seven cells in which each cell lies in a run of
    /// three or more inside the set, by plain enumeration of cell sets: its
    /// column vectors must be exactly those of [`single_pass_vectors`].
    #[test]
    fn single_passes_are_every_set_of_cells_in_runs() {
        let cells = WIDTH * HEIGHT;
        let at = |mask: u64, x: isize, y: isize| {
            (0..WIDTH as isize).contains(&x)
                && (0..HEIGHT as isize).contains(&y)
                && mask >> (HEIGHT as isize * x + y) & 1 == 1
        };
        let in_run = |mask: u64, x: isize, y: isize| {
            [-2, -1, 0]
                .iter()
                .any(|&d| (0..3).all(|i| at(mask, x + d + i, y)) || (0..3).all(|i| at(mask, x, y + d + i)))
        };
        let mut found = vec![false; WIDE];
        let mut stack = vec![(0u64, 0usize)];
        while let Some((mask, next)) = stack.pop() {
            if mask.count_ones() >= 3
                && (0..cells)
                    .all(|i| mask >> i & 1 == 0 || in_run(mask, (i / HEIGHT) as isize, (i % HEIGHT) as isize))
            {
                found[wide_index(&columns_of(mask))] = true;
            }
            if mask.count_ones() < 7 {
                for i in next..cells {
                    stack.push((mask | 1 << i, i + 1));
                }
            }
        }
        assert!(
            found == listed(7),
            "single-pass vectors differ from the enumeration"
        );
    }

    /// Unions of runs (each run adding a cell), up to nine cells: their
    /// column vectors are those of [`single_pass_vectors`].
    #[test]
    fn single_passes_are_every_union_of_runs() {
        let cell = |x: usize, y: usize| 1u64 << (HEIGHT * x + y);
        let mut runs: Vec<u64> = Vec::new();
        for len in 3..=WIDTH {
            for y in 0..HEIGHT {
                for x0 in 0..=WIDTH - len {
                    runs.push((x0..x0 + len).map(|x| cell(x, y)).sum());
                }
            }
        }
        for len in 3..=HEIGHT {
            for x in 0..WIDTH {
                for y0 in 0..=HEIGHT - len {
                    runs.push((y0..y0 + len).map(|y| cell(x, y)).sum());
                }
            }
        }
        fn unions(runs: &[u64], mask: u64, found: &mut [bool]) {
            for (j, &r) in runs.iter().enumerate() {
                let next = mask | r;
                if next != mask && next.count_ones() <= 9 {
                    found[wide_index(&columns_of(next))] = true;
                    unions(&runs[j + 1..], next, found);
                }
            }
        }
        let mut found = vec![false; WIDE];
        unions(&runs, 0, &mut found);
        assert!(
            found == listed(9),
            "single-pass vectors differ from unions of runs"
        );
    }

    #[test]
    fn displacements_of_some_colours() {
        let d = |v: Vector| DISPLACEMENT[index_of(&v)];
        // Lines and a T of five are ready; two blocks never go.
        assert_eq!(d([3, 0, 0, 0, 0]), 0);
        assert_eq!(d([1, 1, 1, 0, 0]), 0);
        assert_eq!(d([1, 3, 1, 0, 0]), 0);
        assert_eq!(d([2, 0, 0, 0, 0]), NEVER);
        assert_eq!(d([1, 0, 1, 0, 1]), 2);
        // Six blocks: two lines of three, or three twos in a row. 2,1,1,1,1
        // is no union of runs, nor two lines; one step gives 3,0,1,1,1.
        assert_eq!(d([2, 2, 2, 0, 0]), 0);
        assert_eq!(d([0, 3, 0, 3, 0]), 0);
        assert_eq!(d([2, 1, 1, 1, 1]), 1);
        // Eight blocks: two vertical passes of four; 2,2,0,2,2 has no run
        // across the empty middle and needs blocks moved into it.
        assert_eq!(d([4, 4, 0, 0, 0]), 0);
        assert_eq!(d([2, 2, 0, 2, 2]), 3);
    }

    /// The breadth-first search gives, for every board vector, the smallest
    /// earth mover's distance (on a line: the sum of the prefix differences)
    /// to a removal vector with as many blocks.
    #[test]
    fn displacement_is_the_distance_to_the_nearest_removal_vector() {
        let removable = removal_vectors(&single_pass_vectors());
        let wide =
            |i: usize| -> Vector { std::array::from_fn(|x| (i / WIDE_BASE.pow(x as u32) % WIDE_BASE) as u8) };
        let targets: Vec<Vector> = (0..WIDE).filter(|&i| removable[i]).map(wide).collect();
        let emd = |a: &Vector, b: &Vector| {
            let (mut pa, mut pb, mut d) = (0i32, 0i32, 0u32);
            for x in 0..WIDTH {
                pa += a[x] as i32;
                pb += b[x] as i32;
                d += pa.abs_diff(pb);
            }
            d
        };
        for i in (0..VECTORS).step_by(7) {
            let v = counts_of(i);
            if total(&v) > TABLE_MAX as u32 {
                continue;
            }
            let best = targets
                .iter()
                .filter(|t| total(t) == total(&v))
                .map(|t| emd(&v, t))
                .min()
                .map_or(NEVER, |d| d as u8);
            assert_eq!(DISPLACEMENT[i], best, "{v:?}");
        }
    }
}
