//! The same tools for every provider: definitions in each dialect, then one full
//! request -> response -> tool results cycle per provider, from recorded responses (no
//! network).
//!
//! Run with `cargo run --example providers`.

use serde_json::{json, Value};
use tool_core::provider::{
    gemini, mcp, Anthropic, ChatApi, Gemini, OpenAiChat, OpenAiResponses, ToolChoice,
};
use tool_core::{block_on, tool, tool_type, tools, ToolRegistry};

/// Temperature unit.
#[tool_type]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// Current weather for a location. Use it whenever the user asks about weather now.
#[tool(read_only, open_world)]
fn get_weather(
    /// City and country, e.g. "Paris, France".
    location: String,
    /// Temperature unit; the location's usual unit when absent.
    unit: Option<Unit>,
) -> String {
    let unit = match unit {
        Some(Unit::Fahrenheit) => "°F",
        _ => "°C",
    };
    format!("{location}: 15{unit}, light rain")
}

/// Returns the server's current UTC time.
#[tool(read_only)]
fn server_time() -> String {
    "2026-01-01T12:00:00Z".to_string()
}

fn show(title: &str, value: &Value) {
    println!("--- {title}");
    println!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

fn main() {
    let registry = tools![get_weather, server_time];
    let defs = registry.definitions();

    println!("==== The same tools in every dialect ====");
    show("OpenAI Chat Completions tools", &OpenAiChat::tools(defs));
    show("OpenAI Responses tools", &OpenAiResponses::tools(defs));
    show("Anthropic tools", &Anthropic::tools(defs));
    show("Gemini tools (parameters)", &Gemini::tools(defs));
    show(
        "Gemini tools (parametersJsonSchema)",
        &gemini::tools_json_schema(defs),
    );
    show("MCP tools/list result", &mcp::tools(defs));

    openai_cycle(&registry);
    responses_cycle(&registry);
    anthropic_cycle(&registry);
    gemini_cycle(&registry);
    mcp_cycle(&registry);
}

fn openai_cycle(registry: &ToolRegistry) {
    println!("\n==== OpenAI Chat Completions ====");
    let user = json!({"role": "user", "content": "Weather in Paris and Tokyo?"});
    let mut request = json!({"model": "gpt-4o", "messages": [user]});
    request["tools"] = OpenAiChat::tools(registry.definitions());
    request["tool_choice"] = OpenAiChat::tool_choice(&ToolChoice::Auto, true);
    show("request", &request);
    let recorded = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\",\"unit\":null}"}},
            {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Tokyo, Japan\",\"unit\":\"celsius\"}"}}]}}]});
    show("recorded response", &recorded);
    match OpenAiChat::read_response(&recorded) {
        Ok(turn) => {
            let results = block_on(registry.call_all(&turn.calls));
            let mut next = vec![user, OpenAiChat::history_entry(&turn)];
            next.extend(OpenAiChat::results_entry(&turn.calls, &results));
            show("next request's messages", &Value::Array(next));
        }
        Err(e) => println!("unreadable response: {e}"),
    }
}

fn responses_cycle(registry: &ToolRegistry) {
    println!("\n==== OpenAI Responses ====");
    let request = json!({"model": "gpt-4.1", "input": "What time is it on the server?",
        "tools": OpenAiResponses::tools(registry.definitions()),
        "tool_choice": OpenAiResponses::tool_choice(&ToolChoice::Required, true)});
    show("request", &request);
    let recorded = json!({"status": "completed", "output": [
        {"type": "function_call", "id": "fc_1", "call_id": "call_t", "name": "server_time", "arguments": "{}", "status": "completed"}]});
    show("recorded response", &recorded);
    match OpenAiResponses::read_response(&recorded) {
        Ok(turn) => {
            let results = block_on(registry.call_all(&turn.calls));
            let mut input = OpenAiResponses::history_entry(&turn)
                .as_array()
                .cloned()
                .unwrap_or_default();
            input.extend(OpenAiResponses::results_entry(&turn.calls, &results));
            show(
                "items appended to the next request's input",
                &Value::Array(input),
            );
        }
        Err(e) => println!("unreadable response: {e}"),
    }
}

fn anthropic_cycle(registry: &ToolRegistry) {
    println!("\n==== Anthropic Messages ====");
    let user = json!({"role": "user", "content": "What's the weather in San Francisco?"});
    let request = json!({"model": "claude-opus-4-7", "max_tokens": 1024, "messages": [user],
        "tools": Anthropic::tools(registry.definitions()),
        "tool_choice": Anthropic::tool_choice(&ToolChoice::Auto, true)});
    show("request", &request);
    // Anthropic's documented example response: text and a tool_use block together.
    let recorded = json!({"id": "msg_01Aq9w938a90dw8q", "stop_reason": "tool_use", "role": "assistant", "content": [
        {"type": "text", "text": "I'll check the current weather in San Francisco for you."},
        {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
         "input": {"location": "San Francisco, CA", "unit": "celsius"}}]});
    show("recorded response", &recorded);
    match Anthropic::read_response(&recorded) {
        Ok(turn) => {
            println!("text shown to the user: {}", turn.text);
            let results = block_on(registry.call_all(&turn.calls));
            let next = json!([
                user,
                Anthropic::history_entry(&turn),
                Anthropic::results_entry(&turn.calls, &results).remove(0)
            ]);
            show("next request's messages (tool_result blocks first)", &next);
        }
        Err(e) => println!("unreadable response: {e}"),
    }
}

fn gemini_cycle(registry: &ToolRegistry) {
    println!("\n==== Gemini generateContent ====");
    let user = json!({"role": "user", "parts": [{"text": "Weather in Beijing and Tokyo?"}]});
    let request = json!({"contents": [user], "tools": Gemini::tools(registry.definitions()),
        "tool_config": Gemini::tool_choice(&ToolChoice::Auto, true)});
    show("request", &request);
    // Gemini: two independent calls in one response, no ids.
    let recorded = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"location": "Beijing, China"}}, "thoughtSignature": "c2lnLTE="},
        {"functionCall": {"name": "get_weather", "args": {"location": "Tokyo, Japan"}}}]}}]});
    show("recorded response", &recorded);
    match Gemini::read_response(&recorded) {
        Ok(turn) => {
            let results = block_on(registry.call_all(&turn.calls));
            let next = json!([
                user,
                Gemini::history_entry(&turn),
                Gemini::results_entry(&turn.calls, &results).remove(0)
            ]);
            show("next request's contents", &next);
        }
        Err(e) => println!("unreadable response: {e}"),
    }
}

fn mcp_cycle(registry: &ToolRegistry) {
    println!("\n==== MCP tools/call ====");
    let request = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"location": "Oslo, Norway"}}});
    show("request", &request);
    match mcp::read_call(&request) {
        Ok(call) => {
            let response = block_on(registry.call(&call));
            show(
                "result",
                &json!({"jsonrpc": "2.0", "id": 3, "result": mcp::call_result(&response, None)}),
            );
        }
        Err(e) => println!("unreadable request: {e}"),
    }
}
