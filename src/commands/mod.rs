//! One module per subcommand: each turns parsed arguments into work on the
//! domain modules and returns the process exit code.

pub mod bench;
pub mod check;
pub mod ci;
pub mod doctor;
pub mod export;
pub mod r#gen;
pub mod grade;
pub mod progress;
pub mod serve;
pub mod show;
pub mod similar;
pub mod solve;
pub mod stress;
pub mod validate;

use crate::cli::ReportArgs;
use crate::report::{Html, Json, Junit, Markdown, ReportFormat, write_atomic};
use anyhow::{Context, Result};
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
            anyhow::bail!(
                "this machine cannot isolate untrusted programs; missing: {list}. \
                 `mayan-judge doctor` checks every protection and names the command that gives it; \
                 pass --trusted to run programs you wrote yourself"
            );
        }
        eprintln!("note: --trusted: running without {list}");
    }
    Ok(sandbox)
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("reading standard input")?;
        Ok(buf)
    } else {
        std::fs::read(path).with_context(|| format!("reading {}", path.display()))
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
        Some(name) => languages
            .get(name)
            .with_context(|| format!("--lang {name}: unknown language (known: {})", known())),
        None => languages.detect(source).with_context(|| {
            format!(
                "{}: cannot tell the language from the extension; use --lang ({})",
                source.display(),
                known()
            )
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
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(())
}
