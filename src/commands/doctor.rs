//! `mayan-judge doctor`: the machine's checks (`judge::doctor`) and the
//! sandbox's, one line each (`PASS`/`WARN`/`FAIL`, name, what was found,
//! the fix) or as JSON; exit 1 when some check FAILs.

use crate::cli::{ColorChoice, DoctorArgs};
use crate::judge::doctor::{Check, Level, Machine, machine_checks, sandbox_checks, worst};
use crate::judge::sandbox::Sandbox;
use crate::safe::terminal_safe;
use anyhow::Result;
use std::io::IsTerminal;

/// Runs `doctor`; returns 0 when no check FAILs, else 1.
pub fn run(args: &DoctorArgs) -> Result<i32> {
    let checks = checks();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&checks)?);
    } else {
        let ansi = match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal(),
        };
        print!("{}", render(&checks, ansi));
    }
    Ok(if worst(&checks) == Level::Fail { 1 } else { 0 })
}

/// The machine's checks, then the sandbox's.
fn checks() -> Vec<Check> {
    let mut checks = machine_checks(&Machine::live());
    checks.push(Check::pass("judging cores", crate::judge::pool::describe_cores()));
    checks.extend(sandbox_checks(Sandbox::detect().protection_details()));
    checks
}

/// One line per check, the names in one column; levels coloured with `ansi`.
fn render(checks: &[Check], ansi: bool) -> String {
    let width = checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for c in checks {
        let fix = c.fix.as_ref().map(|f| format!("; fix: {f}")).unwrap_or_default();
        let line = format!("{:<width$}  {}{fix}", c.name, c.found);
        out.push_str(&format!("{}  {}\n", level(c.level, ansi), terminal_safe(&line)));
    }
    out
}

/// `PASS`, `WARN` or `FAIL`, in green, yellow or red with `ansi`.
fn level(level: Level, ansi: bool) -> String {
    let colour = match level {
        Level::Pass => 32,
        Level::Warn => 33,
        Level::Fail => 31,
    };
    if ansi {
        format!("\x1b[1;{colour}m{level}\x1b[0m")
    } else {
        level.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctor_lines_start_with_the_level_and_align_the_names() {
        let checks = [
            Check::pass("swap", "off"),
            Check::warn("transparent huge pages", "always", "echo never"),
        ];
        assert_eq!(
            render(&checks, false),
            "PASS  swap                    off\n\
             WARN  transparent huge pages  always; fix: echo never\n"
        );
    }

    #[test]
    fn doctor_colours_only_the_level() {
        let out = render(&[Check::fail("seccomp", "absent", "a kernel")], true);
        assert_eq!(out, "\x1b[1;31mFAIL\x1b[0m  seccomp  absent; fix: a kernel\n");
    }

    #[test]
    fn doctor_escapes_control_characters_of_what_it_found() {
        let out = render(&[Check::pass("core pattern", "core\x1b[2J")], false);
        assert_eq!(out, "PASS  core pattern  core\\u{1b}[2J\n");
    }
}
