//! What every page and the API share over HTTP: who is asking
//! (`identify`: session cookie, or an API token for `/api`, then the rate
//! limit of that user or of the address), why a page cannot be shown
//! ([`Fail`], rendered with its status), rendering a template with what
//! every page shows, CSRF checks, cookies, and the client's address; the
//! language of the page (`choose_locale`: the person's choice in a cookie,
//! else the contest's, else the browser's `Accept-Language`, else English),
//! held for the request (`language`) so that `render` and `Fail` speak it.

use super::actions::Refusal;
use super::app::App;
use super::auth;
use super::db::{DbError, SubmissionRow, User};
use super::language::here_path;
pub use super::language::{LANG_COOKIE, choose_locale, locale};
use crate::i18n::{Arg, Locale};
use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html as HtmlBody, IntoResponse, Redirect, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use minijinja::context;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// Who is asking, resolved once per request by [`identify`].
#[derive(Clone)]
pub struct Identity {
    /// The signed-in user and the session's CSRF token (empty for an API
    /// token: the API takes no cookies, so needs no CSRF token).
    pub viewer: Option<(User, String)>,
    /// The client's address ([`client_ip`]).
    pub address: IpAddr,
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
/// the API), counts the connection against that account (`connections`:
/// connections and `/events` streams per account), applies the rate
/// limit of that user or, signed out, of the address (a sign-in is
/// admitted by `signin` instead: throttled per account and address), and
/// hands the identity to the handlers.
pub async fn identify(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    jar: CookieJar,
    mut request: Request,
    next: Next,
) -> Response {
    // Not cheap to drop while it is answered (connections.rs).
    let _in_hand = app.gate.request(peer);
    let api = request.uri().path().starts_with("/api/");
    // The API answers in English; a page in the viewer's language.
    let refuse = |id: &str| {
        if api {
            json_error(StatusCode::TOO_MANY_REQUESTS, &Locale::english().t(id))
        } else {
            Fail::TooMany(locale().t(id)).into_response()
        }
    };
    let address = client_ip(&app, request.headers(), peer);
    let identity = match resolve(&app, &jar, request.headers(), api, address) {
        Ok(i) => i,
        Err(e) => return e.into_response(),
    };
    let account = identity.viewer.as_ref().map(|(u, _)| u.id);
    if app.gate.identify(peer, account).is_err() {
        let mut answer = refuse("fail-too-many-connections");
        answer
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return answer;
    }
    let allowed = match account {
        Some(id) => app.allow_user(id),
        None => is_sign_in(&request) || app.allow_address(address),
    };
    if !allowed {
        return refuse("fail-too-many-requests");
    }
    let stream = match account.filter(|_| request.uri().path() == "/events") {
        Some(id) => match app.gate.stream(id) {
            Ok(slot) => Some(slot),
            Err(_) => {
                return refuse("fail-too-many-streams");
            }
        },
        None => None,
    };
    request.extensions_mut().insert(identity);
    let response = next.run(request).await;
    match stream {
        Some(slot) => held_while_streaming(response, slot),
        None => response,
    }
}

/// A sign-in: a password checked, admitted by `signin` (per account and
/// address), not by the rate of signed-out requests, so a class behind
/// one address signs in at once.
fn is_sign_in(request: &Request) -> bool {
    request.method() == axum::http::Method::POST && matches!(request.uri().path(), "/login" | "/api/v1/token")
}

/// The response, its body holding `held` until it ends (an `/events`
/// stream counted while it is open).
fn held_while_streaming<T: Send + Sync + 'static>(response: Response, held: T) -> Response {
    use futures_util::StreamExt;
    let (parts, body) = response.into_parts();
    let body = body.into_data_stream().map(move |chunk| {
        let _ = &held;
        chunk
    });
    Response::from_parts(parts, axum::body::Body::from_stream(body))
}

fn resolve(
    app: &App,
    jar: &CookieJar,
    headers: &HeaderMap,
    api: bool,
    address: IpAddr,
) -> Result<Identity, Fail> {
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
        return Ok(Identity { viewer, address });
    }
    let viewer = match jar.get(auth::SESSION_COOKIE) {
        Some(c) => app.db.session(&auth::token_hash(c.value()), super::now())?,
        None => None,
    };
    Ok(Identity { viewer, address })
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
pub fn cookie(app: &App, name: impl Into<std::borrow::Cow<'static, str>>, value: String) -> Cookie<'static> {
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(app.secure_cookies)
        .path("/")
        .build()
}

/// `path` as a redirect's target if it is a path of this site, checked
/// as a browser reads it, after URL parsing: it starts with one `/`, and
/// has no control character or whitespace (browsers drop tabs and new
/// lines: `/\t/evil` is `//evil`), no backslash (read as `/`), so no
/// scheme-relative `//host` and no `scheme:`; `None` otherwise. Every
/// redirect built from what a request says goes through here.
pub fn local_path(path: &str) -> Option<String> {
    let forbidden = |c: char| c.is_control() || c.is_whitespace() || c == '\\';
    let rest = path.strip_prefix('/')?;
    if rest.starts_with('/') || path.chars().any(forbidden) {
        return None;
    }
    let base = url::Url::parse("http://this.site.invalid/").ok()?;
    let parsed = base.join(path).ok()?;
    let same_site =
        parsed.origin() == base.origin() && parsed.username().is_empty() && parsed.password().is_none();
    same_site.then(|| parsed[url::Position::BeforePath..].to_string())
}

/// A device cookie (`name`, `value` from `actions::verify`): kept by the
/// browser for [`auth::DEVICE_SECS`], across sessions.
pub fn device_cookie_of(app: &App, name: String, value: String) -> Cookie<'static> {
    let mut device = cookie(app, name, value);
    device.set_max_age(time::Duration::seconds(auth::DEVICE_SECS));
    device
}

/// What every page says of its language: `lang` (its tag, for `<html
/// lang>` and `t()`), and the switch (`languages`: each other language's
/// tag and name; `here`: the path to come back to).
fn page_language(l: Locale) -> minijinja::Value {
    let languages: Vec<(&str, String)> = Locale::all()
        .filter(|&o| o != l)
        .map(|o| (o.tag(), o.name()))
        .collect();
    context! { lang => l.tag(), switch_languages => languages, here => here_path() }
}

/// Renders a template with what every page shows (the contest, the
/// viewer, the clock, the language and its switch).
pub fn render(app: &App, name: &str, viewer: Option<(&User, &str)>, page: minijinja::Value) -> PageResult {
    let (user, csrf) = viewer.map_or((None, ""), |(u, c)| (Some(u), c));
    let l = locale();
    let frame = context! {
        contest => context! { title => &app.contest.title },
        problem => problem_context(app, l),
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

fn problem_context(app: &App, l: Locale) -> minijinja::Value {
    let p = &app.problem;
    let title = p.title.in_language(l.tag()).unwrap_or(p.title.english());
    context! {
        title => title, tests => &p.tests, max_score => p.max_score, time_ms => p.time_ms,
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

/// Rows on a page of submissions.
pub const PAGE_SIZE: usize = 50;

/// `?before=N`: the page of a list after row N (newest first: the older
/// rows); absent, the newest page.
#[derive(Clone, Copy, Debug, Default, serde::Deserialize)]
pub struct Paging {
    /// The cursor: the last row of the page before.
    pub before: Option<i64>,
}

/// A submission row as lists show it: status text and class, by what the
/// viewer may see.
pub fn row_context(app: &App, viewer: &User, s: &SubmissionRow) -> minijinja::Value {
    let (status, class, fin) = super::actions::status(app, viewer, s);
    let status = status_words(locale(), &status);
    let shown = app.shown(viewer);
    let done = s.state == "done";
    context! {
        id => s.id, user => &s.user, language => &s.language, file_name => &s.file_name,
        when => when(app, s.submitted), status, class, final => fin, judgings => s.judgings,
        score => if done && shown.score { s.score.map(|x| format!("{x}/{}", s.max_score.unwrap_or(0))) } else { None },
        time => if done && shown.time { s.time_ms.map(|t| format!("{t} ms")) } else { None },
    }
}

/// A submission's status (`actions::status`: the API's words) as a page
/// in `l` says it: `WA 答案错误`, `正在评测第 3 个测试点（共 10 个）`;
/// English as it is.
pub fn status_words(l: Locale, status: &str) -> String {
    if l.is_english() {
        return status.to_string();
    }
    let running = || {
        let (k, n) = status.strip_prefix("running test ")?.split_once(" of ")?;
        Some(l.text("status-running", &[("k", Arg::from(k)), ("n", Arg::from(n))]))
    };
    let verdict = || {
        let v: crate::puzzle::verdict::Verdict = serde_json::from_value(status.into()).ok()?;
        let name = crate::report::words::verdict_name(l, v);
        Some(l.text(
            "status-verdict",
            &[("code", Arg::from(status)), ("name", Arg::from(name))],
        ))
    };
    match status {
        "queued" => l.t("status-queued"),
        "judging" => l.t("status-judging"),
        "compiling" => l.t("status-compiling"),
        "judged" => l.t("status-judged"),
        "judged (results at the end)" => l.t("status-judged-later"),
        _ => running().or_else(verdict).unwrap_or_else(|| status.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn only_this_sites_paths_are_redirect_targets() {
        for ok in ["/", "/submissions/3?x=1", "/ranking#top", "/a:b", "/%2F%2Fevil"] {
            assert_eq!(local_path(ok).as_deref(), Some(ok), "{ok}");
        }
        assert_eq!(local_path("/caf\u{e9}").as_deref(), Some("/caf%C3%A9"));
        let refused = [
            "",
            "evil",
            "//evil",
            "/\\evil",
            "/\t/evil",
            "/\t\\evil",
            "/\n/evil",
            " /evil",
            "/ /x",
            "https:evil",
            "https://evil",
            "javascript:alert(1)",
            "\\\\evil",
            "/\u{7f}/evil",
            "/\u{3000}/evil",
            "//",
            "///evil",
        ];
        for bad in refused {
            assert_eq!(local_path(bad), None, "{bad:?}");
        }
    }
}
