//! The `mcplings` binary: parse the command line and hand over to [`mcplings::cli::run`].

fn main() -> std::process::ExitCode {
    mcplings::cli::run()
}
