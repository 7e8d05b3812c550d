//! Which lists in the prose are pythonic calls, where they end, and reading them.
//!
//! A `[` followed by a name and `(` opens a candidate; the list is read once its `]` closes
//! it (the calls are reported then, all together, as sglang's pythonic detector does). A list
//! that is not a well-formed list of calls is a `CallError` when its first name is one of the
//! offered tools (or no tools are known), and prose otherwise.

use super::end::PyEnd;
use super::literal::calls;
use crate::parse::formats::bare::{Bare, Lead};
use crate::parse::formats::core::Parsed;
use crate::parse::formats::options::FormatOptions;
use crate::parse::repair::Arguments;

pub(super) const EXAMPLE: &str = "[NAME(KEY=VALUE, ...)]";
pub(super) const PYTHON_START: &str = "<|python_start|>";
pub(super) const PYTHON_END: &str = "<|python_end|>";

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Phase {
    /// After `[`: whitespace, then the name's first letter.
    #[default]
    Open,
    Name,
}

/// The reading of one candidate list.
#[derive(Debug, Default)]
pub(crate) struct PythonicCall {
    phase: Phase,
    space: usize,
    value: PyEnd,
}

impl Bare for PythonicCall {
    const OPEN: u8 = b'[';
    const TOKENS: &'static [&'static [u8]] = &[PYTHON_START.as_bytes(), PYTHON_END.as_bytes()];
    const SEPARATOR: u8 = 0;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a pythonic call list";

    fn lead(&mut self, b: u8) -> Lead {
        match self.phase {
            Phase::Open if b.is_ascii_whitespace() && self.space < 64 => {
                self.space += 1;
                Lead::More
            }
            Phase::Open if b.is_ascii_alphabetic() || b == b'_' => {
                self.phase = Phase::Name;
                Lead::More
            }
            Phase::Name if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' => Lead::More,
            Phase::Name if b == b'(' => Lead::Call,
            _ => Lead::Prose,
        }
    }

    fn scan(&mut self, s: &[u8]) -> Option<usize> {
        self.value.scan(s)
    }

    fn attempt(text: &str, options: &FormatOptions) -> bool {
        attempt(leading_name(text).as_deref(), options)
    }

    fn read(text: &str, options: &FormatOptions) -> Option<Vec<(Parsed, usize)>> {
        match calls(text) {
            Ok(list) => Some(
                list.into_iter()
                    .map(|call| {
                        let parsed = match call.arguments {
                            Ok(json) => Parsed {
                                name: Some(call.name),
                                result: Ok(Arguments { json, raw: None }),
                                repairs: Vec::new(),
                            },
                            Err(problem) => Parsed::invalid(Some(call.name), message(&problem)),
                        };
                        (parsed, call.end)
                    })
                    .collect(),
            ),
            Err((first, problem)) => {
                let name = first.or_else(|| leading_name(text));
                attempt(name.as_deref(), options)
                    .then(|| vec![(Parsed::invalid(name, message(&problem)), text.len())])
            }
        }
    }
}

fn message(problem: &str) -> String {
    format!(
        "The tool call could not be read: {problem}. Write it as {EXAMPLE}, with Python \
         literals as values."
    )
}

/// Whether a list that is not a well-formed call list was meant as one: its first name is an
/// offered tool, or no tools are known.
fn attempt(name: Option<&str>, options: &FormatOptions) -> bool {
    match (options.known_tools(), name) {
        (None, _) => true,
        (Some(tools), Some(name)) => tools.iter().any(|t| t == name),
        (Some(_), None) => false,
    }
}

/// The name after the list's `[`, as the lead read it.
fn leading_name(text: &str) -> Option<String> {
    let rest = text.strip_prefix('[')?.trim_start();
    let end = rest.find('(')?;
    Some(rest.get(..end)?.to_string())
}
