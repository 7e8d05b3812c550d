//! The per-turn hook that decides which tools each request offers
//! ([`RunOptions::prepare_tools`]).

use std::sync::Arc;

use crate::definition::ToolDefinition;

use super::hooks::PrepareTools;
use super::options::RunOptions;

impl RunOptions {
    /// Decides, before each model request, which tools it offers: `hook(turn, tools)` gets
    /// the turn number (from 1) and the definitions the run would send, in order, and returns
    /// the ones to send. Calls of a tool the hook left out of that turn's request are
    /// answered `PERMISSION_DENIED` and not run; with a hook set, calls start only once the
    /// whole turn has arrived.
    ///
    /// Dropping tools and editing a description are what the hook is for. It may also reorder
    /// them, but a request whose tools differ from the last one's start (another order, a
    /// tool removed or changed before the end) makes the provider's prompt cache miss from
    /// that point on; to keep it, only append. The run itself always sends its tools in the
    /// same order. The hook is not part of the stored run: a [`Runner`](super::Runner) gives
    /// its own to the runs it resumes.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunOptions, Runner};
    /// use tool_core::{tool, tools, ToolCall};
    ///
    /// /// Looks up an order.
    /// #[tool]
    /// fn get_order(id: String) -> String { id }
    /// /// Refunds an order.
    /// #[tool]
    /// fn refund(id: String) -> String { id }
    ///
    /// // Refunds are offered from the second turn on, once the order has been looked up.
    /// let options = RunOptions::new().prepare_tools(|turn, mut tools| {
    ///     if turn == 1 {
    ///         tools.retain(|t| t.name != "refund");
    ///     }
    ///     tools
    /// });
    /// let model = ScriptedModel::new([
    ///     ModelTurn::with_calls("", vec![ToolCall::new("c1", "get_order", r#"{"id":"A1"}"#)]),
    ///     ModelTurn::text("Found it."),
    /// ]);
    /// let runner = Runner::new(model, tools![get_order, refund]).with_options(options);
    /// tool_core::block_on(runner.run("Refund order A1")).unwrap();
    /// let requests = runner.model().requests();
    /// assert_eq!(requests[0].tools, ["get_order"]);
    /// assert_eq!(requests[1].tools, ["get_order", "refund"]);
    /// ```
    pub fn prepare_tools<F>(mut self, hook: F) -> Self
    where
        F: Fn(u32, Vec<ToolDefinition>) -> Vec<ToolDefinition> + Send + Sync + 'static,
    {
        self.prepare_tools = Some(PrepareTools(Arc::new(hook)));
        self
    }
}
