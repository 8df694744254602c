//! The moves the solver tries from a board, in answer order, with the
//! filters that need no play: the left move into a block (the neighbour's
//! right move gives the same board), repeated same-colour swaps, and the
//! bound's verdict on the board right after the swap ([`Bound::allows`]).
//!
//! The bound's verdict is worked out for a whole column at once: for each
//! colour and column, a move one column left or right changes `D_c` by -1, 0
//! or +1 (or makes it too large), so the rows where a move is allowed are a
//! few ANDs and ORs of per-colour cell masks (one bit per cell, as in the
//! simulator's packed columns) instead of a look-up per move.

use super::Reading;
use super::bound::Bound;
use crate::puzzle::sim::{Board, Dir, Move, WIDTH};

/// Bit 0 of each of the seven nibbles of a column.
const LOW: u32 = 0x0111_1111;

/// One bit (bit 0 of the cell's nibble) per nonzero cell.
#[inline(always)]
fn nonzero(v: u32) -> u32 {
    (v | (v >> 1) | (v >> 2) | (v >> 3)) & LOW
}

/// One bit per cell of colour `c` (nonzero) in a column.
#[inline(always)]
fn cells_of(col: u32, c: u32) -> u32 {
    !nonzero(col ^ (c * LOW)) & LOW
}

/// A move the filters let through, with what the caller needs to judge it:
/// the colours of the moving block and of its neighbour (0 when empty), and
/// the two columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Colour of the moving block.
    pub a: u8,
    /// Colour of the neighbour it trades places with, 0 for an empty cell.
    pub b: u8,
    /// The moving block's column.
    pub from: usize,
    /// The column it moves to.
    pub to: usize,
}

/// Per column, the cells whose block would change its colour's `D_c` by -1
/// (`down`), +1 (`up`), or beyond the moves left (`over`) by moving one
/// column that way; every other block changes nothing.
#[derive(Clone, Copy, Default)]
struct Classes {
    down: [u32; WIDTH],
    up: [u32; WIDTH],
    over: [u32; WIDTH],
}

impl Classes {
    /// The cells of column `x` whose change is at most `most` (`blocks`:
    /// the cells that hold a block, or every cell for the neighbour's side,
    /// where an empty cell changes nothing).
    #[inline(always)]
    fn at_most(&self, x: usize, most: i32, cells: u32) -> u32 {
        let mut out = if most >= 0 {
            cells & !(self.down[x] | self.up[x] | self.over[x])
        } else {
            0
        };
        if most >= -1 {
            out |= self.down[x];
        }
        if most >= 1 {
            out |= self.up[x];
        }
        out
    }
}

/// Calls `f` on every move of `board` worth trying with `k` moves left, in
/// answer order, until it returns true; whether it did. A move is worth
/// trying when [`Bound::allows`] allows it (the unit tests check the two
/// agree), and it is not a left move into a block nor a same-colour swap
/// after the first.
///
/// The solver's innermost loop: its parts are inlined into it, so the split
/// costs nothing (`cargo build --release && target/release/mayan-judge
/// bench --only solver --boards 6`: the same nodes before and after).
#[inline(always)]
pub fn each_move(
    board: &Board,
    bound: &Bound,
    k: u32,
    reading: Reading,
    mut f: impl FnMut(Candidate) -> bool,
) -> bool {
    let left = k - 1;
    let raw = board.raw();
    // How much the sum of D_c may still grow with this move.
    let slack = 2 * left as i64 - bound.sum as i64;
    if slack < -2 {
        return false;
    }
    let slack = slack as i32;
    // Colours at D_c = k must all move, each one step closer.
    let must: u16 = if bound.max > left { bound.at_max } else { 0 };
    if must.count_ones() > 2 {
        return false;
    }
    // With room for two colours to grow and none near the limit, no move
    // can break the bound: every block changes nothing as far as it goes.
    let free = slack >= 2 && bound.max < left;
    let (right, leftward) = classify(&raw, bound, left, free);
    // A swap of equal colours changes nothing: allowed when the bound
    // allows one move fewer as it is.
    let noop_ok = reading.count_noop && slack >= 0 && bound.max <= left;
    let mut noop_tried = !noop_ok;
    for x in 0..WIDTH {
        let col = raw[x];
        let blocks = nonzero(col);
        let right_rows = if x + 1 < WIDTH {
            rows_to_the_right(&raw, x, (&right, &leftward), slack, must, &mut noop_tried)
        } else {
            0
        };
        let left_rows = if x > 0 {
            leftward.at_most(x, slack, blocks) & !nonzero(raw[x - 1]) & must_rows(must, col, 0, false)
        } else {
            0
        };
        let wanted = Wanted {
            board,
            bound,
            k,
            x,
            right_rows,
            left_rows,
        };
        if offer(&raw, &wanted, &mut f) {
            return true;
        }
    }
    false
}

/// The blocks of the colours the bound tracks, sorted by what a move right
/// (first) and left (second) does to their colour's `D_c`: none when `free`.
#[inline(always)]
fn classify(raw: &[u32; WIDTH], bound: &Bound, left: u32, free: bool) -> (Classes, Classes) {
    let (mut right, mut leftward) = (Classes::default(), Classes::default());
    let mut tracked = if free { 0 } else { bound.tracked() };
    let table = Bound::table();
    while tracked != 0 {
        let c = tracked.trailing_zeros() as usize;
        tracked &= tracked - 1;
        for x in 0..WIDTH {
            if !bound.present(c, x) {
                continue;
            }
            let cells = cells_of(raw[x], c as u32);
            for (to, classes) in [(x + 1, &mut right), (x.wrapping_sub(1), &mut leftward)] {
                if to < WIDTH {
                    match bound.step(table, c, x, to, left) {
                        None => classes.over[x] |= cells,
                        Some(-1) => classes.down[x] |= cells,
                        Some(1) => classes.up[x] |= cells,
                        Some(_) => {}
                    }
                }
            }
        }
    }
    (right, leftward)
}

/// The rows of column `x` (not the last) whose block may swap with column
/// `x + 1`'s cell: the two moved colours' changes within `slack`, every
/// colour of `must` moved, and only the first same-colour swap in answer
/// order (it stands for all; `noop_tried` records it).
#[inline(always)]
fn rows_to_the_right(
    raw: &[u32; WIDTH],
    x: usize,
    (right, leftward): (&Classes, &Classes),
    slack: i32,
    must: u16,
    noop_tried: &mut bool,
) -> u32 {
    let (col, next) = (raw[x], raw[x + 1]);
    let blocks = nonzero(col);
    let same = !nonzero(col ^ next) & blocks;
    let mut rows = 0;
    for i in -1..=1 {
        let here = match i {
            -1 => right.down[x],
            0 => blocks & !(right.down[x] | right.up[x] | right.over[x]),
            _ => right.up[x],
        };
        rows |= here & leftward.at_most(x + 1, slack - i, LOW);
    }
    rows &= !same;
    rows &= must_rows(must, col, next, true);
    if !*noop_tried && same != 0 {
        *noop_tried = true;
        rows |= same & same.wrapping_neg();
    }
    rows
}

/// The moves of one column worth trying: its rows to the right and to the
/// left, and what [`offer`] needs to check them in debug builds.
struct Wanted<'a> {
    board: &'a Board,
    bound: &'a Bound,
    k: u32,
    x: usize,
    right_rows: u32,
    left_rows: u32,
}

/// Calls `f` on the wanted moves of one column, bottom row first, right
/// before left; whether `f` returned true.
#[inline(always)]
fn offer(raw: &[u32; WIDTH], w: &Wanted, f: &mut impl FnMut(Candidate) -> bool) -> bool {
    let (x, col) = (w.x, raw[w.x]);
    let mut rows = w.right_rows | w.left_rows;
    while rows != 0 {
        let bit = rows.trailing_zeros();
        rows &= rows - 1;
        let y = (bit / 4) as u8;
        let here = ((col >> bit) & 0xF) as u8;
        if w.right_rows >> bit & 1 == 1 {
            let there = ((raw[x + 1] >> bit) & 0xF) as u8;
            let mv = Move {
                x: x as u8,
                y,
                dir: Dir::Right,
            };
            debug_assert!(
                w.bound.allows(w.k, here, there, x, x + 1),
                "{mv} on {:?}",
                w.board
            );
            if f(Candidate {
                mv,
                a: here,
                b: there,
                from: x,
                to: x + 1,
            }) {
                return true;
            }
        }
        if w.left_rows >> bit & 1 == 1 {
            let mv = Move {
                x: x as u8,
                y,
                dir: Dir::Left,
            };
            debug_assert!(w.bound.allows(w.k, here, 0, x, x - 1), "{mv} on {:?}", w.board);
            if f(Candidate {
                mv,
                a: here,
                b: 0,
                from: x,
                to: x - 1,
            }) {
                return true;
            }
        }
    }
    false
}

/// The rows where a swap of column `col` with `next` (a left move into an
/// empty cell when `swap` is false) moves every colour of `must`: all rows
/// when it is empty; for one colour, a row where either side has it; for two,
/// a row where one side has each (never for a move into an empty cell).
#[inline(always)]
fn must_rows(must: u16, col: u32, next: u32, swap: bool) -> u32 {
    if must == 0 {
        return LOW;
    }
    let c1 = must.trailing_zeros();
    let rest = must & (must - 1);
    if rest == 0 {
        return cells_of(col, c1) | if swap { cells_of(next, c1) } else { 0 };
    }
    if !swap {
        return 0;
    }
    let c2 = rest.trailing_zeros();
    (cells_of(col, c1) & cells_of(next, c2)) | (cells_of(col, c2) & cells_of(next, c1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::boards::{BoardGen, Shape};

    /// The moves in answer order, each judged by [`Bound::allows`] alone.
    fn plain(board: &Board, bound: &Bound, k: u32, reading: Reading) -> Vec<Candidate> {
        let mut out = Vec::new();
        let mut noop_tried = false;
        for x in 0..WIDTH {
            for y in 0..board.height(x) {
                let here = board.get(x, y);
                if x + 1 < WIDTH {
                    let there = board.get(x + 1, y);
                    let noop = there == here;
                    let skip = noop && (!reading.count_noop || noop_tried);
                    noop_tried |= noop;
                    if !skip && bound.allows(k, here, there, x, x + 1) {
                        let mv = Move {
                            x: x as u8,
                            y: y as u8,
                            dir: Dir::Right,
                        };
                        out.push(Candidate {
                            mv,
                            a: here,
                            b: there,
                            from: x,
                            to: x + 1,
                        });
                    }
                }
                if x > 0 && board.get(x - 1, y) == 0 && bound.allows(k, here, 0, x, x - 1) {
                    let mv = Move {
                        x: x as u8,
                        y: y as u8,
                        dir: Dir::Left,
                    };
                    out.push(Candidate {
                        mv,
                        a: here,
                        b: 0,
                        from: x,
                        to: x - 1,
                    });
                }
            }
        }
        out
    }

    /// On many boards, bounds and move counts, the column-at-once filter
    /// lets through exactly the moves that [`Bound::allows`] does.
    #[test]
    fn the_column_filter_agrees_with_the_bound_move_by_move() {
        let mut boards = BoardGen::new(17);
        let mut seen = 0;
        for i in 0..1000 {
            let shape = Shape {
                blocks: 6 + i % 30,
                colours: 1 + i % 6,
                min_three_each: true,
            };
            let Some(board) = boards.board(shape) else {
                continue;
            };
            let bound = Bound::of(&board);
            for k in 1..=5 {
                if bound.moves() > k {
                    continue;
                }
                for reading in [Reading::LITERAL, Reading::NO_NOOP] {
                    let mut fast = Vec::new();
                    each_move(&board, &bound, k, reading, |c| {
                        fast.push(c);
                        false
                    });
                    assert_eq!(
                        fast,
                        plain(&board, &bound, k, reading),
                        "{board:?} k={k} {reading}"
                    );
                    seen += fast.len();
                }
            }
        }
        assert!(seen > 3_000, "only {seen} moves compared");
    }
}
