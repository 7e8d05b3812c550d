//! JSON-aware scanning of `<arguments>` content across chunks.
//!
//! The scanner only tracks what it needs to find the end of the value: nesting depth and
//! string/escape state. It stops at a `<` outside any string, because that byte is never valid
//! JSON there and so can only start a closing tag; inside strings `<` is data. The arguments are
//! parsed by serde_json exactly once, when the element closes (see `repair`).

use super::text_chunk::push_small;

/// Bytes that end a run of ordinary string content: a quote, a backslash or a control
/// character. One table load per byte instead of three comparisons.
pub(crate) static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// Whether `b` may be part of a fence's info string: a language word such as `json`,
/// `json5` or `jsonc`, and blanks. Anything else (`{`, `"`, `<`, a backtick) ends it.
fn is_info_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(b, b'-' | b'_' | b'+' | b'.' | b'#' | b' ' | b'\t' | b'\r')
}

/// Where in the `<arguments>` content the scanner is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Before the value: whitespace, maybe a ```` ```json ```` fence line.
    Before,
    /// Inside an object, array or top-level string.
    Value,
    /// The value is complete; only whitespace, a closing fence or junk may follow.
    After,
    /// The content does not start like an object, array or string: kept verbatim for the
    /// error message at close.
    Raw,
}

/// State of one `<arguments>` element.
#[derive(Debug)]
pub(crate) struct ArgScan {
    /// Every content byte so far (tags excluded).
    pub(crate) raw: String,
    pub(crate) phase: Phase,
    depth: u32,
    in_str: bool,
    escaped: bool,
    /// Backticks seen in a row while looking for a fence.
    ticks: u8,
    /// Skipping a fence's info string (`json`) up to the newline or the first byte that cannot
    /// belong to one.
    in_fence_line: bool,
    /// Where the opening fence began (for the error message when no value follows).
    fence_at: usize,
    /// Still inside the opening fence's backtick run (a fence may have more than three).
    fence_run: bool,
    /// Where the current run of backticks after the value began.
    run_at: usize,
    pub(crate) value_start: usize,
    pub(crate) value_end: usize,
    pub(crate) fence_open: bool,
    pub(crate) fence_closed: bool,
    pub(crate) junk_start: Option<usize>,
    pub(crate) controls: bool,
    pub(crate) top_string: bool,
    /// How much of `raw` has been reported as argument deltas.
    pub(crate) delta_sent: usize,
}

impl ArgScan {
    pub(crate) fn new() -> Self {
        ArgScan {
            raw: String::new(),
            phase: Phase::Before,
            depth: 0,
            in_str: false,
            escaped: false,
            ticks: 0,
            in_fence_line: false,
            fence_at: 0,
            fence_run: false,
            run_at: 0,
            value_start: 0,
            value_end: 0,
            fence_open: false,
            fence_closed: false,
            junk_start: None,
            controls: false,
            top_string: false,
            delta_sent: 0,
        }
    }

    /// Whether a complete JSON value has been seen.
    pub(crate) fn value_complete(&self) -> bool {
        self.phase == Phase::After
    }

    /// Scans `s` from its start; returns how many bytes belong to the content. Stops early
    /// (before the byte) only at a `<` outside a string. The scanned bytes are appended to
    /// `raw`.
    #[inline]
    pub(crate) fn scan(&mut self, s: &str) -> usize {
        // The bulk of a long argument is string content: a chunk with no quote, backslash or
        // control character changes no state at all.
        if self.phase == Phase::Value && self.in_str && !self.escaped {
            let bytes = s.as_bytes();
            if !bytes.iter().any(|&c| STRING_STOP[usize::from(c)]) {
                push_small(&mut self.raw, s);
                return bytes.len();
            }
        }
        self.scan_stateful(s)
    }

    /// [`scan`](Self::scan) byte by byte, tracking every state change.
    fn scan_stateful(&mut self, s: &str) -> usize {
        let bytes = s.as_bytes();
        let base = self.raw.len();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            match self.phase {
                Phase::Value if self.in_str => {
                    // Hot loop for long strings: skip ordinary bytes without a state change.
                    let rest = bytes.get(i..).unwrap_or_default();
                    let skip = rest
                        .iter()
                        .position(|&c| STRING_STOP[usize::from(c)])
                        .unwrap_or(rest.len());
                    if self.escaped && skip > 0 {
                        self.escaped = false;
                    }
                    i += skip;
                    let Some(&c) = bytes.get(i) else { break };
                    if self.escaped {
                        self.escaped = false;
                    } else if c == b'\\' {
                        self.escaped = true;
                    } else if c == b'"' {
                        self.in_str = false;
                        if self.depth == 0 {
                            self.complete(base + i + 1);
                        }
                    } else {
                        self.controls = true;
                    }
                    i += 1;
                    continue;
                }
                Phase::Value => match b {
                    b'<' => break,
                    b'"' => self.in_str = true,
                    b'{' | b'[' => self.depth = self.depth.saturating_add(1),
                    b'}' | b']' => {
                        self.depth = self.depth.saturating_sub(1);
                        if self.depth == 0 {
                            self.complete(base + i + 1);
                        }
                    }
                    _ => {}
                },
                Phase::Before => {
                    if self.in_fence_line {
                        if b == b'`' && self.fence_run {
                            // A longer opening fence (```` ```` ````): still the fence.
                        } else if b == b'\n' {
                            self.fence_run = false;
                            self.in_fence_line = false;
                        } else if !is_info_byte(b) {
                            self.fence_run = false;
                            // A one-line fence (```` ```{"a":1}``` ````): the info string ends
                            // where the value (or a tag, or a backtick) begins, and that byte
                            // is read again as content. Swallowing it lost the arguments.
                            self.in_fence_line = false;
                            continue;
                        } else {
                            self.fence_run = false;
                        }
                    } else if b == b'`' {
                        if self.ticks == 0 && !self.fence_open {
                            self.fence_at = base + i;
                        }
                        self.ticks = self.ticks.saturating_add(1);
                        if self.ticks == 3 {
                            self.ticks = 0;
                            if self.fence_open {
                                // A second fence before any value: the block held nothing
                                // readable, and no guess is made about what was meant.
                                self.start_raw(self.fence_at);
                                i += 1;
                                continue;
                            }
                            self.fence_open = true;
                            self.fence_run = true;
                            self.in_fence_line = true;
                        }
                    } else if self.ticks > 0 {
                        self.start_raw((base + i).saturating_sub(usize::from(self.ticks)));
                        continue;
                    } else {
                        match b {
                            b'<' => break,
                            b' ' | b'\t' | b'\r' | b'\n' => {}
                            b'{' | b'[' => {
                                self.phase = Phase::Value;
                                self.depth = 1;
                                self.value_start = base + i;
                            }
                            b'"' => {
                                self.phase = Phase::Value;
                                self.in_str = true;
                                self.top_string = true;
                                self.value_start = base + i;
                            }
                            _ => {
                                self.start_raw(base + i);
                                continue;
                            }
                        }
                    }
                }
                Phase::After => match b {
                    b'<' => {
                        self.end_closing_run();
                        break;
                    }
                    b' ' | b'\t' | b'\r' | b'\n' => self.end_closing_run(),
                    b'`' if self.fence_open && self.junk_start.is_none() && !self.fence_closed => {
                        if self.ticks == 0 {
                            self.run_at = base + i;
                        }
                        self.ticks = self.ticks.saturating_add(1);
                    }
                    _ => {
                        self.end_closing_run();
                        if self.junk_start.is_none() {
                            self.junk_start = Some(base + i);
                        }
                    }
                },
                Phase::Raw => {
                    // Nothing in here can be valid, so only the closing tag matters.
                    match memchr::memchr(b'<', bytes.get(i..).unwrap_or_default()) {
                        Some(p) => {
                            i += p;
                            break;
                        }
                        None => {
                            i = bytes.len();
                            break;
                        }
                    }
                }
            }
            i += 1;
        }
        push_small(&mut self.raw, s.get(..i).unwrap_or_default());
        i
    }

    /// Ends a run of backticks after the value: three or more close the fence; fewer, or a
    /// second run, are junk (reported, never dropped silently).
    pub(crate) fn end_closing_run(&mut self) {
        if self.phase != Phase::After || self.ticks == 0 {
            return;
        }
        if self.ticks >= 3 && !self.fence_closed {
            self.fence_closed = true;
        } else if self.junk_start.is_none() {
            self.junk_start = Some(self.run_at);
        }
        self.ticks = 0;
    }

    /// Absorbs the bytes of a tag that turned out not to be a closing tag.
    pub(crate) fn absorb(&mut self, text: &str) {
        self.end_closing_run();
        match self.phase {
            Phase::Before => self.start_raw(self.raw.len()),
            Phase::After if self.junk_start.is_none() => self.junk_start = Some(self.raw.len()),
            _ => {}
        }
        self.raw.push_str(text);
    }

    fn start_raw(&mut self, at: usize) {
        self.phase = Phase::Raw;
        self.value_start = at;
        self.ticks = 0;
    }

    fn complete(&mut self, end: usize) {
        self.phase = Phase::After;
        self.value_end = end;
        self.ticks = 0;
    }

    /// Whether nothing but whitespace (and maybe a fence) was written.
    pub(crate) fn is_blank(&self) -> bool {
        self.phase == Phase::Before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_chunks(chunks: &[&str]) -> ArgScan {
        let mut s = ArgScan::new();
        for c in chunks {
            let n = s.scan(c);
            assert_eq!(n, c.len(), "stopped early in {c:?}");
        }
        s
    }

    #[test]
    fn closing_tags_inside_strings_are_data() {
        let s = scan_chunks(&[r#"{"a":"</argu"#, r#"ments></use_tool>\"}"#, r#"""#, "}"]);
        assert!(s.value_complete());
        assert_eq!(s.raw.get(s.value_start..s.value_end), Some(s.raw.as_str()));
    }

    #[test]
    fn stops_at_a_tag_outside_strings() {
        let mut s = ArgScan::new();
        assert_eq!(s.scan(r#" {"a":1} </arguments>"#), 9);
        assert!(s.value_complete());
    }

    #[test]
    fn escape_split_across_chunks_is_carried() {
        let s = scan_chunks(&[r#"{"a":"x\"#, r#"""#, r#"y"}"#]);
        assert!(s.value_complete());
    }

    #[test]
    fn a_one_line_fence_keeps_its_value_and_a_longer_fence_is_still_a_fence() {
        for text in [
            "```{\"a\":1}```",
            "```json {\"a\":1}```",
            "````json\n{\"a\":1}\n````",
        ] {
            let s = scan_chunks(&[text]);
            assert!(s.fence_open && s.value_complete(), "{text}");
            assert_eq!(
                s.raw.get(s.value_start..s.value_end),
                Some("{\"a\":1}"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_closing_fence_of_any_length_closes_and_stray_backticks_are_junk() {
        for (text, junk) in [
            ("```json\n{}\n````", None),
            ("```json\n{}\n```", None),
            ("```json\n{}``", Some(10)),
            ("```json\n{}\n``` ```", Some(15)),
            ("{}`", Some(2)),
        ] {
            let mut s = scan_chunks(&[text]);
            s.end_closing_run();
            assert_eq!(s.junk_start, junk, "{text}");
        }
    }

    #[test]
    fn a_fence_line_stops_at_a_tag() {
        let mut s = ArgScan::new();
        assert_eq!(s.scan("```json</arguments>"), 7);
        assert!(s.is_blank());
    }

    #[test]
    fn fence_around_the_object_is_recognised() {
        let s = scan_chunks(&["``", "`json\n{\"a\":1}\n``", "`\n"]);
        assert!(s.fence_open && s.fence_closed && s.junk_start.is_none());
    }
}
