//! Helpers shared by the integration tests: the real checkout, scratch
//! copies of the course, and mutant crates made from a reference solution.

#![allow(dead_code)]

pub mod cmd;
pub mod seed;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use mcplings::check::{self, CheckReport, Options, Source, Status};
use mcplings::content::Course;
use tempfile::TempDir;

/// The real checkout (this crate's root).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The course of this checkout, loaded (and validated) once per test
/// binary: a load takes about 0.1 s of CPU in a debug build, and the
/// checker tests check some 240 crates.
pub fn course() -> &'static Course {
    static COURSE: OnceLock<Course> = OnceLock::new();
    COURSE.get_or_init(|| Course::load(&root(), &mcplings::check::checkers::names()).expect("the course loads"))
}

/// The cargo that builds these tests, for the crates they build
/// themselves.
pub fn cargo() -> std::process::Command {
    std::process::Command::new(env!("CARGO"))
}

/// The checkout's cargo target dir. Tests build into folders of their own
/// below it, never into the learner's: cargo keys build records by package
/// name, so a course copy built there would pass its binaries off as the
/// learner's.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// Where course copies build (as `CARGO_TARGET_DIR`): shared by all of
/// them, so dependencies compile once (and come from the seed on a fresh
/// clone). Safe because copies build one at a time ([`build_lock`])
/// and each copy's folder is deleted before the next builds, so cargo
/// finds the previous sources gone and rebuilds.
pub fn course_target_dir() -> PathBuf {
    seeded_course_target(target_dir().join("test-courses"))
}

/// `dir`, a target dir `mcplings` builds course crates in (as
/// `CARGO_TARGET_DIR`), with the crates' compiled dependencies placed in
/// its course builds' dir on first use ([`seed`]).
pub fn seeded_course_target(dir: PathBuf) -> PathBuf {
    seed::seeded(dir.join(mcplings::check::disk::COURSE_BUILDS), seed::Units::Registry);
    dir
}

/// Serialises the tests of one test binary that build crates. Course copies
/// share a target dir, so the same package built from two copies at once
/// would be taken one for the other.
pub fn build_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Copies the directory tree `from` to `to` (files and folders only).
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap_or_else(|e| panic!("create {}: {e}", to.display()));
    for entry in fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display())) {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_name() == "target" {
            continue; // build output (rust-analyzer's, in exercises/), not the course
        }
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap_or_else(|e| panic!("copy {}: {e}", entry.path().display()));
        }
    }
}

/// Where [`course_copy`] makes its copies: `/dev/shm` (a tmpfs, in memory)
/// when it is a folder this process can write in and `TMPDIR` is not set,
/// else the system's temp dir. Some 50 tests copy the course's 90 files:
/// on ext4 creating and deleting them cost 10–20 s of kernel CPU per suite
/// run on this 2-core machine (its inode allocator scans past the inodes
/// deleted just before), on tmpfs next to nothing.
pub fn scratch_base() -> PathBuf {
    static BASE: OnceLock<PathBuf> = OnceLock::new();
    BASE.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let usable = std::env::var_os("TMPDIR").is_none() && tempfile::tempdir_in(shm).is_ok();
        if usable {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        }
    })
    .clone()
}

/// A scratch copy of the course as shipped: `lessons/`, `exercises/` (with
/// the crates' workspace manifest and lockfile) and `solutions/` (no
/// `target/`, no progress), with the shipped stubs laid over `exercises/`,
/// so the tests pass whatever state a learner's own exercises are in. The
/// app's own sources are left out: a course is found by
/// `lessons/course.toml`, and a workspace `mcplings init` writes holds none.
pub fn course_copy() -> TempDir {
    let tmp = tempfile::Builder::new()
        .prefix("mcplings-course-")
        .tempdir_in(scratch_base())
        .unwrap();
    let root = root();
    for dir in ["lessons", "exercises", "solutions"] {
        copy_tree(&root.join(dir), &tmp.path().join(dir));
    }
    for part in fs::read_dir(root.join("lessons")).unwrap().flatten() {
        let stubs = part.path().join("stubs");
        if stubs.is_dir() {
            copy_tree(&stubs, &tmp.path().join("exercises"));
        }
    }
    tmp
}

/// The course as [`course_copy`] makes it, at one stable folder
/// (`target/test-courses/course`) with the build lock held, for tests that
/// build: a file is rewritten only when its text differs from the shipped
/// one, and files the last test added (progress, edits) are removed, so
/// every test starts from the shipped course while cargo finds the crates
/// it built last time (and last run) fresh.
pub struct BuiltCourse {
    _lock: MutexGuard<'static, ()>,
    dir: PathBuf,
}

impl BuiltCourse {
    /// The course's root.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

/// Takes the build lock and resets the shared course folder (see
/// [`BuiltCourse`]).
pub fn built_course() -> BuiltCourse {
    let lock = build_lock();
    let root = root();
    let mut files = Vec::new();
    for file in ["Cargo.toml", "Cargo.lock"] {
        files.push((PathBuf::from(file), fs::read(root.join(file)).unwrap()));
    }
    for dir in ["src", "lessons", "exercises", "solutions"] {
        read_tree(&root.join(dir), Path::new(dir), &mut files);
    }
    let mut stubs = Vec::new();
    for part in fs::read_dir(root.join("lessons")).unwrap().flatten() {
        if part.path().join("stubs").is_dir() {
            read_tree(&part.path().join("stubs"), Path::new("exercises"), &mut stubs);
        }
    }
    for (path, bytes) in stubs {
        match files.iter_mut().find(|(p, _)| *p == path) {
            Some(file) => file.1 = bytes,
            None => files.push((path, bytes)),
        }
    }
    let dir = course_target_dir().join("course");
    sync_tree(&dir, &files);
    BuiltCourse { _lock: lock, dir }
}

/// A folder for a fixture's pid files (or other traces) at a stable path named after its
/// package (`target/test-mutants/scratch/<package>`), emptied. The path is
/// written into the fixture's source, so a fresh temp dir would change that
/// source every run and cost a rebuild per fixture per `cargo test`.
pub fn scratch_dir(package: &str) -> PathBuf {
    let dir = target_dir().join("test-mutants/scratch").join(package);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    dir
}

/// The command that runs the tests' Python scripts (mock servers,
/// drivers), as an argv prefix: the interpreter's own executable, found
/// once (a version manager's `python3` is often a shell script: pyenv's
/// shim costs about 0.15 s of CPU a start), with `-S` (no `site` module,
/// another 0.06 s with many packages installed; the scripts use only the
/// standard library). Measured here: 158 ms a start through the shim,
/// 12 ms this way. The doctor tests start some 500 of them.
pub fn python3() -> Vec<String> {
    static EXE: OnceLock<String> = OnceLock::new();
    let exe = EXE.get_or_init(|| {
        std::process::Command::new("python3")
            .args(["-S", "-c", "import sys; print(sys.executable)"])
            .output()
            .ok()
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|exe| !exe.is_empty())
            .unwrap_or_else(|| "python3".to_string())
    });
    vec![exe.clone(), "-S".to_string()]
}

/// Writes `bytes` to `path` unless it holds them already (keeping its
/// time, which cargo's freshness check reads).
pub fn write_if_changed(path: &Path, bytes: &[u8]) {
    if fs::read(path).ok().as_deref() != Some(bytes) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

/// Every file under `dir`, as (its path relative to `dir`, its bytes).
pub fn tree_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    read_tree(dir, Path::new(""), &mut files);
    files
}

/// One textual edit: in `file` (relative to the crate, e.g. `src/lib.rs`),
/// replace `find`, which must occur exactly once, with `replace`.
pub type Patch<'a> = (&'a str, &'a str, &'a str);

/// A mutant crate: a folder of its own under `target/test-mutants/crates/`,
/// named after its package, kept between runs. Held by one test at a time:
/// two tests may check the same mutant, and while one builds it the other
/// must not write its files (cargo rewrites the mutant's `Cargo.lock`, and
/// a rewrite from the other test's copy beside it garbled the file once).
pub struct Mutant {
    dir: PathBuf,
    _alone: std::sync::MutexGuard<'static, ()>,
}

/// The lock that keeps the mutant `package` to one test at a time.
fn mutant_lock(package: &str) -> &'static std::sync::Mutex<()> {
    static LOCKS: OnceLock<std::sync::Mutex<std::collections::HashMap<String, &'static std::sync::Mutex<()>>>> =
        OnceLock::new();
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    locks
        .entry(package.to_string())
        .or_insert_with(|| Box::leak(Box::new(std::sync::Mutex::new(()))))
}

impl Mutant {
    /// The crate's folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

/// A mutant crate made from `solutions/<exercise>`: its `Cargo.toml` with
/// the package renamed to `package` (unique per mutant, so binaries in the
/// shared target dir never collide) and made a workspace of its own, its
/// `src/`, and the crates' `exercises/Cargo.lock` ([`lockfile`]); then `patches` applied
/// in order. The exercise's harness crate is the checkout's own, unless a
/// patch names one of its files (`harness/src/lib.rs`): then the mutant
/// holds a copy of it, patched.
///
/// The crate lives at a stable path, `target/test-mutants/crates/<package>`,
/// and a file is written only when its text changed, so a warm `cargo test`
/// finds every mutant built already and cargo skips it (a fresh temp dir
/// each run would be a new package to cargo: a rebuild per mutant per run).
///
/// Panics unless every `find` occurs exactly once in its file, so a mutant
/// can never silently turn into the unmutated solution.
pub fn mutant(exercise: &str, package: &str, patches: &[Patch<'_>]) -> Mutant {
    // A test that failed while holding it poisons nothing worth keeping.
    let alone = mutant_lock(package).lock().unwrap_or_else(|e| e.into_inner());
    let solution = root().join("solutions").join(exercise);
    let manifest = fs::read_to_string(solution.join("Cargo.toml")).unwrap();
    let old_name = format!("name = \"solution-{exercise}\"");
    assert_eq!(
        manifest.matches(&old_name).count(),
        1,
        "solutions/{exercise}/Cargo.toml should contain `{old_name}` once"
    );
    let mut manifest = manifest.replace(&old_name, &format!("name = \"{package}\""));
    // Its own workspace (not a member of any checkout around it, nor of the
    // crates' workspace the solution names), with the course's profile for
    // exercise crates (no debug info, as in exercises/Cargo.toml) so
    // compiled dependencies are shared and links are quick; and without
    // incremental compilation, which only pays when a crate is edited and
    // built again: a mutant is built once, and its first build takes about
    // half the CPU without it (0.4–0.5 s against 0.7–0.9 s for 07's).
    let in_crates_workspace = "workspace = \"../../exercises\"\n";
    assert_eq!(
        manifest.matches(in_crates_workspace).count(),
        1,
        "{package}: {manifest}"
    );
    manifest = manifest.replace(in_crates_workspace, "");
    // The exercise's harness crate: by its path in this checkout, built once
    // for every mutant; copied into the mutant (`harness/`) when a patch
    // changes it.
    let harness_dir = harness_dir(exercise);
    let own_harness = patches.iter().any(|(file, _, _)| file.starts_with("harness/"));
    let harness_path = if own_harness {
        "harness".to_string()
    } else {
        harness_dir.display().to_string()
    };
    manifest = manifest.replace(
        &format!("path = {:?}", solution_harness_path(exercise)),
        &format!("path = {harness_path:?}"),
    );
    manifest.push_str(OWN_WORKSPACE);
    let dir = target_dir().join("test-mutants").join("crates").join(package);
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![(PathBuf::from("Cargo.toml"), manifest.into_bytes())];
    files.extend(lockfile(&dir, &fs::read(root().join("exercises/Cargo.lock")).unwrap()));
    read_tree(&solution.join("src"), Path::new("src"), &mut files);
    if own_harness {
        files.push((
            PathBuf::from("harness/Cargo.toml"),
            fs::read(harness_dir.join("Cargo.toml")).unwrap(),
        ));
        read_tree(&harness_dir.join("src"), Path::new("harness/src"), &mut files);
    }
    for (file, find, replace) in patches {
        let (_, bytes) = files
            .iter_mut()
            .find(|(path, _)| path == Path::new(file))
            .unwrap_or_else(|| panic!("{package}: no file {file} in solutions/{exercise}"));
        let source = String::from_utf8(std::mem::take(bytes)).unwrap();
        let count = source.matches(find).count();
        assert_eq!(
            count, 1,
            "{package}: the text to patch must occur exactly once in {file} (from solutions/{exercise}), found {count} times:\n{find}"
        );
        *bytes = source.replacen(find, replace, 1).into_bytes();
    }
    sync_tree(&dir, &files);
    Mutant { dir, _alone: alone }
}

/// What a crate the tests build outside the crates' workspace (a mutant,
/// the seed) appends to its manifest: a workspace of its own, and the
/// course crates' profile (exercises/Cargo.toml) without incremental
/// compilation. The seed's compiled units serve the mutants only because
/// both say the same here.
const OWN_WORKSPACE: &str = "\n[workspace]\n\n[profile.dev]\ndebug = false\nincremental = false\n";

/// The harness crate of `exercise`, in this checkout: the absolute path
/// mutants and the seed both give it, so its build serves both.
pub fn harness_dir(exercise: &str) -> PathBuf {
    root().join("exercises").join(exercise).join("harness")
}

/// The path a solution's manifest gives its exercise's harness crate.
fn solution_harness_path(exercise: &str) -> String {
    format!("../../exercises/{exercise}/harness")
}

/// The file, in a crate copied to `dir`, that holds the lockfile last
/// placed there ([`lockfile`]).
const LOCK_SOURCE: &str = ".lock-source";

/// The lockfile of a crate copied to `dir` from `source` (the crates'
/// workspace lockfile), with the record of it, as files for the crate:
/// `source` when the crate is new or `source` changed since it was placed,
/// else the lockfile there now. Cargo trims a workspace's lockfile to the
/// crate's own packages on its first build; writing `source` back every
/// run would change the file each time, and a changed file sends a check
/// through cargo again (some 300 cargo runs in a warm suite run).
pub fn lockfile(dir: &Path, source: &[u8]) -> [(PathBuf, Vec<u8>); 2] {
    let placed = fs::read(dir.join(LOCK_SOURCE)).ok();
    let lock = match fs::read(dir.join("Cargo.lock")) {
        Ok(now) if placed.as_deref() == Some(source) => now,
        _ => source.to_vec(),
    };
    [
        (PathBuf::from("Cargo.lock"), lock),
        (PathBuf::from(LOCK_SOURCE), source.to_vec()),
    ]
}

/// Every file under `from`, as (its path under `prefix`, its bytes).
fn read_tree(from: &Path, prefix: &Path, files: &mut Vec<(PathBuf, Vec<u8>)>) {
    for entry in fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display())) {
        let entry = entry.unwrap();
        let path = prefix.join(entry.file_name());
        if entry.file_name() == "target" {
            continue; // build output (rust-analyzer's, in exercises/), not the course
        }
        if entry.file_type().unwrap().is_dir() {
            read_tree(&entry.path(), &path, files);
        } else {
            files.push((path, fs::read(entry.path()).unwrap()));
        }
    }
}

/// Makes `dir` hold exactly `files`: writes those whose bytes differ (or
/// are missing) and removes files that are not listed, leaving unchanged
/// files (and their times, which cargo's freshness check reads) alone.
fn sync_tree(dir: &Path, files: &[(PathBuf, Vec<u8>)]) {
    for (path, bytes) in files {
        write_if_changed(&dir.join(path), bytes);
    }
    let mut present = Vec::new();
    read_tree(dir, Path::new(""), &mut present);
    for (path, _) in present {
        if !files.iter().any(|(p, _)| *p == path) {
            let _ = fs::remove_file(dir.join(path));
        }
    }
}

/// How many target dirs the mutant crates build in.
const MUTANT_TARGETS: u32 = 2;

/// The cargo target dir the crate in `dir` builds in:
/// `target/test-mutants/build-N`, N picked from the folder's name. Mutants
/// have package names of their own, so one folder could serve them all, but
/// cargo builds one crate at a time in a target dir (it locks it), and on a
/// fresh clone some 240 mutants wait on that lock while a core idles; two
/// dirs build two at once. Both get the crates' dependencies and harnesses
/// compiled once, from the seed ([`seed`]).
pub fn mutants_target_dir(dir: &Path) -> PathBuf {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let shard = name.bytes().map(u32::from).sum::<u32>() % MUTANT_TARGETS;
    seed::seeded(
        target_dir().join("test-mutants").join(format!("build-{shard}")),
        seed::Units::WithHarnesses,
    )
}

/// Checks the crate in `dir` against `exercise`'s checker.
pub fn check_dir(exercise: &str, dir: &Path) -> CheckReport {
    check_dir_only(exercise, dir, None)
}

/// Checks the crate in `dir` against `exercise`'s checker, running only the
/// cases named in `only` (all of them for `None`).
pub fn check_dir_only(exercise: &str, dir: &Path, only: Option<&[&str]>) -> CheckReport {
    let ex = course()
        .exercise(exercise)
        .unwrap_or_else(|| panic!("no exercise {exercise}"));
    // Client exercises launch `mcplings __relay` as their server: the real
    // binary, not this test binary (what `None`, the current exe, would be).
    let options = Options {
        target_dir: Some(mutants_target_dir(dir)),
        relay: Some(PathBuf::from(env!("CARGO_BIN_EXE_mcplings"))),
        only: only.map(|names| names.iter().map(|n| n.to_string()).collect()),
        ..Options::default()
    };
    check::check(course(), ex, &Source::Path(dir.to_path_buf()), &options, &mut |_| {})
}

/// The report in a few lines, for assertion messages.
pub fn summary(report: &CheckReport) -> String {
    let mut out = format!(
        "exercise {} ({}): passed={} build.ok={} error={:?}\n",
        report.exercise, report.crate_dir, report.passed, report.build.ok, report.error
    );
    if !report.build.ok {
        out.push_str(&format!("build output:\n{}\n", report.build.output));
    }
    for case in &report.cases {
        out.push_str(&format!(
            "  [{:?}] {}: {}\n",
            case.status,
            case.name,
            case.reason.as_deref().unwrap_or("")
        ));
        if case.status == Status::Failed && !case.stderr.is_empty() {
            out.push_str(&format!(
                "      stderr: {}\n",
                case.stderr.trim_end().replace('\n', "\n              ")
            ));
        }
    }
    out
}
