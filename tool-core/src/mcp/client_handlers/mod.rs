//! What our MCP client answers when a server asks it something: sampling (the application's
//! [`Model`]), elicitation (the application's callback) and roots (a shared [`Roots`] list),
//! each configured on the [`McpClientBuilder`] and advertised only when configured.
//!
//! Both protocol eras are served by the same handlers: on a handshake-era session
//! (2025-11-25 and earlier) the server sends `sampling/createMessage`, `elicitation/create`
//! or `roots/list` requests; on a 2026-07-28 session it answers `tools/call`,
//! `prompts/get` or `resources/read` with input requests, which the client answers and
//! retries with ([`Handlers::fulfil`]).

#![allow(deprecated)] // sampling and roots: deprecated by SEP-2577, spoken by today's servers.

mod elicitation;
mod roots;
mod sampling;

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rmcp::model::{ClientCapabilities, InputRequest, InputRequiredResult, InputResponses};
use rmcp::ErrorData;
use serde_json::{json, Value};

use super::client::DEFAULT_CALL_TIMEOUT;
use super::{McpClient, McpError};
use crate::model::Model;
use crate::peer::Elicited;

pub use elicitation::ElicitationRequest;
pub use roots::Roots;

use elicitation::Elicit;
use sampling::Sampling;

/// How many rounds of input requests one call may take before the client gives up (rmcp's
/// own client uses the same bound): a server that keeps asking is misbehaving.
pub(crate) const MAX_INPUT_ROUNDS: usize = 10;

/// Which protocol generation the client speaks.
///
/// ```
/// use tool_core::mcp::{McpClient, ProtocolEra};
/// let builder = McpClient::builder().protocol(ProtocolEra::Discover);
/// # let _ = builder;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ProtocolEra {
    /// The `initialize` handshake (MCP 2025-11-25 and earlier), what most servers speak today.
    #[default]
    Handshake,
    /// `server/discover` and self-contained requests (MCP 2026-07-28).
    Discover,
    /// Try `server/discover`, fall back to the handshake when the server does not know it.
    Auto,
}

/// The client's answers to a server's questions, shared by the connection's handler and
/// every [`RemoteTool`](super::RemoteTool) of the connection.
#[derive(Default)]
pub(crate) struct Handlers {
    sampling: Sampling,
    elicit: Option<Elicit>,
    roots: Option<Roots>,
    /// The server's name, known once connected (shown to the elicitation callback).
    server: OnceLock<Arc<str>>,
}

impl Handlers {
    pub(crate) fn set_server(&self, name: Arc<str>) {
        let _ = self.server.set(name);
    }

    pub(crate) fn roots(&self) -> Option<&Roots> {
        self.roots.as_ref()
    }

    /// What the client declares: only what is configured.
    pub(crate) fn capabilities(&self) -> ClientCapabilities {
        let mut declared = serde_json::Map::new();
        if self.sampling.is_configured() {
            declared.insert("sampling".into(), json!({}));
        }
        if self.elicit.is_some() {
            declared.insert("elicitation".into(), json!({"form": {}}));
        }
        if self.roots.is_some() {
            declared.insert("roots".into(), json!({"listChanged": true}));
        }
        serde_json::from_value(Value::Object(declared)).unwrap_or_default()
    }

    /// Answers a `sampling/createMessage` (its params as JSON).
    pub(crate) async fn create_message(&self, params: &Value) -> Result<Value, ErrorData> {
        if !self.sampling.is_configured() {
            return Err(not_configured("sampling"));
        }
        self.sampling
            .answer(params)
            .await
            .map_err(|why| ErrorData::internal_error(why, None))
    }

    /// Answers an `elicitation/create` (its params as JSON). URL-mode questions are
    /// declined: this client declares form mode only.
    pub(crate) async fn elicit(&self, params: &Value) -> Result<Value, ErrorData> {
        let Some(callback) = &self.elicit else {
            return Err(not_configured("elicitation"));
        };
        if params["mode"].as_str().is_some_and(|mode| mode != "form") {
            return Ok(json!({"action": "decline"}));
        }
        let request = ElicitationRequest::new(
            self.server.get().map(|s| s.to_string()).unwrap_or_default(),
            params["message"].as_str().unwrap_or_default(),
            params["requestedSchema"].clone(),
        );
        match callback(request.clone()).await {
            Elicited::Accepted(content) => {
                request.check(&content).map_err(|why| {
                    ErrorData::internal_error(
                        format!("the answer does not fill in the form the server asked for ({why}), so it was not sent"),
                        None,
                    )
                })?;
                Ok(json!({"action": "accept", "content": content}))
            }
            Elicited::Declined => Ok(json!({"action": "decline"})),
            Elicited::Cancelled => Ok(json!({"action": "cancel"})),
        }
    }

    /// Answers a `roots/list`.
    pub(crate) fn list_roots(&self) -> Result<Value, ErrorData> {
        match &self.roots {
            Some(roots) => Ok(roots.result()),
            None => Err(not_configured("roots")),
        }
    }

    /// Answers one input request of a 2026-07-28 round.
    async fn answer(&self, request: &InputRequest) -> Result<Value, ErrorData> {
        let request = serde_json::to_value(request).unwrap_or_default();
        let params = &request["params"];
        match request["method"].as_str() {
            Some("sampling/createMessage") => self.create_message(params).await,
            Some("elicitation/create") => self.elicit(params).await,
            Some("roots/list") => self.list_roots(),
            other => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("the input request {other:?} is not one this client answers"),
                None,
            )),
        }
    }

    /// Answers every input request of an `InputRequiredResult`: the responses and the state
    /// to retry with. The error says which question could not be answered.
    pub(crate) async fn fulfil(
        &self,
        result: InputRequiredResult,
    ) -> Result<(Option<InputResponses>, Option<String>), String> {
        let requests = result.input_requests.unwrap_or_default();
        if requests.is_empty() && result.request_state.is_none() {
            return Err("the server asked for input but sent no question and no state".into());
        }
        let mut responses = InputResponses::new();
        for (key, request) in &requests {
            let answer = self.answer(request).await.map_err(|e| {
                format!("the question '{key}' could not be answered: {}", e.message)
            })?;
            responses.insert(key.clone(), answer);
        }
        Ok((
            (!responses.is_empty()).then_some(responses),
            result.request_state,
        ))
    }
}

fn not_configured(what: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        format!("this client does not answer {what} (it did not declare the capability)"),
        None,
    )
}

/// How an [`McpClient`] connects: its time limit, its protocol era, and what it answers
/// when a server asks: sampling with the application's [`Model`], elicitation with a
/// callback, roots from a [`Roots`] list. Each capability is declared to the server only when
/// configured here. Get one with [`McpClient::builder`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), tool_core::mcp::McpError> {
/// use serde_json::json;
/// use tool_core::mcp::{McpClient, McpServer, Roots};
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::{tool, tools, Elicited, Root, SamplingRequest, ToolCall, ToolContext, ToolRegistry};
///
/// /// Writes a haiku with the client's model.
/// #[tool]
/// async fn haiku(topic: String, ctx: ToolContext<'_>) -> String {
///     match ctx.sample(SamplingRequest::new(format!("A haiku about {topic}"))).await {
///         Ok(reply) => reply.text,
///         Err(e) => e.to_string(),
///     }
/// }
///
/// let (near, far) = tokio::io::duplex(64 * 1024);
/// tokio::spawn(async move { McpServer::new(tools![haiku]).serve_on(far).await?.waiting().await.ok(); Ok::<_, tool_core::mcp::McpError>(()) });
///
/// let model = ScriptedModel::new([ModelTurn::text("Rain on the tin roof")]);
/// let client = McpClient::builder()
///     .sampling(model.clone())
///     .elicitation(|_question| async { Elicited::Accepted(json!({"unit": "celsius"})) })
///     .roots(&Roots::new([Root { uri: "file:///srv/project".into(), name: None }]))
///     .connect(near)
///     .await?;
/// let mut registry = ToolRegistry::new();
/// client.register_into(&mut registry, None)?;
/// let reply = registry.call(&ToolCall::new("1", "haiku", r#"{"topic":"rain"}"#)).await;
/// assert_eq!(reply.model_text(), "Rain on the tin roof");
/// assert_eq!(model.requests().len(), 1);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpClientBuilder {
    timeout: Duration,
    era: ProtocolEra,
    sampling: Sampling,
    elicit: Option<Elicit>,
    roots: Option<Roots>,
}

impl Default for McpClientBuilder {
    fn default() -> Self {
        McpClientBuilder {
            timeout: DEFAULT_CALL_TIMEOUT,
            era: ProtocolEra::default(),
            sampling: Sampling::default(),
            elicit: None,
            roots: None,
        }
    }
}

impl std::fmt::Debug for McpClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClientBuilder")
            .field("timeout", &self.timeout)
            .field("era", &self.era)
            .field("sampling", &self.sampling.is_configured())
            .field("elicitation", &self.elicit.is_some())
            .field("roots", &self.roots)
            .finish()
    }
}

impl McpClientBuilder {
    /// Bounds the handshake, each list, each read and each tool call (default 60 seconds).
    ///
    /// ```
    /// let builder = tool_core::mcp::McpClient::builder().timeout(std::time::Duration::from_secs(5));
    /// # let _ = builder;
    /// ```
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = limit;
        self
    }

    /// Which protocol generation to speak (default: the handshake era).
    ///
    /// ```
    /// use tool_core::mcp::{McpClient, ProtocolEra};
    /// let builder = McpClient::builder().protocol(ProtocolEra::Auto);
    /// # let _ = builder;
    /// ```
    pub fn protocol(mut self, era: ProtocolEra) -> Self {
        self.era = era;
        self
    }

    /// Answers the server's sampling requests with `model` (declares `sampling`). The
    /// request's messages become the model's conversation and its system prompt the
    /// instructions; no tools are offered. The answer carries the model's name and why it
    /// stopped (`endTurn`, `maxTokens`, or `stopSequence` when the text held one of the
    /// request's stop sequences; the text is cut there). The model's own settings (token
    /// limit, temperature) apply: a request's `maxTokens` and `temperature` are not passed on.
    ///
    /// ```
    /// use tool_core::{mcp::McpClient, model::{ModelTurn, ScriptedModel}};
    /// let builder = McpClient::builder().sampling(ScriptedModel::new([ModelTurn::text("Hi")]));
    /// # let _ = builder;
    /// ```
    pub fn sampling(mut self, model: impl Model + 'static) -> Self {
        self.sampling.set_default(Arc::new(model));
        self
    }

    /// Adds a model a server may ask for by name: when one of the request's model hints is
    /// part of `name` (`"sonnet"` for `"claude-sonnet-4-5"`), this model answers; hints are
    /// tried in the server's order. Requests whose hints match no name go to the
    /// [`sampling`](Self::sampling) model (or, without one, to the first named model).
    ///
    /// ```
    /// use tool_core::{mcp::McpClient, model::{ModelTurn, ScriptedModel}};
    /// let builder = McpClient::builder()
    ///     .sampling(ScriptedModel::new([ModelTurn::text("from the default")]))
    ///     .sampling_model("claude-sonnet-4-5", ScriptedModel::new([ModelTurn::text("from Sonnet")]));
    /// # let _ = builder;
    /// ```
    pub fn sampling_model(mut self, name: impl Into<String>, model: impl Model + 'static) -> Self {
        self.sampling.add_named(name.into(), Arc::new(model));
        self
    }

    /// Answers the server's elicitations (form mode) with `answer` (declares
    /// `elicitation`): show the [`ElicitationRequest`]'s message and form to the user and
    /// return what they chose. An accepted answer is checked against the form first; one
    /// that does not fill it in is not sent, and the server gets an error saying why.
    /// URL-mode elicitations are declined.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::{mcp::McpClient, Elicited};
    /// let builder = McpClient::builder().elicitation(|question| async move {
    ///     if question.message.contains("unit") {
    ///         Elicited::Accepted(json!({"unit": "celsius"}))
    ///     } else {
    ///         Elicited::Declined
    ///     }
    /// });
    /// # let _ = builder;
    /// ```
    pub fn elicitation<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Elicited<Value>> + Send + 'static,
    {
        self.elicit = Some(Arc::new(move |request| Box::pin(answer(request))));
        self
    }

    /// Shares `roots` with the server (declares `roots` with `listChanged`); a later
    /// [`Roots::set`] tells it that they changed.
    ///
    /// ```
    /// use tool_core::{mcp::{McpClient, Roots}, Root};
    /// let roots = Roots::new([Root { uri: "file:///srv/project".into(), name: None }]);
    /// let builder = McpClient::builder().roots(&roots);
    /// # let _ = builder;
    /// ```
    pub fn roots(mut self, roots: &Roots) -> Self {
        self.roots = Some(roots.clone());
        self
    }

    /// Connects over `transport` (rmcp's: a reader/writer pair, a child process, a
    /// streamable-HTTP client …), runs the handshake (or discovery) and fetches the tool
    /// list.
    pub async fn connect<T, E, A>(self, transport: T) -> Result<McpClient, McpError>
    where
        T: rmcp::transport::IntoTransport<rmcp::RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handlers = Handlers {
            sampling: self.sampling,
            elicit: self.elicit,
            roots: self.roots,
            server: OnceLock::new(),
        };
        McpClient::start(transport, self.timeout, self.era, Arc::new(handlers)).await
    }

    /// Starts `command` as a child process speaking MCP on its stdin and stdout, and
    /// connects to it. The child's stderr is inherited.
    pub async fn spawn(self, command: tokio::process::Command) -> Result<McpClient, McpError> {
        crate::mcp::client::require_tokio("starting an MCP server process")?;
        let transport =
            rmcp::transport::TokioChildProcess::new(command).map_err(McpError::spawn)?;
        self.connect(transport).await
    }
}
