//! The words of a result in a language (the catalogues of `crate::i18n`):
//! a checker's [`Reason`] (data) with its positions and move numbers, a
//! judgement placed at its line, a test's reason, a verdict's name. English
//! reads exactly as the checker's and the judge's own text (which JSON,
//! JUnit, CSV and `check`'s protocols carry, unchanged).

use crate::i18n::{Arg, Locale};
use crate::judge::grading::TestResult;
use crate::puzzle::checker::{Illegal, Judgement, Reason};
use crate::puzzle::sim::IllegalMove;
use crate::puzzle::verdict::Verdict;

/// Arguments as text: numbers exactly as written (no float on the way).
fn args<const N: usize>(pairs: [(&'static str, String); N]) -> Vec<(&'static str, Arg<'static>)> {
    pairs.into_iter().map(|(k, v)| (k, Arg::from(v))).collect()
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
/// language the judgement's words, or the run's recognised in the judge's
/// text (its numbers kept), else the judge's text as it is.
pub fn test_reason(l: Locale, t: &TestResult) -> String {
    if l.is_english() {
        return t.reason.clone();
    }
    let (body, again) = split_again(&t.reason);
    let words = match &t.judgement {
        Some(j) if body.starts_with(&j.message) => {
            let hint = &body[j.message.len()..];
            format!(
                "{}{}",
                judgement(l, j),
                run_words(l, hint).unwrap_or_else(|| hint.to_string())
            )
        }
        _ => run_words(l, body).unwrap_or_else(|| body.to_string()),
    };
    match again {
        Some((runs, times)) => l.text(
            "run-again",
            &args([
                ("reason", words),
                ("runs", runs.to_string()),
                ("times", times.to_string()),
            ]),
        ),
        None => words,
    }
}

/// A reason and the note of a TLE run again (`[run 3 times: ... (1040 ms,
/// 1017 ms)]`): `(the reason, Some((runs, times)))`.
fn split_again(reason: &str) -> (&str, Option<(&str, &str)>) {
    let parsed = || {
        let (body, note) = reason.rsplit_once(" [run ")?;
        let (runs, rest) = note.split_once(" times: TLE close to the limit before (")?;
        let times = rest.strip_suffix(")]")?;
        Some((body, Some((runs, times))))
    };
    parsed().unwrap_or((reason, None))
}

/// The judge's words of how a run ended (`grading::run_verdict`,
/// `missing_output`), recognised with their numbers; `None` where they
/// are not those.
fn run_words(l: Locale, text: &str) -> Option<String> {
    let between = |prefix: &str, suffix: &str| -> Option<String> {
        Some(text.strip_prefix(prefix)?.strip_suffix(suffix)?.to_string())
    };
    let one = |id: &str, name: &'static str, value: String| Some(l.text(id, &args([(name, value)])));
    if text.is_empty() {
        return Some(String::new());
    }
    if text == "; it wrote to stdout instead" {
        return Some(l.t("run-stdout-instead"));
    }
    if let Some(inner) = between("CPU time over ", " ms)") {
        let (limit, time) = inner.split_once(" ms (")?;
        return Some(l.text(
            "run-cpu-over-measured",
            &args([("limit", limit.to_string()), ("time", time.to_string())]),
        ));
    }
    if let Some(limit) = between("CPU time over ", " ms") {
        return one("run-cpu-over", "limit", limit);
    }
    if let Some(time) = between("wall time over the limit (CPU ", " ms): sleeping or blocked?") {
        return one("run-wall-over", "time", time);
    }
    if let Some(code) = text.strip_prefix("exit code ") {
        return one("run-exit-code", "code", code.to_string());
    }
    if let Some(signal) = text.strip_prefix("killed by ") {
        return one("run-killed", "signal", signal.to_string());
    }
    if let Some(mib) = between("memory over ", " MiB") {
        return one("run-memory-over", "mib", mib);
    }
    if let Some(kib) = between("output over ", " KiB (or a file over its limit)") {
        return one("run-output-over", "kib", kib);
    }
    let missing = |t: &str| {
        t.strip_prefix("no ")?
            .strip_suffix(" was written (file I/O: the output is judged from that file)")
            .map(str::to_string)
    };
    if let Some(file) = missing(text) {
        return one("run-no-output-file", "file", file);
    }
    let (first, rest) = text.split_once("; ")?;
    let stdout = (rest == "it wrote to stdout instead").then(|| l.t("run-stdout-instead"))?;
    Some(format!(
        "{}{stdout}",
        one("run-no-output-file", "file", missing(first)?)?
    ))
}

#[cfg(test)]
mod tests {
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
            words.starts_with("第 3 行第 2 列：第 2 步 `1 9 1` 不合法"),
            "{words}"
        );
    }

    #[test]
    fn a_runs_reason_keeps_its_numbers_in_chinese() {
        let mut t = TestResult::new("secret/1".into(), b"");
        for (english, chinese) in [
            (
                "CPU time over 1000 ms (1040 ms)",
                "CPU 时间超过 1000 ms（用时 1040 ms）",
            ),
            ("exit code 3", "退出码 3"),
            ("memory over 256 MiB", "内存超过 256 MiB"),
            (
                "CPU time over 1000 ms [run 2 times: TLE close to the limit before (1040 ms)]",
                "CPU 时间超过 1000 ms [共运行 2 次：之前几次都是接近时限的 TLE（1040 ms）]",
            ),
            (
                "no mayan.out was written (file I/O: the output is judged from that file); it wrote to stdout instead",
                "没有写出 mayan.out（文件输入输出：评测的是这个文件）；程序写到了标准输出",
            ),
        ] {
            t.reason = english.into();
            assert_eq!(test_reason(Locale::english(), &t), english);
            assert_eq!(test_reason(zh(), &t), chinese);
        }
    }
}
