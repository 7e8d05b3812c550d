//! The canonical schema and descriptions generated for every parameter kind, from a crate that
//! depends on tool-core alone.

use std::collections::HashMap;

use serde_json::json;
use tool_core::{tool, tool_type, tools, ToolRegistry};

/// Severity of a ticket.
#[tool_type]
#[derive(Debug)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Can wait.
    Low,
    /// Needs attention today.
    High,
}

/// Filters for a search.
#[tool_type]
#[derive(Debug)]
#[serde(deny_unknown_fields)]
pub struct Filters {
    /// Tags that must all match.
    pub tags: Vec<String>,
    /// Only tickets at least this severe.
    pub min_severity: Option<Severity>,
}

/// Files a ticket.
///
/// Returns the new ticket's id.
#[tool(idempotent = false)]
#[allow(clippy::too_many_arguments)] // a tool with many parameters is what this test is about
fn file_ticket(
    /// One-line summary.
    title: String,
    severity: Severity,
    /// Free-form labels.
    labels: Vec<String>,
    assignee: Option<String>,
    #[arg(default = 3, description = "Days until due.")] due_in_days: u32,
    metadata: HashMap<String, String>,
    filters: Option<Filters>,
    body: &str,
    attachments: &[String],
) -> String {
    let _ = (
        severity,
        labels,
        assignee,
        due_in_days,
        metadata,
        filters,
        body,
        attachments,
    );
    title
}

/// Tells the time.
#[tool(read_only)]
fn now() -> &'static str {
    "12:00"
}

fn registry() -> ToolRegistry {
    tools![file_ticket, now]
}

#[test]
fn schema_has_object_root_declaration_order_and_closed_properties() {
    let registry = registry();
    let schema = &registry.definition("file_ticket").unwrap().input_schema;
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
    assert!(schema.get("$schema").is_none(), "no $schema at the root");
    assert!(schema.get("title").is_none(), "no title at the root");
    let order: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        order,
        [
            "title",
            "severity",
            "labels",
            "assignee",
            "due_in_days",
            "metadata",
            "filters",
            "body",
            "attachments"
        ]
    );
}

#[test]
fn required_lists_parameters_that_are_neither_optional_nor_defaulted() {
    let registry = registry();
    let schema = &registry.definition("file_ticket").unwrap().input_schema;
    assert_eq!(
        schema["required"],
        json!([
            "title",
            "severity",
            "labels",
            "metadata",
            "body",
            "attachments"
        ])
    );
}

#[test]
fn parameter_docs_defaults_and_references_appear_in_the_schema() {
    let registry = registry();
    let schema = &registry.definition("file_ticket").unwrap().input_schema;
    let props = &schema["properties"];
    assert_eq!(props["title"]["description"], "One-line summary.");
    assert_eq!(props["due_in_days"]["default"], 3);
    assert_eq!(props["due_in_days"]["description"], "Days until due.");
    assert_eq!(props["body"]["type"], "string", "&str is a string");
    assert_eq!(props["attachments"]["type"], "array", "&[T] is an array");
    assert_eq!(props["metadata"]["additionalProperties"]["type"], "string");
    assert_eq!(props["severity"]["$ref"], "#/$defs/Severity");
    // Documented variants keep their docs: one `const` per variant.
    assert_eq!(
        schema["$defs"]["Severity"]["oneOf"],
        json!([
            {"type": "string", "const": "low", "description": "Can wait."},
            {"type": "string", "const": "high", "description": "Needs attention today."}
        ])
    );
    assert_eq!(
        schema["$defs"]["Filters"]["properties"]["tags"]["description"],
        "Tags that must all match."
    );
}

#[test]
fn tool_without_parameters_has_an_empty_closed_object() {
    let registry = registry();
    let schema = &registry.definition("now").unwrap().input_schema;
    assert_eq!(
        serde_json::to_string(&**schema).unwrap(),
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );
}

#[test]
fn description_keeps_paragraphs_and_annotations_travel_with_the_definition() {
    let registry = registry();
    let def = registry.definition("file_ticket").unwrap();
    assert_eq!(
        def.description,
        "Files a ticket.\n\nReturns the new ticket's id."
    );
    assert_eq!(def.annotations.idempotent, Some(false));
    assert_eq!(
        registry.definition("now").unwrap().annotations.read_only,
        Some(true)
    );
}

#[test]
fn schemas_are_byte_identical_across_registries() {
    let a = serde_json::to_string(registry().definitions()).unwrap();
    let b = serde_json::to_string(registry().definitions()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn definitions_are_cached_not_rebuilt() {
    let registry = registry();
    let first = registry.definitions().as_ptr();
    let schema = std::sync::Arc::as_ptr(&registry.definitions()[0].input_schema);
    assert_eq!(first, registry.definitions().as_ptr());
    assert_eq!(
        schema,
        std::sync::Arc::as_ptr(&registry.definitions()[0].input_schema)
    );
}
