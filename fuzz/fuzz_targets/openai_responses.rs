//! OpenAI Responses readers under arbitrary input: a whole response, or one streamed event per
//! line. No input may panic; an accepted turn must be writable back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::provider::{openai_responses, OpenAiResponsesStream};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let turn = if mode % 2 == 0 {
        let Ok(value) = serde_json::from_str(&text) else {
            return;
        };
        openai_responses::read_response(&value)
    } else {
        let mut stream = OpenAiResponsesStream::new();
        for line in text.lines() {
            let Ok(event) = serde_json::from_str(line) else {
                continue;
            };
            if stream.push(&event).is_err() {
                return;
            }
        }
        stream.finish()
    };
    if let Ok(turn) = turn {
        let _ = openai_responses::assistant_items(&turn);
    }
});
