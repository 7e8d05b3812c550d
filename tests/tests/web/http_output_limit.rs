//! A reply cut at the output limit while it holds calls, on each API and in text mode: the
//! turn fails as `Incomplete`, not retryable (the same request stops at the same limit), and
//! the message names the limit, how far the reply got and the call that was cut. A stream
//! that breaks off instead stays retryable. The streams are the recorded ones of
//! `tests/fixtures/http/` (sources in its README), cut inside the second call and ended the
//! way each API ends a reply at its limit (Chat Completions `finish_reason: "length"`,
//! Messages `stop_reason: "max_tokens"`, Responses `response.incomplete` with
//! `max_output_tokens`, Gemini `finishReason: "MAX_TOKENS"`, the Interactions API an
//! `incomplete` interaction, its stream rendered from the SDK's event types as the
//! conformance fake renders it).

use crate::http_support;

use http_support::{converse, cut_before, fixture, registry, requests, server, sse, test_endpoint};
use serde_json::json;
use tool_core::model::{
    Anthropic, Gemini, GeminiInteractions, Model, ModelError, ModelErrorKind, ModelEvent,
    OpenAiChat, OpenAiResponses, TextMode,
};
use tool_core::parse::ToolFormat;
use tool_core::runner::Runner;

/// One API's recorded first turn, cut inside its second call and ended at the limit.
struct Cut {
    route: &'static str,
    base_path: &'static str,
    make: fn(String) -> Box<dyn Model>,
    stream: fn() -> String,
    /// What the message must say about the limit.
    limit: &'static str,
}

fn chat_cut() -> String {
    let cut = cut_before(
        &fixture("openai_chat_turn1.sse"),
        "\"index\":1,\"function\":{\"arguments\":\": \\\"Tok",
    );
    format!(
        "{cut}data: {}\n\ndata: [DONE]\n\n",
        json!({"id": "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63", "object": "chat.completion.chunk",
               "created": 1727346178, "model": "gpt-4o-2024-08-06",
               "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]})
    )
}

fn anthropic_cut() -> String {
    let cut = cut_before(&fixture("anthropic_turn1.sse"), "\"partial_json\":\"okyo");
    format!(
        "{cut}event: content_block_stop\ndata: {}\n\nevent: message_delta\ndata: {}\n\n\
         event: message_stop\ndata: {}\n\n",
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens", "stop_sequence": null},
               "usage": {"output_tokens": 64}}),
        json!({"type": "message_stop"}),
    )
}

fn responses_cut() -> String {
    let cut = cut_before(&fixture("openai_responses_turn1.sse"), "\"delta\":\"Tokyo");
    format!(
        "{cut}event: response.incomplete\ndata: {}\n\n",
        json!({"type": "response.incomplete", "sequence_number": 62, "response": {
            "id": "resp_01830d662ab3856501693c321345c88190b0de00f3b9975691", "object": "response",
            "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
            "output": [], "usage": {"input_tokens": 134, "output_tokens": 50, "total_tokens": 184}}})
    )
}

/// Gemini sends whole calls: its limit cut is the chunk with both calls ending in
/// `MAX_TOKENS`, and the request set no limit of its own.
fn gemini_cut() -> String {
    let stream = fixture("gemini_turn1.sse");
    assert!(stream.contains("\"finishReason\":\"STOP\""));
    stream.replace(
        "\"finishReason\":\"STOP\"",
        "\"finishReason\":\"MAX_TOKENS\"",
    )
}

/// The Interactions API streams the second call's arguments in pieces: cut after the first
/// piece, with no `step.stop`, and the interaction ends `incomplete`.
fn interactions_cut() -> String {
    use crate::conformance::{interactions, Turn};
    let turn = Turn::call("call_paris", "get_weather", json!({"city": "Paris"})).and_call(
        "call_tokyo",
        "get_weather",
        json!({"city": "Tokyo"}),
    );
    let mut events = interactions::events(&turn);
    let first_piece = events
        .iter()
        .position(|e| e["delta"]["type"] == "arguments_delta")
        .expect("the second call streams its arguments");
    let completed = events.pop().expect("the completion");
    events.truncate(first_piece + 1);
    let mut completed = completed;
    completed["interaction"]["status"] = json!("incomplete");
    events.push(completed);
    events
        .iter()
        .map(|e| {
            format!(
                "event: {}\ndata: {e}\n\n",
                e["event_type"].as_str().unwrap_or("")
            )
        })
        .collect()
}

const CUTS: [Cut; 5] = [
    Cut {
        route: "/v1/chat/completions",
        base_path: "/v1",
        make: |base| {
            Box::new(OpenAiChat::new("gpt-4o").with_endpoint(|e| {
                test_endpoint(e, base).with_field("max_completion_tokens", json!(60))
            }))
        },
        stream: chat_cut,
        limit: "(max_completion_tokens 60)",
    },
    Cut {
        route: "/v1/messages",
        base_path: "/v1",
        make: |base| {
            Box::new(
                Anthropic::new("claude-sonnet-4-20250514")
                    .with_max_tokens(64)
                    .with_endpoint(|e| test_endpoint(e, base)),
            )
        },
        stream: anthropic_cut,
        limit: "(max_tokens 64)",
    },
    Cut {
        route: "/v1/responses",
        base_path: "/v1",
        make: |base| {
            Box::new(OpenAiResponses::new("gpt-4.1").with_endpoint(|e| {
                test_endpoint(e, base).with_field("max_output_tokens", json!(50))
            }))
        },
        stream: responses_cut,
        limit: "(max_output_tokens 50)",
    },
    Cut {
        route: "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        base_path: "/v1beta",
        make: |base| {
            Box::new(
                Gemini::new("gemini-2.5-flash")
                    .with_api_key("test-key")
                    .with_endpoint(|e| test_endpoint(e, base)),
            )
        },
        stream: gemini_cut,
        limit: "(the provider's default;",
    },
    Cut {
        route: "/v1/interactions",
        base_path: "/v1",
        make: |base| {
            // The limit joins the adapter's own `generation_config` (tool_choice).
            Box::new(
                GeminiInteractions::new("gemini-3-flash-preview").with_endpoint(|e| {
                    test_endpoint(e, base)
                        .with_field("generation_config", json!({"max_output_tokens": 64}))
                }),
            )
        },
        stream: interactions_cut,
        limit: "(max_output_tokens 64)",
    },
];

fn assert_cut_at_limit(error: &ModelError, limit: &str) {
    assert_eq!(error.kind(), ModelErrorKind::Incomplete, "{error}");
    assert!(
        !error.is_retryable(),
        "a limit cut is not retryable: {error}"
    );
    let message = error.message();
    assert!(
        message.starts_with("the reply was cut at the output limit "),
        "{message}"
    );
    assert!(message.contains(limit), "{message}");
    assert!(
        message.contains("the call `get_weather` was incomplete (1 complete call(s) before it)"),
        "{message}"
    );
}

#[tokio::test]
async fn a_reply_cut_at_the_limit_inside_a_call_names_the_limit_and_the_call_on_each_api() {
    for cut in &CUTS {
        let server = server(cut.route, vec![sse((cut.stream)())]).await;
        let model = (cut.make)(format!("{}{}", server.uri(), cut.base_path));
        let (registry, weather) = registry();
        let conversation = converse(model.as_ref(), &registry).await;
        let error = conversation.outcome.expect_err(cut.route);
        assert_cut_at_limit(&error, cut.limit);
        // The text that arrived is counted in the message.
        let text: usize = conversation.turns[0]
            .iter()
            .map(|e| match e {
                ModelEvent::TextDelta(t) => t.len(),
                _ => 0,
            })
            .sum();
        assert!(
            error
                .message()
                .contains(&format!("after {text} bytes of text")),
            "{}: {error}",
            cut.route
        );
        assert_eq!(
            weather.runs(),
            0,
            "{}: no call of a cut turn runs",
            cut.route
        );
        assert_eq!(
            requests(&server).await.len(),
            1,
            "{}: not retried",
            cut.route
        );
    }
}

/// Through the runner: the run error says the same, is not retryable, and its serialized
/// form (what an event stream shows) keeps that.
#[tokio::test]
async fn the_run_error_of_a_limit_cut_is_not_retryable_in_its_serialized_form() {
    let cut = &CUTS[0];
    let server = server(cut.route, vec![sse((cut.stream)())]).await;
    let model = (cut.make)(format!("{}{}", server.uri(), cut.base_path));
    let (registry, weather) = registry();
    let error = Runner::new(model, registry)
        .run("What's the weather in Paris and Tokyo?")
        .await
        .expect_err("the turn was cut");
    assert!(!error.is_retryable());
    assert_eq!(error.status(), None);
    let json = serde_json::to_value(&error).unwrap();
    assert_eq!(
        (
            json["kind"].as_str(),
            json["model_kind"].as_str(),
            json["retryable"].as_bool()
        ),
        (Some("model"), Some("incomplete"), Some(false))
    );
    assert!(json["message"]
        .as_str()
        .unwrap()
        .contains("max_completion_tokens 60"));
    // The Paris call was complete before the cut, so the runner started it while the model
    // still streamed (docs/runner.md, "Calls start when they are complete"); Tokyo, cut, never
    // ran.
    assert_eq!(weather.runs(), 1);
}

/// A Chat Completions stream whose content deltas are `pieces`, ended by `finish` (a
/// `finish_reason`, or `None` for a connection that closes without one).
fn text_stream(pieces: &[&str], finish: Option<&str>) -> String {
    let chunk = |delta: serde_json::Value, finish: Option<&str>| {
        let chunk = json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
                           "model": "Qwen/Qwen3-Coder-30B-A3B-Instruct",
                           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        format!("data: {chunk}\n\n")
    };
    let mut out = chunk(json!({"role": "assistant", "content": ""}), None);
    for piece in pieces {
        out.push_str(&chunk(json!({"content": piece}), None));
    }
    if let Some(reason) = finish {
        out.push_str(&chunk(json!({}), Some(reason)));
        out.push_str("data: [DONE]\n\n");
    }
    out
}

/// Qwen3-Coder's XML calls as vLLM serves them without its tool parser: the reply is text.
const XML_REPLY: [&str; 4] = [
    "Let me check.\n",
    "<tool_call>\n<function=get_weather>\n",
    "<parameter=city>\nPar",
    "is",
];

fn text_mode(server: &wiremock::MockServer) -> TextMode<OpenAiChat> {
    let inner = OpenAiChat::compatible(
        format!("{}/v1", server.uri()),
        "Qwen/Qwen3-Coder-30B-A3B-Instruct",
        None,
    )
    .with_endpoint(|e| {
        let base = e.base_url.clone();
        test_endpoint(e, base)
    });
    TextMode::new(inner, ToolFormat::Qwen3Coder)
}

/// In text mode the call is text: a reply cut at the limit inside `<function=get_weather>`
/// says so (not "0 partial tool calls"), and is not retryable.
#[tokio::test]
async fn a_text_mode_reply_cut_at_the_limit_names_the_call_it_was_inside() {
    let server = server(
        "/v1/chat/completions",
        vec![sse(text_stream(&XML_REPLY, Some("length")))],
    )
    .await;
    let (registry, weather) = registry();
    let error = converse(&text_mode(&server), &registry)
        .await
        .outcome
        .expect_err("the reply was cut");
    assert_eq!(error.kind(), ModelErrorKind::Incomplete);
    assert!(!error.is_retryable(), "{error}");
    let message = error.message();
    let bytes: usize = XML_REPLY.iter().map(|p| p.len()).sum();
    assert!(
        message.starts_with(&format!(
            "the reply was cut at the output limit (the model stopped with max_tokens) after \
             {bytes} bytes of text; the call `get_weather` was incomplete ("
        )),
        "{message}"
    );
    assert!(!message.contains("partial tool call"), "{message}");
    assert_eq!(weather.runs(), 0);
}

/// A text-mode stream that closes without a finish_reason inside a call: retryable (the
/// connection broke, the limit did not stop it), and the message says what had arrived and
/// which call the reply was inside.
#[tokio::test]
async fn a_text_mode_stream_that_breaks_off_inside_a_call_stays_retryable_and_says_where() {
    let server = server(
        "/v1/chat/completions",
        vec![sse(text_stream(&XML_REPLY, None))],
    )
    .await;
    let (registry, weather) = registry();
    let error = converse(&text_mode(&server), &registry)
        .await
        .outcome
        .expect_err("the stream broke off");
    assert_eq!(error.kind(), ModelErrorKind::Incomplete);
    assert!(error.is_retryable(), "{error}");
    let message = error.message();
    let bytes: usize = XML_REPLY.iter().map(|p| p.len()).sum();
    assert!(
        message.starts_with(&format!(
            "the stream ended before its finish_reason, after {bytes} bytes of text and 0 tool \
             call(s) begun; nothing of the turn is dispatched (the reply was {bytes} bytes in, \
             inside the call `get_weather`, which did not run)"
        )),
        "{message}"
    );
    assert_eq!(weather.runs(), 0);
}
