//! Command-line structure (clap derive). Only argument definitions live here;
//! each subcommand's logic is in `commands/<name>.rs`.

use crate::judge::pool::Jobs;
use crate::puzzle::generate::{BlockCounts, MoveCounts, PerColour};
use crate::puzzle::solver::{MemorySize, Reading};
use crate::workflows::export::kattis::License;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Exit codes, shared by `--help` and the README (in full: docs/COMMANDS.md).
pub const EXIT_CODES: &str = "\
Exit codes:
  check (testlib protocol): 0 AC, 1 WA, 2 PE, 3 FAIL (judge error)
  check --protocol kattis:   42 accepted, 43 wrong answer, 1 judge error
  check --protocol lemon:    0 judged (score in SCORE_FILE), 3 judge error
  validate:                  0 all valid, 1 problems found, 2 unreadable package or files
  ci:                        0 all as expected, 1 mismatch or broken package, 2 unreadable root
  grade:                     0 every test AC, 1 some test not AC, 2 judge or configuration error
  stress:                    0 nothing failed, 1 a failing board found, 2 judge or configuration error
  solve, bench, gen:         0 success, 2 bad input, judge or configuration error
  export:                    0 written, 2 refused or failed (nothing written)
  doctor:                    0 no check FAILs, 1 some check FAILs, 2 error
  serve:                     0 stopped by Ctrl-C or SIGTERM, 2 configuration error
  similar:                   0 no pair at or above the threshold, 1 some pair flagged, 2 nothing to compare or bad options";

/// The process's arguments as clap should see them: testlib's one-dash
/// `-appes` (after `check`'s files) becomes `--appes`, since clap would read
/// it as five short flags.
pub fn args() -> Vec<std::ffi::OsString> {
    let mut after_check = false;
    std::env::args_os()
        .map(|a| {
            if after_check && a.eq_ignore_ascii_case("-appes") {
                return "--appes".into();
            }
            after_check |= a == "check";
            a
        })
        .collect()
}

/// A grader for the Mayan puzzle (NOIP 2011 senior, day 1 problem 3).
#[derive(Debug, Parser)]
#[command(name = "mayan-judge", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the smallest solution of each puzzle (`-1` when none).
    Solve(SolveArgs),
    /// Judge one output: replay its moves and compare with the reference.
    #[command(
        after_help = "Exit codes (testlib): 0 AC, 1 WA, 2 PE, 3 FAIL (judge error, e.g. a bad input or a stored answer that disagrees with the solver)."
    )]
    Check(CheckArgs),
    /// Grade submissions on a problem's tests, in a sandbox.
    #[command(
        after_help = "Exit codes: 0 every test AC, 1 some verdict is not AC, 2 judge or configuration error (including a machine that cannot isolate programs, without --trusted)."
    )]
    Grade(GradeArgs),
    /// Check test data: inputs obey the rules, answers are the solver's.
    #[command(
        after_help = "Exit codes: 0 every test valid, 1 some problem found, 2 the package or files could not be read."
    )]
    Validate(ValidateArgs),
    /// Replay moves on a puzzle in the terminal, in colour, step by step.
    Show(ShowArgs),
    /// Package CI: validate every package and grade its reference programs.
    #[command(
        after_help = "Exit codes: 0 every check as expected, 1 some mismatch or broken package, 2 the root cannot be read, or the machine cannot isolate programs (without --trusted)."
    )]
    Ci(CiArgs),
    /// Measure the solver (against a C++ baseline) and the grader's overhead.
    Bench(BenchArgs),
    /// Which programs of a class were copied: pairs ranked by similarity, with the evidence.
    #[command(
        after_help = "Programs are parsed (C, C++, Python, Rust) into one token alphabet, so renaming, \
reformatting, reordered functions and translations between languages do not hide a copy; code most programs \
of the class share counts for little. A file that cannot be read (not text, over 1 MiB, unknown language) is \
named on stderr and the rest are compared. How it works, and the JSON schema: docs/SIMILAR.md.\n\n\
Exit codes: 0 no pair at or above the threshold (--threshold, or the class's own), 1 some pair at or above \
it, 2 fewer than two programs to compare, or bad options."
    )]
    Similar(SimilarArgs),
    /// Generate new tests (`.in` and `.ans`) from a seed, reproducibly.
    #[command(
        after_help = "Solvable puzzles are built backwards from the empty board, so they can hold many blocks; \
the answer stored is the solver's (the smallest solution, literal rules).\n\n\
Exit codes: 0 success, 2 configuration error (a request no board can meet, a file that already exists, \
or no test found within the bounded number of attempts)."
    )]
    Gen(GenArgs),
    /// Write a package in another judge's problem format (Kattis, Polygon, Hydro, DMOJ, CMS, LemonLime).
    #[command(
        after_help = "The package is built in a temporary folder beside OUT_DIR and renamed into place when \
complete, so a failure leaves nothing behind. For Kattis, the folder's name is the problem id (a-z, 0-9).\n\n\
Exit codes: 0 written, 2 refused (OUT_DIR not empty without --force, a reading other than literal, \
no statement, an invalid test) or failed."
    )]
    Export(ExportArgs),
    /// Run a submission on random boards until it fails, then shrink the board.
    #[command(
        after_help = "Board i is made from (seed, i) alone, growing from a few blocks to --max-blocks; \
half are built backwards so that large boards have solutions. The reported failure is the failing \
board with the smallest index, shrunk while it fails with the same verdict.\n\n\
Exit codes: 0 nothing failed within the budget, 1 a failing board was found, \
2 judge or configuration error (including a submission that does not compile, or a missing compiler)."
    )]
    Stress(StressArgs),
    /// Check this machine for the sandbox: protections, and what makes timings noisy.
    #[command(
        after_help = "One line per check: PASS, WARN or FAIL, its name, what was found, and for WARN and \
FAIL the command that fixes it. Only a missing protection FAILs; timing noise (SMT, the CPU governor, \
turbo, transparent huge pages, a piped core pattern) at worst WARNs.\n\n\
Exit codes: 0 no check FAILs (the sandbox has every protection it needs), 1 some check FAILs, 2 error."
    )]
    Doctor(DoctorArgs),
    /// Run an online judge: contestants sign in, submit and see their results live.
    #[command(
        after_help = "The contest lives in an SQLite database (--db, default mayan-judge.db beside \
contest.toml, or in the current folder): restarting on the same database continues the same contest, \
and a submission is acknowledged only once it is on disk. Generated passwords are printed once and \
written to passwords.csv beside contest.toml (mode 0600). `serve --dry-run` prints what starting \
would change in the contestants and exits; `serve backup COPY` writes a consistent copy of the \
database (while a server runs on it, or not) instead of serving. See docs/SERVE.md.\n\n\
Exit codes: 0 stopped by Ctrl-C or SIGTERM (or the dry run printed, the backup written), \
2 configuration error (contest.toml, the package, the database, the address, a machine that cannot \
isolate programs without --trusted, a backup file that exists)."
    )]
    Serve(ServeArgs),
}

/// Options of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files (`-` reads standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// How to read the rules: literal, no-noop, at-most or no-noop+at-most.
    #[arg(long, default_value = "literal")]
    pub reading: Reading,
    /// Print nodes searched, time and peak memory for each puzzle (on stderr).
    #[arg(long)]
    pub stats: bool,
    /// Most memory for the solver's table of dead states (e.g. 256M, 2G); a
    /// full table forgets its cheapest entries, so a solve is slower, never
    /// wrong or aborted.
    #[arg(long, default_value = "1G")]
    pub memory: MemorySize,
}

/// Options of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The files, as the protocol orders them:
    /// testlib: INPUT OUTPUT [ANSWER [RESULT_FILE [-appes]]];
    /// kattis:  INPUT ANSWER FEEDBACK_DIR [IGNORED...] with the output on stdin;
    /// lemon:   INPUT OUTPUT ANSWER FULL_SCORE SCORE_FILE MESSAGE_FILE.
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// testlib's `-appes` after RESULT_FILE: the result file in the XML
    /// form Polygon's invokers read (written `-appes`, as testlib takes it).
    #[arg(long = "appes", hide = true)]
    pub appes: bool,
    /// The calling convention of the judging engine.
    #[arg(long, value_enum, default_value = "testlib")]
    pub protocol: Protocol,
    /// How to read the rules: literal, no-noop, at-most or no-noop+at-most.
    #[arg(long, default_value = "literal")]
    pub reading: Reading,
    /// Accept any valid solution, not only the smallest.
    #[arg(long)]
    pub any: bool,
    /// Show the board before and after each move, with every cascade step.
    #[arg(long)]
    pub trace: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Colours in the trace: auto (on a terminal), always, never.
    #[arg(long, default_value = "auto")]
    pub color: ColorChoice,
}

/// Checker calling conventions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// testlib (Polygon, Hydro, LOJ, UOJ, DMOJ's testlib checkers): `ok`,
    /// `wrong answer`, `wrong output format` or `FAIL` and the message on
    /// stderr, exit 0, 1, 2 or 3; RESULT_FILE gets the message (with
    /// `-appes`, testlib's XML result).
    Testlib,
    /// Kattis problem format (also DOMjudge): exit 42 accepted, 43 wrong
    /// answer, anything else a judge error; messages in FEEDBACK_DIR.
    Kattis,
    /// LemonLime special judge: the score into SCORE_FILE, the message into
    /// MESSAGE_FILE.
    Lemon,
}

/// When to paint boards with ANSI colours.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal only.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Options of `grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Source files or ready executables; a folder means every source file in it.
    #[arg(required_unless_present = "contest", conflicts_with = "contest")]
    pub submissions: Vec<PathBuf>,
    /// A contest folder: each sub-folder is a contestant (also under
    /// `DIR/source/`, LemonLime's layout, or `DIR/players/`, Arbiter's),
    /// whose program is `<contestant>/<stem>.<ext>` or
    /// `<contestant>/<stem>/<stem>.<ext>` (stem: the problem's name). Prints
    /// a ranking.
    #[arg(long, value_name = "DIR")]
    pub contest: Option<PathBuf>,
    /// The problem package [default: problems/mayan, found from the current
    /// folder upwards, else the copy built into the binary].
    #[arg(long)]
    pub problem: Option<PathBuf>,
    /// Only tests whose name matches this glob (e.g. `secret/*`, `sample/1`).
    #[arg(long)]
    pub tests: Option<String>,
    /// Compilations and runs at a time, all submissions together (one pool:
    /// no submission waits for another's slow test); `auto`: one per core
    /// the judge may use. The cost is timing noise: CPU time is measured
    /// per run, but runs side by side share caches and memory bandwidth, so
    /// times rise a little with each job (a few % at one per core), and
    /// much more past the cores. Use 1 when times near the limit decide
    /// verdicts; `auto` to grade a class fast (see docs/SPEED.md). With a
    /// slot for every core, each slot and its runs stay on a core of their
    /// own (`MAYAN_JUDGE_PIN=0`: not, e.g. on a machine shared with other work).
    #[arg(long, default_value = "1")]
    pub jobs: Jobs,
    /// Force the language (c, cpp, rust, python, exe) instead of detecting it.
    #[arg(long)]
    pub lang: Option<String>,
    /// NOIP file I/O: programs read STEM.in and write STEM.out in their
    /// folder (only STEM.out is judged), whatever the package says.
    #[arg(long, value_name = "STEM", value_parser = crate::package::FileIo::check_stem, conflicts_with = "stdio")]
    pub file_io: Option<String>,
    /// Programs read stdin and write stdout, whatever the package says.
    #[arg(long)]
    pub stdio: bool,
    /// Run a TLE close to the limit (finished within 1.05x of it, or out of
    /// wall time while computing) again, up to N times; the last run stands.
    /// 0: every run stops at the limit.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub retry_tle: u32,
    /// Write the points of every submission on every test as CSV to FILE
    /// (header `contestant,total,<test>,...`), for a spreadsheet.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the marks as an Excel workbook to FILE (.xlsx: Excel and WPS
    /// open it in any locale): rank, contestant, total, then the points of
    /// each test (#1..#N), headers in --locale's language.
    #[arg(long, value_name = "FILE")]
    pub xlsx: Option<PathBuf>,
    /// For each submission judged WA, PE, RE or TLE, search for the smallest
    /// board it fails on (the search `stress` makes, never a test of the
    /// package; at most 400 runs and 10 CPU seconds each) and draw it in
    /// its section of the --html report (and the JSON report).
    #[arg(long)]
    pub counterexamples: bool,
    /// Report files.
    #[command(flatten)]
    pub reports: ReportArgs,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// The language of the report on the terminal and of `--html` (`en`,
    /// `zh-CN`: a folder of `locales/`). Without it the terminal's report
    /// follows LC_ALL / LC_MESSAGES / LANG (`zh_CN.UTF-8`), else English.
    #[arg(long, value_name = "LANG")]
    pub locale: Option<crate::i18n::Locale>,
    /// Sandbox requirements.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

/// How far the sandbox must isolate programs.
#[derive(Debug, Args, Default)]
pub struct SandboxArgs {
    /// Run programs even where this machine cannot isolate them (not root,
    /// no mount/pid namespaces, no seccomp or no cgroups): only for
    /// programs you wrote yourself. Without it such a machine refuses to
    /// grade and says what is missing.
    #[arg(long)]
    pub trusted: bool,
}

/// Report files, written atomically (a crash never leaves half a report).
#[derive(Clone, Debug, Args, Default)]
pub struct ReportArgs {
    /// Write the report as JSON (versioned schema) to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write JUnit XML to FILE, for CI systems.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a Markdown table to FILE, to paste in an issue or a forum.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write one self-contained HTML page to FILE (boards drawn, moves replayed).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Options of `validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// A package folder (with problem.toml), or input files / folders of
    /// them [default: the package problems/mayan, found from here upwards].
    pub paths: Vec<PathBuf>,
    /// For files outside a package: the largest n allowed.
    #[arg(long, default_value_t = 5)]
    pub max_n: u32,
    /// For files outside a package: the reading their answers follow.
    #[arg(long, default_value = "literal")]
    pub reading: Reading,
    /// For files outside a package: allow reading-sensitive tests.
    #[arg(long)]
    pub allow_sensitive: bool,
    /// Report files.
    #[command(flatten)]
    pub reports: ReportArgs,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The puzzle (`-` reads stdin).
    pub input: PathBuf,
    /// Moves to replay (an answer file); without it, the smallest solution.
    pub moves: Option<PathBuf>,
    /// How to read the rules: literal, no-noop, at-most or no-noop+at-most.
    #[arg(long, default_value = "literal")]
    pub reading: Reading,
    /// Colours: auto (on a terminal), always, never.
    #[arg(long, default_value = "auto")]
    pub color: ColorChoice,
}

/// Options of `ci`.
#[derive(Debug, Args)]
pub struct CiArgs {
    /// The repository root (holding problems/, testdata/, reference/).
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Run only shard K of N (e.g. 1/2), for a CI matrix.
    #[arg(long, default_value = "1/1")]
    pub shard: crate::workflows::ci::Shard,
    /// Runs at a time, all reference programs together (one pool); `auto`:
    /// one per core the judge may use. More jobs add timing noise (runs
    /// side by side share caches and memory bandwidth): keep it at or
    /// under the cores, since ci checks time margins (see docs/SPEED.md).
    #[arg(long, default_value = "2")]
    pub jobs: Jobs,
    /// Report files.
    #[command(flatten)]
    pub reports: ReportArgs,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// Sandbox requirements.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

/// Options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Folder of the official tests (mayanN.in).
    #[arg(long, default_value = "../shared/noip2011-mayan")]
    pub official: PathBuf,
    /// The C++ baseline to compare with.
    #[arg(long, default_value = "reference/mayan/accepted/backtrack.cpp")]
    pub baseline: PathBuf,
    /// How many hard boards to generate per size.
    #[arg(long, default_value_t = 3)]
    pub boards: usize,
    /// Seed for the hard boards.
    #[arg(long, default_value_t = 2011)]
    pub seed: u64,
    /// Write the hard boards (n = 5) to this folder as `hardK.in`.
    #[arg(long)]
    pub save_boards: Option<PathBuf>,
    /// The memoised C++ baseline for the five-colour boards.
    #[arg(long, default_value = "reference/bench/memo.cpp")]
    pub memo_baseline: PathBuf,
    /// Folder of the five-colour benchmark boards (`*.in`, no solution).
    #[arg(long, default_value = "reference/bench")]
    pub family: PathBuf,
    /// The memory cap of the capped solve (the slowest n = 8 board).
    #[arg(long, default_value = "4M")]
    pub memory_cap: MemorySize,
    /// Only the n = 5 runs (no n = 8 hard boards, no five-colour boards at
    /// n = 6 and 7, no capped solve).
    #[arg(long)]
    pub quick: bool,
    /// Run only one part: `solver`, `grader` (the judge's overhead per test),
    /// `stress` (the stress loop's rate), `serve` (the online judge under
    /// load), `scaling` (judging on every core): these two take minutes, so
    /// they never run without --only; or `launch` (starting a run with the
    /// judge holding --hold-mib, against holding nothing).
    #[arg(long)]
    pub only: Option<BenchPart>,
    /// Runs per side in the grader overhead measurement (`--only launch`
    /// and `--only scaling`'s launch part: runs per path and size, at
    /// most 60 in scaling).
    #[arg(long, default_value_t = 200)]
    pub runs: usize,
    /// `--only serve`: contestants who submit; `--only analysis`: the
    /// class's contestants.
    #[arg(long, default_value_t = 200)]
    pub contestants: usize,
    /// `--only serve`: submissions in the burst, spread evenly over the
    /// contestants (at most 10 each: the default submission rate limit)
    /// [default: 1000]; `--only analysis`: the class's judged submissions
    /// [default: 2000]; `--only search`: the failing submissions searched
    /// [default: 4]; `--only contest-scale`: the largest contest measured
    /// [default: 20000].
    #[arg(long)]
    pub submissions: Option<usize>,
    /// `--only serve`: the server does not search failing submissions'
    /// counterexamples (contest.toml `[counterexamples] search = false`),
    /// to compare the burst's throughput with the search on (the default).
    #[arg(long)]
    pub no_counterexamples: bool,
    /// `--only serve`: the programs are C++ starting with `#include
    /// <bits/stdc++.h>`, as a NOIP class writes them (compile-bound; with
    /// `MAYAN_JUDGE_PCH=0` the server compiles them without the precompiled
    /// header, as before it).
    #[arg(long)]
    pub cpp: bool,
    /// `--only serve`: concurrent submitting clients.
    #[arg(long, default_value_t = 50)]
    pub clients: usize,
    /// `--only serve`: the server's --jobs; `--only scaling`: the largest
    /// --jobs measured [default: the cores the judge may use]; `--only
    /// compile`: grade's --jobs [default: 2].
    #[arg(long)]
    pub jobs: Option<usize>,
    /// `--only scaling` and `--only compile`: programs in the class graded.
    #[arg(long, default_value_t = 16)]
    pub class: usize,
    /// `--only scaling`: submissions in each burst the server judges
    /// (the more, the less its first and last moments weigh).
    #[arg(long, default_value_t = 160)]
    pub burst: usize,
    /// `--only serve`: judge on the bundled problem's first N tests only
    /// [default: the package `serve` finds, every test]; `--only scaling`:
    /// grade the class on them (the bursts on at most 10).
    #[arg(long, value_name = "N")]
    pub tests: Option<usize>,
    /// `--only serve`: seconds of the idle baseline (pages and API on the
    /// idle server, before the burst).
    #[arg(long, default_value_t = 10)]
    pub idle_secs: u64,
    /// No progress (`--only serve`).
    #[arg(long)]
    pub quiet: bool,
    /// `--only launch` (and scaling's launch part): MiB of heap the judge touches before the second
    /// series of runs (the cost of starting a run with the judge holding
    /// that much, against the judge holding nothing).
    #[arg(long, default_value_t = 1024, value_name = "MIB")]
    pub hold_mib: usize,
}

/// Options of `similar`.
#[derive(Debug, Args)]
pub struct SimilarArgs {
    /// Programs to compare: files, or folders (every .c .cpp .cc .py .rs file
    /// in them, one program each).
    #[arg(required_unless_present = "contest", conflicts_with = "contest")]
    pub sources: Vec<PathBuf>,
    /// A contest folder, read as `grade --contest` reads it (one sub-folder
    /// per contestant, also under source/ or players/): one program per contestant.
    #[arg(long)]
    pub contest: Option<PathBuf>,
    /// With --contest: the problem's file stem (`<contestant>/<stem>.<ext>`).
    #[arg(long, default_value = "mayan")]
    pub stem: String,
    /// Code handed out by the teacher: never counted as shared.
    #[arg(long, num_args = 1..)]
    pub template: Vec<PathBuf>,
    /// Published solutions or last year's class: compared with the programs,
    /// not with each other (repeatable).
    #[arg(long)]
    pub reference: Vec<PathBuf>,
    /// The language of files whose extension does not say (c, cpp, python, rust).
    #[arg(long)]
    pub language: Option<String>,
    /// Pairs at or above this similarity (0 to 1) are flagged and grouped
    /// [default: from the class: --spreads above its median similarity].
    #[arg(long)]
    pub threshold: Option<f64>,
    /// Without --threshold: pairs this many spreads (robust standard
    /// deviations) above the class's median similarity are flagged (the
    /// threshold kept between 0.5 and 0.55).
    #[arg(long, default_value_t = crate::similarity::SPREADS)]
    pub spreads: f64,
    /// A fragment in at least this share of the programs counts for nothing.
    #[arg(long, default_value_t = 0.2)]
    pub common_share: f64,
    /// Pairs shown on the terminal (and, with every flagged pair, in --html).
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Write every pair, with matched line ranges, as JSON (schema: docs/SIMILAR.md).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write the pairs as CSV, for a spreadsheet.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write one self-contained HTML page: the pairs side by side.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// Worker threads [default: the machine's cores].
    #[arg(long)]
    pub jobs: Option<usize>,
    /// No progress.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The parts of `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchPart {
    /// The solver against the C++ baseline.
    Solver,
    /// The grader's overhead per test against running the program bare.
    Grader,
    /// The `stress` loop's boards per second against running the program bare.
    Stress,
    /// The online judge under a burst of submissions: latencies against the
    /// idle server's (only with --only).
    Serve,
    /// Judging on every core: a class graded, and a burst served, with
    /// --jobs 1, 2, 4, ... up to the cores, as ratios to --jobs 1 (only with
    /// --only: minutes).
    Scaling,

    /// The cost of starting a run with the judge holding --hold-mib of
    /// memory against holding nothing, through the launcher and forked
    /// from the judge itself (only with --only).
    Launch,

    /// `similar` on the labelled corpus beside Dolos and copydetect, and its
    /// speed on 300 programs (only with --only; run from the repository).
    Similar,

    /// A compile-bound class (C++ including <bits/stdc++.h>) graded with
    /// the precompiled standard header and without, as a ratio (only with
    /// --only; --class programs, --jobs [default: 2]).
    Compile,

    /// The teacher's analysis page of a class of --contestants and
    /// --submissions judged submissions, computed and cached, against
    /// 100 ms (only with --only).
    Analysis,

    /// An accepted program's latency on the idle server and while
    /// --submissions failing programs' counterexample searches run (their
    /// runs asleep to the wall limit), against 0.1 s slower (only with
    /// --only; --jobs [default: 1]).
    Search,

    /// Every read of a contest (the rankings, the submission lists, the
    /// analysis) from four readers at once, with 100, 10,000 and 20,000
    /// judged submissions stored (--submissions N: 100, N/2, N), as ratios
    /// (only with --only).
    ContestScale,
}

/// Options of `gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// Seed: the same seed and options give the same files.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many tests.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Moves per puzzle: `N`, or a range `A..B` (both ends included) chosen per
    /// puzzle; up to 8 (above 5, a package's `max_n` must allow it).
    #[arg(long, default_value = "5")]
    pub n: MoveCounts,
    /// Blocks per puzzle: `B` means at least B, `A..B` between A and B [default:
    /// 3n..6n; 20..35 with --impossible; 3..5 with --bottom].
    #[arg(long)]
    pub blocks: Option<BlockCounts>,
    /// At most this many distinct colours (1..10); exactly this many with
    /// --per-colour.
    #[arg(long, visible_alias = "colors", default_value_t = 5,
          value_parser = clap::value_parser!(u8).range(1..=10))]
    pub colours: u8,
    /// Blocks of each colour: `K`, or a range `A..B` chosen per colour (at
    /// least 3). `--colours 5 --per-colour 6..7` makes the solver's hardest
    /// family: five colours of six or seven blocks each.
    #[arg(long, visible_alias = "per-color")]
    pub per_colour: Option<PerColour>,
    /// Puzzles with no solution under any reading, every colour at least
    /// three blocks (so that cheap pruning does not settle them).
    #[arg(long)]
    pub impossible: bool,
    /// Every block on the bottom row (the contest's 30% subtask, at most 5
    /// blocks), placed at random: solvable or not, unless --impossible. The
    /// official ones have one colour and n = 1 or 2: `--colours 1 --n 1..2`.
    #[arg(long)]
    pub bottom: bool,
    /// Keep tests whose answer depends on the reading of the rules.
    #[arg(long)]
    pub allow_sensitive: bool,
    /// Folder for the tests (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// File names: PREFIX1.in, PREFIX1.ans, ... [default: gen-<seed>-].
    #[arg(long)]
    pub prefix: Option<String>,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The format to write.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// The package folder (holding problem.toml and statement.md).
    #[arg(value_name = "PACKAGE")]
    pub package: PathBuf,
    /// The folder to write (created if missing; for Kattis its name is the problem id, e.g. `mayan`).
    #[arg(value_name = "OUT_DIR")]
    pub out: PathBuf,
    /// Replace OUT_DIR when it is not empty.
    #[arg(long)]
    pub force: bool,
    /// Where the problem comes from (Kattis only: `source`), e.g. "NOIP 2011".
    #[arg(long)]
    pub source: Option<String>,
    /// The statement's license (Kattis only: `license`): unknown, public-domain, cc0,
    /// cc-by, cc-by-sa, educational, permission.
    #[arg(long)]
    pub license: Option<License>,
    /// Who holds the rights (Kattis only: `rights_owner`).
    #[arg(long)]
    pub rights_owner: Option<String>,
    /// A testlib.h to ship with the compiled C++ checker, bridged (DMOJ only;
    /// without it the checker is checker.py as a module in DMOJ's judge
    /// process, which costs DMOJ less).
    #[arg(long, value_name = "FILE")]
    pub testlib: Option<PathBuf>,
}

/// Problem package formats `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// The Kattis / ICPC problem package format, as problemtools' verifyproblem checks it.
    Kattis,
    /// Codeforces Polygon's package (problem.xml, the testlib checker files/check.cpp).
    Polygon,
    /// Hydro's problem folder (testdata/config.yaml, checker_type: testlib); its testdata/ serves LOJ and UOJ.
    Hydro,
    /// A DMOJ problem folder (init.yml, the checker as a Python module: checker.py).
    Dmoj,
    /// A CMS task in the italy_yaml format (task.yaml, check/checker).
    Cms,
    /// A LemonLime contest folder (.cdf, data/, the special judge `check --protocol lemon`).
    Lemon,
}

/// Options of `stress`.
#[derive(Debug, Args)]
pub struct StressArgs {
    /// The source file (or a ready executable).
    pub submission: PathBuf,
    /// Seed: the same seed gives the same boards, whatever `--jobs`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many boards [default: 10000 unless --time].
    #[arg(long, conflicts_with = "time")]
    pub count: Option<usize>,
    /// Stop starting boards after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Most blocks on a board; boards grow up to it (1..35).
    #[arg(long, default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=35))]
    pub max_blocks: u32,
    /// Moves per puzzle: `N`, or a range `A..B` chosen per board.
    #[arg(long, default_value = "1..5")]
    pub n: MoveCounts,
    /// Boards run at a time; `auto` (the default): one per core the judge
    /// may use. More jobs than cores only add timing noise (a run near
    /// --time-limit may turn TLE); fewer leave cores idle.
    #[arg(long, default_value = "auto")]
    pub jobs: Jobs,
    /// CPU time limit per run, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub time_limit: u64,
    /// How to read the rules: literal, no-noop, at-most or no-noop+at-most.
    #[arg(long, default_value = "literal")]
    pub reading: Reading,
    /// Force the language (c, cpp, rust, python, exe) instead of detecting it.
    #[arg(long)]
    pub lang: Option<String>,
    /// Write the shrunk board as a test (`stress-<seed>-<board>.in` / `.ans`) to DIR.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Write an HTML report of the shrunk failure to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// NOIP file I/O: the program reads STEM.in and writes STEM.out in its
    /// folder (only STEM.out is judged) instead of stdin and stdout.
    #[arg(long, value_name = "STEM", value_parser = crate::package::FileIo::check_stem)]
    pub file_io: Option<String>,
    /// Most submission runs spent shrinking.
    #[arg(long, default_value_t = 2000)]
    pub shrink_runs: usize,
    /// Most seconds spent shrinking.
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0)]
    pub shrink_time: f64,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// Sandbox requirements.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

/// Options of `doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print the checks as JSON: an array of {name, level, found, fix}.
    #[arg(long)]
    pub json: bool,
    /// Colours of the levels: auto (on a terminal), always, never.
    #[arg(long, default_value = "auto")]
    pub color: ColorChoice,
}

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on: 0.0.0.0:8080 for a classroom's LAN; port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// The contest's file (see docs/SERVE.md); without it, an open practice
    /// with no contestants (the teacher adds none: give a contest file).
    #[arg(long)]
    pub contest: Option<PathBuf>,
    /// Package folder (default: contest.toml's `problem`, else as `grade` finds it).
    #[arg(long)]
    pub problem: Option<PathBuf>,
    /// The database file (created when missing).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Compilations and runs at a time, all submissions together (one pool
    /// of slots); `auto` (the default): one per core the judge may use (its
    /// CPU affinity and its cgroup's cpu.max respected). With a slot for
    /// every core, each slot and its runs stay on a core of their own
    /// (`MAYAN_JUDGE_PIN=0`: not, e.g. on a machine shared with other work).
    #[arg(long, default_value = "auto")]
    pub jobs: Jobs,
    /// HTTPS: the certificate chain (PEM); with --tls-key.
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// HTTPS: the private key (PEM); with --tls-cert.
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Behind a reverse proxy that terminates HTTPS: cookies marked Secure,
    /// the client's address read from X-Forwarded-For.
    #[arg(long)]
    pub behind_proxy: bool,
    /// Requests per second from one address while signed out (sign-ins
    /// are throttled apart: per name and address); bursts of five times as
    /// many: a class behind one address loads the sign-in page at once.
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub rate_address: u32,
    /// Requests per second of one signed-in user; bursts of five times as many.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub rate_user: u32,
    /// Submissions per minute of one contestant (as many in a burst).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub rate_submit: u32,
    /// Connections held at most in all; over it a new one is answered 503
    /// at once [default: the limit of open files, raised to its hard
    /// limit, less 128 kept for the judging].
    #[arg(long, value_name = "N")]
    pub connections: Option<usize>,
    /// Connections held at most from one address before a signed-in
    /// request comes on them (signed in, each counts against its account:
    /// 32 at most), never more than --connections [default: a quarter of
    /// --connections]. Not applied with --behind-proxy, where they all
    /// come from the proxy.
    #[arg(long, value_name = "N")]
    pub connections_per_address: Option<usize>,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
    /// Print what starting would change in the contestants (added, display
    /// names, passwords; nobody is removed) and exit without serving.
    #[arg(long)]
    pub dry_run: bool,
    /// Sandbox options.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// Instead of serving: `backup COPY`.
    #[command(subcommand)]
    pub action: Option<ServeAction>,
}

/// What `serve` does instead of serving.
#[derive(Debug, Subcommand)]
pub enum ServeAction {
    /// Write a consistent copy of the database (SQLite's online backup, in
    /// one step), while a server runs on it or not; the copy is mode 0600.
    Backup {
        /// The copy (must not exist).
        copy: PathBuf,
    },
}
