//! HTML: one self-contained page (inline CSS and SVG, nothing fetched) that
//! shows, for every test that is not accepted, the board drawn as coloured
//! squares, the contestant's moves replayed step by step beside the reference
//! solution (before the move, each removal pass with the cleared blocks
//! marked, after the move), and the verdict's reason in words.

use super::ReportFormat;
use crate::judge::grading::{GradeReport, TestResult};
use crate::puzzle::sim::{Board, HEIGHT, Marks, Move, Puzzle, WIDTH, is_marked};
use crate::puzzle::verdict::Verdict;
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use html_escape::encode_text as esc;
use std::fmt::Write;

/// Self-contained HTML.
pub struct Html;

/// Fill colours of colours 1..=10 (index 0 unused), far apart in hue.
const FILL: [&str; 11] = [
    "", "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
    "#9a6324",
];
const CELL: usize = 22;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1400px}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
.AC{color:#1a7f37}.bad{color:#b00020;font-weight:bold}\
.test{border-top:2px solid #ddd;margin-top:1.5em;padding-top:.5em}.reason{font-size:1.05em}\
.sides{display:flex;gap:2em;flex-wrap:wrap}.side{flex:1;min-width:420px}\
.move{margin:.6em 0}.frames{display:flex;gap:.8em;flex-wrap:wrap;align-items:flex-end}\
figure{margin:0;text-align:center}figcaption{font-size:.8em;color:#555}.wrong{outline:3px solid #b00020}";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n\
         <body>\n{body}\n<script>document.body.dataset.rendered = String(document.querySelectorAll('svg').length);</script>\n</body></html>\n",
        esc(title)
    )
}

/// The board as SVG: coloured squares with their colour number, `cleared`
/// cells crossed out in red, the `mover` outlined in black.
pub fn svg_board(board: &Board, cleared: Option<&Marks>, mover: Option<Move>) -> String {
    let (w, h) = (WIDTH * CELL, HEIGHT * CELL);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\
         <rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#f4f4f4\" stroke=\"#999\"/>",
        w + 2,
        h + 2,
        w + 2,
        h + 2
    );
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            let c = board.get(x, y);
            if c == 0 {
                continue;
            }
            let (px, py) = (1 + x * CELL, 1 + (HEIGHT - 1 - y) * CELL);
            let _ = write!(
                s,
                "<rect x=\"{px}\" y=\"{py}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\" stroke=\"#fff\"/>\
                 <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#000\">{c}</text>",
                FILL[c as usize],
                px + CELL / 2,
                py + CELL / 2 + 4
            );
            if cleared.is_some_and(|m| is_marked(m, x, y)) {
                let _ = write!(
                    s,
                    "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#b00020\" stroke-width=\"3\"/>",
                    px + 3,
                    py + 3,
                    px + CELL - 3,
                    py + CELL - 3,
                    px + CELL - 3,
                    py + 3,
                    px + 3,
                    py + CELL - 3
                );
            }
            if mover.is_some_and(|m| m.x as usize == x && m.y as usize == y) {
                let _ = write!(
                    s,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"3\"/>",
                    px + 1,
                    py + 1,
                    CELL - 2,
                    CELL - 2
                );
            }
        }
    }
    s.push_str("</svg>");
    s
}

fn figure(svg: String, caption: &str) -> String {
    format!("<figure>{svg}<figcaption>{}</figcaption></figure>", esc(caption))
}

/// Every move of a sequence, each as a row of frames: before (the moving
/// block outlined), each removal pass (cleared blocks crossed out), after.
/// `wrong` is the 1-based move to flag.
fn replay(puzzle: &Puzzle, moves: &[Move], wrong: Option<usize>) -> String {
    let mut out = String::new();
    let mut board = puzzle.board;
    for (i, &mv) in moves.iter().enumerate() {
        let trace = board.play_traced(mv);
        let class = if wrong == Some(i + 1) { " wrong" } else { "" };
        let _ = write!(
            out,
            "<div class=\"move{class}\"><b>move {}: {mv}</b><div class=\"frames\">",
            i + 1
        );
        out.push_str(&figure(svg_board(&trace.before, None, Some(mv)), "before"));
        for (k, step) in trace.steps.iter().enumerate() {
            let n: u32 = step.cleared.iter().map(|m| m.count_ones()).sum();
            out.push_str(&figure(
                svg_board(&step.board, Some(&step.cleared), None),
                &format!("pass {}: {n} cleared", k + 1),
            ));
        }
        out.push_str(&figure(
            svg_board(&trace.after, None, None),
            &format!("after: {} left", trace.after.block_count()),
        ));
        out.push_str("</div></div>");
        board = trace.after;
    }
    if moves.is_empty() {
        out.push_str("<p>no moves</p>");
    }
    out
}

fn test_section(t: &TestResult) -> String {
    let mut s = format!(
        "<section class=\"test\"><h3>{} <span class=\"bad\">{}</span></h3><p class=\"reason\">{}</p>",
        esc(&t.test),
        t.verdict,
        esc(&t.reason)
    );
    let Ok(puzzle) = Puzzle::parse(t.input.as_bytes()) else {
        s.push_str("<p>(the input is not a valid puzzle)</p></section>");
        return s;
    };
    let _ = write!(
        s,
        "<p>n = {}, {} blocks</p>{}",
        puzzle.n,
        puzzle.board.block_count(),
        figure(svg_board(&puzzle.board, None, None), "the puzzle")
    );
    let j = t.judgement.as_ref();
    let theirs = j.map(|j| j.moves.as_slice()).unwrap_or_default();
    let reference = j.and_then(|j| j.reference.solution());
    s.push_str("<div class=\"sides\"><div class=\"side\"><h4>the contestant's moves</h4>");
    match j {
        Some(j) if !theirs.is_empty() => s.push_str(&replay(&puzzle, theirs, j.first_wrong_move)),
        Some(j) if matches!(j.reason, crate::puzzle::checker::Reason::MissedSolution { .. }) => {
            s.push_str("<p>answered -1 (no solution)</p>")
        }
        Some(_) => s.push_str("<p>no legal move was played</p>"),
        None => s.push_str("<p>the output was not checked (the program did not finish normally)</p>"),
    }
    s.push_str("</div><div class=\"side\"><h4>the reference (smallest solution)</h4>");
    match reference {
        Some(moves) => s.push_str(&replay(&puzzle, moves, None)),
        None => s.push_str("<p>-1: no solution</p>"),
    }
    s.push_str("</div></div>");
    if let Some(diff) = &t.diff {
        let _ = write!(
            s,
            "<details><summary>output against the reference answer</summary><pre>{}</pre></details>",
            esc(diff)
        );
    }
    s.push_str("</section>");
    s
}

impl ReportFormat for Html {
    fn grade(&self, report: &GradeReport) -> String {
        let mut body = format!("<h1>Grading: {}</h1>", esc(&report.problem));
        let _ = write!(body, "<p>Sandbox: {}</p>", esc(&report.protections));
        body.push_str("<table><tr><th>submission</th><th>language</th><th>score</th><th>verdicts</th></tr>");
        for s in &report.submissions {
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{} / {}</td><td>{}</td></tr>",
                esc(&s.submission),
                esc(&s.language),
                s.score,
                s.max_score,
                esc(&s.verdict_counts())
            );
        }
        body.push_str("</table>");
        for s in &report.submissions {
            let _ = write!(body, "<h2>{} ({})</h2>", esc(&s.submission), esc(&s.language));
            if let Some(e) = s.judge_error.as_ref() {
                let _ = write!(body, "<p class=\"bad\">judge error: {}</p>", esc(e));
                continue;
            }
            if let Some(ce) = s.compile_error.as_ref() {
                let _ = write!(
                    body,
                    "<p class=\"bad\">compilation error</p><pre>{}</pre>",
                    esc(ce)
                );
                continue;
            }
            body.push_str(
                "<table><tr><th>test</th><th>verdict</th><th>time</th><th>memory</th><th>reason</th></tr>",
            );
            for t in &s.tests {
                let class = if t.verdict == Verdict::Accepted {
                    "AC"
                } else {
                    "bad"
                };
                let _ = write!(
                    body,
                    "<tr><td>{}</td><td class=\"{class}\">{}</td><td>{} ms</td><td>{:.1} MiB</td><td>{}</td></tr>",
                    esc(&t.test),
                    t.verdict,
                    t.time_ms,
                    t.memory_kib as f64 / 1024.0,
                    esc(&t.reason)
                );
            }
            body.push_str("</table>");
            for t in s.tests.iter().filter(|t| t.verdict != Verdict::Accepted) {
                body.push_str(&test_section(t));
            }
        }
        page(&format!("mayan-judge: {}", report.problem), &body)
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
                esc(&c.expected),
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
        page("mayan-judge ci", &body)
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
        page("mayan-judge validate", &body)
    }
}
