//! Progress for long work, on stderr: an indicatif bar on a terminal, plain
//! lines elsewhere (logs, CI), nothing with `--quiet`.

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
            Progress::Bar(bar) => bar.set_message(what.to_string()),
            Progress::Lines => eprintln!("{what}"),
            Progress::Quiet => {}
        }
    }

    /// One step done; `line` is printed in line mode.
    pub fn step(&self, line: impl FnOnce() -> String) {
        match self {
            Progress::Bar(bar) => bar.inc(1),
            Progress::Lines => eprintln!("  {}", line()),
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
