//! C and C++ macros (`#define NAME body`, `#define NAME(a, b) body`, on
//! one line) written out where they are used, before parsing: a contestant's
//! `rep(i, 0, n)` is the `for` loop it stands for, and a copy that hides
//! loops behind a macro has the tokens of the original. Lines are kept (an
//! expansion never adds one, and a use spread over lines keeps its line
//! breaks after it), so tokens keep the lines of the text as written.
//! Comments, string literals and preprocessor lines are copied as they are.

use std::collections::HashMap;

/// A macro: its parameters (none for an object-like macro) and its body.
struct Macro {
    params: Option<Vec<String>>,
    body: String,
}

/// How deep a macro's expansion may use other macros.
const MAX_DEPTH: usize = 4;

/// `source` with its macros written out, or `None` where it defines none.
pub fn expand(source: &str) -> Option<String> {
    let macros = definitions(source);
    if macros.is_empty() {
        return None;
    }
    Some(expand_with(source, &macros, 0))
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
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
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

fn expand_with(text: &str, macros: &HashMap<String, Macro>, depth: usize) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(text.len() + text.len() / 4);
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if line_start && c == b'#' {
            let end = preproc_end(b, i);
            out.extend_from_slice(&b[i..end]);
            i = end;
            continue;
        }
        if c == b'"' || c == b'\'' {
            let end = literal_end(b, i);
            out.extend_from_slice(&b[i..end]);
            i = end;
            line_start = false;
            continue;
        }
        if c == b'/' && matches!(b.get(i + 1), Some(b'/') | Some(b'*')) {
            let end = comment_end(b, i);
            out.extend_from_slice(&b[i..end]);
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let end = i + b[i..]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
                .count();
            let name = &text[i..end];
            line_start = false;
            match macros.get(name).filter(|_| depth < MAX_DEPTH) {
                Some(m) => {
                    let (expansion, next) = use_of(text, end, m, macros, depth);
                    out.extend_from_slice(expansion.as_bytes());
                    i = next;
                }
                None => {
                    out.extend_from_slice(&b[i..end]);
                    i = end;
                }
            }
            continue;
        }
        if c == b'\n' {
            line_start = true;
        } else if !c.is_ascii_whitespace() {
            line_start = false;
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// A use of `m` whose name ends at `end`: its expansion (with the line
/// breaks of a use spread over lines after it) and where the text goes on.
fn use_of(
    text: &str,
    end: usize,
    m: &Macro,
    macros: &HashMap<String, Macro>,
    depth: usize,
) -> (String, usize) {
    let Some(params) = &m.params else {
        return (expand_with(&m.body, macros, depth + 1), end);
    };
    let b = text.as_bytes();
    let open = end + b[end..].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    let Some((args, next)) = (b.get(open) == Some(&b'('))
        .then(|| arguments(text, open))
        .flatten()
    else {
        // A function-like macro's name without arguments is not a use.
        return (text[end - name_len(text, end)..end].to_string(), end);
    };
    if args.len() != params.len() && !(params.is_empty() && args.len() == 1 && args[0].trim().is_empty()) {
        return (text[end - name_len(text, end)..next].to_string(), next);
    }
    let body = substitute(&m.body, params, &args);
    let mut expansion = expand_with(&body, macros, depth + 1);
    expansion.extend(std::iter::repeat_n('\n', text[end..next].matches('\n').count()));
    (expansion, next)
}

fn name_len(text: &str, end: usize) -> usize {
    text[..end]
        .bytes()
        .rev()
        .take_while(|&c| c.is_ascii_alphanumeric() || c == b'_')
        .count()
}

/// The arguments of a use whose `(` is at `open`, split at top-level
/// commas, and the position after its `)`.
fn arguments(text: &str, open: usize) -> Option<(Vec<String>, usize)> {
    let b = text.as_bytes();
    let (mut depth, mut start, mut args) = (0usize, open + 1, Vec::new());
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    args.push(text[start..i].trim().replace('\n', " "));
                    return Some((args, i + 1));
                }
            }
            b',' if depth == 1 => {
                args.push(text[start..i].trim().replace('\n', " "));
                start = i + 1;
            }
            b'"' | b'\'' => {
                i = literal_end(b, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `body` with each parameter (a whole identifier) replaced by its argument.
fn substitute(body: &str, params: &[String], args: &[String]) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.push_str(&rest[..start]);
        let len = rest[start..]
            .find(|c: char| !is_ident(c))
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        match params.iter().position(|p| p == word) {
            Some(k) => out.push_str(&args[k]),
            None => out.push_str(word),
        }
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out.replace("##", "")
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
}
