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

/// The 1-based line of byte offset `offset` in `source` (an offset past
/// the end counts as the end). Scans the text up to `offset`: for many
/// offsets into one text, build a [`LineIndex`] once instead.
pub fn line_of(source: &str, offset: usize) -> usize {
    let end = offset.min(source.len());
    memchr::memchr_iter(b'\n', &source.as_bytes()[..end]).count() + 1
}

/// Where each line of a text starts, for turning many byte offsets into
/// 1-based lines: built in one pass, each lookup a binary search. (Counting
/// newlines from the start for every offset made loading the course
/// quadratic in a file's length.)
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offsets of the line starts: 0, then one past each `\n`.
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `source`.
    pub fn new(source: &str) -> Self {
        // memchr finds each newline without a step per byte: in the debug
        // builds the tests run, a byte-by-byte iterator made this a sixth
        // of loading the course.
        let newlines = memchr::memchr_iter(b'\n', source.as_bytes());
        LineIndex {
            starts: std::iter::once(0).chain(newlines.map(|i| i + 1)).collect(),
        }
    }

    /// The 1-based line of byte offset `offset`, as [`line_of`] gives it.
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset)
    }
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

#[cfg(test)]
mod tests {
    use super::{LineIndex, line_of};

    #[test]
    fn the_index_agrees_with_counting_newlines_at_every_offset() {
        for text in ["", "a", "\n", "a\nb", "a\n\nb\n", "\n\nx", "é\nü\n"] {
            let index = LineIndex::new(text);
            for offset in 0..=text.len() + 2 {
                assert_eq!(index.line(offset), line_of(text, offset), "{text:?} at {offset}");
            }
        }
        assert_eq!(LineIndex::new("a\nb\nc").line(4), 3);
    }
}
