//! Spec citations and the pages they name. The course cites a rule as
//! `REVISION PAGE › Heading`, such as `2025-11-25 basic/lifecycle ›
//! Initialization`; the page is a path of the specification's site,
//! <https://modelcontextprotocol.io/specification/REVISION/PAGE>, where a
//! folder's `index` page is the folder itself (`basic/index` is
//! `…/2025-11-25/basic`, as the spec's own links write it).

use unicode_width::UnicodeWidthStr;

/// Where the specification's pages live, one folder per revision.
pub const SPEC_BASE: &str = "https://modelcontextprotocol.io/specification";

/// Pages cited without a folder: a bare word after a date is a citation
/// only when it is one of these and is followed by `›`, `)`, `;` or `,`
/// ("2026-07-28 removed …" is prose).
const TOP_PAGES: &[&str] = &["schema", "changelog", "index", "deprecated"];

/// Whether the terminal likely shows OSC 8 hyperlinks, from the
/// environment (`var` reads a variable): `MCPLINGS_LINKS=0` turns them
/// off and `=1` on; otherwise they are on except where `TERM` is unset,
/// `dumb` or `linux`. Terminals that do not know OSC 8 skip it, as any
/// operating system command they do not know (ECMA-48 § 8.3.89), and show
/// the plain text; the Linux console is the known exception (it reads
/// `ESC ]` as a palette command), and a dumb terminal shows escapes as
/// they are.
pub fn terminal_links(var: impl Fn(&str) -> Option<String>) -> bool {
    match var("MCPLINGS_LINKS").as_deref() {
        Some("0") => return false,
        Some("1") => return true,
        _ => {}
    }
    !matches!(var("TERM").as_deref(), None | Some("" | "dumb" | "linux"))
}

/// One citation found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Citation {
    /// The revision, `YYYY-MM-DD`.
    pub revision: String,
    /// The page path, such as `basic/lifecycle` or `schema`.
    pub page: String,
    /// Byte range of `REVISION PAGE` in the text.
    pub span: std::ops::Range<usize>,
}

impl Citation {
    /// The page's address on the specification's site.
    pub fn url(&self) -> String {
        url(&self.revision, &self.page)
    }
}

/// The address of `page` of `revision`: `index` pages are their folder.
pub fn url(revision: &str, page: &str) -> String {
    let page = page.strip_suffix("index").unwrap_or(page).trim_end_matches('/');
    if page.is_empty() {
        format!("{SPEC_BASE}/{revision}")
    } else {
        format!("{SPEC_BASE}/{revision}/{page}")
    }
}

fn is_date(s: &[u8]) -> bool {
    s.len() == 10
        && s.iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Every citation in `text`, in order.
pub fn citations(text: &str) -> Vec<Citation> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 11 < bytes.len() {
        let starts_word = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if !(starts_word && is_date(&bytes[i..i + 10]) && bytes[i + 10] == b' ') {
            i += 1;
            continue;
        }
        let start = i + 11;
        let mut end = start;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || b"/-_".contains(&bytes[end])) {
            end += 1;
        }
        // A path does not end with a slash or a hyphen.
        while end > start && b"/-".contains(&bytes[end - 1]) {
            end -= 1;
        }
        let page = &text[start..end];
        let after = text[end..].trim_start_matches(' ');
        let closes = after.is_empty() || after.starts_with(['›', ')', ';', ',']);
        let cited = page.starts_with(|c: char| c.is_ascii_lowercase())
            && (page.contains('/') || (TOP_PAGES.contains(&page) && closes));
        if cited {
            out.push(Citation {
                revision: text[i..i + 10].to_string(),
                page: page.to_string(),
                span: i..end,
            });
            i = end;
        } else {
            i += 10;
        }
    }
    out
}

/// The prefix of a course rule's key and of its marker in a lesson,
/// `(course rule: ID)`: a convention of the course's own, where the spec
/// leaves the choice open (what a client does with an orphan response).
pub const COURSE_RULE: &str = "course rule:";

/// The rule keys a text states: each citation that names a heading,
/// `REVISION page › Heading` (a citation naming two headings, `… › A, ›
/// B`, states both; one that names none states no rule), and each
/// `(course rule: ID)` marker as `course rule: ID`. A heading runs to the
/// next `)`, `;`, `,`, `›` or a full stop that ends a sentence; runs of
/// white space, line breaks included, count as one space.
pub fn rule_keys(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    for c in citations(text) {
        let mut rest = &text[c.span.end..];
        while let Some(after) = rest.trim_start().strip_prefix('›') {
            let end = after
                .char_indices()
                .find(|&(i, ch)| {
                    matches!(ch, ')' | ';' | ',' | '›')
                        || (ch == '.' && after[i + 1..].chars().next().is_none_or(char::is_whitespace))
                })
                .map_or(after.len(), |(i, _)| i);
            let heading = after[..end].split_whitespace().collect::<Vec<_>>().join(" ");
            if heading.is_empty() {
                break;
            }
            keys.push(format!("{} {} › {heading}", c.revision, c.page));
            // `… › A, › B`: a second heading on the same page.
            rest = &after[end..];
            match rest.strip_prefix(',') {
                Some(more) if more.trim_start().starts_with('›') => rest = more,
                _ => break,
            }
        }
    }
    let mut from = 0;
    while let Some(at) = text[from..].find(&format!("({COURSE_RULE}")) {
        let start = from + at + 1 + COURSE_RULE.len();
        let Some(len) = text[start..].find(')') else { break };
        let id = text[start..start + len].trim();
        if !id.is_empty() {
            keys.push(format!("{COURSE_RULE} {id}"));
        }
        from = start + len;
    }
    keys
}

/// A link drawn on screen: `line`, columns `cols` (display columns, end
/// excluded) of that line, to `url`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Index of the line.
    pub line: usize,
    /// The columns the link covers.
    pub cols: std::ops::Range<usize>,
    /// Where it points.
    pub url: String,
}

/// The citations in laid-out `lines` (plain text, one entry per screen
/// line) as links. A citation that wrapping split after its date (the
/// date ends a line, the page starts the next) links both halves.
pub fn links(lines: &[String]) -> Vec<Link> {
    let mut out = Vec::new();
    let col = |line: &str, byte: usize| line[..byte].width();
    for (n, line) in lines.iter().enumerate() {
        for c in citations(line) {
            out.push(Link {
                line: n,
                cols: col(line, c.span.start)..col(line, c.span.end),
                url: c.url(),
            });
        }
        // The split case: `… (2025-11-25` / `basic/lifecycle › …`.
        let trimmed = line.trim_end();
        let Some(next) = lines.get(n + 1) else { continue };
        if trimmed.len() < 10 || !is_date(&trimmed.as_bytes()[trimmed.len() - 10..]) {
            continue;
        }
        let date = &trimmed[trimmed.len() - 10..];
        let body = next.trim_start();
        let joined = format!("{date} {body}");
        if let Some(c) = citations(&joined).into_iter().find(|c| c.span.start == 0) {
            let start = trimmed.len() - 10;
            out.push(Link {
                line: n,
                cols: col(line, start)..col(line, trimmed.len()),
                url: c.url(),
            });
            let lead = next.len() - body.len();
            let page_end = lead + c.span.end - 11;
            out.push(Link {
                line: n + 1,
                cols: col(next, lead)..col(next, page_end),
                url: c.url(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_and_index_pages_map_to_the_sites_addresses() {
        assert_eq!(
            url("2025-11-25", "basic/lifecycle"),
            "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle"
        );
        assert_eq!(
            url("2025-11-25", "basic/index"),
            "https://modelcontextprotocol.io/specification/2025-11-25/basic"
        );
        assert_eq!(
            url("2025-11-25", "index"),
            "https://modelcontextprotocol.io/specification/2025-11-25"
        );
    }

    #[test]
    fn citations_are_found_and_prose_dates_are_not() {
        let text = "(2025-11-25 basic/lifecycle › Initialization); 2026-07-28 removed it \
                    (2026-07-28 schema › CancelledNotification) and 2026-07-28 schema requires";
        let found: Vec<(String, String)> = citations(text).into_iter().map(|c| (c.revision, c.page)).collect();
        assert_eq!(
            found,
            [
                ("2025-11-25".to_string(), "basic/lifecycle".to_string()),
                ("2026-07-28".to_string(), "schema".to_string())
            ]
        );
    }

    #[test]
    fn rule_keys_are_citations_with_headings_and_course_rules() {
        let text = "Never answer (2025-11-25 basic/index › Notifications). Results \
                    (2025-11-25 server/tools › Structured Content, › Output Schema); the page \
                    2025-11-25 basic/lifecycle names no heading, (2025-11-25 basic/transports ›\n  stdio) wraps, \
                    a sentence ends at 2026-07-28 basic/index › Requests. And log it (course rule: orphans-dropped).";
        assert_eq!(
            rule_keys(text),
            [
                "2025-11-25 basic/index › Notifications",
                "2025-11-25 server/tools › Structured Content",
                "2025-11-25 server/tools › Output Schema",
                "2025-11-25 basic/transports › stdio",
                "2026-07-28 basic/index › Requests",
                "course rule: orphans-dropped",
            ]
        );
    }

    #[test]
    fn a_citation_split_by_wrapping_links_both_halves() {
        let lines = [
            "the client sends (2025-11-25".to_string(),
            "basic/lifecycle › Initialization).".to_string(),
        ];
        let links = links(&lines);
        let url = "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle";
        assert_eq!(
            links,
            [
                Link {
                    line: 0,
                    cols: 18..28,
                    url: url.into()
                },
                Link {
                    line: 1,
                    cols: 0..15,
                    url: url.into()
                },
            ]
        );
    }
}
