//! Judging programs: running untrusted code and turning runs into verdicts.
//! `sandbox` is the only code that starts an untrusted process (compilers
//! included); `submission` turns a file into a runnable program (compiling it
//! in the sandbox, with a private cache; `pch`: C++'s standard header
//! precompiled once for them); `runner` is the one trait through
//! which a program is run (sandboxed, or bare for benchmarks); `grading` is
//! the one judging path (run under limits, check, verdict) that `grade`,
//! `ci`, `stress` and `bench` share; `reason` is how a run ended, as data;
//! `stress` searches random boards for a
//! failure and shrinks it; `pool` is the one set of `--jobs` slots a
//! command's compilations and runs draw from; `doctor` checks what the machine gives the
//! sandbox and what makes its timings noisy.

pub mod doctor;
pub mod grading;
pub mod pch;
pub mod pool;
pub mod reason;
pub mod runner;
pub mod sandbox;
pub mod stress;
pub mod submission;
