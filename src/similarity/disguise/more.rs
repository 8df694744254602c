//! The disguises a heavily disguised copy of a real class stacks beyond
//! renaming and moving code: `if`/`else` as a conditional expression or a
//! `match`, long expressions split into temporaries or temporaries folded
//! into their one use, and the input read another way.

use super::{Lang, nodes, parse, splice};

type Edit = (std::ops::Range<usize>, String);

/// The one statement of a branch (`{ s; }` or `s;`), if it has one.
fn only_statement(n: tree_sitter::Node) -> Option<tree_sitter::Node> {
    if matches!(n.kind(), "compound_statement" | "block") {
        return (n.named_child_count() == 1).then(|| n.named_child(0)).flatten();
    }
    Some(n)
}

/// `x = a` or `return a` of a statement: (`x` or "return", `a`).
fn assigns<'a>(text: &'a str, s: tree_sitter::Node) -> Option<(&'a str, &'a str)> {
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    match s.kind() {
        "return_statement" => Some(("return", t(s.named_child(0)?))),
        "expression_statement" => {
            let e = s.named_child(0)?;
            if !matches!(e.kind(), "assignment_expression" | "assignment") {
                return None;
            }
            let op = text
                [e.child_by_field_name("left")?.end_byte()..e.child_by_field_name("right")?.start_byte()]
                .trim();
            (op == "=").then_some((
                t(e.child_by_field_name("left")?),
                t(e.child_by_field_name("right")?),
            ))
        }
        _ => None,
    }
}

/// `if (c) x = a; else x = b;` as `x = c ? a : b;` (and `return`), in
/// Python as `x = a if c else b`; in Rust every `if c {A} else {B}`
/// statement as `match c { true => {A} false => {B} }`.
pub fn if_as_conditional(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let ifs = nodes(&tree, &|n| matches!(n.kind(), "if_statement" | "if_expression"));
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    let edits: Vec<Edit> = ifs
        .iter()
        .filter_map(|n| {
            let cond = n.child_by_field_name("condition")?;
            let then = n.child_by_field_name("consequence")?;
            let mut w = n.walk();
            let alts: Vec<_> = n.children_by_field_name("alternative", &mut w).collect();
            if alts.is_empty() && lang != Lang::Rust {
                // `if (c) x = a;` as `x = c ? a : x;`.
                let (x, a) = assigns(text, only_statement(then)?)?;
                if x == "return"
                    || n.parent()
                        .is_some_and(|p| !matches!(p.kind(), "compound_statement" | "block"))
                {
                    return None;
                }
                let c = t(cond);
                let c = c.strip_prefix('(').and_then(|c| c.strip_suffix(')')).unwrap_or(c);
                return Some(match lang {
                    Lang::Python => (n.byte_range(), format!("{x} = {a} if {c} else {x}")),
                    _ => (n.byte_range(), format!("{x} = ({c}) ? {a} : {x};")),
                });
            }
            let [alt] = alts[..] else { return None };
            let other = match alt.kind() {
                "else_clause" => alt.child_by_field_name("body").or_else(|| alt.named_child(0))?,
                _ => alt,
            };
            if matches!(other.kind(), "if_statement" | "if_expression") {
                return None;
            }
            if lang == Lang::Rust {
                let in_statement = n.parent().is_some_and(|p| p.kind() == "expression_statement");
                return in_statement.then(|| {
                    (
                        n.byte_range(),
                        format!(
                            "match {} {{ true => {}, false => {} }}",
                            t(cond),
                            t(then),
                            t(other)
                        ),
                    )
                });
            }
            let (x, a) = assigns(text, only_statement(then)?)?;
            let (y, b) = assigns(text, only_statement(other)?)?;
            if x != y {
                return None;
            }
            let c = t(cond);
            let c = c.strip_prefix('(').and_then(|c| c.strip_suffix(')')).unwrap_or(c);
            let value = match lang {
                Lang::Python => format!("{a} if {c} else {b}"),
                _ => format!("({c}) ? {a} : {b}"),
            };
            let end = if lang == Lang::Python { "" } else { ";" };
            Some(match x {
                "return" => (n.byte_range(), format!("return {value}{end}")),
                _ => (n.byte_range(), format!("{x} = {value}{end}")),
            })
        })
        .collect();
    splice(text, edits)
}

/// The statements of blocks whose value or condition has an operand worth
/// a name of its own: (statement, the operand).
fn long_operands(tree: &tree_sitter::Tree) -> Vec<(tree_sitter::Node<'_>, tree_sitter::Node<'_>)> {
    let stmts = nodes(tree, &|n| {
        matches!(
            n.kind(),
            "expression_statement" | "declaration" | "let_declaration" | "return_statement" | "if_statement"
        ) && n
            .parent()
            .is_some_and(|p| matches!(p.kind(), "compound_statement" | "block"))
    });
    let binary = |n: tree_sitter::Node| {
        matches!(
            n.kind(),
            "binary_expression" | "binary_operator" | "boolean_operator" | "comparison_operator"
        )
    };
    stmts
        .into_iter()
        .filter_map(|s| {
            let value = match s.kind() {
                "if_statement" => s.child_by_field_name("condition")?,
                "declaration" => s
                    .child_by_field_name("declarator")?
                    .child_by_field_name("value")?,
                "let_declaration" => s.child_by_field_name("value")?,
                "return_statement" => s.named_child(0)?,
                _ => {
                    let e = s.named_child(0)?;
                    e.child_by_field_name("right")?
                }
            };
            let mut top = value;
            while matches!(top.kind(), "parenthesized_expression" | "condition_clause") {
                top = top.named_child(0)?;
            }
            // The left operand: evaluated first, and always (`&&` may skip the right).
            let left = top
                .child_by_field_name("left")
                .or_else(|| binary(top).then(|| top.named_child(0)).flatten())?;
            let ok = binary(left) && left.end_byte() - left.start_byte() >= 6;
            ok.then_some((s, left))
        })
        .collect()
}

/// A long expression split: its left operand computed first into a
/// temporary of its own, on the line before.
pub fn split_expressions(text: &str, lang: Lang, rng: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    let mut edits: Vec<Edit> = Vec::new();
    for (k, (s, left)) in long_operands(&tree).into_iter().enumerate() {
        if rng.u8(..3) == 0 || t(left).contains("++") || t(left).contains("--") || t(left).contains('\n') {
            continue;
        }
        let name = format!("part{k}");
        let pad = " ".repeat(s.start_position().column);
        let decl = match lang {
            Lang::C => format!("int {name} = {};\n{pad}", t(left)),
            Lang::Cpp => format!("auto {name} = {};\n{pad}", t(left)),
            Lang::Python => format!("{name} = {}\n{pad}", t(left)),
            Lang::Rust => format!("let {name} = {};\n{pad}", t(left)),
        };
        edits.push((s.start_byte()..s.start_byte(), decl));
        edits.push((left.byte_range(), name));
    }
    splice(text, edits)
}

/// A temporary used once, in the next statement, folded into it.
pub fn fold_temporaries(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    let ids = nodes(&tree, &|n| n.kind() == "identifier");
    let decls = nodes(&tree, &|n| {
        matches!(
            n.kind(),
            "declaration" | "let_declaration" | "expression_statement"
        ) && n
            .parent()
            .is_some_and(|p| matches!(p.kind(), "compound_statement" | "block"))
    });
    let mut edits: Vec<Edit> = Vec::new();
    for d in decls {
        let (name, value) = match d.kind() {
            "declaration" => {
                let Some(init) = d.child_by_field_name("declarator") else {
                    continue;
                };
                if d.named_children(&mut d.walk())
                    .filter(|c| c.kind() == "init_declarator")
                    .count()
                    != 1
                {
                    continue;
                }
                (
                    init.child_by_field_name("declarator"),
                    init.child_by_field_name("value"),
                )
            }
            "let_declaration" => (d.child_by_field_name("pattern"), d.child_by_field_name("value")),
            _ => match d.named_child(0).filter(|e| e.kind() == "assignment") {
                Some(e) => (e.child_by_field_name("left"), e.child_by_field_name("right")),
                None => continue,
            },
        };
        let (Some(name), Some(value), Some(next)) = (name, value, d.next_named_sibling()) else {
            continue;
        };
        if name.kind() != "identifier" || t(value).contains('\n') || t(value).contains("++") {
            continue;
        }
        let uses: Vec<_> = ids.iter().filter(|i| t(**i) == t(name)).collect();
        let in_next: Vec<_> = uses
            .iter()
            .filter(|i| i.start_byte() >= next.start_byte() && i.end_byte() <= next.end_byte())
            .collect();
        if uses.len() != 2
            || in_next.len() != 1
            || matches!(next.kind(), "return_statement") && lang == Lang::Rust
        {
            continue;
        }
        edits.push((d.start_byte()..next.start_byte(), String::new()));
        edits.push((in_next[0].byte_range(), format!("({})", t(value))));
    }
    splice(text, edits)
}

/// A C reader of integers over `getchar`, for `scanf` rewritten.
const READER: &str = "static int read_int(void) {\n    int c = getchar(), x = 0, s = 1;\n    while (c != '-' && (c < '0' || c > '9')) {\n        if (c == EOF) return 0;\n        c = getchar();\n    }\n    if (c == '-') { s = -1; c = getchar(); }\n    while (c >= '0' && c <= '9') { x = x * 10 + c - '0'; c = getchar(); }\n    return x * s;\n}\n\n";

/// The input read another way: `cin >> a >> b` as `scanf`, `scanf` of
/// integers as a reader over `getchar`, Python's line reads (`input()`) as
/// one read of the whole input.
pub fn read_another_way(text: &str, lang: Lang, _: &mut fastrand::Rng) -> String {
    let Some(tree) = parse(text, lang) else {
        return text.to_string();
    };
    let edits = match lang {
        Lang::Cpp => cin_as_scanf(text, &tree),
        Lang::C => scanf_as_reader(text, &tree),
        Lang::Python => line_reads_as_one_read(text, &tree),
        Lang::Rust => Vec::new(),
    };
    splice(text, edits)
}

/// C++: each whole `cin >> a >> b` (of plain targets) as
/// `scanf("%d%d", &a, &b)`, compared with the count where its value is
/// used, and `<cstdio>` included if nothing includes it yet.
fn cin_as_scanf(text: &str, tree: &tree_sitter::Tree) -> Vec<Edit> {
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    let mut edits: Vec<Edit> = Vec::new();
    let reads = nodes(tree, &|n| {
        n.kind() == "binary_expression"
            && t(n).starts_with("cin")
            && n.parent()
                .is_none_or(|p| p.kind() != "binary_expression" || !t(p).starts_with("cin"))
    });
    for r in reads {
        let targets: Vec<&str> = t(r).split(">>").skip(1).map(str::trim).collect();
        if targets.iter().any(|x| x.is_empty() || x.contains('(')) {
            continue;
        }
        let args: Vec<String> = targets.iter().map(|x| format!("&{x}")).collect();
        let call = format!("scanf(\"{}\", {})", "%d".repeat(args.len()), args.join(", "));
        let statement = r.parent().is_some_and(|p| p.kind() == "expression_statement");
        edits.push((
            r.byte_range(),
            if statement {
                call
            } else {
                format!("({call} == {})", args.len())
            },
        ));
    }
    if !edits.is_empty() && !text.contains("<cstdio>") && !text.contains("bits/stdc++") {
        edits.push((0..0, "#include <cstdio>\n".to_string()));
    }
    edits
}

/// C: each `scanf` of only `%d` into `&x` targets as `x = read_int()`
/// assignments (a comma expression yielding the count where its value is
/// used), and [`READER`] put before the first function.
fn scanf_as_reader(text: &str, tree: &tree_sitter::Tree) -> Vec<Edit> {
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    let calls = nodes(tree, &|n| {
        n.kind() == "call_expression" && n.child_by_field_name("function").is_some_and(|f| t(f) == "scanf")
    });
    let mut edits: Vec<Edit> = calls
        .into_iter()
        .filter_map(|c| scanf_as_reads(text, c))
        .collect();
    let first = tree
        .root_node()
        .named_children(&mut tree.root_node().walk())
        .find(|n| n.kind() == "function_definition");
    if let (false, Some(f)) = (edits.is_empty(), first) {
        edits.push((f.start_byte()..f.start_byte(), READER.to_string()));
    }
    edits
}

/// One C `scanf` call as `x = read_int()` assignments, or `None` if it
/// reads anything but `%d` into `&x` targets.
fn scanf_as_reads(text: &str, c: tree_sitter::Node) -> Option<Edit> {
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    let args = c.child_by_field_name("arguments")?;
    let parts: Vec<_> = args.named_children(&mut args.walk()).collect();
    let (fmt, targets) = parts.split_first()?;
    let specs = t(*fmt).matches('%').count();
    if specs != targets.len()
        || !t(*fmt)
            .replace("%d", "")
            .trim_matches(|c| c == '"' || c == ' ')
            .is_empty()
    {
        return None;
    }
    let vars = targets
        .iter()
        .map(|a| t(*a).strip_prefix('&'))
        .collect::<Option<Vec<_>>>()?;
    let assigns: Vec<String> = vars.iter().map(|v| format!("{v} = read_int()")).collect();
    let statement = c.parent().is_some_and(|p| p.kind() == "expression_statement");
    let new = if statement {
        assigns.join("; ")
    } else {
        format!("({}, {})", assigns.join(", "), vars.len())
    };
    Some((c.byte_range(), new))
}

/// Python: each `input()` or `sys.stdin.readline()` as `next(_lines)`, over
/// the whole input read once at the top.
fn line_reads_as_one_read(text: &str, tree: &tree_sitter::Tree) -> Vec<Edit> {
    let t = |n: tree_sitter::Node| &text[n.byte_range()];
    let calls = nodes(tree, &|n| {
        n.kind() == "call"
            && n.child_by_field_name("function")
                .is_some_and(|f| matches!(t(f), "input" | "sys.stdin.readline"))
    });
    let mut edits: Vec<Edit> = calls
        .into_iter()
        .map(|c| (c.byte_range(), "next(_lines)".to_string()))
        .collect();
    if !edits.is_empty() {
        edits.push((
            0..0,
            "import sys\n_lines = iter(sys.stdin.read().split(\"\\n\"))\n".to_string(),
        ));
    }
    edits
}
