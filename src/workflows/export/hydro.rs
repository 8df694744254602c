//! Hydro's problem folder (what its "import problem" takes, zipped), whose
//! `testdata/` also serves LOJ (Lyrio) and UOJ with the same testlib checker:
//!
//! ```text
//! problem.yaml             title, tags
//! problem.md               statement.md as it is (Hydro renders Markdown)
//! testdata/config.yaml     type, time, memory, `filename` under file I/O,
//!                          `checker_type: testlib`, `checker`, subtasks
//! testdata/checker.cpp     the testlib checker (Hydro compiles it with its own testlib.h)
//! testdata/<group>-<name>.in / .ans
//! ```
//!
//! Hydro's file I/O is a stem (`filename: mayan` reads `mayan.in`, judges
//! `mayan.out`), so a package whose `[io]` names are not `STEM.in` and
//! `STEM.out` is refused. Subtasks are the scoring groups (`type: min`: a
//! group scores only when all its tests pass), or one per test.

use super::checkers::testlib_checker;
use super::data::{self, checked_tests, flat_name, subtasks, write_flat};
use super::{ExportError, PackageFormat, Summary, write, yaml_string};
use crate::package::Problem;
use std::path::Path;

/// The Hydro format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hydro;

impl PackageFormat for Hydro {
    fn name(&self) -> &'static str {
        "hydro"
    }

    fn write(&self, problem: &Problem, dir: &Path, _name: &str) -> Result<Summary, ExportError> {
        let config = &problem.config;
        let statement = data::statement(problem, "Hydro")?;
        let filename = match &config.io {
            None => None,
            Some(io) => match (io.input.strip_suffix(".in"), io.output.strip_suffix(".out")) {
                (Some(a), Some(b)) if a == b => Some(a.to_string()),
                _ => {
                    return Err(ExportError::Unsupported {
                        package: config.name.clone(),
                        message: format!(
                            "[io] input = `{}`, output = `{}`: Hydro's file I/O is `STEM.in` and `STEM.out`",
                            io.input, io.output
                        ),
                    });
                }
            },
        };
        let mut summary = Summary {
            format: self.name(),
            ..Summary::default()
        };
        let tests = checked_tests(problem)?;
        let groups = subtasks(problem, &tests.tests)?;
        write_flat(&dir.join("testdata"), &tests.tests, &mut summary)?;
        let mut y = String::from(
            "# Written by `mayan-judge export --format hydro` from problem.toml.\ntype: default\n",
        );
        y += &format!(
            "time: {}ms\nmemory: {}m\n",
            config.limits.time_ms, config.limits.memory_mib
        );
        if let Some(stem) = &filename {
            y += &format!("filename: {}\n", yaml_string(stem));
        }
        y += "checker_type: testlib\nchecker: checker.cpp\nsubtasks:\n";
        for (i, g) in groups.iter().enumerate() {
            y += &format!(
                "  - id: {}\n    score: {}\n    type: min\n    cases:\n",
                i + 1,
                g.points
            );
            for &t in &g.tests {
                let name = flat_name(&tests.tests[t]);
                y += &format!(
                    "      - input: {}\n        output: {}\n",
                    yaml_string(&format!("{name}.in")),
                    yaml_string(&format!("{name}.ans"))
                );
            }
        }
        write(&dir.join("testdata/config.yaml"), y)?;
        write(
            &dir.join("testdata/checker.cpp"),
            testlib_checker(problem.checker.accept_any),
        )?;
        write(
            &dir.join("problem.yaml"),
            format!("title: {}\ntag: []\n", yaml_string(config.title.english())),
        )?;
        write(&dir.join("problem.md"), statement)?;
        summary.notes.push(
            "Hydro, LOJ and UOJ compile testdata/checker.cpp with their own testlib.h (do not upload one)"
                .into(),
        );
        Ok(summary)
    }
}
