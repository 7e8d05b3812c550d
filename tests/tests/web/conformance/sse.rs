//! Each API's SSE stream of a scripted turn, one string per event, following the recorded
//! streams in `tests/fixtures/http/` (event names, envelopes, the order of the events).

use serde_json::{json, Value};

use tool_core::provider::anthropic::CODE_EXECUTION_CALLER;

use super::apis::{pieces, Api, Turn, ENCRYPTED, SIGNATURE, TEXT_PIECE};
use super::whole::{
    anthropic_blocks, anthropic_container, gemini_calls, gemini_chunk, responses_items,
    responses_usage, text_mode_reply,
};

fn sse_data(values: &[Value]) -> Vec<String> {
    values
        .iter()
        .map(|value| format!("data: {value}\n\n"))
        .collect()
}

fn sse_events(values: &[Value]) -> Vec<String> {
    values
        .iter()
        .map(|value| {
            let name = value["type"].as_str().unwrap_or_default();
            format!("event: {name}\ndata: {value}\n\n")
        })
        .collect()
}

/// The SSE stream of `turn` on `api`, one string per event.
pub fn render_sse(api: Api, turn: &Turn) -> Vec<String> {
    match api {
        Api::Chat | Api::ChatVllm | Api::ChatDeepSeek | Api::TextHermes | Api::TextUseTool => {
            chat_sse(api, turn)
        }
        Api::Responses => responses_sse(turn),
        Api::Anthropic => anthropic_sse(turn),
        Api::Gemini => gemini_sse(turn),
        Api::Interactions => super::interactions::sse(turn),
    }
}

fn chat_sse(api: Api, turn: &Turn) -> Vec<String> {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-conformance", "object": "chat.completion.chunk", "created": 1,
            "model": "gpt-4o", "system_fingerprint": "fp_conformance",
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]})
    };
    let mut chunks = vec![chunk(
        json!({"role": "assistant", "content": null}),
        Value::Null,
    )];
    if let Some(r) = &turn.reasoning {
        let field = match api {
            Api::ChatVllm | Api::TextUseTool => Some("reasoning"),
            Api::ChatDeepSeek => Some("reasoning_content"),
            _ => None,
        };
        if let Some(field) = field {
            for piece in pieces(r, 12) {
                chunks.push(chunk(json!({"content": null, field: piece}), Value::Null));
            }
        }
    }
    let content = if api.is_text_mode() {
        text_mode_reply(api, turn)
    } else {
        turn.text.clone()
    };
    for piece in pieces(&content, TEXT_PIECE) {
        chunks.push(chunk(json!({"content": piece}), Value::Null));
    }
    let native_calls = !api.is_text_mode() && !turn.calls.is_empty();
    if native_calls {
        for (index, call) in turn.calls.iter().enumerate() {
            chunks.push(chunk(
                json!({"tool_calls": [{"index": index, "id": call.id, "type": "function",
                    "function": {"name": call.name, "arguments": ""}}]}),
                Value::Null,
            ));
            for piece in pieces(&call.args.to_string(), 6) {
                chunks.push(chunk(
                    json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}),
                    Value::Null,
                ));
            }
        }
    }
    chunks.push(chunk(
        json!({}),
        json!(if native_calls { "tool_calls" } else { "stop" }),
    ));
    let (input, output) = turn.usage;
    let mut usage = chunk(json!({}), Value::Null);
    usage["choices"] = json!([]);
    usage["usage"] = json!({"prompt_tokens": input, "completion_tokens": output,
        "total_tokens": input + output});
    chunks.push(usage);
    let mut out = sse_data(&chunks);
    out.push("data: [DONE]\n\n".to_string());
    out
}

fn responses_sse(turn: &Turn) -> Vec<String> {
    let mut events = Vec::new();
    let response = |status: &str, output: Vec<Value>, usage: Value| {
        json!({"id": "resp_conformance", "object": "response", "created_at": 1,
            "status": status, "model": "gpt-5.4", "output": output, "usage": usage})
    };
    events.push(json!({"type": "response.created",
        "response": response("in_progress", vec![], Value::Null)}));
    events.push(json!({"type": "response.in_progress",
        "response": response("in_progress", vec![], Value::Null)}));
    let items = responses_items(turn);
    for (output_index, item) in items.iter().enumerate() {
        let id = item["id"].clone();
        match item["type"].as_str() {
            Some("reasoning") => {
                let text = item["summary"][0]["text"].as_str().unwrap_or_default();
                events.push(json!({"type": "response.output_item.added",
                    "output_index": output_index,
                    "item": {"id": id, "type": "reasoning", "summary": [],
                        "encrypted_content": ENCRYPTED}}));
                events.push(json!({"type": "response.reasoning_summary_part.added",
                    "item_id": id, "output_index": output_index, "summary_index": 0,
                    "part": {"type": "summary_text", "text": ""}}));
                for piece in pieces(text, 12) {
                    events.push(json!({"type": "response.reasoning_summary_text.delta",
                        "item_id": id, "output_index": output_index, "summary_index": 0,
                        "delta": piece}));
                }
                events.push(json!({"type": "response.reasoning_summary_text.done",
                    "item_id": id, "output_index": output_index, "summary_index": 0,
                    "text": text}));
                events.push(json!({"type": "response.reasoning_summary_part.done",
                    "item_id": id, "output_index": output_index, "summary_index": 0,
                    "part": {"type": "summary_text", "text": text}}));
            }
            Some("message") => {
                let text = item["content"][0]["text"].as_str().unwrap_or_default();
                events.push(json!({"type": "response.output_item.added",
                    "output_index": output_index,
                    "item": {"id": id, "type": "message", "status": "in_progress",
                        "content": [], "role": "assistant"}}));
                events.push(json!({"type": "response.content_part.added", "item_id": id,
                    "output_index": output_index, "content_index": 0,
                    "part": {"type": "output_text", "annotations": [], "text": ""}}));
                for piece in pieces(text, 9) {
                    events.push(json!({"type": "response.output_text.delta", "item_id": id,
                        "output_index": output_index, "content_index": 0, "delta": piece}));
                }
                events.push(json!({"type": "response.output_text.done", "item_id": id,
                    "output_index": output_index, "content_index": 0, "text": text}));
                events.push(json!({"type": "response.content_part.done", "item_id": id,
                    "output_index": output_index, "content_index": 0,
                    "part": {"type": "output_text", "annotations": [], "text": text}}));
            }
            Some("program") => {
                // The code arrives with the item's end, as recorded.
                let mut added = item.clone();
                added["code"] = json!("");
                events.push(json!({"type": "response.output_item.added",
                    "output_index": output_index, "item": added}));
            }
            Some("tool_search_call" | "tool_search_output") => {
                let mut added = item.clone();
                added["status"] = json!("in_progress");
                events.push(json!({"type": "response.output_item.added",
                    "output_index": output_index, "item": added}));
            }
            _ => {
                let arguments = item["arguments"].as_str().unwrap_or_default();
                let mut added = item.clone();
                added["status"] = json!("in_progress");
                added["arguments"] = json!("");
                events.push(json!({"type": "response.output_item.added",
                    "output_index": output_index, "item": added}));
                for piece in pieces(arguments, 6) {
                    events.push(json!({"type": "response.function_call_arguments.delta",
                        "item_id": id, "output_index": output_index, "delta": piece}));
                }
                events.push(json!({"type": "response.function_call_arguments.done",
                    "item_id": id, "output_index": output_index, "arguments": arguments}));
            }
        }
        events.push(json!({"type": "response.output_item.done",
            "output_index": output_index, "item": item}));
    }
    events.push(json!({"type": "response.completed",
        "response": response("completed", items, responses_usage(turn))}));
    for (sequence, event) in events.iter_mut().enumerate() {
        event["sequence_number"] = json!(sequence);
    }
    sse_events(&events)
}

fn anthropic_sse(turn: &Turn) -> Vec<String> {
    let (input, output) = turn.usage;
    let mut events = vec![json!({"type": "message_start", "message": {
        "id": "msg_conformance", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-5", "content": [], "stop_reason": null,
        "stop_sequence": null, "usage": {"input_tokens": input, "output_tokens": 1}}})];
    for (index, block) in anthropic_blocks(turn).iter().enumerate() {
        let delta =
            |delta: Value| json!({"type": "content_block_delta", "index": index, "delta": delta});
        match block["type"].as_str() {
            Some("thinking") => {
                events.push(json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "thinking", "thinking": "", "signature": ""}}));
                for piece in pieces(block["thinking"].as_str().unwrap_or_default(), 12) {
                    events.push(delta(json!({"type": "thinking_delta", "thinking": piece})));
                }
                events.push(delta(
                    json!({"type": "signature_delta", "signature": SIGNATURE}),
                ));
            }
            Some("text") => {
                events.push(json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "text", "text": ""}}));
                for piece in pieces(block["text"].as_str().unwrap_or_default(), 9) {
                    events.push(delta(json!({"type": "text_delta", "text": piece})));
                }
            }
            Some("tool_search_tool_result") => {
                events.push(json!({"type": "content_block_start", "index": index,
                    "content_block": block}));
            }
            Some("tool_use") if block["caller"]["type"] == CODE_EXECUTION_CALLER => {
                // A program's call comes whole in its start, as recorded.
                events.push(json!({"type": "content_block_start", "index": index,
                    "content_block": block}));
            }
            kind => {
                // tool_use, or server_tool_use (a search, a program).
                let mut start = json!({"type": kind.unwrap_or("tool_use"), "id": block["id"],
                    "name": block["name"], "input": {}});
                if let Some(caller) = block.get("caller") {
                    start["caller"] = caller.clone();
                }
                events.push(json!({"type": "content_block_start", "index": index,
                    "content_block": start}));
                events.push(delta(
                    json!({"type": "input_json_delta", "partial_json": ""}),
                ));
                for piece in pieces(&block["input"].to_string(), 6) {
                    events.push(delta(
                        json!({"type": "input_json_delta", "partial_json": piece}),
                    ));
                }
            }
        }
        events.push(json!({"type": "content_block_stop", "index": index}));
    }
    let mut end = json!({"type": "message_delta",
        "delta": {"stop_reason": if turn.calls.is_empty() { "end_turn" } else { "tool_use" },
            "stop_sequence": null},
        "usage": {"input_tokens": input, "output_tokens": output}});
    if let Some(container) = anthropic_container(turn) {
        end["delta"]["container"] = container;
    }
    events.push(end);
    events.push(json!({"type": "message_stop"}));
    sse_events(&events)
}

fn gemini_sse(turn: &Turn) -> Vec<String> {
    let mut chunks = Vec::new();
    if let Some(r) = &turn.reasoning {
        chunks.push(vec![json!({"text": r, "thought": true})]);
    }
    for piece in pieces(&turn.text, 9) {
        chunks.push(vec![json!({"text": piece})]);
    }
    // One call per chunk, as Gemini streams them.
    for part in gemini_calls(turn) {
        chunks.push(vec![part]);
    }
    let mut values: Vec<Value> = chunks
        .into_iter()
        .map(|parts| gemini_chunk(parts, None, turn.usage))
        .collect();
    values.push(gemini_chunk(
        vec![json!({"text": ""})],
        Some("STOP"),
        turn.usage,
    ));
    sse_data(&values)
}
