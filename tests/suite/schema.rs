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

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use mcplings::check::schema::{self, Revision};
use mcplings::content::aside;
use mcplings::content::lesson::{Block, CodeBlock, Lesson};
use serde_json::{Value, json};

fn schema_dir() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("MCP_SCHEMA_DIR").map(PathBuf::from),
        Some(common::root().join("../shared/mcp-schema")),
        Some(PathBuf::from("/work/shared/mcp-schema")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|d| d.join("2026-07-28/schema.json").is_file())
}

/// The official document of a revision, and validators for its definitions
/// (compiled by `boon`, the validator doctor uses, as each is first asked for).
struct Official {
    document: Value,
    compiler: std::cell::RefCell<boon::Compiler>,
    schemas: std::cell::RefCell<boon::Schemas>,
    compiled: std::cell::RefCell<BTreeMap<String, boon::SchemaIndex>>,
}

/// Where the official document is kept while its definitions compile.
const OFFICIAL: &str = "mem:///schema.json";

impl Official {
    /// The official schema of `revision` (its date, e.g. `2025-11-25`).
    fn load(dir: &Path, revision: &str) -> Official {
        let text = fs::read_to_string(dir.join(revision).join("schema.json")).expect("the schema reads");
        let document: Value = serde_json::from_str(&text).expect("the schema is JSON");
        let mut compiler = boon::Compiler::new();
        compiler
            .add_resource(OFFICIAL, document.clone())
            .expect("the schema is added");
        Official {
            document,
            compiler: std::cell::RefCell::new(compiler),
            schemas: Default::default(),
            compiled: Default::default(),
        }
    }

    fn defines(&self, definition: &str) -> bool {
        self.document["$defs"].get(definition).is_some()
    }

    /// The official verdict on `value` as `definition`.
    fn accepts(&self, definition: &str, value: &Value) -> bool {
        let index = *self
            .compiled
            .borrow_mut()
            .entry(definition.to_string())
            .or_insert_with(|| {
                let at = format!("{OFFICIAL}#/$defs/{definition}");
                let compiled = self.compiler.borrow_mut().compile(&at, &mut self.schemas.borrow_mut());
                compiled.unwrap_or_else(|e| panic!("{definition} compiles: {e:#}"))
            });
        self.schemas.borrow().validate(value, index).is_ok()
    }

    /// The required members of `definition`, when it is a plain object type.
    fn required(&self, definition: &str) -> Vec<String> {
        let def = &self.document["$defs"][definition];
        def["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    }
}

/// Every example shipped with the 2026-07-28 schema: definition → values.
fn examples(dir: &Path) -> BTreeMap<String, Vec<(String, Value)>> {
    let mut found = BTreeMap::<String, Vec<(String, Value)>>::new();
    for folder in fs::read_dir(dir.join("2026-07-28/examples"))
        .expect("the examples folder")
        .flatten()
    {
        let definition = folder.file_name().to_string_lossy().to_string();
        for file in fs::read_dir(folder.path()).expect("an example folder").flatten() {
            let text = fs::read_to_string(file.path()).expect("the example reads");
            let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.path().display()));
            found
                .entry(definition.clone())
                .or_default()
                .push((file.file_name().to_string_lossy().to_string(), value));
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
        let official = Official::load(&dir, revision.date());
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
                    assert!(
                        example_is_valid,
                        "the official example {definition}/{file} fails the official schema"
                    );
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
                        disagreements.push(format!(
                            "{revision} {definition}/{file} {change}: official {}, ours: {said}",
                            if theirs { "accepts" } else { "rejects" }
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "schema: {checked} example values checked against both verdicts, {} disagreements",
        disagreements.len()
    );
    assert!(checked > 200, "too few values checked: {checked}");
    assert!(
        disagreements.is_empty(),
        "our check and the official schema disagree:\n{}",
        disagreements.join("\n")
    );
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
                    let method = RESPONSES
                        .iter()
                        .find(|(d, _)| *d == result)
                        .map(|(_, m)| *m)
                        .unwrap_or_else(|| panic!("no method for {definition}"));
                    let request = json!({"jsonrpc": "2.0", "id": frame["id"], "method": method, "params": {"_meta": {schema::META_PROTOCOL_VERSION: "2026-07-28"}}});
                    let outcome = schema::check_response(&request, &frame)
                        .unwrap_or_else(|| panic!("{definition}/{file}: {method} not covered"));
                    if let Some((_, expected)) = KNOWN_BAD.iter().find(|(f, _)| *f == format!("{definition}/{file}")) {
                        assert_eq!(
                            outcome.map_err(|v| v.to_string()),
                            Err(expected.to_string()),
                            "{definition}/{file}"
                        );
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
            let outcome = schema::check_message(Revision::Modern, &method, &frame)
                .unwrap_or_else(|| panic!("{definition}/{file}: {method} not covered"));
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
const KNOWN_BAD: &[(&str, &str)] = &[(
    "ReadResourceResultResponse/read-resource-result-response.json",
    "result: missing `cacheScope` (ReadResourceResult, 2026-07-28)",
)];

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

// ---------------------------------------------------------------------------
// Our own content: every frame a lesson shows is valid in the revision its
// block names, against its method's own definition.
// ---------------------------------------------------------------------------

/// One frame shown in the course: where, which revision, and the value.
struct Shown {
    at: String,
    revision: String,
    frame: Value,
    /// The request this frame answers, when the same block holds it.
    answers: Option<Value>,
}

/// One ```` ```json <revision> ```` block a lesson shows.
struct JsonBlock {
    /// `file:line` of its opening fence.
    at: String,
    /// Its frames break a rule on purpose (```` ```json REVISION wrong ````):
    /// met, not validated.
    wrong: bool,
    /// It stands inside an aside.
    in_aside: bool,
    /// Its frames.
    frames: Vec<Shown>,
}

/// Every json block of a parsed lesson (`file` names it in messages), in
/// order, asides included: the lesson as the course loads it, walked with
/// `content::aside::walk`.
fn json_blocks(file: &str, lesson: &Lesson) -> Vec<JsonBlock> {
    let mut out = Vec::new();
    for section in &lesson.sections {
        for (block, in_aside) in aside::walk(&section.blocks) {
            let Block::Code(code) = block else { continue };
            if code.lang != "json" {
                continue;
            }
            let revision = code
                .revision
                .clone()
                .unwrap_or_else(|| panic!("{file}:{}: a json block names its revision", code.line));
            out.push(JsonBlock {
                at: format!("{file}:{}", code.line),
                wrong: code.wrong,
                in_aside,
                frames: block_frames(file, &revision, code),
            });
        }
    }
    out
}

/// The json blocks of every lesson of the course, as loaded.
fn lesson_blocks() -> Vec<JsonBlock> {
    let course = common::course();
    let mut out = Vec::new();
    for part in &course.parts {
        let (Some(lesson), Some(quiz)) = (&part.lesson, &part.quiz) else {
            continue;
        };
        let file = quiz.path.with_file_name("lesson.md");
        out.extend(json_blocks(&file.display().to_string(), lesson));
    }
    out
}

/// The opening fences of json blocks in the lessons' source, counted from
/// the text: a line that, after any `>` markers of block quotes (asides),
/// starts with ```` ```json ````.
fn json_fences_in_sources() -> usize {
    let course = common::course();
    course
        .parts
        .iter()
        .filter_map(|p| p.quiz.as_ref())
        .map(|q| fs::read_to_string(course.root.join(q.path.with_file_name("lesson.md"))).unwrap())
        .map(|text| {
            text.lines()
                .filter(|l| l.trim_start_matches(['>', ' ']).starts_with("```json"))
                .count()
        })
        .sum()
}

/// The frames of one block (one per line, or pretty-printed over several),
/// each paired with the request it answers when the block holds it.
fn block_frames(file: &str, revision: &str, code: &CodeBlock) -> Vec<Shown> {
    let values = code
        .json_values()
        .unwrap_or_else(|(line, e)| panic!("{file}:{line}: not JSON frames: {e}"));
    let mut out: Vec<Shown> = Vec::new();
    for (line, frame) in values {
        let answers = match frame.get("method") {
            None => out
                .iter()
                .rev()
                .map(|s| &s.frame)
                .find(|r| r.get("method").is_some() && r.get("id").is_some() && r.get("id") == frame.get("id"))
                .cloned(),
            Some(_) => None,
        };
        out.push(Shown {
            at: format!("{file}:{line}"),
            revision: revision.to_string(),
            frame,
            answers,
        });
    }
    out
}

/// What validating blocks found.
#[derive(Default)]
struct Validated {
    /// Blocks whose every frame was held to its revision's schema (a
    /// block with no frame is not one).
    blocks: usize,
    frames: usize,
    /// Frames checked against their method's definitions, and responses
    /// without their request (as `JSONRPCResultResponse` only).
    by_method: usize,
    generic: usize,
    problems: Vec<String>,
}

/// Holds every frame of every block not marked `wrong` to the official
/// schema of its revision (in `dir`).
fn validate(dir: &Path, blocks: &[JsonBlock]) -> Validated {
    let mut officials = BTreeMap::new();
    let mut v = Validated::default();
    for block in blocks.iter().filter(|b| !b.wrong) {
        for s in &block.frames {
            let official = officials.entry(s.revision.clone()).or_insert_with(|| {
                assert!(
                    dir.join(&s.revision).join("schema.json").is_file(),
                    "{}: no schema for revision {}",
                    s.at,
                    s.revision
                );
                Official::load(dir, &s.revision)
            });
            let definitions = official.definitions_for(&s.frame, s.answers.as_ref());
            if definitions.len() == 2 || s.frame.get("method").is_some() || s.frame.get("error").is_some() {
                v.by_method += 1
            } else {
                v.generic += 1
            }
            for (definition, value) in definitions {
                if !official.accepts(&definition, &value) {
                    v.problems.push(format!(
                        "{}: not a valid {definition} ({}): {}",
                        s.at, s.revision, s.frame
                    ));
                }
            }
            v.frames += 1;
        }
        v.blocks += usize::from(!block.frames.is_empty());
    }
    v
}

impl Official {
    /// The definition whose `method` is the constant `method`, e.g.
    /// `CallToolRequest` for `tools/call`.
    fn definition_of(&self, method: &str) -> Option<String> {
        let defs = self.document["$defs"].as_object()?;
        defs.iter()
            .find(|(name, def)| {
                def.pointer("/properties/method/const") == Some(&json!(method))
                    && !name.starts_with("Client")
                    && !name.starts_with("Server")
            })
            .map(|(name, _)| name.clone())
    }

    /// The definitions `frame` must meet: its method's own definition; for
    /// a response, `JSONRPCResultResponse` and the result type of the
    /// request it answers (`…Request` → `…Result`, `EmptyResult` when the
    /// revision has none, `InputRequiredResult` when the result says so,
    /// `CreateTaskResult` for a task-augmented request).
    fn definitions_for(&self, frame: &Value, answers: Option<&Value>) -> Vec<(String, Value)> {
        if let Some(method) = frame.get("method").and_then(Value::as_str) {
            return vec![(
                self.definition_of(method).unwrap_or_else(|| "JSONRPCMessage".into()),
                frame.clone(),
            )];
        }
        if frame.get("error").is_some() {
            return vec![("JSONRPCErrorResponse".into(), frame.clone())];
        }
        let mut out = vec![("JSONRPCResultResponse".to_string(), frame.clone())];
        let method = answers.and_then(|r| r.get("method")).and_then(Value::as_str);
        if let Some(request) = method.and_then(|m| self.definition_of(m)) {
            let result = &frame["result"];
            let named = request.replace("Request", "Result");
            // A task-augmented request gets a task handle at once
            // (2025-11-25 basic/utilities/tasks).
            let task = answers.and_then(|r| r.pointer("/params/task")).is_some();
            let definition = if task && self.defines("CreateTaskResult") {
                "CreateTaskResult".to_string()
            } else if result.get("resultType") == Some(&json!("input_required")) {
                "InputRequiredResult".to_string()
            } else if self.defines(&named) {
                named
            } else {
                "EmptyResult".to_string()
            };
            out.push((definition, result.clone()));
        }
        out
    }
}

#[test]
fn every_frame_the_lessons_show_is_valid_in_its_revision() {
    let Some(dir) = schema_dir() else {
        eprintln!("skipped: no mcp-schema folder");
        return;
    };
    let blocks = lesson_blocks();
    // The walk meets every json block the sources hold, asides included.
    assert_eq!(
        blocks.len(),
        json_fences_in_sources(),
        "the parsed lessons hold as many json blocks as their sources open"
    );
    let met = blocks.iter().filter(|b| !b.wrong).count();
    let in_asides = blocks.iter().filter(|b| !b.wrong && b.in_aside).count();
    let wrong = blocks.len() - met;
    let v = validate(&dir, &blocks);
    eprintln!(
        "lessons: {met} json blocks met ({in_asides} inside asides; {wrong} more marked wrong, shown as mistakes, not validated), {} validated: {} frames valid in their revision ({} against their method's definitions, {} responses without their request, as JSONRPCResultResponse)",
        v.blocks, v.frames, v.by_method, v.generic
    );
    assert_eq!(v.blocks, met, "every json block met is validated");
    assert!(v.frames > 100, "too few lesson frames found: {}", v.frames);
    assert!(v.problems.is_empty(), "{}", v.problems.join("\n"));
}

/// A frame inside an aside is met and held to its schema like one in the
/// core: a fixture lesson with a valid frame in the core and, in an aside,
/// an `initialize` request without its params' required members.
#[test]
fn a_frame_inside_an_aside_is_validated() {
    let Some(dir) = schema_dir() else {
        eprintln!("skipped: no mcp-schema folder");
        return;
    };
    let source = "# Part 9 · Fixture\n\n## Frames\n\nA ping.\n\n```json 2025-11-25\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n```\n\n> [!wild] What one server sent\n>\n> It opened with this:\n>\n> ```json 2025-11-25\n> {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n> {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{}}\n> ```\n";
    let lesson = mcplings::content::lesson::parse(Path::new("fixture.md"), source).unwrap();
    let blocks = json_blocks("fixture.md", &lesson);
    let found: Vec<(&str, bool, usize)> = blocks
        .iter()
        .map(|b| (b.at.as_str(), b.in_aside, b.frames.len()))
        .collect();
    // The aside's fence is line 15 of the fixture; its second frame, line 17.
    assert_eq!(found, [("fixture.md:7", false, 1), ("fixture.md:15", true, 2)]);
    let v = validate(&dir, &blocks);
    assert_eq!((v.blocks, v.frames), (2, 3));
    assert_eq!(v.problems.len(), 1, "{:#?}", v.problems);
    assert!(
        v.problems[0].starts_with("fixture.md:17: not a valid InitializeRequest (2025-11-25)"),
        "{}",
        v.problems[0]
    );
}

/// Frames quoted in the quizzes' right answers and every explanation, and
/// in the exercises' tasks and hints: each must be valid in a revision that
/// defines its method. Prompts and wrong options are left out: they show
/// the situation or the mistake. Quoted sketches that are not JSON
/// (`"id": <its id>`, `{...}`) are counted and skipped.
#[test]
fn every_frame_the_quizzes_and_exercises_quote_is_valid() {
    let Some(dir) = schema_dir() else {
        eprintln!("skipped: no mcp-schema folder");
        return;
    };
    let officials: Vec<(Revision, Official)> = [Revision::Legacy, Revision::Modern]
        .into_iter()
        .map(|r| (r, Official::load(&dir, r.date())))
        .collect();
    let mut texts: Vec<(String, String)> = Vec::new();
    for part in fs::read_dir(common::root().join("lessons"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
    {
        for (file, keys) in [
            ("quiz.toml", &["explanation"][..]),
            ("exercises.toml", &["task", "hints"][..]),
        ] {
            let Ok(text) = fs::read_to_string(part.join(file)) else {
                continue;
            };
            let doc: toml::Value = toml::from_str(&text).unwrap();
            let at = format!("{}/{file}", part.file_name().unwrap().to_string_lossy());
            collect_strings(&doc, keys, &at, &mut texts);
        }
    }
    let (mut valid, mut sketches, mut problems) = (0, 0, Vec::new());
    for (at, text) in &texts {
        for (offset, _) in text.match_indices("{\"jsonrpc\"") {
            let Some(Ok(frame)) = serde_json::Deserializer::from_str(&text[offset..])
                .into_iter::<Value>()
                .next()
            else {
                sketches += 1;
                continue;
            };
            let ok = officials.iter().any(|(_, o)| {
                o.accepts("JSONRPCMessage", &frame)
                    && o.definitions_for(&frame, None)
                        .iter()
                        .all(|(d, v)| o.defines(d) && o.accepts(d, v))
            });
            if ok {
                valid += 1
            } else {
                problems.push(format!("{at}: {frame}"))
            }
        }
    }
    eprintln!("quizzes and exercises: {valid} quoted frames valid, {sketches} sketches skipped");
    assert!(valid >= 3, "too few quoted frames found: {valid}");
    assert!(
        problems.is_empty(),
        "frames valid in no revision:\n{}",
        problems.join("\n")
    );
}

/// Every string under `keys` in `doc` (arrays of strings too), and the text
/// of quiz options marked correct.
fn collect_strings(doc: &toml::Value, keys: &[&str], at: &str, out: &mut Vec<(String, String)>) {
    match doc {
        toml::Value::Table(table) => {
            let correct = table.get("correct").and_then(toml::Value::as_bool) == Some(true);
            for (key, value) in table {
                let wanted = keys.contains(&key.as_str()) || (correct && key == "text");
                match value {
                    toml::Value::String(s) if wanted => out.push((at.to_string(), s.clone())),
                    toml::Value::Array(items) if wanted => out.extend(
                        items
                            .iter()
                            .filter_map(toml::Value::as_str)
                            .map(|s| (at.to_string(), s.to_string())),
                    ),
                    _ => collect_strings(value, keys, at, out),
                }
            }
        }
        toml::Value::Array(items) => items.iter().for_each(|v| collect_strings(v, keys, at, out)),
        _ => {}
    }
}

/// The frames each quiz question shows (its `frames`), as blocks: one per
/// question, `wrong` as the question marks it, each line's arrow left off;
/// a response is paired with the request before it that has its id. A
/// line that is not JSON is returned apart, with where it is.
fn quiz_blocks() -> (Vec<JsonBlock>, Vec<String>) {
    let course = common::course();
    let (mut blocks, mut not_json) = (Vec::new(), Vec::new());
    for quiz in course.parts.iter().filter_map(|p| p.quiz.as_ref()) {
        for q in &quiz.questions {
            let Some(f) = &q.frames else { continue };
            let at = format!("{}:{} ({})", quiz.path.display(), q.line, q.id);
            let mut frames: Vec<Shown> = Vec::new();
            for (_, line) in f.split_lines() {
                let Ok(frame) = serde_json::from_str::<Value>(line) else {
                    not_json.push(format!("{at}: {line}"));
                    continue;
                };
                let answers = frame.get("method").is_none().then(|| {
                    frames
                        .iter()
                        .rev()
                        .map(|s| &s.frame)
                        .find(|r| r.get("method").is_some() && r.get("id").is_some() && r.get("id") == frame.get("id"))
                        .cloned()
                });
                frames.push(Shown {
                    at: at.clone(),
                    revision: f.revision.clone(),
                    frame,
                    answers: answers.flatten(),
                });
            }
            blocks.push(JsonBlock {
                at,
                wrong: f.wrong,
                in_aside: false,
                frames,
            });
        }
    }
    (blocks, not_json)
}

/// Every frame a quiz question shows is valid in its revision, against its
/// method's definition, unless the question marks its frames `wrong` (they
/// break a rule on purpose); a line that starts as JSON and does not parse
/// stands only in frames marked wrong (a wire line such as `POST /mcp` or
/// `data: …` stands anywhere). Part 1's quiz, the model, shows frames of
/// both kinds.
#[test]
fn every_frame_the_quiz_questions_show_is_valid_unless_marked_wrong() {
    let Some(dir) = schema_dir() else {
        eprintln!("skipped: no mcp-schema folder");
        return;
    };
    let (blocks, not_json) = quiz_blocks();
    let wrong_at: Vec<&str> = blocks.iter().filter(|b| b.wrong).map(|b| b.at.as_str()).collect();
    // A wire line that is no JSON text at all (`POST /mcp`, `data: …`, an
    // HTTP header) may stand in any frames; a line that starts as JSON and
    // does not parse is broken on purpose, so only in frames marked wrong.
    let unmarked: Vec<&String> = not_json
        .iter()
        .filter(|l| !wrong_at.iter().any(|w| l.starts_with(&format!("{w}:"))))
        .filter(|l| {
            l.split_once(": ")
                .is_some_and(|(_, line)| line.trim_start().starts_with(['{', '[']))
        })
        .collect();
    assert!(
        unmarked.is_empty(),
        "lines that are not JSON in frames not marked wrong: {unmarked:#?}"
    );
    let part1 = |b: &&JsonBlock| b.at.starts_with("lessons/01-");
    assert!(
        blocks.iter().filter(part1).any(|b| b.wrong),
        "Part 1 shows frames that break a rule"
    );
    assert!(
        blocks.iter().filter(part1).any(|b| !b.wrong),
        "Part 1 shows valid frames"
    );
    let v = validate(&dir, &blocks);
    eprintln!(
        "quiz questions: {} blocks of frames, {} validated ({} frames), {} marked wrong",
        blocks.len(),
        v.blocks,
        v.frames,
        wrong_at.len()
    );
    assert!(v.frames >= 5, "too few quiz frames validated: {}", v.frames);
    assert!(v.problems.is_empty(), "{}", v.problems.join("\n"));
}
