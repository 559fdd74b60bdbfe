//! The server's HTTP loop. YOU DO NOT NEED TO EDIT THIS FILE: your work is
//! in `src/lib.rs`.
//!
//! It reads the command line into a [`Config`], listens on 127.0.0.1 only
//! (a local MCP server SHOULD bind localhost: 2026-07-28
//! basic/transports/streamable-http › Security & Endpoint), hands each HTTP
//! request to your `handle`, and sends back the response it returns. If
//! `handle` panics, the answer is a 500 whose body is
//! `{"harness":"panic",…}`, so the checker can tell you where.
//!
//! The checker starts it with every option below; the authorization server
//! and the upstream notes API are the checker's, on another loopback port.
//! By hand: `cargo run -p exercise-12-auth-gate -- --port 8765` (the
//! defaults below), then curl; without an authorization server on
//! 127.0.0.1:9000 every token is refused, as it should be.
//!
//! ```text
//! --port 8765                                       where to listen
//! --resource http://127.0.0.1:8765/mcp              this server's canonical URI
//! --authorization-server http://127.0.0.1:9000      the issuer it trusts
//! --client-id notes-mcp --client-secret …           its introspection credentials
//! --upstream http://127.0.0.1:9000/upstream         the notes API it calls
//! --upstream-token …                                its own credential there
//! ```

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own), so that a save rebuilds one crate, not two. What a stub
// leaves unused is not a mistake yet: no dead-code warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Config, HttpRequest, HttpResponse, handle};
use serde_json::json;
use tiny_http::{Header, Response, Server};

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// The configuration from the command line, with the defaults for a run by hand.
fn config() -> (u16, Config) {
    let mut args = std::env::args().skip(1);
    let mut port = 8765u16;
    let mut given: Vec<(String, String)> = Vec::new();
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_default();
        if arg == "--port" {
            port = value.parse().unwrap_or(port);
        } else if let Some(name) = arg.strip_prefix("--") {
            given.push((name.to_string(), value));
        }
    }
    let get = |name: &str, default: String| given.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or(default);
    let config = Config {
        resource: get("resource", format!("http://127.0.0.1:{port}/mcp")),
        authorization_server: get("authorization-server", "http://127.0.0.1:9000".into()),
        client_id: get("client-id", "notes-mcp".into()),
        client_secret: get("client-secret", "introspection-secret".into()),
        upstream: get("upstream", "http://127.0.0.1:9000/upstream".into()),
        upstream_token: get("upstream-token", "upstream-credential".into()),
    };
    (port, config)
}

fn main() {
    // Started by hand (`cargo run` here), it would wait for requests in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 12's harness: its checker drives it. Run `mcplings check 12`.");
    }
    std::panic::set_hook(Box::new(|info| {
        let message = match (info.payload().downcast_ref::<&str>(), info.payload().downcast_ref::<String>()) {
            (Some(s), _) => s.to_string(),
            (_, Some(s)) => s.clone(),
            _ => "panic".to_string(),
        };
        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
        eprintln!("panicked at {location}: {message}");
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some((message, location));
    }));
    let (port, config) = config();
    let server = match Server::http(("127.0.0.1", port)) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("cannot listen on 127.0.0.1:{port}: {e}");
            std::process::exit(1);
        }
    };
    eprintln!("MCP endpoint: {} (authorization server {})", config.resource, config.authorization_server);
    for mut request in server.incoming_requests() {
        let mut body = Vec::new();
        let _ = request.as_reader().read_to_end(&mut body);
        let http = HttpRequest {
            method: request.method().as_str().to_string(),
            path: request.url().to_string(),
            headers: request.headers().iter().map(|h| (h.field.as_str().as_str().to_string(), h.value.as_str().to_string())).collect(),
            body,
        };
        let response = catch_unwind(AssertUnwindSafe(|| handle(&http, &config))).unwrap_or_else(|_| {
            let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
            HttpResponse::json(500, &json!({"harness": "panic", "function": "handle", "message": message, "location": location}))
        });
        let mut reply = Response::from_data(response.body).with_status_code(response.status);
        for (name, value) in &response.headers {
            if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                reply.add_header(header);
            }
        }
        if let Err(e) = request.respond(reply) {
            eprintln!("cannot send the response: {e}");
        }
    }
}
