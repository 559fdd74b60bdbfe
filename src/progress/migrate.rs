//! Progress across course updates: the progress file records the version
//! of the course it was written against ([`Progress::course_version`]);
//! when the course changes, [`Progress::migrate`] drops what no longer
//! exists (a quiz question, an exercise) and says so, once.
//!
//! The version is a hash of what progress refers to ([`Shape`]): each
//! exercise's id and its checker's case names, each quiz's question ids
//! and what their options are (a fingerprint, so an answer is never
//! scored against options it was not given: one whose question's options
//! changed is dropped with a note).
//! A change of prose leaves it alone; a new case or a moved question
//! changes it. An exercise solved before its checker gained cases is kept
//! done and reported by [`Progress::has_new_cases`].
//!
//! Lessons are kept by section title ([`super::LessonProgress`]). The
//! titles are course facts the shape carries ([`Shape::with_lessons`]) but
//! does not hash: a course whose exercises and quizzes did not change keeps
//! its version, so adding them changed no one's version. A record still
//! kept by section index (a file written before titles) is upgraded by
//! [`Progress::migrate`] whatever the version ([`Progress::needs_migration`]).

use std::collections::BTreeMap;

use super::Progress;

/// What progress refers to in a course: exercise ids with their case
/// counts, quiz question ids per part, and the version they hash to.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shape {
    /// FNV-1a 64 of the exercise ids, case names and question ids, in hex.
    pub version: String,
    /// Exercise id → how many cases its checker has now.
    pub exercises: BTreeMap<String, usize>,
    /// Part number → its quiz's question ids, each with its options'
    /// fingerprint.
    pub quizzes: BTreeMap<u8, BTreeMap<String, String>>,
    /// Part number → its lesson's sections, in order, as (title as
    /// written, number of blocks); not part of the version.
    pub lessons: BTreeMap<u8, Vec<(String, usize)>>,
}

impl Shape {
    /// The shape of a course given as (exercise id, case names) in course
    /// order and (part, [(question id, options fingerprint)]) per quiz.
    pub fn new<'a>(
        exercises: impl IntoIterator<Item = (&'a str, Vec<&'a str>)>,
        quizzes: impl IntoIterator<Item = (u8, Vec<(&'a str, String)>)>,
    ) -> Shape {
        let mut hash = Fnv::default();
        let mut shape = Shape::default();
        for (id, cases) in exercises {
            hash.write(&format!("exercise {id}\n"));
            for case in &cases {
                hash.write(&format!("case {case}\n"));
            }
            shape.exercises.insert(id.to_string(), cases.len());
        }
        for (part, ids) in quizzes {
            hash.write(&format!("quiz {part}\n"));
            for (id, options) in &ids {
                hash.write(&format!("question {id} {options}\n"));
            }
            shape
                .quizzes
                .insert(part, ids.into_iter().map(|(id, o)| (id.to_string(), o)).collect());
        }
        shape.version = format!("{:016x}", hash.0);
        shape
    }

    /// The same shape with each written part's lesson sections, as (part,
    /// [(title as written, number of blocks)]), for upgrading lesson
    /// records kept by index. The version is unchanged.
    pub fn with_lessons<'a>(mut self, lessons: impl IntoIterator<Item = (u8, Vec<(&'a str, usize)>)>) -> Shape {
        for (part, sections) in lessons {
            let sections = sections.into_iter().map(|(t, n)| (t.to_string(), n)).collect();
            self.lessons.insert(part, sections);
        }
        self
    }
}

/// FNV-1a, 64 bits: stable across Rust releases, unlike `DefaultHasher`.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, text: &str) {
        for b in text.bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl Progress {
    /// Brings progress written against another course version to `shape`:
    /// answers to quiz questions no longer in their part's quiz and entries
    /// of exercises no longer in the course are dropped, and the version is
    /// recorded. Returns one sentence per change for the learner (none when
    /// the version already matches or nothing was dropped); exercises
    /// solved before their checker gained cases are named too (they stay
    /// done).
    ///
    /// Lesson records kept by section index are upgraded to titles first,
    /// whatever the version ([`super::LessonProgress::upgrade`], for the
    /// parts whose lessons `shape` carries).
    pub fn migrate(&mut self, shape: &Shape) -> Vec<String> {
        for (part, lesson) in self.lessons.iter_mut() {
            if let Some(sections) = part.parse().ok().and_then(|n: u8| shape.lessons.get(&n)) {
                lesson.upgrade(sections);
            }
        }
        if self.course_version.as_deref() == Some(shape.version.as_str()) {
            return Vec::new();
        }
        let mut notes = Vec::new();
        let gone: Vec<String> = self
            .exercises
            .keys()
            .filter(|id| !shape.exercises.contains_key(*id))
            .cloned()
            .collect();
        for id in gone {
            self.exercises.remove(&id);
            notes.push(format!(
                "exercise {id} is no longer in the course; its progress was dropped."
            ));
        }
        for (part, quiz) in self.quizzes.iter_mut() {
            let known = part.parse().ok().and_then(|n: u8| shape.quizzes.get(&n));
            let gone: Vec<String> = quiz
                .answers
                .keys()
                .filter(|id| !known.is_some_and(|k| k.contains_key(*id)))
                .cloned()
                .collect();
            for id in gone {
                quiz.answers.remove(&id);
                notes.push(format!(
                    "Part {part}'s quiz no longer asks `{id}`; your answer to it was dropped."
                ));
            }
            // An answer given to other options than the question has now.
            let changed: Vec<String> = quiz
                .answers
                .iter()
                .filter(|(id, a)| {
                    let now = known.and_then(|k| k.get(*id));
                    a.to.is_some() && a.to.as_ref() != now
                })
                .map(|(id, _)| id.clone())
                .collect();
            for id in changed {
                quiz.answers.remove(&id);
                notes.push(format!(
                    "Part {part}'s quiz changed the options of `{id}`; your answer to it was dropped."
                ));
            }
            // An answer from before fingerprints: what it was given to is
            // unknown, and every quiz has been rewritten since (issue 33),
            // keeping some ids; so it is dropped, never scored against
            // options it may not have been given.
            let unstamped = quiz.answers.len();
            quiz.answers.retain(|_, a| a.to.is_some());
            let unstamped = unstamped - quiz.answers.len();
            if unstamped > 0 {
                notes.push(format!(
                    "Part {part}'s quiz was rewritten since your {unstamped} answer{} to it; {} dropped: take it again.",
                    if unstamped == 1 { "" } else { "s" },
                    if unstamped == 1 { "it was" } else { "they were" }
                ));
            }
        }
        self.quizzes.retain(|_, q| !q.answers.is_empty() || q.seed.is_some());
        for id in shape.exercises.keys() {
            if self.has_new_cases(id, shape) {
                notes.push(format!(
                    "exercise {id} has new cases since you solved it: it stays done; check it again."
                ));
            }
        }
        self.course_version = Some(shape.version.clone());
        notes
    }

    /// Whether [`Progress::migrate`] has anything to do against `shape`:
    /// the version differs, or a lesson record of a part whose lesson
    /// `shape` carries is still kept by section index.
    pub fn needs_migration(&self, shape: &Shape) -> bool {
        self.course_version.as_deref() != Some(shape.version.as_str())
            || self.lessons.iter().any(|(part, lesson)| {
                lesson.is_legacy() && part.parse().ok().is_some_and(|n: u8| shape.lessons.contains_key(&n))
            })
    }

    /// Whether exercise `id` was solved against fewer cases than its
    /// checker has in `shape` (its last check counted fewer).
    pub fn has_new_cases(&self, id: &str, shape: &Shape) -> bool {
        let Some(entry) = self.exercises.get(id) else {
            return false;
        };
        let now = shape.exercises.get(id).copied().unwrap_or(0);
        entry.done && entry.last_check.is_some_and(|(_, total)| total < now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(id: &str) -> (&str, String) {
        (id, format!("options-of-{id}"))
    }

    fn shape() -> Shape {
        Shape::new(
            [("01-a", vec!["one", "two", "three"]), ("02-b", vec!["x"])],
            [(1, vec![q("q1"), q("q2")]), (2, vec![q("q3")])],
        )
    }

    #[test]
    fn the_version_follows_ids_and_case_names_only() {
        let a = shape();
        assert_eq!(a.version, shape().version);
        let moved = Shape::new(
            [("01-a", vec!["one", "two", "three"]), ("02-b", vec!["x"])],
            [(1, vec![q("q1")]), (2, vec![q("q2"), q("q3")])],
        );
        assert_ne!(a.version, moved.version);
        let reworded = Shape::new(
            [("01-a", vec!["one", "two", "three"]), ("02-b", vec!["x"])],
            [(1, vec![("q1", "other".into()), q("q2")]), (2, vec![q("q3")])],
        );
        assert_ne!(a.version, reworded.version, "new options, new version");
        assert_eq!(a.version.len(), 16);
    }

    #[test]
    fn removed_questions_and_exercises_are_dropped_with_a_note_once() {
        let mut p = Progress::default();
        p.record_pick_to(1, "q1", Some("options-of-q1"), 0, true);
        p.record_pick_to(1, "gone", Some("options-of-gone"), 1, true);
        p.record_pick_to(3, "q9", Some("options-of-q9"), 1, true);
        p.exercise_mut("00-old").done = true;
        let notes = p.migrate(&shape());
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert_eq!(p.quiz_score(1), (1, 1));
        assert!(p.quiz(3).is_none());
        assert!(!p.exercises.contains_key("00-old"));
        assert_eq!(p.migrate(&shape()), Vec::<String>::new(), "once");
    }

    #[test]
    fn an_answer_to_other_options_or_to_unknown_ones_is_dropped() {
        let mut p = Progress::default();
        p.record_pick_to(1, "q1", Some("options-of-q1"), 0, true);
        p.record_pick_to(1, "q2", Some("what q2 offered before"), 2, true);
        // An answer from a file written before fingerprints.
        p.record_pick(2, "q3", 1, true);
        let notes = p.migrate(&shape());
        assert_eq!(
            notes,
            [
                "Part 1's quiz changed the options of `q2`; your answer to it was dropped.",
                "Part 2's quiz was rewritten since your 1 answer to it; it was dropped: take it again.",
            ]
        );
        assert_eq!(p.quiz_score(1), (1, 1));
        assert!(p.quiz(2).is_none(), "nothing left of Part 2's quiz");
        assert_eq!(p.migrate(&shape()), Vec::<String>::new(), "once");
    }

    #[test]
    fn lesson_titles_leave_the_version_alone_and_upgrade_records_by_index_at_any_version() {
        let plain = shape();
        let with = shape().with_lessons([(1, vec![("", 2), ("Requests", 8)]), (2, vec![("Eras", 5)])]);
        assert_eq!(with.version, plain.version, "no one's version changes");
        let old = r#"{"format_version":1,"lessons":{"1":{"read":false,"seen":[0,1],"section":1,"offset":500},
            "3":{"seen":[0]}}}"#;
        let mut p: Progress = serde_json::from_str(old).unwrap();
        p.course_version = Some(with.version.clone());
        assert!(p.needs_migration(&with), "part 1's record is by index");
        assert!(
            !p.needs_migration(&plain),
            "without the lessons there is nothing to upgrade it with"
        );
        assert_eq!(p.migrate(&with), Vec::<String>::new(), "an upgrade says nothing");
        let lesson = p.lesson(1);
        assert_eq!(lesson.seen, ["", "Requests"]);
        let place = lesson.place.unwrap();
        assert_eq!((place.section.as_str(), place.block, place.line), ("Requests", 4, 0));
        // Part 3 has no lesson in the shape: its record waits as it was.
        assert!(p.lesson(3).is_legacy());
        assert!(!p.needs_migration(&with));
    }

    #[test]
    fn an_exercise_solved_before_new_cases_stays_done_and_says_so() {
        let mut p = Progress::default();
        let e = p.exercise_mut("01-a");
        e.done = true;
        e.last_check = Some((2, 2));
        let notes = p.migrate(&shape());
        assert!(p.is_done("01-a"));
        assert!(p.has_new_cases("01-a", &shape()));
        assert!(notes[0].contains("new cases since you solved it"), "{notes:?}");
        p.exercise_mut("01-a").last_check = Some((3, 3));
        assert!(!p.has_new_cases("01-a", &shape()));
    }
}
