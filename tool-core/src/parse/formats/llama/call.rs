//! Reading a Llama 3.x JSON call: which objects in the prose are calls, and their arguments.
//!
//! An object is a call when its first key is `"name"` (or `"type"`, as Llama 3.2 writes
//! `{"type": "function", "name": ...}`, or `"parameters"`/`"arguments"`, which the peers read
//! before the name too), its `"name"` is a string, and it has `"parameters"` (or
//! `"arguments"`), or names one of the offered tools. Any other JSON object in the reply is
//! prose: its bytes come out as text, as written, and so do the objects nested in it.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::bare::{Bare, Lead};
use crate::parse::formats::core::Parsed;
use crate::parse::formats::json::{arguments_object, ValueEnd};
use crate::parse::formats::options::FormatOptions;

pub(super) const EXAMPLE: &str = r#"{"name": "NAME", "parameters": {...}}"#;
pub(super) const PYTHON_TAG: &str = "<|python_tag|>";

/// The first keys that make an object a candidate.
const KEYS: &[&[u8]] = &[b"name", b"type", b"parameters", b"arguments"];
/// The longest first key read as one; a longer one (or one of other characters) is prose.
const MAX_KEY: usize = 32;
/// Whitespace allowed between `{` and the first key.
const MAX_SPACE: usize = 64;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Phase {
    /// After `{`: whitespace, then the key's `"`.
    #[default]
    Open,
    /// Inside the first key.
    Key,
}

/// The reading of one candidate object.
#[derive(Debug, Default)]
pub(crate) struct LlamaCall {
    phase: Phase,
    space: usize,
    key: Vec<u8>,
    value: ValueEnd,
}

#[derive(Deserialize)]
struct Object<'a> {
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    parameters: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "type")]
    kind: Option<&'a RawValue>,
}

impl Bare for LlamaCall {
    const OPEN: u8 = b'{';
    const TOKENS: &'static [&'static [u8]] = &[PYTHON_TAG.as_bytes()];
    const SEPARATOR: u8 = b';';
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a JSON tool call";

    fn lead(&mut self, b: u8) -> Lead {
        match self.phase {
            Phase::Open if b.is_ascii_whitespace() && self.space < MAX_SPACE => {
                self.space += 1;
                Lead::More
            }
            Phase::Open if b == b'"' => {
                self.phase = Phase::Key;
                Lead::More
            }
            Phase::Key if b == b'"' => {
                if KEYS.contains(&self.key.as_slice()) {
                    Lead::Call
                } else {
                    // A JSON object of the prose: what is nested in it is data too.
                    Lead::Object
                }
            }
            Phase::Key
                if (b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                    && self.key.len() < MAX_KEY =>
            {
                self.key.push(b);
                Lead::More
            }
            _ => Lead::Prose,
        }
    }

    fn scan(&mut self, s: &[u8]) -> Option<usize> {
        self.value.scan(s)
    }

    fn read(text: &str, options: &FormatOptions) -> Option<Vec<(Parsed, usize)>> {
        let end = text.len();
        let object: Object<'_> = match serde_json::from_str(text) {
            Ok(object) => object,
            Err(e) => {
                // It began like a call (`{"name"`): tell the model what is wrong.
                let message = format!(
                    "The tool call is not valid JSON: {e}. Write it as {EXAMPLE}, with quotes \
                     inside strings escaped."
                );
                return Some(vec![(Parsed::invalid(None, message), end)]);
            }
        };
        let name: String = serde_json::from_str(object.name?.get()).ok()?;
        let name = name.trim().to_string();
        if let Some(kind) = object.kind {
            if serde_json::from_str::<&str>(kind.get()).ok() != Some("function") {
                return None;
            }
        }
        let mut repairs = Vec::new();
        let result = match object.parameters.or(object.arguments) {
            Some(args) => arguments_object(args.get(), &name, &mut repairs),
            None => {
                let known = options
                    .known_tools()
                    .is_some_and(|tools| tools.contains(&name));
                if !known {
                    return None;
                }
                repairs.push((
                    DiagnosticKind::EmptyArguments,
                    "no \"parameters\" given; calling with {}".to_string(),
                ));
                Ok(crate::parse::formats::blocks::object("{}".to_string()))
            }
        };
        Some(vec![(
            Parsed {
                name: Some(name),
                result,
                repairs,
            },
            end,
        )])
    }
}
