//! Exports a package to another judging system's problem format, one file per
//! format behind one trait (the layout of hyperfine's exporters, as in
//! `report/`): `kattis` (Kattis / ICPC, DOMjudge), `polygon` (Codeforces
//! Polygon), `hydro` (Hydro, and with the same checker LOJ and UOJ), `dmoj`,
//! `cms` (CMS's `italy_yaml` task) and `lemon` (a LemonLime contest).
//! `data` reads and checks what they all carry (tests, subtasks, reference
//! programs); `checkers` writes the checkers they carry.
//!
//! [`export`] owns what every format shares: it refuses a non-empty output
//! folder unless asked to replace it, and builds the whole package in a
//! temporary folder beside the target, renamed into place only once every
//! file is written, so a failure never leaves half a package behind.

pub mod checkers;
pub mod cms;
pub mod data;
pub mod dmoj;
pub mod hydro;
pub mod kattis;
mod latex;
pub mod lemon;
pub mod polygon;

pub use cms::Cms;
pub use dmoj::Dmoj;
pub use hydro::Hydro;
pub use kattis::Kattis;
pub use lemon::Lemon;
pub use polygon::Polygon;

use crate::package::{PackageError, Problem};
use std::path::{Path, PathBuf};

/// What can stop an export. Each message is complete in itself (the I/O
/// error is part of it, not a separate `source`), so `{:#}` prints it once.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The package does not load or its tests are not paired.
    #[error("{0}")]
    Package(PackageError),
    /// A file or folder could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A test the format cannot carry as it is (an invalid input, an answer
    /// that disagrees with the solver, two tests given one name).
    #[error("{path}: {message}")]
    BadTest {
        /// The input or answer file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The package uses something the format (or this exporter) cannot express.
    #[error("cannot export {package}: {message}")]
    Unsupported {
        /// The package's name.
        package: String,
        /// What, and what to do about it.
        message: String,
    },
    /// The output folder already holds files.
    #[error("{0} is not empty; nothing written (use --force to replace it)")]
    NotEmpty(PathBuf),
    /// `--testlib` names a file that is not testlib.h.
    #[error("{0}: not testlib.h (--testlib): it never mentions `registerTestlibCmd`")]
    NotTestlib(PathBuf),
    /// The output path is not a folder, or would overwrite the package itself.
    #[error("{path}: {message}")]
    BadOutput {
        /// The output path.
        path: PathBuf,
        /// Why it cannot be used.
        message: String,
    },
}

impl From<PackageError> for ExportError {
    fn from(e: PackageError) -> Self {
        ExportError::Package(e)
    }
}

impl ExportError {
    /// An I/O error on `path`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
        move |error| ExportError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

/// What an export wrote, for the command to report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The format's name.
    pub format: &'static str,
    /// Sample tests written.
    pub sample_tests: usize,
    /// Secret tests written.
    pub secret_tests: usize,
    /// Reference programs written, per expected-verdict folder.
    pub submissions: Vec<(String, usize)>,
    /// Things the user should know: programs left out, settings the format
    /// cannot express, a folder name the format will not accept.
    pub notes: Vec<String>,
}

impl Summary {
    /// Counts one written test of `group` (`sample` or another, secret).
    pub fn count_test(&mut self, group: &str) {
        match group {
            "sample" => self.sample_tests += 1,
            _ => self.secret_tests += 1,
        }
    }
}

/// A problem package format to export to.
pub trait PackageFormat {
    /// The name used on the command line (`--format`).
    fn name(&self) -> &'static str;
    /// Writes the whole package for `problem` into `dir`, an empty folder
    /// whose final name will be `name` (some formats take the problem's id
    /// from it).
    fn write(&self, problem: &Problem, dir: &Path, name: &str) -> Result<Summary, ExportError>;
    /// Whether the format's checker judges every reading of the rules
    /// (LemonLime runs `mayan-judge check` itself); the exported checkers
    /// implement the literal reading only, so the others refuse the rest.
    fn any_reading(&self) -> bool {
        false
    }
}

/// Exports `problem` to `out` in `format`. Without `force`, a folder that
/// exists and is not empty is refused; with it, it is replaced as a whole.
/// The package is built beside `out` and renamed into place at the end.
pub fn export(
    problem: &Problem,
    format: &dyn PackageFormat,
    out: &Path,
    force: bool,
) -> Result<Summary, ExportError> {
    if !format.any_reading() {
        data::literal_only(problem)?;
    }
    data::require_accepted(problem)?;
    let bad = |message: &str| ExportError::BadOutput {
        path: out.to_path_buf(),
        message: message.to_string(),
    };
    let name = match out.file_name() {
        Some(n) => n.to_string_lossy().into_owned(),
        None => return Err(bad("the output must name a folder (not `/`, `.` or `..`)")),
    };
    let exists = match std::fs::symlink_metadata(out) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(bad("is a symbolic link; give the folder it points to"));
        }
        Ok(meta) if !meta.is_dir() => return Err(bad("exists and is not a folder")),
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(ExportError::io(out)(e)),
    };
    if exists {
        let mut entries = std::fs::read_dir(out).map_err(ExportError::io(out))?;
        if entries.next().is_some() && !force {
            return Err(ExportError::NotEmpty(out.to_path_buf()));
        }
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(ExportError::io(&parent))?;
    keep_clear_of_the_package(problem, out, &parent, &name)?;
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.export-"))
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777))
        .tempdir_in(&parent)
        .map_err(ExportError::io(&parent))?;
    let mut summary = format.write(problem, staging.path(), &name)?;
    if exists {
        // Move the old folder aside, put the new one in its place, then
        // delete the old one; put it back if the second rename fails.
        let aside = parent.join(format!(
            ".{name}.old-{}",
            staging.path().file_name().unwrap_or_default().to_string_lossy()
        ));
        std::fs::rename(out, &aside).map_err(ExportError::io(out))?;
        if let Err(e) = std::fs::rename(staging.path(), out) {
            let _ = std::fs::rename(&aside, out);
            return Err(ExportError::io(out)(e));
        }
        let _ = staging.keep();
        if let Err(e) = std::fs::remove_dir_all(&aside) {
            // The new package is in place: only the old one lingers.
            summary.notes.push(format!(
                "the previous contents of {} were moved to {} and could not be deleted: {e}",
                out.display(),
                aside.display()
            ));
        }
    } else {
        std::fs::rename(staging.path(), out).map_err(ExportError::io(out))?;
        let _ = staging.keep();
    }
    Ok(summary)
}

/// The output folder may be replaced as a whole, and what is written into it
/// must not become part of the package: it may neither hold the package, its
/// tests or its reference programs, nor lie inside the tests or the
/// reference programs.
fn keep_clear_of_the_package(
    problem: &Problem,
    out: &Path,
    parent: &Path,
    name: &str,
) -> Result<(), ExportError> {
    let out_real = parent.canonicalize().map_err(ExportError::io(parent))?.join(name);
    let sources = [
        (&problem.dir, false),
        (&problem.tests_dir, true),
        (&problem.reference_dir, true),
    ];
    for (dir, no_output_inside) in sources {
        let Ok(real) = dir.canonicalize() else { continue };
        let message = if real.starts_with(&out_real) {
            format!("holds the package's own files ({})", dir.display())
        } else if no_output_inside && out_real.starts_with(&real) {
            format!("lies inside the package's files ({})", dir.display())
        } else {
            continue;
        };
        return Err(ExportError::BadOutput {
            path: out.to_path_buf(),
            message: format!("{message}; choose another folder"),
        });
    }
    Ok(())
}

/// A file name the formats accept everywhere: letters, digits, `_`, `-` and
/// `.`, not starting with `.` or `-`; anything else becomes `_`.
pub fn safe_file_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        out.insert(0, '_');
    }
    out
}

/// Writes a file, naming it in the error.
/// A YAML scalar: double-quoted with JSON escapes (valid YAML).
fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Whether `name` can be a problem id where a judge takes it from the
/// folder name (Kattis, DMOJ): `[a-z0-9]+`.
pub fn is_problem_id(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

fn write(path: &Path, content: impl AsRef<[u8]>) -> Result<(), ExportError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(ExportError::io(dir))?;
    }
    std::fs::write(path, content).map_err(ExportError::io(path))
}

/// Writes an executable file (mode 0755 before the umask).
fn write_executable(path: &Path, content: impl AsRef<[u8]>) -> Result<(), ExportError> {
    use std::os::unix::fs::PermissionsExt;
    write(path, content)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(ExportError::io(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A format that writes one file, or fails after writing it.
    struct OneFile {
        fail: bool,
    }

    impl PackageFormat for OneFile {
        fn name(&self) -> &'static str {
            "one-file"
        }
        fn write(&self, problem: &Problem, dir: &Path, _name: &str) -> Result<Summary, ExportError> {
            write(&dir.join("sub/file.txt"), "new")?;
            if self.fail {
                return Err(ExportError::Unsupported {
                    package: problem.config.name.clone(),
                    message: "on purpose".into(),
                });
            }
            Ok(Summary::default())
        }
    }

    /// The bundled package with one accepted reference program (an export
    /// refuses a package without one).
    fn bundled() -> (crate::package::embedded::Embedded, Problem) {
        let e = crate::package::embedded::Embedded::extract().unwrap();
        let p = Problem::load(&e.package_dir()).unwrap();
        let accepted = p.reference_dir.join("accepted");
        std::fs::create_dir_all(&accepted).unwrap();
        std::fs::write(accepted.join("solution.c"), "int main(void) { return 0; }\n").unwrap();
        (e, p)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_non_empty_folder_is_refused_without_force_and_replaced_with_it() {
        let (_e, p) = bundled();
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("old.txt"), "old").unwrap();
        let err = export(&p, &OneFile { fail: false }, &out, false).unwrap_err();
        assert!(matches!(err, ExportError::NotEmpty(_)), "{err}");
        assert_eq!(names(&out), ["old.txt"]);
        export(&p, &OneFile { fail: false }, &out, true).unwrap();
        assert_eq!(names(&out), ["sub"]);
        assert_eq!(names(root.path()), ["out"], "nothing left beside it");
    }

    #[test]
    fn an_empty_or_missing_folder_is_written() {
        let (_e, p) = bundled();
        let root = tempfile::tempdir().unwrap();
        let empty = root.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        export(&p, &OneFile { fail: false }, &empty, false).unwrap();
        let missing = root.path().join("a/b/missing");
        export(&p, &OneFile { fail: false }, &missing, false).unwrap();
        assert_eq!(
            std::fs::read_to_string(missing.join("sub/file.txt")).unwrap(),
            "new"
        );
    }

    #[test]
    fn a_failure_leaves_nothing_behind() {
        let (_e, p) = bundled();
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        assert!(export(&p, &OneFile { fail: true }, &out, false).is_err());
        assert!(names(root.path()).is_empty(), "{:?}", names(root.path()));
        // ...and an existing folder is left as it was.
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("old.txt"), "old").unwrap();
        assert!(export(&p, &OneFile { fail: true }, &out, true).is_err());
        assert_eq!(names(root.path()), ["out"]);
        assert_eq!(names(&out), ["old.txt"]);
    }

    #[test]
    fn the_package_itself_is_never_replaced() {
        let (e, p) = bundled();
        let err = export(&p, &OneFile { fail: false }, e.root(), true).unwrap_err();
        assert!(err.to_string().contains("package's own files"), "{err}");
        assert!(p.dir.join(crate::package::PROBLEM_FILE).is_file());
        let file = p.dir.join(crate::package::PROBLEM_FILE);
        let err = export(&p, &OneFile { fail: false }, &file, true).unwrap_err();
        assert!(err.to_string().contains("not a folder"), "{err}");
        let inside = p.tests_dir.join("kattis");
        let err = export(&p, &OneFile { fail: false }, &inside, false).unwrap_err();
        assert!(err.to_string().contains("inside the package's files"), "{err}");
        assert!(!inside.exists());
    }

    #[test]
    fn file_names_keep_to_the_safe_characters() {
        assert_eq!(safe_file_name("big-1"), "big-1");
        assert_eq!(safe_file_name("a b/c"), "a_b_c");
        assert_eq!(safe_file_name(".hidden"), "_.hidden");
        assert_eq!(safe_file_name("-x"), "_-x");
        assert_eq!(safe_file_name("é"), "_");
    }
}
