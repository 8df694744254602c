//! `similar` and the teacher's page of `serve` over programs written to
//! exhaust them (issue 46, part 2): a macro that names itself 40 or 200
//! times, used once inside `#if 0` (the program compiles and is accepted),
//! and 120,000 uses of a macro whose `)` never comes. Every check counts
//! tokens, bytes or answers, never a duration.

use crate::serve_util::{Client, Server};
use crate::util::{judge, write_in};
use mayan_judge::similarity::tokens::{Lang, tokenize};
use std::time::{Duration, Instant};

const PROG: &str = include_str!("../../reference/mayan/accepted/backtrack.cpp");

/// An accepted program whose macro names itself `names` times (231 bytes
/// for 40 names, about 1 KiB for 200): written out four levels deep, it
/// would be `names`^4 copies.
fn self_naming(names: usize) -> String {
    let body = vec!["BOOM"; names].join(" ");
    format!("#define BOOM {body}\n#if 0\nBOOM\n#endif\n{PROG}")
}

/// 120,000 uses of a one-line macro, none closed (238 KiB, under the
/// 256 KiB a source may be).
fn unclosed_uses() -> String {
    format!("#define f(x) x\n{}\n", "f(".repeat(120_000))
}

/// The most tokens a source may give: its bytes and the expansion budget's.
fn token_bound(src: &str) -> usize {
    5 * src.len() + 16 * 1024
}

#[test]
fn hostile_macros_give_tokens_bounded_by_the_sources_size() {
    for src in [self_naming(40), self_naming(200)] {
        let (tokens, _) = tokenize(&src, Lang::Cpp).unwrap();
        let plain = tokenize(PROG, Lang::Cpp).unwrap().0.len();
        assert!(tokens.len() <= token_bound(&src), "{} tokens", tokens.len());
        assert!(tokens.len() >= plain, "the program itself is still read");
    }
    // Unclosed uses: nesting too deep to walk, an error, not a hang.
    let src = unclosed_uses();
    assert!(src.len() < 256 << 10);
    if let Ok((tokens, _)) = tokenize(&src, Lang::Cpp) {
        assert!(tokens.len() <= token_bound(&src));
    }
}

#[test]
fn similar_compares_hostile_programs_with_bounded_output() {
    let dir = tempfile::tempdir().unwrap();
    write_in(dir.path(), "a.cpp", PROG);
    write_in(dir.path(), "b40.cpp", &self_naming(40));
    write_in(dir.path(), "b200.cpp", &self_naming(200));
    write_in(dir.path(), "c.cpp", &unclosed_uses());
    let json = dir.path().join("r.json");
    let out = judge()
        .arg("similar")
        .arg(dir.path())
        .arg("--json")
        .arg(&json)
        .arg("-q")
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "similar ends normally: {out:?}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for p in v["programs"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        let size = std::fs::metadata(name).unwrap().len() as usize;
        let tokens = p["tokens"].as_u64().unwrap() as usize;
        assert!(tokens <= 5 * size + 16 * 1024, "{name}: {tokens} tokens");
    }
    // The copies of the accepted program behind the macros are still found.
    let top = &v["pairs"][0];
    assert!(top["similarity"].as_f64().unwrap() > 0.9, "{top}");
}

/// The teacher's page, asked again until it is no longer being compared.
fn similar_page(teacher: &Client, path: &str) -> crate::serve_util::Page {
    let start = Instant::now();
    loop {
        let page = teacher.get(path);
        if page.status != 200 || !page.body.contains("being compared") {
            return page;
        }
        assert!(
            start.elapsed() < Duration::from_secs(240),
            "still being compared after 4 minutes"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn serve_the_teachers_page_over_hostile_programs_is_compared_once_and_blocks_nobody() {
    let server = Server::start(&["alice", "bob", "mallory", "trudy", "carol"], "", &[]);
    server.contestant("alice").submit("mayan.cpp", PROG);
    server
        .contestant("bob")
        .submit("mayan.cpp", &PROG.replace("bd", "board"));
    server
        .contestant("mallory")
        .submit("mayan.cpp", &self_naming(200));
    server.contestant("trudy").submit("mayan.cpp", &unclosed_uses());
    let teacher = server.teacher();
    let alice = server.contestant("alice");
    // The teacher's first view and a contestant's page at the same time:
    // both answered.
    let (first, other) = std::thread::scope(|s| {
        let first = s.spawn(|| teacher.get("/admin/similar"));
        let other = alice.get("/submissions");
        (first.join().unwrap(), other)
    });
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(other.status, 200);
    let page = similar_page(&teacher, "/admin/similar");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("<td>alice</td>") && page.body.contains("<td>bob</td>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Comparison 1 since"), "{}", page.body);
    // Seen again, and a pair of it: the same comparison, kept.
    let again = teacher.get("/admin/similar");
    assert!(again.body.contains("Comparison 1 since"), "{}", again.body);
    let pair = teacher.get("/admin/similar/0");
    assert_eq!(pair.status, 200);
    assert!(pair.body.contains("Comparison 1 since") && pair.body.contains("<span class=\"n\">"));
    // A new final program: compared again, once.
    server.contestant("carol").submit("mayan.cpp", PROG);
    let page = similar_page(&teacher, "/admin/similar");
    assert!(page.body.contains("Comparison 2 since"), "{}", page.body);
    assert!(teacher.get("/admin/similar").body.contains("Comparison 2 since"));
    assert_eq!(alice.get("/submissions").status, 200, "the server is still up");
}
