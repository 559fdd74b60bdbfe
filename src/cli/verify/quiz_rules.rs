//! The quiz rules of issue 33, a content rule of `mcplings verify` (in the
//! CLI, as it reads citations with `text::cite`), checked for the parts in
//! [`QUIZ_RULE_PARTS`] (the others get one line of how far they are):
//!
//! - **diagnose and predict**: at least [`MIN_DIAGNOSE_SHARE`] of a part's
//!   questions show frames or a transcript ([`is_diagnose`]);
//! - **misconceptions**: every wrong option names the rule it breaks or
//!   the real bug that shipped it ([`valid_misconception`]);
//! - **sections**: every question names the section that teaches it
//!   (resolved on load, so a name that resolves to nothing already fails).

use crate::content::error::ContentError;
use crate::content::quiz::{Question, Quiz, is_issue_ref, split_arrow};
use crate::content::{Course, Part};
use crate::text::cite;

/// The quizzes held to these rules: each part's, once its quiz is
/// rewritten (Part 1's was the model); widening this list is how.
pub const QUIZ_RULE_PARTS: &[u8] = &[1, 2, 3, 4, 5];

/// The least share of a part's questions that show frames or a transcript:
/// 40 %.
pub const MIN_DIAGNOSE_SHARE: (usize, usize) = (2, 5);

/// Whether `q` is a diagnose or predict question: its prompt or its
/// `frames` hold a JSON-RPC frame that parses, or at least two lines that
/// start with `▶` or `◀`.
pub fn is_diagnose(q: &Question) -> bool {
    let mut texts = vec![q.prompt.clone()];
    if let Some(f) = &q.frames {
        texts.push(f.lines.join("\n"));
    }
    texts
        .iter()
        .any(|t| holds_frame(t) || t.lines().filter(|l| split_arrow(l).0.is_some()).count() >= 2)
}

/// Whether `text` holds a JSON object with a `jsonrpc` member that parses.
pub fn holds_frame(text: &str) -> bool {
    text.match_indices('{').any(|(at, _)| {
        serde_json::Deserializer::from_str(&text[at..])
            .into_iter::<serde_json::Value>()
            .next()
            .and_then(Result::ok)
            .is_some_and(|v| v.get("jsonrpc").is_some())
    })
}

/// Whether `m` is a misconception `verify` accepts: a citation with a
/// heading (`2025-11-25 basic/index › Requests`), a course rule (`course
/// rule: ID`), or a real bug (`owner/repo#N`).
pub fn valid_misconception(m: &str) -> bool {
    let m = m.trim();
    !cite::rule_keys(m).is_empty()
        || m.strip_prefix(cite::COURSE_RULE)
            .is_some_and(|id| !id.trim().is_empty())
        || is_issue_ref(m)
}

/// How one part's quiz stands against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The part.
    pub part: u8,
    /// Its questions.
    pub questions: usize,
    /// Those that show frames or a transcript.
    pub diagnose: usize,
    /// Wrong options without a valid misconception.
    pub without_misconception: usize,
    /// Questions that name no section.
    pub without_section: usize,
}

impl Standing {
    /// The diagnose share in whole percent.
    pub fn percent(&self) -> usize {
        (self.diagnose * 100).checked_div(self.questions).unwrap_or(0)
    }

    /// Whether the diagnose share reaches [`MIN_DIAGNOSE_SHARE`].
    pub fn share_ok(&self) -> bool {
        let (num, den) = MIN_DIAGNOSE_SHARE;
        self.diagnose * den >= self.questions * num
    }
}

/// The standing of `quiz` (part `part`).
pub fn standing(part: u8, quiz: &Quiz) -> Standing {
    let wrong = quiz
        .questions
        .iter()
        .flat_map(|q| q.options.iter().filter(|o| !o.correct));
    Standing {
        part,
        questions: quiz.questions.len(),
        diagnose: quiz.questions.iter().filter(|q| is_diagnose(q)).count(),
        without_misconception: wrong
            .filter(|o| !o.misconception.as_deref().is_some_and(valid_misconception))
            .count(),
        without_section: quiz.questions.iter().filter(|q| q.section_name.is_none()).count(),
    }
}

/// What the check found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The problems of the enforced quizzes, in course order.
    pub problems: Vec<ContentError>,
    /// Every written part's standing, in course order.
    pub standings: Vec<Standing>,
}

impl Outcome {
    /// One line: each part's diagnose share, the enforced ones first.
    pub fn share_line(&self) -> String {
        let parts: Vec<String> = self
            .standings
            .iter()
            .map(|s| format!("Part {} {}/{} ({} %)", s.part, s.diagnose, s.questions, s.percent()))
            .collect();
        format!("quiz diagnose/predict share ... {}", parts.join(" · "))
    }

    /// The one line for the quizzes not enforced yet (`None` when every
    /// written part's quiz is).
    pub fn pending_line(&self) -> Option<String> {
        let pending: Vec<&Standing> = self
            .standings
            .iter()
            .filter(|s| !QUIZ_RULE_PARTS.contains(&s.part))
            .collect();
        if pending.is_empty() {
            return None;
        }
        let each: Vec<String> = pending
            .iter()
            .map(|s| {
                format!(
                    "Part {}: {} % diagnose{}, {} wrong options without a misconception, {} of {} questions name no section",
                    s.part,
                    s.percent(),
                    if s.share_ok() { "" } else { " (under 40 %)" },
                    s.without_misconception,
                    s.without_section,
                    s.questions,
                )
            })
            .collect();
        Some(format!("quiz rules ... not enforced yet: {}", each.join(" · ")))
    }
}

/// Checks every written part's quiz; enforces the rules on
/// [`QUIZ_RULE_PARTS`].
pub fn check(course: &Course) -> Outcome {
    let mut outcome = Outcome::default();
    for part in &course.parts {
        let Some(quiz) = &part.quiz else { continue };
        outcome.standings.push(standing(part.number, quiz));
        if QUIZ_RULE_PARTS.contains(&part.number) {
            outcome.problems.extend(problems(part, quiz));
        }
    }
    outcome
}

/// The problems of one enforced quiz.
fn problems(part: &Part, quiz: &Quiz) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let s = standing(part.number, quiz);
    if !s.share_ok() {
        errors.push(ContentError::at(
            &quiz.path,
            quiz.questions.first().map_or(1, |q| q.line),
            format!(
                "Part {}'s quiz shows frames or a transcript in {} of {} questions ({} %), under the 40 % it needs; \
                 ask what is wrong with a frame, which frame comes next, or why a peer hangs",
                part.number,
                s.diagnose,
                s.questions,
                s.percent()
            ),
        ));
    }
    for q in &quiz.questions {
        if q.section_name.is_none() {
            errors.push(ContentError::at(
                &quiz.path,
                q.line,
                format!(
                    "question `{}` names no section; add section = \"{} › Heading\", the section that teaches it",
                    q.id, part.number
                ),
            ));
        }
        for o in q.options.iter().filter(|o| !o.correct) {
            match &o.misconception {
                Some(m) if valid_misconception(m) => {}
                Some(m) => errors.push(ContentError::at(
                    &quiz.path,
                    o.line,
                    format!(
                        "question `{}`: misconception `{m}` is neither a citation with a heading (`2025-11-25 basic/index › Requests`), a `course rule: ID`, nor an `owner/repo#N`",
                        q.id
                    ),
                )),
                None => errors.push(ContentError::at(
                    &quiz.path,
                    o.line,
                    format!(
                        "question `{}`: this wrong option names no misconception; add misconception = \"REVISION page › Heading\" (the rule it breaks) or \"owner/repo#N\" (the bug that shipped it)",
                        q.id
                    ),
                )),
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misconceptions_are_citations_course_rules_or_issue_refs() {
        for ok in [
            "2025-11-25 basic/index › Requests",
            "modelcontextprotocol/python-sdk#2057",
            "patvice/ruby_llm-mcp#74",
            "course rule: orphans-dropped",
        ] {
            assert!(valid_misconception(ok), "{ok}");
        }
        for bad in [
            "2025-11-25 basic/index",
            "python-sdk#2057",
            "a learner's guess",
            "owner/repo#",
            "owner/repo#12a",
            "course rule: ",
        ] {
            assert!(!valid_misconception(bad), "{bad}");
        }
    }

    #[test]
    fn a_frame_or_two_arrow_lines_make_a_diagnose_question() {
        assert!(holds_frame(
            r#"A server receives `{"jsonrpc":"2.0","id":1,"method":"ping"}`."#
        ));
        assert!(!holds_frame(
            r#"A result `{"content":[]}` and `{"jsonrpc":` cut short."#
        ));
        let two = "▶ POST /mcp\n◀ 202 Accepted";
        let one = "▶ POST /mcp\nthen nothing";
        assert_eq!(two.lines().filter(|l| split_arrow(l).0.is_some()).count(), 2);
        assert_eq!(one.lines().filter(|l| split_arrow(l).0.is_some()).count(), 1);
    }
}
