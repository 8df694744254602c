//! Turning a submitted file into something the sandbox can run: pick its
//! language, compile it under limits (once: compiled programs are cached by a
//! hash of the source, the language and the compile command), and say how to
//! start it in a fresh work folder.

use crate::package::languages::Language;
use crate::sandbox::{Limits, RunSpec, Sandbox, SandboxError, Status};
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Name of the compiled program inside the work folder.
const EXE_NAME: &str = "solution";

/// Limits for a compiler run: generous, but a compiler bomb still stops.
pub fn compile_limits() -> Limits {
    Limits {
        cpu_ms: 60_000,
        wall_ms: 120_000,
        memory_kib: 4 << 20,
        output_bytes: 1 << 20,
        file_size_bytes: 256 << 20,
        processes: 256,
    }
}

/// What can stop a submission from being prepared, other than a
/// compilation error (which is the contestant's, see [`CompileError`]).
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    /// The source cannot be read.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error (kept out of the error chain: the message already says it).
        cause: std::io::Error,
    },
    /// The compiler or interpreter is not installed.
    #[error("{what} `{name}` for {language} is not installed (not found in PATH)")]
    MissingTool {
        /// "compiler" or "interpreter".
        what: &'static str,
        /// The command.
        name: String,
        /// The language.
        language: String,
    },
    /// The sandbox failed.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
}

/// A compiled (or interpreted) submission, ready to run: a program and
/// arguments, with files copied into the work folder of each run.
#[derive(Clone, Debug)]
pub struct Program {
    /// Program (relative to the work folder, or absolute).
    pub program: PathBuf,
    /// Arguments.
    pub args: Vec<OsString>,
    /// Files to copy into the work folder.
    pub files: Vec<(PathBuf, String)>,
    /// Whether the compiled program came from the cache.
    pub cached: bool,
}

/// The submission did not compile (the contestant's fault, not the judge's).
#[derive(Clone, Debug, thiserror::Error)]
#[error("compilation failed:\n{message}")]
pub struct CompileError {
    /// The compiler's message, shortened.
    pub message: String,
}

/// A prepared submission: the program, or why it did not compile.
pub type Prepared = Result<Program, CompileError>;

impl Program {
    /// The run of this program on one input under limits.
    pub fn spec(&self, stdin: Vec<u8>, limits: Limits) -> RunSpec {
        RunSpec {
            program: self.program.clone(),
            args: self.args.clone(),
            stdin,
            limits,
            files: self.files.clone(),
            env: Vec::new(),
        }
    }
}

/// Where compiled programs are kept: `$MAYAN_JUDGE_CACHE`, else the user's
/// cache folder, else the system temporary folder.
pub fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("MAYAN_JUDGE_CACHE") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("mayan-judge")
}

/// Finds a bare command in `PATH`.
pub fn which(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Some(PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The file name a source keeps inside the work folder (`solution.py`, ...).
fn source_name(source: &Path) -> String {
    match source.extension() {
        Some(ext) => format!("{EXE_NAME}.{}", ext.to_string_lossy()),
        None => EXE_NAME.to_string(),
    }
}

fn substitute(arg: &str, src: &str, exe: &str) -> String {
    arg.replace("{src}", src).replace("{exe}", exe)
}

/// Keeps the first 40 lines / 4000 bytes of a compiler's message.
pub fn shorten(message: &[u8]) -> String {
    let text = String::from_utf8_lossy(message);
    let mut out: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
    if out.len() > 4000 {
        let mut cut = 4000;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    if out.len() < text.trim_end().len() {
        out.push_str("\n[... shortened]");
    }
    out
}

/// Prepares a submission: compiles it (or takes it from the cache) and
/// works out how to run it.
pub fn prepare(
    sandbox: &Sandbox,
    source: &Path,
    language: &Language,
    cache_dir: &Path,
) -> Result<Prepared, SubmissionError> {
    let io = |e| SubmissionError::Io {
        path: source.to_path_buf(),
        cause: e,
    };
    let code = std::fs::read(source).map_err(io)?;
    let src_name = source_name(source);
    let mut files = Vec::new();
    let mut cached = false;
    let exe_path = match &language.compile {
        None => {
            files.push((source.to_path_buf(), src_name.clone()));
            None
        }
        Some(cmd) => {
            let (exe, hit) = compile(sandbox, source, &code, language, cmd, cache_dir)?;
            match exe {
                Ok(exe) => {
                    cached = hit;
                    files.push((exe.clone(), EXE_NAME.to_string()));
                    Some(exe)
                }
                Err(e) => return Ok(Err(e)),
            }
        }
    };
    let exe_in_dir = if exe_path.is_some() { EXE_NAME } else { &src_name };
    let first = substitute(&language.run[0], &src_name, exe_in_dir);
    let program = if language.run[0].contains('{') {
        PathBuf::from(first)
    } else {
        sandbox
            .find_program(&first)
            .ok_or_else(|| SubmissionError::MissingTool {
                what: "interpreter",
                name: first.clone(),
                language: language.name.clone(),
            })?
    };
    let args = language.run[1..]
        .iter()
        .map(|a| OsString::from(substitute(a, &src_name, exe_in_dir)))
        .collect();
    Ok(Ok(Program {
        program,
        args,
        files,
        cached,
    }))
}

/// Compiles into the cache; `(Ok(exe) | Err(compiler message), from cache)`.
fn compile(
    sandbox: &Sandbox,
    source: &Path,
    code: &[u8],
    language: &Language,
    cmd: &[String],
    cache_dir: &Path,
) -> Result<(Result<PathBuf, CompileError>, bool), SubmissionError> {
    let mut hasher = Sha256::new();
    hasher.update(language.name.as_bytes());
    for part in cmd {
        hasher.update([0]);
        hasher.update(part.as_bytes());
    }
    hasher.update([0]);
    hasher.update(code);
    let key: String = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let cached = cache_dir.join(&key);
    if cached.is_file() {
        return Ok((Ok(cached), true));
    }
    if which(&cmd[0]).is_none() {
        return Err(SubmissionError::MissingTool {
            what: "compiler",
            name: cmd[0].clone(),
            language: language.name.clone(),
        });
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |cause| SubmissionError::Io { path, cause }
    };
    std::fs::create_dir_all(cache_dir).map_err(io(cache_dir))?;
    let build = tempfile::Builder::new()
        .prefix("build-")
        .tempdir_in(cache_dir)
        .map_err(io(cache_dir))?;
    let src = build.path().join(source_name(source));
    std::fs::write(&src, code).map_err(io(&src))?;
    let exe = build.path().join(EXE_NAME);
    let (src_s, exe_s) = (src.to_string_lossy(), exe.to_string_lossy());
    let spec = RunSpec {
        program: PathBuf::from(&cmd[0]),
        args: cmd[1..]
            .iter()
            .map(|a| substitute(a, &src_s, &exe_s).into())
            .collect(),
        stdin: Vec::new(),
        limits: compile_limits(),
        files: Vec::new(),
        env: Vec::new(),
    };
    let result = sandbox.run_compiler(&spec, build.path())?;
    if result.status != Status::Exited(0) || !exe.is_file() {
        let mut message = result.stderr.clone();
        message.extend_from_slice(&result.stdout);
        let mut text = shorten(&message);
        if !matches!(result.status, Status::Exited(_)) {
            text = format!("compiler {}\n{text}", result.status);
        }
        return Ok((
            Err(CompileError {
                message: text.trim().to_string(),
            }),
            false,
        ));
    }
    // Rename within the cache folder: atomic, so a parallel grader sees the
    // whole program or none.
    std::fs::rename(&exe, &cached).map_err(io(&cached))?;
    Ok((Ok(cached), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_compiler_messages_are_shortened() {
        let msg = "error: x\n".repeat(100);
        let s = shorten(msg.as_bytes());
        assert_eq!(s.lines().count(), 41);
        assert!(s.ends_with("[... shortened]"));
        assert_eq!(shorten(b"one line\n"), "one line");
    }

    #[test]
    fn commands_are_filled_in() {
        assert_eq!(substitute("{exe}", "a.py", "solution"), "solution");
        assert_eq!(source_name(Path::new("/x/sol.cpp")), "solution.cpp");
        assert_eq!(source_name(Path::new("/x/bin")), "solution");
    }
}
