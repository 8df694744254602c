//! Who may have a password checked now. An argon2id check takes tens of
//! milliseconds and 19 MiB, so checks run a few at a time (one per core),
//! behind a short queue; a full queue refuses at once, before any hashing.
//! Admission is fair between accounts: one check at a time per account
//! name, and a throttle per account name whatever the address, so wrong
//! passwords hammered at one name (from any number of addresses) take one
//! place in the queue at most, and a right sign-in of another account
//! never waits behind them.

use governor::{DefaultKeyedRateLimiter, Quota};
use std::collections::HashSet;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Attempts on one account name in a burst, before the throttle.
pub const ACCOUNT_BURST: u32 = 10;

/// Then one attempt on an account name every this many seconds.
pub const ACCOUNT_EVERY_SECS: u64 = 3;

/// The throttle forgets names whose burst has refilled after this many
/// admissions, so names made up by an attacker do not pile up.
const PRUNE_EVERY: usize = 4096;

/// Why a check is not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// This account name had too many attempts, or has one being checked.
    Account,
    /// The queue of checks is full.
    Queue,
}

/// The admission of password checks.
pub struct Admission {
    checks: Arc<Semaphore>,
    queued: AtomicUsize,
    queue_cap: usize,
    in_flight: Mutex<HashSet<String>>,
    per_account: DefaultKeyedRateLimiter<String>,
    asked: AtomicUsize,
}

/// An admitted check: its account's place is given back when dropped.
pub struct Ticket<'a> {
    admission: &'a Admission,
    account: String,
    _queued: Queued<'a>,
    permit: Option<OwnedSemaphorePermit>,
}

struct Queued<'a>(&'a AtomicUsize);

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.permit.take();
        self.admission
            .in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.account);
    }
}

impl Admission {
    /// `parallel` checks at a time, `queue_cap` admitted at most (running
    /// or waiting).
    pub fn new(parallel: usize, queue_cap: usize) -> Admission {
        let quota = Quota::with_period(std::time::Duration::from_secs(ACCOUNT_EVERY_SECS))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(ACCOUNT_BURST).unwrap_or(NonZeroU32::MIN));
        Admission {
            checks: Arc::new(Semaphore::new(parallel.max(1))),
            queued: AtomicUsize::new(0),
            queue_cap: queue_cap.max(parallel.max(1)),
            in_flight: Mutex::new(HashSet::new()),
            per_account: DefaultKeyedRateLimiter::keyed(quota),
            asked: AtomicUsize::new(0),
        }
    }

    /// Admits a check of `account` (a name as typed: case and spaces do
    /// not make another account), or says why not, at once.
    pub fn admit(&self, account: &str) -> Result<Ticket<'_>, Busy> {
        let account = account.trim().to_lowercase();
        self.forget_idle_names();
        {
            let mut in_flight = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
            if in_flight.contains(&account) {
                return Err(Busy::Account);
            }
            if self.per_account.check_key(&account).is_err() {
                return Err(Busy::Account);
            }
            let before = self.queued.fetch_add(1, Ordering::SeqCst);
            if before >= self.queue_cap {
                self.queued.fetch_sub(1, Ordering::SeqCst);
                return Err(Busy::Queue);
            }
            in_flight.insert(account.clone());
        }
        Ok(Ticket {
            admission: self,
            account,
            _queued: Queued(&self.queued),
            permit: None,
        })
    }
}

impl Admission {
    /// Every `PRUNE_EVERY` admissions, drops the names whose throttle is
    /// back to a full burst (they would be admitted as if never seen).
    fn forget_idle_names(&self) {
        if self.asked.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1 {
            self.per_account.retain_recent();
            self.per_account.shrink_to_fit();
        }
    }

    /// How many account names the throttle remembers.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.per_account.len()
    }
}

impl Ticket<'_> {
    /// Waits for a free core, then runs `check` off the async threads.
    pub async fn run<T: Send + 'static>(mut self, check: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let permit = self.admission.checks.clone().acquire_owned().await.ok()?;
        self.permit = Some(permit);
        tokio::task::spawn_blocking(check).await.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_check_at_a_time_per_account_and_a_bounded_queue() {
        let a = Admission::new(1, 3);
        let t1 = a.admit("admin").unwrap();
        assert_eq!(a.admit(" ADMIN ").err(), Some(Busy::Account));
        let _t2 = a.admit("alice").unwrap();
        let _t3 = a.admit("bob").unwrap();
        assert_eq!(a.admit("carol").err(), Some(Busy::Queue));
        drop(t1);
        assert!(a.admit("carol").is_ok(), "a finished check frees its place");
    }

    #[test]
    fn an_account_is_throttled_after_its_burst_whoever_asks() {
        let a = Admission::new(1, 100);
        for _ in 0..ACCOUNT_BURST {
            drop(a.admit("admin").unwrap());
        }
        assert_eq!(a.admit("admin").err(), Some(Busy::Account));
        assert!(a.admit("alice").is_ok(), "another account is not throttled");
    }

    #[test]
    fn names_made_up_by_an_attacker_are_forgotten_once_idle() {
        // A quota that refills at once stands for names idle for long.
        let mut a = Admission::new(1, 100);
        a.per_account = DefaultKeyedRateLimiter::keyed(Quota::per_second(NonZeroU32::MAX));
        for i in 0..PRUNE_EVERY * 2 {
            drop(a.admit(&format!("made-up-{i}")));
        }
        assert!(
            a.remembered() < PRUNE_EVERY,
            "{} names remembered",
            a.remembered()
        );
    }
}
