//! `bench --only similar`: the copy detector on the labelled corpus
//! (`similarity::corpus`), scored beside Dolos and copydetect in the same
//! run, and its speed on a class of 300 programs (44,850 pairs) on two
//! threads with its peak memory.
//!
//! The peers are installed by `.ci/similar-peers` under `target/similar-peers/`
//! (`node_modules/@dodona/dolos-lib`, and a venv with copydetect); each runs
//! on the files of one language at a time (neither compares languages), with
//! its command line's defaults, driven by the scripts in `peers/`. A peer
//! that is not installed is named and left out of the table.

use crate::similarity::corpus::{self, Item, Scores};
use crate::similarity::{self, Lang, Options, Source, analyse};
use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const DOLOS_SCRIPT: &str = include_str!("peers/dolos.mjs");
const COPYDETECT_SCRIPT: &str = include_str!("peers/copydetect_pairs.py");

/// Where `.ci/similar-peers` installs the peers.
pub const PEERS_DIR: &str = "target/similar-peers";

/// Runs the benchmark from the repository at `root`.
pub fn run(root: &Path) -> Result<()> {
    let all = corpus::build(root, 2, 2011).context("building the labelled corpus")?;
    let items = corpus::part(&all, corpus::Part::HeldOut);
    let dir = tempfile::tempdir().context("a temporary folder for the corpus")?;
    let paths = write_corpus(dir.path(), &items)?;
    let index: HashMap<PathBuf, usize> = paths.iter().enumerate().map(|(i, p)| (p.clone(), i)).collect();
    println!(
        "similar: the labelled corpus's held-out part (not tuned on), {} programs ({} pairs) compared as one class; \
         peers under {PEERS_DIR}",
        items.len(),
        items.len() * (items.len() - 1) / 2
    );
    let mut rows = vec![("mayan-judge".to_string(), ours(&items))];
    let peers = root.join(PEERS_DIR);
    let node_modules = peers.join("node_modules");
    let dolos = |lang: &str, files: &[&PathBuf]| -> Result<String> {
        let script = dir.path().join("dolos.mjs");
        std::fs::write(&script, DOLOS_SCRIPT)?;
        output(
            Command::new("node")
                .arg(&script)
                .arg(&node_modules)
                .arg(lang)
                .args(files),
        )
    };
    if node_modules.join("@dodona/dolos-lib").is_dir() {
        match peer(&items, &paths, &index, &dolos, Cutoff::Guessed(dolos_cutoff)) {
            Ok(s) => rows.push(("Dolos 3.5.1 (its cut-off)".into(), s)),
            Err(e) => println!("  Dolos: could not run: {e:#}"),
        }
    } else {
        println!(
            "  Dolos: not installed (run .ci/similar-peers, or npm install @dodona/dolos-lib@3.5.1 in {PEERS_DIR})"
        );
    }
    let python = peers.join("venv/bin/python");
    let copydetect = |lang: &str, files: &[&PathBuf]| -> Result<String> {
        let script = dir.path().join("copydetect_pairs.py");
        std::fs::write(&script, COPYDETECT_SCRIPT)?;
        let folder = files[0].parent().context("a corpus file has a folder")?;
        output(
            Command::new(&python)
                .arg(&script)
                .arg(extension(lang))
                .arg(folder),
        )
    };
    if python.is_file() {
        match peer(
            &items,
            &paths,
            &index,
            &copydetect,
            Cutoff::Fixed(COPYDETECT_DEFAULT),
        ) {
            Ok(s) => rows.push(("copydetect (defaults)".into(), s)),
            Err(e) => println!("  copydetect: could not run: {e:#}"),
        }
    } else {
        println!(
            "  copydetect: not installed (run .ci/similar-peers, or pip install copydetect into {PEERS_DIR}/venv)"
        );
    }
    print_table(&rows);
    speed(&all)?;
    hostile(&all)
}

/// The most seconds a class of 300 programs may take to read, parse and
/// compare on 2 threads (release build; issue 60).
const CLASS_TARGET_SECS: f64 = 2.0;

/// copydetect's default display threshold (`-t`, 0.33): the pairs it reports.
const COPYDETECT_DEFAULT: f64 = 0.33;

/// Where a peer, as a user gets it, flags a pair.
#[derive(Clone, Copy)]
enum Cutoff {
    /// A fixed threshold.
    Fixed(f64),
    /// A threshold the peer chooses from each run's similarities.
    Guessed(fn(&[f64]) -> f64),
}

/// The cut-off Dolos's report starts at (its web view's
/// `guessSimilarityThreshold`, here in Rust): the similarities counted in
/// overlapping bins 0.06 wide every 0.03, each local minimum of the counts
/// weighed by `(sqrt(count) + 1) * (a (s - 0.8)^2 + 0.1)` (low near 0.8, a
/// such that the weight is 1 at s = 0), the lightest one's middle, and at
/// least the mean similarity.
fn dolos_cutoff(sims: &[f64]) -> f64 {
    const STEP: f64 = 0.03;
    if sims.is_empty() {
        return 1.0;
    }
    let mean = sims.iter().sum::<f64>() / sims.len() as f64;
    let top = sims.iter().copied().fold(0.0, f64::max);
    let bins = (top / STEP) as usize + 1;
    let counts: Vec<usize> = (0..bins)
        .map(|k| {
            let (lo, hi) = ((k as f64 - 1.0) * STEP, (k as f64 + 1.0) * STEP);
            sims.iter().filter(|&&s| s >= lo && s < hi).count()
        })
        .collect();
    let weight = |k: usize| {
        let a = 0.9 / (1.0 / 3.0 - 0.8 + 0.64);
        let s = k as f64 * STEP;
        ((counts[k] as f64).sqrt() + 1.0) * ((a * (s - 0.8).powi(2) + 0.1) * 1000.0).round() / 1000.0
    };
    let lightest = local_minima(&counts)
        .into_iter()
        .reduce(|best, k| if weight(best) < weight(k) { best } else { k });
    lightest.map_or(mean, |k| mean.max(k as f64 * STEP + STEP / 2.0))
}

/// The indices where `counts` stops falling and starts rising.
fn local_minima(counts: &[usize]) -> Vec<usize> {
    let mut minima = Vec::new();
    let Some(mut rising) = counts.get(1).map(|&c| counts[0] < c) else {
        return minima;
    };
    for (k, w) in counts.windows(2).enumerate() {
        let up = w[0] < w[1];
        if up != rising {
            if up {
                minima.push(k);
            }
            rising = up;
        }
    }
    minima
}

fn ours(items: &[Item]) -> Scores {
    let (scores, analysis) = corpus::evaluate(items, &Options::default());
    println!(
        "  mayan-judge at its defaults: {}",
        similarity::render::baseline_line(&analysis)
    );
    let sims: HashMap<(usize, usize), f64> = analysis
        .pairs
        .iter()
        .map(|p| ((p.a, p.b), p.similarity))
        .collect();
    let sim = |i: usize, j: usize| sims.get(&(i, j)).copied().unwrap_or(0.0);
    explain(items, &sim, analysis.threshold);
    scores
}

/// The cases closest to the line, for a person reading the figures: the
/// most similar independent pairs and the least similar heavy copies.
fn explain(items: &[Item], sim: &dyn Fn(usize, usize) -> f64, t: f64) {
    let mut neg = Vec::new();
    let mut heavy = Vec::new();
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            let (a, b) = (&items[i], &items[j]);
            if a.lang != b.lang {
                continue;
            }
            let levels = [a.level, b.level];
            if a.family != b.family {
                neg.push((sim(i, j), i, j));
            } else if levels.contains(&corpus::Level::Original) && levels.contains(&corpus::Level::Heavy) {
                heavy.push((sim(i, j), i, j));
            }
        }
    }
    neg.sort_by(|x, y| y.0.total_cmp(&x.0));
    heavy.sort_by(|x, y| x.0.total_cmp(&y.0));
    let share = |v: &[(f64, usize, usize)]| {
        100.0 * v.iter().filter(|p| p.0 >= t).count() as f64 / v.len().max(1) as f64
    };
    println!(
        "  mayan-judge at its threshold for this class {t:.3}: {:.2}% of the independent same-language pairs \
         flagged (target <= 1%: {}), {:.0}% of the heavy copies (target >= 95%)",
        share(&neg),
        verdict(share(&neg) <= 1.0),
        share(&heavy)
    );
    let show = |label: &str, v: &[(f64, usize, usize)]| {
        let list: Vec<String> = v
            .iter()
            .take(4)
            .map(|&(s, i, j)| format!("{} ~ {} {s:.3}", items[i].name, items[j].name))
            .collect();
        println!("  mayan-judge, {label}: {}", list.join("; "));
    };
    show("closest independent pairs", &neg);
    show("weakest heavy copies", &heavy);
}

/// Each language's files in a folder of its own (the peers read one language at a time).
fn write_corpus(dir: &Path, items: &[Item]) -> Result<Vec<PathBuf>> {
    items
        .iter()
        .map(|it| {
            let folder = dir.join(it.lang.name());
            std::fs::create_dir_all(&folder)?;
            let path = folder.join(&it.name);
            std::fs::write(&path, &it.text)?;
            Ok(path.canonicalize()?)
        })
        .collect()
}

fn extension(lang: &str) -> &'static str {
    match lang {
        "c" => "c",
        "cpp" => "cpp",
        "python" => "py",
        _ => "rs",
    }
}

/// A peer's scores: run per language, its pairs read back (other pairs 0).
fn peer(
    items: &[Item],
    paths: &[PathBuf],
    index: &HashMap<PathBuf, usize>,
    run: &dyn Fn(&str, &[&PathBuf]) -> Result<String>,
    cutoff: Cutoff,
) -> Result<Scores> {
    let mut sims: HashMap<(usize, usize), f64> = HashMap::new();
    let mut thresholds: HashMap<Lang, f64> = HashMap::new();
    for lang in ["c", "cpp", "python", "rust"] {
        let files: Vec<&PathBuf> = items
            .iter()
            .zip(paths)
            .filter(|(it, _)| it.lang.name() == lang)
            .map(|(_, p)| p)
            .collect();
        if files.len() < 2 {
            continue;
        }
        let out = run(lang, &files)?;
        let mut these = Vec::new();
        for line in out.lines() {
            let mut parts = line.split('\t');
            let (Some(s), Some(a), Some(b)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            let find = |p: &str| {
                let p = PathBuf::from(p);
                index.get(&p.canonicalize().unwrap_or(p)).copied()
            };
            if let (Ok(s), Some(a), Some(b)) = (s.parse::<f64>(), find(a), find(b)) {
                sims.insert((a.min(b), a.max(b)), s);
                these.push((items[a].lang, s));
            }
        }
        if let (Cutoff::Guessed(guess), Some(&(l, _))) = (cutoff, these.first()) {
            thresholds.insert(l, guess(&these.iter().map(|&(_, s)| s).collect::<Vec<_>>()));
        }
    }
    let sim = |i: usize, j: usize| sims.get(&(i, j)).copied().unwrap_or(0.0);
    let flagged = |i: usize, j: usize| match cutoff {
        Cutoff::Fixed(t) => sim(i, j) >= t,
        Cutoff::Guessed(_) => thresholds.get(&items[i].lang).is_some_and(|&t| sim(i, j) >= t),
    };
    Ok(corpus::score(items, &sim, Some(&flagged)))
}

fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd.output().with_context(|| format!("running {cmd:?}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last: Vec<&str> = err.lines().filter(|l| l.contains("Error")).take(2).collect();
        bail!(
            "{} failed ({}): {}",
            cmd.get_program().to_string_lossy(),
            out.status,
            last.join(" / ")
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn print_table(rows: &[(String, Scores)]) {
    println!(
        "  {:<26} {:>9} {:>8} {:>12} {:>12} {:>13} | {:>28}",
        "detector",
        "same-lang",
        "best F1",
        "heavy at 5%",
        "heavy at 1%",
        "translations",
        "at its defaults: flagged"
    );
    println!(
        "  {:<26} {:>9} {:>8} {:>12} {:>12} {:>13} | {:>8} {:>10} {:>8}",
        "", "ROC AUC", "", "FP found", "FP found", "at 1% FP", "heavy", "independ.", "transl."
    );
    let pct = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.1}%", x * 100.0));
    for (name, s) in rows {
        println!(
            "  {:<26} {:>9.3} {:>8.2} {:>11.0}% {:>11.0}% {:>12.0}% | {:>8} {:>10} {:>8}",
            name,
            s.auc,
            s.best_f1,
            s.heavy_at_5 * 100.0,
            s.heavy_at_1 * 100.0,
            s.translations_at_1 * 100.0,
            pct(s.heavy_flagged),
            pct(s.independent_flagged),
            pct(s.translations_flagged)
        );
    }
    let ours = &rows[0].1;
    let above = rows[1..].iter().all(|(_, s)| ours.auc > s.auc);
    let at = |x: Option<f64>, ok: &dyn Fn(f64) -> bool| verdict(x.is_some_and(ok));
    println!(
        "  target: AUC >= 0.995 ({}) and above both peers ({}); heavy at 1% FP >= 95% ({}); at the defaults \
         heavy >= 95% ({}), independent <= 1% ({})",
        verdict(ours.auc >= 0.995),
        verdict(above && rows.len() == 3),
        verdict(ours.heavy_at_1 >= 0.95),
        at(ours.heavy_flagged, &|x| x >= 0.95),
        at(ours.independent_flagged, &|x| x <= 0.01)
    );
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}

/// A class of 300 programs (corpus copies, with more disguised copies to make
/// up the number) read from text and compared on two threads: wall and CPU
/// time (the machine may be shared), and peak memory.
fn speed(items: &[Item]) -> Result<()> {
    let mut rng = fastrand::Rng::with_seed(300);
    let texts: Vec<(String, &Item, String)> = (0..300)
        .map(|k| {
            let it = &items[k % items.len()];
            let (_, text) = corpus::disguise(&it.text, it.lang, corpus::Level::Heavy, &mut rng);
            (format!("p{k}"), it, text)
        })
        .collect();
    let rss_before = peak_rss_mib();
    let (cpu_before, start) = (cpu_seconds(), Instant::now());
    let class: Vec<Source> = similarity::par_map(&texts, 2, |(name, it, text)| {
        Source::parse(name, &it.name, it.lang, text.clone(), false)
    })
    .into_iter()
    .collect::<Result<_, _>>()
    .context("a disguised copy does not parse")?;
    let options = Options {
        threads: 2,
        ..Options::default()
    };
    let analysis = analyse(&class, &[], &options, &|_, _| {});
    let (secs, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu_before);
    let rss = peak_rss_mib();
    println!(
        "  speed: {} programs, {} pairs ({} measured exactly) read, parsed and compared in {secs:.2} s \
         ({cpu:.2} s of CPU) on 2 threads (target < {CLASS_TARGET_SECS} s: {}); peak memory {rss:.0} MiB, {:.0} MiB before \
         (target < 500 MiB: {})",
        class.len(),
        analysis.compared,
        analysis.measured,
        verdict(secs < CLASS_TARGET_SECS),
        rss_before,
        verdict(rss < 500.0)
    );
    Ok(())
}

/// 1 MiB (less a little) of `unit` between `head` and `tail`.
fn mebibyte(head: &str, unit: &str, tail: &str) -> String {
    let n = ((1 << 20) - head.len() - tail.len() - 64) / unit.len();
    format!("{head}{}{tail}", unit.repeat(n))
}

/// Hostile sources of 1 MiB each (one long expression, deep nesting, many
/// statements, one line), each read, parsed and compared with a program of
/// the corpus: seconds each (too deep ones are refused, not compared).
fn hostile(items: &[Item]) -> Result<()> {
    let shapes = [
        (
            "expression",
            Lang::C,
            mebibyte("int main() { int a = 1; return ", "a+", "a; }\n"),
        ),
        ("expression", Lang::Python, mebibyte("a = 1\nb = ", "a+", "a\n")),
        (
            "expression",
            Lang::Rust,
            mebibyte("fn main() { let a = 1; let b = ", "a+", "a; }\n"),
        ),
        (
            "nesting",
            Lang::C,
            mebibyte("int main(int x) {\n", "if (x)\n", "return 1; return 0; }\n"),
        ),
        (
            "statements",
            Lang::C,
            mebibyte("int main() { int a = 0;\n", "a = a + 1;\n", "return a; }\n"),
        ),
        (
            "statements",
            Lang::Python,
            mebibyte("a = 0\n", "a = a + 1\n", "print(a)\n"),
        ),
        (
            "one line",
            Lang::C,
            mebibyte("int main() { int a = 0;", "a=a+1;", "return a; }"),
        ),
    ];
    let honest = items.first().context("an empty corpus")?;
    let honest = Source::parse("honest", &honest.name, honest.lang, honest.text.clone(), false)
        .context("a corpus program does not parse")?;
    for (shape, lang, text) in shapes {
        let start = Instant::now();
        let parsed = Source::parse("hostile", shape, lang, text, false);
        let outcome = match parsed {
            Ok(source) => {
                let class = [honest.clone(), source];
                analyse(&class, &[], &Options::default(), &|_, _| {});
                "compared".to_string()
            }
            Err(e) => format!("refused ({e})"),
        };
        let secs = start.elapsed().as_secs_f64();
        println!(
            "  1 MiB of {shape} ({}): {outcome} in {secs:.2} s (target < 2 s: {})",
            lang.name(),
            verdict(secs < 2.0)
        );
    }
    Ok(())
}

/// CPU time (user and system) this process has used, in seconds.
fn cpu_seconds() -> f64 {
    nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF).map_or(0.0, |u| {
        let t = |v: nix::sys::time::TimeVal| v.tv_sec() as f64 + v.tv_usec() as f64 / 1e6;
        t(u.user_time()) + t(u.system_time())
    })
}

/// This process's peak resident memory, in MiB.
fn peak_rss_mib() -> f64 {
    nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF)
        .map_or(0.0, |u| u.max_rss() as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dolos_cutoff_falls_in_the_gap_between_a_class_and_its_copies() {
        // 300 independent pairs about 0.2, 12 copies about 0.9.
        let mut sims: Vec<f64> = (0..300).map(|i| 0.1 + (i % 20) as f64 * 0.01).collect();
        sims.extend((0..12).map(|i| 0.85 + i as f64 * 0.01));
        let t = dolos_cutoff(&sims);
        assert!(t > 0.3 && t < 0.85, "{t}");
        assert!(sims.iter().filter(|&&s| s >= t).count() == 12, "{t}");
    }

    #[test]
    fn dolos_cutoff_without_a_local_minimum_is_the_mean() {
        assert_eq!(dolos_cutoff(&[0.5]), 0.5);
        assert_eq!(local_minima(&[3, 2, 1]), Vec::<usize>::new());
        assert_eq!(local_minima(&[3, 1, 2, 0, 5]), vec![1, 3]);
    }
}
