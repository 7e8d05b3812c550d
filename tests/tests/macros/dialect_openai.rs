//! OpenAI strict dialect: golden tools arrays (Chat Completions and Responses), the report of
//! what changed, and the strict-mode checker over every generated schema.

use crate::support;

use serde_json::{json, Value};
use support::{checkers, fixtures, golden};
use tool_core::provider::{openai_chat, ChatApi, OpenAiChat, OpenAiResponses};

fn report() -> String {
    let mut out = String::new();
    for def in fixtures::registry().definitions() {
        let d = openai_chat::strict_schema(&def.input_schema);
        out.push_str(&format!(
            "## {} (strict: {})\n{}\n",
            def.name,
            d.strict,
            d.report()
        ));
    }
    out
}

#[test]
fn chat_completions_tools_match_golden() {
    let tools = OpenAiChat::tools(fixtures::registry().definitions());
    golden::assert_golden("openai_chat_tools.json", &golden::pretty(&tools));
}

#[test]
fn responses_tools_match_golden_and_always_send_strict() {
    let tools = OpenAiResponses::tools(fixtures::registry().definitions());
    for t in tools.as_array().unwrap() {
        assert!(t["strict"].is_boolean(), "{t}");
        assert!(t.get("function").is_none(), "Responses tools are flat");
    }
    golden::assert_golden("openai_responses_tools.json", &golden::pretty(&tools));
}

#[test]
fn strict_report_matches_golden() {
    golden::assert_golden("openai_report.txt", &report());
}

#[test]
fn every_strict_schema_passes_the_strict_checker() {
    for def in fixtures::registry().definitions() {
        let d = openai_chat::strict_schema(&def.input_schema);
        if d.strict {
            let errors = checkers::openai_strict(&d.schema);
            assert!(errors.is_empty(), "{}: {errors:#?}", def.name);
        } else {
            assert!(
                !d.not_strict.is_empty(),
                "{}: non-strict without a reason",
                def.name
            );
            assert_eq!(
                d.schema, *def.input_schema,
                "non-strict sends the canonical schema"
            );
        }
    }
}

#[test]
fn open_map_is_not_strict_and_says_why() {
    let registry = fixtures::registry();
    let d = openai_chat::strict_schema(&registry.definition("set_metadata").unwrap().input_schema);
    assert!(!d.strict);
    assert!(
        d.not_strict[0].path.ends_with("/metadata"),
        "{:?}",
        d.not_strict
    );
    assert!(d.not_strict[0].message.contains("open map"));
    let tool = OpenAiChat::tools(std::slice::from_ref(
        registry.definition("set_metadata").unwrap(),
    ))[0]
        .clone();
    assert_eq!(tool["function"]["strict"], false);
}

#[test]
fn optional_parameter_becomes_required_and_nullable() {
    let registry = fixtures::registry();
    let d = openai_chat::strict_schema(&registry.definition("get_weather").unwrap().input_schema);
    assert!(d.strict);
    assert_eq!(d.schema["required"], json!(["location", "unit"]));
    let unit = &d.schema["properties"]["unit"];
    assert!(unit["anyOf"]
        .as_array()
        .unwrap()
        .contains(&json!({"type": "null"})));
}

#[test]
fn defaulted_parameter_is_required_and_nullable_with_default_in_description() {
    let registry = fixtures::registry();
    let d = openai_chat::strict_schema(&registry.definition("search").unwrap().input_schema);
    let limit = &d.schema["properties"]["limit"];
    assert_eq!(
        limit["type"],
        json!(["integer", "null"]),
        "a defaulted parameter stays optional: null stands for left out"
    );
    assert!(limit.get("default").is_none());
    assert!(limit["description"]
        .as_str()
        .unwrap()
        .contains("default: 10"));
    assert!(limit.get("format").is_none());
}

#[test]
fn ref_with_description_is_inlined_and_recursion_stays_a_ref() {
    let registry = fixtures::registry();
    let d = openai_chat::strict_schema(
        &registry
            .definition("create_categories")
            .unwrap()
            .input_schema,
    );
    assert!(d.strict, "{}", d.report());
    let root = &d.schema["properties"]["root"];
    assert!(root.get("$ref").is_none());
    assert_eq!(root["description"], "The root of the tree.");
    assert_eq!(
        root["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Category"})
    );
    assert!(d.schema["$defs"]["Category"].is_object());
}

#[test]
fn tagged_enum_one_of_becomes_any_of() {
    let registry = fixtures::registry();
    let d = openai_chat::strict_schema(&registry.definition("draw").unwrap().input_schema);
    let text = d.schema.to_string();
    assert!(!text.contains("oneOf") && text.contains("anyOf"));
    assert!(!text.contains("\"const\""));
}

#[test]
fn unsupported_keywords_and_formats_move_into_description() {
    let schema = json!({"type": "object", "properties": {
        "email": {"type": "string", "format": "email", "minLength": 3},
        "site": {"type": "string", "format": "uri", "description": "Home page."}
    }, "additionalProperties": false});
    let d = openai_chat::strict_schema(&schema);
    assert!(d.strict);
    assert_eq!(
        d.schema["properties"]["email"],
        json!({"type": ["string", "null"], "format": "email", "description": "(minLength: 3)"})
    );
    assert_eq!(
        d.schema["properties"]["site"]["description"],
        "Home page. (format: uri)"
    );
    assert!(checkers::openai_strict(&d.schema).is_empty());
}

#[test]
fn structural_keywords_and_deep_nesting_are_not_strict() {
    let all_of = json!({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}]}}});
    assert!(!openai_chat::strict_schema(&all_of).strict);
    let mut deep = json!({"type": "string"});
    for _ in 0..12 {
        deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
    }
    let d = openai_chat::strict_schema(&deep);
    assert!(!d.strict);
    assert!(d.not_strict.iter().any(|n| n.message.contains("nested")));
}

#[test]
fn transform_is_deterministic_and_never_panics_on_odd_input() {
    for odd in [
        json!(null),
        json!(3),
        json!([]),
        json!({"$ref": "#/$defs/Missing"}),
        json!({"type": "object", "properties": {"a": 1}}),
    ] {
        let first = openai_chat::strict_schema(&odd);
        assert_eq!(first, openai_chat::strict_schema(&odd));
        let _: Value = first.schema;
    }
}
