//! The TOML shapes of `lessons/course.toml` and each part's `exercises.toml`,
//! as written by content authors. [`super::Course::load`] turns them into the
//! validated model.

use serde::Deserialize;
use toml::Spanned;

/// The format version this build reads. A manifest with another version is
/// refused with a message, never half-read.
pub const FORMAT_VERSION: u32 = 1;

/// `lessons/course.toml`: the course title and its parts in order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseFile {
    /// Must equal [`FORMAT_VERSION`].
    pub format_version: Spanned<u32>,
    /// The course title shown in the header.
    pub title: String,
    /// The parts, in teaching order.
    #[serde(rename = "parts")]
    pub parts: Vec<PartEntry>,
}

/// One `[[parts]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartEntry {
    /// 1-based part number; parts must be numbered 1, 2, 3… in order.
    pub number: Spanned<u8>,
    /// Short title, e.g. "JSON-RPC messages".
    pub title: String,
    /// The part's folder under `lessons/`, holding `lesson.md`, `quiz.toml`
    /// and `exercises.toml`. Absent for a part not written yet.
    pub dir: Option<Spanned<String>>,
}

/// A part's `exercises.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExercisesFile {
    /// Must equal [`FORMAT_VERSION`].
    pub format_version: Spanned<u32>,
    /// The part's exercises, in order.
    #[serde(default)]
    pub exercises: Vec<ExerciseEntry>,
}

/// One `[[exercises]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExerciseEntry {
    /// `NN-slug`, e.g. `01-encode-frames`; also the folder name under
    /// `exercises/` and `solutions/`.
    pub id: Spanned<String>,
    /// Short title, e.g. "Encode the four frames".
    pub title: String,
    /// The task, in a few plain paragraphs (shown in the exercise view).
    pub task: String,
    /// Files the learner edits, relative to the exercise crate.
    pub files: Spanned<Vec<String>>,
    /// Hints, revealed one at a time: a nudge first, nearly the answer last.
    pub hints: Spanned<Vec<String>>,
    /// Which hint (numbered from 1) is about a case, by the case's name:
    /// the workbook points a learner stuck on that case to it.
    #[serde(default)]
    pub hint_for: Option<std::collections::BTreeMap<String, Spanned<usize>>>,
    /// The lesson sections the exercise needs, in reading order, each as
    /// `"PART › Heading"` (a `##` or `###` heading of its own part or an
    /// earlier one), such as `"1 › Three shapes, one id"`.
    #[serde(default)]
    pub needs: Vec<Spanned<String>>,
    /// The checker that judges this exercise (a name in `check::checkers`).
    pub checker: Spanned<String>,
    /// Per-case timeout in milliseconds (default 3000).
    pub timeout_ms: Option<u64>,
}
