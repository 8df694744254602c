//! `serve`'s counterexamples: a failing submission gets the smallest board
//! it fails on (the search `stress` makes, run at the pool's lowest
//! priority), drawn on its page, in the API and in `/events`, stored so
//! that a restart keeps it, never a test of the package, and shown to
//! contestants as the feedback table says.

use crate::serve_util::{Client, Server, contest_dir, submission_number};
use mayan_judge::puzzle::sim::Puzzle;
use std::time::{Duration, Instant};

/// contest.toml's lines that turn the search on (the test contests have it
/// off: `serve_util::contest_dir`).
const SEARCH: &str = "[counterexamples]\nsearch = true\n";

/// A program that always answers `-1`: wrong on the first solvable board.
const MINUS_ONE_C: &str = "#include <stdio.h>\nint main(void){ FILE *f = fopen(\"mayan.out\", \"w\"); fprintf(f, \"-1\\n\"); fclose(f); puts(\"-1\"); return 0; }\n";

fn api(server: &Server, name: &str, password: &str) -> Client {
    let mut c = server.client();
    c.api_sign_in(name, password);
    c
}

/// The submission's `counterexample` in the API once its search ended (the
/// teacher always sees it), polled up to `secs`.
fn wait_searched(teacher: &Client, id: i64, secs: u64) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v: serde_json::Value =
            serde_json::from_str(&teacher.get(&format!("/api/v1/submissions/{id}")).body).unwrap();
        let c = &v["counterexample"];
        if c["state"] == "found" || c["state"] == "none" {
            return c.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no counterexample within {secs} s: {v}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Every test input of the bundled package.
fn package_puzzles() -> Vec<Puzzle> {
    let root = crate::util::manifest().join("testdata/mayan");
    let mut out = Vec::new();
    for dir in ["sample", "secret"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "in") {
                out.push(Puzzle::parse(&std::fs::read(e.path()).unwrap()).unwrap());
            }
        }
    }
    out
}

/// `source` submitted by alice as `file`, judged WA; its number, and its
/// counterexample once its search ended (as the teacher sees it).
fn judged_wrong_and_searched(
    server: &Server,
    file: &str,
    source: &str,
    secs: u64,
) -> (i64, serde_json::Value) {
    let alice = server.contestant("alice");
    let id = submission_number(&alice.submit(file, source));
    let mut teacher = server.client();
    teacher.api_sign_in("admin", crate::serve_util::ADMIN_PASSWORD);
    let judged = api(server, "alice", "alice-pw").wait_judged(id, 240);
    assert_eq!(judged["verdict"], "WA", "{judged}");
    (id, wait_searched(&teacher, id, secs))
}

/// `(searched, found)` of the stored counterexamples.
fn stored(dir: &std::path::Path) -> Vec<(i64, Option<String>)> {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("mayan-judge.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let mut stmt = conn
        .prepare("SELECT searched, found FROM counterexamples")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn serve_a_wrong_answer_reference_gets_its_smallest_failing_board_never_a_package_test_kept_across_a_restart()
{
    if crate::util::tool("g++").is_none() {
        return;
    }
    let temp = contest_dir(&["alice"], SEARCH);
    let mut server = Server::start_in(temp.path(), &[]);
    let source = std::fs::read_to_string(
        crate::util::manifest().join("reference/mayan/wrong_answer/no_gravity_cascade.cpp"),
    )
    .unwrap();
    let (id, found) = judged_wrong_and_searched(&server, "mayan.cpp", &source, 120);
    assert_eq!(found["state"], "found", "{found}");
    let alice = server.contestant("alice");
    let board = Puzzle::parse(found["board"].as_str().unwrap().as_bytes()).expect("a valid board");
    assert!(
        !package_puzzles().contains(&board),
        "a package test given away: {found}"
    );
    assert!(board.board.block_count() <= 12, "shrunk: {found}");
    assert!(!found["reason"].as_str().unwrap().is_empty());
    assert!(
        found["reason_data"]["kind"].is_string(),
        "the checker's reason as data: {found}"
    );
    assert!(!found["smallest_solution"].as_str().unwrap().is_empty());
    let page = alice.get(&format!("/submissions/{id}")).body;
    assert!(page.contains("data-state=\"found\""), "{page}");
    assert!(page.contains("<svg class=\"b\""), "the board drawn: {page}");
    assert!(page.contains("the smallest solution"), "{page}");
    // A restart shows it again without searching again.
    let before = stored(temp.path());
    assert_eq!(before.len(), 1, "{before:?}");
    server.kill();
    let server = Server::start_in(temp.path(), &[]);
    let again = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
    let v: serde_json::Value =
        serde_json::from_str(&again.get(&format!("/api/v1/submissions/{id}")).body).unwrap();
    assert_eq!(
        v["counterexample"], found,
        "the same counterexample after a restart"
    );
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(stored(temp.path()), before, "not searched again");
}

#[test]
fn serve_each_feedback_policy_shows_or_hides_the_counterexample_in_the_api_the_page_and_the_events() {
    if crate::util::tool("gcc").is_none() {
        return;
    }
    // (contest.toml, shown to the contestant)
    let table = [
        ("feedback = \"all-tests\"\n[counterexamples]\n", true),
        ("feedback = \"first-failure\"\n[counterexamples]\n", true),
        ("feedback = \"score\"\n[counterexamples]\n", false),
        (
            "feedback = \"score\"\n[counterexamples]\nunder_score = true\n",
            true,
        ),
        ("feedback = \"none-until-end\"\n[counterexamples]\n", false),
    ];
    for (toml, shown) in table {
        let server = Server::start(&["alice"], toml, &[]);
        let alice = server.contestant("alice");
        let stream = crate::serve_hostile::events(&server, &alice);
        let id = submission_number(&alice.submit("mayan.c", MINUS_ONE_C));
        let teacher = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
        let found = wait_searched(&teacher, id, 240);
        assert_eq!(found["state"], "found", "{toml}: the teacher sees it: {found}");
        let teacher_page = server.teacher().get(&format!("/submissions/{id}")).body;
        assert!(
            teacher_page.contains("data-state=\"found\""),
            "{toml}: teacher's page"
        );
        let seen = api(&server, "alice", "alice-pw")
            .get(&format!("/api/v1/submissions/{id}"))
            .body;
        let seen: serde_json::Value = serde_json::from_str(&seen).unwrap();
        assert_eq!(seen["counterexample"] == found, shown, "{toml}: API {seen}");
        if !shown {
            assert!(seen["counterexample"].is_null(), "{toml}: API {seen}");
        }
        let page = alice.get(&format!("/submissions/{id}")).body;
        assert_eq!(page.contains("id=\"counterexample\""), shown, "{toml}: page");
        // The stream: its counterexample event, or none within a second
        // of the search's end.
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut heard = false;
        while let Ok(Some(line)) = stream.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            heard |= line.starts_with("event: counterexample");
        }
        assert_eq!(heard, shown, "{toml}: /events");
    }
}

/// `contestant_cpu_seconds`: once a contestant's searches have used it,
/// their next failing submissions are not searched (none found, at once).
#[test]
fn serve_a_contestant_whose_search_time_is_spent_gets_no_more_searches() {
    if crate::util::tool("gcc").is_none() {
        return;
    }
    // A millisecond: the first search may make one run, which spends it.
    let limits = format!("{SEARCH}contestant_cpu_seconds = 0.001\n");
    let temp = contest_dir(&["alice"], &limits);
    let server = Server::start_in(temp.path(), &[]);
    let runs = |id: i64| -> i64 {
        let conn = rusqlite::Connection::open_with_flags(
            temp.path().join("mayan-judge.db"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        conn.query_row(
            "SELECT runs FROM counterexamples WHERE submission_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap()
    };
    let (first, _) = judged_wrong_and_searched(&server, "mayan.c", MINUS_ONE_C, 60);
    assert!(runs(first) >= 1, "the first search ran");
    let (second, searched) = judged_wrong_and_searched(&server, "mayan.c", MINUS_ONE_C, 60);
    assert_eq!(searched["state"], "none", "{searched}");
    assert_eq!(runs(second), 0, "nothing ran for the second");
}
