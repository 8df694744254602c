//! The online judge (`mayan-judge serve`): a front end beside `commands/`
//! over the same `judge` and `report` layers. Contestants sign in, read the
//! statement, submit, and follow their submissions and the ranking live;
//! the teacher rejudges, disqualifies, answers clarifications and downloads
//! reports. Everything lives in one SQLite file (`db`); judging is
//! `queue`'s worker threads on the one judging path; pages are `web` and
//! `admin` (server-rendered, working without JavaScript, live where it
//! runs), the JSON API is `api`.
//!
//! Map: `contest` (contest.toml) → `db` (schema, queries) → `auth`
//! (passwords, sessions, tokens) → `queue` (judging) → `events` (live
//! status) → `standings` (the ranking) → `app` (shared state, feedback
//! policy, rate limits) → `web`, `admin`, `api` (routes) → `templates`.

mod admin;
mod api;
mod app;
pub mod auth;
pub mod contest;
pub mod db;
pub mod events;
pub mod queue;
mod similar;
pub mod standings;
mod templates;
mod web;

pub use app::{Options, Rates};

use anyhow::{Context, Result};

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Runs the server until Ctrl-C or SIGTERM: opens the database, adds the
/// contest's contestants, starts the judging workers, then serves.
pub fn serve(options: Options) -> Result<()> {
    let app = app::App::start(options)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the web server's threads")?;
    runtime.block_on(app::listen(app))
}
