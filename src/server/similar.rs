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
use super::db::{Db, FinalProgram};
use super::http::{Fail, Identity, PageResult, render};
use crate::similarity::{self, Analysis, Lang, Source};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use minijinja::context;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::Notify;

/// How long a view waits for a comparison under way before it answers
/// "being compared" (a class of honest programs is compared well within it).
pub const WAIT: Duration = Duration::from_secs(2);

/// Seconds after which the "being compared" page asks the browser again.
const REFRESH_SECS: u32 = 2;

/// The page's comparisons: at most one running, the last one kept.
#[derive(Default)]
pub struct Analyses {
    state: Mutex<Kept>,
    /// Woken when a comparison ends.
    done: Notify,
}

#[derive(Default)]
struct Kept {
    /// The last comparison finished: the final submissions it covers (their
    /// ids, in order), its number, and it.
    last: Option<(Vec<i64>, u64, Arc<Analysis>)>,
    /// Whether one is running.
    running: bool,
    /// Comparisons started since the server started.
    started: u64,
}

impl Analyses {
    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

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

    /// Reads the final programs and compares them (on this thread), and
    /// keeps the result as `number`, keyed by the submissions it read.
    fn run(&self, db: &Db, number: u64) {
        let compared = std::panic::catch_unwind(|| {
            let finals = db
                .final_programs()
                .map_err(|e| {
                    eprintln!("mayan-judge serve: error: reading the final programs to compare: {e}")
                })
                .ok()?;
            Some((finals.iter().map(|f| f.id).collect(), compare(&finals)))
        });
        let mut kept = self.lock();
        kept.running = false;
        if let Ok(Some((key, a))) = compared {
            kept.last = Some((key, number, Arc::new(a)));
        }
        drop(kept);
        self.done.notify_waiters();
    }
}

/// Every final program read and compared (one thread: the judging keeps
/// the cores).
fn compare(finals: &[FinalProgram]) -> Analysis {
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
    let options = similarity::Options {
        threads: 1,
        ..Default::default()
    };
    similarity::analyse(&sources, &[], &options, &|_, _| {})
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
        if let Some(found) = Analyses::find_or_start(app, &key) {
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
            threshold => analysis.threshold, number,
        },
    )
}
