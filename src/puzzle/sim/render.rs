//! Text pictures of boards: colour numbers in a 7x5 grid, top row first and
//! the bottom row last, as a player sees the board. Pure string building.

use super::board::{Board, HEIGHT, Marks, MoveTrace, WIDTH, is_marked};

/// ANSI background colours for colours 1..=10 (index 0 unused).
const ANSI_BG: [&str; 11] = ["", "41", "42", "43", "44", "45", "46", "101", "102", "103", "104"];

/// Options for [`render`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// Paint cells with ANSI colours (for a terminal).
    pub ansi: bool,
}

/// Renders a board. Cells in `marks` are shown in brackets (`[ 3]`): the
/// blocks a settle pass is about to remove. Empty cells are dots.
pub fn render(board: &Board, marks: Option<&Marks>, style: Style) -> String {
    let mut out = String::new();
    for y in (0..HEIGHT).rev() {
        out.push_str(&format!("{y} |"));
        for x in 0..WIDTH {
            let c = board.get(x, y);
            let marked = marks.is_some_and(|m| is_marked(m, x, y));
            let cell = match (c, marked) {
                (0, _) => "  . ".to_string(),
                (c, true) => format!("[{c:>2}]"),
                (c, false) => format!(" {c:>2} "),
            };
            if style.ansi && c != 0 {
                out.push_str(&format!("\x1b[{};97m{cell}\x1b[0m", ANSI_BG[c as usize]));
            } else {
                out.push_str(&cell);
            }
        }
        out.push('\n');
    }
    out.push_str("  +");
    out.push_str(&"----".repeat(WIDTH));
    out.push_str("\n   ");
    for x in 0..WIDTH {
        out.push_str(&format!(" {x:>2} "));
    }
    out.push('\n');
    out
}

/// Renders one played move: the board before it, each removal pass (the
/// board after gravity, with the blocks it removes in brackets) and the board
/// after it. `index` is the 1-based move number.
pub fn render_trace(trace: &MoveTrace, index: usize, style: Style) -> String {
    render_trace_with(trace, index, style, &English)
}

/// The captions of a replay's boards, in a person's language (the caller's
/// words: this module knows none but [`English`]).
pub trait Captions {
    /// Above move `index` (`move 1: 2 0 1`).
    fn mv(&self, index: usize, mv: &str) -> String;
    /// Above the board before it.
    fn before(&self) -> String;
    /// Above the board after removal pass `step`, with the blocks cleared.
    fn step(&self, step: usize, cleared: u32) -> String;
    /// When the move clears nothing.
    fn nothing(&self) -> String;
    /// Above the board after move `index`, with the blocks left.
    fn after(&self, index: usize, blocks: u32) -> String;
}

/// The English captions (`check --trace`'s, a protocol: they never change).
pub struct English;

impl Captions for English {
    fn mv(&self, index: usize, mv: &str) -> String {
        format!("move {index}: {mv}")
    }
    fn before(&self) -> String {
        "before:".into()
    }
    fn step(&self, step: usize, cleared: u32) -> String {
        format!("cascade step {step}: {cleared} blocks cleared")
    }
    fn nothing(&self) -> String {
        "nothing cleared".into()
    }
    fn after(&self, index: usize, blocks: u32) -> String {
        format!("after move {index}: {blocks} blocks left")
    }
}

/// [`render_trace`] with the captions of `words`.
pub fn render_trace_with(trace: &MoveTrace, index: usize, style: Style, words: &dyn Captions) -> String {
    let mut out = format!("{}\n", words.mv(index, &trace.mv.to_string()));
    out.push_str(&format!("{}\n", words.before()));
    let mut mover = [0u32; WIDTH];
    mover[trace.mv.x as usize] |= 1 << (4 * trace.mv.y);
    out.push_str(&render(&trace.before, Some(&mover), style));
    for (i, step) in trace.steps.iter().enumerate() {
        let cleared: u32 = step.cleared.iter().map(|m| m.count_ones()).sum();
        out.push_str(&format!("{}\n", words.step(i + 1, cleared)));
        out.push_str(&render(&step.board, Some(&step.cleared), style));
    }
    if trace.steps.is_empty() {
        out.push_str(&format!("{}\n", words.nothing()));
    }
    let blocks = trace.after.block_count();
    out.push_str(&format!("{}\n", words.after(index, blocks)));
    out.push_str(&render(&trace.after, None, style));
    out
}

/// Every move of a sequence played from `board`, each rendered as by
/// [`render_trace`], separated by blank lines.
pub fn render_replay(board: &Board, moves: &[super::board::Move], style: Style) -> String {
    render_replay_with(board, moves, style, &English)
}

/// [`render_replay`] with the captions of `words`.
pub fn render_replay_with(
    board: &Board,
    moves: &[super::board::Move],
    style: Style,
    words: &dyn Captions,
) -> String {
    let mut out = String::new();
    let mut b = *board;
    for (i, &mv) in moves.iter().enumerate() {
        let trace = b.play_traced(mv);
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&render_trace_with(&trace, i + 1, style, words));
        b = trace.after;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bottom_row_is_printed_last_and_marks_are_bracketed() {
        let b = Board::from_columns(&[vec![1, 2], vec![3], vec![], vec![], vec![10]]).unwrap();
        let mut marks = [0; WIDTH];
        marks[1] = 1;
        let text = render(&b, Some(&marks), Style::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[5], "1 |  2   .   .   .   . ");
        assert_eq!(lines[6], "0 |  1 [ 3]  .   .  10 ");
        assert_eq!(lines[0], "6 |  .   .   .   .   . ");
    }
}
