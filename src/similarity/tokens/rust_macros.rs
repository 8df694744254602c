//! Rust's `macro_rules!` macros written out where they are used, before the
//! program is parsed again: tree-sitter reads a macro's arguments as a bare
//! token tree, so a copy that hides its loops behind `each_cell!(x, y, {
//! ... })` would otherwise write none of the loops and branches inside.
//!
//! Rules of the common shape are expanded: a matcher of `$name:fragment`s
//! and literal tokens (no `$(...)*` repetition), a transcriber without
//! repetition. A fragment that is one token tree (`ident`, `tt`, `block`,
//! `literal`, `lifetime`) takes one; any other takes the token trees up to
//! the matcher's next literal. A use no rule matches is left as written.
//! An expansion is written on the use's first line (its line breaks after
//! it), so tokens keep the lines of the text as written. Bounded by the
//! source's size as C macros are ([`super::macros::budget`] of text
//! written, at most [`MAX_DEPTH`] rounds), and so is the reading of rules
//! tried against uses (`Spend`).

use std::collections::HashMap;

/// How many rounds of expansion (a macro using another) are made.
const MAX_DEPTH: usize = 4;

/// One rule: its matcher's parts and its transcriber's text.
struct Rule {
    matcher: Vec<Part>,
    transcriber: String,
}

impl Rule {
    /// What reading it once costs, in bytes.
    fn size(&self) -> usize {
        let part = |p: &Part| match p {
            Part::Var(n, f) => n.len() + f.len(),
            Part::Literal(l) => l.len(),
        };
        self.matcher.iter().map(part).sum::<usize>() + self.transcriber.len()
    }
}

/// A part of a matcher.
#[derive(Debug, PartialEq)]
enum Part {
    /// `$name:fragment`.
    Var(String, String),
    /// A token to be matched as written.
    Literal(String),
}

/// `source` with its `macro_rules!` macros written out, or `None` where it
/// uses none that can be.
pub fn expand(source: &str, grammar: &tree_sitter::Language) -> Option<String> {
    expand_counted(source, grammar).0
}

/// What an expansion may still spend, and what it has: bytes it writes
/// (every expansion's text together), and bytes it reads trying rules
/// (each try costs its arguments, its matcher and its transcriber), each
/// at most [`super::macros::budget`] of the source; a macro with thousands
/// of rules used thousands of times would otherwise cost their product.
struct Spend {
    write_left: usize,
    try_left: usize,
    /// Every byte parsed, tried and written so far (what the tests bound).
    work: usize,
}

/// [`expand`], and the work it took.
fn expand_counted(source: &str, grammar: &tree_sitter::Language) -> (Option<String>, usize) {
    // Most programs define no macro: not parsed here as well as by the caller.
    if !source.contains("macro_rules") {
        return (None, source.len());
    }
    let mut parser = tree_sitter::Parser::new();
    if parser.set_language(grammar).is_err() {
        return (None, 0);
    }
    let budget = super::macros::budget(source.len());
    let mut spend = Spend {
        write_left: budget,
        try_left: budget,
        work: 0,
    };
    let mut text = source.to_string();
    let mut changed = false;
    for _ in 0..MAX_DEPTH {
        spend.work += text.len();
        let Some(tree) = parser.parse(&text, None) else {
            break;
        };
        let rules = definitions(tree.root_node(), text.as_bytes());
        if rules.is_empty() {
            break;
        }
        let uses = uses(tree.root_node(), text.as_bytes(), &rules);
        let Some(next) = rewrite(&text, &uses, &rules, &mut spend) else {
            break;
        };
        text = next;
        changed = true;
    }
    (changed.then_some(text), spend.work)
}

/// The macros defined in the tree: each one's rules.
fn definitions(root: tree_sitter::Node, src: &[u8]) -> HashMap<String, Vec<Rule>> {
    let mut out = HashMap::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "macro_definition" {
            if let Some(name) = node.child_by_field_name("name") {
                let rules = rules(node, src);
                if !rules.is_empty() {
                    out.insert(text(name, src).to_string(), rules);
                }
            }
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out
}

fn rules(definition: tree_sitter::Node, src: &[u8]) -> Vec<Rule> {
    let mut cursor = definition.walk();
    definition
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "macro_rule")
        .filter_map(|rule| {
            let left = inner(text(rule.child_by_field_name("left")?, src));
            let right = inner(text(rule.child_by_field_name("right")?, src));
            if right.contains("$(") {
                return None;
            }
            Some(Rule {
                matcher: matcher(left)?,
                transcriber: right.to_string(),
            })
        })
        .collect()
}

/// A matcher's parts, or `None` for one this module does not expand
/// (a repetition).
fn matcher(pattern: &str) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    let trees = token_trees(pattern);
    let mut i = 0;
    while i < trees.len() {
        let t = trees[i];
        if t == "$" {
            let name = trees.get(i + 1)?;
            if name.starts_with('(') {
                return None;
            }
            let (colon, frag) = (trees.get(i + 2)?, trees.get(i + 3)?);
            if *colon != ":" {
                return None;
            }
            parts.push(Part::Var(name.to_string(), frag.to_string()));
            i += 4;
        } else {
            parts.push(Part::Literal(t.to_string()));
            i += 1;
        }
    }
    Some(parts)
}

/// The macro uses in the tree, outermost only: (byte range, name, the
/// arguments' text without their delimiters).
fn uses<'a>(
    root: tree_sitter::Node,
    src: &'a [u8],
    rules: &HashMap<String, Vec<Rule>>,
) -> Vec<(std::ops::Range<usize>, String, &'a str)> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "macro_definition" {
            continue;
        }
        if node.kind() == "macro_invocation"
            && let Some(name) = node.child_by_field_name("macro")
            && rules.contains_key(text(name, src))
            && let Some(args) = node.named_child(node.named_child_count().saturating_sub(1) as u32)
            && args.kind() == "token_tree"
        {
            out.push((
                node.byte_range(),
                text(name, src).to_string(),
                inner(text(args, src)),
            ));
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out.sort_by_key(|(r, _, _)| r.start);
    out
}

/// The text with each use written out; `None` where none was (no rule
/// matched, or the budget is spent).
fn rewrite(
    text: &str,
    uses: &[(std::ops::Range<usize>, String, &str)],
    rules: &HashMap<String, Vec<Rule>>,
    spend: &mut Spend,
) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut any = false;
    'uses: for (range, name, args) in uses {
        let mut expansion = None;
        for rule in &rules[name] {
            let cost = 1 + args.len() + rule.size();
            if cost > spend.try_left {
                break 'uses;
            }
            spend.try_left -= cost;
            spend.work += cost;
            expansion = transcribe(rule, args);
            if expansion.is_some() {
                break;
            }
        }
        let Some(expansion) = expansion else {
            continue;
        };
        if expansion.len() > spend.write_left {
            break;
        }
        spend.write_left -= expansion.len();
        spend.work += expansion.len();
        out.push_str(&text[at..range.start]);
        // On the use's first line; its own line breaks after it.
        out.push_str(&expansion.replace(['\n', '\r'], " "));
        out.extend(text[range.clone()].chars().filter(|&c| c == '\n'));
        at = range.end;
        any = true;
    }
    out.push_str(&text[at..]);
    any.then_some(out)
}

/// The rule's transcriber with the arguments bound, or `None` where the
/// arguments do not match its matcher.
fn transcribe(rule: &Rule, args: &str) -> Option<String> {
    let trees = token_trees(args);
    let mut bound: HashMap<&str, String> = HashMap::new();
    let mut i = 0;
    for (k, part) in rule.matcher.iter().enumerate() {
        match part {
            Part::Literal(l) => {
                if trees.get(i) != Some(&l.as_str()) {
                    return None;
                }
                i += 1;
            }
            Part::Var(name, frag) => {
                let one = matches!(frag.as_str(), "ident" | "tt" | "block" | "literal" | "lifetime");
                let end = if one {
                    i + 1
                } else {
                    let next = rule.matcher[k + 1..].iter().find_map(|p| match p {
                        Part::Literal(l) => Some(l.as_str()),
                        Part::Var(..) => None,
                    });
                    next.map_or(trees.len(), |l| {
                        (i..trees.len()).find(|&j| trees[j] == l).unwrap_or(trees.len())
                    })
                };
                if end > trees.len() || end == i {
                    return None;
                }
                let value = trees[i..end].join(" ");
                let value = if frag == "expr" {
                    format!("({value})")
                } else {
                    value
                };
                bound.insert(name.as_str(), value);
                i = end;
            }
        }
    }
    (i == trees.len()).then(|| substitute(&rule.transcriber, &bound))
}

/// `body` with every `$name` bound replaced by its value.
fn substitute(body: &str, bound: &HashMap<&str, String>) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(d) = rest.find('$') {
        out.push_str(&rest[..d]);
        let after = &rest[d + 1..];
        let len = after.find(|c: char| !is_ident(c)).unwrap_or(after.len());
        match bound.get(&after[..len]) {
            Some(v) if len > 0 => out.push_str(v),
            _ => out.push_str(&rest[d..d + 1 + len]),
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

/// `s` split into token trees: a bracketed group (with what it holds) is
/// one, a word or number is one, a string or character literal is one,
/// any other character is one; whitespace and comments are none.
fn token_trees(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        i = match c {
            _ if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
                continue;
            }
            b'(' | b'[' | b'{' => group_end(b, i),
            b'"' => literal_end(b, i, b'"'),
            b'\'' if b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\') => literal_end(b, i, b'\''),
            _ if is_ident(c as char) => i + b[i..].iter().take_while(|&&c| is_ident(c as char)).count(),
            _ => i + s[i..].chars().next().map_or(1, char::len_utf8),
        };
        out.push(&s[start..i.min(b.len())]);
    }
    out
}

/// Where the group opened at `i` ends (after its closing bracket, or the
/// text's end), skipping literals inside it.
fn group_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' => {
                i = literal_end(b, i, b'"');
                continue;
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 2,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Where the literal opened by `quote` at `i` ends (after its closing quote).
fn literal_end(b: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// A token tree's text without its outer brackets (a closing one the
/// parser found missing is not there to take off).
fn inner(s: &str) -> &str {
    let s = s.trim();
    let Some(rest) = s.strip_prefix(['(', '[', '{']) else {
        return s;
    };
    rest.strip_suffix([')', ']', '}']).unwrap_or(rest)
}

fn text<'a>(node: tree_sitter::Node, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[node.byte_range()]).unwrap_or("")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust() -> tree_sitter::Language {
        crate::similarity::Lang::Rust.grammar()
    }

    #[test]
    fn a_loop_macro_is_written_out_where_it_is_used_on_the_same_lines() {
        let src = "macro_rules! each {\n    ($x:ident, $n:expr, $body:block) => {\n        for $x in 0..$n $body\n    };\n}\nfn main() {\n    each!(i, 5, {\n        println!(\"{}\", i);\n    });\n}\n";
        let out = expand(src, &rust()).unwrap();
        assert!(out.contains("for i in 0..(5) {"), "{out}");
        assert_eq!(out.lines().count(), src.lines().count(), "{out}");
    }

    #[test]
    fn a_use_no_rule_matches_and_a_repetition_are_left_as_written() {
        let src = "macro_rules! two { ($a:ident, $b:ident) => { $a + $b }; }\nmacro_rules! many { ($($a:expr),*) => { 0 }; }\nfn main() { let x = two!(1 2); let y = many!(1, 2); }\n";
        assert_eq!(expand(src, &rust()), None);
    }

    proptest::proptest! {
        #[test]
        fn any_text_around_a_macro_is_expanded_or_left_without_a_panic(
            body in "[a-z$(){}\\[\\],;:'\"\\\\ é中\n]{0,60}",
            args in "[a-z$(){}\\[\\],;:'\"\\\\ é中\n]{0,60}",
        ) {
            let src = format!("macro_rules! m {{ ($a:tt, $b:expr) => {{ {body} }}; }}\nfn main() {{ m!({args}); m!(x, {args}) }}\n");
            let _ = expand(&src, &rust());
            let _ = crate::similarity::tokens::tokenize(&src, crate::similarity::Lang::Rust);
        }
    }

    /// A bound on the work of any source: a few passes over the source and
    /// its budget, whatever its shape.
    fn work_bound(src: &str) -> usize {
        (MAX_DEPTH + 3) * (src.len() + super::super::macros::budget(src.len()))
    }

    #[test]
    fn thousands_of_rules_used_thousands_of_times_cost_a_bounded_work() {
        let rules: String = (0..3000)
            .map(|k| format!("(k{k} $a:tt) => {{ $a }};\n"))
            .collect();
        let uses: String = (0..3000).map(|_| "m!(z 1);\n").collect();
        let src = format!("macro_rules! m {{\n{rules}}}\nfn main() {{\n{uses}}}\n");
        let (_, work) = expand_counted(&src, &rust());
        assert!(work <= work_bound(&src), "work {work} for {} bytes", src.len());
        // One rule with thousands of parts, used many times.
        let vars: Vec<String> = (0..2000).map(|k| format!("$v{k}:tt")).collect();
        let body: String = (0..2000).map(|k| format!("$v{k} ")).collect();
        let args = vec!["1"; 2000].join(" ");
        let src = format!(
            "macro_rules! w {{ ({}) => {{ {body} }}; }}\nfn main() {{ {} }}\n",
            vars.join(" "),
            format!("w!({args});").repeat(200)
        );
        let (_, work) = expand_counted(&src, &rust());
        assert!(work <= work_bound(&src), "work {work} for {} bytes", src.len());
    }

    #[test]
    fn a_macro_naming_itself_stops_at_the_budget() {
        let src = "macro_rules! m { ($a:tt) => { m!($a) + m!($a) + m!($a) + m!($a) }; }\nfn main() { let x = m!(1); }\n";
        let out = expand(src, &rust()).unwrap();
        assert!(
            out.len() <= src.len() + super::super::macros::budget(src.len()),
            "{}",
            out.len()
        );
    }
}
