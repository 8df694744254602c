//! Reading a puzzle: `n`, then five columns bottom to top, each closed by `0`.
//!
//! Whitespace of any kind separates tokens and carries no meaning. Every error
//! names the line, the token and the rule of `RULES.md` it breaks, because the
//! validator reports them to problem setters as they are.

use super::board::{Board, HEIGHT, MAX_COLOUR, WIDTH};
use std::fmt;

/// Largest `n` the parser accepts at all. Packages set their own, lower limit
/// (the contest's is 5); beyond this the search is hopeless anyway.
pub const MAX_MOVES: u32 = 12;

/// A puzzle: the number of moves and the starting board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// Number of moves the answer must have.
    pub n: u32,
    /// Starting board.
    pub board: Board,
}

/// Where in the text a token stands.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based index of the token in the file.
    pub token_index: usize,
    /// The token as written (shortened when very long).
    pub token: String,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, token {} `{}`",
            self.line, self.token_index, self.token
        )
    }
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

/// Splits text into whitespace-separated tokens with their line numbers.
/// Works on bytes so binary garbage is reported, not a panic.
pub fn tokens(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut line = 1;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < text.len() && text[i].is_ascii_whitespace() {
            if text[i] == b'\n' {
                line += 1;
            }
            i += 1;
        }
        if i >= text.len() {
            return None;
        }
        let start = i;
        while i < text.len() && !text[i].is_ascii_whitespace() {
            i += 1;
        }
        Some((line, &text[start..i]))
    })
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

/// A character as it may be shown on a terminal: control characters (ESC,
/// BEL, CR, ...) escaped as `\u{1b}`, so text from a program can neither
/// move the cursor nor recolour the screen; newline and tab kept.
pub fn escape_control(c: char) -> impl Iterator<Item = char> {
    let escape = c.is_control() && c != '\n' && c != '\t';
    let (plain, escaped) = if escape {
        (None, Some(c.escape_unicode()))
    } else {
        (Some(c), None)
    };
    plain.into_iter().chain(escaped.into_iter().flatten())
}

/// `text` with [`escape_control`] applied to every character.
pub fn terminal_safe(text: &str) -> String {
    text.chars().flat_map(escape_control).collect()
}

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
        let mut toks = tokens(text).enumerate();
        let mut next = |what: &str| -> Result<(Location, i64), PuzzleError> {
            let Some((idx, (line, tok))) = toks.next() else {
                return Err(PuzzleError {
                    at: None,
                    rule: PuzzleRule::Truncated(what.to_string()),
                });
            };
            let at = Location {
                line,
                token_index: idx + 1,
                token: show_token(tok),
            };
            match parse_int(tok) {
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
        if let Some((idx, (line, tok))) = toks.next() {
            return Err(PuzzleError {
                at: Some(Location {
                    line,
                    token_index: idx + 1,
                    token: show_token(tok),
                }),
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
        assert_eq!(terminal_safe("a\x07b\nc\td\re"), "a\\u{7}b\nc\td\\u{d}e");
    }
}
