//! The course crates' dependencies, compiled once per test run and copied
//! into each target dir the tests build course crates in.
//!
//! The tests build the exercise, solution and mutant crates in several
//! target dirs (the mutants' two, the course copies', `init`'s workspace):
//! cargo locks a target dir for a build, and keys a path crate by its path
//! relative to the workspace root, so two copies of the course cannot share
//! one. Each of those dirs used to compile serde_json, tiny_http, ureq and
//! the rest itself, and the mutants' dirs the 12 harness crates too: about
//! 15–18 s of CPU per dir on a fresh clone, some 65 s of rustc's CPU in all
//! (docs/performance.md, "The test suite"). Now a seed
//! crate that depends on everything the course crates do is built once
//! (`target/test-seed/`), and a target dir's first use copies the compiled
//! units in: cargo names each unit by a hash of its package, version,
//! source, features and profile, so it takes a copied unit only where it
//! would have built the very same one, and builds the rest as before.
//!
//! What is copied: the units of registry packages (a registry crate's
//! freshness is its version: no source file of it is compared), and into
//! the mutants' dirs the harness crates too, which mutants and the seed
//! both reach by the same absolute path into this checkout, so they hash
//! the same and are the same source. Never a unit already there, and never
//! a path crate into the course copies' dirs, whose crates hash by their
//! path inside the copy. A unit's files keep their modification times, so
//! cargo's comparisons between a unit and its dependencies come out as in
//! the seed. If cargo's layout ever changes, nothing matches and every
//! dir builds its dependencies itself, as before: slower, never wrong; and
//! `tests/suite/seeding.rs` fails, saying which unit was compiled again.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::{OWN_WORKSPACE, cargo, harness_dir, lockfile, root, solution_harness_path, sync_tree, target_dir};

/// The seed crate's package name (its own units are not copied).
const SEED: &str = "test-seed";

/// Which units of the seed to copy into a target dir.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Units {
    /// Registry packages only: for dirs whose path crates are the course
    /// copy's own (`target/test-courses/exercises`, `init`'s workspace).
    Registry,
    /// Registry packages and the harness crates (by their absolute path in
    /// this checkout): for the mutants' dirs.
    WithHarnesses,
}

/// Copies the seed's units into the cargo target dir `target` (its
/// `debug/` profile dir), once per test run per dir; builds the seed first
/// if this run has not. Returns `target`. A seed that failed to build
/// copies nothing: each dir then builds everything itself, and the test
/// that needed it reports any real build error.
pub fn seeded(target: PathBuf, units: Units) -> PathBuf {
    static DONE: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
    if done.get_or_insert_with(HashSet::new).insert(target.clone())
        && let Some(seed) = seed()
    {
        let registry = registry_packages();
        // Cargo's own lock on each dir (another `cargo test` may be
        // building in either).
        let _seed_lock = cargo_lock(&seed.join("debug"));
        let _target_lock = cargo_lock(&target.join("debug"));
        copy_units(&seed.join("debug"), &target.join("debug"), &|package: &str| {
            package != SEED
                && (registry.contains(package) || (units == Units::WithHarnesses && package.starts_with("harness-")))
        });
    }
    target
}

/// The seed's target dir, built (once per test run): `None` when cargo
/// failed.
fn seed() -> Option<&'static Path> {
    static SEED_DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    SEED_DIR
        .get_or_init(|| {
            let base = target_dir().join("test-seed");
            let krate = base.join("crate");
            let build = base.join("build");
            let mut files = vec![
                (PathBuf::from("Cargo.toml"), manifest().into_bytes()),
                (PathBuf::from("src/main.rs"), b"fn main() {}\n".to_vec()),
            ];
            files.extend(lockfile(
                &krate,
                &fs::read(root().join("exercises/Cargo.lock")).unwrap(),
            ));
            sync_tree(&krate, &files);
            let status = cargo()
                .args(["build", "--quiet", "--manifest-path"])
                .arg(krate.join("Cargo.toml"))
                .env("CARGO_TARGET_DIR", &build)
                .stdin(std::process::Stdio::null())
                .status();
            matches!(status, Ok(s) if s.success()).then_some(build)
        })
        .as_deref()
}

/// The seed's manifest: every dependency the solution crates name, with
/// the features they name (the harnesses by their absolute path, as the
/// mutants name them), in a workspace of its own with the mutants'
/// profile ([`OWN_WORKSPACE`]).
fn manifest() -> String {
    let mut deps = toml::Table::new();
    let solutions = root().join("solutions");
    let mut dirs: Vec<_> = fs::read_dir(&solutions).unwrap().flatten().map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs {
        let text = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let Some(toml::Value::Table(named)) = table.get("dependencies") else {
            continue;
        };
        let exercise = dir.file_name().unwrap().to_string_lossy().into_owned();
        for (name, spec) in named {
            let mut spec = spec.clone();
            // The harness: by the absolute path the mutants give it
            // ([`super::mutant`]); any other path crate is left out.
            if let toml::Value::Table(t) = &mut spec
                && let Some(toml::Value::String(path)) = t.get("path")
            {
                if *path != solution_harness_path(&exercise) {
                    continue;
                }
                t.insert("path".into(), harness_dir(&exercise).display().to_string().into());
            }
            // The harness dependency is named `harness` in every solution:
            // key it by its package instead.
            let key = match &spec {
                toml::Value::Table(t) => t.get("package").and_then(|p| p.as_str()).unwrap_or(name).to_string(),
                _ => name.clone(),
            };
            match (deps.get_mut(&key), spec) {
                (None, spec) => {
                    deps.insert(key, spec);
                }
                (Some(toml::Value::Table(have)), toml::Value::Table(more)) => {
                    merge_features(have, &more);
                }
                _ => {}
            }
        }
    }
    let mut manifest: toml::Table = format!(
        "[package]\nname = \"{SEED}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n{OWN_WORKSPACE}"
    )
    .parse()
    .unwrap();
    manifest.insert("dependencies".into(), toml::Value::Table(deps));
    toml::to_string(&manifest).unwrap()
}

/// Adds the features `more` names to those `have` names.
fn merge_features(have: &mut toml::Table, more: &toml::Table) {
    let Some(toml::Value::Array(extra)) = more.get("features") else {
        return;
    };
    let features = have.entry("features").or_insert_with(|| toml::Value::Array(Vec::new()));
    if let toml::Value::Array(list) = features {
        for f in extra {
            if !list.contains(f) {
                list.push(f.clone());
            }
        }
    }
}

/// The names of the packages in the course crates' lockfile that come from
/// a registry.
fn registry_packages() -> HashSet<String> {
    let text = fs::read_to_string(root().join("exercises/Cargo.lock")).unwrap();
    let lock: toml::Table = text.parse().expect("exercises/Cargo.lock parses");
    lock.get("package")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
        .filter(|p| {
            p.get("source")
                .and_then(|s| s.as_str())
                .is_some_and(|s| s.starts_with("registry+") || s.starts_with("sparse+"))
        })
        .filter_map(|p| p.get("name").and_then(|n| n.as_str()).map(str::to_string))
        .collect()
}

/// Copies into the profile dir `to` each unit of the profile dir `from`
/// whose package `wanted` accepts and which `to` lacks. A unit is named
/// `<package>-<16 hex digits>` in `.fingerprint/`; its files are that
/// folder, `build/<the same name>/` (a build script, or its output) and
/// the files in `deps/` named after its hash. The fingerprint is copied
/// last, so a copy cut short leaves a unit cargo rebuilds.
fn copy_units(from: &Path, to: &Path, wanted: &dyn Fn(&str) -> bool) {
    let Ok(entries) = fs::read_dir(from.join(".fingerprint")) else {
        return;
    };
    let deps: Vec<String> = fs::read_dir(from.join("deps"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    for entry in entries.flatten() {
        let unit = entry.file_name().to_string_lossy().into_owned();
        let Some((package, hash)) = unit.rsplit_once('-') else {
            continue;
        };
        if hash.len() != 16 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) || !wanted(package) {
            continue;
        }
        if to.join(".fingerprint").join(&unit).exists() {
            continue;
        }
        let tagged = format!("-{hash}");
        for file in deps.iter().filter(|f| f.contains(&tagged)) {
            copy_kept(&from.join("deps").join(file), &to.join("deps").join(file));
        }
        if from.join("build").join(&unit).is_dir() {
            copy_tree_kept(&from.join("build").join(&unit), &to.join("build").join(&unit));
        }
        copy_tree_kept(&entry.path(), &to.join(".fingerprint").join(&unit));
    }
}

/// The lock cargo takes on the profile dir `dir` while it builds there
/// (`.cargo-lock`, an exclusive `flock`), taken the same way: `None` when
/// it cannot be made (then nothing builds there either).
fn cargo_lock(dir: &Path) -> Option<fs::File> {
    fs::create_dir_all(dir).ok()?;
    let file = fs::File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(".cargo-lock"))
        .ok()?;
    file.lock().ok()?;
    Some(file)
}

/// Copies the tree `from` to `to`, keeping modification times.
fn copy_tree_kept(from: &Path, to: &Path) {
    let Ok(entries) = fs::read_dir(from) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            copy_tree_kept(&path, &to.join(entry.file_name()));
        } else {
            copy_kept(&path, &to.join(entry.file_name()));
        }
    }
}

/// Copies the file `from` to `to` (making its folder), keeping its
/// modification time; a file that cannot be copied is left out (cargo
/// then builds its unit).
fn copy_kept(from: &Path, to: &Path) {
    let _ = fs::create_dir_all(to.parent().unwrap());
    if fs::copy(from, to).is_err() {
        return;
    }
    if let Ok(modified) = fs::metadata(from).and_then(|m| m.modified())
        && let Ok(file) = fs::File::options().write(true).open(to)
    {
        let _ = file.set_modified(modified);
    }
}
