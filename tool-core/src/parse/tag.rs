//! Incremental matching of a fixed set of tags, one byte at a time, across chunk boundaries.

/// The longest tag any context matches (DeepSeek's `<｜tool▁outputs▁begin｜>`: 30 bytes).
pub(crate) const MAX_TAG: usize = 32;

/// Result of adding one byte to a partial tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Still a prefix of some candidate.
    Partial,
    /// Exactly candidate `n`.
    Full(usize),
    /// No candidate starts with these bytes; the last byte was not added.
    Mismatch,
}

/// Bytes of a tag seen so far: whole characters (ASCII bytes with [`push`](TagBuf::push),
/// whole characters with [`push_char`](TagBuf::push_char)), so always valid UTF-8.
#[derive(Debug, Clone, Default)]
pub(crate) struct TagBuf {
    bytes: [u8; MAX_TAG],
    len: usize,
}

impl TagBuf {
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only whole characters that prefix a candidate are ever stored.
        std::str::from_utf8(self.bytes.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }

    /// Adds the bytes of one character (`c`, from a `&str`) if the result still prefixes one
    /// of `candidates`: a tag with non-ASCII characters (DeepSeek's `<｜tool▁sep｜>`) then
    /// never holds part of a character.
    pub(crate) fn push_char(&mut self, c: &[u8], candidates: &[&[u8]]) -> Step {
        let before = self.len;
        let mut step = Step::Mismatch;
        for (k, &b) in c.iter().enumerate() {
            step = self.push(b, candidates);
            let last = k + 1 == c.len();
            if step == Step::Mismatch || (!last && matches!(step, Step::Full(_))) {
                self.len = before;
                return Step::Mismatch;
            }
        }
        step
    }

    /// Adds `b` if the result still prefixes one of `candidates`.
    pub(crate) fn push(&mut self, b: u8, candidates: &[&[u8]]) -> Step {
        let Some(slot) = self.bytes.get_mut(self.len) else {
            return Step::Mismatch;
        };
        *slot = b;
        let next = self.len + 1;
        let seen = self.bytes.get(..next).unwrap_or_default();
        let mut partial = false;
        for (i, c) in candidates.iter().enumerate() {
            // A byte loop rather than `starts_with`, whose slice comparison calls `memcmp`:
            // tags are a few bytes, and this runs for every byte of every tag.
            if c.len() >= next && c.iter().zip(seen).all(|(a, b)| a == b) {
                if c.len() == next {
                    self.len = next;
                    return Step::Full(i);
                }
                partial = true;
            }
        }
        if partial {
            self.len = next;
            Step::Partial
        } else {
            Step::Mismatch
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::formats::use_tool::tags::{ARGS_CLOSE, USE_TOOL};

    #[test]
    fn matches_alias_and_full_name_sharing_a_prefix() {
        let mut t = TagBuf::default();
        for b in b"</argument" {
            assert_eq!(t.push(*b, ARGS_CLOSE), Step::Partial);
        }
        assert_eq!(t.push(b'>', ARGS_CLOSE), Step::Full(1));
        t.clear();
        for b in b"</argument" {
            t.push(*b, ARGS_CLOSE);
        }
        assert_eq!(t.push(b's', ARGS_CLOSE), Step::Partial);
        assert_eq!(t.push(b'>', ARGS_CLOSE), Step::Full(0));
    }

    #[test]
    fn mismatch_leaves_the_buffer_unchanged() {
        let mut t = TagBuf::default();
        assert_eq!(t.push(b'<', USE_TOOL), Step::Partial);
        assert_eq!(t.push(b'd', USE_TOOL), Step::Mismatch);
        assert_eq!(t.as_str(), "<");
    }
}
