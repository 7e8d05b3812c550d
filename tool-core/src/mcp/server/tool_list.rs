//! The [`ServerHandle`] methods that change the tools a server offers while it serves and
//! send `notifications/tools/list_changed` (the served set itself is in `listings`).

use std::sync::Arc;

use crate::mcp::peers::ServerHandle;
use crate::registry::{RegistryError, ToolRegistry};
use crate::tool::Tool;

impl ServerHandle {
    /// The tools being served now.
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, tool, tools};
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let handle = McpServer::new(tools![add]).handle();
    /// assert_eq!(handle.tools().names().collect::<Vec<_>>(), ["add"]);
    /// ```
    pub fn tools(&self) -> Arc<ToolRegistry> {
        self.tools.current().registry.clone()
    }

    /// Changes the tools being served and, if their listing changed, sends
    /// `notifications/tools/list_changed` to every connected client (which then asks
    /// `tools/list` again); returns what `change` returned.
    ///
    /// `change` works on a copy of the registry, so calls already running finish on the tool
    /// set they started with, and the registry's settings (limits, breakers and their state,
    /// retry policies, scopes, extensions) carry over. Changes are applied one at a time.
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, tool, tools, ToolRegistry};
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// /// Multiplies two integers.
    /// #[tool]
    /// fn mul(a: i64, b: i64) -> i64 { a * b }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let handle = McpServer::new(tools![add]).handle();
    /// handle
    ///     .update_tools(|registry: &mut ToolRegistry| {
    ///         registry.remove("add");
    ///         registry.register(mul {})
    ///     })
    ///     .await
    ///     .unwrap();
    /// assert_eq!(handle.tools().names().collect::<Vec<_>>(), ["mul"]);
    /// # });
    /// ```
    pub async fn update_tools<R>(&self, change: impl FnOnce(&mut ToolRegistry) -> R) -> R {
        let (result, changed) = self.tools.update(change);
        if changed {
            for peer in self.shared.all_peers() {
                // A client that has gone away meanwhile is no reason to fail the change.
                let _ = peer.notify_tool_list_changed().await;
            }
        }
        result
    }

    /// Offers one more tool while serving (see [`ServerHandle::update_tools`]). Fails, and
    /// changes nothing, if its name is invalid or taken.
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, tool, ToolRegistry};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "Hello!" }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let handle = McpServer::new(ToolRegistry::new()).handle();
    /// handle.add_tool(hello {}).await.unwrap();
    /// assert!(handle.add_tool(hello {}).await.is_err());
    /// assert_eq!(handle.tools().len(), 1);
    /// # });
    /// ```
    pub async fn add_tool(&self, tool: impl Tool) -> Result<(), RegistryError> {
        self.update_tools(|registry| registry.register(tool)).await
    }

    /// Stops offering a tool while serving (see [`ServerHandle::update_tools`]); `false` if
    /// no tool has that name (and then no client is told anything).
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, tool, tools};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "Hello!" }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let handle = McpServer::new(tools![hello]).handle();
    /// assert!(handle.remove_tool("hello").await);
    /// assert!(!handle.remove_tool("hello").await);
    /// assert!(handle.tools().is_empty());
    /// # });
    /// ```
    pub async fn remove_tool(&self, name: &str) -> bool {
        self.update_tools(|registry| registry.remove(name).is_some())
            .await
    }
}
