//! `similar` and the teacher's page of `serve` over programs nested deeper
//! than the syntax tree's walk goes (issue 56): 1,200 `if (x)` without
//! braces, an `if ... else` chain of 1,200 (an honest 打表 program's shape)
//! and 1,200 nested `while (x)`, in C, C++ and Rust, and a Python
//! expression as deep. Each is named as too deep to compare and the rest
//! are compared; nothing aborts. And 1 MiB of each shape (one long
//! expression, deep nesting, many statements, garbage, an ambiguous
//! `a<a<...`) is compared or refused within a bound
//! far above its time (`bench --only similar` measures it).

use crate::serve_util::Server;
use crate::util::{judge_within, write_in};
use std::time::{Duration, Instant};

const CPP: &str = include_str!("../../reference/mayan/accepted/backtrack.cpp");
const C: &str = include_str!("../../reference/mayan/accepted/plain_dfs.c");

/// Levels of nesting in each deep program (the walk stops at 1,000).
const LEVELS: usize = 1200;

/// A C or C++ function nested `LEVELS` deep in each of the three shapes.
fn c_deep_functions() -> [(&'static str, String); 3] {
    let dangling = format!(
        "int dead_if(int x) {{\n{}return 1;\nreturn 0;\n}}\n",
        "if (x)\n".repeat(LEVELS)
    );
    let chain: String = (0..LEVELS)
        .map(|k| format!("if (x == {k}) return {};\nelse ", k * 7 % 13))
        .collect();
    let chain = format!("int table(int x) {{\n{chain}return 0;\n}}\n");
    let loops = format!(
        "int dead_while(int x) {{\n{}x--;\nreturn x;\n}}\n",
        "while (x)\n".repeat(LEVELS)
    );
    [
        ("dangling_if", dangling),
        ("else_chain", chain),
        ("nested_while", loops),
    ]
}

/// The same shapes in Rust (a chain of `else if`, nested `if` and `while` blocks).
fn rust_deep_functions() -> [(&'static str, String); 3] {
    let nested = |head: &str| {
        format!(
            "fn dead(x: i32) -> i32 {{\n{}x{}\n}}\n",
            format!("{head} x > 0 {{\n").repeat(LEVELS),
            "}\n".repeat(LEVELS)
        )
    };
    let chain: String = (0..LEVELS)
        .map(|k| format!("if x == {k} {{ {} }} else ", k * 7 % 13))
        .collect();
    let chain = format!("fn table(x: i32) -> i32 {{\n{chain}{{ 0 }}\n}}\n");
    [
        ("if", nested("if")),
        ("else_chain", chain),
        ("while", nested("while")),
    ]
}

/// A class: the two honest C++ programs (one renamed), and each deep
/// program (an accepted C or C++ program with a dead deep function, a deep
/// Rust and Python program); the deep ones' file names.
fn class(dir: &std::path::Path) -> Vec<String> {
    write_in(dir, "honest.cpp", CPP);
    write_in(dir, "renamed.cpp", &CPP.replace("bd", "board"));
    let mut deep = Vec::new();
    for (shape, f) in c_deep_functions() {
        for (ext, prog) in [("c", C), ("cpp", CPP)] {
            let name = format!("deep_{shape}.{ext}");
            write_in(dir, &name, &format!("{prog}\n{f}"));
            deep.push(name);
        }
    }
    for (shape, f) in rust_deep_functions() {
        let name = format!("deep_{shape}.rs");
        write_in(
            dir,
            &name,
            &format!("{f}fn main() {{ println!(\"{{}}\", dead(1)); }}\n"),
        );
        deep.push(name);
    }
    let py = format!("x = {}1{}\nprint(x)\n", "(".repeat(LEVELS), ")".repeat(LEVELS));
    write_in(dir, "deep.py", &py);
    deep.push("deep.py".into());
    deep
}

#[test]
fn similar_names_each_program_nested_1200_deep_as_too_deep_and_compares_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let deep = class(dir.path());
    let json = dir.path().join("r.json");
    let out = judge_within(240)
        .arg("similar")
        .arg(dir.path())
        .arg("--json")
        .arg(&json)
        .arg("-q")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "similar ends normally: {out:?}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let refused = v["not_compared"].as_array().unwrap();
    for name in &deep {
        let line = stdout
            .lines()
            .find(|l| l.starts_with("not compared:") && l.contains(name.as_str()))
            .unwrap_or_else(|| panic!("{name} is named as not compared: {stdout}"));
        assert!(line.contains("too deep to compare"), "{line}");
        let entry = refused
            .iter()
            .find(|r| r["name"].as_str().unwrap().ends_with(name.as_str()))
            .unwrap_or_else(|| panic!("{name} in not_compared"));
        assert!(entry["too_deep_at"].as_u64().unwrap() >= 1, "{entry}");
    }
    // The honest programs are still compared: the renamed copy is found.
    let top = &v["pairs"][0];
    assert!(top["similarity"].as_f64().unwrap() > 0.9, "{top}");
}

/// 1 MiB (less a little) of `unit` between `head` and `tail`.
fn mebibyte(head: &str, unit: &str, tail: &str) -> String {
    let n = ((1 << 20) - head.len() - tail.len() - 64) / unit.len();
    format!("{head}{}{tail}", unit.repeat(n))
}

/// 1 MiB of characters drawn from `alphabet` (tree-sitter's error recovery
/// over it took 80 s in a debug build).
fn garbage(alphabet: &str) -> String {
    let chars: Vec<char> = alphabet.chars().collect();
    let mut rng = fastrand::Rng::with_seed(56);
    (0..1 << 20).map(|_| chars[rng.usize(..chars.len())]).collect()
}

#[test]
fn a_mebibyte_of_any_shape_is_compared_within_a_bound_far_above_its_time() {
    let shapes = [
        (
            "expression.c",
            mebibyte("int main() { int a = 1; return ", "a+", "a; }\n"),
        ),
        ("expression.py", mebibyte("a = 1\nb = ", "a+", "a\n")),
        (
            "expression.rs",
            mebibyte("fn main() { let a = 1; let b = ", "a+", "a; }\n"),
        ),
        (
            "nesting.c",
            mebibyte("int main(int x) {\n", "if (x)\n", "return 1; return 0; }\n"),
        ),
        (
            "statements.c",
            mebibyte("int main() { int a = 0;\n", "a = a + 1;\n", "return a; }\n"),
        ),
        (
            "one_line.c",
            mebibyte("int main() { int a = 0;", "a=a+1;", "return a; }"),
        ),
        ("garbage.rs", garbage("(){}[];,+=<>ax1 \n|&'")),
        ("ambiguous.cpp", mebibyte("", "a<", "")),
    ];
    for (name, src) in shapes {
        let dir = tempfile::tempdir().unwrap();
        write_in(dir.path(), "honest.cpp", CPP);
        write_in(dir.path(), name, &src);
        let start = Instant::now();
        let out = judge_within(120)
            .arg("similar")
            .arg(dir.path())
            .arg("-q")
            .output()
            .unwrap();
        let took = start.elapsed();
        // 2 s in a release build is the target (bench --only similar); a
        // debug build on a busy machine is allowed ten times that.
        assert!(took < Duration::from_secs(20), "{name}: {took:?}");
        assert!(matches!(out.status.code(), Some(0..=2)), "{name}: {out:?}");
    }
}

#[test]
fn serve_the_teachers_page_names_a_program_too_deep_and_compares_the_rest() {
    let server = Server::start(&["alice", "bob", "mallory"], "", &[]);
    server.contestant("alice").submit("mayan.cpp", CPP);
    server
        .contestant("bob")
        .submit("mayan.cpp", &CPP.replace("bd", "board"));
    let [(_, dangling), ..] = c_deep_functions();
    server
        .contestant("mallory")
        .submit("mayan.c", &format!("{C}\n{dangling}"));
    let teacher = server.teacher();
    let start = Instant::now();
    let page = loop {
        let page = teacher.get("/admin/similar");
        if page.status != 200 || !page.body.contains("being compared") {
            break page;
        }
        assert!(start.elapsed() < Duration::from_secs(240), "still being compared");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("mallory: too deep to compare"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("<td>alice</td>") && page.body.contains("<td>bob</td>"),
        "{}",
        page.body
    );
    assert_eq!(
        server.contestant("alice").get("/submissions").status,
        200,
        "the server is still up"
    );
}
