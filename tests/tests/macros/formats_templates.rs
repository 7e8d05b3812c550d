//! Each format's tool block, result message and calls in the history compared with what the
//! model's own chat template renders for the same tools and conversation
//! (`tests/fixtures/formats/templates/`, each file's source in the README there).
//!
//! Jinja templates are rendered with `minijinja` set up as transformers sets up Jinja: Python's
//! string and dict methods (`pycompat`), `tojson` as `json.dumps` writes it (`", "` and `": "`,
//! non-ASCII kept) and `raise_exception`. DeepSeek V3.2 and V4 ship a Python encoder instead of
//! a template; its output for this conversation is recorded next to the templates.
//!
//! Where a format writes something byte for byte as its template does, the test says so with
//! `contains`; where it deliberately differs, the test checks the difference it documents
//! (docs/formats.md, "Checked against the chat templates") and nothing more lenient.

use std::io::Write;
use std::process::{Command, Stdio};

use minijinja::value::{Kwargs, Value as Jinja};
use minijinja::{Environment, Error, ErrorKind};
use serde_json::{json, Value};
use tool_core::model::{
    Message, Model, ModelRequest, ModelTurn, OfferedTools, ScriptedModel, TextMode, ToolResult,
};
use tool_core::parse::{FormatTools, ToolFormat};
use tool_core::{block_on, tool, tools, ToolCall, ToolDefinition, ToolResponse};

use crate::formats_support::fixture_path;

/// Current weather for a city.
#[tool]
fn get_weather(
    /// City name.
    city: String,
    /// Days of forecast.
    days: Option<u32>,
) -> String {
    format!("{city}: sunny for {} days", days.unwrap_or(1))
}

/// Adds numbers; the result is scaled. Ünïcödé ☃ stays as written.
#[tool]
fn add(values: Vec<i64>, scale: f64) -> f64 {
    values.iter().sum::<i64>() as f64 * scale
}

fn definitions() -> Vec<ToolDefinition> {
    tools![get_weather, add].definitions().to_vec()
}

/// The assistant turn of the conversation: two calls, a string, an integer, an array and a
/// float among their values.
fn calls() -> Vec<ToolCall> {
    vec![
        ToolCall::new("call_0", "get_weather", r#"{"city": "Paris", "days": 3}"#),
        ToolCall::new("call_1", "add", r#"{"values": [1, 2], "scale": 1.5}"#),
    ]
}

const RESULTS: [&str; 2] = ["Paris: sunny for 3 days", "4.5"];

/// The conversation in the OpenAI shape the templates are given (arguments as objects, as vLLM
/// and llama.cpp pass them to templates; the encoders take the JSON text).
fn openai_messages(arguments_as_text: bool) -> Vec<Value> {
    let tool_calls: Vec<Value> = calls()
        .iter()
        .map(|c| {
            let args: Value = serde_json::from_str(&c.arguments).unwrap();
            let args = if arguments_as_text {
                Value::String(c.arguments.clone())
            } else {
                args
            };
            json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": args}})
        })
        .collect();
    let mut messages = vec![
        json!({"role": "system", "content": "You are a helpful assistant."}),
        json!({"role": "user", "content": "Weather in Paris, and 1 + 2 scaled by 1.5?"}),
        json!({"role": "assistant", "content": "", "tool_calls": tool_calls}),
    ];
    for (call, result) in calls().iter().zip(RESULTS) {
        messages.push(
            json!({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result}),
        );
    }
    messages
}

fn openai_tools() -> Vec<Value> {
    definitions()
        .iter()
        .map(|d| {
            json!({"type": "function", "function": {
                "name": d.name, "description": d.description, "parameters": &*d.input_schema
            }})
        })
        .collect()
}

/// What this crate writes for the same conversation in `format`: the tool block, the
/// assistant turn as the history carries it, and the results message.
struct Ours {
    tools: String,
    calls: String,
    results: String,
}

fn ours(format: ToolFormat) -> Ours {
    let definitions = definitions();
    let tools = FormatTools::new(format, &definitions).prompt();
    // The history as a text model reads it: what the text mode sends for the conversation.
    let model = ScriptedModel::new([ModelTurn::text("first"), ModelTurn::text("second")]);
    let mode = TextMode::new(model.clone(), format);
    let results: Vec<ToolResult> = calls()
        .iter()
        .zip(RESULTS)
        .map(|(c, r)| ToolResult::new(c.id.clone(), c.name.clone(), ToolResponse::success(r)))
        .collect();
    let messages = [
        Message::user("Weather in Paris, and 1 + 2 scaled by 1.5?"),
        Message::Assistant(ModelTurn::with_calls("", calls())),
        Message::Tool { results },
    ];
    let registry = tools![get_weather, add];
    block_on(tool_core::model::collect_turn(mode.stream(
        ModelRequest::new(&messages, OfferedTools::all(&registry)),
    )))
    .unwrap();
    let seen = model.requests().remove(0).messages;
    let text = |m: &Message| match m {
        Message::Assistant(turn) => turn.text.clone(),
        Message::User { content } => content.clone(),
        other => panic!("{other:?}"),
    };
    Ours {
        tools,
        calls: text(&seen[1]),
        results: text(&seen[2]),
    }
}

/// `json.dumps(value)` with Python's defaults but `ensure_ascii=False`: what transformers'
/// `tojson` filter writes.
fn python_json(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                python_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                python_json(item, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    // transformers' chat-template environment.
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .build()
        .unwrap();
    env.set_syntax(syntax);
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    env.add_filter(
        "tojson",
        |value: Jinja, kwargs: Kwargs| -> Result<Jinja, Error> {
            // transformers' filter takes ensure_ascii, indent, separators, sort_keys; the templates
            // here pass only ensure_ascii=False, which is also its default.
            let _: Option<bool> = kwargs.get("ensure_ascii")?;
            kwargs.assert_all_used()?;
            let value = serde_json::to_value(&value)
                .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
            let mut out = String::new();
            python_json(&value, &mut out);
            Ok(Jinja::from_safe_string(out))
        },
    );
    env.add_function(
        "raise_exception",
        |message: String| -> Result<Jinja, Error> {
            Err(Error::new(ErrorKind::InvalidOperation, message))
        },
    );
    env
}

/// `template` rendered for the conversation, with the generation prompt.
fn render(template: &str) -> String {
    let source = std::fs::read_to_string(fixture_path(&format!("templates/{template}"))).unwrap();
    let env = environment();
    let context = json!({
        "messages": openai_messages(false),
        "tools": openai_tools(),
        "add_generation_prompt": true,
        "bos_token": "",
        "eos_token": "",
    });
    env.render_str(&source, Jinja::from(minijinja::value::Serde(&context)))
        .unwrap_or_else(|e| panic!("{template}: {e:#}"))
}

/// The conversation as a DeepSeek encoder renders it: the encoder's output recorded in
/// `templates/<encoder>.txt`. With `DEEPSEEK_ENCODERS` naming a folder that holds DeepSeek's
/// `encoding_dsv32.py` / `encoding_dsv4.py` (see the README there), the encoder runs under the
/// test Python and its output replaces the recording, as `UPDATE_GOLDEN` does for goldens.
fn encode(encoder: &str) -> String {
    let recorded = fixture_path(&format!("templates/{encoder}.txt"));
    if let Some(folder) = std::env::var_os("DEEPSEEK_ENCODERS") {
        let python = tool_tests::mcp_python("recording the DeepSeek encoders")
            .expect("a Python to run the encoders");
        let mut messages = openai_messages(true);
        messages[0]["tools"] = Value::Array(openai_tools());
        let request = json!({"encoder": encoder, "messages": messages, "thinking_mode": "chat"});
        let mut child = Command::new(python)
            .arg(fixture_path("templates/render_encoder.py"))
            .env("DEEPSEEK_ENCODERS", folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python starts");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(request.to_string().as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{encoder}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::write(&recorded, &output.stdout).expect("the recording is written");
    }
    std::fs::read_to_string(&recorded).unwrap_or_else(|e| panic!("{}: {e}", recorded.display()))
}

/// `ours` appears in `rendered` byte for byte.
#[track_caller]
fn assert_rendered(what: &str, rendered: &str, ours: &str) {
    assert!(
        rendered.contains(ours),
        "{what}: not in the template's rendering\n--- ours\n{ours}\n--- rendered\n{rendered}"
    );
}

/// Each JSON value in `text` (from a `{` or `[` on, as far as it parses) written compact, with
/// `<` and `>` escaped.
fn compact_json(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(['{', '[']) {
        out.push_str(&rest[..at]);
        let mut values = serde_json::Deserializer::from_str(&rest[at..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => {
                let end = at + values.byte_offset();
                out.push_str(
                    &value
                        .to_string()
                        .replace('<', "\\u003c")
                        .replace('>', "\\u003e"),
                );
                rest = &rest[end..];
            }
            _ => {
                out.push_str(&rest[at..at + 1]);
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `ours` is in `rendered` once the template's JSON is written compact with `<` and `>`
/// escaped (the one documented difference of the formats that list tools as JSON).
#[track_caller]
fn assert_same_but_compact_json(what: &str, rendered: &str, ours: &str) {
    assert_rendered(what, &compact_json(rendered), ours);
}

#[test]
fn deepseek_v32_writes_what_its_encoder_writes() {
    let rendered = encode("encoding_dsv32");
    let ours = ours(ToolFormat::DeepSeekV32);
    assert_rendered("V3.2 tool block", &rendered, &format!("\n\n{}", ours.tools));
    assert_rendered(
        "V3.2 calls",
        &rendered,
        &format!("</think>{}<｜end▁of▁sentence｜>", ours.calls),
    );
    assert_rendered(
        "V3.2 results",
        &rendered,
        &format!("\n\n{}\n\n</think>", ours.results),
    );
}

#[test]
fn deepseek_v4_writes_what_its_encoder_writes() {
    let rendered = encode("encoding_dsv4");
    let ours = ours(ToolFormat::DeepSeekV4);
    assert_rendered(
        "V4 tool block",
        &rendered,
        &format!("\n\n{}<｜User｜>", ours.tools),
    );
    assert_rendered(
        "V4 calls",
        &rendered,
        &format!("</think>{}<｜end▁of▁sentence｜>", ours.calls),
    );
    // The encoder merges a turn's results into one user message.
    assert_rendered(
        "V4 results",
        &rendered,
        &format!("<｜User｜>{}<｜Assistant｜>", ours.results),
    );
}

#[test]
fn the_dsml_encoders_calls_are_read_back() {
    for format in [ToolFormat::DeepSeekV32, ToolFormat::DeepSeekV4] {
        let written = ours(format).calls;
        let events = tool_core::parse::FormatParser::parse_all(
            format,
            &written,
            tool_core::parse::EndReason::Stop,
        );
        let read: Vec<(String, Value)> = events
            .iter()
            .filter_map(|e| match e {
                tool_core::parse::Event::CallComplete { call, .. } => Some((
                    call.name.clone(),
                    serde_json::from_str(&call.arguments).unwrap(),
                )),
                _ => None,
            })
            .collect();
        let expected: Vec<(String, Value)> = calls()
            .iter()
            .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
            .collect();
        assert_eq!(read, expected, "{format:?}");
    }
}

#[test]
fn qwen3_coder_writes_what_its_template_writes() {
    let rendered = render("qwen3coder.jinja");
    let ours = ours(ToolFormat::Qwen3Coder);
    assert_rendered("calls", &rendered, &ours.calls);
    assert_rendered(
        "results",
        &rendered,
        &format!("<|im_start|>user\n{}\n<|im_end|>", ours.results),
    );
    // Deliberately: a type list is written `integer|null` (not Python's list repr), `required`
    // as compact JSON, and the schema keywords the template copies as extra tags are left out;
    // every other line is the template's, in its order.
    let mut lines = rendered.lines();
    for line in ours.tools.lines() {
        if line.starts_with("<type>") || line.starts_with("<required>") {
            continue;
        }
        assert!(
            lines.any(|l| l == line || (line == "</IMPORTANT>" && l.starts_with(line))),
            "tool block line {line:?} is not in the template's rendering, in order\n{rendered}"
        );
    }
}

#[test]
fn glm_writes_what_its_template_writes() {
    let rendered = render("GLM-4.6.jinja");
    let ours = ours(ToolFormat::Glm);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
    assert_rendered("calls", &rendered, &ours.calls);
    assert_rendered("results", &rendered, &ours.results);
}

#[test]
fn minimax_writes_what_its_template_writes() {
    let rendered = render("unsloth-MiniMax-M2.jinja");
    let ours = ours(ToolFormat::MiniMax);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
    assert_rendered("calls", &rendered, &ours.calls);
    assert_rendered("results", &rendered, &ours.results);
}

#[test]
fn kimi_k2_writes_what_its_template_writes() {
    let rendered = render("moonshotai-Kimi-K2.jinja");
    let ours = ours(ToolFormat::KimiK2);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
}

// Llama 3.x JSON and pythonic templates: their tests go here, on the same helpers.
