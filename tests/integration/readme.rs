//! The README as a newcomer reads it: its first block (the build and test
//! commands), its quick starts run as written, and every link of the README
//! and of `docs/` reaching a file and a heading that exist.
//!
//! A quick start is the fenced block right after a marker line
//! `<!-- quickstart: NAME [exit=CODE] [after=OTHER] -->`. Each runs with
//! `bash -euo pipefail` in a copy of the checkout (the blocks use
//! `tests/contest/` and `reference/`), with `mayan-judge` on PATH (this
//! build's binary) and a private compile cache, and must end with CODE
//! (default 0). `after=OTHER` continues where OTHER's shell left off: OTHER
//! runs first and the block starts in OTHER's last working folder, as a
//! reader typing both in one terminal. The `serve` block runs up to its
//! server, which is started on a free port and asked for its first page.

use crate::util::{have, manifest};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Every quick start, each run by a test below.
const QUICK_STARTS: &[&str] = &[
    "teacher-files",
    "teacher-online",
    "problem-setter",
    "package-ci",
    "other-judges",
];

fn readme() -> String {
    std::fs::read_to_string(manifest().join("README.md")).expect("README.md")
}

/// A marked block of the README.
#[derive(Debug, Clone)]
struct QuickStart {
    name: String,
    exit: i32,
    after: Option<String>,
    code: String,
}

/// The marked blocks, in the README's order.
fn quick_starts() -> Vec<QuickStart> {
    let text = readme();
    let mut lines = text.lines();
    let mut out = Vec::new();
    while let Some(line) = lines.next() {
        let Some(spec) = line
            .trim()
            .strip_prefix("<!-- quickstart:")
            .and_then(|s| s.strip_suffix("-->"))
        else {
            continue;
        };
        let mut words = spec.split_whitespace();
        let name = words.next().expect("a quick start's name").to_string();
        let (mut exit, mut after) = (0, None);
        for w in words {
            match w.split_once('=') {
                Some(("exit", code)) => exit = code.parse().expect("exit=CODE"),
                Some(("after", other)) => after = Some(other.to_string()),
                _ => panic!("quick start {name}: unknown option {w}"),
            }
        }
        let fence = lines.next().unwrap_or_default();
        assert_eq!(
            fence, "```sh",
            "quick start {name}: the marker is right before a ```sh fence"
        );
        let mut code = String::new();
        for l in lines.by_ref() {
            if l == "```" {
                break;
            }
            code.push_str(l);
            code.push('\n');
        }
        out.push(QuickStart {
            name,
            exit,
            after,
            code,
        });
    }
    out
}

fn quick_start(name: &str) -> QuickStart {
    quick_starts()
        .into_iter()
        .find(|q| q.name == name)
        .unwrap_or_else(|| panic!("README.md has no quick start marked `<!-- quickstart: {name} -->`"))
}

// ---- the place a block runs in ---------------------------------------------------

/// A copy of the checkout (without `target/` and `.git`), a folder whose
/// only file is `mayan-judge` (this build's binary) for PATH, and a cache.
struct Lab {
    dir: tempfile::TempDir,
}

impl Lab {
    fn new() -> Lab {
        let dir = tempfile::tempdir().unwrap();
        let checkout = dir.path().join("checkout");
        copy_tree(&manifest(), &checkout, true);
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        std::os::unix::fs::symlink(
            assert_cmd::cargo::cargo_bin!("mayan-judge"),
            bin.join("mayan-judge"),
        )
        .unwrap();
        Lab { dir }
    }

    fn checkout(&self) -> PathBuf {
        self.dir.path().join("checkout")
    }

    /// `bash -euo pipefail -c script` in `cwd`, as a reader's shell.
    fn bash(&self, script: &str, cwd: &Path) -> Command {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![self.dir.path().join("bin")];
        dirs.extend(std::env::split_paths(&path));
        let mut c = Command::new("bash");
        c.args(["-euo", "pipefail", "-c", script])
            .current_dir(cwd)
            .env("PATH", std::env::join_paths(dirs).unwrap())
            .env("MAYAN_JUDGE_CACHE", self.dir.path().join("cache"));
        c
    }

    /// Runs a quick start (after the one it continues, if any) and checks
    /// its exit code; its output, and the folder its shell ended in.
    fn run(&self, q: &QuickStart, timeout: Duration) -> (Output, PathBuf) {
        let cwd = match &q.after {
            Some(other) => {
                let (_, left_in) = self.run(&quick_start(other), timeout);
                left_in
            }
            None => self.checkout(),
        };
        let pwd_file = self.dir.path().join(format!("{}.pwd", q.name));
        // Written only when every line succeeded (bash -e).
        let script = format!("{}printf '%s' \"$PWD\" > '{}'\n", q.code, pwd_file.display());
        let out = wait_within(self.bash(&script, &cwd), timeout, &q.name);
        assert_eq!(
            out.status.code(),
            Some(q.exit),
            "quick start {}: exit status {:?}, the README says {}\n--- block ---\n{}--- stdout ---\n{}--- stderr ---\n{}",
            q.name,
            out.status,
            q.exit,
            q.code,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let left_in = std::fs::read_to_string(&pwd_file)
            .map(PathBuf::from)
            .unwrap_or(cwd);
        (out, left_in)
    }
}

/// Copies `from` into `to`, links as links; at the top, `target/` and
/// `.git` are left out.
fn copy_tree(from: &Path, to: &Path, top: bool) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if top && (name == "target" || name == ".git") {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src).unwrap(), &dst).unwrap();
        } else if kind.is_dir() {
            copy_tree(&src, &dst, false);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Runs `cmd` to its end, killing it after `timeout`.
fn wait_within(mut cmd: Command, timeout: Duration, what: &str) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = stdout.read_to_end(&mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = stderr.read_to_end(&mut b);
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!("quick start {what}: still running after {timeout:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// ---- the first lines ---------------------------------------------------------------

#[test]
fn readme_opens_with_the_build_and_the_test_command() {
    let readme = readme();
    let mut lines = readme.lines();
    assert_eq!(lines.next(), Some("# mayan-judge"), "the title first");
    assert_eq!(lines.next(), Some(""));
    assert_eq!(lines.next(), Some("```sh"), "a code block right under the title");
    let block: Vec<&str> = lines.take_while(|l| *l != "```").collect();
    let command = |l: &&str| l.split('#').next().unwrap().trim().to_string();
    let commands: Vec<String> = block.iter().map(command).collect();
    assert_eq!(
        commands,
        [
            "cargo run --release -- grade reference/mayan/accepted/backtrack.cpp",
            "cargo test"
        ],
        "the README's first block"
    );
    assert!(
        manifest()
            .join("reference/mayan/accepted/backtrack.cpp")
            .is_file(),
        "the first command grades reference/mayan/accepted/backtrack.cpp"
    );
}

#[test]
fn readme_every_quick_start_is_marked_and_run_by_a_test() {
    let names: Vec<String> = quick_starts().into_iter().map(|q| q.name).collect();
    let expected: Vec<String> = QUICK_STARTS.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        names.iter().collect::<BTreeSet<_>>(),
        expected.iter().collect::<BTreeSet<_>>(),
        "the README's quick starts and the tests that run them"
    );
    assert_eq!(
        names.len(),
        expected.len(),
        "a quick start's name twice: {names:?}"
    );
    // Every shell block of the Quick starts section is one of them.
    let readme = readme();
    let section = readme
        .split("\n## Quick starts\n")
        .nth(1)
        .expect("a `## Quick starts` section")
        .split("\n## ")
        .next()
        .unwrap();
    let fences = section.lines().filter(|l| *l == "```sh").count();
    let marked = section
        .lines()
        .filter(|l| l.starts_with("<!-- quickstart:"))
        .count();
    assert_eq!(
        fences, marked,
        "an unmarked ```sh block in the Quick starts: it would never be run"
    );
}

// ---- the quick starts --------------------------------------------------------------

#[test]
fn readme_quick_start_teacher_grading_collected_files() {
    if !have("gcc") || !have("python3") {
        return;
    }
    let lab = Lab::new();
    let (out, _) = lab.run(&quick_start("teacher-files"), Duration::from_secs(300));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("rank  contestant  total"),
        "the ranking:\n{stdout}"
    );
    let bob = stdout
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("bob"))
        .unwrap_or_else(|| panic!("bob's row:\n{stdout}"));
    assert_eq!(
        bob.split_whitespace().collect::<Vec<_>>(),
        ["1", "bob", "30", "AC", "AC", "AC"]
    );
    assert!(
        stdout.contains("frank: 2 programs"),
        "why frank was not graded:\n{stdout}"
    );
    let marks = lab.checkout().join("marks");
    let csv = std::fs::read_to_string(marks.join("marks.csv")).expect("marks/marks.csv");
    assert!(csv.starts_with("\u{feff}contestant,total,"), "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("bob,30,")), "{csv}");
    let html = std::fs::read_to_string(marks.join("marks.html")).expect("marks/marks.html");
    assert!(html.contains("heidi"), "the page names the students");
}

#[test]
fn readme_quick_start_problem_setter_and_package_ci() {
    if !have("g++") {
        return;
    }
    let lab = Lab::new();
    let setter = quick_start("problem-setter");
    let (out, folder) = lab.run(&setter, Duration::from_secs(300));
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(
        all.contains("wrote testdata/mayan-class/secret/gen-7-1.in"),
        "gen:\n{all}"
    );
    assert!(all.contains("answer: -1"), "gen --impossible:\n{all}");
    assert!(all.contains("validate: 10 tests, 0 problems"), "validate:\n{all}");
    assert!(all.lines().any(|l| l.starts_with("ok")), "check says ok:\n{all}");
    assert_eq!(
        folder.canonicalize().unwrap(),
        lab.checkout().join("setter").canonicalize().unwrap(),
        "the block ends in its package's folder"
    );

    // package-ci runs the setter's block again first, in a fresh copy.
    let lab = Lab::new();
    let ci = quick_start("package-ci");
    assert_eq!(ci.after.as_deref(), Some("problem-setter"));
    let (out, folder) = lab.run(&ci, Duration::from_secs(600));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("accepted/backtrack.cpp") && stdout.contains("10 AC"),
        "the accepted program:\n{stdout}"
    );
    assert!(stdout.contains("wrong_answer/left_first.cpp"), "{stdout}");
    assert!(stdout.contains("3 checks, 0 mismatches"), "{stdout}");
    let junit = std::fs::read_to_string(folder.join("ci.xml")).expect("ci.xml");
    assert!(
        junit.contains("<testsuites") && junit.contains("failures=\"0\""),
        "{junit}"
    );
}

#[test]
fn readme_where_one_machine_is_not_enough_exports_for_domjudge_dmoj_and_cms() {
    let lab = Lab::new();
    let (out, _) = lab.run(&quick_start("other-judges"), Duration::from_secs(300));
    let regional = lab.checkout().join("regional");
    for file in [
        "domjudge/mayan/problem.yaml",
        "domjudge/mayan/.timelimit",
        "domjudge/mayan/output_validators",
        "dmoj/mayan/init.yml",
        "dmoj/mayan/checker.py",
        "cms/mayan/task.yaml",
        "cms/mayan/check/checker",
    ] {
        assert!(
            regional.join(file).exists(),
            "regional/{file} is missing\n{}",
            text(&out.stderr)
        );
    }
}

/// The classroom's server: the block's lines, then `serve` on a free port
/// (`--listen 127.0.0.1:0`), asked for its first page, stopped with SIGTERM.
/// Needs `serve` (docs/SERVE.md).
#[test]
fn readme_quick_start_teacher_running_a_class_online() {
    let q = quick_start("teacher-online");
    let lab = Lab::new();
    let (before, serve) = q
        .code
        .split_once("mayan-judge serve")
        .expect("the block starts `mayan-judge serve`");
    assert!(
        before.is_empty() || before.ends_with('\n'),
        "`mayan-judge serve` starts a line"
    );
    let (serve, after) = serve.split_once('\n').unwrap_or((serve, ""));
    assert!(after.trim().is_empty(), "the server is the block's last command");
    // The line without its comment, on a free port.
    let serve = serve.split(" #").next().unwrap().trim_end();
    let script = format!("{before}exec mayan-judge serve{serve} --listen 127.0.0.1:0\n");
    let stderr_path = lab.dir.path().join("serve.stderr");
    let mut server = Server(
        lab.bash(&script, &lab.checkout())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr_path).unwrap())
            .spawn()
            .expect("bash"),
    );
    let stderr = || std::fs::read_to_string(&stderr_path).unwrap_or_default();

    // Its stdout, line by line, until `listening on http://ADDR`.
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = server.0.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut printed = String::new();
    let addr = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                if let Some(addr) = line.trim().strip_prefix("listening on http://") {
                    break addr.trim_end_matches('/').to_string();
                }
                printed.push_str(&line);
                printed.push('\n');
            }
            Err(RecvTimeoutError::Timeout) => panic!(
                "no `listening on http://ADDR` line within 60 s\n--- stdout ---\n{printed}--- stderr ---\n{}",
                stderr()
            ),
            Err(RecvTimeoutError::Disconnected) => {
                let status = server.0.wait().unwrap();
                panic!(
                    "serve ended ({status}) before a `listening on http://ADDR` line\n\
                     --- stdout ---\n{printed}--- stderr ---\n{}",
                    stderr()
                );
            }
        }
    };
    for word in ["alice", "bob", "admin"] {
        assert!(
            printed.to_lowercase().contains(word),
            "the passwords are printed before `listening on` (no {word}):\n{printed}"
        );
    }

    let status = http_status(&addr, "/");
    assert_eq!(status, 200, "GET http://{addr}/\nstderr:\n{}", stderr());

    // Stopped as a teacher stops it; the help says: exit 0.
    let exit = server.stop();
    assert!(exit.success(), "serve after SIGTERM: {exit:?}\n{}", stderr());

    let class = lab.checkout().join("class");
    assert!(
        class.join("contest.toml").is_file(),
        "the block makes class/contest.toml"
    );
    let passwords = class.join("passwords.csv");
    let meta = std::fs::metadata(&passwords).expect("passwords.csv beside contest.toml");
    assert_eq!(meta.permissions().mode() & 0o777, 0o600, "passwords.csv's mode");
    let csv = std::fs::read_to_string(&passwords).unwrap();
    assert!(
        csv.contains("alice") && csv.contains("bob"),
        "passwords.csv:\n{csv}"
    );
    assert!(
        manifest().join("docs/SERVE.md").is_file(),
        "the README links docs/SERVE.md"
    );
}

/// The server's process (bash, then `serve` itself through `exec`); killed
/// when dropped, also when a check fails.
struct Server(std::process::Child);

impl Server {
    /// SIGTERM, as Ctrl-C or a service manager stops it; its exit status.
    fn stop(&mut self) -> std::process::ExitStatus {
        use nix::sys::signal::{Signal, kill};
        let _ = kill(nix::unistd::Pid::from_raw(self.0.id() as i32), Signal::SIGTERM);
        let start = Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "serve still running 20 s after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// The status of `GET path` on `addr`, following up to three redirects on
/// the same server.
fn http_status(addr: &str, path: &str) -> u16 {
    let mut path = path.to_string();
    for _ in 0..4 {
        let mut s = std::net::TcpStream::connect(addr).expect("connect to the server");
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        let _ = BufReader::new(s).read_to_string(&mut response);
        let mut lines = response.lines();
        let status_line = lines.next().unwrap_or_default();
        let status: u16 = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("not an HTTP response: {response:?}"));
        if !(300..400).contains(&status) {
            return status;
        }
        let location = lines
            .take_while(|l| !l.is_empty())
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("location").then(|| v.trim().to_string())
            })
            .unwrap_or_else(|| panic!("a redirect without Location: {response:?}"));
        path = match location.strip_prefix(&format!("http://{addr}")) {
            Some(rest) => rest.to_string(),
            None => location,
        };
        assert!(path.starts_with('/'), "a redirect off the server: {path}");
    }
    panic!("more than three redirects from http://{addr}/");
}

// ---- links -------------------------------------------------------------------------

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces
/// as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The text outside fenced code blocks.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn anchors(markdown: &str) -> BTreeSet<String> {
    prose(markdown)
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of `[text](target)` links and images, code spans left out.
fn links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(markdown).lines() {
        // Code spans hold no links.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

#[test]
fn readme_and_docs_links_reach_files_and_headings_that_exist() {
    let root = manifest();
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            // docs/SERVE.md comes with `serve`: the serve test checks it.
            if target.ends_with("docs/SERVE.md") && !target.exists() {
                continue;
            }
            checked += 1;
            let name = page.strip_prefix(&root).unwrap().display().to_string();
            if !target.exists() {
                broken.push(format!("{name}: {link}: no such file"));
                continue;
            }
            if !fragment.is_empty() {
                let body = std::fs::read_to_string(&target).unwrap_or_default();
                if !anchors(&body).contains(fragment) {
                    broken.push(format!("{name}: {link}: no heading #{fragment}"));
                }
            }
        }
    }
    assert!(
        checked > 30,
        "only {checked} links found: is the link reader broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn links_into_the_readme_from_code_and_scripts_name_its_headings() {
    // A link to one of the README's sections in a help text, a comment or a
    // script: the section must still be there (the reference moved to docs/).
    let root = manifest();
    let headings = anchors(&readme());
    let mut broken = Vec::new();
    for dir in ["src", "tests", "docs", ".ci", "problems"] {
        for entry in walkdir::WalkDir::new(root.join(dir)).into_iter().flatten() {
            let path = entry.path();
            if !entry.file_type().is_file() {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            for (i, line) in text.lines().enumerate() {
                for (at, _) in line.match_indices("README.md#") {
                    let fragment: String = line[at + "README.md#".len()..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                        .collect();
                    if !fragment.is_empty() && !headings.contains(&fragment) {
                        let name = path.strip_prefix(&root).unwrap().display();
                        broken.push(format!("{name}:{}: README.md#{fragment}", i + 1));
                    }
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to README sections that are gone:\n{}",
        broken.join("\n")
    );
}
