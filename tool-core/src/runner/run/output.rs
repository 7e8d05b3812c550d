//! The run's side of typed final output: which way the model is asked, reading its answer,
//! and sending an invalid one back.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::definition::ToolDefinition;
use crate::model::{JsonOutput, Message, ModelTurn, ToolResult};
use crate::provider::ToolChoice;
use crate::registry::ToolRegistry;
use crate::response::ToolResponse;

use super::super::error::RunError;
use super::super::output::{
    call_the_tool, native_retry, not_called, tool_retry, OutputMode, OutputSpec,
};
use super::Run;

static REQUIRED: ToolChoice = ToolChoice::Required;

/// Where a run with typed output stands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct OutputState {
    /// The way chosen for this run (`true`: native structured output), once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    native: Option<bool>,
    /// Invalid answers so far.
    #[serde(default)]
    retries: u32,
    /// What was wrong with the last one (the decoding error, not the message to the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_error: Option<String>,
}

impl OutputState {
    pub(super) fn is_idle(&self) -> bool {
        *self == OutputState::default()
    }
}

/// What a finished turn says about the typed answer.
pub(super) enum OutputRead {
    /// Nothing: an ordinary turn (calls of the run's tools), or no typed output asked for.
    None,
    /// The answer, valid.
    Valid(Value),
    /// An answer in the text (or text where a call was expected) that must be redone:
    /// the message for the model, and what was wrong.
    Retry { message: String, error: String },
    /// The final-answer call at this position is invalid; the turn's other calls run.
    InvalidCall {
        position: usize,
        message: String,
        error: String,
    },
}

impl Run {
    /// Names the type of the typed answer again, after the run was restored from storage
    /// (the schema, mode and retry count are stored; the check of the type is not).
    ///
    /// ```
    /// use tool_core::runner::{Run, RunOptions};
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct City { name: String }
    /// let run = Run::new("Capital of France?", RunOptions::new().output::<City>());
    /// let stored = serde_json::to_string(&run).unwrap();
    /// let mut restored: Run = serde_json::from_str(&stored).unwrap();
    /// restored.expect_output::<City>();
    /// assert_eq!(restored.options().output, run.options().output);
    /// ```
    pub fn expect_output<T: DeserializeOwned + JsonSchema>(&mut self) {
        if let Some(spec) = self.options.output.as_mut() {
            spec.set_type::<T>();
        } else {
            self.options.output = Some(OutputSpec::of::<T>());
        }
    }

    /// Chooses native structured output or the final-answer tool for an
    /// [`OutputMode::Auto`] run, once: `native(with_tools)` says whether the model has it.
    pub(crate) fn choose_output(&mut self, registry: &ToolRegistry, native: impl Fn(bool) -> bool) {
        let Some(spec) = &self.options.output else {
            return;
        };
        if self.output.native.is_some() {
            return;
        }
        let with_tools = match &self.options.offered {
            Some(names) => !names.is_empty(),
            None => !registry.definitions().is_empty(),
        };
        self.output.native = Some(match spec.mode {
            OutputMode::Native => true,
            OutputMode::Tool => false,
            // Not known yet: a run driven by hand (no model to ask) uses the tool.
            _ => native(with_tools),
        });
    }

    /// The typed answer asked for through native structured output, if so.
    pub(super) fn native_format(&self) -> Option<&JsonOutput> {
        let spec = self.options.output.as_ref()?;
        self.native_output().then_some(&spec.format)
    }

    fn native_output(&self) -> bool {
        match (&self.options.output, self.output.native) {
            (None, _) => false,
            (Some(_), Some(native)) => native,
            (Some(spec), None) => spec.mode == OutputMode::Native,
        }
    }

    pub(super) fn output_tool(&self) -> Option<&OutputSpec> {
        self.options
            .output
            .as_ref()
            .filter(|_| !self.native_output())
    }

    /// The tools of the next request with the final-answer tool added, when it is used.
    pub(super) fn prepare_output_tools(&mut self, registry: &ToolRegistry) {
        if self.output_tools.is_some() {
            return;
        }
        let Some(spec) = self.output_tool() else {
            return;
        };
        let mut tools: Vec<ToolDefinition> = match &self.offered {
            Some(definitions) => definitions.clone(),
            None => registry.definitions().to_vec(),
        };
        tools.push(spec.tool());
        self.output_tools = Some(tools);
    }

    /// The next request's `tool_choice`: a call is required while the final-answer tool waits
    /// for its call (the model answers by calling it, not in text).
    pub(super) fn request_tool_choice(&self) -> &ToolChoice {
        if self.output_tool().is_some() && self.tool_choice == ToolChoice::Auto {
            &REQUIRED
        } else {
            &self.tool_choice
        }
    }

    /// Too many invalid answers: the error to end the run with.
    pub(super) fn output_exhausted(&self) -> Option<RunError> {
        let spec = self.options.output.as_ref()?;
        (self.output.retries > spec.max_retries).then(|| RunError::OutputInvalid {
            attempts: self.output.retries,
            message: self.output.last_error.clone().unwrap_or_default(),
            usage: self.usage,
        })
    }

    /// Reads the typed answer from a finished turn.
    pub(super) fn read_output(&self, turn: &ModelTurn) -> OutputRead {
        let Some(spec) = &self.options.output else {
            return OutputRead::None;
        };
        if self.native_output() {
            if !turn.calls.is_empty() {
                return OutputRead::None;
            }
            return match spec.check(&turn.text) {
                Ok(value) => OutputRead::Valid(value),
                Err(error) => OutputRead::Retry {
                    message: native_retry(&error),
                    error,
                },
            };
        }
        let name = &spec.format.name;
        match turn.calls.iter().position(|call| call.name == *name) {
            Some(position) => {
                let arguments = turn
                    .calls
                    .get(position)
                    .map_or("", |call| call.arguments.as_str());
                match spec.check(arguments) {
                    Ok(value) => OutputRead::Valid(value),
                    Err(error) => OutputRead::InvalidCall {
                        position,
                        message: tool_retry(name, &error),
                        error,
                    },
                }
            }
            None if turn.calls.is_empty() => OutputRead::Retry {
                message: call_the_tool(name),
                error: not_called(name),
            },
            None => OutputRead::None,
        }
    }

    /// A new question gets the full number of retries again.
    pub(super) fn reset_output_retries(&mut self) {
        self.output.retries = 0;
        self.output.last_error = None;
    }

    /// Counts an invalid answer; `error` is what was wrong with it.
    pub(super) fn count_invalid(&mut self, error: String) {
        self.output.retries += 1;
        self.output.last_error = Some(error);
    }

    /// After a valid answer: the run's conversation stays one any API accepts later (every
    /// call of the last turn answered), then the run is over.
    pub(super) fn close_output_turn(&mut self, turn: ModelTurn) {
        let name = self.options.output.as_ref().map(|s| s.format.name.clone());
        let results: Vec<ToolResult> = turn
            .calls
            .iter()
            .map(|call| {
                let response = if Some(&call.name) == name.as_ref() {
                    ToolResponse::success("Final answer received.")
                } else {
                    ToolResponse::error(
                        crate::response::ToolErrorCode::Unknown,
                        "Not run: the final answer ended the run.",
                    )
                };
                ToolResult::new(call.id.clone(), call.name.clone(), response)
            })
            .collect();
        self.messages.push(Message::Assistant(turn));
        if !results.is_empty() {
            self.messages.push(Message::Tool { results });
        }
    }
}
