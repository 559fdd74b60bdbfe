//! The command line: `mcplings` opens the workbook; subcommands serve
//! scripts, CI and plain terminals. Everything they print fits 80 columns
//! (`lesson` on a terminal: its width).
//!
//! Exit codes, for every command: 0 success or a voluntary stop (`q` in the
//! quiz, declining `reset`); 1 when the learner-facing result is a failure
//! (a check or `verify` fails, a quiz's input ends before its questions);
//! 2 for a usage error (an unknown part or exercise, `reset` without
//! `--yes` off a terminal, a bad flag) or an internal error. Usage errors
//! share one wording: "there is no part 9; parts are 1 to 5". With `--json` the report is printed in
//! every case. SIGINT, SIGTERM and SIGHUP end any command (but `wire`, which
//! forwards them) with 130, 143 and 129, every child killed first
//! (`signals.rs`).

mod commands;
mod doctor;
mod doctor_rules;
mod glossary;
mod init;
mod quiz;
mod relay;
pub mod report;
mod signals;
mod stats;
mod verify;
mod wire;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::content::Course;

/// Exit code: the learner-facing result is a failure.
pub const EXIT_FAILED: u8 = 1;
/// Exit code: a usage or internal error.
pub const EXIT_ERROR: u8 = 2;

const NOT_A_TERMINAL: &str = "mcplings opens a terminal app, but its input or output is not a terminal.
Run it in a terminal, or use a command that prints plain text:
  mcplings list            parts and exercises, with your progress
  mcplings lesson 1        a lesson as text
  mcplings check 01        check an exercise
  mcplings quiz 1          a quiz, one question at a time
  mcplings --help          everything else";

/// mcplings: learn the Model Context Protocol from the ground up, in your
/// terminal. Run without a command to open the workbook.
#[derive(Debug, Parser)]
#[command(name = "mcplings", version, about, long_about = None)]
pub struct Cli {
    /// The mcplings checkout to use (default: the one around the current
    /// directory, or the one this binary was built from).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// What to do; nothing opens the workbook.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the parts and exercises, with your progress.
    List {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print a part's lesson as plain text, each aside (a story, what SDKs
    /// do in the wild, a deeper note) folded to its one line `▸ …`.
    Lesson {
        /// The part number (1–5).
        part: String,
        /// Print the asides open, whole.
        #[arg(long)]
        full: bool,
    },
    /// Print an exercise's task: what to build, the files to edit, and how
    /// to check it.
    Task {
        /// `01`, `encode-frames` or `01-encode-frames`.
        exercise: String,
    },
    /// Build an exercise and run its checker.
    ///
    /// Exit 0 when every case passes, 1 when a case or the build fails.
    Check {
        /// `01`, `encode-frames` or `01-encode-frames`.
        exercise: String,
        /// Check the reference solution instead of your crate.
        #[arg(long, conflicts_with = "path")]
        solution: bool,
        /// Check any crate directory against this exercise's checker (its
        /// own lockfile; records no progress).
        #[arg(long, value_name = "DIR")]
        path: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Take a part's quiz in plain line mode.
    Quiz {
        /// The part number (1–5).
        part: String,
    },
    /// Print the glossary, or one term: its definition, where the course
    /// teaches it, and its spec page.
    ///
    /// Exit 2 for a term the glossary lacks (the closest terms are named).
    Glossary {
        /// A term or one of its variants, in any case (quote words with
        /// spaces: "progress token").
        term: Option<String>,
    },
    /// Reveal the next hint of an exercise (and the ones before it).
    Hint {
        /// `01`, `encode-frames` or `01-encode-frames`.
        exercise: String,
        /// Show the hints revealed so far and reveal nothing.
        #[arg(long)]
        all: bool,
    },
    /// Restore an exercise's files to the shipped stub (your edits are lost).
    Reset {
        /// `01`, `encode-frames` or `01-encode-frames`.
        exercise: String,
        /// Don't ask for confirmation.
        #[arg(long, short)]
        yes: bool,
    },
    /// Write a learner workspace (exercises, solutions, lessons, a
    /// Cargo.toml) into DIR, which must be new or empty; with --update,
    /// bring the workspace you are in to this mcplings' course, keeping
    /// your exercise files.
    Init {
        /// Where to write it (default: ./mcplings).
        #[arg(conflicts_with = "update")]
        dir: Option<PathBuf>,
        /// Update the workspace around the current directory instead.
        #[arg(long)]
        update: bool,
    },
    /// Prove the course: all content loads, every shipped stub fails its
    /// checker, every solution passes.
    Verify {
        /// Print instead each part's core and aside words and each
        /// exercise's required reading against their limits (fails when
        /// one is over).
        #[arg(long, conflicts_with = "content")]
        stats: bool,
        /// Check only the content (it loads, and the quiz, glossary and
        /// rules-against-sections rules hold); builds nothing, so it takes
        /// a second where the whole proof takes minutes.
        #[arg(long)]
        content: bool,
    },
    /// Remove the build output checks made (the exercises' builds, `--path`
    /// builds, verify's scratch builds); keeps the app's own build, your
    /// files and your progress. The next check builds what it needs again.
    Clean,
    /// Check any MCP server, over stdio (a command after --) or Streamable
    /// HTTP (--url): the rules that hold for every server, each fail citing
    /// the MUST it breaks.
    ///
    /// Exit 0 with no fail (warnings and not verified allowed), 1 with a
    /// fail, 2 when the server could not be run: a usage error, a server
    /// that cannot be started or reached or never answers, or one that
    /// refuses the era --era names. No tool is called unless asked with
    /// --call or --call-readonly.
    Doctor {
        /// The era to speak: auto (probe as a host does), legacy or modern.
        #[arg(long, default_value = "auto", value_name = "ERA")]
        era: String,
        /// Call tool NAME with the JSON object of arguments (repeatable).
        #[arg(long = "call", value_name = "NAME=JSON")]
        calls: Vec<String>,
        /// Call, with {}, every tool annotated readOnlyHint: true that
        /// needs no arguments (annotations are the server's hints, not
        /// guarantees).
        #[arg(long)]
        call_readonly: bool,
        /// Print the report as JSON (every check with its evidence).
        #[arg(long)]
        json: bool,
        /// Print the rules doctor checks (each check's level, sentence,
        /// revision, page and heading) and the notable server rules it
        /// cannot observe, with why; runs no server.
        #[arg(long, conflicts_with_all = ["url", "command", "calls", "call_readonly", "isolated"])]
        rules: bool,
        /// Show every check, with each finding's transcript and
        /// differences.
        #[arg(long, short)]
        verbose: bool,
        /// How long the server may take to answer its first request, in
        /// milliseconds (default 10000; stretched on a loaded machine).
        #[arg(long, value_name = "MS")]
        startup_ms: Option<u64>,
        /// Run every check in a fresh process of the server (slower). By
        /// default the checks that only list, read and validate share one
        /// process per era, and any of them that does not pass there runs
        /// again in a process of its own before its verdict.
        #[arg(long)]
        isolated: bool,
        /// Check a running Streamable HTTP server (http or https) at this
        /// URL instead of a stdio command.
        #[arg(long, value_name = "URL")]
        url: Option<String>,
        /// Trust only the certificates in this PEM file for an https URL
        /// (a self-signed certificate, a private authority).
        #[arg(long, value_name = "FILE")]
        cacert: Option<std::path::PathBuf>,
        /// The server command and its arguments, after `--`.
        #[arg(last = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// A transparent stdio tap between a host and a server: forwards both
    /// ways byte for byte, passes the server's stderr through, logs each
    /// line with its time, direction, id, method and schema verdict,
    /// forwards SIGINT, SIGTERM and SIGHUP, and exits with the server's
    /// status (128+n for signal n).
    Wire {
        /// Write the log here (JSON lines).
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,
        /// Print a log written by --log as a transcript, instead of tapping.
        #[arg(long, value_name = "FILE", conflicts_with = "log")]
        view: Option<PathBuf>,
        /// The server command and its arguments, after `--`.
        #[arg(last = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// (Internal) The server command handed to a client exercise: relays
    /// its stdin and stdout to the checker's socket.
    #[command(name = "__relay", hide = true)]
    Relay {
        /// The checker's Unix socket.
        socket: PathBuf,
    },
}

/// Parses the command line and runs it.
pub fn run() -> ExitCode {
    let mut args = std::env::args_os();
    if args
        .nth(1)
        .is_some_and(|a| a == crate::check::session::children::EXEC_STEP)
    {
        // A child's first step (`children.rs`): no parsing, no handlers.
        return ExitCode::from(crate::check::session::children::exec_step(args));
    }
    let cli = Cli::parse();
    if signals::owns_children(cli.command.as_ref()) {
        crate::check::session::children::guard();
    }
    if signals::ends_on_signals(cli.command.as_ref())
        && let Err(e) = signals::end_on_signals()
    {
        report::warn(&format!("mcplings: {e}"));
    }
    let json = matches!(
        cli.command,
        Some(Command::List { json: true } | Command::Check { json: true, .. } | Command::Doctor { json: true, .. })
    );
    let executed = execute(cli);
    signals::hold_if_ending();
    let code = match executed {
        Ok(code) => code,
        Err(message) => {
            if json {
                // --json promises a report on stdout whatever happens.
                println!(
                    "{}",
                    serde_json::json!({"format_version": crate::check::report::REPORT_FORMAT_VERSION, "passed": false, "error": message})
                );
            }
            if message.contains('\n') {
                // Lines such as `file:line: reason` stay whole for tools.
                eprintln!("mcplings: {message}");
            } else {
                report::warn(&format!("mcplings: {message}"));
            }
            EXIT_ERROR
        }
    };
    ExitCode::from(code)
}

/// How the learner runs a command of this binary, for "run `… lesson 1`"
/// advice: `cargo run --release --` (or `cargo run --` for a debug build)
/// when this binary is the checkout's own build under `<root>/target/`,
/// where no `mcplings` is on PATH; `mcplings` once installed.
pub(crate) fn invocation(course: &Course) -> &'static str {
    let exe = std::env::current_exe().ok();
    let root = course.root.canonicalize().unwrap_or_else(|_| course.root.clone());
    match exe.as_deref().and_then(|e| e.strip_prefix(root.join("target")).ok()) {
        Some(rest) if rest.starts_with("release") => "cargo run --release --",
        Some(_) => "cargo run --",
        None => "mcplings",
    }
}

fn load(cli_root: Option<&std::path::Path>) -> Result<Course, String> {
    let root = crate::paths::find_root(cli_root)?;
    Course::load(&root, &crate::check::checkers::names()).map_err(|e| format!("the course content has problems:\n{e}"))
}

/// Runs a parsed command line; returns the exit code, or an internal error
/// message (exit 2).
pub fn execute(cli: Cli) -> Result<u8, String> {
    let root = cli.root.as_deref();
    match cli.command {
        None => {
            if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
                eprintln!("{NOT_A_TERMINAL}");
                return Ok(EXIT_ERROR);
            }
            let course = load(root)?;
            crate::tui::run(course).map_err(|e| e.to_string())?;
            Ok(0)
        }
        Some(Command::List { json }) => commands::list(&load(root)?, json),
        Some(Command::Lesson { part, full }) => commands::lesson(&load(root)?, &part, full),
        Some(Command::Check {
            exercise,
            solution,
            path,
            json,
        }) => commands::check(&load(root)?, &exercise, solution, path, json),
        Some(Command::Quiz { part }) => quiz::run(&load(root)?, &part),
        Some(Command::Glossary { term }) => glossary::run(&load(root)?, term.as_deref()),
        Some(Command::Task { exercise }) => commands::task(&load(root)?, &exercise),
        Some(Command::Hint { exercise, all }) => commands::hint(&load(root)?, &exercise, all),
        Some(Command::Reset { exercise, yes }) => commands::reset(&load(root)?, &exercise, yes),
        Some(Command::Doctor { rules: true, json, .. }) => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&doctor_rules::json()).map_err(|e| e.to_string())?
                );
            } else {
                print!("{}", doctor_rules::render());
            }
            Ok(0)
        }
        Some(Command::Doctor {
            era,
            calls,
            call_readonly,
            json,
            verbose,
            url,
            cacert,
            startup_ms,
            isolated,
            command,
            rules: _,
        }) => doctor::run(&doctor::Args {
            command: &command,
            url: url.as_deref(),
            cacert: cacert.as_deref(),
            era: &era,
            calls: &calls,
            call_readonly,
            json,
            startup_ms,
            verbose,
            isolated,
        }),
        Some(Command::Wire { view: Some(file), .. }) => wire::view(&file),
        Some(Command::Wire { log, command, .. }) => wire::run(&command, log.as_deref()),
        Some(Command::Relay { socket }) => relay::run(&socket),
        Some(Command::Init { dir, update }) => {
            // The course the binary carries, laid out in a temporary folder.
            let staged = init::staged()?;
            let course = load(Some(staged.path()))?;
            if update {
                init::update(&course, &crate::paths::find_root(root)?)
            } else {
                init::init(&course, dir)
            }
        }
        Some(Command::Clean) => commands::clean(&load(root)?),
        Some(Command::Verify { stats, content }) => match load(root) {
            Ok(course) if stats => Ok(stats::run(&course)),
            Ok(course) => verify::run(&course, content),
            Err(e) => {
                println!("{e}");
                Ok(EXIT_FAILED)
            }
        },
    }
}
