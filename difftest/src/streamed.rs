//! tool-parser's streaming API fed one reply in chunks of a fixed byte size: the calls it
//! reports, assembled from its deltas, and the text it passes on.

use std::collections::BTreeMap;

use openai_protocol::common::Tool;
use serde_json::{json, Value};

use crate::{arguments, make, tool};

/// The chunk sizes, in bytes (a chunk never splits a character: `&str` chunks end on the next
/// character boundary at or after the size).
pub const CHUNK_BYTES: &[usize] = &[1, 2, 3, 5, 8, 16, 64];

/// The format's special tokens: a serving engine streams text decoded token by token, so one
/// of these arrives whole; `tokens_whole` chunkings never cut inside one. They are the
/// tokenizers' added (special) tokens the format uses, not tags spelled in ordinary tokens:
/// Qwen's `<function=` / `<parameter=` are several ordinary tokens, so they can be cut.
fn special_tokens(stem: &str) -> &'static [&'static str] {
    match stem {
        // Qwen2.5 / Qwen3 and Qwen3-Coder tokenizers: added tokens.
        "hermes" | "qwen3_coder" => &["<tool_call>", "</tool_call>", "<think>", "</think>"],
        // Mistral's tekken control tokens (v11+ has `[ARGS]` and `[CALL_ID]`).
        "mistral" => &["[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"],
        // Llama 3.1-3.3 special tokens.
        "llama" => &["<|python_tag|>", "<|eom_id|>", "<|eot_id|>"],
        // Llama 4 special tokens (its pythonic calls sit between the python tags).
        "pythonic" => &["<|python_start|>", "<|python_end|>", "<|eom|>", "<|eot|>"],
        "deepseek_v3" | "deepseek_v31" => &[
            "<｜tool▁calls▁begin｜>",
            "<｜tool▁calls▁end｜>",
            "<｜tool▁call▁begin｜>",
            "<｜tool▁call▁end｜>",
            "<｜tool▁sep｜>",
            "<｜end▁of▁sentence｜>",
        ],
        "glm" => &[
            "<tool_call>",
            "</tool_call>",
            "<arg_key>",
            "</arg_key>",
            "<arg_value>",
            "</arg_value>",
            "<think>",
            "</think>",
        ],
        "kimi_k2" => &[
            "<|tool_calls_section_begin|>",
            "<|tool_calls_section_end|>",
            "<|tool_call_begin|>",
            "<|tool_call_end|>",
            "<|tool_call_argument_begin|>",
        ],
        "minimax" => &[
            "<minimax:tool_call>",
            "</minimax:tool_call>",
            "<think>",
            "</think>",
        ],
        "deepseek_v32" | "deepseek_v4" => &["｜DSML｜"],
        _ => &[],
    }
}

/// One entry per chunk size and mode: `{"chunk_bytes", "tokens_whole", "calls", "normal_text"}`
/// (`tokens_whole`: the cut moves to the end of a special token it would fall inside).
///
/// The streaming API drops a call whose name is not among `tools`; so that this filter does not
/// hide what the format reading does, the tools are the schemas plus every name the one-shot
/// parse of the same reply found (with an open schema).
pub async fn record(stem: &str, input: &str, schemas: &[Tool], named: &[String]) -> Value {
    let mut tools: Vec<Tool> = schemas.to_vec();
    for name in named {
        if !tools.iter().any(|t| &t.function.name == name) {
            let extra = tool(name, json!({"type": "object"}));
            tools.push(serde_json::from_value(extra).unwrap());
        }
    }
    let mut out = Vec::new();
    for tokens_whole in [false, true] {
        for &size in CHUNK_BYTES {
            // tool-parser's streaming parsers can panic (its pythonic one slices a `&str`
            // inside a character): run each stream as a task, so a panic is recorded as the
            // stream's outcome instead of ending the recording.
            let (owned_stem, owned_input, owned_tools) =
                (stem.to_string(), input.to_string(), tools.clone());
            let task = tokio::spawn(async move {
                stream(&owned_stem, &owned_input, &owned_tools, size, tokens_whole).await
            });
            out.push(match task.await {
                Ok(entry) => entry,
                Err(e) => json!({
                    "chunk_bytes": size,
                    "tokens_whole": tokens_whole,
                    "calls": [],
                    "normal_text": "",
                    "error": format!("PANIC: {}", panic_message(e)),
                }),
            });
        }
    }
    Value::Array(out)
}

fn panic_message(e: tokio::task::JoinError) -> String {
    match e.try_into_panic() {
        Ok(payload) => payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
        Err(e) => e.to_string(),
    }
}

/// Where a chunk starting at `at` ends: `size` bytes on, then on a character boundary, then
/// (with `tokens_whole`) past any special token the cut would split.
fn chunk_end(stem: &str, input: &str, at: usize, size: usize, tokens_whole: bool) -> usize {
    let mut end = (at + size).min(input.len());
    while !input.is_char_boundary(end) {
        end += 1;
    }
    if tokens_whole {
        for token in special_tokens(stem) {
            let mut search = end.saturating_sub(token.len() - 1);
            while !input.is_char_boundary(search) {
                search -= 1;
            }
            while let Some(i) = input.get(search..).and_then(|s| s.find(token)) {
                let start = search + i;
                if start >= end {
                    break;
                }
                if start + token.len() > end {
                    end = start + token.len();
                }
                search = start + 1;
                while !input.is_char_boundary(search) {
                    search += 1;
                }
            }
        }
    }
    end
}

async fn stream(stem: &str, input: &str, tools: &[Tool], size: usize, tokens_whole: bool) -> Value {
    let mut parser = make(stem);
    // tool_index -> (name, concatenated argument deltas)
    let mut calls: BTreeMap<usize, (String, String)> = BTreeMap::new();
    let mut normal = String::new();
    let mut error = None;
    let mut at = 0;
    while at < input.len() {
        let end = chunk_end(stem, input, at, size, tokens_whole);
        match parser.parse_incremental(&input[at..end], tools).await {
            Ok(result) => {
                normal.push_str(&result.normal_text);
                for item in result.calls {
                    let entry = calls.entry(item.tool_index).or_default();
                    if let Some(name) = item.name {
                        entry.0 = name;
                    }
                    entry.1.push_str(&item.parameters);
                }
            }
            Err(e) => {
                error.get_or_insert_with(|| format!("ERROR at byte {at}: {e}"));
            }
        }
        at = end;
    }
    // The end of the stream, as a serving engine finishes one: the arguments parsed but not
    // yet streamed, then any text held back as a prospective call.
    for item in parser.get_unstreamed_tool_args().unwrap_or_default() {
        let entry = calls.entry(item.tool_index).or_default();
        if let Some(name) = item.name {
            entry.0 = name;
        }
        entry.1.push_str(&item.parameters);
    }
    normal.push_str(&parser.take_unstreamed_normal_text());
    let calls: Vec<Value> = calls
        .into_values()
        .map(|(name, args)| json!({"name": name, "arguments": arguments(&args)}))
        .collect();
    let mut entry = json!({
        "chunk_bytes": size,
        "tokens_whole": tokens_whole,
        "calls": calls,
        "normal_text": normal,
    });
    if let Some(e) = error {
        entry["error"] = Value::String(e);
    }
    entry
}
