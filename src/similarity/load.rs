//! Reading a program to compare: a file that is not text, too long, or in a
//! language it cannot tell is refused with a reason naming the file; the
//! caller reports it and compares the rest.

use super::{Lang, Source};
use std::path::Path;

/// The longest source read (a program for this puzzle is a few KiB).
pub const MAX_BYTES: u64 = 1 << 20;

/// Why a file is not compared.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// It could not be read.
    #[error("{path}: cannot be read: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Longer than [`MAX_BYTES`].
    #[error("{path}: {size} bytes, longer than the {MAX_BYTES}-byte limit for a source; not compared")]
    TooLong {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
    },
    /// Not text (a NUL byte, or not UTF-8).
    #[error("{path}: not a text file (line {line} holds {what}); not compared")]
    Binary {
        /// The file.
        path: String,
        /// The first line that is not text.
        line: usize,
        /// What it holds.
        what: &'static str,
    },
    /// The extension names no known language and none was given.
    #[error(
        "{path}: cannot tell the language from the extension (known: .c .cpp .cc .py .rs); give --language"
    )]
    UnknownLanguage {
        /// The file.
        path: String,
    },
    /// The parser failed.
    #[error("{path}: {source}")]
    Tokens {
        /// The file.
        path: String,
        /// Why.
        source: super::tokens::TokenizeError,
    },
}

impl LoadError {
    /// The line where the program's nesting passes the limit, if that is why
    /// it is not compared.
    pub fn too_deep_at(&self) -> Option<u32> {
        match self {
            LoadError::Tokens { source, .. } => source.too_deep_at(),
            _ => None,
        }
    }
}

/// Reads and parses `path` as `name`'s program: its language from its
/// extension, else `forced` (`--language`, for extensions that do not say).
pub fn load(path: &Path, name: &str, forced: Option<Lang>, reference: bool) -> Result<Source, LoadError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|source| LoadError::Read {
        path: shown.clone(),
        source,
    })?;
    if meta.len() > MAX_BYTES {
        return Err(LoadError::TooLong {
            path: shown,
            size: meta.len(),
        });
    }
    let lang = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(Lang::from_extension)
        .or(forced)
        .ok_or_else(|| LoadError::UnknownLanguage { path: shown.clone() })?;
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read {
        path: shown.clone(),
        source,
    })?;
    let text = to_text(&bytes).map_err(|(line, what)| LoadError::Binary {
        path: shown.clone(),
        line,
        what,
    })?;
    Source::parse(name, &shown, lang, text, reference)
        .map_err(|source| LoadError::Tokens { path: shown, source })
}

/// `bytes` as text, or the first line that is not and why.
fn to_text(bytes: &[u8]) -> Result<String, (usize, &'static str)> {
    let line_of = |at: usize| bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err((line_of(at), "a NUL byte"));
    }
    String::from_utf8(bytes.to_vec())
        .map_err(|e| (line_of(e.utf8_error().valid_up_to()), "bytes that are not UTF-8"))
}

/// Whether `path` names a source file of a known language (for walking folders).
pub fn is_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(Lang::from_extension)
        .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_file_names_its_line() {
        assert_eq!(to_text(b"int x;\n\0\x01"), Err((2, "a NUL byte")));
        assert!(to_text(b"ok\n\xff").is_err());
    }
}
