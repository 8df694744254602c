//! The teacher's comparisons of copied programs, kept: at most one running
//! (on a thread of its own), the last one kept by the final submissions it
//! covers. Below `app`, which holds them; `similar` (the page) starts them.

use super::db::{Db, FinalProgram};
use crate::similarity::{self, Analysis, Lang, NotCompared, Source};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::Notify;

/// The page's comparisons: at most one running, the last one kept.
#[derive(Default)]
pub struct Analyses {
    state: Mutex<Kept>,
    /// Woken when a comparison ends.
    pub done: Notify,
}

/// What is kept: the last comparison, and whether one runs.
#[derive(Default)]
pub struct Kept {
    /// The last comparison finished: the final submissions it covers (their
    /// ids, in order), its number, and it.
    pub last: Option<(Vec<i64>, u64, Arc<Analysis>)>,
    /// Whether one is running.
    pub running: bool,
    /// Comparisons started since the server started.
    pub started: u64,
}

impl Analyses {
    /// The kept state (a poisoned lock's too: it holds plain data).
    pub fn lock(&self) -> MutexGuard<'_, Kept> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads the final programs and compares them (on this thread), and
    /// keeps the result as `number`, keyed by the submissions it read.
    pub fn run(&self, db: &Db, number: u64) {
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
/// the cores); one that cannot be parsed (too deep to compare) is named in
/// the analysis's `not_compared`, the rest compared.
fn compare(finals: &[FinalProgram]) -> Analysis {
    let mut sources = Vec::new();
    let mut not_compared = Vec::new();
    for f in finals {
        let Some(lang) = f
            .file_name
            .rsplit_once('.')
            .and_then(|(_, ext)| Lang::from_extension(ext))
        else {
            continue;
        };
        let Ok(text) = String::from_utf8(f.source.clone()) else {
            continue;
        };
        match Source::parse(&f.user, &f.file_name, lang, text, false) {
            Ok(source) => sources.push(source),
            Err(e) => not_compared.push(NotCompared {
                name: f.user.clone(),
                why: format!("{}: {e}", f.file_name),
                too_deep_at: e.too_deep_at(),
            }),
        }
    }
    let options = similarity::Options {
        threads: 1,
        ..Default::default()
    };
    let mut analysis = similarity::analyse(&sources, &[], &options, &|_, _| {});
    analysis.not_compared = not_compared;
    analysis
}
