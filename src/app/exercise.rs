//! The exercise view: the task, the check's cases and the selected case's
//! reason, differences and transcript, hints, the reference solution.

use ratatui::crossterm::event::KeyEvent;

use super::Screen;
use super::keys::{self, Action};
use super::pane::{self, LIST_WIDTH, PaneLine, Solution};
use super::{App, Confirm, Effect};
use crate::check::{BuildReport, CaseReport, CheckReport, Event as CheckEvent, Status};

/// Where the check of the open exercise stands.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckState {
    /// No check yet.
    Idle,
    /// A check is running.
    Running {
        /// Its run number.
        run: u64,
        /// The build's report, once built.
        built: Option<BuildReport>,
        /// Finished cases so far, by index.
        cases: Vec<Option<CaseReport>>,
        /// The case running now.
        current: Option<usize>,
    },
    /// The last check's report.
    Done(Box<CheckReport>),
}

/// What the right-hand pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The task text.
    Task,
    /// The selected case: reason, differences, transcript, stderr.
    Case,
    /// The compiler's output.
    Build,
    /// The hints revealed so far.
    Hints,
    /// The reference solution (only once the exercise is done).
    Solution,
}

impl Pane {
    /// Panes of code that take the whole width (no case list beside them).
    pub fn is_wide(self) -> bool {
        matches!(self, Pane::Build | Pane::Solution)
    }

    /// Panes the learner reads through, where ↑↓ scroll instead of picking
    /// a case (enter goes back to the cases).
    pub fn scrolls(self) -> bool {
        matches!(self, Pane::Build | Pane::Solution | Pane::Hints)
    }
}

/// Exercise view state.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseView {
    /// Index of the open exercise in course order.
    pub index: usize,
    /// The check.
    pub check: CheckState,
    /// The selected case.
    pub selected: usize,
    /// What the right pane shows.
    pub pane: Pane,
    /// Scroll offset of the right pane.
    pub scroll: usize,
    /// The right pane laid out for the terminal's width: the view shows
    /// [`ExerciseView::scroll`] onwards.
    pub lines: Vec<PaneLine>,
    /// The reference solution, once the runtime has read it.
    pub solution: Option<Solution>,
    /// The learner chose what the pane shows (the task with `t`, the
    /// hints, the solution): a finished check leaves it, and its scroll,
    /// as they are, instead of showing the first failing case.
    pub pinned: bool,
    /// The workbook reopened on this exercise with [`ExerciseView::selected`]
    /// the case the learner had chosen: the first finished check shows it,
    /// not the first failing case.
    pub restore_case: bool,
    /// The learner saved a change to this exercise's files since it was
    /// opened: its checks count as attempts.
    pub changed: bool,
    /// The transcript shows each line exactly as sent (`v`), broken at
    /// characters, instead of wide frames pretty-printed.
    pub raw: bool,
    /// The pane takes the whole width, the case list hidden (`w`): a
    /// transcript read full-width.
    pub wide: bool,
}

impl ExerciseView {
    /// The view for the exercise at `index`, no check yet.
    pub fn new(index: usize) -> ExerciseView {
        ExerciseView {
            index,
            check: CheckState::Idle,
            selected: 0,
            pane: Pane::Task,
            scroll: 0,
            lines: Vec::new(),
            solution: None,
            pinned: false,
            restore_case: false,
            changed: false,
            raw: false,
            wide: false,
        }
    }

    /// Effects that stop a running check, if one runs.
    pub fn cancel_effects(&self) -> Vec<Effect> {
        if matches!(self.check, CheckState::Running { .. }) {
            vec![Effect::CancelCheck]
        } else {
            Vec::new()
        }
    }

    /// Starts tracking run `run`, of `cases` cases.
    pub fn begin_run(&mut self, run: u64, cases: usize) {
        self.check = CheckState::Running {
            run,
            built: None,
            cases: vec![None; cases],
            current: None,
        };
    }

    /// Whether `run` is the run being tracked.
    pub fn is_current_run(&self, run: u64) -> bool {
        matches!(self.check, CheckState::Running { run: r, .. } if r == run)
    }

    /// Applies a live event of run `run`.
    pub fn on_check_event(&mut self, run: u64, event: CheckEvent) {
        let CheckState::Running {
            run: r,
            built,
            cases,
            current,
        } = &mut self.check
        else {
            return;
        };
        if *r != run {
            return;
        }
        match event {
            CheckEvent::Built(b) => *built = Some(b),
            CheckEvent::CaseStarted(i) => *current = Some(i),
            CheckEvent::CaseFinished(i, report) => {
                if let Some(slot) = cases.get_mut(i) {
                    *slot = Some(*report);
                }
            }
        }
    }

    /// Takes the finished report and picks what to show: the compiler's
    /// output or the first failing case, unless the learner chose what the
    /// pane shows ([`ExerciseView::pinned`]): then the pane and its scroll
    /// stay, and only the case list (and its selection) follow the check.
    pub fn finish(&mut self, report: CheckReport) {
        if self.pinned {
            if let Some(i) = report.cases.iter().position(|c| c.status == Status::Failed) {
                self.selected = i;
            }
            self.check = CheckState::Done(Box::new(report));
            return;
        }
        self.scroll = 0;
        let restore = std::mem::take(&mut self.restore_case) && self.selected < report.cases.len();
        if !report.build.ok {
            self.pane = Pane::Build;
        } else if restore {
            self.pane = Pane::Case;
        } else if let Some(i) = report.cases.iter().position(|c| c.status == Status::Failed) {
            self.selected = i;
            self.pane = Pane::Case;
        } else if self.pane != Pane::Solution {
            self.pane = Pane::Case;
        }
        self.check = CheckState::Done(Box::new(report));
    }

    /// The finished report, if any.
    pub fn report(&self) -> Option<&CheckReport> {
        match &self.check {
            CheckState::Done(r) => Some(r),
            _ => None,
        }
    }

    /// The selected case's report (from a finished or running check).
    pub fn selected_case(&self) -> Option<&CaseReport> {
        match &self.check {
            CheckState::Done(r) => r.cases.get(self.selected),
            CheckState::Running { cases, .. } => cases.get(self.selected).and_then(Option::as_ref),
            CheckState::Idle => None,
        }
    }
}

impl App {
    pub(super) fn exercise_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        // esc in a pane read through (the solution, the compiler output,
        // the hints) goes back to the cases first, as closing a view does;
        // the next esc leaves the exercise.
        if self.exercise.pane.scrolls() && keys::action(Screen::Exercise, key) == Some(Action::Back) {
            show_case(&mut self.exercise);
            return Vec::new();
        }
        if let Some(effects) = self.quit_or_back(key) {
            return effects;
        }
        let Some(ex) = self.course.exercises.get(self.exercise.index).cloned() else {
            return Vec::new();
        };
        let cases = crate::check::checkers::of(&ex).map_or(0, |c| c.cases.len());
        let page = self.page_rows();
        let v = &mut self.exercise;
        match keys::action(Screen::Exercise, key) {
            Some(Action::Down) if v.pane.scrolls() => v.scroll += 1,
            Some(Action::Up) if v.pane.scrolls() => v.scroll = v.scroll.saturating_sub(1),
            Some(Action::Down) => {
                v.selected = (v.selected + 1).min(cases.saturating_sub(1));
                show_case(v);
            }
            Some(Action::Up) => {
                v.selected = v.selected.saturating_sub(1);
                show_case(v);
            }
            Some(Action::Open) => show_case(v),
            Some(Action::Raw) if v.pane == Pane::Case => v.raw = !v.raw,
            Some(Action::Wide) => {
                v.wide = !v.wide;
                v.scroll = 0;
            }
            Some(Action::PageDown) => v.scroll += page,
            Some(Action::PageUp) => v.scroll = v.scroll.saturating_sub(page),
            Some(Action::Check) => return self.start_check(),
            Some(Action::Cancel) => {
                if matches!(v.check, CheckState::Running { .. }) {
                    v.check = CheckState::Idle;
                    self.notice = Some("Check cancelled. c checks again.".into());
                    return vec![Effect::CancelCheck];
                }
            }
            Some(Action::Task) => set_pane(v, Pane::Task),
            Some(Action::Build) => set_pane(v, Pane::Build),
            Some(Action::Hints) => {
                // The hints revealed so far, from the first: reading them
                // again reveals nothing.
                set_pane(v, Pane::Hints);
            }
            Some(Action::RevealHint) => return self.reveal_hint(&ex),
            Some(Action::Solution) => {
                if self.progress.is_done(&ex.id) {
                    set_pane(v, Pane::Solution);
                    // Read afresh each time: the runtime reads, the result
                    // comes back as a message.
                    return vec![Effect::LoadSolution(ex.id.clone())];
                } else {
                    self.notice = Some("The reference solution unlocks once every case passes.".into());
                }
            }
            Some(Action::Edit) => return vec![Effect::OpenEditor(ex.file_paths(&self.course.root))],
            Some(Action::Reset) => self.confirm = Some(Confirm::ResetExercise(ex.id.clone())),
            Some(Action::Next) => {
                if self.exercise.index + 1 < self.course.exercises.len() {
                    return self.open_exercise(self.exercise.index + 1);
                }
                self.notice = Some("That was the last exercise written so far: z takes the part's quiz.".into());
            }
            Some(Action::Previous) if self.exercise.index > 0 => {
                return self.open_exercise(self.exercise.index - 1);
            }
            Some(Action::Lesson) => return self.open_lesson(ex.part),
            Some(Action::ReadFirst) => return self.read_first(),
            Some(Action::Quiz) => return self.open_quiz(ex.part),
            _ => {}
        }
        Vec::new()
    }
}

impl App {
    /// Columns and rows of the exercise's right pane. The build output and
    /// the reference solution take the whole width: code wrapped into a
    /// narrow pane is hard to read.
    pub(crate) fn pane_size(&self) -> (usize, usize) {
        let rows = self.body_rows();
        if !self.shows_case_list() {
            return (usize::from(self.size.0), rows);
        }
        (usize::from(self.size.0.saturating_sub(self.list_width() + 1)), rows)
    }

    /// Whether the exercise screen shows the case list beside its pane:
    /// not beside code (the build output, the solution), nor when the
    /// learner asked for the pane full-width (`w`).
    pub fn shows_case_list(&self) -> bool {
        !self.exercise.pane.is_wide() && !self.exercise.wide
    }

    /// Columns a case's name has in the case list ([`App::list_width`]
    /// less its mark, margins and border): a longer name is cut there,
    /// and shown whole at the top of the pane when chosen.
    pub fn case_name_room(&self) -> usize {
        usize::from(self.list_width()).saturating_sub(5)
    }

    /// Columns of text in the exercise's right pane (its margins off): the
    /// width its lines are laid out for.
    pub fn pane_text_width(&self) -> usize {
        self.pane_size().0.saturating_sub(2).max(10)
    }

    /// Width of the case list, borders included: wide enough for the open
    /// exercise's longest case name, at least [`LIST_WIDTH`], at most two
    /// fifths of the terminal (at 80 columns, 27 columns for a name: every
    /// case name of the course fits, a test holds them to it; at 70, a
    /// longer name is cut in the list and shown whole at the top of the
    /// pane when chosen).
    pub fn list_width(&self) -> u16 {
        use unicode_width::UnicodeWidthStr;
        let longest = self
            .course
            .exercises
            .get(self.exercise.index)
            .and_then(crate::check::checkers::of)
            .map_or(0, |c| c.cases.iter().map(|c| c.name.width()).max().unwrap_or(0));
        // "· " before the name, a margin each side, the border.
        let wanted = u16::try_from(longest + 5).unwrap_or(u16::MAX);
        wanted.clamp(LIST_WIDTH, (self.size.0 * 2 / 5).max(LIST_WIDTH))
    }

    /// Lays the right pane out again for what it shows now.
    pub(super) fn lay_out_pane(&mut self) {
        let (width, _) = self.pane_size();
        self.exercise.lines = pane::lay_out(self, width);
    }

    /// The furthest the right pane can scroll.
    pub(super) fn max_scroll(&self) -> usize {
        self.exercise.lines.len().saturating_sub(self.pane_size().1)
    }

    /// Takes the reference solution the runtime read.
    pub(super) fn solution_loaded(&mut self, solution: Solution) {
        let open = self.course.exercises.get(self.exercise.index);
        if open.is_some_and(|ex| ex.id == solution.exercise) {
            self.exercise.solution = Some(solution);
        }
    }
}

impl App {
    /// The failing case a hint is about, and that hint's number (from 1):
    /// the selected case if it fails, else the first failing one, when the
    /// exercise's `hint_for` names it.
    pub(crate) fn hint_for_failing(&self, ex: &crate::content::Exercise) -> Option<(usize, String)> {
        let report = self.exercise.report()?;
        let failing = |c: &&crate::check::CaseReport| c.status == Status::Failed;
        let case = self
            .exercise
            .selected_case()
            .filter(failing)
            .or_else(|| report.cases.iter().find(failing))?;
        ex.hint_for.get(&case.name).map(|&n| (n, case.name.clone()))
    }

    /// Reveals the exercise's next hint, or, when the failing case's hint
    /// ([`App::hint_for_failing`]) lies further on, every hint up to it
    /// (the ones skipped are about cases that pass); then scrolls the
    /// hints pane to the hint revealed last.
    fn reveal_hint(&mut self, ex: &crate::content::Exercise) -> Vec<Effect> {
        let before = self.progress.hints_shown(&ex.id);
        let mut shown = crate::actions::reveal_hint(&mut self.progress, ex);
        if let Some((n, _)) = self.hint_for_failing(ex)
            && n > shown
        {
            self.progress.exercise_mut(&ex.id).hints_shown = n;
            shown = n;
        }
        set_pane(&mut self.exercise, Pane::Hints);
        if shown == before {
            self.notice = Some("That is every hint: h shows them all.".into());
            self.exercise.scroll = usize::MAX / 2;
            return Vec::new();
        }
        let (width, _) = self.pane_size();
        let title = pane::hint_title(shown, ex.hints.len());
        self.exercise.scroll = pane::lay_out(self, width)
            .iter()
            .position(|l| l.text() == title)
            .unwrap_or(0);
        vec![Effect::SaveProgress]
    }
}

/// Shows the pane `pane` from its top, as the learner asked.
fn set_pane(v: &mut ExerciseView, pane: Pane) {
    v.pane = pane;
    v.scroll = 0;
    v.pinned = true;
}

/// Shows the selected case from its top.
fn show_case(v: &mut ExerciseView) {
    v.pane = Pane::Case;
    v.scroll = 0;
    v.pinned = false;
}
