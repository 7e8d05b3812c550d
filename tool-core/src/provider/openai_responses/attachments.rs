//! A tool result's attachments in a Responses `function_call_output`: `output` becomes a list
//! of `input_text`, `input_image` (a `data:` URL or the URL) and `input_file` (`file_data` as
//! a `data:` URL with a `filename`, or `file_url`) items, as openai-python's
//! `ResponseFunctionCallOutputItemParam` types them. Audio has no item type there; it is an
//! `input_text` naming it.

use serde_json::{json, Map, Value};

use crate::response::{Attachment, AttachmentKind};

/// The image types the Responses API reads.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/// The `output` list: the text (when there is any), then one item per attachment.
pub(super) fn output_items(text: &str, attachments: &[Attachment]) -> Value {
    let mut items = Vec::with_capacity(attachments.len() + 1);
    if !text.is_empty() {
        items.push(json!({"type": "input_text", "text": text}));
    }
    items.extend(attachments.iter().map(item));
    Value::Array(items)
}

fn item(a: &Attachment) -> Value {
    match a.kind() {
        AttachmentKind::Image if IMAGE_TYPES.contains(&a.mime_type()) => {
            if let Some(url) = a.data_url() {
                return json!({"type": "input_image", "image_url": url, "detail": "auto"});
            }
        }
        AttachmentKind::File => {
            let mut out = Map::new();
            out.insert("type".into(), json!("input_file"));
            if let Some(url) = a.url() {
                out.insert("file_url".into(), json!(url));
                if let Some(name) = a.name() {
                    out.insert("filename".into(), json!(name));
                }
                return Value::Object(out);
            }
            if let Some(data) = a.data_url() {
                out.insert("file_data".into(), json!(data));
                // The API wants a file name with inline data.
                let name = a.name().map_or_else(|| default_name(a), str::to_owned);
                out.insert("filename".into(), json!(name));
                return Value::Object(out);
            }
        }
        _ => {}
    }
    json!({"type": "input_text", "text": a.note()})
}

/// `attachment.pdf` and the like, for a file given without a name.
fn default_name(a: &Attachment) -> String {
    let ext = match a.mime_type() {
        "application/pdf" => "pdf",
        "text/plain" => "txt",
        "text/csv" => "csv",
        "application/json" => "json",
        _ => "bin",
    };
    format!("attachment.{ext}")
}
