//! Progress for long work, on stderr: an indicatif bar on a terminal, plain
//! lines elsewhere (logs, CI, a pipe), nothing with `--quiet`. Plain lines
//! are never empty: a step with nothing to say prints nothing. What is shown
//! (contestants' and folders' names) goes through
//! [`crate::safe::terminal_safe`].

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// How progress is shown.
pub enum Progress {
    /// A bar, on a terminal.
    Bar(ProgressBar),
    /// One line per step.
    Lines,
    /// Nothing.
    Quiet,
}

impl Progress {
    /// Progress over `total` steps of `unit` (e.g. "tests").
    pub fn new(quiet: bool, total: usize, unit: &str) -> Progress {
        if quiet {
            Progress::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}");
            bar.set_style(ProgressStyle::with_template(&template).expect("valid template"));
            Progress::Bar(bar)
        } else {
            Progress::Lines
        }
    }

    /// A new phase (a submission, a package): the bar's message, or a line.
    pub fn phase(&self, what: &str) {
        match self {
            Progress::Bar(bar) => bar.set_message(crate::safe::terminal_safe(what)),
            Progress::Lines => print_line("", what),
            Progress::Quiet => {}
        }
    }

    /// One step done; `line` is printed in line mode, unless it is empty.
    pub fn step(&self, line: impl FnOnce() -> String) {
        match self {
            Progress::Bar(bar) => bar.inc(1),
            Progress::Lines => print_line("  ", &line()),
            Progress::Quiet => {}
        }
    }

    /// Steps skipped (a submission that did not compile).
    pub fn skip(&self, n: usize) {
        if let Progress::Bar(bar) = self {
            bar.inc(n as u64);
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

/// Prints `text` on stderr after `indent`, one line per line of it, leaving
/// out blank ones (a pipe or a log gets no empty lines).
fn print_line(indent: &str, text: &str) {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        eprintln!("{indent}{}", crate::safe::terminal_safe(line));
    }
}
