//! One module per subcommand: each turns parsed arguments into work on the
//! domain modules and returns the process exit code.

pub mod bench;
pub mod check;
pub mod ci;
pub mod export;
pub mod r#gen;
pub mod grade;
pub mod progress;
pub mod solve;
pub mod validate;

use anyhow::{Context, Result};
use std::io::Read;
use std::path::Path;

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("reading standard input")?;
        Ok(buf)
    } else {
        std::fs::read(path).with_context(|| format!("reading {}", path.display()))
    }
}
