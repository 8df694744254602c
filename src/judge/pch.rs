//! The C++ standard library's header `<bits/stdc++.h>`, which most NOIP
//! programs include, precompiled once per compiler, flags and state of the
//! header's files, so that a class's compilations stop parsing the same
//! headers again and again.
//!
//! What this module owns:
//!
//! * **Which compilations may use one** ([`build_flags`]): GCC's C++
//!   compiler (the real file's name, links followed: a `c++` that leads to
//!   clang gets none) with only flags known to be harmless here (`-O`,
//!   `-std=`, `-D`, `-f`, `-W`..., link flags dropped); a `languages.toml`
//!   with any other flag (`-I`, `-include`, `-H`, `-Winvalid-pch`...)
//!   gets none, and its programs compile exactly as before. And only a
//!   source that names the header ([`mentions_header`]).
//! * **Building it** ([`for_compilation`]): from the system's own header
//!   (found by the compiler's own search list), with exactly the language's
//!   compile flags, in the sandbox like any compilation, into a fresh
//!   `pch-build-*` folder of the judge's private cache (locked while it is
//!   built), renamed whole into place as `pch-<key>-<state>`: `<key>` names
//!   the compiler identity (the compile cache's notion of a compiler) and
//!   flags, `<state>` every file it was built from. That folder holds
//!   `built-from` (the header, and the state of each file the compiler read
//!   for it, listed by the compiler itself with `-MD`, of the folders of
//!   its search and of the header's folder) and `bits/`: a copy of the
//!   header's folder (the same files, the same times) with the folder
//!   `stdc++.h.gch/` added, holding the precompiled header under a random
//!   name (GCC reads every file of such a folder), files 0444. The first compilation that needs it
//!   builds it; compilations meanwhile go without. `pch-build-*` folders no
//!   judge holds (left by one that was killed) are removed by the first
//!   compilation of each process.
//! * **Re-checking it**: before each use, every file and folder of
//!   `built-from` is looked at again (some 330 `stat`s for GCC 12's
//!   header); one that changed (a library upgraded under a running `serve`)
//!   makes the next compilation build it again, without a restart.
//! * **Using it** ([`HeaderFolder`]): the copy is bound read-only over the
//!   header's own folder in the compilation's private root, so GCC finds
//!   `bits/stdc++.h.gch/` beside the header, where its own search looks:
//!   no folder is added to the include path. Every compilation whose
//!   command could use one gets such a copy, with `stdc++.h.gch/` empty
//!   where it has no precompiled header (the source does not name the
//!   header, it is being built, `MAYAN_JUDGE_PCH=0`, a failed compilation
//!   run again): so every name a program can write resolves the same with
//!   it or without (`__has_include(<bits/stdc++.h.gch>)` is false, a
//!   folder, and `<bits/stdc++.h.gch/../stdc++.h>` is there, in both), and
//!   the precompiled file's own name is 128 random bits that nothing
//!   shows. GCC ignores a precompiled header that
//!   does not fit (a macro defined first that the header uses, a `#pragma`
//!   before the include, other flags) silently, falling back to the
//!   header. The executable is the same byte for byte.
//! * **Messages**: with the header precompiled, GCC names no includer for
//!   it in "In file included from" chains; so a compilation that fails
//!   with it is run again without it, and the contestant gets that
//!   compilation's message, byte for byte the one they get without a
//!   precompiled header.
//!
//! So a program cannot tell from inside a compilation whether the header
//! was precompiled for it: what it can probe (`__has_include`, `#include`,
//! the assembler's `.incbin`) is the same in both, and only the random
//! name, which it cannot list, differs.

use crate::judge::sandbox::{Limits, RunSpec, Sandbox, Status};
use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The header, as programs include it.
const HEADER: &str = "bits/stdc++.h";

/// The precompiled header's name, beside the header.
const GCH_NAME: &str = "stdc++.h.gch";

/// The dependency file the build writes (`-MD -MF`).
const DEPS_NAME: &str = "stdc++.h.d";

/// The file of a built header's folder that says what it was built from.
const BUILT_FROM: &str = "built-from";

/// The prefix of a folder a header is being built in.
const BUILDING_PREFIX: &str = "pch-build-";

/// Set to `0`, compilations use no precompiled header (for `bench`'s
/// baseline, or to rule it out).
pub const ENV_SWITCH: &str = "MAYAN_JUDGE_PCH";

/// A folder bound read-only over the header's own folder in a
/// compilation: a copy of that folder with `stdc++.h.gch/` added, a folder
/// holding the precompiled header under a random name, or empty (a
/// compilation without one: it sees the same names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderFolder {
    /// The copy, in the judge's cache.
    pub folder: PathBuf,
    /// The header's own folder, which the copy covers (read-only) in the
    /// compilation's root.
    pub covers: PathBuf,
    /// Whether `stdc++.h.gch/` holds a precompiled header (else it is
    /// empty).
    pub precompiled: bool,
    /// What it was made from, as it was then ([`BUILT_FROM`]'s lines).
    built_from: Vec<String>,
}

impl HeaderFolder {
    /// Whether every file and folder it was made from is as it was.
    fn unchanged(&self) -> bool {
        self.built_from.iter().all(|line| {
            line.split_once(' ')
                .is_some_and(|(_, path)| stamp(Path::new(path)) == *line)
        })
    }
}

/// Whether compilations may use precompiled headers (`MAYAN_JUDGE_PCH` is
/// not `0`).
pub fn enabled() -> bool {
    std::env::var_os(ENV_SWITCH).is_none_or(|v| v != "0")
}

/// Whether `compiler` (a real file's name, links followed) is GCC's C++
/// compiler: `g++`, `g++-12`, `x86_64-linux-gnu-g++-12`; not `clang++`.
fn is_gxx(compiler: &Path) -> bool {
    let Some(name) = compiler.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let versioned = |rest: &str| {
        rest.is_empty()
            || rest
                .strip_prefix('-')
                .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    name.strip_prefix("g++").is_some_and(versioned)
        || name.split_once("-g++").is_some_and(|(_, rest)| versioned(rest))
}

/// The flags a precompiled header for `cmd` (run as `compiler`) is built
/// with: the command's, less the source, the output and the link-only
/// flags. `None` when the compiler is not GCC's C++ compiler or a flag is
/// not one known to leave the lookup of the header and the messages alone.
pub fn build_flags(compiler: &Path, cmd: &[String]) -> Option<Vec<String>> {
    let real = std::fs::canonicalize(compiler).ok()?;
    if !is_gxx(&real) {
        return None;
    }
    let mut flags = Vec::new();
    let mut args = cmd.iter().skip(1);
    while let Some(arg) = args.next() {
        let a = arg.as_str();
        if a == "-o" {
            args.next();
        } else if a.contains("{src}") || a.contains("{exe}") || link_only(a) {
        } else if compile_flag(a) {
            flags.push(arg.clone());
        } else {
            return None;
        }
    }
    Some(flags)
}

/// A flag that only the link step reads.
fn link_only(a: &str) -> bool {
    (a.starts_with("-l") && a.len() > 2)
        || (a.starts_with("-L") && a.len() > 2)
        || a.starts_with("-Wl,")
        || matches!(
            a,
            "-static" | "-static-libstdc++" | "-static-libgcc" | "-s" | "-no-pie"
        )
}

/// A compile flag that leaves the header's lookup and the messages as
/// they are (a precompiled header that does not fit it is ignored by GCC).
fn compile_flag(a: &str) -> bool {
    let joined = |p: &str| a.len() > p.len() && a.starts_with(p);
    let changes_messages = a == "-Winvalid-pch" || a.starts_with("-fdiagnostics-format") || a.contains("pch");
    !changes_messages
        && (joined("-O")
            || a == "-O"
            || joined("-std=")
            || joined("-D")
            || joined("-U")
            || joined("-f")
            || joined("-m")
            || a.starts_with("-g")
            || joined("-W")
            || matches!(
                a,
                "-w" | "-pedantic" | "-pedantic-errors" | "-ansi" | "-pthread" | "-pipe"
            ))
}

/// Whether a source names the header (`bits/stdc++.h`, in an include or
/// anywhere else): only then is a precompiled header looked for. GCC uses
/// it only where the header is really included first.
pub fn mentions_header(code: &[u8]) -> bool {
    code.windows(HEADER.len()).any(|w| w == HEADER.as_bytes())
}

/// What one process knows of a precompiled header, by its key.
#[derive(Clone, Debug)]
enum State {
    /// A compilation is building it: others go without.
    Building,
    /// Built (or found in the cache), as long as it is [`HeaderFolder::unchanged`].
    Ready(HeaderFolder),
    /// It cannot be built here: not tried again by this process.
    Unusable,
}

/// Every precompiled header this process knows, by key.
static KNOWN: Mutex<Option<HashMap<String, State>>> = Mutex::new(None);

/// What a compilation needs of the judge to find or build a header.
pub struct Request<'a> {
    /// The sandbox the build runs in.
    pub sandbox: &'a Sandbox,
    /// The compiler, as found.
    pub compiler: &'a Path,
    /// Its identity (the compile cache's: real path, size, time).
    pub identity: &'a str,
    /// The language's compile command.
    pub cmd: &'a [String],
    /// The judge's private cache folder (checked already).
    pub cache_dir: &'a Path,
    /// Limits of the build (a compilation's).
    pub limits: Limits,
}

/// The folder bound over the header's own one in a compilation by
/// `request`, whenever its command could use a precompiled header and this
/// judge isolates compilations (a private root to bind it into, read-only:
/// not a cache folder under `/tmp`, which each run mounts afresh). With
/// `wants_header` (the source names it) and precompiled headers
/// [`enabled`], one with the precompiled header: found in this process's
/// memory or the cache, or built now, and in each case still fitting every
/// file it was built from (else built again); a compilation that finds it
/// being built, and every other one, gets the folder with `stdc++.h.gch/`
/// empty. `None`: compile with the system's folder as it is.
pub fn for_compilation(request: &Request, wants_header: bool) -> Option<HeaderFolder> {
    let cache_dir = std::fs::canonicalize(request.cache_dir).ok()?;
    if !request.sandbox.binds_read_only(&cache_dir) {
        return None;
    }
    remove_leftovers(&cache_dir);
    let flags = build_flags(request.compiler, request.cmd)?;
    let key = key(request.identity, &flags);
    if wants_header
        && enabled()
        && let Some(ready) = precompiled(request, &cache_dir, &flags, &key)
    {
        return Some(ready);
    }
    blank(request, &cache_dir, &flags, &key)
}

/// The folder with the precompiled header of `key`, when it is ready.
fn precompiled(request: &Request, cache_dir: &Path, flags: &[String], key: &str) -> Option<HeaderFolder> {
    {
        let mut known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
        let known = known.get_or_insert_with(HashMap::new);
        match known.get(key) {
            Some(State::Ready(p)) if p.unchanged() => return Some(p.clone()),
            Some(State::Building | State::Unusable) => return None,
            _ => {}
        }
        known.insert(key.to_string(), State::Building);
    }
    let prefix = format!("pch-{key}-");
    let found = find_or_make(cache_dir, &prefix, true, || {
        build(request, cache_dir, flags, &prefix)
    });
    let mut known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
    let known = known.get_or_insert_with(HashMap::new);
    match &found {
        Ok(p) => known.insert(key.to_string(), State::Ready(p.clone())),
        Err(Retry::Later) => known.remove(key),
        Err(Retry::Never) => known.insert(key.to_string(), State::Unusable),
    };
    found.ok()
}

/// The folder of `key` with `stdc++.h.gch/` empty: found in this process's
/// memory or the cache, still fitting the header's folder, or made now
/// (a copy of a few dozen files).
fn blank(request: &Request, cache_dir: &Path, flags: &[String], key: &str) -> Option<HeaderFolder> {
    static BLANKS: Mutex<Option<HashMap<String, HeaderFolder>>> = Mutex::new(None);
    {
        let blanks = BLANKS.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(b) = blanks.as_ref().and_then(|b| b.get(key))
            && b.unchanged()
        {
            return Some(b.clone());
        }
    }
    let prefix = format!("pch-blank-{key}-");
    let found = find_or_make(cache_dir, &prefix, false, || {
        make_blank(request, cache_dir, flags, &prefix)
    })
    .ok()?;
    let mut blanks = BLANKS.lock().unwrap_or_else(|p| p.into_inner());
    blanks
        .get_or_insert_with(HashMap::new)
        .insert(key.to_string(), found.clone());
    Some(found)
}

/// Why no header was found or built.
#[derive(Debug)]
enum Retry {
    /// A file it was built from changed while it was built: the next
    /// compilation tries again.
    Later,
    /// It cannot be built here (the compiler failed, the header's folder
    /// is not a plain one...).
    Never,
}

/// Removes the `pch-build-*` folders of `cache_dir` that no judge is
/// building in (a builder holds a lock on its folder), once per process and
/// folder: those a killed judge left; and `pch-*` folders without a
/// [`BUILT_FROM`] (an earlier judge's, which put its folder on the include
/// path).
fn remove_leftovers(cache_dir: &Path) {
    static DONE: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    let mut done = DONE.lock().unwrap_or_else(|p| p.into_inner());
    if !done
        .get_or_insert_with(HashSet::new)
        .insert(cache_dir.to_path_buf())
    {
        return;
    }
    let Ok(entries) = std::fs::read_dir(cache_dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("pch-") || !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let left = if name.starts_with(BUILDING_PREFIX) {
            lock(&entry.path()).is_some()
        } else {
            !entry.path().join(BUILT_FROM).exists()
        };
        if left {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// An exclusive lock on the folder `dir`, when no one else holds one.
fn lock(dir: &Path) -> Option<nix::fcntl::Flock<std::fs::File>> {
    let file = std::fs::File::open(dir).ok()?;
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock).ok()
}

/// The name of headers built by the compiler `identity` with `flags`.
fn key(identity: &str, flags: &[String]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(identity.as_bytes());
    for flag in flags {
        hasher.update([0]);
        hasher.update(flag.as_bytes());
    }
    hex(&hasher.finalize()[..16])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A folder of the cache named `<prefix>...` that still fits what it was
/// made from and holds a precompiled header or not as `precompiled` says
/// (others of that prefix are removed); else one made by `make`.
fn find_or_make(
    cache_dir: &Path,
    prefix: &str,
    precompiled: bool,
    make: impl FnOnce() -> Result<HeaderFolder, Retry>,
) -> Result<HeaderFolder, Retry> {
    let mut found = None;
    for entry in std::fs::read_dir(cache_dir).into_iter().flatten().flatten() {
        if !entry.file_name().to_string_lossy().starts_with(prefix) {
            continue;
        }
        match cached(&entry.path()) {
            Some(p) if found.is_none() && p.precompiled == precompiled => found = Some(p),
            _ => {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    match found {
        Some(p) => Ok(p),
        None => make(),
    }
}

/// A folder made earlier into `dir`, still fitting what it was made from:
/// `bits/stdc++.h.gch/` holds one precompiled header or nothing.
fn cached(dir: &Path) -> Option<HeaderFolder> {
    let text = std::fs::read_to_string(dir.join(BUILT_FROM)).ok()?;
    let mut lines = text.lines();
    let covers = PathBuf::from(lines.next()?);
    let folder = dir.join("bits");
    let held: Vec<_> = std::fs::read_dir(folder.join(GCH_NAME)).ok()?.collect();
    let found = HeaderFolder {
        folder,
        covers,
        precompiled: !held.is_empty(),
        built_from: lines.map(String::from).collect(),
    };
    let fits = held.len() <= 1 && !found.built_from.is_empty() && found.unchanged();
    fits.then_some(found)
}

/// The state of a file or folder, with its path: a line of [`BUILT_FROM`].
/// Device, inode, size, modification and change times (to the
/// nanosecond): a file replaced (a package upgraded) or written in place
/// gives another line, whatever times it is given back.
fn stamp(path: &Path) -> String {
    use std::os::unix::fs::MetadataExt;
    let state = std::fs::metadata(path).map_or("-".to_string(), |m| {
        format!(
            "{}:{}:{}:{}.{}:{}.{}",
            m.dev(),
            m.ino(),
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec()
        )
    });
    format!("{state} {}", path.display())
}

/// The system's `bits/stdc++.h` as the compiler with `flags` finds it: the
/// first folder of its `#include <...>` search that holds it, and that
/// search's folders (asked of the compiler itself, `-v`, in the sandbox).
fn system_header(request: &Request, flags: &[String]) -> Option<(PathBuf, Vec<PathBuf>)> {
    let mut args: Vec<std::ffi::OsString> = flags.iter().map(Into::into).collect();
    args.extend(["-x", "c++", "-E", "-v", "/dev/null"].map(Into::into));
    let spec = RunSpec {
        program: request.compiler.to_path_buf(),
        args,
        limits: request.limits,
        ..RunSpec::default()
    };
    let result = request.sandbox.run(&spec).ok()?;
    if result.status != Status::Exited(0) {
        return None;
    }
    let search: Vec<PathBuf> = search_list(&String::from_utf8_lossy(&result.stderr))
        .into_iter()
        .map(PathBuf::from)
        .collect();
    let header = search.iter().map(|dir| dir.join(HEADER)).find(|h| h.is_file())?;
    Some((header, search))
}

/// The folders of GCC's `#include <...>` search, from its `-v` output.
fn search_list(verbose: &str) -> Vec<String> {
    verbose
        .lines()
        .skip_while(|l| !l.starts_with("#include <...> search starts here:"))
        .skip(1)
        .take_while(|l| !l.starts_with("End of search list."))
        .map(|l| l.trim().to_string())
        .collect()
}

/// The files a dependency file (`-MD`) names: absolute paths, else `None`
/// (a name with a space or an escape is not taken apart).
fn dependencies(make: &str) -> Option<Vec<PathBuf>> {
    let mut words = make.split_whitespace().filter(|w| *w != "\\");
    words.next()?.ends_with(':').then_some(())?;
    words
        .map(|w| (w.starts_with('/') && !w.contains('\\')).then(|| PathBuf::from(w)))
        .collect()
}

/// Makes the folder with `stdc++.h.gch/` empty: a copy of the header's
/// folder, in a fresh, locked folder of the cache renamed into place as
/// `<prefix><state>`.
fn make_blank(
    request: &Request,
    cache_dir: &Path,
    flags: &[String],
    prefix: &str,
) -> Result<HeaderFolder, Retry> {
    let (header, search) = system_header(request, flags).ok_or(Retry::Never)?;
    let covers = header.parent().ok_or(Retry::Never)?.to_path_buf();
    let building = Building::start(cache_dir)?;
    let mut used = building.copy(&covers)?;
    used.extend(search);
    used.insert(covers.clone());
    building.finish(&covers, &used, cache_dir, prefix)
}

/// Builds the header in the sandbox into a fresh, locked folder of the
/// cache (`bits/stdc++.h.gch/<random name>`) and renames it into place as
/// `<prefix><state>`: whole or not at all.
fn build(request: &Request, cache_dir: &Path, flags: &[String], prefix: &str) -> Result<HeaderFolder, Retry> {
    let (header, search) = system_header(request, flags).ok_or(Retry::Never)?;
    let covers = header.parent().ok_or(Retry::Never)?.to_path_buf();
    let building = Building::start(cache_dir)?;
    let mut used = building.copy(&covers)?;
    let deps = compile_header(request, flags, &header, building.dir.path()).ok_or(Retry::Never)?;
    used.extend(search);
    used.extend(deps.iter().filter_map(|d| d.parent().map(Path::to_path_buf)));
    used.extend(deps);
    used.insert(covers.clone());
    building.finish(&covers, &used, cache_dir, prefix)
}

/// A folder of the cache being made, locked while it is.
struct Building {
    dir: tempfile::TempDir,
    _held: nix::fcntl::Flock<std::fs::File>,
    started: std::time::SystemTime,
}

impl Building {
    fn start(cache_dir: &Path) -> Result<Building, Retry> {
        let dir = tempfile::Builder::new()
            .prefix(BUILDING_PREFIX)
            .tempdir_in(cache_dir)
            .map_err(|_| Retry::Never)?;
        let _held = lock(dir.path()).ok_or(Retry::Never)?;
        let started = std::time::SystemTime::now();
        Ok(Building { dir, _held, started })
    }

    /// Copies the header's folder `covers` into `bits/`, with an empty
    /// `stdc++.h.gch/`; the paths copied.
    fn copy(&self, covers: &Path) -> Result<BTreeSet<PathBuf>, Retry> {
        let bits = self.dir.path().join("bits");
        let used = copy_folder(covers, &bits).ok_or(Retry::Never)?;
        std::fs::create_dir(bits.join(GCH_NAME)).map_err(|_| Retry::Never)?;
        Ok(used)
    }

    /// Says what it was made from (when nothing of `used` changed
    /// meanwhile), seals it and renames it into place.
    fn finish(
        self,
        covers: &Path,
        used: &BTreeSet<PathBuf>,
        cache_dir: &Path,
        prefix: &str,
    ) -> Result<HeaderFolder, Retry> {
        if changed_since(used, self.started) {
            return Err(Retry::Later);
        }
        let built_from: Vec<String> = used.iter().map(|p| stamp(p)).collect();
        let text = format!("{}\n{}\n", covers.display(), built_from.join("\n"));
        std::fs::write(self.dir.path().join(BUILT_FROM), &text).map_err(|_| Retry::Never)?;
        seal(self.dir.path()).map_err(|_| Retry::Never)?;
        let dir = cache_dir.join(format!("{prefix}{}", hex(&Sha256::digest(text.as_bytes())[..8])));
        let kept = self.dir.keep();
        if std::fs::rename(&kept, &dir).is_err() {
            // Another judge kept the same one first: that one is used.
            let _ = std::fs::remove_dir_all(&kept);
        }
        cached(&dir).ok_or(Retry::Later)
    }
}

/// Whether a file of `paths` changed (or was made) at `since` or later
/// (by its change time, with 100 ms of slack: the kernel stamps files with
/// a coarser clock).
fn changed_since(paths: &BTreeSet<PathBuf>, since: std::time::SystemTime) -> bool {
    use std::os::unix::fs::MetadataExt;
    let since = since - std::time::Duration::from_millis(100);
    paths.iter().any(|p| {
        std::fs::metadata(p).is_ok_and(|m| {
            let changed = std::time::UNIX_EPOCH
                + std::time::Duration::new(
                    m.ctime().max(0) as u64,
                    m.ctime_nsec().clamp(0, 999_999_999) as u32,
                );
            changed >= since
        })
    })
}

/// Copies the header's folder `from` (plain files only, with their
/// modification times) to `to`; the paths of the folder and its files.
fn copy_folder(from: &Path, to: &Path) -> Option<BTreeSet<PathBuf>> {
    std::fs::create_dir(to).ok()?;
    let mut copied = BTreeSet::new();
    for entry in std::fs::read_dir(from).ok()? {
        let entry = entry.ok()?;
        if !entry.file_type().ok()?.is_file() {
            return None;
        }
        let path = entry.path();
        let copy = to.join(entry.file_name());
        std::fs::copy(&path, &copy).ok()?;
        let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
        std::fs::File::options()
            .write(true)
            .open(&copy)
            .ok()?
            .set_modified(modified)
            .ok()?;
        copied.insert(path);
    }
    Some(copied)
}

/// Compiles `header` with `flags` in the sandbox into `dir/bits/` (the
/// precompiled header); the files the compiler read for it.
fn compile_header(request: &Request, flags: &[String], header: &Path, dir: &Path) -> Option<Vec<PathBuf>> {
    let gch = dir.join("bits").join(GCH_NAME).join(random_name());
    let deps = dir.join(DEPS_NAME);
    let mut args: Vec<std::ffi::OsString> = flags.iter().map(Into::into).collect();
    args.extend(["-x".into(), "c++-header".into(), header.into()]);
    args.extend(["-o", GCH_NAME, "-MD", "-MF", DEPS_NAME].map(Into::into));
    let spec = RunSpec {
        program: request.compiler.to_path_buf(),
        args,
        limits: request.limits,
        collect: vec![
            (GCH_NAME.to_string(), gch.clone()),
            (DEPS_NAME.to_string(), deps.clone()),
        ],
        ..RunSpec::default()
    };
    let result = request.sandbox.run(&spec).ok()?;
    if result.status != Status::Exited(0) || !gch.is_file() {
        return None;
    }
    let listed = dependencies(&std::fs::read_to_string(&deps).ok()?)?;
    std::fs::remove_file(&deps).ok()?;
    Some(listed)
}

/// A name nobody can guess (128 random bits, in hex): the precompiled
/// header's, inside `stdc++.h.gch/`, where GCC reads every file and a
/// program could only name it.
fn random_name() -> String {
    use rand::Rng;
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    format!("{}.gch", hex(&bytes))
}

/// Files 0444, folders 0755: readable by a compilation's uid, written by
/// nobody (the folder is bound read-only into compilations besides).
fn seal(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry?;
        let mode = if entry.file_type().is_dir() { 0o755 } else { 0o444 };
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_gccs_cpp_compiler_is_taken() {
        for name in ["g++", "g++-12", "x86_64-linux-gnu-g++-12", "g++-13.2"] {
            assert!(is_gxx(Path::new(name)), "{name}");
        }
        for name in ["clang++", "clang++-14", "gcc", "c++", "g++x", "rustc"] {
            assert!(!is_gxx(Path::new(name)), "{name}");
        }
    }

    #[test]
    fn a_header_is_built_with_the_commands_compile_flags_only() {
        let gxx = Path::new("/usr/bin/g++");
        if !gxx.exists() {
            return;
        }
        let cmd = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            build_flags(gxx, &cmd("g++ -O2 -std=c++17 -o {exe} {src}")),
            Some(cmd("-O2 -std=c++17"))
        );
        assert_eq!(
            build_flags(
                gxx,
                &cmd("g++ -O2 -DONLINE_JUDGE -std=c++14 -Wall -o {exe} {src} -lm -static")
            ),
            Some(cmd("-O2 -DONLINE_JUDGE -std=c++14 -Wall"))
        );
        // Flags that change where headers are found, or what is said.
        for odd in [
            "-I/opt/include",
            "-include",
            "-H",
            "-Winvalid-pch",
            "-v",
            "-x",
            "-fdiagnostics-format=json",
            "-D",
        ] {
            let c = cmd(&format!("g++ -O2 {odd} -o {{exe}} {{src}}"));
            assert_eq!(build_flags(gxx, &c), None, "{odd}");
        }
        assert_eq!(build_flags(Path::new("/nonexistent/g++"), &cmd("g++ -O2")), None);
    }

    #[test]
    fn a_source_that_names_the_header_anywhere_may_use_it() {
        assert!(mentions_header(b"#include <bits/stdc++.h>\nint main(){}"));
        assert!(mentions_header(b"/*\n#include <bits/stdc++.h>\n*/\n"));
        assert!(!mentions_header(b"#include <cstdio>\n"));
    }

    #[test]
    fn the_files_a_dependency_file_names_are_read() {
        let make = "stdc++.h.gch: /usr/include/a.h \\\n /usr/include/b/c.h\n";
        assert_eq!(
            dependencies(make),
            Some(vec![
                PathBuf::from("/usr/include/a.h"),
                PathBuf::from("/usr/include/b/c.h")
            ])
        );
        assert_eq!(dependencies("x.gch: relative.h\n"), None);
        assert_eq!(dependencies("x.gch: /a\\ b.h\n"), None);
        assert_eq!(dependencies(""), None);
    }

    #[test]
    fn a_file_replaced_or_written_in_place_changes_its_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("h.h");
        std::fs::write(&file, "a").unwrap();
        let before = stamp(&file);
        let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        // Same size, the old time given back: the change time still moves.
        std::fs::write(&file, "b").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        assert_ne!(stamp(&file), before);
        assert!(stamp(&dir.path().join("none")).starts_with("- "));
    }
}
