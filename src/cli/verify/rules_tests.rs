//! Unit tests of the rules-against-sections check (`rules.rs`), on the
//! shipped course with a fixture Part 1 lesson, fixture needs and fixture
//! cases.

use std::path::Path;

use super::*;
use crate::content::lesson::parse;
use crate::content::needs::resolve;

/// A Part 1 lesson: one section states Notifications in its core, one
/// cites it only in an aside, one states a course rule and names
/// Responses over a line break with two spaces.
const LESSON: &str = "# Part 1 · Fixture

## Three shapes

A notification has no id (2025-11-25 basic/index › Notifications).

### Ids

An id is a string or an integer (2025-11-25 basic/index › Requests).

## Aside only

The core says nothing here.

> [!deeper] Where it is written
>
> (2025-11-25 basic/index › Notifications)

## Orphans

- Log an orphan and drop it (course rule: orphan-dropped).
- A response echoes the id (2025-11-25 basic/index ›
  Responses).

```text
2025-11-25 basic/index › Errors
```
";

/// The shipped course with [`LESSON`] as Part 1's lesson; exercise 01
/// needs `needs` (headings of the fixture) and 02 needs the first section.
fn course(needs: &[&str]) -> Course {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut course = Course::load(root, &crate::check::checkers::names()).expect("the course loads");
    let lesson = parse(Path::new("lesson.md"), LESSON).unwrap();
    let resolved = |names: &[&str]| {
        names
            .iter()
            .map(|n| resolve(1, n, &lesson).unwrap())
            .collect::<Vec<_>>()
    };
    course.exercises[0].needs = resolved(needs);
    course.exercises[1].needs = resolved(&["Three shapes"]);
    course.parts[0].lesson = Some(lesson);
    course
}

/// The line of `id = "<id>"` in Part 1's exercises.toml, read from the text.
fn id_line(id: &str) -> usize {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/01-json-rpc-messages/exercises.toml"),
    )
    .unwrap();
    text.lines().position(|l| l == format!("id = \"{id}\"")).unwrap() + 1
}

/// Exercise 01's cases are `cases`; 02's one case tests Notifications; an
/// exercise of a later part in layers has none (the fixture replaces the
/// Part 1 its keys cite; `verify` on the shipped course holds them), and
/// every other one case with no key.
fn cases(cases: Vec<CaseRules>) -> impl Fn(&Exercise) -> Vec<CaseRules> {
    move |ex: &Exercise| match ex.number() {
        "01" => cases.clone(),
        "02" => vec![("routes", &["2025-11-25 basic/index › Notifications"][..])],
        _ if LAYERED_PARTS.contains(&ex.part) => vec![],
        _ => vec![("later", &[][..])],
    }
}

fn reasons(outcome: &Outcome) -> Vec<String> {
    outcome.problems.iter().map(ToString::to_string).collect()
}

/// The reasons about Part 1's exercises only: a later part in layers
/// reports its fixture case without a key too, which these tests leave to
/// the one that counts it.
fn part1_reasons(outcome: &Outcome) -> Vec<String> {
    reasons(outcome)
        .into_iter()
        .filter(|r| r.starts_with("lessons/01-json-rpc-messages/"))
        .collect()
}

#[test]
fn a_key_stated_in_a_named_sections_core_passes() {
    let course = course(&["Three shapes", "Orphans"]);
    let outcome = check(
        &course,
        cases(vec![
            ("no id", &["2025-11-25 basic/index › Notifications"]),
            // Stated by the `### Ids` sub-section, inside the named `##` section.
            ("ids", &["2025-11-25 basic/index › Requests"]),
            // Stated over a line break and two spaces; the key itself with two spaces too.
            (
                "echo",
                &["2025-11-25 basic/index ›  Responses", "course rule: orphan-dropped"],
            ),
        ]),
    );
    assert_eq!(part1_reasons(&outcome), Vec::<String>::new());
}

#[test]
fn a_key_only_in_an_aside_or_a_fenced_block_or_an_unnamed_section_fails_at_the_id_line() {
    let course = course(&["Aside only", "Orphans"]);
    let outcome = check(
        &course,
        cases(vec![
            // In an aside of a named section, and in the core of a section not named.
            ("no id", &["2025-11-25 basic/index › Notifications"]),
            // Only in a fenced block.
            ("errors", &["2025-11-25 basic/index › Errors"]),
            ("orphan", &["course rule: orphan-dropped"]),
        ]),
    );
    let at = format!(
        "lessons/01-json-rpc-messages/exercises.toml:{}: exercise 01-encode-frames: ",
        id_line("01-encode-frames")
    );
    assert_eq!(
        part1_reasons(&outcome),
        [
            format!(
                "{at}case \"no id\" tests 2025-11-25 basic/index › Notifications, which none of its sections (1 › Aside only; 1 › Orphans) states in its core text"
            ),
            format!(
                "{at}case \"errors\" tests 2025-11-25 basic/index › Errors, which none of its sections (1 › Aside only; 1 › Orphans) states in its core text"
            ),
        ]
    );
}

#[test]
fn a_sub_section_need_covers_its_sub_section_only() {
    let course = course(&["Ids"]);
    let outcome = check(
        &course,
        cases(vec![
            ("ids", &["2025-11-25 basic/index › Requests"]),
            // Stated in the `##` section's lead, outside the `###` named.
            ("no id", &["2025-11-25 basic/index › Notifications"]),
        ]),
    );
    let reasons = part1_reasons(&outcome);
    assert_eq!(reasons.len(), 1, "{reasons:#?}");
    assert!(
        reasons[0].ends_with("case \"no id\" tests 2025-11-25 basic/index › Notifications, which none of its sections (1 › Ids) states in its core text"),
        "{}",
        reasons[0]
    );
}

#[test]
fn no_needs_and_cases_without_keys_are_named_and_later_parts_only_counted() {
    let mut course = course(&[]);
    course.exercises[1].needs.clear();
    let outcome = check(
        &course,
        cases(vec![
            ("bare", &[]),
            ("no id", &["2025-11-25 basic/index › Notifications"]),
        ]),
    );
    let at01 = format!(
        "lessons/01-json-rpc-messages/exercises.toml:{}: exercise 01-encode-frames: ",
        id_line("01-encode-frames")
    );
    let at02 = format!(
        "lessons/01-json-rpc-messages/exercises.toml:{}: exercise 02-id-router: ",
        id_line("02-id-router")
    );
    let reasons = reasons(&outcome);
    // A later exercise of a part in layers brings no fixture case (see
    // `cases`): the three reasons are Part 1's.
    assert_eq!(reasons.len(), 3, "{reasons:#?}");
    assert!(
        reasons[0].starts_with(&format!("{at01}names no sections it needs")),
        "{}",
        reasons[0]
    );
    assert!(
        reasons[1].starts_with(&format!("{at01}case \"bare\" carries no rule key"))
            && reasons[1].contains("src/check/checkers/encode_frames.rs"),
        "{}",
        reasons[1]
    );
    assert!(
        reasons[2].starts_with(&format!("{at02}names no sections it needs")),
        "{}",
        reasons[2]
    );
    // Every exercise of a part not in layers yet: one case each, no key, not enforced.
    let pending = |e: &&Exercise| !LAYERED_PARTS.contains(&e.part);
    let later = course.exercises.iter().filter(pending).count();
    assert_eq!(
        outcome.pending,
        Pending {
            parts: (2..=5).filter(|p| !LAYERED_PARTS.contains(p)).collect(),
            without_needs: course
                .exercises
                .iter()
                .filter(pending)
                .filter(|e| e.needs.is_empty())
                .count(),
            cases: later,
            bare_cases: later,
            keys: 0,
            unstated: 0,
        }
    );
}

#[test]
fn parts_read_as_a_range_or_a_list() {
    assert_eq!(parts_phrase(&[2]), "Part 2");
    assert_eq!(parts_phrase(&[2, 3, 4, 5]), "Parts 2–5");
    assert_eq!(parts_phrase(&[2, 4]), "Parts 2, 4");
}
