//! Content errors that point at a file and line.

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem in the course content, reported as `file:line: reason`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentError {
    /// The file, relative to the course root where possible.
    pub file: PathBuf,
    /// 1-based line number; 0 when the problem is the file as a whole.
    pub line: usize,
    /// What is wrong and, where it helps, how to fix it.
    pub reason: String,
}

impl ContentError {
    /// An error at a line of a file.
    pub fn at(file: &Path, line: usize, reason: impl Into<String>) -> Self {
        ContentError {
            file: file.to_path_buf(),
            line,
            reason: reason.into(),
        }
    }

    /// An error at the byte offset `offset` of `source` (the file's text).
    pub fn at_offset(file: &Path, source: &str, offset: usize, reason: impl Into<String>) -> Self {
        ContentError::at(file, line_of(source, offset), reason)
    }

    /// An error about a whole file (missing, unreadable).
    pub fn file(file: &Path, reason: impl Into<String>) -> Self {
        ContentError::at(file, 0, reason)
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.reason)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.reason)
        }
    }
}

impl std::error::Error for ContentError {}

/// The 1-based line of byte offset `offset` in `source`.
pub fn line_of(source: &str, offset: usize) -> usize {
    let end = offset.min(source.len());
    source.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Every problem found while loading a course, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentErrors(pub Vec<ContentError>);

impl fmt::Display for ContentErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ContentErrors {}

/// Parses TOML text into `T`, turning a syntax or shape error into a
/// [`ContentError`] with the line the parser points at.
pub fn parse_toml<T: serde::de::DeserializeOwned>(file: &Path, source: &str) -> Result<T, ContentError> {
    toml::from_str(source).map_err(|e| {
        let line = e.span().map(|s| line_of(source, s.start)).unwrap_or(0);
        let message = e.message().trim().to_string();
        ContentError::at(file, line, message)
    })
}
