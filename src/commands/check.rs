//! `mayan-judge check`: judge one output, under the calling convention of
//! the judging engine that runs us (testlib, Kattis/DOMjudge, LemonLime).
//! A file that cannot be read is a judge error under every protocol, never
//! an accepted verdict.

use super::read_input;
use crate::cli::{CheckArgs, ColorChoice, Protocol};
use crate::puzzle::checker::{Judgement, Options, check};
use crate::puzzle::sim::{Puzzle, Style, render_replay};
use crate::puzzle::verdict::Verdict;
use anyhow::{Context, Result, bail};
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

/// Kattis: accepted.
pub const KATTIS_AC: i32 = 42;
/// Kattis: wrong answer.
pub const KATTIS_WA: i32 = 43;
/// Kattis: anything else is a judge error; we use 1.
pub const KATTIS_ERROR: i32 = 1;

/// Runs `check`; returns the exit code of the protocol.
pub fn run(args: &CheckArgs) -> Result<i32> {
    let opts = Options {
        reading: args.reading,
        accept_any: args.any,
    };
    match args.protocol {
        Protocol::Testlib => testlib(args, opts),
        Protocol::Kattis => kattis(args, opts),
        Protocol::Lemon => lemon(args, opts),
    }
}

fn arg<'a>(args: &'a CheckArgs, i: usize, what: &str) -> Result<&'a Path> {
    match args.files.get(i) {
        Some(p) => Ok(p),
        None => bail!(
            "missing {what} (see `mayan-judge check --help` for the {:?} protocol)",
            args.protocol
        ),
    }
}

fn testlib(args: &CheckArgs, opts: Options) -> Result<i32> {
    let files = (|| -> Result<_> {
        if args.files.len() > 3 {
            bail!(
                "testlib takes INPUT OUTPUT [ANSWER], got {} files",
                args.files.len()
            );
        }
        let input = read_input(arg(args, 0, "INPUT")?)?;
        let output = read_input(arg(args, 1, "OUTPUT")?)?;
        let answer = args.files.get(2).map(|p| read_input(p)).transpose()?;
        Ok((input, output, answer))
    })();
    let (input, output, answer) = match files {
        Ok(f) => f,
        Err(e) => {
            eprintln!("FAIL: judge error: {e:#}");
            return Ok(Verdict::Fail.testlib_exit_code());
        }
    };
    let judgement = check(&input, &output, answer.as_deref(), opts);
    eprintln!("{}: {}", judgement.verdict, judgement.message);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&judgement)?);
    }
    if args.trace {
        print_trace(args, &input, &judgement);
    }
    Ok(judgement.verdict.testlib_exit_code())
}

fn print_trace(args: &CheckArgs, input: &[u8], judgement: &Judgement) {
    let style = Style {
        ansi: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal(),
        },
    };
    if let Ok(puzzle) = Puzzle::parse(input) {
        print!("{}", render_replay(&puzzle.board, &judgement.moves, style));
    }
}

/// What a contestant may see: the verdict and, for a wrong move, which one,
/// but not the reference solution.
fn team_message(j: &Judgement) -> String {
    match (j.verdict, j.first_wrong_move) {
        (Verdict::Accepted, _) => "accepted".into(),
        (Verdict::Fail, _) => "judge error".into(),
        (_, Some(k)) => format!("{}: move {k} is wrong", j.verdict),
        (v, None) => format!("{v}"),
    }
}

fn kattis(args: &CheckArgs, opts: Options) -> Result<i32> {
    let feedback = match arg(args, 2, "FEEDBACK_DIR") {
        Ok(p) => p.to_path_buf(),
        Err(e) => {
            eprintln!("judge error: {e:#}");
            return Ok(KATTIS_ERROR);
        }
    };
    let write = |name: &str, text: &str| -> Result<()> {
        let path = feedback.join(name);
        std::fs::write(&path, format!("{text}\n")).with_context(|| format!("writing {}", path.display()))
    };
    let files = (|| -> Result<_> {
        let input = read_input(arg(args, 0, "INPUT")?)?;
        let answer = read_input(arg(args, 1, "ANSWER")?)?;
        let mut output = Vec::new();
        std::io::stdin()
            .read_to_end(&mut output)
            .context("reading the output on stdin")?;
        Ok((input, answer, output))
    })();
    let (input, answer, output) = match files {
        Ok(f) => f,
        Err(e) => {
            let msg = format!("judge error: {e:#}");
            eprintln!("{msg}");
            let _ = write("judgemessage.txt", &msg);
            return Ok(KATTIS_ERROR);
        }
    };
    let j = check(&input, &output, Some(&answer), opts);
    let full = format!("{}: {}", j.verdict, j.message);
    if let Err(e) = write("judgemessage.txt", &full).and_then(|_| write("teammessage.txt", &team_message(&j)))
    {
        eprintln!("judge error: {e:#}");
        return Ok(KATTIS_ERROR);
    }
    Ok(match j.verdict {
        Verdict::Accepted => KATTIS_AC,
        Verdict::WrongAnswer | Verdict::PresentationError => KATTIS_WA,
        _ => {
            eprintln!("{full}");
            KATTIS_ERROR
        }
    })
}

fn lemon(args: &CheckArgs, opts: Options) -> Result<i32> {
    let path = |i, what| arg(args, i, what).map(Path::to_path_buf);
    let (score_file, message_file): (PathBuf, PathBuf) =
        match (path(4, "SCORE_FILE"), path(5, "MESSAGE_FILE")) {
            (Ok(s), Ok(m)) => (s, m),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("judge error: {e:#}");
                return Ok(3);
            }
        };
    let finish = |score: u64, message: &str| -> Result<()> {
        std::fs::write(&score_file, format!("{score}\n"))
            .with_context(|| format!("writing {}", score_file.display()))?;
        std::fs::write(&message_file, format!("{message}\n"))
            .with_context(|| format!("writing {}", message_file.display()))
    };
    let files = (|| -> Result<_> {
        let input = read_input(arg(args, 0, "INPUT")?)?;
        let output = read_input(arg(args, 1, "OUTPUT")?)?;
        let answer = read_input(arg(args, 2, "ANSWER")?)?;
        let full: u64 = arg(args, 3, "FULL_SCORE")?
            .to_string_lossy()
            .trim()
            .parse()
            .context("FULL_SCORE is not a whole number")?;
        Ok((input, output, answer, full))
    })();
    let (input, output, answer, full) = match files {
        Ok(f) => f,
        Err(e) => {
            let msg = format!("judge error: {e:#}");
            eprintln!("{msg}");
            finish(0, &msg)?;
            return Ok(3);
        }
    };
    let j = check(&input, &output, Some(&answer), opts);
    let message = format!("{}: {}", j.verdict, j.message);
    let score = if j.verdict == Verdict::Accepted { full } else { 0 };
    finish(score, &message)?;
    Ok(if j.verdict == Verdict::Fail { 3 } else { 0 })
}
