//! The server's database: one SQLite file (WAL, `synchronous = FULL`), its
//! schema as versioned migrations, and every query the server makes. A
//! write returns only once it is committed to disk, so whatever the server
//! acknowledges survives a SIGKILL or a power cut.

use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Runs a write: on the web server's threads, as a blocking section (a
/// write may wait up to the busy timeout for another program's lock, and
/// the other requests go on meanwhile); elsewhere, as is.
fn block<T>(f: impl FnOnce() -> T) -> T {
    tokio::task::block_in_place(f)
}

/// What the database can fail with.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite refused (a full disk, a read-only file, a corrupt database).
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The schema could not be brought up to date.
    #[error("database schema: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// The database (or its `-wal`, `-shm`) is readable or writable by
    /// other users: it holds every source and every password hash.
    #[error(
        "{} can be read by other users (mode {mode:04o}): it holds every source and password hash; \
         make it private with `chmod 600 {}` (and its -wal and -shm files, if any), then start again",
        .path.display(), .path.display()
    )]
    Exposed {
        /// The file.
        path: std::path::PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The database file could not be created.
    #[error("{}: {cause}", .path.display())]
    Create {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        cause: std::io::Error,
    },
}

/// Result of a database call.
pub type DbResult<T> = Result<T, DbError>;

/// Why a backup was not written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The copy would replace a file.
    #[error("{}: exists (a backup never overwrites a file: choose another name)", .0.display())]
    Exists(PathBuf),
    /// There is no database to copy.
    #[error("{}: no such database", .0.display())]
    NoDatabase(PathBuf),
    /// The copy's folder or file.
    #[error("{}: {cause}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        cause: std::io::Error,
    },
    /// SQLite refused.
    #[error("backing up {}: {cause}", .path.display())]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// What SQLite said.
        cause: rusqlite::Error,
    },
}

/// Copies the database at `path` to `copy` (which must not exist) with
/// SQLite's online backup API in one step: every page under one read
/// transaction, so the copy is the database as it was at one instant,
/// whatever a server running on it writes meanwhile (WAL: the writer is not
/// held up). The copy is written to a temporary file beside it (mode 0600:
/// it holds every source and password hash), then renamed.
pub fn backup(path: &Path, copy: &Path) -> Result<(), BackupError> {
    use rusqlite::backup::{Backup, StepResult};
    if copy.exists() {
        return Err(BackupError::Exists(copy.to_path_buf()));
    }
    if !path.is_file() {
        return Err(BackupError::NoDatabase(path.to_path_buf()));
    }
    let sqlite = |cause| BackupError::Sqlite {
        path: path.to_path_buf(),
        cause,
    };
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |cause| BackupError::Io { path: p, cause }
    };
    let dir = match copy.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let temp = tempfile::Builder::new()
        .prefix(".mayan-judge-backup-")
        .tempfile_in(dir)
        .map_err(io(dir))?;
    {
        let source =
            Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE).map_err(sqlite)?;
        source
            .busy_timeout(std::time::Duration::from_secs(10))
            .map_err(sqlite)?;
        let mut target = Connection::open(temp.path()).map_err(sqlite)?;
        let backup = Backup::new(&source, &mut target).map_err(sqlite)?;
        // All pages at once (-1): a backup in steps restarts whenever the
        // server writes between them, and might never end.
        let mut tries = 0;
        loop {
            match backup.step(-1).map_err(sqlite)? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked if tries < 200 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                _ => {
                    return Err(sqlite(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                        Some("the database stayed locked for 10 s".into()),
                    )));
                }
            }
        }
    }
    temp.as_file().sync_all().map_err(io(copy))?;
    temp.persist_noclobber(copy).map_err(|e| match e.error.kind() {
        std::io::ErrorKind::AlreadyExists => BackupError::Exists(copy.to_path_buf()),
        _ => BackupError::Io {
            path: copy.to_path_buf(),
            cause: e.error,
        },
    })?;
    Ok(())
}

/// The schema, one migration per version (`PRAGMA user_version`): never
/// edit a released one, add the next.
const MIGRATIONS: &[M<'static>] = &[
    M::up(
        "CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        display TEXT,
        password_hash TEXT NOT NULL,
        is_admin INTEGER NOT NULL DEFAULT 0,
        disqualified INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        csrf TEXT NOT NULL,
        expires INTEGER NOT NULL
    );
    CREATE TABLE api_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        created INTEGER NOT NULL
    );
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        language TEXT NOT NULL,
        file_name TEXT NOT NULL,
        source BLOB NOT NULL,
        submitted INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'judging', 'done')),
        priority INTEGER NOT NULL DEFAULT 0,
        verdict TEXT,
        score INTEGER,
        max_score INTEGER,
        time_ms INTEGER,
        memory_kib INTEGER,
        report TEXT,
        judged INTEGER,
        judgings INTEGER NOT NULL DEFAULT 0,
        claim INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX submissions_by_state ON submissions(state, user_id, id);
    CREATE INDEX submissions_by_user ON submissions(user_id, id);
    CREATE TABLE clarifications (
        id INTEGER PRIMARY KEY,
        user_id INTEGER REFERENCES users(id),
        question TEXT NOT NULL,
        asked INTEGER NOT NULL,
        answer TEXT,
        answered INTEGER,
        public INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE announcements (
        id INTEGER PRIMARY KEY,
        text TEXT NOT NULL,
        posted INTEGER NOT NULL
    );",
    ),
    // A password the teacher reset on the page: the CSV's no longer
    // replaces it at a restart.
    M::up("ALTER TABLE users ADD COLUMN password_reset INTEGER NOT NULL DEFAULT 0;"),
    // The search for a failing submission's counterexample, done once per
    // judging (a rejudge searches again): `found` the counterexample's
    // JSON, NULL when none was found within the bounds.
    M::up(
        "CREATE TABLE counterexamples (
        submission_id INTEGER PRIMARY KEY REFERENCES submissions(id),
        judgings INTEGER NOT NULL,
        found TEXT,
        runs INTEGER NOT NULL,
        cpu_ms INTEGER NOT NULL,
        searched INTEGER NOT NULL
    );",
    ),
];

/// Sessions and API tokens one user keeps at most: a new one beyond
/// that ends the oldest.
pub const MAX_SESSIONS: i64 = 50;

/// The database: one connection for writes, behind a lock (SQLite
/// serialises writes anyway; every statement here takes microseconds), and
/// one read-only connection for the pages' reads, so that a write waiting on
/// another program's lock (up to the busy timeout) does not hold up every
/// page: in WAL mode, reads never wait for a writer.
pub struct Db {
    conn: Mutex<Connection>,
    reader: Mutex<Connection>,
}

/// A contestant or the teacher.
#[derive(Clone, Debug, serde::Serialize)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// Sign-in name.
    pub name: String,
    /// Name shown in the ranking (the sign-in name when none).
    pub display: String,
    /// The teacher.
    pub is_admin: bool,
    /// Out of the ranking, cannot submit.
    pub disqualified: bool,
}

/// A submission as lists and pages show it (no source, no report).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SubmissionRow {
    /// Row id: the submission's number.
    pub id: i64,
    /// Who submitted it.
    pub user_id: i64,
    /// Their sign-in name.
    pub user: String,
    /// Language name.
    pub language: String,
    /// The file name it was submitted as.
    pub file_name: String,
    /// Unix seconds.
    pub submitted: i64,
    /// `queued`, `judging` or `done`.
    pub state: String,
    /// Overall verdict once done (`AC`, `WA`, `CE`, `FAIL`, …).
    pub verdict: Option<String>,
    /// Points, once done.
    pub score: Option<i64>,
    /// Points possible.
    pub max_score: Option<i64>,
    /// Most CPU time of a test, ms.
    pub time_ms: Option<i64>,
    /// Most memory of a test, KiB.
    pub memory_kib: Option<i64>,
    /// How many times it was judged (1, or more after rejudges).
    pub judgings: i64,
}

/// A submission with its source and its report (JSON, once judged).
#[derive(Clone, Debug)]
pub struct FullSubmission {
    /// What lists show.
    pub row: SubmissionRow,
    /// The source.
    pub source: Vec<u8>,
    /// The `SubmissionReport`, as JSON.
    pub report: Option<String>,
}

/// A page of a list, newest first.
#[derive(Clone, Debug)]
pub struct Page {
    /// Its rows.
    pub rows: Vec<SubmissionRow>,
    /// The cursor of the next (older) page: the last row's number, when
    /// older rows are left.
    pub older: Option<i64>,
}

// The queries every page, submission or verdict makes: each reads through
// an index, never the whole table of submissions, whatever the number
// stored (`hot_queries_read_through_an_index` checks their plans).

/// A page of [`Db::submissions`]: everybody's (by the row number), or one
/// user's (by `submissions_by_user`).
fn page_sql(of_user: bool) -> String {
    let filter = if of_user { "s.user_id = ?3 AND " } else { "" };
    format!(
        "SELECT {SUBMISSION_COLUMNS} FROM submissions s JOIN users u ON u.id = s.user_id \
         WHERE {filter}s.id < ?1 ORDER BY s.id DESC LIMIT ?2"
    )
}

/// [`Db::judged_rows_of`].
fn judged_of_user_sql() -> String {
    format!(
        "SELECT {SUBMISSION_COLUMNS} FROM submissions s JOIN users u ON u.id = s.user_id \
         WHERE s.user_id = ?1 AND s.state = 'done' ORDER BY s.id"
    )
}

/// [`Db::submission`].
fn one_submission_sql() -> String {
    format!(
        "SELECT {SUBMISSION_COLUMNS}, s.source, s.report FROM submissions s JOIN users u ON u.id = s.user_id \
         WHERE s.id = ?1"
    )
}

/// A user's submissions counted (their cap).
const COUNT_OF_USER: &str = "SELECT COUNT(*) FROM submissions WHERE user_id = ?1";

/// [`Db::queue_length`].
const QUEUE_LENGTH: &str = "SELECT COUNT(*) FROM submissions WHERE state IN ('queued', 'judging')";

/// [`Db::claim_next`].
const CLAIM_NEXT: &str = "UPDATE submissions SET state = 'judging', claim = claim + 1 WHERE id = (
    SELECT id FROM (
        SELECT id, state, priority,
            ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY state = 'queued', id) AS k
        FROM submissions WHERE state IN ('queued', 'judging'))
    WHERE state = 'queued' ORDER BY priority, k, id LIMIT 1)
RETURNING id, user_id, language, file_name, source, claim";

/// [`Db::finish`].
const FINISH: &str = "UPDATE submissions SET state = 'done', verdict = ?2, score = ?3, max_score = ?4, \
    time_ms = ?5, memory_kib = ?6, report = ?7, judged = ?8, judgings = judgings + 1, priority = 0 \
    WHERE id = ?1 AND state = 'judging' AND claim = ?9";

/// A contestant's last program.
#[derive(Clone, Debug)]
pub struct FinalProgram {
    /// The submission's id.
    pub id: i64,
    /// The contestant's name.
    pub user: String,
    /// Its file name.
    pub file_name: String,
    /// The source.
    pub source: Vec<u8>,
}

/// A submission claimed by a judging worker.
#[derive(Clone, Debug)]
pub struct Claimed {
    /// Row id.
    pub id: i64,
    /// Which claim of it this is: results are stored only by the latest
    /// (a rejudge asked mid-judging makes a new claim).
    pub claim: i64,
    /// Who submitted it.
    pub user_id: i64,
    /// Language name.
    pub language: String,
    /// File name.
    pub file_name: String,
    /// The source.
    pub source: Vec<u8>,
}

/// A failing submission whose counterexample is to be searched for.
#[derive(Clone, Debug)]
pub struct ToSearch {
    /// Row id.
    pub id: i64,
    /// Who submitted it.
    pub user_id: i64,
    /// Language name.
    pub language: String,
    /// File name.
    pub file_name: String,
    /// The source.
    pub source: Vec<u8>,
    /// The judging searched (a rejudge searches again).
    pub judgings: i64,
}

/// What a judged submission stores.
#[derive(Clone, Debug)]
pub struct Judged {
    /// Overall verdict.
    pub verdict: String,
    /// Points.
    pub score: u32,
    /// Points possible.
    pub max_score: u32,
    /// Most CPU time of a test, ms.
    pub time_ms: u64,
    /// Most memory of a test, KiB.
    pub memory_kib: u64,
    /// The `SubmissionReport` as JSON.
    pub report: String,
}

impl Judged {
    /// What a judged submission's report stores: its overall verdict and
    /// score, its slowest test's time and largest memory, the report itself.
    pub fn of(report: &crate::judge::grading::SubmissionReport) -> Judged {
        Judged {
            verdict: report.overall_verdict().to_string(),
            score: report.score,
            max_score: report.max_score,
            time_ms: report.tests.iter().map(|t| t.time_ms).max().unwrap_or(0),
            memory_kib: report.tests.iter().map(|t| t.memory_kib).max().unwrap_or(0),
            report: serde_json::to_string(report).unwrap_or_default(),
        }
    }
}

/// A clarification: a question, and the teacher's answer.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Clarification {
    /// Row id.
    pub id: i64,
    /// Who asked (none: the teacher wrote it for everybody).
    pub user: Option<String>,
    /// The question.
    pub question: String,
    /// Unix seconds.
    pub asked: i64,
    /// The answer, once given.
    pub answer: Option<String>,
    /// When it was answered (unix seconds).
    pub answered: Option<i64>,
    /// Shown to everybody.
    pub public: bool,
}

/// An announcement to every contestant.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Announcement {
    /// Row id.
    pub id: i64,
    /// Its text.
    pub text: String,
    /// Unix seconds.
    pub posted: i64,
}

const SUBMISSION_COLUMNS: &str = "s.id, s.user_id, u.name, s.language, s.file_name, s.submitted, s.state, \
     s.verdict, s.score, s.max_score, s.time_ms, s.memory_kib, s.judgings";

fn submission_row(r: &rusqlite::Row) -> rusqlite::Result<SubmissionRow> {
    Ok(SubmissionRow {
        id: r.get(0)?,
        user_id: r.get(1)?,
        user: r.get(2)?,
        language: r.get(3)?,
        file_name: r.get(4)?,
        submitted: r.get(5)?,
        state: r.get(6)?,
        verdict: r.get(7)?,
        score: r.get(8)?,
        max_score: r.get(9)?,
        time_ms: r.get(10)?,
        memory_kib: r.get(11)?,
        judgings: r.get(12)?,
    })
}

fn user_row(r: &rusqlite::Row) -> rusqlite::Result<User> {
    let name: String = r.get(1)?;
    let display: Option<String> = r.get(2)?;
    Ok(User {
        id: r.get(0)?,
        display: display.unwrap_or_else(|| name.clone()),
        name,
        is_admin: r.get(3)?,
        disqualified: r.get(4)?,
    })
}

const USER_COLUMNS: &str = "id, name, display, is_admin, disqualified";

impl Db {
    /// Opens (or creates, mode 0600) the database and brings its schema
    /// up to date; refuses a database other users can read.
    pub fn open(path: &Path) -> DbResult<Db> {
        private_file(path)?;
        let mut conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        Migrations::from_slice(MIGRATIONS).to_latest(&mut conn)?;
        let reader = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        reader.busy_timeout(std::time::Duration::from_secs(10))?;
        Ok(Db {
            conn: Mutex::new(conn),
            reader: Mutex::new(reader),
        })
    }

    /// The writer connection in an immediate transaction (the write lock
    /// taken at its start), so what it counts cannot change before it
    /// writes.
    fn write<T>(&self, f: impl FnOnce(&rusqlite::Transaction) -> DbResult<T>) -> DbResult<T> {
        block(|| {
            let mut conn = self.conn();
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        })
    }

    /// The read-only connection (see [`Db`]).
    fn read(&self) -> MutexGuard<'_, Connection> {
        self.reader.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding it cannot leave SQLite half-written (the
        // transaction rolls back), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The user of this name (any case), with their password hash.
    pub fn user_by_name(&self, name: &str) -> DbResult<Option<(User, String)>> {
        let sql = format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE name = ?1");
        Ok(self
            .read()
            .query_row(&sql, [name], |r| Ok((user_row(r)?, r.get(5)?)))
            .optional()?)
    }

    /// The user with this id.
    pub fn user(&self, id: i64) -> DbResult<Option<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1");
        Ok(self.read().query_row(&sql, [id], user_row).optional()?)
    }

    /// Every user, the teacher first, then by name.
    pub fn users(&self) -> DbResult<Vec<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users ORDER BY is_admin DESC, name");
        let conn = self.read();
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([], user_row)?.collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Every contestant (not the teacher) with their password hash, by name;
    /// no hash where the teacher reset the password (the contest's file no
    /// longer decides it).
    pub fn contestants_with_hashes(&self) -> DbResult<Vec<(User, Option<String>)>> {
        let sql = format!(
            "SELECT {USER_COLUMNS}, CASE WHEN password_reset THEN NULL ELSE password_hash END \
             FROM users WHERE is_admin = 0 ORDER BY name"
        );
        let conn = self.read();
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt
            .query_map([], |r| Ok((user_row(r)?, r.get(5)?)))?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Adds a user (a contestant, or the teacher with `is_admin`).
    pub fn add_user(&self, name: &str, display: Option<&str>, hash: &str, is_admin: bool) -> DbResult<i64> {
        block(|| -> DbResult<_> {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO users (name, display, password_hash, is_admin) VALUES (?1, ?2, ?3, ?4)",
                params![name, display, hash, is_admin],
            )?;
            Ok(conn.last_insert_rowid())
        })
    }

    /// Changes a user's shown name and password hash; a new password
    /// ends every session and API token of theirs.
    pub fn update_user(&self, id: i64, display: Option<&str>, hash: Option<&str>) -> DbResult<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE users SET display = ?2 WHERE id = ?1",
                params![id, display],
            )?;
            if let Some(hash) = hash {
                tx.execute(
                    "UPDATE users SET password_hash = ?2, password_reset = 0 WHERE id = ?1",
                    params![id, hash],
                )?;
                revoke(tx, id)?;
            }
            Ok(())
        })
    }

    /// The teacher's reset of a user's password: the new hash, every
    /// session and API token of theirs ended; the CSV's password no longer
    /// replaces it at a restart. `false`: no such user.
    pub fn reset_password(&self, id: i64, hash: &str) -> DbResult<bool> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET password_hash = ?2, password_reset = 1 WHERE id = ?1",
                params![id, hash],
            )?;
            revoke(tx, id)?;
            Ok(n == 1)
        })
    }

    /// Whether the teacher reset this user's password on the page.
    pub fn password_was_reset(&self, id: i64) -> DbResult<bool> {
        Ok(self
            .read()
            .query_row("SELECT password_reset FROM users WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?
            .unwrap_or(false))
    }

    /// Ends every session and API token of a user (signed out everywhere).
    pub fn sign_out_everywhere(&self, id: i64) -> DbResult<()> {
        self.write(|tx| revoke(tx, id))
    }

    /// Disqualifies a contestant, or lifts it.
    pub fn set_disqualified(&self, id: i64, yes: bool) -> DbResult<()> {
        block(|| -> DbResult<_> {
            self.conn().execute(
                "UPDATE users SET disqualified = ?2 WHERE id = ?1 AND is_admin = 0",
                params![id, yes],
            )?;
            Ok(())
        })
    }

    /// Stores a session (by the hash of its cookie) for a user, ending
    /// their oldest beyond [`MAX_SESSIONS`].
    pub fn add_session(&self, token_hash: &str, user_id: i64, csrf: &str, expires: i64) -> DbResult<()> {
        self.write(|tx| {
            tx.execute(
                "DELETE FROM sessions WHERE expires < ?1",
                [expires - super::auth::SESSION_SECS],
            )?;
            tx.execute(
                "INSERT INTO sessions (token_hash, user_id, csrf, expires) VALUES (?1, ?2, ?3, ?4)",
                params![token_hash, user_id, csrf, expires],
            )?;
            tx.execute(
                "DELETE FROM sessions WHERE user_id = ?1 AND rowid NOT IN \
                 (SELECT rowid FROM sessions WHERE user_id = ?1 ORDER BY expires DESC, rowid DESC LIMIT ?2)",
                params![user_id, MAX_SESSIONS],
            )?;
            Ok(())
        })
    }

    /// The user and CSRF token of a live session.
    pub fn session(&self, token_hash: &str, now: i64) -> DbResult<Option<(User, String)>> {
        let sql = "SELECT u.id, u.name, u.display, u.is_admin, u.disqualified, s.csrf FROM sessions s \
                   JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?1 AND s.expires > ?2";
        let conn = self.read();
        let mut stmt = conn.prepare_cached(sql)?;
        Ok(stmt
            .query_row(params![token_hash, now], |r| Ok((user_row(r)?, r.get(5)?)))
            .optional()?)
    }

    /// Ends a session.
    pub fn delete_session(&self, token_hash: &str) -> DbResult<()> {
        block(|| -> DbResult<_> {
            self.conn()
                .execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])?;
            Ok(())
        })
    }

    /// Stores an API token (by its hash) for a user, ending their oldest
    /// beyond [`MAX_SESSIONS`].
    pub fn add_api_token(&self, token_hash: &str, user_id: i64, now: i64) -> DbResult<()> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO api_tokens (token_hash, user_id, created) VALUES (?1, ?2, ?3)",
                params![token_hash, user_id, now],
            )?;
            tx.execute(
                "DELETE FROM api_tokens WHERE user_id = ?1 AND rowid NOT IN \
                 (SELECT rowid FROM api_tokens WHERE user_id = ?1 ORDER BY created DESC, rowid DESC LIMIT ?2)",
                params![user_id, MAX_SESSIONS],
            )?;
            Ok(())
        })
    }

    /// The user of an API token.
    pub fn api_user(&self, token_hash: &str) -> DbResult<Option<User>> {
        let sql = "SELECT u.id, u.name, u.display, u.is_admin, u.disqualified FROM api_tokens t \
                   JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?1";
        let conn = self.read();
        let mut stmt = conn.prepare_cached(sql)?;
        Ok(stmt.query_row([token_hash], user_row).optional()?)
    }

    /// Stores a new submission, queued; returns its number once committed.
    pub fn add_submission(
        &self,
        user_id: i64,
        language: &str,
        file_name: &str,
        source: &[u8],
        now: i64,
    ) -> DbResult<i64> {
        let id = self.add_submission_capped(user_id, None, language, file_name, source, now)?;
        Ok(id.unwrap_or_default())
    }

    /// Stores a new submission unless the user has `max` already (counted
    /// and inserted in one transaction: parallel requests cannot pass the
    /// cap together); returns its number once committed, `None` at the cap.
    pub fn add_submission_capped(
        &self,
        user_id: i64,
        max: Option<u32>,
        language: &str,
        file_name: &str,
        source: &[u8],
        now: i64,
    ) -> DbResult<Option<i64>> {
        self.write(|tx| {
            if let Some(max) = max {
                let n: i64 = tx.query_row(COUNT_OF_USER, [user_id], |r| r.get(0))?;
                if n >= i64::from(max) {
                    return Ok(None);
                }
            }
            tx.execute(
                "INSERT INTO submissions (user_id, language, file_name, source, submitted) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![user_id, language, file_name, source, now],
            )?;
            Ok(Some(tx.last_insert_rowid()))
        })
    }

    /// Stores submissions judged elsewhere, all in one transaction, each
    /// `(user, submitted, results)` with the same language, file name and
    /// source (a benchmark's contest filled at once: `bench --only
    /// contest-scale`); their numbers follow the stored ones.
    pub fn import_judged(
        &self,
        language: &str,
        file_name: &str,
        source: &[u8],
        rows: &[(i64, i64, Judged)],
    ) -> DbResult<()> {
        self.write(|tx| {
            let mut stmt = tx.prepare(
                "INSERT INTO submissions (user_id, language, file_name, source, submitted, state, verdict, score, \
                 max_score, time_ms, memory_kib, report, judged, judgings) \
                 VALUES (?1, ?2, ?3, ?4, ?5, 'done', ?6, ?7, ?8, ?9, ?10, ?11, ?5, 1)",
            )?;
            for (user, submitted, j) in rows {
                stmt.execute(params![
                    user,
                    language,
                    file_name,
                    source,
                    submitted,
                    j.verdict,
                    j.score,
                    j.max_score,
                    j.time_ms as i64,
                    j.memory_kib as i64,
                    j.report
                ])?;
            }
            Ok(())
        })
    }

    /// How many submissions a user has made.
    pub fn submission_count(&self, user_id: i64) -> DbResult<i64> {
        Ok(self.read().query_row(COUNT_OF_USER, [user_id], |r| r.get(0))?)
    }

    /// One submission, with its source and report.
    pub fn submission(&self, id: i64) -> DbResult<Option<FullSubmission>> {
        Ok(self
            .read()
            .query_row(&one_submission_sql(), [id], |r| {
                Ok(FullSubmission {
                    row: submission_row(r)?,
                    source: r.get(13)?,
                    report: r.get(14)?,
                })
            })
            .optional()?)
    }

    /// A page of submissions, newest first: a user's, or everybody's;
    /// `limit` at most, those numbered below `before` when given (the
    /// cursor: the last number of the page before). Read through an index
    /// whatever the number stored (a test checks its plan).
    pub fn submissions(&self, user_id: Option<i64>, before: Option<i64>, limit: usize) -> DbResult<Page> {
        let conn = self.read();
        let mut stmt = conn.prepare_cached(&page_sql(user_id.is_some()))?;
        let before = before.unwrap_or(i64::MAX);
        let more = limit.saturating_add(1) as i64;
        let mut rows: Vec<SubmissionRow> = match user_id {
            Some(u) => stmt.query_map(params![before, more, u], submission_row)?,
            None => stmt.query_map(params![before, more], submission_row)?,
        }
        .collect::<Result<_, _>>()?;
        let older = (rows.len() > limit).then(|| {
            rows.truncate(limit);
            rows.last().map_or(0, |r| r.id)
        });
        Ok(Page { rows, older })
    }

    /// How many submissions there are: a user's, or everybody's.
    pub fn submissions_count(&self, user_id: Option<i64>) -> DbResult<i64> {
        match user_id {
            Some(u) => self.submission_count(u),
            None => Ok(self
                .read()
                .query_row("SELECT COUNT(*) FROM submissions", [], |r| r.get(0))?),
        }
    }

    /// Every judged submission, oldest first, without its report (the
    /// ranking reads only these columns).
    pub fn judged_rows(&self) -> DbResult<Vec<SubmissionRow>> {
        let sql = format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions s JOIN users u ON u.id = s.user_id \
             WHERE s.state = 'done' ORDER BY s.id"
        );
        let conn = self.read();
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([], submission_row)?.collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// One contestant's judged submissions, oldest first, without their
    /// reports (what the kept ranking makes their line from).
    pub fn judged_rows_of(&self, user_id: i64) -> DbResult<Vec<SubmissionRow>> {
        let conn = self.read();
        let mut stmt = conn.prepare_cached(&judged_of_user_sql())?;
        let rows = stmt
            .query_map([user_id], submission_row)?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Each contestant's counted submission with its report: the last
    /// judged one, or with `best` (IOI) the best scoring one (the earliest
    /// of the best).
    pub fn counted_reports(&self, best: bool) -> DbResult<Vec<(SubmissionRow, String)>> {
        let counted = if best {
            "SELECT b.id FROM submissions b WHERE b.state = 'done' AND NOT EXISTS \
             (SELECT 1 FROM submissions o WHERE o.user_id = b.user_id AND o.state = 'done' \
             AND (COALESCE(o.score, 0) > COALESCE(b.score, 0) \
             OR (COALESCE(o.score, 0) = COALESCE(b.score, 0) AND o.id < b.id)))"
        } else {
            "SELECT MAX(id) FROM submissions WHERE state = 'done' GROUP BY user_id"
        };
        let sql = format!(
            "SELECT {SUBMISSION_COLUMNS}, s.report FROM submissions s JOIN users u ON u.id = s.user_id \
             WHERE s.id IN ({counted}) ORDER BY s.id"
        );
        let conn = self.read();
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt
            .query_map([], |r| Ok((submission_row(r)?, r.get(13)?)))?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Every submission's final program per contestant: the last one
    /// submitted (id, user name, file name, source).
    pub fn final_programs(&self) -> DbResult<Vec<FinalProgram>> {
        let sql = "SELECT s.id, u.name, s.file_name, s.source FROM submissions s JOIN users u ON u.id = s.user_id \
                   WHERE s.id IN (SELECT MAX(id) FROM submissions GROUP BY user_id) ORDER BY u.name";
        let conn = self.read();
        let mut stmt = conn.prepare(sql)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(FinalProgram {
                    id: r.get(0)?,
                    user: r.get(1)?,
                    file_name: r.get(2)?,
                    source: r.get(3)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// The ids of [`Db::final_programs`], in its order, without their
    /// sources (what the teacher's page of copied programs is kept by).
    pub fn final_program_ids(&self) -> DbResult<Vec<i64>> {
        let sql = "SELECT s.id FROM submissions s JOIN users u ON u.id = s.user_id \
                   WHERE s.id IN (SELECT MAX(id) FROM submissions GROUP BY user_id) ORDER BY u.name";
        let conn = self.read();
        let mut stmt = conn.prepare(sql)?;
        let ids = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        Ok(ids)
    }

    /// Puts back in the queue what a killed server was judging: its
    /// results were never stored, so it is judged again, once.
    pub fn requeue_interrupted(&self) -> DbResult<usize> {
        block(|| -> DbResult<_> {
            Ok(self.conn().execute(
                "UPDATE submissions SET state = 'queued' WHERE state = 'judging'",
                [],
            )?)
        })
    }

    /// Claims the next submission to judge, fairly: new submissions before
    /// rejudges, then each contestant's first waiting one before anybody's
    /// second (counting the ones being judged), then the oldest.
    pub fn claim_next(&self) -> DbResult<Option<Claimed>> {
        block(|| -> DbResult<_> {
            let conn = self.conn();
            let mut stmt = conn.prepare_cached(CLAIM_NEXT)?;
            Ok(stmt
                .query_row([], |r| {
                    Ok(Claimed {
                        id: r.get(0)?,
                        user_id: r.get(1)?,
                        language: r.get(2)?,
                        file_name: r.get(3)?,
                        source: r.get(4)?,
                        claim: r.get(5)?,
                    })
                })
                .optional()?)
        })
    }

    /// Stores a submission's results, in one statement; `false` when this
    /// claim is no longer the one being judged (a rejudge asked meanwhile:
    /// it is queued or claimed again and these results are dropped).
    pub fn finish(&self, c: &Claimed, judged: &Judged, now: i64) -> DbResult<bool> {
        block(|| -> DbResult<_> {
            let n = self.conn().execute(
                FINISH,
                params![
                    c.id,
                    judged.verdict,
                    judged.score,
                    judged.max_score,
                    judged.time_ms as i64,
                    judged.memory_kib as i64,
                    judged.report,
                    now,
                    c.claim
                ],
            )?;
            Ok(n == 1)
        })
    }

    /// Queues submissions again (all, a contestant's, or one), after
    /// everything new; returns how many. Results stay shown until replaced.
    pub fn rejudge(&self, user_id: Option<i64>, id: Option<i64>) -> DbResult<usize> {
        block(|| -> DbResult<_> {
            Ok(self.conn().execute(
                "UPDATE submissions SET state = 'queued', priority = 1 \
             WHERE (?1 IS NULL OR user_id = ?1) AND (?2 IS NULL OR id = ?2)",
                params![user_id, id],
            )?)
        })
    }

    /// How many submissions wait or are being judged.
    pub fn queue_length(&self) -> DbResult<i64> {
        Ok(self.read().query_row(QUEUE_LENGTH, [], |r| r.get(0))?)
    }

    /// Asks a question (or, with no user, the teacher writes a public
    /// note), unless the user asked `max` already (counted and inserted in
    /// one transaction); its number, `None` at the cap.
    pub fn ask(
        &self,
        user_id: Option<i64>,
        max: Option<u32>,
        question: &str,
        now: i64,
    ) -> DbResult<Option<i64>> {
        self.write(|tx| {
            if let (Some(max), Some(user_id)) = (max, user_id) {
                let n: i64 = tx.query_row(
                    "SELECT COUNT(*) FROM clarifications WHERE user_id = ?1",
                    [user_id],
                    |r| r.get(0),
                )?;
                if n >= i64::from(max) {
                    return Ok(None);
                }
            }
            tx.execute(
                "INSERT INTO clarifications (user_id, question, asked) VALUES (?1, ?2, ?3)",
                params![user_id, question, now],
            )?;
            Ok(Some(tx.last_insert_rowid()))
        })
    }

    /// How many questions a user asked.
    pub fn question_count(&self, user_id: i64) -> DbResult<i64> {
        Ok(self.read().query_row(
            "SELECT COUNT(*) FROM clarifications WHERE user_id = ?1",
            [user_id],
            |r| r.get(0),
        )?)
    }

    /// Answers a question, to its asker or to everybody; returns the asker.
    pub fn answer(&self, id: i64, answer: &str, public: bool, now: i64) -> DbResult<Option<Option<i64>>> {
        block(|| -> DbResult<_> {
            let conn = self.conn();
            let n = conn.execute(
                "UPDATE clarifications SET answer = ?2, public = ?3, answered = ?4 WHERE id = ?1",
                params![id, answer, public, now],
            )?;
            if n == 0 {
                return Ok(None);
            }
            Ok(Some(conn.query_row(
                "SELECT user_id FROM clarifications WHERE id = ?1",
                [id],
                |r| r.get(0),
            )?))
        })
    }

    /// Clarifications a user may read (theirs and the public ones), or all.
    pub fn clarifications(&self, user_id: Option<i64>) -> DbResult<Vec<Clarification>> {
        let sql = "SELECT c.id, u.name, c.question, c.asked, c.answer, c.public, c.answered FROM clarifications c \
                   LEFT JOIN users u ON u.id = c.user_id \
                   WHERE ?1 IS NULL OR c.user_id = ?1 OR (c.public = 1 AND c.answer IS NOT NULL) ORDER BY c.id DESC";
        let conn = self.read();
        let mut stmt = conn.prepare_cached(sql)?;
        let rows = stmt
            .query_map([user_id], |r| {
                Ok(Clarification {
                    id: r.get(0)?,
                    user: r.get(1)?,
                    question: r.get(2)?,
                    asked: r.get(3)?,
                    answer: r.get(4)?,
                    public: r.get(5)?,
                    answered: r.get(6)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Posts an announcement.
    pub fn announce(&self, text: &str, now: i64) -> DbResult<i64> {
        block(|| -> DbResult<_> {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO announcements (text, posted) VALUES (?1, ?2)",
                params![text, now],
            )?;
            Ok(conn.last_insert_rowid())
        })
    }

    /// Every announcement, newest first.
    pub fn announcements(&self) -> DbResult<Vec<Announcement>> {
        let conn = self.read();
        let mut stmt = conn.prepare_cached("SELECT id, text, posted FROM announcements ORDER BY id DESC")?;
        let rows = stmt
            .query_map([], |r| {
                Ok(Announcement {
                    id: r.get(0)?,
                    text: r.get(1)?,
                    posted: r.get(2)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// The next failing submission whose counterexample is to be searched
    /// for (judged one of `stress::SEARCHED_VERDICTS`, and not searched since its last
    /// judging): each contestant's latest first, contestants in turn
    /// (the earliest of those first).
    pub fn next_search(&self) -> DbResult<Option<ToSearch>> {
        let verdicts = crate::judge::stress::SEARCHED_VERDICTS
            .map(|v| format!("'{v}'"))
            .join(", ");
        let sql = format!(
            "SELECT id, user_id, language, file_name, source, judgings FROM (
                SELECT s.*, ROW_NUMBER() OVER (PARTITION BY s.user_id ORDER BY s.id DESC) AS k
                FROM submissions s LEFT JOIN counterexamples c ON c.submission_id = s.id
                WHERE s.state = 'done' AND s.verdict IN ({verdicts})
                  AND (c.judgings IS NULL OR c.judgings != s.judgings))
            ORDER BY k, id LIMIT 1"
        );
        let conn = self.read();
        let mut stmt = conn.prepare_cached(&sql)?;
        Ok(stmt
            .query_row([], |r| {
                Ok(ToSearch {
                    id: r.get(0)?,
                    user_id: r.get(1)?,
                    language: r.get(2)?,
                    file_name: r.get(3)?,
                    source: r.get(4)?,
                    judgings: r.get(5)?,
                })
            })
            .optional()?)
    }

    /// Stores what the search for a submission's counterexample found
    /// (`found`: its JSON, `None`: nothing within the bounds), for the
    /// judging it searched.
    pub fn store_counterexample(
        &self,
        s: &ToSearch,
        found: Option<&str>,
        runs: usize,
        cpu_ms: u64,
        now: i64,
    ) -> DbResult<()> {
        block(|| -> DbResult<_> {
            self.conn().execute(
                "INSERT OR REPLACE INTO counterexamples (submission_id, judgings, found, runs, cpu_ms, searched) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![s.id, s.judgings, found, runs as i64, cpu_ms as i64, now],
            )?;
            Ok(())
        })
    }

    /// The time, ms, the counterexample searches of a contestant's
    /// submissions have used in all (each run's CPU time, or its wall time
    /// where longer: the column `cpu_ms`).
    pub fn search_cpu_ms(&self, user_id: i64) -> DbResult<i64> {
        Ok(self.read().query_row(
            "SELECT COALESCE(SUM(c.cpu_ms), 0) FROM counterexamples c \
             JOIN submissions s ON s.id = c.submission_id WHERE s.user_id = ?1",
            [user_id],
            |r| r.get(0),
        )?)
    }

    /// The search's result for a submission's latest judging: `None` when
    /// not searched (yet); `Some(None)` when nothing was found; else the
    /// counterexample's JSON.
    pub fn counterexample(&self, id: i64) -> DbResult<Option<Option<String>>> {
        Ok(self
            .read()
            .query_row(
                "SELECT c.found FROM counterexamples c JOIN submissions s ON s.id = c.submission_id \
                 WHERE c.submission_id = ?1 AND c.judgings = s.judgings",
                [id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Every counterexample found for a submission's latest judging:
    /// (submission, contestant, JSON), oldest first.
    pub fn counterexamples(&self) -> DbResult<Vec<(i64, i64, String)>> {
        let conn = self.read();
        let mut stmt = conn.prepare_cached(
            "SELECT s.id, s.user_id, c.found FROM counterexamples c JOIN submissions s ON s.id = c.submission_id \
             WHERE c.judgings = s.judgings AND c.found IS NOT NULL ORDER BY s.id",
        )?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }
}

/// Ends every session and API token of a user, in a transaction.
fn revoke(tx: &rusqlite::Transaction, user_id: i64) -> DbResult<()> {
    tx.execute("DELETE FROM sessions WHERE user_id = ?1", [user_id])?;
    tx.execute("DELETE FROM api_tokens WHERE user_id = ?1", [user_id])?;
    Ok(())
}

/// Creates the database file readable by its owner only (SQLite gives its
/// `-wal` and `-shm` files the database's mode), or refuses one that is
/// not private, or whose `-wal` or `-shm` is not.
fn private_file(path: &Path) -> DbResult<()> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let create = |cause| DbError::Create {
        path: path.to_path_buf(),
        cause,
    };
    if !path.exists() {
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(create)?;
    }
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let file = std::path::PathBuf::from(name);
        if let Ok(meta) = std::fs::metadata(&file) {
            let mode = meta.mode() & 0o7777;
            if mode & 0o077 != 0 {
                return Err(DbError::Exposed { path: file, mode });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.db")).unwrap();
        (dir, db)
    }

    fn judged() -> Judged {
        Judged {
            verdict: "AC".into(),
            score: 100,
            max_score: 100,
            time_ms: 1,
            memory_kib: 1,
            report: "{}".into(),
        }
    }

    /// The hot queries' plans, one line each (`SEARCH s USING INDEX …`).
    fn plans(db: &Db) -> Vec<(String, Vec<String>)> {
        let hot = [
            page_sql(false),
            page_sql(true),
            judged_of_user_sql(),
            one_submission_sql(),
            COUNT_OF_USER.into(),
            QUEUE_LENGTH.into(),
            CLAIM_NEXT.into(),
            FINISH.into(),
        ];
        let conn = db.conn();
        hot.into_iter()
            .map(|sql| {
                let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
                let n = stmt.parameter_count();
                let nulls = vec![rusqlite::types::Null; n];
                let lines = stmt
                    .query_map(rusqlite::params_from_iter(nulls), |r| r.get::<_, String>(3))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                (sql, lines)
            })
            .collect()
    }

    #[test]
    fn hot_queries_read_through_an_index_never_the_whole_table_of_submissions() {
        let (_dir, db) = db();
        for (sql, lines) in plans(&db) {
            let scans: Vec<&String> = lines
                .iter()
                .filter(|l| l.starts_with("SCAN s ") || l == &"SCAN s" || l.starts_with("SCAN submissions"))
                .collect();
            assert!(scans.is_empty(), "{sql}\nscans the submissions: {lines:?}");
        }
    }

    #[test]
    fn pages_of_submissions_are_newest_first_and_follow_each_other_without_a_gap_or_an_overlap() {
        let (_dir, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        let b = db.add_user("b", None, "x", false).unwrap();
        for i in 0..25 {
            db.add_submission(if i % 3 == 0 { a } else { b }, "c", "m.c", b"x", i)
                .unwrap();
        }
        for (user, count) in [(None, 25), (Some(a), 9), (Some(b), 16)] {
            let (mut seen, mut before, mut pages) = (Vec::new(), None, 0);
            loop {
                let page = db.submissions(user, before, 4).unwrap();
                assert!(page.rows.len() <= 4);
                seen.extend(page.rows.iter().map(|r| r.id));
                pages += 1;
                match page.older {
                    Some(older) => before = Some(older),
                    None => break,
                }
            }
            let mut newest_first = seen.clone();
            newest_first.sort_by(|x, y| y.cmp(x));
            newest_first.dedup();
            assert_eq!(seen, newest_first, "{user:?}: newest first, each once");
            assert_eq!(seen.len(), count, "{user:?}: every one");
            assert_eq!(pages, count.div_ceil(4), "{user:?}: no empty last page");
            assert_eq!(db.submissions_count(user).unwrap(), count as i64);
        }
    }

    #[test]
    fn the_counted_submission_is_the_last_judged_or_under_ioi_the_earliest_best() {
        let (_d, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        let mut ids = Vec::new();
        for score in [40, 70, 70, 10] {
            ids.push(db.add_submission(a, "c", "m.c", b"", 0).unwrap());
            let c = db.claim_next().unwrap().unwrap();
            db.finish(&c, &Judged { score, ..judged() }, 1).unwrap();
        }
        let counted = |best| -> Vec<i64> {
            db.counted_reports(best)
                .unwrap()
                .iter()
                .map(|(r, _)| r.id)
                .collect()
        };
        assert_eq!(counted(false), [ids[3]], "the last");
        assert_eq!(counted(true), [ids[1]], "the earliest of the best");
    }

    #[test]
    fn one_contestants_twenty_submissions_do_not_hold_back_anothers_first() {
        let (_d, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        let b = db.add_user("b", None, "x", false).unwrap();
        for _ in 0..20 {
            db.add_submission(a, "c", "m.c", b"", 0).unwrap();
        }
        let late = db.add_submission(b, "c", "m.c", b"", 0).unwrap();
        let first = db.claim_next().unwrap().unwrap();
        assert_eq!(first.user_id, a);
        // a has one being judged: b's first comes before a's second.
        assert_eq!(db.claim_next().unwrap().unwrap().id, late);
        assert_eq!(db.claim_next().unwrap().unwrap().user_id, a);
    }

    #[test]
    fn every_failing_verdict_is_searched_once_and_accepted_or_uncompiled_ones_never() {
        let (_d, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        let mut failing = Vec::new();
        for verdict in ["AC", "WA", "PE", "RE", "TLE", "CE", "MLE"] {
            let id = db.add_submission(a, "c", "m.c", b"", 0).unwrap();
            let c = db.claim_next().unwrap().unwrap();
            let j = Judged {
                verdict: verdict.into(),
                ..judged()
            };
            db.finish(&c, &j, 1).unwrap();
            if crate::judge::stress::SEARCHED_VERDICTS.contains(&verdict) {
                failing.push(id);
            }
        }
        assert_eq!(failing.len(), 4, "WA, PE, RE and TLE");
        let mut searched = Vec::new();
        while let Some(s) = db.next_search().unwrap() {
            db.store_counterexample(&s, None, 1, 1, 2).unwrap();
            searched.push(s.id);
        }
        searched.sort();
        assert_eq!(searched, failing);
    }

    #[test]
    fn rejudges_wait_behind_new_submissions() {
        let (_d, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        let old = db.add_submission(a, "c", "m.c", b"", 0).unwrap();
        let c = db.claim_next().unwrap().unwrap();
        db.finish(&c, &judged(), 1).unwrap();
        db.rejudge(None, None).unwrap();
        let new = db.add_submission(a, "c", "m.c", b"", 2).unwrap();
        assert_eq!(db.claim_next().unwrap().unwrap().id, new);
        assert_eq!(db.claim_next().unwrap().unwrap().id, old);
    }

    #[test]
    fn an_interrupted_judging_is_queued_again_and_stored_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let id = {
            let db = Db::open(&path).unwrap();
            let a = db.add_user("a", None, "x", false).unwrap();
            let id = db.add_submission(a, "c", "m.c", b"int main(){}", 0).unwrap();
            assert_eq!(db.claim_next().unwrap().unwrap().id, id);
            id // dropped mid-judging, as a killed server
        };
        let db = Db::open(&path).unwrap();
        assert_eq!(db.requeue_interrupted().unwrap(), 1);
        let again = db.claim_next().unwrap().unwrap();
        assert_eq!((again.id, again.source.as_slice()), (id, &b"int main(){}"[..]));
        assert!(db.finish(&again, &judged(), 1).unwrap());
        assert!(!db.finish(&again, &judged(), 1).unwrap(), "stored twice");
        assert_eq!(db.submissions(None, None, 1).unwrap().rows[0].judgings, 1);
    }

    #[test]
    fn a_rejudge_asked_mid_judging_drops_the_stale_results_once_claimed_again() {
        let (_d, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        db.add_submission(a, "c", "m.c", b"", 0).unwrap();
        let stale = db.claim_next().unwrap().unwrap();
        db.rejudge(None, None).unwrap();
        let fresh = db.claim_next().unwrap().unwrap();
        assert!(
            !db.finish(&stale, &judged(), 1).unwrap(),
            "the stale claim stored nothing"
        );
        assert!(db.finish(&fresh, &judged(), 2).unwrap());
        assert_eq!(db.submissions(None, None, 1).unwrap().rows[0].judgings, 1);
    }

    #[test]
    fn a_cap_is_counted_and_written_in_one_transaction() {
        let (_d, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        for _ in 0..2 {
            assert!(
                db.add_submission_capped(a, Some(2), "c", "m.c", b"", 0)
                    .unwrap()
                    .is_some()
            );
        }
        assert_eq!(
            db.add_submission_capped(a, Some(2), "c", "m.c", b"", 0).unwrap(),
            None
        );
        assert!(db.ask(Some(a), Some(1), "q?", 0).unwrap().is_some());
        assert_eq!(db.ask(Some(a), Some(1), "q?", 0).unwrap(), None);
        assert_eq!(db.question_count(a).unwrap(), 1);
    }

    #[test]
    fn a_new_password_ends_every_session_and_token_of_its_user_only() {
        let (_d, db) = db();
        let a = db.add_user("a", None, "x", false).unwrap();
        let b = db.add_user("b", None, "x", false).unwrap();
        db.add_session("sa", a, "c", 100).unwrap();
        db.add_session("sb", b, "c", 100).unwrap();
        db.add_api_token("ta", a, 0).unwrap();
        db.update_user(a, None, Some("y")).unwrap();
        assert!(db.session("sa", 0).unwrap().is_none());
        assert!(db.api_user("ta").unwrap().is_none());
        assert!(db.session("sb", 0).unwrap().is_some(), "another user's session");
        db.add_session("sa2", a, "c", 100).unwrap();
        assert!(db.reset_password(a, "z").unwrap());
        assert!(db.session("sa2", 0).unwrap().is_none());
        assert!(db.password_was_reset(a).unwrap());
    }

    #[test]
    fn the_database_is_created_private_and_refused_when_others_can_read_it() {
        use std::os::unix::fs::PermissionsExt;
        let (dir, db) = db();
        db.add_user("a", None, "x", false).unwrap();
        let path = dir.path().join("t.db");
        for suffix in ["", "-wal", "-shm"] {
            let file = dir.path().join(format!("t.db{suffix}"));
            let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{}", file.display());
        }
        drop(db);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let e = Db::open(&path).err().expect("refused");
        assert!(e.to_string().contains("chmod 600"), "{e}");
    }
}
