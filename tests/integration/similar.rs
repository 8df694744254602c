//! `mayan-judge similar`: the labelled corpus's figures (the targets),
//! and the command's inputs, options and outputs.

use crate::util::{judge, manifest, write_in};
use mayan_judge::similarity::corpus::{self, Level, Part};
use mayan_judge::similarity::disguise;
use mayan_judge::similarity::tokens::tokenize;
use mayan_judge::similarity::{Analysis, Options};

/// The corpus's held-out part (copies disguised from seed 2011, the seed
/// `bench` reports on) compared as one class at the default settings.
fn held_out() -> (corpus::Scores, Vec<corpus::Item>, Analysis) {
    let items = corpus::part(&corpus::build(&manifest(), 2, 2011).unwrap(), Part::HeldOut);
    let (scores, analysis) = corpus::evaluate(&items, &Options::default());
    (scores, items, analysis)
}

#[test]
fn on_the_held_out_corpus_at_default_settings_copies_are_flagged_and_independent_programs_are_not() {
    let (s, items, a) = held_out();
    eprintln!(
        "held out: {} programs; {}; {s:?}",
        items.len(),
        mayan_judge::similarity::render::baseline_line(&a)
    );
    // The worst independent pairs and the weakest copies, to read when it fails.
    let same = |p: &&mayan_judge::similarity::Pair| items[p.a].lang == items[p.b].lang;
    let mut neg: Vec<(f64, &str, &str)> = a
        .pairs
        .iter()
        .filter(|p| items[p.a].family != items[p.b].family && same(p))
        .map(|p| (p.similarity, items[p.a].name.as_str(), items[p.b].name.as_str()))
        .collect();
    neg.sort_by(|x, y| y.0.total_cmp(&x.0));
    eprintln!("closest independent pairs: {:?}", &neg[..neg.len().min(5)]);
    assert!(s.auc >= 0.995, "same-language ROC AUC {:.4} < 0.995", s.auc);
    let heavy = s.heavy_flagged.unwrap();
    assert!(
        heavy >= 0.95,
        "heavy copies flagged at the defaults: {heavy:.3} < 0.95"
    );
    let fp = s.independent_flagged.unwrap();
    assert!(
        fp <= 0.01,
        "independent same-language pairs flagged: {fp:.4} > 1%"
    );
    let tr = s.translations_flagged.unwrap();
    assert!(tr > 0.5, "translations flagged at the defaults: {tr:.2}");
}

#[test]
fn the_held_out_part_is_written_by_other_hands_than_the_tuning_part() {
    let items = corpus::build(&manifest(), 0, 1).unwrap();
    let originals = |part| {
        items
            .iter()
            .filter(|i| i.part == part && i.level == Level::Original)
            .map(|i| i.family.clone())
            .collect::<std::collections::HashSet<_>>()
    };
    let (tuning, held) = (originals(Part::Tuning), originals(Part::HeldOut));
    assert!(tuning.is_disjoint(&held));
    let handout = originals(Part::Handout);
    assert!(
        handout.len() >= 3 && handout.is_disjoint(&held) && handout.is_disjoint(&tuning),
        "the handout's programs are a class of their own: {handout:?}"
    );
    assert!(held.len() >= 14, "{held:?}");
    assert!(
        held.iter().filter(|f| f.contains("outline")).count() >= 4,
        "{held:?}"
    );
    let langs: std::collections::HashSet<_> = items
        .iter()
        .filter(|i| i.part == Part::HeldOut)
        .map(|i| i.lang)
        .collect();
    assert_eq!(langs.len(), 4, "held out in C, C++, Python and Rust");
}

#[test]
fn the_corpus_records_each_copys_disguises_and_level() {
    let items = corpus::build(&manifest(), 1, 7).unwrap();
    let heavy: Vec<_> = items
        .iter()
        .filter(|i| i.level == Level::Heavy && i.disguises != ["by hand"])
        .collect();
    assert!(!heavy.is_empty());
    assert!(
        heavy
            .iter()
            .all(|i| i.disguises.len() == disguise::HEAVY_REWRITES + 3
                && i.disguises.contains(&"rename")
                && i.disguises.contains(&"dead code"))
    );
    let langs: std::collections::HashSet<_> = items.iter().map(|i| i.lang).collect();
    assert_eq!(langs.len(), 4, "independent solutions in C, C++, Python and Rust");
}

#[test]
fn every_disguise_changes_some_program_and_keeps_every_program_parsing() {
    let mut few = Vec::new();
    let items = corpus::build(&manifest(), 0, 1).unwrap();
    let originals: Vec<_> = items.iter().filter(|i| i.level == Level::Original).collect();
    for (name, f) in disguise::LIGHT.iter().chain(disguise::MEDIUM) {
        let mut changed = 0;
        for it in &originals {
            let out = f(&it.text, it.lang, &mut fastrand::Rng::with_seed(3));
            changed += usize::from(out != it.text);
            let (_, errors) = tokenize(&out, it.lang).unwrap();
            assert!(
                errors == 0.0,
                "{name} on {} gives a program that does not parse:\n{out}",
                it.name
            );
        }
        // A fifth at least: some rewrites need a construct not every program
        // has (a temporary used once, a line read).
        if changed * 5 < originals.len() {
            few.push(format!(
                "{name} changed only {changed} of {} programs",
                originals.len()
            ));
        }
    }
    assert!(few.is_empty(), "{few:?}");
}

const PROG: &str = include_str!("../../reference/mayan/accepted/backtrack.cpp");

fn renamed(text: &str) -> String {
    text.replace("bd", "board")
        .replace("ans", "moves")
        .replace("fall", "gravity")
        .replace("dfs", "go")
}

#[test]
fn a_renamed_copy_is_flagged_with_its_lines_in_json_csv_and_html() {
    let dir = tempfile::tempdir().unwrap();
    write_in(dir.path(), "alice.cpp", PROG);
    write_in(dir.path(), "bob.cpp", &renamed(PROG));
    write_in(
        dir.path(),
        "carol.py",
        include_str!("../../reference/mayan/accepted/solution.py"),
    );
    let (json, csv, html) = (
        dir.path().join("r.json"),
        dir.path().join("r.csv"),
        dir.path().join("r.html"),
    );
    let out = judge()
        .arg("similar")
        .arg(dir.path())
        .arg("--json")
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .arg("--html")
        .arg(&html)
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a flagged pair exits 1: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().nth(3).unwrap().contains("alice.cpp"), "{stdout}");
    assert!(
        stdout.lines().nth(1).unwrap().contains("fewer than 5 programs"),
        "a class of three says it has no baseline: {stdout}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["schema"], "mayan-judge/similar");
    assert_eq!(v["version"], 1);
    assert_eq!(v["pairs"].as_array().unwrap().len(), 3, "every pair");
    let top = &v["pairs"][0];
    assert!(
        top["a"].as_str().unwrap().ends_with("alice.cpp") && top["b"].as_str().unwrap().ends_with("bob.cpp")
    );
    let s = top["similarity"].as_f64().unwrap();
    assert!((0.9..=1.0).contains(&s), "{s}");
    assert_eq!(top["flagged"], true);
    let f = &top["fragments"][0];
    assert!(f["lines_a"][0].as_u64().unwrap() >= 1 && f["lines_b"][1].as_u64().unwrap() <= 106);
    assert!(f["reason"].as_str().unwrap().contains("renaming"), "{f}");
    for p in v["pairs"].as_array().unwrap() {
        let s = p["similarity"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&s));
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with("\u{feff}a,b,similarity,share_a,share_b"));
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("<span class=\"n\">") && html.contains("same token structure after renaming"));
    assert!(
        !html.contains("<script src") && !html.contains("<link"),
        "self-contained"
    );
}

#[test]
fn template_code_is_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_in(dir.path(), "a.cpp", PROG);
    let b = write_in(dir.path(), "b.cpp", &renamed(PROG));
    let t = write_in(dir.path(), "handout.cpp", PROG);
    let out = judge()
        .arg("similar")
        .args([&a, &b])
        .arg("--template")
        .arg(&t)
        .arg("-q")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn references_are_compared_with_the_class_not_with_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let refs = dir.path().join("published");
    write_in(&refs, "one.cpp", PROG);
    write_in(&refs, "two.cpp", PROG);
    let student = write_in(dir.path(), "student.cpp", &renamed(PROG));
    let other = write_in(
        dir.path(),
        "other.rs",
        include_str!("../../reference/mayan/accepted/solution.rs"),
    );
    let json = dir.path().join("r.json");
    let out = judge()
        .arg("similar")
        .args([&student, &other])
        .arg("--reference")
        .arg(&refs)
        .arg("--json")
        .arg(&json)
        .arg("-q")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(
        pairs.len(),
        5,
        "4 programs, 6 pairs, less the two references' own"
    );
    assert!(
        pairs
            .iter()
            .all(|p| !(p["a"].as_str().unwrap().contains("published")
                && p["b"].as_str().unwrap().contains("published")))
    );
}

/// Six independent solutions of the corpus (and `more`) copied into `dir`.
fn independent_into(dir: &std::path::Path, more: &[&str]) {
    let six = [
        "flat_array.c",
        "struct_ptr.c",
        "struct_board.cpp",
        "lambda_solver.cpp",
        "class_solver.py",
        "vec_columns.rs",
    ];
    for f in six.iter().chain(more) {
        let from = manifest().join("testdata/similar/independent").join(f);
        std::fs::copy(from, dir.join(f)).unwrap();
    }
}

#[test]
fn three_who_share_code_are_a_group() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("a.cpp", PROG.to_string()),
        ("b.cpp", renamed(PROG)),
        ("c.cpp", PROG.replace("    ", "\t")),
    ] {
        write_in(dir.path(), name, &text);
    }
    // Others, independent, so that the class shows what every solution shares.
    independent_into(dir.path(), &[]);
    let json = dir.path().join("r.json");
    judge()
        .arg("similar")
        .arg(dir.path())
        .arg("--json")
        .arg(&json)
        .arg("-q")
        .assert()
        .code(1);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].as_array().unwrap().len(), 3);
}

#[test]
fn a_contest_folder_is_read_as_grade_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    write_in(&dir.path().join("source/ann"), "mayan.cpp", PROG);
    write_in(&dir.path().join("source/ben"), "mayan.cpp", &renamed(PROG));
    write_in(
        &dir.path().join("source/cat/mayan"),
        "mayan.py",
        include_str!("../../reference/mayan/accepted/solution.py"),
    );
    let out = judge()
        .arg("similar")
        .arg("--contest")
        .arg(dir.path())
        .arg("-q")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("ann  ben"), "contestants by name: {stdout}");
    assert!(stdout.starts_with("3 programs"), "{stdout}");
}

#[test]
fn bad_input_is_named_and_the_rest_still_compared() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_in(dir.path(), "a.cpp", PROG);
    let b = write_in(dir.path(), "b.cpp", &renamed(PROG));
    let binary = dir.path().join("c.cpp");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
    let huge = dir.path().join("huge.c");
    std::fs::write(&huge, "int x;\n".repeat((10 << 20) / 7)).unwrap();
    let unknown = write_in(dir.path(), "d.pas", "begin end.");
    let empty = dir.path().join("nobody");
    std::fs::create_dir(&empty).unwrap();
    let out = judge()
        .arg("similar")
        .args([&a, &b, &binary, &huge, &unknown, &empty])
        .arg("-q")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "the two good files compared: {err}");
    assert!(
        err.contains("c.cpp: not a text file (line 1 holds a NUL byte)"),
        "{err}"
    );
    assert!(err.contains("huge.c:") && err.contains("longer than"), "{err}");
    assert!(
        err.contains("d.pas: cannot tell the language") && err.contains("--language"),
        "{err}"
    );
    assert!(err.contains("nobody: the folder holds no source file"), "{err}");
    // --language says what an extension does not.
    let out = judge()
        .arg("similar")
        .args([&a, &unknown])
        .args(["--language", "c", "-q"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("d.pas"));
}

#[test]
fn fewer_than_two_programs_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_in(dir.path(), "a.cpp", PROG);
    let out = judge().arg("similar").arg(&a).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least two"));
}

#[test]
fn serve_the_teachers_page_shows_copied_programs_and_contestants_get_403() {
    use crate::serve_util::Server;
    let server = Server::start(&["alice", "bob", "carol"], "", &[]);
    server.contestant("alice").submit("mayan.cpp", PROG);
    server.contestant("bob").submit("mayan.cpp", &renamed(PROG));
    server.contestant("carol").submit(
        "mayan.py",
        include_str!("../../reference/mayan/accepted/solution.py"),
    );
    let teacher = server.teacher();
    let page = teacher.get("/admin/similar");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("<td>alice</td>") && page.body.contains("<td>bob</td>"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("Threshold 0.550: the default for a class of fewer than 5 programs"),
        "the page says which rule set the threshold: {}",
        page.body
    );
    teacher.get("/language/zh-CN?back=/admin/similar");
    let zh = teacher.get("/admin/similar");
    assert!(
        zh.body.contains("阈值 0.550：程序少于 5 个的班级没有自己的分布"),
        "in Chinese too: {}",
        zh.body
    );
    teacher.get("/language/en?back=/admin/similar");
    let pair = teacher.get("/admin/similar/0");
    assert_eq!(pair.status, 200);
    assert!(
        pair.body.contains("alice and bob") && pair.body.contains("<span class=\"n\">"),
        "{}",
        pair.body
    );
    assert_eq!(teacher.get("/admin/similar/999").status, 404);
    for path in ["/admin/similar", "/admin/similar/0"] {
        assert_eq!(
            server.contestant("bob").get(path).status,
            403,
            "{path} as a contestant"
        );
    }
}

#[test]
fn a_flagged_pair_says_how_far_above_the_class_it_stands_and_moved_code_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    write_in(dir.path(), "a.cpp", PROG);
    let (_, reorder) = disguise::MEDIUM
        .iter()
        .find(|(n, _)| *n == "reorder functions")
        .unwrap();
    let moved = reorder(
        PROG,
        mayan_judge::similarity::Lang::Cpp,
        &mut fastrand::Rng::with_seed(5),
    );
    assert_ne!(moved, PROG);
    write_in(dir.path(), "b.cpp", &moved);
    independent_into(dir.path(), &["textbook.cpp"]);
    let (json, html) = (dir.path().join("r.json"), dir.path().join("r.html"));
    let out = judge()
        .arg("similar")
        .arg(dir.path())
        .arg("--json")
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .arg("-q")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .nth(1)
            .unwrap()
            .contains("this class's median similarity"),
        "{stdout}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let base = &v["baseline"];
    assert!(
        ["class", "floor", "ceiling"].contains(&base["rule"].as_str().unwrap()),
        "{base}"
    );
    let top = &v["pairs"][0];
    assert!(top["b"].as_str().unwrap().ends_with("b.cpp"), "{top}");
    assert!(top["above_baseline"].as_f64().unwrap() > 4.0, "{top}");
    assert!(
        top["fragments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["moved"] == true),
        "{top}"
    );
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("moved: in another order in the other program"));
    assert!(
        html.contains("spreads above the class&#39;s median")
            || html.contains("spreads above the class's median")
    );
}
