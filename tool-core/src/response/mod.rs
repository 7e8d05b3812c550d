//! The `ToolResponse` protocol: one envelope for every tool outcome.
//!
//! A response has a [`ToolStatus`] (`SUCCESS`, `PARTIAL`, `ERROR`), the `text` a model reads,
//! an optional structured `data` payload, `error_info` for errors, `stats` (the dispatcher fills
//! `time_ms`), `context`, side-channel `events` for a UI that never reach the model, and
//! [`Attachment`]s: images, audio and files the model receives next to the text.
//!
//! # JSON form
//!
//! ```json
//! {"status":"ERROR","text":"","error_info":{"code":"NOT_FOUND","message":"file 'a.txt' does not exist"},"stats":{"time_ms":3}}
//! ```
//!
//! Empty fields are omitted. `data` is kept as already-serialized JSON ([`RawJson`]) so a
//! tool's result is serialized exactly once on the hot path.

mod attachment;
mod code;
pub(crate) mod codec;
mod event;
mod stats;

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::raw_json::RawJson;
use serde_json::{Map, Value};

pub(crate) use attachment::check_sizes as check_attachment_sizes;
pub use attachment::{Attachment, AttachmentKind};
pub use code::{ErrorInfo, ToolErrorCode, ToolStatus};
pub use event::ToolEvent;
pub use stats::Stats;

/// The result of one tool call: the one envelope for every outcome.
///
/// Rarely used fields are boxed so the whole response stays small (144 bytes): it is moved
/// through every layer of the dispatcher, and at this size a move is a few register stores.
///
/// ```
/// use tool_core::{ToolErrorCode, ToolResponse, ToolStatus};
///
/// let ok = ToolResponse::success("3 files found").with_data(&["a.rs", "b.rs", "c.rs"]);
/// assert_eq!(ok.status, ToolStatus::Success);
/// assert_eq!(ok.model_text(), "3 files found\n[\"a.rs\",\"b.rs\",\"c.rs\"]");
///
/// let err = ToolResponse::error(ToolErrorCode::NotFound, "file 'config.py' does not exist");
/// assert_eq!(err.model_text(), "Error [NOT_FOUND]: file 'config.py' does not exist");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResponse {
    /// SUCCESS, PARTIAL or ERROR.
    pub status: ToolStatus,
    /// Text for the model to read.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Structured payload, already serialized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<RawJson>,
    /// Why a `PARTIAL` result is partial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Box<str>>,
    /// Code and message of an `ERROR`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_info: Option<Box<ErrorInfo>>,
    /// Run statistics (omitted from JSON when empty).
    #[serde(default, skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
    /// Context: parameters, environment, anything that explains the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Box<Map<String, Value>>>,
    /// Side-channel events for the UI; never part of [`ToolResponse::model_text`]. A boxed
    /// slice rather than a `Vec` to keep the response small; add with
    /// [`ToolResponse::with_event`].
    #[serde(default, skip_serializing_if = "<[ToolEvent]>::is_empty")]
    pub events: Box<[ToolEvent]>,
    /// Images, audio and files for the model, next to the text. Each API receives them in
    /// its own shape; where an API takes text only, [`ToolResponse::model_text`] names each
    /// one. The JSON form carries a reference to each (kind, MIME type, name, size,
    /// SHA-256 or URL), never the bytes. Add with [`ToolResponse::with_attachment`].
    #[serde(default, skip_serializing_if = "<[Attachment]>::is_empty")]
    pub attachments: Box<[Attachment]>,
}

impl ToolResponse {
    #[inline]
    fn with_status(status: ToolStatus, text: String) -> Self {
        ToolResponse {
            status,
            text,
            data: None,
            reason: None,
            error_info: None,
            stats: Stats {
                time_ms: None,
                extra: None,
            },
            context: None,
            events: Box::default(),
            attachments: Box::default(),
        }
    }

    /// A complete, successful result.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("done");
    /// assert!(r.is_success());
    /// ```
    pub fn success(text: impl Into<String>) -> Self {
        Self::with_status(ToolStatus::Success, text.into())
    }

    /// A usable but incomplete result, with the reason it is incomplete.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::partial("first 100 results", "500 matched; truncated");
    /// assert_eq!(r.model_text(), "Partial result (500 matched; truncated): first 100 results");
    /// ```
    pub fn partial(text: impl Into<String>, reason: impl Into<String>) -> Self {
        let mut r = Self::with_status(ToolStatus::Partial, text.into());
        r.reason = Some(reason.into().into_boxed_str());
        r
    }

    /// A failure with a standard code. `text` stays empty; the message lives in `error_info`.
    ///
    /// ```
    /// use tool_core::{ToolErrorCode, ToolResponse};
    /// let r = ToolResponse::error(ToolErrorCode::Timeout, "no answer after 5 s; try a smaller range");
    /// assert_eq!(r.error_code(), Some(ToolErrorCode::Timeout));
    /// ```
    pub fn error(code: ToolErrorCode, message: impl Into<String>) -> Self {
        let mut r = Self::with_status(ToolStatus::Error, String::new());
        r.error_info = Some(Box::new(ErrorInfo {
            code,
            message: message.into(),
        }));
        r
    }

    /// Attaches structured data, serialized once. A value that cannot be serialized turns the
    /// response into an `EXECUTION_ERROR` saying so, rather than silently dropping it.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("ok").with_data(&serde_json::json!({"n": 1}));
    /// assert_eq!(r.data.unwrap().get(), r#"{"n":1}"#);
    /// ```
    pub fn with_data<T: Serialize + ?Sized>(mut self, data: &T) -> Self {
        match RawJson::from_serialize(data) {
            Ok(raw) => {
                self.data = Some(raw);
                self
            }
            Err(e) => ToolResponse::unserializable(&e),
        }
    }

    /// A successful result that is only `data` (what `Json<T>` returns), built in one go.
    #[inline]
    pub(crate) fn success_with_data(data: RawJson) -> Self {
        ToolResponse {
            data: Some(data),
            ..Self::with_status(ToolStatus::Success, String::new())
        }
    }

    /// The `EXECUTION_ERROR` for a result that could not be serialized.
    #[cold]
    pub(crate) fn unserializable(e: &serde_json::Error) -> Self {
        ToolResponse::error(
            ToolErrorCode::ExecutionError,
            format!("the tool's result could not be serialized to JSON: {e}"),
        )
    }

    /// Attaches already-serialized data.
    ///
    /// ```
    /// let raw = tool_core::RawJson::from_string("[1,2]".into()).unwrap();
    /// let r = tool_core::ToolResponse::success("").with_raw_data(raw);
    /// assert_eq!(r.model_text(), "[1,2]");
    /// ```
    pub fn with_raw_data(mut self, data: impl Into<RawJson>) -> Self {
        self.data = Some(data.into());
        self
    }

    /// Sets statistics (the dispatcher still fills `time_ms`).
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("ok").with_stats(tool_core::Stats::default().with("count", 3));
    /// assert_eq!(r.stats.get("count"), Some(&serde_json::json!(3)));
    /// ```
    pub fn with_stats(mut self, stats: Stats) -> Self {
        self.stats = stats;
        self
    }

    /// Adds one context entry.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("ok").with_context("path", "/tmp/a");
    /// assert_eq!(r.context.unwrap()["path"], "/tmp/a");
    /// ```
    pub fn with_context(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.context
            .get_or_insert_with(Default::default)
            .insert(key.into(), value.into());
        self
    }

    /// Adds a side-channel event for the UI.
    ///
    /// ```
    /// use tool_core::{ToolEvent, ToolResponse};
    /// let r = ToolResponse::success("shown").with_event(ToolEvent::new("cards", serde_json::json!([])));
    /// assert_eq!(r.model_text(), "shown");
    /// assert_eq!(r.events.len(), 1);
    /// ```
    pub fn with_event(mut self, event: ToolEvent) -> Self {
        let mut events = std::mem::take(&mut self.events).into_vec();
        events.push(event);
        self.events = events.into_boxed_slice();
        self
    }

    /// Adds an attachment: an image, audio clip or file the model receives with the text.
    ///
    /// ```
    /// use tool_core::{Attachment, ToolResponse};
    /// let r = ToolResponse::success("the report")
    ///     .with_attachment(Attachment::file_url("https://example.com/q3.pdf", "application/pdf"));
    /// assert_eq!(r.attachments.len(), 1);
    /// ```
    pub fn with_attachment(mut self, attachment: Attachment) -> Self {
        let mut all = std::mem::take(&mut self.attachments).into_vec();
        all.push(attachment);
        self.attachments = all.into_boxed_slice();
        self
    }

    /// Adds an image from its bytes and MIME type (e.g. `image/png`).
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("chart").with_image(vec![0x89, b'P'], "image/png");
    /// assert_eq!(r.attachments[0].mime_type(), "image/png");
    /// ```
    pub fn with_image(self, bytes: impl Into<Arc<[u8]>>, mime_type: impl Into<String>) -> Self {
        self.with_attachment(Attachment::image(bytes, mime_type))
    }

    /// Adds an audio clip from its bytes and MIME type (e.g. `audio/wav`).
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("").with_audio(vec![0; 4], "audio/wav");
    /// assert_eq!(r.attachments[0].kind(), tool_core::AttachmentKind::Audio);
    /// ```
    pub fn with_audio(self, bytes: impl Into<Arc<[u8]>>, mime_type: impl Into<String>) -> Self {
        self.with_attachment(Attachment::audio(bytes, mime_type))
    }

    /// Adds a file from its bytes, MIME type and name (e.g. a PDF).
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("")
    ///     .with_file(b"%PDF-1.7".to_vec(), "application/pdf", "report.pdf");
    /// assert_eq!(r.model_text(), r#"[application/pdf, 8 B, "report.pdf"]"#);
    /// ```
    pub fn with_file(
        self,
        bytes: impl Into<Arc<[u8]>>,
        mime_type: impl Into<String>,
        name: impl Into<String>,
    ) -> Self {
        self.with_attachment(Attachment::file(bytes, mime_type).with_name(name))
    }

    /// Whether the status is `SUCCESS`.
    pub fn is_success(&self) -> bool {
        self.status == ToolStatus::Success
    }

    /// Whether the status is `ERROR`.
    ///
    /// ```
    /// assert!(tool_core::ToolResponse::error(tool_core::ToolErrorCode::Unknown, "?").is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.status == ToolStatus::Error
    }

    /// The error code, for an `ERROR` response.
    pub fn error_code(&self) -> Option<ToolErrorCode> {
        self.error_info.as_ref().map(|e| e.code)
    }

    /// The error message, for an `ERROR` response.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::error(tool_core::ToolErrorCode::Unknown, "boom");
    /// assert_eq!(r.error_message(), Some("boom"));
    /// ```
    pub fn error_message(&self) -> Option<&str> {
        self.error_info.as_ref().map(|e| e.message.as_str())
    }

    /// Milliseconds the call took, as recorded by the dispatcher.
    pub fn time_ms(&self) -> Option<u64> {
        self.stats.time_ms
    }

    /// Deserializes `data` into a typed value.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("").with_data(&[1, 2, 3]);
    /// let v: Vec<u8> = r.data_as().unwrap().unwrap();
    /// assert_eq!(v, [1, 2, 3]);
    /// ```
    pub fn data_as<T: serde::de::DeserializeOwned>(&self) -> Option<serde_json::Result<T>> {
        self.data.as_ref().map(|d| serde_json::from_str(d.get()))
    }

    /// The text the model reads for this response.
    ///
    /// - `SUCCESS`: `text`, then the `data` JSON on the next line when there is data;
    ///   `data` alone when `text` is empty; `"Done."` when both are empty.
    /// - `PARTIAL`: `Partial result (<reason>): ` followed by the same body.
    /// - `ERROR`: `Error [<CODE>]: <message>`.
    ///
    /// Then one line per attachment naming it ([`Attachment::note`]), for an API that takes
    /// text only (a success with attachments and no text or data is just those lines).
    /// Events, stats and context are never included. Borrowed when no formatting is needed.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("").with_data(&42);
    /// assert_eq!(r.model_text(), "42");
    /// assert_eq!(tool_core::ToolResponse::success("").model_text(), "Done.");
    /// ```
    pub fn model_text(&self) -> Cow<'_, str> {
        let text = self.model_text_without_attachments();
        if self.attachments.is_empty() {
            return text;
        }
        let mut out = text.into_owned();
        for a in self.attachments.iter() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&a.note());
        }
        Cow::Owned(out)
    }

    /// [`ToolResponse::model_text`] without the attachments' lines: the text an API that
    /// receives the attachments themselves gets next to them (empty for a success that has
    /// attachments and nothing else).
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("chart").with_image(vec![1], "image/png");
    /// assert_eq!(r.model_text_without_attachments(), "chart");
    /// assert_eq!(r.model_text(), "chart\n[image/png, 1 B]");
    /// ```
    pub fn model_text_without_attachments(&self) -> Cow<'_, str> {
        match self.status {
            ToolStatus::Error => {
                let (code, message) = match &self.error_info {
                    Some(info) => (info.code, info.message.as_str()),
                    None => (ToolErrorCode::Unknown, self.text.as_str()),
                };
                Cow::Owned(format!("Error [{code}]: {message}"))
            }
            ToolStatus::Success => self.body(),
            ToolStatus::Partial => {
                let reason = self.reason.as_deref().unwrap_or("incomplete");
                Cow::Owned(format!("Partial result ({reason}): {}", self.body()))
            }
        }
    }

    /// [`ToolResponse::model_text`] by value: the same text, moved out of the response
    /// rather than copied where it can be (a text or a data result is handed over as it is;
    /// text with data grows the text's own buffer). What to send the model when the response
    /// itself is no longer needed.
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("3 files").with_data(&["a", "b", "c"]);
    /// assert_eq!(r.clone().into_model_text(), r.model_text());
    /// assert_eq!(tool_core::ToolResponse::success("").into_model_text(), "Done.");
    /// ```
    #[inline]
    pub fn into_model_text(mut self) -> String {
        // A plain success (what most calls return) owns nothing but its text and data: take
        // those and skip the drop code of every other field, reading each field once.
        if self.status == ToolStatus::Success && self.owns_only_body() {
            let text = std::mem::take(&mut self.text);
            let data = self.data.take();
            // Nothing left to free: `owns_only_body` said so, and text and data are taken.
            std::mem::forget(self);
            return success_body(text, data);
        }
        self.into_model_text_slow()
    }

    /// Whether every field but `text` and `data` is empty (and so owns no allocation).
    #[inline]
    fn owns_only_body(&self) -> bool {
        // `&`, not `&&`: five loads and one branch rather than five branches.
        self.reason.is_none()
            & self.error_info.is_none()
            & self.stats.extra.is_none()
            & self.context.is_none()
            & self.events.is_empty()
            & self.attachments.is_empty()
    }

    #[inline(never)]
    fn into_model_text_slow(self) -> String {
        if self.status != ToolStatus::Success || !self.attachments.is_empty() {
            return self.model_text().into_owned();
        }
        success_body(self.text, self.data)
    }

    fn body(&self) -> Cow<'_, str> {
        match (&self.data, self.text.is_empty()) {
            (None, false) => Cow::Borrowed(&self.text),
            (None, true) if self.attachments.is_empty() => Cow::Borrowed("Done."),
            (None, true) => Cow::Borrowed(""),
            (Some(d), true) => Cow::Borrowed(d.get()),
            (Some(d), false) => Cow::Owned(format!("{}\n{}", self.text, d.get())),
        }
    }

    /// The JSON form of the whole response (including events, stats and context).
    ///
    /// ```
    /// let r = tool_core::ToolResponse::success("hi");
    /// assert_eq!(r.to_json(), r#"{"status":"SUCCESS","text":"hi"}"#);
    /// ```
    pub fn to_json(&self) -> String {
        // Serializing this type cannot fail: every field is a string, a number, raw JSON or a
        // `Value`, all of which serde_json writes infallibly to a Vec.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A success's model text from its text and data, reusing their buffers.
#[inline]
fn success_body(text: String, data: Option<RawJson>) -> String {
    match (data, text.is_empty()) {
        (None, false) => text,
        (None, true) => "Done.".to_owned(),
        (Some(data), true) => data.into_string(),
        (Some(data), false) => {
            let mut text = text;
            text.reserve_exact(1 + data.get().len());
            text.push('\n');
            text.push_str(data.get());
            text
        }
    }
}
