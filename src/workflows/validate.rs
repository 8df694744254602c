//! Test-data validation: every input obeys RULES.md and the package's own
//! limits, every stored answer is the solver's, no board appears twice, and
//! no test depends on how the rules are read unless the package says why.
//! A package's scoring groups must each match a test, and every test must be
//! in a group (else it could never score). Also a coverage summary, so a
//! problem setter sees what the tests exercise.
//!
//! A finding tied to a place in a file says where as `line L, column C` at
//! the start of its message.

use crate::package::TestCase;
use crate::package::expected::Expected;
use crate::package::languages::LanguageTable;
use crate::puzzle::checker::{Parsed, line_of_move, parse_answer};
use crate::puzzle::sim::{Board, Dir, Move, Puzzle, strip_bom, tokens};
use crate::puzzle::solver::{Reading, format_moves, solve};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

/// One finding: something wrong in the test data, tied to a file (and a line when there is one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The file.
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong, naming the rule; starts with `line L, column C: ` when
    /// tied to a place in the file.
    pub message: String,
}

impl Finding {
    /// A finding about the whole file.
    pub fn file(file: &Path, message: String) -> Finding {
        Finding {
            file: file.to_path_buf(),
            line: None,
            message,
        }
    }

    /// A finding at `(line, column)` of the file, when known.
    pub fn at(file: &Path, position: Option<(usize, usize)>, message: impl fmt::Display) -> Finding {
        match position {
            Some((line, column)) => Finding {
                file: file.to_path_buf(),
                line: Some(line),
                message: format!("line {line}, column {column}: {message}"),
            },
            None => Finding::file(file, message.to_string()),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

/// What the checks need to know of the package.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Largest n allowed.
    pub max_n: u32,
    /// The reading the answers follow.
    pub reading: Reading,
    /// Reading-sensitive tests are allowed (the package says why).
    pub allow_sensitive: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_n: 5,
            reading: Reading::LITERAL,
            allow_sensitive: false,
        }
    }
}

/// What the tests cover.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coverage {
    /// Valid tests seen.
    pub tests: usize,
    /// Tests per n.
    pub per_n: BTreeMap<u32, usize>,
    /// Tests whose answer is `-1`.
    pub no_solution: usize,
    /// Fewest and most blocks.
    pub blocks: Option<(u32, u32)>,
    /// Fewest and most colours.
    pub colours: Option<(usize, usize)>,
    /// Tests with every block on the bottom row.
    pub bottom_row_only: usize,
    /// Tests with a full column of seven.
    pub full_column: usize,
    /// Longest cascade (removal passes in one move) in any answer.
    pub longest_cascade: usize,
    /// Answers with a left move.
    pub left_moves: usize,
    /// Answers with a same-colour swap.
    pub same_colour_swaps: usize,
    /// Reading-sensitive tests (allowed ones included).
    pub reading_sensitive: usize,
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per_n: Vec<String> = self.per_n.iter().map(|(n, c)| format!("n={n}: {c}")).collect();
        writeln!(f, "coverage of {} tests:", self.tests)?;
        writeln!(f, "  tests per n:          {}", per_n.join(", "))?;
        let share = if self.tests == 0 {
            0.0
        } else {
            100.0 * self.no_solution as f64 / self.tests as f64
        };
        writeln!(f, "  answer -1:            {} ({share:.0}%)", self.no_solution)?;
        if let (Some((b0, b1)), Some((c0, c1))) = (self.blocks, self.colours) {
            writeln!(f, "  blocks:               {b0} to {b1}")?;
            writeln!(f, "  colours:              {c0} to {c1}")?;
        }
        writeln!(f, "  bottom row only:      {}", self.bottom_row_only)?;
        writeln!(f, "  full column of 7:     {}", self.full_column)?;
        writeln!(
            f,
            "  longest cascade:      {} removal passes in one move",
            self.longest_cascade
        )?;
        writeln!(f, "  answers with a left move:          {}", self.left_moves)?;
        writeln!(
            f,
            "  answers with a same-colour swap:   {}",
            self.same_colour_swaps
        )?;
        write!(
            f,
            "  reading-sensitive tests:           {}",
            self.reading_sensitive
        )
    }
}

/// The result of validating a set of tests.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Validation {
    /// Every problem found.
    pub problems: Vec<Finding>,
    /// What the valid tests cover.
    pub coverage: Coverage,
}

/// The current [`ValidationReport::schema_version`].
pub const SCHEMA_VERSION: u32 = 1;

/// A validation, as reported.
#[derive(Clone, Debug, Serialize)]
pub struct ValidationReport {
    /// Version of this JSON layout.
    pub schema_version: u32,
    /// What was validated (a package folder, or "files").
    pub target: String,
    /// Every problem found.
    pub problems: Vec<Finding>,
    /// What the valid tests cover.
    pub coverage: Coverage,
}

/// Checks one input against RULES.md and the package's n limit.
pub fn check_input(file: &Path, text: &[u8], rules: &Rules) -> Result<Puzzle, Finding> {
    let puzzle = Puzzle::parse(text).map_err(|e| Finding {
        file: file.to_path_buf(),
        line: e.at.as_ref().map(|a| a.line),
        message: e.to_string(),
    })?;
    if puzzle.n > rules.max_n {
        let n_at = tokens(strip_bom(text)).next().map(|t| (t.line, t.column));
        return Err(Finding::at(
            file,
            n_at,
            format_args!(
                "n = {} is over the package's limit max_n = {}",
                puzzle.n, rules.max_n
            ),
        ));
    }
    Ok(puzzle)
}

/// The answer of a puzzle under every reading, or `None` when all agree.
pub fn sensitivity(puzzle: &Puzzle) -> Option<String> {
    let answers: Vec<(Reading, String)> = Reading::ALL
        .iter()
        .map(|&r| (r, solve(puzzle, r).to_text().trim().replace('\n', ", ")))
        .collect();
    if answers.iter().all(|(_, a)| *a == answers[0].1) {
        return None;
    }
    Some(
        answers
            .iter()
            .map(|(r, a)| format!("{r}: {a}"))
            .collect::<Vec<_>>()
            .join("; "),
    )
}

/// Validates tests given as `(input file, answer file if any)`.
pub fn validate(
    tests: &[(PathBuf, Option<PathBuf>)],
    rules: &Rules,
    mut progress: impl FnMut(),
) -> Validation {
    let mut v = Validation::default();
    let mut seen: HashMap<Puzzle, PathBuf> = HashMap::new();
    for (input, answer) in tests {
        progress();
        let problem = |message: String| Finding::file(input, message);
        let text = match std::fs::read(input) {
            Ok(t) => t,
            Err(e) => {
                v.problems.push(problem(format!("cannot read: {e}")));
                continue;
            }
        };
        let puzzle = match check_input(input, &text, rules) {
            Ok(p) => p,
            Err(p) => {
                v.problems.push(p);
                continue;
            }
        };
        if let Some(first) = seen.get(&puzzle) {
            v.problems
                .push(problem(format!("duplicate of {}", first.display())));
        } else {
            seen.insert(puzzle, input.clone());
        }
        let reference = solve(&puzzle, rules.reading).moves;
        if let Some(ans) = answer {
            check_answer(ans, &puzzle, &reference, &mut v.problems);
        }
        let sensitive = sensitivity(&puzzle);
        if let Some(detail) = &sensitive
            && !rules.allow_sensitive
        {
            v.problems.push(problem(
                format!("reading-sensitive test (the answer depends on the reading: {detail}); allow it with [tests] reading_sensitive in problem.toml"),
            ));
        }
        count(
            &mut v.coverage,
            &puzzle,
            reference.as_deref(),
            sensitive.is_some(),
        );
    }
    v
}

fn check_answer(ans: &Path, puzzle: &Puzzle, reference: &Option<Vec<Move>>, problems: &mut Vec<Finding>) {
    let text = match std::fs::read(ans) {
        Ok(t) => t,
        Err(e) => {
            problems.push(Finding::file(ans, format!("cannot read: {e}")));
            return;
        }
    };
    let stored = match parse_answer(&text, puzzle.n) {
        Ok(Parsed::NoSolution) => None,
        Ok(Parsed::Moves(m)) => Some(m),
        Err(reason) => {
            // A reason with a place names it first ("line L, column C: ...").
            let (line, message) = match reason.position() {
                Some((line, _)) => (Some(line), reason.to_string()),
                None => (None, format!("not an answer: {reason}")),
            };
            problems.push(Finding {
                file: ans.to_path_buf(),
                line,
                message,
            });
            return;
        }
    };
    let solver: Option<Vec<[i64; 3]>> = reference.as_ref().map(|m| {
        m.iter()
            .map(|m| [m.x as i64, m.y as i64, m.dir.g() as i64])
            .collect()
    });
    if stored != solver {
        // The first move that differs (or the first line, for `-1` against moves).
        let k = match (&stored, &solver) {
            (Some(a), Some(b)) => a
                .iter()
                .zip(b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len())),
            _ => 0,
        };
        let at = line_of_move(&text, k + 1).or_else(|| line_of_move(&text, k));
        problems.push(Finding::at(
            ans,
            at,
            format_args!(
                "stored answer is wrong: the solver's answer is `{}`",
                format_moves(reference.as_deref()).trim().replace('\n', ", ")
            ),
        ));
    }
}

fn count(c: &mut Coverage, puzzle: &Puzzle, answer: Option<&[Move]>, sensitive: bool) {
    let b: &Board = &puzzle.board;
    c.tests += 1;
    *c.per_n.entry(puzzle.n).or_default() += 1;
    let blocks = b.block_count();
    let colours = b.colour_counts().iter().filter(|&&n| n > 0).count();
    c.blocks = Some(
        c.blocks
            .map_or((blocks, blocks), |(lo, hi)| (lo.min(blocks), hi.max(blocks))),
    );
    c.colours = Some(
        c.colours
            .map_or((colours, colours), |(lo, hi)| (lo.min(colours), hi.max(colours))),
    );
    if (0..5).all(|x| b.height(x) <= 1) && blocks > 0 {
        c.bottom_row_only += 1;
    }
    if (0..5).any(|x| b.height(x) == 7) {
        c.full_column += 1;
    }
    c.reading_sensitive += sensitive as usize;
    let Some(moves) = answer else {
        c.no_solution += 1;
        return;
    };
    let mut board = *b;
    let (mut left, mut noop) = (false, false);
    for &mv in moves {
        left |= mv.dir == Dir::Left;
        let (x, y, tx) = (mv.x as usize, mv.y as usize, mv.target_x() as usize);
        noop |= board.get(x, y) == board.get(tx, y);
        let trace = board.play_traced(mv);
        c.longest_cascade = c.longest_cascade.max(trace.steps.len());
        board = trace.after;
    }
    c.left_moves += left as usize;
    c.same_colour_swaps += noop as usize;
}

/// Validates a whole package: its tests (found, paired), its reference
/// folders (known verdict names, known languages), then every test as in
/// [`validate`].
pub fn validate_package(problem: &crate::package::Problem, progress: impl FnMut()) -> Validation {
    let (cases, unpaired) = crate::package::scan_tests(&problem.tests_dir);
    let rules = Rules {
        max_n: problem.config.input.max_n,
        reading: problem.checker.reading,
        allow_sensitive: problem.config.tests.reading_sensitive.is_some(),
    };
    let scoring = scoring_findings(problem, &cases);
    let pairs: Vec<(PathBuf, Option<PathBuf>)> =
        cases.into_iter().map(|t| (t.input, Some(t.answer))).collect();
    let mut v = validate(&pairs, &rules, progress);
    let mut extra: Vec<Finding> = unpaired
        .into_iter()
        .map(|(file, issue)| Finding::file(&file, issue.to_string()))
        .collect();
    extra.extend(scoring);
    extra.extend(statement_findings(problem));
    extra.extend(reference_findings(problem));
    extra.append(&mut v.problems);
    v.problems = extra;
    v
}

/// Problems with a package's scoring groups (when it has any): a group whose
/// glob matches no test (its points can never be won), and a test in no
/// group (it can never score).
pub fn scoring_findings(problem: &crate::package::Problem, tests: &[TestCase]) -> Vec<Finding> {
    let groups = &problem.config.scoring.groups;
    if groups.is_empty() {
        return Vec::new();
    }
    let toml = problem.dir.join(crate::package::PROBLEM_FILE);
    let toml_text = std::fs::read_to_string(&toml).unwrap_or_default();
    let mut out: Vec<Finding> = groups
        .iter()
        .filter(|g| !tests.iter().any(|t| g.matches(&t.name)))
        .map(|g| {
            Finding::at(
                &toml,
                key_position(&toml_text, "tests", &g.tests),
                format_args!(
                    "scoring group `{}`: tests = `{}` matches no test, so its {} points can never be won",
                    g.name, g.tests, g.points
                ),
            )
        })
        .collect();
    let globs: Vec<String> = groups.iter().map(|g| format!("`{}`", g.tests)).collect();
    out.extend(
        tests
            .iter()
            .filter(|t| !groups.iter().any(|g| g.matches(&t.name)))
            .map(|t| {
                Finding::file(
                    &t.input,
                    format!(
                        "test `{}` is in no scoring group, so it can never score (groups: {})",
                        t.name,
                        globs.join(", ")
                    ),
                )
            }),
    );
    out
}

/// A package's statements: `statement.md` and every `statement.LANG.md`
/// beside `problem.toml`, in name order.
pub fn statements(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name == "statement.md" || (name.starts_with("statement.") && name.ends_with(".md"))
        })
        .collect();
    found.sort();
    found
}

/// Each `(number, unit)` of a text: a number followed (after blanks) by a
/// word or sign, as `3 seconds`, `128 MiB`, `3 秒`, `3s`.
fn quantities(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let starts = chars[k].is_ascii_digit() && (k == 0 || !chars[k - 1].is_ascii_alphanumeric());
            if !starts {
                k += 1;
                continue;
            }
            let from = k;
            while k < chars.len() && (chars[k].is_ascii_digit() || chars[k] == '.') {
                k += 1;
            }
            let number: String = chars[from..k].iter().collect();
            let mut u = k;
            while u < chars.len() && chars[u] == ' ' {
                u += 1;
            }
            let unit: String = chars[u..].iter().take_while(|c| c.is_alphabetic()).collect();
            out.push((i + 1, number.trim_end_matches('.').to_string(), unit));
        }
    }
    out
}

/// Statements whose limits are not `problem.toml`'s: each statement must
/// name the time limit (`3 seconds`, `3 s`, `3000 ms`, `3 秒`) and the
/// memory limit (`128 MiB`, `128 MB`), and no other value of either.
pub fn statement_findings(problem: &crate::package::Problem) -> Vec<Finding> {
    let limits = &problem.config.limits;
    let seconds = limits.time_ms as f64 / 1000.0;
    let mut out = Vec::new();
    for file in statements(&problem.dir) {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let (mut time, mut memory) = (false, false);
        for (line, number, unit) in quantities(&text) {
            let value: f64 = number.parse().unwrap_or(f64::NAN);
            let (kind, right) = match unit.as_str() {
                "ms" => ("time", value == limits.time_ms as f64),
                "s" | "second" | "seconds" | "sec" | "秒" => ("time", value == seconds),
                "MiB" | "MB" | "M" => ("memory", value == limits.memory_mib as f64),
                _ => continue,
            };
            if !right {
                let message = format!(
                    "the statement names a {kind} limit of {number} {unit}, but problem.toml's is {} (a statement must name the package's limits)",
                    if kind == "time" {
                        format!("{} ms", limits.time_ms)
                    } else {
                        format!("{} MiB", limits.memory_mib)
                    }
                );
                out.push(Finding::at(&file, Some((line, 1)), message));
            }
            time |= kind == "time" && right;
            memory |= kind == "memory" && right;
        }
        for (named, what) in [
            (time, format!("the time limit ({} ms)", limits.time_ms)),
            (memory, format!("the memory limit ({} MiB)", limits.memory_mib)),
        ] {
            if !named {
                out.push(Finding::file(
                    &file,
                    format!("the statement does not name {what} of problem.toml"),
                ));
            }
        }
    }
    out
}

/// Where `key = "value"` is written in a TOML text: `(line, column)` of the
/// key, for a finding to point at.
fn key_position(text: &str, key: &str, value: &str) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(i, line)| {
        let rest = line.trim_start();
        let is_it = rest
            .strip_prefix(key)
            .is_some_and(|r| r.trim_start().starts_with('='))
            && (rest.contains(&format!("\"{value}\"")) || rest.contains(&format!("'{value}'")));
        is_it.then(|| (i + 1, line.chars().count() - rest.chars().count() + 1))
    })
}

/// Problems with a package's reference folder: unknown verdict folders,
/// files of no known language.
pub fn reference_findings(problem: &crate::package::Problem) -> Vec<Finding> {
    let mut out = Vec::new();
    let dir = &problem.reference_dir;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let languages = LanguageTable::for_package(&problem.dir).unwrap_or_else(|_| LanguageTable::builtin());
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if !path.is_dir() {
            continue;
        }
        if let Err(e) = name.parse::<Expected>() {
            out.push(Finding {
                file: path.clone(),
                line: None,
                message: e.to_string(),
            });
            continue;
        }
        for program in reference_programs(&path) {
            if program.extension().is_none() || languages.detect(&program).is_none() {
                out.push(Finding {
                    file: program,
                    line: None,
                    message: format!("no known language (known: {})", languages.names().join(", ")),
                });
            }
        }
    }
    out
}

/// The programs in one reference folder, in name order (hidden files and
/// caches such as `__pycache__` skipped).
pub fn reference_programs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    out.retain(|p| {
        !p.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .starts_with('.')
    });
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the bundled package's `problem.toml` with `statements`
    /// (file name, text) beside it.
    fn package(statements: &[(&str, &str)]) -> (tempfile::TempDir, crate::package::Problem) {
        let dir = tempfile::tempdir().unwrap();
        let toml = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/mayan/problem.toml");
        std::fs::copy(toml, dir.path().join("problem.toml")).unwrap();
        for (name, text) in statements {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let problem = crate::package::Problem::load(dir.path()).unwrap();
        (dir, problem)
    }

    #[test]
    fn every_statement_of_a_package_names_its_limits() {
        let (_d, p) = package(&[
            ("statement.md", "## Limits\n3 seconds and 128 MiB per test.\n"),
            (
                "statement.zh-CN.md",
                "## 限制\n时间限制 3 秒，内存限制 128 MiB。\n",
            ),
        ]);
        assert_eq!(statement_findings(&p), Vec::new());
        let (_d, p) = package(&[
            ("statement.md", "## Limits\n3 seconds and 128 MiB per test.\n"),
            (
                "statement.zh-CN.md",
                "## 限制\n时间限制 1 秒，内存限制 256 MiB。\n",
            ),
        ]);
        let found: Vec<String> = statement_findings(&p).iter().map(|f| f.to_string()).collect();
        assert_eq!(found.len(), 4, "{found:#?}");
        assert!(
            found.iter().all(|f| f.contains("statement.zh-CN.md")),
            "{found:#?}"
        );
        assert!(
            found[0].contains("1 秒") && found[1].contains("256 MiB"),
            "{found:#?}"
        );
    }

    #[test]
    fn the_bundled_statements_name_the_bundled_limits() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/mayan"));
        let p = crate::package::Problem::load(dir).unwrap();
        assert_eq!(statements(dir).len(), 2);
        assert_eq!(statement_findings(&p), Vec::new());
    }
}
