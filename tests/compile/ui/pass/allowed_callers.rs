use tool_core::{tool, toolbox, tools, AllowedCallers, ToolRegistry};

/// Reads one row of the sales table.
#[tool(allowed_callers = "program", read_only)]
fn read_row(id: u32) -> String {
    format!("row {id}")
}

/// Sums a column.
#[tool(allowed_callers = "any")]
fn sum_column(column: String) -> String {
    column
}

/// Says hi.
#[tool(allowed_callers = "direct")]
fn hi() -> &'static str {
    "hi"
}

/// Exports a chart.
#[derive(tool_core::Tool)]
#[tool_def(allowed_callers = "program", event = "chart")]
struct ExportChart {
    title: String,
}

struct Sales;

#[toolbox]
impl Sales {
    /// Lists the regions.
    #[tool(allowed_callers = "any")]
    fn regions(&self) -> String {
        String::new()
    }
}

fn main() {
    let registry = tools![read_row, sum_column, hi, ExportChart];
    let callers: Vec<AllowedCallers> =
        registry.definitions().iter().map(|d| d.allowed_callers()).collect();
    assert_eq!(
        callers,
        [
            AllowedCallers::Program,
            AllowedCallers::Any,
            AllowedCallers::Direct,
            AllowedCallers::Program
        ]
    );
    let sales = ToolRegistry::new().with_all(std::sync::Arc::new(Sales));
    assert_eq!(sales.definitions()[0].allowed_callers(), AllowedCallers::Any);
}
