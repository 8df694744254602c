//! The board, moves and the settle loop, exactly as `RULES.md` states them.
//!
//! A board is five packed columns: column `x` is a `u32` whose nibble `y`
//! (bits `4y..4y+4`) holds the colour at `(x, y)`, 0 meaning empty. Seven rows
//! use 28 bits; the top nibble is always zero, which the run detection relies
//! on. Runs are found with SWAR nibble comparisons, so one settle pass is a few
//! dozen integer operations: the solver's speed rests on this.

use std::cmp::Ordering;
use std::fmt;

/// Number of columns (x = 0..4).
pub const WIDTH: usize = 5;
/// Number of rows (y = 0..6, bottom to top).
pub const HEIGHT: usize = 7;
/// Highest colour number; colours are 1..=MAX_COLOUR.
pub const MAX_COLOUR: u8 = 10;

/// Every column, as a dirty-column mask.
const ALL_COLUMNS: u32 = (1 << WIDTH) - 1;

/// Bit 0 of each of the seven nibbles of a column.
const LOW: u32 = 0x0111_1111;

/// One bit (bit 0 of the cell's nibble) per cell that is nonzero.
#[inline(always)]
fn nonzero_nibbles(v: u32) -> u32 {
    (v | (v >> 1) | (v >> 2) | (v >> 3)) & LOW
}

/// One bit (bit 0 of the cell's nibble) per cell that is zero.
#[inline(always)]
fn zero_nibbles(v: u32) -> u32 {
    !nonzero_nibbles(v) & LOW
}

/// Cells marked for removal: per column, bit `4y` set when `(x, y)` is marked.
pub type Marks = [u32; WIDTH];

/// A 5x7 Mayan board. Cheap to copy (20 bytes) and hashable, so the solver can
/// use it directly as a memo key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    cols: [u32; WIDTH],
}

/// Direction of a move: `g = 1` or `g = -1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Dir {
    /// `g = 1`.
    Right,
    /// `g = -1`.
    Left,
}

impl Dir {
    /// The `g` of the move as written in an answer.
    pub fn g(self) -> i8 {
        match self {
            Dir::Right => 1,
            Dir::Left => -1,
        }
    }
}

/// A move `x y g`. Moves order by x, then y, then g with 1 before -1, which is
/// the order `RULES.md` defines for comparing solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Column of the block that moves.
    pub x: u8,
    /// Row of the block that moves.
    pub y: u8,
    /// Which way it moves.
    pub dir: Dir,
}

impl Move {
    /// A move from its written form; `None` when a value is outside the board
    /// or `g` is not 1 or -1 (use [`Board::check_move`] for the reason).
    pub fn new(x: i64, y: i64, g: i64) -> Option<Move> {
        let dir = match g {
            1 => Dir::Right,
            -1 => Dir::Left,
            _ => return None,
        };
        if !(0..WIDTH as i64).contains(&x) || !(0..HEIGHT as i64).contains(&y) {
            return None;
        }
        Some(Move {
            x: x as u8,
            y: y as u8,
            dir,
        })
    }

    /// Column the block moves to (may be out of the board for an illegal move).
    pub fn target_x(self) -> i64 {
        self.x as i64 + self.dir.g() as i64
    }
}

impl Ord for Move {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.x, self.y, self.dir as u8).cmp(&(other.x, other.y, other.dir as u8))
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.x, self.y, self.dir.g())
    }
}

/// Why a text is not a move as [`Move`]'s `Display` writes it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a move `x y g` on the board")]
pub struct ParseMoveError(String);

/// Reads a move as `Display` writes it: `x y g`, blank-separated, with
/// values on the board and `g` 1 or -1.
impl std::str::FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let bad = || ParseMoveError(s.to_string());
        let mut it = s.split_ascii_whitespace().map(str::parse::<i64>);
        match (it.next(), it.next(), it.next(), it.next()) {
            (Some(Ok(x)), Some(Ok(y)), Some(Ok(g)), None) => Move::new(x, y, g).ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

/// Why a move is not legal on a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// x outside 0..=4.
    #[error("x = {0} is off the board (0..4)")]
    XOutOfRange(i64),
    /// y outside 0..=6.
    #[error("y = {0} is off the board (0..6)")]
    YOutOfRange(i64),
    /// g is neither 1 nor -1.
    #[error("g = {0} must be 1 or -1")]
    BadDirection(i64),
    /// The moving block would leave the board.
    #[error("x + g = {0} moves the block off the board")]
    OffEdge(i64),
    /// (x, y) holds no block.
    #[error("cell ({x}, {y}) is empty")]
    EmptyCell {
        /// Column.
        x: u8,
        /// Row.
        y: u8,
    },
    /// The board is empty, so no move is legal.
    #[error("the board is already empty, so no move is legal")]
    EmptyBoard,
    /// Under the `no-noop` reading a swap of two equal colours is not a move.
    #[error("cell ({x}, {y}) and its neighbour have the same colour (not a move under no-noop)")]
    NoOp {
        /// Column.
        x: u8,
        /// Row.
        y: u8,
    },
}

/// One pass of the settle loop, recorded for traces: the board after gravity
/// and the cells then marked for removal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CascadeStep {
    /// The board after gravity, before removal.
    pub board: Board,
    /// The cells removed in this pass.
    pub cleared: Marks,
}

/// A move played with every intermediate state kept, for `--trace` and reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTrace {
    /// The move.
    pub mv: Move,
    /// The board before the move.
    pub before: Board,
    /// The board right after the swap (blocks may float).
    pub swapped: Board,
    /// Each removal pass, in order; empty when the move removed nothing.
    pub steps: Vec<CascadeStep>,
    /// The settled board after the move.
    pub after: Board,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { cols: [0; WIDTH] };

    /// A board from its columns, each listed bottom to top. Returns `None`
    /// when a column is longer than 7 or a colour is outside 1..=10.
    pub fn from_columns<C: AsRef<[u8]>>(columns: &[C]) -> Option<Board> {
        if columns.len() > WIDTH {
            return None;
        }
        let mut b = Board::EMPTY;
        for (x, col) in columns.iter().enumerate() {
            let col = col.as_ref();
            if col.len() > HEIGHT {
                return None;
            }
            for (y, &c) in col.iter().enumerate() {
                if c == 0 || c > MAX_COLOUR {
                    return None;
                }
                b.set(x, y, c);
            }
        }
        Some(b)
    }

    /// The columns, bottom to top, as colour lists.
    pub fn columns(&self) -> Vec<Vec<u8>> {
        (0..WIDTH)
            .map(|x| (0..self.height(x)).map(|y| self.get(x, y)).collect())
            .collect()
    }

    /// The packed columns (nibble `y` of column `x` is the colour at (x, y)).
    #[inline]
    pub fn raw(&self) -> [u32; WIDTH] {
        self.cols
    }

    /// Colour at (x, y), 0 when empty.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> u8 {
        ((self.cols[x] >> (4 * y)) & 0xF) as u8
    }

    /// Sets the colour at (x, y) without settling (blocks may float).
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, c: u8) {
        let shift = 4 * y;
        self.cols[x] = (self.cols[x] & !(0xF << shift)) | ((c as u32) << shift);
    }

    /// Number of blocks in column x of a settled board (its stack height).
    #[inline]
    pub fn height(&self, x: usize) -> usize {
        (32 - self.cols[x].leading_zeros() as usize).div_ceil(4)
    }

    /// Whether no block is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cols.iter().all(|&c| c == 0)
    }

    /// Number of blocks on the board.
    #[inline]
    pub fn block_count(&self) -> u32 {
        self.cols.iter().map(|&c| nonzero_nibbles(c).count_ones()).sum()
    }

    /// How many blocks of each colour (index 0 unused).
    pub fn colour_counts(&self) -> [u8; MAX_COLOUR as usize + 1] {
        let mut counts = [0u8; MAX_COLOUR as usize + 1];
        for &c in &self.cols {
            let mut v = c;
            while v != 0 {
                counts[(v & 0xF) as usize] += 1;
                v >>= 4;
            }
        }
        counts[0] = 0;
        counts
    }

    /// Whether some colour has one or two blocks left. Blocks only leave the
    /// board three or more of one colour at a time, so such a board can never
    /// be emptied, whatever the moves.
    pub fn has_stranded_colour(&self) -> bool {
        self.colour_counts().iter().any(|&n| n == 1 || n == 2)
    }

    /// Whether some block has an empty cell below it.
    pub fn has_floating(&self) -> bool {
        self.cols.iter().any(|&c| !is_prefix(nonzero_nibbles(c)))
    }

    /// Every cell lying in a horizontal or vertical run of three or more equal
    /// colours, all marked at once (crosses, T shapes and long runs included).
    #[inline]
    pub fn find_runs(&self) -> Marks {
        self.find_runs_in(ALL_COLUMNS)
    }

    /// Like [`Board::find_runs`], but only runs that touch a column in `dirty`
    /// (bit x for column x). Exact when every run of the board touches a dirty
    /// column, which holds after a change to a run-free board: the settle loop
    /// uses it to look only where blocks moved.
    #[inline(always)]
    fn find_runs_in(&self, dirty: u32) -> Marks {
        let c = &self.cols;
        let mut m = [0u32; WIDTH];
        for x in 0..WIDTH {
            if dirty & (1 << x) == 0 {
                continue;
            }
            let v = c[x];
            // Nibble y equal to nibble y+1 and to nibble y+2; the zero top
            // nibble stops runs at the top of the board.
            let start = zero_nibbles(v ^ (v >> 4)) & zero_nibbles(v ^ (v >> 8)) & nonzero_nibbles(v);
            m[x] |= start | (start << 4) | (start << 8);
        }
        for x in 0..WIDTH - 2 {
            if dirty & (0b111 << x) == 0 {
                continue;
            }
            let r = zero_nibbles(c[x] ^ c[x + 1]) & zero_nibbles(c[x + 1] ^ c[x + 2]) & nonzero_nibbles(c[x]);
            m[x] |= r;
            m[x + 1] |= r;
            m[x + 2] |= r;
        }
        m
    }

    /// Whether the board holds a run of three or more anywhere.
    pub fn has_run(&self) -> bool {
        self.find_runs().iter().any(|&m| m != 0)
    }

    /// Drops the blocks of column x so none has an empty cell below it.
    #[inline]
    fn drop_column(&mut self, x: usize) {
        let v = self.cols[x];
        let nz = nonzero_nibbles(v);
        // Already a stack: nothing to do (the common case).
        if is_prefix(nz) {
            return;
        }
        let mut out = 0u32;
        let mut shift = 0;
        let mut rest = v;
        while rest != 0 {
            let cell = rest & 0xF;
            if cell != 0 {
                out |= cell << shift;
                shift += 4;
            }
            rest >>= 4;
        }
        self.cols[x] = out;
    }

    /// Gravity on every column.
    #[inline]
    pub fn apply_gravity(&mut self) {
        for x in 0..WIDTH {
            self.drop_column(x);
        }
    }

    /// The settle loop of `RULES.md`: gravity, mark every run, remove, and
    /// again until nothing is removed. `on_step` sees each removal pass (the
    /// board after gravity and the cells it removes); the solver passes a
    /// no-op closure, which compiles away.
    #[inline]
    pub fn settle_with(&mut self, on_step: impl FnMut(&Board, &Marks)) {
        self.settle_dirty(ALL_COLUMNS, on_step);
    }

    /// The settle loop, looking only at the columns in `dirty` in its first
    /// pass and at the columns that lost blocks in later ones. Exact when the
    /// other columns are stacks and hold no run among themselves: a run that
    /// survives a pass unmarked cannot exist, so every new run contains a block
    /// that moved, and blocks move only in dirty columns.
    #[inline(always)]
    fn settle_dirty(&mut self, mut dirty: u32, mut on_step: impl FnMut(&Board, &Marks)) {
        loop {
            for x in 0..WIDTH {
                if dirty & (1 << x) != 0 {
                    self.drop_column(x);
                }
            }
            let marks = self.find_runs_in(dirty);
            if marks.iter().all(|&m| m == 0) {
                return;
            }
            on_step(self, &marks);
            dirty = 0;
            for x in 0..WIDTH {
                if marks[x] != 0 {
                    self.cols[x] &= !(marks[x] * 0xF);
                    dirty |= 1 << x;
                }
            }
        }
    }

    /// Settles the board (see [`Board::settle_with`]).
    #[inline]
    pub fn settle(&mut self) {
        self.settle_with(|_, _| {});
    }

    /// Checks that `x y g` is legal here, under the literal rules when
    /// `count_noop` is true, or under `no-noop` (same-colour swaps are not
    /// moves) when false.
    pub fn check_move(&self, x: i64, y: i64, g: i64, count_noop: bool) -> Result<Move, IllegalMove> {
        if self.is_empty() {
            return Err(IllegalMove::EmptyBoard);
        }
        if !(0..WIDTH as i64).contains(&x) {
            return Err(IllegalMove::XOutOfRange(x));
        }
        if !(0..HEIGHT as i64).contains(&y) {
            return Err(IllegalMove::YOutOfRange(y));
        }
        let Some(mv) = Move::new(x, y, g) else {
            return Err(IllegalMove::BadDirection(g));
        };
        let tx = mv.target_x();
        if !(0..WIDTH as i64).contains(&tx) {
            return Err(IllegalMove::OffEdge(tx));
        }
        let (xu, yu) = (x as usize, y as usize);
        let here = self.get(xu, yu);
        if here == 0 {
            return Err(IllegalMove::EmptyCell { x: mv.x, y: mv.y });
        }
        if !count_noop && self.get(tx as usize, yu) == here {
            return Err(IllegalMove::NoOp { x: mv.x, y: mv.y });
        }
        Ok(mv)
    }

    /// Swaps the moving block with its neighbour, without settling.
    /// The move must be legal (see [`Board::check_move`]).
    #[inline]
    pub fn swap(&mut self, mv: Move) {
        let (x, y) = (mv.x as usize, mv.y as usize);
        let tx = mv.target_x() as usize;
        let a = self.get(x, y);
        let b = self.get(tx, y);
        self.set(x, y, b);
        self.set(tx, y, a);
    }

    /// Plays a legal move on a settled board: swap, then settle.
    #[inline(always)]
    pub fn play(&mut self, mv: Move) {
        self.play_with(mv, |_, _| {});
    }

    /// Plays a legal move on a settled board, showing each removal pass to
    /// `on_step`. Only the two columns of the swap can change before the first
    /// removal, so the settle loop starts with just those.
    #[inline(always)]
    fn play_with(&mut self, mv: Move, on_step: impl FnMut(&Board, &Marks)) {
        debug_assert!(
            !self.has_run() && !self.has_floating(),
            "play needs a settled board"
        );
        self.swap(mv);
        let dirty = (1 << mv.x) | (1 << mv.target_x());
        self.settle_dirty(dirty, on_step);
    }

    /// Plays a legal move on a settled board and records every intermediate
    /// state.
    pub fn play_traced(&self, mv: Move) -> MoveTrace {
        let before = *self;
        let mut b = *self;
        let mut swapped = b;
        swapped.swap(mv);
        let mut steps = Vec::new();
        b.play_with(mv, |board, marks| {
            steps.push(CascadeStep {
                board: *board,
                cleared: *marks,
            })
        });
        MoveTrace {
            mv,
            before,
            swapped,
            steps,
            after: b,
        }
    }

    /// Every legal move on this board in solution order (literal rules).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for x in 0..WIDTH {
            for y in 0..self.height(x) {
                for dir in [Dir::Right, Dir::Left] {
                    let mv = Move {
                        x: x as u8,
                        y: y as u8,
                        dir,
                    };
                    if (0..WIDTH as i64).contains(&mv.target_x()) {
                        out.push(mv);
                    }
                }
            }
        }
        out
    }
}

/// Whether the occupied-cell bits `nz` (one per nibble) form a prefix from
/// row 0, i.e. the column is a stack with nothing floating.
#[inline(always)]
fn is_prefix(nz: u32) -> bool {
    // Spread the nibble bits to full nibbles; a prefix of full nibbles plus one
    // is a power of two.
    let full = nz * 0xF;
    full & (full.wrapping_add(1)) == 0
}

/// Whether marks are set for (x, y).
pub fn is_marked(marks: &Marks, x: usize, y: usize) -> bool {
    marks[x] >> (4 * y) & 1 == 1
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board{:?}", self.columns())
    }
}
