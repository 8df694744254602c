//! Which programs of a class were copied: source code similarity, with the
//! evidence (`mayan-judge similar`, and the teacher's page of `serve`).
//!
//! 1. [`tokens`]: each program parsed with tree-sitter, its syntax tree
//!    written in one token alphabet shared by C, C++, Python and Rust.
//! 2. [`fingerprint`]: k-grams of tokens; how many programs of the class
//!    hold each (its document frequency); winnowed fingerprints.
//! 3. Candidate pairs: those sharing a fingerprint that is neither
//!    template code nor in most programs.
//! 4. [`tiling`]: Greedy String Tiling measures and aligns each candidate
//!    pair exactly; each token counts by how rare its k-grams are in the
//!    class, so code every solution shares counts for little.
//! 5. Pairs ranked; the threshold from the class's own similarities (its
//!    median and spread, [`Baseline`]) unless one is fixed; each pair's
//!    distance above that median; groups of three or more (connected above
//!    the threshold).
//!
//! It knows nothing of the command line or the server: [`Source`]s in,
//! an [`Analysis`] out, and [`render`] writes it as JSON, CSV or HTML.

pub mod corpus;
pub mod disguise;
pub mod fingerprint;
pub mod load;
pub mod render;
pub mod tiling;
pub mod tokens;

use fingerprint::K;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
pub use tokens::Lang;

/// A program to compare, read and parsed.
#[derive(Clone, Debug)]
pub struct Source {
    /// Whose it is (a contestant's name, or the file as given).
    pub name: String,
    /// The file it was read from, as shown.
    pub path: String,
    /// Its language.
    pub lang: Lang,
    /// Its text.
    pub text: String,
    /// Its tokens.
    pub tokens: Vec<tokens::Token>,
    /// A reference program (compared with the class, not with other references).
    pub reference: bool,
}

impl Source {
    /// Parses `text` as `lang`.
    pub fn parse(
        name: &str,
        path: &str,
        lang: Lang,
        text: String,
        reference: bool,
    ) -> Result<Source, tokens::TokenizeError> {
        let (tokens, _) = tokens::tokenize(&text, lang)?;
        Ok(Source {
            name: name.to_string(),
            path: path.to_string(),
            lang,
            text,
            tokens,
            reference,
        })
    }
}

/// `f` over `items` on `threads` threads (0: as many as the machine has), in
/// order: programs are read and parsed side by side.
pub fn par_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker thread panicked"))
            .collect()
    })
}

/// How the comparison is tuned.
#[derive(Clone, Debug)]
pub struct Options {
    /// A fragment in at least this share of the programs counts for nothing;
    /// in fewer, it counts less the more programs hold it.
    pub common_share: f64,
    /// Pairs at or above this similarity are flagged and grouped; `None`:
    /// the threshold is taken from the class's own similarities ([`Baseline`]).
    pub threshold: Option<f64>,
    /// With no fixed threshold: a pair is flagged this many spreads above the
    /// class's median similarity (within [`FLOOR`], [`CEILING`]).
    pub spreads: f64,
    /// Fewer matched tokens (weighted) than this and the similarity is scaled down:
    /// tiny programs are not alike for being empty.
    pub min_tokens: f64,
    /// Weighted tokens added to each program's total before dividing: a
    /// program made mostly of common code does not reach 1 on a few tokens.
    pub prior: f64,
    /// How much the larger share counts in the similarity (the smaller one
    /// the rest): above 0.5, a copy padded with dead code still scores high.
    pub max_share_weight: f64,
    /// Worker threads (0: as many as the machine has).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        // Chosen on the tuning part of the labelled corpus (`corpus::Part`,
        // tests/integration/similar.rs `tune`), reported on the held-out part.
        Options {
            common_share: 0.2,
            threshold: None,
            spreads: SPREADS,
            min_tokens: 60.0,
            prior: 0.0,
            max_share_weight: 1.0,
            threads: 0,
        }
    }
}

/// One matched fragment of a pair: lines in each program (from 1, inclusive).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Fragment {
    /// Lines in the first program.
    pub lines_a: [u32; 2],
    /// Lines in the second program.
    pub lines_b: [u32; 2],
    /// Tokens matched.
    pub tokens: u32,
    /// How much it counts (tokens weighted by rarity in the class).
    pub weight: f64,
    /// Why it is counted.
    pub reason: String,
    /// Whether it stands elsewhere in the order of the other program's
    /// fragments (a reordered function or statement): not on the longest
    /// run of fragments in the same order in both.
    pub moved: bool,
}

/// Two programs compared.
#[derive(Clone, Debug, Serialize)]
pub struct Pair {
    /// The first program (index into [`Analysis::programs`]).
    pub a: usize,
    /// The second.
    pub b: usize,
    /// How alike they are, in [0, 1].
    pub similarity: f64,
    /// Share of the first program (weighted tokens) matched.
    pub share_a: f64,
    /// Share of the second.
    pub share_b: f64,
    /// Tokens matched.
    pub matched_tokens: u32,
    /// How far above the class's median it stands, in spreads (robust z-score).
    pub above_baseline: f64,
    /// The matched fragments, in the first program's order.
    pub fragments: Vec<Fragment>,
}

/// Default spreads above the median at which a pair is flagged.
pub const SPREADS: f64 = 4.0;
/// The class's threshold is never below this: in a class of programs that
/// are all alike (one published outline), the spread is small and the tail
/// of honest pairs would otherwise be flagged.
pub const FLOOR: f64 = 0.5;
/// Nor above this: a pair this similar is flagged in any class.
pub const CEILING: f64 = 0.55;
/// The threshold of a class too small to have a distribution.
pub const SMALL_CLASS_THRESHOLD: f64 = 0.55;
/// Programs below which a class has no distribution of its own.
pub const MIN_CLASS: usize = 5;
/// The smallest spread used (similarities are rounded to 4 places; a class
/// of programs that share nothing has a spread of 0).
pub const MIN_SPREAD: f64 = 0.02;

/// The class's distribution of similarities (pairs of one language, or every
/// pair where there are too few), and the threshold it gives.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Baseline {
    /// Median similarity.
    pub median: f64,
    /// Spread: 1.4826 × the median absolute deviation (a standard deviation
    /// where the similarities are normal, not moved by the copies).
    pub spread: f64,
    /// Pairs it is taken over.
    pub pairs: usize,
    /// What the median and spread are taken over.
    pub over: Over,
    /// How the threshold in force was set.
    pub rule: Rule,
    /// The spreads above the median a pair is flagged at (with [`Rule::Class`]).
    pub spreads: f64,
}

/// What a class's median and spread are taken over.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Over {
    /// Every pair of one language (every pair where there are too few), those
    /// that share nothing at 0: at least half of them share something.
    EveryPair,
    /// Only the pairs that share something, where most pairs share nothing
    /// (their median and spread would be 0): the median of those, and the
    /// spread of those below it (the copies, above it, do not move it).
    SharingPairs,
}

/// Pairs sharing something below which a class where most pairs share
/// nothing has no distribution of its own: its threshold comes from every
/// pair (the floor).
pub const MIN_SHARING: usize = 10;

/// How the threshold in force was set.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Median plus `spreads` spreads.
    Class,
    /// [`FLOOR`]: the class's own threshold was lower.
    Floor,
    /// [`CEILING`]: the class's own threshold was higher.
    Ceiling,
    /// `--threshold`, as given.
    Fixed,
    /// Fewer than [`MIN_CLASS`] programs: [`SMALL_CLASS_THRESHOLD`].
    SmallClass,
}

/// The baseline of a class, and the threshold in force.
fn baseline(sources: &[Source], pairs: &[Pair], options: &Options) -> (Baseline, f64) {
    let eligible = |a: usize, b: usize| !(sources[a].reference && sources[b].reference);
    let mut same: Vec<f64> = Vec::new();
    let mut all: Vec<f64> = Vec::new();
    for p in pairs {
        all.push(p.similarity);
        if sources[p.a].lang == sources[p.b].lang {
            same.push(p.similarity);
        }
    }
    let (mut n_same, mut n_all) = (0usize, 0usize);
    for a in 0..sources.len() {
        for b in a + 1..sources.len() {
            if eligible(a, b) {
                n_all += 1;
                n_same += usize::from(sources[a].lang == sources[b].lang);
            }
        }
    }
    let (v, n) = if n_same >= 10 {
        (same, n_same)
    } else {
        (all, n_all)
    };
    let (over, median, spread, pairs) = distribution(v, n);
    let class = median + options.spreads * spread.max(MIN_SPREAD);
    let (rule, threshold) = match options.threshold {
        Some(t) => (Rule::Fixed, t),
        None if sources.len() < MIN_CLASS => (Rule::SmallClass, SMALL_CLASS_THRESHOLD),
        None if class < FLOOR => (Rule::Floor, FLOOR),
        None if class > CEILING => (Rule::Ceiling, CEILING),
        None => (Rule::Class, class),
    };
    let base = Baseline {
        median,
        spread,
        pairs,
        over,
        rule,
        spreads: options.spreads,
    };
    (base, threshold)
}

/// The median and spread of a class's similarities `v` (those measured;
/// `n` pairs in all, the rest at 0), what they are taken over, and over how
/// many pairs. Where at least half of the pairs share something, over every
/// pair: the median, and 1.4826 × the median absolute deviation. Where most
/// share nothing, the median of every pair is 0 and says nothing of the
/// class: then over the pairs that share something (if [`MIN_SHARING`] or
/// more do), their median, and 1.4826 × the median distance below it of
/// those below it (one-sided: the copies stand above, and are a larger
/// part of the pairs that share something than of all pairs).
fn distribution(mut v: Vec<f64>, n: usize) -> (Over, f64, f64, usize) {
    v.retain(|&s| s > 0.0);
    let sharing = v.len();
    if 2 * sharing < n.max(sharing) && sharing >= MIN_SHARING {
        let median = median(&mut v);
        let mut below: Vec<f64> = v.iter().filter(|&&s| s <= median).map(|s| median - s).collect();
        let spread = 1.4826 * self::median(&mut below);
        return (Over::SharingPairs, median, spread, sharing);
    }
    v.resize(n.max(sharing), 0.0);
    let median = median(&mut v);
    let mut dev: Vec<f64> = v.iter().map(|s| (s - median).abs()).collect();
    let spread = 1.4826 * self::median(&mut dev);
    (Over::EveryPair, median, spread, v.len())
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// A program as the analysis saw it.
#[derive(Clone, Debug, Serialize)]
pub struct ProgramInfo {
    /// Whose.
    pub name: String,
    /// The file.
    pub path: String,
    /// Its language.
    pub language: Lang,
    /// Tokens.
    pub tokens: usize,
    /// A reference program.
    pub reference: bool,
}

/// The result: every pair that shares anything, most similar first, and groups.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The programs.
    pub programs: Vec<ProgramInfo>,
    /// Their texts (for the side-by-side view).
    pub texts: Vec<String>,
    /// Pairs with a similarity above 0, most similar first.
    pub pairs: Vec<Pair>,
    /// Groups of three or more programs joined by pairs at or above the threshold.
    pub groups: Vec<Vec<usize>>,
    /// The threshold in force (fixed, or from the class's baseline).
    pub threshold: f64,
    /// The class's own similarities: what a pair stands above.
    pub baseline: Baseline,
    /// Pairs compared (every pair, references with each other left out).
    pub compared: usize,
    /// Pairs measured exactly (those sharing enough fingerprints).
    pub measured: usize,
    /// Programs given but not compared, and why (filled by the caller,
    /// which reads them: [`analyse`] sees only those it compares).
    pub not_compared: Vec<NotCompared>,
}

/// A program given but not compared: it could not be read or parsed, or is
/// too deep to compare ([`tokens::MAX_DEPTH`]). The rest are compared.
#[derive(Clone, Debug, Serialize)]
pub struct NotCompared {
    /// Whose it is.
    pub name: String,
    /// Why, in English, naming the file.
    pub why: String,
    /// The line where its nesting passes [`tokens::MAX_DEPTH`], if that is why.
    pub too_deep_at: Option<u32>,
}

/// A program prepared for comparison.
struct Prepared {
    toks: Vec<u8>,
    free: Vec<bool>,
    weight: Vec<f32>,
    total: f64,
    sorted: Vec<(u64, u32)>,
    prints: Vec<u64>,
    /// The text without whitespace, and where each line starts in it.
    squashed: Squashed,
}

/// A program's text without whitespace, and where each line starts in it:
/// two fragments are the same code up to layout when their slices are equal.
struct Squashed {
    text: String,
    line_starts: Vec<usize>,
}

impl Squashed {
    fn of(text: &str) -> Squashed {
        let mut out = Squashed {
            text: String::with_capacity(text.len()),
            line_starts: Vec::new(),
        };
        for line in text.lines() {
            out.line_starts.push(out.text.len());
            out.text.extend(line.chars().filter(|c| !c.is_whitespace()));
        }
        out.line_starts.push(out.text.len());
        out
    }

    /// Lines `l[0]..=l[1]` (from 1), squashed.
    fn lines(&self, l: [u32; 2]) -> &str {
        let at = |n: usize| self.line_starts[n.min(self.line_starts.len() - 1)];
        &self.text[at(l[0] as usize - 1)..at(l[1] as usize)]
    }
}

/// Compares every pair of `sources` (references not with each other),
/// template code (`templates`) never counted. `progress(done, total)` is
/// called as pairs are measured.
pub fn analyse(
    sources: &[Source],
    templates: &[Source],
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Analysis {
    let template_keys: FxHashSet<u64> = templates
        .iter()
        .flat_map(|t| fingerprint::kgrams(&t.tokens))
        .collect();
    let keys: Vec<Vec<u64>> = sources.iter().map(|s| fingerprint::kgrams(&s.tokens)).collect();
    let df = document_frequency(&keys);
    let prepared: Vec<Prepared> = sources
        .iter()
        .zip(&keys)
        .map(|(s, k)| prepare(s, k, &df, &template_keys, sources.len(), options))
        .collect();
    let candidates = candidates(sources, &prepared);
    let compared = count_compared(sources);
    let mut pairs = measure(sources, &prepared, &candidates, options, progress);
    let (baseline, threshold) = baseline(sources, &pairs, options);
    for p in &mut pairs {
        p.above_baseline = (p.similarity - baseline.median) / baseline.spread.max(MIN_SPREAD);
    }
    let groups = groups(sources.len(), &pairs, threshold);
    Analysis {
        programs: sources
            .iter()
            .map(|s| ProgramInfo {
                name: s.name.clone(),
                path: s.path.clone(),
                language: s.lang,
                tokens: s.tokens.len(),
                reference: s.reference,
            })
            .collect(),
        texts: sources.iter().map(|s| s.text.clone()).collect(),
        pairs,
        groups,
        threshold,
        baseline,
        compared,
        measured: candidates.len(),
        not_compared: Vec::new(),
    }
}

fn count_compared(sources: &[Source]) -> usize {
    let n = sources.len();
    let r = sources.iter().filter(|s| s.reference).count();
    n * n.saturating_sub(1) / 2 - r * r.saturating_sub(1) / 2
}

/// In how many programs each k-gram occurs.
fn document_frequency(keys: &[Vec<u64>]) -> FxHashMap<u64, u32> {
    let mut df: FxHashMap<u64, u32> = FxHashMap::default();
    for k in keys {
        let distinct: FxHashSet<u64> = k.iter().copied().collect();
        for key in distinct {
            *df.entry(key).or_default() += 1;
        }
    }
    df
}

/// Programs below which a fragment is never common, whatever the class's
/// size: in a class of nine, three who copied are not "most programs".
pub const MIN_COMMON: f64 = 6.0;

/// How much a k-gram held by `df` of `n` programs counts: 1 when only a
/// pair holds it, less the more programs hold it, nothing from
/// `common_share` of the class (and at least [`MIN_COMMON`] programs) on.
fn rarity(df: u32, n: usize, options: &Options) -> f32 {
    if df <= 2 {
        return 1.0;
    }
    let cut = (options.common_share * n as f64).max(MIN_COMMON);
    let x = ((df as f64 - 2.0) / (cut - 2.0)).clamp(0.0, 1.0);
    ((1.0 - x) * (1.0 - x)) as f32
}

fn prepare(
    s: &Source,
    keys: &[u64],
    df: &FxHashMap<u64, u32>,
    template: &FxHashSet<u64>,
    n: usize,
    options: &Options,
) -> Prepared {
    let len = s.tokens.len();
    let toks: Vec<u8> = s.tokens.iter().map(|t| t.tok as u8).collect();
    let mut free = vec![true; len];
    let mut weight = vec![0f32; len];
    let mut key_weight = Vec::with_capacity(keys.len());
    for (i, key) in keys.iter().enumerate() {
        if template.contains(key) {
            free[i..i + K].iter_mut().for_each(|f| *f = false);
        }
        let w = rarity(df[key], n, options);
        key_weight.push(w);
        for x in &mut weight[i..i + K] {
            *x = x.max(w);
        }
    }
    for (w, f) in weight.iter_mut().zip(&free) {
        if !f {
            *w = 0.0;
        }
    }
    let total = weight.iter().map(|&w| w as f64).sum();
    let sorted = tiling::sorted_keys(keys, &free);
    let usable: Vec<Option<u64>> = keys
        .iter()
        .zip(&key_weight)
        .enumerate()
        .map(|(i, (&k, &w))| (w > 0.0 && free[i..i + K].iter().all(|&f| f)).then_some(k))
        .collect();
    let prints = fingerprint::winnow(&usable);
    Prepared {
        squashed: Squashed::of(&s.text),
        toks,
        free,
        weight,
        total,
        sorted,
        prints,
    }
}

/// Fingerprints a pair must share to be measured exactly.
pub const MIN_SHARED: u32 = 2;

/// Pairs that share at least [`MIN_SHARED`] fingerprints that count (not
/// references with each other).
fn candidates(sources: &[Source], prepared: &[Prepared]) -> Vec<(usize, usize)> {
    let mut index: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
    for (p, prep) in prepared.iter().enumerate() {
        for &f in &prep.prints {
            index.entry(f).or_default().push(p as u32);
        }
    }
    let mut shared: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for holders in index.values() {
        for (x, &a) in holders.iter().enumerate() {
            for &b in &holders[x + 1..] {
                if !(sources[a as usize].reference && sources[b as usize].reference) {
                    *shared.entry((a, b)).or_default() += 1;
                }
            }
        }
    }
    let mut out: Vec<(usize, usize)> = shared
        .into_iter()
        .filter(|&(_, n)| n >= MIN_SHARED)
        .map(|((a, b), _)| (a as usize, b as usize))
        .collect();
    out.sort_unstable();
    out
}

fn measure(
    sources: &[Source],
    prepared: &[Prepared],
    candidates: &[(usize, usize)],
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Pair> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let measured = par_map(candidates, options.threads, |&(a, b)| {
        let pair = compare(sources, prepared, a, b, options);
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if d.is_multiple_of(256) {
            progress(d, candidates.len());
        }
        pair
    });
    let mut pairs: Vec<Pair> = measured.into_iter().flatten().collect();
    progress(candidates.len(), candidates.len());
    pairs.sort_by(|x, y| {
        y.similarity
            .total_cmp(&x.similarity)
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    pairs
}

/// Measures one pair exactly.
fn compare(sources: &[Source], prepared: &[Prepared], a: usize, b: usize, options: &Options) -> Option<Pair> {
    let (pa, pb) = (&prepared[a], &prepared[b]);
    let tiles = tiling::tiles(
        &tiling::Side {
            toks: &pa.toks,
            free: &pa.free,
            sorted: &pa.sorted,
        },
        &tiling::Side {
            toks: &pb.toks,
            free: &pb.free,
            sorted: &pb.sorted,
        },
    );
    if tiles.is_empty() {
        return None;
    }
    let (mut wa, mut wb, mut matched) = (0f64, 0f64, 0u32);
    let mut fragments = Vec::new();
    for t in &tiles {
        let (ra, rb) = (
            t.a as usize..(t.a + t.len) as usize,
            t.b as usize..(t.b + t.len) as usize,
        );
        let fa: f64 = pa.weight[ra.clone()].iter().map(|&w| w as f64).sum();
        let fb: f64 = pb.weight[rb.clone()].iter().map(|&w| w as f64).sum();
        wa += fa;
        wb += fb;
        matched += t.len;
        fragments.push(fragment(
            (&sources[a], pa),
            (&sources[b], pb),
            ra,
            rb,
            t.len,
            (fa + fb) / 2.0,
        ));
    }
    let share_a = (wa / (pa.total + options.prior)).min(1.0);
    let share_b = (wb / (pb.total + options.prior)).min(1.0);
    let evidence = ((wa + wb) / 2.0 / options.min_tokens).min(1.0);
    let m = options.max_share_weight;
    let similarity = share_a.max(share_b) * m + share_a.min(share_b) * (1.0 - m);
    let similarity = similarity * evidence;
    fragments.sort_by_key(|f| (f.lines_a[0], f.lines_b[0]));
    mark_moved(&mut fragments);
    Some(Pair {
        a,
        b,
        similarity,
        share_a,
        share_b,
        matched_tokens: matched,
        above_baseline: 0.0,
        fragments,
    })
}

/// Marks the fragments (in the first program's order) that are not on the
/// longest run in the same order in the second program.
fn mark_moved(fragments: &mut [Fragment]) {
    let n = fragments.len();
    // Longest increasing subsequence of the starts in the second program (O(n²): tens of fragments).
    let mut best = vec![1usize; n];
    let mut prev = vec![usize::MAX; n];
    for i in 0..n {
        for j in 0..i {
            if fragments[j].lines_b[0] <= fragments[i].lines_b[0] && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
                prev[i] = j;
            }
        }
    }
    let Some(mut at) = (0..n).max_by_key(|&i| best[i]) else {
        return;
    };
    fragments.iter_mut().for_each(|f| f.moved = true);
    loop {
        fragments[at].moved = false;
        match prev[at] {
            usize::MAX => break,
            p => at = p,
        }
    }
}

fn fragment(
    (sa, pa): (&Source, &Prepared),
    (sb, pb): (&Source, &Prepared),
    ra: std::ops::Range<usize>,
    rb: std::ops::Range<usize>,
    len: u32,
    weight: f64,
) -> Fragment {
    let lines = |s: &Source, r: &std::ops::Range<usize>| {
        let span = s.tokens[r.clone()].iter().map(|t| t.line);
        [span.clone().min().unwrap_or(1), span.max().unwrap_or(1)]
    };
    let (la, lb) = (lines(sa, &ra), lines(sb, &rb));
    let same_text = pa.squashed.lines(la) == pb.squashed.lines(lb);
    let reason = reason(sa.lang, sb.lang, same_text, weight / len as f64);
    Fragment {
        lines_a: la,
        lines_b: lb,
        tokens: len,
        weight,
        reason,
        moved: false,
    }
}

/// Why a fragment counts, in words.
fn reason(la: Lang, lb: Lang, same_text: bool, mean_weight: f64) -> String {
    let what = if la != lb {
        format!("the same token structure in {} and {}", la.name(), lb.name())
    } else if same_text {
        "the same code, up to spacing and layout".to_string()
    } else {
        "the same token structure after renaming, retyping or rewriting".to_string()
    };
    if mean_weight < 0.25 {
        format!("{what}; most of it is common to many programs of the class, so it counts little")
    } else {
        what
    }
}

/// Connected components of three or more programs over pairs at or above `threshold`.
fn groups(n: usize, pairs: &[Pair], threshold: f64) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for p in pairs.iter().filter(|p| p.similarity >= threshold) {
        let (ra, rb) = (root(&mut parent, p.a), root(&mut parent, p.b));
        parent[ra] = rb;
    }
    let mut by_root: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for x in 0..n {
        let r = root(&mut parent, x);
        by_root.entry(r).or_default().push(x);
    }
    let mut out: Vec<Vec<usize>> = by_root.into_values().filter(|g| g.len() >= 3).collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(name: &str, text: &str, lang: Lang) -> Source {
        Source::parse(name, name, lang, text.to_string(), false).unwrap()
    }

    const PROG: &str = r#"
int grid[5][7];
int best = 0;
int gravity(int col) {
    int top = 0;
    for (int y = 0; y < 7; y++) {
        if (grid[col][y] != 0) { grid[col][top] = grid[col][y]; top += 1; }
    }
    for (int y = top; y < 7; y++) grid[col][y] = 0;
    return top;
}
int clear_marks(int n) {
    int found = 0;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y + 2 < 7; y++)
            if (grid[x][y] && grid[x][y] == grid[x][y + 1] && grid[x][y] == grid[x][y + 2]) {
                found = found * 3 + x - y;
                best = best + found % n;
            }
    return found;
}
"#;

    #[test]
    fn a_renamed_copy_is_found_and_its_lines_matched() {
        let copy = PROG
            .replace("grid", "board")
            .replace("gravity", "fall")
            .replace("top", "h");
        let a = analyse(
            &[src("a", PROG, Lang::Cpp), src("b", &copy, Lang::Cpp)],
            &[],
            &Options::default(),
            &|_, _| {},
        );
        assert_eq!(a.pairs.len(), 1);
        assert!(a.pairs[0].similarity > 0.8, "{:?}", a.pairs[0]);
        assert!(a.pairs[0].fragments.iter().all(|f| f.lines_a[0] >= 2));
    }

    #[test]
    fn template_code_is_never_counted() {
        let copy = PROG.replace("grid", "board");
        let a = analyse(
            &[src("a", PROG, Lang::Cpp), src("b", &copy, Lang::Cpp)],
            &[src("t", PROG, Lang::Cpp)],
            &Options::default(),
            &|_, _| {},
        );
        assert!(a.pairs.iter().all(|p| p.similarity == 0.0));
    }

    #[test]
    fn tiny_programs_are_not_alike_for_being_empty() {
        let tiny = "int main() { return 0; }";
        let a = analyse(
            &[src("a", tiny, Lang::C), src("b", tiny, Lang::C)],
            &[],
            &Options::default(),
            &|_, _| {},
        );
        assert!(a.pairs.iter().all(|p| p.similarity < 0.1));
    }

    #[test]
    fn references_are_not_compared_with_each_other() {
        let mut r1 = src("r1", PROG, Lang::Cpp);
        r1.reference = true;
        let mut r2 = src("r2", PROG, Lang::Cpp);
        r2.reference = true;
        let a = analyse(
            &[r1, r2, src("s", PROG, Lang::Cpp)],
            &[],
            &Options::default(),
            &|_, _| {},
        );
        assert_eq!(a.compared, 2);
        assert!(a.pairs.iter().all(|p| p.a == 2 || p.b == 2));
    }

    #[test]
    fn a_class_of_two_or_three_says_so_and_uses_the_stated_default() {
        let s: Vec<Source> = ["a", "b", "c"].iter().map(|n| src(n, PROG, Lang::Cpp)).collect();
        let a = analyse(&s, &[], &Options::default(), &|_, _| {});
        assert_eq!(a.baseline.rule, Rule::SmallClass);
        assert_eq!(a.threshold, SMALL_CLASS_THRESHOLD);
    }

    #[test]
    fn a_class_sharing_nothing_flags_from_the_floor_and_a_fixed_threshold_is_kept() {
        let s: Vec<Source> = (0..6)
            .map(|k| {
                let body = "x = x * 3 + y; ".repeat(k + 1);
                src(
                    &format!("p{k}"),
                    &format!("int f{k}(int x, int y) {{ {body} return x; }}"),
                    Lang::C,
                )
            })
            .collect();
        let a = analyse(&s, &[], &Options::default(), &|_, _| {});
        assert_eq!(
            (a.baseline.rule, a.threshold),
            (Rule::Floor, FLOOR),
            "{:?}",
            a.baseline
        );
        let fixed = Options {
            threshold: Some(0.9),
            ..Options::default()
        };
        let a = analyse(&s, &[], &fixed, &|_, _| {});
        assert_eq!((a.baseline.rule, a.threshold), (Rule::Fixed, 0.9));
    }

    /// A random C expression `depth` deep, from `rng`.
    fn random_expr(rng: &mut fastrand::Rng, depth: u8) -> String {
        if depth == 0 {
            return match rng.u8(0..3) {
                0 => format!("v{}", rng.u8(0..9)),
                1 => rng.u8(0..99).to_string(),
                _ => "'c'".to_string(),
            };
        }
        let l = random_expr(rng, depth - 1);
        let d = rng.u8(0..depth);
        let r = random_expr(rng, d);
        match rng.u8(0..8) {
            0 => format!("({l} + {r})"),
            1 => format!("({l} < {r})"),
            2 => format!("({l} && {r})"),
            3 => format!("({l} << {r})"),
            4 => format!("w[{l}]"),
            5 => format!("g({l}, {r})"),
            6 => format!("!{l}"),
            _ => format!("s.{}", ["a", "b"][rng.usize(0..2)]),
        }
    }

    /// A C function of `n` random statements, drawn from `rng`: two such
    /// share next to nothing.
    fn random_function(rng: &mut fastrand::Rng, name: &str, n: usize) -> String {
        let mut body = String::new();
        for _ in 0..n {
            let e = random_expr(rng, 3);
            let v = rng.u8(0..9);
            body += &match rng.u8(0..4) {
                0 => format!("    v{v} = {e};\n"),
                1 => format!("    if ({e}) {{ v{v} = {}; }}\n", random_expr(rng, 2)),
                2 => format!("    while ({e}) {{ v{v} = {}; }}\n", random_expr(rng, 2)),
                _ => format!("    w[v{v}] = {e};\n"),
            };
        }
        format!("int {name}(void) {{\n{body}    return 0;\n}}\n")
    }

    #[test]
    fn where_most_pairs_share_nothing_the_decision_is_taken_over_the_pairs_that_share_something() {
        // Twelve programs of two functions each, each sharing one with the
        // next (a ring): 12 of the 78 pairs share something, the rest
        // nothing; then a copy of the first.
        let mut rng = fastrand::Rng::with_seed(60);
        let blocks: Vec<String> = (0..12)
            .map(|k| random_function(&mut rng, &format!("f{k}"), 40))
            .collect();
        let mut s: Vec<Source> = (0..12)
            .map(|k| {
                let text = format!("{}{}", blocks[k], blocks[(k + 1) % 12]);
                src(&format!("p{k}"), &text, Lang::C)
            })
            .collect();
        let copy = s[0].text.replace("v1", "count").replace("w[", "seen[");
        s.push(src("copy", &copy, Lang::C));
        let a = analyse(&s, &[], &Options::default(), &|_, _| {});
        let b = &a.baseline;
        assert_eq!(b.over, Over::SharingPairs, "{b:?}");
        assert!(b.pairs >= MIN_SHARING && b.pairs < 78 / 2, "{b:?}");
        assert!(b.median > 0.2 && b.spread > 0.0, "{b:?}");
        let line = render::baseline_line(&a);
        assert!(line.contains("pairs that share something"), "{line}");
        let top = &a.pairs[0];
        assert_eq!((top.a, top.b), (0, 12), "{top:?}");
        assert!(top.similarity >= a.threshold, "{top:?} {b:?}");
        eprintln!("{line}");
    }

    #[test]
    fn fragments_out_of_order_are_marked_moved() {
        let (head, tail) = PROG.split_at(PROG.find("int clear_marks").unwrap());
        let head = head.replacen("int grid[5][7];\nint best = 0;\n", "", 1);
        let swapped = format!("int grid[5][7];\nint best = 0;\n{tail}\n{head}");
        let a = analyse(
            &[src("a", PROG, Lang::Cpp), src("b", &swapped, Lang::Cpp)],
            &[],
            &Options::default(),
            &|_, _| {},
        );
        let f = &a.pairs[0].fragments;
        assert!(f.iter().any(|f| f.moved) && f.iter().any(|f| !f.moved), "{f:?}");
    }

    #[test]
    fn three_copies_make_a_group() {
        let s: Vec<Source> = ["a", "b", "c"].iter().map(|n| src(n, PROG, Lang::Cpp)).collect();
        let a = analyse(&s, &[], &Options::default(), &|_, _| {});
        assert_eq!(a.groups, vec![vec![0, 1, 2]]);
    }
}
