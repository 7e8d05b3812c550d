//! The other half of each text format: the system-prompt tool block in the model family's
//! own convention, and the message that carries a tool's result back, so that a
//! raw-completion user gets the whole loop from one registry.
//!
//! | format | tools block | result |
//! |---|---|---|
//! | `UseTool` | [`DEFAULT_TOOLS_HEADER`](super::DEFAULT_TOOLS_HEADER) + `<tool>` fragments | `<tool_results>` ([`render_tool_results`](super::render_tool_results)) |
//! | `Hermes` | `# Tools` + `<tools>` with one JSON signature per line (Qwen2.5/Qwen3 template) | `<tool_response>\n...\n</tool_response>` |
//! | `QwenXml` | `# Tools` + `<tools>` of `<function>`/`<parameter>` elements (Qwen3-Coder template) | `<tool_response>\n...\n</tool_response>` |
//! | `Mistral` | `[AVAILABLE_TOOLS][...][/AVAILABLE_TOOLS]` | `[TOOL_RESULTS]{"call_id": ..., "content": ...}[/TOOL_RESULTS]` |
//! | `Harmony` | the developer message's `# Tools` section (`namespace functions { ... }`) | `<\|start\|>functions.NAME to=assistant<\|channel\|>commentary<\|message\|>...<\|end\|>` |
//!
//! JSON in the blocks writes `<` and `>` as `\u003c`/`\u003e` (the same JSON), so no
//! description can close `<tools>`; XML text is escaped with [`escape_text`].

use serde_json::Value;

use super::escape::escape_text;
use super::{render_tool_results, render_tools_section, ToolResultItem, DEFAULT_TOOLS_HEADER};
use crate::definition::ToolDefinition;
use crate::parse::ToolFormat;
use crate::registry::ToolRegistry;
use crate::response::ToolResponse;

/// The system-prompt tool block for `format` listing `definitions`.
///
/// ```
/// use std::sync::Arc;
/// use tool_core::ToolDefinition;
/// use tool_core::parse::ToolFormat;
/// let def = ToolDefinition::new(
///     "search",
///     "Searches </tools>.",
///     Arc::new(serde_json::json!({"type": "object", "properties": {"q": {"type": "string"}}})),
/// );
/// let block = tool_core::prompt::render_format_tools(ToolFormat::Hermes, &[def]);
/// assert!(block.contains("<tools>\n{\"type\":\"function\",\"function\":{\"name\":\"search\",\"description\":\"Searches \\u003c/tools\\u003e.\""));
/// ```
pub fn render_format_tools(format: ToolFormat, definitions: &[ToolDefinition]) -> String {
    match format {
        ToolFormat::UseTool => render_tools_section(DEFAULT_TOOLS_HEADER, definitions),
        ToolFormat::Hermes => hermes_tools(definitions),
        ToolFormat::QwenXml => qwen_xml_tools(definitions),
        ToolFormat::Mistral => mistral_tools(definitions),
        ToolFormat::Harmony => harmony_tools(definitions),
    }
}

/// The message that returns `response` of call `id` to tool `name`, in `format`'s convention.
///
/// ```
/// use tool_core::parse::ToolFormat;
/// use tool_core::ToolResponse;
/// let r = ToolResponse::success("21 C");
/// let msg = tool_core::prompt::render_format_result(ToolFormat::Hermes, "call_0", "get_weather", &r);
/// assert_eq!(msg, "<tool_response>\n21 C\n</tool_response>");
/// let msg = tool_core::prompt::render_format_result(ToolFormat::Harmony, "call_0", "get_weather", &r);
/// assert_eq!(msg, "<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>21 C<|end|>");
/// ```
pub fn render_format_result(
    format: ToolFormat,
    id: &str,
    name: &str,
    response: &ToolResponse,
) -> String {
    let text = response.model_text();
    match format {
        ToolFormat::UseTool => render_tool_results(&[ToolResultItem { name, response }]),
        ToolFormat::Hermes | ToolFormat::QwenXml => {
            format!("<tool_response>\n{text}\n</tool_response>")
        }
        ToolFormat::Mistral => format!(
            "[TOOL_RESULTS]{}[/TOOL_RESULTS]",
            serde_json::json!({"call_id": id, "content": text})
        ),
        ToolFormat::Harmony => format!(
            "<|start|>functions.{name} to=assistant<|channel|>commentary<|message|>{text}<|end|>"
        ),
    }
}

/// One OpenAI-style function signature, as Hermes/Qwen and Mistral templates list them.
fn signature(def: &ToolDefinition) -> String {
    let value = serde_json::json!({
        "type": "function",
        "function": {
            "name": def.name,
            "description": def.description,
            "parameters": &*def.input_schema,
        }
    });
    safe_json(&value)
}

/// Compact JSON with `<` and `>` written as escapes (they can only occur inside strings).
fn safe_json(value: &Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
}

fn hermes_tools(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n<tools>",
    );
    for def in definitions {
        out.push('\n');
        out.push_str(&signature(def));
    }
    out.push_str(
        "\n</tools>\n\nFor each function call, return a json object with function name and \
         arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n\
         {\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
    );
    out
}

fn mistral_tools(definitions: &[ToolDefinition]) -> String {
    let list: Vec<String> = definitions.iter().map(signature).collect();
    // `[/` occurs only inside JSON strings, where `\/` is the same `/`: no description can
    // write `[/AVAILABLE_TOOLS]`.
    let list = list.join(", ").replace("[/", "[\\/");
    format!("[AVAILABLE_TOOLS][{list}][/AVAILABLE_TOOLS]")
}

fn qwen_xml_tools(definitions: &[ToolDefinition]) -> String {
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

fn harmony_tools(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from("# Tools\n\n## functions\n\nnamespace functions {\n");
    for def in definitions {
        out.push('\n');
        comment(&def.description, "", &mut out);
        out.push_str("type ");
        out.push_str(&def.name);
        let properties = def
            .input_schema
            .get("properties")
            .and_then(Value::as_object);
        match properties.filter(|p| !p.is_empty()) {
            None => out.push_str(" = () => any;\n"),
            Some(properties) => {
                out.push_str(" = (_: {\n");
                let required: Vec<&str> = def
                    .input_schema
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                for (key, property) in properties {
                    if let Some(d) = property.get("description").and_then(Value::as_str) {
                        comment(d, "", &mut out);
                    }
                    out.push_str(key);
                    if !required.contains(&key.as_str()) {
                        out.push('?');
                    }
                    out.push_str(": ");
                    out.push_str(&ts_type(property));
                    out.push_str(",\n");
                }
                out.push_str("}) => any;\n");
            }
        }
    }
    out.push_str("\n} // namespace functions");
    out
}

fn comment(text: &str, indent: &str, out: &mut String) {
    for line in text.lines() {
        out.push_str(indent);
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
}

/// A TypeScript type for a JSON Schema, as harmony lists parameters.
fn ts_type(schema: &Value) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            return branches.iter().map(ts_type).collect::<Vec<_>>().join(" | ");
        }
    }
    match schema.get("type") {
        Some(Value::Array(list)) => list
            .iter()
            .map(|t| ts_type(&serde_json::json!({"type": t})))
            .collect::<Vec<_>>()
            .join(" | "),
        Some(Value::String(t)) => match t.as_str() {
            "string" => "string".to_string(),
            "integer" | "number" => "number".to_string(),
            "boolean" => "boolean".to_string(),
            "null" => "null".to_string(),
            "array" => match schema.get("items") {
                Some(items) => format!("{}[]", ts_type(items)),
                None => "any[]".to_string(),
            },
            "object" => match schema.get("properties").and_then(Value::as_object) {
                Some(props) if !props.is_empty() => {
                    let fields: Vec<String> = props
                        .iter()
                        .map(|(k, v)| format!("{k}: {}", ts_type(v)))
                        .collect();
                    format!("{{ {} }}", fields.join(", "))
                }
                _ => "object".to_string(),
            },
            _ => "any".to_string(),
        },
        _ => "any".to_string(),
    }
}

impl ToolRegistry {
    /// The system-prompt tool block for `format` ([`render_format_tools`] over this registry).
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// use tool_core::parse::ToolFormat;
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// let block = tools![add].format_tools_prompt(ToolFormat::Harmony);
    /// assert!(block.contains("// Adds two numbers.\ntype add = (_: {\na: number,\nb: number,\n}) => any;"));
    /// ```
    pub fn format_tools_prompt(&self, format: ToolFormat) -> String {
        render_format_tools(format, self.definitions())
    }
}
