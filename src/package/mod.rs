//! Problem packages: `problems/<name>/problem.toml`, the tests it points to,
//! its reference programs, and the languages submissions may use.
//!
//! A package is plain files so problem setters can edit it by hand; this
//! module reads it strictly (unknown keys are errors that name the key and
//! line) and finds tests and reference programs with `walkdir`, in natural
//! order so `2` comes before `10`.
//!
//! A test is `NAME.in` with its stored answer `NAME.ans` or `NAME.out` (many
//! archives use `.out`); both at once is an error. A package folder is used
//! by its canonical path, so its default tests and reference folders are the
//! same however the folder was spelled (`pkg`, `./pkg/`, `/abs/pkg`).

pub mod embedded;
pub mod expected;
pub mod languages;

use crate::puzzle::checker;
use crate::puzzle::sim::unsupported_max_n;
use crate::puzzle::solver::Reading;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file that makes a folder a package.
pub const PROBLEM_FILE: &str = "problem.toml";

/// The extensions a test's stored answer may have, in order of preference
/// (a test has exactly one of them).
pub const ANSWER_EXTENSIONS: [&str; 2] = ["ans", "out"];

/// What can be wrong with a package.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// A file could not be read.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error (kept out of the error chain: the message already says it).
        cause: std::io::Error,
    },
    /// `problem.toml` does not parse or breaks the schema.
    #[error("{path}: {message}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// toml's message (it names the line, column and key).
        message: String,
        /// The line (from 1) toml points at, where it points.
        line: Option<usize>,
        /// toml's reason alone, without the line and its excerpt.
        reason: String,
    },
    /// A value that parses but makes no sense.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An input without its answer, or the other way round, or a file
    /// that cannot be read.
    #[error("{path}: {issue}")]
    Unpaired {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        issue: TestsIssue,
    },
    /// A package folder without its `problem.toml`.
    #[error("{}: empty package (no {})", .path.display(), PROBLEM_FILE)]
    NoProblemFile {
        /// The folder.
        path: PathBuf,
    },
    /// No tests at all.
    #[error("{path}: the package has no tests (expected NAME.in with NAME.ans or NAME.out)")]
    NoTests {
        /// The tests folder.
        path: PathBuf,
    },
}

impl PackageError {
    /// toml's error `e` in the file `path` holding `text`.
    pub fn toml(path: &Path, text: &str, e: &toml::de::Error) -> PackageError {
        PackageError::Toml {
            path: path.to_path_buf(),
            message: e.to_string().trim_end().to_string(),
            line: e.span().map(|span| line_of(text, span.start)),
            reason: e.message().trim_end().to_string(),
        }
    }
}

/// Something wrong found while scanning a tests folder.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TestsIssue {
    /// The tests folder does not exist.
    #[error("no tests: the tests folder does not exist")]
    NoFolder,
    /// The folder holds no test.
    #[error("no tests in this folder (expected NAME.in with NAME.ans or NAME.out)")]
    NoTests,
    /// A file or folder cannot be read.
    #[error("cannot read: {0}")]
    Unreadable(String),
    /// An input without its answer (the `.ans` file expected; `.out` would do).
    #[error("input without an answer (expected {} or {})", .0.display(), .0.with_extension("out").display())]
    NoAnswer(PathBuf),
    /// An input with two answers, `NAME.ans` and `NAME.out`: which one counts
    /// is not for the judge to guess.
    #[error("two answers for one input: {} and {} (keep one)", .0.display(), .1.display())]
    TwoAnswers(PathBuf, PathBuf),
    /// An answer without its input.
    #[error("answer without an input")]
    NoInput,
}

/// Resource limits per test, as written in `problem.toml`.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct ProblemLimits {
    /// CPU time per test, milliseconds.
    pub time_ms: u64,
    /// Memory per test, MiB.
    pub memory_mib: u64,
    /// Output per test, KiB.
    pub output_kib: u64,
    /// A submission's source, KiB: a larger one is refused before it is
    /// read or compiled (see [`ProblemLimits::source_bytes`]).
    #[serde(deserialize_with = "positive_source_kib")]
    pub source_kib: u64,
}

/// Where a package sets the source limit, as messages name it.
pub const SOURCE_LIMIT_KEY: &str = "problem.toml [limits] source_kib";

impl Default for ProblemLimits {
    /// The contest's limits: 3 s and 128 MiB per test; sources up to
    /// 256 KiB.
    fn default() -> Self {
        ProblemLimits {
            time_ms: 3000,
            memory_mib: 128,
            output_kib: 1024,
            source_kib: 256,
        }
    }
}

impl ProblemLimits {
    /// The largest source a submission may have, in bytes.
    pub fn source_bytes(&self) -> u64 {
        self.source_kib.saturating_mul(1024)
    }

    /// The longest output a test may have, in bytes.
    pub fn output_bytes(&self) -> u64 {
        self.output_kib.saturating_mul(1024)
    }
}

/// `source_kib` as written: a positive whole number of KiB (0 would refuse
/// every program, a negative number means nothing). The error, raised while
/// parsing, comes with the line of the key.
fn positive_source_kib<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let kib = i64::deserialize(d)?;
    u64::try_from(kib).ok().filter(|&k| k > 0).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "[limits] source_kib = {kib}: must be a positive number of KiB"
        ))
    })
}

/// How tests score: so many points per accepted test, or, when groups are
/// given, a group's points only when every test in it is accepted.
///
/// Without groups, `total` (when given) replaces `points_per_test`: the
/// scored tests share it as NOIP's did (100 points over its tests), each
/// `total / n` points and the last `total % n` of them one point more, so
/// the most a submission scores is exactly `total`. Tests matching
/// `unscored` (the sample, as NOIP scored it) are run and shown but score
/// nothing.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Scoring {
    /// Points for each accepted test (when there are no groups and no `total`).
    pub points_per_test: u32,
    /// The package's own total, shared by its scored tests (without groups)
    /// or the sum its groups must add up to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u32>,
    /// Glob over test names that score nothing (e.g. `sample/*`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unscored: Option<String>,
    /// Test groups; when present, only groups score.
    #[serde(rename = "group")]
    pub groups: Vec<Group>,
}

/// A group of tests that scores only when all of them pass.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// Name shown in reports.
    pub name: String,
    /// Glob over test names (e.g. `secret/bottom-*`).
    pub tests: String,
    /// Points for the whole group.
    pub points: u32,
}

impl Group {
    /// Whether the test named `test` is in the group (a glob that does not
    /// parse matches nothing; loading a package rejects one).
    pub fn matches(&self, test: &str) -> bool {
        glob_matches(&self.tests, test)
    }
}

/// Whether `glob` matches `name` (a glob that does not parse matches
/// nothing; loading a package rejects one).
fn glob_matches(glob: &str, name: &str) -> bool {
    glob::Pattern::new(glob).is_ok_and(|p| p.matches(name))
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            points_per_test: 10,
            total: None,
            unscored: None,
            groups: Vec::new(),
        }
    }
}

impl Scoring {
    /// Whether the test named `test` scores nothing (matches `unscored`).
    pub fn is_unscored(&self, test: &str) -> bool {
        self.unscored.as_deref().is_some_and(|g| glob_matches(g, test))
    }

    /// Each test's own points, in the order of `tests` (every test's name, in
    /// test order), when the package scores per test; with groups, every
    /// test's own points are 0 (only groups score). The one place a test's
    /// points are worked out: grading, reports, the server and the exports
    /// all read them here.
    pub fn test_points(&self, tests: &[&str]) -> Vec<u32> {
        if !self.groups.is_empty() {
            return vec![0; tests.len()];
        }
        let scored = tests.iter().filter(|t| !self.is_unscored(t)).count() as u32;
        let (base, extra) = match self.total {
            Some(total) if scored > 0 => (total / scored, total % scored),
            Some(_) => (0, 0),
            None => (self.points_per_test, 0),
        };
        let mut seen = 0;
        tests
            .iter()
            .map(|t| {
                if self.is_unscored(t) {
                    return 0;
                }
                seen += 1;
                base + u32::from(seen > scored - extra)
            })
            .collect()
    }

    /// `(score, most possible)` for tests named with whether each passed
    /// (every test of the package, in test order).
    pub fn score(&self, results: &[(&str, bool)]) -> (u32, u32) {
        if self.groups.is_empty() {
            let names: Vec<&str> = results.iter().map(|(n, _)| *n).collect();
            let points = self.test_points(&names);
            let score = points
                .iter()
                .zip(results)
                .filter(|(_, (_, ok))| *ok)
                .map(|(p, _)| p)
                .sum();
            return (score, points.iter().sum());
        }
        let mut score = 0;
        let mut max = 0;
        for g in &self.groups {
            max += g.points;
            let mut members = results.iter().filter(|(name, _)| g.matches(name)).peekable();
            if members.peek().is_some() && members.all(|(_, ok)| *ok) {
                score += g.points;
            }
        }
        (score, max)
    }
}

/// Which solutions the checker accepts.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Accept {
    /// Only the lexicographically smallest solution (the contest's rule).
    #[default]
    Smallest,
    /// Any valid solution.
    Any,
}

/// The checker's settings.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct CheckerConfig {
    /// `literal`, `no-noop`, `at-most` or `no-noop+at-most`.
    pub reading: String,
    /// `smallest` or `any`.
    pub accept: Accept,
}

impl Default for CheckerConfig {
    fn default() -> Self {
        CheckerConfig {
            reading: Reading::LITERAL.to_string(),
            accept: Accept::Smallest,
        }
    }
}

/// The package's own limits on inputs, stricter than RULES.md.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct InputLimits {
    /// Largest n (the contest's is 5); at most [`MAX_MOVES`](crate::puzzle::sim::MAX_MOVES), the largest
    /// the judge supports.
    pub max_n: u32,
}

impl Default for InputLimits {
    fn default() -> Self {
        InputLimits { max_n: 5 }
    }
}

/// A problem's title: one for every language (`title = "..."`), or one per
/// language by its tag (`[title]` with `en = "..."` and `zh-CN = "..."`;
/// `en` required).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Title {
    /// The same title in every language.
    One(String),
    /// A title per language tag.
    PerLanguage(std::collections::BTreeMap<String, String>),
}

impl Title {
    /// The English title (what machine-read files and exports carry).
    pub fn english(&self) -> &str {
        match self {
            Title::One(t) => t,
            Title::PerLanguage(m) => m.get("en").map_or("", String::as_str),
        }
    }

    /// The title in the language of `tag` (`zh-CN`), if the package gives
    /// one for it (a single title is every language's).
    pub fn in_language(&self, tag: &str) -> Option<&str> {
        match self {
            Title::One(t) => Some(t),
            Title::PerLanguage(m) => m.get(tag).map(String::as_str),
        }
    }
}

impl From<&str> for Title {
    fn from(t: &str) -> Title {
        Title::One(t.to_string())
    }
}

/// `problem.toml` as written.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ProblemToml {
    /// Short name; tests default to `testdata/<name>` and reference programs
    /// to `reference/<name>`, both beside `problems/`.
    pub name: String,
    /// Human title: one, or one per language (`title.en`, `title.zh-CN`).
    pub title: Title,
    /// Per-test limits.
    #[serde(default)]
    pub limits: ProblemLimits,
    /// Scoring.
    #[serde(default)]
    pub scoring: Scoring,
    /// Checker settings.
    #[serde(default)]
    pub checker: CheckerConfig,
    /// Input limits.
    #[serde(default)]
    pub input: InputLimits,
    /// Where the tests are and what they may be.
    #[serde(default)]
    pub tests: TestsConfig,
    /// Where the reference programs are.
    #[serde(default)]
    pub reference: ReferenceConfig,
    /// File I/O (NOIP style); absent: stdin and stdout.
    #[serde(default)]
    pub io: Option<FileIo>,
}

/// The `[io]` table: the program reads `input` from, and writes `output` to,
/// its current folder instead of stdin and stdout (NOIP's `mayan.in` and
/// `mayan.out`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FileIo {
    /// The input file's name, e.g. `mayan.in`.
    pub input: String,
    /// The output file's name, e.g. `mayan.out`; only this file is judged.
    pub output: String,
}

impl FileIo {
    /// `STEM.in` and `STEM.out` (`grade --file-io STEM`).
    pub fn from_stem(stem: &str) -> FileIo {
        FileIo {
            input: format!("{stem}.in"),
            output: format!("{stem}.out"),
        }
    }

    /// A stem as `--file-io STEM` takes it: letters, digits, `.`, `_` or `-`,
    /// not starting with `.`, so that `STEM.in` and `STEM.out` are plain
    /// names in the program's folder.
    pub fn check_stem(stem: &str) -> Result<String, String> {
        let plain = !stem.is_empty()
            && !stem.starts_with('.')
            && stem
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
        if plain {
            Ok(stem.to_string())
        } else {
            Err(format!(
                "`{stem}`: a file stem is letters, digits, `.`, `_` or `-` (e.g. `mayan` for mayan.in and mayan.out)"
            ))
        }
    }

    /// A plain file name: not empty, no `/`, not `.` or `..`, no NUL.
    fn valid_name(name: &str) -> bool {
        !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
    }
}

/// The `[tests]` table.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TestsConfig {
    /// Tests folder, relative to the package folder [default:
    /// `testdata/<name>` beside `problems/`].
    pub dir: Option<PathBuf>,
    /// Why this package has reading-sensitive tests (tests whose answer
    /// depends on the reading, see RULES.md). Without it they are an error.
    pub reading_sensitive: Option<String>,
}

/// The `[reference]` table.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ReferenceConfig {
    /// Reference programs folder, relative to the package folder [default:
    /// `reference/<name>` beside `problems/`].
    pub dir: Option<PathBuf>,
}

/// A loaded package.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The package folder, canonical (absolute, links resolved).
    pub dir: PathBuf,
    /// What `problem.toml` says.
    pub config: ProblemToml,
    /// The checker options it implies.
    pub checker: checker::Options,
    /// Where its tests are.
    pub tests_dir: PathBuf,
    /// Where its reference programs are.
    pub reference_dir: PathBuf,
}

/// One test: an input and its stored answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TestCase {
    /// Name, relative to the tests folder, without `.in` (e.g. `secret/7`).
    pub name: String,
    /// The input file.
    pub input: PathBuf,
    /// The stored answer file (`NAME.ans` or `NAME.out`).
    pub answer: PathBuf,
}

impl Problem {
    /// Loads the package in `dir` (any spelling of the folder's path).
    pub fn load(dir: &Path) -> Result<Problem, PackageError> {
        let path = dir.join(PROBLEM_FILE);
        let text = std::fs::read_to_string(&path).map_err(|cause| PackageError::Io {
            path: path.clone(),
            cause,
        })?;
        // `pkg`, `./pkg/` and `pkg/..//pkg` have no useful parents as
        // written; the canonical path does, and `..` in it means what the
        // system means by it.
        let dir = &dir.canonicalize().map_err(|cause| PackageError::Io {
            path: dir.to_path_buf(),
            cause,
        })?;
        let path = dir.join(PROBLEM_FILE);
        let config: ProblemToml = toml::from_str(&text).map_err(|e| PackageError::toml(&path, &text, &e))?;
        let reading: Reading = config
            .checker
            .reading
            .parse()
            .map_err(|e| PackageError::Invalid {
                path: path.clone(),
                message: format!("[checker] reading: {e}"),
            })?;
        if config.limits.time_ms == 0 || config.limits.memory_mib == 0 {
            return Err(PackageError::Invalid {
                path,
                message: "[limits] time_ms and memory_mib must be positive".into(),
            });
        }
        if config.title.english().is_empty() {
            return Err(PackageError::Invalid {
                path,
                message: "[title]: an English title is needed (`en = \"...\"`, beside `zh-CN = \"...\"`)"
                    .into(),
            });
        }
        let max_n = config.input.max_n;
        if let Some(why) = unsupported_max_n(max_n) {
            return Err(PackageError::Invalid {
                path,
                message: format!("[input] max_n = {max_n}: {why}"),
            });
        }
        // problems/<name>/ sits beside testdata/ and reference/.
        let root = dir.ancestors().nth(2).unwrap_or(Path::new("/"));
        let tests_dir = match &config.tests.dir {
            Some(p) => relative_to(dir, p),
            None => root.join("testdata").join(&config.name),
        };
        let reference_dir = match &config.reference.dir {
            Some(p) => relative_to(dir, p),
            None => root.join("reference").join(&config.name),
        };
        if let Some(io) = &config.io
            && (!FileIo::valid_name(&io.input) || !FileIo::valid_name(&io.output) || io.input == io.output)
        {
            return Err(PackageError::Invalid {
                path,
                message: format!(
                    "[io] input = `{}`, output = `{}`: two different plain file names are needed (no `/`)",
                    io.input, io.output
                ),
            });
        }
        if let Some(message) = scoring_error(&config.scoring) {
            return Err(PackageError::Invalid { path, message });
        }
        for g in &config.scoring.groups {
            if let Err(e) = glob::Pattern::new(&g.tests) {
                return Err(PackageError::Invalid {
                    path,
                    message: format!("[[scoring.group]] `{}`: tests = `{}`: {e}", g.name, g.tests),
                });
            }
        }
        Ok(Problem {
            dir: dir.to_path_buf(),
            checker: checker::Options {
                reading,
                accept_any: config.checker.accept == Accept::Any,
            },
            config,
            tests_dir,
            reference_dir,
        })
    }

    /// Every test (`NAME.in` with `NAME.ans` or `NAME.out`) under the tests
    /// folder, in natural order. An input without an answer, or with two, or
    /// an answer without an input is an error, and so is a folder with no
    /// tests.
    pub fn tests(&self) -> Result<Vec<TestCase>, PackageError> {
        find_tests(&self.tests_dir)
    }
}

/// What is wrong with `[scoring]`'s `total` and `unscored`, if anything: an
/// `unscored` glob that does not parse, a total of 0, or groups whose points
/// do not add up to the package's stated total.
fn scoring_error(scoring: &Scoring) -> Option<String> {
    if let Some(glob) = &scoring.unscored
        && let Err(e) = glob::Pattern::new(glob)
    {
        return Some(format!("[scoring] unscored = `{glob}`: {e}"));
    }
    let total = scoring.total?;
    if total == 0 {
        return Some("[scoring] total = 0: must be a positive number of points".into());
    }
    let groups: u32 = scoring.groups.iter().map(|g| g.points).sum();
    if !scoring.groups.is_empty() && groups != total {
        return Some(format!(
            "[scoring] total = {total}, but the groups' points add up to {groups}"
        ));
    }
    None
}

/// `path` taken relative to `dir`, canonical when it exists (so
/// `../../testdata/x` is shown as the folder it names).
fn relative_to(dir: &Path, path: &Path) -> PathBuf {
    let joined = dir.join(path);
    joined.canonicalize().unwrap_or(joined)
}

/// Finds the tests (`NAME.in` with its answer) under `dir` (see [`Problem::tests`]).
pub fn find_tests(dir: &Path) -> Result<Vec<TestCase>, PackageError> {
    let (tests, mut problems) = scan_tests(dir);
    if !problems.is_empty() {
        let (path, issue) = problems.swap_remove(0);
        return Err(match issue {
            TestsIssue::NoFolder | TestsIssue::NoTests => PackageError::NoTests { path },
            issue => PackageError::Unpaired { path, issue },
        });
    }
    Ok(tests)
}

/// Every test (`NAME.in` with `NAME.ans` or `NAME.out`) under `dir`, in
/// natural order, with every problem found on the way (a lone `.in`, `.ans`
/// or `.out`, an input with both answers, an unreadable folder, no tests at
/// all), so a validator can report them all.
pub fn scan_tests(dir: &Path) -> (Vec<TestCase>, Vec<(PathBuf, TestsIssue)>) {
    let mut tests = Vec::new();
    let mut problems = Vec::new();
    if !dir.is_dir() {
        problems.push((dir.to_path_buf(), TestsIssue::NoFolder));
        return (tests, problems);
    }
    let walk = walkdir::WalkDir::new(dir)
        .sort_by(|a, b| natord::compare(&a.file_name().to_string_lossy(), &b.file_name().to_string_lossy()));
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                problems.push((
                    e.path().unwrap_or(dir).to_path_buf(),
                    TestsIssue::Unreadable(e.to_string()),
                ));
                continue;
            }
        };
        let path = entry.path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("in") => {
                let answer = match answer_of(path) {
                    Ok(answer) => answer,
                    Err(issue) => {
                        problems.push((path.to_path_buf(), issue));
                        continue;
                    }
                };
                let rel = path.strip_prefix(dir).unwrap_or(path).with_extension("");
                tests.push(TestCase {
                    name: rel.to_string_lossy().replace('\\', "/"),
                    input: path.to_path_buf(),
                    answer,
                });
            }
            Some(ext) if ANSWER_EXTENSIONS.contains(&ext) && !path.with_extension("in").is_file() => {
                problems.push((path.to_path_buf(), TestsIssue::NoInput));
            }
            _ => {}
        }
    }
    if tests.is_empty() && problems.is_empty() {
        problems.push((dir.to_path_buf(), TestsIssue::NoTests));
    }
    (tests, problems)
}

/// The stored answer of the input file `input`: `NAME.ans` or `NAME.out`,
/// whichever exists. Neither is [`TestsIssue::NoAnswer`], both
/// [`TestsIssue::TwoAnswers`].
pub fn answer_of(input: &Path) -> Result<PathBuf, TestsIssue> {
    let [ans, out] = ANSWER_EXTENSIONS.map(|ext| input.with_extension(ext));
    match (ans.is_file(), out.is_file()) {
        (true, true) => Err(TestsIssue::TwoAnswers(ans, out)),
        (true, false) => Ok(ans),
        (false, true) => Ok(out),
        (false, false) => Err(TestsIssue::NoAnswer(ans)),
    }
}

/// The line (from 1) of the byte `offset` in `text`: where a TOML value
/// is, from its [`toml::Spanned`] span, for errors found after parsing
/// (toml names the line of the errors it finds itself).
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    1 + text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::sim::MAX_MOVES;

    fn package(toml: &str) -> (tempfile::TempDir, Result<Problem, PackageError>) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("problems/p");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(PROBLEM_FILE), toml).unwrap();
        let p = Problem::load(&dir);
        (root, p)
    }

    #[test]
    fn defaults_are_the_contests() {
        let (root, p) = package("name = \"p\"\ntitle = \"P\"\n");
        let p = p.unwrap();
        assert_eq!(p.config.limits, ProblemLimits::default());
        assert_eq!(p.config.scoring.points_per_test, 10);
        assert_eq!(p.checker, checker::Options::default());
        assert_eq!(
            p.tests_dir,
            root.path().canonicalize().unwrap().join("testdata/p")
        );
    }

    #[test]
    fn max_n_is_refused_above_what_the_judge_supports() {
        let (_root, p) = package(&format!(
            "name = \"p\"\ntitle = \"P\"\n[input]\nmax_n = {MAX_MOVES}\n"
        ));
        assert_eq!(p.unwrap().config.input.max_n, MAX_MOVES);
        for bad in [0, MAX_MOVES + 1, 100] {
            let (_root, p) = package(&format!("name = \"p\"\ntitle = \"P\"\n[input]\nmax_n = {bad}\n"));
            let msg = p.unwrap_err().to_string();
            assert!(
                msg.contains(&format!("[input] max_n = {bad}")) && msg.contains(&format!("1 to {MAX_MOVES}")),
                "{msg}"
            );
        }
    }

    #[test]
    fn the_source_limit_is_256_kib_unless_the_package_says_otherwise() {
        let (_root, p) = package("name = \"p\"\ntitle = \"P\"\n");
        assert_eq!(p.unwrap().config.limits.source_bytes(), 256 * 1024);
        let (_root, p) = package("name = \"p\"\ntitle = \"P\"\n[limits]\nsource_kib = 64\n");
        assert_eq!(p.unwrap().config.limits.source_bytes(), 64 * 1024);
    }

    #[test]
    fn a_source_limit_that_is_not_positive_is_named_with_its_file_and_line() {
        for bad in ["0", "-1", "\"1M\"", "1.5"] {
            let (_root, p) = package(&format!(
                "name = \"p\"\ntitle = \"P\"\n[limits]\ntime_ms = 1000\nsource_kib = {bad}\n"
            ));
            let msg = p.unwrap_err().to_string();
            assert!(
                msg.contains("problem.toml") && msg.contains("line 5") && msg.contains("source_kib"),
                "{bad}: {msg}"
            );
        }
    }

    #[test]
    fn unknown_keys_are_named_with_their_line() {
        let (_root, p) = package("name = \"p\"\ntitle = \"P\"\n[limits]\ntime_ms = 1\nmemory = 3\n");
        let msg = p.unwrap_err().to_string();
        assert!(msg.contains("line 5") && msg.contains("memory"), "{msg}");
    }

    #[test]
    fn file_io_is_read_and_checked() {
        let (_root, p) =
            package("name = \"p\"\ntitle = \"P\"\n[io]\ninput = \"mayan.in\"\noutput = \"mayan.out\"\n");
        assert_eq!(p.unwrap().config.io, Some(FileIo::from_stem("mayan")));
        let (_root, p) =
            package("name = \"p\"\ntitle = \"P\"\n[io]\ninput = \"../x\"\noutput = \"mayan.out\"\n");
        assert!(p.unwrap_err().to_string().contains("[io]"));
    }

    #[test]
    fn a_bad_reading_is_named() {
        let (_root, p) = package("name = \"p\"\ntitle = \"P\"\n[checker]\nreading = \"loose\"\n");
        assert!(p.unwrap_err().to_string().contains("unknown reading `loose`"));
    }

    #[test]
    fn tests_are_paired_and_in_natural_order() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["10", "2", "1"] {
            std::fs::write(dir.path().join(format!("{name}.in")), "").unwrap();
            std::fs::write(dir.path().join(format!("{name}.ans")), "").unwrap();
        }
        let names: Vec<_> = find_tests(dir.path())
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["1", "2", "10"]);
        std::fs::write(dir.path().join("3.in"), "").unwrap();
        let err = find_tests(dir.path()).unwrap_err().to_string();
        assert!(err.contains("3.in") && err.contains("without an answer"), "{err}");
        assert!(err.contains("3.ans or") && err.contains("3.out"), "{err}");
        std::fs::remove_file(dir.path().join("3.in")).unwrap();
        for orphan in ["4.ans", "4.out"] {
            std::fs::write(dir.path().join(orphan), "").unwrap();
            assert!(matches!(
                find_tests(dir.path()),
                Err(PackageError::Unpaired {
                    issue: TestsIssue::NoInput,
                    ..
                })
            ));
            std::fs::remove_file(dir.path().join(orphan)).unwrap();
        }
    }

    #[test]
    fn an_answer_may_be_named_out_but_not_twice() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["1.in", "1.ans", "2.in", "2.out"] {
            std::fs::write(dir.path().join(file), "").unwrap();
        }
        let answers: Vec<_> = find_tests(dir.path())
            .unwrap()
            .into_iter()
            .map(|t| t.answer.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(answers, ["1.ans", "2.out"]);
        std::fs::write(dir.path().join("2.ans"), "").unwrap();
        let err = find_tests(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("2.ans") && err.contains("2.out") && err.contains("two answers"),
            "{err}"
        );
    }

    #[test]
    fn groups_score_only_when_all_their_tests_pass() {
        let scoring = Scoring {
            points_per_test: 0,
            total: None,
            unscored: None,
            groups: vec![
                Group {
                    name: "bottom".into(),
                    tests: "secret/b*".into(),
                    points: 30,
                },
                Group {
                    name: "rest".into(),
                    tests: "secret/r*".into(),
                    points: 70,
                },
            ],
        };
        let results = [
            ("secret/b1", true),
            ("secret/b2", true),
            ("secret/r1", true),
            ("secret/r2", false),
        ];
        assert_eq!(scoring.score(&results), (30, 100));
        assert_eq!(Scoring::default().score(&results), (30, 40));
    }

    #[test]
    fn a_total_is_shared_by_the_scored_tests_the_last_ones_one_point_more() {
        let scoring = Scoring {
            total: Some(100),
            unscored: Some("sample/*".into()),
            ..Scoring::default()
        };
        let mut names = vec!["sample/1".to_string()];
        names.extend((1..=30).map(|i| format!("secret/{i}")));
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let points = scoring.test_points(&names);
        assert_eq!(points[0], 0, "the sample scores nothing");
        assert_eq!(points[1..21], [3; 20]);
        assert_eq!(points[21..], [4; 10]);
        let all: Vec<(&str, bool)> = names.iter().map(|n| (*n, true)).collect();
        assert_eq!(scoring.score(&all), (100, 100));
        let only_sample: Vec<(&str, bool)> = names.iter().map(|n| (*n, n.starts_with("sample"))).collect();
        assert_eq!(scoring.score(&only_sample), (0, 100));
    }

    #[test]
    fn a_total_that_the_groups_do_not_add_up_to_is_an_error() {
        let (_root, p) = package(
            "name = \"p\"\ntitle = \"P\"\n[scoring]\ntotal = 100\n\
             [[scoring.group]]\nname = \"a\"\ntests = \"secret/*\"\npoints = 90\n",
        );
        let err = p.unwrap_err().to_string();
        assert!(
            err.contains("total = 100") && err.contains("add up to 90"),
            "{err}"
        );
    }

    #[test]
    fn groups_are_read_from_problem_toml() {
        let (_root, p) = package(
            "name = \"p\"\ntitle = \"P\"\n[[scoring.group]]\nname = \"a\"\ntests = \"secret/*\"\npoints = 100\n",
        );
        assert_eq!(p.unwrap().config.scoring.groups[0].points, 100);
    }

    #[test]
    fn line_of_counts_lines_from_one() {
        let text = "a = 1\nb = 2\n\nc = 3";
        assert_eq!(line_of(text, 0), 1);
        assert_eq!(line_of(text, 6), 2);
        assert_eq!(line_of(text, text.find('c').unwrap()), 4);
        assert_eq!(line_of(text, 1000), 4);
    }

    #[test]
    fn an_empty_tests_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            find_tests(dir.path()),
            Err(PackageError::NoTests { .. })
        ));
    }

    #[test]
    fn a_title_is_given_per_language_and_english_is_required() {
        let (_root, p) = package("name = \"p\"\n[title]\nen = \"Mayan puzzle\"\nzh-CN = \"Mayan 游戏\"\n");
        let title = &p.unwrap().config.title;
        assert_eq!(
            (title.english(), title.in_language("zh-CN")),
            ("Mayan puzzle", Some("Mayan 游戏"))
        );
        assert_eq!(title.in_language("fr"), None);
        let (_root, e) = package("name = \"p\"\n[title]\nzh-CN = \"Mayan 游戏\"\n");
        let e = e.unwrap_err();
        assert!(e.to_string().contains("an English title is needed"), "{e}");
    }
}
