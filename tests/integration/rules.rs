//! RULES.md, clause by clause, on hand-made boards.

use mayan_judge::puzzle::sim::{Board, Dir, IllegalMove, Move, Puzzle, PuzzleRule};
use mayan_judge::puzzle::solver::{Reading, solve};

fn board(cols: &[&[u8]]) -> Board {
    Board::from_columns(cols).expect("valid columns")
}

fn mv(x: u8, y: u8, g: i8) -> Move {
    let dir = if g == 1 { Dir::Right } else { Dir::Left };
    Move { x, y, dir }
}

fn settled(cols: &[&[u8]]) -> Board {
    let mut b = board(cols);
    b.settle();
    b
}

// ---- Settle -------------------------------------------------------------

#[test]
fn a_cross_goes_in_one_step() {
    // Colour 1 forms a + centred on (2, 1): row 1 x 1..3 and column 2 y 0..2.
    // Removing the row first would strand two 1s in column 2.
    let b = settled(&[&[5], &[3, 1], &[1, 1, 1], &[4, 1], &[6]]);
    assert_eq!(b, board(&[&[5], &[3], &[], &[4], &[6]]));
}

#[test]
fn a_t_shape_goes_in_one_step() {
    // Row 2 x 1..3 and column 2 y 0..2, all colour 1.
    let b = settled(&[&[], &[3, 4, 1], &[1, 1, 1], &[4, 3, 1], &[]]);
    assert_eq!(b, board(&[&[], &[3, 4], &[], &[4, 3], &[]]));
}

#[test]
fn a_run_of_five_goes_whole() {
    let b = settled(&[&[1, 2], &[1], &[1, 3], &[1], &[1]]);
    assert_eq!(b, board(&[&[2], &[], &[3], &[], &[]]));
}

#[test]
fn a_vertical_run_of_four_goes_whole() {
    let b = settled(&[&[2, 1, 1, 1, 1, 3], &[], &[], &[], &[]]);
    assert_eq!(b, board(&[&[2, 3], &[], &[], &[], &[]]));
}

#[test]
fn two_runs_of_different_colours_go_together() {
    let b = settled(&[&[1, 2], &[1, 2], &[1, 2], &[], &[]]);
    assert!(b.is_empty());
}

#[test]
fn nothing_is_removed_while_blocks_are_falling() {
    // Column 2 has a hole under its 1: on the way down it passes row 1 where
    // x 0..1 hold 1s, but only the settled position counts (row 0, beside 4s).
    let mut b = Board::EMPTY;
    for (x, y, c) in [(0, 0, 4), (0, 1, 1), (1, 0, 4), (1, 1, 1), (2, 2, 1), (3, 0, 5)] {
        b.set(x, y, c);
    }
    b.settle();
    assert_eq!(b, board(&[&[4, 1], &[4, 1], &[1], &[5], &[]]));
}

#[test]
fn a_two_step_cascade_clears_what_falls_into_line() {
    // Moving the 1 at (3, 3) left completes column 2's 1 1 1 (rows 1..3);
    // its 2 then falls to row 1 beside two 2s and that row goes too.
    let start = board(&[&[3, 2], &[4, 2], &[5, 1, 1, 3, 2], &[6, 7, 6, 1], &[]]);
    let trace = start.play_traced(mv(3, 3, -1));
    assert_eq!(trace.steps.len(), 2, "two removal passes");
    assert_eq!(trace.after, board(&[&[3], &[4], &[5], &[6, 7, 6, 3], &[]]));
}

// ---- Moves ----------------------------------------------------------------

#[test]
fn a_block_swapped_into_an_empty_cell_falls() {
    let mut b = board(&[&[1, 2, 3], &[], &[], &[], &[]]);
    b.play(mv(0, 2, 1));
    assert_eq!(b, board(&[&[1, 2], &[3], &[], &[], &[]]));
}

#[test]
fn blocks_above_a_block_that_leaves_fall() {
    let mut b = board(&[&[1, 2, 3], &[], &[], &[], &[]]);
    b.play(mv(0, 0, 1));
    assert_eq!(b, board(&[&[2, 3], &[1], &[], &[], &[]]));
}

#[test]
fn a_same_colour_swap_is_a_legal_move_that_changes_nothing() {
    let start = board(&[&[1, 2], &[1, 3], &[], &[], &[]]);
    assert_eq!(start.check_move(0, 0, 1, true), Ok(mv(0, 0, 1)));
    let mut b = start;
    b.play(mv(0, 0, 1));
    assert_eq!(b, start);
    // ...but it is not a move under the no-noop reading.
    assert_eq!(
        start.check_move(0, 0, 1, false),
        Err(IllegalMove::NoOp { x: 0, y: 0 })
    );
}

#[test]
fn moves_off_the_edge_or_out_of_range_are_illegal() {
    let b = board(&[&[1], &[2], &[3], &[4], &[5]]);
    assert_eq!(b.check_move(0, 0, -1, true), Err(IllegalMove::OffEdge(-1)));
    assert_eq!(b.check_move(4, 0, 1, true), Err(IllegalMove::OffEdge(5)));
    assert_eq!(b.check_move(5, 0, 1, true), Err(IllegalMove::XOutOfRange(5)));
    assert_eq!(b.check_move(-1, 0, 1, true), Err(IllegalMove::XOutOfRange(-1)));
    assert_eq!(b.check_move(0, 7, 1, true), Err(IllegalMove::YOutOfRange(7)));
    assert_eq!(b.check_move(0, 0, 0, true), Err(IllegalMove::BadDirection(0)));
    assert_eq!(b.check_move(0, 0, 2, true), Err(IllegalMove::BadDirection(2)));
    assert_eq!(
        b.check_move(1, 1, 1, true),
        Err(IllegalMove::EmptyCell { x: 1, y: 1 })
    );
}

#[test]
fn an_empty_board_has_no_legal_move() {
    assert_eq!(
        Board::EMPTY.check_move(0, 0, 1, true),
        Err(IllegalMove::EmptyBoard)
    );
    assert!(Board::EMPTY.legal_moves().is_empty());
}

#[test]
fn moves_order_by_x_then_y_then_right_before_left() {
    let mut moves = vec![mv(1, 0, -1), mv(0, 3, 1), mv(1, 0, 1), mv(0, 1, -1), mv(0, 1, 1)];
    moves.sort();
    assert_eq!(
        moves,
        vec![mv(0, 1, 1), mv(0, 1, -1), mv(0, 3, 1), mv(1, 0, 1), mv(1, 0, -1)]
    );
}

// ---- Solutions ------------------------------------------------------------

fn puzzle(text: &str) -> Puzzle {
    Puzzle::parse(text.as_bytes()).expect("valid puzzle")
}

fn answer(text: &str, reading: Reading) -> String {
    solve(&puzzle(text), reading).to_text().trim().replace('\n', ", ")
}

#[test]
fn a_board_emptied_before_the_nth_move_is_not_a_solution() {
    // Row 0 reads 1 . 1 1 .: the move 0 0 1 clears it at once, but n = 2.
    let p = "2\n1 0\n0\n1 0\n1 0\n0\n";
    // Literal: 0 0 1 empties the board too early; a same-colour swap is a
    // real move, so spend it first.
    assert_eq!(answer(p, Reading::LITERAL), "2 0 1, 0 0 1");
    // no-noop: that swap is no move, so the answer takes another way round.
    assert_eq!(answer(p, Reading::NO_NOOP), "2 0 -1, 3 0 -1");
    // at-most: the one move is the answer.
    assert_eq!(answer(p, Reading::AT_MOST), "0 0 1");
    assert_eq!(answer(p, Reading::NO_NOOP_AT_MOST), "0 0 1");
    // And where no second move can follow, the literal answer is -1
    // (official case 1: three 1s clear, the fourth is stranded).
    assert_eq!(answer("2\n1 0\n1 0\n0\n1 0\n1 0\n", Reading::LITERAL), "-1");
}

#[test]
fn the_rules_example_separates_literal_from_no_noop() {
    let p = "4\n2 3 0\n1 0\n1 2 2 0\n3 1 3 0\n0\n";
    assert_eq!(answer(p, Reading::LITERAL), "0 1 1, 1 0 1, 1 1 1, 3 0 1");
    assert_eq!(answer(p, Reading::NO_NOOP), "0 1 1, 1 1 1, 2 1 1, 2 0 1");
    assert_eq!(answer(p, Reading::NO_NOOP_AT_MOST), "0 1 1, 1 1 1, 2 1 1, 2 0 1");
}

#[test]
fn the_smallest_solution_may_need_a_left_move() {
    // Row 0 reads 1 1 . 1 .: every right move leaves a gap in the row; only
    // the 1 at x = 3 stepping left into the hole makes 1 1 1 (official case 3).
    let p = "1\n1 0\n1 0\n0\n1 0\n0\n";
    assert_eq!(answer(p, Reading::LITERAL), "3 0 -1");
}

// ---- Input ----------------------------------------------------------------

fn rule_of(text: &str) -> PuzzleRule {
    Puzzle::parse(text.as_bytes()).expect_err("invalid").rule
}

#[test]
fn whitespace_carries_no_meaning() {
    let a = puzzle("1\n1 0\n1 0\n0\n1 0\n0\n");
    let b = puzzle("  1 1\t0 1 0 0\r\n1 0 0   \n\n");
    assert_eq!(a, b);
}

#[test]
fn input_errors_name_the_rule() {
    assert_eq!(rule_of("0\n0 0 0 0 0"), PuzzleRule::BadMoveCount(0));
    assert_eq!(rule_of("1\n11 0 0 0 0 0"), PuzzleRule::BadColour(11));
    assert_eq!(rule_of("1\n-2 0 0 0 0 0"), PuzzleRule::BadColour(-2));
    assert_eq!(
        rule_of("1\n1 2 1 2 1 2 1 2 0 0 0 0 0"),
        PuzzleRule::ColumnTooTall { column: 0, count: 8 }
    );
    assert_eq!(rule_of("1\nx 0 0 0 0 0"), PuzzleRule::NotInteger);
    assert!(matches!(rule_of("1\n1 0 0"), PuzzleRule::Truncated(_)));
    assert_eq!(rule_of("1\n0 0 0 0 0 7"), PuzzleRule::TrailingToken);
    assert_eq!(
        rule_of("1\n0 1 0 1 0 1 0 0"),
        PuzzleRule::InitialRun("at row 0, x 1..3 (colour 1)".into())
    );
    assert_eq!(
        rule_of("1\n2 2 2 0 0 0 0 0"),
        PuzzleRule::InitialRun("in column 0, y 0..2 (colour 2)".into())
    );
}

#[test]
fn input_errors_name_line_column_and_token() {
    let err = Puzzle::parse(b"1\n1 0\n3 11 0\n0\n0\n0\n").unwrap_err();
    let at = err.at.clone().expect("located");
    assert_eq!(
        (at.line, at.column, at.token_index, at.token.as_str()),
        (3, 3, 5, "11")
    );
    assert_eq!(
        err.to_string(),
        "line 3, column 3, token `11`: colour must be 1..10 (or 0 to close the column), got 11"
    );
    // The end of the input is a place too.
    let err = Puzzle::parse(b"1\n1 0\n  0\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 4, column 1: input ends inside column 2 (expected a colour or the closing 0)"
    );
}
