//! A local https front for the doctor tests: a self-signed certificate
//! made at test time (rcgen, for `127.0.0.1` and `localhost`), and a
//! TLS-terminating proxy (rustls) that hands each request to a plain-http
//! server behind it, one connection per request (`Connection: close`).
//! No network: everything is on loopback.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A running front: its https URL and the certificate's PEM.
pub struct Front {
    /// `https://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// The self-signed certificate, PEM.
    pub pem: String,
}

/// Starts a front on a free port before the http server at `backend`,
/// with a fresh self-signed certificate for `127.0.0.1` and `localhost`.
pub fn start(backend: SocketAddr) -> Front {
    let names = vec!["127.0.0.1".to_string(), "localhost".to_string()];
    let rcgen::CertifiedKey { cert, signing_key } = rcgen::generate_simple_self_signed(names).expect("a certificate");
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(signing_key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(vec![CertificateDer::from(cert.der().to_vec())], key)
        .expect("a server config");
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for tcp in listener.incoming().flatten() {
            let config = config.clone();
            thread::spawn(move || {
                let _ = serve(config, tcp, backend);
            });
        }
    });
    Front {
        url: format!("https://127.0.0.1:{port}/mcp"),
        pem: cert.pem(),
    }
}

/// One connection: read a request (head and `Content-Length` body) over
/// TLS, send it to the backend with `Connection: close`, copy the
/// response back until the backend closes.
fn serve(config: Arc<rustls::ServerConfig>, tcp: TcpStream, backend: SocketAddr) -> std::io::Result<()> {
    let connection = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
    let mut tls = rustls::StreamOwned::new(connection, tcp);
    let mut request = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = tls.read(&mut chunk)?;
        if n == 0 {
            return Ok(());
        }
        request.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&request[..head_end]).into_owned();
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    while request.len() < head_end + length {
        let n = tls.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        request.extend_from_slice(&chunk[..n]);
    }
    let mut lines: Vec<&str> = head
        .trim_end()
        .lines()
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:"))
        .collect();
    lines.push("Connection: close");
    let mut forwarded = format!("{}\r\n\r\n", lines.join("\r\n")).into_bytes();
    forwarded.extend_from_slice(&request[head_end..]);
    let mut back = TcpStream::connect(backend)?;
    back.write_all(&forwarded)?;
    std::io::copy(&mut back, &mut tls)?;
    tls.conn.send_close_notify();
    tls.flush()
}
