//! OpenAI Chat Completions readers under arbitrary input. The first byte picks whole-response
//! reading or streaming; when streaming, every line is one SSE `data:` payload. No input may
//! panic; an accepted turn must be writable back into the history.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::provider::{openai, OpenAiStream};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let turn = if mode % 2 == 0 {
        let Ok(value) = serde_json::from_str(&text) else {
            return;
        };
        openai::read_response(&value)
    } else {
        let mut stream = OpenAiStream::new();
        for line in text.lines() {
            if stream.push_data(line).is_err() {
                return;
            }
        }
        stream.finish()
    };
    if let Ok(turn) = turn {
        let _ = openai::assistant_message(&turn);
    }
});
