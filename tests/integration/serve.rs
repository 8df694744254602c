//! `mayan-judge serve`, driven over HTTP as browsers and scripts use it:
//! a contestant signs in, submits, and the judged result shows on their
//! pages, in the API and in the ranking.

use crate::serve_util::{Server, accepted_c, submission_number};

#[test]
fn a_contestant_submits_through_the_form_and_the_verdict_reaches_the_ranking() {
    let server = Server::start(&["alice", "bob"], "", &["--trusted"]);
    let alice = server.contestant("alice");
    let page = alice.submit("mayan.c", &accepted_c());
    assert_eq!(page.status, 303, "{}", page.body);
    let id = submission_number(&page);
    let mut api = server.client();
    api.api_sign_in("alice", "alice-pw");
    let judged = api.wait_judged(id, 240);
    assert_eq!(judged["verdict"], "AC", "{judged}");
    assert_eq!(judged["score"], judged["max_score"]);
    let ranking = alice.get("/ranking").body;
    let first_row = ranking.split("<tbody>").nth(1).unwrap();
    let first_row = first_row.trim_start();
    assert!(
        first_row.starts_with("<tr data-name=\"alice\"")
            && first_row
                .split("</tr>")
                .next()
                .unwrap()
                .contains("<td class=\"rank\">1</td><td>alice</td>"),
        "{ranking}"
    );
}

#[test]
fn restarting_on_the_same_database_continues_the_contest_without_new_passwords() {
    let dir = crate::serve_util::contest_dir(&["alice"], "");
    // bob has no password in the CSV: one is generated, printed once.
    let csv = dir.path().join("students.csv");
    std::fs::write(&csv, "name,password\nalice,alice-pw\nbob,\n").unwrap();
    let mut first = Server::start_in(dir.path(), &["--trusted"]);
    assert!(
        first.banner.contains("bob"),
        "bob's password printed: {}",
        first.banner
    );
    let id = submission_number(
        &first
            .contestant("alice")
            .submit("mayan.c", "int main(){return 0;}"),
    );
    let mut api = first.client();
    api.api_sign_in("alice", "alice-pw");
    api.wait_judged(id, 240);
    first.kill();
    let second = Server::start_in(dir.path(), &["--trusted"]);
    assert!(
        !second.banner.contains("generated"),
        "no password generated again: {}",
        second.banner
    );
    let alice = second.contestant("alice");
    assert!(
        alice.get("/submissions").body.contains(&format!(">{id}</a>")),
        "the submission is still listed"
    );
    let passwords = std::fs::read_to_string(dir.path().join("passwords.csv")).unwrap();
    let bob_pw = passwords
        .lines()
        .find_map(|l| l.strip_prefix("bob,"))
        .unwrap()
        .to_string();
    assert_eq!(
        second.client().sign_in("bob", &bob_pw),
        303,
        "bob's generated password still works"
    );
}

#[test]
fn the_teachers_archive_is_a_contest_folder_grade_reads_back() {
    let server = Server::start(&["alice", "bob"], "", &["--trusted"]);
    let mut api = server.client();
    api.api_sign_in("alice", "alice-pw");
    let id = submission_number(&server.contestant("alice").submit("sol.c", &accepted_c()));
    api.wait_judged(id, 240);
    let teacher = server.teacher();
    for layout in ["lemonlime", "arbiter"] {
        let zip = teacher
            .agent
            .get(format!("{}/admin/programs-{layout}.zip", server.url))
            .call()
            .unwrap()
            .body_mut()
            .read_to_vec()
            .unwrap();
        let out = tempfile::tempdir().unwrap();
        zip::ZipArchive::new(std::io::Cursor::new(zip))
            .unwrap()
            .extract(out.path())
            .unwrap();
        let folder = if layout == "lemonlime" {
            "source"
        } else {
            "players"
        };
        assert!(out.path().join(folder).join("alice").is_dir(), "{layout}");
        crate::util::judge()
            .env("MAYAN_JUDGE_CACHE", server.dir.join("cache"))
            .args([
                "grade",
                "--quiet",
                "--trusted",
                "--tests",
                "sample/*",
                "--contest",
            ])
            .arg(out.path())
            .assert()
            .code(0);
    }
    let csv = teacher.get("/admin/report.csv").body;
    assert!(csv.lines().any(|l| l.starts_with("alice,")), "{csv}");
}

#[test]
fn https_with_a_given_certificate_serves_the_pages_and_marks_cookies_secure() {
    let key = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let dir = crate::serve_util::contest_dir(&["alice"], "");
    std::fs::write(dir.path().join("cert.pem"), key.cert.pem()).unwrap();
    std::fs::write(dir.path().join("key.pem"), key.signing_key.serialize_pem()).unwrap();
    let server = Server::start_in(
        dir.path(),
        &["--trusted", "--tls-cert", "cert.pem", "--tls-key", "key.pem"],
    );
    assert!(server.url.starts_with("https://"), "{}", server.url);
    let root = ureq::tls::Certificate::from_der(key.cert.der()).to_owned();
    let tls = ureq::tls::TlsConfig::builder()
        .root_certs(ureq::tls::RootCerts::Specific(std::sync::Arc::new(vec![root])))
        .build();
    let agent = ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .tls_config(tls)
            .http_status_as_error(false)
            .build(),
    );
    let url = server.url.replace("127.0.0.1", "localhost");
    let login = agent.get(format!("{url}/login")).call().expect("an HTTPS answer");
    assert_eq!(login.status(), 200);
    let cookie = login
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.contains("Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
}

/// Removes a folder when dropped.
struct RemoveOnDrop(std::path::PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_submission_cannot_read_the_database_or_the_passwords_of_a_contest_kept_under_usr() {
    if !nix::unistd::geteuid().is_root() {
        crate::util::skip("needs root, to keep a contest under /usr/local/share (a folder runs bind)");
        return;
    }
    let token = format!("{:016x}", fastrand::u64(..));
    let dir = std::path::PathBuf::from(format!("/usr/local/share/mayan-judge-serve-{token}"));
    let _cleanup = RemoveOnDrop(dir.clone());
    let made = crate::serve_util::contest_dir(&["mallory"], "");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["contest.toml", "students.csv"] {
        std::fs::copy(made.path().join(f), dir.join(f)).unwrap();
    }
    let server = Server::start_in(&dir, &[]);
    let d = dir.display();
    // Exit 42 (RE) when any of the contest's files can be opened; else a
    // wrong answer.
    let thief = format!(
        "#include <stdio.h>\nint main(void){{const char*f[]={{\"{d}/mayan-judge.db\",\"{d}/students.csv\",\
         \"{d}/passwords.csv\",\"{d}/contest.toml\"}};for(int i=0;i<4;i++){{FILE*p=fopen(f[i],\"r\");\
         if(p)return 42;}}puts(\"-1\");return 0;}}\n"
    );
    let id = submission_number(&server.contestant("mallory").submit("thief.c", &thief));
    let mut api = server.client();
    api.api_sign_in("mallory", "mallory-pw");
    let judged = api.wait_judged(id, 240);
    assert_eq!(
        judged["verdict"], "WA",
        "the program reached the contest's files: {judged}"
    );
}

#[test]
fn outside_the_contests_hours_a_submission_is_refused_with_the_reason() {
    let over = "start = 2020-01-01T09:00:00+08:00\nend = 2020-01-01T12:00:00+08:00\n";
    let server = Server::start(&["alice"], over, &["--trusted"]);
    let alice = server.contestant("alice");
    assert!(alice.get("/submit").body.contains("The contest is over"));
    let mut api = server.client();
    api.api_sign_in("alice", "alice-pw");
    let refused = api.post_json(
        "/api/v1/submissions",
        &serde_json::json!({"file_name": "mayan.c", "source": "int main(){}"}),
    );
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.body.contains("The contest is over"), "{}", refused.body);
    let later = "start = 2099-01-01T09:00:00Z\nend = 2099-01-01T12:00:00Z\n";
    let server = Server::start(&["alice"], later, &["--trusted"]);
    let page = server.contestant("alice").submit("mayan.c", "int main(){}");
    assert_eq!(page.status, 403);
    assert!(page.body.contains("has not started"), "{}", page.body);
}

/// A contest in Chinese refuses in Chinese (a wrong password, an empty
/// source), while the API answers the same refusals in English.
#[test]
fn a_chinese_contest_refuses_in_chinese_and_its_api_in_english() {
    let server = Server::start(&["alice"], "language = \"zh-CN\"\n", &["--trusted"]);
    let client = server.client();
    let csrf = client.csrf("/login");
    let page = client.post_form(
        "/login",
        &[("csrf", &csrf), ("name", "alice"), ("password", "nope")],
    );
    assert_eq!(page.status, 403);
    assert!(page.body.contains("用户名或密码错误。"), "{}", page.body);
    assert!(page.body.contains("<html lang=\"zh-CN\">"), "{}", page.body);
    let alice = server.contestant("alice");
    let page = alice.submit("mayan.c", "   \n");
    assert!(page.body.contains("源代码为空"), "{}", page.body);
    let api = server.client().post_json(
        "/api/v1/token",
        &serde_json::json!({"name": "alice", "password": "nope"}),
    );
    assert!(api.body.contains("Wrong name or password."), "{}", api.body);
}

/// The API's list comes a page at a time, newest first, each page's
/// `Link: <…>; rel="next"` the cursor of the next; the pages link to the
/// older submissions and back to the newest.
#[test]
fn lists_are_paged_newest_first_with_a_cursor_in_the_api_and_links_on_the_pages() {
    let server = Server::start(&["alice"], "", &["--trusted", "--rate-submit", "100"]);
    let mut api = server.client();
    api.api_sign_in("alice", "alice-pw");
    let source = serde_json::json!({"file_name": "mayan.c", "source": "int main(){}"});
    let ids: Vec<i64> = (0..5)
        .map(|_| {
            let page = api.post_json("/api/v1/submissions", &source);
            assert_eq!(page.status, 201, "{}", page.body);
            serde_json::from_str::<serde_json::Value>(&page.body).unwrap()["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    let token = api.token.clone().unwrap();
    let (mut seen, mut next) = (Vec::new(), Some("/api/v1/submissions?limit=2".to_string()));
    while let Some(path) = next.take() {
        let mut r = api
            .agent
            .get(format!("{}{path}", server.url))
            .header("authorization", format!("Bearer {token}"))
            .call()
            .unwrap();
        next = r.headers().get("link").map(|l| {
            let l = l.to_str().unwrap();
            assert!(l.ends_with(">; rel=\"next\""), "{l}");
            l[1..l.find('>').unwrap()].to_string()
        });
        let rows: Vec<serde_json::Value> =
            serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
        assert!(rows.len() <= 2, "{rows:?}");
        seen.extend(rows.iter().map(|v| v["id"].as_i64().unwrap()));
    }
    let newest_first: Vec<i64> = ids.iter().rev().copied().collect();
    assert_eq!(seen, newest_first, "every submission once, newest first");
    let bad = api.get("/api/v1/submissions?before=x");
    assert_eq!(bad.status, 400, "{}", bad.body);
    let alice = server.contestant("alice");
    let older = alice.get(&format!("/submissions?before={}", ids[2])).body;
    for (i, id) in ids.iter().enumerate() {
        let listed = older.contains(&format!(">{id}</a>"));
        assert_eq!(listed, i < 2, "#{id} on the page before #{}", ids[2]);
    }
    assert!(
        older.contains("Newest submissions"),
        "a link to the newest: {older}"
    );
}

/// A verdict's `ranking` event carries the lines of the ranking that
/// changed (as the listener sees it), not an order to load the page again:
/// alice's first accepted submission moves her line and bob's (no longer
/// tied), her second only hers (one more try).
#[test]
fn a_ranking_event_carries_the_lines_that_changed() {
    let server = Server::start(&["alice", "bob"], "", &["--trusted"]);
    let alice = server.contestant("alice");
    let bob = server.contestant("bob");
    let stream = crate::serve_hostile::events(&server, &bob);
    let page = bob.get("/ranking").body;
    assert!(page.contains("data-name=\"alice\""), "{page}");
    let next_ranking = || {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let mut event = String::new();
        while let Ok(Some(line)) =
            stream.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
        {
            if let Some(data) = line.strip_prefix("data: ").filter(|_| event == "ranking") {
                return serde_json::from_str::<serde_json::Value>(data).unwrap();
            }
            if let Some(e) = line.strip_prefix("event: ") {
                event = e.to_string();
            }
        }
        panic!("no ranking event");
    };
    let lines = |r: &serde_json::Value| -> Vec<(String, i64, i64)> {
        let all = r["lines"].as_array().unwrap_or_else(|| panic!("no lines: {r}"));
        all.iter()
            .map(|l| {
                (
                    l["name"].as_str().unwrap().to_string(),
                    l["rank"].as_i64().unwrap(),
                    l["tries"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    alice.submit("mayan.c", &accepted_c());
    let first = next_ranking();
    assert_eq!(
        lines(&first),
        [("alice".into(), 1, 1), ("bob".into(), 2, 0)],
        "{first}"
    );
    alice.submit("mayan.c", &accepted_c());
    let second = next_ranking();
    assert_eq!(lines(&second), [("alice".into(), 1, 2)], "{second}");
}

/// The `ranking` events an `/events` stream carries until it stays quiet
/// for `quiet`, each as its JSON data, with when it came.
fn ranking_events_until_quiet(
    stream: &std::sync::mpsc::Receiver<Option<String>>,
    quiet: std::time::Duration,
) -> Vec<serde_json::Value> {
    let (mut event, mut heard) = (String::new(), Vec::new());
    while let Ok(Some(line)) = stream.recv_timeout(quiet) {
        if let Some(data) = line.strip_prefix("data: ").filter(|_| event == "ranking") {
            heard.push(serde_json::from_str(data).unwrap());
        }
        if let Some(e) = line.strip_prefix("event: ") {
            event = e.to_string();
        }
    }
    heard
}

#[test]
fn a_burst_of_ranking_changes_reaches_a_stream_as_a_few_events_that_together_carry_every_change() {
    let server = Server::start(&["alice", "bob", "carol", "dave"], "", &["--trusted"]);
    let (alice, bob, carol) = (
        server.contestant("alice"),
        server.contestant("bob"),
        server.contestant("carol"),
    );
    let teacher = server.teacher();
    let csrf = teacher.csrf("/admin");
    let stream = crate::serve_hostile::events(&server, &bob);
    let ranking = |c: &crate::serve_util::Client| -> std::collections::BTreeMap<String, serde_json::Value> {
        let body = c.get("/api/v1/ranking").body;
        let v: serde_json::Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        let lines = v["standings"].as_array().unwrap_or_else(|| panic!("{v}"));
        lines
            .iter()
            .map(|l| (l["name"].as_str().unwrap().to_string(), l.clone()))
            .collect()
    };
    let mut bob_api = server.client();
    bob_api.api_sign_in("bob", "bob-pw");
    let mut seen = ranking(&bob_api);
    // Two verdicts, and twenty disqualifications and reinstatements of
    // carol and dave in a row (dave out at the end), each a change.
    let ids = [
        alice.submit("mayan.c", &accepted_c()),
        carol.submit("mayan.c", &accepted_c()),
    ]
    .map(|p| submission_number(&p));
    for i in 0..20 {
        let user = ["4", "5"][i % 2];
        let yes = if i == 19 || (i < 18 && (i / 2) % 2 == 0) {
            "1"
        } else {
            "0"
        };
        let fields = [
            ("csrf", csrf.as_str()),
            ("user", user),
            ("yes", yes),
            ("confirm", "yes"),
        ];
        assert_eq!(teacher.post_form("/admin/disqualify", &fields).status, 303);
    }
    for (name, id) in ["alice", "carol"].into_iter().zip(ids) {
        let mut api = server.client();
        api.api_sign_in(name, &format!("{name}-pw"));
        assert_eq!(api.wait_judged(id, 240)["verdict"], "AC");
    }
    let heard = ranking_events_until_quiet(&stream, std::time::Duration::from_millis(1500));
    let changes = heard.last().map_or(0, |e| e["changes"].as_u64().unwrap());
    assert_eq!(changes, 22, "every change counted: {heard:?}");
    assert!(
        heard.len() * 2 <= 22,
        "{} events for 22 changes: not coalesced: {heard:?}",
        heard.len()
    );
    for event in &heard {
        for line in event["lines"].as_array().unwrap() {
            seen.insert(line["name"].as_str().unwrap().to_string(), line.clone());
        }
        for name in event["removed"].as_array().unwrap() {
            seen.remove(name.as_str().unwrap());
        }
    }
    let now = ranking(&bob_api);
    assert_eq!(seen, now, "the lines heard, put together, are the ranking");
    assert!(!now.contains_key("dave") && now.contains_key("carol"), "{now:?}");
    assert_eq!(now["alice"]["rank"], 1, "{now:?}");
}
