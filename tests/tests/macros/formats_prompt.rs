//! The other half of each format: the tool block a registry renders in the family's own
//! convention (compared byte for byte with reviewed goldens; `UPDATE_GOLDEN=1` rewrites them),
//! and the whole loop: prompt, a reply in the format, typed dispatch, the result message.

use crate::formats_support;

use formats_support::fixture_path;
use tool_core::parse::{EndReason, Event, ToolFormat};
use tool_core::{block_on, tool, tools, ToolErrorCode, ToolRegistry};

/// Current weather for a city. Never closes </tools> or [/AVAILABLE_TOOLS].
#[tool]
fn get_weather(
    /// City name.
    city: String,
    /// Days of forecast.
    days: Option<u32>,
) -> String {
    format!("{city}: sunny for {} days", days.unwrap_or(1))
}

/// Adds numbers.
#[tool]
fn add(values: Vec<i64>, scale: f64) -> f64 {
    values.iter().sum::<i64>() as f64 * scale
}

/// The time now.
#[tool]
fn now() -> &'static str {
    "noon"
}

fn registry() -> ToolRegistry {
    tools![get_weather, add, now]
}

#[test]
fn tool_blocks_match_the_reviewed_goldens() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let registry = registry();
    for &format in ToolFormat::ALL {
        let block = registry.text_format(format).prompt();
        let path = fixture_path(&format!("prompt_{}.txt", format.name()));
        if update {
            std::fs::write(&path, &block).unwrap();
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            golden == block,
            "{format:?} differs from {path:?}:\n{block}"
        );
    }
}

/// One reply per format calling `add` with an array and a float (Qwen3-Coder's untyped values
/// converted with the registry's schema) and `get_weather` with a wrong name.
const REPLIES: &[(ToolFormat, &str)] = &[
    (ToolFormat::UseTool, "<use_tool><tool_name>add</tool_name><arguments>{\"values\": [1, 2], \"scale\": 1.5}</arguments></use_tool><use_tool><tool_name>get_wether</tool_name><arguments>{\"city\": \"Paris\"}</arguments></use_tool>"),
    (ToolFormat::Hermes, "<tool_call>\n{\"name\": \"add\", \"arguments\": {\"values\": [1, 2], \"scale\": 1.5}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_wether\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"),
    (ToolFormat::Qwen3Coder, "<tool_call>\n<function=add>\n<parameter=values>\n[1, 2]\n</parameter>\n<parameter=scale>\n1.5\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_wether>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"),
    (ToolFormat::Mistral, "[TOOL_CALLS] [{\"name\": \"add\", \"arguments\": {\"values\": [1, 2], \"scale\": 1.5}}, {\"name\": \"get_wether\", \"arguments\": {\"city\": \"Paris\"}}]"),
    (ToolFormat::Harmony, "<|channel|>analysis<|message|>Add, then weather.<|end|><|start|>assistant<|channel|>commentary to=functions.add <|constrain|>json<|message|>{\"values\": [1, 2], \"scale\": 1.5}<|call|><|start|>assistant<|channel|>commentary to=functions.get_wether <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>"),
    (ToolFormat::Glm, "<tool_call>add\n<arg_key>values</arg_key>\n<arg_value>[1, 2]</arg_value>\n<arg_key>scale</arg_key>\n<arg_value>1.5</arg_value>\n</tool_call><tool_call>get_wether<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"),
    (ToolFormat::MiniMax, "<minimax:tool_call>\n<invoke name=\"add\">\n<parameter name=\"values\">[1, 2]</parameter>\n<parameter name=\"scale\">1.5</parameter>\n</invoke>\n<invoke name=\"get_wether\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>\n</minimax:tool_call>"),
    (ToolFormat::KimiK2, "<|tool_calls_section_begin|><|tool_call_begin|>functions.add:0<|tool_call_argument_begin|>{\"values\": [1, 2], \"scale\": 1.5}<|tool_call_end|><|tool_call_begin|>functions.get_wether:1<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>"),
    (ToolFormat::Llama, "{\"name\": \"add\", \"parameters\": {\"values\": [1, 2], \"scale\": 1.5}}; {\"name\": \"get_wether\", \"parameters\": {\"city\": \"Paris\"}}"),
    (ToolFormat::Pythonic, "[add(values=[1, 2], scale=1.5), get_wether(city=\"Paris\")]"),
];

#[test]
fn a_reply_in_each_format_runs_and_its_results_come_back_in_that_format() {
    let registry = registry();
    for (format, reply) in REPLIES {
        let mut parser = registry.text_format(*format).parser();
        let mut events = Vec::new();
        for chunk in reply.as_bytes().chunks(7) {
            parser.feed_bytes(chunk, &mut events);
        }
        parser.finish(EndReason::Stop, &mut events);
        let completed: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::CallComplete { call, .. } => Some(call.name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(completed, ["add"], "{format:?}");
        let not_found = events.iter().find_map(|e| match e {
            Event::CallError { response, .. } => Some(response),
            _ => None,
        });
        let not_found = not_found.unwrap_or_else(|| panic!("{format:?}: no call error"));
        assert_eq!(not_found.error_code(), Some(ToolErrorCode::NotFound));
        assert!(not_found
            .error_message()
            .unwrap()
            .contains("Did you mean 'get_weather'?"));
        let message = block_on(registry.text_follow_up(*format, &events)).unwrap();
        let expected = match format {
            ToolFormat::UseTool => "<tool_results>\n<tool_result>\n<tool_name>add</tool_name>\n<status>SUCCESS</status>\n<output>4.5</output>\n</tool_result>\n<tool_result>\n<tool_name>get_wether</tool_name>\n<status>ERROR</status>\n<output>Error [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.</output>\n</tool_result>\n</tool_results>\n".to_string(),
            ToolFormat::Hermes | ToolFormat::Qwen3Coder => "<tool_response>\n4.5\n</tool_response>\n<tool_response>\nError [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.\n</tool_response>".to_string(),
            ToolFormat::Mistral => "[TOOL_RESULTS]{\"call_id\":\"call_0\",\"content\":\"4.5\"}[/TOOL_RESULTS]\n[TOOL_RESULTS]{\"call_id\":\"call_1\",\"content\":\"Error [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.\"}[/TOOL_RESULTS]".to_string(),
            ToolFormat::Harmony => "<|start|>functions.add to=assistant<|channel|>commentary<|message|>4.5<|end|>\n<|start|>functions.get_wether to=assistant<|channel|>commentary<|message|>Error [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.<|end|>".to_string(),
            ToolFormat::Glm => "<tool_response>\n4.5\n</tool_response>\n<tool_response>\nError [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.\n</tool_response>".to_string(),
            ToolFormat::MiniMax => "<response>4.5</response>\n<response>Error [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.</response>".to_string(),
            // The ids are the model's own, as the template writes them back.
            ToolFormat::KimiK2 => "## Return of functions.add:0\n4.5\n## Return of functions.get_wether:1\nError [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.".to_string(),
            // The `ipython` messages of the Llama 3.1 JSON and Llama 4 pythonic templates.
            ToolFormat::Llama => "{\"output\": \"4.5\"}\n{\"output\": \"Error [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.\"}".to_string(),
            ToolFormat::Pythonic => "\"4.5\"\n\"Error [NOT_FOUND]: Unknown tool 'get_wether'. Did you mean 'get_weather'? Available tools: 'get_weather', 'add', 'now'.\"".to_string(),
            other => unreachable!("no reply in {other:?}"),
        };
        assert_eq!(message, expected, "{format:?}");
    }
}

#[test]
fn harmony_reports_the_analysis_channel_apart_from_the_answer() {
    let events = tool_core::parse::FormatParser::parse_all(
        ToolFormat::Harmony,
        "<|channel|>analysis<|message|>The user greets me.<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>",
        EndReason::Stop,
    );
    let reasoning: String = events
        .iter()
        .filter_map(|e| match e {
            Event::Reasoning(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    let text: String = events.iter().filter_map(Event::as_text).collect();
    assert_eq!(
        (reasoning.as_str(), text.as_str()),
        ("The user greets me.", "Hello!")
    );
}

#[test]
fn detection_names_the_format_of_a_reply() {
    for (format, reply) in REPLIES {
        assert_eq!(ToolFormat::detect(reply), Some(*format), "{reply}");
    }
    assert_eq!(ToolFormat::detect("no markers at all"), None);
}
