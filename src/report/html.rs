//! HTML: one self-contained page (inline CSS and SVG, nothing fetched).
//!
//! At the top, a grid of submission (contestant) by test, in ranking order,
//! whose every cell links to that submission's section, or to its failing
//! test there. Each section lists its tests and draws only the failing ones:
//! the reason in words, the contestant's moves beside the reference's as
//! text, and their moves replayed on the board (before each move, the
//! moving block outlined with an arrow toward where it goes; each removal
//! pass with the cleared blocks crossed out; the first wrong move boxed).
//! The reference solution of each test is replayed once, at the end, and
//! linked from every section that needs it.
//!
//! A class of 40 by 40 stays small by sharing what repeats: the CSS once;
//! the drawing of each colour's block, of the cross, the arrows and the
//! axes (x 0-4 under the board, y 0-6 beside it) defined once and placed
//! by reference (`<use>`), in board coordinates; a replay identical to one
//! already drawn (same test, same moves) is a link to it.

use super::ReportFormat;
use super::analysis::{Analysis, Input, analyse};
use super::words;
use crate::i18n::{Arg, Locale};
use crate::judge::grading::{Counterexample, GradeReport, SubmissionReport, TestResult};
use crate::puzzle::checker::Judgement;
use crate::puzzle::sim::{Board, Dir, HEIGHT, Marks, Move, Puzzle, WIDTH, is_marked};
use crate::puzzle::verdict::Verdict;
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use html_escape::encode_text as esc;
use std::collections::HashMap;
use std::fmt::Write;

/// Self-contained HTML.
pub struct Html;

/// Fill colours of colours 1..=10 (index 0 unused), far apart in hue.
const FILL: [&str; 11] = [
    "", "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
    "#9a6324",
];

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1400px}\
.side{display:flex;gap:2em;flex-wrap:wrap}.analysis .figure{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}\
.analysis .figure .chart{flex:1 1 22em;min-width:0;max-width:44em}.analysis svg.chart{width:100%;height:auto}\
.analysis .figure .table{flex:1 1 16em;min-width:0;overflow-x:auto}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}\
.grid td.v{text-align:center;padding:0}.grid td.v a{display:block;padding:.2em .4em;text-decoration:none;color:inherit}\
.AC{color:#1a7f37}.AC.v{background:#e6f4ea}.bad{color:#b00020;font-weight:bold}.bad.v{background:#fde7e9}\
.near.v{background:#fff4d6}a{color:#0b57d0}\
section.sub{border-top:3px solid #bbb;margin-top:2em}section.test{border-top:1px solid #ddd;margin-top:1em;padding-top:.3em}\
.moves{display:flex;gap:2em;flex-wrap:wrap}.moves pre{margin:.2em 0}\
.mv{margin:.5em 0}.fr{display:flex;gap:.6em;flex-wrap:wrap;align-items:flex-end}\
figure{margin:0;text-align:center}figcaption{font-size:.75em;color:#555}.wrong{outline:3px solid #b00020;padding:.2em}\
svg.b{width:104px;height:130px}svg.defs{position:absolute}";

/// The board's view box, in cells: the board, the axes' labels left and
/// below, room for an arrow off the right edge (`svg.b` draws it at 16 px a cell).
const VIEW_BOX: &str = "-.8 -.1 6.5 8.1";

/// What every board refers to, defined once: a block of each colour `k1`
/// to `k10` (a unit square with its number), the axes `ax` (the frame, x
/// 0-4 under it, y 0-6 beside it, row 0 at the bottom), the cross `x` and
/// the moving block `r` (right) / `l` (left) with its arrow. No inline
/// `style` (a page whose Content-Security-Policy forbids it embeds these):
/// the class `defs` takes it out of the flow (`svg.defs{position:absolute}`).
pub fn board_defs() -> String {
    let mut d = String::from("<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>");
    for (k, fill) in FILL.iter().enumerate().skip(1) {
        let _ = write!(
            d,
            "<g id=\"k{k}\"><rect width=\"1\" height=\"1\" fill=\"{fill}\" stroke=\"#fff\" stroke-width=\".05\"/>\
             <text x=\".5\" y=\".7\" font-size=\".5\" text-anchor=\"middle\">{k}</text></g>"
        );
    }
    let _ = write!(
        d,
        "<g id=\"ax\" font-size=\".45\" fill=\"#555\"><rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#f4f4f4\" stroke=\"#999\" stroke-width=\".04\"/>"
    );
    for x in 0..WIDTH {
        let _ = write!(
            d,
            "<text x=\"{}.5\" y=\"{}.55\" text-anchor=\"middle\">{x}</text>",
            x, HEIGHT
        );
    }
    for y in 0..HEIGHT {
        let _ = write!(
            d,
            "<text x=\"-.4\" y=\"{}.65\" text-anchor=\"middle\">{y}</text>",
            HEIGHT - 1 - y
        );
    }
    d.push_str(
        "</g><path id=\"x\" d=\"M.15 .15L.85 .85M.85 .15L.15 .85\" stroke=\"#b00020\" stroke-width=\".12\"/>\
         <g id=\"r\" fill=\"none\" stroke=\"#000\" stroke-width=\".1\"><rect x=\".05\" y=\".05\" width=\".9\" height=\".9\"/>\
         <path d=\"M.5 .5H1.45M1.2 .28L1.45 .5L1.2 .72\"/></g>\
         <g id=\"l\" fill=\"none\" stroke=\"#000\" stroke-width=\".1\"><rect x=\".05\" y=\".05\" width=\".9\" height=\".9\"/>\
         <path d=\"M.5 .5H-.45M-.2 .28L-.45 .5L-.2 .72\"/></g></defs></svg>",
    );
    d
}

/// A page in `l`: its `lang`, and for Chinese, CJK fonts first.
fn page(title: &str, body: &str, l: Locale) -> String {
    let fonts = if l.tag().starts_with("zh") { CJK_FONTS } else { "" };
    format!(
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}{fonts}</style></head>\n\
         <body>\n{}{body}\n<script>{SCRIPT}</script>\n</body></html>\n",
        l.tag(),
        esc(title),
        board_defs()
    )
}

/// The font stack of a Chinese page: CJK fonts first.
const CJK_FONTS: &str = "body{font-family:\"PingFang SC\",\"Microsoft YaHei\",\"Noto Sans CJK SC\",\"Source Han Sans SC\",sans-serif}";

/// A message with its arguments, as text.
fn say(l: Locale, id: &str, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, Arg)> = args.iter().map(|(k, v)| (*k, Arg::from(v.as_str()))).collect();
    l.text(id, &args)
}

/// The page's own check, for a browser test: the boards drawn, the
/// in-page links, and those whose target is missing.
const SCRIPT: &str = "const d=document.body.dataset;d.rendered=String(document.querySelectorAll('svg.b').length);\
const ls=[...document.querySelectorAll('a[href^=\"#\"]')];d.links=String(ls.length);\
d.brokenLinks=String(ls.filter(a=>!document.getElementById(a.getAttribute('href').slice(1))).length);";

/// The board as SVG in board coordinates: axes, blocks, the `cleared`
/// cells crossed out, the `mover` outlined with an arrow.
pub fn svg_board(board: &Board, cleared: Option<&Marks>, mover: Option<Move>) -> String {
    let mut s = format!("<svg class=\"b\" viewBox=\"{VIEW_BOX}\"><use href=\"#ax\"/>");
    let top = |y: usize| HEIGHT - 1 - y;
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            let c = board.get(x, y);
            if c != 0 {
                let _ = write!(s, "<use href=\"#k{c}\" x=\"{x}\" y=\"{}\"/>", top(y));
            }
            if c != 0 && cleared.is_some_and(|m| is_marked(m, x, y)) {
                let _ = write!(s, "<use href=\"#x\" x=\"{x}\" y=\"{}\"/>", top(y));
            }
        }
    }
    if let Some(m) = mover {
        let id = if m.dir == Dir::Right { "r" } else { "l" };
        let _ = write!(
            s,
            "<use href=\"#{id}\" x=\"{}\" y=\"{}\"/>",
            m.x,
            top(m.y as usize)
        );
    }
    s.push_str("</svg>");
    s
}

fn figure(svg: String, caption: &str) -> String {
    format!("<figure>{svg}<figcaption>{}</figcaption></figure>", esc(caption))
}

/// Every move of a sequence as a row of frames: the board before it (the
/// moving block marked), then each removal pass (cleared blocks crossed
/// out); the last board after the last move. `wrong` is the 1-based move to
/// box.
fn replay(puzzle: &Puzzle, moves: &[Move], wrong: Option<usize>, l: Locale) -> String {
    let mut out = String::new();
    let mut board = puzzle.board;
    for (i, &mv) in moves.iter().enumerate() {
        let trace = board.play_traced(mv);
        let class = if wrong == Some(i + 1) { " wrong" } else { "" };
        let _ = write!(
            out,
            "<div class=\"mv{class}\"><b>{}</b><div class=\"fr\">",
            esc(&say(
                l,
                "html-move",
                &[("k", (i + 1).to_string()), ("move", mv.to_string())]
            ))
        );
        out.push_str(&figure(
            svg_board(&trace.before, None, Some(mv)),
            &say(
                l,
                "html-before",
                &[("blocks", trace.before.block_count().to_string())],
            ),
        ));
        for (k, step) in trace.steps.iter().enumerate() {
            let n: u32 = step.cleared.iter().map(|m| m.count_ones()).sum();
            out.push_str(&figure(
                svg_board(&step.board, Some(&step.cleared), None),
                &say(
                    l,
                    "html-pass",
                    &[("k", (k + 1).to_string()), ("n", n.to_string())],
                ),
            ));
        }
        if i + 1 == moves.len() {
            out.push_str(&figure(
                svg_board(&trace.after, None, None),
                &say(
                    l,
                    "html-after",
                    &[("blocks", trace.after.block_count().to_string())],
                ),
            ));
        }
        out.push_str("</div></div>");
        board = trace.after;
    }
    out
}

/// Moves as the answer's text, one per line (`-1` for none).
fn moves_text(moves: Option<&[Move]>) -> String {
    match moves {
        None => "-1".into(),
        Some(m) => m.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("\n"),
    }
}

/// Ids: `s<i>` a submission's section, `s<i>-t<j>` its failing test `j`,
/// `t<j>` test `j`'s reference replay.
fn sub_id(i: usize) -> String {
    format!("s{i}")
}

fn test_id(i: usize, j: usize) -> String {
    format!("s{i}-t{j}")
}

/// What is shared while the page is written: the replays already drawn, by
/// test and moves (the anchor and who it was), and which tests need their
/// reference drawn.
#[derive(Default)]
struct Shared {
    drawn: HashMap<(usize, String), (String, String)>,
    references: Vec<bool>,
    /// The page's language.
    l: Locale,
}

/// Whether a test failed.
fn failing(t: &TestResult) -> bool {
    t.verdict != Verdict::Accepted
}

/// Whether a test gets a section of its own: it failed, and its output was
/// checked (there is something to show beyond the reason).
fn drawable(t: &TestResult) -> bool {
    failing(t) && t.judgement.is_some() && Puzzle::parse(t.input.as_bytes()).is_ok()
}

/// The summary grid: one row per submission, in ranking order.
fn grid(report: &GradeReport, failed: &[bool], l: Locale) -> String {
    let mut g = format!(
        "<table class=\"grid\"><tr><th>{}</th><th>{}</th><th>{}</th>",
        esc(&l.t("html-rank")),
        esc(&l.t("html-contestant")),
        esc(&l.t("html-total"))
    );
    for (j, t) in report.tests.iter().enumerate() {
        let label = if failed[j] {
            format!("<a href=\"#t{j}\">{}</a>", j + 1)
        } else {
            (j + 1).to_string()
        };
        let _ = write!(g, "<th title=\"{}\">{label}</th>", esc(t));
    }
    g.push_str("</tr>");
    for (rank, i, s) in super::ranked(report) {
        let _ = write!(
            g,
            "<tr><td>{rank}</td><td><a href=\"#{}\">{}</a></td><td>{} / {}</td>",
            sub_id(i),
            esc(s.name()),
            s.score,
            s.max_score
        );
        let whole = if s.no_program.is_some() {
            Some(words::no_program_short(l, s))
        } else if s.judge_error.is_some() {
            Some(l.t("html-judge-error"))
        } else if s.compile_error.is_some() {
            Some(l.t("html-grid-ce"))
        } else {
            None
        };
        if let Some(what) = whole {
            let _ = write!(
                g,
                "<td class=\"v bad\" colspan=\"{}\"><a href=\"#{}\">{}</a></td></tr>",
                report.tests.len().max(1),
                sub_id(i),
                esc(&what)
            );
            continue;
        }
        for (j, name) in report.tests.iter().enumerate() {
            let code = super::short_verdict(report, s, name);
            let (class, target) = match super::result_of(s, name) {
                Some(_) if report.broken(name).is_some() => ("bad", "broken".to_string()),
                Some(t) if failing(t) => ("bad", test_id(i, j)),
                Some(t) if t.near_limit(report.time_limit_ms) => ("AC near", sub_id(i)),
                _ => ("AC", sub_id(i)),
            };
            let _ = write!(
                g,
                "<td class=\"v {class}\" title=\"{}\"><a href=\"#{target}\">{code}</a></td>",
                esc(name)
            );
        }
        g.push_str("</tr>");
    }
    g.push_str("</table>");
    g
}

/// One submission's section: its tests, and each failing one drawn.
fn section(report: &GradeReport, i: usize, s: &SubmissionReport, shared: &mut Shared) -> String {
    let l = shared.l;
    let mut b = format!(
        "<section class=\"sub\" id=\"{}\"><h2>{}</h2><p>{} &middot; {} &middot; {} / {}</p>",
        sub_id(i),
        esc(s.name()),
        esc(&s.submission),
        esc(if s.language.is_empty() { "-" } else { &s.language }),
        s.score,
        s.max_score
    );
    if let Some(why) = not_run(s, l) {
        b.push_str(&why);
        b.push_str("</section>");
        return b;
    }
    b.push_str(&tests_table(report, i, s, l));
    for t in s
        .tests
        .iter()
        .filter(|t| drawable(t) && report.broken(&t.test).is_none())
    {
        let j = report.tests.iter().position(|n| *n == t.test).unwrap_or(0);
        b.push_str(&failed_test(i, j, s, t, shared));
    }
    if let Some(c) = &s.counterexample {
        b.push_str(&counterexample_section(c, l));
    }
    b.push_str("</section>");
    b
}

/// Why a submission's tests did not run, if they did not: no program, a
/// judge error, or a compilation error (with the compiler's message).
fn not_run(s: &SubmissionReport, l: Locale) -> Option<String> {
    if let Some(why) = words::no_program(l, s) {
        return Some(format!("<p class=\"bad\">{}</p>", esc(&why)));
    }
    if let Some(e) = words::judge_error(l, s) {
        let words = say(l, "html-judge-error-because", &[("error", e)]);
        return Some(format!("<p class=\"bad\">{}</p>", esc(&words)));
    }
    s.compile_error.as_ref().map(|ce| {
        format!(
            "<p class=\"bad\">{}</p><pre>{}</pre>",
            esc(&l.t("html-compilation-error")),
            esc(ce)
        )
    })
}

/// A submission's table of tests: verdict (linked to its drawing, or
/// anchoring the failure itself), time, memory and the reason in words.
fn tests_table(report: &GradeReport, i: usize, s: &SubmissionReport, l: Locale) -> String {
    let mut b = String::from("<table><tr>");
    for id in [
        "html-test",
        "html-verdict",
        "html-time",
        "html-memory",
        "html-reason",
    ] {
        let _ = write!(b, "<th>{}</th>", esc(&l.t(id)));
    }
    b.push_str("</tr>");
    for t in &s.tests {
        let broken = report.broken(&t.test).is_some();
        let reason = if broken {
            l.t("html-broken-test")
        } else {
            words::test_reason(l, t)
        };
        let (row_id, cell) = verdict_cell(report, i, s, t);
        let _ = write!(
            b,
            "<tr{row_id}><td>{}</td><td>{cell}</td><td>{} ms</td><td>{}</td><td>{}</td></tr>",
            esc(&super::test_label(report, &t.test)),
            t.time_ms,
            words::memory(t.memory_kib),
            esc(&reason)
        );
    }
    b.push_str("</table>");
    b
}

/// The verdict cell of test `t` in submission `i`'s table, and the row's
/// `id` attribute (empty unless the row itself is the failure's anchor).
/// A failing test is linked to by its drawing, or else by this row.
fn verdict_cell(report: &GradeReport, i: usize, s: &SubmissionReport, t: &TestResult) -> (String, String) {
    let j = report.tests.iter().position(|n| *n == t.test).unwrap_or(0);
    let verdict = super::short_verdict(report, s, &t.test);
    if report.broken(&t.test).is_some() {
        (
            String::new(),
            format!("<a class=\"bad\" href=\"#broken\">{verdict}</a>"),
        )
    } else if drawable(t) {
        (
            String::new(),
            format!("<a class=\"bad\" href=\"#{}\">{verdict}</a>", test_id(i, j)),
        )
    } else if failing(t) {
        (
            format!(" id=\"{}\"", test_id(i, j)),
            format!("<span class=\"bad\">{verdict}</span>"),
        )
    } else {
        (String::new(), format!("<span class=\"AC\">{verdict}</span>"))
    }
}

/// A failing test of a submission: the reason, both answers as text, and
/// the contestant's moves replayed (or a link to the same replay drawn
/// for someone else).
fn failed_test(i: usize, j: usize, s: &SubmissionReport, t: &TestResult, shared: &mut Shared) -> String {
    let id = test_id(i, j);
    let l = shared.l;
    let verdict = match l.is_english() {
        true => t.verdict.to_string(),
        false => format!("{} {}", t.verdict, words::verdict_name(l, t.verdict)),
    };
    let mut b = format!(
        "<section class=\"test\" id=\"{id}\"><h3>{} <span class=\"bad\">{}</span></h3><p>{}</p>",
        esc(&super::numbered(j + 1, &t.test)),
        esc(&verdict),
        esc(&words::test_reason(l, t))
    );
    let (Some(judgement), Ok(puzzle)) = (&t.judgement, Puzzle::parse(t.input.as_bytes())) else {
        b.push_str("</section>");
        return b;
    };
    shared.references[j] = true;
    let reference = judgement.reference.solution();
    let _ = write!(
        b,
        "<div class=\"moves\"><div>{}<pre>{}</pre></div><div>{} (<a href=\"#t{j}\">{}</a>)<pre>{}</pre></div></div>",
        esc(&l.t("html-their-answer")),
        esc(&answer_text(judgement, l)),
        esc(&l.t("html-the-reference")),
        esc(&l.t("html-replayed")),
        esc(&moves_text(reference))
    );
    if judgement.moves.is_empty() {
        b.push_str("</section>");
        return b;
    }
    let key = (j, moves_text(Some(&judgement.moves)));
    match shared.drawn.get(&key) {
        Some((at, who)) => {
            let _ = write!(
                b,
                "<p>{} <a href=\"#{at}\">{}</a>{}</p>",
                esc(&l.t("html-same-moves-as")),
                esc(who),
                esc(&l.t("html-replayed-there"))
            );
        }
        None => {
            b.push_str(&replay(&puzzle, &judgement.moves, judgement.first_wrong_move, l));
            shared.drawn.insert(key, (id, s.name().to_string()));
        }
    }
    if let Some(diff) = &t.diff {
        let _ = write!(
            b,
            "<details><summary>{}</summary><pre>{}</pre></details>",
            esc(&l.t("html-diff")),
            esc(diff)
        );
    }
    b.push_str("</section>");
    b
}

/// The contestant's answer as judged: their moves, `-1`, or nothing.
fn answer_text(j: &Judgement, l: Locale) -> String {
    if j.moves.is_empty() {
        match j.reason {
            crate::puzzle::checker::Reason::MissedSolution { .. } => "-1".into(),
            _ if j.verdict == crate::puzzle::verdict::Verdict::PresentationError => {
                l.t("html-answer-unreadable")
            }
            _ => l.t("html-no-legal-move"),
        }
    } else {
        moves_text(Some(&j.moves))
    }
}

/// The reference replays of the tests someone failed, each drawn once.
fn references(report: &GradeReport, shared: &Shared) -> String {
    let l = shared.l;
    let mut b = String::new();
    for (j, name) in report
        .tests
        .iter()
        .enumerate()
        .filter(|(j, _)| shared.references[*j])
    {
        let Some(t) = report
            .submissions
            .iter()
            .find_map(|s| super::result_of(s, name).filter(|t| t.judgement.is_some()))
        else {
            continue;
        };
        let Ok(puzzle) = Puzzle::parse(t.input.as_bytes()) else {
            continue;
        };
        let _ = write!(
            b,
            "<section class=\"test\" id=\"t{j}\"><h3>{}</h3><p>{}</p>{}",
            esc(&say(
                l,
                "html-reference-heading",
                &[("test", super::numbered(j + 1, name))]
            )),
            esc(&say(
                l,
                "html-reference-size",
                &[
                    ("n", puzzle.n.to_string()),
                    ("blocks", puzzle.board.block_count().to_string())
                ]
            )),
            figure(svg_board(&puzzle.board, None, None), &l.t("html-the-puzzle"))
        );
        match t.judgement.as_ref().and_then(|j| j.reference.solution()) {
            Some(moves) if !moves.is_empty() => b.push_str(&replay(&puzzle, moves, None, l)),
            _ => {
                let _ = write!(b, "<p>{}</p>", esc(&l.t("html-no-solution")));
            }
        }
        b.push_str("</section>");
    }
    if !b.is_empty() {
        b.insert_str(0, &format!("<h2>{}</h2>", esc(&l.t("html-references"))));
    }
    b
}

/// The replay of a report's submissions, to embed in a page of a site
/// (the online judge's replay page): each submission's section (its tests,
/// each failing one drawn) and the reference replays, without the page
/// around them, the title or the summary grid. The page must give the
/// board definitions ([`board_defs`]) and the style of the classes used
/// (`src/server/templates/style.css` does).
pub fn replay_sections(report: &GradeReport) -> String {
    replay_sections_in(report, Locale::english())
}

/// [`replay_sections`] in a language.
pub fn replay_sections_in(report: &GradeReport, l: Locale) -> String {
    let report = &*super::with_every_test(report);
    let mut shared = Shared {
        references: vec![false; report.tests.len()],
        l,
        ..Shared::default()
    };
    let mut body = String::new();
    for (i, s) in report.submissions.iter().enumerate() {
        body.push_str(&section(report, i, s, &mut shared));
    }
    body.push_str(&references(report, &shared));
    body
}

/// A failing program's counterexample, as a section (the online judge's
/// submission page, and each failing student's section of `grade --html
/// --counterexamples`): the board drawn, the verdict and the checker's
/// reason, the program's output, then its legal moves replayed beside the
/// smallest solution replayed. The page gives the board definitions
/// ([`board_defs`]) and the style.
pub fn counterexample_section(c: &Counterexample, l: Locale) -> String {
    counterexample(c, l, true)
}

/// The same section without its heading, under a page's own (the online
/// judge's submission page titles it once): the verdict opens the reason.
pub fn counterexample_untitled(c: &Counterexample, l: Locale) -> String {
    counterexample(c, l, false)
}

/// A counterexample's section, with its `<h3>` heading where `titled`.
fn counterexample(c: &Counterexample, l: Locale, titled: bool) -> String {
    let t = &c.result;
    let Ok(puzzle) = Puzzle::parse(t.input.as_bytes()) else {
        return String::new();
    };
    let found = say(
        l,
        "cx-found",
        &[
            ("n", puzzle.n.to_string()),
            ("blocks", puzzle.board.block_count().to_string()),
            ("boards", c.boards.to_string()),
            ("runs", c.runs.to_string()),
        ],
    );
    let verdict = format!("<span class=\"bad\">{}</span>", t.verdict);
    let (heading, verdict_first) = match titled {
        true => (
            format!("<h3>{} {verdict}</h3>", esc(&l.t("cx-heading"))),
            String::new(),
        ),
        false => (String::new(), format!("{verdict} ")),
    };
    let mut b = format!(
        "<section class=\"test counterexample\">{heading}<p class=\"reason\">{verdict_first}{}</p><p>{}</p>{}",
        esc(&words::test_reason(l, t)),
        esc(&found),
        figure(svg_board(&puzzle.board, None, None), &l.t("cx-board"))
    );
    let output = if c.output.trim().is_empty() {
        l.t("cx-nothing")
    } else {
        c.output.clone()
    };
    let _ = write!(
        b,
        "<div class=\"moves\"><div>{}<pre>{}</pre></div><div>{}<pre>{}</pre></div><div>{}<pre>{}</pre></div></div>",
        esc(&l.t("cx-input")),
        esc(&t.input),
        esc(&l.t("cx-output")),
        esc(&output),
        esc(&l.t("cx-smallest")),
        esc(&c.answer)
    );
    b.push_str(&counterexample_replays(&puzzle, t, l));
    b.push_str("</section>");
    b
}

/// The program's legal moves replayed beside the smallest solution.
fn counterexample_replays(puzzle: &Puzzle, t: &TestResult, l: Locale) -> String {
    let mut b = format!(
        "<div class=\"side\"><div><h4>{}</h4>",
        esc(&l.t("cx-their-moves"))
    );
    match t.judgement.as_ref().filter(|j| !j.moves.is_empty()) {
        Some(j) => b.push_str(&replay(puzzle, &j.moves, j.first_wrong_move, l)),
        None => {
            let _ = write!(b, "<p>{}</p>", esc(&l.t("cx-no-legal-move")));
        }
    }
    let _ = write!(b, "</div><div><h4>{}</h4>", esc(&l.t("cx-smallest")));
    match t.judgement.as_ref().map(|j| j.reference.solution()) {
        Some(Some(m)) if !m.is_empty() => b.push_str(&replay(puzzle, m, None, l)),
        Some(_) => {
            let _ = write!(b, "<p>{}</p>", esc(&l.t("cx-no-solution")));
        }
        None => {
            let _ = write!(b, "<p>{}</p>", esc(&l.t("cx-failed-before-check")));
        }
    }
    b.push_str("</div></div>");
    b
}

/// A time zone as pages name it: `UTC`, `UTC+08:00`.
pub fn zone_name(o: time::UtcOffset) -> String {
    if o.is_utc() {
        return "UTC".into();
    }
    let sign = if o.is_negative() { '-' } else { '+' };
    format!(
        "UTC{sign}{:02}:{:02}",
        o.whole_hours().unsigned_abs(),
        o.minutes_past_hour().unsigned_abs()
    )
}

/// The teacher's analysis of a class (`/admin/analysis`, and the section
/// of a contest's HTML report), in `l`'s language, its times in `zone`
/// (the contest's): each figure as a chart (SVG, [`super::chart`]) beside
/// a table of the same figures.
pub fn analysis_section(a: &Analysis, l: Locale, zone: time::UtcOffset) -> String {
    let mut b = format!(
        "<section class=\"analysis\" id=\"analysis\"><p>{}</p>",
        esc(&l.text(
            "analysis-summary",
            &[
                ("contestants", Arg::from(a.contestants)),
                ("submissions", Arg::from(a.submissions)),
            ],
        ))
    );
    b.push_str(&pass_figure(a, l));
    b.push_str(&verdicts_figure(a, l));
    b.push_str(&scores_and_time(a, l, zone));
    b.push_str(&rules_figure(a, l));
    b.push_str("</section>");
    b
}

/// Pass rate and separation per test (grouped where the package groups),
/// a chart beside its table, then the note on what separation means.
fn pass_figure(a: &Analysis, l: Locale) -> String {
    use super::chart::{Chart, Series, bars};
    let t = |id: &str| l.t(id);
    let labels: Vec<String> = a.tests.iter().map(|f| f.test.clone()).collect();
    let (pass, sep) = (t("analysis-pass-rate"), t("analysis-separation"));
    let chart = bars(&Chart {
        title: &t("analysis-pass-title"),
        y: "%",
        labels,
        series: vec![Series {
            name: &pass,
            values: a.tests.iter().map(|f| f.rate).collect(),
        }],
    });
    let mut rows = String::new();
    for f in &a.tests {
        let _ = write!(
            rows,
            "<tr><td>{}</td><td>{}</td><td>{}/{}</td><td>{:.0}%</td><td>{:+.0}</td></tr>",
            esc(&f.test),
            esc(f.group.as_deref().unwrap_or("")),
            f.passed,
            f.of,
            f.rate,
            f.separation
        );
    }
    let head = [
        t("analysis-test"),
        t("analysis-group"),
        t("analysis-passed"),
        pass.clone(),
        sep,
    ];
    let mut b = figure_and_table("pass", &t("analysis-pass-title"), &chart, &head, &rows);
    b.push_str(&format!(
        "<p class=\"note\">{}</p>",
        esc(&t("analysis-separation-note"))
    ));
    b
}

/// The verdicts per test, stacked: a chart beside its table (a column per
/// verdict met).
fn verdicts_figure(a: &Analysis, l: Locale) -> String {
    use super::chart::{Chart, Series, bars};
    let t = |id: &str| l.t(id);
    let codes: Vec<String> = {
        let mut c: Vec<String> = a.tests.iter().flat_map(|f| f.verdicts.keys().cloned()).collect();
        c.sort();
        c.dedup();
        c
    };
    let chart = bars(&Chart {
        title: &t("analysis-verdicts-title"),
        y: &t("analysis-contestants"),
        labels: a.tests.iter().map(|f| f.test.clone()).collect(),
        series: codes
            .iter()
            .map(|c| Series {
                name: c,
                values: a
                    .tests
                    .iter()
                    .map(|f| *f.verdicts.get(c).unwrap_or(&0) as f64)
                    .collect(),
            })
            .collect(),
    });
    let mut rows = String::new();
    for f in &a.tests {
        let _ = write!(rows, "<tr><td>{}</td>", esc(&f.test));
        for c in &codes {
            let _ = write!(rows, "<td>{}</td>", f.verdicts.get(c).unwrap_or(&0));
        }
        rows.push_str("</tr>");
    }
    let head: Vec<String> = std::iter::once(t("analysis-test"))
        .chain(codes.iter().cloned())
        .collect();
    figure_and_table("verdicts", &t("analysis-verdicts-title"), &chart, &head, &rows)
}

/// The score bands and the timeline, each a chart beside its table.
fn scores_and_time(a: &Analysis, l: Locale, zone: time::UtcOffset) -> String {
    use super::chart::{Chart, Series, lines};
    let t = |id: &str| l.t(id);
    let labels: Vec<String> = a.scores.iter().map(|s| format!("{}-{}", s.lo, s.hi)).collect();
    let counts: Vec<usize> = a.scores.iter().map(|s| s.count).collect();
    let words = ("analysis-scores-title", "analysis-score", "analysis-contestants");
    let mut b = counts_figure("scores", l, words, &labels, &counts);
    let clock = |secs: i64| {
        time::OffsetDateTime::from_unix_timestamp(secs)
            .map(|d| d.to_offset(zone))
            .map(|d| format!("{:02}:{:02}", d.hour(), d.minute()))
            .unwrap_or_default()
    };
    let labels: Vec<String> = a.timeline.iter().map(|p| clock(p.start)).collect();
    let (subs, firsts) = (t("analysis-submissions"), t("analysis-first-accepted"));
    let chart = lines(&Chart {
        title: &t("analysis-time-title"),
        y: &subs,
        labels: labels.clone(),
        series: vec![
            Series {
                name: &subs,
                values: a.timeline.iter().map(|p| p.submissions as f64).collect(),
            },
            Series {
                name: &firsts,
                values: a.timeline.iter().map(|p| p.first_accepted as f64).collect(),
            },
        ],
    });
    let rows: String = a
        .timeline
        .iter()
        .map(|p| {
            format!(
                "<tr><td>{}–{} {}</td><td>{}</td><td>{}</td></tr>",
                clock(p.start),
                clock(p.end),
                zone_name(zone),
                p.submissions,
                p.first_accepted
            )
        })
        .collect();
    let head = [t("analysis-period"), subs, firsts];
    b.push_str(&figure_and_table(
        "time",
        &t("analysis-time-title"),
        &chart,
        &head,
        &rows,
    ));
    b
}

/// The rules the counterexamples break, most broken first.
fn rules_figure(a: &Analysis, l: Locale) -> String {
    let t = |id: &str| l.t(id);
    if a.rules.is_empty() {
        return format!(
            "<h3 id=\"rules\">{}</h3><p>{}</p>",
            esc(&t("analysis-rules-title")),
            esc(&t("analysis-rules-none"))
        );
    }
    let labels: Vec<String> = a
        .rules
        .iter()
        .map(|r| t(&format!("analysis-rule-{}", r.kind)))
        .collect();
    let counts: Vec<usize> = a.rules.iter().map(|r| r.count).collect();
    let words = (
        "analysis-rules-title",
        "analysis-rule",
        "analysis-counterexamples",
    );
    counts_figure("rules", l, words, &labels, &counts)
}

/// One count per label, as bars beside their table; `words`: the ids of
/// the title, the labels' heading and the counts' unit.
fn counts_figure(
    id: &str,
    l: Locale,
    words: (&str, &str, &str),
    labels: &[String],
    counts: &[usize],
) -> String {
    use super::chart::{Chart, Series, bars};
    let (title, unit) = (l.t(words.0), l.t(words.2));
    let chart = bars(&Chart {
        title: &title,
        y: &unit,
        labels: labels.to_vec(),
        series: vec![Series {
            name: &unit,
            values: counts.iter().map(|&c| c as f64).collect(),
        }],
    });
    let rows: String = labels
        .iter()
        .zip(counts)
        .map(|(l, c)| format!("<tr><td>{}</td><td>{c}</td></tr>", esc(l)))
        .collect();
    figure_and_table(id, &title, &chart, &[l.t(words.1), unit], &rows)
}

/// A heading, then a chart and the table of its figures side by side
/// (one above the other on a narrow screen).
fn figure_and_table<S: AsRef<str>>(id: &str, title: &str, chart: &str, head: &[S], rows: &str) -> String {
    let head: String = head
        .iter()
        .map(|h| format!("<th>{}</th>", esc(h.as_ref())))
        .collect();
    format!(
        "<h3 id=\"{id}\">{}</h3><div class=\"figure\"><div class=\"chart\">{chart}</div>\
         <div class=\"table\"><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div></div>",
        esc(title)
    )
}

impl Html {
    /// A grading session's page in a language (the teacher's report in
    /// Chinese: `grade --html --locale zh-CN`, the contest's in `serve`).
    pub fn grade_in(&self, report: &GradeReport, l: Locale) -> String {
        let report = &*super::with_every_test(report);
        let mut body = format!(
            "<h1>{}</h1>",
            esc(&say(l, "html-grading", &[("problem", words::problem(l, report))]))
        );
        if let Some(c) = words::contest_folder(l, report) {
            let _ = write!(body, "<p>{}</p>", esc(&say(l, "html-contest", &[("contest", c)])));
        }
        if let Some(io) = &report.file_io {
            let words = say(
                l,
                "html-file-io",
                &[("input", io.input.clone()), ("output", io.output.clone())],
            );
            let _ = write!(body, "<p>{}</p>", esc(&words));
        }
        let sandbox = say(l, "html-sandbox", &[("protections", words::sandbox(l, report))]);
        let _ = write!(body, "<p>{}</p>", esc(&sandbox));
        if !report.broken_tests.is_empty() {
            let _ = write!(
                body,
                "<p class=\"bad\" id=\"broken\">{}</p><ul>",
                esc(&l.t("html-broken-tests"))
            );
            for t in &report.broken_tests {
                let _ = write!(body, "<li>{}</li>", esc(&words::broken_test(l, t)));
            }
            body.push_str("</ul>");
        }
        let mut shared = Shared {
            references: vec![false; report.tests.len()],
            l,
            ..Shared::default()
        };
        let mut sections = String::new();
        for (i, s) in report.submissions.iter().enumerate() {
            sections.push_str(&section(report, i, s, &mut shared));
        }
        body.push_str(&grid(report, &shared.references, l));
        if report
            .submissions
            .iter()
            .any(|s| s.tests.iter().any(|t| t.near_limit(report.time_limit_ms)))
        {
            let _ = write!(body, "<p>{}</p>", esc(&super::near_limit_legend_in(report, l)));
        }
        body.push_str(&sections);
        body.push_str(&references(report, &shared));
        if report.contest.is_some() {
            let _ = write!(body, "<h2>{}</h2>", esc(&l.t("analysis-heading")));
            let a = analyse(&Input::of_report(report));
            body.push_str(&analysis_section(&a, l, time::UtcOffset::UTC));
        }
        page(&format!("mayan-judge: {}", report.problem), &body, l)
    }
}

impl ReportFormat for Html {
    fn grade(&self, report: &GradeReport) -> String {
        self.grade_in(report, Locale::english())
    }

    fn ci(&self, report: &CiReport) -> String {
        let mut body = format!(
            "<h1>Package CI (shard {})</h1><p>{} checks, {} mismatches</p>\
             <table><tr><th>package</th><th>check</th><th>expected</th><th>status</th><th>result</th></tr>",
            esc(&report.shard),
            report.checks.len(),
            report.failures()
        );
        for c in &report.checks {
            let (class, status) = if c.failure.is_some() {
                ("bad", "mismatch")
            } else {
                ("AC", "ok")
            };
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{class}\">{status}</td><td>{}</td></tr>",
                esc(&c.package),
                esc(&c.name),
                esc(&c.expected.to_string()),
                esc(&c.result)
            );
        }
        body.push_str("</table>");
        for c in report.checks.iter().filter(|c| c.failure.is_some()) {
            let _ = write!(
                body,
                "<h3>{} {}</h3><pre>{}</pre>",
                esc(&c.package),
                esc(&c.name),
                esc(c.failure.as_deref().unwrap_or_default())
            );
        }
        page("mayan-judge ci", &body, Locale::english())
    }

    fn validation(&self, report: &ValidationReport) -> String {
        let mut body = format!(
            "<h1>Validation of {}</h1><p>{} tests, {} problems</p>",
            esc(&report.target),
            report.coverage.tests,
            report.problems.len()
        );
        if !report.problems.is_empty() {
            body.push_str("<table><tr><th>file</th><th>line</th><th>problem</th></tr>");
            for p in &report.problems {
                let _ = write!(
                    body,
                    "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                    esc(&p.file.display().to_string()),
                    p.line.map(|l| l.to_string()).unwrap_or_default(),
                    esc(&p.message)
                );
            }
            body.push_str("</table>");
        }
        let _ = write!(body, "<pre>{}</pre>", esc(&report.coverage.to_string()));
        page("mayan-judge validate", &body, Locale::english())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::checker::{Options, check};

    /// A full board of 35 blocks.
    const FULL: &str =
        "5\n1 2 3 1 2 3 4 0\n2 3 1 2 3 4 1 0\n3 1 2 3 4 1 2 0\n4 5 6 4 5 6 7 0\n5 6 4 5 6 7 8 0\n";

    /// A class of 40 contestants by 40 tests, every test failed with five
    /// moves of each contestant's own.
    fn class() -> GradeReport {
        let mut report = GradeReport::new("mayan", String::new());
        report.time_limit_ms = 3000;
        report.tests = (1..=40).map(|t| format!("secret/{t}")).collect();
        for c in 0..40 {
            let mut s = SubmissionReport::new(format!("class/c{c}/mayan.cpp"), "cpp", 400);
            s.contestant = Some(format!("contestant {c}"));
            for name in &report.tests {
                let output: String = (0..5)
                    .map(|k| {
                        format!(
                            "{} {} {}\n",
                            (c + k) % 4,
                            (c / 4 + k) % 7,
                            if k % 2 == 0 { 1 } else { -1 }
                        )
                    })
                    .collect();
                let j = check(FULL.as_bytes(), output.as_bytes(), None, Options::default());
                let mut t = TestResult::new(name.clone(), FULL.as_bytes());
                t.verdict = j.verdict;
                t.reason = j.message.clone();
                t.judgement = Some(j);
                s.tests.push(t);
            }
            report.submissions.push(s);
        }
        report
    }

    /// The first contestant's failure on the full board, as a counterexample.
    fn counterexample() -> Counterexample {
        Counterexample {
            result: class().submissions[0].tests[0].clone(),
            output: "0 0 1\n".into(),
            answer: "-1\n".into(),
            boards: 3,
            runs: 3,
            cpu_ms: 1,
        }
    }

    #[test]
    fn a_counterexample_on_the_submission_page_has_no_heading_of_its_own_and_keeps_its_verdict() {
        let c = counterexample();
        for l in Locale::all() {
            let heading = l.t("cx-heading");
            let titled = counterexample_section(&c, l);
            assert!(titled.contains(&format!("<h3>{}", esc(&heading))), "{titled}");
            let page = counterexample_untitled(&c, l);
            assert!(!page.contains("<h3") && !page.contains(&*esc(&heading)), "{page}");
            let verdict = format!(
                "<p class=\"reason\"><span class=\"bad\">{}</span> ",
                c.result.verdict
            );
            assert!(page.contains(&verdict), "{page}");
        }
    }

    #[test]
    fn a_report_that_lists_no_tests_still_draws_its_failures() {
        let mut report = class();
        report.submissions.truncate(1);
        report.submissions[0].tests.truncate(1);
        report.tests.clear();
        let page = Html.grade(&report);
        assert!(page.contains("id=\"s0-t0\"") && page.contains("id=\"t0\""));
    }

    #[test]
    fn a_class_of_40_by_40_all_failing_stays_a_page_a_browser_opens_at_once() {
        let report = class();
        assert!(
            report.submissions[0]
                .tests
                .iter()
                .all(|t| t.judgement.as_ref().unwrap().moves.len() == 5)
        );
        let page = Html.grade(&report);
        let mib = page.len() as f64 / (1 << 20) as f64;
        eprintln!("40 x 40 page: {mib:.2} MiB");
        assert!(mib < 8.0, "{mib:.2} MiB");
        // Every in-page link has its target.
        let ids: std::collections::HashSet<&str> = page
            .split(" id=\"")
            .skip(1)
            .filter_map(|r| r.split('"').next())
            .collect();
        for target in page.split("href=\"#").skip(1).filter_map(|r| r.split('"').next()) {
            assert!(ids.contains(target), "no target for #{target}");
        }
    }
}
