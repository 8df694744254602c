//! A contest folder, as a teacher or a NOIP-style mock contest leaves it:
//! one sub-folder per contestant (directly in the folder, or in `source/` as
//! LemonLime lays it out, or in `players/` as Arbiter does), each holding
//! the contestant's program for the problem as `<stem>.<ext>` or
//! `<stem>/<stem>.<ext>`. This module finds the contestants and each one's
//! program, or says why there is none to grade; it runs nothing.
//!
//! Contestants' folders are untrusted: a link (to a folder or a file) is
//! never followed, it is named in the reason instead.

use crate::package::languages::LanguageTable;
use std::fs;
use std::path::{Path, PathBuf};

/// Where the contestants' folders are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Directly in the contest folder.
    Plain,
    /// In `source/` (LemonLime, Lemon, Cena's `src/` aside).
    LemonLime,
    /// In `players/` (Arbiter, the NOI Linux judge).
    Arbiter,
}

impl Layout {
    /// The sub-folder holding the contestants, if any.
    fn folder(self) -> Option<&'static str> {
        match self {
            Layout::Plain => None,
            Layout::LemonLime => Some("source"),
            Layout::Arbiter => Some("players"),
        }
    }
}

impl std::fmt::Display for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Layout::Plain => "one folder per contestant",
            Layout::LemonLime => "LemonLime layout: source/<contestant>/",
            Layout::Arbiter => "Arbiter layout: players/<contestant>/",
        })
    }
}

/// One contestant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contestant {
    /// Their folder's name.
    pub name: String,
    /// Their folder.
    pub dir: PathBuf,
    /// Their program, or why there is none to grade (none, or more than one).
    pub program: Result<PathBuf, String>,
}

/// The contestants of a contest folder, in natural order of their names.
#[derive(Clone, Debug)]
pub struct Contest {
    /// The folder given.
    pub dir: PathBuf,
    /// Where the contestants were found.
    pub layout: Layout,
    /// Everyone found.
    pub contestants: Vec<Contestant>,
}

/// A contest folder that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ContestError {
    /// A folder could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// No contestant folder at all.
    #[error(
        "{0}: no contestant folders (expected one sub-folder per contestant, directly or in source/ or players/)"
    )]
    Empty(PathBuf),
}

impl Contest {
    /// Finds the contestants of `dir` and their programs for a problem whose
    /// files are named `stem` (`mayan.cpp`), in the languages of `languages`.
    pub fn find(dir: &Path, stem: &str, languages: &LanguageTable) -> Result<Contest, ContestError> {
        let layout = [Layout::LemonLime, Layout::Arbiter]
            .into_iter()
            .find(|l| l.folder().is_some_and(|f| is_real_dir(&dir.join(f))))
            .unwrap_or(Layout::Plain);
        let base = layout.folder().map_or_else(|| dir.to_path_buf(), |f| dir.join(f));
        let mut contestants = Vec::new();
        for (name, path) in entries(&base)? {
            if name.starts_with('.') {
                continue;
            }
            let program = if is_real_dir(&path) {
                program(&path, &name, stem, languages)?
            } else if is_link(&path) {
                Err(format!("{name} is a symbolic link (not followed)"))
            } else {
                continue; // a file beside the contestants' folders
            };
            contestants.push(Contestant {
                name,
                dir: path,
                program,
            });
        }
        if contestants.is_empty() {
            return Err(ContestError::Empty(dir.to_path_buf()));
        }
        Ok(Contest {
            dir: dir.to_path_buf(),
            layout,
            contestants,
        })
    }
}

/// The entries of a folder, `(name, path)`, in natural order.
fn entries(dir: &Path) -> Result<Vec<(String, PathBuf)>, ContestError> {
    let read = |source| ContestError::Read {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(read)? {
        let entry = entry.map_err(read)?;
        out.push((entry.file_name().to_string_lossy().into_owned(), entry.path()));
    }
    out.sort_by(|a, b| natord::compare(&a.0, &b.0));
    Ok(out)
}

fn is_real_dir(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
}

fn is_link(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

/// A contestant's program: the one `<stem>.<ext>` of a known language in
/// their folder or its `<stem>/` sub-folder; else why not (none, with what
/// was there; more than one; a link).
fn program(
    dir: &Path,
    name: &str,
    stem: &str,
    languages: &LanguageTable,
) -> Result<Result<PathBuf, String>, ContestError> {
    let mut found = Vec::new();
    let mut near = Vec::new();
    for (folder, shown) in [
        (dir.to_path_buf(), String::new()),
        (dir.join(stem), format!("{stem}/")),
    ] {
        if !is_real_dir(&folder) {
            continue;
        }
        for (file, path) in entries(&folder)? {
            let Some((file_stem, ext)) = file.rsplit_once('.') else {
                continue;
            };
            let known = languages
                .detect(&path)
                .is_some_and(|l| l.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)));
            if !known {
                continue;
            }
            if file_stem != stem {
                near.push(format!("{shown}{file}"));
            } else if is_link(&path) {
                return Ok(Err(format!("{shown}{file} is a symbolic link (not followed)")));
            } else if fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                found.push((format!("{shown}{file}"), path));
            }
        }
    }
    Ok(match found.len() {
        1 => Ok(found.remove(0).1),
        0 if near.is_empty() => Err(format!(
            "no program: no {stem}.<ext> in {name}/ or {name}/{stem}/"
        )),
        0 => Err(format!(
            "no program: no {stem}.<ext> in {name}/ or {name}/{stem}/ (found {}: the file must be named {stem}.<ext>)",
            near.join(", ")
        )),
        _ => Err(format!(
            "{} programs: {}; keep one",
            found.len(),
            found
                .iter()
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "x").unwrap();
    }

    #[test]
    fn contestants_and_their_programs_are_found_in_each_layout() {
        let t = LanguageTable::builtin();
        for sub in ["", "source", "players"] {
            let dir = tempfile::tempdir().unwrap();
            let base = dir.path().join(sub);
            touch(&base.join("alice/mayan.cpp"));
            touch(&base.join("alice/mayan")); // a binary left beside the source
            touch(&base.join("bob/mayan/mayan.c"));
            touch(&base.join("bob/mayan/notes.txt"));
            touch(&base.join("carol/Mayan.cpp"));
            touch(&base.join("dave/mayan.c"));
            touch(&base.join("dave/mayan.py"));
            fs::create_dir_all(base.join("erin")).unwrap();
            std::os::unix::fs::symlink("/etc", base.join("frank")).unwrap();
            fs::create_dir_all(base.join("grace")).unwrap();
            std::os::unix::fs::symlink("/etc/passwd", base.join("grace/mayan.c")).unwrap();
            touch(&base.join("README.txt"));
            let c = Contest::find(dir.path(), "mayan", &t).unwrap();
            let expected_layout = match sub {
                "" => Layout::Plain,
                "source" => Layout::LemonLime,
                _ => Layout::Arbiter,
            };
            assert_eq!(c.layout, expected_layout);
            let names: Vec<&str> = c.contestants.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["alice", "bob", "carol", "dave", "erin", "frank", "grace"]);
            let p = |i: usize| c.contestants[i].program.clone();
            assert_eq!(p(0), Ok(base.join("alice/mayan.cpp")));
            assert_eq!(p(1), Ok(base.join("bob/mayan/mayan.c")));
            assert!(p(2).unwrap_err().contains("found Mayan.cpp"), "{:?}", p(2));
            assert_eq!(p(3).unwrap_err(), "2 programs: mayan.c, mayan.py; keep one");
            assert_eq!(
                p(4).unwrap_err(),
                "no program: no mayan.<ext> in erin/ or erin/mayan/"
            );
            assert!(p(5).unwrap_err().contains("symbolic link"));
            assert!(p(6).unwrap_err().contains("mayan.c is a symbolic link"));
        }
    }

    #[test]
    fn a_folder_without_contestants_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("mayan.cpp"));
        let e = Contest::find(dir.path(), "mayan", &LanguageTable::builtin()).unwrap_err();
        assert!(e.to_string().contains("no contestant folders"), "{e}");
    }
}
