//! The package built into the binary (`src/package/embedded.rs`): a
//! sandboxed program can read the judge's binary wherever it is installed
//! (`/usr/local/bin` is bound into every run's root), so the binary carries
//! the tests' inputs and no answer.

use crate::util::manifest;
use std::path::PathBuf;

/// The stored answers of the bundled package worth looking for: every
/// `testdata/mayan/**/*.ans` but `-1` (three bytes found anywhere) and the
/// short ones, and but `sample/`, whose answer the statement shows.
fn distinctive_answers() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = manifest().join("testdata/mayan");
    let answers: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(&dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "ans"))
        .filter(|p| !p.starts_with(dir.join("sample")))
        .map(|p| {
            let text = std::fs::read(&p).unwrap();
            (p, text)
        })
        .filter(|(_, text)| text.trim_ascii() != b"-1" && text.len() >= 10)
        .collect();
    assert!(answers.len() >= 15, "too few answers to look for: {answers:?}");
    answers
}

#[test]
fn the_binary_holds_none_of_the_bundled_tests_answers() {
    let binary = std::fs::read(env!("CARGO_BIN_EXE_mayan-judge")).unwrap();
    // The search finds what the binary does carry: a test's input.
    let input = std::fs::read(manifest().join("testdata/mayan/secret/1.in")).unwrap();
    assert!(contains(&binary, &input), "the search misses a bundled input");
    let found: Vec<String> = distinctive_answers()
        .into_iter()
        .filter(|(_, answer)| contains(&binary, answer))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert!(found.is_empty(), "answers in the binary: {found:#?}");
}

/// Whether `needle` (not empty) occurs in `haystack`: glibc's `memmem`
/// (two-way search, vectorised), whatever the tests' optimisation level; a
/// byte-by-byte loop in the unoptimised test build took 20 s over the
/// answers and the 70 MB binary.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    assert!(!needle.is_empty(), "a non-empty answer");
    // SAFETY: both pointers and lengths come from live slices; memmem only
    // reads within them.
    let found = unsafe {
        nix::libc::memmem(
            haystack.as_ptr().cast(),
            haystack.len(),
            needle.as_ptr().cast(),
            needle.len(),
        )
    };
    !found.is_null()
}
