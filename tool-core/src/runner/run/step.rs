//! What a run asks of its caller next ([`Step`], [`ToolBatch`]) and how it ended
//! ([`RunOutcome`]).

use serde::{Deserialize, Serialize};

use crate::call::ToolCall;
use crate::model::{ModelRequest, ToolResult};
#[cfg(doc)]
use crate::runner::{Run, RunOptions};

/// How a run ended (or paused).
///
/// ```
/// let o = tool_core::runner::RunOutcome::Finished { text: "Done.".into() };
/// assert_eq!(serde_json::to_string(&o).unwrap(), r#"{"type":"finished","text":"Done."}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunOutcome {
    /// The model answered without calling a tool.
    Finished {
        /// The final answer.
        text: String,
    },
    /// The model gave the typed answer asked for with [`RunOptions::output`] (as a JSON
    /// value, checked against the type; decode it with
    /// [`RunResult::output`](crate::runner::RunResult::output)).
    Output {
        /// The answer.
        value: serde_json::Value,
    },
    /// The model called the [`RunOptions::stop_at_tool`] tool; it was not run.
    StoppedAtTool {
        /// The call, with the arguments as the model wrote them.
        call: ToolCall,
    },
    /// Calls wait for approval: decide each with [`Run::decide`], then resume the run.
    AwaitingApproval {
        /// The calls waiting, in call order.
        calls: Vec<ToolCall>,
    },
    /// The application cancelled the run; it stopped after the step in progress.
    Cancelled,
}

/// What the caller of [`Run::step`] must do next.
///
/// ```
/// use tool_core::runner::{Run, RunOptions, Step};
/// let registry = tool_core::ToolRegistry::new();
/// let mut run = Run::new("Hello", RunOptions::new().instructions("Be brief."));
/// let Step::CallModel(request) = run.step(&registry).unwrap() else { panic!() };
/// assert_eq!(request.instructions, Some("Be brief."));
/// assert_eq!(request.messages.len(), 1);
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Step<'a> {
    /// Send this request to the model, then report the turn with [`Run::record_turn`].
    CallModel(ModelRequest<'a>),
    /// Run these calls, then report one response per call, in order, with
    /// [`Run::record_results`].
    RunTools(ToolBatch<'a>),
    /// These calls wait for approval: call [`Run::decide`] for each (possibly after storing
    /// the run and restoring it later), then step again.
    AwaitApproval(Vec<&'a ToolCall>),
    /// The run is over.
    Done(&'a RunOutcome),
}

/// The calls of one turn to run now.
///
/// ```
/// use tool_core::model::ModelTurn;
/// use tool_core::runner::{Run, RunOptions, Step};
/// use tool_core::{tool, tools, ToolCall};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let registry = tools![hi];
/// let mut run = Run::new("Hello", RunOptions::new().max_concurrency(2));
/// let calls = vec![ToolCall::new("c1", "hi", "{}"), ToolCall::new("c2", "hi", "{}")];
/// run.record_turn(ModelTurn::with_calls("", calls), &registry).unwrap();
/// let Step::RunTools(batch) = run.step(&registry).unwrap() else { panic!() };
/// assert_eq!((batch.calls.len(), batch.max_concurrency), (2, Some(2)));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ToolBatch<'a> {
    /// The calls to dispatch, in call order (denied calls are not among them).
    pub calls: &'a [ToolCall],
    /// Ids of calls a person approved: dispatch them with an approval hook that lets them
    /// through (the registry's own hook would review them again).
    pub approved: &'a [String],
    /// Results already written, of calls not in `calls`: denied calls, an invalid final
    /// answer, calls that ran before the run paused for approval. The run adds them in call
    /// order itself.
    pub denied: &'a [ToolResult],
    /// The tools offered this turn (`None`: all), for
    /// [`CallOptions::offer`](crate::CallOptions::offer).
    pub offered: Option<&'a [String]>,
    /// At most this many calls at the same time.
    pub max_concurrency: Option<usize>,
}
