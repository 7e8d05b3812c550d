//! [`DurableAgent`]: what every worker of a durable agent shares (model, tools, options), and
//! [`DurableOptions`], the timeouts and retries of its activities.

use std::sync::Arc;
use std::time::Duration;

use tool_core::model::Model;
use tool_core::runner::RunOptions;
use tool_core::ToolRegistry;

use crate::events::{EventSink, LiveEvent};
use crate::telemetry::RunSpans;

/// The agent a worker runs: the model, the tools and the run options, the same in every
/// worker of a task queue (the workflow code replays against them, so they must agree; see
/// the guide's section on versioning).
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::{tool, tools};
/// use tool_core_temporal::{DurableAgent, DurableOptions};
///
/// /// Looks a key up.
/// #[tool(read_only)]
/// fn lookup(key: String) -> String { format!("value-of-{key}") }
///
/// let agent = DurableAgent::new(ScriptedModel::new([ModelTurn::text("Hi")]), tools![lookup])
///     .with_durable_options(DurableOptions::default().tool_attempts(3));
/// assert_eq!(agent.registry().names().collect::<Vec<_>>(), ["lookup"]);
/// assert_eq!(agent.durable_options().tool_attempts, 3);
/// ```
pub struct DurableAgent {
    model: Arc<dyn Model>,
    registry: Arc<ToolRegistry>,
    options: RunOptions,
    durable: DurableOptions,
    sink: Option<EventSink>,
    spans: Arc<RunSpans>,
}

impl std::fmt::Debug for DurableAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DurableAgent")
            .field("model", &self.model.model_name())
            .field("tools", &self.registry.names().collect::<Vec<_>>())
            .field("options", &self.options)
            .field("durable", &self.durable)
            .field("event_sink", &self.sink.is_some())
            .finish()
    }
}

impl DurableAgent {
    /// An agent with the default [`RunOptions`] and [`DurableOptions`].
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// let agent = tool_core_temporal::DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new());
    /// assert_eq!(agent.run_options().max_turns, 10);
    /// ```
    pub fn new(model: impl Model + 'static, registry: impl Into<Arc<ToolRegistry>>) -> Self {
        DurableAgent {
            model: Arc::new(model),
            registry: registry.into(),
            options: RunOptions::default(),
            durable: DurableOptions::default(),
            sink: None,
            spans: Arc::default(),
        }
    }

    /// Sets the options every run starts with (instructions, limits, approval).
    ///
    /// Closures in the options (a per-turn tool hook, a tool search of your own) are given
    /// back to the run in each activity, since a stored run does not carry them.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// use tool_core::runner::RunOptions;
    /// let agent = tool_core_temporal::DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new())
    ///     .with_run_options(RunOptions::new().max_turns(4));
    /// assert_eq!(agent.run_options().max_turns, 4);
    /// ```
    pub fn with_run_options(mut self, options: RunOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets the activities' timeouts and retries.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_core::model::ScriptedModel;
    /// use tool_core_temporal::{DurableAgent, DurableOptions};
    /// let agent = DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new())
    ///     .with_durable_options(DurableOptions::default().heartbeat_timeout(Duration::from_secs(5)));
    /// assert_eq!(agent.durable_options().heartbeat_timeout, Duration::from_secs(5));
    /// ```
    pub fn with_durable_options(mut self, durable: DurableOptions) -> Self {
        self.durable = durable;
        self
    }

    /// Hands `sink` the events of each model request as the model streams them (text,
    /// reasoning and argument deltas, calls started and ready), on the worker that runs the
    /// request, tagged with the run and turn: for a live view of a durable run (forward them
    /// to the user's browser over a channel or a pub/sub topic). They are not recorded in the
    /// run's history; the run's `events` query gives each turn whole
    /// ([`DurableClient::events`](crate::DurableClient::events)). The sink is called on the
    /// activity's task: it should hand the event on and return.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use tool_core::model::ScriptedModel;
    /// use tool_core::runner::RunEvent;
    ///
    /// let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    /// let log = Arc::clone(&seen);
    /// let agent = tool_core_temporal::DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new())
    ///     .with_event_sink(move |live| {
    ///         if let RunEvent::TextDelta { text } = live.event {
    ///             log.lock().unwrap().push(format!("{}: {text}", live.run_id));
    ///         }
    ///     });
    /// # let _ = agent;
    /// ```
    pub fn with_event_sink(mut self, sink: impl Fn(LiveEvent) + Send + Sync + 'static) -> Self {
        self.sink = Some(Arc::new(sink));
        self
    }

    /// The sink of live events, if one was set.
    pub(crate) fn event_sink(&self) -> Option<&EventSink> {
        self.sink.as_ref()
    }

    /// The `invoke_agent` spans of the runs this worker started.
    pub(crate) fn spans(&self) -> &Arc<RunSpans> {
        &self.spans
    }

    /// The model the model activity asks.
    ///
    /// ```
    /// use tool_core::model::OpenAiChat;
    /// let agent = tool_core_temporal::DurableAgent::new(OpenAiChat::new("gpt-4o-mini"), tool_core::ToolRegistry::new());
    /// assert_eq!(agent.model().model_name(), "gpt-4o-mini");
    /// ```
    pub fn model(&self) -> &Arc<dyn Model> {
        &self.model
    }

    /// The tools.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// let agent = tool_core_temporal::DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new());
    /// assert_eq!(agent.registry().len(), 0);
    /// ```
    pub fn registry(&self) -> &Arc<ToolRegistry> {
        &self.registry
    }

    /// The options every run starts with.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// let agent = tool_core_temporal::DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new());
    /// assert!(agent.run_options().instructions.is_none());
    /// ```
    pub fn run_options(&self) -> &RunOptions {
        &self.options
    }

    /// The activities' timeouts and retries.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// let agent = tool_core_temporal::DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new());
    /// assert_eq!(agent.durable_options().model_attempts, 5);
    /// ```
    pub fn durable_options(&self) -> &DurableOptions {
        &self.durable
    }
}

/// Timeouts and retries of a durable run's activities.
///
/// A model request is retried when its error is retryable (a rate limit after the delay the
/// provider asked for, a 5xx, a broken stream) and not when it is not (a 400, a bad key): the
/// run then fails. A tool call is retried only when its attempt was lost (its worker died, it
/// stopped heartbeating, it timed out): a tool that answers, even with an error response,
/// has answered, and the answer goes to the model.
///
/// ```
/// use std::time::Duration;
/// let options = tool_core_temporal::DurableOptions::default()
///     .model_timeout(Duration::from_secs(120))
///     .tool_timeout(Duration::from_secs(600))
///     .heartbeat_timeout(Duration::from_secs(10));
/// assert_eq!(options.tool_timeout, Duration::from_secs(600));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct DurableOptions {
    /// How long one attempt of a model request may take (start to close).
    pub model_timeout: Duration,
    /// How long one attempt of a tool call may take (start to close).
    pub tool_timeout: Duration,
    /// An attempt that has not reported for this long is taken as lost (its worker died) and
    /// tried again on another worker. Activities report every second while they work.
    pub heartbeat_timeout: Duration,
    /// Attempts of a model request, the first included (0: no limit).
    pub model_attempts: u32,
    /// Attempts of a tool call, the first included (0: no limit).
    pub tool_attempts: u32,
    /// The wait before the second attempt; it doubles each time, up to `max_retry_interval`.
    pub retry_interval: Duration,
    /// The longest wait between two attempts.
    pub max_retry_interval: Duration,
}

impl Default for DurableOptions {
    fn default() -> Self {
        DurableOptions {
            model_timeout: Duration::from_secs(300),
            tool_timeout: Duration::from_secs(600),
            heartbeat_timeout: Duration::from_secs(10),
            model_attempts: 5,
            tool_attempts: 0,
            retry_interval: Duration::from_secs(1),
            max_retry_interval: Duration::from_secs(60),
        }
    }
}

impl DurableOptions {
    /// Sets [`DurableOptions::model_timeout`].
    ///
    /// ```
    /// let o = tool_core_temporal::DurableOptions::default().model_timeout(std::time::Duration::from_secs(30));
    /// assert_eq!(o.model_timeout.as_secs(), 30);
    /// ```
    pub fn model_timeout(mut self, timeout: Duration) -> Self {
        self.model_timeout = timeout;
        self
    }

    /// Sets [`DurableOptions::tool_timeout`].
    ///
    /// ```
    /// let o = tool_core_temporal::DurableOptions::default().tool_timeout(std::time::Duration::from_secs(30));
    /// assert_eq!(o.tool_timeout.as_secs(), 30);
    /// ```
    pub fn tool_timeout(mut self, timeout: Duration) -> Self {
        self.tool_timeout = timeout;
        self
    }

    /// Sets [`DurableOptions::heartbeat_timeout`].
    ///
    /// ```
    /// let o = tool_core_temporal::DurableOptions::default().heartbeat_timeout(std::time::Duration::from_secs(3));
    /// assert_eq!(o.heartbeat_timeout.as_secs(), 3);
    /// ```
    pub fn heartbeat_timeout(mut self, timeout: Duration) -> Self {
        self.heartbeat_timeout = timeout;
        self
    }

    /// Sets [`DurableOptions::model_attempts`].
    ///
    /// ```
    /// let o = tool_core_temporal::DurableOptions::default().model_attempts(2);
    /// assert_eq!(o.model_attempts, 2);
    /// ```
    pub fn model_attempts(mut self, attempts: u32) -> Self {
        self.model_attempts = attempts;
        self
    }

    /// Sets [`DurableOptions::tool_attempts`].
    ///
    /// ```
    /// let o = tool_core_temporal::DurableOptions::default().tool_attempts(2);
    /// assert_eq!(o.tool_attempts, 2);
    /// ```
    pub fn tool_attempts(mut self, attempts: u32) -> Self {
        self.tool_attempts = attempts;
        self
    }

    /// Sets [`DurableOptions::retry_interval`] and [`DurableOptions::max_retry_interval`].
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = tool_core_temporal::DurableOptions::default().retry_intervals(Duration::from_millis(200), Duration::from_secs(5));
    /// assert_eq!(o.retry_interval, Duration::from_millis(200));
    /// ```
    pub fn retry_intervals(mut self, first: Duration, max: Duration) -> Self {
        self.retry_interval = first;
        self.max_retry_interval = max;
        self
    }
}
