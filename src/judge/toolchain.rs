//! What a compiler's output depends on besides its own file and the
//! source: the folders of the headers and libraries it reads, stamped for
//! the compile cache's key, so that a library upgraded under a running
//! judge (`apt` upgrading `libstdc++-12-dev`, `rustup` a toolchain) gives
//! compilations a new key and never the program built against the old one.
//!
//! What this module owns:
//!
//! * **Which folders** ([`folders`]), asked once per process of each
//!   compiler and command, in the sandbox like any compilation:
//!   - GCC and Clang (`gcc`, `g++`, `cc`, `c++`, `clang`...): the folders
//!     of the `#include <...>` search (`-E -v`, with the command's flags),
//!     each with every folder below it, and the library folders
//!     (`-print-search-dirs`), each alone;
//!   - `rustc`: `<sysroot>/lib/rustlib` and every folder below it
//!     (`--print sysroot`);
//!   - any other compiler: none (its own file is in the key already).
//! * **Their state** ([`state`]): device, inode, modification and change
//!   times of each folder. A package manager writes a new file beside the
//!   old one and renames it into place, and each of those changes the
//!   folder's times; so does a folder added or removed. A file edited in
//!   place is not seen here (the precompiled header, `pch.rs`, stamps each
//!   of its own files). A change makes the folders be asked for again.

use crate::judge::sandbox::{Limits, RunSpec, Sandbox, Status};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The most folders stamped for one compiler (GCC 12's whole
/// `/usr/include` has some 820).
const MOST_FOLDERS: usize = 8192;

/// Which kind of compiler a file is, by its name (links followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// GCC or Clang, for C (`c`) or C++ (`c++`).
    Cc(&'static str),
    Rustc,
    Other,
}

fn kind(compiler: &Path) -> Kind {
    let name = compiler.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let stem = name.split('-').find(|part| {
        matches!(
            *part,
            "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" | "rustc"
        )
    });
    match stem {
        Some("g++" | "c++" | "clang++") => Kind::Cc("c++"),
        Some("gcc" | "cc" | "clang") => Kind::Cc("c"),
        Some("rustc") => Kind::Rustc,
        _ => Kind::Other,
    }
}

/// A compiler's folders, and their state when they were listed.
type Listed = (Vec<PathBuf>, String);

/// What one process knows of each compiler's folders.
static KNOWN: Mutex<Option<HashMap<String, Listed>>> = Mutex::new(None);

/// The state of the folders `compiler` run by `cmd` reads headers and
/// libraries from (empty for a compiler of another kind): a part of the
/// compile cache's key.
pub fn state(sandbox: &Sandbox, compiler: &Path, cmd: &[String], limits: Limits) -> String {
    let memo = format!("{}\0{}", compiler.display(), cmd.join("\0"));
    let known = KNOWN
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .as_ref()
        .and_then(|k| k.get(&memo).cloned());
    if let Some((listed, was)) = known {
        let now = stamps(&listed);
        if now == was {
            return now;
        }
    }
    let listed = folders(sandbox, compiler, cmd, limits);
    let now = stamps(&listed);
    KNOWN
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(memo, (listed, now.clone()));
    now
}

/// The folders whose state [`state`] takes, asked of the compiler itself.
fn folders(sandbox: &Sandbox, compiler: &Path, cmd: &[String], limits: Limits) -> Vec<PathBuf> {
    let real = std::fs::canonicalize(compiler).unwrap_or_else(|_| compiler.to_path_buf());
    let ask = |args: &[&str], with_flags: bool| {
        let mut all: Vec<std::ffi::OsString> = Vec::new();
        if with_flags {
            all.extend(compile_flags(cmd).into_iter().map(Into::into));
        }
        all.extend(args.iter().map(Into::into));
        output(sandbox, compiler, all, limits)
    };
    let mut found = Vec::new();
    // A `rustc` that leads to `rustup` (its proxy) is still `rustc`.
    let kind = match kind(&real) {
        Kind::Other => kind(compiler),
        known => known,
    };
    match kind {
        Kind::Cc(language) => {
            let verbose = ask(&["-x", language, "-E", "-v", "/dev/null"], true);
            for dir in include_search(&verbose) {
                below(&dir, &mut found);
            }
            found.extend(library_search(&ask(&["-print-search-dirs"], false)));
        }
        Kind::Rustc => {
            let sysroot = ask(&["--print", "sysroot"], false);
            if let Some(root) = sysroot.lines().next().filter(|l| l.starts_with('/')) {
                below(&Path::new(root).join("lib/rustlib"), &mut found);
            }
        }
        Kind::Other => {}
    }
    found.sort();
    found.dedup();
    found
}

/// The command's flags, less the source, the output and `-o`.
fn compile_flags(cmd: &[String]) -> Vec<String> {
    let mut flags = Vec::new();
    let mut args = cmd.iter().skip(1);
    while let Some(arg) = args.next() {
        if arg == "-o" {
            args.next();
        } else if !arg.contains("{src}") && !arg.contains("{exe}") {
            flags.push(arg.clone());
        }
    }
    flags
}

/// What the compiler prints (standard output, then error) run with `args`
/// in the sandbox; empty when it fails three times (a run the machine's
/// load spoiled is tried again: a probe that failed once would give the
/// same program another key).
fn output(sandbox: &Sandbox, compiler: &Path, args: Vec<std::ffi::OsString>, limits: Limits) -> String {
    let spec = RunSpec {
        program: compiler.to_path_buf(),
        args,
        limits,
        ..RunSpec::default()
    };
    for _ in 0..3 {
        if let Ok(result) = sandbox.run(&spec)
            && result.status == Status::Exited(0)
        {
            let mut text = String::from_utf8_lossy(&result.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&result.stderr));
            return text;
        }
    }
    String::new()
}

/// `dir` and every folder below it (links not followed), up to
/// [`MOST_FOLDERS`] in all.
fn below(dir: &Path, found: &mut Vec<PathBuf>) {
    let walk = walkdir::WalkDir::new(dir).follow_links(false).into_iter();
    for entry in walk.flatten() {
        if found.len() >= MOST_FOLDERS {
            return;
        }
        if entry.file_type().is_dir() {
            found.push(entry.into_path());
        }
    }
}

/// The folders of GCC's (or Clang's) `#include <...>` search, from its
/// `-v` output (also how `pch` finds the system's header).
pub fn include_search(verbose: &str) -> Vec<PathBuf> {
    verbose
        .lines()
        .skip_while(|l| !l.starts_with("#include <...> search starts here:"))
        .skip(1)
        .take_while(|l| !l.starts_with("End of search list."))
        .map(|l| PathBuf::from(l.trim()))
        .filter(|p| p.is_absolute())
        .collect()
}

/// The library folders of `-print-search-dirs` (its `libraries: =a:b`
/// line), as they are on disk (`..` resolved), those that exist.
fn library_search(printed: &str) -> Vec<PathBuf> {
    printed
        .lines()
        .find_map(|l| l.strip_prefix("libraries: ="))
        .map(|list| {
            list.split(':')
                .filter_map(|p| std::fs::canonicalize(p).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The state of each folder: device, inode, modification and change times.
fn stamps(folders: &[PathBuf]) -> String {
    use std::os::unix::fs::MetadataExt;
    let mut text = String::new();
    for dir in folders {
        let state = std::fs::symlink_metadata(dir).map_or("-".to_string(), |m| {
            format!(
                "{}:{}:{}.{}:{}.{}",
                m.dev(),
                m.ino(),
                m.mtime(),
                m.mtime_nsec(),
                m.ctime(),
                m.ctime_nsec()
            )
        });
        text.push_str(&state);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compilers_are_told_apart_by_name() {
        assert_eq!(
            kind(Path::new("/usr/bin/x86_64-linux-gnu-g++-12")),
            Kind::Cc("c++")
        );
        assert_eq!(kind(Path::new("/usr/bin/gcc-12")), Kind::Cc("c"));
        assert_eq!(kind(Path::new("/usr/lib/llvm-14/bin/clang++")), Kind::Cc("c++"));
        assert_eq!(
            kind(Path::new("/root/.rustup/toolchains/x/bin/rustc")),
            Kind::Rustc
        );
        assert_eq!(kind(Path::new("/usr/bin/fpc")), Kind::Other);
        assert_eq!(kind(Path::new("/usr/bin/g++x")), Kind::Other);
    }

    #[test]
    fn the_search_folders_are_read_from_what_the_compiler_prints() {
        let verbose = "#include \"...\" search starts here:\n#include <...> search starts here:\n /usr/include/c++/12\n /usr/include\nEnd of search list.\n";
        assert_eq!(
            include_search(verbose),
            [
                PathBuf::from("/usr/include/c++/12"),
                PathBuf::from("/usr/include")
            ]
        );
        let printed = "install: /x/\nprograms: =/a\nlibraries: =/usr/lib/../lib:/nonexistent\n";
        assert_eq!(
            library_search(printed),
            [std::fs::canonicalize("/usr/lib/../lib").unwrap()]
        );
    }

    #[test]
    fn a_file_renamed_into_a_folder_changes_its_state() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("bits");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("h.h"), "1").unwrap();
        let mut listed = Vec::new();
        below(dir.path(), &mut listed);
        assert_eq!(listed.len(), 2);
        let before = stamps(&listed);
        std::thread::sleep(std::time::Duration::from_millis(20));
        // As dpkg upgrades a file: written beside, renamed over.
        std::fs::write(sub.join("h.h.dpkg-new"), "2").unwrap();
        std::fs::rename(sub.join("h.h.dpkg-new"), sub.join("h.h")).unwrap();
        assert_ne!(stamps(&listed), before);
    }
}
