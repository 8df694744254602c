//! What every export format carries from a package, read and checked once:
//! the tests (each input against RULES.md and the package's `max_n`, each
//! answer against the solver, both in the canonical layout), the scoring
//! groups as lists of those tests, the reference programs with their
//! languages, and the statement.

use super::{ExportError, Summary, safe_file_name, write};
use crate::package::Problem;
use crate::package::expected::FOLDERS;
use crate::package::languages::LanguageTable;
use crate::puzzle::checker;
use crate::puzzle::sim::Puzzle;
use crate::puzzle::solver::format_moves;
use crate::workflows::validate::reference_programs;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The statement a package holds, beside its `problem.toml`.
pub const STATEMENT_FILE: &str = "statement.md";

/// One test, checked and in the canonical layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportTest {
    /// The package's name for it (`secret/bottom-1`).
    pub name: String,
    /// `sample` or `secret` (tests outside both go to `secret`).
    pub group: &'static str,
    /// A flat file name without extension (`bottom-1`): deeper folders are
    /// joined with `-`, unsafe characters become `_`.
    pub file: String,
    /// The input (`Puzzle::to_text`).
    pub input: String,
    /// The answer: the solver's moves, one a line, or `-1`.
    pub answer: String,
}

/// The checked tests, and how many files differ from the package's only in
/// their layout (whitespace).
pub struct Tests {
    /// In the package's (natural) order.
    pub tests: Vec<ExportTest>,
    /// Input and answer files rewritten in the canonical layout.
    pub rewritten: usize,
}

/// Where a test goes: `(group, file name without extension)`. Tests in
/// `sample/` and `secret/` keep their group; deeper folders are flattened
/// with `-`; tests outside those two groups go to `secret/`.
pub fn test_destination(name: &str) -> (&'static str, String) {
    let parts: Vec<&str> = name.split('/').collect();
    let (group, rest) = match parts.as_slice() {
        ["sample", rest @ ..] if !rest.is_empty() => ("sample", rest),
        ["secret", rest @ ..] if !rest.is_empty() => ("secret", rest),
        all => ("secret", all),
    };
    (group, safe_file_name(&rest.join("-")))
}

/// Reads and checks every test of `problem`: each input against the rules
/// and the package's `max_n`, each answer against the solver (the exported
/// checkers trust the answer files to be the smallest solutions). Two tests
/// that would get the same `group/file` are an error.
pub fn checked_tests(problem: &Problem) -> Result<Tests, ExportError> {
    let mut written: BTreeMap<String, String> = BTreeMap::new();
    let mut out = Tests {
        tests: Vec::new(),
        rewritten: 0,
    };
    for test in problem.tests()? {
        let bad = |path: &Path, message: String| ExportError::BadTest {
            path: path.to_path_buf(),
            message,
        };
        let input = std::fs::read(&test.input).map_err(ExportError::io(&test.input))?;
        let puzzle = Puzzle::parse(&input).map_err(|e| bad(&test.input, format!("invalid puzzle: {e}")))?;
        let max_n = problem.config.input.max_n;
        if puzzle.n > max_n {
            return Err(bad(
                &test.input,
                format!("n = {} is over the package's max_n = {max_n}", puzzle.n),
            ));
        }
        let answer = std::fs::read(&test.answer).map_err(ExportError::io(&test.answer))?;
        let reference = checker::reference(&puzzle, Some(&answer), problem.checker.reading).map_err(|j| {
            bad(
                &test.answer,
                format!("{} (see `mayan-judge validate`)", j.message),
            )
        })?;
        let (group, file) = test_destination(&test.name);
        let target = format!("{group}/{file}");
        if let Some(other) = written.insert(target.clone(), test.name.clone()) {
            return Err(bad(
                &test.input,
                format!(
                    "tests `{other}` and `{}` would both be {target}: rename one",
                    test.name
                ),
            ));
        }
        let (input_text, answer_text) = (puzzle.to_text(), format_moves(reference.as_deref()));
        out.rewritten +=
            (input_text.as_bytes() != input) as usize + (answer_text.as_bytes() != answer) as usize;
        out.tests.push(ExportTest {
            name: test.name,
            group,
            file,
            input: input_text,
            answer: answer_text,
        });
    }
    Ok(out)
}

/// A scoring unit of the exported problem: its tests score `points` only
/// when all of them pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtask {
    /// The group's name (without groups: the test's name).
    pub name: String,
    /// Points for the whole subtask.
    pub points: u32,
    /// Indices into the tests.
    pub tests: Vec<usize>,
}

/// The package's scoring as subtasks: one per test (its own points)
/// without groups; with groups, one per group, and the tests no group holds
/// in a last one worth 0 points (the package gives them none). A test in two
/// groups cannot be carried by the formats' subtasks, and is an error.
pub fn subtasks(problem: &Problem, tests: &[ExportTest]) -> Result<Vec<Subtask>, ExportError> {
    let scoring = &problem.config.scoring;
    if scoring.groups.is_empty() {
        let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
        return Ok(tests
            .iter()
            .zip(scoring.test_points(&names))
            .enumerate()
            .map(|(i, (t, points))| Subtask {
                name: t.name.clone(),
                points,
                tests: vec![i],
            })
            .collect());
    }
    let mut owner: Vec<Option<usize>> = vec![None; tests.len()];
    let mut out = Vec::new();
    for (g, group) in scoring.groups.iter().enumerate() {
        let pattern = glob::Pattern::new(&group.tests).map_err(|e| ExportError::Unsupported {
            package: problem.config.name.clone(),
            message: format!("group `{}`: {e}", group.name),
        })?;
        let mut members = Vec::new();
        for (i, t) in tests.iter().enumerate() {
            if !pattern.matches(&t.name) {
                continue;
            }
            if let Some(first) = owner[i] {
                return Err(ExportError::Unsupported {
                    package: problem.config.name.clone(),
                    message: format!(
                        "test `{}` is in the groups `{}` and `{}`: the judges' subtasks hold each test once",
                        t.name, scoring.groups[first].name, group.name
                    ),
                });
            }
            owner[i] = Some(g);
            members.push(i);
        }
        out.push(Subtask {
            name: group.name.clone(),
            points: group.points,
            tests: members,
        });
    }
    let rest: Vec<usize> = (0..tests.len()).filter(|&i| owner[i].is_none()).collect();
    if !rest.is_empty() {
        out.push(Subtask {
            name: "ungrouped".into(),
            points: 0,
            tests: rest,
        });
    }
    out.retain(|s| !s.tests.is_empty());
    Ok(out)
}

/// A reference program and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceProgram {
    /// Its expected-verdict folder (`accepted`, `wrong_answer`, ...).
    pub folder: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The package's language for it (`c`, `cpp`, `rust`, `python`), or ""
    /// when none matches.
    pub language: String,
}

/// Every reference program of the package, by expected-verdict folder in the
/// usual order, then by name; and the folders that are not expected-verdict
/// folders (left out, for a note).
pub fn reference_programs_of(
    problem: &Problem,
) -> Result<(Vec<ReferenceProgram>, Vec<PathBuf>), ExportError> {
    let languages = LanguageTable::for_package(&problem.dir)?;
    let mut programs = Vec::new();
    for folder in FOLDERS {
        for path in reference_programs(&problem.reference_dir.join(folder)) {
            let language = languages
                .detect(&path)
                .map_or("", |l| l.name.as_str())
                .to_string();
            programs.push(ReferenceProgram {
                folder,
                path,
                language,
            });
        }
    }
    let mut others: Vec<PathBuf> = std::fs::read_dir(&problem.reference_dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    others.retain(|p| {
        p.is_dir() && !FOLDERS.contains(&p.file_name().unwrap_or_default().to_string_lossy().as_ref())
    });
    others.sort();
    Ok((programs, others))
}

/// An export needs a reference program the package expects to be accepted:
/// without one, nothing shows that the problem can be solved within its
/// limits (and Kattis, Polygon and DMOJ's tests want one).
pub fn require_accepted(problem: &Problem) -> Result<(), ExportError> {
    let (programs, _) = reference_programs_of(problem)?;
    if programs.iter().any(|p| p.folder == "accepted") {
        return Ok(());
    }
    Err(ExportError::Unsupported {
        package: problem.config.name.clone(),
        message: format!(
            "no accepted reference program in {}: add one (a program every test accepts) first",
            problem.reference_dir.join("accepted").display()
        ),
    })
}

/// The test's file name in formats that keep every test in one folder:
/// `sample-1`, `secret-bottom-1`.
pub fn flat_name(t: &ExportTest) -> String {
    format!("{}-{}", t.group, t.file)
}

/// Writes every test into `dir` as `FLAT.in` and `FLAT.ans` ([`flat_name`]:
/// the one-folder layout of Hydro, DMOJ and LemonLime) and counts it.
pub fn write_flat(dir: &Path, tests: &[ExportTest], summary: &mut Summary) -> Result<(), ExportError> {
    for t in tests {
        let name = flat_name(t);
        write(&dir.join(format!("{name}.in")), &t.input)?;
        write(&dir.join(format!("{name}.ans")), &t.answer)?;
        summary.count_test(t.group);
    }
    Ok(())
}

/// The exported checkers implement the literal reading only.
pub fn literal_only(problem: &Problem) -> Result<(), ExportError> {
    if problem.checker.reading == crate::puzzle::solver::Reading::LITERAL {
        return Ok(());
    }
    Err(ExportError::Unsupported {
        package: problem.config.name.clone(),
        message: format!(
            "[checker] reading = \"{}\": the exported checkers implement the literal rules only",
            problem.config.checker.reading
        ),
    })
}

/// The package's `statement.md`, or an error saying the format needs one.
pub fn statement(problem: &Problem, format: &str) -> Result<String, ExportError> {
    let path = problem.dir.join(STATEMENT_FILE);
    match std::fs::read_to_string(&path) {
        Ok(s) => Ok(s),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ExportError::Unsupported {
            package: problem.config.name.clone(),
            message: format!(
                "{} not found: a {format} package needs a statement",
                path.display()
            ),
        }),
        Err(e) => Err(ExportError::io(&path)(e)),
    }
}

/// The package's Chinese statement (`statement.zh-CN.md`), if it has one
/// as a plain file (a link is left out: nothing outside the package goes
/// into an export).
pub fn chinese_statement(problem: &Problem) -> Result<Option<String>, ExportError> {
    let path = problem.dir.join("statement.zh-CN.md");
    match std::fs::symlink_metadata(&path) {
        Ok(m) if m.is_file() => std::fs::read_to_string(&path)
            .map(Some)
            .map_err(ExportError::io(&path)),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_names_keep_their_group_or_go_to_secret() {
        assert_eq!(test_destination("sample/1"), ("sample", "1".into()));
        assert_eq!(test_destination("secret/big-1"), ("secret", "big-1".into()));
        assert_eq!(test_destination("secret/a/b"), ("secret", "a-b".into()));
        assert_eq!(test_destination("extra/7"), ("secret", "extra-7".into()));
        assert_eq!(test_destination("7"), ("secret", "7".into()));
        assert_eq!(test_destination("sample"), ("secret", "sample".into()));
        assert_eq!(test_destination("secret/x y"), ("secret", "x_y".into()));
    }

    fn test(name: &str) -> ExportTest {
        let (group, file) = test_destination(name);
        ExportTest {
            name: name.into(),
            group,
            file,
            input: String::new(),
            answer: String::new(),
        }
    }

    fn problem_with(scoring: &str) -> (crate::package::embedded::Embedded, Problem) {
        let e = crate::package::embedded::Embedded::extract().unwrap();
        let toml = e.package_dir().join(crate::package::PROBLEM_FILE);
        let text = std::fs::read_to_string(&toml).unwrap();
        std::fs::write(&toml, format!("{text}\n{scoring}")).unwrap();
        let p = Problem::load(&e.package_dir()).unwrap();
        (e, p)
    }

    #[test]
    fn groups_become_subtasks_and_ungrouped_tests_score_nothing() {
        let tests: Vec<ExportTest> = ["sample/1", "secret/b-1", "secret/b-2", "secret/c"]
            .into_iter()
            .map(test)
            .collect();
        let (_e, plain) = problem_with("");
        let s = subtasks(&plain, &tests).unwrap();
        // The bundled package's 100 points over its scored tests, the sample
        // scoring nothing.
        assert!(s.iter().all(|s| s.tests.len() == 1));
        assert_eq!(s.iter().map(|s| s.points).collect::<Vec<_>>(), [0, 33, 33, 34]);
        let (_e, grouped) = problem_with(
            "[[scoring.group]]\nname = \"b\"\ntests = \"secret/b-*\"\npoints = 60\n\
             [[scoring.group]]\nname = \"none\"\ntests = \"nothing/*\"\npoints = 40\n",
        );
        let s = subtasks(&grouped, &tests).unwrap();
        assert_eq!(
            s,
            [
                Subtask {
                    name: "b".into(),
                    points: 60,
                    tests: vec![1, 2]
                },
                Subtask {
                    name: "ungrouped".into(),
                    points: 0,
                    tests: vec![0, 3]
                }
            ]
        );
        let (_e, overlapping) = problem_with(
            "[[scoring.group]]\nname = \"b\"\ntests = \"secret/b-*\"\npoints = 60\n\
             [[scoring.group]]\nname = \"all\"\ntests = \"secret/*\"\npoints = 40\n",
        );
        let err = subtasks(&overlapping, &tests).unwrap_err().to_string();
        assert!(err.contains("groups `b` and `all`"), "{err}");
    }
}
