//! [`Runner::run_typed`] and what it returns, [`TypedResult`].

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use crate::model::{Message, Model, Usage};

use super::driver::Runner;
use super::error::RunError;
use super::output::OutputSpec;
use super::result::outcome_name;
use super::run::{Run, RunOutcome};

/// A run that ended with its typed answer: [`Runner::run_typed`](super::Runner::run_typed).
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::runner::Runner;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct City { name: String, country: String }
///
/// let model = ScriptedModel::new([ModelTurn::text(r#"{"name":"Paris","country":"France"}"#)]).with_native_output();
/// let runner = Runner::new(model, tool_core::ToolRegistry::new());
/// let result = tool_core::block_on(runner.run_typed::<City>("Capital of France?")).unwrap();
/// assert_eq!((result.output.name.as_str(), result.output.country.as_str()), ("Paris", "France"));
/// assert_eq!(result.messages().len(), 2);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TypedResult<T> {
    /// The answer.
    pub output: T,
    /// The run: conversation, usage; continue it with [`Run::follow_up`].
    pub run: Run,
}

impl<T> TypedResult<T> {
    /// The conversation.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let model = ScriptedModel::new([ModelTurn::text(r#"{"response":[1,2]}"#)]).with_native_output();
    /// let result = tool_core::block_on(Runner::new(model, tool_core::ToolRegistry::new()).run_typed::<Vec<u8>>("Two numbers")).unwrap();
    /// assert_eq!(result.output, [1, 2]);
    /// assert_eq!(result.messages()[0], tool_core::model::Message::user("Two numbers"));
    /// ```
    pub fn messages(&self) -> &[Message] {
        self.run.messages()
    }

    /// Tokens of the whole run.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel, Usage};
    /// use tool_core::runner::Runner;
    /// let turn = ModelTurn { usage: Some(Usage::new(10, 2)), ..ModelTurn::text(r#"{"response":true}"#) };
    /// let model = ScriptedModel::new([turn]).with_native_output();
    /// let result = tool_core::block_on(Runner::new(model, tool_core::ToolRegistry::new()).run_typed::<bool>("Yes?")).unwrap();
    /// assert_eq!(result.usage().total(), 12);
    /// ```
    pub fn usage(&self) -> Usage {
        self.run.usage()
    }
}

impl<M: Model> Runner<M> {
    /// Runs the loop to a typed answer: the run ends with a `T` instead of text (see
    /// [`RunOptions::output`](super::RunOptions::output), whose retries and mode apply; this runner's other options
    /// too). A run that pauses for approval or is cancelled ends in
    /// [`RunError::NoOutput`]; drive such runs with [`Runner::run`] and
    /// `RunOptions::output` instead, which keeps them resumable.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunError, Runner};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Sum { total: i64 }
    ///
    /// // The first answer is not a `Sum`: it goes back to the model with the error.
    /// let model = ScriptedModel::new([ModelTurn::text(r#"{"total":"five"}"#), ModelTurn::text(r#"{"total":5}"#)])
    ///     .with_native_output();
    /// let runner = Runner::new(model, tool_core::ToolRegistry::new());
    /// let result = tool_core::block_on(runner.run_typed::<Sum>("2 + 3?")).unwrap();
    /// assert_eq!(result.output.total, 5);
    /// assert_eq!(result.run.turns(), 2);
    /// ```
    pub async fn run_typed<T>(&self, input: impl Into<String>) -> Result<TypedResult<T>, RunError>
    where
        T: DeserializeOwned + JsonSchema,
    {
        let mut options = self.options().clone();
        options.output = Some(match options.output.take() {
            Some(mut spec) => {
                spec.set_type::<T>();
                spec
            }
            None => OutputSpec::of::<T>(),
        });
        let result = self.resume(Run::new(input, options)).await?;
        match result.outcome {
            RunOutcome::Output { value } => match serde_json::from_value(value) {
                Ok(output) => Ok(TypedResult {
                    output,
                    run: result.run,
                }),
                Err(error) => Err(RunError::OutputInvalid {
                    attempts: 0,
                    message: error.to_string(),
                    usage: result.run.usage(),
                }),
            },
            other => Err(RunError::NoOutput {
                reason: outcome_name(&other).to_string(),
            }),
        }
    }
}
