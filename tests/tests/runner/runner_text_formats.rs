//! The runner's text mode in every `ToolFormat`: a two-turn conversation with a scripted
//! text-only model whose replies are written in the format, streamed in pieces of one byte, of
//! the whole reply, and of random sizes. Every chunking gives the same text, calls, results and answer, and the second request
//! (the family's tool block, the first reply verbatim, the results in the family's convention)
//! matches its reviewed golden file byte for byte.

use crate::support;

use serde_json::{json, Value};
use tool_core::model::{
    self, Message, Model, ModelErrorKind, ModelEvent, ModelRequest, ModelStream, ModelTurn,
    ScriptedModel, StopReason, TextMode,
};
use tool_core::parse::ToolFormat;
use tool_core::runner::{RunError, RunEvent, RunOptions, RunOutcome, Runner};
use tool_core::{block_on, tool, tools};

/// Current weather and a forecast for a city.
#[tool(read_only)]
fn get_weather(
    /// City name, e.g. "Paris".
    city: String,
    /// Days of forecast.
    days: u32,
) -> String {
    format!("{city}: 21 C, sunny for {days} days")
}

const QUESTION: &str = "Weather in Paris and Tokyo?";
const INSTRUCTIONS: &str = "You are a concise weather assistant.";

/// One format's script and what every chunking must give.
struct Case {
    format: ToolFormat,
    first: &'static str,
    second: &'static str,
    /// The first turn's text as the user sees it.
    first_text: &'static str,
    /// Call ids, names and arguments.
    calls: &'static [(&'static str, &'static str)],
    answer: &'static str,
}

/// The calls' arguments, in order (the same in every format).
fn arguments() -> [Value; 2] {
    [
        json!({"city": "Paris", "days": 3}),
        json!({"city": "Tokyo", "days": 1}),
    ]
}

const CASES: &[Case] = &[
    Case {
        format: ToolFormat::UseTool,
        first: "Checking both.\n<use_tool>\n  <tool_name>get_weather</tool_name>\n  <arguments>{\"city\": \"Paris\", \"days\": 3}</arguments>\n</use_tool>\n<use_tool>\n  <tool_name>get_weather</tool_name>\n  <arguments>{\"city\": \"Tokyo\", \"days\": 1}</arguments>\n</use_tool>",
        second: "Paris and Tokyo are both at 21 C and sunny.",
        first_text: "Checking both.\n\n",
        calls: &[("xml_call_0", "get_weather"), ("xml_call_1", "get_weather")],
        answer: "Paris and Tokyo are both at 21 C and sunny.",
    },
    Case {
        format: ToolFormat::Hermes,
        first: "I'll check the weather in both cities.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\", \"days\": 1}}\n</tool_call>",
        second: "Both Paris and Tokyo are at 21 C and sunny.",
        first_text: "I'll check the weather in both cities.\n\n",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "Both Paris and Tokyo are at 21 C and sunny.",
    },
    Case {
        format: ToolFormat::Qwen3Coder,
        first: "I'll look up both cities.\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n<parameter=days>\n1\n</parameter>\n</function>\n</tool_call>",
        second: "Paris and Tokyo: 21 C and sunny.",
        first_text: "I'll look up both cities.\n\n\n",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "Paris and Tokyo: 21 C and sunny.",
    },
    Case {
        format: ToolFormat::Mistral,
        first: "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\", \"days\": 1}}]",
        second: "It is 21 C and sunny in both Paris and Tokyo.",
        first_text: "",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "It is 21 C and sunny in both Paris and Tokyo.",
    },
    Case {
        format: ToolFormat::Harmony,
        first: "<|channel|>analysis<|message|>The user wants the weather in Paris and Tokyo. I'll call get_weather for each.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\",\"days\":3}<|call|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Tokyo\",\"days\":1}<|call|>",
        second: "<|channel|>analysis<|message|>Both results are in.<|end|><|start|>assistant<|channel|>final<|message|>Paris and Tokyo are both at 21 C and sunny.<|return|>",
        first_text: "",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "Paris and Tokyo are both at 21 C and sunny.",
    },
    Case {
        format: ToolFormat::Glm,
        first: "\nI'll check both cities.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Tokyo</arg_value>\n<arg_key>days</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
        second: "\nParis and Tokyo: 21 C and sunny.",
        first_text: "\nI'll check both cities.\n\n",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "\nParis and Tokyo: 21 C and sunny.",
    },
    Case {
        format: ToolFormat::MiniMax,
        first: "I'll check both cities.\n<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n<parameter name=\"days\">3</parameter>\n</invoke>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Tokyo</parameter>\n<parameter name=\"days\">1</parameter>\n</invoke>\n</minimax:tool_call>",
        second: "Paris and Tokyo: 21 C and sunny.",
        first_text: "I'll check both cities.\n",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "Paris and Tokyo: 21 C and sunny.",
    },
    Case {
        format: ToolFormat::KimiK2,
        first: "I'll check both cities.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\", \"days\": 3}<|tool_call_end|><|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{\"city\": \"Tokyo\", \"days\": 1}<|tool_call_end|><|tool_calls_section_end|>",
        second: "Paris and Tokyo: 21 C and sunny.",
        first_text: "I'll check both cities.",
        calls: &[("functions.get_weather:0", "get_weather"), ("functions.get_weather:1", "get_weather")],
        answer: "Paris and Tokyo: 21 C and sunny.",
    },
    Case {
        format: ToolFormat::Llama,
        first: "Checking both.\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}}; {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\", \"days\": 1}}",
        second: "Paris and Tokyo: 21 C and sunny.",
        first_text: "Checking both.\n",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "Paris and Tokyo: 21 C and sunny.",
    },
    Case {
        format: ToolFormat::Pythonic,
        first: "<|python_start|>[get_weather(city=\"Paris\", days=3), get_weather(city='Tokyo', days=1)]<|python_end|>",
        second: "Paris and Tokyo: 21 C and sunny.",
        first_text: "",
        calls: &[("call_0", "get_weather"), ("call_1", "get_weather")],
        answer: "Paris and Tokyo: 21 C and sunny.",
    },
];

/// What one run looked like, whatever the chunking.
#[derive(Debug, PartialEq)]
struct Observed {
    first_text: String,
    calls: Vec<(String, String, Value)>,
    results: Vec<(String, String)>,
    outcome: RunOutcome,
}

fn run(case: &Case, chunking: Chunking) -> (Observed, ScriptedModel) {
    let text_model =
        ScriptedModel::new([ModelTurn::text(case.first), ModelTurn::text(case.second)]);
    let rechunked = Rechunk {
        inner: text_model.clone(),
        chunking,
    };
    let runner = Runner::new(TextMode::new(rechunked, case.format), tools![get_weather])
        .with_options(RunOptions::new().instructions(INSTRUCTIONS));
    let events = block_on(runner.run_streamed(QUESTION).collect_events());
    let mut observed = Observed {
        first_text: String::new(),
        calls: Vec::new(),
        results: Vec::new(),
        outcome: RunOutcome::Finished {
            text: "(no end)".into(),
        },
    };
    let mut turn = 0;
    for event in events {
        match event {
            RunEvent::TurnStarted { turn: n } => turn = n,
            RunEvent::TextDelta { text } if turn == 1 => observed.first_text.push_str(&text),
            RunEvent::CallReady { call, .. } => observed.calls.push((
                call.id,
                call.name,
                serde_json::from_str(&call.arguments).unwrap_or(Value::Null),
            )),
            RunEvent::ToolResult {
                call_id, response, ..
            } => observed
                .results
                .push((call_id, response.model_text().into_owned())),
            RunEvent::RunFinished { outcome, .. } => observed.outcome = outcome,
            RunEvent::RunFailed { error, .. } => panic!("{:?}: {error:?}", case.format),
            _ => {}
        }
    }
    (observed, text_model)
}

/// How a reply is cut into text deltas.
#[derive(Debug, Clone, Copy)]
enum Chunking {
    /// Pieces of this many bytes.
    Every(usize),
    /// Pieces of 1 to `max` bytes, pseudo-random from the seed.
    Random { seed: u64, max: u64 },
}

/// Every byte, the whole reply, and ten random chunkings (fixed seeds, so every run is the same).
fn chunkings() -> Vec<Chunking> {
    let mut out = vec![Chunking::Every(1), Chunking::Every(1 << 20)];
    for seed in 0..10 {
        let max = [3, 9, 40][seed as usize % 3];
        out.push(Chunking::Random { seed, max });
    }
    out
}

/// The scripted model with its text deltas cut again as `chunking` says (never inside a
/// character): the requests are still recorded by the `ScriptedModel`.
struct Rechunk {
    inner: ScriptedModel,
    chunking: Chunking,
}

impl Model for Rechunk {
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let turns = request
            .messages
            .iter()
            .filter(|m| matches!(m, Message::Assistant(_)))
            .count() as u64;
        // A scripted stream is ready at once: collecting it here never waits.
        let finished = block_on(model::collect_turn(self.inner.stream(request)));
        let Ok(turn) = finished else {
            return model::from_events([finished.map(ModelEvent::Finished)]);
        };
        let mut events = Vec::new();
        let mut rest = turn.text.as_str();
        let mut state = match self.chunking {
            Chunking::Random { seed, .. } => seed * 7919 + turns,
            Chunking::Every(_) => 0,
        };
        while !rest.is_empty() {
            let mut size = match self.chunking {
                Chunking::Every(n) => n,
                Chunking::Random { max, .. } => {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((state >> 33) % max + 1) as usize
                }
            };
            size = size.min(rest.len());
            while !rest.is_char_boundary(size) {
                size += 1;
            }
            let (piece, tail) = rest.split_at(size);
            events.push(Ok(ModelEvent::TextDelta(piece.to_string())));
            rest = tail;
        }
        events.push(Ok(ModelEvent::Finished(turn)));
        model::from_events(events)
    }
}

/// The second request as the text model received it, for the golden file.
fn render_request(instructions: Option<&str>, messages: &[Message]) -> String {
    let mut out = format!(
        "--- instructions ---\n{}\n",
        instructions.unwrap_or("(none)")
    );
    for message in messages {
        let (role, text) = match message {
            Message::User { content } => ("user", content.as_str()),
            Message::Assistant(turn) => {
                assert!(turn.calls.is_empty(), "a text model sees text only");
                ("assistant", turn.text.as_str())
            }
            other => panic!("a text model gets no {other:?}"),
        };
        out.push_str(&format!("--- {role} ---\n{text}\n"));
    }
    out
}

#[test]
fn every_format_runs_the_same_conversation_at_any_chunking() {
    for case in CASES {
        let name = case.format.name();
        let expected = Observed {
            first_text: case.first_text.into(),
            calls: case
                .calls
                .iter()
                .zip(arguments())
                .map(|((id, tool), args)| (id.to_string(), tool.to_string(), args))
                .collect(),
            results: vec![
                (
                    case.calls[0].0.into(),
                    "Paris: 21 C, sunny for 3 days".into(),
                ),
                (
                    case.calls[1].0.into(),
                    "Tokyo: 21 C, sunny for 1 days".into(),
                ),
            ],
            outcome: RunOutcome::Finished {
                text: case.answer.into(),
            },
        };
        for chunking in chunkings() {
            let (observed, text_model) = run(case, chunking);
            assert_eq!(observed, expected, "{name}, {chunking:?}");

            let requests = text_model.requests();
            assert_eq!(requests.len(), 2, "{name}");
            let second = &requests[1];
            assert!(second.tools.is_empty(), "a text model is offered no tools");
            assert_eq!(requests[0].instructions, second.instructions, "{name}");
            let Message::Assistant(reply) = &second.messages[1] else {
                panic!("{name}: {:?}", second.messages[1])
            };
            assert_eq!(
                reply.text, case.first,
                "{name}: the reply goes back verbatim"
            );
            support::golden::assert_golden(
                &format!("text_mode_{name}.txt"),
                &render_request(second.instructions.as_deref(), &second.messages),
            );
        }
    }
}

#[test]
fn harmony_reasoning_never_reaches_the_user_as_text() {
    let case = &CASES[4];
    let text_model =
        ScriptedModel::new([ModelTurn::text(case.first), ModelTurn::text(case.second)])
            .with_chunk_size(3);
    let runner = Runner::new(
        TextMode::new(text_model, ToolFormat::Harmony),
        tools![get_weather],
    );
    let events = block_on(runner.run_streamed(QUESTION).collect_events());
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(text, case.answer);
}

/// A reply cut off by the token limit inside a call, in each format.
const CUT_OFF: &[(ToolFormat, &str)] = &[
    (ToolFormat::UseTool, "Checking.\n<use_tool><tool_name>get_weather</tool_name><arguments>{\"city\": \"Par"),
    (ToolFormat::Hermes, "Checking.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par"),
    (ToolFormat::Qwen3Coder, "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n"),
    (ToolFormat::Mistral, "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}"),
    (ToolFormat::Harmony, "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\",\"days\":3}"),
    (ToolFormat::Glm, "Checking.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n"),
    (ToolFormat::MiniMax, "Checking.\n<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>\n"),
    (ToolFormat::KimiK2, "Checking.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\", \"days\": 3}<|tool_call_end|>"),
];

#[test]
fn a_reply_cut_off_inside_a_call_is_an_incomplete_error_and_nothing_runs() {
    for &(format, reply) in CUT_OFF {
        let mut turn = ModelTurn::text(reply);
        turn.stop_reason = StopReason::MaxTokens;
        let runner = Runner::new(
            TextMode::new(ScriptedModel::new([turn]).with_chunk_size(5), format),
            tools![get_weather],
        );
        let events = block_on(runner.run_streamed(QUESTION).collect_events());
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, RunEvent::CallReady { .. } | RunEvent::ToolResult { .. })),
            "{format:?}: {events:?}"
        );
        let Some(RunEvent::RunFailed {
            error: RunError::Model(error),
            ..
        }) = events.last()
        else {
            panic!("{format:?}: {events:?}")
        };
        assert_eq!(error.kind(), ModelErrorKind::Incomplete, "{format:?}");
        assert!(
            error.message().contains("the call was not run"),
            "{format:?}: {error:?}"
        );
    }
}

/// A misspelled tool in each format, and the marker its results message starts with.
const MISSPELLED: &[(ToolFormat, &str, &str)] = &[
    (ToolFormat::Hermes, "<tool_call>\n{\"name\": \"get_wether\", \"arguments\": {\"city\": \"Oslo\", \"days\": 1}}\n</tool_call>", "<tool_response>\n"),
    (ToolFormat::Qwen3Coder, "<tool_call>\n<function=get_wether>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>", "<tool_response>\n"),
    (ToolFormat::Mistral, "[TOOL_CALLS]get_wether[ARGS]{\"city\": \"Oslo\", \"days\": 1}", "[TOOL_RESULTS]{"),
    (ToolFormat::Harmony, "<|start|>assistant<|channel|>commentary to=functions.get_wether <|constrain|>json<|message|>{\"city\":\"Oslo\",\"days\":1}<|call|>", "<|start|>functions.get_wether to=assistant"),
];

#[test]
fn a_misspelled_tool_goes_back_in_the_formats_result_message_with_a_suggestion() {
    for &(format, reply, marker) in MISSPELLED {
        let text_model = ScriptedModel::new([ModelTurn::text(reply), ModelTurn::text("Sorry.")]);
        let runner = Runner::new(
            TextMode::new(text_model.clone(), format),
            tools![get_weather],
        );
        let result = block_on(runner.run("Oslo?")).unwrap();
        assert_eq!(result.text(), Some("Sorry."), "{format:?}");
        let Message::User { content } = &text_model.requests()[1].messages[2] else {
            panic!("{format:?}")
        };
        assert!(content.starts_with(marker), "{format:?}: {content}");
        assert!(content.contains("[NOT_FOUND]"), "{format:?}: {content}");
        assert!(
            content.contains("Did you mean 'get_weather'?"),
            "{format:?}: {content}"
        );
    }
}

#[test]
fn a_qwen3_coder_value_of_the_wrong_type_is_answered_naming_the_parameter() {
    let reply = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n<parameter=days>\nthree\n</parameter>\n</function>\n</tool_call>";
    let text_model = ScriptedModel::new([ModelTurn::text(reply), ModelTurn::text("Sorry.")]);
    let runner = Runner::new(
        TextMode::new(text_model.clone(), ToolFormat::Qwen3Coder),
        tools![get_weather],
    );
    let result = block_on(runner.run("Oslo?")).unwrap();
    let history = result.run.messages();
    // The parser's own verdict is kept with the turn, next to the reply as written.
    let Message::Assistant(turn) = &history[1] else {
        panic!("{history:?}")
    };
    let native = turn.native.as_ref().unwrap();
    assert_eq!(native.provider, "text:qwen3_coder");
    assert_eq!(native.content["text"], reply);
    let diagnostic = &native.content["diagnostics"][0];
    assert_eq!(diagnostic["kind"], "CallError");
    assert!(
        diagnostic["message"].as_str().unwrap().contains("'days'"),
        "{diagnostic}"
    );
    // The dispatcher answers the call as written, in the format's result message.
    let Message::User { content } = &text_model.requests()[1].messages[2] else {
        panic!()
    };
    assert!(
        content.starts_with("<tool_response>\nError [INVALID_PARAM]"),
        "{content}"
    );
    assert!(content.contains("'days'"), "{content}");
}

#[test]
fn a_call_in_a_code_fence_is_an_example_unless_fenced_calls_are_run() {
    let reply = "Write it like this:\n```\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\", \"days\": 1}}\n</tool_call>\n```";
    for run_fenced in [false, true] {
        let text_model = ScriptedModel::new([ModelTurn::text(reply), ModelTurn::text("Done.")]);
        let mode = TextMode::new(text_model, ToolFormat::Hermes).run_fenced_calls(run_fenced);
        let result = block_on(Runner::new(mode, tools![get_weather]).run("How?")).unwrap();
        let expected = if run_fenced { "Done." } else { reply };
        assert_eq!(
            result.text(),
            Some(expected),
            "run_fenced_calls({run_fenced})"
        );
    }
}
