//! The pages' templates (minijinja, HTML-escaped: whatever a contestant
//! typed is text on every page) and the static files, compiled into the
//! binary.

/// Every template, by name.
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("login.html", include_str!("templates/login.html")),
    ("home.html", include_str!("templates/home.html")),
    ("statement.html", include_str!("templates/statement.html")),
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
        for (name, source) in TEMPLATES {
            // The templates are part of the binary: a broken one fails the tests.
            if let Err(e) = env.add_template(name, source) {
                panic!("template {name}: {e}");
            }
        }
        env
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
}
