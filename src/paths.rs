//! Finding the course: the checkout or workspace (`mcplings init`) whose
//! `lessons/course.toml` mcplings reads and whose `exercises/` it checks.

use std::path::{Path, PathBuf};

use crate::content::MANIFEST;

/// The course root: `explicit` (from `--root`) if given, else
/// `$MCPLINGS_ROOT`, else the nearest directory at or above the current one
/// holding `lessons/course.toml`. The binary never falls back to the source
/// tree it was built from: an installed mcplings works in a workspace that
/// `mcplings init` wrote.
///
/// Errors: a message saying where mcplings looked and what to run.
pub fn find_root(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(dir) = explicit
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("MCPLINGS_ROOT").map(PathBuf::from))
    {
        return if dir.join(MANIFEST).is_file() {
            Ok(absolute(&dir))
        } else {
            Err(format!(
                "{} holds no {MANIFEST}: point --root (or MCPLINGS_ROOT) at the mcplings checkout",
                dir.display()
            ))
        };
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    if let Some(dir) = cwd.ancestors().find(|d| d.join(MANIFEST).is_file()) {
        return Ok(dir.to_path_buf());
    }
    Err(format!(
        "no workspace here: run `mcplings init` to write one, then cd into it (looked in {} and above)",
        cwd.display()
    ))
}

fn absolute(dir: &Path) -> PathBuf {
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}
