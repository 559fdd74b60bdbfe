//! `mcplings verify`: proves the course. The content loads (the caller
//! checks that); for every exercise the shipped stub builds and fails its
//! checker with at least one reason, the reference solution passes every
//! case, the glue that connects the learner's file to the checker's harness
//! (`src/main.rs`, when it is not one of the files the learner edits) is
//! the same file in both crates, and the exercise is laid out as
//! CONTRIBUTING.md's "Adding an exercise" asks (both crates are workspace
//! members with the same manifest but for the package name, a crate whose
//! `src/main.rs` is the glue compiles the learner's `src/lib.rs` as a
//! module of it and has no library target, every file the learner edits
//! has its shipped copy, the README names the exercise). Before building
//! anything, the content rules: quiz fairness, terms taught before use,
//! and the rules each exercise's cases test stated by the sections it
//! needs ([`rules`]).

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::EXIT_FAILED;
use crate::actions;
use crate::check::{self, CheckReport, Options, Source, Status};
use crate::content::{Course, Exercise, WORKSPACE};

pub(super) mod quiz_rules;
pub(super) mod rules;

/// Runs every proof and prints one line per exercise; with `content_only`,
/// stops after the content rules (nothing is built).
pub fn run(course: &Course, content_only: bool) -> Result<u8, String> {
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
    if let Some(code) = content_rules(course) {
        return Ok(code);
    }
    if content_only {
        return Ok(0);
    }
    let problems = verify_all(course);
    // Four proofs per exercise: the layout, the glue, the stub, the solution.
    let proofs = course.exercises.len() * 4;
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

/// The rules the content must keep beyond loading (quiz fairness, terms
/// taught before use, rules against sections): prints each problem and
/// returns the exit code when any is broken, so the exercises are not
/// built for nothing.
fn content_rules(course: &Course) -> Option<u8> {
    let mut problems = crate::content::fairness::problems(course);
    if let Some(glossary) = &course.glossary {
        problems.extend(crate::content::glossary::order_problems(course, glossary));
    }
    let against_sections = rules::check(course, |ex| {
        check::checkers::of(ex).map_or_else(Vec::new, |c| c.cases.iter().map(|c| (c.name, c.rules)).collect())
    });
    problems.extend(against_sections.problems);
    let quizzes = quiz_rules::check(course);
    problems.extend(quizzes.problems.iter().cloned());
    println!(
        "content rules ... {}",
        if problems.is_empty() { "ok" } else { "failed" }
    );
    if let Some(line) = against_sections.pending.line() {
        println!("{line}");
    }
    println!("{}", quizzes.share_line());
    if let Some(line) = quizzes.pending_line() {
        println!("{line}");
    }
    if problems.is_empty() {
        return None;
    }
    println!("\nverify found {} problem(s) in the content:", problems.len());
    for p in &problems {
        println!("{p}");
    }
    Some(EXIT_FAILED)
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
    check::build::prebuild(&course.root, &packages, &check::course_target_dir(&course.root), None);
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
    let mut problems = layout_problems(course, ex);
    let mut lines = Vec::new();
    let glue = |dir: &Path| std::fs::read(dir.join("src/main.rs")).ok();
    let learners_own = ex.files.iter().any(|f| f == "src/main.rs");
    if !learners_own && glue(&ex.dir(&course.root)) != glue(&ex.solution_dir(&course.root)) {
        problems.push(format!(
            "{}: exercises/{0}/src/main.rs and solutions/{0}/src/main.rs differ; the glue to the checker's harness must be the same file",
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

/// What a solution's manifest holds and its exercise's does not: the
/// solution lies outside the folder of the crates' workspace manifest
/// (`exercises/Cargo.toml`), so it names that manifest itself.
const SOLUTION_WORKSPACE: &str =
    "# In the course crates' workspace, exercises/Cargo.toml (not the app's).\nworkspace = \"../../exercises\"\n";

/// What is missing from CONTRIBUTING.md's "Adding an exercise" checklist
/// for `ex`, as far as files show it: both crates listed in
/// `exercises/Cargo.toml`'s `[workspace] members`, their manifests the same
/// but for the package name (and the solution's [`SOLUTION_WORKSPACE`], and
/// its path to the exercise's harness crate: `../../exercises/<id>/harness`
/// for the exercise's `harness`),
/// no library target in a crate whose `src/main.rs` is
/// the glue (see [`glue_manifest_problem`]), the shipped copy of
/// every file the learner edits under `lessons/<part>/stubs/<id>/`, and the
/// README naming the exercise. A course without a README (a learner's
/// workspace) skips that item; a manifest that cannot be read is left to
/// the build to report.
fn layout_problems(course: &Course, ex: &Exercise) -> Vec<String> {
    let mut problems = Vec::new();
    let members = crate::content::workspace_members(&course.root);
    for crate_dir in [format!("exercises/{}", ex.id), format!("solutions/{}", ex.id)] {
        if !members.contains(&crate_dir) {
            problems.push(format!(
                "{}: {crate_dir} is not in {WORKSPACE}'s [workspace] members",
                ex.id
            ));
        }
    }
    let manifests = [ex.dir(&course.root), ex.solution_dir(&course.root)]
        .map(|dir| std::fs::read_to_string(dir.join("Cargo.toml")).ok());
    if let [Some(exercise), Some(solution)] = &manifests {
        let renamed = solution
            .replacen(
                &format!("name = \"{}\"", ex.solution_package()),
                &format!("name = \"{}\"", ex.package()),
                1,
            )
            .replacen(SOLUTION_WORKSPACE, "", 1)
            .replacen(
                &format!("path = \"../../exercises/{}/harness\"", ex.id),
                "path = \"harness\"",
                1,
            );
        if !solution.contains(SOLUTION_WORKSPACE) {
            problems.push(format!(
                "{}: solutions/{0}/Cargo.toml lacks these lines in [package] (it lies outside {WORKSPACE}'s folder):\n{SOLUTION_WORKSPACE}",
                ex.id
            ));
        } else if *exercise != renamed {
            problems.push(format!(
                "{}: exercises/{0}/Cargo.toml and solutions/{0}/Cargo.toml differ apart from the package name (and the solution's path to the harness crate, ../../exercises/{0}/harness)",
                ex.id
            ));
        }
        if !ex.files.iter().any(|f| f == "src/main.rs")
            && let Some(problem) = glue_manifest_problem(exercise)
        {
            problems.push(format!("{}: exercises/{0}/Cargo.toml {problem}", ex.id));
        }
    }
    for file in &ex.files {
        if !ex.stub_dir(&course.root).join(file).is_file() {
            let shipped = ex.stub_dir(&course.root).join(file);
            let shipped = shipped.strip_prefix(&course.root).unwrap_or(&shipped);
            problems.push(format!(
                "{}: {file} has no shipped copy at {} (reset restores it from there)",
                ex.id,
                shipped.display()
            ));
        }
    }
    if let Ok(readme) = std::fs::read_to_string(course.root.join("README.md"))
        && !readme.contains(&ex.id)
    {
        problems.push(format!("{}: README.md does not name the exercise", ex.id));
    }
    problems
}

/// What is wrong with the manifest of a crate whose `src/main.rs` is the
/// glue to the checker's harness, if anything. Such a crate has no library
/// target (`autolib = false`, no `[lib]`): the glue compiles the learner's
/// `src/lib.rs` as a module (`#[path = "lib.rs"] mod learner;`), so a save
/// rebuilds one crate; with a library as well, cargo would compile the
/// learner's code twice and rebuild two crates after every save.
fn glue_manifest_problem(manifest: &str) -> Option<String> {
    let Ok(table) = toml::from_str::<toml::Table>(manifest) else {
        return Some("is not valid TOML".to_string());
    };
    let autolib = table.get("package").and_then(|p| p.get("autolib"));
    if table.contains_key("lib") || autolib.and_then(toml::Value::as_bool) != Some(false) {
        return Some(
            "has a library target: a crate whose src/main.rs is the glue says `autolib = false` and has no [lib], \
             its src/main.rs compiles src/lib.rs as a module (`#[path = \"lib.rs\"] mod learner;`)"
                .to_string(),
        );
    }
    None
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
    std::fs::copy(
        course.root.join(WORKSPACE).with_file_name("Cargo.lock"),
        dir.join("Cargo.lock"),
    )
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
        target_dir: Some(check::target_dir(&course.root).join(check::disk::VERIFY_BUILDS)),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn course() -> Course {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        Course::load(root, &check::checkers::names()).expect("the course loads")
    }

    #[test]
    fn the_shipped_course_is_laid_out_as_the_checklist_asks() {
        let course = course();
        for ex in &course.exercises {
            assert_eq!(layout_problems(&course, ex), Vec::<String>::new());
        }
    }

    #[test]
    fn a_harness_crate_with_a_library_or_a_differing_manifest_is_named() {
        let mut course = course();
        let ex = course.exercise("01").unwrap().clone();
        let scratch = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(scratch.path().join("exercises")).unwrap();
        std::fs::copy(course.root.join(WORKSPACE), scratch.path().join(WORKSPACE)).unwrap();
        let manifest = |dir: &Path| std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let (exercise, solution) = (
            manifest(&ex.dir(&course.root)),
            manifest(&ex.solution_dir(&course.root)),
        );
        course.root = scratch.path().to_path_buf();
        for dir in [ex.dir(&course.root), ex.solution_dir(&course.root)] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let write = |exercise: &str, solution: &str| {
            std::fs::write(ex.dir(&course.root).join("Cargo.toml"), exercise).unwrap();
            std::fs::write(ex.solution_dir(&course.root).join("Cargo.toml"), solution).unwrap();
        };
        let manifest_problems = |course: &Course| -> Vec<String> {
            layout_problems(course, &ex)
                .into_iter()
                .filter(|p| p.contains("Cargo.toml") && !p.contains("[workspace] members"))
                .collect()
        };
        write(&exercise, &solution);
        assert_eq!(manifest_problems(&course), Vec::<String>::new());
        // The old layout: the learner's code a library of its own.
        let with_lib = |m: &str| m.replace("autolib = false\n", "") + "\n[lib]\nname = \"encode_frames\"\n";
        write(&with_lib(&exercise), &with_lib(&solution));
        let problems = manifest_problems(&course);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(problems[0].contains("has a library target"), "{}", problems[0]);
        // A dependency in one crate only.
        write(&exercise, &format!("{solution}base64 = \"0.22\"\n"));
        let problems = manifest_problems(&course);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(
            problems[0].contains("differ apart from the package name"),
            "{}",
            problems[0]
        );
        // A solution that does not name the crates' workspace.
        write(&exercise, &solution.replace(SOLUTION_WORKSPACE, ""));
        let problems = manifest_problems(&course);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(problems[0].contains("lacks these lines"), "{}", problems[0]);
    }

    #[test]
    fn each_missing_item_of_the_checklist_is_named() {
        let mut course = course();
        let scratch = tempfile::tempdir().unwrap();
        let ex = course.exercise("03").unwrap().clone();
        // A workspace that lists only the exercise crate, a README that names
        // another exercise, and no shipped stubs at all.
        std::fs::create_dir_all(scratch.path().join("exercises")).unwrap();
        std::fs::write(
            scratch.path().join(WORKSPACE),
            format!("[workspace]\nmembers = [\"{}/\"]\n", ex.id),
        )
        .unwrap();
        std::fs::write(scratch.path().join("README.md"), "01-encode-frames").unwrap();
        course.root = scratch.path().to_path_buf();
        let problems = layout_problems(&course, &ex);
        let expected_files = ex.files.len();
        assert_eq!(problems.len(), 1 + expected_files + 1, "{problems:#?}");
        assert!(problems[0].contains(&format!("solutions/{} is not in exercises/Cargo.toml's", ex.id)));
        assert!(
            problems[1].contains("has no shipped copy at lessons/"),
            "{}",
            problems[1]
        );
        assert!(
            problems
                .last()
                .unwrap()
                .contains("README.md does not name the exercise")
        );
    }
}
