//! The C++ standard library's header `<bits/stdc++.h>`, which most NOIP
//! programs include, precompiled once per compiler and flags, so that a
//! class's compilations stop parsing the same headers again and again.
//!
//! What this module owns:
//!
//! * **Which compilations may use one** ([`build_flags`]): GCC's C++
//!   compiler (the real file's name, links followed: a `c++` that leads to
//!   clang gets none) with only flags known to be harmless here (`-O`,
//!   `-std=`, `-D`, `-f`, `-W`..., link flags dropped); a `languages.toml`
//!   with any other flag (`-I`, `-include`, `-H`, `-Winvalid-pch`...)
//!   gets none, and its programs compile exactly as before. And only a
//!   source that includes the header ([`include_line`]).
//! * **Building it** ([`for_compilation`]): from the system's own header
//!   (found by the compiler's own search list), with exactly the language's
//!   compile flags, in the sandbox like any compilation, once per process
//!   and compiler identity and flags (the compile cache's notion of a
//!   compiler, so an upgrade builds another); kept in the judge's private
//!   cache folder (`pch-<key>/bits/stdc++.h.gch`, files 0444) and found
//!   there by the next process. The first compilation that needs it builds
//!   it; compilations meanwhile go without it.
//! * **Using it**: the compilation gets `-I <pch-dir>` first, and that
//!   folder bound read-only into its sandbox. GCC looks for
//!   `bits/stdc++.h.gch` in each folder of the search before the header,
//!   and ignores one that does not fit (a macro defined first that the
//!   header uses, a `#pragma` before the include, other flags) silently,
//!   falling back to the system's header: the program then compiles as
//!   without it. The executable is the same byte for byte.
//! * **Messages** ([`restore_message`]): with the header precompiled, GCC
//!   names no includer for it, so the first "In file included from" chain
//!   that reaches it would lack its last line (`from sol.cpp:1:`); that
//!   line is put back, and the message is the one the contestant gets
//!   without it.

use crate::judge::sandbox::{Limits, RunSpec, Sandbox, Status};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The header, as programs include it.
const HEADER: &str = "bits/stdc++.h";

/// The precompiled header's name in the work folder of its build.
const GCH_NAME: &str = "stdc++.h.gch";

/// The file of a built header's folder that names the header it was built
/// from, and the header's state then ([`stamp`]).
const SOURCE_FILE: &str = "source";

/// Set to `0`, compilations use no precompiled header (for `bench`'s
/// baseline, or to rule it out).
pub const ENV_SWITCH: &str = "MAYAN_JUDGE_PCH";

/// A precompiled header ready for compilations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Precompiled {
    /// The folder searched first (`-I`), bound read-only into the
    /// compilation's sandbox; it holds `bits/stdc++.h.gch`.
    pub dir: PathBuf,
    /// The system header it was built from, as the compiler names it in
    /// messages.
    pub header: String,
}

impl Precompiled {
    /// The arguments that make a compilation look for it first.
    pub fn args(&self) -> [String; 2] {
        ["-I".to_string(), self.dir.to_string_lossy().into_owned()]
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

/// The line (from 1) of a source's `#include <bits/stdc++.h>` (or
/// `"bits/stdc++.h"`), the first if several; `None` when it has none.
pub fn include_line(code: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(code);
    text.split('\n')
        .position(|line| {
            let rest = line.trim_start();
            let Some(rest) = rest.strip_prefix('#') else {
                return false;
            };
            let Some(rest) = rest.trim_start().strip_prefix("include") else {
                return false;
            };
            let rest = rest.trim_start();
            [("<", ">"), ("\"", "\"")].iter().any(|(open, close)| {
                rest.strip_prefix(open)
                    .and_then(|r| r.strip_prefix(HEADER))
                    .is_some_and(|r| r.starts_with(close))
            })
        })
        .map(|i| i + 1)
}

/// Puts back the line GCC leaves out when it used a precompiled header: in
/// the first "In file included from" chain that reaches the header, the
/// includer (`from <name>:<line>:`, `line` the source's include, see
/// [`include_line`]). A message where that chain already names it (the
/// header was not used) or never reaches the header is returned as it is.
pub fn restore_message(message: &str, header: &str, name: &str, line: usize) -> String {
    let mut out = String::with_capacity(message.len() + 64);
    let mut done = false;
    for piece in message.split_inclusive('\n') {
        let text = piece.trim_end_matches('\n');
        if !done && let Some(ends) = chain_link_to(text, header) {
            done = true;
            if ends {
                out.push_str(&text[..text.len() - 1]);
                out.push_str(&format!(",\n                 from {name}:{line}:"));
                out.push_str(&piece[text.len()..]);
                continue;
            }
        }
        out.push_str(piece);
    }
    out
}

/// For a line of an include chain naming `header` (`In file included from
/// H:N,` or `                 from H:N:`): whether the chain ends there.
fn chain_link_to(line: &str, header: &str) -> Option<bool> {
    let rest = line
        .strip_prefix("In file included from ")
        .or_else(|| line.trim_start().strip_prefix("from "))?;
    let rest = rest.strip_prefix(header)?.strip_prefix(':')?;
    let (digits, end) = rest.split_at(rest.len().checked_sub(1)?);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    match end {
        ":" => Some(true),
        "," => Some(false),
        _ => None,
    }
}

/// What one process knows of a precompiled header, by its key.
#[derive(Clone, Debug)]
enum State {
    /// A compilation is building it: others go without.
    Building,
    /// Built (or found in the cache).
    Ready(Precompiled),
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

/// The precompiled header for a compilation by `request`, when one fits
/// its command and this judge isolates compilations (a private root to
/// bind it into, read-only, at its own path: not a cache folder under
/// `/tmp`, which each run mounts afresh): found in this process's memory or the cache,
/// or built now, at most once per process (a compilation that finds it
/// being built goes without). `None`: compile as without one.
pub fn for_compilation(request: &Request) -> Option<Precompiled> {
    let cache_dir = std::fs::canonicalize(request.cache_dir).ok()?;
    if !enabled() || !request.sandbox.binds_read_only(&cache_dir) {
        return None;
    }
    let flags = build_flags(request.compiler, request.cmd)?;
    let key = key(request.identity, &flags);
    {
        let mut known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
        let known = known.get_or_insert_with(HashMap::new);
        match known.get(&key) {
            Some(State::Ready(p)) if gch_path(&p.dir).is_file() => return Some(p.clone()),
            Some(State::Building | State::Unusable) => return None,
            _ => {}
        }
        known.insert(key.clone(), State::Building);
    }
    let found = find_or_build(request, &cache_dir, &flags, &key);
    let mut known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
    let state = found.clone().map_or(State::Unusable, State::Ready);
    known.get_or_insert_with(HashMap::new).insert(key, state);
    found
}

/// The name of a header built by the compiler `identity` with `flags`.
fn key(identity: &str, flags: &[String]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(identity.as_bytes());
    for flag in flags {
        hasher.update([0]);
        hasher.update(flag.as_bytes());
    }
    hasher.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The header in the cache, when it is there and its system header has not
/// changed since; else built into it.
fn find_or_build(request: &Request, cache_dir: &Path, flags: &[String], key: &str) -> Option<Precompiled> {
    let dir = cache_dir.join(format!("pch-{key}"));
    if let Some(found) = cached(&dir) {
        return Some(found);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let header = system_header(request, flags)?;
    build(request, flags, &header, &dir)
}

/// A header built earlier into `dir`, still matching its system header.
fn cached(dir: &Path) -> Option<Precompiled> {
    let source = std::fs::read_to_string(dir.join(SOURCE_FILE)).ok()?;
    let (header, recorded) = source.split_once('\n')?;
    let fits = gch_path(dir).is_file() && stamp(Path::new(header)) == recorded.trim_end();
    fits.then(|| Precompiled {
        dir: dir.to_path_buf(),
        header: header.to_string(),
    })
}

/// The state of the system header and its folder (size and time of each):
/// a library upgraded under the same compiler changes it.
fn stamp(header: &Path) -> String {
    let of = |p: &Path| {
        std::fs::metadata(p).ok().map_or(String::from("-"), |m| {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_secs());
            format!("{} {t}", m.len())
        })
    };
    let folder = header.parent().unwrap_or(header);
    format!("{} {}", of(header), of(folder))
}

/// The system's `bits/stdc++.h` as the compiler with `flags` finds it: the
/// first folder of its `#include <...>` search that holds it (asked of the
/// compiler itself, `-v`, in the sandbox).
fn system_header(request: &Request, flags: &[String]) -> Option<String> {
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
    search_list(&String::from_utf8_lossy(&result.stderr))
        .into_iter()
        .map(|dir| format!("{}/{HEADER}", dir.trim_end_matches('/')))
        .find(|header| Path::new(header).is_file())
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

/// Builds the header in the sandbox and keeps it at `dir` (whole or not
/// at all: built beside it and renamed).
fn build(request: &Request, flags: &[String], header: &str, dir: &Path) -> Option<Precompiled> {
    let building = tempfile::Builder::new()
        .prefix("pch-build-")
        .tempdir_in(request.cache_dir)
        .ok()?;
    let bits = building.path().join("bits");
    std::fs::create_dir(&bits).ok()?;
    let gch = bits.join(GCH_NAME);
    let mut args: Vec<std::ffi::OsString> = flags.iter().map(Into::into).collect();
    args.extend(["-x", "c++-header", header, "-o", GCH_NAME].map(Into::into));
    let spec = RunSpec {
        program: request.compiler.to_path_buf(),
        args,
        limits: request.limits,
        collect: vec![(GCH_NAME.to_string(), gch.clone())],
        ..RunSpec::default()
    };
    let result = request.sandbox.run(&spec).ok()?;
    if result.status != Status::Exited(0) || !gch.is_file() {
        return None;
    }
    let source = building.path().join(SOURCE_FILE);
    std::fs::write(&source, format!("{header}\n{}\n", stamp(Path::new(header)))).ok()?;
    seal(building.path()).ok()?;
    let kept = building.keep();
    if std::fs::rename(&kept, dir).is_err() {
        // Another judge kept one first: that one is used.
        let _ = std::fs::remove_dir_all(&kept);
    }
    cached(dir)
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

/// Where a header built into `dir` lies.
fn gch_path(dir: &Path) -> PathBuf {
    dir.join("bits").join(GCH_NAME)
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
    fn the_include_is_found_on_its_line() {
        assert_eq!(include_line(b"#include <bits/stdc++.h>\nint main(){}"), Some(1));
        assert_eq!(
            include_line(b"// hi\r\n#define N 5\n  #  include\t\"bits/stdc++.h\"\n"),
            Some(3)
        );
        assert_eq!(include_line(b"#include<bits/stdc++.h>"), Some(1));
        assert_eq!(
            include_line(b"#include <cstdio>\n// #include <bits/stdc++.h>\n"),
            None
        );
        assert_eq!(include_line(b"#include <bits/stdc++.hpp>\n"), None);
    }

    const HEADER_PATH: &str = "/usr/include/x86_64-linux-gnu/c++/12/bits/stdc++.h";

    #[test]
    fn the_includer_gcc_leaves_out_is_put_back_once() {
        let with = format!(
            "sol.cpp:5:14: error: no\nIn file included from /usr/include/c++/12/vector:64,\n                 from {HEADER_PATH}:71:\n/usr/include/c++/12/bits/stl_vector.h:1276:7: note: x\nIn file included from {HEADER_PATH}:65:\nnote: y\n"
        );
        let without = format!(
            "sol.cpp:5:14: error: no\nIn file included from /usr/include/c++/12/vector:64,\n                 from {HEADER_PATH}:71,\n                 from sol.cpp:3:\n/usr/include/c++/12/bits/stl_vector.h:1276:7: note: x\nIn file included from {HEADER_PATH}:65:\nnote: y\n"
        );
        assert_eq!(restore_message(&with, HEADER_PATH, "sol.cpp", 3), without);
        // Already there (the header was not used), or no chain: unchanged.
        assert_eq!(restore_message(&without, HEADER_PATH, "sol.cpp", 3), without);
        let plain = "sol.cpp:2:22: error: expected ';'\n";
        assert_eq!(restore_message(plain, HEADER_PATH, "sol.cpp", 1), plain);
        // The header itself first in a chain.
        assert_eq!(
            restore_message(
                &format!("In file included from {HEADER_PATH}:65:\nx"),
                HEADER_PATH,
                "a.cc",
                1
            ),
            format!("In file included from {HEADER_PATH}:65,\n                 from a.cc:1:\nx")
        );
    }

    #[test]
    fn gccs_search_list_is_read() {
        let verbose = "ignoring nonexistent directory \"/x\"\n#include \"...\" search starts here:\n#include <...> search starts here:\n /usr/include/c++/12\n /usr/include/x86_64-linux-gnu/c++/12\n /usr/include\nEnd of search list.\n";
        assert_eq!(
            search_list(verbose),
            [
                "/usr/include/c++/12",
                "/usr/include/x86_64-linux-gnu/c++/12",
                "/usr/include"
            ]
        );
    }
}
