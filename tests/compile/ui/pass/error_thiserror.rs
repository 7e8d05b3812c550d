// A tool may return the user's own `thiserror` enum (EXECUTION_ERROR with its message and its
// causes'), or `ToolError` with a `From` conversion that picks a code for each variant.
use tool_core::{tool, tools, ToolCall, ToolError, ToolErrorCode, ToolStatus};

#[derive(Debug, thiserror::Error)]
enum StoreError {
    #[error("no note with id {0}")]
    Missing(u64),
    #[error("the store is locked by another writer")]
    Locked,
    #[error("the store file is damaged")]
    Damaged(#[source] std::io::Error),
}

impl From<StoreError> for ToolError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Missing(_) => ToolError::not_found(e.to_string()),
            StoreError::Locked => ToolError::unavailable(format!("{e}; try again in a moment")),
            StoreError::Damaged(_) => ToolError::from_error(e),
        }
    }
}

fn load(id: u64) -> Result<String, StoreError> {
    match id {
        1 => Ok("buy milk".into()),
        2 => Err(StoreError::Locked),
        3 => Err(StoreError::Damaged(std::io::Error::other("checksum mismatch at byte 12"))),
        _ => Err(StoreError::Missing(id)),
    }
}

/// Reads a note, failing with the store's own error type.
#[tool]
fn raw_note(id: u64) -> Result<String, StoreError> {
    load(id)
}

/// Reads a note; the store's errors become coded tool errors.
#[tool]
async fn note(id: u64) -> Result<String, ToolError> {
    std::future::ready(()).await;
    Ok(load(id)?)
}

fn main() {
    let r = tools![raw_note, note];
    let call = |name: &str, id: u64| r.call_blocking(&ToolCall::new("1", name, format!(r#"{{"id":{id}}}"#)));

    assert_eq!(call("raw_note", 1).model_text(), "buy milk");
    let raw = call("raw_note", 9);
    assert_eq!(raw.status, ToolStatus::Error);
    assert_eq!(raw.error_code(), Some(ToolErrorCode::ExecutionError));
    assert_eq!(raw.model_text(), "Error [EXECUTION_ERROR]: no note with id 9");
    assert_eq!(
        call("raw_note", 3).model_text(),
        "Error [EXECUTION_ERROR]: the store file is damaged: checksum mismatch at byte 12"
    );

    assert_eq!(call("note", 9).model_text(), "Error [NOT_FOUND]: no note with id 9");
    let locked = call("note", 2);
    assert_eq!(locked.error_code(), Some(ToolErrorCode::ServiceUnavailable));
    assert!(ToolErrorCode::ServiceUnavailable.is_retryable());
    assert_eq!(
        locked.model_text(),
        "Error [SERVICE_UNAVAILABLE]: the store is locked by another writer; try again in a moment"
    );
    assert_eq!(
        call("note", 3).model_text(),
        "Error [EXECUTION_ERROR]: the store file is damaged: checksum mismatch at byte 12"
    );
}
