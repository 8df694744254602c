//! `mayan-judge bench --only compile`: a compile-bound class, C++ programs
//! that include `<bits/stdc++.h>` (as most NOIP programs do), graded by
//! this executable's `grade --jobs J` three times in the same run: with no
//! precompiled header (`MAYAN_JUDGE_PCH=0`, plain `g++` as before), with
//! the header built during the grading (a fresh cache: the first
//! compilation builds it), and with it built already (the steady state:
//! it is kept in the cache). Every program is distinct in every round, so
//! the compile cache never answers; each side has a cache of its own. The
//! figures are ratios to the plain round, with the header's size on disk.

use super::Targets;
use crate::judge::submission::default_cache_dir;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The accepted C++ reference, which the class's programs start from.
const ACCEPTED_CPP: &str = include_str!("../../../reference/mayan/accepted/backtrack.cpp");

/// The test each program is graded on (the compilation is what is measured).
const TEST: &str = "sample/1";

/// What is measured.
pub struct CompileOptions {
    /// Programs in the class.
    pub class: usize,
    /// `grade --jobs`.
    pub jobs: usize,
    /// No progress.
    pub quiet: bool,
}

/// Runs the part and prints its figures and targets.
pub fn run(o: &CompileOptions) -> Result<()> {
    if crate::judge::submission::which("g++").is_none() {
        println!("g++ not found: the compile benchmark needs it.");
        return Ok(());
    }
    // Out of /tmp: a compilation's sandbox mounts its own /tmp, where no
    // header could be shown to it.
    let base = default_cache_dir();
    crate::judge::submission::check_cache_dir(&base)?;
    let dir = tempfile::Builder::new()
        .prefix("bench-compile-")
        .tempdir_in(&base)
        .with_context(|| format!("making a folder in {}", base.display()))?;
    let say = |what: &str| {
        if !o.quiet {
            eprintln!("{what}");
        }
    };
    say("plain g++: no precompiled header");
    let plain = grade_class(dir.path(), "plain", o, false)?;
    say("a fresh cache: the first compilation builds the header");
    let cold = grade_class(dir.path(), "cold", o, true)?;
    say("the header built already");
    let warm = grade_class_in(dir.path(), "warm", &dir.path().join("cache-cold"), o, true)?;
    let header = header_bytes(&dir.path().join("cache-cold"));
    report(o, plain, cold, warm, header);
    Ok(())
}

/// Prints the table and the targets.
fn report(o: &CompileOptions, plain: Duration, cold: Duration, warm: Duration, header: Option<u64>) {
    let ratio = |d: Duration| d.as_secs_f64() / plain.as_secs_f64().max(1e-9);
    let rate = |d: Duration| o.class as f64 / d.as_secs_f64().max(1e-9);
    println!();
    println!(
        "A class of {} C++ programs including <bits/stdc++.h> (every one distinct: no compile cache hit), graded with --jobs {} on {TEST}:",
        o.class, o.jobs
    );
    println!("side                                   wall       programs/s  ratio to plain");
    for (what, d) in [
        ("plain g++ (MAYAN_JUDGE_PCH=0)", plain),
        ("header built during the grading", cold),
        ("header built already", warm),
    ] {
        println!(
            "{what:<38} {:>7.2} s  {:>9.2}   {:.2}",
            d.as_secs_f64(),
            rate(d),
            ratio(d)
        );
    }
    match header {
        Some(bytes) => println!(
            "the precompiled header: {:.0} MiB on disk",
            bytes as f64 / (1 << 20) as f64
        ),
        None => {
            println!("no precompiled header was built (a cache under /tmp, or no isolation: see GRADING.md)")
        }
    }
    let mut targets = Targets::default();
    targets.add(
        "compile-bound class, header built, against plain g++",
        ratio(warm) <= 0.4,
        format!("{:.2} of plain g++'s wall time (<= 0.4)", ratio(warm)),
    );
    targets.print();
}

/// Grades round `round`'s class with a cache of its own.
fn grade_class(dir: &Path, round: &str, o: &CompileOptions, pch: bool) -> Result<Duration> {
    grade_class_in(dir, round, &dir.join(format!("cache-{round}")), o, pch)
}

/// Writes round `round`'s class (distinct programs) and grades it with
/// `cache`: the wall time.
fn grade_class_in(dir: &Path, round: &str, cache: &Path, o: &CompileOptions, pch: bool) -> Result<Duration> {
    let class = dir.join(round);
    std::fs::create_dir_all(&class)?;
    let programs: Vec<PathBuf> = (0..o.class)
        .map(|i| {
            let path = class.join(format!("p{i:02}.cpp"));
            let code = format!("#include <bits/stdc++.h>\n// {round}, contestant {i}\n{ACCEPTED_CPP}");
            std::fs::write(&path, code).map(|()| path)
        })
        .collect::<std::io::Result<_>>()?;
    let exe = std::env::current_exe().context("finding this executable")?;
    let mut command = Command::new(exe);
    command
        .args(["grade", "--quiet", "--jobs", &o.jobs.to_string(), "--tests", TEST])
        .env("MAYAN_JUDGE_CACHE", cache)
        .env(crate::judge::pch::ENV_SWITCH, if pch { "1" } else { "0" })
        .args(&programs);
    let start = Instant::now();
    let out = command.output().context("running grade")?;
    let wall = start.elapsed();
    if !out.status.success() {
        bail!(
            "grade of the class ({round}) failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(wall)
}

/// The bytes of the precompiled headers in `cache` (`None`: none).
fn header_bytes(cache: &Path) -> Option<u64> {
    let bytes: u64 = walkdir::WalkDir::new(cache)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "gch"))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum();
    (bytes > 0).then_some(bytes)
}
