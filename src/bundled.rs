//! The course the binary carries, compiled in with `include_dir`, so an
//! installed mcplings (`cargo install --path .`, `cargo install mcplings`)
//! needs no source tree: `mcplings init` writes workspaces from it, and in
//! a workspace `reset` and the solution view read the stub and the
//! reference solution from it.
//!
//! What is embedded, from paths that exist both in the checkout and in the
//! package cargo publishes (course/README.md):
//! - `lessons/**` (lessons, quizzes, `exercises.toml`, the shipped stubs
//!   under `lessons/<part>/stubs/<id>/`, the glossary), as
//!   `lessons/…` in [`file`];
//! - `course/**`: for each exercise `<id>`, `course/exercises/<id>/` and
//!   `course/solutions/<id>/`, each a `Cargo.toml.in` (the crate's
//!   manifest) and `src/**` (symlinks, which `include_dir` follows: for an
//!   exercise, the files the learner edits link the shipped stubs under
//!   `lessons/`, never the working copies in `exercises/`, so a save does
//!   not rebuild the binary; the harness links `exercises/`; a solution
//!   links `solutions/`), as `course/…` in [`file`].
//!   The crates' workspace is linked there too:
//!   `course/exercises/Cargo.{toml,lock}.in`.
//!
//! Every embedded file is an `include_bytes!`, so editing one rebuilds the
//! binary; a file *added* to a folder is seen at the next rebuild (any edit
//! to a tracked file, e.g. the `exercises.toml` that names a new exercise).

use include_dir::{Dir, include_dir};

static LESSONS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/lessons");
static CRATES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/course");

/// The marker file at a workspace's root (`course_version = "…"`), written
/// by `mcplings init`.
pub const MARKER: &str = ".mcplings-workspace";

/// The embedded file at `path` (`/`-separated, relative to the checkout:
/// `lessons/…` or `course/…`), if the binary carries it.
pub fn file(path: &str) -> Option<&'static [u8]> {
    let (top, rest) = path.split_once('/')?;
    let dir = match top {
        "lessons" => &LESSONS,
        "course" => &CRATES,
        _ => return None,
    };
    dir.get_file(rest).map(include_dir::File::contents)
}

/// Every embedded file, as (`path` relative to the checkout, contents),
/// sorted by path: `lessons/…` then `course/…`.
pub fn files() -> Vec<(String, &'static [u8])> {
    let mut out = Vec::new();
    for (top, dir) in [("lessons", &LESSONS), ("course", &CRATES)] {
        collect(dir, top, &mut out);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn collect(dir: &'static Dir<'static>, top: &str, out: &mut Vec<(String, &'static [u8])>) {
    for file in dir.files() {
        out.push((format!("{top}/{}", file.path().display()), file.contents()));
    }
    for sub in dir.dirs() {
        collect(sub, top, out);
    }
}
