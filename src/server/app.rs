//! The server's shared state and start-up: the database opened and
//! brought up to date, the contest's contestants added (generated
//! passwords printed once and written to a file only the teacher reads),
//! the judging workers started; the feedback policy and the rate limits.
//! The web server itself is bound and served by `router`.

use super::auth;
use super::connections::{Gate, address_key};
use super::contest::{ContestConfig, Feedback};
use super::db::{Db, DbResult, User};
use super::events::{Event, Live};
use super::queue::{Wake, Workers};
use super::roster::Plan;
use super::scoreboard::Scoreboard;
use super::signin::Admission;
use crate::i18n::{Arg, Locale};
use crate::judge::grading::{Grader, SubmissionReport, TestResult};
use crate::judge::runner::Sandboxed;
use crate::judge::sandbox::Sandbox;
use crate::judge::submission::{SourceLimit, default_cache_dir};
use crate::package::languages::LanguageTable;
use crate::package::{Problem, TestCase};
use crate::puzzle::verdict::Verdict;
use anyhow::{Context, Result};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rate limits.
#[derive(Clone, Copy, Debug)]
pub struct Rates {
    /// Requests per second from one address while signed out (sign-in
    /// attempts among them), with a burst of five times as many.
    pub per_address: u32,
    /// Requests per second of one signed-in user, burst five times as many.
    pub per_user: u32,
    /// Submissions per minute of one contestant (burst: as many).
    pub submissions_per_minute: u32,
}

/// Everything `serve` needs, made by the command from its arguments.
pub struct Options {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The package.
    pub problem: Problem,
    /// Its tests.
    pub cases: Vec<TestCase>,
    /// Its languages.
    pub languages: LanguageTable,
    /// The contest.
    pub contest: ContestConfig,
    /// The database file.
    pub db: PathBuf,
    /// Judging slots: compilations and runs at a time, all submissions
    /// together.
    pub jobs: usize,
    /// HTTPS certificate chain and key (PEM).
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Behind a reverse proxy terminating HTTPS.
    pub behind_proxy: bool,
    /// Print nothing but errors.
    pub quiet: bool,
    /// The sandbox.
    pub sandbox: Sandbox,
    /// Rate limits.
    pub rates: Rates,
    /// Connections held at most in all (`None`: from the limit of open files).
    pub connections: Option<usize>,
    /// Connections held at most from one address before a signed-in
    /// request (`None`: a quarter of all; not behind a proxy).
    pub connections_per_address: Option<usize>,
}

/// What the pages show of the package.
pub struct ProblemInfo {
    /// Package name (the file stem of NOIP file I/O, archives).
    pub name: String,
    /// Its title, in each language the package gives.
    pub title: crate::package::Title,
    /// Tests, in order.
    pub tests: Vec<String>,
    /// Each test's group (what it exercises), where the package's scoring
    /// groups it.
    pub test_groups: Vec<Option<String>>,
    /// Most points.
    pub max_score: u32,
    /// CPU time limit, ms.
    pub time_ms: u64,
    /// Memory limit, MiB.
    pub memory_mib: u64,
    /// Largest source accepted, bytes.
    pub source_bytes: u64,
    /// Languages contestants may use: (name, extensions).
    pub languages: Vec<(String, Vec<String>)>,
    /// The statement, as HTML (from `statement.md`).
    pub statement: String,
    /// Every statement of the package, as HTML, by its language's tag
    /// (`statement.zh-CN.md`: `zh-CN`; `statement.md`: `en`), the page
    /// shows the viewer's.
    pub statements: Vec<(String, String)>,
    /// The samples (input text), drawn on the statement page.
    pub samples: Vec<String>,
    /// The package's write-up (题解), as HTML, by its language's tag
    /// (`solution.zh-CN.md`: `zh-CN`; `solution.md`: `en`): read only where
    /// `[after_end] solution` allows it.
    pub solutions: Vec<(String, String)>,
    /// The tests, inputs and answers, as one zip: built only where
    /// `[after_end] tests` allows it.
    pub tests_zip: Option<Vec<u8>>,
}

/// The state every request handler shares.
pub struct App {
    /// The database.
    pub db: Arc<Db>,
    /// Live status and events.
    pub live: Arc<Live>,
    /// The judging workers' wake-up.
    pub wake: Arc<Wake>,
    /// The contest.
    pub contest: ContestConfig,
    /// The package, as pages show it.
    pub problem: ProblemInfo,
    /// The package's language table (detection by extension).
    pub languages: LanguageTable,
    /// Cookies marked `Secure` (HTTPS, here or at a proxy).
    pub secure_cookies: bool,
    /// Client addresses from `X-Forwarded-For`.
    pub behind_proxy: bool,
    /// The database's file (for backups).
    pub db_path: PathBuf,
    /// Where to listen.
    pub listen: SocketAddr,
    /// HTTPS certificate chain and key (PEM).
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Print nothing but errors.
    pub quiet: bool,
    /// The connections held, by address and by account (`connections`).
    pub gate: Arc<Gate>,
    /// The folder submissions are written to and compiled from (removed
    /// at a clean stop).
    pub work_dir: PathBuf,
    per_address: DefaultKeyedRateLimiter<IpAddr>,
    per_user: DefaultKeyedRateLimiter<i64>,
    submissions: DefaultKeyedRateLimiter<i64>,
    /// The ranking, kept up to date as verdicts arrive.
    pub scoreboard: Arc<Scoreboard>,
    /// The teacher's analysis, drawn, kept by the results' changes
    /// (`Live::results`) and the language it is drawn in.
    pub analysis: super::cached::Cached<(u64, Locale), String>,
    /// The admission of password checks (one per core at a time in each
    /// of two lanes, known sources and unknown ones: each argon2id check
    /// takes 19 MiB; fair between accounts and addresses).
    pub signins: Admission,
    /// The key that signs device cookies (`signin` trusts their browsers).
    pub devices: auth::DeviceKey,
    /// The teacher's page of copied programs: its comparisons.
    pub similar: super::comparisons::Analyses,
}

/// What a viewer sees of a judged submission: the one table of
/// docs/SERVE.md, which the pages, the API and `/events` all follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The overall verdict, and the status that names it.
    pub verdict: bool,
    /// The score.
    pub score: bool,
    /// The most time and memory a test took.
    pub time: bool,
    /// Which tests, each with its verdict, time, memory and the checker's
    /// reason (and the replay of a wrong answer).
    pub tests: ShownTests,
    /// The compiler's message of a compilation error.
    pub compile_error: bool,
    /// The counterexample of a failing submission: the smallest board it
    /// fails on, its output there, the checker's reason, the replays.
    pub counterexample: bool,
}

/// Which tests a viewer sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShownTests {
    /// Every test.
    All,
    /// The tests up to the first failing one, that one included.
    UpToFirstFailure,
    /// None.
    None,
}

impl Shown {
    /// Everything: the teacher, and everybody once the contest is over.
    pub const ALL: Shown = Shown {
        verdict: true,
        score: true,
        time: true,
        tests: ShownTests::All,
        compile_error: true,
        counterexample: true,
    };

    /// What a contestant sees under `policy` while the contest runs;
    /// `counterexample_under_score`: contest.toml's
    /// `[counterexamples] under_score`.
    pub fn of(policy: Feedback, counterexample_under_score: bool) -> Shown {
        match policy {
            Feedback::AllTests => Shown::ALL,
            Feedback::FirstFailure => Shown {
                tests: ShownTests::UpToFirstFailure,
                ..Shown::ALL
            },
            Feedback::Score => Shown {
                verdict: false,
                score: true,
                time: false,
                tests: ShownTests::None,
                compile_error: true,
                counterexample: Feedback::Score.shows_counterexamples(counterexample_under_score),
            },
            Feedback::NoneUntilEnd => Shown {
                verdict: false,
                score: false,
                time: false,
                tests: ShownTests::None,
                compile_error: false,
                counterexample: Feedback::NoneUntilEnd.shows_counterexamples(counterexample_under_score),
            },
        }
    }
}

impl App {
    /// Opens the database, adds the contestants, starts the judging workers.
    pub fn start(o: Options) -> Result<Arc<App>> {
        let db =
            Arc::new(Db::open(&o.db).with_context(|| format!("opening the database {}", o.db.display()))?);
        let writing = || {
            format!(
                "writing to the database {} (a full disk, a read-only folder?)",
                o.db.display()
            )
        };
        let requeued = db.requeue_interrupted().with_context(writing)?;
        let new_passwords = add_users(&db, &o.contest).with_context(writing)?;
        let problem = problem_info(&o.problem, &o.cases, &o.languages, &o.contest)?;
        let scoreboard = Arc::new(Scoreboard::load(&db, &o.contest).context("reading the ranking")?);
        let live = Arc::new(Live::default());
        let wake = Arc::new(Wake::default());
        let counterexamples = o.contest.counterexamples;
        let searches_from = o.contest.searches_from();
        save_passwords(&o.contest, &new_passwords)?;
        if !o.quiet {
            print_start(&o, requeued, &new_passwords);
        }
        let judging = Judging {
            problem: o.problem,
            cases: o.cases,
            languages: o.languages.clone(),
            sandbox: o.sandbox,
            jobs: o.jobs,
            counterexamples,
            searches_from,
        };
        let work_dir = judging.start(&db, &live, &wake, &scoreboard)?;
        let devices = device_key(&o.db);
        let r = o.rates;
        let app = App {
            db,
            live,
            wake,
            contest: o.contest,
            problem,
            languages: o.languages,
            secure_cookies: o.tls.is_some() || o.behind_proxy,
            behind_proxy: o.behind_proxy,
            db_path: o.db,
            listen: o.listen,
            tls: o.tls,
            quiet: o.quiet,
            gate: Gate::for_server(o.connections, o.connections_per_address, o.behind_proxy),
            work_dir,
            per_address: DefaultKeyedRateLimiter::keyed(per_second_burst_5x(r.per_address)),
            per_user: DefaultKeyedRateLimiter::keyed(per_second_burst_5x(r.per_user)),
            submissions: DefaultKeyedRateLimiter::keyed(Quota::per_minute(at_least_one(
                r.submissions_per_minute,
            ))),
            signins: Admission::new(sign_in_cores(), sign_in_checks_admitted()),
            devices,
            similar: Default::default(),
            analysis: Default::default(),
            scoreboard,
        };
        Ok(Arc::new(app))
    }

    /// Whether a signed-out request from `ip` is within its address's
    /// rate (an IPv6 address counted by its /64).
    pub fn allow_address(&self, ip: IpAddr) -> bool {
        self.per_address.check_key(&address_key(ip)).is_ok()
    }

    /// Whether a signed-in user's request is within their rate.
    pub fn allow_user(&self, user_id: i64) -> bool {
        self.per_user.check_key(&user_id).is_ok()
    }

    /// Whether a contestant may submit now (their submission rate).
    pub fn allow_submission(&self, user_id: i64) -> bool {
        self.submissions.check_key(&user_id).is_ok()
    }

    /// What `viewer` sees of a judged submission: the contest's feedback
    /// policy for contestants; everything for the teacher, and for everybody
    /// once the contest is over.
    pub fn shown(&self, viewer: &User) -> Shown {
        if viewer.is_admin || self.contest.window.ended(super::now()) {
            Shown::ALL
        } else {
            Shown::of(self.contest.feedback, self.contest.counterexamples.under_score)
        }
    }

    /// The tests of a report `viewer` sees (see [`App::shown`]).
    pub fn visible_tests<'r>(&self, viewer: &User, report: &'r SubmissionReport) -> &'r [TestResult] {
        match self.shown(viewer).tests {
            ShownTests::All => &report.tests,
            ShownTests::UpToFirstFailure => {
                let first = report.tests.iter().position(|t| t.verdict != Verdict::Accepted);
                &report.tests[..first.map_or(report.tests.len(), |i| i + 1)]
            }
            ShownTests::None => &[],
        }
    }

    /// Queues submissions again (all, a contestant's, or one), wakes the
    /// workers and tells the pages; returns how many.
    pub fn rejudge(&self, user_id: Option<i64>, id: Option<i64>) -> DbResult<usize> {
        let n = self.db.rejudge(user_id, id)?;
        self.wake.notify();
        self.ranking_changed()?;
        Ok(n)
    }

    /// What reading the contest's contestants again would change (nothing
    /// is changed), or why the file cannot be read (its file and line, in
    /// `locale`'s words).
    /// Checks the passwords given against the stored hashes: blocking.
    pub fn roster_plan(&self, locale: Locale) -> Result<Plan, String> {
        let Some(file) = &self.contest.file else {
            return Err(
                "This server runs without a contest file (--contest): there is no file of contestants to read again."
                    .into(),
            );
        };
        let config = ContestConfig::load(file).map_err(|e| e.in_words(locale))?;
        let existing = self.db.contestants_with_hashes().map_err(|e| e.to_string())?;
        Ok(Plan::of(&config.contestants, &existing))
    }

    /// Applies a plan of [`App::roster_plan`]; returns the passwords it
    /// generated (also saved in `passwords.csv`), and tells the pages.
    pub fn apply_roster(&self, plan: &Plan) -> Result<Vec<(String, String)>> {
        let generated = apply_plan(&self.db, plan)?;
        save_passwords(&self.contest, &generated)?;
        self.ranking_changed()?;
        Ok(generated)
    }

    /// Something beside a verdict changed the ranking (a rejudge, a
    /// disqualification, the contestants): the kept ranking is made again
    /// from the database, and the pages told.
    pub fn ranking_changed(&self) -> DbResult<()> {
        self.scoreboard.rebuild(&self.db)?;
        self.live.send(Event::Ranking);
        Ok(())
    }

    /// Whether `viewer` sees the scores (of submissions, in the ranking).
    pub fn shows_result(&self, viewer: &User) -> bool {
        self.shown(viewer).score
    }
}

/// Password checks admitted at a time in all (running or waiting; one
/// waiting holds no memory to speak of): room for several classes signing
/// in at once, each queued rather than refused.
const SIGN_IN_QUEUE: usize = 1024;

/// Password checks run at a time in each lane: one per core of the machine.
fn sign_in_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Password checks the server admits at a time, running or waiting (a
/// quarter kept for known sources, `signin::QueueSizes`); one more is
/// refused at once (503), before any hashing.
pub fn sign_in_checks_admitted() -> usize {
    SIGN_IN_QUEUE.max(sign_in_cores())
}

/// `n` a second, in bursts of `5n`.
fn per_second_burst_5x(n: u32) -> Quota {
    Quota::per_second(at_least_one(n)).allow_burst(at_least_one(n.saturating_mul(5)))
}

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

/// Adds the teacher (`admin`) and the contest's contestants that the
/// database does not have yet, and updates the others as the contest's
/// file says (the plan of `roster`: nobody is removed); returns the
/// passwords generated for them (existing users keep theirs: a restart
/// prints nothing new).
/// The key of device cookies, kept in `<database>.device-key` (0600, beside
/// the database, which is private already) so that a restart keeps every
/// device trusted; a fresh one for this run where that file cannot be
/// written (its owners' devices are trusted again at their next sign-in).
fn device_key(db: &std::path::Path) -> auth::DeviceKey {
    let mut path = db.as_os_str().to_owned();
    path.push(".device-key");
    auth::DeviceKey::kept_in(std::path::Path::new(&path)).unwrap_or_else(|_| auth::DeviceKey::random())
}

fn add_users(db: &Db, contest: &ContestConfig) -> Result<Vec<(String, String)>> {
    let mut generated = Vec::new();
    let (password, was_generated) = contest
        .admin_password
        .clone()
        .map(|p| (p, false))
        .unwrap_or_else(|| (super::contest::generate_password(), true));
    match db.user_by_name("admin")? {
        Some((user, hash)) => {
            if !was_generated && !db.password_was_reset(user.id)? && !auth::verify_password(&password, &hash)
            {
                db.update_user(user.id, None, Some(&auth::hash_password(&password)))?;
            }
        }
        None => {
            db.add_user("admin", None, &auth::hash_password(&password), true)?;
            if was_generated {
                generated.push(("admin".to_string(), password));
            }
        }
    }
    let plan = Plan::of(&contest.contestants, &db.contestants_with_hashes()?);
    generated.extend(apply_plan(db, &plan)?);
    Ok(generated)
}

/// Makes a plan's changes; returns the passwords generated for the
/// contestants it added.
fn apply_plan(db: &Db, plan: &Plan) -> DbResult<Vec<(String, String)>> {
    let mut generated = Vec::new();
    for e in &plan.add {
        db.add_user(
            &e.name,
            e.display.as_deref(),
            &auth::hash_password(&e.password),
            false,
        )?;
        if e.generated {
            generated.push((e.name.clone(), e.password.clone()));
        }
    }
    for (user, display) in &plan.display {
        db.update_user(user.id, Some(display), None)?;
    }
    for (user, password) in &plan.password {
        db.update_user(user.id, None, Some(&auth::hash_password(password)))?;
    }
    Ok(generated)
}

/// Writes the passwords generated this time into `passwords.csv` beside
/// contest.toml (mode 0600), keeping the ones generated before: the only
/// copy, as they are never generated again.
pub(super) fn save_passwords(contest: &ContestConfig, passwords: &[(String, String)]) -> Result<()> {
    if passwords.is_empty() {
        return Ok(());
    }
    let file = contest.passwords_path();
    let mut rows = read_passwords(&file).with_context(|| format!("reading {}", file.display()))?;
    rows.retain(|(n, _)| !passwords.iter().any(|(m, _)| m == n));
    rows.extend(passwords.iter().cloned());
    let pairs: Vec<(&str, &str)> = rows.iter().map(|(n, p)| (n.as_str(), p.as_str())).collect();
    super::contest::write_passwords(&file, &pairs).with_context(|| format!("writing {}", file.display()))
}

/// The `name,password` rows of an earlier `passwords.csv` (none when
/// there is no such file).
fn read_passwords(file: &std::path::Path) -> Result<Vec<(String, String)>> {
    if !file.exists() {
        return Ok(Vec::new());
    }
    let mut rows = Vec::new();
    for record in csv::Reader::from_path(file)?.deserialize() {
        rows.push(record?);
    }
    Ok(rows)
}

/// Prints how the server starts: the contest, what was queued again, and
/// the passwords generated this time (once; also in passwords.csv).
fn print_start(o: &Options, requeued: usize, passwords: &[(String, String)]) {
    let l = o.contest.console_language();
    let title = &o.problem.config.title;
    let say = |id: &str, args: &[(&str, String)]| {
        let args: Vec<(&str, Arg)> = args.iter().map(|(k, v)| (*k, Arg::from(v.clone()))).collect();
        l.text(id, &args)
    };
    let start = [
        ("contest", o.contest.title.clone()),
        (
            "problem",
            title.in_language(l.tag()).unwrap_or(title.english()).to_string(),
        ),
        ("contestants", o.contest.contestants.len().to_string()),
        ("db", o.db.display().to_string()),
    ];
    println!("{}", say("console-serve-start", &start));
    if requeued > 0 {
        println!(
            "{}",
            say("console-serve-requeued", &[("n", requeued.to_string())])
        );
    }
    if !passwords.is_empty() {
        let pairs: Vec<(&str, &str)> = passwords.iter().map(|(n, p)| (n.as_str(), p.as_str())).collect();
        let file = o.contest.passwords_path().display().to_string();
        println!(
            "{}\n{}",
            say("console-serve-passwords", &[("file", file)]),
            super::contest::render_passwords(&pairs)
        );
    }
}

/// The package as pages show it.
fn problem_info(
    problem: &Problem,
    cases: &[TestCase],
    languages: &LanguageTable,
    contest: &ContestConfig,
) -> Result<ProblemInfo> {
    let allowed = |name: &str| {
        contest
            .languages
            .as_ref()
            .is_none_or(|l| l.iter().any(|x| x == name))
    };
    let statement_md = std::fs::read_to_string(problem.dir.join("statement.md")).unwrap_or_default();
    let samples = cases
        .iter()
        .filter(|c| c.name.starts_with("sample"))
        .filter_map(|c| std::fs::read_to_string(&c.input).ok())
        .collect();
    let limits = &problem.config.limits;
    Ok(ProblemInfo {
        name: problem.config.name.clone(),
        title: problem.config.title.clone(),
        tests: cases.iter().map(|c| c.name.clone()).collect(),
        test_groups: cases
            .iter()
            .map(|c| {
                let groups = &problem.config.scoring.groups;
                groups.iter().find(|g| g.matches(&c.name)).map(|g| g.name.clone())
            })
            .collect(),
        max_score: {
            let none: Vec<(&str, bool)> = cases.iter().map(|c| (c.name.as_str(), false)).collect();
            problem.config.scoring.score(&none).1
        },
        time_ms: limits.time_ms,
        memory_mib: limits.memory_mib,
        source_bytes: SourceLimit::of(limits).bytes(),
        languages: languages
            .names()
            .into_iter()
            .filter(|n| allowed(n))
            .filter_map(|n| languages.get(n).map(|l| (n.to_string(), l.extensions.clone())))
            .collect(),
        statement: markdown(&statement_md),
        statements: crate::workflows::validate::statements(&problem.dir)
            .iter()
            .filter_map(|path| {
                let name = path.file_name()?.to_str()?;
                let tag = name.strip_prefix("statement.")?.strip_suffix(".md")?;
                let tag = if tag == "md" || tag.is_empty() { "en" } else { tag };
                Some((tag.to_string(), markdown(&std::fs::read_to_string(path).ok()?)))
            })
            .collect(),
        samples,
        solutions: match contest.after_end.solution {
            true => by_language(&problem.dir, "solution")?,
            false => Vec::new(),
        },
        tests_zip: match contest.after_end.tests {
            true => Some(tests_zip(cases).context("the tests' zip ([after_end] tests)")?),
            false => None,
        },
    })
}

/// `STEM.md` (`en`) and every `STEM.LANG.md` of a package folder, as HTML
/// by their tags. Only plain files are read: a link, which could lead
/// outside the package, is an error.
fn by_language(dir: &Path, stem: &str) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(tag) = name.strip_prefix(stem).and_then(|t| t.strip_suffix(".md")) else {
            continue;
        };
        let tag = match tag.strip_prefix('.') {
            Some(t) if !t.is_empty() => t,
            None if tag.is_empty() => "en",
            _ => continue,
        };
        anyhow::ensure!(
            entry.file_type()?.is_file(),
            "{}: not a plain file (a link could lead outside the package)",
            entry.path().display()
        );
        let text = std::fs::read_to_string(entry.path())
            .with_context(|| format!("reading {}", entry.path().display()))?;
        out.push((tag.to_string(), markdown(&text)));
    }
    out.sort();
    Ok(out)
}

/// The tests as one zip: `NAME.in` and its answer under its own name, as
/// the package holds them. Only plain files are read (a link is an error:
/// nothing outside the package goes in).
fn tests_zip(cases: &[TestCase]) -> Result<Vec<u8>> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for case in cases {
        for path in [&case.input, &case.answer] {
            let meta =
                std::fs::symlink_metadata(path).with_context(|| format!("reading {}", path.display()))?;
            anyhow::ensure!(meta.is_file(), "{}: not a plain file", path.display());
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("in");
            zip.start_file(format!("{}.{ext}", case.name), options)?;
            zip.write_all(&std::fs::read(path).with_context(|| format!("reading {}", path.display()))?)?;
        }
    }
    Ok(zip.finish()?.into_inner())
}

/// Markdown to HTML, raw HTML in it escaped (a package is data, not code).
fn markdown(text: &str) -> String {
    use pulldown_cmark::{Event, Parser, html};
    let events = Parser::new(text).map(|e| match e {
        Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

/// What the judging thread owns for the life of the process.
struct Judging {
    problem: Problem,
    cases: Vec<TestCase>,
    languages: LanguageTable,
    sandbox: Sandbox,
    jobs: usize,
    counterexamples: super::contest::Counterexamples,
    searches_from: i64,
}

impl Judging {
    /// Starts the judging workers on a thread of their own; returns once
    /// the tests are loaded (or why they cannot be), with the folder
    /// submissions are compiled in.
    fn start(
        self,
        db: &Arc<Db>,
        live: &Arc<Live>,
        wake: &Arc<Wake>,
        scoreboard: &Arc<Scoreboard>,
    ) -> Result<PathBuf> {
        let (db, live, wake, scoreboard) = (db.clone(), live.clone(), wake.clone(), scoreboard.clone());
        let work_dir = super::queue::work_dir().context("making the folder submissions are compiled in")?;
        let path = work_dir.path().to_path_buf();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("judging".into())
            .spawn(move || {
                let runner = Sandboxed(&self.sandbox);
                let grader = match Grader::new(&self.problem, &runner, self.cases) {
                    Ok(g) => g.retry_tle(1),
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                let failed = Wake::default();
                Workers {
                    grader: &grader,
                    sandbox: &self.sandbox,
                    languages: &self.languages,
                    limit: SourceLimit::of(&self.problem.config.limits),
                    cache_dir: default_cache_dir(),
                    work_dir: work_dir.path(),
                    db: &db,
                    live: &live,
                    wake: &wake,
                    scoreboard: &scoreboard,
                    counterexamples: self.counterexamples,
                    searches_from: self.searches_from,
                    failed: &failed,
                }
                .run(self.jobs);
            })
            .context("starting the judging thread")?;
        ready_rx
            .recv()
            .context("the judging thread stopped")?
            .context("reading the tests")?;
        Ok(path)
    }
}
