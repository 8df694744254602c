//! The moves the solver tries from a board, in answer order, with the cheap
//! filters that need no play: the left move into a block (the neighbour's
//! right move gives the same board), repeated same-colour swaps, moves that
//! move none of the colours that must move, and the bound's verdict on the
//! swap (see [`Bound::allows`]).

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

/// One bit per cell of a column whose colour is in `colours` (bit c for
/// colour c); every block when `colours` holds every colour.
#[inline(always)]
fn cells_of(col: u32, colours: u16) -> u32 {
    let blocks = nonzero(col);
    if colours & ALL_COLOURS == ALL_COLOURS {
        return blocks;
    }
    let mut out = 0;
    let mut rest = colours & ALL_COLOURS;
    while rest != 0 {
        let c = rest.trailing_zeros();
        // Nibbles equal to c: zero after xor with c in every nibble.
        out |= !nonzero(col ^ (c * LOW)) & LOW;
        rest &= rest - 1;
    }
    out
}

/// Every colour, as bits 1..=10.
pub const ALL_COLOURS: u16 = 0x07FE;

/// A move the filters let through, with what the caller needs to judge it:
/// the colours of the moving block and of its neighbour (0 when empty), and
/// the two columns.
#[derive(Clone, Copy, Debug)]
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

/// Calls `f` on every move of `board` worth trying with `k` moves left, in
/// answer order, until it returns true; whether it did. A move is worth
/// trying when the bound allows it and, when the bound leaves no room for a
/// move that helps no colour, it moves a block of a colour in `must`.
#[inline(always)]
pub fn each_move(
    board: &Board,
    bound: &Bound,
    k: u32,
    reading: Reading,
    mut f: impl FnMut(Candidate) -> bool,
) -> bool {
    let must = bound.must_move(k);
    let raw = board.raw();
    let mut noop_tried = false;
    for x in 0..WIDTH {
        let col = raw[x];
        let wanted = cells_of(col, must);
        let right = if x + 1 < WIDTH {
            (wanted | cells_of(raw[x + 1], must)) & nonzero(col)
        } else {
            0
        };
        let left = if x > 0 { wanted & !nonzero(raw[x - 1]) } else { 0 };
        let mut rows = right | left;
        while rows != 0 {
            let bit = rows.trailing_zeros();
            rows &= rows - 1;
            let y = (bit / 4) as u8;
            let here = ((col >> bit) & 0xF) as u8;
            if right >> bit & 1 == 1 {
                let there = ((raw[x + 1] >> bit) & 0xF) as u8;
                let noop = there == here;
                // Every same-colour swap yields this very board: try one.
                let skip = noop && (!reading.count_noop || noop_tried);
                noop_tried |= noop;
                if !skip && bound.allows(k, here, there, x, x + 1) {
                    let mv = Move {
                        x: x as u8,
                        y,
                        dir: Dir::Right,
                    };
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
            }
            // A left move into a block equals the neighbour's right move.
            if left >> bit & 1 == 1 && bound.allows(k, here, 0, x, x - 1) {
                let mv = Move {
                    x: x as u8,
                    y,
                    dir: Dir::Left,
                };
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
    }
    false
}
