//! Stress testing: run a submission on many random boards until it fails,
//! then shrink the failing board while it keeps failing the same way.
//!
//! Board `i` of a session is a pure function of `(seed, i)` ([`board`]), so a
//! seed reproduces the boards whatever the number of worker threads; when
//! several boards fail, the one with the smallest index is reported, and every
//! board before it has been tested. Boards grow with the index: a few blocks
//! and colours first, up to `max_blocks` and ten colours. Half are built
//! backwards ([`crate::puzzle::generate::construct`]) so that large boards have
//! solutions; the other half are random valid boards, most of them `-1`.
//!
//! Shrinking ([`shrink`]) is greedy and deterministic: it tries candidates in a
//! fixed order (lower `n`, remove a colour, remove a block, recolour, move a
//! column or a block left), keeps the first valid one that is smaller and
//! still fails with the same verdict, and starts again until no candidate
//! helps or a cap on runs or time is hit. No command-line knowledge here.

use crate::judge::grading::{Counterexample, Judge, TestResult};
use crate::judge::submission::Program;
use crate::puzzle::boards::{BoardGen, Shape};
use crate::puzzle::checker::Reason;
use crate::puzzle::generate::{Span, construct};
use crate::puzzle::sim::{Board, HEIGHT, MAX_COLOUR, Puzzle, WIDTH};
use crate::puzzle::solver::format_moves;
use crate::puzzle::solver::solve;
use crate::puzzle::verdict::Verdict;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What goes wrong on the judge's side (never the submission's fault).
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    /// The sandbox could not run the program.
    #[error("board #{index}: the sandbox failed: {source}")]
    Sandbox {
        /// The board.
        index: usize,
        /// The error.
        source: crate::judge::runner::RunError,
    },
    /// The checker gave FAIL (the judge's fault).
    #[error("board #{index}: judge failure: {message}\n{input}")]
    JudgeFailed {
        /// The board.
        index: usize,
        /// The checker's message.
        message: String,
        /// The puzzle.
        input: String,
    },
}

/// Which boards to make.
#[derive(Clone, Copy, Debug)]
pub struct BoardSpec {
    /// The session's seed.
    pub seed: u64,
    /// Moves per puzzle, chosen per board.
    pub moves: Span,
    /// Most blocks on a board (1..=35).
    pub max_blocks: u32,
}

/// A 64-bit mix (splitmix64's finaliser), so that nearby seeds and indices
/// give unrelated boards.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Board `index` of a session: a valid puzzle, the same for the same spec and
/// index. The block limit grows by one every 10 boards from 3, the colour limit
/// by one every 40 boards from 2.
pub fn board(spec: &BoardSpec, index: usize) -> Puzzle {
    let mut rng = fastrand::Rng::with_seed(mix(spec.seed ^ mix(index as u64)));
    let n = rng.u32(spec.moves.lo.max(1)..=spec.moves.hi.max(spec.moves.lo).max(1));
    let max_blocks = spec.max_blocks.clamp(1, (WIDTH * HEIGHT) as u32);
    let hi = (3 + index / 10).min(max_blocks as usize) as u32;
    let blocks = rng.u32(hi.div_ceil(3).max(1)..=hi);
    let colour_hi = (2 + index / 40).min(MAX_COLOUR as usize) as u32;
    let colours = rng.u32(1..=colour_hi.min(blocks));
    if rng.bool() && blocks >= 3 {
        let mut palette: Vec<u8> = (1..=MAX_COLOUR).collect();
        rng.shuffle(&mut palette);
        palette.truncate(colours as usize);
        let target = blocks.min(10 * n);
        for _ in 0..20 {
            if let Some(c) = construct(&mut rng, n, target, &palette) {
                return c.puzzle;
            }
        }
    }
    let mut gen_boards = BoardGen::new(rng.u64(..));
    // Few colours cannot fill many cells without a run: add colours, then
    // drop blocks, until a board exists (one block always does).
    let (mut blocks, mut colours) = (blocks as usize, colours as usize);
    loop {
        let shape = Shape {
            blocks,
            colours,
            min_three_each: false,
        };
        if let Some(b) = gen_boards.board(shape) {
            return Puzzle { n, board: b };
        }
        if colours < MAX_COLOUR as usize {
            colours += 1;
        } else if blocks > 1 {
            blocks -= 1;
        } else {
            let mut b = Board::EMPTY;
            b.set(0, 0, 1);
            return Puzzle { n, board: b };
        }
    }
}

/// Runs a compiled submission on puzzles and judges the outputs, through
/// the one judging path ([`Judge`]).
pub struct Tester<'a> {
    /// How to run and judge.
    pub judge: Judge<'a>,
    /// The program.
    pub program: &'a Program,
}

impl Tester<'_> {
    /// Runs the program on a puzzle (board `index`, for messages) and judges
    /// it; never FAIL (that is a [`StressError`]).
    pub fn test(&self, index: usize, puzzle: &Puzzle) -> Result<TestResult, StressError> {
        let input = puzzle.to_text();
        let reference = solve(puzzle, self.judge.options.reading).moves;
        let result = self
            .judge
            .test(
                self.program,
                format!("board #{index}"),
                input.as_bytes(),
                puzzle,
                &reference,
            )
            .map_err(|source| StressError::Sandbox { index, source })?;
        if result.verdict == Verdict::Fail {
            return Err(StressError::JudgeFailed {
                index,
                message: result.reason,
                input,
            });
        }
        Ok(result)
    }
}

/// When to stop trying boards.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// After this many boards.
    Count(usize),
    /// Stop starting boards after this long.
    Time(Duration),
}

/// The first failing board of a search.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Its index in the session.
    pub index: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// How the submission failed on it.
    pub outcome: TestResult,
}

/// What a search found.
#[derive(Debug)]
pub struct Search {
    /// Boards tested (all of them passed, except the failure).
    pub tried: usize,
    /// The failing board with the smallest index, if any.
    pub failure: Option<Failure>,
    /// Time taken.
    pub elapsed: Duration,
}

/// Tests boards `0, 1, 2, ...` on `jobs` threads until the budget is spent,
/// `spent()` says so, or a board fails. Boards are claimed in index order,
/// so when a failure at `f` is reported every board below `f` was tested
/// and passed (or was one of the `excluded` puzzles, never run); a judge
/// error on a board below the first failure is returned as the error.
/// `on_board(index, puzzle)` is called after each tested board.
fn search(
    spec: &BoardSpec,
    budget: Budget,
    jobs: usize,
    limits: &Bounds,
    test: &(dyn Fn(usize, &Puzzle) -> Result<TestResult, StressError> + Sync),
    on_board: &(dyn Fn(usize, &Puzzle) + Sync),
) -> Result<Search, StressError> {
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let stop_at = AtomicUsize::new(usize::MAX);
    let tried = AtomicUsize::new(0);
    // The earliest bad board: a failure or a judge error.
    let first: Mutex<Option<(usize, Result<Failure, StressError>)>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let over = match budget {
                        Budget::Count(c) => next.load(Ordering::SeqCst) >= c,
                        Budget::Time(t) => start.elapsed() >= t,
                    } || limits.spent().is_some();
                    if over {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= stop_at.load(Ordering::SeqCst) || matches!(budget, Budget::Count(c) if i >= c) {
                        break;
                    }
                    let puzzle = board(spec, i);
                    if limits.excluded.contains(&puzzle) {
                        continue;
                    }
                    let result = limits.metered(test(i, &puzzle));
                    tried.fetch_add(1, Ordering::SeqCst);
                    on_board(i, &puzzle);
                    let bad = match result {
                        Ok(o) if o.verdict == Verdict::Accepted => None,
                        Ok(outcome) => Some(Ok(Failure {
                            index: i,
                            puzzle,
                            outcome,
                        })),
                        Err(e) => Some(Err(e)),
                    };
                    if let Some(bad) = bad {
                        stop_at.fetch_min(i, Ordering::SeqCst);
                        let mut slot = first.lock().unwrap_or_else(|e| e.into_inner());
                        if slot.as_ref().is_none_or(|(j, _)| i < *j) {
                            *slot = Some((i, bad));
                        }
                    }
                }
            });
        }
    });
    let first = first.into_inner().unwrap_or_else(|e| e.into_inner());
    let tried = tried.into_inner();
    let elapsed = start.elapsed();
    match first {
        None => Ok(Search {
            tried,
            failure: None,
            elapsed,
        }),
        Some((_, Ok(f))) => Ok(Search {
            tried,
            failure: Some(f),
            elapsed,
        }),
        Some((_, Err(e))) => Err(e),
    }
}

/// Caps on shrinking.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkLimits {
    /// Most runs of the submission.
    pub runs: usize,
    /// Most time spent.
    pub time: Duration,
}

/// A shrunk failure.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The smallest failing puzzle found.
    pub puzzle: Puzzle,
    /// How the submission fails on it (same verdict as the original).
    pub outcome: TestResult,
    /// Runs of the submission spent.
    pub runs: usize,
    /// Successful shrinking steps.
    pub steps: usize,
    /// Which cap stopped shrinking before a fixpoint (`None`: a fixpoint).
    pub cap_hit: Option<&'static str>,
    /// Time taken.
    pub elapsed: Duration,
}

/// The size shrinking makes smaller, compared in this order: blocks, moves,
/// distinct colours, sum of colours, sum of block columns, sum of block rows.
fn size(p: &Puzzle) -> (u32, u32, usize, u32, u32, u32) {
    let counts = p.board.colour_counts();
    let distinct = counts[1..].iter().filter(|&&c| c > 0).count();
    let colour_sum = counts.iter().enumerate().map(|(c, &k)| c as u32 * k as u32).sum();
    let (mut xs, mut ys) = (0, 0);
    for x in 0..WIDTH {
        for y in 0..p.board.height(x) {
            xs += x as u32;
            ys += y as u32;
        }
    }
    (p.board.block_count(), p.n, distinct, colour_sum, xs, ys)
}

/// Whether a puzzle is a valid input: `n >= 1`, no run, nothing floating,
/// at least one block.
pub fn valid(p: &Puzzle) -> bool {
    p.n >= 1 && !p.board.is_empty() && !p.board.has_run() && !p.board.has_floating()
}

/// The board without the block at (x, y); the blocks above it fall.
fn without(board: &Board, x: usize, y: usize) -> Board {
    let mut b = *board;
    let h = b.height(x);
    for yy in y..h {
        let above = if yy + 1 < h { b.get(x, yy + 1) } else { 0 };
        b.set(x, yy, above);
    }
    b
}

/// Candidate puzzles smaller than `p`, in the order they are tried.
pub fn candidates(p: &Puzzle) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let b = p.board;
    // Fewer moves, fewest first.
    for n in 1..p.n {
        out.push(Puzzle { n, board: b });
    }
    let counts = b.colour_counts();
    let present: Vec<u8> = (1..=MAX_COLOUR).filter(|&c| counts[c as usize] > 0).collect();
    // A whole colour removed.
    for &c in &present {
        let cols: Vec<Vec<u8>> = b
            .columns()
            .into_iter()
            .map(|col| col.into_iter().filter(|&k| k != c).collect())
            .collect();
        if let Some(board) = Board::from_columns(&cols) {
            out.push(Puzzle { n: p.n, board });
        }
    }
    // One block removed (top rows first, right columns first).
    for y in (0..HEIGHT).rev() {
        for x in (0..WIDTH).rev() {
            if b.get(x, y) != 0 {
                out.push(Puzzle {
                    n: p.n,
                    board: without(&b, x, y),
                });
            }
        }
    }
    // A colour renamed to a smaller one (merging into a present one is fine
    // when it makes no run).
    for &c in present.iter().rev() {
        for to in 1..c {
            let cols: Vec<Vec<u8>> = b
                .columns()
                .into_iter()
                .map(|col| col.into_iter().map(|k| if k == c { to } else { k }).collect())
                .collect();
            if let Some(board) = Board::from_columns(&cols) {
                out.push(Puzzle { n: p.n, board });
            }
        }
    }
    // A column moved one left into an empty column.
    let cols = b.columns();
    for x in 1..WIDTH {
        if cols[x - 1].is_empty() && !cols[x].is_empty() {
            let mut c = cols.clone();
            c.swap(x - 1, x);
            if let Some(board) = Board::from_columns(&c) {
                out.push(Puzzle { n: p.n, board });
            }
        }
    }
    // A top block moved onto the column to its left.
    for x in 1..WIDTH {
        if let Some(&top) = cols[x].last()
            && cols[x - 1].len() < HEIGHT
        {
            let mut c = cols.clone();
            c[x].pop();
            c[x - 1].push(top);
            if let Some(board) = Board::from_columns(&c) {
                out.push(Puzzle { n: p.n, board });
            }
        }
    }
    let here = size(p);
    out.retain(|q| valid(q) && size(q) < here);
    out
}

/// Shrinks a failing puzzle: the smallest puzzle (in the order of [`size`])
/// reachable by single candidate steps on which `test` still gives `verdict`,
/// never one of `bounds.excluded`. `test` errors (a judge failure on a
/// candidate) abort shrinking.
fn shrink(
    puzzle: Puzzle,
    outcome: TestResult,
    limits: ShrinkLimits,
    bounds: &Bounds,
    test: &mut dyn FnMut(&Puzzle) -> Result<TestResult, StressError>,
) -> Result<Shrunk, StressError> {
    let start = Instant::now();
    let verdict = outcome.verdict;
    let (mut best, mut best_outcome) = (puzzle, outcome);
    // The excluded puzzles count as tried: never run, never chosen.
    let mut seen: FxHashMap<Puzzle, bool> = bounds.excluded.iter().map(|p| (*p, false)).collect();
    let (mut runs, mut steps, mut cap_hit) = (0, 0, None);
    'outer: loop {
        for cand in candidates(&best) {
            if seen.contains_key(&cand) {
                continue;
            }
            if runs >= limits.runs {
                cap_hit = Some("runs");
                break 'outer;
            }
            if start.elapsed() >= limits.time {
                cap_hit = Some("time");
                break 'outer;
            }
            if let Some(what) = bounds.spent() {
                cap_hit = Some(what);
                break 'outer;
            }
            runs += 1;
            let o = bounds.metered(test(&cand))?;
            let same = o.verdict == verdict;
            seen.insert(cand, same);
            if same {
                best = cand;
                best_outcome = o;
                steps += 1;
                continue 'outer;
            }
        }
        break;
    }
    Ok(Shrunk {
        puzzle: best,
        outcome: best_outcome,
        runs,
        steps,
        cap_hit,
        elapsed: start.elapsed(),
    })
}

/// What one counterexample search may spend, and the puzzles it never
/// shows: what [`search`] and [`shrink`] both watch.
struct Bounds<'a> {
    /// Most runs in all.
    runs: usize,
    /// Most CPU time of the program in all, ms.
    cpu_ms: u64,
    /// Runs made so far.
    ran: AtomicUsize,
    /// The program's time so far (CPU, or wall where longer), ms.
    used_ms: AtomicU64,
    /// Puzzles never run nor shown (the package's tests).
    excluded: &'a FxHashSet<Puzzle>,
}

impl Bounds<'_> {
    /// Which bound is spent, if one is.
    fn spent(&self) -> Option<&'static str> {
        if self.ran.load(Ordering::SeqCst) >= self.runs {
            Some("runs")
        } else if self.used_ms.load(Ordering::SeqCst) >= self.cpu_ms {
            Some("cpu")
        } else {
            None
        }
    }

    /// Counts a test's runs and their time: every run, a TLE run again
    /// included ([`TestResult::runs`], [`TestResult::spent_ms`]), each its
    /// CPU time or its wall time where that is longer (a program that
    /// sleeps until the wall limit, run after run, spends the search's
    /// budget as one that computes does).
    fn metered(&self, r: Result<TestResult, StressError>) -> Result<TestResult, StressError> {
        let runs = r.as_ref().map_or(1, |o| o.runs.max(1) as usize);
        self.ran.fetch_add(runs, Ordering::SeqCst);
        if let Ok(o) = &r {
            let last = o.time_ms.max(o.wall_ms);
            self.used_ms
                .fetch_add(o.spent_ms.max(last).max(1), Ordering::SeqCst);
        }
        r
    }
}

/// The boards a counterexample search tries where nothing else is asked
/// (serve, `grade --counterexamples`): `stress`'s defaults (seed 1, 1 to 5
/// moves, up to 20 blocks), so `mayan-judge stress` on the same program
/// finds the same board.
pub const DEFAULT_BOARDS: BoardSpec = BoardSpec {
    seed: 1,
    moves: Span { lo: 1, hi: 5 },
    max_blocks: 20,
};

/// Runs one counterexample search makes at most by default: the
/// wrong-answer reference programs need at most 113 (`stress --jobs 1`).
pub const DEFAULT_RUNS: usize = 400;

/// The program's CPU time one search spends at most by default.
pub const DEFAULT_CPU: Duration = Duration::from_secs(10);

/// What a counterexample search may spend.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Which boards to try before one fails.
    pub boards: Budget,
    /// Caps on shrinking alone.
    pub shrink: ShrinkLimits,
    /// Most runs of the program in all, searching and shrinking.
    pub runs: usize,
    /// Most time of the program in all: the runs' CPU times summed, each
    /// run's wall time where that is longer.
    pub cpu: Duration,
}

impl Effort {
    /// At most `runs` runs and `cpu` of the program's CPU time in all,
    /// whatever the wall time (a search that waits for slots).
    pub fn bounded(runs: usize, cpu: Duration) -> Effort {
        Effort {
            boards: Budget::Count(runs),
            shrink: ShrinkLimits {
                runs,
                time: Duration::MAX,
            },
            runs,
            cpu,
        }
    }
}

/// A failing board and its shrunk form.
#[derive(Clone, Debug)]
pub struct Found {
    /// The first failing board of the search.
    pub failure: Failure,
    /// The smallest board shrinking reached from it.
    pub shrunk: Shrunk,
}

/// What [`find_counterexample`] found.
#[derive(Debug)]
pub struct Hunt {
    /// Boards the search tested.
    pub tried: usize,
    /// The search's own account (time taken).
    pub elapsed: Duration,
    /// Runs of the program in all.
    pub runs: usize,
    /// The program's CPU time in all, ms.
    pub cpu_ms: u64,
    /// The counterexample, if a board failed.
    pub found: Option<Found>,
}

/// The overall verdicts a counterexample is searched for (`serve` and
/// `grade --counterexamples`): a program that answers wrongly, in the wrong
/// format, leaves no output file (file I/O), crashes or runs too long on
/// some test may do so on a small board.
pub const SEARCHED_VERDICTS: [&str; 5] = ["WA", "PE", "NOF", "RE", "TLE"];

/// THE counterexample search (`stress`, `serve` and `grade
/// --counterexamples` all call it): boards of `spec` in order until one
/// fails ([`search`], on `jobs` threads), then that board shrunk while it
/// fails the same way ([`shrink`]), within `effort`, never running nor
/// choosing a puzzle of `excluded` (the package's tests: a counterexample
/// gives no hidden test away). `test(index, puzzle)` runs the prepared
/// program once (e.g. [`Tester::test`], through a pool's slot);
/// `on_board` is called after each board of the search, `on_failure` once
/// a board fails, before shrinking.
pub fn find_counterexample(
    spec: &BoardSpec,
    effort: Effort,
    excluded: &FxHashSet<Puzzle>,
    jobs: usize,
    test: &(dyn Fn(usize, &Puzzle) -> Result<TestResult, StressError> + Sync),
    on_board: &(dyn Fn(usize, &Puzzle) + Sync),
    on_failure: &dyn Fn(&Failure),
) -> Result<Hunt, StressError> {
    let bounds = Bounds {
        runs: effort.runs,
        cpu_ms: u64::try_from(effort.cpu.as_millis()).unwrap_or(u64::MAX),
        ran: AtomicUsize::new(0),
        used_ms: AtomicU64::new(0),
        excluded,
    };
    let searched = search(spec, effort.boards, jobs, &bounds, test, on_board)?;
    let found = match searched.failure {
        None => None,
        Some(failure) => {
            on_failure(&failure);
            let index = failure.index;
            let shrunk = shrink(
                failure.puzzle,
                failure.outcome.clone(),
                effort.shrink,
                &bounds,
                &mut |p| test(index, p),
            )?;
            Some(Found { failure, shrunk })
        }
    };
    Ok(Hunt {
        tried: searched.tried,
        elapsed: searched.elapsed,
        runs: bounds.ran.into_inner(),
        cpu_ms: bounds.used_ms.into_inner(),
        found,
    })
}

/// Most bytes of a program's output kept with a counterexample.
const OUTPUT_KEPT: usize = 4096;

impl Counterexample {
    /// The stored form of a hunt's counterexample (`None`: none found).
    pub fn of(hunt: &Hunt) -> Option<Counterexample> {
        let found = hunt.found.as_ref()?;
        let o = &found.shrunk.outcome;
        let mut output = String::from_utf8_lossy(&o.transcript.stdout).into_owned();
        if output.len() > OUTPUT_KEPT {
            let mut cut = OUTPUT_KEPT;
            while !output.is_char_boundary(cut) {
                cut -= 1;
            }
            output.truncate(cut);
            output.push_str("\n...");
        }
        let mut result = TestResult {
            test: "counterexample".into(),
            points: 0,
            transcript: Default::default(),
            ..o.clone()
        };
        result.input = found.shrunk.puzzle.to_text();
        Some(Counterexample {
            result,
            output,
            answer: format_moves(o.transcript.reference.solution()),
            boards: hunt.tried,
            runs: hunt.runs,
            cpu_ms: hunt.cpu_ms,
        })
    }

    /// The checker's reason, as data (`None`: the run failed before its
    /// output was checked: a runtime error, a time limit).
    pub fn reason(&self) -> Option<&Reason> {
        self.result.judgement.as_ref().map(|j| &j.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::solver::Reading;

    #[test]
    fn every_failing_verdict_a_program_causes_is_searched_and_no_other() {
        use crate::puzzle::verdict::Verdict::*;
        for v in [
            WrongAnswer,
            PresentationError,
            NoOutputFile,
            RuntimeError,
            TimeLimit,
        ] {
            assert!(SEARCHED_VERDICTS.contains(&v.code()), "{v:?}");
        }
        for v in [Accepted, CompileError, Fail] {
            assert!(!SEARCHED_VERDICTS.contains(&v.code()), "{v:?}");
        }
    }

    fn spec(seed: u64) -> BoardSpec {
        BoardSpec {
            seed,
            moves: Span { lo: 1, hi: 5 },
            max_blocks: 35,
        }
    }

    #[test]
    fn boards_are_valid_reproducible_and_grow() {
        let s = spec(7);
        let mut largest = 0;
        for i in 0..600 {
            let p = board(&s, i);
            assert!(valid(&p), "board {i}: {p:?}");
            assert!((1..=5).contains(&p.n));
            assert_eq!(p, board(&s, i));
            if i < 10 {
                assert!(p.board.block_count() <= 3);
            }
            largest = largest.max(p.board.block_count());
        }
        assert!(largest >= 30, "largest {largest}");
        assert_ne!(board(&spec(7), 5), board(&spec(8), 5));
    }

    #[test]
    fn large_boards_are_not_all_impossible() {
        let s = spec(3);
        let solvable = (400..460)
            .map(|i| board(&s, i))
            .filter(|p| p.board.block_count() >= 20 && solve(p, Reading::LITERAL).moves.is_some())
            .count();
        assert!(solvable >= 10, "{solvable}");
    }

    fn bounds(excluded: &FxHashSet<Puzzle>) -> Bounds<'_> {
        Bounds {
            runs: usize::MAX,
            cpu_ms: u64::MAX,
            ran: AtomicUsize::new(0),
            used_ms: AtomicU64::new(0),
            excluded,
        }
    }

    fn outcome(verdict: Verdict) -> TestResult {
        TestResult {
            verdict,
            ..TestResult::new("t".into(), b"")
        }
    }

    #[test]
    fn shrinking_finds_a_small_board_and_keeps_the_verdict() {
        // A fake submission that fails (WA) whenever colour 3 holds at least
        // two blocks, and times out on boards of more than 20 blocks.
        let mut fake = |p: &Puzzle| -> Result<TestResult, StressError> {
            let v = if p.board.block_count() > 20 {
                Verdict::TimeLimit
            } else if p.board.colour_counts()[3] >= 2 {
                Verdict::WrongAnswer
            } else {
                Verdict::Accepted
            };
            Ok(outcome(v))
        };
        let s = spec(11);
        let start = (0..)
            .map(|i| board(&s, 200 + i))
            .find(|p| {
                p.board.block_count() >= 8 && p.board.block_count() <= 20 && p.board.colour_counts()[3] >= 2
            })
            .expect("a failing board");
        let limits = ShrinkLimits {
            runs: 2000,
            time: Duration::from_secs(60),
        };
        let none = FxHashSet::default();
        let open = bounds(&none);
        let a = shrink(start, outcome(Verdict::WrongAnswer), limits, &open, &mut fake).unwrap();
        assert_eq!(a.outcome.verdict, Verdict::WrongAnswer);
        assert_eq!(a.puzzle.board.block_count(), 2);
        assert_eq!(a.puzzle.n, 1);
        assert!(a.cap_hit.is_none());
        let b = shrink(start, outcome(Verdict::WrongAnswer), limits, &open, &mut fake).unwrap();
        assert_eq!(a.puzzle, b.puzzle);
        let capped = ShrinkLimits { runs: 3, ..limits };
        let c = shrink(
            start,
            outcome(Verdict::WrongAnswer),
            capped,
            &bounds(&none),
            &mut fake,
        )
        .unwrap();
        assert_eq!((c.runs, c.cap_hit), (3, Some("runs")));
    }

    /// A fake submission: WA whenever colour 3 holds at least two blocks.
    fn colour_three_twice(_: usize, p: &Puzzle) -> Result<TestResult, StressError> {
        let v = if p.board.colour_counts()[3] >= 2 {
            Verdict::WrongAnswer
        } else {
            Verdict::Accepted
        };
        Ok(TestResult {
            time_ms: 10,
            ..outcome(v)
        })
    }

    /// The search of [`find_counterexample`] on one thread, nothing observed.
    fn hunt(
        effort: Effort,
        excluded: &FxHashSet<Puzzle>,
        test: &(dyn Fn(usize, &Puzzle) -> Result<TestResult, StressError> + Sync),
    ) -> Hunt {
        find_counterexample(&spec(11), effort, excluded, 1, test, &|_, _| (), &|_| ()).unwrap()
    }

    #[test]
    fn a_counterexample_is_never_one_of_the_excluded_puzzles() {
        let effort = Effort::bounded(5000, Duration::from_secs(3600));
        let none = FxHashSet::default();
        let smallest = hunt(effort, &none, &colour_three_twice)
            .found
            .expect("a failure")
            .shrunk
            .puzzle;
        assert_eq!(smallest.board.block_count(), 2);
        // The package holds that very board: another one is shown.
        let excluded: FxHashSet<Puzzle> = [smallest].into_iter().collect();
        let other = hunt(effort, &excluded, &colour_three_twice);
        let shown = Counterexample::of(&other).unwrap();
        let other = other.found.expect("a failure").shrunk.puzzle;
        assert_ne!(other, smallest);
        assert!(other.board.colour_counts()[3] >= 2);
        assert_eq!(Puzzle::parse(shown.result.input.as_bytes()).unwrap(), other);
    }

    #[test]
    fn a_counterexample_search_stops_at_its_runs_and_its_cpu_time() {
        let none = FxHashSet::default();
        let passes = |_: usize, _: &Puzzle| {
            Ok(TestResult {
                time_ms: 10,
                ..outcome(Verdict::Accepted)
            })
        };
        let h = hunt(Effort::bounded(30, Duration::from_secs(3600)), &none, &passes);
        assert_eq!((h.runs, h.found.is_none()), (30, true));
        let h = hunt(Effort::bounded(1000, Duration::from_millis(100)), &none, &passes);
        assert_eq!((h.runs, h.cpu_ms), (10, 100), "10 runs of 10 ms");
        // A program that sleeps uses no CPU time: its wall time counts.
        let sleeps = |_: usize, _: &Puzzle| {
            Ok(TestResult {
                wall_ms: 1000,
                ..outcome(Verdict::Accepted)
            })
        };
        let h = hunt(Effort::bounded(1000, Duration::from_secs(3)), &none, &sleeps);
        assert_eq!(h.runs, 3, "3 runs of a second's sleep");
        // Shrinking shares the bounds: a failure found at the last run is
        // not shrunk past them.
        let h = hunt(
            Effort::bounded(60, Duration::from_secs(3600)),
            &none,
            &colour_three_twice,
        );
        assert!(h.runs <= 60, "{}", h.runs);
    }

    /// A runner whose every run exits after 1040 ms of CPU time with no
    /// output, counting its runs: under a 1000 ms limit, a TLE close
    /// enough to the limit to be run again.
    #[derive(Default)]
    struct SlightlySlow {
        runs: AtomicUsize,
    }

    impl crate::judge::runner::Runner for SlightlySlow {
        fn run(
            &self,
            _: &crate::judge::sandbox::RunSpec,
        ) -> Result<crate::judge::sandbox::RunResult, crate::judge::runner::RunError> {
            self.runs.fetch_add(1, Ordering::SeqCst);
            Ok(crate::judge::sandbox::RunResult {
                status: crate::judge::sandbox::Status::Exited(0),
                cpu_ms: 1040,
                wall_ms: 1040,
                peak_memory_kib: 1024,
                stdout: Vec::new(),
                stderr: Vec::new(),
                output_file: None,
            })
        }
    }

    #[test]
    fn a_counterexample_search_counts_every_run_of_a_tle_run_again_against_its_budget() {
        let runner = SlightlySlow::default();
        let program = Program {
            program: "solution".into(),
            args: Vec::new(),
            files: Vec::new(),
            cached: true,
            source: None,
            facts: Default::default(),
        };
        let tester = Tester {
            judge: Judge {
                runner: &runner,
                limits: crate::package::ProblemLimits {
                    time_ms: 1000,
                    ..Default::default()
                },
                options: Default::default(),
                io: None,
                retry_tle: 2,
            },
            program: &program,
        };
        let none = FxHashSet::default();
        let h = hunt(Effort::bounded(1000, Duration::from_secs(5)), &none, &|i, p| {
            tester.test(i, p)
        });
        let made = runner.runs.load(Ordering::SeqCst);
        assert_eq!(h.runs, made, "every run counted, the ones run again too");
        assert!(
            h.cpu_ms >= 1040 * made as u64,
            "{} ms counted for {made} runs of 1040 ms",
            h.cpu_ms
        );
        // Three runs of each board tried (two retries): two spend the 5 s.
        assert!(made <= 6, "{made} runs for a budget of 5 s");
    }

    #[test]
    fn removing_a_block_lets_the_ones_above_fall() {
        let b = Board::from_columns(&[vec![1, 2, 3], vec![], vec![], vec![], vec![]]).unwrap();
        let w = without(&b, 0, 1);
        assert_eq!(w.columns()[0], vec![1, 3]);
        assert!(!w.has_floating());
    }
}
