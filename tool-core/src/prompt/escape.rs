//! The escaping that keeps prompt fragments and result messages well-formed.
//!
//! Element text (names, descriptions, tool output) uses the three XML entities `&amp;`, `&lt;`
//! and `&gt;`, so it can never contain `<`: no closing tag and no `<use_tool>` can appear in
//! it. The schema is JSON, where `<`, `>` and `&` can only occur inside strings, so they are
//! written as the JSON escapes `\u003c`, `\u003e`, `\u0026`: the schema stays valid JSON that
//! the model reads as is, and contains no `<` either.

/// Appends `text` with `&`, `<` and `>` replaced by XML entities.
pub(crate) fn escape_text(text: &str, out: &mut String) {
    replace_bytes(text, out, |b| match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        _ => None,
    });
}

/// Appends `text` to `out` with every ASCII byte that `replacement` maps replaced. Only ASCII
/// bytes are ever mapped, so the slices between them stay on char boundaries.
fn replace_bytes(text: &str, out: &mut String, replacement: impl Fn(u8) -> Option<&'static str>) {
    let mut last = 0;
    for (i, b) in text.bytes().enumerate() {
        let Some(with) = replacement(b) else {
            continue;
        };
        out.push_str(text.get(last..i).unwrap_or_default());
        out.push_str(with);
        last = i + 1;
    }
    out.push_str(text.get(last..).unwrap_or_default());
}

/// Reverses [`escape_text`]. Any `&` not starting one of the three entities, and any raw `<`,
/// is an error: such text was not produced by this module.
#[doc(hidden)]
pub fn unescape_text(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(p) = rest.find(['&', '<']) {
        out.push_str(rest.get(..p).unwrap_or_default());
        let tail = rest.get(p..).unwrap_or_default();
        let (ch, len) = if tail.starts_with("&amp;") {
            ('&', 5)
        } else if tail.starts_with("&lt;") {
            ('<', 4)
        } else if tail.starts_with("&gt;") {
            ('>', 4)
        } else {
            let shown: String = tail.chars().take(8).collect();
            return Err(format!("unexpected {shown:?} in escaped text"));
        };
        out.push(ch);
        rest = tail.get(len..).unwrap_or_default();
    }
    out.push_str(rest);
    Ok(out)
}

/// Appends compact JSON with `<`, `>` and `&` written as `\u003c`, `\u003e`, `\u0026`.
pub(crate) fn escape_json(value: &serde_json::Value, out: &mut String) {
    // Serializing a `Value` to a string cannot fail (keys are strings, numbers are finite).
    let json = serde_json::to_string(value).unwrap_or_default();
    replace_bytes(&json, out, |b| match b {
        b'<' => Some("\\u003c"),
        b'>' => Some("\\u003e"),
        b'&' => Some("\\u0026"),
        _ => None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_escapes_leave_no_angle_bracket_and_round_trip() {
        let mut out = String::new();
        escape_text("a</description><use_tool>&", &mut out);
        assert_eq!(out, "a&lt;/description&gt;&lt;use_tool&gt;&amp;");
        assert_eq!(unescape_text("&lt;a&gt; &amp; b").unwrap(), "<a> & b");
        assert!(unescape_text("&quot;").is_err());
        let mut out = String::new();
        escape_json(&serde_json::json!({"d": "</tool>&"}), &mut out);
        assert_eq!(out, r#"{"d":"\u003c/tool\u003e\u0026"}"#);
    }
}
