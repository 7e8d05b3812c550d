use tool_core::prompt;

/// Says hello.
#[prompt(meta(
    "io.modelcontextprotocol/version" = 1,
    "com.example/-draft" = true,
    "1com.example/x" = 2,
    owner = "a",
    owner = "b"
))]
fn hello() -> &'static str {
    "Hello!"
}

fn main() {}
