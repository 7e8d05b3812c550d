//! The Qwen3-Coder template's tool block: `<tools>` of `<function>`/`<parameter>` elements,
//! XML text escaped so that no description can close an element.

use serde_json::Value;

use crate::definition::ToolDefinition;
use crate::parse::formats::written::safe_json;
use crate::prompt::escape_text;

pub(super) fn qwen3_coder_tools(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from("# Tools\n\nYou have access to the following functions:\n\n<tools>");
    for def in definitions {
        out.push_str("\n<function>\n<name>");
        escape_text(&def.name, &mut out);
        out.push_str("</name>\n<description>");
        escape_text(&def.description, &mut out);
        out.push_str("</description>\n<parameters>");
        let properties = def
            .input_schema
            .get("properties")
            .and_then(Value::as_object);
        for (key, property) in properties.into_iter().flatten() {
            out.push_str("\n<parameter>\n<name>");
            escape_text(key, &mut out);
            out.push_str("</name>\n<type>");
            escape_text(&json_type(property), &mut out);
            out.push_str("</type>");
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                out.push_str("\n<description>");
                escape_text(description, &mut out);
                out.push_str("</description>");
            }
            out.push_str("\n</parameter>");
        }
        if let Some(required) = def.input_schema.get("required") {
            out.push_str("\n<required>");
            out.push_str(&safe_json(required));
            out.push_str("</required>");
        }
        out.push_str("\n</parameters>\n</function>");
    }
    out.push_str(
        "\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with \
         NO suffix:\n\n<tool_call>\n<function=example_function_name>\n\
         <parameter=example_parameter_1>\nvalue_1\n</parameter>\n\
         <parameter=example_parameter_2>\nThis is the value for the second parameter\n\
         that can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n\
         <IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner \
         <function=...></function> block must be nested within <tool_call></tool_call> XML \
         tags\n- Required parameters MUST be specified\n- You may provide optional reasoning \
         for your function call in natural language BEFORE the function call, but NOT after\n\
         - If there is no function call available, answer the question like normal with your \
         current knowledge and do not tell the user about function calls\n</IMPORTANT>",
    );
    out
}

/// The JSON type name of a property (`"string"`, `"integer"`, ...; a list joined by `|`).
fn json_type(property: &Value) -> String {
    match property.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("|"),
        _ if property.get("enum").is_some() => "enum".to_string(),
        _ => "object".to_string(),
    }
}
