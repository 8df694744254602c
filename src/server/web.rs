//! The router and the contestants' pages: sign in, the statement, submit,
//! their submissions (live), the ranking, clarifications, and the event
//! stream that makes pages live. Every request is identified first
//! (`identify`: session cookie, or an API token for `/api`), rate-limited
//! by user or address, and every form checks its CSRF token.

use super::app::App;
use super::auth;
use super::db::{DbError, SubmissionRow, User};
use super::events::Event;
use crate::judge::grading::{GradeReport, SubmissionReport};
use crate::report::replay_sections;
use axum::Router;
use axum::extract::{ConnectInfo, Multipart, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{Html as HtmlBody, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use minijinja::context;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// Who is asking, resolved once per request by [`identify`].
#[derive(Clone, Default)]
pub struct Identity {
    /// The signed-in user and the session's CSRF token (empty for an API
    /// token: the API takes no cookies, so needs no CSRF token).
    pub viewer: Option<(User, String)>,
}

/// Why a page cannot be shown; rendered as a page with its status.
#[derive(Debug)]
pub enum Fail {
    /// Not signed in.
    SignIn,
    /// Signed in, not allowed.
    Forbidden(String),
    /// No such thing (or not yours: the same answer, so nothing leaks).
    NotFound,
    /// A field is wrong.
    Bad(String),
    /// Too many requests.
    TooMany(String),
    /// A source over the package's limit.
    TooLarge(String),
    /// The database refused: nothing was stored.
    Storage(String),
}

impl From<DbError> for Fail {
    fn from(e: DbError) -> Fail {
        eprintln!("mayan-judge serve: error: {e}");
        Fail::Storage(e.to_string())
    }
}

impl Fail {
    /// The HTTP status and the message.
    pub fn parts(&self) -> (StatusCode, String) {
        match self {
            Fail::SignIn => (StatusCode::UNAUTHORIZED, "Sign in first.".into()),
            Fail::Forbidden(m) => (StatusCode::FORBIDDEN, m.clone()),
            Fail::NotFound => (StatusCode::NOT_FOUND, "No such page.".into()),
            Fail::Bad(m) => (StatusCode::BAD_REQUEST, m.clone()),
            Fail::TooMany(m) => (StatusCode::TOO_MANY_REQUESTS, m.clone()),
            Fail::TooLarge(m) => (StatusCode::PAYLOAD_TOO_LARGE, m.clone()),
            Fail::Storage(m) => (
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "The judge could not store this, so nothing was stored: {m}. Tell the teacher, then try again."
                ),
            ),
        }
    }
}

impl IntoResponse for Fail {
    fn into_response(self) -> Response {
        if matches!(self, Fail::SignIn) {
            return Redirect::to("/login").into_response();
        }
        let (status, message) = self.parts();
        let body = super::templates::environment()
            .get_template("error.html")
            .and_then(|t| {
                t.render(context! {
                    contest => context! { title => "mayan-judge" },
                    heading => status.canonical_reason().unwrap_or("Error"),
                    message,
                })
            })
            .unwrap_or_else(|_| "error".into());
        (status, HtmlBody(body)).into_response()
    }
}

/// A page's result.
pub type PageResult = Result<Response, Fail>;

/// Every route of the server.
pub fn router(app: Arc<App>) -> Router {
    let body_limit = (app.problem.source_bytes as usize).saturating_add(64 << 10);
    // JSON escapes a source: `\u00e9` for a 2-byte `é` (as Python's
    // `json.dumps` writes non-ASCII), `\u0001` for a control byte; 6 bytes
    // at most for each byte of the source, which is checked once decoded.
    let json_limit = (app.problem.source_bytes as usize)
        .saturating_mul(6)
        .saturating_add(64 << 10);
    Router::new()
        .route("/", get(home))
        .route("/login", get(login_page).post(login))
        .route("/logout", post(logout))
        .route("/statement", get(statement))
        .route("/submit", get(submit_page).post(submit))
        .route("/submissions", get(my_submissions))
        .route("/submissions/{id}", get(submission_page))
        .route("/submissions/{id}/replay", get(replay))
        .route("/ranking", get(ranking))
        .route("/clarifications", get(clarifications).post(ask))
        .route("/events", get(events))
        .route("/static/style.css", get(|| async { static_file("text/css", super::templates::STYLE) }))
        .route("/static/live.js", get(|| async { static_file("text/javascript", super::templates::SCRIPT) }))
        .route("/favicon.svg", get(|| async { static_file("image/svg+xml", super::templates::FAVICON) }))
        .route("/favicon.ico", get(|| async { static_file("image/svg+xml", super::templates::FAVICON) }))
        .merge(super::admin::routes())
        .nest(
            "/api/v1",
            super::api::routes().layer(axum::extract::DefaultBodyLimit::max(json_limit)),
        )
        .fallback(|| async { Fail::NotFound })
        .layer(middleware::from_fn_with_state(app.clone(), identify))
        .layer(axum::extract::DefaultBodyLimit::max(body_limit))
        .layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; form-action 'self'",
            ),
        ))
        .layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .with_state(app)
}

fn static_file(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "max-age=300"),
        ],
        body,
    )
        .into_response()
}

/// The client's address: the connection's, or behind a proxy the last
/// address it appended to `X-Forwarded-For`.
fn client_ip(app: &App, headers: &HeaderMap, peer: SocketAddr) -> IpAddr {
    let forwarded = || {
        let value = headers.get("x-forwarded-for")?.to_str().ok()?;
        value.rsplit(',').next()?.trim().parse().ok()
    };
    if app.behind_proxy {
        forwarded().unwrap_or(peer.ip())
    } else {
        peer.ip()
    }
}

/// Resolves who is asking (session cookie, or `Authorization: Bearer` for
/// the API), applies the rate limit of that user or of the address, and
/// hands the identity to the handlers.
async fn identify(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    jar: CookieJar,
    mut request: Request,
    next: Next,
) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let identity = match resolve(&app, &jar, request.headers(), api) {
        Ok(i) => i,
        Err(e) => return e.into_response(),
    };
    let allowed = match &identity.viewer {
        Some((user, _)) => app.allow_user(user.id),
        None => app.allow_address(client_ip(&app, request.headers(), peer)),
    };
    if !allowed {
        let message = "Too many requests: wait a few seconds.";
        return if api {
            super::api::error(StatusCode::TOO_MANY_REQUESTS, message)
        } else {
            Fail::TooMany(message.into()).into_response()
        };
    }
    request.extensions_mut().insert(identity);
    next.run(request).await
}

fn resolve(app: &App, jar: &CookieJar, headers: &HeaderMap, api: bool) -> Result<Identity, Fail> {
    if api {
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let viewer = match bearer {
            Some(token) => app
                .db
                .api_user(&auth::token_hash(token.trim()))?
                .map(|u| (u, String::new())),
            None => None,
        };
        return Ok(Identity { viewer });
    }
    let viewer = match jar.get(auth::SESSION_COOKIE) {
        Some(c) => app.db.session(&auth::token_hash(c.value()), super::now())?,
        None => None,
    };
    Ok(Identity { viewer })
}

/// The signed-in user, or a redirect to sign in.
pub fn signed_in(identity: &Identity) -> Result<(&User, &str), Fail> {
    identity
        .viewer
        .as_ref()
        .map(|(u, c)| (u, c.as_str()))
        .ok_or(Fail::SignIn)
}

/// Checks a form's CSRF token against the session's.
pub fn check_csrf(session_csrf: &str, sent: Option<&str>) -> Result<(), Fail> {
    match sent {
        Some(s) if !session_csrf.is_empty() && auth::same_secret(s, session_csrf) => Ok(()),
        _ => Err(Fail::Forbidden(
            "This form has expired (its security token does not match): reload the page and try again."
                .into(),
        )),
    }
}

/// Renders a template with what every page shows (the contest, the
/// viewer, the clock).
pub fn render(app: &App, name: &str, viewer: Option<(&User, &str)>, page: minijinja::Value) -> PageResult {
    let (user, csrf) = viewer.map_or((None, ""), |(u, c)| (Some(u), c));
    let ctx = context! {
        contest => context! { title => &app.contest.title },
        problem => problem_context(app),
        user => minijinja::Value::from(minijinja::value::Serde(user)),
        csrf,
        clock => clock(app),
        zone => app.contest.zone(),
        ..page
    };
    let html = super::templates::environment()
        .get_template(name)
        .and_then(|t| t.render(ctx))
        .map_err(|e| Fail::Bad(format!("page {name}: {e}")))?;
    Ok(HtmlBody(html).into_response())
}

fn problem_context(app: &App) -> minijinja::Value {
    let p = &app.problem;
    context! {
        title => &p.title, tests => &p.tests, max_score => p.max_score, time_ms => p.time_ms,
        memory_mib => p.memory_mib, source_kib => p.source_bytes / 1024,
    }
}

/// The contest's clock line.
fn clock(app: &App) -> String {
    use super::contest::Window;
    let now = super::now();
    match app.contest.window {
        Window::Open => "Open practice".into(),
        Window::Timed { start, .. } if now < start => format!("Starts in {}", duration(start - now)),
        Window::Timed { end, .. } if now < end => {
            let frozen = if app.contest.window.frozen(now) {
                " (ranking frozen)"
            } else {
                ""
            };
            format!("Ends in {}{frozen}", duration(end - now))
        }
        Window::Timed { .. } => "The contest is over".into(),
    }
}

fn duration(secs: i64) -> String {
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Unix seconds in the contest's time zone: `YYYY-MM-DD hh:mm:ss UTC+08:00`.
pub fn when(app: &App, secs: i64) -> String {
    app.contest.local_time(secs)
}

async fn home(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> PageResult {
    let viewer = signed_in(&id)?;
    let announcements: Vec<_> = app
        .db
        .announcements()?
        .into_iter()
        .map(|a| context! { when => when(&app, a.posted), text => a.text })
        .collect();
    let window = match app.contest.window {
        super::contest::Window::Open => "Open practice: submit at any time.".to_string(),
        super::contest::Window::Timed { start, end, .. } => format!("From {} to {}.", when(&app, start), when(&app, end)),
    };
    render(
        &app,
        "home.html",
        Some(viewer),
        context! { announcements, window },
    )
}

async fn login_page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    jar: CookieJar,
) -> PageResult {
    if id.viewer.is_some() {
        return Ok(Redirect::to("/").into_response());
    }
    let token = auth::random_token();
    let jar = jar.add(cookie(&app, auth::LOGIN_COOKIE, token.clone()));
    let page = render(&app, "login.html", None, context! { login_csrf => token })?;
    Ok((jar, page).into_response())
}

/// A cookie: HttpOnly, SameSite=Strict, Secure over HTTPS; it lasts as
/// long as the browser runs (the server expires sessions itself).
fn cookie(app: &App, name: &'static str, value: String) -> Cookie<'static> {
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(app.secure_cookies)
        .path("/")
        .build()
}

/// The sign-in form's fields.
#[derive(serde::Deserialize)]
struct LoginForm {
    csrf: Option<String>,
    name: String,
    password: String,
}

async fn login(
    State(app): State<Arc<App>>,
    jar: CookieJar,
    axum::Form(form): axum::Form<LoginForm>,
) -> PageResult {
    let expected = jar
        .get(auth::LOGIN_COOKIE)
        .map(|c| c.value().to_string())
        .unwrap_or_default();
    check_csrf(&expected, form.csrf.as_deref())?;
    let user = verify(&app, &form.name, &form.password).await?;
    let token = auth::random_token();
    let csrf = auth::random_token();
    app.db.add_session(
        &auth::token_hash(&token),
        user.id,
        &csrf,
        super::now() + auth::SESSION_SECS,
    )?;
    let jar = jar
        .remove(Cookie::build(auth::LOGIN_COOKIE).path("/"))
        .add(cookie(&app, auth::SESSION_COOKIE, token));
    Ok((jar, Redirect::to("/")).into_response())
}

/// Checks a name and password (argon2 runs off the async threads); the
/// same message whether the name or the password is wrong.
pub async fn verify(app: &Arc<App>, name: &str, password: &str) -> Result<User, Fail> {
    let wrong = || Fail::Forbidden("Wrong name or password.".into());
    if name.len() > 64 || password.len() > 256 {
        return Err(wrong());
    }
    let found = app.db.user_by_name(name.trim())?;
    let password = password.to_string();
    let _slot = app.password_checks.acquire().await.map_err(|_| wrong())?;
    let (user, ok) = tokio::task::spawn_blocking(move || match found {
        Some((user, hash)) => {
            let ok = auth::verify_password(&password, &hash);
            (Some(user), ok)
        }
        None => {
            // As long as a real check, so timing does not tell names apart.
            let _ = auth::verify_password(&password, DUMMY_HASH);
            (None, false)
        }
    })
    .await
    .map_err(|_| wrong())?;
    match user {
        Some(u) if ok => Ok(u),
        _ => Err(wrong()),
    }
}

/// A hash of no one's password, checked when the name is unknown.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA";

/// A form with only its CSRF token.
#[derive(serde::Deserialize)]
pub struct CsrfForm {
    /// The token.
    pub csrf: Option<String>,
}

async fn logout(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    jar: CookieJar,
    axum::Form(form): axum::Form<CsrfForm>,
) -> PageResult {
    let (_, csrf) = signed_in(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    if let Some(c) = jar.get(auth::SESSION_COOKIE) {
        app.db.delete_session(&auth::token_hash(c.value()))?;
    }
    let jar = jar.remove(Cookie::build(auth::SESSION_COOKIE).path("/"));
    Ok((jar, Redirect::to("/login")).into_response())
}

async fn statement(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let samples: Vec<_> = app
        .problem
        .samples
        .iter()
        .filter_map(|text| crate::puzzle::sim::Puzzle::parse(text.as_bytes()).ok())
        .map(|p| context! { n => p.n, svg => crate::report::svg_board(&p.board, None, None) })
        .collect();
    render(
        &app,
        "statement.html",
        Some(viewer),
        context! { statement => &app.problem.statement, samples, defs => crate::report::board_defs() },
    )
}

/// Why a contestant cannot submit now, if they cannot.
pub fn submission_closed(app: &App, user: &User) -> Result<Option<String>, Fail> {
    if user.disqualified {
        return Ok(Some(
            "You are disqualified: the teacher stopped your submissions.".into(),
        ));
    }
    if !user.is_admin && !app.contest.window.is_open(super::now()) {
        let why = if app.contest.window.ended(super::now()) {
            "is over"
        } else {
            "has not started"
        };
        return Ok(Some(format!("The contest {why}: no submissions now.")));
    }
    if let Some(max) = app.contest.max_submissions.filter(|_| !user.is_admin)
        && app.db.submission_count(user.id)? >= i64::from(max)
    {
        return Ok(Some(format!("You have used all {max} submissions.")));
    }
    Ok(None)
}

async fn submit_page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let closed = submission_closed(&app, viewer.0)?;
    let remaining = match app.contest.max_submissions {
        Some(max) => Some(i64::from(max) - app.db.submission_count(viewer.0.id)?),
        None => None,
    };
    let languages = app.problem.languages.clone();
    render(
        &app,
        "submit.html",
        Some(viewer),
        context! { closed, languages, remaining },
    )
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

/// Reads the submit form: `csrf`, `language`, `file` (upload), `code` (paste).
async fn read_form(app: &App, mut form: Multipart) -> Result<Sent, Fail> {
    let limit = app.problem.source_bytes as usize;
    let mut sent = Sent {
        language: String::new(),
        file_name: None,
        source: Vec::new(),
        csrf: None,
    };
    let mut pasted = Vec::new();
    while let Some(mut field) = form.next_field().await.map_err(form_error)? {
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(form_error)? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > limit {
                return Err(Fail::TooLarge(format!(
                    "The source is larger than {} KiB: refused.",
                    limit / 1024
                )));
            }
        }
        match name.as_str() {
            "csrf" => sent.csrf = Some(String::from_utf8_lossy(&bytes).into_owned()),
            "language" => sent.language = String::from_utf8_lossy(&bytes).trim().to_string(),
            "file" if !bytes.is_empty() => {
                sent.file_name = file_name;
                sent.source = bytes;
            }
            "code" => pasted = bytes,
            _ => {}
        }
    }
    if sent.source.is_empty() {
        sent.source = pasted;
    }
    Ok(sent)
}

/// A broken or oversized form.
fn form_error(e: axum::extract::multipart::MultipartError) -> Fail {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Fail::TooLarge(format!("The form is too large: {e}."))
    } else {
        Fail::Bad(format!("The form could not be read: {e}."))
    }
}

/// Stores a submission after every check; returns its number. The one
/// path for the form and the API.
pub fn accept_submission(app: &App, user: &User, sent: Sent) -> Result<i64, Fail> {
    if let Some(why) = submission_closed(app, user)? {
        return Err(Fail::Forbidden(why));
    }
    if sent.source.iter().all(u8::is_ascii_whitespace) {
        return Err(Fail::Bad(
            "The source is empty: choose a file or paste the program.".into(),
        ));
    }
    if sent.source.len() as u64 > app.problem.source_bytes {
        return Err(Fail::TooLarge(format!(
            "The source is larger than {} KiB: refused.",
            app.problem.source_bytes / 1024
        )));
    }
    let (language, file_name) = language_and_name(app, &sent)?;
    if !app.allow_submission(user.id) {
        return Err(Fail::TooMany(
            "Too many submissions in a row: wait a minute.".into(),
        ));
    }
    let id = app
        .db
        .add_submission(user.id, &language, &file_name, &sent.source, super::now())?;
    app.wake.notify();
    app.live.send(Event::Submission { id, user_id: user.id });
    Ok(id)
}

/// The language (asked for, or detected from the file name as `grade`
/// does) and a safe file name to compile it under.
fn language_and_name(app: &App, sent: &Sent) -> Result<(String, String), Fail> {
    let given = sent.file_name.as_deref().and_then(plain_file_name);
    let language = if !sent.language.is_empty() {
        app.problem
            .languages
            .iter()
            .find(|(n, _)| *n == sent.language)
            .map(|(n, _)| n.clone())
            .ok_or_else(|| Fail::Bad(format!("The language `{}` is not allowed here.", sent.language)))?
    } else {
        let detected = given
            .as_deref()
            .and_then(|f| app.languages.detect(std::path::Path::new(f)))
            .map(|l| l.name.clone())
            .ok_or_else(|| Fail::Bad("Choose the language: it cannot be told from the file name.".into()))?;
        if !app.problem.languages.iter().any(|(n, _)| *n == detected) {
            return Err(Fail::Bad(format!(
                "The language `{detected}` is not allowed here."
            )));
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

async fn submit(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    form: Multipart,
) -> PageResult {
    let (user, csrf) = signed_in(&id)?;
    let sent = read_form(&app, form).await?;
    check_csrf(csrf, sent.csrf.as_deref())?;
    let number = accept_submission(&app, user, sent)?;
    Ok(Redirect::to(&format!("/submissions/{number}")).into_response())
}

/// A submission row as lists show it: status text and class, by what the
/// viewer may see.
pub fn row_context(app: &App, viewer: &User, s: &SubmissionRow) -> minijinja::Value {
    let (status, class, fin) = status(app, viewer, s);
    let shows = app.shows_result(viewer) && s.state == "done";
    context! {
        id => s.id, user => &s.user, language => &s.language, file_name => &s.file_name,
        when => when(app, s.submitted), status, class, final => fin, judgings => s.judgings,
        score => if shows { s.score.map(|x| format!("{x}/{}", s.max_score.unwrap_or(0))) } else { None },
        time => if shows && app.contest.feedback != super::contest::Feedback::Score || viewer.is_admin { s.time_ms.map(|t| format!("{t} ms")) } else { None },
    }
}

/// The status text, its CSS class, and whether it is final.
pub fn status(app: &App, viewer: &User, s: &SubmissionRow) -> (String, &'static str, bool) {
    match s.state.as_str() {
        "queued" => ("queued".into(), "pending", false),
        "judging" => (
            app.live.status(s.id).unwrap_or_else(|| "judging".into()),
            "pending",
            false,
        ),
        _ if !app.shows_result(viewer) => ("judged (results at the end)".into(), "pending", true),
        _ => {
            let v = s.verdict.clone().unwrap_or_default();
            let class = if v == "AC" { "AC" } else { "bad" };
            (v, class, true)
        }
    }
}

async fn my_submissions(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let rows = app.db.submissions(Some(viewer.0.id))?;
    let submissions: Vec<_> = rows.iter().map(|s| row_context(&app, viewer.0, s)).collect();
    render(
        &app,
        "submissions.html",
        Some(viewer),
        context! { heading => "Your submissions", submissions, base => "/submissions", show_user => false },
    )
}

/// A submission the viewer may see (theirs; any for the teacher), with its
/// source and report; anything else is "not found".
pub fn visible_submission(
    app: &App,
    viewer: &User,
    id: i64,
) -> Result<(SubmissionRow, Vec<u8>, Option<SubmissionReport>), Fail> {
    let full = app.db.submission(id)?.ok_or(Fail::NotFound)?;
    let (row, source, report) = (full.row, full.source, full.report);
    if row.user_id != viewer.id && !viewer.is_admin {
        return Err(Fail::NotFound);
    }
    let report = report.and_then(|r| load_report(&r));
    Ok((row, source, report))
}

/// A stored report, read back.
pub fn load_report(json: &str) -> Option<SubmissionReport> {
    serde_json::from_str(json).ok()
}

async fn submission_page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(number): Path<i64>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let (row, source, report) = visible_submission(&app, viewer.0, number)?;
    let s = row_context(&app, viewer.0, &row);
    let done = row.state == "done";
    let shows = done && app.shows_result(viewer.0);
    let (tests, hidden, compile_error, replay) = match (&report, shows) {
        (Some(r), true) => {
            let tests = app.visible_tests(viewer.0, r);
            let failing = tests
                .iter()
                .any(|t| t.verdict != crate::puzzle::verdict::Verdict::Accepted && t.judgement.is_some());
            let replay = failing.then(|| format!("/submissions/{number}/replay"));
            (
                tests.to_vec(),
                r.tests.len() - tests.len(),
                r.compile_error.clone(),
                replay,
            )
        }
        _ => (Vec::new(), 0, None, None),
    };
    let hidden_tests = if tests.is_empty() { 0 } else { hidden };
    render(
        &app,
        "submission.html",
        Some(viewer),
        context! {
            s, tests => minijinja::Value::from(minijinja::value::Serde(&tests)), hidden_tests, compile_error, replay, refresh => !done,
            source => String::from_utf8_lossy(&source), admin_actions => viewer.0.is_admin,
        },
    )
}

/// The replay of one submission, a page of the site: its visible tests,
/// each wrong answer replayed move by move beside the reference's, a way
/// back to the submission.
async fn replay(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(number): Path<i64>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let (row, _, report) = visible_submission(&app, viewer.0, number)?;
    let report = report
        .filter(|_| app.shows_result(viewer.0))
        .ok_or(Fail::NotFound)?;
    let mut shown = report.clone();
    shown.tests = app.visible_tests(viewer.0, &report).to_vec();
    if shown.tests.is_empty() {
        return Err(Fail::NotFound);
    }
    let display = app.db.user(row.user_id)?.map_or_else(|| row.user.clone(), |u| u.display);
    // The section's heading: the contestant, then the file (never the
    // judge's own path of it).
    shown.contestant = Some(display.clone());
    shown.submission = format!("submission {number}: {}", row.file_name);
    let mut grade = GradeReport::new(&app.problem.name, "the contest's sandbox".into());
    grade.time_limit_ms = app.problem.time_ms;
    grade.tests = shown.tests.iter().map(|t| t.test.clone()).collect();
    grade.submissions = vec![shown];
    let mut s = row_context(&app, viewer.0, &row);
    if display != row.user {
        s = context! { user_display => format!("{display} ({})", row.user), ..s };
    } else {
        s = context! { user_display => display, ..s };
    }
    render(
        &app,
        "replay.html",
        Some(viewer),
        context! { s, sections => replay_sections(&grade), defs => crate::report::board_defs() },
    )
}

async fn ranking(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> PageResult {
    let viewer = signed_in(&id)?;
    let standings = current_standings(&app, viewer.0)?;
    let frozen = app.contest.window.frozen(super::now());
    let icpc = app.contest.scoring == super::contest::Scoring::Icpc;
    render(
        &app,
        "ranking.html",
        Some(viewer),
        context! { standings => minijinja::Value::from(minijinja::value::Serde(&standings)), frozen, icpc },
    )
}

/// The ranking as `viewer` sees it now.
pub fn current_standings(app: &App, viewer: &User) -> Result<Vec<super::standings::Standing>, Fail> {
    let users = app.db.users()?;
    let judged = app.db.judged_rows()?;
    let hide = !app.shows_result(viewer);
    let judged = if hide { Vec::new() } else { judged };
    Ok(super::standings::standings(
        &app.contest,
        &users,
        &judged,
        super::now(),
        viewer.is_admin,
    ))
}

async fn clarifications(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let scope = if viewer.0.is_admin {
        None
    } else {
        Some(viewer.0.id)
    };
    let clarifications: Vec<_> = app
        .db
        .clarifications(scope)?
        .into_iter()
        .map(|c| {
            let asked_at = when(&app, c.asked);
            let answered_at = c.answered.filter(|_| c.answer.is_some()).map(|t| when(&app, t));
            context! { asked_at, answered_at, ..minijinja::Value::from(minijinja::value::Serde(&c)) }
        })
        .collect();
    render(
        &app,
        "clarifications.html",
        Some(viewer),
        context! { clarifications },
    )
}

/// The question form.
#[derive(serde::Deserialize)]
struct AskForm {
    csrf: Option<String>,
    question: String,
}

/// Checks a free text a user wrote (a question, an answer, an
/// announcement): not empty, at most 2000 characters.
pub fn text_field(what: &str, text: &str) -> Result<String, Fail> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Fail::Bad(format!("The {what} is empty.")));
    }
    if t.chars().count() > 2000 {
        return Err(Fail::Bad(format!("The {what} is longer than 2000 characters.")));
    }
    Ok(t.to_string())
}

async fn ask(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<AskForm>,
) -> PageResult {
    let (user, csrf) = signed_in(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    let question = text_field("question", &form.question)?;
    app.ask(user, &question)?;
    Ok(Redirect::to("/clarifications").into_response())
}

/// What one event tells a viewer, if it concerns them.
fn sse_message(app: &App, viewer: &User, event: Event) -> Option<axum::response::sse::Event> {
    use axum::response::sse::Event as Sse;
    match event {
        Event::Submission { id, user_id } if user_id == viewer.id || viewer.is_admin => {
            let row = app.db.submission(id).ok()??.row;
            let (status, class, fin) = status(app, viewer, &row);
            let data = serde_json::json!({ "id": id, "status": status, "class": class, "final": fin });
            Some(Sse::default().event("submission").data(data.to_string()))
        }
        Event::Submission { .. } => None,
        Event::Ranking => Some(Sse::default().event("ranking").data("{}")),
        Event::Announcement => Some(Sse::default().event("announcement").data("{}")),
        Event::Clarification { user_id }
            if user_id.is_none() || user_id == Some(viewer.id) || viewer.is_admin =>
        {
            Some(Sse::default().event("clarification").data("{}"))
        }
        Event::Clarification { .. } => None,
    }
}

async fn events(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> Result<Response, Fail> {
    use futures_util::StreamExt;
    let viewer = signed_in(&id)?.0.clone();
    let stream = tokio_stream::wrappers::BroadcastStream::new(app.live.subscribe()).filter_map(move |e| {
        let message = e.ok().and_then(|e| sse_message(&app, &viewer, e));
        std::future::ready(message.map(Ok::<_, std::convert::Infallible>))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
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
