//! Writes two things into `$OUT_DIR` for the crate:
//!
//! - `bundled.rs`, the files of the bundled package for
//!   `src/package/embedded.rs`: `FILES`, one `(path, include_bytes!(...))`
//!   per file of `problems/mayan/` and `testdata/mayan/`, paths relative to
//!   the repository, in name order, WITHOUT the tests' answers (`.ans`,
//!   `.out`). A sandboxed program can read the judge's binary, so the binary
//!   must not carry the answers; `Embedded::extract` writes them with the
//!   solver. (`include_dir!` embeds a whole folder and has no way to leave
//!   files out.)
//! - `locales.rs`, every language's catalogues (`locales/TAG/*.ftl`) for
//!   `src/i18n.rs`.
//! - `displacement.bin`, the solver's displacement table
//!   (`src/puzzle/solver/bound_table.rs`, compiled here too): the binary
//!   carries it instead of building it at every start.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The bundled package's folders, relative to the repository, and whether
/// answers are left out of each.
const TREES: [(&str, bool); 2] = [("problems/mayan", false), ("testdata/mayan", true)];

/// The extensions of a test's stored answer (`package::ANSWER_EXTENSIONS`).
const ANSWER_EXTENSIONS: [&str; 2] = ["ans", "out"];

/// The board's size, for `bound_table.rs` (which reads it from
/// `crate::puzzle::sim`, as in the crate; the crate's unit tests compare the
/// table it carries with one built there).
mod puzzle {
    pub mod sim {
        pub const WIDTH: usize = 5;
        pub const HEIGHT: usize = 7;
    }
}

#[path = "src/puzzle/solver/bound_table.rs"]
#[allow(dead_code)]
mod bound_table;

fn main() {
    bundle();
    displacement_table();
    locales();
}

/// Writes `$OUT_DIR/locales.rs` for `src/i18n.rs`: `LOCALES`, one
/// `(tag, &[(file, include_str!(...))])` per folder of `locales/` (the
/// language's tag), every `.ftl` file of it, in name order. A new language
/// is a new folder: no code changes.
fn locales() {
    println!("cargo::rerun-if-changed=locales");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut languages: Vec<(String, Vec<String>)> = Vec::new();
    let dir = root.join("locales");
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path();
        if !path.is_dir() {
            continue;
        }
        // Each file of the folder: cargo looks at it again when it changes.
        println!("cargo::rerun-if-changed={}", path.display());
        let tag = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 tag")
            .to_string();
        let mut files: Vec<String> = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", path.display())).path())
            .filter(|p| p.extension().is_some_and(|e| e == "ftl"))
            .map(|p| {
                format!(
                    "locales/{tag}/{}",
                    p.file_name().and_then(|n| n.to_str()).expect("UTF-8 name")
                )
            })
            .collect();
        files.sort();
        languages.push((tag, files));
    }
    languages.sort();
    let mut code = String::from(
        "/// Every language's catalogue files (tag, [(path, text)]); written by build.rs.\n\
         static LOCALES: &[(&str, &[(&str, &str)])] = &[\n",
    );
    for (tag, files) in &languages {
        writeln!(code, "    ({tag:?}, &[").expect("writing to a string");
        for rel in files {
            writeln!(
                code,
                "        ({rel:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/\", {rel:?}))),"
            )
            .expect("writing to a string");
        }
        code.push_str("    ]),\n");
    }
    code.push_str("];\n");
    let out = out_dir().join("locales.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

/// Writes `$OUT_DIR/displacement.bin`.
fn displacement_table() {
    println!("cargo::rerun-if-changed=src/puzzle/solver/bound_table.rs");
    let out = out_dir().join("displacement.bin");
    std::fs::write(&out, bound_table::displacement()).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

fn out_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"))
}

/// Writes `$OUT_DIR/bundled.rs`.
fn bundle() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut files = Vec::new();
    for (tree, without_answers) in TREES {
        // A folder: cargo looks at every file in it.
        println!("cargo::rerun-if-changed={tree}");
        collect(&root, &root.join(tree), without_answers, &mut files);
    }
    files.sort();
    let mut code = String::from(
        "/// The bundled package's files (relative path, contents), without answers;\n\
         /// written by build.rs.\n\
         static FILES: &[(&str, &[u8])] = &[\n",
    );
    // Each path is spelled from `CARGO_MANIFEST_DIR` where the crate is
    // compiled, not from where this script ran: a checkout moved, or a
    // worktree sharing this target folder, would otherwise compile another
    // folder's files (or none) without this script running again.
    for rel in &files {
        writeln!(
            code,
            "    ({rel:?}, include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/\", {rel:?}))),"
        )
        .expect("writing to a string");
    }
    code.push_str("];\n");
    let out = out_dir().join("bundled.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

/// Adds every file under `dir` (as its path relative to root), answers left
/// out when `without_answers`.
fn collect(root: &Path, dir: &Path, without_answers: bool, files: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path();
        if path.is_dir() {
            collect(root, &path, without_answers, files);
            continue;
        }
        let is_answer = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ANSWER_EXTENSIONS.contains(&e));
        if without_answers && is_answer {
            continue;
        }
        let rel = path.strip_prefix(root).expect("under the repository");
        let rel = rel
            .to_str()
            .unwrap_or_else(|| panic!("{}: not UTF-8", path.display()));
        files.push(rel.to_string());
    }
}
