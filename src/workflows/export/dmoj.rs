//! A DMOJ problem folder (what a judge's `problem_storage_globs` points at;
//! the folder's name is the problem code):
//!
//! ```text
//! init.yml                      the tests with their points (scoring groups as
//!                               batches), the bridged checker
//! checker.py                    the Python checker under testlib's protocol
//! <group>-<name>.in / .ans      the tests
//! ```
//!
//! The checker is a bridged checker (`lang: PY3`, `type: testlib`): DMOJ runs
//! it in its sandbox as `checker.py INPUT OUTPUT ANSWER` and reads testlib's
//! exit codes. It is Python rather than the C++ testlib checker because a
//! DMOJ problem must ship `testlib.h` itself, which this project does not
//! distribute. Time and memory limits live on the site, not in `init.yml`;
//! DMOJ 4.1 has no file I/O, so programs read stdin there.

use super::checkers::{PythonProtocol, python_checker};
use super::data::{checked_tests, flat_name, subtasks, write_flat};
use super::{ExportError, PackageFormat, Summary, is_problem_id, write, yaml_string};
use crate::package::Problem;
use std::path::Path;

/// The DMOJ format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dmoj;

impl PackageFormat for Dmoj {
    fn name(&self) -> &'static str {
        "dmoj"
    }

    fn write(&self, problem: &Problem, dir: &Path, name: &str) -> Result<Summary, ExportError> {
        let config = &problem.config;
        let mut summary = Summary {
            format: self.name(),
            ..Summary::default()
        };
        if !is_problem_id(name) {
            summary.notes.push(format!(
                "DMOJ takes the problem code from the folder name, and `{name}` is not one (only a-z and 0-9)"
            ));
        }
        let tests = checked_tests(problem)?;
        let groups = subtasks(problem, &tests.tests)?;
        write_flat(dir, &tests.tests, &mut summary)?;
        let case = |i: usize| {
            let file = flat_name(&tests.tests[i]);
            format!(
                "in: {}, out: {}",
                yaml_string(&format!("{file}.in")),
                yaml_string(&format!("{file}.ans"))
            )
        };
        let mut y = String::from(
            "# Written by `mayan-judge export --format dmoj` from problem.toml.\n\
             checker:\n  name: bridged\n  args:\n    files: checker.py\n    lang: PY3\n    type: testlib\n\
             test_cases:\n",
        );
        let grouped = !config.scoring.groups.is_empty();
        for g in &groups {
            if grouped {
                y += "- batched:\n";
                for &t in &g.tests {
                    y += &format!("  - {{{}}}\n", case(t));
                }
                y += &format!("  points: {}\n", g.points);
            } else {
                y += &format!("- {{{}, points: {}}}\n", case(g.tests[0]), g.points);
            }
        }
        write(&dir.join("init.yml"), y)?;
        write(
            &dir.join("checker.py"),
            python_checker(PythonProtocol::Testlib, problem.checker.accept_any),
        )?;
        summary.notes.push(format!(
            "set the limits on the DMOJ site: {} ms, {} MiB (init.yml holds none)",
            config.limits.time_ms, config.limits.memory_mib
        ));
        if let Some(io) = &config.io {
            summary.notes.push(format!(
                "[io] {} / {} is not carried: DMOJ 4.1 has no file I/O, programs read stdin and write stdout",
                io.input, io.output
            ));
        }
        Ok(summary)
    }
}
