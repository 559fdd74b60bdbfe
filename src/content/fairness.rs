//! Quiz fairness, checked by `mcplings verify`: a quiz must be answered by
//! knowing the subject, not by reading its shape. Each rule's problem is a
//! [`ContentError`] at the quiz file's line:
//!
//! - **length rank**: per part, no rank by length (the longest option, the
//!   second longest, …, the shortest) holds the keyed option in more than
//!   [`MAX_RANK_SHARE`] of the questions; a keyed option that ties in
//!   length with another option holds no rank (its length says nothing);
//! - **concept**: no two questions of the course test the same `concept`;
//! - **give-aways**: no wrong option's explanation contains one of the
//!   question's `answer_tokens` or the keyed option's text;
//! - **letters**: no option or explanation refers to an option by its
//!   letter (options are shuffled, so "option b" means nothing).

use std::collections::HashMap;

use super::Course;
use super::error::ContentError;
use super::quiz::LETTERS;
use super::quiz::{Question, Quiz};

/// The largest share of a part's questions one length rank may hold the
/// keyed option in: 40 %.
pub const MAX_RANK_SHARE: (usize, usize) = (2, 5);

/// Every fairness problem of the course's quizzes, in course order.
pub fn problems(course: &Course) -> Vec<ContentError> {
    let mut errors = Vec::new();
    // Concept → where it is first tested (`file:line`).
    let mut concepts: HashMap<&str, String> = HashMap::new();
    for quiz in course.parts.iter().filter_map(|p| p.quiz.as_ref()) {
        for q in &quiz.questions {
            let here = format!("{}:{}", quiz.path.display(), q.line);
            match concepts.get(q.concept.as_str()) {
                Some(first) => errors.push(ContentError::at(
                    &quiz.path,
                    q.line,
                    format!(
                        "question `{}` tests concept `{}`, which {first} already tests; ask about something else",
                        q.id, q.concept
                    ),
                )),
                None => {
                    concepts.insert(&q.concept, here);
                }
            }
            errors.extend(give_aways(quiz, q));
            errors.extend(letter_references(quiz, q));
        }
        errors.extend(length_ranks(quiz));
    }
    errors
}

/// The rank from the longest (1 = longest) that the keyed option of `q`
/// holds, or `None` when it ties in length with another option: a reader
/// who picks by length cannot tell it from its twin, so it holds no rank.
pub fn keyed_rank(q: &Question) -> Option<usize> {
    let len = |s: &str| s.chars().count();
    let keyed = len(&q.options[q.correct()].text);
    let others = q.options.iter().enumerate().filter(|(i, _)| *i != q.correct());
    let longer = others.clone().filter(|(_, o)| len(&o.text) > keyed).count();
    let ties = others.filter(|(_, o)| len(&o.text) == keyed).count();
    (ties == 0).then_some(1 + longer)
}

/// For each length rank (as a label), the questions whose keyed option
/// holds it, counted from the longest and from the shortest.
pub fn rank_counts(quiz: &Quiz) -> Vec<(String, Vec<&Question>)> {
    let most = quiz.questions.iter().map(|q| q.options.len()).max().unwrap_or(0);
    let mut out = Vec::new();
    let name = |k: usize, end: &str| match k {
        1 => end.to_string(),
        2 => format!("second {end}"),
        3 => format!("third {end}"),
        k => format!("{k}th {end}"),
    };
    for k in 1..=most.div_ceil(2) {
        let holding = quiz.questions.iter().filter(|q| keyed_rank(q) == Some(k)).collect();
        out.push((name(k, "longest"), holding));
    }
    for k in 1..=most / 2 {
        let holding = quiz
            .questions
            .iter()
            .filter(|q| keyed_rank(q) == Some(q.options.len() + 1 - k))
            .collect();
        out.push((name(k, "shortest"), holding));
    }
    out
}

fn length_ranks(quiz: &Quiz) -> Vec<ContentError> {
    let total = quiz.questions.len();
    let (num, den) = MAX_RANK_SHARE;
    rank_counts(quiz)
        .into_iter()
        .filter(|(_, holding)| holding.len() * den > total * num)
        .map(|(rank, holding)| {
            let ids: Vec<&str> = holding.iter().map(|q| q.id.as_str()).collect();
            ContentError::at(
                &quiz.path,
                holding[0].line,
                format!(
                    "the keyed option is the {rank} in {} of {total} questions ({} %), above the 40 % a quiz allows (a keyed option tied in length holds no rank); vary the options' lengths in: {}",
                    holding.len(),
                    holding.len() * 100 / total,
                    ids.join(", ")
                ),
            )
        })
        .collect()
}

fn give_aways(quiz: &Quiz, q: &Question) -> Vec<ContentError> {
    let keyed = normalize(&q.options[q.correct()].text);
    let mut errors = Vec::new();
    for o in q.options.iter().filter(|o| !o.correct) {
        let why = normalize(&o.explanation);
        for token in &q.answer_tokens {
            if contains_words(&why, &normalize(token)) {
                errors.push(ContentError::at(
                    &quiz.path,
                    o.line,
                    format!(
                        "question `{}`: this wrong option's explanation uses the answer token `{token}`; say why the option is wrong without giving the answer away",
                        q.id
                    ),
                ));
            }
        }
        if why.contains(&keyed) {
            errors.push(ContentError::at(
                &quiz.path,
                o.line,
                format!(
                    "question `{}`: this wrong option's explanation quotes the keyed option; say why the option is wrong without giving the answer away",
                    q.id
                ),
            ));
        }
    }
    errors
}

fn letter_references(quiz: &Quiz, q: &Question) -> Vec<ContentError> {
    q.options
        .iter()
        .filter_map(|o| {
            let found = letter_reference(&o.text).or_else(|| letter_reference(&o.explanation))?;
            Some(ContentError::at(
                &quiz.path,
                o.line,
                format!(
                    "question `{}`: `{found}` names an option by its letter, but options are shuffled; name what the option says instead",
                    q.id
                ),
            ))
        })
        .collect()
}

/// The first place `text` names an option by its letter: `option b`,
/// `options a and c`, `choice d`, `(b)` or a bare `b)`.
pub fn letter_reference(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    let is_letter = |c: char| LETTERS.contains(&c);
    let word_start = |i: usize| i == 0 || !chars[i - 1].is_alphanumeric();
    let ends = |i: usize| chars.get(i).is_none_or(|c| !c.is_alphanumeric());
    for i in 0..chars.len() {
        let c = chars[i];
        // `(b)` and a bare `b)` (not the end of a longer word).
        if is_letter(c) && word_start(i) && chars.get(i + 1) == Some(&')') {
            let from = if i > 0 && chars[i - 1] == '(' { i - 1 } else { i };
            return Some(chars[from..i + 2].iter().collect());
        }
        for word in ["options ", "option ", "choices ", "choice "] {
            let w: Vec<char> = word.chars().collect();
            let j = i + w.len();
            if word_start(i)
                && chars.get(i..j) == Some(&w[..])
                && chars.get(j).copied().is_some_and(is_letter)
                && ends(j + 1)
            {
                // "option a" only when the letter stands alone: at the end,
                // before punctuation, or before "and"/"or".
                let rest: String = chars[j + 1..].iter().collect();
                let rest = rest.trim_start();
                if rest.is_empty()
                    || rest.starts_with(|c: char| ".,;:!?)".contains(c))
                    || rest.starts_with("and ")
                    || rest.starts_with("or ")
                {
                    return Some(chars[i..j + 1].iter().collect());
                }
            }
        }
    }
    None
}

/// Lower case, backticks and quotes dropped, whitespace collapsed.
fn normalize(s: &str) -> String {
    s.to_lowercase()
        .replace(['`', '"', '\''], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `needle` occurs in `hay` as whole words.
fn contains_words(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut from = 0;
    while let Some(at) = hay[from..].find(needle) {
        let start = from + at;
        let end = start + needle.len();
        let before = hay[..start].chars().next_back();
        let after = hay[end..].chars().next();
        let edge_ok = |c: Option<char>, inner: Option<char>| !word(c) || !word(inner);
        if edge_ok(before, needle.chars().next()) && edge_ok(after, needle.chars().next_back()) {
            return true;
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_references_are_found() {
        for text in [
            "Unlike option b, this one",
            "see (c)",
            "b) is wrong",
            "Options a and d both",
            "as in choice e.",
        ] {
            assert!(letter_reference(text).is_some(), "{text}");
        }
        for text in [
            "MUST NOT answer a notification",
            "an option a client may set",
            "tools/call (a request)",
            "the value 2e) here",
            "Tab)",
        ] {
            assert_eq!(letter_reference(text), None, "{text}");
        }
    }

    #[test]
    fn answer_tokens_match_whole_words() {
        assert!(contains_words("reply with -32602 here", "-32602"));
        assert!(contains_words("it is an iserror result", "iserror"));
        assert!(!contains_words("the errors list", "error"));
        assert!(contains_words("uses _meta.", "_meta"));
    }

    fn question(lens: &[usize], keyed: usize) -> Question {
        Question {
            id: "q".into(),
            concept: "c".into(),
            answer_tokens: vec![],
            prompt: String::new(),
            options: lens
                .iter()
                .enumerate()
                .map(|(i, n)| super::super::quiz::Choice {
                    text: "x".repeat(*n),
                    correct: i == keyed,
                    explanation: String::new(),
                    misconception: None,
                    line: 0,
                })
                .collect(),
            frames: None,
            section_name: None,
            section: None,
            line: 0,
            section_line: 0,
        }
    }

    #[test]
    fn the_shipped_quizzes_are_fair() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let course = Course::load(root, &crate::check::checkers::names()).expect("the course loads");
        let problems: Vec<String> = problems(&course).iter().map(ToString::to_string).collect();
        assert_eq!(problems, Vec::<String>::new());
    }

    #[test]
    fn a_keyed_option_tied_in_length_holds_no_rank() {
        assert_eq!(keyed_rank(&question(&[5, 9, 3, 7], 1)), Some(1));
        assert_eq!(keyed_rank(&question(&[5, 9, 3, 7], 2)), Some(4));
        assert_eq!(keyed_rank(&question(&[9, 9, 3, 7], 1)), None);
        assert_eq!(keyed_rank(&question(&[7, 9, 3, 7], 3)), None);
        // A tie between two wrong options leaves the keyed option's rank.
        assert_eq!(keyed_rank(&question(&[7, 7, 3, 5], 3)), Some(3));
        // Three questions whose keyed option is longest, two of them tied:
        // one counts, 1 of 3 (33 %), under the limit.
        let quiz = Quiz {
            path: "quiz.toml".into(),
            questions: vec![
                question(&[9, 5, 3, 7], 0),
                question(&[9, 9, 3, 7], 0),
                question(&[9, 9, 3, 7], 1),
            ],
        };
        assert_eq!(length_ranks(&quiz), Vec::new());
        let longest = &rank_counts(&quiz)[0];
        assert_eq!((longest.0.as_str(), longest.1.len()), ("longest", 1));
    }
}
