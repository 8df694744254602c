//! The simulator: board, moves, settle, puzzle parsing and board pictures.
//!
//! Pure code with no I/O; everything that judges a move (the solver, the
//! checker, the validator, traces) goes through here, so there is exactly one
//! implementation of the rules in `RULES.md`.

mod board;
mod parse;
mod render;

pub use board::{
    Board, CascadeStep, Dir, HEIGHT, IllegalMove, MAX_COLOUR, Marks, Move, MoveTrace, ParseMoveError, WIDTH,
    is_marked,
};
pub use parse::{
    BOM, Location, MAX_MOVES, Puzzle, PuzzleError, PuzzleRule, Token, describe_first_run, parse_int,
    show_token, strip_bom, tokens, unsupported_max_n,
};
pub use render::{Captions, English, Style, render, render_replay, render_replay_with, render_trace};
