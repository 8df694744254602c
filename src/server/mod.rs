//! The online judge (`mayan-judge serve`): a front end beside `commands/`
//! over the same `judge` and `report` layers. Contestants sign in, read the
//! statement, submit, and follow their submissions and the ranking live;
//! the teacher rejudges, disqualifies, answers clarifications and downloads
//! reports. Everything lives in one SQLite file (`db`); judging is
//! `queue`'s worker threads on the one judging path; pages are `web` and
//! `admin` (server-rendered, working without JavaScript, live where it
//! runs), the JSON API is `api`.
//!
//! Map, imports pointing up this list only: `contest` (contest.toml),
//! `db` (schema, queries), `auth` (passwords, sessions, tokens, device
//! cookies), `roster` (contestants read again: a plan, then applied),
//! `events` (live status), `standings` (the ranking), `scoreboard` (the
//! ranking kept as verdicts arrive), `queue` (judging), `signin` (admission
//! of password checks), `connections` (caps and timeouts of connections),
//! `templates` → `app` (shared state, start-up, the feedback table, rate
//! limits) → `actions` (sign in, submit, what a viewer may see: no HTTP)
//! → `http` (identity, errors, rendering, CSRF, cookies) → `web`, `admin`,
//! `similar`, `api` (the routes) → `router` (the router assembled, serving).

mod actions;
mod admin;
mod analysis;
mod api;
mod app;
pub mod auth;
mod cached;
mod comparisons;
mod connections;
pub mod contest;
pub mod db;
pub mod events;
mod http;
mod language;
pub mod queue;
pub mod roster;
mod router;
mod scoreboard;
mod signin;
mod similar;
pub mod standings;
mod templates;
mod web;

pub use app::{Options, Rates, sign_in_checks_admitted};

use anyhow::{Context, Result};

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Writes a consistent copy of the database `db` to `copy` (see
/// [`db::backup`]), while a server runs on it or not.
pub fn backup(db: &std::path::Path, copy: &std::path::Path) -> Result<()> {
    Ok(db::backup(db, copy)?)
}

/// What starting on `db` with `contest` would change in the contestants
/// (`serve --dry-run`), in words: nothing is changed.
pub fn contestant_changes(db: &std::path::Path, contest: &contest::ContestConfig) -> Result<String> {
    let existing = if db.exists() {
        db::Db::open(db)
            .with_context(|| format!("opening the database {}", db.display()))?
            .contestants_with_hashes()?
    } else {
        Vec::new()
    };
    let plan = roster::Plan::of(&contest.contestants, &existing);
    let l = contest.console_language();
    let source = contest
        .file
        .as_ref()
        .map_or_else(|| l.t("console-dry-run-no-file"), |f| f.display().to_string());
    let new = if db.exists() {
        String::new()
    } else {
        l.t("console-dry-run-new")
    };
    let args = [
        ("source", crate::i18n::Arg::from(source)),
        ("db", crate::i18n::Arg::from(db.display().to_string())),
        ("new", crate::i18n::Arg::from(new)),
    ];
    Ok(format!(
        "{}\n{}",
        l.text("console-dry-run", &args),
        plan.in_words(l)
    ))
}

/// Runs the server until Ctrl-C or SIGTERM: opens the database, adds the
/// contest's contestants, starts the judging workers, then serves.
pub fn serve(options: Options) -> Result<()> {
    let app = app::App::start(options)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the web server's threads")?;
    let served = runtime.block_on(router::listen(app.clone()));
    // The compile folder goes with a clean stop (a killed server's goes at
    // the next start).
    let _ = std::fs::remove_dir_all(&app.work_dir);
    served
}
