//! A small Markdown-to-LaTeX conversion for problem statements: headings,
//! paragraphs, lists, fenced code blocks, inline code, bold and italics, and
//! the few symbols statements use (`×`, `≤`, ...). Statements here are plain
//! prose, so this is all they need; anything else passes through as text,
//! with LaTeX's special characters escaped.

/// A Chinese statement as a document of its own, to print: `ctexart`
/// (TeX Live's ctex) typesets it with a CJK font (`xelatex FILE`; ctex
/// picks the system's, Fandol where it finds none). The title is the
/// statement's level-1 heading, else `title`.
pub fn chinese_document(title: &str, markdown: &str) -> String {
    let heading = markdown
        .lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| heading(l.trim_end()))
        .filter(|(level, _)| *level == 1)
        .map_or(title, |(_, text)| text);
    format!(
        "% xelatex this file: ctex typesets Chinese with a CJK font.\n\
         \\documentclass[UTF8,a4paper,zihao=-4]{{ctexart}}\n\
         \\usepackage[margin=2.5cm]{{geometry}}\n\
         \\title{{{}}}\n\\date{{}}\n\
         \\begin{{document}}\n\\maketitle\n\n{}\n\n\\end{{document}}\n",
        inline(heading),
        convert(markdown, |_| false)
    )
}

/// Converts a Markdown statement to the body of a LaTeX document.
/// `skip_section` decides, from a level-2 heading's text, whether to leave
/// that section out (a format that typesets the samples itself drops the
/// statement's own copy). A level-1 heading on the first line is the title
/// and is left out too.
pub fn convert(markdown: &str, skip_section: impl Fn(&str) -> bool) -> String {
    let mut body = Body::default();
    let mut lines = markdown.lines();
    let mut first = true;
    let mut skipping = false;
    while let Some(line) = lines.next() {
        let trimmed = line.trim_end();
        if first {
            if trimmed.is_empty() {
                continue;
            }
            first = false;
            if let Some((1, _)) = heading(trimmed) {
                continue;
            }
        }
        if trimmed.starts_with("```") {
            let code: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.trim_end().starts_with("```"))
                .collect();
            if !skipping {
                body.verbatim(&code);
            }
            continue;
        }
        let head = heading(trimmed);
        if let Some((level, text)) = head
            && level <= 2
        {
            skipping = skip_section(text);
        }
        if !skipping {
            body.line(line, head);
        }
    }
    body.finish()
}

/// The LaTeX written so far, and the list environment open at its end.
#[derive(Default)]
struct Body {
    out: String,
    list: Option<&'static str>,
}

impl Body {
    /// Ends the open list, if any.
    fn close_list(&mut self) {
        if let Some(env) = self.list.take() {
            self.out.push_str(&format!("\\end{{{env}}}\n"));
        }
    }

    /// A fenced code block, as it is.
    fn verbatim(&mut self, code: &[&str]) {
        self.close_list();
        self.out.push_str("\\begin{verbatim}\n");
        for l in code {
            self.out.push_str(l);
            self.out.push('\n');
        }
        self.out.push_str("\\end{verbatim}\n");
    }

    /// One line outside code blocks; `head` is its heading, if it is one.
    fn line(&mut self, line: &str, head: Option<(usize, &str)>) {
        let trimmed = line.trim_end();
        if let Some((level, text)) = head {
            self.heading(level, text);
        } else if let Some((env, item)) = list_item(trimmed) {
            self.item(env, item);
        } else if trimmed.trim().is_empty() {
            self.close_list();
            if !self.out.is_empty() && !self.out.ends_with("\n\n") {
                self.out.push('\n');
            }
        } else if self.list.is_some() && line.starts_with([' ', '\t']) {
            // A continuation of the list item above.
            self.out.pop();
            self.out.push(' ');
            self.out.push_str(&inline(trimmed.trim()));
            self.out.push('\n');
        } else {
            self.close_list();
            self.out.push_str(&inline(trimmed.trim_start()));
            self.out.push('\n');
        }
    }

    /// A heading: a section, subsection or paragraph title by its level.
    fn heading(&mut self, level: usize, text: &str) {
        self.close_list();
        let command = match level {
            1 | 2 => "section",
            3 => "subsection",
            _ => "paragraph",
        };
        self.out.push_str(&format!("\\{command}*{{{}}}\n", inline(text)));
    }

    /// An item of a list of kind `env`, opening that list if it is not open.
    fn item(&mut self, env: &'static str, item: &str) {
        if self.list != Some(env) {
            self.close_list();
            self.out.push_str(&format!("\\begin{{{env}}}\n"));
            self.list = Some(env);
        }
        self.out.push_str(&format!("  \\item {}\n", inline(item)));
    }

    /// The body, its open list closed and its trailing blank lines dropped.
    fn finish(mut self) -> String {
        self.close_list();
        while self.out.ends_with("\n\n") {
            self.out.pop();
        }
        self.out
    }
}

/// `(level, text)` of an ATX heading (`## Input`).
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&level) && line[level..].starts_with(' ') {
        Some((level, line[level..].trim()))
    } else {
        None
    }
}

/// `(environment, text)` of a list item (`- x`, `* x`, `1. x`).
fn list_item(line: &str) -> Option<(&'static str, &str)> {
    let line = line.trim_start();
    if let Some(rest) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) {
        return Some(("itemize", rest));
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with(". ") {
        return Some(("enumerate", &line[digits + 2..]));
    }
    None
}

/// Inline Markdown (`code`, **bold**, *italics*) to LaTeX, escaping the rest.
pub fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let span = |marker: &str| {
            let body = rest.strip_prefix(marker)?;
            let end = body.find(marker)?;
            let inner = &body[..end];
            let flanked = !inner.is_empty() && !inner.starts_with(' ') && !inner.ends_with(' ');
            flanked.then(|| (inner, &body[end + marker.len()..]))
        };
        if c == '`'
            && let Some((code, after)) = span("`")
        {
            out.push_str(&format!("\\texttt{{{}}}", escape(code)));
            rest = after;
        } else if rest.starts_with("**")
            && let Some((bold, after)) = span("**")
        {
            out.push_str(&format!("\\textbf{{{}}}", inline(bold)));
            rest = after;
        } else if c == '*'
            && let Some((em, after)) = span("*")
        {
            out.push_str(&format!("\\emph{{{}}}", inline(em)));
            rest = after;
        } else {
            out.push_str(&escape_char(c));
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Escapes LaTeX's special characters in plain text.
pub fn escape(text: &str) -> String {
    text.chars().map(escape_char).collect()
}

fn escape_char(c: char) -> String {
    match c {
        '\\' => "\\textbackslash{}".into(),
        '{' | '}' | '$' | '&' | '#' | '_' | '%' => format!("\\{c}"),
        '^' => "\\^{}".into(),
        '~' => "\\~{}".into(),
        '<' => "$<$".into(),
        '>' => "$>$".into(),
        '×' => "$\\times$".into(),
        '≤' => "$\\le$".into(),
        '≥' => "$\\ge$".into(),
        '≠' => "$\\ne$".into(),
        '−' => "$-$".into(),
        '–' => "--".into(),
        '—' => "---".into(),
        '…' => "\\ldots{}".into(),
        _ => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_paragraphs_and_code_blocks() {
        let md = "# Title\n\nA **move** `x y g` swaps.\nSecond line.\n\n## Input\nn (1 ≤ n ≤ 5).\n\n## Sample\n```\n3\n```\n\n## Limits\n3 s.\n";
        let tex = convert(md, |h| h == "Sample");
        assert_eq!(
            tex,
            "A \\textbf{move} \\texttt{x y g} swaps.\nSecond line.\n\n\\section*{Input}\nn (1 $\\le$ n $\\le$ 5).\n\n\\section*{Limits}\n3 s.\n"
        );
        let kept = convert("## Sample\n```\n3\n1 0\n```\n", |_| false);
        assert_eq!(
            kept,
            "\\section*{Sample}\n\\begin{verbatim}\n3\n1 0\n\\end{verbatim}\n"
        );
    }

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(inline("50% of #1 & $2_a"), "50\\% of \\#1 \\& \\$2\\_a");
        assert_eq!(
            inline("`a_b` 5 × 7 *x*"),
            "\\texttt{a\\_b} 5 $\\times$ 7 \\emph{x}"
        );
        assert_eq!(inline("a * b and ` alone"), "a * b and ` alone");
        assert_eq!(escape("\\{}"), "\\textbackslash{}\\{\\}");
    }

    #[test]
    fn lists() {
        let tex = convert("Intro\n\n- one\n- two\n  more\n\n1. first\n", |_| false);
        assert_eq!(
            tex,
            "Intro\n\n\\begin{itemize}\n  \\item one\n  \\item two more\n\\end{itemize}\n\n\\begin{enumerate}\n  \\item first\n\\end{enumerate}\n"
        );
    }
}
