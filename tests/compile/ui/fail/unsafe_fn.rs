use tool_core::tool;

/// Reads raw memory.
#[tool]
unsafe fn peek(addr: usize) -> usize {
    addr
}

fn main() {}
