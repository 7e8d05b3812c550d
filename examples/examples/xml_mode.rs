//! XML mode: tool calling for any model, with the reply text shown before the call runs.
//!
//! Prints the TOOLS system-prompt section, streams a recorded model reply in small chunks
//! (text appears as it arrives; the call runs only once it is complete), dispatches the call
//! through the registry, and prints the follow-up user message that carries the result back.
//!
//! Run with `cargo run -p tool-examples --example xml_mode`.

use std::io::Write;
use std::time::Duration;

use tool_core::parse::{EndReason, Event};
use tool_core::{block_on, tool, tools, Json};

/// `#[tool_type]` derives serde and schemars through tool-core, so this crate needs neither.
#[tool_core::tool_type]
struct Weather {
    city: String,
    temp_c: f32,
    conditions: String,
}

/// Current weather for a city. Returns temperature in Celsius and a short description.
#[tool(read_only)]
fn get_weather(
    /// City name, e.g. "Tokyo".
    city: String,
) -> Json<Weather> {
    Json(Weather {
        city,
        temp_c: 21.5,
        conditions: "light rain later".to_string(),
    })
}

/// Searches the web and returns the top results as text.
#[tool(read_only, open_world)]
fn web_search(
    /// What to search for.
    query: String,
) -> String {
    format!("No results for '{query}' in this offline example.")
}

/// A reply as a model wrote it after reading the prompt below: intent first, call last.
const RECORDED_REPLY: &str = "To answer that, I'll look up the current weather in Tokyo.\n\n\
<use_tool>\n  <tool_name>get_weather</tool_name>\n  <arguments>\n    {\"city\": \"Tokyo\"}\n  </arguments>\n</use_tool>";

fn main() {
    let registry = tools![get_weather, web_search];

    println!("===== system prompt (TOOLS section) =====");
    println!("{}", registry.tools_prompt());

    println!("===== model reply, streamed in 6-byte chunks =====");
    let mut parser = registry.xml_parser();
    let mut events = Vec::new();
    let mut all = Vec::new();
    let mut stdout = std::io::stdout();
    for chunk in RECORDED_REPLY.as_bytes().chunks(6) {
        parser.feed_bytes(chunk, &mut events);
        for event in events.drain(..) {
            show(&event);
            all.push(event);
        }
        // Flushing per chunk is what makes the intent visible before the call exists.
        let _ = stdout.flush();
        std::thread::sleep(Duration::from_millis(15));
    }
    parser.finish(EndReason::Stop, &mut events);
    for event in events.drain(..) {
        show(&event);
        all.push(event);
    }

    println!("\n===== follow-up user message =====");
    match block_on(registry.xml_follow_up(&all)) {
        Some(message) => print!("{message}"),
        None => println!("(the reply made no tool call)"),
    }
}

fn show(event: &Event) {
    match event {
        Event::Text(text) => print!("{text}"),
        Event::CallStarted { index } => print!("\n[call {index} started]"),
        Event::Name { name, .. } => print!("[tool: {name}]"),
        Event::ArgumentsDelta { .. } => print!("."),
        Event::CallComplete { call, .. } => {
            print!(
                "\n[call ready: {}({}) -> running]",
                call.name, call.arguments
            )
        }
        Event::CallError { response, .. } => print!("\n[call rejected: {}]", response.model_text()),
        Event::CallIncomplete { reason, .. } => print!("\n[call incomplete: {reason}]"),
        Event::Diagnostic(d) => print!("\n[note: {}]", d.message),
    }
}
