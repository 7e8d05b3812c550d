//! [`RunResult`]: what [`Runner::run`](super::Runner::run) returns.

use serde::de::DeserializeOwned;

use crate::args::decode_arguments;
use crate::call::ToolCall;
use crate::model::{Message, Usage};
use crate::response::{ToolErrorCode, ToolResponse};

use super::error::RunError;
use super::run::{Run, RunOutcome};

/// How a run ended, with the run itself (conversation, usage, and the state to resume from
/// when it paused for approval).
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::runner::{RunOutcome, Runner};
/// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
/// let result = tool_core::block_on(runner.run("Hello")).unwrap();
/// assert_eq!(result.outcome, RunOutcome::Finished { text: "Hi!".into() });
/// assert_eq!(result.messages().len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct RunResult {
    /// How the run ended (or paused).
    pub outcome: RunOutcome,
    /// The run: store it to resume after approvals, or continue the conversation.
    pub run: Run,
}

impl RunResult {
    /// The final answer, when the run finished with one.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// assert_eq!(tool_core::block_on(runner.run("Hello")).unwrap().text(), Some("Hi!"));
    /// ```
    pub fn text(&self) -> Option<&str> {
        match &self.outcome {
            RunOutcome::Finished { text } => Some(text),
            _ => None,
        }
    }

    /// The final answer, or why there is none: a run paused for approval is
    /// [`RunError::AwaitingApproval`] (never an empty answer), and a run that stopped at a tool
    /// or was cancelled is [`RunError::OutOfOrder`]. Made for `?`.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunError, Runner};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { path }
    /// let model = ScriptedModel::new([
    ///     ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)]),
    /// ]);
    /// let result = tool_core::block_on(Runner::new(model, tools![delete_file]).run("Delete a")).unwrap();
    /// let error = result.final_text().unwrap_err();
    /// assert!(matches!(error, RunError::AwaitingApproval { ref calls } if calls[0].id == "c1"));
    /// assert!(error.to_string().contains("wait for approval (delete_file)"));
    ///
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("")]), tool_core::ToolRegistry::new());
    /// assert_eq!(tool_core::block_on(runner.run("Say nothing")).unwrap().final_text().unwrap(), "");
    /// ```
    pub fn final_text(&self) -> Result<&str, RunError> {
        match &self.outcome {
            RunOutcome::Finished { text } => Ok(text),
            RunOutcome::AwaitingApproval { calls } => Err(RunError::AwaitingApproval {
                calls: calls.clone(),
            }),
            RunOutcome::StoppedAtTool { .. } => Err(RunError::OutOfOrder {
                given: "a request for the final text",
                expected: "RunResult::output (the run stopped at a tool)",
            }),
            _ => Err(RunError::OutOfOrder {
                given: "a request for the final text",
                expected: "nothing (the run was cancelled)",
            }),
        }
    }

    /// Whether the run is paused for approval (not finished: see
    /// [`RunResult::pending_approvals`]).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// assert!(!tool_core::block_on(runner.run("Hello")).unwrap().is_paused());
    /// ```
    pub fn is_paused(&self) -> bool {
        matches!(self.outcome, RunOutcome::AwaitingApproval { .. })
    }

    /// The typed answer of a run with [`RunOptions::output`](super::RunOptions::output), or
    /// the arguments of the [`RunOptions::stop_at_tool`](super::RunOptions::stop_at_tool)
    /// call, decoded into `T`. The error is a
    /// `ToolResponse` saying what was wrong, fit to show the model if the application retries.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::provider::ToolChoice;
    /// use tool_core::runner::{RunOptions, Runner};
    /// use tool_core::{tool, tools, ToolCall};
    ///
    /// #[tool_core::tool_type]
    /// struct Card { title: String, score: f64 }
    ///
    /// /// Shows cards to the user.
    /// #[tool]
    /// fn show_card(card: Card) -> String { card.title }
    ///
    /// let model = ScriptedModel::new([ModelTurn::with_calls("", vec![
    ///     ToolCall::new("c1", "show_card", r#"{"card":{"title":"Dune","score":0.9}}"#)])]);
    /// let runner = Runner::new(model, tools![show_card]).with_options(
    ///     RunOptions::new().tool_choice(ToolChoice::tool("show_card")).stop_at_tool("show_card"));
    /// let result = tool_core::block_on(runner.run("Recommend a book")).unwrap();
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Args { card: Card }
    /// let args: Args = result.output().unwrap();
    /// assert_eq!(args.card.title, "Dune");
    /// ```
    #[allow(clippy::result_large_err)]
    pub fn output<T: DeserializeOwned>(&self) -> Result<T, ToolResponse> {
        decode_output(&self.outcome)
    }

    /// The calls waiting for approval (empty unless the run paused for them).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { path }
    /// let model = ScriptedModel::new([ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)])]);
    /// let result = tool_core::block_on(Runner::new(model, tools![delete_file]).run("Delete a")).unwrap();
    /// assert_eq!(result.pending_approvals()[0].name, "delete_file");
    /// assert_eq!(result.text(), None);
    /// ```
    pub fn pending_approvals(&self) -> &[ToolCall] {
        match &self.outcome {
            RunOutcome::AwaitingApproval { calls } => calls,
            _ => &[],
        }
    }

    /// The conversation.
    ///
    /// ```
    /// use tool_core::model::{Message, ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let result = tool_core::block_on(runner.run("Hello")).unwrap();
    /// assert_eq!(result.messages()[0], Message::user("Hello"));
    /// assert!(matches!(&result.messages()[1], Message::Assistant(turn) if turn.text == "Hi!"));
    /// ```
    pub fn messages(&self) -> &[Message] {
        self.run.messages()
    }

    /// Tokens of the whole run.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel, Usage};
    /// use tool_core::runner::Runner;
    /// let turn = ModelTurn { usage: Some(Usage::new(12, 3)), ..ModelTurn::text("Hi!") };
    /// let runner = Runner::new(ScriptedModel::new([turn]), tool_core::ToolRegistry::new());
    /// assert_eq!(tool_core::block_on(runner.run("Hello")).unwrap().usage().total(), 15);
    /// ```
    pub fn usage(&self) -> Usage {
        self.run.usage()
    }

    /// The run, to resume or continue.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let mut run = tool_core::block_on(runner.run("Hello")).unwrap().into_run();
    /// run.follow_up("Thanks").unwrap(); // continue the conversation
    /// assert_eq!(run.messages().len(), 3);
    /// ```
    pub fn into_run(self) -> Run {
        self.run
    }
}

/// The typed answer (or the stop-at-tool call's arguments) of `outcome`, decoded into `T`:
/// what [`RunResult::output`] and [`RunStream::output`](super::RunStream::output) answer.
#[allow(clippy::result_large_err)]
pub(crate) fn decode_output<T: DeserializeOwned>(outcome: &RunOutcome) -> Result<T, ToolResponse> {
    match outcome {
        RunOutcome::StoppedAtTool { call } => decode_arguments(&call.name, &call.arguments),
        RunOutcome::Output { value } => serde_json::from_value(value.clone()).map_err(|error| {
            ToolResponse::error(
                ToolErrorCode::InvalidParam,
                format!("the typed answer does not decode into the requested type: {error}"),
            )
        }),
        other => Err(ToolResponse::error(
            ToolErrorCode::NotFound,
            format!(
                "the run has no typed answer ({}); set RunOptions::output, or \
                 RunOptions::stop_at_tool and force the tool with ToolChoice::Tool",
                outcome_name(other)
            ),
        )),
    }
}

pub(crate) fn outcome_name(outcome: &RunOutcome) -> &'static str {
    match outcome {
        RunOutcome::Finished { .. } => "it finished with text",
        RunOutcome::StoppedAtTool { .. } => "it stopped at a tool",
        RunOutcome::Output { .. } => "it gave its typed answer",
        RunOutcome::AwaitingApproval { .. } => "it waits for approval",
        RunOutcome::Cancelled => "it was cancelled",
    }
}
