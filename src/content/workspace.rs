//! The exercise and solution crates' cargo workspace, apart from the app's.

use std::path::Path;

/// The manifest of the exercise and solution crates' cargo workspace,
/// relative to the course root: a workspace of their own, apart from the
/// app's, so a check resolves their small lockfile (`exercises/Cargo.lock`
/// beside it). Its members are every `exercises/<id>` and
/// `../solutions/<id>`; checks build them into `target/exercises/`.
pub const WORKSPACE: &str = "exercises/Cargo.toml";

/// The members of the crates' workspace ([`WORKSPACE`]), as paths from
/// the course root: `exercises/01-encode-frames`, `solutions/01-encode-frames`
/// (written `01-encode-frames` and `../solutions/01-encode-frames` there).
pub fn workspace_members(root: &Path) -> Vec<String> {
    let members = std::fs::read_to_string(root.join(WORKSPACE))
        .ok()
        .and_then(|t| toml::from_str::<toml::Table>(&t).ok())
        .and_then(|t| t.get("workspace")?.get("members")?.as_array().cloned())
        .unwrap_or_default();
    let from_root = |member: &str| {
        let mut parts: Vec<&str> = vec!["exercises"];
        for part in member.split('/').filter(|p| !p.is_empty() && *p != ".") {
            if part == ".." {
                parts.pop();
            } else {
                parts.push(part);
            }
        }
        parts.join("/")
    };
    members.iter().filter_map(|m| m.as_str().map(from_root)).collect()
}
