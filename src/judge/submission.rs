//! Turning a submitted file into something the sandbox can run: pick its
//! language, compile it under limits (once: compiled programs are cached by a
//! hash of the source, the language, the compiler and the compile command),
//! and say how to start it in a fresh work folder. Many submissions (a
//! contest folder) are prepared as work of the command's pool
//! (`judge::pool`), each compilation holding a slot.
//!
//! A source over the package's limit ([`SourceLimit`], `problem.toml [limits]
//! source_kib`) is refused before it is read or compiled, as a compilation
//! error that says so: its size is taken from the open file's metadata, and
//! at most one byte over the limit is ever read (a file may grow meanwhile).
//! What runs is the source as read: an interpreted one is kept in the cache
//! under its hash, and each run gets that copy, not the file again.

use crate::judge::pch;
use crate::judge::sandbox::{Limits, ProcView, RunResult, RunSpec, Sandbox, SandboxError, Status};
use crate::package::languages::Language;
use crate::package::{ProblemLimits, SOURCE_LIMIT_KEY};
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Name of the compiled program inside the work folder.
const EXE_NAME: &str = "solution";

/// The least limit of a ready executable, KiB (64 MiB: a statically
/// linked program is megabytes).
pub const EXECUTABLE_KIB: u64 = 64 * 1024;

/// How much of a source is read for hints (how it opens its input).
const HINT_BYTES: u64 = 1 << 20;

/// The largest source a submission may have, and what sets it (named in
/// the message that refuses a larger one, so the reader knows what to
/// raise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLimit {
    /// The limit, KiB.
    pub kib: u64,
    /// Where it comes from, e.g. `problem.toml [limits] source_kib`.
    pub set_by: &'static str,
}

impl SourceLimit {
    /// A package's limit.
    pub fn of(limits: &ProblemLimits) -> SourceLimit {
        SourceLimit {
            kib: limits.source_kib,
            set_by: SOURCE_LIMIT_KEY,
        }
    }

    /// The limit for a submission in `language`: a ready executable (no
    /// compiler, run as it is: a linked program, not a source) may have
    /// [`EXECUTABLE_KIB`] at least.
    pub fn for_language(self, language: &Language) -> SourceLimit {
        if language.name == "exe" {
            SourceLimit {
                kib: self.kib.max(EXECUTABLE_KIB),
                ..self
            }
        } else {
            self
        }
    }

    /// The limit, bytes.
    pub fn bytes(self) -> u64 {
        self.kib.saturating_mul(1024)
    }

    /// Why `source` is refused: `size` bytes (`None`: more than the limit,
    /// found while reading it).
    fn refusal(self, source: &Path, size: Option<u64>) -> CompileError {
        let name = source.file_name().unwrap_or(source.as_os_str()).to_string_lossy();
        let size = match size {
            Some(bytes) => format!("{bytes} bytes"),
            None => format!("more than {} bytes (it grew while it was read)", self.bytes()),
        };
        CompileError {
            message: format!(
                "{name}: the source is {size}, over the limit of {} bytes ({} KiB, {})",
                self.bytes(),
                self.kib,
                self.set_by
            ),
        }
    }
}

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
    /// The cache folder is not safe to run programs from.
    #[error(
        "refusing the compile cache {dir}: {reason}; remove it, or set MAYAN_JUDGE_CACHE to a folder of your own (mode 0700)"
    )]
    UnsafeCache {
        /// The folder.
        dir: PathBuf,
        /// Why not.
        reason: String,
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

impl SubmissionError {
    /// The error as data, where a person can act on it (a missing tool).
    pub fn problem(&self) -> Option<crate::judge::reason::JudgeProblem> {
        match self {
            SubmissionError::MissingTool { what, name, language } => {
                Some(crate::judge::reason::JudgeProblem::MissingTool {
                    what: what.to_string(),
                    name: name.clone(),
                    language: language.clone(),
                })
            }
            _ => None,
        }
    }
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
    /// The submitted source, read again only for hints (how it reads its
    /// input); `None` for a program that has none.
    pub source: Option<PathBuf>,
    /// What is known of the source, worked out once per submission (not
    /// once per test) when first asked.
    pub facts: Facts,
}

/// Facts about a submission's source, each computed at most once however
/// many tests ask (a program that prints nothing asks on every test, and
/// with `--lang exe` the "source" is a binary of megabytes).
#[derive(Clone, Debug, Default)]
pub struct Facts {
    opened_input_file: std::sync::OnceLock<Option<String>>,
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
    /// The `NAME.in` file its source opens (NOIP file I/O), if it does; see
    /// [`input_file_opened`]. Only its first [`HINT_BYTES`] are read, once
    /// per submission ([`Facts`]).
    pub fn opened_input_file(&self) -> Option<String> {
        self.facts
            .opened_input_file
            .get_or_init(|| {
                let file = std::fs::File::open(self.source.as_ref()?).ok()?;
                let mut code = Vec::new();
                file.take(HINT_BYTES).read_to_end(&mut code).ok()?;
                input_file_opened(&String::from_utf8_lossy(&code))
            })
            .clone()
    }

    /// The run of this program on one input under limits.
    pub fn spec(&self, stdin: Vec<u8>, limits: Limits) -> RunSpec {
        RunSpec {
            program: self.program.clone(),
            args: self.args.clone(),
            stdin,
            limits,
            files: self.files.clone(),
            ..RunSpec::default()
        }
    }
}

/// Where compiled programs are kept: `$MAYAN_JUDGE_CACHE`, else the user's
/// cache folder, else (no `HOME`) `mayan-judge-cache-<uid>` in the system
/// temporary folder. Whichever it is, [`check_cache_dir`] refuses it unless
/// it is the judge's own and closed to others.
pub fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("MAYAN_JUDGE_CACHE") {
        return PathBuf::from(dir);
    }
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .map(|base| base.join("mayan-judge"))
        .unwrap_or_else(|| std::env::temp_dir().join(format!("mayan-judge-cache-{}", nix::unistd::geteuid())))
}

/// Creates the cache folder (mode 0700) or checks the one there: it must be
/// a folder (not a link) owned by the judge's user and not writable by
/// group or others, since a program planted there under a hash would be
/// run as a submission's. Tightens an owned 0755 folder to 0700.
pub fn check_cache_dir(dir: &Path) -> Result<(), SubmissionError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    let io = |cause| SubmissionError::Io {
        path: dir.to_path_buf(),
        cause,
    };
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(io(e)),
        _ => {}
    }
    let meta = std::fs::symlink_metadata(dir).map_err(io)?;
    let me = nix::unistd::geteuid().as_raw();
    let unsafe_reason = if !meta.is_dir() {
        Some("it is not a folder".to_string())
    } else if meta.uid() != me {
        Some(format!(
            "it belongs to uid {}, not to the judge's uid {me}",
            meta.uid()
        ))
    } else if meta.mode() & 0o022 != 0 {
        Some(format!(
            "it is writable by others (mode {:o})",
            meta.mode() & 0o7777
        ))
    } else {
        None
    };
    if let Some(reason) = unsafe_reason {
        return Err(SubmissionError::UnsafeCache {
            dir: dir.to_path_buf(),
            reason,
        });
    }
    if meta.mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io)?;
    }
    Ok(())
}

/// Compilers found, by the name a language's command gives (a name found
/// nowhere is not kept: it is searched for again).
type CompilerMemo = std::sync::Mutex<std::collections::HashMap<String, PathBuf>>;

/// The compiler to run for a bare name: found in `PATH`; a rustup proxy is
/// replaced by the toolchain's own binary (`<sysroot>/bin/<name>`), which
/// needs no rustup environment inside the sandbox. Looked up once per
/// name and process (asking rustup starts a process), and again where
/// that found nothing or a file since gone: a toolchain removed or a
/// compiler installed while `serve` runs is seen at the next compilation.
fn resolve_compiler(name: &str) -> Option<PathBuf> {
    static FOUND: std::sync::OnceLock<CompilerMemo> = std::sync::OnceLock::new();
    resolve_in(FOUND.get_or_init(Default::default), name, find_compiler)
}

/// [`resolve_compiler`] with its memo and search given.
fn resolve_in(memo: &CompilerMemo, name: &str, find: impl Fn(&str) -> Option<PathBuf>) -> Option<PathBuf> {
    let mut memo = memo.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(path) = memo.get(name).filter(|p| p.is_file()) {
        return Some(path.clone());
    }
    let found = find(name);
    match &found {
        Some(path) => memo.insert(name.to_string(), path.clone()),
        None => memo.remove(name),
    };
    found
}

/// [`resolve_compiler`]'s search.
fn find_compiler(name: &str) -> Option<PathBuf> {
    let found = which(name)?;
    let real = std::fs::canonicalize(&found).ok()?;
    if real.file_name().is_some_and(|n| n == "rustup") {
        let out = std::process::Command::new(&found)
            .args(["--print", "sysroot"])
            .output()
            .ok()?;
        let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let own = sysroot.join("bin").join(name);
        return own.is_file().then_some(own);
    }
    Some(found)
}

/// The name a source is compiled under: the contestant's own file name
/// when it is a plain, harmless one (so compiler messages name it as they
/// do), else `solution.<ext>`.
fn compile_name(source: &Path) -> String {
    let name = source.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let harmless = !name.is_empty()
        && !name.starts_with(['-', '.'])
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if harmless && source.extension().is_some() {
        name.to_string()
    } else {
        source_name(source)
    }
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

/// Reads a submission's source: one over `limit` is refused (the
/// contestant's fault, as a compilation error) before anything is read, by
/// the size of the open file, and at most `limit + 1` bytes are read, so a
/// file that grows meanwhile is refused too.
pub fn read_source(
    source: &Path,
    limit: SourceLimit,
) -> Result<Result<Vec<u8>, CompileError>, SubmissionError> {
    let io = |cause| SubmissionError::Io {
        path: source.to_path_buf(),
        cause,
    };
    let file = std::fs::File::open(source).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > limit.bytes() {
        return Ok(Err(limit.refusal(source, Some(size))));
    }
    let mut code = Vec::with_capacity(size as usize);
    file.take(limit.bytes().saturating_add(1))
        .read_to_end(&mut code)
        .map_err(io)?;
    if code.len() as u64 > limit.bytes() {
        return Ok(Err(limit.refusal(source, None)));
    }
    Ok(Ok(code))
}

/// Prepares a submission: reads it within `limit` (see [`read_source`]),
/// compiles it (or takes it from the cache) and works out how to run it.
pub fn prepare(
    sandbox: &Sandbox,
    source: &Path,
    language: &Language,
    cache_dir: &Path,
    limit: SourceLimit,
) -> Result<Prepared, SubmissionError> {
    let code = match read_source(source, limit.for_language(language))? {
        Ok(code) => code,
        Err(refused) => return Ok(Err(refused)),
    };
    let src_name = source_name(source);
    let mut files = Vec::new();
    let mut cached = false;
    let exe_path = match &language.compile {
        None => {
            let executable = is_executable(source);
            files.push((
                keep_source(&code, executable, language, cache_dir)?,
                src_name.clone(),
            ));
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
        source: Some(source.to_path_buf()),
        facts: Facts::default(),
    }))
}

/// The first `NAME.in` file a source opens (NOIP file I/O): a string literal
/// `"NAME.in"` (or `'NAME.in'`) with `freopen`, `fopen`, `open` or
/// `ifstream` before it on its line, as C, C++ and Python programs do.
pub fn input_file_opened(code: &str) -> Option<String> {
    let plain = |s: &str| {
        s.len() > 3
            && s.ends_with(".in")
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    };
    for line in code.lines() {
        for quote in ['"', '\''] {
            let mut at = 0;
            while let Some(start) = line[at..].find(quote).map(|i| at + i) {
                let Some(len) = line[start + 1..].find(quote) else {
                    break;
                };
                let literal = &line[start + 1..start + 1 + len];
                let before = &line[..start];
                if plain(literal) && (before.contains("open") || before.contains("ifstream")) {
                    return Some(literal.to_string());
                }
                at = start + len + 2;
            }
        }
    }
    None
}

/// The cache's name for what `parts` hash to (hex sha256, parts apart).
fn cache_key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            hasher.update([0]);
        }
        hasher.update(part);
    }
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether the file's owner may execute it (a ready executable must be).
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o100 != 0)
}

/// A source that is run as it is (interpreted, or a ready executable), as
/// read, kept in the cache under its hash (0600, or 0700 when the file was
/// executable): each run gets this copy, so the program run is the one
/// checked against the limit whatever happens to the file afterwards.
fn keep_source(
    code: &[u8],
    executable: bool,
    language: &Language,
    cache_dir: &Path,
) -> Result<PathBuf, SubmissionError> {
    use std::os::unix::fs::PermissionsExt;
    check_cache_dir(cache_dir)?;
    let mode: &[u8] = if executable { b"0700" } else { b"0600" };
    let kept = cache_dir.join(format!(
        "source-{}",
        cache_key(&[language.name.as_bytes(), mode, code])
    ));
    if kept.is_file() {
        return Ok(kept);
    }
    let io = |cause| SubmissionError::Io {
        path: kept.clone(),
        cause,
    };
    let mut file = tempfile::Builder::new()
        .prefix("source-")
        .tempfile_in(cache_dir)
        .map_err(io)?;
    file.write_all(code).map_err(io)?;
    if executable {
        let exec = std::fs::Permissions::from_mode(0o700);
        file.as_file().set_permissions(exec).map_err(io)?;
    }
    // Renamed within the cache folder: a parallel grader sees all or nothing.
    file.persist(&kept).map_err(|e| io(e.error))?;
    Ok(kept)
}

/// Which compiler `path` is, for the compile cache's key: the file it
/// leads to (links followed), its size and its modification time (whole
/// seconds: a file system shared with a virtual machine may keep no
/// finer). A compiler upgraded, or a link such as `/usr/bin/gcc` turned to
/// another version, gives another key, so a program built by the old
/// compiler is never taken for the new one's. Empty when the file cannot
/// be read.
fn compiler_identity(path: &Path) -> String {
    let Ok(real) = std::fs::canonicalize(path) else {
        return String::new();
    };
    let Ok(meta) = std::fs::metadata(&real) else {
        return String::new();
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    format!("{} {} {modified}", real.display(), meta.len())
}

/// The name of what `cmd` (run as `compiler`) makes of `code` in the
/// cache: a hash of the language, the compiler ([`compiler_identity`]),
/// the command and the source.
fn compile_key(language: &Language, compiler: &Path, cmd: &[String], code: &[u8]) -> String {
    let identity = compiler_identity(compiler);
    let mut parts: Vec<&[u8]> = vec![language.name.as_bytes(), identity.as_bytes()];
    parts.extend(cmd.iter().map(|part| part.as_bytes()));
    parts.push(code);
    cache_key(&parts)
}

/// The folder a compilation of `code` by `cmd` sees over the standard
/// header's ([`pch`]), with the header precompiled when `wants_header`:
/// `None` when the command could use none.
fn header_folder(
    sandbox: &Sandbox,
    compiler: &Path,
    cmd: &[String],
    wants_header: bool,
    cache_dir: &Path,
) -> Option<pch::HeaderFolder> {
    let identity = compiler_identity(compiler);
    let request = pch::Request {
        sandbox,
        compiler,
        identity: &identity,
        cmd,
        cache_dir,
        limits: compile_limits(),
    };
    pch::for_compilation(&request, wants_header)
}

/// One run of the compiler on the source (`src`, seen as `name`), the
/// program collected to `exe`; with `header` bound over its own folder.
fn run_compiler(
    sandbox: &Sandbox,
    compiler: &Path,
    cmd: &[String],
    (src, name): (&Path, &str),
    exe: &Path,
    header: Option<&pch::HeaderFolder>,
) -> Result<RunResult, SubmissionError> {
    let spec = RunSpec {
        program: compiler.to_path_buf(),
        args: cmd[1..]
            .iter()
            .map(|a| substitute(a, name, EXE_NAME).into())
            .collect(),
        limits: compile_limits(),
        files: vec![(src.to_path_buf(), name.to_string())],
        read_only_over: header
            .iter()
            .map(|h| (h.folder.clone(), h.covers.clone()))
            .collect(),
        collect: vec![(EXE_NAME.to_string(), exe.to_path_buf())],
        // Its messages reach the contestant: nothing machine-wide.
        proc_view: ProcView::ProcessesOnly,
        ..RunSpec::default()
    };
    Ok(sandbox.run(&spec)?)
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
    let Some(compiler) = resolve_compiler(&cmd[0]) else {
        return Err(SubmissionError::MissingTool {
            what: "compiler",
            name: cmd[0].clone(),
            language: language.name.clone(),
        });
    };
    let key = compile_key(language, &compiler, cmd, code);
    check_cache_dir(cache_dir)?;
    let cached = cache_dir.join(&key);
    if cached.is_file() {
        return Ok((Ok(cached), true));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |cause| SubmissionError::Io { path, cause }
    };
    let build = tempfile::Builder::new()
        .prefix("build-")
        .tempdir_in(cache_dir)
        .map_err(io(cache_dir))?;
    // The compiler runs in the sandbox like a submission: it sees the
    // source (under the contestant's name) in its work folder, and the
    // program is copied out of it afterwards.
    let name = compile_name(source);
    let src = build.path().join("source");
    std::fs::write(&src, code).map_err(io(&src))?;
    let exe = build.path().join(EXE_NAME);
    let header = header_folder(sandbox, &compiler, cmd, pch::mentions_header(code), cache_dir);
    let source = (src.as_path(), name.as_str());
    let mut result = run_compiler(sandbox, &compiler, cmd, source, &exe, header.as_ref())?;
    let failed = |r: &RunResult| r.status != Status::Exited(0) || !exe.is_file();
    let precompiled = header.as_ref().is_some_and(|h| h.precompiled);
    if precompiled && failed(&result) && !matches!(result.status, Status::TimeLimit { .. }) {
        // With the header precompiled GCC words some messages otherwise
        // (it names no includer for it): the contestant gets those of a
        // compilation without it (one out of time with it would be
        // without it too).
        let blank = header_folder(sandbox, &compiler, cmd, false, cache_dir);
        result = run_compiler(sandbox, &compiler, cmd, source, &exe, blank.as_ref())?;
    }
    if failed(&result) {
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
    fn a_compiler_that_is_gone_or_was_missing_is_looked_up_again() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("rustc-old");
        let new = dir.path().join("rustc-new");
        std::fs::write(&old, "").unwrap();
        let memo = CompilerMemo::default();
        let searches = std::cell::Cell::new(0);
        let find = |_: &str| {
            searches.set(searches.get() + 1);
            [&old, &new].into_iter().find(|p| p.is_file()).cloned()
        };
        assert_eq!(resolve_in(&memo, "rustc", find), Some(old.clone()));
        assert_eq!(resolve_in(&memo, "rustc", find), Some(old.clone()));
        assert_eq!(searches.get(), 1, "found once, then remembered");
        // The toolchain removed and another installed, the judge running.
        std::fs::remove_file(&old).unwrap();
        std::fs::write(&new, "").unwrap();
        assert_eq!(resolve_in(&memo, "rustc", find), Some(new.clone()));
        assert_eq!(searches.get(), 2);
        // Nothing found is not remembered: a compiler installed later is.
        std::fs::remove_file(&new).unwrap();
        assert_eq!(resolve_in(&memo, "rustc", find), None);
        std::fs::write(&new, "").unwrap();
        assert_eq!(resolve_in(&memo, "rustc", find), Some(new));
    }

    #[test]
    fn a_program_built_by_a_compiler_changed_in_place_or_behind_a_link_is_not_reused() {
        let dir = tempfile::tempdir().unwrap();
        let cc = dir.path().join("cc-12");
        std::fs::write(&cc, b"#!/bin/sh\n").unwrap();
        let link = dir.path().join("cc");
        std::os::unix::fs::symlink(&cc, &link).unwrap();
        let language = Language {
            name: "c".into(),
            extensions: vec!["c".into()],
            compile: None,
            run: vec!["{exe}".into()],
        };
        let cmd = ["cc".to_string(), "{src}".to_string()];
        let key = || compile_key(&language, &link, &cmd, b"int main;");
        let before = key();
        assert_eq!(key(), before, "the same compiler, the same key");
        assert!(compiler_identity(&link).contains("cc-12"), "the link is followed");
        // Upgraded in place: the same size, a later time.
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&cc)
            .unwrap()
            .set_modified(later)
            .unwrap();
        let upgraded = key();
        assert_ne!(upgraded, before);
        // The link turned to another version.
        let cc13 = dir.path().join("cc-13");
        std::fs::copy(&cc, &cc13).unwrap();
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&cc13, &link).unwrap();
        assert!(compiler_identity(&link).contains("cc-13"));
        assert_ne!(key(), upgraded);
        assert_eq!(compiler_identity(&dir.path().join("none")), "");
    }

    #[test]
    fn long_compiler_messages_are_shortened() {
        let msg = "error: x\n".repeat(100);
        let s = shorten(msg.as_bytes());
        assert_eq!(s.lines().count(), 41);
        assert!(s.ends_with("[... shortened]"));
        assert_eq!(shorten(b"one line\n"), "one line");
    }

    #[test]
    fn the_input_file_a_noip_program_opens_is_found() {
        let found = |code: &str| input_file_opened(code);
        assert_eq!(
            found("int main(){ freopen(\"mayan.in\", \"r\", stdin); }").as_deref(),
            Some("mayan.in")
        );
        assert_eq!(
            found("  FILE *f = fopen(\"a.in\",\"r\");").as_deref(),
            Some("a.in")
        );
        assert_eq!(
            found("std::ifstream fin(\"mayan.in\");").as_deref(),
            Some("mayan.in")
        );
        assert_eq!(found("sys.stdin = open('mayan.in')").as_deref(), Some("mayan.in"));
        // Mentioned, not opened; or not an input file.
        assert_eq!(found("puts(\"reads mayan.in\"); // open later"), None);
        assert_eq!(found("printf(\"mayan.in\");"), None);
        assert_eq!(found("freopen(\"mayan.out\", \"w\", stdout);"), None);
    }

    const LIMIT: SourceLimit = SourceLimit {
        kib: 1,
        set_by: "problem.toml [limits] source_kib",
    };

    #[test]
    fn a_source_within_the_limit_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let at_limit = dir.path().join("sol.c");
        std::fs::write(&at_limit, vec![b'x'; 1024]).unwrap();
        assert_eq!(read_source(&at_limit, LIMIT).unwrap().unwrap().len(), 1024);
    }

    #[test]
    fn a_source_over_the_limit_is_refused_by_its_size_with_what_to_raise() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("sol.c");
        // Sparse: 200 MiB that cost no disk, and that are never read.
        std::fs::File::create(&big).unwrap().set_len(200 << 20).unwrap();
        let refused = read_source(&big, LIMIT).unwrap().unwrap_err();
        assert_eq!(
            refused.message,
            "sol.c: the source is 209715200 bytes, over the limit of 1024 bytes (1 KiB, problem.toml [limits] source_kib)"
        );
        std::fs::write(&big, vec![b'x'; 1025]).unwrap();
        assert!(read_source(&big, LIMIT).unwrap().is_err(), "one byte over");
    }

    #[test]
    fn a_source_that_grows_while_it_is_read_is_refused_after_one_byte_too_many() {
        // A pipe has no size to check first: only the capped read stops it.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("sol.py");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                // Stops with EPIPE once the reader has had enough.
                let _ = f.write_all(&vec![b'x'; 1 << 20]);
            })
        };
        let refused = read_source(&fifo, LIMIT).unwrap().unwrap_err();
        assert!(
            refused
                .message
                .starts_with("sol.py: the source is more than 1024 bytes (it grew while it was read)"),
            "{}",
            refused.message
        );
        writer.join().unwrap();
    }

    #[test]
    fn the_file_io_hint_is_read_from_the_source_once_per_submission() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("mayan.cpp");
        std::fs::write(&source, "int main() { freopen(\"mayan.in\", \"r\", stdin); }\n").unwrap();
        let program = Program {
            program: "solution".into(),
            args: Vec::new(),
            files: Vec::new(),
            cached: false,
            source: Some(source.clone()),
            facts: Facts::default(),
        };
        assert_eq!(program.opened_input_file().as_deref(), Some("mayan.in"));
        // Asked again on the next test: the source is not read again (a
        // read would now find nothing).
        std::fs::remove_file(&source).unwrap();
        assert_eq!(program.opened_input_file().as_deref(), Some("mayan.in"));
        // A copy for another thread keeps what is known.
        assert_eq!(program.clone().opened_input_file().as_deref(), Some("mayan.in"));
    }

    #[test]
    fn commands_are_filled_in() {
        assert_eq!(substitute("{exe}", "a.py", "solution"), "solution");
        assert_eq!(source_name(Path::new("/x/sol.cpp")), "solution.cpp");
        assert_eq!(source_name(Path::new("/x/bin")), "solution");
    }
}
