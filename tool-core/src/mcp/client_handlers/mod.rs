//! What our MCP client answers when a server asks it something: sampling (the application's
//! [`Model`]), elicitation (the application's callback) and roots (a shared [`Roots`] list),
//! each configured on the client's builder (`McpClient::builder`) and advertised only when
//! configured.
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

use std::sync::{Arc, OnceLock};

use rmcp::model::{ClientCapabilities, InputRequest, InputRequiredResult, InputResponses};
use rmcp::ErrorData;
use serde_json::{json, Value};

use crate::peer::Elicited;

pub use elicitation::ElicitationRequest;
pub use roots::Roots;

pub(crate) use elicitation::Elicit;
pub(crate) use sampling::Sampling;

/// How many rounds of input requests one call may take before the client gives up (rmcp's
/// own client uses the same bound): a server that keeps asking is misbehaving.
pub(crate) const MAX_INPUT_ROUNDS: usize = 10;

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
    pub(crate) fn new(sampling: Sampling, elicit: Option<Elicit>, roots: Option<Roots>) -> Self {
        Handlers {
            sampling,
            elicit,
            roots,
            server: OnceLock::new(),
        }
    }

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
        // Calls the server turns into tasks are followed to their end (`remote_task`).
        declared.insert(
            "extensions".into(),
            json!({ rmcp::model::TASKS_EXTENSION_ID: {} }),
        );
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
