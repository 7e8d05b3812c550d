//! Finding where prose stops in a chunk: the next `<`, and whether the text before it holds a
//! byte the fence tracker must look at one by one (a backtick or a newline).
//!
//! Small stream chunks (a few bytes each) are the common case for a model streaming its reply,
//! so short inputs are classified in one pass over a byte table instead of one search for `<`
//! plus a second walk for the fence tracker.

/// The prose at the start of a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProseRun {
    /// Bytes of prose before the first `<` (the whole input when there is none).
    pub(crate) len: usize,
    /// Whether a `<` ends the run.
    pub(crate) at_lt: bool,
    /// The run holds no backtick or newline, so the fence tracker may take its fast path.
    /// `false` means "not known" for long inputs, which the tracker then scans itself.
    pub(crate) plain: bool,
}

/// Inputs shorter than this take the table walk; longer ones use `memchr`, whose set-up costs
/// more than the walk on a handful of bytes.
const SHORT: usize = 16;

const LT: u8 = 1;
const FENCE: u8 = 2;

static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'<' as usize] = LT;
    table[b'`' as usize] = FENCE;
    table[b'\n' as usize] = FENCE;
    table
};

/// Classifies the prose at the start of `bytes`.
pub(crate) fn scan(bytes: &[u8]) -> ProseRun {
    if bytes.len() >= SHORT {
        return match memchr::memchr(b'<', bytes) {
            Some(len) => ProseRun {
                len,
                at_lt: true,
                plain: false,
            },
            None => ProseRun {
                len: bytes.len(),
                at_lt: false,
                plain: false,
            },
        };
    }
    let mut seen = 0;
    for (len, &b) in bytes.iter().enumerate() {
        // A `u8` index into a 256-entry table is always in bounds.
        let class = CLASS[usize::from(b)];
        if class == LT {
            return ProseRun {
                len,
                at_lt: true,
                plain: seen == 0,
            };
        }
        seen |= class;
    }
    ProseRun {
        len: bytes.len(),
        at_lt: false,
        plain: seen == 0,
    }
}

/// [`scan`] for prose that stops at `stop` instead of `<` (Mistral's `[`).
pub(crate) fn scan_until(bytes: &[u8], stop: u8) -> ProseRun {
    if stop == b'<' {
        return scan(bytes);
    }
    if bytes.len() >= SHORT {
        let len = memchr::memchr(stop, bytes).unwrap_or(bytes.len());
        return ProseRun {
            len,
            at_lt: len < bytes.len(),
            plain: false,
        };
    }
    let mut plain = true;
    for (len, &b) in bytes.iter().enumerate() {
        if b == stop {
            return ProseRun {
                len,
                at_lt: true,
                plain,
            };
        }
        plain &= CLASS[usize::from(b)] != FENCE;
    }
    ProseRun {
        len: bytes.len(),
        at_lt: false,
        plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_runs_stop_at_lt_and_know_whether_they_are_plain() {
        let run = scan(b"ab<c");
        assert_eq!((run.len, run.at_lt, run.plain), (2, true, true));
        let run = scan(b"a`b<");
        assert_eq!((run.len, run.at_lt, run.plain), (3, true, false));
        let run = scan(b"a\nb");
        assert_eq!((run.len, run.at_lt, run.plain), (3, false, false));
        // A backtick after the `<` does not concern the run.
        let run = scan(b"ab<`");
        assert_eq!((run.len, run.at_lt, run.plain), (2, true, true));
    }

    #[test]
    fn scan_until_stops_at_its_own_byte() {
        let run = scan_until(b"a<b[c", b'[');
        assert_eq!((run.len, run.at_lt, run.plain), (3, true, true));
        let run = scan_until(b"a`b", b'[');
        assert_eq!((run.len, run.at_lt, run.plain), (3, false, false));
        let text = format!("{}[x", "a".repeat(40));
        let run = scan_until(text.as_bytes(), b'[');
        assert_eq!((run.len, run.at_lt), (40, true));
    }

    #[test]
    fn long_runs_find_lt_and_leave_the_fence_scan_to_the_tracker() {
        let text = format!("{}<x", "a".repeat(40));
        let run = scan(text.as_bytes());
        assert_eq!((run.len, run.at_lt, run.plain), (40, true, false));
        let run = scan("b".repeat(40).as_bytes());
        assert_eq!((run.len, run.at_lt, run.plain), (40, false, false));
    }
}
