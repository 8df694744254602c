//! The teacher's pages: every submission with its source and results,
//! rejudging (one, a contestant's, all) and disqualifying (each asked again
//! on a page of its own: a second click, no JavaScript), answering
//! clarifications, announcements, contestants added while the contest runs
//! (a dry run, then applied), and the downloads: the reports `grade
//! --contest` writes, every contestant's last program in the LemonLime and
//! Arbiter layouts, the final grades for Moodle's and Canvas's import, and
//! a backup of the database; a contestant's password reset (shown once) or
//! their sessions ended everywhere. Only the `admin` user reaches them.

use super::actions::{load_report, text_field};
use super::app::App;
use super::auth;
use super::db::User;
use super::events::Event;
use super::http::{
    CsrfForm, Fail, Identity, PAGE_SIZE, PageResult, Paging, check_csrf, locale, render, row_context, teacher,
};
use crate::i18n::Arg;
use crate::judge::grading::{GradeReport, SubmissionReport};
use crate::report::{Csv, Html, Json, ReportFormat, marks_workbook};
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect};
use axum::routing::{get, post};
use minijinja::context;
use std::sync::Arc;

/// The teacher's routes, under `/admin`.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/admin", get(dashboard))
        .route("/admin/submissions", get(submissions))
        .route("/admin/rejudge", post(rejudge))
        .route("/admin/disqualify", post(disqualify))
        .route("/admin/clarifications/{id}", post(answer))
        .route("/admin/announcements", post(announce))
        .route("/admin/report.{format}", get(report))
        .route("/admin/programs-{layout}", get(programs))
        .route("/admin/users/{id}/password", post(reset_password))
        .route("/admin/users/{id}/sign-out", post(sign_out))
        .route("/admin/grades-{lms}", get(grades))
        .route("/admin/backup.db", get(backup))
        .route(
            "/admin/contestants",
            get(contestants_page).post(apply_contestants),
        )
}

async fn dashboard(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = teacher(&id)?;
    let queue = app.db.queue_length()?;
    let users = app.db.users()?;
    let unanswered = app
        .db
        .clarifications(None)?
        .iter()
        .filter(|c| c.answer.is_none())
        .count();
    let holders = holders(&app, &users);
    render(
        &app,
        "admin.html",
        Some(viewer),
        context! { queue, users => minijinja::Value::from(minijinja::value::Serde(&users)), unanswered, holders },
    )
}

/// Who holds the most of the server (`connections`): the ten accounts with
/// the most `/events` streams, then connections, then recent requests.
fn holders(app: &App, users: &[User]) -> Vec<minijinja::Value> {
    app.gate
        .top_holders(10)
        .into_iter()
        .map(|(id, held, requests)| {
            let name = users.iter().find(|u| u.id == id).map_or("?", |u| u.name.as_str());
            context! { name, streams => held.streams, connections => held.connections, requests }
        })
        .collect()
}

/// `?user=NAME`: one contestant's submissions (`?before=N` the page: [`Paging`]).
#[derive(serde::Deserialize)]
struct Who {
    user: Option<String>,
}

async fn submissions(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Query(who): Query<Who>,
    Query(paging): Query<Paging>,
) -> PageResult {
    let viewer = teacher(&id)?;
    let user = match &who.user {
        Some(name) => Some(app.db.user_by_name(name)?.ok_or(Fail::NotFound)?.0),
        None => None,
    };
    let page = app
        .db
        .submissions(user.as_ref().map(|u| u.id), paging.before, PAGE_SIZE)?;
    let submissions: Vec<_> = page.rows.iter().map(|s| row_context(&app, viewer.0, s)).collect();
    let l = locale();
    let heading = match &user {
        Some(u) => l.text("submissions-of", &[("name", Arg::from(u.name.as_str()))]),
        None => l.t("nav-every-submission"),
    };
    render(
        &app,
        "submissions.html",
        Some(viewer),
        context! {
            heading, submissions, base => "/submissions", show_user => true,
            page_path => "/admin/submissions", user_param => who.user, older => page.older,
            paged => paging.before.is_some(),
        },
    )
}

/// What to rejudge: one submission, a contestant's, or all.
#[derive(serde::Deserialize)]
struct RejudgeForm {
    csrf: Option<String>,
    submission: Option<i64>,
    user: Option<i64>,
    all: Option<String>,
    /// `yes` once the teacher has confirmed.
    confirm: Option<String>,
}

/// Whether a form carries the second click (`confirm=yes`).
fn confirmed(confirm: Option<&str>) -> bool {
    confirm == Some("yes")
}

/// The page that asks again before a button changes results: what will
/// happen, and the same form with `confirm=yes` (or a way back).
fn ask_again(
    app: &App,
    viewer: (&User, &str),
    action: &str,
    fields: Vec<(&'static str, String)>,
    (heading, question, button): (&str, String, &str),
    back: &str,
) -> PageResult {
    render(
        app,
        "confirm.html",
        Some(viewer),
        context! { heading, question, button, action, fields, back },
    )
}

/// A contestant's login name, or "not found".
fn contestant_name(app: &App, user_id: i64) -> Result<String, Fail> {
    Ok(app.db.user(user_id)?.ok_or(Fail::NotFound)?.name)
}

async fn rejudge(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<RejudgeForm>,
) -> PageResult {
    let viewer = teacher(&id)?;
    check_csrf(viewer.1, form.csrf.as_deref())?;
    if form.submission.is_none() && form.user.is_none() && form.all.is_none() {
        return Err(Fail::Bad(
            "Say what to rejudge: a submission, a contestant, or all.".into(),
        ));
    }
    if !confirmed(form.confirm.as_deref()) {
        let l = locale();
        let (field, question, back) = match (form.submission, form.user) {
            (Some(n), _) => {
                let row = app.db.submission(n)?.ok_or(Fail::NotFound)?.row;
                let args = [("id", Arg::from(n.to_string())), ("name", Arg::from(row.user))];
                (
                    ("submission", n.to_string()),
                    l.text("confirm-rejudge-one", &args),
                    format!("/submissions/{n}"),
                )
            }
            (None, Some(u)) => {
                let name = contestant_name(&app, u)?;
                let n = app.db.submissions_count(Some(u))?;
                let args = [("name", Arg::from(name)), ("n", Arg::from(n.to_string()))];
                (
                    ("user", u.to_string()),
                    l.text("confirm-rejudge-user", &args),
                    "/admin".to_string(),
                )
            }
            (None, None) => {
                let n = app.db.submissions_count(None)?;
                (
                    ("all", "1".to_string()),
                    l.text("confirm-rejudge-all", &[("n", Arg::from(n.to_string()))]),
                    "/admin".to_string(),
                )
            }
        };
        return ask_again(
            &app,
            viewer,
            "/admin/rejudge",
            vec![field],
            (&l.t("confirm-rejudge"), question, &l.t("confirm-rejudge-yes")),
            &back,
        );
    }
    app.rejudge(form.user, form.submission)?;
    let back = match form.submission {
        Some(s) => format!("/submissions/{s}"),
        None => "/admin/submissions".into(),
    };
    Ok(Redirect::to(&back).into_response())
}

/// Disqualify a contestant (`yes=1`, asked again) or reinstate them (`yes=0`).
#[derive(serde::Deserialize)]
struct DisqualifyForm {
    csrf: Option<String>,
    user: i64,
    yes: u8,
    confirm: Option<String>,
}

async fn disqualify(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<DisqualifyForm>,
) -> PageResult {
    let viewer = teacher(&id)?;
    check_csrf(viewer.1, form.csrf.as_deref())?;
    if form.yes == 1 && !confirmed(form.confirm.as_deref()) {
        let name = contestant_name(&app, form.user)?;
        let l = locale();
        return ask_again(
            &app,
            viewer,
            "/admin/disqualify",
            vec![("user", form.user.to_string()), ("yes", "1".into())],
            (
                &l.t("confirm-disqualify"),
                l.text("confirm-disqualify-what", &[("name", Arg::from(name))]),
                &l.t("confirm-disqualify-yes"),
            ),
            "/admin",
        );
    }
    app.db.set_disqualified(form.user, form.yes == 1)?;
    app.ranking_changed()?;
    Ok(Redirect::to("/admin").into_response())
}

/// An answer to a clarification.
#[derive(serde::Deserialize)]
struct AnswerForm {
    csrf: Option<String>,
    answer: String,
    public: Option<String>,
}

async fn answer(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(number): Path<i64>,
    axum::Form(form): axum::Form<AnswerForm>,
) -> PageResult {
    let (_, csrf) = teacher(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    let text = text_field("answer", &form.answer)?;
    let public = form.public.is_some();
    let asker = app
        .db
        .answer(number, &text, public, super::now())?
        .ok_or(Fail::NotFound)?;
    let user_id = if public { None } else { asker };
    app.live.send(Event::Clarification { user_id });
    Ok(Redirect::to("/clarifications").into_response())
}

/// A new password for a contestant, shown once on the page that answers;
/// every session and API token of theirs ends, and the CSV's password no
/// longer replaces it at a restart.
async fn reset_password(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(user_id): Path<i64>,
    axum::Form(form): axum::Form<CsrfForm>,
) -> PageResult {
    let viewer = teacher(&id)?;
    check_csrf(viewer.1, form.csrf.as_deref())?;
    let user = app.db.user(user_id)?.ok_or(Fail::NotFound)?;
    let password = super::contest::generate_password();
    let hash = {
        let password = password.clone();
        tokio::task::spawn_blocking(move || auth::hash_password(&password))
            .await
            .map_err(|e| Fail::Bad(format!("hashing the password: {e}")))?
    };
    if !app.db.reset_password(user.id, &hash)? {
        return Err(Fail::NotFound);
    }
    app.live.send(Event::Sessions { user_id: user.id });
    let page = render(
        &app,
        "password.html",
        Some(viewer),
        context! { name => &user.name, password },
    )?;
    Ok(([(header::CACHE_CONTROL, "no-store")], page).into_response())
}

/// Ends every session and API token of a user (their open pages stop
/// updating and ask them to sign in again).
async fn sign_out(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(user_id): Path<i64>,
    axum::Form(form): axum::Form<CsrfForm>,
) -> PageResult {
    let (_, csrf) = teacher(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    app.db.user(user_id)?.ok_or(Fail::NotFound)?;
    app.db.sign_out_everywhere(user_id)?;
    app.live.send(Event::Sessions { user_id });
    Ok(Redirect::to("/admin").into_response())
}

/// An announcement's text.
#[derive(serde::Deserialize)]
struct AnnounceForm {
    csrf: Option<String>,
    text: String,
}

async fn announce(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<AnnounceForm>,
) -> PageResult {
    let (_, csrf) = teacher(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    let text = text_field("announcement", &form.text)?;
    app.db.announce(&text, super::now())?;
    app.live.send(Event::Announcement);
    Ok(Redirect::to("/admin").into_response())
}

/// The contest as `grade --contest` reports it: every contestant's counted
/// submission, the last judged one (IOI: the best; see
/// [`super::db::Db::counted_reports`]); a contestant with none: "no
/// submission".
pub fn contest_report(app: &App) -> Result<GradeReport, Fail> {
    let best = app.contest.scoring == super::contest::Scoring::Ioi;
    let judged = app.db.counted_reports(best)?;
    let mut report = GradeReport::new(&app.problem.name, "mayan-judge serve".into());
    report.title = Some(app.problem.title.clone());
    report.time_limit_ms = app.problem.time_ms;
    report.contest = Some(app.contest.title.clone());
    report.tests = app.problem.tests.clone();
    for user in app
        .db
        .users()?
        .into_iter()
        .filter(|u| !u.is_admin && !u.disqualified)
    {
        let last = judged.iter().rev().find(|(s, _)| s.user_id == user.id);
        let mut entry = match last.and_then(|(_, r)| load_report(r)) {
            Some(r) => r,
            None => {
                let mut r = SubmissionReport::new(user.name.clone(), "", app.problem.max_score);
                r.set_no_program(crate::judge::reason::NoProgram::NoSubmission);
                r
            }
        };
        entry.contestant = Some(user.name.clone());
        report.submissions.push(entry);
    }
    Ok(report)
}

/// The media type of an Excel workbook.
const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async fn report(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(format): Path<String>,
) -> PageResult {
    teacher(&id)?;
    let report = contest_report(&app)?;
    let users = app.db.users()?;
    let name_of = |login: &str| users.iter().find(|u| u.name == login).map(|u| u.display.clone());
    let (kind, body): (&str, Vec<u8>) = match format.as_str() {
        "csv" => (
            "text/csv; charset=utf-8",
            Csv.grade_with_names(&report, &name_of).into(),
        ),
        "xlsx" => (
            XLSX,
            marks_workbook(&report, locale(), Some(&name_of)).map_err(|e| Fail::Storage(e.to_string()))?,
        ),
        "html" => (
            "text/html; charset=utf-8",
            Html.grade_in(&report, locale()).into(),
        ),
        "json" => ("application/json", Json.grade(&report).into()),
        _ => return Err(Fail::NotFound),
    };
    let disposition = format!("attachment; filename=\"{}-report.{format}\"", app.problem.name);
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

/// Every contestant's last program as a zip in a layout (`lemonlime.zip`,
/// `arbiter.zip`), so the contest can be graded again offline with
/// `grade --contest`.
async fn programs(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(file): Path<String>,
) -> PageResult {
    use crate::workflows::contest::{ArchivedProgram, Layout, write_archive};
    teacher(&id)?;
    let layout: Layout = file
        .strip_suffix(".zip")
        .and_then(|l| l.parse().ok())
        .ok_or(Fail::NotFound)?;
    let finals = app.db.final_programs()?;
    let programs: Vec<ArchivedProgram> = finals
        .iter()
        .map(|f| ArchivedProgram {
            contestant: &f.user,
            file_name: archived_name(&app.problem.name, &f.file_name),
            source: &f.source,
        })
        .collect();
    let mut zip = std::io::Cursor::new(Vec::new());
    write_archive(&mut zip, layout, &app.problem.name, &programs)
        .map_err(|e| Fail::Bad(format!("the archive: {e}")))?;
    let disposition = format!("attachment; filename=\"{}-{file}\"", app.problem.name);
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        zip.into_inner(),
    )
        .into_response())
}

/// The final grades for a gradebook's import (`moodle.csv`, `canvas.csv`):
/// every contestant, with the score the ranking gives them (the teacher's
/// view: through the freeze; a disqualified contestant: 0).
async fn grades(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(file): Path<String>,
) -> PageResult {
    use crate::report::{FinalGrade, Gradebook, gradebook};
    let (viewer, _) = teacher(&id)?;
    let lms: Gradebook = file
        .strip_suffix(".csv")
        .and_then(|l| l.parse().ok())
        .ok_or(Fail::NotFound)?;
    let standings = super::actions::current_standings(&app, viewer)?;
    let users = app.db.users()?;
    let finals: Vec<FinalGrade> = users
        .iter()
        .filter(|u| !u.is_admin)
        .map(|u| FinalGrade {
            login: u.name.clone(),
            name: u.display.clone(),
            points: standings
                .iter()
                .find(|l| l.name == u.name && !l.disqualified)
                .map_or(0, |l| l.score),
        })
        .collect();
    let possible = match app.contest.scoring {
        super::contest::Scoring::Oi | super::contest::Scoring::Ioi => i64::from(app.problem.max_score),
        super::contest::Scoring::Icpc => 1,
    };
    let body = gradebook(lms, app.problem.title.english(), possible, &finals);
    let disposition = format!("attachment; filename=\"{}-grades-{file}\"", app.problem.name);
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

/// A backup of the database, taken now (SQLite's online backup API, one
/// step: consistent while the judge runs), as a download.
async fn backup(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> PageResult {
    teacher(&id)?;
    let db = app.db_path.clone();
    let bytes = tokio::task::spawn_blocking(move || -> Result<Vec<u8>, String> {
        let dir = tempfile::Builder::new()
            .prefix("mayan-judge-backup-")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let copy = dir.path().join("backup.db");
        super::db::backup(&db, &copy).map_err(|e| e.to_string())?;
        std::fs::read(&copy).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| Fail::Storage(e.to_string()))?
    .map_err(Fail::Storage)?;
    let stamp = time::OffsetDateTime::from_unix_timestamp(super::now())
        .map(|t| {
            format!(
                "{:04}{:02}{:02}-{:02}{:02}{:02}",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute(),
                t.second()
            )
        })
        .unwrap_or_default();
    let disposition = format!("attachment; filename=\"mayan-judge-{stamp}.db\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/vnd.sqlite3".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response())
}

/// The contestants read again from the contest's file: what would change
/// (a dry run; nothing changed), or the file's error.
async fn contestants_page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = teacher(&id)?;
    let none = minijinja::Value::from(());
    // argon2 checks of the passwords given: off the async threads' work.
    let page = match tokio::task::block_in_place(|| app.roster_plan(locale())) {
        Ok(plan) => context! {
            plan => plan.in_words(locale()), changes => !plan.is_empty(),
            source => app.contest.file.as_ref().map(|f| f.display().to_string()),
            applied => none,
        },
        Err(error) => context! { error, applied => none },
    };
    render(&app, "contestants.html", Some(viewer), page)
}

/// A form that only confirms.
#[derive(serde::Deserialize)]
struct ConfirmForm {
    csrf: Option<String>,
    confirm: Option<String>,
}

/// Applies what the contestants' file changes (with `confirm=yes`); shows
/// what was done and the passwords generated (once).
async fn apply_contestants(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<ConfirmForm>,
) -> PageResult {
    let viewer = teacher(&id)?;
    check_csrf(viewer.1, form.csrf.as_deref())?;
    if !confirmed(form.confirm.as_deref()) {
        return Ok(Redirect::to("/admin/contestants").into_response());
    }
    let (applied, passwords) = tokio::task::block_in_place(|| {
        let plan = app.roster_plan(locale()).map_err(Fail::Bad)?;
        let passwords = app
            .apply_roster(&plan)
            .map_err(|e| Fail::Storage(format!("{e:#}")))?;
        Ok::<_, Fail>((plan.in_words(locale()), passwords))
    })?;
    render(
        &app,
        "contestants.html",
        Some(viewer),
        context! { applied, passwords },
    )
}

/// A program's name in an archive: `<problem>.<its extension>`, as the
/// offline judges look for it.
fn archived_name(stem: &str, file_name: &str) -> String {
    match file_name.rsplit_once('.') {
        Some((_, ext)) => format!("{stem}.{ext}"),
        None => stem.to_string(),
    }
}
