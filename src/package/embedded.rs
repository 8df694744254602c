//! The bundled `mayan` package, compiled into the binary, so that someone who
//! only installed the binary can grade at once. It is written out to a
//! temporary folder with the same layout as the repository
//! (`problems/mayan`, `testdata/mayan`) and then loaded like any package.
//!
//! The binary carries the package's files and the tests' inputs, and no
//! answer: a sandboxed program can read the judge's binary wherever it is
//! installed (`/usr/local/bin` is bound into every run's root), and one that
//! searched it for its own input found the stored answer next to it. The
//! answers are the solver's (as `validate` requires of every stored answer),
//! so [`Embedded::extract`] writes each test's `NAME.ans` with the solver,
//! under the package's reading: all 31 tests take a few milliseconds. The
//! list of files is made by `build.rs`, which leaves out `.ans` and `.out`
//! (`include_dir!` cannot leave files out).

use super::{PackageError, Problem};
use crate::puzzle::sim::{Puzzle, PuzzleError};
use crate::puzzle::solver::solve;
use std::path::{Path, PathBuf};

// `static FILES: &[(&str, &[u8])]`: every file of problems/mayan and
// testdata/mayan but the answers, by path relative to the repository.
include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// What can go wrong writing the bundled package out.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// A file or folder could not be written.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error (kept out of the error chain: the message already says it).
        cause: std::io::Error,
    },
    /// The written package does not load.
    #[error(transparent)]
    Package(#[from] PackageError),
    /// A bundled input is not a puzzle (the build's tests keep this from
    /// happening).
    #[error("{path}: {error}")]
    Input {
        /// The input.
        path: PathBuf,
        /// Why it is not a puzzle.
        error: PuzzleError,
    },
}

/// The bundled package written out to disk; the folder is removed on drop.
pub struct Embedded {
    root: tempfile::TempDir,
}

impl Embedded {
    /// Writes the bundled package to a fresh temporary folder, with each
    /// test's answer (`NAME.ans`) from the solver.
    pub fn extract() -> Result<Embedded, ExtractError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |cause| ExtractError::Io { path, cause }
        };
        let root = tempfile::Builder::new()
            .prefix("mayan-judge-bundled-")
            .tempdir()
            .map_err(io(&std::env::temp_dir()))?;
        for (rel, contents) in FILES {
            let path = root.path().join(rel);
            let dir = path.parent().expect("a file in a folder");
            std::fs::create_dir_all(dir).map_err(io(dir))?;
            std::fs::write(&path, contents).map_err(io(&path))?;
        }
        let bundled = Embedded { root };
        bundled.write_answers()?;
        Ok(bundled)
    }

    /// Writes `NAME.ans` beside each `NAME.in` of the package's tests: the
    /// solver's answer under the package's reading, as `solve` prints it.
    fn write_answers(&self) -> Result<(), ExtractError> {
        let problem = Problem::load(&self.package_dir())?;
        let reading = problem.checker.reading;
        let inputs = walkdir::WalkDir::new(&problem.tests_dir)
            .into_iter()
            .filter_map(Result::ok)
            .map(walkdir::DirEntry::into_path)
            .filter(|p| p.extension().is_some_and(|e| e == "in"));
        for input in inputs {
            let text = std::fs::read(&input).map_err(|cause| ExtractError::Io {
                path: input.clone(),
                cause,
            })?;
            let puzzle = Puzzle::parse(&text).map_err(|error| ExtractError::Input {
                path: input.clone(),
                error,
            })?;
            let answer = input.with_extension("ans");
            std::fs::write(&answer, solve(&puzzle, reading).to_text())
                .map_err(|cause| ExtractError::Io { path: answer, cause })?;
        }
        Ok(())
    }

    /// The package folder (`.../problems/mayan`).
    pub fn package_dir(&self) -> PathBuf {
        self.root.path().join("problems/mayan")
    }

    /// The root of the written-out tree.
    pub fn root(&self) -> &Path {
        self.root.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `dir`, by path relative to it, with its contents.
    fn files(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
        walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
                (rel, std::fs::read(e.path()).unwrap())
            })
            .collect()
    }

    #[test]
    fn the_bundled_package_loads_with_its_tests() {
        let e = Embedded::extract().unwrap();
        let p = Problem::load(&e.package_dir()).unwrap();
        assert_eq!(p.config.name, "mayan");
        assert!(p.tests().unwrap().len() >= 10);
    }

    #[test]
    fn the_chinese_statement_is_in_noips_layout_and_words() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(repo.join("problems/mayan/statement.zh-CN.md")).unwrap();
        let sections = [
            "## 题目描述",
            "## 输入格式",
            "## 输出格式",
            "## 输入输出样例",
            "## 说明/提示",
            "## 数据范围",
        ];
        let at: Vec<usize> = sections
            .iter()
            .map(|s| text.find(s).unwrap_or_else(|| panic!("no `{s}`")))
            .collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "the sections out of NOIP's order: {at:?}"
        );
        for words in [
            "字典序",
            "`mayan.in`",
            "`mayan.out`",
            "### 输入 #1",
            "### 输出 #1",
            "3000 ms",
            "128 MiB",
        ] {
            assert!(text.contains(words), "no `{words}`");
        }
        assert!(
            !text.contains('秒'),
            "the limit in seconds beside the page's milliseconds"
        );
    }

    #[test]
    fn the_bundled_package_scores_out_of_100_with_the_sample_unscored_as_noip_did() {
        let e = Embedded::extract().unwrap();
        let p = Problem::load(&e.package_dir()).unwrap();
        let tests = p.tests().unwrap();
        let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
        let points = p.config.scoring.test_points(&names);
        assert_eq!(points.iter().sum::<u32>(), 100, "{points:?}");
        for (name, points) in names.iter().zip(&points) {
            assert_eq!(
                *points == 0,
                name.starts_with("sample/"),
                "{name}: {points} points"
            );
        }
    }

    #[test]
    fn the_binary_carries_inputs_and_no_answer() {
        let answers = FILES
            .iter()
            .filter(|(rel, _)| rel.ends_with(".ans") || rel.ends_with(".out"));
        assert_eq!(answers.count(), 0);
        assert!(FILES.iter().any(|(rel, _)| *rel == "testdata/mayan/secret/1.in"));
        assert!(FILES.iter().any(|(rel, _)| *rel == "problems/mayan/problem.toml"));
    }

    #[test]
    fn the_written_out_package_is_the_repositorys_byte_for_byte_answers_included() {
        let e = Embedded::extract().unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        for tree in ["problems/mayan", "testdata/mayan"] {
            let (written, stored) = (files(&e.root().join(tree)), files(&repo.join(tree)));
            assert_eq!(
                written.keys().collect::<Vec<_>>(),
                stored.keys().collect::<Vec<_>>(),
                "{tree}"
            );
            for (rel, contents) in &stored {
                assert!(
                    written[rel] == *contents,
                    "{tree}/{}: written {:?}, stored {:?}",
                    rel.display(),
                    String::from_utf8_lossy(&written[rel]),
                    String::from_utf8_lossy(contents)
                );
            }
        }
    }
}
