//! The main job end to end: take three tools (`tool_examples::demo`), print what the model
//! is told about them, dispatch good and bad calls, and print every `ToolResponse` as JSON and
//! as model text.
//! Then XML mode, for models without native tool calling: print the TOOLS system prompt,
//! stream a recorded reply in small chunks (its text shows before the call runs), dispatch
//! the call and print the follow-up message that carries the result back.
//!
//! `cargo run --example dispatch_tour`

use std::io::Write;

use tool_core::parse::{EndReason, Event, ToolFormat};
use tool_core::{tools, ToolCall, ToolRegistry};
use tool_examples::demo::{add, get_weather, search};

fn main() {
    let registry: ToolRegistry = tools![get_weather, add, search];

    println!("== Tool definitions (what the model is told) ==");
    for definition in registry.definitions() {
        println!(
            "{}",
            serde_json::to_string_pretty(definition).unwrap_or_default()
        );
    }

    let calls = [
        ToolCall::new(
            "call_1",
            "get_weather",
            r#"{"location": "Paris, France", "unit": "celsius"}"#,
        ),
        ToolCall::new("call_2", "add", r#"{"a": 40, "b": 2}"#),
        ToolCall::new(
            "call_3",
            "search",
            r#"{"query": "tool calling", "tags": ["rust"]}"#,
        ),
        ToolCall::new("call_4", "get_wether", r#"{"location": "Oslo"}"#),
        ToolCall::new("call_5", "get_weather", r#"{"locaton": "Oslo"}"#),
        ToolCall::new(
            "call_6",
            "get_weather",
            r#"{"location": "Oslo", "unit": "kelvin"}"#,
        ),
        ToolCall::new("call_7", "add", r#"{"a": 1, "b": "two"}"#),
        ToolCall::new("call_8", "add", "{\"a\": 1,\n \"b\": }"),
        ToolCall::new("call_9", "get_weather", r#"{"location": "  "}"#),
    ];

    println!("\n== Dispatch ==");
    let responses = tool_core::block_on(registry.call_all(&calls));
    for (call, response) in calls.iter().zip(&responses) {
        println!(
            "\n{} {}({})",
            call.id,
            call.name,
            call.arguments.replace('\n', "\\n")
        );
        println!("  JSON:  {}", response.to_json());
        println!("  model: {}", response.model_text());
    }

    xml_mode(&registry);
}

/// A reply as a model wrote it after reading the TOOLS prompt: intent first, call last.
const RECORDED_REPLY: &str = "To answer that, I'll check the current weather in Paris first.\n\n\
<use_tool>\n  <tool_name>get_weather</tool_name>\n  <arguments>\n    {\"location\": \"Paris, France\"}\n  </arguments>\n</use_tool>";

fn xml_mode(registry: &ToolRegistry) {
    println!("\n== XML mode: the TOOLS section of the system prompt ==");
    println!("{}", registry.tools_prompt());

    println!("== XML mode: the model's reply, streamed in 8-byte chunks ==");
    let mut parser = registry.text_format(ToolFormat::UseTool).parser();
    let mut events = Vec::new();
    let mut all = Vec::new();
    for chunk in RECORDED_REPLY.as_bytes().chunks(8) {
        parser.feed_bytes(chunk, &mut events);
        for event in events.drain(..) {
            show(&event);
            all.push(event);
        }
        // Flushing per chunk is what shows the intent before the call exists.
        let _ = std::io::stdout().flush();
    }
    parser.finish(EndReason::Stop, &mut events);
    for event in events.drain(..) {
        show(&event);
        all.push(event);
    }

    println!("\n\n== XML mode: the follow-up user message ==");
    match tool_core::block_on(registry.text_follow_up(tool_core::parse::ToolFormat::UseTool, &all))
    {
        Some(message) => println!("{message}"),
        None => println!("(the reply made no tool call)"),
    }
}

fn show(event: &Event) {
    match event {
        Event::Text(text) => print!("{text}"),
        Event::CallStarted { index } => print!("\n[call {index} started]"),
        Event::Name { name, .. } => print!("[tool: {name}]"),
        Event::ArgumentsDelta { .. } => print!("."),
        Event::CallComplete { call, .. } => print!(
            "\n[call ready: {}({}) -> running]",
            call.name, call.arguments
        ),
        Event::CallError { response, .. } => print!("\n[call rejected: {}]", response.model_text()),
        Event::CallIncomplete { reason, .. } => print!("\n[call incomplete: {reason}]"),
        Event::Diagnostic(d) => print!("\n[note: {}]", d.message),
        // Only gpt-oss harmony (`FormatParser`) reports reasoning and framing markup.
        Event::Reasoning(_) | Event::Markup(_) => {}
    }
}
