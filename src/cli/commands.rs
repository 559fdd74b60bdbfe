//! `list`, `lesson`, `check`, `hint`, `reset` and `clean`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use serde_json::json;

use super::report::WIDTH;
use super::{EXIT_ERROR, EXIT_FAILED, report};

/// The widest last-check column of `list` ("last check 12/12").
const LAST_CHECK: usize = 17;
use crate::actions;
use crate::check::{self, Options, Source};
use crate::content::{Course, Exercise, Part};
use crate::progress::{self, Standing};

/// Finds an exercise, or says which ones exist (a usage error, exit 2):
/// "there is no exercise 99; exercises are 01 to 11: 01-encode-frames, …".
pub fn exercise<'c>(course: &'c Course, query: &str) -> Result<&'c Exercise, String> {
    course.exercise(query).ok_or_else(|| {
        let known: Vec<&str> = course.exercises.iter().map(|e| e.id.as_str()).collect();
        // Numbers are stable keys, not course order (12 sits in Part 3).
        let numbers = course.exercises.iter().map(|e| e.number());
        let (first, last) = (numbers.clone().min().unwrap_or(""), numbers.max().unwrap_or(""));
        format!(
            "there is no exercise {query}; exercises are {first} to {last}: {}",
            known.join(", ")
        )
    })
}

/// Finds a part by the number the learner typed, or says which ones exist
/// (a usage error, exit 2): "there is no part 9; parts are 1 to 5", the same
/// for `9`, `x` or `-1`.
pub fn part<'c>(course: &'c Course, query: &str) -> Result<&'c Part, String> {
    query
        .trim()
        .parse::<u8>()
        .ok()
        .and_then(|n| course.part(n))
        .ok_or_else(|| format!("there is no part {query}; parts are 1 to {}", course.parts.len()))
}

/// Loads the progress file, telling the learner on stderr if it had to be
/// backed up, and brings it to the course's version first (what it dropped
/// is said on stderr, once).
pub(super) fn load_progress(course: &Course) -> progress::Progress {
    match actions::migrate_file(course) {
        Ok(notes) => notes.iter().for_each(|n| report::warn(&format!("mcplings: {n}"))),
        Err(e) => eprintln!("mcplings: {e}"),
    }
    let loaded = progress::load(&progress::path(&course.root));
    if let Some(w) = loaded.warning {
        eprintln!("mcplings: {w}");
    }
    loaded.progress
}

/// Applies `change` to the progress file under its lock (another mcplings
/// may be saving too) and returns the progress written.
pub(super) fn update_progress(
    course: &Course,
    change: impl FnOnce(&mut progress::Progress),
) -> Result<progress::Progress, String> {
    let shape = actions::course_shape(course);
    let mut notes = Vec::new();
    let saved = progress::update(&progress::path(&course.root), |p| {
        notes = p.migrate(&shape);
        change(p);
    })
    .map_err(|e| format!("cannot save progress: {e}"))?;
    notes.iter().for_each(|n| report::warn(&format!("mcplings: {n}")));
    if let Some(w) = saved.warning {
        eprintln!("mcplings: {w}");
    }
    Ok(saved.progress)
}

/// `mcplings list [--json]`.
pub fn list(course: &Course, as_json: bool) -> Result<u8, String> {
    let p = load_progress(course);
    let shape = actions::course_shape(course);
    if as_json {
        let parts: Vec<_> = course
            .parts
            .iter()
            .map(|part| {
                let (first, answered) = p.quiz_score(part.number);
                let lesson = p.lesson_standing(part.number);
                let exercises: Vec<_> = part
                    .exercises
                    .iter()
                    .filter_map(|id| course.exercise(id))
                    .map(|e| {
                        let standing = p.exercise_standing(&e.id);
                        json!({
                            "id": e.id, "title": e.title, "standing": standing,
                            "done": standing == Standing::Done,
                            "new_cases": p.has_new_cases(&e.id, &shape),
                            "edited": !actions::is_pristine(course, e),
                            "last_check": p.exercises.get(&e.id).and_then(|x| x.last_check).map(|(passed, total)| json!({"passed": passed, "total": total})),
                        })
                    })
                    .collect();
                json!({
                    "number": part.number, "title": part.title, "written": part.is_written(),
                    "lesson": lesson, "lesson_read": lesson == Standing::Done,
                    "quiz": part.quiz.as_ref().map(|q| json!({
                        "standing": p.quiz_standing(part.number, q.questions.len()),
                        "questions": q.questions.len(), "answered": answered, "first_try": first,
                    })),
                    "exercises": exercises,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"format_version": 1, "title": course.title, "parts": parts}))
                .unwrap_or_default()
        );
        return Ok(0);
    }
    println!("{}", course.title);
    // One column for ids, one for titles, then the last check: the widths
    // come from the course, the title wraps at words when the line would
    // pass WIDTH.
    let id_width = course.exercises.iter().map(|e| e.id.chars().count()).max().unwrap_or(0);
    let title_width = course
        .exercises
        .iter()
        .map(|e| e.title.chars().count())
        .max()
        .unwrap_or(0);
    let title_width = title_width.min(WIDTH - LAST_CHECK - id_width - 6);
    for part in &course.parts {
        if !part.is_written() {
            println!("\nPart {} · {} (coming)", part.number, part.title);
            continue;
        }
        // The words and marks of the workbook's map (src/ui/map.rs), from
        // the same progress::Standing.
        let read = match p.lesson_standing(part.number) {
            Standing::Done => "read",
            Standing::Tried => "reading",
            Standing::NotStarted => "not read",
        };
        let head = format!("Part {} · {}   lesson: {read}", part.number, part.title);
        println!();
        for l in report::fit(&head) {
            println!("{l}");
        }
        for id in &part.exercises {
            let Some(e) = course.exercise(id) else { continue };
            let failing = p.failing_now(id);
            let mark = match p.exercise_standing(id) {
                Standing::Done if failing => crate::progress::FAILING_NOW,
                Standing::Done => "✓",
                Standing::Tried => "✗",
                Standing::NotStarted => "·",
            };
            let last = p
                .exercises
                .get(id)
                .and_then(|x| x.last_check)
                .map(|(a, b)| format!("last check {a}/{b}"))
                .unwrap_or_default();
            let last = if failing { format!("{last}, failing now") } else { last };
            let title = report::wrap_plain(&e.title, title_width);
            for (i, t) in title.iter().enumerate() {
                let (mark, id, last) = if i == 0 {
                    (mark, e.id.as_str(), last.as_str())
                } else {
                    (" ", "", "")
                };
                let line = format!("  {mark} {id:<id_width$}  {t:<title_width$}  {last}");
                println!("{}", line.trim_end());
            }
            if p.has_new_cases(id, &shape) {
                println!("    {:id_width$}  new cases since you solved it", "");
            }
        }
        if let Some(quiz) = &part.quiz {
            let (first, answered) = p.quiz_score(part.number);
            let total = quiz.questions.len();
            match p.quiz_standing(part.number, total) {
                Standing::NotStarted => println!("  quiz: not started ({total} questions)"),
                Standing::Tried => println!("  quiz: {answered}/{total} solved, {first} right at the first try"),
                Standing::Done => println!("  quiz done: {first} of {total} right at the first try"),
            }
        }
    }
    let done = course
        .exercises
        .iter()
        .filter(|e| p.exercise_standing(&e.id) == Standing::Done)
        .count();
    println!("\n{done} of {} exercises done.", course.exercises.len());
    if course.exercises.iter().any(|e| p.failing_now(&e.id)) {
        println!(
            "{} passed before, failing now: every case passed once, the last check did not.",
            crate::progress::FAILING_NOW
        );
    }
    println!("Next: {}", next_said(course, &p));
    Ok(0)
}

/// What comes next by `progress` ([`crate::app::map::next_step`], as the
/// workbook's map says it), with the command that does it.
fn next_said(course: &Course, progress: &crate::progress::Progress) -> String {
    use crate::app::map::{NextStep, next_step};
    let run = super::invocation(course);
    match next_step(course, progress) {
        NextStep::Lesson(p) => format!("the lesson of Part {p} (`{run} lesson {p}`)."),
        NextStep::Exercise(i) => {
            let ex = &course.exercises[i];
            format!("exercise {} (`{run} task {}`).", ex.id, ex.number())
        }
        NextStep::Quiz(p) => format!("the quiz of Part {p} (`{run} quiz {p}`)."),
        NextStep::Done => "everything written so far is done.".to_string(),
    }
}

/// `mcplings lesson <part> [--full]`: the asides folded, or open with `--full`.
pub fn lesson(course: &Course, query: &str, full: bool) -> Result<u8, String> {
    let p = part(course, query)?;
    let lesson = p
        .lesson
        .as_ref()
        .ok_or_else(|| format!("part {} ({}) is not written yet", p.number, p.title))?;
    let mut text = crate::text::lesson_text(lesson, terminal_width(), full);
    // Folded asides say how to read them, under the title.
    let folded = !full && lesson.sections.iter().any(|s| s.asides().next().is_some());
    if folded && let Some(at) = text.find('\n') {
        let how = format!(
            "\nAsides are folded ({} …): `{} lesson {} --full` prints them open.\n",
            crate::text::FOLDED,
            super::invocation(course),
            p.number
        );
        text.insert_str(at + 1, &how);
    }
    // Printed to its end (a reader who stops `| head` early ends at the
    // broken pipe, before this), the lesson counts as read, and each of its
    // sections as seen (what an exercise's "Read first" asks), as in the
    // workbook when every section was shown.
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_ok() {
        let number = p.number;
        let titles: Vec<&str> = lesson.sections.iter().map(|s| s.title.as_str()).collect();
        update_progress(course, |progress| {
            let record = progress.lesson_mut(number);
            record.read = true;
            for title in &titles {
                record.see(title);
            }
        })?;
    }
    Ok(0)
}

/// The width `lesson` wraps to: the terminal's when stdout is one (at least
/// 40 columns), else [`WIDTH`].
fn terminal_width() -> usize {
    if !std::io::stdout().is_terminal() {
        return WIDTH;
    }
    ratatui::crossterm::terminal::size().map_or(WIDTH, |(columns, _)| usize::from(columns).max(40))
}

/// `mcplings check <exercise> [--solution | --path DIR] [--json]`.
pub fn check(course: &Course, query: &str, solution: bool, path: Option<PathBuf>, as_json: bool) -> Result<u8, String> {
    let ex = exercise(course, query)?;
    let source = match path {
        Some(dir) => {
            let dir = std::path::absolute(&dir).unwrap_or(dir);
            if !dir.join("Cargo.toml").is_file() {
                return Err(format!(
                    "{} has no Cargo.toml: --path takes a crate directory",
                    dir.display()
                ));
            }
            Source::Path(dir)
        }
        None if solution => Source::Solution,
        None => Source::Exercise,
    };
    let options = Options::default();
    let interactive = !as_json && std::io::stderr().is_terminal();
    let mut on_event = |event: check::Event| {
        if interactive && let check::Event::Built(_) = event {
            eprint!("\r\x1b[K");
        }
    };
    if interactive {
        eprint!("building {} …", ex.id);
        let _ = std::io::stderr().flush();
    }
    let report = check::check(course, ex, &source, &options, &mut on_event);
    // A signal killed the cases under it: no report, the signal's exit.
    super::signals::hold_if_ending();
    if source == Source::Exercise && report.error.is_none() {
        // The record only: where the learner is in the workbook is the
        // workbook's to say, and it reopens there whatever ran in a shell.
        update_progress(course, |p| actions::record_check(p, &report))?;
    }
    if as_json {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        let command = match &source {
            Source::Exercise => format!("mcplings check {}", ex.number()),
            Source::Solution => format!("mcplings check {} --solution", ex.number()),
            Source::Path(dir) => format!("mcplings check {} --path {}", ex.number(), dir.display()),
        };
        print!("{}", report::render(&report, ex, &command));
        if !report.passed && report.error.is_none() {
            println!("The task again: `mcplings task {}`.", ex.number());
        }
        if report.passed && source == Source::Exercise {
            report::say(&format!(
                "Exercise {} is done. The reference solution is in solutions/{}/ to compare.",
                ex.id, ex.id
            ));
            println!("Next: {}", next_said(course, &load_progress(course)));
        }
    }
    Ok(match (&report.error, report.passed) {
        (Some(_), _) => EXIT_ERROR,
        (None, true) => 0,
        (None, false) => EXIT_FAILED,
    })
}

/// `mcplings task <exercise>`: the exercise's task as the workbook shows
/// it, the files to edit and the commands that check it and give hints.
pub fn task(course: &Course, query: &str) -> Result<u8, String> {
    use crate::text::{Tone, paragraphs, plain};
    let ex = exercise(course, query)?;
    report::say(&format!("Exercise {} · {}", ex.id, ex.title));
    if !ex.needs.is_empty() {
        let progress = load_progress(course);
        println!();
        println!(
            "Read first (✓ read, ○ not yet; `{} lesson N` prints part N):",
            super::invocation(course)
        );
        for need in &ex.needs {
            let read = need
                .section_title(course)
                .is_some_and(|title| progress.lesson(need.part).has_seen(title));
            println!("  {} {}", if read { "✓" } else { "○" }, need.name());
        }
    }
    for paragraph in ex.task.split("\n\n") {
        println!();
        for line in paragraphs(paragraph.trim(), WIDTH, Tone::Plain, "", "") {
            println!("{}", plain(&line).trim_end());
        }
    }
    println!();
    let files: Vec<String> = ex.files.iter().map(|f| format!("exercises/{}/{f}", ex.id)).collect();
    report::say(&format!(
        "Edit {}, then run `{run} check {n}`. `{run} hint {n}` gives a hint.",
        files.join(", "),
        run = super::invocation(course),
        n = ex.number()
    ));
    Ok(0)
}

/// `mcplings hint <exercise> [--all]`: reveals the next hint and prints
/// every hint revealed so far; with `all`, prints them and reveals nothing.
pub fn hint(course: &Course, query: &str, all: bool) -> Result<u8, String> {
    let ex = exercise(course, query)?;
    let (mut before, mut shown) = (0, 0);
    let p = if all {
        let p = load_progress(course);
        before = p.hints_shown(&ex.id);
        shown = before;
        p
    } else {
        update_progress(course, |p| {
            before = p.hints_shown(&ex.id);
            shown = actions::reveal_hint(p, ex);
        })?
    };
    for (i, text) in ex.hints.iter().take(shown).enumerate() {
        println!("Hint {} of {}:", i + 1, ex.hints.len());
        for line in report::wrap_plain(text, 76) {
            println!("  {line}");
        }
        println!();
    }
    if all {
        match shown {
            0 => println!(
                "No hint revealed yet: `mcplings hint {}` reveals the first of {}.",
                ex.number(),
                ex.hints.len()
            ),
            n if n < ex.hints.len() => println!("`mcplings hint {}` reveals the next one.", ex.number()),
            _ => println!("That is every hint."),
        }
    } else if before == shown {
        if p.is_done(&ex.id) {
            report::say(&format!(
                "That was the last hint. Your exercise passes: compare with solutions/{}/.",
                ex.id
            ));
        } else {
            report::say("That was the last hint. The reference solution unlocks once your exercise passes.");
        }
    } else if shown < ex.hints.len() {
        report::say(&format!(
            "Run `mcplings hint {0}` again for the next hint (`mcplings hint {0} --all` rereads these).",
            ex.number()
        ));
    }
    Ok(0)
}

/// `mcplings reset <exercise> [--yes]`.
pub fn reset(course: &Course, query: &str, yes: bool) -> Result<u8, String> {
    let ex = exercise(course, query)?;
    let files: Vec<String> = ex.files.iter().map(|f| format!("exercises/{}/{f}", ex.id)).collect();
    if !yes {
        if !std::io::stdin().is_terminal() {
            report::warn(&format!(
                "reset overwrites {} with the shipped stub; pass --yes to confirm",
                files.join(", ")
            ));
            return Ok(EXIT_ERROR);
        }
        eprint!(
            "Overwrite {} with the shipped stub? Your edits will be lost. [y/N] ",
            files.join(", ")
        );
        let _ = std::io::stderr().flush();
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            // Declining is a choice, not a failure.
            println!("Nothing changed.");
            return Ok(0);
        }
    }
    actions::reset_files(course, ex)?;
    update_progress(course, |p| actions::forget_exercise(p, ex))?;
    report::say(&format!(
        "Restored {} to the shipped stub; the exercise starts over.",
        files.join(", ")
    ));
    Ok(0)
}

/// `mcplings clean`: removes the build output checks made under the
/// course's target dir (see [`check::disk::clean`]) and says what it
/// removed, how much that freed, and what it kept and why.
pub fn clean(course: &Course) -> Result<u8, String> {
    let target = check::target_dir(&course.root);
    let running = std::env::current_exe().ok();
    let cleaned = check::disk::clean(&target, running.as_deref());
    let shown = |dir: &std::path::Path| dir.strip_prefix(&course.root).unwrap_or(dir).display().to_string();
    for (dir, bytes) in &cleaned.removed {
        println!("removed {} ({})", shown(dir), megabytes(*bytes));
    }
    for (dir, reason) in &cleaned.kept {
        println!("kept {}: {reason}", shown(dir));
    }
    if cleaned.removed.is_empty() && cleaned.kept.is_empty() {
        println!("nothing to clean in {}", shown(&target));
    } else {
        println!(
            "freed {}; the next check builds what it needs again",
            megabytes(cleaned.bytes())
        );
    }
    Ok(if cleaned.kept.is_empty() { 0 } else { EXIT_FAILED })
}

/// Bytes as megabytes (10^6), one decimal.
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
