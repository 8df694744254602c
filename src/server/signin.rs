//! Who may have a password checked now, and when. An argon2id check takes
//! tens of milliseconds and 19 MiB, so checks run a few at a time (one per
//! core), behind a queue; a full queue refuses at once, before any
//! hashing. What is throttled is wrong passwords, counted where they come
//! from, as fail2ban and OWASP's guidance do:
//! - per account name and address (an IPv6 address by its /64): an
//!   attacker's failures slow the attacker, and the account's owner, from
//!   their own address or a new one, still signs in;
//! - per account name alone, with a much higher ceiling (many addresses
//!   guessing one password);
//! - per address alone, with room for a class behind one NAT address
//!   (names made up by the thousand).
//!
//! Each attempt counts as a failure from its admission and is given back
//! when its password is right, so attempts at once cannot pass a ceiling
//! together. The checks of one account name run one at a time, in the
//! order they came, one attempt per address at a time and a few in all: a
//! right password waits behind at most [`ACCOUNT_QUEUE`] others' checks
//! of that name, whoever floods it, and never behind another name's.

use super::connections::address_key;
use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Wrong passwords for one name from one address in a burst...
pub const PAIR_BURST: f64 = 5.0;

/// ...then one every this long.
pub const PAIR_EVERY: Duration = Duration::from_secs(10);

/// Wrong passwords for one name from every address together in a burst...
pub const ACCOUNT_BURST: f64 = 30.0;

/// ...then one every this long.
pub const ACCOUNT_EVERY: Duration = Duration::from_secs(2);

/// Wrong passwords from one address, whatever the names, in a burst (a
/// class of 200 behind one address, each mistyping twice)...
pub const ADDRESS_BURST: f64 = 400.0;

/// ...then one every this long.
pub const ADDRESS_EVERY: Duration = Duration::from_millis(500);

/// Checks of one account name admitted at a time (running or waiting),
/// each from another address.
pub const ACCOUNT_QUEUE: usize = 8;

/// Checks admitted at a time from one address (a class signing in at once).
pub const ADDRESS_QUEUE: usize = 256;

/// The counters forget keys whose count has leaked away after this many
/// admissions, so names made up by an attacker do not pile up.
const PRUNE_EVERY: usize = 4096;

/// Why a check is not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// This name had too many wrong passwords (from this address, or from
    /// all), has a check from this address already, or many checks queued.
    Account,
    /// This address had too many wrong passwords, or has many checks queued.
    Address,
    /// The queue of checks is full.
    Queue,
}

/// A count of failures that leaks one every `every`: a key is admitted
/// while its count is under `burst`. (governor's limiters count every
/// check and give nothing back; this counts failures, given back on
/// success.)
struct Leaky<K> {
    burst: f64,
    every: Duration,
    counts: HashMap<K, (f64, Instant)>,
}

impl<K: Hash + Eq> Leaky<K> {
    fn new(burst: f64, every: Duration) -> Leaky<K> {
        Leaky {
            burst,
            every,
            counts: HashMap::new(),
        }
    }

    fn level(&self, key: &K, now: Instant) -> f64 {
        self.counts.get(key).map_or(0.0, |&(n, at)| {
            (n - now.saturating_duration_since(at).as_secs_f64() / self.every.as_secs_f64()).max(0.0)
        })
    }

    fn allows(&self, key: &K, now: Instant) -> bool {
        self.level(key, now) + 1.0 <= self.burst
    }

    fn add(&mut self, key: K, n: f64, now: Instant) {
        let level = (self.level(&key, now) + n).max(0.0);
        self.counts.insert(key, (level, now));
    }

    fn prune(&mut self, now: Instant) {
        let every = self.every.as_secs_f64();
        self.counts
            .retain(|_, &mut (n, at)| n > now.saturating_duration_since(at).as_secs_f64() / every);
    }
}

/// One account name's checks: run one at a time, in order, each from
/// another address.
struct AccountQueue {
    turn: Arc<tokio::sync::Mutex<()>>,
    addresses: Vec<IpAddr>,
}

struct State {
    queued: usize,
    by_address: HashMap<IpAddr, usize>,
    accounts: HashMap<String, AccountQueue>,
    pair: Leaky<(String, IpAddr)>,
    account: Leaky<String>,
    address: Leaky<IpAddr>,
    asked: usize,
}

/// The admission of password checks.
pub struct Admission {
    checks: Arc<Semaphore>,
    queue_cap: usize,
    state: Arc<Mutex<State>>,
}

/// An admitted check: its places are given back when dropped.
pub struct Ticket {
    state: Arc<Mutex<State>>,
    checks: Arc<Semaphore>,
    turn: Arc<tokio::sync::Mutex<()>>,
    account: String,
    address: IpAddr,
    /// The check ran and its outcome was counted.
    counted: Arc<std::sync::atomic::AtomicBool>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|p| p.into_inner())
}

impl State {
    /// Gives back the failure counted at admission (a right password, or
    /// a check that never ran).
    fn give_back(&mut self, account: &str, address: IpAddr) {
        let now = Instant::now();
        self.pair.add((account.to_string(), address), -1.0, now);
        self.account.add(account.to_string(), -1.0, now);
        self.address.add(address, -1.0, now);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = lock(&self.state);
        if !self.counted.load(std::sync::atomic::Ordering::SeqCst) {
            state.give_back(&self.account, self.address);
        }
        state.queued -= 1;
        if let Some(n) = state.by_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                state.by_address.remove(&self.address);
            }
        }
        if let Some(q) = state.accounts.get_mut(&self.account) {
            q.addresses.retain(|a| *a != self.address);
            if q.addresses.is_empty() {
                state.accounts.remove(&self.account);
            }
        }
    }
}

impl Admission {
    /// `parallel` checks at a time, `queue_cap` admitted at most in all
    /// (running or waiting).
    pub fn new(parallel: usize, queue_cap: usize) -> Admission {
        Admission {
            checks: Arc::new(Semaphore::new(parallel.max(1))),
            queue_cap: queue_cap.max(parallel.max(1)),
            state: Arc::new(Mutex::new(State {
                queued: 0,
                by_address: HashMap::new(),
                accounts: HashMap::new(),
                pair: Leaky::new(PAIR_BURST, PAIR_EVERY),
                account: Leaky::new(ACCOUNT_BURST, ACCOUNT_EVERY),
                address: Leaky::new(ADDRESS_BURST, ADDRESS_EVERY),
                asked: 0,
            })),
        }
    }

    /// Admits a check of `account` (a name as typed: case and spaces do
    /// not make another account) from `ip`, or says why not, at once.
    pub fn admit(&self, account: &str, ip: IpAddr) -> Result<Ticket, Busy> {
        let account = account.trim().to_lowercase();
        let address = address_key(ip);
        let now = Instant::now();
        let mut state = lock(&self.state);
        let state = &mut *state;
        state.asked += 1;
        if state.asked.is_multiple_of(PRUNE_EVERY) {
            state.pair.prune(now);
            state.account.prune(now);
            state.address.prune(now);
        }
        let queue = state.accounts.get(&account);
        if queue.is_some_and(|q| q.addresses.contains(&address) || q.addresses.len() >= ACCOUNT_QUEUE)
            || !state.pair.allows(&(account.clone(), address), now)
            || !state.account.allows(&account, now)
        {
            return Err(Busy::Account);
        }
        if state.by_address.get(&address).copied().unwrap_or(0) >= ADDRESS_QUEUE
            || !state.address.allows(&address, now)
        {
            return Err(Busy::Address);
        }
        if state.queued >= self.queue_cap {
            return Err(Busy::Queue);
        }
        state.queued += 1;
        *state.by_address.entry(address).or_default() += 1;
        state.pair.add((account.clone(), address), 1.0, now);
        state.account.add(account.clone(), 1.0, now);
        state.address.add(address, 1.0, now);
        let queue = state
            .accounts
            .entry(account.clone())
            .or_insert_with(|| AccountQueue {
                turn: Arc::new(tokio::sync::Mutex::new(())),
                addresses: Vec::new(),
            });
        queue.addresses.push(address);
        Ok(Ticket {
            state: self.state.clone(),
            checks: self.checks.clone(),
            turn: queue.turn.clone(),
            account,
            address,
            counted: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        })
    }

    /// How many keys the counters remember.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        let state = lock(&self.state);
        state.pair.counts.len() + state.account.counts.len() + state.address.counts.len()
    }
}

impl Ticket {
    /// Waits for this name's turn, then a free core, then runs `check`
    /// off the async threads; `right` tells a right password, whose
    /// failure counted at admission is given back (also where this
    /// future is dropped once the check has started).
    pub async fn run<T: Send + 'static>(
        self,
        check: impl FnOnce() -> T + Send + 'static,
        right: impl FnOnce(&T) -> bool + Send + 'static,
    ) -> Option<T> {
        let _turn = self.turn.clone().lock_owned().await;
        let _permit = self.checks.clone().acquire_owned().await.ok()?;
        let (state, counted) = (self.state.clone(), self.counted.clone());
        let (account, address) = (self.account.clone(), self.address);
        tokio::task::spawn_blocking(move || {
            let outcome = check();
            let mut state = lock(&state);
            counted.store(true, std::sync::atomic::Ordering::SeqCst);
            if right(&outcome) {
                state.give_back(&account, address);
            }
            outcome
        })
        .await
        .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    /// Runs an admitted check that fails (a wrong password) or succeeds.
    fn check(ticket: Ticket, right: bool) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(ticket.run(move || right, |r| *r));
    }

    #[test]
    fn one_check_per_account_and_address_at_a_time_and_a_bounded_queue() {
        let a = Admission::new(1, 3);
        let t1 = a.admit("admin", ip("10.0.0.1")).unwrap();
        assert_eq!(a.admit(" ADMIN ", ip("10.0.0.1")).err(), Some(Busy::Account));
        let _t2 = a.admit("admin", ip("10.0.0.2")).unwrap();
        let _t3 = a.admit("bob", ip("10.0.0.1")).unwrap();
        assert_eq!(a.admit("carol", ip("10.0.0.3")).err(), Some(Busy::Queue));
        drop(t1);
        assert!(
            a.admit("carol", ip("10.0.0.3")).is_ok(),
            "a finished check frees its place"
        );
    }

    #[test]
    fn an_attackers_failures_slow_the_attacker_not_the_owner() {
        let a = Admission::new(1, 100);
        for _ in 0..PAIR_BURST as usize {
            check(a.admit("admin", ip("10.0.0.66")).unwrap(), false);
        }
        assert_eq!(a.admit("admin", ip("10.0.0.66")).err(), Some(Busy::Account));
        assert_eq!(
            a.admit("admin", ip("2001:db8::1")).map(|t| check(t, true)).err(),
            None,
            "the owner from another address"
        );
        for _ in 0..10 {
            check(a.admit("admin", ip("10.0.0.7")).unwrap(), true);
        }
        assert!(
            a.admit("admin", ip("10.0.0.7")).is_ok(),
            "right passwords count nothing"
        );
    }

    #[test]
    fn an_ipv6_64_is_one_address_and_an_account_has_a_higher_ceiling() {
        let a = Admission::new(1, 1000);
        for i in 0..PAIR_BURST as u16 {
            check(
                a.admit("alice", ip(&format!("2001:db8:0:1::{i:x}"))).unwrap(),
                false,
            );
        }
        assert_eq!(
            a.admit("alice", ip("2001:db8:0:1::ff")).err(),
            Some(Busy::Account),
            "the same /64"
        );
        let mut from = 0u16;
        while a
            .admit("alice", ip(&format!("2001:db8:{from:x}::1")))
            .map(|t| check(t, false))
            .is_ok()
        {
            from += 1;
        }
        let failures = f64::from(from) + PAIR_BURST;
        assert!(
            (ACCOUNT_BURST..ACCOUNT_BURST + 2.0).contains(&failures),
            "{failures} failures for one name from many addresses"
        );
    }

    #[test]
    fn a_class_behind_one_address_is_admitted_at_once() {
        let a = Admission::new(2, 1024);
        let class: Vec<Ticket> = (0..200)
            .map(|i| a.admit(&format!("student{i}"), ip("192.0.2.1")).unwrap())
            .collect();
        assert_eq!(class.len(), 200);
    }

    #[test]
    fn names_made_up_by_an_attacker_are_forgotten_once_idle() {
        let a = Admission::new(1, 100);
        for i in 0..PRUNE_EVERY * 2 {
            // Right passwords: every count goes back to nothing.
            check(a.admit(&format!("made-up-{i}"), ip("10.0.0.1")).unwrap(), true);
        }
        assert!(a.remembered() < PRUNE_EVERY, "{} keys remembered", a.remembered());
    }
}
