use tool_core::tool;

/// Exports the report as a PDF.
#[tool(defer_loading = true)]
fn export_pdf(title: String) -> String {
    title
}

/// Exports the report as a spreadsheet.
#[tool(defer_loading(yes))]
fn export_xlsx(title: String) -> String {
    title
}

fn main() {}
