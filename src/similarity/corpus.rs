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

/// A disguise: a rewrite of a program's text (unchanged where it does not apply).
pub type Disguise = fn(&str, Lang, &mut fastrand::Rng) -> String;

/// Surface disguises.
pub const LIGHT: &[(&str, Disguise)] = &[("rename", rename), ("reformat", reformat), ("comments", comments)];

/// Structural disguises.
pub const MEDIUM: &[(&str, Disguise)] = &[
    ("reorder functions", reorder),
    ("for as while", for_as_while),
    ("swap branches", swap_branches),
    ("spell out compound assignments", spell_out),
    ("extract a helper", extract_helper),
    ("dead code", dead_code),
    ("change types", change_types),
];

/// Applies a disguise of `level`, returning the names of those applied.
pub fn disguise(
    text: &str,
    lang: Lang,
    level: Level,
    rng: &mut fastrand::Rng,
) -> (Vec<&'static str>, String) {
    let mut chosen: Vec<(&'static str, Disguise)> = match level {
        Level::Light => vec![LIGHT[rng.usize(..LIGHT.len())]],
        Level::Medium => vec![MEDIUM[rng.usize(..MEDIUM.len())]],
        Level::Heavy => {
            let mut m = MEDIUM.to_vec();
            rng.shuffle(&mut m);
            let mut v: Vec<_> = m.into_iter().take(3).collect();
            v.push(LIGHT[0]);
            v.push(LIGHT[1]);
            v
        }
        Level::Original | Level::Translation => vec![],
    };
    // Renaming and layout last, so that the structural rewrites see the original names.
    chosen.sort_by_key(|(n, _)| LIGHT.iter().any(|(l, _)| l == n));
    let mut out = text.to_string();
    for (_, f) in &chosen {
        out = f(&out, lang, rng);
    }
    (chosen.into_iter().map(|(n, _)| n).collect(), out)
}

fn parse(text: &str, lang: Lang) -> Option<tree_sitter::Tree> {
    let mut p = tree_sitter::Parser::new();
    let grammar: tree_sitter::Language = match lang {
        Lang::C => tree_sitter_c::LANGUAGE.into(),
        Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        Lang::Python => tree_sitter_python::LANGUAGE.into(),
        Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
    };
    p.set_language(&grammar).ok()?;
    p.parse(text, None)
}

/// Every node of `tree` (preorder) for which `keep` holds.
fn nodes<'t>(
    tree: &'t tree_sitter::Tree,
    keep: &dyn Fn(tree_sitter::Node) -> bool,
) -> Vec<tree_sitter::Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if keep(n) {
            out.push(n);
        }
        let mut c = n.walk();
        let kids: Vec<_> = n.children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// Replaces byte ranges (not overlapping) of `text`.
fn splice(text: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    let mut out = text.to_string();
    let mut floor = usize::MAX;
    for (r, s) in edits {
        if r.end <= floor {
            out.replace_range(r.clone(), &s);
            floor = r.start;
        }
    }
    out
}

/// Names a program must keep (the language's and its libraries').
const KEEP: &[&str] = &[
    "main",
    "printf",
    "scanf",
    "puts",
    "memset",
    "memcpy",
    "std",
    "cin",
    "cout",
    "endl",
    "swap",
    "vector",
    "print",
    "range",
    "len",
    "int",
    "input",
    "sys",
    "stdin",
    "read",
    "split",
    "map",
    "list",
    "tuple",
    "set",
    "dict",
    "any",
    "all",
    "sorted",
    "enumerate",
    "zip",
    "min",
    "max",
    "abs",
    "str",
    "join",
    "append",
    "pop",
    "push",
    "push_back",
    "pop_back",
    "size",
    "self",
    "println",
    "unwrap",
    "iter",
    "new",
    "clone",
    "len",
    "is_empty",
    "Some",
    "None",
    "Ok",
    "Err",
    "Vec",
    "String",
    "io",
    "sizeof",
    "string",
    "array",
    "begin",
    "end",
    "erase",
    "remove",
    "resize",
    "insert",
    "replace",
    "emplace_back",
    "first",
    "second",
    "get",
    "count",
    "index",
    "update",
    "extend",
    "next",
    "iter_mut",
    "lines",
    "lock",
    "read_to_string",
    "split_whitespace",
    "parse",
    "collect",
    "contains",
    "retain",
    "flatten",
    "for_each",
    "copied",
    "unwrap_or",
    "to_vec",
    "entry",
    "or_insert",
    "values",
    "chars",
    "ljust",
    "groupby",
    "itertools",
    "__init__",
    "__name__",
    "staticmethod",
    "function",
    "tuple",
    "make_pair",
    "pair",
    "set",
    "map",
    "greater",
    "sort",
    "reverse",
    "empty",
    "back",
    "front",
    "strlen",
    "exit",
    "fflush",
    "getchar",
    "putchar",
    "stdout",
    "write",
    "flush",
    "fill",
    "ord",
    "chr",
    "iter",
    "ints",
    "global",
    "nonlocal",
    "bool",
];

fn rename(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let ids = nodes(&tree, &|n| matches!(n.kind(), "identifier" | "field_identifier"));
    let mut map: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    const WORDS: &[&str] = &[
        "alpha", "beta", "gamma", "delta", "tmp", "val", "node", "grid", "cell", "item", "res", "cnt", "idx",
        "aux", "foo", "bar",
    ];
    let mut edits = Vec::new();
    for n in ids {
        let name = &text[n.byte_range()];
        if KEEP.contains(&name) || name.len() <= 1 && rng.bool() {
            continue;
        }
        let next = map.len();
        let new = map
            .entry(name.to_string())
            .or_insert_with(|| format!("{}{}", WORDS[rng.usize(..WORDS.len())], next))
            .clone();
        edits.push((n.byte_range(), new));
    }
    splice(text, edits)
}

fn reformat(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let mut out = String::new();
    if lang == Lang::Python {
        // Indentation four spaces → two (or tabs), blank lines added.
        let tab = rng.bool();
        for line in text.lines() {
            let lead = line.len() - line.trim_start().len();
            let unit = if tab {
                "\t".repeat(lead / 4)
            } else {
                "  ".repeat(lead / 4) + &" ".repeat(lead % 4)
            };
            out.push_str(&unit);
            out.push_str(line.trim_start());
            out.push('\n');
            if rng.u8(..8) == 0 {
                out.push('\n');
            }
        }
        return out;
    }
    // C-like: braces on their own lines, re-indented by depth, spaces squeezed.
    let width = [2, 3, 8][rng.usize(..3)];
    let mut depth: usize = 0;
    let allman = rng.bool();
    for raw in text.lines() {
        let line = raw.trim();
        let line = if allman && line.ends_with('{') && line.len() > 1 && !line.starts_with("//") {
            let head = line[..line.len() - 1].trim_end();
            out.push_str(&" ".repeat(width * depth));
            out.push_str(head);
            out.push('\n');
            "{"
        } else {
            line
        };
        let closes = line.starts_with('}') as usize;
        out.push_str(&" ".repeat(width * depth.saturating_sub(closes)));
        out.push_str(&line.replace(" = ", "=").replace(", ", ","));
        out.push('\n');
        let opens = line.matches('{').count();
        let shut = line.matches('}').count();
        depth = (depth + opens).saturating_sub(shut);
        if rng.u8(..6) == 0 {
            out.push('\n');
        }
    }
    out
}

fn comments(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    const SAYS: &[&str] = &[
        "check this",
        "the main step",
        "try every move",
        "update the board",
        "TODO: faster?",
        "done",
    ];
    let mark = if lang == Lang::Python { "#" } else { "//" };
    let mut out = String::new();
    for line in text.lines() {
        if rng.u8(..5) == 0 {
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(&format!("{indent}{mark} {}\n", SAYS[rng.usize(..SAYS.len())]));
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn is_function(kind: &str) -> bool {
    matches!(kind, "function_definition" | "function_item")
}

fn reorder(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let root = tree.root_node();
    let mut c = root.walk();
    let funcs: Vec<_> = root
        .children(&mut c)
        .filter(|n| is_function(n.kind()) || n.kind() == "decorated_definition")
        .collect();
    if funcs.len() < 2 {
        return text.to_string();
    }
    let mut order: Vec<usize> = (0..funcs.len()).collect();
    rng.shuffle(&mut order);
    let edits = funcs
        .iter()
        .zip(&order)
        .map(|(slot, &from)| (slot.byte_range(), text[funcs[from].byte_range()].to_string()))
        .collect();
    splice(text, edits)
}

fn for_as_while(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    if !matches!(lang, Lang::C | Lang::Cpp) {
        return spell_out(text, lang, &mut fastrand::Rng::with_seed(1));
    }
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let loops = nodes(&tree, &|n| {
        n.kind() == "for_statement"
            && n.child_by_field_name("initializer").is_some()
            && n.child_by_field_name("condition").is_some()
            && n.child_by_field_name("update").is_some()
    });
    let edits = loops
        .iter()
        .filter_map(|n| {
            let init = &text[n.child_by_field_name("initializer")?.byte_range()];
            let cond = &text[n.child_by_field_name("condition")?.byte_range()];
            let update = &text[n.child_by_field_name("update")?.byte_range()];
            let body = n.child_by_field_name("body")?;
            let inner = if body.kind() == "compound_statement" {
                let b = &text[body.byte_range()];
                b[1..b.len() - 1].to_string()
            } else {
                text[body.byte_range()].to_string()
            };
            if inner.contains("continue") {
                return None;
            }
            let init = init.trim_end_matches(';');
            Some((
                n.byte_range(),
                format!("{{ {init}; while ({cond}) {{ {inner} {update}; }} }}"),
            ))
        })
        .collect();
    splice(text, edits)
}

fn swap_branches(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let ifs = nodes(&tree, &|n| {
        n.kind() == "if_statement" && n.child_by_field_name("alternative").is_some()
    });
    let edits = ifs
        .iter()
        .filter_map(|n| {
            let cond = n.child_by_field_name("condition")?;
            let then = n.child_by_field_name("consequence")?;
            let alt = n.child_by_field_name("alternative")?;
            let mut c = alt.walk();
            let other = alt.named_children(&mut c).last()?;
            if other.kind() == "if_statement" || lang == Lang::Python {
                return None;
            }
            let t = |x: tree_sitter::Node| text[x.byte_range()].to_string();
            let c = t(cond);
            let c = c.trim_start_matches('(').trim_end_matches(')');
            Some((
                n.byte_range(),
                format!("if (!({c})) {} else {}", brace(&t(other)), brace(&t(then))),
            ))
        })
        .collect();
    splice(text, edits)
}

fn brace(s: &str) -> String {
    if s.trim_start().starts_with('{') {
        s.to_string()
    } else {
        format!("{{ {s} }}")
    }
}

fn spell_out(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let kinds = [
        "assignment_expression",
        "augmented_assignment",
        "compound_assignment_expr",
        "update_expression",
    ];
    let found = nodes(&tree, &|n| kinds.contains(&n.kind()));
    let edits = found
        .iter()
        .filter_map(|n| {
            let t = &text[n.byte_range()];
            if n.kind() == "update_expression" {
                let var = t.trim_matches(|c| c == '+' || c == '-');
                let op = if t.contains("++") { '+' } else { '-' };
                // Only as a statement of its own (its value unused).
                let parent = n.parent()?;
                if parent.kind() != "expression_statement" {
                    return None;
                }
                return Some((n.byte_range(), format!("{var} = {var} {op} 1")));
            }
            let left = &text[n.child_by_field_name("left")?.byte_range()];
            let right = &text[n.child_by_field_name("right")?.byte_range()];
            let op = &text[n
                .child_by_field_name("operator")
                .map(|o| o.byte_range())
                .unwrap_or(0..0)];
            let op = if op.is_empty() {
                t[left.len()..t.len() - right.len()].trim()
            } else {
                op
            };
            let bare = op
                .strip_suffix('=')
                .filter(|b| !b.is_empty() && !matches!(*b, "=" | "!" | "<" | ">"))?;
            Some((n.byte_range(), format!("{left} = {left} {bare} ({right})")))
        })
        .collect();
    splice(text, edits)
}

fn extract_helper(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    if !matches!(lang, Lang::C | Lang::Cpp) {
        return dead_code(text, lang, rng);
    }
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let loops = nodes(&tree, &|n| {
        matches!(n.kind(), "for_statement" | "while_statement")
            && n.parent().is_some_and(|p| p.kind() == "compound_statement")
    });
    let ok: Vec<_> = loops
        .into_iter()
        .filter(|n| {
            let t = &text[n.byte_range()];
            !t.contains("return") && !t.contains("break") && !t.contains("continue") && t.len() > 60
        })
        .collect();
    let Some(pick) = ok.get(rng.usize(..ok.len().max(1))).copied() else {
        return text.to_string();
    };
    let mut func = pick;
    while let Some(p) = func.parent() {
        if is_function(func.kind()) {
            break;
        }
        func = p;
    }
    if !is_function(func.kind()) {
        return text.to_string();
    }
    let body = &text[pick.byte_range()];
    let helper = format!("static void helper_step(void) {{\n    {body}\n}}\n\n");
    splice(
        text,
        vec![
            (pick.byte_range(), "helper_step();".to_string()),
            (func.start_byte()..func.start_byte(), helper),
        ],
    )
}

fn dead_code(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let bodies = nodes(&tree, &|n| {
        matches!(n.kind(), "compound_statement" | "block")
            && n.parent().is_some_and(|p| is_function(p.kind()))
    });
    let mut edits = Vec::new();
    for (k, b) in bodies.iter().enumerate() {
        if rng.u8(..3) == 0 {
            continue;
        }
        let stmt = match lang {
            Lang::C | Lang::Cpp => {
                format!(" int unused{k} = {k}; if (unused{k} > 100) {{ unused{k} = unused{k} * 2; }}")
            }
            Lang::Rust => {
                format!(" let unused{k} = {k}; if unused{k} > 100 {{ println!(\"{{}}\", unused{k} * 2); }}")
            }
            Lang::Python => {
                // After the `:` of a def, at the body's indentation.
                let first = b.named_child(0).map(|c| c.start_position().column).unwrap_or(4);
                let pad = " ".repeat(first);
                edits.push((
                    b.start_byte()..b.start_byte(),
                    format!(
                        "unused{k} = {k}\n{pad}if unused{k} > 100:\n{pad}    unused{k} = unused{k} * 2\n{pad}"
                    ),
                ));
                continue;
            }
        };
        edits.push((b.start_byte() + 1..b.start_byte() + 1, stmt));
    }
    splice(text, edits)
}

fn change_types(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let types = nodes(&tree, &|n| n.kind() == "primitive_type");
    let edits = types
        .iter()
        .filter_map(|n| {
            let new = match (&text[n.byte_range()], lang) {
                ("int", Lang::C | Lang::Cpp) => ["long", "long long", "int"][rng.usize(..3)],
                ("bool", Lang::Cpp) => "int",
                ("char", Lang::C | Lang::Cpp) => "short",
                ("i32", Lang::Rust) => "i64",
                ("u8", Lang::Rust) => "u16",
                _ => return None,
            };
            Some((n.byte_range(), new.to_string()))
        })
        .collect();
    if lang == Lang::Python {
        return spell_out(text, lang, rng);
    }
    splice(text, edits)
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
