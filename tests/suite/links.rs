//! The project's Markdown pages link to what exists: every relative link in
//! README.md, CONTRIBUTING.md and docs/*.md (`[text](path)`,
//! `[text](path#anchor)`, `[text](#anchor)`) names a file or folder of the
//! repository, and its anchor, if any, is a heading of that page as GitHub
//! slugs it (lowercase, spaces to `-`, punctuation other than `-` and `_`
//! dropped; a repeated heading gets `-1`, `-2`, …). External links
//! (http, https, mailto) are not followed. Links inside code (fenced blocks
//! and code spans) are not links.

use std::path::{Component, Path, PathBuf};

/// The pages checked, relative to the repository's root.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| path.strip_prefix(root).unwrap().to_path_buf())
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A heading's anchor as GitHub makes it.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The text with fenced code blocks blanked (their lines kept, empty).
fn unfenced(text: &str) -> String {
    let mut out = String::new();
    // The open fence: its character and how many (a fence closes on a line
    // of that character alone, at least as many).
    let mut fence: Option<(char, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        let first = trimmed.chars().next().filter(|c| matches!(c, '`' | '~'));
        let run = first.map_or(0, |f| trimmed.chars().take_while(|&c| c == f).count());
        match (fence, first) {
            (None, Some(f)) if run >= 3 => fence = Some((f, run)),
            (Some((open, n)), Some(f)) if f == open && run >= n && run == trimmed.chars().count() => fence = None,
            (None, _) => out.push_str(line),
            _ => {}
        }
        out.push('\n');
    }
    out
}

/// The text without fenced code blocks and code spans: its prose.
fn prose(text: &str) -> String {
    let out = unfenced(text);
    // Code spans: a run of n backticks up to the next run of exactly n (a
    // span may wrap across lines); an unmatched run stays as it is.
    let chars: Vec<char> = out.chars().collect();
    let run = |at: usize| chars[at..].iter().take_while(|&&c| c == '`').count();
    let mut kept = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            kept.push(chars[i]);
            i += 1;
            continue;
        }
        let n = run(i);
        let mut j = i + n;
        let close = loop {
            if j >= chars.len() {
                break None;
            }
            if chars[j] == '`' {
                let m = run(j);
                if m == n {
                    break Some(j + m);
                }
                j += m;
            } else {
                j += 1;
            }
        };
        match close {
            Some(end) => i = end,
            None => {
                kept.extend(&chars[i..i + n]);
                i += n;
            }
        }
    }
    kept
}

/// The anchors of a page's headings, in order, repeated ones numbered.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for line in unfenced(text).lines() {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim().trim_end_matches('#'));
        let repeats = seen
            .iter()
            .filter(|s| {
                **s == base
                    || s.strip_prefix(&format!("{base}-"))
                        .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        seen.push(if repeats == 0 {
            base
        } else {
            format!("{base}-{repeats}")
        });
    }
    seen
}

/// The targets of a page's inline links and images, as written.
fn targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].trim();
        // `<path with spaces>` or `path "title"`: the path only.
        let target = match target.strip_prefix('<') {
            Some(inner) => inner.split('>').next().unwrap_or(""),
            None => target.split_whitespace().next().unwrap_or(""),
        };
        out.push(target.to_string());
        rest = &rest[end..];
    }
    out
}

/// `dir/../a/./b` as `a/b`, relative to the repository's root.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What a link may point at.
enum Target {
    Missing,
    /// A folder, or a file that is not Markdown: it exists, anchors aside.
    Other,
    Page(String),
}

/// Each broken link of `page` (a path relative to the repository's root,
/// with text `text`), as "page: target: why"; `lookup` says what a
/// root-relative path is.
fn broken(page: &Path, text: &str, lookup: &dyn Fn(&Path) -> Target) -> Vec<String> {
    let mut problems = Vec::new();
    for target in targets(text) {
        let lower = target.to_lowercase();
        if ["http://", "https://", "mailto:"]
            .iter()
            .any(|scheme| lower.starts_with(scheme))
            || target.is_empty()
        {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target.as_str(), None),
        };
        let file = if path.is_empty() {
            page.to_path_buf()
        } else {
            normalize(&page.parent().unwrap_or(Path::new("")).join(path))
        };
        // A link within the page reads the page itself.
        let looked_up = if path.is_empty() {
            Target::Page(text.to_string())
        } else {
            lookup(&file)
        };
        let headings = match looked_up {
            Target::Missing => {
                problems.push(format!(
                    "{}: {target}: {} does not exist",
                    page.display(),
                    file.display()
                ));
                continue;
            }
            Target::Other => continue,
            Target::Page(text) => anchors(&text),
        };
        if let Some(anchor) = anchor
            && !headings.iter().any(|h| h == anchor)
        {
            problems.push(format!(
                "{}: {target}: {} has no heading #{anchor}",
                page.display(),
                file.display()
            ));
        }
    }
    problems
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lookup = |path: &Path| {
        let full = root.join(path);
        if !full.exists() {
            Target::Missing
        } else if full.is_file() && path.extension().is_some_and(|ext| ext == "md") {
            Target::Page(std::fs::read_to_string(&full).unwrap())
        } else {
            Target::Other
        }
    };
    let mut problems = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(root.join(&page)).unwrap();
        problems.extend(broken(&page, &text, &lookup));
    }
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
}

#[test]
fn a_broken_link_and_a_broken_anchor_are_found() {
    let other = "# Other\n\n## The test suite\n\n## Keys\n\n## Keys\n";
    let lookup = |path: &Path| match path.to_str() {
        Some("docs/other.md") => Target::Page(other.to_string()),
        Some("README.md") => Target::Page("# mcplings\n".to_string()),
        Some("src") => Target::Other,
        _ => Target::Missing,
    };
    let page = "# Page\n\n## How it works: a check's *reasons*\n\n\
        Good: [same page](#how-it-works-a-checks-reasons), [other](other.md#the-test-suite),\n\
        [the second Keys](other.md#keys-1), [up](../README.md), [a folder](../src),\n\
        [web](https://example.com/missing.md), [mail](mailto:a@b.c), `[code](gone.md)`,\n\
        ```\n[fenced](gone.md)\n```\n\
        Broken: [a file](missing.md), [an anchor](other.md#no-such-heading),\n\
        [here](#nowhere), [a third Keys](other.md#keys-2).\n";
    let problems = broken(Path::new("docs/page.md"), page, &lookup);
    assert_eq!(
        problems,
        [
            "docs/page.md: missing.md: docs/missing.md does not exist",
            "docs/page.md: other.md#no-such-heading: docs/other.md has no heading #no-such-heading",
            "docs/page.md: #nowhere: docs/page.md has no heading #nowhere",
            "docs/page.md: other.md#keys-2: docs/other.md has no heading #keys-2",
        ]
    );
}

#[test]
fn headings_are_slugged_as_github_does() {
    assert_eq!(
        slug("Beyond the exercises: doctor and wire"),
        "beyond-the-exercises-doctor-and-wire"
    );
    assert_eq!(
        slug("The `check_mutant_on` helper (1.2)"),
        "the-check_mutant_on-helper-12"
    );
    assert_eq!(
        slug("Time in a check: the pool and load-scaled margins"),
        "time-in-a-check-the-pool-and-load-scaled-margins"
    );
    assert_eq!(
        anchors(
            "# A\n```\n# not a heading\n```\n## B b\n## B b\n#nospace\n````text\n```json\n```\n# inside\n````\n## C\n"
        ),
        ["a", "b-b", "b-b-1", "c"]
    );
}
