//! A tool result's attachments in Chat Completions. A `tool` message takes text only
//! (openai-python's `ChatCompletionToolMessageParam`: a string or text parts), so the tool
//! message names each attachment ([`ToolResponse::model_text`](crate::ToolResponse::model_text))
//! and one `user` message after the turn's tool messages carries what a user message may hold:
//! `image_url` parts (a `data:` URL or the URL), `file` parts (`file_data` as a `data:` URL
//! with its `filename`; PDFs) and `input_audio` parts (WAV or MP3). Attachments none of those
//! fit (a file at a URL, other audio) stay named in the tool message only.

use serde_json::{json, Value};

use crate::call::ToolCall;
use crate::response::{Attachment, AttachmentKind, ToolResponse};

/// The image types Chat Completions reads.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/// The `user` message carrying the turn's attachments, if any fits a user message.
pub(super) fn user_message<'a>(
    pairs: impl Iterator<Item = (&'a ToolCall, &'a ToolResponse)>,
) -> Option<Value> {
    let mut content = Vec::new();
    for (call, response) in pairs {
        for a in response.attachments.iter() {
            if let Some(p) = part(a) {
                content.push(json!({"type": "text", "text": format!(
                    "{} from the result of {} ({})", a.note(), call.name, call.id)}));
                content.push(p);
            }
        }
    }
    (!content.is_empty()).then(|| json!({"role": "user", "content": content}))
}

fn part(a: &Attachment) -> Option<Value> {
    let mime = a.mime_type();
    match a.kind() {
        AttachmentKind::Image if IMAGE_TYPES.contains(&mime) => {
            Some(json!({"type": "image_url", "image_url": {"url": a.data_url()?}}))
        }
        AttachmentKind::Audio => {
            let format = match mime {
                "audio/wav" | "audio/x-wav" | "audio/wave" => "wav",
                "audio/mpeg" | "audio/mp3" => "mp3",
                _ => return None,
            };
            Some(
                json!({"type": "input_audio", "input_audio": {"data": a.base64()?, "format": format}}),
            )
        }
        AttachmentKind::File if mime == "application/pdf" => {
            let data = a.bytes().and_then(|_| a.data_url())?;
            let name = a.name().unwrap_or("attachment.pdf");
            Some(json!({"type": "file", "file": {"file_data": data, "filename": name}}))
        }
        _ => None,
    }
}
