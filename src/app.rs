//! The workbook's state and its pure [`App::update`]: a message in, state
//! changed, side effects out as data ([`Effect`]), their results back in as
//! messages. Nothing here touches the terminal, files or processes, so
//! every transition is testable. What the screens show is laid out here
//! too (the lesson, the exercise's right pane), for the view to slice.

mod exercise;
mod glossary;
pub mod keys;
mod lesson;
pub mod map;
mod message;
mod navigate;
mod pane;
mod quiz;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::check::CheckReport;
use crate::content::Course;
use crate::progress::Progress;

pub use exercise::{CheckState, ExerciseView, Pane};
pub use glossary::GlossaryView;
pub use lesson::LessonView;
pub use map::{MapView, NextStep};
pub use message::{Effect, Msg};
pub use pane::{LIST_WIDTH, Look, PaneLine, Run, Solution, entry_lines, transcript_title};
pub use quiz::{QuizLook, QuizView, misconception_line as quiz_misconception_line, missed as quiz_missed};

/// Smallest terminal the workbook draws in; below it a message says so.
pub const MIN_SIZE: (u16, u16) = (70, 20);

/// The screen in front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The course map: parts, progress, what's next.
    Map,
    /// A part's lesson.
    Lesson,
    /// An exercise: task, cases, transcript, hints.
    Exercise,
    /// A part's quiz.
    Quiz,
    /// The glossary of terms.
    Glossary,
}

/// A question the learner must confirm with `y`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Overwrite this exercise's files with the shipped stub.
    ResetExercise(String),
    /// Forget all progress (exercise files are kept).
    ResetProgress,
    /// Clear this part's quiz answers and take it again.
    RetakeQuiz(u8),
}

/// The map's mark for an exercise changed on disk since its last check
/// ([`App::edited`]): its ✓ or ✗ may no longer hold.
pub const CHANGED_MARK: &str = "~";

/// The whole state of the workbook. Only [`App::update`] changes it: the
/// view and the runtime read it (its fields are the crate's to read, and
/// the methods below say what it holds to others).
#[derive(Debug, Clone)]
pub struct App {
    /// The course.
    pub(crate) course: Course,
    /// The learner's progress.
    pub(crate) progress: Progress,
    /// Whether the exercises' dependencies are being built in the
    /// background (shown on the map until they are).
    pub(crate) prebuilding: bool,
    /// The screen in front.
    pub(crate) screen: Screen,
    /// The help overlay is open.
    pub(crate) help: bool,
    /// A confirmation dialog is open.
    pub(crate) confirm: Option<Confirm>,
    /// A one-line message in the footer (cleared by the next key).
    pub(crate) notice: Option<String>,
    /// The notice the last key cleared: the help sheet opened right after
    /// it shows it whole (the footer cuts a long one to its line).
    pub(crate) last_notice: Option<String>,
    /// Terminal size (columns, rows).
    pub(crate) size: (u16, u16),
    /// Why file watching is off, if it is.
    pub(crate) watch_error: Option<String>,
    /// Whether colours are off (`NO_COLOR`).
    pub(crate) no_color: bool,
    /// Whether spec citations are drawn as OSC 8 hyperlinks.
    pub(crate) links: bool,
    /// Map state.
    pub(crate) map: MapView,
    /// Lesson state.
    pub(crate) lesson: LessonView,
    /// Exercise state.
    pub(crate) exercise: ExerciseView,
    /// Quiz state.
    pub(crate) quiz: QuizView,
    /// Glossary state.
    pub(crate) glossary: GlossaryView,
    /// Spinner frame counter.
    pub(crate) ticks: u64,
    /// Checks started so far; each run is numbered so late events of a
    /// replaced run are ignored.
    runs: u64,
    /// The seed quiz runs start from ([`App::with_quiz_seed`]).
    quiz_seed: u64,
    /// Quiz runs started so far; each gets its own option order.
    quiz_runs: u64,
    quitting: bool,
    /// The screens to go back to with esc, the last on top (not kept
    /// across restarts; the screen in front is, in the progress file).
    pub(crate) back: Vec<Screen>,
    /// The lesson place (part, place) a jump from the glossary or the quiz
    /// summary left: esc from the glossary or the quiz comes back to it.
    lesson_behind: Option<(u8, crate::progress::LessonPlace)>,
    /// The open exercise's files changed while another screen was in
    /// front: coming back to it checks again.
    stale: bool,
    /// The exercises whose files changed on disk since their last check in
    /// this workbook, not checked since: the map marks them
    /// ([`CHANGED_MARK`]), for what it last recorded may no longer hold.
    pub(crate) edited: std::collections::BTreeSet<String>,
}

impl App {
    /// A workbook on `course` with `progress`, for a terminal of `size`.
    /// Opens where the learner left off.
    pub fn new(course: Course, progress: Progress, size: (u16, u16)) -> App {
        let part = progress.position.part.unwrap_or(1);
        // The cursor on the part in progress, not the last one opened.
        let in_progress = map::part_in_progress(&course, &progress);
        let map = MapView {
            selected: course.parts.iter().position(|p| p.number == in_progress).unwrap_or(0),
            followed: Some(in_progress),
        };
        let exercise_index = progress
            .position
            .exercise
            .as_deref()
            .and_then(|id| course.exercise_index(id))
            .unwrap_or(0);
        App {
            lesson: LessonView::new(part),
            exercise: ExerciseView::new(exercise_index),
            quiz: QuizView::new(part, 0),
            glossary: GlossaryView::default(),
            course,
            progress,
            prebuilding: false,
            screen: Screen::Map,
            help: false,
            confirm: None,
            notice: None,
            last_notice: None,
            size,
            watch_error: None,
            no_color: false,
            links: false,
            map,
            ticks: 0,
            runs: 0,
            quiz_seed: 0,
            quiz_runs: 0,
            quitting: false,
            back: Vec::new(),
            lesson_behind: None,
            stale: false,
            edited: Default::default(),
        }
    }

    /// The same workbook with quiz runs seeded from `seed` (the runtime
    /// passes [`crate::content::quiz::run_seed`]; tests keep the default 0).
    pub fn with_quiz_seed(mut self, seed: u64) -> App {
        self.quiz_seed = seed;
        self.quiz = QuizView::new(self.quiz.part, seed);
        self
    }

    /// Whether the workbook should close.
    pub fn quitting(&self) -> bool {
        self.quitting
    }

    /// The course.
    pub fn course(&self) -> &Course {
        &self.course
    }

    /// The learner's progress.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The screen in front.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The terminal's size (columns, rows).
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// The notice in the footer, if any.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Applies one message; returns the effects to carry out.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let pressed = matches!(&msg, Msg::Key(key) if key.kind == KeyEventKind::Press);
        let tick = matches!(msg, Msg::Tick);
        let mut effects = self.handle(msg);
        if pressed && !self.too_small() && self.remember_position() && !effects.contains(&Effect::SaveProgress) {
            effects.push(Effect::SaveProgress);
        }
        // A tick only moves the spinner, which is not in the pane.
        if self.screen == Screen::Exercise && !tick {
            self.lay_out_pane();
            if pressed {
                self.exercise.scroll = self.exercise.scroll.min(self.max_scroll());
            }
        }
        effects
    }

    fn handle(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Key(key) if key.kind == KeyEventKind::Press => self.key(key),
            Msg::Key(_) => Vec::new(),
            Msg::Resize(w, h) => {
                self.size = (w, h);
                self.relayout();
                Vec::new()
            }
            Msg::Check { run, event } => {
                self.exercise.on_check_event(run, event);
                Vec::new()
            }
            Msg::CheckDone { run, report } => self.check_done(run, *report),
            Msg::FileChanged(id) => self.file_changed(&id),
            Msg::ProgressChanged(progress) => {
                // Every change here is saved at once, so the file is at least
                // as new as what we hold: take it.
                self.progress = *progress;
                if self.screen == Screen::Map {
                    self.follow_progress();
                }
                Vec::new()
            }
            Msg::WatchFailed(reason) => {
                self.watch_error = Some(reason);
                Vec::new()
            }
            Msg::Prebuilding => {
                self.prebuilding = true;
                Vec::new()
            }
            Msg::Prebuilt => {
                self.prebuilding = false;
                Vec::new()
            }
            Msg::NoColor => {
                self.no_color = true;
                Vec::new()
            }
            Msg::Links => {
                self.links = true;
                Vec::new()
            }
            Msg::SolutionLoaded(solution) => {
                self.solution_loaded(*solution);
                Vec::new()
            }
            Msg::Tick => {
                self.ticks = self.ticks.wrapping_add(1);
                Vec::new()
            }
            Msg::Resume => self.resume(),
            Msg::Notice(message) | Msg::Failed(message) => {
                self.notice = Some(message);
                Vec::new()
            }
        }
    }

    fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return self.quit();
        }
        if self.too_small() {
            // Nothing is visible: keys must not act unseen. q still quits.
            if key.code == KeyCode::Char('q') {
                return self.quit();
            }
            return Vec::new();
        }
        self.last_notice = self.notice.take();
        if let Some(confirm) = self.confirm.take() {
            return if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                self.confirmed(confirm)
            } else {
                Vec::new()
            };
        }
        if self.help {
            self.help = false;
            return Vec::new();
        }
        if keys::action(self.screen, key) == Some(keys::Action::Help) {
            self.help = true;
            return Vec::new();
        }
        match self.screen {
            Screen::Map => self.map_key(key),
            Screen::Lesson => self.lesson_key(key),
            Screen::Exercise => self.exercise_key(key),
            Screen::Quiz => self.quiz_key(key),
            Screen::Glossary => self.glossary_key(key),
        }
    }

    fn confirmed(&mut self, confirm: Confirm) -> Vec<Effect> {
        match confirm {
            Confirm::ResetExercise(id) => {
                if let Some(ex) = self.course.exercise(&id) {
                    crate::actions::forget_exercise(&mut self.progress, ex);
                }
                self.exercise.check = CheckState::Idle;
                self.exercise.pane = Pane::Task;
                self.notice = Some(format!("Restored exercises/{id} to the shipped stub."));
                vec![Effect::ResetExercise(id), Effect::SaveProgress]
            }
            Confirm::RetakeQuiz(part) => {
                self.progress.quizzes.remove(&part.to_string());
                self.quiz = self.new_quiz_run(part);
                vec![Effect::SaveProgress]
            }
            Confirm::ResetProgress => {
                let position = self.progress.position.clone();
                self.progress = Progress {
                    position,
                    ..Progress::default()
                };
                self.exercise.check = CheckState::Idle;
                self.notice = Some("All progress is reset. Your exercise files are unchanged.".into());
                vec![Effect::SaveProgress]
            }
        }
    }

    /// Starts a check of the open exercise (cancelling a running one).
    fn start_check(&mut self) -> Vec<Effect> {
        let Some(ex) = self.course.exercises.get(self.exercise.index) else {
            return Vec::new();
        };
        let cases = crate::check::checkers::of(ex).map_or(0, |c| c.cases.len());
        let mut effects = self.exercise.cancel_effects();
        // A new check makes any message about the last state stale.
        self.notice = None;
        self.runs += 1;
        let run = self.runs;
        self.exercise.begin_run(run, cases);
        effects.push(Effect::StartCheck {
            exercise: ex.id.clone(),
            run,
        });
        effects
    }

    fn check_done(&mut self, run: u64, report: CheckReport) -> Vec<Effect> {
        if !self.exercise.is_current_run(run) {
            return Vec::new();
        }
        self.edited.remove(&report.exercise);
        let was_done = self.progress.is_done(&report.exercise);
        // The check on opening an exercise is no attempt: a failing check
        // counts once the learner saved a change (or had tried before).
        let started = self.progress.exercise_standing(&report.exercise) != crate::progress::Standing::NotStarted;
        if report.error.is_none() && (report.passed || self.exercise.changed || started) {
            crate::actions::record_check(&mut self.progress, &report);
        }
        if report.passed && !was_done {
            let last = self.exercise.index + 1 >= self.course.exercises.len();
            let then = if last { "z the quiz" } else { "n the next exercise" };
            self.notice = Some(format!("All cases pass: done! s shows the solution, {then}."));
        }
        if self.exercise.pinned && self.notice.is_none() {
            // The pane stays on what the learner reads: say what the check found.
            self.notice = Some(if !report.build.ok {
                "The build failed: b shows the compiler's output.".to_string()
            } else {
                match report.cases.iter().find(|c| c.status == crate::check::Status::Failed) {
                    Some(case) => format!(
                        "Checked: {}/{} pass. enter shows ✗ {}.",
                        report.passed_cases(),
                        report.cases.len(),
                        case.name
                    ),
                    None => "Checked: every case passes.".to_string(),
                }
            });
        }
        self.exercise.finish(report);
        vec![Effect::SaveProgress]
    }

    fn file_changed(&mut self, id: &str) -> Vec<Effect> {
        let open = self
            .course
            .exercises
            .get(self.exercise.index)
            .is_some_and(|e| e.id == id);
        if open {
            self.exercise.changed = true;
        }
        if open && self.screen == Screen::Exercise {
            self.start_check()
        } else {
            self.edited.insert(id.to_string());
            // Checked when the learner comes back to it.
            self.stale |= open;
            Vec::new()
        }
    }

    /// Recomputes width-dependent layout (the lesson's lines).
    fn relayout(&mut self) {
        self.lay_out_lesson();
    }

    /// Whether the terminal is below [`MIN_SIZE`], so that only a message
    /// is drawn.
    pub fn too_small(&self) -> bool {
        self.size.0 < MIN_SIZE.0 || self.size.1 < MIN_SIZE.1
    }

    /// Rows available to a screen's body (between header and footer).
    pub fn body_rows(&self) -> usize {
        usize::from(self.size.1.saturating_sub(4))
    }

    /// Lines a page key scrolls: the body less two, kept for context.
    fn page_rows(&self) -> usize {
        self.body_rows().saturating_sub(2).max(1)
    }
}

#[cfg(test)]
mod tests;
