//! The check engine's client shape: a learner's client launches the server
//! command it is given (`mcplings __relay SOCKET`), and the checker plays
//! that server through the socket, recording every frame.

#![cfg(unix)]

use std::path::Path;
use std::time::{Duration, Instant};

use mcplings::check::session::{Session, Stop, slack};
use mcplings::check::{Direction, EntryKind};
use serde_json::json;

fn relay() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_mcplings"))
}

/// A stand-in client in sh: it launches the server command from its
/// arguments, sends it one request, and prints what comes back.
const CLIENT: &str = r#"printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | "$@""#;

#[test]
fn the_checker_plays_the_server_a_client_launches() {
    let mut s = Session::spawn_client(
        Path::new("sh"),
        &["-c", CLIENT, "client"],
        relay(),
        Duration::from_secs(5),
        None,
    )
    .expect("the client launches the relay");
    let request = s.recv().expect("the client's request arrives");
    assert_eq!(request.value, json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}));
    s.send_json(&json!({"jsonrpc":"2.0","id":1,"result":{"tools":[]}}))
        .unwrap();
    // The client printed the server's answer on its own stdout: its report.
    let printed = s
        .recv_output(Duration::from_secs(2))
        .expect("no stop")
        .expect("a report line");
    assert_eq!(printed.value, json!({"jsonrpc":"2.0","id":1,"result":{"tools":[]}}));
    let finished = s.finish();
    let dirs: Vec<(Direction, EntryKind)> = finished.transcript.iter().map(|e| (e.dir, e.kind)).collect();
    assert_eq!(
        dirs,
        [
            (Direction::FromLearner, EntryKind::Frame),
            (Direction::ToLearner, EntryKind::Frame),
            (Direction::FromLearner, EntryKind::Harness)
        ]
    );
    assert_eq!(finished.transcript[0].id, Some(json!(1)));
}

#[test]
fn a_client_that_never_launches_its_server_is_reported_at_once() {
    let started = Instant::now();
    let mut s = Session::spawn_client(
        Path::new("sh"),
        &["-c", "echo '{\"said\":\"no server for me\"}'", "client"],
        relay(),
        Duration::from_secs(5),
        None,
    )
    .expect("a session without a server side");
    let stop = s.recv().expect_err("no frame");
    assert!(
        matches!(stop, Stop::Exited(Some(status)) if status.success()),
        "{stop:?}"
    );
    // What the client printed before it left is still there to read.
    let printed = s
        .recv_output(Duration::from_secs(1))
        .expect("no stop")
        .expect("its report");
    assert_eq!(printed.value, json!({"said": "no server for me"}));
    // The relay's grace stretches with the load: so does the bound.
    assert!(started.elapsed() < slack::stretch(Duration::from_secs(2), slack::scale()));
}

#[test]
fn a_client_that_hangs_before_launching_is_stopped_at_the_timeout() {
    let started = Instant::now();
    let stop = Session::spawn_client(
        Path::new("sh"),
        &["-c", "sleep 30", "client"],
        relay(),
        Duration::from_millis(300),
        None,
    )
    .err()
    .expect("no session");
    assert!(matches!(stop, Stop::Timeout(_)), "{stop:?}");
    // The 300 ms timeout stretches with the load (up to ×8): so does the bound.
    assert!(started.elapsed() < slack::stretch(Duration::from_secs(2), slack::scale()));
}
