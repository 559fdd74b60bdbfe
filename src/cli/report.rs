//! A check report as plain text for the terminal.

use std::fmt::Write;

use crate::check::diff::Difference;
use crate::check::{CaseReport, CheckReport, Status};
use crate::content::Exercise;
use crate::text::{Show, shorten};

/// The width every line the CLI prints fits in, in terminal columns.
pub const WIDTH: usize = 80;

/// Most transcript lines shown for a failed case.
const TRANSCRIPT_LINES: usize = 12;
/// Widest transcript line shown, in characters.
/// Longest frame printed whole; longer ones (a flood) are cut.
const LINE_WIDTH: usize = 2000;

/// Renders `report` as text: the build line, each case with a mark, the
/// first failure in detail (reason, differences, transcript, stderr), and
/// what to do next. Every line fits [`WIDTH`] columns: prose wraps at
/// words, evidence (frames, compiler output) continues behind `┆` by the
/// one rule of [`crate::text::breaks`].
pub fn render(report: &CheckReport, exercise: &Exercise, command: &str) -> String {
    fold(&render_wide(report, exercise, command), WIDTH)
}

fn render_wide(report: &CheckReport, exercise: &Exercise, command: &str) -> String {
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
    let mut last_reason: Option<String> = None;
    for case in &report.cases {
        match case.status {
            Status::Passed => case_line(&mut out, '✓', &case.name),
            Status::NotRun => case_line(&mut out, '·', &format!("{} (not run)", case.name)),
            Status::Failed => {
                case_line(&mut out, '✗', &case.name);
                let reason = case.reason_told().unwrap_or_else(|| "failed".into());
                if last_reason.as_ref() == Some(&reason) {
                    let _ = writeln!(out, "      (the same reason as above)");
                    continue;
                }
                for line in wrap_plain(&crate::text::visible(&reason), 72) {
                    let _ = writeln!(out, "      {line}");
                }
                last_reason = Some(reason);
                if !detailed {
                    detailed = true;
                    details(&mut out, case);
                }
            }
        }
    }
    let total = report.cases.len();
    let passed = report.passed_cases();
    let summary = if report.passed {
        format!("All {total} cases pass.")
    } else if report.error.is_some() {
        "The check could not run.".to_string()
    } else if !report.build.ok {
        format!(
            "The build failed. Fix the errors in {} and run `{command}` again.",
            files(report, exercise)
        )
    } else {
        format!(
            "{passed} of {total} cases pass. Edit {} and run `{command}` again.",
            files(report, exercise)
        )
    };
    for l in wrap_plain(&summary, WIDTH) {
        let _ = writeln!(out, "{l}");
    }
    out
}

/// A case's line, `  ✓ name`: a name too long for [`WIDTH`] wraps at words,
/// its continuations under the name (never cut or folded mid-word).
fn case_line(out: &mut String, mark: char, name: &str) {
    for (i, line) in wrap_plain(name, WIDTH - 4).iter().enumerate() {
        let lead = if i == 0 {
            format!("  {mark} ")
        } else {
            "    ".to_string()
        };
        let _ = writeln!(out, "{lead}{line}");
    }
}

/// Fits every line of `text` into `width` columns: a wider line continues
/// by the one rule ([`crate::text::breaks`]: after a `,` `:` `/` or space
/// near the end of the line, else at its edge), each continuation under
/// the line's indent behind `┆ ` (the bytes of evidence are kept, never
/// reflowed).
pub fn fold(text: &str, width: usize) -> String {
    use crate::text::breaks::{Rule, split};
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let lead = format!("{}┆ ", " ".repeat(indent.min(width / 2)));
        let chars: Vec<char> = line.chars().collect();
        let rest = width.saturating_sub(unicode_width::UnicodeWidthStr::width(lead.as_str()));
        for (i, range) in split(&chars, width, rest, Rule::Boundary).into_iter().enumerate() {
            if i > 0 {
                out.push_str(&lead);
            }
            out.extend(&chars[range]);
            out.push('\n');
        }
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
            let _ = writeln!(out, "        {}", shorten(&Difference::describe(d), LINE_WIDTH - 8));
        }
    }
    if let (Some(e), Some(a)) = (&case.expected, &case.actual) {
        // Values the check compared: a wide one is pretty-printed.
        for (label, value) in [("      expected  ", e), ("      actual    ", a)] {
            let text = shorten(&value.to_string(), LINE_WIDTH - 10);
            out.push_str(&evidence(&text, label, Show::Evidence));
        }
    }
    let skip = case.transcript.len().saturating_sub(TRANSCRIPT_LINES);
    if !case.transcript.is_empty() {
        let _ = writeln!(out, "      transcript ({legend}):");
        if skip > 0 {
            let _ = writeln!(
                out,
                "        … {skip} earlier {}",
                if skip == 1 { "line" } else { "lines" }
            );
        }
        // The lines as they were sent, continued at a boundary near the
        // end of the line (the exact text: only where a line breaks).
        for entry in &case.transcript[skip..] {
            let lead = format!("        {} ", entry.glyph());
            out.push_str(&evidence(&shorten(&entry.line, LINE_WIDTH), &lead, Show::Wire));
        }
        if case.ends_unanswered() {
            let _ = writeln!(out, "          {}", crate::check::report::NOTHING_BACK);
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

/// `text` behind `lead` laid out in [`WIDTH`] columns by the wide-frame
/// rule ([`crate::text::lay_out_frame`]), a pretty-printed frame's lines
/// under the lead, its continuations behind `┆` under the lead's end; one
/// `\n`-ended line each (a line that goes on keeps its last space).
pub fn evidence(text: &str, lead: &str, show: Show) -> String {
    use crate::text::{Leads, Piece, Tone, lay_out_frame, plain};
    let bar = format!("{:>w$}", "┆ ", w = unicode_width::UnicodeWidthStr::width(lead));
    let leads = Leads::new(Piece::new(lead, Tone::Marker), Piece::new(bar, Tone::Marker));
    let lines: Vec<String> = lay_out_frame(text, WIDTH, show, &leads).iter().map(plain).collect();
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let continued = lines.get(i + 1).is_some_and(|next| next.trim_start().starts_with('┆'));
        out.push_str(if continued { line } else { line.trim_end() });
        out.push('\n');
    }
    out
}

/// Prints `text` on stdout, word-wrapped to [`WIDTH`].
pub fn say(text: &str) {
    for l in wrap_plain(text, WIDTH) {
        println!("{l}");
    }
}

/// Prints `text` on stderr, word-wrapped to [`WIDTH`].
pub fn warn(text: &str) {
    for l in wrap_plain(text, WIDTH) {
        eprintln!("{l}");
    }
}

/// `line` as it is when it fits [`WIDTH`] columns, else word-wrapped to it
/// (wrapping folds runs of spaces, so a line that fits keeps its own).
pub fn fit(line: &str) -> Vec<String> {
    if unicode_width::UnicodeWidthStr::width(line) <= WIDTH {
        vec![line.to_string()]
    } else {
        wrap_plain(line, WIDTH)
    }
}

/// Word-wraps plain text to `width` columns. A `backtick` span holding a
/// JSON value too wide for a line is set on lines of its own by the
/// wide-frame rule ([`crate::text::wrap_with_frames`]); other spans keep
/// their backticks.
pub fn wrap_plain(text: &str, width: usize) -> Vec<String> {
    wrap_spans(text, width, true)
}

/// [`wrap_plain`] for course text read in line mode (the quiz): a `code`
/// span shows bare, its backticks dropped, as the workbook shows it.
pub fn wrap_bare(text: &str, width: usize) -> Vec<String> {
    wrap_spans(text, width, false)
}

fn wrap_spans(text: &str, width: usize, ticks: bool) -> Vec<String> {
    use crate::text::{Piece, Tone, plain, wrap_with_frames};
    let parts: Vec<&str> = text.split('`').collect();
    // An unmatched backtick opens no span.
    let open_end = parts.len().is_multiple_of(2);
    let pieces: Vec<Piece> = parts
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            if open_end && i + 1 == parts.len() {
                return Piece::new(format!("`{t}"), Tone::Plain);
            }
            let wide_json = i % 2 == 1
                && unicode_width::UnicodeWidthStr::width(t) + 2 > width
                && serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok();
            match (i % 2 == 1, wide_json) {
                (_, true) => Piece::new(t, Tone::Code),
                (true, false) if ticks => Piece::new(format!("`{t}`"), Tone::Plain),
                (true, false) => Piece::new(t, Tone::Plain),
                (false, false) => Piece::new(t, Tone::Plain),
            }
        })
        .filter(|p| !p.text.is_empty())
        .collect();
    wrap_with_frames(&pieces, width, "", "").iter().map(plain).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case name longer than a line wraps at its spaces, each piece
    /// whole and within [`WIDTH`]; before, `fold` broke it mid-word
    /// behind `┆`.
    #[test]
    fn a_long_case_name_wraps_at_words_within_80_columns() {
        let words: Vec<String> = (0..14).map(|i| format!("word{i:02}")).collect();
        let name = words.join(" ");
        assert!(name.len() > WIDTH);
        // As render does: the lines, then fold to WIDTH.
        let mut out = String::new();
        case_line(&mut out, '✗', &name);
        let text = fold(&out, WIDTH);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1, "{text}");
        assert!(lines[0].starts_with("  ✗ word00 "), "{text}");
        assert!(lines[1..].iter().all(|l| l.starts_with("    word")), "{text}");
        assert!(!text.contains('┆'), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        let rejoined: Vec<&str> = text.split_whitespace().skip(1).collect();
        assert_eq!(rejoined, words.iter().map(String::as_str).collect::<Vec<_>>());
    }
}
