//! The web server's top: the router assembled from the contestants' pages
//! (`web`), the teacher's (`admin`) and the API (`api`), with the
//! middleware every request passes (`http::choose_locale`, `http::identify`,
//! body limits, security
//! headers) and the static files; then binding and serving until Ctrl-C or
//! SIGTERM, over HTTPS when a certificate is given, each connection
//! admitted through `connections`' caps.

use super::app::App;
use super::connections::{GateAcceptor, HEADER_READ};
use super::http::{Fail, choose_locale, identify};
use anyhow::{Context, Result};
use axum::Router;
use axum::http::{HeaderValue, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::net::SocketAddr;
use std::sync::Arc;

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
        .merge(super::web::routes())
        .merge(super::admin::routes())
        .merge(super::similar::routes())
        .merge(super::analysis::routes())
        .nest(
            "/api/v1",
            super::api::routes().layer(axum::extract::DefaultBodyLimit::max(json_limit)),
        )
        .fallback(|| async { Fail::NotFound })
        .layer(middleware::from_fn_with_state(app.clone(), identify))
        // The static files, the same for everybody, after `identify`: not
        // counted against an address's rate (a class loads them at once).
        .route("/static/style.css", get(|| async { static_file("text/css", super::templates::STYLE) }))
        .route(
            "/static/similar.css",
            get(|| async { static_file("text/css", crate::similarity::render::VIEW_STYLE) }),
        )
        .route("/static/live.js", get(|| async { static_file("text/javascript", super::templates::SCRIPT) }))
        .route("/favicon.svg", get(|| async { static_file("image/svg+xml", super::templates::FAVICON) }))
        .route("/favicon.ico", get(|| async { static_file("image/svg+xml", super::templates::FAVICON) }))
        .layer(middleware::from_fn_with_state(app.clone(), choose_locale))
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

/// Binds, prints `listening on URL`, and serves until Ctrl-C or SIGTERM.
pub async fn listen(app: Arc<App>) -> Result<()> {
    let router = router(app.clone());
    let make = router.into_make_service_with_connect_info::<SocketAddr>();
    let listener =
        std::net::TcpListener::bind(app.listen).with_context(|| format!("listening on {}", app.listen))?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let scheme = if app.tls.is_some() { "https" } else { "http" };
    if !app.quiet {
        // `listening on URL` is machine-read (scripts wait for it): the
        // same in every language, after the line people read.
        let url = format!("{scheme}://{addr}");
        let l = app.contest.console_language();
        if !l.is_english() {
            println!("{}", l.text("console-serve-open", &[("url", url.clone().into())]));
        }
        println!("listening on {url}");
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let handle = axum_server::Handle::new();
    tokio::spawn(shutdown_on_signal(handle.clone()));
    let limit = GateAcceptor {
        gate: app.gate.clone(),
        answer_503: app.tls.is_none(),
    };
    // One server over either acceptor (plain or TLS: two types).
    macro_rules! serve_with {
        ($acceptor:expr) => {{
            let mut server = axum_server::from_tcp(listener)?.acceptor($acceptor);
            server.http_builder().http1().header_read_timeout(HEADER_READ);
            server
                .first_request_timeout(HEADER_READ)
                .handle(handle)
                .serve(make)
                .await?
        }};
    }
    match &app.tls {
        Some((cert, key)) => {
            let _ = rustls::crypto::ring::default_provider().install_default();
            let config = axum_server::tls_rustls::RustlsConfig::from_pem_file(cert, key)
                .await
                .with_context(|| {
                    format!(
                        "reading the certificate {} and key {}",
                        cert.display(),
                        key.display()
                    )
                })?;
            serve_with!(axum_server::tls_rustls::RustlsAcceptor::new(config).acceptor(limit))
        }
        None => serve_with!(limit),
    }
    Ok(())
}

async fn shutdown_on_signal(handle: axum_server::Handle<SocketAddr>) {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return,
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    handle.graceful_shutdown(Some(std::time::Duration::from_secs(2)));
}
