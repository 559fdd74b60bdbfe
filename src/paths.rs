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

/// Whether a path starting at byte `at` of `text` begins there and does
/// not continue one before it: at the start, after a character no path
/// holds (a space, a quote, `(`), or right after an ANSI colour sequence
/// (`ESC [ 0 m`), as the compiler's coloured messages put them.
fn path_starts_at(text: &str, at: usize) -> bool {
    let before = &text[..at];
    match before.chars().next_back() {
        None => true,
        Some(c) if c.is_alphanumeric() || matches!(c, '/' | '.' | '-' | '_' | '~' | '\\') => {
            // `…ESC[0m` ends a colour sequence, not a path.
            c == 'm'
                && before.rfind('\x1b').is_some_and(|esc| {
                    before[esc + 1..].strip_prefix('[').is_some_and(|sgr| {
                        sgr.strip_suffix('m')
                            .is_some_and(|p| p.chars().all(|c| c.is_ascii_digit() || c == ';'))
                    })
                })
        }
        Some(_) => true,
    }
}

/// `text` with each `file` of `files` (a path as the compiler names it,
/// relative to the crates' workspace it ran in) followed by `:` (a
/// location, `FILE:LINE:COL`) written as the path `at` gives it (`None`
/// leaves it as it is). Longer names are tried first, and a name only
/// where a path begins ([`path_starts_at`]).
pub fn rewrite_locations(text: &str, files: &[String], at: impl Fn(&str) -> Option<String>) -> String {
    let mut files: Vec<(&String, String)> = files.iter().filter_map(|f| Some((f, at(f)?))).collect();
    files.sort_by_key(|(f, _)| std::cmp::Reverse(f.len()));
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    'scan: while i < text.len() {
        if path_starts_at(text, i) {
            for (file, shown) in &files {
                if text[i..].starts_with(file.as_str()) && text[i + file.len()..].starts_with(':') {
                    out.push_str(shown);
                    i += file.len();
                    continue 'scan;
                }
            }
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Where `file` (a path the compiler or a panic names, relative to the
/// directory rustc ran in: the crates' workspace) lies: under the first of
/// `dir` and its ancestors that holds it; an absolute `file` as it is.
pub fn resolve(file: &str, dir: &Path) -> Option<PathBuf> {
    let path = Path::new(file);
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    absolute(dir).ancestors().map(|a| a.join(path)).find(|p| p.is_file())
}

/// `path` as the learner types it from `from`, the directory mcplings was
/// started from: relative when it lies under `from`
/// (`exercises/03-handshake-gate/src/lib.rs`), else absolute.
pub fn shown_from(path: &Path, from: &Path) -> String {
    let from = absolute(from);
    let path = absolute(path);
    match path.strip_prefix(&from) {
        Ok(relative) if !relative.as_os_str().is_empty() => relative.display().to_string(),
        _ => path.display().to_string(),
    }
}

/// `text` with each absolute path under `from` written relative to it
/// (`/home/me/mcplings/exercises/…` → `exercises/…` when started from
/// `/home/me/mcplings`), where a path begins ([`path_starts_at`]).
pub fn relative_in(text: &str, from: &Path) -> String {
    let prefix = format!("{}/", absolute(from).display().to_string().trim_end_matches('/'));
    if prefix == "/" {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(&prefix) && path_starts_at(text, i) {
            i += prefix.len();
            continue;
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The directory mcplings was started from (its current directory: it
/// never changes it), where paths it shows are relative to.
pub fn start_dir() -> Option<PathBuf> {
    std::env::current_dir().ok()
}

/// The source locations in `line` (`exercises/03-handshake-gate/src/lib.rs:135:37`,
/// a `.rs` file, a line and a column) whose file exists, seen from
/// `from`: each one's byte range in `line` (the location, line and column
/// included) and the file's absolute path, for a `file://` link.
pub fn locations(line: &str, from: &Path) -> Vec<(std::ops::Range<usize>, PathBuf)> {
    let mut found = Vec::new();
    let mut searched = 0;
    while let Some(at) = line[searched..].find(".rs:").map(|i| searched + i) {
        searched = at + 4;
        let start = line[..at]
            .rfind(|c: char| c.is_whitespace() || matches!(c, '`' | '(' | '"' | '\''))
            .map_or(0, |i| i + 1);
        let digits = |from: usize| {
            line[from..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(line.len(), |n| from + n)
        };
        let line_end = digits(at + 4);
        if line_end == at + 4 || !line[line_end..].starts_with(':') {
            continue;
        }
        let end = digits(line_end + 1);
        if end == line_end + 1 {
            continue;
        }
        let file = Path::new(&line[start..at + 3]);
        let path = if file.is_absolute() {
            file.to_path_buf()
        } else {
            absolute(from).join(file)
        };
        if path.is_file() {
            found.push((start..end, path));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_rewritten_where_a_path_begins_coloured_or_not() {
        let files = vec!["03-gate/src/lib.rs".to_string(), "src/lib.rs".to_string()];
        let at = |f: &str| Some(format!("/ws/exercises/{f}"));
        assert_eq!(
            rewrite_locations(" --> 03-gate/src/lib.rs:135:37\n", &files, at),
            " --> /ws/exercises/03-gate/src/lib.rs:135:37\n"
        );
        // After a colour sequence; not inside a longer path; not without `:`.
        assert_eq!(
            rewrite_locations(
                "\x1b[0m--> \x1b[0m\x1b[0msrc/lib.rs:1:1\x1b[0m x/src/lib.rs:2 src/lib.rs.",
                &files,
                at
            ),
            "\x1b[0m--> \x1b[0m\x1b[0m/ws/exercises/src/lib.rs:1:1\x1b[0m x/src/lib.rs:2 src/lib.rs."
        );
        assert_eq!(
            relative_in("at /ws/exercises/a.rs:1:2 and /x/ws/b.rs:3", Path::new("/ws")),
            "at exercises/a.rs:1:2 and /x/ws/b.rs:3"
        );
        assert_eq!(
            shown_from(Path::new("/ws/exercises/a.rs"), Path::new("/ws")),
            "exercises/a.rs"
        );
        assert_eq!(
            shown_from(Path::new("/elsewhere/a.rs"), Path::new("/ws")),
            "/elsewhere/a.rs"
        );
    }

    #[test]
    fn locations_of_existing_files_are_found_with_their_line_and_column() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let line = "`f` panicked at src/paths.rs:12:5: boom, not src/nope.rs:1:2 nor src/paths.rs:x";
        let found = locations(line, root);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(&line[found[0].0.clone()], "src/paths.rs:12:5");
        assert_eq!(found[0].1, root.join("src/paths.rs"));
        // From elsewhere, the same relative path opens nothing.
        assert!(locations(line, &root.join("src")).is_empty());
    }
}
