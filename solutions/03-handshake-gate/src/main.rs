//! The server's stdio loop (2025-11-25 basic/transports › stdio): one
//! JSON-RPC message per line on stdin, one per line on stdout, logs on
//! stderr. The server runs until its client closes stdin.

use std::io::{BufRead, Write};

use handshake_gate::Server;
use serde_json::{Value, json};

fn main() {
    let mut server = Server::new();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            // End of input: the client is done with us.
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("cannot read stdin: {e}");
                break;
            }
        }
        let text = line.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(text) {
            Ok(message) => server.handle(&message),
            // The id can't be read, so the error response has none.
            Err(e) => {
                eprintln!("not JSON ({e}): {text}");
                Some(json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}}))
            }
        };
        if let Some(reply) = reply
            && writeln!(stdout, "{reply}").and_then(|_| stdout.flush()).is_err()
        {
            break;
        }
    }
}
