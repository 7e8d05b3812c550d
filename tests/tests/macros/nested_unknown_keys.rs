//! A key the model misspells inside a nested argument is an `INVALID_PARAM` error naming its
//! full path, the closest valid name and the valid names (issue 10), whether the nested type
//! is declared with `#[tool_type]` or plain serde/schemars derives; the schemas tell the model
//! up front (`additionalProperties: false` on every nested record), and objects that are open
//! (maps, flattened maps, an explicit opt-out) stay open in both.

// The nested types' fields exist to be deserialized and described in the schema; no test
// reads them back (the file was its own crate root before, where `pub` kept them quiet).
#![allow(dead_code)]

use crate::support;

use std::collections::BTreeMap;

use serde_json::Value;
use support::checkers;
use tool_core::provider::{anthropic, gemini, mcp, openai_chat};
use tool_core::{tool, tool_type, tools, ToolCall, ToolErrorCode, ToolRegistry, ToolStatus};

/// Output options, declared with plain derives and no `deny_unknown_fields`.
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Options {
    /// Say more.
    pub verbose: Option<bool>,
    /// Line width.
    pub width: Option<u32>,
}

/// The same options through `#[tool_type]`.
#[tool_type]
#[derive(Debug)]
pub struct Layout {
    /// Columns.
    pub columns: Option<u32>,
    /// Options nested one level further.
    pub options: Option<Options>,
}

/// An item of a list.
#[tool_type]
#[derive(Debug)]
pub struct Item {
    /// Its name.
    pub name: String,
    /// How many.
    pub count: Option<u32>,
}

/// A shape, externally tagged.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        radius: f64,
    },
    /// A square.
    Square {
        /// Side.
        side: f64,
    },
    /// No shape.
    Empty,
}

/// An action, internally tagged.
#[tool_type]
#[derive(Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Move by an offset.
    Move {
        /// Offset.
        dx: i32,
    },
    /// Stop.
    Stop {
        /// Whether to brake hard.
        hard: Option<bool>,
    },
}

/// Free-form labels beside a fixed field: the flattened map keeps the object open.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Labels {
    /// The one fixed field.
    pub owner: Option<String>,
    /// Any other key.
    #[serde(flatten)]
    pub rest: BTreeMap<String, Value>,
}

/// Opts out of the check: any key is accepted, and the schema says so.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
pub struct Loose {
    /// A known field.
    pub known: Option<u32>,
}

/// A job whose action is flattened into it: its keys are spread over the record and the
/// enum's variants, so neither part alone can close the object.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Job {
    /// Job name.
    pub name: String,
    /// What to do.
    #[serde(flatten)]
    pub action: Action,
}

/// Schedules a job.
#[tool]
fn schedule(job: Job) -> String {
    format!("{job:?}")
}

/// Shows text.
#[tool]
fn show(text: String, opts: Option<Options>) -> String {
    format!("{text} {opts:?}")
}

/// Lays out a page.
#[tool]
fn layout(layout: Layout) -> String {
    format!("{layout:?}")
}

/// Adds items.
#[tool]
fn add_items(items: Vec<Item>) -> String {
    format!("{}", items.len())
}

/// Draws shapes.
#[tool]
fn draw(shape: Shape, then: Option<Action>) -> String {
    format!("{shape:?} {then:?}")
}

/// Tags things.
#[tool]
fn tag(
    /// Options per name: the map is open, each value is closed.
    per_name: BTreeMap<String, Options>,
    labels: Option<Labels>,
    loose: Option<Loose>,
) -> String {
    format!("{per_name:?} {labels:?} {loose:?}")
}

fn registry() -> ToolRegistry {
    tools![show, layout, add_items, draw, tag, schedule]
}

fn call(name: &str, args: &str) -> tool_core::ToolResponse {
    registry().call_blocking(&ToolCall::new("c1", name, args))
}

/// Asserts an `INVALID_PARAM` with exactly this message after the tool prefix.
fn assert_unknown(name: &str, args: &str, expected: &str) {
    let response = call(name, args);
    assert_eq!(response.status, ToolStatus::Error, "{args}");
    assert_eq!(response.error_code(), Some(ToolErrorCode::InvalidParam));
    assert_eq!(
        response.error_message(),
        Some(format!("Invalid arguments for '{name}': {expected}").as_str()),
        "{args}"
    );
}

fn success_text(name: &str, args: &str) -> String {
    let response = call(name, args);
    assert_eq!(response.status, ToolStatus::Success, "{args}: {response:?}");
    response.model_text().into_owned()
}

#[test]
fn a_typo_in_a_plain_derive_struct_is_reported_with_path_and_suggestion() {
    assert_unknown(
        "show",
        r#"{"text": "hi", "opts": {"verbos": true}}"#,
        "unknown parameter 'opts.verbos'. Did you mean 'verbose'? Valid parameters: 'verbose', 'width'.",
    );
    assert_eq!(
        success_text("show", r#"{"text": "hi", "opts": {"verbose": true}}"#),
        "hi Some(Options { verbose: Some(true), width: None })"
    );
}

#[test]
fn a_typo_two_levels_down_names_the_whole_path() {
    assert_unknown(
        "layout",
        r#"{"layout": {"columns": 2, "options": {"widht": 80}}}"#,
        "unknown parameter 'layout.options.widht'. Did you mean 'width'? Valid parameters: 'verbose', 'width'.",
    );
    assert_unknown(
        "layout",
        r#"{"layout": {"colums": 2}}"#,
        "unknown parameter 'layout.colums'. Did you mean 'columns'? Valid parameters: 'columns', 'options'.",
    );
}

#[test]
fn a_typo_in_a_list_element_names_its_index() {
    assert_unknown(
        "add_items",
        r#"{"items": [{"name": "a"}, {"nmae": "b", "name": "c"}]}"#,
        "unknown parameter 'items[1].nmae'. Did you mean 'name'? Valid parameters: 'name', 'count'.",
    );
    assert_eq!(
        success_text(
            "add_items",
            r#"{"items": [{"name": "a"}, {"name": "b", "count": 2}]}"#
        ),
        "2"
    );
}

#[test]
fn a_typo_in_enum_variant_fields_is_reported_for_either_tagging() {
    assert_unknown(
        "draw",
        r#"{"shape": {"circle": {"radius": 1.0, "radus": 2.0}}}"#,
        "unknown parameter 'shape.circle.radus'. Did you mean 'radius'? Valid parameters: 'radius'.",
    );
    assert_unknown(
        "draw",
        r#"{"shape": "empty", "then": {"kind": "stop", "hrad": true}}"#,
        "unknown parameter 'then.hrad'. Did you mean 'hard'? Valid parameters: 'kind', 'hard'.",
    );
    assert_eq!(
        success_text(
            "draw",
            r#"{"shape": {"square": {"side": 2.0}}, "then": {"kind": "move", "dx": -1}}"#
        ),
        "Square { side: 2.0 } Some(Move { dx: -1 })"
    );
}

#[test]
fn maps_flattened_maps_and_opted_out_types_stay_open() {
    let text = success_text(
        "tag",
        r#"{"per_name": {"any key": {"width": 3}}, "labels": {"owner": "me", "team": "core"}, "loose": {"known": 1, "extra": true}}"#,
    );
    assert!(text.contains("\"team\": String(\"core\")"), "{text}");
    // The map is open, but each value is still a closed record.
    assert_unknown(
        "tag",
        r#"{"per_name": {"any key": {"wdith": 3}}}"#,
        "unknown parameter 'per_name.any key.wdith'. Did you mean 'width'? Valid parameters: 'verbose', 'width'.",
    );
}

#[test]
fn a_flattened_enum_is_not_mistaken_for_unknown_keys() {
    assert_eq!(
        success_text(
            "schedule",
            r#"{"job": {"name": "n", "kind": "stop", "hard": true}}"#
        ),
        r#"Job { name: "n", action: Stop { hard: Some(true) } }"#
    );
}

#[test]
fn a_misspelled_nested_key_in_double_encoded_arguments_is_still_found() {
    assert_unknown(
        "show",
        r#""{\"text\": \"hi\", \"opts\": {\"verbos\": true}}""#,
        "unknown parameter 'opts.verbos'. Did you mean 'verbose'? Valid parameters: 'verbose', 'width'.",
    );
}

fn defs(schema: &Value) -> &serde_json::Map<String, Value> {
    schema["$defs"].as_object().expect("$defs")
}

#[test]
fn the_canonical_schema_closes_exactly_the_objects_the_decoder_closes() {
    let registry = registry();
    let schema = |name: &str| {
        registry
            .definitions()
            .iter()
            .find(|d| d.name == name)
            .map(|d| (*d.input_schema).clone())
            .expect("tool")
    };
    let show = schema("show");
    assert_eq!(defs(&show)["Options"]["additionalProperties"], false);
    let draw = schema("draw");
    let circle = defs(&draw)["Shape"]["oneOf"]
        .as_array()
        .and_then(|b| b.iter().find_map(|b| b["properties"].get("circle")))
        .expect("the circle variant");
    assert_eq!(circle["additionalProperties"], false, "{circle}");
    for branch in defs(&draw)["Action"]["oneOf"].as_array().expect("oneOf") {
        assert_eq!(branch["additionalProperties"], false, "{branch}");
    }
    let tag = schema("tag");
    assert!(tag["properties"]["per_name"]["additionalProperties"].is_object());
    assert_eq!(defs(&tag)["Labels"]["additionalProperties"], true);
    assert_eq!(defs(&tag)["Loose"]["additionalProperties"], true);
    let schedule = schema("schedule");
    let job = &defs(&schedule)["Job"];
    assert!(job.get("additionalProperties").is_none(), "{job}");
    for branch in job["oneOf"].as_array().expect("oneOf") {
        assert!(branch.get("additionalProperties").is_none(), "{branch}");
    }
}

#[test]
fn every_dialect_tells_the_model_and_the_checkers_still_pass() {
    for def in registry().definitions() {
        let canonical = &def.input_schema;
        let strict = openai_chat::strict_schema(canonical);
        if strict.strict {
            let errors = checkers::openai_strict(&strict.schema);
            assert!(errors.is_empty(), "{}: {errors:#?}", def.name);
        }
        let anthropic = anthropic::input_schema(canonical);
        let errors = checkers::anthropic_input_schema(&anthropic.schema);
        assert!(errors.is_empty(), "{}: {errors:#?}", def.name);
        let gemini = gemini::parameters_schema(canonical);
        let errors = checkers::gemini_parameters(&gemini.schema);
        assert!(errors.is_empty(), "{}: {errors:#?}", def.name);
        for dialect in [
            strict.schema,
            anthropic.schema,
            gemini::json_schema(canonical).schema,
            mcp::input_schema(canonical).schema,
        ] {
            // Every record (an object with properties) outside the open types is closed.
            assert!(
                open_records(&dialect).is_empty(),
                "{}: {:?}",
                def.name,
                open_records(&dialect)
            );
        }
    }
}

/// Pointers to objects with `properties` that are not closed, other than the two types that
/// are open on purpose.
fn open_records(schema: &Value) -> Vec<String> {
    fn walk(value: &Value, path: String, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                let open_on_purpose = ["/Labels", "/Loose", "/Job"]
                    .iter()
                    .any(|t| path.ends_with(t))
                    || path.contains("/Job/oneOf/");
                if map.contains_key("properties")
                    && map.get("additionalProperties") != Some(&Value::Bool(false))
                    && !open_on_purpose
                {
                    out.push(path.clone());
                }
                for (k, v) in map {
                    if k != "const" && k != "enum" && k != "default" {
                        walk(v, format!("{path}/{k}"), out);
                    }
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, format!("{path}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, "#".into(), &mut out);
    out
}
