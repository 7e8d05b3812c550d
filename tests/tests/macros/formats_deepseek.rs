//! DeepSeek V3.1's tool block, results and calls compared with the official DeepSeek-V3.1 chat
//! template as rendered by transformers, recorded in rtp-llm's renderer tests
//! (`test_deepseek_v31`, `get_step1_expected_renderer_prompt` and
//! `get_step2_expected_renderer_prompt`: the same two tools, turn and results as here).

use std::sync::Arc;

use serde_json::json;
use tool_core::parse::{EndReason, Event, FormatParser, FormatTools, TextCallResult, ToolFormat};
use tool_core::{ToolDefinition, ToolResponse};

/// The recorded prompt's system part: the system message, a blank line, then the tool block.
const RENDERED_SYSTEM: &str = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\nCurrent Date: 2024-09-30\n\n## Tools\nYou have access to the following tools:\n\n### get_current_temperature\nDescription: Get current temperature at a location.\n\nParameters: {\"type\": \"object\", \"properties\": {\"location\": {\"type\": \"string\", \"description\": \"The location to get the temperature for, in the format \\\"City, State, Country\\\".\"}, \"unit\": {\"type\": \"string\", \"enum\": [\"celsius\", \"fahrenheit\"], \"description\": \"The unit to return the temperature in. Defaults to \\\"celsius\\\".\"}}, \"required\": [\"location\"]}\n\n### get_temperature_date\nDescription: Get temperature at a location and date.\n\nParameters: {\"type\": \"object\", \"properties\": {\"location\": {\"type\": \"string\", \"description\": \"The location to get the temperature for, in the format \\\"City, State, Country\\\".\"}, \"date\": {\"type\": \"string\", \"description\": \"The date to get the temperature for, in the format \\\"Year-Month-Day\\\".\"}, \"unit\": {\"type\": \"string\", \"enum\": [\"celsius\", \"fahrenheit\"], \"description\": \"The unit to return the temperature in. Defaults to \\\"celsius\\\".\"}}, \"required\": [\"location\", \"date\"]}\n\nIMPORTANT: ALWAYS adhere to this exact format for tool use:\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments<｜tool▁call▁end｜>{{additional_tool_calls}}<｜tool▁calls▁end｜>\n\nWhere:\n\n- `tool_call_name` must be an exact match to one of the available tools\n- `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema\n- For multiple tool calls, chain them directly without separators or spaces\n";

/// The recorded assistant turn (its calls) and the two results after it.
const RENDERED_CALLS: &str = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_current_temperature<｜tool▁sep｜>{\"location\": \"San Francisco, CA, USA\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_temperature_date<｜tool▁sep｜>{\"location\": \"San Francisco, CA, USA\", \"date\": \"2024-10-01\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
const RENDERED_RESULTS: &str = "<｜tool▁output▁begin｜>{\"temperature\": 26.1, \"location\": \"San Francisco, CA, USA\", \"unit\": \"celsius\"}<｜tool▁output▁end｜><｜tool▁output▁begin｜>{\"temperature\": 25.9, \"location\": \"San Francisco, CA, USA\", \"date\": \"2024-10-01\", \"unit\": \"celsius\"}<｜tool▁output▁end｜>";

fn definitions() -> Vec<ToolDefinition> {
    let location = json!({"type": "string", "description": "The location to get the temperature for, in the format \"City, State, Country\"."});
    let unit = json!({"type": "string", "enum": ["celsius", "fahrenheit"], "description": "The unit to return the temperature in. Defaults to \"celsius\"."});
    vec![
        ToolDefinition::new(
            "get_current_temperature",
            "Get current temperature at a location.",
            Arc::new(
                json!({"type": "object", "properties": {"location": location, "unit": unit}, "required": ["location"]}),
            ),
        ),
        ToolDefinition::new(
            "get_temperature_date",
            "Get temperature at a location and date.",
            Arc::new(
                json!({"type": "object", "properties": {"location": location, "date": {"type": "string", "description": "The date to get the temperature for, in the format \"Year-Month-Day\"."}, "unit": unit}, "required": ["location", "date"]}),
            ),
        ),
    ]
}

#[test]
fn the_v31_tool_block_is_the_official_templates() {
    let defs = definitions();
    let block = FormatTools::new(ToolFormat::DeepSeekV31, &defs).prompt();
    let system = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\nCurrent Date: 2024-09-30";
    assert_eq!(format!("{system}\n\n{block}"), RENDERED_SYSTEM);
}

#[test]
fn the_v31_results_are_the_official_templates() {
    let defs = definitions();
    let tools = FormatTools::new(ToolFormat::DeepSeekV31, &defs);
    let outputs = [
        "{\"temperature\": 26.1, \"location\": \"San Francisco, CA, USA\", \"unit\": \"celsius\"}",
        "{\"temperature\": 25.9, \"location\": \"San Francisco, CA, USA\", \"date\": \"2024-10-01\", \"unit\": \"celsius\"}",
    ];
    let results: Vec<TextCallResult> = outputs
        .iter()
        .zip(["get_current_temperature", "get_temperature_date"])
        .enumerate()
        .map(|(index, (text, name))| TextCallResult {
            index,
            id: format!("call_{index}"),
            name: name.to_string(),
            response: ToolResponse::success(*text),
        })
        .collect();
    assert_eq!(tools.results(&results).as_deref(), Some(RENDERED_RESULTS));
}

/// The template's assistant turn is read back as its two calls, cut at any byte.
#[test]
fn the_templates_calls_are_read_back_cut_anywhere() {
    for format in [ToolFormat::DeepSeekV31, ToolFormat::DeepSeekV3] {
        let bytes = RENDERED_CALLS.as_bytes();
        for cut in 0..=bytes.len() {
            let mut parser = FormatParser::new(format);
            let mut out = Vec::new();
            parser.feed_bytes(&bytes[..cut], &mut out);
            parser.feed_bytes(&bytes[cut..], &mut out);
            parser.finish(EndReason::Stop, &mut out);
            let calls: Vec<(String, serde_json::Value)> = out
                .iter()
                .filter_map(|e| match e {
                    Event::CallComplete { call, .. } => Some((
                        call.name.clone(),
                        serde_json::from_str(&call.arguments).unwrap(),
                    )),
                    _ => None,
                })
                .collect();
            assert_eq!(
                calls,
                [
                    (
                        "get_current_temperature".to_string(),
                        json!({"location": "San Francisco, CA, USA"})
                    ),
                    (
                        "get_temperature_date".to_string(),
                        json!({"location": "San Francisco, CA, USA", "date": "2024-10-01"})
                    ),
                ],
                "{format:?} cut at {cut}"
            );
        }
    }
}
