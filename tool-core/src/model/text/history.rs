//! The conversation as a text model reads it: its own replies verbatim, other models' turns
//! and the tool results written in the format's conventions.

use serde_json::Value;

use crate::model::{Message, ModelTurn, ToolResult};
use crate::parse::ToolFormat;

/// The conversation as plain text: assistant turns as the model wrote them, results as one
/// user message in `format`'s convention.
pub(super) fn text_conversation(format: ToolFormat, messages: &[Message]) -> Vec<Message> {
    messages
        .iter()
        .map(|message| match message {
            Message::Assistant(turn) => Message::Assistant(ModelTurn {
                text: reply_text(format, turn),
                stop_reason: turn.stop_reason.clone(),
                usage: turn.usage,
                ..ModelTurn::default()
            }),
            Message::Tool { results } => Message::user(results_text(format, results)),
            other => other.clone(),
        })
        .collect()
}

/// The results of one turn in `format`'s convention, in call order.
fn results_text(format: ToolFormat, results: &[ToolResult]) -> String {
    let refs: Vec<_> = results
        .iter()
        .map(|r| (r.call_id.as_str(), r.name.as_str(), &r.response))
        .collect();
    format.spec().results(&refs)
}

/// The raw reply of a text-mode turn in `format`; any other turn (another model earlier in
/// the conversation) with its calls written in `format`.
pub(super) fn reply_text(format: ToolFormat, turn: &ModelTurn) -> String {
    if let Some(native) = &turn.native {
        if native.is(format.spec().provider_tag()) {
            let raw = match &native.content {
                Value::String(raw) => Some(raw),
                other => match other.get("text") {
                    Some(Value::String(raw)) => Some(raw),
                    _ => None,
                },
            };
            if let Some(raw) = raw {
                return raw.clone();
            }
        }
    }
    let mut out = turn.text.clone();
    if turn.calls.is_empty() {
        return out;
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    format.spec().write_calls(&turn.calls, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::ToolCall;
    use crate::model::NativeContent;
    use crate::parse::{EndReason, Event, FormatParser};

    fn calls_of(format: ToolFormat, text: &str) -> Vec<(String, Value)> {
        FormatParser::parse_all(format, text, EndReason::Stop)
            .into_iter()
            .filter_map(|e| match e {
                Event::CallComplete { call, .. } => Some((
                    call.name,
                    serde_json::from_str(&call.arguments).unwrap_or(Value::Null),
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn turns_of_other_models_are_written_so_that_the_format_reads_the_same_calls() {
        let calls = vec![
            ToolCall::new(
                "a",
                "search",
                r#"{"q": "</tool_call> [TOOL_CALLS]", "n": 3}"#,
            ),
            ToolCall::new("b", "get_weather", r#"{"city":"Paris"}"#),
        ];
        let turn = ModelTurn::with_calls("Checking.", calls);
        for &format in ToolFormat::ALL {
            let text = reply_text(format, &turn);
            assert!(text.starts_with("Checking.\n"), "{format:?}: {text}");
            // Qwen3-Coder, GLM and MiniMax-M2 values are untyped without a schema: `3` reads
            // back as "3".
            let untyped = [ToolFormat::Qwen3Coder, ToolFormat::Glm, ToolFormat::MiniMax];
            let n = if untyped.contains(&format) {
                Value::from("3")
            } else {
                Value::from(3)
            };
            assert_eq!(
                calls_of(format, &text),
                [
                    (
                        "search".to_string(),
                        serde_json::json!({"q": "</tool_call> [TOOL_CALLS]", "n": n})
                    ),
                    (
                        "get_weather".to_string(),
                        serde_json::json!({"city": "Paris"})
                    ),
                ],
                "{format:?}: {text}"
            );
        }
    }

    #[test]
    fn turns_of_other_models_are_written_as_each_family_writes_calls() {
        let turn = ModelTurn::with_calls("Checking.", vec![ToolCall::new("1", "f", r#"{"x":1}"#)]);
        let expected = [
            (ToolFormat::UseTool, "Checking.\n<use_tool>\n<tool_name>f</tool_name>\n<arguments>{\"x\":1}</arguments>\n</use_tool>"),
            (ToolFormat::Hermes, "Checking.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"x\":1}}\n</tool_call>"),
            (ToolFormat::Qwen3Coder, "Checking.\n<tool_call>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>"),
            (ToolFormat::Mistral, "Checking.\n[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"x\":1}}]"),
            (ToolFormat::Harmony, "Checking.\n<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"x\":1}<|call|>"),
        ];
        for (format, text) in expected {
            assert_eq!(reply_text(format, &turn), text, "{format:?}");
        }
    }

    #[test]
    fn the_models_own_turns_go_back_verbatim_with_or_without_diagnostics() {
        let mut turn = ModelTurn::text("neutral reading");
        turn.native = Some(NativeContent::new("text:hermes", Value::from("as written")));
        assert_eq!(reply_text(ToolFormat::Hermes, &turn), "as written");
        turn.native = Some(NativeContent::new(
            "text:hermes",
            serde_json::json!({"text": "as written", "diagnostics": []}),
        ));
        assert_eq!(reply_text(ToolFormat::Hermes, &turn), "as written");
        // Another format's turn is read through its neutral reading.
        assert_eq!(reply_text(ToolFormat::Mistral, &turn), "neutral reading");
    }
}
