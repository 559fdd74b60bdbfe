//! The course: parts, lessons, quizzes and exercises, loaded from
//! `lessons/` and validated as a whole. Every problem is reported as
//! `file:line: reason`, all at once, so an author fixes them in one pass.

pub mod aside;
mod entries;
pub mod error;
pub mod fairness;
pub mod glossary;
pub mod lesson;
pub mod manifest;
pub mod needs;
pub mod quiz;
pub mod workspace;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use error::{ContentError, ContentErrors};
pub use lesson::Lesson;
pub use quiz::Quiz;
pub use workspace::{WORKSPACE, workspace_members};

use error::parse_toml;
use manifest::{CourseFile, FORMAT_VERSION};

/// MCP revisions a lesson frame may name, oldest first.
pub use crate::mcp::REVISIONS;

/// The manifest's path, relative to the course root.
pub const MANIFEST: &str = "lessons/course.toml";

/// The files every written part's folder holds.
pub const PART_FILES: [&str; 3] = ["lesson.md", "quiz.toml", "exercises.toml"];

/// A loaded, validated course.
#[derive(Debug, Clone)]
pub struct Course {
    /// The checkout's root (holds `lessons/`, `exercises/` with the crates'
    /// workspace manifest [`WORKSPACE`], `solutions/`).
    pub root: PathBuf,
    /// The course title.
    pub title: String,
    /// The parts in order.
    pub parts: Vec<Part>,
    /// Every exercise, in course order.
    pub exercises: Vec<Exercise>,
    /// The glossary (`lessons/glossary.toml`), when the course has one.
    pub glossary: Option<glossary::Glossary>,
}

/// One part of the course.
#[derive(Debug, Clone)]
pub struct Part {
    /// 1-based number.
    pub number: u8,
    /// Short title.
    pub title: String,
    /// The lesson, if the part is written.
    pub lesson: Option<Lesson>,
    /// The quiz, if the part is written.
    pub quiz: Option<Quiz>,
    /// Ids of this part's exercises, in order.
    pub exercises: Vec<String>,
}

impl Part {
    /// Whether the part has content yet (later parts may be planned only).
    pub fn is_written(&self) -> bool {
        self.lesson.is_some()
    }
}

/// One exercise: a crate under `exercises/<id>` the learner edits, its
/// reference crate under `solutions/<id>`, and the shipped stub files under
/// `lessons/<part>/stubs/<id>` that reset restores.
#[derive(Debug, Clone)]
pub struct Exercise {
    /// `NN-slug`, e.g. `01-encode-frames`.
    pub id: String,
    /// Short title.
    pub title: String,
    /// The task, in plain paragraphs.
    pub task: String,
    /// The part it belongs to.
    pub part: u8,
    /// Files the learner edits, relative to the crate.
    pub files: Vec<String>,
    /// Hints, a nudge first.
    pub hints: Vec<String>,
    /// The hint (numbered from 1) about a case, by case name (the names
    /// are the checker's: `tests/content.rs` holds them to it).
    pub hint_for: std::collections::BTreeMap<String, usize>,
    /// The lesson sections it needs you to read, in the order
    /// `exercises.toml` names them (`needs`), resolved in their lessons.
    pub needs: Vec<needs::Need>,
    /// Name of the checker that judges it.
    pub checker: String,
    /// Per-case timeout.
    pub timeout: Duration,
    /// The part's folder under `lessons/`.
    part_dir: String,
}

impl Exercise {
    /// `01` from `01-encode-frames`.
    pub fn number(&self) -> &str {
        &self.id[..2]
    }

    /// `encode-frames` from `01-encode-frames`.
    pub fn slug(&self) -> &str {
        &self.id[3..]
    }

    /// The learner's crate: `exercises/<id>`.
    pub fn dir(&self, root: &Path) -> PathBuf {
        root.join("exercises").join(&self.id)
    }

    /// The reference crate: `solutions/<id>`.
    pub fn solution_dir(&self, root: &Path) -> PathBuf {
        root.join("solutions").join(&self.id)
    }

    /// The shipped stub files: `lessons/<part>/stubs/<id>`, laid out like
    /// the crate (only the files the learner edits).
    pub fn stub_dir(&self, root: &Path) -> PathBuf {
        root.join("lessons").join(&self.part_dir).join("stubs").join(&self.id)
    }

    /// Cargo package name of the learner's crate: `exercise-<id>`.
    pub fn package(&self) -> String {
        format!("exercise-{}", self.id)
    }

    /// Cargo package name of the reference crate: `solution-<id>`.
    pub fn solution_package(&self) -> String {
        format!("solution-{}", self.id)
    }

    /// The files the learner edits, as paths under the root, in the order
    /// `exercises.toml` lists them.
    pub fn file_paths(&self, root: &Path) -> Vec<PathBuf> {
        self.files.iter().map(|f| self.dir(root).join(f)).collect()
    }

    /// Whether `query` names this exercise: `01`, `1`, `encode-frames` or
    /// `01-encode-frames`.
    pub fn matches(&self, query: &str) -> bool {
        let q = query.trim();
        let as_number = |s: &str| s.parse::<u32>().ok();
        q == self.id || q == self.slug() || (as_number(q).is_some() && as_number(q) == as_number(self.number()))
    }
}

impl Course {
    /// Loads and validates the course under `root`. `checkers` names the
    /// checkers the engine knows (`check::checkers::names()`): an exercise
    /// that names another is an error. The course itself knows no checker.
    ///
    /// Errors: every problem found, each as `file:line: reason` with the
    /// file relative to `root`.
    pub fn load(root: &Path, checkers: &[&str]) -> Result<Course, ContentErrors> {
        Loader {
            root,
            checkers,
            errors: Vec::new(),
            needs: Vec::new(),
        }
        .load()
    }

    /// Finds an exercise by id, number or slug.
    pub fn exercise(&self, query: &str) -> Option<&Exercise> {
        self.exercises.iter().find(|e| e.matches(query))
    }

    /// Finds a part by its number.
    pub fn part(&self, number: u8) -> Option<&Part> {
        self.parts.iter().find(|p| p.number == number)
    }

    /// The index of an exercise in course order.
    pub fn exercise_index(&self, id: &str) -> Option<usize> {
        self.exercises.iter().position(|e| e.id == id)
    }
}

struct Loader<'a> {
    root: &'a Path,
    checkers: &'a [&'a str],
    errors: Vec<ContentError>,
    /// Each exercise's `needs`, as written, to resolve once every lesson
    /// is loaded: (exercise index, name, `exercises.toml` path, line).
    needs: Vec<(usize, String, PathBuf, usize)>,
}

impl Loader<'_> {
    fn read(&mut self, rel: &Path) -> Option<String> {
        match std::fs::read_to_string(self.root.join(rel)) {
            Ok(s) => Some(s),
            Err(e) => {
                self.errors.push(ContentError::file(rel, format!("cannot read: {e}")));
                None
            }
        }
    }

    fn load(mut self) -> Result<Course, ContentErrors> {
        let manifest = Path::new(MANIFEST);
        let Some(source) = self.read(manifest) else {
            return Err(ContentErrors(self.errors));
        };
        let file: CourseFile = match parse_toml(manifest, &source) {
            Ok(f) => f,
            Err(e) => return Err(ContentErrors(vec![e])),
        };
        if *file.format_version.get_ref() != FORMAT_VERSION {
            let v = file.format_version.get_ref();
            self.errors.push(ContentError::at_offset(manifest, &source, file.format_version.span().start, format!("format_version {v} is not supported; this mcplings reads {FORMAT_VERSION} (update mcplings: git pull)")));
            return Err(ContentErrors(self.errors));
        }
        let members = workspace_members(self.root);
        let mut parts = Vec::new();
        let mut exercises = Vec::new();
        // Exercise id → where it is first defined (`file:line`).
        let mut first_use: HashMap<String, String> = HashMap::new();
        // Story reference (`owner/repo#N`) → where it is first told (`file:line`).
        let mut told: HashMap<String, String> = HashMap::new();
        for (i, entry) in file.parts.into_iter().enumerate() {
            let number = *entry.number.get_ref();
            if usize::from(number) != i + 1 {
                self.errors.push(ContentError::at_offset(
                    manifest,
                    &source,
                    entry.number.span().start,
                    format!(
                        "part number {number} is out of order; parts are numbered 1, 2, 3… and this is part {}",
                        i + 1
                    ),
                ));
            }
            let mut part = Part {
                number,
                title: entry.title,
                lesson: None,
                quiz: None,
                exercises: Vec::new(),
            };
            if let Some(dir) = entry.dir {
                let dir_rel = Path::new("lessons").join(dir.get_ref());
                if !self.root.join(&dir_rel).is_dir() {
                    self.errors.push(ContentError::at_offset(
                        manifest,
                        &source,
                        dir.span().start,
                        format!("part folder {} does not exist", dir_rel.display()),
                    ));
                } else {
                    // A missing file is reported where the course names its folder.
                    let missing: Vec<&str> = PART_FILES
                        .iter()
                        .copied()
                        .filter(|f| !self.root.join(&dir_rel).join(f).exists())
                        .collect();
                    if !missing.is_empty() {
                        let which = missing
                            .iter()
                            .map(|f| dir_rel.join(f).display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ");
                        self.errors.push(ContentError::at_offset(
                            manifest,
                            &source,
                            dir.span().start,
                            format!(
                                "part {number}'s folder lacks {which}; a written part has {}",
                                PART_FILES.join(", ")
                            ),
                        ));
                    }
                    let has = |f: &str| !missing.contains(&f);
                    if has("lesson.md") {
                        let rel = dir_rel.join("lesson.md");
                        part.lesson = self.lesson(&rel);
                        if let Some(lesson) = &part.lesson {
                            self.errors.extend(aside::told_once(&rel, lesson, &mut told));
                        }
                    }
                    if has("quiz.toml") {
                        part.quiz = self.quiz(&dir_rel.join("quiz.toml"));
                    }
                    let rel = dir_rel.join("exercises.toml");
                    let found = if has("exercises.toml") {
                        self.exercises(&rel, number, dir.get_ref(), &members)
                    } else {
                        Vec::new()
                    };
                    let needs: Vec<(String, Vec<(String, usize)>)> =
                        found.iter().map(|(ex, _, n)| (ex.id.clone(), n.clone())).collect();
                    for (ex, line, _) in found {
                        match first_use.get(&ex.id) {
                            Some(first) => self.errors.push(ContentError::at(&rel, line, format!("duplicate exercise id `{}`: {first} already uses it; each exercise needs an id of its own", ex.id))),
                            None => {
                                first_use.insert(ex.id.clone(), format!("{}:{line}", rel.display()));
                                for (name, at) in needs.iter().filter(|n| n.0 == ex.id).flat_map(|n| n.1.clone()) {
                                    self.needs.push((exercises.len(), name, rel.clone(), at));
                                }
                                part.exercises.push(ex.id.clone());
                                exercises.push(ex);
                            }
                        }
                    }
                }
            }
            parts.push(part);
        }
        self.resolve_needs(&parts, &mut exercises);
        self.errors.extend(quiz::resolve_sections(&mut parts));
        let glossary = self.glossary();
        if self.errors.is_empty() {
            Ok(Course {
                root: self.root.to_path_buf(),
                title: file.title,
                parts,
                exercises,
                glossary,
            })
        } else {
            Err(ContentErrors(self.errors))
        }
    }

    fn lesson(&mut self, rel: &Path) -> Option<Lesson> {
        let source = self.read(rel)?;
        lesson::parse(rel, &source).map_err(|e| self.errors.extend(e)).ok()
    }

    fn glossary(&mut self) -> Option<glossary::Glossary> {
        let rel = Path::new(glossary::GLOSSARY);
        if !self.root.join(rel).is_file() {
            return None;
        }
        let source = self.read(rel)?;
        glossary::parse(rel, &source).map_err(|e| self.errors.extend(e)).ok()
    }

    fn quiz(&mut self, rel: &Path) -> Option<Quiz> {
        let source = self.read(rel)?;
        quiz::parse(rel, &source).map_err(|e| self.errors.extend(e)).ok()
    }
}

#[cfg(test)]
use entries::is_exercise_id;

#[cfg(test)]
mod tests;
