use tool_core::{tool, tools, ToolAnnotations};

/// Deletes a note.
#[tool(name = "delete-note", destructive, idempotent = true, open_world = false, read_only = false, timeout_ms = 5000)]
pub fn delete_note(
    #[arg(rename = "id", description = "The note's id.")] note_id: u64,
    #[arg(default = "trash")] mode: String,
    #[arg(default = 3)] r#type: u8,
    mut retries: u8,
) -> String {
    retries += 1;
    format!("{note_id} {mode} {} {retries}", r#type)
}

/// Described by the attribute instead of a doc comment.
#[tool(description = "Pings.", crate = ::tool_core)]
pub(crate) fn ping() -> &'static str {
    "pong"
}

fn main() {
    let r = tools![delete_note, ping];
    let def = r.definition("delete-note").unwrap();
    assert_eq!(
        def.annotations,
        ToolAnnotations::NONE.with_read_only(false).with_destructive(true).with_idempotent(true).with_open_world(false)
    );
    assert_eq!(def.input_schema["required"], tool_core::__private::serde_json::json!(["id", "retries"]));
    assert_eq!(r.get("delete-note").unwrap().timeout_ms(), Some(5000));
    assert_eq!(delete_note::NAME, "delete-note");
    assert_eq!(ping::DESCRIPTION, "Pings.");
    // The function stays an ordinary function.
    assert_eq!(delete_note(1, "x".into(), 2, 0), "1 x 2 1");
}
