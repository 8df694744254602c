//! Where a class fails: the figures of the teacher's analysis (the online
//! judge's `/admin/analysis`, and the same section of a contest's HTML
//! report), a pure function of stored results ([`analyse`]), as the
//! ranking is of judged submissions. No words here: the pages name the
//! figures in their language.
//!
//! - each test's pass rate among the contestants' final submissions, and how
//!   well it separates the class (the pass rate of the better half minus
//!   that of the other half), grouped where the package groups its tests;
//! - the verdicts per test;
//! - the distribution of final scores, in ten bands;
//! - submissions, and first accepted submissions, over time;
//! - the rule the counterexamples break most (their checker's reasons).

use crate::judge::grading::TestResult;
use crate::puzzle::checker::Reason;
use crate::puzzle::verdict::Verdict;
use serde::Serialize;
use std::collections::BTreeMap;

/// One judged submission, as the timeline counts it.
#[derive(Clone, Debug)]
pub struct Judged {
    /// Its contestant.
    pub contestant: String,
    /// When it was submitted (Unix seconds).
    pub submitted: i64,
    /// Its overall verdict code (`AC`, `WA`, ...).
    pub verdict: String,
}

/// A contestant's final judged submission.
#[derive(Clone, Debug)]
pub struct Final {
    /// Its score.
    pub score: u32,
    /// Its tests' results (none for a compilation error).
    pub tests: Vec<TestResult>,
}

/// What the figures are computed from.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The package's tests, in order, each with its group (the package's
    /// scoring groups), if any.
    pub tests: Vec<(String, Option<String>)>,
    /// The most points.
    pub max_score: u32,
    /// Every judged submission.
    pub judged: Vec<Judged>,
    /// Each contestant's final judged submission.
    pub finals: Vec<Final>,
    /// The counterexamples' results: the checker's reason when the output
    /// was checked, else the verdict of the run.
    pub counterexamples: Vec<(Verdict, Option<Reason>)>,
}

/// One test's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TestFigures {
    /// Its name.
    pub test: String,
    /// Its group, where the package groups tests.
    pub group: Option<String>,
    /// Final submissions that passed it.
    pub passed: usize,
    /// Final submissions counted.
    pub of: usize,
    /// `passed / of`, in percent (0 when none).
    pub rate: f64,
    /// Pass rate of the better half of the class (by score) minus that of
    /// the other half, in points of percent: high when the test separates.
    pub separation: f64,
    /// Verdict code to count, over the final submissions (a test a final
    /// submission never reached, e.g. a compilation error, counts as `-`).
    pub verdicts: BTreeMap<String, usize>,
}

/// A band of scores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Band {
    /// Lowest score in it.
    pub lo: u32,
    /// Highest score in it.
    pub hi: u32,
    /// Contestants whose final score is in it.
    pub count: usize,
}

/// A stretch of the contest's time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Period {
    /// Its start (Unix seconds).
    pub start: i64,
    /// Its end (exclusive).
    pub end: i64,
    /// Submissions judged that were submitted in it.
    pub submissions: usize,
    /// Contestants whose first accepted submission was submitted in it.
    pub first_accepted: usize,
}

/// A rule the counterexamples break, and how many break it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// The checker's reason kind (`illegal_move`, `not_smallest`, ...), or
    /// the run's verdict (`RE`, `TLE`) where the output was not checked.
    pub kind: String,
    /// Counterexamples with it.
    pub count: usize,
}

/// The analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Contestants with a final judged submission.
    pub contestants: usize,
    /// Judged submissions.
    pub submissions: usize,
    /// Per test, in the package's order.
    pub tests: Vec<TestFigures>,
    /// The final scores, in ten bands from 0 to the most points.
    pub scores: Vec<Band>,
    /// Submissions over time, in up to twelve periods.
    pub timeline: Vec<Period>,
    /// The rules the counterexamples break, the most broken first.
    pub rules: Vec<Rule>,
}

impl Input {
    /// The figures' input from a grading report of a contest (no times:
    /// no timeline); its submissions are the contestants' final ones.
    pub fn of_report(r: &crate::judge::grading::GradeReport) -> Input {
        let graded = r.submissions.iter().filter(|s| s.no_program.is_none());
        Input {
            tests: r.tests.iter().map(|t| (t.clone(), None)).collect(),
            max_score: r.submissions.iter().map(|s| s.max_score).max().unwrap_or(0),
            judged: Vec::new(),
            finals: graded
                .clone()
                .map(|s| Final {
                    score: s.score,
                    tests: s.tests.clone(),
                })
                .collect(),
            counterexamples: graded
                .filter_map(|s| s.counterexample.as_ref())
                .map(|c| {
                    let reason = c.result.judgement.as_ref().map(|j| j.reason.clone());
                    (c.result.verdict, reason)
                })
                .collect(),
        }
    }
}

/// Bands of the score distribution.
const BANDS: u32 = 10;

/// Periods of the timeline, at most.
const PERIODS: i64 = 12;

/// The figures of a class's results.
pub fn analyse(input: &Input) -> Analysis {
    Analysis {
        contestants: input.finals.len(),
        submissions: input.judged.len(),
        tests: per_test(input),
        scores: bands(input),
        timeline: timeline(&input.judged),
        rules: rules(&input.counterexamples),
    }
}

/// Whether a final submission passed `test`.
fn passed(f: &Final, test: &str) -> bool {
    f.tests
        .iter()
        .any(|t| t.test == test && t.verdict == Verdict::Accepted)
}

fn rate(passed: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * passed as f64 / of as f64
    }
}

fn per_test(input: &Input) -> Vec<TestFigures> {
    // The better half: the first half by score (ties broken by order).
    let mut order: Vec<&Final> = input.finals.iter().collect();
    order.sort_by_key(|f| std::cmp::Reverse(f.score));
    let (top, rest) = order.split_at(order.len().div_ceil(2));
    input
        .tests
        .iter()
        .map(|(test, group)| {
            let n = input.finals.iter().filter(|f| passed(f, test)).count();
            let mut verdicts = BTreeMap::new();
            for f in &input.finals {
                let code = f
                    .tests
                    .iter()
                    .find(|t| &t.test == test)
                    .map_or("-", |t| t.verdict.code());
                *verdicts.entry(code.to_string()).or_insert(0) += 1;
            }
            let half = |h: &[&Final]| rate(h.iter().filter(|f| passed(f, test)).count(), h.len());
            TestFigures {
                test: test.clone(),
                group: group.clone(),
                passed: n,
                of: input.finals.len(),
                rate: rate(n, input.finals.len()),
                separation: if rest.is_empty() {
                    0.0
                } else {
                    half(top) - half(rest)
                },
                verdicts,
            }
        })
        .collect()
}

fn bands(input: &Input) -> Vec<Band> {
    let max = input.max_score.max(1);
    let mut out: Vec<Band> = (0..BANDS)
        .map(|b| Band {
            lo: (max * b).div_ceil(BANDS),
            hi: if b + 1 == BANDS {
                max
            } else {
                (max * (b + 1)).div_ceil(BANDS) - 1
            },
            count: 0,
        })
        .collect();
    for f in &input.finals {
        let b = ((f.score.min(max) * BANDS) / max).min(BANDS - 1);
        out[b as usize].count += 1;
    }
    out
}

fn timeline(judged: &[Judged]) -> Vec<Period> {
    let (Some(first), Some(last)) = (
        judged.iter().map(|j| j.submitted).min(),
        judged.iter().map(|j| j.submitted).max(),
    ) else {
        return Vec::new();
    };
    // Whole minutes, at least one per period.
    let width = ((last - first + 1).max(60) + PERIODS - 1) / PERIODS;
    let width = (width + 59) / 60 * 60;
    let count = ((last - first) / width + 1) as usize;
    let mut out: Vec<Period> = (0..count)
        .map(|k| Period {
            start: first + k as i64 * width,
            end: first + (k as i64 + 1) * width,
            submissions: 0,
            first_accepted: 0,
        })
        .collect();
    let at = |t: i64| ((t - first) / width) as usize;
    let mut firsts: BTreeMap<&str, i64> = BTreeMap::new();
    for j in judged {
        out[at(j.submitted)].submissions += 1;
        if j.verdict == Verdict::Accepted.code() {
            let e = firsts.entry(&j.contestant).or_insert(j.submitted);
            *e = (*e).min(j.submitted);
        }
    }
    for t in firsts.values() {
        out[at(*t)].first_accepted += 1;
    }
    out
}

/// The serde tag of a reason (`illegal_move`, ...).
fn kind(r: &Reason) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
        .unwrap_or_default()
}

fn rules(counterexamples: &[(Verdict, Option<Reason>)]) -> Vec<Rule> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (verdict, reason) in counterexamples {
        let k = match reason {
            Some(r) => kind(r),
            None => verdict.code().to_string(),
        };
        *counts.entry(k).or_insert(0) += 1;
    }
    let mut out: Vec<Rule> = counts
        .into_iter()
        .map(|(kind, count)| Rule { kind, count })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.kind.cmp(&b.kind)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(test: &str, verdict: Verdict) -> TestResult {
        TestResult {
            verdict,
            ..TestResult::new(test.into(), b"")
        }
    }

    /// Four contestants on three tests: `easy` everybody passes, `hard`
    /// only the best, `split` the better half.
    fn class() -> Input {
        use Verdict::*;
        let fin = |score, v: [Verdict; 3]| Final {
            score,
            tests: ["easy", "split", "hard"]
                .iter()
                .zip(v)
                .map(|(t, v)| result(t, v))
                .collect(),
        };
        let judged = |c: &str, submitted, v: &str| Judged {
            contestant: c.into(),
            submitted,
            verdict: v.into(),
        };
        Input {
            tests: vec![
                ("easy".into(), Some("basics".into())),
                ("split".into(), Some("cascade".into())),
                ("hard".into(), None),
            ],
            max_score: 30,
            finals: vec![
                fin(30, [Accepted, Accepted, Accepted]),
                fin(20, [Accepted, Accepted, WrongAnswer]),
                fin(10, [Accepted, WrongAnswer, TimeLimit]),
                Final {
                    score: 0,
                    tests: Vec::new(),
                },
            ],
            judged: vec![
                judged("a", 1000, "WA"),
                judged("a", 1100, "AC"),
                judged("b", 1200, "WA"),
                judged("a", 4000, "AC"),
                judged("c", 4600, "AC"),
            ],
            counterexamples: vec![
                (WrongAnswer, Some(Reason::BlocksLeft { moves: 1, blocks: 3 })),
                (WrongAnswer, Some(Reason::BlocksLeft { moves: 2, blocks: 1 })),
                (
                    WrongAnswer,
                    Some(Reason::MissedSolution {
                        reference_first: "0 0 1".into(),
                    }),
                ),
                (RuntimeError, None),
            ],
        }
    }

    #[test]
    fn each_test_has_its_pass_rate_its_verdicts_and_how_well_it_separates_the_class() {
        let a = analyse(&class());
        assert_eq!((a.contestants, a.submissions), (4, 5));
        let rates: Vec<f64> = a.tests.iter().map(|t| t.rate).collect();
        assert_eq!(rates, [75.0, 50.0, 25.0]);
        // `split`: the better half all pass it, the other half none.
        let sep: Vec<f64> = a.tests.iter().map(|t| t.separation).collect();
        assert_eq!(sep, [50.0, 100.0, 50.0]);
        assert_eq!(a.tests[1].group.as_deref(), Some("cascade"));
        let hard = &a.tests[2].verdicts;
        assert_eq!(
            hard.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>(),
            [("-", 1), ("AC", 1), ("TLE", 1), ("WA", 1)]
        );
    }

    #[test]
    fn scores_fall_in_ten_bands_from_zero_to_the_most_points() {
        let a = analyse(&class());
        assert_eq!(a.scores.len(), 10);
        assert_eq!((a.scores[0].lo, a.scores[9].hi), (0, 30));
        let counts: Vec<usize> = a.scores.iter().map(|b| b.count).collect();
        assert_eq!(counts, [1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
        for w in a.scores.windows(2) {
            assert_eq!(w[0].hi + 1, w[1].lo, "bands meet: {:?}", a.scores);
        }
    }

    #[test]
    fn the_timeline_counts_submissions_and_each_contestants_first_accepted_once() {
        let a = analyse(&class());
        assert!(a.timeline.len() <= 12);
        let total: usize = a.timeline.iter().map(|p| p.submissions).sum();
        let firsts: usize = a.timeline.iter().map(|p| p.first_accepted).sum();
        assert_eq!((total, firsts), (5, 2), "{:?}", a.timeline);
        assert_eq!(a.timeline[0].first_accepted, 1, "a's first AC at 1100");
        assert!(a.timeline.iter().all(|p| (p.end - p.start) % 60 == 0));
        assert_eq!(analyse(&Input::default()).timeline, []);
    }

    #[test]
    fn the_timelines_times_are_in_the_contests_time_zone() {
        let mut input = class();
        for (k, j) in input.judged.iter_mut().enumerate() {
            j.submitted = 1_764_547_200 + k as i64 * 60; // 2025-12-01 00:00 UTC, then a minute apart
        }
        let a = analyse(&input);
        let beijing = time::UtcOffset::from_hms(8, 0, 0).unwrap();
        let page = crate::report::analysis_section(&a, crate::i18n::Locale::default(), beijing);
        assert!(page.contains("<td>08:00–08:01 UTC+08:00</td>"), "{page}");
        assert!(!page.contains(" UTC<"), "{page}");
    }

    #[test]
    fn the_rule_most_counterexamples_break_comes_first() {
        let a = analyse(&class());
        let rules: Vec<(&str, usize)> = a.rules.iter().map(|r| (r.kind.as_str(), r.count)).collect();
        assert_eq!(rules, [("blocks_left", 2), ("RE", 1), ("missed_solution", 1)]);
    }

    #[test]
    fn a_class_of_200_and_its_2000_submissions_is_counted_whole() {
        // The size of docs/SPEED.md's figure (printed with --nocapture).
        let tests: Vec<String> = (1..=31).map(|i| format!("secret/{i}")).collect();
        let input = Input {
            tests: tests.iter().map(|t| (t.clone(), None)).collect(),
            max_score: 310,
            judged: (0..2000)
                .map(|i| Judged {
                    contestant: format!("c{}", i % 200),
                    submitted: 1_000_000 + i * 5,
                    verdict: if i % 7 == 0 { "AC" } else { "WA" }.into(),
                })
                .collect(),
            finals: (0..200)
                .map(|c| Final {
                    score: 10 * (c % 32),
                    tests: tests
                        .iter()
                        .enumerate()
                        .map(|(j, t)| {
                            let v = if j < (c % 32) as usize {
                                Verdict::Accepted
                            } else {
                                Verdict::WrongAnswer
                            };
                            result(t, v)
                        })
                        .collect(),
                })
                .collect(),
            counterexamples: vec![(Verdict::RuntimeError, None); 150],
        };
        let start = std::time::Instant::now();
        let a = analyse(&input);
        let page = crate::report::analysis_section(&a, crate::i18n::Locale::default(), time::UtcOffset::UTC);
        println!(
            "analysis of 200 contestants, 2000 submissions: {:?}",
            start.elapsed()
        );
        assert_eq!(a.scores.iter().map(|b| b.count).sum::<usize>(), 200);
        assert_eq!(a.timeline.iter().map(|p| p.submissions).sum::<usize>(), 2000);
        assert_eq!(a.tests[0].of, 200);
        assert!(page.contains("<svg class=\"chart\""));
    }
}
