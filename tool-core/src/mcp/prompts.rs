//! `prompts/*` and `completion/complete` over MCP: paged prompt listings,
//! rendered prompts as `GetPromptResult`s, and the user's completers as completions.

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult,
    ListPromptsResult, Reference,
};
use rmcp::ErrorData;
use serde_json::{json, Value};

use super::peers::Shared;
use super::resources::{error_data, page};
use crate::catalog::{CompletionTarget, PromptArguments, Role};

/// MCP caps one completion answer at 100 values.
const MAX_COMPLETIONS: usize = 100;

pub(super) fn list(
    shared: &Shared,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<ListPromptsResult, ErrorData> {
    let served = shared.served();
    let (items, next) = page(&served.prompts, cursor, page_size, "prompts/list")?;
    let mut result = ListPromptsResult::with_all_items(items);
    result.next_cursor = next;
    Ok(result)
}

/// Prompt arguments are strings in MCP; numbers and booleans a client sends anyway are taken
/// as their JSON text, `null` as absent.
fn arguments(request: &GetPromptRequestParams) -> Result<PromptArguments, ErrorData> {
    let mut out = PromptArguments::new();
    for (name, value) in request.arguments.iter().flatten() {
        let text = match value {
            Value::Null => continue,
            Value::String(s) => s.clone(),
            Value::Number(_) | Value::Bool(_) => value.to_string(),
            Value::Array(_) | Value::Object(_) => {
                return Err(ErrorData::invalid_params(
                    format!("invalid argument '{name}': prompt arguments are strings"),
                    None,
                ))
            }
        };
        out.insert(name.clone(), text);
    }
    Ok(out)
}

pub(super) async fn get(
    shared: &Shared,
    request: &GetPromptRequestParams,
    ctx: &crate::CallContext,
) -> Result<GetPromptResult, ErrorData> {
    let arguments = arguments(request)?;
    let catalog = shared.served().catalog.clone();
    let messages = catalog
        .render_in(&request.name, &arguments, ctx)
        .await
        .map_err(|e| error_data(&e))?;
    let messages: Vec<Value> = messages
        .iter()
        .map(|m| {
            let role = match m.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            json!({ "role": role, "content": { "type": "text", "text": m.text } })
        })
        .collect();
    let mut value = json!({ "messages": messages });
    if let Some(info) = catalog.prompt(&request.name) {
        value["description"] = json!(info.description);
    }
    serde_json::from_value(value).map_err(|e| {
        ErrorData::internal_error(format!("the prompt could not be encoded: {e}"), None)
    })
}

pub(super) fn complete(
    shared: &Shared,
    request: &CompleteRequestParams,
) -> Result<CompleteResult, ErrorData> {
    let catalog = shared.served().catalog.clone();
    let argument = request.argument.name.as_str();
    let target = match &request.r#ref {
        Reference::Prompt(prompt) => {
            let Some(info) = catalog.prompt(&prompt.name) else {
                return Err(ErrorData::invalid_params(
                    format!("no prompt named '{}' to complete arguments of", prompt.name),
                    None,
                ));
            };
            if !info.arguments.iter().any(|a| a.name == argument) {
                return Err(ErrorData::invalid_params(
                    format!("prompt '{}' has no argument '{argument}'", prompt.name),
                    None,
                ));
            }
            CompletionTarget::Prompt(prompt.name.clone())
        }
        Reference::Resource(template) => {
            let Some(info) = catalog.templates().find(|t| t.uri.as_str() == template.uri) else {
                return Err(ErrorData::invalid_params(
                    format!("no resource template '{}' to complete variables of", template.uri),
                    None,
                ));
            };
            if !info.uri.variables().any(|v| v == argument) {
                return Err(ErrorData::invalid_params(
                    format!("resource template '{}' has no variable '{argument}'", template.uri),
                    None,
                ));
            }
            CompletionTarget::Template(template.uri.clone())
        }
        _ => {
            return Err(ErrorData::invalid_params(
                "completion/complete completes prompt arguments (ref/prompt) and resource template variables (ref/resource)",
                None,
            ))
        }
    };
    let mut values = catalog.complete(&target, argument, &request.argument.value);
    let total = values.len();
    values.truncate(MAX_COMPLETIONS);
    let value = json!({
        "completion": { "values": values, "total": total, "hasMore": total > MAX_COMPLETIONS }
    });
    serde_json::from_value(value).map_err(|e| {
        ErrorData::internal_error(format!("the completion could not be encoded: {e}"), None)
    })
}
