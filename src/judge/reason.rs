//! Why a run, not the checker, decided a test's verdict ([`RunReason`]),
//! the notes a test's reason may carry ([`Notes`]), and why a contestant
//! has nothing graded ([`NoProgram`]): data, as the
//! checker's `Reason` is. `Display` gives the judge's English words (the
//! text JSON, JUnit and CSV carry); `report::words` words them in a
//! person's language from the data, never from the English text.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a run ended when its output was not judged (a limit, a crash, no
/// output file), or why it could not run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunReason {
    /// Over the CPU time limit; `time_ms` where the run went on past it
    /// and its time is known.
    CpuOver {
        /// The limit, ms.
        limit_ms: u64,
        /// The CPU time used, ms.
        time_ms: Option<u64>,
    },
    /// Ran out of wall time while under the CPU limit (sleeping, blocked).
    WallOver {
        /// The CPU time used, ms.
        cpu_ms: u64,
    },
    /// Exited with a non-zero code.
    ExitCode {
        /// The code.
        code: i32,
    },
    /// Killed by a signal (not one the sandbox sent for a limit).
    Killed {
        /// The signal's name (`SIGSEGV`), or `signal N`.
        signal: String,
    },
    /// Over the memory limit.
    MemoryOver {
        /// The limit, MiB.
        limit_mib: u64,
    },
    /// Over the output limit (or a file over its limit).
    OutputOver {
        /// The limit, KiB.
        limit_kib: u64,
    },
    /// Under file I/O, no output file was written.
    NoOutputFile {
        /// The output file's name.
        file: String,
        /// Whether it wrote to stdout instead.
        wrote_stdout: bool,
    },
    /// The judge could not run the program (the judge's fault).
    JudgeError {
        /// What failed, as the system said it.
        detail: String,
    },
}

impl fmt::Display for RunReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunReason::CpuOver {
                limit_ms,
                time_ms: Some(t),
            } => write!(f, "CPU time over {limit_ms} ms ({t} ms)"),
            RunReason::CpuOver {
                limit_ms,
                time_ms: None,
            } => write!(f, "CPU time over {limit_ms} ms"),
            RunReason::WallOver { cpu_ms } => write!(
                f,
                "wall time over the limit (CPU {cpu_ms} ms): sleeping or blocked?"
            ),
            RunReason::ExitCode { code } => write!(f, "exit code {code}"),
            RunReason::Killed { signal } => write!(f, "killed by {signal}"),
            RunReason::MemoryOver { limit_mib } => write!(f, "memory over {limit_mib} MiB"),
            RunReason::OutputOver { limit_kib } => {
                write!(f, "output over {limit_kib} KiB (or a file over its limit)")
            }
            RunReason::NoOutputFile { file, wrote_stdout } => {
                write!(
                    f,
                    "no {file} was written (file I/O: the output is judged from that file)"
                )?;
                if *wrote_stdout {
                    f.write_str("; it wrote to stdout instead")?;
                }
                Ok(())
            }
            RunReason::JudgeError { detail } => write!(f, "judge error: {detail}"),
        }
    }
}

/// What a test's reason adds to its run's or its checker's words.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notes {
    /// An empty output under stdin and stdout from a program whose source
    /// opens this `.in` file (NOIP file I/O): grade it with `--file-io`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opens_input: Option<String>,
    /// The CPU times of earlier runs, ms, when a TLE close to the limit was
    /// run again (the result is the last run's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_runs_ms: Vec<u64>,
}

impl Notes {
    /// Whether there is nothing to add.
    pub fn is_empty(&self) -> bool {
        self.opens_input.is_none() && self.earlier_runs_ms.is_empty()
    }

    /// The `--file-io` stem of [`Notes::opens_input`] (`mayan` for
    /// `mayan.in`).
    pub fn file_io_stem(name: &str) -> &str {
        name.strip_suffix(".in").unwrap_or(name)
    }

    /// The English hint of [`Notes::opens_input`], appended to the reason.
    pub fn hint(&self) -> String {
        let Some(name) = &self.opens_input else {
            return String::new();
        };
        format!(
            "; its source opens {name}: it reads and writes files (NOIP style), \
             so grade it with --file-io {} (or [io] in problem.toml)",
            Notes::file_io_stem(name)
        )
    }

    /// The English words of [`Notes::earlier_runs_ms`] around `reason`.
    pub fn again(&self, reason: &str) -> String {
        if self.earlier_runs_ms.is_empty() {
            return reason.to_string();
        }
        format!(
            "{reason} [run {} times: TLE close to the limit before ({})]",
            self.earlier_runs_ms.len() + 1,
            ms_list(&self.earlier_runs_ms)
        )
    }
}

/// Times as `1040 ms, 1017 ms`.
pub fn ms_list(times: &[u64]) -> String {
    let times: Vec<String> = times.iter().map(|ms| format!("{ms} ms")).collect();
    times.join(", ")
}

/// Why a contestant has nothing graded, as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NoProgram {
    /// No `<stem>.<ext>` in the contestant's folder nor in its `<stem>/`.
    Missing {
        /// The problem's file stem (`mayan`).
        stem: String,
        /// The contestant's folder's name.
        folder: String,
        /// Programs found under other names.
        near: Vec<String>,
    },
    /// More than one program: one must be kept.
    Several {
        /// The programs, relative to the contestant's folder.
        files: Vec<String>,
    },
    /// The program is a symbolic link (not followed).
    Link {
        /// The link, relative to the contestant's folder.
        file: String,
    },
    /// Nothing submitted (the online judge).
    NoSubmission,
}

impl fmt::Display for NoProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoProgram::Missing { stem, folder, near } => {
                write!(f, "no program: no {stem}.<ext> in {folder}/ or {folder}/{stem}/")?;
                if !near.is_empty() {
                    let near = near.join(", ");
                    write!(f, " (found {near}: the file must be named {stem}.<ext>)")?;
                }
                Ok(())
            }
            NoProgram::Several { files } => {
                write!(f, "{} programs: {}; keep one", files.len(), files.join(", "))
            }
            NoProgram::Link { file } => write!(f, "{file} is a symbolic link (not followed)"),
            NoProgram::NoSubmission => f.write_str("no submission"),
        }
    }
}

/// Why the judge could not grade a submission (its fault, not the
/// contestant's), as data where a person can act on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JudgeProblem {
    /// The compiler or interpreter of the language is not installed.
    MissingTool {
        /// `compiler` or `interpreter`.
        what: String,
        /// The command.
        name: String,
        /// The language.
        language: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_reason_reads_back_from_json_with_a_stable_kind() {
        let r = RunReason::NoOutputFile {
            file: "mayan.out".into(),
            wrote_stdout: true,
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"no_output_file","file":"mayan.out","wrote_stdout":true}"#
        );
        assert_eq!(serde_json::from_str::<RunReason>(&json).unwrap(), r);
    }
}
