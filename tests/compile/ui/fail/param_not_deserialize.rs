use tool_core::tool;

struct Opaque;

/// Uses an opaque value.
#[tool]
fn use_it(value: Opaque) -> &'static str {
    let _ = value;
    "ok"
}

fn main() {}
