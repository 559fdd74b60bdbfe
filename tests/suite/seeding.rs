//! The seed of compiled dependencies (`common::seed`): a target dir seeded
//! from it builds a course crate without compiling serde_json, tiny_http
//! or the harness again, and takes nothing it should not.

use std::path::Path;

use crate::common::{self, seed};

/// A mutant crate built in a fresh, seeded target dir: cargo's own report
/// (`--message-format json`) says every dependency, registry crates and
/// harness, was fresh, each one a unit the seed's manifest builds now (not
/// one an older manifest left in the seed's dir), and only the crate
/// itself was compiled. Fails if a solution's dependencies ever differ
/// from the seed's (a feature named in one crate only), which would
/// quietly cost every target dir its own build of them.
#[test]
fn a_seeded_target_dir_compiles_only_the_crate_itself() {
    let krate = common::mutant("06-http-front-door", "seed-probe-06", &[]);
    let target = tempfile::tempdir().unwrap();
    let dir = seed::seeded(target.path().to_path_buf(), seed::Units::WithHarnesses);
    let (compiled, fresh) = artifacts(&krate.path().join("Cargo.toml"), &dir);
    assert!(
        compiled.len() == 1 && compiled[0].0.contains("seed-probe-06"),
        "compiled besides the crate: {compiled:#?}"
    );
    for needed in ["#serde_json@", "#tiny_http@", "harness-06-http-front-door"] {
        assert!(
            fresh.iter().any(|(id, _)| id.contains(needed)),
            "{needed} not fresh: {fresh:#?}"
        );
    }
    let seed_dir = common::target_dir().join("test-seed");
    let (_, now) = artifacts(&seed_dir.join("crate/Cargo.toml"), &seed_dir.join("build"));
    let seed_files: Vec<&String> = now.iter().flat_map(|(_, files)| files).collect();
    for (id, files) in &fresh {
        assert!(
            files.iter().all(|f| seed_files.contains(&f)),
            "{id}: {files:?} is not what the seed's manifest builds now"
        );
    }
}

/// A dir for a course copy's crates gets the registry units only: the
/// harness units in the seed are the checkout's, and a copy's harnesses
/// are its own.
#[test]
fn a_course_copy_dir_gets_no_harness() {
    let target = tempfile::tempdir().unwrap();
    let dir = seed::seeded(target.path().to_path_buf(), seed::Units::Registry);
    let units: Vec<String> = std::fs::read_dir(dir.join("debug/.fingerprint"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(units.iter().any(|u| u.starts_with("serde_json-")), "{units:?}");
    assert!(
        !units
            .iter()
            .any(|u| u.starts_with("harness-") || u.starts_with("test-seed")),
        "{units:?}"
    );
}

/// Artifacts cargo reported, as (package id, file names).
type Artifacts = Vec<(String, Vec<String>)>;

/// What `cargo build` of `manifest` into `target` reports: the artifacts
/// it compiled, and those it found fresh.
fn artifacts(manifest: &Path, target: &Path) -> (Artifacts, Artifacts) {
    let out = common::cargo()
        .args(["build", "--quiet", "--message-format", "json", "--manifest-path"])
        .arg(manifest)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let (mut compiled, mut fresh) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let message: serde_json::Value = serde_json::from_str(line).unwrap();
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let id = message["package_id"].as_str().unwrap_or_default().to_string();
        let files = message["filenames"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| Path::new(f.as_str()?).file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .collect();
        if message["fresh"] == true {
            fresh.push((id, files));
        } else {
            compiled.push((id, files));
        }
    }
    (compiled, fresh)
}
