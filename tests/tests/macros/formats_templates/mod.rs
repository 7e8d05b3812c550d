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

mod deepseek_r1;
mod dsml;
mod glm_4_5;
mod glm_4_7;
mod json;
mod model_table;
mod pythonic_harmony;
mod qwen3_thinking;
mod read_back;
mod reasoning_start;
mod xml;

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
/// float among their values. The ids are nine characters, as Mistral's template requires.
fn calls() -> Vec<ToolCall> {
    vec![
        ToolCall::new(
            "call00000",
            "get_weather",
            r#"{"city": "Paris", "days": 3}"#,
        ),
        ToolCall::new("call00001", "add", r#"{"values": [1, 2], "scale": 1.5}"#),
    ]
}

const RESULTS: [&str; 2] = ["Paris: sunny for 3 days", "4.5"];

/// The conversation in the OpenAI shape the templates are given (arguments as objects, as vLLM
/// and llama.cpp pass them to templates; the encoders take the JSON text).
fn openai_messages(arguments_as_text: bool) -> Vec<Value> {
    openai_messages_with(&calls(), arguments_as_text)
}

/// The conversation with `calls` as the assistant's turn.
fn openai_messages_with(calls: &[ToolCall], arguments_as_text: bool) -> Vec<Value> {
    let tool_calls: Vec<Value> = calls
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
    for (call, result) in calls.iter().zip(RESULTS) {
        messages.push(
            json!({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result}),
        );
    }
    messages
}

/// The conversation cut to its `k`th call and that call's result (for the templates that take
/// one call per turn).
fn one_call_messages(k: usize, arguments_as_text: bool) -> Vec<Value> {
    let all = openai_messages(arguments_as_text);
    let mut assistant = all[2].clone();
    assistant["tool_calls"] = json!([all[2]["tool_calls"][k]]);
    vec![
        all[0].clone(),
        all[1].clone(),
        assistant,
        all[3 + k].clone(),
    ]
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
    ours_with(format, calls())
}

/// What this crate writes in `format` with `calls` as the assistant's turn.
fn ours_with(format: ToolFormat, calls: Vec<ToolCall>) -> Ours {
    let definitions = definitions();
    let tools = FormatTools::new(format, &definitions).prompt();
    // The history as a text model reads it: what the text mode sends for the conversation.
    let model = ScriptedModel::new([ModelTurn::text("first"), ModelTurn::text("second")]);
    let mode = TextMode::new(model.clone(), format);
    let results: Vec<ToolResult> = calls
        .iter()
        .zip(RESULTS)
        .map(|(c, r)| ToolResult::new(c.id.clone(), c.name.clone(), ToolResponse::success(r)))
        .collect();
    let messages = [
        Message::user("Weather in Paris, and 1 + 2 scaled by 1.5?"),
        Message::Assistant(ModelTurn::with_calls("", calls)),
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

/// `json.dumps(value, indent=indent)` with Python's defaults but `ensure_ascii=False`: what
/// transformers' `tojson` filter writes.
fn python_json(value: &Value, indent: Option<usize>, depth: usize, out: &mut String) {
    // Python writes `[]` and `{}` for empty containers at any indent; otherwise, with an
    // indent, each item on its own line and `,` without a trailing space.
    let (open_item, separator, close) = match indent {
        Some(n) => (
            format!("\n{}", " ".repeat(n * (depth + 1))),
            ",".to_string(),
            format!("\n{}", " ".repeat(n * depth)),
        ),
        None => (String::new(), ", ".to_string(), String::new()),
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(&separator);
                }
                out.push_str(&open_item);
                python_json(item, indent, depth + 1, out);
            }
            out.push_str(&close);
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(&separator);
                }
                out.push_str(&open_item);
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                python_json(item, indent, depth + 1, out);
            }
            out.push_str(&close);
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// `strftime_now(format)` for a fixed day, 26 July 2024 (the Llama 3.1 template's own fallback
/// date), so renderings do not change with the calendar.
fn strftime_now(format: String) -> String {
    format
        .replace("%Y", "2024")
        .replace("%m", "07")
        .replace("%d", "26")
        .replace("%b", "Jul")
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
            // here pass only ensure_ascii=False (also its default) and indent.
            let _: Option<bool> = kwargs.get("ensure_ascii")?;
            let indent: Option<usize> = kwargs.get("indent")?;
            kwargs.assert_all_used()?;
            let value = serde_json::to_value(&value)
                .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
            let mut out = String::new();
            python_json(&value, indent, 0, &mut out);
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

/// The environment with transformers' `strftime_now` (a fixed day here), for the templates
/// that date their system prompt.
fn dated_environment() -> Environment<'static> {
    let mut env = environment();
    env.add_function("strftime_now", strftime_now);
    env
}

/// `template` rendered for the conversation, with the generation prompt.
fn render(template: &str) -> String {
    render_with(template, environment(), json!({}))
}

/// `template` rendered in `env` for the conversation, with the generation prompt and the
/// variables in `extra` set too (or replaced).
fn render_with(template: &str, env: Environment<'static>, extra: Value) -> String {
    let source = std::fs::read_to_string(fixture_path(&format!("templates/{template}"))).unwrap();
    let mut context = json!({
        "messages": openai_messages(false),
        "tools": openai_tools(),
        "add_generation_prompt": true,
        "bos_token": "",
        "eos_token": "",
    });
    for (key, value) in extra.as_object().expect("an object") {
        context[key] = value.clone();
    }
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

/// `text` without runs of four or more spaces (a template's indentation that its `{{ ... }}`
/// lines leave in the rendering).
fn without_indentation(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut spaces = 0;
    for c in text.chars() {
        if c == ' ' {
            spaces += 1;
            continue;
        }
        if spaces < 4 {
            out.extend(std::iter::repeat_n(' ', spaces));
        }
        spaces = 0;
        out.push(c);
    }
    if spaces < 4 {
        out.extend(std::iter::repeat_n(' ', spaces));
    }
    out
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
