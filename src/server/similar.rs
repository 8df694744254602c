//! The teacher's page of copied programs (`/admin/similar`): every
//! contestant's last program compared by `similarity`, the pairs ranked,
//! the groups, and one pair side by side (`/admin/similar/{n}`). Only the
//! `admin` user reaches it (contestants get 403).
//!
//! The comparison (reading, macro expansion, parsing, tiling) runs on a
//! thread of its own, never the web server's, one at a time ([`Analyses`]);
//! the last one is kept, keyed by the final submissions it covers, so a
//! second view is answered from it at once. A view that finds none ready
//! waits for it a little ([`WAIT`]), then answers "being compared" with a
//! `Refresh` header: no request is held while a class is compared, and
//! nobody else (contestants' pages, sign-ins) waits for it.

use super::app::App;
use super::http::{Fail, Identity, PageResult, render};
use crate::similarity::{self, Analysis};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use minijinja::context;
use std::sync::Arc;
use std::time::Duration;

/// How long a view waits for a comparison under way before it answers
/// "being compared" (a class of honest programs is compared well within it).
pub const WAIT: Duration = Duration::from_secs(2);

/// Seconds after which the "being compared" page asks the browser again.
const REFRESH_SECS: u32 = 2;

/// The comparison of the final submissions `key` and its number if it
/// is made; otherwise one of the final programs as they are is started on
/// a thread of its own, unless one is running, and `None`.
fn find_or_start(app: &Arc<App>, key: &[i64]) -> Option<(u64, Arc<Analysis>)> {
    let mut kept = app.similar.lock();
    if let Some((k, number, a)) = &kept.last
        && *k == key
    {
        return Some((*number, a.clone()));
    }
    if !kept.running {
        kept.running = true;
        kept.started += 1;
        let (app, number) = (app.clone(), kept.started);
        let spawned = std::thread::Builder::new()
            .name("similar".into())
            .spawn(move || app.similar.run(&app.db, number));
        if spawned.is_err() {
            kept.running = false;
        }
    }
    None
}

/// The page's routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/admin/similar", get(list))
        .route("/admin/similar/{pair}", get(one))
}

async fn list(state: State<Arc<App>>, id: axum::Extension<Identity>) -> PageResult {
    page(state, id, None).await
}

async fn one(state: State<Arc<App>>, id: axum::Extension<Identity>, Path(n): Path<usize>) -> PageResult {
    page(state, id, Some(n)).await
}

/// The comparison of the final programs as they are now, waiting for it at
/// most [`WAIT`]; with its number.
async fn current(app: &Arc<App>) -> Result<Option<(u64, Arc<Analysis>)>, Fail> {
    let key = app.db.final_program_ids()?;
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let ended = app.similar.done.notified();
        tokio::pin!(ended);
        ended.as_mut().enable();
        if let Some(found) = find_or_start(app, &key) {
            return Ok(Some(found));
        }
        if tokio::time::timeout_at(deadline, ended).await.is_err() {
            return Ok(None);
        }
    }
}

async fn page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    pair: Option<usize>,
) -> PageResult {
    let viewer = super::http::teacher(&id)?;
    let Some((number, analysis)) = current(&app).await? else {
        let page = render(&app, "similar.html", Some(viewer), context! { computing => true })?;
        return Ok(([(header::REFRESH, REFRESH_SECS.to_string())], page).into_response());
    };
    let name = |i: usize| analysis.programs[i].name.clone();
    let pairs: Vec<_> = analysis
        .pairs
        .iter()
        .take(100)
        .map(|p| {
            context! {
                a => name(p.a), b => name(p.b), similarity => format!("{:.1}%", p.similarity * 100.0),
                share_a => format!("{:.0}%", p.share_a * 100.0), share_b => format!("{:.0}%", p.share_b * 100.0),
                flagged => p.similarity >= analysis.threshold,
            }
        })
        .collect();
    let groups: Vec<String> = analysis
        .groups
        .iter()
        .map(|g| g.iter().map(|&i| name(i)).collect::<Vec<_>>().join(", "))
        .collect();
    let not_compared: Vec<_> = analysis
        .not_compared
        .iter()
        .map(|n| context! { name => n.name.clone(), line => n.too_deep_at })
        .collect();
    let shown = match pair {
        Some(n) => Some(similarity::render::pair_html(
            &analysis,
            analysis.pairs.get(n).ok_or(Fail::NotFound)?,
        )),
        None => None,
    };
    render(
        &app,
        "similar.html",
        Some(viewer),
        context! {
            programs => analysis.programs.len(), pairs, groups, shown,
            threshold => format!("{:.0}%", analysis.threshold * 100.0), number, not_compared,
            limit => similarity::tokens::MAX_DEPTH, rule => rule(&analysis),
        },
    )
}

/// Which rule set the threshold, and the class's distribution it was taken
/// from, for the page's words (`similar-rule-*`, `similar-over-*`).
fn rule(analysis: &similarity::Analysis) -> minijinja::Value {
    use similarity::{Over, Rule};
    let b = &analysis.baseline;
    let key = match b.rule {
        Rule::Class => "similar-rule-class",
        Rule::Floor => "similar-rule-floor",
        Rule::Ceiling => "similar-rule-ceiling",
        Rule::Fixed => "similar-rule-fixed",
        Rule::SmallClass => "similar-rule-small-class",
    };
    let over = match b.over {
        Over::EveryPair => "similar-over-every-pair",
        Over::SharingPairs => "similar-over-sharing-pairs",
    };
    context! {
        key, over, threshold => format!("{:.3}", analysis.threshold),
        median => format!("{:.3}", b.median), spread => format!("{:.3}", b.spread),
        pairs => b.pairs, spreads => b.spreads, min => similarity::MIN_CLASS,
        small => b.rule == Rule::SmallClass,
    }
}
