//! A tool's images, audio and files over MCP: rmcp's own client reads our server's result as
//! image, audio, embedded-resource and resource-link content, and our `McpClient` reads the
//! same result back into the attachments the tool returned.

#![cfg(feature = "mcp")]

use rmcp::model::{ContentBlock, ResourceContents};
use rmcp::ServiceExt;
use serde_json::json;
use tool_core::mcp::{McpClient, McpServer};
use tool_core::{tool, tools, Attachment, AttachmentKind, ToolCall, ToolResponse};
use tool_tests::mcp::harness::{bounded, call, Recorder};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n not a whole image, but bytes to carry";
const WAV: &[u8] = b"RIFF\x24\x00\x00\x00WAVEfmt ";
const PDF: &[u8] = b"%PDF-1.4\n%%EOF\n";

/// Returns a chart, a spoken summary, the report, and a link to the raw data.
#[tool]
fn report() -> ToolResponse {
    ToolResponse::success("Q3 report")
        .with_image(PNG.to_vec(), "image/png")
        .with_audio(WAV.to_vec(), "audio/wav")
        .with_file(PDF.to_vec(), "application/pdf", "q3 report.pdf")
        .with_attachment(
            Attachment::file_url("https://example.com/q3.csv", "text/csv").with_name("q3.csv"),
        )
}

/// An attachment as read: kind, MIME type, bytes, name, URL.
type Seen<'a> = (
    AttachmentKind,
    &'a str,
    Option<&'a [u8]>,
    Option<&'a str>,
    Option<&'a str>,
);

fn server() -> McpServer {
    McpServer::new(tools![report])
}

fn b64(bytes: &[u8]) -> String {
    tool_core::Attachment::file(bytes.to_vec(), "x/y")
        .base64()
        .unwrap()
}

#[tokio::test]
async fn rmcp_client_reads_image_audio_resource_and_link_content() {
    bounded(async {
        let (near, far) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = server().serve_on(far).await {
                let _ = running.waiting().await;
            }
        });
        let client = Recorder::default().serve(near).await.unwrap();
        let result = client
            .peer()
            .call_tool(call("report", json!({})))
            .await
            .unwrap();
        assert_eq!(result.is_error, Some(false));
        let content = &result.content;
        assert_eq!(content.len(), 5, "{content:?}");
        match &content[0] {
            ContentBlock::Text(t) => assert_eq!(t.text, "Q3 report"),
            other => panic!("expected text, got {other:?}"),
        }
        match &content[1] {
            ContentBlock::Image(i) => {
                assert_eq!(
                    (i.mime_type.as_str(), i.data.as_str()),
                    ("image/png", b64(PNG).as_str())
                );
            }
            other => panic!("expected an image, got {other:?}"),
        }
        match &content[2] {
            ContentBlock::Audio(a) => {
                assert_eq!(
                    (a.mime_type.as_str(), a.data.as_str()),
                    ("audio/wav", b64(WAV).as_str())
                );
            }
            other => panic!("expected audio, got {other:?}"),
        }
        match &content[3] {
            ContentBlock::Resource(r) => match &r.resource {
                ResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob,
                    ..
                } => {
                    assert_eq!(uri, "attachment:///q3%20report.pdf");
                    assert_eq!(mime_type.as_deref(), Some("application/pdf"));
                    assert_eq!(blob, &b64(PDF));
                }
                other => panic!("expected a blob, got {other:?}"),
            },
            other => panic!("expected an embedded resource, got {other:?}"),
        }
        match &content[4] {
            ContentBlock::ResourceLink(link) => {
                assert_eq!(link.uri, "https://example.com/q3.csv");
                assert_eq!(link.name, "q3.csv");
                assert_eq!(link.mime_type.as_deref(), Some("text/csv"));
            }
            other => panic!("expected a resource link, got {other:?}"),
        }
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn our_client_reads_them_back_into_attachments() {
    bounded(async {
        let (near, far) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = server().serve_on(far).await {
                let _ = running.waiting().await;
            }
        });
        let client = McpClient::connect(near).await.unwrap();
        let mut registry = tool_core::ToolRegistry::new();
        client.register_into(&mut registry, None).unwrap();
        let response = registry.call(&ToolCall::new("1", "report", "{}")).await;
        assert!(response.is_success(), "{response:?}");
        assert_eq!(response.text, "Q3 report");
        let got: Vec<Seen<'_>> = response
            .attachments
            .iter()
            .map(|a| (a.kind(), a.mime_type(), a.bytes(), a.name(), a.url()))
            .collect();
        assert_eq!(
            got,
            [
                (AttachmentKind::Image, "image/png", Some(PNG), None, None),
                (AttachmentKind::Audio, "audio/wav", Some(WAV), None, None),
                (
                    AttachmentKind::File,
                    "application/pdf",
                    Some(PDF),
                    Some("q3 report.pdf"),
                    None
                ),
                (
                    AttachmentKind::File,
                    "text/csv",
                    None,
                    Some("q3.csv"),
                    Some("https://example.com/q3.csv")
                ),
            ]
        );
        client.close().await;
    })
    .await;
}
