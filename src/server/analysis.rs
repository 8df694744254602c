//! The teacher's analysis page (`/admin/analysis`): where the class fails
//! (`report::analysis`, a pure function of the stored results, drawn by
//! `report::analysis_section`, the same section as the contest's HTML
//! report). The section is read, computed and drawn once per state of the
//! results, off the web server's threads: kept by the count of the results'
//! changes (`Live::results`: a verdict, a rejudge, a counterexample), so a
//! class and its 20,000 submissions is read again only when something
//! changed, and a read of an unchanged page costs no query; reads that
//! miss at the same time (the teacher's tabs after a verdict) wait for
//! one computation (`cached::Cached`).

use super::app::App;
use super::db::{Db, DbResult};
use super::http::{Fail, Identity, PageResult, locale, render};
use crate::report::analysis::{Final, Input, Judged, analyse};
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use minijinja::context;
use std::sync::Arc;

/// The page's routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/admin/analysis", get(page))
}

/// The analysis of the results as stored now, drawn in `l` (computed
/// again only when they changed).
fn current(app: &App, l: crate::i18n::Locale) -> DbResult<Arc<String>> {
    let key = (app.live.results(), l);
    app.analysis.get_or(key, || {
        Ok(crate::report::analysis_section(
            &analyse(&input(app, &app.db)?),
            l,
            app.contest.utc_offset,
        ))
    })
}

/// The stored results as the analysis reads them: contestants only (the
/// teacher's own submissions are not the class's).
fn input(app: &App, db: &Db) -> DbResult<Input> {
    let admins: Vec<i64> = db.users()?.iter().filter(|u| u.is_admin).map(|u| u.id).collect();
    let judged = db
        .judged_rows()?
        .into_iter()
        .filter(|r| !admins.contains(&r.user_id))
        .map(|r| Judged {
            contestant: r.user,
            submitted: r.submitted,
            verdict: r.verdict.unwrap_or_default(),
        })
        .collect();
    // Each contestant's counted submission, as the ranking counts it (IOI:
    // the best).
    let best = app.contest.scoring == super::contest::Scoring::Ioi;
    let finals = db
        .counted_reports(best)?
        .into_iter()
        .filter(|(r, _)| !admins.contains(&r.user_id))
        .map(|(r, json)| Final {
            score: r.score.unwrap_or(0).max(0) as u32,
            tests: super::actions::load_report(&json)
                .map(|rep| rep.tests)
                .unwrap_or_default(),
        })
        .collect();
    let counterexamples = db
        .counterexamples()?
        .into_iter()
        .filter(|(_, user, _)| !admins.contains(user))
        .filter_map(|(_, _, json)| serde_json::from_str::<crate::judge::grading::Counterexample>(&json).ok())
        .map(|c| (c.result.verdict, c.reason().cloned()))
        .collect();
    Ok(Input {
        tests: app
            .problem
            .tests
            .iter()
            .cloned()
            .zip(app.problem.test_groups.iter().cloned())
            .collect(),
        max_score: app.problem.max_score,
        judged,
        finals,
        counterexamples,
    })
}

async fn page(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> PageResult {
    let viewer = super::http::teacher(&id)?;
    // Read, computed and drawn off the web server's threads: a class's
    // reports are megabytes of JSON.
    let (l, shared) = (locale(), app.clone());
    let section = tokio::task::spawn_blocking(move || current(&shared, l))
        .await
        .map_err(|e| Fail::Storage(e.to_string()))??;
    render(
        &app,
        "analysis.html",
        Some(viewer),
        context! { section => section.as_str() },
    )
}
