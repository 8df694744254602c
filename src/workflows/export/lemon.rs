//! A LemonLime contest folder with one task, opened with "Open contest"
//! (LemonLime reads the JSON `.cdf`, version 1.0):
//!
//! ```text
//! <name>.cdf                     the contest: the task's limits, file names, test cases
//!                                (a scoring group is one test case of several files)
//! data/<task>/<group>-<name>.in / .ans
//! data/<task>/spj                the special judge: `mayan-judge check --protocol lemon`
//! data/<task>/mayan-judge        a copy of the binary that exported (build it with
//!                                .ci/portable-build for NOI Linux)
//! source/                        where LemonLime looks for contestants' folders
//! ```
//!
//! The special judge is the judge's own checker, so every reading and accept
//! mode is carried.

use super::data::{checked_tests, flat_name, subtasks, write_flat};
use super::{ExportError, PackageFormat, Summary, safe_file_name, write, write_executable};
use crate::package::Problem;
use serde_json::json;
use std::path::Path;

/// LemonLime's `Task::Traditional`.
const TRADITIONAL: u32 = 0;
/// LemonLime's `Task::SpecialJudgeMode` (the Lemon protocol).
const SPECIAL_JUDGE_MODE: u32 = 4;

/// The LemonLime format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lemon;

impl PackageFormat for Lemon {
    fn name(&self) -> &'static str {
        "lemon"
    }

    fn any_reading(&self) -> bool {
        true
    }

    fn write(&self, problem: &Problem, dir: &Path, name: &str) -> Result<Summary, ExportError> {
        let config = &problem.config;
        let task = safe_file_name(&config.name);
        let mut summary = Summary {
            format: self.name(),
            ..Summary::default()
        };
        let tests = checked_tests(problem)?;
        let groups = subtasks(problem, &tests.tests)?;
        let data = dir.join("data").join(&task);
        write_flat(&data, &tests.tests, &mut summary)?;
        let exe = std::env::current_exe().map_err(ExportError::io(Path::new("/proc/self/exe")))?;
        let copy = data.join("mayan-judge");
        std::fs::copy(&exe, &copy).map_err(ExportError::io(&copy))?;
        let mut flags = format!("--reading {}", config.checker.reading);
        if problem.checker.accept_any {
            flags += " --any";
        }
        write_executable(
            &data.join("spj"),
            format!(
                "#!/bin/sh\n# LemonLime special judge, written by `mayan-judge export --format lemon`:\n\
                 # INPUT OUTPUT ANSWER FULL_SCORE SCORE_FILE MESSAGE_FILE, judged by the copy of\n\
                 # mayan-judge beside this script.\n\
                 exec \"$(dirname \"$0\")/mayan-judge\" check --protocol lemon {flags} \"$@\"\n"
            ),
        )?;
        let (input, output, stdio) = match &config.io {
            Some(io) => (io.input.clone(), io.output.clone(), false),
            None => (format!("{task}.in"), format!("{task}.out"), true),
        };
        let cases: Vec<_> = groups
            .iter()
            .map(|g| {
                let files = |ext: &str| -> Vec<String> {
                    g.tests
                        .iter()
                        .map(|&t| format!("{task}/{}.{ext}", flat_name(&tests.tests[t])))
                        .collect()
                };
                json!({
                    "fullScore": g.points,
                    "timeLimit": config.limits.time_ms,
                    "memoryLimit": config.limits.memory_mib,
                    "inputFiles": files("in"),
                    "outputFiles": files("ans"),
                })
            })
            .collect();
        let contest = json!({
            "version": "1.0",
            "contestTitle": config.title.english(),
            "tasks": [{
                "problemTitle": task,
                "sourceFileName": task,
                "inputFileName": input,
                "outputFileName": output,
                "standardInputCheck": stdio,
                "standardOutputCheck": stdio,
                "taskType": TRADITIONAL,
                "subFolderCheck": false,
                "comparisonMode": SPECIAL_JUDGE_MODE,
                "diffArguments": "--ignore-space-change --text --brief",
                "realPrecision": 3,
                "specialJudge": format!("{task}/spj"),
                "compilerConfiguration": {},
                "answerFileExtension": "out",
                "testCases": cases,
            }],
            "contestants": [],
        });
        let text = serde_json::to_string_pretty(&contest).unwrap_or_default();
        write(&dir.join(format!("{}.cdf", safe_file_name(name))), text + "\n")?;
        std::fs::create_dir_all(dir.join("source")).map_err(ExportError::io(&dir.join("source")))?;
        summary.notes.push(format!(
            "data/{task}/mayan-judge is a copy of {}: for NOI Linux (glibc 2.31) export with the portable build",
            exe.display()
        ));
        Ok(summary)
    }
}
