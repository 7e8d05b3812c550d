//! Return types for results that are not text: [`Image`], [`Audio`] and [`File`], siblings of
//! [`Json<T>`](super::Json). Each becomes a success carrying one [`Attachment`]; a pair
//! `(T, Image)` (or `Audio`, `File`, `Attachment`) adds it to what `T` returns, so a tool can
//! answer with text or data and a picture.

use std::sync::Arc;

use super::IntoToolResponse;
use crate::response::{Attachment, ToolResponse};

macro_rules! media_type {
    ($(#[$doc:meta])* $name:ident, $bytes:ident, $url:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name(Attachment);

        impl $name {
            /// From bytes and a MIME type.
            ///
            /// ```
            #[doc = concat!("let a = tool_core::", stringify!($name), "::new(vec![1, 2], \"application/octet-stream\");")]
            /// assert_eq!(a.attachment().size(), Some(2));
            /// ```
            pub fn new(bytes: impl Into<Arc<[u8]>>, mime_type: impl Into<String>) -> Self {
                $name(Attachment::$bytes(bytes, mime_type))
            }

            /// From a URL the provider fetches, and its MIME type.
            ///
            /// ```
            #[doc = concat!("let a = tool_core::", stringify!($name), "::url(\"https://example.com/x\", \"application/octet-stream\");")]
            /// assert_eq!(a.attachment().url(), Some("https://example.com/x"));
            /// ```
            pub fn url(url: impl Into<String>, mime_type: impl Into<String>) -> Self {
                $name(Attachment::$url(url, mime_type))
            }

            /// Names it (a file name or title).
            ///
            /// ```
            #[doc = concat!("let a = tool_core::", stringify!($name), "::new(vec![], \"application/octet-stream\").with_name(\"x.bin\");")]
            /// assert_eq!(a.attachment().name(), Some("x.bin"));
            /// ```
            pub fn with_name(self, name: impl Into<String>) -> Self {
                $name(self.0.with_name(name))
            }

            /// The attachment it carries.
            ///
            /// ```
            #[doc = concat!("let a = tool_core::", stringify!($name), "::new(vec![0], \"application/octet-stream\");")]
            /// assert_eq!(a.attachment().bytes(), Some(&[0u8][..]));
            /// ```
            pub fn attachment(&self) -> &Attachment {
                &self.0
            }
        }

        impl From<$name> for Attachment {
            fn from(value: $name) -> Attachment {
                value.0
            }
        }

        impl IntoToolResponse for $name {
            fn into_tool_response(self) -> ToolResponse {
                self.0.into_tool_response()
            }
        }

        impl<T: IntoToolResponse> IntoToolResponse for (T, $name) {
            fn into_tool_response(self) -> ToolResponse {
                self.0.into_tool_response().with_attachment(self.1 .0)
            }
        }
    };
}

media_type!(
    /// An image returned by a tool: the model sees the picture where its API takes images in
    /// a tool result, and a line naming it elsewhere.
    ///
    /// ```
    /// use tool_core::{tool, tools, Image, ToolCall};
    ///
    /// /// Draws the sales chart.
    /// #[tool]
    /// fn chart() -> (String, Image) {
    ///     let png = vec![0x89, b'P', b'N', b'G']; // a real tool renders one
    ///     ("sales by month".into(), Image::png(png).with_name("sales.png"))
    /// }
    ///
    /// let r = tools![chart].call_blocking(&ToolCall::new("1", "chart", "{}"));
    /// assert_eq!(r.attachments[0].mime_type(), "image/png");
    /// assert_eq!(r.model_text(), "sales by month\n[image/png, 4 B, \"sales.png\"]");
    /// ```
    Image, image, image_url
);

media_type!(
    /// An audio clip returned by a tool (e.g. `audio/wav`).
    ///
    /// ```
    /// use tool_core::{Audio, IntoToolResponse};
    /// let r = Audio::wav(vec![0; 44]).into_tool_response();
    /// assert_eq!(r.model_text(), "[audio/wav, 44 B]");
    /// ```
    Audio, audio, audio_url
);

media_type!(
    /// A file returned by a tool: a PDF, a plain-text or CSV file, ...
    ///
    /// ```
    /// use tool_core::{File, IntoToolResponse};
    /// let r = File::pdf(b"%PDF-1.7".to_vec()).with_name("report.pdf").into_tool_response();
    /// assert_eq!(r.model_text(), "[application/pdf, 8 B, \"report.pdf\"]");
    /// ```
    File, file, file_url
);

impl Image {
    /// A PNG image from its bytes.
    ///
    /// ```
    /// assert_eq!(tool_core::Image::png(vec![]).attachment().mime_type(), "image/png");
    /// ```
    pub fn png(bytes: impl Into<Arc<[u8]>>) -> Self {
        Self::new(bytes, "image/png")
    }

    /// A JPEG image from its bytes.
    ///
    /// ```
    /// assert_eq!(tool_core::Image::jpeg(vec![]).attachment().mime_type(), "image/jpeg");
    /// ```
    pub fn jpeg(bytes: impl Into<Arc<[u8]>>) -> Self {
        Self::new(bytes, "image/jpeg")
    }
}

impl Audio {
    /// A WAV clip from its bytes.
    ///
    /// ```
    /// assert_eq!(tool_core::Audio::wav(vec![]).attachment().mime_type(), "audio/wav");
    /// ```
    pub fn wav(bytes: impl Into<Arc<[u8]>>) -> Self {
        Self::new(bytes, "audio/wav")
    }

    /// An MP3 clip from its bytes.
    ///
    /// ```
    /// assert_eq!(tool_core::Audio::mp3(vec![]).attachment().mime_type(), "audio/mpeg");
    /// ```
    pub fn mp3(bytes: impl Into<Arc<[u8]>>) -> Self {
        Self::new(bytes, "audio/mpeg")
    }
}

impl File {
    /// A PDF from its bytes.
    ///
    /// ```
    /// assert_eq!(tool_core::File::pdf(vec![]).attachment().mime_type(), "application/pdf");
    /// ```
    pub fn pdf(bytes: impl Into<Arc<[u8]>>) -> Self {
        Self::new(bytes, "application/pdf")
    }

    /// A UTF-8 plain-text file.
    ///
    /// ```
    /// let f = tool_core::File::text("a,b\n1,2").with_name("t.txt");
    /// assert_eq!(f.attachment().mime_type(), "text/plain");
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(text.into().into_bytes(), "text/plain")
    }
}

/// A result that is only this attachment (no text).
///
/// ```
/// use tool_core::{Attachment, IntoToolResponse};
/// let r = Attachment::image_url("https://example.com/a.png", "image/png").into_tool_response();
/// assert!(r.is_success() && r.text.is_empty());
/// ```
impl IntoToolResponse for Attachment {
    fn into_tool_response(self) -> ToolResponse {
        ToolResponse::success(String::new()).with_attachment(self)
    }
}

impl<T: IntoToolResponse> IntoToolResponse for (T, Attachment) {
    fn into_tool_response(self) -> ToolResponse {
        self.0.into_tool_response().with_attachment(self.1)
    }
}
