//! Codeforces Polygon's problem package (the folder Polygon builds and
//! imports, read by its `problem.xml`):
//!
//! ```text
//! problem.xml                      names, limits, file I/O, the testset (points,
//!                                  groups), the checker, the solutions and their tags
//! files/check.cpp                  the testlib checker (Polygon supplies testlib.h)
//! tests/01, tests/01.a, ...        the tests and their answers, in the package's order
//! statements/english/problem.tex   statement.md converted
//! statements/chinese/problem.tex   statement.zh-CN.md converted, where the package has it
//! statements/chinese/statement.tex the same as a document to print (`xelatex`: ctex, a CJK font)
//! solutions/<name>.<ext>           the reference programs (C, C++, Rust, Python 3)
//! ```
//!
//! Scoring groups become Polygon groups with `points-policy="complete-group"`;
//! without groups every test carries its own points (`Scoring::test_points`).

use super::checkers::testlib_checker;
use super::data::{self, ExportTest, Subtask, checked_tests, reference_programs_of, subtasks};
use super::{ExportError, PackageFormat, Summary, latex, safe_file_name, write};
use crate::package::Problem;
use html_escape::encode_double_quoted_attribute as attr;
use std::path::Path;

/// The Polygon format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Polygon;

/// Polygon's source type for a package language, or `None`.
fn source_type(language: &str) -> Option<&'static str> {
    match language {
        "c" => Some("c.gcc"),
        "cpp" => Some("cpp.g++17"),
        "rust" => Some("rust.2021"),
        "python" => Some("python.3"),
        _ => None,
    }
}

/// Polygon's solution tag for an expected-verdict folder (the first
/// accepted program is the main one).
fn tag(folder: &str, first_accepted: bool) -> &'static str {
    match folder {
        "accepted" if first_accepted => "main",
        "accepted" => "accepted",
        "wrong_answer" => "wrong-answer",
        "time_limit_exceeded" => "time-limit-exceeded",
        _ => "rejected",
    }
}

impl PackageFormat for Polygon {
    fn name(&self) -> &'static str {
        "polygon"
    }

    fn write(&self, problem: &Problem, dir: &Path, _name: &str) -> Result<Summary, ExportError> {
        let statement = data::statement(problem, "Polygon")?;
        let mut summary = Summary {
            format: self.name(),
            ..Summary::default()
        };
        let tests = checked_tests(problem)?;
        let groups = subtasks(problem, &tests.tests)?;
        for (i, t) in tests.tests.iter().enumerate() {
            write(&dir.join(format!("tests/{:02}", i + 1)), &t.input)?;
            write(&dir.join(format!("tests/{:02}.a", i + 1)), &t.answer)?;
            summary.count_test(t.group);
        }
        write(
            &dir.join("files/check.cpp"),
            testlib_checker(problem.checker.accept_any),
        )?;
        write(
            &dir.join("statements/english/problem.tex"),
            latex::convert(&statement, |_| false),
        )?;
        let chinese = data::chinese_statement(problem)?;
        if let Some(zh) = &chinese {
            write(
                &dir.join("statements/chinese/problem.tex"),
                latex::convert(zh, |_| false),
            )?;
            write(
                &dir.join("statements/chinese/statement.tex"),
                latex::chinese_document(
                    problem
                        .config
                        .title
                        .in_language("zh-CN")
                        .unwrap_or(problem.config.title.english()),
                    zh,
                ),
            )?;
        }
        let solutions = self.write_solutions(problem, dir, &mut summary)?;
        let xml = problem_xml(problem, &tests.tests, &groups, &solutions, chinese.is_some());
        write(&dir.join("problem.xml"), xml)?;
        summary
            .notes
            .push("Polygon compiles files/check.cpp with its own testlib.h".into());
        Ok(summary)
    }
}

/// A solution as `problem.xml` lists it: path, source type, tag.
type Solution = (String, &'static str, &'static str);

impl Polygon {
    /// Copies the reference programs into `solutions/`; what `problem.xml`
    /// lists.
    fn write_solutions(
        &self,
        problem: &Problem,
        dir: &Path,
        summary: &mut Summary,
    ) -> Result<Vec<Solution>, ExportError> {
        let (programs, _) = reference_programs_of(problem)?;
        let mut out: Vec<Solution> = Vec::new();
        for program in &programs {
            let Some(kind) = source_type(&program.language) else {
                summary.notes.push(format!(
                    "left out {}: not in a language exported to Polygon (C, C++, Rust, Python 3)",
                    program.path.display()
                ));
                continue;
            };
            let file = safe_file_name(&program.path.file_name().unwrap_or_default().to_string_lossy());
            let path = format!("solutions/{file}");
            if out.iter().any(|(p, ..)| *p == path) {
                return Err(ExportError::Unsupported {
                    package: problem.config.name.clone(),
                    message: format!("two reference programs would both be {path}: rename one"),
                });
            }
            let first_accepted = program.folder == "accepted" && !out.iter().any(|(.., t)| *t == "main");
            let source = std::fs::read(&program.path).map_err(ExportError::io(&program.path))?;
            write(&dir.join(&path), source)?;
            out.push((path, kind, tag(program.folder, first_accepted)));
            match summary.submissions.iter_mut().find(|(f, _)| f == program.folder) {
                Some((_, n)) => *n += 1,
                None => summary.submissions.push((program.folder.to_string(), 1)),
            }
        }
        Ok(out)
    }
}

/// `problem.xml` (with `chinese`, the Chinese statement listed beside the English one).
fn problem_xml(
    problem: &Problem,
    tests: &[ExportTest],
    groups: &[Subtask],
    solutions: &[Solution],
    chinese: bool,
) -> String {
    let config = &problem.config;
    let (input_file, output_file) = match &config.io {
        Some(io) => (io.input.as_str(), io.output.as_str()),
        None => ("", ""),
    };
    let grouped = !config.scoring.groups.is_empty();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n");
    x += &format!(
        "<problem revision=\"1\" short-name=\"{}\">\n",
        attr(&safe_file_name(&config.name))
    );
    x += &format!(
        "  <names>\n    <name language=\"english\" value=\"{}\"/>\n  </names>\n",
        attr(config.title.english())
    );
    x += "  <statements>\n    <statement charset=\"UTF-8\" language=\"english\" mathjax=\"true\" \
          path=\"statements/english/problem.tex\" type=\"application/x-tex\"/>\n";
    if chinese {
        x += "    <statement charset=\"UTF-8\" language=\"chinese\" mathjax=\"true\" \
              path=\"statements/chinese/problem.tex\" type=\"application/x-tex\"/>\n";
    }
    x += "  </statements>\n";
    x += &format!(
        "  <judging input-file=\"{}\" output-file=\"{}\">\n    <testset name=\"tests\">\n",
        attr(input_file),
        attr(output_file)
    );
    x += &format!(
        "      <time-limit>{}</time-limit>\n      <memory-limit>{}</memory-limit>\n",
        config.limits.time_ms,
        config.limits.memory_mib * 1024 * 1024
    );
    x += &format!(
        "      <test-count>{}</test-count>\n      <input-path-pattern>tests/%02d</input-path-pattern>\n      \
         <answer-path-pattern>tests/%02d.a</answer-path-pattern>\n      <tests>\n",
        tests.len()
    );
    for (i, t) in tests.iter().enumerate() {
        let group = groups.iter().find(|g| g.tests.contains(&i));
        let mut a = String::from("method=\"manual\"");
        if grouped {
            if let Some(g) = group {
                a += &format!(" group=\"{}\"", attr(&g.name));
            }
        } else {
            a += &format!(" points=\"{}\"", group.map_or(0, |g| g.points));
        }
        if t.group == "sample" {
            a += " sample=\"true\"";
        }
        x += &format!("        <test {a}/>\n");
    }
    x += "      </tests>\n";
    if grouped {
        x += "      <groups>\n";
        for g in groups {
            x += &format!(
                "        <group feedback-policy=\"icpc\" name=\"{}\" points=\"{}\" points-policy=\"complete-group\"/>\n",
                attr(&g.name),
                g.points
            );
        }
        x += "      </groups>\n";
    }
    x += "    </testset>\n  </judging>\n";
    x += "  <assets>\n    <checker name=\"check.cpp\" type=\"testlib\">\n      \
          <source path=\"files/check.cpp\" type=\"cpp.g++17\"/>\n      <copy path=\"check.cpp\"/>\n    \
          </checker>\n    <solutions>\n";
    for (path, kind, tag) in solutions {
        x += &format!(
            "      <solution tag=\"{tag}\">\n        <source path=\"{}\" type=\"{kind}\"/>\n      </solution>\n",
            attr(path)
        );
    }
    x += "    </solutions>\n  </assets>\n</problem>\n";
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solutions_get_polygons_tags() {
        assert_eq!(tag("accepted", true), "main");
        assert_eq!(tag("accepted", false), "accepted");
        assert_eq!(tag("wrong_answer", false), "wrong-answer");
        assert_eq!(tag("time_limit_exceeded", false), "time-limit-exceeded");
        assert_eq!(tag("run_time_error", false), "rejected");
        assert_eq!(source_type("cpp"), Some("cpp.g++17"));
        assert_eq!(source_type("exe"), None);
    }

    #[test]
    fn the_chinese_statement_goes_with_the_english_one_and_as_a_document_to_print_with_a_cjk_font() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let problem = Problem::load(&repo.join("problems/mayan")).unwrap();
        let out = tempfile::tempdir().unwrap();
        Polygon.write(&problem, out.path(), "mayan").unwrap();
        let read = |f: &str| std::fs::read_to_string(out.path().join(f)).unwrap();
        assert!(
            read("problem.xml")
                .contains("language=\"chinese\" mathjax=\"true\" path=\"statements/chinese/problem.tex\"")
        );
        let fragment = read("statements/chinese/problem.tex");
        assert!(
            fragment.contains("\\section*{题目描述}") && fragment.contains("\\textbf{字典序最小}"),
            "{fragment}"
        );
        let document = read("statements/chinese/statement.tex");
        assert!(
            document.contains("\\documentclass[UTF8,a4paper,zihao=-4]{ctexart}"),
            "{document}"
        );
        assert!(
            document.contains("\\title{玛雅游戏}") && document.contains("30\\% 的数据"),
            "{document}"
        );
        assert!(document.trim_end().ends_with("\\end{document}"));
    }
}
