//! Who may have a password checked now, and when. An argon2id check takes
//! tens of milliseconds and 19 MiB, so checks run a few at a time (one per
//! core in each of two lanes, below), behind a bounded queue; a full
//! queue refuses at once, before any hashing. What is throttled is wrong
//! passwords, counted where they come from (OWASP's device cookies,
//! "Slow Down Online Guessing Attacks with Device Cookies"):
//! - a sign-in from a known source for that name (a browser carrying a
//!   device cookie signed for it, `auth::DeviceKey`, or an address a
//!   right password for it came from before) is limited by that source's
//!   own failures only, and is checked in a lane of its own, with room
//!   kept in the queue: nobody else's failures or flood hold its owner;
//! - from an unknown source, failures are counted per name and address
//!   (an IPv6 address by its /64), per name from every unknown source
//!   together (many addresses guessing one password: a much higher
//!   ceiling, which locks unknown sources only), and per address whatever
//!   the name (with room for a class behind one NAT address).
//!
//! Each attempt counts as a failure from its admission and is given back
//! when its password is right, so attempts at once cannot pass a ceiling
//! together. From unknown sources, the checks of one name run one at a
//! time, in order, one per address and [`ACCOUNT_QUEUE`] at most; each
//! address has a share of the queue ([`Admission::new`]). From known
//! sources, one check per source at a time, [`ACCOUNT_QUEUE`] per name.

use super::connections::address_key;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Wrong passwords for one name from one source (an address, or a
/// device) in a burst...
pub const PAIR_BURST: f64 = 5.0;

/// ...then one every this long.
pub const PAIR_EVERY: Duration = Duration::from_secs(10);

/// Wrong passwords for one name from every unknown source together in a
/// burst...
pub const ACCOUNT_BURST: f64 = 30.0;

/// ...then one every this long.
pub const ACCOUNT_EVERY: Duration = Duration::from_secs(2);

/// Wrong passwords from one unknown address, whatever the names, in a
/// burst (a class of 200 behind one address, each mistyping twice)...
pub const ADDRESS_BURST: f64 = 400.0;

/// ...then one every this long.
pub const ADDRESS_EVERY: Duration = Duration::from_millis(500);

/// Checks of one name admitted at a time (running or waiting) from
/// unknown sources, each from another address; as many again from known
/// ones, one per source.
pub const ACCOUNT_QUEUE: usize = 8;

/// Pairs of a name and an address a right password came from, remembered
/// (the oldest forgotten first).
const KNOWN_ADDRESSES: usize = 65_536;

/// The counters forget keys whose count has leaked away after this many
/// admissions, so names made up by an attacker do not pile up.
const PRUNE_EVERY: usize = 4096;

/// Why a check is not admitted, and how long until it would be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// Too many wrong passwords for this name from this source (this
    /// browser, or this address).
    Source(Duration),
    /// A check of this name from this source is admitted already.
    Running,
    /// Too many wrong passwords for this name from unknown sources, or
    /// many checks of it queued: a known source is still admitted.
    Account(Duration),
    /// Too many wrong passwords from this address, or its share of the
    /// queue is taken.
    Address(Duration),
    /// The queue of checks is full.
    Queue,
}

/// Where a sign-in comes from, as its failures are counted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A browser with a device cookie for the name (its device id).
    Device(String),
    /// An address (see [`address_key`]).
    Address(IpAddr),
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

    /// `Ok` while `key` is under its burst, else how long until it is.
    fn allows(&self, key: &K, now: Instant) -> Result<(), Duration> {
        let over = self.level(key, now) + 1.0 - self.burst;
        match over > 0.0 {
            true => Err(self.every.mul_f64(over)),
            false => Ok(()),
        }
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

/// The pairs of a name and an address that a right password came from.
#[derive(Default)]
struct KnownAddresses {
    set: HashSet<(String, IpAddr)>,
    order: VecDeque<(String, IpAddr)>,
}

impl KnownAddresses {
    fn contains(&self, account: &str, address: IpAddr) -> bool {
        self.set.contains(&(account.to_string(), address))
    }

    fn insert(&mut self, account: &str, address: IpAddr) {
        let pair = (account.to_string(), address);
        if self.set.insert(pair.clone()) {
            self.order.push_back(pair);
        }
        while self.order.len() > KNOWN_ADDRESSES {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
    }
}

/// One name's checks in the queue: from unknown sources, run one at a
/// time, in order, each from another address; from known ones, by source.
#[derive(Default)]
struct AccountQueue {
    turn: Arc<tokio::sync::Mutex<()>>,
    addresses: Vec<IpAddr>,
    known: Vec<Source>,
}

struct State {
    queued: usize,
    unknown: usize,
    by_address: HashMap<IpAddr, usize>,
    accounts: HashMap<String, AccountQueue>,
    source: Leaky<(String, Source)>,
    account: Leaky<String>,
    address: Leaky<IpAddr>,
    known_addresses: KnownAddresses,
    asked: usize,
}

/// The admission of password checks.
pub struct Admission {
    unknown_checks: Arc<Semaphore>,
    known_checks: Arc<Semaphore>,
    sizes: QueueSizes,
    state: Arc<Mutex<State>>,
}

/// How the queue of checks is shared ([`QueueSizes::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueSizes {
    /// Checks admitted in all, running or waiting.
    pub all: usize,
    /// Of those, from unknown sources at most (the rest is kept for
    /// known ones).
    pub unknown: usize,
    /// Of those, from one address at most.
    pub per_address: usize,
}

impl QueueSizes {
    /// The shares of a queue of `all`: a quarter kept for known sources,
    /// and each address a quarter of the whole, so that three addresses'
    /// floods at least are needed to fill the rest (`all` 1,024: 768
    /// unknown, 256 per address).
    pub fn of(all: usize) -> QueueSizes {
        let all = all.max(4);
        QueueSizes {
            all,
            unknown: all - all / 4,
            per_address: all / 4,
        }
    }
}

/// An admitted check: its places are given back when dropped.
pub struct Ticket {
    state: Arc<Mutex<State>>,
    checks: Arc<Semaphore>,
    turn: Option<Arc<tokio::sync::Mutex<()>>>,
    account: String,
    address: IpAddr,
    source: Source,
    /// The check ran and its outcome was counted.
    counted: Arc<AtomicBool>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|p| p.into_inner())
}

impl State {
    /// Gives back the failure counted at admission (a right password, or
    /// a check that never ran).
    fn give_back(&mut self, account: &str, address: IpAddr, source: &Source, known: bool) {
        let now = Instant::now();
        self.source.add((account.to_string(), source.clone()), -1.0, now);
        if !known {
            self.account.add(account.to_string(), -1.0, now);
            self.address.add(address, -1.0, now);
        }
    }

    fn prune(&mut self, now: Instant) {
        self.asked += 1;
        if self.asked.is_multiple_of(PRUNE_EVERY) {
            self.source.prune(now);
            self.account.prune(now);
            self.address.prune(now);
        }
    }

    /// Why a check of `account` from a known `source` cannot be
    /// admitted now, if it cannot.
    fn refuse_known(
        &self,
        account: &str,
        source: &Source,
        sizes: QueueSizes,
        now: Instant,
    ) -> Result<(), Busy> {
        let queue = self.accounts.get(account);
        if queue.is_some_and(|q| q.known.contains(source)) {
            return Err(Busy::Running);
        }
        if queue.is_some_and(|q| q.known.len() >= ACCOUNT_QUEUE) {
            return Err(Busy::Account(Duration::from_secs(1)));
        }
        self.source
            .allows(&(account.to_string(), source.clone()), now)
            .map_err(Busy::Source)?;
        match self.queued >= sizes.all {
            true => Err(Busy::Queue),
            false => Ok(()),
        }
    }

    /// Why a check of `account` from the unknown `address` cannot be
    /// admitted now, if it cannot.
    fn refuse_unknown(
        &self,
        account: &str,
        address: IpAddr,
        sizes: QueueSizes,
        now: Instant,
    ) -> Result<(), Busy> {
        let queue = self.accounts.get(account);
        if queue.is_some_and(|q| q.addresses.contains(&address)) {
            return Err(Busy::Running);
        }
        if queue.is_some_and(|q| q.addresses.len() >= ACCOUNT_QUEUE) {
            return Err(Busy::Account(Duration::from_secs(1)));
        }
        let source = (account.to_string(), Source::Address(address));
        self.source.allows(&source, now).map_err(Busy::Source)?;
        self.account
            .allows(&account.to_string(), now)
            .map_err(Busy::Account)?;
        self.address.allows(&address, now).map_err(Busy::Address)?;
        if self.by_address.get(&address).copied().unwrap_or(0) >= sizes.per_address {
            return Err(Busy::Address(Duration::from_secs(1)));
        }
        match self.unknown >= sizes.unknown || self.queued >= sizes.all {
            true => Err(Busy::Queue),
            false => Ok(()),
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = lock(&self.state);
        let known = self.turn.is_none();
        if !self.counted.load(Ordering::SeqCst) {
            state.give_back(&self.account, self.address, &self.source, known);
        }
        state.queued -= 1;
        if !known {
            state.unknown -= 1;
            if let Some(n) = state.by_address.get_mut(&self.address) {
                *n -= 1;
                if *n == 0 {
                    state.by_address.remove(&self.address);
                }
            }
        }
        if let Some(q) = state.accounts.get_mut(&self.account) {
            match known {
                true => q.known.retain(|s| *s != self.source),
                false => q.addresses.retain(|a| *a != self.address),
            }
            if q.addresses.is_empty() && q.known.is_empty() {
                state.accounts.remove(&self.account);
            }
        }
    }
}

impl Admission {
    /// `parallel` checks at a time in each lane (known sources, unknown
    /// ones: 2 × `parallel` in all), `queue` admitted at most in all
    /// (running or waiting), shared as [`QueueSizes::of`] says.
    pub fn new(parallel: usize, queue: usize) -> Admission {
        let parallel = parallel.max(1);
        Admission {
            unknown_checks: Arc::new(Semaphore::new(parallel)),
            known_checks: Arc::new(Semaphore::new(parallel)),
            sizes: QueueSizes::of(queue.max(parallel)),
            state: Arc::new(Mutex::new(State {
                queued: 0,
                unknown: 0,
                by_address: HashMap::new(),
                accounts: HashMap::new(),
                source: Leaky::new(PAIR_BURST, PAIR_EVERY),
                account: Leaky::new(ACCOUNT_BURST, ACCOUNT_EVERY),
                address: Leaky::new(ADDRESS_BURST, ADDRESS_EVERY),
                known_addresses: KnownAddresses::default(),
                asked: 0,
            })),
        }
    }

    /// Admits a check of `account` (a name as typed: case and spaces do
    /// not make another account) from `ip`, by the browser whose device
    /// cookie for that name gave `device` (its id, checked), or says why
    /// not, at once.
    pub fn admit(&self, account: &str, ip: IpAddr, device: Option<String>) -> Result<Ticket, Busy> {
        let account = super::auth::account_key(account);
        let address = address_key(ip);
        let now = Instant::now();
        let mut state = lock(&self.state);
        let state = &mut *state;
        state.prune(now);
        let source = match device {
            Some(d) => Source::Device(d),
            None => Source::Address(address),
        };
        let known = matches!(source, Source::Device(_)) || state.known_addresses.contains(&account, address);
        match known {
            true => state.refuse_known(&account, &source, self.sizes, now)?,
            false => state.refuse_unknown(&account, address, self.sizes, now)?,
        }
        state.queued += 1;
        state.source.add((account.clone(), source.clone()), 1.0, now);
        if !known {
            state.unknown += 1;
            *state.by_address.entry(address).or_default() += 1;
            state.account.add(account.clone(), 1.0, now);
            state.address.add(address, 1.0, now);
        }
        let queue = state.accounts.entry(account.clone()).or_default();
        match known {
            true => queue.known.push(source.clone()),
            false => queue.addresses.push(address),
        }
        Ok(Ticket {
            state: self.state.clone(),
            checks: match known {
                true => self.known_checks.clone(),
                false => self.unknown_checks.clone(),
            },
            turn: (!known).then(|| queue.turn.clone()),
            account,
            address,
            source,
            counted: Arc::new(AtomicBool::new(false)),
        })
    }

    /// How the queue is shared.
    #[cfg(test)]
    fn sizes(&self) -> QueueSizes {
        self.sizes
    }

    /// How many keys the counters remember.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        let state = lock(&self.state);
        state.source.counts.len() + state.account.counts.len() + state.address.counts.len()
    }
}

impl Ticket {
    /// Whether this check is from a known source (its own lane).
    pub fn known(&self) -> bool {
        self.turn.is_none()
    }

    /// Waits for this name's turn (unknown sources), then a free core in
    /// its lane, then runs `check` off the async threads; `right` tells
    /// a right password, whose failure counted at admission is given back
    /// (also where this future is dropped once the check has started),
    /// and whose address is known for this name from then on.
    pub async fn run<T: Send + 'static>(
        self,
        check: impl FnOnce() -> T + Send + 'static,
        right: impl FnOnce(&T) -> bool + Send + 'static,
    ) -> Option<T> {
        let _turn = match &self.turn {
            Some(turn) => Some(turn.clone().lock_owned().await),
            None => None,
        };
        let _permit = self.checks.clone().acquire_owned().await.ok()?;
        let (state, counted) = (self.state.clone(), self.counted.clone());
        let (account, address, source, known) = (
            self.account.clone(),
            self.address,
            self.source.clone(),
            self.known(),
        );
        tokio::task::spawn_blocking(move || {
            let outcome = check();
            let mut state = lock(&state);
            counted.store(true, Ordering::SeqCst);
            if right(&outcome) {
                state.give_back(&account, address, &source, known);
                state.known_addresses.insert(&account, address);
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

    fn device(id: &str) -> Option<String> {
        Some(id.to_string())
    }

    #[test]
    fn one_check_per_account_and_address_at_a_time_and_a_bounded_queue() {
        let a = Admission::new(1, 8);
        let t1 = a.admit("admin", ip("10.0.0.1"), None).unwrap();
        assert_eq!(
            a.admit(" ADMIN ", ip("10.0.0.1"), None).err(),
            Some(Busy::Running)
        );
        let _t2 = a.admit("admin", ip("10.0.0.2"), None).unwrap();
        let _t3 = a.admit("bob", ip("10.0.0.1"), None).unwrap();
        let _t4 = a.admit("carol", ip("10.0.0.3"), None).unwrap();
        let _t5 = a.admit("dave", ip("10.0.0.4"), None).unwrap();
        let _t6 = a.admit("erin", ip("10.0.0.5"), None).unwrap();
        assert_eq!(a.admit("frank", ip("10.0.0.6"), None).err(), Some(Busy::Queue));
        drop(t1);
        assert!(
            a.admit("frank", ip("10.0.0.6"), None).is_ok(),
            "a finished check frees its place"
        );
    }

    #[test]
    fn an_attackers_failures_slow_the_attacker_not_the_owner() {
        let a = Admission::new(1, 100);
        for _ in 0..PAIR_BURST as usize {
            check(a.admit("admin", ip("10.0.0.66"), None).unwrap(), false);
        }
        assert!(matches!(
            a.admit("admin", ip("10.0.0.66"), None),
            Err(Busy::Source(_))
        ));
        assert!(
            a.admit("admin", ip("2001:db8::1"), None)
                .map(|t| check(t, true))
                .is_ok(),
            "the owner from another address"
        );
        for _ in 0..10 {
            check(a.admit("admin", ip("10.0.0.7"), None).unwrap(), true);
        }
        assert!(
            a.admit("admin", ip("10.0.0.7"), None).is_ok(),
            "right passwords count nothing"
        );
    }

    #[test]
    fn an_ipv6_64_is_one_address_and_an_account_has_a_higher_ceiling() {
        let a = Admission::new(1, 1000);
        for i in 0..PAIR_BURST as u16 {
            check(
                a.admit("alice", ip(&format!("2001:db8:0:1::{i:x}")), None)
                    .unwrap(),
                false,
            );
        }
        assert!(
            matches!(
                a.admit("alice", ip("2001:db8:0:1::ff"), None),
                Err(Busy::Source(_))
            ),
            "the same /64"
        );
        let mut from = 0u16;
        while a
            .admit("alice", ip(&format!("2001:db8:{from:x}::1")), None)
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
    fn failures_from_unknown_sources_never_lock_out_a_known_device_or_address() {
        let a = Admission::new(1, 1000);
        // The teacher signed in before from 10.9.9.9 and from a browser.
        check(a.admit("admin", ip("10.9.9.9"), None).unwrap(), true);
        // 58 addresses guess: the name is locked for unknown sources.
        for host in 0..58u8 {
            while let Ok(t) = a.admit("admin", ip(&format!("10.1.0.{host}")), None) {
                check(t, false);
            }
        }
        let refused = a.admit("admin", ip("10.2.0.1"), None).err();
        let Some(Busy::Account(wait)) = refused else {
            panic!("an unknown source: {refused:?}")
        };
        assert!(wait > Duration::ZERO && wait <= ACCOUNT_EVERY * 2, "{wait:?}");
        for _ in 0..20 {
            check(a.admit("admin", ip("10.2.0.2"), device("browser")).unwrap(), true);
            check(a.admit("admin", ip("10.9.9.9"), None).unwrap(), true);
        }
        // A known device is held by its own failures only.
        for _ in 0..PAIR_BURST as usize {
            check(
                a.admit("admin", ip("10.2.0.2"), device("browser")).unwrap(),
                false,
            );
        }
        assert!(matches!(
            a.admit("admin", ip("10.2.0.2"), device("browser")),
            Err(Busy::Source(_))
        ));
        assert!(a.admit("admin", ip("10.2.0.2"), device("laptop")).is_ok());
    }

    #[test]
    fn a_flood_of_made_up_names_leaves_room_for_known_devices_and_other_addresses() {
        let a = Admission::new(1, 1024);
        let sizes = a.sizes();
        assert_eq!((sizes.unknown, sizes.per_address), (768, 256));
        let mut held = Vec::new();
        let mut refused = 0;
        for host in 0..8u8 {
            for i in 0..256 {
                match a.admit(
                    &format!("made-up-{host}-{i}"),
                    ip(&format!("10.3.0.{host}")),
                    None,
                ) {
                    Ok(t) => held.push(t),
                    Err(_) => refused += 1,
                }
            }
        }
        assert_eq!((held.len(), refused), (768, 5 * 256));
        assert_eq!(a.admit("alice", ip("10.4.0.1"), None).err(), Some(Busy::Queue));
        let owners: Vec<Ticket> = (0..200)
            .map(|i| {
                a.admit(&format!("student{i}"), ip("10.4.0.1"), device("b"))
                    .unwrap()
            })
            .collect();
        assert!(owners.iter().all(Ticket::known));
    }

    #[test]
    fn a_class_behind_one_address_is_admitted_at_once() {
        let a = Admission::new(2, 1024);
        let class: Vec<Ticket> = (0..200)
            .map(|i| a.admit(&format!("student{i}"), ip("192.0.2.1"), None).unwrap())
            .collect();
        assert_eq!(class.len(), 200);
    }

    #[test]
    fn names_made_up_by_an_attacker_are_forgotten_once_idle() {
        let a = Admission::new(1, 100);
        for i in 0..PRUNE_EVERY * 2 {
            // Right passwords: every count goes back to nothing.
            check(
                a.admit(&format!("made-up-{i}"), ip("10.0.0.1"), None).unwrap(),
                true,
            );
        }
        assert!(a.remembered() < PRUNE_EVERY, "{} keys remembered", a.remembered());
    }
}
