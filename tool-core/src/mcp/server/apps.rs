//! The MCP Apps extension (`io.modelcontextprotocol/ui`) in the server's capabilities: tools
//! with interactive views (`Tool::app`) make the server advertise it.

use rmcp::model::{ServerCapabilities, ServerConfig};

use super::McpServer;

/// The identifier of the MCP Apps extension (tools with interactive views).
const APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// Says, in the `extensions` capability, that tools here come with interactive views. Both
/// eras: the extension is negotiated in `initialize` as well as in `server/discover`.
pub(super) fn advertise(capabilities: &mut ServerCapabilities) {
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .entry(APPS_EXTENSION.to_owned())
        .or_default();
}

impl McpServer {
    /// What `initialize` and `server/discover` report: the configuration, with the Apps
    /// extension while a served tool has a view (tools change while serving).
    pub(super) fn info(&self) -> ServerConfig {
        let mut info = self.config.clone();
        if self.tools.current().has_apps {
            advertise(&mut info.capabilities);
        }
        info
    }
}
