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
