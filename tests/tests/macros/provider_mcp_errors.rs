//! MCP `tools/call` round trip, structured output through a forced tool, and readers that
//! never panic on malformed provider JSON.

use serde_json::{json, Value};
use tool_core::provider::{
    mcp, Anthropic, AnthropicStream, Assembler, ChatApi, Gemini, OpenAiChat, OpenAiChatStream,
    OpenAiResponses, ToolChoice,
};
use tool_core::{block_on, tool, tool_type, tools, ToolErrorCode};

/// Reads a file.
#[tool(read_only)]
fn read_file(
    /// File path.
    path: String,
) -> Result<String, tool_core::ToolError> {
    Err(tool_core::ToolError::new(
        ToolErrorCode::NotFound,
        format!("file '{path}' does not exist"),
    ))
}

#[test]
fn mcp_call_round_trips_with_is_error() {
    let request = json!({"jsonrpc": "2.0", "id": "req-1", "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": "a.txt"}}});
    let call = mcp::read_call(&request).unwrap();
    assert_eq!(call.id, "req-1");
    let response = block_on(tools![read_file].call(&call));
    let result = mcp::call_result(&response, None);
    assert_eq!(
        result,
        json!({"content": [{"type": "text", "text": "Error [NOT_FOUND]: file 'a.txt' does not exist"}], "isError": true})
    );
}

/// One recommendation card.
#[tool_type]
#[derive(Debug, PartialEq)]
struct Card {
    /// Template id.
    id: String,
    /// Card title.
    title: String,
}

/// Shows recommendation cards to the user.
#[tool]
fn show_recommendation_cards(
    /// The cards, best first.
    cards: Vec<Card>,
) -> String {
    format!("Showed {} cards.", cards.len())
}

#[test]
fn forced_tool_gives_typed_structured_output() {
    let registry = tools![show_recommendation_cards];
    let choice = ToolChoice::tool("show_recommendation_cards");
    assert_eq!(
        Anthropic::tool_choice(&choice, true),
        json!({"type": "tool", "name": "show_recommendation_cards"})
    );
    let response = json!({"stop_reason": "tool_use", "content": [{"type": "tool_use", "id": "toolu_1", "name": "show_recommendation_cards",
        "input": {"cards": [{"id": "tpl_001", "title": "电商主图生成"}]}}]});
    let turn = Anthropic::read_response(&response).unwrap();

    #[tool_type]
    #[derive(Debug)]
    struct Cards {
        cards: Vec<Card>,
    }
    let typed: Cards = turn.arguments_of("show_recommendation_cards").unwrap();
    assert_eq!(typed.cards[0].title, "电商主图生成");
    let missing = turn.arguments_of::<Cards>("other").unwrap_err();
    assert_eq!(missing.error_code(), Some(ToolErrorCode::NotFound));
    assert!(registry.definition("show_recommendation_cards").is_some());
}

fn malformed() -> Vec<Value> {
    vec![
        json!(null),
        json!(1),
        json!("x"),
        json!([]),
        json!({}),
        json!({"choices": []}),
        json!({"choices": [{}]}),
        json!({"choices": [{"message": {"tool_calls": [{}]}}]}),
        json!({"choices": [{"message": {"tool_calls": [{"id": 1, "function": {"name": "f", "arguments": 3}}]}}]}),
        json!({"content": [{"type": "tool_use", "id": "t", "name": "f", "input": "oops"}]}),
        json!({"content": [{"type": "tool_use"}]}),
        json!({"output": [{"type": "function_call"}]}),
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": []}}]}}]}),
        json!({"candidates": [{"content": {"parts": "no"}, "finishReason": 5}]}),
        json!({"type": "content_block_delta", "index": 99, "delta": {"type": "input_json_delta", "partial_json": "{"}}),
        json!({"type": "content_block_start", "index": -1}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 5, "function": {"arguments": "x"}}]}}]}),
        json!({"jsonrpc": "2.0", "id": [], "params": {"name": 3}}),
    ]
}

#[test]
fn malformed_provider_json_is_an_error_never_a_panic() {
    let mut errors = 0;
    for value in malformed() {
        for result in [
            OpenAiChat::read_response(&value).map(|_| ()),
            OpenAiResponses::read_response(&value).map(|_| ()),
            Anthropic::read_response(&value).map(|_| ()),
            Gemini::read_response(&value).map(|_| ()),
            mcp::read_call(&value).map(|_| ()),
            OpenAiChatStream::new().push(&value),
            tool_core::provider::OpenAiResponsesStream::new().push(&value),
            AnthropicStream::new().push(&value),
        ] {
            if let Err(e) = result {
                assert!(!e.to_string().is_empty());
                errors += 1;
            }
        }
    }
    assert!(errors > 80, "most malformed inputs are rejected ({errors})");
}
