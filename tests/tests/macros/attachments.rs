//! Attachments where an API takes text only (every text format), their size limits, the
//! reference the JSON form and run events carry instead of the bytes, and the `Image` /
//! `File` return types through `#[tool]`.

use serde_json::{json, Value};
use tool_core::parse::ToolFormat;
use tool_core::runner::RunEvent;
use tool_core::{
    tool, tools, Attachment, File, Image, Json, Limits, ToolCall, ToolErrorCode, ToolResponse,
};

const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

fn with_attachments() -> ToolResponse {
    ToolResponse::success("15 C, light rain")
        .with_attachment(Attachment::image(PNG.to_vec(), "image/png").with_name("radar.png"))
        .with_file(vec![b'%'; 3000], "application/pdf", "forecast.pdf")
}

/// A text-only format gets the documented fallback: the text, then one line per attachment
/// naming its type, size and name, never the bytes.
#[test]
fn every_text_format_names_the_attachments() {
    /// Weather.
    #[tool]
    fn get_weather(city: String) -> String {
        city
    }
    let registry = tools![get_weather];
    let response = with_attachments();
    let base64 = Attachment::image(PNG.to_vec(), "image/png")
        .base64()
        .unwrap();
    for &format in ToolFormat::ALL {
        let text = registry
            .text_format(format)
            .result("call_0", "get_weather", &response);
        for expected in [
            "15 C, light rain",
            "[image/png, 8 B, \\\"radar.png\\\"]",
            "[application/pdf, 3 KB, \\\"forecast.pdf\\\"]",
        ] {
            let plain = expected.replace("\\\"", "\"");
            assert!(
                text.contains(&plain) || text.contains(expected),
                "{format:?} lacks {plain}: {text}"
            );
        }
        assert!(
            !text.contains(&base64),
            "{format:?} carries the bytes: {text}"
        );
    }
}

/// Sends back an image of the size asked for.
#[tool]
fn snapshot(bytes: usize, count: usize) -> ToolResponse {
    (0..count).fold(ToolResponse::success("snap"), |r, i| {
        r.with_attachment(
            Attachment::image(vec![0; bytes], "image/png").with_name(format!("s{i}.png")),
        )
    })
}

#[test]
fn attachments_over_the_limits_become_an_error_naming_them() {
    let registry = tools![snapshot].with_limits(Limits {
        max_attachment_bytes: 1000,
        max_attachments_total_bytes: 2500,
        ..Limits::default()
    });
    let call = |bytes: usize, count: usize| {
        registry.call_blocking(&ToolCall::new(
            "1",
            "snapshot",
            json!({"bytes": bytes, "count": count}).to_string(),
        ))
    };
    let fine = call(1000, 2);
    assert!(fine.is_success(), "{fine:?}");
    assert_eq!(fine.attachments.len(), 2);

    let one_too_big = call(1001, 1);
    assert_eq!(
        one_too_big.error_code(),
        Some(ToolErrorCode::ExecutionError)
    );
    assert_eq!(
        one_too_big.error_message().unwrap(),
        "the result carries [image/png, 1001 B, \"s0.png\"], over the limit of 1000 B per attachment; return a smaller or compressed file, or a URL to it"
    );
    assert!(one_too_big.attachments.is_empty());
    assert!(one_too_big.time_ms().is_some());

    let too_many = call(900, 3);
    assert_eq!(
        too_many.error_message().unwrap(),
        "the result's attachments add up to 3 KB, over the limit of 2 KB per result; return fewer or smaller files, or URLs to them"
    );

    // The defaults: 10 MiB each, 20 MiB per result.
    let defaults = Limits::default();
    assert_eq!(
        (
            defaults.max_attachment_bytes,
            defaults.max_attachments_total_bytes
        ),
        (10 << 20, 20 << 20)
    );
    let default_registry = tools![snapshot];
    let big = default_registry.call_blocking(&ToolCall::new(
        "1",
        "snapshot",
        r#"{"bytes": 10485761, "count": 1}"#,
    ));
    assert!(big.is_error(), "{big:?}");
}

/// The JSON form (what run events and server-sent events carry) names each attachment by
/// kind, type, name, size and SHA-256, never with its bytes.
#[test]
fn the_json_form_and_run_events_carry_a_reference_not_the_bytes() {
    let response = ToolResponse::success("chart")
        .with_attachment(Attachment::image(b"abc".to_vec(), "image/png").with_name("c.png"))
        .with_attachment(Attachment::file_url(
            "https://example.com/r.pdf",
            "application/pdf",
        ));
    let expected = json!([
        {"kind": "image", "mime_type": "image/png", "name": "c.png", "size": 3,
         // SHA-256("abc"), FIPS 180-4's first example.
         "sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"kind": "file", "mime_type": "application/pdf", "url": "https://example.com/r.pdf"}
    ]);
    let json: Value = serde_json::from_str(&response.to_json()).unwrap();
    assert_eq!(json["attachments"], expected);
    assert!(!response.to_json().contains("YWJj"), "base64 of the bytes");

    let event = RunEvent::ToolResult {
        call_id: "1".into(),
        name: "chart".into(),
        response: response.clone(),
    };
    let event: Value = serde_json::to_value(&event).unwrap();
    assert_eq!(event["response"]["attachments"], expected);

    // Read back: the URL is whole again; bytes are a reference the writers name as text.
    let back: ToolResponse = serde_json::from_str(&response.to_json()).unwrap();
    assert_eq!(back.attachments[0].bytes(), None);
    assert_eq!(back.attachments[0].size(), Some(3));
    assert_eq!(back.attachments[1], response.attachments[1]);
    assert_eq!(back.model_text(), response.model_text());
}

#[tool_core::tool_type]
struct Sales {
    total: u32,
}

/// Plots sales.
#[tool]
fn plot() -> (Json<Sales>, Image) {
    (
        Json(Sales { total: 7 }),
        Image::png(PNG.to_vec()).with_name("sales.png"),
    )
}

/// The report.
#[tool]
fn report_pdf() -> Result<File, String> {
    Ok(File::pdf(b"%PDF-1.4".to_vec()).with_name("report.pdf"))
}

#[test]
fn image_and_file_are_return_types_of_a_tool() {
    let registry = tools![plot, report_pdf];
    let r = registry.call_blocking(&ToolCall::new("1", "plot", "{}"));
    assert_eq!(r.data.as_ref().unwrap().get(), r#"{"total":7}"#);
    assert_eq!(r.attachments[0].bytes(), Some(PNG));
    assert_eq!(
        r.model_text(),
        "{\"total\":7}\n[image/png, 8 B, \"sales.png\"]"
    );
    let r = registry.call_blocking(&ToolCall::new("2", "report_pdf", "{}"));
    assert_eq!(r.model_text(), "[application/pdf, 8 B, \"report.pdf\"]");
    assert_eq!(r.model_text_without_attachments(), "");
}
