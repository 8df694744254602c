//! Descriptors passed over UNIX sockets (`SCM_RIGHTS`): the launcher hands
//! each run's socket to a runner, and a run's init hands its mount
//! namespace to the runner with the program's status. Plain system calls
//! on buffers of the caller's stack (no allocation), so the init may use
//! them after `fork`.

use std::io::{self, IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{BorrowedFd, OwnedFd};

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer, SendAncillaryMessage,
    SendFlags,
};

/// Sends `bytes` on `socket` as one message, with `fd` attached when
/// there is one (without `SIGPIPE`: a reader gone is an error).
pub(crate) fn send(socket: BorrowedFd<'_>, bytes: &[u8], fd: Option<BorrowedFd<'_>>) -> io::Result<usize> {
    let fds: &[BorrowedFd<'_>] = match &fd {
        Some(fd) => std::slice::from_ref(fd),
        None => &[],
    };
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut cmsg = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() {
        cmsg.push(SendAncillaryMessage::ScmRights(fds));
    }
    loop {
        match rustix::net::sendmsg(socket, &[IoSlice::new(bytes)], &mut cmsg, SendFlags::NOSIGNAL) {
            Err(rustix::io::Errno::INTR) => continue,
            r => return r.map_err(Into::into),
        }
    }
}

/// Receives one message into `buf`: how many bytes came (0: the peer
/// closed) and the descriptor attached to it, if any (close-on-exec).
pub(crate) fn receive(
    socket: BorrowedFd<'_>,
    buf: &mut [u8],
    flags: RecvFlags,
) -> io::Result<(usize, Option<OwnedFd>)> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut cmsg = RecvAncillaryBuffer::new(&mut space);
    let got = loop {
        match rustix::net::recvmsg(
            socket,
            &mut [IoSliceMut::new(buf)],
            &mut cmsg,
            flags | RecvFlags::CMSG_CLOEXEC,
        ) {
            Err(rustix::io::Errno::INTR) => continue,
            r => break r?,
        }
    };
    let fd = cmsg.drain().find_map(|m| match m {
        RecvAncillaryMessage::ScmRights(mut fds) => fds.next(),
        _ => None,
    });
    Ok((got.bytes, fd))
}
