//! The tools-called check: only when asked (`--call NAME=JSON`,
//! `--call-readonly`), each call gets a result, and a tool with an
//! `outputSchema` returns `structuredContent` that fits it; a `--call`
//! naming a tool the server does not list is said so, with the listed
//! tool most likely meant.

use serde_json::{Value, json};

use super::{Caller, declared, walk};
use crate::check::doctor::{Checked, Ctx, Outcome};
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::content_list;

/// Tools are called only when asked: otherwise the check does not apply.
pub(super) fn not_asked(ctx: &Ctx) -> Option<Outcome> {
    (ctx.calls.is_empty() && !ctx.call_readonly)
        .then(|| Outcome::Skip("no tool is called unless asked: --call NAME=JSON, or --call-readonly".into()))
}

/// The tools-called note's word on a tool `--call` named that the server
/// does not list, with the listed tool it most likely meant.
fn not_listed(name: &str, guess: Option<&str>) -> String {
    let guess = guess.map_or(String::new(), |t| format!(" (did you mean `{t}`?)"));
    format!("`{name}`: not listed, not called{guess}")
}

/// `name` as a usage error names it when the tools-called `note` says the
/// server does not list it (`ad (did you mean `add`?)`); `None` when it
/// does list it. The run reads it there: a usage error, exit 2.
pub(crate) fn unlisted(note: &str, name: &str) -> Option<String> {
    let rest = note.split(&format!("`{name}`: not listed, not called")).nth(1)?;
    let guess = rest.strip_prefix(" (did you mean ").and_then(|g| g.split("?)").next());
    Some(guess.map_or(name.to_string(), |g| format!("{name} (did you mean {g}?)")))
}

/// The listed tool `name` was most likely meant to be, if one is close
/// (at most two edits, or the same but for case).
fn closest<'a>(name: &str, listed: &[&'a str]) -> Option<&'a str> {
    listed
        .iter()
        .map(|t| (strsim::levenshtein(&name.to_lowercase(), &t.to_lowercase()), *t))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, t)| t)
}

pub(super) fn tools_called(c: &mut dyn Caller, ctx: &Ctx) -> Checked {
    if let Some(skip) = not_asked(ctx) {
        return Ok(skip);
    }
    if let Some(skip) = declared(ctx, "tools") {
        return Ok(skip);
    }
    let (tools, _) = walked!(c, "tools/list", "tools");
    let mut calls = ctx.calls.clone();
    if ctx.call_readonly {
        for tool in &tools {
            let read_only = tool.pointer("/annotations/readOnlyHint") == Some(&json!(true));
            let needs = tool
                .pointer("/inputSchema/required")
                .and_then(Value::as_array)
                .is_some_and(|r| !r.is_empty());
            let name = tool["name"].as_str().unwrap_or("").to_string();
            if read_only && !needs && !calls.iter().any(|(n, _)| *n == name) {
                calls.push((name, json!({})));
            }
        }
    }
    let mut done = Vec::new();
    for (name, arguments) in &calls {
        let Some(tool) = tools.iter().find(|t| t["name"] == json!(name)) else {
            let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
            done.push(not_listed(name, closest(name, &names)));
            continue;
        };
        let response = c.call("tools/call", json!({"name": name, "arguments": arguments}))?;
        let Some(result) = response.get("result") else {
            done.push(format!(
                "{name}: error {}",
                response.pointer("/error/code").unwrap_or(&Value::Null)
            ));
            continue;
        };
        content_list(result)?;
        let is_error = result.get("isError") == Some(&json!(true));
        if let (Some(schema), false) = (tool.get("outputSchema"), is_error) {
            let structured = result.get("structuredContent").unwrap_or(&Value::Null);
            if let Err(why) = super::json_schema::fits(schema, structured) {
                return Err(Failure::showing(
                    format!("tool `{name}` declares an outputSchema, and its structuredContent does not fit it: {why}"),
                    result.clone(),
                )
                .into());
            }
        }
        done.push(format!("{name}: {}", if is_error { "isError" } else { "ok" }));
    }
    if calls.is_empty() {
        return Ok(Outcome::Unverified(
            "--call-readonly found no tool annotated readOnlyHint: true that needs no arguments: none called".into(),
        ));
    }
    if !done.iter().any(|d| d.ends_with(": ok")) {
        return Ok(Outcome::Unverified(format!(
            "no call got a result to hold to its outputSchema: {}",
            done.join(", ")
        )));
    }
    Ok(Outcome::Note(format!("called {}", done.join(", "))))
}
