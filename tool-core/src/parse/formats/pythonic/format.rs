//! Pythonic calls as a [`TextFormat`], following vLLM's `tool_chat_template_llama4_pythonic.jinja`
//! with the application's own system message (the tool list after it).

use serde_json::Value;

use super::call::{PythonicCall, EXAMPLE, PYTHON_START};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::bare::BareParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::written::{
    arguments, each_call, indented_json, json_string, openai_tool,
};
use crate::response::ToolResponse;

pub(crate) struct Pythonic;

/// The template's line before the tool list.
const INTRO: &str = "Here is a list of functions in JSON format that you can invoke. Use exact \
                     format: [func_name1(param1=value1, param2=value2), func_name2(...)]\n";

/// Where the first call list of a reply starts: `<|python_start|>`, or a `[` followed by a
/// name and `(`.
fn first_list(text: &str) -> Option<usize> {
    let tag = text.find(PYTHON_START);
    let list = text.match_indices('[').map(|(at, _)| at).find(|&at| {
        let rest = text.get(at + 1..).unwrap_or_default().trim_start();
        let name = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len());
        name > 0
            && rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && rest.get(name..).is_some_and(|r| r.starts_with('('))
    });
    match (tag, list) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `value` as a Python literal (what the parser reads back to the same JSON).
fn python_literal(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => python_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                python_literal(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (k, (key, item)) in map.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                python_string(key, out);
                out.push_str(": ");
                python_literal(item, out);
            }
            out.push('}');
        }
    }
}

fn python_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

impl TextFormat for Pythonic {
    fn name(&self) -> &'static str {
        "pythonic"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        first_list(text)
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:pythonic"
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        let tools: Vec<Value> = definitions.iter().map(openai_tool).collect();
        format!("{INTRO}{}", indented_json(&Value::Array(tools)))
    }

    /// The `ipython` message's content: the result as a JSON string.
    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        json_string(&response.model_text())
    }

    /// `[NAME(KEY=VALUE, ...), ...]` with the values as Python literals (the template writes
    /// every value in double quotes, which would turn numbers into strings).
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        out.push('[');
        each_call(calls, ", ", out, |call, out| {
            out.push_str(call.name.trim());
            out.push('(');
            if let Ok(Value::Object(args)) = serde_json::from_str::<Value>(arguments(call)) {
                for (k, (key, value)) in args.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(key);
                    out.push('=');
                    python_literal(value, out);
                }
            }
            out.push(')');
        });
        out.push(']');
    }

    /// The text between the call's parentheses, as written.
    fn raw_arguments(&self, block: &str) -> String {
        let open = block.find('(').map_or(0, |at| at + 1);
        let close = block
            .rfind(')')
            .filter(|&at| at >= open)
            .unwrap_or(block.len());
        block.get(open..close).unwrap_or(block).trim().to_string()
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Pythonic(BareParser::<PythonicCall>::new(options))
    }
}

#[cfg(test)]
mod tests {
    use super::super::literal::calls;
    use super::*;

    #[test]
    fn written_calls_read_back_to_the_same_arguments() {
        let args = r#"{"s":"a \"q\"\n\\ é","n":-1.5,"i":3,"b":true,"z":null,"l":[1,{"k":"v"}]}"#;
        let call = ToolCall::new("call_0", "f", args);
        let mut out = String::new();
        Pythonic.write_calls(&[call.clone(), call], &mut out);
        let read = calls(&out).unwrap();
        assert_eq!(read.len(), 2);
        let back: Value = serde_json::from_str(read[1].arguments.as_ref().unwrap()).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(args).unwrap());
    }

    #[test]
    fn the_first_list_is_found_after_prose() {
        assert_eq!(first_list("see [1] and [ f(a=1)]"), Some(12));
        assert_eq!(first_list("x<|python_start|>[f()]"), Some(1));
        assert_eq!(first_list("[link](url)"), None);
    }
}
