//! `mcplings verify` on planted violations of issue 29's rules, end to
//! end on a scratch copy of the course: an unknown aside kind, an unknown
//! `needs` section, a rule key that none of an exercise's named sections
//! states, a glossary term taught only in an aside; and issue 33's quiz
//! rules: a wrong option without a valid misconception, a quiz under the
//! diagnose share, a question section that does not resolve. Each must fail with the
//! `file:line` of the defect (worked out here from the text the test
//! edited) before anything is built.

use crate::common;

use std::fs;
use std::path::Path;

use common::cmd::at;
use mcplings::content::aside::AsideKind;

const PART1: &str = "lessons/01-json-rpc-messages";
const PART2: &str = "lessons/02-lifecycle-two-eras";

/// The lines of `file` under `root`.
fn lines(root: &Path, file: &str) -> Vec<String> {
    fs::read_to_string(root.join(file))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn write_lines(root: &Path, file: &str, lines: &[String]) {
    fs::write(root.join(file), lines.join("\n") + "\n").unwrap();
}

/// The 0-based index of the first line equal to `line`.
fn index_of(lines: &[String], line: &str) -> usize {
    lines
        .iter()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("no line `{line}`"))
}

/// `verify` on the broken copy exits 1 with a line on stdout that starts
/// with `file:line:` and contains `reason`, and builds nothing; returns
/// its stdout.
fn assert_verify_reports(root: &Path, file: &str, line: usize, reason: &str) -> String {
    let place = format!("{file}:{line}:");
    let verify = at(root, &["verify"]);
    assert_eq!(verify.code, 1, "verify must fail: {verify:?}");
    assert!(
        verify
            .stdout
            .lines()
            .any(|l| l.starts_with(&place) && l.contains(reason)),
        "verify should report `{place} …{reason}…`: {verify:?}"
    );
    assert!(!verify.stderr.contains("panicked"), "{verify:?}");
    assert!(
        !verify.stdout.contains("solution passes"),
        "nothing is built: {verify:?}"
    );
    verify.stdout
}

#[test]
fn an_unknown_aside_kind_names_its_line() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART2}/lesson.md");
    let mut text = lines(root, &file);
    // Right after the first `##` heading, a blank line, then the aside.
    let heading = text.iter().position(|l| l.starts_with("## ")).unwrap();
    text.splice(
        heading + 1..heading + 1,
        [
            "",
            "> [!trivia] A kind the course does not have",
            ">",
            "> Said in passing.",
        ]
        .map(String::from),
    );
    write_lines(root, &file, &text);
    let known = AsideKind::ALL.map(AsideKind::marker);
    assert_eq!(known, ["story", "wild", "deeper"]);
    let reason = "unknown aside kind `trivia`: use one of story, wild, deeper";
    // Loading fails: `list` refuses the course too.
    let list = at(root, &["list"]);
    assert_eq!(list.code, 2, "{list:?}");
    assert!(
        list.stderr
            .lines()
            .any(|l| l.starts_with(&format!("{file}:{}:", heading + 3)) && l.contains(reason)),
        "{list:?}"
    );
    assert_verify_reports(root, &file, heading + 3, reason);
}

/// Sets exercise `id`'s `needs` in `file` to `needs` (a TOML array on one
/// line): replaces its `needs = [` … `]` lines, or inserts the line after
/// its `checker` line. Returns the 1-based line.
fn set_needs(root: &Path, file: &str, id: &str, needs: &str) -> usize {
    let mut text = lines(root, file);
    let start = index_of(&text, &format!("id = \"{id}\""));
    let end = text[start + 1..]
        .iter()
        .position(|l| l == "[[exercises]]")
        .map_or(text.len(), |i| start + 1 + i);
    let line = format!("needs = {needs}");
    let at = match text[start..end].iter().position(|l| l.starts_with("needs = [")) {
        Some(i) => {
            let first = start + i;
            let last = first + text[first..].iter().position(|l| l.trim_end().ends_with(']')).unwrap();
            text.splice(first..=last, [line]);
            first
        }
        None => {
            let checker = start
                + text[start..end]
                    .iter()
                    .position(|l| l.starts_with("checker = "))
                    .unwrap();
            text.insert(checker + 1, line);
            checker + 1
        }
    };
    write_lines(root, file, &text);
    at + 1
}

#[test]
fn an_unknown_needs_section_names_its_line() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART2}/exercises.toml");
    let line = set_needs(
        root,
        &file,
        "03-handshake-gate",
        r#"["1 › Three shapes, one id", "2 › The handshake of old"]"#,
    );
    let list = at(root, &["list"]);
    assert_eq!(list.code, 2, "{list:?}");
    let reason = "exercise `03-handshake-gate` needs Part 2 has no `##` or `###` section `The handshake of old`";
    assert!(
        list.stderr
            .lines()
            .any(|l| l.starts_with(&format!("{file}:{line}:")) && l.contains(reason)),
        "{list:?}"
    );
    assert_verify_reports(root, &file, line, reason);
    // A later part's section is refused as well.
    let line = set_needs(root, &file, "03-handshake-gate", r#"["3 › stdio framing"]"#);
    assert_verify_reports(
        root,
        &file,
        line,
        "`3 › stdio framing`: exercise `03-handshake-gate` is in Part 2; it may need its own part or an earlier one",
    );
}

/// Exercise 01 names only Part 1's opening, which states none of the
/// rules its cases test: `verify` names each (case, key) of 01's checker
/// at 01's id line. (Needs the rule keys of 01's cases, which the Part 1
/// conversion fills; without them `verify` names the cases that carry
/// none, and this test says so.)
#[test]
fn a_rule_key_no_named_section_states_names_the_exercise_line() {
    let course = common::course_copy();
    let root = course.path();
    let ex = common::course().exercise("01").unwrap();
    let checker = mcplings::check::checkers::of(ex).unwrap();
    let keyed: Vec<(&str, &str)> = checker
        .cases
        .iter()
        .flat_map(|c| c.rules.iter().map(|k| (c.name, *k)))
        .collect();
    assert!(
        checker.cases.iter().all(|c| !c.rules.is_empty()),
        "every case of exercise 01 carries its rule keys (Case.rules) before this test can plant an unstated one"
    );
    let opening = common::course().parts[0]
        .lesson
        .as_ref()
        .unwrap()
        .sections
        .iter()
        .find(|s| !s.title.is_empty())
        .unwrap()
        .title
        .clone();
    // 01's needs, one line or several, become the opening alone.
    let file = format!("{PART1}/exercises.toml");
    set_needs(root, &file, &ex.id, &format!("[\"1 › {opening}\"]"));
    let id = index_of(&lines(root, &file), &format!("id = \"{}\"", ex.id));
    let stdout = assert_verify_reports(
        root,
        &file,
        id + 1,
        &format!("which none of its sections (1 › {opening}) states in its core text"),
    );
    // Every line so reported names a case of 01 and a key that case carries.
    let place = format!("{file}:{}: exercise {}: case \"", id + 1, ex.id);
    let reported: Vec<&str> = stdout.lines().filter_map(|l| l.strip_prefix(&place)).collect();
    assert!(!reported.is_empty(), "{stdout}");
    for line in &reported {
        let (case, rest) = line.split_once("\" tests ").unwrap_or_else(|| panic!("{line}"));
        let (key, _) = rest.split_once(", which none").unwrap_or_else(|| panic!("{line}"));
        assert!(keyed.contains(&(case, key)), "`{case}` does not carry `{key}`: {line}");
    }
}

/// The lines of the `##` section `title` of a lesson: from its heading to
/// the next `##` heading (0-based, end excluded).
fn section_range(text: &[String], title: &str) -> std::ops::Range<usize> {
    let start = index_of(text, &format!("## {title}"));
    let end = text[start + 1..]
        .iter()
        .position(|l| l.starts_with("## "))
        .map_or(text.len(), |i| start + 1 + i);
    start..end
}

/// Moves every core block of `range` that names one of `forms` (case
/// blind) into an aside of its own: a run of lines between blank lines,
/// outside fenced blocks and block quotes; a `###` heading is a block of
/// its own.
fn move_into_asides(text: &mut Vec<String>, range: std::ops::Range<usize>, forms: &[String]) -> usize {
    let mut out: Vec<String> = Vec::new();
    let mut block: Vec<String> = Vec::new();
    let mut moved = 0;
    let mut flush = |block: &mut Vec<String>, out: &mut Vec<String>| {
        let joined = block.join(" ").to_lowercase();
        if forms.iter().any(|f| joined.contains(&f.to_lowercase())) {
            moved += 1;
            out.push(String::new());
            out.push("> [!deeper] Moved aside for a test".to_string());
            out.push(">".to_string());
            out.extend(block.iter().map(|l| format!("> {l}")));
            out.push(String::new());
        } else {
            out.append(&mut block.clone());
        }
        block.clear();
    };
    let mut fenced = false;
    for line in &text[range.start + 1..range.end] {
        let fence = line.trim_start().starts_with("```");
        if fenced || fence || line.trim().is_empty() || line.starts_with('>') {
            flush(&mut block, &mut out);
            if fence {
                fenced = !fenced;
            }
            out.push(line.clone());
        } else if line.starts_with('#') {
            flush(&mut block, &mut out);
            block.push(line.clone());
            flush(&mut block, &mut out);
        } else {
            block.push(line.clone());
        }
    }
    flush(&mut block, &mut out);
    text.splice(range.start + 1..range.end, out);
    moved
}

#[test]
fn a_term_taught_only_in_an_aside_is_reported_at_its_glossary_line() {
    let course = common::course_copy();
    let root = course.path();
    let glossary = common::course().glossary.as_ref().unwrap();
    let term = glossary.find("protocol error").unwrap();
    assert!(!term.code, "a prose term: its uses in fenced blocks do not count");
    let forms: Vec<String> = term.forms().map(str::to_string).collect();
    let file = format!("{}/lesson.md", lesson_dir(term.part));
    let mut text = lines(root, &file);
    let range = section_range(&text, &term.section);
    assert!(!term.section.to_lowercase().contains(&term.term.to_lowercase()));
    let moved = move_into_asides(&mut text, range.clone(), &forms);
    assert!(moved > 0, "the section names `{}` in its core", term.term);
    write_lines(root, &file, &text);
    // The copy still loads: the asides are well formed.
    let list = at(root, &["list"]);
    assert_eq!(list.code, 0, "{list:?}");
    // Its entry's `[[terms]]` line in the glossary, from the file's text.
    let glossary_text = lines(root, "lessons/glossary.toml");
    let term_line = index_of(&glossary_text, &format!("term = \"{}\"", term.term));
    assert_eq!(glossary_text[term_line - 1], "[[terms]]");
    let line = term_line; // the 1-based number of the line above
    assert_verify_reports(
        root,
        "lessons/glossary.toml",
        line,
        &format!(
            "term `{}`: Part {} § {} names it only in an aside, or not at all",
            term.term, term.part, term.section
        ),
    );
}

/// `lessons/NN-…` of part `n`.
fn lesson_dir(n: u8) -> String {
    fs::read_dir(common::root().join("lessons"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .find(|d| d.starts_with(&format!("{n:02}-")))
        .map(|d| format!("lessons/{d}"))
        .unwrap()
}

/// The 1-based line of the first line at or after `from` (0-based index)
/// that `pick` accepts.
fn find_from(lines: &[String], from: usize, pick: impl Fn(&str) -> bool) -> usize {
    from + lines[from..]
        .iter()
        .position(|l| pick(l))
        .unwrap_or_else(|| panic!("no such line below {from}"))
        + 1
}

/// Issue 33: a wrong option of an enforced quiz (Part 1's) without a
/// misconception, and one whose misconception is no citation, are each
/// reported at their option's line; the quizzes not enforced yet get their
/// one pending line.
#[test]
fn a_wrong_option_without_a_valid_misconception_names_its_line() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    let mut text = lines(root, &file);
    // The first two wrong options of the quiz: the first loses its
    // misconception, the second gets one that is no citation.
    let wrong: Vec<usize> = (0..text.len())
        .filter(|&i| text[i] == "[[questions.options]]" && text.get(i + 2).is_some_and(|l| l == "correct = false"))
        .take(2)
        .collect();
    let first = find_from(&text, wrong[0], |l| l.starts_with("misconception = ")) - 1;
    let second = find_from(&text, wrong[1], |l| l.starts_with("misconception = ")) - 1;
    text[second] = "misconception = \"a learner's guess\"".into();
    text.remove(first);
    write_lines(root, &file, &text);
    // The second option's header moved up by the line removed above it.
    let stdout = assert_verify_reports(root, &file, wrong[0] + 1, "this wrong option names no misconception");
    assert_verify_reports(
        root,
        &file,
        wrong[1],
        "misconception `a learner's guess` is neither a citation",
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("quiz rules ... not enforced yet: Part 2: ") && !l.contains("Part 5: ")),
        "the pending line: {stdout}"
    );
}

/// Issue 33: Part 1's quiz stripped of its frames shows frames or a
/// transcript in none of its questions, under the 40 % it needs: reported
/// at its first question, with the share verify prints for every part.
#[test]
fn a_quiz_under_the_diagnose_share_is_reported() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    let text = lines(root, &file);
    let questions = text.iter().filter(|l| *l == "[[questions]]").count();
    // Drop every [questions.frames] table: its header to its closing '''.
    let mut kept = Vec::new();
    let mut skipping = false;
    let mut quotes = 0;
    for line in text {
        if line == "[questions.frames]" {
            skipping = true;
            quotes = 0;
        }
        if skipping {
            quotes += line.matches("'''").count();
            if quotes == 2 {
                skipping = false;
            }
            continue;
        }
        kept.push(line);
    }
    write_lines(root, &file, &kept);
    let first = index_of(&kept, "[[questions]]") + 1;
    let stdout = assert_verify_reports(
        root,
        &file,
        first,
        &format!("shows frames or a transcript in 0 of {questions} questions (0 %), under the 40 %"),
    );
    assert!(
        stdout.contains(&format!(
            "quiz diagnose/predict share ... Part 1 0/{questions} (0 %) · Part 2 "
        )),
        "{stdout}"
    );
}

/// Issue 33: a question's `section` is resolved like an exercise's needs;
/// a heading the lesson does not have fails loading at the section's line.
#[test]
fn a_question_section_that_does_not_resolve_names_its_line() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    let mut text = lines(root, &file);
    let at = find_from(&text, 0, |l| l.starts_with("section = ")) - 1;
    text[at] = "section = \"1 › No such heading\"".into();
    write_lines(root, &file, &text);
    let verify = at_verify(root);
    let place = format!("{file}:{}:", at + 1);
    assert!(
        verify
            .lines()
            .any(|l| l.starts_with(&place) && l.contains("Part 1 has no `##` or `###` section `No such heading`")),
        "{verify}"
    );
}

/// `verify`'s stdout and stderr together, on a copy that fails to load.
fn at_verify(root: &Path) -> String {
    let out = at(root, &["verify"]);
    assert_ne!(out.code, 0, "{out:?}");
    format!("{}{}", out.stdout, out.stderr)
}
