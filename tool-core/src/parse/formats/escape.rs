//! Writing an arguments object as compact JSON, byte for byte what `serde_json` writes, with
//! strings escaped eight bytes at a time.
//!
//! A Qwen3-Coder parameter value is untyped text that may be megabytes long; with
//! `serde_json`'s byte-by-byte escaping, re-encoding it as a JSON string was the largest cost
//! of closing such a call. Here a word with no quote, backslash or control byte is copied as a
//! whole.

use std::collections::HashMap;

use serde_json::Value;

use super::convert::Converted;

/// Past this many keys an [`ArgMap`] finds a key through an index rather than a scan.
const SCANNED_KEYS: usize = 16;

/// The arguments of one call as they are read, in order: a repeated key keeps its first place
/// and takes its last value, as in a JSON map. A short call is searched by a scan (no index to
/// build); a long one through an index, so that a call of many parameters is not read in time
/// quadratic in their number.
#[derive(Default)]
pub(crate) struct ArgMap<'a> {
    args: Vec<(String, Converted<'a>)>,
    index: HashMap<String, usize>,
}

impl<'a> ArgMap<'a> {
    /// Sets `key` to `value`.
    pub(crate) fn set(&mut self, key: &str, value: Converted<'a>) {
        let at = if self.args.len() < SCANNED_KEYS {
            self.args.iter().position(|(k, _)| k == key)
        } else {
            if self.index.is_empty() {
                let keys = self.args.iter().enumerate();
                self.index = keys.map(|(i, (k, _))| (k.clone(), i)).collect();
            }
            self.index.get(key).copied()
        };
        match at.and_then(|at| self.args.get_mut(at)) {
            Some(slot) => slot.1 = value,
            None => {
                if !self.index.is_empty() {
                    self.index.insert(key.to_string(), self.args.len());
                }
                self.args.push((key.to_string(), value));
            }
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.args.is_empty()
    }

    /// The arguments as a compact JSON object ([`object_json`]).
    pub(crate) fn json(&self) -> String {
        object_json(&self.args)
    }
}

/// The JSON object of `args` in order, as `serde_json` writes a `Map` (compact), faster on
/// long strings.
pub(crate) fn object_json(args: &[(String, Converted<'_>)]) -> String {
    // Sized for the unescaped text, so that a long value is not copied again as it grows.
    let size: usize = args
        .iter()
        .map(|(key, value)| match value {
            Converted::Text(s) => key.len() + s.len() + 6,
            Converted::Json(_) => key.len() + 16,
        })
        .sum();
    let mut out = String::with_capacity(size + 2);
    out.push('{');
    for (i, (key, value)) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string_into(key, &mut out);
        out.push(':');
        match value {
            Converted::Text(s) => string_into(s, &mut out),
            Converted::Json(Value::String(s)) => string_into(s, &mut out),
            Converted::Json(other) => out.push_str(&other.to_string()),
        }
    }
    out.push('}');
    out
}

/// Appends `s` as a JSON string literal, escaped as `serde_json` escapes it.
fn string_into(s: &str, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut rest = s;
    loop {
        let at = first_escape(rest.as_bytes());
        let (plain, tail) = rest.split_at_checked(at).unwrap_or((rest, ""));
        out.push_str(plain);
        let Some(&b) = tail.as_bytes().first() else {
            break;
        };
        push_escape(b, out);
        // The escaped byte is ASCII, so the rest starts on a char boundary.
        rest = tail.get(1..).unwrap_or_default();
    }
    out.push('"');
}

const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);

/// The high bit of each byte of `word` (read little-endian) that is a quote, a backslash or
/// below 0x20, possibly with false hits above the first true one, never below it. Each term is
/// the classic bit trick: `x - 0x01.. & !x & 0x80..` flags the bytes of `x` that are zero,
/// `x - 0x20.. & !x & 0x80..` those below 0x20; a borrow only runs upwards from a true hit.
fn escape_hits(word: u64) -> u64 {
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    ((word.wrapping_sub(ONES * 0x20) & !word)
        | (quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash))
        & HIGHS
}

fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The index of the first byte that must be escaped (`bytes.len()` if none).
fn first_escape(bytes: &[u8]) -> usize {
    let mut i = 0;
    while let Some(word) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let hits = escape_hits(u64::from_le_bytes(*word));
        if hits != 0 {
            // The lowest flagged byte is the first one to escape (`trailing_zeros` < 64).
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = bytes.get(i..).unwrap_or_default();
    i + rest
        .iter()
        .position(|&b| needs_escape(b))
        .unwrap_or(rest.len())
}

fn push_escape(b: u8, out: &mut String) {
    out.push('\\');
    match b {
        b'"' => out.push('"'),
        b'\\' => out.push('\\'),
        b'\n' => out.push('n'),
        b'\r' => out.push('r'),
        b'\t' => out.push('t'),
        0x08 => out.push('b'),
        0x0c => out.push('f'),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_repeated_key_keeps_its_place_and_takes_the_last_value_short_or_long() {
        for count in [3, 40] {
            let mut args = ArgMap::default();
            for i in 0..count {
                args.set(&format!("k{i}"), Converted::Text("a"));
            }
            args.set("k1", Converted::Text("b"));
            args.set(&format!("k{}", count - 1), Converted::Text("c"));
            let value: Value = serde_json::from_str(&args.json()).unwrap();
            let map = value.as_object().unwrap();
            assert_eq!(map.len(), count);
            assert_eq!(map.keys().nth(1).map(String::as_str), Some("k1"));
            assert_eq!(map["k1"], "b");
            assert_eq!(map[&format!("k{}", count - 1)], "c");
        }
    }

    #[test]
    fn every_byte_class_is_written_as_serde_json_writes_it() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = *b"abcdefgh";
                bytes[at] = b;
                let expected = if needs_escape(b) { at } else { 8 };
                assert_eq!(first_escape(&bytes), expected, "{b:#x} at {at}");
                if at < 7 {
                    // A byte to escape later in the word does not hide this one.
                    bytes[7] = b'"';
                    assert_eq!(first_escape(&bytes), expected.min(7), "{b:#x} at {at}");
                }
            }
        }
        let mut all = String::new();
        for c in (0u8..0x80)
            .map(char::from)
            .chain(['é', '☃', '😀', '\u{7f}'])
        {
            all.push(c);
        }
        // Each special byte at every offset within a word, and runs longer than a word.
        let mut samples = vec![
            all.clone(),
            String::new(),
            "plain text, no escapes".repeat(5),
        ];
        for special in ["\"", "\\", "\n", "\u{1}", "\u{1f}", " ", "\u{7f}", "é"] {
            for at in 0..17 {
                samples.push(format!(
                    "{}{special}{}",
                    "a".repeat(at),
                    "b".repeat(17 - at)
                ));
            }
        }
        for s in samples {
            let expected = json!({ s.clone(): s.clone() }).to_string();
            let text = [(s.clone(), Converted::Text(&s))];
            assert_eq!(object_json(&text), expected, "{s:?}");
            let value = [(s.clone(), Converted::Json(json!(s)))];
            assert_eq!(object_json(&value), expected, "{s:?}");
        }
    }

    #[test]
    fn objects_keep_key_order_and_non_string_values() {
        let expected =
            json!({"z": 1, "a": [1, "x\"y"], "m": {"k": null}, "s": "v", "f": 2.5, "b": true});
        let Value::Object(map) = &expected else {
            unreachable!("a JSON object")
        };
        let args: Vec<(String, Converted<'_>)> = map
            .iter()
            .map(|(k, v)| (k.clone(), Converted::Json(v.clone())))
            .collect();
        assert_eq!(object_json(&args), expected.to_string());
        assert_eq!(object_json(&[]), "{}");
    }
}
