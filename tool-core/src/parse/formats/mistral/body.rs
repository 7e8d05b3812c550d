//! Mistral: `[TOOL_CALLS] [{"name": ..., "arguments": {...}}, ...]` (v3 tokenizers, several
//! calls in one array) and `[TOOL_CALLS]NAME[ARGS]{...}` (v11+, one call per marker, with an
//! optional `[CALL_ID]id` before `[ARGS]`).
//!
//! Neither form has an end marker: the block ends where its JSON value closes, so prose after
//! it is prose again.

use crate::parse::formats::blocks::Body;
use crate::parse::formats::core::Parsed;
use crate::parse::formats::json::{arguments_object, array_elements, named_call, ValueEnd};
use crate::parse::formats::options::FormatOptions;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::text_chunk::push_small;

pub(super) const OPEN: &[u8] = b"[TOOL_CALLS]";
const NAME_END: &[&[u8]] = &[b"[ARGS]", b"[CALL_ID]"];
pub(super) const EXAMPLE: &str = "[TOOL_CALLS]NAME[ARGS]{...}";
/// Longer than any tool name (the limit is 64): the marker was not a call.
const MAX_NAME: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Whitespace after `[TOOL_CALLS]`: a `[` starts the array form, anything else a name.
    Lead,
    Name,
    CallId,
    /// Whitespace after `[ARGS]`.
    ArgsLead,
    Value,
    /// The body could not be a call: it ended at the byte that showed it.
    Broken,
}

#[derive(Debug)]
pub(crate) struct MistralBody {
    raw: String,
    phase: Phase,
    tag: TagBuf,
    array: bool,
    name_end: usize,
    value_start: usize,
    value: ValueEnd,
    done: bool,
    problem: Option<String>,
}

impl MistralBody {
    fn empty() -> Self {
        MistralBody {
            raw: String::new(),
            phase: Phase::Lead,
            tag: TagBuf::default(),
            array: false,
            name_end: 0,
            value_start: 0,
            value: ValueEnd::default(),
            done: false,
            problem: None,
        }
    }

    fn broken(&mut self, problem: String) -> (usize, bool) {
        self.phase = Phase::Broken;
        self.problem = Some(problem);
        self.done = true;
        (0, true)
    }
}

impl Body for MistralBody {
    const OPEN: &'static [u8] = OPEN;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a [TOOL_CALLS] call";

    fn new() -> Self {
        MistralBody::empty()
    }

    fn feed(&mut self, s: &str) -> (usize, bool) {
        let bytes = s.as_bytes();
        match self.phase {
            Phase::Lead | Phase::ArgsLead => {
                let ws = bytes
                    .iter()
                    .position(|b| !b.is_ascii_whitespace())
                    .unwrap_or(bytes.len());
                self.raw.push_str(s.get(..ws).unwrap_or_default());
                let Some(&b) = bytes.get(ws) else {
                    return (ws, false);
                };
                if self.phase == Phase::Lead && b != b'[' {
                    self.phase = Phase::Name;
                    return (ws, false);
                }
                if b != b'{' && b != b'[' {
                    let (n, ended) = self.broken(format!(
                        "the arguments after [ARGS] must be a JSON object, not text starting {:?}",
                        char::from(b)
                    ));
                    return (ws + n, ended);
                }
                self.array = self.phase == Phase::Lead;
                self.phase = Phase::Value;
                self.value_start = self.raw.len();
                (ws, false)
            }
            Phase::Name | Phase::CallId => {
                if !self.tag.is_empty() {
                    let b = bytes.first().copied().unwrap_or_default();
                    match self.tag.push(b, NAME_END) {
                        Step::Partial => return (1, false),
                        Step::Full(k) => {
                            let marker = std::mem::take(&mut self.tag);
                            if self.phase == Phase::Name {
                                self.name_end = self.raw.len();
                            }
                            self.raw.push_str(marker.as_str());
                            self.phase = if k == 0 {
                                Phase::ArgsLead
                            } else {
                                Phase::CallId
                            };
                            return (1, false);
                        }
                        Step::Mismatch => {
                            let pending = std::mem::take(&mut self.tag);
                            self.raw.push_str(pending.as_str());
                        }
                    }
                }
                let p = if self.phase == Phase::Name {
                    memchr::memchr2(b'[', b'\n', bytes)
                } else {
                    memchr::memchr(b'[', bytes)
                }
                .unwrap_or(bytes.len());
                let mut text = s.get(..p).unwrap_or_default();
                if self.phase == Phase::Name && self.raw.len() + text.len() > MAX_NAME {
                    // Cut at the same stream offset however the reply was chunked.
                    let mut cut = MAX_NAME.saturating_sub(self.raw.len()).min(text.len());
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    text = text.get(..cut).unwrap_or_default();
                    self.raw.push_str(text);
                    let (_, ended) =
                        self.broken("the tool name after [TOOL_CALLS] is far too long".into());
                    return (cut, ended);
                }
                self.raw.push_str(text);
                if bytes.get(p) == Some(&b'\n') {
                    let (_, ended) = self.broken(
                        "[TOOL_CALLS] must be followed by NAME[ARGS]{...} or a JSON array"
                            .to_string(),
                    );
                    return (p, ended);
                }
                if p < bytes.len() {
                    self.tag.push(b'[', NAME_END);
                    return (p + 1, false);
                }
                (p, false)
            }
            Phase::Value => match self.value.scan(bytes) {
                Some(n) => {
                    push_small(&mut self.raw, s.get(..n).unwrap_or_default());
                    self.done = true;
                    (n, true)
                }
                None => {
                    push_small(&mut self.raw, s);
                    (s.len(), false)
                }
            },
            Phase::Broken => (0, true),
        }
    }

    #[inline]
    fn scan_content(&mut self, s: &str) -> usize {
        if self.phase != Phase::Value {
            return 0;
        }
        // On a copy, so that a chunk holding the value's end leaves the state to `feed`.
        let mut value = self.value;
        if value.scan(s.as_bytes()).is_some() {
            return 0;
        }
        self.value = value;
        push_small(&mut self.raw, s);
        s.len()
    }

    fn raw(&self) -> &str {
        &self.raw
    }

    fn complete(&self) -> bool {
        self.done
    }

    fn close(self, _options: &FormatOptions) -> Vec<(Parsed, usize)> {
        let end = self.raw.len();
        if let Some(problem) = self.problem {
            let name = Some(self.raw.get(..self.name_end).unwrap_or_default().trim())
                .filter(|n| !n.is_empty())
                .map(str::to_string);
            return vec![(
                Parsed::invalid(
                    name,
                    format!("The tool call could not be read: {problem}. Write it as {EXAMPLE}."),
                ),
                end,
            )];
        }
        let value = self.raw.get(self.value_start..).unwrap_or_default();
        if self.array {
            let Some(elements) = array_elements(value) else {
                return vec![(
                    Parsed::invalid(
                        None,
                        format!(
                            "The [TOOL_CALLS] list is not a JSON array. Write it as {EXAMPLE}."
                        ),
                    ),
                    end,
                )];
            };
            return elements
                .into_iter()
                .map(|r| {
                    let text = value.get(r.clone()).unwrap_or_default();
                    (named_call(text, EXAMPLE), self.value_start + r.end + 1)
                })
                .collect();
        }
        let name = self
            .raw
            .get(..self.name_end)
            .unwrap_or_default()
            .trim()
            .to_string();
        let mut repairs = Vec::new();
        let result = arguments_object(value, &name, &mut repairs);
        vec![(
            Parsed {
                name: Some(name),
                result,
                repairs,
            },
            end,
        )]
    }
}
