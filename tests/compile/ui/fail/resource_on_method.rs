use tool_core::resource;

struct Docs;

impl Docs {
    /// The units.
    #[resource(uri = "docs://units")]
    fn units(&self) -> &'static str {
        "celsius"
    }
}

/// Generic.
#[resource(uri = "docs://{name}")]
fn generic<T: ToString>(name: String) -> String {
    name
}

fn main() {}
