//! A tool that returns an image and a PDF, over loopback HTTP for each API: the recorded
//! two-turn streams of `tests/fixtures/http/` (the model asks for the weather in Paris and
//! Tokyo), with a `get_weather` whose Paris answer carries a radar PNG and a forecast PDF.
//! The second request must carry them in the shape each API takes in a tool result, and be
//! valid by the official SDK's own request types.

use serde_json::{json, Value};
use tool_core::model::{Anthropic, Gemini, Model, OpenAiChat, OpenAiResponses};
use tool_core::{tool, tools, Attachment, ToolResponse};

use crate::http_support::{self, assert_sdk_accepts, converse, fixture, requests, server, sse};

/// A 1x1 PNG, written for this test (IHDR, one zlib-compressed IDAT row, IEND).
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];
/// The PNG in base64, as Python's `base64.b64encode` writes it.
pub const PNG_B64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
/// A minimal PDF (catalog, empty page tree, trailer), written for this test.
pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
/// The PDF in base64, as Python's `base64.b64encode` writes it.
pub const PDF_B64: &str = "JVBERi0xLjQKMSAwIG9iajw8L1R5cGUvQ2F0YWxvZy9QYWdlcyAyIDAgUj4+ZW5kb2JqCjIgMCBvYmo8PC9UeXBlL1BhZ2VzL0tpZHNbXS9Db3VudCAwPj5lbmRvYmoKdHJhaWxlcjw8L1Jvb3QgMSAwIFI+PgolJUVPRgo=";

/// Current weather for a city, with a radar image and the forecast as a PDF.
#[tool]
fn get_weather(city: String) -> ToolResponse {
    if city != "Paris" {
        return ToolResponse::success("22 C, sunny");
    }
    ToolResponse::success("15 C, light rain")
        .with_attachment(Attachment::image(PNG.to_vec(), "image/png").with_name("radar.png"))
        .with_file(PDF.to_vec(), "application/pdf", "forecast.pdf")
}

/// Runs the two recorded turns against `route` and returns the second request's body, after
/// checking every body against the official SDK's request types.
async fn second_request(
    route: &str,
    base_path: &str,
    turns: [&str; 2],
    make: fn(String) -> Box<dyn Model>,
) -> Value {
    let server = server(route, vec![sse(fixture(turns[0])), sse(fixture(turns[1]))]).await;
    let model = make(format!("{}{base_path}", server.uri()));
    let registry = tools![get_weather];
    let conversation = converse(model.as_ref(), &registry).await;
    assert!(conversation.outcome.is_ok(), "{:?}", conversation.outcome);
    let received = requests(&server).await;
    assert_eq!(received.len(), 2);
    assert_sdk_accepts(route, &received);
    serde_json::from_slice(&received[1].body).unwrap()
}

#[tokio::test]
async fn anthropic_gets_image_and_document_blocks_in_the_tool_result() {
    let body = second_request(
        "/v1/messages",
        "/v1",
        ["anthropic_turn1.sse", "anthropic_turn2.sse"],
        |base| {
            Box::new(
                Anthropic::new("claude-sonnet-4-20250514")
                    .with_api_key("sk-ant-test")
                    .with_endpoint(|e| http_support::test_endpoint(e, base)),
            )
        },
    )
    .await;
    let results = &body["messages"][2]["content"];
    assert_eq!(
        results[0],
        json!({"type": "tool_result", "tool_use_id": "toolu_01NRLabsLyVHZPKxbKvkfSMn", "content": [
            {"type": "text", "text": "15 C, light rain"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF_B64}, "title": "forecast.pdf"}
        ]})
    );
    // A result without attachments keeps the plain string content.
    assert_eq!(results[1]["content"], "22 C, sunny");
}

#[tokio::test]
async fn openai_responses_gets_an_output_list_with_input_image_and_input_file() {
    let body = second_request(
        "/v1/responses",
        "/v1",
        ["openai_responses_turn1.sse", "openai_responses_turn2.sse"],
        |base| {
            Box::new(
                OpenAiResponses::new("gpt-4.1")
                    .with_api_key("sk-test")
                    .with_endpoint(|e| http_support::test_endpoint(e, base)),
            )
        },
    )
    .await;
    let outputs: Vec<&Value> = body["input"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["type"] == "function_call_output")
        .collect();
    assert_eq!(outputs.len(), 2);
    assert_eq!(
        outputs[0]["output"],
        json!([
            {"type": "input_text", "text": "15 C, light rain"},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG_B64}"), "detail": "auto"},
            {"type": "input_file", "file_data": format!("data:application/pdf;base64,{PDF_B64}"), "filename": "forecast.pdf"}
        ])
    );
    assert_eq!(outputs[1]["output"], "22 C, sunny");
}

#[tokio::test]
async fn gemini_gets_inline_data_parts_in_the_function_response() {
    let route = "/v1beta/models/gemini-2.5-flash:streamGenerateContent";
    let body = second_request(
        route,
        "/v1beta",
        ["gemini_turn1.sse", "gemini_turn2.sse"],
        |base| {
            Box::new(
                Gemini::new("gemini-2.5-flash")
                    .with_api_key("test-key")
                    .with_endpoint(|e| http_support::test_endpoint(e, base)),
            )
        },
    )
    .await;
    let parts = &body["contents"][2]["parts"];
    let paris = &parts[0]["functionResponse"];
    assert_eq!(paris["name"], "get_weather");
    assert_eq!(paris["response"], json!({"output": "15 C, light rain"}));
    assert_eq!(
        paris["parts"],
        json!([
            {"inlineData": {"mimeType": "image/png", "data": PNG_B64, "displayName": "radar.png"}},
            {"inlineData": {"mimeType": "application/pdf", "data": PDF_B64, "displayName": "forecast.pdf"}}
        ])
    );
    assert!(parts[1]["functionResponse"].get("parts").is_none());
}

#[tokio::test]
async fn chat_completions_names_them_in_the_tool_message_and_sends_them_in_a_user_message() {
    let body = second_request(
        "/v1/chat/completions",
        "/v1",
        ["openai_chat_turn1.sse", "openai_chat_turn2.sse"],
        |base| {
            Box::new(
                OpenAiChat::new("gpt-4o")
                    .with_api_key("sk-test")
                    .with_endpoint(|e| http_support::test_endpoint(e, base)),
            )
        },
    )
    .await;
    let messages = body["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    // instructions, the question, the calls, two tool messages, then the attachments.
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "tool", "user"]
    );
    assert_eq!(
        messages[3]["content"],
        "15 C, light rain\n[image/png, 69 B, \"radar.png\"]\n[application/pdf, 125 B, \"forecast.pdf\"]"
    );
    assert_eq!(messages[4]["content"], "22 C, sunny");
    let call_id = messages[3]["tool_call_id"].as_str().unwrap();
    assert_eq!(
        messages[5]["content"],
        json!([
            {"type": "text", "text": format!("[image/png, 69 B, \"radar.png\"] from the result of get_weather ({call_id})")},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG_B64}")}},
            {"type": "text", "text": format!("[application/pdf, 125 B, \"forecast.pdf\"] from the result of get_weather ({call_id})")},
            {"type": "file", "file": {"file_data": format!("data:application/pdf;base64,{PDF_B64}"), "filename": "forecast.pdf"}}
        ])
    );
}
