//! The name check every text format makes when a call closes.

use crate::response::{ToolErrorCode, ToolResponse};
use crate::suggest::{closest, quoted_list};

/// `NOT_FOUND` with a did-you-mean and the valid names when `known` is given and lacks `name`.
/// Shared by every text format.
pub(crate) fn check_known(name: &str, known: Option<&[String]>) -> Result<(), ToolResponse> {
    let Some(known) = known else {
        return Ok(());
    };
    if known.iter().any(|k| k == name) {
        return Ok(());
    }
    let names = || known.iter().map(String::as_str);
    let hint = closest(name, names())
        .map(|h| format!(" Did you mean '{h}'?"))
        .unwrap_or_default();
    let message = if known.is_empty() {
        format!("Unknown tool '{name}': no tools are available in this conversation.")
    } else {
        format!(
            "Unknown tool '{name}'.{hint} Available tools: {}.",
            quoted_list(names())
        )
    };
    Err(ToolResponse::error(ToolErrorCode::NotFound, message))
}
