//! The pages' templates (minijinja, HTML-escaped: whatever a contestant
//! typed is text on every page) and the static files, compiled into the
//! binary. Every word of a page is a message of the catalogues
//! (`locales/`), called from the templates by one function:
//! `{{ t("id", name=value) }}`, in the page's language (`lang`).

/// Every template, by name.
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("login.html", include_str!("templates/login.html")),
    ("home.html", include_str!("templates/home.html")),
    ("statement.html", include_str!("templates/statement.html")),
    ("solution.html", include_str!("templates/solution.html")),
    ("submit.html", include_str!("templates/submit.html")),
    ("submissions.html", include_str!("templates/submissions.html")),
    ("submission.html", include_str!("templates/submission.html")),
    ("ranking.html", include_str!("templates/ranking.html")),
    (
        "clarifications.html",
        include_str!("templates/clarifications.html"),
    ),
    ("admin.html", include_str!("templates/admin.html")),
    (
        "admin_holdings.html",
        include_str!("templates/admin_holdings.html"),
    ),
    ("password.html", include_str!("templates/password.html")),
    ("confirm.html", include_str!("templates/confirm.html")),
    ("replay.html", include_str!("templates/replay.html")),
    ("contestants.html", include_str!("templates/contestants.html")),
    ("error.html", include_str!("templates/error.html")),
    ("similar.html", include_str!("templates/similar.html")),
    ("analysis.html", include_str!("templates/analysis.html")),
];

/// The style sheet.
pub const STYLE: &str = include_str!("templates/style.css");

/// The live-update script.
pub const SCRIPT: &str = include_str!("templates/live.js");

/// The icon (SVG: one small file, sharp at every size).
pub const FAVICON: &str = include_str!("templates/favicon.svg");

/// The templates, parsed once, ready to render (escaping on: they all end
/// in `.html`).
pub fn environment() -> &'static minijinja::Environment<'static> {
    static ENV: std::sync::OnceLock<minijinja::Environment<'static>> = std::sync::OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = minijinja::Environment::new();
        env.add_function("t", message);
        for (name, source) in TEMPLATES {
            // The templates are part of the binary: a broken one fails the tests.
            if let Err(e) = env.add_template(name, source) {
                panic!("template {name}: {e}");
            }
        }
        env
    })
}

/// `t("id", name=value, ...)`: the message `id` in the page's language
/// (the context's `lang`), its arguments escaped where the message is
/// HTML of its own (an id ending in `-html`: links inside a sentence).
fn message(
    state: &minijinja::State,
    id: &str,
    kwargs: minijinja::value::Kwargs,
) -> Result<minijinja::Value, minijinja::Error> {
    use crate::i18n::{Arg, Locale};
    let locale = state
        .lookup("lang")
        .and_then(|l| l.as_str().and_then(Locale::parse))
        .unwrap_or_default();
    let html = id.ends_with("-html");
    let mut args = Vec::new();
    for name in kwargs.args() {
        let value: minijinja::Value = kwargs.get(name)?;
        let arg = match i64::try_from(value.clone()) {
            Ok(n) if value.kind() == minijinja::value::ValueKind::Number => Arg::from(n),
            _ if html => Arg::from(html_escape::encode_text(&value.to_string()).into_owned()),
            _ => Arg::from(value.to_string()),
        };
        args.push((name, arg));
    }
    kwargs.assert_all_used()?;
    let text = locale.text(id, &args);
    Ok(if html {
        minijinja::Value::from_safe_string(text)
    } else {
        minijinja::Value::from(text)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_template_parses() {
        let env = super::environment();
        for (name, _) in super::TEMPLATES {
            assert!(env.get_template(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn every_message_a_template_names_is_in_the_english_catalogue() {
        let english = crate::i18n::Locale::english().message_ids();
        for (name, source) in super::TEMPLATES {
            for call in source.split("t(").skip(1) {
                let Some(quote) = call.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                    continue;
                };
                let id = call[1..].split(quote).next().unwrap_or_default();
                assert!(
                    english.iter().any(|m| m == id),
                    "{name}: t({quote}{id}{quote}) names no message"
                );
            }
        }
    }
}
