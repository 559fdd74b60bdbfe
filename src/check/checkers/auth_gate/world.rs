//! What 12's server talks to, played by the checker on the session's peer
//! port: an authorization server (RFC 8414 metadata at
//! `/.well-known/oauth-authorization-server`, an RFC 7662 introspection
//! endpoint at `/introspect` that requires this server's client
//! credentials) and the upstream notes API (`/upstream/notes`, which takes
//! only the server's own credential). A case mints the tokens it sends
//! ([`World::mint`]); the introspection endpoint answers with their claims.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::check::session::{Session, Stop};
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_service::{Service, ServiceReply, ServiceRequest};

/// The server's client id at the authorization server (for introspection).
pub(super) const CLIENT_ID: &str = "notes-mcp";
/// Its client secret there.
pub(super) const CLIENT_SECRET: &str = "introspect-3e9f";
/// The server's own credential at the upstream notes API.
pub(super) const UPSTREAM_TOKEN: &str = "upstream-cred-41ac";
/// A live token for the server, sent in the query string by the cases
/// that put a token there (its claims are minted in [`World::start`]).
pub(super) const QUERY_TOKEN: &str = "query-token-5d2b";
/// The endpoint with [`QUERY_TOKEN`] in its query string.
pub(super) const QUERY_PATH: &str = "/mcp?access_token=query-token-5d2b";

/// The program's arguments: `{port}` and `{peer}` are filled in by the
/// session (the server's port, and the port of this world).
pub(super) const ARGS: &[&str] = &[
    "--resource",
    "http://127.0.0.1:{port}/mcp",
    "--authorization-server",
    "http://127.0.0.1:{peer}",
    "--client-id",
    CLIENT_ID,
    "--client-secret",
    CLIENT_SECRET,
    "--upstream",
    "http://127.0.0.1:{peer}/upstream",
    "--upstream-token",
    UPSTREAM_TOKEN,
];

/// How the introspection endpoint fails, when a case breaks it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
pub(super) enum Outage {
    /// It works.
    Working = 0,
    /// It answers 500 with no claims.
    Error = 1,
    /// The metadata names an endpoint where nothing listens (port 1).
    Unreachable = 2,
}

/// The authorization server and the notes API of one case.
pub(super) struct World {
    service: Service,
    tokens: Arc<Mutex<HashMap<String, Value>>>,
    outage: Arc<AtomicU8>,
    /// The server's canonical URI, `http://127.0.0.1:<port>/mcp`.
    pub(super) resource: String,
    /// Where its Protected Resource Metadata is (RFC 9728 §3.1).
    pub(super) metadata_url: String,
    /// The note the notes API holds, different in every case.
    pub(super) note: String,
}

/// Seconds since the epoch.
pub(super) fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl World {
    /// Starts serving the session's peer port.
    pub(super) fn start(s: &mut Session) -> Result<World, Failure> {
        let port = s.port().unwrap_or(0);
        let listener = s
            .take_peer()
            .ok_or_else(|| Stop::Io("this session has no peer port for the authorization server".into()))?;
        let issuer = format!("http://{}", listener.local_addr().map_err(|e| Stop::Io(e.to_string()))?);
        let resource = format!("http://127.0.0.1:{port}/mcp");
        let note = format!("water the plants ({})", random_hex());
        let tokens = Arc::new(Mutex::new(HashMap::new()));
        let outage = Arc::new(AtomicU8::new(Outage::Working as u8));
        let (handler_tokens, handler_issuer, handler_note) = (tokens.clone(), issuer.clone(), note.clone());
        let handler_outage = outage.clone();
        let handler = move |r: &ServiceRequest| {
            let tokens = handler_tokens.lock().unwrap_or_else(|e| e.into_inner());
            answer(
                r,
                &handler_issuer,
                &tokens,
                &handler_note,
                handler_outage.load(Ordering::SeqCst),
            )
        };
        let service = Service::serve(listener, Box::new(handler)).map_err(|e| Stop::Io(e.to_string()))?;
        let world = World {
            service,
            tokens,
            outage,
            metadata_url: format!("http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"),
            resource,
            note,
        };
        world.mint_as(QUERY_TOKEN, world.claims("notes:read notes:write"));
        Ok(world)
    }

    /// The issuer, `http://127.0.0.1:<peer>`.
    pub(super) fn issuer(&self) -> String {
        self.service.origin()
    }

    /// The claims of a live token for this server with `scope`: active, for
    /// its canonical URI, expiring in an hour.
    pub(super) fn claims(&self, scope: &str) -> Value {
        json!({"active": true, "client_id": "notes-app", "scope": scope, "aud": self.resource, "iss": self.issuer(), "sub": "ada", "exp": now() + 3600, "iat": now(), "token_type": "Bearer"})
    }

    /// A new token whose introspection answers `claims`.
    pub(super) fn mint(&self, claims: Value) -> String {
        let token = format!("at-{}", random_hex());
        self.mint_as(&token, claims);
        token
    }

    /// A live token for this server with `scope` ([`World::claims`]).
    pub(super) fn token(&self, scope: &str) -> String {
        self.mint(self.claims(scope))
    }

    fn mint_as(&self, token: &str, claims: Value) {
        self.tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(token.to_string(), claims);
    }

    /// Makes the introspection endpoint fail as `outage` says, from the
    /// next request on. A case breaks it before its first request, so a
    /// server that keeps the metadata it read first sees the outage too.
    pub(super) fn break_introspection(&self, outage: Outage) {
        self.outage.store(outage as u8, Ordering::SeqCst);
    }

    /// The requests that reached `route` so far.
    pub(super) fn requests_to(&self, route: &str) -> Vec<ServiceRequest> {
        self.service
            .requests()
            .into_iter()
            .filter(|r| r.route() == route)
            .collect()
    }
}

/// 64 random bits in hex (std's hasher keys are random per process and per
/// `RandomState`).
fn random_hex() -> String {
    format!("{:016x}", RandomState::new().hash_one(SystemTime::now()))
}

/// `Basic base64(CLIENT_ID:CLIENT_SECRET)`, what the introspection
/// endpoint accepts (RFC 6749 §2.3.1; these have nothing to percent-encode).
pub(super) fn client_basic() -> String {
    format!(
        "Basic {}",
        crate::mcp::header_value::base64(format!("{CLIENT_ID}:{CLIENT_SECRET}").as_bytes())
    )
}

/// The world's answer to one request; `outage` is an [`Outage`] as a byte.
fn answer(r: &ServiceRequest, issuer: &str, tokens: &HashMap<String, Value>, note: &str, outage: u8) -> ServiceReply {
    let upstream_ok = r.header("Authorization") == Some(&format!("Bearer {UPSTREAM_TOKEN}"));
    let introspection_endpoint = if outage == Outage::Unreachable as u8 {
        "http://127.0.0.1:1/introspect".to_string()
    } else {
        format!("{issuer}/introspect")
    };
    match (r.method.as_str(), r.route()) {
        ("GET", "/.well-known/oauth-authorization-server") => ServiceReply::json(
            200,
            &json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "introspection_endpoint": introspection_endpoint,
                "introspection_endpoint_auth_methods_supported": ["client_secret_basic"],
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
            }),
        ),
        ("POST", "/introspect") if r.header("Authorization") != Some(client_basic().as_str()) => {
            let mut reply = ServiceReply::json(401, &json!({"error": "invalid_client"}));
            reply
                .headers
                .push(("WWW-Authenticate".into(), "Basic realm=\"introspection\"".into()));
            reply
        }
        ("POST", "/introspect") if outage == Outage::Error as u8 => {
            ServiceReply::json(500, &json!({"error": "server_error"}))
        }
        ("POST", "/introspect") => {
            let form = r.form();
            let token = form.iter().find(|(n, _)| n == "token").map(|(_, v)| v.as_str());
            let claims = token.and_then(|t| tokens.get(t)).cloned();
            ServiceReply::json(200, &claims.unwrap_or_else(|| json!({"active": false})))
        }
        (_, "/upstream/notes") if !upstream_ok => ServiceReply::json(401, &json!({"error": "invalid_token"})),
        ("GET", "/upstream/notes") => ServiceReply::json(200, &json!({"notes": [note]})),
        ("POST", "/upstream/notes") => ServiceReply::json(200, &json!({"saved": true})),
        _ => ServiceReply::json(404, &json!({"error": "not found"})),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_path_carries_the_query_token() {
        assert_eq!(QUERY_PATH.strip_prefix("/mcp?access_token="), Some(QUERY_TOKEN));
    }

    #[test]
    fn base64_pads_like_the_standard() {
        assert_eq!(
            crate::mcp::header_value::base64(b"notes-mcp:introspect-3e9f"),
            "bm90ZXMtbWNwOmludHJvc3BlY3QtM2U5Zg=="
        );
        assert_eq!(crate::mcp::header_value::base64(b"ab"), "YWI=");
        assert_eq!(crate::mcp::header_value::base64(b"abc"), "YWJj");
    }
}
