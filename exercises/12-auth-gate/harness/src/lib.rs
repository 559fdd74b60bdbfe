//! The checker's harness for exercise 12: the server's HTTP loop. YOU DO
//! NOT NEED TO EDIT THIS CRATE: your work is in `src/lib.rs`.
//!
//! It reads the command line into a [`Settings`] (your `Config`), listens on
//! 127.0.0.1 only (a local MCP server SHOULD bind localhost: 2026-07-28
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
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your `handle` to [`Learner`]
//! (the configuration, requests and responses travel as [`Settings`],
//! [`Request`] and [`Response`], the types of `src/lib.rs` being yours).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use serde_json::json;
use tiny_http::{Header, Server};

/// What the command line told this server (your `Config`'s fields).
pub struct Settings {
    /// This server's canonical URI, e.g. `http://127.0.0.1:8765/mcp`.
    pub resource: String,
    /// The authorization server (its issuer), e.g. `http://127.0.0.1:9000`.
    pub authorization_server: String,
    /// This server's client id at the authorization server, for introspection.
    pub client_id: String,
    /// Its client secret there.
    pub client_secret: String,
    /// The upstream notes API, e.g. `http://127.0.0.1:9000/upstream`.
    pub upstream: String,
    /// This server's own credential for the upstream API.
    pub upstream_token: String,
}

/// One HTTP request, as the harness read it (your `HttpRequest`'s fields).
pub struct Request {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path, e.g. `/mcp` (a query string stays attached).
    pub path: String,
    /// Every header as (name, value), names as sent.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

/// One HTTP response for the harness to send (your `HttpResponse`'s fields).
pub struct Response {
    /// The status code, e.g. 200.
    pub status: u16,
    /// Headers to send, e.g. ("Content-Type", "application/json").
    pub headers: Vec<(String, String)>,
    /// The body; empty for none.
    pub body: Vec<u8>,
}

/// The learner's function, as `src/main.rs` hands it over.
pub trait Learner {
    /// Keeps the configuration, once, before the first request.
    fn configure(&mut self, settings: Settings);
    /// `handle(request, config)`.
    fn handle(&mut self, request: Request) -> Response;
}

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// The configuration from the command line, with the defaults for a run by hand.
fn config() -> (u16, Settings) {
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
    let get =
        |name: &str, default: String| given.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or(default);
    let config = Settings {
        resource: get("resource", format!("http://127.0.0.1:{port}/mcp")),
        authorization_server: get("authorization-server", "http://127.0.0.1:9000".into()),
        client_id: get("client-id", "notes-mcp".into()),
        client_secret: get("client-secret", "introspection-secret".into()),
        upstream: get("upstream", "http://127.0.0.1:9000/upstream".into()),
        upstream_token: get("upstream-token", "upstream-credential".into()),
    };
    (port, config)
}

/// Runs the server until the process is stopped.
pub fn run(learner: &mut dyn Learner) {
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
    learner.configure(config);
    for mut request in server.incoming_requests() {
        let mut body = Vec::new();
        let _ = request.as_reader().read_to_end(&mut body);
        let http = Request {
            method: request.method().as_str().to_string(),
            path: request.url().to_string(),
            headers: request
                .headers()
                .iter()
                .map(|h| (h.field.as_str().as_str().to_string(), h.value.as_str().to_string()))
                .collect(),
            body,
        };
        let response = catch_unwind(AssertUnwindSafe(|| learner.handle(http))).unwrap_or_else(|_| {
            let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
            // What `HttpResponse::json(500, …)` makes of the report.
            let report = json!({"harness": "panic", "function": "handle", "message": message, "location": location});
            Response {
                status: 500,
                headers: vec![("Content-Type".into(), "application/json".into())],
                body: report.to_string().into_bytes(),
            }
        });
        let mut reply = tiny_http::Response::from_data(response.body).with_status_code(response.status);
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
