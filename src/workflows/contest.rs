//! A contest folder, as a teacher or a NOIP-style mock contest leaves it:
//! one sub-folder per contestant (directly in the folder, or in `source/` as
//! LemonLime lays it out, or in `players/` as Arbiter does), each holding
//! the contestant's program for the problem as `<stem>.<ext>` or
//! `<stem>/<stem>.<ext>`. This module finds the contestants and each one's
//! program, or says why there is none to grade; it runs nothing.
//!
//! Contestants' folders are untrusted: a link (to a folder or a file) is
//! never followed, it is named in the reason instead.
//!
//! The inverse, [`write_archive`], zips every contestant's final program in
//! one of these layouts (for the online judge to hand a teacher), so the
//! archive unpacked is a folder this module reads back.

use crate::judge::reason::NoProgram;
use crate::package::languages::LanguageTable;
use std::fs;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

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
    /// Its stable code: `plain`, `lemonlime`, `arbiter`.
    pub fn code(self) -> &'static str {
        match self {
            Layout::Plain => "plain",
            Layout::LemonLime => "lemonlime",
            Layout::Arbiter => "arbiter",
        }
    }

    /// The sub-folder holding the contestants, if any.
    fn folder(self) -> Option<&'static str> {
        match self {
            Layout::Plain => None,
            Layout::LemonLime => Some("source"),
            Layout::Arbiter => Some("players"),
        }
    }
}

/// A layout name that is neither `lemonlime` nor `arbiter`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown layout `{0}` (expected lemonlime or arbiter)")]
pub struct UnknownLayout(pub String);

impl FromStr for Layout {
    type Err = UnknownLayout;

    /// `lemonlime` or `arbiter`, case ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("lemonlime") {
            Ok(Layout::LemonLime)
        } else if s.eq_ignore_ascii_case("arbiter") {
            Ok(Layout::Arbiter)
        } else {
            Err(UnknownLayout(s.to_string()))
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
    pub program: Result<PathBuf, NoProgram>,
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
    /// A name [`write_archive`] cannot store as it is.
    #[error("cannot archive {what} `{name}`: {reason}")]
    ArchiveName {
        /// What the name is of (`contestant`, `file`, `problem`).
        what: &'static str,
        /// The name.
        name: String,
        /// Why not.
        reason: String,
    },
    /// Writing the archive failed.
    #[error("writing the archive: {0}")]
    Archive(#[from] zip::result::ZipError),
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
                Err(NoProgram::Link { file: name.clone() })
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
) -> Result<Result<PathBuf, NoProgram>, ContestError> {
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
                let file = format!("{shown}{file}");
                return Ok(Err(NoProgram::Link { file }));
            } else if fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                found.push((format!("{shown}{file}"), path));
            }
        }
    }
    Ok(match found.len() {
        1 => Ok(found.remove(0).1),
        0 => Err(NoProgram::Missing {
            stem: stem.to_string(),
            folder: name.to_string(),
            near,
        }),
        _ => Err(NoProgram::Several {
            files: found.into_iter().map(|(f, _)| f).collect(),
        }),
    })
}

/// One contestant's final program, for [`write_archive`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedProgram<'a> {
    /// The contestant's name: their folder's.
    pub contestant: &'a str,
    /// The program's file name, `<stem>.<ext>` (e.g. `mayan.cpp`).
    pub file_name: String,
    /// Its bytes.
    pub source: &'a [u8],
}

/// Writes a zip archive of `programs` in `layout`, for the problem whose
/// files are named `problem_stem`: LemonLime's `source/<contestant>/<stem>.<ext>`,
/// Arbiter's (NOI's) `players/<contestant>/<stem>/<stem>.<ext>`, or
/// `<contestant>/<stem>.<ext>`. Unpacked, it is a folder [`Contest::find`]
/// (`grade --contest`) reads back. Names must be plain file names, the
/// contestants distinct ignoring case, each file `<stem>.<ext>`.
pub fn write_archive<W: Write + Seek>(
    out: W,
    layout: Layout,
    problem_stem: &str,
    programs: &[ArchivedProgram],
) -> Result<(), ContestError> {
    check_archive_names(layout, problem_stem, programs)?;
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o644);
    let mut zip = zip::ZipWriter::new(out);
    if let Some(folder) = layout.folder() {
        zip.add_directory(format!("{folder}/"), options.unix_permissions(0o755))?;
    }
    for p in programs {
        zip.start_file(archive_path(layout, problem_stem, p), options)?;
        zip.write_all(p.source).map_err(zip::result::ZipError::Io)?;
    }
    zip.finish()?;
    Ok(())
}

/// Where `program` goes in the archive (see [`write_archive`]).
fn archive_path(layout: Layout, stem: &str, program: &ArchivedProgram) -> String {
    let mut parts: Vec<&str> = layout.folder().into_iter().collect();
    parts.push(program.contestant);
    if layout == Layout::Arbiter {
        parts.push(stem);
    }
    parts.push(&program.file_name);
    parts.join("/")
}

/// Refuses names the archive cannot hold as they are, or that
/// [`Contest::find`] would not read back.
fn check_archive_names(layout: Layout, stem: &str, programs: &[ArchivedProgram]) -> Result<(), ContestError> {
    plain_name(stem).map_err(|r| refuse("problem", stem, r))?;
    let mut seen = std::collections::HashSet::new();
    for p in programs {
        check_program(layout, stem, p)?;
        if !seen.insert(p.contestant.to_lowercase()) {
            let reason = "twice (names are compared ignoring case)";
            return Err(refuse("contestant", p.contestant, reason));
        }
    }
    Ok(())
}

/// Refuses a contestant's name or file name that the archive cannot hold.
fn check_program(layout: Layout, stem: &str, p: &ArchivedProgram) -> Result<(), ContestError> {
    plain_name(p.contestant).map_err(|r| refuse("contestant", p.contestant, r))?;
    // In the plain layout, a contestant named `source` would be read as
    // LemonLime's folder.
    let layout_folders = [Layout::LemonLime, Layout::Arbiter].map(Layout::folder);
    if layout == Layout::Plain && layout_folders.contains(&Some(p.contestant)) {
        return Err(refuse(
            "contestant",
            p.contestant,
            "the name of a layout's folder",
        ));
    }
    plain_name(&p.file_name).map_err(|r| refuse("file", &p.file_name, r))?;
    let named_for_stem = p
        .file_name
        .rsplit_once('.')
        .is_some_and(|(s, ext)| s == stem && !ext.is_empty());
    if !named_for_stem {
        return Err(refuse("file", &p.file_name, &format!("not named {stem}.<ext>")));
    }
    Ok(())
}

/// [`ContestError::ArchiveName`].
fn refuse(what: &'static str, name: &str, reason: &str) -> ContestError {
    ContestError::ArchiveName {
        what,
        name: name.to_string(),
        reason: reason.to_string(),
    }
}

/// A file name that is one path component, and not a hidden one.
fn plain_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        Err("empty")
    } else if name.contains(['/', '\\', '\0']) {
        Err("not a plain file name (`/`, `\\` or NUL)")
    } else if name.starts_with('.') {
        Err("starts with `.` (`..`, or a hidden file)")
    } else if name.chars().any(char::is_control) {
        Err("a control character")
    } else {
        Ok(())
    }
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
            let p = |i: usize| c.contestants[i].program.clone().map_err(|e| e.to_string());
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

    fn three_programs() -> Vec<(&'static str, &'static str, Vec<u8>)> {
        vec![
            ("alice", "mayan.cpp", b"int main() {}\n".to_vec()),
            ("bob", "mayan.py", b"print(-1)\n".to_vec()),
            ("carol_2", "mayan.c", (0..=255).collect()),
        ]
    }

    #[test]
    fn an_archive_unpacked_is_read_back_in_each_layout() {
        let programs = three_programs();
        let archived: Vec<ArchivedProgram> = programs
            .iter()
            .map(|(contestant, file_name, source)| ArchivedProgram {
                contestant,
                file_name: file_name.to_string(),
                source,
            })
            .collect();
        for layout in [Layout::LemonLime, Layout::Arbiter, Layout::Plain] {
            let mut zip = std::io::Cursor::new(Vec::new());
            write_archive(&mut zip, layout, "mayan", &archived).unwrap();
            let dir = tempfile::tempdir().unwrap();
            zip::ZipArchive::new(zip).unwrap().extract(dir.path()).unwrap();
            let c = Contest::find(dir.path(), "mayan", &LanguageTable::builtin()).unwrap();
            assert_eq!(c.layout, layout);
            assert_eq!(c.contestants.len(), 3);
            for (found, (name, file, source)) in c.contestants.iter().zip(&programs) {
                assert_eq!(found.name, *name);
                let path = found.program.as_ref().unwrap();
                assert_eq!(path.file_name().unwrap(), *file);
                assert_eq!(
                    path.parent().unwrap().ends_with("mayan"),
                    layout == Layout::Arbiter
                );
                assert_eq!(fs::read(path).unwrap(), *source);
            }
        }
    }

    #[test]
    fn names_the_archive_cannot_hold_are_refused() {
        let program = |contestant, file_name: &str| ArchivedProgram {
            contestant,
            file_name: file_name.to_string(),
            source: b"",
        };
        let cases = [
            (
                Layout::LemonLime,
                vec![program("../x", "mayan.c")],
                "contestant `../x`",
            ),
            (
                Layout::LemonLime,
                vec![program("..", "mayan.c")],
                "contestant `..`",
            ),
            (
                Layout::Arbiter,
                vec![program("a\0b", "mayan.c")],
                "not a plain file name",
            ),
            (Layout::Arbiter, vec![program("", "mayan.c")], "empty"),
            (
                Layout::Arbiter,
                vec![program("a", "mayan.c"), program("A", "mayan.py")],
                "twice",
            ),
            (
                Layout::Arbiter,
                vec![program("a", "other.c")],
                "not named mayan.<ext>",
            ),
            (Layout::Arbiter, vec![program("a", "mayan.")], "file `mayan.`"),
            (
                Layout::Arbiter,
                vec![program("a", "x/mayan.c")],
                "file `x/mayan.c`",
            ),
            (
                Layout::Plain,
                vec![program("players", "mayan.c")],
                "a layout's folder",
            ),
        ];
        for (layout, programs, expected) in cases {
            let e = write_archive(std::io::Cursor::new(Vec::new()), layout, "mayan", &programs).unwrap_err();
            assert!(e.to_string().contains(expected), "{expected}: {e}");
        }
        let e = write_archive(std::io::Cursor::new(Vec::new()), Layout::Arbiter, "../m", &[]).unwrap_err();
        assert!(e.to_string().contains("problem `../m`"), "{e}");
    }

    #[test]
    fn layouts_are_parsed_from_their_names() {
        assert_eq!("lemonlime".parse(), Ok(Layout::LemonLime));
        assert_eq!("Arbiter".parse(), Ok(Layout::Arbiter));
        assert_eq!(
            "cena".parse::<Layout>().unwrap_err().to_string(),
            "unknown layout `cena` (expected lemonlime or arbiter)"
        );
    }
}
