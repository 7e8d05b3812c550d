use tool_core::tool;

struct Store;

impl Store {
    /// Reads a key.
    #[tool]
    fn read(&self, key: String) -> String {
        key
    }
}

fn main() {}
