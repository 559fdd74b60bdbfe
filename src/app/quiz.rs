//! The quiz view: one question at a time; a wrong pick explains itself and
//! the learner tries again; the right pick explains itself too. Each run of
//! a quiz (each [`QuizView`]) shows the options in an order of its own.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::keys::{self, Action};
use super::{App, Effect, Screen};
use crate::content::Course;
use crate::content::quiz::{LETTERS, Question, option_of, shuffled_order};
use crate::progress::Progress;

/// Quiz state. The picks themselves live in [`Progress`], so a quiz can be
/// left and resumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizView {
    /// The part whose quiz is open.
    pub part: u8,
    /// Index of the question shown.
    pub question: usize,
    /// Every question is solved and the summary is shown.
    pub finished: bool,
    /// This run's seed: it fixes the order the options are shown in.
    pub seed: u64,
    /// First line of the summary shown (it scrolls when taller than the
    /// screen).
    pub scroll: usize,
}

impl QuizView {
    /// A quiz view at the first question, its options shown in the order
    /// `seed` gives.
    pub fn new(part: u8, seed: u64) -> QuizView {
        QuizView {
            part,
            question: 0,
            finished: false,
            seed,
            scroll: 0,
        }
    }

    /// The order `question`'s options are shown in: entry `i` is the
    /// file-order index of the option with letter `LETTERS[i]`.
    pub fn order(&self, question: &Question) -> Vec<usize> {
        shuffled_order(self.seed, &question.id, question.options.len())
    }

    /// Moves to the first unsolved question, or the summary if none is left.
    pub fn resume(&mut self, course: &Course, progress: &Progress) {
        let Some(quiz) = course.part(self.part).and_then(|p| p.quiz.as_ref()) else {
            return;
        };
        let solved = |id: &str| {
            progress
                .quiz(self.part)
                .and_then(|q| q.answers.get(id))
                .is_some_and(|a| a.solved)
        };
        match quiz.questions.iter().position(|q| !solved(&q.id)) {
            Some(i) => {
                self.question = i;
                self.finished = false;
            }
            None => self.finished = true,
        }
    }
}

impl App {
    /// The letter the option at file-order index `option` of the question
    /// on screen is shown with in this run (`None` outside a quiz).
    pub fn quiz_letter(&self, option: usize) -> Option<char> {
        let quiz = self.course.part(self.quiz.part)?.quiz.as_ref()?;
        let question = quiz.questions.get(self.quiz.question)?;
        let shown = self.quiz.order(question).iter().position(|&o| o == option)?;
        LETTERS.get(shown).copied()
    }

    /// A fresh quiz view of part `part`: a new run, so a new order. Its
    /// seed goes into the progress, so the run keeps its order when the
    /// learner quits and comes back ([`App::quiz_run`]).
    pub(super) fn new_quiz_run(&mut self, part: u8) -> QuizView {
        self.quiz_runs += 1;
        let seed = self.quiz_seed.wrapping_add(self.quiz_runs);
        self.progress.quizzes.entry(part.to_string()).or_default().seed = Some(seed);
        QuizView::new(part, seed)
    }

    /// The quiz view of part `part`'s run under way: with the seed the
    /// progress holds, so with the order the learner saw before; a new
    /// run when it holds none.
    pub(super) fn quiz_run(&mut self, part: u8) -> QuizView {
        match self.progress.quiz(part).and_then(|q| q.seed) {
            Some(seed) => QuizView::new(part, seed),
            None => self.new_quiz_run(part),
        }
    }

    pub(super) fn quiz_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(effects) = self.quit_or_back(key) {
            return effects;
        }
        let part = self.quiz.part;
        let Some(quiz) = self.course.part(part).and_then(|p| p.quiz.clone()) else {
            return Vec::new();
        };
        let count = quiz.questions.len();
        let action = keys::action(Screen::Quiz, key);
        if self.quiz.finished {
            match action {
                Some(Action::Previous) => {
                    self.quiz.finished = false;
                    self.quiz.question = count.saturating_sub(1);
                }
                Some(Action::Down) => {
                    // Under the title, legend and a blank: the questions,
                    // a blank, what next.
                    let max = (count + 2).saturating_sub(self.body_rows().saturating_sub(3));
                    self.quiz.scroll = (self.quiz.scroll + 1).min(max);
                }
                Some(Action::Up) => self.quiz.scroll = self.quiz.scroll.saturating_sub(1),
                Some(Action::Retake) => self.confirm = Some(super::Confirm::RetakeQuiz(part)),
                _ => {}
            }
            return Vec::new();
        }
        let Some(question) = quiz.questions.get(self.quiz.question) else {
            return Vec::new();
        };
        let answer = self
            .progress
            .quiz(part)
            .and_then(|q| q.answers.get(&question.id))
            .cloned()
            .unwrap_or_default();
        let order = self.quiz.order(question);
        let picked = match (action, key.code) {
            (Some(Action::Answer), KeyCode::Char(c)) => option_of(c).and_then(|shown| order.get(shown).copied()),
            _ => None,
        };
        match action {
            _ if let Some(pick) = picked
                && pick < question.options.len()
                && !answer.solved
                && !answer.picks.contains(&pick) =>
            {
                self.progress
                    .record_pick(part, &question.id, pick, question.options[pick].correct);
                return vec![Effect::SaveProgress];
            }
            Some(Action::Next) if answer.solved => {
                if self.quiz.question + 1 < count {
                    self.quiz.question += 1;
                } else {
                    self.quiz.resume(&self.course, &self.progress);
                    if !self.quiz.finished {
                        self.notice = Some("Some questions are still open.".into());
                    }
                }
            }
            Some(Action::Previous) => self.quiz.question = self.quiz.question.saturating_sub(1),
            _ => {}
        }
        Vec::new()
    }
}
