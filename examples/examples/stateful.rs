//! A stateful tool set: an in-memory note store whose `#[tool]` methods share one instance,
//! plus the caller's identity injected from the call's context (never seen by the model).
//!
//! `cargo run --example stateful`

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tool_core::{toolbox, CallContext, Extension, Json, ToolCall, ToolError, ToolRegistry};

#[derive(Clone)]
struct User(String);

#[tool_core::tool_type]
#[derive(Clone)]
struct Note {
    id: u64,
    owner: String,
    text: String,
}

#[derive(Default)]
struct NoteStore {
    next_id: AtomicU64,
    notes: Mutex<BTreeMap<u64, Note>>,
}

impl NoteStore {
    fn notes(&self) -> Result<std::sync::MutexGuard<'_, BTreeMap<u64, Note>>, ToolError> {
        self.notes
            .lock()
            .map_err(|_| ToolError::unavailable("the note store is unavailable; try again"))
    }
}

#[toolbox]
impl NoteStore {
    /// Creates a note for the current user and returns it.
    #[tool(idempotent = false)]
    fn create(
        &self,
        /// The note's text.
        text: String,
        user: Extension<User>,
    ) -> Result<Json<Note>, ToolError> {
        if text.trim().is_empty() {
            return Err(ToolError::invalid_param("'text' must not be empty"));
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let note = Note {
            id,
            owner: user.0 .0,
            text,
        };
        self.notes()?.insert(id, note.clone());
        Ok(Json(note))
    }

    /// Lists the current user's notes, oldest first.
    #[tool(read_only)]
    fn list(&self, user: Extension<User>) -> Result<Json<Vec<Note>>, ToolError> {
        let notes = self.notes()?;
        Ok(Json(
            notes
                .values()
                .filter(|n| n.owner == user.0 .0)
                .cloned()
                .collect(),
        ))
    }

    /// Deletes one of the current user's notes by id.
    #[tool(destructive, idempotent)]
    fn delete(&self, id: u64, user: Extension<User>) -> Result<String, ToolError> {
        let mut notes = self.notes()?;
        match notes.get(&id) {
            Some(note) if note.owner == user.0 .0 => {
                notes.remove(&id);
                Ok(format!("Deleted note {id}."))
            }
            Some(_) => Err(ToolError::permission_denied(format!(
                "note {id} belongs to another user"
            ))),
            None => Err(ToolError::not_found(format!(
                "no note with id {id}; call 'list' to see the ids"
            ))),
        }
    }
}

fn main() {
    let store = Arc::new(NoteStore::default());
    let registry = ToolRegistry::new().with_all(Arc::clone(&store));

    println!("== Definitions (no trace of the injected `user`) ==");
    for def in registry.definitions() {
        println!(
            "{}: {}",
            def.name,
            serde_json::to_string(&def.input_schema).unwrap_or_default()
        );
    }

    let ada = CallContext::new().with_extension(User("ada".into()));
    let bob = CallContext::new().with_extension(User("bob".into()));
    let script = [
        (
            &ada,
            ToolCall::new("1", "create", r#"{"text": "buy milk"}"#),
        ),
        (
            &ada,
            ToolCall::new("2", "create", r#"{"text": "call mum"}"#),
        ),
        (
            &bob,
            ToolCall::new("3", "create", r#"{"text": "bob's note"}"#),
        ),
        (&ada, ToolCall::new("4", "list", "{}")),
        (&bob, ToolCall::new("5", "delete", r#"{"id": 1}"#)),
        (&ada, ToolCall::new("6", "delete", r#"{"id": 1}"#)),
        (&ada, ToolCall::new("7", "delete", r#"{"id": 1}"#)),
        (&ada, ToolCall::new("8", "list", "{}")),
    ];
    println!("\n== Calls ==");
    for (ctx, call) in &script {
        let response = tool_core::block_on(registry.call_in(call, ctx));
        println!(
            "{} {}({}) -> {}",
            call.id,
            call.name,
            call.arguments,
            response.model_text()
        );
    }
}
