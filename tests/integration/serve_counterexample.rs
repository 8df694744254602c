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
    assert_eq!(
        page.matches("smallest board").count(),
        1,
        "one heading (the page's), not the report's too: {page}"
    );
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
fn serve_each_feedback_policy_that_shows_the_counterexample_shows_it_in_the_api_the_page_and_the_events() {
    if crate::util::tool("gcc").is_none() {
        return;
    }
    // (contest.toml, shown to the contestant): the policies that hide it
    // search only after the end (the next test).
    let table = [
        ("feedback = \"all-tests\"\n[counterexamples]\n", true),
        ("feedback = \"first-failure\"\n[counterexamples]\n", true),
        (
            "feedback = \"score\"\n[counterexamples]\nunder_score = true\n",
            true,
        ),
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

/// `start` and `end` lines of a contest that began a minute ago and ends
/// `secs` seconds from now.
fn ending_in(secs: i64) -> String {
    let at = |offset: i64| {
        let t = time::OffsetDateTime::now_utc() + time::Duration::seconds(offset);
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        )
    };
    format!("start = {}\nend = {}\n", at(-60), at(secs))
}

/// The timing attack of issue 56: where the feedback hides verdicts, a
/// search during the contest would slow the contestant's next submission
/// only after a failing one. No search runs until the end; then it does,
/// and everybody sees what it found.
#[test]
fn serve_under_feedback_that_hides_verdicts_no_search_runs_until_the_contest_ends() {
    if crate::util::tool("gcc").is_none() {
        return;
    }
    const CONTEST_SECS: i64 = 25;
    // Both policies at once (each contest is mostly a wait for its end).
    std::thread::scope(|s| {
        for policy in ["feedback = \"none-until-end\"\n", "feedback = \"score\"\n"] {
            s.spawn(move || no_search_until_the_end(policy, CONTEST_SECS));
        }
    });
}

/// One contest of [`serve_under_feedback_that_hides_verdicts_no_search_runs_until_the_contest_ends`]
/// under `policy`, ending in `secs`.
fn no_search_until_the_end(policy: &str, secs: i64) {
    let end = Instant::now() + Duration::from_secs(secs as u64);
    let toml = format!("{}{policy}{SEARCH}", ending_in(secs));
    let temp = contest_dir(&["alice"], &toml);
    let server = Server::start_in(temp.path(), &[]);
    let alice = server.contestant("alice");
    let failing = submission_number(&alice.submit("mayan.c", MINUS_ONE_C));
    let api_alice = api(&server, "alice", "alice-pw");
    api_alice.wait_judged(failing, 120);
    // Her next submission, an accepted one, judged as if she had
    // never failed: no search before it, nor while the contest runs.
    let accepted = submission_number(&alice.submit("mayan.c", &crate::serve_util::accepted_c()));
    api_alice.wait_judged(accepted, 120);
    // Both were judged with seconds of the contest left (25 s for two
    // programs of well under a second each): the checks below are made.
    assert!(
        Instant::now() + Duration::from_secs(3) < end,
        "{policy}: judged only at the contest's end: nothing checked during it"
    );
    while Instant::now() + Duration::from_secs(3) < end {
        assert_eq!(
            stored(temp.path()),
            [],
            "{policy}: a search ran during the contest ({toml}), now {}",
            time::OffsetDateTime::now_utc()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let teacher = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
    let found = wait_searched(&teacher, failing, 120);
    assert_eq!(
        found["state"], "found",
        "{policy}: searched after the end: {found}"
    );
    let seen: serde_json::Value =
        serde_json::from_str(&api_alice.get(&format!("/api/v1/submissions/{failing}")).body).unwrap();
    assert_eq!(seen["counterexample"], found, "{policy}: shown after the end");
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

/// A program that answers `-1`, except on boards of at most two blocks
/// (the search's first boards; every package test has more), where it
/// sleeps until the wall limit: each of its search's runs would hold a
/// slot for 7 s.
const SLEEPS_ON_SMALL_BOARDS_C: &str = "#include <stdio.h>\n#include <unistd.h>\nint main(void){ int n, x, blocks = 0, cols = 0; if (scanf(\"%d\", &n) != 1) return 0; while (cols < 5 && scanf(\"%d\", &x) == 1) { if (x == 0) cols++; else blocks++; } if (blocks <= 2) sleep(100); puts(\"-1\"); return 0; }\n";

/// Issue 56: with one slot, a classmate's search whose runs sleep to the
/// wall limit (7 s) held the slot before her compilation and again
/// between it and her tests. A waiting submission now preempts the
/// search's run (killed, run again later), and keeps its slot from its
/// compilation to its last test: judged about as fast as on an idle
/// server, far below the 7 s one search run held it.
#[test]
fn serve_a_waiting_submission_preempts_a_sleeping_search_run_instead_of_waiting_for_it() {
    if crate::util::tool("gcc").is_none() {
        return;
    }
    let limits = format!("{SEARCH}cpu_seconds = 300\ncontestant_cpu_seconds = 600\n");
    let temp = contest_dir(&["alice", "bob"], &limits);
    let server = Server::start_in(temp.path(), &["--jobs", "1"]);
    let (alice, bob) = (server.contestant("alice"), server.contestant("bob"));
    let (api_alice, api_bob) = (api(&server, "alice", "alice-pw"), api(&server, "bob", "bob-pw"));
    let accepted = crate::serve_util::accepted_c();
    let judged_in = |source: &str| {
        let start = Instant::now();
        let id = submission_number(&alice.submit("mayan.c", source));
        assert_eq!(api_alice.wait_judged(id, 120)["verdict"], "AC");
        start.elapsed()
    };
    let idle = judged_in(&accepted);
    let failing = submission_number(&bob.submit("mayan.c", SLEEPS_ON_SMALL_BOARDS_C));
    assert_eq!(api_bob.wait_judged(failing, 120)["verdict"], "WA");
    // Its search is under way: its runs sleep.
    std::thread::sleep(Duration::from_secs(3));
    let during = judged_in(&accepted);
    eprintln!("accepted program judged in {during:?} during a sleeping search, {idle:?} idle");
    assert!(
        during < idle + Duration::from_millis(4500),
        "judged in {during:?} while bob's search ran, {idle:?} idle"
    );
    // The search goes on afterwards, and is still bob's to see.
    let teacher = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
    let v: serde_json::Value =
        serde_json::from_str(&teacher.get(&format!("/api/v1/submissions/{failing}")).body).unwrap();
    assert!(v["counterexample"]["state"].is_string(), "{v}");
}
