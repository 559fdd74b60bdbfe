//! The schema check against the official MCP schemas themselves.
//!
//! `check::schema` validates frames with types generated from the official
//! `schema.json` of each revision. These tests hold those types to the
//! schemas: every example the 2026-07-28 schema ships must pass, and the
//! examples with a required member removed or a member of the wrong JSON
//! type must get the same verdict from our check as from a JSON Schema
//! validator running the official document, in both revisions.
//!
//! The schemas are not part of this repository. They are looked for in
//! `$MCP_SCHEMA_DIR`, `../shared/mcp-schema` and `/work/shared/mcp-schema`
//! (each holding `<revision>/schema.json`); without them these tests say so
//! and pass, so `cargo test` works on a fresh clone.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use mcplings::check::schema::{self, Revision};
use serde_json::{Value, json};

fn schema_dir() -> Option<PathBuf> {
    let candidates = [std::env::var_os("MCP_SCHEMA_DIR").map(PathBuf::from), Some(common::root().join("../shared/mcp-schema")), Some(PathBuf::from("/work/shared/mcp-schema"))];
    candidates.into_iter().flatten().find(|d| d.join("2026-07-28/schema.json").is_file())
}

/// The official document of a revision, and validators for its definitions.
struct Official {
    document: Value,
    validators: std::cell::RefCell<BTreeMap<String, std::rc::Rc<jsonschema::Validator>>>,
}

impl Official {
    fn load(dir: &Path, revision: Revision) -> Official {
        let text = fs::read_to_string(dir.join(revision.date()).join("schema.json")).expect("the schema reads");
        Official { document: serde_json::from_str(&text).expect("the schema is JSON"), validators: Default::default() }
    }

    fn defines(&self, definition: &str) -> bool {
        self.document["$defs"].get(definition).is_some()
    }

    /// The official verdict on `value` as `definition`.
    fn accepts(&self, definition: &str, value: &Value) -> bool {
        let validator = self.validators.borrow_mut().entry(definition.to_string()).or_insert_with(|| {
            let mut root = self.document.clone();
            root["$ref"] = json!(format!("#/$defs/{definition}"));
            std::rc::Rc::new(jsonschema::validator_for(&root).expect("the schema compiles"))
        }).clone();
        validator.is_valid(value)
    }

    /// The required members of `definition`, when it is a plain object type.
    fn required(&self, definition: &str) -> Vec<String> {
        let def = &self.document["$defs"][definition];
        def["required"].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
    }
}

/// Every example shipped with the 2026-07-28 schema: definition → values.
fn examples(dir: &Path) -> BTreeMap<String, Vec<(String, Value)>> {
    let mut found = BTreeMap::<String, Vec<(String, Value)>>::new();
    for folder in fs::read_dir(dir.join("2026-07-28/examples")).expect("the examples folder").flatten() {
        let definition = folder.file_name().to_string_lossy().to_string();
        for file in fs::read_dir(folder.path()).expect("an example folder").flatten() {
            let text = fs::read_to_string(file.path()).expect("the example reads");
            let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.path().display()));
            found.entry(definition.clone()).or_default().push((file.file_name().to_string_lossy().to_string(), value));
        }
    }
    found
}

/// The example with one change each: a required member removed, or a
/// string member made a number.
fn mutants(official: &Official, definition: &str, value: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let Some(object) = value.as_object() else { return out };
    for key in official.required(definition) {
        if object.contains_key(&key) {
            let mut changed = value.clone();
            changed.as_object_mut().unwrap().remove(&key);
            out.push((format!("without `{key}`"), changed));
        }
    }
    for (key, member) in object {
        if member.is_string() {
            let mut changed = value.clone();
            changed[key] = json!(42);
            out.push((format!("`{key}` a number"), changed));
        }
    }
    out
}

#[test]
fn the_official_examples_pass_and_their_mutants_get_the_official_verdict() {
    let Some(dir) = schema_dir() else {
        eprintln!("skipped: no mcp-schema folder (set MCP_SCHEMA_DIR to the folder holding <revision>/schema.json)");
        return;
    };
    let examples = examples(&dir);
    let mut checked = 0;
    let mut disagreements = Vec::new();
    for revision in [Revision::Modern, Revision::Legacy] {
        let official = Official::load(&dir, revision);
        for (definition, values) in &examples {
            // The check reports violations under the definition's name, so
            // a &'static str is needed: leak the few dozen names once.
            let name: &'static str = Box::leak(definition.clone().into_boxed_str());
            if !official.defines(definition) || !schema::covers(revision, definition) {
                continue;
            }
            for (file, value) in values {
                let example_is_valid = official.accepts(definition, value);
                if revision == Revision::Modern {
                    assert!(example_is_valid, "the official example {definition}/{file} fails the official schema");
                }
                if !example_is_valid {
                    continue; // a 2026-07-28 example that is not a 2025-11-25 value
                }
                let mut cases = vec![("as shipped".to_string(), value.clone())];
                cases.extend(mutants(&official, definition, value));
                for (change, candidate) in cases {
                    let theirs = official.accepts(definition, &candidate);
                    let ours = schema::check(revision, name, &candidate, "");
                    checked += 1;
                    if theirs != ours.is_ok() {
                        let said = ours.err().map_or("accepted".to_string(), |v| v.to_string());
                        disagreements.push(format!("{revision} {definition}/{file} {change}: official {}, ours: {said}", if theirs { "accepts" } else { "rejects" }));
                    }
                }
            }
        }
    }
    eprintln!("schema: {checked} example values checked against both verdicts, {} disagreements", disagreements.len());
    assert!(checked > 200, "too few values checked: {checked}");
    assert!(disagreements.is_empty(), "our check and the official schema disagree:\n{}", disagreements.join("\n"));
}

/// The example frames (requests, notifications, responses) pass the way a
/// checker meets them: by method, through the request a response answers.
#[test]
fn the_official_example_frames_pass_as_frames() {
    let Some(dir) = schema_dir() else {
        eprintln!("skipped: no mcp-schema folder");
        return;
    };
    let mut frames = 0;
    for (definition, values) in examples(&dir) {
        for (file, frame) in values {
            let Some(method) = frame.get("method").and_then(Value::as_str).map(str::to_string) else {
                if let Some(result) = definition.strip_suffix("ResultResponse") {
                    // The request this response answers, as a modern client sends it.
                    let method = RESPONSES.iter().find(|(d, _)| *d == result).map(|(_, m)| *m).unwrap_or_else(|| panic!("no method for {definition}"));
                    let request = json!({"jsonrpc": "2.0", "id": frame["id"], "method": method, "params": {"_meta": {schema::META_PROTOCOL_VERSION: "2026-07-28"}}});
                    let outcome = schema::check_response(&request, &frame).unwrap_or_else(|| panic!("{definition}/{file}: {method} not covered"));
                    if let Some((_, expected)) = KNOWN_BAD.iter().find(|(f, _)| *f == format!("{definition}/{file}")) {
                        assert_eq!(outcome.map_err(|v| v.to_string()), Err(expected.to_string()), "{definition}/{file}");
                        continue;
                    }
                    assert_eq!(outcome, Ok(()), "{definition}/{file}");
                    frames += 1;
                }
                continue;
            };
            if frame.get("jsonrpc").is_none() {
                continue; // a params object, not a frame
            }
            let outcome = schema::check_message(Revision::Modern, &method, &frame).unwrap_or_else(|| panic!("{definition}/{file}: {method} not covered"));
            assert_eq!(outcome, Ok(()), "{definition}/{file}");
            frames += 1;
        }
    }
    eprintln!("schema: {frames} example frames pass");
    assert!(frames >= 25, "too few example frames: {frames}");
}

/// Examples our check rejects on purpose, with the violation it reports.
///
/// The 2026-07-28 `ReadResourceResultResponse` example has no `ttlMs` or
/// `cacheScope`, which `ReadResourceResult` requires. The schema still lets
/// it through, as an `InputRequiredResult`: that branch of the response's
/// `anyOf` requires only `resultType`, whatever its value. We read the
/// result by its `resultType`, as 2026-07-28 server/utilities/input-required
/// tells clients to, so `"complete"` means a `ReadResourceResult`.
const KNOWN_BAD: &[(&str, &str)] = &[("ReadResourceResultResponse/read-resource-result-response.json", "result: missing `cacheScope` (ReadResourceResult, 2026-07-28)")];

/// Result definitions and the methods they answer (2026-07-28).
const RESPONSES: &[(&str, &str)] = &[
    ("CallTool", "tools/call"),
    ("Complete", "completion/complete"),
    ("Discover", "server/discover"),
    ("GetPrompt", "prompts/get"),
    ("ListPrompts", "prompts/list"),
    ("ListResourceTemplates", "resources/templates/list"),
    ("ListResources", "resources/list"),
    ("ListTools", "tools/list"),
    ("ReadResource", "resources/read"),
    ("SubscriptionsListen", "subscriptions/listen"),
];
