//! `mcplings __relay SOCKET` (hidden): the server command a client
//! exercise is given. It joins its stdin and stdout to the checker's socket,
//! byte for byte, so the checker plays the server the client launched.

use std::io::{Read, Write};
use std::path::Path;

/// Relays until the checker closes the socket. Exit 0; 2 when the socket
/// cannot be reached.
#[cfg(unix)]
pub fn run(socket: &Path) -> Result<u8, String> {
    use std::os::unix::net::UnixStream;
    let stream =
        UnixStream::connect(socket).map_err(|e| format!("cannot reach the checker at {}: {e}", socket.display()))?;
    let mut to_checker = stream.try_clone().map_err(|e| e.to_string())?;
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut std::io::stdin().lock(), &mut to_checker);
        // The client closed our stdin: tell the checker.
        let _ = to_checker.shutdown(std::net::Shutdown::Write);
    });
    let mut from_checker = stream;
    let mut stdout = std::io::stdout().lock();
    let mut buf = [0u8; 64 << 10];
    loop {
        match from_checker.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if stdout.write_all(&buf[..n]).and_then(|_| stdout.flush()).is_err() {
                    break;
                }
            }
        }
    }
    Ok(0)
}

/// Not available: client exercises need Unix sockets.
#[cfg(not(unix))]
pub fn run(_socket: &Path) -> Result<u8, String> {
    Err("the relay needs Unix sockets (Linux or macOS)".into())
}
