//! A tool result's attachments as MCP content, and back. From the MCP specification (Tools,
//! tool result): `{"type": "image" | "audio", "data": <base64>, "mimeType"}`, an embedded
//! resource `{"type": "resource", "resource": {"uri", "mimeType", "blob" | "text"}}`, and a
//! resource link `{"type": "resource_link", "uri", "name", "mimeType"}`.
//!
//! Images and audio given as bytes are image and audio content; files given as bytes are
//! embedded resources (`text` for UTF-8 `text/*`, else `blob`) under an `attachment:///<name>`
//! URI; anything given as a URL is a resource link.

use serde_json::{json, Map, Value};

use crate::response::codec::base64_decode;
use crate::response::{Attachment, AttachmentKind};

/// The scheme of the URIs embedded attachments get: the name travels in the URI, since an
/// embedded resource has no name field of its own.
const SCHEME: &str = "attachment:///";

/// One content block for an attachment.
pub(super) fn content_block(a: &Attachment) -> Value {
    if let Some(url) = a.url() {
        let mut out = Map::new();
        out.insert("type".into(), json!("resource_link"));
        out.insert("uri".into(), json!(url));
        out.insert("name".into(), json!(a.name().unwrap_or(url)));
        out.insert("mimeType".into(), json!(a.mime_type()));
        return Value::Object(out);
    }
    let Some(data) = a.base64() else {
        // Read back from a reference: the bytes are not here to send.
        return json!({"type": "text", "text": a.note()});
    };
    match a.kind() {
        AttachmentKind::Image => json!({"type": "image", "data": data, "mimeType": a.mime_type()}),
        AttachmentKind::Audio => json!({"type": "audio", "data": data, "mimeType": a.mime_type()}),
        _ => {
            let name = a
                .name()
                .map_or_else(|| a.sha256().unwrap_or_default(), str::to_owned);
            let uri = format!("{SCHEME}{}", encode(&name));
            let resource = match a.utf8().filter(|_| a.mime_type().starts_with("text/")) {
                Some(text) => json!({"uri": uri, "mimeType": a.mime_type(), "text": text}),
                None => json!({"uri": uri, "mimeType": a.mime_type(), "blob": data}),
            };
            json!({"type": "resource", "resource": resource})
        }
    }
}

/// An attachment from a content block of a server's result: image and audio content, a blob
/// resource, or a resource link. `None` for text (and text resources), and for a block whose
/// data is not valid base64 (the caller names it in the text instead).
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn read_block(block: &Value) -> Option<Attachment> {
    let str_at = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let mime =
        |v: &Value| str_at(v, "mimeType").unwrap_or_else(|| "application/octet-stream".into());
    match block.get("type")?.as_str()? {
        "image" => Some(Attachment::image(
            base64_decode(block.get("data")?.as_str()?)?,
            mime(block),
        )),
        "audio" => Some(Attachment::audio(
            base64_decode(block.get("data")?.as_str()?)?,
            mime(block),
        )),
        "resource" => {
            let resource = block.get("resource")?;
            let blob = base64_decode(resource.get("blob")?.as_str()?)?;
            let uri = str_at(resource, "uri").unwrap_or_default();
            let a = Attachment::file(blob, mime(resource));
            Some(match uri.strip_prefix(SCHEME) {
                Some(name) => a.with_name(decode(name)),
                None if uri.is_empty() => a,
                None => a.with_name(uri),
            })
        }
        "resource_link" => {
            let uri = str_at(block, "uri")?;
            let a = Attachment::file_url(uri, mime(block));
            Some(match str_at(block, "name") {
                Some(name) => a.with_name(name),
                None => a,
            })
        }
        _ => None,
    }
}

/// Percent-encodes everything but unreserved URI characters.
fn encode(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Reverses [`encode`]; a malformed escape is kept as it is.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_read_back_into_the_same_attachments() {
        let all = [
            Attachment::image(vec![1, 2, 3], "image/png"),
            Attachment::audio(vec![4, 5], "audio/wav"),
            Attachment::file(vec![0xff, 0], "application/pdf").with_name("q3 report.pdf"),
            Attachment::file_url("https://e.com/a.pdf", "application/pdf").with_name("a.pdf"),
        ];
        for a in all {
            let block = content_block(&a);
            assert_eq!(read_block(&block).as_ref(), Some(&a), "{block}");
        }
        let block = content_block(&Attachment::file(vec![0], "application/pdf").with_name("a b/c"));
        assert_eq!(block["resource"]["uri"], "attachment:///a%20b%2Fc");
        assert!(
            read_block(&json!({"type": "image", "data": "!!", "mimeType": "image/png"})).is_none()
        );
        assert!(read_block(&json!({"type": "text", "text": "x"})).is_none());
    }
}
