//! `mayan-judge serve` in a real browser: headless Chromium (Debian's
//! `chromium`) driven over WebDriver (`chromium-driver`'s `chromedriver`)
//! with fantoccini. Contestants sign in, submit, watch the live status
//! reach a verdict, see the ranking change, ask a question the teacher
//! answers, and the teacher rejudges; along the way the main pages are
//! photographed into `target/screenshots/serve-*.png` (`docs/screenshots/`
//! with `MAYAN_UPDATE_SCREENSHOTS=1`). Every page a contestant and the
//! teacher see is loaded without an error in the browser's console (read
//! through ChromeDriver's log of the browser, `goog:loggingPrefs`), and the
//! replay page fits a 1280-pixel window and a phone's 390 pixels. Another
//! test opens more tabs than a browser's six connections to one server
//! (each tab loads, each stays live: they share one event stream), and one
//! checks that the pages work with JavaScript disabled.

use crate::serve_util::{ADMIN_PASSWORD, Server, accepted_c};
use crate::util::{manifest, tool};
use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A wrong program: "no solution" for every test.
const WRONG_C: &str = "#include <stdio.h>\nint main(void) {\n    puts(\"-1\");\n    return 0;\n}\n";

/// A `chromedriver` of our own on a free port, in a process group of its
/// own with the Chromiums it starts: the whole group is killed when
/// dropped, also when a test panics.
struct Driver {
    child: Child,
    url: String,
    chromium: PathBuf,
    profiles: tempfile::TempDir,
}

impl Driver {
    fn start(chromedriver: &Path, chromium: &Path) -> Driver {
        use std::os::unix::process::CommandExt;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let mut driver = Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            chromium: chromium.to_path_buf(),
            profiles: tempfile::tempdir().unwrap(),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = driver.child.try_wait() {
                panic!("chromedriver exited at start: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "chromedriver did not listen on port {port} within 20 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }

    /// A new browser session (a fresh profile), JavaScript on or off.
    async fn session(&self, name: &str, javascript: bool) -> Client {
        self.session_with(name, javascript, None).await
    }

    /// A new browser session (a fresh profile), JavaScript on or off, its
    /// `Accept-Language` given (Chromium's `intl.accept_languages`) or
    /// Chromium's own.
    async fn session_with(&self, name: &str, javascript: bool, languages: Option<&str>) -> Client {
        let profile = self.profiles.path().join(name);
        let mut args: Vec<String> = crate::util::CHROMIUM_HEADLESS
            .iter()
            .map(|f| f.to_string())
            .collect();
        args.push("--window-size=1280,900".into());
        args.push(format!("--user-data-dir={}", profile.display()));
        let mut options = serde_json::json!({
            "binary": self.chromium,
            "args": args,
        });
        if !javascript {
            options["prefs"] = serde_json::json!({"profile.managed_default_content_settings.javascript": 2});
        }
        if let Some(languages) = languages {
            options["prefs"] = serde_json::json!({"intl": {"accept_languages": languages}});
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        // The console's messages, read back by `Browser::console_errors`.
        caps.insert("goog:loggingPrefs".into(), serde_json::json!({"browser": "ALL"}));
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        tokio::time::timeout(
            Duration::from_secs(60),
            ClientBuilder::new(connector)
                .capabilities(caps)
                .connect(&self.url),
        )
        .await
        .unwrap_or_else(|_| panic!("no browser session for {name} within 60 s"))
        .unwrap_or_else(|e| panic!("browser session for {name}: {e}"))
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group: chromedriver and every Chromium process it started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A ChromeDriver command fantoccini has no method for: `POST
/// /session/ID/<path>` with a JSON body (`se/log`: the browser's console;
/// `goog/cdp/execute`: a DevTools command).
#[derive(Debug)]
struct ChromeCommand {
    path: &'static str,
    body: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for ChromeCommand {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/{}", session.unwrap_or_default(), self.path))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(self.body.to_string()))
    }
}

/// Prints how long the test has run at each step (`--nocapture` shows it).
struct Steps(Instant);

impl Steps {
    fn start() -> Steps {
        Steps(Instant::now())
    }

    fn step(&self, what: &str) {
        eprintln!("[{:5.1} s] {what}", self.0.elapsed().as_secs_f64());
    }
}

/// A runtime for the browser sessions (fantoccini is async).
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// One of the contestants' (or the teacher's) browsers on the server.
struct Browser<'a> {
    client: Client,
    server: &'a str,
    who: &'static str,
}

impl Browser<'_> {
    async fn goto(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.server))
            .await
            .unwrap_or_else(|e| panic!("{} opens {path}: {e}", self.who));
    }

    /// The element `css`, polled for up to 10 s: a click that submits a
    /// form may return before the next page is in the browser (under load,
    /// its address already is and its document not yet).
    async fn find(&self, css: &str) -> fantoccini::elements::Element {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.client.find(Locator::Css(css)).await {
                Ok(el) => return el,
                Err(_) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(100)).await,
                Err(e) => {
                    let page = self.client.source().await.unwrap_or_default();
                    let page: String = page.chars().take(2000).collect();
                    panic!(
                        "{}: no `{css}` on {}: {e}\nthe page:\n{page}",
                        self.who,
                        self.path().await
                    )
                }
            }
        }
    }

    async fn click(&self, css: &str) {
        self.find(css)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("{} clicks `{css}`: {e}", self.who));
    }

    async fn type_in(&self, css: &str, text: &str) {
        self.find(css)
            .await
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("{} types into `{css}`: {e}", self.who));
    }

    async fn path(&self) -> String {
        self.client
            .current_url()
            .await
            .map(|u| u.path().to_string())
            .unwrap_or_default()
    }

    /// The text of `css`, once `ok` holds for it (polled, `secs` at most;
    /// the page may reload meanwhile: found again at each poll).
    async fn text_until(&self, css: &str, secs: u64, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut last = String::new();
        loop {
            if let Ok(el) = self.client.find(Locator::Css(css)).await
                && let Ok(text) = el.text().await
            {
                if ok(&text) {
                    return text;
                }
                last = text;
            }
            assert!(
                Instant::now() < deadline,
                "{}: {what} not seen within {secs} s on {} (`{css}` reads {last:?})",
                self.who,
                self.path().await
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The statuses `#status` shows, polled until a final verdict (`secs`
    /// at most): every distinct text, in order.
    async fn statuses_until_final(&self, secs: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut seen: Vec<String> = Vec::new();
        loop {
            if let Ok(el) = self.client.find(Locator::Css("#status")).await
                && let (Ok(text), Ok(fin)) = (el.text().await, el.attr("data-final").await)
            {
                if seen.last() != Some(&text) {
                    seen.push(text.clone());
                }
                // Final on the page as served (data-final), not only in
                // the text live.js wrote: the table is there too then.
                if fin.as_deref() == Some("yes") {
                    return seen;
                }
            }
            assert!(
                Instant::now() < deadline,
                "{}: no verdict within {secs} s on {} (statuses seen: {seen:?})",
                self.who,
                self.path().await
            );
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    /// Waits until the browser is on a path `ok` accepts.
    async fn on_path(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let path = self.path().await;
            if ok(&path) {
                return path;
            }
            assert!(
                Instant::now() < deadline,
                "{}: not on {what} within 30 s (on {path})",
                self.who
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn sign_in(&self, name: &str, password: &str) {
        self.sign_in_as(name, password, name).await;
    }

    /// Signs in as `name`, whom the header then shows as `shown` (the
    /// display name).
    async fn sign_in_as(&self, name: &str, password: &str, shown: &str) {
        self.goto("/login").await;
        self.type_in("input[name=name]", name).await;
        self.type_in("input[name=password]", password).await;
        self.click("#sign-in").await;
        self.on_path("the home page after signing in", |p| p == "/").await;
        let me = self.find("header .me").await.text().await.unwrap();
        assert!(
            me.contains(shown),
            "{} signed in, the header says {me:?}",
            self.who
        );
    }

    async fn sign_out(&self) {
        self.click("header form button").await;
        self.on_path("the sign-in page after signing out", |p| p == "/login")
            .await;
    }

    /// Submits `source` pasted into the form as `language`; returns the
    /// submission's number, once on its page.
    async fn submit_pasted(&self, language: &str, source: &str) -> i64 {
        self.goto("/submit").await;
        self.find("#language")
            .await
            .select_by_value(language)
            .await
            .unwrap_or_else(|e| panic!("{}: no language {language} to choose: {e}", self.who));
        self.type_in("#code", source).await;
        self.click("#submit").await;
        self.landed_on_submission().await
    }

    /// Submits the file at `path` (its language detected from the name);
    /// returns the submission's number, once on its page.
    async fn submit_file(&self, path: &Path) -> i64 {
        self.goto("/submit").await;
        self.type_in("#file", path.to_str().unwrap()).await;
        self.click("#submit").await;
        self.landed_on_submission().await
    }

    async fn landed_on_submission(&self) -> i64 {
        let path = self
            .on_path("a submission's page after submitting", |p| {
                p.strip_prefix("/submissions/")
                    .is_some_and(|n| n.parse::<i64>().is_ok())
            })
            .await;
        path.rsplit('/').next().unwrap().parse().unwrap()
    }

    /// The rows of the ranking table, cell texts.
    async fn ranking(&self) -> Vec<Vec<String>> {
        let mut rows = Vec::new();
        for tr in self
            .client
            .find_all(Locator::Css("#ranking tbody tr"))
            .await
            .unwrap_or_default()
        {
            let mut cells = Vec::new();
            for td in tr.find_all(Locator::Css("td")).await.unwrap_or_default() {
                cells.push(td.text().await.unwrap_or_default());
            }
            rows.push(cells);
        }
        rows
    }

    /// Saves what the window shows as `serve-<name>.png` in
    /// `target/screenshots/`, or in `docs/screenshots/` (the README's) with
    /// `MAYAN_UPDATE_SCREENSHOTS=1`: a test run leaves the checkout clean.
    async fn screenshot(&self, name: &str) {
        let png = self
            .client
            .screenshot()
            .await
            .unwrap_or_else(|e| panic!("screenshot {name}: {e}"));
        assert!(png.starts_with(b"\x89PNG"), "screenshot {name} is not a PNG");
        let dir = if std::env::var_os("MAYAN_UPDATE_SCREENSHOTS").is_some_and(|v| v == "1") {
            manifest().join("docs/screenshots")
        } else {
            crate::util::target_dir().join("screenshots")
        };
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("serve-{name}.png")), png).unwrap();
    }

    async fn close(self) {
        let _ = self.client.close().await;
    }

    /// A DevTools command (`Emulation.setDeviceMetricsOverride`, ...).
    async fn cdp(&self, cmd: &str, params: serde_json::Value) {
        self.client
            .issue_cmd(ChromeCommand {
                path: "goog/cdp/execute",
                body: serde_json::json!({"cmd": cmd, "params": params}),
            })
            .await
            .unwrap_or_else(|e| panic!("{}: DevTools {cmd}: {e}", self.who));
    }

    /// The errors the browser's console shows since the last call
    /// (ChromeDriver hands each message once): a resource that failed to
    /// load (a missing favicon), a Content-Security-Policy violation (an
    /// inline `style`), a script's exception.
    async fn console_errors(&self) -> Vec<String> {
        let log = self
            .client
            .issue_cmd(ChromeCommand {
                path: "se/log",
                body: serde_json::json!({"type": "browser"}),
            })
            .await
            .unwrap_or_else(|e| panic!("{}: the browser's log: {e}", self.who));
        log.as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["level"] == "SEVERE")
            .map(|m| m["message"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Opens `path` (once its page has loaded: a moment for the favicon and
    /// the script) and asserts the console shows no error.
    async fn visit_cleanly(&self, path: &str) {
        self.goto(path).await;
        self.find("header .brand").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.assert_no_console_error(path).await;
    }

    async fn assert_no_console_error(&self, page: &str) {
        let errors = self.console_errors().await;
        assert!(
            errors.is_empty(),
            "{}: the console shows errors on {page}: {errors:#?}",
            self.who
        );
    }

    /// Evaluates a JavaScript expression.
    async fn js(&self, expression: &str) -> serde_json::Value {
        self.client
            .execute(&format!("return {expression};"), vec![])
            .await
            .unwrap_or_else(|e| panic!("{}: {expression}: {e}", self.who))
    }

    /// Asserts the page is no wider than the window (no horizontal
    /// scrolling of the page itself: a wide table scrolls in its own box).
    async fn assert_fits(&self, what: &str) {
        let widths = self
            .js("[document.documentElement.scrollWidth, window.innerWidth]")
            .await;
        let (page, window) = (widths[0].as_i64().unwrap(), widths[1].as_i64().unwrap());
        assert!(
            page <= window,
            "{}: {what} is {page} px wide in a window of {window} px",
            self.who
        );
    }

    /// Shows pages as a phone `width` pixels wide would (or as the window
    /// again, with `None`).
    async fn phone(&self, width: Option<u32>) {
        match width {
            Some(w) => {
                self.cdp(
                    "Emulation.setDeviceMetricsOverride",
                    serde_json::json!({"width": w, "height": 844, "deviceScaleFactor": 1, "mobile": true}),
                )
                .await
            }
            None => {
                self.cdp("Emulation.clearDeviceMetricsOverride", serde_json::json!({}))
                    .await
            }
        }
    }
}

/// The score cell of `name`'s row, once `ok` holds for it.
async fn ranking_score_until(
    b: &Browser<'_>,
    name: &str,
    secs: u64,
    what: &str,
    ok: impl Fn(&str) -> bool,
) -> String {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let rows = b.ranking().await;
        let score = rows
            .iter()
            .find(|r| r.get(1).is_some_and(|c| c.starts_with(name)))
            .and_then(|r| r.get(2).cloned());
        if let Some(s) = &score
            && ok(s)
        {
            return s.clone();
        }
        assert!(
            Instant::now() < deadline,
            "{}: {what} not seen within {secs} s in the ranking: {rows:?}",
            b.who
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The replay of a wrong submission is a page of the site: its header, a
/// way back to the submission, the contestant's name, every test of the
/// package (31), the boards; it fits a 1280-pixel window and a phone's 390
/// pixels (photographed at both widths).
async fn check_the_replay_page(b: &Browser<'_>, id: i64) {
    b.find("header .brand").await;
    let title = b.client.title().await.unwrap();
    assert!(
        title.starts_with(&format!("Replay of submission {id}")),
        "title {title:?}"
    );
    let back = b.find("#back").await.attr("href").await.unwrap();
    assert_eq!(back.as_deref(), Some(format!("/submissions/{id}").as_str()));
    let who = b.find("#who").await.text().await.unwrap();
    assert!(who.starts_with("alice"), "the replay names {who:?}");
    let rows = b
        .client
        .find_all(Locator::Css(".replay section.sub table tr"))
        .await
        .unwrap();
    assert_eq!(rows.len(), 1 + 31, "a header and the package's 31 tests");
    let boards = b.client.find_all(Locator::Css("svg.b")).await.unwrap();
    assert!(!boards.is_empty(), "the replay draws no boards (svg.b)");
    b.assert_no_console_error("the replay").await;
    b.assert_fits("the replay at 1280 px").await;
    b.screenshot("replay").await;
    b.phone(Some(390)).await;
    b.goto(&format!("/submissions/{id}/replay")).await;
    b.find("#who").await;
    b.assert_fits("the replay on a phone (390 px)").await;
    b.screenshot("replay-phone").await;
    b.phone(None).await;
    b.assert_no_console_error("the replay on a phone").await;
}

/// What both tests start with: a server with alice and bob, ChromeDriver,
/// the accepted program as a file to upload, the step clock; `None` when
/// Chromium or ChromeDriver is missing (see `util::tool`).
fn set_up() -> Option<(Server, Driver, tempfile::TempDir, std::path::PathBuf, Steps)> {
    let chromium = tool("chromium")?;
    let chromedriver = tool("chromedriver")?;
    let server = Server::start(&["alice", "bob"], "", &["--trusted"]);
    let driver = Driver::start(&chromedriver, &chromium);
    let files = tempfile::tempdir().unwrap();
    let accepted = files.path().join("mayan.c");
    std::fs::write(&accepted, accepted_c()).unwrap();
    Some((server, driver, files, accepted, Steps::start()))
}

#[test]
fn contestants_and_the_teacher_use_the_judge_in_a_browser() {
    let Some((server, driver, _files, accepted_file, steps)) = set_up() else {
        return;
    };
    runtime().block_on(async {
        let alice = Browser {
            client: driver.session("alice", true).await,
            server: &server.url,
            who: "alice",
        };

        // Alice signs in through the form.
        steps.step("alice signs in");
        alice.goto("/").await;
        alice
            .on_path("the sign-in page (not signed in yet)", |p| p == "/login")
            .await;
        alice.screenshot("sign-in").await;
        alice.assert_no_console_error("the sign-in page").await;
        alice.sign_in("alice", "alice-pw").await;
        alice.assert_no_console_error("the home page").await;

        // She reads the statement, and submits the accepted C program (a
        // file: typing 4 KB into the text area takes WebDriver 8 s).
        steps.step("alice submits the accepted program");
        alice.visit_cleanly("/statement").await;
        alice.find("h1").await;
        alice.screenshot("statement").await;
        alice.goto("/submit").await;
        alice.find("#language").await.select_by_value("c").await.unwrap();
        alice.type_in("#code", WRONG_C).await;
        alice.screenshot("submit").await;
        let accepted = alice.submit_file(&accepted_file).await;

        // Its status changes live until the verdict: AC, full score.
        steps.step("alice watches the status");
        let seen = alice.statuses_until_final(120).await;
        eprintln!("alice's submission {accepted}: statuses seen {seen:?}");
        assert_eq!(seen.last().unwrap(), "AC", "statuses seen: {seen:?}");
        // "100/100": the points and the most.
        let score = alice.find("#score").await.text().await.unwrap();
        let (full, most) = score.split_once('/').unwrap_or_else(|| panic!("score {score:?}"));
        assert_eq!(full, most, "the accepted program's score");
        let full = full.to_string();

        // A wrong program: WA, a table of tests, and the replay's boards.
        steps.step("alice submits a wrong program");
        let wrong = alice.submit_pasted("c", WRONG_C).await;
        let seen = alice.statuses_until_final(120).await;
        eprintln!("alice's submission {wrong}: statuses seen {seen:?}");
        assert_eq!(seen.last().unwrap(), "WA", "statuses seen: {seen:?}");
        let score = alice.find("#score").await.text().await.unwrap();
        let wrong_score = score.split('/').next().unwrap().to_string();
        assert_ne!(wrong_score, full, "a wrong program with full marks");
        let table = alice.find("table.tests").await.text().await.unwrap();
        assert!(table.contains("WA"), "the test table: {table}");
        alice.screenshot("submission").await;
        alice.click("#replay").await;
        alice
            .on_path("the replay", |p| p == format!("/submissions/{wrong}/replay"))
            .await;
        check_the_replay_page(&alice, wrong).await;

        // The ranking: her last judged program counts.
        steps.step("alice opens the ranking");
        alice.visit_cleanly("/ranking").await;
        ranking_score_until(&alice, "alice", 10, "alice's score", |s| s == wrong_score).await;
        let bob_before = ranking_score_until(&alice, "bob", 10, "bob's row", |_| true).await;
        assert_ne!(bob_before, full, "bob has full marks before submitting");

        // Bob submits the accepted program in his own browser; the ranking
        // alice has open changes by itself.
        steps.step("bob submits the accepted program");
        let bob = Browser {
            client: driver.session("bob", true).await,
            server: &server.url,
            who: "bob",
        };
        bob.sign_in("bob", "bob-pw").await;
        bob.submit_file(&accepted_file).await;
        let seen = bob.statuses_until_final(120).await;
        assert_eq!(seen.last().unwrap(), "AC", "bob's statuses: {seen:?}");
        ranking_score_until(&alice, "bob", 30, "bob with full marks (live)", |s| s == full).await;
        assert_eq!(alice.path().await, "/ranking");
        let rows = alice.ranking().await;
        assert!(rows[0][1].starts_with("bob"), "bob first: {rows:?}");
        alice.screenshot("ranking").await;
        bob.sign_out().await;

        // Alice asks a question; the teacher answers it to everybody.
        steps.step("alice asks a question");
        let question = "May the first move be a swap with an empty cell?";
        alice.visit_cleanly("/clarifications").await;
        alice.type_in("#question", question).await;
        alice.click("#ask").await;
        alice
            .text_until("#clarifications", 10, "her question", |t| {
                t.contains(question) && t.contains("Not answered yet.")
            })
            .await;
        steps.step("the teacher answers");
        let teacher = Browser {
            who: "the teacher",
            ..bob
        };
        teacher.sign_in("admin", ADMIN_PASSWORD).await;
        teacher.visit_cleanly("/admin").await;
        let dashboard = teacher.find("main").await.text().await.unwrap();
        assert!(dashboard.contains("1 unanswered"), "the dashboard: {dashboard}");
        teacher.screenshot("teacher").await;
        teacher.visit_cleanly("/clarifications").await;
        let item = teacher
            .client
            .find(Locator::XPath(&format!(
                "//ul[@id='clarifications']/li[p[@class='q'][contains(., '{question}')]]"
            )))
            .await
            .expect("the teacher sees alice's question");
        // Two lines: the answer is a text area, and keeps them both.
        let answer = "Yes: a block may move onto an empty cell.\nIt falls if nothing is under it.";
        item.find(Locator::Css("textarea[name=answer]"))
            .await
            .unwrap()
            .send_keys(answer)
            .await
            .unwrap();
        item.find(Locator::Css("input[name=public]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        item.find(Locator::Css("button"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        teacher
            .text_until("#clarifications", 10, "the answer", |t| t.contains(answer))
            .await;
        let shown = alice
            .text_until("#clarifications", 30, "the teacher's answer (live)", |t| {
                t.contains(answer)
            })
            .await;
        assert!(shown.contains(&format!("To everybody: {answer}")), "{shown}");
        // When it was asked and answered, in the contest's time zone.
        let when = alice.find("#clarifications .when").await.text().await.unwrap();
        assert!(
            when.starts_with("Asked ") && when.contains(", answered ") && when.matches("UTC").count() == 2,
            "the clarification says {when:?}"
        );
        alice.screenshot("clarifications").await;
        alice
            .assert_no_console_error("the clarifications, answered")
            .await;

        // The teacher rejudges alice's wrong submission: judging again,
        // then the same verdict, judged twice.
        steps.step("the teacher rejudges");
        teacher.visit_cleanly(&format!("/submissions/{wrong}")).await;
        // One click asks first (a page: it works without JavaScript), then
        // the rejudging.
        teacher.click("#rejudge").await;
        teacher
            .on_path("the confirmation", |p| p == "/admin/rejudge")
            .await;
        let question = teacher.find("#confirm-what").await.text().await.unwrap();
        assert!(question.contains(&format!("submission {wrong}")), "{question}");
        teacher.assert_no_console_error("the confirmation").await;
        teacher.click("#confirm").await;
        teacher
            .on_path("the submission after rejudging", |p| {
                p == format!("/submissions/{wrong}")
            })
            .await;
        let seen = teacher.statuses_until_final(120).await;
        eprintln!("rejudging {wrong}: statuses seen {seen:?}");
        assert_eq!(seen.last().unwrap(), "WA", "statuses after rejudging: {seen:?}");
        let about = teacher.find("main > p").await.text().await.unwrap();
        assert!(about.contains("judged 2 times"), "the submission says: {about}");

        // Every other page the teacher and a contestant see: no console error.
        steps.step("every page, without a console error");
        for page in [
            "/".to_string(),
            "/statement".into(),
            "/submit".into(),
            "/submissions".into(),
            "/ranking".into(),
            "/admin/submissions".into(),
            "/admin/submissions?user=alice".into(),
            "/admin/contestants".into(),
            format!("/submissions/{wrong}/replay"),
        ] {
            teacher.visit_cleanly(&page).await;
        }
        for page in [
            "/".to_string(),
            "/submit".into(),
            "/submissions".into(),
            format!("/submissions/{accepted}"),
            format!("/submissions/{wrong}"),
            "/clarifications".into(),
        ] {
            alice.visit_cleanly(&page).await;
        }

        teacher.close().await;
        alice.close().await;
    });
    steps.step("done");
}

/// Tabs past a browser's six connections to one server (HTTP/1.1): each
/// loads, and each gets the live events, also once the tab that held the
/// shared stream is closed. Run twice: with the Web Locks API (a secure
/// context: HTTPS, or this loopback address) and without it (plain HTTP on
/// a classroom's LAN), where the tabs elect their leader in localStorage.
#[test]
fn more_tabs_than_the_browsers_connection_limit_all_stay_live() {
    let Some((server, driver, _files, _source, steps)) = set_up() else {
        return;
    };
    let teacher = server.teacher();
    let mut said = 0;
    let mut announce = |what: &str| {
        said += 1;
        let text = format!("Announcement {said} ({what})");
        let csrf = teacher.csrf("/admin");
        let page = teacher.post_form("/admin/announcements", &[("csrf", &csrf), ("text", &text)]);
        assert_eq!(page.status, 303, "announcing: {}", page.body);
        text
    };
    runtime().block_on(async {
        for (name, locks) in [("web-locks", true), ("local-storage", false)] {
            steps.step(&format!("8 tabs ({name})"));
            let alice = Browser {
                client: driver.session(&format!("alice-tabs-{name}"), true).await,
                server: &server.url,
                who: "alice's tabs",
            };
            // Without the Web Locks API in every tab (the script is given to
            // one tab's documents only), as in a browser without it.
            if !locks {
                alice
                    .cdp("Page.addScriptToEvaluateOnNewDocument", no_locks())
                    .await;
            }
            // A tab that never loads fails here, not after 5 minutes.
            alice
                .client
                .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
                    None,
                    Some(Duration::from_secs(30)),
                    None,
                ))
                .await
                .unwrap();
            alice.sign_in("alice", "alice-pw").await;
            let mut tabs = vec![alice.client.window().await.unwrap()];
            for _ in 1..TABS {
                let tab = alice.client.new_window(true).await.unwrap().handle;
                alice.client.switch_to_window(tab.clone()).await.unwrap();
                if !locks {
                    alice
                        .cdp("Page.addScriptToEvaluateOnNewDocument", no_locks())
                        .await;
                }
                alice.goto("/").await;
                alice.find("#announcements").await;
                tabs.push(tab);
            }
            assert_eq!(alice.client.windows().await.unwrap().len(), TABS);
            one_leader(&alice, &tabs).await;
            if locks {
                assert_eq!(
                    alice.js("typeof navigator.locks").await,
                    "object",
                    "the Web Locks API on 127.0.0.1"
                );
            } else {
                assert_eq!(alice.js("typeof navigator.locks").await, "undefined");
            }
            let text = announce(name);
            every_tab_reads(&alice, &tabs, &text).await;

            // The leader closes: another tab takes the stream over.
            let leader = one_leader(&alice, &tabs).await;
            alice.client.switch_to_window(tabs[leader].clone()).await.unwrap();
            alice.client.close_window().await.unwrap();
            tabs.remove(leader);
            one_leader(&alice, &tabs).await;
            let text = announce(&format!("{name}, after the leader closed"));
            every_tab_reads(&alice, &tabs, &text).await;
            alice.client.switch_to_window(tabs[0].clone()).await.unwrap();
            alice.assert_no_console_error("eight tabs").await;
            alice.close().await;
        }
    });
    steps.step("done");
}

/// The CDP script that hides the Web Locks API from a tab's pages.
fn no_locks() -> serde_json::Value {
    serde_json::json!({"source": "Object.defineProperty(Navigator.prototype, 'locks', {get: () => undefined});"})
}

/// More tabs than a browser opens connections to one server.
const TABS: usize = 8;

/// The index of the one tab holding the shared stream (connected), once
/// there is exactly one.
async fn one_leader(b: &Browser<'_>, tabs: &[fantoccini::wd::WindowHandle]) -> usize {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut states = Vec::new();
        for tab in tabs {
            b.client.switch_to_window(tab.clone()).await.unwrap();
            let state = b.js("document.documentElement.dataset.live || ''").await;
            states.push(state.as_str().unwrap_or_default().to_string());
        }
        let leaders: Vec<usize> = (0..states.len()).filter(|&i| states[i] == "leader").collect();
        let settled = states.iter().all(|s| s == "leader" || s == "follower");
        if leaders.len() == 1 && settled {
            return leaders[0];
        }
        assert!(
            Instant::now() < deadline,
            "{}: no single leader among the tabs within 30 s: {states:?}",
            b.who
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Every tab shows `text` in its announcements (each reloads on the event).
async fn every_tab_reads(b: &Browser<'_>, tabs: &[fantoccini::wd::WindowHandle], text: &str) {
    for (i, tab) in tabs.iter().enumerate() {
        b.client.switch_to_window(tab.clone()).await.unwrap();
        b.text_until(
            "#announcements",
            30,
            &format!("tab {}: {text:?} (live)", i + 1),
            |t| t.contains(text),
        )
        .await;
    }
}

#[test]
fn the_pages_work_without_javascript() {
    let Some((server, driver, _files, source, steps)) = set_up() else {
        return;
    };
    runtime().block_on(async {
        let bob = Browser {
            client: driver.session("bob-nojs", false).await,
            server: &server.url,
            who: "bob (no JavaScript)",
        };
        bob.sign_in("bob", "bob-pw").await;
        // Upload the file, its language detected from the name.
        steps.step("bob uploads a file");
        let id = bob.submit_file(&source).await;
        // No live updates: the pending page refreshes itself (<noscript>).
        steps.step("bob waits for the verdict");
        let seen = bob.statuses_until_final(120).await;
        eprintln!("bob's submission {id} without JavaScript: statuses seen {seen:?}");
        assert!(
            seen.len() > 1,
            "the page showed only {seen:?}: no pending status to see it refresh"
        );
        assert_eq!(seen.last().unwrap(), "AC", "statuses seen: {seen:?}");
        bob.close().await;
    });
    steps.step("done");
}

impl Driver {
    /// A new browser session whose `Accept-Language` is `languages`.
    async fn session_speaking(&self, name: &str, languages: &str) -> Client {
        self.session_with(name, true, Some(languages)).await
    }
}

/// What a Chinese page may hold in Latin letters: verdict codes, units,
/// the names of formats, tools, languages and files, the switch's
/// `English`; everything else must be Chinese.
const LATIN_ALLOWED: &[&str] = &[
    "AC",
    "WA",
    "PE",
    "TLE",
    "MLE",
    "OLE",
    "RE",
    "CE",
    "FAIL",
    "NOF",
    // 赛制 as Hydro and Luogu name them; the tests' download.
    "OI",
    "IOI",
    "ACM",
    "zip",
    "ms",
    "KiB",
    "MiB",
    "UTC",
    "CPU",
    "API",
    "English",
    "CSV",
    // The marks workbook's link: the program's name.
    "Excel",
    "HTML",
    "JSON",
    "LemonLime",
    "Arbiter",
    "Moodle",
    "Canvas",
    "csv",
    "passwords",
    "sample",
    "secret",
    "mayan",
    "c",
    "cpp",
    "py",
    "python",
    "rs",
    "rust",
    "cc",
    "cxx",
    "java",
    "go",
    "pas",
    "js",
    "no",
    "noop",
    "docs",
    "SIMILAR",
    "md",
    // The bundled package's test names (secret/bottom-1, ...).
    "bottom",
    "cascade",
    "deep",
    "mid",
    "mixed",
    "none",
];

/// The words in Latin letters on the page that are neither code (`pre`,
/// `code`, `textarea`), nor allowed ([`LATIN_ALLOWED`]), nor in `names`
/// (the contest's and the problem's titles, the people).
async fn english_words(b: &Browser<'_>, names: &[&str]) -> Vec<String> {
    let text = b
        .js(
            "(() => { const c = document.body.cloneNode(true); \
             c.querySelectorAll('pre, code, textarea, script, style, svg, select option[value]:not([value=\"\"])').forEach(e => e.remove()); \
             document.body.appendChild(c); const t = c.innerText; c.remove(); return t; })()",
        )
        .await;
    let mut text = text.as_str().unwrap_or_default().to_string();
    for name in names {
        text = text.replace(name, " ");
    }
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() > 1 && !LATIN_ALLOWED.contains(w))
        .map(str::to_string)
        .collect();
    words.dedup();
    words
}

/// The page at `path` is Chinese: `lang` is zh-CN, no English word outside
/// the allowed ones, no message id shown for want of its text, no console
/// error, and it fits 1280 and 390 pixels (the page on screen, when `path`
/// is empty: 1280 only).
async fn check_chinese_page(b: &Browser<'_>, path: &str, names: &[&str]) {
    if !path.is_empty() {
        b.goto(path).await;
    }
    b.find("header .brand").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let here = b.path().await;
    let lang = b.js("document.documentElement.lang").await;
    assert_eq!(lang.as_str(), Some("zh-CN"), "{}: lang of {here}", b.who);
    let words = english_words(b, names).await;
    assert!(words.is_empty(), "{}: English on {here}: {words:?}", b.who);
    let body = b.js("document.body.innerText").await;
    assert!(
        !body.as_str().unwrap_or_default().contains('⟦'),
        "{}: a message without its text on {here}",
        b.who
    );
    let fonts = b.js("getComputedStyle(document.body).fontFamily").await;
    assert!(
        fonts.as_str().unwrap_or_default().starts_with("\"PingFang SC\""),
        "{}: fonts of {here}: {fonts}",
        b.who
    );
    if here == "/no-such-page" {
        // The 404 is in the console, as it should be.
        let _ = b.console_errors().await;
        return;
    }
    b.assert_no_console_error(&here).await;
    b.assert_fits(&format!("{here} at 1280 px")).await;
    if path.is_empty() {
        // The answer to a form: not loaded again.
        return;
    }
    b.phone(Some(390)).await;
    b.goto(&here).await;
    b.find("header .brand").await;
    b.assert_fits(&format!("{here} on a phone (390 px)")).await;
    b.phone(None).await;
}

/// The names a Chinese page may show as they are: the test contest's
/// title, the problem's (its Chinese title), the people.
const NAMES: &[&str] = &[
    "Test contest",
    "Mayan 游戏（NOIP 2011 提高组第一天第 3 题）",
    "alice",
    "bob",
    "admin",
    "mayan-judge",
];

/// The Chinese class: its contest, its problem, its people's logins.
const CLASS_NAMES: &[&str] = &[
    "NOIP 2011 模拟赛",
    "Mayan 游戏（NOIP 2011 提高组第一天第 3 题）",
    "lisi",
    "wangwu",
    "admin",
    "mayan-judge",
];

#[test]
fn a_contest_in_chinese_shows_every_page_of_contestants_and_teacher_in_chinese() {
    let Some(driver) = chromium_driver() else {
        return;
    };
    let server = Server::start(
        &["lisi=李四", "wangwu=王五"],
        "title = \"NOIP 2011 模拟赛\"\nlanguage = \"zh-CN\"\n",
        &["--trusted"],
    );
    runtime().block_on(async {
        // A browser that asks for English: the contest's language wins.
        let alice = Browser {
            client: driver.session_speaking("lisi-zh", "en-US,en").await,
            server: &server.url,
            who: "lisi",
        };
        alice.goto("/").await;
        alice.on_path("the sign-in page", |p| p == "/login").await;
        check_chinese_page(&alice, "/login", CLASS_NAMES).await;
        alice.sign_in_as("lisi", "lisi-pw", "李四").await;
        for path in ["/", "/statement", "/submit", "/ranking"] {
            check_chinese_page(&alice, path, CLASS_NAMES).await;
        }
        alice.goto("/statement").await;
        alice.screenshot("zh-statement").await;
        let id = alice.submit_pasted("c", WRONG_C).await;
        let statuses = alice.statuses_until_final(120).await;
        assert!(
            statuses.last().is_some_and(|s| s == "WA 答案错误"),
            "statuses {statuses:?}"
        );
        check_chinese_page(&alice, &format!("/submissions/{id}"), CLASS_NAMES).await;
        alice.screenshot("zh-submission").await;
        check_chinese_page(&alice, &format!("/submissions/{id}/replay"), CLASS_NAMES).await;
        alice.screenshot("zh-replay").await;
        check_chinese_page(&alice, "/submissions", CLASS_NAMES).await;
        alice.goto("/clarifications").await;
        alice.type_in("#question", "样例的第一步为什么合法？").await;
        alice.click("#ask").await;
        check_chinese_page(&alice, "/clarifications", CLASS_NAMES).await;
        check_chinese_page(&alice, "/no-such-page", CLASS_NAMES).await;
        alice.goto("/ranking").await;
        alice.screenshot("zh-ranking").await;
        alice.close().await;

        let teacher = Browser {
            client: driver.session_speaking("teacher-zh", "en-US,en").await,
            server: &server.url,
            who: "the teacher",
        };
        teacher.sign_in("admin", ADMIN_PASSWORD).await;
        for path in [
            "/admin",
            "/admin/submissions",
            "/admin/contestants",
            "/admin/similar",
            "/clarifications",
            &format!("/submissions/{id}"),
        ] {
            check_chinese_page(&teacher, path, CLASS_NAMES).await;
        }
        teacher.goto("/admin").await;
        teacher.screenshot("zh-teacher").await;
        teacher.click("#rejudge-all").await;
        teacher.find("#confirm").await;
        check_chinese_page(&teacher, "", CLASS_NAMES).await;
        teacher.close().await;
    });
}

#[test]
fn a_browser_that_prefers_chinese_gets_chinese_and_anyone_switches_on_every_page() {
    let Some(driver) = chromium_driver() else {
        return;
    };
    let server = Server::start(&["alice"], "", &["--trusted"]);
    runtime().block_on(async {
        // Accept-Language: zh-CN on a contest that names no language.
        let wang = Browser {
            client: driver.session_speaking("wang", "zh-CN,zh;q=0.9").await,
            server: &server.url,
            who: "a browser in Chinese",
        };
        check_chinese_page(&wang, "/login", NAMES).await;
        wang.sign_in("alice", "alice-pw").await;
        check_chinese_page(&wang, "/ranking", NAMES).await;
        wang.close().await;

        // An English browser switches to 中文 and back on every page,
        // signed out, then signed in.
        let alice = Browser {
            client: driver.session_speaking("alice-switch", "en-US,en").await,
            server: &server.url,
            who: "alice",
        };
        let pages: &[&str] = &[
            "/login",
            "/",
            "/statement",
            "/submit",
            "/submissions",
            "/ranking",
            "/clarifications",
        ];
        for (k, path) in pages.iter().enumerate() {
            if k == 1 {
                alice.sign_in("alice", "alice-pw").await;
            }
            alice.goto(path).await;
            assert_eq!(page_lang(&alice).await, "en", "{path} before the switch");
            alice.click("#lang-zh-CN").await;
            alice.on_path(path, |p| p == *path).await;
            assert_eq!(page_lang(&alice).await, "zh-CN", "{path} after 中文");
            assert_eq!(alice.find("#lang-en").await.text().await.unwrap(), "English");
            alice.click("#lang-en").await;
            alice.on_path(path, |p| p == *path).await;
            assert_eq!(page_lang(&alice).await, "en", "{path} after English");
        }
        alice.close().await;
    });
}

/// The page's `lang`.
async fn page_lang(b: &Browser<'_>) -> String {
    b.js("document.documentElement.lang")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// ChromeDriver driving Chromium; `None` where either is missing (see
/// `util::tool`).
fn chromium_driver() -> Option<Driver> {
    let chromium = tool("chromium")?;
    Some(Driver::start(&tool("chromedriver")?, &chromium))
}

/// The teacher reaches the class's analysis from the teacher's page: charts
/// (SVG) beside their tables, no console error, no overflow at 1280 and 390
/// pixels; a failing submission's page shows its smallest board the same
/// way (photographed: `analysis`, `analysis-phone`, `counterexample`).
#[test]
fn the_teacher_reads_where_the_class_fails_and_a_student_their_smallest_board() {
    let Some(chromium) = tool("chromium") else { return };
    let Some(chromedriver) = tool("chromedriver") else {
        return;
    };
    let server = Server::start(
        &["alice", "bob"],
        "[counterexamples]\nsearch = true\n",
        &["--trusted"],
    );
    let driver = Driver::start(&chromedriver, &chromium);
    let minus_one = "#include <stdio.h>\nint main(void){ puts(\"-1\"); return 0; }\n";
    let wrong =
        crate::serve_util::submission_number(&server.contestant("alice").submit("mayan.c", minus_one));
    let right =
        crate::serve_util::submission_number(&server.contestant("bob").submit("mayan.c", &accepted_c()));
    let mut teacher_api = server.client();
    teacher_api.api_sign_in("admin", ADMIN_PASSWORD);
    teacher_api.wait_judged(right, 240);
    let deadline = Instant::now() + Duration::from_secs(240);
    while !teacher_api
        .get(&format!("/api/v1/submissions/{wrong}"))
        .body
        .contains("\"state\":\"found\"")
    {
        assert!(
            Instant::now() < deadline,
            "no counterexample for submission {wrong}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    runtime().block_on(async {
        let teacher = Browser {
            client: driver.session("teacher", true).await,
            server: &server.url,
            who: "the teacher",
        };
        teacher.sign_in("admin", ADMIN_PASSWORD).await;
        teacher.visit_cleanly("/admin").await;
        teacher.click("#analysis").await;
        teacher.on_path("the analysis", |p| p == "/admin/analysis").await;
        let charts = teacher.client.find_all(Locator::Css("svg.chart")).await.unwrap();
        assert!(charts.len() >= 4, "{} charts", charts.len());
        let tables = teacher
            .client
            .find_all(Locator::Css(".analysis table"))
            .await
            .unwrap();
        assert_eq!(tables.len(), 5, "a table beside every chart");
        let back = teacher.find("#back").await.attr("href").await.unwrap();
        assert_eq!(back.as_deref(), Some("/admin"));
        teacher.assert_no_console_error("the analysis").await;
        teacher.assert_fits("the analysis at 1280 px").await;
        teacher.screenshot("analysis").await;
        teacher.phone(Some(390)).await;
        teacher.visit_cleanly("/admin/analysis").await;
        teacher.assert_fits("the analysis on a phone (390 px)").await;
        teacher.screenshot("analysis-phone").await;
        teacher.visit_cleanly(&format!("/submissions/{wrong}")).await;
        teacher.find("#counterexample svg.b").await;
        teacher
            .assert_fits("the counterexample on a phone (390 px)")
            .await;
        teacher.phone(None).await;
        teacher.visit_cleanly(&format!("/submissions/{wrong}")).await;
        teacher.assert_fits("the counterexample at 1280 px").await;
        teacher.screenshot("counterexample").await;
        teacher.assert_no_console_error("the counterexample").await;
        teacher.visit_cleanly("/admin").await;
        teacher.click("#similar").await;
        teacher
            .on_path("the copied programs", |p| p == "/admin/similar")
            .await;
    });
}
