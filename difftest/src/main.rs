//! Records what the `tool-parser` crate (v1.10.0) makes of each format's corpus, as fixtures
//! the normal tests compare against (`tests/tests/macros/formats_differential*`):
//! `tests/fixtures/formats/<format>.tool_parser.json`.
//!
//! Run from this directory: `cargo run --release`. Harmony has no parser in tool-parser.
//!
//! Each record holds the one-shot parse (`calls`, `normal_text`) and what tool-parser's
//! streaming API reports when the reply arrives in chunks of 1..N bytes (`streamed`, one entry
//! per chunk size and cutting mode).

mod streamed;

use std::path::{Path, PathBuf};

use openai_protocol::common::Tool;
use serde_json::{json, Value};
use tool_parser::parsers::{
    DeepSeek31Parser, DeepSeekDsmlParser, DeepSeekParser, Glm4MoeParser, KimiK2Parser,
    MinimaxM2Parser,
};
use tool_parser::{LlamaParser, MistralParser, PythonicParser, QwenParser, ToolParser};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/formats")
}

/// The corpus's schemas (`schemas.json`, which our parsers get too), as tool-parser's tools.
fn tools() -> Vec<Tool> {
    let text = std::fs::read_to_string(fixtures().join("schemas.json")).unwrap();
    let schemas: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    let list: Vec<Value> = schemas
        .into_iter()
        .map(|(name, parameters)| tool(&name, parameters))
        .collect();
    serde_json::from_value(Value::Array(list)).unwrap()
}

fn tool(name: &str, parameters: Value) -> Value {
    json!({"type": "function", "function": {"name": name, "parameters": parameters}})
}

/// A call's arguments as JSON, keys sorted: tool-parser's MiniMax-M2 parser writes them in a
/// different order from run to run, and the tests compare the objects, not their key order.
fn arguments(text: &str) -> Value {
    serde_json::from_str(text)
        .map(sorted)
        .unwrap_or_else(|_| Value::String(text.to_string()))
}

fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// tool-parser's parser for one of our corpora. GLM: the GLM-4.7 parser, whose pattern reads
/// both the GLM-4.5/4.6 layout (name, newline, pairs) and GLM-4.7's tight one, as our one
/// GLM format does.
fn make(stem: &str) -> Box<dyn ToolParser> {
    match stem {
        "hermes" => Box::new(QwenParser::new()),
        "qwen3_coder" => Box::new(tool_parser::parsers::qwen_xml::QwenXmlParser::new()),
        "llama" => Box::new(LlamaParser::new()),
        "pythonic" => Box::new(PythonicParser::new()),
        "mistral" => Box::new(MistralParser::new()),
        "deepseek_v3" => Box::new(DeepSeekParser::new()),
        "deepseek_v31" => Box::new(DeepSeek31Parser::new()),
        "deepseek_v32" => Box::new(DeepSeekDsmlParser::v32()),
        "deepseek_v4" => Box::new(DeepSeekDsmlParser::v4()),
        "glm" => Box::new(Glm4MoeParser::glm47()),
        "minimax" => Box::new(MinimaxM2Parser::new()),
        "kimi_k2" => Box::new(KimiK2Parser::new()),
        other => panic!("no tool-parser parser for {other}"),
    }
}

/// The formats recorded, each whole and streamed.
const FORMATS: &[&str] = &[
    "hermes",
    "qwen3_coder",
    "mistral",
    "llama",
    "pythonic",
    "deepseek_v3",
    "deepseek_v31",
    "deepseek_v32",
    "deepseek_v4",
    "glm",
    "minimax",
    "kimi_k2",
];

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // A panic inside tool-parser is recorded (see `streamed::record`); its message is there.
    std::panic::set_hook(Box::new(|_| {}));
    let tools = tools();
    for stem in FORMATS {
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
            let named: Vec<String> = calls.iter().map(|c| c.function.name.clone()).collect();
            let calls: Vec<Value> = calls
                .iter()
                .map(|c| json!({"name": c.function.name, "arguments": arguments(&c.function.arguments)}))
                .collect();
            let mut record = json!({
                "name": case["name"],
                "calls": calls,
                "normal_text": normal,
            });
            record["streamed"] = streamed::record(stem, input, &tools, &named).await;
            records.push(record);
        }
        let path = fixtures().join(format!("{stem}.tool_parser.json"));
        let mut out = serde_json::to_string_pretty(&records).unwrap();
        out.push('\n');
        std::fs::write(&path, out).unwrap();
        println!("{stem}: {} cases -> {}", records.len(), path.display());
    }
}
