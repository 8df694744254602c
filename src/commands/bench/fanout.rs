//! `/events` fan-out, a part of `bench --only contest-scale`: `streams`
//! signed-in pages (sessions written into the database while the server
//! is stopped, as the sign-in form stores them: no argon2 per page), each
//! with its `/events` stream open, while a burst of verdicts is judged.
//! Each verdict's moment is the teacher's stream hearing its final status
//! (sent as the verdict is stored, before the ranking event); each page's
//! delay is from there to the first `ranking` event whose `changes` count
//! includes it. The same burst is judged once with no page open and once
//! with them, and the server's CPU time over each (its process and every
//! process below it) gives the cost of the watchers as a ratio.

use super::busy::tree_cpu;
use super::client::Http;
use super::serve_load::{Server, submit};
use crate::server::auth::{SESSION_COOKIE, token_hash};
use crate::server::db::Db;
use anyhow::{Context, Result, ensure};
use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One burst judged: its verdicts' delays to every page, and the server's
/// CPU time over it.
pub struct Burst {
    /// Each page's delay for each verdict, sorted.
    pub delays: Vec<Duration>,
    /// The server's CPU time from the first submission to the last verdict.
    pub cpu: Duration,
    /// The burst's wall time, to the last verdict.
    pub wall: Duration,
}

/// Raises this process's limit of open files to its hard limit: a
/// thousand streams are a thousand sockets, over a common soft limit of
/// 1,024.
pub fn raise_open_files() {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    if let Ok((_, hard)) = getrlimit(Resource::RLIMIT_NOFILE) {
        let _ = setrlimit(Resource::RLIMIT_NOFILE, hard, hard);
    }
}

/// Writes `n` sessions of the contestants (`users`' ids, round robin) and
/// one of the teacher into the stopped server's database; their tokens
/// (the teacher's last).
pub fn sessions(db: &std::path::Path, users: &[i64], admin: i64, n: usize) -> Result<Vec<String>> {
    let db = Db::open(db).context("opening the benchmark's database")?;
    let expires = crate::server::now() + 24 * 3600;
    let mut tokens = Vec::with_capacity(n + 1);
    for i in 0..=n {
        let user = if i == n { admin } else { users[i % users.len()] };
        let token = format!("fanout-{i}-{:016x}", fastrand::u64(..));
        db.add_session(&token_hash(&token), user, &token, expires)?;
        tokens.push(token);
    }
    Ok(tokens)
}

/// What one stream heard: its count at opening, then each `ranking`
/// event's count (or each final status, for the teacher's) and when.
type Heard = (u64, Vec<(u64, Instant)>);

/// Opens `/events` with `token`'s session and reads it on a thread of
/// its own until it heard `want` changes (or `want` final statuses, for
/// the `teacher`'s, numbered from 1) or `until` passes.
fn listen(url: &str, token: &str, teacher: bool, want: u64, until: Instant) -> Result<mpsc::Receiver<Heard>> {
    let address = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address)?;
    write!(
        stream,
        "GET /events HTTP/1.1\r\nhost: x\r\ncookie: {SESSION_COOKIE}={token}\r\naccept: text/event-stream\r\n\r\n"
    )?;
    stream.set_read_timeout(Some(Duration::from_millis(500)))?;
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new().stack_size(64 << 10).spawn(move || {
        let (mut opened, mut heard, mut finals) = (0, Vec::new(), 0);
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        while Instant::now() < until {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue;
                }
                Err(_) => break,
            }
            let at = Instant::now();
            if let Some(n) = line.trim().strip_prefix(":changes ") {
                opened = n.parse().unwrap_or(0);
            } else if let Some(data) = line.trim().strip_prefix("data:") {
                let v: serde_json::Value = serde_json::from_str(data.trim()).unwrap_or_default();
                if teacher && v["final"] == true {
                    finals += 1;
                    heard.push((finals, at));
                } else if let (false, Some(n)) = (teacher, v["changes"].as_u64()) {
                    heard.push((n, at));
                }
            }
            let (from, last) = if teacher {
                (0, finals)
            } else {
                (opened, heard.last().map_or(0, |h| h.0))
            };
            if last >= from + want {
                break;
            }
        }
        let _ = tx.send((opened, heard));
    })?;
    Ok(rx)
}

/// Judges a burst of `programs` quick programs (submitted by the
/// `submitters`' API clients, round robin) with one page open on each of
/// `tokens` (none: the burst unwatched) and the teacher's stream on
/// `teacher`; waits up to `wait` for every verdict.
pub fn burst(
    server: &Server,
    submitters: &[Http],
    teacher: &str,
    tokens: &[String],
    programs: std::ops::Range<usize>,
    wait: Duration,
) -> Result<Burst> {
    let url = server.url();
    let until = Instant::now() + wait;
    let n = programs.len();
    let pages: Vec<_> = tokens
        .iter()
        .map(|t| listen(url, t, false, n as u64, until))
        .collect::<Result<_>>()?;
    let finals = listen(url, teacher, true, n as u64, until)?;
    // Every stream open and past its opening comment.
    std::thread::sleep(Duration::from_millis(500 + tokens.len() as u64));
    let pid = server.pid();
    let cpu_before = tree_cpu(pid);
    let start = Instant::now();
    for (k, i) in programs.enumerate() {
        let h = &submitters[k % submitters.len()];
        ensure!(
            submit(
                h,
                &super::serve_load::program(i, false),
                super::client::Phase::Load
            )?
            .is_some(),
            "a submission of the burst was refused"
        );
    }
    let (_, verdicts) = finals.recv_timeout(wait + Duration::from_secs(5))?;
    ensure!(verdicts.len() >= n, "{} verdicts of {n} heard", verdicts.len());
    let last = verdicts[n - 1].1;
    let cpu = tree_cpu(pid)
        .zip(cpu_before)
        .map_or(Duration::ZERO, |(b, a)| b.saturating_sub(a));
    let mut delays = Vec::new();
    for page in pages {
        let (opened, heard) = page.recv_timeout(wait)?;
        for (k, stored) in verdicts.iter().take(n) {
            let reached = heard.iter().find(|(c, _)| *c >= opened + k).map(|&(_, at)| at);
            delays.push(reached.map_or(Duration::MAX, |at| at.saturating_duration_since(*stored)));
        }
    }
    delays.sort();
    Ok(Burst {
        delays,
        cpu,
        wall: last.saturating_duration_since(start),
    })
}
