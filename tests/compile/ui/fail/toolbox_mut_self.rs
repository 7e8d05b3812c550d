use tool_core::toolbox;

struct Notes {
    items: Vec<String>,
}

#[toolbox]
impl Notes {
    /// Adds a note.
    #[tool]
    fn add(&mut self, text: String) -> String {
        self.items.push(text);
        "added".to_string()
    }
}

fn main() {}
