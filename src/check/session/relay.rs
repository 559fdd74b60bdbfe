//! The client relay: starting a learner's client, which (like every MCP
//! host) is given a server command and launches it. That command is
//! `mcplings __relay SOCKET`, which joins the server's stdin and stdout to
//! a socket the session holds, so the checker plays the server. The
//! client's own stdout is read apart as its report
//! ([`Session::recv_output`]).

use std::path::Path;
#[cfg(unix)]
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
#[cfg(unix)]
use std::sync::atomic::Ordering;
use std::time::Duration;
#[cfg(unix)]
use std::time::Instant;

use super::conversation::Session;
#[cfg(unix)]
use super::conversation::{owned, start};
#[cfg(unix)]
use super::pipes::{Capture, Limits, Lines, read_lines};
#[cfg(unix)]
use super::slack;
use super::stop::Stop;

/// How long a client that exited is given for the relay it launched to
/// connect (it may have done so just before exiting).
#[cfg(unix)]
const RELAY_GRACE: Duration = Duration::from_millis(200);

impl Session {
    /// Starts the client `program` with `args`, then the server command
    /// `relay __relay SOCKET` as its last arguments (`relay` is the mcplings
    /// binary), and waits for the client to launch that server. From then
    /// on [`Session::send`] and [`Session::recv`] speak as the server.
    ///
    /// A client that exits without launching the server still gets a
    /// session: reading frames from it stops with [`Stop::Exited`], and its
    /// report can be read with [`Session::recv_output`].
    ///
    /// Errors: [`Stop::Timeout`] when the client neither launches the server
    /// nor exits in time.
    #[cfg(unix)]
    pub fn spawn_client(
        program: &Path,
        args: &[&str],
        relay: &Path,
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Session, Stop> {
        use std::os::unix::net::UnixListener;
        let dir = tempfile::Builder::new()
            .prefix("mcplings-relay-")
            .tempdir()
            .map_err(|e| Stop::Io(e.to_string()))?;
        let socket = dir.path().join("server.sock");
        let listener =
            UnixListener::bind(&socket).map_err(|e| Stop::Io(format!("cannot listen on {}: {e}", socket.display())))?;
        listener.set_nonblocking(true).map_err(|e| Stop::Io(e.to_string()))?;
        let mut argv = owned(args);
        argv.extend([
            relay.display().to_string(),
            "__relay".to_string(),
            socket.display().to_string(),
        ]);
        let mut process = start(program, &argv, Stdio::null())?;
        let captured = Capture::stderr();
        let output = process.take_stdout().ok_or_else(|| Stop::Io("no stdout pipe".into()))?;
        let output = read_lines(output, Limits::PROGRAM);
        if let Some(stderr) = process.take_stderr() {
            captured.read(stderr);
        }
        let scale = slack::scale();
        let deadline = Instant::now() + slack::stretch(timeout, scale);
        let mut exited_at: Option<Instant> = None;
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break Some(stream),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(Stop::Io(format!("cannot accept the server's connection: {e}"))),
            }
            if cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(Stop::Cancelled);
            }
            // A client that exits at once may still have launched the relay,
            // which connects a moment later; give it that moment. If it never
            // connects, the session has no server side: reading from it says
            // how the client ended, and its report is still there to read.
            if exited_at.is_none() && process.try_exit().is_some() {
                exited_at = Some(Instant::now());
            }
            if exited_at.is_some_and(|at| at.elapsed() > slack::stretch(RELAY_GRACE, scale)) {
                break None;
            }
            if Instant::now() >= deadline {
                return Err(Stop::Timeout(timeout));
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let mut session = match stream {
            Some(stream) => {
                stream.set_nonblocking(false).map_err(|e| Stop::Io(e.to_string()))?;
                let reader = stream.try_clone().map_err(|e| Stop::Io(e.to_string()))?;
                let frames = read_lines(reader, Limits::PROGRAM);
                Session::new(process, Some(Box::new(stream)), frames, captured, timeout, cancel)
            }
            None => Session::new(process, None, Lines::ended(), captured, timeout, cancel),
        };
        session._socket_dir = Some(dir);
        session.output = Some(output);
        Ok(session)
    }

    /// Client exercises need Unix sockets.
    #[cfg(not(unix))]
    pub fn spawn_client(
        _program: &Path,
        _args: &[&str],
        _relay: &Path,
        _timeout: Duration,
        _cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Session, Stop> {
        Err(Stop::Io("client exercises need Unix sockets (Linux or macOS)".into()))
    }
}
