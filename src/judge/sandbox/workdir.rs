//! Work folders and file permissions for sandboxed runs, and their removal.
//!
//! Layout, per run ([`Workspace`]): a base folder
//! `mayan-judge-<judge pid>-XXXXXX` in the system temp dir (mode 0700, or
//! 0711 when the program runs on the host's file system)
//! holding the unlinked stdin file, the work folder `box` (owned by the
//! program's user; a tmpfs of its own when the judge is root) and `root`,
//! the mount point of the run's private root. Removal never follows a link
//! and never recurses ([`remove_tree`]), so no tree a program leaves can
//! make it fail or touch anything outside.
//!
//! Under file I/O the test's input is written into the work folder
//! read-only ([`write_read_only`]) and the output file read back
//! ([`Workspace::read_back`]) on the same terms as any file collected: a
//! regular file only, never through a link, at most a given size.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

use nix::unistd::{Gid, Uid, chown};

use super::owner::PREFIX;

/// One run's folders on the host: a base folder only the judge can enter
/// (mode 0700), holding the work folder (`box`: the program's, a tmpfs of
/// its own when the judge may mount, owned by the program's user) and the
/// mount point of the private root (`root`).
#[derive(Debug)]
pub(crate) struct Workspace {
    base: PathBuf,
    /// The work folder: `/box` inside the sandbox.
    pub(crate) box_dir: PathBuf,
    /// Mount point of the private root.
    pub(crate) root_dir: PathBuf,
    mounted: bool,
}

impl Workspace {
    /// Creates the folders; with `tmpfs_bytes`, mounts a tmpfs of that size
    /// on the work folder (root only), so that removing it is an unmount.
    pub(crate) fn create(
        work_root: Option<&Path>,
        owner: Option<(Uid, Gid)>,
        tmpfs_bytes: Option<u64>,
    ) -> io::Result<Workspace> {
        let mut b = tempfile::Builder::new();
        let prefix = format!("{PREFIX}{}-", super::owner::owner_pid());
        b.prefix(&prefix);
        let base = match work_root {
            Some(r) => b.tempdir_in(r)?,
            None => b.tempdir()?,
        }
        .keep();
        let ws = Workspace {
            box_dir: base.join("box"),
            root_dir: base.join("root"),
            base,
            mounted: false,
        };
        ws.fill(owner, tmpfs_bytes)
    }

    fn fill(mut self, owner: Option<(Uid, Gid)>, tmpfs_bytes: Option<u64>) -> io::Result<Workspace> {
        // Isolated, the program never sees host paths: the base is the
        // judge's alone. Otherwise it must traverse (not list) it to reach
        // its work folder.
        let base_mode = if tmpfs_bytes.is_some() { 0o700 } else { 0o711 };
        fs::set_permissions(&self.base, fs::Permissions::from_mode(base_mode))?;
        fs::create_dir(&self.box_dir)?;
        fs::create_dir(&self.root_dir)?;
        if let Some(bytes) = tmpfs_bytes {
            let (uid, gid) = owner.map_or((0, 0), |(u, g)| (u.as_raw(), g.as_raw()));
            let options = format!("size={bytes},nr_inodes=65536,mode=0700,uid={uid},gid={gid}");
            nix::mount::mount(
                Some("mayan-judge-box"),
                &self.box_dir,
                Some("tmpfs"),
                nix::mount::MsFlags::MS_NOSUID | nix::mount::MsFlags::MS_NODEV,
                Some(options.as_str()),
            )
            .map_err(io::Error::from)?;
            self.mounted = true;
        } else {
            fs::set_permissions(&self.box_dir, fs::Permissions::from_mode(0o700))?;
            if let Some((uid, gid)) = owner {
                chown(&self.box_dir, Some(uid), Some(gid))?;
            }
        }
        Ok(self)
    }

    /// The base folder (for the unlinked stdin file).
    pub(crate) fn base(&self) -> &Path {
        &self.base
    }

    /// Opens `name` in the work folder if it is a regular file, without
    /// following a link (nor blocking on a FIFO); `None` otherwise.
    fn open_regular(&self, name: &str) -> io::Result<Option<(fs::File, fs::Metadata)>> {
        let Ok(src) = fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
            .open(self.box_dir.join(name))
        else {
            return Ok(None);
        };
        let meta = src.metadata()?;
        Ok(meta.is_file().then_some((src, meta)))
    }

    /// Copies `name` out of the work folder to `dest` if it is a regular
    /// file (a link the program left there is not followed), at most
    /// `max_bytes`; `Ok(false)` when there is no such file.
    pub(crate) fn collect(&self, name: &str, dest: &Path, max_bytes: u64) -> io::Result<bool> {
        use std::io::Read;
        let Some((src, meta)) = self.open_regular(name)? else {
            return Ok(false);
        };
        if meta.len() > max_bytes {
            return Ok(false);
        }
        io::copy(&mut src.take(max_bytes), &mut fs::File::create(dest)?)?;
        fs::set_permissions(dest, fs::Permissions::from_mode(meta.mode() & 0o755 | 0o600))?;
        Ok(true)
    }

    /// Reads `name` out of the work folder into memory, on the terms of
    /// [`Workspace::collect`].
    pub(crate) fn read_back(&self, name: &str, max_bytes: u64) -> io::Result<ReadBack> {
        use std::io::Read;
        let Some((src, meta)) = self.open_regular(name)? else {
            return Ok(ReadBack::Missing);
        };
        if meta.len() > max_bytes {
            return Ok(ReadBack::TooLarge);
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        src.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max_bytes {
            return Ok(ReadBack::TooLarge);
        }
        Ok(ReadBack::Bytes(bytes))
    }

    /// Removes everything: unmounts the work folder's tmpfs (whatever the
    /// program left in it goes at once), then removes the folders without
    /// following links.
    pub(crate) fn remove(self) {
        if self.mounted {
            let _ = nix::mount::umount2(&self.box_dir, nix::mount::MntFlags::MNT_DETACH);
        }
        let _ = remove_tree(&self.base);
    }
}

/// What [`Workspace::read_back`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ReadBack {
    /// No regular file of that name (none, a link, a folder, a FIFO).
    Missing,
    /// A regular file over the size allowed.
    TooLarge,
    /// The file's bytes.
    Bytes(Vec<u8>),
}

/// Writes `bytes` to a new file `dir/name` with mode 0444, owned by the
/// judge: the program can read it, and neither write nor chmod it (unless it
/// runs as the judge's own user, on a machine without isolation). Whatever
/// was there by that name goes first.
pub(crate) fn write_read_only(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let path = dir.join(name);
    match fs::remove_file(&path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o444)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(&path)?;
    f.write_all(bytes)?;
    // The mode asked for is masked by the umask: set it as meant.
    f.set_permissions(fs::Permissions::from_mode(0o444))
}

/// Removes what judges that died left in `work_root`: run folders whose
/// judge process is gone (their tmpfs is unmounted first).
pub(crate) fn remove_stale(work_root: &Path) {
    let Ok(entries) = fs::read_dir(work_root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        let alive = super::procscan::exists(pid);
        let own = entry
            .metadata()
            .is_ok_and(|m| m.uid() == nix::unistd::geteuid().as_raw());
        if !alive && own {
            let _ = nix::mount::umount2(&entry.path().join("box"), nix::mount::MntFlags::MNT_DETACH);
            let _ = remove_tree(&entry.path());
        }
    }
}

/// Whether `name` is a plain file name (no separators, not `.`/`..`).
pub(crate) fn is_plain_name(name: &str) -> bool {
    let mut c = Path::new(name).components();
    matches!((c.next(), c.next()), (Some(Component::Normal(n)), None) if n == name)
}

/// Copies `src` to `dir/name`, keeping its mode, owned by `owner`.
pub(crate) fn copy_in(src: &Path, dir: &Path, name: &str, owner: Option<(Uid, Gid)>) -> io::Result<PathBuf> {
    let dest = dir.join(name);
    fs::copy(src, &dest)?;
    let mode = fs::metadata(&dest)?.permissions().mode();
    // The owner (the program's user) must be able to read it.
    fs::set_permissions(
        &dest,
        fs::Permissions::from_mode((mode & 0o7777 & !0o6000) | 0o600),
    )?;
    if let Some((uid, gid)) = owner {
        chown(&dest, Some(uid), Some(gid))?;
    }
    Ok(dest)
}

/// Checks that `uid`/`gid` (no supplementary groups) can execute `path`:
/// every directory on the way must be searchable and the file executable.
/// Returns a human-readable reason when not.
pub(crate) fn check_executable_by(path: &Path, uid: Uid, gid: Gid) -> Result<(), String> {
    let can = |meta: &fs::Metadata, bit: u32| -> bool {
        let mode = meta.mode();
        if meta.uid() == uid.as_raw() {
            mode & (bit << 6) != 0
        } else if meta.gid() == gid.as_raw() {
            mode & (bit << 3) != 0
        } else {
            mode & bit != 0
        }
    };
    let real = fs::canonicalize(path).map_err(|e| format!("cannot resolve it: {e}"))?;
    let mut dir = PathBuf::from("/");
    for comp in real.parent().into_iter().flat_map(Path::components) {
        dir.push(comp);
        let meta = fs::metadata(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if !can(&meta, 0o1) {
            return Err(format!(
                "directory {} is not searchable by uid {uid} (mode {:o}); \
                 install it somewhere world-readable, or pass it in `files`",
                dir.display(),
                meta.mode() & 0o7777
            ));
        }
    }
    let meta = fs::metadata(&real).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", real.display()));
    }
    if !can(&meta, 0o1) {
        return Err(format!(
            "{} is not executable by uid {uid} (mode {:o})",
            real.display(),
            meta.mode() & 0o7777
        ));
    }
    Ok(())
}

/// Removes `path` and everything below it without following a symbolic
/// link and without recursion: it walks down by `openat(O_NOFOLLOW)` from
/// the folder it holds open, and back up through `..`, so a chain of any
/// depth costs a few descriptors and one name per level, and a link the
/// program left (to `/etc`, say) is unlinked, never entered or changed.
pub(crate) fn remove_tree(path: &Path) -> io::Result<()> {
    use rustix::fs::{AtFlags, Dir, Mode, OFlags, openat, unlinkat};
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(io::Error::other("not a removable path"));
    };
    let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let open_dir = |at: &OwnedFd, name: &OsStr| -> io::Result<OwnedFd> {
        match openat(at, name, dir_flags, Mode::empty()) {
            Ok(fd) => Ok(fd),
            Err(rustix::io::Errno::ACCESS) => {
                // A folder the program made unreadable: it is its own (or
                // the judge's) folder, reached without following a link.
                let p = openat(
                    at,
                    name,
                    OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW,
                    Mode::empty(),
                )?;
                rustix::fs::chmod(
                    format!("/proc/self/fd/{}", p.as_raw_fd()),
                    Mode::from_raw_mode(0o700),
                )?;
                Ok(openat(at, name, dir_flags, Mode::empty())?)
            }
            Err(e) => Err(e.into()),
        }
    };
    let top = openat(rustix::fs::CWD, parent, dir_flags, Mode::empty())?;
    if unlinkat(&top, name, AtFlags::empty()).is_ok() {
        return Ok(()); // a file or a link
    }
    // The names from `path` down to the folder being emptied.
    let mut names: Vec<std::ffi::OsString> = vec![name.to_os_string()];
    let mut current = open_dir(&top, name)?;
    loop {
        let mut subdir = None;
        for entry in Dir::read_from(&current)? {
            let entry = entry?;
            let n = OsStr::from_bytes(entry.file_name().to_bytes());
            if n == "." || n == ".." {
                continue;
            }
            if unlinkat(&current, n, AtFlags::empty()).is_err() {
                match unlinkat(&current, n, AtFlags::REMOVEDIR) {
                    Ok(()) => {}
                    Err(_) => {
                        subdir = Some(n.to_os_string());
                        break;
                    }
                }
            }
        }
        if let Some(n) = subdir {
            // Go down into a non-empty folder.
            let _ = rustix::fs::fchmod(&current, Mode::from_raw_mode(0o700));
            current = open_dir(&current, &n)?;
            names.push(n);
            continue;
        }
        // Empty: go up and remove it.
        let done = names.pop().expect("at least the top name");
        if names.is_empty() {
            drop(current);
            // The parent is not the tree's: never change it.
            unlinkat(&top, &done, AtFlags::REMOVEDIR)?;
            return Ok(());
        }
        let up = openat(&current, "..", dir_flags, Mode::empty())?;
        drop(current);
        unlinkat(&up, &done, AtFlags::REMOVEDIR)?;
        current = up;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_tree_with_links_is_removed_without_touching_what_they_point_to() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), "x").unwrap();
        std::fs::set_permissions(outside.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let base = tempfile::tempdir().unwrap();
        let top = base.path().join("run");
        let mut p = top.clone();
        for _ in 0..3_000 {
            p.push("d");
        }
        // Deeper than PATH_MAX (3000 levels of "d/" is 6000 bytes): build it
        // step by step from inside.
        std::fs::create_dir(&top).unwrap();
        let mut fd =
            rustix::fs::open(&top, rustix::fs::OFlags::DIRECTORY, rustix::fs::Mode::empty()).unwrap();
        for _ in 0..3_000 {
            rustix::fs::mkdirat(&fd, "d", rustix::fs::Mode::from_raw_mode(0o755)).unwrap();
            fd = rustix::fs::openat(&fd, "d", rustix::fs::OFlags::DIRECTORY, rustix::fs::Mode::empty())
                .unwrap();
        }
        rustix::fs::symlinkat(outside.path(), &fd, "link").unwrap();
        std::os::unix::fs::symlink(outside.path(), top.join("link")).unwrap();
        std::fs::create_dir(top.join("locked")).unwrap();
        std::fs::write(top.join("locked/f"), "x").unwrap();
        std::fs::set_permissions(top.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
        std::fs::set_permissions(base.path(), fs::Permissions::from_mode(0o1777)).unwrap();
        remove_tree(&top).unwrap();
        assert!(!top.exists());
        // The folder it stood in (say /tmp) keeps its mode.
        assert_eq!(fs::metadata(base.path()).unwrap().mode() & 0o7777, 0o1777);
        assert!(outside.path().join("keep").exists());
        assert_eq!(fs::metadata(outside.path()).unwrap().mode() & 0o7777, 0o755);
    }

    #[test]
    fn an_output_file_is_read_back_only_as_a_regular_file_within_its_cap() {
        let root = tempfile::tempdir().unwrap();
        let ws = Workspace::create(Some(root.path()), None, None).unwrap();
        write_read_only(&ws.box_dir, "mayan.in", b"1\n").unwrap();
        let meta = fs::metadata(ws.box_dir.join("mayan.in")).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o444);
        // Written again (a retried start) over the read-only one.
        write_read_only(&ws.box_dir, "mayan.in", b"2\n").unwrap();
        assert_eq!(
            ws.read_back("mayan.in", 10).unwrap(),
            ReadBack::Bytes(b"2\n".to_vec())
        );
        std::fs::write(ws.box_dir.join("big.out"), [b'1'; 11]).unwrap();
        assert_eq!(ws.read_back("big.out", 10).unwrap(), ReadBack::TooLarge);
        std::os::unix::fs::symlink("/etc/passwd", ws.box_dir.join("link.out")).unwrap();
        assert_eq!(ws.read_back("link.out", 1 << 20).unwrap(), ReadBack::Missing);
        std::fs::create_dir(ws.box_dir.join("dir.out")).unwrap();
        assert_eq!(ws.read_back("dir.out", 10).unwrap(), ReadBack::Missing);
        assert_eq!(ws.read_back("none.out", 10).unwrap(), ReadBack::Missing);
        ws.remove();
    }

    #[test]
    fn plain_names() {
        assert!(is_plain_name("a.out"));
        assert!(is_plain_name("main.py"));
        assert!(!is_plain_name(""));
        assert!(!is_plain_name("."));
        assert!(!is_plain_name(".."));
        assert!(!is_plain_name("a/b"));
        assert!(!is_plain_name("/etc/passwd"));
        assert!(!is_plain_name("a/"));
    }
}
