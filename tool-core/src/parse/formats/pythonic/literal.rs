//! Reading a pythonic call list, `[get_weather(city="Paris"), add(a=1, b=-2.5)]`, into calls
//! with JSON arguments: the Python literals of `ast.literal_eval` (strings in either quote
//! style with their escapes, numbers, `True`/`False`/`None`, lists, tuples, dicts), plus JSON's
//! `true`/`false`/`null`, which models prompted with JSON schemas write too.

use serde_json::{Map, Number, Value};

use super::end::PyEnd;

/// One call of the list: its name, its arguments as JSON object text (or what is wrong with
/// them), and where it ends in the list's text (after the comma that follows it).
#[derive(Debug)]
pub(super) struct Call {
    pub(super) name: String,
    pub(super) arguments: Result<String, String>,
    pub(super) end: usize,
}

/// Nesting deeper than this is refused, so that a hostile reply cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

/// The calls of the list `text` (from its `[` to its `]`), or what is wrong, with the name of
/// the first call when it was read.
pub(super) fn calls(text: &str) -> Result<Vec<Call>, (Option<String>, String)> {
    let mut reader = Reader {
        text,
        at: 0,
        first: None,
    };
    reader.list().map_err(|e| (reader.first.take(), e))
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
    first: Option<String>,
}

type Read<T> = Result<T, String>;

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn expect(&mut self, b: u8, what: &str) -> Read<()> {
        self.space();
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn unexpected(&self, what: &str) -> String {
        match self
            .text
            .get(self.at..)
            .and_then(|rest| rest.chars().next())
        {
            Some(c) => format!("expected {what} at byte {}, found {c:?}", self.at),
            None => format!("expected {what}, but the list ended"),
        }
    }

    fn list(&mut self) -> Read<Vec<Call>> {
        self.expect(b'[', "'['")?;
        let mut calls = Vec::new();
        loop {
            self.space();
            if self.peek() == Some(b']') && !calls.is_empty() {
                self.at += 1;
                break;
            }
            let start = self.at;
            let (name, arguments) = match self.call() {
                Ok((name, arguments)) => (name, Ok(arguments)),
                // A call whose arguments are not literals, but whose brackets close: it fails
                // on its own, and the calls beside it still run.
                Err(problem) => match self.skip_call(start) {
                    Some(name) => (name, Err(problem)),
                    None => return Err(problem),
                },
            };
            if calls.is_empty() {
                self.first = Some(name.clone());
            }
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {}
                _ => return Err(self.unexpected("',' or ']' after a call")),
            }
            calls.push(Call {
                name,
                arguments,
                end: self.at,
            });
        }
        self.space();
        if self.at < self.text.len() {
            return Err(self.unexpected("the end of the list"));
        }
        Ok(calls)
    }

    /// Moves past the call starting at `start` (`NAME(` and its balanced brackets, strings
    /// skipped), if its brackets close; returns its name.
    fn skip_call(&mut self, start: usize) -> Option<String> {
        self.at = start;
        self.space();
        let name = self.ident()?.to_string();
        self.space();
        let bytes = self.text.as_bytes();
        if bytes.get(self.at) != Some(&b'(') {
            return None;
        }
        // The same scan that found the list's end, so that both read strings alike.
        let n = PyEnd::default().scan(bytes.get(self.at..)?)?;
        self.at += n;
        (bytes.get(self.at - 1) == Some(&b')')).then_some(name)
    }

    fn ident(&mut self) -> Option<&str> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        if !bytes
            .get(start)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        {
            return None;
        }
        let len = bytes
            .get(start..)
            .unwrap_or_default()
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.'))
            .unwrap_or(bytes.len() - start);
        self.at = start + len;
        self.text.get(start..self.at)
    }

    /// `NAME(KEY=VALUE, ...)`: the name and the arguments as JSON object text.
    fn call(&mut self) -> Read<(String, String)> {
        self.space();
        let Some(name) = self.ident().map(str::to_string) else {
            return Err(self.unexpected("a function name"));
        };
        self.expect(b'(', "'(' after the function name")?;
        let mut args = Map::new();
        loop {
            self.space();
            if self.peek() == Some(b')') {
                self.at += 1;
                break;
            }
            let key_at = self.at;
            let key = self.ident().map(str::to_string);
            self.space();
            let key = match (key, self.peek()) {
                (Some(key), Some(b'=')) if self.text.as_bytes().get(self.at + 1) != Some(&b'=') => {
                    self.at += 1;
                    key
                }
                _ => {
                    self.at = key_at;
                    return Err(format!(
                        "the arguments of '{name}' must be named (KEY=VALUE); {}",
                        self.unexpected("a parameter name")
                    ));
                }
            };
            let value = self.value(0)?;
            if args.insert(key.clone(), value).is_some() {
                return Err(format!("the parameter '{key}' of '{name}' is given twice"));
            }
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b')') => {}
                _ => return Err(self.unexpected("',' or ')' after an argument")),
            }
        }
        Ok((name, Value::Object(args).to_string()))
    }

    fn value(&mut self, depth: usize) -> Read<Value> {
        if depth > MAX_DEPTH {
            return Err("the value is nested too deeply".to_string());
        }
        self.space();
        match self.peek() {
            Some(q @ (b'"' | b'\'')) => self.string(q).map(Value::String),
            Some(b'[') => self.sequence(b']', depth).map(Value::Array),
            Some(b'(') => self.sequence(b')', depth).map(Value::Array),
            Some(b'{') => self.dict(depth),
            Some(b'-' | b'+' | b'.' | b'0'..=b'9') => self.number(),
            _ => {
                let at = self.at;
                let word = self.ident().map(str::to_string);
                match word.as_deref() {
                    Some("True" | "true") => Ok(Value::Bool(true)),
                    Some("False" | "false") => Ok(Value::Bool(false)),
                    Some("None" | "null") => Ok(Value::Null),
                    Some(word) => {
                        self.space();
                        let what = if self.peek() == Some(b'(') {
                            "a call"
                        } else {
                            "a variable"
                        };
                        Err(format!(
                            "the value at byte {at} is {what} ('{word}'), not a literal: write \
                             the value itself"
                        ))
                    }
                    None => Err(self.unexpected("a value")),
                }
            }
        }
    }

    /// A list or tuple, its opening bracket next.
    fn sequence(&mut self, close: u8, depth: usize) -> Read<Vec<Value>> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.space();
            if self.peek() == Some(close) {
                self.at += 1;
                return Ok(items);
            }
            items.push(self.value(depth + 1)?);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b) if b == close => {}
                _ => return Err(self.unexpected("',' or the closing bracket")),
            }
        }
    }

    fn dict(&mut self, depth: usize) -> Read<Value> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.space();
            if self.peek() == Some(b'}') {
                self.at += 1;
                return Ok(Value::Object(map));
            }
            let key = match self.value(depth + 1)? {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => if b { "True" } else { "False" }.to_string(),
                _ => {
                    return Err(format!(
                        "a dict key before byte {} is not a string",
                        self.at
                    ))
                }
            };
            self.expect(b':', "':' after a dict key")?;
            let value = self.value(depth + 1)?;
            map.insert(key, value);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {}
                _ => return Err(self.unexpected("',' or '}' in a dict")),
            }
        }
    }

    fn number(&mut self) -> Read<Value> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let mut end = start;
        while let Some(&b) = bytes.get(end) {
            let sign_after_exponent = matches!(b, b'+' | b'-')
                && (end == start || matches!(bytes.get(end - 1), Some(b'e' | b'E')));
            if b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'e' | b'E') || sign_after_exponent {
                end += 1;
            } else {
                break;
            }
        }
        self.at = end;
        let written = self.text.get(start..end).unwrap_or_default();
        let digits: String = written.chars().filter(|&c| c != '_').collect();
        let digits = digits.strip_prefix('+').unwrap_or(&digits);
        let integer = !digits.contains(['.', 'e', 'E']);
        let number = if integer {
            digits
                .parse::<i64>()
                .map(Number::from)
                .ok()
                .or_else(|| digits.parse::<u64>().map(Number::from).ok())
        } else {
            None
        };
        number
            .or_else(|| digits.parse::<f64>().ok().and_then(Number::from_f64))
            .map(Value::Number)
            .ok_or_else(|| format!("{written:?} at byte {start} is not a number"))
    }

    /// A string in quote `q` (single or triple), with Python's escapes.
    fn string(&mut self, q: u8) -> Read<String> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let triple = bytes.get(start + 1) == Some(&q) && bytes.get(start + 2) == Some(&q);
        self.at += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let rest = self.text.get(self.at..).unwrap_or_default();
            let Some(c) = rest.chars().next() else {
                return Err(format!("the string at byte {start} is not closed"));
            };
            let b = c as u32;
            if b == u32::from(q) {
                if !triple {
                    self.at += 1;
                    return Ok(out);
                }
                if rest.as_bytes().get(1) == Some(&q) && rest.as_bytes().get(2) == Some(&q) {
                    self.at += 3;
                    return Ok(out);
                }
            }
            if c == '\n' && !triple {
                return Err(format!(
                    "the string at byte {start} runs past the end of the line"
                ));
            }
            self.at += c.len_utf8();
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.text.get(self.at..).and_then(|r| r.chars().next()) else {
                continue;
            };
            self.at += e.len_utf8();
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                'a' => out.push('\u{7}'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'v' => out.push('\u{b}'),
                '\n' => {}
                '\\' | '\'' | '"' => out.push(e),
                'x' | 'u' | 'U' => {
                    let len = match e {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let hex = self.text.get(self.at..self.at + len).unwrap_or_default();
                    let code = u32::from_str_radix(hex, 16)
                        .ok()
                        .filter(|_| hex.len() == len);
                    match code.and_then(char::from_u32) {
                        Some(ch) => {
                            out.push(ch);
                            self.at += len;
                        }
                        None => {
                            return Err(format!(
                                "the escape \\{e}{hex} in the string at byte {start} is not a character"
                            ))
                        }
                    }
                }
                // Python keeps an unknown escape as written.
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> (String, String) {
        let calls = calls(text).unwrap();
        assert_eq!(calls.len(), 1, "{text}");
        let call = calls.into_iter().next().unwrap();
        (call.name, call.arguments.unwrap())
    }

    fn failed(text: &str) -> String {
        let calls = calls(text).unwrap();
        calls.into_iter().next().unwrap().arguments.unwrap_err()
    }

    #[test]
    fn python_literals_become_json() {
        let (name, args) = one(
            r#"[f(a=1, b=-2.5, c='it\'s', d="say \"hi\"\n", e=True, f=None, g=[1, (2, 3)], h={'k': {"n": False}}, i=1e3, j=[],)]"#,
        );
        assert_eq!(name, "f");
        let value: Value = serde_json::from_str(&args).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"a": 1, "b": -2.5, "c": "it's", "d": "say \"hi\"\n", "e": true,
                "f": null, "g": [1, [2, 3]], "h": {"k": {"n": false}}, "i": 1000.0, "j": []})
        );
    }

    #[test]
    fn several_calls_and_their_ends() {
        let text = "[get_weather(city=\"Paris\"), add(a=1, b=2)]";
        let calls = calls(text).unwrap();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].end, text.find(" add").unwrap());
        assert_eq!(calls[1].arguments.as_deref(), Ok(r#"{"a":1,"b":2}"#));
    }

    #[test]
    fn what_is_not_a_literal_call_list_says_why() {
        let message = failed("[f(1)]");
        assert!(message.contains("must be named"), "{message}");
        let message = failed("[f(a=x)]");
        assert!(message.contains("a variable ('x')"), "{message}");
        let message = failed("[f(a=g(1))]");
        assert!(message.contains("a call ('g')"), "{message}");
        assert!(failed("[f(a=1, a=2)]").contains("twice"));
        assert!(calls("[f(a='x)]").is_err());
        let deep = format!("[f(a={}{})]", "[".repeat(100), "]".repeat(100));
        assert!(failed(&deep).contains("too deeply"));
        // The call beside a failed one is still read.
        let both = calls("[bad(x=b'z'), good(y=1)]").unwrap();
        assert!(both[0].arguments.is_err());
        assert_eq!(both[1].arguments.as_deref(), Ok(r#"{"y":1}"#));
        let (first, message) = calls("[f(a=1])]").unwrap_err();
        assert_eq!(first, None);
        assert!(message.contains("expected"), "{message}");
    }
}
