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
//! The course comes from the binary itself ([`crate::bundled`]): [`staged`]
//! lays it out as a checkout in a temporary folder, which [`init`] and
//! [`update`] copy from, so a binary whose source tree is gone (cargo
//! deletes what it unpacked; a binary copied to another machine) still
//! writes workspaces.

use std::fs;
use std::path::{Path, PathBuf};

use super::EXIT_ERROR;
use super::report::say;
use crate::content::{Course, WORKSPACE};

pub use crate::bundled::MARKER;

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
    let git = git_start(&dir);
    say(&format!("Wrote the mcplings workspace in {}.", dir.display()));
    match git {
        GitStart::Committed => say(
            "It is a git repository whose first commit (by \"mcplings\") holds the files as shipped: \
             git diff shows your changes.",
        ),
        GitStart::Initialised => say("(git init ran, but the first commit failed: git diff shows nothing yet.)"),
        GitStart::None => say("(git init did not run: is git installed? The workspace works without it.)"),
    }
    say(&format!(
        "Next: cd {} and run mcplings (or mcplings list, mcplings task 01).",
        dir.display()
    ));
    Ok(0)
}

/// How far [`git_start`] got.
enum GitStart {
    /// No repository (no git, or `git init` failed).
    None,
    /// A repository without a commit.
    Initialised,
    /// A repository whose first commit holds the workspace as written.
    Committed,
}

/// `git init` in `dir`, then a first commit of everything in it, so that
/// `git diff` shows the learner's changes from the shipped stubs. The
/// commit names its author itself (`mcplings`), so it works where git has
/// no `user.name`/`user.email`; hooks and signing are skipped (the
/// learner's global settings are not the workspace's business).
fn git_start(dir: &Path) -> GitStart {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !git(&["init", "--quiet"]) {
        return GitStart::None;
    }
    let committed = git(&["add", "--all"])
        && git(&[
            "-c",
            "user.name=mcplings",
            "-c",
            "user.email=mcplings@invalid",
            "commit",
            "--quiet",
            "--no-verify",
            "--no-gpg-sign",
            "--message",
            "The workspace as mcplings init wrote it",
        ]);
    if committed {
        GitStart::Committed
    } else {
        GitStart::Initialised
    }
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
        let src = ex.dir(root).join("src");
        copy_file(&ex.dir(root).join("Cargo.toml"), &to.join("Cargo.toml"))?;
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
        // The checker's harness crate (`harness/`, a path dependency of the
        // exercise and its solution), replaced whole.
        let harness = ex.dir(root).join("harness");
        if harness.is_dir() {
            let _ = fs::remove_dir_all(to.join("harness"));
            copy_crate(&harness, &to.join("harness"))?;
        }
        copy_crate(&ex.solution_dir(root), &ex.solution_dir(dir))?;
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
/// and `Cargo.lock`) of the course at `root` (a checkout, or the binary's
/// course [`staged`]) into the course at `to`. Its members are every
/// exercise of the course, as the course's own crates are.
fn copy_workspace(root: &Path, to: &Path) -> Result<(), String> {
    let manifest = root.join(WORKSPACE);
    let lock = manifest.with_file_name("Cargo.lock");
    copy_file(&manifest, &to.join(WORKSPACE))?;
    copy_file(&lock, &to.join(WORKSPACE).with_file_name("Cargo.lock"))
}

/// The course the binary carries laid out as a checkout in a temporary
/// folder (removed when the returned guard drops): `lessons/`,
/// `exercises/<id>/` and `solutions/<id>/` (each `Cargo.toml` and
/// `src/`), and the crates' workspace, `exercises/Cargo.toml` and its
/// lockfile.
pub fn staged() -> Result<tempfile::TempDir, String> {
    let tmp = tempfile::Builder::new()
        .prefix("mcplings-course-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let to = tmp.path();
    for (path, bytes) in crate::bundled::files() {
        // course/<side>/<id>/Cargo.toml.in → <side>/<id>/Cargo.toml, and the
        // crates' workspace: course/exercises/Cargo.{toml,lock}.in →
        // exercises/Cargo.{toml,lock}
        let rel = match path.strip_prefix("course/") {
            Some(inner) if inner.contains('/') => inner
                .replace("/Cargo.toml.in", "/Cargo.toml")
                .replace("/Cargo.lock.in", "/Cargo.lock"),
            Some(_) => continue,
            None => path,
        };
        write_bytes(&to.join(rel), bytes)?;
    }
    Ok(tmp)
}

/// Copies the crate in `from` (its `Cargo.toml` and `src/`) to `to`.
fn copy_crate(from: &Path, to: &Path) -> Result<(), String> {
    copy_file(&from.join("Cargo.toml"), &to.join("Cargo.toml"))?;
    copy_tree(&from.join("src"), &to.join("src"))
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    write_bytes(path, text.as_bytes())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
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
