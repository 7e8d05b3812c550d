//! Typed output with a tool in the same run, in both ways of answering: the provider's
//! structured output (`OutputMode::Auto` where the API has it with tools, and
//! `OutputMode::Native` on every API that has it) and the final-answer tool
//! (`OutputMode::Tool`, and `Auto` where the API has no structured output with tools:
//! Gemini, text mode). Each valid the first time, invalid then fixed, and invalid until the
//! retry limit; streamed (`run_streamed`) and whole (`run_typed`). The cell says what `Auto`
//! does.

use serde_json::Value;
use tool_core::model::Model;
use tool_core::runner::{OutputMode, OutputSpec, RunError, RunEvent, RunOptions};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};
use crate::http_support::registry;
use crate::support::forecast::{paris, Forecast, VALID, WRONG_TYPE};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    ValidFirstTime,
    InvalidThenFixed,
    InvalidUntilTheLimit,
}

/// Whether a request asks for the API's structured output.
fn asks_native(api: Api, body: &Value) -> bool {
    match api {
        Api::Responses => body["text"]["format"]["type"] == "json_schema",
        Api::Anthropic => body["output_config"]["format"]["type"] == "json_schema",
        Api::Gemini => body["generationConfig"]["responseMimeType"] == "application/json",
        Api::Interactions => body["response_format"]["mime_type"] == "application/json",
        _ => body["response_format"]["type"] == "json_schema",
    }
}

/// Whether a request offers the final-answer tool (in text mode: in the instructions).
fn offers_final_answer(api: Api, body: &Value) -> bool {
    if api.is_text_mode() {
        api.instructions(body).contains("final_answer")
    } else {
        api.tool_names(body).iter().any(|n| n == "final_answer")
    }
}

/// One run; returns whether the answers went the native way.
async fn one(api: Api, stream: bool, mode: OutputMode, outcome: Outcome, seen: &mut Seen) -> bool {
    let case = format!("{api:?} stream={stream} {mode:?} {outcome:?}");
    let native = match mode {
        OutputMode::Native => true,
        OutputMode::Tool => false,
        _ => api.model("http://127.0.0.1:9", stream).native_output(true),
    };
    let answers: &[&str] = match outcome {
        Outcome::ValidFirstTime => &[VALID],
        Outcome::InvalidThenFixed => &[WRONG_TYPE, VALID],
        Outcome::InvalidUntilTheLimit => &[WRONG_TYPE, "{}", VALID],
    };
    let mut turns = vec![Turn::call(
        "w1",
        "get_weather",
        serde_json::json!({"city": "Paris"}),
    )];
    for (i, answer) in answers.iter().enumerate() {
        turns.push(if native {
            Turn::text(answer)
        } else {
            let args: Value = serde_json::from_str(answer).expect("the answers are JSON");
            Turn::call(&format!("a{i}"), "final_answer", args)
        });
    }
    let fake = Fake::start(api, stream, &turns).await;
    let (registry, weather) = registry();
    let options =
        RunOptions::new().output_spec(OutputSpec::of::<Forecast>().mode(mode).max_retries(1));
    let runner = runner(&fake, registry, options);
    let got: Result<Forecast, RunError> = if stream {
        // The streamed run's typed answer, through the stream's own accessor.
        let mut stream = runner.run_streamed("Weather in Paris?");
        let mut events = Vec::new();
        while let Some(event) = stream.next_event().await {
            events.push(event);
        }
        match last(&events) {
            RunEvent::RunFinished { .. } => Ok(stream
                .output::<Forecast>()
                .unwrap_or_else(|e| panic!("{case}: the typed answer: {}", e.model_text()))),
            RunEvent::RunFailed { error, .. } => {
                assert!(
                    stream.output::<Forecast>().is_err(),
                    "{case}: a failed run has no typed answer"
                );
                Err(error.clone())
            }
            other => panic!("{case}: {other:?}"),
        }
    } else {
        runner
            .run_typed::<Forecast>("Weather in Paris?")
            .await
            .map(|typed| typed.output)
    };
    match (&got, outcome) {
        (Ok(forecast), Outcome::ValidFirstTime | Outcome::InvalidThenFixed) => {
            assert_eq!(forecast, &paris(), "{case}")
        }
        // The final error is the last answer's decoding error, not the retry message.
        (
            Err(RunError::OutputInvalid {
                attempts: 2,
                message,
                ..
            }),
            Outcome::InvalidUntilTheLimit,
        ) => assert_eq!(message, EMPTY_ERROR, "{case}"),
        (other, _) => panic!("{case}: {other:?}"),
    }
    assert_eq!(weather.runs(), 1, "{case}: the run's own tool ran once");

    let bodies = seen.add(&fake).await;
    let answered = if outcome == Outcome::ValidFirstTime {
        1
    } else {
        2
    };
    assert_eq!(bodies.len(), 1 + answered, "{case}: requests sent");
    for body in &bodies {
        assert_eq!(asks_native(api, body), native, "{case}: {body}");
        assert_eq!(offers_final_answer(api, body), !native, "{case}: {body}");
    }
    if answered == 2 {
        // The invalid answer goes back with what is wrong with it, in the words of the way
        // the model answers: no tool is named under native output, where none was offered.
        let retry = text(&bodies[2]);
        let native_retry = format!(
            "Your final answer is not valid: {WRONG_TYPE_ERROR}. Answer again with JSON \
             matching the schema."
        );
        let tool_retry = format!(
            "Your final answer is not valid: {WRONG_TYPE_ERROR}. Call the 'final_answer' tool \
             again with arguments matching its schema."
        );
        let (sent, not_sent) = if native {
            (native_retry, tool_retry)
        } else {
            (tool_retry, native_retry)
        };
        assert!(retry.contains(&escaped(&sent)), "{case}: {retry}");
        assert!(!retry.contains(&escaped(&not_sent)), "{case}: {retry}");
        assert!(
            retry.contains("fifteen"),
            "{case}: the invalid answer is in the history"
        );
    }
    native
}

/// What is wrong with `WRONG_TYPE`, as the retry message and the final error say it.
const WRONG_TYPE_ERROR: &str = r#"at 'temp_c': invalid type: string "fifteen", expected f64"#;
/// What is wrong with `{}`, the last invalid answer of the cells that reach the limit.
const EMPTY_ERROR: &str = "missing field `city` at line 1 column 2";

/// `text` as it appears inside a JSON string of a request body (in text mode the retry is
/// inside the prompt's text, where quotes are escaped too).
fn escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).expect("a string serializes");
    quoted.trim_matches('"').to_string()
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let mut native = false;
    for stream in [true, false] {
        // Native forced: every API but text mode has structured output (Gemini's with tools
        // only when asked for it).
        let modes: &[OutputMode] = if api.is_text_mode() {
            &[OutputMode::Auto, OutputMode::Tool]
        } else {
            &[OutputMode::Auto, OutputMode::Native, OutputMode::Tool]
        };
        for &mode in modes {
            for outcome in [
                Outcome::ValidFirstTime,
                Outcome::InvalidThenFixed,
                Outcome::InvalidUntilTheLimit,
            ] {
                let asked_native = one(api, stream, mode, outcome, &mut seen).await;
                native |= mode == OutputMode::Auto && asked_native;
            }
        }
    }
    seen.saw(if native {
        Verdict::Yes
    } else if api == Api::Gemini {
        Verdict::Fallback("the final-answer tool when tools are offered")
    } else {
        Verdict::Fallback("the final-answer tool")
    })
}
