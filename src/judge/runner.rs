//! Running a program on one input: one trait, two ways, chosen once by the
//! caller. [`Sandboxed`] runs it in the [`Sandbox`] under limits (what
//! grading, CI and stress use); [`Bare`] spawns it directly, with no
//! limits and no work folder, which is what the sandbox's cost is measured
//! against (`bench`).

use crate::judge::sandbox::{RunResult, RunSpec, Sandbox, SandboxError, Status};
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Why a program could not be run at all (never the program's fault).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The sandbox failed.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// The bare run could not start or be waited for.
    #[error("{program}: {source}")]
    Spawn {
        /// The program.
        program: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// Runs a program on one input.
pub trait Runner: Sync {
    /// Runs `spec`, capturing its output.
    fn run(&self, spec: &RunSpec) -> Result<RunResult, RunError>;
}

/// Runs in the sandbox, under the spec's limits.
pub struct Sandboxed<'a>(pub &'a Sandbox);

impl Runner for Sandboxed<'_> {
    fn run(&self, spec: &RunSpec) -> Result<RunResult, RunError> {
        Ok(self.0.run(spec)?)
    }
}

/// Runs the program directly (spawn, wait; stdin from a file): no limits, no work
/// folder (but a temporary one holding the input and output files of file
/// I/O). A program or argument naming one of the spec's files is replaced
/// by that file's own path. CPU time and memory are not measured (0).
pub struct Bare;

impl Runner for Bare {
    fn run(&self, spec: &RunSpec) -> Result<RunResult, RunError> {
        let resolve = |name: &std::ffi::OsStr| {
            spec.files
                .iter()
                .find(|(_, dest)| std::ffi::OsStr::new(dest) == name)
                .map_or_else(|| name.to_os_string(), |(src, _)| src.clone().into_os_string())
        };
        let program = PathBuf::from(resolve(spec.program.as_os_str()));
        let spawn_error = |source| RunError::Spawn {
            program: program.clone(),
            source,
        };
        let io_dir = match (&spec.input_file, &spec.output_file) {
            (None, None) => None,
            _ => Some(tempfile::tempdir().map_err(spawn_error)?),
        };
        let mut command = Command::new(&program);
        if let Some(dir) = &io_dir {
            command.current_dir(dir.path());
            if let Some(name) = &spec.input_file {
                std::fs::write(dir.path().join(name), &spec.stdin).map_err(spawn_error)?;
            }
        }
        // Stdin is a file, as in the sandbox: nothing is written into a pipe
        // the program may close without reading (a SIGPIPE would end the
        // judge, which restores the default disposition for `| head`).
        let mut stdin = tempfile::tempfile().map_err(spawn_error)?;
        if spec.input_file.is_none() {
            stdin.write_all(&spec.stdin).map_err(spawn_error)?;
            stdin.seek(SeekFrom::Start(0)).map_err(spawn_error)?;
        }
        let start = Instant::now();
        let child = command
            .args(spec.args.iter().map(|a| resolve(a)))
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let out = child.wait_with_output().map_err(spawn_error)?;
        let wall_ms = start.elapsed().as_millis() as u64;
        let status = match (out.status.code(), out.status.signal()) {
            (Some(code), _) => Status::Exited(code),
            (None, Some(signal)) => Status::Signaled(signal),
            (None, None) => Status::Exited(-1),
        };
        Ok(RunResult {
            status,
            cpu_ms: 0,
            wall_ms,
            peak_memory_kib: 0,
            stdout: out.stdout,
            stderr: out.stderr,
            output_file: io_dir
                .zip(spec.output_file.as_ref())
                .and_then(|(dir, name)| std::fs::read(dir.path().join(name)).ok()),
        })
    }
}
