//! A part's quiz (`quiz.toml`): multiple-choice questions in which every
//! option explains why it is right or wrong.

use std::collections::HashSet;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::error::{ContentError, parse_toml};
use super::manifest::FORMAT_VERSION;

/// A validated quiz.
#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    /// The questions, asked one at a time in this order.
    pub questions: Vec<Question>,
}

/// One question with exactly one correct option.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Stable kebab-case id, used to store answers in progress.
    pub id: String,
    /// The question text (may span lines).
    pub prompt: String,
    /// The options, shown as a), b), c)…
    pub options: Vec<Choice>,
}

/// The letters options are shown and answered with: a) b) c)… (a question
/// has at most six options).
pub const LETTERS: [char; 6] = ['a', 'b', 'c', 'd', 'e', 'f'];

/// The option a letter stands for: `'a'` is 0.
pub fn option_of(letter: char) -> Option<usize> {
    LETTERS.iter().position(|l| *l == letter)
}

impl Question {
    /// Index of the correct option.
    pub fn correct(&self) -> usize {
        self.options.iter().position(|o| o.correct).unwrap_or(0)
    }
}

/// One option of a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The option text.
    pub text: String,
    /// Whether this is the right answer.
    pub correct: bool,
    /// Why it is right or wrong, shown after it is picked.
    pub explanation: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuizFile {
    format_version: Spanned<u32>,
    questions: Vec<Spanned<QuestionEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionEntry {
    id: Spanned<String>,
    prompt: String,
    /// What the question tests, in a few words (optional for now; read by
    /// nothing yet).
    #[serde(default)]
    #[allow(dead_code)]
    concept: Option<String>,
    options: Vec<Spanned<ChoiceEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChoiceEntry {
    text: String,
    correct: bool,
    #[serde(default)]
    explanation: String,
}

/// Parses and validates a quiz; every problem is returned with its line.
pub fn parse(file: &Path, source: &str) -> Result<Quiz, Vec<ContentError>> {
    let raw: QuizFile = parse_toml(file, source).map_err(|e| vec![e])?;
    let at = |offset: usize, reason: String| ContentError::at_offset(file, source, offset, reason);
    let mut errors = Vec::new();
    if *raw.format_version.get_ref() != FORMAT_VERSION {
        errors.push(at(
            raw.format_version.span().start,
            format!(
                "format_version {} is not supported; this mcplings reads {FORMAT_VERSION}",
                raw.format_version.get_ref()
            ),
        ));
    }
    if raw.questions.is_empty() {
        errors.push(ContentError::at(
            file,
            1,
            "a quiz needs at least one [[questions]] entry",
        ));
    }
    let mut seen = HashSet::new();
    let mut questions = Vec::new();
    for q in raw.questions {
        let start = q.span().start;
        let q = q.into_inner();
        let id = q.id.get_ref().clone();
        if !is_kebab(&id) {
            errors.push(at(
                q.id.span().start,
                format!("question id `{id}` must be kebab-case (a-z, 0-9, -)"),
            ));
        }
        if !seen.insert(id.clone()) {
            errors.push(at(q.id.span().start, format!("duplicate question id `{id}`")));
        }
        if q.prompt.trim().is_empty() {
            errors.push(at(start, format!("question `{id}` has an empty prompt")));
        }
        if !(2..=6).contains(&q.options.len()) {
            errors.push(at(
                start,
                format!("question `{id}` has {} options; give 2 to 6", q.options.len()),
            ));
        }
        let correct = q.options.iter().filter(|o| o.get_ref().correct).count();
        if correct != 1 {
            errors.push(at(
                start,
                format!("question `{id}` has {correct} correct options; exactly one must have `correct = true`"),
            ));
        }
        let mut options = Vec::new();
        for o in q.options {
            let offset = o.span().start;
            let o = o.into_inner();
            if o.text.trim().is_empty() {
                errors.push(at(offset, format!("an option of question `{id}` has empty text")));
            }
            if o.explanation.trim().is_empty() {
                errors.push(at(
                    offset,
                    format!(
                        "an option of question `{id}` has no explanation; every option says why it is right or wrong"
                    ),
                ));
            }
            options.push(Choice {
                text: o.text.trim().to_string(),
                correct: o.correct,
                explanation: o.explanation.trim().to_string(),
            });
        }
        questions.push(Question {
            id,
            prompt: q.prompt.trim().to_string(),
            options,
        });
    }
    if errors.is_empty() {
        Ok(Quiz { questions })
    } else {
        Err(errors)
    }
}

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"format_version = 1

[[questions]]
id = "q-one"
prompt = "Which?"

[[questions.options]]
text = "A"
correct = false
explanation = "Because."

[[questions.options]]
text = "B"
correct = true
explanation = "Because too."
"#;

    fn errors(src: &str) -> Vec<String> {
        parse(Path::new("quiz.toml"), src)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn parses_a_valid_quiz() {
        let q = parse(Path::new("quiz.toml"), GOOD).unwrap();
        assert_eq!(q.questions[0].correct(), 1);
        assert_eq!(q.questions[0].options[0].explanation, "Because.");
    }

    #[test]
    fn no_correct_answer_names_the_question_line() {
        let e = errors(&GOOD.replace("correct = true", "correct = false"));
        assert_eq!(
            e,
            vec!["quiz.toml:3: question `q-one` has 0 correct options; exactly one must have `correct = true`"]
        );
    }

    #[test]
    fn missing_explanation_names_the_option_line() {
        let e = errors(&GOOD.replace("explanation = \"Because too.\"", ""));
        assert_eq!(
            e,
            vec![
                "quiz.toml:12: an option of question `q-one` has no explanation; every option says why it is right or wrong"
            ]
        );
    }

    #[test]
    fn toml_syntax_error_names_its_line() {
        let e = errors("format_version = 1\n\n[[questions]]\nid = \"x\nprompt = 1\n");
        assert!(e[0].starts_with("quiz.toml:4:"), "{e:?}");
    }

    #[test]
    fn unknown_field_is_an_error() {
        let e = errors(&GOOD.replace("prompt = \"Which?\"", "prompt = \"Which?\"\nanswer = 2"));
        assert!(
            e[0].starts_with("quiz.toml:6:") && e[0].contains("unknown field `answer`"),
            "{e:?}"
        );
    }
}
