//! `mayan-judge gen`: new tests from a seed, written as `PREFIXk.in` and
//! `PREFIXk.ans` (the solver's answer under the literal rules).

use crate::cli::GenArgs;
use crate::generate::{Generated, Generator, Spec};
use crate::package::InputLimits;
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

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
                bar.set_message(line);
                bar.inc(1);
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

/// Runs `gen`; returns the exit code (0; errors exit with 2).
pub fn run(args: &GenArgs) -> Result<i32> {
    let spec = Spec {
        moves: args.n.0,
        blocks: args.blocks.map(|b| b.0),
        colours: args.colours,
        impossible: args.impossible,
        bottom: args.bottom,
        allow_sensitive: args.allow_sensitive,
        max_n: InputLimits::default().max_n,
    };
    let mut generator = Generator::new(args.seed, spec)?;
    let prefix = args
        .prefix
        .clone()
        .unwrap_or_else(|| format!("gen-{}-", args.seed));
    if prefix.contains(['/', '\\']) {
        bail!("--prefix `{prefix}` must be a file name, not a path (use --out for the folder)");
    }
    let files: Vec<(PathBuf, PathBuf)> = (1..=args.count)
        .map(|k| {
            (
                args.out.join(format!("{prefix}{k}.in")),
                args.out.join(format!("{prefix}{k}.ans")),
            )
        })
        .collect();
    if !args.force {
        let existing: Vec<&PathBuf> = files
            .iter()
            .flat_map(|(i, a)| [i, a])
            .filter(|p| p.exists())
            .collect();
        if let Some(first) = existing.first() {
            bail!(
                "{} already exists ({} of the {} files to write do); nothing written: use --force to overwrite",
                first.display(),
                existing.len(),
                2 * files.len()
            );
        }
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let progress = Progress::new(args.quiet, files.len());
    for (k, (input, answer)) in files.iter().enumerate() {
        let test = generator.next_test().with_context(|| {
            let written = if k == 0 {
                String::new()
            } else {
                format!("; tests 1..{k} were written")
            };
            format!("test {} of {}{written}", k + 1, files.len())
        });
        let test = match test {
            Ok(t) => t,
            Err(e) => {
                progress.finish();
                return Err(e);
            }
        };
        write_file(input, &test.puzzle.to_text(), args.force)?;
        write_file(answer, &test.answer_text(), args.force)?;
        progress.wrote(input, &test);
    }
    progress.finish();
    Ok(0)
}
