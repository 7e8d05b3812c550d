//! `OpenAiChat` through reqwest against a loopback server replaying recorded Chat Completions
//! streams (`tests/fixtures/http/openai_chat_*.sse`).

use crate::adapter_tests;
use crate::http_support;

use http_support::cases::Case;
use tool_core::model::{Model, OpenAiChat};

const CASE: Case = Case {
    route: "/v1/chat/completions",
    base_path: "/v1",
    make: |base| {
        Box::new(
            OpenAiChat::new("gpt-4o")
                .with_api_key("sk-test")
                .with_endpoint(|e| http_support::test_endpoint(e, base)),
        ) as Box<dyn Model>
    },
    turn1: "openai_chat_turn1.sse",
    turn2: "openai_chat_turn2.sse",
    cut_marker: "\"index\":1,\"function\":{\"arguments\":\": \\\"Tok",
    turn1_text: "Let me check both cities.",
    call_ids: [
        "call_JMW1whyEaYG438VE1OIflxA2",
        "call_DNYTawLBoN8fj3KN6qU9N1Ou",
    ],
    response_ids: [
        "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63",
        "chatcmpl-ABfw1e5abtU8OwGr15vOreYVb2MiF",
    ],
    golden: "http_openai_chat_second_request.json",
};

adapter_tests!(CASE);
