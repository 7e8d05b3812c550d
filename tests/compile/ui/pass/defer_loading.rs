use std::sync::Arc;

use tool_core::{tool, toolbox, tools, ToolRegistry};

/// Exports the report as a PDF.
#[tool(defer_loading, read_only)]
fn export_pdf(title: String) -> String {
    title
}

struct Reports;

#[toolbox]
impl Reports {
    /// Archives old reports.
    #[tool(defer_loading)]
    fn archive(&self) -> String {
        String::new()
    }
    /// Lists the reports.
    #[tool]
    fn list_reports(&self) -> String {
        String::new()
    }
}

fn main() {
    let registry = tools![export_pdf];
    assert!(registry.definitions()[0].defer_loading());
    let registry = ToolRegistry::new().with_all(Arc::new(Reports));
    let deferred: Vec<bool> = registry.definitions().iter().map(|d| d.defer_loading()).collect();
    assert_eq!(deferred, [true, false]);
}
