//! An [`Analysis`] written out: the terminal's table of top pairs, JSON (a
//! versioned schema, docs/SIMILAR.md), CSV, and one self-contained HTML page
//! whose side-by-side view of a pair is also the teacher's page in `serve`.

use super::{Analysis, Pair};
use crate::safe::{csv_cell, csv_file, terminal_safe};
use html_escape::encode_text as esc;
use serde::Serialize;
use std::fmt::Write;

/// The JSON schema's version (docs/SIMILAR.md); raised on any change that
/// could break a reader.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonReport<'a> {
    schema: &'static str,
    version: u32,
    threshold: f64,
    baseline: &'a super::Baseline,
    compared: usize,
    programs: &'a [super::ProgramInfo],
    pairs: Vec<JsonPair<'a>>,
    groups: Vec<Vec<&'a str>>,
    not_compared: &'a [super::NotCompared],
}

#[derive(Serialize)]
struct JsonPair<'a> {
    a: &'a str,
    b: &'a str,
    similarity: f64,
    share_a: f64,
    share_b: f64,
    matched_tokens: u32,
    flagged: bool,
    above_baseline: f64,
    fragments: &'a [super::Fragment],
}

/// Every pair compared (those sharing nothing at similarity 0, after the
/// rest), with both names, the similarity and the matched line ranges.
pub fn json(analysis: &Analysis) -> String {
    let name = |i: usize| analysis.programs[i].name.as_str();
    let mut pairs: Vec<JsonPair> = analysis.pairs.iter().map(|p| json_pair(analysis, p)).collect();
    let seen: rustc_hash::FxHashSet<(usize, usize)> = analysis.pairs.iter().map(|p| (p.a, p.b)).collect();
    let n = analysis.programs.len();
    for a in 0..n {
        for b in a + 1..n {
            let both_ref = analysis.programs[a].reference && analysis.programs[b].reference;
            if !both_ref && !seen.contains(&(a, b)) {
                pairs.push(JsonPair {
                    a: name(a),
                    b: name(b),
                    similarity: 0.0,
                    share_a: 0.0,
                    share_b: 0.0,
                    matched_tokens: 0,
                    flagged: false,
                    above_baseline: round(
                        -analysis.baseline.median / analysis.baseline.spread.max(super::MIN_SPREAD),
                    ),
                    fragments: &[],
                });
            }
        }
    }
    let report = JsonReport {
        schema: "mayan-judge/similar",
        version: SCHEMA_VERSION,
        threshold: analysis.threshold,
        baseline: &analysis.baseline,
        compared: analysis.compared,
        programs: &analysis.programs,
        pairs,
        groups: analysis
            .groups
            .iter()
            .map(|g| g.iter().map(|&i| name(i)).collect())
            .collect(),
        not_compared: &analysis.not_compared,
    };
    serde_json::to_string_pretty(&report).expect("a report serialises") + "\n"
}

fn json_pair<'a>(analysis: &'a Analysis, p: &'a Pair) -> JsonPair<'a> {
    JsonPair {
        a: &analysis.programs[p.a].name,
        b: &analysis.programs[p.b].name,
        similarity: round(p.similarity),
        share_a: round(p.share_a),
        share_b: round(p.share_b),
        matched_tokens: p.matched_tokens,
        flagged: p.similarity >= analysis.threshold,
        above_baseline: round(p.above_baseline),
        fragments: &p.fragments,
    }
}

fn round(x: f64) -> f64 {
    (x * 10000.0).round() / 10000.0
}

/// One row a pair that shares anything: names, similarity, shares, lines.
/// Names are written through [`csv_cell`]: a folder named `=HYPERLINK(...)`
/// is text in a spreadsheet, not a formula; the file through
/// [`csv_file`] (a UTF-8 byte order mark first: Excel reads UTF-8).
pub fn csv(analysis: &Analysis) -> String {
    let header = [
        "a",
        "b",
        "similarity",
        "share_a",
        "share_b",
        "matched_tokens",
        "flagged",
        "lines_a",
        "lines_b",
        "above_baseline",
    ]
    .map(String::from)
    .to_vec();
    let rows = analysis.pairs.iter().map(|p| {
        let ranges = |f: &dyn Fn(&super::Fragment) -> [u32; 2]| {
            p.fragments
                .iter()
                .map(|x| {
                    let r = f(x);
                    format!("{}-{}", r[0], r[1])
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        vec![
            csv_cell(&analysis.programs[p.a].name),
            csv_cell(&analysis.programs[p.b].name),
            format!("{:.4}", p.similarity),
            format!("{:.4}", p.share_a),
            format!("{:.4}", p.share_b),
            p.matched_tokens.to_string(),
            (p.similarity >= analysis.threshold).to_string(),
            ranges(&|f| f.lines_a),
            ranges(&|f| f.lines_b),
            format!("{:.2}", p.above_baseline),
        ]
    });
    csv_file(std::iter::once(header).chain(rows))
}

/// The terminal's summary: the `top` most similar pairs, and the groups,
/// through [`terminal_safe`] (a folder's name cannot set the terminal's
/// title or clear it).
pub fn text(analysis: &Analysis, top: usize) -> String {
    let mut out = String::new();
    let name = |i: usize| analysis.programs[i].name.as_str();
    let flagged = analysis
        .pairs
        .iter()
        .filter(|p| p.similarity >= analysis.threshold)
        .count();
    let _ = writeln!(
        out,
        "{} programs, {} pairs compared, {} at or above {:.2}",
        analysis.programs.len(),
        analysis.compared,
        flagged,
        analysis.threshold
    );
    let _ = writeln!(out, "{}", baseline_line(analysis));
    if !analysis.pairs.is_empty() {
        let _ = writeln!(
            out,
            "{:>10}  {:>7}  {:>7}  {:>7}  pair",
            "similarity", "spreads", "share a", "share b"
        );
    }
    for p in analysis.pairs.iter().take(top) {
        let mark = if p.similarity >= analysis.threshold {
            "  *"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:>10.3}  {:>+7.1}  {:>6.0}%  {:>6.0}%  {}  {}{mark}",
            p.similarity,
            p.above_baseline,
            p.share_a * 100.0,
            p.share_b * 100.0,
            name(p.a),
            name(p.b)
        );
    }
    for g in &analysis.groups {
        let names: Vec<&str> = g.iter().map(|&i| name(i)).collect();
        let _ = writeln!(out, "group of {}: {}", g.len(), names.join(", "));
    }
    for n in &analysis.not_compared {
        let _ = writeln!(out, "not compared: {}", n.why);
    }
    terminal_safe(&out)
}

/// The class's baseline and the threshold in force, in words.
pub fn baseline_line(analysis: &Analysis) -> String {
    use super::Rule;
    let b = &analysis.baseline;
    let over = match b.over {
        super::Over::EveryPair => format!("over {} pairs", b.pairs),
        super::Over::SharingPairs => format!(
            "over the {} pairs that share something, as most pairs share nothing",
            b.pairs
        ),
    };
    let class = format!(
        "this class's median similarity {:.3}, spread {:.3} ({over})",
        b.median, b.spread
    );
    match b.rule {
        Rule::Class => format!(
            "threshold {:.3}: {} spreads above {class}",
            analysis.threshold, b.spreads
        ),
        Rule::Floor => format!(
            "threshold {:.3}: the floor ({} spreads above {class} is lower)",
            analysis.threshold, b.spreads
        ),
        Rule::Ceiling => format!(
            "threshold {:.3}: the ceiling ({} spreads above {class} is higher)",
            analysis.threshold, b.spreads
        ),
        Rule::Fixed => format!(
            "threshold {:.3}: fixed by --threshold; {class}",
            analysis.threshold
        ),
        Rule::SmallClass => format!(
            "threshold {:.3}: the default for a class of fewer than {} programs, which has no distribution of its own",
            analysis.threshold,
            super::MIN_CLASS
        ),
    }
}

/// The style of the pairs' views (tables, code side by side, the
/// fragments' colours), written once for both of its users below.
macro_rules! view_style {
    () => {
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
.code{font-family:ui-monospace,monospace;font-size:12px;white-space:pre;margin:0}\
.code .n{color:#999;display:inline-block;min-width:3em;text-align:right;padding-right:.6em;user-select:none}\
.side{display:grid;grid-template-columns:1fr 1fr;gap:1em}.side>div{overflow-x:auto;border:1px solid #ddd}\
.m0{background:#ffe3a3}.m1{background:#c6f0c2}.m2{background:#cfe0ff}.m3{background:#f6cdf0}\
.m4{background:#d9f4f7}.m5{background:#f9d7c4}.m6{background:#e3d7fb}.m7{background:#eef7c2}\
.low{opacity:.55}.moved{font-weight:bold;color:#a33}"
    };
}

/// The style of the pairs' views inside another page (the teacher's page
/// of `serve` links it as a style sheet: its Content-Security-Policy
/// refuses inline styles).
pub const VIEW_STYLE: &str = view_style!();

/// The style of the self-contained HTML report: the page's own and the views'.
pub const STYLE: &str = concat!(
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}",
    view_style!()
);

/// The HTML of one pair: its fragments side by side (each row a fragment,
/// aligned, its lines numbered, why it counts), then both programs whole
/// with every fragment highlighted in its colour.
pub fn pair_html(analysis: &Analysis, p: &Pair) -> String {
    let (pa, pb) = (&analysis.programs[p.a], &analysis.programs[p.b]);
    let ta: Vec<&str> = analysis.texts[p.a].lines().collect();
    let tb: Vec<&str> = analysis.texts[p.b].lines().collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<h2>{} and {}: {:.0}%</h2><p>{:+.1} spreads above the class's median similarity ({:.3}). {:.0}% of {} ({}) and {:.0}% of {} ({}) match; {} tokens in {} fragments.</p>",
        esc(&pa.name),
        esc(&pb.name),
        p.similarity * 100.0,
        p.above_baseline,
        analysis.baseline.median,
        p.share_a * 100.0,
        esc(&pa.name),
        esc(&pa.path),
        p.share_b * 100.0,
        esc(&pb.name),
        esc(&pb.path),
        p.matched_tokens,
        p.fragments.len()
    );
    let _ = writeln!(
        out,
        "<table><tr><th>#</th><th>{}</th><th>{}</th><th>why it counts</th></tr>",
        esc(&pa.name),
        esc(&pb.name)
    );
    for (i, f) in p.fragments.iter().enumerate() {
        let low = if f.weight < 0.25 * f.tokens as f64 {
            " class=\"low\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{low}><td class=\"m{}\">{}</td><td>{}</td><td>{}</td><td>{}{} ({} tokens, weight {:.0})</td></tr>",
            i % 8,
            i + 1,
            code(&ta, f.lines_a, &[]),
            code(&tb, f.lines_b, &[]),
            if f.moved {
                "<span class=\"moved\">moved: in another order in the other program</span>; "
            } else {
                ""
            },
            esc(&f.reason),
            f.tokens,
            f.weight
        );
    }
    out.push_str("</table>\n<details><summary>Both programs whole</summary><div class=\"side\">");
    let marks_a: Vec<([u32; 2], usize)> = p
        .fragments
        .iter()
        .enumerate()
        .map(|(i, f)| (f.lines_a, i))
        .collect();
    let marks_b: Vec<([u32; 2], usize)> = p
        .fragments
        .iter()
        .enumerate()
        .map(|(i, f)| (f.lines_b, i))
        .collect();
    let all = |t: &[&str]| [1, t.len() as u32];
    let _ = write!(
        out,
        "<div>{}</div><div>{}</div>",
        code(&ta, all(&ta), &marks_a),
        code(&tb, all(&tb), &marks_b)
    );
    out.push_str("</div></details>\n");
    out
}

/// Lines `range` of `lines`, numbered, those in a mark highlighted in its
/// colour (the first mark that holds it). Each line is looked at once, and
/// each mark's lines once: a program of many lines and many fragments costs
/// their sum, not their product.
fn code(lines: &[&str], range: [u32; 2], marks: &[([u32; 2], usize)]) -> String {
    let (from, to) = (range[0].max(1) as usize, (range[1] as usize).min(lines.len()));
    let mut mark: Vec<Option<usize>> = vec![None; to.saturating_sub(from) + 1];
    for &(r, i) in marks.iter().rev() {
        let (a, b) = ((r[0] as usize).max(from), (r[1] as usize).min(to));
        for n in a..=b {
            mark[n - from] = Some(i);
        }
    }
    let mut out = String::from("<div class=\"code\">");
    for n in from..=to {
        let line = esc(lines[n - 1]);
        match mark[n - from] {
            Some(i) => {
                let _ = writeln!(
                    out,
                    "<span class=\"m{}\" title=\"fragment {}\"><span class=\"n\">{n}</span>{line}</span>",
                    i % 8,
                    i + 1,
                );
            }
            None => {
                let _ = writeln!(out, "<span class=\"n\">{n}</span>{line}");
            }
        }
    }
    out.push_str("</div>");
    out
}

/// The whole report: a table of pairs (the `top` most similar, and every
/// flagged one), the groups, and a side-by-side section per pair listed.
pub fn html(analysis: &Analysis, top: usize) -> String {
    let name = |i: usize| esc(&analysis.programs[i].name).to_string();
    let mut out = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Similar programs</title><style>{STYLE}</style></head><body>\n<h1>Similar programs</h1>\n"
    );
    let _ = writeln!(
        out,
        "<p>{}</p>",
        esc(text(analysis, 0).lines().next().unwrap_or(""))
    );
    let _ = writeln!(out, "<p>{}</p>", esc(&baseline_line(analysis)));
    for g in &analysis.groups {
        let names: Vec<String> = g.iter().map(|&i| name(i)).collect();
        let _ = writeln!(out, "<p>Group of {}: {}</p>", g.len(), names.join(", "));
    }
    for n in &analysis.not_compared {
        let _ = writeln!(out, "<p class=\"not-compared\">Not compared: {}</p>", esc(&n.why));
    }
    let shown: Vec<&Pair> = analysis
        .pairs
        .iter()
        .enumerate()
        .filter(|(i, p)| *i < top || p.similarity >= analysis.threshold)
        .map(|(_, p)| p)
        .collect();
    out.push_str(
        "<table><tr><th>similarity</th><th>a</th><th>share of a</th><th>b</th><th>share of b</th></tr>\n",
    );
    for (i, p) in shown.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#pair{i}\">{:.3}</a></td><td>{}</td><td>{:.0}%</td><td>{}</td><td>{:.0}%</td></tr>",
            p.similarity,
            name(p.a),
            p.share_a * 100.0,
            name(p.b),
            p.share_b * 100.0
        );
    }
    out.push_str("</table>\n");
    for (i, p) in shown.iter().enumerate() {
        let _ = writeln!(
            out,
            "<section id=\"pair{i}\">{}</section>",
            pair_html(analysis, p)
        );
    }
    out.push_str("</body></html>\n");
    out
}
