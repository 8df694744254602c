//! A DMOJ problem folder (what a judge's `problem_storage_globs` points at;
//! the folder's name is the problem code):
//!
//! ```text
//! init.yml                      the output limit, the tests with their points
//!                               (scoring groups as batches), the checker
//! checker.py                    the Python checker, as a checker module (or:)
//! checker.cpp, testlib.h        the C++ testlib checker, bridged, with the
//!                               testlib.h given by `--testlib`
//! <group>-<name>.in / .ans      the tests
//! ```
//!
//! By default the checker is `checker.py` as DMOJ's own checkers are Python
//! modules (`checker: checker.py`): DMOJ loads it once into its judge process
//! and calls its `check()` for every test, with no process started (its
//! `PROTOCOL` is testlib, so the same file also runs as a bridged testlib
//! checker where an admin wants it sandboxed). With `--testlib FILE` it is
//! the C++ testlib checker the Polygon and Hydro exports carry, as a bridged
//! checker (`type: testlib`, `lang: CPP17`): DMOJ compiles it once per
//! submission and runs it in its sandbox as `checker INPUT OUTPUT ANSWER`
//! for each test. A DMOJ problem must ship `testlib.h` itself (DMOJ compiles
//! the checker with the problem's files), and this project does not
//! distribute it. `tests/dmoj-speed` measures each way against `grade`
//! (docs/EXPORT.md). `init.yml` carries the package's output limit as
//! `output_limit_length` (DMOJ's default is 24 MiB, which its judge process
//! holds and hands to `check()` whole); time and memory limits live on the
//! site. DMOJ 4.1 has no file I/O, so programs read stdin there.

use super::checkers::{PythonProtocol, python_checker, testlib_checker};
use super::data::{checked_tests, flat_name, subtasks, write_flat};
use super::{ExportError, PackageFormat, Summary, is_problem_id, write, yaml_string};
use crate::package::Problem;
use std::path::{Path, PathBuf};

/// What the C++ testlib checker calls, so a file without it is not testlib.h
/// (the message of [`ExportError::NotTestlib`] names it).
const TESTLIB_MARK: &str = "registerTestlibCmd";

/// The DMOJ format.
#[derive(Clone, Debug, Default)]
pub struct Dmoj {
    /// testlib.h to ship beside the C++ checker; `None` writes the Python
    /// checker module.
    pub testlib: Option<PathBuf>,
}

impl Dmoj {
    /// `init.yml`'s checker and the checker's files, written into `dir`.
    fn write_checker(&self, problem: &Problem, dir: &Path) -> Result<&'static str, ExportError> {
        let accept_any = problem.checker.accept_any;
        let Some(testlib) = &self.testlib else {
            write(
                &dir.join("checker.py"),
                python_checker(PythonProtocol::Testlib, accept_any),
            )?;
            return Ok("checker: checker.py\n");
        };
        let header = std::fs::read(testlib).map_err(ExportError::io(testlib))?;
        if !String::from_utf8_lossy(&header).contains(TESTLIB_MARK) {
            return Err(ExportError::NotTestlib(testlib.clone()));
        }
        write(&dir.join("testlib.h"), header)?;
        write(&dir.join("checker.cpp"), testlib_checker(accept_any))?;
        // DMOJ compiles the checker again for every submission (its cache
        // of compiled helpers lives in the worker process it forks for each
        // one); `-O0` comes after its `-O2` and halves that compilation, and
        // the checker's work per test is too small for optimisation to show.
        Ok(
            "checker:\n  name: bridged\n  args:\n    files: [checker.cpp, testlib.h]\n    lang: CPP17\n    flags: [-O0]\n    type: testlib\n",
        )
    }
}

/// `init.yml`'s output limit: a longer output is OLE in DMOJ, as over the
/// package's limit in `grade`, and never reaches the checker.
fn output_limit(bytes: u64) -> String {
    format!(
        "# The package's output limit, {} KiB (DMOJ's default: 24 MiB).\noutput_limit_length: {bytes}\n",
        bytes / 1024
    )
}

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
        let mut y = String::from("# Written by `mayan-judge export --format dmoj` from problem.toml.\n");
        y += &output_limit(config.limits.output_bytes());
        y += self.write_checker(problem, dir)?;
        y += "test_cases:\n";
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
        summary.notes.push(format!(
            "set the limits on the DMOJ site: {} ms, {} MiB (init.yml holds the output limit only)",
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
