//! C and C++ macros (`#define NAME body`, `#define NAME(a, b) body`, on
//! one line) written out where they are used, before parsing: a contestant's
//! `rep(i, 0, n)` is the `for` loop it stands for, and a copy that hides
//! loops behind a macro has the tokens of the original. Lines are kept (an
//! expansion never adds one, and a use spread over lines keeps its line
//! breaks after it), so tokens keep the lines of the text as written.
//! Comments, string literals and preprocessor lines are copied as they are.
//!
//! Bounded by the source's size, whatever it holds: the text of every
//! expansion together may be at most [`budget`] bytes (a few times the
//! source's length), past which a use is left as written (a macro that names
//! itself 200 times, four levels deep, would otherwise write gigabytes); and
//! a use's closing `)` is found in a table made in one pass over the text,
//! not by a scan to the end of the text per use (an unclosed use would
//! otherwise cost the rest of the text, each one).

use std::collections::HashMap;

/// A macro: its parameters (none for an object-like macro) and its body.
struct Macro {
    /// Each parameter's name and its place (`None` for an object-like macro).
    params: Option<HashMap<String, usize>>,
    body: String,
}

/// How deep a macro's expansion may use other macros.
const MAX_DEPTH: usize = 4;

/// The bytes of expansion a source of `len` bytes may produce in all: four
/// times its length, and 16 KiB for a short one (a 200-byte program whose
/// loop macro is used ten times stays written out). A contestant's own
/// macros (`rep`, `ll`, `pb`) use a small part of it; a macro that names
/// itself many times reaches it at once, and its uses past it stay as
/// written.
pub fn budget(len: usize) -> usize {
    4 * len + 16 * 1024
}

/// `source` with its macros written out, or `None` where it defines none.
pub fn expand(source: &str) -> Option<String> {
    expand_counted(source).map(|(text, _)| text)
}

/// [`expand`], and the work it took: the bytes it read and wrote, every
/// level of expansion counted (what the tests bound).
fn expand_counted(source: &str) -> Option<(String, usize)> {
    let macros = definitions(source);
    if macros.is_empty() {
        return None;
    }
    let mut x = Expander {
        macros: &macros,
        left: budget(source.len()),
        work: 0,
    };
    let out = x.expand(source, 0);
    Some((out, x.work))
}

fn definitions(source: &str) -> HashMap<String, Macro> {
    let mut out = HashMap::new();
    for line in source.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(def) = rest.trim_start().strip_prefix("define") else {
            continue;
        };
        if !def.starts_with([' ', '\t']) || def.trim_end().ends_with('\\') {
            continue;
        }
        let def = def.trim_start();
        let name_len = def.find(|c: char| !is_ident(c)).unwrap_or(def.len());
        let (name, rest) = def.split_at(name_len);
        if name.is_empty() {
            continue;
        }
        let (params, body) = match rest.strip_prefix('(') {
            Some(r) => {
                let Some(close) = r.find(')') else { continue };
                let params = r[..close]
                    .split(',')
                    .map(|p| p.trim())
                    .filter(|p| !p.is_empty())
                    .enumerate()
                    .map(|(k, p)| (p.to_string(), k))
                    .collect();
                (Some(params), &r[close + 1..])
            }
            None => (None, rest),
        };
        let body = strip_comment(body).trim().to_string();
        if body.is_empty() {
            continue;
        }
        out.insert(name.to_string(), Macro { params, body });
    }
    out
}

fn strip_comment(s: &str) -> &str {
    let cut = [s.find("//"), s.find("/*")].into_iter().flatten().min();
    cut.map_or(s, |c| &s[..c])
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// What the text holds at a place, as the expander reads it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A preprocessor line, a string or character literal, a comment:
    /// copied as it is.
    Copied,
    /// An identifier (perhaps a macro's name).
    Word,
    /// Any other byte.
    Byte,
}

/// The text read item by item, the same way wherever it is read (a use's
/// `)` is found with the literals and comments the expansion itself skips).
struct Lexer<'a> {
    b: &'a [u8],
    i: usize,
    line_start: bool,
}

impl<'a> Lexer<'a> {
    fn new(b: &'a [u8], i: usize) -> Lexer<'a> {
        Lexer {
            b,
            i,
            line_start: i == 0,
        }
    }

    /// Goes on reading at `i` (after a use of a macro).
    fn skip_to(&mut self, i: usize) {
        self.i = i;
        self.line_start = false;
    }
}

impl Iterator for Lexer<'_> {
    /// The item's kind, where it starts and where it ends.
    type Item = (Kind, usize, usize);

    fn next(&mut self) -> Option<(Kind, usize, usize)> {
        let (b, i) = (self.b, self.i);
        let &c = b.get(i)?;
        let (kind, end) = if self.line_start && c == b'#' {
            (Kind::Copied, preproc_end(b, i))
        } else if c == b'"' || c == b'\'' {
            self.line_start = false;
            (Kind::Copied, literal_end(b, i))
        } else if c == b'/' && matches!(b.get(i + 1), Some(b'/') | Some(b'*')) {
            (Kind::Copied, comment_end(b, i))
        } else if c.is_ascii_alphabetic() || c == b'_' {
            self.line_start = false;
            let len = b[i..]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
                .count();
            (Kind::Word, i + len)
        } else {
            if c == b'\n' {
                self.line_start = true;
            } else if !c.is_ascii_whitespace() {
                self.line_start = false;
            }
            (Kind::Byte, i + 1)
        };
        self.i = end;
        Some((kind, i, end))
    }
}

/// Where each bracket of `text` that is closed is closed, found in one
/// pass (any closing bracket closes the last one open, as a count of depth
/// would have it).
fn matching(text: &str) -> HashMap<usize, usize> {
    let (mut open, mut out) = (Vec::new(), HashMap::new());
    for (kind, i, _) in Lexer::new(text.as_bytes(), 0) {
        match (kind, text.as_bytes()[i]) {
            (Kind::Byte, b'(' | b'[' | b'{') => open.push(i),
            (Kind::Byte, b')' | b']' | b'}') => {
                if let Some(o) = open.pop() {
                    out.insert(o, i);
                }
            }
            _ => {}
        }
    }
    out
}

/// The arguments of a use between its `(` at `open` and its `)` at
/// `close`, split at top-level commas.
fn arguments(text: &str, open: usize, close: usize) -> Vec<String> {
    let b = &text.as_bytes()[..close];
    let (mut depth, mut start, mut args) = (0usize, open + 1, Vec::new());
    for (kind, i, _) in Lexer::new(b, open + 1) {
        match (kind, b[i]) {
            (Kind::Byte, b'(' | b'[' | b'{') => depth += 1,
            (Kind::Byte, b')' | b']' | b'}') => depth = depth.saturating_sub(1),
            (Kind::Byte, b',') if depth == 0 => {
                args.push(text[start..i].trim().replace('\n', " "));
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(text[start..close].trim().replace('\n', " "));
    args
}

/// The expansion under way: the macros, the bytes of expansion still
/// allowed, and the work done so far.
struct Expander<'m> {
    macros: &'m HashMap<String, Macro>,
    left: usize,
    work: usize,
}

impl Expander<'_> {
    /// `text` with the uses of macros in it written out.
    fn expand(&mut self, text: &str, depth: usize) -> String {
        let b = text.as_bytes();
        let mut out: Vec<u8> = Vec::with_capacity(text.len());
        let mut closes = None;
        let mut lexer = Lexer::new(b, 0);
        while let Some((kind, i, end)) = lexer.next() {
            let used = match kind {
                Kind::Word => self.macros.get(&text[i..end]).filter(|_| depth < MAX_DEPTH),
                Kind::Copied | Kind::Byte => None,
            };
            match used {
                Some(m) => {
                    let (expansion, next) = self.use_of(text, (i, end), m, &mut closes, depth);
                    out.extend_from_slice(expansion.as_bytes());
                    lexer.skip_to(next);
                }
                None => out.extend_from_slice(&b[i..end]),
            }
        }
        self.work += text.len() + out.len();
        String::from_utf8(out).unwrap_or_else(|_| text.to_string())
    }

    /// Takes `n` bytes from what expansion may still write, if it can.
    fn charge(&mut self, n: usize) -> bool {
        let ok = n <= self.left;
        if ok {
            self.left -= n;
        }
        ok
    }

    /// A use of `m` whose name is at `start..end`: its expansion (with the
    /// line breaks of a use spread over lines after it), or the use as
    /// written (past the budget, or not a use), and where the text goes on.
    fn use_of(
        &mut self,
        text: &str,
        (start, end): (usize, usize),
        m: &Macro,
        closes: &mut Option<HashMap<usize, usize>>,
        depth: usize,
    ) -> (String, usize) {
        let name = || (text[start..end].to_string(), end);
        let Some(params) = &m.params else {
            if !self.charge(m.body.len()) {
                return name();
            }
            return (self.expand(&m.body, depth + 1), end);
        };
        let b = text.as_bytes();
        let open = end + b[end..].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
        if b.get(open) != Some(&b'(') {
            // A function-like macro's name without arguments is not a use.
            return name();
        }
        let closes = closes.get_or_insert_with(|| {
            self.work += text.len();
            matching(text)
        });
        let Some(&close) = closes.get(&open) else {
            return name();
        };
        let next = close + 1;
        self.work += next - start;
        let args = arguments(text, open, close);
        let fits = args.len() == params.len() || params.is_empty() && args.len() == 1 && args[0].is_empty();
        let Some(body) = fits
            .then(|| substitute(&m.body, params, &args, self.left))
            .flatten()
        else {
            return (text[start..next].to_string(), next);
        };
        self.charge(body.len());
        let mut expansion = self.expand(&body, depth + 1);
        expansion.extend(std::iter::repeat_n('\n', text[end..next].matches('\n').count()));
        (expansion, next)
    }
}

/// `body` with each parameter (a whole identifier) replaced by its
/// argument, or `None` where that is longer than `limit` bytes.
fn substitute(body: &str, params: &HashMap<String, usize>, args: &[String], limit: usize) -> Option<String> {
    let mut out = String::with_capacity(body.len().min(limit));
    let mut rest = body;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.push_str(&rest[..start]);
        let len = rest[start..]
            .find(|c: char| !is_ident(c))
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        match params.get(word) {
            Some(&k) => out.push_str(&args[k]),
            None => out.push_str(word),
        }
        if out.len() > limit {
            return None;
        }
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    (out.len() <= limit).then(|| out.replace("##", ""))
}

/// The end of a preprocessor line (continuations included).
fn preproc_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
            i += 1;
        }
        i += 1;
    }
    i
}

fn literal_end(b: &[u8], start: usize) -> usize {
    let quote = b[start];
    let mut i = start + 1;
    while i < b.len() && b[i] != quote && b[i] != b'\n' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    (i + 1).min(b.len())
}

fn comment_end(b: &[u8], start: usize) -> usize {
    if b[start + 1] == b'/' {
        return start
            + b[start..]
                .iter()
                .position(|&c| c == b'\n')
                .unwrap_or(b.len() - start);
    }
    let rest = &b[start + 2..];
    rest.windows(2)
        .position(|w| w == b"*/")
        .map_or(b.len(), |p| start + 2 + p + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_macro_is_written_out_on_the_same_line() {
        let src = "#define rep(i, a, b) for (int i = (a); i < (b); ++i)\nint main() {\n  rep(x, 0, n) s += x; // rep\n}\n";
        let out = expand(src).unwrap();
        assert_eq!(
            out.lines().nth(2).unwrap(),
            "  for (int x = (0); x < (n); ++x) s += x; // rep"
        );
        assert_eq!(out.lines().count(), src.lines().count());
    }

    #[test]
    fn object_macros_strings_and_nesting() {
        let src = "#define N 5\n#define TWICE(x) (x + x)\nint a = TWICE(N); char *s = \"N\";\nint b = TWICE(f(1,\n 2));\n";
        let out = expand(src).unwrap();
        assert!(out.contains("int a = (5 + 5); char *s = \"N\";"), "{out}");
        // A use spread over two lines: its expansion on the first, the line break after it.
        assert!(out.contains("int b = (f(1,  2) + f(1,  2))\n;"), "{out}");
        assert_eq!(out.lines().count(), src.lines().count());
    }

    #[test]
    fn no_macro_no_copy() {
        assert!(expand("int main() { return 0; }").is_none());
    }

    /// A program the judge accepts (the macro is used inside `#if 0`) whose
    /// macro names itself `names` times: written out four levels deep, it
    /// would be `names`^4 copies.
    fn self_naming(names: usize) -> String {
        let body = vec!["BOOM"; names].join(" ");
        format!("#define BOOM {body}\n#if 0\nBOOM\n#endif\nint main() {{ return 0; }}\n")
    }

    /// A bound every shape must keep: the work (bytes read and written, every
    /// level counted) a few times the source and its budget.
    fn bounded(src: &str) -> (String, usize) {
        let (out, work) = expand_counted(src).unwrap();
        let bound = 16 * (src.len() + budget(src.len()));
        assert!(
            work <= bound,
            "work {work} > {bound} for a source of {} bytes",
            src.len()
        );
        assert!(
            out.len() <= src.len() + budget(src.len()),
            "{} bytes written",
            out.len()
        );
        (out, work)
    }

    #[test]
    fn a_macro_that_names_itself_writes_at_most_its_budget() {
        for names in [40, 200] {
            let src = self_naming(names);
            let (out, _) = bounded(&src);
            assert_eq!(out.lines().count(), src.lines().count());
            assert!(
                out.ends_with("int main() { return 0; }\n"),
                "{names}: the rest as written"
            );
        }
    }

    #[test]
    fn a_use_past_the_budget_is_left_as_written() {
        let (y, z) = ("y".repeat(4000), "z".repeat(1000));
        let src = format!("#define W(x) x x x x x x x x\nint a = W(W(W(W({y})))); int b = W({z});\n");
        let (out, _) = bounded(&src);
        assert!(
            out.contains(&format!("int b = W({z});")),
            "the budget is spent before b"
        );
        assert!(
            out.contains(&format!("int a = W(W(W({y}))) W(W(W({y})))")),
            "a is written out as far as it can be"
        );
    }

    #[test]
    fn unclosed_uses_cost_a_pass_not_a_scan_each() {
        // 120,000 uses whose `)` never comes: each once looked for it to the end.
        let src = format!("#define f(x) x\n{}\n", "f(".repeat(120_000));
        let (out, _) = bounded(&src);
        assert_eq!(out, src);
    }

    #[test]
    fn arguments_hold_brackets_literals_and_comments() {
        let src = "#define P(a, b) a - b\nint x = P(f(1, 2), \"),\" /* ) */ [3]);\n";
        let out = expand(src).unwrap();
        assert!(out.contains("int x = f(1, 2) - \"),\" /* ) */ [3];"), "{out}");
    }
}
