//! The terminal runtime: sets the terminal up (and restores it, after a
//! panic too), feeds keys, file changes and check events into
//! [`App::update`] through one channel, draws after every message, and
//! carries out the [`Effect`]s: checks on a worker thread, progress saves,
//! the editor, resets, reading solutions. What an effect finds out goes
//! back to the app as a message, whose effects are carried out in turn.
//! The runtime never writes the app's state itself.

pub mod log_view;

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event};

use crate::app::{App, CheckState, Effect, Msg, Solution};
use crate::check::session::children;
use crate::check::{self, Options, Source};
use crate::content::Course;
use crate::progress;
use crate::watch::Change;

/// Set (to anything) in the environment, it makes the workbook panic right
/// after its first frame: how tests/terminal.rs proves that a panic gives
/// the terminal back (raw mode off, main screen, cursor shown).
pub const PANIC_ENV: &str = "MCPLINGS_TEST_PANIC";

/// Whether the workbook or a viewer holds the terminal (raw mode, the
/// alternate screen): what [`give_back_terminal`] undoes.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Takes the terminal for a full-screen view, as [`give_back_terminal`]
/// will know.
pub(crate) fn take_terminal() -> Result<DefaultTerminal, String> {
    let terminal = ratatui::try_init().map_err(|e| format!("cannot set up the terminal: {e}"))?;
    TAKEN.store(true, Ordering::SeqCst);
    Ok(terminal)
}

/// Gives the terminal back (cooked mode, the main screen, the cursor) if a
/// view holds it; nothing otherwise. Safe from any thread: how a signal
/// that ends mcplings leaves the learner's shell usable.
pub fn give_back_terminal() {
    if TAKEN.swap(false, Ordering::SeqCst) {
        ratatui::restore();
    }
}

/// How often the spinner moves while a check runs.
const TICK: Duration = Duration::from_millis(100);
/// How often the input thread looks up from waiting for keys to see whether
/// it should pause (an editor is about to own the terminal).
const INPUT_POLL: Duration = Duration::from_millis(250);
/// How long the loop sleeps when nothing runs: any message wakes it.
const IDLE: Duration = Duration::from_secs(3600);

const INPUT_RUNNING: u8 = 0;
const INPUT_PAUSE: u8 = 1;
const INPUT_PAUSED: u8 = 2;

/// What reaches the runtime's loop: a message for the app, or news only the
/// runtime acts on.
#[derive(Debug)]
enum Input {
    /// A message for [`App::update`].
    App(Msg),
    /// The progress file changed on disk (maybe by another mcplings). The
    /// runtime reads it and, if someone else wrote it, sends the app
    /// [`Msg::ProgressChanged`].
    ProgressFileChanged,
}

impl From<Msg> for Input {
    fn from(msg: Msg) -> Input {
        Input::App(msg)
    }
}

/// Opens the workbook on `course` and runs it until the learner quits.
///
/// Errors: the terminal could not be set up or drawn to.
pub fn run(course: Course) -> Result<(), String> {
    let progress_file = progress::path(&course.root);
    // Progress written against another version of the course first drops
    // what the course no longer has; the notes show as the first notice.
    let migrated = crate::actions::migrate_file(&course).unwrap_or_else(|e| vec![e]);
    let loaded = progress::load(&progress_file);
    let mut terminal = take_terminal()?;
    let result = (|| {
        let size = terminal.size().map_err(|e| e.to_string())?;
        let (tx, rx) = channel();
        let input = Arc::new(AtomicU8::new(INPUT_RUNNING));
        let mut runtime = Runtime {
            tx: tx.clone(),
            cancel: None,
            progress_file,
            input: Arc::clone(&input),
            known: loaded.progress.clone(),
        };
        let mut app = App::new(course, loaded.progress, (size.width, size.height))
            .with_quiz_seed(crate::content::quiz::run_seed());
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            runtime.dispatch(Msg::NoColor, &mut app, &mut terminal);
        }
        if crate::text::cite::terminal_links(|name| std::env::var(name).ok()) {
            runtime.dispatch(Msg::Links, &mut app, &mut terminal);
        }
        // Back where the learner left (a check starts if that is an exercise).
        runtime.dispatch(Msg::Resume, &mut app, &mut terminal);
        if let Some(warning) = loaded
            .warning
            .into_iter()
            .chain(migrated)
            .reduce(|a, b| format!("{a} {b}"))
        {
            runtime.dispatch(Msg::Notice(warning), &mut app, &mut terminal);
        }
        if std::env::var_os(PANIC_ENV).is_some() {
            terminal.draw(|f| crate::ui::draw(f, &app)).map_err(|e| e.to_string())?;
            panic!("{PANIC_ENV} is set: panicking on purpose after the first frame");
        }
        spawn_input(tx.clone(), input);
        let watcher_tx = tx.clone();
        let watched = crate::watch::start(&app.course.root, move |change| {
            let _ = watcher_tx.send(match change {
                Change::Exercise(id) => Input::App(Msg::FileChanged(id)),
                Change::ProgressFile => Input::ProgressFileChanged,
            });
        });
        let _watcher = match watched {
            Ok(w) => Some(w),
            Err(reason) => {
                runtime.dispatch(Msg::WatchFailed(reason), &mut app, &mut terminal);
                None
            }
        };
        let _prebuild = spawn_prebuild(&app.course, tx); // dropped on quit: cancelled
        runtime.dispatch(Msg::Prebuilding, &mut app, &mut terminal);
        run_loop(&mut terminal, &mut app, &rx, &mut runtime)
    })();
    give_back_terminal();
    result
}

fn run_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    rx: &Receiver<Input>,
    runtime: &mut Runtime,
) -> Result<(), String> {
    // Draw only after something happened: an idle workbook uses no CPU.
    let mut changed = true;
    while !app.quitting() {
        if changed {
            terminal.draw(|f| crate::ui::draw(f, app)).map_err(|e| e.to_string())?;
        }
        changed = false;
        // Ticks only while a check runs; otherwise sleep until a message.
        let running = matches!(app.exercise.check, CheckState::Running { .. });
        let input = match rx.recv_timeout(if running { TICK } else { IDLE }) {
            Ok(input) => input,
            // Ticks move the spinner of a running check.
            Err(RecvTimeoutError::Timeout) if running => Input::App(Msg::Tick),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let msg = match input {
            Input::App(msg) => msg,
            Input::ProgressFileChanged => match runtime.progress_file_changed() {
                Some(msg) => msg,
                None => continue, // our own write, or nothing readable
            },
        };
        changed = true;
        runtime.dispatch(msg, app, terminal);
    }
    runtime.cancel();
    Ok(())
}

/// Applies `msg` to `app`, and each effect through `apply`; the messages
/// `apply` answers with are applied in turn (in order), and their effects
/// carried out, until none is left.
fn drain(app: &mut App, msg: Msg, mut apply: impl FnMut(Effect, &App) -> Vec<Msg>) {
    let mut queue = VecDeque::from([msg]);
    while let Some(msg) = queue.pop_front() {
        for effect in app.update(msg) {
            queue.extend(apply(effect, app));
        }
    }
}

/// Builds the exercises' dependencies on a thread of its own, so that the
/// first check compiles only the learner's crate. A check started
/// meanwhile waits for cargo's lock, then finds the dependencies built.
fn spawn_prebuild(course: &Course, tx: Sender<Input>) -> check::build::Prebuild {
    let packages: Vec<String> = course.exercises.iter().map(|e| e.package()).collect();
    check::build::Prebuild::start(
        &course.root,
        packages,
        check::course_target_dir(&course.root),
        move |_| {
            let _ = tx.send(Input::App(Msg::Prebuilt));
        },
    )
}

/// Reads terminal events on a thread of its own. It can be paused (while
/// an editor owns the terminal) through `state`.
fn spawn_input(tx: Sender<Input>, state: Arc<AtomicU8>) {
    thread::spawn(move || {
        loop {
            if state.load(Ordering::Acquire) != INPUT_RUNNING {
                state.store(INPUT_PAUSED, Ordering::Release);
                while state.load(Ordering::Acquire) != INPUT_RUNNING {
                    thread::sleep(Duration::from_millis(10));
                }
                continue;
            }
            match event::poll(INPUT_POLL) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => return,
            }
            let msg = match event::read() {
                Ok(Event::Key(key)) => Msg::Key(key),
                Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                Ok(_) => continue,
                Err(_) => return,
            };
            if tx.send(Input::App(msg)).is_err() {
                return;
            }
        }
    });
}

struct Runtime {
    tx: Sender<Input>,
    cancel: Option<Arc<AtomicBool>>,
    progress_file: std::path::PathBuf,
    input: Arc<AtomicU8>,
    /// The progress file as this workbook last read or wrote it: the base
    /// its own changes are measured from when it saves, and how it tells
    /// its own writes from others'.
    known: crate::progress::Progress,
}

impl Runtime {
    fn cancel(&mut self) {
        if let Some(flag) = self.cancel.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Applies `msg` to the app, then every effect that follows from it:
    /// the messages effects answer with are applied in turn, and so are
    /// their effects, until none is left.
    fn dispatch(&mut self, msg: Msg, app: &mut App, terminal: &mut DefaultTerminal) {
        drain(app, msg, |effect, app| self.apply(effect, app, terminal));
    }

    /// Reads the progress file after a change on disk: the message for the
    /// app if someone else wrote it. Read now, not when the event fired:
    /// our own latest save may have come in between.
    fn progress_file_changed(&mut self) -> Option<Msg> {
        match progress::read(&self.progress_file) {
            Some(p) if p != self.known => {
                self.known = p.clone();
                Some(Msg::ProgressChanged(Box::new(p)))
            }
            _ => None,
        }
    }

    /// Carries out one effect; returns what the app should hear of it.
    fn apply(&mut self, effect: Effect, app: &App, terminal: &mut DefaultTerminal) -> Vec<Msg> {
        let mut answers = Vec::new();
        match effect {
            Effect::StartCheck { exercise, run } => {
                self.cancel();
                let flag = Arc::new(AtomicBool::new(false));
                self.cancel = Some(Arc::clone(&flag));
                let course = app.course.clone();
                let tx = self.tx.clone();
                let color = !app.no_color;
                let send = move |msg: Msg| {
                    let _ = tx.send(Input::App(msg));
                };
                thread::spawn(move || {
                    let Some(ex) = course.exercise(&exercise) else { return };
                    let options = Options {
                        color,
                        cancel: Some(flag),
                        ..Options::default()
                    };
                    let report = check::check(&course, ex, &Source::Exercise, &options, &mut |event| {
                        send(Msg::Check { run, event });
                    });
                    send(Msg::CheckDone {
                        run,
                        report: Box::new(report),
                    });
                });
            }
            Effect::CancelCheck => self.cancel(),
            Effect::SaveProgress => match progress::save(&self.progress_file, &self.known, &app.progress) {
                Ok(saved) => {
                    self.known = saved.progress.clone();
                    if saved.progress != app.progress {
                        // Another mcplings saved too: show the merged whole.
                        answers.push(Msg::ProgressChanged(Box::new(saved.progress)));
                    }
                    answers.extend(saved.warning.map(Msg::Notice));
                }
                Err(e) => answers.push(Msg::Failed(format!(
                    "cannot save progress to {}: {e}",
                    self.progress_file.display()
                ))),
            },
            Effect::ResetExercise(id) => {
                if let Some(ex) = app.course.exercise(&id)
                    && let Err(e) = crate::actions::reset_files(&app.course, ex)
                {
                    answers.push(Msg::Failed(e));
                }
            }
            Effect::OpenEditor(paths) => {
                if let Err(e) = self.edit(&paths, terminal) {
                    answers.push(Msg::Failed(e));
                }
            }
            Effect::LoadSolution(id) => {
                if let Some(ex) = app.course.exercise(&id) {
                    let files = crate::actions::read_solution(&app.course, ex);
                    answers.push(Msg::SolutionLoaded(Box::new(Solution { exercise: id, files })));
                }
            }
        }
        answers
    }

    /// Hands the terminal to `$VISUAL`/`$EDITOR` on `paths` (every file
    /// of the exercise, the first one shown first), then takes it back.
    fn edit(&mut self, paths: &[std::path::PathBuf], terminal: &mut DefaultTerminal) -> Result<(), String> {
        let editor = ["VISUAL", "EDITOR"]
            .iter()
            .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()));
        let Some(editor) = editor else {
            let cwd = std::env::current_dir().ok();
            let shown: Vec<String> = paths
                .iter()
                .map(|p| {
                    cwd.as_ref()
                        .and_then(|d| p.strip_prefix(d).ok())
                        .unwrap_or(p)
                        .display()
                        .to_string()
                })
                .collect();
            return Err(format!("No $EDITOR set: edit {} in your editor.", shown.join(" and ")));
        };
        self.input.store(INPUT_PAUSE, Ordering::Release);
        for _ in 0..50 {
            if self.input.load(Ordering::Acquire) == INPUT_PAUSED {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        give_back_terminal();
        // Through the shell, so that EDITOR="code --wait" works; registered
        // (in our own group, for the terminal), so a signal that ends the
        // workbook ends the editor too.
        let editor_command = format!("{editor} \"$@\"");
        let status = children::spawn("sh".as_ref(), children::Kind::Single, |c| {
            c.arg("-c").arg(&editor_command).arg("sh").args(paths);
        })
        .and_then(|mut child| {
            let status = child.wait();
            children::release(child.id());
            status
        });
        *terminal = take_terminal().unwrap_or_else(|_| ratatui::init());
        let _ = terminal.clear();
        self.input.store(INPUT_RUNNING, Ordering::Release);
        match status {
            Ok(s) if s.success() => Ok(()),
            Ok(s) => Err(format!("{editor} exited with {s}")),
            Err(e) => Err(format!("cannot run {editor}: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::progress::Progress;

    /// The effects of a message that answers an effect are carried out
    /// too: here a save is answered by a change to the open exercise's
    /// file, whose check is started and the running one cancelled.
    #[test]
    fn effects_of_answers_are_carried_out() {
        let course = Course::load(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
            &check::checkers::names(),
        )
        .expect("the course loads");
        let mut app = App::new(course, Progress::default(), (80, 24));
        let mut applied = Vec::new();
        let key = Msg::Key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE));
        drain(&mut app, key, |effect, _| {
            let answers = match &effect {
                Effect::SaveProgress if applied.is_empty() => vec![Msg::FileChanged("01-encode-frames".into())],
                _ => Vec::new(),
            };
            applied.push(effect);
            answers
        });
        let start = |run| Effect::StartCheck {
            exercise: "01-encode-frames".into(),
            run,
        };
        assert_eq!(
            applied,
            vec![Effect::SaveProgress, start(1), Effect::CancelCheck, start(2)]
        );
    }
}
