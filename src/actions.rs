//! Actions on the learner's checkout that the CLI and the TUI share.

use std::path::Path;

use crate::check::CheckReport;
use crate::content::{Course, Exercise};
use crate::progress::{Progress, Shape};

/// Copies the shipped stub files of `exercise` over the learner's files.
///
/// Errors: a file cannot be read or written (its path is in the message).
pub fn reset_files(course: &Course, exercise: &Exercise) -> Result<(), String> {
    for file in &exercise.files {
        let from = exercise.stub_dir(&course.root).join(file);
        let to = exercise.dir(&course.root).join(file);
        std::fs::copy(&from, &to)
            .map_err(|e| format!("cannot restore {} from {}: {e}", to.display(), from.display()))?;
    }
    Ok(())
}

/// Reads the reference solution of `exercise`: each file (relative to the
/// solution's crate) with its text, or a sentence saying why it could not
/// be read.
pub fn read_solution(course: &Course, exercise: &Exercise) -> Vec<(String, Result<String, String>)> {
    exercise
        .files
        .iter()
        .map(|file| {
            let path = exercise.solution_dir(&course.root).join(file);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()));
            (file.clone(), text)
        })
        .collect()
}

/// Forgets an exercise's progress (done, hints, last check), as after a
/// reset to the stub: the learner starts that exercise over.
pub fn forget_exercise(progress: &mut Progress, exercise: &Exercise) {
    progress.exercises.remove(&exercise.id);
}

/// Whether the learner's files still equal the shipped stub.
pub fn is_pristine(course: &Course, exercise: &Exercise) -> bool {
    exercise.files.iter().all(|file| {
        let read = |dir: &Path| std::fs::read(dir.join(file)).ok();
        let stub = read(&exercise.stub_dir(&course.root));
        stub.is_some() && stub == read(&exercise.dir(&course.root))
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
/// their checkers' case names, quiz question ids) and its version, for
/// [`Progress::migrate`].
pub fn course_shape(course: &Course) -> Shape {
    Shape::new(
        course.exercises.iter().map(|e| {
            let cases = crate::check::checkers::of(e).map_or(Vec::new(), |c| c.cases.iter().map(|c| c.name).collect());
            (e.id.as_str(), cases)
        }),
        course.parts.iter().filter_map(|p| {
            let quiz = p.quiz.as_ref()?;
            Some((p.number, quiz.questions.iter().map(|q| q.id.as_str()).collect()))
        }),
    )
}

/// Brings the progress file of `course` to its version, if it exists and
/// was written against another one; returns the notes for the learner
/// ([`Progress::migrate`]), or why the file could not be written.
pub fn migrate_file(course: &Course) -> Result<Vec<String>, String> {
    let file = crate::progress::path(&course.root);
    let shape = course_shape(course);
    match crate::progress::read(&file) {
        Some(p) if p.course_version.as_deref() != Some(shape.version.as_str()) => {}
        _ => return Ok(Vec::new()),
    }
    let mut notes = Vec::new();
    crate::progress::update(&file, |p| notes = p.migrate(&shape)).map_err(|e| format!("cannot save progress: {e}"))?;
    Ok(notes)
}
