//! The words of a result in a language (the catalogues of `crate::i18n`):
//! a checker's [`Reason`] (data) with its positions and move numbers, a
//! judgement placed at its line, how a run ended ([`RunReason`], data), a
//! test's reason, a verdict's name. English reads exactly as the checker's
//! and the judge's own text (which JSON, JUnit, CSV and `check`'s protocols
//! carry, unchanged); no language is derived from that English text.

use crate::i18n::{Arg, Locale};
use crate::judge::grading::{BrokenTest, GradeReport, SubmissionReport, TestResult};
use crate::judge::reason::{JudgeProblem, NoProgram, Notes, RunReason, ms_list};
use crate::puzzle::checker::{Illegal, Judgement, Reason};
use crate::puzzle::sim::IllegalMove;
use crate::puzzle::verdict::Verdict;

/// Arguments as text: numbers exactly as written (no float on the way).
fn args<const N: usize>(pairs: [(&'static str, String); N]) -> Vec<(&'static str, Arg<'static>)> {
    pairs.into_iter().map(|(k, v)| (k, Arg::from(v))).collect()
}

/// A submission's verdict counts (`8 AC，2 WA`), or why it has none, in
/// words (English: [`SubmissionReport::verdict_counts`]).
pub fn verdict_counts(l: Locale, s: &SubmissionReport) -> String {
    if l.is_english() {
        return s.verdict_counts();
    }
    if s.judge_error.is_some() {
        return l.t("counts-judge-error");
    }
    if s.no_program.is_some() {
        return no_program_short(l, s);
    }
    if s.compile_error.is_some() {
        return format!("CE {}", verdict_name(l, Verdict::CompileError));
    }
    let mut counts = std::collections::BTreeMap::new();
    for t in &s.tests {
        *counts.entry(t.verdict).or_insert(0usize) += 1;
    }
    let counts: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
    counts.join(&l.t("list-separator"))
}

/// A replay's captions on a terminal (`show`), in a language.
pub struct Captions(pub Locale);

impl crate::puzzle::sim::Captions for Captions {
    fn mv(&self, index: usize, mv: &str) -> String {
        let a = args([("index", index.to_string()), ("move", mv.to_string())]);
        self.0.text("replay-caption-move", &a)
    }
    fn before(&self) -> String {
        self.0.t("replay-caption-before")
    }
    fn step(&self, step: usize, cleared: u32) -> String {
        let a = args([("step", step.to_string()), ("cleared", cleared.to_string())]);
        self.0.text("replay-caption-step", &a)
    }
    fn nothing(&self) -> String {
        self.0.t("replay-caption-nothing")
    }
    fn after(&self, index: usize, blocks: u32) -> String {
        let a = args([("index", index.to_string()), ("blocks", blocks.to_string())]);
        self.0.text("replay-caption-after", &a)
    }
}

/// A run's peak memory as every report and page shows it: `1.5 MiB`.
pub fn memory(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// A verdict's name (`答案错误` for WA), beside its code where a person
/// reads it.
pub fn verdict_name(l: Locale, v: Verdict) -> String {
    l.t(&format!("verdict-{}", v.code()))
}

/// Why a move is illegal, in words.
pub fn illegal(l: Locale, why: &Illegal) -> String {
    let m = match why {
        Illegal::Move(m) => m,
        Illegal::Text(t) => return t.clone(),
    };
    let n = |id: &str, n: i64| l.text(id, &args([("n", n.to_string())]));
    let cell = |id: &str, x: u8, y: u8| l.text(id, &args([("x", x.to_string()), ("y", y.to_string())]));
    match *m {
        IllegalMove::XOutOfRange(v) => n("illegal-x", v),
        IllegalMove::YOutOfRange(v) => n("illegal-y", v),
        IllegalMove::BadDirection(v) => n("illegal-g", v),
        IllegalMove::OffEdge(v) => n("illegal-off-edge", v),
        IllegalMove::EmptyCell { x, y } => cell("illegal-empty-cell", x, y),
        IllegalMove::EmptyBoard => l.t("illegal-empty-board"),
        IllegalMove::NoOp { x, y } => cell("illegal-noop", x, y),
    }
}

/// A checker's reason in words.
pub fn reason(l: Locale, r: &Reason) -> String {
    let s = |v: &dyn ToString| v.to_string();
    let (id, a) = match r {
        Reason::Correct => ("reason-correct", args([])),
        Reason::EmptyOutput => ("reason-empty-output", args([])),
        Reason::NotInteger { line, column, token } => (
            "reason-not-integer",
            args([("line", s(line)), ("column", s(column)), ("token", s(token))]),
        ),
        Reason::BadTokenCount { line, column, found } => (
            "reason-bad-token-count",
            args([("line", s(line)), ("column", s(column)), ("found", s(found))]),
        ),
        Reason::MinusOneNotAlone { line, column } => (
            "reason-minus-one-not-alone",
            args([("line", s(line)), ("column", s(column))]),
        ),
        Reason::TooManyLines { line, column, n } => (
            "reason-too-many-lines",
            args([("line", s(line)), ("column", s(column)), ("n", s(n))]),
        ),
        Reason::TooFewLines { found, n } => {
            ("reason-too-few-lines", args([("found", s(found)), ("n", s(n))]))
        }
        Reason::IllegalMove { index, text, why } => (
            "reason-illegal-move",
            args([("index", s(index)), ("text", s(text)), ("why", illegal(l, why))]),
        ),
        Reason::EmptiedEarly { index, n } => {
            ("reason-emptied-early", args([("index", s(index)), ("n", s(n))]))
        }
        Reason::BlocksLeft { moves, blocks } => (
            "reason-blocks-left",
            args([("moves", s(moves)), ("blocks", s(blocks))]),
        ),
        Reason::MissedSolution { reference_first } => {
            ("reason-missed-solution", args([("first", s(reference_first))]))
        }
        Reason::NotSmallest {
            index,
            theirs,
            expected,
        } => (
            "reason-not-smallest",
            args([
                ("index", s(index)),
                ("theirs", s(theirs)),
                ("expected", s(expected)),
            ]),
        ),
        Reason::BadAnswerFile { detail } => ("reason-bad-answer-file", args([("detail", s(detail))])),
        Reason::BadInput { detail } => ("reason-bad-input", args([("detail", s(detail))])),
        Reason::AnswerDisagrees { stored, solver } => (
            "reason-answer-disagrees",
            args([("stored", s(stored)), ("solver", s(solver))]),
        ),
        Reason::SolverMissed { moves } => ("reason-solver-missed", args([("moves", s(moves))])),
    };
    l.text(id, &a)
}

/// A judgement in words: its reason, placed at the line of the move it
/// blames (as the checker's `message`; a format error names its place
/// itself).
pub fn judgement(l: Locale, j: &Judgement) -> String {
    let words = reason(l, &j.reason);
    match (j.line, j.column) {
        (Some(line), Some(column)) if j.reason.position().is_none() => l.text(
            "reason-at",
            &args([
                ("line", line.to_string()),
                ("column", column.to_string()),
                ("reason", words),
            ]),
        ),
        _ => words,
    }
}

/// A test's reason in words: in English the judge's own text; in another
/// language the words of its data (the checker's judgement or how the run
/// ended, with its notes), or the judge's text as it is where a report
/// holds no data (nothing ran).
pub fn test_reason(l: Locale, t: &TestResult) -> String {
    if l.is_english() {
        return t.reason.clone();
    }
    let words = match (&t.run_reason, &t.judgement) {
        (Some(r), _) => run_reason(l, r),
        (None, Some(j)) => format!("{}{}", judgement(l, j), hint(l, &t.notes)),
        (None, None) => return t.reason.clone(),
    };
    match t.notes.earlier_runs_ms.as_slice() {
        [] => words,
        earlier => l.text(
            "run-again",
            &args([
                ("reason", words),
                ("runs", (earlier.len() + 1).to_string()),
                ("times", ms_list(earlier)),
            ]),
        ),
    }
}

/// A test that cannot be judged and why, in words (its judgement's, else
/// the judge's text as it is): `secret/6: judge error: ...`.
pub fn broken_test(l: Locale, b: &BrokenTest) -> String {
    let why = match &b.judgement {
        Some(j) if !l.is_english() => judgement(l, j),
        _ => b.reason.clone(),
    };
    l.text("broken-test", &args([("test", b.test.clone()), ("reason", why)]))
}

/// Why a submission has nothing graded, in words (`None`: it has a
/// program).
pub fn no_program(l: Locale, s: &SubmissionReport) -> Option<String> {
    let english = s.no_program.as_ref()?;
    let Some(why) = s.no_program_reason.as_ref().filter(|_| !l.is_english()) else {
        return Some(english.clone());
    };
    let s = |v: &str| v.to_string();
    Some(match why {
        NoProgram::Missing { stem, folder, near } => {
            let a = args([
                ("stem", s(stem)),
                ("folder", s(folder)),
                ("near", near.join(", ")),
            ]);
            let id = if near.is_empty() {
                "no-program-missing"
            } else {
                "no-program-missing-near"
            };
            l.text(id, &a)
        }
        NoProgram::Several { files } => l.text(
            "no-program-several",
            &args([("n", files.len().to_string()), ("files", files.join(", "))]),
        ),
        NoProgram::Link { file } => l.text("no-program-link", &args([("file", s(file))])),
        NoProgram::NoSubmission => l.t("no-program-no-submission"),
    })
}

/// Why a submission has nothing graded, in a table's cell: `没有程序`,
/// `2 个程序`, `没有提交`.
pub fn no_program_short(l: Locale, s: &SubmissionReport) -> String {
    match &s.no_program_reason {
        Some(NoProgram::Several { files }) => l.text(
            "no-program-several-short",
            &args([("n", files.len().to_string())]),
        ),
        Some(NoProgram::NoSubmission) => l.t("no-program-no-submission"),
        _ => l.t("no-program-short"),
    }
}

/// The problem as a report names it: in English its name (`mayan`), in
/// another language its title there where the package gives one.
pub fn problem(l: Locale, r: &GradeReport) -> String {
    let title = r.title.as_ref().filter(|_| !l.is_english());
    title
        .and_then(|t| t.in_language(l.tag()))
        .unwrap_or(&r.problem)
        .to_string()
}

/// The sandbox's protections in words: in English the judge's own line; in
/// another language its data's, where the report has it.
pub fn sandbox(l: Locale, r: &GradeReport) -> String {
    let Some(p) = r.sandbox.as_ref().filter(|_| !l.is_english()) else {
        return r.protections.clone();
    };
    let mut parts = Vec::new();
    let mut on = |yes: bool, id: &str| {
        if yes {
            parts.push(l.t(id));
        }
    };
    on(p.isolation, "sandbox-isolation");
    on(p.uid_per_run, "sandbox-uid-per-run");
    on(p.seccomp, "sandbox-seccomp");
    on(p.landlock.is_some(), "sandbox-landlock");
    on(p.cgroup.is_some(), "sandbox-cgroup");
    on(p.drop_to.is_some() && !p.uid_per_run, "sandbox-drop");
    on(p.namespaces && !p.isolation, "sandbox-namespaces");
    on(true, "sandbox-rlimits");
    let mut words = parts.join(&l.t("list-separator"));
    if !p.process_limit_enforced {
        words += &l.t("sandbox-no-process-limit");
    }
    words
}

/// Why the judge could not grade a submission, in words (`None`: it
/// could): its data's where a report has it, else the judge's text.
pub fn judge_error(l: Locale, s: &SubmissionReport) -> Option<String> {
    let english = s.judge_error.as_ref()?;
    let Some(problem) = s.judge_problem.as_ref().filter(|_| !l.is_english()) else {
        return Some(english.clone());
    };
    Some(match problem {
        JudgeProblem::MissingTool { what, name, language } => l.text(
            "judge-missing-tool",
            &args([
                ("what", l.t(&format!("judge-tool-{what}"))),
                ("name", name.clone()),
                ("language", language.clone()),
            ]),
        ),
    })
}

/// The contest folder graded, with its layout, in words.
pub fn contest_folder(l: Locale, r: &GradeReport) -> Option<String> {
    let english = r.contest.as_ref()?;
    let Some(folder) = r.contest_folder.as_ref().filter(|_| !l.is_english()) else {
        return Some(english.clone());
    };
    let layout = l.t(&format!("layout-{}", folder.layout));
    Some(l.text(
        "contest-folder",
        &args([("dir", folder.dir.clone()), ("layout", layout)]),
    ))
}

/// The hint of an empty output from a program that opens a `.in` file.
fn hint(l: Locale, notes: &Notes) -> String {
    let Some(name) = &notes.opens_input else {
        return String::new();
    };
    let stem = Notes::file_io_stem(name);
    l.text(
        "run-file-io-hint",
        &args([("file", name.clone()), ("stem", stem.to_string())]),
    )
}

/// How a run ended, in words.
pub fn run_reason(l: Locale, r: &RunReason) -> String {
    let s = |v: &dyn ToString| v.to_string();
    let (id, a) = match r {
        RunReason::CpuOver {
            limit_ms,
            time_ms: Some(t),
        } => (
            "run-cpu-over-measured",
            args([("limit", s(limit_ms)), ("time", s(t))]),
        ),
        RunReason::CpuOver {
            limit_ms,
            time_ms: None,
        } => ("run-cpu-over", args([("limit", s(limit_ms))])),
        RunReason::WallOver { cpu_ms } => ("run-wall-over", args([("time", s(cpu_ms))])),
        RunReason::ExitCode { code } => ("run-exit-code", args([("code", s(code))])),
        RunReason::Killed { signal } => ("run-killed", args([("signal", s(signal))])),
        RunReason::MemoryOver { limit_mib } => ("run-memory-over", args([("mib", s(limit_mib))])),
        RunReason::OutputOver { limit_kib } => ("run-output-over", args([("kib", s(limit_kib))])),
        RunReason::NoOutputFile { file, wrote_stdout } => {
            let words = l.text("run-no-output-file", &args([("file", s(file))]));
            return match wrote_stdout {
                true => words + &l.t("run-stdout-instead"),
                false => words,
            };
        }
        RunReason::JudgeError { detail } => ("run-judge-error", args([("detail", s(detail))])),
    };
    l.text(id, &a)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::puzzle::checker::{Options, check};

    fn zh() -> Locale {
        Locale::parse("zh-CN").unwrap()
    }

    /// One reason of every kind, as the checker builds them.
    pub(crate) fn every_reason() -> Vec<Reason> {
        let illegal = |m| Reason::IllegalMove {
            index: 3,
            text: "4 2 1".into(),
            why: Illegal::Move(m),
        };
        vec![
            Reason::Correct,
            Reason::EmptyOutput,
            Reason::NotInteger {
                line: 2,
                column: 7,
                token: "x".into(),
            },
            Reason::BadTokenCount {
                line: 4,
                column: 9,
                found: 5,
            },
            Reason::MinusOneNotAlone { line: 3, column: 1 },
            Reason::TooManyLines {
                line: 6,
                column: 2,
                n: 5,
            },
            Reason::TooFewLines { found: 2, n: 4 },
            illegal(IllegalMove::XOutOfRange(17)),
            illegal(IllegalMove::YOutOfRange(-8)),
            illegal(IllegalMove::BadDirection(0)),
            illegal(IllegalMove::OffEdge(5)),
            illegal(IllegalMove::EmptyCell { x: 1, y: 6 }),
            illegal(IllegalMove::EmptyBoard),
            illegal(IllegalMove::NoOp { x: 4, y: 3 }),
            Reason::EmptiedEarly { index: 2, n: 3 },
            Reason::BlocksLeft { moves: 3, blocks: 11 },
            Reason::MissedSolution {
                reference_first: "2 1 -1".into(),
            },
            Reason::NotSmallest {
                index: 2,
                theirs: "3 4 -1".into(),
                expected: "1 4 1".into(),
            },
            Reason::BadAnswerFile { detail: "d".into() },
            Reason::BadInput { detail: "d".into() },
            Reason::AnswerDisagrees {
                stored: "-1".into(),
                solver: "0 0 1".into(),
            },
            Reason::SolverMissed {
                moves: "0 0 1".into(),
            },
        ]
    }

    /// The numbers of a text, in order.
    fn numbers(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_ascii_digit() && c != '-')
            .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn english_reasons_read_exactly_as_the_checkers_own_words() {
        for r in every_reason() {
            assert_eq!(reason(Locale::english(), &r), r.to_string(), "{r:?}");
        }
    }

    #[test]
    fn every_reason_reads_in_every_language_with_its_numbers() {
        for l in Locale::all() {
            for r in every_reason() {
                let words = reason(l, &r);
                assert!(
                    !words.contains(crate::i18n::MISSING.0) && !words.contains("{$"),
                    "{l}: {words}"
                );
                let mut theirs = numbers(&words);
                let mut ours = numbers(&r.to_string());
                theirs.sort();
                ours.sort();
                // A number may be named twice (`第 2 步 ... 第 2 步`).
                theirs.dedup();
                ours.dedup();
                assert_eq!(theirs, ours, "{l}: {words} / {r}");
            }
        }
    }

    #[test]
    fn a_judgement_is_placed_at_its_moves_line_in_every_language() {
        let puzzle = b"3\n1 2 2 3 2 0\n1 4 1 3 4 0\n5 1 4 1 3 3 0\n1 5 3 5 3 5 0\n4 4 3 4 4 0\n";
        let j: Judgement = check(puzzle, b"2 0 1\n\n 1 9 1\n3 4 -1\n", None, Options::default());
        assert_eq!(judgement(Locale::english(), &j), j.message);
        let words = judgement(zh(), &j);
        assert!(
            words.starts_with("第 3 行第 2 列：第 2 步“1 9 1”不合法"),
            "{words}"
        );
    }

    /// One run reason of every kind, as the judge builds them.
    pub(crate) fn every_run_reason() -> Vec<RunReason> {
        vec![
            RunReason::CpuOver {
                limit_ms: 1000,
                time_ms: Some(1040),
            },
            RunReason::CpuOver {
                limit_ms: 1000,
                time_ms: None,
            },
            RunReason::WallOver { cpu_ms: 12 },
            RunReason::ExitCode { code: 3 },
            RunReason::Killed {
                signal: "SIGSEGV".into(),
            },
            RunReason::MemoryOver { limit_mib: 256 },
            RunReason::OutputOver { limit_kib: 64 },
            RunReason::NoOutputFile {
                file: "mayan.out".into(),
                wrote_stdout: false,
            },
            RunReason::NoOutputFile {
                file: "mayan.out".into(),
                wrote_stdout: true,
            },
            RunReason::JudgeError {
                detail: "fork failed".into(),
            },
        ]
    }

    #[test]
    fn english_run_reasons_read_exactly_as_the_judges_own_words() {
        for r in every_run_reason() {
            assert_eq!(run_reason(Locale::english(), &r), r.to_string(), "{r:?}");
        }
        let notes = Notes {
            opens_input: Some("mayan.in".into()),
            earlier_runs_ms: vec![1040, 1017],
        };
        assert_eq!(hint(Locale::english(), &notes), notes.hint());
    }

    #[test]
    fn every_run_reason_reads_in_every_language_with_its_numbers() {
        for l in Locale::all() {
            for r in every_run_reason() {
                let words = run_reason(l, &r);
                assert!(!words.contains(crate::i18n::MISSING.0), "{l}: {words}");
                assert_eq!(numbers(&words), numbers(&r.to_string()), "{l}: {words}");
            }
        }
    }

    #[test]
    fn a_tests_reason_is_worded_from_its_data_never_from_its_english_text() {
        let mut t = TestResult::new("secret/1".into(), b"");
        t.set_run_reason(RunReason::CpuOver {
            limit_ms: 1000,
            time_ms: Some(1040),
        });
        t.notes.earlier_runs_ms = vec![1040];
        t.reason = t.notes.again(&t.reason);
        assert_eq!(
            t.reason,
            "CPU time over 1000 ms (1040 ms) [run 2 times: TLE close to the limit before (1040 ms)]"
        );
        assert_eq!(test_reason(Locale::english(), &t), t.reason);
        let chinese =
            "CPU 时间超过 1000 ms（用时 1040 ms）（共运行 2 次：之前几次都是接近时限的 TLE，用时 1040 ms）";
        assert_eq!(test_reason(zh(), &t), chinese);
        // The English text is not read: another one changes nothing.
        t.reason = "something else".into();
        assert_eq!(test_reason(zh(), &t), chinese);
        t.set_run_reason(RunReason::NoOutputFile {
            file: "mayan.out".into(),
            wrote_stdout: true,
        });
        t.notes = Notes::default();
        assert_eq!(
            test_reason(zh(), &t),
            "没有写出 mayan.out（文件输入输出：评测的是这个文件）；程序写到了标准输出"
        );
    }

    /// Why a contestant has no program, of every kind.
    pub(crate) fn every_no_program() -> Vec<NoProgram> {
        vec![
            NoProgram::Missing {
                stem: "mayan".into(),
                folder: "erin".into(),
                near: vec![],
            },
            NoProgram::Missing {
                stem: "mayan".into(),
                folder: "carol".into(),
                near: vec!["Mayan.cpp".into()],
            },
            NoProgram::Several {
                files: vec!["mayan.c".into(), "mayan.py".into()],
            },
            NoProgram::Link {
                file: "mayan.c".into(),
            },
            NoProgram::NoSubmission,
        ]
    }

    #[test]
    fn why_a_contestant_has_no_program_reads_in_every_language_from_its_data() {
        for why in every_no_program() {
            let mut s = SubmissionReport::new("c".into(), "", 100);
            s.set_no_program(why.clone());
            assert_eq!(no_program(Locale::english(), &s), Some(why.to_string()));
            let words = no_program(zh(), &s).unwrap();
            assert!(!words.contains("program") && !words.contains("{$"), "{words}");
        }
    }

    #[test]
    fn a_contestant_with_two_programs_is_not_shown_as_having_none() {
        let mut s = SubmissionReport::new("c".into(), "", 100);
        s.set_no_program(NoProgram::Several {
            files: vec!["mayan.c".into(), "mayan.py".into()],
        });
        assert_eq!(no_program_short(zh(), &s), "2 个程序");
        assert_eq!(no_program_short(Locale::english(), &s), "2 programs");
    }

    #[test]
    fn a_contest_folders_layout_reads_in_english_as_the_layouts_own_words() {
        use crate::workflows::contest::Layout;
        for layout in [Layout::Plain, Layout::LemonLime, Layout::Arbiter] {
            let words = Locale::english().t(&format!("layout-{}", layout.code()));
            assert_eq!(words, layout.to_string());
            assert!(!zh().t(&format!("layout-{}", layout.code())).contains("layout"));
        }
    }

    #[test]
    fn a_missing_compiler_reads_in_english_as_the_judges_error_and_in_chinese_from_its_data() {
        use crate::judge::submission::SubmissionError;
        let e = SubmissionError::MissingTool {
            what: "compiler",
            name: "rustc".into(),
            language: "rust".into(),
        };
        let mut s = SubmissionReport::new("s".into(), "rust", 100);
        s.judge_error = Some(e.to_string());
        s.judge_problem = e.problem();
        let en = |id: &str| Locale::english().t(id);
        assert_eq!(judge_error(Locale::english(), &s), Some(e.to_string()));
        assert_eq!(en("judge-tool-compiler"), "compiler");
        assert_eq!(
            judge_error(zh(), &s).unwrap(),
            "评测机没有安装 rust 的编译器 rustc（PATH 中找不到）"
        );
    }

    #[test]
    fn a_replays_captions_read_in_english_as_check_trace_writes_them_and_in_chinese() {
        use crate::puzzle::sim::{Captions as _, English};
        let (en, zh) = (Captions(Locale::english()), Captions(zh()));
        assert_eq!(en.mv(1, "2 0 1"), English.mv(1, "2 0 1"));
        assert_eq!(en.before(), English.before());
        assert_eq!(en.step(2, 3), English.step(2, 3));
        assert_eq!(en.nothing(), English.nothing());
        assert_eq!(en.after(1, 24), English.after(1, 24));
        assert_eq!(zh.step(2, 3), "第 2 轮消除：消去 3 个方块");
    }
}
