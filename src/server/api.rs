//! The JSON API, version 1 (`/api/v1`), for scripts, bots and other front
//! ends: the same checks and the same paths as the pages (a submission is
//! stored by `actions::accept_submission`, results filtered by the feedback
//! policy). Authenticated by `Authorization: Bearer TOKEN` only (never by
//! cookie, so no page can be made to call it); a token is issued for a
//! name and password by `POST /api/v1/token`.

use super::actions::{self, Sent};
use super::app::App;
use super::auth;
use super::http::{self, Fail, Identity};
use axum::Json;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// The API's routes (nested under `/api/v1`).
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/token", post(token))
        .route("/me", get(me))
        .route("/submissions", get(list).post(submit))
        .route("/submissions/{id}", get(one))
        .route("/ranking", get(ranking))
        .route("/clarifications", get(clarifications).post(ask))
        .route("/announcements", get(announcements))
        .route("/rejudge", post(rejudge))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such API call") })
}

/// An error as JSON: `{"error": message}`.
fn error(status: StatusCode, message: &str) -> Response {
    http::json_error(status, message)
}

/// A [`Fail`] as the API answers it.
struct ApiFail(Fail);

impl From<Fail> for ApiFail {
    fn from(f: Fail) -> Self {
        ApiFail(f)
    }
}

impl From<super::db::DbError> for ApiFail {
    fn from(e: super::db::DbError) -> Self {
        ApiFail(e.into())
    }
}

impl From<actions::Refusal> for ApiFail {
    fn from(r: actions::Refusal) -> Self {
        ApiFail(r.into())
    }
}

impl IntoResponse for ApiFail {
    fn into_response(self) -> Response {
        let (status, message) = match self.0 {
            Fail::SignIn => (
                StatusCode::UNAUTHORIZED,
                "a valid token is needed: Authorization: Bearer TOKEN".into(),
            ),
            other => other.parts(),
        };
        error(status, &message)
    }
}

type ApiResult = Result<Response, ApiFail>;

fn ok(value: Value) -> ApiResult {
    Ok(Json(value).into_response())
}

/// Name and password, for a token.
#[derive(Deserialize)]
struct Credentials {
    name: String,
    password: String,
}

/// A token for a name and password; the answer sets the name's device
/// cookie too, which a client that keeps cookies sends at its next
/// sign-in (`signin`: a known device).
async fn token(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    jar: axum_extra::extract::cookie::CookieJar,
    Json(c): Json<Credentials>,
) -> ApiResult {
    let device_cookie = auth::device_cookie_name(&c.name);
    let device = jar.get(&device_cookie).map(|c| c.value().to_string());
    let (user, device) = actions::verify(&app, id.address, &c.name, &c.password, device.as_deref()).await?;
    let token = auth::random_token();
    app.db
        .add_api_token(&auth::token_hash(&token), user.id, super::now())?;
    Ok((
        StatusCode::CREATED,
        jar.add(http::device_cookie_of(&app, device_cookie, device)),
        Json(json!({ "token": token, "user": user.name })),
    )
        .into_response())
}

async fn me(axum::Extension(id): axum::Extension<Identity>) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    ok(json!(user))
}

/// A submission through the API.
#[derive(Deserialize)]
struct NewSubmission {
    /// Language name; absent: detected from `file_name`.
    language: Option<String>,
    /// A file name (for detection and compilation).
    file_name: Option<String>,
    /// The source.
    source: String,
}

async fn submit(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Json(s): Json<NewSubmission>,
) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    let sent = Sent {
        language: s.language.unwrap_or_default(),
        file_name: s.file_name,
        source: s.source.into_bytes(),
        csrf: None,
    };
    let number = actions::accept_submission(&app, user, sent)?;
    let body = json!({ "id": number, "url": format!("/api/v1/submissions/{number}") });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// A submission as the API shows it, by what the viewer may see.
fn submission_json(app: &App, viewer: &super::db::User, number: i64) -> Result<Value, Fail> {
    let (row, _, report) = actions::visible_submission(app, viewer, number)?;
    let (status, _, fin) = actions::status(app, viewer, &row);
    let shown = app.shown(viewer);
    let done = row.state == "done";
    let tests: Vec<Value> = match (&report, done) {
        (Some(r), true) => app
            .visible_tests(viewer, r)
            .iter()
            .map(|t| json!({ "test": t.test, "verdict": t.verdict, "time_ms": t.time_ms, "memory_kib": t.memory_kib, "reason": t.reason }))
            .collect(),
        _ => Vec::new(),
    };
    let compile_error = report
        .as_ref()
        .filter(|_| done && shown.compile_error)
        .and_then(|r| r.compile_error.clone());
    Ok(json!({
        "id": row.id, "user": row.user, "language": row.language, "file_name": row.file_name,
        "submitted": row.submitted, "state": row.state, "status": status, "final": fin,
        "verdict": if done && shown.verdict { row.verdict.clone() } else { None },
        "score": if done && shown.score { row.score } else { None }, "max_score": row.max_score,
        "judgings": row.judgings, "tests": tests, "compile_error": compile_error,
        "counterexample": actions::counterexample(app, viewer, &row)?.json(),
    }))
}

async fn one(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(number): Path<i64>,
) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    ok(submission_json(&app, user, number)?)
}

/// `?before=N&limit=K`: a page of a list, newest first: the `K` rows
/// (at most [`MAX_LIMIT`]; [`http::PAGE_SIZE`] when absent) numbered
/// below `N` (the cursor the `Link` header of the page before gives).
#[derive(Deserialize)]
struct ListPage {
    before: Option<i64>,
    limit: Option<usize>,
}

/// Rows a page of the API holds at most.
const MAX_LIMIT: usize = 500;

/// The `Link` header of a page with older rows: `<URL>; rel="next"`.
fn next_link(path: &str, older: Option<i64>, limit: usize) -> Option<(axum::http::HeaderName, String)> {
    let before = older?;
    Some((
        axum::http::header::LINK,
        format!("<{path}?before={before}&limit={limit}>; rel=\"next\""),
    ))
}

async fn list(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    page: Result<Query<ListPage>, QueryRejection>,
) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    let Ok(Query(page)) = page else {
        return Ok(error(StatusCode::BAD_REQUEST, "before and limit are numbers"));
    };
    let limit = page.limit.unwrap_or(http::PAGE_SIZE).clamp(1, MAX_LIMIT);
    let scope = if user.is_admin { None } else { Some(user.id) };
    let found = app.db.submissions(scope, page.before, limit)?;
    let rows: Vec<Value> = found
        .rows
        .iter()
        .map(|s| {
            let (status, _, _) = actions::status(&app, user, s);
            let shows = s.state == "done" && app.shown(user).score;
            json!({ "id": s.id, "user": s.user, "state": s.state, "status": status,
                    "score": if shows { s.score } else { None }, "submitted": s.submitted })
        })
        .collect();
    let link = next_link("/api/v1/submissions", found.older, limit);
    Ok((axum::response::AppendHeaders(link), Json(json!(rows))).into_response())
}

async fn ranking(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    let standings = actions::current_standings(&app, user)?;
    let frozen = app.contest.window.frozen(super::now());
    ok(json!({ "frozen": frozen, "standings": standings }))
}

async fn clarifications(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    ok(json!(actions::clarifications(&app, user)?))
}

/// A question.
#[derive(Deserialize)]
struct Question {
    question: String,
}

async fn ask(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Json(q): Json<Question>,
) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    let text = actions::text_field("question", &q.question)?;
    let number = actions::ask(&app, user, &text)?;
    Ok((StatusCode::CREATED, Json(json!({ "id": number }))).into_response())
}

async fn announcements(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> ApiResult {
    http::signed_in(&id)?;
    ok(json!(app.db.announcements()?))
}

/// What to rejudge.
#[derive(Deserialize)]
struct Rejudge {
    submission: Option<i64>,
    user: Option<String>,
    #[serde(default)]
    all: bool,
}

async fn rejudge(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Json(r): Json<Rejudge>,
) -> ApiResult {
    let (user, _) = http::signed_in(&id)?;
    if !user.is_admin {
        return Err(Fail::Forbidden("only the teacher may rejudge".into()).into());
    }
    let who = match &r.user {
        Some(name) => Some(app.db.user_by_name(name)?.ok_or(Fail::NotFound)?.0.id),
        None => None,
    };
    if r.submission.is_none() && who.is_none() && !r.all {
        return Err(Fail::Bad("say what to rejudge: submission, user, or all".into()).into());
    }
    let n = app.rejudge(who, r.submission)?;
    ok(json!({ "queued": n }))
}
