//! The case pane laid out: the selected case's name and what it checks,
//! then its reason, differences, expected and actual frames, transcript
//! and the learner's stderr.

use super::{Look, PaneLine, Run, paragraphs, toned, wrap_runs};
use crate::app::{App, CheckState};
use crate::check::{CaseReport, Direction, EntryKind, Status, TranscriptEntry};
use crate::text::{Leads, Piece, Show, Tone, lay_out_frame};

/// Most transcript entries the case pane shows (the last ones).
const TRANSCRIPT_ENTRIES: usize = 60;
/// Most characters of one transcript entry the case pane shows.
const ENTRY_CHARS: usize = 600;

/// The lines of the selected case of the open exercise.
pub(super) fn lines(app: &App, width: usize) -> Vec<PaneLine> {
    let mut lines = Vec::new();
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return lines;
    };
    let Some(case) = crate::check::checkers::of(ex).and_then(|c| c.cases.get(app.exercise.selected)) else {
        return lines;
    };
    let report = app.exercise.selected_case();
    let status = report.map(|r| r.status);
    let mark = match status {
        Some(Status::Passed) => "✓",
        Some(Status::Failed) => "✗",
        _ => "·",
    };
    // The name whole, above all (the list may cut it), wrapped if need be.
    let name = crate::text::wrap(
        &[Piece::new(format!("{mark} {}", case.name), Tone::Plain)],
        width,
        Piece::new("", Tone::Plain),
        Piece::new("  ", Tone::Plain),
    );
    lines.extend(
        name.into_iter()
            .map(|l| PaneLine::one(crate::text::plain(&l), Look::CaseName(status))),
    );
    lines.extend(paragraphs(case.about, width, Tone::Plain, Look::Dim));
    let Some(report) = report else {
        lines.push(PaneLine::blank());
        let text = match &app.exercise.check {
            CheckState::Running { .. } => "running…",
            _ => "Not checked yet: c checks.",
        };
        lines.push(PaneLine::one(text, Look::Dim));
        return lines;
    };
    lines.push(PaneLine::blank());
    if let Some(reason) = &report.reason_told() {
        let look = if report.status == Status::Failed {
            Look::Fail
        } else {
            Look::Dim
        };
        lines.extend(paragraphs(reason, width, Tone::Plain, look));
        lines.push(PaneLine::blank());
    }
    if report.status == Status::Failed
        && let Some(&n) = ex.hint_for.get(&report.name)
    {
        let text = if n <= app.progress.hints_shown(&ex.id) {
            format!("Hint {n} is about this case: h shows it.")
        } else {
            format!("Hint {n} is about this case: H reveals up to it.")
        };
        lines.extend(paragraphs(&text, width, Tone::Plain, Look::Dim));
        lines.push(PaneLine::blank());
    }
    details(report, app.exercise.raw, app.exercise.wide, width, &mut lines);
    lines
}

/// The case's evidence: differences, the values compared, the transcript
/// (`raw`: as sent; `wide`: the case list hidden, which `w` undoes), and
/// the program's stderr.
fn details(report: &CaseReport, raw: bool, wide: bool, width: usize, lines: &mut Vec<PaneLine>) {
    if !report.differences.is_empty() {
        lines.push(PaneLine::one("Differences", Look::Title));
        for d in &report.differences {
            lines.extend(paragraphs(
                &format!("• {}", d.describe()),
                width,
                Tone::Plain,
                Look::Plain,
            ));
        }
        lines.push(PaneLine::blank());
    }
    if let (Some(e), Some(a)) = (&report.expected, &report.actual) {
        lines.extend(frame_lines(
            "expected ",
            &e.to_string(),
            width,
            Show::Evidence,
            Look::Dim,
        ));
        lines.extend(frame_lines(
            "actual   ",
            &a.to_string(),
            width,
            Show::Evidence,
            Look::Dim,
        ));
        lines.push(PaneLine::blank());
    }
    if !report.transcript.is_empty() {
        let legend = if wide {
            "▶ to your program · ◀ from it · w shows the cases"
        } else {
            "▶ to your program · ◀ from it · w full-width"
        };
        lines.extend(transcript_title(
            legend,
            report.transcript.iter().any(|e| e.kind == EntryKind::Harness),
            raw,
            width,
        ));
        // The last entries matter most (the failure is at the end), and a
        // long line is rarely read past its start: both are capped, so a
        // case that moved megabytes still shows in a few screens.
        let skip = report.transcript.len().saturating_sub(TRANSCRIPT_ENTRIES);
        if skip > 0 {
            lines.push(PaneLine::one(format!("… {skip} earlier lines"), Look::Dim));
        }
        for entry in &report.transcript[skip..] {
            lines.extend(entry_lines(entry, raw, width));
        }
        if report.ends_unanswered() {
            lines.push(PaneLine::one(
                format!("  {}", crate::check::report::NOTHING_BACK),
                Look::Dim,
            ));
        }
        lines.push(PaneLine::blank());
    }
    let stderr = report.stderr.trim_end();
    if !stderr.is_empty() {
        lines.push(PaneLine::one("Your program's stderr", Look::Title));
        for l in stderr.lines() {
            lines.extend(wrap_runs(
                vec![Run::new(crate::text::visible(l).into_owned(), Look::Dim)],
                width,
            ));
        }
    }
}

/// A transcript's title, with `legend` saying which way the glyphs point
/// and what `v` switches to (`raw`: each line as it was sent), and a line
/// about harness lines when there are any.
pub fn transcript_title(legend: &str, harness: bool, raw: bool, width: usize) -> Vec<PaneLine> {
    let (title, switch) = if raw {
        ("Transcript, raw ", "v lays wide frames out")
    } else {
        ("Transcript ", "v shows the raw lines")
    };
    let pieces = [
        Piece::new(title, Tone::Strong),
        Piece::new(format!("{legend} · {switch}"), Tone::Plain),
    ];
    let none = || Piece::new("", Tone::Plain);
    let mut lines: Vec<PaneLine> = crate::text::wrap(&pieces, width, none(), none())
        .into_iter()
        .map(|l| {
            PaneLine::of(
                l.into_iter()
                    .map(|p| {
                        let look = if p.tone == Tone::Strong { Look::Title } else { Look::Dim };
                        Run::new(p.text, look)
                    })
                    .collect(),
            )
        })
        .collect();
    if harness {
        lines.extend(paragraphs(
            "▷ ◁ the harness: calling a function of yours, then what came back that is no frame (a value, a panic); a frame your code wrote or returned is ◀",
            width,
            Tone::Plain,
            Look::Dim,
        ));
    }
    lines
}

/// One transcript entry behind its glyph, at most [`ENTRY_CHARS`]
/// characters of it, laid out by the wide-frame rule for `width` columns:
/// a wide JSON frame pretty-printed, or with `raw` the exact line broken
/// at characters.
pub fn entry_lines(entry: &TranscriptEntry, raw: bool, width: usize) -> Vec<PaneLine> {
    let look = match (entry.dir, entry.kind) {
        (_, EntryKind::Junk) => Look::Fail,
        (_, EntryKind::Harness) => Look::Dim,
        (Direction::ToLearner, _) => Look::Tone(Tone::Label),
        (Direction::FromLearner, _) => Look::Tone(Tone::JsonString),
    };
    let chars = entry.line.chars().count();
    let line = if chars > ENTRY_CHARS {
        format!(
            "{} … ({} more characters)",
            entry.line.chars().take(ENTRY_CHARS).collect::<String>(),
            chars - ENTRY_CHARS
        )
    } else {
        entry.line.clone()
    };
    let show = if raw { Show::Raw } else { Show::Evidence };
    frame_lines(&format!("{} ", entry.glyph()), &line, width, show, look)
}

/// A frame (or any line) behind a label, laid out by the wide-frame rule
/// ([`lay_out_frame`]): a pretty-printed frame's lines under the label,
/// its continuation lines behind a dotted bar under the label's end.
fn frame_lines(label: &str, text: &str, width: usize, show: Show, label_look: Look) -> Vec<PaneLine> {
    use unicode_width::UnicodeWidthStr;
    let bar = format!("{:>w$}", "┆ ", w = label.width());
    // A tone no frame's text has, so the leads stay runs of their own.
    let leads = Leads::new(Piece::new(label, Tone::Marker), Piece::new(bar, Tone::Marker));
    lay_out_frame(text, width, show, &leads)
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            let continued = l.first().is_some_and(|p| p.text.contains('┆'));
            let mut runs = toned(l);
            if let Some(lead) = runs.first_mut() {
                // The lead's text stays (a continuation's indent with it).
                lead.look = match (i, continued) {
                    (0, _) => label_look,
                    (_, true) => Look::Continued,
                    (_, false) => Look::Plain,
                };
            }
            PaneLine::of(runs)
        })
        .collect()
}
