//! `mayan-judge serve` under faults: SIGKILLed at random moments (mid-upload,
//! mid-compile, mid-test, mid-write) and started again on the same folder,
//! it loses no acknowledged submission, judges each exactly once in the
//! final results and leaves no run behind; a full disk or a database that
//! refuses writes is a clear error on the page and in the log, never a
//! submission acknowledged and lost.
//!
//! Every program of a test carries a fresh token (in its file name, so in
//! the compiler's command line; the slow one also names its process with
//! it), so what a killed server left running is found in /proc.

use crate::serve_util::{Server, accepted_c, contest_dir, submission_number};
use crate::util::{run_cgroups, wait_for};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The kinds of program submitted, with the verdict each must end with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Accepted,
    Wrong,
    NoCompile,
    Slow,
}

impl Kind {
    fn verdict(self) -> &'static str {
        match self {
            Kind::Accepted => "AC",
            Kind::Wrong | Kind::Slow => "WA",
            Kind::NoCompile => "CE",
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Kind::Accepted => "kind-ac",
            Kind::Wrong => "kind-wa",
            Kind::NoCompile => "kind-ce",
            Kind::Slow => "kind-slow",
        }
    }

    fn of_source(source: &str) -> Kind {
        [Kind::Accepted, Kind::Wrong, Kind::NoCompile, Kind::Slow]
            .into_iter()
            .find(|k| source.contains(&format!("/* {} ", k.tag())))
            .unwrap_or_else(|| panic!("a source of no known kind: {source}"))
    }

    /// A program of this kind, unique by `n`, marked with `token`.
    fn source(self, token: &str, n: usize) -> String {
        let body = match self {
            Kind::Accepted => accepted_c(),
            Kind::Wrong => "#include <stdio.h>\nint main(void) { puts(\"-1\"); return 0; }\n".into(),
            Kind::NoCompile => "int main(void) { this is not C; }\n".into(),
            // A quarter of a second per test (31 tests: kills land
            // mid-test), named with the token, then a wrong answer. It
            // sleeps: what matters is that a run is under way when the
            // server dies, and a busy loop would take the CPU the other
            // tests of `cargo test` need (3 programs x 31 tests, judged
            // again after each kill).
            Kind::Slow => format!(
                "#define _GNU_SOURCE\n#include <stdio.h>\n#include <time.h>\n#include <sys/prctl.h>\n\
                 int main(void) {{ prctl(PR_SET_NAME, \"{token}\");\n\
                 struct timespec t = {{0, 250000000}}; nanosleep(&t, 0);\n\
                 puts(\"-1\"); return 0; }}\n"
            ),
        };
        format!("{body}/* {} {token} {n} */\n", self.tag())
    }
}

/// Submits through the API at `url`; the id when acknowledged (201), none
/// when refused or when the server was not there to answer.
fn api_submit(url: &str, token: &str, file_name: &str, source: &str) -> Option<i64> {
    let agent = ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(20)))
            .build(),
    );
    let mut r = agent
        .post(format!("{url}/api/v1/submissions"))
        .header("authorization", format!("Bearer {token}"))
        .send_json(serde_json::json!({ "file_name": file_name, "source": source }))
        .ok()?;
    if r.status().as_u16() != 201 {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(&r.body_mut().read_to_string().ok()?).ok()?;
    v["id"].as_i64()
}

/// A stored submission, read from the database itself.
#[derive(Debug)]
struct Row {
    id: i64,
    user: String,
    source: Vec<u8>,
    state: String,
    verdict: Option<String>,
    judgings: i64,
}

/// Every submission in the contest folder's database (opened read-only).
fn rows(dir: &Path) -> Vec<Row> {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("mayan-judge.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT s.id, u.name, s.source, s.state, s.verdict, s.judgings FROM submissions s \
             JOIN users u ON u.id = s.user_id ORDER BY s.id",
        )
        .unwrap();
    stmt.query_map([], |r| {
        Ok(Row {
            id: r.get(0)?,
            user: r.get(1)?,
            source: r.get(2)?,
            state: r.get(3)?,
            verdict: r.get(4)?,
            judgings: r.get(5)?,
        })
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// Live (not zombie) processes whose name or command line holds `token`.
fn marked(token: &str) -> Vec<(i32, String)> {
    let me = std::process::id() as i32;
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        if pid == me {
            continue;
        }
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name = &stat[open + 1..close];
        if stat[close + 1..].trim_start().starts_with('Z') {
            continue;
        }
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if name.contains(token) || String::from_utf8_lossy(&cmdline).contains(token) {
            out.push((
                pid,
                format!("{name}: {}", String::from_utf8_lossy(&cmdline).replace('\0', " ")),
            ));
        }
    }
    out
}

/// Kills whatever carries the token when dropped (a failing test leaves
/// nothing running).
struct KillMarked(String);

impl Drop for KillMarked {
    fn drop(&mut self) {
        for (pid, _) in marked(&self.0) {
            let _ =
                nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
        }
    }
}

#[test]
fn serve_killed_at_random_moments_loses_no_acknowledged_submission_and_judges_each_once() {
    let seed = std::env::var("MAYAN_FAULTS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| fastrand::u64(..));
    println!("serve_faults seed: {seed} (MAYAN_FAULTS_SEED={seed} repeats it)");
    let mut rng = fastrand::Rng::with_seed(seed);
    let token = format!("mjf{:08x}", fastrand::u32(..));
    let _cleanup = KillMarked(token.clone());
    let names = ["alice", "bob", "carol"];
    // No search for counterexamples (`contest_dir`'s default): the runs it
    // would start while the last server lives are not what this test counts
    // (the runs a killed server left behind).
    let temp = contest_dir(&names, "");
    let dir = temp.path().to_path_buf();
    let mut server = Server::start_in(&dir, &[]);
    let mut tokens = Vec::new();
    for n in names {
        let mut c = server.client();
        c.api_sign_in(n, &format!("{n}-pw"));
        tokens.push(c.token.unwrap());
    }
    let mut alice_form = server.contestant("alice");
    let counter = Arc::new(AtomicUsize::new(0));
    // Acknowledged: (id, who, source).
    let acked: Arc<Mutex<Vec<(i64, String, String)>>> = Arc::default();
    let file = |n: usize| format!("{token}_{n}.c");
    // A first batch: a slow one per contestant (judged while the kills
    // come), and one of every other kind.
    for (i, kind) in [
        Kind::Slow,
        Kind::Slow,
        Kind::Slow,
        Kind::Accepted,
        Kind::Wrong,
        Kind::NoCompile,
    ]
    .into_iter()
    .enumerate()
    {
        let n = counter.fetch_add(1, Ordering::SeqCst);
        let source = kind.source(&token, n);
        let id = api_submit(&server.url, &tokens[i % 3], &file(n), &source).expect("submitted");
        acked.lock().unwrap().push((id, names[i % 3].into(), source));
    }
    // Submissions keep arriving from another thread through every kill.
    let url = Arc::new(Mutex::new(server.url.clone()));
    let stop = Arc::new(AtomicBool::new(false));
    let (attempts, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let sender = {
        let (url, stop, acked, counter, tokens, token) = (
            url.clone(),
            stop.clone(),
            acked.clone(),
            counter.clone(),
            tokens.clone(),
            token.clone(),
        );
        let (attempts, refused) = (attempts.clone(), refused.clone());
        let mut rng = fastrand::Rng::with_seed(seed ^ 0x5eed);
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                let kind = [Kind::Accepted, Kind::Wrong, Kind::NoCompile][rng.usize(..3)];
                let who = rng.usize(..3);
                let n = counter.fetch_add(1, Ordering::SeqCst);
                let source = kind.source(&token, n);
                let at = url.lock().unwrap().clone();
                attempts.fetch_add(1, Ordering::SeqCst);
                match api_submit(&at, &tokens[who], &format!("{token}_{n}.c"), &source) {
                    Some(id) => acked.lock().unwrap().push((id, names[who].into(), source)),
                    None => {
                        refused.fetch_add(1, Ordering::SeqCst);
                    }
                }
                std::thread::sleep(Duration::from_millis(rng.u64(300..900)));
            }
        })
    };
    let mut killed = Vec::new();
    let mut mid_test = false;
    for round in 0..5 {
        if round == 0 {
            // The first kill lands mid-test: once a slow program runs.
            mid_test = wait_for(Duration::from_secs(60), || {
                marked(&token).iter().any(|(_, n)| n.starts_with(&token))
            });
        } else {
            std::thread::sleep(Duration::from_millis(rng.u64(0..3000)));
        }
        // A form submission too, sometimes right before the kill.
        if rng.bool() {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            let source = Kind::Accepted.source(&token, n);
            let page = alice_form.submit(&file(n), &source);
            if page.status == 303 {
                acked
                    .lock()
                    .unwrap()
                    .push((submission_number(&page), "alice".into(), source));
            }
        }
        let pid = server.child.id();
        server.kill();
        killed.push(pid);
        let mut left = Vec::new();
        let gone = wait_for(Duration::from_secs(5), || {
            left = marked(&token);
            left.is_empty()
        });
        assert!(gone, "round {round}: the killed server left running: {left:?}");
        server = Server::start_in(&dir, &[]);
        print!("round {round}: {}", server.banner);
        *url.lock().unwrap() = server.url.clone();
        alice_form.url = server.url.clone();
    }
    stop.store(true, Ordering::SeqCst);
    sender.join().unwrap();
    assert!(
        mid_test,
        "no slow program ran before the first kill: the mid-test check is void"
    );
    let judged = wait_for(Duration::from_secs(400), || {
        rows(&dir).iter().all(|r| r.state == "done")
    });
    let all = rows(&dir);
    assert!(
        judged,
        "the queue did not empty: {:?}",
        all.iter().map(|r| (r.id, &r.state)).collect::<Vec<_>>()
    );
    let acked = acked.lock().unwrap().clone();
    for (id, who, source) in &acked {
        let row = all
            .iter()
            .find(|r| r.id == *id)
            .unwrap_or_else(|| panic!("acknowledged submission {id} lost"));
        assert_eq!(&row.user, who, "submission {id}");
        assert_eq!(row.source, source.as_bytes(), "submission {id}'s source changed");
    }
    for r in &all {
        let kind = Kind::of_source(&String::from_utf8_lossy(&r.source));
        assert_eq!(r.state, "done");
        assert_eq!(
            r.verdict.as_deref(),
            Some(kind.verdict()),
            "submission {} ({kind:?})",
            r.id
        );
        assert_eq!(r.judgings, 1, "submission {} judged {} times", r.id, r.judgings);
    }
    let left = marked(&token);
    assert!(left.is_empty(), "left running: {left:?}");
    for pid in &killed {
        let cgroups = run_cgroups(*pid);
        assert!(cgroups.is_empty(), "server {pid} left run cgroups: {cgroups:?}");
    }
    println!(
        "serve_faults: seed {seed}, 5 kills, {} acknowledged, {} stored (extra: stored as the kill came, \
         never acknowledged), {} of {} sends from the thread refused or unanswered",
        acked.len(),
        all.len(),
        refused.load(Ordering::SeqCst),
        attempts.load(Ordering::SeqCst)
    );
}

#[test]
fn serve_killed_mid_upload_stores_nothing_of_it() {
    let mut server = Server::start(&["alice"], "", &[]);
    let alice = server.contestant("alice");
    let csrf = alice.csrf("/submit");
    // The session cookie, as the browser sends it.
    let cookie = alice.cookie_header();
    let boundary = "----halfwaythere";
    let source = format!("{}/* half-uploaded */\n{}", accepted_c(), "x".repeat(100_000));
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"mayan.c\"\r\n\r\n{source}\r\n--{boundary}--\r\n"
    );
    let addr = server.url.trim_start_matches("http://").to_string();
    let mut tcp = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        tcp,
        "POST /submit HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    tcp.write_all(&body.as_bytes()[..body.len() / 2]).unwrap();
    tcp.flush().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    server.kill();
    let mut rest = Vec::new();
    let _ = tcp.read_to_end(&mut rest);
    assert!(
        !String::from_utf8_lossy(&rest).contains(" 303 "),
        "acknowledged: {}",
        String::from_utf8_lossy(&rest)
    );
    let dir = server.dir.clone();
    let again = Server::start_in(&dir, &[]);
    assert!(rows(&dir).is_empty(), "a half-uploaded submission was stored");
    let alice = again.contestant("alice");
    let page = alice.submit("mayan.c", &accepted_c());
    assert_eq!(page.status, 303, "{}", page.body);
    let mut api = again.client();
    api.api_sign_in("alice", "alice-pw");
    assert_eq!(api.wait_judged(submission_number(&page), 240)["verdict"], "AC");
    drop(again);
    drop(server);
}

/// A tmpfs of its own as the contest folder, unmounted when dropped.
struct Tmpfs {
    base: tempfile::TempDir,
}

impl Tmpfs {
    fn new(size: &str, contestants: &[&str]) -> Tmpfs {
        let base = tempfile::tempdir().unwrap();
        let mnt = base.path().join("contest");
        std::fs::create_dir(&mnt).unwrap();
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&mnt)
            .status()
            .unwrap();
        assert!(status.success(), "mount -t tmpfs (root is needed)");
        let contest = contest_dir(contestants, "");
        for f in ["contest.toml", "students.csv"] {
            std::fs::copy(contest.path().join(f), mnt.join(f)).unwrap();
        }
        Tmpfs { base }
    }

    fn dir(&self) -> PathBuf {
        self.base.path().join("contest")
    }

    fn remount(&self, how: &str) -> bool {
        std::process::Command::new("mount")
            .args(["-o", &format!("remount,{how}")])
            .arg(self.dir())
            .status()
            .unwrap()
            .success()
    }

    /// Fills it with a file until it is full.
    fn fill(&self) {
        let mut f = std::fs::File::create(self.dir().join("filler")).unwrap();
        let chunk = vec![7u8; 64 << 10];
        while f.write_all(&chunk).is_ok() {}
        let _ = f.sync_all();
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(self.dir())
            .status();
    }
}

/// A server on a contest folder of its own 24 MiB tmpfs (its log in
/// `server.log` beside it), alice signed in by form and by API, and her
/// first submission (the accepted program) judged.
fn one_judged_on_a_tmpfs() -> (
    Tmpfs,
    PathBuf,
    Server,
    crate::serve_util::Client,
    crate::serve_util::Client,
    i64,
) {
    let fs = Tmpfs::new("24m", &["alice"]);
    let log = fs.base.path().join("server.log");
    let server = Server::start_logged(&fs.dir(), &[], Some(&log));
    let alice = server.contestant("alice");
    let first = alice.submit("mayan.c", &accepted_c());
    assert_eq!(first.status, 303, "{}", first.body);
    let first = submission_number(&first);
    let mut api = server.client();
    api.api_sign_in("alice", "alice-pw");
    api.wait_judged(first, 240);
    (fs, log, server, alice, api, first)
}

#[test]
fn serve_on_a_full_disk_refuses_clearly_and_stores_again_once_freed() {
    let (fs, log, mut server, alice, api, first) = one_judged_on_a_tmpfs();
    fs.fill();
    // Larger than whatever room the database's log has left.
    let big = format!("{}/*{}*/\n", accepted_c(), "y".repeat(200 << 10));
    let page = alice.submit("mayan.c", &big);
    assert_eq!(page.status, 503, "a submission on a full disk: {}", page.body);
    assert!(page.body.contains("nothing was stored"), "{}", page.body);
    let via_api = api.post_json(
        "/api/v1/submissions",
        &serde_json::json!({"file_name": "mayan.c", "source": big}),
    );
    assert_eq!(via_api.status, 503, "{}", via_api.body);
    assert!(via_api.body.contains("nothing was stored"), "{}", via_api.body);
    // The pages still work.
    assert_eq!(alice.get("/submissions").status, 200);
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        logged.contains("error") && logged.to_lowercase().contains("full"),
        "the log says nothing of the full disk: {logged}"
    );
    std::fs::remove_file(fs.dir().join("filler")).unwrap();
    let page = alice.submit("mayan.c", &big);
    assert_eq!(page.status, 303, "{}", page.body);
    let second = submission_number(&page);
    assert_eq!(api.wait_judged(second, 240)["verdict"], "AC");
    let all = rows(&fs.dir());
    assert_eq!(
        all.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![first, second],
        "the refused ones were stored"
    );
    assert_eq!(all[0].source, accepted_c().as_bytes());
    assert_eq!(all[1].source, big.as_bytes());
    server.kill();
}

#[test]
fn serve_on_a_read_only_folder_refuses_clearly_and_keeps_serving() {
    let (fs, log, mut server, mut alice, mut api, first) = one_judged_on_a_tmpfs();
    // A read-only remount is refused while the server writes to the folder
    // (EBUSY): the server stops, the folder turns read-only, it starts again.
    let busy = !fs.remount("ro");
    assert!(busy, "remounted read-only under a running server");
    server.kill();
    assert!(fs.remount("ro"), "mount -o remount,ro");
    let started = std::panic::catch_unwind(|| Server::start_logged(&fs.dir(), &[], Some(&log)));
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    match started {
        Err(_) => {
            // It refused to start: the reason is in the log.
            assert!(
                logged.contains("writing to the database") && logged.contains("readonly"),
                "a server that cannot start on a read-only folder says why: {logged}"
            );
        }
        Ok(mut server) => {
            // Signed in before (a sign-in needs a write): the session and
            // the API token still work.
            alice.url = server.url.clone();
            api.url = server.url.clone();
            let page = alice.submit("mayan.c", &accepted_c());
            assert_eq!(
                page.status, 503,
                "a submission to a read-only database: {}",
                page.body
            );
            assert!(page.body.contains("nothing was stored"), "{}", page.body);
            assert_eq!(alice.get("/submissions").status, 200, "pages are still served");
            assert_eq!(alice.get(&format!("/submissions/{first}")).status, 200);
            let via_api = api.post_json(
                "/api/v1/submissions",
                &serde_json::json!({"file_name": "mayan.c", "source": accepted_c()}),
            );
            assert_eq!(via_api.status, 503, "{}", via_api.body);
            let logged = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(logged.contains("error"), "the log says nothing: {logged}");
            server.kill();
        }
    }
    assert!(fs.remount("rw"));
    let server = Server::start_logged(&fs.dir(), &[], Some(&log));
    let alice = server.contestant("alice");
    let page = alice.submit("mayan.c", &accepted_c());
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(rows(&fs.dir()).len(), 2);
}

#[test]
fn serve_with_its_database_locked_by_another_program_refuses_clearly_and_keeps_serving() {
    let server = Server::start(&["alice", "bob"], "", &[]);
    let alice = server.contestant("alice");
    let bob = server.contestant("bob");
    let first = submission_number(&alice.submit("mayan.c", &accepted_c()));
    let mut api = server.client();
    api.api_sign_in("alice", "alice-pw");
    api.wait_judged(first, 240);
    // Another program (a teacher's `sqlite3` shell) holds the write lock.
    let other = rusqlite::Connection::open(server.dir.join("mayan-judge.db")).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let (page, elapsed) = std::thread::scope(|s| {
        let start = Instant::now();
        let alice = &alice;
        let submitting = s.spawn(move || {
            let page = alice.submit("mayan.c", &format!("{}/* 2 */\n", accepted_c()));
            (page, start.elapsed())
        });
        std::thread::sleep(Duration::from_millis(500));
        // Meanwhile, pages are served: this one comes back while the
        // submission still waits for the lock (up to the 10 s busy
        // timeout), whatever the machine's speed.
        let ranking = bob.get("/ranking");
        let page_back = Instant::now();
        assert_eq!(ranking.status, 200);
        let (page, elapsed) = submitting.join().unwrap();
        let submission_back = start + elapsed;
        assert!(
            page_back + Duration::from_secs(2) < submission_back,
            "the page came back only as the submission gave up waiting for the lock"
        );
        (page, elapsed)
    });
    assert_eq!(
        page.status, 503,
        "a submission to a locked database: {}",
        page.body
    );
    assert!(page.body.contains("nothing was stored"), "{}", page.body);
    println!("locked database: refused after {elapsed:?}");
    other.execute_batch("ROLLBACK").unwrap();
    drop(other);
    let page = alice.submit("mayan.c", &format!("{}/* 3 */\n", accepted_c()));
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(rows(&server.dir).len(), 2);
}
