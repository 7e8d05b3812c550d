use tool_core::tool;

/// Reads one row of the sales table.
#[tool(allowed_callers = "code")]
fn read_row(id: u32) -> String {
    format!("row {id}")
}

/// Sums a column.
#[tool(allowed_callers = program)]
fn sum_column(column: String) -> String {
    column
}

fn main() {}
