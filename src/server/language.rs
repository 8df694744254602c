//! The language of the request being served: chosen once per request
//! (`choose_locale`: the person's choice in the `lang` cookie, else the
//! contest's `language`, else the browser's `Accept-Language`, else
//! English; the API always English) and held while it is served, so that
//! pages, errors and refusals (`actions`) speak it without passing it
//! along.

use super::app::App;
use crate::i18n::Locale;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::Response;
use axum_extra::extract::cookie::CookieJar;
use std::sync::Arc;

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
pub fn here_path() -> String {
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
    // The API speaks English, whatever the browser or the contest.
    let api = request.uri().path().starts_with("/api/");
    let here = Here {
        locale: match api {
            true => Locale::english(),
            false => request_locale(&app, &jar, request.headers()),
        },
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
