//! The quiz view: one question at a time; a wrong pick explains itself and
//! the learner tries again; the right pick explains itself too. Each run of
//! a quiz (each [`QuizView`]) shows the options in an order of its own.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::keys::{self, Action};
use super::{App, Effect, Screen};
use crate::content::Course;
use crate::content::quiz::{LETTERS, Question, option_of, shuffled_order};
use crate::progress::Progress;

mod summary;

pub use summary::{misconception_line, missed};

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
    /// On the summary: the missed question chosen (an index into the
    /// questions missed at the first try), whose section enter opens.
    pub missed: usize,
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
            missed: 0,
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

/// What a block of the question screen is, for its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizLook {
    /// The question's prompt.
    Prompt,
    /// An option: picked and right (`Some(true)`), picked and wrong
    /// (`Some(false)`), or not picked.
    Option(Option<bool>),
    /// The explanation of the last pick: right or not.
    Explanation(bool),
    /// The rule a wrong pick breaks, or the bug that shipped it.
    Misconception,
    /// A line of the question's frames (laid out as code, never wrapped
    /// into the prompt).
    Frame,
    /// The label above the frames: their revision and what the arrows say.
    FrameLabel,
    /// On the summary: a question's line, right at the first try or not.
    Mark(bool),
    /// On the summary: a missed question, chosen (enter opens its section)
    /// or not.
    Missed(bool),
    /// On the summary: the keyed answer of a missed question.
    Keyed,
    /// On the summary: a missed question's section.
    Section,
    /// Dim help text.
    Dim,
    /// An empty line.
    Blank,
}

/// One block of the question screen, before it is word-wrapped: its text,
/// the lead of its first line and of the others, its look.
#[derive(Debug, Clone, PartialEq, Eq)]
struct QuizBlock {
    /// The text (`backtick` spans are code).
    pub text: String,
    /// The first line's lead.
    pub first: String,
    /// The other lines' lead.
    pub rest: String,
    /// How it looks.
    pub look: QuizLook,
}

impl App {
    /// The question on screen as blocks, top to bottom: the prompt, the
    /// options in this run's order, the explanation of the last pick.
    fn question_blocks(&self) -> Vec<QuizBlock> {
        let Some(question) = self
            .course
            .part(self.quiz.part)
            .and_then(|p| p.quiz.as_ref())
            .and_then(|q| q.questions.get(self.quiz.question))
        else {
            return Vec::new();
        };
        let answer = self
            .progress
            .quiz(self.quiz.part)
            .and_then(|r| r.answers.get(&question.id));
        let picks: &[usize] = answer.map_or(&[], |a| a.picks.as_slice());
        let block = |text: String, first: &str, rest: &str, look| QuizBlock {
            text,
            first: first.to_string(),
            rest: rest.to_string(),
            look,
        };
        let blank = || block(String::new(), "", "", QuizLook::Blank);
        let mut blocks = vec![block(question.prompt.clone(), " ", " ", QuizLook::Prompt), blank()];
        if let Some(frames) = &question.frames {
            let arrows = frames.split_lines().iter().any(|(a, _)| a.is_some());
            let label = if arrows {
                format!("{} · ▶ the client sends · ◀ the server sends", frames.revision)
            } else {
                frames.revision.clone()
            };
            blocks.push(block(label, " ", " ", QuizLook::FrameLabel));
            for (arrow, line) in frames.split_lines() {
                let first = format!(" {} ", arrow.unwrap_or(' '));
                blocks.push(block(line.to_string(), &first, "   ┆ ", QuizLook::Frame));
            }
            blocks.push(blank());
        }
        for (i, &index) in self.quiz.order(question).iter().enumerate() {
            let option = &question.options[index];
            let letter = LETTERS.get(i).copied().unwrap_or('?');
            let picked = picks.contains(&index).then_some(option.correct);
            let mark = match picked {
                Some(true) => "✓",
                Some(false) => "✗",
                None => " ",
            };
            let first = format!(" {mark} {letter}) ");
            let rest = " ".repeat(first.chars().count());
            blocks.push(block(option.text.clone(), &first, &rest, QuizLook::Option(picked)));
        }
        blocks.push(blank());
        if let Some(&last) = picks.last() {
            let option = &question.options[last];
            let text = if option.correct {
                format!("✓ Right. {}", option.explanation)
            } else {
                format!("✗ Not quite. {} Try another answer.", option.explanation)
            };
            blocks.push(block(text, " ", "   ", QuizLook::Explanation(option.correct)));
            if let Some(m) = option.misconception.as_deref().filter(|_| !option.correct) {
                blocks.push(block(misconception_line(m), "   ", "   ", QuizLook::Misconception));
            }
        }
        blocks
    }

    /// The lines of the question on screen, each with the look of its
    /// block, wrapped to the body's width (one column of margin each side).
    pub fn question_lines(&self) -> Vec<(QuizLook, crate::text::Line)> {
        use crate::text::Tone;
        let width = usize::from(self.size.0).saturating_sub(2);
        self.question_blocks()
            .into_iter()
            .flat_map(|b| {
                let tone = if b.look == QuizLook::Prompt {
                    Tone::Strong
                } else {
                    Tone::Plain
                };
                let lines = match b.look {
                    QuizLook::Blank => vec![Vec::new()],
                    QuizLook::Frame => {
                        use crate::text::{Leads, Piece, Show, lay_out_frame};
                        let json = b.text.starts_with(['{', '[']);
                        let leads = Leads::new(
                            Piece::new(b.first.clone(), Tone::Marker),
                            Piece::new(b.rest.clone(), Tone::Marker),
                        );
                        lay_out_frame(&b.text, width, Show::Code { json }, &leads)
                    }
                    QuizLook::FrameLabel => vec![vec![
                        crate::text::Piece::new(b.first.clone(), Tone::Plain),
                        crate::text::Piece::new(b.text.clone(), Tone::Label),
                    ]],
                    _ => crate::text::paragraphs(&b.text, width, tone, &b.first, &b.rest),
                };
                lines.into_iter().map(move |l| (b.look, l))
            })
            .collect()
    }

    /// The first line of the question screen's option at file-order index
    /// `option` ([`App::question_lines`]), once it is picked (its lead
    /// then says `✓` or `✗`).
    fn option_line(&self, option: usize) -> Option<usize> {
        let letter = self.quiz_letter(option)?;
        let leads = [format!(" ✓ {letter}) "), format!(" ✗ {letter}) ")];
        self.question_lines().iter().position(|(look, line)| {
            matches!(look, QuizLook::Option(Some(_)))
                && leads.iter().any(|l| crate::text::plain(line).starts_with(l.as_str()))
        })
    }

    /// The furthest the question screen scrolls: its lines past the body.
    pub(crate) fn question_max_scroll(&self) -> usize {
        self.question_lines().len().saturating_sub(self.body_rows())
    }

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
            // Under the title, legend and a blank: the list.
            let (lines, starts) = self.summary_lines();
            let rows = self.body_rows().saturating_sub(3);
            let max = lines.len().saturating_sub(rows);
            match action {
                Some(Action::Previous) => {
                    self.quiz.scroll = 0;
                    self.quiz.finished = false;
                    self.quiz.question = count.saturating_sub(1);
                }
                // With missed questions, ↑↓ bring the chosen one wholly
                // into view, then choose the next or the one before.
                Some(Action::Down) if !starts.is_empty() => {
                    let block = |m: usize| (starts[m], starts.get(m + 1).copied().unwrap_or(lines.len()));
                    let (start, end) = block(self.quiz.missed);
                    if end > self.quiz.scroll + rows && self.quiz.scroll < start.min(max) {
                        self.quiz.scroll = end.saturating_sub(rows).min(start).min(max);
                    } else if self.quiz.missed + 1 < starts.len() {
                        self.quiz.missed += 1;
                        let (start, end) = block(self.quiz.missed);
                        self.quiz.scroll = end.saturating_sub(rows).max(self.quiz.scroll).min(start).min(max);
                    } else {
                        self.quiz.scroll = (self.quiz.scroll + 1).min(max);
                    }
                }
                Some(Action::Up) if !starts.is_empty() => {
                    let start = starts[self.quiz.missed];
                    if start < self.quiz.scroll {
                        self.quiz.scroll = start;
                    } else if self.quiz.missed > 0 {
                        self.quiz.missed -= 1;
                        self.quiz.scroll = self.quiz.scroll.min(starts[self.quiz.missed]);
                    } else {
                        self.quiz.scroll = self.quiz.scroll.saturating_sub(1);
                    }
                }
                Some(Action::Down) => self.quiz.scroll = (self.quiz.scroll + 1).min(max),
                Some(Action::Up) => self.quiz.scroll = self.quiz.scroll.saturating_sub(1),
                Some(Action::Open) => return self.read_missed_section(),
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
        let before = (self.quiz.question, self.quiz.finished);
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
                self.progress.record_pick_to(
                    part,
                    &question.id,
                    Some(&question.fingerprint()),
                    pick,
                    question.options[pick].correct,
                );
                // The explanation comes last: scroll it into view, but
                // never past the answer just chosen (what it explains).
                self.quiz.scroll = self
                    .question_max_scroll()
                    .min(self.option_line(pick).unwrap_or(usize::MAX));
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
            Some(Action::Down) => self.quiz.scroll = (self.quiz.scroll + 1).min(self.question_max_scroll()),
            Some(Action::Up) => self.quiz.scroll = self.quiz.scroll.saturating_sub(1),
            Some(Action::PageDown) => {
                self.quiz.scroll = (self.quiz.scroll + self.page_rows()).min(self.question_max_scroll());
            }
            Some(Action::PageUp) => self.quiz.scroll = self.quiz.scroll.saturating_sub(self.page_rows()),
            _ => {}
        }
        if (self.quiz.question, self.quiz.finished) != before {
            self.quiz.scroll = 0;
        }
        Vec::new()
    }
}
