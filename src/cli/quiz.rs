//! `mcplings quiz <part>`: the quiz in plain line mode. One question at a
//! time; a wrong answer shows why and asks again; the right answer shows
//! its explanation too. Works with piped input, for scripts. The options
//! are shuffled once per run ([`shuffled_order`]; `MCPLINGS_QUIZ_SEED`
//! fixes the order), and a run left unfinished keeps its order (its seed
//! is in the progress from the moment the first question shows, answered
//! or not); progress records picks in file order.

use std::io::{BufRead, Write};

use super::EXIT_FAILED;
use super::report::wrap_bare as wrap_plain;
use crate::content::Course;
use crate::content::quiz::{LETTERS, SEED_VAR, option_of, run_seed, shuffled_order};
use crate::progress;

/// Runs the quiz of the part `query` names on stdin/stdout. Exit 0 when
/// every question was answered or the learner stopped with `q` (a
/// voluntary stop), 1 when input ended first; an unknown part is a usage
/// error.
pub fn run(course: &Course, query: &str) -> Result<u8, String> {
    let p = super::commands::part(course, query)?;
    let part = p.number;
    let quiz = p
        .quiz
        .as_ref()
        .ok_or_else(|| format!("part {part} ({}) has no quiz yet", p.title))?;
    let mut progress = super::commands::load_progress(course);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let total = quiz.questions.len();
    // The run under way keeps its order (the workbook's too), unless the
    // order is fixed from outside.
    let stored = progress.quiz(part).and_then(|q| q.seed);
    let fixed = std::env::var_os(SEED_VAR).is_some();
    let seed = match stored {
        Some(seed) if !fixed => seed,
        _ => run_seed(),
    };
    // Saved before the first question shows, so a run stopped before any
    // answer comes back with the letters where they were.
    if stored.is_none() && !fixed {
        progress = super::commands::update_progress(course, |p| {
            p.quizzes.entry(part.to_string()).or_default().seed.get_or_insert(seed);
        })?;
    }
    for line in wrap_plain(&format!("Quiz · Part {part} · {}", p.title), 80) {
        println!("{line}");
    }
    println!("{total} questions; answer with a letter, q to stop.");
    let solved = |progress: &progress::Progress, id: &str| {
        progress
            .quiz(part)
            .and_then(|q| q.answers.get(id))
            .is_some_and(|a| a.solved)
    };
    let done = quiz.questions.iter().filter(|q| solved(&progress, &q.id)).count();
    if done > 0 && done < total {
        println!("{done} questions already answered; going on with the others.");
    } else if done == total {
        super::report::say("You have answered every question. Here they are again; your score stays as it was.");
    }
    for (n, question) in quiz.questions.iter().enumerate() {
        if done < total && solved(&progress, &question.id) {
            continue;
        }
        println!("\nQuestion {} of {total}", n + 1);
        for line in question.prompt.lines() {
            for l in wrap_plain(line, 78) {
                println!("{l}");
            }
        }
        if let Some(frames) = &question.frames {
            println!();
            let lines = frames.split_lines();
            if lines.iter().any(|(arrow, _)| arrow.is_some()) {
                println!("  {} (▶ the client sends, ◀ the server sends)", frames.revision);
            } else {
                println!("  {}", frames.revision);
            }
            for (arrow, text) in lines {
                // The arrow leads; a long frame continues under its text.
                let json = text.starts_with(['{', '[']);
                let first = crate::text::Piece::new(format!("  {} ", arrow.unwrap_or(' ')), crate::text::Tone::Plain);
                let rest = crate::text::Piece::new("  ┆ ", crate::text::Tone::Plain);
                let leads = crate::text::Leads::new(first, rest);
                for l in crate::text::lay_out_frame(text, 78, crate::text::Show::Code { json }, &leads) {
                    println!("{}", crate::text::plain(&l).trim_end());
                }
            }
        }
        println!();
        let order = shuffled_order(seed, &question.id, question.options.len());
        for (i, option) in order.iter().map(|&o| &question.options[o]).enumerate() {
            let text = wrap_plain(&option.text, 72);
            println!("  {}) {}", LETTERS[i], text.first().map(String::as_str).unwrap_or(""));
            for l in text.iter().skip(1) {
                println!("     {l}");
            }
        }
        loop {
            print!("> ");
            let _ = std::io::stdout().flush();
            let mut line = String::new();
            let ended = input.read_line(&mut line).map_err(|e| e.to_string())? == 0;
            if ended || line.trim() == "q" {
                println!();
                println!(
                    "Stopped at question {} of {total}; your answers so far are saved.",
                    n + 1
                );
                return Ok(if ended { EXIT_FAILED } else { 0 });
            }
            let answer = line.trim().to_ascii_lowercase();
            let Some(pick) = answer
                .chars()
                .next()
                .and_then(option_of)
                .filter(|i| *i < question.options.len() && answer.len() == 1)
                .map(|shown| order[shown])
            else {
                println!(
                    "Answer with a letter from a to {}.",
                    LETTERS[question.options.len() - 1]
                );
                continue;
            };
            let option = &question.options[pick];
            // Saved at once: a quiz stopped by Ctrl-C keeps every answer.
            progress = super::commands::update_progress(course, |p| {
                p.record_pick_to(part, &question.id, Some(&question.fingerprint()), pick, option.correct);
                p.quizzes.entry(part.to_string()).or_default().seed.get_or_insert(seed);
            })?;
            let mark = if option.correct { "✓ Right." } else { "✗ Not quite." };
            let lines = wrap_plain(&format!("{mark} {}", option.explanation), 76);
            for l in &lines {
                println!("  {l}");
            }
            if option.correct {
                break;
            }
            if let Some(m) = &option.misconception {
                for l in wrap_plain(&crate::app::quiz_misconception_line(m), 76) {
                    println!("  {l}");
                }
            }
            println!("  Try another answer.");
        }
    }
    let (first, _) = progress.quiz_score(part);
    println!("\nDone: {first} of {total} right at the first try.");
    let missed = crate::app::quiz_missed(course, &progress, part);
    if !missed.is_empty() {
        println!("\nMissed at the first try:");
    }
    for i in missed {
        let q = &quiz.questions[i];
        let keyed = &q.options[q.correct()];
        println!();
        for (n, text) in [
            format!(
                "{}. {}",
                i + 1,
                q.prompt.split_whitespace().collect::<Vec<_>>().join(" ")
            ),
            format!("Answer: {}", keyed.text),
            keyed.explanation.clone(),
        ]
        .iter()
        .enumerate()
        {
            for l in wrap_plain(text, if n == 0 { 78 } else { 76 }) {
                println!("{}{l}", if n == 0 { "" } else { "  " });
            }
        }
        if let Some(section) = &q.section {
            let read = format!(
                "Read: {} lesson {} (Part {})",
                super::invocation(course),
                section.part,
                section.name()
            );
            for l in wrap_plain(&read, 76) {
                println!("  {l}");
            }
        }
    }
    Ok(0)
}
