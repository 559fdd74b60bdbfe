//! `mcplings doctor -- CMD [ARGS…]`: runs the checks that hold for every
//! MCP server ([`crate::check::doctor`]) against a stdio server command
//! and prints the report: as text on one screen ([`render`]; `--verbose`
//! adds every check's evidence), or as JSON (everything, always).
//!
//! Exit codes: 0 when no check fails (warnings and not verified allowed),
//! 1 when one does,
//! 2 for a usage error or a server that cannot be started or reached (a
//! TLS failure too: one sentence naming it), one that never writes a line
//! on stdout (the end of its stderr quoted), or one that refuses the era
//! `--era` names.

use std::fmt::Write;
use std::path::PathBuf;

use serde_json::Value;

use super::report::details_with;
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
    /// `--verbose`: every check, with transcripts and differences.
    pub verbose: bool,
    /// `--isolated`: every check in a process of its own.
    pub isolated: bool,
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
        isolated: args.isolated,
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
        println!(
            "{}",
            serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", render(&report, args.verbose));
    }
    // A usage error the run found (a --call naming a tool the server does
    // not list): the report stands, the sentence follows, exit 2.
    if let Some(usage) = &report.usage {
        eprintln!("mcplings doctor: {usage}");
    }
    Ok(match (&report.error, report.passed) {
        _ if report.usage.is_some() => EXIT_ERROR,
        (Some(_), _) => EXIT_ERROR,
        (None, true) => 0,
        (None, false) => EXIT_FAILED,
    })
}

/// The report as text, each line at most [`WIDTH`] columns. By default
/// one screen: the era, one line per group of passes, one line per warn
/// and not verified check (a warning that holds in both eras of a
/// dual-era server once, naming both), each fail with the sentence it
/// breaks, and last the failed and warned ids. `verbose` adds every check
/// with its evidence (differences, transcript, stderr) and the warnings
/// every SDK tried shares.
pub fn render(report: &DoctorReport, verbose: bool) -> String {
    let mut out = String::new();
    let command =
        shlex::try_join(report.command.iter().map(String::as_str)).unwrap_or_else(|_| report.command.join(" "));
    put(&mut out, &format!("doctor: {command}"), "  ");
    if let Some(error) = &report.error {
        // A stderr line quoted as it is, behind four spaces.
        for line in error.lines() {
            match line.strip_prefix("    ") {
                Some(quoted) => put(&mut out, &format!("    {quoted}"), "    "),
                None => put(&mut out, &format!("  {line}"), "  "),
            }
        }
        return out;
    }
    put(&mut out, &format!("era: {} ({})", report.era, report.detection), "  ");
    if verbose {
        every_case(&mut out, report);
    } else {
        passes(&mut out, report);
        let (shared, findings): (Vec<Line>, Vec<Line>) = lines(report).into_iter().partition(|l| l.shared);
        for line in &findings {
            finding(&mut out, line);
        }
        for line in &shared {
            put(
                &mut out,
                &format!(
                    "! {}{}: got no answer, as in every SDK tried (--verbose names them)",
                    line.id,
                    eras(line)
                ),
                "    ",
            );
        }
    }
    for note in &report.notes {
        put(&mut out, &format!("note: {note}"), "      ");
    }
    // Counted by check id: a dual-era server's check ran in both eras.
    let count = |v: Verdict| distinct_ids(report, v).len();
    let mut tally = format!("{} fail, {} warn", count(Verdict::Fail), count(Verdict::Warn));
    if report.not_verified > 0 {
        tally.push_str(&format!(", {} not verified", count(Verdict::NotVerified)));
    }
    tally.push_str(&format!(", {} pass", count(Verdict::Pass)));
    if report.era == "dual-era" {
        tally.push_str(" (by check, in both eras)");
    }
    put(&mut out, &format!("result: {tally}"), "  ");
    if !report.failed_ids.is_empty() {
        put(&mut out, &format!("failed: {}", report.failed_ids.join(", ")), "  ");
    }
    if !report.warned_ids.is_empty() {
        put(&mut out, &format!("warned: {}", report.warned_ids.join(", ")), "  ");
    }
    out
}

/// Columns of a text report line.
pub const WIDTH: usize = 80;

/// Writes `text` wrapped to [`WIDTH`] columns, its continuation lines
/// behind `indent`; a word wider than a line continues by the one rule of
/// [`crate::text::breaks`] (after a `,` `:` `/` near the end of the line,
/// else at its edge).
pub(super) fn put(out: &mut String, text: &str, indent: &str) {
    use unicode_width::UnicodeWidthStr;
    let text = crate::text::visible(text);
    // The text's own leading spaces are kept.
    let mut line = " ".repeat(text.len() - text.trim_start_matches(' ').len());
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let sep = usize::from(!line.trim().is_empty());
        if line.width() + sep + word.width() <= WIDTH {
            if sep == 1 {
                line.push(' ');
            }
            line.push_str(word);
            continue;
        }
        if !line.trim().is_empty() {
            let _ = writeln!(out, "{line}");
            line = indent.to_string();
        }
        // A word wider than what is left: continued by the one rule.
        let chars: Vec<char> = word.chars().collect();
        let mut at = 0;
        while at < chars.len() {
            let n = crate::text::breaks::take(
                &chars[at..],
                WIDTH.saturating_sub(line.width()),
                crate::text::breaks::Rule::Boundary,
            );
            line.extend(&chars[at..at + n]);
            at += n;
            if at < chars.len() {
                let _ = writeln!(out, "{line}");
                line = indent.to_string();
            }
        }
    }
    let _ = writeln!(out, "{line}");
}

/// One line of the default report: a check's outcome in the eras where
/// it is the same.
struct Line {
    id: &'static str,
    verdict: Verdict,
    /// The eras it holds in (empty over one era).
    eras: Vec<&'static str>,
    /// The reason, without the citation.
    reason: String,
    /// Where each era's rule is stated (`revision page › section`).
    sources: Vec<String>,
    /// The quoted sentences of a fail.
    cited: Vec<String>,
    /// A warning every SDK tried shares.
    shared: bool,
    /// The window the verdict depended on (its first era's): `reason`
    /// names it as written, [`finding`] tells its stretch.
    window: Option<crate::check::report::Window>,
}

/// The reason of a case without the citation `finish_case` appended.
fn bare_reason(case: &doctor::DoctorCase) -> String {
    let reason = case
        .case
        .reason
        .clone()
        .or_else(|| case.note.clone())
        .unwrap_or_default();
    match case.rule {
        Some(rule) => reason
            .strip_suffix(&format!(" ({})", rule.cited()))
            .map_or(reason.clone(), str::to_string),
        None => reason,
    }
}

/// The warn, fail and not verified checks as lines, in report order; the
/// same outcome and reason in both eras make one line naming both.
fn lines(report: &DoctorReport) -> Vec<Line> {
    let dual = report.era == "dual-era";
    let mut lines: Vec<Line> = Vec::new();
    for case in report.cases.iter().filter(|c| c.verdict != Verdict::Pass) {
        let reason = bare_reason(case);
        let source = case.rule.map(|r| r.source());
        let cited = case.rule.filter(|_| case.verdict == Verdict::Fail).map(|r| r.cited());
        let era = case.era.filter(|_| dual);
        if let Some(line) = lines
            .iter_mut()
            .find(|l| l.id == case.id && l.verdict == case.verdict && l.reason == reason)
        {
            line.eras.extend(era);
            for (list, item) in [(&mut line.sources, source), (&mut line.cited, cited)] {
                if let Some(item) = item
                    && !list.contains(&item)
                {
                    list.push(item);
                }
            }
            continue;
        }
        lines.push(Line {
            id: case.id,
            verdict: case.verdict,
            eras: era.into_iter().collect(),
            reason,
            sources: source.into_iter().collect(),
            cited: cited.into_iter().collect(),
            shared: case.shared.is_some(),
            window: case.case.window,
        });
    }
    lines
}

/// A warn, fail or not verified line: mark, id, eras, reason, where the
/// rule is stated; a fail's quoted sentences below it.
fn finding(out: &mut String, line: &Line) {
    let eras = eras(line);
    let label = match line.verdict {
        Verdict::Fail => "FAIL ",
        Verdict::NotVerified => "not verified: ",
        _ => "",
    };
    let reason = line
        .window
        .map_or_else(|| line.reason.clone(), |w| w.tell(&line.reason));
    let mut text = format!("{} {}{eras}: {label}{reason}", line.verdict.mark(), line.id);
    if line.verdict == Verdict::Warn && !line.sources.is_empty() {
        text.push_str(&format!(" ({})", line.sources.join("; ")));
    }
    put(out, &text, "    ");
    for cited in &line.cited {
        put(out, &format!("    {cited}"), "    ");
    }
}

/// ` (legacy, modern)`: the eras a line holds in, legacy first; empty
/// over one era.
fn eras(line: &Line) -> String {
    let mut eras = line.eras.clone();
    eras.sort_unstable();
    match eras.as_slice() {
        [] => String::new(),
        eras => format!(" ({})", eras.join(", ")),
    }
}

/// The ids of the checks with outcome `v`, each once, in report order.
fn distinct_ids(report: &DoctorReport, v: Verdict) -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = Vec::new();
    for case in report.cases.iter().filter(|c| c.verdict == v) {
        if !ids.contains(&case.id) {
            ids.push(case.id);
        }
    }
    ids
}

/// One line per group that has passes: how many checks passed and which
/// (wrapped, never cut).
fn passes(out: &mut String, report: &DoctorReport) {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for id in distinct_ids(report, Verdict::Pass) {
        let group = doctor::ids::group(id);
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, ids)) => ids.push(id),
            None => groups.push((group, vec![id])),
        }
    }
    for (group, ids) in groups {
        put(
            out,
            &format!("✓ {group}: {} pass ({})", ids.len(), ids.join(", ")),
            "    ",
        );
    }
}

/// `--verbose`: every check with its outcome and note; each warn, fail
/// and not verified with its whole reason and evidence.
fn every_case(out: &mut String, report: &DoctorReport) {
    for case in &report.cases {
        let name = format!("{} [{}]", case.case.name, case.id);
        match case.verdict {
            Verdict::Pass => match &case.note {
                Some(note) => put(out, &format!("  ✓ {name}: {note}"), "      "),
                None => put(out, &format!("  ✓ {name}"), "      "),
            },
            _ => {
                let level = match case.verdict {
                    Verdict::Fail => "FAIL",
                    Verdict::Warn => "warn",
                    _ => "not verified",
                };
                put(out, &format!("  {} {name} {level}", case.verdict.mark()), "      ");
                let reason = case.case.reason_told().or(case.note.clone()).unwrap_or_default();
                let reason = match (&case.case.reason, case.case.window) {
                    (None, Some(w)) => w.tell(&reason),
                    _ => reason,
                };
                put(out, &format!("      {reason}"), "      ");
                if let Some(shared) = case.shared {
                    put(out, &format!("      ({shared})"), "      ");
                }
                if case.verdict != Verdict::NotVerified {
                    details_with(out, &case.case, "▶ to the server, ◀ from it");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::check::doctor::DoctorCase;
    use crate::check::report::CaseReport;

    fn case(id: &'static str, era: &'static str, verdict: Verdict) -> DoctorCase {
        DoctorCase {
            id,
            verdict,
            era: Some(era),
            rule: None,
            note: None,
            shared: None,
            case: CaseReport::not_run(id, "", "got no answer"),
        }
    }

    #[test]
    fn a_dual_era_report_counts_checks_once_and_names_every_pass() {
        let mut report = DoctorReport::new(vec!["python".into(), "my server.py".into()]);
        report.era = "dual-era".into();
        report.detection = "both answered".into();
        let lifecycle = [
            "era-detection",
            "initialize",
            "version-negotiation",
            "requests-before-initialize",
            "ping",
            "server-discover",
            "meta-required",
            "unsupported-version",
        ];
        for id in lifecycle {
            report.cases.push(case(id, "legacy", Verdict::Pass));
        }
        for era in ["legacy", "modern"] {
            report.cases.push(case("ids-echoed", era, Verdict::Pass));
            report.cases.push(case("unparsable-line", era, Verdict::Warn));
        }
        report.tally();
        assert_eq!((report.warns, report.warned_ids.len()), (2, 1));
        let text = render(&report, false);
        assert!(text.starts_with("doctor: python 'my server.py'\n"), "{text}");
        assert!(
            text.contains("result: 0 fail, 1 warn, 9 pass (by check, in both eras)"),
            "{text}"
        );
        assert!(text.contains("✓ messages: 1 pass (ids-echoed)"), "{text}");
        assert_eq!(text.matches("! unparsable-line (legacy, modern)").count(), 1, "{text}");
        // A group too long for a line wraps; no name is dropped.
        for id in lifecycle {
            assert!(text.contains(id), "{id} missing:\n{text}");
        }
        for line in text.lines() {
            assert!(unicode_width::UnicodeWidthStr::width(line) <= WIDTH, "{line}");
        }
    }

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
