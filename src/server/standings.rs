//! The live ranking: OI (the points of each contestant's last judged
//! submission), IOI (the points of their best) or ICPC (solved, then penalty minutes: the time of the first
//! accepted submission plus a penalty per rejected one before it), frozen
//! for contestants during the contest's last minutes. A pure function of
//! the submissions, so it is tested without a server.

use super::contest::{ContestConfig, Scoring, Window};
use super::db::{SubmissionRow, User};
use serde::Serialize;

/// One line of the ranking.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Standing {
    /// 1-based; equal results share a rank; 0 for a disqualified contestant
    /// (listed last, for the teacher only).
    pub rank: usize,
    /// Sign-in name.
    pub name: String,
    /// Name shown.
    pub display: String,
    /// OI: points; ICPC: 1 when solved.
    pub score: i64,
    /// ICPC: penalty minutes (0 in OI).
    pub penalty: i64,
    /// Judged submissions counted.
    pub tries: usize,
    /// Submissions hidden by the freeze (contestants see `?`).
    pub pending: usize,
    /// Out of the ranking (only the teacher sees them).
    pub disqualified: bool,
}

/// Verdicts that do not count as a rejected try in ICPC (the program never
/// ran through the contestant's fault, or the judge failed).
const NOT_A_TRY: [&str; 2] = ["CE", "FAIL"];

/// The ranking at `now`, as `viewer_is_admin` sees it (the teacher sees
/// through the freeze and sees disqualified contestants).
pub fn standings(
    config: &ContestConfig,
    users: &[User],
    judged: &[SubmissionRow],
    now: i64,
    viewer_is_admin: bool,
) -> Vec<Standing> {
    let cutoff = freeze_cutoff(config).filter(|_| config.window.frozen(now) && !viewer_is_admin);
    let lines = users
        .iter()
        .filter(|u| !u.is_admin && (viewer_is_admin || !u.disqualified))
        .map(|u| {
            let mine: Vec<&SubmissionRow> = judged.iter().filter(|s| s.user_id == u.id).collect();
            line(config, u, &mine, cutoff)
        })
        .collect();
    ranked(lines)
}

/// The time before which submissions count in the frozen ranking (the
/// freeze's start), for a timed contest.
pub fn freeze_cutoff(config: &ContestConfig) -> Option<i64> {
    match config.window {
        Window::Timed { end, freeze_secs, .. } => Some(end - freeze_secs),
        Window::Open => None,
    }
}

/// One contestant's line (not ranked yet) from their judged submissions,
/// counting only those submitted before `cutoff` when there is one.
pub fn line(config: &ContestConfig, user: &User, mine: &[&SubmissionRow], cutoff: Option<i64>) -> Standing {
    let (seen, hidden): (Vec<&SubmissionRow>, Vec<&SubmissionRow>) = mine
        .iter()
        .copied()
        .partition(|s| cutoff.is_none_or(|c| s.submitted < c));
    let (score, penalty, tries) = match config.scoring {
        Scoring::Oi => oi(&seen),
        Scoring::Ioi => ioi(&seen),
        Scoring::Icpc => icpc(&seen, config),
    };
    Standing {
        rank: 0,
        name: user.name.clone(),
        display: user.display.clone(),
        score,
        penalty,
        tries,
        pending: hidden.len(),
        disqualified: user.disqualified,
    }
}

/// Lines sorted and ranked: by score, then penalty, then name; equal
/// results share a rank; disqualified contestants last, rank 0 (so the
/// ranks of the others are the same with or without them).
pub fn ranked(mut lines: Vec<Standing>) -> Vec<Standing> {
    lines.sort_by(|a, b| {
        (a.disqualified, b.score, a.penalty, &a.name).cmp(&(b.disqualified, a.score, b.penalty, &b.name))
    });
    for i in 0..lines.len() {
        let tied = i > 0 && (lines[i].score, lines[i].penalty) == (lines[i - 1].score, lines[i - 1].penalty);
        lines[i].rank = match () {
            _ if lines[i].disqualified => 0,
            _ if tied => lines[i - 1].rank,
            _ => i + 1,
        };
    }
    lines
}

/// OI: the last judged submission's points.
fn oi(seen: &[&SubmissionRow]) -> (i64, i64, usize) {
    let last = seen.iter().max_by_key(|s| s.id);
    (last.and_then(|s| s.score).unwrap_or(0), 0, seen.len())
}

/// IOI: the best judged submission's points.
fn ioi(seen: &[&SubmissionRow]) -> (i64, i64, usize) {
    let best = seen.iter().filter_map(|s| s.score).max();
    (best.unwrap_or(0), 0, seen.len())
}

/// ICPC: solved or not, and the penalty of the first accepted submission.
fn icpc(seen: &[&SubmissionRow], config: &ContestConfig) -> (i64, i64, usize) {
    let mut ordered: Vec<&&SubmissionRow> = seen.iter().collect();
    ordered.sort_by_key(|s| s.id);
    let start = match config.window {
        Window::Timed { start, .. } => Some(start),
        Window::Open => None,
    };
    let mut rejected = 0i64;
    for s in &ordered {
        match s.verdict.as_deref() {
            Some("AC") => {
                let minutes = start.map_or(0, |st| (s.submitted - st).max(0) / 60);
                return (
                    1,
                    minutes + rejected * config.penalty_minutes as i64,
                    ordered.len(),
                );
            }
            Some(v) if NOT_A_TRY.contains(&v) => {}
            _ => rejected += 1,
        }
    }
    (0, 0, ordered.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::contest::Window;

    fn user(id: i64, name: &str) -> User {
        User {
            id,
            name: name.into(),
            display: name.into(),
            is_admin: false,
            disqualified: false,
        }
    }

    fn sub(id: i64, user_id: i64, submitted: i64, verdict: &str, score: i64) -> SubmissionRow {
        SubmissionRow {
            id,
            user_id,
            user: String::new(),
            language: "c".into(),
            file_name: "m.c".into(),
            submitted,
            state: "done".into(),
            verdict: Some(verdict.into()),
            score: Some(score),
            max_score: Some(100),
            time_ms: Some(0),
            memory_kib: Some(0),
            judgings: 1,
        }
    }

    fn timed(scoring: Scoring) -> ContestConfig {
        let mut c = ContestConfig::default_practice();
        c.scoring = scoring;
        c.window = Window::Timed {
            start: 0,
            end: 3 * 3600,
            freeze_secs: 3600,
        };
        c
    }

    #[test]
    fn oi_counts_the_last_judged_submission_and_ties_share_a_rank() {
        let c = timed(Scoring::Oi);
        let users = [user(1, "a"), user(2, "b"), user(3, "c")];
        let subs = [
            sub(1, 1, 10, "AC", 100),
            sub(2, 1, 20, "WA", 40),
            sub(3, 2, 30, "WA", 40),
        ];
        let s = standings(&c, &users, &subs, 100, false);
        let ranks: Vec<_> = s.iter().map(|l| (l.name.as_str(), l.score, l.rank)).collect();
        assert_eq!(ranks, [("a", 40, 1), ("b", 40, 1), ("c", 0, 3)]);
    }

    #[test]
    fn ioi_counts_each_contestants_best_judged_submission() {
        let c = timed(Scoring::Ioi);
        let users = [user(1, "a"), user(2, "b")];
        let subs = [
            sub(1, 1, 10, "WA", 70),
            sub(2, 1, 20, "WA", 40),
            sub(3, 2, 30, "WA", 40),
            sub(4, 2, 40, "WA", 60),
        ];
        let s = standings(&c, &users, &subs, 100, false);
        let ranks: Vec<_> = s.iter().map(|l| (l.name.as_str(), l.score, l.rank)).collect();
        assert_eq!(ranks, [("a", 70, 1), ("b", 60, 2)]);
        // The same submissions under OI: the last ones.
        let s = standings(&timed(Scoring::Oi), &users, &subs, 100, false);
        assert_eq!((s[0].name.as_str(), s[0].score), ("b", 60));
    }

    #[test]
    fn icpc_adds_twenty_minutes_per_rejected_try_but_not_for_a_compile_error() {
        let c = timed(Scoring::Icpc);
        let users = [user(1, "a"), user(2, "b")];
        let subs = [
            sub(1, 1, 60, "WA", 0),
            sub(2, 1, 90, "CE", 0),
            sub(3, 1, 600, "AC", 100),
            sub(4, 2, 1200, "AC", 100),
        ];
        let s = standings(&c, &users, &subs, 3000, false);
        assert_eq!((s[0].name.as_str(), s[0].penalty), ("b", 20));
        assert_eq!((s[1].name.as_str(), s[1].penalty), ("a", 10 + 20));
    }

    #[test]
    fn a_frozen_ranking_hides_late_submissions_from_contestants_not_from_the_teacher() {
        let c = timed(Scoring::Oi);
        let users = [user(1, "a")];
        let subs = [sub(1, 1, 100, "WA", 10), sub(2, 1, 2 * 3600 + 5, "AC", 100)];
        let now = 2 * 3600 + 10;
        let seen = standings(&c, &users, &subs, now, false);
        assert_eq!((seen[0].score, seen[0].pending), (10, 1));
        let teacher = standings(&c, &users, &subs, now, true);
        assert_eq!((teacher[0].score, teacher[0].pending), (100, 0));
        let after = standings(&c, &users, &subs, 3 * 3600, false);
        assert_eq!(after[0].score, 100, "unfrozen at the end");
    }

    #[test]
    fn a_disqualified_contestant_is_out_of_the_ranking_contestants_see() {
        let c = timed(Scoring::Oi);
        let mut cheat = user(1, "cheat");
        cheat.disqualified = true;
        let users = [cheat, user(2, "b")];
        let subs = [sub(1, 1, 10, "AC", 100)];
        assert_eq!(standings(&c, &users, &subs, 20, false).len(), 1);
        assert!(standings(&c, &users, &subs, 20, true)[1].disqualified);
    }
}
