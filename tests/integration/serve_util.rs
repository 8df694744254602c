//! A real `mayan-judge serve` for the server's tests: a contest folder of
//! its own (contest.toml, a CSV of contestants with known passwords), the
//! server started on a free port, and a plain HTTP client that signs in
//! as a browser does (cookies, CSRF tokens) or uses the JSON API.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server; killed when dropped.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The contest folder (contest.toml, students.csv, the database).
    pub dir: PathBuf,
    /// The server process.
    pub child: Child,
    /// What it printed before `listening on`.
    pub banner: String,
    _temp: Option<tempfile::TempDir>,
}

/// The teacher's password in every test contest.
pub const ADMIN_PASSWORD: &str = "teacher-secret";

/// `contest.toml` for `contestants` (each with password `<name>-pw`; a
/// display name after `=`: `lisi=李四`), plus `extra` lines (a `title`
/// there replaces `Test contest`), in a new temporary folder. No search for counterexamples
/// unless `extra` has a `[counterexamples]` table: it is work in the
/// background that most tests do not look at, and it would take the cores
/// their programs need; the tests of the search ask for it.
pub fn contest_dir(contestants: &[&str], extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let displays = contestants.iter().any(|c| c.contains('='));
    let mut csv = String::from(if displays {
        "name,password,display\n"
    } else {
        "name,password\n"
    });
    for c in contestants {
        let (name, display) = c.split_once('=').unwrap_or((c, c));
        match displays {
            true => csv.push_str(&format!("{name},{name}-pw,{display}\n")),
            false => csv.push_str(&format!("{name},{name}-pw\n")),
        }
    }
    std::fs::write(dir.path().join("students.csv"), csv).unwrap();
    let search = match extra.contains("[counterexamples]") {
        true => "",
        false => "\n[counterexamples]\nsearch = false\n",
    };
    let title = match extra.lines().any(|l| l.starts_with("title")) {
        true => "",
        false => "title = \"Test contest\"\n",
    };
    let toml = format!(
        "{title}contestants = \"students.csv\"\nadmin_password = \"{ADMIN_PASSWORD}\"\n{extra}{search}"
    );
    std::fs::write(dir.path().join("contest.toml"), toml).unwrap();
    dir
}

impl Server {
    /// Starts a server on a new contest of `contestants` (see [`contest_dir`]).
    pub fn start(contestants: &[&str], extra: &str, args: &[&str]) -> Server {
        let temp = contest_dir(contestants, extra);
        let mut s = Server::start_in(temp.path(), args);
        s._temp = Some(temp);
        s
    }

    /// Starts a server on the contest in `dir` (again, after a stop: the
    /// same database), waiting for its `listening on` line.
    pub fn start_in(dir: &Path, args: &[&str]) -> Server {
        Server::start_logged(dir, args, None)
    }

    /// [`Server::start`], its command changed by `tweak` first (an
    /// environment variable, a limit set before it starts).
    pub fn start_tweaked(
        contestants: &[&str],
        extra: &str,
        args: &[&str],
        tweak: &dyn Fn(&mut Command),
    ) -> Server {
        let temp = contest_dir(contestants, extra);
        let mut s = Server::start_command(temp.path(), args, None, tweak);
        s._temp = Some(temp);
        s
    }

    /// [`Server::start_in`], its command changed by `tweak` first.
    pub fn start_in_tweaked(dir: &Path, args: &[&str], tweak: &dyn Fn(&mut Command)) -> Server {
        Server::start_command(dir, args, None, tweak)
    }

    /// [`Server::start_in`], its standard error appended to `log` if given.
    pub fn start_logged(dir: &Path, args: &[&str], log: Option<&Path>) -> Server {
        Server::start_command(dir, args, log, &|_| {})
    }

    /// The command that starts a server on the contest in `dir`.
    pub fn command(dir: &Path, args: &[&str]) -> Command {
        let bin = assert_cmd::cargo::cargo_bin("mayan-judge");
        let mut command = Command::new(bin);
        command
            .current_dir(dir)
            .env("MAYAN_JUDGE_CACHE", dir.join("cache"))
            .args(["serve", "--contest", "contest.toml", "--listen", "127.0.0.1:0"])
            .args(["--problem"])
            .arg(crate::util::manifest().join("problems/mayan"))
            .args(args);
        command
    }

    fn start_command(dir: &Path, args: &[&str], log: Option<&Path>, tweak: &dyn Fn(&mut Command)) -> Server {
        let stderr = match log {
            Some(path) => Stdio::from(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .expect("the server's log opens"),
            ),
            None => Stdio::inherit(),
        };
        let mut command = Server::command(dir, args);
        tweak(&mut command);
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("mayan-judge serve starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut banner = String::new();
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("listening on ") {
                    let _ = tx.send(Some((url.trim().to_string(), banner.clone())));
                } else {
                    banner.push_str(&line);
                    banner.push('\n');
                }
            }
            let _ = tx.send(None);
        });
        let started = rx.recv_timeout(Duration::from_secs(120)).ok().flatten();
        let Some((url, banner)) = started else {
            let _ = child.kill();
            panic!("mayan-judge serve did not print `listening on` within 120 s");
        };
        Server {
            url,
            dir: dir.to_path_buf(),
            child,
            banner,
            _temp: None,
        }
    }

    /// Kills it with SIGKILL and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// A client that is not signed in.
    pub fn client(&self) -> Client {
        Client {
            url: self.url.clone(),
            agent: ureq::Agent::new_with_config(
                ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .max_redirects(0)
                    .timeout_global(Some(Duration::from_secs(60)))
                    .build(),
            ),
            token: None,
        }
    }

    /// A client signed in through the sign-in form.
    pub fn signed_in(&self, name: &str, password: &str) -> Client {
        let c = self.client();
        let status = c.sign_in(name, password);
        assert_eq!(status, 303, "signing in as {name}");
        c
    }

    /// A contestant of [`Server::start`], signed in.
    pub fn contestant(&self, name: &str) -> Client {
        self.signed_in(name, &format!("{name}-pw"))
    }

    /// The teacher, signed in.
    pub fn teacher(&self) -> Client {
        self.signed_in("admin", ADMIN_PASSWORD)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An HTTP client with a cookie jar (ureq's agent keeps cookies).
pub struct Client {
    /// The server's URL.
    pub url: String,
    /// The agent (cookies).
    pub agent: ureq::Agent,
    /// An API token, sent as `Authorization: Bearer`.
    pub token: Option<String>,
}

/// A response: status and body.
pub struct Page {
    /// HTTP status.
    pub status: u16,
    /// Body, as text.
    pub body: String,
    /// The `Location` header, for redirects.
    pub location: Option<String>,
}

impl Client {
    fn page(r: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Page {
        let mut r = r.expect("the server answers");
        let location = r
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        Page {
            status: r.status().as_u16(),
            body: r.body_mut().read_to_string().unwrap_or_default(),
            location,
        }
    }

    /// GET a path.
    pub fn get(&self, path: &str) -> Page {
        let mut req = self.agent.get(format!("{}{path}", self.url));
        if let Some(t) = &self.token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        Self::page(req.call())
    }

    /// GET a path's bytes (a download: a zip is no text), with the status.
    pub fn get_bytes(&self, path: &str) -> (u16, Vec<u8>) {
        let mut r = self
            .agent
            .get(format!("{}{path}", self.url))
            .call()
            .expect("the server answers");
        let body = r
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .unwrap_or_default();
        (r.status().as_u16(), body)
    }

    /// POST a form (url-encoded fields).
    pub fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> Page {
        Self::page(
            self.agent
                .post(format!("{}{path}", self.url))
                .send_form(fields.iter().copied()),
        )
    }

    /// POST JSON (with the API token, if any).
    pub fn post_json(&self, path: &str, body: &serde_json::Value) -> Page {
        let mut req = self.agent.post(format!("{}{path}", self.url));
        if let Some(t) = &self.token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        Self::page(req.send_json(body))
    }

    /// The cookies this client sends, as a `Cookie` header's value (for
    /// raw requests).
    pub fn cookie_header(&self) -> String {
        self.agent
            .cookie_jar_lock()
            .iter()
            .map(|c| format!("{}={}", c.name(), c.value()))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The CSRF token of the form on a page.
    pub fn csrf(&self, path: &str) -> String {
        let page = self.get(path);
        csrf_of(&page.body).unwrap_or_else(|| panic!("no CSRF token on {path}: {}", page.body))
    }

    /// Signs in through the form; returns the status (303 on success).
    pub fn sign_in(&self, name: &str, password: &str) -> u16 {
        let csrf = self.csrf("/login");
        self.post_form(
            "/login",
            &[("csrf", &csrf), ("name", name), ("password", password)],
        )
        .status
    }

    /// Submits a source through the form (multipart, as a browser does);
    /// returns the page (303 to `/submissions/N` when stored).
    pub fn submit(&self, file_name: &str, source: &str) -> Page {
        let csrf = self.csrf("/submit");
        self.submit_form(&[("csrf", &csrf), ("language", "")], file_name, source)
    }

    /// POSTs the submit form as a browser does (multipart): `fields`, then
    /// the file (no CSRF token unless `fields` has one).
    pub fn submit_form(&self, fields: &[(&str, &str)], file_name: &str, source: &str) -> Page {
        let boundary = "----mayanjudgetestboundary";
        let mut body = String::new();
        for (name, value) in fields {
            body.push_str(&format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            ));
        }
        body.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n{source}\r\n--{boundary}--\r\n"
        ));
        Self::page(
            self.agent
                .post(format!("{}/submit", self.url))
                .header(
                    "content-type",
                    format!("multipart/form-data; boundary={boundary}"),
                )
                .send(body.as_bytes()),
        )
    }

    /// Gets an API token for a name and password, and uses it from now on.
    pub fn api_sign_in(&mut self, name: &str, password: &str) {
        let page = self.post_json(
            "/api/v1/token",
            &serde_json::json!({"name": name, "password": password}),
        );
        assert_eq!(page.status, 201, "token for {name}: {}", page.body);
        let v: serde_json::Value = serde_json::from_str(&page.body).unwrap();
        self.token = Some(v["token"].as_str().unwrap().to_string());
    }

    /// A submission through the API, once judged (polled up to `secs`).
    pub fn wait_judged(&self, id: i64, secs: u64) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let page = self.get(&format!("/api/v1/submissions/{id}"));
            let v: serde_json::Value = serde_json::from_str(&page.body)
                .unwrap_or_else(|_| panic!("submission {id}: {} {}", page.status, page.body));
            if v["final"] == true {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "submission {id} not judged within {secs} s: {v}"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

/// The value of the first `name="csrf"` field of a page.
pub fn csrf_of(html: &str) -> Option<String> {
    let rest = html.split("name=\"csrf\" value=\"").nth(1)?;
    Some(rest.split('"').next()?.to_string())
}

/// The submission number a submit redirect points at.
pub fn submission_number(page: &Page) -> i64 {
    page.location
        .as_deref()
        .and_then(|l| l.rsplit('/').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not a stored submission: {} {}", page.status, page.body))
}

/// The bundled accepted reference program in C.
pub fn accepted_c() -> String {
    std::fs::read_to_string(crate::util::manifest().join("reference/mayan/accepted/solution.c")).unwrap()
}

/// A TCP connection to the server at `url` from the local address `from`
/// (any of 127.0.0.0/8: many clients, as many addresses), blocking.
pub fn connect_from(from: std::net::Ipv4Addr, url: &str) -> std::io::Result<std::net::TcpStream> {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    let runtime = RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime for the test's sockets")
    });
    let to: std::net::SocketAddr = url
        .trim_start_matches("http://")
        .parse()
        .map_err(std::io::Error::other)?;
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind((from, 0).into())?;
        let stream = tokio::time::timeout(Duration::from_secs(30), socket.connect(to))
            .await
            .map_err(|_| std::io::Error::other("connecting took over 30 s"))??;
        let stream = stream.into_std()?;
        stream.set_nonblocking(false)?;
        Ok(stream)
    })
}

/// Sends a whole request on `stream` and returns the answer's status
/// (`None`: closed or not answered within the stream's read timeout, 60 s
/// unless set) and its text.
pub fn raw_exchange(mut stream: std::net::TcpStream, request: &str) -> (Option<u16>, String) {
    use std::io::{Read, Write};
    if stream.read_timeout().ok().flatten().is_none() {
        let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    }
    if stream.write_all(request.as_bytes()).is_err() {
        return (None, String::new());
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3))
        .and_then(|s| s.parse().ok());
    (status, text)
}

/// A JSON POST as a raw request (closing the connection after it).
pub fn raw_json_post(path: &str, body: &serde_json::Value) -> String {
    let body = body.to_string();
    format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}
