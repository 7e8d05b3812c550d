//! Gemini dialects: golden `function_declarations` with `parameters` (OpenAPI subset) and with
//! `parametersJsonSchema`, and the subset checker over every generated schema.

use crate::support;

use serde_json::json;
use support::{checkers, fixtures, golden};
use tool_core::provider::{gemini, ChatApi, Gemini};

#[test]
fn parameters_declarations_match_golden() {
    let tools = Gemini::tools(fixtures::registry().definitions());
    golden::assert_golden("gemini_tools.json", &golden::pretty(&tools));
}

#[test]
fn parameters_json_schema_declarations_match_golden() {
    let tools = gemini::tools_json_schema(fixtures::registry().definitions());
    golden::assert_golden("gemini_json_schema_tools.json", &golden::pretty(&tools));
}

#[test]
fn report_matches_golden() {
    let mut out = String::new();
    for def in fixtures::registry().definitions() {
        out.push_str(&format!(
            "## {}\n{}\n",
            def.name,
            gemini::parameters_schema(&def.input_schema).report()
        ));
    }
    golden::assert_golden("gemini_report.txt", &out);
}

#[test]
fn every_parameters_schema_passes_the_subset_checker() {
    let tools = Gemini::tools(fixtures::registry().definitions());
    for decl in tools[0]["function_declarations"].as_array().unwrap() {
        if let Some(parameters) = decl.get("parameters") {
            let errors = checkers::gemini_parameters(parameters);
            assert!(errors.is_empty(), "{}: {errors:#?}", decl["name"]);
        }
    }
}

#[test]
fn tool_without_arguments_has_no_parameters() {
    let registry = fixtures::registry();
    let decl = Gemini::tools(std::slice::from_ref(
        registry.definition("server_time").unwrap(),
    ))[0]["function_declarations"][0]
        .clone();
    assert_eq!(
        decl,
        json!({"name": "server_time", "description": "Returns the server time."})
    );
}

#[test]
fn recursion_is_unrolled_to_the_limit_then_cut() {
    let registry = fixtures::registry();
    let d = gemini::parameters_schema(
        &registry
            .definition("create_categories")
            .unwrap()
            .input_schema,
    );
    let mut node = &d.schema["properties"]["root"];
    let mut levels = 1;
    while let Some(children) = node.get("properties").and_then(|p| p.get("children")) {
        node = &children["items"];
        levels += 1;
    }
    assert_eq!(levels, gemini::GEMINI_RECURSION_LIMIT);
    assert!(!d.schema.to_string().contains("$ref"));
    assert!(d
        .changes
        .iter()
        .any(|c| c.message.contains("recursion limit")));
}

#[test]
fn nullable_replaces_null_types_and_const_becomes_enum() {
    let registry = fixtures::registry();
    let d = gemini::parameters_schema(&registry.definition("search").unwrap().input_schema);
    assert_eq!(
        d.schema["properties"]["max_price"],
        json!({"type": "number", "format": "double", "description": "Only items cheaper than this, in euros.", "nullable": true})
    );
    let order = &d.schema["properties"]["order"];
    assert_eq!(order["enum"], json!(["relevance", "newest"]));
    assert!(order["description"]
        .as_str()
        .unwrap()
        .contains("relevance: Most relevant first"));
    let draw = gemini::parameters_schema(&registry.definition("draw").unwrap().input_schema);
    assert_eq!(
        draw.schema["properties"]["shapes"]["items"]["anyOf"][0]["properties"]["kind"]["enum"],
        json!(["circle"])
    );
}

#[test]
fn open_map_drops_additional_properties_and_describes_values() {
    let registry = fixtures::registry();
    let d = gemini::parameters_schema(&registry.definition("set_metadata").unwrap().input_schema);
    let metadata = &d.schema["properties"]["metadata"];
    assert!(metadata.get("additionalProperties").is_none());
    assert!(metadata["description"]
        .as_str()
        .unwrap()
        .contains("each value"));
}

#[test]
fn a_tree_with_many_recursive_fields_stays_small() {
    let mut props = serde_json::Map::new();
    for i in 0..6 {
        props.insert(
            format!("c{i}"),
            json!({"type": "array", "items": {"$ref": "#/$defs/Node"}}),
        );
    }
    props.insert("v".into(), json!({"type": "string"}));
    let schema = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": props}}});
    let d = gemini::parameters_schema(&schema);
    assert!(d.schema.to_string().len() < 500_000);
    assert!(checkers::gemini_parameters(&d.schema).is_empty());
}
