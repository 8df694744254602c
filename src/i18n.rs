//! The judge's words in each language: the catalogues of `locales/TAG/*.ftl`
//! (Project Fluent, carried by the binary: build.rs lists every folder and
//! file, so a new language is a new folder), the choice of a language
//! ([`Locale`]: from a tag, an `Accept-Language` header, the environment's
//! `LC_ALL` / `LANG`), and a message in one ([`Locale::t`]).
//!
//! An edge module: `report`, `commands` and `server` use it; the domain
//! (`puzzle`, `package`, `judge`) knows no language (a checker's `Reason`
//! is data, worded at the edge). English is the fallback of every other
//! language; a message English lacks too shows as `⟦id⟧`, which the tests
//! look for on every page.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use std::sync::OnceLock;
use unic_langid::LanguageIdentifier;

pub use fluent_bundle::FluentValue as Arg;

include!(concat!(env!("OUT_DIR"), "/locales.rs"));

/// The language every other falls back to, and the default.
const ENGLISH: &str = "en";

/// What a missing message shows: its id between these.
pub const MISSING: (&str, &str) = ("⟦", "⟧");

/// One language's catalogue.
struct Catalogue {
    tag: &'static str,
    id: LanguageIdentifier,
    bundle: FluentBundle<FluentResource>,
    /// The ids of its messages, for the catalogue test.
    ids: Vec<String>,
}

/// Every language, parsed once; English first.
fn catalogues() -> &'static [Catalogue] {
    static ALL: OnceLock<Vec<Catalogue>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all: Vec<Catalogue> = LOCALES.iter().map(|(tag, files)| catalogue(tag, files)).collect();
        all.sort_by_key(|c| c.tag != ENGLISH);
        assert!(
            all.first().is_some_and(|c| c.tag == ENGLISH),
            "locales/{ENGLISH}/ is missing"
        );
        all
    })
}

/// Parses one language's files; a broken catalogue is a bug of the build
/// (the catalogue test parses every file).
fn catalogue(tag: &'static str, files: &[(&str, &str)]) -> Catalogue {
    let id: LanguageIdentifier = tag
        .parse()
        .unwrap_or_else(|e| panic!("locales/{tag}: not a language tag: {e}"));
    let mut bundle = FluentBundle::new_concurrent(vec![id.clone()]);
    // No bidirectional isolation marks around placeables: the text of a
    // reason is compared byte for byte with the checker's English.
    bundle.set_use_isolating(false);
    let mut ids = Vec::new();
    for (path, text) in files {
        let resource = FluentResource::try_new(text.to_string())
            .unwrap_or_else(|(_, errors)| panic!("{path}: {errors:?}"));
        for entry in resource.entries() {
            if let fluent_syntax::ast::Entry::Message(m) = entry {
                ids.push(m.id.name.to_string());
            }
        }
        bundle
            .add_resource(resource)
            .unwrap_or_else(|errors| panic!("{path}: {errors:?}"));
    }
    ids.sort();
    Catalogue { tag, id, bundle, ids }
}

/// A language the judge speaks (one folder of `locales/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Locale(usize);

impl Default for Locale {
    fn default() -> Locale {
        Locale::english()
    }
}

impl std::fmt::Display for Locale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

impl std::str::FromStr for Locale {
    type Err = String;

    /// A language tag the judge speaks (`zh-CN`, `zh`, `zh_CN.UTF-8`, `en-GB`),
    /// or an error naming the languages it does.
    fn from_str(s: &str) -> Result<Locale, String> {
        Locale::parse(s).ok_or_else(|| {
            let known: Vec<&str> = Locale::all().map(|l| l.tag()).collect();
            format!("`{s}`: not a language the judge speaks ({})", known.join(", "))
        })
    }
}

impl Locale {
    /// English.
    pub fn english() -> Locale {
        Locale(0)
    }

    /// Every language, English first.
    pub fn all() -> impl Iterator<Item = Locale> {
        (0..catalogues().len()).map(Locale)
    }

    /// Its tag, as `lang` attributes and `contest.toml` write it (`zh-CN`).
    pub fn tag(self) -> &'static str {
        catalogues()[self.0].tag
    }

    /// Its name in itself (`中文`, `English`): the message `language-name`.
    pub fn name(self) -> String {
        self.t("language-name")
    }

    /// The language a tag asks for, among those the judge speaks: the same
    /// tag, else the same language and script (`zh`, `zh-Hans`, `zh-SG` ask
    /// for `zh-CN`; `en-GB` for `en`). A POSIX locale (`zh_CN.UTF-8`) is
    /// read as its tag; `C`, `POSIX` and garbage ask for nothing.
    pub fn parse(tag: &str) -> Option<Locale> {
        let tag = tag.split(['.', '@']).next()?.replace('_', "-");
        let wanted: LanguageIdentifier = tag.trim().parse().ok()?;
        if wanted.language.is_empty() {
            return None;
        }
        let all = catalogues();
        let exact = all.iter().position(|c| c.id == wanted);
        let same_language = || {
            all.iter().position(|c| {
                c.id.language == wanted.language
                    && (c.id.script.is_none() || wanted.script.is_none() || c.id.script == wanted.script)
            })
        };
        exact.or_else(same_language).map(Locale)
    }

    /// The first language of an `Accept-Language` header the judge speaks,
    /// by the header's weights (`zh-CN,zh;q=0.9,en;q=0.8`).
    pub fn from_accept_language(header: &str) -> Option<Locale> {
        let mut asked: Vec<(f32, usize, &str)> = header
            .split(',')
            .enumerate()
            .filter_map(|(i, part)| {
                let mut pieces = part.split(';');
                let tag = pieces.next()?.trim();
                let q = pieces
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
                (q > 0.0 && tag != "*").then_some((q, i, tag))
            })
            .collect();
        asked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        asked.into_iter().find_map(|(_, _, tag)| Locale::parse(tag))
    }

    /// The language of the environment: `LC_ALL`, else `LC_MESSAGES`, else
    /// `LANG` (the first one set and not empty, as POSIX reads them).
    pub fn from_env() -> Option<Locale> {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .and_then(|v| Locale::parse(&v))
    }

    /// Whether this is English.
    pub fn is_english(self) -> bool {
        self.0 == 0
    }

    /// An I/O error in this language: its kind where the catalogues word
    /// it (a missing file, a refused permission), else the system's text
    /// (English: always the system's text, `(os error 2)` and all).
    pub fn io_error(self, e: &std::io::Error) -> String {
        use std::io::ErrorKind;
        if self.is_english() {
            return e.to_string();
        }
        let id = match e.kind() {
            ErrorKind::NotFound => "io-not-found",
            ErrorKind::PermissionDenied => "io-permission-denied",
            ErrorKind::IsADirectory => "io-is-a-folder",
            ErrorKind::NotADirectory => "io-not-a-folder",
            ErrorKind::AlreadyExists => "io-already-exists",
            _ => return e.to_string(),
        };
        self.t(id)
    }

    /// The message `id` with no arguments.
    pub fn t(self, id: &str) -> String {
        self.text(id, &[])
    }

    /// The message `id` (or its attribute, `id.attr`) with its arguments;
    /// English where this language lacks it; `⟦id⟧` where English does too.
    pub fn text(self, id: &str, args: &[(&str, Arg)]) -> String {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            fluent.set(*name, value.clone());
        }
        let all = catalogues();
        [self.0, 0]
            .iter()
            .find_map(|&i| format(&all[i].bundle, id, &fluent))
            .unwrap_or_else(|| format!("{}{id}{}", MISSING.0, MISSING.1))
    }

    /// The ids of this language's messages, sorted (for the catalogue test).
    pub fn message_ids(self) -> &'static [String] {
        &catalogues()[self.0].ids
    }
}

/// One message of a bundle, or `None` where it has no such message (or the
/// message has no value).
fn format(bundle: &FluentBundle<FluentResource>, id: &str, args: &FluentArgs) -> Option<String> {
    let (name, attribute) = match id.split_once('.') {
        Some((n, a)) => (n, Some(a)),
        None => (id, None),
    };
    let message = bundle.get_message(name)?;
    let pattern = match attribute {
        Some(a) => message.get_attribute(a)?.value(),
        None => message.value()?,
    };
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(args), &mut errors);
    // A missing argument shows as `{$name}` in the text: the tests see it.
    Some(text.into_owned())
}

/// A time as a reader of `locale` expects it, from its parts in the
/// contest's time zone: `2026-12-01 09:00:00` / `2026年12月1日 09:00:00`.
pub fn date_time(locale: Locale, t: time::OffsetDateTime) -> String {
    locale.text(
        "date-time",
        &[
            ("year", Arg::from(t.year().to_string())),
            ("month", Arg::from(u8::from(t.month()).to_string())),
            ("month2", Arg::from(format!("{:02}", u8::from(t.month())))),
            ("day", Arg::from(t.day().to_string())),
            ("day2", Arg::from(format!("{:02}", t.day()))),
            (
                "time",
                Arg::from(format!("{:02}:{:02}:{:02}", t.hour(), t.minute(), t.second())),
            ),
        ],
    )
}

/// A message of the catalogues as an error, with the error it comes from
/// (its cause, next in the chain): its id and arguments, worded when shown
/// ([`Said::in_words`]); shown in English by `Display`. The commands'
/// errors a person reads on the terminal, so that `main` words each in
/// the user's language.
#[derive(Debug)]
pub struct Said {
    id: &'static str,
    args: Vec<(&'static str, String)>,
    cause: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Said {
    /// The message `id`, with no arguments yet.
    pub fn new(id: &'static str) -> Said {
        Said {
            id,
            args: Vec::new(),
            cause: None,
        }
    }

    /// With the argument `name` = `value`.
    pub fn arg(mut self, name: &'static str, value: impl std::fmt::Display) -> Said {
        self.args.push((name, value.to_string()));
        self
    }

    /// Coming from `cause` (what went wrong while doing what it says).
    pub fn because(mut self, cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Said {
        self.cause = Some(cause.into());
        self
    }

    /// The message in `locale` (without its cause).
    pub fn in_words(&self, locale: Locale) -> String {
        let args: Vec<(&str, Arg)> = self
            .args
            .iter()
            .map(|(k, v)| (*k, Arg::from(v.as_str())))
            .collect();
        locale.text(self.id, &args)
    }
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.in_words(Locale::english()))
    }
}

impl std::error::Error for Said {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zh() -> Locale {
        Locale::parse("zh-CN").expect("zh-CN is a language of the judge")
    }

    #[test]
    fn tags_of_every_spelling_find_the_language() {
        for tag in ["zh-CN", "zh", "zh-Hans", "zh-Hans-CN", "zh_CN.UTF-8", "zh-SG"] {
            assert_eq!(Locale::parse(tag), Some(zh()), "{tag}");
        }
        for tag in ["en", "en-GB", "en_US.UTF-8"] {
            assert_eq!(Locale::parse(tag), Some(Locale::english()), "{tag}");
        }
        for tag in ["C", "POSIX", "", "x", "tlh"] {
            assert_eq!(Locale::parse(tag), None, "{tag}");
        }
    }

    #[test]
    fn accept_language_is_read_by_its_weights() {
        assert_eq!(
            Locale::from_accept_language("zh-CN,zh;q=0.9,en;q=0.8"),
            Some(zh())
        );
        assert_eq!(Locale::from_accept_language("en;q=0.5, zh;q=0.9"), Some(zh()));
        assert_eq!(
            Locale::from_accept_language("fr, en;q=0.3"),
            Some(Locale::english())
        );
        assert_eq!(Locale::from_accept_language("fr, de"), None);
        assert_eq!(Locale::from_accept_language("zh;q=0, *"), None);
    }

    #[test]
    fn every_language_has_exactly_the_messages_english_has() {
        let english = Locale::english().message_ids();
        assert!(english.len() > 100, "{} messages", english.len());
        for l in Locale::all().skip(1) {
            let ids = l.message_ids();
            let missing: Vec<&String> = english.iter().filter(|id| !ids.contains(id)).collect();
            let extra: Vec<&String> = ids.iter().filter(|id| !english.contains(id)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "locales/{l}/: lacks {missing:?}; has what English does not: {extra:?}"
            );
        }
    }

    #[test]
    fn a_message_english_lacks_shows_its_id() {
        assert_eq!(zh().t("no-such-message"), "⟦no-such-message⟧");
    }

    #[test]
    fn arguments_are_written_without_isolation_marks() {
        let text = Locale::english().text("date-time", &[("year", Arg::from("2026"))]);
        assert!(!text.contains('\u{2068}'), "{text:?}");
    }
}
