//! Non-text results: an image, audio clip or file a tool hands back next to its text.
//!
//! An attachment is bytes plus a MIME type, or a URL. Each API's writer decides how the model
//! receives it (an image block, an `input_file`, a function-response part, an MCP embedded
//! resource) and where an API takes text only, the model reads [`Attachment::note`]. The JSON
//! form of an attachment (in `ToolResponse::to_json`, run events, server-sent events) is a
//! reference, never the bytes: kind, MIME type, name, size and SHA-256, or the URL.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::codec::{base64_encode, sha256_hex};

/// What an attachment is: an image, an audio clip, or any other file (a PDF, a CSV, ...).
///
/// ```
/// use tool_core::{Attachment, AttachmentKind};
/// assert_eq!(Attachment::image(vec![1, 2], "image/png").kind(), AttachmentKind::Image);
/// assert_eq!(AttachmentKind::File.as_str(), "file");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AttachmentKind {
    /// A picture (`image/png`, `image/jpeg`, `image/gif`, `image/webp`, ...).
    Image,
    /// An audio clip (`audio/wav`, `audio/mpeg`, ...).
    Audio,
    /// Any other file: a document (`application/pdf`, `text/plain`), a spreadsheet, ...
    File,
}

impl AttachmentKind {
    /// The lowercase name: `"image"`, `"audio"` or `"file"`.
    ///
    /// ```
    /// assert_eq!(tool_core::AttachmentKind::Audio.as_str(), "audio");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            AttachmentKind::Image => "image",
            AttachmentKind::Audio => "audio",
            AttachmentKind::File => "file",
        }
    }
}

/// Where an attachment's content is.
#[derive(Clone, PartialEq)]
enum Source {
    /// The content itself (shared: a response is cloned into events and history).
    Bytes(Arc<[u8]>),
    /// A URL the provider fetches.
    Url(String),
    /// Read back from the JSON form: the bytes' size and digest, without the bytes.
    Reference { size: u64, sha256: String },
}

/// An image, audio clip or file in a tool's result: bytes and a MIME type, or a URL, with an
/// optional name. Cheap to clone (the bytes are shared).
///
/// ```
/// use tool_core::{Attachment, ToolResponse};
///
/// let png = vec![0x89, b'P', b'N', b'G'];
/// let chart = Attachment::image(png, "image/png").with_name("chart.png");
/// assert_eq!(chart.size(), Some(4));
/// assert_eq!(chart.note(), r#"[image/png, 4 B, "chart.png"]"#);
///
/// let r = ToolResponse::success("the chart").with_attachment(chart);
/// assert_eq!(r.model_text(), "the chart\n[image/png, 4 B, \"chart.png\"]");
/// ```
#[derive(Clone, PartialEq)]
pub struct Attachment {
    kind: AttachmentKind,
    mime_type: String,
    source: Source,
    name: Option<String>,
}

impl Attachment {
    fn new(kind: AttachmentKind, mime_type: impl Into<String>, source: Source) -> Self {
        Attachment {
            kind,
            mime_type: mime_type.into(),
            source,
            name: None,
        }
    }

    /// An image from its bytes, e.g. `image/png`.
    ///
    /// ```
    /// let a = tool_core::Attachment::image(vec![1, 2, 3], "image/png");
    /// assert_eq!(a.bytes(), Some(&[1u8, 2, 3][..]));
    /// ```
    pub fn image(bytes: impl Into<Arc<[u8]>>, mime_type: impl Into<String>) -> Self {
        Self::new(
            AttachmentKind::Image,
            mime_type,
            Source::Bytes(bytes.into()),
        )
    }

    /// An image the provider fetches from a URL.
    ///
    /// ```
    /// let a = tool_core::Attachment::image_url("https://example.com/a.png", "image/png");
    /// assert_eq!(a.url(), Some("https://example.com/a.png"));
    /// assert_eq!(a.size(), None);
    /// ```
    pub fn image_url(url: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::new(AttachmentKind::Image, mime_type, Source::Url(url.into()))
    }

    /// An audio clip from its bytes, e.g. `audio/wav`.
    ///
    /// ```
    /// let a = tool_core::Attachment::audio(vec![0; 8], "audio/wav");
    /// assert_eq!(a.kind(), tool_core::AttachmentKind::Audio);
    /// ```
    pub fn audio(bytes: impl Into<Arc<[u8]>>, mime_type: impl Into<String>) -> Self {
        Self::new(
            AttachmentKind::Audio,
            mime_type,
            Source::Bytes(bytes.into()),
        )
    }

    /// An audio clip the provider fetches from a URL.
    ///
    /// ```
    /// let a = tool_core::Attachment::audio_url("https://example.com/a.mp3", "audio/mpeg");
    /// assert_eq!(a.kind(), tool_core::AttachmentKind::Audio);
    /// ```
    pub fn audio_url(url: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::new(AttachmentKind::Audio, mime_type, Source::Url(url.into()))
    }

    /// A file from its bytes, e.g. `application/pdf` or `text/plain`.
    ///
    /// ```
    /// let a = tool_core::Attachment::file(b"%PDF-1.7".to_vec(), "application/pdf").with_name("report.pdf");
    /// assert_eq!(a.name(), Some("report.pdf"));
    /// ```
    pub fn file(bytes: impl Into<Arc<[u8]>>, mime_type: impl Into<String>) -> Self {
        Self::new(AttachmentKind::File, mime_type, Source::Bytes(bytes.into()))
    }

    /// A file the provider fetches from a URL.
    ///
    /// ```
    /// let a = tool_core::Attachment::file_url("https://example.com/r.pdf", "application/pdf");
    /// assert_eq!(a.mime_type(), "application/pdf");
    /// ```
    pub fn file_url(url: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::new(AttachmentKind::File, mime_type, Source::Url(url.into()))
    }

    /// Names the attachment (a file name or title); APIs that label attachments get it.
    ///
    /// ```
    /// let a = tool_core::Attachment::audio(vec![0], "audio/wav").with_name("hello.wav");
    /// assert_eq!(a.name(), Some("hello.wav"));
    /// ```
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Image, audio or file.
    ///
    /// ```
    /// let a = tool_core::Attachment::file(vec![], "text/csv");
    /// assert_eq!(a.kind(), tool_core::AttachmentKind::File);
    /// ```
    pub fn kind(&self) -> AttachmentKind {
        self.kind
    }

    /// The MIME type, e.g. `image/png`.
    ///
    /// ```
    /// assert_eq!(tool_core::Attachment::image(vec![], "image/webp").mime_type(), "image/webp");
    /// ```
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }

    /// The name, if one was given.
    ///
    /// ```
    /// assert_eq!(tool_core::Attachment::image(vec![], "image/png").name(), None);
    /// ```
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The bytes, for an attachment made from bytes (`None` for a URL, or one read back from
    /// its JSON reference).
    ///
    /// ```
    /// assert!(tool_core::Attachment::image_url("https://e.com/a.png", "image/png").bytes().is_none());
    /// ```
    pub fn bytes(&self) -> Option<&[u8]> {
        match &self.source {
            Source::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The URL, for an attachment made from a URL.
    ///
    /// ```
    /// assert!(tool_core::Attachment::audio(vec![], "audio/wav").url().is_none());
    /// ```
    pub fn url(&self) -> Option<&str> {
        match &self.source {
            Source::Url(u) => Some(u),
            _ => None,
        }
    }

    /// The size in bytes (`None` for a URL).
    ///
    /// ```
    /// assert_eq!(tool_core::Attachment::file(vec![0; 10], "text/plain").size(), Some(10));
    /// ```
    pub fn size(&self) -> Option<u64> {
        match &self.source {
            Source::Bytes(b) => Some(b.len() as u64),
            Source::Url(_) => None,
            Source::Reference { size, .. } => Some(*size),
        }
    }

    /// The SHA-256 of the bytes, as lowercase hex (`None` for a URL).
    ///
    /// ```
    /// let a = tool_core::Attachment::file(b"abc".to_vec(), "text/plain");
    /// assert_eq!(a.sha256().unwrap(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /// ```
    pub fn sha256(&self) -> Option<String> {
        match &self.source {
            Source::Bytes(b) => Some(sha256_hex(b)),
            Source::Url(_) => None,
            Source::Reference { sha256, .. } => Some(sha256.clone()),
        }
    }

    /// The bytes in standard base64, as the APIs take them inline.
    ///
    /// ```
    /// assert_eq!(tool_core::Attachment::file(b"hi".to_vec(), "text/plain").base64().unwrap(), "aGk=");
    /// ```
    pub fn base64(&self) -> Option<String> {
        self.bytes().map(base64_encode)
    }

    /// The bytes as a `data:` URL (`data:image/png;base64,...`), or the URL itself.
    ///
    /// ```
    /// let a = tool_core::Attachment::image(b"hi".to_vec(), "image/png");
    /// assert_eq!(a.data_url().unwrap(), "data:image/png;base64,aGk=");
    /// ```
    pub fn data_url(&self) -> Option<String> {
        match &self.source {
            Source::Bytes(b) => Some(format!(
                "data:{};base64,{}",
                self.mime_type,
                base64_encode(b)
            )),
            Source::Url(u) => Some(u.clone()),
            Source::Reference { .. } => None,
        }
    }

    /// What a model reads where an API takes text only: `[image/png, 34 KB, "chart.png"]`,
    /// or with the URL in place of the size.
    ///
    /// ```
    /// let a = tool_core::Attachment::file(vec![0; 2048], "application/pdf").with_name("r.pdf");
    /// assert_eq!(a.note(), r#"[application/pdf, 2 KB, "r.pdf"]"#);
    /// let u = tool_core::Attachment::image_url("https://e.com/a.png", "image/png");
    /// assert_eq!(u.note(), "[image/png, https://e.com/a.png]");
    /// ```
    pub fn note(&self) -> String {
        let place = match (&self.source, self.size()) {
            (Source::Url(u), _) => u.clone(),
            (_, Some(size)) => human_size(size),
            (_, None) => String::new(),
        };
        match &self.name {
            Some(name) => format!("[{}, {place}, {:?}]", self.mime_type, name),
            None => format!("[{}, {place}]", self.mime_type),
        }
    }

    /// The bytes as UTF-8 text, for a `text/*` file an API takes as text.
    pub(crate) fn utf8(&self) -> Option<&str> {
        self.bytes().and_then(|b| std::str::from_utf8(b).ok())
    }
}

/// `812 B`, `34 KB`, `7.2 MB` (binary units, as file managers show them).
fn human_size(size: u64) -> String {
    const KB: u64 = 1024;
    const MB: u64 = 1024 * 1024;
    if size < KB {
        format!("{size} B")
    } else if size < MB {
        format!("{} KB", (size + KB / 2) / KB)
    } else {
        format!("{:.1} MB", size as f64 / MB as f64)
    }
}

impl fmt::Debug for Attachment {
    /// The reference, never the bytes (a screenshot in a log line helps nobody).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Attachment")
            .field("kind", &self.kind)
            .field("mime_type", &self.mime_type)
            .field("name", &self.name)
            .field("size", &self.size())
            .field("url", &self.url())
            .finish()
    }
}

/// The JSON form: a reference to the content, never the content.
#[derive(Serialize, Deserialize)]
struct Reference {
    kind: AttachmentKind,
    mime_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sha256: Option<String>,
}

impl Serialize for Attachment {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Reference {
            kind: self.kind,
            mime_type: self.mime_type.clone(),
            name: self.name.clone(),
            url: self.url().map(str::to_owned),
            size: self.size(),
            sha256: self.sha256(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Attachment {
    /// Reads the reference back: a URL attachment is whole again; one made from bytes keeps
    /// its size and digest but not the bytes, and is written to a model as its note.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let r = Reference::deserialize(deserializer)?;
        let source = match (r.url, r.size, r.sha256) {
            (Some(url), _, _) => Source::Url(url),
            (None, size, sha256) => Source::Reference {
                size: size.unwrap_or(0),
                sha256: sha256.unwrap_or_default(),
            },
        };
        Ok(Attachment {
            kind: r.kind,
            mime_type: r.mime_type,
            source,
            name: r.name,
        })
    }
}

/// The size limits on a response's attachments: one attachment, and all of a response's
/// together. Part of [`Limits`](crate::Limits); a response over either becomes an error the
/// model reads, naming the attachment and the limit.
///
/// The defaults (10 MiB each, 20 MiB in total) stay under what the providers take inline in
/// one request (Gemini's 20 MB inline request limit is the tightest).
pub(crate) fn check_sizes(
    attachments: &[Attachment],
    per_attachment: usize,
    total: usize,
) -> Result<(), String> {
    let mut sum: u64 = 0;
    for a in attachments {
        let size = match &a.source {
            Source::Bytes(b) => b.len() as u64,
            _ => continue,
        };
        if size > per_attachment as u64 {
            return Err(format!(
                "the result carries {}, over the limit of {} per attachment; return a smaller or compressed file, or a URL to it",
                a.note(),
                human_size(per_attachment as u64)
            ));
        }
        sum += size;
    }
    if sum > total as u64 {
        return Err(format!(
            "the result's attachments add up to {}, over the limit of {} per result; return fewer or smaller files, or URLs to them",
            human_size(sum),
            human_size(total as u64)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_form_is_a_reference_and_reads_back() {
        let a = Attachment::image(b"abc".to_vec(), "image/png").with_name("a.png");
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"image","mime_type":"image/png","name":"a.png","size":3,"sha256":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}"#
        );
        let back: Attachment = serde_json::from_str(&json).unwrap();
        assert_eq!(back.bytes(), None);
        assert_eq!(back.size(), Some(3));
        assert_eq!(back.note(), a.note());
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let url = Attachment::file_url("https://e.com/r.pdf", "application/pdf");
        let back: Attachment = serde_json::from_str(&serde_json::to_string(&url).unwrap()).unwrap();
        assert_eq!(back, url);
    }

    #[test]
    fn a_response_stays_small() {
        // Moved through every layer of the dispatcher: attachments add one boxed slice.
        assert_eq!(std::mem::size_of::<crate::ToolResponse>(), 144);
    }

    #[test]
    fn sizes_are_checked_per_attachment_and_in_total() {
        let a = Attachment::image(vec![0; 300], "image/png").with_name("big.png");
        let err = check_sizes(std::slice::from_ref(&a), 200, 1000).unwrap_err();
        assert!(
            err.contains("\"big.png\"") && err.contains("200 B per attachment"),
            "{err}"
        );
        let two = [a.clone(), a.clone(), a];
        let err = check_sizes(&two, 400, 800).unwrap_err();
        assert!(
            err.contains("add up to 900 B") && err.contains("800 B per result"),
            "{err}"
        );
        assert!(check_sizes(&two, 400, 900).is_ok());
        assert!(human_size(3 * 1024 * 1024 / 2).starts_with("1.5 MB"));
    }
}
