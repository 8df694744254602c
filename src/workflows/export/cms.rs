//! A CMS task in the `italy_yaml` format (what `cmsImportTask` loads):
//!
//! ```text
//! task.yaml                  name, title, time and memory limits, n_input, infile/outfile
//!                            ("" = stdin/stdout), public (sample) tests, total_value
//! input/input0.txt ...       the tests, numbered from 0 (grouped by subtask)
//! output/output0.txt ...     their answers
//! check/checker              the Python checker as a CMS comparator: the score on
//!                            stdout, `translate:success` / `translate:wrong` on stderr
//! gen/GEN                    with scoring groups, or tests of unequal points (the
//!                            bundled problem's sample 0, 3 and 4): `# ST: points`
//!                            before each subtask's tests (CMS's GroupMin)
//! statement/statement.md     the statement (CMS wants statement/statement.pdf:
//!                            make one, or import with --no-statement)
//! ```

use super::checkers::{PythonProtocol, python_checker};
use super::data::{self, checked_tests, subtasks};
use super::{ExportError, PackageFormat, Summary, write, write_executable, yaml_string};
use crate::package::Problem;
use std::path::Path;

/// The CMS format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cms;

impl PackageFormat for Cms {
    fn name(&self) -> &'static str {
        "cms"
    }

    fn write(&self, problem: &Problem, dir: &Path, name: &str) -> Result<Summary, ExportError> {
        let config = &problem.config;
        let statement = data::statement(problem, "CMS")?;
        let mut summary = Summary {
            format: self.name(),
            ..Summary::default()
        };
        let tests = checked_tests(problem)?;
        let groups = subtasks(problem, &tests.tests)?;
        // CMS's total_value gives every test the same share, the sample
        // included: tests of their own points (a package's `total`, an
        // unscored sample) go as one subtask each, as groups do.
        let uneven = groups.iter().any(|g| g.points != groups[0].points);
        let grouped = !config.scoring.groups.is_empty() || uneven;
        let total: u32 = groups.iter().map(|g| g.points).sum();
        if grouped && total != 100 {
            return Err(ExportError::Unsupported {
                package: config.name.clone(),
                message: format!(
                    "the scoring groups (or the tests' own points) add up to {total} points: CMS's loader wants subtasks that add up to 100"
                ),
            });
        }
        // CMS numbers the tests subtask by subtask: `next` is the number.
        let mut public = Vec::new();
        let mut gen_file = String::new();
        let mut next = 0;
        for g in &groups {
            if grouped {
                gen_file += &format!("# ST: {}\n", g.points);
            }
            for &t in &g.tests {
                let test = &tests.tests[t];
                write(&dir.join(format!("input/input{next}.txt")), &test.input)?;
                write(&dir.join(format!("output/output{next}.txt")), &test.answer)?;
                gen_file += &format!("{}\n", test.name);
                if test.group == "sample" {
                    public.push(next.to_string());
                }
                summary.count_test(test.group);
                next += 1;
            }
        }
        if grouped {
            write(&dir.join("gen/GEN"), gen_file)?;
        }
        let (infile, outfile) = match &config.io {
            Some(io) => (io.input.as_str(), io.output.as_str()),
            None => ("", ""),
        };
        let mut y = String::from("# Written by `mayan-judge export --format cms` from problem.toml.\n");
        y += &format!(
            "name: {}\ntitle: {}\n",
            yaml_string(name),
            yaml_string(config.title.english())
        );
        y += &format!(
            "time_limit: {}\nmemory_limit: {}\nn_input: {}\n",
            config.limits.time_ms as f64 / 1000.0,
            config.limits.memory_mib,
            next
        );
        y += &format!(
            "infile: {}\noutfile: {}\npublic_testcases: {}\ntoken_mode: disabled\n",
            yaml_string(infile),
            yaml_string(outfile),
            yaml_string(&public.join(","))
        );
        if !grouped {
            y += &format!("total_value: {total}\n");
        }
        write(&dir.join("task.yaml"), y)?;
        write_executable(
            &dir.join("check/checker"),
            python_checker(PythonProtocol::Cms, problem.checker.accept_any),
        )?;
        write(&dir.join("statement/statement.md"), statement)?;
        summary.notes.push(
            "CMS wants statement/statement.pdf: make one from statement/statement.md, or import with --no-statement"
                .into(),
        );
        Ok(summary)
    }
}
