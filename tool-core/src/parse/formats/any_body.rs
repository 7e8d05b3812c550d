//! The body of a block of any block format, as one enum: the per-chunk calls of
//! [`BlockParser`](super::blocks::BlockParser) are then direct (and inlined) rather than
//! through a `Box<dyn Body>`, which matters when a chunk is a few bytes.

use super::blocks::Body;
use super::core::Parsed;
use super::hermes::HermesBody;
use super::mistral::MistralBody;
use super::qwen_xml::QwenXmlBody;
use super::{FormatOptions, ToolFormat};

#[derive(Debug)]
pub(crate) enum AnyBody {
    Hermes(HermesBody),
    QwenXml(QwenXmlBody),
    Mistral(MistralBody),
}

impl AnyBody {
    /// An empty body for `format` (Hermes' for the formats without blocks, which never open
    /// one).
    pub(crate) fn new(format: ToolFormat) -> Self {
        match format {
            ToolFormat::Mistral => AnyBody::Mistral(MistralBody::new()),
            ToolFormat::QwenXml => AnyBody::QwenXml(QwenXmlBody::new()),
            _ => AnyBody::Hermes(HermesBody::new()),
        }
    }
}

/// Calls `$method` on whichever body this is.
macro_rules! each {
    ($self:expr, $body:ident => $call:expr) => {
        match $self {
            AnyBody::Hermes($body) => $call,
            AnyBody::QwenXml($body) => $call,
            AnyBody::Mistral($body) => $call,
        }
    };
}

impl Body for AnyBody {
    #[inline]
    fn feed(&mut self, s: &str) -> (usize, bool) {
        each!(self, b => b.feed(s))
    }

    #[inline]
    fn scan_content(&mut self, s: &str) -> usize {
        each!(self, b => b.scan_content(s))
    }

    #[inline]
    fn raw(&self) -> &str {
        each!(self, b => b.raw())
    }

    fn complete(&self) -> bool {
        each!(self, b => b.complete())
    }

    fn close(self, options: &FormatOptions) -> Vec<(Parsed, usize)> {
        each!(self, b => b.close(options))
    }
}
