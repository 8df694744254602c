//! The labelled corpus the detector is measured on (its tests and `bench
//! --only similar`): independent solutions of the puzzle in C, C++, Python
//! and Rust (the repository's reference programs and those of
//! `testdata/similar/independent/`), copies of each disguised by a
//! generator (each disguise a function, its level recorded), and line-by-line
//! translations from C++ to Python (`testdata/similar/translations/`), and
//! copies disguised by hand (`testdata/similar/by_hand/`). It is split by
//! who wrote the programs ([`Part`]): the defaults are chosen on the tuning
//! part and the figures reported on the held-out part, which holds the
//! solutions written from one outline (`testdata/similar/outline/`).
//!
//! A disguise rewrites the source text at nodes tree-sitter finds, so the
//! copies are programs a student could have written by hand: renamed,
//! reformatted, commented, functions reordered, `for` loops rewritten as
//! `while`, `if`/`else` branches swapped, compound assignments spelled out,
//! a loop extracted into a helper, dead code added, types changed, `if` as a
//! conditional expression, expressions split or folded, the input read
//! another way (`disguise`). A heavy disguise is renaming, reformatting and
//! dead code plus five of the others.

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

/// Independent programs written from one published outline (the same
/// steps, in the same order, as a class that read the same blog writes
/// them), by another hand than the rest: all held out.
pub const OUTLINE_DIR: &str = "testdata/similar/outline";

/// Independent programs written from one lesson's handout (the same
/// function names, the same steps in the same order), by a third hand, in
/// C++ and Python, written without reading the tuning part: a class of
/// their own ([`Part::Handout`]), measured beside the held-out part.
pub const HANDOUT_DIR: &str = "testdata/similar/handout";

/// The independent programs written by the hand that wrote the held-out
/// part (one session, in one commit); the others, and the repository's
/// reference programs, are the tuning part.
pub const HELD_OUT: &[&str] = &[
    "class_solver.py",
    "explicit_stack.rs",
    "flat_array.c",
    "iterative_stack.cpp",
    "lambda_solver.cpp",
    "strings_groupby.py",
    "struct_board.cpp",
    "struct_ptr.c",
    "vec_columns.rs",
];

/// Copies disguised by hand (not by the generator), of held-out programs,
/// and the program each copies: several of the disguises each.
pub const BY_HAND: &[(&str, &str)] = &[
    (
        "testdata/similar/by_hand/struct_board_inlined.cpp",
        "testdata/similar/independent/struct_board.cpp",
    ),
    (
        "testdata/similar/by_hand/outline_globals_scanf.cpp",
        "testdata/similar/outline/globals.cpp",
    ),
    (
        "testdata/similar/by_hand/outline_lists_whole_input.py",
        "testdata/similar/outline/lists.py",
    ),
    (
        "testdata/similar/by_hand/vec_columns_match.rs",
        "testdata/similar/independent/vec_columns.rs",
    ),
    (
        "testdata/similar/by_hand/outline_board_macros.c",
        "testdata/similar/outline/board.c",
    ),
    (
        "testdata/similar/by_hand/explicit_stack_frames.rs",
        "testdata/similar/independent/explicit_stack.rs",
    ),
    (
        "testdata/similar/by_hand/class_solver_lines.py",
        "testdata/similar/independent/class_solver.py",
    ),
    (
        "testdata/similar/by_hand/iterative_stack_scanf.cpp",
        "testdata/similar/independent/iterative_stack.cpp",
    ),
    (
        "testdata/similar/by_hand/outline_vecs_lines.rs",
        "testdata/similar/outline/vecs.rs",
    ),
    (
        "testdata/similar/by_hand/handout_arrays_restructured.cpp",
        "testdata/similar/handout/handout_arrays.cpp",
    ),
    (
        "testdata/similar/by_hand/handout_lists_loops.py",
        "testdata/similar/handout/handout_lists.py",
    ),
];

/// The part of the corpus a program belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The defaults are chosen on it.
    Tuning,
    /// The figures are reported on it (as one class, not seen while tuning).
    HeldOut,
    /// Programs of [`HANDOUT_DIR`] and their copies: measured with the
    /// held-out part as one class (`bench --only similar`), where the
    /// detector's targets are not met (docs/SIMILAR.md), so the held-out
    /// test leaves them out.
    Handout,
}

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
    (
        "testdata/similar/translations/iterative_stack.py",
        "testdata/similar/independent/iterative_stack.cpp",
    ),
    (
        "testdata/similar/translations/vectors.py",
        "testdata/similar/outline/vectors.cpp",
    ),
    (
        "testdata/similar/translations/globals.py",
        "testdata/similar/outline/globals.cpp",
    ),
];

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
    /// Tuning or held out (a copy's part is its original's).
    pub part: Part,
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
    let mut items = Vec::new();
    for (k, path) in originals(root)?.iter().enumerate() {
        let Some(lang) = lang_of(path) else {
            continue;
        };
        let rng = fastrand::Rng::with_seed(seed ^ (k as u64).wrapping_mul(0x9e37_79b9));
        items.extend(original_and_copies(root, path, lang, copies, rng)?);
    }
    items.extend(translations(root)?);
    items.extend(by_hand(root)?);
    Ok(items)
}

/// The independent programs, in corpus order: the reference programs, then
/// the files of [`INDEPENDENT_DIR`], [`OUTLINE_DIR`] and [`HANDOUT_DIR`], each sorted.
fn originals(root: &Path) -> Result<Vec<PathBuf>, CorpusError> {
    let mut originals: Vec<PathBuf> = REFERENCE_PROGRAMS.iter().map(|p| root.join(p)).collect();
    originals.extend(sorted_entries(&root.join(INDEPENDENT_DIR))?);
    originals.extend(sorted_entries(&root.join(OUTLINE_DIR))?);
    originals.extend(sorted_entries(&root.join(HANDOUT_DIR))?);
    Ok(originals)
}

/// The paths in `dir` (entries that cannot be read left out), sorted.
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, CorpusError> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| CorpusError {
            path: dir.to_path_buf(),
            source,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    Ok(paths)
}

/// The text of a corpus file.
fn read(path: &Path) -> Result<String, CorpusError> {
    std::fs::read_to_string(path).map_err(|source| CorpusError {
        path: path.to_path_buf(),
        source,
    })
}

/// The language a file's extension names, if any.
fn lang_of(path: &Path) -> Option<Lang> {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(Lang::from_extension)
}

/// One independent program and its `copies` light, medium and heavy
/// disguised copies, in that order, drawn from `rng`.
fn original_and_copies(
    root: &Path,
    path: &Path,
    lang: Lang,
    copies: usize,
    mut rng: fastrand::Rng,
) -> Result<Vec<Item>, CorpusError> {
    let family = family_of(root, path);
    let part = part_of(root, path);
    let text = read(path)?;
    let mut items = vec![item(
        &family,
        "original",
        (lang, part),
        Level::Original,
        vec![],
        text.clone(),
    )];
    for c in 0..copies {
        for level in [Level::Light, Level::Medium, Level::Heavy] {
            let (names, out) = disguise(&text, lang, level, &mut rng);
            let kind = format!("{level:?}{c}").to_lowercase();
            items.push(item(&family, &kind, (lang, part), level, names, out));
        }
    }
    Ok(items)
}

/// The [`TRANSLATIONS`], each in its original's family and part.
fn translations(root: &Path) -> Result<Vec<Item>, CorpusError> {
    let mut items = Vec::new();
    for (file, of) in TRANSLATIONS {
        let path = root.join(file);
        let family = family_of(root, &root.join(of));
        items.push(item(
            &family,
            "translation",
            (Lang::Python, part_of(root, &root.join(of))),
            Level::Translation,
            vec![],
            read(&path)?,
        ));
    }
    Ok(items)
}

/// The copies disguised [`BY_HAND`], as heavy copies of their originals.
fn by_hand(root: &Path) -> Result<Vec<Item>, CorpusError> {
    let mut items = Vec::new();
    for (k, (file, of)) in BY_HAND.iter().enumerate() {
        let path = root.join(file);
        let lang = lang_of(&path).unwrap_or(Lang::Cpp);
        items.push(item(
            &family_of(root, &root.join(of)),
            &format!("hand{k}"),
            (lang, part_of(root, &root.join(of))),
            Level::Heavy,
            vec!["by hand"],
            read(&path)?,
        ));
    }
    Ok(items)
}

/// The part of the corpus an original program is in.
fn part_of(root: &Path, path: &Path) -> Part {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if rel.starts_with(HANDOUT_DIR) {
        Part::Handout
    } else if rel.starts_with(OUTLINE_DIR) || rel.starts_with(INDEPENDENT_DIR) && HELD_OUT.contains(&name) {
        Part::HeldOut
    } else {
        Part::Tuning
    }
}

/// The items of one part, in order.
pub fn part(items: &[Item], part: Part) -> Vec<Item> {
    parts(items, &[part])
}

/// The items of some parts, in order.
pub fn parts(items: &[Item], parts: &[Part]) -> Vec<Item> {
    items
        .iter()
        .filter(|i| parts.contains(&i.part))
        .cloned()
        .collect()
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
    (lang, part): (Lang, Part),
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
        part,
        text,
    }
}

pub use super::disguise::{Level, disguise};

/// `items` compared as one class with `options`; the figures, at the class's
/// decision and over thresholds, and the analysis.
pub fn evaluate(items: &[Item], options: &super::Options) -> (Scores, super::Analysis) {
    let sources: Vec<super::Source> = items
        .iter()
        .filter_map(|it| super::Source::parse(&it.name, &it.name, it.lang, it.text.clone(), false).ok())
        .collect();
    assert_eq!(sources.len(), items.len(), "every corpus program parses");
    let analysis = super::analyse(&sources, &[], options, &|_, _| {});
    let sims: std::collections::HashMap<(usize, usize), f64> = analysis
        .pairs
        .iter()
        .map(|p| ((p.a, p.b), p.similarity))
        .collect();
    let sim = |i: usize, j: usize| sims.get(&(i, j)).copied().unwrap_or(0.0);
    let t = analysis.threshold;
    let flagged = |i: usize, j: usize| sim(i, j) >= t;
    (score(items, &sim, Some(&flagged)), analysis)
}

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
    /// At the detector's default decision (where it has one): share of the
    /// heavily disguised copies flagged.
    pub heavy_flagged: Option<f64>,
    /// Share of the independent same-language pairs flagged.
    pub independent_flagged: Option<f64>,
    /// Share of the translations flagged.
    pub translations_flagged: Option<f64>,
}

/// Scores a detector on `items`, given its similarity of each pair
/// (`sim(i, j)` with `i < j`, indices into `items`; 0 where it has none).
/// `flagged(i, j)`: whether the detector's default decision flags the pair
/// (none for a detector without one).
pub fn score(
    items: &[Item],
    sim: &dyn Fn(usize, usize) -> f64,
    flagged: Option<&dyn Fn(usize, usize) -> bool>,
) -> Scores {
    let (mut flag_heavy, mut flag_neg, mut flag_trans) = ((0, 0), (0, 0), (0, 0));
    let tally = |t: &mut (usize, usize), i: usize, j: usize| {
        if let Some(f) = flagged {
            t.0 += usize::from(f(i, j));
            t.1 += 1;
        }
    };
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
                tally(&mut flag_trans, i, j);
            }
            if a.lang != b.lang {
                continue;
            }
            if same_family {
                pos.push(s);
                if levels.contains(&Level::Original) && levels.contains(&Level::Heavy) {
                    heavy.push(s);
                    tally(&mut flag_heavy, i, j);
                }
            } else {
                neg.push(s);
                tally(&mut flag_neg, i, j);
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
    let share = |(k, n): (usize, usize)| (flagged.is_some() && n > 0).then(|| k as f64 / n as f64);
    Scores {
        auc: auc(&pos, &neg),
        best_f1: best_f1(&pos, &neg),
        heavy_at_5: found(&heavy, t5),
        heavy_at_1: found(&heavy, t1),
        translations_at_1: found(&trans, at(&neg_all, 0.01).max(t1)),
        threshold_1: t1,
        heavy_flagged: share(flag_heavy),
        independent_flagged: share(flag_neg),
        translations_flagged: share(flag_trans),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Not a test: the figures of the tuning part over a grid of options, to
    /// choose the defaults (`cargo test --lib similarity::corpus -- --ignored
    /// --nocapture`); the held-out part printed once, at the defaults.
    #[test]
    #[ignore]
    fn tune() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let items = build(root, 2, 7).unwrap();
        let tuning = part(&items, Part::Tuning);
        let held = part(&build(root, 2, 7).unwrap(), Part::HeldOut);
        for max_share_weight in [1.0] {
            for common_share in [0.2] {
                let o = super::super::Options {
                    max_share_weight,
                    common_share,
                    ..Default::default()
                };
                for (name, class) in [("tuning", &tuning), ("held", &held)] {
                    print_figures(name, class, &o);
                }
            }
        }
        let all = build(root, 2, 2011).unwrap();
        print_held_out(&part(&all, Part::HeldOut));
        print_held_out(&parts(&all, &[Part::HeldOut, Part::Handout]));
    }

    /// Prints the figures of `class` at the options `o`, then at a few fixed
    /// thresholds.
    fn print_figures(name: &str, class: &[Item], o: &super::super::Options) {
        let (max_share_weight, common_share) = (o.max_share_weight, o.common_share);
        let (s, a) = evaluate(class, o);
        eprintln!(
            "{name} max {max_share_weight} common {common_share}: median {:.3} spread {:.3} threshold {:.3} ({:?}); auc {:.4} h1 {:.3} t1 {:.3} flagged heavy {:.3} indep {:.4} trans {:.2}",
            a.baseline.median,
            a.baseline.spread,
            a.threshold,
            a.baseline.rule,
            s.auc,
            s.heavy_at_1,
            s.threshold_1,
            s.heavy_flagged.unwrap(),
            s.independent_flagged.unwrap(),
            s.translations_flagged.unwrap()
        );
        for t in [0.5, 0.55, 0.6] {
            let o = super::super::Options {
                threshold: Some(t),
                ..o.clone()
            };
            let (s, _) = evaluate(class, &o);
            eprintln!(
                "   at {t}: heavy {:.3} indep {:.4} trans {:.2}",
                s.heavy_flagged.unwrap(),
                s.independent_flagged.unwrap(),
                s.translations_flagged.unwrap()
            );
        }
    }

    /// Prints the held-out part at the defaults: its figures, its weakest
    /// copies and closest independent pairs, and counts at fixed thresholds.
    fn print_held_out(held: &[Item]) {
        let (s, a) = evaluate(held, &Default::default());
        eprintln!(
            "held out ({} programs): median {:.3} spread {:.3} threshold {:.3}; {s:?}",
            held.len(),
            a.baseline.median,
            a.baseline.spread,
            a.threshold
        );
        let heavy = weakest_copies(held, &a);
        eprintln!("weakest copies: {:?}", &heavy[..heavy.len().min(8)]);
        let neg = closest_independent(held, &a);
        eprintln!("closest independent: {:?}", &neg[..neg.len().min(6)]);
        print_counts_at_thresholds(held, &heavy, &neg);
        print_closest_by_lang(&neg);
    }

    /// Each pair of an original and a copy of it (same language): its
    /// similarity and the copy's name, least similar first.
    fn weakest_copies<'a>(held: &'a [Item], a: &super::super::Analysis) -> Vec<(f64, &'a str)> {
        let mut heavy: Vec<(f64, &str)> = a
            .pairs
            .iter()
            .filter(|p| held[p.a].family == held[p.b].family && held[p.a].lang == held[p.b].lang)
            .filter(|p| [held[p.a].level, held[p.b].level].contains(&Level::Original))
            .map(|p| (p.similarity, held[p.a.max(p.b)].name.as_str()))
            .collect();
        heavy.sort_by(|x, y| x.0.total_cmp(&y.0));
        heavy
    }

    /// Each measured pair of programs of different families (same
    /// language): its similarity and names, most similar first.
    fn closest_independent<'a>(held: &'a [Item], a: &super::super::Analysis) -> Vec<(f64, &'a str, &'a str)> {
        let mut neg: Vec<(f64, &str, &str)> = a
            .pairs
            .iter()
            .filter(|p| held[p.a].family != held[p.b].family && held[p.a].lang == held[p.b].lang)
            .map(|p| (p.similarity, held[p.a].name.as_str(), held[p.b].name.as_str()))
            .collect();
        neg.sort_by(|x, y| y.0.total_cmp(&x.0));
        neg
    }

    /// Prints, at each of a few thresholds, how many independent pairs (of
    /// all such pairs in `held`) and copies stand at or above it.
    fn print_counts_at_thresholds(held: &[Item], heavy: &[(f64, &str)], neg: &[(f64, &str, &str)]) {
        let n_neg = held
            .iter()
            .enumerate()
            .flat_map(|(i, x)| held[i + 1..].iter().map(move |y| (x, y)))
            .filter(|(x, y)| x.family != y.family && x.lang == y.lang)
            .count();
        for t in [0.45, 0.5, 0.55, 0.6, 0.65, 0.7] {
            let fp = neg.iter().filter(|x| x.0 >= t).count();
            let tp = heavy.iter().filter(|x| x.0 >= t).count();
            eprintln!(
                "at {t}: {fp} of {n_neg} independent, {tp} of {} copies",
                heavy.len()
            );
        }
    }

    /// Prints the two closest independent pairs of each language.
    fn print_closest_by_lang(neg: &[(f64, &str, &str)]) {
        for lang in [Lang::C, Lang::Cpp, Lang::Python, Lang::Rust] {
            let top: Vec<_> = neg
                .iter()
                .filter(|x| {
                    x.1.ends_with(match lang {
                        Lang::C => ".c",
                        Lang::Cpp => ".cpp",
                        Lang::Python => ".py",
                        Lang::Rust => ".rs",
                    })
                })
                .take(2)
                .collect();
            eprintln!("{lang:?}: {top:?}");
        }
    }
}
