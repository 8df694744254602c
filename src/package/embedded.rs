//! The bundled `mayan` package, compiled into the binary, so that someone who
//! only installed the binary can grade at once. It is written out to a
//! temporary folder with the same layout as the repository
//! (`problems/mayan`, `testdata/mayan`) and then loaded like any package.

use include_dir::{Dir, include_dir};
use std::path::{Path, PathBuf};

static PROBLEM: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/problems/mayan");
static TESTS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/testdata/mayan");

/// The bundled package written out to disk; the folder is removed on drop.
pub struct Embedded {
    root: tempfile::TempDir,
}

impl Embedded {
    /// Writes the bundled package to a fresh temporary folder.
    pub fn extract() -> std::io::Result<Embedded> {
        let root = tempfile::Builder::new()
            .prefix("mayan-judge-bundled-")
            .tempdir()?;
        let problem = root.path().join("problems/mayan");
        let tests = root.path().join("testdata/mayan");
        std::fs::create_dir_all(&problem)?;
        std::fs::create_dir_all(&tests)?;
        PROBLEM.extract(&problem)?;
        TESTS.extract(&tests)?;
        Ok(Embedded { root })
    }

    /// The package folder (`.../problems/mayan`).
    pub fn package_dir(&self) -> PathBuf {
        self.root.path().join("problems/mayan")
    }

    /// The root of the written-out tree.
    pub fn root(&self) -> &Path {
        self.root.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::Problem;

    #[test]
    fn the_bundled_package_loads_with_its_tests() {
        let e = Embedded::extract().unwrap();
        let p = Problem::load(&e.package_dir()).unwrap();
        assert_eq!(p.config.name, "mayan");
        assert!(p.tests().unwrap().len() >= 10);
    }
}
