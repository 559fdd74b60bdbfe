//! Every doctor check's stable id, and the group its passes are counted
//! under in the text report. An id names one check whatever the
//! transport or era (`ids-echoed` over stdio, over modern and over legacy
//! HTTP); it never changes once shipped, so a script or a baseline can
//! keep it (a test holds the list, docs/doctor.md documents it).

/// (id, group), in report order.
pub const ALL: &[(&str, &str)] = &[
    ("era-detection", "lifecycle"),
    ("initialize", "lifecycle"),
    ("version-negotiation", "lifecycle"),
    ("requests-before-initialize", "lifecycle"),
    ("ping", "lifecycle"),
    ("server-discover", "lifecycle"),
    ("meta-required", "lifecycle"),
    ("unsupported-version", "lifecycle"),
    ("stdout-messages", "messages"),
    ("ids-echoed", "messages"),
    ("ids-forbidden", "messages"),
    ("notifications-unanswered", "messages"),
    ("unknown-method", "messages"),
    ("unparsable-line", "messages"),
    ("invalid-request", "messages"),
    ("shutdown-on-eof", "messages"),
    ("http-notification-202", "http"),
    ("http-origin-403", "http"),
    ("http-body-not-json", "http"),
    ("http-session-required", "http"),
    ("http-session-ended-404", "http"),
    ("http-version-header-400", "http"),
    ("http-method-header-400", "http"),
    ("http-name-header-400", "http"),
    ("tools-listed", "features"),
    ("tool-schemas", "features"),
    ("resources", "features"),
    ("resource-templates", "features"),
    ("prompts", "features"),
    ("tools-called", "features"),
    ("caching-hints", "features"),
    ("subscriptions-listen", "features"),
];

/// The group of check `id` (`lifecycle`, `messages`, `http`, `features`).
pub fn group(id: &str) -> &'static str {
    ALL.iter().find(|(i, _)| *i == id).map_or("other", |(_, g)| g)
}

/// What a warning every SDK tried shares says (no answer to a line that
/// is not JSON, or to an object with no method): mcplings tried these SDKs
/// and versions, and each dropped such a line in silence (issue 34).
pub const SHARED: &str = "every SDK tried drops such a line without an answer: the TypeScript SDK 1.32.2, the Python SDK 2.3.0, FastMCP 4.2.3, rmcp 3.11.0 and rust-mcp-sdk (rust-mcp-filesystem 0.4.5)";

#[cfg(test)]
mod tests {
    use super::ALL;

    #[test]
    fn ids_are_unique_and_unchanged() {
        let ids: Vec<&str> = ALL.iter().map(|(id, _)| *id).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len(), "an id appears twice: {ids:?}");
        // The shipped list: an id is never renamed or reused (add new ones
        // at the end of their group, and here).
        assert_eq!(
            ids.join(" "),
            "era-detection initialize version-negotiation requests-before-initialize ping \
             server-discover meta-required unsupported-version stdout-messages ids-echoed \
             ids-forbidden notifications-unanswered unknown-method unparsable-line \
             invalid-request shutdown-on-eof http-notification-202 http-origin-403 \
             http-body-not-json http-session-required http-session-ended-404 \
             http-version-header-400 http-method-header-400 http-name-header-400 tools-listed \
             tool-schemas resources resource-templates prompts tools-called caching-hints \
             subscriptions-listen"
        );
        for (id, group) in ALL {
            assert!(
                id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{id}"
            );
            assert!(["lifecycle", "messages", "http", "features"].contains(group), "{id}");
        }
    }
}
