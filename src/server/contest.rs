//! The online contest's configuration: `contest.toml`, the contestants'
//! CSV it names, and the passwords the judge generates for those who have
//! none. This module reads and checks them (every error names its file and
//! line); it knows nothing of HTTP or storage.
//!
//! Times are TOML offset datetimes (`2026-12-01T09:00:00+08:00`), kept as
//! unix seconds; a local datetime is refused, since the server's time zone
//! is nobody's business. The offset of `start` is the contest's time zone:
//! pages show times in it ([`ContestConfig::local_time`]). `docs/SERVE.md` describes the format.

use crate::i18n::{Arg, Locale};
use crate::package::languages::LanguageTable;
use crate::package::{PROBLEM_FILE, PackageError, line_of};
use serde::{Deserialize, Deserializer};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use toml::Spanned;
use toml::value::{Datetime, Offset};

/// The contest file's usual name.
pub const CONTEST_FILE: &str = "contest.toml";

/// Where [`write_passwords`] puts the generated passwords, beside
/// `contest.toml`.
pub const PASSWORDS_FILE: &str = "passwords.csv";

/// The title when `contest.toml` gives none.
pub const DEFAULT_TITLE: &str = "Mayan puzzle";

/// Questions one contestant may ask when `max_questions` is not given.
pub const DEFAULT_MAX_QUESTIONS: u32 = 30;

/// ICPC penalty per rejected submission before the first accepted one.
pub const DEFAULT_PENALTY_MINUTES: u32 = 20;

/// The characters of generated passwords: letters and digits without those
/// easily mistaken for one another (`0 O o 1 l I i`).
pub const PASSWORD_ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";

/// The length of generated passwords.
pub const PASSWORD_LEN: usize = 10;

/// The name no contestant may take (case ignored).
pub const RESERVED_NAME: &str = "admin";

/// The CSV columns, in the order a header usually gives them.
pub const CSV_COLUMNS: [&str; 3] = ["name", "password", "display"];

/// Where an error is: a file, and its line when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub path: PathBuf,
    /// Its line, from 1.
    pub line: Option<usize>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.path.display()),
            None => write!(f, "{}", self.path.display()),
        }
    }
}

/// What can be wrong with a contest's configuration.
#[derive(Debug, thiserror::Error)]
pub enum ContestConfigError {
    /// A file could not be read.
    #[error("{}: {cause}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error (kept out of the chain: the message already says it).
        cause: std::io::Error,
    },
    /// `contest.toml` does not parse, or a value in it is wrong; the
    /// message names the key.
    #[error("{at}: {message}")]
    Toml {
        /// The file and line.
        at: Location,
        /// What is wrong.
        message: String,
    },
    /// The contestants' CSV is wrong.
    #[error("{at}: {message}")]
    Csv {
        /// The file and line.
        at: Location,
        /// What is wrong.
        message: String,
    },
    /// The contestants' CSV holds a byte that is neither UTF-8 nor
    /// GBK/GB18030 (what Excel and WPS save on a Chinese Windows).
    #[error(
        "{at}: neither UTF-8 nor GBK/GB18030: open the file in Excel or WPS and save it again as \"CSV UTF-8\" (or \"CSV\"), or as UTF-8 from a text editor"
    )]
    Encoding {
        /// The file, and the line of the first such byte.
        at: Location,
    },
    /// The problem package's language table cannot be read.
    #[error(transparent)]
    Package(#[from] PackageError),
}

impl ContestConfigError {
    /// The error in `locale`'s words, for the teacher (the terminal of
    /// `serve`, the contestants' page). The errors not yet in the
    /// catalogues are in English.
    pub fn in_words(&self, locale: Locale) -> String {
        match self {
            ContestConfigError::Encoding { at } => locale.text(
                "contestants-file-encoding",
                &[
                    ("file", Arg::from(at.path.display().to_string())),
                    ("line", Arg::from(at.line.unwrap_or(1))),
                ],
            ),
            ContestConfigError::Io { path, cause } => locale.text(
                "error-cause",
                &[
                    ("error", Arg::from(path.display().to_string())),
                    ("cause", Arg::from(locale.io_error(cause))),
                ],
            ),
            other => other.to_string(),
        }
    }
}

/// A name that is not one of an enumeration's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{value}` (expected one of: {})", .expected.join(", "))]
pub struct UnknownValue {
    /// What was being named (`feedback`, `scoring`).
    pub what: &'static str,
    /// The name given.
    pub value: String,
    /// The names allowed.
    pub expected: Vec<&'static str>,
}

/// Why a TOML datetime is not a point in time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    /// A date and time without a UTC offset.
    #[error("{0} is a local time: add its UTC offset (e.g. {0}+08:00, or {0}Z for UTC)")]
    NoOffset(String),
    /// A date alone or a time alone.
    #[error("{0}: a date, a time and a UTC offset are needed (e.g. 2026-12-01T09:00:00+08:00)")]
    Incomplete(String),
}

/// What contestants see of their submissions' results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Feedback {
    /// Every test's verdict (the default).
    #[default]
    AllTests,
    /// The verdicts up to the first failed test.
    FirstFailure,
    /// The score only.
    Score,
    /// Nothing until the contest ends (NOIP style).
    NoneUntilEnd,
}

impl Feedback {
    /// Every value, in the order messages list them.
    pub const ALL: [Feedback; 4] = [
        Feedback::AllTests,
        Feedback::FirstFailure,
        Feedback::Score,
        Feedback::NoneUntilEnd,
    ];

    /// Whether contestants see their failing submissions' counterexamples
    /// while the contest runs (`under_score`: `[counterexamples]
    /// under_score`). Where they do not, the search waits for the end:
    /// whether a submission is searched, and how long for, tells the
    /// verdict this policy hides (a program that sleeps on the search's
    /// small boards slows its owner's next submission only after a
    /// failure).
    pub fn shows_counterexamples(self, under_score: bool) -> bool {
        match self {
            Feedback::AllTests | Feedback::FirstFailure => true,
            Feedback::Score => under_score,
            Feedback::NoneUntilEnd => false,
        }
    }

    /// The name `contest.toml` uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Feedback::AllTests => "all-tests",
            Feedback::FirstFailure => "first-failure",
            Feedback::Score => "score",
            Feedback::NoneUntilEnd => "none-until-end",
        }
    }
}

/// How the ranking is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// OI: the points of each contestant's final (last) submission.
    #[default]
    Oi,
    /// IOI: the points of each contestant's best submission (the earliest
    /// of the best, should two score the same).
    Ioi,
    /// ICPC: problems solved, then penalty minutes (the time of the first
    /// accepted submission plus `penalty_minutes` per rejected one before).
    Icpc,
}

impl Scoring {
    /// Every value, in the order messages list them.
    pub const ALL: [Scoring; 3] = [Scoring::Oi, Scoring::Ioi, Scoring::Icpc];

    /// The name `contest.toml` uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Scoring::Oi => "oi",
            Scoring::Ioi => "ioi",
            Scoring::Icpc => "icpc",
        }
    }

    /// The 赛制 this ranking belongs to, as Hydro and Luogu name it.
    pub fn rules(self) -> Rules {
        match self {
            Scoring::Oi => Rules::Oi,
            Scoring::Ioi => Rules::Ioi,
            Scoring::Icpc => Rules::Acm,
        }
    }
}

/// A contest's rules (赛制) as Hydro and Luogu name them: `rules` in
/// `contest.toml`, each a bundle of a ranking ([`Scoring`]) and a feedback
/// policy ([`Feedback`]); `feedback` may still be set beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// OI (NOIP): the last submission counts, nothing is shown until the end.
    Oi,
    /// IOI: the best submission counts, every test's verdict shown at once.
    Ioi,
    /// ACM (ICPC): solved and penalty minutes, the verdict of the first
    /// failed test shown at once.
    Acm,
}

impl Rules {
    /// Every value, in the order messages list them.
    pub const ALL: [Rules; 3] = [Rules::Oi, Rules::Ioi, Rules::Acm];

    /// The name `contest.toml` uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Rules::Oi => "oi",
            Rules::Ioi => "ioi",
            Rules::Acm => "acm",
        }
    }

    /// The name a person reads (`OI`, `IOI`, `ACM`).
    pub fn title(self) -> &'static str {
        match self {
            Rules::Oi => "OI",
            Rules::Ioi => "IOI",
            Rules::Acm => "ACM",
        }
    }

    /// The ranking and the feedback the rules bundle.
    pub fn bundle(self) -> (Scoring, Feedback) {
        match self {
            Rules::Oi => (Scoring::Oi, Feedback::NoneUntilEnd),
            Rules::Ioi => (Scoring::Ioi, Feedback::AllTests),
            Rules::Acm => (Scoring::Icpc, Feedback::FirstFailure),
        }
    }
}

impl FromStr for Rules {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_named("rules", s, &Rules::ALL, Rules::as_str)
    }
}

impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        parse_value(d)
    }
}

/// The value of `all` named `s`, by `name`.
fn parse_named<T: Copy>(
    what: &'static str,
    s: &str,
    all: &[T],
    name: fn(T) -> &'static str,
) -> Result<T, UnknownValue> {
    all.iter()
        .copied()
        .find(|&v| name(v) == s)
        .ok_or_else(|| UnknownValue {
            what,
            value: s.to_string(),
            expected: all.iter().map(|&v| name(v)).collect(),
        })
}

impl FromStr for Feedback {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_named("feedback", s, &Feedback::ALL, Feedback::as_str)
    }
}

impl FromStr for Scoring {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_named("scoring", s, &Scoring::ALL, Scoring::as_str)
    }
}

/// A string value parsed with `FromStr`; toml adds the line to the error.
fn parse_value<'de, D: Deserializer<'de>, T>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
}

impl<'de> Deserialize<'de> for Feedback {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        parse_value(d)
    }
}

impl<'de> Deserialize<'de> for Scoring {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        parse_value(d)
    }
}

/// When submissions are accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Always (open practice): never frozen, never ended.
    Open,
    /// From `start` to `end` (unix seconds, `end` excluded); the ranking is
    /// frozen for contestants during the last `freeze_secs` (0: never).
    Timed {
        /// The first second.
        start: i64,
        /// The first second after the contest.
        end: i64,
        /// How long before `end` the ranking freezes.
        freeze_secs: i64,
    },
}

impl Window {
    /// Whether the contest has begun at `now` (unix seconds).
    pub fn started(&self, now: i64) -> bool {
        match *self {
            Window::Open => true,
            Window::Timed { start, .. } => now >= start,
        }
    }

    /// Whether submissions are accepted at `now`.
    pub fn is_open(&self, now: i64) -> bool {
        self.started(now) && !self.ended(now)
    }

    /// Whether contestants see a frozen ranking at `now`: during the last
    /// `freeze_secs` of the contest (after the end, the ranking is whole).
    pub fn frozen(&self, now: i64) -> bool {
        match *self {
            Window::Open => false,
            Window::Timed { end, freeze_secs, .. } => {
                freeze_secs > 0 && now >= end - freeze_secs && now < end
            }
        }
    }

    /// The first second after the contest (`i64::MAX` for an open
    /// practice, which never ends).
    pub fn end(&self) -> i64 {
        match *self {
            Window::Open => i64::MAX,
            Window::Timed { end, .. } => end,
        }
    }

    /// Whether the contest is over at `now`.
    pub fn ended(&self, now: i64) -> bool {
        match *self {
            Window::Open => false,
            Window::Timed { end, .. } => now >= end,
        }
    }
}

/// One contestant (its `Debug` hides the password).
#[derive(Clone, PartialEq, Eq)]
pub struct ContestantEntry {
    /// Login name: 1 to 32 of `A-Z a-z 0-9 _ - .`, unique ignoring case.
    pub name: String,
    /// Full name shown in the ranking, if given.
    pub display: Option<String>,
    /// Password, as given or generated.
    pub password: String,
    /// Whether the password was generated (and must be handed out).
    pub generated: bool,
}

/// A contest, as `contest.toml` sets it up (its `Debug` hides the
/// passwords).
#[derive(Clone, PartialEq, Eq)]
pub struct ContestConfig {
    /// Shown on every page.
    pub title: String,
    /// The problem package folder; `None`: the server's choice (bundled
    /// or `--problem`).
    pub problem: Option<PathBuf>,
    /// When submissions are accepted.
    pub window: Window,
    /// What contestants see of their results.
    pub feedback: Feedback,
    /// How the ranking is computed.
    pub scoring: Scoring,
    /// Submissions allowed per contestant; `None`: unlimited.
    pub max_submissions: Option<u32>,
    /// Questions (clarifications) one contestant may ask; `None`: unlimited.
    pub max_questions: Option<u32>,
    /// Languages allowed (names of the package's language table); `None`:
    /// all of them.
    pub languages: Option<Vec<String>>,
    /// The admin's password; `None`: the server generates one.
    pub admin_password: Option<String>,
    /// ICPC penalty per rejected submission, minutes.
    pub penalty_minutes: u32,
    /// Everyone who may log in, in file order.
    pub contestants: Vec<ContestantEntry>,
    /// The folder of `contest.toml` (where `passwords.csv` goes).
    pub dir: PathBuf,
    /// The file read; `None` for [`ContestConfig::default_practice`].
    pub file: Option<PathBuf>,
    /// The contest's time zone: the UTC offset `start` is written with
    /// (UTC for an open practice).
    pub utc_offset: time::UtcOffset,
    /// The search for failing submissions' counterexamples (`[counterexamples]`).
    pub counterexamples: Counterexamples,
    /// The language of its pages (`language = "zh-CN"`); `None`: each
    /// browser's (`Accept-Language`), else English.
    pub language: Option<crate::i18n::Locale>,
    /// What contestants may fetch once the contest has ended (`[after_end]`).
    pub after_end: AfterEnd,
}

/// `[after_end]` of contest.toml: what contestants may fetch once a timed
/// contest has ended, as LOJ, Luogu and LemonLime let them (nothing by
/// default; never during the contest, never in an open practice, which
/// does not end). The teacher may fetch what is allowed at any time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AfterEnd {
    /// The package's tests, inputs and answers, as one zip (`tests`).
    pub tests: bool,
    /// The package's write-up, 题解 (`solution`: `solution.md`, or
    /// `solution.LANG.md` in the viewer's language).
    pub solution: bool,
}

/// `[counterexamples]` of contest.toml: whether the server searches for the
/// smallest board a failing submission fails on, how much it may spend on
/// each, and whether contestants see it under `feedback = "score"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counterexamples {
    /// Search at all (`search`, default on).
    pub search: bool,
    /// Most runs of one submission (`runs`).
    pub runs: usize,
    /// Most time of one submission's runs, in all (`cpu_seconds`: CPU
    /// time, or a run's wall time where longer).
    pub cpu: std::time::Duration,
    /// Most time of all one contestant's searches together
    /// (`contestant_cpu_seconds`): a contestant who submits a hundred
    /// wrong programs gets the first few searched, not the server's idle
    /// hours.
    pub contestant_cpu: std::time::Duration,
    /// Shown to contestants under `feedback = "score"` (`under_score`,
    /// default off); always under `all-tests` and `first-failure`, never
    /// under `none-until-end` before the end.
    pub under_score: bool,
}

impl Default for Counterexamples {
    fn default() -> Self {
        Counterexamples {
            search: true,
            runs: crate::judge::stress::DEFAULT_RUNS,
            cpu: crate::judge::stress::DEFAULT_CPU,
            contestant_cpu: std::time::Duration::from_secs(60),
            under_score: false,
        }
    }
}

/// What `Debug` shows of a password.
const HIDDEN: &str = "<hidden>";

impl fmt::Debug for ContestantEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContestantEntry")
            .field("name", &self.name)
            .field("display", &self.display)
            .field("password", &HIDDEN)
            .field("generated", &self.generated)
            .finish()
    }
}

impl fmt::Debug for ContestConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContestConfig")
            .field("title", &self.title)
            .field("problem", &self.problem)
            .field("window", &self.window)
            .field("feedback", &self.feedback)
            .field("scoring", &self.scoring)
            .field("max_submissions", &self.max_submissions)
            .field("max_questions", &self.max_questions)
            .field("languages", &self.languages)
            .field("admin_password", &self.admin_password.as_ref().map(|_| HIDDEN))
            .field("penalty_minutes", &self.penalty_minutes)
            .field("contestants", &self.contestants)
            .field("dir", &self.dir)
            .field("file", &self.file)
            .field("utc_offset", &self.utc_offset)
            .field("language", &self.language)
            .field("after_end", &self.after_end)
            .finish()
    }
}

impl ContestConfig {
    /// When the counterexample search may run (unix seconds): at once
    /// (`i64::MIN`) where contestants see counterexamples during the
    /// contest, else from its end ([`Feedback::shows_counterexamples`]:
    /// no work that depends on a hidden verdict runs while it is hidden).
    pub fn searches_from(&self) -> i64 {
        if self
            .feedback
            .shows_counterexamples(self.counterexamples.under_score)
        {
            i64::MIN
        } else {
            self.window.end()
        }
    }

    /// An open practice without a file: the default title, every language,
    /// no contestants.
    pub fn default_practice() -> ContestConfig {
        ContestConfig {
            title: DEFAULT_TITLE.to_string(),
            problem: None,
            window: Window::Open,
            feedback: Feedback::default(),
            scoring: Scoring::default(),
            max_submissions: None,
            max_questions: Some(DEFAULT_MAX_QUESTIONS),
            languages: None,
            admin_password: None,
            penalty_minutes: DEFAULT_PENALTY_MINUTES,
            contestants: Vec::new(),
            dir: PathBuf::from("."),
            file: None,
            utc_offset: time::UtcOffset::UTC,
            after_end: AfterEnd::default(),
            counterexamples: Counterexamples::default(),
            language: None,
        }
    }

    /// Reads and checks `path` (a `contest.toml`) and the contestants it
    /// names. When it names a problem, its languages are checked against
    /// the problem's table; otherwise call [`ContestConfig::check_languages`]
    /// once the problem is known.
    pub fn load(path: &Path) -> Result<ContestConfig, ContestConfigError> {
        let text = fs::read_to_string(path).map_err(|cause| ContestConfigError::Io {
            path: path.to_path_buf(),
            cause,
        })?;
        let doc = Doc { path, text: &text };
        let raw: RawContest = toml::from_str(&text).map_err(|e| doc.parse_error(&e))?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let config = doc.config(&raw, &dir)?;
        if let (Some(problem), Some(names)) = (&config.problem, &raw.languages) {
            let table = LanguageTable::for_package(problem)?;
            if let Some(message) = unknown_language(names.get_ref(), &table.names()) {
                return Err(doc.error(names, "languages", message));
            }
        }
        Ok(config)
    }

    /// Refuses allowed languages that are not in `known` (the problem's
    /// language table).
    pub fn check_languages(&self, known: &[&str]) -> Result<(), ContestConfigError> {
        let Some(message) = self
            .languages
            .as_ref()
            .and_then(|names| unknown_language(names, known))
        else {
            return Ok(());
        };
        Err(ContestConfigError::Toml {
            at: Location {
                path: self.file.clone().unwrap_or_else(|| self.dir.join(CONTEST_FILE)),
                line: None,
            },
            message: format!("`languages`: {message}"),
        })
    }

    /// Whether `language` may be used.
    pub fn allows_language(&self, language: &str) -> bool {
        self.languages
            .as_ref()
            .is_none_or(|l| l.iter().any(|n| n == language))
    }

    /// The contestant named `name`, ignoring case.
    pub fn contestant(&self, name: &str) -> Option<&ContestantEntry> {
        self.contestants
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// `(name, password)` of every contestant whose password was generated.
    pub fn generated_passwords(&self) -> Vec<(&str, &str)> {
        self.contestants
            .iter()
            .filter(|c| c.generated)
            .map(|c| (c.name.as_str(), c.password.as_str()))
            .collect()
    }

    /// Where [`write_passwords`] should put the generated passwords.
    pub fn passwords_path(&self) -> PathBuf {
        self.dir.join(PASSWORDS_FILE)
    }

    /// The language of the server's console: the contest's, else the
    /// environment's (`LANG`), else English.
    pub fn console_language(&self) -> crate::i18n::Locale {
        self.language
            .or_else(crate::i18n::Locale::from_env)
            .unwrap_or_default()
    }

    /// The contest's time zone as pages name it: `UTC`, `UTC+08:00`.
    pub fn zone(&self) -> String {
        crate::report::zone_name(self.utc_offset)
    }

    /// Unix seconds as the contest's clock reads them:
    /// `2026-12-01 09:00:00 UTC+08:00`.
    pub fn local_time(&self, secs: i64) -> String {
        match time::OffsetDateTime::from_unix_timestamp(secs) {
            Ok(t) => {
                let t = t.to_offset(self.utc_offset);
                format!(
                    "{:04}-{:02}-{:02} {:02}:{:02}:{:02} {}",
                    t.year(),
                    u8::from(t.month()),
                    t.day(),
                    t.hour(),
                    t.minute(),
                    t.second(),
                    self.zone()
                )
            }
            Err(_) => format!("{secs} s after 1970"),
        }
    }
}

/// Why `names` (allowed languages) is not a subset of `known`, if it is not.
fn unknown_language(names: &[String], known: &[&str]) -> Option<String> {
    let unknown: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !known.contains(n))
        .collect();
    (!unknown.is_empty()).then(|| {
        format!(
            "unknown language {} (the problem has: {})",
            unknown
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            known.join(", ")
        )
    })
}

/// A new password: [`PASSWORD_LEN`] characters of [`PASSWORD_ALPHABET`],
/// from the operating system's random generator (through `rand::rng()`).
pub fn generate_password() -> String {
    use rand::RngExt;
    let mut rng = rand::rng();
    (0..PASSWORD_LEN)
        .map(|_| char::from(PASSWORD_ALPHABET[rng.random_range(0..PASSWORD_ALPHABET.len())]))
        .collect()
}

/// Writes `entries` (`name,password`, with a header) to `path`, replacing
/// it atomically. The file is created with mode 0600 before anything is
/// written to it, so it is never readable by others, not even briefly.
pub fn write_passwords(path: &Path, entries: &[(&str, &str)]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".passwords")
        .permissions(fs::Permissions::from_mode(0o600))
        .tempfile_in(dir)?;
    // tempfile creates it 0600 already; say so again, whatever its defaults.
    file.as_file()
        .set_permissions(fs::Permissions::from_mode(0o600))?;
    {
        let mut out = csv::Writer::from_writer(file.as_file_mut());
        out.write_record(["name", "password"])?;
        for (name, password) in entries {
            out.write_record([name, password])?;
        }
        out.flush()?;
    }
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `entries` (`name`, `password`) as a table to print once, names aligned.
pub fn render_passwords(entries: &[(&str, &str)]) -> String {
    let width = entries.iter().map(|(n, _)| n.len()).chain([4]).max().unwrap_or(4);
    let mut out = format!("{:width$}  password\n", "name");
    for (name, password) in entries {
        out.push_str(&format!("{name:width$}  {password}\n"));
    }
    out
}

/// The unix seconds of a TOML offset datetime (fractions of a second
/// dropped); a local datetime, date or time is refused.
pub fn unix_seconds(dt: &Datetime) -> Result<i64, TimeError> {
    let (Some(date), Some(clock)) = (dt.date, dt.time) else {
        return Err(TimeError::Incomplete(dt.to_string()));
    };
    let offset_minutes = match dt.offset {
        None => return Err(TimeError::NoOffset(dt.to_string())),
        Some(Offset::Z) => 0,
        Some(Offset::Custom { minutes }) => i32::from(minutes),
    };
    // The TOML parser has checked each field's range already.
    let incomplete = |_| TimeError::Incomplete(dt.to_string());
    let month = time::Month::try_from(date.month).map_err(incomplete)?;
    let day = time::Date::from_calendar_date(i32::from(date.year), month, date.day).map_err(incomplete)?;
    let at = time::Time::from_hms(clock.hour, clock.minute, clock.second.unwrap_or(0)).map_err(incomplete)?;
    let offset = time::UtcOffset::from_whole_seconds(offset_minutes * 60).map_err(incomplete)?;
    Ok(time::PrimitiveDateTime::new(day, at)
        .assume_offset(offset)
        .unix_timestamp())
}

/// The UTC offset a TOML datetime is written with, if any.
fn utc_offset(dt: &Datetime) -> Option<time::UtcOffset> {
    let minutes = match dt.offset? {
        Offset::Z => 0,
        Offset::Custom { minutes } => i32::from(minutes),
    };
    time::UtcOffset::from_whole_seconds(minutes * 60).ok()
}

/// `contest.toml` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContest {
    title: Option<Spanned<String>>,
    problem: Option<Spanned<PathBuf>>,
    contestants: Option<Spanned<PathBuf>>,
    #[serde(default)]
    contestant: Vec<RawContestant>,
    start: Option<Spanned<Datetime>>,
    end: Option<Spanned<Datetime>>,
    freeze_minutes: Option<Spanned<u32>>,
    feedback: Option<Feedback>,
    scoring: Option<Scoring>,
    rules: Option<Spanned<Rules>>,
    max_submissions: Option<u32>,
    max_questions: Option<u32>,
    languages: Option<Spanned<Vec<String>>>,
    admin_password: Option<Spanned<String>>,
    penalty_minutes: Option<Spanned<u32>>,
    counterexamples: Option<RawCounterexamples>,
    after_end: Option<RawAfterEnd>,
    language: Option<Spanned<String>>,
}

/// The `[after_end]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAfterEnd {
    tests: Option<bool>,
    solution: Option<bool>,
}

/// The `[counterexamples]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCounterexamples {
    search: Option<bool>,
    runs: Option<Spanned<usize>>,
    cpu_seconds: Option<Spanned<f64>>,
    contestant_cpu_seconds: Option<Spanned<f64>>,
    under_score: Option<bool>,
}

/// A `[[contestant]]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContestant {
    name: Spanned<String>,
    password: Option<Spanned<String>>,
    display: Option<Spanned<String>>,
}

/// A contestant with the line it came from.
struct Row {
    entry: ContestantEntry,
    line: usize,
}

/// `contest.toml`'s text, to place errors in it.
struct Doc<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Doc<'_> {
    /// The file and the line of the byte `offset`.
    fn at(&self, offset: usize) -> Location {
        Location {
            path: self.path.to_path_buf(),
            line: Some(line_of(self.text, offset)),
        }
    }

    /// `message` about `field`, at `value`'s line.
    fn error<T>(&self, value: &Spanned<T>, field: &str, message: impl fmt::Display) -> ContestConfigError {
        ContestConfigError::Toml {
            at: self.at(value.span().start),
            message: format!("`{field}`: {message}"),
        }
    }

    /// toml's error, at its line, with the line's text (which names the key).
    fn parse_error(&self, e: &toml::de::Error) -> ContestConfigError {
        let Some(span) = e.span() else {
            return ContestConfigError::Toml {
                at: Location {
                    path: self.path.to_path_buf(),
                    line: None,
                },
                message: e.message().to_string(),
            };
        };
        let at = self.at(span.start);
        let source = self
            .text
            .lines()
            .nth(at.line.unwrap_or(1) - 1)
            .unwrap_or("")
            .trim();
        ContestConfigError::Toml {
            message: format!("`{source}`: {}", e.message()),
            at,
        }
    }

    /// The whole configuration, every value checked.
    fn config(&self, raw: &RawContest, dir: &Path) -> Result<ContestConfig, ContestConfigError> {
        let (scoring, feedback) = self.rules(raw)?;
        Ok(ContestConfig {
            title: self.title(raw.title.as_ref())?,
            problem: self.problem(raw.problem.as_ref(), dir)?,
            window: self.window(raw)?,
            feedback,
            scoring,
            max_submissions: raw.max_submissions.filter(|&n| n > 0),
            max_questions: Some(raw.max_questions.unwrap_or(DEFAULT_MAX_QUESTIONS)).filter(|&n| n > 0),
            languages: self.languages(raw.languages.as_ref())?,
            admin_password: self.admin_password(raw.admin_password.as_ref())?,
            penalty_minutes: self.penalty(raw.penalty_minutes.as_ref(), scoring)?,
            contestants: self.contestants(raw, dir)?,
            dir: dir.to_path_buf(),
            file: Some(self.path.to_path_buf()),
            utc_offset: raw
                .start
                .as_ref()
                .and_then(|s| utc_offset(s.get_ref()))
                .unwrap_or(time::UtcOffset::UTC),
            counterexamples: self.counterexamples(raw.counterexamples.as_ref())?,
            language: self.language(raw.language.as_ref())?,
            after_end: raw
                .after_end
                .as_ref()
                .map_or_else(AfterEnd::default, |a| AfterEnd {
                    tests: a.tests.unwrap_or(false),
                    solution: a.solution.unwrap_or(false),
                }),
        })
    }

    fn counterexamples(
        &self,
        raw: Option<&RawCounterexamples>,
    ) -> Result<Counterexamples, ContestConfigError> {
        let d = Counterexamples::default();
        let Some(raw) = raw else { return Ok(d) };
        let runs = match &raw.runs {
            Some(r) if !(1..=100_000).contains(r.get_ref()) => {
                return Err(self.error(r, "counterexamples.runs", "a number of runs from 1 to 100000"));
            }
            Some(r) => *r.get_ref(),
            None => d.runs,
        };
        let cpu = self.seconds(&raw.cpu_seconds, "counterexamples.cpu_seconds", 0.1, d.cpu)?;
        let contestant_cpu = self.seconds(
            &raw.contestant_cpu_seconds,
            "counterexamples.contestant_cpu_seconds",
            0.0,
            d.contestant_cpu,
        )?;
        Ok(Counterexamples {
            search: raw.search.unwrap_or(d.search),
            runs,
            cpu,
            contestant_cpu,
            under_score: raw.under_score.unwrap_or(d.under_score),
        })
    }

    /// A number of seconds from `least` to 3600 at `key`, else `default`.
    fn seconds(
        &self,
        raw: &Option<Spanned<f64>>,
        key: &str,
        least: f64,
        default: std::time::Duration,
    ) -> Result<std::time::Duration, ContestConfigError> {
        match raw {
            Some(c) if !(c.get_ref().is_finite() && (least..=3600.0).contains(c.get_ref())) => {
                Err(self.error(c, key, format!("seconds from {least} to 3600")))
            }
            Some(c) => Ok(std::time::Duration::from_secs_f64(*c.get_ref())),
            None => Ok(default),
        }
    }

    /// `language`: a language the judge speaks (a folder of `locales/`).
    fn language(
        &self,
        language: Option<&Spanned<String>>,
    ) -> Result<Option<crate::i18n::Locale>, ContestConfigError> {
        let Some(language) = language else {
            return Ok(None);
        };
        let tag = language.get_ref().trim();
        match tag.parse::<crate::i18n::Locale>() {
            Ok(locale) => Ok(Some(locale)),
            Err(message) => Err(self.error(language, "language", message)),
        }
    }

    fn title(&self, title: Option<&Spanned<String>>) -> Result<String, ContestConfigError> {
        let Some(title) = title else {
            return Ok(DEFAULT_TITLE.to_string());
        };
        let text = title.get_ref().trim();
        if text.is_empty() || text.chars().count() > 100 || text.chars().any(char::is_control) {
            return Err(self.error(title, "title", "1 to 100 characters, on one line"));
        }
        Ok(text.to_string())
    }

    fn problem(
        &self,
        problem: Option<&Spanned<PathBuf>>,
        dir: &Path,
    ) -> Result<Option<PathBuf>, ContestConfigError> {
        let Some(problem) = problem else {
            return Ok(None);
        };
        let path = dir.join(problem.get_ref());
        if !path.join(PROBLEM_FILE).is_file() {
            let message = format!("{}: not a problem package (no {PROBLEM_FILE})", path.display());
            return Err(self.error(problem, "problem", message));
        }
        Ok(Some(path))
    }

    fn window(&self, raw: &RawContest) -> Result<Window, ContestConfigError> {
        match (&raw.start, &raw.end) {
            (Some(start), Some(end)) => self.timed(start, end, raw.freeze_minutes.as_ref()),
            (Some(start), None) => Err(self.error(
                start,
                "start",
                "no `end`: give both, or neither for an open practice",
            )),
            (None, Some(end)) => Err(self.error(
                end,
                "end",
                "no `start`: give both, or neither for an open practice",
            )),
            (None, None) => match &raw.freeze_minutes {
                Some(freeze) if *freeze.get_ref() > 0 => Err(self.error(
                    freeze,
                    "freeze_minutes",
                    "needs `start` and `end` (an open practice never ends)",
                )),
                _ => Ok(Window::Open),
            },
        }
    }

    fn timed(
        &self,
        start: &Spanned<Datetime>,
        end: &Spanned<Datetime>,
        freeze: Option<&Spanned<u32>>,
    ) -> Result<Window, ContestConfigError> {
        let start_secs = unix_seconds(start.get_ref()).map_err(|e| self.error(start, "start", e))?;
        let end_secs = unix_seconds(end.get_ref()).map_err(|e| self.error(end, "end", e))?;
        if end_secs <= start_secs {
            let message = format!("{} is not after `start` = {}", end.get_ref(), start.get_ref());
            return Err(self.error(end, "end", message));
        }
        let freeze_secs = freeze.map_or(0, |f| i64::from(*f.get_ref()) * 60);
        if let Some(freeze) = freeze
            && freeze_secs >= end_secs - start_secs
        {
            let message = format!(
                "{} minutes is not within the contest ({} minutes long)",
                freeze.get_ref(),
                (end_secs - start_secs) / 60
            );
            return Err(self.error(freeze, "freeze_minutes", message));
        }
        Ok(Window::Timed {
            start: start_secs,
            end: end_secs,
            freeze_secs,
        })
    }

    fn languages(
        &self,
        names: Option<&Spanned<Vec<String>>>,
    ) -> Result<Option<Vec<String>>, ContestConfigError> {
        let Some(names) = names else {
            return Ok(None);
        };
        let list = names.get_ref();
        if list.is_empty() {
            return Err(self.error(names, "languages", "empty: leave it out to allow every language"));
        }
        if let Some(i) = (1..list.len()).find(|&i| list[..i].contains(&list[i])) {
            return Err(self.error(names, "languages", format!("`{}` is listed twice", list[i])));
        }
        Ok(Some(list.clone()))
    }

    fn admin_password(
        &self,
        password: Option<&Spanned<String>>,
    ) -> Result<Option<String>, ContestConfigError> {
        let Some(password) = password else {
            return Ok(None);
        };
        let text = password.get_ref();
        if text.chars().count() < 8 {
            return Err(self.error(password, "admin_password", "at least 8 characters"));
        }
        check_password(text).map_err(|m| self.error(password, "admin_password", m))?;
        Ok(Some(text.clone()))
    }

    /// The ranking and the feedback: `rules`' bundle (its feedback replaced
    /// by `feedback` where that is set too), else `scoring` and `feedback`
    /// as written. `rules` beside `scoring` is an error: one names the
    /// ranking.
    fn rules(&self, raw: &RawContest) -> Result<(Scoring, Feedback), ContestConfigError> {
        match (&raw.rules, raw.scoring) {
            (Some(rules), Some(_)) => Err(self.error(
                rules,
                "rules",
                "sets the ranking already: leave `scoring` out, or `rules` (`feedback` may stay)",
            )),
            (Some(rules), None) => {
                let (scoring, feedback) = rules.get_ref().bundle();
                Ok((scoring, raw.feedback.unwrap_or(feedback)))
            }
            (None, scoring) => Ok((scoring.unwrap_or_default(), raw.feedback.unwrap_or_default())),
        }
    }

    fn penalty(&self, penalty: Option<&Spanned<u32>>, scoring: Scoring) -> Result<u32, ContestConfigError> {
        match penalty {
            None => Ok(DEFAULT_PENALTY_MINUTES),
            Some(p) if scoring == Scoring::Icpc => Ok(*p.get_ref()),
            Some(p) => Err(self.error(
                p,
                "penalty_minutes",
                "only with scoring = \"icpc\" (rules = \"acm\")",
            )),
        }
    }

    /// The contestants, from the CSV or the `[[contestant]]` tables.
    fn contestants(&self, raw: &RawContest, dir: &Path) -> Result<Vec<ContestantEntry>, ContestConfigError> {
        match (&raw.contestants, raw.contestant.is_empty()) {
            (Some(file), true) => read_contestants_csv(&dir.join(file.get_ref())),
            (Some(file), false) => Err(self.error(
                file,
                "contestants",
                "a CSV file and [[contestant]] tables: use one or the other",
            )),
            (None, false) => self.contestant_tables(&raw.contestant),
            (None, true) => Err(ContestConfigError::Toml {
                at: Location {
                    path: self.path.to_path_buf(),
                    line: None,
                },
                message: "no contestants: set `contestants = \"students.csv\"` (columns name, password, \
                          display) or add [[contestant]] tables"
                    .into(),
            }),
        }
    }

    fn contestant_tables(
        &self,
        tables: &[RawContestant],
    ) -> Result<Vec<ContestantEntry>, ContestConfigError> {
        let mut rows = Vec::new();
        for t in tables {
            check_name(t.name.get_ref()).map_err(|m| self.error(&t.name, "name", m))?;
            if let Some(p) = &t.password {
                check_password(p.get_ref()).map_err(|m| self.error(p, "password", m))?;
            }
            if let Some(d) = &t.display {
                check_display(d.get_ref()).map_err(|m| self.error(d, "display", m))?;
            }
            rows.push(Row {
                entry: new_entry(
                    t.name.get_ref(),
                    t.password.as_ref().map(|p| p.get_ref().as_str()),
                    t.display.as_ref().map(|d| d.get_ref().as_str()),
                ),
                line: line_of(self.text, t.name.span().start),
            });
        }
        unique(rows, |line, message| ContestConfigError::Toml {
            at: Location {
                path: self.path.to_path_buf(),
                line: Some(line),
            },
            message: format!("`name`: {message}"),
        })
    }
}

/// A contestant; the password generated when none is given.
fn new_entry(name: &str, password: Option<&str>, display: Option<&str>) -> ContestantEntry {
    ContestantEntry {
        name: name.to_string(),
        display: display.map(str::to_string),
        password: password.map_or_else(generate_password, str::to_string),
        generated: password.is_none(),
    }
}

/// The entries of `rows`, or the first name already taken (case ignored).
fn unique(
    rows: Vec<Row>,
    error: impl Fn(usize, String) -> ContestConfigError,
) -> Result<Vec<ContestantEntry>, ContestConfigError> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows {
        match seen.entry(row.entry.name.to_ascii_lowercase()) {
            Entry::Occupied(first) => {
                let message = format!(
                    "`{}` is already on line {} (names are compared ignoring case)",
                    row.entry.name,
                    first.get()
                );
                return Err(error(row.line, message));
            }
            Entry::Vacant(slot) => {
                slot.insert(row.line);
            }
        }
        entries.push(row.entry);
    }
    Ok(entries)
}

/// A login name: 1 to 32 of `A-Z a-z 0-9 _ - .`, not `admin`.
fn check_name(name: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if name.is_empty() || name.len() > 32 || !name.chars().all(allowed) {
        return Err(format!(
            "`{name}`: a name is 1 to 32 letters, digits, `_`, `-` or `.`"
        ));
    }
    if name.eq_ignore_ascii_case(RESERVED_NAME) {
        return Err(format!("`{name}` is reserved"));
    }
    Ok(())
}

/// A password as given: 1 to 128 characters, no control characters.
fn check_password(password: &str) -> Result<(), String> {
    if password.is_empty() || password.chars().count() > 128 || password.chars().any(char::is_control) {
        return Err("a password is 1 to 128 characters, without control characters".into());
    }
    Ok(())
}

/// A full name: 1 to 100 characters, on one line.
fn check_display(display: &str) -> Result<(), String> {
    if display.trim().is_empty() || display.chars().count() > 100 || display.chars().any(char::is_control) {
        return Err(format!(
            "`{display}`: a full name is 1 to 100 characters, on one line"
        ));
    }
    Ok(())
}

/// Where each column is in the CSV.
struct Columns {
    name: usize,
    password: Option<usize>,
    display: Option<usize>,
}

impl Columns {
    /// The columns of a header row, or what is wrong with it.
    fn of(header: &csv::StringRecord) -> Result<Columns, String> {
        let find = |col: &str| header.iter().position(|h| h.eq_ignore_ascii_case(col));
        let Some(name) = find("name") else {
            return Err(format!(
                "no `name` column: the first line must be a header such as `name,password,display` (found `{}`)",
                header.iter().collect::<Vec<_>>().join(",")
            ));
        };
        for (i, h) in header.iter().enumerate() {
            if !CSV_COLUMNS.iter().any(|c| c.eq_ignore_ascii_case(h)) {
                return Err(format!(
                    "unknown column `{h}` (the columns are {})",
                    CSV_COLUMNS.join(", ")
                ));
            }
            if find(h) != Some(i) {
                return Err(format!("column `{h}` twice"));
            }
        }
        Ok(Columns {
            name,
            password: find("password"),
            display: find("display"),
        })
    }

    /// The contestant of a row (empty cells are absent).
    fn entry(&self, record: &csv::StringRecord) -> Result<ContestantEntry, String> {
        let cell = |i: Option<usize>| i.and_then(|i| record.get(i)).filter(|s| !s.is_empty());
        let name = cell(Some(self.name)).unwrap_or("");
        check_name(name)?;
        let password = cell(self.password);
        if let Some(p) = password {
            check_password(p).map_err(|m| format!("`password`: {m}"))?;
        }
        let display = cell(self.display);
        if let Some(d) = display {
            check_display(d).map_err(|m| format!("`display`: {m}"))?;
        }
        Ok(new_entry(name, password, display))
    }
}

/// What csv says, in the words of this file's other messages.
fn csv_message(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => {
            format!("{len} cells, but the header has {expected_len} (a cell with a comma needs \"quotes\")")
        }
        _ => e.to_string(),
    }
}

/// The text of a contestants' file in whichever encoding Excel, WPS or an
/// editor saved it: the one its byte order mark names (UTF-8's, Excel's
/// "CSV UTF-8"; UTF-16's), else UTF-8 where every byte is, else GB18030
/// (GBK's superset: Excel's and WPS's "CSV" on a Chinese Windows). `Err`:
/// the line of the first byte none of them reads (of the two readings
/// without a mark, the one that went further: the file's encoding, most
/// likely).
fn roster_text(bytes: &[u8]) -> Result<String, usize> {
    if let Some((encoding, mark)) = encoding_rs::Encoding::for_bom(bytes) {
        return decode_strictly(encoding, &bytes[mark..]);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_owned()),
        Err(utf8) => {
            let utf8_line = 1 + bytes[..utf8.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            decode_strictly(encoding_rs::GB18030, bytes).map_err(|line| line.max(utf8_line))
        }
    }
}

/// `bytes` in `encoding`, or the line (from 1) of the first byte it cannot
/// read, counted in the text read before it (a UTF-16 character such as
/// `上`, U+4E0A, has a byte `0A` that is no line break).
fn decode_strictly(encoding: &'static encoding_rs::Encoding, bytes: &[u8]) -> Result<String, usize> {
    use encoding_rs::DecoderResult;
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text = String::new();
    let mut read = 0;
    loop {
        let room = decoder
            .max_utf8_buffer_length_without_replacement(bytes.len() - read)
            .unwrap_or(bytes.len() - read);
        text.reserve(room.max(4));
        let (result, n) = decoder.decode_to_string_without_replacement(&bytes[read..], &mut text, true);
        read += n;
        match result {
            DecoderResult::InputEmpty => return Ok(text),
            DecoderResult::OutputFull => continue,
            DecoderResult::Malformed(..) => return Err(1 + text.matches('\n').count()),
        }
    }
}

/// The contestants of a CSV file (header `name[,password][,display]`), in
/// UTF-8, GBK/GB18030 or UTF-16 ([`roster_text`]).
pub fn read_contestants_csv(path: &Path) -> Result<Vec<ContestantEntry>, ContestConfigError> {
    let error = |line: Option<u64>, message: String| ContestConfigError::Csv {
        at: Location {
            path: path.to_path_buf(),
            line: line.and_then(|l| usize::try_from(l).ok()),
        },
        message,
    };
    let csv_error = |e: csv::Error| error(e.position().map(csv::Position::line), csv_message(&e));
    let bytes = fs::read(path).map_err(|cause| ContestConfigError::Io {
        path: path.to_path_buf(),
        cause,
    })?;
    let text = roster_text(&bytes).map_err(|line| ContestConfigError::Encoding {
        at: Location {
            path: path.to_path_buf(),
            line: Some(line),
        },
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let columns = Columns::of(reader.headers().map_err(csv_error)?).map_err(|m| error(Some(1), m))?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, csv::Position::line);
        let entry = columns.entry(&record).map_err(|m| error(Some(line), m))?;
        rows.push(Row {
            entry,
            line: usize::try_from(line).unwrap_or(usize::MAX),
        });
    }
    if rows.is_empty() {
        return Err(error(None, "no contestants (a header and no rows)".into()));
    }
    unique(rows, |line, message| error(Some(line as u64), message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    const FULL: &str = r#"title = "Mayan practice"
problem = "../problems/mayan"
contestants = "students.csv"
start = 2026-12-01T09:00:00+08:00
end   = 2026-12-01T12:00:00+08:00
freeze_minutes = 60
feedback = "first-failure"
scoring = "icpc"
max_submissions = 50
max_questions = 5
languages = ["c", "cpp", "python"]
admin_password = "correct horse"
penalty_minutes = 15
"#;

    const STUDENTS: &str = "name,password,display\nalice,s3cret,Alice Liddell\nbob,,\n";

    /// A folder with `contest/contest.toml`, `contest/students.csv` and
    /// `problems/mayan/problem.toml`.
    fn contest(toml: &str, csv: &str) -> (tempfile::TempDir, Result<ContestConfig, ContestConfigError>) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("contest");
        fs::create_dir_all(&dir).unwrap();
        fs::create_dir_all(root.path().join("problems/mayan")).unwrap();
        fs::write(
            root.path().join("problems/mayan").join(PROBLEM_FILE),
            "name = \"mayan\"\ntitle = \"M\"\n",
        )
        .unwrap();
        fs::write(dir.join(CONTEST_FILE), toml).unwrap();
        fs::write(dir.join("students.csv"), csv).unwrap();
        let config = ContestConfig::load(&dir.join(CONTEST_FILE));
        (root, config)
    }

    /// The error of a `contest.toml` with `lines` (students.csv is valid).
    fn toml_error(lines: &str) -> String {
        let (_root, config) = contest(lines, STUDENTS);
        config.unwrap_err().to_string()
    }

    fn csv_error(csv: &str) -> String {
        let (_root, config) = contest("contestants = \"students.csv\"\n", csv);
        config.unwrap_err().to_string()
    }

    #[test]
    fn a_full_file_is_read() {
        let (root, config) = contest(FULL, STUDENTS);
        let c = config.unwrap();
        assert_eq!(c.title, "Mayan practice");
        assert_eq!(c.problem, Some(root.path().join("contest/../problems/mayan")));
        let start = 1_796_086_800;
        assert_eq!(
            c.window,
            Window::Timed {
                start,
                end: start + 3 * 3600,
                freeze_secs: 3600
            }
        );
        assert_eq!(c.feedback, Feedback::FirstFailure);
        assert_eq!(c.scoring, Scoring::Icpc);
        assert_eq!(c.max_submissions, Some(50));
        assert_eq!(c.max_questions, Some(5));
        assert_eq!(
            c.languages.as_deref(),
            Some(&["c".to_string(), "cpp".into(), "python".into()][..])
        );
        assert!(c.allows_language("cpp") && !c.allows_language("rust"));
        assert_eq!(c.admin_password.as_deref(), Some("correct horse"));
        assert_eq!(c.penalty_minutes, 15);
        assert_eq!(c.dir, root.path().join("contest"));
        assert_eq!(c.contestants.len(), 2);
        let alice = &c.contestants[0];
        assert_eq!(
            (alice.name.as_str(), alice.password.as_str()),
            ("alice", "s3cret")
        );
        assert_eq!(
            (alice.display.as_deref(), alice.generated),
            (Some("Alice Liddell"), false)
        );
        let bob = c.contestant("BOB").unwrap();
        assert!(bob.generated && bob.display.is_none() && bob.password.len() == PASSWORD_LEN);
        assert_eq!(c.generated_passwords(), [("bob", bob.password.as_str())]);
    }

    #[test]
    fn defaults_are_an_open_oi_contest() {
        let (_root, config) = contest("contestants = \"students.csv\"\n", STUDENTS);
        let c = config.unwrap();
        let practice = ContestConfig::default_practice();
        assert_eq!((c.title.as_str(), c.window), (DEFAULT_TITLE, Window::Open));
        assert_eq!((c.feedback, c.scoring), (Feedback::AllTests, Scoring::Oi));
        assert_eq!((c.max_submissions, c.languages, c.problem), (None, None, None));
        assert_eq!(c.max_questions, Some(DEFAULT_MAX_QUESTIONS));
        assert_eq!(c.penalty_minutes, DEFAULT_PENALTY_MINUTES);
        assert_eq!((practice.window, practice.contestants.len()), (Window::Open, 0));
    }

    #[test]
    fn contestants_may_be_tables() {
        let (_root, config) = contest(
            "[[contestant]]\nname = \"zoe\"\npassword = \"pw\"\n[[contestant]]\nname = \"yann\"\ndisplay = \"Yann T.\"\n",
            "",
        );
        let c = config.unwrap();
        let names: Vec<_> = c
            .contestants
            .iter()
            .map(|c| (c.name.as_str(), c.generated))
            .collect();
        assert_eq!(names, [("zoe", false), ("yann", true)]);
        let e = toml_error("[[contestant]]\nname = \"zoe\"\n[[contestant]]\nname = \"Zoe\"\n");
        assert!(
            e.ends_with(
                "contest.toml:4: `name`: `Zoe` is already on line 2 (names are compared ignoring case)"
            ),
            "{e}"
        );
        let e = toml_error("[[contestant]]\nname = \"zoe\"\nage = 12\n");
        assert!(
            e.contains("contest.toml:3: `age = 12`: unknown field `age`"),
            "{e}"
        );
    }

    #[test]
    fn the_contests_language_is_one_the_judge_speaks() {
        let csv = "name,password\nalice,alice-pw-1\n";
        let (_d, c) = contest("contestants = \"students.csv\"\nlanguage = \"zh-CN\"\n", csv);
        assert_eq!(c.unwrap().language.map(|l| l.tag()), Some("zh-CN"));
        let (_d, c) = contest("contestants = \"students.csv\"\n", csv);
        assert_eq!(c.unwrap().language, None);
        let (_d, c) = contest("contestants = \"students.csv\"\nlanguage = \"tlh\"\n", csv);
        let e = c.unwrap_err().to_string();
        assert!(
            e.contains(":2: `language`: `tlh`: not a language the judge speaks (en, zh-CN)"),
            "{e}"
        );
    }

    /// Bad `contest.toml` files, each with the line its error names and
    /// what the error says there.
    const TOML_ERRORS: &[(&str, usize, &str)] = &[
        (
            "contestants = \"students.csv\"\ncolour = \"red\"\n",
            2,
            "unknown field `colour`",
        ),
        (
            "contestants = \"students.csv\"\nmax_submissions = -1\n",
            2,
            "`max_submissions = -1`",
        ),
        (
            "contestants = \"students.csv\"\nfeedback = \"verbose\"\n",
            2,
            "unknown feedback `verbose` (expected one of: all-tests, first-failure, score, none-until-end)",
        ),
        (
            "contestants = \"students.csv\"\n\nscoring = \"best\"\n",
            3,
            "unknown scoring `best` (expected one of: oi, ioi, icpc)",
        ),
        (
            "contestants = \"students.csv\"\nrules = \"noi\"\n",
            2,
            "unknown rules `noi` (expected one of: oi, ioi, acm)",
        ),
        (
            "contestants = \"students.csv\"\nscoring = \"oi\"\nrules = \"ioi\"\n",
            3,
            "`rules`: sets the ranking already: leave `scoring` out",
        ),
        (
            "contestants = \"students.csv\"\nstart = 2026-12-01T09:00:00+08:00\n",
            2,
            "`start`: no `end`",
        ),
        (
            "contestants = \"students.csv\"\nend = 2026-12-01T09:00:00+08:00\n",
            2,
            "`end`: no `start`",
        ),
        (
            "contestants = \"students.csv\"\nstart = 2026-12-01T09:00:00+08:00\nend = 2026-12-01T09:00:00+08:00\n",
            3,
            "`end`: 2026-12-01T09:00:00+08:00 is not after `start`",
        ),
        (
            "contestants = \"students.csv\"\nstart = 2026-12-01T09:00:00\nend = 2026-12-01T12:00:00+08:00\n",
            2,
            "`start`: 2026-12-01T09:00:00 is a local time: add its UTC offset",
        ),
        (
            "contestants = \"students.csv\"\nstart = 2026-12-01T09:00:00Z\nend = 2026-12-02\n",
            3,
            "`end`: 2026-12-02: a date, a time and a UTC offset are needed",
        ),
        (
            "contestants = \"students.csv\"\nstart = 2026-12-01T09:00:00Z\nend = 2026-12-01T10:00:00Z\nfreeze_minutes = 60\n",
            4,
            "`freeze_minutes`: 60 minutes is not within the contest (60 minutes long)",
        ),
        (
            "contestants = \"students.csv\"\nfreeze_minutes = 10\n",
            2,
            "`freeze_minutes`: needs `start` and `end`",
        ),
        (
            "contestants = \"students.csv\"\npenalty_minutes = 10\n",
            2,
            "`penalty_minutes`: only with scoring = \"icpc\"",
        ),
        (
            "contestants = \"students.csv\"\nadmin_password = \"short\"\n",
            2,
            "`admin_password`: at least 8 characters",
        ),
        (
            "contestants = \"students.csv\"\ntitle = \"\"\n",
            2,
            "`title`: 1 to 100 characters",
        ),
        (
            "contestants = \"students.csv\"\nlanguages = []\n",
            2,
            "`languages`: empty",
        ),
        (
            "contestants = \"students.csv\"\nlanguages = [\"c\", \"c\"]\n",
            2,
            "`languages`: `c` is listed twice",
        ),
        (
            "problem = \"../problems/mayan\"\ncontestants = \"students.csv\"\nlanguages = [\"c\", \"java\"]\n",
            3,
            "`languages`: unknown language `java` (the problem has: c, cpp",
        ),
        (
            "contestants = \"students.csv\"\nproblem = \"../nowhere\"\n",
            2,
            "`problem`: ",
        ),
        (
            "[[contestant]]\nname = \"a\"\n\ncontestants = \"students.csv\"\n",
            4,
            "unknown field `contestants`",
        ),
        (
            "contestants = \"students.csv\"\n[[contestant]]\nname = \"a\"\n",
            1,
            "`contestants`: a CSV file and [[contestant]] tables",
        ),
        (
            "[[contestant]]\nname = \"admin\"\n",
            2,
            "`name`: `admin` is reserved",
        ),
        (
            "[[contestant]]\nname = \"a b\"\n",
            2,
            "`name`: `a b`: a name is 1 to 32 letters",
        ),
    ];

    #[test]
    fn every_error_names_its_file_line_and_key() {
        for &(toml, line, expected) in TOML_ERRORS {
            let e = toml_error(toml);
            assert!(
                e.contains(&format!("contest.toml:{line}: ")) && e.contains(expected),
                "{toml}: {e}"
            );
        }
        let e = toml_error("");
        assert!(e.ends_with("contest.toml: no contestants: set `contestants = \"students.csv\"` (columns name, password, display) or add [[contestant]] tables"), "{e}");
    }

    #[test]
    fn csv_errors_name_the_file_and_line() {
        let cases = [
            (
                "name,password\nalice,x\nbob smith,y\n",
                "students.csv:3: `bob smith`: a name is 1 to 32",
            ),
            (
                "name\nalice\n\nbob\nAlice\n",
                "students.csv:5: `Alice` is already on line 2",
            ),
            (
                "alice,x\nbob,y\n",
                "students.csv:1: no `name` column: the first line must be a header",
            ),
            ("name,team\nalice,x\n", "students.csv:1: unknown column `team`"),
            ("name,Name\nalice,x\n", "students.csv:1: column `Name` twice"),
            (
                "name,password\nalice,x,extra\n",
                "students.csv:2: 3 cells, but the header has 2",
            ),
            ("name,display\nADMIN,x\n", "students.csv:2: `ADMIN` is reserved"),
            (&format!("name\n{}\n", "a".repeat(33)), "students.csv:2: "),
            ("name\n", "students.csv: no contestants"),
        ];
        for (csv, expected) in cases {
            let e = csv_error(csv);
            assert!(e.contains(expected), "{csv:?}: {e}");
        }
        let e = toml_error("contestants = \"nobody.csv\"\n");
        assert!(e.contains("nobody.csv: "), "{e}");
    }

    /// A contestants' file of `bytes`, read.
    fn read_bytes(
        bytes: &[u8],
    ) -> (
        tempfile::TempDir,
        PathBuf,
        Result<Vec<ContestantEntry>, ContestConfigError>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("students.csv");
        fs::write(&path, bytes).unwrap();
        let read = read_contestants_csv(&path);
        (dir, path, read)
    }

    fn displays(entries: &[ContestantEntry]) -> Vec<(&str, Option<&str>)> {
        entries
            .iter()
            .map(|e| (e.name.as_str(), e.display.as_deref()))
            .collect()
    }

    #[test]
    fn a_roster_saved_by_excel_in_gbk_is_read_with_its_chinese_names() {
        let text = "name,password,display\nzhangsan,pw-1,张三\nlisi,pw-2,李四\nouyang,,欧阳·娜娜\n";
        for encoding in [encoding_rs::GBK, encoding_rs::GB18030] {
            let (bytes, _, unmappable) = encoding.encode(text);
            assert!(!unmappable && std::str::from_utf8(&bytes).is_err());
            let (_d, _p, read) = read_bytes(&bytes);
            let entries = read.unwrap();
            assert_eq!(
                displays(&entries),
                [
                    ("zhangsan", Some("张三")),
                    ("lisi", Some("李四")),
                    ("ouyang", Some("欧阳·娜娜"))
                ]
            );
        }
    }

    #[test]
    fn a_roster_in_utf8_with_or_without_a_bom_or_in_utf16_is_read() {
        let text = "name,display\nlisi,李四\n";
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        for bytes in [
            text.as_bytes().to_vec(),
            format!("\u{feff}{text}").into_bytes(),
            utf16,
        ] {
            let (_d, _p, read) = read_bytes(&bytes);
            assert_eq!(displays(&read.unwrap()), [("lisi", Some("李四"))]);
        }
    }

    #[test]
    fn a_roster_in_neither_utf8_nor_gbk_is_refused_naming_file_and_line_in_the_teachers_language() {
        let (bytes, _, _) = encoding_rs::GBK.encode("name,display\nzhangsan,张三\nlisi,李四\n");
        let mut bytes = bytes.into_owned();
        bytes.extend_from_slice(b"wangwu,\xff\xfe\n");
        let (_d, path, read) = read_bytes(&bytes);
        let e = read.unwrap_err();
        assert!(
            matches!(&e, ContestConfigError::Encoding { at } if at.line == Some(4)),
            "{e:?}"
        );
        let file = path.display().to_string();
        let english = e.in_words(Locale::english());
        assert!(
            english.starts_with(&format!("{file}:4: neither UTF-8 nor GBK/GB18030")),
            "{english}"
        );
        assert!(english.contains("CSV UTF-8"), "{english}");
        assert_eq!(e.to_string(), english);
        let chinese = e.in_words(Locale::parse("zh-CN").unwrap());
        assert!(
            chinese.starts_with(&format!("{file} 第 4 行：既不是 UTF-8")),
            "{chinese}"
        );
        assert!(chinese.contains("另存为“CSV UTF-8”"), "{chinese}");
    }

    #[test]
    fn a_bad_character_in_a_utf16_roster_is_named_by_its_line_not_by_0a_bytes() {
        // 上 is U+4E0A: its little-endian bytes `0A 4E` hold a `0A`.
        let mut bytes = vec![0xff, 0xfe];
        bytes.extend(
            "name,display\nshang,上上上\nlisi,"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        );
        bytes.extend([0x00, 0xdc, b'\n', 0x00]); // a lone low surrogate
        let (_d, _p, read) = read_bytes(&bytes);
        let e = read.unwrap_err();
        assert!(
            matches!(&e, ContestConfigError::Encoding { at } if at.line == Some(3)),
            "{e:?}"
        );
    }

    #[test]
    fn a_bad_byte_in_a_utf8_roster_is_named_by_its_line() {
        let mut bytes = "name,display\nzhangsan,张三\nlisi,李".as_bytes().to_vec();
        bytes.extend_from_slice(b"\xff\n");
        let (_d, _p, read) = read_bytes(&bytes);
        let e = read.unwrap_err();
        assert!(
            matches!(&e, ContestConfigError::Encoding { at } if at.line == Some(3)),
            "{e:?}"
        );
    }

    #[test]
    fn csv_cells_are_trimmed_and_a_bom_is_ignored() {
        let (_root, config) = contest(
            "contestants = \"students.csv\"\n",
            "\u{feff}Name , Display\n alice , Alice L. \n",
        );
        let c = config.unwrap();
        assert_eq!(c.contestants[0].name, "alice");
        assert_eq!(c.contestants[0].display.as_deref(), Some("Alice L."));
    }

    #[test]
    fn generated_passwords_are_of_the_alphabet_and_distinct() {
        let passwords: Vec<String> = (0..200).map(|_| generate_password()).collect();
        for p in &passwords {
            assert_eq!(p.len(), PASSWORD_LEN);
            assert!(p.bytes().all(|b| PASSWORD_ALPHABET.contains(&b)), "{p}");
        }
        let distinct: std::collections::HashSet<_> = passwords.iter().collect();
        assert_eq!(distinct.len(), passwords.len());
        for ambiguous in b"0O1lIio" {
            assert!(!PASSWORD_ALPHABET.contains(ambiguous));
        }
    }

    #[test]
    fn the_passwords_file_is_0600_and_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PASSWORDS_FILE);
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        write_passwords(&path, &[("alice", "abc"), ("bob", "x,y")]).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "name,password\nalice,abc\nbob,\"x,y\"\n"
        );
        let leftovers = fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1);
    }

    #[test]
    fn passwords_are_rendered_aligned() {
        assert_eq!(
            render_passwords(&[("alice", "abc"), ("bo", "xyz")]),
            "name   password\nalice  abc\nbo     xyz\n"
        );
    }

    #[test]
    fn languages_are_checked_against_a_table() {
        let mut c = ContestConfig::default_practice();
        assert!(c.check_languages(&["c"]).is_ok());
        c.languages = Some(vec!["c".into(), "go".into()]);
        let e = c.check_languages(&["c", "cpp"]).unwrap_err().to_string();
        assert_eq!(
            e,
            "./contest.toml: `languages`: unknown language `go` (the problem has: c, cpp)"
        );
    }

    #[test]
    fn offset_datetimes_become_unix_seconds() {
        let secs = |s: &str| unix_seconds(&s.parse().unwrap());
        assert_eq!(secs("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(secs("1969-12-31T23:59:59Z"), Ok(-1));
        assert_eq!(secs("2000-03-01T00:00:00Z"), Ok(951_868_800));
        assert_eq!(secs("2026-12-01T09:00:00+08:00"), Ok(1_796_086_800));
        assert_eq!(secs("2024-02-29T12:00:00.75-05:30"), Ok(1_709_227_800));
        assert!(matches!(secs("2026-12-01T09:00:00"), Err(TimeError::NoOffset(_))));
        assert!(matches!(secs("09:00:00"), Err(TimeError::Incomplete(_))));
    }

    #[test]
    fn times_are_shown_in_the_zone_of_start() {
        let (_dir, config) = contest(
            "contestants = \"students.csv\"\nstart = 2026-12-01T09:00:00+08:00\nend = 2026-12-01T12:00:00+08:00\n",
            "name\nalice\n",
        );
        let config = config.unwrap();
        assert_eq!(config.zone(), "UTC+08:00");
        assert_eq!(config.local_time(1_796_086_800), "2026-12-01 09:00:00 UTC+08:00");
        let mut west = config.clone();
        west.utc_offset = time::UtcOffset::from_hms(-5, -30, 0).unwrap();
        assert_eq!(west.zone(), "UTC-05:30");
        assert_eq!(west.local_time(0), "1969-12-31 18:30:00 UTC-05:30");
        let practice = ContestConfig::default_practice();
        assert_eq!(practice.local_time(1_764_579_600), "2025-12-01 09:00:00 UTC");
    }

    #[test]
    fn the_window_opens_freezes_and_ends() {
        let w = Window::Timed {
            start: 100,
            end: 200,
            freeze_secs: 30,
        };
        let at = |now| (w.started(now), w.is_open(now), w.frozen(now), w.ended(now));
        assert_eq!(at(99), (false, false, false, false));
        assert_eq!(at(100), (true, true, false, false));
        assert_eq!(at(169), (true, true, false, false));
        assert_eq!(at(170), (true, true, true, false));
        assert_eq!(at(199), (true, true, true, false));
        assert_eq!(at(200), (true, false, false, true));
        let never = Window::Timed {
            start: 100,
            end: 200,
            freeze_secs: 0,
        };
        assert!(!never.frozen(199));
        assert_eq!(
            (
                Window::Open.is_open(i64::MIN),
                Window::Open.frozen(0),
                Window::Open.ended(i64::MAX)
            ),
            (true, false, false)
        );
    }

    #[test]
    fn debug_hides_the_passwords() {
        let (_root, config) = contest(FULL, STUDENTS);
        let shown = format!("{:?}", config.unwrap());
        assert!(
            !shown.contains("s3cret") && !shown.contains("correct horse"),
            "{shown}"
        );
        assert!(shown.contains("alice") && shown.contains(HIDDEN), "{shown}");
    }

    #[test]
    fn enums_round_trip_through_their_names() {
        for f in Feedback::ALL {
            assert_eq!(f.as_str().parse(), Ok(f));
        }
        for s in Scoring::ALL {
            assert_eq!(s.as_str().parse(), Ok(s));
        }
        assert_eq!(
            "ICPC".parse::<Scoring>().unwrap_err().to_string(),
            "unknown scoring `ICPC` (expected one of: oi, ioi, icpc)"
        );
        for r in Rules::ALL {
            assert_eq!(r.as_str().parse(), Ok(r));
            assert_eq!(r.bundle().0.rules(), r, "{r:?}");
        }
    }

    #[test]
    fn rules_name_a_bundle_of_ranking_and_feedback_and_feedback_may_stay_beside_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("students.csv"), "name\nalice\n").unwrap();
        let load = |extra: &str| {
            let path = dir.path().join("contest.toml");
            std::fs::write(&path, format!("contestants = \"students.csv\"\n{extra}")).unwrap();
            ContestConfig::load(&path).unwrap()
        };
        let bundles = [
            ("oi", Scoring::Oi, Feedback::NoneUntilEnd),
            ("ioi", Scoring::Ioi, Feedback::AllTests),
            ("acm", Scoring::Icpc, Feedback::FirstFailure),
        ];
        for (rules, scoring, feedback) in bundles {
            let c = load(&format!("rules = \"{rules}\"\n"));
            assert_eq!((c.scoring, c.feedback), (scoring, feedback), "{rules}");
        }
        let c = load("rules = \"oi\"\nfeedback = \"score\"\n");
        assert_eq!((c.scoring, c.feedback), (Scoring::Oi, Feedback::Score));
        let c = load("rules = \"acm\"\npenalty_minutes = 5\n");
        assert_eq!(c.penalty_minutes, 5);
        // Today's keys keep working.
        let c = load("scoring = \"icpc\"\nfeedback = \"all-tests\"\n");
        assert_eq!((c.scoring, c.feedback), (Scoring::Icpc, Feedback::AllTests));
    }
}
