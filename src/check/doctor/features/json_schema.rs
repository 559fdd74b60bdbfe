//! JSON Schema for doctor, through the `boon` crate: whether a tool's
//! `inputSchema` or `outputSchema` is a valid schema (against the
//! meta-schema of its `$schema` dialect, 2020-12 when it names none), and
//! whether a result's `structuredContent` fits the tool's `outputSchema`.
//! Nothing is fetched: a `$schema` or `$ref` naming a document the crate
//! does not carry is a schema doctor cannot use, not a download.

use std::panic::{AssertUnwindSafe, catch_unwind};

use boon::{CompileError, Compiler, Draft, SchemaIndex, Schemas, UrlLoader, ValidationError};
use serde_json::Value;

/// Loads nothing: boon's own loader reads `file:` URLs, and a server's
/// `$ref` must not make doctor read this machine's files (or block on a
/// device). The dialects' meta-schemas come with the crate, not through
/// this.
struct Nothing;

impl UrlLoader for Nothing {
    fn load(&self, url: &str) -> Result<Value, Box<dyn std::error::Error>> {
        Err(format!("mcplings fetches no schema ({url})").into())
    }
}

/// Where the schema under test is kept while it compiles (never fetched).
const HERE: &str = "mem:///schema.json";

/// Why `schema` is not a valid JSON Schema, if it is not; `Err` with a
/// warn when its dialect is one mcplings does not know or it does not
/// compile (an unresolvable `$ref`).
pub(super) fn problem(schema: &Value) -> Result<Option<String>, String> {
    if !schema.is_object() {
        return Ok(Some(format!("it is {schema}, not a JSON object")));
    }
    let mut schemas = Schemas::new();
    let compiled = catch_unwind(AssertUnwindSafe(|| compile(schema, &mut schemas).map(|_| ())));
    let Ok(compiled) = compiled else {
        return Err("the JSON Schema library could not read it".into());
    };
    match compiled {
        Ok(()) => Ok(None),
        Err(CompileError::ValidationError { src, .. }) => Ok(Some(said(&src))),
        Err(e) if names_dialect(schema, &e) => Err(format!(
            "its dialect {} is not one mcplings knows: {e}",
            schema["$schema"]
        )),
        Err(e) => Err(format!("it does not compile: {e}")),
    }
}

/// Whether `instance` fits `schema`: `Err` says where and why not. A schema
/// that does not compile holds nothing to (that is [`problem`]'s finding).
pub(super) fn fits(schema: &Value, instance: &Value) -> Result<(), String> {
    let mut schemas = Schemas::new();
    let Ok(Ok(index)) = catch_unwind(AssertUnwindSafe(|| compile(schema, &mut schemas))) else {
        return Ok(());
    };
    schemas.validate(instance, index).map_err(|e| said(&e))
}

fn compile(schema: &Value, schemas: &mut Schemas) -> Result<SchemaIndex, CompileError> {
    let mut compiler = Compiler::new();
    compiler.use_loader(Box::new(Nothing));
    compiler.set_default_draft(Draft::V2020_12);
    compiler.add_resource(HERE, schema.clone())?;
    compiler.compile(HERE, schemas)
}

/// Whether compiling failed on the schema's `$schema` (a dialect the crate
/// does not carry, or not a URL at all) rather than on its content.
fn names_dialect(schema: &Value, e: &CompileError) -> bool {
    let Some(dialect) = schema.get("$schema").and_then(Value::as_str) else {
        return false;
    };
    let dialect = dialect.trim_end_matches('#');
    match e {
        CompileError::InvalidMetaSchemaUrl { .. }
        | CompileError::UnsupportedDraft { .. }
        | CompileError::MetaSchemaCycle { .. } => true,
        CompileError::LoadUrlError { url, .. } | CompileError::UnsupportedUrlScheme { url } => {
            url.trim_end_matches('#') == dialect
        }
        _ => false,
    }
}

/// The first innermost error, as what failed and where in the instance:
/// `want number, but got string (at /properties/a/minimum)`.
fn said(e: &ValidationError) -> String {
    let mut e = e;
    while let Some(first) = e.causes.first() {
        e = first;
    }
    let at = e.instance_location.to_string();
    format!("{} (at {})", e.kind, if at.is_empty() { "the top" } else { &at })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_valid_schema_in_each_dialect_has_no_problem() {
        assert_eq!(
            problem(&json!({"type": "object", "properties": {"a": {"type": "string"}}})),
            Ok(None)
        );
        let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "definitions": {}});
        assert_eq!(problem(&draft7), Ok(None));
        let refs =
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "integer"}}});
        assert_eq!(problem(&refs), Ok(None));
    }

    #[test]
    fn a_schema_against_its_meta_schema_says_where() {
        let bad = json!({"type": "object", "properties": {"a": {"minimum": "one"}}});
        let said = problem(&bad).unwrap().expect("a string minimum is not valid");
        assert!(said.contains("/properties/a/minimum"), "{said}");
        let said = problem(&json!({"type": "objekt"})).unwrap().expect("no such type");
        assert!(said.contains("(at /type)"), "{said}");
        assert_eq!(problem(&json!(true)), Ok(Some("it is true, not a JSON object".into())));
    }

    #[test]
    fn an_unknown_dialect_and_an_unresolvable_ref_are_warned_apart() {
        let dialect = problem(&json!({"$schema": "https://example.com/my-dialect", "type": "object"}));
        let warn = dialect.expect_err("an unknown dialect is a warn");
        assert!(
            warn.starts_with("its dialect \"https://example.com/my-dialect\" is not one"),
            "{warn}"
        );
        let dangling = problem(&json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/gone"}}}));
        let warn = dangling.expect_err("a dangling $ref is a warn");
        assert!(warn.starts_with("it does not compile: "), "{warn}");
        let remote = problem(&json!({"$ref": "https://example.com/other.json"}));
        assert!(
            remote
                .expect_err("nothing is fetched")
                .starts_with("it does not compile: ")
        );
    }

    #[test]
    fn a_ref_to_a_local_file_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("string.json");
        std::fs::write(&file, r#"{"type": "string"}"#).unwrap();
        let schema = json!({"$ref": format!("file://{}", file.display())});
        let warn = problem(&schema).expect_err("the file is not read, so the $ref does not resolve");
        assert!(warn.starts_with("it does not compile: "), "{warn}");
        assert_eq!(fits(&schema, &json!(1)), Ok(()), "nothing to hold to");
    }

    #[test]
    fn structured_content_fits_its_output_schema_or_says_why_not() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        assert_eq!(fits(&schema, &json!({"n": 3})), Ok(()));
        let why = fits(&schema, &json!({"n": "3"})).unwrap_err();
        assert!(why.contains("(at /n)") && why.contains("integer"), "{why}");
        let why = fits(&schema, &json!({})).unwrap_err();
        assert!(why.contains("missing") && why.contains("the top"), "{why}");
        // A schema that does not compile holds nothing to.
        assert_eq!(fits(&json!({"$ref": "#/nowhere"}), &json!(1)), Ok(()));
    }
}
