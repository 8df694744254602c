//! Turning what was observed during a run into a [`Status`].
//!
//! Pure functions, so the heuristics (notably the memory-limit one, see
//! [`Status::MemoryLimit`]) are unit-tested without running anything.

use nix::sys::signal::Signal;

use super::cgroup::MemoryStats;
use super::monitor::Ended;
use super::{Limits, Status};

/// Everything the verdict of a run depends on.
pub(crate) struct Evidence<'a> {
    pub(crate) ended: Ended,
    pub(crate) output_exceeded: bool,
    pub(crate) killed_for_cpu: bool,
    pub(crate) killed_for_wall: bool,
    pub(crate) cpu_ms: u64,
    pub(crate) peak_memory_kib: u64,
    pub(crate) memory: MemoryStats,
    pub(crate) cgroup_memory: bool,
    pub(crate) stderr: &'a [u8],
}

/// The [`Status`] of a run; first match wins: output limit (the sandbox
/// killed it for that), CPU limit, wall limit, memory limit (see
/// [`Status::MemoryLimit`]), file size (`SIGXFSZ`), then how it ended.
pub(crate) fn classify(e: &Evidence<'_>, limits: &Limits) -> Status {
    let (code, signal) = match e.ended {
        Ended::Exited(c) => (Some(c), None),
        Ended::Signaled(s) => (None, Some(s)),
    };
    let failed = code != Some(0);
    let near_limit = e.peak_memory_kib.saturating_mul(10)
        >= limits
            .memory_kib
            .saturating_mul(if e.cgroup_memory { 9 } else { 8 });
    let memory_exceeded = e.memory.oom_kills > 0
        || (failed
            && (e.memory.limit_hits > 0
                || near_limit
                || (!e.cgroup_memory && allocation_failure_in(e.stderr))));
    if e.output_exceeded {
        Status::OutputLimit
    } else if e.killed_for_cpu || e.cpu_ms > limits.cpu_ms || signal == Some(Signal::SIGXCPU as i32) {
        Status::TimeLimit { wall: false }
    } else if e.killed_for_wall {
        Status::TimeLimit { wall: true }
    } else if memory_exceeded {
        Status::MemoryLimit
    } else if signal == Some(Signal::SIGXFSZ as i32) {
        Status::OutputLimit
    } else if let Some(s) = signal {
        Status::Signaled(s)
    } else {
        Status::Exited(code.unwrap_or(-1))
    }
}

/// Whether stderr shows a failed allocation (used without a memory cgroup).
fn allocation_failure_in(stderr: &[u8]) -> bool {
    const MARKERS: [&str; 5] = [
        "MemoryError",
        "std::bad_alloc",
        "out of memory",
        "Cannot allocate memory",
        "memory allocation of",
    ];
    let text = String::from_utf8_lossy(stderr);
    MARKERS.iter().any(|m| text.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(ended: Ended) -> Evidence<'static> {
        Evidence {
            ended,
            output_exceeded: false,
            killed_for_cpu: false,
            killed_for_wall: false,
            cpu_ms: 10,
            peak_memory_kib: 1000,
            memory: MemoryStats::default(),
            cgroup_memory: true,
            stderr: b"",
        }
    }

    #[test]
    fn classification() {
        use Ended::{Exited, Signaled};
        let l = Limits::default();
        assert_eq!(classify(&evidence(Exited(0)), &l), Status::Exited(0));
        assert_eq!(classify(&evidence(Signaled(11)), &l), Status::Signaled(11));
        let mut e = evidence(Signaled(9));
        e.memory.oom_kills = 1;
        assert_eq!(classify(&e, &l), Status::MemoryLimit);
        e.killed_for_wall = true;
        assert_eq!(classify(&e, &l), Status::TimeLimit { wall: true });
        e.cpu_ms = l.cpu_ms + 1;
        assert_eq!(classify(&e, &l), Status::TimeLimit { wall: false });
        e.output_exceeded = true;
        assert_eq!(classify(&e, &l), Status::OutputLimit);
        // Without a memory cgroup: stderr marker or peak near the limit.
        let mut e = evidence(Signaled(6));
        e.cgroup_memory = false;
        assert_eq!(classify(&e, &l), Status::Signaled(6));
        e.stderr = b"terminate called after throwing an instance of 'std::bad_alloc'";
        assert_eq!(classify(&e, &l), Status::MemoryLimit);
        let mut e = evidence(Exited(1));
        e.cgroup_memory = false;
        e.peak_memory_kib = l.memory_kib * 85 / 100;
        assert_eq!(classify(&e, &l), Status::MemoryLimit);
        // A successful run near the limit is fine; SIGXFSZ is an output limit.
        let mut e = evidence(Exited(0));
        e.peak_memory_kib = l.memory_kib;
        assert_eq!(classify(&e, &l), Status::Exited(0));
        assert_eq!(classify(&evidence(Signaled(25)), &l), Status::OutputLimit);
        assert_eq!(
            classify(&evidence(Signaled(24)), &l),
            Status::TimeLimit { wall: false }
        );
    }

    #[test]
    fn markers() {
        assert!(allocation_failure_in(b"Traceback...\nMemoryError\n"));
        assert!(allocation_failure_in(
            b"terminate called after throwing an instance of 'std::bad_alloc'"
        ));
        assert!(!allocation_failure_in(b"Segmentation fault"));
    }
}
