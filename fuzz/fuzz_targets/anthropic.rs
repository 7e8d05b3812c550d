//! Anthropic Messages readers under arbitrary input: a whole response, or one streamed event
//! per line (completed calls taken as they close). No input may panic; an accepted turn must
//! be writable back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::provider::{anthropic, AnthropicStream};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let turn = if mode % 2 == 0 {
        let Ok(value) = serde_json::from_str(&text) else {
            return;
        };
        anthropic::read_response(&value)
    } else {
        let mut stream = AnthropicStream::new();
        for line in text.lines() {
            let Ok(event) = serde_json::from_str(line) else {
                continue;
            };
            if stream.push(&event).is_err() {
                return;
            }
            for call in stream.take_completed() {
                assert!(
                    serde_json::from_str::<serde_json::Value>(&call.arguments).is_ok(),
                    "a completed call has JSON arguments"
                );
            }
        }
        stream.finish()
    };
    if let Ok(turn) = turn {
        let _ = anthropic::assistant_message(&turn);
    }
});
