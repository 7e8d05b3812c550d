//! A tool result's attachments as Anthropic content blocks inside `tool_result.content`:
//! `image` blocks (base64 or URL source; JPEG, PNG, GIF, WebP) and `document` blocks (a PDF
//! as base64 or URL, plain text as a `text` source). Anything else (audio, other files) is
//! a text block naming it, since a `tool_result` takes no other kind of content.

use serde_json::{json, Map, Value};

use crate::response::{Attachment, AttachmentKind};

/// The image types the Messages API takes (anthropic-sdk-python `Base64ImageSourceParam`).
const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// The `tool_result.content` blocks: the text (when there is any), then one block per
/// attachment, in order.
pub(super) fn content_blocks(text: &str, attachments: &[Attachment]) -> Value {
    let mut blocks = Vec::with_capacity(attachments.len() + 1);
    if !text.is_empty() {
        blocks.push(json!({"type": "text", "text": text}));
    }
    blocks.extend(attachments.iter().map(block));
    Value::Array(blocks)
}

fn block(a: &Attachment) -> Value {
    let mime = a.mime_type();
    let image = a.kind() == AttachmentKind::Image && IMAGE_TYPES.contains(&mime);
    if image {
        if let Some(source) = source(a, "base64") {
            return json!({"type": "image", "source": source});
        }
    } else if a.kind() == AttachmentKind::File && mime == "application/pdf" {
        if let Some(source) = source(a, "base64") {
            return document(a, source);
        }
    } else if a.kind() == AttachmentKind::File && mime == "text/plain" {
        if let Some(text) = a.utf8() {
            return document(
                a,
                json!({"type": "text", "media_type": "text/plain", "data": text}),
            );
        }
    }
    json!({"type": "text", "text": a.note()})
}

/// `{"type": "base64", "media_type", "data"}` for bytes, `{"type": "url", "url"}` for a URL.
fn source(a: &Attachment, inline: &str) -> Option<Value> {
    if let Some(url) = a.url() {
        return Some(json!({"type": "url", "url": url}));
    }
    let data = a.base64()?;
    Some(json!({"type": inline, "media_type": a.mime_type(), "data": data}))
}

fn document(a: &Attachment, source: Value) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!("document"));
    out.insert("source".into(), source);
    if let Some(name) = a.name() {
        out.insert("title".into(), json!(name));
    }
    Value::Object(out)
}
