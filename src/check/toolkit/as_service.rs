//! The checker as a service beside a learner's HTTP server: an
//! authorization server, an upstream API, whatever the program calls out
//! to. A [`Service`] answers plain HTTP/1.1 on a loopback listener the
//! session bound before the program started (`{peer}` in the program's
//! arguments, [`Session::take_peer`]), one request per connection, and
//! keeps every request it got, so a case can judge what the program asked
//! as well as what it answered.
//!
//! [`Session::take_peer`]: crate::check::session::Session::take_peer

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

/// The most of a request a service reads (head and body).
const MAX_REQUEST: usize = 1 << 20;
/// How long a service waits for a request's bytes on a connection.
const READ_WITHIN: Duration = Duration::from_secs(5);

/// One request the service got.
#[derive(Debug, Clone, Default)]
pub struct ServiceRequest {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path with its query string.
    pub path: String,
    /// Every header as (name, value).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl ServiceRequest {
    /// Header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as `application/x-www-form-urlencoded` pairs, decoded.
    pub fn form(&self) -> Vec<(String, String)> {
        String::from_utf8_lossy(&self.body)
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (form_decode(name), form_decode(value))
            })
            .collect()
    }

    /// The path without its query string.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or("")
    }
}

/// What the service answers.
#[derive(Debug, Clone)]
pub struct ServiceReply {
    /// The status code.
    pub status: u16,
    /// Headers besides `Content-Length` and `Connection`.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl ServiceReply {
    /// A JSON reply.
    pub fn json(status: u16, body: &Value) -> ServiceReply {
        ServiceReply {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }
}

/// What a service does with each request.
pub type Handler = dyn Fn(&ServiceRequest) -> ServiceReply + Send + Sync;

/// A running service; dropping it stops it.
pub struct Service {
    address: SocketAddr,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Vec<ServiceRequest>>>,
}

impl Service {
    /// Serves `listener` on a thread of its own, answering each request
    /// with `handler`, until dropped.
    pub fn serve(listener: TcpListener, handler: Box<Handler>) -> std::io::Result<Service> {
        let address = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let (thread_stop, thread_log) = (stop.clone(), log.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if thread_stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                answer(stream, &*handler, &thread_log);
            }
        });
        Ok(Service { address, stop, log })
    }

    /// `http://127.0.0.1:<port>`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Every request answered so far, in order.
    pub fn requests(&self) -> Vec<ServiceRequest> {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees the flag.
        let _ = TcpStream::connect_timeout(&self.address, Duration::from_millis(100));
    }
}

/// Reads one request from `stream`, keeps it in `log`, answers it and
/// closes the connection (kept first, so the log holds a request by the
/// time its reply arrives).
fn answer(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<ServiceRequest>>) -> Option<()> {
    stream.set_read_timeout(Some(READ_WITHIN)).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?).take(MAX_REQUEST as u64);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut words = line.split_whitespace();
    let (method, path) = (words.next()?.to_string(), words.next()?.to_string());
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let mut request = ServiceRequest {
        method,
        path,
        headers,
        body: Vec::new(),
    };
    let length = request
        .header("Content-Length")
        .and_then(|l| l.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length.min(MAX_REQUEST)];
    reader.read_exact(&mut body).ok()?;
    request.body = body;
    let reply = handler(&request);
    log.lock().unwrap_or_else(|e| e.into_inner()).push(request);
    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        reply.body.len()
    ));
    let mut stream = stream;
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&reply.body);
    let _ = stream.flush();
    Some(())
}

/// The reason phrase of the statuses a service sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Status",
    }
}

/// One `application/x-www-form-urlencoded` name or value, decoded: `+` is a
/// space, `%XX` a byte.
fn form_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(high), Some(low)) => {
                        out.push((high * 16 + low) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_answers_and_keeps_what_it_got() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let service = Service::serve(
            listener,
            Box::new(|r: &ServiceRequest| ServiceReply::json(200, &serde_json::json!({"form": r.form()}))),
        )
        .unwrap();
        let address = service.origin().trim_start_matches("http://").to_string();
        let mut stream = TcpStream::connect(&address).unwrap();
        let body = "token=a%2Bb+c&x=%zz";
        write!(
            stream,
            "POST /introspect HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
        assert!(
            reply.ends_with(r#"{"form":[["token","a+b c"],["x","%zz"]]}"#),
            "{reply}"
        );
        let got = service.requests();
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].method.as_str(), got[0].route()), ("POST", "/introspect"));
        assert_eq!(got[0].header("host"), Some("x"));
    }
}
