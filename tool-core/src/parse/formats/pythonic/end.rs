//! Where a Python literal ends: its brackets balanced, strings skipped, read a byte at a time
//! so that a chunk may end anywhere (inside a quote run too).
//!
//! A string opens with one quote or three (`'''`, `"""`). A triple-quoted string may hold its
//! quote alone or doubled, brackets and newlines, and ends only at three quotes in a row; read
//! as plain strings it would seem to end at its first quote and leave its brackets counted.

/// The scan's state, carried across chunks.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct PyEnd {
    depth: u32,
    /// The quote of the string being read (`0`: none).
    quote: u8,
    /// Whether the string is triple-quoted.
    triple: bool,
    /// Quotes in a row just read: at a string's start (1 or 2 so far), or inside a
    /// triple-quoted one (towards the three that end it).
    run: u8,
    /// Whether the string's opening quotes are still being counted.
    opening: bool,
    escaped: bool,
}

impl PyEnd {
    /// Scans `s`; the length up to and including the byte that closes the outermost bracket,
    /// if `s` holds it.
    pub(super) fn scan(&mut self, s: &[u8]) -> Option<usize> {
        for (i, &b) in s.iter().enumerate() {
            if self.quote != 0 && self.in_string(b) {
                continue;
            }
            match b {
                b'"' | b'\'' => {
                    self.quote = b;
                    self.run = 1;
                    self.opening = true;
                    self.triple = false;
                }
                b'[' | b'(' | b'{' => self.depth = self.depth.saturating_add(1),
                b']' | b')' | b'}' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Reads byte `b` while a string is open: whether it belonged to the string (else the
    /// string closed before it and it is read as code).
    fn in_string(&mut self, b: u8) -> bool {
        let q = self.quote;
        if self.opening {
            if b == q && self.run < 3 {
                self.run += 1;
                if self.run == 3 {
                    // `'''`: a triple-quoted string starts.
                    self.opening = false;
                    self.triple = true;
                    self.run = 0;
                }
                return true;
            }
            self.opening = false;
            if self.run == 2 {
                // `''`: an empty string, closed; this byte is code.
                self.quote = 0;
                self.run = 0;
                return false;
            }
            // One quote: a plain string, and this byte is its first.
            self.run = 0;
        }
        if self.escaped {
            self.escaped = false;
            self.run = 0;
        } else if b == b'\\' {
            self.escaped = true;
            self.run = 0;
        } else if b == q {
            if self.triple {
                self.run += 1;
                if self.run == 3 {
                    self.quote = 0;
                    self.run = 0;
                }
            } else {
                self.quote = 0;
            }
        } else {
            self.run = 0;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end found whole and with the text cut at every byte.
    fn end(text: &str) -> Option<usize> {
        let whole = PyEnd::default().scan(text.as_bytes());
        for cut in 0..=text.len() {
            let mut scan = PyEnd::default();
            let got = scan
                .scan(&text.as_bytes()[..cut])
                .or_else(|| scan.scan(&text.as_bytes()[cut..]).map(|n| n + cut));
            assert_eq!(got, whole, "{text:?} cut at {cut}");
        }
        whole
    }

    #[test]
    fn strings_of_one_quote_or_three_hide_their_brackets() {
        assert_eq!(end("[f(a='x]')] tail"), Some(11));
        assert_eq!(end("[f(a='')] tail"), Some(9));
        assert_eq!(end("[f(a='''it's ] '' ''')] tail"), Some(23));
        assert_eq!(
            end("[f(a=\"\"\"a \"\" ]\n) \\\"\"\" \"\"\")] tail"),
            Some(27)
        );
        assert_eq!(end("[f(a=''''')]''')] tail"), Some(17));
        assert_eq!(end("[f(a='''x''', b=']')] tail"), Some(21));
        assert_eq!(end("[f(a='''never closed ])"), None);
    }
}
