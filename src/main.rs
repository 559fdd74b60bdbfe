//! The `mcplings` binary: parse the command line and hand over to [`mcplings::cli::run`].

/// Checks run learners' programs in process groups and relay client
/// exercises over Unix sockets: Windows has neither, so there the library
/// is empty (`#![cfg(unix)]` in lib.rs) and the binary only says so.
#[cfg(not(unix))]
fn main() -> std::process::ExitCode {
    eprintln!("mcplings does not support Windows: use Linux, macOS, or WSL.");
    std::process::ExitCode::from(2)
}

#[cfg(unix)]
fn main() -> std::process::ExitCode {
    // `mcplings list | head` closes our stdout early. Rust then panics in
    // println!; end quietly instead, as a program killed by SIGPIPE would.
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
    mcplings::cli::run()
}
