use tool_core::resource;

/// The units.
#[resource(uri = "docs://units", mime = "text/plain")]
fn units() -> &'static str {
    "celsius"
}

fn main() {}
