//! The labelled corpus the detector is measured on (its tests and `bench
//! --only similar`): independent solutions of the puzzle in C, C++, Python
//! and Rust (the repository's reference programs and those of
//! `testdata/similar/independent/`), copies of each disguised by a
//! generator (each disguise a function, its level recorded), and line-by-line
//! translations from C++ to Python (`testdata/similar/translations/`).
//!
//! A disguise rewrites the source text at nodes tree-sitter finds, so the
//! copies are programs a student could have written by hand: renamed,
//! reformatted, commented, functions reordered, `for` loops rewritten as
//! `while`, `if`/`else` branches swapped, compound assignments spelled out,
//! a loop extracted into a helper, dead code added, types changed. A heavy
//! disguise is renaming and reformatting plus three of the others.

use super::Lang;
use std::path::{Path, PathBuf};

/// The independent programs taken from the repository's reference programs
/// (one per independent implementation; near-copies of these left out).
pub const REFERENCE_PROGRAMS: &[&str] = &[
    "reference/mayan/accepted/backtrack.cpp",
    "reference/mayan/accepted/plain_dfs.c",
    "reference/mayan/accepted/solution.c",
    "reference/mayan/accepted/solution.py",
    "reference/mayan/accepted/solution.rs",
    "reference/mayan/time_limit_exceeded/brute.py",
];

/// Independent programs written for the corpus, under the repository.
pub const INDEPENDENT_DIR: &str = "testdata/similar/independent";

/// Translations, and the program each translates.
pub const TRANSLATIONS: &[(&str, &str)] = &[
    (
        "testdata/similar/translations/backtrack.py",
        "reference/mayan/accepted/backtrack.cpp",
    ),
    (
        "testdata/similar/translations/struct_board.py",
        "testdata/similar/independent/struct_board.cpp",
    ),
    (
        "testdata/similar/translations/lambda_solver.py",
        "testdata/similar/independent/lambda_solver.cpp",
    ),
    (
        "testdata/similar/translations/vector_copy.py",
        "testdata/similar/independent/vector_copy.cpp",
    ),
    (
        "testdata/similar/translations/game_class.py",
        "testdata/similar/independent/game_class.cpp",
    ),
    (
        "testdata/similar/translations/macro_style.py",
        "testdata/similar/independent/macro_style.cpp",
    ),
];

/// How much a copy is disguised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// The original program.
    Original,
    /// One surface change (renaming, layout, comments).
    Light,
    /// One structural change.
    Medium,
    /// Renaming and layout plus three structural changes.
    Heavy,
    /// A line-by-line translation into another language.
    Translation,
}

/// One program of the corpus.
#[derive(Clone, Debug)]
pub struct Item {
    /// A unique file name (`<family>__<kind>.<ext>`).
    pub name: String,
    /// The independent program it comes from (the label).
    pub family: String,
    /// Its language.
    pub lang: Lang,
    /// How it was disguised.
    pub level: Level,
    /// The disguises applied, in order.
    pub disguises: Vec<&'static str>,
    /// Its text.
    pub text: String,
}

/// Why the corpus could not be built.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct CorpusError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

/// The corpus, from the repository at `root`: every independent program,
/// `copies` light, medium and heavy disguised copies of each (seeded), and the translations.
pub fn build(root: &Path, copies: usize, seed: u64) -> Result<Vec<Item>, CorpusError> {
    let mut originals: Vec<PathBuf> = REFERENCE_PROGRAMS.iter().map(|p| root.join(p)).collect();
    let dir = root.join(INDEPENDENT_DIR);
    let mut own: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|source| CorpusError {
            path: dir.clone(),
            source,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    own.sort();
    originals.extend(own);
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|source| CorpusError {
            path: p.to_path_buf(),
            source,
        })
    };
    let mut items = Vec::new();
    for (k, path) in originals.iter().enumerate() {
        let Some(lang) = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Lang::from_extension)
        else {
            continue;
        };
        let family = family_of(root, path);
        let text = read(path)?;
        let mut rng = fastrand::Rng::with_seed(seed ^ (k as u64).wrapping_mul(0x9e37_79b9));
        items.push(item(
            &family,
            "original",
            lang,
            Level::Original,
            vec![],
            text.clone(),
        ));
        for c in 0..copies {
            for level in [Level::Light, Level::Medium, Level::Heavy] {
                let (names, out) = disguise(&text, lang, level, &mut rng);
                let kind = format!("{level:?}{c}").to_lowercase();
                items.push(item(&family, &kind, lang, level, names, out));
            }
        }
    }
    for (file, of) in TRANSLATIONS {
        let path = root.join(file);
        let family = family_of(root, &root.join(of));
        items.push(item(
            &family,
            "translation",
            Lang::Python,
            Level::Translation,
            vec![],
            read(&path)?,
        ));
    }
    Ok(items)
}

fn family_of(root: &Path, path: &Path) -> String {
    let rel = path
        .strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .to_string();
    rel.replace(['/', '.'], "_")
}

fn item(
    family: &str,
    kind: &str,
    lang: Lang,
    level: Level,
    disguises: Vec<&'static str>,
    text: String,
) -> Item {
    let ext = match lang {
        Lang::C => "c",
        Lang::Cpp => "cpp",
        Lang::Python => "py",
        Lang::Rust => "rs",
    };
    Item {
        name: format!("{family}__{kind}.{ext}"),
        family: family.to_string(),
        lang,
        level,
        disguises,
        text,
    }
}

pub use super::disguise::disguise;

/// A detector's figures on the corpus.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// ROC AUC over pairs of one language (copies positive, independent negative).
    pub auc: f64,
    /// The best F1 over thresholds, same-language pairs.
    pub best_f1: f64,
    /// Share of heavily disguised copies (against their original) above the
    /// threshold that flags 5% of the independent same-language pairs.
    pub heavy_at_5: f64,
    /// The same at 1%.
    pub heavy_at_1: f64,
    /// Share of translations above the threshold that flags 1% of all independent pairs.
    pub translations_at_1: f64,
    /// That 1% threshold (same-language pairs).
    pub threshold_1: f64,
}

/// Scores a detector on `items`, given its similarity of each pair
/// (`sim(i, j)` with `i < j`, indices into `items`; 0 where it has none).
pub fn score(items: &[Item], sim: &dyn Fn(usize, usize) -> f64) -> Scores {
    let (mut pos, mut neg, mut neg_all, mut heavy, mut trans) = (vec![], vec![], vec![], vec![], vec![]);
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            let (a, b) = (&items[i], &items[j]);
            let s = sim(i, j);
            let same_family = a.family == b.family;
            if !same_family {
                neg_all.push(s);
            }
            let levels = [a.level, b.level];
            if same_family && levels.contains(&Level::Translation) && levels.contains(&Level::Original) {
                trans.push(s);
            }
            if a.lang != b.lang {
                continue;
            }
            if same_family {
                pos.push(s);
                if levels.contains(&Level::Original) && levels.contains(&Level::Heavy) {
                    heavy.push(s);
                }
            } else {
                neg.push(s);
            }
        }
    }
    let at = |negs: &[f64], share: f64| {
        let mut v = negs.to_vec();
        v.sort_by(|x, y| y.total_cmp(x));
        v.get((share * v.len() as f64).floor() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let found = |v: &[f64], t: f64| v.iter().filter(|&&s| s > t).count() as f64 / v.len().max(1) as f64;
    let (t5, t1) = (at(&neg, 0.05), at(&neg, 0.01));
    Scores {
        auc: auc(&pos, &neg),
        best_f1: best_f1(&pos, &neg),
        heavy_at_5: found(&heavy, t5),
        heavy_at_1: found(&heavy, t1),
        translations_at_1: found(&trans, at(&neg_all, 0.01).max(t1)),
        threshold_1: t1,
    }
}

/// The probability that a positive scores above a negative (ties half).
fn auc(pos: &[f64], neg: &[f64]) -> f64 {
    let mut all: Vec<(f64, bool)> = pos
        .iter()
        .map(|&s| (s, true))
        .chain(neg.iter().map(|&s| (s, false)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Mann-Whitney U with mid-ranks.
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j < all.len() && all[j].0 == all[i].0 {
            j += 1;
        }
        let mid = (i + j + 1) as f64 / 2.0;
        rank_sum += mid * all[i..j].iter().filter(|x| x.1).count() as f64;
        i = j;
    }
    let (p, n) = (pos.len() as f64, neg.len() as f64);
    if p == 0.0 || n == 0.0 {
        return 0.0;
    }
    (rank_sum - p * (p + 1.0) / 2.0) / (p * n)
}

fn best_f1(pos: &[f64], neg: &[f64]) -> f64 {
    let mut all: Vec<(f64, bool)> = pos
        .iter()
        .map(|&s| (s, true))
        .chain(neg.iter().map(|&s| (s, false)))
        .collect();
    all.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (mut tp, mut fp, mut best) = (0.0, 0.0, 0.0f64);
    for (k, &(s, is_pos)) in all.iter().enumerate() {
        if is_pos {
            tp += 1.0
        } else {
            fp += 1.0
        }
        if all.get(k + 1).is_some_and(|n| n.0 == s) {
            continue;
        }
        let (precision, recall) = (tp / (tp + fp), tp / pos.len().max(1) as f64);
        if tp > 0.0 {
            best = best.max(2.0 * precision * recall / (precision + recall));
        }
    }
    best
}
