//! `mayan-judge solve`: print the reference answer of each puzzle.

use super::read_input;
use crate::cli::SolveArgs;
use crate::puzzle::sim::Puzzle;
use crate::puzzle::solver::solve;
use anyhow::{Context, Result};
use std::io::Write;

/// Runs `solve`; returns the exit code (0, or 2 when a puzzle is invalid).
pub fn run(args: &SolveArgs) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let many = args.files.len() > 1;
    let mut code = 0;
    for file in &args.files {
        let text = read_input(file)?;
        let puzzle = match Puzzle::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                code = 2;
                continue;
            }
        };
        let answer = solve(&puzzle, args.reading);
        if many {
            writeln!(out, "== {}", file.display())?;
        }
        out.write_all(answer.to_text().as_bytes())
            .context("writing the answer")?;
        out.flush()?;
        if args.stats {
            let s = answer.stats;
            eprintln!(
                "{}: {} nodes, {} memo hits, {} dead states stored, {:.3} ms",
                file.display(),
                s.nodes,
                s.memo_hits,
                s.memo_size,
                s.elapsed.as_secs_f64() * 1e3
            );
        }
    }
    Ok(code)
}
