//! Byte input: joining UTF-8 sequences split across chunks, replacing invalid bytes.

use super::event::{Diagnostic, DiagnosticKind, Event};

/// A parser that takes text (`feed`) and carries a partial UTF-8 sequence between byte chunks.
/// Every text format's parser uses the same byte front end through this.
pub(crate) trait Utf8Sink {
    fn carry(&mut self) -> &mut Carry;
    fn feed_str(&mut self, text: &str, out: &mut Vec<Event>);
}

/// The start of a UTF-8 sequence whose remaining bytes are in the next chunk (at most 3).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Carry {
    bytes: [u8; 4],
    len: usize,
}

impl Carry {
    fn as_slice(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }
}

fn replace_invalid<P: Utf8Sink>(parser: &mut P, out: &mut Vec<Event>) {
    parser.feed_str("\u{FFFD}", out);
    out.push(Event::Diagnostic(Diagnostic {
        call: None,
        kind: DiagnosticKind::InvalidUtf8,
        message: "replaced invalid UTF-8 with U+FFFD".to_string(),
    }));
}

pub(crate) fn feed_bytes<P: Utf8Sink>(parser: &mut P, mut bytes: &[u8], out: &mut Vec<Event>) {
    // First complete a sequence left over from the previous chunk, one byte at a time.
    while parser.carry().len > 0 {
        let Some((&b, rest)) = bytes.split_first() else {
            return;
        };
        let mut carry = *parser.carry();
        let Some(slot) = carry.bytes.get_mut(carry.len) else {
            break;
        };
        *slot = b;
        carry.len += 1;
        bytes = rest;
        match std::str::from_utf8(carry.as_slice()) {
            Ok(s) => {
                let mut buf = [0u8; 4];
                let len = s.len().min(4);
                buf.get_mut(..len)
                    .unwrap_or_default()
                    .copy_from_slice(s.as_bytes().get(..len).unwrap_or_default());
                *parser.carry() = Carry::default();
                parser.feed_str(
                    std::str::from_utf8(buf.get(..len).unwrap_or_default()).unwrap_or_default(),
                    out,
                );
            }
            Err(e) if e.error_len().is_some() => {
                // The carried start was invalid: replace the invalid sequence, as
                // `String::from_utf8_lossy` would, and reprocess what follows it together with
                // this chunk (rare, so the copy does not matter).
                let n = e.error_len().unwrap_or(1);
                *parser.carry() = Carry::default();
                replace_invalid(parser, out);
                let mut again = carry.as_slice().get(n..).unwrap_or_default().to_vec();
                again.extend_from_slice(bytes);
                feed_bytes(parser, &again, out);
                return;
            }
            Err(_) => *parser.carry() = carry,
        }
    }
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                parser.feed_str(s, out);
                return;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to().min(bytes.len()));
                if let Ok(s) = std::str::from_utf8(valid) {
                    parser.feed_str(s, out);
                }
                match e.error_len() {
                    Some(n) => {
                        replace_invalid(parser, out);
                        bytes = rest.get(n..).unwrap_or_default();
                    }
                    None => {
                        let len = rest.len().min(3);
                        *parser.carry() = Carry::default();
                        if let Some(dst) = parser.carry().bytes.get_mut(..len) {
                            dst.copy_from_slice(rest.get(..len).unwrap_or_default());
                        }
                        parser.carry().len = len;
                        return;
                    }
                }
            }
        }
    }
}

/// At the end of input a carried partial sequence is invalid.
pub(crate) fn finish<P: Utf8Sink>(parser: &mut P, out: &mut Vec<Event>) {
    if parser.carry().len > 0 {
        *parser.carry() = Carry::default();
        replace_invalid(parser, out);
    }
}
