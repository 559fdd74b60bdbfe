//! `mcplings doctor -- CMD [ARGS…]`: runs the checks that hold for every
//! MCP server ([`crate::check::doctor`]) against a stdio server command
//! and prints the report, as text (each check with its verdict; every
//! warn and fail with its reason, the rule it cites, the differences and
//! the transcript) or as JSON.
//!
//! Exit codes: 0 when no check fails (warnings allowed), 1 when one does,
//! 2 for a usage error or a server that cannot be started or reached (a
//! TLS failure too: one sentence naming it), one that never writes a line
//! on stdout (the end of its stderr quoted), or one that refuses the era
//! `--era` names.

use std::fmt::Write;
use std::path::PathBuf;

use serde_json::Value;

use super::report::{details_with, wrap_plain};
use super::{EXIT_ERROR, EXIT_FAILED};
use crate::check::doctor::{self, DoctorReport, EraChoice, Options, Target, Verdict};
use crate::check::http::Trust;

/// `--call NAME=JSON` as (name, arguments).
///
/// Errors: no `=`, or arguments that are not a JSON object.
pub fn parse_call(text: &str) -> Result<(String, Value), String> {
    let (name, json) = text
        .split_once('=')
        .ok_or_else(|| format!("--call takes NAME=JSON, e.g. --call 'add={{\"a\":1,\"b\":2}}'; got `{text}`"))?;
    let arguments: Value =
        serde_json::from_str(json).map_err(|e| format!("--call {name}: the arguments are not JSON: {e}"))?;
    if !arguments.is_object() {
        return Err(format!(
            "--call {name}: the arguments are a JSON object, got {arguments}"
        ));
    }
    Ok((name.to_string(), arguments))
}

/// The era flag's value.
pub fn parse_era(text: &str) -> Result<EraChoice, String> {
    match text {
        "auto" => Ok(EraChoice::Auto),
        "legacy" => Ok(EraChoice::Legacy),
        "modern" => Ok(EraChoice::Modern),
        other => Err(format!("--era is legacy, modern or auto, not `{other}`")),
    }
}

/// What to doctor and how, from the command line.
pub struct Args<'a> {
    /// The stdio server command (after `--`).
    pub command: &'a [String],
    /// `--url`: a Streamable HTTP server instead.
    pub url: Option<&'a str>,
    /// `--cacert`: the PEM certificates an https URL trusts.
    pub cacert: Option<&'a std::path::Path>,
    /// `--era`.
    pub era: &'a str,
    /// `--call NAME=JSON`, each.
    pub calls: &'a [String],
    /// `--call-readonly`.
    pub call_readonly: bool,
    /// `--json`.
    pub json: bool,
    /// `--startup-ms`.
    pub startup_ms: Option<u64>,
}

/// Runs doctor and prints the report; the exit code.
pub fn run(args: &Args) -> Result<u8, String> {
    let trust = match (args.cacert, args.url) {
        (None, _) => Trust::default(),
        (Some(path), Some(url)) if url.starts_with("https://") => Trust::from_pem_file(path)?,
        (Some(_), _) => return Err("--cacert FILE goes with an https:// --url".into()),
    };
    let options = Options {
        trust,
        era: parse_era(args.era)?,
        calls: args.calls.iter().map(|c| parse_call(c)).collect::<Result<_, _>>()?,
        call_readonly: args.call_readonly,
        cancel: None,
        only: None,
        startup: args.startup_ms.map(std::time::Duration::from_millis),
    };
    let report = match (args.url, args.command.split_first()) {
        (Some(_), Some(_)) => return Err("doctor takes --url URL or a command after `--`, not both".into()),
        (Some(url), None) => {
            if !url.starts_with("http://") && !url.starts_with("https://") {
                return Err(format!("--url takes an http:// or https:// URL, got `{url}`"));
            }
            doctor::doctor_url(url, &options)
        }
        (None, Some((program, rest))) => {
            let target = Target {
                program: PathBuf::from(program),
                args: rest.to_vec(),
            };
            doctor::doctor(&target, &options)
        }
        (None, None) => {
            return Err("doctor needs a server command after `--` (mcplings doctor -- python server.py) or --url http://127.0.0.1:8000/mcp".into());
        }
    };
    // A signal killed the servers under it: no report, the signal's exit.
    super::signals::hold_if_ending();
    let as_json = args.json;
    if as_json {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        print!("{}", render(&report));
    }
    Ok(match (&report.error, report.passed) {
        (Some(_), _) => EXIT_ERROR,
        (None, true) => 0,
        (None, false) => EXIT_FAILED,
    })
}

/// The report as text.
pub fn render(report: &DoctorReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "doctor: {}", report.command.join(" "));
    if let Some(error) = &report.error {
        // Each line wrapped to 80 columns; a stderr line quoted as it is.
        for line in error.lines() {
            let (indent, text) = match line.strip_prefix("    ") {
                Some(quoted) => ("    ", quoted),
                None => ("  ", line),
            };
            for piece in wrap_plain(text, 78 - indent.len()) {
                let _ = writeln!(out, "{indent}{piece}");
            }
        }
        return out;
    }
    let _ = writeln!(out, "era: {} ({})", report.era, report.detection);
    for case in &report.cases {
        let name = &case.case.name;
        match (case.verdict, &case.note) {
            (Verdict::Pass | Verdict::Skip, Some(note)) => {
                let _ = writeln!(out, "  {} {name}: {note}", case.verdict.mark());
            }
            (Verdict::NotRun, _) => {
                let why = case.case.reason.as_deref().unwrap_or("not run");
                let _ = writeln!(out, "  {} {name} ({why})", case.verdict.mark());
            }
            (Verdict::Pass | Verdict::Skip, None) => {
                let _ = writeln!(out, "  {} {name}", case.verdict.mark());
            }
            (Verdict::Warn | Verdict::Fail, _) => {
                let level = if case.verdict == Verdict::Fail { "FAIL" } else { "warn" };
                let _ = writeln!(out, "  {} {name} [{level}]", case.verdict.mark());
                let reason = case.case.reason.as_deref().unwrap_or("");
                for line in wrap_plain(&crate::text::visible(reason), 72) {
                    let _ = writeln!(out, "      {line}");
                }
                details_with(&mut out, &case.case, "▶ to the server, ◀ from it");
            }
        }
    }
    for note in &report.notes {
        for (i, line) in wrap_plain(note, 74).into_iter().enumerate() {
            let _ = writeln!(out, "{}{line}", if i == 0 { "note: " } else { "      " });
        }
    }
    let count = |v: Verdict| report.cases.iter().filter(|c| c.verdict == v).count();
    let _ = writeln!(
        out,
        "{} checks: {} fail, {} warn, {} pass, {} skipped{}.",
        report.cases.len(),
        report.fails,
        report.warns,
        count(Verdict::Pass),
        count(Verdict::Skip),
        match count(Verdict::NotRun) {
            0 => String::new(),
            n => format!(", {n} not run"),
        }
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_eras_parse() {
        assert_eq!(
            parse_call("add={\"a\":1}").unwrap(),
            ("add".to_string(), serde_json::json!({"a": 1}))
        );
        assert!(parse_call("add").is_err());
        assert!(parse_call("add=[1]").is_err());
        assert_eq!(parse_era("modern").unwrap(), EraChoice::Modern);
        assert!(parse_era("future").is_err());
    }
}
