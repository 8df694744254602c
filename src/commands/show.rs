//! `mayan-judge show`: the replay of `check --trace` for people who would
//! rather look than read numbers: the puzzle, then every move with each
//! removal pass, in colour on a terminal. Without a moves file it shows the
//! smallest solution.

use super::read_input;
use crate::cli::{ColorChoice, ShowArgs};
use crate::i18n::{Arg, Locale};
use crate::puzzle::checker::{Parsed, Replay, line_of_move, parse_answer, replay};
use crate::puzzle::sim::{Move, Puzzle, Style, render, render_replay_with};
use crate::puzzle::solver::solve;
use crate::report::words;
use anyhow::{Result, anyhow};
use std::io::IsTerminal;

/// A line of `show` in the terminal's language.
fn say(l: Locale, id: &str, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, Arg)> = args.iter().map(|(k, v)| (*k, Arg::from(v.clone()))).collect();
    l.text(id, &args)
}

/// Runs `show` in the terminal's language (`LANG`); returns 0, or 1 when
/// the moves are not a solution, 2 on bad input.
pub fn run(args: &ShowArgs) -> Result<i32> {
    let l = Locale::from_env().unwrap_or_default();
    let text = read_input(&args.input)?;
    let puzzle = Puzzle::parse(&text).map_err(|e| anyhow!("{}: {e}", args.input.display()))?;
    let style = Style {
        ansi: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal(),
        },
    };
    let size = [
        ("n", puzzle.n.to_string()),
        ("blocks", puzzle.board.block_count().to_string()),
    ];
    println!("{}", say(l, "console-show-puzzle", &size));
    print!("{}", render(&puzzle.board, None, style));
    let (moves, failure): (Vec<Move>, Option<String>) = match &args.moves {
        None => match solve(&puzzle, args.reading).moves {
            Some(m) => {
                println!(
                    "{}",
                    say(
                        l,
                        "console-show-smallest",
                        &[("reading", args.reading.to_string())]
                    )
                );
                (m, None)
            }
            None => {
                println!("{}", l.t("console-show-none"));
                return Ok(0);
            }
        },
        Some(path) => {
            let answer = read_input(path)?;
            match parse_answer(&answer, puzzle.n) {
                Err(reason) => return Err(anyhow!("{}: {}", path.display(), words::reason(l, &reason))),
                Ok(Parsed::NoSolution) => {
                    println!("{}", l.t("console-show-file-none"));
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
                        (played, Some(format!("{at}{}", words::reason(l, &reason))))
                    }
                },
            }
        }
    };
    if !moves.is_empty() {
        println!();
        let captions = words::Captions(l);
        print!("{}", render_replay_with(&puzzle.board, &moves, style, &captions));
    }
    println!();
    match failure {
        None => {
            println!(
                "{}",
                say(l, "console-show-cleared", &[("n", moves.len().to_string())])
            );
            Ok(0)
        }
        Some(reason) => {
            println!("{}", say(l, "console-show-not-solution", &[("reason", reason)]));
            Ok(1)
        }
    }
}
