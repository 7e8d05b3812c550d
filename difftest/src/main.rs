//! Records what the `tool-parser` crate (v1.10.0) makes of each format's corpus, as fixtures
//! the normal tests compare against (`tests/tests/macros/formats_differential.rs`):
//! `tests/fixtures/formats/<format>.tool_parser.json`.
//!
//! Run from this directory: `cargo run --release`. Harmony has no parser in tool-parser.

use std::path::{Path, PathBuf};

use openai_protocol::common::Tool;
use serde_json::{json, Value};
use tool_parser::{LlamaParser, MistralParser, PythonicParser, QwenParser, ToolParser};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/formats")
}

fn tools() -> Vec<Tool> {
    let text = std::fs::read_to_string(fixtures().join("schemas.json")).unwrap();
    let schemas: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    let list: Vec<Value> = schemas
        .into_iter()
        .map(|(name, parameters)| {
            json!({"type": "function", "function": {"name": name, "parameters": parameters}})
        })
        .collect();
    serde_json::from_value(Value::Array(list)).unwrap()
}

fn arguments(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

fn make(stem: &str) -> Box<dyn ToolParser> {
    match stem {
        "hermes" => Box::new(QwenParser::new()),
        "qwen3_coder" => Box::new(tool_parser::parsers::qwen3_coder::Qwen3CoderParser::new()),
        "llama" => Box::new(LlamaParser::new()),
        "pythonic" => Box::new(PythonicParser::new()),
        _ => Box::new(MistralParser::new()),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tools = tools();
    for stem in ["hermes", "qwen3_coder", "mistral", "llama", "pythonic"] {
        let text = std::fs::read_to_string(fixtures().join(format!("{stem}.corpus.json"))).unwrap();
        let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
        let mut records = Vec::new();
        for case in cases {
            let input = case["text"].as_str().unwrap();
            let parser = make(stem);
            // The one-shot API with the schemas (tool-parser's incremental API also drops a
            // call whose name is not among `tools`, which would hide what the format reading
            // does; its speed is measured in benches/compare.rs).
            let (normal, calls) = match parser.parse_complete_with_tools(input, &tools).await {
                Ok((normal, calls)) => (Value::String(normal), calls),
                Err(e) => (Value::String(format!("ERROR: {e}")), Vec::new()),
            };
            let calls: Vec<Value> = calls
                .iter()
                .map(|c| json!({"name": c.function.name, "arguments": arguments(&c.function.arguments)}))
                .collect();
            records.push(json!({
                "name": case["name"],
                "calls": calls,
                "normal_text": normal,
            }));
        }
        let path = fixtures().join(format!("{stem}.tool_parser.json"));
        let mut out = serde_json::to_string_pretty(&records).unwrap();
        out.push('\n');
        std::fs::write(&path, out).unwrap();
        println!("{stem}: {} cases -> {}", records.len(), path.display());
    }
}
