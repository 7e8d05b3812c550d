//! Assembling streamed `generateContent` chunks, and reading `parts` (shared with the whole
//! response, which is one chunk).

use serde_json::Value;

use crate::call::ToolCall;
use crate::provider::error::At;
use crate::provider::turn::id_at;
use crate::provider::{Assembler, AssistantTurn, ProviderError};

/// Prefix of the ids made up for calls that came without one. Such ids are not sent back to
/// Gemini, which never issued them.
pub(crate) const SYNTHETIC_ID_PREFIX: &str = "gemini_call_";

/// A stable id for the `index`-th call of a turn: the same response always gives the same ids.
pub(crate) fn synthetic_id(index: usize, name: &str) -> String {
    format!("{SYNTHETIC_ID_PREFIX}{index}_{name}")
}

/// Collects streamed `generateContent` chunks. Gemini streams whole parts (a `functionCall`
/// is never split), so a call is complete when its part arrives; the turn is complete when a
/// chunk carries a `finishReason`. Text is streamed as many small text parts: a text part
/// that opens a chunk joins the text part that closed the previous chunk (same `thought`
/// flag, no signature yet, a signature arriving with it moves onto the joined part), so
/// [`AssistantTurn::native`] holds the parts as a whole response would, not one per chunk.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::Assembler;
/// let mut s = tool_core::provider::gemini::GeminiStream::new();
/// s.push(&json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}]})).unwrap();
/// s.push(&json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "check. "}]}}]})).unwrap();
/// s.push(&json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "sig"}]}, "finishReason": "STOP"}]})).unwrap();
/// let turn = s.finish().unwrap();
/// assert_eq!(turn.thought_signatures, [Some("sig".to_string())]);
/// assert_eq!(turn.native[0], json!({"text": "Let me check. "}));
/// ```
#[derive(Debug, Default)]
pub struct GeminiStream {
    parts: Vec<Value>,
    stop_reason: Option<String>,
    /// `responseId`, which every chunk repeats.
    response_id: Option<String>,
    /// How many parts [`GeminiStream::take_ready`] has looked at, and how many calls it
    /// handed out (read by the HTTP adapter only, feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    scanned: usize,
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    handed: usize,
}

impl GeminiStream {
    /// An empty assembler.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// assert!(tool_core::provider::gemini::GeminiStream::new().finish().is_err());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    // Read by the HTTP adapters only (feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    /// Hands out, in order, the calls of the parts that arrived since the last time: a
    /// `functionCall` part arrives whole, so its call is complete. Each part is read once.
    pub(crate) fn take_ready(
        &mut self,
        mut out: impl FnMut(usize, ToolCall),
    ) -> Result<(), ProviderError> {
        let new = self.parts.get(self.scanned..).unwrap_or_default();
        self.scanned = self.parts.len();
        let mut parsed = Parsed {
            before: self.handed,
            ..Parsed::default()
        };
        // Only the call parts: the text was read as it arrived.
        read_parts(
            new.iter().filter(|part| part.get("functionCall").is_some()),
            &mut parsed,
        )?;
        for call in parsed.calls {
            out(self.handed, call);
            self.handed += 1;
        }
        Ok(())
    }

    // Read by the HTTP adapters only (feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    /// How many calls [`take_ready`](Self::take_ready) handed out.
    pub(crate) fn handed(&self) -> usize {
        self.handed
    }
}

impl Assembler for GeminiStream {
    /// Feeds one chunk (a whole `GenerateContentResponse`).
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::gemini::GeminiStream::new();
    /// assert!(s.push(&serde_json::json!({"usageMetadata": {}})).is_ok());
    /// assert!(s.push(&serde_json::json!({"candidates": "x"})).is_err());
    /// ```
    fn push(&mut self, chunk: &Value) -> Result<(), ProviderError> {
        if self.response_id.is_none() {
            self.response_id = id_at(chunk, "responseId");
        }
        let root = At::root(chunk);
        let Some(candidates) = root.opt("candidates") else {
            return Ok(());
        };
        let Some(candidate) = candidates.array()?.into_iter().next() else {
            return Ok(());
        };
        let reason = candidate
            .opt("finishReason")
            .map(|r| r.str().map(str::to_owned))
            .transpose()?;
        let Some(parts) = candidate.opt("content").and_then(|c| c.opt("parts")) else {
            self.stop_reason = reason.or(self.stop_reason.take());
            return Ok(());
        };
        let parts = parts.array()?;
        // Check the chunk's parts before keeping any, so a bad chunk leaves the stream as it was.
        read_parts(parts.iter().map(|p| p.value), &mut Parsed::default())?;
        for (i, part) in parts.into_iter().enumerate() {
            if carries_nothing(part.value) {
                continue;
            }
            if i == 0 {
                if let Some(last) = self.parts.last_mut() {
                    if join_text(last, part.value) {
                        continue;
                    }
                }
            }
            self.parts.push(part.value.clone());
        }
        self.stop_reason = reason.or(self.stop_reason.take());
        Ok(())
    }
    /// The assembled turn; fails when no chunk carried a `finishReason`.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::gemini::GeminiStream::new();
    /// s.push(&serde_json::json!({"candidates": [{"finishReason": "STOP"}]})).unwrap();
    /// assert_eq!(s.finish().unwrap().stop_reason.as_deref(), Some("STOP"));
    /// ```
    fn finish(self) -> Result<AssistantTurn, ProviderError> {
        let mut parsed = Parsed::default();
        read_parts(self.parts.iter(), &mut parsed)?;
        if self.stop_reason.is_none() {
            return Err(ProviderError::new(
                "candidates[0].finishReason",
                format!(
                    "missing: the response is incomplete; {} call(s) not dispatched",
                    parsed.calls.len()
                ),
            ));
        }
        Ok(AssistantTurn {
            text: parsed.text,
            calls: parsed.calls,
            stop_reason: self.stop_reason,
            thought_signatures: parsed.signatures,
            native: self.parts,
            response_id: self.response_id,
            ..AssistantTurn::default()
        })
    }
}

/// What [`read_parts`] finds in a list of parts.
#[derive(Default)]
pub(crate) struct Parsed {
    pub text: String,
    pub calls: Vec<ToolCall>,
    pub signatures: Vec<Option<String>>,
    /// Per call: whether Gemini gave its id (else it was synthesized).
    pub issued_ids: Vec<bool>,
    /// How many calls of the turn came before these parts (for the made-up ids).
    pub before: usize,
}

pub(crate) fn read_parts<'a>(
    parts: impl Iterator<Item = &'a Value>,
    out: &mut Parsed,
) -> Result<(), ProviderError> {
    for (i, value) in parts.enumerate() {
        let part = At {
            value,
            path: format!("parts[{i}]"),
        };
        let thought = part
            .opt("thought")
            .is_some_and(|t| t.value == &Value::Bool(true));
        if let Some(text) = part.opt("text") {
            let text = text.str()?;
            if !thought {
                out.text.push_str(text);
            }
        }
        let signature = part
            .opt("thoughtSignature")
            .map(|s| s.str().map(str::to_owned))
            .transpose()?;
        if let Some(call) = part.opt("functionCall") {
            let name = call.get("name")?.str()?.to_owned();
            let arguments = match call.opt("args") {
                Some(args) if args.value.is_object() => args.value.to_string(),
                Some(args) => return Err(args.expected("an object")),
                None => "{}".to_string(),
            };
            let id = match call.opt("id") {
                Some(id) => id.str()?.to_owned(),
                None => synthetic_id(out.before + out.calls.len(), &name),
            };
            out.issued_ids.push(call.opt("id").is_some());
            out.calls.push(ToolCall::new(id, name, arguments));
            out.signatures.push(signature);
        }
    }
    Ok(())
}

/// Whether a part is an empty text part without a signature, as Gemini 3 closes a stream
/// (`{"text": ""}` with the `finishReason`). It says nothing, and sent back in the history
/// it can fail the next request ("Unable to submit request because it has an empty text
/// parameter"), so the assembler does not keep it. An empty text part that carries a
/// `thoughtSignature` is kept: the signature must go back.
fn carries_nothing(part: &Value) -> bool {
    part.as_object().is_some_and(|map| {
        map.get("text").and_then(Value::as_str) == Some("")
            && map.keys().all(|k| matches!(k.as_str(), "text" | "thought"))
    })
}

/// Joins a streamed text part onto the previous one when both are plain text parts of the
/// same kind (thought or not) and the previous one has no signature yet; returns whether it
/// did.
fn join_text(last: &mut Value, next: &Value) -> bool {
    fn plain_text(part: &Value) -> Option<&serde_json::Map<String, Value>> {
        let map = part.as_object()?;
        map.get("text")?.as_str()?;
        map.keys()
            .all(|k| matches!(k.as_str(), "text" | "thought" | "thoughtSignature"))
            .then_some(map)
    }
    let (Some(a), Some(b)) = (plain_text(last), plain_text(next)) else {
        return false;
    };
    if a.get("thought") != b.get("thought") || a.contains_key("thoughtSignature") {
        return false;
    }
    let Value::Object(last) = last else {
        return false;
    };
    for (key, value) in b {
        match (key.as_str(), last.get_mut(key), value) {
            ("text", Some(Value::String(text)), Value::String(more)) => text.push_str(more),
            ("thought", ..) => {}
            _ => {
                last.insert(key.clone(), value.clone());
            }
        }
    }
    true
}
