//! `Anthropic` through reqwest against a loopback server replaying recorded Messages streams
//! (`tests/fixtures/http/anthropic_*.sse`).

use crate::adapter_tests;
use crate::http_support;

use http_support::cases::Case;
use tool_core::model::{Anthropic, Model};

const CASE: Case = Case {
    route: "/v1/messages",
    base_path: "/v1",
    make: |base| {
        Box::new(
            Anthropic::new("claude-sonnet-4-20250514")
                .with_api_key("sk-ant-test")
                .with_endpoint(|e| http_support::test_endpoint(e, base)),
        ) as Box<dyn Model>
    },
    turn1: "anthropic_turn1.sse",
    turn2: "anthropic_turn2.sse",
    cut_marker: "\"partial_json\":\"okyo",
    turn1_text: "I'll check the weather in Paris and Tokyo for you.",
    call_ids: [
        "toolu_01NRLabsLyVHZPKxbKvkfSMn",
        "toolu_01Xq7hh3TokyoWeather0002",
    ],
    response_ids: [
        "msg_019Q1hrJbZG26Fb9BQhrkHEr",
        "msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK",
    ],
    golden: "http_anthropic_second_request.json",
};

adapter_tests!(CASE);
