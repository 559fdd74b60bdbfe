//! Doctor's feature checks, for what the server declares: every page of
//! `tools/list`, `resources/list` and `prompts/list` (cursors passed back
//! as they came, the walk ending only when `nextCursor` is absent, at most
//! [`PAGE_CAP`] pages); each tool's `inputSchema` and `outputSchema` a
//! valid JSON Schema (the `boon` crate, against the schema's own
//! or the default 2020-12 dialect); up to [`READ_CAP`] resources read;
//! templates listed, never expanded; prompts that need no arguments got.
//! Tools are called only when asked (`--call`, `--call-readonly`).

use std::collections::HashSet;

use serde_json::{Value, json};

use super::lifecycle::open;
use super::{BOTH, Check, Checked, Ctx, Finding, Outcome, rules};
use crate::check::session::Session;
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::Client;
pub(crate) use calls::unlisted;
use calls::{not_asked, tools_called};

/// Most pages walked of one list.
pub const PAGE_CAP: usize = 20;
/// Most resources read.
pub const READ_CAP: usize = 5;
/// Most prompts got.
pub const GET_CAP: usize = 5;

/// A way to call the server in the check's era: one request, its whole
/// response frame (a result or an error). Over stdio, the toolkit's
/// [`Client`]; over HTTP, doctor's `http.rs`.
pub(super) trait Caller {
    /// Sends `method` with `params` (the era's `_meta` added) and returns
    /// the response.
    fn call(&mut self, method: &str, params: Value) -> Result<Value, Failure>;
}

/// The stdio [`Caller`]: a session and the toolkit's client.
struct Stdio<'a> {
    s: &'a mut Session,
    c: Client,
}

impl Caller for Stdio<'_> {
    fn call(&mut self, method: &str, params: Value) -> Result<Value, Failure> {
        self.c.call(self.s, method, params)
    }
}

/// A feature check, whatever the transport.
#[derive(Clone, Copy)]
pub(super) struct Feature {
    pub id: &'static str,
    pub name: &'static str,
    pub about: &'static str,
    pub rule: &'static rules::Rule,
    /// Skipped unless the server declares this capability.
    pub capability: Option<&'static str>,
    pub body: fn(&mut dyn Caller, &Ctx) -> Checked,
}

const TOOLS_LISTED: Feature = Feature {
    id: "tools-listed",
    name: "tools listed",
    about: "a server that declares tools answers tools/list, every page of it, each cursor passed back as it came until nextCursor is absent",
    rule: &rules::TOOLS_LISTED,
    capability: Some("tools"),
    body: tools_listed,
};
const TOOL_SCHEMAS: Feature = Feature {
    id: "tool-schemas",
    name: "tool schemas",
    about: "each tool's inputSchema and outputSchema is a valid JSON Schema of its dialect (2020-12 when it names none)",
    rule: &rules::INPUT_SCHEMA,
    capability: Some("tools"),
    body: tool_schemas,
};
const RESOURCES: Feature = Feature {
    id: "resources",
    name: "resources",
    about: "a server that declares resources answers resources/list over every page; the first resources listed can be read",
    rule: &rules::RESOURCES_LISTED,
    capability: Some("resources"),
    body: resources,
};
const TEMPLATES: Feature = Feature {
    id: "resource-templates",
    name: "resource templates",
    about: "resources/templates/list is answered (templates are listed, never expanded)",
    rule: &rules::FEATURES,
    capability: Some("resources"),
    body: templates,
};
const PROMPTS: Feature = Feature {
    id: "prompts",
    name: "prompts",
    about: "a server that declares prompts answers prompts/list over every page; prompts that need no arguments can be got",
    rule: &rules::PROMPTS_LISTED,
    capability: Some("prompts"),
    body: prompts,
};
const TOOLS_CALLED: Feature = Feature {
    id: "tools-called",
    name: "tools called",
    about: "only when asked (--call, --call-readonly): each call gets a result, and a tool with an outputSchema returns structuredContent that fits it",
    rule: &rules::STRUCTURED,
    capability: None,
    body: tools_called,
};

/// The feature checks, in report order, for any transport.
pub(super) const FEATURES: [Feature; 6] = [TOOLS_LISTED, TOOL_SCHEMAS, RESOURCES, TEMPLATES, PROMPTS, TOOLS_CALLED];

/// Runs `feature` over stdio: skipped unless its capability is declared,
/// else in the check's era.
fn over_stdio(s: &mut Session, ctx: &Ctx, feature: &Feature) -> Checked {
    if let Some(skip) = skipped(feature, ctx) {
        return Ok(skip);
    }
    let c = open(s, ctx).map_err(super::setup)?;
    let mut caller = Stdio { s, c };
    let result = (feature.body)(&mut caller, ctx);
    ctx.keep(caller.c);
    result
}

/// Whether `check` is left out before any process is started for it: a
/// feature the server does not declare, tools not asked to be called.
pub(super) fn left_out(check: &Check, ctx: &Ctx) -> Option<Outcome> {
    if check.id == listen::CHECK.id && listen::filter(&ctx.capabilities).is_none() {
        return Some(Outcome::Skip(
            "the server advertises no change notification (listChanged, subscribe)".into(),
        ));
    }
    skipped(FEATURES.iter().find(|f| f.id == check.id)?, ctx)
}

/// Why `feature` does not apply, when it does not.
fn skipped(feature: &Feature, ctx: &Ctx) -> Option<Outcome> {
    if let Some(skip) = feature.capability.and_then(|c| declared(ctx, c)) {
        return Some(skip);
    }
    not_asked(ctx).filter(|_| feature.id == TOOLS_CALLED.id)
}

/// A stdio check of `feature`.
const fn stdio_check(feature: Feature, run: fn(&mut Session, &Ctx) -> Checked) -> Check {
    Check {
        id: feature.id,
        name: feature.name,
        about: feature.about,
        rule: feature.rule,
        eras: BOTH,
        schema: true,
        run,
    }
}

/// The feature checks over stdio, in report order.
pub(super) static CHECKS: &[Check] = &[
    stdio_check(TOOLS_LISTED, |s, ctx| over_stdio(s, ctx, &TOOLS_LISTED)),
    stdio_check(TOOL_SCHEMAS, |s, ctx| over_stdio(s, ctx, &TOOL_SCHEMAS)),
    stdio_check(RESOURCES, |s, ctx| over_stdio(s, ctx, &RESOURCES)),
    stdio_check(TEMPLATES, |s, ctx| over_stdio(s, ctx, &TEMPLATES)),
    stdio_check(PROMPTS, |s, ctx| over_stdio(s, ctx, &PROMPTS)),
    stdio_check(TOOLS_CALLED, |s, ctx| over_stdio(s, ctx, &TOOLS_CALLED)),
];

/// The rule a server that declares the feature listed by `method` keeps.
fn listed_rule(method: &str) -> &'static rules::Rule {
    match method {
        "resources/list" => &rules::RESOURCES_LISTED,
        "prompts/list" => &rules::PROMPTS_LISTED,
        _ => &rules::TOOLS_LISTED,
    }
}

/// Every item of `method`'s list (under `key`) and the pages walked. An
/// error is a fail under the feature's list rule; a repeated cursor is a
/// warn; the page cap (ours) leaves the list not verified (`Ok(Err(why))`).
fn walk(c: &mut dyn Caller, method: &str, key: &str) -> Result<Result<(Vec<Value>, usize), String>, Finding> {
    match walk_pages(c, method, key) {
        Err(f) => Err(Finding {
            rule: f.rule.or(Some(listed_rule(method))),
            ..f
        }),
        Ok(Some(walked)) => Ok(Ok(walked)),
        Ok(None) => Ok(Err(format!(
            "{method} still had a nextCursor after {PAGE_CAP} pages: doctor stopped there, so the list was not walked to its end"
        ))),
    }
}

/// [`walk`], a list cut at the page cap ending the check not verified.
macro_rules! walked {
    ($c:expr, $method:expr, $key:expr) => {
        match walk($c, $method, $key)? {
            Ok(walked) => walked,
            Err(why) => return Ok(Outcome::Unverified(why)),
        }
    };
}

/// The walk; `None` at the page cap.
fn walk_pages(c: &mut dyn Caller, method: &str, key: &str) -> Result<Option<(Vec<Value>, usize)>, Finding> {
    let mut items = Vec::new();
    let mut cursor: Option<Value> = None;
    let mut seen = HashSet::new();
    for page in 1..=PAGE_CAP {
        let params = cursor.as_ref().map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let response = c.call(method, params)?;
        let Some(result) = response.get("result") else {
            return Err(Failure::showing(
                format!("{method} (page {page}) got an error, though the server declares the feature"),
                response,
            )
            .into());
        };
        let Some(list) = result.get(key).and_then(Value::as_array) else {
            return Err(Failure::showing(format!("the {method} result has no `{key}` list"), result.clone()).into());
        };
        items.extend(list.iter().cloned());
        match result.get("nextCursor") {
            Some(next @ Value::String(text)) => {
                if !seen.insert(text.clone()) {
                    return Err(Finding::under(
                        &rules::PAGES,
                        Failure::showing(
                            format!("{method} handed out the cursor {next} twice: the walk would never end"),
                            result.clone(),
                        ),
                    ));
                }
                cursor = Some(next.clone());
            }
            _ => return Ok(Some((items, page))),
        }
    }
    Ok(None)
}

/// `n` and `noun`, plural but for one: "1 tool", "3 tools".
fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// Skips unless the server declares `capability`.
pub(super) fn declared(ctx: &Ctx, capability: &str) -> Option<Outcome> {
    (!ctx.declares(capability)).then(|| Outcome::Skip(format!("the server does not declare `{capability}`")))
}

fn tools_listed(c: &mut dyn Caller, _: &Ctx) -> Checked {
    let (tools, pages) = walked!(c, "tools/list", "tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    let shown = match names.len() {
        0 => String::new(),
        n if n <= 12 => format!(": {}", names.join(", ")),
        n => format!(": {}, … ({} more)", names[..12].join(", "), n - 12),
    };
    Ok(Outcome::Note(format!(
        "{} over {}{shown}",
        counted(tools.len(), "tool"),
        counted(pages, "page")
    )))
}

fn tool_schemas(c: &mut dyn Caller, _: &Ctx) -> Checked {
    // A listing that fails is tools-listed's finding: said once, there.
    let Ok(walked) = walk(c, "tools/list", "tools") else {
        return Ok(Outcome::Unverified(
            "tools/list did not list the tools (tools-listed says why): no schema to check".into(),
        ));
    };
    let (tools, _) = match walked {
        Ok(walked) => walked,
        Err(why) => return Ok(Outcome::Unverified(why)),
    };
    if tools.is_empty() {
        return Ok(Outcome::Unverified(
            "tools/list names no tool: no schema to check".into(),
        ));
    }
    let mut warned = None;
    for tool in &tools {
        let name = tool["name"].as_str().unwrap_or("?");
        for (member, rule) in [
            ("inputSchema", &rules::INPUT_SCHEMA),
            ("outputSchema", &rules::SCHEMA_VALID),
        ] {
            let Some(schema) = tool.get(member) else { continue };
            match json_schema::problem(schema) {
                Ok(None) => {}
                Ok(Some(problem)) => {
                    return Err(Finding::under(
                        rule,
                        Failure::showing(
                            format!("the {member} of tool `{name}` is not a valid JSON Schema: {problem}"),
                            tool.clone(),
                        ),
                    ));
                }
                Err(warn) => {
                    warned.get_or_insert_with(|| {
                        Failure::showing(format!("the {member} of tool `{name}`: {warn}"), tool.clone())
                    });
                }
            }
        }
    }
    match warned {
        Some(failure) => Err(Finding::under(&rules::SCHEMA_USABLE, failure)),
        None => Ok(Outcome::Note(format!("{} tools, every schema valid", tools.len()))),
    }
}

fn resources(c: &mut dyn Caller, _: &Ctx) -> Checked {
    let (listed, pages) = walked!(c, "resources/list", "resources");
    if listed.is_empty() {
        return Ok(Outcome::Unverified(
            "resources/list answered and names no resource: nothing to read".into(),
        ));
    }
    let mut read = 0;
    for resource in listed.iter().take(READ_CAP) {
        let uri = resource["uri"].clone();
        let response = c.call("resources/read", json!({"uri": uri}))?;
        let contents = response.pointer("/result/contents").and_then(Value::as_array);
        if contents.is_none_or(Vec::is_empty) {
            return Err(Finding::under(
                &rules::FEATURES,
                Failure::showing(
                    format!("resources/read of {uri}, a resource resources/list names, got no contents"),
                    response,
                ),
            ));
        }
        read += 1;
    }
    Ok(Outcome::Note(format!(
        "{} over {}, {read} read",
        counted(listed.len(), "resource"),
        counted(pages, "page")
    )))
}

fn templates(c: &mut dyn Caller, _: &Ctx) -> Checked {
    let response = c.call("resources/templates/list", json!({}))?;
    if response.pointer("/error/code") == Some(&json!(-32601)) {
        return Ok(Outcome::Note("no templates (-32601)".into()));
    }
    match response.pointer("/result/resourceTemplates").and_then(Value::as_array) {
        Some(list) => Ok(Outcome::Note(format!(
            "{} on the first page",
            counted(list.len(), "template")
        ))),
        None => Err(Failure::showing("resources/templates/list got neither a list nor -32601", response).into()),
    }
}

fn prompts(c: &mut dyn Caller, _: &Ctx) -> Checked {
    let (listed, pages) = walked!(c, "prompts/list", "prompts");
    let mut got = 0;
    let free = listed.iter().filter(|p| {
        p["arguments"]
            .as_array()
            .is_none_or(|args| !args.iter().any(|a| a["required"] == json!(true)))
    });
    for prompt in free.take(GET_CAP) {
        let response = c.call("prompts/get", json!({"name": prompt["name"]}))?;
        if response.pointer("/result/messages").is_none_or(|m| !m.is_array()) {
            return Err(Finding::under(
                &rules::FEATURES,
                Failure::showing(
                    format!(
                        "prompts/get of {}, a prompt that needs no arguments, got no messages",
                        prompt["name"]
                    ),
                    response,
                ),
            ));
        }
        got += 1;
    }
    if listed.is_empty() {
        return Ok(Outcome::Unverified(
            "prompts/list answered and names no prompt: nothing to get".into(),
        ));
    }
    if got == 0 {
        return Ok(Outcome::Unverified(format!(
            "prompts/list names {} prompt(s), each needing arguments (doctor invents none): none got",
            listed.len()
        )));
    }
    Ok(Outcome::Note(format!(
        "{} over {}, {got} got (those needing no arguments)",
        counted(listed.len(), "prompt"),
        counted(pages, "page")
    )))
}

// After `walked!`: a macro is in scope only below its definition.
mod caching;
mod calls;
mod json_schema;
mod listen;

pub(super) use caching::CACHING;

/// The modern-only feature checks over stdio, after [`CHECKS`]: caching
/// hints, and `subscriptions/listen` where advertised.
pub(super) static MODERN_ONLY: [&Check; 2] = [&caching::CHECK, &listen::CHECK];
