//! The code tool's description: how programs run, the tools they may call, and those
//! tools as TypeScript declarations generated from their schemas.

use std::fmt::Write;

use tool_core::ToolDefinition;

use crate::limits::CodeLimits;
use crate::typescript::{doc_text, is_identifier, ts_params, ts_type};

/// The description of the `code` parameter.
pub(crate) const CODE_PARAMETER: &str = "JavaScript: the body of an async function. Call tools \
     as `await tools.NAME({...})`, and `return` the answer.";

/// The description the model reads: what the tool does, its rules and limits, the names
/// of the callable tools, and their declarations.
pub(crate) fn describe(callable: &[&ToolDefinition], limits: &CodeLimits) -> String {
    let mut out = String::new();
    out.push_str(
        "Runs a JavaScript program that calls the tools declared below, so that many calls \
         (dependent, in parallel, in loops) take one step and only what you return comes back. \
         `code` is the body of an async function: `await` each call, `return` the answer. \
         The result is the program's console.log output and its return value. A failed call \
         throws an Error whose message says why and whose `code` is the error code (e.g. \
         INVALID_PARAM, NOT_FOUND, PERMISSION_DENIED); catch it with try/catch. Calls that \
         need approval may be refused. There is no network, file system, module, timer or \
         process access.",
    );
    let _ = write!(
        out,
        " Limits per program: {} ms, {} tool calls, {} bytes of output.",
        limits.wall_time.as_millis(),
        limits.max_calls,
        limits.max_result_bytes
    );
    out.push_str("\n\nCallable tools: ");
    if callable.is_empty() {
        out.push_str("none.");
    } else {
        let names: Vec<&str> = callable.iter().map(|d| d.name.as_str()).collect();
        out.push_str(&names.join(", "));
        out.push('.');
    }
    out.push_str("\n\ndeclare const tools: {\n");
    for definition in callable {
        let _ = writeln!(out, "  /** {} */", doc_text(&definition.description));
        let name = if is_identifier(&definition.name) {
            definition.name.clone()
        } else {
            serde_json::Value::String(definition.name.clone()).to_string()
        };
        let result = match &definition.output_schema {
            // A result that is not an object is declared wrapped, `{"result": T}` (MCP wants
            // an object schema), but reaches the program as it is.
            Some(schema) if schema.get("x-fastmcp-wrap-result") == Some(&true.into()) => {
                ts_type(&schema["properties"]["result"], schema)
            }
            Some(schema) => ts_type(schema, schema),
            None => "unknown".to_string(),
        };
        let _ = writeln!(
            out,
            "  {name}({}): Promise<{result}>;",
            ts_params(&definition.input_schema)
        );
    }
    out.push_str("};");
    out
}
