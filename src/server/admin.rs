//! The teacher's pages: every submission with its source and results,
//! rejudging (one, a contestant's, all), disqualifying, answering
//! clarifications, announcements, and the downloads: the reports `grade
//! --contest` writes and every contestant's last program in the LemonLime
//! and Arbiter layouts; a contestant's password reset (shown once) or
//! their sessions ended everywhere. Only the `admin` user reaches them.

use super::actions::{load_report, text_field};
use super::app::App;
use super::auth;
use super::db::User;
use super::events::Event;
use super::http::{CsrfForm, Fail, Identity, PageResult, check_csrf, render, row_context, signed_in, teacher};
use crate::judge::grading::{GradeReport, SubmissionReport};
use crate::report::{Csv, Html, Json, ReportFormat};
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
    render(
        &app,
        "admin.html",
        Some(viewer),
        context! { queue, users => minijinja::Value::from(minijinja::value::Serde(&users)), unanswered },
    )
}

/// `?user=NAME`: one contestant's submissions.
#[derive(serde::Deserialize)]
struct Who {
    user: Option<String>,
}

async fn submissions(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Query(who): Query<Who>,
) -> PageResult {
    let viewer = teacher(&id)?;
    let user = match &who.user {
        Some(name) => Some(app.db.user_by_name(name)?.ok_or(Fail::NotFound)?.0),
        None => None,
    };
    let rows = app.db.submissions(user.as_ref().map(|u| u.id))?;
    let submissions: Vec<_> = rows.iter().map(|s| row_context(&app, viewer.0, s)).collect();
    let heading = match &user {
        Some(u) => format!("Submissions of {}", u.name),
        None => "Every submission".into(),
    };
    render(
        &app,
        "submissions.html",
        Some(viewer),
        context! { heading, submissions, base => "/submissions", show_user => true },
    )
}

/// What to rejudge: one submission, a contestant's, or all.
#[derive(serde::Deserialize)]
struct RejudgeForm {
    csrf: Option<String>,
    submission: Option<i64>,
    user: Option<i64>,
    all: Option<String>,
}

async fn rejudge(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<RejudgeForm>,
) -> PageResult {
    let (_, csrf) = teacher(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    if form.submission.is_none() && form.user.is_none() && form.all.is_none() {
        return Err(Fail::Bad(
            "Say what to rejudge: a submission, a contestant, or all.".into(),
        ));
    }
    app.rejudge(form.user, form.submission)?;
    let back = match form.submission {
        Some(s) => format!("/submissions/{s}"),
        None => "/admin/submissions".into(),
    };
    Ok(Redirect::to(&back).into_response())
}

/// Disqualify a contestant (`yes=1`) or reinstate them (`yes=0`).
#[derive(serde::Deserialize)]
struct DisqualifyForm {
    csrf: Option<String>,
    user: i64,
    yes: u8,
}

async fn disqualify(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<DisqualifyForm>,
) -> PageResult {
    let (_, csrf) = teacher(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    app.db.set_disqualified(form.user, form.yes == 1)?;
    app.live.send(Event::Ranking);
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

/// The contest as `grade --contest` reports it: every contestant's last
/// judged submission (a contestant with none: "no submission").
pub fn contest_report(app: &App) -> Result<GradeReport, Fail> {
    let judged = app.db.last_judged_reports()?;
    let mut report = GradeReport::new(&app.problem.name, "mayan-judge serve".into());
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
                r.no_program = Some("no submission".into());
                r
            }
        };
        entry.contestant = Some(user.name.clone());
        report.submissions.push(entry);
    }
    Ok(report)
}

async fn report(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(format): Path<String>,
) -> PageResult {
    teacher(&id)?;
    let report = contest_report(&app)?;
    let (kind, body): (&str, String) = match format.as_str() {
        "csv" => ("text/csv; charset=utf-8", Csv.grade(&report)),
        "html" => ("text/html; charset=utf-8", Html.grade(&report)),
        "json" => ("application/json", Json.grade(&report)),
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

/// A program's name in an archive: `<problem>.<its extension>`, as the
/// offline judges look for it.
fn archived_name(stem: &str, file_name: &str) -> String {
    match file_name.rsplit_once('.') {
        Some((_, ext)) => format!("{stem}.{ext}"),
        None => stem.to_string(),
    }
}
