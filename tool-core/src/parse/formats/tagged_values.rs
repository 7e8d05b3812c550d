//! What the formats that write parameters as tagged values (Qwen3-Coder, GLM, MiniMax-M2,
//! Kimi K2) share when reading them back: the framing newlines around a value, a fast search
//! through long values, and a short preview for messages.

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

/// The first 40 characters of `s`, for a message that quotes what the model wrote.
pub(crate) fn preview(s: &str) -> &str {
    let end = s.char_indices().nth(40).map_or(s.len(), |(i, _)| i);
    s.get(..end).unwrap_or(s)
}
