//! Tests of the quiz parser and the shuffled order.

use super::*;

const GOOD: &str = r#"format_version = 2

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
    let e = errors("format_version = 2\n\n[[questions]]\nid = \"x\nprompt = 1\n");
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
