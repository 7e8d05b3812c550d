//! Gemini readers under arbitrary input: a whole response, or one streamed chunk per line.
//! No input may panic; an accepted turn must be writable back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::provider::gemini::{self, GeminiStream};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let turn = if mode % 2 == 0 {
        let Ok(value) = serde_json::from_str(&text) else {
            return;
        };
        gemini::read_response(&value)
    } else {
        let mut stream = GeminiStream::new();
        for line in text.lines() {
            let Ok(chunk) = serde_json::from_str(line) else {
                continue;
            };
            if stream.push(&chunk).is_err() {
                return;
            }
        }
        stream.finish()
    };
    if let Ok(turn) = turn {
        let _ = gemini::model_content(&turn);
    }
});
