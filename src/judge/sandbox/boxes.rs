//! The pool of box ids: each concurrent run gets a uid and gid of its own
//! (`60000 + id`, as isolate does), so runs cannot signal, trace or read
//! each other, and per-user limits bind per run.
//!
//! A box is leased by taking an exclusive `flock` on `box-<id>.lock` in a
//! root-only folder, so the lease holds across threads of one judge and
//! across judges on one machine, and ends when its file is closed, even if
//! the judge is killed.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use nix::fcntl::{Flock, FlockArg};

/// The first box uid/gid.
pub const FIRST_UID: u32 = 60000;
/// How many boxes there are.
pub const POOL: u32 = 1000;

/// A leased box; the lease ends when this is dropped.
#[derive(Debug)]
pub(crate) struct BoxLease {
    /// Box id, `0..POOL`.
    pub(crate) id: u32,
    _lock: Flock<File>,
}

impl BoxLease {
    /// The uid (and gid) programs in this box run as: `60000 + id`, or 0
    /// (the judge's own, capabilities dropped) for a rootless judge
    /// without a subordinate range ([`uid_per_run`]).
    pub(crate) fn uid(&self) -> u32 {
        if uid_per_run() { FIRST_UID + self.id } else { 0 }
    }
}

/// Where lock files live: `/run/mayan-judge` (root only, mode 0700); for
/// a rootless judge, a folder of the user's (`$XDG_RUNTIME_DIR`, else
/// `/tmp/mayan-judge.<uid>.boxes`: not a `mayan-judge-<pid>-` work
/// folder, which a later judge would remove), shared by the user's judges, whose
/// runs share the user's subordinate uids.
pub(crate) fn lock_dir() -> PathBuf {
    match super::host::current().mode {
        super::host::Mode::Rootless { uid, .. } => match std::env::var_os("XDG_RUNTIME_DIR") {
            Some(d) if Path::new(&d).is_absolute() => Path::new(&d).join("mayan-judge"),
            _ => std::env::temp_dir().join(format!("mayan-judge.{uid}.boxes")),
        },
        _ => PathBuf::from("/run/mayan-judge"),
    }
}

/// Whether each box has a uid of its own: as root, or rootless with a
/// subordinate range that holds the whole pool (`1..` inside maps to it).
pub(crate) fn uid_per_run() -> bool {
    match super::host::current().mode {
        super::host::Mode::Root => true,
        super::host::Mode::Rootless { subuids, .. } => subuids.is_some_and(|r| r.count >= FIRST_UID + POOL),
        super::host::Mode::User { .. } => false,
    }
}

/// Creates (or checks) the lock folder: owned by the judge, mode 0700.
pub(crate) fn prepare_lock_dir(dir: &Path) -> io::Result<()> {
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() || meta.uid() != nix::unistd::geteuid().as_raw() {
        return Err(io::Error::other(format!(
            "{} is not a folder owned by the judge's user",
            dir.display()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Leases a free box, trying ids from a rotating start so that parallel
/// runs spread over the pool.
pub(crate) fn lease(dir: &Path) -> io::Result<BoxLease> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let start = NEXT
        .fetch_add(1, Ordering::Relaxed)
        .wrapping_add(std::process::id() * 7);
    for k in 0..POOL {
        let id = (start.wrapping_add(k)) % POOL;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_CLOEXEC)
            .open(dir.join(format!("box-{id}.lock")))?;
        if let Ok(lock) = Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            return Ok(BoxLease { id, _lock: lock });
        }
    }
    Err(io::Error::other(format!("all {POOL} sandbox boxes are in use")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_leases_get_different_boxes_and_are_released() {
        let dir = tempfile::tempdir().unwrap();
        let a = lease(dir.path()).unwrap();
        let b = lease(dir.path()).unwrap();
        assert_ne!(a.id, b.id);
        assert!(a.uid() >= FIRST_UID && a.uid() < FIRST_UID + POOL);
        // While held, its lock file cannot be locked; once dropped, it can.
        let lock_of = |id: u32| {
            let f = File::options()
                .write(true)
                .open(dir.path().join(format!("box-{id}.lock")))
                .unwrap();
            Flock::lock(f, FlockArg::LockExclusiveNonblock).is_ok()
        };
        assert!(!lock_of(a.id));
        let id = a.id;
        drop(a);
        assert!(lock_of(id));
        drop(b);
    }
}
