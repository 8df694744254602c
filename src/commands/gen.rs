//! `mayan-judge gen`: new tests from a seed, written as `PREFIXk.in` and
//! `PREFIXk.ans` (the solver's answer under the literal rules).

use crate::cli::GenArgs;
use crate::puzzle::generate::{self, Generated, Generator, Spec};
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::Path;

/// Progress on stderr: a bar on a terminal, plain lines elsewhere, nothing
/// with `--quiet`.
enum Progress {
    Bar(ProgressBar),
    Lines,
    Quiet,
}

impl Progress {
    fn new(quiet: bool, total: usize) -> Progress {
        if quiet {
            Progress::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} tests  {msg}").expect("valid template"),
            );
            Progress::Bar(bar)
        } else {
            Progress::Lines
        }
    }

    fn wrote(&self, path: &Path, test: &Generated) {
        let answer = match &test.answer.moves {
            Some(moves) => format!("{} moves", moves.len()),
            None => "-1".to_string(),
        };
        let line = format!(
            "wrote {} (n={}, {} blocks, answer: {answer})",
            path.display(),
            test.puzzle.n,
            test.puzzle.board.block_count()
        );
        match self {
            Progress::Bar(bar) => {
                bar.inc(1);
                bar.set_message(line);
            }
            Progress::Lines => eprintln!("{line}"),
            Progress::Quiet => {}
        }
    }

    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }

    /// A closing line on a terminal, where the bar leaves nothing behind.
    fn summary(&self, count: usize, dir: &Path) {
        if let Progress::Bar(_) = self {
            eprintln!("wrote {count} tests to {}", dir.display());
        }
    }
}

/// Writes a file; without `force`, never over an existing one.
fn write_file(path: &Path, text: &str, force: bool) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}

/// The files of `dir` that a run would write (`PREFIXk.in` or `.ans` with
/// 1 <= k <= count), sorted; none when the folder does not exist. Reads the
/// folder once rather than probing `2 * count` names.
fn existing_outputs(dir: &Path, prefix: &str, count: usize) -> Result<Vec<String>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(prefix) else {
            continue;
        };
        let Some(digits) = rest.strip_suffix(".in").or_else(|| rest.strip_suffix(".ans")) else {
            continue;
        };
        // Only the names a run writes: `3`, not `03`.
        if digits
            .parse::<usize>()
            .is_ok_and(|k| (1..=count).contains(&k) && digits == k.to_string())
        {
            found.push(name);
        }
    }
    found.sort_by(|a, b| natord::compare(a, b));
    Ok(found)
}

/// Runs `gen`; returns the exit code (0; errors exit with 2).
pub fn run(args: &GenArgs) -> Result<i32> {
    let spec = Spec {
        moves: args.n.0,
        blocks: args.blocks.map(|b| b.0),
        colours: args.colours,
        per_colour: args.per_colour.map(|p| p.0),
        impossible: args.impossible,
        bottom: args.bottom,
        allow_sensitive: args.allow_sensitive,
        max_n: generate::MAX_N,
    };
    let mut generator = Generator::new(args.seed, spec)?;
    let prefix = args
        .prefix
        .clone()
        .unwrap_or_else(|| format!("gen-{}-", args.seed));
    if prefix.contains(['/', '\\']) {
        bail!("--prefix `{prefix}` must be a file name, not a path (use --out for the folder)");
    }
    if args.out.exists() && !args.out.is_dir() {
        bail!("--out {} is not a folder", args.out.display());
    }
    let path = |k: usize, ext: &str| args.out.join(format!("{prefix}{k}.{ext}"));
    if !args.force {
        let existing = existing_outputs(&args.out, &prefix, args.count)?;
        if let Some(first) = existing.first() {
            bail!(
                "{} already exists ({} of the {} files to write do); nothing written: use --force to overwrite",
                args.out.join(first).display(),
                existing.len(),
                2 * args.count
            );
        }
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let progress = Progress::new(args.quiet, args.count);
    for k in 1..=args.count {
        let test = generator.next_test().with_context(|| {
            let written = if k == 1 {
                String::new()
            } else {
                format!("; tests 1..{} were written", k - 1)
            };
            format!("test {k} of {}{written}", args.count)
        });
        let test = match test {
            Ok(t) => t,
            Err(e) => {
                progress.finish();
                return Err(e);
            }
        };
        let (input, answer) = (path(k, "in"), path(k, "ans"));
        write_file(&input, &test.puzzle.to_text(), args.force)?;
        write_file(&answer, &test.answer_text(), args.force)?;
        progress.wrote(&input, &test);
    }
    progress.finish();
    progress.summary(args.count, &args.out);
    Ok(0)
}
