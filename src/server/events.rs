//! What changes while the server runs, as it happens: the live status of
//! submissions being judged (kept in memory: it is worth nothing after a
//! restart) and the events pushed to browsers (server-sent events) and
//! long-polling clients.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::broadcast;

/// Something changed; pages listening refresh what it concerns.
#[derive(Clone, Debug)]
pub enum Event {
    /// A submission's status changed.
    Submission {
        /// The submission.
        id: i64,
        /// Its contestant (only they, and the teacher, hear of it).
        user_id: i64,
    },
    /// The search for a failing submission's counterexample ended (found
    /// one or not).
    Counterexample {
        /// The submission.
        id: i64,
        /// Its contestant (only they, and the teacher, hear of it).
        user_id: i64,
    },
    /// A submission was judged: the ranking may have changed.
    Ranking,
    /// A new announcement.
    Announcement,
    /// A clarification was answered (to one contestant, or to all).
    Clarification {
        /// The asker, or `None` when everybody may read it.
        user_id: Option<i64>,
    },
    /// Sessions of a user ended (signed out, signed out everywhere, a new
    /// password): their event streams check theirs and end with it.
    Sessions {
        /// The user.
        user_id: i64,
    },
}

/// The live status of submissions being judged, the event channel, and
/// how many times the stored results changed since the start.
pub struct Live {
    status: Mutex<HashMap<i64, String>>,
    events: broadcast::Sender<Event>,
    results: AtomicU64,
    rankings: AtomicU64,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            status: Mutex::new(HashMap::new()),
            events: broadcast::channel(1024).0,
            results: AtomicU64::new(0),
            rankings: AtomicU64::new(0),
        }
    }
}

impl Live {
    /// Sets a submission's live status (`compiling`, `running test 3 of 10`)
    /// and tells its listeners.
    pub fn set(&self, id: i64, user_id: i64, status: String) {
        self.status
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, status);
        self.send(Event::Submission { id, user_id });
    }

    /// Forgets a submission's live status (it is judged: the database has it).
    pub fn clear(&self, id: i64) {
        self.status.lock().unwrap_or_else(|p| p.into_inner()).remove(&id);
    }

    /// A submission's live status, while it is being judged.
    pub fn status(&self, id: i64) -> Option<String> {
        self.status
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
            .cloned()
    }

    /// Sends an event to every listener (none listening is fine); a
    /// `Ranking` or `Counterexample` event (sent once the change is stored)
    /// counts a change of the results.
    pub fn send(&self, event: Event) {
        if matches!(event, Event::Ranking | Event::Counterexample { .. }) {
            self.results.fetch_add(1, Ordering::SeqCst);
        }
        if matches!(event, Event::Ranking) {
            self.rankings.fetch_add(1, Ordering::SeqCst);
        }
        let _ = self.events.send(event);
    }

    /// How many times the stored results changed since the start (a
    /// verdict, a rejudge, a disqualification, a counterexample searched):
    /// what the teacher's analysis is kept by.
    pub fn results(&self) -> u64 {
        self.results.load(Ordering::SeqCst)
    }

    /// How many times the ranking changed since the start (a verdict, a
    /// rejudge, a disqualification, the contestants): each `ranking` event
    /// carries it, so that a listener counts the changes one event
    /// coalesces.
    pub fn ranking_changes(&self) -> u64 {
        self.rankings.load(Ordering::SeqCst)
    }

    /// A new listener.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }
}
