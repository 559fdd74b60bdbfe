//! How mcplings ends on SIGINT, SIGTERM and SIGHUP (Ctrl-C outside the
//! workbook, `kill`, a closed terminal): every child it owns is killed
//! (`check::session::children::kill_all`: the registered process groups,
//! then whatever was reparented to it), the terminal is given back if the
//! workbook or a viewer took it, and it exits with 128 + the signal's
//! number (130, 143, 129), as a shell reports a program a signal ended.
//!
//! `wire` handles the three itself (it forwards them to its server), and
//! the hidden `__relay` and `__exec` steps keep the default: they die.

use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::Command;
use crate::check::session::children;

/// Whether `command` starts processes mcplings must own: then the binary
/// asks for their death with its own and adopts their orphans
/// ([`children::guard`]).
pub fn owns_children(command: Option<&Command>) -> bool {
    matches!(
        command,
        None | Some(Command::Check { .. } | Command::Doctor { .. } | Command::Verify { .. })
            | Some(Command::Wire { view: None, .. })
    )
}

/// Whether `command` ends through [`end_on_signals`] (every command but
/// the `wire` tap, which forwards the signals, and the relay).
pub fn ends_on_signals(command: Option<&Command>) -> bool {
    !matches!(command, Some(Command::Wire { view: None, .. } | Command::Relay { .. }))
}

/// Set once a signal is being handled: mcplings ends with 128 + n.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Listens for SIGINT, SIGTERM and SIGHUP on a thread of its own; on the
/// first, kills every child, gives the terminal back and exits 128 + n.
///
/// Errors: the handlers could not be installed.
pub fn end_on_signals() -> Result<(), String> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).map_err(|e| format!("cannot listen for signals: {e}"))?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            ENDING.store(true, Ordering::SeqCst);
            children::kill_all();
            crate::tui::give_back_terminal();
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Once a signal is being handled, never returns: the command's own end
/// (a check whose cases were killed under it, a doctor that could not
/// start its server again) must not print its report or exit with its
/// code before the signal's exit; the thread handling it exits soon.
pub fn hold_if_ending() {
    while ENDING.load(Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
