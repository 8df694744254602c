//! The reference solver: the lexicographically smallest solution of a puzzle,
//! under the literal rules or one of the other readings of `RULES.md`.
//!
//! A depth-first search tries moves in solution order, so the first solution
//! it meets is the smallest. Only pruning that cannot change the answer:
//! - a memo of dead `(board, moves left)` states: whether a state leads to a
//!   solution depends on nothing else, so a state that failed once fails again;
//! - a colour with one or two blocks makes a board dead (blocks leave three or
//!   more of one colour at a time);
//! - a lower bound on the moves still needed, from the columns of each colour
//!   (see [`Bound`]): a state whose bound exceeds the moves left is dead, and a
//!   move that cannot lower the bound fast enough is not tried;
//! - a left move into a block is skipped: it gives the same board as the right
//!   move of the neighbour, which comes earlier in the order and was tried with
//!   the same number of moves left;
//! - under the literal reading, every same-colour swap of a board gives the
//!   same child (the board itself), so only the first is searched.

use crate::puzzle::sim::{Board, Dir, MAX_COLOUR, Move, Puzzle, WIDTH};
use rustc_hash::FxHashSet;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// How the rules are read (see "Readings" in `RULES.md`). The judge's own
/// reading is [`Reading::LITERAL`]; the others exist so validation can tell
/// which tests are reading-sensitive and packages can opt in to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Reading {
    /// A swap of two equal colours counts as a move (true under the literal
    /// rules, false under `no-noop`).
    pub count_noop: bool,
    /// The board may be emptied in fewer than `n` moves (`at-most`).
    pub at_most: bool,
}

impl Reading {
    /// The rules as written.
    pub const LITERAL: Reading = Reading {
        count_noop: true,
        at_most: false,
    };
    /// Same-colour swaps are not moves.
    pub const NO_NOOP: Reading = Reading {
        count_noop: false,
        at_most: false,
    };
    /// Fewer than `n` moves may empty the board.
    pub const AT_MOST: Reading = Reading {
        count_noop: true,
        at_most: true,
    };
    /// Both shortcuts at once.
    pub const NO_NOOP_AT_MOST: Reading = Reading {
        count_noop: false,
        at_most: true,
    };
    /// Every reading, literal first.
    pub const ALL: [Reading; 4] = [
        Reading::LITERAL,
        Reading::NO_NOOP,
        Reading::AT_MOST,
        Reading::NO_NOOP_AT_MOST,
    ];
}

impl Default for Reading {
    fn default() -> Self {
        Reading::LITERAL
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (self.count_noop, self.at_most) {
            (true, false) => "literal",
            (false, false) => "no-noop",
            (true, true) => "at-most",
            (false, true) => "no-noop+at-most",
        })
    }
}

/// A reading name that is not one of `literal`, `no-noop`, `at-most`, or a
/// `+` combination of the last two.
#[derive(Debug, thiserror::Error)]
#[error("unknown reading `{0}`: expected literal, no-noop, at-most or no-noop+at-most")]
pub struct UnknownReading(String);

impl FromStr for Reading {
    type Err = UnknownReading;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut r = Reading::LITERAL;
        for part in s.split('+') {
            match part.trim() {
                "literal" if !s.contains('+') => {}
                "no-noop" => r.count_noop = false,
                "at-most" => r.at_most = true,
                _ => return Err(UnknownReading(s.to_string())),
            }
        }
        Ok(r)
    }
}

/// What the search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// States expanded.
    pub nodes: u64,
    /// States found dead in the memo.
    pub memo_hits: u64,
    /// Dead states stored.
    pub memo_size: u64,
    /// Wall time of the search.
    #[serde(serialize_with = "ser_micros")]
    pub elapsed: Duration,
}

fn ser_micros<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_micros() as u64)
}

/// The solver's answer for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The smallest solution, or `None` when there is none (`-1`).
    pub moves: Option<Vec<Move>>,
    /// Search statistics.
    pub stats: Stats,
}

impl Answer {
    /// The answer as the judge prints it: one move a line, or `-1`.
    pub fn to_text(&self) -> String {
        format_moves(self.moves.as_deref())
    }
}

/// Moves as answer text: one `x y g` a line, or `-1` for `None`.
pub fn format_moves(moves: Option<&[Move]>) -> String {
    match moves {
        None => "-1\n".to_string(),
        Some(moves) => moves.iter().map(|m| format!("{m}\n")).collect(),
    }
}

/// Solves a puzzle under a reading.
pub fn solve(puzzle: &Puzzle, reading: Reading) -> Answer {
    let start = Instant::now();
    let mut search = Search {
        reading,
        memo: FxHashSet::default(),
        stats: Stats::default(),
        path: Vec::with_capacity(puzzle.n as usize),
    };
    let board = puzzle.board;
    let found = if board.is_empty() {
        // No move is legal on an empty board; only `at-most` accepts zero moves.
        reading.at_most
    } else {
        search.dfs(board, puzzle.n)
    };
    search.stats.memo_size = search.memo.len() as u64;
    search.stats.elapsed = start.elapsed();
    let moves = found.then(|| {
        search.path.reverse();
        search.path
    });
    Answer {
        moves,
        stats: search.stats,
    }
}

struct Search {
    reading: Reading,
    /// Dead states: the board's columns with the moves left in the free top
    /// nibble of column 0.
    memo: FxHashSet<[u32; WIDTH]>,
    stats: Stats,
    /// The solution, last move first, filled in as the recursion unwinds.
    path: Vec<Move>,
}

/// Memo key: the packed board with `k` in column 0's unused top nibble.
#[inline]
fn key(board: &Board, k: u32) -> [u32; WIDTH] {
    let mut raw = board.raw();
    raw[0] |= k << 28;
    raw
}

impl Search {
    /// Whether a non-empty, settled `board` can be emptied with exactly `k >= 1`
    /// moves (or at most `k` under `at-most`); on success the moves are in
    /// `self.path`, last first.
    fn dfs(&mut self, board: Board, k: u32) -> bool {
        self.stats.nodes += 1;
        let memo_key = key(&board, k);
        if self.memo.contains(&memo_key) {
            self.stats.memo_hits += 1;
            return false;
        }
        let bound = Bound::of(&board);
        if bound.moves() > k {
            return false;
        }
        let mut noop_tried = false;
        for x in 0..WIDTH {
            for y in 0..board.height(x) {
                let here = board.get(x, y);
                if x + 1 < WIDTH {
                    let there = board.get(x + 1, y);
                    let noop = there == here;
                    // Every same-colour swap yields this very board: try one.
                    let skip = noop && (!self.reading.count_noop || noop_tried);
                    noop_tried |= noop;
                    if !skip && bound.allows(k, here, there) {
                        let mv = Move {
                            x: x as u8,
                            y: y as u8,
                            dir: Dir::Right,
                        };
                        if self.try_move(board, mv, k) {
                            return true;
                        }
                    }
                }
                // A left move into a block equals the neighbour's right move.
                if x > 0 && board.get(x - 1, y) == 0 && bound.allows(k, here, 0) {
                    let mv = Move {
                        x: x as u8,
                        y: y as u8,
                        dir: Dir::Left,
                    };
                    if self.try_move(board, mv, k) {
                        return true;
                    }
                }
            }
        }
        self.memo.insert(memo_key);
        false
    }

    #[inline]
    fn try_move(&mut self, board: Board, mv: Move, k: u32) -> bool {
        let mut child = board;
        child.play(mv);
        let found = if child.is_empty() {
            // Emptied: a solution when it was the last move (or under at-most);
            // otherwise a dead end, since an empty board has no legal move.
            k == 1 || self.reading.at_most
        } else if k == 1 {
            false
        } else {
            self.dfs(child, k - 1)
        };
        if found {
            self.path.push(mv);
        }
        found
    }
}

/// Marks "no pattern can be reached": the colour can never leave the board.
const NEVER: u8 = u8::MAX;

/// `POW6[x]` = 6^x: a colour's blocks per column, in base 6, index the table.
const POW6: [u32; WIDTH] = [1, 6, 36, 216, 1296];

/// For a colour with 1 to 5 blocks, indexed by its per-column block counts in
/// base 6: how many single-column steps its blocks need, at the least, before
/// they can all be removed. See [`Bound::of`].
static DISPLACEMENT: LazyLock<Vec<u8>> = LazyLock::new(|| {
    (0..6u32.pow(WIDTH as u32))
        .map(|idx| {
            let mut cols = Vec::new();
            for x in 0..WIDTH {
                let count = idx / POW6[x] % 6;
                cols.extend(std::iter::repeat_n(x as i32, count as usize));
            }
            removal_patterns(cols.len())
                .iter()
                .map(|p| {
                    cols.iter()
                        .zip(p)
                        .map(|(a, t)| (a - t).unsigned_abs())
                        .sum::<u32>()
                })
                .min()
                .map_or(NEVER, |d| d.min(NEVER as u32 - 1) as u8)
        })
        .collect()
});

/// The column multisets (sorted) in which `count` blocks of one colour can be
/// removed all in the same pass, for 3 <= count <= 5: a vertical line (one
/// column), a horizontal line (consecutive columns), or for five blocks a
/// horizontal and a vertical run of three sharing a block (T, L, cross). With
/// five or fewer blocks two separate runs cannot coexist, and removing only
/// some of them strands the rest, so one of these shapes must occur.
fn removal_patterns(count: usize) -> Vec<Vec<i32>> {
    let w = WIDTH as i32;
    let mut out = Vec::new();
    if !(3..=5).contains(&count) {
        return out;
    }
    for p in 0..w {
        out.push(vec![p; count]);
    }
    for p in 0..=w - count as i32 {
        out.push((p..p + count as i32).collect());
    }
    if count == 5 {
        for p in 0..=w - 3 {
            for stem in 0..3 {
                let mut cols = vec![p, p + 1, p + 2, p + stem, p + stem];
                cols.sort();
                out.push(cols);
            }
        }
    }
    out
}

/// What the column argument says about a board (see [`Bound::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Sum over colours of `D_c`, or `u32::MAX` when some colour can never go.
    pub sum: u32,
    /// Largest `D_c`.
    pub max: u32,
    /// Colours with `D_c > 0`, as bits (bit c for colour c).
    pub needy: u16,
    /// Colours with `D_c = max > 0`, as bits.
    pub at_max: u16,
}

impl Bound {
    /// The bound of a board:
    /// - a colour with one or two blocks can never go (runs need three);
    /// - a colour with three to five blocks must, at some pass, stand in one of
    ///   the column patterns of [`removal_patterns`]. Blocks change column only
    ///   by swaps, and one swap moves one block of at most two colours one
    ///   column each (a swap of equal colours moves none). So with `D_c` the
    ///   smallest total column distance from colour c's blocks to a pattern, at
    ///   least `max D_c` and at least `ceil(sum D_c / 2)` moves remain.
    ///
    /// Colours with six or more blocks may leave in several groups and count 0.
    #[inline]
    pub fn of(board: &Board) -> Bound {
        let mut index = [0u32; MAX_COLOUR as usize + 1];
        let mut count = [0u8; MAX_COLOUR as usize + 1];
        for (x, &col) in board.raw().iter().enumerate() {
            let mut v = col;
            while v != 0 {
                let c = (v & 0xF) as usize;
                index[c] += POW6[x];
                count[c] += 1;
                v >>= 4;
            }
        }
        let table = &*DISPLACEMENT;
        let mut b = Bound {
            sum: 0,
            max: 0,
            needy: 0,
            at_max: 0,
        };
        for c in 1..=MAX_COLOUR as usize {
            if (1..=5).contains(&count[c]) {
                let d = table[index[c] as usize];
                if d == NEVER {
                    b.sum = u32::MAX;
                    b.max = u32::MAX;
                    return b;
                }
                let d = d as u32;
                b.sum += d;
                if d > 0 {
                    b.needy |= 1 << c;
                    if d > b.max {
                        b.max = d;
                        b.at_max = 0;
                    }
                    if d == b.max {
                        b.at_max |= 1 << c;
                    }
                }
            }
        }
        b
    }

    /// The fewest moves that can empty the board.
    #[inline]
    pub fn moves(&self) -> u32 {
        self.max.max(self.sum.div_ceil(2))
    }

    /// Whether a swap of colours `a` (the moving block) and `b` (its
    /// neighbour, 0 when empty) can be the first of `k` moves that empty the
    /// board, judged by this bound alone. A swap lowers `sum` by one for each
    /// needy colour it moves and nothing else lowers it (a colour leaves with
    /// `D_c = 0`), so with `slack = 2k - sum` the swap must move at least
    /// `2 - slack` needy colours, and every colour with `D_c = k` (which must
    /// move at every remaining step).
    #[inline]
    pub fn allows(&self, k: u32, a: u8, b: u8) -> bool {
        let moved: u16 = if a == b { 0 } else { (1 << a) | ((1 << b) & !1) };
        let helped = (moved & self.needy).count_ones();
        let slack = 2 * k - self.sum;
        if helped + slack < 2 {
            return false;
        }
        // Every colour with D_c = k must move at every remaining step.
        self.max < k || self.at_max & !moved == 0
    }
}
