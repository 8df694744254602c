//! `mayan-judge solve`: print the reference answer of each puzzle, and with
//! `--stats` what the search did (nodes, time, the memo, peak memory).
//! Also the peak-memory probe that `bench` shares.

use super::read_input;
use crate::cli::SolveArgs;
use crate::puzzle::sim::Puzzle;
use crate::puzzle::solver::{Answer, Limits, MemorySize, solve_with};
use anyhow::{Context, Result};
use std::io::Write;

/// Runs `solve`; returns the exit code (0, or 2 when a puzzle is invalid).
pub fn run(args: &SolveArgs) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let many = args.files.len() > 1;
    let limits = Limits {
        memory: args.memory.0,
    };
    let mut code = 0;
    for file in &args.files {
        let text = read_input(file)?;
        let puzzle = match Puzzle::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                code = 2;
                continue;
            }
        };
        let (answer, peak) = measured(|| solve_with(&puzzle, args.reading, limits));
        if many {
            writeln!(out, "== {}", file.display())?;
        }
        out.write_all(answer.to_text().as_bytes())
            .context("writing the answer")?;
        out.flush()?;
        if args.stats {
            eprintln!("{}: {}", file.display(), describe(&answer, peak));
        }
    }
    Ok(code)
}

/// One line of statistics: nodes, memo, time, peak memory.
fn describe(answer: &Answer, peak: Option<u64>) -> String {
    let s = answer.stats;
    let peak = peak.map_or("peak memory unknown".to_string(), |b| {
        format!("peak memory {:.1} MiB", b as f64 / (1 << 20) as f64)
    });
    format!(
        "{} nodes, {} memo hits, {} dead states stored ({} table, {} replaced), {:.3} ms, {peak}",
        s.nodes,
        s.memo_hits,
        s.memo_size,
        MemorySize(s.memo_bytes),
        s.memo_replaced,
        s.elapsed.as_secs_f64() * 1e3
    )
}

/// Runs `f` and measures the process's peak resident memory while it ran,
/// in bytes: the kernel's high-water mark (`VmHWM`), first lowered to the
/// current size (`/proc/self/clear_refs`) so that an earlier, larger solve
/// does not hide this one; before that, memory that earlier solves freed is
/// handed back to the system, or it would still count. Falls back to
/// `getrusage`'s `ru_maxrss` (the peak of the whole process) where the mark
/// cannot be reset; `None` when neither is available.
pub fn measured<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    release_freed_memory();
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let value = f();
    let peak = if reset { high_water_mark() } else { None };
    (value, peak.or_else(max_rss))
}

/// `VmHWM` of `/proc/self/status`, in bytes.
fn high_water_mark() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| {
        let kib: u64 = l
            .strip_prefix("VmHWM:")?
            .trim()
            .strip_suffix("kB")?
            .trim()
            .parse()
            .ok()?;
        Some(kib * 1024)
    })
}

/// The process's peak resident memory from `getrusage`, in bytes.
fn max_rss() -> Option<u64> {
    use nix::sys::resource::{UsageWho, getrusage};
    let kib = getrusage(UsageWho::RUSAGE_SELF).ok()?.max_rss();
    u64::try_from(kib).ok().filter(|&k| k > 0).map(|k| k * 1024)
}

/// Returns the heap's free pages to the system (glibc keeps freed blocks of
/// up to 32 MiB for reuse, which would count as resident).
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: glibc's malloc_trim only releases free memory of the
        // allocator Rust uses here (the system allocator); no pointer the
        // program holds is touched.
        unsafe {
            malloc_trim(0);
        }
    }
}
