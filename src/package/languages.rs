//! The languages a submission may be written in: how to compile it and how
//! to run it. A built-in table (C, C++, Rust, Python 3, a ready executable)
//! that a package can override or extend with a `languages.toml` beside its
//! `problem.toml`:
//!
//! ```toml
//! [[language]]
//! name = "cpp"
//! extensions = ["cpp", "cc", "cxx"]
//! compile = ["g++", "-O2", "-std=c++20", "-o", "{exe}", "{src}"]
//! run = ["{exe}"]
//! ```
//!
//! In commands, `{src}` is the source file and `{exe}` the compiled program.

use super::PackageError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file a package may add to change the table.
pub const LANGUAGES_FILE: &str = "languages.toml";

/// One language.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// Name used by `--lang` (`c`, `cpp`, `rust`, `python`, `exe`).
    pub name: String,
    /// File extensions without the dot.
    #[serde(default)]
    pub extensions: Vec<String>,
    /// Compile command, if the language is compiled.
    #[serde(default)]
    pub compile: Option<Vec<String>>,
    /// Run command.
    pub run: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguagesToml {
    language: Vec<Language>,
}

/// The languages known for a package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanguageTable {
    languages: Vec<Language>,
}

fn lang(name: &str, exts: &[&str], compile: Option<&[&str]>, run: &[&str]) -> Language {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Language {
        name: name.into(),
        extensions: strings(exts),
        compile: compile.map(strings),
        run: strings(run),
    }
}

impl LanguageTable {
    /// The built-in table.
    pub fn builtin() -> LanguageTable {
        LanguageTable {
            languages: vec![
                lang(
                    "c",
                    &["c"],
                    Some(&["gcc", "-O2", "-std=c11", "-o", "{exe}", "{src}", "-lm"]),
                    &["{exe}"],
                ),
                lang(
                    "cpp",
                    &["cpp", "cc", "cxx", "c++"],
                    Some(&["g++", "-O2", "-std=c++17", "-o", "{exe}", "{src}"]),
                    &["{exe}"],
                ),
                lang(
                    "rust",
                    &["rs"],
                    Some(&["rustc", "-O", "-o", "{exe}", "{src}"]),
                    &["{exe}"],
                ),
                lang("python", &["py"], None, &["python3", "{src}"]),
                lang("exe", &[], None, &["{src}"]),
            ],
        }
    }

    /// The built-in table with a package's `languages.toml` applied when the
    /// package has one: an entry with a known name replaces it, others are added.
    pub fn for_package(package_dir: &Path) -> Result<LanguageTable, PackageError> {
        let mut table = LanguageTable::builtin();
        let path = package_dir.join(LANGUAGES_FILE);
        if !path.exists() {
            return Ok(table);
        }
        let text = std::fs::read_to_string(&path).map_err(|cause| PackageError::Io {
            path: path.clone(),
            cause,
        })?;
        let file: LanguagesToml = toml::from_str(&text).map_err(|e| PackageError::toml(&path, &text, &e))?;
        for l in file.language {
            if l.run.is_empty() {
                return Err(PackageError::Invalid {
                    path,
                    message: format!("language `{}` has an empty run command", l.name),
                });
            }
            match table.languages.iter_mut().find(|x| x.name == l.name) {
                Some(slot) => *slot = l,
                None => table.languages.push(l),
            }
        }
        Ok(table)
    }

    /// The language by name.
    pub fn get(&self, name: &str) -> Option<&Language> {
        self.languages.iter().find(|l| l.name == name)
    }

    /// The language of a file, by its extension; a file with no extension is
    /// a ready executable. `None` for an unknown extension.
    pub fn detect(&self, path: &Path) -> Option<&Language> {
        match path.extension().and_then(|e| e.to_str()) {
            None => self.get("exe"),
            Some(ext) => self
                .languages
                .iter()
                .find(|l| l.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext))),
        }
    }

    /// Every language name, for messages.
    pub fn names(&self) -> Vec<&str> {
        self.languages.iter().map(|l| l.name.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_detected_by_extension() {
        let t = LanguageTable::builtin();
        let name = |p: &str| t.detect(Path::new(p)).map(|l| l.name.as_str());
        assert_eq!(name("a.c"), Some("c"));
        assert_eq!(name("a.CPP"), Some("cpp"));
        assert_eq!(name("sol.rs"), Some("rust"));
        assert_eq!(name("sol.py"), Some("python"));
        assert_eq!(name("solution"), Some("exe"));
        assert_eq!(name("notes.txt"), None);
    }

    #[test]
    fn a_package_can_override_and_add_languages() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(LANGUAGES_FILE),
            r#"
[[language]]
name = "cpp"
extensions = ["cpp"]
compile = ["clang++", "-O2", "-o", "{exe}", "{src}"]
run = ["{exe}"]

[[language]]
name = "pypy"
extensions = ["pypy"]
run = ["pypy3", "{src}"]
"#,
        )
        .unwrap();
        let t = LanguageTable::for_package(dir.path()).unwrap();
        assert_eq!(t.get("cpp").unwrap().compile.as_ref().unwrap()[0], "clang++");
        assert_eq!(t.detect(Path::new("x.pypy")).unwrap().name, "pypy");
        assert_eq!(t.get("c").unwrap().name, "c");
    }

    #[test]
    fn a_broken_languages_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(LANGUAGES_FILE),
            "[[language]]\nname = \"x\"\nrun = []\nflags = 1\n",
        )
        .unwrap();
        let err = LanguageTable::for_package(dir.path()).unwrap_err().to_string();
        assert!(err.contains("languages.toml") && err.contains("flags"), "{err}");
    }
}
