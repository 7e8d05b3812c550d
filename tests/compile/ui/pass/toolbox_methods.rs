use std::sync::{Arc, Mutex};

use tool_core::{toolbox, CallId, ToolCall, ToolRegistry};

#[derive(Default)]
struct Notes {
    items: Mutex<Vec<String>>,
}

#[toolbox]
impl Notes {
    /// Adds a note and returns how many there are.
    #[tool(idempotent = false)]
    fn add(&self, text: String) -> usize {
        let mut items = self.items.lock().unwrap();
        items.push(text);
        items.len()
    }

    /// Lists the notes.
    #[tool(read_only)]
    async fn list(&self, call: CallId) -> String {
        format!("{}: {}", call.0, self.items.lock().unwrap().join(", "))
    }

    // Not a tool: an ordinary method stays as it was.
    fn len(&self) -> usize {
        self.items.lock().unwrap().len()
    }
}

/// A generic store: one tool set per concrete type.
struct Store<T> {
    value: T,
}

#[toolbox]
impl<T: std::fmt::Display + Send + Sync + 'static> Store<T> {
    /// Shows the stored value.
    #[tool]
    fn show(&self) -> String {
        self.value.to_string()
    }
}

fn main() {
    let notes = Arc::new(Notes::default());
    let registry = ToolRegistry::new()
        .with_all(Arc::clone(&notes))
        .with_all(Arc::new(Store { value: 7u8 }));
    assert_eq!(registry.names().collect::<Vec<_>>(), ["add", "list", "show"]);
    registry.call_blocking(&ToolCall::new("1", "add", r#"{"text":"milk"}"#));
    registry.call_blocking(&ToolCall::new("2", "add", r#"{"text":"eggs"}"#));
    assert_eq!(notes.len(), 2);
    assert_eq!(registry.call_blocking(&ToolCall::new("c3", "list", "{}")).model_text(), "c3: milk, eggs");
    assert_eq!(registry.call_blocking(&ToolCall::new("4", "show", "{}")).model_text(), "7");
}
