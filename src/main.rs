//! The `mcplings` binary: parse the command line and hand over to [`mcplings::cli::run`].

fn main() -> std::process::ExitCode {
    // Checks run learners' programs in process groups and relay client
    // exercises over Unix sockets: Windows has neither.
    if cfg!(windows) {
        eprintln!("mcplings does not support Windows. Use Linux or macOS, or WSL on Windows.");
        return std::process::ExitCode::from(2);
    }
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
