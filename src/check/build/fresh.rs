//! Reusing a build without running cargo: a check of a crate that has not
//! changed since its last successful build runs the binary that build
//! made, with the compiler messages it printed.
//!
//! Cargo would find the crate fresh too, but only after resolving the
//! workspace and reading every fingerprint: 150–300 ms of a warm check on
//! this 2-core machine, more than a second when it is loaded, and most of
//! a warm check of a quick exercise. The record ([`Record`]) written after
//! a build holds what cargo's freshness rests on for these crates, read
//! before the build started: every file of the crate (path, size,
//! modification time to the nanosecond), the course crates' workspace
//! manifest and lockfile, cargo's configuration where cargo runs, and the
//! variables that change how rustc runs; and the binary (size, modification time), so a binary rebuilt by
//! anything else is not taken for this one. Any difference, and cargo runs
//! as before. A path dependency (an exercise's harness crate) is read the
//! same way, its files in the key; a crate with a build script or a
//! `[patch]`, in itself or a path dependency, always goes through cargo.
//!
//! Records live in `<target dir>/debug/mcplings-fresh/`, so `mcplings
//! clean` and `cargo clean` remove them with the binaries they describe.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde_json::{Value, json};

use super::{Built, Target};
use crate::content::WORKSPACE;

/// Where the records live, under the target dir.
const RECORDS: &str = "debug/mcplings-fresh";

/// The variables that change what cargo and rustc build: a record made
/// under other values is not reused.
const BUILD_VARIABLES: [&str; 7] = [
    "RUSTFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_BUILD_RUSTFLAGS",
    "RUSTC",
    "RUSTC_WRAPPER",
    "RUSTUP_TOOLCHAIN",
    "CARGO_PROFILE_DEV_DEBUG",
];

/// What a build's freshness rests on, read before it starts, and where its
/// record goes; `None` for a crate that must always go through cargo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    file: PathBuf,
    key: String,
}

impl Record {
    /// The record for building `target` (whose crate is `crate_dir`) from
    /// `root` into `target_dir`, as the files are now; `None` when the crate
    /// or a path dependency has a build script or a `[patch]`, or cannot be
    /// read.
    pub fn read(root: &Path, target: &Target, crate_dir: &Path, target_dir: &Path, color: bool) -> Option<Record> {
        let dirs = source_dirs(crate_dir)?;
        let label = match target {
            Target::Package(p) => p.clone(),
            Target::Dir(d) => d.display().to_string(),
        };
        let mut key = format!("mcplings-fresh 1\n{label}\ncolor {color}\n");
        for name in BUILD_VARIABLES {
            key.push_str(&format!("{name}={:?}\n", std::env::var_os(name)));
        }
        let mut files = Vec::new();
        for dir in &dirs {
            crate_files(dir, &mut files);
        }
        // The course crates' workspace manifest and lockfile (profiles,
        // versions; a crate built by path has its own among its files), and
        // cargo's configuration where cargo runs.
        let workspace = root.join(WORKSPACE);
        files.extend([workspace.clone(), workspace.with_file_name("Cargo.lock")]);
        for name in [".cargo/config.toml", ".cargo/config"] {
            files.push(root.join(name));
        }
        files.sort();
        files.dedup();
        for file in files {
            key.push_str(&format!("{} {}\n", file.display(), stamp(&file)));
        }
        let name: String = label
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
            .collect();
        Some(Record {
            file: target_dir.join(RECORDS).join(format!("{name}.json")),
            key,
        })
    }

    /// The build this record describes, when one was recorded with the same
    /// key and its binary is still the one that build made.
    pub fn reuse(&self) -> Option<Built> {
        let saved: Value = serde_json::from_slice(&fs::read(&self.file).ok()?).ok()?;
        if saved.get("key")?.as_str()? != self.key {
            return None;
        }
        let executable = PathBuf::from(saved.get("executable")?.as_str()?);
        if saved.get("binary")?.as_str()? != stamp(&executable) {
            return None;
        }
        Some(Built {
            ok: true,
            output: saved.get("output")?.as_str()?.to_string(),
            executable: Some(executable),
            ..Built::default()
        })
    }

    /// Records `built` under this key, when it succeeded. A record that
    /// cannot be written only costs the next check a cargo run.
    pub fn save(&self, built: &Built) {
        let Some(executable) = built.executable.as_ref().filter(|_| built.ok && built.error.is_none()) else {
            let _ = fs::remove_file(&self.file);
            return;
        };
        let record = json!({
            "key": self.key,
            "executable": executable.display().to_string(),
            "binary": stamp(executable),
            "output": built.output,
        });
        if let Some(dir) = self.file.parent() {
            let _ = fs::create_dir_all(dir);
        }
        // Written whole then renamed: a reader never sees half a record.
        let partial = self.file.with_extension(format!("json.{}", std::process::id()));
        if fs::write(&partial, record.to_string()).is_ok() && fs::rename(&partial, &self.file).is_err() {
            let _ = fs::remove_file(&partial);
        }
    }
}

/// Most crates one build may read (the crate and its path dependencies)
/// for a record; a crate with more goes through cargo.
const MAX_SOURCE_DIRS: usize = 8;

/// The folders a build of the crate in `crate_dir` reads, canonical: its
/// own, then its path dependencies' (an exercise's harness crate), theirs,
/// and so on. `None` when one of them has a build script or a `[patch]`
/// (what the build reads is then not all in these folders), a manifest
/// cannot be read, or there are more than [`MAX_SOURCE_DIRS`].
fn source_dirs(crate_dir: &Path) -> Option<Vec<PathBuf>> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut pending = vec![crate_dir.canonicalize().ok()?];
    while let Some(dir) = pending.pop() {
        if dirs.contains(&dir) {
            continue;
        }
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        if dir.join("build.rs").exists() {
            return None;
        }
        for dependency in path_dependencies(&manifest)? {
            pending.push(dir.join(dependency).canonicalize().ok()?);
        }
        dirs.push(dir);
        if dirs.len() > MAX_SOURCE_DIRS {
            return None;
        }
    }
    Some(dirs)
}

/// The `path` of every path dependency a manifest names (normal, dev,
/// build, and per target); `None` when the manifest is not valid TOML, or
/// names a build script or a `[patch]`.
fn path_dependencies(manifest: &str) -> Option<Vec<String>> {
    let table = toml::from_str::<toml::Table>(manifest).ok()?;
    if table.get("package").and_then(|p| p.get("build")).is_some() || table.get("patch").is_some() {
        return None;
    }
    let mut tables: Vec<&toml::Value> = Vec::new();
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    tables.extend(kinds.iter().filter_map(|k| table.get(*k)));
    if let Some(targets) = table.get("target").and_then(toml::Value::as_table) {
        for t in targets.values() {
            tables.extend(kinds.iter().filter_map(|k| t.get(*k)));
        }
    }
    Some(
        tables
            .iter()
            .filter_map(|deps| deps.as_table())
            .flat_map(|deps| deps.values())
            .filter_map(|d| d.get("path").and_then(toml::Value::as_str).map(str::to_string))
            .collect(),
    )
}

/// Every file under `dir`, but not in `target/` or a hidden folder.
fn crate_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            if name != "target" && !name.to_string_lossy().starts_with('.') {
                crate_files(&entry.path(), files);
            }
        } else {
            files.push(entry.path());
        }
    }
}

/// A file's size and modification time (nanoseconds), or `absent`.
fn stamp(path: &Path) -> String {
    match fs::metadata(path) {
        Ok(meta) => {
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{} bytes, modified {modified}", meta.len())
        }
        Err(_) => "absent".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crate_in(dir: &Path, manifest: &str) {
        fs::create_dir_all(dir.join("src")).unwrap();
        fs::write(dir.join("Cargo.toml"), manifest).unwrap();
        fs::write(dir.join("src/lib.rs"), "pub fn f() {}\n").unwrap();
    }

    #[test]
    fn a_record_is_reused_until_a_file_or_the_binary_changes() {
        let course = tempfile::tempdir().unwrap();
        let root = course.path();
        let dir = root.join("exercises/01-a");
        crate_in(&dir, "[package]\nname = \"a\"\n[dependencies]\nserde_json = \"1\"\n");
        let target = Target::Package("a".into());
        let target_dir = root.join("target");
        let exe = target_dir.join("debug/a");
        fs::create_dir_all(exe.parent().unwrap()).unwrap();
        fs::write(&exe, "binary").unwrap();
        let record = || Record::read(root, &target, &dir, &target_dir, false).unwrap();
        let built = Built {
            ok: true,
            output: "warning: unused\n".into(),
            executable: Some(exe.clone()),
            ..Built::default()
        };
        assert!(record().reuse().is_none(), "nothing recorded yet");
        record().save(&built);
        let reused = record().reuse().expect("the same files: reused");
        assert_eq!((reused.ok, reused.output.as_str()), (true, "warning: unused\n"));
        assert_eq!(reused.executable, Some(exe.clone()));
        // Another colour is another record.
        assert!(
            Record::read(root, &target, &dir, &target_dir, true)
                .unwrap()
                .reuse()
                .is_none()
        );
        // A save (same bytes or not) changes the modification time.
        std::thread::sleep(std::time::Duration::from_millis(5));
        fs::write(dir.join("src/lib.rs"), "pub fn f() {}\n").unwrap();
        assert!(record().reuse().is_none(), "a file changed");
        record().save(&built);
        assert!(record().reuse().is_some());
        fs::write(dir.join("src/new.rs"), "").unwrap();
        assert!(record().reuse().is_none(), "a file was added");
        record().save(&built);
        fs::write(root.join("exercises/Cargo.lock"), "").unwrap();
        assert!(record().reuse().is_none(), "the lockfile changed");
        record().save(&built);
        fs::write(root.join("exercises/Cargo.toml"), "[workspace]\n").unwrap();
        assert!(record().reuse().is_none(), "the workspace manifest changed");
        record().save(&built);
        std::thread::sleep(std::time::Duration::from_millis(5));
        fs::write(&exe, "rebuilt").unwrap();
        assert!(record().reuse().is_none(), "the binary was rebuilt by something else");
        // A failed build leaves no record behind.
        record().save(&Built::default());
        assert!(record().reuse().is_none());
    }

    #[test]
    fn a_path_dependency_is_part_of_the_record() {
        let course = tempfile::tempdir().unwrap();
        let root = course.path();
        let dir = root.join("exercises/01-a");
        crate_in(
            &dir,
            "[package]\nname = \"a\"\n[dependencies]\nh = { path = \"harness\" }\n",
        );
        crate_in(&dir.join("harness"), "[package]\nname = \"h\"\n");
        let solution = root.join("solutions/01-a");
        crate_in(
            &solution,
            "[package]\nname = \"s\"\n[dependencies]\nh = { path = \"../../exercises/01-a/harness\" }\n",
        );
        let target_dir = root.join("target");
        let exe = target_dir.join("debug/a");
        fs::create_dir_all(exe.parent().unwrap()).unwrap();
        fs::write(&exe, "binary").unwrap();
        let built = Built {
            ok: true,
            executable: Some(exe.clone()),
            ..Built::default()
        };
        for (crate_dir, package) in [(&dir, "a"), (&solution, "s")] {
            let target = Target::Package(package.into());
            let record = || Record::read(root, &target, crate_dir, &target_dir, false).unwrap();
            record().save(&built);
            assert!(record().reuse().is_some(), "{package}");
            std::thread::sleep(std::time::Duration::from_millis(5));
            fs::write(dir.join("harness/src/lib.rs"), "pub fn g() {}\n").unwrap();
            assert!(record().reuse().is_none(), "{package}: the harness changed");
        }
        // A harness with a build script, or one that is missing: cargo.
        fs::write(dir.join("harness/build.rs"), "fn main() {}").unwrap();
        assert!(Record::read(root, &Target::Package("a".into()), &dir, &target_dir, false).is_none());
        fs::remove_dir_all(dir.join("harness")).unwrap();
        assert!(Record::read(root, &Target::Package("s".into()), &solution, &target_dir, false).is_none());
    }

    #[test]
    fn crates_with_build_scripts_or_patches_go_through_cargo() {
        let course = tempfile::tempdir().unwrap();
        let root = course.path();
        let target = Target::Dir(root.join("c"));
        let read = |manifest: &str| {
            crate_in(&root.join("c"), manifest);
            Record::read(root, &target, &root.join("c"), &root.join("t"), false)
        };
        assert!(read("[package]\nname = \"c\"\n[dependencies]\nserde_json = \"1\"\n").is_some());
        assert!(read("[package]\nname = \"c\"\nbuild = \"gen.rs\"\n").is_none());
        // A path dependency that is not there (its manifest unreadable).
        assert!(read("[package]\nname = \"c\"\n[dependencies]\nx = { path = \"../x\" }\n").is_none());
        assert!(
            read("[package]\nname = \"c\"\n[target.'cfg(unix)'.dependencies]\nx = { path = \"../x\" }\n").is_none()
        );
        crate_in(&root.join("x"), "[package]\nname = \"x\"\n");
        assert!(read("[package]\nname = \"c\"\n[dependencies]\nx = { path = \"../x\" }\n").is_some());
        crate_in(&root.join("x"), "[package]\nname = \"x\"\nbuild = \"b.rs\"\n");
        assert!(read("[package]\nname = \"c\"\n[dependencies]\nx = { path = \"../x\" }\n").is_none());
        assert!(read("[package]\nname = \"c\"\n[patch.crates-io]\nx = { git = \"g\" }\n").is_none());
        assert!(read("not toml [").is_none());
        fs::write(root.join("c/build.rs"), "fn main() {}").unwrap();
        assert!(read("[package]\nname = \"c\"\n").is_none());
    }
}
