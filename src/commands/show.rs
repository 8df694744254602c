//! `mayan-judge show`: the replay of `check --trace` for people who would
//! rather look than read numbers: the puzzle, then every move with each
//! removal pass, in colour on a terminal. Without a moves file it shows the
//! smallest solution.

use super::read_input;
use crate::cli::{ColorChoice, ShowArgs};
use crate::puzzle::checker::{Parsed, Replay, line_of_move, parse_answer, replay};
use crate::puzzle::sim::{Move, Puzzle, Style, render, render_replay};
use crate::puzzle::solver::solve;
use anyhow::{Result, anyhow};
use std::io::IsTerminal;

/// Runs `show`; returns 0, or 1 when the moves are not a solution, 2 on bad input.
pub fn run(args: &ShowArgs) -> Result<i32> {
    let text = read_input(&args.input)?;
    let puzzle = Puzzle::parse(&text).map_err(|e| anyhow!("{}: {e}", args.input.display()))?;
    let style = Style {
        ansi: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal(),
        },
    };
    println!("puzzle: n = {}, {} blocks", puzzle.n, puzzle.board.block_count());
    print!("{}", render(&puzzle.board, None, style));
    let (moves, failure): (Vec<Move>, Option<String>) = match &args.moves {
        None => match solve(&puzzle, args.reading).moves {
            Some(m) => {
                println!("the smallest solution ({}):", args.reading);
                (m, None)
            }
            None => {
                println!("no solution: the answer is -1");
                return Ok(0);
            }
        },
        Some(path) => {
            let answer = read_input(path)?;
            match parse_answer(&answer, puzzle.n) {
                Err(reason) => return Err(anyhow!("{}: {reason}", path.display())),
                Ok(Parsed::NoSolution) => {
                    println!("the moves file says -1");
                    return Ok(0);
                }
                Ok(Parsed::Moves(written)) => match replay(&puzzle, &written, args.reading) {
                    Replay::Cleared(m) => (m, None),
                    Replay::Failed(reason, played) => {
                        // The file and line of the move to blame, as a compiler names them.
                        let at = match reason.wrong_move().and_then(|k| line_of_move(&answer, k)) {
                            Some((line, column)) => format!("{}:{line}:{column}: ", path.display()),
                            None => format!("{}: ", path.display()),
                        };
                        (played, Some(format!("{at}{reason}")))
                    }
                },
            }
        }
    };
    if !moves.is_empty() {
        println!();
        print!("{}", render_replay(&puzzle.board, &moves, style));
    }
    println!();
    match failure {
        None => {
            println!("the board is empty after {} moves", moves.len());
            Ok(0)
        }
        Some(reason) => {
            println!("not a solution: {reason}");
            Ok(1)
        }
    }
}
