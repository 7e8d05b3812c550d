//! The raw text of a block whose parts are marked by tags that begin with `<` (`</parameter>`,
//! `<arg_value>`, `<|tool_call_end|>`): while the block streams only those markers matter,
//! matched a byte at a time so that a chunk may end inside one. Qwen3-Coder XML, GLM,
//! MiniMax-M2 and Kimi K2 read their blocks this way; each says which markers count where
//! and what each one does ([`MarkerRules`]), and reads the whole text when the block closes.

use crate::parse::prose;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::text_chunk::push_small;

/// What a format's markers mean while its block streams.
pub(crate) trait MarkerRules {
    /// The markers that count here (inside a value or between values); each begins with `<`.
    fn markers(&self) -> &'static [&'static [u8]];
    /// Whether marker `k` of [`markers`](Self::markers) ends the block (it is then not kept).
    fn ends_block(&self, k: usize) -> bool;
    /// Marker `k` was kept in the raw text.
    fn kept(&mut self, k: usize);
    /// `text`, from the chunk, was kept as content.
    #[inline]
    fn content(&mut self, _text: &str) {}
    /// Bytes that began like a marker turned out to be content and were kept.
    fn broke_off(&mut self) {}
}

/// The block's text so far and the marker bytes held back while a marker may be starting.
#[derive(Debug, Default)]
pub(crate) struct MarkedText {
    raw: String,
    tag: TagBuf,
}

impl MarkedText {
    /// The kept text: content and markers, the block's end marker and held-back bytes excluded.
    pub(crate) fn raw(&self) -> &str {
        &self.raw
    }

    /// [`Body::feed`](super::blocks::Body::feed) under `rules`.
    #[inline]
    pub(crate) fn feed(&mut self, s: &str, rules: &mut impl MarkerRules) -> (usize, bool) {
        if !self.tag.is_empty() {
            let b = s.as_bytes().first().copied().unwrap_or_default();
            match self.tag.push(b, rules.markers()) {
                Step::Partial => return (1, false),
                Step::Full(k) if rules.ends_block(k) => return (1, true),
                Step::Full(k) => {
                    let marker = std::mem::take(&mut self.tag);
                    self.raw.push_str(marker.as_str());
                    rules.kept(k);
                    return (1, false);
                }
                Step::Mismatch => {
                    let pending = std::mem::take(&mut self.tag);
                    self.raw.push_str(pending.as_str());
                    rules.broke_off();
                }
            }
        }
        let p = self.scan_content(s, rules);
        if p < s.len() {
            self.tag.push(b'<', rules.markers());
            return (p + 1, false);
        }
        (p, false)
    }

    /// [`Body::scan_content`](super::blocks::Body::scan_content) under `rules`: only a `<` can
    /// begin a marker. Always inlined: it is the parser's loop over a call's bulk.
    #[inline(always)]
    pub(crate) fn scan_content(&mut self, s: &str, rules: &mut impl MarkerRules) -> usize {
        if !self.tag.is_empty() {
            return 0;
        }
        let p = prose::find(s.as_bytes(), b'<');
        let text = s.get(..p).unwrap_or_default();
        rules.content(text);
        push_small(&mut self.raw, text);
        p
    }
}
