//! One module per subcommand: each turns parsed arguments into work on the
//! domain modules and returns the process exit code; and the words of an
//! error that ends a command ([`error_in_words`]), in the user's language.

pub mod bench;
pub mod check;
pub mod ci;
pub mod doctor;
pub mod export;
pub mod r#gen;
pub mod grade;
pub mod help;
pub mod progress;
pub mod serve;
pub mod show;
pub mod similar;
pub mod solve;
pub mod stress;
pub mod validate;

use crate::cli::ReportArgs;
use crate::i18n::{Locale, Said};
use crate::report::{Html, Json, Junit, Markdown, ReportFormat, write_atomic};
use anyhow::Result;
use std::io::Read;
use std::path::Path;

/// The sandbox for untrusted programs, with `hidden` (packages, tests)
/// out of every run's sight. Where the machine cannot give every
/// protection, an error that names what is missing, unless `--trusted`
/// (then a one-line note on stderr).
pub fn untrusted_sandbox(
    args: &crate::cli::SandboxArgs,
    hidden: &[&Path],
) -> Result<crate::judge::sandbox::Sandbox> {
    let sandbox = crate::judge::sandbox::Sandbox::detect_with(crate::judge::sandbox::SandboxOptions {
        hidden: hidden.iter().map(|p| p.to_path_buf()).collect(),
        ..Default::default()
    });
    let missing = sandbox.protection_details().missing();
    if !missing.is_empty() {
        let list = missing.join("; ");
        if !args.trusted {
            return Err(Said::new("error-sandbox-refused").arg("list", list).into());
        }
        let note = Said::new("error-note-trusted").arg("list", list);
        eprintln!("{}", note.in_words(Locale::from_env().unwrap_or_default()));
    }
    Ok(sandbox)
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .said(|| Said::new("error-reading-stdin"))?;
        Ok(buf)
    } else {
        std::fs::read(path).said(|| Said::new("error-reading").arg("path", path.display()))
    }
}

/// The language of a submission: `--lang` when given, else detected from
/// the file's extension; an error naming the known languages otherwise.
pub fn pick_language<'a>(
    languages: &'a crate::package::languages::LanguageTable,
    forced: Option<&str>,
    source: &Path,
) -> Result<&'a crate::package::languages::Language> {
    let known = || languages.names().join(", ");
    match forced {
        Some(name) => languages.get(name).ok_or_else(|| {
            Said::new("error-unknown-language")
                .arg("name", name)
                .arg("known", known())
                .into()
        }),
        None => languages.detect(source).ok_or_else(|| {
            Said::new("error-undetected-language")
                .arg("path", source.display())
                .arg("known", known())
                .into()
        }),
    }
}

/// Writes each report file asked for, in its format.
pub fn write_reports(args: &ReportArgs, render: impl Fn(&dyn ReportFormat) -> String) -> Result<()> {
    let formats: [(&Option<std::path::PathBuf>, &dyn ReportFormat); 4] = [
        (&args.json, &Json),
        (&args.junit, &Junit),
        (&args.markdown, &Markdown),
        (&args.html, &Html),
    ];
    for (path, exporter) in formats {
        if let Some(path) = path {
            write_atomic(path, render(exporter).as_bytes())
                .said(|| Said::new("error-writing").arg("path", path.display()))?;
        }
    }
    Ok(())
}

/// An error worded by the catalogues ([`Said`]), its cause kept next in
/// the chain: what `anyhow`'s `context` does, but a link `main` can word
/// in the user's language.
pub trait Saying<T> {
    /// The error, if any, as the cause of `what()`.
    fn said(self, what: impl FnOnce() -> Said) -> Result<T>;
}

impl<T, E: Into<Box<dyn std::error::Error + Send + Sync>>> Saying<T> for std::result::Result<T, E> {
    fn said(self, what: impl FnOnce() -> Said) -> Result<T> {
        self.map_err(|e| what().because(e).into())
    }
}

/// The language of a command's error: its `--locale` where it has one,
/// else the environment's (LC_ALL / LC_MESSAGES / LANG), else English.
pub fn error_locale(command: &crate::cli::Command) -> Locale {
    let given = match command {
        crate::cli::Command::Grade(args) => args.locale,
        _ => None,
    };
    given.or_else(Locale::from_env).unwrap_or_default()
}

/// The error that ended a command, in `l`: each link of its chain worded
/// ([`Said`] from the catalogues, an I/O error by its kind, a contest
/// folder's error by its case; any other error in its own words), the
/// outermost first, as `mayan-judge: error: ...`.
pub fn error_in_words(err: &anyhow::Error, l: Locale) -> String {
    let words: Vec<String> = err.chain().filter_map(|e| link_in_words(e, l)).collect();
    let joined = words
        .into_iter()
        .rev()
        .reduce(|cause, error| {
            l.text(
                "error-cause",
                &[("error", error.as_str().into()), ("cause", cause.as_str().into())],
            )
        })
        .unwrap_or_default();
    l.text("error-line", &[("error", joined.as_str().into())])
}

/// One link of an error's chain in `l`; `None` for a link the one above it
/// already words in full.
fn link_in_words(e: &(dyn std::error::Error + 'static), l: Locale) -> Option<String> {
    use crate::workflows::contest::ContestError;
    if let Some(said) = e.downcast_ref::<Said>() {
        return Some(said.in_words(l));
    }
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        return Some(l.io_error(io));
    }
    if let Some(crate::package::PackageError::Io { path, cause }) = e.downcast_ref() {
        return Some(path_and_cause(path, &l.io_error(cause), l));
    }
    if let Some(crate::server::contest::ContestConfigError::Io { path, cause }) = e.downcast_ref() {
        return Some(path_and_cause(path, &l.io_error(cause), l));
    }
    if !l.is_english() {
        // English keeps the errors' own words, byte for byte.
        if let Some(p) = e.downcast_ref::<crate::package::PackageError>() {
            return Some(package_in_words(p, l));
        }
    }
    if let Some(c) = e.downcast_ref::<crate::server::contest::ContestConfigError>() {
        return Some(contest_config_in_words(c, l));
    }
    match e.downcast_ref::<ContestError>() {
        Some(ContestError::Read { path, .. }) => Some(path.display().to_string()),
        Some(ContestError::Empty(path)) => Some(
            Said::new("error-no-contestant-folders")
                .arg("path", path.display())
                .in_words(l),
        ),
        _ => Some(e.to_string()),
    }
}

/// A package's error in `l` (a problem.toml value's own complaint, and
/// toml's reason, as they are said).
fn package_in_words(e: &crate::package::PackageError, l: Locale) -> String {
    use crate::package::{PackageError as P, TestsIssue as T};
    let said = match e {
        P::Io { path, cause } => return path_and_cause(path, &l.io_error(cause), l),
        P::Toml {
            path, line, reason, ..
        } => {
            let what = Said::new("error-toml").arg("reason", reason).in_words(l);
            return at_line(path, *line, &what, l);
        }
        P::Invalid { path, message } => {
            let what = Said::new("error-package-invalid")
                .arg("message", message)
                .in_words(l);
            return at_line(path, None, &what, l);
        }
        P::NoProblemFile { path } => Said::new("error-package-no-problem-file").arg("path", path.display()),
        P::NoTests { path } => Said::new("error-package-no-tests").arg("path", path.display()),
        P::Unpaired { path, issue } => {
            let said = match issue {
                T::NoFolder => Said::new("error-tests-no-folder"),
                T::NoTests => Said::new("error-tests-none"),
                T::Unreadable(why) => Said::new("error-tests-unreadable").arg("why", why),
                T::NoAnswer(ans) => Said::new("error-tests-no-answer")
                    .arg("ans", ans.display())
                    .arg("out", ans.with_extension("out").display()),
                T::TwoAnswers(a, b) => Said::new("error-tests-two-answers")
                    .arg("ans", a.display())
                    .arg("out", b.display()),
                T::NoInput => Said::new("error-tests-no-input"),
            };
            return path_and_cause(path, &said.in_words(l), l);
        }
    };
    said.in_words(l)
}

/// A contest configuration's error in `l`: the file and line in `l`'s
/// words, then what is wrong (a value's complaint or toml's, as said).
fn contest_config_in_words(e: &crate::server::contest::ContestConfigError, l: Locale) -> String {
    use crate::server::contest::ContestConfigError as C;
    match e {
        other if l.is_english() => other.in_words(l),
        C::Toml { at, message } | C::Csv { at, message } => at_line(&at.path, at.line, message, l),
        C::Package(p) => package_in_words(p, l),
        other => other.in_words(l),
    }
}

/// `what`, at line `line` of `path` (or in `path`), in `l`'s words.
fn at_line(path: &Path, line: Option<usize>, what: &str, l: Locale) -> String {
    let file = path.display().to_string();
    match line {
        Some(line) => l.text(
            "error-at-line",
            &[
                ("file", file.into()),
                ("line", line.into()),
                ("what", what.into()),
            ],
        ),
        None => path_and_cause(path, what, l),
    }
}

/// `path: cause`, in `l`'s punctuation.
fn path_and_cause(path: &Path, cause: &str, l: Locale) -> String {
    let path = path.display().to_string();
    l.text(
        "error-cause",
        &[("error", path.as_str().into()), ("cause", cause.into())],
    )
}
