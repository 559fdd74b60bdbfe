//! Merging two processes' progress: a three-way merge by entry, so that
//! the workbook and a `mcplings check` in another terminal never undo each
//! other's updates.

use std::collections::BTreeMap;

use super::{PROGRESS_FORMAT_VERSION, Progress, QuizProgress};

/// Applies the changes from `base` to `ours` onto `theirs` (the file as it
/// is now), entry by entry: an exercise, a lesson, a quiz question and the
/// position each count as one entry. An entry this process changed or
/// removed takes its value from `ours`; every other entry keeps the value
/// in `theirs`, so another process's changes to it survive. When both
/// changed the same entry, ours wins (it is the later write).
pub fn merge(base: &Progress, ours: &Progress, theirs: &Progress) -> Progress {
    let mut quizzes = theirs.quizzes.clone();
    let empty = QuizProgress::default();
    for part in base.quizzes.keys().chain(ours.quizzes.keys()) {
        let (b, o) = (
            base.quizzes.get(part).unwrap_or(&empty),
            ours.quizzes.get(part).unwrap_or(&empty),
        );
        if b == o {
            continue;
        }
        let t = theirs.quizzes.get(part).unwrap_or(&empty);
        let answers = merge_map(&b.answers, &o.answers, &t.answers);
        let seed = if b.seed != o.seed { o.seed } else { t.seed };
        if answers.is_empty() && seed.is_none() {
            quizzes.remove(part);
        } else {
            quizzes.insert(part.clone(), QuizProgress { answers, seed });
        }
    }
    Progress {
        format_version: PROGRESS_FORMAT_VERSION,
        exercises: merge_map(&base.exercises, &ours.exercises, &theirs.exercises),
        lessons: merge_map(&base.lessons, &ours.lessons, &theirs.lessons),
        quizzes,
        position: if base.position != ours.position {
            ours.position.clone()
        } else {
            theirs.position.clone()
        },
        course_version: if base.course_version != ours.course_version {
            ours.course_version.clone()
        } else {
            theirs.course_version.clone()
        },
    }
}

fn merge_map<V: Clone + PartialEq>(
    base: &BTreeMap<String, V>,
    ours: &BTreeMap<String, V>,
    theirs: &BTreeMap<String, V>,
) -> BTreeMap<String, V> {
    let mut out = theirs.clone();
    for key in base.keys().chain(ours.keys()) {
        match (base.get(key), ours.get(key)) {
            (b, o) if b == o => {}
            (_, Some(value)) => {
                out.insert(key.clone(), value.clone());
            }
            (_, None) => {
                out.remove(key);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_keeps_the_entries_it_changed() {
        let mut base = Progress::default();
        base.exercise_mut("01").hints_shown = 1;
        base.exercise_mut("02").done = true;
        let mut ours = base.clone();
        ours.exercise_mut("01").hints_shown = 2;
        ours.record_pick(1, "q1", 0, true);
        ours.position.exercise = Some("01".into());
        let mut theirs = base.clone();
        theirs.exercise_mut("03").done = true;
        theirs.record_pick(1, "q2", 1, true);
        theirs.lesson_mut(2).read = true;
        let merged = merge(&base, &ours, &theirs);
        assert_eq!(merged.hints_shown("01"), 2);
        assert!(merged.is_done("02") && merged.is_done("03"));
        assert_eq!(
            merged.quiz_score(1),
            (2, 2),
            "answers to two questions of one quiz, one from each side"
        );
        assert!(merged.lesson(2).read);
        assert_eq!(merged.position.exercise.as_deref(), Some("01"));
    }

    #[test]
    fn a_removal_on_our_side_wins_and_untouched_entries_follow_theirs() {
        let mut base = Progress::default();
        base.exercise_mut("01").done = true;
        base.exercise_mut("02").hints_shown = 1;
        base.record_pick(1, "q1", 0, true);
        let mut ours = base.clone();
        ours.exercises.remove("01");
        ours.quizzes.clear();
        let mut theirs = base.clone();
        theirs.exercise_mut("02").hints_shown = 3;
        theirs.position.part = Some(4);
        let merged = merge(&base, &ours, &theirs);
        assert!(!merged.exercises.contains_key("01"));
        assert!(merged.quizzes.is_empty());
        assert_eq!(merged.hints_shown("02"), 3);
        assert_eq!(merged.position.part, Some(4));
    }

    #[test]
    fn with_no_change_of_ours_the_file_wins_whole() {
        let mut theirs = Progress::default();
        theirs.exercise_mut("05").done = true;
        let base = Progress::default();
        assert_eq!(
            merge(&base, &base, &theirs),
            Progress {
                format_version: PROGRESS_FORMAT_VERSION,
                ..theirs
            }
        );
    }
}
