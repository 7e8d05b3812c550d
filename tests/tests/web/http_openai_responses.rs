//! `OpenAiResponses` through reqwest against a loopback server replaying recorded Responses
//! streams (`tests/fixtures/http/openai_responses_*.sse`).

use crate::adapter_tests;
use crate::http_support;

use http_support::cases::Case;
use tool_core::model::{Model, OpenAiResponses};

const CASE: Case = Case {
    route: "/v1/responses",
    base_path: "/v1",
    make: |base| {
        Box::new(
            OpenAiResponses::new("gpt-4.1")
                .with_api_key("sk-test")
                .with_endpoint(|e| http_support::test_endpoint(e, base)),
        ) as Box<dyn Model>
    },
    turn1: "openai_responses_turn1.sse",
    turn2: "openai_responses_turn2.sse",
    cut_marker: "\"delta\":\"Tokyo",
    turn1_text: "Let me check both cities.",
    call_ids: [
        "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        "call_Q6pW65MUgW9vF59BmItYGos3",
    ],
    response_ids: [
        "resp_01830d662ab3856501693c321345c88190b0de00f3b9975691",
        "resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a",
    ],
    golden: "http_openai_responses_second_request.json",
};

adapter_tests!(CASE);
