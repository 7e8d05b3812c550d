//! What the provider targets share: the input layout, cut points for replaying a whole
//! response as a stream, arbitrary JSON, and the properties every accepted turn must have.
//!
//! Input layout: the first byte picks the mode (`% 3`): 0 reads the rest as one whole JSON
//! response, 1 as one streamed event per line, 2 builds a well-formed response from the rest
//! with `arbitrary` (so most inputs reach the readers' logic instead of failing as JSON). The
//! second byte of modes 0 and 1 seeds the cut points used to replay a response as a stream.
#![allow(dead_code)]

use arbitrary::{Arbitrary, Unstructured};
use serde_json::{Map, Value};
use tool_core::provider::AssistantTurn;

/// The mode and what follows it.
pub enum Mode<'a> {
    Whole(Cuts, Value),
    Stream(Vec<Value>),
    Shaped(Unstructured<'a>),
}

/// Splits the input into its mode; `None` when the input cannot be used (empty, or mode 0
/// text that is not JSON).
pub fn mode(data: &[u8]) -> Option<Mode<'_>> {
    let (&mode, rest) = data.split_first()?;
    match mode % 3 {
        0 => {
            let (seed, rest) = rest.split_first().unwrap_or((&0, &[]));
            let value = serde_json::from_slice(rest).ok()?;
            Some(Mode::Whole(Cuts::seeded(*seed), value))
        }
        1 => {
            let text = String::from_utf8_lossy(rest);
            Some(Mode::Stream(
                text.lines()
                    .filter_map(|line| serde_json::from_str(line).ok())
                    .collect(),
            ))
        }
        _ => Some(Mode::Shaped(Unstructured::new(rest))),
    }
}

/// Where to cut text into stream fragments: a list of fragment lengths in characters (0
/// gives an empty fragment), repeated.
#[derive(Debug, Clone)]
pub struct Cuts {
    sizes: Vec<u8>,
    next: usize,
}

impl Cuts {
    pub fn new(sizes: Vec<u8>) -> Self {
        Cuts { sizes, next: 0 }
    }

    /// Sizes from a one-byte seed (xorshift), for raw inputs.
    pub fn seeded(seed: u8) -> Self {
        let mut x = u32::from(seed) | 0x100;
        let sizes = (0..16)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x % 9) as u8
            })
            .collect();
        Cuts::new(sizes)
    }

    /// A bool choice taken from the sizes.
    pub fn flip(&mut self) -> bool {
        self.take() % 2 == 1
    }

    fn take(&mut self) -> usize {
        if self.sizes.is_empty() {
            return usize::MAX;
        }
        let size = self.sizes[self.next % self.sizes.len()];
        self.next += 1;
        usize::from(size)
    }

    /// `text` cut into fragments (at least one), at character boundaries; joined they are
    /// `text`.
    pub fn split(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = text;
        loop {
            let n = self.take();
            let at = rest.char_indices().nth(n).map_or(rest.len(), |(i, _)| i);
            let (head, tail) = rest.split_at(at);
            out.push(head.to_owned());
            rest = tail;
            if rest.is_empty() || out.len() > 256 {
                if !rest.is_empty() {
                    out.push(rest.to_owned());
                }
                return out;
            }
        }
    }
}

/// Arbitrary JSON, small.
#[derive(Arbitrary, Debug, Clone)]
pub enum J {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    pub fn value(&self) -> Value {
        match self {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Int(i) => Value::from(*i),
            J::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
            J::Str(s) => Value::String(s.clone()),
            J::Arr(items) => Value::Array(items.iter().map(J::value).collect()),
            J::Obj(fields) => object(fields),
        }
    }
}

/// A JSON object from fields (a later duplicate key replaces the earlier one, as in JSON).
pub fn object(fields: &[(String, J)]) -> Value {
    let mut map = Map::new();
    for (key, value) in fields {
        map.insert(key.clone(), value.value());
    }
    Value::Object(map)
}

/// A string that is often one a provider would send (so ids repeat and names match).
#[derive(Arbitrary, Debug, Clone)]
pub enum S {
    Pick(u8),
    Any(String),
}

const PICKS: &[&str] = &[
    "",
    "get_weather",
    "toolu_01A09q90qw90lq917835lq9",
    "call_1",
    "gemini_call_0_get_weather",
    "gemini_call_7",
    "fc_1",
    "srvtoolu_01",
    "Let me check. ",
    "{\"city\":\"Paris\"}",
    "EqQBCkgIARABGAIiQL",
    "web_search",
];

impl S {
    pub fn get(&self) -> String {
        match self {
            S::Pick(i) => PICKS[usize::from(*i) % PICKS.len()].to_owned(),
            S::Any(s) => s.clone(),
        }
    }
}

/// `value` as a reader gets it: written to text and parsed again, as a response arrives.
/// Parsing is not the identity on every built value (serde_json gives an object whose first
/// key is its private raw-value token a meaning of its own), so shaped inputs go through it.
pub fn as_received(value: &Value) -> Option<Value> {
    serde_json::from_str(&value.to_string()).ok()
}

/// A stored run state must give the same turn back.
pub fn check_serde(turn: &AssistantTurn) {
    let text = serde_json::to_string(turn).expect("a turn serializes");
    let back: AssistantTurn = serde_json::from_str(&text).expect("a stored turn reads back");
    assert_eq!(&back, turn, "serde round trip changed the turn");
}

/// Two turns agree when equal except that argument text may differ in spacing.
pub fn same_turn(a: &AssistantTurn, b: &AssistantTurn) -> bool {
    let args = |t: &AssistantTurn| -> Vec<Value> {
        t.calls
            .iter()
            .map(|c| {
                serde_json::from_str(&c.arguments).unwrap_or(Value::String(c.arguments.clone()))
            })
            .collect()
    };
    let ids = |t: &AssistantTurn| -> Vec<(String, String)> {
        t.calls
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect()
    };
    a.text == b.text && ids(a) == ids(b) && args(a) == args(b)
}
