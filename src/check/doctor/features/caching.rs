//! The caching hints of a modern server (2026-07-28
//! server/utilities/caching): `server/discover`, every page of each list
//! the server declares (at most [`PAGE_CAP`]) and the first resource read
//! carry `ttlMs`, an integer `>= 0`, and `cacheScope`, `"public"` or
//! `"private"`, the same on every page of a list. Results that are not
//! complete (`input_required`) carry none; a result that is an error is
//! another check's finding.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::super::{Check, Checked, Ctx, Era, Finding, Outcome, rules};
use super::{Caller, Feature, PAGE_CAP, over_stdio};
use crate::check::toolkit::Failure;

/// The check, for any transport (modern only).
pub(in super::super) const CACHING: Feature = Feature {
    id: "caching-hints",
    name: "caching hints",
    about: "server/discover, every page of each declared list and the first resource read carry ttlMs (an integer >= 0) and cacheScope (public or private), one cacheScope per list",
    rule: &rules::CACHE_HINTS,
    capability: None,
    body: caching,
};

/// The check over stdio: modern only.
pub(in super::super) static CHECK: Check = Check {
    id: CACHING.id,
    name: CACHING.name,
    about: CACHING.about,
    rule: CACHING.rule,
    eras: &[Era::Modern],
    schema: true,
    run: |s, ctx| over_stdio(s, ctx, &CACHING),
};

/// The `cacheScope` of `result`, `what` answered, if its hints are right
/// (`None` for a result that carries none: an error, or not complete).
fn hints(response: &Value, what: &str) -> Result<Option<String>, Finding> {
    let Some(result) = response.get("result") else {
        return Ok(None);
    };
    if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
        return Ok(None);
    }
    let (ttl, scope) = (result.get("ttlMs"), result.get("cacheScope"));
    if ttl.is_none() || scope.is_none() {
        let missing: Vec<&str> = [("ttlMs", ttl), ("cacheScope", scope)]
            .iter()
            .filter(|(_, v)| v.is_none())
            .map(|(n, _)| *n)
            .collect();
        return Err(Finding::under(
            &rules::CACHE_HINTS,
            Failure::partial(
                format!("the {what} result has no {}", missing.join(" and no ")),
                json!({"ttlMs": "…", "cacheScope": "…"}),
                result.clone(),
            ),
        ));
    }
    let whole = |v: &Value| v.as_u64().is_some() || v.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0);
    if let Some(ttl) = ttl.filter(|v| !whole(v)) {
        return Err(Finding::under(
            &rules::TTL_VALUE,
            Failure::partial(
                format!("the {what} result has ttlMs {ttl}: an integer of milliseconds, >= 0, is due"),
                json!({"ttlMs": 0}),
                result.clone(),
            ),
        ));
    }
    match scope.and_then(Value::as_str) {
        Some(s @ ("public" | "private")) => Ok(Some(s.to_string())),
        _ => Err(Finding::under(
            &rules::CACHE_HINTS,
            Failure::partial(
                format!(
                    "the {what} result has cacheScope {}: \"public\" or \"private\" is due",
                    scope.cloned().unwrap_or_default()
                ),
                json!({"cacheScope": "public"}),
                result.clone(),
            ),
        )),
    }
}

/// The lists a server may declare: (capability, method, key).
const LISTS: &[(&str, &str, &str)] = &[
    ("tools", "tools/list", "tools"),
    ("resources", "resources/list", "resources"),
    ("resources", "resources/templates/list", "resourceTemplates"),
    ("prompts", "prompts/list", "prompts"),
];

fn caching(c: &mut dyn Caller, ctx: &Ctx) -> Checked {
    let mut judged = vec![];
    if hints(&c.call("server/discover", json!({}))?, "server/discover")?.is_some() {
        judged.push("server/discover".to_string());
    }
    let mut first_uri = None;
    for &(capability, method, key) in LISTS.iter().filter(|(cap, _, _)| ctx.declares(cap)) {
        let mut cursor: Option<Value> = None;
        let mut seen = HashSet::new();
        let mut scopes: Vec<String> = Vec::new();
        for page in 1..=PAGE_CAP {
            let params = cursor.as_ref().map_or_else(|| json!({}), |c| json!({"cursor": c}));
            let response = c.call(method, params)?;
            let Some(scope) = hints(&response, &format!("{method} (page {page})"))? else {
                break;
            };
            if let Some(first) = scopes.first().filter(|first| **first != scope) {
                return Err(Finding::under(
                    &rules::CACHE_SCOPE_PAGES,
                    Failure::showing(
                        format!("{method} has cacheScope {first:?} on page 1 and {scope:?} on page {page}"),
                        response["result"].clone(),
                    ),
                ));
            }
            scopes.push(scope);
            if capability == "resources" && key == "resources" && first_uri.is_none() {
                first_uri = response.pointer("/result/resources/0/uri").cloned();
            }
            // A cursor handed out twice is the list checks' finding.
            match response.pointer("/result/nextCursor") {
                Some(next @ Value::String(text)) if seen.insert(text.clone()) => cursor = Some(next.clone()),
                _ => break,
            }
        }
        if !scopes.is_empty() {
            judged.push(format!(
                "{method} ({} page{})",
                scopes.len(),
                if scopes.len() == 1 { "" } else { "s" }
            ));
        }
    }
    if let Some(uri) = first_uri
        && hints(&c.call("resources/read", json!({"uri": uri}))?, "resources/read")?.is_some()
    {
        judged.push("resources/read".to_string());
    }
    Ok(Outcome::Note(format!("hints right on {}", judged.join(", "))))
}
