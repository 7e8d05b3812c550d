use tool_core::{tool, CallId};

/// Echoes the call id.
#[tool]
fn echo(#[arg(rename = "id")] call: CallId) -> String {
    call.0
}

fn main() {}
