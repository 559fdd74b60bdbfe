//! Loading a part's `exercises.toml`: each entry checked (id, hints,
//! files, checker, crates in the workspace) and turned into an
//! [`Exercise`]; and, once every lesson is loaded, each exercise's
//! `needs` resolved in the lessons ([`needs`]).

use std::path::Path;
use std::time::Duration;

use super::error::{self, ContentError, parse_toml};
use super::manifest::{ExercisesFile, FORMAT_VERSION};
use super::{Exercise, Loader, Part, WORKSPACE, needs};

impl Loader<'_> {
    /// Resolves every exercise's `needs` in the lessons: a section of its
    /// own part or an earlier one, by `##` or `###` heading.
    pub(super) fn resolve_needs(&mut self, parts: &[Part], exercises: &mut [Exercise]) {
        for (index, name, rel, line) in std::mem::take(&mut self.needs) {
            let ex = &mut exercises[index];
            let resolved = needs::split(&name).and_then(|(part, heading)| {
                if part > ex.part {
                    return Err(format!(
                        "`{name}`: exercise `{}` is in Part {}; it may need its own part or an earlier one",
                        ex.id, ex.part
                    ));
                }
                let lesson = parts
                    .iter()
                    .find(|p| p.number == part)
                    .and_then(|p| p.lesson.as_ref())
                    .ok_or_else(|| format!("`{name}`: Part {part} has no lesson"))?;
                needs::resolve(part, heading, lesson)
            });
            match resolved {
                Ok(need) => ex.needs.push(need),
                Err(reason) => self.errors.push(ContentError::at(
                    &rel,
                    line,
                    format!("exercise `{}` needs {reason}", ex.id),
                )),
            }
        }
    }

    /// The valid exercises of `rel`, each with the line of its id and its
    /// `needs` as written, each with its line.
    #[allow(clippy::type_complexity)]
    pub(super) fn exercises(
        &mut self,
        rel: &Path,
        part: u8,
        part_dir: &str,
        members: &[String],
    ) -> Vec<(Exercise, usize, Vec<(String, usize)>)> {
        let Some(source) = self.read(rel) else {
            return Vec::new();
        };
        let file: ExercisesFile = match parse_toml(rel, &source) {
            Ok(f) => f,
            Err(e) => {
                self.errors.push(e);
                return Vec::new();
            }
        };
        let at = |offset: usize, reason: String| ContentError::at_offset(rel, &source, offset, reason);
        if *file.format_version.get_ref() != FORMAT_VERSION {
            self.errors.push(at(
                file.format_version.span().start,
                format!(
                    "format_version {} is not supported; this mcplings reads {FORMAT_VERSION}",
                    file.format_version.get_ref()
                ),
            ));
        }
        let mut out = Vec::new();
        for entry in file.exercises {
            let id = entry.id.get_ref().clone();
            let id_at = entry.id.span().start;
            if !is_exercise_id(&id) {
                self.errors.push(at(
                    id_at,
                    format!("exercise id `{id}` must look like `01-encode-frames` (two digits, a dash, kebab-case)"),
                ));
                continue;
            }
            if entry.hints.get_ref().len() < 2 || entry.hints.get_ref().iter().any(|h| h.trim().is_empty()) {
                self.errors.push(at(
                    entry.hints.span().start,
                    format!("exercise `{id}` needs at least two non-empty hints, from a nudge to nearly the answer"),
                ));
            }
            if entry.files.get_ref().is_empty() {
                self.errors.push(at(
                    entry.files.span().start,
                    format!("exercise `{id}` lists no files for the learner to edit"),
                ));
            }
            let hint_for = entry.hint_for.unwrap_or_default();
            let count = entry.hints.get_ref().len();
            for (case, n) in &hint_for {
                if *n.get_ref() == 0 || *n.get_ref() > count {
                    self.errors.push(at(
                        n.span().start,
                        format!(
                            "exercise `{id}`: hint_for gives `{case}` hint {}, but hints go from 1 to {count}",
                            n.get_ref()
                        ),
                    ));
                }
            }
            let hint_for = hint_for.into_iter().map(|(case, n)| (case, n.into_inner())).collect();
            let checker = entry.checker.get_ref();
            if !self.checkers.contains(&checker.as_str()) {
                self.errors.push(at(
                    entry.checker.span().start,
                    format!("unknown checker `{checker}`; known: {}", self.checkers.join(", ")),
                ));
            }
            let ex = Exercise {
                id: id.clone(),
                title: entry.title,
                task: entry.task.trim().to_string(),
                part,
                files: entry.files.get_ref().clone(),
                hints: entry.hints.get_ref().iter().map(|h| h.trim().to_string()).collect(),
                hint_for,
                needs: Vec::new(),
                checker: checker.clone(),
                timeout: Duration::from_millis(entry.timeout_ms.unwrap_or(3000)),
                part_dir: part_dir.to_string(),
            };
            for (dir, package) in [
                (ex.dir(self.root), ex.package()),
                (ex.solution_dir(self.root), ex.solution_package()),
            ] {
                let rel_dir = dir.strip_prefix(self.root).unwrap_or(&dir).to_path_buf();
                self.check_crate(rel, &source, id_at, &rel_dir, &package, members);
            }
            for f in &ex.files {
                for base in [ex.dir(self.root), ex.stub_dir(self.root), ex.solution_dir(self.root)] {
                    if !base.join(f).is_file() {
                        let shown = base.join(f);
                        let shown = shown.strip_prefix(self.root).unwrap_or(&shown);
                        self.errors.push(at(
                            entry.files.span().start,
                            format!("exercise `{id}`: file {} is missing", shown.display()),
                        ));
                    }
                }
            }
            let needs = entry
                .needs
                .iter()
                .map(|n| (n.get_ref().clone(), error::line_of(&source, n.span().start)))
                .collect();
            out.push((ex, error::line_of(&source, id_at), needs));
        }
        out
    }

    fn check_crate(&mut self, rel: &Path, source: &str, offset: usize, dir: &Path, package: &str, members: &[String]) {
        let manifest = dir.join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(self.root.join(&manifest)) else {
            self.errors.push(ContentError::at_offset(
                rel,
                source,
                offset,
                format!("{} is missing", manifest.display()),
            ));
            return;
        };
        let name = toml::from_str::<toml::Table>(&text)
            .ok()
            .and_then(|t| t.get("package")?.get("name")?.as_str().map(str::to_string));
        if name.as_deref() != Some(package) {
            self.errors.push(ContentError::file(
                &manifest,
                format!("package name must be `{package}`"),
            ));
        }
        let member = dir.to_string_lossy().replace('\\', "/");
        if !members.contains(&member) {
            self.errors.push(ContentError::file(
                Path::new(WORKSPACE),
                format!("`{member}` must be listed in [workspace] members"),
            ));
        }
    }
}

pub(super) fn is_exercise_id(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() > 3
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && b[2] == b'-'
        && b[3..]
            .iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}
