//! How many connections the server holds, and for how long, and who
//! holds them: the soft limit of open files raised to the hard one at
//! start, a cap on connections in all (below that limit, so the server
//! always has the files to answer, [`default_cap`]), and caps on what one
//! party holds, each a fraction of the whole ([`Caps`]). A connection is
//! accepted before anyone is identified: until a request on it is signed
//! in it counts against its client's address (an IPv6 address by its
//! /64, [`address_key`]); once a request on it is signed in it counts
//! against that account instead ([`Gate::identify`]), as its `/events`
//! streams do ([`Gate::stream`]). A connection that counts against an
//! address and has had no request in hand for [`CHEAP_AFTER`] (none came
//! yet, or its last one was answered that long ago, [`Gate::request`]) is
//! cheap to drop: at a cap (its address's, or the whole), the oldest such
//! is closed to make room for the new one, so half-open or idle
//! connections on a shared (NAT) address do not keep a signed-in
//! classmate out. A connection over a cap with nothing
//! cheap to drop is answered `503` at once and closed (over HTTPS,
//! closed), rather than left waiting for a slot; one that sends nothing
//! for [`IDLE`] (not signed in: [`IDLE_SIGNED_OUT`]) is closed. The header
//! read timeout is hyper's, set by `router`.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::time::{Instant, Sleep};

/// A signed-in connection that neither sends nor receives a byte for this
/// long is closed (an `/events` stream receives a keep-alive every 15 s).
pub const IDLE: Duration = Duration::from_secs(60);

/// A connection no signed-in request has come on is closed after this
/// long without a byte (a sign-in waiting its turn sends none: room for a
/// class's sign-ins queued at once).
pub const IDLE_SIGNED_OUT: Duration = Duration::from_secs(30);

/// A request's header must arrive whole within this long.
pub const HEADER_READ: Duration = Duration::from_secs(10);

/// A connection not signed in that has had no request in hand for this
/// long (none came, or the last was answered) is cheap to drop: the first
/// closed when a cap is reached.
pub const CHEAP_AFTER: Duration = Duration::from_secs(3);

/// Connections one signed-in account holds at most (a browser holds six
/// at most per server; several browsers and devices of one person fit).
pub const PER_ACCOUNT: usize = 32;

/// `/events` streams one signed-in account holds at most (a browser's
/// tabs share one).
pub const STREAMS_PER_ACCOUNT: usize = 8;

/// Open files kept for everything but connections: the database, the
/// judging (compilers, sandboxes), logs.
const RESERVED_FILES: u64 = 128;

/// What per-address limits count as one address: an IPv4 address, or an
/// IPv6 address's /64 (one household or one machine gets a whole /64, so
/// each of its addresses is no other client); an IPv4 address mapped into
/// IPv6 is that IPv4 address.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from_bits(v6.to_bits() & !((1u128 << 64) - 1))),
        },
    }
}

/// Raises the soft limit of open files to the hard limit; returns the
/// soft limit in force afterwards.
pub fn raise_open_files_limit() -> u64 {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return 1024;
    };
    // An unlimited hard limit is not a limit the kernel takes for open
    // files (fs.nr_open, 2^20 by default, is the most).
    let target = hard.min(1 << 20);
    if soft < target && setrlimit(Resource::RLIMIT_NOFILE, target, hard).is_ok() {
        return target;
    }
    soft
}

/// The cap on connections in all that leaves the server the files it
/// needs besides them, with `open_files` the limit of open files.
pub fn default_cap(open_files: u64) -> usize {
    let spare = open_files.saturating_sub(RESERVED_FILES).max(open_files / 2);
    usize::try_from(spare.min(1 << 20)).unwrap_or(1 << 20).max(1)
}

/// The caps on connections: in all, and from one address before a
/// signed-in request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Connections in all.
    pub all: usize,
    /// Connections from one address not (yet) signed in.
    pub per_address: usize,
}

impl Caps {
    /// The caps for `open_files`: in all `all` (`None`: [`default_cap`]),
    /// from one address `per_address` (`None`: a quarter of all, so four
    /// addresses at least are needed to fill it), never above all.
    pub fn of(open_files: u64, all: Option<usize>, per_address: Option<usize>) -> Caps {
        let all = all.unwrap_or_else(|| default_cap(open_files)).max(1);
        Caps {
            all,
            per_address: per_address.unwrap_or(all / 4).clamp(1, all),
        }
    }
}

/// Who a connection counts against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// Not signed in: its address (see [`address_key`]).
    Address(IpAddr),
    /// The account of its latest signed-in request.
    Account(i64),
}

/// What one signed-in account holds now, and asked for lately.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Holding {
    /// Connections whose latest request was this account's.
    pub connections: usize,
    /// `/events` streams open.
    pub streams: usize,
    /// Requests in the current minute and the one before it.
    requests: [u64; 2],
    /// The minute `requests[0]` counts.
    minute: u64,
}

impl Holding {
    /// Requests in the last minute or two.
    pub fn recent_requests(&self, now_minute: u64) -> u64 {
        match now_minute.saturating_sub(self.minute) {
            0 => self.requests[0] + self.requests[1],
            1 => self.requests[0],
            _ => 0,
        }
    }

    fn count_request(&mut self, now_minute: u64) {
        match now_minute.saturating_sub(self.minute) {
            0 => {}
            1 => self.requests = [0, self.requests[0]],
            _ => self.requests = [0, 0],
        }
        self.minute = now_minute;
        self.requests[0] += 1;
    }

    fn is_empty(&self, now_minute: u64) -> bool {
        self.connections == 0 && self.streams == 0 && self.recent_requests(now_minute) == 0
    }
}

/// One open connection: who it counts against, whether it is signed in
/// (its idle timeout), and since when it has had no request in hand
/// (cheap to drop after [`CHEAP_AFTER`]); dropping `close` closes it.
struct Conn {
    id: u64,
    owner: Owner,
    signed_in: Arc<AtomicBool>,
    /// Requests on it being answered now.
    in_hand: u32,
    /// When it came, or its last request was answered.
    idle_since: std::time::Instant,
    /// Which of its times in the lists of waiting connections is current
    /// (one more each time it goes idle).
    mark: u64,
    _close: oneshot::Sender<()>,
}

impl Conn {
    /// Whether it may be dropped to make room once idle long enough: it
    /// counts against an address and no request on it is being answered.
    fn droppable(&self) -> bool {
        self.in_hand == 0 && matches!(self.owner, Owner::Address(_))
    }
}

/// A connection as the lists of waiting ones hold it: its id, the mark of
/// the time it went idle, its peer.
type Waiting = (u64, u64, SocketAddr);

#[derive(Default)]
struct Open {
    total: usize,
    next_id: u64,
    by_address: HashMap<IpAddr, usize>,
    by_account: HashMap<i64, Holding>,
    conns: HashMap<SocketAddr, Conn>,
    /// Connections not signed in, in the order they went idle (came, or
    /// had their last request answered); stale entries dropped from the
    /// front as they are met; in all and by address.
    waiting: VecDeque<Waiting>,
    waiting_by_address: HashMap<IpAddr, VecDeque<Waiting>>,
}

impl Open {
    fn release(&mut self, owner: Owner) {
        match owner {
            Owner::Address(a) => {
                if let Some(n) = self.by_address.get_mut(&a) {
                    *n -= 1;
                    if *n == 0 {
                        self.by_address.remove(&a);
                        self.waiting_by_address.remove(&a);
                    }
                }
            }
            Owner::Account(id) => {
                if let Some(h) = self.by_account.get_mut(&id) {
                    h.connections = h.connections.saturating_sub(1);
                }
            }
        }
    }

    /// Whether `(id, mark, peer)` is an open connection idle since then.
    fn is_waiting(&self, &(id, mark, peer): &Waiting) -> bool {
        self.conns
            .get(&peer)
            .is_some_and(|c| c.id == id && c.mark == mark && c.droppable())
    }

    /// Lists `peer`'s connection as idle from now.
    fn went_idle(&mut self, peer: SocketAddr, address: IpAddr) {
        let Some(conn) = self.conns.get_mut(&peer) else {
            return;
        };
        conn.idle_since = std::time::Instant::now();
        conn.mark += 1;
        let entry = (conn.id, conn.mark, peer);
        // Its earlier time, when it is the last listed, goes (a connection
        // kept alive for many requests takes one entry).
        let by_address = self.waiting_by_address.entry(address).or_default();
        for list in [&mut self.waiting, by_address] {
            if list.back().is_some_and(|&(id, _, p)| id == entry.0 && p == peer) {
                list.pop_back();
            }
            list.push_back(entry);
        }
    }

    /// The oldest idle connection not signed in (from `address`, or any),
    /// if idle [`CHEAP_AFTER`] or more; the entries before it, stale, are
    /// dropped (so each list holds at most what went idle since the oldest
    /// idle one).
    fn oldest_cheap(&mut self, address: Option<IpAddr>) -> Option<SocketAddr> {
        let mut queue = match address {
            Some(a) => self.waiting_by_address.remove(&a)?,
            None => std::mem::take(&mut self.waiting),
        };
        while queue.front().is_some_and(|w| !self.is_waiting(w)) {
            queue.pop_front();
        }
        let cheap = queue
            .front()
            .filter(|(_, _, peer)| self.conns[peer].idle_since.elapsed() >= CHEAP_AFTER)
            .map(|&(_, _, peer)| peer);
        match address {
            Some(a) if !queue.is_empty() => {
                self.waiting_by_address.insert(a, queue);
            }
            Some(_) => {}
            None => self.waiting = queue,
        }
        cheap
    }

    /// Closes the connection from `peer` now (its slot is free at once).
    fn drop_conn(&mut self, peer: SocketAddr) {
        if let Some(conn) = self.conns.remove(&peer) {
            self.total = self.total.saturating_sub(1);
            self.release(conn.owner);
        }
    }

    /// Makes room for one more connection from `address` under `caps`,
    /// closing the oldest cheap one where a cap is reached; whether there
    /// is room.
    fn make_room(&mut self, address: IpAddr, caps: Option<Caps>, all: usize) -> bool {
        let mine = self.by_address.get(&address).copied().unwrap_or(0);
        if let Some(caps) = caps
            && mine >= caps.per_address
        {
            match self.oldest_cheap(Some(address)) {
                Some(peer) => self.drop_conn(peer),
                None => return false,
            }
        }
        if self.total >= all {
            match self.oldest_cheap(None) {
                Some(peer) => self.drop_conn(peer),
                None => return false,
            }
        }
        true
    }
}

/// Why a signed-in request or stream is refused: its account holds too
/// many already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// Connections.
    Connections,
    /// `/events` streams.
    Streams,
}

/// Connections open, in all, by address and by account.
pub struct Gate {
    cap: usize,
    caps: Option<Caps>,
    per_account: usize,
    streams_per_account: usize,
    started: std::time::Instant,
    open: Mutex<Open>,
}

impl Gate {
    /// `cap` connections in all, `per_address` not signed in from one
    /// address (at most `cap`) and [`PER_ACCOUNT`] per account (`None`:
    /// neither, as behind a proxy where every connection comes from the
    /// proxy and carries anyone's requests); [`STREAMS_PER_ACCOUNT`] per
    /// account.
    pub fn new(cap: usize, per_address: Option<usize>) -> Arc<Gate> {
        let cap = cap.max(1);
        Arc::new(Gate {
            cap,
            caps: per_address.map(|n| Caps {
                all: cap,
                per_address: n.clamp(1, cap),
            }),
            per_account: per_address.map_or(usize::MAX, |_| PER_ACCOUNT),
            streams_per_account: STREAMS_PER_ACCOUNT,
            started: std::time::Instant::now(),
            open: Mutex::new(Open::default()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn minute(&self) -> u64 {
        self.started.elapsed().as_secs() / 60
    }

    /// A slot for a connection from `peer`, or `None` when a cap is
    /// reached and no connection is cheap to drop ([`CHEAP_AFTER`]). It
    /// counts against the peer's address until a signed-in request comes
    /// on it.
    pub fn admit(self: &Arc<Gate>, peer: SocketAddr) -> Option<Slot> {
        let address = address_key(peer.ip());
        let mut open = self.lock();
        let open = &mut *open;
        if !open.make_room(address, self.caps, self.cap) {
            return None;
        }
        // Below the caps too, the lists of waiting connections are kept
        // short (what is cheap is only dropped at a cap).
        open.oldest_cheap(None);
        open.oldest_cheap(Some(address));
        // A peer's address and port are one connection's; one still
        // listed (its slot not dropped yet) is closed.
        open.drop_conn(peer);
        open.total += 1;
        *open.by_address.entry(address).or_default() += 1;
        open.next_id += 1;
        let id = open.next_id;
        let signed_in = Arc::new(AtomicBool::new(false));
        let (close, closed) = oneshot::channel();
        open.conns.insert(
            peer,
            Conn {
                id,
                owner: Owner::Address(address),
                signed_in: signed_in.clone(),
                in_hand: 0,
                idle_since: std::time::Instant::now(),
                mark: 0,
                _close: close,
            },
        );
        open.went_idle(peer, address);
        Some(Slot {
            gate: self.clone(),
            peer,
            id,
            signed_in,
            closed,
            dropped: false,
        })
    }

    /// A request on the connection from `peer`, signed in as `account`
    /// (`None`: not signed in): the connection counts against that
    /// account from now on, or the request is refused when the account
    /// holds [`PER_ACCOUNT`] connections already (the connection is then
    /// to be closed after the answer).
    pub fn identify(&self, peer: SocketAddr, account: Option<i64>) -> Result<(), Over> {
        let minute = self.minute();
        let mut open = self.lock();
        let Some(account) = account else {
            return Ok(());
        };
        let Some(owner) = open.conns.get(&peer).map(|c| c.owner) else {
            // Not a connection of this gate (a test's router): nothing held.
            return Ok(());
        };
        let holding = open.by_account.entry(account).or_default();
        holding.count_request(minute);
        if owner == Owner::Account(account) {
            return Ok(());
        }
        if holding.connections >= self.per_account {
            return Err(Over::Connections);
        }
        holding.connections += 1;
        open.release(owner);
        if let Some(conn) = open.conns.get_mut(&peer) {
            conn.owner = Owner::Account(account);
            conn.signed_in.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    /// A request in hand on the connection from `peer`, from its header
    /// until its answer is made (the returned value dropped): meanwhile
    /// the connection is not cheap to drop; after, one not signed in is
    /// idle ([`CHEAP_AFTER`]).
    pub fn request(self: &Arc<Gate>, peer: SocketAddr) -> InHand {
        if let Some(conn) = self.lock().conns.get_mut(&peer) {
            conn.in_hand += 1;
        }
        InHand {
            gate: self.clone(),
            peer,
        }
    }

    /// An `/events` stream of `account`, held until the returned value is
    /// dropped, or refused when the account holds
    /// [`STREAMS_PER_ACCOUNT`] already.
    pub fn stream(self: &Arc<Gate>, account: i64) -> Result<StreamSlot, Over> {
        let mut open = self.lock();
        let holding = open.by_account.entry(account).or_default();
        if holding.streams >= self.streams_per_account {
            return Err(Over::Streams);
        }
        holding.streams += 1;
        Ok(StreamSlot {
            gate: self.clone(),
            account,
        })
    }

    /// Raises the open-files limit and makes the gate for `connections`
    /// in all and `per_address` from one address ([`Caps::of`]), or none
    /// per address `behind_proxy`.
    pub fn for_server(
        connections: Option<usize>,
        per_address: Option<usize>,
        behind_proxy: bool,
    ) -> Arc<Gate> {
        let caps = Caps::of(raise_open_files_limit(), connections, per_address);
        Gate::new(caps.all, (!behind_proxy).then_some(caps.per_address))
    }

    /// The accounts that hold the most (streams, then connections, then
    /// recent requests), `n` at most: `(account, what it holds, requests
    /// in the last minute or two)`.
    pub fn top_holders(&self, n: usize) -> Vec<(i64, Holding, u64)> {
        let minute = self.minute();
        let mut open = self.lock();
        open.by_account.retain(|_, h| !h.is_empty(minute));
        let mut rows: Vec<(i64, Holding, u64)> = open
            .by_account
            .iter()
            .map(|(&id, h)| (id, *h, h.recent_requests(minute)))
            .collect();
        rows.sort_by_key(|(id, h, r)| (std::cmp::Reverse((h.streams, h.connections, *r)), *id));
        rows.truncate(n);
        rows
    }

    /// Connections open now.
    #[cfg(test)]
    fn open(&self) -> usize {
        self.lock().total
    }
}

#[cfg(test)]
impl Slot {
    /// Whether the gate dropped this connection to make room.
    fn closed_by_gate(&self) -> bool {
        self.gate
            .lock()
            .conns
            .get(&self.peer)
            .is_none_or(|c| c.id != self.id)
    }
}

/// One admitted connection; its slot is given back when dropped.
pub struct Slot {
    gate: Arc<Gate>,
    peer: SocketAddr,
    id: u64,
    signed_in: Arc<AtomicBool>,
    /// Ready once the gate dropped the connection to make room...
    closed: oneshot::Receiver<()>,
    /// ...which it was.
    dropped: bool,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.gate.lock();
        if open.conns.get(&self.peer).is_some_and(|c| c.id == self.id) {
            open.drop_conn(self.peer);
        }
    }
}

/// A request being answered ([`Gate::request`]); answered when dropped.
pub struct InHand {
    gate: Arc<Gate>,
    peer: SocketAddr,
}

impl Drop for InHand {
    fn drop(&mut self) {
        let mut open = self.gate.lock();
        let Some(conn) = open.conns.get_mut(&self.peer) else {
            return;
        };
        conn.in_hand = conn.in_hand.saturating_sub(1);
        if let (0, Owner::Address(address)) = (conn.in_hand, conn.owner) {
            open.went_idle(self.peer, address);
        }
    }
}

/// One open `/events` stream of an account; given back when dropped.
pub struct StreamSlot {
    gate: Arc<Gate>,
    account: i64,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        if let Some(h) = self.gate.lock().by_account.get_mut(&self.account) {
            h.streams = h.streams.saturating_sub(1);
        }
    }
}

/// The acceptor that admits connections through a [`Gate`] (under TLS, the
/// inner acceptor: it runs before the handshake).
#[derive(Clone)]
pub struct GateAcceptor {
    /// The caps.
    pub gate: Arc<Gate>,
    /// Answer a refused connection `503` in plain HTTP (not under TLS).
    pub answer_503: bool,
}

/// What a refused connection reads before it is closed.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
retry-after: 5\r\nconnection: close\r\ncontent-length: 59\r\n\r\n\
The judge has too many connections open: try again soon.\r\n\r\n";

impl<S: Send + 'static> axum_server::accept::Accept<TcpStream, S> for GateAcceptor {
    type Stream = Limited<TcpStream>;
    type Service = S;
    type Future = Pin<Box<dyn Future<Output = io::Result<(Self::Stream, S)>> + Send>>;

    fn accept(&self, stream: TcpStream, service: S) -> Self::Future {
        let (gate, answer_503) = (self.gate.clone(), self.answer_503);
        Box::pin(async move {
            let peer = stream.peer_addr()?;
            match gate.admit(peer) {
                Some(slot) => Ok((Limited::new(stream, slot), service)),
                None => {
                    // A fresh connection's send buffer takes the whole
                    // answer at once; what the client sent is read away
                    // so that closing it is a FIN, not a reset that could
                    // lose the answer.
                    if answer_503 {
                        let _ = stream.try_write(REFUSED);
                        let mut sink = [0u8; 4096];
                        while matches!(stream.try_read(&mut sink), Ok(n) if n > 0) {}
                    }
                    Err(io::Error::other("over the connection cap"))
                }
            }
        })
    }
}

/// A connection that holds its [`Slot`] and is closed after [`IDLE`]
/// without a byte either way ([`IDLE_SIGNED_OUT`] while no signed-in
/// request came on it).
pub struct Limited<T> {
    inner: T,
    idle: Pin<Box<Sleep>>,
    slot: Slot,
}

impl<T> Limited<T> {
    fn new(inner: T, slot: Slot) -> Self {
        Limited {
            inner,
            idle: Box::pin(tokio::time::sleep(IDLE_SIGNED_OUT)),
            slot,
        }
    }

    fn active(&mut self) {
        let idle = if self.slot.signed_in.load(Ordering::Relaxed) {
            IDLE
        } else {
            IDLE_SIGNED_OUT
        };
        self.idle.as_mut().reset(Instant::now() + idle);
    }

    /// `Ok` as long as the connection is not idle for too long, nor
    /// dropped by the gate to make room.
    fn check_idle(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        if self.slot.dropped || Pin::new(&mut self.slot.closed).poll(cx).is_ready() {
            self.slot.dropped = true;
            return Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "dropped to make room: no request came on it in time",
            ));
        }
        match self.idle.as_mut().poll(cx) {
            Poll::Ready(()) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection was idle too long",
            )),
            Poll::Pending => Ok(()),
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Limited<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    this.active();
                }
                Poll::Ready(r)
            }
            Poll::Pending => match this.check_idle(cx) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Limited<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write(cx, data);
        if let Poll::Ready(Ok(n)) = r
            && n > 0
        {
            this.active();
        }
        r
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = r
            && n > 0
        {
            this.active();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(ip: &str, port: u16) -> SocketAddr {
        SocketAddr::new(ip.parse().unwrap(), port)
    }

    #[test]
    fn the_gate_caps_connections_in_all_and_per_address_and_frees_them() {
        let gate = Gate::new(3, Some(2));
        let a1 = gate.admit(peer("127.0.0.2", 1)).unwrap();
        let _a2 = gate.admit(peer("127.0.0.2", 2)).unwrap();
        assert!(
            gate.admit(peer("127.0.0.2", 3)).is_none(),
            "a third from one address"
        );
        let _b1 = gate.admit(peer("127.0.0.3", 1)).unwrap();
        assert!(gate.admit(peer("127.0.0.3", 2)).is_none(), "over the cap in all");
        drop(a1);
        assert!(
            gate.admit(peer("127.0.0.3", 2)).is_some(),
            "a freed slot is given again"
        );
        assert_eq!(gate.open(), 2, "the slot of a closed connection is given back");
    }

    #[test]
    fn an_ipv6_64_is_one_address() {
        let gate = Gate::new(100, Some(2));
        let _a = gate.admit(peer("2001:db8:1:2::1", 1)).unwrap();
        let _b = gate.admit(peer("2001:db8:1:2:ffff::9", 1)).unwrap();
        assert!(
            gate.admit(peer("2001:db8:1:2:abcd::1", 1)).is_none(),
            "a third from one /64"
        );
        assert!(gate.admit(peer("2001:db8:1:3::1", 1)).is_some(), "another /64");
        assert_eq!(
            address_key("::ffff:10.0.0.1".parse().unwrap()),
            "10.0.0.1".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn a_signed_in_connection_counts_against_its_account_not_its_address() {
        let gate = Gate::new(1000, Some(2));
        let mine: Vec<Slot> = (0..2).map(|p| gate.admit(peer("10.0.0.1", p)).unwrap()).collect();
        assert!(gate.admit(peer("10.0.0.1", 9)).is_none(), "the address is full");
        for p in 0..2 {
            gate.identify(peer("10.0.0.1", p), Some(7)).unwrap();
        }
        assert!(
            gate.admit(peer("10.0.0.1", 9)).is_some(),
            "signed in: the address has room again"
        );
        // The same account from other addresses (its phone, home).
        let more: Vec<Slot> = (0..PER_ACCOUNT as u16)
            .map(|p| gate.admit(peer(&format!("10.0.1.{p}"), 1)).unwrap())
            .collect();
        let refused = (0..PER_ACCOUNT as u16)
            .filter(|&p| gate.identify(peer(&format!("10.0.1.{p}"), 1), Some(7)).is_err())
            .count();
        assert_eq!(refused, 2, "account 7 holds {PER_ACCOUNT} at most");
        assert!(
            gate.identify(peer("10.0.1.31", 1), Some(8)).is_ok(),
            "a classmate is served"
        );
        drop((mine, more));
        assert_eq!(gate.open(), 0);
    }

    #[test]
    fn streams_are_capped_per_account_and_given_back() {
        let gate = Gate::new(10, None);
        let held: Vec<StreamSlot> = (0..STREAMS_PER_ACCOUNT)
            .map(|_| gate.stream(1).unwrap())
            .collect();
        assert_eq!(gate.stream(1).err(), Some(Over::Streams));
        assert!(gate.stream(2).is_ok(), "another account's stream");
        assert_eq!(gate.top_holders(1)[0].1.streams, STREAMS_PER_ACCOUNT);
        drop(held);
        assert!(gate.stream(1).is_ok());
    }

    #[test]
    fn the_lists_of_waiting_connections_stay_short_below_the_caps() {
        let gate = Gate::new(1000, Some(1000));
        for p in 0..5000u16 {
            let slot = gate.admit(peer("10.0.0.1", p)).unwrap();
            drop(gate.request(peer("10.0.0.1", p)));
            drop(slot);
        }
        let open = gate.lock();
        assert!(open.waiting.len() <= 1, "{} remembered", open.waiting.len());
        assert!(open.waiting_by_address.values().all(|q| q.len() <= 1));
    }

    #[test]
    fn the_cap_in_all_leaves_files_for_the_rest() {
        assert_eq!(default_cap(1024), 896);
        assert_eq!(default_cap(256), 128);
        assert_eq!(default_cap(100), 50);
    }

    #[test]
    fn the_cap_per_address_is_a_quarter_of_the_whole_and_never_above_it() {
        let at = |files, all, per| Caps::of(files, all, per);
        assert_eq!(
            at(1024, None, None),
            Caps {
                all: 896,
                per_address: 224
            }
        );
        assert_eq!(
            at(524_288, None, None),
            Caps {
                all: 524_160,
                per_address: 131_040
            }
        );
        assert_eq!(
            at(4096, None, None),
            Caps {
                all: 3968,
                per_address: 992
            }
        );
        assert_eq!(
            at(1024, None, Some(4096)).per_address,
            896,
            "never above the whole"
        );
        assert_eq!(at(1024, Some(100), Some(0)).per_address, 1);
        assert_eq!(
            at(1024, Some(3), None),
            Caps {
                all: 3,
                per_address: 1
            }
        );
        assert_eq!(Gate::new(10, Some(50)).caps.map(|c| c.per_address), Some(10));
    }

    /// Makes every connection open now idle for [`CHEAP_AFTER`] (those
    /// with no request in hand: the others are not dropped anyway).
    fn age(gate: &Gate) {
        let then = std::time::Instant::now() - CHEAP_AFTER;
        gate.lock().conns.values_mut().for_each(|c| c.idle_since = then);
    }

    #[test]
    fn a_connection_with_no_request_in_time_is_dropped_first_at_a_cap() {
        let gate = Gate::new(4, Some(2));
        let mut classmate = Vec::new();
        let half: Vec<Slot> = (0..2).map(|p| gate.admit(peer("10.0.0.1", p)).unwrap()).collect();
        assert!(gate.admit(peer("10.0.0.1", 9)).is_none(), "fresh: not cheap yet");
        age(&gate);
        classmate.push(
            gate.admit(peer("10.0.0.1", 9))
                .expect("the oldest half-open one dropped"),
        );
        gate.identify(peer("10.0.0.1", 9), Some(7)).unwrap();
        assert!(half[0].closed_by_gate() && !half[1].closed_by_gate());
        // The whole: another address's request, then the half-open ones.
        let other: Vec<Slot> = (0..2).map(|p| gate.admit(peer("10.0.0.2", p)).unwrap()).collect();
        let in_hand = gate.request(peer("10.0.0.2", 0));
        gate.identify(peer("10.0.0.2", 0), None).unwrap();
        age(&gate);
        assert_eq!(gate.open(), 4);
        classmate.push(gate.admit(peer("10.0.0.3", 1)).expect("a cheap one dropped"));
        assert!(half[1].closed_by_gate(), "the oldest with no request");
        classmate.push(gate.admit(peer("10.0.0.3", 2)).expect("a cheap one dropped"));
        assert!(other[1].closed_by_gate() && !other[0].closed_by_gate());
        assert!(gate.admit(peer("10.0.0.3", 3)).is_none(), "nothing cheap left");
        drop((in_hand, half, other, classmate));
        assert_eq!(
            gate.open(),
            0,
            "a dropped connection's slot is not given back twice"
        );
    }

    #[test]
    fn a_connection_idle_after_its_answer_is_cheap_but_not_one_being_answered() {
        let gate = Gate::new(100, Some(2));
        let held: Vec<Slot> = (0..2).map(|p| gate.admit(peer("10.0.0.1", p)).unwrap()).collect();
        // Each brought a request: one is answered (its connection kept
        // alive, idle), the other is still being answered (a sign-in
        // waiting its turn).
        drop(gate.request(peer("10.0.0.1", 0)));
        let waiting_turn = gate.request(peer("10.0.0.1", 1));
        age(&gate);
        let classmate = gate
            .admit(peer("10.0.0.1", 9))
            .expect("the idle one dropped for a classmate");
        assert!(held[0].closed_by_gate() && !held[1].closed_by_gate());
        assert!(
            gate.admit(peer("10.0.0.1", 10)).is_none(),
            "neither the request in hand nor the fresh one is cheap"
        );
        // Answered, it is idle from then: cheap only after CHEAP_AFTER.
        drop(waiting_turn);
        drop(classmate);
        let next = gate.admit(peer("10.0.0.1", 11)).expect("room again");
        assert!(
            gate.admit(peer("10.0.0.1", 12)).is_none(),
            "just answered: not cheap yet"
        );
        age(&gate);
        let last = gate.admit(peer("10.0.0.1", 12)).expect("idle long enough");
        assert!(held[1].closed_by_gate() && !next.closed_by_gate());
        drop((last, next, held));
        assert_eq!(gate.open(), 0);
    }
}
