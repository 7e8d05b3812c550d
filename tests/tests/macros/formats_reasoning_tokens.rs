//! A reply that begins inside the `<think>` the chat template opened (the parser told to start
//! in reasoning) and opens its tool block without `</think>`: the block's special token ends
//! the reasoning and the calls run, cut anywhere. The replies are llama.cpp's
//! `tests/test-chat.cpp` cases for the DeepSeek-V4 template ("no </think> after the TC close
//! because the grammar will immediately constrain it to end") and the Kimi-K2-Thinking
//! template (a call inside the thinking block).

use serde_json::{json, Value};
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};

/// Reasoning and calls of `reply` fed in two pieces cut at `cut`.
fn parse(format: ToolFormat, reply: &str, cut: usize) -> (String, Vec<(String, Value)>) {
    let options = FormatOptions::default().with_start_in_reasoning(true);
    let mut parser = FormatParser::with_options(format, options);
    let mut out = Vec::new();
    let bytes = reply.as_bytes();
    parser.feed_bytes(&bytes[..cut], &mut out);
    parser.feed_bytes(&bytes[cut..], &mut out);
    parser.finish(EndReason::Stop, &mut out);
    let mut reasoning = String::new();
    let mut calls = Vec::new();
    for event in out {
        match event {
            Event::Reasoning(text) => reasoning.push_str(&text),
            Event::CallComplete { call, .. } => calls.push((
                call.name.clone(),
                serde_json::from_str(&call.arguments).unwrap(),
            )),
            _ => {}
        }
    }
    (reasoning, calls)
}

#[test]
fn a_deepseek_v4_tool_block_opened_while_thinking_ends_the_reasoning() {
    let reply = "Let me check the time\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Tokyo</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>";
    for cut in 0..=reply.len() {
        let (reasoning, calls) = parse(ToolFormat::DeepSeekV4, reply, cut);
        assert_eq!(reasoning, "Let me check the time\n\n", "cut at {cut}");
        assert_eq!(
            calls,
            [("get_time".to_string(), json!({"city": "Tokyo"}))],
            "cut at {cut}"
        );
    }
}

#[test]
fn the_v32_block_name_inside_v4_reasoning_stays_reasoning() {
    // Only V4's own block token ends V4's reasoning; a lookalike that breaks off inside a
    // character (`<｝`) or at the end is reasoning too.
    let reply = "Thinking about <｜DSML｜function_calls>, <｝ and <｜DSM still <｜";
    for cut in 0..=reply.len() {
        let (reasoning, calls) = parse(ToolFormat::DeepSeekV4, reply, cut);
        assert_eq!(reasoning, reply, "cut at {cut}");
        assert!(calls.is_empty(), "cut at {cut}");
    }
}

#[test]
fn a_kimi_k2_section_opened_while_thinking_ends_the_reasoning() {
    let reply = "I need to call two functions<|tool_calls_section_begin|><|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>{\"arg1\": 1}<|tool_call_end|><|tool_call_begin|>functions.python:1<|tool_call_argument_begin|>{\"code\": \"print('hey')\"}<|tool_call_end|><|tool_calls_section_end|>";
    for cut in 0..=reply.len() {
        let (reasoning, calls) = parse(ToolFormat::KimiK2, reply, cut);
        assert_eq!(reasoning, "I need to call two functions", "cut at {cut}");
        assert_eq!(
            calls,
            [
                ("special_function".to_string(), json!({"arg1": 1})),
                ("python".to_string(), json!({"code": "print('hey')"})),
            ],
            "cut at {cut}"
        );
    }
}
