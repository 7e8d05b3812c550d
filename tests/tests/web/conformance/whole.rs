//! Each API's whole (not streamed) response to a scripted turn, and the pieces of it the
//! streamed renderings in `sse.rs` share: Responses' items and usage, Anthropic's content
//! blocks and container, Gemini's call parts and chunks, and a text-mode model's reply.

use serde_json::{json, Value};

use super::apis::{
    caller_json, Api, By, Turn, ANTHROPIC_PROGRAM, CONTAINER, ENCRYPTED, FINGERPRINT,
    RESPONSES_PROGRAM, SIGNATURE, THOUGHT_SIGNATURE,
};

/// The turn as the model's text in a text-mode format.
pub fn text_mode_reply(api: Api, turn: &Turn) -> String {
    let mut out = String::new();
    // Hermes models (Qwen3) open the reply with `<think>`; a `<use_tool>` model's reasoning
    // comes apart from its text, from a server with a reasoning parser (`reasoning`).
    if let Some(reasoning) = turn.reasoning.as_ref().filter(|_| api == Api::TextHermes) {
        out.push_str("<think>\n");
        out.push_str(reasoning);
        out.push_str("\n</think>\n\n");
    }
    out.push_str(&turn.text);
    for call in &turn.calls {
        if !out.is_empty() {
            out.push('\n');
        }
        match api {
            Api::TextUseTool => out.push_str(&format!(
                "<use_tool>\n  <tool_name>{}</tool_name>\n  <arguments>{}</arguments>\n</use_tool>",
                call.name, call.args
            )),
            _ => out.push_str(&format!(
                "<tool_call>\n{}\n</tool_call>",
                json!({"name": call.name, "arguments": call.args})
            )),
        }
    }
    out
}

pub fn render_whole(api: Api, turn: &Turn) -> Value {
    let (input, output) = turn.usage;
    match api {
        Api::Chat | Api::ChatVllm | Api::ChatDeepSeek | Api::TextHermes | Api::TextUseTool => {
            let mut message = json!({"role": "assistant", "content": null, "refusal": null});
            let content = if api.is_text_mode() {
                text_mode_reply(api, turn)
            } else {
                turn.text.clone()
            };
            if !content.is_empty() {
                message["content"] = json!(content);
            }
            match (&turn.reasoning, api) {
                (Some(r), Api::ChatVllm | Api::TextUseTool) => message["reasoning"] = json!(r),
                (Some(r), Api::ChatDeepSeek) => message["reasoning_content"] = json!(r),
                _ => {}
            }
            let native_calls = !api.is_text_mode() && !turn.calls.is_empty();
            if native_calls {
                message["tool_calls"] = turn
                    .calls
                    .iter()
                    .map(|c| {
                        json!({"id": c.id, "type": "function",
                            "function": {"name": c.name, "arguments": c.args.to_string()}})
                    })
                    .collect();
            }
            json!({"id": "chatcmpl-conformance", "object": "chat.completion", "created": 1,
                "model": "gpt-4o",
                "choices": [{"index": 0, "logprobs": null,
                    "finish_reason": if native_calls { "tool_calls" } else { "stop" },
                    "message": message}],
                "usage": {"prompt_tokens": input, "completion_tokens": output,
                    "total_tokens": input + output}})
        }
        Api::Responses => json!({"id": "resp_conformance", "object": "response",
            "created_at": 1, "status": "completed", "model": "gpt-5.4",
            "output": responses_items(turn),
            "usage": responses_usage(turn)}),
        Api::Anthropic => {
            let mut message = json!({"id": "msg_conformance", "type": "message",
                "role": "assistant", "model": "claude-sonnet-4-5",
                "content": anthropic_blocks(turn),
                "stop_reason": if turn.calls.is_empty() { "end_turn" } else { "tool_use" },
                "stop_sequence": null,
                "usage": {"input_tokens": input, "output_tokens": output}});
            if let Some(container) = anthropic_container(turn) {
                message["container"] = container;
            }
            message
        }
        Api::Gemini => {
            let mut parts = Vec::new();
            if let Some(r) = &turn.reasoning {
                parts.push(json!({"text": r, "thought": true}));
            }
            if !turn.text.is_empty() {
                parts.push(json!({"text": turn.text}));
            }
            parts.extend(gemini_calls(turn));
            gemini_chunk(parts, Some("STOP"), turn.usage)
        }
        Api::Interactions => super::interactions::whole(turn),
    }
}

pub(super) fn responses_usage(turn: &Turn) -> Value {
    let (input, output) = turn.usage;
    json!({"input_tokens": input, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output, "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input + output})
}

pub(super) fn responses_items(turn: &Turn) -> Vec<Value> {
    let mut items = Vec::new();
    if let Some(r) = &turn.reasoning {
        items.push(json!({"id": "rs_conformance", "type": "reasoning",
            "summary": [{"type": "summary_text", "text": r}], "encrypted_content": ENCRYPTED}));
    }
    if !turn.text.is_empty() {
        items.push(
            json!({"id": "msg_conformance", "type": "message", "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": turn.text, "annotations": []}]}),
        );
    }
    if let Some((_, found)) = &turn.search {
        // The hosted tool search's two items, as in the recorded gpt-5.4 stream
        // (tool_search_openai_responses_turn1.sse): the call, then the tools it loaded.
        let names: Vec<&str> = found.iter().map(|(name, _, _)| name.as_str()).collect();
        items.push(json!({"id": "tsc_conformance", "type": "tool_search_call",
            "status": "completed", "arguments": {"paths": names}, "call_id": null,
            "execution": "server"}));
        let tools: Vec<Value> = found
            .iter()
            .map(|(name, description, schema)| {
                json!({"type": "function",
                "defer_loading": true, "description": description, "name": name,
                "parameters": schema, "strict": false})
            })
            .collect();
        items.push(
            json!({"id": "tso_conformance", "type": "tool_search_output",
            "status": "completed", "call_id": null, "execution": "server", "tools": tools}),
        );
    }
    if let Some(code) = &turn.program {
        items.push(json!({"id": "cm_conformance", "type": "program",
            "call_id": RESPONSES_PROGRAM, "code": code, "fingerprint": FINGERPRINT}));
    }
    for call in &turn.calls {
        // A program's call stays `in_progress` until it is answered (as recorded).
        let status = if call.caller == By::Program {
            "in_progress"
        } else {
            "completed"
        };
        let mut item = json!({"id": format!("fc_{}", call.id), "type": "function_call",
            "status": status, "call_id": call.id, "name": call.name,
            "arguments": call.args.to_string()});
        if let Some(caller) = caller_json(call.caller, false) {
            item["caller"] = caller;
        }
        if let Some(namespace) = &call.namespace {
            // A call of a tool inside a `namespace` tool names its namespace apart.
            item["namespace"] = json!(namespace);
        }
        items.push(item);
    }
    items
}

/// The `container` the code execution tool ran a turn's program in (Anthropic).
pub(super) fn anthropic_container(turn: &Turn) -> Option<Value> {
    turn.program.as_ref()?;
    Some(json!({"id": CONTAINER, "expires_at": "2026-12-07T20:00:00.000000Z"}))
}

pub(super) fn anthropic_blocks(turn: &Turn) -> Vec<Value> {
    let mut blocks = Vec::new();
    if let Some(r) = &turn.reasoning {
        blocks.push(json!({"type": "thinking", "thinking": r, "signature": SIGNATURE}));
    }
    if let Some((query, found)) = &turn.search {
        blocks.push(
            json!({"type": "server_tool_use", "id": "srvtoolu_conformance",
            "name": "tool_search_tool_bm25", "input": {"query": query, "limit": 5}}),
        );
        let references: Vec<Value> = found
            .iter()
            .map(|(name, _, _)| json!({"type": "tool_reference", "tool_name": name}))
            .collect();
        blocks.push(json!({"type": "tool_search_tool_result",
            "tool_use_id": "srvtoolu_conformance",
            "content": {"type": "tool_search_tool_search_result",
                "tool_references": references}}));
    }
    if !turn.text.is_empty() {
        blocks.push(json!({"type": "text", "text": turn.text}));
    }
    if let Some(code) = &turn.program {
        blocks.push(json!({"type": "server_tool_use", "id": ANTHROPIC_PROGRAM,
            "name": "code_execution", "input": {"code": code}, "caller": {"type": "direct"}}));
    }
    for call in &turn.calls {
        let mut block = json!({"type": "tool_use", "id": call.id, "name": call.name,
            "input": call.args});
        if let Some(caller) = caller_json(call.caller, true) {
            block["caller"] = caller;
        }
        blocks.push(block);
    }
    blocks
}

pub(super) fn gemini_calls(turn: &Turn) -> Vec<Value> {
    turn.calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut part = json!({"functionCall": {"name": c.name, "args": c.args}});
            // Gemini signs the first call of a turn that thought.
            if i == 0 && turn.reasoning.is_some() {
                part["thoughtSignature"] = json!(THOUGHT_SIGNATURE);
            }
            part
        })
        .collect()
}

pub(super) fn gemini_chunk(
    parts: Vec<Value>,
    finish: Option<&str>,
    (input, output): (u64, u64),
) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    if let Some(finish) = finish {
        candidate["finishReason"] = json!(finish);
    }
    json!({"candidates": [candidate],
        "usageMetadata": {"promptTokenCount": input, "candidatesTokenCount": output,
            "totalTokenCount": input + output},
        "modelVersion": "gemini-2.5-flash", "responseId": "gemini-conformance"})
}
