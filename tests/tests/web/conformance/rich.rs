//! Images and files in tool results: a tool answers with text, a PNG and a PDF, and the next
//! request carries them in the shape the API takes inside a tool result (Anthropic image
//! and document blocks, Responses `input_image` and `input_file`, Gemini `inlineData` parts
//! of the function response, Interactions `image` and `document` content of the
//! `function_result`). Chat Completions tool messages hold text only: the documented
//! fallback names them in the tool message and sends them in a user message after the
//! results. Text mode names them in the format's result message and sends no bytes: its
//! inner model gets the results as text.

use serde_json::{json, Value};
use tool_core::runner::RunOptions;
use tool_core::{tool, tools, Attachment, ToolResponse};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};
use crate::http_attachments::{PDF, PDF_B64, PNG, PNG_B64};

/// Current weather for a city, with a radar image and the forecast as a PDF.
#[tool]
fn get_weather(city: String) -> ToolResponse {
    ToolResponse::success(format!("{city}: 15 C, light rain"))
        .with_attachment(Attachment::image(PNG.to_vec(), "image/png").with_name("radar.png"))
        .with_file(PDF.to_vec(), "application/pdf", "forecast.pdf")
}

/// What text mode does with a result's files.
pub const TEXT_MODE_FILES: &str = "named in the result message; the bytes are not sent";

/// The user message after the results that carries the files (Chat Completions).
fn files_message(body: &Value) -> Value {
    body["messages"]
        .as_array()
        .and_then(|m| m.last().cloned())
        .unwrap_or(Value::Null)
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let turns = [
        Turn::call("w1", "get_weather", json!({"city": "Paris"})),
        Turn::text(FINAL),
    ];
    let fake = Fake::start(api, true, &turns).await;
    let result = runner(&fake, tools![get_weather], RunOptions::new())
        .run(QUESTION)
        .await
        .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(result.final_text().ok(), Some(FINAL), "{api:?}");
    let bodies = seen.add(&fake).await;
    let second = &bodies[1];
    let image_url = format!("data:image/png;base64,{PNG_B64}");
    let file_data = format!("data:application/pdf;base64,{PDF_B64}");
    match api {
        Api::Anthropic => {
            let result = second["messages"]
                .as_array()
                .and_then(|m| m.last())
                .map(|m| m["content"][0].clone())
                .unwrap_or(Value::Null);
            assert_eq!(
                result["content"],
                json!([
                    {"type": "text", "text": "Paris: 15 C, light rain"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
                    {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF_B64}, "title": "forecast.pdf"}
                ]),
                "{api:?}: {second}"
            );
            seen.saw(Verdict::Yes)
        }
        Api::Responses => {
            let output = second["input"]
                .as_array()
                .and_then(|items| items.iter().find(|i| i["type"] == "function_call_output"))
                .map(|i| i["output"].clone())
                .unwrap_or(Value::Null);
            assert_eq!(
                output,
                json!([
                    {"type": "input_text", "text": "Paris: 15 C, light rain"},
                    {"type": "input_image", "image_url": image_url, "detail": "auto"},
                    {"type": "input_file", "file_data": file_data, "filename": "forecast.pdf"}
                ]),
                "{api:?}: {second}"
            );
            seen.saw(Verdict::Yes)
        }
        Api::Gemini => {
            let response = second["contents"]
                .as_array()
                .and_then(|c| c.last())
                .map(|c| c["parts"][0]["functionResponse"].clone())
                .unwrap_or(Value::Null);
            assert_eq!(
                response["parts"],
                json!([
                    {"inlineData": {"mimeType": "image/png", "data": PNG_B64, "displayName": "radar.png"}},
                    {"inlineData": {"mimeType": "application/pdf", "data": PDF_B64, "displayName": "forecast.pdf"}}
                ]),
                "{api:?}: {second}"
            );
            seen.saw(Verdict::Yes)
        }
        Api::Interactions => {
            let result = second["input"]
                .as_array()
                .and_then(|steps| steps.iter().find(|s| s["type"] == "function_result"))
                .map(|s| s["result"].clone())
                .unwrap_or(Value::Null);
            assert_eq!(
                result,
                json!([
                    {"type": "text", "text": "Paris: 15 C, light rain"},
                    {"type": "image", "data": PNG_B64, "mime_type": "image/png"},
                    {"type": "document", "data": PDF_B64, "mime_type": "application/pdf"}
                ]),
                "{api:?}: {second}"
            );
            seen.saw(Verdict::Yes)
        }
        Api::TextHermes | Api::TextUseTool => {
            let results = files_message(second);
            let text = results["content"].as_str().unwrap_or_default();
            assert!(
                text.contains("[image/png, 69 B, \"radar.png\"]")
                    && text.contains("[application/pdf, 125 B, \"forecast.pdf\"]"),
                "{api:?}: {results}"
            );
            assert!(!super::harness::text(second).contains(PNG_B64), "{api:?}");
            seen.saw(Verdict::No(TEXT_MODE_FILES))
        }
        _ => {
            let files = files_message(second);
            assert_eq!(files["role"], "user", "{api:?}: {second}");
            let parts = files["content"].as_array().cloned().unwrap_or_default();
            assert!(
                parts
                    .iter()
                    .any(|p| p["image_url"]["url"] == image_url.as_str()),
                "{api:?}: {files}"
            );
            assert!(
                parts
                    .iter()
                    .any(|p| p["file"]["file_data"] == file_data.as_str()),
                "{api:?}: {files}"
            );
            seen.saw(Verdict::Fallback(
                "named in the result, sent in a user message after it",
            ))
        }
    }
}
