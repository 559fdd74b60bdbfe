//! Unit tests of `verify --stats`' arithmetic (`stats.rs`) on fixture
//! lessons, each figure counted by hand in the comments.

use std::path::Path;

use super::*;
use crate::content::lesson::parse;
use crate::content::needs::resolve;

/// Two sections. Words by block, counted by hand:
///
/// `## One` 1 · "Alpha beta gamma." 3 · `### Sub a` 2 · "Delta epsilon." 2
/// · (a story aside: not core) · (a fenced block: not words) · `### Sub b`
/// 2 · "- zeta eta" 2 · `## Two words` 2 · "Theta." 1 · (a deeper aside).
const LESSON: &str = "# Part 2 · Fixture lesson

## One

Alpha beta gamma.

### Sub a

Delta epsilon.

> [!story] a/b#1
> Not core at all.

```text
not words either
```

### Sub b

- zeta eta

## Two words

Theta.

> [!deeper] Older days
>
> Iota kappa.
";

fn lesson() -> Lesson {
    parse(Path::new("lesson.md"), LESSON).unwrap()
}

fn needs(lesson: &Lesson, names: &[&str]) -> Vec<Need> {
    names.iter().map(|n| resolve(2, n, lesson).unwrap()).collect()
}

/// (id, part, needs) rows of required reading, all in Part 2.
fn reading(lesson: &Lesson, exercises: &[(&str, &[&str])]) -> Vec<(usize, usize, usize)> {
    let needs: Vec<(String, Vec<Need>)> = exercises
        .iter()
        .map(|(id, names)| (id.to_string(), needs(lesson, names)))
        .collect();
    let rows: Vec<(&str, u8, &[Need])> = needs.iter().map(|(id, n)| (id.as_str(), 2, n.as_slice())).collect();
    required_reading(&rows, |part| (part == 2).then_some(lesson))
        .into_iter()
        .map(|r| (r.sections, r.words, r.new))
        .collect()
}

#[test]
fn required_reading_counts_core_blocks_once_and_only_new_ones() {
    let l = lesson();
    // `## One`: 1 + 3 + 2 + 2 + 2 + 2 = 12; `### Sub a`: 2 + 2 = 4;
    // `### Sub b`: 2 + 2 = 4; `## Two words`: 2 + 1 = 3.
    assert_eq!(reading(&l, &[("a", &["One"])]), [(1, 12, 12)]);
    assert_eq!(reading(&l, &[("a", &["Sub a"])]), [(1, 4, 4)]);
    // A sub-section and its section overlap: counted once.
    assert_eq!(reading(&l, &[("a", &["Sub a", "One"])]), [(2, 12, 12)]);
    assert_eq!(
        reading(
            &l,
            &[
                ("first", &["Sub a"]),
                // Sub a was read: 12 - 4 new.
                ("second", &["One", "Two words"]),
                // All read before.
                ("third", &["Sub b", "Two words"]),
                ("fourth", &[]),
            ]
        ),
        [(1, 4, 4), (2, 15, 11), (2, 7, 0), (0, 0, 0)]
    );
}

#[test]
fn only_layered_parts_hold_reading_to_the_limit() {
    let l = lesson();
    let n = needs(&l, &["One"]);
    // A part not in layers (yet): any number past the layered ones.
    let unlayered = (2..=u8::MAX).find(|p| !LAYERED_PARTS.contains(p)).unwrap();
    let rows: Vec<(&str, u8, &[Need])> = vec![("p1", 1, &n), ("later", unlayered, &n)];
    let readings = required_reading(&rows, |_| Some(&l));
    assert_eq!(readings[0].limit, Some(READING_LIMIT));
    assert_eq!(readings[1].limit, None);
    assert_eq!((readings[0].new, readings[1].new), (12, 0));
    let over = Reading {
        new: READING_LIMIT + 7,
        ..readings[0].clone()
    };
    assert_eq!(over.over(), Some(7));
    assert_eq!(readings[0].over(), None);
    assert_eq!(readings[1].over(), None);
}

/// Each row as (what, core, aside, limit, measure).
fn figures(rows: &[WordCount]) -> Vec<(&str, usize, usize, usize, Measure)> {
    rows.iter()
        .map(|r| (r.what.as_str(), r.core, r.aside, r.limit, r.of))
        .collect()
}

fn part(number: u8, lesson: Lesson) -> Part {
    Part {
        number,
        title: format!("Title {number}"),
        lesson: Some(lesson),
        quiz: None,
        exercises: Vec::new(),
    }
}

#[test]
fn part_1_is_held_to_core_words_and_other_parts_to_prose() {
    // Part 1: the opening apart. "## Start here" 2 + "One two three." 3 = 5
    // core, the aside 1 ("a/b#2") + 2 = 3; the rest: the `#` title "Part 1 ·
    // Fixture" 4 + "## Next" 1 + "Four five." 2 = 7 core, the aside "Old" 1 +
    // "six" 1 = 2.
    let one = parse(
        Path::new("l.md"),
        "# Part 1 · Fixture\n\n## Start here\n\nOne two three.\n\n> [!story] a/b#2\n> seven eight\n\n## Next\n\nFour five.\n\n> [!deeper] Old\n>\n> six\n",
    )
    .unwrap();
    // Part 3: "# T" 1 + "## A" 1 + "b c" 2 = 4 core, the aside 2 + 1 = 3;
    // "## Authorization" apart: 1 + 1 = 2 core.
    let three = parse(
        Path::new("l.md"),
        "# T\n\n## A\n\nb c\n\n> [!wild] Two words\n>\n> d\n\n## Authorization\n\nTokens.\n",
    )
    .unwrap();
    let rows = word_counts(&[part(1, one), part(3, three)], &[1]);
    let got = figures(&rows);
    assert_eq!(
        got,
        [
            ("Part 1 · opening (Start here)", 5, 3, OPENING_LIMIT, Measure::Core),
            ("Part 1 · Title 1", 7, 2, PART1_LIMIT, Measure::Core),
            ("Part 3 · Title 3", 4, 3, PART_LIMIT, Measure::Prose),
            (
                "Part 3 · Authorization (counted apart)",
                2,
                0,
                APART_LIMIT,
                Measure::Prose
            ),
        ]
    );
    assert_eq!(rows[0].counted(), 5);
    assert_eq!(rows[2].counted(), 7);
    let over = WordCount {
        core: PART1_LIMIT + 1,
        aside: 500,
        ..rows[1].clone()
    };
    assert_eq!(over.over(), Some(1), "asides do not count against a core limit");
    let over = WordCount {
        core: PART_LIMIT - 10,
        aside: 25,
        ..rows[2].clone()
    };
    assert_eq!(over.over(), Some(15), "asides count against a prose limit");
}

#[test]
fn layered_parts_are_held_to_core_words_authorization_counted_in() {
    // Part 2 in layers: "# T" 1 + "## A" 1 + "b c" 2 = 4 core, the aside
    // "Two words" 2 + "d" 1 = 3. Part 3 in layers: the same 4 core plus
    // "## Authorization" 1 + "Tokens." 1 = 6 core, no row apart. Part 4
    // not in layers: prose, its Authorization apart.
    let text = "# T\n\n## A\n\nb c\n\n> [!wild] Two words\n>\n> d\n";
    let two = parse(Path::new("l.md"), text).unwrap();
    let with_auth = format!("{text}\n## Authorization\n\nTokens.\n");
    let three = parse(Path::new("l.md"), &with_auth).unwrap();
    let four = parse(Path::new("l.md"), &with_auth).unwrap();
    let rows = word_counts(&[part(2, two), part(3, three), part(4, four)], &[1, 2, 3]);
    let got = figures(&rows);
    assert_eq!(
        got,
        [
            ("Part 2 · Title 2", 4, 3, LAYERED_PART_LIMIT, Measure::Core),
            ("Part 3 · Title 3", 6, 3, LAYERED_APART_PART_LIMIT, Measure::Core),
            ("Part 4 · Title 4", 4, 3, PART_LIMIT, Measure::Prose),
            (
                "Part 4 · Authorization (counted apart)",
                2,
                0,
                APART_LIMIT,
                Measure::Prose
            ),
        ]
    );
}
