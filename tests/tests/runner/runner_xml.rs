//! XML mode: the two-turn conversation of the sans-IO test, run by a model that only writes
//! text, streamed in chunks of random sizes. Every chunking gives the same events, the same
//! calls and the same follow-up message, byte for byte.

use std::sync::{Arc, Mutex};

use tool_core::model::{
    self, Message, Model, ModelEvent, ModelRequest, ModelStream, ModelTurn, TextMode,
};
use tool_core::parse::ToolFormat;
use tool_core::runner::{RunEvent, RunOutcome, Runner};
use tool_core::{block_on, tool, tools, ToolCall};

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// City name.
    city: String,
) -> String {
    format!("{city}: 21 C")
}

const FIRST_REPLY: &str = "Checking both.\n<use_tool>\n  <tool_name>get_weather</tool_name>\n  <arguments>{\"city\": \"Paris\"}</arguments>\n</use_tool>\n<use_tool>\n  <tool_name>get_weather</tool_name>\n  <arguments>{\"city\": \"Tokyo\"}</arguments>\n</use_tool>";
const SECOND_REPLY: &str = "Paris and Tokyo are both at 21 C.";

/// The results message, as reviewed by eye.
const FOLLOW_UP: &str = "<tool_results>\n<tool_result>\n<tool_name>get_weather</tool_name>\n<status>SUCCESS</status>\n<output>Paris: 21 C</output>\n</tool_result>\n<tool_result>\n<tool_name>get_weather</tool_name>\n<status>SUCCESS</status>\n<output>Tokyo: 21 C</output>\n</tool_result>\n</tool_results>\n";

/// Instructions and messages of one request.
type Seen = (Option<String>, Vec<Message>);

/// A plain-text model: the n-th reply of the script, split at pseudo-random sizes (1 to 9
/// bytes, on character boundaries) from `seed`. It records the requests it receives.
#[derive(Clone)]
struct ChunkedText {
    replies: Vec<&'static str>,
    seed: u64,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl ChunkedText {
    fn new(replies: Vec<&'static str>, seed: u64) -> Self {
        ChunkedText {
            replies,
            seed,
            seen: Arc::default(),
        }
    }
}

impl Model for ChunkedText {
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        assert!(request.tools.is_empty(), "a text model is offered no tools");
        self.seen.lock().unwrap().push((
            request.instructions.map(str::to_string),
            request.messages.to_vec(),
        ));
        let turn = request
            .messages
            .iter()
            .filter(|m| matches!(m, Message::Assistant(_)))
            .count();
        let reply = self.replies[turn];
        let mut state = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(turn as u64 + 1);
        let mut events = Vec::new();
        let mut rest = reply;
        while !rest.is_empty() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut size = ((state >> 33) % 9 + 1) as usize;
            size = size.min(rest.len());
            while !rest.is_char_boundary(size) {
                size += 1;
            }
            let (chunk, tail) = rest.split_at(size);
            events.push(Ok(ModelEvent::TextDelta(chunk.to_string())));
            rest = tail;
        }
        events.push(Ok(ModelEvent::Finished(ModelTurn::text(reply))));
        model::from_events(events)
    }
}

/// What one run looked like, independent of how the replies were chunked.
#[derive(Debug, PartialEq)]
struct Observed {
    first_turn_text: String,
    text_before_first_call: String,
    calls: Vec<ToolCall>,
    results: Vec<(String, String)>,
    outcome: RunOutcome,
}

fn observe(seed: u64) -> (Observed, ChunkedText) {
    let text_model = ChunkedText::new(vec![FIRST_REPLY, SECOND_REPLY], seed);
    let runner = Runner::new(
        TextMode::new(text_model.clone(), ToolFormat::UseTool),
        tools![get_weather],
    );
    let events = block_on(
        runner
            .run_streamed("Weather in Paris and Tokyo?")
            .collect_events(),
    );
    let mut first_turn_text = String::new();
    let mut text_before_first_call = None;
    let mut calls = Vec::new();
    let mut results = Vec::new();
    let mut turn = 0;
    let mut outcome = None;
    for event in events {
        match event {
            RunEvent::TurnStarted { turn: n } => turn = n,
            RunEvent::TextDelta { text } if turn == 1 => first_turn_text.push_str(&text),
            RunEvent::CallReady { call, .. } => {
                text_before_first_call.get_or_insert_with(|| first_turn_text.clone());
                calls.push(call);
            }
            RunEvent::ToolResult {
                call_id, response, ..
            } => results.push((call_id, response.model_text().into_owned())),
            RunEvent::RunFinished { outcome: o, .. } => outcome = Some(o),
            _ => {}
        }
    }
    let observed = Observed {
        first_turn_text,
        text_before_first_call: text_before_first_call.unwrap_or_default(),
        calls,
        results,
        outcome: outcome.expect("the run finished"),
    };
    (observed, text_model)
}

#[test]
fn the_same_conversation_runs_on_a_plain_text_stream_whatever_the_chunking() {
    let expected = Observed {
        first_turn_text: "Checking both.\n\n".into(),
        text_before_first_call: "Checking both.\n".into(),
        calls: vec![
            ToolCall::new("xml_call_0", "get_weather", r#"{"city": "Paris"}"#),
            ToolCall::new("xml_call_1", "get_weather", r#"{"city": "Tokyo"}"#),
        ],
        results: vec![
            ("xml_call_0".into(), "Paris: 21 C".into()),
            ("xml_call_1".into(), "Tokyo: 21 C".into()),
        ],
        outcome: RunOutcome::Finished {
            text: SECOND_REPLY.into(),
        },
    };
    for seed in 0..64 {
        let (observed, text_model) = observe(seed);
        assert_eq!(observed, expected, "seed {seed}");

        // The second request: the TOOLS section in the instructions, the first reply
        // verbatim as the assistant's message, then the results message.
        let seen = text_model.seen.lock().unwrap();
        assert_eq!(seen.len(), 2);
        let (instructions, messages) = &seen[1];
        let instructions = instructions.as_deref().unwrap();
        assert!(instructions.starts_with("====\nTOOLS\n"));
        assert!(instructions.contains("<name>get_weather</name>"));
        assert_eq!(messages.len(), 3);
        let Message::Assistant(reply) = &messages[1] else {
            panic!("{:?}", messages[1])
        };
        assert_eq!(reply.text, FIRST_REPLY, "seed {seed}");
        assert!(reply.calls.is_empty(), "the text model sees text only");
        assert_eq!(messages[2], Message::user(FOLLOW_UP), "seed {seed}");
    }
}

#[test]
fn a_misspelled_tool_goes_back_in_the_results_message_with_a_suggestion() {
    let reply = "<use_tool><tool_name>get_wether</tool_name><arguments>{\"city\": \"Oslo\"}</arguments></use_tool>";
    let text_model = ChunkedText::new(vec![reply, "Sorry."], 7);
    let runner = Runner::new(
        TextMode::new(text_model.clone(), ToolFormat::UseTool),
        tools![get_weather],
    );
    let result = block_on(runner.run("Oslo?")).unwrap();
    assert_eq!(result.text(), Some("Sorry."));
    let seen = text_model.seen.lock().unwrap();
    let Message::User { content } = &seen[1].1[2] else {
        panic!()
    };
    assert!(content.contains("<status>ERROR</status>"), "{content}");
    assert!(content.contains("Did you mean 'get_weather'?"), "{content}");
}
