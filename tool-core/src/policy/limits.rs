//! Input and output limits: argument size and JSON nesting depth (checked on the raw text
//! before any deserializing), an optional cap on the text sent back to the model, and the
//! size of the images and files a result carries.

use crate::response::{ToolResponse, ToolStatus};
use crate::ToolErrorCode;

/// Limits the dispatcher enforces on every call.
///
/// The defaults are on: arguments up to 1 MiB, nested at most 64 objects/arrays deep, output
/// uncapped, attachments (images, audio, files) up to 10 MiB each and 20 MiB per result (under
/// what every provider takes inline in one request; Gemini's 20 MB is the tightest). Set them with [`ToolRegistry::with_limits`](crate::ToolRegistry::with_limits).
///
/// ```
/// use tool_core::Limits;
/// let limits = Limits { max_output_bytes: Some(4096), ..Limits::default() };
/// assert_eq!(limits.max_argument_bytes, 1024 * 1024);
/// assert_eq!(limits.max_depth, 64);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted argument text, in bytes.
    pub max_argument_bytes: usize,
    /// Deepest accepted nesting of JSON objects and arrays (the top-level object is depth 1).
    pub max_depth: usize,
    /// If set, a response whose model text is longer is cut to this many bytes and marked
    /// `PARTIAL` with the reason (an `ERROR` keeps its status; its message is cut).
    pub max_output_bytes: Option<usize>,
    /// Largest attachment a result may carry, in bytes; a larger one turns the result into an
    /// `EXECUTION_ERROR` naming it. URLs count as nothing: the provider fetches them.
    pub max_attachment_bytes: usize,
    /// Largest total of a result's attachments, in bytes.
    pub max_attachments_total_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_argument_bytes: 1024 * 1024,
            max_depth: 64,
            max_output_bytes: None,
            max_attachment_bytes: 10 * 1024 * 1024,
            max_attachments_total_bytes: 20 * 1024 * 1024,
        }
    }
}

impl Limits {
    /// Replaces a result whose attachments are over the size limits with an error saying
    /// which and by how much.
    #[cold]
    pub(crate) fn check_attachments(&self, response: &mut ToolResponse) {
        if let Err(why) = crate::response::check_attachment_sizes(
            &response.attachments,
            self.max_attachment_bytes,
            self.max_attachments_total_bytes,
        ) {
            let mut error = ToolResponse::error(ToolErrorCode::ExecutionError, why);
            error.stats = std::mem::take(&mut response.stats);
            *response = error;
        }
    }

    /// Checks raw argument text against the size and depth limits.
    #[inline]
    pub(crate) fn check_arguments(&self, tool: &str, arguments: &str) -> Result<(), ToolResponse> {
        let len = arguments.len();
        // Typical arguments are far below both limits: two comparisons, inlined into the
        // dispatch path; the rest lives out of line.
        if len > self.max_argument_bytes || len > self.max_depth {
            return self.check_long_arguments(tool, arguments);
        }
        Ok(())
    }

    #[cold]
    fn check_long_arguments(&self, tool: &str, arguments: &str) -> Result<(), ToolResponse> {
        let len = arguments.len();
        if len > self.max_argument_bytes {
            return Err(ToolResponse::error(
                ToolErrorCode::InvalidParam,
                format!(
                    "The arguments for '{tool}' are {len} bytes; the limit is {} bytes. Send \
                     less data in one call (split it over several calls, or pass a reference \
                     such as a path or URL instead of the content).",
                    self.max_argument_bytes
                ),
            ));
        }
        // Every level of nesting needs its own `{` or `[`, so text with no more of them than
        // the limit cannot be too deep: short text skips even the count, and the count (a
        // SIMD search) spares typical calls the exact, string-aware scan.
        if len > self.max_depth && more_openers_than(arguments.as_bytes(), self.max_depth) {
            if let Some(offset) = too_deep_at(arguments.as_bytes(), self.max_depth) {
                return Err(ToolResponse::error(
                    ToolErrorCode::InvalidParam,
                    format!(
                        "The arguments for '{tool}' nest objects/arrays more than {} levels \
                         deep (at byte {offset}). Send a flatter structure.",
                        self.max_depth
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Whether there are more than `max` `{` and `[` bytes, wherever they are (strings included).
fn more_openers_than(bytes: &[u8], max: usize) -> bool {
    let mut count = 0usize;
    // Byte-wide counters over chunks that cannot overflow them: LLVM turns the inner loop
    // into 16- or 32-lane SIMD compares and adds. `b | 0x20 == b'{'` holds exactly for `{`
    // (0x7B) and `[` (0x5B).
    for chunk in bytes.chunks(255) {
        let in_chunk: u8 = chunk
            .iter()
            .fold(0u8, |n, &b| n.wrapping_add(u8::from(b | 0x20 == b'{')));
        count += usize::from(in_chunk);
        if count > max {
            return true;
        }
    }
    false
}

/// The byte offset where nesting first exceeds `max`, skipping brackets inside strings. One
/// pass, no allocation; malformed JSON is left for the parser to report.
fn too_deep_at(bytes: &[u8], max: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > max {
                    return Some(i);
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Cuts a response whose model text exceeds `max` bytes. Success and partial results become
/// `PARTIAL` with the reason, and their `data` is folded into the cut text (half a JSON value
/// is not data); an error keeps its status and code, with its message cut.
pub(crate) fn cap_output(response: &mut ToolResponse, max: usize) {
    if response.status == ToolStatus::Error {
        if let Some(info) = response.error_info.as_mut() {
            if info.message.len() > max {
                let total = info.message.len();
                info.message
                    .truncate(floor_char_boundary(&info.message, max));
                info.message
                    .push_str(&format!(" … [message cut from {total} bytes]"));
            }
        }
        return;
    }
    let data_len = response.data.as_ref().map_or(0, |d| d.get().len());
    let total =
        response.text.len() + data_len + usize::from(data_len > 0 && !response.text.is_empty());
    if total <= max {
        return;
    }
    let mut body = if let Some(data) = response.data.take() {
        if response.text.is_empty() {
            data.get().to_string()
        } else {
            format!("{}\n{}", response.text, data.get())
        }
    } else {
        std::mem::take(&mut response.text)
    };
    body.truncate(floor_char_boundary(&body, max));
    response.text = body;
    let cut = format!(
        "output truncated to the first {max} of {total} bytes; ask for less (a narrower query, \
         fewer fields or a smaller page) to see the rest"
    );
    response.reason = Some(match response.reason.take() {
        Some(earlier) => format!("{earlier}; {cut}").into(),
        None => cut.into(),
    });
    response.status = ToolStatus::Partial;
}

/// The largest index `<= max` that falls on a char boundary of `s`.
fn floor_char_boundary(s: &str, max: usize) -> usize {
    if max >= s.len() {
        return s.len();
    }
    let mut i = max;
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_arguments_example() {
        let limits = crate::Limits {
            max_depth: 2,
            ..Default::default()
        };
        assert!(limits.check_arguments("t", r#"{"a":[1]}"#).is_ok());
        let err = limits.check_arguments("t", r#"{"a":[[1]]}"#).unwrap_err();
        assert_eq!(err.error_code(), Some(crate::ToolErrorCode::InvalidParam));
    }

    #[test]
    fn brackets_inside_strings_do_not_count_as_depth() {
        let text = r#"{"a":"[[[[[[[[[[\"[[[[[[[["}"#;
        assert_eq!(too_deep_at(text.as_bytes(), 2), None);
        assert_eq!(too_deep_at(b"[[[1]]]", 2), Some(2));
    }

    #[test]
    fn output_cut_lands_on_a_char_boundary_and_marks_partial() {
        let mut r = ToolResponse::success("héllo wörld");
        cap_output(&mut r, 2);
        assert_eq!(r.status, ToolStatus::Partial);
        assert_eq!(r.text, "h");
        assert!(r.reason.unwrap().contains("truncated"));
    }

    #[test]
    fn data_is_folded_into_the_cut_text() {
        let mut r = ToolResponse::success("list").with_data(&[1, 2, 3, 4, 5]);
        cap_output(&mut r, 8);
        assert!(r.data.is_none());
        assert_eq!(r.text, "list\n[1,");
    }
}
