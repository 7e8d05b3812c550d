//! OpenAI strict mode without changing what a schema means: optional properties are sent
//! required and nullable, the model's `null` for one is removed before the tool runs (at any
//! depth), properties that already accept `null` keep it, and `StrictMode` per registry and
//! per tool decides what goes out.

use serde_json::{json, Value};
use tool_core::provider::{Api, ChatApi, OpenAiChat};
use tool_core::testing::{ProblemKind, ToolChecks};
use tool_core::{
    tool, tools, CallFuture, Shape, StrictMode, Tool, ToolCall, ToolContext, ToolRegistry,
    ToolResponse,
};

/// A hand-written tool that answers with its argument text, byte for byte.
struct Echo {
    name: &'static str,
    schema: Value,
}

impl Tool for Echo {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "Answers with its arguments."
    }
    fn input_schema(&self) -> Value {
        self.schema.clone()
    }
    fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        CallFuture::ready(ToolResponse::success(arguments.to_string()))
    }
}

fn filter_tool() -> Echo {
    Echo {
        name: "find",
        schema: json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "note": {"type": ["string", "null"]},
                "filter": {
                    "type": "object",
                    "properties": {
                        "owner": {"type": "string"},
                        "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}}
                    },
                    "required": ["tags"]
                }
            },
            "required": ["query"],
            "$defs": {"Tag": {"type": "object", "properties": {"name": {"type": "string"}, "color": {"enum": ["red", "blue"]}}, "required": ["name"]}}
        }),
    }
}

fn answer(registry: &ToolRegistry, name: &str, arguments: &str) -> String {
    registry
        .call_blocking(&ToolCall::new("1", name, arguments))
        .model_text()
        .into_owned()
}

#[test]
fn optional_properties_are_sent_required_and_nullable_at_any_depth() {
    let registry = ToolRegistry::new().with(filter_tool());
    let sent = &registry.tool_list(Api::OpenAiChat).value()[0]["function"];
    assert_eq!(sent["strict"], true);
    let params = &sent["parameters"];
    assert_eq!(params["required"], json!(["query", "note", "filter"]));
    assert_eq!(
        params["properties"]["note"]["type"],
        json!(["string", "null"])
    );
    let filter = &params["properties"]["filter"];
    assert_eq!(filter["anyOf"][1], json!({"type": "null"}));
    assert_eq!(filter["anyOf"][0]["required"], json!(["owner", "tags"]));
    assert_eq!(
        filter["anyOf"][0]["properties"]["owner"]["type"],
        json!(["string", "null"])
    );
    let tag = &params["$defs"]["Tag"];
    assert_eq!(tag["required"], json!(["name", "color"]));
    assert_eq!(
        tag["properties"]["color"],
        json!({"anyOf": [{"enum": ["red", "blue"]}, {"type": "null"}]})
    );
}

#[test]
fn the_models_nulls_for_optional_properties_reach_the_tool_as_absent() {
    let registry = ToolRegistry::new().with(filter_tool());
    let all_null = r#"{"query":"q","note":null,"filter":{"owner":null,"tags":[{"name":"a","color":null},{"name":"b","color":"red"}]}}"#;
    assert_eq!(
        answer(&registry, "find", all_null),
        r#"{"query":"q","note":null,"filter":{"tags":[{"name":"a"},{"name":"b","color":"red"}]}}"#
    );
    assert_eq!(
        answer(&registry, "find", r#"{"query":"q","filter":null}"#),
        r#"{"query":"q"}"#
    );
    // Without a null to remove, the arguments arrive byte for byte.
    let spaced = r#"{ "query" : "null",  "filter": {"tags": []} }"#;
    assert_eq!(answer(&registry, "find", spaced), spaced);
    // A required property's null is the model's mistake, left for the tool to report.
    assert_eq!(
        answer(&registry, "find", r#"{"query":null}"#),
        r#"{"query":null}"#
    );
}

/// Lists files.
#[tool]
fn list_files(
    /// The folder.
    folder: String,
    /// Where the previous page ended.
    cursor: Option<String>,
    /// Files per page.
    #[arg(default = 50)]
    page_size: u32,
) -> String {
    format!("{folder} {cursor:?} {page_size}")
}

#[test]
fn a_tool_functions_option_and_defaulted_parameters_take_null_as_absent() {
    let registry = tools![list_files];
    let params = &registry.tool_list(Api::OpenAiResponses).value()[0]["parameters"];
    assert_eq!(params["required"], json!(["folder", "cursor", "page_size"]));
    assert_eq!(
        params["properties"]["page_size"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(
        answer(
            &registry,
            "list_files",
            r#"{"folder":"d","cursor":null,"page_size":null}"#
        ),
        "d None 50"
    );
    assert_eq!(
        answer(
            &registry,
            "list_files",
            r#"{"folder":"d","cursor":"c2","page_size":5}"#
        ),
        "d Some(\"c2\") 5"
    );
}

#[test]
fn strict_off_per_registry_and_per_tool_sends_the_schema_as_it_is() {
    let off = ToolRegistry::new()
        .with(filter_tool())
        .with(list_files {})
        .with_strict(StrictMode::Off);
    let list = off.tool_list(Api::OpenAiChat).value();
    assert_eq!(list[0]["function"]["strict"], false);
    assert_eq!(
        list[0]["function"]["parameters"],
        *off.definitions()[0].input_schema
    );
    assert_eq!(list[1]["function"]["strict"], false);
    // Off, the arguments are the model's own: its null for page_size is a decoding error.
    assert_eq!(
        answer(&off, "find", r#"{"query":"q","filter":null}"#),
        r#"{"query":"q","filter":null}"#
    );
    assert!(off
        .call_blocking(&ToolCall::new(
            "1",
            "list_files",
            r#"{"folder":"d","page_size":null}"#
        ))
        .is_error());

    // One tool off; the registry's default stays for the others and for tools added later.
    let mut mixed = ToolRegistry::new()
        .with(filter_tool())
        .with_tool_strict("find", StrictMode::Off);
    mixed.register(list_files {}).unwrap();
    let list = OpenAiChat::tools(mixed.definitions());
    assert_eq!(list[0]["function"]["strict"], false);
    assert_eq!(list[1]["function"]["strict"], true);
    assert_eq!(*mixed.tool_list(Api::OpenAiChat).value(), list);
    // A registry-wide setting made later does not undo the tool's own.
    let mixed = mixed.with_strict(StrictMode::Auto);
    assert_eq!(
        mixed.tool_list(Api::OpenAiChat).value()[0]["function"]["strict"],
        false
    );
    let back = mixed.with_tool_strict("find", StrictMode::Auto);
    assert_eq!(
        back.tool_list(Api::OpenAiChat).value()[0]["function"]["strict"],
        true
    );
}

#[test]
fn a_tool_keeps_its_strict_setting_when_composed_into_another_registry() {
    let imported = ToolRegistry::new()
        .with(filter_tool())
        .with_strict(StrictMode::Off);
    let app = tools![list_files].merge(&imported, Shape::new()).unwrap();
    let list = app.tool_list(Api::OpenAiChat).value();
    assert_eq!(list[0]["function"]["strict"], true);
    assert_eq!(list[1]["function"]["strict"], false);
    assert_eq!(
        answer(&app, "find", r#"{"query":"q","filter":null}"#),
        r#"{"query":"q","filter":null}"#
    );
}

#[test]
fn a_schema_that_cannot_be_strict_goes_plain_and_its_nulls_stay() {
    let open = Echo {
        name: "tagged",
        schema: json!({
            "type": "object",
            "properties": {
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "cursor": {"type": "string"}
            }
        }),
    };
    let registry = ToolRegistry::new().with(open);
    let sent = &registry.tool_list(Api::OpenAiChat).value()[0]["function"];
    assert_eq!(sent["strict"], false);
    assert_eq!(
        sent["parameters"]["properties"]["cursor"],
        json!({"type": "string"})
    );
    assert_eq!(
        answer(&registry, "tagged", r#"{"cursor":null}"#),
        r#"{"cursor":null}"#
    );
    let report = ToolChecks::all().allow_gemini_losses().run(&registry);
    assert_eq!(report.problems.len(), 1);
    assert_eq!(report.problems[0].kind, ProblemKind::NotStrict);
    // Set to Off on purpose: not a problem.
    let off = ToolRegistry::new()
        .with(Echo {
            name: "tagged",
            schema: registry.definitions()[0].input_schema.as_ref().clone(),
        })
        .with_tool_strict("tagged", StrictMode::Off);
    ToolChecks::all().allow_gemini_losses().assert(&off);
}

#[test]
fn tool_checks_pass_tools_with_optional_parameters() {
    ToolChecks::all().assert(&tools![list_files]);
    ToolChecks::all()
        .allow_gemini_losses()
        .assert(&ToolRegistry::new().with(filter_tool()));
}
