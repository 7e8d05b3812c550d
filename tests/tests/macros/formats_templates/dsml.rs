//! DeepSeek V3.2 and V4 (DSML) against their encoders' recorded output.

use serde_json::Value;
use tool_core::parse::ToolFormat;

use super::{assert_rendered, calls, encode, ours};

#[test]
fn deepseek_v32_writes_what_its_encoder_writes() {
    let rendered = encode("encoding_dsv32");
    let ours = ours(ToolFormat::DeepSeekV32);
    assert_rendered("V3.2 tool block", &rendered, &format!("\n\n{}", ours.tools));
    assert_rendered(
        "V3.2 calls",
        &rendered,
        &format!("</think>{}<｜end▁of▁sentence｜>", ours.calls),
    );
    assert_rendered(
        "V3.2 results",
        &rendered,
        &format!("\n\n{}\n\n</think>", ours.results),
    );
}

#[test]
fn deepseek_v4_writes_what_its_encoder_writes() {
    let rendered = encode("encoding_dsv4");
    let ours = ours(ToolFormat::DeepSeekV4);
    assert_rendered(
        "V4 tool block",
        &rendered,
        &format!("\n\n{}<｜User｜>", ours.tools),
    );
    assert_rendered(
        "V4 calls",
        &rendered,
        &format!("</think>{}<｜end▁of▁sentence｜>", ours.calls),
    );
    // The encoder merges a turn's results into one user message.
    assert_rendered(
        "V4 results",
        &rendered,
        &format!("<｜User｜>{}<｜Assistant｜>", ours.results),
    );
}

#[test]
fn the_dsml_encoders_calls_are_read_back() {
    for format in [ToolFormat::DeepSeekV32, ToolFormat::DeepSeekV4] {
        let written = ours(format).calls;
        let events = tool_core::parse::FormatParser::parse_all(
            format,
            &written,
            tool_core::parse::EndReason::Stop,
        );
        let read: Vec<(String, Value)> = events
            .iter()
            .filter_map(|e| match e {
                tool_core::parse::Event::CallComplete { call, .. } => Some((
                    call.name.clone(),
                    serde_json::from_str(&call.arguments).unwrap(),
                )),
                _ => None,
            })
            .collect();
        let expected: Vec<(String, Value)> = calls()
            .iter()
            .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
            .collect();
        assert_eq!(read, expected, "{format:?}");
    }
}
