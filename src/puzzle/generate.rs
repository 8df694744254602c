//! New tests from a seed: solvable puzzles built backwards from the empty
//! board, puzzles with no solution, and bottom-row puzzles (the contest's 30%
//! subtask). Deterministic for a seed; no I/O and no command-line knowledge.
//!
//! Random boards with more than about 18 blocks almost never have a solution,
//! so solvable puzzles are built backwards, one move at a time. Given a settled
//! board `S` that the remaining moves empty:
//! 1. insert one or two groups of one colour each (a line of 3 to 5 cells, or
//!    a T, L or cross of 5) into `S`, pushing the blocks above them up, so that
//!    the board `T` holds exactly the inserted runs and settles back to `S`;
//!    the second group may also sit on the first one's cells so that removing
//!    it makes the first one fall into place (a cascade);
//! 2. undo one swap: a board `P` with no run and nothing floating, and a move
//!    `m` that turns `P` into `T` (and so, after settling, into `S`).
//!
//! Repeated `n` times from the empty board, this gives a puzzle with a known
//! solution of exactly `n` moves. Every step is checked with the simulator
//! itself (`P` played with `m` gives `S`), so the construction is correct
//! whatever the candidate generation does. The stored answer is then the
//! solver's (the smallest solution, which may differ from the construction),
//! and, unless asked otherwise, the puzzle must give the same answer under
//! every reading of `RULES.md`.

use crate::puzzle::boards::{BoardGen, Shape as BoardShape};
use crate::puzzle::sim::{Board, Dir, HEIGHT, MAX_COLOUR, Marks, Move, Puzzle, WIDTH, is_marked};
use crate::puzzle::solver::{Answer, Reading, solve};
use rustc_hash::FxHashSet;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

/// Cells on the board.
pub const CAPACITY: u32 = (WIDTH * HEIGHT) as u32;

/// Most blocks one constructed move clears (two groups of five).
pub const MAX_PER_MOVE: u32 = 10;

/// Blocks on the bottom row at most (one per column).
pub const BOTTOM_MAX: u32 = WIDTH as u32;

/// The largest `n` that `gen` builds puzzles for: the contest's 5, and up to
/// 8 for speed tests of solutions (a package's `max_n` must allow it).
pub const MAX_N: u32 = 8;

/// Whole attempts (construction, solve, filters) per puzzle before giving up.
pub const MAX_ATTEMPTS: u32 = 2000;

/// Attempts with the same `n` and block count before choosing new ones.
const REPLAN_EVERY: u32 = 25;

/// Tries to build one backward step before the construction starts over.
const STEP_TRIES: u32 = 60;

/// An inclusive range of counts, such as `3..5` (3, 4 or 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// Smallest value.
    pub lo: u32,
    /// Largest value.
    pub hi: u32,
}

impl Span {
    /// A single value.
    pub const fn exactly(v: u32) -> Span {
        Span { lo: v, hi: v }
    }

    /// Whether `v` is in the range.
    pub fn contains(&self, v: u32) -> bool {
        (self.lo..=self.hi).contains(&v)
    }

    fn pick(&self, rng: &mut fastrand::Rng) -> u32 {
        rng.u32(self.lo..=self.hi)
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lo == self.hi {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "{}..{}", self.lo, self.hi)
        }
    }
}

/// A count or range that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a number or a range A..B (both ends included, A <= B)")]
pub struct SpanError(String);

/// Parses `A` or `A..B` (also `A..=B`; both ends included). A single number
/// gives `A..=A`, or `A..=single_hi` when `single_hi` is given.
fn parse_span(s: &str, single_hi: Option<u32>) -> Result<Span, SpanError> {
    let err = || SpanError(s.to_string());
    let num = |t: &str| t.trim().parse::<u32>().map_err(|_| err());
    let span = match s.split_once("..") {
        Some((a, b)) => Span {
            lo: num(a)?,
            hi: num(b.strip_prefix('=').unwrap_or(b))?,
        },
        None => {
            let v = num(s)?;
            Span {
                lo: v,
                hi: single_hi.unwrap_or(v).max(v),
            }
        }
    };
    if span.lo > span.hi {
        return Err(err());
    }
    Ok(span)
}

/// How many moves: `N` (exactly) or `A..B` (chosen per puzzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCounts(pub Span);

impl FromStr for MoveCounts {
    type Err = SpanError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_span(s, None).map(MoveCounts)
    }
}

/// How many blocks: `B` (at least B) or `A..B` (between A and B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockCounts(pub Span);

impl FromStr for BlockCounts {
    type Err = SpanError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_span(s, Some(CAPACITY)).map(BlockCounts)
    }
}

/// Blocks of each colour: `K` (exactly) or `A..B` (chosen per colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerColour(pub Span);

impl FromStr for PerColour {
    type Err = SpanError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_span(s, None).map(PerColour)
    }
}

/// What puzzles to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The number of moves, chosen per puzzle from this range.
    pub moves: Span,
    /// The number of blocks; `None` for the default of each kind (see
    /// [`Spec::block_range`]).
    pub blocks: Option<Span>,
    /// At most this many distinct colours (1..=10); exactly this many with
    /// `per_colour`.
    pub colours: u8,
    /// Blocks of each colour, chosen per colour from this range (for example
    /// five colours of six or seven blocks each); `None` for any.
    pub per_colour: Option<Span>,
    /// Only puzzles with no solution under any reading, every colour with at
    /// least three blocks (so the "stranded colour" pruning never applies).
    pub impossible: bool,
    /// Every block on the bottom row (at most five blocks), placed at random:
    /// solvable or not, as the filters allow.
    pub bottom: bool,
    /// Keep puzzles whose answer depends on the reading.
    pub allow_sensitive: bool,
    /// Largest `n` allowed (the contest's is 5).
    pub max_n: u32,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            moves: Span::exactly(5),
            blocks: None,
            colours: 5,
            per_colour: None,
            impossible: false,
            bottom: false,
            allow_sensitive: false,
            max_n: 5,
        }
    }
}

impl Spec {
    /// The blocks asked for, or the default: between 3n and 6n for built
    /// puzzles, 20..35 with no solution, 3..5 on the bottom row.
    pub fn block_range(&self, n: u32) -> Span {
        if let Some(b) = self.blocks {
            return b;
        }
        if self.bottom {
            Span {
                lo: 3,
                hi: BOTTOM_MAX,
            }
        } else if self.impossible {
            Span { lo: 20, hi: CAPACITY }
        } else {
            Span {
                lo: 3 * n,
                hi: (6 * n).min(CAPACITY),
            }
        }
    }

    /// Rejects a request no puzzle can meet, before any work.
    pub fn check(&self) -> Result<(), GenError> {
        if !(1..=MAX_COLOUR).contains(&self.colours) {
            return Err(GenError::Colours(self.colours));
        }
        if self.moves.lo == 0 || self.moves.hi > self.max_n {
            return Err(GenError::MoveCount {
                asked: self.moves,
                max: self.max_n,
            });
        }
        if let Some(each) = self.per_colour {
            self.check_per_colour(each)?;
        }
        if let Some(b) = self.blocks {
            if b.lo > CAPACITY {
                return Err(GenError::Unmeetable(format!(
                    "the board holds {CAPACITY} blocks, but at least {} were asked for",
                    b.lo
                )));
            }
            if self.bottom && b.lo > BOTTOM_MAX {
                return Err(GenError::Unmeetable(format!(
                    "a board with every block on the bottom row holds at most {BOTTOM_MAX} blocks, \
                     but at least {} were asked for",
                    b.lo
                )));
            }
            if (self.impossible || !self.bottom) && b.hi < 3 {
                return Err(GenError::Unmeetable(format!(
                    "{} needs at least 3 blocks, but at most {} were asked for",
                    if self.impossible {
                        "a puzzle whose every colour has three blocks"
                    } else {
                        "a solvable puzzle"
                    },
                    b.hi
                )));
            }
            if !self.impossible && !self.bottom && b.lo > MAX_PER_MOVE * self.moves.hi {
                return Err(GenError::Unmeetable(format!(
                    "{} moves clear at most {} blocks in built puzzles ({MAX_PER_MOVE} a move), \
                     but at least {} were asked for",
                    self.moves.hi,
                    MAX_PER_MOVE * self.moves.hi,
                    b.lo
                )));
            }
        }
        Ok(())
    }
}

impl Spec {
    /// Rejects a per-colour request no puzzle can meet.
    fn check_per_colour(&self, each: Span) -> Result<(), GenError> {
        let colours = self.colours as u32;
        let unmeetable = |why: String| Err(GenError::Unmeetable(why));
        if self.bottom {
            return unmeetable("--per-colour does not apply to bottom-row boards (at most 5 blocks)".into());
        }
        if each.lo < 3 {
            return unmeetable(format!(
                "a colour with {} blocks can never leave the board: blocks per colour must be at least 3",
                each.lo
            ));
        }
        if colours * each.lo > CAPACITY {
            return unmeetable(format!(
                "{colours} colours of at least {} blocks need {} cells, but the board has {CAPACITY}",
                each.lo,
                colours * each.lo
            ));
        }
        if !self.impossible && colours * each.lo > MAX_PER_MOVE * self.moves.hi {
            return unmeetable(format!(
                "{} moves clear at most {} blocks in built puzzles ({MAX_PER_MOVE} a move), but {colours} \
                 colours of at least {} blocks make {}",
                self.moves.hi,
                MAX_PER_MOVE * self.moves.hi,
                each.lo,
                colours * each.lo
            ));
        }
        if let Some(b) = self.blocks
            && (colours * each.lo > b.hi || colours * each.hi < b.lo)
        {
            return unmeetable(format!(
                "{colours} colours of {each} blocks make {}..{} blocks, outside --blocks {b}",
                colours * each.lo,
                colours * each.hi
            ));
        }
        Ok(())
    }
}

/// Why no puzzle can be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// Colours outside 1..=10.
    #[error("the number of colours must be 1..{MAX_COLOUR}, got {0}")]
    Colours(u8),
    /// `n` outside 1..=max.
    #[error("n must be between 1 and {max}, got {asked}")]
    MoveCount {
        /// What was asked for.
        asked: Span,
        /// The largest allowed.
        max: u32,
    },
    /// A request no board can meet.
    #[error("{0}")]
    Unmeetable(String),
    /// No puzzle passed within the bounded number of attempts.
    #[error("gave up after {attempts} attempts ({detail})")]
    GaveUp {
        /// Attempts made.
        attempts: u32,
        /// What went wrong how often.
        detail: String,
    },
    /// The solver calls a built puzzle impossible: a bug in the solver or
    /// the simulator, never in the request.
    #[error(
        "the solver finds no solution for a puzzle built with one (a solver bug): puzzle {puzzle:?}, moves {moves}"
    )]
    SolverMissed {
        /// The puzzle, in the input format.
        puzzle: String,
        /// The construction's moves.
        moves: String,
    },
}

/// One generated test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The solver's answer under the literal rules.
    pub answer: Answer,
    /// The moves the puzzle was built with (built puzzles only), in playing
    /// order; the answer may be a smaller solution.
    pub construction: Option<Vec<Move>>,
}

impl Generated {
    /// The answer file's text: the smallest solution, or `-1`.
    pub fn answer_text(&self) -> String {
        self.answer.to_text()
    }
}

/// A puzzle built backwards with the moves that solve it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Construction {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Exactly `puzzle.n` moves that empty the board, in playing order.
    pub moves: Vec<Move>,
}

/// Why attempts failed, for the give-up message.
#[derive(Default)]
struct Misses {
    unbuilt: u32,
    sensitive: u32,
    solvable: u32,
    duplicate: u32,
}

impl fmt::Display for Misses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [
            (self.unbuilt, "no board built"),
            (self.solvable, "had a solution"),
            (self.sensitive, "reading-sensitive"),
            (self.duplicate, "duplicate"),
        ];
        let shown: Vec<String> = parts
            .iter()
            .filter(|(k, _)| *k > 0)
            .map(|(k, what)| format!("{k} {what}"))
            .collect();
        f.write_str(&shown.join(", "))
    }
}

/// A seeded source of tests. The same seed and spec give the same puzzles in
/// the same order.
pub struct Generator {
    spec: Spec,
    boards: BoardGen,
    seen: FxHashSet<Puzzle>,
}

impl Generator {
    /// A generator, or the reason the spec can never be met.
    pub fn new(seed: u64, spec: Spec) -> Result<Generator, GenError> {
        spec.check()?;
        Ok(Generator {
            spec,
            boards: BoardGen::new(seed),
            seen: FxHashSet::default(),
        })
    }

    /// The next test: valid, distinct from the earlier ones, and reading-
    /// insensitive unless the spec allows otherwise.
    pub fn next_test(&mut self) -> Result<Generated, GenError> {
        let mut misses = Misses::default();
        let (mut n, mut target) = (0, None);
        for attempt in 0..MAX_ATTEMPTS {
            // Keep n and the block count for a while: resampling at every
            // failure would favour the counts that are easy to build.
            if attempt % REPLAN_EVERY == 0 {
                n = self.spec.moves.pick(self.boards.rng());
                target = self.target(n);
            }
            let found = if self.spec.bottom {
                self.bottom_board(n).map(|p| (p, None))
            } else if self.spec.impossible {
                self.random_board(n).map(|p| (p, None))
            } else {
                target
                    .and_then(|blocks| self.built(n, blocks))
                    .map(|c| (c.puzzle, Some(c.moves)))
            };
            let Some((puzzle, construction)) = found else {
                misses.unbuilt += 1;
                continue;
            };
            if self.seen.contains(&puzzle) {
                misses.duplicate += 1;
                continue;
            }
            let answer = solve(&puzzle, Reading::LITERAL);
            if let (Some(moves), None) = (&construction, &answer.moves) {
                return Err(GenError::SolverMissed {
                    puzzle: puzzle.to_text(),
                    moves: crate::puzzle::solver::format_moves(Some(moves)).replace('\n', "; "),
                });
            }
            if self.spec.impossible && answer.moves.is_some() {
                misses.solvable += 1;
                continue;
            }
            if !self.spec.allow_sensitive && !reading_insensitive(&puzzle, &answer) {
                misses.sensitive += 1;
                continue;
            }
            self.seen.insert(puzzle);
            return Ok(Generated {
                puzzle,
                answer,
                construction,
            });
        }
        Err(GenError::GaveUp {
            attempts: MAX_ATTEMPTS,
            detail: misses.to_string(),
        })
    }

    /// A random subset of the colours, of the spec's size.
    fn palette(&mut self) -> Vec<u8> {
        let mut all: Vec<u8> = (1..=MAX_COLOUR).collect();
        self.boards.rng().shuffle(&mut all);
        all.truncate(self.spec.colours as usize);
        all
    }

    /// The block count to build a puzzle of `n` moves with, or `None` when
    /// the spec's range cannot be built in `n` moves. With `per_colour`, the
    /// count comes with the colours (see [`Generator::colour_counts`]).
    fn target(&mut self, n: u32) -> Option<u32> {
        if let Some(each) = self.spec.per_colour {
            return (self.spec.colours as u32 * each.lo <= MAX_PER_MOVE * n).then_some(0);
        }
        let range = self.spec.block_range(n);
        let lo = range.lo.max(3);
        let hi = range.hi.min(MAX_PER_MOVE * n);
        (lo <= hi).then(|| self.boards.rng().u32(lo..=hi))
    }

    /// With `per_colour`: the spec's number of colours, each with a count from
    /// the range, at most `most` blocks in all and within `--blocks`; `None`
    /// when this draw missed.
    fn colour_counts(&mut self, each: Span, most: u32) -> Option<Vec<(u8, u32)>> {
        let palette = self.palette();
        let rng = self.boards.rng();
        let counts: Vec<(u8, u32)> = palette.iter().map(|&c| (c, each.pick(rng))).collect();
        let total: u32 = counts.iter().map(|&(_, k)| k).sum();
        let in_range = self.spec.blocks.is_none_or(|b| b.contains(total));
        (total <= most && in_range).then_some(counts)
    }

    /// A built puzzle with `n` moves and `blocks` blocks (or the per-colour
    /// counts), or `None` when this attempt failed.
    fn built(&mut self, n: u32, blocks: u32) -> Option<Construction> {
        if let Some(each) = self.spec.per_colour {
            let counts = self.colour_counts(each, MAX_PER_MOVE * n)?;
            return construct_counts(self.boards.rng(), n, &counts);
        }
        let palette = self.palette();
        construct(self.boards.rng(), n, blocks, &palette)
    }

    /// A random board for `--impossible`: every colour at least three blocks
    /// (or the per-colour counts).
    fn random_board(&mut self, n: u32) -> Option<Puzzle> {
        if let Some(each) = self.spec.per_colour {
            let counts = self.colour_counts(each, CAPACITY)?;
            let counts: Vec<usize> = counts.iter().map(|&(_, k)| k as usize).collect();
            return self
                .boards
                .board_with_counts(&counts)
                .map(|board| Puzzle { n, board });
        }
        let range = self.spec.block_range(n);
        let blocks = self.boards.rng().u32(range.lo.max(3)..=range.hi.min(CAPACITY));
        let most = (self.spec.colours as u32).min(blocks / 3).max(1);
        let colours = self.boards.rng().u32(most.div_ceil(2)..=most);
        let shape = BoardShape {
            blocks: blocks as usize,
            colours: colours as usize,
            min_three_each: true,
        };
        self.boards.board(shape).map(|board| Puzzle { n, board })
    }

    /// A board with every block on the bottom row.
    fn bottom_board(&mut self, n: u32) -> Option<Puzzle> {
        let range = self.spec.block_range(n);
        let lo = range.lo.max(if self.spec.impossible { 3 } else { 1 });
        let hi = range.hi.min(BOTTOM_MAX);
        if lo > hi {
            return None;
        }
        let blocks = self.boards.rng().u32(lo..=hi) as usize;
        let palette = self.palette();
        let rng = self.boards.rng();
        let mut columns: Vec<usize> = (0..WIDTH).collect();
        rng.shuffle(&mut columns);
        columns.truncate(blocks);
        // With every colour at least three times, five blocks allow one
        // colour; otherwise up to the spec's, but often few: with several
        // colours on five cells some colour is nearly always stranded.
        let used = if self.spec.impossible {
            1
        } else {
            rng.usize(1..=palette.len())
        };
        let mut board = Board::EMPTY;
        for &x in &columns {
            board.set(x, 0, palette[rng.usize(..used)]);
        }
        if board.has_run() {
            return None;
        }
        Some(Puzzle { n, board })
    }
}

/// Whether the solver gives `literal` (the literal answer) under every reading.
pub fn reading_insensitive(puzzle: &Puzzle, literal: &Answer) -> bool {
    Reading::ALL[1..]
        .iter()
        .all(|&r| solve(puzzle, r).moves == literal.moves)
}

/// A group shape: cells of one colour that form a run (a line of 3 to 5 or a
/// T, L or cross of 5), with what insertion needs per column.
struct GroupShape {
    /// The cells, as run marks.
    mask: Marks,
    /// Cells per column.
    count: [u8; WIDTH],
    /// Highest row per column (meaningful where `count > 0`).
    top: [u8; WIDTH],
    /// Number of cells.
    size: u32,
}

impl GroupShape {
    fn new(cells: &[(usize, usize)]) -> GroupShape {
        let mut g = GroupShape {
            mask: [0; WIDTH],
            count: [0; WIDTH],
            top: [0; WIDTH],
            size: cells.len() as u32,
        };
        for &(x, y) in cells {
            g.mask[x] |= 1 << (4 * y);
            g.count[x] += 1;
            g.top[x] = g.top[x].max(y as u8);
        }
        g
    }

    /// Whether the cells can be inserted into `base` (as its cells, with the
    /// blocks above pushed up): nothing floats and no column exceeds 7.
    fn fits(&self, base: &Board) -> bool {
        (0..WIDTH).all(|x| {
            let k = self.count[x] as usize;
            let h = base.height(x) + k;
            k == 0 || (h <= HEIGHT && (self.top[x] as usize) < h)
        })
    }

    fn contains(&self, x: usize, y: usize) -> bool {
        is_marked(&self.mask, x, y)
    }
}

/// Every group shape on the board.
static SHAPES: LazyLock<Vec<GroupShape>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for len in 3..=5 {
        for y in 0..HEIGHT {
            for x0 in 0..=WIDTH - len {
                let cells: Vec<_> = (x0..x0 + len).map(|x| (x, y)).collect();
                out.push(GroupShape::new(&cells));
            }
        }
        for x in 0..WIDTH {
            for y0 in 0..=HEIGHT - len {
                let cells: Vec<_> = (y0..y0 + len).map(|y| (x, y)).collect();
                out.push(GroupShape::new(&cells));
            }
        }
    }
    // T, L and cross: a horizontal three and a vertical three sharing a cell.
    for y in 0..HEIGHT {
        for x0 in 0..=WIDTH - 3 {
            for stem in x0..x0 + 3 {
                for v0 in y.saturating_sub(2)..=y {
                    if v0 + 3 > HEIGHT {
                        continue;
                    }
                    let mut cells: Vec<_> = (x0..x0 + 3).map(|x| (x, y)).collect();
                    cells.extend((v0..v0 + 3).filter(|&r| r != y).map(|r| (stem, r)));
                    out.push(GroupShape::new(&cells));
                }
            }
        }
    }
    out
});

/// Inserts coloured groups into `base` (cells in the result's coordinates;
/// the blocks of `base` fill the other cells of each column in order).
/// `None` when groups overlap, a block would float or a column would exceed 7.
fn insert(base: &Board, groups: &[(&GroupShape, u8)]) -> Option<(Board, Marks)> {
    let mut mask = [0u32; WIDTH];
    for (g, _) in groups {
        for x in 0..WIDTH {
            if mask[x] & g.mask[x] != 0 {
                return None;
            }
            mask[x] |= g.mask[x];
        }
    }
    let mut t = Board::EMPTY;
    for x in 0..WIDTH {
        let k = mask[x].count_ones() as usize;
        let h = base.height(x) + k;
        if h > HEIGHT || (mask[x] >> (4 * h)) != 0 {
            return None;
        }
        let mut j = 0;
        for y in 0..h {
            if is_marked(&mask, x, y) {
                let c = groups
                    .iter()
                    .find(|(g, _)| g.contains(x, y))
                    .map_or(0, |&(_, c)| c);
                t.set(x, y, c);
            } else {
                t.set(x, y, base.get(x, j));
                j += 1;
            }
        }
    }
    Some((t, mask))
}

/// Whether `t`'s runs are exactly `mask` and settling `t` gives `s`.
fn clears_to(t: &Board, mask: &Marks, s: &Board) -> bool {
    if t.find_runs() != *mask {
        return false;
    }
    let mut b = *t;
    b.settle();
    b == *s
}

/// Every (board, move) pair such that the board is settled with no run and
/// the move turns it into `t` before removal (and into `s` once settled).
fn inverse_moves(t: &Board, s: &Board, rng: &mut fastrand::Rng) -> Vec<(Board, Move)> {
    let mut out = Vec::new();
    let keep = |p: Board, m: Move, out: &mut Vec<(Board, Move)>| {
        if p.has_run() || p.has_floating() {
            return;
        }
        let mut b = p;
        b.play(m);
        if b == *s {
            out.push((p, m));
        }
    };
    // Two blocks of different colours trade places: either may be the mover.
    for x in 0..WIDTH - 1 {
        for y in 0..HEIGHT {
            let (a, b) = (t.get(x, y), t.get(x + 1, y));
            if a == 0 || b == 0 || a == b {
                continue;
            }
            let mut p = *t;
            p.set(x, y, b);
            p.set(x + 1, y, a);
            let m = if rng.bool() {
                mv(x, y, Dir::Right)
            } else {
                mv(x + 1, y, Dir::Left)
            };
            keep(p, m, &mut out);
        }
    }
    // A block moves into an empty cell of column x and falls on its top: in
    // the board before, it sat in a neighbouring column at a row >= x's height.
    for x in 0..WIDTH {
        let h = t.height(x);
        if h == 0 {
            continue;
        }
        let block = t.get(x, h - 1);
        for from in [x.wrapping_sub(1), x + 1] {
            if from >= WIDTH {
                continue;
            }
            let hf = t.height(from);
            if hf >= HEIGHT {
                continue;
            }
            for y in h - 1..=hf {
                let mut p = *t;
                p.set(x, h - 1, 0);
                for r in (y..hf).rev() {
                    p.set(from, r + 1, t.get(from, r));
                }
                p.set(from, y, block);
                let dir = if from < x { Dir::Right } else { Dir::Left };
                keep(p, mv(from, y, dir), &mut out);
            }
        }
    }
    out
}

fn mv(x: usize, y: usize, dir: Dir) -> Move {
    Move {
        x: x as u8,
        y: y as u8,
        dir,
    }
}

/// Builds a puzzle of `n` moves and exactly `blocks` blocks with colours from
/// `palette`, backwards from the empty board (see the module docs). `None`
/// when this attempt failed; try again with the same source for another.
pub fn construct(rng: &mut fastrand::Rng, n: u32, blocks: u32, palette: &[u8]) -> Option<Construction> {
    if palette.is_empty() {
        return None;
    }
    construct_with(rng, n, blocks, palette, None)
}

/// Like [`construct`], with exactly `count` blocks of each `(colour, count)`
/// (such as five colours of six or seven blocks each): every group takes a
/// colour whose count it does not overshoot and leaves either used up or
/// with three blocks or more to place. `None` when this attempt failed.
pub fn construct_counts(rng: &mut fastrand::Rng, n: u32, counts: &[(u8, u32)]) -> Option<Construction> {
    let mut target = [0u32; 16];
    for &(c, k) in counts {
        target[(c & 0xF) as usize] += k;
    }
    let palette: Vec<u8> = counts.iter().map(|&(c, _)| c).collect();
    let blocks = counts.iter().map(|&(_, k)| k).sum();
    let built = construct_with(rng, n, blocks, &palette, Some(&target))?;
    let got = built.puzzle.board.colour_counts();
    (1..=MAX_COLOUR as usize)
        .all(|c| got[c] as u32 == target[c])
        .then_some(built)
}

fn construct_with(
    rng: &mut fastrand::Rng,
    n: u32,
    blocks: u32,
    palette: &[u8],
    target: Option<&[u32; 16]>,
) -> Option<Construction> {
    if n == 0 || blocks > CAPACITY {
        return None;
    }
    let mut s = Board::EMPTY;
    // The move that empties the board comes first here.
    let mut moves = Vec::with_capacity(n as usize);
    for i in 0..n {
        let left = blocks.checked_sub(s.block_count())?;
        let colours = Colours {
            palette,
            quota: match target {
                Some(t) => Some(remaining(t, &s)?),
                None => None,
            },
        };
        let want = plan_step(rng, left, n - i, !s.is_empty(), |w| colours.can_clear(w))?;
        let (p, m) = step(rng, &s, want, &colours)?;
        debug_assert!({
            let mut b = p;
            b.play(m);
            b == s
        });
        moves.push(m);
        s = p;
    }
    moves.reverse();
    Some(Construction {
        puzzle: Puzzle { n, board: s },
        moves,
    })
}

/// Blocks of each colour still to place: `target` less what `s` holds;
/// `None` when `s` holds too many of some colour.
fn remaining(target: &[u32; 16], s: &Board) -> Option<[u32; 16]> {
    let have = s.colour_counts();
    let mut left = *target;
    for (c, &k) in have.iter().enumerate() {
        left[c] = left[c].checked_sub(k as u32)?;
    }
    Some(left)
}

/// The colours a construction gives its groups: any of a palette, or with a
/// quota, only colours that still have that many blocks to place.
struct Colours<'a> {
    palette: &'a [u8],
    /// Blocks of each colour still to place.
    quota: Option<[u32; 16]>,
}

/// Whether colour `c` can take a group of `size` blocks within `quota`:
/// the group leaves it used up, or with three blocks or more (two could
/// never be cleared).
fn fits(quota: &[u32; 16], c: u8, size: u32) -> bool {
    let left = quota[c as usize & 0xF];
    left >= size && (left == size || left - size >= 3)
}

impl Colours<'_> {
    /// Whether one step can clear `w` blocks in one group (3 to 5) or two
    /// of different colours (6 to 10) within the quota; always without one.
    fn can_clear(&self, w: u32) -> bool {
        let Some(quota) = self.quota else {
            return true;
        };
        let one = |size: u32| self.palette.iter().any(|&c| fits(&quota, c, size));
        match w {
            0 => true,
            3..=5 => one(w),
            _ => (w.saturating_sub(5).max(3)..=w.saturating_sub(3).min(5)).any(|a| {
                self.palette.iter().any(|&c1| {
                    fits(&quota, c1, a)
                        && self
                            .palette
                            .iter()
                            .any(|&c2| (c2 != c1 || self.palette.len() == 1) && fits(&quota, c2, w - a))
                })
            }),
        }
    }

    /// A colour for a group of `size` blocks, other than `not` (unless the
    /// palette has one colour); with a quota, one that the group leaves used
    /// up or with three blocks or more, after `taken` blocks of colour
    /// `not`'s group (`taken` 0 when there is none). `None` when no colour
    /// fits.
    fn pick(&self, rng: &mut fastrand::Rng, size: u32, not: u8, taken: u32) -> Option<u8> {
        let Some(mut quota) = self.quota else {
            // The plain case keeps the random draws of earlier versions, so
            // seeds give the same puzzles as before.
            return Some(loop {
                let c = self.palette[rng.usize(..self.palette.len())];
                if c != not || self.palette.len() == 1 {
                    break c;
                }
            });
        };
        quota[not as usize & 0xF] = quota[not as usize & 0xF].saturating_sub(taken);
        let fits: Vec<u8> = self
            .palette
            .iter()
            .copied()
            .filter(|&c| (c != not || self.palette.len() == 1) && fits(&quota, c, size))
            .collect();
        (!fits.is_empty()).then(|| fits[rng.usize(..fits.len())])
    }
}

/// How many blocks this backward step clears: 0 (a move that clears nothing,
/// only when the board is not empty) or 3..=10, leaving a remainder that the
/// `steps - 1` other steps can clear, near an even share.
fn plan_step(
    rng: &mut fastrand::Rng,
    left: u32,
    steps: u32,
    quiet_ok: bool,
    colours_ok: impl Fn(u32) -> bool,
) -> Option<u32> {
    let rest_ok = |w: u32| {
        if !colours_ok(w) {
            return false;
        }
        let Some(rest) = left.checked_sub(w) else {
            return false;
        };
        if steps == 1 {
            rest == 0
        } else {
            rest == 0 || (3..=MAX_PER_MOVE * (steps - 1)).contains(&rest)
        }
    };
    let aim = (left as f64 / steps as f64).round() as i64 + rng.i64(-1..=1);
    let best = (3..=MAX_PER_MOVE)
        .filter(|&w| rest_ok(w))
        .min_by_key(|&w| ((w as i64 - aim).abs(), rng.u32(..)));
    match best {
        Some(w) => Some(w),
        None if quiet_ok && rest_ok(0) => Some(0),
        None => None,
    }
}

/// One backward step: a board and a move that turns it into `s` while
/// clearing `want` blocks.
fn step(rng: &mut fastrand::Rng, s: &Board, want: u32, colours: &Colours) -> Option<(Board, Move)> {
    for _ in 0..STEP_TRIES {
        let t = if want == 0 {
            *s
        } else {
            match before_removal(rng, s, want, colours) {
                Some(t) => t,
                None => continue,
            }
        };
        let options = inverse_moves(&t, s, rng);
        if !options.is_empty() {
            return Some(options[rng.usize(..options.len())]);
        }
    }
    None
}

/// A random group shape of `size` cells that fits into `base` and satisfies
/// `want`.
fn pick_shape(
    rng: &mut fastrand::Rng,
    base: &Board,
    size: u32,
    want: impl Fn(&GroupShape) -> bool,
) -> Option<&'static GroupShape> {
    let fitting: Vec<&GroupShape> = SHAPES
        .iter()
        .filter(|g| g.size == size && g.fits(base) && want(g))
        .collect();
    (!fitting.is_empty()).then(|| fitting[rng.usize(..fitting.len())])
}

/// A random cell of a group.
fn some_cell(rng: &mut fastrand::Rng, g: &GroupShape) -> (usize, usize) {
    let cells: Vec<(usize, usize)> = (0..WIDTH)
        .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
        .filter(|&(x, y)| g.contains(x, y))
        .collect();
    cells[rng.usize(..cells.len())]
}

/// A board `T` whose runs are exactly `want` inserted blocks and that settles
/// into `s`: one group, two groups at once, or two where removing the second
/// lets the first fall into place.
fn before_removal(rng: &mut fastrand::Rng, s: &Board, want: u32, colours: &Colours) -> Option<Board> {
    if want <= 5 {
        let g = pick_shape(rng, s, want, |_| true)?;
        let (t, mask) = insert(s, &[(g, colours.pick(rng, want, 0, 0)?)])?;
        return clears_to(&t, &mask, s).then_some(t);
    }
    let a = rng.u32(want.saturating_sub(5).max(3)..=(want - 3).min(5));
    let b = want - a;
    let g1 = pick_shape(rng, s, a, |_| true)?;
    let c1 = colours.pick(rng, a, 0, 0)?;
    let c2 = colours.pick(rng, b, c1, a)?;
    let (cx, cy) = some_cell(rng, g1);
    if rng.u32(..10) < 4 {
        // Cascade: the second group lifts a cell of the first out of line.
        let (t1, mask1) = insert(s, &[(g1, c1)])?;
        if !clears_to(&t1, &mask1, s) {
            return None;
        }
        let row = rng.usize(..=cy);
        let g2 = pick_shape(rng, &t1, b, |g| g.contains(cx, row))?;
        let (t2, mask2) = insert(&t1, &[(g2, c2)])?;
        return clears_to(&t2, &mask2, s).then_some(t2);
    }
    // Side by side: mostly with a cell beside one of the first group, so that
    // one swap can break both.
    let beside = if rng.bool() { cx.wrapping_sub(1) } else { cx + 1 };
    let g2 = if beside < WIDTH && rng.u32(..4) > 0 {
        pick_shape(rng, s, b, |g| g.contains(beside, cy))?
    } else {
        pick_shape(rng, s, b, |_| true)?
    };
    let (t, mask) = insert(s, &[(g1, c1), (g2, c2)])?;
    clears_to(&t, &mask, s).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays moves and checks the board empties at the last one, not before.
    fn empties_exactly(puzzle: &Puzzle, moves: &[Move]) -> bool {
        let mut b = puzzle.board;
        for (i, &m) in moves.iter().enumerate() {
            if b.is_empty()
                || b.check_move(m.x as i64, m.y as i64, m.dir.g() as i64, true)
                    .is_err()
            {
                return false;
            }
            b.play(m);
            if b.is_empty() != (i + 1 == moves.len()) {
                return false;
            }
        }
        moves.len() == puzzle.n as usize && b.is_empty()
    }

    #[test]
    fn constructions_empty_the_board_at_exactly_the_last_move() {
        let mut rng = fastrand::Rng::with_seed(5);
        let palette = [1, 2, 3, 4, 5];
        let mut built = 0;
        for i in 0..200 {
            let n = 1 + i % 5;
            let blocks = 3 * n + (i % 13).min(7 * n - 3 * n);
            if let Some(c) = construct(&mut rng, n, blocks, &palette) {
                built += 1;
                assert_eq!(c.puzzle.n, n);
                assert_eq!(c.puzzle.board.block_count(), blocks);
                assert!(!c.puzzle.board.has_run() && !c.puzzle.board.has_floating());
                assert!(empties_exactly(&c.puzzle, &c.moves), "{c:?}");
            }
        }
        assert!(built > 100, "only {built} of 200 built");
    }

    #[test]
    fn quiet_steps_allow_fewer_than_three_blocks_a_move() {
        let mut rng = fastrand::Rng::with_seed(9);
        let c = (0..50)
            .find_map(|_| construct(&mut rng, 4, 6, &[1, 2, 3]))
            .expect("built");
        assert!(empties_exactly(&c.puzzle, &c.moves));
    }

    fn spec(f: impl FnOnce(&mut Spec)) -> Spec {
        let mut s = Spec::default();
        f(&mut s);
        s
    }

    fn take(seed: u64, spec: Spec, count: usize) -> Vec<Generated> {
        let mut g = Generator::new(seed, spec).expect("valid spec");
        (0..count).map(|_| g.next_test().expect("generated")).collect()
    }

    #[test]
    fn built_tests_are_valid_solvable_and_reading_insensitive() {
        let s = spec(|s| s.blocks = Some(Span { lo: 20, hi: 30 }));
        let tests = take(11, s, 8);
        let mut seen = FxHashSet::default();
        for t in &tests {
            let p = t.puzzle;
            assert_eq!(Puzzle::parse(p.to_text().as_bytes()), Ok(p));
            assert!((20..=30).contains(&p.board.block_count()));
            assert!(p.board.colour_counts().iter().filter(|&&c| c > 0).count() <= 5);
            let moves = t.answer.moves.as_ref().expect("solvable");
            assert!(empties_exactly(&p, moves));
            assert!(empties_exactly(&p, t.construction.as_ref().unwrap()));
            assert!(moves <= t.construction.as_ref().unwrap());
            for r in Reading::ALL {
                assert_eq!(solve(&p, r).moves, t.answer.moves, "{r} on {p:?}");
            }
            assert_eq!(t.answer_text(), solve(&p, Reading::LITERAL).to_text());
            assert!(seen.insert(p), "duplicate");
        }
    }

    #[test]
    fn same_seed_same_tests() {
        let s = spec(|s| s.moves = Span { lo: 2, hi: 4 });
        let files = |seed| -> Vec<(String, String)> {
            take(seed, s, 5)
                .iter()
                .map(|t| (t.puzzle.to_text(), t.answer_text()))
                .collect()
        };
        let a = files(3);
        assert_eq!(a, files(3));
        assert_ne!(a, files(4));
        for (input, _) in &a {
            let p = Puzzle::parse(input.as_bytes()).expect("valid");
            assert!((2..=4).contains(&p.n));
        }
    }

    #[test]
    fn impossible_tests_have_no_solution_and_three_blocks_of_each_colour() {
        let s = spec(|s| {
            s.impossible = true;
            s.blocks = Some(Span { lo: 12, hi: 20 });
        });
        for t in take(2, s, 4) {
            let b = t.puzzle.board;
            assert!(t.answer.moves.is_none());
            assert!(!b.has_stranded_colour());
            assert!((12..=20).contains(&b.block_count()));
            assert_eq!(Puzzle::parse(t.puzzle.to_text().as_bytes()), Ok(t.puzzle));
        }
    }

    #[test]
    fn per_colour_tests_have_exactly_the_colours_and_counts_asked_for() {
        let counts_ok = |p: &Puzzle| {
            let counts: Vec<u8> = p.board.colour_counts().into_iter().filter(|&k| k > 0).collect();
            counts.len() == 5 && counts.iter().all(|k| (6..=7).contains(k))
        };
        let built = spec(|s| {
            s.per_colour = Some(Span { lo: 6, hi: 7 });
            s.moves = Span { lo: 6, hi: 8 };
            s.max_n = MAX_N;
        });
        for t in take(4, built, 2) {
            assert!(counts_ok(&t.puzzle), "{:?}", t.puzzle);
            assert!(empties_exactly(
                &t.puzzle,
                t.answer.moves.as_ref().expect("solvable")
            ));
        }
        let impossible = spec(|s| {
            s.per_colour = Some(Span { lo: 6, hi: 7 });
            s.impossible = true;
        });
        for t in take(4, impossible, 2) {
            assert!(counts_ok(&t.puzzle), "{:?}", t.puzzle);
            assert!(t.answer.moves.is_none());
        }
    }

    #[test]
    fn per_colour_requests_no_board_can_meet_are_refused() {
        for (f, why) in [
            (spec(|s| s.per_colour = Some(Span::exactly(2))), "at least 3"),
            (
                spec(|s| s.per_colour = Some(Span::exactly(8))),
                "the board has 35",
            ),
            (
                spec(|s| {
                    s.per_colour = Some(Span::exactly(7));
                    s.moves = Span::exactly(3);
                }),
                "3 moves clear at most 30 blocks",
            ),
            (
                spec(|s| {
                    s.per_colour = Some(Span::exactly(3));
                    s.bottom = true;
                }),
                "bottom-row",
            ),
            (
                spec(|s| {
                    s.per_colour = Some(Span::exactly(6));
                    s.blocks = Some(Span { lo: 10, hi: 20 });
                }),
                "outside --blocks",
            ),
        ] {
            match Generator::new(1, f) {
                Err(GenError::Unmeetable(m)) => assert!(m.contains(why), "{m}"),
                other => panic!("{f:?}: {:?}", other.err()),
            }
        }
    }

    #[test]
    fn bottom_tests_keep_every_block_on_row_zero() {
        let s = spec(|s| {
            s.bottom = true;
            s.moves = Span { lo: 1, hi: 3 };
        });
        for t in take(8, s, 6) {
            let b = t.puzzle.board;
            assert!((0..WIDTH).all(|x| b.height(x) <= 1));
            assert!(reading_insensitive(&t.puzzle, &t.answer));
        }
    }

    #[test]
    fn requests_no_board_can_meet_are_refused_at_once() {
        let bottom20 = spec(|s| {
            s.bottom = true;
            s.blocks = Some(Span { lo: 20, hi: 35 });
        });
        assert!(matches!(
            Generator::new(1, bottom20),
            Err(GenError::Unmeetable(_))
        ));
        let n6 = spec(|s| s.moves = Span { lo: 5, hi: 6 });
        assert!(matches!(Generator::new(1, n6), Err(GenError::MoveCount { .. })));
        let one_move = spec(|s| {
            s.moves = Span::exactly(1);
            s.blocks = Some(Span { lo: 11, hi: 35 });
        });
        assert!(matches!(
            Generator::new(1, one_move),
            Err(GenError::Unmeetable(_))
        ));
        assert!(matches!(
            Generator::new(1, spec(|s| s.colours = 0)),
            Err(GenError::Colours(0))
        ));
    }

    #[test]
    fn a_request_that_keeps_failing_gives_up() {
        // One colour and many blocks: no board without a run of three.
        let s = spec(|s| {
            s.colours = 1;
            s.blocks = Some(Span { lo: 30, hi: 35 });
        });
        let err = Generator::new(1, s).unwrap().next_test().unwrap_err();
        assert!(
            matches!(
                err,
                GenError::GaveUp {
                    attempts: MAX_ATTEMPTS,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn spans_parse_as_documented() {
        assert_eq!("5".parse::<MoveCounts>(), Ok(MoveCounts(Span::exactly(5))));
        assert_eq!(
            "3..5".parse::<MoveCounts>(),
            Ok(MoveCounts(Span { lo: 3, hi: 5 }))
        );
        assert_eq!(
            "3..=5".parse::<MoveCounts>(),
            Ok(MoveCounts(Span { lo: 3, hi: 5 }))
        );
        assert_eq!(
            "20".parse::<BlockCounts>(),
            Ok(BlockCounts(Span { lo: 20, hi: 35 }))
        );
        assert_eq!(
            "40".parse::<BlockCounts>(),
            Ok(BlockCounts(Span { lo: 40, hi: 40 }))
        );
        assert!("5..3".parse::<MoveCounts>().is_err());
        assert!("x".parse::<BlockCounts>().is_err());
        assert!("-1".parse::<BlockCounts>().is_err());
    }
}
