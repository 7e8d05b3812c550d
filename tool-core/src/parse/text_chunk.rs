//! [`TextChunk`]: the text of a streamed event, stored inline when short.
//!
//! A stream of small chunks produces one text event per `feed`; with a heap `String` per
//! event, the allocator — not the parser — would set the speed limit for 4- and 16-byte
//! chunks. Text up to [`TextChunk::INLINE`] bytes lives inside the event instead.

use std::fmt;
use std::ops::Deref;

/// Event text: up to 30 bytes inline, longer text on the heap. Derefs to `str`.
///
/// ```
/// use tool_core::parse::TextChunk;
/// let mut t = TextChunk::from("Hello");
/// t.push_str(", world");
/// assert_eq!(t, "Hello, world");
/// assert_eq!(t.len(), 12);
/// ```
#[derive(Clone)]
pub struct TextChunk(Repr);

#[derive(Clone)]
enum Repr {
    Inline {
        len: u8,
        buf: [u8; TextChunk::INLINE],
    },
    Heap(String),
}

impl TextChunk {
    /// The longest text stored without allocating.
    pub const INLINE: usize = 30;

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, buf } => {
                let bytes = buf.get(..usize::from(*len)).unwrap_or_default();
                // SAFETY: `buf[..len]` is always a copy of a whole `&str` (see `from` and
                // `push_str`), so it is valid UTF-8.
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            Repr::Heap(s) => s,
        }
    }

    /// Appends text, moving to the heap when it no longer fits inline.
    pub fn push_str(&mut self, more: &str) {
        match &mut self.0 {
            Repr::Inline { len, buf } => {
                let start = usize::from(*len);
                let end = start + more.len();
                match buf.get_mut(start..end) {
                    Some(slot) if end <= Self::INLINE => {
                        slot.copy_from_slice(more.as_bytes());
                        // `end <= INLINE` (30), so it fits a u8.
                        *len = end as u8;
                    }
                    _ => {
                        let mut s = String::with_capacity(end.max(64));
                        s.push_str(self.as_str());
                        s.push_str(more);
                        self.0 = Repr::Heap(s);
                    }
                }
            }
            Repr::Heap(s) => s.push_str(more),
        }
    }

    /// The text as an owned `String`.
    ///
    /// ```
    /// assert_eq!(tool_core::parse::TextChunk::from("ab").into_string(), "ab");
    /// ```
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Heap(s) => s,
            Repr::Inline { .. } => self.as_str().to_string(),
        }
    }
}

impl Default for TextChunk {
    fn default() -> Self {
        TextChunk(Repr::Inline {
            len: 0,
            buf: [0; Self::INLINE],
        })
    }
}

impl From<&str> for TextChunk {
    fn from(s: &str) -> Self {
        let mut chunk = TextChunk::default();
        chunk.push_str(s);
        chunk
    }
}

impl From<String> for TextChunk {
    fn from(s: String) -> Self {
        if s.len() <= Self::INLINE {
            TextChunk::from(s.as_str())
        } else {
            TextChunk(Repr::Heap(s))
        }
    }
}

impl From<TextChunk> for String {
    fn from(t: TextChunk) -> Self {
        t.into_string()
    }
}

impl Deref for TextChunk {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for TextChunk {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for TextChunk {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for TextChunk {}

impl PartialEq<str> for TextChunk {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for TextChunk {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for TextChunk {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl fmt::Debug for TextChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for TextChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_moves_to_the_heap_exactly_when_it_outgrows_the_inline_buffer() {
        let mut t = TextChunk::from("x".repeat(TextChunk::INLINE).as_str());
        assert!(matches!(t.0, Repr::Inline { .. }));
        t.push_str("☃");
        assert!(matches!(t.0, Repr::Heap(_)));
        assert_eq!(t.as_str(), format!("{}☃", "x".repeat(TextChunk::INLINE)));
    }

    #[test]
    fn multibyte_text_round_trips_inline() {
        let t = TextChunk::from("日本語");
        assert_eq!(t, "日本語");
        assert_eq!(String::from(t), "日本語");
    }
}
