//! The command line in a Chinese teacher's language (issue 57): with
//! `LANG=zh_CN.UTF-8` (or `grade --locale zh-CN`), the error that ends a
//! command is worded by the zh-CN catalogues, each link of its chain
//! (what the command was doing, the file, why: a missing file, no
//! contestant folder, a refused option), with no English word left but
//! codes, paths, flags and names.

use crate::util::judge;

/// Words in Latin letters a Chinese error may hold: the problem's name,
/// the contest layouts' folders.
const ALLOWED: &[&str] = &["mayan", "source", "players"];

/// The English words of `stderr` once `paths`, flags (`--tests`) and the
/// program's name are taken out.
fn english_words(stderr: &str, paths: &[&str]) -> Vec<String> {
    let mut text = stderr.replace("mayan-judge", "");
    for path in paths {
        text = text.replace(path, "");
    }
    text.split(|c: char| c.is_whitespace() || !c.is_ascii())
        .filter(|w| !w.starts_with("--"))
        .flat_map(|w| w.split(|c: char| !c.is_ascii_alphabetic()))
        .filter(|w| w.len() > 1 && !ALLOWED.contains(w))
        .map(String::from)
        .collect()
}

/// `mayan-judge args` run with `LANG=lang` (and no other locale variable).
fn run_in(args: &[&str], lang: &str) -> std::process::Output {
    judge()
        .env("LANG", lang)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .args(args)
        .output()
        .unwrap()
}

/// The stderr of `mayan-judge args`, failing, in `LANG=lang`.
fn fails_in_chinese(args: &[&str], lang: &str) -> String {
    let out = run_in(args, lang);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

#[test]
fn failing_commands_say_why_in_chinese_without_english_words() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let empty = format!("{d}/empty");
    std::fs::create_dir(&empty).unwrap();
    let none = format!("{d}/none");
    let source = format!("{d}/mayan.cpp");
    let db = format!("{d}/contest.db");
    let toml = format!("{none}/contest.toml");
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec!["grade", "--trusted", "--contest", &empty],
            "zh_CN.UTF-8",
            "没有选手文件夹",
        ),
        (
            vec!["grade", "--trusted", "--contest", &none],
            "zh_CN.UTF-8",
            "文件或文件夹不存在",
        ),
        (
            vec!["grade", "--trusted", &source],
            "zh_CN.UTF-8",
            "文件或文件夹不存在",
        ),
        (
            vec!["grade", "--problem", &none, &source],
            "zh_CN.UTF-8",
            "读取题目包",
        ),
        (
            vec!["grade", "--trusted", "--tests", "999", &source],
            "zh_CN.UTF-8",
            "不匹配",
        ),
        (
            vec!["grade", "--locale", "zh-CN", "--trusted", "--contest", &empty],
            "C",
            "没有选手文件夹",
        ),
        (
            vec!["serve", "--dry-run", "--contest", &toml, "--db", &db],
            "zh_CN.UTF-8",
            "读取",
        ),
    ];
    for (args, lang, says) in cases {
        let stderr = fails_in_chinese(&args, lang);
        assert!(stderr.starts_with("mayan-judge：错误："), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        let english = english_words(&stderr, &[&toml, &none, &empty, &source, "problem.toml"]);
        assert!(english.is_empty(), "{args:?}: {english:?} in {stderr}");
    }
}

#[test]
fn the_same_failure_stays_in_english_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = fails_in_chinese(
        &["grade", "--trusted", "--contest", dir.path().to_str().unwrap()],
        "C",
    );
    assert!(
        stderr.starts_with("mayan-judge: error: reading the contest folder"),
        "{stderr}"
    );
    assert!(stderr.contains("no contestant folders"), "{stderr}");
}

/// The standard output of `mayan-judge args` in `lang`, succeeding.
fn help_in(args: &[&str], lang: &str) -> String {
    let out = run_in(args, lang);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn help_in_chinese_gives_every_commands_purpose_headings_and_the_help_flags_in_chinese() {
    let help = help_in(&["--help"], "zh_CN.UTF-8");
    assert!(help.starts_with("玛雅游戏"), "{help}");
    assert!(help.contains("用法：mayan-judge <COMMAND>"), "{help}");
    assert!(help.contains("-h, --help     显示帮助"), "{help}");
    let commands = help.split("命令:").nth(1).unwrap().split("选项:").next().unwrap();
    for line in commands.lines().filter(|l| !l.trim().is_empty()) {
        let (name, about) = line.trim().split_once(' ').unwrap();
        let english = english_words(
            about,
            &[
                "Kattis",
                "Polygon",
                "Hydro",
                "DMOJ",
                "CMS",
                "LemonLime",
                ".in",
                ".ans",
            ],
        );
        assert!(english.is_empty(), "{name}: {english:?} in {about}");
    }
    let grade = help_in(&["grade", "--help"], "zh_CN.UTF-8");
    assert!(grade.starts_with("在沙箱中"), "{grade}");
    for heading in ["用法：mayan-judge grade", "\n参数:\n", "\n选项:\n"] {
        assert!(grade.contains(heading), "{heading}: {grade}");
    }
    assert_eq!(help_in(&["help", "grade"], "zh_CN.UTF-8"), grade);
}

#[test]
fn help_in_english_is_clap_s_own() {
    let help = help_in(&["--help"], "C");
    assert!(help.starts_with("A grader for the Mayan puzzle"), "{help}");
    assert!(
        help.contains("Usage: mayan-judge <COMMAND>\n\nCommands:\n"),
        "{help}"
    );
    assert!(help.contains("-h, --help     Print help"), "{help}");
}

/// Latin words a Chinese `--help` holds: the program's values, languages,
/// formats, file names, tools and other judges' names. Words in capitals
/// (placeholders such as `FILE`, codes such as `AC`, `HTTPS`) are allowed
/// too.
const HELP_ALLOWED: &[&str] = &[
    // values of options
    "literal",
    "noop",
    "at",
    "most",
    "auto",
    "always",
    "never",
    "testlib",
    "kattis",
    "lemon",
    "appes",
    "solver",
    "grader",
    "stress",
    "serve",
    "scaling",
    "launch",
    "similar",
    "compile",
    "analysis",
    "search",
    "contest",
    "scale",
    "unknown",
    "public",
    "domain",
    "cc",
    "by",
    "sa",
    "educational",
    "permission",
    "true",
    "false",
    "en",
    "zh",
    "exe",
    "rust",
    "python",
    "cpp",
    // files, folders, placeholders and formats
    "mayan",
    "problems",
    "testdata",
    "reference",
    "bench",
    "backtrack",
    "memo",
    "shared",
    "noip",
    "in",
    "ans",
    "out",
    "toml",
    "problem",
    "statement",
    "md",
    "docs",
    "locales",
    "py",
    "rs",
    "cc",
    "db",
    "judge",
    "csv",
    "passwords",
    "xlsx",
    "json",
    "html",
    "hardK",
    "secret",
    "sample",
    "gen",
    "seed",
    "prefix",
    "board",
    "stem",
    "ext",
    "bits",
    "stdc",
    "include",
    "checker",
    "source",
    "players",
    "max",
    "rights",
    "owner",
    "license",
    "cpu",
    "name",
    "level",
    "found",
    "fix",
    "counterexamples",
    "search",
    "h",
    "mayanN",
    "UTF",
    // other judges, tools and systems
    "Kattis",
    "Polygon",
    "Hydro",
    "DMOJ",
    "LOJ",
    "UOJ",
    "DOMjudge",
    "LemonLime",
    "Arbiter",
    "Excel",
    "WPS",
    "JUnit",
    "Markdown",
    "Python",
    "Rust",
    "SQLite",
    "Cookie",
    "Secure",
    "Forwarded",
    "For",
    "Ctrl",
    "PIN",
    "PCH",
    "seccomp",
    "cgroups",
    "cgroup",
    "mount",
    "pid",
    "root",
    "issue",
    "core",
    "pattern",
    "help",
    // the commands
    "solve",
    "check",
    "grade",
    "validate",
    "show",
    "ci",
    "export",
    "doctor",
    "backup",
    // flags and values quoted in backticks, units, machine-read CSV headers
    "no",
    "colours",
    "jobs",
    "only",
    "MiB",
    "accepted",
    "cms",
    "dmoj",
    "hydro",
    "polygon",
    "contestant",
    "total",
];

/// The Latin words of a Chinese `--help` not in [`HELP_ALLOWED`], flags
/// and capitals left out.
fn help_english(help: &str) -> Vec<String> {
    english_words(help, &[])
        .into_iter()
        .filter(|w| !HELP_ALLOWED.contains(&w.as_str()))
        .filter(|w| w.chars().any(|c| c.is_ascii_lowercase()))
        .collect()
}

#[test]
fn every_commands_help_in_chinese_has_its_options_and_exit_codes_in_chinese() {
    let commands: &[&[&str]] = &[
        &[],
        &["solve"],
        &["check"],
        &["grade"],
        &["validate"],
        &["show"],
        &["ci"],
        &["bench"],
        &["similar"],
        &["gen"],
        &["export"],
        &["stress"],
        &["doctor"],
        &["serve"],
        &["serve", "backup"],
    ];
    for command in commands {
        for flag in ["-h", "--help"] {
            let args: Vec<&str> = command.iter().copied().chain([flag]).collect();
            let help = help_in(&args, "zh_CN.UTF-8");
            let english = help_english(&help);
            assert!(english.is_empty(), "{args:?}: {english:?} in\n{help}");
        }
    }
    let grade = help_in(&["grade", "--help"], "zh_CN.UTF-8");
    assert!(grade.contains("退出码：0 每个测试点 AC"), "{grade}");
    assert!(grade.contains("（默认：1）"), "{grade}");
    let check = help_in(&["check", "--help"], "zh_CN.UTF-8");
    assert!(check.contains("（可选值：testlib、kattis、lemon）"), "{check}");
}

#[test]
fn a_broken_problem_toml_and_a_broken_contest_toml_are_told_in_chinese_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("pkg");
    std::fs::create_dir(&package).unwrap();
    std::fs::write(
        package.join("problem.toml"),
        "name = \"mayan\"\n[limits]\ntime_ms = = 3\n",
    )
    .unwrap();
    let contest = dir.path().join("contest.toml");
    std::fs::write(&contest, "title = \"x\"\nstart = [\n").unwrap();
    let (package, contest) = (package.to_str().unwrap(), contest.to_str().unwrap());
    let problem = ["grade", "--trusted", "--problem", package, "mayan.cpp"];
    let zh = fails_in_chinese(&problem, "zh_CN.UTF-8");
    assert!(
        zh.contains("problem.toml 第 3 行：不是合法的 TOML：")
            && zh.starts_with("mayan-judge：错误：读取题目包"),
        "{zh}"
    );
    let en = fails_in_chinese(&problem, "C");
    assert!(
        en.contains("problem.toml: TOML parse error at line 3, column 11\n"),
        "{en}"
    );
    let serve = ["serve", "--contest", contest, "--dry-run"];
    let zh = fails_in_chinese(&serve, "zh_CN.UTF-8");
    assert!(
        zh.contains("contest.toml 第 2 行：`start = [`") && zh.starts_with("mayan-judge：错误：读取"),
        "{zh}"
    );
    let en = fails_in_chinese(&serve, "C");
    assert!(en.contains("contest.toml:2: `start = [`: "), "{en}");
}
