//! Actions on the learner's checkout that the CLI and the TUI share.

use std::path::Path;

use crate::check::CheckReport;
use crate::content::{Course, Exercise};
use crate::progress::{Progress, Shape};

/// The file at `rel` (relative to the course root, e.g. a stub under
/// `lessons/`) as the course ships it. In a workspace written by
/// `mcplings init` that is the binary's copy (`embedded`, a path under
/// [`crate::bundled`]), so a stub or solution the learner edited or
/// deleted there does not leak into `reset` or the solution view; the
/// workspace's own file is the fallback when the binary does not carry it
/// (an exercise of another course version). In a checkout it is the file
/// on disk.
fn shipped(course: &Course, rel: &Path, embedded: &str) -> Result<Vec<u8>, String> {
    if course.root.join(crate::bundled::MARKER).is_file()
        && let Some(bytes) = crate::bundled::file(embedded)
    {
        return Ok(bytes.to_vec());
    }
    let path = course.root.join(rel);
    std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Copies the shipped stub files of `exercise` over the learner's files
/// (from the binary in a workspace: [`shipped`]).
///
/// Errors: a file cannot be read or written (its path is in the message).
pub fn reset_files(course: &Course, exercise: &Exercise) -> Result<(), String> {
    for file in &exercise.files {
        let rel = exercise.stub_dir(Path::new("")).join(file);
        let stub = shipped(course, &rel, &slashed(&rel))?;
        let to = exercise.dir(&course.root).join(file);
        std::fs::write(&to, stub).map_err(|e| format!("cannot restore {}: {e}", to.display()))?;
    }
    Ok(())
}

/// Reads the reference solution of `exercise` (from the binary in a
/// workspace: [`shipped`]): each file (relative to the solution's crate)
/// with its text, or a sentence saying why it could not be read.
pub fn read_solution(course: &Course, exercise: &Exercise) -> Vec<(String, Result<String, String>)> {
    exercise
        .files
        .iter()
        .map(|file| {
            let rel = exercise.solution_dir(Path::new("")).join(file);
            let embedded = format!("course/solutions/{}/{}", exercise.id, file.replace('\\', "/"));
            let text = shipped(course, &rel, &embedded)
                .and_then(|b| String::from_utf8(b).map_err(|_| format!("{} is not UTF-8", rel.display())));
            (file.clone(), text)
        })
        .collect()
}

fn slashed(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Forgets an exercise's progress (done, hints, last check), as after a
/// reset to the stub: the learner starts that exercise over.
pub fn forget_exercise(progress: &mut Progress, exercise: &Exercise) {
    progress.exercises.remove(&exercise.id);
}

/// Whether the learner's files still equal the shipped stub.
pub fn is_pristine(course: &Course, exercise: &Exercise) -> bool {
    exercise.files.iter().all(|file| {
        let rel = exercise.stub_dir(Path::new("")).join(file);
        let stub = shipped(course, &rel, &slashed(&rel)).ok();
        stub.is_some() && stub == std::fs::read(exercise.dir(&course.root).join(file)).ok()
    })
}

/// Records the outcome of a check of the learner's crate: the case count,
/// and `done` once every case passed. An exercise stays done after a later
/// failing check: progress is what the learner achieved.
pub fn record_check(progress: &mut Progress, report: &CheckReport) {
    let entry = progress.exercise_mut(&report.exercise);
    entry.last_check = Some((report.passed_cases(), report.cases.len()));
    if report.passed {
        entry.done = true;
    }
}

/// Reveals the next hint, if any is left; returns how many are shown now.
pub fn reveal_hint(progress: &mut Progress, exercise: &Exercise) -> usize {
    let entry = progress.exercise_mut(&exercise.id);
    entry.hints_shown = (entry.hints_shown + 1).min(exercise.hints.len());
    entry.hints_shown
}

/// What the learner's progress refers to in `course` (exercise ids and
/// their checkers' case names, quiz question ids, lesson section titles)
/// and its version, for
/// [`Progress::migrate`].
pub fn course_shape(course: &Course) -> Shape {
    Shape::new(
        course.exercises.iter().map(|e| {
            let cases = crate::check::checkers::of(e).map_or(Vec::new(), |c| c.cases.iter().map(|c| c.name).collect());
            (e.id.as_str(), cases)
        }),
        course.parts.iter().filter_map(|p| {
            let quiz = p.quiz.as_ref()?;
            Some((
                p.number,
                quiz.questions
                    .iter()
                    .map(|q| (q.id.as_str(), q.fingerprint()))
                    .collect(),
            ))
        }),
    )
    .with_lessons(course.parts.iter().filter_map(|p| {
        let lesson = p.lesson.as_ref()?;
        Some((
            p.number,
            lesson
                .sections
                .iter()
                .map(|s| (s.title.as_str(), s.blocks.len()))
                .collect(),
        ))
    }))
}

/// Brings the progress file of `course` to its version, if it exists and
/// was written against another one or still keeps a lesson's sections by
/// index ([`Progress::needs_migration`]); returns the notes for the learner
/// ([`Progress::migrate`]), or why the file could not be written.
pub fn migrate_file(course: &Course) -> Result<Vec<String>, String> {
    let file = crate::progress::path(&course.root);
    let shape = course_shape(course);
    match crate::progress::read(&file) {
        Some(p) if p.needs_migration(&shape) => {}
        _ => return Ok(Vec::new()),
    }
    let mut notes = Vec::new();
    crate::progress::update(&file, |p| notes = p.migrate(&shape)).map_err(|e| format!("cannot save progress: {e}"))?;
    Ok(notes)
}
