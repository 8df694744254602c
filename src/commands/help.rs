//! The command line in the user's language: with a Chinese environment
//! (`LC_ALL` / `LC_MESSAGES` / `LANG` = `zh_CN.UTF-8`), `--help` of the
//! program and of each subcommand takes from the catalogues
//! (`locales/*/help.ftl`) what clap's builder lets a program set on the
//! command its derive built: each command's `about`, the usage heading (the
//! help template), the headings of commands, arguments and options, and
//! the help of `-h` and `-V`, each argument's help (`help-arg-<command>-<id>`;
//! English's equal the doc comments of `src/cli.rs`), its
//! possible and default values worded in the language, and the text below
//! the options (`help-after-<command>`: what the command does in more
//! words, and its exit codes). In English the command is clap's own,
//! untouched.

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
    let key = |what: &str| match name {
        Some(name) => format!("help-{what}-{name}"),
        None => format!("help-{what}"),
    };
    if let Some(after) = has(l, &key("after")) {
        command = command.after_help(after);
    }
    let ids: Vec<clap::Id> = command.get_arguments().map(|a| a.get_id().clone()).collect();
    for id in ids {
        let own = has(l, &format!("{}-{}", key("arg"), id.as_str().replace('_', "-")));
        command = command.mut_arg(id, |arg| worded_arg(arg, l, own));
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

/// The message `id` of `l`'s own catalogue, `None` where it has none or
/// `l` is English (English keeps clap's text from `src/cli.rs`, which the
/// English catalogue repeats).
fn has(l: Locale, id: &str) -> Option<String> {
    if l.is_english() {
        return None;
    }
    let ids = l.message_ids();
    ids.binary_search_by(|m| m.as_str().cmp(id)).ok().map(|_| l.t(id))
}

/// An argument under its heading in `l`, with its `own` help where the
/// catalogue has one; `-h` and `-V` with their help in `l`.
fn worded_arg(arg: clap::Arg, l: Locale, own: Option<String>) -> clap::Arg {
    let heading = match arg.is_positional() {
        true => l.t("help-arguments"),
        false => l.t("help-options"),
    };
    let arg = match arg.get_help_heading() {
        Some(_) => arg,
        None => arg.help_heading(heading),
    };
    match (arg.get_id().as_str(), own) {
        ("help", _) if arg.get_long_help().is_some() => arg
            .help(l.t("help-flag-help-more"))
            .long_help(l.t("help-flag-help-summary")),
        ("help", _) => arg.help(l.t("help-flag-help")),
        ("version", _) => arg.help(l.t("help-flag-version")),
        (_, Some(own)) => with_values(arg, l, own),
        (_, None) => arg,
    }
}

/// `arg` with the help `text`, followed by its possible values, its
/// default and its aliases in `l`'s words instead of clap's English
/// `[possible values: ]`, `[default: ]` and `[alias: ]` (a flag's
/// `true`/`false` are not shown).
fn with_values(arg: clap::Arg, l: Locale, text: String) -> clap::Arg {
    let mut text = text;
    let takes_values = arg.get_action().takes_values();
    let values: Vec<String> = arg
        .get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if takes_values && !values.is_empty() && !arg.is_hide_possible_values_set() {
        let values = values.join(l.t("help-values-separator").as_str());
        text += &l.text("help-values", &[("values", values.into())]);
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if takes_values && !defaults.is_empty() && !arg.is_hide_default_value_set() {
        text += &l.text("help-default", &[("value", defaults.join(" ").into())]);
    }
    let mut arg = arg;
    let visible: Vec<String> = arg
        .get_visible_aliases()
        .unwrap_or_default()
        .iter()
        .map(|a| format!("--{a}"))
        .collect();
    if !visible.is_empty() {
        let all: Vec<String> = arg
            .get_all_aliases()
            .unwrap_or_default()
            .iter()
            .map(|a| a.to_string())
            .collect();
        // The aliases stay, hidden from clap's English `[alias: ]`.
        arg = arg.alias(None).aliases(all);
        let aliases = visible.join(l.t("help-values-separator").as_str());
        text += &l.text("help-aliases", &[("aliases", aliases.into())]);
    }
    arg.help(text).hide_possible_values(true).hide_default_value(true)
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
            let nested = |c: &clap::Command| {
                let mut all: Vec<clap::Command> = c.get_subcommands().cloned().collect();
                for sub in c.get_subcommands() {
                    all.extend(sub.get_subcommands().cloned());
                }
                all
            };
            for (ours, theirs) in nested(&worded).iter().zip(nested(&clap).iter()) {
                let about = ours.get_about().map(ToString::to_string).unwrap_or_default();
                assert!(!about.contains(crate::i18n::MISSING.0), "{}: {about}", l.tag());
                if l.is_english() {
                    let doc = theirs.get_about().map(ToString::to_string).unwrap_or_default();
                    assert_eq!(about, doc, "help-about-{} against src/cli.rs", ours.get_name());
                }
            }
        }
    }

    /// Every `help-arg-*` and `help-after-*` key with clap's English text.
    fn wanted(command: &clap::Command, name: Option<&str>, keys: &mut Vec<(String, String)>) {
        let key = |what: &str| match name {
            Some(name) => format!("help-{what}-{name}"),
            None => format!("help-{what}"),
        };
        if let Some(after) = command.get_after_help() {
            keys.push((key("after"), after.to_string()));
        }
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            if !["help", "version"].contains(&id) && !arg.is_hide_set() {
                let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
                keys.push((format!("{}-{}", key("arg"), id.replace('_', "-")), help));
            }
        }
        for sub in command.get_subcommands() {
            wanted(sub, Some(sub.get_name()), keys);
        }
    }

    #[test]
    fn every_argument_and_every_exit_code_block_has_its_help_in_every_language_and_english_s_is_the_doc_comment()
     {
        let mut clap = Cli::command();
        clap.build();
        let mut wanted_keys = Vec::new();
        wanted(&clap, None, &mut wanted_keys);
        for (key, doc) in &wanted_keys {
            assert_eq!(&Locale::english().t(key), doc, "{key} against src/cli.rs");
        }
        let keys: Vec<String> = wanted_keys.into_iter().map(|(k, _)| k).collect();
        let zh = Locale::parse("zh-CN").unwrap();
        let missing: Vec<&String> = keys.iter().filter(|k| has(zh, k).is_none()).collect();
        assert!(missing.is_empty(), "not in locales/zh-CN/help.ftl: {missing:?}");
        let spare: Vec<&String> = zh
            .message_ids()
            .iter()
            .filter(|id| id.starts_with("help-arg-") || id.starts_with("help-after"))
            .filter(|id| !keys.contains(id))
            .collect();
        assert!(spare.is_empty(), "no such argument in src/cli.rs: {spare:?}");
    }
}
