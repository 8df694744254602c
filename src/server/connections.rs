//! How many connections the server holds, and for how long: the soft
//! limit of open files raised to the hard one at start, a cap on
//! connections in all (below that limit, so the server always has the
//! files to answer) and per client address, and an idle timeout. A
//! connection over a cap is answered `503` at once and closed (over HTTPS,
//! closed), rather than left waiting for a slot; one that sends nothing
//! for [`IDLE`] is closed. Every connection counts, `/events` streams
//! included. The header read timeout is hyper's, set by `router`.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// A connection that neither sends nor receives a byte for this long is
/// closed (an `/events` stream receives a keep-alive every 15 s).
pub const IDLE: Duration = Duration::from_secs(60);

/// A request's header must arrive whole within this long.
pub const HEADER_READ: Duration = Duration::from_secs(10);

/// Open files kept for everything but connections: the database, the
/// judging (compilers, sandboxes), logs.
const RESERVED_FILES: u64 = 128;

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

/// Connections open, in all and by address.
pub struct Gate {
    cap: usize,
    per_address: Option<usize>,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

impl Gate {
    /// `cap` connections in all, `per_address` from one address (`None`:
    /// no per-address cap, as behind a proxy where every connection comes
    /// from the proxy).
    pub fn new(cap: usize, per_address: Option<usize>) -> Arc<Gate> {
        Arc::new(Gate {
            cap: cap.max(1),
            per_address: per_address.map(|n| n.max(1)),
            open: Mutex::new((0, HashMap::new())),
        })
    }

    /// A slot for a connection from `ip`, or `None` when a cap is reached.
    pub fn admit(self: &Arc<Gate>, ip: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let (total, by_address) = &mut *open;
        let mine = by_address.get(&ip).copied().unwrap_or(0);
        if *total >= self.cap || self.per_address.is_some_and(|n| mine >= n) {
            return None;
        }
        *total += 1;
        by_address.insert(ip, mine + 1);
        Some(Slot {
            gate: self.clone(),
            ip,
        })
    }

    /// Connections open now.
    #[cfg(test)]
    fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).0
    }
}

/// One admitted connection; its slot is given back when dropped.
pub struct Slot {
    gate: Arc<Gate>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.gate.open.lock().unwrap_or_else(|p| p.into_inner());
        let (total, by_address) = &mut *open;
        *total = total.saturating_sub(1);
        if let Some(n) = by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                by_address.remove(&self.ip);
            }
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
            let ip = stream.peer_addr()?.ip();
            match gate.admit(ip) {
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
/// without a byte either way.
pub struct Limited<T> {
    inner: T,
    idle: Pin<Box<Sleep>>,
    _slot: Slot,
}

impl<T> Limited<T> {
    fn new(inner: T, slot: Slot) -> Self {
        Limited {
            inner,
            idle: Box::pin(tokio::time::sleep(IDLE)),
            _slot: slot,
        }
    }

    fn active(&mut self) {
        self.idle.as_mut().reset(Instant::now() + IDLE);
    }

    /// `Pending` as long as the connection is not idle for too long.
    fn check_idle(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
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

    #[test]
    fn the_gate_caps_connections_in_all_and_per_address_and_frees_them() {
        let gate = Gate::new(3, Some(2));
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let b: IpAddr = "127.0.0.3".parse().unwrap();
        let a1 = gate.admit(a).unwrap();
        let _a2 = gate.admit(a).unwrap();
        assert!(gate.admit(a).is_none(), "a third from one address");
        let _b1 = gate.admit(b).unwrap();
        assert!(gate.admit(b).is_none(), "over the cap in all");
        drop(a1);
        assert!(gate.admit(b).is_some(), "a freed slot is given again");
        assert_eq!(gate.open(), 2, "the slot of a closed connection is given back");
    }

    #[test]
    fn the_cap_in_all_leaves_files_for_the_rest() {
        assert_eq!(default_cap(1024), 896);
        assert_eq!(default_cap(256), 128);
        assert_eq!(default_cap(100), 50);
    }
}
