//! `mcplings verify`: proves the course. The content loads (the caller
//! checks that); for every exercise the shipped stub builds and fails its
//! checker with at least one reason, the reference solution passes every
//! case, and the harness (`src/main.rs`, when it is not one of the files the
//! learner edits) is the same file in both crates.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::EXIT_FAILED;
use crate::actions;
use crate::check::{self, CheckReport, Options, Source, Status};
use crate::content::{Course, Exercise};

/// Runs every proof and prints one line per exercise.
pub fn run(course: &Course) -> Result<u8, String> {
    let questions: usize = course
        .parts
        .iter()
        .filter_map(|p| p.quiz.as_ref())
        .map(|q| q.questions.len())
        .sum();
    let written = course.parts.iter().filter(|p| p.is_written()).count();
    println!(
        "content ... ok ({written} of {} parts written, {} exercises, {questions} quiz questions)",
        course.parts.len(),
        course.exercises.len()
    );
    let problems = verify_all(course);
    // Three proofs per exercise: the harness, the stub, the solution.
    let proofs = course.exercises.len() * 3;
    let failed = problems.len().min(proofs);
    if !problems.is_empty() {
        println!("\nverify found {} problem(s):", problems.len());
        for p in &problems {
            println!("  - {p}");
        }
    }
    println!("verify: {} passed, {failed} failed", proofs - failed);
    Ok(if problems.is_empty() { 0 } else { EXIT_FAILED })
}

/// Verifies every exercise, several at a time, printing each one's line in
/// course order as soon as it and those before it are done; returns every
/// problem found.
///
/// One cargo run first builds every stub and solution crate, so cargo
/// compiles independent crates side by side and the checks after it find
/// their binaries built. The checks then run in parallel: most of a check
/// is waiting on the program under test (the pauses and timeouts its cases
/// allow), not work for a core.
fn verify_all(course: &Course) -> Vec<String> {
    let packages: Vec<String> = course
        .exercises
        .iter()
        .flat_map(|e| [e.package(), e.solution_package()])
        .collect();
    check::build::prebuild(&course.root, &packages, &check::target_dir(&course.root), None);
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get() * 2)
        .clamp(2, 4);
    let next = AtomicUsize::new(0);
    // (how many have been printed, each exercise's outcome once it is known)
    let done: Mutex<(usize, Vec<Option<Outcome>>)> = Mutex::new((0, vec![None; course.exercises.len()]));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(ex) = course.exercises.get(i) else { break };
                    let outcome = verify_exercise(course, ex);
                    let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
                    done.1[i] = Some(outcome);
                    while let Some(Some((lines, _))) = done.1.get(done.0) {
                        lines.iter().for_each(|line| println!("{line}"));
                        done.0 += 1;
                    }
                }
            });
        }
    });
    let (_, outcomes) = done.into_inner().unwrap_or_else(|e| e.into_inner());
    outcomes
        .into_iter()
        .flatten()
        .flat_map(|(_, problems)| problems)
        .collect()
}

/// The lines to print for one exercise, and the problems found.
type Outcome = (Vec<String>, Vec<String>);

/// Builds and checks one exercise's stub and solution.
fn verify_exercise(course: &Course, ex: &Exercise) -> Outcome {
    let mut problems = Vec::new();
    let mut lines = Vec::new();
    let harness = |dir: &Path| std::fs::read(dir.join("src/main.rs")).ok();
    let learners_own = ex.files.iter().any(|f| f == "src/main.rs");
    if !learners_own && harness(&ex.dir(&course.root)) != harness(&ex.solution_dir(&course.root)) {
        problems.push(format!(
            "{}: exercises/{0}/src/main.rs and solutions/{0}/src/main.rs differ; the harness must be the same file",
            ex.id
        ));
    }
    let options = Options::default();
    let stub = check_stub(course, ex, &options, &mut lines);
    let stub_line = match &stub {
        Ok(r) => {
            let failed = r.cases.iter().filter(|c| c.status == Status::Failed).count();
            if !r.build.ok {
                problems.push(format!(
                    "{}: the shipped stub does not build; stubs must compile as shipped:\n{}",
                    ex.id, r.build.output
                ));
                "stub does not build ✗".to_string()
            } else if r.passed || failed == 0 {
                problems.push(format!(
                    "{}: the shipped stub passes its checker; a stub must fail",
                    ex.id
                ));
                "stub passes ✗".to_string()
            } else if let Some(c) = r
                .cases
                .iter()
                .find(|c| c.status == Status::Failed && c.reason.as_deref().unwrap_or("").trim().is_empty())
            {
                problems.push(format!("{}: case `{}` fails the stub without a reason", ex.id, c.name));
                "stub fails without a reason ✗".to_string()
            } else {
                format!("stub fails ({}/{}) ✓", r.passed_cases(), r.cases.len())
            }
        }
        Err(e) => {
            problems.push(format!("{}: {e}", ex.id));
            "stub not checked ✗".to_string()
        }
    };
    let solution = check::check(course, ex, &Source::Solution, &options, &mut |_| {});
    let solution_line = if solution.passed {
        format!(
            "solution passes ({}/{}) ✓",
            solution.passed_cases(),
            solution.cases.len()
        )
    } else {
        problems.push(format!(
            "{}: the reference solution fails:\n{}",
            ex.id,
            summary(&solution)
        ));
        format!(
            "solution fails ({}/{}) ✗",
            solution.passed_cases(),
            solution.cases.len()
        )
    };
    lines.push(format!("{:<20} {stub_line:<24} {solution_line}", ex.id));
    (lines, problems)
}

/// Checks the shipped stub: the learner's crate itself when its files are
/// still the stub's, else a scratch copy with the stub's files laid over it.
fn check_stub(
    course: &Course,
    ex: &Exercise,
    options: &Options,
    lines: &mut Vec<String>,
) -> Result<CheckReport, String> {
    if actions::is_pristine(course, ex) {
        return Ok(check::check(course, ex, &Source::Exercise, options, &mut |_| {}));
    }
    let scratch = tempfile::Builder::new()
        .prefix("mcplings-stub-")
        .tempdir()
        .map_err(|e| format!("cannot make a scratch dir: {e}"))?;
    let dir = scratch.path();
    let crate_dir = ex.dir(&course.root);
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).map_err(|e| e.to_string())?;
    // A package name of its own, so its binary doesn't overwrite the learner's.
    let manifest = manifest.replace(
        &format!("name = \"{}\"", ex.package()),
        &format!("name = \"stub-{}\"", ex.id),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    std::fs::copy(course.root.join("Cargo.lock"), dir.join("Cargo.lock"))
        .map_err(|e| format!("cannot copy Cargo.lock: {e}"))?;
    copy_tree(&crate_dir.join("src"), &dir.join("src"))?;
    for file in &ex.files {
        std::fs::copy(ex.stub_dir(&course.root).join(file), dir.join(file)).map_err(|e| e.to_string())?;
    }
    lines.push(format!(
        "{:<20} (your copy is edited: checking the shipped stub in a scratch copy)",
        ex.id
    ));
    // One folder for every scratch stub: their package names differ, and a
    // scratch dir is gone before the next one is built.
    let options = Options {
        target_dir: Some(check::target_dir(&course.root).join("mcplings-verify")),
        ..options.clone()
    };
    Ok(check::check(
        course,
        ex,
        &Source::Path(dir.to_path_buf()),
        &options,
        &mut |_| {},
    ))
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(from).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

fn summary(report: &CheckReport) -> String {
    if !report.build.ok {
        return format!("    build failed:\n{}", report.build.output);
    }
    report
        .cases
        .iter()
        .filter(|c| c.status != Status::Passed)
        .map(|c| format!("    ✗ {}: {}", c.name, c.reason.as_deref().unwrap_or("")))
        .collect::<Vec<_>>()
        .join("\n")
}
