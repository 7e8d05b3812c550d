//! Anthropic `input_schema` and MCP `tools/list`: golden files and the rule checkers.

use crate::support;

use serde_json::json;
use support::{checkers, fixtures, golden};
use tool_core::provider::{
    anthropic, check_definition, mcp, Anthropic, Api, ChatApi, Gemini, OpenAiChat, OpenAiResponses,
};

#[test]
fn anthropic_tools_match_golden() {
    let tools = Anthropic::tools(fixtures::registry().definitions());
    golden::assert_golden("anthropic_tools.json", &golden::pretty(&tools));
}

#[test]
fn anthropic_strict_tools_match_golden() {
    let tools = anthropic::tools_strict(fixtures::registry().definitions());
    golden::assert_golden("anthropic_strict_tools.json", &golden::pretty(&tools));
}

#[test]
fn every_anthropic_schema_passes_the_checker() {
    for def in fixtures::registry().definitions() {
        let d = anthropic::input_schema(&def.input_schema);
        let errors = checkers::anthropic_input_schema(&d.schema);
        assert!(errors.is_empty(), "{}: {errors:#?}", def.name);
    }
}

#[test]
fn anthropic_strict_is_withheld_for_maps_and_recursion() {
    let registry = fixtures::registry();
    for (name, strict) in [
        ("get_weather", true),
        ("ship_parcel", true),
        ("draw", true),
        ("set_metadata", false),
        ("create_categories", false),
    ] {
        let d = anthropic::input_schema(&registry.definition(name).unwrap().input_schema);
        assert_eq!(d.strict, strict, "{name}: {}", d.report());
    }
}

#[test]
fn anthropic_root_combinators_are_removed() {
    let d = anthropic::input_schema(&json!({"anyOf": [{"type": "string"}]}));
    assert!(checkers::anthropic_input_schema(&d.schema).is_empty());
    assert!(d.changes.iter().any(|c| c.message.contains("root `anyOf`")));
}

#[test]
fn mcp_tools_list_matches_golden_and_checker() {
    let result = mcp::tools(fixtures::registry().definitions());
    for tool in result["tools"].as_array().unwrap() {
        let errors = checkers::mcp_tool(tool);
        assert!(errors.is_empty(), "{}: {errors:#?}", tool["name"]);
    }
    golden::assert_golden("mcp_tools_list.json", &golden::pretty(&result));
}

#[test]
fn mcp_annotations_use_hint_names() {
    let registry = fixtures::registry();
    let tool = mcp::tools(std::slice::from_ref(registry.definition("search").unwrap()))["tools"][0]
        .clone();
    assert_eq!(
        tool["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true})
    );
    assert!(
        mcp::tools(std::slice::from_ref(registry.definition("draw").unwrap()))["tools"][0]
            .clone()
            .get("annotations")
            .is_none()
    );
}

#[test]
fn fixture_names_and_descriptions_pass_every_provider() {
    for def in fixtures::registry().definitions() {
        for &dialect in Api::ALL {
            assert!(
                check_definition(dialect, def).is_empty(),
                "{} {}",
                def.name,
                dialect.as_str()
            );
        }
    }
}

#[test]
fn names_and_descriptions_outside_a_provider_rules_are_reported() {
    use std::sync::Arc;
    use tool_core::ToolDefinition;
    let def = |name: &str, description: String, schema: serde_json::Value| {
        ToolDefinition::new(name, description, Arc::new(schema))
    };
    let empty = json!({"type": "object", "properties": {}});
    let long = def("ok_name", "d".repeat(1025), empty.clone());
    assert_eq!(check_definition(Api::OpenAiChat, &long).len(), 1);
    assert!(check_definition(Api::Gemini, &long).is_empty());
    let dotted = def("ns.tool", "d".into(), empty.clone());
    assert!(check_definition(Api::Gemini, &dotted).is_empty());
    assert!(check_definition(Api::Mcp, &dotted).is_empty());
    assert_eq!(check_definition(Api::OpenAiChat, &dotted).len(), 1);
    let dashed_param = def(
        "f",
        "d".into(),
        json!({"type": "object", "properties": {"max-items": {"type": "integer"}}}),
    );
    assert_eq!(check_definition(Api::Gemini, &dashed_param).len(), 1);
    assert!(check_definition(Api::Anthropic, &dashed_param).is_empty());
}

/// Tomorrow's forecast for a city.
#[tool_core::tool(title = "Weather forecast")]
fn titled_forecast(city: String) -> String {
    city
}

#[test]
fn only_mcp_carries_a_title() {
    let registry = tool_core::tools![titled_forecast];
    let def = &registry.definitions()[0];
    assert_eq!(def.title.as_deref(), Some("Weather forecast"));
    assert_eq!(
        mcp::tools(std::slice::from_ref(def))["tools"][0].clone()["title"],
        "Weather forecast"
    );
    for (dialect, rendered) in [
        (
            "openai",
            OpenAiChat::tools(std::slice::from_ref(def))[0].to_string(),
        ),
        (
            "openai_responses",
            OpenAiResponses::tools(std::slice::from_ref(def))[0].to_string(),
        ),
        (
            "anthropic",
            Anthropic::tools(std::slice::from_ref(def))[0].to_string(),
        ),
        (
            "gemini",
            Gemini::tools(std::slice::from_ref(def))[0]["function_declarations"][0]
                .clone()
                .to_string(),
        ),
        ("xml prompt", registry.tools_prompt().to_string()),
    ] {
        assert!(
            !rendered.contains("Weather forecast"),
            "{dialect}: {rendered}"
        );
        assert!(
            rendered.contains("Tomorrow's forecast"),
            "{dialect}: {rendered}"
        );
    }
}
