//! The slow path of a call: the tool's circuit breaker and retry policy around each attempt,
//! and a call whose arguments were rewritten before it runs (nulls removed under strict mode).

use super::future::Pending;
use crate::call::ToolCallRef;
use crate::context::CallContext;
use crate::policy::run_with_retries;
use crate::registry::{Entry, ToolRegistry};
use crate::response::ToolResponse;

impl ToolRegistry {
    /// A call through the tool's breaker and retry policy.
    pub(super) async fn run_guarded(
        &self,
        entry: &Entry,
        call: ToolCallRef<'_>,
        context: Option<&CallContext>,
    ) -> ToolResponse {
        let permit = match &entry.breaker {
            Some(breaker) => match breaker.acquire(call.name) {
                Ok(permit) => Some(permit),
                Err(open) => return open,
            },
            None => None,
        };
        let response = match &entry.retry {
            None => self.attempt(entry, call, context).await,
            Some(policy) => run_with_retries(policy, || self.attempt(entry, call, context)).await,
        };
        if let Some(permit) = permit {
            permit.record(&response);
        }
        response
    }

    /// [`ToolRegistry::run_guarded`] on arguments rewritten for the call (see `begin`).
    pub(super) async fn run_stripped(
        &self,
        entry: &Entry,
        call: ToolCallRef<'_>,
        arguments: String,
        context: Option<&CallContext>,
    ) -> ToolResponse {
        let call = ToolCallRef {
            arguments: &arguments,
            ..call
        };
        self.run_guarded(entry, call, context).await
    }

    async fn attempt(
        &self,
        entry: &Entry,
        call: ToolCallRef<'_>,
        context: Option<&CallContext>,
    ) -> ToolResponse {
        match self.launch(entry, call, context).into_parts() {
            Ok(response) => response,
            Err(future) => Pending::new(future, call.name).await,
        }
    }
}
