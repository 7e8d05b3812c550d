use tool_core::resource;

#[resource(uri = "docs://units")]
fn units() -> &'static str {
    "celsius"
}

fn main() {}
