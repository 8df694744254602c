//! What users do, without HTTP: sign in (`verify`), submit
//! (`accept_submission`, the one path by which a submission is stored, for
//! the form and the API), and what a viewer may see of a submission, its
//! status and the ranking. The pages and the API call these and turn a
//! [`Refusal`] into their own answer.

use super::app::App;
use super::auth;
use super::db::Clarification;
use super::db::{DbError, SubmissionRow, User};
use super::events::Event;
use super::language::locale;
use super::signin::Busy;
use crate::i18n::Arg;
use crate::judge::grading::SubmissionReport;
use std::net::IpAddr;
use std::sync::Arc;

/// Why something a user asked for is refused.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// Not allowed.
    #[error("{0}")]
    Forbidden(String),
    /// No such thing (or not the viewer's: the same answer, so nothing leaks).
    #[error("no such thing")]
    NotFound,
    /// A field is wrong.
    #[error("{0}")]
    Bad(String),
    /// Too many requests.
    #[error("{0}")]
    TooMany(String),
    /// A source over the package's limit.
    #[error("{0}")]
    TooLarge(String),
    /// The server is busy: try again soon.
    #[error("{0}")]
    Busy(String),
    /// The database refused: nothing was stored.
    #[error(transparent)]
    Storage(#[from] DbError),
}

/// Checks a name and password from the client at `address`, whose
/// browser sent `device` (the value of its device cookie for that name,
/// [`auth::device_cookie_name`]); argon2 runs off the async threads; the
/// same message whether the name or the password is wrong. A check is
/// admitted first (`signin`): refused at once, before any hashing, while
/// the name had too many wrong passwords from this source (or from every
/// unknown source, where `device` is not a valid cookie for the name and
/// no right password came from this address), this address too many
/// whatever the name, or the queue is full; else it waits its turn. Signed
/// in: the user and a new device cookie's value for the name.
pub async fn verify(
    app: &Arc<App>,
    address: IpAddr,
    name: &str,
    password: &str,
    device: Option<&str>,
) -> Result<(User, String), Refusal> {
    let wrong = || Refusal::Forbidden(locale().t("refusal-wrong-password"));
    if name.len() > 64 || password.len() > 256 {
        return Err(wrong());
    }
    let account = auth::account_key(name);
    let device = device.and_then(|d| app.devices.check(&account, d));
    let ticket = app.signins.admit(name, address, device).map_err(busy)?;
    let found = app.db.user_by_name(name.trim())?;
    let password = password.to_string();
    let check = move || match found {
        Some((user, hash)) => {
            let ok = auth::verify_password(&password, &hash);
            (Some(user), ok)
        }
        None => {
            // As long as a real check, so timing does not tell names apart.
            let _ = auth::verify_password(&password, DUMMY_HASH);
            (None, false)
        }
    };
    let (user, ok) = ticket.run(check, |(_, ok)| *ok).await.ok_or_else(wrong)?;
    match user {
        Some(u) if ok => Ok((u, app.devices.issue(&account))),
        _ => Err(wrong()),
    }
}

/// A sign-in not admitted, in the request's language, with the seconds
/// to wait.
fn busy(busy: Busy) -> Refusal {
    let wait = |id: &str, wait: std::time::Duration| {
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        Refusal::TooMany(locale().text(id, &[("seconds", Arg::from(seconds.to_string()))]))
    };
    match busy {
        Busy::Source(w) => wait("refusal-sign-ins-source", w),
        Busy::Running => Refusal::TooMany(locale().t("refusal-sign-ins-running")),
        Busy::Account(w) => wait("refusal-sign-ins-account", w),
        Busy::Address(w) => wait("refusal-sign-ins-address", w),
        Busy::Queue => Refusal::Busy(locale().t("refusal-sign-ins-queue")),
    }
}

/// "You have used all N submissions", in the request's language.
fn used_all(max: u32) -> String {
    locale().text("refusal-used-all", &[("max", Arg::from(max.to_string()))])
}

/// "The language X is not allowed here", in the request's language.
fn not_allowed(language: &str) -> String {
    locale().text(
        "refusal-language-not-allowed",
        &[("language", Arg::from(language))],
    )
}

/// A hash of no one's password, checked when the name is unknown.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA";

/// Why a contestant cannot submit now, if they cannot.
pub fn submission_closed(app: &App, user: &User) -> Result<Option<String>, Refusal> {
    if user.disqualified {
        return Ok(Some(locale().t("refusal-disqualified")));
    }
    if !user.is_admin && !app.contest.window.is_open(super::now()) {
        let why = if app.contest.window.ended(super::now()) {
            "refusal-contest-over"
        } else {
            "refusal-contest-not-started"
        };
        return Ok(Some(locale().t(why)));
    }
    if let Some(max) = app.contest.max_submissions.filter(|_| !user.is_admin)
        && app.db.submission_count(user.id)? >= i64::from(max)
    {
        return Ok(Some(used_all(max)));
    }
    Ok(None)
}

/// A submission as sent: the language asked for (empty: detect), the file
/// name, the source.
pub struct Sent {
    /// Language name, or empty.
    pub language: String,
    /// File name given (uploads), if any.
    pub file_name: Option<String>,
    /// The source.
    pub source: Vec<u8>,
    /// The CSRF token sent.
    pub csrf: Option<String>,
}

/// Stores a submission after every check; returns its number. The one
/// path for the form and the API.
pub fn accept_submission(app: &App, user: &User, sent: Sent) -> Result<i64, Refusal> {
    if let Some(why) = submission_closed(app, user)? {
        return Err(Refusal::Forbidden(why));
    }
    if sent.source.iter().all(u8::is_ascii_whitespace) {
        return Err(Refusal::Bad(locale().t("refusal-empty-source")));
    }
    if sent.source.len() as u64 > app.problem.source_bytes {
        let kib = (app.problem.source_bytes / 1024).to_string();
        return Err(Refusal::TooLarge(
            locale().text("refusal-too-large", &[("kib", Arg::from(kib))]),
        ));
    }
    let (language, file_name) = language_and_name(app, &sent)?;
    if !app.allow_submission(user.id) {
        return Err(Refusal::TooMany(locale().t("refusal-too-many-submissions")));
    }
    let max = app.contest.max_submissions.filter(|_| !user.is_admin);
    let id = app
        .db
        .add_submission_capped(user.id, max, &language, &file_name, &sent.source, super::now())?
        .ok_or_else(|| Refusal::Forbidden(used_all(max.unwrap_or(0))))?;
    app.wake.notify();
    app.live.send(Event::Submission { id, user_id: user.id });
    Ok(id)
}

/// The language (asked for, or detected from the file name as `grade`
/// does) and a safe file name to compile it under.
fn language_and_name(app: &App, sent: &Sent) -> Result<(String, String), Refusal> {
    let given = sent.file_name.as_deref().and_then(plain_file_name);
    let language = if !sent.language.is_empty() {
        app.problem
            .languages
            .iter()
            .find(|(n, _)| *n == sent.language)
            .map(|(n, _)| n.clone())
            .ok_or_else(|| Refusal::Bad(not_allowed(&sent.language)))?
    } else {
        let detected = given
            .as_deref()
            .and_then(|f| app.languages.detect(std::path::Path::new(f)))
            .map(|l| l.name.clone())
            .ok_or_else(|| Refusal::Bad(locale().t("refusal-choose-language")))?;
        if !app.problem.languages.iter().any(|(n, _)| *n == detected) {
            return Err(Refusal::Bad(not_allowed(&detected)));
        }
        detected
    };
    let ext = app
        .problem
        .languages
        .iter()
        .find(|(n, _)| *n == language)
        .and_then(|(_, e)| e.first().cloned())
        .unwrap_or_else(|| "txt".into());
    let matches = given.as_deref().is_some_and(|f| {
        app.languages
            .detect(std::path::Path::new(f))
            .is_some_and(|l| l.name == language)
    });
    let file_name = match given {
        Some(f) if matches => f,
        _ => format!("{}.{ext}", app.problem.name),
    };
    Ok((language, file_name))
}

/// The last component of an uploaded file's name when it is plain
/// (letters, digits, `.`, `_`, `-`; not hidden; at most 64 bytes).
fn plain_file_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next()?;
    let ok = !base.is_empty()
        && base.len() <= 64
        && !base.starts_with('.')
        && base
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    ok.then(|| base.to_string())
}

/// The status text, its CSS class, and whether it is final, as the
/// feedback table (`App::shown`) allows: the verdict, or for a policy that
/// hides it `judged` (with the score's class) or `judged (results at the
/// end)`.
pub fn status(app: &App, viewer: &User, s: &SubmissionRow) -> (String, &'static str, bool) {
    let shown = app.shown(viewer);
    match s.state.as_str() {
        "queued" => ("queued".into(), "pending", false),
        "judging" => (
            app.live.status(s.id).unwrap_or_else(|| "judging".into()),
            "pending",
            false,
        ),
        _ if shown.verdict => {
            let v = s.verdict.clone().unwrap_or_default();
            let class = if v == "AC" { "AC" } else { "bad" };
            (v, class, true)
        }
        _ if shown.score => {
            let full = s.score.is_some() && s.score == s.max_score;
            ("judged".into(), if full { "AC" } else { "bad" }, true)
        }
        _ => ("judged (results at the end)".into(), "pending", true),
    }
}

/// What a viewer sees of a submission's counterexample.
#[derive(Debug)]
pub enum CounterexampleShown {
    /// Nothing: the submission did not fail in a way searched for, the
    /// search is off, or the feedback table hides it from this viewer.
    Nothing,
    /// Being searched for (or waiting for its turn).
    Searching,
    /// None found within the bounds.
    NoneFound,
    /// The smallest failing board found.
    Found(Box<crate::judge::grading::Counterexample>),
}

impl CounterexampleShown {
    /// As the API and `/events` write it: `null`, or its `state`
    /// (`searching`, `none`, `found`) and, once found, the board, the
    /// verdict, the program's output, the checker's reason (in words and
    /// as data), the program's legal moves and the smallest solution.
    pub fn json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            CounterexampleShown::Nothing => serde_json::Value::Null,
            CounterexampleShown::Searching => json!({ "state": "searching" }),
            CounterexampleShown::NoneFound => json!({ "state": "none" }),
            CounterexampleShown::Found(c) => {
                let j = c.result.judgement.as_ref();
                json!({
                    "state": "found", "board": c.result.input, "verdict": c.result.verdict,
                    "output": c.output, "reason": c.result.reason, "reason_data": c.reason(),
                    "moves": j.map(|j| crate::puzzle::solver::format_moves(Some(&j.moves))),
                    "smallest_solution": c.answer, "boards": c.boards, "runs": c.runs, "cpu_ms": c.cpu_ms,
                })
            }
        }
    }
}

/// The counterexample of a judged submission as `viewer` may see it: the
/// feedback table's `counterexample` column (`App::shown`).
pub fn counterexample(app: &App, viewer: &User, s: &SubmissionRow) -> Result<CounterexampleShown, Refusal> {
    let failing = s.state == "done"
        && s.verdict
            .as_deref()
            .is_some_and(|v| crate::judge::stress::SEARCHED_VERDICTS.contains(&v));
    if !failing || !app.contest.counterexamples.search || !app.shown(viewer).counterexample {
        return Ok(CounterexampleShown::Nothing);
    }
    Ok(match app.db.counterexample(s.id)? {
        None => CounterexampleShown::Searching,
        Some(None) => CounterexampleShown::NoneFound,
        Some(Some(json)) => match serde_json::from_str(&json) {
            Ok(c) => CounterexampleShown::Found(Box::new(c)),
            Err(_) => CounterexampleShown::NoneFound,
        },
    })
}

/// A submission the viewer may see (theirs; any for the teacher), with its
/// source and report; anything else is "not found".
pub fn visible_submission(
    app: &App,
    viewer: &User,
    id: i64,
) -> Result<(SubmissionRow, Vec<u8>, Option<SubmissionReport>), Refusal> {
    let full = app.db.submission(id)?.ok_or(Refusal::NotFound)?;
    let (row, source, report) = (full.row, full.source, full.report);
    if row.user_id != viewer.id && !viewer.is_admin {
        return Err(Refusal::NotFound);
    }
    let report = report.and_then(|r| load_report(&r));
    Ok((row, source, report))
}

/// A stored report, read back.
pub fn load_report(json: &str) -> Option<SubmissionReport> {
    serde_json::from_str(json).ok()
}

/// The ranking as `viewer` sees it now (kept as verdicts arrive: a read
/// costs the ranking's size).
pub fn current_standings(app: &App, viewer: &User) -> Result<Vec<super::standings::Standing>, Refusal> {
    let shown = app.shows_result(viewer);
    Ok(app.scoreboard.standings(super::now(), viewer.is_admin, shown))
}

/// Stores a contestant's question (already checked) and tells the
/// teacher's pages; returns its number. A contestant asks at most
/// `max_questions` (counted and stored in one transaction).
pub fn ask(app: &App, user: &User, question: &str) -> Result<i64, Refusal> {
    let max = app.contest.max_questions.filter(|_| !user.is_admin);
    let id = app
        .db
        .ask(Some(user.id), max, question, super::now())?
        .ok_or_else(|| {
            let n = max.unwrap_or(0).to_string();
            Refusal::Forbidden(locale().text("refusal-questions", &[("n", Arg::from(n))]))
        })?;
    app.live.send(Event::Clarification {
        user_id: Some(user.id),
    });
    Ok(id)
}

/// The clarifications `viewer` may read (theirs and the public ones; the
/// teacher: all); who asked a public one is shown to the teacher and the
/// asker only.
pub fn clarifications(app: &App, viewer: &User) -> Result<Vec<Clarification>, Refusal> {
    let scope = (!viewer.is_admin).then_some(viewer.id);
    let mut all = app.db.clarifications(scope)?;
    if !viewer.is_admin {
        for c in &mut all {
            if c.user.as_deref() != Some(viewer.name.as_str()) {
                c.user = None;
            }
        }
    }
    Ok(all)
}

/// Checks a free text a user wrote (a question, an answer, an
/// announcement): not empty, at most 2000 characters.
pub fn text_field(what: &str, text: &str) -> Result<String, Refusal> {
    let t = text.trim();
    let what = [("what", Arg::from(locale().t(&format!("field-{what}"))))];
    if t.is_empty() {
        return Err(Refusal::Bad(locale().text("refusal-field-empty", &what)));
    }
    if t.chars().count() > 2000 {
        return Err(Refusal::Bad(locale().text("refusal-field-long", &what)));
    }
    Ok(t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uploaded_file_names_are_kept_only_when_plain() {
        assert_eq!(
            plain_file_name("C:\\work\\mayan.cpp").as_deref(),
            Some("mayan.cpp")
        );
        assert_eq!(plain_file_name("../../etc/passwd").as_deref(), Some("passwd"));
        assert_eq!(plain_file_name(".bashrc"), None);
        assert_eq!(plain_file_name("a b.c"), None);
        assert_eq!(plain_file_name("x/"), None);
    }
}
