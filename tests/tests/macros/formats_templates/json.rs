//! The formats that write calls as JSON: Hermes (Qwen3's template), Mistral (Mistral Small
//! 3.1's), Llama 3.1 JSON, DeepSeek V3 (the R1 tool template) and V3.1.

use serde_json::{json, Value};
use tool_core::parse::ToolFormat;

use super::{
    assert_rendered, assert_same_but_compact_json, calls, dated_environment, environment,
    one_call_messages, openai_messages, ours, render, render_with, without_indentation, RESULTS,
};

#[test]
fn hermes_writes_what_qwen3s_template_writes() {
    hermes_writes_what_the_qwen_template_writes("Qwen-Qwen3-0.6B.jinja");
}

/// Hermes's tool block (the template's JSON written compact), calls and results, as a Qwen
/// template renders them in its `<|im_start|>` turns.
pub(super) fn hermes_writes_what_the_qwen_template_writes(template: &str) {
    let rendered = render(template);
    let ours = ours(ToolFormat::Hermes);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
    assert_rendered(
        "calls",
        &rendered,
        &format!("<|im_start|>assistant\n{}<|im_end|>", ours.calls),
    );
    assert_rendered(
        "results",
        &rendered,
        &format!("<|im_start|>user\n{}<|im_end|>", ours.results),
    );
}

#[test]
fn mistral_writes_what_mistral_small_3_1s_template_writes() {
    let rendered = render_with(
        "mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja",
        dated_environment(),
        json!({}),
    );
    let ours = ours(ToolFormat::Mistral);
    // Deliberately: no space after the control tokens (the template writes one, standing for
    // the leading space mistral-common's tokenizer gives the text after them), and each tool
    // as compact JSON with `<`, `>` and `[/` escaped, so no description can close the list.
    let spaced = |text: &str, token: &str| text.replacen(token, &format!("{token} "), 1);
    let open = "[AVAILABLE_TOOLS] ";
    let listed = &rendered[rendered.find(open).expect("the tool list") + open.len()..];
    let listed = &listed[..listed.find("[/AVAILABLE_TOOLS]").expect("the list's end")];
    let listed: Vec<Value> = serde_json::from_str(listed).expect("the template's list is JSON");
    let compact: Vec<String> = listed
        .iter()
        .map(|tool| {
            let text = tool
                .to_string()
                .replace('<', "\\u003c")
                .replace('>', "\\u003e");
            text.replace("[/", "[\\/")
        })
        .collect();
    assert_eq!(
        ours.tools,
        format!(
            "[AVAILABLE_TOOLS][{}][/AVAILABLE_TOOLS]",
            compact.join(", ")
        )
    );
    // The template adds each call's id; the calls are otherwise the same bytes.
    let mut without_ids = rendered.clone();
    for call in calls() {
        without_ids = without_ids.replace(&format!(", \"id\": \"{}\"", call.id), "");
    }
    assert_rendered("calls", &without_ids, &spaced(&ours.calls, "[TOOL_CALLS]"));
    // The template writes the result text unquoted (`{"content": Paris: ...`), which is not
    // JSON; ours is a JSON object with the same id and text.
    let lines: Vec<&str> = ours.results.lines().collect();
    assert_eq!(lines.len(), RESULTS.len());
    for (line, (call, text)) in lines.iter().zip(calls().iter().zip(RESULTS)) {
        let body = line
            .strip_prefix("[TOOL_RESULTS]")
            .and_then(|l| l.strip_suffix("[/TOOL_RESULTS]"))
            .expect("a [TOOL_RESULTS] block");
        let body: Value = serde_json::from_str(body).expect("our result is JSON");
        assert_eq!(body, json!({"call_id": call.id, "content": text}));
        assert_rendered(
            "results",
            &rendered,
            &format!(
                "[TOOL_RESULTS] {{\"content\": {text}, \"call_id\": \"{}\"}}[/TOOL_RESULTS]",
                call.id
            ),
        );
    }
}

#[test]
fn llama_writes_what_the_llama_3_1_json_template_writes() {
    let ours = ours(ToolFormat::Llama);
    // The template takes one call per turn: each call is rendered in a conversation of its
    // own; ours joins a turn's calls with `; ` and its results with a newline.
    let written: Vec<&str> = ours.calls.split("; ").collect();
    let results: Vec<&str> = ours.results.lines().collect();
    assert_eq!((written.len(), results.len()), (2, 2));
    for k in 0..2 {
        let rendered = render_with(
            "tool_chat_template_llama3.1_json.jinja",
            environment(),
            json!({"messages": one_call_messages(k, false), "tools_in_user_message": false}),
        );
        assert_rendered("tool block", &rendered, &ours.tools);
        assert_rendered(
            "call",
            &rendered,
            &format!(
                "<|start_header_id|>assistant<|end_header_id|>\n\n{}<|eot_id|>",
                written[k]
            ),
        );
        assert_rendered(
            "result",
            &rendered,
            &format!(
                "<|start_header_id|>ipython<|end_header_id|>\n\n{}<|eot_id|>",
                results[k]
            ),
        );
    }
}

#[test]
fn deepseek_v3_writes_what_the_r1_tool_template_writes() {
    let rendered = render("tool_chat_template_deepseekr1.jinja");
    let ours = ours(ToolFormat::DeepSeekV3);
    assert_rendered("tool block", &rendered, &format!("\n\n{}", ours.tools));
    // The template's indentation before its `{{ ... }}` lines ends up in the rendering, around
    // the calls and results; ours writes none of it.
    let rendered = without_indentation(&rendered);
    assert_rendered(
        "calls",
        &rendered,
        &format!("<｜Assistant｜>{}<｜end▁of▁sentence｜>", ours.calls),
    );
    assert_rendered("results", &rendered, &ours.results);
}

#[test]
fn deepseek_v31_writes_what_its_template_writes() {
    // The template concatenates the arguments, so it is given them as JSON text.
    let rendered = render_with(
        "deepseek-ai-DeepSeek-V3.1.jinja",
        environment(),
        json!({"messages": openai_messages(true)}),
    );
    let ours = ours(ToolFormat::DeepSeekV31);
    assert_rendered("calls", &rendered, &ours.calls);
    assert_rendered("results", &rendered, &ours.results);
}
