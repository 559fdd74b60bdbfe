//! A check report as plain text for the terminal.

use std::fmt::Write;

use crate::check::diff::Difference;
use crate::check::{CaseReport, CheckReport, Status};
use crate::content::Exercise;
use crate::text::shorten;

/// Most transcript lines shown for a failed case.
const TRANSCRIPT_LINES: usize = 12;
/// Widest transcript line shown, in characters.
/// Longest frame printed whole; longer ones (a flood) are cut.
const LINE_WIDTH: usize = 2000;

/// Renders `report` as text: the build line, each case with a mark, the
/// first failure in detail (reason, differences, transcript, stderr), and
/// what to do next.
pub fn render(report: &CheckReport, exercise: &Exercise, command: &str) -> String {
    let mut out = String::new();
    let build = if report.build.ok { "ok" } else { "failed" };
    let _ = writeln!(
        out,
        "build {} ({}) ... {build} ({:.2} s)",
        report.exercise,
        report.crate_dir,
        report.build.duration_ms as f64 / 1000.0
    );
    if let Some(error) = &report.error {
        let _ = writeln!(out, "  {error}");
    }
    if !report.build.ok && !report.build.output.trim().is_empty() {
        for line in report.build.output.trim_end().lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    let mut detailed = false;
    let mut last_reason: Option<&str> = None;
    for case in &report.cases {
        match case.status {
            Status::Passed => {
                let _ = writeln!(out, "  ✓ {}", case.name);
            }
            Status::NotRun => {
                let _ = writeln!(out, "  · {} (not run)", case.name);
            }
            Status::Failed => {
                let _ = writeln!(out, "  ✗ {}", case.name);
                let reason = case.reason.as_deref().unwrap_or("failed");
                if last_reason == Some(reason) {
                    let _ = writeln!(out, "      (the same reason as above)");
                    continue;
                }
                last_reason = Some(reason);
                for line in wrap_plain(&crate::text::visible(reason), 72) {
                    let _ = writeln!(out, "      {line}");
                }
                if !detailed {
                    detailed = true;
                    details(&mut out, case);
                }
            }
        }
    }
    let total = report.cases.len();
    let passed = report.passed_cases();
    if report.passed {
        let _ = writeln!(out, "All {total} cases pass.");
    } else if report.error.is_some() {
        let _ = writeln!(out, "The check could not run.");
    } else if !report.build.ok {
        let _ = writeln!(
            out,
            "The build failed. Fix the errors in {} and run `{command}` again.",
            files(report, exercise)
        );
    } else {
        let _ = writeln!(
            out,
            "{passed} of {total} cases pass. Edit {} and run `{command}` again.",
            files(report, exercise)
        );
    }
    out
}

fn files(report: &CheckReport, exercise: &Exercise) -> String {
    exercise
        .files
        .iter()
        .map(|f| format!("{}/{f}", report.crate_dir))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn details(out: &mut String, case: &CaseReport) {
    details_with(out, case, "▶ to your program, ◀ from it; ▷ ◁ harness lines")
}

/// [`details`] with `legend` explaining the transcript's glyphs.
pub(super) fn details_with(out: &mut String, case: &CaseReport, legend: &str) {
    if !case.differences.is_empty() {
        let _ = writeln!(out, "      differences:");
        for d in case.differences.iter().take(6) {
            let _ = writeln!(out, "        {}", Difference::describe(d));
        }
    }
    if let (Some(e), Some(a)) = (&case.expected, &case.actual) {
        let _ = writeln!(
            out,
            "      expected  {}",
            shorten(&crate::text::visible(&e.to_string()), LINE_WIDTH - 10)
        );
        let _ = writeln!(
            out,
            "      actual    {}",
            shorten(&crate::text::visible(&a.to_string()), LINE_WIDTH - 10)
        );
    }
    let skip = case.transcript.len().saturating_sub(TRANSCRIPT_LINES);
    if !case.transcript.is_empty() {
        let _ = writeln!(out, "      transcript ({legend}):");
        if skip > 0 {
            let _ = writeln!(out, "        … {skip} earlier lines");
        }
        for entry in &case.transcript[skip..] {
            let _ = writeln!(
                out,
                "        {} {}",
                entry.glyph(),
                shorten(&crate::text::visible(&entry.line), LINE_WIDTH)
            );
        }
    }
    let stderr = case.stderr.trim_end();
    if !stderr.is_empty() {
        let _ = writeln!(out, "      stderr:");
        if case.stderr_dropped > 0 {
            let _ = writeln!(
                out,
                "        ({} bytes from its middle not kept: a note marks the cut)",
                case.stderr_dropped
            );
        }
        let lines: Vec<&str> = stderr.lines().collect();
        let skip = lines.len().saturating_sub(8);
        if skip > 0 {
            let _ = writeln!(out, "        … {skip} earlier lines");
        }
        for line in &lines[skip..] {
            let _ = writeln!(out, "        {}", shorten(&crate::text::visible(line), LINE_WIDTH));
        }
    }
}

/// Word-wraps plain text to `width` columns.
pub fn wrap_plain(text: &str, width: usize) -> Vec<String> {
    use crate::text::{Piece, Tone, plain, wrap};
    wrap(
        &[Piece::new(text, Tone::Plain)],
        width,
        Piece::new("", Tone::Plain),
        Piece::new("", Tone::Plain),
    )
    .iter()
    .map(plain)
    .collect()
}
