//! The contestants' pages: sign in, the statement, submit, their
//! submissions (live), the ranking, clarifications, and the event stream
//! that makes pages live. Every form checks its CSRF token; what a page
//! does beyond HTTP is `actions`.

use super::actions::{
    self, Sent, accept_submission, current_standings, submission_closed, visible_submission,
};
use super::app::App;
use super::auth;
use super::db::User;
use super::events::Event;
use super::http::{
    CsrfForm, Fail, Identity, PAGE_SIZE, PageResult, Paging, check_csrf, cookie, device_cookie_of, locale,
    render, row_context, signed_in, when,
};
use super::standings::Standing;
use crate::i18n::Arg;
use crate::judge::grading::GradeReport;
use crate::report::replay_sections_in;
use axum::Router;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum_extra::extract::cookie::{Cookie, CookieJar};
use minijinja::context;
use std::sync::Arc;

/// The contestants' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(home))
        .route("/login", get(login_page).post(login))
        .route("/logout", post(logout))
        .route("/statement", get(statement))
        .route("/solution", get(solution))
        .route("/tests.zip", get(tests_zip))
        .route("/submit", get(submit_page).post(submit))
        .route("/submissions", get(my_submissions))
        .route("/submissions/{id}", get(submission_page))
        .route("/submissions/{id}/replay", get(replay))
        .route("/ranking", get(ranking))
        .route("/clarifications", get(clarifications).post(ask))
        .route("/events", get(events))
        .route("/language/{tag}", get(switch_language))
}

/// `?back=PATH`: where the language switch goes back to.
#[derive(serde::Deserialize)]
struct Back {
    back: Option<String>,
}

/// The language switch, on every page, signed in or not: remembers the
/// choice in a cookie (a year) and goes back to the page (only a path of
/// this site, `http::local_path`; else `/`).
async fn switch_language(
    State(app): State<Arc<App>>,
    Path(tag): Path<String>,
    axum::extract::Query(back): axum::extract::Query<Back>,
    jar: CookieJar,
) -> PageResult {
    let locale = crate::i18n::Locale::parse(&tag).ok_or(Fail::NotFound)?;
    let back = back
        .back
        .as_deref()
        .and_then(super::http::local_path)
        .unwrap_or_else(|| "/".into());
    let mut chosen = cookie(&app, super::http::LANG_COOKIE, locale.tag().to_string());
    chosen.set_max_age(time::Duration::days(365));
    Ok((jar.add(chosen), Redirect::to(&back)).into_response())
}

async fn home(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> PageResult {
    let viewer = signed_in(&id)?;
    let announcements: Vec<_> = app
        .db
        .announcements()?
        .into_iter()
        .map(|a| context! { when => when(&app, a.posted), text => a.text })
        .collect();
    let l = locale();
    let window = match app.contest.window {
        super::contest::Window::Open => l.t("home-window-open"),
        super::contest::Window::Timed { start, end, .. } => l.text(
            "home-window-timed",
            &[
                ("start", Arg::from(when(&app, start))),
                ("end", Arg::from(when(&app, end))),
            ],
        ),
    };
    let rules = l.t(&format!("home-rules-{}", app.contest.scoring.rules().as_str()));
    let open = after_end_open(&app, viewer.0);
    let solution = open && app.contest.after_end.solution && !app.problem.solutions.is_empty();
    let tests_zip = open && app.problem.tests_zip.is_some();
    render(
        &app,
        "home.html",
        Some(viewer),
        context! { announcements, window, rules, solution, tests_zip },
    )
}

async fn login_page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    jar: CookieJar,
) -> PageResult {
    if id.viewer.is_some() {
        return Ok(Redirect::to("/").into_response());
    }
    let token = auth::random_token();
    let jar = jar.add(cookie(&app, auth::LOGIN_COOKIE, token.clone()));
    let page = render(&app, "login.html", None, context! { login_csrf => token })?;
    Ok((jar, page).into_response())
}

/// The sign-in form's fields.
#[derive(serde::Deserialize)]
struct LoginForm {
    csrf: Option<String>,
    name: String,
    password: String,
}

async fn login(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    jar: CookieJar,
    axum::Form(form): axum::Form<LoginForm>,
) -> PageResult {
    let expected = jar
        .get(auth::LOGIN_COOKIE)
        .map(|c| c.value().to_string())
        .unwrap_or_default();
    check_csrf(&expected, form.csrf.as_deref())?;
    let device_cookie = auth::device_cookie_name(&form.name);
    let device = jar.get(&device_cookie).map(|c| c.value().to_string());
    let (user, device) =
        actions::verify(&app, id.address, &form.name, &form.password, device.as_deref()).await?;
    let token = auth::random_token();
    let csrf = auth::random_token();
    app.db.add_session(
        &auth::token_hash(&token),
        user.id,
        &csrf,
        super::now() + auth::SESSION_SECS,
    )?;
    let jar = jar
        .remove(Cookie::build(auth::LOGIN_COOKIE).path("/"))
        .add(cookie(&app, auth::SESSION_COOKIE, token))
        .add(device_cookie_of(&app, device_cookie, device));
    Ok((jar, Redirect::to("/")).into_response())
}

async fn logout(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    jar: CookieJar,
    axum::Form(form): axum::Form<CsrfForm>,
) -> PageResult {
    let (user, csrf) = signed_in(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    if let Some(c) = jar.get(auth::SESSION_COOKIE) {
        app.db.delete_session(&auth::token_hash(c.value()))?;
    }
    app.live.send(Event::Sessions { user_id: user.id });
    let jar = jar.remove(Cookie::build(auth::SESSION_COOKIE).path("/"));
    Ok((jar, Redirect::to("/login")).into_response())
}

async fn statement(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let samples: Vec<_> = app
        .problem
        .samples
        .iter()
        .filter_map(|text| crate::puzzle::sim::Puzzle::parse(text.as_bytes()).ok())
        .map(|p| context! { n => p.n, svg => crate::report::svg_board(&p.board, None, None) })
        .collect();
    let (statement, statement_lang, statement_note) = statement_for(&app, locale());
    render(
        &app,
        "statement.html",
        Some(viewer),
        context! { statement, statement_lang, statement_note, samples, defs => crate::report::board_defs() },
    )
}

/// Whether `viewer` may fetch what `[after_end]` allows: the teacher at
/// any time, a contestant once the contest has ended (an open practice
/// never ends).
fn after_end_open(app: &App, viewer: &super::db::User) -> bool {
    viewer.is_admin || app.contest.window.ended(super::now())
}

/// The package's write-up (题解), where `[after_end] solution` allows it
/// and the contest has ended (the teacher: at any time); else not found.
async fn solution(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> PageResult {
    let viewer = signed_in(&id)?;
    if !app.contest.after_end.solution || !after_end_open(&app, viewer.0) || app.problem.solutions.is_empty()
    {
        return Err(Fail::NotFound);
    }
    let (solution, solution_lang, solution_note) =
        in_language(&app.problem.solutions, locale(), String::new());
    render(
        &app,
        "solution.html",
        Some(viewer),
        context! { solution, solution_lang, solution_note },
    )
}

/// The tests as one zip, where `[after_end] tests` allows it and the
/// contest has ended (the teacher: at any time); else not found.
async fn tests_zip(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let Some(zip) = app
        .problem
        .tests_zip
        .as_ref()
        .filter(|_| after_end_open(&app, viewer.0))
    else {
        return Err(Fail::NotFound);
    };
    let disposition = format!("attachment; filename=\"{}-tests.zip\"", app.problem.name);
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "application/zip".to_string()),
            (axum::http::header::CONTENT_DISPOSITION, disposition),
        ],
        zip.clone(),
    )
        .into_response())
}

/// The statement in the viewer's language where the package has it, else
/// in another (English first), with a note saying so: `(html, its tag,
/// the note)`.
fn statement_for(app: &App, l: crate::i18n::Locale) -> (String, Option<String>, Option<String>) {
    in_language(&app.problem.statements, l, app.problem.statement.clone())
}

/// Of texts by language tag, the one in `l` where there is one, else
/// another (English first) with a note saying so, else `none`: `(html,
/// its tag, the note)`.
fn in_language(
    all: &[(String, String)],
    l: crate::i18n::Locale,
    none: String,
) -> (String, Option<String>, Option<String>) {
    let same = |tag: &str| crate::i18n::Locale::parse(tag) == Some(l);
    if let Some((tag, html)) = all.iter().find(|(tag, _)| same(tag)) {
        return (html.clone(), Some(tag.clone()), None);
    }
    let english = all.iter().find(|(tag, _)| tag == "en");
    match english.or_else(|| all.first()) {
        Some((tag, html)) => {
            let name = crate::i18n::Locale::parse(tag).map_or_else(|| tag.clone(), |o| o.name());
            let note = l.text("statement-other-language", &[("language", Arg::from(name))]);
            (html.clone(), Some(tag.clone()), Some(note))
        }
        None => (none, None, None),
    }
}

async fn submit_page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let closed = submission_closed(&app, viewer.0)?;
    let remaining = match app.contest.max_submissions {
        Some(max) => Some(i64::from(max) - app.db.submission_count(viewer.0.id)?),
        None => None,
    };
    let languages = app.problem.languages.clone();
    render(
        &app,
        "submit.html",
        Some(viewer),
        context! { closed, languages, remaining },
    )
}

/// Reads the submit form: `csrf`, `language`, `file` (upload), `code` (paste).
async fn read_form(app: &App, mut form: Multipart) -> Result<Sent, Fail> {
    let limit = app.problem.source_bytes as usize;
    let mut sent = Sent {
        language: String::new(),
        file_name: None,
        source: Vec::new(),
        csrf: None,
    };
    let mut pasted = Vec::new();
    while let Some(mut field) = form.next_field().await.map_err(form_error)? {
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(form_error)? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > limit {
                return Err(Fail::TooLarge(format!(
                    "The source is larger than {} KiB: refused.",
                    limit / 1024
                )));
            }
        }
        match name.as_str() {
            "csrf" => sent.csrf = Some(String::from_utf8_lossy(&bytes).into_owned()),
            "language" => sent.language = String::from_utf8_lossy(&bytes).trim().to_string(),
            "file" if !bytes.is_empty() => {
                sent.file_name = file_name;
                sent.source = bytes;
            }
            "code" => pasted = bytes,
            _ => {}
        }
    }
    if sent.source.is_empty() {
        sent.source = pasted;
    }
    Ok(sent)
}

/// A broken or oversized form.
fn form_error(e: axum::extract::multipart::MultipartError) -> Fail {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Fail::TooLarge(format!("The form is too large: {e}."))
    } else {
        Fail::Bad(format!("The form could not be read: {e}."))
    }
}

async fn submit(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    form: Multipart,
) -> PageResult {
    let (user, csrf) = signed_in(&id)?;
    let sent = read_form(&app, form).await?;
    check_csrf(csrf, sent.csrf.as_deref())?;
    let number = accept_submission(&app, user, sent)?;
    Ok(Redirect::to(&format!("/submissions/{number}")).into_response())
}

async fn my_submissions(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Query(paging): Query<Paging>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let page = app.db.submissions(Some(viewer.0.id), paging.before, PAGE_SIZE)?;
    let submissions: Vec<_> = page.rows.iter().map(|s| row_context(&app, viewer.0, s)).collect();
    render(
        &app,
        "submissions.html",
        Some(viewer),
        context! {
            heading => locale().t("submissions-yours"), submissions, base => "/submissions", show_user => false,
            page_path => "/submissions", older => page.older, paged => paging.before.is_some(),
        },
    )
}

/// A contestant as a submission's header names them: the display name
/// beside the login (`李四（lisi）`), or the login alone where they are one.
fn user_display(display: &str, login: &str) -> String {
    if display == login {
        return login.to_string();
    }
    let names = [
        ("display", Arg::from(display.to_string())),
        ("login", Arg::from(login.to_string())),
    ];
    locale().text("name-with-login", &names)
}

async fn submission_page(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(number): Path<i64>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let (row, source, report) = visible_submission(&app, viewer.0, number)?;
    let display = app
        .db
        .user(row.user_id)?
        .map_or_else(|| row.user.clone(), |u| u.display);
    let s =
        context! { user_display => user_display(&display, &row.user), ..row_context(&app, viewer.0, &row) };
    let done = row.state == "done";
    let shown = app.shown(viewer.0);
    let (tests, hidden, compile_error, replay) = match (&report, done) {
        (Some(r), true) => {
            let tests = app.visible_tests(viewer.0, r);
            let failing = tests
                .iter()
                .any(|t| t.verdict != crate::puzzle::verdict::Verdict::Accepted && t.judgement.is_some());
            let replay = failing.then(|| format!("/submissions/{number}/replay"));
            (
                tests.to_vec(),
                r.tests.len() - tests.len(),
                r.compile_error.clone().filter(|_| shown.compile_error),
                replay,
            )
        }
        _ => (Vec::new(), 0, None, None),
    };
    let hidden_tests = if tests.is_empty() { 0 } else { hidden };
    let l = locale();
    // Tests are numbered #1..#N (the shown ones are the first of the
    // report's); the file name is the teacher's detail.
    let tests: Vec<_> = tests
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let verdict_name = (!l.is_english()).then(|| crate::report::words::verdict_name(l, t.verdict));
            let file = viewer.0.is_admin.then(|| t.test.clone());
            context! {
                reason => crate::report::words::test_reason(l, t), verdict_name, number => i + 1, file,
                memory => crate::report::words::memory(t.memory_kib),
                ..minijinja::Value::from(minijinja::value::Serde(t))
            }
        })
        .collect();
    let (counterexample, counterexample_html) = counterexample_context(&app, viewer.0, &row)?;
    render(
        &app,
        "submission.html",
        Some(viewer),
        context! {
            s, tests, hidden_tests, compile_error, replay,
            refresh => !done || counterexample == Some("searching"),
            source => String::from_utf8_lossy(&source), admin_actions => viewer.0.is_admin,
            counterexample, counterexample_html, defs => crate::report::board_defs(),
        },
    )
}

/// The counterexample's state for the submission page (`None`: nothing to
/// show; `searching`, `none`, `found`) and, once found, its drawing.
fn counterexample_context(
    app: &App,
    viewer: &User,
    row: &super::db::SubmissionRow,
) -> Result<(Option<&'static str>, String), Fail> {
    use actions::CounterexampleShown as C;
    Ok(match actions::counterexample(app, viewer, row)? {
        C::Nothing => (None, String::new()),
        C::Searching => (Some("searching"), String::new()),
        C::NoneFound => (Some("none"), String::new()),
        C::Found(c) => (
            Some("found"),
            crate::report::counterexample_untitled(&c, locale()),
        ),
    })
}

/// The replay of one submission, a page of the site: its visible tests,
/// each wrong answer replayed move by move beside the reference's, a way
/// back to the submission.
async fn replay(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    Path(number): Path<i64>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let (row, _, report) = visible_submission(&app, viewer.0, number)?;
    let report = report
        .filter(|_| app.shows_result(viewer.0))
        .ok_or(Fail::NotFound)?;
    let mut shown = report.clone();
    shown.tests = app.visible_tests(viewer.0, &report).to_vec();
    if shown.tests.is_empty() {
        return Err(Fail::NotFound);
    }
    // A contestant reads the tests as #1..#N, the teacher their files too
    // (the report's sections number them: see `report::test_label`).
    if !viewer.0.is_admin {
        for (i, t) in shown.tests.iter_mut().enumerate() {
            t.test = format!("#{}", i + 1);
        }
    }
    let display = app
        .db
        .user(row.user_id)?
        .map_or_else(|| row.user.clone(), |u| u.display);
    // The section's heading: the contestant, then the file (never the
    // judge's own path of it).
    shown.contestant = Some(display.clone());
    let l = locale();
    shown.submission = l.text(
        "replay-section",
        &[
            ("id", Arg::from(number.to_string())),
            ("file", Arg::from(row.file_name.as_str())),
        ],
    );
    let mut grade = GradeReport::new(&app.problem.name, l.t("replay-sandbox"));
    grade.title = Some(app.problem.title.clone());
    grade.time_limit_ms = app.problem.time_ms;
    grade.tests = shown.tests.iter().map(|t| t.test.clone()).collect();
    grade.submissions = vec![shown];
    let s =
        context! { user_display => user_display(&display, &row.user), ..row_context(&app, viewer.0, &row) };
    render(
        &app,
        "replay.html",
        Some(viewer),
        context! { s, sections => replay_sections_in(&grade, l), defs => crate::report::board_defs() },
    )
}

async fn ranking(State(app): State<Arc<App>>, axum::Extension(id): axum::Extension<Identity>) -> PageResult {
    let viewer = signed_in(&id)?;
    let standings = current_standings(&app, viewer.0)?;
    let frozen = app.contest.window.frozen(super::now());
    let icpc = app.contest.scoring == super::contest::Scoring::Icpc;
    render(
        &app,
        "ranking.html",
        Some(viewer),
        context! { standings => minijinja::Value::from(minijinja::value::Serde(&standings)), frozen, icpc },
    )
}

async fn clarifications(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
) -> PageResult {
    let viewer = signed_in(&id)?;
    let clarifications: Vec<_> = actions::clarifications(&app, viewer.0)?
        .into_iter()
        .map(|c| {
            let asked_at = when(&app, c.asked);
            let answered_at = c.answered.filter(|_| c.answer.is_some()).map(|t| when(&app, t));
            context! { asked_at, answered_at, ..minijinja::Value::from(minijinja::value::Serde(&c)) }
        })
        .collect();
    render(
        &app,
        "clarifications.html",
        Some(viewer),
        context! { clarifications },
    )
}

/// The question form.
#[derive(serde::Deserialize)]
struct AskForm {
    csrf: Option<String>,
    question: String,
}

async fn ask(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    axum::Form(form): axum::Form<AskForm>,
) -> PageResult {
    let (user, csrf) = signed_in(&id)?;
    check_csrf(csrf, form.csrf.as_deref())?;
    let question = actions::text_field("question", &form.question)?;
    actions::ask(&app, user, &question)?;
    Ok(Redirect::to("/clarifications").into_response())
}

/// What one event tells a viewer, if it concerns them.
fn sse_message(
    app: &App,
    viewer: &User,
    l: crate::i18n::Locale,
    event: Event,
) -> Option<axum::response::sse::Event> {
    use axum::response::sse::Event as Sse;
    match event {
        Event::Submission { id, user_id } if user_id == viewer.id || viewer.is_admin => {
            let row = app.db.submission(id).ok()??.row;
            let (status, class, fin) = actions::status(app, viewer, &row);
            let status = super::http::status_words(l, &status);
            let data = serde_json::json!({ "id": id, "status": status, "class": class, "final": fin });
            Some(Sse::default().event("submission").data(data.to_string()))
        }
        Event::Submission { .. } => None,
        Event::Counterexample { id, user_id } if user_id == viewer.id || viewer.is_admin => {
            let row = app.db.submission(id).ok()??.row;
            let shown = actions::counterexample(app, viewer, &row).ok()?;
            if matches!(shown, actions::CounterexampleShown::Nothing) {
                return None;
            }
            let data = serde_json::json!({ "submission": id, "counterexample": shown.json() });
            Some(Sse::default().event("counterexample").data(data.to_string()))
        }
        Event::Counterexample { .. } => None,
        // Each stream makes its own (`ranking_message`).
        Event::Ranking => None,
        Event::Announcement => Some(Sse::default().event("announcement").data("{}")),
        Event::Clarification { user_id }
            if user_id.is_none() || user_id == Some(viewer.id) || viewer.is_admin =>
        {
            Some(Sse::default().event("clarification").data("{}"))
        }
        Event::Clarification { .. } => None,
        Event::Sessions { .. } => None,
    }
}

/// The `ranking` event of the changes since the last one (verdicts, a
/// rejudge, a disqualification; [`RANKING_EVERY`] coalesces a burst): the
/// lines of the ranking as `viewer` sees it that differ from the ones
/// `heard` (their rank, score, penalty, tries or pending changed), the
/// names no longer in it, whether it is frozen, and `changes`, how many
/// times the ranking changed since the server started (a listener counts
/// the verdicts one event carries by it); `heard` becomes the ranking now.
/// Sent even when nothing changed for this viewer.
fn ranking_message(
    app: &App,
    viewer: &User,
    heard: &mut Vec<Standing>,
) -> Option<axum::response::sse::Event> {
    let changes = app.live.ranking_changes();
    let now = current_standings(app, viewer).ok()?;
    let before: std::collections::HashMap<&str, &Standing> =
        heard.iter().map(|l| (l.name.as_str(), l)).collect();
    let lines: Vec<&Standing> = now
        .iter()
        .filter(|l| before.get(l.name.as_str()) != Some(l))
        .collect();
    let kept: std::collections::HashSet<&str> = now.iter().map(|l| l.name.as_str()).collect();
    let removed: Vec<&str> = heard
        .iter()
        .map(|l| l.name.as_str())
        .filter(|n| !kept.contains(n))
        .collect();
    let frozen = app.contest.window.frozen(super::now());
    let data =
        serde_json::json!({ "lines": lines, "removed": removed, "frozen": frozen, "changes": changes });
    let message = axum::response::sse::Event::default()
        .event("ranking")
        .data(data.to_string());
    *heard = now;
    Some(message)
}

/// How often an `/events` stream checks that its session still lives
/// (besides at once when a session of its user ends).
const SESSION_CHECK: std::time::Duration = std::time::Duration::from_secs(10);

/// At most one `ranking` event per stream in this time: the first change
/// after a quiet spell goes at once, the ones that follow within it wait
/// and go together as one event carrying every line they changed (what
/// DOMjudge's scoreboard refresh and CMS's ranking feed do), so a burst
/// of verdicts costs each stream a few events, not one per verdict.
pub const RANKING_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// One page's `/events` stream: what it heard of the ranking, and when
/// its next `ranking` event is due.
struct LiveStream {
    app: Arc<App>,
    viewer: User,
    l: crate::i18n::Locale,
    /// The hash of the stream's session token.
    session: String,
    events: tokio::sync::broadcast::Receiver<Event>,
    /// The ranking as this page last heard it: each `ranking` event
    /// carries only the lines that changed since.
    heard: Vec<Standing>,
    /// When the pending `ranking` event goes (`None`: none pending).
    due: Option<tokio::time::Instant>,
    /// When the last `ranking` event went.
    sent: Option<tokio::time::Instant>,
    next_check: tokio::time::Instant,
    /// The ranking's changes when the stream opened, told first (as a
    /// comment, which browsers skip: `: changes N`), then `None`.
    opened: Option<u64>,
}

impl LiveStream {
    /// The next message for the page, or `None` once its session ended.
    async fn next(&mut self) -> Option<axum::response::sse::Event> {
        use tokio::sync::broadcast::error::RecvError;
        if let Some(n) = self.opened.take() {
            return Some(axum::response::sse::Event::default().comment(format!("changes {n}")));
        }
        loop {
            let due = self.due;
            tokio::select! {
                () = tokio::time::sleep_until(due.unwrap_or(self.next_check)), if due.is_some() => {
                    self.due = None;
                    self.sent = Some(tokio::time::Instant::now());
                    if let Some(m) = ranking_message(&self.app, &self.viewer, &mut self.heard) {
                        return Some(m);
                    }
                }
                event = self.events.recv() => match event {
                    // Events missed (the channel overflowed): the ranking
                    // is sent whole again, as after any change.
                    Ok(Event::Ranking) | Err(RecvError::Lagged(_)) => self.ranking_changed(),
                    Ok(Event::Sessions { user_id }) if user_id == self.viewer.id => {
                        if !self.session_lives() {
                            return None;
                        }
                    }
                    Ok(e) => {
                        if let Some(m) = sse_message(&self.app, &self.viewer, self.l, e) {
                            return Some(m);
                        }
                    }
                    Err(RecvError::Closed) => return None,
                },
                () = tokio::time::sleep_until(self.next_check) => {
                    if !self.session_lives() {
                        return None;
                    }
                    self.next_check = tokio::time::Instant::now() + SESSION_CHECK;
                }
            }
        }
    }

    /// The ranking changed: a `ranking` event is due now, or
    /// [`RANKING_EVERY`] after the last one (one already due carries this
    /// change too).
    fn ranking_changed(&mut self) {
        if self.due.is_none() {
            let now = tokio::time::Instant::now();
            self.due = Some(self.sent.map_or(now, |s| (s + RANKING_EVERY).max(now)));
        }
    }

    fn session_lives(&self) -> bool {
        matches!(self.app.db.session(&self.session, super::now()), Ok(Some((u, _))) if u.id == self.viewer.id)
    }
}

/// The live events of a signed-in page, until its session ends (signed
/// out, signed out everywhere by the teacher, a new password, expired).
async fn events(
    State(app): State<Arc<App>>,
    axum::Extension(id): axum::Extension<Identity>,
    jar: CookieJar,
) -> Result<Response, Fail> {
    let viewer = signed_in(&id)?.0.clone();
    let session = jar
        .get(auth::SESSION_COOKIE)
        .map(|c| auth::token_hash(c.value()))
        .unwrap_or_default();
    // Counted before subscribing: a change between the two is in the
    // next event's count.
    let opened = Some(app.live.ranking_changes());
    let live = LiveStream {
        events: app.live.subscribe(),
        heard: current_standings(&app, &viewer).unwrap_or_default(),
        app,
        viewer,
        // The stream is read after this handler returns: its language now.
        l: locale(),
        session,
        due: None,
        sent: None,
        next_check: tokio::time::Instant::now() + SESSION_CHECK,
        opened,
    };
    let stream = futures_util::stream::unfold(live, |mut live| async move {
        let message = live.next().await?;
        Some((Ok::<_, std::convert::Infallible>(message), live))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}
