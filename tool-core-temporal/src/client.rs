//! [`DurableClient`]: start durable runs, ask where they stand, approve or deny their calls,
//! cancel them.

use std::collections::VecDeque;
use std::str::FromStr;
use std::time::Duration;

use serde_json::Value;

use temporalio_client::{
    Client, ClientOptions, Connection, ConnectionOptions, Url, WorkflowCancelOptions,
    WorkflowDescribeOptions, WorkflowExecutionStatus, WorkflowGetResultOptions,
    WorkflowQueryOptions, WorkflowSignalOptions, WorkflowStartOptions,
};

use temporalio_client::errors::WorkflowGetResultError;
use temporalio_common::error::IncomingError;

use crate::events::EventPage;
use crate::status::{Decision, RunState, RunStatus};
use crate::workflow::{AgentInput, AgentOutput, AgentWorkflow, FailedRun};

/// An error of the client: it could not reach the server, or the server refused.
pub type ClientError = Box<dyn std::error::Error + Send + Sync>;

/// A connection to a Temporal server for starting and steering durable runs.
///
/// ```no_run
/// # async fn demo() -> Result<(), tool_core_temporal::ClientError> {
/// use tool_core_temporal::{Decision, DurableClient};
/// let client = DurableClient::connect("127.0.0.1:7233", "default").await?;
/// client.start("agents", "run-1", "Pay the invoice").await?;
/// let status = client.status("run-1").await?;
/// if let Some(call) = status.pending_approvals.first() {
///     client.decide("run-1", Decision::allow(call.clone())).await?;
/// }
/// println!("{}", serde_json::to_string(&client.wait("run-1").await?)?);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct DurableClient {
    client: Client,
}

impl std::fmt::Debug for DurableClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DurableClient").finish_non_exhaustive()
    }
}

/// How long `status` waits for a worker to answer its query before it says so.
const QUERY_TIMEOUT: Duration = Duration::from_secs(20);

impl DurableClient {
    /// Connects to the server at `address` (`HOST:PORT`, or a URL) in `namespace`.
    pub async fn connect(address: &str, namespace: &str) -> Result<Self, ClientError> {
        let url = if address.contains("://") {
            Url::from_str(address)?
        } else {
            Url::from_str(&format!("http://{address}"))?
        };
        let connection = Connection::connect(ConnectionOptions::new(url).build()).await?;
        let client = Client::new(connection, ClientOptions::new(namespace).build())?;
        Ok(DurableClient { client })
    }

    /// The SDK's client, for what this type does not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Starts a run of `prompt` as workflow `id` on `task_queue`.
    pub async fn start(&self, task_queue: &str, id: &str, prompt: &str) -> Result<(), ClientError> {
        self.client
            .start_workflow(
                AgentWorkflow::run,
                AgentInput::new(prompt),
                WorkflowStartOptions::new(task_queue, id).build(),
            )
            .await?;
        Ok(())
    }

    /// Waits until run `id` ends; how it ended, as [`DurableClient::status`] tells it.
    pub async fn wait(&self, id: &str) -> Result<RunStatus, ClientError> {
        let handle = self.client.get_workflow_handle::<AgentWorkflow>(id);
        let result = handle.get_result(WorkflowGetResultOptions::default()).await;
        Ok(ended(id, result))
    }

    /// Waits until run `id` ends and returns its workflow's result: the outcome, the turns
    /// and the tokens spent (a failed or cancelled run is an error naming why).
    pub async fn output(&self, id: &str) -> Result<AgentOutput, ClientError> {
        let handle = self.client.get_workflow_handle::<AgentWorkflow>(id);
        Ok(handle
            .get_result(WorkflowGetResultOptions::default())
            .await?)
    }

    /// Where run `id` stands. A run in progress is asked with the workflow's `status` query,
    /// which a worker of its task queue answers; an ended one is read from the server.
    pub async fn status(&self, id: &str) -> Result<RunStatus, ClientError> {
        let handle = self.client.get_workflow_handle::<AgentWorkflow>(id);
        let description = handle.describe(WorkflowDescribeOptions::default()).await?;
        match description.status() {
            WorkflowExecutionStatus::Running | WorkflowExecutionStatus::Paused => {
                let query =
                    handle.query(AgentWorkflow::status, (), WorkflowQueryOptions::default());
                let status = tokio::time::timeout(QUERY_TIMEOUT, query)
                    .await
                    .map_err(|_| {
                        format!(
                            "no worker answered the status query of run '{id}' within {}s: start a worker on its task queue",
                            QUERY_TIMEOUT.as_secs()
                        )
                    })??;
                Ok(RunStatus {
                    id: id.to_string(),
                    state: status.state,
                    pending_approvals: status.pending_approvals,
                    answer: None,
                    error: None,
                    turns: status.turns,
                    usage: status.usage,
                })
            }
            _ => self.wait(id).await,
        }
    }

    /// The events of run `id` from index `from` on: the [`RunEvent`](tool_core::runner::RunEvent)s
    /// a local run streams, each turn's text, reasoning and arguments whole (their deltas go
    /// to the worker's [`DurableAgent::with_event_sink`](crate::DurableAgent::with_event_sink)),
    /// ending with `run_finished` or `run_failed`. Ask again from [`EventPage::next`] until
    /// [`EventPage::ended`]. It is the workflow's `events` query, answered by a worker of the
    /// run's task queue, for a run in progress or ended.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), tool_core_temporal::ClientError> {
    /// let client = tool_core_temporal::DurableClient::connect("127.0.0.1:7233", "default").await?;
    /// let mut from = 0;
    /// loop {
    ///     let page = client.events("run-1", from).await?;
    ///     for event in &page.events {
    ///         println!("{event}"); // e.g. forward it as a server-sent event
    ///     }
    ///     from = page.next;
    ///     if page.ended { break; }
    ///     tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn events(&self, id: &str, from: usize) -> Result<EventPage, ClientError> {
        let handle = self.client.get_workflow_handle::<AgentWorkflow>(id);
        let query = handle.query(AgentWorkflow::events, from, WorkflowQueryOptions::default());
        let page = tokio::time::timeout(QUERY_TIMEOUT, query)
            .await
            .map_err(|_| {
                format!(
                    "no worker answered the events query of run '{id}' within {}s: start a worker on its task queue",
                    QUERY_TIMEOUT.as_secs()
                )
            })??;
        Ok(page)
    }

    /// The events of run `id` from index `from` on, as a stream that asks
    /// [`DurableClient::events`] again every `every` until the run has ended, and ends after
    /// its last event (`run_finished` or `run_failed`). A query that fails is the stream's
    /// last item.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), tool_core_temporal::ClientError> {
    /// use futures::StreamExt;
    /// let client = tool_core_temporal::DurableClient::connect("127.0.0.1:7233", "default").await?;
    /// let events = client.follow("run-1", 0, std::time::Duration::from_millis(500));
    /// let mut events = std::pin::pin!(events);
    /// while let Some(event) = events.next().await {
    ///     println!("{}", event?); // e.g. forward it as a server-sent event
    /// }
    /// # Ok(()) }
    /// ```
    pub fn follow(
        &self,
        id: &str,
        from: usize,
        every: Duration,
    ) -> impl futures::Stream<Item = Result<Value, ClientError>> + Send + 'static {
        struct Follow {
            client: DurableClient,
            id: String,
            next: usize,
            ready: VecDeque<Value>,
            asked: bool,
            done: bool,
        }
        let state = Follow {
            client: self.clone(),
            id: id.to_string(),
            next: from,
            ready: VecDeque::new(),
            asked: false,
            done: false,
        };
        futures::stream::unfold(state, move |mut state| async move {
            loop {
                if let Some(event) = state.ready.pop_front() {
                    return Some((Ok(event), state));
                }
                if state.done {
                    return None;
                }
                if state.asked {
                    tokio::time::sleep(every).await;
                }
                state.asked = true;
                match state.client.events(&state.id, state.next).await {
                    Ok(page) => {
                        state.next = page.next;
                        state.done = page.ended;
                        state.ready.extend(page.events);
                    }
                    Err(error) => {
                        state.done = true;
                        return Some((Err(error), state));
                    }
                }
            }
        })
    }

    /// Sends a person's decision on a call of run `id` that waits for approval.
    pub async fn decide(&self, id: &str, decision: Decision) -> Result<(), ClientError> {
        let handle = self.client.get_workflow_handle::<AgentWorkflow>(id);
        handle
            .signal(
                AgentWorkflow::decide,
                decision,
                WorkflowSignalOptions::default(),
            )
            .await?;
        Ok(())
    }

    /// Cancels run `id`: its activities in flight are cancelled (their tools see the cancel
    /// flag) and the run ends cancelled.
    pub async fn cancel(&self, id: &str) -> Result<(), ClientError> {
        let handle = self.client.get_workflow_handle::<AgentWorkflow>(id);
        handle.cancel(WorkflowCancelOptions::default()).await?;
        Ok(())
    }
}

/// The status of an ended run from its workflow's result.
fn ended(id: &str, result: Result<AgentOutput, WorkflowGetResultError>) -> RunStatus {
    let (state, answer, error, spent) = match result {
        Ok(output) => (
            RunState::Finished,
            output.answer().map(str::to_string),
            None,
            FailedRun {
                turns: output.turns,
                usage: output.usage,
            },
        ),
        Err(error) => (
            RunState::Failed,
            None,
            Some(failure_text(&error)),
            spent_before(&error),
        ),
    };
    RunStatus {
        id: id.to_string(),
        state,
        pending_approvals: Vec::new(),
        answer,
        error,
        turns: spent.turns,
        usage: spent.usage,
    }
}

/// The turns and tokens a failed run had spent, from its failure's details (none for a run
/// cancelled or terminated from outside).
fn spent_before(error: &WorkflowGetResultError) -> FailedRun {
    match error {
        WorkflowGetResultError::Failed(failure) => match &**failure {
            IncomingError::Application(failure) => {
                failure.details().ok().flatten().unwrap_or_default()
            }
            _ => FailedRun::default(),
        },
        _ => FailedRun::default(),
    }
}

/// The innermost cause's text of a failed workflow.
fn failure_text(error: &WorkflowGetResultError) -> String {
    let mut source: &dyn std::error::Error = error;
    while let Some(next) = source.source() {
        source = next;
    }
    source.to_string()
}
