//! Reading a puzzle: `n`, then five columns bottom to top, each closed by `0`.
//!
//! Whitespace of any kind separates tokens and carries no meaning (CRLF line
//! ends included), and a UTF-8 byte order mark at the start of a text is
//! whitespace too. Every error names the line, the column, the token and the
//! rule of `RULES.md` it breaks, because the validator reports them to
//! problem setters as they are.

use super::board::{Board, HEIGHT, MAX_COLOUR, WIDTH};
use std::fmt;

/// Largest `n` the parser accepts at all, and so the largest the judge
/// supports (the solver keeps the moves left in a 4-bit field of its memo
/// key, so it could not go past 15 either). Packages set their own, lower
/// limit (the contest's is 5); beyond this the search is hopeless anyway.
pub const MAX_MOVES: u32 = 12;

/// Why a package's or a command's largest `n` cannot be used (`None` when
/// it is in 1..=[`MAX_MOVES`]); the caller names where it was set.
pub fn unsupported_max_n(max_n: u32) -> Option<String> {
    (!(1..=MAX_MOVES).contains(&max_n))
        .then(|| format!("the judge supports n from 1 to {MAX_MOVES} (the parser's and the solver's limit)"))
}

/// The UTF-8 byte order mark that some editors (and Windows programs) put at
/// the start of a text file.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `text` without a leading UTF-8 byte order mark: the mark is whitespace.
pub fn strip_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// A puzzle: the number of moves and the starting board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// Number of moves the answer must have.
    pub n: u32,
    /// Starting board.
    pub board: Board,
}

/// Where in the text a token stands (or where the text ends).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column: characters from the start of the line (a tab is one).
    pub column: usize,
    /// 1-based index of the token in the file.
    pub token_index: usize,
    /// The token as written (shortened when very long); empty for the end
    /// of the text.
    pub token: String,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)?;
        if !self.token.is_empty() {
            write!(f, ", token `{}`", self.token)?;
        }
        Ok(())
    }
}

/// A whitespace-separated token and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters, see [`Location::column`]).
    pub column: usize,
    /// The token's bytes.
    pub text: &'a [u8],
}

impl Token<'_> {
    /// The column just after the token.
    pub fn end_column(&self) -> usize {
        self.column + char_count(self.text)
    }
}

/// UTF-8 characters in `bytes` (see [`starts_char`]).
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| starts_char(b)).count()
}

/// Whether `b` starts a character: it does not continue a UTF-8 sequence
/// (an invalid byte counts as one character).
fn starts_char(b: u8) -> bool {
    !(0x80..0xC0).contains(&b)
}

/// Which rule of the input format a puzzle breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleRule {
    /// A token that is not a decimal integer.
    #[error("not an integer")]
    NotInteger,
    /// `n` outside 1..=MAX_MOVES.
    #[error("n must be between 1 and {MAX_MOVES}, got {0}")]
    BadMoveCount(i64),
    /// A colour outside 1..=10.
    #[error("colour must be 1..{MAX_COLOUR} (or 0 to close the column), got {0}")]
    BadColour(i64),
    /// More than seven blocks in a column.
    #[error("column {column} holds {count} blocks, at most {HEIGHT}")]
    ColumnTooTall {
        /// The column (0-based x).
        column: usize,
        /// How many blocks it lists (so far).
        count: usize,
    },
    /// The text ends early.
    #[error("input ends {0}")]
    Truncated(String),
    /// Tokens after the fifth column.
    #[error("unexpected token after the fifth column")]
    TrailingToken,
    /// The starting board already holds a run of three.
    #[error("initial board has a run of three {0}")]
    InitialRun(String),
}

/// A puzzle that breaks the input format, with where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PuzzleError {
    /// Where, when the error is tied to a token (a run of three is not).
    pub at: Option<Location>,
    /// The rule broken.
    pub rule: PuzzleRule,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{at}: {}", self.rule),
            None => write!(f, "{}", self.rule),
        }
    }
}

/// Splits text into whitespace-separated tokens with their lines and
/// columns, in one pass (linear however long a line is). Works on bytes so
/// binary garbage is reported, not a panic. A leading byte order mark is the
/// caller's to strip ([`strip_bom`]).
pub fn tokens(text: &[u8]) -> impl Iterator<Item = Token<'_>> {
    let mut end = Position::START;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < text.len() && text[i].is_ascii_whitespace() {
            end.advance(text[i]);
            i += 1;
        }
        if i >= text.len() {
            return None;
        }
        let (start, at) = (i, end);
        while i < text.len() && !text[i].is_ascii_whitespace() {
            end.advance(text[i]);
            i += 1;
        }
        Some(Token {
            line: at.line,
            column: at.column,
            text: &text[start..i],
        })
    })
}

/// The line and column reached while reading a text.
#[derive(Clone, Copy, Debug)]
struct Position {
    line: usize,
    column: usize,
}

impl Position {
    const START: Position = Position { line: 1, column: 1 };

    /// The position after the byte `b`.
    fn advance(&mut self, b: u8) {
        if b == b'\n' {
            *self = Position {
                line: self.line + 1,
                column: 1,
            };
        } else if starts_char(b) {
            self.column += 1;
        }
    }

    /// Where `text` ends.
    fn end_of(text: &[u8]) -> Position {
        let mut p = Position::START;
        text.iter().for_each(|&b| p.advance(b));
        p
    }
}

/// Shows a token for a message: lossy UTF-8, at most 20 characters.
pub fn show_token(tok: &[u8]) -> String {
    let s = String::from_utf8_lossy(tok);
    let shown: String = s.chars().take(20).flat_map(escape_control).collect();
    if s.chars().count() > 20 {
        format!("{shown}...")
    } else {
        shown
    }
}

use crate::safe::escape_control;

/// Parses a decimal integer (optional sign). Values beyond i64 saturate, so a
/// huge number is still "a number that is out of range", not a different
/// kind of error.
pub fn parse_int(tok: &[u8]) -> Option<i64> {
    let (neg, digits) = match tok.first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        v = v.saturating_mul(10).saturating_add((d - b'0') as i64);
    }
    Some(if neg { -v } else { v })
}

impl Puzzle {
    /// Parses and validates a puzzle against every rule of `RULES.md`.
    pub fn parse(text: &[u8]) -> Result<Puzzle, PuzzleError> {
        let text = strip_bom(text);
        let mut toks = tokens(text).enumerate();
        let mut next = |what: &str| -> Result<(Location, i64), PuzzleError> {
            let Some((idx, tok)) = toks.next() else {
                let end = Position::end_of(text);
                return Err(PuzzleError {
                    at: Some(Location {
                        line: end.line,
                        column: end.column,
                        token_index: idx_after(text),
                        token: String::new(),
                    }),
                    rule: PuzzleRule::Truncated(what.to_string()),
                });
            };
            let at = Location::of(idx, &tok);
            match parse_int(tok.text) {
                Some(v) => Ok((at, v)),
                None => Err(PuzzleError {
                    at: Some(at),
                    rule: PuzzleRule::NotInteger,
                }),
            }
        };
        let (at, n) = next("before n")?;
        if !(1..=MAX_MOVES as i64).contains(&n) {
            return Err(PuzzleError {
                at: Some(at),
                rule: PuzzleRule::BadMoveCount(n),
            });
        }
        let mut board = Board::EMPTY;
        for x in 0..WIDTH {
            let mut y = 0;
            loop {
                let (at, c) = next(&format!("inside column {x} (expected a colour or the closing 0)"))?;
                if c == 0 {
                    break;
                }
                if !(1..=MAX_COLOUR as i64).contains(&c) {
                    return Err(PuzzleError {
                        at: Some(at),
                        rule: PuzzleRule::BadColour(c),
                    });
                }
                if y == HEIGHT {
                    return Err(PuzzleError {
                        at: Some(at),
                        rule: PuzzleRule::ColumnTooTall {
                            column: x,
                            count: y + 1,
                        },
                    });
                }
                board.set(x, y, c as u8);
                y += 1;
            }
        }
        if let Some((idx, tok)) = toks.next() {
            return Err(PuzzleError {
                at: Some(Location::of(idx, &tok)),
                rule: PuzzleRule::TrailingToken,
            });
        }
        if let Some(run) = describe_first_run(&board) {
            return Err(PuzzleError {
                at: None,
                rule: PuzzleRule::InitialRun(run),
            });
        }
        Ok(Puzzle { n: n as u32, board })
    }

    /// The puzzle in the input format (one column a line).
    pub fn to_text(&self) -> String {
        let mut s = format!("{}\n", self.n);
        for col in self.board.columns() {
            for c in col {
                s.push_str(&format!("{c} "));
            }
            s.push_str("0\n");
        }
        s
    }
}

impl Location {
    /// Where the token with 0-based index `idx` stands.
    fn of(idx: usize, tok: &Token) -> Location {
        Location {
            line: tok.line,
            column: tok.column,
            token_index: idx + 1,
            token: show_token(tok.text),
        }
    }
}

/// The 1-based index the next token of `text` would have.
fn idx_after(text: &[u8]) -> usize {
    tokens(text).count() + 1
}

/// Describes the first run of three on a board, e.g. `at row 0, x 1..3` or
/// `in column 2, y 0..2`, or `None` when there is none.
pub fn describe_first_run(board: &Board) -> Option<String> {
    for y in 0..HEIGHT {
        let mut x = 0;
        while x < WIDTH {
            let c = board.get(x, y);
            let mut end = x;
            while end + 1 < WIDTH && c != 0 && board.get(end + 1, y) == c {
                end += 1;
            }
            if c != 0 && end - x >= 2 {
                return Some(format!("at row {y}, x {x}..{end} (colour {c})"));
            }
            x = end + 1;
        }
    }
    for x in 0..WIDTH {
        let mut y = 0;
        while y < HEIGHT {
            let c = board.get(x, y);
            let mut end = y;
            while end + 1 < HEIGHT && c != 0 && board.get(x, end + 1) == c {
                end += 1;
            }
            if c != 0 && end - y >= 2 {
                return Some(format!("in column {x}, y {y}..{end} (colour {c})"));
            }
            y = end + 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_tokens_are_short_and_escape_control_characters() {
        assert_eq!(show_token(b"\x1b[2Jwipe"), "\\u{1b}[2Jwipe");
        assert_eq!(show_token(&[b'9'; 100]), format!("{}...", "9".repeat(20)));
    }
}
