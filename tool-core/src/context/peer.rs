//! What a tool may ask of the client that called it: log, sample, elicit, roots.

use super::{CallContext, ToolContext};

/// Asking the client: see [`ClientPeer`](crate::ClientPeer) for what each does over MCP and elsewhere.
impl<'a> ToolContext<'a> {
    /// Logs to the client (MCP `notifications/message`, sent when at or above the level the
    /// client set; all levels until it sets one). On an MCP session of the 2026-07-28
    /// revision, which deprecates logging to the client, and without a client: `tracing`
    /// (feature `tracing`), else nowhere.
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
    /// # Both MCP eras
    ///
    /// On sessions of the 2025-11-25 revision and earlier (what most clients speak) the
    /// question is a request to the client while the tool waits. The 2026-07-28 revision has
    /// no such requests: the call ends with the question (an `input_required` result), the
    /// client answers it and calls again, and **the tool's body runs again from the start**.
    /// Each question the tool asks on that run gets, in order, the answer the client gave
    /// before, so the same code works in both eras and cannot tell them apart; only the first
    /// question without an answer goes to the client. The same holds for
    /// [`elicit`](Self::elicit) and [`roots`](Self::roots).
    ///
    /// Two consequences:
    /// - whatever the tool does *before* a question runs again on every retry: ask first and
    ///   act after the last question, or make the earlier steps safe to repeat (see the
    ///   example on [`elicit`](Self::elicit));
    /// - a tool must ask the same questions in the same order on every run (a question of
    ///   another kind where an answer is replayed fails with
    ///   [`PeerError::Rejected`](crate::PeerError::Rejected)); a call may ask at most 16.
    ///
    /// Outside MCP there is no client to ask, unless the application gave the call one with
    /// [`CallContext::with_peer`](crate::CallContext::with_peer):
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
    ///
    /// On a 2026-07-28 session the tool's body runs again once the user has answered (see
    /// [`sample`](Self::sample)): ask before acting, so that the action runs once.
    ///
    /// ```
    /// use tool_core::{tool, tool_type, Elicited, PeerError, ToolContext};
    ///
    /// /// The user's go-ahead.
    /// #[tool_type]
    /// struct Confirm {
    ///     /// Whether to go ahead.
    ///     ok: bool,
    /// }
    ///
    /// /// Deletes a draft once the user agrees.
    /// #[tool]
    /// async fn delete_draft(
    ///     /// The draft's name.
    ///     name: String,
    ///     ctx: ToolContext<'_>,
    /// ) -> Result<String, PeerError> {
    ///     // Runs on every round: no side effects before the question.
    ///     let answer = ctx.elicit::<Confirm>(format!("Delete the draft {name}?")).await?;
    ///     // Runs once, after the last question.
    ///     Ok(match answer {
    ///         Elicited::Accepted(Confirm { ok: true }) => format!("deleted {name}"),
    ///         _ => format!("kept {name}"),
    ///     })
    /// }
    /// # let _ = tool_core::tools![delete_draft];
    /// ```
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

    /// The client's roots (MCP `roots/list`; on a 2026-07-28 session a question of the call,
    /// see [`sample`](Self::sample)).
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
