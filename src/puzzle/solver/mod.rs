//! The reference solver: the lexicographically smallest solution of a puzzle,
//! under the literal rules or one of the other readings of `RULES.md`.
//!
//! A depth-first search tries moves in solution order, so the first solution
//! it meets is the smallest. Only pruning that cannot change the answer:
//! - a memo of dead `(board, moves left)` states (`table`): whether a state
//!   leads to a solution depends on nothing else, so a state that failed once
//!   fails again. States with one move left are not stored: checking the few
//!   moves the bound lets through is cheaper than a look-up;
//! - a lower bound on the moves still needed, from the columns each colour
//!   stands in (`bound`, proved there): a colour with one or two blocks can
//!   never go, and one with up to ten must reach columns in which it can be
//!   removed, one block and one column per swap. A state whose bound exceeds
//!   the moves left is dead, and a move is played only if the board right
//!   after its swap still has a bound within the moves left then (what
//!   follows a swap can only raise the bound);
//! - a left move into a block is skipped (`moves`): it gives the same board as
//!   the right move of the neighbour, which comes earlier in the order and was
//!   tried with the same number of moves left;
//! - under the literal reading, every same-colour swap of a board gives the
//!   same child (the board itself), so only the first is searched.
//!
//! The memo is bounded ([`Limits::memory`], 1 GiB by default): a full table
//! forgets its cheapest entries, which only costs time.

mod bound;
// Its functions run in the build script (and the unit tests); the crate
// itself uses its constants.
#[cfg_attr(not(test), allow(dead_code))]
mod bound_table;
mod moves;
mod table;

pub use bound::Bound;
use moves::{Candidate, each_move};
use table::{Key, Table};

use crate::puzzle::sim::{Board, Move, Puzzle};
use std::fmt;
use std::str::FromStr;
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
    /// Dead states stored (at the end).
    pub memo_size: u64,
    /// Bytes of the memo's table (at the end).
    pub memo_bytes: u64,
    /// Dead states that replaced another in a full table.
    pub memo_replaced: u64,
    /// Wall time of the search.
    #[serde(serialize_with = "ser_micros")]
    pub elapsed: Duration,
}

/// How much of the machine a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes for the memo of dead states. A full memo replaces entries
    /// (the search stays exact, only slower); it never fails.
    pub memory: u64,
}

impl Limits {
    /// The default memory cap: 1 GiB.
    pub const DEFAULT_MEMORY: u64 = 1 << 30;
}

/// A number of bytes as a user writes it: `1G`, `512M`, `64MiB`, `4096` (units
/// are binary: K = 1024 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemorySize(pub u64);

/// A memory size that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a memory size: expected a number of bytes with an optional unit K, M or G (e.g. 512M)")]
pub struct BadMemorySize(String);

impl FromStr for MemorySize {
    type Err = BadMemorySize;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadMemorySize(s.to_string());
        let t = s.trim();
        let t = t.strip_suffix("iB").or_else(|| t.strip_suffix('B')).unwrap_or(t);
        let (digits, shift) = match t.char_indices().last() {
            Some((i, 'K' | 'k')) => (&t[..i], 10),
            Some((i, 'M' | 'm')) => (&t[..i], 20),
            Some((i, 'G' | 'g')) => (&t[..i], 30),
            _ => (t, 0),
        };
        let n: u64 = digits.trim().parse().map_err(|_| bad())?;
        n.checked_mul(1 << shift).map(MemorySize).ok_or_else(bad)
    }
}

impl fmt::Display for MemorySize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        match b {
            _ if b >= 1 << 30 && b.is_multiple_of(1 << 30) => write!(f, "{} GiB", b >> 30),
            _ if b >= 1 << 20 && b.is_multiple_of(1 << 20) => write!(f, "{} MiB", b >> 20),
            _ if b >= 1 << 10 && b.is_multiple_of(1 << 10) => write!(f, "{} KiB", b >> 10),
            _ => write!(f, "{b} bytes"),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: Limits::DEFAULT_MEMORY,
        }
    }
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

/// Solves a puzzle under a reading, with the default [`Limits`].
pub fn solve(puzzle: &Puzzle, reading: Reading) -> Answer {
    solve_with(puzzle, reading, Limits::default())
}

/// Solves a puzzle under a reading within `limits`.
pub fn solve_with(puzzle: &Puzzle, reading: Reading, limits: Limits) -> Answer {
    let start = Instant::now();
    let mut search = Search {
        reading,
        memo: Table::new(limits.memory),
        stats: Stats::default(),
        path: Vec::with_capacity(puzzle.n as usize),
        kids: vec![Vec::new(); puzzle.n as usize + 1],
    };
    let board = puzzle.board;
    let found = if board.is_empty() {
        // No move is legal on an empty board; only `at-most` accepts zero moves.
        reading.at_most
    } else {
        let bound = Bound::of(&board);
        bound.moves() <= puzzle.n && search.dfs(board, &bound, puzzle.n)
    };
    search.stats.memo_size = search.memo.entries();
    search.stats.memo_bytes = search.memo.bytes();
    search.stats.memo_replaced = search.memo.replaced;
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
    /// Dead states with two or more moves left.
    memo: Table,
    stats: Stats,
    /// The solution, last move first, filled in as the recursion unwinds.
    path: Vec<Move>,
    /// Per moves left, a reusable list of children (see
    /// [`Search::children_prefetched`]).
    kids: Vec<Vec<(Board, Candidate)>>,
}

impl Search {
    /// Whether a non-empty, settled `board` whose bound is `bound` (at most
    /// `k`) can be emptied with exactly `k >= 1` moves (or at most `k` under
    /// `at-most`); on success the moves are in `self.path`, last first.
    fn dfs(&mut self, board: Board, bound: &Bound, k: u32) -> bool {
        if k == 1 {
            return self.last_move(board, bound);
        }
        self.stats.nodes += 1;
        let memo_key = Key::new(&board, k);
        if self.memo.contains(&memo_key) {
            self.stats.memo_hits += 1;
            return false;
        }
        let before = self.stats.nodes;
        let found = if k > 2 {
            self.children_prefetched(board, bound, k)
        } else {
            self.children(board, bound, k)
        };
        if !found {
            self.memo.insert(memo_key, self.stats.nodes - before);
        }
        found
    }

    /// Plays each move worth trying and searches the child, in answer order.
    fn children(&mut self, board: Board, bound: &Bound, k: u32) -> bool {
        let blocks = board.block_count();
        let reading = self.reading;
        each_move(&board, bound, k, reading, |c| {
            let mut child = board;
            child.play(c.mv);
            self.child(child, blocks, bound, c, k)
        })
    }

    /// Like [`Search::children`], but plays every move first and asks the
    /// memory for each child's memo bucket, so that the look-ups that follow
    /// seldom wait for it.
    fn children_prefetched(&mut self, board: Board, bound: &Bound, k: u32) -> bool {
        let mut kids = std::mem::take(&mut self.kids[k as usize]);
        kids.clear();
        each_move(&board, bound, k, self.reading, |c| {
            let mut child = board;
            child.play(c.mv);
            self.memo.prefetch(&Key::new(&child, k - 1));
            kids.push((child, c));
            false
        });
        let blocks = board.block_count();
        let found = kids
            .iter()
            .any(|&(child, c)| self.child(child, blocks, bound, c, k));
        self.kids[k as usize] = kids;
        found
    }

    /// Searches `child`, the board after move `c.mv` of a board with
    /// `blocks` blocks, bound `bound` and `k` moves left; on success, pushes
    /// the move.
    #[inline(always)]
    fn child(&mut self, child: Board, blocks: u32, bound: &Bound, c: Candidate, k: u32) -> bool {
        // An emptied board with moves left has no legal move: a dead end,
        // unless fewer moves are allowed.
        let found = if child.is_empty() {
            self.reading.at_most
        } else {
            let next = if child.block_count() == blocks {
                bound.after(c.a, c.b, c.from, c.to)
            } else {
                Bound::of(&child)
            };
            next.moves() < k && self.dfs(child, &next, k - 1)
        };
        if found {
            self.path.push(c.mv);
        }
        found
    }

    /// Whether one move empties `board`. Not memoised: a state with one move
    /// left is cheaper to settle again than to look up.
    fn last_move(&mut self, board: Board, bound: &Bound) -> bool {
        self.stats.nodes += 1;
        each_move(&board, bound, 1, self.reading, |c| {
            let mut child = board;
            child.play(c.mv);
            let found = child.is_empty();
            if found {
                self.path.push(c.mv);
            }
            found
        })
    }
}
