use tool_core::toolbox;

struct Notes;

#[toolbox]
impl Notes {
    /// Counts nothing.
    #[tool]
    fn count() -> u32 {
        0
    }
}

fn main() {}
