//! The rule table of `mcplings doctor --rules`: every rule doctor checks,
//! each with the checks that cite it ([`CHECKED`]), then the notable
//! server-side rules it cannot observe ([`super::unobservable`]). A test
//! holds every rule of [`super::rules::ALL`] to exactly one row, every
//! check id to a row, and each check's own rule to its row.

use serde::Serialize;

use super::rules::{self, Rule};

/// One rule doctor checks and the checks that cite it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Row {
    /// The rule.
    pub rule: &'static Rule,
    /// The ids of the checks that cite it ([`super::ids::ALL`]).
    pub checks: &'static [&'static str],
    /// Whether any check may cite it too (a crash or a hang; a frame that
    /// breaks the official types).
    pub any_check: bool,
}

const fn row(rule: &'static Rule, checks: &'static [&'static str]) -> Row {
    Row {
        rule,
        checks,
        any_check: false,
    }
}

/// The lists walked page by page: a cursor handed out twice (the same
/// cursor forever) stops the walk and warns under [`rules::PAGES`].
const LISTS: &[&str] = &["tools-listed", "resources", "prompts"];
/// The header checks of modern HTTP.
const HEADERS: &[&str] = &["http-method-header-400", "http-name-header-400"];

/// Every rule doctor checks, in the order of [`super::ids::ALL`] by the
/// first check that cites it.
pub const CHECKED: &[Row] = &[
    row(&rules::DISCOVER, &["era-detection", "server-discover"]),
    row(&rules::INITIALIZE, &["initialize"]),
    row(&rules::SESSION_ID, &["initialize"]),
    row(
        &rules::NOTIFICATION_202_LEGACY,
        &["initialize", "http-notification-202"],
    ),
    row(&rules::NEGOTIATION, &["version-negotiation"]),
    row(&rules::GATE, &["requests-before-initialize"]),
    row(&rules::PING, &["ping"]),
    row(&rules::REQUEST_CONTENT_TYPE_LEGACY, &["ping"]),
    row(&rules::RESULT_TYPE, &["server-discover"]),
    row(&rules::REQUEST_CONTENT_TYPE, &["server-discover"]),
    row(&rules::META_REQUIRED, &["meta-required"]),
    row(&rules::META_REQUIRED_HTTP, &["meta-required"]),
    row(&rules::UNSUPPORTED_VERSION, &["unsupported-version"]),
    row(&rules::UNSUPPORTED_VERSION_HTTP, &["unsupported-version"]),
    Row {
        any_check: true,
        ..row(&rules::STDOUT_MESSAGES, &["stdout-messages"])
    },
    Row {
        any_check: true,
        ..row(&rules::STDOUT_MESSAGES_MODERN, &["stdout-messages"])
    },
    row(&rules::IDS_ECHOED, &["ids-echoed"]),
    row(&rules::IDS_ECHOED_MODERN, &["ids-echoed"]),
    row(&rules::BIG_IDS, &["ids-echoed"]),
    row(&rules::IDS_FORBIDDEN, &["ids-forbidden"]),
    row(&rules::NOTIFICATIONS, &["notifications-unanswered"]),
    row(&rules::NOTIFICATIONS_MODERN, &["notifications-unanswered"]),
    row(&rules::REPLY, &["unknown-method"]),
    row(&rules::METHOD_NOT_FOUND, &["unknown-method"]),
    row(&rules::METHOD_NOT_FOUND_HTTP, &["unknown-method"]),
    row(&rules::PARSE_ERROR, &["unparsable-line"]),
    row(&rules::INVALID_REQUEST, &["invalid-request"]),
    row(&rules::SHUTDOWN, &["shutdown-on-eof"]),
    row(&rules::SHUTDOWN_LEGACY, &["shutdown-on-eof"]),
    row(&rules::NOTIFICATION_202, &["http-notification-202"]),
    row(&rules::ORIGIN, &["http-origin-403"]),
    row(&rules::ORIGIN_LEGACY, &["http-origin-403"]),
    row(&rules::NOT_JSON_HTTP, &["http-body-not-json"]),
    row(&rules::SESSION_REQUIRED, &["http-session-required"]),
    row(&rules::SESSION_ENDED, &["http-session-ended-404"]),
    row(&rules::VERSION_HEADER, &["http-version-header-400"]),
    row(&rules::HEADER_MISSING, HEADERS),
    row(&rules::HEADER_MISMATCH, HEADERS),
    row(&rules::TOOLS_LISTED, &["tools-listed"]),
    row(&rules::LISTED_LEGACY, LISTS),
    row(&rules::PAGES, LISTS),
    row(&rules::PAGES_MODERN, LISTS),
    row(&rules::INPUT_SCHEMA, &["tool-schemas"]),
    row(&rules::INPUT_SCHEMA_MODERN, &["tool-schemas"]),
    row(&rules::SCHEMA_VALID, &["tool-schemas"]),
    row(&rules::SCHEMA_VALID_MODERN, &["tool-schemas"]),
    row(&rules::SCHEMA_USABLE, &["tool-schemas"]),
    row(&rules::RESOURCES_LISTED, &["resources"]),
    row(&rules::FEATURES, &["resources", "resource-templates", "prompts"]),
    row(&rules::FEATURES_MODERN, &["resources", "resource-templates", "prompts"]),
    row(&rules::PROMPTS_LISTED, &["prompts"]),
    row(&rules::STRUCTURED, &["tools-called"]),
    row(&rules::STRUCTURED_MODERN, &["tools-called"]),
    row(&rules::CACHE_HINTS, &["caching-hints"]),
    row(&rules::TTL_VALUE, &["caching-hints"]),
    row(&rules::CACHE_SCOPE_PAGES, &["caching-hints"]),
    row(&rules::LISTEN_ACK, &["subscriptions-listen"]),
    row(&rules::LISTEN_CANCELLED, &["subscriptions-listen"]),
    Row {
        any_check: true,
        ..row(&rules::ROBUST, &[])
    },
];

/// The rows that check `id` cites.
pub fn rows_of(id: &str) -> impl Iterator<Item = &'static Row> + '_ {
    CHECKED.iter().filter(move |r| r.checks.contains(&id))
}

/// The table as JSON: `rules` (level, revision, section, sentence,
/// checks, any_check) and `unobservable` (revision, section, sentence,
/// why).
pub fn to_json() -> serde_json::Value {
    let rules: Vec<serde_json::Value> = CHECKED
        .iter()
        .map(|r| {
            serde_json::json!({
                "level": r.rule.level,
                "revision": r.rule.revision,
                "section": r.rule.section,
                "sentence": r.rule.sentence,
                "checks": r.checks,
                "any_check": r.any_check,
            })
        })
        .collect();
    serde_json::json!({
        "rules": rules,
        "unobservable": super::unobservable::UNOBSERVABLE,
    })
}
