//! `mayan-judge serve` against a hostile class (issue 25): the submission
//! cap raced with parallel requests, wrong sign-ins hammered from many
//! addresses of the loopback, idle half-requests beyond the limit of open
//! files, stolen sessions cut off by a password change or by the teacher,
//! the database's and the compile folders' file modes, the question cap,
//! askers' names, and what each feedback policy shows. Every check counts
//! answers or compares orders, never a duration.

use crate::serve_util::{
    ADMIN_PASSWORD, Client, Server, accepted_c, connect_from, raw_exchange, raw_json_post, submission_number,
};
use std::io::{BufRead, BufReader, Write};
use std::net::Ipv4Addr;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

/// A program that compiles and answers wrong on every test.
const WRONG_C: &str = "#include <stdio.h>\nint main(void){ FILE *f = fopen(\"mayan.out\", \"w\"); fprintf(f, \"-1\\n\"); fclose(f); puts(\"-1\"); return 0; }\n";

fn api(server: &Server, name: &str, password: &str) -> Client {
    let mut c = server.client();
    c.api_sign_in(name, password);
    c
}

#[test]
fn serve_parallel_submissions_cannot_pass_the_cap() {
    let server = Server::start(
        &["alice"],
        "max_submissions = 5\n",
        &["--rate-user", "1000", "--rate-submit", "1000"],
    );
    let alice = api(&server, "alice", "alice-pw");
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|n| {
                let alice = &alice;
                s.spawn(move || {
                    let source = format!("int main(void) {{ return 0; }} /* {n} */\n");
                    alice
                        .post_json(
                            "/api/v1/submissions",
                            &serde_json::json!({"file_name": "mayan.c", "source": source}),
                        )
                        .status
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let stored: serde_json::Value = serde_json::from_str(&alice.get("/api/v1/submissions").body).unwrap();
    assert_eq!(stored.as_array().unwrap().len(), 5, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&s| s == 201).count(), 5, "{statuses:?}");
    assert!(statuses.iter().all(|&s| s == 201 || s == 403), "{statuses:?}");
}

#[test]
fn serve_caps_the_questions_of_a_contestant_even_asked_at_once() {
    let server = Server::start(&["alice"], "max_questions = 3\n", &["--rate-user", "1000"]);
    let alice = api(&server, "alice", "alice-pw");
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..12)
            .map(|n| {
                let alice = &alice;
                s.spawn(move || {
                    alice
                        .post_json(
                            "/api/v1/clarifications",
                            &serde_json::json!({ "question": format!("Question {n}?") }),
                        )
                        .status
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let asked: serde_json::Value = serde_json::from_str(&alice.get("/api/v1/clarifications").body).unwrap();
    assert_eq!(asked.as_array().unwrap().len(), 3, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&s| s == 201).count(), 3, "{statuses:?}");
    let page = server.contestant("alice");
    let csrf = page.csrf("/clarifications");
    let refused = page.post_form("/clarifications", &[("csrf", &csrf), ("question", "One more?")]);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.body.contains("3 questions"), "{}", refused.body);
}

#[test]
fn serve_a_public_answer_shows_the_askers_name_to_the_teacher_only() {
    let server = Server::start(&["alice", "bob"], "", &[]);
    let bob = server.contestant("bob");
    let csrf = bob.csrf("/clarifications");
    bob.post_form(
        "/clarifications",
        &[("csrf", &csrf), ("question", "Is gravity on?")],
    );
    let teacher = server.teacher();
    let teacher_api = api(&server, "admin", ADMIN_PASSWORD);
    let all: serde_json::Value =
        serde_json::from_str(&teacher_api.get("/api/v1/clarifications").body).unwrap();
    let id = all[0]["id"].as_i64().unwrap();
    let csrf = teacher.csrf("/clarifications");
    let answered = teacher.post_form(
        &format!("/admin/clarifications/{id}"),
        &[("csrf", &csrf), ("answer", "Yes."), ("public", "1")],
    );
    assert_eq!(answered.status, 303);
    let alice = server.contestant("alice");
    let page = alice.get("/clarifications").body;
    assert!(page.contains("Is gravity on?") && !page.contains("bob"), "{page}");
    let seen = api(&server, "alice", "alice-pw")
        .get("/api/v1/clarifications")
        .body;
    assert!(seen.contains("Is gravity on?") && !seen.contains("bob"), "{seen}");
    assert!(teacher.get("/clarifications").body.contains("bob"));
    assert!(teacher_api.get("/api/v1/clarifications").body.contains("bob"));
    let own = api(&server, "bob", "bob-pw").get("/api/v1/clarifications").body;
    assert!(own.contains("bob"), "the asker sees their own name: {own}");
}

#[test]
fn serve_wrong_sign_ins_from_many_addresses_do_not_starve_a_right_one() {
    let server = Server::start(&["alice"], "", &[]);
    let url = server.url.clone();
    let attack = serde_json::json!({"name": "admin", "password": "guess"});
    let (right, attacker) = std::thread::scope(|s| {
        let attackers: Vec<_> = (2..18u8)
            .flat_map(|host| (0..20).map(move |_| host))
            .map(|host| {
                let (url, attack) = (&url, &attack);
                s.spawn(move || {
                    let from = Ipv4Addr::new(127, 0, 0, host);
                    match connect_from(from, url) {
                        Ok(stream) => raw_exchange(stream, &raw_json_post("/api/v1/token", attack)).0,
                        Err(_) => None,
                    }
                })
            })
            .collect();
        let right = server.client().post_json(
            "/api/v1/token",
            &serde_json::json!({"name": "alice", "password": "alice-pw"}),
        );
        let attacker: Vec<Option<u16>> = attackers.into_iter().map(|h| h.join().unwrap()).collect();
        (right, attacker)
    });
    assert_eq!(right.status, 201, "the right sign-in: {}", right.body);
    let count = |code| attacker.iter().filter(|&&s| s == Some(code)).count();
    let (hashed, refused) = (count(403), count(429) + count(503));
    assert_eq!(
        hashed + refused,
        attacker.len(),
        "every wrong sign-in answered 403, 429 or 503: {attacker:?}"
    );
    // 320 wrong passwords for one name: a burst of 10, then one every 3 s.
    assert!(
        hashed <= 40,
        "{hashed} of {} wrong passwords for admin were checked",
        attacker.len()
    );
}

#[test]
fn serve_half_requests_beyond_the_open_files_limit_do_not_stop_the_server() {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    // This test's own process holds the attackers' ends: more files.
    if let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE)
        && soft < hard
    {
        let _ = setrlimit(Resource::RLIMIT_NOFILE, hard.min(1 << 16), hard);
    }
    let server = Server::start_tweaked(&["alice"], "", &[], &|command| {
        use std::os::unix::process::CommandExt;
        // SAFETY: setrlimit is async-signal-safe; nothing else runs here.
        unsafe {
            command.pre_exec(|| setrlimit(Resource::RLIMIT_NOFILE, 256, 512).map_err(std::io::Error::from));
        }
    });
    // 540 connections from 12 addresses, each with half a request header.
    let mut held = Vec::new();
    for host in 2..14u8 {
        for _ in 0..45 {
            if let Ok(mut stream) = connect_from(Ipv4Addr::new(127, 0, 0, host), &server.url) {
                let _ = stream.write_all(b"GET /login HTTP/1.1\r\nhost: x\r\n");
                held.push(stream);
            }
        }
    }
    let stream = connect_from(Ipv4Addr::new(127, 0, 0, 1), &server.url).expect("a new connection");
    // A hang check, not a speed one: hyper closes a half-request after
    // 30 s by default, which a judge that hangs until then would pass.
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let (status, text) = raw_exchange(
        stream,
        "GET /login HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    );
    assert!(
        matches!(status, Some(200 | 503)),
        "a new request with {} half-requests open: {status:?} {text}",
        held.len()
    );
    drop(held);
    // Once they are gone, it serves again (slots are given back).
    let mut answered = None;
    for _ in 0..50 {
        let stream = connect_from(Ipv4Addr::new(127, 0, 0, 1), &server.url).expect("a new connection");
        let (status, _) = raw_exchange(
            stream,
            "GET /login HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        );
        answered = status;
        if status == Some(200) {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(answered, Some(200));
}

/// Opens `/events` with a session's cookie; lines come on the channel,
/// and `None` once the server ends the stream: its response's last chunk
/// (a chunk-size line `0`, which no event line is), or the connection
/// closed. (The connection itself outlives the response, kept open for a
/// next request until the server's idle timeout, 10 s.)
pub(crate) fn events(server: &Server, client: &Client) -> std::sync::mpsc::Receiver<Option<String>> {
    let mut stream = connect_from(Ipv4Addr::LOCALHOST, &server.url).unwrap();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nhost: x\r\ncookie: {}\r\naccept: text/event-stream\r\n\r\n",
        client.cookie_header()
    )
    .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = stream.set_read_timeout(Some(Duration::from_secs(120)));
        for line in BufReader::new(stream).lines() {
            match line {
                Ok(l) if l == "0" => break,
                Ok(l) => {
                    if tx.send(Some(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(None);
    });
    rx
}

/// Waits until the stream ends (`true`) or 60 s pass (`false`), a hang check.
fn stream_ends(rx: &std::sync::mpsc::Receiver<Option<String>>) -> bool {
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(Some(_)) => continue,
            Ok(None) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return true,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return false,
        }
    }
}

#[test]
fn serve_an_events_stream_ends_when_its_session_does() {
    let server = Server::start(&["alice"], "", &[]);
    let alice = server.contestant("alice");
    let stream = events(&server, &alice);
    assert_eq!(
        stream.recv_timeout(Duration::from_secs(60)).unwrap().as_deref(),
        Some("HTTP/1.1 200 OK")
    );
    let csrf = alice.csrf("/");
    assert_eq!(alice.post_form("/logout", &[("csrf", &csrf)]).status, 303);
    assert!(stream_ends(&stream), "the stream goes on after sign-out");
}

#[test]
fn serve_a_changed_password_ends_the_old_sessions_and_tokens() {
    let temp = crate::serve_util::contest_dir(&["alice", "bob"], "");
    let mut server = Server::start_in(temp.path(), &[]);
    let alice = server.contestant("alice");
    let bob = server.contestant("bob");
    let alice_api = api(&server, "alice", "alice-pw");
    assert_eq!(alice.get("/submissions").status, 200);
    server.kill();
    std::fs::write(
        temp.path().join("students.csv"),
        "name,password\nalice,a-new-password\nbob,bob-pw\n",
    )
    .unwrap();
    let server = Server::start_in(temp.path(), &[]);
    let (alice, bob, alice_api) = (
        rebase(&alice, &server),
        rebase(&bob, &server),
        rebase(&alice_api, &server),
    );
    assert_eq!(
        alice.get("/submissions").location.as_deref(),
        Some("/login"),
        "the old cookie"
    );
    assert_eq!(alice_api.get("/api/v1/me").status, 401, "the old token");
    assert_eq!(
        bob.get("/submissions").status,
        200,
        "bob's password did not change"
    );
    assert_eq!(server.client().sign_in("alice", "alice-pw"), 403);
    assert_eq!(server.client().sign_in("alice", "a-new-password"), 303);
}

/// The same client (cookies, token) pointed at a restarted server.
fn rebase(client: &Client, server: &Server) -> Client {
    Client {
        url: server.url.clone(),
        agent: client.agent.clone(),
        token: client.token.clone(),
    }
}

#[test]
fn serve_the_teacher_resets_a_password_and_signs_a_contestant_out_everywhere() {
    let server = Server::start(&["alice"], "", &[]);
    let teacher = server.teacher();
    let teacher_api = api(&server, "admin", ADMIN_PASSWORD);
    let users: serde_json::Value = serde_json::from_str(&teacher_api.get("/api/v1/ranking").body).unwrap();
    assert!(users["standings"].to_string().contains("alice"));
    let id = alice_id(&teacher);

    // Signed out everywhere: the page's session, the token, the live stream.
    let alice = server.contestant("alice");
    let alice_api = api(&server, "alice", "alice-pw");
    let stream = events(&server, &alice);
    let csrf = teacher.csrf("/admin");
    let out = teacher.post_form(&format!("/admin/users/{id}/sign-out"), &[("csrf", &csrf)]);
    assert_eq!(out.status, 303, "{}", out.body);
    assert_eq!(alice.get("/submissions").location.as_deref(), Some("/login"));
    assert_eq!(alice_api.get("/api/v1/me").status, 401);
    assert!(
        stream_ends(&stream),
        "the stream goes on after the teacher's sign-out"
    );
    assert_eq!(
        server.client().sign_in("alice", "alice-pw"),
        303,
        "the password still works"
    );

    // A new password, shown once; the old one and its sessions are gone.
    let alice = server.contestant("alice");
    let reset = teacher.post_form(&format!("/admin/users/{id}/password"), &[("csrf", &csrf)]);
    assert_eq!(reset.status, 200, "{}", reset.body);
    let password = reset
        .body
        .split("<code id=\"new-password\">")
        .nth(1)
        .and_then(|r| r.split('<').next())
        .expect("the new password on the page")
        .to_string();
    assert_eq!(alice.get("/submissions").location.as_deref(), Some("/login"));
    assert_eq!(server.client().sign_in("alice", "alice-pw"), 403);
    assert_eq!(server.client().sign_in("alice", &password), 303);
    assert!(!teacher.get("/admin").body.contains(&password), "shown once only");
}

/// Alice's user id, from the teacher's page.
fn alice_id(teacher: &Client) -> String {
    let page = teacher.get("/admin").body;
    let row = page
        .split("?user=alice")
        .nth(1)
        .expect("alice on the teacher's page");
    row.split("name=\"user\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("alice's id")
        .to_string()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn serve_keeps_the_database_and_the_sources_it_compiles_private() {
    let temp = crate::serve_util::contest_dir(&["alice"], "");
    let tmp = temp.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    // What a killed server left: a source in a folder of a dead process.
    let mut dead = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = dead.id();
    dead.wait().unwrap();
    let leftover = tmp.join(format!("mayan-judge-serve-{dead_pid}-AbCdEf"));
    std::fs::create_dir_all(leftover.join("s1-xyz")).unwrap();
    std::fs::write(leftover.join("s1-xyz/mayan.c"), "int main(){}").unwrap();
    let tweak = |c: &mut std::process::Command| {
        c.env("TMPDIR", &tmp);
    };
    let mut server = Server::start_in_tweaked(temp.path(), &[], &tweak);
    assert!(
        !leftover.exists(),
        "a killed server's folder is removed at the next start"
    );
    let db = temp.path().join("mayan-judge.db");
    let alice = server.contestant("alice");
    let id = submission_number(&alice.submit("mayan.c", &accepted_c()));
    api(&server, "alice", "alice-pw").wait_judged(id, 240);
    for suffix in ["", "-wal", "-shm"] {
        let file = Path::new(&format!("{}{suffix}", db.display())).to_path_buf();
        if file.exists() {
            assert_eq!(mode(&file), 0o600, "{}", file.display());
        }
    }
    // The launcher's folder for runs holds nothing on the host: its tmpfs
    // is in the launcher's own mount namespace.
    let runs = tmp.join(format!("mayan-judge-{}-runs", server.child.id()));
    let (ours, launchers): (Vec<_>, Vec<_>) = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .partition(|p| *p != runs);
    assert_eq!(ours.len(), 1, "{ours:?}");
    assert_eq!(mode(&ours[0]), 0o700, "the compile folder");
    for l in launchers {
        assert_eq!(std::fs::read_dir(&l).unwrap().count(), 0, "{}", l.display());
    }
    // A clean stop leaves nothing.
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server.child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let _ = server.child.wait();
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left after a clean stop: {left:?}");
    // A database others can read: refused, with the fix.
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = Server::command(temp.path(), &[])
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "started on a readable database");
    assert!(
        stderr.contains("mayan-judge.db") && stderr.contains("chmod 600"),
        "{stderr}"
    );
}

/// Each feedback policy, over the API, the submission's page, the list
/// and `/events`: what the table of docs/SERVE.md says, nothing more.
#[test]
fn serve_each_feedback_policy_shows_the_same_in_the_api_the_pages_and_the_events() {
    // (policy, verdict shown, score shown, tests shown)
    let table = [
        ("all-tests", true, true, true),
        ("first-failure", true, true, true),
        ("score", false, true, false),
        ("none-until-end", false, false, false),
    ];
    for (policy, verdict, score, tests) in table {
        let server = Server::start(&["alice"], &format!("feedback = \"{policy}\"\n"), &[]);
        let alice = server.contestant("alice");
        let stream = events(&server, &alice);
        assert!(
            stream.recv_timeout(Duration::from_secs(60)).is_ok(),
            "{policy}: the stream opens"
        );
        let id = submission_number(&alice.submit("mayan.c", WRONG_C));
        let seen = api(&server, "alice", "alice-pw").wait_judged(id, 240);
        assert_eq!(seen["verdict"] == "WA", verdict, "{policy}: API verdict {seen}");
        assert_eq!(seen["status"] == "WA", verdict, "{policy}: API status {seen}");
        assert_eq!(!seen["score"].is_null(), score, "{policy}: API score {seen}");
        let n_tests = seen["tests"].as_array().map_or(0, Vec::len);
        assert_eq!(n_tests > 0, tests, "{policy}: API tests {seen}");
        if policy == "first-failure" {
            assert_eq!(n_tests, 1, "{policy}: up to the first failure {seen}");
        }
        let list = api(&server, "alice", "alice-pw").get("/api/v1/submissions").body;
        assert_eq!(list.contains("\"WA\""), verdict, "{policy}: API list {list}");
        let page = alice.get(&format!("/submissions/{id}")).body;
        assert_eq!(page.contains(">WA<"), verdict, "{policy}: page {page}");
        assert_eq!(page.contains("class=\"v-"), tests, "{policy}: page's tests");
        let listed = alice.get("/submissions").body;
        assert_eq!(listed.contains(">WA<"), verdict, "{policy}: list page");
        // The stream's last word on the submission: lines until its final
        // event, then whatever follows within half a second (nothing more
        // of it may come).
        let mut last = String::new();
        let mut wait = Duration::from_secs(20);
        while let Ok(Some(line)) = stream.recv_timeout(wait) {
            if line.starts_with("data:") && line.contains(&format!("\"id\":{id}")) {
                if line.contains("\"final\":true") {
                    wait = Duration::from_millis(500);
                }
                last = line;
            }
        }
        assert!(last.contains("\"final\":true"), "{policy}: {last}");
        assert_eq!(last.contains("\"WA\""), verdict, "{policy}: events {last}");
    }
}

/// `POST /api/v1/token` for `name` and `password` from 127.0.0.`host`,
/// with `cookie` (a `Cookie` header's value) if any: the status and the
/// answer's text.
fn token_from(
    url: &str,
    host: u8,
    name: &str,
    password: &str,
    cookie: Option<&str>,
) -> (Option<u16>, String) {
    let body = serde_json::json!({"name": name, "password": password});
    let mut request = raw_json_post("/api/v1/token", &body);
    if let Some(cookie) = cookie {
        request = request.replacen("\r\n", &format!("\r\ncookie: {cookie}\r\n"), 1);
    }
    match connect_from(Ipv4Addr::new(127, 0, 0, host), url) {
        Ok(stream) => {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
            raw_exchange(stream, &request)
        }
        Err(_) => (None, String::new()),
    }
}

#[test]
fn serve_wrong_passwords_from_many_addresses_never_lock_out_the_owner() {
    let server = Server::start(&["alice"], "", &[]);
    let url = server.url.clone();
    // Alice signed in before from this browser (its device cookie); the
    // teacher from 127.0.0.2.
    let mut alice = server.client();
    alice.api_sign_in("alice", "alice-pw");
    let device = alice.cookie_header();
    assert!(device.contains("mj_device_"), "a device cookie: {device}");
    assert_eq!(token_from(&url, 2, "admin", ADMIN_PASSWORD, None).0, Some(201));
    let (owners, attackers) = std::thread::scope(|s| {
        // 58 addresses, 4 wrong passwords each for each name.
        let attackers: Vec<_> = (10..68u8)
            .map(|host| {
                let url = &url;
                s.spawn(move || {
                    let mut answers = Vec::new();
                    for _ in 0..4 {
                        for name in ["admin", "alice"] {
                            answers.push(token_from(url, host, name, "guess", None));
                        }
                    }
                    answers
                })
            })
            .collect();
        // The owners sign in meanwhile, and once the attack is over:
        // alice from an address never seen (her browser's device cookie),
        // the teacher from the address a right password came from.
        let owners = s.spawn(|| {
            let mut answers = Vec::new();
            for round in 0..6 {
                std::thread::sleep(Duration::from_millis(if round < 3 { 400 } else { 0 }));
                answers.push(token_from(&url, 99, "alice", "alice-pw", Some(&device)));
                answers.push(token_from(&url, 2, "admin", ADMIN_PASSWORD, None));
            }
            answers
        });
        let attackers: Vec<_> = attackers.into_iter().flat_map(|h| h.join().unwrap()).collect();
        let late = (0..2).flat_map(|_| {
            [
                token_from(&url, 99, "alice", "alice-pw", Some(&device)),
                token_from(&url, 2, "admin", ADMIN_PASSWORD, None),
            ]
        });
        let mut owners = owners.join().unwrap();
        owners.extend(late);
        (owners, attackers)
    });
    for (status, text) in &owners {
        assert_eq!(*status, Some(201), "an owner's right password: {text}");
    }
    let locked: Vec<&String> = attackers
        .iter()
        .filter(|(s, _)| *s == Some(429))
        .map(|(_, t)| t)
        .collect();
    assert!(
        locked.len() >= attackers.len() / 2,
        "{} of {} wrong passwords refused",
        locked.len(),
        attackers.len()
    );
    assert!(
        locked.iter().any(|t| t.contains("from unknown devices")),
        "the refusal says what is true: {:?}",
        locked.first()
    );
    assert!(
        locked.iter().all(|t| !t.contains("from here")),
        "{:?}",
        locked.first()
    );
}

#[test]
fn serve_a_queue_of_made_up_names_from_8_addresses_leaves_room_for_an_owner() {
    let server = Server::start(&["alice"], "", &[]);
    let mut alice = server.client();
    alice.api_sign_in("alice", "alice-pw");
    let device = alice.cookie_header();
    // 8 addresses, 160 sign-ins each for made-up names, all waiting at
    // once: more than the whole queue of 1,024 checks.
    let mut held = Vec::new();
    for host in 10..18u8 {
        for i in 0..160 {
            let body = serde_json::json!({"name": format!("made-up-{host}-{i}"), "password": "x"});
            if let Ok(mut stream) = connect_from(Ipv4Addr::new(127, 0, 0, host), &server.url) {
                let _ = stream.write_all(raw_json_post("/api/v1/token", &body).as_bytes());
                held.push(stream);
            }
        }
    }
    // A hang check, not a speed one: today the queue drains in tens of
    // seconds, and the owner's check waits behind it or is refused.
    let (status, text) = token_from(&server.url, 99, "alice", "alice-pw", Some(&device));
    assert_eq!(status, Some(201), "{text}");
    let (status, text) = token_from(&server.url, 1, "alice", "alice-pw", None);
    assert_eq!(status, Some(201), "from the address she signed in from: {text}");
    drop(held);
}

/// Connections from 127.0.0.`host`, `n` of them, each with half a request
/// header (those refused at once are answered 503 and closed).
fn half_requests(url: &str, host: u8, n: usize) -> Vec<std::net::TcpStream> {
    let mut held = Vec::new();
    for _ in 0..n {
        if let Ok(mut stream) = connect_from(Ipv4Addr::new(127, 0, 0, host), url) {
            let _ = stream.write_all(b"GET /login HTTP/1.1\r\nhost: x\r\n");
            held.push(stream);
        }
    }
    held
}

/// A server whose limit of open files is 256: 128 connections in all,
/// 32 from one address before a signed-in request.
fn server_with_256_files() -> Server {
    use nix::sys::resource::{Resource, setrlimit};
    Server::start_tweaked(&["alice", "bob"], "", &[], &|command| {
        use std::os::unix::process::CommandExt;
        // SAFETY: setrlimit is async-signal-safe; nothing else runs here.
        unsafe {
            command.pre_exec(|| setrlimit(Resource::RLIMIT_NOFILE, 256, 256).map_err(std::io::Error::from));
        }
    })
}

/// `GET path` from 127.0.0.`host` with `cookie`: the status.
fn get_from(url: &str, host: u8, path: &str, cookie: &str) -> Option<u16> {
    let stream = connect_from(Ipv4Addr::new(127, 0, 0, host), url).ok()?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\ncookie: {cookie}\r\nconnection: close\r\n\r\n");
    raw_exchange(stream, &request).0
}

#[test]
fn serve_one_address_holds_a_fraction_of_the_connections_and_half_open_ones_go_first() {
    let server = server_with_256_files();
    // One address never signed in: 32 of its 150 are held.
    let one = half_requests(&server.url, 2, 150);
    assert_eq!(
        get_from(&server.url, 9, "/login", ""),
        Some(200),
        "a visitor from elsewhere"
    );
    // Four more fill the whole (128); once their connections have brought
    // no request for a few seconds, they are the first dropped.
    let more: Vec<_> = (3..7u8)
        .map(|host| half_requests(&server.url, host, 40))
        .collect();
    std::thread::sleep(Duration::from_millis(3500));
    for _ in 0..4 {
        assert_eq!(
            get_from(&server.url, 9, "/login", ""),
            Some(200),
            "a visitor at the whole cap"
        );
    }
    drop((one, more));
}

#[test]
fn serve_a_classmates_half_open_connections_on_a_shared_address_do_not_deny_a_signed_in_contestant() {
    let server = server_with_256_files();
    // Alice signed in, from 127.0.0.1 (the class's NAT address).
    let alice = server.contestant("alice");
    let cookie = alice.cookie_header();
    // Bob, behind the same address: 200 half-open connections.
    let flood = half_requests(&server.url, 1, 200);
    std::thread::sleep(Duration::from_millis(3500));
    let answers: Vec<Option<u16>> = (0..8).map(|_| get_from(&server.url, 1, "/", &cookie)).collect();
    assert_eq!(answers, vec![Some(200); 8], "alice's new connections");
    drop(flood);
}

#[test]
fn serve_a_classmates_connections_idle_after_one_request_do_not_deny_a_signed_in_contestant() {
    let server = server_with_256_files();
    let alice = server.contestant("alice");
    let cookie = alice.cookie_header();
    // Bob, behind the same address: 200 connections, each bringing one
    // whole request, then kept open and silent (its answer unread).
    let mut idle = Vec::new();
    for _ in 0..200 {
        if let Ok(mut stream) = connect_from(Ipv4Addr::new(127, 0, 0, 1), &server.url) {
            let _ = stream.write_all(b"GET /login HTTP/1.1\r\nhost: x\r\n\r\n");
            idle.push(stream);
        }
    }
    std::thread::sleep(Duration::from_millis(3500));
    let answers: Vec<Option<u16>> = (0..8).map(|_| get_from(&server.url, 1, "/", &cookie)).collect();
    assert_eq!(answers, vec![Some(200); 8], "alice's new connections");
    drop(idle);
}

#[test]
fn serve_a_device_trusted_before_a_restart_is_trusted_after_it() {
    let dir = crate::serve_util::contest_dir(&["alice"], "");
    let mut first = Server::start_in(dir.path(), &[]);
    let mut alice = first.client();
    alice.api_sign_in("alice", "alice-pw");
    let device = alice.cookie_header();
    assert!(device.contains("mj_device_"), "a device cookie: {device}");
    first.kill();
    let second = Server::start_in(dir.path(), &[]);
    // Someone at 127.0.0.50 guesses alice's password until that address
    // is refused for her name...
    let guesses: Vec<Option<u16>> = (0..8)
        .map(|_| token_from(&second.url, 50, "alice", "guess", None).0)
        .collect();
    assert!(guesses.contains(&Some(429)), "{guesses:?}");
    // ...and alice signs in from that same address, with the cookie her
    // browser got before the restart.
    let (status, text) = token_from(&second.url, 50, "alice", "alice-pw", Some(&device));
    assert_eq!(status, Some(201), "{text}");
}
