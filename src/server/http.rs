//! What every page and the API share over HTTP: who is asking
//! (`identify`: session cookie, or an API token for `/api`, then the rate
//! limit of that user or of the address), why a page cannot be shown
//! ([`Fail`], rendered with its status), rendering a template with what
//! every page shows, CSRF checks, cookies, and the client's address; the
//! language of the page (`choose_locale`: the person's choice in a cookie,
//! else the contest's, else the browser's `Accept-Language`, else English),
//! held for the request so that `render` and `Fail` speak it.

use super::actions::Refusal;
use super::app::App;
use super::auth;
use super::db::{DbError, SubmissionRow, User};
use crate::i18n::{Arg, Locale};
use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html as HtmlBody, IntoResponse, Redirect, Response};
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
    /// The server is busy: try again soon.
    Busy(String),
}

impl From<DbError> for Fail {
    fn from(e: DbError) -> Fail {
        eprintln!("mayan-judge serve: error: {e}");
        Fail::Storage(e.to_string())
    }
}

impl From<Refusal> for Fail {
    fn from(r: Refusal) -> Fail {
        match r {
            Refusal::Forbidden(m) => Fail::Forbidden(m),
            Refusal::NotFound => Fail::NotFound,
            Refusal::Bad(m) => Fail::Bad(m),
            Refusal::TooMany(m) => Fail::TooMany(m),
            Refusal::TooLarge(m) => Fail::TooLarge(m),
            Refusal::Busy(m) => Fail::Busy(m),
            Refusal::Storage(e) => e.into(),
        }
    }
}

impl Fail {
    /// The HTTP status and the message (in the request's language where
    /// the judge words it).
    pub fn parts(&self) -> (StatusCode, String) {
        let l = locale();
        match self {
            Fail::SignIn => (StatusCode::UNAUTHORIZED, l.t("fail-sign-in")),
            Fail::Forbidden(m) => (StatusCode::FORBIDDEN, m.clone()),
            Fail::NotFound => (StatusCode::NOT_FOUND, l.t("fail-not-found")),
            Fail::Bad(m) => (StatusCode::BAD_REQUEST, m.clone()),
            Fail::TooMany(m) => (StatusCode::TOO_MANY_REQUESTS, m.clone()),
            Fail::TooLarge(m) => (StatusCode::PAYLOAD_TOO_LARGE, m.clone()),
            Fail::Busy(m) => (StatusCode::SERVICE_UNAVAILABLE, m.clone()),
            Fail::Storage(m) => (
                StatusCode::SERVICE_UNAVAILABLE,
                l.text("fail-storage", &[("error", Arg::from(m.as_str()))]),
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
        let l = locale();
        let heading = l.t(&format!("status-{}", status.as_u16()));
        let body = super::templates::environment()
            .get_template("error.html")
            .and_then(|t| {
                let page = context! {
                    contest => context! { title => "mayan-judge" },
                    heading,
                    message,
                };
                t.render(context! { ..page, ..page_language(l) })
            })
            .unwrap_or_else(|_| "error".into());
        (status, HtmlBody(body)).into_response()
    }
}

/// A page's result.
pub type PageResult = Result<Response, Fail>;

/// An API error as JSON: `{"error": message}`.
pub fn json_error(status: StatusCode, message: &str) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

/// The client's address: the connection's, or behind a proxy the last
/// address it appended to `X-Forwarded-For`.
pub fn client_ip(app: &App, headers: &HeaderMap, peer: SocketAddr) -> IpAddr {
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
pub async fn identify(
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
        return if api {
            json_error(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many requests: wait a few seconds.",
            )
        } else {
            Fail::TooMany(locale().t("fail-too-many-requests")).into_response()
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

/// The signed-in teacher, or why not.
pub fn teacher(identity: &Identity) -> Result<(&User, &str), Fail> {
    let (user, csrf) = signed_in(identity)?;
    if !user.is_admin {
        return Err(Fail::Forbidden(locale().t("fail-teacher-only")));
    }
    Ok((user, csrf))
}

/// Checks a form's CSRF token against the session's.
pub fn check_csrf(session_csrf: &str, sent: Option<&str>) -> Result<(), Fail> {
    match sent {
        Some(s) if !session_csrf.is_empty() && auth::same_secret(s, session_csrf) => Ok(()),
        _ => Err(Fail::Forbidden(locale().t("fail-form-expired"))),
    }
}

/// A form with only its CSRF token.
#[derive(serde::Deserialize)]
pub struct CsrfForm {
    /// The token.
    pub csrf: Option<String>,
}

/// A cookie: HttpOnly, SameSite=Strict, Secure over HTTPS; it lasts as
/// long as the browser runs (the server expires sessions itself).
pub fn cookie(app: &App, name: &'static str, value: String) -> Cookie<'static> {
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(app.secure_cookies)
        .path("/")
        .build()
}

/// The cookie that holds a person's choice of language (a tag).
pub const LANG_COOKIE: &str = "lang";

/// What a request's pages need to know of it, held while it is served.
#[derive(Clone)]
struct Here {
    locale: Locale,
    /// The path asked for (and its query), for the language switch's way back.
    path: String,
}

tokio::task_local! {
    static HERE: Here;
}

/// The language of the request being served (English outside one).
pub fn locale() -> Locale {
    HERE.try_with(|h| h.locale).unwrap_or_default()
}

/// The path of the request being served (`/` outside one).
fn here_path() -> String {
    HERE.try_with(|h| h.path.clone()).unwrap_or_else(|_| "/".into())
}

/// The language of a request: the person's choice (the `lang` cookie),
/// else the contest's, else the browser's first language the judge speaks
/// (`Accept-Language`), else English.
pub fn request_locale(app: &App, jar: &CookieJar, headers: &HeaderMap) -> Locale {
    let chosen = jar.get(LANG_COOKIE).and_then(|c| Locale::parse(c.value()));
    let browser = || {
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .and_then(Locale::from_accept_language)
    };
    chosen
        .or(app.contest.language)
        .or_else(browser)
        .unwrap_or_default()
}

/// Chooses the request's language ([`request_locale`]) and serves it in
/// that language.
pub async fn choose_locale(
    State(app): State<Arc<App>>,
    jar: CookieJar,
    request: Request,
    next: Next,
) -> Response {
    let here = Here {
        locale: request_locale(&app, &jar, request.headers()),
        path: request
            .uri()
            .path_and_query()
            .map_or_else(|| "/".into(), |p| p.as_str().to_string()),
    };
    let mut response = HERE.scope(here.clone(), next.run(request)).await;
    // A page differs by the cookie and the header: no cache may mix them.
    response.headers_mut().append(
        header::VARY,
        header::HeaderValue::from_static("Accept-Language, Cookie"),
    );
    response
}

/// What every page says of its language: `lang` (its tag, for `<html
/// lang>` and `t()`), and the switch (`languages`: each other language's
/// tag and name; `here`: the path to come back to).
fn page_language(l: Locale) -> minijinja::Value {
    let languages: Vec<(&str, String)> = Locale::all()
        .filter(|&o| o != l)
        .map(|o| (o.tag(), o.name()))
        .collect();
    context! { lang => l.tag(), languages, here => here_path() }
}

/// Renders a template with what every page shows (the contest, the
/// viewer, the clock, the language and its switch).
pub fn render(app: &App, name: &str, viewer: Option<(&User, &str)>, page: minijinja::Value) -> PageResult {
    let (user, csrf) = viewer.map_or((None, ""), |(u, c)| (Some(u), c));
    let l = locale();
    let frame = context! {
        contest => context! { title => &app.contest.title },
        problem => problem_context(app),
        user => minijinja::Value::from(minijinja::value::Serde(user)),
        csrf,
        clock => clock(app, l),
        zone => app.contest.zone(),
    };
    let ctx = context! { ..frame, ..page, ..page_language(l) };
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
fn clock(app: &App, l: Locale) -> String {
    use super::contest::Window;
    let now = super::now();
    let left = |secs: i64| [("left", Arg::from(duration(secs)))];
    match app.contest.window {
        Window::Open => l.t("clock-open"),
        Window::Timed { start, .. } if now < start => l.text("clock-starts", &left(start - now)),
        Window::Timed { end, .. } if now < end && app.contest.window.frozen(now) => {
            l.text("clock-ends-frozen", &left(end - now))
        }
        Window::Timed { end, .. } if now < end => l.text("clock-ends", &left(end - now)),
        Window::Timed { .. } => l.t("clock-over"),
    }
}

fn duration(secs: i64) -> String {
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Unix seconds in the contest's time zone, as the request's language
/// writes a date: `YYYY-MM-DD hh:mm:ss UTC+08:00`, `2026年12月1日 09:00:00
/// UTC+08:00`.
pub fn when(app: &App, secs: i64) -> String {
    let l = locale();
    if l.is_english() {
        return app.contest.local_time(secs);
    }
    match time::OffsetDateTime::from_unix_timestamp(secs) {
        Ok(t) => format!(
            "{} {}",
            crate::i18n::date_time(l, t.to_offset(app.contest.utc_offset)),
            app.contest.zone()
        ),
        Err(_) => app.contest.local_time(secs),
    }
}

/// A submission row as lists show it: status text and class, by what the
/// viewer may see.
pub fn row_context(app: &App, viewer: &User, s: &SubmissionRow) -> minijinja::Value {
    let (status, class, fin) = super::actions::status(app, viewer, s);
    let shown = app.shown(viewer);
    let done = s.state == "done";
    context! {
        id => s.id, user => &s.user, language => &s.language, file_name => &s.file_name,
        when => when(app, s.submitted), status, class, final => fin, judgings => s.judgings,
        score => if done && shown.score { s.score.map(|x| format!("{x}/{}", s.max_score.unwrap_or(0))) } else { None },
        time => if done && shown.time { s.time_ms.map(|t| format!("{t} ms")) } else { None },
    }
}
