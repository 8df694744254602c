//! The disguises of the labelled corpus's copies (`corpus`): each a
//! function that rewrites a program's text at nodes tree-sitter finds, so
//! the copies are programs a student could have written by hand. Light:
//! renaming, reformatting, comments. Medium: one structural rewrite
//! (functions or statements reordered, loops rewritten `for` <-> `while`,
//! branches inverted, compound assignments spelled out, a helper extracted
//! or inlined, dead code, types changed, macros). Heavy: renaming and
//! reformatting plus several structural rewrites.

use super::Lang;

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

mod more;

/// A disguise: a rewrite of a program's text (unchanged where it does not apply).
pub type Disguise = fn(&str, Lang, &mut fastrand::Rng) -> String;

/// Surface disguises.
pub const LIGHT: &[(&str, Disguise)] = &[("rename", rename), ("reformat", reformat), ("comments", comments)];

/// Structural disguises.
pub const MEDIUM: &[(&str, Disguise)] = &[
    ("reorder functions", reorder),
    ("reorder statements", reorder_statements),
    ("for as while", for_as_while),
    ("while as for", while_as_for),
    ("swap branches", swap_branches),
    ("spell out compound assignments", spell_out),
    ("extract a helper", extract_helper),
    ("inline a helper", inline_helper),
    ("dead code", dead_code),
    ("change types", change_types),
    ("macros", macros),
    ("swap operands", swap_operands),
    ("conditional expression", more::if_as_conditional),
    ("split expressions", more::split_expressions),
    ("fold temporaries", more::fold_temporaries),
    ("read input another way", more::read_another_way),
];

/// Structural disguises in a heavy copy, besides renaming, layout and dead code.
pub const HEAVY_REWRITES: usize = 5;

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
            let mut m: Vec<_> = MEDIUM
                .iter()
                .copied()
                .filter(|(n, _)| *n != "dead code")
                .collect();
            rng.shuffle(&mut m);
            let mut v: Vec<_> = m.into_iter().take(HEAVY_REWRITES).collect();
            v.extend(MEDIUM.iter().copied().filter(|(n, _)| *n == "dead code"));
            v.push(LIGHT[0]);
            v.push(LIGHT[1]);
            v
        }
        Level::Original | Level::Translation => vec![],
    };
    // Each rewrite needs a tree that tree-sitter parses as the compiler would:
    // dead code after the other rewrites (they would not touch it), renaming
    // then, macros after it (a macro's use hides a loop's parts from the
    // parser), comments and layout last.
    let rank = |n: &str| match n {
        "dead code" => 1,
        "rename" => 2,
        "macros" => 3,
        "comments" => 4,
        "reformat" => 5,
        _ => 0,
    };
    chosen.sort_by_key(|(n, _)| rank(n));
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
    // A tree with errors (a program that uses macros the parser cannot see
    // through) would place the rewrites wrongly: such a program is left as it is.
    p.parse(text, None).filter(|t| !t.root_node().has_error())
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
    // Not a macro's parameters: its body is raw text, not renamed.
    let ids = nodes(&tree, &|n| {
        matches!(n.kind(), "identifier" | "field_identifier")
            && n.parent().is_none_or(|p| p.kind() != "preproc_params")
    });
    // Nor a macro's name, or a name its body (raw text) uses.
    let in_macros: std::collections::HashSet<&str> = nodes(&tree, &|n| {
        matches!(n.kind(), "preproc_def" | "preproc_function_def")
    })
    .iter()
    .flat_map(|d| {
        let name = d.child_by_field_name("name").map(|n| &text[n.byte_range()]);
        let body = d
            .child_by_field_name("value")
            .map_or("", |v| &text[v.byte_range()]);
        body.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .chain(name)
    })
    .collect();
    let mut map: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    const WORDS: &[&str] = &[
        "alpha", "beta", "gamma", "delta", "tmp", "val", "node", "grid", "cell", "item", "res", "cnt", "idx",
        "aux", "foo", "bar",
    ];
    let mut edits = Vec::new();
    for n in ids {
        let name = &text[n.byte_range()];
        if KEEP.contains(&name) || in_macros.contains(name) || name.len() <= 1 && rng.bool() {
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
        return counted_as_while(text, lang);
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

/// `if c A else B` as `if !c B else A` (not where `else` holds another `if`).
fn swap_branches(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let ifs = nodes(&tree, &|n| {
        matches!(n.kind(), "if_statement" | "if_expression") && n.child_by_field_name("alternative").is_some()
    });
    let edits = ifs
        .iter()
        .filter_map(|n| {
            let cond = n.child_by_field_name("condition")?;
            let then = n.child_by_field_name("consequence")?;
            let t = |x: tree_sitter::Node| text[x.byte_range()].to_string();
            let c = t(cond);
            if lang == Lang::Python {
                let mut w = n.walk();
                let alts: Vec<_> = n.children_by_field_name("alternative", &mut w).collect();
                let [alt] = alts[..] else { return None };
                if alt.kind() != "else_clause" {
                    return None;
                }
                let other = alt.child_by_field_name("body")?;
                let pad = " ".repeat(n.start_position().column);
                let (pt, po) = (
                    " ".repeat(then.start_position().column),
                    " ".repeat(other.start_position().column),
                );
                return Some((
                    n.byte_range(),
                    format!("if not ({c}):\n{po}{}\n{pad}else:\n{pt}{}", t(other), t(then)),
                ));
            }
            let alt = n.child_by_field_name("alternative")?;
            let mut w = alt.walk();
            let other = alt.named_children(&mut w).last()?;
            if matches!(other.kind(), "if_statement" | "if_expression") {
                return None;
            }
            let c = c
                .strip_prefix('(')
                .and_then(|c| c.strip_suffix(')'))
                .unwrap_or(&c);
            let head = if lang == Lang::Rust {
                format!("if !({c})")
            } else {
                format!("if (!({c}))")
            };
            Some((
                n.byte_range(),
                format!("{head} {} else {}", brace(&t(other)), brace(&t(then))),
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

/// Statements that do nothing, each between two statements of a block
/// with a chance of one in three.
fn dead_code(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let stmts = nodes(&tree, &|n| {
        n.is_named()
            && n.kind() != "comment"
            && n.parent()
                .is_some_and(|p| matches!(p.kind(), "compound_statement" | "block"))
            && !matches!(n.kind(), "{" | "}")
    });
    let mut edits = Vec::new();
    for (k, s) in stmts.iter().enumerate() {
        if rng.u8(..3) != 0
            || lang == Lang::Rust
                && s.parent()
                    .and_then(|p| p.named_child(p.named_child_count().saturating_sub(1) as u32))
                    == Some(*s)
        {
            continue;
        }
        let pad = " ".repeat(s.start_position().column);
        let v = format!("unused{k}");
        let stmt = match (lang, rng.u8(..4)) {
            (Lang::C | Lang::Cpp, 0) => format!("int {v} = {k};"),
            (Lang::C | Lang::Cpp, 1) => format!("if ({k} > 1000) {{ int {v} = 0; {v}++; }}"),
            (Lang::C | Lang::Cpp, 2) => format!("{{ int {v} = {k} * 2; (void){v}; }}"),
            (Lang::C | Lang::Cpp, _) => format!("for (int {v} = 0; {v} < 0; {v}++) {{ }}"),
            (Lang::Rust, 0) => format!("let _{v} = {k};"),
            (Lang::Rust, 1) => format!("if {k} > 1000 {{ let _{v} = 0; }}"),
            (Lang::Rust, 2) => format!("let mut _{v} = {k} * 2; _{v} += 1;"),
            (Lang::Rust, _) => format!("for _{v} in 0..0 {{}}"),
            (Lang::Python, 0) => format!("{v} = {k}"),
            (Lang::Python, 1) => format!("if {k} > 1000:\n{pad}    {v} = 0"),
            (Lang::Python, 2) => format!("{v} = [{k}] * 2"),
            (Lang::Python, _) => format!("for {v} in range(0):\n{pad}    pass"),
        };
        edits.push((s.start_byte()..s.start_byte(), format!("{stmt}\n{pad}")));
    }
    splice(text, edits)
}

/// Statements that can be swapped with the next: simple ones that share no name.
fn reorder_statements(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let blocks = nodes(&tree, &|n| {
        matches!(
            n.kind(),
            "compound_statement" | "block" | "translation_unit" | "module" | "source_file"
        )
    });
    let names = |n: tree_sitter::Node| -> std::collections::HashSet<String> {
        nodes_under(n, &|k| k.kind() == "identifier")
            .into_iter()
            .map(|k| text[k.byte_range()].to_string())
            .collect()
    };
    let simple = |n: &tree_sitter::Node| {
        matches!(
            n.kind(),
            "declaration" | "expression_statement" | "let_declaration"
        ) && !text[n.byte_range()].contains('\n')
    };
    let mut edits = Vec::new();
    for b in blocks {
        let mut c = b.walk();
        let kids: Vec<_> = b
            .named_children(&mut c)
            .filter(|k| k.kind() != "comment")
            .collect();
        let mut i = 0;
        while i + 1 < kids.len() {
            let (x, y) = (kids[i], kids[i + 1]);
            if simple(&x) && simple(&y) && names(x).is_disjoint(&names(y)) && rng.u8(..4) != 0 {
                edits.push((x.byte_range(), text[y.byte_range()].to_string()));
                edits.push((y.byte_range(), text[x.byte_range()].to_string()));
                i += 2;
            } else {
                i += 1;
            }
        }
    }
    splice(text, edits)
}

/// Every node under `root` (itself included) for which `keep` holds.
fn nodes_under<'t>(
    root: tree_sitter::Node<'t>,
    keep: &dyn Fn(tree_sitter::Node) -> bool,
) -> Vec<tree_sitter::Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if keep(n) {
            out.push(n);
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

/// Python's `for v in range(a, b):` and Rust's `for v in a..b` as `while`
/// loops with their own counter (those without `continue`).
fn counted_as_while(text: &str, lang: Lang) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let loops = nodes(&tree, &|n| matches!(n.kind(), "for_statement" | "for_expression"));
    let edits = loops
        .iter()
        .filter_map(|n| {
            let (var, value) = super::tokens::for_in_parts(*n)?;
            let body = n.child_by_field_name("body")?;
            if var.kind() != "identifier" || text[body.byte_range()].contains("continue") {
                return None;
            }
            let v = &text[var.byte_range()];
            let (from, to) = bounds(text, value)?;
            if lang == Lang::Python {
                if n.child_by_field_name("alternative").is_some() {
                    return None;
                }
                let pad = " ".repeat(n.start_position().column);
                let inner = " ".repeat(body.start_position().column);
                let b = &text[body.byte_range()];
                return Some((
                    n.byte_range(),
                    format!("{v} = {from}\n{pad}while {v} < {to}:\n{inner}{b}\n{inner}{v} += 1"),
                ));
            }
            let b = &text[body.byte_range()];
            let inner = &b[1..b.len() - 1];
            Some((
                n.byte_range(),
                format!("{{ let mut {v} = {from}; while {v} < {to} {{ {inner} {v} += 1; }} }}"),
            ))
        })
        .collect();
    splice(text, edits)
}

/// The start and end of `range(a, b)`, `range(b)` or `a..b`.
fn bounds(text: &str, value: tree_sitter::Node) -> Option<(String, String)> {
    let t = |n: tree_sitter::Node| text[n.byte_range()].to_string();
    let mut c = value.walk();
    match value.kind() {
        "range_expression" => {
            let parts: Vec<_> = value.named_children(&mut c).collect();
            match parts[..] {
                [a, b] if !text[value.byte_range()].contains("..=") => Some((t(a), t(b))),
                _ => None,
            }
        }
        "call" if t(value.child_by_field_name("function")?) == "range" => {
            let args = value.child_by_field_name("arguments")?;
            let mut c = args.walk();
            let parts: Vec<_> = args.named_children(&mut c).collect();
            match parts[..] {
                [b] => Some(("0".to_string(), t(b))),
                [a, b] => Some((t(a), t(b))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `while (c)` as `for (; c; )` in C and C++; `while c` as a loop that
/// breaks in Python and Rust.
fn while_as_for(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let loops = nodes(&tree, &|n| {
        matches!(n.kind(), "while_statement" | "while_expression")
    });
    let edits = loops
        .iter()
        .filter_map(|n| {
            let cond = n.child_by_field_name("condition")?;
            let body = n.child_by_field_name("body")?;
            let c = text[cond.byte_range()].trim();
            let b = &text[body.byte_range()];
            match lang {
                Lang::C | Lang::Cpp => {
                    let c = c.strip_prefix('(')?.strip_suffix(')')?;
                    Some((n.byte_range(), format!("for (; {c}; ) {b}")))
                }
                Lang::Rust => {
                    if c.starts_with("let ") {
                        return None;
                    }
                    let inner = &b[1..b.len() - 1];
                    Some((
                        n.byte_range(),
                        format!("loop {{ if !({c}) {{ break; }} {inner} }}"),
                    ))
                }
                Lang::Python => {
                    if n.child_by_field_name("alternative").is_some() {
                        return None;
                    }
                    let inner = " ".repeat(body.start_position().column);
                    Some((
                        n.byte_range(),
                        format!("while True:\n{inner}if not ({c}):\n{inner}    break\n{inner}{b}"),
                    ))
                }
            }
        })
        .collect();
    splice(text, edits)
}

/// A function without `return` whose every use is a call statement:
/// its body written at each call, its parameters replaced by the arguments.
fn inline_helper(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    if lang == Lang::Python {
        return reorder_statements(text, lang, rng);
    }
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let root = tree.root_node();
    let mut c = root.walk();
    let mut funcs: Vec<_> = root
        .named_children(&mut c)
        .filter(|n| is_function(n.kind()))
        .collect();
    rng.shuffle(&mut funcs);
    let ids = nodes(&tree, &|n| n.kind() == "identifier");
    for f in funcs {
        if let Some(edits) = inline_edits(text, f, &ids) {
            return splice(text, edits);
        }
    }
    text.to_string()
}

fn inline_edits(
    text: &str,
    f: tree_sitter::Node,
    ids: &[tree_sitter::Node],
) -> Option<Vec<(std::ops::Range<usize>, String)>> {
    let declarator = f.child_by_field_name("declarator");
    let name_node = match declarator {
        Some(d) => d.child_by_field_name("declarator")?,
        None => f.child_by_field_name("name")?,
    };
    let name = &text[name_node.byte_range()];
    let body = f.child_by_field_name("body")?;
    let body_text = &text[body.byte_range()];
    if name == "main"
        || body_text.contains("return")
        || f.child_by_field_name("return_type")
            .is_some_and(|r| lang_returns(&text[r.byte_range()]))
    {
        return None;
    }
    let params_node = declarator
        .and_then(|d| d.child_by_field_name("parameters"))
        .or_else(|| f.child_by_field_name("parameters"))?;
    let params: Vec<String> = {
        let mut c = params_node.walk();
        params_node
            .named_children(&mut c)
            .filter_map(|p| {
                let under = p
                    .child_by_field_name("declarator")
                    .or_else(|| p.child_by_field_name("pattern"))?;
                nodes_under(under, &|k| k.kind() == "identifier")
                    .last()
                    .map(|k| text[k.byte_range()].to_string())
            })
            .collect()
    };
    let uses: Vec<_> = ids
        .iter()
        .filter(|n| &text[n.byte_range()] == name && n.byte_range() != name_node.byte_range())
        .collect();
    if uses.is_empty() {
        return None;
    }
    let mut edits = vec![(f.byte_range(), String::new())];
    for u in uses {
        if u.start_byte() >= f.start_byte() && u.end_byte() <= f.end_byte() {
            return None;
        }
        let call = u.parent().filter(|p| p.kind() == "call_expression")?;
        let stmt = call.parent().filter(|p| p.kind() == "expression_statement")?;
        let args = call.child_by_field_name("arguments")?;
        let mut c = args.walk();
        let args: Vec<String> = args
            .named_children(&mut c)
            .map(|a| text[a.byte_range()].to_string())
            .collect();
        if args.len() != params.len() {
            return None;
        }
        let local = nodes_under(body, &|k| k.kind() == "identifier");
        let subst = local
            .iter()
            .filter_map(|k| {
                let i = params.iter().position(|p| p == &text[k.byte_range()])?;
                Some((
                    k.start_byte() - body.start_byte()..k.end_byte() - body.start_byte(),
                    format!("({})", args[i]),
                ))
            })
            .collect();
        edits.push((stmt.byte_range(), splice(body_text, subst)));
    }
    Some(edits)
}

/// Whether a C return type gives a value.
fn lang_returns(ty: &str) -> bool {
    ty.trim() != "void"
}

/// Operands of comparisons, `==`, `+` and `*` swapped (`x > 0` as `0 < x`),
/// each with a chance of one in two.
fn swap_operands(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let ops = nodes(&tree, &|n| {
        matches!(
            n.kind(),
            "binary_expression" | "binary_operator" | "comparison_operator"
        ) && n.named_child_count() == 2
    });
    let flip = |op: &str| -> Option<&'static str> {
        Some(match op {
            "==" => "==",
            "!=" => "!=",
            "+" => "+",
            "*" => "*",
            "<" => ">",
            ">" => "<",
            "<=" => ">=",
            ">=" => "<=",
            _ => return None,
        })
    };
    let edits = ops
        .iter()
        .filter_map(|n| {
            let (l, r) = (n.named_child(0)?, n.named_child(1)?);
            let op = text[l.end_byte()..r.start_byte()].trim();
            let new = flip(op)?;
            if !rng.bool() || text[n.byte_range()].contains('\n') {
                return None;
            }
            let t = |x: tree_sitter::Node| &text[x.byte_range()];
            Some((n.byte_range(), format!("{} {new} {}", t(r), t(l))))
        })
        .collect();
    splice(text, edits)
}

/// C and C++ counted loops written with a `FOR` macro, as some contestants do.
fn macros(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    if !matches!(lang, Lang::C | Lang::Cpp) {
        return counted_as_while(text, lang);
    }
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let name = ["FOR", "rep", "REP", "F"][rng.usize(..4)];
    let loops = nodes(&tree, &|n| n.kind() == "for_statement");
    let mut edits: Vec<_> = loops
        .iter()
        .filter_map(|n| {
            let init = n.child_by_field_name("initializer")?;
            let cond = n.child_by_field_name("condition")?;
            let update = n.child_by_field_name("update")?;
            let body = n.child_by_field_name("body")?;
            if init.kind() != "declaration" || cond.kind() != "binary_expression" {
                return None;
            }
            let d = init.child_by_field_name("declarator")?;
            let var = &text[d.child_by_field_name("declarator")?.byte_range()];
            let from = &text[d.child_by_field_name("value")?.byte_range()];
            let left = &text[cond.child_by_field_name("left")?.byte_range()];
            let op = &text[cond.child_by_field_name("operator")?.byte_range()];
            let to = &text[cond.child_by_field_name("right")?.byte_range()];
            let up = text[update.byte_range()].replace(' ', "");
            if left != var || op != "<" || !(up == format!("{var}++") || up == format!("++{var}")) {
                return None;
            }
            Some((
                n.start_byte()..body.start_byte(),
                format!("{name}({var}, {from}, {to}) "),
            ))
        })
        .collect();
    if edits.is_empty() {
        return text.to_string();
    }
    edits.push((
        0..0,
        format!("#define {name}(i, a, b) for (int i = (a); i < (b); ++i)\n"),
    ));
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
