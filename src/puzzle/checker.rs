//! The checker: judges a contestant's output for one puzzle.
//!
//! Order of the checks: the reference first (a stored answer that disagrees
//! with the solver is the judge's fault, so it is reported as `FAIL` whatever
//! the contestant wrote); then the output's format (`PE`); then the replay of
//! the contestant's moves in the simulator (`WA` for an illegal move, a board
//! emptied too early, or blocks left); and only then the comparison with the
//! smallest solution. Every verdict carries a precise reason; a reason about
//! the text names its line and column.
//!
//! Outputs and stored answers are read as the inputs are: blanks, blank lines,
//! CRLF line ends and a leading UTF-8 byte order mark carry no meaning.

use crate::puzzle::sim::{Board, IllegalMove, Move, Puzzle, Token, parse_int, show_token, strip_bom, tokens};
use crate::puzzle::solver::{Reading, format_moves, solve};
use crate::puzzle::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How to judge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Options {
    /// How the rules are read; the literal rules by default.
    pub reading: Reading,
    /// Accept any valid solution, not only the smallest.
    pub accept_any: bool,
}

/// Why an output got its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// The output is the smallest solution (or any valid one, when allowed),
    /// or `-1` where there is none.
    Correct,
    /// The output is empty.
    EmptyOutput,
    /// A token that is not an integer.
    NotInteger {
        /// 1-based line.
        line: usize,
        /// 1-based column where the token starts.
        column: usize,
        /// The token.
        token: String,
    },
    /// A move line without exactly three tokens.
    BadTokenCount {
        /// 1-based line.
        line: usize,
        /// 1-based column of the fourth token, or just after the last one
        /// when there are fewer than three.
        column: usize,
        /// How many tokens the line has.
        found: usize,
    },
    /// `-1` on a line that is not the only one.
    MinusOneNotAlone {
        /// 1-based line.
        line: usize,
        /// 1-based column of the line's first token.
        column: usize,
    },
    /// More move lines than `n`.
    TooManyLines {
        /// The line after the n-th move.
        line: usize,
        /// 1-based column of the line's first token.
        column: usize,
        /// n.
        n: u32,
    },
    /// Fewer move lines than `n`, and they do not empty the board.
    TooFewLines {
        /// How many moves were given.
        found: usize,
        /// n.
        n: u32,
    },
    /// Move `index` (1-based) is illegal.
    IllegalMove {
        /// 1-based move number.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it is illegal.
        why: Illegal,
    },
    /// The board was empty after move `index` < n.
    EmptiedEarly {
        /// 1-based move that emptied it.
        index: usize,
        /// n.
        n: u32,
    },
    /// Blocks remain after the last move.
    BlocksLeft {
        /// Moves played.
        moves: usize,
        /// Blocks left.
        blocks: u32,
    },
    /// `-1`, but a solution exists.
    MissedSolution {
        /// The reference's first move.
        reference_first: String,
    },
    /// A valid solution, but not the smallest.
    NotSmallest {
        /// 1-based index of the first move that differs.
        index: usize,
        /// The contestant's move there.
        theirs: String,
        /// The smallest solution's move there.
        expected: String,
    },
    /// The stored answer is not in the answer format.
    BadAnswerFile {
        /// What is wrong with it.
        detail: String,
    },
    /// The puzzle itself is invalid.
    BadInput {
        /// What is wrong with it.
        detail: String,
    },
    /// The stored answer disagrees with the solver.
    AnswerDisagrees {
        /// The stored answer, one line.
        stored: String,
        /// The solver's answer, one line.
        solver: String,
    },
    /// The contestant's moves legally clear a board the solver calls impossible.
    SolverMissed {
        /// The contestant's moves, one line.
        moves: String,
    },
}

/// Why a move is illegal, as data (its words are chosen where it is
/// shown). In JSON it is its English words, as reports have always held
/// it, and is read back from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The simulator's reason.
    Move(IllegalMove),
    /// Words read back that name no rule of the simulator's (a report
    /// written by another version).
    Text(String),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // In a replay, the board emptied by an earlier move.
            Illegal::Move(IllegalMove::EmptyBoard) => f.write_str("the board is already empty"),
            Illegal::Move(m) => write!(f, "{m}"),
            Illegal::Text(t) => f.write_str(t),
        }
    }
}

impl Serialize for Illegal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Illegal {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Illegal, D::Error> {
        let text = String::deserialize(d)?;
        Ok(Illegal::read(&text).map_or(Illegal::Text(text), Illegal::Move))
    }
}

impl Illegal {
    /// The simulator's reason its English words (as [`Illegal`]'s
    /// `Display` writes them) name.
    fn read(text: &str) -> Option<IllegalMove> {
        let int = |t: &str| t.parse::<i64>().ok();
        let cell = |t: &str| {
            let (x, y) = t.strip_prefix("cell (")?.split_once(", ")?;
            Some((x.parse::<u8>().ok()?, y.parse::<u8>().ok()?))
        };
        let between = |prefix: &str, suffix: &str| {
            text.strip_prefix(prefix)?
                .strip_suffix(suffix)
                .map(str::to_string)
        };
        if text == "the board is already empty" {
            return Some(IllegalMove::EmptyBoard);
        }
        if let Some(n) = between("x = ", " is off the board (0..4)").and_then(|t| int(&t)) {
            return Some(IllegalMove::XOutOfRange(n));
        }
        if let Some(n) = between("y = ", " is off the board (0..6)").and_then(|t| int(&t)) {
            return Some(IllegalMove::YOutOfRange(n));
        }
        if let Some(n) = between("g = ", " must be 1 or -1").and_then(|t| int(&t)) {
            return Some(IllegalMove::BadDirection(n));
        }
        if let Some(n) = between("x + g = ", " moves the block off the board").and_then(|t| int(&t)) {
            return Some(IllegalMove::OffEdge(n));
        }
        if let Some((x, y)) = text.strip_suffix(") is empty").and_then(cell) {
            return Some(IllegalMove::EmptyCell { x, y });
        }
        let noop = ") and its neighbour have the same colour (not a move under no-noop)";
        text.strip_suffix(noop)
            .and_then(cell)
            .map(|(x, y)| IllegalMove::NoOp { x, y })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Correct => write!(f, "correct"),
            Reason::EmptyOutput => write!(f, "empty output: expected n moves or -1"),
            Reason::NotInteger { line, column, token } => {
                write!(
                    f,
                    "line {line}, column {column}: token `{token}` is not an integer"
                )
            }
            Reason::BadTokenCount { line, column, found } => write!(
                f,
                "line {line}, column {column}: expected 3 integers `x y g`, found {found} tokens"
            ),
            Reason::MinusOneNotAlone { line, column } => {
                write!(f, "line {line}, column {column}: `-1` must be the only line")
            }
            Reason::TooManyLines { line, column, n } => {
                write!(f, "line {line}, column {column}: more than n = {n} moves")
            }
            Reason::TooFewLines { found, n } => write!(f, "{found} moves given, n = {n} required"),
            Reason::IllegalMove { index, text, why } => write!(f, "move {index} `{text}` is illegal: {why}"),
            Reason::EmptiedEarly { index, n } => {
                write!(
                    f,
                    "the board is empty after move {index}, but n = {n} moves are required"
                )
            }
            Reason::BlocksLeft { moves, blocks } => {
                write!(f, "after {moves} moves the board still holds {blocks} blocks")
            }
            Reason::MissedSolution { reference_first } => {
                write!(
                    f,
                    "answer is -1 but a solution exists (it starts with `{reference_first}`)"
                )
            }
            Reason::NotSmallest {
                index,
                theirs,
                expected,
            } => write!(
                f,
                "the moves clear the board but are not the smallest solution: move {index} is `{theirs}`, the smallest solution has `{expected}`"
            ),
            Reason::BadAnswerFile { detail } => write!(f, "judge error: stored answer: {detail}"),
            Reason::BadInput { detail } => write!(f, "judge error: invalid puzzle: {detail}"),
            Reason::AnswerDisagrees { stored, solver } => write!(
                f,
                "judge error: the stored answer `{stored}` disagrees with the solver's `{solver}`"
            ),
            Reason::SolverMissed { moves } => write!(
                f,
                "judge error: the moves `{moves}` legally clear a board the solver calls impossible"
            ),
        }
    }
}

impl Reason {
    /// Where in the text the reason points: `(line, column)`, both 1-based.
    pub fn position(&self) -> Option<(usize, usize)> {
        match *self {
            Reason::NotInteger { line, column, .. }
            | Reason::BadTokenCount { line, column, .. }
            | Reason::MinusOneNotAlone { line, column }
            | Reason::TooManyLines { line, column, .. } => Some((line, column)),
            _ => None,
        }
    }

    /// The 1-based move the reason blames, when one move is to blame.
    pub fn wrong_move(&self) -> Option<usize> {
        match *self {
            Reason::IllegalMove { index, .. }
            | Reason::NotSmallest { index, .. }
            | Reason::EmptiedEarly { index, .. } => Some(index),
            _ => None,
        }
    }
}

/// Where the `k`-th (1-based) non-blank line of an answer starts: `(line,
/// column)` of its first token, as [`parse_answer`] counts them.
pub fn line_of_move(text: &[u8], k: usize) -> Option<(usize, usize)> {
    strip_bom(text)
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(idx, raw)| tokens(raw).next().map(|t| (idx + 1, t.column)))
        .nth(k.checked_sub(1)?)
}

/// The judgement of one output (read back from its JSON as written).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    /// AC, WA, PE or FAIL.
    pub verdict: Verdict,
    /// Why.
    pub reason: Reason,
    /// The reason in words.
    pub message: String,
    /// The contestant's moves that parsed (all of them, for a PE-free output).
    #[serde(serialize_with = "ser_moves", deserialize_with = "de_moves")]
    pub moves: Vec<Move>,
    /// 1-based index of the first wrong move, when one move is to blame.
    pub first_wrong_move: Option<usize>,
    /// That move as the contestant wrote it.
    pub first_wrong_move_text: Option<String>,
    /// 1-based line of the output the judgement points at: the place of a
    /// format error, or the line of the first wrong move.
    pub line: Option<usize>,
    /// 1-based column there (where the token or the move starts).
    pub column: Option<usize>,
    /// The reference answer the output was judged against.
    pub reference: Reference,
}

/// The reference answer behind a judgement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Reference {
    /// Not computed (the input or the stored answer was wrong).
    #[default]
    NotComputed,
    /// The puzzle has no solution: the answer is `-1`.
    NoSolution,
    /// The smallest solution.
    Solution(Vec<Move>),
}

impl Reference {
    /// The reference of a solver's answer (`None`: no solution).
    pub fn of(moves: &Option<Vec<Move>>) -> Reference {
        match moves {
            None => Reference::NoSolution,
            Some(m) => Reference::Solution(m.clone()),
        }
    }

    /// The solution's moves, when there is one.
    pub fn solution(&self) -> Option<&[Move]> {
        match self {
            Reference::Solution(m) => Some(m),
            _ => None,
        }
    }
}

/// `null` when not computed, `"-1"` for no solution, else the moves.
impl Serialize for Reference {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Reference::NotComputed => s.serialize_none(),
            Reference::NoSolution => s.serialize_str("-1"),
            Reference::Solution(v) => ser_moves(v, s),
        }
    }
}

/// Reads what [`Reference`]'s `Serialize` writes.
impl<'de> Deserialize<'de> for Reference {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Reference, D::Error> {
        d.deserialize_any(ReferenceVisitor)
    }
}

/// `null`, `"-1"` or a list of moves, into a [`Reference`].
struct ReferenceVisitor;

impl<'de> serde::de::Visitor<'de> for ReferenceVisitor {
    type Value = Reference;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null, \"-1\" or a list of moves `x y g`")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Reference, E> {
        Ok(Reference::NotComputed)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Reference, E> {
        Ok(Reference::NotComputed)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Reference, E> {
        match v {
            "-1" => Ok(Reference::NoSolution),
            _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
        }
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Reference, A::Error> {
        let mut moves = Vec::new();
        while let Some(text) = seq.next_element::<String>()? {
            moves.push(parse_move::<A::Error>(&text)?);
        }
        Ok(Reference::Solution(moves))
    }
}

fn ser_moves<S: serde::Serializer>(m: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(m.iter().map(|m| m.to_string()))
}

/// Reads what [`ser_moves`] writes.
fn de_moves<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
    Vec::<String>::deserialize(d)?
        .iter()
        .map(|text| parse_move::<D::Error>(text))
        .collect()
}

fn parse_move<E: serde::de::Error>(text: &str) -> Result<Move, E> {
    text.parse().map_err(E::custom)
}

impl Judgement {
    fn new(verdict: Verdict, reason: Reason) -> Judgement {
        let first_wrong_move = reason.wrong_move();
        let first_wrong_move_text = match &reason {
            Reason::IllegalMove { text, .. } => Some(text.clone()),
            Reason::NotSmallest { theirs, .. } => Some(theirs.clone()),
            _ => None,
        };
        let (line, column) = reason.position().unzip();
        Judgement {
            verdict,
            message: reason.to_string(),
            reason,
            moves: Vec::new(),
            first_wrong_move,
            first_wrong_move_text,
            line,
            column,
            reference: Reference::NotComputed,
        }
    }

    /// Points a judgement about a move at that move's line in `output`, and
    /// starts its message with the place, as a format error's message does.
    fn locate_move(&mut self, output: &[u8]) {
        if self.line.is_some() {
            return;
        }
        let Some((line, column)) = self.first_wrong_move.and_then(|k| line_of_move(output, k)) else {
            return;
        };
        self.line = Some(line);
        self.column = Some(column);
        self.message = format!("line {line}, column {column}: {}", self.message);
    }
}

/// A contestant's (or a stored) answer, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// The single line `-1`.
    NoSolution,
    /// Move lines as written (values not yet checked against the board).
    Moves(Vec<[i64; 3]>),
}

/// Parses answer text: `-1` alone, or at most `n` lines of three integers.
/// Blank lines, extra blanks, CRLF line ends and a leading byte order mark
/// are ignored; reading stops at the first line past `n`, so a huge output
/// costs nothing.
pub fn parse_answer(text: &[u8], n: u32) -> Result<Parsed, Reason> {
    let mut moves = Vec::new();
    let mut minus_one_line = None;
    for (idx, raw) in strip_bom(text).split(|&b| b == b'\n').enumerate() {
        let line = idx + 1;
        let toks: Vec<Token> = tokens(raw).take(4).collect();
        let Some(first) = toks.first() else {
            continue;
        };
        let column = first.column;
        if minus_one_line.is_some() {
            return Err(Reason::MinusOneNotAlone { line, column });
        }
        if toks.len() == 1 && first.text == b"-1" {
            if !moves.is_empty() {
                return Err(Reason::MinusOneNotAlone { line, column });
            }
            minus_one_line = Some(line);
            continue;
        }
        let mut v = [0i64; 3];
        for (i, t) in toks.iter().enumerate().take(3) {
            v[i] = parse_int(t.text).ok_or_else(|| Reason::NotInteger {
                line,
                column: t.column,
                token: show_token(t.text),
            })?;
        }
        if toks.len() != 3 {
            let column = toks
                .get(3)
                .map_or_else(|| toks[toks.len() - 1].end_column(), |t| t.column);
            return Err(Reason::BadTokenCount {
                line,
                column,
                found: tokens(raw).count(),
            });
        }
        if moves.len() == n as usize {
            return Err(Reason::TooManyLines { line, column, n });
        }
        moves.push(v);
    }
    match (minus_one_line, moves.is_empty()) {
        (Some(_), _) => Ok(Parsed::NoSolution),
        (None, true) => Err(Reason::EmptyOutput),
        (None, false) => Ok(Parsed::Moves(moves)),
    }
}

/// The outcome of replaying written moves on a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// The moves are legal and leave the board empty, as the reading requires.
    Cleared(Vec<Move>),
    /// They are not a solution; the reason, and the legal moves before it.
    Failed(Reason, Vec<Move>),
}

/// Replays moves in the simulator under a reading.
pub fn replay(puzzle: &Puzzle, written: &[[i64; 3]], reading: Reading) -> Replay {
    let mut board: Board = puzzle.board;
    let mut played = Vec::with_capacity(written.len());
    for (i, &[x, y, g]) in written.iter().enumerate() {
        if i > 0 && board.is_empty() && !reading.at_most {
            return Replay::Failed(
                Reason::EmptiedEarly {
                    index: i,
                    n: puzzle.n,
                },
                played,
            );
        }
        let mv = match board.check_move(x, y, g, reading.count_noop) {
            Ok(mv) => mv,
            Err(why) => {
                let reason = Reason::IllegalMove {
                    index: i + 1,
                    text: format!("{x} {y} {g}"),
                    why: Illegal::Move(why),
                };
                return Replay::Failed(reason, played);
            }
        };
        board.play(mv);
        played.push(mv);
    }
    if !board.is_empty() {
        let reason = if played.len() < puzzle.n as usize && !reading.at_most {
            Reason::TooFewLines {
                found: played.len(),
                n: puzzle.n,
            }
        } else {
            Reason::BlocksLeft {
                moves: played.len(),
                blocks: board.block_count(),
            }
        };
        return Replay::Failed(reason, played);
    }
    if played.len() < puzzle.n as usize && !reading.at_most {
        return Replay::Failed(
            Reason::EmptiedEarly {
                index: played.len(),
                n: puzzle.n,
            },
            played,
        );
    }
    Replay::Cleared(played)
}

/// The reference answer of a puzzle: the solver's, after checking that the
/// stored answer (when given) agrees with it. `Err` is a `FAIL` judgement.
pub fn reference(
    puzzle: &Puzzle,
    stored: Option<&[u8]>,
    reading: Reading,
) -> Result<Option<Vec<Move>>, Box<Judgement>> {
    let solved = solve(puzzle, reading).moves;
    if let Some(text) = stored {
        let fail = |reason| Err(Box::new(Judgement::new(Verdict::Fail, reason)));
        let stored_moves = match parse_answer(text, puzzle.n) {
            Err(r) => {
                return fail(Reason::BadAnswerFile {
                    detail: r.to_string(),
                });
            }
            Ok(Parsed::NoSolution) => None,
            Ok(Parsed::Moves(m)) => Some(m),
        };
        let solver_moves: Option<Vec<[i64; 3]>> = solved.as_ref().map(|v| {
            v.iter()
                .map(|m| [m.x as i64, m.y as i64, m.dir.g() as i64])
                .collect()
        });
        if stored_moves != solver_moves {
            let one_line = |s: String| s.trim().replace('\n', ", ");
            let stored_text = match &stored_moves {
                None => "-1".to_string(),
                Some(m) => m
                    .iter()
                    .map(|[x, y, g]| format!("{x} {y} {g}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            return fail(Reason::AnswerDisagrees {
                stored: stored_text,
                solver: one_line(format_moves(solved.as_deref())),
            });
        }
    }
    Ok(solved)
}

/// Judges an output against a known reference answer.
pub fn judge(puzzle: &Puzzle, output: &[u8], reference: &Option<Vec<Move>>, opts: Options) -> Judgement {
    let mut j = judge_inner(puzzle, output, reference, opts);
    j.reference = Reference::of(reference);
    j.locate_move(output);
    j
}

fn judge_inner(puzzle: &Puzzle, output: &[u8], reference: &Option<Vec<Move>>, opts: Options) -> Judgement {
    let written = match parse_answer(output, puzzle.n) {
        Err(reason) => return Judgement::new(Verdict::PresentationError, reason),
        Ok(Parsed::NoSolution) => {
            return match reference {
                None => Judgement::new(Verdict::Accepted, Reason::Correct),
                Some(r) => Judgement::new(
                    Verdict::WrongAnswer,
                    Reason::MissedSolution {
                        reference_first: r.first().map_or_else(String::new, Move::to_string),
                    },
                ),
            };
        }
        Ok(Parsed::Moves(m)) => m,
    };
    let moves = match replay(puzzle, &written, opts.reading) {
        Replay::Failed(reason, played) => {
            let verdict = match reason {
                Reason::TooFewLines { .. } => Verdict::PresentationError,
                _ => Verdict::WrongAnswer,
            };
            let mut j = Judgement::new(verdict, reason);
            if let (Some(i), None) = (j.first_wrong_move, &j.first_wrong_move_text) {
                // The move that emptied the board too early.
                j.first_wrong_move_text = played.get(i.wrapping_sub(1)).map(Move::to_string);
            }
            j.moves = played;
            return j;
        }
        Replay::Cleared(moves) => moves,
    };
    let mut j = match reference {
        None => Judgement::new(
            Verdict::Fail,
            Reason::SolverMissed {
                moves: moves.iter().map(Move::to_string).collect::<Vec<_>>().join(", "),
            },
        ),
        Some(_) if opts.accept_any => Judgement::new(Verdict::Accepted, Reason::Correct),
        Some(r) => match moves.iter().zip(r).position(|(a, b)| a != b) {
            None if moves.len() == r.len() => Judgement::new(Verdict::Accepted, Reason::Correct),
            // Both end on an empty board, where no move is legal, so one cannot
            // be a proper prefix of the other; this arm is for completeness.
            None => Judgement::new(
                Verdict::Fail,
                Reason::SolverMissed {
                    moves: format!("{} moves against the reference's {}", moves.len(), r.len()),
                },
            ),
            Some(i) => Judgement::new(
                Verdict::WrongAnswer,
                Reason::NotSmallest {
                    index: i + 1,
                    theirs: moves[i].to_string(),
                    expected: r[i].to_string(),
                },
            ),
        },
    };
    j.moves = moves;
    j
}

/// Checks an output from the three files' contents (the `check` command and
/// checker protocols): the puzzle, the output, and optionally the stored answer.
pub fn check(input: &[u8], output: &[u8], answer: Option<&[u8]>, opts: Options) -> Judgement {
    let puzzle = match Puzzle::parse(input) {
        Ok(p) => p,
        Err(e) => {
            return Judgement::new(
                Verdict::Fail,
                Reason::BadInput {
                    detail: e.to_string(),
                },
            );
        }
    };
    match reference(&puzzle, answer, opts.reading) {
        Err(fail) => *fail,
        Ok(r) => judge(&puzzle, output, &r, opts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Official case 4: n = 3, answer `2 0 1`, `1 1 1`, `3 4 -1`.
    const CASE4: &str = "3\n1 2 2 3 2 0\n1 4 1 3 4 0\n5 1 4 1 3 3 0\n1 5 3 5 3 5 0\n4 4 3 4 4 0\n";
    const CASE4_ANSWER: &str = "2 0 1\n1 1 1\n3 4 -1\n";
    /// Official case 1: no solution.
    const CASE1: &str = "2\n1 0\n1 0\n0\n1 0\n1 0\n";
    /// Row 0 reads 1 . 1 1 .; n = 2: literal answer `2 0 1`, `0 0 1`.
    const EARLY: &str = "2\n1 0\n0\n1 0\n1 0\n0\n";

    fn run(input: &str, output: &[u8]) -> Judgement {
        check(input.as_bytes(), output, None, Options::default())
    }

    fn reason(input: &str, output: &[u8]) -> (Verdict, Reason) {
        let j = run(input, output);
        (j.verdict, j.reason)
    }

    #[test]
    fn the_smallest_solution_is_accepted() {
        assert_eq!(
            reason(CASE4, CASE4_ANSWER.as_bytes()),
            (Verdict::Accepted, Reason::Correct)
        );
    }

    #[test]
    fn minus_one_is_accepted_when_there_is_no_solution() {
        assert_eq!(reason(CASE1, b"-1\n"), (Verdict::Accepted, Reason::Correct));
    }

    #[test]
    fn crlf_blank_lines_and_extra_blanks_are_tolerated() {
        let out = b"\r\n 2 0 1 \r\n\n1\t1 1\r\n3 4 -1";
        assert_eq!(run(CASE4, out).verdict, Verdict::Accepted);
    }

    #[test]
    fn not_smallest_names_the_move_that_differs() {
        // Literal answer of EARLY is `2 0 1`, `0 0 1`; `2 0 -1`, `3 0 -1` also
        // clears it (the no-noop answer).
        let j = run(EARLY, b"2 0 -1\n3 0 -1\n");
        assert_eq!(j.verdict, Verdict::WrongAnswer);
        assert_eq!(
            j.reason,
            Reason::NotSmallest {
                index: 1,
                theirs: "2 0 -1".into(),
                expected: "2 0 1".into()
            }
        );
        assert_eq!(j.first_wrong_move, Some(1));
        // Accepted when any solution will do.
        let any = Options {
            accept_any: true,
            ..Options::default()
        };
        let j = check(EARLY.as_bytes(), b"2 0 -1\n3 0 -1\n", None, any);
        assert_eq!(j.verdict, Verdict::Accepted);
    }

    #[test]
    fn minus_one_when_a_solution_exists_shows_the_reference_first_move() {
        assert_eq!(
            reason(CASE4, b"-1\n"),
            (
                Verdict::WrongAnswer,
                Reason::MissedSolution {
                    reference_first: "2 0 1".into()
                }
            )
        );
    }

    #[test]
    fn a_wrong_move_is_named_by_its_line_and_column_in_the_output() {
        let j = run(CASE4, b"\n2 0 1\n\n  1 9 1\n3 4 -1\n");
        assert_eq!(
            (j.first_wrong_move, j.line, j.column),
            (Some(2), Some(4), Some(3))
        );
        assert!(
            j.message
                .starts_with("line 4, column 3: move 2 `1 9 1` is illegal"),
            "{}",
            j.message
        );
        let j = run(EARLY, b"2 0 -1\r\n 3 0 -1\n");
        assert_eq!(j.verdict, Verdict::WrongAnswer);
        assert!(
            j.message.starts_with("line 1, column 1: the moves clear"),
            "{}",
            j.message
        );
        // A format error keeps its own place, named once.
        let j = run(CASE4, b"2 0 1\n1 x 1\n");
        assert_eq!((j.line, j.column), (Some(2), Some(3)));
        assert_eq!(j.message, "line 2, column 3: token `x` is not an integer");
    }

    #[test]
    fn why_a_move_is_illegal_is_data_written_in_json_as_its_english_words() {
        let every = [
            IllegalMove::XOutOfRange(-3),
            IllegalMove::YOutOfRange(i64::MAX),
            IllegalMove::BadDirection(0),
            IllegalMove::OffEdge(5),
            IllegalMove::EmptyCell { x: 1, y: 6 },
            IllegalMove::EmptyBoard,
            IllegalMove::NoOp { x: 4, y: 0 },
        ];
        for m in every {
            let why = Illegal::Move(m);
            let json = serde_json::to_string(&why).unwrap();
            assert_eq!(json, format!("\"{why}\""));
            assert_eq!(serde_json::from_str::<Illegal>(&json).unwrap(), why, "{json}");
        }
        let other: Illegal = serde_json::from_str("\"a rule of another version\"").unwrap();
        assert_eq!(other, Illegal::Text("a rule of another version".into()));
    }

    #[test]
    fn illegal_moves_say_why() {
        let why = |out: &str| match run(CASE4, out.as_bytes()).reason {
            Reason::IllegalMove { index, why, .. } => (index, why.to_string()),
            other => panic!("{other:?}"),
        };
        assert_eq!(why("2 0 1\n1 6 1\n3 4 -1\n"), (2, "cell (1, 6) is empty".into()));
        assert_eq!(
            why("5 0 1\n1 1 1\n3 4 -1\n"),
            (1, "x = 5 is off the board (0..4)".into())
        );
        assert_eq!(
            why("0 9 1\n1 1 1\n3 4 -1\n"),
            (1, "y = 9 is off the board (0..6)".into())
        );
        assert_eq!(why("0 0 0\n1 1 1\n3 4 -1\n"), (1, "g = 0 must be 1 or -1".into()));
        assert_eq!(
            why("0 0 -1\n1 1 1\n3 4 -1\n"),
            (1, "x + g = -1 moves the block off the board".into())
        );
        assert_eq!(
            why("99999999999999999999 0 1\n1 1 1\n3 4 -1\n"),
            (1, format!("x = {} is off the board (0..4)", i64::MAX))
        );
    }

    #[test]
    fn a_board_emptied_before_the_last_move_is_wrong() {
        // 0 0 1 clears the board at once; the second move has nothing to move.
        let j = run(EARLY, b"0 0 1\n0 0 1\n");
        assert_eq!(
            (j.verdict, j.reason),
            (Verdict::WrongAnswer, Reason::EmptiedEarly { index: 1, n: 2 })
        );
        // The same when the output stops there.
        assert_eq!(
            reason(EARLY, b"0 0 1\n").1,
            Reason::EmptiedEarly { index: 1, n: 2 }
        );
        // ...which is the answer under at-most.
        let at_most = Options {
            reading: Reading::AT_MOST,
            ..Options::default()
        };
        assert_eq!(
            check(EARLY.as_bytes(), b"0 0 1\n", None, at_most).verdict,
            Verdict::Accepted
        );
    }

    #[test]
    fn blocks_left_after_the_last_move_are_counted() {
        // 27 blocks; the first two moves clear three each, the third nothing.
        assert_eq!(
            reason(CASE4, b"2 0 1\n1 1 1\n4 0 -1\n").1,
            Reason::BlocksLeft { moves: 3, blocks: 21 }
        );
    }

    #[test]
    fn a_byte_order_mark_is_whitespace() {
        let out = [crate::puzzle::sim::BOM, b"2 0 1\r\n1 1 1\r\n3 4 -1\r\n"].concat();
        assert_eq!(run(CASE4, &out).verdict, Verdict::Accepted);
        let input = [crate::puzzle::sim::BOM, CASE4.replace('\n', "\r\n").as_bytes()].concat();
        let answer = [crate::puzzle::sim::BOM, b"2 0 1\r\n1 1 1\r\n3 4 -1"].concat();
        let j = check(&input, &out, Some(&answer), Options::default());
        assert_eq!(j.verdict, Verdict::Accepted, "{}", j.message);
        // Columns count from after the mark.
        let out = [crate::puzzle::sim::BOM, b"2 0 x\n"].concat();
        assert_eq!(
            run(CASE4, &out).message,
            "line 1, column 5: token `x` is not an integer"
        );
    }

    #[test]
    fn format_errors_are_presentation_errors_naming_line_column_and_token() {
        use Reason::*;
        assert_eq!(reason(CASE4, b""), (Verdict::PresentationError, EmptyOutput));
        assert_eq!(reason(CASE4, b"\n \n"), (Verdict::PresentationError, EmptyOutput));
        assert_eq!(
            reason(CASE4, b"2 0 1\n1 one 1\n"),
            (
                Verdict::PresentationError,
                NotInteger {
                    line: 2,
                    column: 3,
                    token: "one".into()
                }
            )
        );
        assert_eq!(
            reason(CASE4, b"2 0 1\n\t1  1\n").1,
            BadTokenCount {
                line: 2,
                column: 6,
                found: 2
            }
        );
        assert_eq!(
            reason(CASE4, b"2 0 1 1\n").1,
            BadTokenCount {
                line: 1,
                column: 7,
                found: 4
            }
        );
        assert_eq!(
            reason(CASE4, b"-1\n -1\n").1,
            MinusOneNotAlone { line: 2, column: 2 }
        );
        assert_eq!(
            reason(CASE4, b"2 0 1\n-1\n").1,
            MinusOneNotAlone { line: 2, column: 1 }
        );
        assert_eq!(
            reason(CASE4, format!("{CASE4_ANSWER}0 0 1\n").as_bytes()).1,
            TooManyLines {
                line: 4,
                column: 1,
                n: 3
            }
        );
        assert_eq!(reason(CASE4, b"2 0 1\n").1, TooFewLines { found: 1, n: 3 });
        // Every reason about the text says where, in the same words.
        for out in [
            &b"2 0 1\n1 one 1\n"[..],
            b"2 0 1 1\n",
            b"-1\n-1\n",
            b"1 1 1\n2 2 1\n3 3 1\n4 4 1\n",
        ] {
            let message = run(CASE4, out).message;
            assert!(
                message.starts_with("line ") && message.contains(", column "),
                "{message}"
            );
        }
        // Columns count characters, not bytes.
        assert_eq!(
            run(CASE4, "2 0 1\n1 é 1\n".as_bytes()).message,
            "line 2, column 3: token `é` is not an integer"
        );
        assert_eq!(
            run(CASE4, "é 0 x\n".as_bytes()).message,
            "line 1, column 1: token `é` is not an integer"
        );
    }

    #[test]
    fn garbage_gets_a_verdict_never_a_panic() {
        let binary: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
        assert_eq!(run(CASE4, &binary).verdict, Verdict::PresentationError);
        let million = "0 0 1\n".repeat(1_000_000);
        let j = run(CASE4, million.as_bytes());
        assert_eq!(
            j.reason,
            Reason::TooManyLines {
                line: 4,
                column: 1,
                n: 3
            }
        );
        // One huge line of tokens is counted in one pass.
        let wide = "1 ".repeat(500_000);
        let j = run(CASE4, wide.as_bytes());
        assert!(
            j.message.starts_with("line 1, column 7: expected 3 integers"),
            "{}",
            j.message
        );
        let huge = format!("{} 0 1\n", "9".repeat(100_000));
        assert_eq!(run(CASE4, huge.as_bytes()).verdict, Verdict::WrongAnswer);
        assert_eq!(run(CASE4, b"\xff\xfe\x00").verdict, Verdict::PresentationError);
        assert_eq!(
            run(CASE4, b"1 1 1 1 1 1 1 1 1 1 1 1 1").verdict,
            Verdict::PresentationError
        );
    }

    #[test]
    fn a_stored_answer_that_disagrees_with_the_solver_is_a_judge_failure() {
        let j = check(
            CASE4.as_bytes(),
            CASE4_ANSWER.as_bytes(),
            Some(b"-1\n"),
            Options::default(),
        );
        assert_eq!(j.verdict, Verdict::Fail);
        assert!(
            matches!(j.reason, Reason::AnswerDisagrees { .. }),
            "{:?}",
            j.reason
        );
        // ...even when the contestant's output is garbage.
        let j = check(CASE4.as_bytes(), b"garbage", Some(b"2 0 1\n"), Options::default());
        assert_eq!(j.verdict, Verdict::Fail);
        let j = check(CASE4.as_bytes(), b"-1", Some(b"x y z\n"), Options::default());
        assert!(matches!(j.reason, Reason::BadAnswerFile { .. }), "{:?}", j.reason);
        // A stored answer that agrees changes nothing.
        let j = check(
            CASE4.as_bytes(),
            CASE4_ANSWER.as_bytes(),
            Some(CASE4_ANSWER.as_bytes()),
            Options::default(),
        );
        assert_eq!(j.verdict, Verdict::Accepted);
    }

    #[test]
    fn moves_that_clear_a_board_the_reference_calls_impossible_are_a_judge_failure() {
        let p = Puzzle::parse(CASE4.as_bytes()).unwrap();
        let j = judge(&p, CASE4_ANSWER.as_bytes(), &None, Options::default());
        assert_eq!(j.verdict, Verdict::Fail);
        assert!(matches!(j.reason, Reason::SolverMissed { .. }));
    }

    #[test]
    fn an_invalid_puzzle_is_a_judge_failure() {
        let j = check(b"3\n1 1 1 0 0 0 0 0", b"-1", None, Options::default());
        assert_eq!(j.verdict, Verdict::Fail);
        assert!(matches!(j.reason, Reason::BadInput { .. }));
    }
}
