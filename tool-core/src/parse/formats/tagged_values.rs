//! What the formats that write parameters as tagged values (Qwen3-Coder, GLM, MiniMax-M2,
//! Kimi K2, DeepSeek's DSML) share when reading them back: the framing newlines around a value,
//! a fast search through long values, a search that never reads the same bytes twice, and a
//! short preview for messages.

/// The value without the newline the format puts after the start tag and before the end tag
/// (`\r\n` too): templates write it and models often do; any other whitespace is the model's.
pub(crate) fn strip_framing(value: &str) -> &str {
    let value = value
        .strip_prefix("\r\n")
        .or_else(|| value.strip_prefix('\n'))
        .unwrap_or(value);
    value
        .strip_suffix("\r\n")
        .or_else(|| value.strip_suffix('\n'))
        .unwrap_or(value)
}

/// `haystack.find(needle)` with `memchr`'s vectorized search: a value may be megabytes long,
/// and `str::find` is several times slower on it.
pub(crate) fn find(haystack: &str, needle: &str) -> Option<usize> {
    memchr::memmem::find(haystack.as_bytes(), needle.as_bytes())
}

/// The next place of one marker in a text that is read front to back.
///
/// A reader that asks, at each opening tag, where the closing tag is would search the rest
/// of the text once per tag when the closing tags are missing: a reply of many unclosed tags
/// would cost its length times their number. This finder remembers its last answer and reuses
/// it for every later question it still answers (a marker found further on, or none at all),
/// so all the searches of one read scan the text about once.
pub(crate) struct Ahead<'a> {
    text: &'a str,
    marker: &'static str,
    /// The last search: from which offset, and where the marker was found (`None`: nowhere).
    last: Option<(usize, Option<usize>)>,
}

impl<'a> Ahead<'a> {
    pub(crate) fn new(text: &'a str, marker: &'static str) -> Self {
        Ahead {
            text,
            marker,
            last: None,
        }
    }

    /// `find(rest, marker)`, where `rest` is a suffix of the text (a reader's remaining part).
    pub(crate) fn find(&mut self, rest: &str) -> Option<usize> {
        // `rest` ends where the text ends, so its length says where it starts.
        let from = self.text.len().checked_sub(rest.len())?;
        debug_assert_eq!(
            rest.as_ptr() as usize + rest.len(),
            self.text.as_ptr() as usize + self.text.len(),
            "not a suffix of the text"
        );
        self.find_from(from).map(|at| at - from)
    }

    /// The first place of the marker at or after offset `from` of the text.
    fn find_from(&mut self, from: usize) -> Option<usize> {
        if let Some((searched, found)) = self.last {
            if searched <= from && found.is_none_or(|at| at >= from) {
                return found;
            }
        }
        let found = find(self.text.get(from..)?, self.marker).map(|at| at + from);
        self.last = Some((from, found));
        found
    }
}

/// Where the first of several markers is in `rest` (a suffix of their text), else its end.
pub(crate) fn first_of(markers: &mut [Ahead<'_>], rest: &str) -> usize {
    markers
        .iter_mut()
        .filter_map(|m| m.find(rest))
        .min()
        .unwrap_or(rest.len())
}

/// The first 40 characters of `s`, for a message that quotes what the model wrote.
pub(crate) fn preview(s: &str) -> &str {
    let end = s.char_indices().nth(40).map_or(s.len(), |(i, _)| i);
    s.get(..end).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ahead_answers_as_find_does_at_every_suffix() {
        let text = "a<p>b<p>c</p>d<p>";
        for marker in ["<p>", "</p>", "<q>"] {
            let mut ahead = Ahead::new(text, marker);
            for start in 0..=text.len() {
                let rest = &text[start..];
                assert_eq!(
                    ahead.find(rest),
                    find(rest, marker),
                    "{marker} from {start}"
                );
            }
        }
    }
}
