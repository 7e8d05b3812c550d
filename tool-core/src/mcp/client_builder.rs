//! [`McpClientBuilder`]: how an [`McpClient`] connects (time limit, protocol era) and what it
//! answers when a server asks (the handlers in `client_handlers`), and the constructors of
//! [`McpClient`], which all go through it.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;
use rmcp::RoleClient;
use serde_json::Value;

use super::client::DEFAULT_CALL_TIMEOUT;
use super::client_handlers::{Elicit, ElicitationRequest, Handlers, Roots, Sampling};
use super::{McpClient, McpError};
use crate::model::Model;
use crate::peer::Elicited;

impl McpClient {
    /// Starts `command` as a child process speaking MCP on its stdin and stdout, and
    /// connects to it. The child's stderr is inherited.
    pub async fn spawn(command: tokio::process::Command) -> Result<McpClient, McpError> {
        Self::builder().spawn(command).await
    }

    /// Connects over `transport` (rmcp's: a reader/writer pair, a child process, a
    /// streamable-HTTP client …), runs the handshake and fetches the tool list, each bounded
    /// by 60 seconds (see [`McpClient::connect_with_timeout`]).
    pub async fn connect<T, E, A>(transport: T) -> Result<McpClient, McpError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::connect_with_timeout(transport, DEFAULT_CALL_TIMEOUT).await
    }

    /// [`McpClient::connect`] with another time limit for the handshake, `tools/list` and
    /// each tool call.
    pub async fn connect_with_timeout<T, E, A>(
        transport: T,
        timeout: Duration,
    ) -> Result<McpClient, McpError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::builder().timeout(timeout).connect(transport).await
    }

    /// A client that answers the server's sampling, elicitation or roots requests, speaks
    /// another protocol era or has another time limit: configure it, then connect.
    ///
    /// ```
    /// use tool_core::{mcp::McpClient, model::{ModelTurn, ScriptedModel}};
    /// let builder = McpClient::builder().sampling(ScriptedModel::new([ModelTurn::text("Hi")]));
    /// // builder.spawn(command).await? or builder.connect(transport).await?
    /// # let _ = builder;
    /// ```
    pub fn builder() -> McpClientBuilder {
        McpClientBuilder::default()
    }
}

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
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let modern = vec![ProtocolVersion::V_2026_07_28];
        let lifecycle = match self.era {
            ProtocolEra::Handshake => ClientLifecycleMode::Initialize,
            ProtocolEra::Discover => ClientLifecycleMode::Discover {
                preferred_versions: modern,
            },
            ProtocolEra::Auto => ClientLifecycleMode::Auto {
                preferred_versions: modern,
                legacy_version: None,
            },
        };
        let handlers = Handlers::new(self.sampling, self.elicit, self.roots);
        McpClient::start(transport, self.timeout, lifecycle, Arc::new(handlers)).await
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
