//! The command line in the user's language: with a Chinese environment
//! (`LC_ALL` / `LC_MESSAGES` / `LANG` = `zh_CN.UTF-8`), `--help` of the
//! program and of each subcommand takes from the catalogues
//! (`locales/*/help.ftl`) what clap's builder lets a program set on the
//! command its derive built: each command's `about`, the usage heading (the
//! help template), the headings of commands, arguments and options, and
//! the help of `-h` and `-V`. The options' own help and the exit codes
//! below it (the doc comments and `after_help` of `src/cli.rs`) stay
//! English. In English the command is clap's own, untouched.

use crate::cli::Cli;
use crate::i18n::Locale;
use clap::{CommandFactory, FromArgMatches};
use std::ffi::OsString;

/// The command line parsed, its help and errors in the environment's
/// language (exits on `--help`, `--version` and a wrong argument, as
/// clap's `parse_from` does).
pub fn parse(args: Vec<OsString>) -> Cli {
    let l = Locale::from_env().unwrap_or_default();
    if l.is_english() {
        return clap::Parser::parse_from(args);
    }
    let matches = in_language(l).get_matches_from(args);
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// The whole command line (every subcommand) with its help in `l`.
pub fn in_language(l: Locale) -> clap::Command {
    let mut command = Cli::command();
    // The help and version flags and the `help` subcommand exist once built.
    command.build();
    worded(command, l, None)
}

/// `command` (the subcommand `name`, or the program) with its help in `l`,
/// and its subcommands.
fn worded(command: clap::Command, l: Locale, name: Option<&str>) -> clap::Command {
    let about = match name {
        Some(name) => l.t(&format!("help-about-{name}")),
        None => l.t("help-about"),
    };
    // clap's own placeholder, `{usage}`, put where the language puts it.
    let usage = l.text("help-usage", &[("usage", "{usage}".into())]);
    let template = format!("{{before-help}}{{about-with-newline}}\n{usage}\n\n{{all-args}}{{after-help}}");
    let mut command = command
        .about(about)
        .help_template(template)
        .subcommand_help_heading(l.t("help-commands"));
    let ids: Vec<clap::Id> = command.get_arguments().map(|a| a.get_id().clone()).collect();
    for id in ids {
        command = command.mut_arg(id, |arg| worded_arg(arg, l));
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for sub in names {
        command = command.mut_subcommand(&sub, |c| worded(c, l, Some(&sub)));
    }
    command
}

/// An argument under its heading in `l`; `-h` and `-V` with their help in `l`.
fn worded_arg(arg: clap::Arg, l: Locale) -> clap::Arg {
    let heading = match arg.is_positional() {
        true => l.t("help-arguments"),
        false => l.t("help-options"),
    };
    let arg = match arg.get_help_heading() {
        Some(_) => arg,
        None => arg.help_heading(heading),
    };
    match arg.get_id().as_str() {
        "help" => arg.help(l.t("help-flag-help")),
        "version" => arg.help(l.t("help-flag-version")),
        _ => arg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_a_purpose_in_every_language_and_english_s_is_the_doc_comment() {
        let mut clap = Cli::command();
        clap.build();
        for l in Locale::all() {
            let worded = in_language(l);
            for (ours, theirs) in worded.get_subcommands().zip(clap.get_subcommands()) {
                let about = ours.get_about().map(ToString::to_string).unwrap_or_default();
                assert!(!about.contains(crate::i18n::MISSING.0), "{}: {about}", l.tag());
                if l.is_english() {
                    let doc = theirs.get_about().map(ToString::to_string).unwrap_or_default();
                    assert_eq!(about, doc, "help-about-{} against src/cli.rs", ours.get_name());
                }
            }
        }
    }
}
