//! `mcplings init [DIR]` and `mcplings init --update`: a learner workspace
//! outside the mcplings checkout, as rustlings makes one.
//!
//! A workspace holds the course as the binary knows it: `lessons/`, each
//! exercise crate with its shipped stub (`exercises/`), the reference
//! crates (`solutions/`), the crates' workspace manifest and lockfile
//! (`exercises/Cargo.toml` and `Cargo.lock`, the checkout's own; no
//! `Cargo.toml` at the root), rust-analyzer settings, a `.gitignore`, and
//! the marker file [`MARKER`] with the course version it was written at.
//! Every command finds it as it finds a checkout (its `lessons/course.toml`).
//!
//! The course comes from the source the binary was built from: the
//! checkout (`cargo install --path .`) or the package cargo unpacked
//! (`cargo install mcplings`), whose crates are under `course/`;
//! `$MCPLINGS_COURSE` names another. The binary does not embed it yet.

use std::fs;
use std::path::{Path, PathBuf};

use super::EXIT_ERROR;
use super::report::say;
use crate::content::{Course, WORKSPACE};

/// The marker file at a workspace's root: `course_version = "…"`.
pub const MARKER: &str = ".mcplings-workspace";

/// `target/` at any depth: the checks' builds go to `target/`, and
/// rust-analyzer builds the crates' workspace into `exercises/target/`.
const GITIGNORE: &str = "target/\n# Your progress (see mcplings list)\n/.mcplings/\n";

/// The first line of the root `Cargo.toml` an earlier `init` wrote (before
/// the crates had a workspace of their own); `--update` removes that file
/// and its lockfile.
const OLD_ROOT_MANIFEST: &str = "# A mcplings workspace (mcplings init)";

const RUST_ANALYZER: &str = "# rust-analyzer finds the crates' workspace, exercises/Cargo.toml, by itself,
# and builds it into exercises/target/rust-analyzer, not where checks build
# (target/exercises/), so the editor's background checks never hold the lock
# a workbook check waits for.
[cargo]
targetDir = true
";

/// Writes a new workspace into `dir` (default `./mcplings`), which must be
/// missing or empty (else exit 2), from `course` (the binary's own).
pub fn init(course: &Course, dir: Option<PathBuf>) -> Result<u8, String> {
    let dir = std::path::absolute(dir.unwrap_or_else(|| PathBuf::from("mcplings"))).map_err(|e| e.to_string())?;
    if dir.exists()
        && fs::read_dir(&dir)
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .next()
            .is_some()
    {
        super::report::warn(&format!(
            "mcplings: {} is not empty; init writes a new workspace into an empty or new folder",
            dir.display()
        ));
        return Ok(EXIT_ERROR);
    }
    write(course, &dir, false)?;
    let git = std::process::Command::new("git")
        .args(["init", "--quiet"])
        .current_dir(&dir)
        .status()
        .is_ok_and(|s| s.success());
    say(&format!("Wrote the mcplings workspace in {}.", dir.display()));
    if !git {
        say("(git init did not run: is git installed? The workspace works without it.)");
    }
    say(&format!(
        "Next: cd {} and run mcplings (or mcplings list, mcplings task 01).",
        dir.display()
    ));
    Ok(0)
}

/// Brings the workspace at `workspace` to `course` (the binary's): lessons,
/// solutions, manifests and harnesses are replaced, new exercises added;
/// the files a learner edits are never touched when they exist.
pub fn update(course: &Course, workspace: &Path) -> Result<u8, String> {
    if !workspace.join(MARKER).is_file() {
        super::report::warn(&format!(
            "mcplings: {} is not a workspace made by mcplings init (no {MARKER})",
            workspace.display()
        ));
        return Ok(EXIT_ERROR);
    }
    if workspace == course.root {
        say("This is the course's own checkout; nothing to update.");
        return Ok(0);
    }
    let lessons = workspace.join("lessons");
    if lessons.is_dir() {
        fs::remove_dir_all(&lessons).map_err(|e| format!("cannot replace {}: {e}", lessons.display()))?;
    }
    let solutions = workspace.join("solutions");
    if solutions.is_dir() {
        fs::remove_dir_all(&solutions).map_err(|e| format!("cannot replace {}: {e}", solutions.display()))?;
    }
    let old_manifest = workspace.join("Cargo.toml");
    if fs::read_to_string(&old_manifest).is_ok_and(|m| m.starts_with(OLD_ROOT_MANIFEST)) {
        for old in [old_manifest, workspace.join("Cargo.lock")] {
            fs::remove_file(&old).map_err(|e| format!("cannot remove {}: {e}", old.display()))?;
        }
    }
    write(course, workspace, true)?;
    say(&format!(
        "Updated {} to this mcplings' course; your exercise files are as you left them.",
        workspace.display()
    ));
    Ok(0)
}

/// Writes the workspace's files; with `keep_learner_files`, a file the
/// learner edits that exists already is left as it is.
fn write(course: &Course, dir: &Path, keep_learner_files: bool) -> Result<(), String> {
    let root = &course.root;
    copy_tree(&root.join("lessons"), &dir.join("lessons"))?;
    for ex in &course.exercises {
        let to = ex.dir(dir);
        let (manifest, src) = crate_files(root, "exercises", &ex.id);
        copy_file(&manifest, &to.join("Cargo.toml"))?;
        for file in files_under(&src)? {
            let rel = Path::new("src").join(&file);
            let learner = ex.files.iter().any(|f| Path::new(f) == rel);
            if !learner {
                copy_file(&src.join(&file), &to.join(&rel))?;
            }
        }
        for file in &ex.files {
            let target = to.join(file);
            if !(keep_learner_files && target.exists()) {
                copy_file(&ex.stub_dir(root).join(file), &target)?;
            }
        }
        let (manifest, src) = crate_files(root, "solutions", &ex.id);
        copy_file(&manifest, &ex.solution_dir(dir).join("Cargo.toml"))?;
        copy_tree(&src, &ex.solution_dir(dir).join("src"))?;
    }
    copy_workspace(root, dir)?;
    write_file(&dir.join("rust-analyzer.toml"), RUST_ANALYZER)?;
    if !dir.join(".gitignore").exists() {
        write_file(&dir.join(".gitignore"), GITIGNORE)?;
    }
    let version = crate::actions::course_shape(course).version;
    write_file(
        &dir.join(MARKER),
        &format!("# Written by mcplings init; mcplings init --update rewrites it.\ncourse_version = \"{version}\"\n"),
    )
}

/// Copies the crates' workspace manifest and lockfile (`exercises/Cargo.toml`
/// and `Cargo.lock`) of the course at `root` into the course at `to`: from
/// `exercises/` in a checkout, else from their links under `course/` (an
/// installed package, course/README.md). Its members are every exercise of
/// the course, as the course's own crates are.
fn copy_workspace(root: &Path, to: &Path) -> Result<(), String> {
    let manifest = root.join(WORKSPACE);
    let (manifest, lock) = if manifest.is_file() {
        (manifest.clone(), manifest.with_file_name("Cargo.lock"))
    } else {
        let packaged = root.join("course").join("exercises");
        (packaged.join("Cargo.toml.in"), packaged.join("Cargo.lock.in"))
    };
    copy_file(&manifest, &to.join(WORKSPACE))?;
    copy_file(&lock, &to.join(WORKSPACE).with_file_name("Cargo.lock"))
}

/// The course at `source` laid out as a checkout: `source` itself when it
/// is one, else (an installed package, whose crates are under `course/`)
/// a copy in a temporary folder, kept alive by the returned guard.
pub fn staged(source: &Path) -> Result<(PathBuf, Option<tempfile::TempDir>), String> {
    if source.join("exercises").is_dir() || !source.join("course").is_dir() {
        return Ok((source.to_path_buf(), None));
    }
    let tmp = tempfile::Builder::new()
        .prefix("mcplings-course-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let to = tmp.path();
    copy_tree(&source.join("lessons"), &to.join("lessons"))?;
    for side in ["exercises", "solutions"] {
        let dir = source.join("course").join(side);
        let entries = fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let mut ids: Vec<String> = entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        ids.sort();
        for id in ids {
            let (manifest, src) = crate_files(source, side, &id);
            copy_file(&manifest, &to.join(side).join(&id).join("Cargo.toml"))?;
            copy_tree(&src, &to.join(side).join(&id).join("src"))?;
        }
    }
    copy_workspace(source, to)?;
    Ok((to.to_path_buf(), Some(tmp)))
}

/// The manifest and `src/` of crate `<side>/<id>` in the course at `root`:
/// the crate itself in a checkout, else its links under `course/` (an
/// installed package, where cargo left the crates out: course/README.md).
fn crate_files(root: &Path, side: &str, id: &str) -> (PathBuf, PathBuf) {
    let own = root.join(side).join(id);
    if own.join("Cargo.toml").is_file() {
        return (own.join("Cargo.toml"), own.join("src"));
    }
    let packaged = root.join("course").join(side).join(id);
    (packaged.join("Cargo.toml.in"), packaged.join("src"))
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn copy_file(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

/// Every file below `dir`, relative to it.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            for inner in files_under(&path)? {
                out.push(PathBuf::from(entry.file_name()).join(inner));
            }
        } else {
            out.push(PathBuf::from(entry.file_name()));
        }
    }
    Ok(out)
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    for file in files_under(from)? {
        copy_file(&from.join(&file), &to.join(&file))?;
    }
    Ok(())
}
