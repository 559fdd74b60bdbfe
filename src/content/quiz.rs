//! A part's quiz (`quiz.toml`): multiple-choice questions in which every
//! option explains why it is right or wrong.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::error::{ContentError, parse_toml};
use super::manifest::FORMAT_VERSION;

/// A validated quiz.
#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    /// The file it was read from, relative to the course root.
    pub path: PathBuf,
    /// The questions, asked one at a time in this order.
    pub questions: Vec<Question>,
}

/// One question with exactly one correct option.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Stable kebab-case id, used to store answers in progress.
    pub id: String,
    /// What the question tests, in kebab-case: unique in the whole course,
    /// so no two questions (in one part or two) ask the same thing.
    pub concept: String,
    /// The words that give the answer away: no wrong option's explanation
    /// may use them (`verify` checks).
    pub answer_tokens: Vec<String>,
    /// The question text (may span lines).
    pub prompt: String,
    /// The options in file order (shown shuffled: see [`shuffled_order`]);
    /// progress stores picks as indexes into this list.
    pub options: Vec<Choice>,
    /// 1-based line of its `[[questions]]` header in the quiz file.
    pub line: usize,
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
    /// 1-based line of its `[[questions.options]]` header.
    pub line: usize,
}

/// The environment variable that fixes the order options are shown in
/// (for tests and reproducible runs): a number, used as the run's seed.
pub const SEED_VAR: &str = "MCPLINGS_QUIZ_SEED";

/// The seed of one quiz run: [`SEED_VAR`] when it holds a number, else
/// taken from the clock, so each run shows the options in a new order.
pub fn run_seed() -> u64 {
    std::env::var(SEED_VAR)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        })
}

/// The order `question`'s `count` options are shown in during the run with
/// `seed`: entry `i` is the file-order index of the option shown `i`-th
/// (with letter `LETTERS[i]`). The same seed and question always give the
/// same order; progress keeps file-order indexes, so an order never needs
/// storing.
pub fn shuffled_order(seed: u64, question: &str, count: usize) -> Vec<usize> {
    // FNV-1a over the id, mixed with the seed, drives a splitmix64 stream.
    let mut state = question.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..count).collect();
    for i in (1..count).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
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
    concept: Spanned<String>,
    answer_tokens: Spanned<Vec<String>>,
    prompt: String,
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
    let lines = super::error::LineIndex::new(source);
    let at = |offset: usize, reason: String| ContentError::at(file, lines.line(offset), reason);
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
        let concept = q.concept.get_ref().clone();
        if !is_kebab(&concept) {
            errors.push(at(
                q.concept.span().start,
                format!("question `{id}`: concept `{concept}` must be kebab-case (a-z, 0-9, -)"),
            ));
        }
        if q.answer_tokens.get_ref().is_empty() || q.answer_tokens.get_ref().iter().any(|t| t.trim().is_empty()) {
            errors.push(at(
                q.answer_tokens.span().start,
                format!(
                    "question `{id}`: answer_tokens needs at least one word that gives the answer away, none empty"
                ),
            ));
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
                line: lines.line(offset),
            });
        }
        questions.push(Question {
            id,
            concept,
            answer_tokens: q.answer_tokens.get_ref().iter().map(|t| t.trim().to_string()).collect(),
            prompt: q.prompt.trim().to_string(),
            options,
            line: lines.line(start),
        });
    }
    if errors.is_empty() {
        Ok(Quiz {
            path: file.to_path_buf(),
            questions,
        })
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
concept = "one"
answer_tokens = ["B"]
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
                "quiz.toml:14: an option of question `q-one` has no explanation; every option says why it is right or wrong"
            ]
        );
    }

    #[test]
    fn an_order_is_a_permutation_fixed_by_its_seed() {
        let mut seen = HashSet::new();
        for seed in 0..40 {
            let order = shuffled_order(seed, "q-one", 4);
            assert_eq!(order, shuffled_order(seed, "q-one", 4));
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, vec![0, 1, 2, 3]);
            seen.insert(order);
        }
        assert!(seen.len() > 10, "seeds should give many orders: {seen:?}");
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
            e[0].starts_with("quiz.toml:8:") && e[0].contains("unknown field `answer`"),
            "{e:?}"
        );
    }
}
