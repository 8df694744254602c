//! The teacher's page of copied programs (`/admin/similar`): every
//! contestant's last program compared by `similarity`, the pairs ranked,
//! the groups, and one pair side by side (`/admin/similar/{n}`). Only the
//! `admin` user reaches it (contestants get 403).

use super::app::App;
use super::http::{Fail, Identity, PageResult, render};
use crate::similarity::{self, Lang, Source};
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use minijinja::context;
use std::sync::Arc;

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

async fn page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    pair: Option<usize>,
) -> PageResult {
    let viewer = super::http::teacher(&id)?;
    let finals = app.db.final_programs()?;
    let sources: Vec<Source> = finals
        .iter()
        .filter_map(|f| {
            let lang = f
                .file_name
                .rsplit_once('.')
                .and_then(|(_, ext)| Lang::from_extension(ext))?;
            let text = String::from_utf8(f.source.clone()).ok()?;
            Source::parse(&f.user, &f.file_name, lang, text, false).ok()
        })
        .collect();
    let analysis = tokio::task::spawn_blocking(move || {
        similarity::analyse(&sources, &[], &similarity::Options::default(), &|_, _| {})
    })
    .await
    .map_err(|e| Fail::Bad(format!("comparing the programs: {e}")))?;
    let name = |i: usize| analysis.programs[i].name.clone();
    let pairs: Vec<_> = analysis
        .pairs
        .iter()
        .take(100)
        .map(|p| {
            context! {
                a => name(p.a), b => name(p.b), similarity => format!("{:.3}", p.similarity),
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
            programs => analysis.programs.len(), pairs, groups, shown, style => similarity::render::STYLE,
            threshold => analysis.threshold,
        },
    )
}
