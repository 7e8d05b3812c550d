//! A tool result's attachments as Gemini function-response parts: `functionResponse.parts`
//! of `inlineData` (base64 bytes) or `fileData` (a URI), each with its MIME type and, when
//! named, a `displayName` (python-genai's `FunctionResponsePart`, `FunctionResponseBlob`,
//! `FunctionResponseFileData`). Gemini reads images, PDFs and plain text there; audio and
//! other files are named in the response text instead.

use serde_json::{json, Map, Value};

use crate::response::Attachment;

/// Whether Gemini takes this MIME type in a function response part.
fn accepted(mime: &str) -> bool {
    matches!(
        mime,
        "image/png" | "image/jpeg" | "image/webp" | "application/pdf" | "text/plain"
    )
}

/// The attachments Gemini takes as parts, and the notes for the rest (for the text).
pub(super) fn parts(attachments: &[Attachment]) -> (Vec<Value>, Vec<String>) {
    let mut parts = Vec::new();
    let mut notes = Vec::new();
    for a in attachments {
        match part(a) {
            Some(p) if accepted(a.mime_type()) => parts.push(p),
            _ => notes.push(a.note()),
        }
    }
    (parts, notes)
}

fn part(a: &Attachment) -> Option<Value> {
    let mut body = Map::new();
    body.insert("mimeType".into(), json!(a.mime_type()));
    let key = if let Some(url) = a.url() {
        body.insert("fileUri".into(), json!(url));
        "fileData"
    } else {
        body.insert("data".into(), json!(a.base64()?));
        "inlineData"
    };
    if let Some(name) = a.name() {
        body.insert("displayName".into(), json!(name));
    }
    Some(json!({ key: body }))
}
