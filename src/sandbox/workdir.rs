//! Work directories and file permissions for sandboxed runs.
//!
//! Layout, per run: a base directory `mayan-judge-XXXXXX` in the system
//! temp dir (mode 0711: others may traverse it but not list it) holding the
//! unlinked stdin file and a randomly named run directory (mode 0700, owned
//! by the user the program runs as). The program knows its own directory
//! but cannot list the base, so it cannot tamper with anything else there.

use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

use nix::unistd::{Gid, Uid, chown};
use tempfile::TempDir;

/// Creates a run's base directory.
pub(crate) fn create_base(root: Option<&Path>) -> io::Result<TempDir> {
    let mut b = tempfile::Builder::new();
    b.prefix("mayan-judge-");
    let dir = match root {
        Some(r) => b.tempdir_in(r)?,
        None => b.tempdir()?,
    };
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711))?;
    Ok(dir)
}

/// Creates a fresh run directory in `base`, owned by `owner` if given.
pub(crate) fn create_run_dir(base: &Path, owner: Option<(Uid, Gid)>) -> io::Result<TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("run-")
        .rand_bytes(16)
        .tempdir_in(base)?;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700))?;
    if let Some((uid, gid)) = owner {
        chown(dir.path(), Some(uid), Some(gid))?;
    }
    Ok(dir)
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

/// Removes a run directory, even if the program made parts of it
/// read-only; errors are ignored (a leftover temp dir is not worth
/// failing a verdict for).
pub(crate) fn remove(dir: TempDir) {
    let path = dir.path().to_path_buf();
    if dir.close().is_ok() || !path.exists() {
        return;
    }
    // Make every directory writable/searchable again, then retry.
    fn unlock(p: &Path) {
        let _ = fs::set_permissions(p, fs::Permissions::from_mode(0o700));
        if let Ok(rd) = fs::read_dir(p) {
            for e in rd.flatten() {
                if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                    unlock(&e.path());
                }
            }
        }
    }
    unlock(&path);
    let _ = fs::remove_dir_all(&path);
}

#[cfg(test)]
mod tests {
    use super::*;

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
