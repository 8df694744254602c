//! The teacher's side of `mayan-judge serve`, over HTTP and on the command
//! line: buttons that change results ask again first (a page, no
//! JavaScript), times in the contest's time zone, a backup in one step
//! while the judge runs (`serve backup COPY`, `/admin/backup.db`), the
//! final grades for Moodle's and Canvas's import, and contestants added
//! while the contest runs (a dry run first, nobody ever dropped).

use crate::serve_util::{Client, Server, accepted_c, submission_number};
use crate::util::judge;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const WRONG_C: &str = "#include <stdio.h>\nint main(void) { puts(\"-1\"); return 0; }\n";

/// A contestant's API client.
fn api(server: &Server, name: &str) -> Client {
    let mut c = server.client();
    c.api_sign_in(name, &format!("{name}-pw"));
    c
}

/// The API record of a submission.
fn record(client: &Client, id: i64) -> serde_json::Value {
    serde_json::from_str(&client.get(&format!("/api/v1/submissions/{id}")).body).unwrap()
}

#[test]
fn the_teachers_buttons_ask_again_before_they_change_results() {
    let server = Server::start(&["alice", "bob"], "", &["--trusted"]);
    let alice = api(&server, "alice");
    let id = submission_number(&server.contestant("alice").submit("mayan.c", WRONG_C));
    alice.wait_judged(id, 240);
    let teacher = server.teacher();
    let csrf = teacher.csrf("/admin");

    // Each button's first click is a page that says what will happen, with
    // the same fields and `confirm=yes`: nothing changed yet.
    let number = id.to_string();
    let one = format!("submission {id}");
    let all: &[(&str, &str)] = &[("all", "1")];
    let alices: &[(&str, &str)] = &[("user", "2")];
    let just_one: &[(&str, &str)] = &[("submission", &number)];
    let cases = [
        (all, "Rejudge every submission"),
        (alices, "every submission of alice"),
        (just_one, one.as_str()),
    ];
    for (fields, says) in cases {
        let mut form = vec![("csrf", csrf.as_str())];
        form.extend_from_slice(fields);
        let page = teacher.post_form("/admin/rejudge", &form);
        assert_eq!(page.status, 200, "{fields:?}: {}", page.body);
        assert!(
            page.body.contains(says),
            "{fields:?}: the page says {}",
            page.body
        );
        assert!(
            page.body.contains("name=\"confirm\" value=\"yes\""),
            "{}",
            page.body
        );
        for (k, v) in fields {
            assert!(
                page.body.contains(&format!("name=\"{k}\" value=\"{v}\"")),
                "{k} kept: {}",
                page.body
            );
        }
        assert_eq!(record(&alice, id)["judgings"], 1, "rejudged without confirmation");
    }
    let page = teacher.post_form(
        "/admin/disqualify",
        &[("csrf", &csrf), ("user", "2"), ("yes", "1")],
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Disqualify alice"), "{}", page.body);
    assert!(!teacher.get("/ranking").body.contains("(disqualified)"));

    // The second click acts.
    let page = teacher.post_form(
        "/admin/rejudge",
        &[
            ("csrf", &csrf),
            ("submission", &id.to_string()),
            ("confirm", "yes"),
        ],
    );
    assert_eq!(page.status, 303, "{}", page.body);
    assert!(crate::util::wait_for(std::time::Duration::from_secs(240), || {
        let r = record(&alice, id);
        r["judgings"] == 2 && r["final"] == true
    }));
    let page = teacher.post_form(
        "/admin/disqualify",
        &[("csrf", &csrf), ("user", "2"), ("yes", "1"), ("confirm", "yes")],
    );
    assert_eq!(page.status, 303, "{}", page.body);
    assert!(teacher.get("/ranking").body.contains("alice (disqualified)"));
}

#[test]
fn pages_show_times_in_the_contests_time_zone_and_when_questions_were_answered() {
    let over = "start = 2020-01-01T09:00:00+08:00\nend = 2020-01-01T12:00:00+08:00\n";
    let server = Server::start(&["alice"], over, &["--trusted"]);
    let alice = server.contestant("alice");
    let home = alice.get("/").body;
    assert!(
        home.contains("From 2020-01-01 09:00:00 UTC+08:00 to 2020-01-01 12:00:00 UTC+08:00"),
        "{home}"
    );
    assert!(home.contains("times in UTC+08:00"), "{home}");
    // The name in the header is a link (to one's submissions; minijinja
    // writes `/` as `&#x2f;` in an attribute).
    assert!(
        home.contains("<a class=\"me\" href=\"&#x2f;submissions\" title=\"Your submissions\">"),
        "{home}"
    );
    let csrf = alice.csrf("/clarifications");
    alice.post_form("/clarifications", &[("csrf", &csrf), ("question", "Q?")]);
    let teacher = server.teacher();
    let csrf = teacher.csrf("/clarifications");
    let page = teacher.post_form(
        "/admin/clarifications/1",
        &[("csrf", &csrf), ("answer", "Line one.\nLine two.")],
    );
    assert_eq!(page.status, 303, "{}", page.body);
    let page = alice.get("/clarifications").body;
    let when = page
        .split("<p class=\"when\">")
        .nth(1)
        .unwrap()
        .split("</p>")
        .next()
        .unwrap();
    assert!(when.contains("Asked <time"), "{when}");
    assert!(when.contains(", answered <time"), "{when}");
    assert_eq!(when.matches("UTC+08:00").count(), 2, "{when}");
    assert!(page.contains("Line one.\nLine two."), "the answer whole: {page}");
    // The teacher answers in a text area.
    assert!(
        teacher
            .get("/clarifications")
            .body
            .contains("<textarea name=\"answer\"")
    );
}

#[test]
fn submission_tables_keep_times_on_one_line() {
    let server = Server::start(&["alice"], "", &["--trusted"]);
    let alice = server.contestant("alice");
    let id = submission_number(&alice.submit("mayan.c", WRONG_C));
    api(&server, "alice").wait_judged(id, 240);
    let list = alice.get("/submissions").body;
    assert!(
        list.contains("<td class=\"nw\">") && list.contains(" ms</td>"),
        "{list}"
    );
    let one = alice.get(&format!("/submissions/{id}")).body;
    assert!(
        one.contains("<td class=\"nw\">0 ms</td>") || one.contains(" ms</td>"),
        "{one}"
    );
    let css = alice.get("/static/style.css").body;
    assert!(css.contains("td.nw{white-space:nowrap}"), "{css}");
}

/// What a backup holds: SQLite's own check passes, and these submissions.
fn assert_backup_holds(copy: &Path, acknowledged: &[i64]) {
    let mode = std::fs::metadata(copy).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{} is mode {mode:o}", copy.display());
    let db = rusqlite::Connection::open_with_flags(copy, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let check: String = db.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok");
    let mut stmt = db.prepare("SELECT id FROM submissions").unwrap();
    let ids: Vec<i64> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for id in acknowledged {
        assert!(
            ids.contains(id),
            "submission {id} acknowledged, not in the backup: {ids:?}"
        );
    }
}

#[test]
fn a_backup_taken_while_submissions_are_judged_holds_every_acknowledged_one() {
    let server = Server::start(&["alice"], "", &["--trusted"]);
    let alice = api(&server, "alice");
    // Acknowledged: 201 from the API. The judge works through them while
    // the backups are taken.
    let mut acknowledged = Vec::new();
    for i in 0..6 {
        let source = if i % 2 == 0 {
            accepted_c()
        } else {
            WRONG_C.to_string()
        };
        let page = alice.post_json(
            "/api/v1/submissions",
            &serde_json::json!({"file_name": "mayan.c", "source": source}),
        );
        assert_eq!(page.status, 201, "{}", page.body);
        let v: serde_json::Value = serde_json::from_str(&page.body).unwrap();
        acknowledged.push(v["id"].as_i64().unwrap());
    }
    // On the command line, beside the running server.
    let copy = server.dir.join("copy.db");
    judge()
        .current_dir(&server.dir)
        .args([
            "serve",
            "--contest",
            "contest.toml",
            "--quiet",
            "backup",
            "copy.db",
        ])
        .assert()
        .success();
    assert_backup_holds(&copy, &acknowledged);
    // A copy is never written over.
    let again = judge()
        .current_dir(&server.dir)
        .args(["serve", "--contest", "contest.toml", "backup", "copy.db"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&again.get_output().stderr).to_string();
    assert!(err.contains("copy.db") && err.contains("exists"), "{err}");
    // The teacher's button: a download.
    let teacher = server.teacher();
    let mut response = teacher
        .agent
        .get(format!("{}/admin/backup.db", server.url))
        .call()
        .unwrap();
    assert_eq!(response.status(), 200);
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        disposition.starts_with("attachment; filename=\"mayan-judge-"),
        "{disposition}"
    );
    let bytes = response
        .body_mut()
        .with_config()
        .limit(1 << 30)
        .read_to_vec()
        .unwrap();
    let downloaded = server.dir.join("downloaded.db");
    std::fs::write(&downloaded, bytes).unwrap();
    std::fs::set_permissions(&downloaded, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_backup_holds(&downloaded, &acknowledged);
    // A contestant gets no backup.
    assert_eq!(server.contestant("alice").get("/admin/backup.db").status, 403);
}

#[test]
fn final_grades_are_a_csv_moodle_and_canvas_import() {
    let dir = crate::serve_util::contest_dir(&[], "");
    std::fs::write(
        dir.path().join("students.csv"),
        "name,password,display\nalice,alice-pw,Alice Liddell\nbob,bob-pw,\n",
    )
    .unwrap();
    let server = Server::start_in(dir.path(), &["--trusted"]);
    let id = submission_number(&server.contestant("alice").submit("mayan.c", &accepted_c()));
    let judged = api(&server, "alice").wait_judged(id, 240);
    let full = judged["max_score"].as_i64().unwrap();
    assert_eq!(judged["score"].as_i64(), Some(full));
    let teacher = server.teacher();
    let title = "Mayan puzzle (NOIP 2011 senior, day 1 problem 3)";
    let moodle = teacher.get("/admin/grades-moodle.csv");
    assert_eq!(moodle.status, 200);
    assert_eq!(
        moodle.body,
        format!("\u{feff}username,fullname,\"{title}\"\nalice,Alice Liddell,{full}\nbob,bob,0\n")
    );
    let canvas = teacher.get("/admin/grades-canvas.csv").body;
    assert_eq!(
        canvas,
        format!(
            "\u{feff}Student,ID,SIS User ID,SIS Login ID,Section,\"{title}\"\n\
             Points Possible,,,,,{full}\n\
             Alice Liddell,,,alice,,{full}\n\
             bob,,,bob,,0\n"
        )
    );
    assert!(teacher.get("/admin").body.contains("/admin/grades-canvas.csv"));
    assert_eq!(
        server.contestant("bob").get("/admin/grades-moodle.csv").status,
        403
    );
    assert_eq!(teacher.get("/admin/grades-blackboard.csv").status, 404);
}

/// `serve --dry-run` on the contest folder: what it prints.
fn dry_run(dir: &Path) -> String {
    let out = judge()
        .current_dir(dir)
        .args(["serve", "--contest", "contest.toml", "--dry-run"])
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).to_string()
}

#[test]
fn contestants_are_added_while_the_contest_runs_after_a_dry_run() {
    let server = Server::start(&["alice", "bob"], "", &["--trusted"]);
    let csv = server.dir.join("students.csv");
    // alice gets a display name, carol and dave are new (dave's password
    // generated), bob is no longer in the file.
    std::fs::write(
        &csv,
        "name,password,display\nalice,alice-pw,Alice Liddell\ncarol,carol-pw,\ndave,,Dave\n",
    )
    .unwrap();
    let teacher = server.teacher();
    let printed = dry_run(&server.dir);
    let page = teacher.get("/admin/contestants").body;
    for shown in [&printed, &page] {
        assert!(shown.contains("carol"), "{shown}");
        assert!(shown.contains("dave"), "{shown}");
        assert!(shown.contains("Alice Liddell"), "{shown}");
        assert!(shown.contains("bob"), "bob listed as kept: {shown}");
    }
    assert!(printed.contains("add carol"), "{printed}");
    assert!(
        printed.contains("add dave as \"Dave\" (password generated)"),
        "{printed}"
    );
    assert!(
        printed.contains("alice: display name \"alice\" -> \"Alice Liddell\""),
        "{printed}"
    );
    assert!(printed.contains("keep bob (no longer in the file"), "{printed}");
    // Nothing changed yet.
    assert_ne!(server.client().sign_in("carol", "carol-pw"), 303);
    assert!(!teacher.get("/ranking").body.contains("Alice Liddell"));

    // Applied.
    let csrf = teacher.csrf("/admin/contestants");
    let page = teacher.post_form("/admin/contestants", &[("csrf", &csrf), ("confirm", "yes")]);
    assert_eq!(page.status, 200, "{}", page.body);
    let passwords = std::fs::read_to_string(server.dir.join("passwords.csv")).unwrap();
    let dave_pw = passwords
        .lines()
        .find_map(|l| l.strip_prefix("dave,"))
        .unwrap_or_else(|| panic!("dave's password saved: {passwords}"))
        .to_string();
    assert!(
        page.body.contains(&dave_pw),
        "dave's password shown once: {}",
        page.body
    );
    assert_eq!(server.client().sign_in("carol", "carol-pw"), 303);
    assert_eq!(server.client().sign_in("dave", &dave_pw), 303);
    assert_eq!(server.client().sign_in("bob", "bob-pw"), 303, "bob kept");
    assert!(teacher.get("/ranking").body.contains("Alice Liddell"));
    assert!(dry_run(&server.dir).contains("no change"));

    // A broken CSV changes nothing, and says where it is broken.
    std::fs::write(&csv, "name,password\nalice,alice-pw\nerin,x,y\n").unwrap();
    let page = teacher.get("/admin/contestants").body;
    assert!(page.contains("students.csv:3"), "{page}");
    let csrf = teacher.csrf("/admin");
    let page = teacher.post_form("/admin/contestants", &[("csrf", &csrf), ("confirm", "yes")]);
    assert!(page.status >= 400, "{}", page.body);
    assert_ne!(server.client().sign_in("erin", "x"), 303);
}

/// The analysis page is drawn once per state of the results, and again
/// after a verdict.
#[test]
fn the_analysis_page_is_kept_until_a_verdict_changes_it() {
    let server = Server::start(&["alice"], "", &["--trusted"]);
    let teacher = server.teacher();
    let summary = |judged: usize| format!("with a judged submission, {judged} submissions judged");
    let before = teacher.get("/admin/analysis");
    assert_eq!(before.status, 200);
    assert!(!before.body.contains(&summary(1)), "{}", before.body);
    let alice = api(&server, "alice");
    let sent = alice.post_json(
        "/api/v1/submissions",
        &serde_json::json!({"file_name": "mayan.c", "source": accepted_c()}),
    );
    let id = serde_json::from_str::<serde_json::Value>(&sent.body).unwrap()["id"]
        .as_i64()
        .unwrap();
    alice.wait_judged(id, 120);
    // The results' change is counted just after the verdict is stored.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let after = loop {
        let page = teacher.get("/admin/analysis").body;
        if page.contains(&summary(1)) || std::time::Instant::now() > deadline {
            break page;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(after.contains(&summary(1)), "{after}");
    assert_eq!(
        teacher.get("/admin/analysis").body,
        after,
        "kept while nothing changes"
    );
}

#[test]
fn serve_under_ioi_rules_the_best_submission_counts_in_the_ranking_the_report_and_the_grades() {
    let server = Server::start(&["alice"], "rules = \"ioi\"\n", &[]);
    let alice = server.contestant("alice");
    let home = alice.get("/").body;
    assert!(home.contains("IOI"), "the rules on the home page: {home}");
    let mut api = server.client();
    api.api_sign_in("admin", crate::serve_util::ADMIN_PASSWORD);
    let best = submission_number(&alice.submit("mayan.c", &accepted_c()));
    assert_eq!(api.wait_judged(best, 240)["score"], 100);
    let wrong = "#include <stdio.h>\nint main(void) { puts(\"-1\"); return 0; }\n";
    let last = submission_number(&alice.submit("mayan.c", wrong));
    assert!(api.wait_judged(last, 240)["score"].as_i64().unwrap() < 100);

    let ranking: serde_json::Value = serde_json::from_str(&api.get("/api/v1/ranking").body).unwrap();
    assert_eq!(ranking["standings"][0]["score"], 100, "the ranking: {ranking}");
    let teacher = server.teacher();
    let grades = teacher.get("/admin/grades-moodle.csv").body;
    assert!(
        grades
            .lines()
            .any(|l| l.starts_with("alice,") && l.ends_with(",100")),
        "{grades}"
    );
    let report: serde_json::Value = serde_json::from_str(&teacher.get("/admin/report.json").body).unwrap();
    assert_eq!(report["submissions"][0]["score"], 100, "the report: {report}");
}
