//! Tracking whether prose is inside a markdown code fence (```` ``` ```` at a line start), so a
//! `<use_tool>` block shown as an example is not run.

/// Fence state carried across chunks of text.
#[derive(Debug, Clone)]
pub(crate) struct FenceTracker {
    pub(crate) inside: bool,
    /// Only spaces/tabs since the last newline.
    at_line_start: bool,
    /// Length of the current backtick run that began at a line start (0: none).
    ticks: u32,
}

impl Default for FenceTracker {
    fn default() -> Self {
        FenceTracker {
            inside: false,
            at_line_start: true,
            ticks: 0,
        }
    }
}

impl FenceTracker {
    /// Updates the state with text that has been emitted as prose.
    pub(crate) fn observe(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if bytes.is_empty() {
            return;
        }
        // Short texts (small stream chunks) are cheaper to walk once than to search three
        // times; long prose without backticks takes the memchr path.
        if bytes.len() > 32 && memchr::memchr(b'`', bytes).is_none() {
            // Fast path for ordinary prose: a pending run ends at the first byte.
            self.end_run();
            self.at_line_start = match memchr::memrchr(b'\n', bytes) {
                Some(p) => blank(bytes.get(p + 1..).unwrap_or_default()),
                None => self.at_line_start && blank(bytes),
            };
            return;
        }
        for &b in bytes {
            match b {
                b'`' if self.ticks > 0 || self.at_line_start => {
                    self.ticks = self.ticks.saturating_add(1);
                    self.at_line_start = false;
                }
                b'\n' => {
                    self.end_run();
                    self.at_line_start = true;
                }
                b' ' | b'\t' | b'\r' => self.end_run(),
                _ => {
                    self.end_run();
                    self.at_line_start = false;
                }
            }
        }
    }

    /// [`observe`](Self::observe) for text known to hold no backtick and no newline: a pending
    /// backtick run ends at its first byte, and a line start survives only blank text.
    pub(crate) fn observe_plain(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.end_run();
        if self.at_line_start {
            self.at_line_start = blank(text.as_bytes());
        }
    }

    fn end_run(&mut self) {
        if self.ticks >= 3 {
            self.inside = !self.inside;
        }
        self.ticks = 0;
    }
}

fn blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_opens_and_closes_at_line_starts_across_chunks() {
        let mut f = FenceTracker::default();
        f.observe("Example:\n`");
        f.observe("``xml\n");
        assert!(f.inside);
        f.observe("inline ``` is not a fence\n");
        assert!(f.inside);
        f.observe("```\n");
        assert!(!f.inside);
    }

    #[test]
    fn the_plain_fast_path_agrees_with_the_byte_walk() {
        let starts = ["", "\n", "``", "\n``", "\n ", "x"];
        let texts = ["a", " ", " \t", "\r", "ab c", "   x"];
        for start in starts {
            for text in texts {
                for then in ["`", "``x", "\n```", "\n", "y"] {
                    let mut walked = FenceTracker::default();
                    let mut fast = FenceTracker::default();
                    walked.observe(start);
                    fast.observe(start);
                    walked.observe(text);
                    fast.observe_plain(text);
                    walked.observe(then);
                    fast.observe(then);
                    assert_eq!(
                        (walked.inside, walked.at_line_start, walked.ticks),
                        (fast.inside, fast.at_line_start, fast.ticks),
                        "{start:?} then {text:?} then {then:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn inline_backticks_do_not_open_a_fence() {
        let mut f = FenceTracker::default();
        f.observe("use ```this``` inline\n");
        assert!(!f.inside);
    }
}
