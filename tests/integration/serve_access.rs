//! `mayan-judge serve` against the curious and the hostile: every route's
//! answer by who asks (signed out, another contestant, the teacher), CSRF
//! on every form, cookies and stored passwords, escaping of whatever a
//! contestant typed, the upload cap, rate limits, and bad fields: a clear
//! 4xx, never a 500, never a crash.

use crate::serve_util::{Client, Server, accepted_c, contest_dir, csrf_of, submission_number};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// Who may reach a route.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Access {
    /// Anybody (the sign-in page, static files, the token call).
    Public,
    /// Signed-in users (pages: signed out, a redirect to /login).
    Page,
    /// The teacher only (pages).
    Teacher,
    /// Signed-in users of the API (signed out: 401).
    Api,
    /// The teacher only, through the API.
    ApiTeacher,
}

/// Every route, as the routers declare them (`{id}` is alice's
/// submission, `{c}` her clarification). A route added to web.rs,
/// admin.rs or api.rs without a line here fails
/// `serve_every_route_is_listed`.
const ROUTES: &[(&str, &str, Access)] = &[
    ("GET", "/", Access::Page),
    ("GET", "/login", Access::Public),
    ("POST", "/login", Access::Public),
    ("POST", "/logout", Access::Page),
    ("GET", "/statement", Access::Page),
    ("GET", "/solution", Access::Page),
    ("GET", "/tests.zip", Access::Page),
    ("GET", "/submit", Access::Page),
    ("POST", "/submit", Access::Page),
    ("GET", "/submissions", Access::Page),
    ("GET", "/submissions/{id}", Access::Page),
    ("GET", "/submissions/{id}/replay", Access::Page),
    ("GET", "/ranking", Access::Page),
    ("GET", "/clarifications", Access::Page),
    ("POST", "/clarifications", Access::Page),
    ("GET", "/events", Access::Page),
    ("GET", "/static/style.css", Access::Public),
    ("GET", "/static/similar.css", Access::Public),
    ("GET", "/static/live.js", Access::Public),
    ("GET", "/favicon.svg", Access::Public),
    ("GET", "/favicon.ico", Access::Public),
    ("GET", "/language/{tag}", Access::Public),
    ("GET", "/admin", Access::Teacher),
    ("GET", "/admin/submissions", Access::Teacher),
    ("POST", "/admin/rejudge", Access::Teacher),
    ("POST", "/admin/disqualify", Access::Teacher),
    ("POST", "/admin/clarifications/{id}", Access::Teacher),
    ("POST", "/admin/announcements", Access::Teacher),
    ("GET", "/admin/report.{format}", Access::Teacher),
    ("GET", "/admin/programs-{layout}", Access::Teacher),
    ("POST", "/admin/users/{id}/password", Access::Teacher),
    ("POST", "/admin/users/{id}/sign-out", Access::Teacher),
    ("GET", "/admin/similar", Access::Teacher),
    ("GET", "/admin/similar/{pair}", Access::Teacher),
    ("GET", "/admin/grades-{lms}", Access::Teacher),
    ("GET", "/admin/backup.db", Access::Teacher),
    ("GET", "/admin/contestants", Access::Teacher),
    ("POST", "/admin/contestants", Access::Teacher),
    ("POST", "/api/v1/token", Access::Public),
    ("GET", "/api/v1/me", Access::Api),
    ("GET", "/api/v1/submissions", Access::Api),
    ("POST", "/api/v1/submissions", Access::Api),
    ("GET", "/api/v1/submissions/{id}", Access::Api),
    ("GET", "/api/v1/ranking", Access::Api),
    ("GET", "/api/v1/clarifications", Access::Api),
    ("POST", "/api/v1/clarifications", Access::Api),
    ("GET", "/api/v1/announcements", Access::Api),
    ("POST", "/api/v1/rejudge", Access::ApiTeacher),
];

/// The paths the routers declare (`.route("PATH", …)`), API ones under /api/v1.
fn declared_routes() -> Vec<String> {
    let mut out = Vec::new();
    for (file, prefix) in [
        ("router.rs", ""),
        ("web.rs", ""),
        ("admin.rs", ""),
        ("similar.rs", ""),
        ("api.rs", "/api/v1"),
    ] {
        let text = std::fs::read_to_string(crate::util::manifest().join("src/server").join(file)).unwrap();
        // `.route("PATH", ...)`, on one line or as rustfmt breaks it.
        for part in text.split(".route(").skip(1) {
            let Some(path) = part.trim_start().strip_prefix('"') else {
                continue;
            };
            let path = path.split('"').next().unwrap();
            out.push(format!("{prefix}{path}"));
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn serve_every_route_is_listed() {
    let mut listed: Vec<String> = ROUTES.iter().map(|(_, p, _)| p.to_string()).collect();
    listed.sort();
    listed.dedup();
    assert_eq!(
        listed,
        declared_routes(),
        "ROUTES and the routers differ: list the new route with its access"
    );
}

/// A concrete path for a route.
fn concrete(path: &str, id: i64, clarification: i64) -> String {
    path.replace("{id}/replay", &format!("{id}/replay"))
        .replace(
            "/admin/clarifications/{id}",
            &format!("/admin/clarifications/{clarification}"),
        )
        .replace("{id}", &id.to_string())
        .replace("{format}", "csv")
        .replace("{layout}", "lemonlime.zip")
        .replace("{pair}", "0")
        .replace("{lms}", "moodle.csv")
        .replace("{tag}", "zh-CN")
}

/// Plausible fields for a POST (with `csrf`), so that only access decides.
fn fields(path: &str, csrf: &str, id: i64) -> Vec<(String, String)> {
    let mut f = vec![("csrf".to_string(), csrf.to_string())];
    let more: &[(&str, String)] = match path {
        "/login" => &[("name", "alice".into()), ("password", "wrong".into())],
        "/clarifications" => &[("question", "Q?".into())],
        "/admin/rejudge" => &[("submission", id.to_string()), ("confirm", "yes".into())],
        "/admin/disqualify" => &[
            ("user", "2".into()),
            ("yes", "1".into()),
            ("confirm", "yes".into()),
        ],
        "/admin/contestants" => &[("confirm", "yes".into())],
        "/admin/announcements" => &[("text", "hello".into())],
        p if p.starts_with("/admin/clarifications/") => &[("answer", "A.".into())],
        _ => &[],
    };
    f.extend(more.iter().map(|(k, v)| (k.to_string(), v.clone())));
    f
}

/// A request of `method` to `path` as `client` (form fields for pages,
/// JSON for the API).
fn ask(client: &Client, method: &str, path: &str, csrf: &str, id: i64) -> crate::serve_util::Page {
    if method == "GET" {
        return client.get(path);
    }
    if path.starts_with("/api/") {
        let body = match path {
            "/api/v1/token" => serde_json::json!({"name": "alice", "password": "wrong"}),
            "/api/v1/submissions" => serde_json::json!({"file_name": "x.c", "source": "int main(){}"}),
            "/api/v1/clarifications" => serde_json::json!({"question": "Q?"}),
            _ => serde_json::json!({"submission": id}),
        };
        return client.post_json(path, &body);
    }
    if path == "/submit" {
        return client.submit_form(&[("csrf", csrf)], "x.c", "int main(){}");
    }
    let owned = fields(path, csrf, id);
    let f: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.post_form(path, &f)
}

/// A contestant's API client.
fn api(server: &Server, name: &str, password: &str) -> Client {
    let mut c = server.client();
    c.api_sign_in(name, password);
    c
}

const WRONG_C: &str =
    "#include <stdio.h>\nint main(void) { puts(\"-1\"); return 0; }\n/* alice-secret-marker */\n";

#[test]
fn serve_every_route_answers_by_who_asks() {
    let server = Server::start(&["alice", "bob"], "", &[]);
    let alice = server.contestant("alice");
    let page = alice.submit("mayan.c", WRONG_C);
    let id = submission_number(&page);
    let alice_csrf = alice.csrf("/clarifications");
    alice.post_form(
        "/clarifications",
        &[("csrf", &alice_csrf), ("question", "alice-private-question")],
    );
    let teacher_api = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
    let judged = teacher_api.wait_judged(id, 240);
    assert_eq!(judged["verdict"], "WA");
    let clarification = 1;

    // Signed out: pages redirect to /login, the API answers 401.
    let anonymous = server.client();
    for (method, path, access) in ROUTES {
        let p = concrete(path, id, clarification);
        let got = ask(&anonymous, method, &p, "x", id);
        match access {
            Access::Public => assert!(
                got.status < 500 && got.status != 401,
                "{method} {p} signed out: {}",
                got.status
            ),
            Access::Page | Access::Teacher => {
                assert_eq!(
                    (got.status, got.location.as_deref()),
                    (303, Some("/login")),
                    "{method} {p} signed out"
                )
            }
            Access::Api | Access::ApiTeacher => assert_eq!(got.status, 401, "{method} {p} signed out"),
        }
    }

    // bob: nothing of alice's, none of the teacher's.
    let bob = server.contestant("bob");
    let bob_csrf = bob.csrf("/submit");
    let bob_api = api(&server, "bob", "bob-pw");
    for (method, path, access) in ROUTES {
        let p = concrete(path, id, clarification);
        match access {
            Access::Teacher => {
                let got = ask(&bob, method, &p, &bob_csrf, id);
                assert_eq!(got.status, 403, "{method} {p} as bob: {}", got.body);
            }
            Access::ApiTeacher => {
                let got = ask(&bob_api, method, &p, "", id);
                assert_eq!(got.status, 403, "{method} {p} as bob: {}", got.body);
            }
            _ => {}
        }
    }
    for p in [format!("/submissions/{id}"), format!("/submissions/{id}/replay")] {
        let got = bob.get(&p);
        assert_eq!(got.status, 404, "{p} as bob");
        assert!(!got.body.contains("alice-secret-marker"));
    }
    let got = bob_api.get(&format!("/api/v1/submissions/{id}"));
    assert_eq!(
        got.status, 404,
        "alice's submission through bob's API: {}",
        got.body
    );
    for body in [
        bob.get("/submissions").body,
        bob_api.get("/api/v1/submissions").body,
        bob.get("/clarifications").body,
        bob_api.get("/api/v1/clarifications").body,
        bob.get("/").body,
    ] {
        assert!(!body.contains("alice-secret-marker") && !body.contains("alice-private-question"));
        assert!(
            !body.contains(&format!("/submissions/{id}\"")) && !body.contains(&format!("\"id\":{id}")),
            "{body}"
        );
    }
    // bob's teacher POSTs changed nothing.
    let after = teacher_api.get(&format!("/api/v1/submissions/{id}"));
    let v: serde_json::Value = serde_json::from_str(&after.body).unwrap();
    assert_eq!(
        (v["state"].as_str(), v["judgings"].as_i64()),
        (Some("done"), Some(1)),
        "{v}"
    );
    assert_eq!(teacher_api.get("/api/v1/announcements").body, "[]");
    let v: serde_json::Value = serde_json::from_str(&teacher_api.get("/api/v1/clarifications").body).unwrap();
    assert!(v[0]["answer"].is_null(), "{v}");

    // The teacher reaches every page (one tiny program makes no pair of
    // similar programs: that page is not found, and not forbidden).
    let teacher = server.teacher();
    for (method, path, access) in ROUTES {
        let p = concrete(path, id, clarification);
        if *method != "GET" || p == "/events" || !matches!(access, Access::Teacher | Access::Page) {
            continue;
        }
        // No pair of similar programs; the contest allows no download after its end.
        let expected = if ["/admin/similar/{pair}", "/solution", "/tests.zip"].contains(path) {
            404
        } else {
            200
        };
        assert_eq!(teacher.get(&p).status, expected, "{p} as the teacher");
    }
    assert_eq!(alice.get(&format!("/submissions/{id}")).status, 200);
}

#[test]
fn serve_numbers_tests_1_to_n_for_the_contestant_and_shows_the_teacher_their_files() {
    let server = Server::start(&["alice"], "", &[]);
    let alice = server.contestant("alice");
    let id = submission_number(&alice.submit("mayan.c", WRONG_C));
    api(&server, "alice", "alice-pw").wait_judged(id, 240);
    let pages = [
        (format!("/submissions/{id}"), "<td class=\"nw\">#2</td>"),
        (format!("/submissions/{id}/replay"), "<h3>#2 <span"),
    ];
    for (page, numbered) in pages {
        let body = alice.get(&page).body;
        assert!(body.contains(numbered), "{page}: no `{numbered}` in {body}");
        for file in ["sample/", "secret/", "sample&#x2f;", "secret&#x2f;"] {
            assert!(
                !body.contains(file),
                "{page}: a test's file on alice's page: {body}"
            );
        }
    }
    let teacher = server.teacher().get(&format!("/submissions/{id}")).body;
    assert!(
        teacher.contains("#1 <span class=\"file\">sample&#x2f;1</span>"),
        "{teacher}"
    );
    assert!(
        teacher.contains("#2 <span class=\"file\">secret&#x2f;1</span>"),
        "{teacher}"
    );
}

#[test]
fn serve_gives_the_tests_and_the_write_up_only_after_the_end_and_only_where_the_teacher_allows() {
    const ALLOW: &str = "[after_end]\ntests = true\nsolution = true\n";
    let ended = "start = 2020-01-01T09:00:00+08:00\nend = 2020-01-01T12:00:00+08:00\n";
    let running = "start = 2020-01-01T09:00:00+08:00\nend = 2099-01-01T12:00:00+08:00\n";
    let status = |server: &Server, who: &str, path: &str| match who {
        "teacher" => server.teacher().get(path).status,
        _ => server.contestant(who).get(path).status,
    };
    // Ended and allowed: the zip holds every input and answer, the write-up
    // is the package's, in the contestant's language where it has one.
    let server = Server::start(&["alice"], &format!("{ended}language = \"zh-CN\"\n{ALLOW}"), &[]);
    let alice = server.contestant("alice");
    let (code, zip) = alice.get_bytes("/tests.zip");
    assert_eq!(code, 200);
    let zip = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let files: Vec<String> = zip.file_names().map(|n| n.unwrap().into_owned()).collect();
    assert_eq!(files.len(), 62, "31 inputs and 31 answers: {files:?}");
    for file in [
        "sample/1.in",
        "sample/1.ans",
        "secret/none-3.in",
        "secret/none-3.ans",
    ] {
        assert!(files.iter().any(|f| f == file), "no {file} in {files:?}");
    }
    let solution = alice.get("/solution").body;
    assert!(
        solution.contains("题解") && solution.contains("字典序"),
        "{solution}"
    );
    let home = alice.get("/").body;
    assert!(
        home.contains("href=\"/solution\"") && home.contains("href=\"/tests.zip\""),
        "{home}"
    );
    drop(server);
    // During the contest: nothing for contestants, everything for the teacher.
    let server = Server::start(&["alice"], &format!("{running}{ALLOW}"), &[]);
    for path in ["/solution", "/tests.zip"] {
        assert_eq!(status(&server, "alice", path), 404, "{path} during the contest");
        assert_eq!(status(&server, "teacher", path), 200, "{path} for the teacher");
    }
    assert!(!server.contestant("alice").get("/").body.contains("/tests.zip"));
    drop(server);
    // Not allowed (the default): nothing, even after the end.
    let server = Server::start(&["alice"], ended, &[]);
    for path in ["/solution", "/tests.zip"] {
        assert_eq!(status(&server, "alice", path), 404, "{path} not allowed");
    }
}

#[test]
fn serve_hidden_feedback_stays_hidden_from_the_contestant() {
    for feedback in ["score", "none-until-end"] {
        let server = Server::start(&["alice"], &format!("feedback = \"{feedback}\"\n"), &[]);
        let alice = server.contestant("alice");
        let id = submission_number(&alice.submit("mayan.c", WRONG_C));
        let teacher_api = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
        let full = teacher_api.wait_judged(id, 240);
        assert_eq!(full["verdict"], "WA");
        assert!(
            !full["tests"].as_array().unwrap().is_empty(),
            "the teacher sees the tests: {full}"
        );
        let alice_api = api(&server, "alice", "alice-pw");
        let seen = alice_api.wait_judged(id, 30);
        assert_eq!(seen["tests"], serde_json::json!([]), "{feedback}: {seen}");
        if feedback == "none-until-end" {
            assert!(
                seen["verdict"].is_null() && seen["score"].is_null(),
                "{feedback}: {seen}"
            );
            let list = alice_api.get("/api/v1/submissions").body;
            assert!(!list.contains("WA"), "{list}");
            assert!(!alice.get("/submissions").body.contains(">WA<"));
        }
        let page = alice.get(&format!("/submissions/{id}")).body;
        assert!(
            !page.contains("class=\"v-"),
            "{feedback}: per-test results on alice's page"
        );
        assert_eq!(
            alice.get(&format!("/submissions/{id}/replay")).status,
            404,
            "{feedback}"
        );
        let teacher = server.teacher();
        assert!(
            teacher
                .get(&format!("/submissions/{id}"))
                .body
                .contains("class=\"v-WA")
        );
        assert_eq!(teacher.get(&format!("/submissions/{id}/replay")).status, 200);
    }
}

#[test]
fn serve_every_form_refuses_a_missing_or_wrong_csrf_token() {
    let server = Server::start(&["alice"], "", &[]);
    let alice = server.contestant("alice");
    let id = submission_number(&alice.submit("mayan.c", WRONG_C));
    let csrf = alice.csrf("/clarifications");
    alice.post_form("/clarifications", &[("csrf", &csrf), ("question", "first")]);
    let teacher = server.teacher();
    let teacher_api = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
    teacher_api.wait_judged(id, 240);
    let snapshot = |c: &Client| {
        (
            c.get("/api/v1/submissions").body,
            c.get("/api/v1/clarifications").body,
            c.get("/api/v1/announcements").body,
        )
    };
    let before = snapshot(&teacher_api);
    let forms: Vec<(&Client, &str)> = vec![
        (&alice, "/logout"),
        (&alice, "/clarifications"),
        (&teacher, "/admin/rejudge"),
        (&teacher, "/admin/disqualify"),
        (&teacher, "/admin/clarifications/1"),
        (&teacher, "/admin/announcements"),
        (&teacher, "/admin/users/2/password"),
        (&teacher, "/admin/users/2/sign-out"),
        (&teacher, "/admin/contestants"),
        (&teacher, "/logout"),
    ];
    for (client, path) in &forms {
        for token in [None, Some("0000"), Some(&*"f".repeat(64))] {
            let mut f = fields(path, token.unwrap_or(""), id);
            if token.is_none() {
                f.remove(0);
            }
            let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let got = client.post_form(path, &pairs);
            assert_eq!(got.status, 403, "POST {path} with csrf {token:?}: {}", got.body);
        }
    }
    // The submit form (multipart) without its token.
    let got = alice.submit_form(&[], "mayan.c", &accepted_c());
    assert_eq!(got.status, 403, "{}", got.body);
    assert_eq!(snapshot(&teacher_api), before, "a refused form changed something");
    // Still signed in (the logouts were refused).
    assert_eq!(alice.get("/").status, 200);
    assert_eq!(teacher.get("/admin").status, 200);
    // The sign-in form too: no session without its token.
    let fresh = server.client();
    let _ = fresh.get("/login");
    let got = fresh.post_form("/login", &[("name", "alice"), ("password", "alice-pw")]);
    assert_eq!(got.status, 403, "{}", got.body);
    let got = fresh.post_form(
        "/login",
        &[("csrf", "nope"), ("name", "alice"), ("password", "alice-pw")],
    );
    assert_eq!(got.status, 403, "{}", got.body);
    assert_eq!(
        fresh.get("/").location.as_deref(),
        Some("/login"),
        "signed in without the token"
    );
}

#[test]
fn serve_cookies_are_http_only_and_strict_and_passwords_are_argon2id() {
    let server = Server::start(&["alice"], "", &[]);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut r = agent.get(format!("{}/login", server.url)).call().unwrap();
    let login_cookie: Vec<String> = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    let csrf = csrf_of(&r.body_mut().read_to_string().unwrap()).unwrap();
    let r = agent
        .post(format!("{}/login", server.url))
        .send_form([
            ("csrf", csrf.as_str()),
            ("name", "alice"),
            ("password", "alice-pw"),
        ])
        .unwrap();
    assert_eq!(r.status().as_u16(), 303);
    let cookies: Vec<String> = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .chain(login_cookie)
        .collect();
    let session = cookies
        .iter()
        .find(|c| c.starts_with("mj_session="))
        .expect("a session cookie");
    for c in cookies.iter().filter(|c| !c.contains("Max-Age=0")) {
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Strict"), "{c}");
    }
    assert!(session.contains("Path=/"), "{session}");
    let conn = rusqlite::Connection::open_with_flags(
        server.dir.join("mayan-judge.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let mut stmt = conn.prepare("SELECT name, password_hash FROM users").unwrap();
    let users: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(users.len(), 2);
    for (name, hash) in &users {
        assert!(hash.starts_with("$argon2id$v=19$"), "{name}: {hash}");
        assert!(!hash.contains("alice-pw") && !hash.contains(crate::serve_util::ADMIN_PASSWORD));
    }
    let token: String = conn
        .query_row("SELECT token_hash FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert!(!session.contains(&token), "the session cookie is stored as is");
}

#[test]
fn serve_escapes_what_contestants_type_in_pages_and_csv() {
    let dir = contest_dir(&[], "");
    std::fs::write(
        dir.path().join("students.csv"),
        "name,password,display\nalice,alice-pw,<b id=x>Alice</b><script>alert(2)</script>\n-evil,evil-pw,=HYPERLINK(\"http://x\")\n",
    )
    .unwrap();
    let server = Server::start_in(dir.path(), &[]);
    let alice = server.contestant("alice");
    let source = "int main(void) { return 0; }\n// </pre><script>alert(1)</script>\n";
    let id = submission_number(&alice.submit("mayan.c", source));
    let csrf = alice.csrf("/clarifications");
    alice.post_form(
        "/clarifications",
        &[("csrf", &csrf), ("question", "<img src=x onerror=alert(1)>")],
    );
    let evil = server.signed_in("-evil", "evil-pw");
    evil.submit("mayan.c", WRONG_C);
    let teacher_api = api(&server, "admin", crate::serve_util::ADMIN_PASSWORD);
    teacher_api.wait_judged(id, 240);
    let teacher = server.teacher();
    for p in [
        format!("/submissions/{id}"),
        "/admin/submissions".into(),
        "/admin".into(),
        "/ranking".into(),
        "/clarifications".into(),
        "/admin/report.html".into(),
    ] {
        let body = teacher.get(&p).body;
        for raw in ["<script>alert", "<img src=x", "<b id=x>"] {
            assert!(!body.contains(raw), "{p} shows `{raw}` unescaped");
        }
    }
    assert!(
        teacher
            .get(&format!("/submissions/{id}"))
            .body
            .contains("&lt;&#x2f;pre&gt;&lt;script&gt;")
            || teacher
                .get(&format!("/submissions/{id}"))
                .body
                .contains("&lt;/pre&gt;&lt;script&gt;")
    );
    assert!(teacher.get("/clarifications").body.contains("&lt;img src=x"));
    assert!(teacher.get("/admin").body.contains("&lt;b id=x&gt;"));
    let csv = teacher.get("/admin/report.csv").body;
    assert!(csv.contains("'-evil"), "{csv}");
    for line in csv.lines() {
        for cell in line.split(',') {
            let cell = cell.trim_matches('"');
            assert!(
                !cell.starts_with(['=', '+', '@']) && !cell.starts_with("-evil"),
                "a formula cell: {line}"
            );
        }
    }
}

/// Sends headers and then `len` bytes of body in a thread, as fast as the
/// server reads them; returns the status line and how long the answer took.
fn send_huge(server: &Server, path: &str, headers: &str, len: usize) -> (String, Duration) {
    let addr = server.url.trim_start_matches("http://").to_string();
    let mut tcp = std::net::TcpStream::connect(&addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        tcp,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Content-Length: {len}\r\n\r\n"
    )
    .unwrap();
    let mut writer = tcp.try_clone().unwrap();
    let start = Instant::now();
    std::thread::spawn(move || {
        let chunk = vec![b'a'; 64 << 10];
        let mut sent = 0;
        while sent < len {
            if writer.write_all(&chunk).is_err() {
                return;
            }
            sent += chunk.len();
        }
    });
    let mut answer = [0u8; 256];
    let n = tcp.read(&mut answer).unwrap_or(0);
    let text = String::from_utf8_lossy(&answer[..n]).to_string();
    (text.lines().next().unwrap_or("").to_string(), start.elapsed())
}

#[test]
fn serve_caps_uploads_at_the_package_source_limit() {
    let server = Server::start(&["alice"], "", &[]);
    let alice = server.contestant("alice");
    let over = format!("int main(void) {{ return 0; }}\n/*{}*/\n", "z".repeat(257 << 10));
    let page = alice.submit("mayan.c", &over);
    assert_eq!(page.status, 413, "{}", page.body);
    assert!(page.body.contains("larger than 256 KiB"), "{}", page.body);
    let alice_api = api(&server, "alice", "alice-pw");
    let got = alice_api.post_json(
        "/api/v1/submissions",
        &serde_json::json!({"file_name": "mayan.c", "source": over}),
    );
    assert_eq!(got.status, 413, "{}", got.body);
    assert!(got.body.contains("larger than 256 KiB"), "{}", got.body);
    // A source within the limit, sent as clients such as Python's
    // `json.dumps` send it (every non-ASCII character as `\uXXXX`: three
    // times its UTF-8 size), is accepted.
    let within = format!("{}/*{}*/\n", accepted_c(), "\u{e9}".repeat(120 << 10));
    assert!(within.len() < 256 << 10);
    let escaped: String = within
        .chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            '"' => "\\\"".to_string(),
            '\\' => "\\\\".to_string(),
            c if c.is_ascii() && !c.is_ascii_control() => c.to_string(),
            c => format!("\\u{:04x}", c as u32),
        })
        .collect();
    let body = format!("{{\"file_name\": \"mayan.c\", \"source\": \"{escaped}\"}}");
    assert!(body.len() > 600 << 10);
    let mut r = post_json_text(&alice_api, &server.url, body.as_bytes());
    let answer = r.body_mut().read_to_string().unwrap();
    assert_eq!(
        r.status().as_u16(),
        201,
        "a {} KiB source, escaped: {answer}",
        within.len() >> 10
    );
    let id: serde_json::Value = serde_json::from_str(&answer).unwrap();
    let id = id["id"].as_i64().unwrap();
    let stored = alice.get(&format!("/submissions/{id}")).body;
    assert!(
        stored.contains("\u{e9}\u{e9}\u{e9}"),
        "the source was not stored as sent"
    );
    // 10 MiB: refused before it is all read.
    let cookie = alice.cookie_header();
    let token = alice_api.token.clone().unwrap();
    let huge = [
        (
            "form",
            "/submit",
            format!("Cookie: {cookie}\r\nContent-Type: multipart/form-data; boundary=zz\r\n"),
        ),
        (
            "JSON",
            "/api/v1/submissions",
            format!("Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"),
        ),
    ];
    for (what, path, headers) in huge {
        let (status, took) = send_huge(&server, path, &headers, 10 << 20);
        assert!(
            status.contains(" 413 ") || status.contains(" 400 "),
            "10 MiB {what}: {status}"
        );
        assert!(
            took < Duration::from_secs(10),
            "10 MiB {what} answered after {took:?}"
        );
    }
    assert_eq!(alice.get("/submissions").status, 200, "the server still answers");
    let stored: serde_json::Value = serde_json::from_str(&alice_api.get("/api/v1/submissions").body).unwrap();
    assert_eq!(
        stored.as_array().unwrap().len(),
        1,
        "something refused was stored: {stored}"
    );
}

#[test]
fn serve_rate_limits_addresses_users_and_submissions() {
    let server = Server::start(
        &["alice", "bob"],
        "",
        &["--rate-address", "1", "--rate-user", "2", "--rate-submit", "2"],
    );
    let alice = server.contestant("alice");
    std::thread::sleep(Duration::from_secs(5));
    let alice_api = api(&server, "alice", "alice-pw");
    // A user: burst of 5 × 2 requests, then 429.
    let statuses: Vec<u16> = (0..15).map(|_| alice.get("/ranking").status).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    let page = alice.get("/ranking");
    if page.status == 429 {
        assert!(page.body.contains("Too many requests"), "{}", page.body);
    }
    // Submissions: 2 a minute.
    std::thread::sleep(Duration::from_secs(6));
    let mut answers = Vec::new();
    for n in 0..3 {
        let source = format!("{}/* {n} */\n", accepted_c());
        answers.push(alice_api.post_json(
            "/api/v1/submissions",
            &serde_json::json!({"file_name": "mayan.c", "source": source}),
        ));
    }
    let statuses: Vec<u16> = answers.iter().map(|p| p.status).collect();
    assert_eq!(statuses, [201, 201, 429], "{}", answers[2].body);
    assert!(
        answers[2].body.contains("Too many submissions"),
        "{}",
        answers[2].body
    );
    // An address: sign-in attempts at once, past the burst of 5.
    std::thread::sleep(Duration::from_secs(6));
    let url = server.url.clone();
    let attempts: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..10)
            .map(|_| {
                let url = url.clone();
                s.spawn(move || {
                    let agent: ureq::Agent = ureq::Agent::config_builder()
                        .http_status_as_error(false)
                        .build()
                        .into();
                    agent
                        .post(format!("{url}/api/v1/token"))
                        .send_json(serde_json::json!({"name": "bob", "password": "guess"}))
                        .map(|r| r.status().as_u16())
                        .unwrap_or(0)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(
        attempts.iter().filter(|&&s| s == 429).count() >= 4,
        "{attempts:?}"
    );
    assert!(attempts.iter().all(|&s| s == 429 || s == 403), "{attempts:?}");
}

#[test]
fn serve_bad_fields_get_clear_4xx_answers() {
    let mut server = Server::start(&["alice"], "", &[]);
    let alice = server.contestant("alice");
    let alice_api = api(&server, "alice", "alice-pw");
    let post = |body: serde_json::Value| alice_api.post_json("/api/v1/submissions", &body);
    let cases = [
        (
            post(serde_json::json!({"language": "cobol", "source": "x"})),
            "not allowed",
        ),
        (
            post(serde_json::json!({"file_name": "mayan.c", "source": "  \n"})),
            "empty",
        ),
        (
            post(serde_json::json!({"file_name": "mayan.zzz", "source": "x"})),
            "language",
        ),
        (post(serde_json::json!({"file_name": "mayan.c"})), "source"),
        (post(serde_json::json!([1, 2])), ""),
    ];
    for (got, says) in &cases {
        assert!((400..500).contains(&got.status), "{} {}", got.status, got.body);
        assert!(got.body.contains(says), "{} {}", got.status, got.body);
    }
    let garbage = post_json_text(&alice_api, &server.url, b"{not json");
    assert!((400..500).contains(&garbage.status().as_u16()));
    let token = server
        .client()
        .post_json("/api/v1/token", &serde_json::json!({"name": 5}));
    assert!((400..500).contains(&token.status), "{}", token.body);
    // Forms.
    let csrf = alice.csrf("/clarifications");
    for fields in [
        vec![("csrf", csrf.as_str())],
        vec![("csrf", csrf.as_str()), ("question", "   ")],
    ] {
        let got = alice.post_form("/clarifications", &fields);
        assert!((400..500).contains(&got.status), "{} {}", got.status, got.body);
    }
    let long = "q".repeat(3000);
    let got = alice.post_form("/clarifications", &[("csrf", &csrf), ("question", &long)]);
    assert_eq!(got.status, 400);
    assert!(got.body.contains("longer than 2000"), "{}", got.body);
    let page = alice.submit("mayan.cobol", "int main(){}");
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("language"), "{}", page.body);
    let page = alice.submit("mayan.c", "");
    assert_eq!(page.status, 400);
    assert!(page.body.contains("empty"), "{}", page.body);
    let anonymous = server.client();
    let csrf = anonymous.csrf("/login");
    let name = "n".repeat(10 << 10);
    let got = anonymous.post_form("/login", &[("csrf", &csrf), ("name", &name), ("password", "x")]);
    assert_eq!(got.status, 403, "{}", got.body);
    assert!(got.body.contains("Wrong name or password"), "{}", got.body);
    assert_eq!(alice.get("/submissions/abc").status, 400);
    assert_eq!(alice.get("/submissions/99999999999999999999").status, 400);
    assert_eq!(alice.get("/submissions/-1").status, 404);
    assert!(server.child.try_wait().unwrap().is_none(), "the server died");
    assert_eq!(alice.get("/").status, 200);
    assert_eq!(alice_api.get("/api/v1/submissions").body, "[]");
}

/// `POST /api/v1/submissions` with `body` as it is (JSON or not), with the
/// client's token: what a hand-written client might send.
fn post_json_text(
    client: &crate::serve_util::Client,
    url: &str,
    body: &[u8],
) -> ureq::http::Response<ureq::Body> {
    client
        .agent
        .post(format!("{url}/api/v1/submissions"))
        .header(
            "authorization",
            format!("Bearer {}", client.token.as_ref().unwrap()),
        )
        .header("content-type", "application/json")
        .send(body)
        .unwrap()
}

/// The `Location` of the language switch's answer to `GET
/// /language/zh-CN?back=BACK` (`back` sent as it is, percent-encoded).
fn language_switch_goes_to(server: &Server, back: &str) -> String {
    let stream = std::net::TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    let (status, text) = crate::serve_util::raw_exchange(
        stream,
        &format!("GET /language/zh-CN?back={back} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"),
    );
    assert_eq!(status, Some(303), "{back}: {text}");
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    head.lines()
        .find_map(|l| l.strip_prefix("location: "))
        .unwrap_or_else(|| panic!("{back}: no location in {head}"))
        .to_string()
}

#[test]
fn serve_redirects_only_to_this_sites_own_paths() {
    let server = Server::start(&["alice"], "", &[]);
    let own = [
        ("/ranking", "/ranking"),
        ("/submissions/1%3Fx%3D1", "/submissions/1?x=1"),
        ("/%252F%252Fevil", "/%2F%2Fevil"),
    ];
    for (back, path) in own {
        assert_eq!(language_switch_goes_to(&server, back), path);
    }
    // Each as a browser reads it once decoded: tabs and new lines dropped,
    // `\` read as `/`, `//host` and `scheme:` to another site.
    let elsewhere = [
        "/%09/evil",
        "/%09%5Cevil",
        "/%0A/evil",
        "/%0D%0A/evil",
        "//evil",
        "/%5Cevil",
        "%5C%5Cevil",
        "%2F%2Fevil",
        "https:evil",
        "https://evil",
        "javascript:alert(1)",
        "/%E3%80%80/evil",
        "%20//evil",
    ];
    for back in elsewhere {
        assert_eq!(language_switch_goes_to(&server, back), "/", "back={back}");
    }
}
