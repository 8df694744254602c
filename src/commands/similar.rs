//! `similar`: which programs of a class were copied. Finds the programs (the
//! files and folders given, or a contest folder's contestants), reads them
//! with `similarity::load` (a file it refuses is named on stderr, the rest
//! compared), runs `similarity::analyse`, prints the top pairs and writes
//! the reports asked for.

use super::progress::Progress;
use crate::cli::SimilarArgs;
use crate::package::languages::LanguageTable;
use crate::report::write_atomic;
use crate::similarity::{self, Lang, NotCompared, Source, load};
use crate::workflows::contest::Contest;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// Writes an analysis in one format (the second argument: pairs shown).
type Render = fn(&similarity::Analysis, usize) -> String;

/// A program to read: whose, and where (or why there is none).
struct Entry {
    name: String,
    path: Result<PathBuf, String>,
}

/// Runs `similar`; returns 0 (nothing flagged), 1 (some pair flagged).
pub fn run(args: &SimilarArgs) -> Result<i32> {
    let forced = match &args.language {
        Some(name) => Some(
            Lang::from_name(name)
                .with_context(|| format!("--language {name}: unknown (known: c, cpp, python, rust)"))?,
        ),
        None => None,
    };
    if let Some(t) = args.threshold
        && !(0.0..=1.0).contains(&t)
    {
        bail!("--threshold {t}: a similarity is between 0 and 1");
    }
    if args.spreads.is_nan() || args.spreads <= 0.0 {
        bail!("--spreads {}: a number of spreads above 0", args.spreads);
    }
    let entries = match &args.contest {
        Some(dir) => contest_entries(dir, &args.stem)?,
        None => file_entries(&args.sources),
    };
    let threads = args.jobs.unwrap_or(0);
    let (mut sources, mut not_compared) = read_all(entries, forced, false, threads);
    let (references, refused) = read_all(file_entries(&args.reference), forced, true, threads);
    sources.extend(references);
    not_compared.extend(refused);
    let (templates, _) = read_all(file_entries(&args.template), forced, false, threads);
    if sources.len() < 2 {
        bail!(
            "{} program(s) could be read: at least two are needed to compare",
            sources.len()
        );
    }
    let options = similarity::Options {
        common_share: args.common_share,
        threshold: args.threshold,
        spreads: args.spreads,
        threads,
        ..Default::default()
    };
    let progress = Progress::new(args.quiet, 0, "pairs");
    progress.phase(&format!("comparing {} programs", sources.len()));
    let on_progress = |done: usize, total: usize| {
        if let Progress::Bar(bar) = &progress {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let mut analysis = similarity::analyse(&sources, &templates, &options, &on_progress);
    analysis.not_compared = not_compared;
    progress.finish();
    print!("{}", similarity::render::text(&analysis, args.top));
    let reports: [(&Option<PathBuf>, Render); 3] = [
        (&args.json, |a, _| similarity::render::json(a)),
        (&args.csv, |a, _| similarity::render::csv(a)),
        (&args.html, similarity::render::html),
    ];
    for (path, render) in reports {
        if let Some(path) = path {
            write_atomic(path, render(&analysis, args.top).as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    let flagged = analysis.pairs.iter().any(|p| p.similarity >= analysis.threshold);
    Ok(i32::from(flagged))
}

/// The contestants of a contest folder, as `grade --contest` finds them.
fn contest_entries(dir: &Path, stem: &str) -> Result<Vec<Entry>> {
    let contest = Contest::find(dir, stem, &LanguageTable::builtin())
        .with_context(|| format!("reading the contest folder {}", dir.display()))?;
    Ok(contest
        .contestants
        .into_iter()
        .map(|c| Entry {
            name: c.name,
            path: c.program.map_err(|e| e.to_string()),
        })
        .collect())
}

/// Files as given; folders expanded into the sources they hold (an empty one
/// is named, as a program that could not be read).
fn file_entries(paths: &[PathBuf]) -> Vec<Entry> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(Entry {
                name: p.display().to_string(),
                path: Ok(p.clone()),
            });
            continue;
        }
        let mut found: Vec<PathBuf> = walkdir::WalkDir::new(p)
            .follow_links(false)
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file() && load::is_source(e.path()))
            .map(|e| e.into_path())
            .collect();
        found.sort_by(|a, b| natord::compare(&a.to_string_lossy(), &b.to_string_lossy()));
        if found.is_empty() {
            out.push(Entry {
                name: p.display().to_string(),
                path: Err("the folder holds no source file (.c .cpp .cc .py .rs)".to_string()),
            });
        }
        out.extend(found.into_iter().map(|f| Entry {
            name: f.display().to_string(),
            path: Ok(f),
        }));
    }
    out
}

/// Reads and parses every entry on `threads` threads; each one refused is
/// named on stderr with why, in the entries' order, and returned beside
/// those read.
fn read_all(
    entries: Vec<Entry>,
    forced: Option<Lang>,
    reference: bool,
    threads: usize,
) -> (Vec<Source>, Vec<NotCompared>) {
    let read = similarity::par_map(&entries, threads, |e| match &e.path {
        Ok(path) => {
            load::load(path, &e.name, forced, reference).map_err(|err| (err.to_string(), err.too_deep_at()))
        }
        Err(why) => Err((format!("{}: {why}", e.name), None)),
    });
    let (mut out, mut refused) = (Vec::new(), Vec::new());
    for (read, e) in read.into_iter().zip(&entries) {
        match read {
            Ok(s) => out.push(s),
            Err((why, too_deep_at)) => {
                eprintln!("skipped: {}", crate::safe::terminal_safe(&why));
                refused.push(NotCompared {
                    name: e.name.clone(),
                    why,
                    too_deep_at,
                });
            }
        }
    }
    (out, refused)
}
