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

/// The byte that ends a run (`<`, or `[` in [`BRACKET`]).
const LT: u8 = 1;
const FENCE: u8 = 2;

/// Prose classes when runs end at `<`.
static CLASS: [u8; 256] = classes(b'<');
/// Prose classes when runs end at `[` (Mistral's `[TOOL_CALLS]`).
static BRACKET: [u8; 256] = classes(b'[');

const fn classes(stop: u8) -> [u8; 256] {
    let mut table = [0u8; 256];
    table[b'`' as usize] = FENCE;
    table[b'\n' as usize] = FENCE;
    table[stop as usize] = LT;
    table
}

/// Classifies the prose at the start of `bytes`.
#[inline]
pub(crate) fn scan(bytes: &[u8]) -> ProseRun {
    scan_with(bytes, b'<', &CLASS)
}

/// [`scan`] for prose that stops at `stop` instead of `<` (Mistral's `[`).
#[inline]
pub(crate) fn scan_until(bytes: &[u8], stop: u8) -> ProseRun {
    match stop {
        b'<' => scan_with(bytes, stop, &CLASS),
        b'[' => scan_with(bytes, stop, &BRACKET),
        _ => {
            let len = memchr::memchr(stop, bytes).unwrap_or(bytes.len());
            ProseRun {
                len,
                at_lt: len < bytes.len(),
                plain: false,
            }
        }
    }
}

/// The walk behind [`scan`]: `table` classifies bytes with `stop` as [`LT`].
#[inline]
fn scan_with(bytes: &[u8], stop: u8, table: &[u8; 256]) -> ProseRun {
    if bytes.len() >= SHORT {
        return match memchr::memchr(stop, bytes) {
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
        let class = table[usize::from(b)];
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

/// Where the first `stop` byte is in `bytes` (`bytes.len()` if none): a plain loop for the
/// few bytes of a streamed chunk, where `memchr`'s set-up costs more than the search.
#[inline]
pub(crate) fn find(bytes: &[u8], stop: u8) -> usize {
    if bytes.len() >= SHORT {
        return memchr::memchr(stop, bytes).unwrap_or(bytes.len());
    }
    bytes.iter().position(|&b| b == stop).unwrap_or(bytes.len())
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
        let run = scan_until(b"a\nb", b'[');
        assert_eq!((run.len, run.at_lt, run.plain), (3, false, false));
    }

    #[test]
    fn find_agrees_with_memchr_at_every_length() {
        let text = format!("{}<{}", "a".repeat(20), "b".repeat(20));
        for end in 0..=text.len() {
            for start in 0..end {
                let bytes = text.as_bytes().get(start..end).unwrap();
                let expected = memchr::memchr(b'<', bytes).unwrap_or(bytes.len());
                assert_eq!(find(bytes, b'<'), expected);
            }
        }
        assert_eq!(find(b"ab<", b'<'), 2);
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
