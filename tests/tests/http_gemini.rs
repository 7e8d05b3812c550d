//! `Gemini` through reqwest against a loopback server replaying recorded
//! `streamGenerateContent?alt=sse` streams (`tests/fixtures/http/gemini_*.sse`).

mod http_support;
mod support;

use http_support::cases::Case;
use tool_core::model::{Gemini, Model};

const CASE: Case = Case {
    route: "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
    base_path: "/v1beta",
    make: |base| {
        Box::new(
            Gemini::new("gemini-2.5-flash")
                .with_api_key("test-key")
                .with_endpoint(|e| http_support::test_endpoint(e, base)),
        ) as Box<dyn Model>
    },
    turn1: "gemini_turn1.sse",
    turn2: "gemini_turn2.sse",
    // Gemini sends whole parts: the cut falls before the chunk that carries both calls.
    cut_marker: "\"functionCall\"",
    turn1_text: "Let me check both cities.",
    call_ids: ["gemini_call_0_get_weather", "gemini_call_1_get_weather"],
    golden: "http_gemini_second_request.json",
};

adapter_tests!(CASE);
