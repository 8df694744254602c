//! `mayan-judge check`: judge one output, under the calling convention of
//! the judging engine that runs us (testlib, Kattis/DOMjudge, LemonLime).
//! A file that cannot be read is a judge error under every protocol, never
//! an accepted verdict.
//!
//! The testlib protocol is testlib 0.9.21's, word for word: `ok`, `wrong
//! answer`, `wrong output format` or `FAIL` and the message on stderr, exit
//! code 0, 1, 2 or 3, and the optional result file (`RESULT_FILE`, with
//! `-appes` the XML that Polygon's invokers read). An OUTPUT that does not
//! exist is testlib's `Output file not found` (exit code 2), the judge's
//! `NOF` (no output file) in its JSON.

use super::Saying;
use super::read_input;
use crate::cli::{CheckArgs, ColorChoice, Protocol};
use crate::i18n::Said;
use crate::puzzle::checker::{Judgement, Options, check};
use crate::puzzle::sim::{Puzzle, Style, render_replay};
use crate::puzzle::verdict::Verdict;
use anyhow::Result;
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
        None => Err(Said::new("error-check-missing")
            .arg("what", what)
            .arg("protocol", format!("{:?}", args.protocol))
            .into()),
    }
}

/// testlib's result words, as its `quit` prints them before the message.
fn testlib_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "ok",
        Verdict::WrongAnswer => "wrong answer",
        Verdict::PresentationError | Verdict::NoOutputFile => "wrong output format",
        _ => "FAIL",
    }
}

/// testlib's `outcome` attribute in the `-appes` XML result.
fn testlib_outcome(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "accepted",
        Verdict::WrongAnswer => "wrong-answer",
        Verdict::PresentationError | Verdict::NoOutputFile => "presentation-error",
        _ => "fail",
    }
}

/// The `-appes` result file (testlib 0.9.21, as Polygon's invokers read it):
/// one line of XML. testlib declares windows-1251 and writes the message's
/// bytes as they are; here anything outside printable ASCII becomes `?` (and
/// control characters `.`, as testlib does), so the file is valid whatever
/// encoding its reader assumes.
fn appes_xml(verdict: Verdict, message: &str) -> String {
    let mut body = String::new();
    for c in message.chars() {
        match c {
            '&' => body.push_str("&amp;"),
            '<' => body.push_str("&lt;"),
            '>' => body.push_str("&gt;"),
            '"' => body.push_str("&quot;"),
            c if (c as u32) < 32 => body.push('.'),
            c if !c.is_ascii() => body.push('?'),
            c => body.push(c),
        }
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"{}\">{body}</result>\n",
        testlib_outcome(verdict)
    )
}

/// Where testlib writes its result besides stderr: `[RESULT_FILE [-appes]]`
/// after the three files.
struct ResultFile {
    path: PathBuf,
    appes: bool,
}

/// The input, the output and the answer when one is given.
type TestlibFiles = (Vec<u8>, Vec<u8>, Option<Vec<u8>>);

/// testlib's arguments: `INPUT OUTPUT [ANSWER [RESULT_FILE [-appes]]]`.
fn testlib_files(args: &CheckArgs) -> Result<TestlibFiles> {
    if args.files.len() > 4 {
        return Err(Said::new("error-check-too-many")
            .arg("n", args.files.len())
            .into());
    }
    if args.appes && args.files.len() < 4 {
        return Err(Said::new("error-check-appes").into());
    }
    let input = read_input(arg(args, 0, "INPUT")?)?;
    let output = read_input(arg(args, 1, "OUTPUT")?)?;
    let answer = args.files.get(2).map(|p| read_input(p)).transpose()?;
    Ok((input, output, answer))
}

/// Reports a verdict as testlib does: `ok ...`, `wrong answer ...`, `wrong
/// output format ...` or `FAIL ...` on stderr (always, also with a result
/// file), the message (or, with `-appes`, the XML) in the result file; the
/// exit code 0, 1, 2 or 3. A result file that cannot be written is a FAIL.
fn testlib_report(verdict: Verdict, message: &str, result: Option<&ResultFile>) -> i32 {
    eprintln!("{} {message}", testlib_word(verdict));
    if let Some(r) = result {
        let text = if r.appes {
            appes_xml(verdict, message)
        } else {
            message.to_string()
        };
        if let Err(e) = std::fs::write(&r.path, text) {
            eprintln!("FAIL cannot write the result file {}: {e}", r.path.display());
            return Verdict::Fail.testlib_exit_code();
        }
    }
    verdict.testlib_exit_code()
}

/// testlib's words when the contestant's output file does not exist (the
/// input does): it quits with `wrong output format Output file not found:
/// "PATH"`, exit code 2, as testlib's `InStream` does for `ouf`.
fn output_not_found(args: &CheckArgs) -> Option<String> {
    let (input, output) = (args.files.first()?, args.files.get(1)?);
    let missing = input.is_file() && output != Path::new("-") && !output.exists();
    missing.then(|| format!("Output file not found: \"{}\"", output.display()))
}

fn testlib(args: &CheckArgs, opts: Options) -> Result<i32> {
    // The result file, when one is named, gets every verdict, FAIL included.
    let result = args.files.get(3).map(|path| ResultFile {
        path: path.clone(),
        appes: args.appes,
    });
    let (input, output, answer) = match testlib_files(args) {
        Ok(f) => f,
        Err(_) if let Some(message) = output_not_found(args) => {
            return Ok(testlib_report(Verdict::NoOutputFile, &message, result.as_ref()));
        }
        Err(e) => {
            let message = format!("judge error: {e:#}");
            return Ok(testlib_report(Verdict::Fail, &message, result.as_ref()));
        }
    };
    let judgement = check(&input, &output, answer.as_deref(), opts);
    let code = testlib_report(judgement.verdict, &judgement.message, result.as_ref());
    if args.json {
        println!("{}", serde_json::to_string_pretty(&judgement)?);
    }
    if args.trace {
        print_trace(args, &input, &judgement);
    }
    Ok(code)
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
        std::fs::write(&path, format!("{text}\n"))
            .said(|| Said::new("error-writing").arg("path", path.display()))
    };
    let files = (|| -> Result<_> {
        let input = read_input(arg(args, 0, "INPUT")?)?;
        let answer = read_input(arg(args, 1, "ANSWER")?)?;
        let mut output = Vec::new();
        std::io::stdin()
            .read_to_end(&mut output)
            .said(|| Said::new("error-reading-stdin"))?;
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
            .said(|| Said::new("error-writing").arg("path", score_file.display()))?;
        std::fs::write(&message_file, format!("{message}\n"))
            .said(|| Said::new("error-writing").arg("path", message_file.display()))
    };
    let files = (|| -> Result<_> {
        let input = read_input(arg(args, 0, "INPUT")?)?;
        let output = read_input(arg(args, 1, "OUTPUT")?)?;
        let answer = read_input(arg(args, 2, "ANSWER")?)?;
        let full: u64 = arg(args, 3, "FULL_SCORE")?
            .to_string_lossy()
            .trim()
            .parse()
            .said(|| Said::new("error-check-full-score"))?;
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
