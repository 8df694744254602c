//! STUB (replaced by the contest.toml module being written on branch `config`).

use std::path::{Path, PathBuf};

/// When submissions are accepted.
#[derive(Clone, Debug)]
pub enum Window {
    /// Always.
    Open,
    /// Between start and end (unix seconds); ranking frozen `freeze_secs` before the end.
    Timed { start: i64, end: i64, freeze_secs: i64 },
}

impl Window {
    /// Whether submissions are accepted at `now`.
    pub fn is_open(&self, now: i64) -> bool {
        match self {
            Window::Open => true,
            Window::Timed { start, end, .. } => *start <= now && now < *end,
        }
    }
    /// Whether the ranking is frozen at `now`.
    pub fn frozen(&self, now: i64) -> bool {
        match self {
            Window::Open => false,
            Window::Timed { end, freeze_secs, .. } => {
                *freeze_secs > 0 && now >= end - freeze_secs && now < *end
            }
        }
    }
    /// Whether the contest is over.
    pub fn ended(&self, now: i64) -> bool {
        match self {
            Window::Open => false,
            Window::Timed { end, .. } => now >= *end,
        }
    }
}

/// What contestants see of their results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feedback {
    /// Every test.
    AllTests,
    /// Up to the first failing test.
    FirstFailure,
    /// The score only.
    Score,
    /// Nothing until the end.
    NoneUntilEnd,
}

/// How the ranking is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// OI.
    Oi,
    /// ICPC.
    Icpc,
}

/// A contestant of the CSV.
#[derive(Clone, Debug)]
pub struct ContestantEntry {
    /// Name.
    pub name: String,
    /// Full name.
    pub display: Option<String>,
    /// Password.
    pub password: String,
    /// Generated.
    pub generated: bool,
}

/// contest.toml.
#[derive(Clone, Debug)]
pub struct ContestConfig {
    pub title: String,
    pub problem: Option<PathBuf>,
    pub window: Window,
    pub feedback: Feedback,
    pub scoring: Scoring,
    pub max_submissions: Option<u32>,
    pub languages: Option<Vec<String>>,
    pub admin_password: Option<String>,
    pub penalty_minutes: u32,
    pub contestants: Vec<ContestantEntry>,
    pub dir: PathBuf,
}

/// Errors.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ContestConfigError(String);

impl ContestConfig {
    /// Loads.
    pub fn load(path: &Path) -> Result<ContestConfig, ContestConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ContestConfigError(e.to_string()))?;
        let v: toml::Table = toml::from_str(&text).map_err(|e| ContestConfigError(e.to_string()))?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let mut c = ContestConfig::default_practice();
        c.dir = dir.clone();
        if let Some(t) = v.get("title").and_then(|t| t.as_str()) {
            c.title = t.into();
        }
        if let Some(f) = v.get("contestants").and_then(|t| t.as_str()) {
            let text = std::fs::read_to_string(dir.join(f)).map_err(|e| ContestConfigError(e.to_string()))?;
            for line in text.lines().skip(1) {
                let mut parts = line.split(',');
                let name = parts.next().unwrap_or("").trim().to_string();
                if name.is_empty() {
                    continue;
                }
                let pw = parts
                    .next()
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty());
                c.contestants.push(ContestantEntry {
                    name,
                    display: None,
                    generated: pw.is_none(),
                    password: pw.unwrap_or_else(generate_password),
                });
            }
        }
        Ok(c)
    }
    /// No file.
    pub fn default_practice() -> ContestConfig {
        ContestConfig {
            title: "Mayan puzzle".into(),
            problem: None,
            window: Window::Open,
            feedback: Feedback::AllTests,
            scoring: Scoring::Oi,
            max_submissions: None,
            languages: None,
            admin_password: None,
            penalty_minutes: 20,
            contestants: vec![],
            dir: PathBuf::from("."),
        }
    }
}

/// A password.
pub fn generate_password() -> String {
    crate::server::auth::random_token()[..10].to_string()
}

/// Writes passwords.csv (0600).
pub fn write_passwords(path: &Path, entries: &[(&str, &str)]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    writeln!(f, "name,password")?;
    for (n, p) in entries {
        writeln!(f, "{n},{p}")?;
    }
    Ok(())
}
