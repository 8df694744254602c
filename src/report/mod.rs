//! Reports of a grading session, one file per format behind one trait (the
//! layout of hyperfine's exporters): `text` for people at a terminal, `json`
//! for machines, `junit` for CI systems. Files are written atomically, so a crash or Ctrl-C never
//! leaves half a report.

mod json;
mod junit;
mod text;

pub use json::Json;
pub use junit::Junit;
pub use text::{Text, verdict_counts};

use crate::ci::CiReport;
use crate::grading::GradeReport;
use std::io::Write;
use std::path::Path;

/// A report format.
pub trait Exporter {
    /// A grading session in this format.
    fn render(&self, report: &GradeReport) -> String;
    /// A package CI run in this format.
    fn render_ci(&self, report: &CiReport) -> String;
}

/// Writes `content` to `path` atomically: to a temporary file in the same
/// folder, then renamed over the target.
pub fn write_atomic(path: &Path, content: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(content)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        write_atomic(&p, b"old, and longer").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}
