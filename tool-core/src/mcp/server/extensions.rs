//! The extensions the server advertises in its capabilities, in `initialize` (2025-11-25)
//! and `server/discover` (2026-07-28): MCP Apps (`io.modelcontextprotocol/ui`) while a served
//! tool has an interactive view (`Tool::app`), and Tasks (`io.modelcontextprotocol/tasks`)
//! while a served tool may run as a task. Tools change while serving, so this is worked out
//! on every request from the tools served now.

use rmcp::model::{ServerCapabilities, ServerConfig};

use super::McpServer;
use crate::mcp::listings::ServedTools;

/// The identifier of the MCP Apps extension (tools with interactive views).
const APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// Names `extension` in the `extensions` capability.
fn advertise(capabilities: &mut ServerCapabilities, extension: &str) {
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .entry(extension.to_owned())
        .or_default();
}

/// Names the extensions `served` uses: Apps while a tool has a view, Tasks while a tool may
/// run as a task.
pub(super) fn advertise_served(capabilities: &mut ServerCapabilities, served: &ServedTools) {
    if served.has_apps {
        advertise(capabilities, APPS_EXTENSION);
    }
    if served.offers_tasks {
        advertise(capabilities, rmcp::model::TASKS_EXTENSION_ID);
    }
}

impl McpServer {
    /// What `initialize` and `server/discover` report: the configuration, with the Apps
    /// and Tasks extensions while the tools served now use them.
    pub(super) fn info(&self) -> ServerConfig {
        let mut info = self.config.clone();
        advertise_served(&mut info.capabilities, &self.tools.current());
        info
    }
}
