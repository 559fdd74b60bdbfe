//! What goes into [`App::update`](super::App::update) ([`Msg`]) and what
//! comes out ([`Effect`]): the runtime carries effects out and sends what
//! they find back as messages.

use ratatui::crossterm::event::KeyEvent;

use super::Solution;
use crate::check::{CheckReport, Event as CheckEvent};
use crate::progress::Progress;

/// Something the workbook reacts to.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A key was pressed.
    Key(KeyEvent),
    /// The terminal is now this many columns and rows.
    Resize(u16, u16),
    /// A running check made progress; `run` tells stale runs apart.
    Check {
        /// The run this event belongs to.
        run: u64,
        /// What happened.
        event: CheckEvent,
    },
    /// A check finished.
    CheckDone {
        /// The run that finished.
        run: u64,
        /// Its report.
        report: Box<CheckReport>,
    },
    /// A learner's file in `exercises/<id>` changed on disk.
    FileChanged(String),
    /// The progress file was written by another mcplings (the CLI, or a
    /// second workbook); this is what it now holds.
    ProgressChanged(Box<Progress>),
    /// File watching is not available; the reason is shown on screen.
    WatchFailed(String),
    /// The exercises' dependencies are being built in the background.
    Prebuilding,
    /// The background build of the exercises' dependencies ended.
    Prebuilt,
    /// `NO_COLOR` is set: draw, and check, without colours.
    NoColor,
    /// The terminal takes OSC 8 hyperlinks: spec citations become links
    /// ([`crate::text::cite::terminal_links`] decides).
    Links,
    /// The reference solution asked for by [`Effect::LoadSolution`].
    SolutionLoaded(Box<Solution>),
    /// Time passed (animates the spinner while a check runs).
    Tick,
    /// The workbook has started: reopen the screen the learner left
    /// (as the progress file's position says). Sent once by the runtime.
    Resume,
    /// Something the learner should know (a damaged progress file was
    /// recovered, say); shown in the footer until the next key.
    Notice(String),
    /// An effect could not be carried out; the message is shown.
    Failed(String),
}

/// A side effect for the runtime ([`crate::tui`]) to carry out.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Check the learner's crate for this exercise, as run number `run`.
    StartCheck {
        /// Exercise id.
        exercise: String,
        /// Run number, echoed in the resulting messages.
        run: u64,
    },
    /// Stop the running check.
    CancelCheck,
    /// Write the progress file.
    SaveProgress,
    /// Suspend the workbook and open this file in `$VISUAL`/`$EDITOR`.
    OpenEditor(Vec<std::path::PathBuf>),
    /// Restore the exercise's shipped stub.
    ResetExercise(String),
    /// Read this exercise's reference solution, and send it back as
    /// [`Msg::SolutionLoaded`].
    LoadSolution(String),
}
