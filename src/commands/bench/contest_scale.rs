//! `mayan-judge bench --only contest-scale`: every read of a contest as it
//! grows. A real `serve` of 200 contestants is filled through the database
//! (`Db::import_judged`) to 100, then 10,000, then 20,000 judged
//! submissions, started again on each (the ranking is kept from the start),
//! and four readers refresh at once, each in turn: the API's ranking, the
//! API's own submissions (a page of 50), the ranking page, the teacher's
//! submissions page and `/admin/analysis`. Each read's p99 at the largest
//! size is held against twice its p99 at 100 (or 10 ms, if more) and 50 ms.

use super::super::progress::Progress;
use super::client::{Http, Stats};
use super::serve_load::{ADMIN_PASSWORD, LoadOptions, Server, contestant_names, password, percentiles};
use crate::judge::grading::{SubmissionReport, TestResult};
use crate::puzzle::verdict::Verdict;
use crate::server::db::{Db, Judged};
use anyhow::{Context, Result, ensure};
use std::time::{Duration, Instant};

/// What the contest is.
pub struct ScaleOptions {
    /// Contestants.
    pub contestants: usize,
    /// The sizes measured, judged submissions stored (increasing).
    pub sizes: Vec<usize>,
    /// Rounds of the five reads each reader makes at each size.
    pub rounds: usize,
    /// No progress lines.
    pub quiet: bool,
}

/// Readers refreshing at once.
const READERS: usize = 4;

/// The pause between two requests of a reader: under the per-user rate
/// limit (the teacher's reads of the four readers together included).
const PAUSE: Duration = Duration::from_millis(60);

/// The reads, as the table names them, and their paths.
const READS: [(&str, &str); 5] = [
    ("API ranking", "/api/v1/ranking"),
    ("API own submissions (50 rows)", "/api/v1/submissions?limit=50"),
    ("ranking page", "/ranking"),
    ("teacher's submissions page", "/admin/submissions"),
    ("/admin/analysis", "/admin/analysis"),
];

/// Tests in each stored report (the bundled problem's number).
const TESTS: usize = 10;

/// Every read's latencies at one size, in the order of [`READS`].
struct Measured {
    size: usize,
    reads: Vec<Vec<Duration>>,
    resident: Option<u64>,
}

/// Runs the benchmark and prints its report.
pub fn run(o: &ScaleOptions) -> Result<()> {
    ensure!(
        o.contestants >= READERS && !o.sizes.is_empty(),
        "too small a contest"
    );
    let progress = Progress::new(o.quiet, 0, "steps");
    progress.phase("starting mayan-judge serve");
    // No counterexample search: it would search the thousands of failing
    // submissions stored (each found changes the results, and the
    // analysis is drawn again), which is not what a read costs.
    let load = LoadOptions {
        counterexamples: false,
        ..LoadOptions::quiet_server(o.contestants, 0, 2)
    };
    let mut server = Server::start(&load)?;
    let mut stored = 0;
    let mut measured = Vec::new();
    let fill_start = Instant::now();
    for &size in &o.sizes {
        server.stop();
        progress.phase(&format!("filling the contest to {size} judged submissions"));
        fill(&server.dir().join("mayan-judge.db"), stored, size, o.contestants)?;
        stored = stored.max(size);
        server.restart(load.jobs)?;
        progress.phase(&format!("{READERS} readers at {size} submissions"));
        let reads = read_all(server.url(), o.rounds)?;
        measured.push(Measured {
            size,
            reads,
            resident: server.resident_memory(),
        });
    }
    let fanout = fan_out(&mut server, o, &progress)?;
    progress.finish();
    report(o, &measured, server.peak_memory(), fill_start.elapsed());
    report_fan_out(&fanout);
    Ok(())
}

/// Pages open at once on `/events` in the fan-out.
const STREAMS: usize = 1000;

/// Verdicts in each burst of the fan-out.
const BURST: usize = 40;

/// The fan-out at the largest size: the same burst judged unwatched,
/// then with [`STREAMS`] pages open; and the server's resident memory
/// with them.
struct FanOut {
    unwatched: super::fanout::Burst,
    watched: super::fanout::Burst,
    /// The same burst while the four readers read (no page open).
    read: super::fanout::Burst,
    resident: Option<u64>,
}

fn fan_out(server: &mut Server, o: &ScaleOptions, progress: &Progress) -> Result<FanOut> {
    super::fanout::raise_open_files();
    server.stop();
    let db = server.dir().join("mayan-judge.db");
    let users = Db::open(&db)?.users()?;
    let admin = users.iter().find(|u| u.is_admin).context("no teacher")?.id;
    let ids: Vec<i64> = users.iter().filter(|u| !u.is_admin).map(|u| u.id).collect();
    let mut tokens = super::fanout::sessions(&db, &ids[..o.contestants.min(ids.len())], admin, STREAMS)?;
    let teacher = tokens.pop().context("no teacher's session")?;
    server.restart(2)?;
    let stats = Stats::default();
    let submitters: Vec<Http> = contestant_names(16.min(o.contestants))
        .map(|name| {
            let mut h = Http::new(server.url(), &stats);
            h.api_sign_in(&name, &password(&name)).map(|()| h)
        })
        .collect::<Result<_>>()?;
    let wait = Duration::from_secs(600);
    progress.phase(&format!("a burst of {BURST} verdicts, no page open"));
    let unwatched = super::fanout::burst(server, &submitters, &teacher, &[], 0..BURST, wait)?;
    progress.phase(&format!("the same burst, {STREAMS} pages open on /events"));
    let watched = super::fanout::burst(server, &submitters, &teacher, &tokens, BURST..2 * BURST, wait)?;
    let resident = server.resident_memory();
    progress.phase(&format!("the same burst, {READERS} readers reading"));
    let readers = sign_in_readers(server.url(), &stats)?;
    let read = std::thread::scope(|s| {
        let reading = s.spawn(|| read_with(&readers, o.rounds));
        let burst = super::fanout::burst(server, &submitters, &teacher, &[], 2 * BURST..3 * BURST, wait);
        let reads = reading
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("a reader panicked")));
        burst.and_then(|b| reads.map(|_| b))
    })?;
    Ok(FanOut {
        unwatched,
        watched,
        read,
        resident,
    })
}

fn report_fan_out(f: &FanOut) {
    let secs = |d: Duration| d.as_secs_f64();
    let p99 = percentiles(&f.watched.delays).map_or(f64::INFINITY, |p| p[2]);
    let ok = |b: bool| if b { "ok" } else { "MISSED" };
    println!(
        "/events fan-out: {STREAMS} pages open, a burst of {BURST} verdicts: delay from a verdict stored to each page, p99 {p99:.0} ms ({}: under 1 s)",
        ok(p99 < 1000.0)
    );
    let ratio = secs(f.watched.cpu) / secs(f.unwatched.cpu).max(1e-9);
    println!(
        "  server CPU over the burst: {:.2} s watched, {:.2} s unwatched: {ratio:.2}x ({}: at most 1.5x)",
        secs(f.watched.cpu),
        secs(f.unwatched.cpu),
        ok(ratio <= 1.5)
    );
    println!(
        "  judged: {:.1}/s watched, {:.1}/s unwatched ({:.2}x)",
        BURST as f64 / secs(f.watched.wall).max(1e-9),
        BURST as f64 / secs(f.unwatched.wall).max(1e-9),
        secs(f.unwatched.wall) / secs(f.watched.wall).max(1e-9)
    );
    if let Some(rss) = f.resident {
        let mib = rss as f64 / (1 << 20) as f64;
        println!(
            "  server resident with the pages open: {mib:.0} MiB ({}: under 256 MiB)",
            ok(mib < 256.0)
        );
    }
    println!(
        "judging while {READERS} readers read: {:.1}/s, against {:.1}/s with none ({:.2}x)",
        BURST as f64 / secs(f.read.wall).max(1e-9),
        BURST as f64 / secs(f.unwatched.wall).max(1e-9),
        secs(f.unwatched.wall) / secs(f.read.wall).max(1e-9)
    );
}

/// Adds judged submissions to the database until it holds `to` (it holds
/// `from`), spread over the contestants and three hours, their scores
/// rising with each contestant's skill and the time.
fn fill(db: &std::path::Path, from: usize, to: usize, contestants: usize) -> Result<()> {
    let db = Db::open(db).context("opening the benchmark's database")?;
    let users: Vec<i64> = db
        .users()?
        .into_iter()
        .filter(|u| !u.is_admin && u.name.starts_with('c'))
        .map(|u| u.id)
        .collect();
    ensure!(
        users.len() == contestants,
        "the contest has {} contestants",
        users.len()
    );
    let now = crate::server::now();
    let mut rng = fastrand::Rng::with_seed(59 + from as u64);
    let rows: Vec<(i64, i64, Judged)> = (from..to)
        .map(|i| {
            let skill = (i % users.len()) as f64 / users.len() as f64;
            let submitted = now - 3 * 3600 + (i as i64 * 3600) / 10_000;
            (users[i % users.len()], submitted, judged(skill, &mut rng))
        })
        .collect();
    db.import_judged("C", "mayan.c", b"/* contest-scale benchmark */", &rows)?;
    Ok(())
}

/// A judged submission whose tests each pass with probability `skill`.
fn judged(skill: f64, rng: &mut fastrand::Rng) -> Judged {
    let mut r = SubmissionReport::new("mayan.c".into(), "C", 100);
    for t in 0..TESTS {
        let mut test = TestResult::new(format!("{}", t + 1), b"");
        test.verdict = if rng.f64() < skill {
            Verdict::Accepted
        } else {
            Verdict::WrongAnswer
        };
        test.points = if test.verdict == Verdict::Accepted { 10 } else { 0 };
        r.tests.push(test);
    }
    r.score = r.tests.iter().map(|t| t.points).sum();
    Judged::of(&r)
}

/// The four readers, each signed in as a contestant (the API and the
/// ranking page) and as the teacher (one after the other: a name's
/// sign-ins are checked one at a time), making `rounds` rounds of the
/// reads at once; every read's latencies.
fn read_all(url: &str, rounds: usize) -> Result<Vec<Vec<Duration>>> {
    let stats = Stats::default();
    let readers = sign_in_readers(url, &stats)?;
    read_with(&readers, rounds)
}

/// The four readers, signed in.
fn sign_in_readers<'a>(url: &'a str, stats: &'a Stats) -> Result<Vec<Reader<'a>>> {
    contestant_names(READERS)
        .map(|name| Reader::sign_in(url, stats, &name))
        .collect()
}

/// `rounds` rounds of the reads by each of `readers` at once; every
/// read's latencies, sorted.
fn read_with(readers: &[Reader], rounds: usize) -> Result<Vec<Vec<Duration>>> {
    let per_reader: Vec<Vec<Vec<Duration>>> = std::thread::scope(|s| {
        let running: Vec<_> = readers.iter().map(|r| s.spawn(move || r.read(rounds))).collect();
        running
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a reader panicked")))
            })
            .collect::<Result<_>>()
    })?;
    let mut reads = vec![Vec::new(); READS.len()];
    for mine in per_reader {
        for (all, one) in reads.iter_mut().zip(mine) {
            all.extend(one);
        }
    }
    reads.iter_mut().for_each(|v| v.sort());
    Ok(reads)
}

/// One reader's clients: a contestant's API token and session, the
/// teacher's session.
struct Reader<'a> {
    api: Http<'a>,
    page: Http<'a>,
    teacher: Http<'a>,
}

impl<'a> Reader<'a> {
    fn sign_in(url: &'a str, stats: &'a Stats, name: &str) -> Result<Reader<'a>> {
        let mut api = Http::new(url, stats);
        api.api_sign_in(name, &password(name))?;
        let page = Http::new(url, stats);
        page.form_sign_in(name, &password(name))?;
        let teacher = Http::new(url, stats);
        teacher.form_sign_in("admin", ADMIN_PASSWORD)?;
        Ok(Reader { api, page, teacher })
    }

    /// A round first unmeasured (the server's caches warm), then `rounds`
    /// rounds; each read's latencies.
    fn read(&self, rounds: usize) -> Result<Vec<Vec<Duration>>> {
        let clients = [&self.api, &self.api, &self.page, &self.teacher, &self.teacher];
        let mut times = vec![Vec::new(); READS.len()];
        for round in 0..=rounds {
            for (i, ((what, path), client)) in READS.iter().zip(clients).enumerate() {
                let r = client.get(path)?;
                ensure!(r.status == 200, "{what} ({path}) answered {}", r.status);
                if round > 0 {
                    times[i].push(r.elapsed);
                }
                std::thread::sleep(PAUSE);
            }
        }
        Ok(times)
    }
}

fn report(o: &ScaleOptions, measured: &[Measured], peak: Option<u64>, took: Duration) {
    let ms = |d: f64| format!("{d:.1} ms");
    println!();
    println!(
        "Contest scale: {} contestants, {READERS} readers at once, {} rounds each of {} reads ({:.0} s in all):",
        o.contestants,
        o.rounds,
        READS.len(),
        took.as_secs_f64()
    );
    let sizes: Vec<String> = measured.iter().map(|m| format!("p99 at {}", m.size)).collect();
    println!(
        "  {:<32}{}  {:>8}  target",
        "read",
        sizes.iter().map(|s| format!("{s:>15}")).collect::<String>(),
        "ratio"
    );
    let mut met = true;
    for (i, (what, _)) in READS.iter().enumerate() {
        let p99: Vec<f64> = measured
            .iter()
            .map(|m| percentiles(&m.reads[i]).map_or(0.0, |p| p[2]))
            .collect();
        let (first, last) = (p99[0], p99[p99.len() - 1]);
        let ok = last <= (2.0 * first).max(10.0) && p99.iter().all(|&p| p <= 50.0);
        met &= ok;
        let cells: String = p99.iter().map(|&p| format!("{:>15}", ms(p))).collect();
        let ratio = last / first.max(f64::MIN_POSITIVE);
        let verdict = if ok { "ok" } else { "MISSED" };
        println!(
            "  {what:<32}{cells}  {ratio:>7.2}x  {verdict} (within 2x of at {} or 10 ms; 50 ms at most)",
            measured[0].size
        );
    }
    for m in measured {
        if let Some(rss) = m.resident {
            println!(
                "  server resident at {}: {:.0} MiB",
                m.size,
                rss as f64 / (1 << 20) as f64
            );
        }
    }
    if let Some(p) = peak {
        let mib = p as f64 / (1 << 20) as f64;
        let verdict = if mib < 256.0 { "ok" } else { "MISSED" };
        println!("  server peak resident: {mib:.0} MiB ({verdict}: under 256 MiB)");
    }
    println!("  targets: {}", if met { "met" } else { "MISSED" });
}
