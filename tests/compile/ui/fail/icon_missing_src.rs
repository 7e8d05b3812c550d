use tool_core::resource;

/// The units.
#[resource(uri = "docs://units", icon(mime_type = "image/png", sizes = "48x48"))]
fn units() -> &'static str {
    "°C"
}

fn main() {}
