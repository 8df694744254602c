//! `mayan-judge check`: judge one output file, testlib style.

use super::read_input;
use crate::checker::{Options, check};
use crate::cli::{CheckArgs, ColorChoice};
use crate::sim::{Puzzle, Style, render_trace};
use anyhow::Result;
use std::io::IsTerminal;

/// Runs `check`; returns the testlib exit code (0 AC, 1 WA, 2 PE, 3 FAIL).
/// A file that cannot be read is a judge error (3), never an accepted verdict.
pub fn run(args: &CheckArgs) -> Result<i32> {
    let files = (|| -> Result<_> {
        let input = read_input(&args.input)?;
        let output = read_input(&args.output)?;
        let answer = args.answer.as_deref().map(read_input).transpose()?;
        Ok((input, output, answer))
    })();
    let (input, output, answer) = match files {
        Ok(f) => f,
        Err(e) => {
            eprintln!("FAIL: judge error: {e:#}");
            return Ok(3);
        }
    };
    let opts = Options {
        reading: args.reading,
        accept_any: args.any,
    };
    let judgement = check(&input, &output, answer.as_deref(), opts);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&judgement)?);
    } else {
        println!("{}: {}", judgement.verdict, judgement.message);
    }
    if args.trace && !args.json {
        let style = Style {
            ansi: match args.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => std::io::stdout().is_terminal(),
            },
        };
        if let Ok(puzzle) = Puzzle::parse(&input) {
            let mut board = puzzle.board;
            for (i, &mv) in judgement.moves.iter().enumerate() {
                let trace = board.play_traced(mv);
                println!();
                print!("{}", render_trace(&trace, i + 1, style));
                board = trace.after;
            }
        }
    }
    Ok(judgement.verdict.testlib_exit_code())
}
