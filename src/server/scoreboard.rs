//! The ranking kept up to date as verdicts arrive, in memory, with the
//! database as the truth (what DOMjudge's scoreboard cache does): each
//! contestant's line, as everybody sees it and as it stood at the freeze,
//! made again from their own judged submissions when one of them is
//! judged ([`Scoreboard::storing`]); everything made again from the
//! database at the start and when a rejudge, a disqualification or the
//! contestants change ([`Scoreboard::rebuild`]). A read sorts the lines
//! once per change and then costs the ranking's size, not the number of
//! submissions stored. The lines are those of `standings` (its `line` and
//! `ranked`), so the kept ranking is the one recomputed from scratch.

use super::contest::ContestConfig;
use super::db::{Db, DbError, DbResult, SubmissionRow, User};
use super::standings::{Standing, freeze_cutoff, line, ranked};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// The kept ranking of one contest.
pub struct Scoreboard {
    config: ContestConfig,
    state: Mutex<State>,
}

/// The contestants, their lines, and the lines sorted (made again on
/// the first read after a change).
#[derive(Default)]
struct State {
    users: Vec<User>,
    lines: HashMap<i64, Lines>,
    sorted: Option<Sorted>,
}

/// One contestant's line as everybody sees it, and at the freeze.
struct Lines {
    full: Standing,
    frozen: Standing,
}

/// Every line ranked, as everybody sees it and at the freeze.
struct Sorted {
    full: Arc<Vec<Standing>>,
    frozen: Arc<Vec<Standing>>,
}

impl Scoreboard {
    /// The ranking of the database's judged submissions under `config`.
    pub fn load(db: &Db, config: &ContestConfig) -> DbResult<Scoreboard> {
        let board = Scoreboard {
            config: config.clone(),
            state: Mutex::new(State::default()),
        };
        board.rebuild(db)?;
        Ok(board)
    }

    /// Makes everything again from the database (a rejudge, a
    /// disqualification, contestants added or renamed).
    pub fn rebuild(&self, db: &Db) -> DbResult<()> {
        let mut state = self.lock();
        let users: Vec<User> = db.users()?.into_iter().filter(|u| !u.is_admin).collect();
        let mut by_user: HashMap<i64, Vec<SubmissionRow>> = HashMap::new();
        for row in db.judged_rows()? {
            by_user.entry(row.user_id).or_default().push(row);
        }
        let lines = users
            .iter()
            .map(|u| (u.id, self.lines(u, by_user.get(&u.id).map_or(&[], Vec::as_slice))))
            .collect();
        *state = State {
            users,
            lines,
            sorted: None,
        };
        Ok(())
    }

    /// Stores a verdict of `user_id` (`store`: the database's write, which
    /// says whether it stored one) and makes their line again from their
    /// judged submissions in the database, the ranking locked meanwhile: a
    /// read that follows the verdict sees it in the ranking, and a rebuild
    /// is never overwritten by an older read. A ranking read waits for the
    /// store meanwhile: its fsync, or up to the busy timeout while another
    /// program holds the database's write lock (then the store fails, the
    /// lock is released, and the worker tries again later).
    pub fn storing<E: From<DbError>>(
        &self,
        db: &Db,
        user_id: i64,
        store: impl FnOnce() -> Result<bool, E>,
    ) -> Result<bool, E> {
        let mut state = self.lock();
        let stored = store()?;
        let user = state.users.iter().find(|u| u.id == user_id).cloned();
        if let (true, Some(user)) = (stored, user) {
            let rows = db.judged_rows_of(user_id)?;
            let lines = self.lines(&user, &rows);
            state.lines.insert(user_id, lines);
            state.sorted = None;
        }
        Ok(stored)
    }

    /// The ranking at `now` as a viewer sees it: the teacher through the
    /// freeze and with the disqualified contestants; without results
    /// (`results_shown` false, the feedback hides scores), every
    /// contestant with nothing counted, by name.
    pub fn standings(&self, now: i64, viewer_is_admin: bool, results_shown: bool) -> Vec<Standing> {
        let mut state = self.lock();
        if !results_shown {
            return super::standings::standings(&self.config, &state.users, &[], now, viewer_is_admin);
        }
        let frozen = self.config.window.frozen(now) && !viewer_is_admin;
        let sorted = state.sorted();
        let lines = if frozen { &sorted.frozen } else { &sorted.full };
        lines
            .iter()
            .filter(|l| viewer_is_admin || !l.disqualified)
            .cloned()
            .collect()
    }

    /// A contestant's lines from their judged submissions (oldest first).
    fn lines(&self, user: &User, rows: &[SubmissionRow]) -> Lines {
        let mine: Vec<&SubmissionRow> = rows.iter().collect();
        Lines {
            full: line(&self.config, user, &mine, None),
            frozen: line(&self.config, user, &mine, freeze_cutoff(&self.config)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl State {
    /// The lines ranked, sorted again if something changed.
    fn sorted(&mut self) -> &Sorted {
        let lines = &self.lines;
        self.sorted.get_or_insert_with(|| {
            let all =
                |pick: fn(&Lines) -> &Standing| ranked(lines.values().map(|l| pick(l).clone()).collect());
            Sorted {
                full: Arc::new(all(|l| &l.full)),
                frozen: Arc::new(all(|l| &l.frozen)),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::contest::{Scoring, Window};
    use crate::server::db::Judged;
    use crate::server::standings::standings;

    const START: i64 = 1_000_000;
    const END: i64 = START + 5 * 3600;
    const FREEZE: i64 = 3600;
    const SUBMISSIONS: usize = 10_000;
    const CONTESTANTS: usize = 200;

    fn contest(scoring: Scoring) -> ContestConfig {
        let mut c = ContestConfig::default_practice();
        c.scoring = scoring;
        c.window = Window::Timed {
            start: START,
            end: END,
            freeze_secs: FREEZE,
        };
        c
    }

    /// A verdict and score drawn at random (compile errors and judge
    /// failures among them, which ICPC does not count as tries).
    fn judged(rng: &mut fastrand::Rng) -> Judged {
        let (verdict, score) = match rng.u32(0..10) {
            0..=2 => ("AC", 100),
            3 => ("CE", 0),
            4 => ("FAIL", 0),
            5 => ("TLE", rng.u32(0..100)),
            _ => ("WA", rng.u32(0..100)),
        };
        Judged {
            verdict: verdict.into(),
            score,
            max_score: 100,
            time_ms: 1,
            memory_kib: 1,
            report: String::new(),
        }
    }

    /// The database and the two kept rankings (ICPC and OI) over it.
    struct Contest {
        db: Db,
        boards: Vec<Scoreboard>,
    }

    impl Contest {
        fn open(path: &std::path::Path) -> Contest {
            let db = Db::open(path).unwrap();
            db.requeue_interrupted().unwrap();
            let boards = [Scoring::Icpc, Scoring::Oi]
                .map(|s| Scoreboard::load(&db, &contest(s)).unwrap())
                .into();
            Contest { db, boards }
        }

        /// Judges what the queue gives, `n` at most, as the workers do.
        fn judge(&self, n: usize, rng: &mut fastrand::Rng) {
            for _ in 0..n {
                let Some(c) = self.db.claim_next().unwrap() else {
                    return;
                };
                // The first ranking stores the verdict, as the workers do;
                // the other is told of it.
                let (first, others) = self.boards.split_first().unwrap();
                let j = judged(rng);
                let store = || self.db.finish(&c, &j, END);
                assert!(first.storing(&self.db, c.user_id, store).unwrap());
                for b in others {
                    b.storing(&self.db, c.user_id, || Ok::<_, DbError>(true)).unwrap();
                }
            }
        }

        fn rebuild(&self) {
            self.boards.iter().for_each(|b| b.rebuild(&self.db).unwrap());
        }

        /// Each kept ranking, in every view, row for row equal to the one
        /// computed from scratch from the database.
        fn assert_kept_is_recomputed(&self) {
            let users = self.db.users().unwrap();
            let rows = self.db.judged_rows().unwrap();
            for board in &self.boards {
                for now in [START + 60, END - FREEZE / 2, END + 60] {
                    for admin in [false, true] {
                        let kept = board.standings(now, admin, true);
                        let fresh = standings(&board.config, &users, &rows, now, admin);
                        assert_eq!(
                            kept, fresh,
                            "{:?} at {now}, teacher {admin}",
                            board.config.scoring
                        );
                    }
                }
            }
        }
    }

    /// The submissions of the middle of the contest, stored judged in one
    /// go (as a restore or `bench` does) between the two stretches judged
    /// through the queue: [`QUEUED`] each side.
    const QUEUED: usize = 1_000;

    #[test]
    fn the_kept_ranking_of_ten_thousand_submissions_through_restarts_a_rejudge_and_a_disqualification_is_the_recomputed_one()
     {
        let dir = tempfile::tempdir_in("/dev/shm")
            .or_else(|_| tempfile::tempdir())
            .unwrap();
        let path = dir.path().join("contest.db");
        let mut rng = fastrand::Rng::with_seed(59);
        let mut contest = Contest::open(&path);
        let users: Vec<i64> = (0..CONTESTANTS)
            .map(|i| {
                contest
                    .db
                    .add_user(&format!("c{i:03}"), None, "x", false)
                    .unwrap()
            })
            .collect();
        contest.db.add_user("admin", None, "x", true).unwrap();
        contest.rebuild();
        let submitted = |i: usize| START + (i as i64 * (END - START)) / SUBMISSIONS as i64;
        let bulk = QUEUED..SUBMISSIONS - QUEUED;
        let mut i = 0;
        while i < SUBMISSIONS {
            if i == bulk.start {
                // The middle stored judged at once, then a restart (the
                // kept ranking made from the database).
                let rows: Vec<(i64, i64, Judged)> = bulk
                    .clone()
                    .map(|k| (users[rng.usize(..users.len())], submitted(k), judged(&mut rng)))
                    .collect();
                contest.db.import_judged("c", "m.c", b"x", &rows).unwrap();
                drop(contest);
                contest = Contest::open(&path);
                contest.assert_kept_is_recomputed();
                i = bulk.end;
                continue;
            }
            let user = users[rng.usize(..users.len())];
            contest
                .db
                .add_submission(user, "c", "m.c", b"x", submitted(i))
                .unwrap();
            // Some wait in the queue a while, so judgings come out of order.
            if rng.u32(0..4) != 0 {
                contest.judge(1 + rng.usize(0..2), &mut rng);
            }
            match i {
                500 | 9_400 => {
                    // Killed mid-judging: one claimed, never finished.
                    contest.db.claim_next().unwrap();
                    drop(contest);
                    contest = Contest::open(&path);
                }
                700 => {
                    contest.db.rejudge(Some(users[7]), None).unwrap();
                    contest.db.rejudge(None, Some(42)).unwrap();
                    contest.rebuild();
                }
                9_200 => {
                    contest.db.set_disqualified(users[3], true).unwrap();
                    contest.rebuild();
                }
                9_600 => {
                    // A contestant's stored-at-once submissions judged again
                    // through the queue (in the freeze: the frozen view).
                    contest.db.rejudge(Some(users[11]), None).unwrap();
                    contest.rebuild();
                }
                _ => {}
            }
            if i == 900 {
                contest.assert_kept_is_recomputed();
            }
            i += 1;
        }
        contest.judge(usize::MAX, &mut rng);
        assert_eq!(contest.db.queue_length().unwrap(), 0);
        assert_eq!(contest.db.judged_rows().unwrap().len(), SUBMISSIONS);
        contest.assert_kept_is_recomputed();
    }
}
