//! Broken course content, end to end: a scratch copy of the course with one
//! defect each, loaded by `mcplings list` (exit 2, the problems on stderr)
//! and by `mcplings verify` (exit 1, the problems on stdout). Each message
//! must name the file and the line of the defect, worked out here from the
//! text the test edited, and say what is wrong.

use crate::common;

use std::fs;
use std::path::Path;

use common::cmd::at;

const PART1: &str = "lessons/01-json-rpc-messages";
const PART2: &str = "lessons/02-lifecycle-two-eras";

/// The 1-based number of the first line of `file` (under `root`) below
/// line `after` that satisfies `pick`.
fn line_after(root: &Path, file: &str, after: usize, pick: impl Fn(&str) -> bool) -> usize {
    let text = fs::read_to_string(root.join(file)).unwrap();
    text.lines()
        .enumerate()
        .skip(after)
        .find(|(_, l)| pick(l))
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("no such line in {file} below line {after}"))
}

/// Replaces line `line` (1-based) of `file` under `root` with `with`
/// (several lines, or none).
fn replace_line(root: &Path, file: &str, line: usize, with: &[&str]) {
    let path = root.join(file);
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.splice(line - 1..line, with.iter().copied());
    fs::write(&path, lines.join("\n") + "\n").unwrap();
}

/// Loads the broken copy both ways; each output must hold a line that
/// starts with `file:line:` and contains `reason`.
fn assert_reported(root: &Path, file: &str, line: usize, reason: &str) {
    let place = format!("{file}:{line}:");
    let names_it = |out: &str| out.lines().any(|l| l.starts_with(&place) && l.contains(reason));
    let list = at(root, &["list"]);
    assert_eq!(list.code, 2, "list must refuse broken content: {list:?}");
    assert!(
        names_it(&list.stderr),
        "list should report `{place} …{reason}…`: {list:?}"
    );
    assert!(!list.stderr.contains("panicked"), "{list:?}");
    let verify = at(root, &["verify"]);
    assert_eq!(verify.code, 1, "verify must fail on broken content: {verify:?}");
    assert!(
        names_it(&verify.stdout),
        "verify should report `{place} …{reason}…`: {verify:?}"
    );
    assert!(!verify.stderr.contains("panicked"), "{verify:?}");
}

#[test]
fn a_hint_for_beyond_the_hints_names_its_line() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/exercises.toml");
    let line = line_after(root, &file, 0, |l| l == "\"invalid lines are named\" = 3");
    replace_line(root, &file, line, &["\"invalid lines are named\" = 9"]);
    assert_reported(root, &file, line, "hints go from 1 to 4");
}

#[test]
fn malformed_toml_names_its_line() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/exercises.toml");
    let line = line_after(root, &file, 0, |l| l == "checker = \"encode-frames\"");
    replace_line(root, &file, line, &["checker = \"encode-frames"]);
    assert_reported(root, &file, line, "string");
}

#[test]
fn a_malformed_course_manifest_names_its_line() {
    let course = common::course_copy();
    let root = course.path();
    let file = "lessons/course.toml";
    let first = line_after(root, file, 0, |l| l.starts_with("number = "));
    let line = line_after(root, file, first, |l| l.starts_with("number = "));
    replace_line(root, file, line, &["number = \"two\""]);
    assert_reported(root, file, line, "invalid type");
}

#[test]
fn a_json_block_without_a_revision_names_its_fence() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/lesson.md");
    let line = line_after(root, &file, 0, |l| l == "```json 2025-11-25");
    replace_line(root, &file, line, &["```json"]);
    assert_reported(root, &file, line, "must name the revision");
}

#[test]
fn an_unclosed_code_block_names_its_fence() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART2}/lesson.md");
    let path = root.join(&file);
    let mut text = fs::read_to_string(&path).unwrap();
    let line = text.lines().count() + 2;
    text.push_str("\n```text\nnever closed\n");
    fs::write(&path, text).unwrap();
    assert_reported(root, &file, line, "never closed");
}

#[test]
fn a_missing_quiz_names_the_manifest_line_of_its_part() {
    let course = common::course_copy();
    let root = course.path();
    fs::remove_file(root.join(PART1).join("quiz.toml")).unwrap();
    let line = line_after(root, "lessons/course.toml", 0, |l| {
        l == "dir = \"01-json-rpc-messages\""
    });
    assert_reported(root, "lessons/course.toml", line, &format!("lacks {PART1}/quiz.toml"));
}

#[test]
fn a_duplicate_exercise_id_names_both_places() {
    let course = common::course_copy();
    let root = course.path();
    let first = line_after(root, &format!("{PART1}/exercises.toml"), 0, |l| {
        l == "id = \"01-encode-frames\""
    });
    let file = format!("{PART2}/exercises.toml");
    let line = line_after(root, &file, 0, |l| l.starts_with("id = "));
    replace_line(root, &file, line, &["id = \"01-encode-frames\""]);
    assert_reported(
        root,
        &file,
        line,
        &format!("duplicate exercise id `01-encode-frames`: {PART1}/exercises.toml:{first} already uses it"),
    );
}

#[test]
fn a_question_without_a_correct_option_names_the_question() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    // The second question's header, and its one `correct = true`.
    let first = line_after(root, &file, 0, |l| l == "[[questions]]");
    let header = line_after(root, &file, first, |l| l == "[[questions]]");
    let correct = line_after(root, &file, header, |l| l == "correct = true");
    let next = line_after(root, &file, header, |l| l == "[[questions]]");
    assert!(
        correct < next,
        "the second question has no `correct = true` line of its own"
    );
    replace_line(root, &file, correct, &["correct = false"]);
    assert_reported(
        root,
        &file,
        header,
        "has 0 correct options; exactly one must have `correct = true`",
    );
}

#[test]
fn an_option_without_an_explanation_names_the_option() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    let option = line_after(root, &file, 0, |l| l == "[[questions.options]]");
    let explanation = line_after(root, &file, option, |l| l.starts_with("explanation = "));
    let next = line_after(root, &file, option, |l| l.starts_with("[["));
    assert!(
        explanation < next,
        "the first option has no explanation line of its own"
    );
    replace_line(root, &file, explanation, &[]);
    assert_reported(root, &file, option, "has no explanation");
}

#[test]
fn a_story_told_twice_names_both_places() {
    let course = common::course_copy();
    let root = course.path();
    let first_file = format!("{PART1}/lesson.md");
    let first = line_after(root, &first_file, 0, |l| l.starts_with("> [!story] "));
    let story = fs::read_to_string(root.join(&first_file))
        .unwrap()
        .lines()
        .nth(first - 1)
        .unwrap()
        .to_string();
    // The marker line: the reference, then an optional label.
    let reference = story
        .trim_start_matches("> [!story] ")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let file = format!("{PART2}/lesson.md");
    let path = root.join(&file);
    let mut text = fs::read_to_string(&path).unwrap();
    let line = text.lines().count() + 2;
    text.push_str(&format!("\n{story}\n> The same story again.\n"));
    fs::write(&path, text).unwrap();
    assert_reported(
        root,
        &file,
        line,
        &format!("story {reference} is told twice: {first_file}:{first} already tells it"),
    );
}

// ---------------------------------------------------------------------------
// Content rules `verify` enforces beyond loading: quiz fairness, terms
// taught before use. The content loads (`list` works); `verify` fails before
// building anything, naming `file:line`.
// ---------------------------------------------------------------------------

/// `verify` on the broken copy exits 1 with a line that starts with
/// `file:line:` and contains `reason`.
fn assert_verify_reports(root: &Path, file: &str, line: usize, reason: &str) {
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
    assert!(
        !verify.stdout.contains("solution passes"),
        "nothing is built: {verify:?}"
    );
    let content = at(root, &["verify", "--content"]);
    assert_eq!(content.code, 1, "verify --content must fail too: {content:?}");
    assert!(
        content
            .stdout
            .lines()
            .any(|l| l.starts_with(&place) && l.contains(reason)),
        "verify --content should report `{place} …{reason}…`: {content:?}"
    );
}

#[test]
fn verify_content_passes_the_shipped_course_and_builds_nothing() {
    let content = at(&common::root(), &["verify", "--content"]);
    assert_eq!(content.code, 0, "{content:?}");
    assert!(content.stdout.contains("content rules ... ok"), "{content:?}");
    assert!(
        !content.stdout.contains("stub fails") && !content.stdout.contains("verify:"),
        "--content stops before the exercises: {content:?}"
    );
}

/// The line of the first `[[questions.options]]` of the question whose
/// header is at `header`, with `correct = <correct>`.
fn option_line(root: &Path, file: &str, header: usize, correct: bool) -> usize {
    let mut option = line_after(root, file, header, |l| l == "[[questions.options]]");
    loop {
        let flag = line_after(root, file, option, |l| l.starts_with("correct = "));
        let text = fs::read_to_string(root.join(file)).unwrap();
        if text.lines().nth(flag - 1) == Some(&format!("correct = {correct}")) {
            return option;
        }
        option = line_after(root, file, option, |l| l == "[[questions.options]]");
    }
}

#[test]
fn a_keyed_option_that_is_always_the_longest_is_reported() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    // Pad the text of every keyed option so that it is the longest.
    let text = fs::read_to_string(root.join(&file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for (i, l) in lines.iter().enumerate() {
        if *l == "correct = true" {
            let t = &mut out[i - 1];
            assert!(t.starts_with("text = "), "{t}");
            let quote = t.chars().last().unwrap();
            t.pop();
            t.push_str(" (padded so that it is the longest option of its question by far)");
            t.push(quote);
        }
    }
    fs::write(root.join(&file), out.join("\n") + "\n").unwrap();
    let first = line_after(root, &file, 0, |l| l == "[[questions]]");
    assert_verify_reports(root, &file, first, "the keyed option is the longest in");
}

#[test]
fn a_concept_tested_twice_is_reported() {
    let course = common::course_copy();
    let root = course.path();
    let one = format!("{PART1}/quiz.toml");
    let two = format!("{PART2}/quiz.toml");
    let concept_of = |file: &str| {
        let line = line_after(root, file, 0, |l| l.starts_with("concept = "));
        (
            line,
            fs::read_to_string(root.join(file))
                .unwrap()
                .lines()
                .nth(line - 1)
                .unwrap()
                .to_string(),
        )
    };
    let (_, first) = concept_of(&one);
    let (line, _) = concept_of(&two);
    replace_line(root, &two, line, &[&first]);
    let header = line_after(root, &two, 0, |l| l == "[[questions]]");
    assert_verify_reports(root, &two, header, &format!("which {one}:"));
}

#[test]
fn an_answer_token_in_a_wrong_explanation_is_reported() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    let header = line_after(root, &file, 0, |l| l == "[[questions]]");
    let tokens = line_after(root, &file, header, |l| l.starts_with("answer_tokens = "));
    replace_line(root, &file, tokens, &["answer_tokens = [\"telltale\"]"]);
    let wrong = option_line(root, &file, header, false);
    let why = line_after(root, &file, wrong, |l| l.starts_with("explanation = "));
    replace_line(
        root,
        &file,
        why,
        &["explanation = \"Wrong: the Telltale word is elsewhere.\""],
    );
    assert_verify_reports(root, &file, wrong, "uses the answer token `telltale`");
}

#[test]
fn an_explanation_naming_a_letter_is_reported() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART2}/quiz.toml");
    let header = line_after(root, &file, 0, |l| l == "[[questions]]");
    let wrong = option_line(root, &file, header, false);
    let why = line_after(root, &file, wrong, |l| l.starts_with("explanation = "));
    replace_line(
        root,
        &file,
        why,
        &["explanation = \"Unlike option b, this never happens.\""],
    );
    assert_verify_reports(root, &file, wrong, "names an option by its letter");
}

#[test]
fn a_term_used_before_its_section_is_reported() {
    let course = common::course_copy();
    let root = course.path();
    let file = format!("{PART1}/quiz.toml");
    // "cursor" is taught in Part 4; Part 1's quiz may not use it yet.
    let prompt = line_after(root, &file, 0, |l| l.starts_with("prompt = \""));
    replace_line(root, &file, prompt, &["prompt = \"Which cursor comes next?\""]);
    assert_verify_reports(root, &file, prompt, "`cursor` is used before Part 4 § Tools");
}

/// Every spec citation in the lessons, quizzes and exercises names a page
/// that exists in its revision (`MCP_SPEC_DIR`, `../shared/mcp-spec` or
/// `/work/shared/mcp-spec`, each holding `<revision>/<page>.mdx`; without
/// them this test says so and passes), and its address is that page's.
#[test]
fn every_citation_maps_to_a_spec_page_that_exists() {
    use mcplings::text::cite;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(spec) = [
        std::env::var_os("MCP_SPEC_DIR").map(std::path::PathBuf::from),
        Some(root.join("../shared/mcp-spec")),
        Some(std::path::PathBuf::from("/work/shared/mcp-spec")),
    ]
    .into_iter()
    .flatten()
    .find(|d| d.join("2025-11-25/basic/lifecycle.mdx").is_file()) else {
        eprintln!("skipped: no mcp-spec folder (set MCP_SPEC_DIR to the folder holding <revision>/<page>.mdx)");
        return;
    };
    // Cited revisions whose pages are not in the reference folder.
    let not_held = [("2025-03-26", "basic/index")];
    let mut checked = 0;
    let mut missing = Vec::new();
    for part in std::fs::read_dir(root.join("lessons")).unwrap().flatten() {
        for file in ["lesson.md", "quiz.toml", "exercises.toml"] {
            let Ok(text) = std::fs::read_to_string(part.path().join(file)) else {
                continue;
            };
            for c in cite::citations(&text) {
                checked += 1;
                let dir = spec.join(&c.revision);
                let page = [dir.join(format!("{}.mdx", c.page)), dir.join(&c.page).join("index.mdx")];
                let url = c.url();
                let expected = format!("https://modelcontextprotocol.io/specification/{}/", c.revision);
                assert!(
                    url.starts_with(&expected) || url == expected.trim_end_matches('/'),
                    "{url}"
                );
                if dir.is_dir() {
                    if !page.iter().any(|p| p.is_file()) {
                        missing.push(format!("{}/{file}: {} {}", part.path().display(), c.revision, c.page));
                    }
                } else if !not_held.contains(&(c.revision.as_str(), c.page.as_str())) {
                    missing.push(format!(
                        "{}/{file}: {} {} (revision not held)",
                        part.path().display(),
                        c.revision,
                        c.page
                    ));
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} citations found");
    assert!(missing.is_empty(), "citations of pages that do not exist: {missing:#?}");
}
