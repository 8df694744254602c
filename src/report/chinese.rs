//! A Chinese teacher's reading, as a test: every reason of every kind
//! (the checker's, a run's, why a contestant has no program, the notes of a
//! reason), and every report a teacher reads (the page, the text, the
//! terminal ranking), rendered in zh-CN, hold no English word outside an
//! allow-list of codes, units, names and paths. (The server's pages are
//! read the same way in a browser: `serve_browser.rs`.)

use super::snapshots::stored_report;
use super::words::tests::{every_no_program, every_reason, every_run_reason};
use super::words::{self};
use super::{Html, Ranking, Text};
use crate::i18n::Locale;
use crate::judge::grading::{GradeReport, SubmissionReport, TestResult};
use crate::judge::reason::{NoProgram, Notes};
use crate::puzzle::checker::{Options, check};
use crate::puzzle::verdict::Verdict;

/// What Chinese text may hold in Latin letters: verdict codes, units,
/// the names of mechanisms, formats and tools, and the option a hint
/// names; everything else must be Chinese.
const ALLOWED: &[&str] = &[
    "AC",
    "WA",
    "PE",
    "TLE",
    "MLE",
    "OLE",
    "RE",
    "CE",
    "FAIL", // verdicts
    "seccomp",
    "Landlock",
    "cgroup",
    "pids",
    "rlimit",
    "root",
    "uid",
    "IPC",  // the sandbox's mechanisms
    "PATH", // where a compiler is looked for
    "ms",
    "KiB",
    "MiB",
    "CPU",
    "UTC", // units
    "SIGSEGV",
    "NOIP",
    "LemonLime",
    "Arbiter",
    "toml",
    "io",
    "file", // names
    "ext",  // `<ext>` in a file name pattern
    "no",
    "noop", // the no-noop reading
];

/// The words of `text` in Latin letters that are not allowed.
fn english_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() > 1 && !ALLOWED.contains(w))
        .map(str::to_string)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// What a page shows as text: no tags, no drawings, no code (`pre`).
fn visible(html: &str) -> String {
    let mut out = html.to_string();
    for (open, close) in [
        ("<svg", "</svg>"),
        ("<style", "</style>"),
        ("<script", "</script>"),
        ("<pre", "</pre>"),
    ] {
        while let Some(start) = out.find(open) {
            let end = out[start..]
                .find(close)
                .map_or(out.len(), |e| start + e + close.len());
            out.replace_range(start..end, " ");
        }
    }
    let mut text = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&middot;", " ")
        .replace("&amp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

fn zh() -> Locale {
    Locale::parse("zh-CN").unwrap()
}

/// A test whose judgement has `reason` (its words come from the data).
fn judged(name: &str, reason: crate::puzzle::checker::Reason) -> TestResult {
    const CASE4: &str = "3\n1 2 2 3 2 0\n1 4 1 3 4 0\n5 1 4 1 3 3 0\n1 5 3 5 3 5 0\n4 4 3 4 4 0\n";
    let mut j = check(CASE4.as_bytes(), b"2 0 1\n\n 1 9 1\n", None, Options::default());
    j.message = reason.to_string();
    j.reason = reason;
    let mut t = TestResult::new(name.into(), CASE4.as_bytes());
    t.verdict = j.verdict;
    t.reason = j.message.clone();
    t.judgement = Some(j);
    t
}

/// The class report with one more contestant holding a test of every
/// reason, and contestants without a program of every kind.
fn every_outcome() -> GradeReport {
    let mut r = stored_report();
    r.sandbox = Some(crate::judge::sandbox::Protections {
        mode: crate::judge::sandbox::RunMode::Root,
        gaps: vec![],
        memory_peak: true,
        isolation: true,
        uid_per_run: true,
        seccomp: true,
        landlock: Some(3),
        cgroup: Some(crate::judge::sandbox::CgroupVersion::V1),
        cgroup_memory: true,
        cgroup_pids: true,
        cgroup_cpu: true,
        drop_to: None,
        namespaces: true,
        subreaper: true,
        process_limit_enforced: false,
    });
    let mut tests: Vec<TestResult> = every_reason()
        .into_iter()
        .enumerate()
        .map(|(i, reason)| judged(&format!("secret/r{i}"), reason))
        .collect();
    for (i, why) in every_run_reason().into_iter().enumerate() {
        let mut t = TestResult::new(format!("secret/run{i}"), b"");
        t.verdict = Verdict::RuntimeError;
        t.set_run_reason(why);
        tests.push(t);
    }
    let mut hinted = judged("secret/hint", crate::puzzle::checker::Reason::EmptyOutput);
    hinted.notes = Notes {
        opens_input: Some("mayan.in".into()),
        earlier_runs_ms: vec![1040, 1017],
    };
    tests.push(hinted);
    let mut erin = SubmissionReport::new("class/erin/mayan.cpp".into(), "cpp", 60);
    erin.contestant = Some("erin".into());
    erin.tests = tests;
    r.tests = erin.tests.iter().map(|t| t.test.clone()).collect();
    r.submissions.push(erin);
    for (i, why) in every_no_program().into_iter().enumerate() {
        let mut s = SubmissionReport::new(format!("class/p{i}"), "", 60);
        s.contestant = Some(format!("p{i}"));
        s.set_no_program(why);
        r.submissions.push(s);
    }
    r
}

/// What the reports carry as given, not as words of the judge: people,
/// files, the compiler's and the system's own messages.
const DATA: &[&str] = &[
    "mayan-judge",
    "alice",
    "bob",
    "carol",
    "dave",
    "erin",
    "class",
    "mayan",
    "secret",
    "sample",
    "cpp",
    "rust",
    "py",
    "bob.c:1:1: error: expected ';' before '}' token",
    "fork failed",
    "Mayan",
    "erin/",
    "carol/",
];

/// `text` without the data it carries, nor file names and paths
/// (`mayan.out`, `secret/3`), nor what a contestant wrote (quoted: “one”).
fn without_data(text: &str) -> String {
    let mut text = text.to_string();
    while let Some(start) = text.find('“') {
        let end = text[start..]
            .find('”')
            .map_or(text.len(), |e| start + e + '”'.len_utf8());
        text.replace_range(start..end, " ");
    }
    for d in DATA.iter().filter(|d| d.contains(' ')) {
        text = text.replace(d, " ");
    }
    let path_char = |c: char| c.is_ascii_alphanumeric() || "._-/<>".contains(c);
    let mut out = String::new();
    let mut run = String::new();
    for c in text.chars().chain([' ']) {
        if path_char(c) {
            run.push(c);
            continue;
        }
        let inner = run.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        if !(inner.contains('.') || inner.contains('/')) {
            out.push_str(&run);
        }
        run.clear();
        out.push(c);
    }
    for d in DATA {
        out = out.replace(d, " ");
    }
    out
}

#[test]
fn every_reason_of_every_kind_reads_in_chinese_without_english_words() {
    let l = zh();
    let mut all = Vec::new();
    for r in every_reason() {
        all.push(words::reason(l, &r));
    }
    for r in every_run_reason() {
        all.push(words::run_reason(l, &r));
    }
    for why in every_no_program() {
        let mut s = SubmissionReport::new("c".into(), "", 60);
        s.set_no_program(why);
        all.push(words::no_program(l, &s).unwrap());
        all.push(words::no_program_short(l, &s));
    }
    for words in all {
        let english = english_words(&without_data(&words));
        assert!(english.is_empty(), "English {english:?} in: {words}");
    }
    assert!(NoProgram::NoSubmission.to_string().contains("submission"));
}

#[test]
fn every_report_a_teacher_reads_is_chinese_without_english_words() {
    let r = every_outcome();
    let l = zh();
    for (name, text) in [
        ("html", visible(&Html.grade_in(&r, l))),
        ("text", Text.grade_in(&r, l)),
        ("ranking", Ranking.grade_in(&r, l)),
    ] {
        let shown = without_data(&text);
        let english = english_words(&shown);
        let at: Vec<&str> = shown
            .split("  ")
            .filter(|p| !english_words(p).is_empty())
            .collect();
        assert!(english.is_empty(), "{name}: English {english:?} in:\n{at:#?}");
    }
}

/// The Chinese catalogues, each with its file name.
fn chinese_catalogues() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/zh-CN");
    let mut all: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ftl"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

/// The words docs/GLOSSARY.md says not to use (its last column).
fn words_not_used() -> Vec<String> {
    let glossary = include_str!("../../docs/GLOSSARY.md");
    glossary
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| Concept"))
        .filter_map(|l| l.trim_end_matches('|').rsplit('|').next())
        .flat_map(|cell| cell.split('、').map(|w| w.trim().to_string()).collect::<Vec<_>>())
        .filter(|w| !w.is_empty() && !w.contains('`'))
        .collect()
}

fn is_chinese(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
        || ('\u{3000}'..='\u{303f}').contains(&c)
        || ('\u{ff00}'..='\u{ffef}').contains(&c)
}

#[test]
fn the_glossary_every_chinese_catalogue_follows_one_word_for_one_thing() {
    let not_used = words_not_used();
    assert!(not_used.contains(&"运行错误".to_string()), "{not_used:?}");
    for (file, text) in chinese_catalogues() {
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#')) {
            let at = format!("locales/zh-CN/{file}:{}", i + 1);
            for w in &not_used {
                assert!(
                    !line.contains(w.as_str()),
                    "{at}: `{w}` (docs/GLOSSARY.md): {line}"
                );
            }
            assert!(!line.contains('`'), "{at}: a Markdown backtick: {line}");
            let chars: Vec<char> = line.chars().collect();
            for (k, c) in chars.iter().enumerate() {
                if !":;(),?!".contains(*c) {
                    continue;
                }
                let near = |d: isize| {
                    let j = k as isize + d;
                    (j >= 0)
                        .then(|| chars.get(j as usize))
                        .flatten()
                        .is_some_and(|&c| is_chinese(c))
                };
                assert!(
                    !(near(-1) || near(1) || (chars.get(k + 1) == Some(&' ') && near(2))),
                    "{at}: half-width `{c}` in a Chinese sentence: {line}"
                );
            }
        }
    }
}
