//! [`TextChunk`]: the text of a streamed event, stored inline when short.
//!
//! A stream of small chunks produces one text event per `feed`; with a heap `String` per
//! event, the allocator — not the parser — would set the speed limit for 4- and 16-byte
//! chunks. Text up to [`TextChunk::INLINE`] bytes lives inside the event instead.
//!
//! A chunk also knows where its text starts in the parsed reply, so that every event that
//! carries text has a byte range ([`TextChunk::span`]).

use std::fmt;
use std::ops::{Deref, Range};

/// Event text: up to 30 bytes inline, longer text on the heap, and where it starts in the
/// reply. Derefs to `str`.
///
/// Two chunks are equal when their text is: where a parser found the text is compared with
/// [`span`](Self::span), so that the events of different chunkings of one reply compare equal.
///
/// ```
/// use tool_core::parse::TextChunk;
/// let mut t = TextChunk::from("Hello");
/// t.push_str(", world");
/// assert_eq!(t, "Hello, world");
/// assert_eq!(t.len(), 12);
/// assert_eq!(t.span(), 0..12);
/// ```
#[derive(Clone)]
pub struct TextChunk {
    repr: Repr,
    /// Byte offset of the text in the reply.
    start: usize,
}

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
        match &self.repr {
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
    #[inline]
    pub fn push_str(&mut self, more: &str) {
        match &mut self.repr {
            Repr::Inline { len, buf } => {
                let start = usize::from(*len);
                let end = start + more.len();
                if end <= Self::INLINE {
                    copy_small(buf, start, more.as_bytes());
                    // `end <= INLINE` (30), so it fits a u8.
                    *len = end as u8;
                } else {
                    self.spill(more);
                }
            }
            Repr::Heap(s) => s.push_str(more),
        }
    }

    /// Moves inline text to the heap, followed by `more`. Kept out of line so that the inline
    /// paths stay small enough to inline.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, more: &str) {
        let mut s = String::with_capacity((self.len() + more.len()).max(64));
        s.push_str(self.as_str());
        s.push_str(more);
        self.repr = Repr::Heap(s);
    }

    /// The byte range of the text in the reply: where the parser found it, to where it ends.
    /// A chunk made from a bare string starts at 0.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};
    /// let reply = "<think>Paris.</think>Sunny.";
    /// let events = FormatParser::parse_all(ToolFormat::Glm, reply, EndReason::Stop);
    /// let Event::Text(answer) = &events[3] else { panic!("{events:?}") };
    /// assert_eq!((answer.as_str(), answer.span()), ("Sunny.", 21..27));
    /// assert_eq!(&reply[answer.span()], "Sunny.");
    /// ```
    #[inline]
    pub fn span(&self) -> Range<usize> {
        self.start..self.start + self.len()
    }

    /// The same text, found at byte `start` of the reply.
    ///
    /// ```
    /// assert_eq!(tool_core::parse::TextChunk::from("ab").starting_at(5).span(), 5..7);
    /// ```
    #[inline]
    pub fn starting_at(mut self, start: usize) -> Self {
        self.start = start;
        self
    }

    /// `text` found at byte `start` of the reply.
    #[inline]
    pub(crate) fn at(text: &str, start: usize) -> Self {
        TextChunk::from(text).starting_at(start)
    }

    /// Moves the chunk `by` bytes later in the reply.
    #[inline]
    pub(crate) fn shift(&mut self, by: usize) {
        self.start += by;
    }

    /// The text as an owned `String`.
    ///
    /// ```
    /// assert_eq!(tool_core::parse::TextChunk::from("ab").into_string(), "ab");
    /// ```
    pub fn into_string(self) -> String {
        match self.repr {
            Repr::Heap(s) => s,
            Repr::Inline { .. } => self.as_str().to_string(),
        }
    }
}

/// Copies `src` into `dst[at..]` (the caller checked that it fits) with fixed-size moves: two
/// overlapping windows of 16, 8 or 4 bytes, or single bytes below that. `copy_from_slice` of a
/// variable length calls `memcpy`, whose set-up costs more than the copy itself for the few
/// bytes of a streamed chunk.
#[inline]
fn copy_small(dst: &mut [u8], at: usize, src: &[u8]) {
    let n = src.len();
    if n >= 16 {
        window::<16>(dst, at, src, 0);
        window::<16>(dst, at, src, n - 16);
    } else if n >= 8 {
        window::<8>(dst, at, src, 0);
        window::<8>(dst, at, src, n - 8);
    } else if n >= 4 {
        window::<4>(dst, at, src, 0);
        window::<4>(dst, at, src, n - 4);
    } else {
        for (d, s) in dst.iter_mut().skip(at).zip(src) {
            *d = *s;
        }
    }
}

/// Copies `src[from..from + N]` to `dst[at + from..]`; out-of-range windows are skipped (the
/// caller's length checks make that unreachable).
#[inline]
fn window<const N: usize>(dst: &mut [u8], at: usize, src: &[u8], from: usize) {
    let d = dst
        .get_mut(at + from..)
        .and_then(<[u8]>::first_chunk_mut::<N>);
    let s = src.get(from..).and_then(<[u8]>::first_chunk::<N>);
    if let (Some(d), Some(s)) = (d, s) {
        *d = *s;
    }
}

/// `dst.push_str(s)` with fixed-size moves when `s` is a few bytes long (see [`copy_small`]):
/// a parser's buffer grows by one streamed chunk at a time, and a `memcpy` call per chunk
/// costs more than the copy.
#[inline]
pub(crate) fn push_small(dst: &mut String, s: &str) {
    const MAX: usize = 16;
    let n = s.len();
    if n > MAX {
        dst.push_str(s);
        return;
    }
    dst.reserve(MAX);
    // SAFETY: `reserve` made room for `MAX >= n` more bytes, the windows below write exactly
    // `s`'s `n` bytes at the end of the initialized part, and the buffer stays valid UTF-8
    // because `s` is a whole `&str` appended to a whole `String`.
    unsafe {
        let v = dst.as_mut_vec();
        let len = v.len();
        let src = s.as_ptr();
        let end = v.as_mut_ptr().add(len);
        if n >= 8 {
            std::ptr::copy_nonoverlapping(src, end, 8);
            std::ptr::copy_nonoverlapping(src.add(n - 8), end.add(n - 8), 8);
        } else if n >= 4 {
            std::ptr::copy_nonoverlapping(src, end, 4);
            std::ptr::copy_nonoverlapping(src.add(n - 4), end.add(n - 4), 4);
        } else {
            for k in 0..n {
                *end.add(k) = *src.add(k);
            }
        }
        v.set_len(len + n);
    }
}

impl Default for TextChunk {
    fn default() -> Self {
        TextChunk::new(Repr::Inline {
            len: 0,
            buf: [0; Self::INLINE],
        })
    }
}

impl TextChunk {
    #[inline]
    fn new(repr: Repr) -> Self {
        TextChunk { repr, start: 0 }
    }
}

impl From<&str> for TextChunk {
    #[inline]
    fn from(s: &str) -> Self {
        match u8::try_from(s.len()) {
            Ok(len) if usize::from(len) <= Self::INLINE => {
                let mut buf = [0; Self::INLINE];
                copy_small(&mut buf, 0, s.as_bytes());
                TextChunk::new(Repr::Inline { len, buf })
            }
            _ => TextChunk::new(Repr::Heap(s.to_owned())),
        }
    }
}

impl From<String> for TextChunk {
    fn from(s: String) -> Self {
        if s.len() <= Self::INLINE {
            TextChunk::from(s.as_str())
        } else {
            TextChunk::new(Repr::Heap(s))
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
        assert!(matches!(t.repr, Repr::Inline { .. }));
        t.push_str("☃");
        assert!(matches!(t.repr, Repr::Heap(_)));
        assert_eq!(t.as_str(), format!("{}☃", "x".repeat(TextChunk::INLINE)));
    }

    #[test]
    fn every_inline_length_and_offset_copies_exactly() {
        let source = "abcdefghijklmnopqrstuvwxyz0123456789";
        for first in 0..=TextChunk::INLINE {
            for second in 0..=TextChunk::INLINE - first {
                let a = source.get(..first).unwrap_or_default();
                let b = source.get(first..first + second).unwrap_or_default();
                let mut t = TextChunk::from(a);
                t.push_str(b);
                assert!(matches!(t.repr, Repr::Inline { .. }));
                assert_eq!(t.as_str(), format!("{a}{b}"));
            }
        }
    }

    #[test]
    fn push_small_appends_every_length_exactly() {
        let source = "abcdefghijklmnopqrstuvwxyz☃0123456789";
        for start in 0..source.len() {
            for end in start..=source.len() {
                let Some(piece) = source.get(start..end) else {
                    continue;
                };
                let mut grown = String::from("x");
                for _ in 0..3 {
                    push_small(&mut grown, piece);
                }
                assert_eq!(grown, format!("x{piece}{piece}{piece}"));
            }
        }
    }

    #[test]
    fn multibyte_text_round_trips_inline() {
        let t = TextChunk::from("日本語");
        assert_eq!(t, "日本語");
        assert_eq!(String::from(t), "日本語");
    }
}
