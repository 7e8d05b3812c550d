//! Workers: the workflow and its activities registered on a task queue.

use std::sync::Arc;

use temporalio_sdk::{WorkerOptions, WorkerOptionsBuilder, WorkflowRegistrationError};

use crate::activities::AgentActivities;
use crate::agent::DurableAgent;
use crate::workflow::AgentWorkflow;

/// Options for a Temporal worker that runs `agent`'s workflow and activities on
/// `task_queue`; adjust what the SDK's builder offers (slots, pollers, identity) before
/// building them. Run as many workers as you like on one queue: each run's steps spread over
/// them.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use temporalio_client::{Client, ClientOptions, Connection, ConnectionOptions, Url};
/// use temporalio_sdk::{Runtime, Worker};
/// use tool_core::model::OpenAiChat;
/// use tool_core_temporal::{worker_options, DurableAgent};
///
/// let agent = Arc::new(DurableAgent::new(OpenAiChat::new("gpt-4o-mini"), tool_core::ToolRegistry::new()));
/// let runtime = Runtime::from_current_tokio(Default::default())?;
/// let connection = Connection::connect(ConnectionOptions::new(Url::parse("http://127.0.0.1:7233")?).build()).await?;
/// let client = Client::new(connection, ClientOptions::new("default").build())?;
/// let options = worker_options("agents", agent)?.build();
/// Worker::new(&runtime, client, options)?.run().await?;
/// # Ok(()) }
/// ```
pub fn worker_options(
    task_queue: &str,
    agent: Arc<DurableAgent>,
) -> Result<WorkerOptionsBuilder, WorkflowRegistrationError> {
    let for_workflows = Arc::clone(&agent);
    WorkerOptions::new(task_queue)
        .register_activities(AgentActivities::new(agent))
        .register_workflow_with_factory::<AgentWorkflow, _>(move || {
            AgentWorkflow::new(Arc::clone(&for_workflows))
        })
}
