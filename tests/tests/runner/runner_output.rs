//! Typed final output on the scripted model: native structured output and the final-answer
//! tool, valid at once, invalid then fixed, invalid until the retry limit, with the run's own
//! tools in the same run, streamed, and across storage.

use crate::support::forecast::{paris, Forecast, VALID, WRONG_TYPE};
use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::provider::ToolChoice;
use tool_core::runner::{
    OutputMode, OutputSpec, Run, RunError, RunEvent, RunOptions, RunOutcome, Runner,
};
use tool_core::{block_on, tool, tools, ToolCall, ToolErrorCode};

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(city: String) -> String {
    format!("15 C and light rain in {city}")
}

#[test]
fn native_valid_first_time_sends_the_schema_and_offers_no_extra_tool() {
    let model = ScriptedModel::new([ModelTurn::text(VALID)]).with_native_output();
    let runner = Runner::new(model, tools![get_weather]);
    let result = block_on(runner.run_typed::<Forecast>("Weather in Paris?")).unwrap();
    assert_eq!(result.output, paris());
    let requests = runner.model().requests();
    assert_eq!(requests.len(), 1);
    let output = requests[0].output.as_ref().expect("the schema was sent");
    assert_eq!(output.name, "final_answer");
    assert_eq!(
        output.schema["required"],
        serde_json::json!(["city", "temp_c", "umbrella"])
    );
    assert_eq!(requests[0].tools, ["get_weather"]);
    assert_eq!(requests[0].tool_choice, ToolChoice::Auto);
}

#[test]
fn native_invalid_then_fixed_sends_the_error_back() {
    let model = ScriptedModel::new([ModelTurn::text(WRONG_TYPE), ModelTurn::text(VALID)])
        .with_native_output();
    let runner = Runner::new(model, tools![get_weather]);
    let result = block_on(runner.run_typed::<Forecast>("Weather in Paris?")).unwrap();
    assert_eq!(result.output, paris());
    assert_eq!(result.run.turns(), 2);
    // The invalid answer stays in the history, followed by the error for the model.
    let Message::User { content } = &result.messages()[2] else {
        panic!("{:?}", result.messages()[2]);
    };
    assert!(
        content.starts_with("Your final answer is not valid:"),
        "{content}"
    );
    assert!(content.contains("temp_c"), "{content}");
    assert_eq!(runner.model().requests()[1].messages.len(), 3);
}

#[test]
fn native_invalid_until_the_limit_is_a_typed_error() {
    let model = ScriptedModel::new([
        ModelTurn::text("not json at all"),
        ModelTurn::text(WRONG_TYPE),
        ModelTurn::text("```json\n{\"city\":\"Paris\"}\n```"),
        ModelTurn::text(VALID),
    ])
    .with_native_output();
    let runner = Runner::new(model, tools![get_weather])
        .with_options(RunOptions::new().output_spec(OutputSpec::of::<Forecast>().max_retries(2)));
    let error = block_on(runner.run_typed::<Forecast>("Weather?")).unwrap_err();
    let RunError::OutputInvalid {
        attempts, message, ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(*attempts, 3);
    assert!(message.contains("temp_c"), "{message}");
    assert_eq!(error.kind(), "output_invalid");
    // Three answers, no fourth request.
    assert_eq!(runner.model().requests().len(), 3);
}

#[test]
fn final_answer_tool_with_the_runs_tools_invalid_then_fixed() {
    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "",
            vec![ToolCall::new("c1", "get_weather", r#"{"city":"Paris"}"#)],
        ),
        ModelTurn::with_calls("", vec![ToolCall::new("c2", "final_answer", WRONG_TYPE)]),
        ModelTurn::with_calls("", vec![ToolCall::new("c3", "final_answer", VALID)]),
    ]);
    let runner = Runner::new(model, tools![get_weather])
        .with_options(RunOptions::new().output::<Forecast>());
    let result = block_on(runner.run("Weather in Paris?")).unwrap();
    assert!(matches!(result.outcome, RunOutcome::Output { .. }));
    assert_eq!(result.output::<Forecast>().unwrap(), paris());

    let requests = runner.model().requests();
    assert_eq!(requests.len(), 3);
    for request in &requests {
        assert_eq!(request.tools, ["get_weather", "final_answer"]);
        // The model must call a tool (its own or the answer) until it has answered.
        assert_eq!(request.tool_choice, ToolChoice::Required);
        assert!(request.output.is_none());
    }
    let messages = result.messages();
    // The tool ran; the invalid answer got an INVALID_PARAM result with the error.
    let Message::Tool { results } = &messages[2] else {
        panic!()
    };
    assert_eq!(
        results[0].response.model_text(),
        "15 C and light rain in Paris"
    );
    let Message::Tool { results } = &messages[4] else {
        panic!()
    };
    assert_eq!(results[0].call_id, "c2");
    assert_eq!(
        results[0].response.error_code(),
        Some(ToolErrorCode::InvalidParam)
    );
    assert!(results[0].response.model_text().contains("temp_c"));
    // The final call is answered too, so the conversation can go on with any API.
    let Message::Tool { results } = messages.last().unwrap() else {
        panic!()
    };
    assert_eq!(results[0].call_id, "c3");
}

#[test]
fn final_answer_tool_text_instead_of_a_call_is_sent_back() {
    let model = ScriptedModel::new([
        ModelTurn::text("It is 15 C in Paris."),
        ModelTurn::with_calls("", vec![ToolCall::new("c1", "final_answer", VALID)]),
    ]);
    let runner = Runner::new(model, tools![get_weather]);
    let result = block_on(runner.run_typed::<Forecast>("Weather in Paris?")).unwrap();
    assert_eq!(result.output, paris());
    let Message::User { content } = &result.messages()[2] else {
        panic!()
    };
    assert!(
        content.contains("calling the 'final_answer' tool"),
        "{content}"
    );
}

#[test]
fn final_answer_tool_invalid_until_the_limit() {
    let bad = |id: &str| ModelTurn::with_calls("", vec![ToolCall::new(id, "answer", "{}")]);
    let model = ScriptedModel::new([bad("c1"), bad("c2"), bad("c3")]);
    let spec = OutputSpec::of::<Forecast>()
        .name("answer")
        .mode(OutputMode::Tool)
        .max_retries(1);
    let runner =
        Runner::new(model, tools![get_weather]).with_options(RunOptions::new().output_spec(spec));
    let error = block_on(runner.run("Weather?")).unwrap_err();
    assert!(
        matches!(&error, RunError::OutputInvalid { attempts: 2, message, .. } if message.contains("city")),
        "{error:?}"
    );
    assert_eq!(runner.model().requests().len(), 2);
}

#[test]
fn a_non_object_type_is_wrapped_and_unwrapped() {
    let model = ScriptedModel::new([ModelTurn::with_calls(
        "",
        vec![ToolCall::new(
            "c1",
            "final_answer",
            r#"{"response":["Paris","Tokyo"]}"#,
        )],
    )]);
    let runner = Runner::new(model, tool_core::ToolRegistry::new());
    let result = block_on(runner.run_typed::<Vec<String>>("Two cities")).unwrap();
    assert_eq!(result.output, ["Paris", "Tokyo"]);
}

#[test]
fn streamed_run_ends_with_the_typed_answer() {
    let model = ScriptedModel::new([ModelTurn::text(VALID)]).with_native_output();
    let runner = Runner::new(model, tools![get_weather])
        .with_options(RunOptions::new().output::<Forecast>());
    let events = block_on(runner.run_streamed("Weather?").collect_events());
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(text, VALID);
    let Some(RunEvent::RunFinished { outcome, .. }) = events.last() else {
        panic!("{:?}", events.last());
    };
    let RunOutcome::Output { value } = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(value["temp_c"], 15.0);
}

#[test]
fn a_stored_run_keeps_its_output_and_checks_the_type_again() {
    let registry = tools![get_weather];
    let options =
        RunOptions::new().output_spec(OutputSpec::of::<Forecast>().mode(OutputMode::Native));
    let run = Run::new("Weather?", options);
    let stored = serde_json::to_string(&run).unwrap();
    let mut run: Run = serde_json::from_str(&stored).unwrap();
    run.expect_output::<Forecast>();
    assert!(
        matches!(run.step(&registry).unwrap(), tool_core::runner::Step::CallModel(r) if r.output.is_some())
    );
    run.record_turn(ModelTurn::text(WRONG_TYPE), &registry)
        .unwrap();
    // The type check is back: the wrong type is sent back instead of accepted.
    assert!(matches!(run.messages().last(), Some(Message::User { .. })));
    run.record_turn(ModelTurn::text(VALID), &registry).unwrap();
    let tool_core::runner::Step::Done(RunOutcome::Output { value }) = run.step(&registry).unwrap()
    else {
        panic!()
    };
    assert_eq!(value["city"], "Paris");
    // A typed answer can be followed up like a text one.
    run.follow_up("And tomorrow?").unwrap();
}

#[test]
fn run_typed_that_pauses_for_approval_says_so() {
    /// Deletes a file.
    #[tool(destructive)]
    fn delete_file(path: String) -> String {
        path
    }
    let model = ScriptedModel::new([ModelTurn::with_calls(
        "",
        vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)],
    )]);
    let runner = Runner::new(model, tools![delete_file]);
    let error = block_on(runner.run_typed::<Forecast>("Delete a")).unwrap_err();
    assert!(
        matches!(&error, RunError::NoOutput { reason } if reason.contains("approval")),
        "{error:?}"
    );
}

#[test]
fn a_streamed_typed_run_gives_its_answer_as_the_type() {
    let model = ScriptedModel::new([ModelTurn::text(VALID)]).with_native_output();
    let runner = Runner::new(model, tools![get_weather])
        .with_options(RunOptions::new().output::<Forecast>());
    let mut stream = runner.run_streamed("Weather?");
    let early = stream.output::<Forecast>().unwrap_err();
    assert_eq!(
        early.error_message(),
        Some("the run has no typed answer yet: read the stream to its last event first")
    );
    block_on(async { while stream.next_event().await.is_some() {} });
    assert_eq!(stream.output::<Forecast>().unwrap(), paris());
    // The wrong type is an error, as with `RunResult::output`.
    let wrong = stream.output::<Vec<u8>>().unwrap_err();
    assert_eq!(wrong.error_code(), Some(ToolErrorCode::InvalidParam));
}

#[test]
fn a_streamed_run_that_failed_has_no_typed_answer() {
    let model = ScriptedModel::new([ModelTurn::text("{}")]).with_native_output();
    let spec = OutputSpec::of::<Forecast>().max_retries(0);
    let runner =
        Runner::new(model, tools![get_weather]).with_options(RunOptions::new().output_spec(spec));
    let mut stream = runner.run_streamed("Weather?");
    block_on(async { while stream.next_event().await.is_some() {} });
    let error = stream.output::<Forecast>().unwrap_err();
    assert_eq!(error.error_code(), Some(ToolErrorCode::NotFound));
    assert_eq!(
        error.error_message(),
        Some(
            "the run has no typed answer: it failed (the model gave 1 invalid final answers; \
             the last: missing field `city` at line 1 column 2; raise OutputSpec::max_retries \
             or simplify the output type)"
        )
    );
}

/// The wrong type's decoding error, as the run reports it: what was wrong and where.
const WRONG_TYPE_ERROR: &str = r#"at 'temp_c': invalid type: string "fifteen", expected f64"#;

#[test]
fn native_retry_names_no_tool_and_the_final_error_is_the_decoding_error() {
    let model = ScriptedModel::new([ModelTurn::text(WRONG_TYPE), ModelTurn::text(WRONG_TYPE)])
        .with_native_output();
    let spec = OutputSpec::of::<Forecast>().max_retries(1);
    let runner =
        Runner::new(model, tools![get_weather]).with_options(RunOptions::new().output_spec(spec));
    let error = block_on(runner.run_typed::<Forecast>("Weather?")).unwrap_err();
    let requests = runner.model().requests();
    let Some(Message::User { content }) = requests[1].messages.last() else {
        panic!("{:?}", requests[1].messages);
    };
    assert_eq!(
        content,
        &format!(
            "Your final answer is not valid: {WRONG_TYPE_ERROR}. Answer again with JSON \
             matching the schema."
        )
    );
    assert!(!content.contains("final_answer"), "{content}");
    let RunError::OutputInvalid {
        attempts, message, ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!((*attempts, message.as_str()), (2, WRONG_TYPE_ERROR));
    assert_eq!(
        error.to_string(),
        format!(
            "the model gave 2 invalid final answers; the last: {WRONG_TYPE_ERROR}; raise \
             OutputSpec::max_retries or simplify the output type"
        )
    );
}

#[test]
fn tool_retry_names_the_tool_and_the_final_error_is_the_decoding_error() {
    let bad =
        |id: &str| ModelTurn::with_calls("", vec![ToolCall::new(id, "final_answer", WRONG_TYPE)]);
    let model = ScriptedModel::new([bad("c1"), bad("c2")]);
    let spec = OutputSpec::of::<Forecast>()
        .mode(OutputMode::Tool)
        .max_retries(1);
    let runner =
        Runner::new(model, tools![get_weather]).with_options(RunOptions::new().output_spec(spec));
    let error = block_on(runner.run("Weather?")).unwrap_err();
    let requests = runner.model().requests();
    let Some(Message::Tool { results }) = requests[1].messages.last() else {
        panic!("{:?}", requests[1].messages);
    };
    assert_eq!(
        results[0].response.error_message(),
        Some(
            format!(
                "Your final answer is not valid: {WRONG_TYPE_ERROR}. Call the 'final_answer' \
                 tool again with arguments matching its schema."
            )
            .as_str()
        )
    );
    assert!(
        matches!(&error, RunError::OutputInvalid { attempts: 2, message, .. } if message == WRONG_TYPE_ERROR),
        "{error:?}"
    );
}

#[test]
fn text_instead_of_the_final_answer_call_fails_with_what_was_wrong() {
    let model = ScriptedModel::new([ModelTurn::text("It is 15 C.")]);
    let spec = OutputSpec::of::<Forecast>()
        .mode(OutputMode::Tool)
        .max_retries(0);
    let runner =
        Runner::new(model, tools![get_weather]).with_options(RunOptions::new().output_spec(spec));
    let error = block_on(runner.run("Weather?")).unwrap_err();
    assert!(
        matches!(&error, RunError::OutputInvalid { attempts: 1, message, .. }
            if message == "the answer was text, not a call of the 'final_answer' tool"),
        "{error:?}"
    );
}
