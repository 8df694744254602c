## `--help` (src/commands/help.rs): the words clap's derive cannot take
## from a catalogue. English `--help` is clap's own, from the doc comments
## of src/cli.rs; these are kept beside them.
help-usage = Usage: {$usage}
help-commands = Commands
help-arguments = Arguments
help-options = Options
help-flag-help = Print help
help-flag-version = Print version
help-about = A grader for the Mayan puzzle (NOIP 2011 senior, day 1 problem 3)
help-about-solve = Print the smallest solution of each puzzle (`-1` when none)
help-about-check = Judge one output: replay its moves and compare with the reference
help-about-grade = Grade submissions on a problem's tests, in a sandbox
help-about-validate = Check test data: inputs obey the rules, answers are the solver's
help-about-show = Replay moves on a puzzle in the terminal, in colour, step by step
help-about-ci = Package CI: validate every package and grade its reference programs
help-about-bench = Measure the solver (against a C++ baseline) and the grader's overhead
help-about-similar = Which programs of a class were copied: pairs ranked by similarity, with the evidence
help-about-gen = Generate new tests (`.in` and `.ans`) from a seed, reproducibly
help-about-export = Write a package in another judge's problem format (Kattis, Polygon, Hydro, DMOJ, CMS, LemonLime)
help-about-stress = Run a submission on random boards until it fails, then shrink the board
help-about-doctor = Check this machine for the sandbox: protections, and what makes timings noisy
help-about-serve = Run an online judge: contestants sign in, submit and see their results live
help-about-backup = Write a consistent copy of the database (SQLite's online backup, in one step), while a server runs on it or not; the copy is mode 0600
help-about-help = Print this message or the help of the given subcommand(s)
help-flag-help-more = Print help (see more with '--help')
help-flag-help-summary = Print help (see a summary with '-h')
## An argument's possible values and default, after its help (other
## languages than English: English shows clap's own).
help-values = {" "}[possible values: {$values}]
help-values-separator = {", "}
help-aliases = {" "}[alias: {$aliases}]
help-default = {" "}[default: {$value}]

## Each argument's help (help-arg-<command>-<id>) and the text after the
## options (help-after-<command>): English's are the doc comments and
## `after_help` of src/cli.rs (a unit test checks they are equal); English
## `--help` shows clap's own.
help-after =
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
      similar:                   0 no pair at or above the threshold, 1 some pair flagged, 2 nothing to compare or bad options
help-arg-solve-files = Puzzle files (`-` reads standard input)
help-arg-solve-reading = How to read the rules: literal, no-noop, at-most or no-noop+at-most
help-arg-solve-stats = Print nodes searched, time and peak memory for each puzzle (on stderr)
help-arg-solve-memory = Most memory for the solver's table of dead states (e.g. 256M, 2G); a full table forgets its cheapest entries, so a solve is slower, never wrong or aborted
help-after-check = Exit codes (testlib): 0 AC, 1 WA, 2 PE, 3 FAIL (judge error, e.g. a bad input or a stored answer that disagrees with the solver).
help-arg-check-files = The files, as the protocol orders them: testlib: INPUT OUTPUT [ANSWER [RESULT_FILE [-appes]]]; kattis:  INPUT ANSWER FEEDBACK_DIR [IGNORED...] with the output on stdin; lemon:   INPUT OUTPUT ANSWER FULL_SCORE SCORE_FILE MESSAGE_FILE
help-arg-check-protocol = The calling convention of the judging engine
help-arg-check-reading = How to read the rules: literal, no-noop, at-most or no-noop+at-most
help-arg-check-any = Accept any valid solution, not only the smallest
help-arg-check-trace = Show the board before and after each move, with every cascade step
help-arg-check-json = Print the result as JSON
help-arg-check-color = Colours in the trace: auto (on a terminal), always, never
help-after-grade = Exit codes: 0 every test AC, 1 some verdict is not AC, 2 judge or configuration error (including a machine that cannot isolate programs, without --trusted).
help-arg-grade-submissions = Source files or ready executables; a folder means every source file in it
help-arg-grade-contest = A contest folder: each sub-folder is a contestant (also under `DIR/source/`, LemonLime's layout, or `DIR/players/`, Arbiter's), whose program is `<contestant>/<stem>.<ext>` or `<contestant>/<stem>/<stem>.<ext>` (stem: the problem's name). Prints a ranking
help-arg-grade-problem = The problem package [default: problems/mayan, found from the current folder upwards, else the copy built into the binary]
help-arg-grade-tests = Only tests whose name matches this glob (e.g. `secret/*`, `sample/1`)
help-arg-grade-jobs = Compilations and runs at a time, all submissions together (one pool: no submission waits for another's slow test); `auto`: one per core the judge may use. The cost is timing noise: CPU time is measured per run, but runs side by side share caches and memory bandwidth, so times rise a little with each job (a few % at one per core), and much more past the cores. Use 1 when times near the limit decide verdicts; `auto` to grade a class fast (see docs/SPEED.md). With a slot for every core, each slot and its runs stay on a core of their own (`MAYAN_JUDGE_PIN=0`: not, e.g. on a machine shared with other work)
help-arg-grade-lang = Force the language (c, cpp, rust, python, exe) instead of detecting it
help-arg-grade-file-io = NOIP file I/O: programs read STEM.in and write STEM.out in their folder (only STEM.out is judged), whatever the package says
help-arg-grade-stdio = Programs read stdin and write stdout, whatever the package says
help-arg-grade-retry-tle = Run a TLE close to the limit (finished within 1.05x of it, or out of wall time while computing) again, up to N times; the last run stands. 0: every run stops at the limit
help-arg-grade-csv = Write the points of every submission on every test as CSV to FILE (header `contestant,total,<test>,...`), for a spreadsheet
help-arg-grade-xlsx = Write the marks as an Excel workbook to FILE (.xlsx: Excel and WPS open it in any locale): rank, contestant, total, then the points of each test (#1..#N), headers in --locale's language
help-arg-grade-counterexamples = For each submission judged WA, PE, RE or TLE, search for the smallest board it fails on (the search `stress` makes, never a test of the package; at most 400 runs and 10 CPU seconds each) and draw it in its section of the --html report (and the JSON report)
help-arg-grade-json = Write the report as JSON (versioned schema) to FILE
help-arg-grade-junit = Write JUnit XML to FILE, for CI systems
help-arg-grade-markdown = Write a Markdown table to FILE, to paste in an issue or a forum
help-arg-grade-html = Write one self-contained HTML page to FILE (boards drawn, moves replayed)
help-arg-grade-quiet = No progress bar or progress lines
help-arg-grade-locale = The language of the report on the terminal and of `--html` (`en`, `zh-CN`: a folder of `locales/`). Without it the terminal's report follows LC_ALL / LC_MESSAGES / LANG (`zh_CN.UTF-8`), else English
help-arg-grade-trusted = Run programs even where this machine cannot isolate them (not root, no mount/pid namespaces, no seccomp or no cgroups): only for programs you wrote yourself. Without it such a machine refuses to grade and says what is missing
help-after-validate = Exit codes: 0 every test valid, 1 some problem found, 2 the package or files could not be read.
help-arg-validate-paths = A package folder (with problem.toml), or input files / folders of them [default: the package problems/mayan, found from here upwards]
help-arg-validate-max-n = For files outside a package: the largest n allowed
help-arg-validate-reading = For files outside a package: the reading their answers follow
help-arg-validate-allow-sensitive = For files outside a package: allow reading-sensitive tests
help-arg-validate-json = Write the report as JSON (versioned schema) to FILE
help-arg-validate-junit = Write JUnit XML to FILE, for CI systems
help-arg-validate-markdown = Write a Markdown table to FILE, to paste in an issue or a forum
help-arg-validate-html = Write one self-contained HTML page to FILE (boards drawn, moves replayed)
help-arg-validate-quiet = No progress bar or progress lines
help-arg-show-input = The puzzle (`-` reads stdin)
help-arg-show-moves = Moves to replay (an answer file); without it, the smallest solution
help-arg-show-reading = How to read the rules: literal, no-noop, at-most or no-noop+at-most
help-arg-show-color = Colours: auto (on a terminal), always, never
help-after-ci = Exit codes: 0 every check as expected, 1 some mismatch or broken package, 2 the root cannot be read, or the machine cannot isolate programs (without --trusted).
help-arg-ci-root = The repository root (holding problems/, testdata/, reference/)
help-arg-ci-shard = Run only shard K of N (e.g. 1/2), for a CI matrix
help-arg-ci-jobs = Runs at a time, all reference programs together (one pool); `auto`: one per core the judge may use. More jobs add timing noise (runs side by side share caches and memory bandwidth): keep it at or under the cores, since ci checks time margins (see docs/SPEED.md)
help-arg-ci-json = Write the report as JSON (versioned schema) to FILE
help-arg-ci-junit = Write JUnit XML to FILE, for CI systems
help-arg-ci-markdown = Write a Markdown table to FILE, to paste in an issue or a forum
help-arg-ci-html = Write one self-contained HTML page to FILE (boards drawn, moves replayed)
help-arg-ci-quiet = No progress bar or progress lines
help-arg-ci-trusted = Run programs even where this machine cannot isolate them (not root, no mount/pid namespaces, no seccomp or no cgroups): only for programs you wrote yourself. Without it such a machine refuses to grade and says what is missing
help-arg-bench-official = Folder of the official tests (mayanN.in)
help-arg-bench-baseline = The C++ baseline to compare with
help-arg-bench-boards = How many hard boards to generate per size
help-arg-bench-seed = Seed for the hard boards
help-arg-bench-save-boards = Write the hard boards (n = 5) to this folder as `hardK.in`
help-arg-bench-memo-baseline = The memoised C++ baseline for the five-colour boards
help-arg-bench-family = Folder of the five-colour benchmark boards (`*.in`, no solution)
help-arg-bench-memory-cap = The memory cap of the capped solve (the slowest n = 8 board)
help-arg-bench-quick = Only the n = 5 runs (no n = 8 hard boards, no five-colour boards at n = 6 and 7, no capped solve)
help-arg-bench-only = Run only one part: `solver`, `grader` (the judge's overhead per test), `stress` (the stress loop's rate), `serve` (the online judge under load), `scaling` (judging on every core): these two take minutes, so they never run without --only; or `launch` (starting a run with the judge holding --hold-mib, against holding nothing)
help-arg-bench-runs = Runs per side in the grader overhead measurement (`--only launch` and `--only scaling`'s launch part: runs per path and size, at most 60 in scaling)
help-arg-bench-contestants = `--only serve`: contestants who submit; `--only analysis`: the class's contestants
help-arg-bench-submissions = `--only serve`: submissions in the burst, spread evenly over the contestants (at most 10 each: the default submission rate limit) [default: 1000]; `--only analysis`: the class's judged submissions [default: 2000]; `--only search`: the failing submissions searched [default: 4]; `--only contest-scale`: the largest contest measured [default: 20000]
help-arg-bench-no-counterexamples = `--only serve`: the server does not search failing submissions' counterexamples (contest.toml `[counterexamples] search = false`), to compare the burst's throughput with the search on (the default)
help-arg-bench-cpp = `--only serve`: the programs are C++ starting with `#include <bits/stdc++.h>`, as a NOIP class writes them (compile-bound; with `MAYAN_JUDGE_PCH=0` the server compiles them without the precompiled header, as before it)
help-arg-bench-clients = `--only serve`: concurrent submitting clients
help-arg-bench-jobs = `--only serve`: the server's --jobs; `--only scaling`: the largest --jobs measured [default: the cores the judge may use]; `--only compile`: grade's --jobs [default: 2]
help-arg-bench-class = `--only scaling` and `--only compile`: programs in the class graded
help-arg-bench-burst = `--only scaling`: submissions in each burst the server judges (the more, the less its first and last moments weigh)
help-arg-bench-tests = `--only serve`: judge on the bundled problem's first N tests only [default: the package `serve` finds, every test]; `--only scaling`: grade the class on them (the bursts on at most 10)
help-arg-bench-idle-secs = `--only serve`: seconds of the idle baseline (pages and API on the idle server, before the burst)
help-arg-bench-quiet = No progress (`--only serve`)
help-arg-bench-hold-mib = `--only launch` (and scaling's launch part): MiB of heap the judge touches before the second series of runs (the cost of starting a run with the judge holding that much, against the judge holding nothing)
help-after-similar =
    Programs are parsed (C, C++, Python, Rust) into one token alphabet, so renaming, reformatting, reordered functions and translations between languages do not hide a copy; code most programs of the class share counts for little. A file that cannot be read (not text, over 1 MiB, unknown language) is named on stderr and the rest are compared. How it works, and the JSON schema: docs/SIMILAR.md.

    Exit codes: 0 no pair at or above the threshold (--threshold, or the class's own), 1 some pair at or above it, 2 fewer than two programs to compare, or bad options.
help-arg-similar-sources = Programs to compare: files, or folders (every .c .cpp .cc .py .rs file in them, one program each)
help-arg-similar-contest = A contest folder, read as `grade --contest` reads it (one sub-folder per contestant, also under source/ or players/): one program per contestant
help-arg-similar-stem = With --contest: the problem's file stem (`<contestant>/<stem>.<ext>`)
help-arg-similar-template = Code handed out by the teacher: never counted as shared
help-arg-similar-reference = Published solutions or last year's class: compared with the programs, not with each other (repeatable)
help-arg-similar-language = The language of files whose extension does not say (c, cpp, python, rust)
help-arg-similar-threshold = Pairs at or above this similarity (0 to 1) are flagged and grouped [default: from the class: --spreads above its median similarity]
help-arg-similar-spreads = Without --threshold: pairs this many spreads (robust standard deviations) above the class's median similarity are flagged (the threshold kept between 0.5 and 0.55)
help-arg-similar-common-share = A fragment in at least this share of the programs counts for nothing
help-arg-similar-top = Pairs shown on the terminal (and, with every flagged pair, in --html)
help-arg-similar-json = Write every pair, with matched line ranges, as JSON (schema: docs/SIMILAR.md)
help-arg-similar-csv = Write the pairs as CSV, for a spreadsheet
help-arg-similar-html = Write one self-contained HTML page: the pairs side by side
help-arg-similar-jobs = Worker threads [default: the machine's cores]
help-arg-similar-quiet = No progress
help-after-gen =
    Solvable puzzles are built backwards from the empty board, so they can hold many blocks; the answer stored is the solver's (the smallest solution, literal rules).

    Exit codes: 0 success, 2 configuration error (a request no board can meet, a file that already exists, or no test found within the bounded number of attempts).
help-arg-gen-seed = Seed: the same seed and options give the same files
help-arg-gen-count = How many tests
help-arg-gen-n = Moves per puzzle: `N`, or a range `A..B` (both ends included) chosen per puzzle; up to 8 (above 5, a package's `max_n` must allow it)
help-arg-gen-blocks = Blocks per puzzle: `B` means at least B, `A..B` between A and B [default: 3n..6n; 20..35 with --impossible; 3..5 with --bottom]
help-arg-gen-colours = At most this many distinct colours (1..10); exactly this many with --per-colour
help-arg-gen-per-colour = Blocks of each colour: `K`, or a range `A..B` chosen per colour (at least 3). `--colours 5 --per-colour 6..7` makes the solver's hardest family: five colours of six or seven blocks each
help-arg-gen-impossible = Puzzles with no solution under any reading, every colour at least three blocks (so that cheap pruning does not settle them)
help-arg-gen-bottom = Every block on the bottom row (the contest's 30% subtask, at most 5 blocks), placed at random: solvable or not, unless --impossible. The official ones have one colour and n = 1 or 2: `--colours 1 --n 1..2`
help-arg-gen-allow-sensitive = Keep tests whose answer depends on the reading of the rules
help-arg-gen-out = Folder for the tests (created if missing)
help-arg-gen-prefix = File names: PREFIX1.in, PREFIX1.ans, ... [default: gen-<seed>-]
help-arg-gen-force = Overwrite existing files
help-arg-gen-quiet = No progress bar or progress lines
help-after-export =
    The package is built in a temporary folder beside OUT_DIR and renamed into place when complete, so a failure leaves nothing behind. For Kattis, the folder's name is the problem id (a-z, 0-9).

    Exit codes: 0 written, 2 refused (OUT_DIR not empty without --force, a reading other than literal, no statement, an invalid test) or failed.
help-arg-export-format = The format to write
help-arg-export-package = The package folder (holding problem.toml and statement.md)
help-arg-export-out = The folder to write (created if missing; for Kattis its name is the problem id, e.g. `mayan`)
help-arg-export-force = Replace OUT_DIR when it is not empty
help-arg-export-source = Where the problem comes from (Kattis only: `source`), e.g. "NOIP 2011"
help-arg-export-license = The statement's license (Kattis only: `license`): unknown, public-domain, cc0, cc-by, cc-by-sa, educational, permission
help-arg-export-rights-owner = Who holds the rights (Kattis only: `rights_owner`)
help-arg-export-testlib = A testlib.h to ship with the compiled C++ checker, bridged (DMOJ only; without it the checker is checker.py as a module in DMOJ's judge process, which costs DMOJ less)
help-after-stress =
    Board i is made from (seed, i) alone, growing from a few blocks to --max-blocks; half are built backwards so that large boards have solutions. The reported failure is the failing board with the smallest index, shrunk while it fails with the same verdict.

    Exit codes: 0 nothing failed within the budget, 1 a failing board was found, 2 judge or configuration error (including a submission that does not compile, or a missing compiler).
help-arg-stress-submission = The source file (or a ready executable)
help-arg-stress-seed = Seed: the same seed gives the same boards, whatever `--jobs`
help-arg-stress-count = Stop after this many boards [default: 10000 unless --time]
help-arg-stress-time = Stop starting boards after this many seconds
help-arg-stress-max-blocks = Most blocks on a board; boards grow up to it (1..35)
help-arg-stress-n = Moves per puzzle: `N`, or a range `A..B` chosen per board
help-arg-stress-jobs = Boards run at a time; `auto` (the default): one per core the judge may use. More jobs than cores only add timing noise (a run near --time-limit may turn TLE); fewer leave cores idle
help-arg-stress-time-limit = CPU time limit per run, in milliseconds
help-arg-stress-reading = How to read the rules: literal, no-noop, at-most or no-noop+at-most
help-arg-stress-lang = Force the language (c, cpp, rust, python, exe) instead of detecting it
help-arg-stress-save = Write the shrunk board as a test (`stress-<seed>-<board>.in` / `.ans`) to DIR
help-arg-stress-html = Write an HTML report of the shrunk failure to FILE
help-arg-stress-file-io = NOIP file I/O: the program reads STEM.in and writes STEM.out in its folder (only STEM.out is judged) instead of stdin and stdout
help-arg-stress-shrink-runs = Most submission runs spent shrinking
help-arg-stress-shrink-time = Most seconds spent shrinking
help-arg-stress-quiet = No progress bar or progress lines
help-arg-stress-trusted = Run programs even where this machine cannot isolate them (not root, no mount/pid namespaces, no seccomp or no cgroups): only for programs you wrote yourself. Without it such a machine refuses to grade and says what is missing
help-after-doctor =
    One line per check: PASS, WARN or FAIL, its name, what was found, and for WARN and FAIL the command that fixes it. Only a missing protection FAILs; timing noise (SMT, the CPU governor, turbo, transparent huge pages, a piped core pattern) at worst WARNs.

    Exit codes: 0 no check FAILs (the sandbox has every protection it needs), 1 some check FAILs, 2 error.
help-arg-doctor-json = Print the checks as JSON: an array of {"{"}name, level, found, fix{"}"}
help-arg-doctor-color = Colours of the levels: auto (on a terminal), always, never
help-after-serve =
    The contest lives in an SQLite database (--db, default mayan-judge.db beside contest.toml, or in the current folder): restarting on the same database continues the same contest, and a submission is acknowledged only once it is on disk. Generated passwords are printed once and written to passwords.csv beside contest.toml (mode 0600). `serve --dry-run` prints what starting would change in the contestants and exits; `serve backup COPY` writes a consistent copy of the database (while a server runs on it, or not) instead of serving. See docs/SERVE.md.

    Exit codes: 0 stopped by Ctrl-C or SIGTERM (or the dry run printed, the backup written), 2 configuration error (contest.toml, the package, the database, the address, a machine that cannot isolate programs without --trusted, a backup file that exists).
help-arg-serve-listen = Address to listen on: 0.0.0.0:8080 for a classroom's LAN; port 0 picks a free one
help-arg-serve-contest = The contest's file (see docs/SERVE.md); without it, an open practice with no contestants (the teacher adds none: give a contest file)
help-arg-serve-problem = Package folder (default: contest.toml's `problem`, else as `grade` finds it)
help-arg-serve-db = The database file (created when missing)
help-arg-serve-jobs = Compilations and runs at a time, all submissions together (one pool of slots); `auto` (the default): one per core the judge may use (its CPU affinity and its cgroup's cpu.max respected). With a slot for every core, each slot and its runs stay on a core of their own (`MAYAN_JUDGE_PIN=0`: not, e.g. on a machine shared with other work)
help-arg-serve-tls-cert = HTTPS: the certificate chain (PEM); with --tls-key
help-arg-serve-tls-key = HTTPS: the private key (PEM); with --tls-cert
help-arg-serve-behind-proxy = Behind a reverse proxy that terminates HTTPS: cookies marked Secure, the client's address read from X-Forwarded-For
help-arg-serve-rate-address = Requests per second from one address while signed out (sign-ins are throttled apart: per name and address); bursts of five times as many: a class behind one address loads the sign-in page at once
help-arg-serve-rate-user = Requests per second of one signed-in user; bursts of five times as many
help-arg-serve-rate-submit = Submissions per minute of one contestant (as many in a burst)
help-arg-serve-connections = Connections held at most in all; over it a new one is answered 503 at once [default: the limit of open files, raised to its hard limit, less 128 kept for the judging]
help-arg-serve-connections-per-address = Connections held at most from one address before a signed-in request comes on them (signed in, each counts against its account: 32 at most), never more than --connections [default: a quarter of --connections]. Not applied with --behind-proxy, where they all come from the proxy
help-arg-serve-quiet = Print nothing but errors
help-arg-serve-dry-run = Print what starting would change in the contestants (added, display names, passwords; nobody is removed) and exit without serving
help-arg-serve-trusted = Run programs even where this machine cannot isolate them (not root, no mount/pid namespaces, no seccomp or no cgroups): only for programs you wrote yourself. Without it such a machine refuses to grade and says what is missing
help-arg-backup-copy = The copy (must not exist)
