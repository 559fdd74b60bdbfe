//! The process layer: running a child and talking to it. A learner's
//! program is a child process the checker talks to in newline-delimited
//! JSON, as MCP peers talk over stdio (2025-11-25 basic/transports › stdio);
//! cargo, for a build or the prebuild, is one too.
//!
//! Layers, top down (each file uses only those below it):
//!
//! - `conversation.rs`, `reading.rs`, `relay.rs`: the conversation API a
//!   case uses, [`Session`]. [`Session::spawn`] starts a server (or an
//!   exercise harness): the checker writes to its stdin and reads its
//!   stdout. [`Session::spawn_client`] starts a client and gives it
//!   `mcplings __relay SOCKET` as its server command, so the checker plays
//!   the server. [`Session::spawn_http`] starts an HTTP server on a free
//!   loopback port. Every line either way is recorded in a transcript
//!   (`transcript.rs`) with its direction, its JSON-RPC id and its time.
//! - `slack.rs`: how much upper time bounds stretch on a loaded machine
//!   (`MCPLINGS_TIME_SCALE`, else the load average per core); the session
//!   applies it to its deadline and every window it waits.
//! - `stop.rs`: why a conversation stopped early ([`Stop`]), with the plain
//!   reason a learner reads.
//! - `pipes.rs`: a child's pipes, each served by a thread: a [`Writer`], a
//!   capped line reader ([`read_lines`]) and a capped [`Capture`].
//! - `process.rs`: [`Process`], a child in a process group of its own, so a
//!   timeout, a cancel or a drop kills the whole tree.
//! - `children.rs`: the register of every child mcplings owns: what a
//!   signal kills ([`children::kill_all`]), the orphans reaped at the end of
//!   a run ([`children::reap_orphans`]), and, in the binary, the
//!   parent-death signal and the subreaper ([`children::guard`]).
//!
//! Output is capped: a line at [`MAX_LINE`] bytes, the whole stdout at
//! [`MAX_STDOUT`], stderr at [`MAX_STDERR`] (its first and last halves, the
//! middle replaced by a note). At most [`QUEUED_LINES`] stdout lines wait
//! unread, so a program that floods short lines blocks on its own pipe
//! instead of filling our memory. Writes to the program give up at the
//! case's deadline, so one that stops reading its stdin cannot block the
//! check; a program that exits while a process it started still holds its
//! stdout open is seen to have exited, not to hang.
//!
//! A session owns its process, its pipes' threads and its deadline, and
//! shares nothing with another but the cancel flag both may watch: a
//! check's cases can run side by side, each on a thread of its own.

pub mod children;
mod conversation;
mod finished;
mod pipes;
mod process;
mod reading;
mod relay;
pub mod slack;
mod stop;
mod transcript;

pub use conversation::{Received, Session};
pub use finished::Finished;
pub use pipes::{
    Capture, Limits, Lines, MAX_LINE, MAX_STDERR, MAX_STDOUT, Out, QUEUED_LINES, Writer, Written, read_lines,
};
pub use process::{Process, Waited};
pub use stop::Stop;
pub(crate) use stop::part_of_a_spread_message;
pub use transcript::{MAX_TRANSCRIPT, TRANSCRIPT_TAIL};

/// A session can move to the thread that runs its case.
const _: () = {
    const fn send<T: Send>() {}
    send::<Session>();
};
