//! Whose runs these are on the host: the judge's pid that names every run
//! folder and run cgroup (also from a runner, forked from the launcher), and
//! the launcher's folder of run folders. One place that `cgroup`,
//! `workdir` and `launcher` all read, so that none of them imports another
//! for it.

use std::fs;
use std::io;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The name every run folder starts with, followed by the judge's pid, so
/// that a later judge can tell a dead judge's leftovers.
pub(crate) const PREFIX: &str = "mayan-judge-";

/// In a launcher and its runners: the judge's pid.
static JUDGE: OnceLock<u32> = OnceLock::new();

/// Records, in the launcher, the pid of the judge it serves (once).
pub(crate) fn serve_judge(judge: u32) {
    let _ = JUDGE.set(judge);
}

/// The pid that names a run's work folder and cgroups: the judge's, also
/// in a runner, so that what a killed judge left is known by its pid (a
/// judge's next start removes what belongs to a dead pid).
pub(crate) fn owner_pid() -> u32 {
    JUDGE.get().copied().unwrap_or_else(std::process::id)
}

/// The folder a launcher keeps its runs' folders in, `mayan-judge-<judge
/// pid>-runs` in the system temp dir, made if need be (mode 0711, as a run
/// folder's base on the host: each run's own base decides who may enter
/// it): named like a run folder, so what a killed judge left goes with
/// its others.
pub(crate) fn launcher_root(judge: u32) -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = launcher_root_path(judge);
    match fs::DirBuilder::new().mode(0o711).create(&dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(dir),
    }
}

/// Where [`launcher_root`] puts the folder of judge `judge`'s launcher.
pub(crate) fn launcher_root_path(judge: u32) -> PathBuf {
    std::env::temp_dir().join(format!("{PREFIX}{judge}-runs"))
}
