//! A tool that says who may call it (`allowed_callers`) and counts its runs: the caller tests
//! of the recorded program sessions check which tools ran and how often.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::Value;
use tool_core::{AllowedCallers, CallFuture, Tool, ToolContext, ToolResponse};

/// Answers every call with `result` and adds one to `runs`.
pub struct Counted {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: Value,
    pub allowed: AllowedCallers,
    pub result: String,
    pub runs: Arc<AtomicUsize>,
}

impl Tool for Counted {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        self.description
    }
    fn input_schema(&self) -> Value {
        self.schema.clone()
    }
    fn allowed_callers(&self) -> AllowedCallers {
        self.allowed
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        CallFuture::ready(ToolResponse::success(self.result.clone()))
    }
}
