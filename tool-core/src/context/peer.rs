//! What a tool may ask of the client that called it: log, sample, elicit, roots.

use super::{CallContext, ToolContext};

/// Asking the client: see [`ClientPeer`](crate::ClientPeer) for what each does over MCP and elsewhere.
impl<'a> ToolContext<'a> {
    /// Logs to the client (MCP `notifications/message`, sent when at or above the level the
    /// client set; all levels until it sets one). Without a client: `tracing` (feature
    /// `tracing`), else nowhere.
    ///
    /// ```
    /// use tool_core::{LogLevel, ToolContext};
    /// ToolContext::new("c1", "count").log(LogLevel::Info, "step 1");
    /// ```
    pub fn log(&self, level: crate::LogLevel, message: impl Into<String>) {
        let message = message.into();
        match self.extension::<crate::peer::PeerHandle>() {
            Some(peer) => peer
                .0
                .log(level, self.tool_name, serde_json::Value::String(message)),
            None => crate::peer::log_locally(level, self.tool_name, &message),
        }
    }

    /// Asks the client's model for a completion (MCP `sampling/createMessage`).
    ///
    /// ```
    /// use tool_core::{PeerError, SamplingRequest, ToolContext};
    /// let ctx = ToolContext::new("c1", "haiku");
    /// let reply = tool_core::block_on(ctx.sample(SamplingRequest::new("A haiku on rain")));
    /// assert!(matches!(reply, Err(PeerError::Unsupported { what: "sampling", .. })));
    /// ```
    pub async fn sample(
        &self,
        request: crate::SamplingRequest,
    ) -> Result<crate::SamplingReply, crate::PeerError> {
        match self.extension::<crate::peer::PeerHandle>() {
            Some(peer) => peer.0.sample(request).await,
            None => Err(crate::peer::unsupported("sampling")),
        }
    }

    /// Asks the client's user to fill in a form whose fields are `T`'s (MCP
    /// `elicitation/create`). `T` must be a struct of primitive fields (strings, numbers,
    /// booleans, unit-variant enums), as the MCP spec requires; another shape is
    /// [`PeerError::Invalid`](crate::PeerError::Invalid) before anything is sent.
    pub async fn elicit<T>(
        &self,
        message: impl Into<String>,
    ) -> Result<crate::Elicited<T>, crate::PeerError>
    where
        T: schemars::JsonSchema + serde::de::DeserializeOwned,
    {
        let schema = crate::peer::flat_schema(crate::schema::canonical_schema::<T>())?;
        let Some(peer) = self.extension::<crate::peer::PeerHandle>() else {
            return Err(crate::peer::unsupported("elicitation"));
        };
        match peer.0.elicit(message.into(), schema).await? {
            crate::Elicited::Accepted(value) => serde_json::from_value(value)
                .map(crate::Elicited::Accepted)
                .map_err(|e| {
                    crate::PeerError::Rejected(format!(
                        "the client's answer does not fit the form: {e}"
                    ))
                }),
            crate::Elicited::Declined => Ok(crate::Elicited::Declined),
            crate::Elicited::Cancelled => Ok(crate::Elicited::Cancelled),
        }
    }

    /// The client's roots (MCP `roots/list`).
    pub async fn roots(&self) -> Result<Vec<crate::Root>, crate::PeerError> {
        match self.extension::<crate::peer::PeerHandle>() {
            Some(peer) => peer.0.roots().await,
            None => Err(crate::peer::unsupported("roots")),
        }
    }
}

impl CallContext {
    /// Gives the call's tools a client to ask (see [`ClientPeer`](crate::ClientPeer)); `McpServer` does this
    /// for every MCP call.
    pub fn with_peer(self, peer: std::sync::Arc<dyn crate::ClientPeer>) -> Self {
        self.with_extension(crate::peer::PeerHandle(peer))
    }
}
