//! The forms the fast path adds keep every answer the same: cached tool lists equal what the
//! provider functions build (and follow registrations), a borrowed `ToolCallRef` gets the same
//! response as an owned `ToolCall`, and `into_model_text` gives the same text as `model_text`.

use crate::support;

use serde_json::json;
use support::fixtures;
use tool_core::provider::{
    anthropic, gemini, mcp, Anthropic, Api, ChatApi, Gemini, GeminiInteractions, OpenAiChat,
    OpenAiResponses,
};
use tool_core::{
    tool, tools, CallOptions, ToolCall, ToolCallRef, ToolErrorCode, ToolEvent, ToolListFormat,
    ToolResponse,
};

#[test]
fn every_cached_list_equals_its_provider_function() {
    let registry = fixtures::registry();
    let defs = registry.definitions();
    let expected = [
        (
            ToolListFormat::Api(Api::OpenAiChat),
            OpenAiChat::tools(defs),
        ),
        (
            ToolListFormat::Api(Api::OpenAiResponses),
            OpenAiResponses::tools(defs),
        ),
        (ToolListFormat::Api(Api::Anthropic), Anthropic::tools(defs)),
        (
            ToolListFormat::AnthropicStrict,
            anthropic::tools_strict(defs),
        ),
        (ToolListFormat::Api(Api::Gemini), Gemini::tools(defs)),
        (
            ToolListFormat::GeminiJsonSchema,
            gemini::tools_json_schema(defs),
        ),
        (
            ToolListFormat::Api(Api::GeminiInteractions),
            GeminiInteractions::tools(defs),
        ),
        (ToolListFormat::Api(Api::Mcp), mcp::tools(defs)),
    ];
    assert_eq!(expected.len(), ToolListFormat::ALL.len());
    for (format, value) in expected {
        let list = registry.tool_list(format);
        assert_eq!(*list.value(), value, "{format:?}");
        assert_eq!(
            list.json(),
            serde_json::to_string(&value).unwrap(),
            "{format:?}"
        );
        assert_eq!(list.bytes(), list.json().as_bytes());
        assert_eq!(list.raw().get(), list.json());
        // Warm: the same list, not a rebuilt one.
        assert!(std::ptr::eq(list, registry.tool_list(format)), "{format:?}");
    }
    for &dialect in Api::ALL {
        assert!(std::ptr::eq(
            registry.tool_list(dialect),
            registry.tool_list(ToolListFormat::from(dialect))
        ));
    }
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Says hi.
#[tool]
fn hi() -> &'static str {
    "hi"
}

#[test]
fn registering_a_tool_clears_every_cached_list() {
    let mut registry = tools![add];
    let before: Vec<String> = ToolListFormat::ALL
        .iter()
        .map(|&f| registry.tool_list(f).json().to_owned())
        .collect();
    let shared = registry
        .tool_list(ToolListFormat::Api(Api::Mcp))
        .shared_raw();
    registry.register(hi {}).unwrap();
    for (format, old) in ToolListFormat::ALL.iter().copied().zip(before) {
        let now = registry.tool_list(format);
        assert_ne!(now.json(), old, "{format:?} still lists only 'add'");
        assert_eq!(
            *now.value(),
            format.build(registry.definitions()),
            "{format:?}"
        );
    }
    // A handle taken before keeps the list it was given.
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(shared.get()).unwrap()["tools"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// The response without its timing, which differs between two runs.
fn untimed(mut response: ToolResponse) -> ToolResponse {
    response.stats.time_ms = None;
    response
}

#[test]
fn borrowed_and_owned_calls_get_the_same_responses() {
    let registry = tools![add, hi];
    let offered = CallOptions::new().offer(&["add"]);
    let cases = [
        ("c1", "add", r#"{"a": 40, "b": 2}"#),
        ("c2", "ad", "{}"),
        ("c3", "add", r#"{"a": "1"}"#),
        ("c4", "add", "[1, 2]"),
        ("c5", "add", ""),
        ("", "hi", "null"),
        ("c7", "", "{}"),
    ];
    for (id, name, arguments) in cases {
        let owned = ToolCall::new(id, name, arguments);
        let borrowed = ToolCallRef::new(id, name, arguments);
        assert_eq!(borrowed, owned.as_borrowed());
        assert_eq!(borrowed.to_owned_call(), owned);
        let a = untimed(registry.call_blocking(&owned));
        let b = untimed(registry.call_blocking(borrowed));
        assert_eq!(a, b, "{name} {arguments}");
        let c = untimed(tool_core::block_on(registry.call(borrowed)));
        assert_eq!(a, c, "{name} {arguments}");
        let d = untimed(tool_core::block_on(registry.call_with(borrowed, &offered)));
        let e = untimed(tool_core::block_on(registry.call_with(&owned, &offered)));
        assert_eq!(d, e, "{name} {arguments}");
        assert!(registry.call_blocking(borrowed).time_ms().is_some());
    }
}

#[test]
fn into_model_text_equals_model_text_for_every_shape() {
    let shapes = [
        ToolResponse::success("plain text"),
        ToolResponse::success(""),
        ToolResponse::success("").with_data(&json!({"n": 1})),
        ToolResponse::success("3 files").with_data(&["a", "b", "c"]),
        ToolResponse::success("with extras")
            .with_context("path", "/tmp")
            .with_event(ToolEvent::new("cards", json!([1])))
            .with_stats(tool_core::Stats::default().with("count", 3)),
        ToolResponse::partial("first 100", "500 matched"),
        ToolResponse::partial("", "cut").with_data(&[1, 2]),
        ToolResponse::error(ToolErrorCode::NotFound, "no such file"),
    ];
    for response in shapes {
        let expected = response.model_text().into_owned();
        assert_eq!(response.into_model_text(), expected);
    }
}
