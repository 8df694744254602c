//! `mayan-judge bench --only analysis`: the teacher's analysis page
//! (`/admin/analysis`) of a large class, end to end over the loopback. A
//! real `serve` judges three real programs (the accepted reference, one that
//! prints `-1`, one that skips the cascade) and searches the failing ones'
//! counterexamples; the class is then filled from their stored reports
//! (each submission's tests mixed from the accepted and a failing report,
//! so the scores spread), the server started again on that database, and the
//! page asked for: once computed from the stored reports, then from the
//! cache, each against the target.

use super::super::progress::Progress;
use super::client::{Http, Phase, Stats};
use super::serve_load::{ADMIN_PASSWORD, LoadOptions, Server, password, submit, wait_judged};
use crate::judge::grading::SubmissionReport;
use crate::server::db::{Db, Judged, ToSearch};
use anyhow::{Context, Result, bail, ensure};
use std::time::{Duration, Instant};

/// What the class is.
pub struct AnalysisOptions {
    /// Contestants.
    pub contestants: usize,
    /// Judged submissions, spread over the contestants.
    pub submissions: usize,
    /// No progress lines.
    pub quiet: bool,
}

/// Requests of the cached page.
const CACHED_REQUESTS: usize = 20;

/// The page's target, computed or cached.
const TARGET: Duration = Duration::from_millis(100);

/// The programs judged for real, whose reports the class is made of.
const PROGRAMS: [(&str, &str); 3] = [
    ("accepted.c", super::serve_load::ACCEPTED_C),
    (
        "minus_one.c",
        "#include <stdio.h>\nint main(void) { puts(\"-1\"); return 0; }\n",
    ),
    (
        "no_cascade.cpp",
        include_str!("../../../reference/mayan/wrong_answer/no_gravity_cascade.cpp"),
    ),
];

/// Runs the benchmark and prints its report.
pub fn run(o: &AnalysisOptions) -> Result<()> {
    ensure!(o.contestants > 0 && o.submissions > 0, "nothing to analyse");
    let progress = Progress::new(o.quiet, 0, "steps");
    let say = |what: &str| progress.phase(what);
    say("judging the three programs the class is made of");
    let load = LoadOptions::quiet_server(o.contestants, PROGRAMS.len(), 2);
    let mut server = Server::start(&load)?;
    let ids = judge_templates(server.url())?;
    server.stop();
    say(&format!(
        "filling the class: {} contestants, {} submissions",
        o.contestants, o.submissions
    ));
    let start = Instant::now();
    fill(&server.dir().join("mayan-judge.db"), &ids, o)?;
    let filled = start.elapsed();
    server.restart(load.jobs)?;
    say("asking for the analysis page");
    let stats = Stats::default();
    let teacher = Http::new(server.url(), &stats);
    teacher.form_sign_in("admin", ADMIN_PASSWORD)?;
    let computed = page(&teacher)?;
    let cached: Vec<Duration> = (0..CACHED_REQUESTS)
        .map(|_| page(&teacher))
        .collect::<Result<_>>()?;
    progress.finish();
    report(o, filled, computed, cached);
    Ok(())
}

/// Submits the three programs as three contestants and waits until each is
/// judged and the failing ones' counterexamples are searched; their numbers.
fn judge_templates(url: &str) -> Result<Vec<i64>> {
    let stats = Stats::default();
    let mut ids = Vec::new();
    for (i, (name, source)) in PROGRAMS.iter().enumerate() {
        let mut h = Http::new(url, &stats);
        let who = format!("c{}", i + 1);
        h.api_sign_in(&who, &password(&who))?;
        let id = submit(&h, &(name.to_string(), source.to_string()), Phase::Idle)?;
        ids.push(id.context("a submission was refused")?);
    }
    let mut admin = Http::new(url, &stats);
    admin.api_sign_in("admin", ADMIN_PASSWORD)?;
    let deadline = Instant::now() + Duration::from_secs(300);
    ensure!(
        wait_judged(&admin, ids.len(), deadline, &|_| {})? >= ids.len(),
        "the three programs were not judged within 5 minutes"
    );
    for &id in &ids {
        while !searched(&admin, id)? {
            ensure!(
                Instant::now() < deadline,
                "no counterexample search ended for {id}"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    Ok(ids)
}

/// Whether a submission's counterexample search ended (or none is made).
fn searched(admin: &Http, id: i64) -> Result<bool> {
    let v = admin.get(&format!("/api/v1/submissions/{id}"))?.json();
    Ok(v["counterexample"]["state"] != "searching")
}

/// The templates: the accepted report, and each failing one with its
/// counterexample's JSON.
struct Templates {
    accepted: SubmissionReport,
    failing: Vec<(SubmissionReport, Option<String>)>,
}

fn templates(db: &Db, ids: &[i64]) -> Result<Templates> {
    let mut reports = Vec::new();
    for &id in ids {
        let s = db.submission(id)?.with_context(|| format!("submission {id}"))?;
        let json = s
            .report
            .with_context(|| format!("submission {id} has no report"))?;
        let report: SubmissionReport = serde_json::from_str(&json)?;
        reports.push((report, db.counterexample(id)?.flatten()));
    }
    let accepted = reports.remove(0).0;
    if !accepted.all_accepted() {
        bail!("the accepted reference was judged {}", accepted.overall_verdict());
    }
    Ok(Templates {
        accepted,
        failing: reports,
    })
}

/// Stores `o.submissions` judged submissions of the contestants, made of the
/// templates, over three hours.
fn fill(path: &std::path::Path, ids: &[i64], o: &AnalysisOptions) -> Result<()> {
    let db = Db::open(path)?;
    let t = templates(&db, ids)?;
    let users: Vec<i64> = db.users()?.iter().filter(|u| !u.is_admin).map(|u| u.id).collect();
    let users = &users[..o.contestants.min(users.len())];
    let now = crate::server::now();
    let mut rng = fastrand::Rng::with_seed(2011);
    for i in 0..o.submissions {
        let user = users[i % users.len()];
        let skill = (i % users.len()) as f64 / users.len() as f64 + i as f64 / o.submissions as f64 / 2.0;
        let (failing, found) = &t.failing[i % t.failing.len()];
        let report = mixed(&t.accepted, failing, skill, &mut rng);
        let submitted = now - 3 * 3600 + (i as i64 * 3 * 3600) / o.submissions as i64;
        store(&db, user, submitted, &report, found.as_deref())?;
    }
    Ok(())
}

/// Each test's result from `accepted` with probability `skill`, else from
/// `failing`; scored again.
fn mixed(
    accepted: &SubmissionReport,
    failing: &SubmissionReport,
    skill: f64,
    rng: &mut fastrand::Rng,
) -> SubmissionReport {
    let mut r = failing.clone();
    for (mine, good) in r.tests.iter_mut().zip(&accepted.tests) {
        if rng.f64() < skill {
            *mine = good.clone();
        }
    }
    r.score = r.tests.iter().map(|t| t.points).sum::<u32>().min(r.max_score);
    r
}

/// Stores one judged submission (and its counterexample when it fails).
fn store(db: &Db, user: i64, submitted: i64, r: &SubmissionReport, found: Option<&str>) -> Result<()> {
    db.add_submission(
        user,
        &r.language,
        &r.submission,
        b"/* analysis benchmark */",
        submitted,
    )?;
    let c = db
        .claim_next()?
        .context("the submission just stored is not queued")?;
    db.finish(&c, &Judged::of(r), submitted + 5)?;
    if !r.all_accepted() {
        let s = ToSearch {
            id: c.id,
            user_id: user,
            language: c.language,
            file_name: c.file_name,
            source: c.source,
            judgings: 1,
        };
        db.store_counterexample(&s, found, 40, 500, submitted + 10)?;
    }
    Ok(())
}

/// One request of the analysis page: its time, checked to be the page.
fn page(teacher: &Http) -> Result<Duration> {
    let r = teacher.get("/admin/analysis")?;
    ensure!(
        r.status == 200 && r.body.contains("<svg"),
        "/admin/analysis answered {}: {}",
        r.status,
        r.body.chars().take(300).collect::<String>()
    );
    Ok(r.elapsed)
}

fn report(o: &AnalysisOptions, filled: Duration, computed: Duration, mut cached: Vec<Duration>) {
    cached.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let verdict = |d: Duration| if d < TARGET { "ok" } else { "MISSED" };
    let (p50, max) = (cached[cached.len() / 2], cached[cached.len() - 1]);
    println!();
    println!(
        "Analysis page (/admin/analysis), {} contestants, {} judged submissions (stored in {:.1} s):",
        o.contestants,
        o.submissions,
        filled.as_secs_f64()
    );
    println!(
        "  computed from the stored reports: {:.1} ms  [{}: < {} ms]",
        ms(computed),
        verdict(computed),
        TARGET.as_millis()
    );
    println!(
        "  cached, {} requests: p50 {:.1} ms, max {:.1} ms  [{}: < {} ms]",
        cached.len(),
        ms(p50),
        ms(max),
        verdict(max),
        TARGET.as_millis()
    );
}
