//! Finding where a streamed call's argument object closes, one fragment at a time.
//!
//! Chat Completions streams a call's arguments as fragments of JSON text with no marker for
//! their end. A call is complete once its text is one whole JSON object; checking that by
//! parsing the whole text after every fragment would cost time proportional to the message on
//! every chunk. This scanner keeps only the nesting depth and the string/escape state, so each
//! fragment costs its own length; the text is parsed once, when the outer object closes.

/// Where the argument text is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Only whitespace so far.
    #[default]
    Before,
    /// Inside the outer object.
    Inside,
    /// The outer object closed; only whitespace since.
    Closed,
    /// Not one object: another value, or text after the object. Never complete early.
    Other,
}

/// The incremental state of one call's argument text.
#[derive(Debug, Default)]
pub(crate) struct ObjectEnd {
    phase: Phase,
    depth: u32,
    in_string: bool,
    escaped: bool,
}

impl ObjectEnd {
    /// Reads the next fragment; returns `true` when this fragment closed the outer object
    /// (the caller then checks once that the whole text parses).
    pub(crate) fn push(&mut self, fragment: &str) -> bool {
        let mut closed = false;
        for &b in fragment.as_bytes() {
            match self.phase {
                Phase::Before => match b {
                    b' ' | b'\t' | b'\r' | b'\n' => {}
                    b'{' => {
                        self.phase = Phase::Inside;
                        self.depth = 1;
                    }
                    _ => self.phase = Phase::Other,
                },
                Phase::Inside if self.in_string => {
                    if self.escaped {
                        self.escaped = false;
                    } else if b == b'\\' {
                        self.escaped = true;
                    } else if b == b'"' {
                        self.in_string = false;
                    }
                }
                Phase::Inside => match b {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => self.depth = self.depth.saturating_add(1),
                    b'}' | b']' => {
                        self.depth = self.depth.saturating_sub(1);
                        if self.depth == 0 {
                            self.phase = Phase::Closed;
                            closed = true;
                        }
                    }
                    _ => {}
                },
                Phase::Closed => {
                    if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
                        self.phase = Phase::Other;
                        closed = false;
                    }
                }
                Phase::Other => break,
            }
        }
        closed
    }
}

#[cfg(test)]
mod tests {
    use super::ObjectEnd;

    fn closes_at(fragments: &[&str]) -> Option<usize> {
        let mut scan = ObjectEnd::default();
        fragments.iter().position(|f| scan.push(f))
    }

    #[test]
    fn the_object_closes_at_its_last_brace_whatever_the_strings_hold() {
        assert_eq!(closes_at(&["{\"ci", "ty\": ", "\"Par", "is\"}"]), Some(3));
        assert_eq!(
            closes_at(&["{\"a\":\"}{\\\"", "]\"", ",\"b\":[{}]", "}"]),
            Some(3)
        );
        assert_eq!(closes_at(&["  {", "}"]), Some(1));
        assert_eq!(closes_at(&["{\"a\":\"\\\\\"}"]), Some(0));
    }

    #[test]
    fn other_values_and_text_after_the_object_never_close() {
        assert_eq!(closes_at(&["[1,", "2]"]), None);
        assert_eq!(closes_at(&["\"x\""]), None);
        assert_eq!(closes_at(&["{\"a\":1} x"]), None);
        assert_eq!(closes_at(&["{\"a\":", "1"]), None);
        assert_eq!(closes_at(&[""]), None);
    }
}
