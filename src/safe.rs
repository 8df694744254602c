//! Text from outside (contestants' and folders' names, test names, messages)
//! made safe for where the judge writes it: a spreadsheet's cell
//! ([`csv_cell`]) or a terminal ([`terminal_safe`]); and the one writer of
//! a CSV file for people ([`csv_file`]: a UTF-8 byte order mark first, so
//! Excel and WPS on a Chinese Windows read UTF-8, not GBK). Every writer of
//! CSV cells and every printer to a terminal goes through these, whatever
//! the command. Pure functions that import nothing of the judge, so every
//! module may use them (`similarity` included: it imports no other module).

/// The characters that make a spreadsheet (Excel, LibreOffice Calc, Google
/// Sheets) read a cell as a formula, as OWASP's "CSV Injection" page lists
/// them: `=`, `+`, `-`, `@`, tab and carriage return.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Where a spreadsheet may start a new cell inside the text of one: the
/// list separators in use (`,`; `;` where the decimal mark is a comma, much
/// of Europe; tab) and line breaks (a reader that ignores quotes).
const CELL_BREAKS: [char; 5] = [',', ';', '\t', '\r', '\n'];

/// A text cell as it may be written to a CSV file: no part of it is read as
/// a formula, whatever the reader's list separator.
///
/// The rule (OWASP's, and its warning taken at its word): a cell that would
/// start a formula gets a single quote in front (`=HYPERLINK(...)` becomes
/// `'=HYPERLINK(...)`, which spreadsheets read as "this is text"); and so
/// does every part of it that a reader could take for a cell of its own,
/// the text after a `,`, `;`, tab or line break (`Hugo;=1+1` becomes
/// `Hugo;'=1+1`: Excel where the list separator is `;` splits it into
/// `Hugo` and a formula, and quoting the whole cell does not help, since a
/// reader with another separator does not see the quotes where we put
/// them). A part counts as starting a formula when one of
/// [`FORMULA_STARTS`] comes after any spaces and double quotes (` =1`,
/// `"=1"`). The quote is put in, never anything taken out: what the cell
/// said can be read back. Only for text: a number (`-1` in a numeric column)
/// must stay a number. The `csv` crate then quotes the cell as RFC 4180
/// says.
pub fn csv_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    let mut part_start = true;
    for (i, c) in text.char_indices() {
        if part_start && starts_formula(&text[i..]) {
            out.push('\'');
        }
        out.push(c);
        part_start = CELL_BREAKS.contains(&c);
    }
    out
}

/// The UTF-8 byte order mark (U+FEFF, bytes `EF BB BF`) that starts every
/// CSV file [`csv_file`] writes. Without it Excel and WPS read a CSV in the
/// machine's ANSI code page (GBK on a Chinese Windows: `李四` shows as
/// `鏉庡洓`); with it they read UTF-8. LibreOffice, Google Sheets, Python's
/// `utf-8-sig` and the `csv` crate's reader skip it.
pub const UTF8_BOM: &str = "\u{feff}";

/// Rows of cells as the text of a CSV file that people open in a
/// spreadsheet: [`UTF8_BOM`] first, then the rows quoted as RFC 4180 says
/// (the `csv` crate). The cells are written as given: text cells must have
/// gone through [`csv_cell`] already.
pub fn csv_file<R, C>(rows: impl IntoIterator<Item = R>) -> String
where
    R: IntoIterator<Item = C>,
    C: AsRef<[u8]>,
{
    let mut w = csv::Writer::from_writer(UTF8_BOM.as_bytes().to_vec());
    for row in rows {
        w.write_record(row).expect("writing to memory");
    }
    let bytes = w.into_inner().expect("writing to memory");
    String::from_utf8(bytes).expect("cells of UTF-8 make UTF-8")
}

/// Whether `part`, read as a cell, starts a formula.
fn starts_formula(part: &str) -> bool {
    part.trim_start_matches([' ', '"']).starts_with(FORMULA_STARTS)
}

/// Whether a character is one that reorders text on the screen (Unicode's
/// bidirectional embeddings, overrides, isolates and marks): a name holding
/// one can show another name, or swap the columns around it.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A character as it may be shown on a terminal: control characters (C0
/// and C1: ESC, BEL, CR, CSI, ...) and bidirectional controls escaped as
/// `\u{1b}`, so text from a program or a folder's name can neither move the
/// cursor, set the title, clear the screen nor reorder what is shown
/// (an escape sequence's ESC escaped, the rest of it is plain text);
/// newline and tab kept.
pub fn escape_control(c: char) -> impl Iterator<Item = char> {
    let escape = (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c);
    let (plain, escaped) = if escape {
        (None, Some(c.escape_unicode()))
    } else {
        (Some(c), None)
    };
    plain.into_iter().chain(escaped.into_iter().flatten())
}

/// `text` as it may be printed on a terminal: [`escape_control`] applied to
/// every character.
pub fn terminal_safe(text: &str) -> String {
    text.chars().flat_map(escape_control).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: &str = "=HYPERLINK(\"http://x\",\"y\")";

    #[test]
    fn text_that_would_start_a_formula_gets_a_quote_in_front() {
        for hostile in [LINK, "+1+1", "-2+3", "@SUM(A1:A9)", "\tx", "\r1", " =1", "\"=1\""] {
            assert_eq!(csv_cell(hostile), format!("'{hostile}"), "{hostile:?}");
        }
    }

    #[test]
    fn a_formula_after_a_separator_is_neutralised_too() {
        assert_eq!(csv_cell("Hugo;=1+1"), "Hugo;'=1+1");
        assert_eq!(csv_cell("a,=1;@x"), "a,'=1;'@x");
        assert_eq!(csv_cell("a; -1"), "a;' -1");
        assert_eq!(csv_cell("line\n+1"), "line\n'+1");
        assert_eq!(csv_cell("a\t=b"), "a\t'=b");
        assert_eq!(csv_cell("\r=1+1"), "'\r'=1+1");
    }

    #[test]
    fn other_text_is_left_as_it_is() {
        for plain in [
            "alice", "secret/1", "", "'x", "a=b", "1", "a\tb", "Hugo;1", "x, y", "é=1",
        ] {
            assert_eq!(csv_cell(plain), plain);
        }
    }

    #[test]
    fn a_csv_file_starts_with_the_utf8_byte_order_mark_and_quotes_cells() {
        let text = csv_file([vec!["login", "name"], vec!["lisi", "李四, \"Li\""]]);
        assert_eq!(text, "\u{feff}login,name\nlisi,\"李四, \"\"Li\"\"\"\n");
        assert_eq!(&text.as_bytes()[..3], [0xef, 0xbb, 0xbf]);
    }

    #[test]
    fn controls_escape_sequences_and_bidi_controls_are_escaped_for_a_terminal() {
        assert_eq!(terminal_safe("a\x07b\nc\td\re"), "a\\u{7}b\nc\td\\u{d}e");
        assert_eq!(terminal_safe("\x1b]0;title\x07x"), "\\u{1b}]0;title\\u{7}x");
        assert_eq!(terminal_safe("\u{9b}2J"), "\\u{9b}2J");
        assert_eq!(terminal_safe("ab\u{202e}cd\u{2066}"), "ab\\u{202e}cd\\u{2066}");
        assert_eq!(terminal_safe("Zoë 张"), "Zoë 张");
    }
}
